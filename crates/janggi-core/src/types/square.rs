//! Board squares: the 90 intersections of the 9×10 Janggi board.
//!
//! A [`Square`] is `rank * 9 + file` with file `a`..`i` = 0..8 (left to right
//! as Cho sees the board) and rank 0..9 (Cho's back rank is rank index 0, shown
//! as `1` in UCI text; Han's back rank is index 9, shown as `10`).

use std::fmt;

/// Number of files (세로줄) on the board.
pub(crate) const FILES: u8 = 9;
/// Number of ranks (가로줄) on the board.
pub(crate) const RANKS: u8 = 10;
/// Number of squares (intersections).
pub(crate) const NUM_SQUARES: usize = 90;

/// `i % 9` for every byte: a point's file by one load instead of a
/// division (the search asks for files millions of times a second).
const FILE_OF: [u8; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i % FILES as usize) as u8;
        i += 1;
    }
    t
};

/// One of the 90 board intersections.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(u8);

impl Square {
    /// Every square, `a1` first, `i10` last.
    pub const ALL: [Square; NUM_SQUARES] = {
        let mut all = [Square(0); NUM_SQUARES];
        let mut i = 0;
        while i < NUM_SQUARES {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square at `file` (0..9) and `rank` (0..10), if on the board.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// The square with index `i` (0..90), if on the board.
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < NUM_SQUARES {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Builds a square from an index known to be below 90.
    ///
    /// # Panics
    /// In debug builds, if `i >= 90`.
    #[inline]
    pub const fn from_index_unchecked(i: u8) -> Square {
        debug_assert!((i as usize) < NUM_SQUARES);
        Square(i)
    }

    /// Index 0..90.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..9 (`a`..`i`).
    #[inline]
    pub const fn file(self) -> u8 {
        FILE_OF[self.0 as usize]
    }

    /// Rank 0..10 (Cho's back rank is 0).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The square `df` files and `dr` ranks away, if still on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || r < 0 || f >= FILES as i8 || r >= RANKS as i8 {
            None
        } else {
            Some(Square(r as u8 * FILES + f as u8))
        }
    }

    /// The square mirrored top to bottom (rank r ↔ 9 - r), file unchanged.
    pub const fn flip_rank(self) -> Square {
        Square((RANKS - 1 - self.rank()) * FILES + self.file())
    }

    /// The point mirrored left to right (file a ↔ i); the rules are
    /// symmetric under this mirror.
    pub const fn flip_file(self) -> Square {
        Square(self.rank() * FILES + (FILES - 1 - self.file()))
    }

    /// Parses UCI text `a1` … `i10`.
    pub fn parse_uci(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() < 2 || b.len() > 3 {
            return None;
        }
        let file = b[0].checked_sub(b'a')?;
        // `get`: text that is not ASCII (`兵`) has no char boundary at 1.
        let digits = s.get(1..)?;
        let rank: u8 = digits.parse().ok()?;
        if digits.starts_with('0') || rank == 0 {
            return None;
        }
        Square::new(file, rank - 1)
    }

    /// Parses USI text: file digit counted from the right as Cho sees the
    /// board (`9` = file a … `1` = file i), rank letter `a` (rank 10) … `j`
    /// (rank 1). Fairy-Stockfish's zero-padded form (`09a`) is accepted too.
    pub fn parse_usi(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        let (digit, letter) = match b.len() {
            2 => (b[0], b[1]),
            3 if b[0] == b'0' => (b[1], b[2]),
            _ => return None,
        };
        if !(b'1'..=b'9').contains(&digit) || !(b'a'..=b'j').contains(&letter) {
            return None;
        }
        let file = b'9' - digit;
        let rank = RANKS - 1 - (letter - b'a');
        Square::new(file, rank)
    }

    /// Writes the UCI text into a small stack buffer (no allocation).
    pub fn uci(self) -> SquareText {
        let mut t = SquareText {
            buf: [0; 3],
            len: 0,
        };
        t.buf[0] = b'a' + self.file();
        let r = self.rank() + 1;
        if r == 10 {
            t.buf[1] = b'1';
            t.buf[2] = b'0';
            t.len = 3;
        } else {
            t.buf[1] = b'0' + r;
            t.len = 2;
        }
        t
    }

    /// Writes the USI text into a small stack buffer.
    pub fn usi(self) -> SquareText {
        SquareText {
            buf: [b'9' - self.file(), b'a' + (RANKS - 1 - self.rank()), 0],
            len: 2,
        }
    }
}

/// Square text without allocation; derefs to `&str`.
#[derive(Clone, Copy)]
pub struct SquareText {
    buf: [u8; 3],
    len: u8,
}

impl SquareText {
    /// The text.
    pub fn as_str(&self) -> &str {
        // Only ASCII digits and letters are ever written into `buf`.
        std::str::from_utf8(&self.buf[..self.len as usize]).unwrap_or("??")
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.uci().as_str())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.uci().as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_round_trip_all() {
        for sq in Square::ALL {
            let t = sq.uci();
            assert_eq!(Square::parse_uci(t.as_str()), Some(sq));
            let u = sq.usi();
            assert_eq!(Square::parse_usi(u.as_str()), Some(sq));
        }
    }

    #[test]
    fn text_examples() {
        assert_eq!(Square::parse_uci("a1").unwrap().index(), 0);
        assert_eq!(Square::parse_uci("i10").unwrap().index(), 89);
        assert_eq!(Square::parse_uci("e2").unwrap().usi().as_str(), "5i");
        assert_eq!(Square::parse_uci("a1").unwrap().usi().as_str(), "9j");
        assert_eq!(Square::parse_uci("i10").unwrap().usi().as_str(), "1a");
        assert_eq!(Square::parse_usi("09a"), Square::parse_uci("a10"));
        for bad in [
            "", "a", "a0", "a11", "j1", "a01", "e2x", "10", "兵", "é1", "a兵",
        ] {
            assert_eq!(Square::parse_uci(bad), None, "{bad}");
        }
        for bad in ["0a", "9k", "a9", "5", "10a"] {
            assert_eq!(Square::parse_usi(bad), None, "{bad}");
        }
    }

    #[test]
    fn offsets() {
        let e2 = Square::parse_uci("e2").unwrap();
        assert_eq!(e2.offset(1, 1), Square::parse_uci("f3"));
        assert_eq!(e2.offset(0, -2), None);
        assert_eq!(e2.flip_rank(), Square::parse_uci("e9").unwrap());
    }
}
