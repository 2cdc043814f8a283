//! The depth-first search: [`search`] propagates, asks the branch point what to do and
//! recurses on a copy of the state for each guess; [`Ctx`] counts solutions and guesses
//! against the limit and the guess budget. Its own file because it is the one recursive
//! function and the one place where a [`State`] is copied.
//!
//! Where each trick lives:
//! - `search`: configuration branches; cell guesses, the last candidate applied in place;
//!   paired guesses before the first dead end, and configurations from it on.
//! - `Ctx::guess`: the guess budget.

use super::branch::Branch;
use super::state::State;
use crate::grid::Grid;

pub(super) struct Ctx {
    pub(super) limit: u32,
    pub(super) solutions: u32,
    pub(super) first: Option<Grid>,
    pub(super) guesses: u64,
    pub(super) max_guesses: u64,
    pub(super) gave_up: bool,
    /// Whether branch points use [`State::branch_point`] (triads and configurations) or go
    /// straight to a cell guess; `None` until the first branch point decides
    /// ([`State::eager`]), `Some(true)` from the first dead end on.
    pub(super) configs: Option<bool>,
}

impl Ctx {
    /// Counts one guess; `false` once the budget is spent, which stops the whole search, not
    /// just this branch (**guess budget**).
    #[inline(always)]
    fn guess(&mut self) -> bool {
        if self.guesses >= self.max_guesses {
            self.gave_up = true;
            return false;
        }
        self.guesses += 1;
        true
    }

    /// Whether the search is over: enough solutions found, or the budget spent.
    #[inline(always)]
    fn done(&self) -> bool {
        self.solutions >= self.limit || self.gave_up
    }
}

/// Searches from `s`, whose words changed since they were last examined are `dirty`. The
/// state is the search's to change; it is borrowed, not moved, so that the start state is not
/// copied on the way in (two 384-byte copies a puzzle when it was moved).
pub(super) fn search(s: &mut State, mut dirty: u32, ctx: &mut Ctx) {
    loop {
        if !s.propagate(dirty) {
            ctx.configs = Some(true);
            return;
        }
        if s.is_solved() {
            ctx.solutions += 1;
            if ctx.first.is_none() {
                ctx.first = Some(s.solution_grid());
            }
            return;
        }
        let configs = *ctx.configs.get_or_insert_with(|| s.eager());
        let branch = if configs {
            s.branch_point()
        } else {
            Branch::Cell
        };
        match branch {
            Branch::Dead => return,
            Branch::Again(changed) => {
                dirty = changed;
                continue;
            }
            Branch::Config(d, a, z) => {
                if !ctx.guess() {
                    return;
                }
                let mut next = *s;
                for i in 0..3 {
                    next.cells[3 * d + i] &= a[i];
                    s.cells[3 * d + i] &= z[i];
                }
                search(&mut next, 7 << (3 * d), ctx);
                if ctx.done() {
                    return;
                }
                dirty = 7 << (3 * d);
                continue;
            }
            Branch::Cell => {}
        }
        let (b, bit) = s.pick_cell();
        let mut digits = 0u32;
        for d in 0..9 {
            digits |= ((s.cells[3 * d + b] & bit != 0) as u32) << d;
        }
        // Propagation leaves no open cell with fewer than two candidates.
        debug_assert!(digits.count_ones() >= 2);
        dirty = 0;
        // **Paired guesses**: before the search's first dead end, a second cell that does not
        // see the first is guessed with it, so that one propagation does the work of two. The
        // first digit's branch is split exactly: both guesses, then the first with the second's
        // digit removed; the other digits follow as below. The order does not depend on the
        // limit, so the first solution found is the same in every mode.
        if !configs {
            if let Some((b2, bit2)) = s.second_cell(b, bit) {
                let d = digits.trailing_zeros() as usize;
                // The second cell's lowest digit (a bivalue cell has two; 0 is never taken).
                let d2 = (0..9)
                    .find(|&d2| s.cells[3 * d2 + b2] & bit2 != 0)
                    .unwrap_or(0);
                debug_assert!(s.cells[3 * d2 + b2] & bit2 != 0);
                for both in [true, false] {
                    if !ctx.guess() {
                        return;
                    }
                    let mut next = *s;
                    next.assign(d, b, bit);
                    if both {
                        next.assign(d2, b2, bit2);
                    } else {
                        next.cells[3 * d2 + b2] &= !bit2;
                    }
                    search(&mut next, 1 << (3 * d + b) | 1 << (3 * d2 + b2), ctx);
                    if ctx.done() {
                        return;
                    }
                }
                digits &= digits - 1;
                s.cells[3 * d + b] &= !bit;
                dirty = 1 << (3 * d + b);
            }
        }
        loop {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            if digits == 0 {
                // Last candidate: the others were refuted, so apply it in place.
                s.assign(d, b, bit);
                dirty |= 1 << (3 * d + b);
                break;
            }
            if !ctx.guess() {
                return;
            }
            let mut next = *s;
            next.assign(d, b, bit);
            search(&mut next, dirty | 1 << (3 * d + b), ctx);
            if ctx.done() {
                return;
            }
            s.cells[3 * d + b] &= !bit;
            dirty |= 1 << (3 * d + b);
        }
    }
}
