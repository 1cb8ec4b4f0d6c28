//! Korean move notation (장기 기보 표기), as Korean records write moves:
//! `79졸78`, `02마83`, `12마33`, the pass as `한수쉼`.
//!
//! A point is written **rank then file**, one digit each:
//!
//! * the rank is counted from Han's back rank (1) down to Cho's (10,
//!   written `0`): UCI rank `r` is Korean rank `(11 − r) mod 10`;
//! * the file is counted 1–9 from Cho's left (UCI file `a` is 1).
//!
//! So Cho's opening horse move `b1c3` is `02마83`, Han's `b10c8` is
//! `12마33`, and Cho's soldier `i4h4` is `79졸78`. The piece's name sits
//! between the two points, in Hangul (`차 포 마 상 사 졸/병 궁/장`) or
//! Hanja (`車 包 馬 象 士 卒/兵 楚/漢`); both are read, in any of their usual
//! forms (`俥 炮 砲 傌 相 仕 將 帥 …`), also with the side written before
//! the piece (`79楚卒78`, as some records do). A trailing `장군` (or `+`) marks a
//! check, where records mark it.
//!
//! Fairy-Stockfish writes the same points with a Latin letter in front and a
//! dash between, `x` for a capture, `+` after a check and `#` after a mate
//! (`H02-83`, `P53x43`, `C02x82+`, the pass `K95-95`: its "Janggi" notation); that form
//! is read and written too, exactly as Fairy-Stockfish prints it.
//!
//! Parsing checks the text against the position: the named piece must
//! stand on the first point and the move must be legal under the given
//! [`LegalityModel`]; every failure is a typed [`KoreanMoveError`].
//!
//! ```
//! use janggi_core::{KoreanScript, LegalityModel, Notation, Position};
//! let pos = Position::startpos();
//! let mv = pos.parse_korean("02마83", LegalityModel::Casual).unwrap();
//! assert_eq!(pos.move_text(mv, Notation::Uci), "b1c3");
//! assert_eq!(pos.korean(mv, KoreanScript::Hanja), "02馬83");
//! assert_eq!(pos.korean(mv, KoreanScript::Latin), "H02-83");
//! assert!(pos.parse_korean("02차83", LegalityModel::Casual).is_err());
//! ```

use super::legal::LegalityModel;
use super::position::Position;
use crate::types::{Color, Move, PieceKind, Square};
use std::fmt;

/// The script piece names are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum KoreanScript {
    /// Hangul: `79졸78` (Korean apps and sites).
    #[default]
    Hangul,
    /// Hanja: `79卒78` (GIB files).
    Hanja,
    /// Fairy-Stockfish's Latin form: `P79-78`.
    Latin,
}

/// The pass, as Korean records write it.
pub(crate) const PASS_TEXT: &str = "한수쉼";

/// The check mark records append (`장군`).
pub(crate) const CHECK_TEXT: &str = "장군";

/// Korean move text that does not name a legal move of the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KoreanMoveError {
    /// Not move text at all.
    Syntax(String),
    /// No piece on the first point.
    NoPiece(String),
    /// The piece on the first point belongs to the side not to move.
    NotYourPiece(String),
    /// The text names another piece than the one on the first point.
    WrongPiece {
        /// The text.
        text: String,
        /// The kind the text names.
        named: PieceKind,
        /// The kind that stands there.
        found: PieceKind,
    },
    /// Well-formed, but not a legal move here.
    Illegal(String),
}

impl fmt::Display for KoreanMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KoreanMoveError::Syntax(t) => write!(f, "'{t}' is not Korean move text"),
            KoreanMoveError::NoPiece(t) => write!(f, "'{t}': no piece on the first point"),
            KoreanMoveError::NotYourPiece(t) => {
                write!(f, "'{t}': the piece on the first point is the opponent's")
            }
            KoreanMoveError::WrongPiece { text, named, found } => write!(
                f,
                "'{text}' names a {} but a {} stands there",
                named.english(),
                found.english()
            ),
            KoreanMoveError::Illegal(t) => write!(f, "'{t}' is not a legal move here"),
        }
    }
}

impl std::error::Error for KoreanMoveError {}

