//! A set of squares as a 90-bit mask on `u128`. Bits 90 and above are always zero.

use super::square::{Square, NUM_SQUARES};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of board squares; bit `i` is square index `i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

/// The mask of the 90 valid bits.
pub(crate) const BOARD_MASK: u128 = (1u128 << NUM_SQUARES) - 1;

/// `SQUARE_BITS[i]`: the set of point `i` alone. On x86-64 a load is
/// cheaper than a 128-bit shift by a variable amount, which takes about
/// eight instructions.
const SQUARE_BITS: [Bitboard; NUM_SQUARES] = {
    let mut t = [Bitboard(0); NUM_SQUARES];
    let mut i = 0;
    while i < NUM_SQUARES {
        t[i] = Bitboard(1u128 << i);
        i += 1;
    }
    t
};

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 squares.
    pub const FULL: Bitboard = Bitboard(BOARD_MASK);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        SQUARE_BITS[sq.index()]
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | SQUARE_BITS[sq.index()].0)
    }

    /// The set with `sq` removed.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !SQUARE_BITS[sq.index()].0)
    }

    /// The lowest square of the set, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// Iterates the squares, lowest index first.
    #[inline]
    pub fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

/// Iterator over the squares of a [`Bitboard`].
pub struct BitboardIter(u128);

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(Square::from_index_unchecked(i as u8))
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 90 board squares (bits ≥ 90 stay zero).
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & BOARD_MASK)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the 9×10 grid, rank 10 on top, `x` for a member.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in (0..10).rev() {
            for file in 0..9 {
                let sq = Square::new(file, rank).ok_or(fmt::Error)?;
                f.write_str(if self.contains(sq) { "x" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Draws a bitboard as a 9×10 grid in tests: ten rows of nine characters,
/// rank 10 first; `x` marks a member, `.` a non-member.
///
/// ```
/// use janggi_core::bitboard;
/// let b = bitboard!(
///     "........."
///     "........."
///     "........."
///     "........."
///     "........."
///     "........."
///     "........."
///     "........."
///     "....x...."
///     "x........"
/// );
/// assert_eq!(b.count(), 2);
/// ```
#[macro_export]
macro_rules! bitboard {
    ($($row:literal)*) => {{
        let rows: &[&str] = &[$($row),*];
        assert_eq!(rows.len(), 10, "bitboard! needs 10 rows");
        let mut bb = $crate::Bitboard::EMPTY;
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row.len(), 9, "bitboard! rows have 9 columns");
            for (file, c) in row.bytes().enumerate() {
                if c == b'x' {
                    let sq = $crate::Square::new(file as u8, 9 - i as u8).unwrap();
                    bb = bb.with(sq);
                }
            }
        }
        bb
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_stays_in_board() {
        assert_eq!((!Bitboard::EMPTY).count(), 90);
        assert_eq!((!Bitboard::FULL), Bitboard::EMPTY);
        assert_eq!((!Bitboard::EMPTY).0 >> 90, 0);
    }

    #[test]
    fn iter_and_collect() {
        let sqs = [Square::ALL[0], Square::ALL[45], Square::ALL[89]];
        let b: Bitboard = sqs.iter().copied().collect();
        assert_eq!(b.iter().collect::<Vec<_>>(), sqs.to_vec());
        assert_eq!(b.first(), Some(Square::ALL[0]));
        assert!(b.without(Square::ALL[45]).count() == 2);
    }
}
