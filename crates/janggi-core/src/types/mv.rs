//! Moves: a from/to pair or the pass (한수쉼), packed in 16 bits.
//!
//! Layout of the `NonZeroU16`: the low byte is the from-point's index, the
//! high byte the to-point's, so that reading either is one byte move (the
//! search reads them millions of times a second). A real move never has
//! `from == to`, so no real move is 0 and none is the pass, the reserved
//! value with both bytes 37 ([`Move::PASS`]; any point index would do, 37
//! is what the pass's points have always read as).

use super::square::Square;
use std::fmt;
use std::num::NonZeroU16;

/// A move or the pass. `size_of::<Option<Move>>() == 2`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

/// The pass's point index in both bytes.
const PASS_POINT: u16 = 37;
const PASS_BITS: u16 = PASS_POINT | PASS_POINT << 8;

impl Move {
    /// The pass (한수쉼). In UCI text it is the mover's general square twice.
    pub const PASS: Move = match NonZeroU16::new(PASS_BITS) {
        Some(v) => Move(v),
        None => panic!("pass bits are non-zero"),
    };

    /// A move from `from` to `to`; `None` when `from == to` (that text is a pass).
    #[inline]
    pub const fn new(from: Square, to: Square) -> Option<Move> {
        if from.index() == to.index() {
            return None;
        }
        match NonZeroU16::new(from.index() as u16 | (to.index() as u16) << 8) {
            Some(v) => Some(Move(v)),
            None => None,
        }
    }

    /// A move between two different squares.
    ///
    /// # Panics
    /// In debug builds, if `from == to`.
    #[inline]
    pub fn new_unchecked(from: Square, to: Square) -> Move {
        debug_assert!(from != to);
        let bits = from.index() as u16 | (to.index() as u16) << 8;
        Move(NonZeroU16::new(bits).unwrap_or(NonZeroU16::MIN))
    }

    /// Whether this is the pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.0.get() == PASS_BITS
    }

    /// Origin square (meaningless for the pass).
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked(self.0.get() as u8)
    }

    /// Destination square (meaningless for the pass).
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0.get() >> 8) as u8)
    }

    /// Raw 16-bit value (for packing into hash entries).
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0.get()
    }

    /// Rebuilds a move from [`Move::bits`]; `None` for invalid bits.
    pub fn from_bits(bits: u16) -> Option<Move> {
        if bits == PASS_BITS {
            return Some(Move::PASS);
        }
        let from = Square::from_index(usize::from(bits & 0xFF))?;
        let to = Square::from_index(usize::from(bits >> 8))?;
        Move::new(from, to)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            f.write_str("pass")
        } else {
            write!(f, "{}{}", self.from(), self.to())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout() {
        assert_eq!(std::mem::size_of::<Option<Move>>(), 2);
        assert!(Move::PASS.is_pass());
        for a in Square::ALL {
            for b in Square::ALL {
                match Move::new(a, b) {
                    None => assert_eq!(a, b),
                    Some(m) => {
                        assert!(!m.is_pass());
                        assert_eq!((m.from(), m.to()), (a, b));
                        assert_eq!(Move::from_bits(m.bits()), Some(m));
                    }
                }
            }
        }
        assert_eq!(Move::from_bits(Move::PASS.bits()), Some(Move::PASS));
        assert_eq!(Move::from_bits(0), None);
        assert_eq!(Move::from_bits(90 | 3 << 8), None);
        assert_eq!(Move::from_bits(3 | 90 << 8), None);
        assert_eq!(
            (Move::PASS.from().index(), Move::PASS.to().index()),
            (37, 37)
        );
        // Every 16-bit value is refused or gives back a move whose points
        // are on the board and whose bits are the value itself.
        let mut valid = 0;
        for bits in 0..=u16::MAX {
            if let Some(m) = Move::from_bits(bits) {
                assert_eq!(m.bits(), bits);
                assert!(m.from().index() < 90 && m.to().index() < 90);
                valid += 1;
            }
        }
        assert_eq!(valid, 90 * 89 + 1);
    }
}
