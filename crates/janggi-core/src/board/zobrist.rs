//! Zobrist keys: one random 64-bit key per (piece, square) and one for the
//! side to move, generated at compile time from a fixed seed (SplitMix64) so
//! keys — and with them the `bench` signature — are identical on every build.

use crate::rng::splitmix64;
use crate::types::{Piece, Square};

const SEED: u64 = 0x4A41_4E47_4749_2024; // "JANGGI" + year

struct Keys {
    piece: [[u64; 90]; 14],
    side: u64,
}

static KEYS: Keys = {
    let mut piece = [[0u64; 90]; 14];
    let mut state = SEED;
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < 90 {
            let (ns, v) = splitmix64(state);
            state = ns;
            piece[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix64(state);
    Keys { piece, side }
};

/// Key of `piece` standing on `sq`.
#[inline]
pub(crate) fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.piece[piece.index()][sq.index()]
}

/// Key toggled when Han is to move.
#[inline]
pub(crate) fn side_key() -> u64 {
    KEYS.side
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Color, PieceKind};

    #[test]
    fn keys_are_distinct() {
        let mut all = std::collections::HashSet::new();
        for c in Color::BOTH {
            for k in PieceKind::ALL {
                for s in Square::ALL {
                    assert!(all.insert(piece_key(Piece::new(c, k), s)));
                }
            }
        }
        assert!(all.insert(side_key()));
    }
}
