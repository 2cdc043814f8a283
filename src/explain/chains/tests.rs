//! Tests of the chain producers: SE's ratings and descriptions on known puzzles, and the
//! memos and static tables against the plain searches they stand in for.

use super::*;
use crate::grid::Grid;

fn holds(set: &PotSet, p: Pot) -> bool {
    set.0[p as usize / 64] >> (p as usize % 64) & 1 == 1
}

/// The potentials `from` reaches through one link or more, by a plain search.
fn reached(links: &Links, from: Pot) -> PotSet {
    let mut seen = PotSet::new();
    let mut queue = vec![from];
    while let Some(p) = queue.pop() {
        for &(q, _) in links.of(p) {
            if seen.insert(q) {
                queue.push(q);
            }
        }
    }
    seen
}

/// `Reach` answers, for every pair of candidate potentials, what a search of the links
/// finds, in the three unary modes (in the Y mode, built from the bivalue cells, for what
/// their potentials reach), on puzzles and on grids with candidates taken out; two of them
/// share a component exactly when each reaches the other; and `may_cycle` is false only
/// where no on potential reached from the source leads back to it.
/// In the static multiple mode's links, every propagation derives only what its source
/// reaches, and `meet` agrees with the searches on every cell's and region's group.
/// A cell and a digit drawn by a xorshift step of `seed`.
fn random_candidate(seed: &mut u64) -> (usize, u8) {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    ((*seed % 81) as usize, (*seed / 81 % 9 + 1) as u8)
}

/// The next grid of a test's sequence: `hint` applied if there is one, else `tries`
/// random candidates taken out of cells with more than `keep` (`(tries, keep)`); then the
/// naked singles left placed.
fn next_grid(b: &mut Board, hint: Option<&ChainHint>, seed: &mut u64, (tries, keep): (u32, u32)) {
    match hint {
        Some(h) => {
            for &(cell, m) in &h.elims {
                b.remove_mask(cell as usize, m);
            }
            if let Some((cell, v)) = h.place {
                b.place(cell as usize, v);
            }
        }
        None => {
            for _ in 0..tries {
                let (cell, v) = random_candidate(seed);
                if b.has(cell, v) && b.count(cell) > keep {
                    b.remove(cell, v);
                }
            }
        }
    }
    while let Some(cell) = (0..81).find(|&c| b.values[c] == 0 && b.count(c) == 1) {
        let v = b.cands[cell].trailing_zeros() as u8;
        b.place(cell, v);
    }
}

