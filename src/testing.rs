//! Puzzles the unit tests share (compiled for tests only).

/// LeetCode 37's puzzle (also the example of Wikipedia's "Sudoku" article).
pub const LEET: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// Its unique solution.
pub const LEET_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
