//! The engine's const lookup tables, each built at compile time by the `const fn`s beside it,
//! and the bit helpers (column folds, spreads, band rotations) that their builders and the
//! rules share. Data apart from the code that reads it: every rule of `state.rs` and
//! `branch.rs` is a look-up here on a band word, a 9-bit fold or a mini-row matrix, and the
//! `tables`, `minirow_hash_is_perfect` and `permutation_tables` tests hold each table to its
//! definition.
//!
//! Where each trick lives:
//! - `LC` + `minirow_hash`: band permutation table (row/box hidden singles, locked candidates,
//!   contradictions) under a perfect multiplicative hash; `MR` the plain matrices under the
//!   same hash ([`minirows`]).
//! - `COL_SINGLE`: column pointing; with `Lc::single_row`, solved-cell detection. `CLAIM`:
//!   column claiming.
//! - `PEER_WORDS`: a word's band, digit and its digit's other words.
//! - `BAND_PEERS`, `ROW_FILL`, `BOX_CELLS`, `BOX_COUNT`: a band's houses, for the start
//!   states and for placing a digit.
//! - `PERMS`, `PERM_COUNT`, `ROW_INFO` (a word's alone mini-rows and configuration count in one
//!   look-up), `SPREAD3`, `matrix_cells`: configurations for the branch point; `ROW_POP`:
//!   counts for choosing where to branch.

use super::ALL;

/// One entry of the band permutation table, for the 9-bit mini-row mask (bit `3·row + box`) of
/// a digit's band word.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Lc {
    /// Cells of the mini-rows that lie on some row→box permutation inside the mask (0 if none).
    pub(super) keep: u32,
    /// Of those mini-rows, the ones alone in their box (the box's digit is on that row).
    pub(super) single_row: u32,
    /// The mini-rows kept, as a mini-row matrix (bit `3·row + box`): the matrix of the word
    /// once `keep` is applied, stored by [`State::update`](super::state::State::update) for
    /// [`State::branch_point`](super::state::State::branch_point).
    pub(super) kept: u16,
}

/// The three cells of mini-row `m` (= `3·row + box`).
pub(super) const fn minirow_cells(m: usize) -> u32 {
    0b111 << ((m / 3) * 9 + (m % 3) * 3)
}

/// The [`Lc`] entry of the mini-row mask `s`.
pub(super) const fn lc_entry(s: usize) -> Lc {
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
pub(super) static LC: [Lc; 512] = {
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
pub(super) const fn minirow_hash(x: u32) -> usize {
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
pub(super) static COL_SINGLE: [u32; 512] = {
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
pub(super) static BOX_CELLS: [u32; 512] = {
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
pub(super) static CLAIM: [u32; 512] = {
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
pub(super) struct Perms {
    pub(super) count: u8,
    pub(super) first: u16,
    pub(super) second: u16,
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
pub(super) static PERMS: [Perms; 512] = {
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
pub(super) static PERM_COUNT: [u8; 512] = {
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
pub(super) static ROW_INFO: [[u64; 512]; 3] = {
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
pub(super) const fn matrix_cells(s: usize) -> u32 {
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
/// the matrices [`State::update`](super::state::State::update) stores (`State::mr`); this is
/// their check (a debug assertion at every branch point) and the tests' definition.
#[inline(always)]
pub(super) fn minirows(w: u32) -> usize {
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
pub(super) static SPREAD3: [[u32; 512]; 3] = {
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
pub(super) const fn alone_minirows(m: u32) -> u32 {
    const P0: u32 = 0o111_111_111;
    let (down1, down2, up1, up2) = (m >> 1, m >> 2, m << 1, m << 2);
    let others = ((down1 | down2) & P0) | ((down1 | up1) & P0 << 1) | ((up1 | up2) & P0 << 2);
    m & !others
}

/// For column folds packed three bands to a word (bit `9·band + column`), the same columns of
/// the other two bands: the 27 bits rotated by 9 and by 18.
#[inline(always)]
pub(super) fn other_bands_cols(c: u32) -> u32 {
    let r9 = (c >> 9 | c << 18) & ALL;
    let r18 = (c >> 18 | c << 9) & ALL;
    r9 | r18
}

/// For mini-row `m` of a band (bit `3·row + box`): the cells of its row and box outside it.
pub(super) const fn minirow_peers(m: usize) -> u32 {
    let (r, k) = (m / 3, m % 3);
    let row = 0x1ff << (9 * r);
    let bx = spread_columns(7 << (3 * k));
    (row | bx) & !minirow_cells(m)
}

/// The number of set bits of a 9-bit value.
pub(super) static ROW_POP: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut v = 0;
    while v < 512 {
        t[v] = (v as u32).count_ones() as u8;
        v += 1;
    }
    t
};

/// For each cell of a band, the other cells of its row and box inside the band.
pub(super) static BAND_PEERS: [u32; 27] = {
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
pub(super) const ROW_FILL: [u32; 8] = {
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
pub(super) fn row_presence(w: u32) -> u32 {
    // 1 when a 9-bit value is not zero.
    let any9 = |x: u32| (x + 0x1ff) >> 9;
    any9(w & 0x1ff) | any9((w >> 9) & 0x1ff) << 1 | any9((w >> 18) & 0x1ff) << 2
}

/// For a 9-bit column-presence mask, how many of the band's boxes hold one of the columns
/// ([`BOX_CELLS`] counted: nine cells a box).
pub(super) static BOX_COUNT: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut v = 0;
    while v < 512 {
        t[v] = (BOX_CELLS[v].count_ones() / 9) as u8;
        v += 1;
    }
    t
};

/// Folds a band word to its 9-bit column presence.
#[inline(always)]
pub(super) fn columns(x: u32) -> u32 {
    (x | (x >> 9) | (x >> 18)) & 0x1ff
}

/// Repeats a 9-bit column mask on the three rows of a band word.
#[inline(always)]
pub(super) const fn spread_columns(c: u32) -> u32 {
    c | (c << 9) | (c << 18)
}

/// The other two bands, in order.
#[inline(always)]
pub(super) fn other_bands(b: usize) -> (usize, usize) {
    match b {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    }
}

/// For each word: the words of the same digit in the other two bands, its band and its digit.
pub(super) static PEER_WORDS: [[u8; 4]; 27] = {
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
