//! The `[판]` tag of GIB (a board, as the apps write handicap games,
//! 접장기): reading and writing it, and the arrangements tried when the
//! moves do not replay on the board as written.

use janggi_core::{Color, Piece, PieceKind, Position, Square};
use std::fmt;

/// A `[판]` piece: Hangul names are Han's pieces, Hanja names Cho's (as
/// the apps write the board), with the piece's FEN letter.
fn board_piece(c: char) -> Option<char> {
    Some(match c {
        '궁' | '장' => 'k',
        '사' => 'a',
        '상' => 'b',
        '마' => 'n',
        '차' => 'r',
        '포' => 'c',
        '졸' | '병' => 'p',
        '將' | '帥' | '楚' | '漢' => 'K',
        '士' | '仕' => 'A',
        '象' | '相' => 'B',
        '馬' | '傌' => 'N',
        '車' | '俥' => 'R',
        '包' | '砲' | '炮' => 'C',
        '卒' | '兵' => 'P',
        _ => return None,
    })
}

/// Reads a `[판]` value: ten rows from Han's back rank (rank 1 of the
/// records) to Cho's, files from Cho's left, digits for empty points (a
/// row's trailing empty points may be left out, an empty row is empty
/// text), then `한` or `초` for the side to move (default Cho) and any
/// words (`접장기`).
///
/// # Errors
///
/// [`BoardError`]: the rows are not ten, a letter is not a piece, a row
/// is too wide, or the board is not a position.
pub(crate) fn parse_board(value: &str) -> Result<Position, BoardError> {
    let mut words = value.split_whitespace();
    let board = words.next().unwrap_or("");
    let side = match words.next() {
        Some("한" | "漢") => "b",
        _ => "w",
    };
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 10 {
        return Err(BoardError::Rows(rows.len()));
    }
    let mut fen = Vec::with_capacity(10);
    for row in rows {
        let (mut out, mut width) = (String::new(), 0u32);
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                out.push(c);
                width += d;
            } else {
                out.push(board_piece(c).ok_or(BoardError::NotAPiece(c))?);
                width += 1;
            }
        }
        if width > 9 {
            return Err(BoardError::TooWide(row.to_string()));
        }
        if width < 9 {
            out.push_str(&(9 - width).to_string());
        }
        fen.push(out);
    }
    Position::from_fen(&format!("{} {side} - - 0 1", fen.join("/"))).map_err(BoardError::Fen)
}

/// Why a `[판]` value is not a board. The reader reports it as
/// [`GameErrorKind::BadFen`] with the tag quoted before the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BoardError {
    /// Not ten rows (the count).
    Rows(usize),
    /// A character that is neither a digit nor a piece.
    NotAPiece(char),
    /// A row of more than nine points (the row).
    TooWide(String),
    /// Rows that read, but as a FEN are not a position.
    Fen(janggi_core::FenError),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Rows(n) => write!(f, "{n} rows, not 10"),
            BoardError::NotAPiece(c) => write!(f, "'{c}' is not a piece"),
            BoardError::TooWide(row) => write!(f, "row '{row}' is wider than 9"),
            BoardError::Fen(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for BoardError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BoardError::Fen(e) => Some(e),
            _ => None,
        }
    }
}

/// `pos` with the horses and elephants of some back-rank wings swapped
/// (files b↔c and g↔h of each side's back rank, where those points hold
/// only that side's horse, elephant or nothing): the 15 other
/// arrangements, in a fixed order.
pub(crate) fn rearrangements(pos: &Position) -> Vec<Position> {
    let board: [Option<Piece>; 90] =
        std::array::from_fn(|i| pos.piece_at(Square::from_index_unchecked(i as u8)));
    let at = |rank: u8, file: u8| Square::new(file, rank).map_or(0, Square::index);
    // (back rank, file, file, the side whose horse and elephant stand there).
    let wings = [
        (9, 1, 2, Color::Han),
        (9, 6, 7, Color::Han),
        (0, 1, 2, Color::Cho),
        (0, 6, 7, Color::Cho),
    ];
    let fits = |p: Option<Piece>, side: Color| {
        p.is_none_or(|p| {
            p.color == side && matches!(p.kind, PieceKind::Horse | PieceKind::Elephant)
        })
    };
    let usable: Vec<_> = wings
        .into_iter()
        .filter(|&(r, a, b, side)| {
            let (x, y) = (board[at(r, a)], board[at(r, b)]);
            fits(x, side) && fits(y, side) && x != y
        })
        .collect();
    let mut out = Vec::new();
    for mask in 1u32..(1 << usable.len()) {
        let mut swapped = board;
        for (i, &(r, a, b, _)) in usable.iter().enumerate() {
            if mask & (1 << i) != 0 {
                swapped.swap(at(r, a), at(r, b));
            }
        }
        if let Ok(p) = Position::from_board(swapped, pos.side_to_move()) {
            out.push(p);
        }
    }
    out
}

/// `pos` with the two sides' pieces exchanged: the piece on each point
/// moves to the point mirrored across the middle of the board and
/// changes side (the side to move stays).
pub(crate) fn sides_swapped(pos: &Position) -> Option<Position> {
    let mut board = [None; 90];
    for file in 0..9u8 {
        for rank in 0..10u8 {
            let from = Square::new(file, rank)?;
            let to = Square::new(file, 9 - rank)?;
            board[to.index()] = pos.piece_at(from).map(|p| Piece {
                color: !p.color,
                kind: p.kind,
            });
        }
    }
    Position::from_board(board, pos.side_to_move()).ok()
}

/// A position as a `[판]` value (the inverse of [`parse_board`]).
pub(crate) fn board_text(pos: &Position) -> String {
    let fen = pos.fen();
    let mut parts = fen.split(' ');
    let rows = parts.next().unwrap_or("");
    let han_to_move = parts.next() == Some("b");
    let name = |c: char| match c {
        'k' => '장',
        'a' => '사',
        'b' => '상',
        'n' => '마',
        'r' => '차',
        'c' => '포',
        'p' => '졸',
        'K' => '將',
        'A' => '士',
        'B' => '象',
        'N' => '馬',
        'R' => '車',
        'C' => '包',
        'P' => '兵',
        other => other,
    };
    // As the apps write it: a row's trailing empty points left out.
    let text: Vec<String> = rows
        .split('/')
        .map(|r| {
            r.trim_end_matches(|c: char| c.is_ascii_digit())
                .chars()
                .map(name)
                .collect()
        })
        .collect();
    format!(
        "{} {}",
        text.join("/"),
        if han_to_move { "한" } else { "초" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_board_says_what_is_wrong() {
        let e = |text: &str| parse_board(text).expect_err(text);
        assert_eq!(e("차마상/4장"), BoardError::Rows(2));
        assert_eq!(e("차마상/4장").to_string(), "2 rows, not 10");
        assert_eq!(e("차X/////////").to_string(), "'X' is not a piece");
        assert_eq!(
            e("차마상사1사상마차사사/////////").to_string(),
            "row '차마상사1사상마차사사' is wider than 9"
        );
        // Ten rows of pieces but no generals: the FEN's own error.
        let fen = e("차/////////");
        assert!(matches!(fen, BoardError::Fen(_)), "{fen:?}");
        assert!(std::error::Error::source(&fen).is_some());
    }
}
