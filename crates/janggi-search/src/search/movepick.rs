//! Staged move ordering (`MovePicker`): TT move → good captures (MVV-LVA)
//! → killers → counter move → quiets (history) → pass → bad captures.
//!
//! Moves come out pseudo-legal; the search checks legality. In the
//! captures-only mode (quiescence) bad captures are not yielded. A capture
//! is "bad" when its static exchange evaluation ([`see_ge`]) is negative.
//! A capture by a piece worth no more than its victim is never bad, so the
//! exchange is computed only for the others.

use super::history::{History, OrderCtx};
use super::see::see_ge;
use crate::eval::material::piece_value;
use arrayvec::ArrayVec;
use janggi_core::{search_support::GenKind, Move, MoveList, Position, MAX_MOVES};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    Pass,
    BadCaptures,
    Done,
}

/// What the picker yields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// All moves (main search), with the pass at the end when `pass` is set.
    All {
        /// Whether to yield the pass.
        pass: bool,
    },
    /// Captures only (quiescence search).
    Captures,
}

/// Ordered pseudo-legal moves of one node.
pub struct MovePicker {
    stage: Stage,
    kind: Kind,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    counter: Option<Move>,
    ctx: OrderCtx,
    list: MoveList,
    /// Ordering key of each move of `list` ([`order_key`]: its score and
    /// its place; filled when it is generated, not zeroed up front, which
    /// cost a 1 KB memset per node).
    scores: ArrayVec<i32, MAX_MOVES>,
    cur: usize,
    bad: MoveList,
    bad_cur: usize,
}

/// MVV-LVA score of a capture (most valuable victim, least valuable attacker).
#[inline]
pub fn mvv_lva(pos: &Position, mv: Move) -> i32 {
    let victim = pos.piece_at(mv.to()).map_or(0, |p| piece_value(p.kind));
    let attacker = pos.piece_at(mv.from()).map_or(0, |p| piece_value(p.kind));
    victim * 8 - attacker / 16
}

/// Ordering scores stay within this bound: MVV-LVA below 2^14, history
/// sums within 3 × `HISTORY_MAX` (gravity), a quarter of the capture
/// history on top; the bound only guards the packing of [`order_key`].
const SCORE_BOUND: i32 = (1 << 22) - 1;

/// The ordering key of the move at `index` of a list with `score`: the
/// score in the high bits, `255 - index` in the low 8 (a list holds at
/// most 256 moves), so that the greatest key is the best score's first
/// move and one maximum finds both.
#[inline(always)]
fn order_key(score: i32, index: usize) -> i32 {
    debug_assert!(index < MAX_MOVES && score.abs() <= SCORE_BOUND);
    score.clamp(-SCORE_BOUND, SCORE_BOUND) * 256 + (255 - index as i32)
}

/// Whether `mv` is a capture.
#[inline]
pub fn is_capture(pos: &Position, mv: Move) -> bool {
    !mv.is_pass() && pos.piece_at(mv.to()).is_some()
}

/// Whether a capture loses material in the exchange it starts.
#[inline]
fn is_bad_capture(pos: &Position, mv: Move) -> bool {
    !see_ge(pos, mv, 0)
}

impl MovePicker {
    /// A picker for `pos`.
    pub fn new(
        pos: &Position,
        kind: Kind,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
        ctx: OrderCtx,
    ) -> MovePicker {
        let tt_move = tt_move.filter(|&m| match kind {
            Kind::All { pass } => {
                if m.is_pass() {
                    pass
                } else {
                    pos.is_pseudo_legal(m)
                }
            }
            Kind::Captures => is_capture(pos, m) && pos.is_pseudo_legal(m),
        });
        MovePicker {
            stage: Stage::TtMove,
            kind,
            tt_move,
            killers,
            counter,
            ctx,
            list: MoveList::new(),
            scores: ArrayVec::new(),
            cur: 0,
            bad: MoveList::new(),
            bad_cur: 0,
        }
    }

    /// Whether `m` was already yielded by an earlier stage.
    #[inline]
    fn special(&self, m: Move) -> bool {
        Some(m) == self.tt_move
            || (matches!(self.kind, Kind::All { .. })
                && (Some(m) == self.killers[0]
                    || Some(m) == self.killers[1]
                    || Some(m) == self.counter))
    }

