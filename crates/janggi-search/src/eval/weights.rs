//! Evaluation weights (평가 가중치): one flat vector of integers, so that a
//! tuner can treat the evaluation as a linear function of them.
//!
//! Every parameter belongs to one [`Taper`] class: middlegame (`Mg`, scaled
//! by `phase / PHASE_MAX`), endgame (`Eg`, scaled by
//! `(PHASE_MAX - phase) / PHASE_MAX`) or flat. Given the position, the
//! evaluation is `Σ weight[i] · coefficient[i]`; [`super::features`]
//! returns the coefficients. The hot path uses the `const` [`DEFAULT`], so
//! the compiler sees the numbers.
//!
//! The layout (offsets below) is fixed; the `texel` tool writes fitted
//! weights in the same order to `crates/janggi-search/src/eval/tuned.rs` (`tools/texel.md`).

use super::pst;

/// How a parameter is scaled by the game phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Taper {
    /// Full weight with every piece on the board, none at phase 0.
    Mg,
    /// Full weight at phase 0, none with every piece on the board.
    Eg,
    /// Not scaled.
    Flat,
}

/// Material, middlegame, by kind (`ByKind` order; the general's entry is
/// unused: both sides always have one).
pub const MAT_MG: usize = 0;
/// Material, endgame, by kind.
pub const MAT_EG: usize = MAT_MG + 7;
/// Piece-square tables, middlegame: kind × rank (own view) × folded file
/// (0..5). The endgame tables are at [`PST_EG`].
pub const PST: usize = MAT_EG + 7;
/// Per reachable point of a chariot.
pub const MOB_CHARIOT: usize = PST + 7 * pst::PER_KIND;
/// Per reachable point of a cannon.
pub const MOB_CANNON: usize = MOB_CHARIOT + 1;
/// Per free horse jump beyond three.
pub const MOB_HORSE: usize = MOB_CANNON + 1;
/// Per free elephant jump beyond two.
pub const MOB_ELEPHANT: usize = MOB_HORSE + 1;
/// A cannon with no screen on any line.
pub const CANNON_NO_SCREEN: usize = MOB_ELEPHANT + 1;
/// Per own chariot, cannon, horse or soldier in the enemy palace zone.
pub const PALACE_ATTACKER: usize = CANNON_NO_SCREEN + 1;
/// Per such attacker times missing enemy guards.
pub const PALACE_ATTACKER_MISSING: usize = PALACE_ATTACKER + 1;
/// Per enemy palace point reached by an own chariot, cannon or horse (mg, eg).
pub const PALACE_PRESSURE: usize = PALACE_ATTACKER_MISSING + 1;
/// Per pair of own soldiers side by side (they guard each other) (mg, eg).
pub const SOLDIER_PAIR: usize = PALACE_PRESSURE + 2;
/// Per extra own soldier on one file (mg, eg).
pub const SOLDIER_DOUBLED: usize = SOLDIER_PAIR + 2;
/// Per soldier whose forward point holds an own piece (mg, eg).
pub const SOLDIER_BLOCKED: usize = SOLDIER_DOUBLED + 2;
/// Per soldier inside the enemy palace (mg, eg).
pub const SOLDIER_IN_PALACE: usize = SOLDIER_BLOCKED + 2;
/// Per enemy chariot on a line through the own general with at most one
/// piece between (mg, eg).
pub const EXPOSED_CHARIOT: usize = SOLDIER_IN_PALACE + 2;
/// Per enemy cannon on a line through the own general with one or two
/// pieces between (mg, eg).
pub const EXPOSED_CANNON: usize = EXPOSED_CHARIOT + 2;
/// Per own guard missing (mg, eg).
pub const MISSING_GUARD: usize = EXPOSED_CANNON + 2;
/// Leading the count (counting points, Han with the 1.5 deom), endgame only.
pub const COUNT_LEAD: usize = MISSING_GUARD + 2;
/// Per half point of count lead (capped at [`COUNT_MARGIN_CAP`]), endgame only.
pub const COUNT_MARGIN: usize = COUNT_LEAD + 1;
/// Per piece of the side to move, by kind, that an enemy piece attacks and
/// no own piece defends (the opponent threatens to win it).
pub const THREAT_HANGING: usize = COUNT_MARGIN + 1;
/// Per piece of the side to move, by kind, that is defended but attacked
/// by an enemy piece worth less.
pub const THREAT_LESSER: usize = THREAT_HANGING + 7;
/// The side to move has two or more pieces threatened in those ways (one
/// move rarely saves both).
pub const THREAT_MULTI: usize = THREAT_LESSER + 7;
/// Per attack unit on the enemy palace, by the number of attacking pieces
/// (1, 2, 3, 4 or more) (mg, eg pairs).
pub const KING_ATTACK: usize = THREAT_MULTI + 1;
/// Attacker-count buckets of [`KING_ATTACK`].
pub const KING_ATTACK_BUCKETS: i32 = 4;
/// Piece-square tables, endgame (the layout of [`PST`]).
pub const PST_EG: usize = KING_ATTACK + 2 * KING_ATTACK_BUCKETS as usize;
/// Per piece, by the number of points it reaches (capped at
/// [`MOB_TABLE_LEN`] − 1), on top of the linear mobility weights: chariot,
/// cannon, horse, elephant tables in that order, (mg, eg) pairs. They let
/// a piece with almost no moves cost more than the linear term says, and
/// mobility count differently in the endgame.
pub const MOB_TABLE: usize = PST_EG + 7 * pst::PER_KIND;
/// Entries per kind in [`MOB_TABLE`] (chariot, cannon, horse, elephant).
pub const MOB_TABLE_LEN: [usize; 4] = [21, 21, 9, 9];
/// Offsets of the kinds' tables in [`MOB_TABLE`], in entries.
pub const MOB_TABLE_OFFSET: [usize; 4] = [0, 21, 42, 51];
/// Number of parameters.
pub const NUM_PARAMS: usize = MOB_TABLE + 2 * 60;

