//! The production engine behind [`crate::engine::solve`] and
//! [`crate::engine::solve_candidates`]: band bitboards. The design story — every trick with what
//! it was worth, and the whole "tried and not kept" notebook with its numbers — is in
//! `docs/engine.md`.
//!
//! Representation: for every digit and band (three rows) one `u32` holds the cells where the
//! digit can still go, bit `9·row + col`; 27 words (`3·digit + band`) plus bookkeeping make a
//! 384-byte `Copy` [`State`] cloned on a guess. Rules about one digit inside a band are table
//! look-ups on its word; columns are the only thing passed between a digit's three words.
//!
//! Where each trick lives:
//! - `LC` + `minirow_hash`: band permutation table (row/box hidden singles, locked candidates,
//!   contradictions) under a perfect multiplicative hash.
//! - `COL_SINGLE`: column pointing; with `Lc::single_row`, solved-cell detection.
//! - `State::update_all`, `stale_sse2` / `stale_portable`: stale-word sweeps with a SIMD mask;
//!   the first sweep of a round takes the words its caller reports changed.
//! - `State::first_sweep`, `first_sweep_sse2`: a start state's first sweep (every word) as
//!   one vector pass, the permutation rule computed by shifts instead of looked up.
//! - `PEER_WORDS`: a word's band, digit and its digit's other words.
//! - `State::claim_columns`, `State::cols`, `State::claim_due`: column claiming once per
//!   round, from stored folds, for due digits only.
//! - `State::naked_singles`, `candidate_counts_sse2` / `_portable`: bit-sliced candidate
//!   counts (empty, single, bivalue cells), a digit's three band words as one vector.
//! - `State::from_grid`, `value_words`, `given_words_sse2` / `_portable`,
//!   `State::from_candidates`: batch givens, branch-free, one vector per digit; pencilmark
//!   start.
//! - `State::branch_point`, `search`: at each fixpoint the triad rules (a mini-row or
//!   mini-column holds exactly three digits; `State::mr` stored by `update` from `Lc::kept`,
//!   `ROW_INFO` (a word's alone mini-rows and configuration count in one look-up), a `Tally`
//!   packing all bands, rows and columns), then a branch on a digit with two configurations in
//!   the band or stack with fewest (`PERMS`, `PERM_COUNT`, `SPREAD3`, `matrix_cells`).
//! - `State::pick_cell`, `search`: otherwise a bivalue cell of the densest band and row
//!   (`ROW_POP`), the last candidate applied in place.

use super::candidates::Candidates;
use super::solved::Solved;
use crate::grid::Grid;

/// The engine's SIMD path, as [`crate::engine::simd_path`] reports it.
pub(crate) const SIMD_PATH: &str = if cfg!(all(target_arch = "x86_64", target_feature = "sse2")) {
    "sse2"
} else {
    "portable"
};

/// All 27 words, as a word mask.
const ALL_WORDS: u32 = (1 << 27) - 1;

/// Below this many open cells a branch point guesses a cell without the triad rules or
/// configurations (docs/engine.md: 35 against 30, 40, 45 and none).
const OPEN_FLOOR: u32 = 35;

/// A puzzle whose first branch point has at least this many open cells, or fewer than
/// [`EAGER_PAIRS`] bivalue cells, branches on configurations from the start; any other guesses
/// cells until its first dead end (**configurations on demand**, docs/engine.md).
const EAGER_OPEN: u32 = 50;

/// See [`EAGER_OPEN`].
const EAGER_PAIRS: u32 = 8;

/// All 27 cells of a band.
const ALL: u32 = (1 << 27) - 1;

/// Counts the solutions of `grid` up to `limit`, giving up after `max_guesses` guesses. The
/// contract is [`crate::engine::solve_with_budget`]'s.
pub(crate) fn solve(grid: &Grid, limit: u32, max_guesses: u64) -> Solved {
    run(State::from_grid(grid), limit, max_guesses)
}

/// Counts the solutions of the candidate sets `c` up to `limit`, giving up after `max_guesses`
/// guesses. The contract is [`crate::engine::solve_candidates`]'s.
pub(crate) fn solve_candidates(c: &Candidates, limit: u32, max_guesses: u64) -> Solved {
    run(State::from_candidates(c), limit, max_guesses)
}

/// A complete valid grid `S` as band words, for [`State::from_subset`]: the engine side of
/// [`crate::engine::Subpuzzles`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Solution {
    /// The cells of each digit per band, index `3·digit + band`.
    words: [u32; 27],
    /// The grid's digits.
    digits: [u8; 81],
}

impl Solution {
    /// `None` unless `grid` is complete and valid.
    pub(crate) fn new(grid: &Grid) -> Option<Solution> {
        if !grid.is_solution_of(&Grid::EMPTY) {
            return None;
        }
        let mut words = [0u32; 27];
        for (cell, &v) in grid.cells().iter().enumerate() {
            words[3 * (v as usize - 1) + cell / 27] |= 1 << (cell % 27);
        }
        Some(Solution {
            words,
            digits: *grid.cells(),
        })
    }

    /// Counts the solutions of the puzzle with givens `givens` (bit `i`: cell `i` holds `S`'s
    /// digit, the rest blank) up to `limit`; with `exclude`, only those whose cell `exclude`
    /// does not hold `S`'s digit.
    #[inline]
    pub(crate) fn solve(&self, givens: u128, exclude: Option<usize>, limit: u32) -> Solved {
        let mut s = State::from_subset(self, givens);
        if let Some(c) = exclude.filter(|&c| c < 81) {
            let d = self.digits[c] as usize - 1;
            s.cells[3 * d + c / 27] &= !(1 << (c % 27));
        }
        run(Some(s), limit, u64::MAX)
    }
}

/// Searches from a start state (`None`: contradictory from the start, 0 solutions).
#[inline(always)]
fn run(start: Option<State>, limit: u32, max_guesses: u64) -> Solved {
    let mut ctx = Ctx {
        limit: limit.max(1),
        solutions: 0,
        first: None,
        guesses: 0,
        max_guesses,
        gave_up: false,
        configs: None,
    };
    if let Some(mut state) = start {
        if let Some(dirty) = state.first_sweep() {
            search(&mut state, dirty, &mut ctx);
        }
    }
    Solved {
        solutions: ctx.solutions,
        first: ctx.first,
        guesses: ctx.guesses,
        gave_up: ctx.gave_up,
    }
}

/// One entry of the band permutation table, for the 9-bit mini-row mask (bit `3·row + box`) of
/// a digit's band word.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Lc {
    /// Cells of the mini-rows that lie on some row→box permutation inside the mask (0 if none).
    keep: u32,
    /// Of those mini-rows, the ones alone in their box (the box's digit is on that row).
    single_row: u32,
    /// The mini-rows kept, as a mini-row matrix (bit `3·row + box`): the matrix of the word
    /// once `keep` is applied, stored by [`State::update`] for [`State::branch_point`].
    kept: u16,
}

/// The three cells of mini-row `m` (= `3·row + box`).
const fn minirow_cells(m: usize) -> u32 {
    0b111 << ((m / 3) * 9 + (m % 3) * 3)
}

/// The [`Lc`] entry of the mini-row mask `s`.
const fn lc_entry(s: usize) -> Lc {
    const PERMS: [[u8; 3]; 6] = crate::transform::PERMS3;
    // Mini-rows on a permutation (row r goes to box p[r]) that `s` fully contains.
    let mut kept = 0usize;
    let mut p = 0;
    while p < 6 {
        let mut m = 0;
        let mut r = 0;
        while r < 3 {
            m |= 1 << (r * 3 + PERMS[p][r] as usize);
            r += 1;
        }
        if s & m == m {
            kept |= m;
        }
        p += 1;
    }
    let mut keep = 0;
    let mut single_row = 0;
    let mut m = 0;
    while m < 9 {
        if kept & (1 << m) != 0 {
            keep |= minirow_cells(m);
            let bx = m % 3;
            let in_box = ((kept >> bx) & 1) + ((kept >> (bx + 3)) & 1) + ((kept >> (bx + 6)) & 1);
            if in_box == 1 {
                single_row |= minirow_cells(m);
            }
        }
        m += 1;
    }
    Lc {
        keep,
        single_row,
        kept: kept as u16,
    }
}

/// Band permutation table: the [`Lc`] entry of every mini-row mask, stored under the mask's
/// [`minirow_hash`].
static LC: [Lc; 512] = {
    let mut t = [Lc {
        keep: 0,
        single_row: 0,
        kept: 0,
    }; 512];
    let mut s = 0;
    while s < 512 {
        // Any word with exactly these mini-rows: all their cells.
        t[minirow_hash(matrix_cells(s))] = lc_entry(s);
        s += 1;
    }
    t
};

/// A multiplier, found by search, under which the 512 possible mini-row presence words of
/// [`minirow_hash`] have 512 different top nine bits: a perfect hash, so [`LC`] needs no
/// collision handling. The `tables` test checks it.
const MINIROW_MAGIC: u64 = 0x3600_4040_1bd5_39ac;

/// The [`LC`] index of a band word (**mini-row hash**): each mini-row's three bits are ORed
/// into its lowest one (bit `3·m` for mini-row `m`), and a multiply by [`MINIROW_MAGIC`]
/// gathers those nine bits into a distinct 9-bit value. Six ALU operations and a multiply in
/// place of three table loads; the loop got 1–2% faster.
#[inline(always)]
const fn minirow_hash(x: u32) -> usize {
    let t = (x | x >> 1 | x >> 2) & 0o111_111_111;
    ((t as u64).wrapping_mul(MINIROW_MAGIC) >> 55) as usize
}

/// For a 9-bit column-presence mask `v`, box by box: with `single`, the cells (all three rows)
/// of a column that is the only one of its box in `v`; else the cells of every box holding a
/// column of `v`.
const fn box_cells(v: usize, single: bool) -> u32 {
    let mut out = 0u32;
    let mut b = 0;
    while b < 3 {
        let g = (v >> (3 * b)) & 7;
        if single && g != 0 && g & (g - 1) == 0 {
            out |= spread_columns((g << (3 * b)) as u32);
        } else if !single && g != 0 {
            out |= spread_columns(7 << (3 * b));
        }
        b += 1;
    }
    out
}

/// Column pointing: for a 9-bit column-presence mask of one digit in one band, the cells
/// (all three rows) of every column that is the only one left in its box.
static COL_SINGLE: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        t[v] = box_cells(v, true);
        v += 1;
    }
    t
};

/// For a 9-bit column-presence mask, the cells (all three rows) of every box holding one of
/// the columns.
static BOX_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        t[v] = box_cells(v, false);
        v += 1;
    }
    t
};

/// Column claiming: for a 9-bit mask of columns whose digit must lie in this band, the cells
/// the band may keep: in each box holding such a column, that column only. A box holding two
/// such columns keeps nothing (contradiction).
static CLAIM: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        let mut keep9 = 0u32;
        let mut b = 0;
        while b < 3 {
            let g = ((v >> (3 * b)) & 7) as u32;
            let k = if g == 0 {
                7
            } else if g & (g - 1) == 0 {
                g
            } else {
                0
            };
            keep9 |= k << (3 * b);
            b += 1;
        }
        t[v] = spread_columns(keep9);
        v += 1;
    }
    t
};

/// The permutations (row `r` to box `p[r]`, as a 9-bit matrix, bit `3·r + box`) that a 9-bit
/// matrix contains: how many, and the first two.
#[derive(Clone, Copy)]
struct Perms {
    count: u8,
    first: u16,
    second: u16,
}

const fn perms_of(s: usize) -> Perms {
    const P: [[u8; 3]; 6] = crate::transform::PERMS3;
    let mut out = Perms {
        count: 0,
        first: 0,
        second: 0,
    };
    let mut p = 0;
    while p < 6 {
        let m = (1 << P[p][0]) | (1 << (3 + P[p][1])) | (1 << (6 + P[p][2]));
        if s & m == m {
            if out.count == 0 {
                out.first = m as u16;
            } else if out.count == 1 {
                out.second = m as u16;
            }
            out.count += 1;
        }
        p += 1;
    }
    out
}

