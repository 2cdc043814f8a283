//! Cycles and forcing X-chains, forcing chains, Nishio, cell and region forcing chains, dynamic,
//! dynamic (+) and nested forcing chains. Positions and how they were chosen: see [`super`].

use super::*;

positions! {
    finds_bidirectional_cycle: Cycles,
        "985321746142976583.....4192.1..324.9...7.92.12.94153.8.2...3.1..912.86373..1.7.2.",
        &[(27, 6)],
        Some(Want {
            name: "Bidirectional Cycle",
            tenths: 71,
            place: None,
            elims: &[(54, 4), (54, 5)],
            text: "Bidirectional Cycle: r8c1,r9c2,r5c2,r5c3,r5c1",
        });
    finds_bidirectional_x_cycle: Cycles,
        ".21.78.457.8451.23.4526.18753..2487.8.45.723.172.8.45..137425.845.83.712287..53.4",
        &[],
        Some(Want {
            name: "Bidirectional X-Cycle",
            tenths: 65,
            place: None,
            elims: &[(44, 9), (75, 9)],
            text: "Bidirectional X-Cycle: r8c3,r8c6,r9c5,r5c5,r5c2,r4c3",
        });
    finds_bidirectional_y_cycle: Cycles,
        "8.9...6437.38..2952.6..9781428915367671423958935..8124.8..9...6.6...78.939..8...2",
        &[],
        Some(Want {
            name: "Bidirectional Y-Cycle",
            tenths: 67,
            place: None,
            elims: &[(3, 5), (14, 4)],
            text: "Bidirectional Y-Cycle: r2c2,r2c5,r6c5,r1c5,r1c2",
        });
    finds_forcing_chain: Cycles,
        ".2.58.....81.9.56.5..6.1.....8..567.7......54.459..3.....8.6..5.62.5.78.85..3..46",
        &[],
        Some(Want {
            name: "Forcing Chain",
            tenths: 73,
            place: None,
            elims: &[(2, 4)],
            text: "Forcing Chain: r1c3.4 off",
        });
    finds_forcing_x_chain: Cycles,
        "9.531248.381.495.2.42.8591345.12.89..2859.13419.4.82.52398647518..25..495.49...28",
        &[],
        Some(Want {
            name: "Forcing X-Chain",
            tenths: 67,
            place: None,
            elims: &[(1, 6)],
            text: "Forcing X-Chain: r1c2.6 off",
        });
    finds_turbot_fish: Cycles,
        ".5..4.36..46..3.573..6.5..4.8145.6..43.8.6..5.6539.48...47.95.667.5.4.2.5.3.6.74.",
        &[],
        Some(Want {
            name: "Turbot Fish",
            tenths: 66,
            place: None,
            elims: &[(0, 8)],
            text: "Turbot Fish: r1c1.8 off",
        });
    finds_nishio_forcing_chains: Chains(Mode::NISHIO),
        "1....6.8..5.1..2.6...3..1....9.4..7.........26....18...4.9.....7....2..8..5.3....",
        &[],
        Some(Want {
            name: "Nishio Forcing Chains",
            tenths: 76,
            place: None,
            elims: &[(62, 1)],
            text: "Nishio Forcing Chain: r7c9.1 on ==> r4c2.1 both on & off",
        });
    finds_cell_forcing_chains: Chains(Mode::MULTIPLE),
        ".2.58.....81.9.56.5..6.1.....8..567.7......54.459..3.....8.6..5.62.5.78.85..3..46",
        &[(2, 4), (12, 4)],
        Some(Want {
            name: "Cell Forcing Chains",
            tenths: 85,
            place: None,
            elims: &[(2, 3)],
            text: "Cell Forcing Chains: r1c6 ==> r1c3.3 off",
        });
    finds_region_forcing_chains: Chains(Mode::MULTIPLE),
        ".3....6.7.7.....24..4..1....9......3....1..8.....5.7.66125.4....532.8461.4.1..5.2",
        &[(11, 1)],
        Some(Want {
            name: "Region Forcing Chains",
            tenths: 84,
            place: None,
            elims: &[(2, 1)],
            text: "Region Forcing Chains: 8 in block ==> r1c3.1 off",
        });
    finds_dynamic_cell_forcing_chains: Chains(Mode::DYNAMIC),
        ".673.4.....4..8..78..2..4.36..74.9..4598......7...9.4.....2..14.4.5....8..648..3.",
        &[(42, 6), (43, 6), (51, 6)],
        Some(Want {
            name: "Dynamic Cell Forcing Chains",
            tenths: 88,
            place: None,
            elims: &[(10, 1)],
            text: "Cell Forcing Chains: r6c1 ==> r2c2.1 off",
        });
    finds_dynamic_contradiction_forcing_chains: Chains(Mode::DYNAMIC),
        "1....67......8......92...5.....4...85..3...1......76..3.2.......1.9...2.9.5.....4",
        &[],
        Some(Want {
            name: "Dynamic Contradiction Forcing Chains",
            tenths: 94,
            place: None,
            elims: &[(10, 4)],
            text: "Contradiction Forcing Chain: r2c2.4 on ==> r8c6.3 both on & off",
        });
    finds_dynamic_double_forcing_chains: Chains(Mode::DYNAMIC),
        "..2...3.51...23.8.9..7....1....3..52..6.....8.9.1..6.37.8.695.4..9....3..4..57...",
        &[(5, 8), (36, 5), (37, 7), (47, 4), (64, 1), (69, 1)],
        Some(Want {
            name: "Dynamic Double Forcing Chains",
            tenths: 89,
            place: None,
            elims: &[(63, 2)],
            text: "Double Forcing Chain: r8c1.5 on & off ==> r8c1.2 off",
        });
    finds_dynamic_region_forcing_chains: Chains(Mode::DYNAMIC),
        ".3....6.7.7.....24..4..1....9......3....1..8...1.5.7.66125.4....532.8461.4.1..5.2",
        &[],
        Some(Want {
            name: "Dynamic Region Forcing Chains",
            tenths: 88,
            place: None,
            elims: &[(21, 8)],
            text: "Region Forcing Chains: 8 in block ==> r3c4.8 off",
        });
    finds_dynamic_cell_forcing_chains_plus: DYNAMIC_PLUS,
        ".....6....56...1..7...3..4.2............2.9.4.4.3.7.2.3...4..9...8.......1.8....5",
        &[(6, 3), (7, 3), (8, 3), (28, 6), (28, 8), (29, 1), (29, 5), (43, 1), (43, 5), (43, 6),
          (43, 8), (69, 6)],
        Some(Want {
            name: "Dynamic Cell Forcing Chains (+)",
            tenths: 92,
            place: None,
            elims: &[(45, 9)],
            text: "Cell Forcing Chains: r5c8 ==> r6c1.9 off",
        });
    finds_dynamic_contradiction_forcing_chains_plus: DYNAMIC_PLUS,
        "...4.67....7..9..6....7..5.2......1..8......3..6.4.5..3.......8..5.9.4...1.2....5",
        &[],
        Some(Want {
            name: "Dynamic Contradiction Forcing Chains (+)",
            tenths: 101,
            place: None,
            elims: &[(60, 6)],
            text: "Contradiction Forcing Chain: r7c7.6 on ==> r3c6.3 both on & off",
        });
    finds_dynamic_double_forcing_chains_plus: DYNAMIC_PLUS,
        ".....6....56...1..7...3..4.2............2.9.4.4.3.7.2.3...4..9...8.......1.8....5",
        &[(6, 3), (7, 3), (8, 3), (28, 6), (28, 8), (29, 1), (29, 5), (43, 8), (69, 6)],
        Some(Want {
            name: "Dynamic Double Forcing Chains (+)",
            tenths: 92,
            place: None,
            elims: &[(43, 1)],
            text: "Double Forcing Chain: r5c8.3 on & off ==> r5c8.1 off",
        });
    finds_dynamic_region_forcing_chains_plus: DYNAMIC_PLUS,
        "1....7.9..3..29..8..96..5....53..9...1..8...26....4...3......1..41.....7..7...3..",
        &[(6, 6), (9, 4), (15, 4), (48, 5), (52, 7), (57, 5), (57, 9), (58, 5), (68, 2), (68, 8),
          (75, 9), (77, 6), (79, 8)],
        Some(Want {
            name: "Dynamic Region Forcing Chains (+)",
            tenths: 99,
            place: None,
            elims: &[(52, 8)],
            text: "Region Forcing Chains: 3 in column ==> r6c8.8 off",
        });
    finds_dynamic_cell_forcing_chains_plus_forcing_chains: NESTED_FORCING,
        ".....6......7...2...9.3.5....5.9.84.8..2....69......7.39..4....5.....4....4..1..8",
        &[(1, 4), (10, 4), (15, 9), (19, 4), (48, 5), (75, 6)],
        Some(Want {
            name: "Dynamic Cell Forcing Chains (+ Forcing Chains)",
            tenths: 103,
            place: None,
            elims: &[(14, 8)],
            text: "Cell Forcing Chains: r7c6 ==> r2c6.8 off",
        });
    finds_dynamic_contradiction_forcing_chains_plus_forcing_chains: NESTED_FORCING,
        "1.......2.3.4...5...6...7...5..32......9........845.9...2...6...9...8.4.7.......1",
        &[],
        Some(Want {
            name: "Dynamic Contradiction Forcing Chains (+ Forcing Chains)",
            tenths: 104,
            place: None,
            elims: &[(38, 1)],
            text: "Contradiction Forcing Chain: r5c3.1 on ==> r2c9.6 both on & off",
        });
    finds_dynamic_double_forcing_chains_plus_forcing_chains: NESTED_FORCING,
        "..53.....8...5..2..7..1.5..4....53...1..73..6..32...8..6.5....9..4....3......97..",
        &[(0, 2), (6, 4), (7, 4), (18, 9), (29, 2), (29, 8), (29, 9), (45, 5), (45, 9), (58, 8),
          (73, 5)],
        Some(Want {
            name: "Dynamic Double Forcing Chains (+ Forcing Chains)",
            tenths: 104,
            place: None,
            elims: &[(43, 4)],
            text: "Double Forcing Chain: r5c8.5 on & off ==> r5c8.4 off",
        });
    finds_dynamic_region_forcing_chains_plus_forcing_chains: NESTED_FORCING,
        ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..475..6...",
        &[],
        Some(Want {
            name: "Dynamic Region Forcing Chains (+ Forcing Chains)",
            tenths: 104,
            place: None,
            elims: &[(70, 7)],
            text: "Region Forcing Chains: 7 in row ==> r8c8.7 off",
        });
    finds_dynamic_cell_forcing_chains_plus_multiple_forcing_chains: NESTED_MULTIPLE,
        ".2.4...8...7.....3.8.237.1.2.1....9..9....8.48..9......1.8...4.5.8..........6...8",
        &[(49, 1), (50, 1), (50, 5), (53, 5)],
        Some(Want {
            name: "Dynamic Cell Forcing Chains (+ Multiple Forcing Chains)",
            tenths: 109,
            place: None,
            elims: &[(49, 4)],
            text: "Cell Forcing Chains: r6c6 ==> r6c5.4 off",
        });
    finds_dynamic_contradiction_forcing_chains_plus_multiple_forcing_chains: NESTED_MULTIPLE,
        "1...567.....1....6..9....1...5..83..7..5...9..3...........4...25..6...7...4.2.8..",
        &[(28, 6)],
        Some(Want {
            name: "Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains)",
            tenths: 111,
            place: None,
            elims: &[(57, 9)],
            text: "Contradiction Forcing Chain: r7c4.9 on ==> r3c4.3 both on & off",
        });
    finds_dynamic_double_forcing_chains_plus_multiple_forcing_chains: NESTED_MULTIPLE,
        "1....67......8......92...5.....4...85..3...1......76..3.2.......1.9...2.9.5.....4",
        &[(1, 4), (10, 3), (10, 4), (28, 2), (37, 2), (68, 8)],
        Some(Want {
            name: "Dynamic Double Forcing Chains (+ Multiple Forcing Chains)",
            tenths: 109,
            place: None,
            elims: &[(10, 6)],
            text: "Double Forcing Chain: r6c2.2 on & off ==> r2c2.6 off",
        });
    finds_dynamic_region_forcing_chains_plus_multiple_forcing_chains: NESTED_MULTIPLE,
        "..4..3....7..8....2.81....6..3....9..8.32....1..7....38.....45....8..9....9..5..8",
        &[(33, 5), (36, 5), (70, 1)],
        Some(Want {
            name: "Dynamic Region Forcing Chains (+ Multiple Forcing Chains)",
            tenths: 109,
            place: None,
            elims: &[(17, 2)],
            text: "Region Forcing Chains: 1 in row ==> r2c9.2 off",
        });
    finds_dynamic_contradiction_forcing_chains_plus_dynamic_forcing_chains: NESTED_DYNAMIC,
        "...4...8...7..92......3...526...1.....19.....7.....1..5...9..4...6..29..9..8....3",
        &[(10, 1), (77, 7)],
        Some(Want {
            name: "Dynamic Contradiction Forcing Chains (+ Dynamic Forcing Chains)",
            tenths: 117,
            place: None,
            elims: &[(2, 2)],
            text: "Contradiction Forcing Chain: r1c3.2 on ==> r7c3.8 both on & off",
        });
    finds_dynamic_region_forcing_chains_plus_dynamic_forcing_chains: NESTED_DYNAMIC,
        "1...56.....71.......9....1..4..6.3.......8..29..7...6......24..5..6...9.....3...8",
        &[(16, 5), (24, 7), (26, 7), (34, 5), (37, 5), (46, 5), (61, 7), (65, 1), (73, 6), (78, 5)],
        Some(Want {
            name: "Dynamic Region Forcing Chains (+ Dynamic Forcing Chains)",
            tenths: 117,
            place: None,
            elims: &[(10, 3)],
            text: "Region Forcing Chains: 6 in block ==> r2c2.3 off",
        });
    /// Where SE's path went on to Nishio Forcing Chains.
    no_cycle_or_forcing_x_chain: Cycles,
        "1....6.8..5.1..2.6...3..1....9.4..7.........26....18...4.9.....7....2..8..5.3....",
        &[],
        None;
    /// Where SE's path went on to Dynamic Contradiction Forcing Chains.
    no_nishio: Chains(Mode::NISHIO),
        "1....67......8......92...5.....4...85..3...1......76..3.2.......1.9...2.9.5.....4",
        &[],
        None;
    /// Where SE's path went on to Dynamic Region Forcing Chains (+ Forcing Chains).
    no_multiple_chains: Chains(Mode::MULTIPLE),
        ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..475..6...",
        &[],
        None;
    /// Where SE's path went on to Dynamic Region Forcing Chains (+ Forcing Chains).
    no_dynamic_chains: Chains(Mode::DYNAMIC),
        ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..475..6...",
        &[],
        None;
    /// Where SE's path went on to Dynamic Region Forcing Chains (+ Forcing Chains).
    no_dynamic_plus: DYNAMIC_PLUS,
        ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..475..6...",
        &[],
        None;
    /// Where SE's path went on to Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains).
    no_nested_forcing_chains: NESTED_FORCING,
        "1...567.....1....6..9....1...5..83..7..5...9..3...........4...25..6...7...4.2.8..",
        &[(28, 6)],
        None;
    /// Where SE's path went on to Dynamic Contradiction Forcing Chains (+ Dynamic Forcing Chains).
    no_nested_multiple_chains: NESTED_MULTIPLE,
        "...4...8...7..92......3...526...1.....19.....7.....1..5...9..4...6..29..9..8....3",
        &[(10, 1), (77, 7)],
        None;
}