/// The count margin (in half points) beyond which the counting term stops
/// growing: material terms already cover large leads.
pub const COUNT_MARGIN_CAP: i32 = 20;

/// The weight vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights(pub [i32; NUM_PARAMS]);

/// Kind names for parameter names, in `ByKind` order.
const KIND_NAMES: [&str; 7] = [
    "general", "guard", "elephant", "horse", "chariot", "cannon", "soldier",
];

/// `Mg` for the first of an (mg, eg) pair that starts at `start`, else `Eg`.
const fn pair_taper(i: usize, start: usize) -> Taper {
    if (i - start).is_multiple_of(2) {
        Taper::Mg
    } else {
        Taper::Eg
    }
}

/// The taper class of parameter `i`.
pub const fn taper(i: usize) -> Taper {
    if i < MAT_EG {
        Taper::Mg
    } else if i < PST {
        Taper::Eg
    } else if i < MOB_CHARIOT {
        Taper::Mg
    } else if i < PALACE_PRESSURE {
        Taper::Flat
    } else if i < COUNT_LEAD {
        pair_taper(i, PALACE_PRESSURE)
    } else if i < THREAT_HANGING {
        Taper::Eg
    } else if i < KING_ATTACK {
        Taper::Flat
    } else if i < PST_EG {
        pair_taper(i, KING_ATTACK)
    } else if i < MOB_TABLE {
        Taper::Eg
    } else {
        pair_taper(i, MOB_TABLE)
    }
}

