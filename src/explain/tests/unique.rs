//! Unique rectangles and loops (types 1 to 4), and the BUG (types 1 to 4). Positions and how they
//! were chosen: see [`super`].

use super::*;

positions! {
    finds_unique_loop_6_type_1_46: UniqueLoops,
        "15726..98342897...6895.1..253.926..4.9.375.2.72641895391.7..2..26.189.37.736521.9",
        &[(34, 8), (56, 4), (61, 4)],
        Some(Want {
            name: "Unique Loop 6 type 1",
            tenths: 46,
            place: None,
            elims: &[(24, 3), (24, 4)],
            text: "Unique Loop 6 type 1: Cells r1c6,r1c7,r3c7,r3c5,r7c5,r7c6 on 3, 4",
        });
    finds_unique_loop_6_type_2_46: UniqueLoops,
        "..9.4.7868..7...59..7.89.425......97476958213.9.17..656258179349834256717..396528",
        &[(1, 1), (10, 1), (11, 1), (19, 1), (19, 3)],
        Some(Want {
            name: "Unique Loop 6 type 2",
            tenths: 46,
            place: None,
            elims: &[(3, 2)],
            text: "Unique Loop 6 type 2: Cells r2c7,r3c7,r3c1,r1c1,r1c6,r2c6 on 1, 3",
        });
    finds_unique_loop_6_type_3_48: UniqueLoops,
        "8..6...1......986.695183.4.....3..78.83...12.27.81......872543..4.3.1.8......8..1",
        &[(6, 2), (6, 7), (8, 2), (8, 7), (17, 2), (17, 7), (33, 5), (40, 6), (44, 5), (69, 2),
          (69, 7), (71, 5), (71, 6), (71, 9), (78, 5), (78, 6), (78, 9)],
        Some(Want {
            name: "Unique Loop 6 type 3",
            tenths: 48,
            place: None,
            elims: &[(63, 9), (72, 9), (73, 6)],
            text: "Unique Loop 6 type 3: Cells r3c7,r3c9,r8c9,r8c3,r9c3,r9c7 on 2, 7",
        });
    finds_unique_loop_6_type_4_46: UniqueLoops,
        "....478....4.56....7.2.3.454..3729....7..9..3.9..15....495.178686.7.4..9715..8...",
        &[(0, 3), (2, 3), (9, 3), (69, 2), (69, 3), (70, 2), (70, 3), (76, 2), (76, 3)],
        Some(Want {
            name: "Unique Loop 6 type 4",
            tenths: 46,
            place: None,
            elims: &[(45, 2), (47, 2)],
            text: "Unique Loop 6 type 4: Cells r7c1,r7c5,r8c5,r8c3,r6c3,r6c1 on 3, 2",
        });
    finds_unique_loop_8_type_1_47: UniqueLoops,
        "3.84.7...71.3.648..4...8.7..8.2731646.18457..47.169.58897634.1.1547829362....1847",
        &[(4, 2), (6, 2), (8, 2), (11, 2), (20, 5), (20, 9), (22, 5), (22, 9), (24, 5), (26, 2),
          (26, 5), (26, 9), (44, 2)],
        Some(Want {
            name: "Unique Loop 8 type 1",
            tenths: 47,
            place: None,
            elims: &[(13, 5), (13, 9)],
            text: "Unique Loop 8 type 1: Cells r2c3,r2c5,r9c5,r9c4,r3c4,r3c1,r4c1,r4c3 on 5, 9",
        });
    finds_unique_loop_8_type_2_47: UniqueLoops,
        "..89451737..681..44.123768.812596437947318.6.3..472891..4769.1817.8.4..6.8.1.374.",
        &[(10, 2), (11, 9), (55, 5), (65, 5), (69, 2), (69, 5), (74, 5)],
        Some(Want {
            name: "Unique Loop 8 type 2",
            tenths: 47,
            place: None,
            elims: &[(26, 9), (69, 9)],
            text: "Unique Loop 8 type 2: Cells r2c8,r2c7,r5c7,r5c9,r9c9,r9c5,r8c5,r8c8 on 2, 5",
        });
    finds_unique_loop_8_type_3_48: UniqueLoops,
        ".2.6384..845.9.326.634529.86..24.83..32.85.6..8.369..22.85.46.337.8265.1..69.328.",
        &[(35, 7), (36, 1), (36, 7), (44, 7), (45, 4), (52, 1), (52, 7)],
        Some(Want {
            name: "Unique Loop 8 type 3",
            tenths: 48,
            place: None,
            elims: &[(28, 9)],
            text: "Unique Loop 8 type 3: Cells r2c4,r2c6,r4c6,r4c3,r6c3,r6c7,r5c7,r5c4 on 1, 7",
        });
    finds_unique_rectangle_type_1_45: UniqueLoops,
        "1..783.96...9.18..89.2.61.7.8..6.91.2..319.789.187..6.5..19862..18627..9629.3.781",
        &[],
        Some(Want {
            name: "Unique Rectangle type 1",
            tenths: 45,
            place: None,
            elims: &[(32, 4), (32, 5)],
            text: "Unique Rectangle type 1: Cells r4c4,r4c6,r9c6,r9c4 on 4, 5",
        });
    finds_unique_rectangle_type_2_45: UniqueLoops,
        "8145..26.697124835523.8....74.8....338..7..1.16.3457.8..8.....6.76....8.2.1..89..",
        &[],
        Some(Want {
            name: "Unique Rectangle type 2",
            tenths: 45,
            place: None,
            elims: &[(33, 5)],
            text: "Unique Rectangle type 2: Cells r6c3,r4c3,r4c8,r6c8 on 2, 9",
        });
    finds_unique_rectangle_type_3_45: UniqueLoops,
        "537816492142935687968..4351853.421.9794..1..52165....4425.....838....54667.458..3",
        &[(57, 7), (58, 7), (59, 7)],
        Some(Want {
            name: "Unique Rectangle type 3",
            tenths: 45,
            place: None,
            elims: &[(68, 9)],
            text: "Unique Rectangle type 3: Cells r3c4,r3c5,r8c5,r8c4 on 2, 7",
        });
    finds_unique_rectangle_type_3_46: UniqueLoops,
        "519..3784643758192728491...872136945..687.2..13...96783..9.2..7.8.3.7.2.2.7......",
        &[(73, 5), (78, 5), (79, 5)],
        Some(Want {
            name: "Unique Rectangle type 3",
            tenths: 46,
            place: None,
            elims: &[(75, 6), (76, 6)],
            text: "Unique Rectangle type 3: Cells r5c8,r5c9,r9c9,r9c8 on 1, 3",
        });
    finds_unique_rectangle_type_3_47: UniqueLoops,
        "..6.839..3..9256.4..2.643....98561..8.14925.6..53178...5.23146.2.36487.5..45792..",
        &[(1, 1), (7, 1), (19, 1), (25, 1), (73, 1), (79, 1)],
        Some(Want {
            name: "Unique Rectangle type 3",
            tenths: 47,
            place: None,
            elims: &[(35, 2), (80, 8)],
            text: "Unique Rectangle type 3: Cells r1c4,r3c4,r3c9,r1c9 on 1, 7",
        });
    finds_unique_rectangle_type_3_48: UniqueLoops,
        "2.......5.65....9...9..51......935..95.8.6413836.5.972518.6.347724318659693547..1",
        &[(30, 1), (30, 4)],
        Some(Want {
            name: "Unique Rectangle type 3",
            tenths: 48,
            place: None,
            elims: &[(3, 7), (21, 2), (21, 7)],
            text: "Unique Rectangle type 3: Cells r6c4,r6c6,r2c6,r2c4 on 1, 4",
        });
    finds_unique_rectangle_type_4_45: UniqueLoops,
        "....587....57248....8.9325...24156..469832175.5.96742.517346982384279516..6581347",
        &[],
        Some(Want {
            name: "Unique Rectangle type 4",
            tenths: 45,
            place: None,
            elims: &[(0, 9), (1, 9)],
            text: "Unique Rectangle type 4: Cells r9c1,r9c2,r1c2,r1c1 on 2, 9",
        });
    finds_bug_type_1_56: Bug,
        "46.9.31.7...7.5364.37164.89752846931846391.7....57264862.41879.1746.98...892.7416",
        &[],
        Some(Want {
            name: "BUG type 1",
            tenths: 56,
            place: None,
            elims: &[(71, 2), (71, 3)],
            text: "BUG type 1: r8c9",
        });
    finds_bug_type_2_57: Bug,
        "2.1.38467.746.1382683724951.481..7.6..24671.816738..4.71.846..3426.7381.83.21.674",
        &[(27, 5), (50, 5)],
        Some(Want {
            name: "BUG type 2",
            tenths: 57,
            place: None,
            elims: &[(27, 9)],
            text: "BUG type 2: r5c1,r4c6,r4c8 on 9",
        });
    finds_bug_type_3_58: Bug,
        "6.73.92..42816793593.2.47..564823197289716...173945628....9..7..9657.41.7.2.318.9",
        &[],
        Some(Want {
            name: "BUG type 3",
            tenths: 58,
            place: None,
            elims: &[(54, 3), (56, 5)],
            text: "BUG type 3: r7c2,r7c9 on 3, 5",
        });
    finds_bug_type_3_59: Bug,
        "63918547258479213617243658932....7.............8....61467851923213964857895327614",
        &[],
        Some(Want {
            name: "BUG type 3",
            tenths: 59,
            place: None,
            elims: &[(36, 9), (44, 5)],
            text: "BUG type 3: r5c5,r5c4,r5c6 on 4, 5, 9",
        });
    finds_bug_type_3_60: Bug,
        "178...2495694.21.332491.6.5647...5218915243672351..894912..3.58456..1.327832...16",
        &[(58, 7), (67, 7)],
        Some(Want {
            name: "BUG type 3",
            tenths: 60,
            place: None,
            elims: &[(58, 6)],
            text: "BUG type 3: r1c5,r4c5,r9c5 on 6, 7, 8, 9",
        });
    finds_bug_type_3_61: Bug,
        "56...7.38.13..6...89752364175.23..86.3.......18.7.4.936219783543756428199483..762",
        &[(15, 2), (38, 2), (40, 9), (42, 2), (42, 5)],
        Some(Want {
            name: "BUG type 3",
            tenths: 61,
            place: None,
            elims: &[(39, 1)],
            text: "BUG type 3: r5c3,r5c5,r5c6 on 1, 2, 4, 5, 7",
        });
    finds_bug_type_4_57: Bug,
        "15..34687...8..549.84.6.321.184..27.375182496...7..81.521378964..6..9..889.64...2",
        &[(11, 2), (32, 5), (50, 5), (67, 5)],
        Some(Want {
            name: "BUG type 4",
            tenths: 57,
            place: None,
            elims: &[(9, 6), (45, 4)],
            text: "BUG type 4: r2c1,r6c1 on 2",
        });
    /// Where SE's path went on to Jellyfish.
    no_unique_loop: UniqueLoops,
        "..28.47..9.86732.1.7..5.....6.5.7.125.1.6.3.72.79.1865...325.7...57.6...7.6...5.3",
        &[(27, 4)],
        None;
    /// Where SE's path went on to Forcing Chain.
    no_bug: Bug,
        ".2.58.....81.9.56.5..6.1.....8..567.7......54.459..3.....8.6..5.62.5.78.85..3..46",
        &[],
        None;
}

