//! FEN parsing and writing, compatible with Fairy-Stockfish and
//! pychess-variants: ranks 10 → 1, digits for empty runs, side (`w` = Cho,
//! `b` = Han), two unused fields (`-` `-`), halfmove clock, fullmove number.
//! Letters K A B N R C P (upper case Cho); H and E are accepted for horse and
//! elephant.

use super::position::Position;
use super::tables::in_own_palace;
use crate::types::{ByColor, ByKind, Color, Piece, PieceKind, Square};
use std::fmt;

/// Why a FEN was rejected. Each variant names the field and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text is empty.
    Empty,
    /// Board field: not 10 ranks.
    RankCount(usize),
    /// Board field: a rank that does not describe 9 files.
    FileCount {
        /// Rank number as printed (10 = top).
        rank: u8,
        /// Files it described.
        files: usize,
    },
    /// Board field: a character that is no piece letter or digit.
    UnknownLetter {
        /// Rank number as printed.
        rank: u8,
        /// The character.
        ch: char,
    },
    /// Side-to-move field is not `w` or `b`.
    SideToMove(String),
    /// Halfmove clock is not a number.
    Halfmove(String),
    /// Fullmove number is not a positive number.
    Fullmove(String),
    /// More than six fields.
    ExtraFields(usize),
    /// The board parses but is not a valid position.
    Invalid(PositionError),
}

/// A board that parses but cannot be a Janggi position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no general.
    MissingGeneral(Color),
    /// A side has more than one general.
    ExtraGeneral(Color),
    /// A general or guard stands outside its own palace.
    OutsidePalace(Piece, Square),
    /// More pieces of a kind than a side starts with.
    TooMany {
        /// Owner.
        color: Color,
        /// Kind.
        kind: PieceKind,
        /// How many there are.
        count: u32,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::MissingGeneral(c) => write!(f, "{} has no general", c.name()),
            PositionError::ExtraGeneral(c) => write!(f, "{} has more than one general", c.name()),
            PositionError::OutsidePalace(p, s) => {
                write!(f, "'{}' on {} is outside its palace", p.letter(), s)
            }
            PositionError::TooMany { color, kind, count } => write!(
                f,
                "{} has {} pieces '{}' (at most {})",
                color.name(),
                count,
                kind.letter(),
                kind.max_count()
            ),
        }
    }
}

impl std::error::Error for PositionError {}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::RankCount(n) => write!(f, "board field: {n} ranks, expected 10"),
            FenError::FileCount { rank, files } => {
                write!(f, "board field: rank {rank} has {files} files, expected 9")
            }
            FenError::UnknownLetter { rank, ch } => {
                write!(f, "board field: unknown piece letter '{ch}' on rank {rank}")
            }
            FenError::SideToMove(s) => write!(f, "side-to-move field: '{s}', expected w or b"),
            FenError::Halfmove(s) => write!(f, "halfmove field: '{s}' is not a number"),
            FenError::Fullmove(s) => write!(f, "fullmove field: '{s}' is not a positive number"),
            FenError::ExtraFields(n) => write!(f, "{n} fields, expected at most 6"),
            FenError::Invalid(e) => write!(f, "invalid position: {e}"),
        }
    }
}

impl std::error::Error for FenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FenError::Invalid(e) => Some(e),
            _ => None,
        }
    }
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> Self {
        FenError::Invalid(e)
    }
}

/// Checks the piece placement rules of a board.
pub(crate) fn validate(board: &[Option<Piece>; 90]) -> Result<(), PositionError> {
    let mut counts = ByColor([ByKind([0u32; 7]); 2]);
    for sq in Square::ALL {
        if let Some(p) = board[sq.index()] {
            counts[p.color][p.kind] += 1;
            if matches!(p.kind, PieceKind::General | PieceKind::Guard)
                && !in_own_palace(sq, p.color)
            {
                return Err(PositionError::OutsidePalace(p, sq));
            }
        }
    }
    for color in Color::BOTH {
        match counts[color][PieceKind::General] {
            0 => return Err(PositionError::MissingGeneral(color)),
            1 => {}
            _ => return Err(PositionError::ExtraGeneral(color)),
        }
        for kind in PieceKind::ALL {
            let count = counts[color][kind];
            if count > kind.max_count() {
                return Err(PositionError::TooMany { color, kind, count });
            }
        }
    }
    Ok(())
}

