//! The search's pruning, reduction and extension parameters, in one
//! place.
//!
//! [`SearchParams::default`] is what the engine plays with. Tuning builds
//! (`cargo build --release --features tune`) add a `SearchTune` option
//! that sets any of them by name, so that one binary plays every variant
//! of a tuning match (`option.SearchTune=lmr_div=200 lmp_depth=8`); the
//! shipped engine has no such option and always uses the defaults.
//!
//! ```
//! use janggi_search::search::params::SearchParams;
//! let mut p = SearchParams::default();
//! p.apply("rfp_margin=150 lmr_div=200").unwrap();
//! assert_eq!(p.get("rfp_margin"), Some(150));
//! assert!(p.apply("rfp_margin=abc").is_err());
//! assert_eq!(p.get("rfp_margin"), Some(150), "a bad list changes nothing");
//! ```

use super::correction::MAX_CORRECTION;
use std::fmt;

/// Late move reduction table, indexed by depth and move number.
pub(crate) type LmrTable = [[u8; 64]; 64];

/// One tunable: its name, the range it may take, and its field.
struct Param {
    name: &'static str,
    min: i32,
    max: i32,
    get: fn(&SearchParams) -> i32,
    set: fn(&mut SearchParams, i32),
}

macro_rules! params {
    ($($field:ident: $min:expr, $max:expr;)*) => {
        const PARAMS: &[Param] = &[$(Param {
            name: stringify!($field),
            min: $min,
            max: $max,
            get: |p| p.$field,
            set: |p, v| p.$field = v,
        }),*];
    };
}

/// The search's tunable numbers (centipawns, plies, or hundredths where
/// the name says so).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Reverse futility margin per ply of depth.
    pub rfp_margin: i32,
    /// Reverse futility pruning up to this depth.
    pub rfp_depth: i32,
    /// Late move reductions of checking moves: this many plies less
    /// (mating attacks are chains of checks; reduced, they fall below the
    /// horizon).
    pub lmr_check: i32,
    /// Reverse futility pruning only below this evaluation: in a position
    /// already won on material it would return the evaluation where the
    /// search must look for the mate (issue 33's tactics suite).
    pub rfp_max: i32,
    /// Futility pruning of quiet moves: margin base.
    pub futility_base: i32,
    /// Futility pruning of quiet moves: margin per ply.
    pub futility_per_ply: i32,
    /// Futility pruning up to this depth.
    pub futility_depth: i32,
    /// Razoring margin (depth 1).
    pub razor_margin: i32,
    /// Late move pruning (move-count pruning) up to this depth.
    pub lmp_depth: i32,
    /// Late move reduction: constant term, in hundredths of a ply.
    pub lmr_base: i32,
    /// Late move reduction: divisor of ln(depth)·ln(move number), in
    /// hundredths.
    pub lmr_div: i32,
    /// One ply less reduction per this much history.
    pub lmr_history: i32,
    /// Captures late in the order are reduced by this many plies less
    /// than quiet moves; −1: captures are never reduced.
    pub lmr_capture: i32,
    /// Null move: base reduction.
    pub nmp_base: i32,
    /// Null move: one more ply of reduction per this many plies of depth.
    pub nmp_depth_div: i32,
    /// Null move: one more ply per this much evaluation above beta (at
    /// most three).
    pub nmp_eval_div: i32,
    /// Checks are extended only above this depth.
    pub check_ext_depth: i32,
    /// … and only off an evaluation at least this far from level (or
    /// from check).
    pub check_ext_eval: i32,
    /// Internal iterative reduction from this depth.
    pub iir_depth: i32,
    /// Quiescence delta-pruning margin.
    pub delta_margin: i32,
    /// Singular extension of the hash move from this depth (4 at the
    /// least); 0: off.
    pub se_depth: i32,
    /// Singular extension: the other moves must stay this many
    /// centipawns per ply of depth below the hash score.
    pub se_margin: i32,
    /// 1: the hash score, where its bound allows, replaces the static
    /// evaluation in the pruning decisions (reverse futility, razoring,
    /// null move, futility); 0: off.
    pub tt_eval: i32,
    /// Continuation history (the moves one and two plies back): 0 off;
    /// 1 in quiet-move ordering; 2 also in the late move reductions'
    /// history term (then the sum of the three tables over twice
    /// `lmr_history`).
    pub cont_hist: i32,
    /// 1: captures ordered by capture history within MVV-LVA; 0: off.
    pub capt_hist: i32,
    /// 1: the static evaluation corrected by the correction history
    /// (soldier structure and material) in the main search and in
    /// quiescence's stand-pat; 2: in the main search only (quiescence
    /// stands on the network's own evaluation, so the scores the table
    /// learns from are not moved by its own corrections); 0: off.
    pub corr_hist: i32,
    /// The correction history moves the evaluation by at most this many
    /// centipawns (up to the tables' own `MAX_CORRECTION`).
    pub corr_max: i32,
    /// History pruning: at depth ≤ `hist_prune_depth`, quiet moves whose
    /// history (with continuation history when on) is below
    /// −`hist_prune` × depth are not searched; 0: off.
    pub hist_prune: i32,
    /// History pruning up to this depth.
    pub hist_prune_depth: i32,
    /// ProbCut: a good capture whose search 4 plies shallower beats beta
    /// by this margin cuts the node; 0: off.
    pub probcut: i32,
    /// ProbCut from this depth.
    pub probcut_depth: i32,
    lmr: LmrTable,
}

