//! The solution path: SE's `getDifficulty` loop. Ask the producers in SE's order for one hint,
//! apply it, and keep the running maximum of the ratings: the ER is the maximum over the whole
//! path, the EP its value when the first cell is placed, the ED its value after the first step.

use super::basic::{self, Scope};
use super::board::{cells_of, Board, Cells, BLOCK, REGION_MASK};
use super::chains::{ChainHint, Chainer, Mode};
use super::exclusion;
use super::hint::{Detail, First, Hint, Sink};
use super::unique;

/// One of SE 1.2.1's hint producers, in the order its solver asks them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Producer {
    HiddenSingle,
    DirectPointing,
    DirectHiddenPair,
    NakedSingle,
    DirectHiddenTriplet,
    PointingClaiming,
    NakedPair,
    XWing,
    HiddenPair,
    NakedTriplet,
    Swordfish,
    HiddenTriplet,
    XyWing,
    XyzWing,
    UniqueLoops,
    NakedQuad,
    Jellyfish,
    HiddenQuad,
    Bug,
    AlignedPair,
    Cycles,
    AlignedTriplet,
    Chains(Mode),
}

/// SE 1.2.1's producers in its order (`serate --techs=…` selecting SE 1.2.1's set).
pub(crate) const PRODUCERS: [Producer; 32] = {
    use Producer::*;
    [
        HiddenSingle,
        DirectPointing,
        DirectHiddenPair,
        NakedSingle,
        DirectHiddenTriplet,
        PointingClaiming,
        NakedPair,
        XWing,
        HiddenPair,
        NakedTriplet,
        Swordfish,
        HiddenTriplet,
        XyWing,
        XyzWing,
        UniqueLoops,
        NakedQuad,
        Jellyfish,
        HiddenQuad,
        Bug,
        AlignedPair,
        Cycles,
        AlignedTriplet,
        Chains(Mode::NISHIO),
        Chains(Mode::MULTIPLE),
        Chains(Mode::DYNAMIC),
        Chains(Mode::new(true, true, false, 1, 0)),
        Chains(Mode::new(true, true, false, 2, 0)),
        Chains(Mode::new(true, true, false, 3, 0)),
        Chains(Mode::new(true, true, false, 4, 0)),
        Chains(Mode::new(true, true, false, 4, 1)),
        Chains(Mode::new(true, true, false, 4, 2)),
        Chains(Mode::new(true, true, false, 4, 3)),
    ]
};

/// Asks one producer for its hint (the first it finds, or for chains the best by SE's sort).
#[cfg(test)]
pub(crate) fn ask(p: Producer, b: &Board, chainer: &mut Chainer) -> Option<Hint> {
    ask_in(p, b, Scope::ALL, chainer)
}

/// [`ask`], the simple producers looking only within `scope` (see [`Quiet`]).
fn ask_in(p: Producer, b: &Board, scope: Scope, chainer: &mut Chainer) -> Option<Hint> {
    use Producer::*;
    let mut first = First::default();
    let sink: &mut dyn Sink = &mut first;
    let _ = match p {
        HiddenSingle => basic::hidden_single(b, sink),
        DirectPointing => basic::locking(b, true, scope, sink),
        DirectHiddenPair => basic::hidden_set(b, 2, true, scope, sink),
        NakedSingle => basic::naked_single(b, sink),
        DirectHiddenTriplet => basic::hidden_set(b, 3, true, scope, sink),
        PointingClaiming => basic::locking(b, false, scope, sink),
        NakedPair => basic::naked_set(b, 2, scope, sink),
        XWing => basic::fish(b, 2, scope, sink),
        HiddenPair => basic::hidden_set(b, 2, false, scope, sink),
        NakedTriplet => basic::naked_set(b, 3, scope, sink),
        Swordfish => basic::fish(b, 3, scope, sink),
        HiddenTriplet => basic::hidden_set(b, 3, false, scope, sink),
        XyWing => basic::xy_wing(b, false, sink),
        XyzWing => basic::xy_wing(b, true, sink),
        UniqueLoops => unique::unique_loops(b, sink),
        NakedQuad => basic::naked_set(b, 4, scope, sink),
        Jellyfish => basic::fish(b, 4, scope, sink),
        HiddenQuad => basic::hidden_set(b, 4, false, scope, sink),
        Bug => unique::bug(b, sink),
        AlignedPair => exclusion::aligned_pair(b, sink),
        AlignedTriplet => exclusion::aligned_triplet(b, sink),
        Cycles => return best_chain(b, chainer, |c, b, keep| c.unary_hints(b, keep)),
        Chains(mode) => {
            return best_chain(b, chainer, |c, b, keep| c.multiple_hints(b, mode, keep))
        }
    };
    first.0
}

