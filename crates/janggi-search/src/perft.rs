//! Perft: counting the leaves of the legal-move tree, the standard check of
//! a move generator against reference counts.

use janggi_core::{LegalityModel, Move, MoveList, Position};
use rayon::prelude::*;

/// Leaf count of the legal-move tree of `depth` plies under `model`, with
/// bulk counting at the last ply.
pub fn perft(pos: &mut Position, depth: u32, model: LegalityModel) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.legal_moves_into(model, &mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut n = 0;
    for &mv in &list {
        pos.make(mv);
        n += perft(pos, depth - 1, model);
        pos.unmake();
    }
    n
}

/// Below this remaining depth a subtree is counted on one thread.
const SPLIT_DEPTH: u32 = 3;

/// Leaf count with rayon splitting the top levels of the tree into tasks, so
/// that uneven root subtrees still keep every thread busy.
fn perft_split(pos: &Position, depth: u32, model: LegalityModel) -> u64 {
    if depth <= SPLIT_DEPTH {
        return perft(&mut pos.clone(), depth, model);
    }
    let moves = pos.legal_moves(model);
    moves
        .par_iter()
        .map(|&mv| {
            let mut p = pos.clone();
            p.make(mv);
            perft_split(&p, depth - 1, model)
        })
        .sum()
}

/// Per-root-move leaf counts (`divide`), computed on `threads` threads
/// (rayon; 1 = on the calling thread). Order: the legal move order.
pub fn divide(
    pos: &Position,
    depth: u32,
    model: LegalityModel,
    threads: usize,
) -> Vec<(Move, u64)> {
    let moves: Vec<Move> = pos.legal_moves(model).into_iter().collect();
    let child = |mv: &Move| {
        let mut p = pos.clone();
        p.make(*mv);
        p
    };
    let serial = || -> Vec<(Move, u64)> {
        moves
            .iter()
            .map(|mv| (*mv, perft(&mut child(mv), depth.saturating_sub(1), model)))
            .collect()
    };
    if threads <= 1 || depth <= 2 {
        return serial();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| {
            moves
                .par_iter()
                .map(|mv| (*mv, perft_split(&child(mv), depth - 1, model)))
                .collect()
        }),
        Err(_) => serial(),
    }
}

/// Total leaf count using `threads` threads.
pub fn perft_threads(pos: &Position, depth: u32, model: LegalityModel, threads: usize) -> u64 {
    if depth <= 1 {
        return perft(&mut pos.clone(), depth, model);
    }
    divide(pos, depth, model, threads)
        .iter()
        .map(|(_, n)| n)
        .sum()
}

/// One line of a perft EPD file: `FEN ;D1 n ;D2 n ... [;id label]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdEntry {
    /// The FEN.
    pub fen: String,
    /// `(depth, expected leaves)` pairs.
    pub counts: Vec<(u32, u64)>,
    /// The `id` label, if any.
    pub id: Option<String>,
}

/// A malformed EPD line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl std::fmt::Display for EpdError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for EpdError {}

/// Parses a perft EPD file (blank lines and `#` comments skipped).
///
/// # Errors
/// [`EpdError`] for a line whose fields are not `Dn count` or `id label`.
pub fn parse_epd(text: &str) -> Result<Vec<EpdEntry>, EpdError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        let mut e = EpdEntry {
            fen,
            counts: Vec::new(),
            id: None,
        };
        for part in parts {
            let part = part.trim();
            let err = |r: &str| EpdError {
                line: i + 1,
                reason: format!("{r}: '{part}'"),
            };
            if let Some(label) = part.strip_prefix("id ") {
                e.id = Some(label.trim().to_string());
            } else if let Some(rest) = part.strip_prefix('D') {
                let mut it = rest.split_whitespace();
                let d = it
                    .next()
                    .and_then(|x| x.parse().ok())
                    .ok_or_else(|| err("bad depth"))?;
                let n = it
                    .next()
                    .and_then(|x| x.parse().ok())
                    .ok_or_else(|| err("bad count"))?;
                e.counts.push((d, n));
            } else if !part.is_empty() {
                return Err(err("unknown field"));
            }
        }
        out.push(e);
    }
    Ok(out)
}