/// A readable name of parameter `i` (for the tuner's output).
pub fn name(i: usize) -> String {
    let phase = |j: usize, start: usize| match pair_taper(j, start) {
        Taper::Mg => "mg",
        _ => "eg",
    };
    let pair = |base: &str, j: usize, start: usize| format!("{base}_{}", phase(j, start));
    match i {
        _ if i < MAT_EG => format!("material_mg_{}", KIND_NAMES[i - MAT_MG]),
        _ if i < PST => format!("material_eg_{}", KIND_NAMES[i - MAT_EG]),
        _ if i < MOB_CHARIOT => pst_name("mg", i - PST),
        MOB_CHARIOT => "mob_chariot".into(),
        MOB_CANNON => "mob_cannon".into(),
        MOB_HORSE => "mob_horse".into(),
        MOB_ELEPHANT => "mob_elephant".into(),
        CANNON_NO_SCREEN => "cannon_no_screen".into(),
        PALACE_ATTACKER => "palace_attacker".into(),
        PALACE_ATTACKER_MISSING => "palace_attacker_missing".into(),
        _ if i < SOLDIER_PAIR => pair("palace_pressure", i, PALACE_PRESSURE),
        _ if i < SOLDIER_DOUBLED => pair("soldier_pair", i, SOLDIER_PAIR),
        _ if i < SOLDIER_BLOCKED => pair("soldier_doubled", i, SOLDIER_DOUBLED),
        _ if i < SOLDIER_IN_PALACE => pair("soldier_blocked", i, SOLDIER_BLOCKED),
        _ if i < EXPOSED_CHARIOT => pair("soldier_in_palace", i, SOLDIER_IN_PALACE),
        _ if i < EXPOSED_CANNON => pair("exposed_chariot", i, EXPOSED_CHARIOT),
        _ if i < MISSING_GUARD => pair("exposed_cannon", i, EXPOSED_CANNON),
        _ if i < COUNT_LEAD => pair("missing_guard", i, MISSING_GUARD),
        COUNT_LEAD => "count_lead".into(),
        COUNT_MARGIN => "count_margin".into(),
        _ if i < THREAT_LESSER => format!("threat_hanging_{}", KIND_NAMES[i - THREAT_HANGING]),
        _ if i < THREAT_MULTI => format!("threat_lesser_{}", KIND_NAMES[i - THREAT_LESSER]),
        THREAT_MULTI => "threat_multi".into(),
        _ if i < PST_EG => {
            let n = (i - KING_ATTACK) / 2 + 1;
            format!("king_attack_{n}_{}", phase(i, KING_ATTACK))
        }
        _ if i < MOB_TABLE => pst_name("eg", i - PST_EG),
        _ if i < NUM_PARAMS => {
            let j = (i - MOB_TABLE) / 2;
            let k = MOB_TABLE_OFFSET.iter().rposition(|&o| o <= j).unwrap_or(0);
            let kind = ["chariot", "cannon", "horse", "elephant"][k];
            let n = j - MOB_TABLE_OFFSET[k];
            format!("mob_table_{kind}_{n}_{}", phase(i, MOB_TABLE))
        }
        _ => format!("unknown_{i}"),
    }
}

/// The name of entry `j` of a piece-square table block (`mg` or `eg`).
fn pst_name(phase: &str, j: usize) -> String {
    let k = j / pst::PER_KIND;
    let r = (j % pst::PER_KIND) / pst::FOLDED_FILES;
    let f = j % pst::FOLDED_FILES;
    format!("pst_{phase}_{}_r{}_f{}", KIND_NAMES[k], r + 1, f)
}