/// What a simple producer reads, when it can be narrowed to what changed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reads {
    /// Its findings for a digit depend only on that digit's candidate cells.
    Digits,
    /// Its findings in a region depend only on that region's cells' candidates.
    Regions,
    /// Anything: always asked everywhere.
    All,
}

impl Producer {
    fn reads(self) -> Reads {
        use Producer::*;
        match self {
            DirectPointing | PointingClaiming | XWing | Swordfish | Jellyfish => Reads::Digits,
            DirectHiddenPair | DirectHiddenTriplet | NakedPair | HiddenPair | NakedTriplet
            | HiddenTriplet | NakedQuad | HiddenQuad => Reads::Regions,
            _ => Reads::All,
        }
    }
}

/// For each producer of [`PRODUCERS`], the candidates of the position where it last found
/// nothing, within one puzzle's path.
///
/// A producer that reads per digit (or per region) finds, for a digit (region) whose candidate
/// cells are the same as then, the same thing as then: nothing. So asking it only about the
/// digits (regions) that changed since, in its usual order, gives the same first hint — the
/// hint SE takes — for less work. Steps only remove candidates, so a difference is a digit that
/// left a cell; a producer that finds something forgets its position (what it found no longer
/// says anything about the other digits).
struct Quiet {
    seen: [[u16; 81]; PRODUCERS.len()],
    valid: [bool; PRODUCERS.len()],
}

impl Quiet {
    fn new() -> Quiet {
        Quiet {
            seen: [[0; 81]; PRODUCERS.len()],
            valid: [false; PRODUCERS.len()],
        }
    }

    /// Where producer `i` must look on `b`; `None` where nothing it reads changed.
    fn scope(&self, i: usize, b: &Board) -> Option<Scope> {
        let reads = PRODUCERS[i].reads();
        if reads == Reads::All || !self.valid[i] {
            return Some(Scope::ALL);
        }
        let mut digits = 0u16;
        let mut cells: Cells = 0;
        for (c, (&was, &now)) in self.seen[i].iter().zip(b.cands.iter()).enumerate() {
            let changed = was ^ now;
            digits |= changed;
            if changed != 0 {
                cells |= 1u128 << c;
            }
        }
        let scope = match reads {
            Reads::Digits => Scope {
                digits,
                regions: Scope::ALL.regions,
            },
            _ => {
                let mut regions = 0u32;
                for (r, &mask) in REGION_MASK.iter().enumerate() {
                    if mask & cells != 0 {
                        regions |= 1 << r;
                    }
                }
                Scope {
                    digits: Scope::ALL.digits,
                    regions,
                }
            }
        };
        (scope.digits != 0 && scope.regions != 0).then_some(scope)
    }

    /// Records what producer `i` found on `b`.
    fn found(&mut self, i: usize, b: &Board, hint: &Option<Hint>) {
        if PRODUCERS[i].reads() == Reads::All {
            return;
        }
        self.valid[i] = hint.is_none();
        if hint.is_none() {
            self.seen[i] = b.cands;
        }
    }
}

/// The chain hint SE's sort puts first.
fn best_chain(
    b: &Board,
    chainer: &mut Chainer,
    run: impl FnOnce(&mut Chainer, &Board, &mut dyn FnMut(ChainHint)),
) -> Option<Hint> {
    let mut best: Option<ChainHint> = None;
    run(chainer, b, &mut |h| {
        if best.as_ref().is_none_or(|cur| h.before(cur)) {
            best = Some(h);
        }
    });
    best.map(|h| h.into_hint())
}

/// A whole path and its ratings (SE's `difficulty`, `pearl`, `diamond` and their names).
#[derive(Clone, Debug, Default)]
pub(crate) struct Path {
    /// The steps, when asked for.
    pub steps: Vec<Hint>,
    /// How many steps were taken.
    pub step_count: usize,
    /// The chains' work budget ran out.
    pub gave_up: bool,
    pub er: f64,
    pub ep: f64,
    pub ed: f64,
    pub er_name: String,
    pub ep_name: String,
    pub ed_name: String,
    /// No producer had a hint before the grid was solved (SE's rating 20.0).
    pub stuck: bool,
}

