//! Fairy-Stockfish's SAN for Janggi, as pychess exports it: `Hc3`, `Pab4`,
//! `Rxa4`, `Ce8+`, `Rd9#`, the pass as the general to its own point (`Ke2`).
//!
//! * the piece letter is always written: `K` general, `A` guard, `E`
//!   elephant, `H` horse, `R` chariot, `C` cannon, `P` soldier (the
//!   soldier is not a chess pawn for Fairy-Stockfish: no file is added to
//!   its captures);
//! * disambiguation as Fairy-Stockfish does it: when another piece of the
//!   same kind and side also has a legal move to the destination, the file
//!   of the origin is added if it tells them apart, else its rank, else
//!   both (`Ade1`, `R10a5`, `Rb10a10`);
//! * `x` before the destination of a capture, `+` after a check, `#`
//!   after a checkmate (no legal reply under Fairy-Stockfish's legality);
//! * the pass is the general's point twice in UCI; in SAN the general
//!   "moves" to its own point: `Ke2`, `Ke9`.
//!
//! Legality (for disambiguation and `#`) is Fairy-Stockfish's
//! ([`LegalityModel::Fsf`]) when writing, so the text matches its output;
//! reading takes the model of the game being read.

use janggi_core::{LegalityModel, Move, PieceKind, Position, Square};
use std::fmt;

/// SAN text that does not name one legal move of the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// Not SAN text at all.
    Syntax(String),
    /// No legal move matches.
    NoSuchMove(String),
    /// Several legal moves match (the disambiguation is missing).
    Ambiguous(String),
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Syntax(t) => write!(f, "'{t}' is not SAN"),
            SanError::NoSuchMove(t) => write!(f, "'{t}': no legal move matches"),
            SanError::Ambiguous(t) => write!(f, "'{t}' is ambiguous: several legal moves match"),
        }
    }
}

impl std::error::Error for SanError {}

/// The SAN letter of a kind.
pub fn letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::General => 'K',
        PieceKind::Guard => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Chariot => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Soldier => 'P',
    }
}

fn kind_of_letter(c: char) -> Option<PieceKind> {
    Some(match c {
        'K' | 'G' => PieceKind::General,
        'A' => PieceKind::Guard,
        'E' | 'B' => PieceKind::Elephant,
        'H' | 'N' => PieceKind::Horse,
        'R' => PieceKind::Chariot,
        'C' => PieceKind::Cannon,
        'P' | 'S' => PieceKind::Soldier,
        _ => return None,
    })
}

fn file_char(sq: Square) -> char {
    (b'a' + sq.file()) as char
}

fn rank_text(sq: Square) -> String {
    (sq.rank() + 1).to_string()
}

/// The SAN of `mv`, a legal move of `pos`, exactly as Fairy-Stockfish
/// writes it (disambiguation among its legal moves).
pub fn write_san(pos: &Position, mv: Move) -> String {
    write_san_in(pos, mv, LegalityModel::Fsf)
}

/// [`write_san`] for a game played under `model`: the disambiguation
/// considers the moves legal under `model` or Fairy-Stockfish's legality,
/// so the text reads back unambiguously under either (for
/// [`LegalityModel::Fsf`] it is Fairy-Stockfish's text).
pub fn write_san_in(pos: &Position, mv: Move, model: LegalityModel) -> String {
    let (from, to) = if mv.is_pass() {
        (pos.pass_square(), pos.pass_square())
    } else {
        (mv.from(), mv.to())
    };
    let kind = pos.piece_at(from).map_or(PieceKind::General, |p| p.kind);
    let mut out = String::new();
    out.push(letter(kind));
    if !mv.is_pass() {
        let mut legal: Vec<Move> = pos.legal_moves(LegalityModel::Fsf).to_vec();
        if model != LegalityModel::Fsf {
            legal.extend(pos.legal_moves(model).iter().copied());
        }
        let others: Vec<Square> = legal
            .iter()
            .filter(|m| !m.is_pass() && m.to() == to && m.from() != from)
            .filter(|m| pos.piece_at(m.from()).is_some_and(|p| p.kind == kind))
            .map(|m| m.from())
            .collect();
        if !others.is_empty() {
            if others.iter().all(|s| s.file() != from.file()) {
                out.push(file_char(from));
            } else if others.iter().all(|s| s.rank() != from.rank()) {
                out.push_str(&rank_text(from));
            } else {
                out.push(file_char(from));
                out.push_str(&rank_text(from));
            }
        }
        if pos.piece_at(to).is_some() {
            out.push('x');
        }
    }
    out.push(file_char(to));
    out.push_str(&rank_text(to));
    if mv.is_pass() || pos.gives_check(mv) {
        let mut after = pos.clone();
        after.make(mv);
        if after.in_check() {
            if after.legal_moves(LegalityModel::Fsf).is_empty() {
                out.push('#');
            } else {
                out.push('+');
            }
        }
    }
    out
}

/// A square at the end of `s` (`a1` … `i10`): the square and where it starts.
fn trailing_square(s: &str) -> Option<(Square, usize)> {
    let digits = s.bytes().rev().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 2 || s.len() < digits + 1 {
        return None;
    }
    let start = s.len() - digits - 1;
    Some((Square::parse_uci(s.get(start..)?)?, start))
}

