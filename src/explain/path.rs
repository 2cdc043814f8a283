//! The solution path: SE's `getDifficulty` loop. Ask the producers in SE's order for one hint,
//! apply it, and keep the running maximum of the ratings: the ER is the maximum over the whole
//! path, the EP its value when the first cell is placed, the ED its value after the first step.

use super::basic::{self, Scope};
use super::board::{cells_of, digits_of, Board, Cells, CELL_REGIONS, PEER_MASK, REGION_MASK};
use super::chains::{ChainHint, Chainer, Mode};
use super::exclusion;
use super::hint::{Detail, First, Hint, Sink};
use super::popcount::Pop;
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
        HiddenSingle => basic::hidden_single(b, scope, sink),
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
        AlignedPair => exclusion::aligned_pair(b, &mut chainer.triplets, sink),
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
            HiddenSingle | DirectHiddenPair | DirectHiddenTriplet | NakedPair | HiddenPair
            | NakedTriplet | HiddenTriplet | NakedQuad | HiddenQuad => Reads::Regions,
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
/// producer that finds something forgets (what it found says nothing about the other digits),
/// except one that reads per region, which keeps that the regions before its hint's held none
/// (see [`Quiet::found`]).
struct Quiet {
    /// `Some((digits, regions))` changed since the producer last found nothing (or that may
    /// hold its next hint).
    since: [Option<(u16, u32)>; PRODUCERS.len()],
    /// The producers whose `since` is `Some` (bit `i`).
    live: u32,
}

