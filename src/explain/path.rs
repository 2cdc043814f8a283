//! The solution path: SE's `getDifficulty` loop. Ask the producers in SE's order for one hint,
//! apply it, and keep the running maximum of the ratings: the ER is the maximum over the whole
//! path, the EP its value when the first cell is placed, the ED its value after the first step.

use super::basic::{self, Scope};
use super::board::{cells_of, Board, BLOCK, CELL_REGION, PEER_MASK, REGION_MASK};
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
        AlignedTriplet => exclusion::aligned_triplet(b, &mut chainer.triplets, sink),
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

/// For each producer of [`PRODUCERS`] that reads per digit or per region: what changed since
/// it last found nothing, within one puzzle's path.
///
/// Such a producer finds, for a digit (region) whose candidate cells are the same as then, the
/// same thing as then: nothing. So asking it only about the digits (regions) that changed
/// since, in its usual order, gives the same first hint — the hint SE takes — for less work. A
/// producer that finds something forgets (what it found says nothing about the other digits).
struct Quiet {
    /// `Some((digits, regions))` changed since the producer last found nothing.
    since: [Option<(u16, u32)>; PRODUCERS.len()],
}

impl Quiet {
    fn new() -> Quiet {
        Quiet {
            since: [None; PRODUCERS.len()],
        }
    }

    /// Where producer `i` must look; `None` where nothing it reads changed.
    fn scope(&self, i: usize) -> Option<Scope> {
        let Some((digits, regions)) = self.since[i] else {
            return Some(Scope::ALL);
        };
        match PRODUCERS[i].reads() {
            Reads::Digits => (digits != 0).then_some(Scope {
                digits,
                regions: Scope::ALL.regions,
            }),
            Reads::Regions => (regions != 0).then_some(Scope {
                digits: Scope::ALL.digits,
                regions,
            }),
            Reads::All => Some(Scope::ALL),
        }
    }

    /// Records what producer `i` found.
    fn found(&mut self, i: usize, hint: &Option<Hint>) {
        if PRODUCERS[i].reads() != Reads::All {
            self.since[i] = hint.is_none().then_some((0, 0));
        }
    }

