//! Move-ordering memory: two killer moves per ply, the history heuristic
//! (per side, from-square × to-square), counter moves, continuation
//! history (moving piece and destination, against the same of the moves
//! one and two plies back), capture history (moving piece, destination,
//! victim) and the static evaluation's correction history.

use super::correction::Correction;
use super::score::MAX_PLY;
use janggi_core::{Color, Move, Position};

/// History values stay within ±`HISTORY_MAX`.
pub const HISTORY_MAX: i32 = 16_384;

/// A move's continuation key: moving piece (0..14) × destination, or
/// [`PASS_KEY`] for the pass.
pub type ContKey = u16;
/// Piece × destination keys.
const PIECE_TO: usize = 14 * 90;
/// The pass's continuation key.
pub const PASS_KEY: ContKey = PIECE_TO as ContKey;

/// The continuation key of `mv`, played from `pos` (before it is made).
#[inline]
pub fn cont_key(pos: &Position, mv: Move) -> ContKey {
    if mv.is_pass() {
        return PASS_KEY;
    }
    match pos.piece_at(mv.from()) {
        Some(p) => (p.index() * 90 + mv.to().index()) as ContKey,
        None => PASS_KEY,
    }
}

/// What a node's move ordering may use besides the from-to history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OrderCtx {
    /// The continuation keys of the moves one and two plies back (`None`:
    /// not used).
    pub conts: [Option<ContKey>; 2],
    /// Whether captures are ordered by capture history within MVV-LVA.
    pub capture_history: bool,
}