impl Quiet {
    fn new() -> Quiet {
        Quiet {
            since: [None; PRODUCERS.len()],
            live: 0,
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
    ///
    /// A producer that reads per region keeps what it learnt short of its hint, in region
    /// `r`: it found nothing in the regions before `r` in its order (blocks, columns, rows),
    /// so until they change only `r` and the regions after it can hold a hint. So do the
    /// hidden and naked sets, and the hidden single when its hint came from its second pass
    /// (rated above 1.0: its first pass, over every region, found nothing).
    fn found(&mut self, i: usize, hint: &Option<Hint>) {
        if PRODUCERS[i].reads() == Reads::All {
            return;
        }
        self.since[i] = match hint {
            None => Some((0, 0)),
            Some(h) => match (PRODUCERS[i].reads(), &h.detail) {
                (Reads::Regions, &Detail::HiddenSingle { region }) if h.rating > 1.0 => {
                    Some((0, regions_from(region as usize)))
                }
                (Reads::Regions, &Detail::HiddenSet { region, .. })
                | (Reads::Regions, &Detail::NakedSet { region, .. }) => {
                    Some((0, regions_from(region as usize)))
                }
                _ => None,
            },
        };
        if self.since[i].is_some() {
            self.live |= 1 << i;
        } else {
            self.live &= !(1 << i);
        }
    }

    /// Records a step: the candidates were `before`, they are `b`'s now. Returns the regions
    /// of the cells that changed when `want` or a producer needs them (else 0).
    fn stepped(&mut self, before: &[u16; 81], b: &Board, want: bool) -> u32 {
        if !want && self.live == 0 {
            return 0;
        }
        let mut digits = 0u16;
        let mut regions = 0u32;
        // Eight cells at a time: a step changes few of them.
        for (k, (was, now)) in before
            .chunks_exact(8)
            .zip(b.cands.chunks_exact(8))
            .enumerate()
        {
            if was != now {
                for (i, (&was, &now)) in was.iter().zip(now).enumerate() {
                    if was != now {
                        digits |= was ^ now;
                        regions |= CELL_REGIONS[8 * k + i];
                    }
                }
            }
        }
        if before[80] != b.cands[80] {
            digits |= before[80] ^ b.cands[80];
            regions |= CELL_REGIONS[80];
        }
        self.noted(digits, regions)
    }

    /// Records a step that changed the candidates of `digits` in cells of `regions`; returns
    /// `regions`.
    fn noted(&mut self, digits: u16, regions: u32) -> u32 {
        let mut live = self.live;
        while live != 0 {
            let i = live.trailing_zeros() as usize;
            live &= live - 1;
            if let Some((d, r)) = &mut self.since[i] {
                *d |= digits;
                *r |= regions;
            }
        }
        regions
    }
}

/// Asks producer `i` within the scope `quiet` gives it (nothing where nothing it reads
/// changed). Lib tests with [`CHECK_ASKS`] set also ask it everywhere and compare.
fn ask_quiet(quiet: &Quiet, i: usize, b: &Board, chainer: &mut Chainer) -> Option<Hint> {
    let scope = quiet.scope(i);
    let hint = match scope {
        Some(scope) => ask_in(PRODUCERS[i], b, scope, chainer),
        None => None,
    };
    #[cfg(test)]
    if scope != Some(Scope::ALL) && CHECK_ASKS.with(std::cell::Cell::get) {
        let full = ask_in(PRODUCERS[i], b, Scope::ALL, chainer);
        assert_eq!(
            format!("{hint:?}"),
            format!("{full:?}"),
            "{:?} within {scope:?}",
            PRODUCERS[i]
        );
    }
    hint
}

#[cfg(test)]
thread_local! {
    /// Whether [`ask_quiet`] and [`direct_fixpoint`] check their narrowed asks against whole
    /// ones (lib tests only).
    static CHECK_ASKS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Region `r` and the regions after it in the order blocks (0..9), columns (18..27), rows
/// (9..18).
fn regions_from(r: usize) -> u32 {
    const ROWS: u32 = 0x1ff << 9;
    let from = ALL_REGIONS & !((1u32 << r) - 1);
    match r {
        0..=8 => from,
        9..=17 => from & ROWS,
        _ => from | ROWS,
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
/// a rating (see [`settled`]), and once ER is 2.5 or more it takes the direct producers' steps
/// all at once (see [`direct_fixpoint`]).
///
/// `count`, when the puzzle is not yet known to have exactly one solution, counts its
/// solutions (up to two); it is called once, before the first producer from [`UniqueLoops`]
/// on is asked, and the loop ends with `Err(solutions)` unless there is one. Until then every
/// step is one of SE's singles, intersections, sets, fish or wings, which only place a digit
/// or remove a candidate that every solution agrees with; so if the path fills the grid (its
/// own steps, or the singles of [`settled`]) before, the givens being consistent, the grid is
/// a solution and every solution is that grid: the puzzle has exactly one and the solver never
/// runs (the puzzles below ER 4 mostly).
///
/// [`UniqueLoops`]: Producer::UniqueLoops
pub(crate) fn solve_path(
    board: &Board,
    chainer: &mut Chainer,
    keep_steps: bool,
    mut count: Option<&mut dyn FnMut() -> u32>,
) -> Result<Path, u32> {
    let mut b = board.clone();
    let mut path = Path::default();
    // Whether the position may have changed what the singles of the current level reach since
    // the last look (a look that failed stays failed while only those singles are applied).
    let mut look = true;
    let mut quiet = Quiet::new();
    // The regions changed since the direct steps were last all taken.
    let mut dirty = ALL_REGIONS;
    while !b.is_solved() {
        // The producers to ask from: all, unless the direct ones were just exhausted.
        let mut first = 0;
        if !keep_steps && path.ep != 0.0 && path.er >= DIRECT_MAX {
            let changed = std::mem::take(&mut dirty);
            match direct_fixpoint(&mut b, chainer, &mut quiet, changed) {
                Some(steps) => path.step_count += steps,
                None => {
                    // Singles emptied a cell: the givens have no solution (see `close`).
                    if let Some(count) = count.take() {
                        let solutions = count();
                        if solutions != 1 {
                            return Err(solutions);
                        }
                    }
                }
            }
            if b.is_solved() {
                break;
            }
            first = DIRECT_END;
        } else if !keep_steps && look && path.ep != 0.0 {
            if let Some((er, name)) = settled(&b, path.er) {
                if er > path.er {
                    path.er = er;
                    path.er_name = name.into();
                }
                break;
            }
        }
        let mut hint = None;
        for i in first..PRODUCERS.len() {
            if i >= SOUND_BEFORE {
                if let Some(count) = count.take() {
                    let solutions = count();
                    if solutions != 1 {
                        return Err(solutions);
                    }
                }
            }
            hint = ask_quiet(&quiet, i, &b, chainer);
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
        #[cfg(test)]
        let before = b.cands;
        let (digits, regions) = hint.apply_noting(&mut b);
        #[cfg(test)]
        if CHECK_ASKS.with(std::cell::Cell::get) {
            let mut all = Quiet::new();
            all.live = 1;
            all.since[0] = Some((0, 0));
            assert_eq!(all.stepped(&before, &b, true), regions, "{hint:?}");
            assert_eq!(all.since[0], Some((digits, regions)), "{hint:?}");
        }
        // Until the first fixpoint, `dirty` stays every region.
        dirty |= quiet.noted(digits, regions);
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
    Ok(path)
}

/// The direct producers: the singles and the direct intersections, pairs and triplets, the
/// first five of [`PRODUCERS`], which only place a digit.
const DIRECT_END: usize = 5;

/// The highest rating a direct producer gives (the direct hidden triplet).
const DIRECT_MAX: f64 = 2.5;

/// Takes every step of the direct producers (the first [`DIRECT_END`] of [`PRODUCERS`]) until
/// none has one; how many cells that filled (`None` if singles emptied a cell).
///
/// For `rate`, once EP is set and ER is at least [`DIRECT_MAX`]: SE's path then takes a
/// direct step while there is one, and none changes a rating. Where the path goes on from
/// depends only on the position they all stop at, which is the same whatever their order:
/// each step places a digit every solution has there, and a step of theirs stays available
/// (or its digit placed) once other such digits are placed — a hidden or naked single stays
/// single; an intersection, pair or triplet stays one or leaves singles that place the same
/// digit. So the singles are applied all at once ([`close`]), then the direct intersections,
/// pairs and triplets are asked (the pairs and triplets in one pass over the regions,
/// [`basic::direct_hidden_sets`], which may hand over a triplet before a pair), and the two
/// alternate until neither has a step. The count of steps is SE's: one step per placed cell.
///
/// `dirty` holds the regions that changed since the singles were last all applied.
fn direct_fixpoint(
    b: &mut Board,
    chainer: &mut Chainer,
    quiet: &mut Quiet,
    mut dirty: u32,
) -> Option<usize> {
    let empty = b.empty.pop() as usize;
    'fixpoint: loop {
        let before = b.cands;
        let closed = close(b, (true, true, true), dirty);
        quiet.stepped(&before, b, false);
        if closed? {
            break;
        }
        // Direct pointing and claiming, then the direct hidden pairs and triplets in one
        // pass (the fixpoint does not depend on which step comes first).
        debug_assert!(matches!(PRODUCERS[1], Producer::DirectPointing));
        let hint = ask_quiet(quiet, 1, b, chainer);
        quiet.found(1, &hint);
        let hint = match hint {
            Some(hint) => Some(hint),
            None => {
                debug_assert!(matches!(
                    (PRODUCERS[2], PRODUCERS[4]),
                    (Producer::DirectHiddenPair, Producer::DirectHiddenTriplet)
                ));
                let regions = |s: Option<Scope>| s.map_or(0, |s| s.regions);
                let (pairs, triplets) = (regions(quiet.scope(2)), regions(quiet.scope(4)));
                let mut first = First::default();
                if pairs | triplets != 0 {
                    let _ = basic::direct_hidden_sets(b, pairs, triplets, &mut first);
                }
                #[cfg(test)]
                if CHECK_ASKS.with(std::cell::Cell::get) {
                    // Some direct pair or triplet exactly when SE's producers have one.
                    let any = [2, 4]
                        .iter()
                        .any(|&i| ask_in(PRODUCERS[i], b, Scope::ALL, chainer).is_some());
                    assert_eq!(first.0.is_some(), any, "direct hidden sets");
                }
                quiet.found(2, &first.0);
                quiet.found(4, &first.0);
                first.0
            }
        };
        if let Some(hint) = hint {
            let (digits, regions) = hint.apply_noting(b);
            dirty = quiet.noted(digits, regions);
            continue 'fixpoint;
        }
        break;
    }
    Some(empty - b.empty.pop() as usize)
}

/// The producers before this index in [`PRODUCERS`] (up to the XYZ-wing) take only steps that
/// every solution of the puzzle agrees with, and are cheap; from the unique loops on, a step
/// may assume a unique solution, so the solutions are counted first.
const SOUND_BEFORE: usize = {
    let mut i = 0;
    while !matches!(PRODUCERS[i], Producer::UniqueLoops) {
        i += 1;
    }
    i
};

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
/// hardest step left is then rated exactly that level). EP and ED (set already by the caller)
/// do not change. Only the ratings come out; `explain`, which keeps the steps, runs the whole
/// loop.
fn settled(board: &Board, er: f64) -> Option<(f64, &'static str)> {
    let mut b = board.clone();
    // The highest level whose singles fail: the path has a step rated above it.
    let mut floor = 0.0f64;
    // Below the highest level at most `er`, a success says no more than that level's would.
    let first = LEVELS.iter().rposition(|l| l.0 <= er).unwrap_or(0);
    // The regions to read: all at first, then those each level adds (the singles of the level
    // before are all applied where it stopped).
    let mut dirty = ALL_REGIONS;
    let mut before = (false, false);
    for &(level, blocks, lines, naked, name) in &LEVELS[first..] {
        // Above `er` a success settles the ER only when no rating lies between this level and
        // the failed one below it (not so from 1.5 to 2.3: then there is no need to look).
        if level > er && LOW_RATINGS.iter().any(|&r| r > floor && r < level) {
            return None;
        }
        // Each level starts from where the previous one stopped: its singles include those.
        if close(
            &mut b,
            (blocks, lines, naked),
            dirty | added(before, (blocks, lines)),
        )? {
            return Some((er.max(level), name));
        }
        floor = level;
        dirty = 0;
        before = (blocks, lines);
    }
    None
}

/// Every region, as a set.
const ALL_REGIONS: u32 = (1 << 27) - 1;

/// The regions whose hidden singles a level allowing `now` (blocks, lines) reads and one
/// allowing `was` did not.
fn added(was: (bool, bool), now: (bool, bool)) -> u32 {
    const BLOCKS: u32 = (1 << 9) - 1;
    let mut out = 0;
    if now.0 && !was.0 {
        out |= BLOCKS;
    }
    if now.1 && !was.1 {
        out |= ALL_REGIONS & !BLOCKS;
    }
    out
}

/// Applies the singles of one level (`(blocks, lines, naked)`, see [`LEVELS`]) until none is
/// left; whether the grid is then solved (`None` if a cell runs out of candidates: not a
/// position of a sound path on a unique puzzle). `dirty` holds the regions whose hidden singles
/// may not all be applied (every region, unless the board is where a lower level stopped).
///
/// The singles of a level reach the same grid in any order (each is forced; applying one only
/// adds singles), so after the first reading of the dirty regions, each placement marks only
/// what it can have made single: its cell's other digits in its three regions, its digit in
/// the other regions of the peers that lose it, every digit of a region left with one empty
/// cell, and a peer left with one candidate.
fn close(b: &mut Board, (blocks, lines, naked): (bool, bool, bool), dirty: u32) -> Option<bool> {
    const BLOCKS: u32 = (1 << 9) - 1;
    let kinds = if blocks { BLOCKS } else { 0 } | if lines { ALL_REGIONS & !BLOCKS } else { 0 };
    let mut marks = Marks {
        kinds,
        naked,
        digits: [0; 10],
        pending: 0,
        cells: 0,
    };
    // The first reading: whole regions.
    for region in bits32(dirty) {
        if kinds & (1 << region) == 0 && b.empty_count(region) != 1 {
            continue;
        }
        let mut once = basic::single_places(b, region);
        while once != 0 {
            let v = once.trailing_zeros() as u8;
            once &= once - 1;
            // Another single of this region may have filled the cell.
            let cell = b.digits[v as usize] & REGION_MASK[region];
            if cell != 0 {
                marks.place(b, cell.trailing_zeros() as usize, v);
            }
        }
    }
    if naked {
        // Cells with one candidate: with none in `once`, two in `twice`.
        let (mut once, mut twice) = (0 as Cells, 0 as Cells);
        for &d in &b.digits[1..] {
            twice |= once & d;
            once |= d;
        }
        if b.empty & !once != 0 {
            return None;
        }
        marks.cells = once & !twice;
    }
    // Then digit by digit, region by region, and the cells left with one candidate.
    loop {
        if marks.pending != 0 {
            // A digit's marked regions, all at once (a placement among them marks again).
            let v = marks.pending.trailing_zeros() as usize;
            marks.pending &= marks.pending - 1;
            let mut regions = std::mem::take(&mut marks.digits[v]);
            while regions != 0 {
                let region = regions.trailing_zeros() as usize;
                regions &= regions - 1;
                let pos = b.digits[v] & REGION_MASK[region];
                if pos != 0 && pos & (pos - 1) == 0 {
                    marks.place(b, pos.trailing_zeros() as usize, v as u8);
                }
            }
        } else if marks.cells != 0 {
            let cell = marks.cells.trailing_zeros() as usize;
            marks.cells &= marks.cells - 1;
            let m = b.cands[cell];
            if m != 0 && m & (m - 1) == 0 {
                marks.place(b, cell, m.trailing_zeros() as u8);
            } else if b.empty & (1u128 << cell) != 0 && m == 0 {
                return None;
            }
        } else {
            break;
        }
    }
    Some(b.is_solved())
}

/// What [`close`] has still to read after its placements.
struct Marks {
    /// The regions whose hidden singles the level reads.
    kinds: u32,
    /// Whether it reads naked singles.
    naked: bool,
    /// Per digit, the regions where it may have become single.
    digits: [u32; 10],
    /// The digits with a region in `digits`.
    pending: u16,
    /// The cells that may have one candidate left.
    cells: Cells,
}

impl Marks {
    /// Places `v` in `cell` (as [`Board::place`]) and marks what that can have made single.
    fn place(&mut self, b: &mut Board, cell: usize, v: u8) {
        let bit = 1u128 << cell;
        let own = CELL_REGIONS[cell];
        let others = b.cands[cell] & !(1 << v);
        // Only regions the level reads are marked; one read only for its last empty cell is
        // marked when it gets down to one (below).
        let read = own & self.kinds;
        for w in digits_of(others) {
            b.digits[w as usize] &= !bit;
            self.digits[w as usize] |= read;
        }
        self.pending |= others;
        b.values[cell] = v;
        b.vacate(cell);
        b.cands[cell] = 0;
        let peers = PEER_MASK[cell] & b.digits[v as usize];
        b.digits[v as usize] &= !(peers | bit);
        let mut lost = 0u32;
        for p in cells_of(peers) {
            b.cands[p] &= !(1 << v);
            lost |= CELL_REGIONS[p];
            let m = b.cands[p];
            // A cell left with no candidate is marked too (`close` finds it empty).
            if self.naked && m & m.wrapping_sub(1) == 0 {
                self.cells |= 1u128 << p;
            }
        }
        // `v` is placed in the cell's regions: no single of it there.
        let lost = lost & !own & self.kinds;
        if lost != 0 {
            self.digits[v as usize] |= lost;
            self.pending |= 1 << v;
        }
        // A region read only for its last empty cell, now down to one.
        for region in bits32(own & !self.kinds) {
            if b.empty_count(region) == 1 {
                let rest = b.empty & REGION_MASK[region];
                let m = b.cands[rest.trailing_zeros() as usize];
                for w in digits_of(m) {
                    self.digits[w as usize] |= 1 << region;
                }
                self.pending |= m;
            }
        }
    }
}

/// The set bits of a 32-bit mask, ascending.
fn bits32(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            i
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    /// The singles of a level applied the plain way: whole passes over every region and cell
    /// until nothing changes.
    fn close_by_passes(b: &mut Board, (blocks, lines, naked): (bool, bool, bool)) -> bool {
        loop {
            let mut placed = false;
            for (region, &mask) in REGION_MASK.iter().enumerate() {
                let allowed = if region < 9 { blocks } else { lines };
                if !allowed && b.empty_count(region) != 1 {
                    continue;
                }
                let once = basic::single_places(b, region);
                for v in digits_of(once) {
                    let cell = b.digits[v as usize] & mask;
                    if cell != 0 {
                        b.place(cell.trailing_zeros() as usize, v);
                        placed = true;
                    }
                }
            }
            if naked {
                for cell in cells_of(b.empty) {
                    let m = b.cands[cell];
                    if m != 0 && m & (m - 1) == 0 {
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

    /// A position that keeps the solution `solved`: some of its digits given (`tries` picks),
    /// and fewer than `removals` of its wrong candidates taken out at random.
    fn sound_position(
        solved: &[u8],
        tries: usize,
        removals: u64,
        rng: &mut impl FnMut() -> u64,
    ) -> (Grid, Board) {
        let cells = super::super::tests::some_of(solved, tries, rng);
        let g = Grid::from_cells(cells).expect("digits");
        let mut start = Board::new(&g);
        for _ in 0..rng() % removals {
            let c = (rng() % 81) as usize;
            let v = (rng() % 9 + 1) as u8;
            if v != solved[c] {
                start.remove(c, v);
            }
        }
        (g, start)
    }

    /// `close` reaches the grid whole passes reach, at every level, from scratch and going on
    /// from where the level below stopped, on positions that keep a solution (some of its
    /// digits given, some of its wrong candidates gone), where singles cannot contradict.
    #[test]
    fn close_reaches_what_plain_passes_reach() {
        let solved = super::super::tests::solved_digits();
        let mut rng = super::super::tests::xorshift(0x9e37_79b9_7f4a_7c15);
        let mut solved_count = 0;
        for round in 0..4000 {
            let (g, start) = sound_position(&solved, 10 + round % 40, 60, &mut rng);
            let mut below = start.clone();
            let mut before = (false, false);
            for (i, &(_, blocks, lines, naked, _)) in LEVELS.iter().enumerate() {
                let level = (blocks, lines, naked);
                let mut want = start.clone();
                let done = close_by_passes(&mut want, level);
                solved_count += usize::from(done);
                let mut got = start.clone();
                assert_eq!(
                    close(&mut got, level, ALL_REGIONS),
                    Some(done),
                    "{g} level {i}"
                );
                assert!(got == want, "{g} level {i}");
                let dirty = if i == 0 { ALL_REGIONS } else { 0 };
                let on = close(&mut below, level, dirty | added(before, (blocks, lines)));
                assert_eq!(on, Some(done), "{g} level {i}, going on");
                assert!(below == want, "{g} level {i}, going on");
                before = (blocks, lines);
            }
        }
        assert!(solved_count > 500, "{solved_count}");
    }

    /// Every ask `Quiet` narrows (to what changed since the producer last found nothing, or
    /// to the regions from its last hint on) finds what the whole ask finds, and the direct
    /// fixpoint's one pass over pairs and triplets finds a step exactly when SE's producers
    /// do, at every step of `explain`'s and `rate`'s paths of the reference puzzles rated
    /// up to ER 7.5.
    #[cfg(se_reference)]
    #[test]
    fn narrowed_asks_find_what_whole_asks_find_on_reference_paths() {
        let dir = std::path::Path::new(env!("SE_REFERENCE_DIR"));
        let tsv = std::fs::read_to_string(dir.join("ratings.tsv")).expect("ratings.tsv");
        let mut lines = tsv.lines();
        let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
        let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
        let (p, er) = (col("puzzle"), col("er"));
        CHECK_ASKS.with(|c| c.set(true));
        let mut rated = 0;
        for line in lines {
            let fields: Vec<&str> = line.split('\t').collect();
            let Ok(er) = fields[er].parse::<f64>() else {
                continue;
            };
            if er > 7.5 {
                continue;
            }
            let g: Grid = fields[p].parse().expect("a puzzle");
            let rating = crate::explain::rate(&g, crate::explain::DEFAULT_BUDGET);
            let explained = crate::explain::explain(&g, crate::explain::DEFAULT_BUDGET);
            assert_eq!(rating.ok(), explained.ok().map(|e| e.rating), "{g}");
            rated += 1;
        }
        CHECK_ASKS.with(|c| c.set(false));
        assert!(rated > 500, "{rated}");
    }

    /// `direct_fixpoint` stops where SE's loop stops when it takes the direct producers' steps
    /// one at a time, in its order, and counts as many steps, on positions that keep a
    /// solution (some of its digits given, some wrong candidates gone).
    #[test]
    fn direct_fixpoint_is_where_direct_steps_one_by_one_stop() {
        let solved = super::super::tests::solved_digits();
        let mut rng = super::super::tests::xorshift(0x2545_f491_4f6c_dd1d);
        let mut chainer = Chainer::new();
        let (mut stepped, mut solved_count) = (0, 0);
        for round in 0..3000 {
            let (g, start) = sound_position(&solved, 17 + round % 30, 80, &mut rng);
            let mut want = start.clone();
            let mut steps = 0;
            'step: while !want.is_solved() {
                for &p in &PRODUCERS[..DIRECT_END] {
                    if let Some(h) = ask_in(p, &want, Scope::ALL, &mut chainer) {
                        assert!(h.place.is_some() && h.elims.is_empty(), "{g}: {p:?}");
                        h.apply(&mut want);
                        steps += 1;
                        continue 'step;
                    }
                }
                break;
            }
            let mut got = start.clone();
            let mut quiet = Quiet::new();
            let n = direct_fixpoint(&mut got, &mut chainer, &mut quiet, ALL_REGIONS);
            assert_eq!(n, Some(steps), "{g}");
            assert!(got == want, "{g}");
            stepped += usize::from(steps > 0);
            solved_count += usize::from(got.is_solved());
        }
        assert!(
            stepped > 2000 && solved_count > 100,
            "{stepped} {solved_count}"
        );
    }
}
