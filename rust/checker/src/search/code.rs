//! The machine code of the hot paths, one copy per instruction set
//! ([`algoku_sudoku::isa`]: the build's target, and AVX2 where the CPU has
//! it).
//!
//! The lower levels' recursion (`inner` ↔ `branch_on`, with what they
//! inline: `last`, the composite intersections, the scans) is written once
//! as `#[inline(always)]` generics over an [`Isa`] token; each
//! implementation is the pair of functions the recursion goes through, so
//! the AVX2 one compiles the whole lower search for its target features.
//! These entry points are written once, in `entry_points!`, which makes
//! the trait's methods, both implementations and the AVX2 copies of them.
//! The local table's filling and the composite tables' making (bit-matrix
//! transpositions, which vectorise 256 bits wide) get a copy each too.
//! [`Ctx::lower`] picks one at run time, from the [`Avx2`] token the
//! search was given.
//!
//! The bitmaps' and-nots (and the composite pass's mask of non-zero words)
//! are the instruction set's own methods: in the AVX2 code, aligned 32-byte
//! loads and stores written out (the bitmaps are cache-line aligned, and a
//! composite row is kept 0 up to its word count rounded up to 4). Compiled
//! from plain loops they were split into 16-byte halves, as the build's
//! target (x86-64-v2) tunes for CPUs whose unaligned 32-byte accesses are
//! slow.

use std::mem::MaybeUninit;

#[cfg(target_arch = "x86_64")]
pub(super) use algoku_sudoku::isa::Avx2;

use super::table::{and_not, Bits, Table};
use super::{Ctx, Pre, CW, LOCAL_WORDS};

/// A buffer of [`CW`] words, aligned as [`Bits`], that the composite pass
/// fills only as far as it reads ([`Isa::and_not_nonzero`]).
#[repr(C, align(64))]
pub(super) struct Words(pub(super) [MaybeUninit<u64>; CW]);

impl Words {
    pub(super) fn new() -> Self {
        Words([MaybeUninit::uninit(); CW])
    }
}

