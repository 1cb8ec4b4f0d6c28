//! Quiescence search: captures until the position is quiet, all evasions
//! when in check, so that the static evaluation is never taken in the
//! middle of an exchange. Out of check, captures that lose material by
//! static exchange (SEE < 0) are not tried: the move picker drops them.

use super::history::OrderCtx;
use super::movepick::{is_capture, Kind, MovePicker};
use super::negamax::{verdict_score, Worker, EVAL_LIMIT};
use super::score::{INF, MATE, MAX_PLY};
use super::tree::After;
use super::tt::Bound;
use crate::eval::material::piece_value;

impl Worker<'_> {
    /// Quiescence search at `ply`.
    pub(crate) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.tree.must_answer_bikjang() && ply + 4 < MAX_PLY {
            // Standing pat is not an answer to bikjang.
            return self.search(alpha, beta, 1, ply, false);
        }
        self.clear_pv(ply);
        if self.count_node() {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        let in_check = self.in_check_at(ply);
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.static_eval() };
        }
        let key = self.tree.tt_key(&self.pos);
        let hit = self.shared.tt.probe(key, ply);
        if let Some(h) = hit {
            let ok = match h.bound {
                Bound::Exact => true,
                Bound::Lower => h.score >= beta,
                Bound::Upper => h.score <= alpha,
            };
            if ok {
                return h.score;
            }
        }
        let pv_node = beta - alpha > 1;
        let raw_eval = if in_check {
            -INF
        } else {
            match hit {
                Some(h) if h.eval.abs() < EVAL_LIMIT => h.eval,
                _ => self.static_eval(),
            }
        };
        let params = &self.shared.params;
        let stand = if params.corr_hist == 1 && !in_check {
            let c = self.history.correction.get(&self.pos, params.corr_max);
            (raw_eval + c).clamp(-EVAL_LIMIT, EVAL_LIMIT)
        } else {
            raw_eval
        };
        let mut best = stand;
        if !in_check {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        }
        let kind = if in_check {
            Kind::All {
                pass: self.tree.pass_allowed(true),
            }
        } else {
            Kind::Captures
        };
        let tt_move = hit.and_then(|h| h.mv);
        let ctx = OrderCtx {
            conts: [None; 2],
            capture_history: self.shared.params.capt_hist > 0,
        };
        let mut picker = MovePicker::new(&self.pos, kind, tt_move, [None; 2], None, ctx);
        let mut best_move = None;
        let mut legal = 0usize;
        let mut rep_forbidden = false;
        // The danger points, computed when a move first needs them (not in
        // check, and not for a node whose captures are all pruned).
        let mut danger = None;
        while let Some(mv) = picker.next(&self.pos, self.history) {
            let pass = mv.is_pass();
            let capture = is_capture(&self.pos, mv);
            if !in_check && capture {
                let victim = self
                    .pos
                    .piece_at(mv.to())
                    .map_or(0, |p| piece_value(p.kind));
                if stand + victim + self.shared.params.delta_margin <= alpha {
                    continue;
                }
            }
            if !pass
                && (in_check || danger.get_or_insert_with(|| self.pos.danger()).risky(mv))
                && self.pos.leaves_general_attacked(mv)
            {
                continue;
            }
            let Some(after) = self.make_in_loop(mv, capture, ply, &mut rep_forbidden) else {
                continue;
            };
            legal += 1;
            self.clear_pv(ply + 1);
            let score = match after {
                After::End(v) => -verdict_score(v, ply + 1),
                _ => -self.qsearch(-beta, -alpha, ply + 1),
            };
            self.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && legal == 0 {
            best = if rep_forbidden || self.tree.core_pass(true) {
                verdict_score(self.tree.counting(&self.pos), ply)
            } else {
                -MATE + ply as i32
            };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, ply, best_move, best, raw_eval, 0, bound);
        best
    }
}
