//! Move and square text per dialect, on top of the rules core's
//! [`Position::parse_move`] / [`Position::move_text`].
//!
//! UCI and USI are the rules core's notations. UCCI (xiangqi GUIs) writes
//! files `a`–`i` and ranks `0`–`9` (Cho's back rank is `0`), so `b1c3` in UCI
//! is `b0c2` in UCCI. CECP (XBoard) squares are UCCI's, as Fairy-Stockfish
//! writes them on a 10-rank board, and its pass is `@@@@`. [`line_text`]
//! writes a line of moves (a PV, `bestmove … ponder …`) for every dialect.

use super::ProtocolDialect;
use janggi_core::{Game, Move, MoveParseError, Notation, Position, Square};

impl ProtocolDialect {
    /// The rules core notation this dialect uses (UCCI is converted).
    pub fn notation(self) -> Notation {
        match self {
            ProtocolDialect::Usi => Notation::Usi,
            ProtocolDialect::Uci | ProtocolDialect::Ucci | ProtocolDialect::Cecp => Notation::Uci,
        }
    }

    /// Whether squares have ranks `0`–`9` (UCCI and CECP).
    fn zero_based(self) -> bool {
        matches!(self, ProtocolDialect::Ucci | ProtocolDialect::Cecp)
    }
}

fn ucci_square(s: &[u8]) -> Option<Square> {
    match s {
        [f @ b'a'..=b'i', r @ b'0'..=b'9'] => Square::new(f - b'a', r - b'0'),
        _ => None,
    }
}

/// Parses move text of `dialect` in `pos` (syntax only; legality is the game
/// layer's question).
///
/// # Errors
/// [`MoveParseError`] when the text is no move.
pub fn parse_move(
    pos: &Position,
    text: &str,
    dialect: ProtocolDialect,
) -> Result<Move, MoveParseError> {
    if !dialect.zero_based() || matches!(text, "0000" | "pass" | "@@@@") {
        return pos.parse_move(text, dialect.notation());
    }
    let err = || MoveParseError(text.to_string());
    let mut b = text.as_bytes();
    if dialect == ProtocolDialect::Cecp {
        if let [head @ .., b'.'] = b {
            // XBoard promoted a soldier that reached the last rank while
            // the `setup` table had it in the Pawn slot, and relayed the
            // move with the Queen's letter, `.` (`g1g0.`); the table now
            // keeps soldiers out of that slot, but a move with the dot is
            // still the four squares: Janggi has no promotion.
            b = head;
        }
    }
    if b.len() != 4 {
        return Err(err());
    }
    let (from, to) = (
        ucci_square(&b[..2]).ok_or_else(err)?,
        ucci_square(&b[2..]).ok_or_else(err)?,
    );
    if from == to {
        return if from == pos.pass_square() {
            Ok(Move::PASS)
        } else {
            Err(err())
        };
    }
    Move::new(from, to).ok_or_else(err)
}

/// A square's text in `dialect`.
pub fn square_text(sq: Square, dialect: ProtocolDialect) -> String {
    match dialect {
        ProtocolDialect::Uci => sq.uci().as_str().to_string(),
        ProtocolDialect::Usi => sq.usi().as_str().to_string(),
        ProtocolDialect::Ucci | ProtocolDialect::Cecp => {
            format!("{}{}", char::from(b'a' + sq.file()), sq.rank())
        }
    }
}

/// The pass in CECP (Fairy-Stockfish's XBoard dialect).
pub const CECP_PASS: &str = "@@@@";

/// A move's text in `dialect` (a pass is the mover's general square twice;
/// in CECP it is [`CECP_PASS`]).
pub fn move_text(pos: &Position, mv: Move, dialect: ProtocolDialect) -> String {
    if dialect == ProtocolDialect::Cecp && mv.is_pass() {
        return CECP_PASS.to_string();
    }
    if !dialect.zero_based() {
        return pos.move_text(mv, dialect.notation());
    }
    let (from, to) = if mv.is_pass() {
        (pos.pass_square(), pos.pass_square())
    } else {
        (mv.from(), mv.to())
    };
    format!("{}{}", square_text(from, dialect), square_text(to, dialect))
}