/// [`Perms`] of every 9-bit matrix.
static PERMS: [Perms; 512] = {
    let mut t = [Perms {
        count: 0,
        first: 0,
        second: 0,
    }; 512];
    let mut s = 0;
    while s < 512 {
        t[s] = perms_of(s);
        s += 1;
    }
    t
};

/// [`Perms::count`] alone, as bytes: the branch point reads the stacks' 27 counts a call here
/// (the bands' come with [`ROW_INFO`]), and reading them out of the six-byte [`Perms`] cost 1 %
/// more instructions on forum_hardest_sample.
static PERM_COUNT: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut s = 0;
    while s < 512 {
        t[s] = PERMS[s].count;
        s += 1;
    }
    t
};

/// Per band `b` and 9-bit mini-row matrix `s` (bit `3·row + box`), what the branch point needs
/// of a digit's band word (**row-info table**): the mini-rows alone in their row, at bits `9·b..`
/// as [`alone_minirows`] packs them, and the matrix's configuration count ([`PERM_COUNT`]) in
/// byte `4 + b`. A digit's three entries OR together into its packed forced mini-rows (low
/// half) and its three band counts (bytes 4..7), one look-up a word in place of the shifts and
/// masks of [`alone_minirows`] and a separate count look-up.
static ROW_INFO: [[u64; 512]; 3] = {
    let mut t = [[0u64; 512]; 3];
    let mut s = 0;
    while s < 512 {
        let alone = alone_minirows(s as u32) as u64;
        let count = PERMS[s].count as u64;
        let mut b = 0;
        while b < 3 {
            t[b][s] = alone << (9 * b) | count << (32 + 8 * b);
            b += 1;
        }
        s += 1;
    }
    t
};

/// The cells of the mini-rows in a 9-bit mini-row matrix `s` (bit `3·row + box`).
const fn matrix_cells(s: usize) -> u32 {
    let mut cells = 0;
    let mut m = 0;
    while m < 9 {
        if s & (1 << m) != 0 {
            cells |= minirow_cells(m);
        }
        m += 1;
    }
    cells
}

/// The mini-row matrix (bit `3·row + box`) of a band word, computed afresh. The search reads
/// the matrices [`State::update`] stores (`State::mr`); this is their check (a debug assertion
/// at every branch point) and the tests' definition.
#[inline(always)]
fn minirows(w: u32) -> usize {
    MR[minirow_hash(w)] as usize
}

/// The plain mini-row matrix (bit `3·row + box`) of a word, under its [`minirow_hash`].
static MR: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut s = 0;
    while s < 512 {
        t[minirow_hash(matrix_cells(s))] = s as u16;
        s += 1;
    }
    t
};

/// Per band `b`, a 9-bit column fold with bit `c` moved to bit `3·c + b`: OR-ing a digit's three
/// entries gives its columns transposed (bit `3·column + band`).
static SPREAD3: [[u32; 512]; 3] = {
    let mut t = [[0u32; 512]; 3];
    let mut v = 0;
    while v < 512 {
        let mut c = 0;
        while c < 9 {
            let mut b = 0;
            while b < 3 {
                t[b][v] |= ((v as u32 >> c) & 1) << (3 * c + b);
                b += 1;
            }
            c += 1;
        }
        v += 1;
    }
    t
};

/// For mini-row matrices packed three bands to a word (bit `9·band + 3·row + box`), the
/// mini-rows alone in their row: a set bit whose two neighbours in its group of three are clear.
#[inline(always)]
const fn alone_minirows(m: u32) -> u32 {
    const P0: u32 = 0o111_111_111;
    let (down1, down2, up1, up2) = (m >> 1, m >> 2, m << 1, m << 2);
    let others = ((down1 | down2) & P0) | ((down1 | up1) & P0 << 1) | ((up1 | up2) & P0 << 2);
    m & !others
}

/// For column folds packed three bands to a word (bit `9·band + column`), the same columns of
/// the other two bands: the 27 bits rotated by 9 and by 18.
#[inline(always)]
fn other_bands_cols(c: u32) -> u32 {
    let r9 = (c >> 9 | c << 18) & ALL;
    let r18 = (c >> 18 | c << 9) & ALL;
    r9 | r18
}

/// For mini-row `m` of a band (bit `3·row + box`): the cells of its row and box outside it.
const fn minirow_peers(m: usize) -> u32 {
    let (r, k) = (m / 3, m % 3);
    let row = 0x1ff << (9 * r);
    let bx = spread_columns(7 << (3 * k));
    (row | bx) & !minirow_cells(m)
}

/// The number of set bits of a 9-bit value.
static ROW_POP: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut v = 0;
    while v < 512 {
        t[v] = (v as u32).count_ones() as u8;
        v += 1;
    }
    t
};

/// For each cell of a band, the other cells of its row and box inside the band.
static BAND_PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut c = 0;
    while c < 27 {
        let (r, col) = (c / 9, c % 9);
        let mut m = 0u32;
        let mut o = 0;
        while o < 27 {
            let (ro, co) = (o / 9, o % 9);
            if o != c && (ro == r || co / 3 == col / 3) {
                m |= 1 << o;
            }
            o += 1;
        }
        t[c] = m;
        c += 1;
    }
    t
};

/// For a 3-bit mask of a band's rows, their cells.
const ROW_FILL: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut v = 0;
    while v < 8 {
        let mut r = 0;
        while r < 3 {
            if v >> r & 1 != 0 {
                t[v] |= 0x1ff << (9 * r);
            }
            r += 1;
        }
        v += 1;
    }
    t
};

/// The rows of a band word that hold a cell, as a 3-bit mask (an index of [`ROW_FILL`]).
#[inline(always)]
fn row_presence(w: u32) -> u32 {
    // 1 when a 9-bit value is not zero.
    let any9 = |x: u32| (x + 0x1ff) >> 9;
    any9(w & 0x1ff) | any9((w >> 9) & 0x1ff) << 1 | any9((w >> 18) & 0x1ff) << 2
}

/// For a 9-bit column-presence mask, how many of the band's boxes hold one of the columns
/// ([`BOX_CELLS`] counted: nine cells a box).
static BOX_COUNT: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut v = 0;
    while v < 512 {
        t[v] = (BOX_CELLS[v].count_ones() / 9) as u8;
        v += 1;
    }
    t
};

/// Calls the SSE2 version of a function where SSE2 is the build's baseline (all of x86-64),
/// else its portable twin; unit tests can make their thread run the portable twin on x86-64
/// too (`tests::PORTABLE`), which is how each pair is held equal.
macro_rules! simd_or_portable {
    ($sse2:ident, $portable:ident, $($arg:expr),+) => {{
        #[cfg(test)]
        if tests::PORTABLE.with(std::cell::Cell::get) {
            return $portable($($arg),+);
        }
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            $sse2($($arg),+)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            $portable($($arg),+)
        }
    }};
}

/// A grid's cells sorted by value into band words: index `3·value + band` (value 0 for blank
/// cells) holds the band's cells with that value.
#[inline(always)]
fn value_words(cells: &[u8; 81]) -> [u32; 32] {
    simd_or_portable!(value_words_sse2, value_words_portable, cells)
}

/// [`value_words`] one cell at a time (no branch on the cell's value either).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
fn value_words_portable(cells: &[u8; 81]) -> [u32; 32] {
    let mut words = [0u32; 32];
    for (b, band) in cells.chunks_exact(27).enumerate() {
        for (pos, &v) in band.iter().enumerate() {
            words[(3 * v as usize + b) % 30] |= 1 << pos;
        }
    }
    words
}

/// [`value_words`] with SSE2: each band's 27 bytes in two vectors, compared with each value
/// and read out with byte-sign masks.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn value_words_sse2(cells: &[u8; 81]) -> [u32; 32] {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };
    // Each band at a 32-byte stride; the 5 bytes after it hold a value no cell has.
    let mut padded = [0xffu8; 96];
    for (dst, band) in padded.chunks_exact_mut(32).zip(cells.chunks_exact(27)) {
        dst[..27].copy_from_slice(band);
    }
    let mut words = [0u32; 32];
    // SAFETY: SSE2 is enabled for the whole build (this function's `cfg`), so its intrinsics
    // may be called. The two loads read bytes 32·b .. 32·b + 32 of the 96-byte `padded`, inside
    // it; `_mm_loadu_si128` accepts any alignment.
    unsafe {
        for b in 0..3 {
            let at = padded.as_ptr().add(32 * b);
            let lo = _mm_loadu_si128(at.cast::<__m128i>());
            let hi = _mm_loadu_si128(at.add(16).cast::<__m128i>());
            for v in 0..10 {
                let k = _mm_set1_epi8(v as i8);
                let lo = _mm_movemask_epi8(_mm_cmpeq_epi8(lo, k)) as u32;
                let hi = _mm_movemask_epi8(_mm_cmpeq_epi8(hi, k)) as u32;
                words[3 * v + b] = lo | hi << 16;
            }
        }
    }
    words
}

/// The start words of a grid from its value words (index `3·value + band`, value 0 the
/// blanks): each digit's word holds its givens and the blanks outside their rows, boxes and
/// columns. `None` when two givens of a digit share a row, box or column.
#[inline(always)]
fn given_words(words: &[u32; 32]) -> Option<[u32; 27]> {
    simd_or_portable!(given_words_sse2, given_words_portable, words)
}

/// [`given_words`] one word at a time, with tables.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
fn given_words_portable(words: &[u32; 32]) -> Option<[u32; 27]> {
    let mut cells = [0u32; 27];
    let mut conflict = 0u32;
    for d in 0..9 {
        let given = [words[3 * d + 3], words[3 * d + 4], words[3 * d + 5]];
        let folds = given.map(columns);
        let cols = folds.map(spread_columns);
        for b in 0..3 {
            let (g, fold) = (given[b], folds[b] as usize);
            let (o1, o2) = other_bands(b);
            // The rows and boxes of this band that hold the digit, whole.
            let (r0, r1, r2) = (g & 0x1ff, (g >> 9) & 0x1ff, g >> 18);
            let rows = row_presence(g);
            let house = ROW_FILL[rows as usize] | BOX_CELLS[fold];
            // Two givens of the digit in one row or box: more givens than rows or boxes
            // holding them.
            let n = ROW_POP[r0 as usize] + ROW_POP[r1 as usize] + ROW_POP[r2 as usize & 0x1ff];
            conflict |= u32::from((n ^ ROW_POP[rows as usize]) | (n ^ BOX_COUNT[fold]));
            let other = cols[o1] | cols[o2];
            conflict |= g & other;
            cells[3 * d + b] = (ALL & !(!words[b] | house | other)) | g;
        }
    }
    (conflict == 0).then_some(cells)
}

