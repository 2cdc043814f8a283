//! Potentials and the small types every chain search shares: a potential ("cell c holds / does
//! not hold digit v") packed in 16 bits, tables indexed by potential, why a potential follows
//! (`Cause`), a derived potential (`Node`), sets of potentials, and the producer's modes
//! (`Mode`, SE's `Chaining` constructor arguments). Kept apart so that each search file reads
//! them without reading one another.

use super::*;

/// No node.
pub(super) const NONE: u32 = u32::MAX;

/// Digits 1 to 9 as a candidate mask.
pub(super) const ALL_DIGITS: u16 = 0x3FE;

/// A potential packed as `(cell * 9 + v - 1) * 2 + on`.
pub(super) type Pot = u16;

#[inline]
pub(super) fn pot(cell: usize, v: u8, on: bool) -> Pot {
    ((cell * 9 + v as usize - 1) * 2 + on as usize) as Pot
}
#[inline]
pub(super) fn pot_cell(p: Pot) -> usize {
    p as usize / 18
}
#[inline]
pub(super) fn pot_value(p: Pot) -> u8 {
    ((p as usize / 2) % 9 + 1) as u8
}
#[inline]
pub(super) fn pot_on(p: Pot) -> bool {
    p & 1 == 1
}
/// The potential's cell-digit index (0..729), the same for its on and off forms.
#[inline]
pub(super) fn cv(p: Pot) -> usize {
    p as usize / 2
}
/// The same cell and digit, the other polarity.
#[inline]
pub(super) fn conj(p: Pot) -> Pot {
    p ^ 1
}
pub(super) fn pot_name(p: Pot) -> String {
    format!("{}.{}", cell_name(pot_cell(p)), pot_value(p))
}

/// A table with an entry for every `u16`, indexed by a packed potential (or its cell-digit
/// index): only the first 1,458 entries are used, but an index that is a `u16` needs no bounds
/// check, and the static searches index such tables once or twice per link they follow.
pub(super) struct ByPot<T>(pub(super) Box<[T; 1 << 16]>);

impl<T: Copy> ByPot<T> {
    pub(super) fn new(fill: T) -> ByPot<T> {
        match vec![fill; 1 << 16].into_boxed_slice().try_into() {
            Ok(table) => ByPot(table),
            Err(_) => unreachable!("the vector has 65,536 entries"),
        }
    }
}

impl<T: Copy + Default> Default for ByPot<T> {
    fn default() -> Self {
        ByPot::new(T::default())
    }
}

impl<T> std::ops::Index<usize> for ByPot<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        &self.0[i]
    }
}

impl<T> std::ops::IndexMut<usize> for ByPot<T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[i]
    }
}

/// Why a potential follows from its parents (SE's `Potential.Cause`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cause {
    /// An assumption (no parents).
    None,
    /// The cell's other digits (off), or its last digit (on).
    NakedSingle,
    /// The digit's other places (off), or its last place (on), in a region of this kind.
    Hidden(u8),
    /// Removed by a simpler technique run on the reduced grid.
    Advanced,
}

/// One potential as derived in a chain.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub(super) pot: Pot,
    /// The length of the first-parent chain back to the assumption (a lower bound on the
    /// ancestor count minus one).
    pub(super) depth: u16,
    pub(super) cause: Cause,
    /// The nested chain this potential came from (index into `Chainer::nested`), or `NONE`.
    pub(super) nested: u32,
    pub(super) first_parent: u32,
    pub(super) parent_count: u32,
}

/// A set of the 1,458 potentials.
#[derive(Clone)]
pub(super) struct PotSet(pub(super) [u64; 23]);

impl PotSet {
    pub(super) fn new() -> PotSet {
        PotSet([0; 23])
    }
    pub(super) fn clear(&mut self) {
        self.0 = [0; 23];
    }
    /// Adds; false if it was already there.
    #[inline]
    pub(super) fn insert(&mut self, p: Pot) -> bool {
        let (w, b) = (p as usize / 64, p as usize % 64);
        let was = self.0[w] >> b & 1 == 1;
        self.0[w] |= 1 << b;
        !was
    }
}

/// The chaining producer's modes (SE's `Chaining` constructor arguments).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mode {
    pub multiple: bool,
    pub dynamic: bool,
    pub nishio: bool,
    pub level: u8,
    pub nesting_limit: u8,
}

impl Mode {
    pub(crate) const CYCLES: Mode = Mode::new(false, false, false, 0, 0);
    pub(crate) const NISHIO: Mode = Mode::new(false, true, true, 0, 0);
    pub(crate) const MULTIPLE: Mode = Mode::new(true, false, false, 0, 0);
    pub(crate) const DYNAMIC: Mode = Mode::new(true, true, false, 0, 0);

    pub(crate) const fn new(
        multiple: bool,
        dynamic: bool,
        nishio: bool,
        level: u8,
        nesting_limit: u8,
    ) -> Mode {
        Mode {
            multiple,
            dynamic,
            nishio,
            level,
            nesting_limit,
        }
    }

    /// The base rating of the mode's multiple/dynamic hints.
    pub(super) fn difficulty(self) -> f64 {
        if self.level > 0 {
            8.5 + 0.5 * self.level as f64
        } else if self.nishio {
            7.5
        } else if self.dynamic {
            8.5
        } else {
            8.0
        }
    }

    pub(super) fn name_prefix(self) -> &'static str {
        if self.level > 0 || (self.dynamic && !self.nishio) {
            "Dynamic "
        } else if self.nishio {
            "Nishio "
        } else {
            ""
        }
    }

    pub(super) fn name_suffix(self) -> String {
        format!(" Chains{}", nested_suffix(self.level))
    }
}