/// Writes `moves` played in sequence from `game`'s position; stops at the
/// first move that is not legal there (a PV is never trusted blindly).
pub fn line_text(game: &Game, moves: &[Move], dialect: ProtocolDialect) -> Vec<String> {
    let model = game.model();
    let mut pos = game.position().clone();
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !pos.is_legal(mv, model) {
            break;
        }
        out.push(move_text(&pos, mv, dialect));
        pos.make(mv);
    }
    out
}

/// Converts a USI `sfen` (board, side `b` = first player = Cho, hand, move
/// number) into this engine's FEN. Text that already looks like a FEN (side
/// `w`/`b` followed by `-` `-`) is returned unchanged apart from the side
/// letter mapping, which only applies to the 4-field SFEN form.
pub fn sfen_to_fen(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    if f.len() == 4 || f.len() == 3 || f.len() == 2 {
        let side = match f[1] {
            "b" => "w",
            "w" => "b",
            other => other,
        };
        let movenum = f.get(3).copied().unwrap_or("1");
        return format!("{} {} - - 0 {}", f[0], side, movenum);
    }
    sfen.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialect_move_text() {
        let p = Position::startpos();
        let Ok(m) = parse_move(&p, "b1c3", ProtocolDialect::Uci) else {
            panic!("b1c3")
        };
        assert_eq!(move_text(&p, m, ProtocolDialect::Usi), "8j7h");
        assert_eq!(move_text(&p, m, ProtocolDialect::Ucci), "b0c2");
        assert_eq!(parse_move(&p, "b0c2", ProtocolDialect::Ucci), Ok(m));
        assert_eq!(parse_move(&p, "8j7h", ProtocolDialect::Usi), Ok(m));
        assert_eq!(
            parse_move(&p, "e1e1", ProtocolDialect::Ucci),
            Ok(Move::PASS)
        );
        assert_eq!(move_text(&p, Move::PASS, ProtocolDialect::Ucci), "e1e1");
        assert_eq!(move_text(&p, m, ProtocolDialect::Cecp), "b0c2");
        assert_eq!(move_text(&p, Move::PASS, ProtocolDialect::Cecp), "@@@@");
        assert_eq!(
            parse_move(&p, "@@@@", ProtocolDialect::Cecp),
            Ok(Move::PASS)
        );
        assert_eq!(
            parse_move(&p, "e1e1", ProtocolDialect::Cecp),
            Ok(Move::PASS)
        );
        assert_eq!(
            parse_move(&p, "a3b3", ProtocolDialect::Cecp)
                .map(|m| move_text(&p, m, ProtocolDialect::Uci))
                .as_deref(),
            Ok("a4b4")
        );
        assert!(parse_move(&p, "b0c", ProtocolDialect::Ucci).is_err());
        assert!(parse_move(&p, "j0c2", ProtocolDialect::Ucci).is_err());
        assert_eq!(
            square_text(Square::new(0, 9).unwrap_or_default(), ProtocolDialect::Uci),
            "a10"
        );
        assert_eq!(
            square_text(Square::new(0, 9).unwrap_or_default(), ProtocolDialect::Usi),
            "9a"
        );
    }

    #[test]
    fn sfen_side_letters() {
        let board = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR";
        assert_eq!(
            sfen_to_fen(&format!("{board} b - 1")),
            format!("{board} w - - 0 1")
        );
        assert_eq!(
            sfen_to_fen(&format!("{board} w - 2")),
            format!("{board} b - - 0 2")
        );
        let fen = format!("{board} w - - 0 1");
        assert_eq!(sfen_to_fen(&fen), fen);
    }
}