/// The entry points of each compiled copy, written once: what each is
/// (its arguments, and the generic code it runs with the token `isa`),
/// handed to `$make`, which writes them as [`Isa`]'s methods
/// (`declare`), the baseline's (`direct`), the AVX2 token's
/// (`through_avx2`), or the `avx2` module's copies (`avx2_copies`). The
/// brackets hold the baseline's attributes: `inner` and `branch_on` are
/// the recursion's calls, left to the compiler; the others inline.
macro_rules! entry_points {
    ($make:ident) => {
        $make! {
            /// [`Ctx::inner`] in this code.
            [] fn inner(
                ctx: &mut Ctx<'_>,
                chosen: u128,
                dead: u128,
                left: usize,
                a: &mut Bits<LOCAL_WORDS>,
                pre: Option<Pre>,
            ) |isa| ctx.inner(isa, chosen, dead, left, a, pre);
            /// [`Ctx::branch_on`] in this code.
            [] fn branch_on(
                ctx: &mut Ctx<'_>,
                u: u128,
                chosen: u128,
                dead: u128,
                left: usize,
                a: &mut Bits<LOCAL_WORDS>,
                pre: Option<Pre>,
            ) |isa| ctx.branch_on(isa, u, chosen, dead, left, a, pre);
            /// [`Table::fill`] of the local table, in this code.
            [#[inline(always)]] fn fill_local(t: &mut Table<LOCAL_WORDS>, sets: &[u128])
                |_isa| t.fill(sets, true);
            /// [`Ctx::build_comp_body`] in this code.
            [#[inline(always)]] fn build_comp(
                ctx: &mut Ctx<'_>,
                d: usize,
                chosen: u128,
                dead: u128,
                left: usize,
            ) -> bool |_isa| ctx.build_comp_body(d, chosen, dead, left);
        }
    };
}

/// [`entry_points!`] as the declarations of [`Isa`]'s methods.
macro_rules! declare {
    ($($(#[$doc:meta])* [$(#[$own:meta])*] fn $name:ident($($arg:ident: $ty:ty),* $(,)?)
        $(-> $ret:ty)? |$isa:ident| $body:expr;)*) => {
        $(
            $(#[$doc])*
            #[allow(clippy::too_many_arguments)]
            fn $name(self, $($arg: $ty),*) $(-> $ret)?;
        )*
    };
}

/// [`entry_points!`] as the baseline's methods: the generic code itself.
macro_rules! direct {
    ($($(#[$doc:meta])* [$(#[$own:meta])*] fn $name:ident($($arg:ident: $ty:ty),* $(,)?)
        $(-> $ret:ty)? |$isa:ident| $body:expr;)*) => {
        $(
            $(#[$own])*
            fn $name(self, $($arg: $ty),*) $(-> $ret)? {
                let $isa = self;
                $body
            }
        )*
    };
}

/// [`entry_points!`] as [`Avx2`]'s methods: calls of the `avx2` module's
/// copies (see the SAFETY note on the impl).
macro_rules! through_avx2 {
    ($($(#[$doc:meta])* [$(#[$own:meta])*] fn $name:ident($($arg:ident: $ty:ty),* $(,)?)
        $(-> $ret:ty)? |$isa:ident| $body:expr;)*) => {
        $(
            #[inline(always)]
            fn $name(self, $($arg: $ty),*) $(-> $ret)? {
                unsafe { avx2::$name(self, $($arg),*) }
            }
        )*
    };
}

/// [`entry_points!`] as the `avx2` module's copies: the generic code
/// compiled with [`Avx2`]'s features.
#[cfg(target_arch = "x86_64")]
macro_rules! avx2_copies {
    ($($(#[$doc:meta])* [$(#[$own:meta])*] fn $name:ident($($arg:ident: $ty:ty),* $(,)?)
        $(-> $ret:ty)? |$isa:ident| $body:expr;)*) => {
        algoku_sudoku::avx2_code! {
            $(
                #[allow(clippy::too_many_arguments)]
                pub(super) fn $name($isa: Avx2, $($arg: $ty),*) $(-> $ret)? {
                    $body
                }
            )*
        }
    };
}

/// One compiled copy of the hot paths; a value is the proof that the CPU
/// runs its code.
pub(super) trait Isa: Copy {
    entry_points!(declare);

    /// `a & !b` on the local bitmaps.
    #[inline(always)]
    fn and_not_local(self, a: &Bits<LOCAL_WORDS>, b: &Bits<LOCAL_WORDS>) -> Bits<LOCAL_WORDS> {
        and_not(a, b)
    }

    /// `dst = src & !hit` on the first `n` words of composite bitmaps,
    /// rounded up to 4 (the stack's rows are 0 from `n` to there, as the
    /// AVX2 code reads them whole).
    #[inline(always)]
    fn and_not_rows(self, dst: &mut Bits<CW>, src: &Bits<CW>, hit: &Bits<CW>, n: usize) {
        for w in 0..(n.div_ceil(4) * 4).min(CW) {
            dst[w] = src[w] & !hit[w];
        }
    }

    /// Writes `alive & !hit` (`hit` absent: 0) on the first `n` words to
    /// `out` and returns the mask of its non-zero words: a bit only for a
    /// word written (the AVX2 code writes up to `n` rounded up to 4:
    /// `alive`'s words there must be 0, so their bits stay clear).
    #[inline(always)]
    fn and_not_nonzero(
        self,
        alive: &Bits<CW>,
        hit: Option<&Bits<CW>>,
        n: usize,
        out: &mut Words,
    ) -> u64 {
        let mut nonzero = 0u64;
        for w in 0..n.min(CW) {
            let x = alive[w] & !hit.map_or(0, |h| h[w]);
            out.0[w].write(x);
            nonzero |= ((x != 0) as u64) << w;
        }
        nonzero
    }
}

/// The build's target (x86-64-v2 on x86-64: see `.cargo/config.toml`).
#[derive(Clone, Copy)]
pub(super) struct Baseline;

impl Isa for Baseline {
    entry_points!(direct);
}

// SAFETY (every block below): an `Avx2` value exists only when
// `Avx2::detect` found the features `avx2_code!` builds these functions for.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
impl Isa for Avx2 {
    entry_points!(through_avx2);

    #[inline(always)]
    fn and_not_local(self, a: &Bits<LOCAL_WORDS>, b: &Bits<LOCAL_WORDS>) -> Bits<LOCAL_WORDS> {
        unsafe { avx2::and_not_local(a, b) }
    }

    #[inline(always)]
    fn and_not_rows(self, dst: &mut Bits<CW>, src: &Bits<CW>, hit: &Bits<CW>, n: usize) {
        unsafe { avx2::and_not_rows(dst, src, hit, n) }
    }

    #[inline(always)]
    fn and_not_nonzero(
        self,
        alive: &Bits<CW>,
        hit: Option<&Bits<CW>>,
        n: usize,
        out: &mut Words,
    ) -> u64 {
        unsafe { avx2::and_not_nonzero(alive, hit, n, out) }
    }
}

/// The [`Avx2`] copies: safe functions with its target features (calling
/// one needs `unsafe` only where the features are not known). The bitmap
/// methods read and write the bitmaps' 32-byte chunks whole, aligned: the
/// one place raw pointers are used.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2 {
    use std::arch::x86_64::*;

    use super::{Avx2, Bits, Ctx, Pre, Table, Words, CW, LOCAL_WORDS};

    entry_points!(avx2_copies);

    algoku_sudoku::avx2_code! {
        #[inline]
        pub(super) fn and_not_local(
            a: &Bits<LOCAL_WORDS>,
            b: &Bits<LOCAL_WORDS>,
        ) -> Bits<LOCAL_WORDS> {
            const { assert!(LOCAL_WORDS == 4) };
            let mut out = Bits::ZERO;
            // SAFETY: `Bits` is 64-byte aligned and 32 bytes long here.
            unsafe {
                let x = _mm256_load_si256(a.as_ptr() as *const __m256i);
                let y = _mm256_load_si256(b.as_ptr() as *const __m256i);
                _mm256_store_si256(out.as_mut_ptr() as *mut __m256i, _mm256_andnot_si256(y, x));
            }
            out
        }

        #[inline]
        pub(super) fn and_not_rows(dst: &mut Bits<CW>, src: &Bits<CW>, hit: &Bits<CW>, n: usize) {
            let (d, s, h) = (
                dst.as_mut_ptr() as *mut __m256i,
                src.as_ptr() as *const __m256i,
                hit.as_ptr() as *const __m256i,
            );
            for i in 0..n.div_ceil(4).min(CW / 4) {
                // SAFETY: chunk i < CW / 4 of 64-byte aligned bitmaps.
                unsafe {
                    let x = _mm256_load_si256(s.add(i));
                    let x = _mm256_andnot_si256(_mm256_load_si256(h.add(i)), x);
                    _mm256_store_si256(d.add(i), x);
                }
            }
        }

        #[inline]
        pub(super) fn and_not_nonzero(
            alive: &Bits<CW>,
            hit: Option<&Bits<CW>>,
            n: usize,
            out: &mut Words,
        ) -> u64 {
            let a = alive.as_ptr() as *const __m256i;
            let o = out.0.as_mut_ptr() as *mut __m256i;
            let mut nonzero = 0u64;
            for i in 0..n.div_ceil(4).min(CW / 4) {
                // SAFETY: chunk i < CW / 4 of 64-byte aligned buffers.
                let zeros = unsafe {
                    let x = _mm256_load_si256(a.add(i));
                    let x = match hit {
                        Some(h) => {
                            let h = h.as_ptr() as *const __m256i;
                            _mm256_andnot_si256(_mm256_load_si256(h.add(i)), x)
                        }
                        None => x,
                    };
                    _mm256_store_si256(o.add(i), x);
                    let zero_words = _mm256_cmpeq_epi64(x, _mm256_setzero_si256());
                    _mm256_movemask_pd(_mm256_castsi256_pd(zero_words)) as u64
                };
                nonzero |= (!zeros & 15) << (4 * i);
            }
            nonzero
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The AVX2 bitmap operations give the build's results on every word
    /// count (rows 0 past their words, as the search keeps them).
    #[test]
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)] // reads the words the operations wrote
    fn avx2_bitmap_operations_match_the_baseline() {
        let Some(avx2) = Avx2::detect() else {
            eprintln!("no AVX2 on this CPU: nothing to compare");
            return;
        };
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for n in 0..=CW {
            for sparse in [false, true] {
                let mut src = Bits::<CW>::ZERO;
                let mut hit = Bits::<CW>::ZERO;
                for w in 0..CW {
                    let x = next();
                    // Sparse rows: most words 0 (the search's case).
                    src[w] = if w < n && (!sparse || x % 5 == 0) {
                        next()
                    } else {
                        0
                    };
                    hit[w] = next();
                }
                let mut rows = [Bits::<CW>([7; CW]), Bits::<CW>([7; CW])];
                let mut outs = [Words::new(), Words::new(), Words::new(), Words::new()];
                Baseline.and_not_rows(&mut rows[0], &src, &hit, n);
                avx2.and_not_rows(&mut rows[1], &src, &hit, n);
                let [o0, o1, o2, o3] = &mut outs;
                let masks = [
                    Baseline.and_not_nonzero(&src, Some(&hit), n, o0),
                    avx2.and_not_nonzero(&src, Some(&hit), n, o1),
                    Baseline.and_not_nonzero(&src, None, n, o2),
                    avx2.and_not_nonzero(&src, None, n, o3),
                ];
                let a = Bits([src[0], src[1], src[2], src[3]]);
                let b = Bits([hit[0], hit[1], hit[2], hit[3]]);
                let local = [Baseline.and_not_local(&a, &b), avx2.and_not_local(&a, &b)];
                let m = (n.div_ceil(4) * 4).min(CW);
                assert_eq!(rows[0][..m], rows[1][..m], "{n} words");
                assert_eq!(masks[0], masks[1], "{n} words");
                assert_eq!(masks[2], masks[3], "{n} words");
                assert_eq!(local[0], local[1]);
                for (k, out) in outs.iter().enumerate() {
                    let mut want = 0u64;
                    for w in 0..n {
                        let x = src[w] & if k < 2 { !hit[w] } else { !0 };
                        want |= ((x != 0) as u64) << w;
                        // SAFETY: word w < n was written by both.
                        assert_eq!(unsafe { out.0[w].assume_init() }, x);
                    }
                    assert_eq!(masks[k], want, "{n} words");
                }
            }
        }
    }
}