/// Killers, history and counter moves of one search thread.
#[derive(Clone, Debug)]
pub struct History {
    killers: Vec<[Option<Move>; 2]>,
    table: Vec<i32>,
    counter: Vec<Option<Move>>,
    /// `(PIECE_TO + 1) × PIECE_TO`: previous move's key × this move's.
    cont: Vec<i16>,
    /// Moving piece × destination × victim kind.
    capture: Vec<i16>,
    /// Whether `cont` and `capture` were written since the last clear
    /// (both are off by default: their 3 MB are not zeroed for nothing).
    cont_used: bool,
    capture_used: bool,
    /// The static evaluation's correction history.
    pub correction: Correction,
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
            cont: vec![0; (PIECE_TO + 1) * PIECE_TO],
            capture: vec![0; PIECE_TO * 7],
            cont_used: false,
            capture_used: false,
            correction: Correction::new(),
        }
    }

    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.table.iter_mut().for_each(|h| *h = 0);
        self.counter.iter_mut().for_each(|c| *c = None);
        if std::mem::take(&mut self.cont_used) {
            self.cont.iter_mut().for_each(|h| *h = 0);
        }
        if std::mem::take(&mut self.capture_used) {
            self.capture.iter_mut().for_each(|h| *h = 0);
        }
        self.correction.clear();
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

    /// History score of a quiet move, with its continuation history when
    /// `ctx` has the keys (without them the from-to history alone; pass: 0).
    #[inline]
    pub fn quiet_score(&self, pos: &Position, mv: Move, ctx: &OrderCtx) -> i32 {
        let us = pos.side_to_move();
        let mut s = self.score(us, mv);
        if ctx.conts[0].is_some() && !mv.is_pass() {
            let key = usize::from(cont_key(pos, mv));
            for prev in ctx.conts.iter().flatten() {
                s += i32::from(self.cont[usize::from(*prev) * PIECE_TO + key]);
            }
        }
        s
    }

    /// Capture history of a capture.
    #[inline]
    pub fn capture_score(&self, pos: &Position, mv: Move) -> i32 {
        match capture_index(pos, mv) {
            Some(i) => i32::from(self.capture[i]),
            None => 0,
        }
    }

    /// A capture `best` caused a cutoff (or a quiet move did, `best` is
    /// `None`); `tried` are the captures searched before it.
    pub fn update_captures(
        &mut self,
        pos: &Position,
        depth: i32,
        best: Option<Move>,
        tried: &[Move],
    ) {
        let bonus = (depth * depth * 16).min(HISTORY_MAX / 4);
        self.capture_used = true;
        if let Some(i) = best.and_then(|m| capture_index(pos, m)) {
            gravity16(&mut self.capture[i], bonus);
        }
        for &m in tried {
            if Some(m) != best {
                if let Some(i) = capture_index(pos, m) {
                    gravity16(&mut self.capture[i], -bonus);
                }
            }
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

    #[inline]
    fn bump_cont(&mut self, pos: &Position, mv: Move, ctx: &OrderCtx, bonus: i32) {
        if mv.is_pass() {
            return;
        }
        let key = usize::from(cont_key(pos, mv));
        for prev in ctx.conts.iter().flatten() {
            self.cont_used = true;
            gravity16(&mut self.cont[usize::from(*prev) * PIECE_TO + key], bonus);
        }
    }

    /// A quiet move `best` caused a beta cutoff at `ply` of `pos` with
    /// remaining `depth`; `tried` are the quiet moves searched before it.
    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &mut self,
        pos: &Position,
        ply: usize,
        depth: i32,
        best: Move,
        prev: Option<Move>,
        tried: &[Move],
        ctx: &OrderCtx,
    ) {
        let color = pos.side_to_move();
        let bonus = (depth * depth * 16).min(HISTORY_MAX / 4);
        self.bump(color, best, bonus);
        for &m in tried {
            if m != best {
                self.bump(color, m, -bonus);
            }
        }
        if ctx.conts[0].is_some() {
            self.bump_cont(pos, best, ctx, bonus);
            for &m in tried {
                if m != best {
                    self.bump_cont(pos, m, ctx, -bonus);
                }
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

/// Gravity on a 16-bit entry: it moves toward ±`HISTORY_MAX` and never
/// leaves it.
#[inline]
fn gravity16(h: &mut i16, bonus: i32) {
    let v = i32::from(*h);
    *h = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
}

#[inline]
fn capture_index(pos: &Position, mv: Move) -> Option<usize> {
    if mv.is_pass() {
        return None;
    }
    let mover = pos.piece_at(mv.from())?;
    let victim = pos.piece_at(mv.to())?;
    Some((mover.index() * 90 + mv.to().index()) * 7 + victim.kind.index())
}

#[cfg(test)]
mod tests {
    use super::*;
    use janggi_core::LegalityModel;

    fn mv(pos: &Position, uci: &str) -> Move {
        let m = pos
            .legal_moves(LegalityModel::Casual)
            .into_iter()
            .find(|m| !m.is_pass() && format!("{}{}", m.from(), m.to()) == uci);
        m.unwrap_or_else(|| panic!("{uci} is not legal"))
    }

    #[test]
    fn continuation_history_rewards_the_cutoff_and_punishes_the_tried() {
        let pos = Position::from_fen(janggi_core::START_FEN).expect("fen");
        let mut h = History::new();
        let ctx = OrderCtx {
            conts: [Some(3 * 90 + 40), Some(PASS_KEY)],
            capture_history: false,
        };
        let (a, b) = (mv(&pos, "b1c3"), mv(&pos, "a4b4"));
        let plain = h.score(pos.side_to_move(), a);
        h.update(&pos, 2, 6, a, None, &[b, a], &ctx);
        let with = h.quiet_score(&pos, a, &ctx);
        // The from-to entry and both continuation entries.
        assert_eq!(with, 3 * (h.score(pos.side_to_move(), a) - plain));
        assert!(h.quiet_score(&pos, b, &ctx) < 0);
        // Another previous move has its own entries.
        let other = OrderCtx {
            conts: [Some(5 * 90 + 10), None],
            capture_history: false,
        };
        assert_eq!(
            h.quiet_score(&pos, a, &other),
            h.score(pos.side_to_move(), a)
        );
        // Bounded by gravity.
        for _ in 0..1000 {
            h.update(&pos, 2, 40, a, None, &[], &ctx);
        }
        assert!(h.quiet_score(&pos, a, &ctx) <= 3 * HISTORY_MAX);
        h.clear();
        assert_eq!(h.quiet_score(&pos, a, &ctx), 0);
    }

    #[test]
    fn capture_history_follows_piece_destination_and_victim() {
        // A Cho chariot on e6 can take the soldier on e8 or the horse on c6.
        let pos = Position::from_fen("4k4/9/4p4/9/2n1R4/9/9/9/9/4K4 w - - 0 1").expect("fen");
        let (take_soldier, take_horse) = (mv(&pos, "e6e8"), mv(&pos, "e6c6"));
        let mut h = History::new();
        h.update_captures(&pos, 5, Some(take_soldier), &[take_horse]);
        assert!(h.capture_score(&pos, take_soldier) > 0);
        assert!(h.capture_score(&pos, take_horse) < 0);
        // A quiet move's cutoff punishes every capture tried before it.
        let before = h.capture_score(&pos, take_soldier);
        h.update_captures(&pos, 5, None, &[take_soldier]);
        let after = h.capture_score(&pos, take_soldier);
        assert!(
            after < before && after.abs() < before / 10,
            "{before} -> {after}"
        );
        assert_eq!(cont_key(&pos, Move::PASS), PASS_KEY);
        assert_ne!(cont_key(&pos, take_soldier), PASS_KEY);
        // A clear forgets it (the table is zeroed only once written).
        h.clear();
        assert_eq!(h.capture_score(&pos, take_soldier), 0);
        assert_eq!(h.capture_score(&pos, take_horse), 0);
    }
}
