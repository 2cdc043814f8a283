//! The solution path: SE's `getDifficulty` loop. Ask the producers in SE's order for one hint,
//! apply it, and keep the running maximum of the ratings: the ER is the maximum over the whole
//! path, the EP its value when the first cell is placed, the ED its value after the first step.

use super::basic;
use super::board::Board;
use super::chains::{ChainHint, Chainer, Mode};
use super::exclusion;
use super::hint::{First, Hint, Sink};
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
pub(crate) fn ask(p: Producer, b: &Board, chainer: &mut Chainer) -> Option<Hint> {
    use Producer::*;
    let mut first = First::default();
    let sink: &mut dyn Sink = &mut first;
    let _ = match p {
        HiddenSingle => basic::hidden_single(b, sink),
        DirectPointing => basic::locking(b, true, sink),
        DirectHiddenPair => basic::hidden_set(b, 2, true, sink),
        NakedSingle => basic::naked_single(b, sink),
        DirectHiddenTriplet => basic::hidden_set(b, 3, true, sink),
        PointingClaiming => basic::locking(b, false, sink),
        NakedPair => basic::naked_set(b, 2, sink),
        XWing => basic::fish(b, 2, sink),
        HiddenPair => basic::hidden_set(b, 2, false, sink),
        NakedTriplet => basic::naked_set(b, 3, sink),
        Swordfish => basic::fish(b, 3, sink),
        HiddenTriplet => basic::hidden_set(b, 3, false, sink),
        XyWing => basic::xy_wing(b, false, sink),
        XyzWing => basic::xy_wing(b, true, sink),
        UniqueLoops => unique::unique_loops(b, sink),
        NakedQuad => basic::naked_set(b, 4, sink),
        Jellyfish => basic::fish(b, 4, sink),
        HiddenQuad => basic::hidden_set(b, 4, false, sink),
        Bug => unique::bug(b, sink),
        AlignedPair => exclusion::aligned_pair(b, sink),
        AlignedTriplet => exclusion::aligned_triplet(b, &mut chainer.triplets, sink),
        Cycles => return best_chain(b, chainer, |c, b, keep| c.unary_hints(b, keep)),
        Chains(mode) => {
            return best_chain(b, chainer, |c, b, keep| c.multiple_hints(b, mode, keep))
        }
    };
    first.0
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
pub(crate) fn solve_path(board: &Board, chainer: &mut Chainer, keep_steps: bool) -> Path {
    let mut b = board.clone();
    let mut path = Path::default();
    while !b.is_solved() {
        let mut hint = None;
        for &p in &PRODUCERS {
            hint = ask(p, &b, chainer);
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
