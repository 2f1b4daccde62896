//! The compiled copies of the search, one per instruction set.

use super::state::{State, Step};
use super::{Near, Solver};
use crate::grid::Grid;
#[cfg(target_arch = "x86_64")]
pub(super) use crate::isa::Avx2;

/// One compiled copy of the search: [`Solver::search_body`] and the steps
/// it keeps off its hot path, built for some target features
/// ([`crate::isa`]). On a CPU with [`Avx2`]'s features the whole search
/// runs the copy built for them (wider vectors for the state copies and
/// band-wide clears, BMI bit operations), picked once per solve
/// ([`Avx2::detect`]); docs/benchmarks.md has what it saves. A value of an
/// implementing type is the proof that the CPU runs its code.
pub(super) trait Isa: Copy {
    /// [`Solver::search_body`] in this code.
    fn search(self, solver: &mut Solver, state: &mut State);
    /// [`State::from_grid`] in this code.
    fn start(self, grid: &Grid) -> State;
    /// [`State::singles`] for cell branching, in this code.
    fn cell_singles(self, state: &mut State, rich: bool) -> Step;
    /// [`State::columns`] in this code.
    fn columns(self, state: &mut State) -> Option<bool>;
    /// [`State::triads`] in this code.
    fn triads(self, state: &mut State) -> Option<bool>;
    /// [`State::config_choice`] in this code.
    fn config_choice(self, state: &State, near: &mut Near) -> Option<(usize, usize, u8)>;
}

/// The build's target.
#[derive(Clone, Copy)]
pub(super) struct Baseline;

impl Isa for Baseline {
    #[inline(never)]
    fn search(self, solver: &mut Solver, state: &mut State) {
        solver.search_body(self, state)
    }
    #[inline]
    fn start(self, grid: &Grid) -> State {
        State::from_grid(grid)
    }
    #[inline(never)] // keeps `search` small
    fn cell_singles(self, state: &mut State, rich: bool) -> Step {
        state.singles::<true>(rich)
    }
    #[inline(never)] // off the hot path: keeps `search` small
    fn columns(self, state: &mut State) -> Option<bool> {
        state.columns()
    }
    #[inline(never)]
    fn triads(self, state: &mut State) -> Option<bool> {
        state.triads()
    }
    #[inline(never)]
    fn config_choice(self, state: &State, near: &mut Near) -> Option<(usize, usize, u8)> {
        state.config_choice(near)
    }
}

/// The [`Avx2`] copies: safe functions with its target features; calling
/// one needs `unsafe` only where the features are not known, and an
/// [`Avx2`] value says they are.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Avx2, Grid, Near, Solver, State, Step};

    crate::avx2_code! {
        pub(super) fn search(isa: Avx2, solver: &mut Solver, state: &mut State) {
            solver.search_body(isa, state)
        }
        pub(super) fn start(grid: &Grid) -> State {
            State::from_grid(grid)
        }
        #[inline(never)]
        pub(super) fn cell_singles(state: &mut State, rich: bool) -> Step {
            state.singles::<true>(rich)
        }
        #[inline(never)]
        pub(super) fn columns(state: &mut State) -> Option<bool> {
            state.columns()
        }
        #[inline(never)]
        pub(super) fn triads(state: &mut State) -> Option<bool> {
            state.triads()
        }
        #[inline(never)]
        pub(super) fn config_choice(state: &State, near: &mut Near) -> Option<(usize, usize, u8)> {
            state.config_choice(near)
        }
    }
}

// SAFETY (every block below): an `Avx2` value exists only when
// `Avx2::detect` found the features `avx2_code!` builds these functions for.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
impl Isa for Avx2 {
    #[inline(always)]
    fn search(self, solver: &mut Solver, state: &mut State) {
        unsafe { avx2::search(self, solver, state) }
    }
    #[inline(always)]
    fn start(self, grid: &Grid) -> State {
        unsafe { avx2::start(grid) }
    }
    #[inline(always)]
    fn cell_singles(self, state: &mut State, rich: bool) -> Step {
        unsafe { avx2::cell_singles(state, rich) }
    }
    #[inline(always)]
    fn columns(self, state: &mut State) -> Option<bool> {
        unsafe { avx2::columns(state) }
    }
    #[inline(always)]
    fn triads(self, state: &mut State) -> Option<bool> {
        unsafe { avx2::triads(state) }
    }
    #[inline(always)]
    fn config_choice(self, state: &State, near: &mut Near) -> Option<(usize, usize, u8)> {
        unsafe { avx2::config_choice(state, near) }
    }
}
