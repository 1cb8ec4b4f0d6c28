//! Output buckets: which of a network's output heads evaluates a position,
//! chosen by the material on the board (Stockfish's `(pieces − 1) / 4`,
//! counted without the two generals, which never leave the board).
//!
//! The engine ([`super::Network::output`]) and the trainer
//! (`janggi-tools train --output-buckets N`) both go through
//! [`output_bucket`], so a network is always read the way it was trained.
//!
//! ```
//! use janggi_search::nnue::bucket::{output_bucket, position_bucket, MAX_BUCKETS};
//! use janggi_core::Position;
//! assert_eq!(position_bucket(&Position::startpos(), MAX_BUCKETS), 7);
//! assert_eq!(output_bucket(0, MAX_BUCKETS), 0);
//! assert_eq!(output_bucket(30, 1), 0);
//! ```

use janggi_core::Position;

/// The most output heads a network has (and the number the formula
/// distinguishes: 0–30 pieces give buckets 0–7).
pub const MAX_BUCKETS: usize = 8;

/// The output head for a position with `pieces` pieces on the board, the
/// two generals not counted (0..=30), in a network of `buckets` heads
/// (1..=[`MAX_BUCKETS`]): `(pieces − 1) / 4` (0 for no piece), at most
/// `buckets − 1`. One head: always 0.
///
/// | pieces | 0–4 | 5–8 | 9–12 | 13–16 | 17–20 | 21–24 | 25–28 | 29–30 |
/// |---|---|---|---|---|---|---|---|---|
/// | bucket | 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 |
#[inline]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let b = (pieces.saturating_sub(1) / 4) as usize;
    b.min(buckets.clamp(1, MAX_BUCKETS) - 1)
}

/// Pieces on the board of `pos` other than the two generals.
#[inline]
pub fn pieces_without_generals(pos: &Position) -> u32 {
    pos.occupied().count().saturating_sub(2)
}

/// [`output_bucket`] of `pos` (a popcount, no allocation).
#[inline]
pub fn position_bucket(pos: &Position, buckets: usize) -> usize {
    output_bucket(pieces_without_generals(pos), buckets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_the_last_bucket() {
        let pos = Position::startpos();
        assert_eq!(pieces_without_generals(&pos), 30);
        assert_eq!(position_bucket(&pos, MAX_BUCKETS), 7);
        assert_eq!(position_bucket(&pos, 1), 0);
        assert_eq!(position_bucket(&pos, 3), 2);
    }

    #[test]
    fn bare_generals_are_bucket_zero() {
        let bare = Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        assert_eq!(pieces_without_generals(&bare), 0);
        assert_eq!(position_bucket(&bare, MAX_BUCKETS), 0);
        let one = Position::from_fen("4k4/9/9/9/9/9/9/4R4/9/4K4 w - - 0 1").unwrap();
        assert_eq!(pieces_without_generals(&one), 1);
        assert_eq!(position_bucket(&one, MAX_BUCKETS), 0);
    }

    #[test]
    fn formula_table() {
        let want = [
            0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6,
            7, 7,
        ];
        for (pieces, &b) in want.iter().enumerate() {
            assert_eq!(
                output_bucket(pieces as u32, MAX_BUCKETS),
                b,
                "{pieces} pieces"
            );
        }
        // Beyond the board's 30 pieces and beyond 8 heads, still clamped.
        assert_eq!(output_bucket(40, MAX_BUCKETS), 7);
        assert_eq!(output_bucket(40, 100), 7);
        assert_eq!(output_bucket(40, 0), 0);
    }
}