/// A random position where loops abound: few digits, so that many cells share a pair; now and
/// then a filled cell, and a digit from outside the pool (extra digits for types 2 to 4).
fn loopy_board(next: &mut impl FnMut() -> u64) -> Board {
    let mut b = Board {
        values: [0; 81],
        cands: [0; 81],
        digits: [0; 10],
        empty: 0,
        left: [0; 27],
    };
    let pool = 5 + next() % 3;
    for c in 0..81 {
        let r = next();
        if r % 9 == 0 {
            b.values[c] = 9;
            continue;
        }
        let want = 2 + (r >> 8) % 2;
        let mut m = 0u16;
        while u64::from(m.count_ones()) < want {
            m |= 1 << (1 + next() % pool);
        }
        if (r >> 16) % 5 == 0 {
            m |= 1 << (8 + next() % 2);
        }
        b.cands[c] = m;
        b.empty |= 1 << c;
    }
    b.rebuild_digits();
    b
}

/// The walks remembered as finding no valid loop (kept per thread from ask to ask) leave the
/// hint the same: along sequences of positions, each the last with a candidate or two taken
/// out (so most digit pairs keep their cells and candidates, and their walks are skipped), the
/// producer's hint is the first of every hint the whole walk finds, sorted. The walks kept
/// whole are replayed here too, with and without a bound on the loops' length (checked by
/// making each replay panic: both kinds occur).
#[test]
fn remembered_barren_walks_keep_the_first_loop_hint() {
    use super::super::unique::all_loop_hints;
    let mut next = xorshift(0x2545_f491_4f6c_dd1du64);
    let (mut found, mut asks) = (0, 0);
    for _ in 0..300 {
        let mut b = loopy_board(&mut next);
        for _ in 0..12 {
            let first = ask(Producer::UniqueLoops, &b);
            assert_eq!(
                format!("{first:?}"),
                format!("{:?}", all_loop_hints(&b).first())
            );
            found += usize::from(first.is_some());
            asks += 1;
            // Take out a candidate or two (never below two in a cell).
            for _ in 0..1 + next() % 2 {
                let c = (next() % 81) as usize;
                if b.cands[c].count_ones() > 2 {
                    let v = digits_of(b.cands[c])
                        .nth((next() % 2) as usize)
                        .unwrap_or(1);
                    b.cands[c] &= !(1 << v);
                }
            }
            b.rebuild_digits();
        }
    }
    assert!(found > 200 && found < asks, "{found} of {asks}");
}

/// The unique-loop producer finds only the hint SE's sort puts first (the rectangles first,
/// then the loops whose hints can still sort before the best so far): on random positions
/// where loops abound, it is the first of every hint the whole walk finds, sorted as SE sorts
/// them.
#[test]
fn the_first_loop_hint_is_the_first_of_all_sorted() {
    use super::super::unique::all_loop_hints;
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15u64);
    let (mut found, mut longer, mut sorted_after) = (0, 0, 0);
    for _ in 0..4000 {
        let b = loopy_board(&mut next);
        let all = all_loop_hints(&b);
        let first = ask(Producer::UniqueLoops, &b);
        assert_eq!(format!("{first:?}"), format!("{:?}", all.first()));
        if let Some(h) = first {
            found += 1;
            longer += usize::from(h.rating > 4.5);
            sorted_after += usize::from(all.len() > 1);
        }
    }
    assert!(
        found > 500 && longer > 100 && sorted_after > 500,
        "{found} {longer} {sorted_after}"
    );
}
