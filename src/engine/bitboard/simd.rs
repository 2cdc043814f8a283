//! The vector helpers, each SSE2 version beside its portable twin, and `simd_or_portable!`,
//! which picks one. SSE2 is part of the x86-64 baseline, so the pick is made at compile time
//! and nothing is detected at run time; the portable twins are what other targets run, and
//! unit tests run them on x86-64 too (`tests::PORTABLE`), which is how each pair is held
//! equal. One file so that each pair is read side by side, and so that all of the engine's
//! `unsafe` is here, every block with its `// SAFETY:` note.
//!
//! Where each trick lives:
//! - `value_words`, `given_words_sse2` / `_portable`: batch givens, branch-free, one vector per
//!   digit (for `State::from_grid`).
//! - `candidate_counts_sse2` / `_portable`: bit-sliced candidate counts (empty, single,
//!   bivalue cells), a digit's three band words as one vector (for `State::naked_singles`).
//! - `solved_digits_sse2` / `_portable`: a solved state's grid.
//! - `stale_sse2` / `stale_portable`: the mask of stale words that the sweeps read
//!   (`State::stale`).
//! - `first_sweep_sse2`: a start state's first sweep (every word) as one vector pass, the
//!   permutation rule computed by shifts instead of looked up (`State::first_sweep`).

use super::state::State;
use super::tables::{
    columns, other_bands, row_presence, spread_columns, BOX_CELLS, BOX_COUNT, ROW_FILL, ROW_POP,
};
use super::{ALL, ALL_WORDS};

/// Calls the SSE2 version of a function where SSE2 is the build's baseline (all of x86-64),
/// else its portable twin; unit tests can make their thread run the portable twin on x86-64
/// too (`tests::PORTABLE`), which is how each pair is held equal.
macro_rules! simd_or_portable {
    ($sse2:ident, $portable:ident, $($arg:expr),+) => {{
        #[cfg(test)]
        if super::tests::PORTABLE.with(std::cell::Cell::get) {
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
pub(super) use simd_or_portable;

/// A grid's cells sorted by value into band words: index `3·value + band` (value 0 for blank
/// cells) holds the band's cells with that value.
#[inline(always)]
pub(super) fn value_words(cells: &[u8; 81]) -> [u32; 32] {
    simd_or_portable!(value_words_sse2, value_words_portable, cells)
}

/// [`value_words`] one cell at a time (no branch on the cell's value either).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
pub(super) fn value_words_portable(cells: &[u8; 81]) -> [u32; 32] {
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
pub(super) fn value_words_sse2(cells: &[u8; 81]) -> [u32; 32] {
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
pub(super) fn given_words(words: &[u32; 32]) -> Option<[u32; 27]> {
    simd_or_portable!(given_words_sse2, given_words_portable, words)
}

/// [`given_words`] one word at a time, with tables.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
pub(super) fn given_words_portable(words: &[u32; 32]) -> Option<[u32; 27]> {
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
pub(super) fn given_words_sse2(words: &[u32; 32]) -> Option<[u32; 27]> {
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
pub(super) fn candidate_counts(cells: &[u32; 27]) -> [[u32; 3]; 3] {
    simd_or_portable!(candidate_counts_sse2, candidate_counts_portable, cells)
}

/// [`candidate_counts`] one band at a time.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
pub(super) fn candidate_counts_portable(cells: &[u32; 27]) -> [[u32; 3]; 3] {
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
pub(super) fn candidate_counts_sse2(cells: &[u32; 27]) -> [[u32; 3]; 3] {
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
pub(super) fn solved_digits(cells: &[u32; 27]) -> [u8; 81] {
    simd_or_portable!(solved_digits_sse2, solved_digits_portable, cells)
}

/// [`solved_digits`] with three bit scans a word, and no loop that runs for as many bits as
/// there are (which cost about 970 instructions on a Kaggle puzzle). Digit-major loops give
/// every store a constant offset: a loop over the word index divided it by three each time,
/// and cost about 840 instructions against about 480.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
pub(super) fn solved_digits_portable(cells: &[u32; 27]) -> [u8; 81] {
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
pub(super) fn solved_digits_sse2(cells: &[u32; 27]) -> [u8; 81] {
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

/// [`State::stale`] without SIMD: one comparison per word.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
pub(super) fn stale_portable(cells: &[u32; 27], prev: &[u32; 27]) -> u32 {
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
pub(super) fn stale_sse2(cells: &[u32; 27], prev: &[u32; 27]) -> u32 {
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
pub(super) fn first_sweep_portable(_: &mut State) -> Option<u32> {
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
pub(super) fn first_sweep_sse2(s: &mut State) -> Option<u32> {
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