/// The piece name of `kind` for `color` in `script`.
pub fn piece_name(kind: PieceKind, color: Color, script: KoreanScript) -> &'static str {
    let cho = color == Color::Cho;
    match (script, kind) {
        (KoreanScript::Hangul, PieceKind::General) => "궁",
        (KoreanScript::Hangul, PieceKind::Guard) => "사",
        (KoreanScript::Hangul, PieceKind::Elephant) => "상",
        (KoreanScript::Hangul, PieceKind::Horse) => "마",
        (KoreanScript::Hangul, PieceKind::Chariot) => "차",
        (KoreanScript::Hangul, PieceKind::Cannon) => "포",
        (KoreanScript::Hangul, PieceKind::Soldier) => {
            if cho {
                "졸"
            } else {
                "병"
            }
        }
        (KoreanScript::Hanja, PieceKind::General) => {
            if cho {
                "楚"
            } else {
                "漢"
            }
        }
        (KoreanScript::Hanja, PieceKind::Guard) => "士",
        (KoreanScript::Hanja, PieceKind::Elephant) => "象",
        (KoreanScript::Hanja, PieceKind::Horse) => "馬",
        (KoreanScript::Hanja, PieceKind::Chariot) => "車",
        (KoreanScript::Hanja, PieceKind::Cannon) => "包",
        (KoreanScript::Hanja, PieceKind::Soldier) => {
            if cho {
                "卒"
            } else {
                "兵"
            }
        }
        (KoreanScript::Latin, PieceKind::General) => "K",
        (KoreanScript::Latin, PieceKind::Guard) => "A",
        (KoreanScript::Latin, PieceKind::Elephant) => "E",
        (KoreanScript::Latin, PieceKind::Horse) => "H",
        (KoreanScript::Latin, PieceKind::Chariot) => "R",
        (KoreanScript::Latin, PieceKind::Cannon) => "C",
        (KoreanScript::Latin, PieceKind::Soldier) => "P",
    }
}

/// The kind a piece name (one character, any script) stands for.
fn kind_of_name(c: char) -> Option<PieceKind> {
    Some(match c {
        '궁' | '장' | '초' | '한' | '楚' | '漢' | '將' | '帥' | '宮' | 'K' | 'G' => {
            PieceKind::General
        }
        '사' | '士' | '仕' | 'A' => PieceKind::Guard,
        '상' | '象' | '相' | 'E' | 'B' => PieceKind::Elephant,
        '마' | '馬' | '傌' | 'H' | 'N' => PieceKind::Horse,
        '차' | '車' | '俥' | 'R' => PieceKind::Chariot,
        '포' | '包' | '砲' | '炮' | 'C' => PieceKind::Cannon,
        '졸' | '병' | '卒' | '兵' | 'P' | 'S' => PieceKind::Soldier,
        _ => return None,
    })
}

/// The two digits of `sq`: Korean rank (Han's back rank 1 … Cho's 0), then
/// file (1–9 from Cho's left).
pub(crate) fn point_digits(sq: Square) -> [u8; 2] {
    [b'0' + (10 - sq.rank()) % 10, b'1' + sq.file()]
}

/// The point of two Korean digits.
fn point_of(rank: char, file: char) -> Option<Square> {
    let r = rank.to_digit(10)? as u8;
    let f = file.to_digit(10)? as u8;
    if f == 0 {
        return None;
    }
    // Korean rank k is board rank (10 − k) mod 10, with 0 read as 10.
    let k = if r == 0 { 10 } else { r };
    Square::new(f - 1, 10 - k)
}

/// The parts of a move's text: the two points (when written) and the named
/// kind.
struct Parts {
    from: Square,
    to: Square,
    named: PieceKind,
}

/// Splits `text` (a check mark already removed) into its parts.
fn split(text: &str) -> Option<Parts> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    match chars.as_slice() {
        // Korean: 79졸78.
        [r1, f1, p, r2, f2] => Some(Parts {
            from: point_of(*r1, *f1)?,
            named: kind_of_name(*p)?,
            to: point_of(*r2, *f2)?,
        }),
        // With the side before the piece, as some records write it:
        // 79楚卒78.
        [r1, f1, '楚' | '漢' | '초' | '한', p, r2, f2] => Some(Parts {
            from: point_of(*r1, *f1)?,
            named: kind_of_name(*p)?,
            to: point_of(*r2, *f2)?,
        }),
        // Fairy-Stockfish: P79-78, a capture P53x43.
        [p, r1, f1, '-' | 'x', r2, f2] => Some(Parts {
            named: kind_of_name(*p)?,
            from: point_of(*r1, *f1)?,
            to: point_of(*r2, *f2)?,
        }),
        _ => None,
    }
}

/// Removes a trailing check mark (`장군`, `+`) and surrounding blanks.
fn strip_check(text: &str) -> &str {
    let t = text.trim();
    let t = t.strip_suffix(CHECK_TEXT).unwrap_or(t).trim_end();
    t.strip_suffix(['+', '#']).unwrap_or(t).trim_end()
}