/// [`given_words`] with SSE2 (**vector givens**): one vector per digit, its three band words
/// in lanes 0..3, so the column a digit holds in the other bands is two lane shuffles. Rows
/// and boxes are tested and filled with compares against zero instead of table look-ups, and
/// a row or box holding two givens is `x & (x - 1) != 0` on its cells.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn given_words_sse2(words: &[u32; 32]) -> Option<[u32; 27]> {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi32, _mm_loadu_si128,
        _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi32, _mm_set_epi32, _mm_setzero_si128,
        _mm_shuffle_epi32, _mm_slli_epi32, _mm_srli_epi32, _mm_storeu_si128, _mm_sub_epi32,
    };
    let mut out = [0u32; 28];
    // SAFETY: SSE2 is enabled for the whole build (this function's `cfg`), so its intrinsics
    // may be called. Loads read four `u32` at index 0, 3, .., 27 of the 32-word `words`, so at
    // most up to index 30; stores write four at index 0, 3, .., 24 of the 28-word `out`, so at
    // most up to index 27. `_mm_loadu_si128` and `_mm_storeu_si128` accept any alignment.
    let conflict = unsafe {
        let load = |i: usize| _mm_loadu_si128(words.as_ptr().add(i).cast::<__m128i>());
        // Lanes 0..3 are the bands; lane 3 (the next value's first word) is dropped.
        let lanes = _mm_set_epi32(0, ALL as i32, ALL as i32, ALL as i32);
        let blanks = _mm_and_si128(load(0), lanes);
        let zero = _mm_setzero_si128();
        let one = _mm_set1_epi32(1);
        let row = _mm_set1_epi32(0x1ff);
        let two_or_more = |x: __m128i| _mm_and_si128(x, _mm_sub_epi32(x, one));
        let mut conflict = zero;
        for d in 0..9 {
            let g = _mm_and_si128(load(3 * d + 3), lanes);
            let r0 = _mm_and_si128(g, row);
            let r1 = _mm_and_si128(_mm_srli_epi32::<9>(g), row);
            let r2 = _mm_srli_epi32::<18>(g);
            let fold = _mm_or_si128(_mm_or_si128(r0, r1), r2);
            // Two givens in a row, or in a box.
            let mut dup = _mm_or_si128(two_or_more(r0), two_or_more(r1));
            dup = _mm_or_si128(dup, two_or_more(r2));
            let mut house = zero;
            for k in 0..3 {
                // Box k, whole, where it holds a given; row k likewise.
                let box_cells = _mm_set1_epi32(0o007_007_007 << (3 * k));
                let in_box = _mm_and_si128(g, box_cells);
                dup = _mm_or_si128(dup, two_or_more(in_box));
                let empty_box = _mm_cmpeq_epi32(in_box, zero);
                house = _mm_or_si128(house, _mm_andnot_si128(empty_box, box_cells));
                let r = [r0, r1, r2][k];
                let empty_row = _mm_cmpeq_epi32(r, zero);
                let row_cells = _mm_set1_epi32(0x1ff << (9 * k));
                house = _mm_or_si128(house, _mm_andnot_si128(empty_row, row_cells));
            }
            // The digit's columns in the other two bands: lanes (1, 0, 0) and (2, 2, 1).
            let cols = _mm_or_si128(
                _mm_or_si128(fold, _mm_slli_epi32::<9>(fold)),
                _mm_slli_epi32::<18>(fold),
            );
            let other = _mm_or_si128(
                _mm_shuffle_epi32::<0b11_00_00_01>(cols),
                _mm_shuffle_epi32::<0b11_01_10_10>(cols),
            );
            let other = _mm_and_si128(other, lanes);
            conflict = _mm_or_si128(conflict, _mm_or_si128(dup, _mm_and_si128(g, other)));
            let cells = _mm_or_si128(_mm_andnot_si128(_mm_or_si128(house, other), blanks), g);
            _mm_storeu_si128(out.as_mut_ptr().add(3 * d).cast::<__m128i>(), cells);
        }
        _mm_movemask_epi8(_mm_cmpeq_epi32(conflict, zero)) != 0xffff
    };
    let mut cells = [0u32; 27];
    cells.copy_from_slice(&out[..27]);
    (!conflict).then_some(cells)
}

/// Bit-sliced candidate counts of each band's cells over the nine digits: cells with at
/// least one, two and three candidates (index: band).
#[inline(always)]
fn candidate_counts(cells: &[u32; 27]) -> [[u32; 3]; 3] {
    simd_or_portable!(candidate_counts_sse2, candidate_counts_portable, cells)
}

/// [`candidate_counts`] one band at a time.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
fn candidate_counts_portable(cells: &[u32; 27]) -> [[u32; 3]; 3] {
    let mut c = [[0u32; 3]; 3];
    for b in 0..3 {
        for d in 0..9 {
            let m = cells[3 * d + b];
            c[2][b] |= c[1][b] & m;
            c[1][b] |= c[0][b] & m;
            c[0][b] |= m;
        }
    }
    c
}

/// [`candidate_counts`] with SSE2 (**vector counts**): a digit's three band words are
/// adjacent, so one vector holds them (lanes 0..3 the bands) and the nine digits are added up
/// in all three bands at once.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn candidate_counts_sse2(cells: &[u32; 27]) -> [[u32; 3]; 3] {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_loadu_si128, _mm_or_si128, _mm_setzero_si128, _mm_srli_si128,
        _mm_storeu_si128,
    };
    let mut out = [[0u32; 4]; 3];
    // SAFETY: SSE2 is enabled for the whole build (this function's `cfg`). Each load reads four
    // `u32` at index 0, 3, .., 21 or 23 of the 27-word `cells`, so it stays inside it (the last
    // digit's words, 24..27, are loaded from 23 and shifted down a lane); each store writes one
    // whole `[u32; 4]`. Unaligned loads and stores accept any alignment.
    unsafe {
        let load = |i: usize| _mm_loadu_si128(cells.as_ptr().add(i).cast::<__m128i>());
        let (mut c1, mut c2, mut c3) = (
            _mm_setzero_si128(),
            _mm_setzero_si128(),
            _mm_setzero_si128(),
        );
        for d in 0..9 {
            // Lane 3 (the next digit's first word) is counted too, and never read.
            let m = if d < 8 {
                load(3 * d)
            } else {
                _mm_srli_si128::<4>(load(23))
            };
            c3 = _mm_or_si128(c3, _mm_and_si128(c2, m));
            c2 = _mm_or_si128(c2, _mm_and_si128(c1, m));
            c1 = _mm_or_si128(c1, m);
        }
        for (o, c) in out.iter_mut().zip([c1, c2, c3]) {
            _mm_storeu_si128(o.as_mut_ptr().cast::<__m128i>(), c);
        }
    }
    out.map(|c| [c[0], c[1], c[2]])
}

/// The digits of a solved state's words (index `3·digit + band`, one cell in each row of each
/// word), row-major: the SSE2 read-out where there is SSE2, else [`solved_digits_portable`].
#[inline(always)]
fn solved_digits(cells: &[u32; 27]) -> [u8; 81] {
    simd_or_portable!(solved_digits_sse2, solved_digits_portable, cells)
}

/// [`solved_digits`] with three bit scans a word, and no loop that runs for as many bits as
/// there are (which cost about 970 instructions on a Kaggle puzzle). Digit-major loops give
/// every store a constant offset: a loop over the word index divided it by three each time,
/// and cost about 840 instructions against about 480.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
fn solved_digits_portable(cells: &[u32; 27]) -> [u8; 81] {
    // One spare byte: a row with no cell (never, in a solved state) writes there.
    let mut out = [0u8; 82];
    for d in 0..9 {
        for b in 0..3 {
            let w = cells[3 * d + b];
            // A row's cell is the lowest bit from the row up: the rows above it only add
            // higher bits. The stop bits past the band (27, 18 and 9 after the shift) stand in
            // for an empty row and land on index 81 at most, the spare byte.
            let at = 27 * b;
            out[at + (w | 1 << 27).trailing_zeros() as usize] = d as u8 + 1;
            out[at + 9 + ((w >> 9) | 1 << 18).trailing_zeros() as usize] = d as u8 + 1;
            out[at + 18 + ((w >> 18) | 1 << 9).trailing_zeros() as usize] = d as u8 + 1;
        }
    }
    let mut grid = [0u8; 81];
    grid.copy_from_slice(&out[..81]);
    grid
}

/// [`solved_digits`] with SSE2 (**vector read-out**): the words are ORed into four bit planes of
/// the digits' values (all three bands in one vector), and each band's plane is spread to one
/// byte a cell by compares, with no scan and no store per cell.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn solved_digits_sse2(cells: &[u32; 27]) -> [u8; 81] {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_or_si128, _mm_set1_epi64x,
        _mm_set1_epi8, _mm_setzero_si128, _mm_shuffle_epi32, _mm_srli_si128, _mm_storeu_si128,
        _mm_unpackhi_epi32, _mm_unpacklo_epi16, _mm_unpacklo_epi32, _mm_unpacklo_epi8,
    };
    // Band `b`'s cells at 27·b; its second vector writes five bytes past the band, which the
    // next band's first vector overwrites (the last band's land in the spare bytes).
    let mut out = [0u8; 96];
    // SAFETY: SSE2 is enabled for the whole build (this function's `cfg`). Loads read four `u32`
    // at index 0, 3, .., 21 or 23 of the 27-word `cells`, so they stay inside it (the last
    // digit's words are loaded from 23 and shifted down a lane). Stores write 16 bytes at
    // 27·b and 27·b + 16 of the 96-byte `out`, so they end at byte 86 at most. Unaligned loads
    // and stores accept any alignment.
    unsafe {
        let load = |i: usize| _mm_loadu_si128(cells.as_ptr().add(i).cast::<__m128i>());
        // Plane k: the cells whose digit has bit k set in its value (1..=9).
        let mut planes = [_mm_setzero_si128(); 4];
        for d in 0..9 {
            let w = if d < 8 {
                load(3 * d)
            } else {
                _mm_srli_si128::<4>(load(23))
            };
            for (k, plane) in planes.iter_mut().enumerate() {
                if (d + 1) >> k & 1 != 0 {
                    *plane = _mm_or_si128(*plane, w);
                }
            }
        }
        // Byte i of each half: bit i mod 8.
        let bit = _mm_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
        let spread = |x: __m128i| _mm_cmpeq_epi8(_mm_and_si128(x, bit), bit);
        let at = out.as_mut_ptr();
        for b in 0..3 {
            let (mut lo, mut hi) = (_mm_setzero_si128(), _mm_setzero_si128());
            for (k, &plane) in planes.iter().enumerate() {
                // The band's word in lane 0, then each of its bytes eight times over: bytes 0
                // and 1 in the low half, bytes 2 and 3 in the high half.
                let w = match b {
                    0 => plane,
                    1 => _mm_shuffle_epi32::<0b01>(plane),
                    _ => _mm_shuffle_epi32::<0b10>(plane),
                };
                let x = _mm_unpacklo_epi8(w, w);
                let x = _mm_unpacklo_epi16(x, x);
                let value = _mm_set1_epi8(1 << k);
                lo = _mm_or_si128(lo, _mm_and_si128(spread(_mm_unpacklo_epi32(x, x)), value));
                hi = _mm_or_si128(hi, _mm_and_si128(spread(_mm_unpackhi_epi32(x, x)), value));
            }
            _mm_storeu_si128(at.add(27 * b).cast::<__m128i>(), lo);
            _mm_storeu_si128(at.add(27 * b + 16).cast::<__m128i>(), hi);
        }
    }
    let mut grid = [0u8; 81];
    grid.copy_from_slice(&out[..81]);
    grid
}

/// Folds a band word to its 9-bit column presence.
#[inline(always)]
fn columns(x: u32) -> u32 {
    (x | (x >> 9) | (x >> 18)) & 0x1ff
}

/// Repeats a 9-bit column mask on the three rows of a band word.
#[inline(always)]
const fn spread_columns(c: u32) -> u32 {
    c | (c << 9) | (c << 18)
}

/// The other two bands, in order.
#[inline(always)]
fn other_bands(b: usize) -> (usize, usize) {
    match b {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    }
}

/// [`State::stale`] without SIMD: one comparison per word.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
fn stale_portable(cells: &[u32; 27], prev: &[u32; 27]) -> u32 {
    let mut mask = 0u32;
    for i in 0..27 {
        mask |= ((cells[i] != prev[i]) as u32) << i;
    }
    mask
}