/// The Nishio pre-test never misses a contradiction: along sequences of grids (the best
/// Nishio hint applied, with the naked singles it leaves, or now and then candidates taken
/// out), for every candidate of every digit, the real propagation from its on and from its
/// off potential finds a contradiction only where the bitboard closure finds one; both
/// answers occur. (The closure also flags some the propagation does not report, e.g. the
/// off potential of a hidden single these grids leave: SE derives nothing from a region
/// with no place left, the closure calls it a contradiction.)
/// `common_nodes` (set intersection, then the first propagation's order) hands over the
/// nodes that walking the first propagation's lists and keeping those every other
/// propagation holds gives, in that order: for every cell's digits and every region's
/// places, on the propagations of dynamic searches along solving paths (the sets made from
/// the propagations' spans of the arena); and the reset over those spans clears every index.
#[test]
fn common_nodes_are_the_filtered_lists() {
    let puzzles = [
        "...92......68.3...19..7...623..4.1....1...7....8.3..297...8..91...5.72......64...",
        "7.....4...2..7..8...3..8.799..5..3...6..2..9...1.97..6...3..9...3..4..6...9..1.35",
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let (mut groups, mut found) = (0usize, 0usize);
    for text in puzzles {
        let g: Grid = text.parse().unwrap();
        let mut b = Board::new(&g);
        for round in 0..12 {
            for mode in [Mode::DYNAMIC, Mode::MULTIPLE] {
                let mut hints = Vec::new();
                let mut chainer = Chainer::new();
                chainer.multiple_hints(&b, mode, &mut |h| hints.push(h));
                // The on propagations the search made, by cell and digit.
                let props_of = |cells: Cells, v: Option<u8>, c: &Chainer| -> Vec<usize> {
                    let mut out = Vec::new();
                    for cell in cells_of(cells) {
                        for d in 1..=9u8 {
                            if v.is_some_and(|v| v != d) || !b.has(cell, d) {
                                continue;
                            }
                            let n = c.on_cache[cv(pot(cell, d, true))];
                            if n != NONE {
                                out.push(n as usize);
                            }
                        }
                    }
                    out
                };
                let mut sets: Vec<Vec<usize>> = Vec::new();
                for cell in 0..81 {
                    sets.push(props_of(1 << cell, None, &chainer));
                }
                for v in 1..=9u8 {
                    for &mask in &REGION_MASK {
                        sets.push(props_of(b.digits[v as usize] & mask, Some(v), &chainer));
                    }
                }
                // Each off propagation with the on one of its potential (double chains).
                for i in 0..chainer.props_used {
                    let Some(&root) = chainer.props[i].off.first() else {
                        continue;
                    };
                    let p = chainer.nodes[root as usize].pot;
                    let on = chainer.on_cache[cv(p)];
                    let off_root = chainer.props[i].on.first().is_none_or(|&n| n > root);
                    if off_root && on != NONE {
                        sets.push(vec![on as usize, i]);
                    }
                }
                let mut out = Vec::new();
                for props in sets.into_iter().filter(|p| p.len() >= 2) {
                    chainer.common_nodes(&props, &mut out);
                    assert_eq!(out, chainer.common_nodes_by_lists(&props), "{text} {round}");
                    groups += 1;
                    found += out.len();
                }
                // The reset (over each propagation's span of the arena) leaves every
                // index empty and every set clear.
                let used = chainer.props_used;
                chainer.reset();
                for pr in &chainer.props[..used] {
                    assert!(pr.idx.iter().all(|&n| n == NONE), "{text} {round}");
                    assert!(pr.set.0.iter().all(|&w| w == 0) && pr.span.is_none());
                }
                if mode == Mode::DYNAMIC {
                    let best = hints.iter().reduce(|a, h| if h.before(a) { h } else { a });
                    next_grid(&mut b, best.filter(|_| round % 3 != 2), &mut seed, (4, 2));
                }
            }
            if b.is_solved() {
                break;
            }
        }
    }
    assert!(groups > 1000 && found > 1000, "{groups} {found}");
    eprintln!("common nodes: {groups} groups, {found} nodes");
}

#[test]
fn the_nishio_pre_test_flags_every_contradiction() {
    let puzzles = [
        "...92......68.3...19..7...623..4.1....1...7....8.3..297...8..91...5.72......64...",
        "7.....4...2..7..8...3..8.799..5..3...6..2..9...1.97..6...3..9...3..4..6...9..1.35",
        "1...34.8....8..5....4.6..21.18......3..1.2..6......81.52..7.9....6..9....9.64...2",
        "..3..6.8....1..2......7...4..9..8.6..3..4..9..7.6..2..4...8......5..1....2.9..6..",
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let (mut absurd, mut flagged, mut tested) = (0usize, 0usize, 0usize);
    for text in puzzles {
        let g: Grid = text.parse().unwrap();
        let mut b = Board::new(&g);
        for round in 0..30 {
            let mut chainer = Chainer::new();
            chainer.reset();
            chainer.source = Work::of(&b);
            for v in 1..=9u8 {
                let grid = DigitGrid::of(&b, v);
                for cell in cells_of(b.digits[v as usize]) {
                    for on in [true, false] {
                        let p = pot(cell, v, on);
                        let prop = chainer.new_prop();
                        let root = chainer.node(p, Cause::None, &[]);
                        chainer.props[prop].add(p, root);
                        let found = chainer.do_chaining(&b, Mode::NISHIO, prop).is_some();
                        let flag = grid.contradicts(cell, on);
                        assert!(!found || flag, "{text} {round} {}", pot_name(p));
                        absurd += usize::from(found);
                        flagged += usize::from(flag);
                        tested += 1;
                    }
                }
            }
            let mut hints = Vec::new();
            let mut chainer = Chainer::new();
            chainer.multiple_hints(&b, Mode::NISHIO, &mut |h| hints.push(h));
            let best = hints.iter().reduce(|a, h| if h.before(a) { h } else { a });
            next_grid(&mut b, best.filter(|_| round % 4 != 3), &mut seed, (4, 2));
            if b.is_solved() {
                break;
            }
        }
    }
    assert!(
        absurd > 0 && flagged < tested,
        "{absurd} {flagged} {tested}"
    );
    eprintln!("nishio pre-test: {absurd} contradictions, {flagged} flagged of {tested}");
}

/// The Y pass's "found nothing" memo changes no hint: along sequences of grids (the first
/// unary hint applied, with the naked singles it leaves, or now and then candidates taken
/// out of cells with four or more, so that the bivalue cells stay), a chainer that
/// remembers hands over the same unary hints, in the same order, as a fresh one; and the
/// memo is used.
#[test]
fn the_y_memo_keeps_the_unary_hints() {
    let puzzles = [
        "...92......68.3...19..7...623..4.1....1...7....8.3..297...8..91...5.72......64...",
        "7.....4...2..7..8...3..8.799..5..3...6..2..9...1.97..6...3..9...3..4..6...9..1.35",
        "1...34.8....8..5....4.6..21.18......3..1.2..6......81.52..7.9....6..9....9.64...2",
    ];
    let hints = |c: &mut Chainer, b: &Board| {
        let mut out = Vec::new();
        c.unary_hints(b, &mut |h| out.push(h));
        out
    };
    let mut seed = 0x1234_5678_9abc_def1u64;
    let mut kept = Chainer::new();
    let (mut hits, mut rounds) = (0, 0);
    for text in puzzles {
        let g: Grid = text.parse().unwrap();
        let mut b = Board::new(&g);
        kept.set_limit(u64::MAX);
        for round in 0..60 {
            hits += usize::from(no_short_cell(&b) && kept.y_memo.holds(&b));
            let with = hints(&mut kept, &b);
            let mut fresh = Chainer::new();
            fresh.set_limit(u64::MAX);
            let without = hints(&mut fresh, &b);
            assert_eq!(format!("{with:?}"), format!("{without:?}"), "{round}");
            rounds += 1;
            next_grid(
                &mut b,
                with.first().filter(|_| round % 3 != 2),
                &mut seed,
                (3, 3),
            );
            if b.is_solved() || !no_short_cell(&b) {
                break;
            }
        }
    }
    assert!(hits > 5, "{hits} of {rounds}");
}

/// The link table made up to date from another grid's (`Links::update`) holds the lists a
/// build makes, in every mode: along a solving path of sorts (candidates taken out, digits
/// placed), and between unrelated grids (candidates come back too).
#[test]
fn updated_links_are_those_a_build_makes() {
    let puzzles = [
        "...92......68.3...19..7...623..4.1....1...7....8.3..297...8..91...5.72......64...",
        "7.....4...2..7..8...3..8.799..5..3...6..2..9...1.97..6...3..9...3..4..6...9..1.35",
        "1...34.8....8..5....4.6..21.18......3..1.2..6......81.52..7.9....6..9....9.64...2",
    ];
    let (mut links, mut fresh) = (Links::default(), Links::default());
    let mut old: Option<Board> = None;
    let (mut updates, mut builds) = (0, 0);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for text in puzzles.iter().cycle().take(6) {
        let g: Grid = text.parse().unwrap();
        let mut b = Board::new(&g);
        for round in 0..40 {
            match &old {
                Some(o) => {
                    let before = links.edges.len() >= 2 * links.live;
                    links.update(o, &b);
                    if before {
                        builds += 1;
                    } else {
                        updates += 1;
                    }
                }
                None => links.build(&b),
            }
            // Some selection in place, as the searches leave it.
            links.select(round % 3 != 0, round % 2 == 0);
            fresh.build(&b);
            links.assert_same(&fresh);
            old = Some(b.clone());
            // Take out a few candidates (never a cell's last), and now and then place one.
            for i in 0..6 {
                let (cell, v) = random_candidate(&mut seed);
                if b.has(cell, v) && b.count(cell) > 2 {
                    if i == 0 && round % 4 == 1 {
                        b.place(cell, v);
                    } else {
                        b.remove(cell, v);
                    }
                }
            }
        }
    }
    // Both ways were taken.
    assert!(
        updates > 100 && builds > 5,
        "{updates} updates, {builds} builds"
    );
}

#[test]
fn reach_agrees_with_a_search_of_the_links() {
    let (mut met, mut groups_seen) = (0, 0);
    let mut reach = Reach::default();
    let puzzles = [
        "...92......68.3...19..7...623..4.1....1...7....8.3..297...8..91...5.72......64...",
        "7.....4...2..7..8...3..8.799..5..3...6..2..9...1.97..6...3..9...3..4..6...9..1.35",
        "1...34.8....8..5....4.6..21.18......3..1.2..6......81.52..7.9....6..9....9.64...2",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for text in puzzles {
        let g: Grid = text.parse().unwrap();
        let mut b = Board::new(&g);
        for round in 0..6 {
            let mut links = Links::default();
            links.build(&b);
            for (y, x) in [(false, true), (true, false), (true, true)] {
                links.select(y, x);
                // X links join one digit's potentials: the X pass builds for some digits
                // only. One `Reach` for every build, so stale entries are there too.
                let digits = if y {
                    ALL_DIGITS
                } else {
                    ALL_DIGITS & !(0x52 << (round % 3))
                };
                // The Y pass builds from its bivalue cells, and asks only about what
                // their potentials reach.
                let cells = if x { ALL_CELLS } else { bivalue_cells(&b) };
                reach.build(&links, &b, digits, cells, true);
                let mut pots: Vec<Pot> = (0..1458u16)
                    .filter(|&p| {
                        b.has(pot_cell(p), pot_value(p)) && digits >> pot_value(p) & 1 == 1
                    })
                    .collect();
                let roots: Vec<PotSet> = pots
                    .iter()
                    .filter(|&&p| cells >> pot_cell(p) & 1 == 1)
                    .map(|&p| reached(&links, p))
                    .collect();
                pots.retain(|&p| {
                    cells >> pot_cell(p) & 1 == 1 || roots.iter().any(|r| holds(r, p))
                });
                let seen_of: Vec<PotSet> = pots.iter().map(|&p| reached(&links, p)).collect();
                for (i, &s) in pots.iter().enumerate() {
                    let seen = &seen_of[i];
                    for (j, &t) in pots.iter().enumerate() {
                        if t != s {
                            assert_eq!(reach.reaches(s, t), holds(seen, t), "{round} {s} {t}");
                            // One component: each reaches the other.
                            assert_eq!(
                                reach.comp(s) == reach.comp(t),
                                holds(seen, t) && holds(&seen_of[j], s),
                                "{round} {s} {t}"
                            );
                        }
                    }
                    if pot_on(s) && !reach.may_cycle(s) {
                        for &u in &pots {
                            assert!(
                                !(pot_on(u)
                                    && u != s
                                    && holds(seen, u)
                                    && holds(&reached(&links, u), s)),
                                "{round} {s} {u}"
                            );
                        }
                    }
                }
            }
            // The static multiple mode's links: every propagation stays within what its
            // source reaches, and `meet` says whether some potential is reached by each
            // potential of a set (each counted as reaching itself), for every cell's digits
            // and every region's places of a digit.
            let mut chainer = Chainer::new();
            chainer.static_links(&b, true, true);
            chainer
                .reach
                .build(&chainer.links, &b, ALL_DIGITS, ALL_CELLS, true);
            links.select(true, true);
            let on_pots: Vec<Pot> = (0..1458u16)
                .filter(|&p| pot_on(p) && b.has(pot_cell(p), pot_value(p)))
                .collect();
            for &p in &on_pots {
                let prop = chainer.on_propagation(&b, Mode::MULTIPLE, p);
                let seen = reached(&links, p);
                let pr = &chainer.props[prop];
                for &n in pr.on.iter().chain(&pr.off) {
                    let q = chainer.nodes[n as usize].pot;
                    assert!(q == p || holds(&seen, q), "{round} {p} {q}");
                }
            }
            let mut groups: Vec<Vec<Pot>> = (0..81)
                .filter(|&c| b.count(c) >= 2)
                .map(|c| digits_of(b.cands[c]).map(|v| pot(c, v, true)).collect())
                .collect();
            for &region in &REGION_MASK {
                for v in 1..=9u8 {
                    let places = b.digits[v as usize] & region;
                    if places.count_ones() >= 2 {
                        groups.push(cells_of(places).map(|c| pot(c, v, true)).collect());
                    }
                }
            }
            for group in &groups {
                let sets: Vec<PotSet> = group.iter().map(|&p| reached(&links, p)).collect();
                let common = (0..1458u16).any(|q| {
                    group
                        .iter()
                        .zip(&sets)
                        .all(|(&p, set)| q == p || holds(set, q))
                });
                assert_eq!(chainer.reach.meet(group.iter().copied()), common, "{round}");
                met += common as usize;
            }
            groups_seen += groups.len();
            // Take out a few candidates (never a cell's last) for the next round.
            for _ in 0..12 {
                let (cell, v) = random_candidate(&mut seed);
                if b.has(cell, v) && b.count(cell) > 2 {
                    b.remove(cell, v);
                }
            }
        }
    }
    // Both answers occur.
    assert!(met > 0 && met < groups_seen, "{met} of {groups_seen}");
}