impl Position {
    /// The Korean text of `mv` (legal in this position) in `script`: the
    /// pass is `한수쉼` in Hangul and Hanja. The Latin form is
    /// Fairy-Stockfish's exactly: the pass as the general's point twice
    /// (`K95-95`), `x` for a capture, `+` after a check. Hangul and Hanja
    /// carry no check mark; [`Position::korean_marked`] appends one.
    pub fn korean(&self, mv: Move, script: KoreanScript) -> String {
        let (from, to) = if mv.is_pass() {
            if script != KoreanScript::Latin {
                return PASS_TEXT.to_string();
            }
            (self.pass_square(), self.pass_square())
        } else {
            (mv.from(), mv.to())
        };
        let color = self.side_to_move();
        let kind = self.piece_at(from).map_or(PieceKind::General, |p| p.kind);
        let name = piece_name(kind, color, script);
        let [a, b] = point_digits(from);
        let [c, d] = point_digits(to);
        let (a, b, c, d) = (a as char, b as char, c as char, d as char);
        match script {
            KoreanScript::Latin => {
                let sep = if !mv.is_pass() && self.piece_at(to).is_some() {
                    'x'
                } else {
                    '-'
                };
                let check = match self.check_after(mv) {
                    None => "",
                    Some(false) => "+",
                    Some(true) => "#",
                };
                format!("{name}{a}{b}{sep}{c}{d}{check}")
            }
            _ => format!("{a}{b}{name}{c}{d}"),
        }
    }

    /// [`Position::korean`] with the check mark records use: ` 장군` after
    /// a checking move in Hangul and Hanja (the Latin form has its `+`).
    pub fn korean_marked(&self, mv: Move, script: KoreanScript) -> String {
        let text = self.korean(mv, script);
        if script != KoreanScript::Latin && self.gives_check(mv) {
            format!("{text} {CHECK_TEXT}")
        } else {
            text
        }
    }

    /// Whether `mv` (pseudo-legal here) leaves the opponent in check. Plays
    /// it on a copy: for notation, not for search.
    pub fn gives_check(&self, mv: Move) -> bool {
        self.check_after(mv).is_some()
    }

    /// After `mv`: `None` without check, `Some(mate)` with one, mate judged
    /// under Fairy-Stockfish's legality (its notation's `#`).
    fn check_after(&self, mv: Move) -> Option<bool> {
        if !mv.is_pass() && !self.is_pseudo_legal(mv) {
            return None;
        }
        let mut after = self.clone();
        after.make(mv);
        after
            .in_check()
            .then(|| after.legal_moves(LegalityModel::Fsf).is_empty())
    }