/// [`State::stale`] with SSE2 (**vector stale mask**): seven four-word compares, narrowed by
/// two rounds of saturating packs to one byte per word and read out with two byte-sign masks.
/// SSE2 is part of the x86-64 baseline, so there is nothing to detect at run time; other
/// targets use [`stale_portable`].
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn stale_sse2(cells: &[u32; 27], prev: &[u32; 27]) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_movemask_epi8, _mm_packs_epi16,
        _mm_packs_epi32, _mm_set1_epi32, _mm_srli_si128,
    };
    // SAFETY: SSE2 is enabled for the whole build (this function's `cfg`). Every load reads
    // four `u32` starting at index 0, 4, .., 20 or 23 of a 27-word array, so it stays inside
    // it; `_mm_loadu_si128` accepts any alignment.
    unsafe {
        let load = |w: &[u32; 27], i: usize| _mm_loadu_si128(w.as_ptr().add(i).cast::<__m128i>());
        let eq = |k: usize| _mm_cmpeq_epi32(load(cells, 4 * k), load(prev, 4 * k));
        // Words 23..27 loaded, then shifted down one lane: words 24, 25, 26 and a zero in both.
        let last = _mm_cmpeq_epi32(
            _mm_srli_si128::<4>(load(cells, 23)),
            _mm_srli_si128::<4>(load(prev, 23)),
        );
        let lo = _mm_packs_epi16(_mm_packs_epi32(eq(0), eq(1)), _mm_packs_epi32(eq(2), eq(3)));
        let hi = _mm_packs_epi16(
            _mm_packs_epi32(eq(4), eq(5)),
            _mm_packs_epi32(last, _mm_set1_epi32(-1)),
        );
        let same = (_mm_movemask_epi8(lo) as u32) | (_mm_movemask_epi8(hi) as u32) << 16;
        !same
    }
}

/// [`State::first_sweep`] without SIMD: no pass, the first sweep examines every word.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
fn first_sweep_portable(_: &mut State) -> Option<u32> {
    Some(ALL_WORDS)
}

/// [`State::first_sweep`] with SSE2 (**vector first sweep**): a digit's three band words in
/// one vector (lanes = bands, as in [`candidate_counts_sse2`]), the digits in turn, and
/// [`State::update`]'s rules computed for a digit's three words at once, with shifts and masks
/// in place of the `LC` and `COL_SINGLE` look-ups (a vector has no gather):
/// - the mini-row matrix stays where the word has it, one bit per mini-row at bit
///   `9·row + 3·box`; a mini-row lies on a row→box permutation when the other two rows can
///   take the other two boxes one way or the other, which is two products of row and box
///   rotations of the matrix;
/// - a box whose candidates lie in one column points that column out of the digit's other
///   bands (two lane rotations), and its cell is solved when the box also has one row left;
/// - solved cells leave the other digits' words (an OR over the nine vectors). A digit's
///   words lose the cells the digits before it solved before its rules run, as in the scalar
///   sweep, which goes digit by digit: without that, the sweeps after the pass had 4 % more
///   to do on kaggle_sample (docs/engine.md).
///
/// Every word gets what its update would have given it (`prev`, `cols`, `mr`, `unsolved`);
/// the rest of the news (pointing between a digit's bands, cells solved by later digits) is
/// applied after, and the words it changed are returned as the next sweep's. Every rule is a
/// deletion that holds in any state, so the sweeps go on to the same fixpoint as from a
/// scalar first sweep, and the search is the same. `None` when a word has no permutation left
/// (contradiction).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn first_sweep_sse2(s: &mut State) -> Option<u32> {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_castsi128_ps, _mm_cmpeq_epi32,
        _mm_cvtsi128_si32, _mm_cvtsi32_si128, _mm_loadu_si128, _mm_movemask_ps, _mm_or_si128,
        _mm_packs_epi32, _mm_set1_epi32, _mm_setr_epi32, _mm_setzero_si128, _mm_shuffle_epi32,
        _mm_sll_epi32, _mm_srl_epi32, _mm_srli_si128, _mm_storel_epi64, _mm_storeu_si128,
    };
    /// One bit per mini-row: bit `9·row + 3·box`.
    const MINIROWS: i32 = 0o111_111_111;
    debug_assert_eq!(s.claim_due, 0x1ff, "the first sweep runs on a start state");
    // SAFETY: SSE2 is enabled for the whole build (this function's `cfg`). Loads read four
    // `u32` at index 0, 3, .., 21 or 23 of the 27-word `cells` (the last digit's words from 23,
    // shifted down a lane), so they stay inside it. Stores: digits 0..8 write four `u32` (or four
    // `u16`) at index 3·digit, in ascending order, so each lane 3 lands on the next digit's first
    // word and is overwritten by that digit's store; the last digit writes its three words with
    // an 8-byte and a 4-byte store (two `u16` and one `u16`) ending at index 27. The solved
    // cells go to a whole local `[u32; 4]`. Unaligned loads and stores accept any alignment.
    unsafe {
        let k = |x: i32| _mm_set1_epi32(x);
        let shl = |x: __m128i, n: i32| _mm_sll_epi32(x, _mm_cvtsi32_si128(n));
        let shr = |x: __m128i, n: i32| _mm_srl_epi32(x, _mm_cvtsi32_si128(n));
        let or = |a, b| _mm_or_si128(a, b);
        let and = |a, b| _mm_and_si128(a, b);
        // Rows turned up by one and by two: at row r, the matrix's row r + 1 (r + 2).
        let rot_rows = |x| or(shr(x, 9), shl(x, 18));
        let rot_rows2 = |x| or(shr(x, 18), shl(x, 9));
        let cells3 = |m| or(m, or(shl(m, 1), shl(m, 2)));
        let load = |i: usize| _mm_loadu_si128(s.cells.as_ptr().add(i).cast::<__m128i>());
        let three = _mm_setr_epi32(-1, -1, -1, 0);
        let zero = _mm_setzero_si128();
        let mut x = [zero; 9];
        let mut solved = [zero; 9];
        let mut point = [zero; 9];
        let mut cols = [zero; 9];
        let mut kept = [zero; 9];
        let mut empty = zero;
        let mut all_solved = zero;
        for d in 0..9 {
            let w = and(
                if d < 8 {
                    load(3 * d)
                } else {
                    _mm_srli_si128::<4>(load(23))
                },
                three,
            );
            // The cells the digits before it solved are gone already, as in the scalar sweep.
            let w = _mm_andnot_si128(all_solved, w);
            let m = and(or(w, or(shr(w, 1), shr(w, 2))), k(MINIROWS));
            // At (row, box): the matrix at (row, box + 1), and at (row, box + 2).
            let b1 = or(
                and(shr(m, 3), k(0o011_011_011)),
                and(shl(m, 6), k(0o100_100_100)),
            );
            let b2 = or(
                and(shr(m, 6), k(0o001_001_001)),
                and(shl(m, 3), k(0o110_110_110)),
            );
            let on_perm = or(
                and(rot_rows(b1), rot_rows2(b2)),
                and(rot_rows(b2), rot_rows2(b1)),
            );
            let kr = and(m, on_perm);
            // Kept mini-rows with no other kept mini-row in their box.
            let alone = _mm_andnot_si128(or(rot_rows(kr), rot_rows2(kr)), kr);
            let xd = and(w, cells3(kr));
            empty = or(empty, _mm_cmpeq_epi32(xd, zero));
            let c = and(or(xd, or(shr(xd, 9), shr(xd, 18))), k(0o777));
            // The columns alone in their box: neither other column of the box is held.
            let c1 = or(and(shr(c, 1), k(0o333)), and(shl(c, 2), k(0o444)));
            let c2 = or(and(shr(c, 2), k(0o111)), and(shl(c, 1), k(0o666)));
            let single = _mm_andnot_si128(or(c1, c2), c);
            let p = or(single, or(shl(single, 9), shl(single, 18)));
            let sv = and(and(xd, cells3(alone)), p);
            all_solved = or(all_solved, sv);
            x[d] = xd;
            solved[d] = sv;
            point[d] = p;
            cols[d] = c;
            // Packed to bit `3·row + box`, as `Lc::kept`.
            let q = or(kr, or(shr(kr, 2), shr(kr, 4)));
            kept[d] = or(
                and(q, k(0o7)),
                or(and(shr(q, 6), k(0o70)), and(shr(q, 12), k(0o700))),
            );
        }
        if _mm_movemask_ps(_mm_castsi128_ps(empty)) & 7 != 0 {
            return None;
        }
        let mut dirty = 0u32;
        let cells = s.cells.as_mut_ptr();
        let prev = s.prev.as_mut_ptr();
        let fold = s.cols.as_mut_ptr();
        let mr = s.mr.as_mut_ptr();
        for d in 0..9 {
            // Pointing from the digit's other two bands, solved cells of the other digits.
            let news = or(
                or(
                    _mm_shuffle_epi32::<0b11_00_10_01>(point[d]),
                    _mm_shuffle_epi32::<0b11_01_00_10>(point[d]),
                ),
                _mm_andnot_si128(solved[d], all_solved),
            );
            let w = _mm_andnot_si128(news, x[d]);
            let same = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(w, x[d]))) as u32;
            dirty |= (!same & 7) << (3 * d);
            let halves = _mm_packs_epi32(cols[d], kept[d]);
            let i = 3 * d;
            if d < 8 {
                _mm_storeu_si128(cells.add(i).cast::<__m128i>(), w);
                _mm_storeu_si128(prev.add(i).cast::<__m128i>(), x[d]);
                _mm_storel_epi64(fold.add(i).cast::<__m128i>(), halves);
                _mm_storel_epi64(mr.add(i).cast::<__m128i>(), _mm_srli_si128::<8>(halves));
            } else {
                _mm_storel_epi64(cells.add(i).cast::<__m128i>(), w);
                *cells.add(i + 2) = _mm_cvtsi128_si32(_mm_srli_si128::<8>(w)) as u32;
                _mm_storel_epi64(prev.add(i).cast::<__m128i>(), x[d]);
                *prev.add(i + 2) = _mm_cvtsi128_si32(_mm_srli_si128::<8>(x[d])) as u32;
                let lo = _mm_cvtsi128_si32(halves) as u32;
                let hi = _mm_cvtsi128_si32(_mm_srli_si128::<8>(halves)) as u32;
                *fold.add(i).cast::<[u16; 2]>() = [lo as u16, (lo >> 16) as u16];
                *fold.add(i + 2) = _mm_cvtsi128_si32(_mm_srli_si128::<4>(halves)) as u16;
                *mr.add(i).cast::<[u16; 2]>() = [hi as u16, (hi >> 16) as u16];
                *mr.add(i + 2) = _mm_cvtsi128_si32(_mm_srli_si128::<12>(halves)) as u16;
            }
        }
        let mut done = [0u32; 4];
        _mm_storeu_si128(done.as_mut_ptr().cast::<__m128i>(), all_solved);
        for (u, d) in s.unsolved.iter_mut().zip(done) {
            *u &= !d;
        }
        Some(dirty)
    }
}

/// For each word: the words of the same digit in the other two bands, its band and its digit.
static PEER_WORDS: [[u8; 4]; 27] = {
    let mut t = [[0u8; 4]; 27];
    let mut sb = 0;
    while sb < 27 {
        let (d, b) = (sb / 3, sb % 3);
        t[sb] = [
            (3 * d + (b + 1) % 3) as u8,
            (3 * d + (b + 2) % 3) as u8,
            b as u8,
            d as u8,
        ];
        sb += 1;
    }
    t
};

#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct State {
    /// Candidate cells per digit and band, index `3·digit + band`.
    cells: [u32; 27],
    /// Each word as last examined by [`State::update`]; a word differing from it is stale.
    prev: [u32; 27],
    /// Cells not yet placed, per band.
    unsolved: [u32; 3],
    /// Bivalue cells per band, as of the last naked-singles pass.
    pairs: [u32; 3],
    /// Column presence of each word as last examined by [`State::update`].
    cols: [u16; 27],
    /// Mini-row matrix (bit `3·row + box`) of each word as last examined by [`State::update`].
    mr: [u16; 27],
    /// Digits with a column presence changed since their last claiming pass.
    claim_due: u32,
}

