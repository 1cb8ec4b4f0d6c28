//! Correction history of the static evaluation: how far the searched
//! score of recent nodes lay from their static evaluation, remembered per
//! soldier structure and per material balance (the two things a position's
//! evaluation error follows most, as in Stockfish), and added back to the
//! static evaluation of the next node with the same structure.
//!
//! Only the pruning decisions see the corrected value; the hash table
//! keeps the network's own evaluation, so a correction never feeds on
//! itself.

use janggi_core::{Color, PieceKind, Position};

/// Entries per table and side (a power of two).
const SIZE: usize = 16_384;
/// Stored values are centipawns × `GRAIN`.
const GRAIN: i32 = 256;
/// A correction never moves the evaluation by more than this (centipawns):
/// the most `SearchParams::corr_max` accepts.
pub const MAX_CORRECTION: i32 = 1000;
/// The update's weight is at most this many 256ths.
const MAX_WEIGHT: i32 = 16;

/// The correction tables of one search thread.
#[derive(Clone, Debug)]
pub struct Correction {
    soldiers: Vec<i32>,
    material: Vec<i32>,
    /// Whether an update wrote the tables since the last clear (the
    /// correction is off by default: 256 KB not zeroed for nothing).
    used: bool,
}

impl Default for Correction {
    fn default() -> Self {
        Correction::new()
    }
}

#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The slots of `pos` (side to move included) in the two tables.
#[inline]
fn slots(pos: &Position) -> (usize, usize) {
    let us = pos.side_to_move();
    let cho = pos.pieces(Color::Cho, PieceKind::Soldier).0;
    let han = pos.pieces(Color::Han, PieceKind::Soldier).0;
    let soldiers =
        mix(cho as u64 ^ mix((cho >> 64) as u64 ^ mix(han as u64 ^ mix((han >> 64) as u64))));
    let mut counts = 0u64;
    for color in Color::BOTH {
        for kind in PieceKind::ALL {
            if kind != PieceKind::General {
                counts = counts << 3 | u64::from(pos.pieces(color, kind).count().min(7));
            }
        }
    }
    let side = us.index() * SIZE;
    (
        side + (soldiers as usize & (SIZE - 1)),
        side + (mix(counts) as usize & (SIZE - 1)),
    )
}

impl Correction {
    /// Empty tables.
    pub fn new() -> Correction {
        Correction {
            soldiers: vec![0; 2 * SIZE],
            material: vec![0; 2 * SIZE],
            used: false,
        }
    }

    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        if !std::mem::take(&mut self.used) {
            return;
        }
        self.soldiers.iter_mut().for_each(|e| *e = 0);
        self.material.iter_mut().for_each(|e| *e = 0);
    }

    /// The correction (centipawns, at most `max` either way) to add to
    /// the static evaluation of `pos`.
    #[inline]
    pub fn get(&self, pos: &Position, max: i32) -> i32 {
        let (s, m) = slots(pos);
        let max = max.clamp(0, MAX_CORRECTION);
        ((self.soldiers[s] + self.material[m]) / (2 * GRAIN)).clamp(-max, max)
    }

    /// A search of `depth` found `diff` = score − corrected evaluation;
    /// `max` is the bound [`Correction::get`] is read with (the tables
    /// hold at most twice it).
    #[inline]
    pub fn update(&mut self, pos: &Position, depth: i32, diff: i32, max: i32) {
        let (s, m) = slots(pos);
        self.used = true;
        let max = max.clamp(0, MAX_CORRECTION);
        let w = (depth + 1).clamp(1, MAX_WEIGHT);
        let target = diff.clamp(-2 * max, 2 * max) * GRAIN;
        for e in [&mut self.soldiers[s], &mut self.material[m]] {
            // Moves toward the error of this node, by a weight that grows
            // with the depth that measured it; the sum of both tables is
            // what is corrected, so each learns the remaining error.
            let next = (*e * (256 - w) + (*e + target) * w) / 256;
            *e = next.clamp(-2 * max * GRAIN, 2 * max * GRAIN);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_error_is_learned_and_bounded() {
        let pos = Position::from_fen(janggi_core::START_FEN).expect("fen");
        let mut c = Correction::new();
        assert_eq!(c.get(&pos, 300), 0);
        for _ in 0..200 {
            let diff = 120 - c.get(&pos, 300);
            c.update(&pos, 10, diff, 300);
        }
        let got = c.get(&pos, 300);
        assert!((100..=120).contains(&got), "{got}");
        // A lower bound reads the same table lower.
        assert_eq!(c.get(&pos, 50), 50);
        for _ in 0..400 {
            c.update(&pos, 20, 10_000, 300);
        }
        assert_eq!(c.get(&pos, 300), 300);
        assert_eq!(
            c.get(&pos, 5_000),
            600,
            "the tables hold at most twice the bound"
        );
        for _ in 0..400 {
            c.update(&pos, 20, -10_000, 100);
        }
        assert_eq!(
            c.get(&pos, 300),
            -200,
            "updates with bound 100 keep the tables within ±200"
        );
        assert_eq!(c.get(&pos, 100), -100);
        // The other side to move has its own entries.
        let other = Position::from_fen(&janggi_core::START_FEN.replace(" w ", " b ")).expect("fen");
        assert_eq!(c.get(&other, 300), 0);
        c.clear();
        assert_eq!(c.get(&pos, 300), 0);
    }
}