params! {
    rfp_margin: 0, 2000;
    rfp_depth: 0, 64;
    rfp_max: 0, 32_000;
    lmr_check: 0, 64;
    futility_base: 0, 5000;
    futility_per_ply: 0, 5000;
    futility_depth: 0, 64;
    razor_margin: 0, 5000;
    lmp_depth: 0, 64;
    lmr_base: -500, 500;
    lmr_div: 50, 1000;
    lmr_history: 500, 1_000_000;
    lmr_capture: -1, 10;
    nmp_base: 1, 10;
    nmp_depth_div: 1, 64;
    nmp_eval_div: 1, 5000;
    check_ext_depth: 0, 64;
    check_ext_eval: 0, 5000;
    iir_depth: 1, 64;
    delta_margin: 0, 5000;
    se_depth: 0, 64;
    se_margin: 0, 1000;
    tt_eval: 0, 1;
    cont_hist: 0, 2;
    capt_hist: 0, 1;
    corr_hist: 0, 2;
    corr_max: 1, MAX_CORRECTION;
    hist_prune: 0, 100_000;
    hist_prune_depth: 0, 64;
    probcut: 0, 5000;
    probcut_depth: 5, 64;
}

impl Default for SearchParams {
    /// The engine's values. Pruning margins are about one soldier
    /// (≈ 200 cp here) per ply, the scale Fairy-Stockfish uses for
    /// Janggi; chess-sized margins (a third of that) pruned too much:
    /// Janggi's chariots and cannons swing the evaluation by more in one
    /// move. Checks are extended only deep and off a level evaluation:
    /// checks are so common in Janggi that extending all of them blew the
    /// tree up.
    fn default() -> Self {
        let mut p = SearchParams {
            rfp_margin: 200,
            rfp_depth: 8,
            rfp_max: 32_000,
            lmr_check: 0,
            futility_base: 175,
            futility_per_ply: 155,
            futility_depth: 6,
            razor_margin: 520,
            lmp_depth: 5,
            lmr_base: 75,
            lmr_div: 225,
            lmr_history: 6000,
            lmr_capture: -1,
            nmp_base: 3,
            nmp_depth_div: 4,
            nmp_eval_div: 200,
            check_ext_depth: 6,
            check_ext_eval: 100,
            iir_depth: 4,
            delta_margin: 200,
            se_depth: 0,
            se_margin: 2,
            tt_eval: 0,
            cont_hist: 0,
            capt_hist: 0,
            corr_hist: 0,
            corr_max: 300,
            hist_prune: 0,
            hist_prune_depth: 4,
            probcut: 0,
            probcut_depth: 5,
            lmr: [[0; 64]; 64],
        };
        p.build_lmr();
        p
    }
}

/// A `SearchTune` list that does not parse: nothing was changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// An item is not `name=value`.
    Syntax(String),
    /// No parameter has this name.
    Unknown(String),
    /// The value is not an integer in the parameter's range.
    BadValue {
        /// The parameter.
        name: &'static str,
        /// The value given.
        value: String,
        /// Its range.
        min: i32,
        /// Its range.
        max: i32,
    },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::Syntax(item) => write!(f, "'{item}' is not name=value"),
            ParamError::Unknown(name) => write!(
                f,
                "no search parameter '{name}' (known: {})",
                SearchParams::names().collect::<Vec<_>>().join(", ")
            ),
            ParamError::BadValue {
                name,
                value,
                min,
                max,
            } => write!(
                f,
                "'{value}' for {name}: an integer {min}..={max} is needed"
            ),
        }
    }
}

impl std::error::Error for ParamError {}

