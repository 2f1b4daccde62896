//! The instruction sets the hot loops are compiled for, shared by the
//! solver and the grid checker: one token type, one feature list, one
//! detection.
//!
//! The default build targets x86-64-v2 (`.cargo/config.toml`). On a CPU
//! that also has AVX2, BMI1/2, LZCNT and POPCNT (x86-64-v3's integer core)
//! the hottest code runs a second copy compiled for them: functions
//! written inside [`avx2_code!`](crate::avx2_code) carry exactly those target features, and
//! an [`Avx2`] value, made only by [`Avx2::detect`], is the proof that the
//! CPU has them. Calling such a function is `unsafe` only because the
//! compiler cannot see that proof; each caller holds an [`Avx2`] value and
//! says so in its `SAFETY` comment. Everything else stays safe code.

/// x86-64 with AVX2, BMI1/2, LZCNT and POPCNT; made only by
/// [`Avx2::detect`], so a value says the CPU runs [`avx2_code!`](crate::avx2_code) functions.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// `Some` iff this CPU has the features of [`avx2_code!`](crate::avx2_code).
    #[inline]
    pub fn detect() -> Option<Avx2> {
        let has = std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("popcnt");
        has.then_some(Avx2(()))
    }
}

/// Compiles the functions inside for [`Avx2`]'s features (x86-64 only;
/// elsewhere they are left out). The one place the feature list is
/// written.
#[macro_export]
macro_rules! avx2_code {
    ($($item:item)*) => {
        $(
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
            $item
        )*
    };
}
