//! Material (기물 가치) in centipawns, tapered between the middlegame and
//! the endgame.
//!
//! The counting points of the rules (chariot 13, cannon 7, horse 5,
//! elephant 3, guard 3, soldier 2) are the starting point, times 100. Two
//! kinds change with the phase: the cannon needs screens and weakens as the
//! board empties, the horse gains room and grows.

use crate::rules::Position;
use crate::types::{ByKind, Color, PieceKind};

/// Middlegame value per kind.
pub const MG: ByKind<i32> = ByKind([0, 280, 280, 470, 1300, 780, 180]);
/// Endgame value per kind.
pub const EG: ByKind<i32> = ByKind([0, 260, 300, 560, 1300, 580, 240]);

/// Phase weight per kind (how much of the middlegame a piece represents).
const PHASE_WEIGHT: ByKind<i32> = ByKind([0, 0, 1, 2, 4, 3, 0]);
/// The phase with every piece on the board.
pub const PHASE_MAX: i32 = 2 * 2 * (1 + 2 + 4 + 3);

/// The game phase: [`PHASE_MAX`] at the start, 0 with no chariot, cannon,
/// horse or elephant left.
pub fn phase(pos: &Position) -> i32 {
    let mut p = 0;
    for k in PieceKind::ALL {
        p += PHASE_WEIGHT[k] * pos.kind_bb(k).count() as i32;
    }
    p.min(PHASE_MAX)
}

/// Blends a middlegame and an endgame value by `phase`.
#[inline]
pub fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// Material of `color` in centipawns at `phase`.
pub fn material(pos: &Position, color: Color, phase: i32) -> i32 {
    let mut mg = 0;
    let mut eg = 0;
    for k in PieceKind::ALL {
        let n = pos.pieces(color, k).count() as i32;
        mg += MG[k] * n;
        eg += EG[k] * n;
    }
    taper(mg, eg, phase)
}

/// The centipawn value of a piece of `kind` for move ordering and pruning
/// margins (middlegame value; the general gets a large value).
#[inline]
pub const fn piece_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::General => 5000,
        _ => MG.0[kind as usize],
    }
}
