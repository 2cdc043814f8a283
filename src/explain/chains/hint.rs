//! A chain hint: one kind of step, defined beside the chains that find it. It carries what SE
//! needs to rank it (rating, complexity, sort key) and, for the hint that wins, to name it,
//! describe it (`getName`, `toString`) and turn it into a [`Hint`] of the path, whose
//! [`Finding`] it implements; the step type itself (`explain/hint.rs`) knows nothing of chains.

use super::*;

/// SE's name suffix for a nesting level.
pub(super) fn nested_suffix(level: u8) -> String {
    match level {
        0 => String::new(),
        1 => " (+)".into(),
        2 => " (+ Forcing Chains)".into(),
        3 => " (+ Multiple Forcing Chains)".into(),
        4 => " (+ Dynamic Forcing Chains)".into(),
        l => format!(" (+ Dynamic Forcing Chains{})", nested_suffix(l - 3)),
    }
}

/// SE's `getLengthDifficulty`: 0.1 for each rung of the ladder 4, 6, 8, 12, 16, 24, … that
/// `complexity - 2` passes.
pub(crate) fn length_difficulty(complexity: u32) -> f64 {
    let mut added = 0.0f64;
    let mut ceil: i64 = 4;
    let length = complexity as i64 - 2;
    let mut odd = false;
    while length > ceil {
        added += 0.1;
        if !odd {
            ceil = ceil * 3 / 2;
        } else {
            ceil = ceil * 4 / 3;
        }
        odd = !odd;
    }
    added
}

/// What kind of chain hint, with what SE needs to name and describe it.
#[derive(Clone, Debug)]
pub(super) enum Shape {
    Cycle {
        x: bool,
        y: bool,
        /// The cells of the cycle, in SE's display order.
        cells: Vec<usize>,
    },
    Forcing {
        x: bool,
        y: bool,
        target: Pot,
        turbot: bool,
    },
    Binary {
        src: Pot,
        dst_on: Pot,
        dst_off: Pot,
        absurd: bool,
    },
    Cell {
        src: usize,
        target: Pot,
    },
    Region {
        region: Region,
        value: u8,
        target: Pot,
    },
}

/// A chain hint as a record: enough to rank it and, for the winner, to build the step.
#[derive(Clone, Debug)]
pub(crate) struct ChainHint {
    pub(super) difficulty: f64,
    pub(super) complexity: u32,
    pub(super) sort_key: u8,
    pub(super) mode: Mode,
    pub(super) shape: Shape,
    /// Removed candidates, `(cell, mask)` ascending by cell.
    pub(super) elims: Vec<(u8, u16)>,
    pub(super) place: Option<(u8, u8)>,
    /// When the hint is found by a nested search: what the enclosing chain needs of it.
    pub(super) nest: Option<Box<NestData>>,
}

/// What a chain found inside another chain (SE's nested `ChainingHint`) hands to it.
#[derive(Clone, Debug)]
pub(super) struct NestData {
    /// SE's `getRuleParents`: the candidates the enclosing chain removed that this chain used.
    pub(super) parents: Vec<Pot>,
    /// SE's `FullChain` identity: each conclusion and the potentials behind it, in order.
    pub(super) sig: Vec<u16>,
    /// The cells of the removals in the order SE's `HashMap` of them was filled.
    pub(super) order: Vec<u8>,
}

impl ChainHint {
    /// SE's ordering of chain hints: rating, then complexity, then sort key.
    pub(crate) fn before(&self, other: &ChainHint) -> bool {
        if self.difficulty != other.difficulty {
            return self.difficulty < other.difficulty;
        }
        if self.complexity != other.complexity {
            return self.complexity < other.complexity;
        }
        self.sort_key < other.sort_key
    }

    pub(crate) fn name(&self) -> String {
        let m = self.mode;
        match &self.shape {
            Shape::Cycle { x, y, cells } => {
                if *x && *y {
                    "Bidirectional Cycle".into()
                } else if *y {
                    "Bidirectional Y-Cycle".into()
                } else if cells.len() == 4 {
                    "Generalized X-Wing".into()
                } else {
                    "Bidirectional X-Cycle".into()
                }
            }
            Shape::Forcing { x, y, turbot, .. } => {
                if *x && *y {
                    "Forcing Chain".into()
                } else if *y {
                    "Forcing Y-Chain".into()
                } else if *turbot {
                    "Turbot Fish".into()
                } else {
                    "Forcing X-Chain".into()
                }
            }
            Shape::Binary { absurd, .. } => {
                let kind = if m.nishio {
                    "Forcing"
                } else if *absurd {
                    "Contradiction Forcing"
                } else {
                    "Double Forcing"
                };
                format!("{}{}{}", m.name_prefix(), kind, m.name_suffix())
            }
            Shape::Cell { .. } => format!("{}Cell Forcing{}", m.name_prefix(), m.name_suffix()),
            Shape::Region { .. } => {
                format!("{}Region Forcing{}", m.name_prefix(), m.name_suffix())
            }
        }
    }

    pub(crate) fn text(&self) -> String {
        let onoff = |p: Pot| if pot_on(p) { " on" } else { " off" };
        match &self.shape {
            Shape::Cycle { cells, .. } => {
                let names: Vec<String> = cells.iter().map(|&c| cell_name(c)).collect();
                format!("{}: {}", self.name(), names.join(","))
            }
            Shape::Forcing { target, .. } => {
                format!("{}: {}{}", self.name(), pot_name(*target), onoff(*target))
            }
            Shape::Binary {
                src,
                dst_on,
                dst_off,
                absurd,
            } => {
                if self.mode.nishio {
                    format!(
                        "Nishio Forcing Chain: {}{} ==> {} both on & off",
                        pot_name(*src),
                        onoff(*src),
                        pot_name(*dst_off)
                    )
                } else if *absurd {
                    format!(
                        "Contradiction Forcing Chain: {}{} ==> {} both on & off",
                        pot_name(*src),
                        onoff(*src),
                        pot_name(*dst_off)
                    )
                } else {
                    format!(
                        "Double Forcing Chain: {} on & off ==> {}{}",
                        pot_name(*src),
                        pot_name(*dst_on),
                        onoff(*dst_on)
                    )
                }
            }
            Shape::Cell { src, target } => format!(
                "Cell Forcing Chains: {} ==> {}{}",
                cell_name(*src),
                pot_name(*target),
                onoff(*target)
            ),
            Shape::Region {
                region,
                value,
                target,
            } => format!(
                "Region Forcing Chains: {} in {} ==> {}{}",
                value,
                region_kind_name(*region),
                pot_name(*target),
                onoff(*target)
            ),
        }
    }

    /// The step this hint is.
    pub(crate) fn into_hint(self) -> Hint {
        Hint {
            rating: self.difficulty,
            elims: self.elims.clone(),
            place: self.place,
            detail: Detail::Found(Box::new(self)),
        }
    }
}

impl Finding for ChainHint {
    fn name(&self) -> String {
        ChainHint::name(self)
    }

    fn text(&self) -> String {
        ChainHint::text(self)
    }

    fn boxed(&self) -> Box<dyn Finding> {
        Box::new(self.clone())
    }
}
