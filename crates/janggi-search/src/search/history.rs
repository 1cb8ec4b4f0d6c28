//! Move-ordering memory: two killer moves per ply, the history heuristic
//! (per side, from-square × to-square) and counter moves.

use super::score::MAX_PLY;
use janggi_core::{Color, Move};

/// History values stay within ±`HISTORY_MAX`.
pub const HISTORY_MAX: i32 = 16_384;

/// Killers, history and counter moves of one search thread.
#[derive(Clone, Debug)]
pub struct History {
    killers: Vec<[Option<Move>; 2]>,
    table: Vec<i32>,
    counter: Vec<Option<Move>>,
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

#[inline]
fn index(color: Color, mv: Move) -> usize {
    (color.index() * 90 + mv.from().index()) * 90 + mv.to().index()
}

#[inline]
fn counter_index(prev: Move) -> usize {
    if prev.is_pass() {
        90 * 90
    } else {
        prev.from().index() * 90 + prev.to().index()
    }
}

impl History {
    /// Empty tables.
    pub fn new() -> History {
        History {
            killers: vec![[None; 2]; MAX_PLY + 2],
            table: vec![0; 2 * 90 * 90],
            counter: vec![None; 90 * 90 + 1],
        }
    }

    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.table.iter_mut().for_each(|h| *h = 0);
        self.counter.iter_mut().for_each(|c| *c = None);
    }

    /// Clears the killers (between searches; history is kept but halved).
    pub fn new_search(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.table.iter_mut().for_each(|h| *h /= 2);
    }

    /// The killer moves at `ply`.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers.get(ply).copied().unwrap_or([None; 2])
    }

    /// Clears the killers of `ply` (done for the children of a node).
    #[inline]
    pub fn clear_killers(&mut self, ply: usize) {
        if let Some(k) = self.killers.get_mut(ply) {
            *k = [None; 2];
        }
    }

    /// History score of a quiet move (pass: 0).
    #[inline]
    pub fn score(&self, color: Color, mv: Move) -> i32 {
        if mv.is_pass() {
            0
        } else {
            self.table[index(color, mv)]
        }
    }

    /// The counter move to `prev`.
    #[inline]
    pub fn counter(&self, prev: Option<Move>) -> Option<Move> {
        prev.and_then(|p| self.counter[counter_index(p)])
    }

    #[inline]
    fn bump(&mut self, color: Color, mv: Move, bonus: i32) {
        if mv.is_pass() {
            return;
        }
        let h = &mut self.table[index(color, mv)];
        // Gravity: the entry moves toward ±HISTORY_MAX and never leaves it.
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// A quiet move `best` caused a beta cutoff at `ply` with remaining
    /// `depth`; `tried` are the quiet moves searched before it.
    pub fn update(
        &mut self,
        color: Color,
        ply: usize,
        depth: i32,
        best: Move,
        prev: Option<Move>,
        tried: &[Move],
    ) {
        let bonus = (depth * depth * 16).min(HISTORY_MAX / 4);
        self.bump(color, best, bonus);
        for &m in tried {
            if m != best {
                self.bump(color, m, -bonus);
            }
        }
        if best.is_pass() {
            return;
        }
        if let Some(k) = self.killers.get_mut(ply) {
            if k[0] != Some(best) {
                k[1] = k[0];
                k[0] = Some(best);
            }
        }
        if let Some(p) = prev {
            self.counter[counter_index(p)] = Some(best);
        }
    }
}