    /// A killer or counter move usable here: a pseudo-legal quiet move that
    /// is not the TT move.
    #[inline]
    fn quiet_candidate(&self, pos: &Position, m: Option<Move>) -> Option<Move> {
        let m = m?;
        if m.is_pass() || Some(m) == self.tt_move || is_capture(pos, m) || !pos.is_pseudo_legal(m) {
            return None;
        }
        Some(m)
    }

    /// Swaps the best-scored remaining move (the first of equals) to the
    /// front of the remaining ones and yields it.
    #[inline]
    fn pick_best(&mut self) -> Option<Move> {
        let cur = self.cur;
        let rest = self.scores.get(cur..)?;
        if rest.is_empty() {
            return None;
        }
        // One maximum over the keys (it vectorises) gives the best score
        // and, in the key's low bits, the first move with it.
        let max = rest.iter().copied().fold(i32::MIN, i32::max);
        let best = 255 - (max & 0xFF) as usize;
        self.list.swap(cur, best);
        // The move at `cur` goes to `best`: its key takes the new place.
        let moved = self.scores[cur];
        self.scores[best] = (moved & !0xFF) | (255 - best as i32);
        self.cur = cur + 1;
        Some(self.list[cur])
    }

    /// The next move, best first.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenCaptures;
                    if self.tt_move.is_some() {
                        return self.tt_move;
                    }
                }
                Stage::GenCaptures => {
                    self.list.clear();
                    self.cur = 0;
                    pos.generate(GenKind::Captures, &mut self.list);
                    self.scores.clear();
                    if self.ctx.capture_history {
                        self.scores
                            .extend(self.list.iter().enumerate().map(|(i, &m)| {
                                order_key(mvv_lva(pos, m) + history.capture_score(pos, m) / 4, i)
                            }));
                    } else {
                        self.scores.extend(
                            self.list
                                .iter()
                                .enumerate()
                                .map(|(i, &m)| order_key(mvv_lva(pos, m), i)),
                        );
                    }
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.pick_best() {
                    Some(m) => {
                        if Some(m) == self.tt_move {
                            continue;
                        }
                        if is_bad_capture(pos, m) {
                            // Quiescence drops losing captures; the main
                            // search tries them last.
                            if matches!(self.kind, Kind::All { .. }) {
                                self.bad.push(m);
                            }
                            continue;
                        }
                        return Some(m);
                    }
                    None => {
                        self.stage = match self.kind {
                            Kind::All { .. } => Stage::Killer1,
                            Kind::Captures => Stage::Done,
                        };
                    }
                },
                Stage::Killer1 => {
                    self.stage = Stage::Killer2;
                    if let Some(m) = self.quiet_candidate(pos, self.killers[0]) {
                        return Some(m);
                    }
                }
                Stage::Killer2 => {
                    self.stage = Stage::Counter;
                    if self.killers[1] != self.killers[0] {
                        if let Some(m) = self.quiet_candidate(pos, self.killers[1]) {
                            return Some(m);
                        }
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::GenQuiets;
                    if self.counter != self.killers[0] && self.counter != self.killers[1] {
                        if let Some(m) = self.quiet_candidate(pos, self.counter) {
                            return Some(m);
                        }
                    }
                }
                Stage::GenQuiets => {
                    self.list.clear();
                    self.cur = 0;
                    pos.generate(GenKind::Quiets, &mut self.list);
                    self.scores.clear();
                    let ctx = self.ctx;
                    self.scores.extend(
                        self.list
                            .iter()
                            .enumerate()
                            .map(|(i, &m)| order_key(history.quiet_score(pos, m, &ctx), i)),
                    );
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => match self.pick_best() {
                    Some(m) => {
                        if self.special(m) {
                            continue;
                        }
                        return Some(m);
                    }
                    None => self.stage = Stage::Pass,
                },
                Stage::Pass => {
                    self.stage = Stage::BadCaptures;
                    if let Kind::All { pass: true } = self.kind {
                        if self.tt_move != Some(Move::PASS) {
                            return Some(Move::PASS);
                        }
                    }
                }
                Stage::BadCaptures => {
                    if self.bad_cur < self.bad.len() {
                        let m = self.bad[self.bad_cur];
                        self.bad_cur += 1;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use janggi_core::LegalityModel;

    /// The packed keys yield the moves in exactly the order of the plain
    /// selection they replace (the first move of the best score, swapped
    /// to the front), ties and negative scores included, up to full lists.
    #[test]
    fn packed_keys_pick_like_plain_selection() {
        let mut rng = janggi_core::rng::SplitMix64::new(5);
        let all: Vec<Move> = janggi_core::Square::ALL
            .iter()
            .flat_map(|&a| {
                janggi_core::Square::ALL
                    .iter()
                    .filter_map(move |&b| Move::new(a, b))
            })
            .collect();
        for round in 0..400 {
            let n = if round % 10 == 0 {
                MAX_MOVES
            } else {
                1 + rng.below(80)
            };
            let spread = [3, 50, 2 * SCORE_BOUND as usize][round % 3];
            let moves: Vec<Move> = (0..n).map(|_| all[rng.below(all.len())]).collect();
            let scores: Vec<i32> = (0..n)
                .map(|_| rng.below(spread + 1) as i32 - (spread / 2) as i32)
                .collect();
            // The plain selection.
            let (mut pm, mut ps) = (moves.clone(), scores.clone());
            let mut plain = Vec::new();
            for cur in 0..n {
                let max = ps[cur..].iter().copied().max().unwrap();
                let best = cur + ps[cur..].iter().position(|&s| s == max).unwrap();
                pm.swap(cur, best);
                ps.swap(cur, best);
                plain.push(pm[cur]);
            }
            let mut picker = MovePicker::new(
                &Position::from_fen(janggi_core::START_FEN).unwrap(),
                Kind::Captures,
                None,
                [None; 2],
                None,
                OrderCtx::default(),
            );
            picker.list.extend(moves.iter().copied());
            picker
                .scores
                .extend(scores.iter().enumerate().map(|(i, &s)| order_key(s, i)));
            let packed: Vec<Move> = std::iter::from_fn(|| picker.pick_best()).collect();
            assert_eq!(packed, plain, "round {round}");
        }
    }

    /// The picker yields every pseudo-legal move exactly once (plus the pass).
    #[test]
    fn yields_each_move_once() {
        let fens = [
            janggi_core::START_FEN,
            "1bn1a1b2/5k3/rc3cn2/p5p2/2p6/2P4Pr/P3P3P/NC4N2/9/R1BKAAB2 b - - 3 14",
            "rb1a1ab2/4k2C1/1c1nc1n1R/p2pp1pp1/9/2P6/P2r5/RC1K5/3A5/1NB2ANB1 w - - 0 9",
        ];
        let history = History::new();
        for fen in fens {
            let pos = Position::from_fen(fen).expect("fen");
            let mut all = MoveList::new();
            pos.generate(GenKind::All, &mut all);
            let legal = pos.legal_moves(LegalityModel::Casual);
            let tt = legal.first().copied();
            let k = [legal.get(3).copied(), legal.get(5).copied()];
            let mut p = MovePicker::new(
                &pos,
                Kind::All { pass: true },
                tt,
                k,
                legal.get(7).copied(),
                OrderCtx::default(),
            );
            let mut seen = Vec::new();
            while let Some(m) = p.next(&pos, &history) {
                assert!(!seen.contains(&m), "{m:?} twice in {fen}");
                seen.push(m);
            }
            assert_eq!(seen.len(), all.len() + 1, "{fen}");
        }
    }

    /// The danger filter keeps exactly the legal moves (random playouts
    /// from the bench positions).
    #[test]
    fn danger_filter_matches_legal_moves() {
        let mut seed = 12345u64;
        for fen in crate::bench::FENS {
            let mut pos = Position::from_fen(fen).expect("fen");
            for _ in 0..40 {
                if pos.is_terminal_by_history(LegalityModel::Casual) {
                    break;
                }
                let legal = pos.legal_moves(LegalityModel::Casual);
                let mut all = MoveList::new();
                pos.generate(GenKind::All, &mut all);
                let in_check = pos.in_check();
                let danger = pos.danger();
                let mut mine: Vec<Move> = all
                    .iter()
                    .copied()
                    .filter(|&m| !((in_check || danger.risky(m)) && pos.leaves_general_attacked(m)))
                    .collect();
                let mut theirs: Vec<Move> =
                    legal.iter().copied().filter(|m| !m.is_pass()).collect();
                mine.sort_by_key(|m| m.bits());
                theirs.sort_by_key(|m| m.bits());
                assert_eq!(mine, theirs, "{}", pos.fen());
                if legal.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos.make(legal[(seed >> 33) as usize % legal.len()]);
            }
        }
    }
}