    /// Parses Korean move text (`79졸78`, `79卒78`, `P79-78`, `한수쉼`,
    /// with an optional trailing `장군`/`+`) into a move that is legal here
    /// under `model`.
    ///
    /// # Errors
    /// [`KoreanMoveError`]: not move text, no piece or the opponent's piece
    /// on the first point, another piece named than stands there, or not a
    /// legal move.
    pub fn parse_korean(&self, text: &str, model: LegalityModel) -> Result<Move, KoreanMoveError> {
        let body = strip_check(text);
        let owned = || text.trim().to_string();
        let legal = self.legal_moves(model);
        if matches!(body, PASS_TEXT | "한수 쉼" | "쉼" | "pass") {
            return if legal.contains(&Move::PASS) {
                Ok(Move::PASS)
            } else {
                Err(KoreanMoveError::Illegal(owned()))
            };
        }
        let parts = split(body).ok_or_else(|| KoreanMoveError::Syntax(owned()))?;
        let Some(piece) = self.piece_at(parts.from) else {
            return Err(KoreanMoveError::NoPiece(owned()));
        };
        if piece.color != self.side_to_move() {
            return Err(KoreanMoveError::NotYourPiece(owned()));
        }
        if piece.kind != parts.named {
            return Err(KoreanMoveError::WrongPiece {
                text: owned(),
                named: parts.named,
                found: piece.kind,
            });
        }
        let mv = if parts.from == parts.to {
            // Fairy-Stockfish writes the pass as the general's point twice.
            (parts.from == self.pass_square()).then_some(Move::PASS)
        } else {
            Move::new(parts.from, parts.to)
        };
        match mv {
            Some(m) if legal.contains(&m) => Ok(m),
            _ => Err(KoreanMoveError::Illegal(owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Notation;

    fn uci(pos: &Position, text: &str) -> Move {
        pos.parse_move(text, Notation::Uci).unwrap()
    }

    #[test]
    fn points_follow_the_records() {
        let sq = |t: &str| Square::parse_uci(t).unwrap();
        assert_eq!(&point_digits(sq("a1")), b"01");
        assert_eq!(&point_digits(sq("i10")), b"19");
        assert_eq!(&point_digits(sq("e2")), b"95");
        assert_eq!(&point_digits(sq("i4")), b"79");
        for s in Square::ALL {
            let [r, f] = point_digits(s);
            assert_eq!(point_of(r as char, f as char), Some(s));
        }
        assert_eq!(point_of('1', '0'), None);
    }

    #[test]
    fn examples_of_the_records() {
        let mut pos = Position::startpos();
        let m = pos.parse_korean("79졸78", LegalityModel::Casual).unwrap();
        assert_eq!(m, uci(&pos, "i4h4"));
        assert_eq!(pos.korean(m, KoreanScript::Hangul), "79졸78");
        assert_eq!(pos.korean(m, KoreanScript::Hanja), "79卒78");
        assert_eq!(pos.korean(m, KoreanScript::Latin), "P79-78");
        let m = pos.parse_korean("02馬83", LegalityModel::Casual).unwrap();
        assert_eq!(m, uci(&pos, "b1c3"));
        pos.make(m);
        let m = pos.parse_korean("12마33 ", LegalityModel::Casual).unwrap();
        assert_eq!(m, uci(&pos, "b10c8"));
        assert_eq!(pos.korean(Move::PASS, KoreanScript::Hangul), PASS_TEXT);
        assert_eq!(pos.korean(Move::PASS, KoreanScript::Latin), "K25-25");
        assert_eq!(
            pos.parse_korean("한수쉼", LegalityModel::Casual),
            Ok(Move::PASS)
        );
        assert_eq!(
            pos.parse_korean("K25-25", LegalityModel::Casual),
            Ok(Move::PASS)
        );
        assert_eq!(
            pos.korean(uci(&pos, "a7a6"), KoreanScript::Hangul),
            "41병51"
        );
    }

    #[test]
    fn typed_errors() {
        let pos = Position::startpos();
        let e = |t: &str| pos.parse_korean(t, LegalityModel::Casual).unwrap_err();
        assert!(matches!(e("79졸7"), KoreanMoveError::Syntax(_)));
        assert!(matches!(e("hello"), KoreanMoveError::Syntax(_)));
        assert!(matches!(e(""), KoreanMoveError::Syntax(_)));
        assert!(matches!(e("55졸45"), KoreanMoveError::NoPiece(_)));
        assert!(matches!(e("12마33"), KoreanMoveError::NotYourPiece(_)));
        assert!(matches!(
            e("02차83"),
            KoreanMoveError::WrongPiece {
                named: PieceKind::Chariot,
                found: PieceKind::Horse,
                ..
            }
        ));
        // The soldier may not step backwards.
        assert!(matches!(e("79졸89"), KoreanMoveError::Illegal(_)));
        assert!(e("02차83").to_string().contains("chariot"));
        assert!(matches!(e("P53x43"), KoreanMoveError::NoPiece(_)));
        assert_eq!(
            pos.parse_korean("79楚卒78", LegalityModel::Casual),
            pos.parse_korean("79졸78", LegalityModel::Casual)
        );
    }

    #[test]
    fn check_marks_are_written() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1").unwrap();
        // The chariot to f10 checks the general on d10 along the back rank.
        let check = uci(&pos, "f1f10");
        assert!(pos.gives_check(check));
        assert_eq!(
            pos.korean_marked(check, KoreanScript::Hangul),
            "06차16 장군"
        );
        assert_eq!(pos.korean_marked(check, KoreanScript::Hanja), "06車16 장군");
        assert_eq!(pos.korean(check, KoreanScript::Latin), "R06-16+");
        let quiet = uci(&pos, "f1f2");
        assert!(!pos.gives_check(quiet));
        assert_eq!(pos.korean_marked(quiet, KoreanScript::Hangul), "06차96");
    }

    #[test]
    fn check_marks_are_read() {
        let pos = Position::startpos();
        assert_eq!(
            pos.parse_korean("79졸78 장군", LegalityModel::Casual),
            pos.parse_korean("79졸78", LegalityModel::Casual)
        );
        assert_eq!(
            pos.parse_korean("P79-78+", LegalityModel::Casual),
            pos.parse_korean("79졸78", LegalityModel::Casual)
        );
    }
}