impl Position {
    /// Parses a FEN. Missing trailing fields default to Cho to move, clocks
    /// `0 1`. Never panics.
    ///
    /// # Errors
    /// A [`FenError`] naming the field and the reason.
    ///
    /// ```
    /// use janggi_core::Position;
    /// let p = Position::from_fen("4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1").unwrap();
    /// assert!(p.generals_facing());
    /// assert!(Position::from_fen("4k4/9/9 w - - 0 1").is_err());
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() > 6 {
            return Err(FenError::ExtraFields(fields.len()));
        }
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount(ranks.len()));
        }
        let mut board = [None; 90];
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let label = rank + 1;
            let mut file = 0usize;
            let mut digits = String::new();
            let flush = |digits: &mut String, file: &mut usize| -> Result<(), FenError> {
                if !digits.is_empty() {
                    let n: usize = digits.parse().map_err(|_| FenError::FileCount {
                        rank: label,
                        files: 99,
                    })?;
                    *file += n;
                    digits.clear();
                }
                Ok(())
            };
            for ch in rank_text.chars() {
                if ch.is_ascii_digit() {
                    digits.push(ch);
                    if digits.len() > 2 {
                        return Err(FenError::FileCount {
                            rank: label,
                            files: 99,
                        });
                    }
                    continue;
                }
                flush(&mut digits, &mut file)?;
                let piece =
                    Piece::from_letter(ch).ok_or(FenError::UnknownLetter { rank: label, ch })?;
                if file >= 9 {
                    return Err(FenError::FileCount {
                        rank: label,
                        files: file + 1,
                    });
                }
                if let Some(sq) = Square::new(file as u8, rank) {
                    board[sq.index()] = Some(piece);
                }
                file += 1;
            }
            flush(&mut digits, &mut file)?;
            if file != 9 {
                return Err(FenError::FileCount {
                    rank: label,
                    files: file,
                });
            }
        }
        let side = match fields.get(1).copied() {
            None | Some("w") | Some("W") | Some("r") => Color::Cho,
            Some("b") | Some("B") => Color::Han,
            Some(s) => return Err(FenError::SideToMove(s.to_string())),
        };
        let halfmove = match fields.get(4) {
            None => 0,
            Some(s) => s
                .parse::<u32>()
                .map_err(|_| FenError::Halfmove(s.to_string()))?,
        };
        let fullmove = match fields.get(5) {
            None => 1,
            Some(s) => match s.parse::<u32>() {
                Ok(n) if n >= 1 => n,
                _ => return Err(FenError::Fullmove(s.to_string())),
            },
        };
        validate(&board)?;
        Ok(Position::from_parts(board, side, halfmove, fullmove))
    }

    /// A position from a mailbox and the side to move (counters zero),
    /// checked as a FEN's board is.
    ///
    /// # Errors
    /// When a side has no general or two, a general or guard stands outside
    /// its palace, or a side has more pieces of a kind than it starts with.
    pub fn from_board(board: [Option<Piece>; 90], side: Color) -> Result<Position, PositionError> {
        validate(&board)?;
        Ok(Position::from_parts(board, side, 0, 1))
    }

    /// The FEN of this position (Fairy-Stockfish's form, with `- -`).
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(96);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                let piece = Square::new(file, rank).and_then(|sq| self.piece_at(sq));
                match piece {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.letter());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(match self.side {
            Color::Cho => " w - - ",
            Color::Han => " b - - ",
        });
        s.push_str(&self.halfmove.to_string());
        s.push(' ');
        s.push_str(&self.fullmove.to_string());
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";

    #[test]
    fn round_trip_start() {
        let p = Position::from_fen(START).unwrap();
        assert_eq!(p.fen(), START);
        assert!(p.is_consistent());
        assert_eq!(p.material(Color::Cho), 72);
    }

    #[test]
    fn accepts_h_and_e_and_short_fen() {
        let p =
            Position::from_fen("rhea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RHEA1AEHR")
                .unwrap();
        assert_eq!(p.fen(), START);
    }

    #[test]
    fn typed_errors() {
        use FenError::*;
        let cases: Vec<(&str, FenError)> = vec![
            ("", Empty),
            ("4k4/9/9 w - - 0 1", RankCount(3)),
            (
                "4k4/9/9/9/9/9/9/9/4K4/8 w - - 0 1",
                FileCount { rank: 1, files: 8 },
            ),
            (
                "4k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1",
                FileCount {
                    rank: 10,
                    files: 10,
                },
            ),
            (
                "4k4/9/9/9/9/9/9/9/4K4/4X4 w - - 0 1",
                UnknownLetter { rank: 1, ch: 'X' },
            ),
            ("4k4/9/9/9/9/9/9/9/4K4/9 x - - 0 1", SideToMove("x".into())),
            ("4k4/9/9/9/9/9/9/9/4K4/9 w - - z 1", Halfmove("z".into())),
            ("4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 0", Fullmove("0".into())),
            ("4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1 9", ExtraFields(7)),
            (
                "9/9/9/9/9/9/9/9/4K4/9 w - - 0 1",
                Invalid(PositionError::MissingGeneral(Color::Han)),
            ),
            (
                "3kk4/9/9/9/9/9/9/9/4K4/9 w - - 0 1",
                Invalid(PositionError::ExtraGeneral(Color::Han)),
            ),
            (
                "4k4/9/9/9/9/4K4/9/9/9/9 w - - 0 1",
                Invalid(PositionError::OutsidePalace(
                    Piece::new(Color::Cho, PieceKind::General),
                    Square::parse_uci("e5").unwrap(),
                )),
            ),
            (
                "4k4/9/9/9/9/9/9/9/4K4/A8 w - - 0 1",
                Invalid(PositionError::OutsidePalace(
                    Piece::new(Color::Cho, PieceKind::Guard),
                    Square::parse_uci("a1").unwrap(),
                )),
            ),
            (
                "4k4/9/9/9/9/9/9/9/4K4/RRR6 w - - 0 1",
                Invalid(PositionError::TooMany {
                    color: Color::Cho,
                    kind: PieceKind::Chariot,
                    count: 3,
                }),
            ),
            // Han's general in Cho's palace.
            (
                "9/9/9/9/9/9/9/4k4/4K4/9 w - - 0 1",
                Invalid(PositionError::OutsidePalace(
                    Piece::new(Color::Han, PieceKind::General),
                    Square::parse_uci("e3").unwrap(),
                )),
            ),
        ];
        for (fen, want) in cases {
            let got = Position::from_fen(fen);
            assert_eq!(got.as_ref().err(), Some(&want), "{fen}");
            // Every error message names something.
            assert!(!want.to_string().is_empty());
        }
    }

    #[test]
    fn garbage_never_panics() {
        for fen in [
            "/////////",
            "9/9/9/9/9/9/9/9/9/9/9",
            "99999/9",
            "4k4/9/9/9/9/9/9/9/4K4/00009 w",
            "ñ",
            "4k4/9/9/9/9/9/9/9/4K4/9 w - - 99999999999 1",
        ] {
            assert!(Position::from_fen(fen).is_err(), "{fen}");
        }
    }
}