impl State {
    /// The state with all givens placed (batch givens), or `None` when two givens conflict.
    ///
    /// **Branch-free setup.** No step depends on whether a cell is blank: the givens are
    /// sorted into words by value with compares ([`value_words`]), and each word's row and box
    /// peers are filled in from its rows and boxes that hold a given. A branch per cell on a
    /// puzzle's random pattern of givens mispredicted about 38 times a puzzle (cachegrind's
    /// branch simulation), a fifth of an easy puzzle's whole solve.
    fn from_grid(grid: &Grid) -> Option<State> {
        let words = value_words(grid.cells());
        Some(State {
            cells: given_words(&words)?,
            prev: [0; 27],
            unsolved: [words[0], words[1], words[2]],
            pairs: [0; 3],
            cols: [0; 27],
            mr: [0; 27],
            claim_due: 0x1ff,
        })
    }

    /// The state of the puzzle with givens `givens` (bit `i` = cell `i`) of the complete grid
    /// `sol` (**subset start**): exactly [`State::from_grid`]'s for that puzzle, computed from
    /// the solution's words — no per-cell pass, and no conflict to look for.
    #[inline(always)]
    fn from_subset(sol: &Solution, givens: u128) -> State {
        let m = [
            givens as u32 & ALL,
            (givens >> 27) as u32 & ALL,
            (givens >> 54) as u32 & ALL,
        ];
        let mut s = State {
            cells: [0; 27],
            prev: [0; 27],
            unsolved: [ALL & !m[0], ALL & !m[1], ALL & !m[2]],
            pairs: [0; 3],
            cols: [0; 27],
            mr: [0; 27],
            claim_due: 0x1ff,
        };
        for d in 0..9 {
            let i = 3 * d;
            let g = [
                sol.words[i] & m[0],
                sol.words[i + 1] & m[1],
                sol.words[i + 2] & m[2],
            ];
            let cols = g.map(|w| spread_columns(columns(w)));
            for b in 0..3 {
                let (o1, o2) = other_bands(b);
                // A digit's givens in a band: at most one per row and per box; their rows and
                // boxes are blocked (the givens themselves come back below).
                let w = g[b];
                let rows = ROW_FILL[row_presence(w) as usize];
                let blocked = rows | BOX_CELLS[columns(w) as usize] | cols[o1] | cols[o2];
                s.cells[i + b] = (ALL & !(m[b] | blocked)) | w;
            }
        }
        s
    }

    /// The state for candidate sets (**pencilmark start**): the single-candidate cells are
    /// placed as givens by [`State::from_grid`] (so two of them with one digit in a house are a
    /// conflict), then every word keeps only the cells whose set allows its digit. `None` when
    /// a cell has no candidate or two singles conflict. For the sets of a grid every word is
    /// kept whole, so the state, and the search, are exactly [`State::from_grid`]'s.
    fn from_candidates(c: &Candidates) -> Option<State> {
        let mut givens = [0u8; 81];
        let mut allowed = [0u32; 27];
        for (cell, &m) in c.masks().iter().enumerate() {
            if m == 0 {
                return None;
            }
            if m & (m - 1) == 0 {
                givens[cell] = m.trailing_zeros() as u8 + 1;
            }
            let (b, bit) = (cell / 27, 1u32 << (cell % 27));
            let mut m = m as u32;
            while m != 0 {
                allowed[3 * m.trailing_zeros() as usize + b] |= bit;
                m &= m - 1;
            }
        }
        let mut s = State::from_grid(&Grid::from_cells(givens)?)?;
        for (w, a) in s.cells.iter_mut().zip(allowed) {
            *w &= a;
        }
        Some(s)
    }

    /// Places digit `d` at the single cell `bit` of band `b` by clearing its band peers; the
    /// rest (column, other digits of the cell) follows in [`State::update`].
    #[inline(always)]
    fn assign(&mut self, d: usize, b: usize, bit: u32) {
        self.cells[3 * d + b] &= !BAND_PEERS[bit.trailing_zeros() as usize];
    }

    /// Re-examines word `sb`: permutation table, column pointing, solved cells.
    /// `false` on contradiction.
    #[inline(always)]
    fn update(&mut self, sb: usize) -> bool {
        let [o1, o2, b, d] = PEER_WORDS[sb];
        let b = b as usize;
        let lc = LC[minirow_hash(self.cells[sb])];
        let x = self.cells[sb] & lc.keep;
        if x == 0 {
            return false;
        }
        let cols = columns(x);
        let old = self.cols[sb] as u32;
        self.cols[sb] = cols as u16;
        self.claim_due |= ((old != cols) as u32) << d;
        let point = COL_SINGLE[cols as usize];
        self.cells[o1 as usize] &= !point;
        self.cells[o2 as usize] &= !point;
        // Solved cells leave the other digits' words; unconditionally, since a branch on
        // "anything newly solved" is unpredictable and measured no faster.
        let solved = x & lc.single_row & point;
        self.unsolved[b] &= !solved;
        for k in 0..9 {
            self.cells[3 * k + b] &= !solved;
        }
        // The table is idempotent, so `x` needs no second look until something else changes it.
        self.cells[sb] = x;
        self.prev[sb] = x;
        self.mr[sb] = lc.kept;
        true
    }

    /// The first sweep of a start state, where every word is examined: the vector pass
    /// [`first_sweep_sse2`] where there is SSE2, else nothing (the sweep does it). The words
    /// the next sweep must examine, or `None` on contradiction.
    #[inline(always)]
    fn first_sweep(&mut self) -> Option<u32> {
        simd_or_portable!(first_sweep_sse2, first_sweep_portable, self)
    }

    /// The stale words as a 27-bit mask (bit `sb` set when word `sb` changed since examined).
    #[inline(always)]
    fn stale(&self) -> u32 {
        simd_or_portable!(stale_sse2, stale_portable, &self.cells, &self.prev)
    }

    /// Sweeps [`State::update`] over stale words until none is left. `false` on
    /// contradiction.
    #[inline(always)]
    fn update_all(&mut self, dirty: u32) -> bool {
        // The first sweep takes the words the caller changed (**known first sweep**); only the
        // later ones compare every word.
        debug_assert_eq!(self.stale() & !dirty, 0, "a changed word was not reported");
        let mut mask = dirty;
        loop {
            while mask != 0 {
                let sb = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                if !self.update(sb) {
                    return false;
                }
            }
            mask = self.stale();
            if mask == 0 {
                return true;
            }
        }
    }

    /// Column claiming, once per propagation round rather than in every update (same
    /// inferences, fewer instructions). `None` on contradiction, else whether anything changed.
    #[inline(always)]
    fn claim_columns(&mut self) -> Option<u32> {
        let mut changed = 0u32;
        let mut due = self.claim_due;
        self.claim_due = 0;
        while due != 0 {
            let d = due.trailing_zeros() as usize;
            due &= due - 1;
            let i = 3 * d;
            let (x, y, z) = (self.cells[i], self.cells[i + 1], self.cells[i + 2]);
            // Column folds as of each word's last update: at this fixpoint, the words as they are.
            let (cx, cy, cz) = (
                self.cols[i] as u32,
                self.cols[i + 1] as u32,
                self.cols[i + 2] as u32,
            );
            debug_assert_eq!((cx, cy, cz), (columns(x), columns(y), columns(z)));
            if cx | cy | cz != 0x1ff {
                return None;
            }
            // The columns only this band holds: with all nine held, the ones the other two
            // bands miss (written so the index is visibly below 512: no bounds check).
            debug_assert_eq!(!(cy | cz) & 0x1ff, cx & !(cy | cz));
            let x2 = x & CLAIM[(!(cy | cz) & 0x1ff) as usize];
            let y2 = y & CLAIM[(!(cx | cz) & 0x1ff) as usize];
            let z2 = z & CLAIM[(!(cx | cy) & 0x1ff) as usize];
            changed |= ((x != x2) as u32) << i
                | ((y != y2) as u32) << (i + 1)
                | ((z != z2) as u32) << (i + 2);
            self.cells[i] = x2;
            self.cells[i + 1] = y2;
            self.cells[i + 2] = z2;
        }
        Some(changed)
    }