/// Runs SE's loop on `board` until solved, stuck (no producer has a hint), or out of budget.
///
/// When the steps are not kept, the loop stops early once the rest of the path cannot change
/// a rating: see [`singles_finish`].
pub(crate) fn solve_path(board: &Board, chainer: &mut Chainer, keep_steps: bool) -> Path {
    let mut b = board.clone();
    let mut path = Path::default();
    // Whether the position may have changed what the singles of the current level reach since
    // the last look (a look that failed stays failed while only those singles are applied).
    let mut look = true;
    let mut quiet = Quiet::new();
    while !b.is_solved() {
        if !keep_steps && look && path.ep != 0.0 && singles_finish(&b, path.er) {
            break;
        }
        let mut hint = None;
        for (i, &p) in PRODUCERS.iter().enumerate() {
            hint = match quiet.scope(i, &b) {
                Some(scope) => ask_in(p, &b, scope, chainer),
                None => None,
            };
            quiet.found(i, &b, &hint);
            if hint.is_some() || chainer.spent() {
                break;
            }
        }
        if chainer.spent() {
            path.gave_up = true;
            break;
        }
        let Some(hint) = hint else {
            path.er = 20.0;
            path.er_name = "Beyond solver".into();
            path.stuck = true;
            break;
        };
        look = match hint.detail {
            Detail::HiddenSingle { .. } | Detail::NakedSingle => hint.rating > path.er,
            _ => true,
        };
        if hint.rating > path.er {
            path.er = hint.rating;
            path.er_name = hint.name().into_owned();
        }
        hint.apply(&mut b);
        if path.ep == 0.0 {
            if path.ed == 0.0 {
                path.ed = path.er;
                path.ed_name = path.er_name.clone();
            }
            if hint.place.is_some() {
                path.ep = path.er;
                path.ep_name = path.er_name.clone();
            }
        }
        path.step_count += 1;
        if keep_steps {
            path.steps.push(hint);
        }
    }
    path
}

/// Whether singles alone finish the grid without any of them rated above `er`, so that the rest
/// of SE's path cannot raise a rating and the loop may stop.
///
/// SE's first producers, in its order, and what they rate: hidden single in a region's last
/// empty cell 1.0, in a block 1.2, in a row or column 1.5; direct pointing 1.7, direct claiming
/// 1.9, direct hidden pair 2.0; naked single 2.3. So while some single of a kind rated at most
/// `er` is available, SE's next hint comes from one of those producers and is rated at most
/// `er` as well. The singles allowed here are exactly those kinds (level 1.0: last cells;
/// 1.2: and hidden singles in blocks; 1.5: and in rows and columns; 2.3: and naked singles).
/// Removing candidates never takes such a single away for good — what singles reach from a
/// position only grows as the position gains placements and loses candidates, and every step
/// SE takes is sound — so if they reach the solution from here, they do so from every later
/// position of SE's path too: each later step is rated at most `er`, and ER, EP (set already
/// by the caller) and ED stay what they are. Only the ratings are kept; the steps themselves
/// are not, so `explain` runs the whole loop.
fn singles_finish(board: &Board, er: f64) -> bool {
    let (blocks, lines, naked) = if er >= 2.3 {
        (true, true, true)
    } else if er >= 1.5 {
        (true, true, false)
    } else if er >= 1.2 {
        (true, false, false)
    } else if er >= 1.0 {
        (false, false, false)
    } else {
        return false;
    };
    let mut b = board.clone();
    loop {
        let mut placed = false;
        for region in 0..REGION_MASK.len() {
            let last = b.empty_count(region) == 1;
            let allowed = last || if region / 9 == BLOCK { blocks } else { lines };
            if !allowed {
                continue;
            }
            let mut once = basic::single_places(&b, region);
            while once != 0 {
                let v = once.trailing_zeros() as u8;
                once &= once - 1;
                let cell = match b.digits[v as usize] & REGION_MASK[region] {
                    0 => None,
                    m => Some(m.trailing_zeros() as usize),
                };
                // Another single of this pass may have filled the cell: then the puzzle is not
                // what the caller promised, and the loop just runs on.
                let Some(cell) = cell else { return false };
                b.place(cell, v);
                placed = true;
            }
        }
        if naked {
            for cell in cells_of(b.empty) {
                let m = b.cands[cell];
                if m == 0 {
                    return false;
                }
                if m & (m - 1) == 0 {
                    b.place(cell, m.trailing_zeros() as u8);
                    placed = true;
                }
            }
        }
        if !placed {
            return b.is_solved();
        }
    }
}
