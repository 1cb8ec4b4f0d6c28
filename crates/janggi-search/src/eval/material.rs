//! Material (기물 가치) in centipawns, tapered between the middlegame and
//! the endgame.
//!
//! The values themselves are weights ([`super::weights`], `MAT_MG`/`MAT_EG`);
//! the hand-set ones start from the counting points of the rules (chariot
//! 13, cannon 7, horse 5, elephant 3, guard 3, soldier 2), times 100. This
//! module holds the game phase that blends them and the fixed values the
//! search orders moves by.

use janggi_core::{ByKind, PieceKind, Position};

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

/// Piece values for move ordering and pruning margins, by kind: the
/// hand-set middlegame values. They stay fixed when the evaluation weights
/// are tuned, so that tuning does not silently retune the search.
const ORDER_VALUE: ByKind<i32> = ByKind([5000, 280, 280, 470, 1300, 780, 180]);

/// The centipawn value of a piece of `kind` for move ordering and pruning
/// margins (the hand-set middlegame value; the general gets a large value).
#[inline]
pub const fn piece_value(kind: PieceKind) -> i32 {
    ORDER_VALUE.0[kind.index()]
}