    /// Bit-sliced counts per band: empty cells (contradiction), naked singles (placed),
    /// bivalue cells (kept for guessing). `None` on contradiction, else whether any single was
    /// placed.
    #[inline(always)]
    fn naked_singles(&mut self) -> Option<u32> {
        let mut found = 0;
        let [c1, c2, c3] = candidate_counts(&self.cells);
        if (c1[0] & c1[1] & c1[2]) != ALL {
            return None;
        }
        for b in 0..3 {
            self.pairs[b] = c2[b] & !c3[b];
            let mut singles = !c2[b] & self.unsolved[b];
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles &= singles - 1;
                let mut d = 0;
                while self.cells[3 * d + b] & bit == 0 {
                    d += 1;
                    if d == 9 {
                        // An earlier single of this pass took the cell's last candidate.
                        return None;
                    }
                }
                self.assign(d, b, bit);
                found |= 1 << (3 * d + b);
            }
        }
        Some(found)
    }

    /// Propagation to a fixpoint: updates, then claiming, then naked singles, until a round
    /// changes nothing. `false` on contradiction.
    #[inline(always)]
    fn propagate(&mut self, mut dirty: u32) -> bool {
        loop {
            if !self.update_all(dirty) {
                return false;
            }
            if self.is_solved() {
                return true;
            }
            let Some(claimed) = self.claim_columns() else {
                return false;
            };
            let Some(placed) = self.naked_singles() else {
                return false;
            };
            dirty = claimed | placed;
            if dirty == 0 {
                return true;
            }
        }
    }

    #[inline(always)]
    fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The grid of a solved state ([`solved_digits`]).
    fn solution_grid(&self) -> Grid {
        debug_assert!(self
            .cells
            .iter()
            .all(|&w| { [0, 1, 2].map(|r| (w >> (9 * r) & 0x1ff).count_ones()) == [1; 3] }));
        Grid::from_cells(solved_digits(&self.cells)).expect("digits are 1..=9")
    }

    /// What to do at a fixpoint of [`State::propagate`] (**triads at the branch point**, then
    /// **configuration branching**). First the triad rules, which propagation does not run:
    /// each mini-row (three cells of a row inside a box) and each mini-column holds exactly
    /// three digits, so fewer than three candidates there, or more than three digits forced
    /// into it, is a contradiction; exactly three candidates are all forced into it (they
    /// leave the rest of its row or column and box); exactly three digits forced into it
    /// leave no room for the others. Then, as tdoku does, the band or stack with the fewest
    /// configurations (a digit's ways to take one mini-row per row, or mini-column per column)
    /// and in it a digit with exactly two: the two configurations are the branch.
    #[inline(always)]
    fn branch_point(&mut self) -> Branch {
        // Near the leaves (**open-cell floor**) a cell guess or two finishes the puzzle and
        // the rules below cost more than they save.
        if band_count(self.unsolved) < OPEN_FLOOR {
            return Branch::Cell;
        }
        // Per digit, over all three bands at once (**packed tallies**: band `b` at bits
        // `9·b..`): its mini-row matrices (bit `3·row + box`) and its column folds. Rows sit
        // in the low half of the tally, columns in the high half, so one bit-sliced pass of
        // nine digits checks all 54 mini-rows and mini-columns.
        // Per digit, its configuration counts, a byte per unit: bands 0..3 (from
        // [`ROW_INFO`]), then stacks 3..6 (below, once the rules have changed nothing).
        let mut counts = [0u64; 9];
        let mut t = Tally::default();
        for (d, count) in counts.iter_mut().enumerate() {
            let i = 3 * d;
            // At a fixpoint every word is as its last update left it, and so is its matrix.
            debug_assert_eq!(
                [0, 1, 2].map(|k| self.mr[i + k] as usize),
                [0, 1, 2].map(|k| minirows(self.cells[i + k]))
            );
            let (m0, m1, m2) = (
                self.mr[i] as usize,
                self.mr[i + 1] as usize,
                self.mr[i + 2] as usize,
            );
            let info = ROW_INFO[0][m0 & 0x1ff] | ROW_INFO[1][m1 & 0x1ff] | ROW_INFO[2][m2 & 0x1ff];
            let m = self.packed_minirows(d);
            let c = self.packed_cols(d);
            *count = info >> 32;
            // Forced: the only mini-row of its row (`ROW_INFO`'s low half, `alone_minirows`);
            // the only band holding the column.
            let forced = info & ALL as u64 | ((c & !other_bands_cols(c)) as u64) << 32;
            t.add(m as u64 | (c as u64) << 32, forced);
        }
        let Some((naked, hidden)) = t.rules() else {
            return Branch::Dead;
        };
        let (rows_naked, rows_hidden) = (naked as u32, hidden as u32);
        if rows_naked | rows_hidden != 0 {
            for d in 0..9 {
                // Packed again: the rules fire at about one branch point in ten, and the
                // state's matrices are as the tally read them (only words changed since).
                let all = self.packed_minirows(d);
                let m = all & !alone_minirows(all);
                let mut n = m & rows_naked;
                while n != 0 {
                    let k = n.trailing_zeros() as usize;
                    n &= n - 1;
                    self.cells[3 * d + k / 9] &= !minirow_peers(k % 9);
                }
                let mut h = m & rows_hidden;
                while h != 0 {
                    let k = h.trailing_zeros() as usize;
                    h &= h - 1;
                    self.cells[3 * d + k / 9] &= !minirow_cells(k % 9);
                }
            }
            let dirty = self.stale();
            if dirty != 0 {
                return Branch::Again(dirty);
            }
        }
        let (cols_naked, cols_hidden) = ((naked >> 32) as u32, (hidden >> 32) as u32);
        if cols_naked | cols_hidden != 0 {
            for d in 0..9 {
                let all = self.packed_cols(d);
                let m = all & other_bands_cols(all);
                let mut n = m & cols_naked;
                while n != 0 {
                    let k = n.trailing_zeros() as usize;
                    n &= n - 1;
                    // Forced into column c of band b: the column leaves the other bands,
                    // the box's other columns leave this band.
                    let (b, c) = (k / 9, k % 9);
                    let (b1, b2) = other_bands(b);
                    let col = spread_columns(1 << c);
                    let bx = spread_columns(7 << (3 * (c / 3)));
                    self.cells[3 * d + b] &= !(bx & !col);
                    self.cells[3 * d + b1] &= !col;
                    self.cells[3 * d + b2] &= !col;
                }
                let h = m & cols_hidden;
                for b in 0..3 {
                    self.cells[3 * d + b] &= !spread_columns((h >> (9 * b)) & 0x1ff);
                }
            }
            let dirty = self.stale();
            if dirty != 0 {
                return Branch::Again(dirty);
            }
        }
        // Configurations per digit: bands 0..3 by rows (already in `counts`), stacks 3..6 by
        // columns. A unit's total over nine digits is at most 54, so the six totals add up
        // bytewise in one word.
        let mut total = 0u64;
        for (d, k) in counts.iter_mut().enumerate() {
            // The digit's columns transposed (bit `3·column + band`): each stack's matrix is
            // then nine consecutive bits, transposed, which leaves the count unchanged.
            let t = SPREAD3[0][self.cols[3 * d] as usize & 0x1ff]
                | SPREAD3[1][self.cols[3 * d + 1] as usize & 0x1ff]
                | SPREAD3[2][self.cols[3 * d + 2] as usize & 0x1ff];
            let st = PERM_COUNT[t as usize & 0x1ff] as u64
                | (PERM_COUNT[(t >> 9) as usize & 0x1ff] as u64) << 8
                | (PERM_COUNT[(t >> 18) as usize & 0x1ff] as u64) << 16;
            *k |= st << 24;
            total += *k;
        }
        let mut best = usize::MAX;
        let mut least = u32::MAX;
        for k in 0..6 {
            let t = (total >> (8 * k)) as u32 & 0xff;
            if t > 9 && t < least {
                least = t;
                best = k;
            }
        }
        if best == usize::MAX {
            return Branch::Cell;
        }
        let Some(d) = (0..9).find(|&d| (counts[d] >> (8 * best)) & 0xff == 2) else {
            return Branch::Cell;
        };
        let mut a = [ALL; 3];
        let mut z = [ALL; 3];
        if best < 3 {
            let p = PERMS[self.mr[3 * d + best] as usize & 0x1ff];
            a[best] = matrix_cells(p.first as usize);
            z[best] = matrix_cells(p.second as usize);
        } else {
            let st = best - 3;
            let p = PERMS[self.stack_matrix(d, st)];
            let other = 0x1ff & !(7u32 << (3 * st));
            for i in 0..3 {
                a[i] = spread_columns(other | ((p.first as u32 >> (3 * i)) & 7) << (3 * st));
                z[i] = spread_columns(other | ((p.second as u32 >> (3 * i)) & 7) << (3 * st));
            }
        }
        Branch::Config(d, a, z)
    }

    /// Whether a search whose first branch point is this state should branch on
    /// configurations from the start (**configurations on demand**). Puzzles with many
    /// solutions, and easy ones, reach their first branch point with fewer open cells and many
    /// bivalue cells, and most end without a dead end: for them cell guesses are enough and
    /// cheaper. A search that does hit a dead end switches to configurations there.
    fn eager(&self) -> bool {
        band_count(self.unsolved) >= EAGER_OPEN || band_count(self.pairs) < EAGER_PAIRS
    }

    /// Digit `d`'s mini-row matrices, packed (bit `9·band + 3·row + box`).
    #[inline(always)]
    fn packed_minirows(&self, d: usize) -> u32 {
        let i = 3 * d;
        self.mr[i] as u32 | (self.mr[i + 1] as u32) << 9 | (self.mr[i + 2] as u32) << 18
    }

    /// Digit `d`'s column folds, packed (bit `9·band + column`).
    #[inline(always)]
    fn packed_cols(&self, d: usize) -> u32 {
        let i = 3 * d;
        self.cols[i] as u32 | (self.cols[i + 1] as u32) << 9 | (self.cols[i + 2] as u32) << 18
    }

    /// Digit `d`'s mini-column matrix in stack `st` (bit `3·band + column`).
    #[inline(always)]
    fn stack_matrix(&self, d: usize, st: usize) -> usize {
        (self.cols[3 * d] as usize >> (3 * st) & 7)
            | (self.cols[3 * d + 1] as usize >> (3 * st) & 7) << 3
            | (self.cols[3 * d + 2] as usize >> (3 * st) & 7) << 6
    }

    /// The cell to guess with `(b, bit)` in a paired guess, as (band, cell bit): a bivalue cell
    /// outside its row, column and box, the first of the band with the most of them.
    fn second_cell(&self, b: usize, bit: u32) -> Option<(usize, u32)> {
        let at = bit.trailing_zeros() as usize;
        let mut seen = [spread_columns(1 << (at % 9)); 3];
        seen[b] |= BAND_PEERS[at] | bit;
        let open = [0, 1, 2].map(|i| self.pairs[i] & !seen[i]);
        // Counted with the row-count table, as in `pick_cell`.
        let bb = first_most(open.map(|p| band_count([p, 0, 0])));
        let p = open[bb];
        (p != 0).then(|| (bb, p & p.wrapping_neg()))
    }

    /// The cell to branch on, as (band, cell bit): the first bivalue cell of the row with the
    /// most bivalue cells inside the band with the most bivalue cells; failing that, of the
    /// first open cell of each band, the one with the fewest candidates (sampling three cells
    /// beat a full fewest-candidates scan: fewer guesses on the hard corpora, and cheaper).
    fn pick_cell(&self) -> (usize, u32) {
        // The band with the most bivalue cells: its cells constrain each other most, so a
        // guess there propagates furthest (about 15% fewer guesses than the first bivalue cell).
        // Bivalue cells per row (**row-count table**: three look-ups per band instead of
        // popcounts, which x86-64 without the `popcnt` extension computes in a dozen
        // instructions each; 1.5% fewer instructions in all).
        let rows = self.pairs.map(|p| {
            [
                ROW_POP[(p & 0x1ff) as usize] as u32,
                ROW_POP[((p >> 9) & 0x1ff) as usize] as u32,
                ROW_POP[(p >> 18) as usize & 0x1ff] as u32,
            ]
        });
        let b = first_most(rows.map(|r| r[0] + r[1] + r[2]));
        let p = self.pairs[b];
        if p != 0 {
            // Inside that band, the row with the most bivalue cells, for the same reason at a
            // finer grain (about 5% fewer guesses on the hard corpora, for three popcounts).
            let q = p & 0x1ff << (9 * first_most(rows[b]));
            return (b, q & q.wrapping_neg());
        }
        let mut best = (0, 0, u32::MAX);
        for b in 0..3 {
            let u = self.unsolved[b];
            if u == 0 {
                continue;
            }
            let bit = u & u.wrapping_neg();
            let mut n = 0;
            for d in 0..9 {
                n += (self.cells[3 * d + b] & bit != 0) as u32;
            }
            if n < best.2 {
                best = (b, bit, n);
            }
        }
        (best.0, best.1)
    }
}

/// The index of the largest of three counts, the first on a tie.
#[inline(always)]
fn first_most(n: [u32; 3]) -> usize {
    if n[0] >= n[1] && n[0] >= n[2] {
        0
    } else if n[1] >= n[2] {
        1
    } else {
        2
    }
}

/// The cells of three band words, counted with the row-count table (x86-64 without `popcnt`
/// computes a population count in a dozen instructions).
#[inline(always)]
fn band_count(words: [u32; 3]) -> u32 {
    words
        .iter()
        .map(|&u| {
            (ROW_POP[(u & 0x1ff) as usize]
                + ROW_POP[((u >> 9) & 0x1ff) as usize]
                + ROW_POP[(u >> 18) as usize & 0x1ff]) as u32
        })
        .sum()
}

/// Bit-sliced tallies over nine digits, per mini-row (low half, band `b` at bits `9·b..`) and
/// mini-column (high half, the same layout): where at least one to four digits can go
/// (`c[0..4]`) and where at least one to four are forced (`f[0..4]`).
#[derive(Clone, Copy, Default)]
struct Tally {
    c: [u64; 4],
    f: [u64; 4],
}

/// Every mini-row and mini-column bit of a [`Tally`] word.
const TALLY_ALL: u64 = ALL as u64 | (ALL as u64) << 32;

impl Tally {
    /// Adds one digit: the mini-rows and mini-columns it can take, and those it is forced into.
    #[inline(always)]
    fn add(&mut self, can: u64, forced: u64) {
        for (t, x) in [(&mut self.c, can), (&mut self.f, forced)] {
            t[3] |= t[2] & x;
            t[2] |= t[1] & x;
            t[1] |= t[0] & x;
            t[0] |= x;
        }
    }

    /// `None` when a mini-row or mini-column has fewer than three candidates or more than
    /// three forced digits; else the rules that can still change something: `naked`, three
    /// candidates not all forced yet (each is forced there); `hidden`, three forced among
    /// more candidates (the others leave).
    #[inline(always)]
    fn rules(&self) -> Option<(u64, u64)> {
        let [_, _, c3, c4] = self.c;
        let [_, _, f3, f4] = self.f;
        if c3 != TALLY_ALL || f4 != 0 {
            return None;
        }
        Some((c3 & !c4 & !f3, f3 & c4))
    }
}

/// What [`State::branch_point`] found.
enum Branch {
    /// A contradiction.
    Dead,
    /// Triads changed these words: propagate again.
    Again(u32),
    /// Digit `d`'s two configurations, as masks of its three band words.
    Config(usize, [u32; 3], [u32; 3]),
    /// Branch on a cell ([`State::pick_cell`]).
    Cell,
}

struct Ctx {
    limit: u32,
    solutions: u32,
    first: Option<Grid>,
    guesses: u64,
    max_guesses: u64,
    gave_up: bool,
    /// Whether branch points use [`State::branch_point`] (triads and configurations) or go
    /// straight to a cell guess; `None` until the first branch point decides
    /// ([`State::eager`]), `Some(true)` from the first dead end on.
    configs: Option<bool>,
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
fn search(s: &mut State, mut dirty: u32, ctx: &mut Ctx) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpora;
    use crate::engine::oracle as masks;