impl SearchParams {
    /// The parameters' names, in declaration order.
    pub fn names() -> impl Iterator<Item = &'static str> {
        PARAMS.iter().map(|p| p.name)
    }

    /// The value of parameter `name`.
    pub fn get(&self, name: &str) -> Option<i32> {
        PARAMS
            .iter()
            .find(|p| p.name == name)
            .map(|p| (p.get)(self))
    }

    /// Applies a list of `name=value` items, separated by spaces or
    /// commas; `default` (alone or as an item) first restores every
    /// default. All or nothing: on an error `self` is unchanged.
    pub fn apply(&mut self, list: &str) -> Result<(), ParamError> {
        let mut next = self.clone();
        for item in list.split([' ', ',']).filter(|s| !s.is_empty()) {
            if item == "default" {
                next = SearchParams::default();
                continue;
            }
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| ParamError::Syntax(item.to_string()))?;
            let p = PARAMS
                .iter()
                .find(|p| p.name == name)
                .ok_or_else(|| ParamError::Unknown(name.to_string()))?;
            let v = value
                .parse::<i32>()
                .ok()
                .filter(|v| (p.min..=p.max).contains(v))
                .ok_or_else(|| ParamError::BadValue {
                    name: p.name,
                    value: value.to_string(),
                    min: p.min,
                    max: p.max,
                })?;
            (p.set)(&mut next, v);
        }
        next.build_lmr();
        *self = next;
        Ok(())
    }

    /// The parameters that differ from the defaults, as a list that
    /// [`SearchParams::apply`] reads back (`default` when none does).
    pub fn changed(&self) -> String {
        let d = SearchParams::default();
        let items: Vec<String> = PARAMS
            .iter()
            .filter(|p| (p.get)(self) != (p.get)(&d))
            .map(|p| format!("{}={}", p.name, (p.get)(self)))
            .collect();
        if items.is_empty() {
            "default".to_string()
        } else {
            items.join(" ")
        }
    }

    /// The reduction table.
    #[inline]
    pub(crate) fn lmr(&self) -> &LmrTable {
        &self.lmr
    }

    /// Rebuilds the reduction table: `base + ln d · ln m / div`, in whole
    /// plies (computed once per change: a search used to rebuild it with
    /// 4,000 logarithms each time, 3 % of datagen's instructions).
    fn build_lmr(&mut self) {
        let base = f64::from(self.lmr_base) / 100.0;
        let div = f64::from(self.lmr_div) / 100.0;
        for (d, row) in self.lmr.iter_mut().enumerate() {
            for (m, r) in row.iter_mut().enumerate() {
                *r = if d == 0 || m == 0 {
                    0
                } else {
                    let v = base + (d as f64).ln() * (m as f64).ln() / div;
                    v.clamp(0.0, 63.0) as u8
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_table_is_the_old_formula() {
        let p = SearchParams::default();
        for d in 1..64usize {
            for m in 1..64usize {
                let old = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25).max(0.0) as u8;
                assert_eq!(p.lmr()[d][m], old, "depth {d}, move {m}");
            }
        }
        assert_eq!(p.lmr()[0][10], 0);
        assert_eq!(p.lmr()[10][0], 0);
    }

    #[test]
    fn apply_sets_named_values_and_rebuilds_the_table() {
        let mut p = SearchParams::default();
        let before = p.lmr()[20][20];
        p.apply("lmr_div=150, lmp_depth=8").unwrap();
        assert_eq!(p.get("lmr_div"), Some(150));
        assert_eq!(p.get("lmp_depth"), Some(8));
        assert!(p.lmr()[20][20] > before);
        assert_eq!(p.changed(), "lmp_depth=8 lmr_div=150");
        let mut q = SearchParams::default();
        q.apply(&p.changed()).unwrap();
        assert_eq!(q, p);
        p.apply("default").unwrap();
        assert_eq!(p, SearchParams::default());
        assert_eq!(p.changed(), "default");
    }

    #[test]
    fn a_bad_list_changes_nothing() {
        let mut p = SearchParams::default();
        p.apply("rfp_margin=150").unwrap();
        let kept = p.clone();
        for bad in [
            "rfp_margin=150 lmr_div=20",
            "lmr_div=200 nosuch=3",
            "lmr_div",
            "lmr_div=2.5",
            "rfp_depth=-1",
        ] {
            let e = p.apply(bad).unwrap_err();
            assert!(!e.to_string().is_empty());
            assert_eq!(p, kept, "{bad}");
        }
        assert!(matches!(
            p.apply("nosuch=1"),
            Err(ParamError::Unknown(n)) if n == "nosuch"
        ));
        assert!(matches!(
            p.apply("lmr_div=20"),
            Err(ParamError::BadValue {
                name: "lmr_div",
                min: 50,
                ..
            })
        ));
    }

    #[test]
    fn every_name_reads_back_what_was_set() {
        for name in SearchParams::names() {
            let p = PARAMS.iter().find(|p| p.name == name).unwrap();
            let mut s = SearchParams::default();
            s.apply(&format!("{name}={}", p.max)).unwrap();
            assert_eq!(s.get(name), Some(p.max));
            s.apply(&format!("{name}={}", p.min)).unwrap();
            assert_eq!(s.get(name), Some(p.min));
        }
    }
}