/// The hand-set weights the engine started from (material from the
/// counting points, drawn piece-square tables, small Janggi terms).
pub const HANDCRAFTED: Weights = {
    let mut w = [0i32; NUM_PARAMS];
    let mg = [0, 280, 280, 470, 1300, 780, 180];
    let eg = [0, 260, 300, 560, 1300, 580, 240];
    let mut k = 0;
    while k < 7 {
        w[MAT_MG + k] = mg[k];
        w[MAT_EG + k] = eg[k];
        k += 1;
    }
    let mut j = 0;
    while j < 7 * pst::PER_KIND {
        w[PST + j] = pst::HANDCRAFTED[j] as i32;
        w[PST_EG + j] = pst::HANDCRAFTED[j] as i32;
        j += 1;
    }
    w[MOB_CHARIOT] = 3;
    w[MOB_CANNON] = 3;
    w[MOB_HORSE] = 4;
    w[MOB_ELEPHANT] = 2;
    w[CANNON_NO_SCREEN] = -25;
    w[PALACE_ATTACKER] = 12;
    w[PALACE_ATTACKER_MISSING] = 10;
    w[PALACE_PRESSURE] = 3;
    w[PALACE_PRESSURE + 1] = 1;
    w[SOLDIER_PAIR] = 8;
    w[SOLDIER_PAIR + 1] = 15;
    w[SOLDIER_DOUBLED] = -10;
    w[SOLDIER_DOUBLED + 1] = -20;
    w[SOLDIER_BLOCKED] = -5;
    w[SOLDIER_BLOCKED + 1] = -10;
    w[SOLDIER_IN_PALACE] = 0;
    w[SOLDIER_IN_PALACE + 1] = 20;
    w[EXPOSED_CHARIOT] = -20;
    w[EXPOSED_CHARIOT + 1] = -10;
    w[EXPOSED_CANNON] = -15;
    w[EXPOSED_CANNON + 1] = -5;
    w[MISSING_GUARD] = -20;
    w[MISSING_GUARD + 1] = -10;
    w[COUNT_LEAD] = 40;
    w[COUNT_MARGIN] = 4;
    // Threats against the side to move, by kind (general unused): about a
    // tenth of the piece when defended by something worth more, a fifth
    // when hanging.
    let hanging = [0, -50, -50, -80, -220, -130, -30];
    let lesser = [0, -25, -25, -40, -110, -65, 0];
    let mut k = 0;
    while k < 7 {
        w[THREAT_HANGING + k] = hanging[k];
        w[THREAT_LESSER + k] = lesser[k];
        k += 1;
    }
    w[THREAT_MULTI] = -60;
    // Attack on the enemy palace: nothing for one piece, growing with the
    // number of pieces taking part.
    let king = [0, 0, 2, 1, 5, 2, 8, 3];
    let mut j = 0;
    while j < king.len() {
        w[KING_ATTACK + j] = king[j];
        j += 1;
    }
    Weights(w)
};

/// The weights the engine plays with.
pub const DEFAULT: Weights = super::tuned::TUNED;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_known() {
        let mut names: Vec<String> = (0..NUM_PARAMS).map(name).collect();
        assert!(names.iter().all(|n| !n.starts_with("unknown")));
        names.sort();
        names.dedup();
        assert_eq!(names.len(), NUM_PARAMS);
    }

    #[test]
    fn taper_classes() {
        assert_eq!(taper(MAT_MG + 4), Taper::Mg);
        assert_eq!(taper(MAT_EG + 4), Taper::Eg);
        assert_eq!(taper(PST + 3), Taper::Mg);
        assert_eq!(taper(PST_EG + 3), Taper::Eg);
        assert_eq!(taper(MOB_CHARIOT), Taper::Flat);
        assert_eq!(taper(CANNON_NO_SCREEN), Taper::Flat);
        assert_eq!(taper(SOLDIER_PAIR), Taper::Mg);
        assert_eq!(taper(SOLDIER_PAIR + 1), Taper::Eg);
        assert_eq!(taper(MISSING_GUARD + 1), Taper::Eg);
        assert_eq!(taper(COUNT_LEAD), Taper::Eg);
        assert_eq!(taper(COUNT_MARGIN), Taper::Eg);
        assert_eq!(taper(THREAT_HANGING + 4), Taper::Flat);
        assert_eq!(taper(THREAT_MULTI), Taper::Flat);
        assert_eq!(taper(KING_ATTACK), Taper::Mg);
        assert_eq!(taper(KING_ATTACK + 7), Taper::Eg);
        assert_eq!(taper(MOB_TABLE), Taper::Mg);
        assert_eq!(taper(MOB_TABLE + 1), Taper::Eg);
        assert_eq!(taper(NUM_PARAMS - 1), Taper::Eg);
    }
}