    thread_local! {
        /// Set: this thread's engine uses the portable stale mask, whatever the CPU.
        pub(super) static PORTABLE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    /// The whole engine on the portable path (what non-x86-64 CPUs run) gives the same counts,
    /// solutions and guesses as on the SIMD path, on generated puzzles.
    #[test]
    fn portable_path_solves_alike() {
        let mut puzzles: Vec<Grid> = vec![LEET.parse().unwrap(), Grid::EMPTY];
        let mut next = xorshift(0x0005_eed0_fa11);
        let sol = masks::solve(&Grid::EMPTY, 1).first.unwrap();
        for keep in [17u64, 22, 26, 30, 40] {
            for _ in 0..200 {
                let mut cells = *sol.cells();
                for c in cells.iter_mut() {
                    if next() % 81 >= keep {
                        *c = 0;
                    }
                }
                puzzles.push(Grid::from_cells(cells).unwrap());
            }
        }
        portable_alike(&puzzles);
    }

    /// Both ways of sorting cells into value words give the definition's words.
    #[test]
    fn value_words_by_definition() {
        let mut next = xorshift(0x0000_0a1e_5eb0);
        for _ in 0..2000 {
            let mut cells = [0u8; 81];
            for c in cells.iter_mut() {
                *c = (next() % 10) as u8;
            }
            let mut want = [0u32; 32];
            for (cell, &v) in cells.iter().enumerate() {
                want[3 * v as usize + cell / 27] |= 1 << (cell % 27);
            }
            assert_eq!(value_words_portable(&cells), want);
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            assert_eq!(value_words_sse2(&cells), want);
        }
    }

    /// Both ways of building the start words agree, conflicts included: random grids from
    /// nearly empty to full, most of them breaking some rule, and the clues of solved grids.
    #[test]
    fn given_words_paths_agree() {
        let mut next = xorshift(0x0000_9a1e_5eed);
        let sol = masks::solve(&Grid::EMPTY, 1).first.unwrap();
        let (mut clean, mut conflicts) = (0, 0);
        for i in 0..20_000 {
            let mut cells = [0u8; 81];
            let density = 1 + i % 40;
            for (c, cell) in cells.iter_mut().enumerate() {
                if next() % 81 < density {
                    // Half the grids take their clues from a solution: no conflict.
                    *cell = if i % 2 == 0 {
                        sol.cells()[c]
                    } else {
                        (next() % 9) as u8 + 1
                    };
                }
            }
            let words = value_words_portable(&cells);
            let want = given_words_portable(&words);
            match want {
                Some(_) => clean += 1,
                None => conflicts += 1,
            }
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            assert_eq!(given_words_sse2(&words), want, "{cells:?}");
        }
        assert!(clean > 10_000 && conflicts > 5_000, "{clean} {conflicts}");
    }

    /// Both ways of counting candidates agree, on random words of every density.
    #[test]
    fn candidate_count_paths_agree() {
        let mut next = xorshift(0x0000_c0de_c0de);
        for i in 0..5_000 {
            let mut cells = [0u32; 27];
            for w in cells.iter_mut() {
                // Sparser words for higher `i`: AND of up to four random words.
                let mut x = next() as u32;
                for _ in 0..i % 4 {
                    x &= next() as u32;
                }
                *w = x & ALL;
            }
            let want = candidate_counts_portable(&cells);
            for b in 0..3 {
                let mut n = [0u32; 27];
                for w in cells.iter().skip(b).step_by(3) {
                    for (k, n) in n.iter_mut().enumerate() {
                        *n += w >> k & 1;
                    }
                }
                for (t, at_least) in want.iter().zip(1..) {
                    let by_count = (0..27)
                        .filter(|&k| n[k] >= at_least)
                        .fold(0, |m, k| m | 1 << k);
                    assert_eq!(t[b], by_count);
                }
            }
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            assert_eq!(candidate_counts_sse2(&cells), want);
        }
    }

    /// Both read-outs of a solved state give its grid, on random complete grids.
    #[test]
    fn solved_digit_paths_agree() {
        let mut next = xorshift(0x5017_ed00);
        for _ in 0..2_000 {
            // A random complete grid: a valid one with its digits permuted and its bands, and
            // the rows inside them, rotated (all of which keep it valid).
            let mut perm: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 9];
            for i in (1..9).rev() {
                perm.swap(i, next() as usize % (i + 1));
            }
            let (band_shift, row_shift) = (next() as usize % 3, next() as usize % 3);
            let mut grid = [0u8; 81];
            for (i, v) in grid.iter_mut().enumerate() {
                let (r, c) = (i / 9, i % 9);
                let (band, row) = ((r / 3 + band_shift) % 3, (r % 3 + row_shift) % 3);
                let base = (3 * row + band + c) % 9;
                *v = perm[base];
            }
            let mut cells = [0u32; 27];
            for (i, &v) in grid.iter().enumerate() {
                cells[3 * (v as usize - 1) + i / 27] |= 1 << (i % 27);
            }
            assert_eq!(solved_digits_portable(&cells), grid);
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            assert_eq!(solved_digits_sse2(&cells), grid);
        }
    }