    /// Records a step: the candidates were `before`, they are `b`'s now.
    fn stepped(&mut self, before: &[u16; 81], b: &Board) {
        if self.since.iter().all(Option::is_none) {
            return;
        }
        let mut digits = 0u16;
        let mut regions = 0u32;
        for (c, (&was, &now)) in before.iter().zip(b.cands.iter()).enumerate() {
            if was != now {
                digits |= was ^ now;
                for &r in &CELL_REGION[c] {
                    regions |= 1 << r;
                }
            }
        }
        for (d, r) in self.since.iter_mut().flatten() {
            *d |= digits;
            *r |= regions;
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
        if !keep_steps && look && path.ep != 0.0 {
            if let Some((er, name)) = settled(&b, path.er) {
                if er > path.er {
                    path.er = er;
                    path.er_name = name.into();
                }
                break;
            }
        }
        let mut hint = None;
        for (i, &p) in PRODUCERS.iter().enumerate() {
            hint = match quiet.scope(i) {
                Some(scope) => ask_in(p, &b, scope, chainer),
                None => None,
            };
            quiet.found(i, &hint);
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
        let before = b.cands;
        hint.apply(&mut b);
        quiet.stepped(&before, &b);
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

/// The singles SE asks for first, by the rating of the first one its producers hand over while
/// one is available: `(rating, blocks, lines, naked, name)` — a region's last empty cell (1.0),
/// and hidden singles in blocks (1.2), and in rows and columns (1.5), and naked singles (2.3).
/// Each level's singles include the previous level's.
const LEVELS: [(f64, bool, bool, bool, &str); 4] = [
    (1.0, false, false, false, "Hidden Single"),
    (1.2, true, false, false, "Hidden Single"),
    (1.5, true, true, false, "Hidden Single"),
    (2.3, true, true, true, "Naked Single"),
];

/// Every rating SE's producers can give up to the last level: the levels' and those of direct
/// pointing (1.7), direct claiming (1.9) and direct hidden pair (2.0), which come before the
/// naked single in SE's order.
const LOW_RATINGS: [f64; 7] = [1.0, 1.2, 1.5, 1.7, 1.9, 2.0, 2.3];

/// The ER the rest of SE's path ends with from `board`, when singles settle it, and the name of
/// the technique that sets it; `None` when they do not (step on).
///
/// If the singles of a level reach the solution from here, they do so from every later
/// position of SE's path too (what singles reach only grows as a position gains placements and
/// loses candidates, and every step SE takes is sound), so at every later step such a single is
/// available and SE's hint, from one of its first producers, is rated at most the level. If the
/// singles of a lower level do not reach it, SE's path takes some step outside them, which is
/// rated above that level (every step rated at most a level is one of its singles). So the
/// path's ER is `er` when the first level that succeeds is at most `er`; above `er`, it is that
/// level when no rating SE can give lies strictly between the highest failed level and it (the
/// hardest step left is then rated exactly that level). EP and ED (set already by the caller) do not change. Only the ratings come
/// out; `explain`, which keeps the steps, runs the whole loop.
fn settled(board: &Board, er: f64) -> Option<(f64, &'static str)> {
    let mut b = board.clone();
    // The highest level whose singles fail: the path has a step rated above it.
    let mut floor = 0.0f64;
    // Below the highest level at most `er`, a success says no more than that level's would.
    let first = LEVELS.iter().rposition(|l| l.0 <= er).unwrap_or(0);
    for &(level, blocks, lines, naked, name) in &LEVELS[first..] {
        // Above `er` a success settles the ER only when no rating lies between this level and
        // the failed one below it (not so from 1.5 to 2.3: then there is no need to look).
        if level > er && LOW_RATINGS.iter().any(|&r| r > floor && r < level) {
            return None;
        }
        // Each level starts from where the previous one stopped: its singles include those.
        if close(&mut b, blocks, lines, naked)? {
            return Some((er.max(level), name));
        }
        floor = level;
    }
    None
}

/// Applies the singles of one level (see [`LEVELS`]) until none is left; whether the grid is
/// then solved (`None` if a cell or a region runs out of room: not a position of a sound path
/// on a unique puzzle).
fn close(b: &mut Board, blocks: bool, lines: bool, naked: bool) -> Option<bool> {
    // The regions whose singles may have changed since they were last read.
    let mut dirty: u32 = (1 << REGION_MASK.len()) - 1;
    loop {
        while dirty != 0 {
            let region = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            let allowed = if region / 9 == BLOCK { blocks } else { lines };
            if !allowed && b.empty_count(region) != 1 {
                continue;
            }
            let mut once = basic::single_places(b, region);
            while once != 0 {
                let v = once.trailing_zeros() as u8;
                once &= once - 1;
                // Another single of this region may have filled the cell.
                let cell = b.digits[v as usize] & REGION_MASK[region];
                if cell == 0 {
                    return None;
                }
                dirty |= place_and_mark(b, cell.trailing_zeros() as usize, v);
            }
        }
        if !naked {
            break;
        }
        for cell in cells_of(b.empty) {
            let m = b.cands[cell];
            if m == 0 {
                return None;
            }
            if m & (m - 1) == 0 {
                dirty |= place_and_mark(b, cell, m.trailing_zeros() as u8);
            }
        }
        if dirty == 0 {
            break;
        }
    }
    Some(b.is_solved())
}

/// Places `v` in `cell` and returns the regions of every cell whose candidates changed.
fn place_and_mark(b: &mut Board, cell: usize, v: u8) -> u32 {
    let changed = (PEER_MASK[cell] & b.digits[v as usize]) | 1u128 << cell;
    b.place(cell, v);
    let mut regions = 0u32;
    for c in cells_of(changed) {
        for &r in &CELL_REGION[c] {
            regions |= 1 << r;
        }
    }
    regions
}
