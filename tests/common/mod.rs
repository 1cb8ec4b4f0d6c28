//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod session;

use janggi::{Game, LegalityModel, Notation, Position, Rules, Square};

/// The FEN after `moves` (UCI notation) from the start position.
pub fn fen_after(moves: &[&str]) -> String {
    let mut g = Game::new(Position::startpos(), Rules::default());
    for m in moves {
        let mv = g.position().parse_move(m, Notation::Uci).unwrap();
        g.play(mv).unwrap();
    }
    g.position().fen()
}

/// Builds a FEN from `(square, letter)` placements and the side to move.
pub fn fen_of(pieces: &[(&str, char)], side: char) -> String {
    let mut grid = [['.'; 9]; 10];
    for (sq, c) in pieces {
        let s = Square::parse_uci(sq).unwrap_or_else(|| panic!("bad square {sq}"));
        grid[s.rank() as usize][s.file() as usize] = *c;
    }
    let mut out = String::new();
    for (rank, row) in grid.iter().enumerate().rev() {
        let mut empty = 0;
        for &c in row {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push(c);
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    format!("{out} {side} - - 0 1")
}

/// A position from placements.
pub fn pos_of(pieces: &[(&str, char)], side: char) -> Position {
    let fen = fen_of(pieces, side);
    Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Sorted UCI texts of the legal moves (casual model) of the piece on `from`.
pub fn dests(pos: &Position, from: &str) -> Vec<String> {
    let f = Square::parse_uci(from).unwrap();
    let mut v: Vec<String> = pos
        .legal_moves(LegalityModel::Casual)
        .iter()
        .filter(|m| !m.is_pass() && m.from() == f)
        .map(|m| m.to().to_string())
        .collect();
    v.sort();
    v
}

/// Sorted UCI texts of all legal moves under `model`.
pub fn legal_texts(pos: &Position, model: LegalityModel) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves(model)
        .iter()
        .map(|&m| pos.move_text(m, Notation::Uci))
        .collect();
    v.sort();
    v
}

/// Sorted list of square names.
pub fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// A tiny deterministic generator for random games and positions.
pub struct Lcg(pub u64);

impl Lcg {
    /// The next 31-bit value.
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}