    /// Givens that break a rule leave no solution, on both paths: `solve` relies on it to look
    /// for conflicting givens only when nothing was found.
    #[test]
    fn conflicting_givens_have_no_solution() {
        let mut next = xorshift(0x00c0_ff11_c7ed);
        let sol = masks::solve(&Grid::EMPTY, 1).first.unwrap();
        for round in 0..3000u64 {
            let keep = [0, 10, 20, 30, 81][round as usize % 5];
            let mut cells = *sol.cells();
            for c in cells.iter_mut() {
                if next() % 81 >= keep {
                    *c = 0;
                }
            }
            // Copy a cell's digit into a peer: same row, column or box.
            let a = (next() % 81) as usize;
            let (r, c) = (a / 9, a % 9);
            let k = (next() % 8) as usize;
            let k = k + usize::from(k >= [c, r, (r % 3) * 3 + c % 3][round as usize % 3]);
            let b = match round % 3 {
                0 => r * 9 + k,
                1 => k * 9 + c,
                _ => (r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3,
            };
            assert_ne!(a, b);
            cells[a] = sol.cells()[a];
            cells[b] = sol.cells()[a];
            let g = Grid::from_cells(cells).unwrap();
            assert!(g.check_givens().is_err(), "{g}");
            for limit in [1, 2] {
                assert_eq!(solve(&g, limit).solutions, 0, "{g}");
                PORTABLE.with(|f| f.set(true));
                assert_eq!(solve(&g, limit).solutions, 0, "{g} (portable)");
                PORTABLE.with(|f| f.set(false));
            }
        }
    }

    /// The same on corpus puzzles: hard ones and ones with several solutions.
    #[test]
    #[cfg_attr(
        not(corpora),
        ignore = "needs the corpora: ../shared/data or $SUDOKU_DATA"
    )]
    fn portable_path_solves_corpora_alike() {
        let mut puzzles = corpora::puzzles("forum_hardest_sample.txt", 100);
        puzzles.extend(corpora::puzzles("multi_solution.txt", 200));
        portable_alike(&puzzles);
    }

    fn portable_alike(puzzles: &[Grid]) {
        for p in puzzles {
            for limit in [1, 2] {
                let simd = solve(p, limit);
                PORTABLE.with(|f| f.set(true));
                let portable = solve(p, limit);
                PORTABLE.with(|f| f.set(false));
                assert_eq!(
                    (simd.solutions, simd.first, simd.guesses),
                    (portable.solutions, portable.first, portable.guesses),
                    "{p}"
                );
            }
        }
    }

    fn solve(p: &Grid, limit: u32) -> Solved {
        super::solve(p, limit, u64::MAX)
    }
    use crate::testing::LEET;

    /// Compares against the reference engine at limits 1, 2 and 3.
    fn check(p: &Grid) {
        let mut unique = None;
        for limit in 1..=3 {
            let ours = solve(p, limit);
            let theirs = masks::solve(p, limit);
            assert_eq!(ours.solutions, theirs.solutions, "limit {limit}: {p}");
            assert_eq!(ours.first.is_some(), ours.solutions > 0, "{p}");
            if let Some(f) = ours.first {
                assert!(f.is_solution_of(p), "limit {limit}: {p} -> {f}");
            }
            if limit == 2 && theirs.solutions == 1 {
                unique = theirs.first;
            }
        }
        if let Some(u) = unique {
            for limit in 1..=3 {
                assert_eq!(solve(p, limit).first, Some(u), "{p}");
            }
        }
    }

    /// A deterministic xorshift64 generator.
    fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    #[test]
    fn tables() {
        // The size the module note and docs/engine.md give.
        assert_eq!(std::mem::size_of::<State>(), 384);
        assert_eq!(lc_entry(0x1ff).keep, ALL);
        assert_eq!(lc_entry(0x1ff).kept, 0x1ff);
        assert_eq!(lc_entry(0x1ff).single_row, 0);
        // A diagonal of mini-rows is the only permutation inside it: every mini-row is kept
        // and each is alone in its box.
        let diag = 1 | 1 << 4 | 1 << 8;
        assert_eq!(lc_entry(diag).keep, lc_entry(diag).single_row);
        assert_eq!(lc_entry(diag).keep.count_ones(), 9);
        // Two rows confined to the same box: no permutation.
        assert_eq!(lc_entry(1 | 1 << 3 | 0o700).keep, 0);
        for (c, &p) in BAND_PEERS.iter().enumerate() {
            assert_eq!(p.count_ones(), 14);
            assert_eq!(p & (1 << c), 0);
        }
        assert_eq!(COL_SINGLE[0o124], 0o124124124);
        assert_eq!(CLAIM[0], ALL);
        assert_eq!(CLAIM[0o003] & 0o007_007_007, 0);
        let [o1, o2, b, d] = PEER_WORDS[3 * 4 + 1];
        assert_eq!((o1, o2, b, d), (3 * 4 + 2, 3 * 4, 1, 4));
    }

    /// The mini-row hash is perfect, and on any word it finds the entry of that word's
    /// mini-row mask (computed the slow way).
    #[test]
    fn minirow_hash_is_perfect() {
        let mut seen = [false; 512];
        for s in 0..512usize {
            let word: u32 = (0..9)
                .filter(|m| s & (1 << m) != 0)
                .map(minirow_cells)
                .sum();
            let h = minirow_hash(word);
            assert!(!seen[h], "mask {s:o} collides");
            seen[h] = true;
        }
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..100_000 {
            let word = (next() as u32) & ALL;
            let s = (0..9)
                .filter(|&m| word & minirow_cells(m) != 0)
                .fold(0, |acc, m| acc | 1 << m);
            assert_eq!(LC[minirow_hash(word)], lc_entry(s), "word {word:o}");
        }
    }

    /// The subset start is exactly the grid start, and a search with an excluded cell is the
    /// pencilmark search with that candidate removed, on sub-puzzles of many densities.
    #[test]
    fn subset_start_matches_grid_start() {
        let mut next = xorshift(0x51b5_e75a_2b0d_11c3);
        let s = masks::solve(&Grid::EMPTY, 1).first.unwrap();
        for round in 0..600u64 {
            // A relabelled solution, so every digit's words vary.
            let mut perm: Vec<u8> = (1..=9).collect();
            for i in (1..9).rev() {
                perm.swap(i, (next() % (i as u64 + 1)) as usize);
            }
            let sol = Grid::from_cells(s.cells().map(|v| perm[v as usize - 1])).unwrap();
            let sub = Solution::new(&sol).unwrap();
            let keep = 17 + round % 50;
            let mut givens = 0u128;
            let mut cells = *sol.cells();
            for (i, c) in cells.iter_mut().enumerate() {
                if next() % 81 < keep {
                    givens |= 1 << i;
                } else {
                    *c = 0;
                }
            }
            let p = Grid::from_cells(cells).unwrap();
            let a = State::from_subset(&sub, givens);
            let b = State::from_grid(&p).unwrap();
            assert_eq!(
                (a.cells, a.unsolved, a.claim_due),
                (b.cells, b.unsolved, b.claim_due),
                "{p}"
            );
            for limit in [1, 2] {
                assert_eq!(sub.solve(givens, None, limit), solve(&p, limit), "{p}");
            }
            let blank = (0..81).find(|&i| cells[i] == 0).unwrap();
            let mut c = Candidates::from_grid(&p);
            let mut m = *c.masks();
            m[blank] &= !(1 << (sol.cells()[blank] - 1));
            c = Candidates::from_masks(m).unwrap();
            assert_eq!(
                sub.solve(givens, Some(blank), 2),
                super::solve_candidates(&c, 2, u64::MAX),
                "{p}"
            );
        }
        assert!(Solution::new(&Grid::EMPTY).is_none());
    }

    /// The vector first sweep leaves every word as an update would (closed under the
    /// permutation table, its fold and matrix stored), reports exactly the words that changed
    /// since, and the sweeps from there reach the state that sweeping every word reaches:
    /// on random puzzles (17 to 60 givens of a grid relabelled each time) and on their start
    /// states with random candidates removed (many of them contradictory). The corpora are
    /// covered by `portable_path_solves_corpora_alike`, whose portable path has no vector sweep.
    #[test]
    #[cfg_attr(
        not(all(target_arch = "x86_64", target_feature = "sse2")),
        ignore = "no SSE2: this build has no vector first sweep"
    )]
    fn first_sweep_reaches_the_same_fixpoint() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        let mut starts = Vec::new();
        let mut sol = masks::solve(&Grid::EMPTY, 1).first.unwrap();
        for _ in 0..3_000 {
            let keep = 17 + next() % 44;
            let cells = sol.cells().map(|v| if next() % 81 < keep { v } else { 0 });
            let p = Grid::from_cells(cells).unwrap();
            let Some(mut s) = State::from_grid(&p) else {
                continue;
            };
            starts.push(s);
            for w in s.cells.iter_mut() {
                *w &= !(1 << (next() % 27)) & !(1 << (next() % 27));
            }
            starts.push(s);
            sol = Grid::from_cells(sol.cells().map(|v| (v % 9) + 1)).unwrap();
        }
        let (mut dead, mut alive) = (0, 0);
        for start in starts {
            let mut a = start;
            let a_ok = a.propagate(ALL_WORDS);
            let mut b = start;
            let b_ok = match vector_first_sweep(&mut b) {
                None => false,
                Some(dirty) => {
                    assert_eq!(b.stale(), dirty);
                    for sb in 0..27 {
                        let x = b.prev[sb];
                        let lc = LC[minirow_hash(x)];
                        assert_eq!(x & lc.keep, x);
                        assert_eq!((b.cols[sb] as u32, b.mr[sb]), (columns(x), lc.kept));
                    }
                    b.propagate(dirty)
                }
            };
            assert_eq!(a_ok, b_ok);
            if a_ok {
                alive += 1;
                assert_eq!(
                    (a.cells, a.prev, a.unsolved, a.pairs, a.cols, a.mr),
                    (b.cells, b.prev, b.unsolved, b.pairs, b.cols, b.mr)
                );
            } else {
                dead += 1;
            }
        }
        assert!(
            dead > 100 && alive > 1_000,
            "{dead} contradictory, {alive} not"
        );
    }

    /// [`first_sweep_sse2`] (the test that calls it is ignored on builds without SSE2).
    fn vector_first_sweep(s: &mut State) -> Option<u32> {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        return first_sweep_sse2(s);
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        return first_sweep_portable(s);
    }

    /// The SIMD stale mask equals the portable one (which is what non-x86-64 targets run).
    #[test]
    fn stale_mask_paths_agree() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let mut now = [0u32; 27];
            for w in now.iter_mut() {
                *w = next() as u32 & ALL;
            }
            let mut then = now;
            let flips = next() as u32 & ((1 << 27) - 1);
            for (i, w) in then.iter_mut().enumerate() {
                if flips & (1 << i) != 0 {
                    *w ^= 1 << (next() % 27);
                }
            }
            assert_eq!(stale_portable(&now, &then), flips);
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            assert_eq!(stale_sse2(&now, &then), flips);
        }
    }

    #[test]
    fn edge_cases() {
        let s: Grid =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
                .parse()
                .unwrap();
        let r = solve(&s, 2);
        assert_eq!((r.solutions, r.first, r.guesses), (1, Some(s), 0));
        // Conflicting givens: 0 solutions even though the rest is a solved grid.
        let mut bad = *s.cells();
        bad[0] = 0;
        bad[1] = 0;
        bad[2] = 3;
        let r = solve(&Grid::from_cells(bad).unwrap(), 2);
        assert_eq!((r.solutions, r.first), (0, None));
        for limit in [0, 1, 2, 3, 10] {
            let r = solve(&Grid::EMPTY, limit);
            assert_eq!(r.solutions, limit.max(1));
            assert!(r.first.unwrap().is_solution_of(&Grid::EMPTY));
        }
        let leet: Grid = LEET.parse().unwrap();
        check(&leet);
        assert_eq!(solve(&leet, 2).guesses, 0);
        check(&Grid::EMPTY);
        check(&s);
    }

    /// Configuration branching without the triad rules at the branch point wandered for
    /// 61,252 guesses on the empty grid and 134 million (54 s) on a one-clue grid: choices
    /// of whole configurations that overfill a mini-row go unnoticed by the cell rules until
    /// deep below. With the triad rules both take a few dozen; the bound is loose on purpose.
    #[test]
    fn nearly_empty_grids_guess_little() {
        let mut one = [0u8; 81];
        one[40] = 1;
        for g in [Grid::EMPTY, Grid::from_cells(one).unwrap()] {
            for limit in [1, 2] {
                let r = solve(&g, limit);
                assert_eq!(r.solutions, limit);
                assert!(r.guesses < 200, "{} guesses", r.guesses);
            }
        }
    }

    /// The tables behind configuration branching, against their definition: a 3×3 matrix
    /// (bit `3·row + column`) contains permutation `p` when it holds each `(r, p[r])`.
    #[test]
    fn permutation_tables() {
        for s in 0..512usize {
            let held: Vec<usize> = crate::transform::PERMS3
                .iter()
                .map(|p| (0..3).fold(0, |m, r| m | 1 << (3 * r + p[r] as usize)))
                .filter(|m| s & m == *m)
                .collect();
            let p = PERMS[s];
            assert_eq!(p.count as usize, held.len());
            assert_eq!(PERM_COUNT[s], p.count);
            if held.len() >= 2 {
                assert_eq!((p.first as usize, p.second as usize), (held[0], held[1]));
            }
            // Mini-rows: a word with exactly the mini-rows of `s` maps back to `s`.
            assert_eq!(minirows(matrix_cells(s)), s);
            // Packed helpers, with this matrix in each band beside two others.
            let alone = |s: usize| -> u32 {
                (0..3)
                    .map(|r| (s >> (3 * r)) & 7)
                    .enumerate()
                    .filter(|(_, g)| g.count_ones() == 1)
                    .map(|(r, g)| (g << (3 * r)) as u32)
                    .sum()
            };
            let (s1, s2) = ((s * 7 + 3) % 512, (s * 13 + 5) % 512);
            for (x, y, z) in [(s, s1, s2), (s1, s, s2), (s2, s1, s)] {
                let packed = (x | y << 9 | z << 18) as u32;
                let want = alone(x) | alone(y) << 9 | alone(z) << 18;
                assert_eq!(alone_minirows(packed), want, "{x:#o} {y:#o} {z:#o}");
                // The row-info table: the same alone mini-rows, and the three counts.
                let info = ROW_INFO[0][x] | ROW_INFO[1][y] | ROW_INFO[2][z];
                assert_eq!(info & ALL as u64, want as u64);
                assert_eq!(info >> 27 & 0x1f, 0);
                let counts = [x, y, z].map(|m| PERM_COUNT[m] as u64);
                assert_eq!(info >> 32, counts[0] | counts[1] << 8 | counts[2] << 16);
                let others = (y | z) | (x | z) << 9 | (x | y) << 18;
                assert_eq!(other_bands_cols(packed), others as u32);
            }
        }
        // A digit's column presence in its three bands to stack matrices (bit 3·band + column).
        let mut st = State::from_grid(&Grid::EMPTY).unwrap();
        st.cols[3 * 4..3 * 4 + 3].copy_from_slice(&[0b101_000_011, 0b000_110_000, 0b010_001_100]);
        assert_eq!(st.stack_matrix(4, 0), 0b011 | 0b100 << 6);
        assert_eq!(st.stack_matrix(4, 1), 0b110 << 3 | 0b001 << 6);
        assert_eq!(st.stack_matrix(4, 2), 0b101 | 0b010 << 6);
    }

    /// Puzzles derived deterministically from corpus solutions: clues removed (many become
    /// multi-solution), one given changed (usually unsolvable or conflicting).
    #[test]
    #[cfg_attr(
        not(corpora),
        ignore = "needs the corpora: ../shared/data or $SUDOKU_DATA"
    )]
    fn derived_puzzles() {
        let seeds = corpora::puzzles("17clue.txt", 300);
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for p in &seeds {
            let sol = masks::solve(p, 1).first.unwrap();
            for keep in [20u64, 24, 30, 45] {
                let mut cells = *sol.cells();
                for c in cells.iter_mut() {
                    if next() % 81 >= keep {
                        *c = 0;
                    }
                }
                let g = Grid::from_cells(cells).unwrap();
                check(&g);
                // Change one given to another digit.
                let filled: Vec<usize> = (0..81).filter(|&i| cells[i] != 0).collect();
                let i = filled[(next() % filled.len() as u64) as usize];
                cells[i] = (cells[i] + (next() % 8) as u8) % 9 + 1;
                check(&Grid::from_cells(cells).unwrap());
            }
            // The puzzle with one more wrong given in an empty cell.
            let mut cells = *p.cells();
            let empty: Vec<usize> = (0..81).filter(|&i| cells[i] == 0).collect();
            let i = empty[(next() % empty.len() as u64) as usize];
            cells[i] = sol.cells()[i] % 9 + 1;
            check(&Grid::from_cells(cells).unwrap());
        }
    }

    /// Paired guesses: on many-solution puzzles, which seldom meet a dead end, a guess takes two
    /// cells, and the search needs far fewer guesses (about 4.3 a puzzle on these 1,000 in first
    /// mode, 6.1 with one cell a guess); the first solution is the same at every limit.
    #[test]
    #[cfg_attr(
        not(corpora),
        ignore = "needs the corpora: ../shared/data or $SUDOKU_DATA"
    )]
    fn paired_guesses_on_many_solution_puzzles() {
        let puzzles = corpora::puzzles("multi_solution.txt", 1000);
        assert_eq!(puzzles.len(), 1000);
        let mut guesses = 0;
        for p in &puzzles {
            let one = solve(p, 1);
            guesses += one.guesses;
            assert_eq!(one.first, solve(p, 2).first, "{p}");
        }
        assert!(guesses < 5 * 1000, "{guesses} guesses");
    }

    #[test]
    #[cfg_attr(
        not(corpora),
        ignore = "needs the corpora: ../shared/data or $SUDOKU_DATA"
    )]
    fn corpora_match_reference() {
        for (name, take) in [
            ("multi_solution.txt", usize::MAX),
            ("invalid.txt", usize::MAX),
            ("kaggle_sample.txt", 2000),
            ("17clue.txt", 2000),
            ("top1465.txt", 1000),
            ("forum_hardest_sample.txt", 300),
            ("hardest1106.txt", 100),
            ("top95.txt", usize::MAX),
            ("norvig_hardest.txt", usize::MAX),
            ("sudoku_exchange_sample.txt", 1000),
            ("kaggle3m_rated_sample.txt", 500),
        ] {
            for p in &corpora::puzzles(name, take) {
                check(p);
            }
        }
    }
}