/// Parses SAN (`Hc3`, `Pab4`, `Rxa4+`, `Ke2` for a pass; annotation marks
/// `!`, `?` are ignored) into the legal move of `pos` under `model` it
/// names.
///
/// # Errors
/// [`SanError`]: not SAN, no legal move matches, or several do.
pub fn parse_san(pos: &Position, text: &str, model: LegalityModel) -> Result<Move, SanError> {
    let owned = || text.to_string();
    let body = text.trim_end_matches(['+', '#', '!', '?']);
    let mut chars = body.chars();
    let kind = chars
        .next()
        .and_then(kind_of_letter)
        .ok_or_else(|| SanError::Syntax(owned()))?;
    let rest: String = chars.filter(|&c| c != 'x' && c != '-').collect();
    if !rest.is_ascii() {
        return Err(SanError::Syntax(owned()));
    }
    let (to, start) = trailing_square(&rest).ok_or_else(|| SanError::Syntax(owned()))?;
    let dis = &rest[..start];
    let (dis_file, dis_rank) = {
        let mut file = None;
        let mut d = dis;
        if let Some(c) = d.chars().next().filter(|c| ('a'..='i').contains(c)) {
            file = Some(c as u8 - b'a');
            d = &d[1..];
        }
        let rank = if d.is_empty() {
            None
        } else {
            match d.parse::<u8>() {
                Ok(r @ 1..=10) => Some(r - 1),
                _ => return Err(SanError::Syntax(owned())),
            }
        };
        (file, rank)
    };
    let legal = pos.legal_moves(model);
    let us = pos.side_to_move();
    if kind == PieceKind::General && to == pos.pass_square() && dis.is_empty() {
        // The general "to its own point" is the pass.
        if pos
            .piece_at(to)
            .is_some_and(|p| p.color == us && p.kind == kind)
        {
            return if legal.contains(&Move::PASS) {
                Ok(Move::PASS)
            } else {
                Err(SanError::NoSuchMove(owned()))
            };
        }
    }
    let mut found: Vec<Move> = Vec::new();
    for &m in legal.iter() {
        if m.is_pass() || m.to() != to {
            continue;
        }
        let from = m.from();
        if !pos
            .piece_at(from)
            .is_some_and(|p| p.kind == kind && p.color == us)
        {
            continue;
        }
        if dis_file.is_some_and(|f| f != from.file()) || dis_rank.is_some_and(|r| r != from.rank())
        {
            continue;
        }
        found.push(m);
    }
    if found.len() > 1 && model != LegalityModel::Fsf {
        // Written by Fairy-Stockfish, the text is unambiguous among its
        // legal moves.
        found.retain(|&m| pos.is_legal(m, LegalityModel::Fsf));
    }
    match found.as_slice() {
        [m] => Ok(*m),
        [] => Err(SanError::NoSuchMove(owned())),
        _ => Err(SanError::Ambiguous(owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use janggi_core::Notation;

    #[test]
    fn examples() {
        let pos = Position::startpos();
        let m = pos.parse_move("b1c3", Notation::Uci).unwrap();
        assert_eq!(write_san(&pos, m), "Hc3");
        assert_eq!(parse_san(&pos, "Hc3", LegalityModel::Fsf), Ok(m));
        // Both guards reach e1: the file tells them apart.
        let m = pos.parse_move("d1e1", Notation::Uci).unwrap();
        assert_eq!(write_san(&pos, m), "Ade1");
        assert_eq!(
            parse_san(&pos, "Ae1", LegalityModel::Fsf),
            Err(SanError::Ambiguous("Ae1".into()))
        );
        assert_eq!(write_san(&pos, Move::PASS), "Ke2");
        assert_eq!(parse_san(&pos, "Ke2", LegalityModel::Fsf), Ok(Move::PASS));
        assert!(matches!(
            parse_san(&pos, "Hd5", LegalityModel::Fsf),
            Err(SanError::NoSuchMove(_))
        ));
        assert!(matches!(
            parse_san(&pos, "Zz", LegalityModel::Fsf),
            Err(SanError::Syntax(_))
        ));
        assert!(matches!(
            parse_san(&pos, "", LegalityModel::Fsf),
            Err(SanError::Syntax(_))
        ));
        assert!(matches!(
            parse_san(&pos, "H졸3", LegalityModel::Fsf),
            Err(SanError::Syntax(_))
        ));
    }

    #[test]
    fn rank_ten_and_mate() {
        // Generals on d10 and e1 (not facing): the chariot checks along
        // the back rank.
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K1R2 w - - 0 1").unwrap();
        let m = pos.parse_move("g1g10", Notation::Uci).unwrap();
        assert_eq!(write_san(&pos, m), "Rg10+");
        assert_eq!(parse_san(&pos, "Rg10+", LegalityModel::Fsf), Ok(m));
        assert_eq!(parse_san(&pos, "Rg1g10", LegalityModel::Fsf), Ok(m));
        assert_eq!(parse_san(&pos, "R1g10", LegalityModel::Fsf), Ok(m));
        assert!(matches!(
            parse_san(&pos, "R2g10", LegalityModel::Fsf),
            Err(SanError::NoSuchMove(_))
        ));
    }
}
