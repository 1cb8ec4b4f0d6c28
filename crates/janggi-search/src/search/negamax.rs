//! The main search: negamax alpha-beta with principal variation search,
//! transposition table, null move (the real pass), late move reductions,
//! futility pruning, check extension and mate distance pruning.

use super::history::{cont_key, ContKey, History, OrderCtx, PASS_KEY};
use super::limits::Timer;
use super::movepick::{is_capture, Kind, MovePicker};
use super::params::SearchParams;
use super::score::{INF, MATE, MAX_PLY, RULE_WIN, WIN_BOUND};
use super::see::see_ge;
use super::thread::Plan;
use super::tree::{After, Tree, Verdict};
use super::tt::{Bound, Tt};
use super::{CurrMove, Progress, SearchControl, CURRMOVE_AFTER};
use crate::eval;
use crate::nnue::{AccStack, Network};
use arrayvec::ArrayVec;
use janggi_core::{Move, PieceKind, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// Nodes between two looks at the clock and the stop flags.
const POLL_INTERVAL: u64 = 1024;
/// Static evaluations are kept inside ±this, far from decisive scores.
pub(crate) const EVAL_LIMIT: i32 = 20_000;

/// State shared by all search threads of one search.
pub(crate) struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a Tt,
    /// Set by the main thread when the search is over (helpers stop).
    pub done: &'a AtomicBool,
    /// The facade's flags.
    pub control: &'a SearchControl,
    /// Nodes published by each thread.
    pub nodes: &'a [AtomicU64],
    /// The network, when the search evaluates with it.
    pub network: Option<&'a Arc<Network>>,
    /// The pruning, reduction and extension parameters.
    pub params: &'a SearchParams,
}

/// A root move with its latest score and principal variation.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub seldepth: usize,
    pub pv: Vec<Move>,
}

impl RootMove {
    pub fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INF,
            prev_score: -INF,
            seldepth: 0,
            pv: vec![mv],
        }
    }
}

/// The score of a decided game for the side to move at `ply`.
#[inline]
pub(crate) fn verdict_score(v: Verdict, ply: usize) -> i32 {
    match v {
        Verdict::Win => RULE_WIN - ply as i32,
        Verdict::Loss => -RULE_WIN + ply as i32,
        Verdict::Draw => 0,
        Verdict::Mated => -MATE + ply as i32,
    }
}

/// One search thread's data.
pub(crate) struct Worker<'a> {
    pub id: usize,
    pub shared: &'a Shared<'a>,
    pub pos: Position,
    pub tree: Tree,
    pub history: &'a mut History,
    pub nodes: u64,
    pub node_limit: Option<u64>,
    pub timer: Option<Timer>,
    pub was_pondering: bool,
    pub stopped: bool,
    pub seldepth: usize,
    pub root_depth: i32,
    pub root_moves: Vec<RootMove>,
    pub pv_idx: usize,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    evals: [i32; MAX_PLY + 2],
    moves: [Option<Move>; MAX_PLY + 2],
    /// The continuation key of the move made at each ply.
    conts: [ContKey; MAX_PLY + 2],
    /// Whether the side to move at each ply is in check, when the parent
    /// already knows it (it tested whether its move gives check).
    checks: [Option<bool>; MAX_PLY + 3],
    params: &'a SearchParams,
    nmp_off: bool,
    /// The move a singular-extension search at each ply leaves out.
    excluded: [Option<Move>; MAX_PLY + 2],
    /// The network's accumulators along the current line (`None`: the
    /// handcrafted evaluation).
    nnue: Option<AccStack>,
}

impl<'a> Worker<'a> {
    pub fn new(
        id: usize,
        shared: &'a Shared<'a>,
        pos: Position,
        tree: Tree,
        history: &'a mut History,
        root_moves: Vec<RootMove>,
    ) -> Worker<'a> {
        Worker {
            id,
            shared,
            tree,
            history,
            nodes: 0,
            node_limit: None,
            timer: None,
            was_pondering: false,
            stopped: false,
            seldepth: 0,
            root_depth: 0,
            root_moves,
            pv_idx: 0,
            pv: vec![[Move::PASS; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            evals: [0; MAX_PLY + 2],
            moves: [None; MAX_PLY + 2],
            conts: [PASS_KEY; MAX_PLY + 2],
            checks: [None; MAX_PLY + 3],
            params: shared.params,
            nmp_off: false,
            excluded: [None; MAX_PLY + 2],
            nnue: shared
                .network
                .map(|net| AccStack::new(Arc::clone(net), &pos)),
            pos,
        }
    }

    /// Counts a node; true when the search must unwind.
    #[inline]
    pub(crate) fn count_node(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if let Some(l) = self.node_limit {
            if self.nodes >= l {
                self.stopped = true;
                return true;
            }
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_INTERVAL) {
            self.poll();
        }
        self.stopped
    }

    /// Publishes the node count and looks at the flags and the clock.
    pub(crate) fn poll(&mut self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        if self.shared.done.load(Ordering::Relaxed) || self.shared.control.stopped() {
            self.stopped = true;
            return;
        }
        if let Some(timer) = self.timer.as_mut() {
            if self.shared.control.pondering.load(Ordering::Relaxed) {
                self.was_pondering = true;
                return;
            }
            if self.was_pondering {
                // ponderhit: our clock starts now.
                self.was_pondering = false;
                timer.restart();
            }
            // Depth 1 must finish so that a move is known.
            if timer.hard_expired() && self.root_depth > 1 {
                self.stopped = true;
            }
        }
    }

    #[inline]
    pub(crate) fn static_eval(&mut self) -> i32 {
        let v = match self.nnue.as_mut() {
            Some(acc) => acc.evaluate(&self.pos),
            None => eval::evaluate(&self.pos),
        };
        v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// Whether the side to move at `ply` is in check (as the parent recorded
    /// it with [`Worker::hint_check`], else computed).
    #[inline]
    pub(crate) fn in_check_at(&mut self, ply: usize) -> bool {
        match self.checks.get(ply).copied().flatten() {
            Some(c) => c,
            None => self.pos.in_check(),
        }
    }

    /// Records for the child at `ply` whether it is in check.
    #[inline]
    pub(crate) fn hint_check(&mut self, ply: usize, check: Option<bool>) {
        if let Some(c) = self.checks.get_mut(ply) {
            *c = check;
        }
    }

    #[inline]
    pub(crate) fn clear_pv(&mut self, ply: usize) {
        self.pv_len[ply] = 0;
    }

    #[inline]
    pub(crate) fn update_pv(&mut self, ply: usize, mv: Move) {
        let child = self.pv_len[ply + 1].min(MAX_PLY - 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = mv;
        head[ply][1..=child].copy_from_slice(&tail[0][..child]);
        self.pv_len[ply] = child + 1;
    }

    /// Makes `mv` on the position and the rule state.
    #[inline]
    pub(crate) fn make_move(&mut self, mv: Move, capture: bool, ply: usize) -> After {
        if let Some(acc) = self.nnue.as_mut() {
            acc.push(&self.pos, mv);
        }
        self.conts[ply] = cont_key(&self.pos, mv);
        // Whether the move can give check, from its two points alone; exact
        // only when the other general is not attacked now, which a pass made
        // in check (Fairy-Stockfish's bikjang) or a root position from
        // outside can break: those ask the full test.
        let may_check =
            self.pos.may_give_check(mv) || mv.is_pass() || ply == 0 || self.tree.last_was_pass();
        self.pos.make(mv);
        self.shared
            .tt
            .prefetch(self.tree.tt_key_guess(&self.pos, mv, capture));
        self.moves[ply] = Some(mv);
        // Computed once here: the child, the move loop and the rule state
        // (Fairy-Stockfish's repetition rule) all need it.
        let check = may_check && self.pos.in_check();
        self.hint_check(ply + 1, Some(check));
        self.tree.push(&self.pos, mv, capture, check)
    }

    #[inline]
    /// Makes `mv` inside a move loop. When the rules refuse the result (an
    /// illegal move under Fairy-Stockfish's bikjang rule, or a forbidden
    /// repetition, which also sets `*rep_forbidden`) the move is taken back
    /// and `None` returned; otherwise the move stays made.
    pub(crate) fn make_in_loop(
        &mut self,
        mv: Move,
        capture: bool,
        ply: usize,
        rep_forbidden: &mut bool,
    ) -> Option<After> {
        let after = self.make_move(mv, capture, ply);
        match after {
            After::Illegal => {}
            After::RepetitionForbidden => *rep_forbidden = true,
            _ => return Some(after),
        }
        self.unmake_move();
        None
    }

    pub(crate) fn unmake_move(&mut self) {
        self.tree.pop();
        self.pos.unmake();
        if let Some(acc) = self.nnue.as_mut() {
            acc.pop();
        }
    }

    /// Whether the side to move has pieces other than general, guards and
    /// soldiers (null move is unsafe in bare endings).
    fn has_big_pieces(&self) -> bool {
        let us = self.pos.side_to_move();
        let big = self.pos.pieces(us, PieceKind::Chariot)
            | self.pos.pieces(us, PieceKind::Cannon)
            | self.pos.pieces(us, PieceKind::Horse)
            | self.pos.pieces(us, PieceKind::Elephant);
        !big.is_empty()
    }

    /// Searches the root moves from `pv_idx` on at `depth` within
    /// (`alpha`, `beta`); returns the best score. Root moves come from the
    /// game layer and are searched even if the tree's rules disagree.
    /// `report` (the main thread's) hears of each move once the search
    /// has run for [`CURRMOVE_AFTER`].
    pub(crate) fn root_search(
        &mut self,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        plan: &Plan,
        report: &mut Option<&mut dyn FnMut(Progress<'_>)>,
    ) -> i32 {
        let mut best = -INF;
        self.pv_len[0] = 0;
        for i in self.pv_idx..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            if let Some(r) = report
                .as_mut()
                .filter(|_| plan.start.elapsed() >= CURRMOVE_AFTER)
            {
                r(Progress::CurrMove(CurrMove {
                    depth: depth.max(1) as u32,
                    mv,
                    number: i + 1,
                }));
            }
            let capture = is_capture(&self.pos, mv);
            let sel_before = self.seldepth;
            self.seldepth = 0;
            let after = self.make_move(mv, capture, 0);
            self.pv_len[1] = 0;
            let gives_check = self.in_check_at(1);
            let score = match after {
                After::End(v) => -verdict_score(v, 1),
                // The game layer allows a 4th occurrence under `forbid` only
                // when nothing else is legal, and then the game ends by
                // counting.
                After::RepetitionForbidden => -verdict_score(self.tree.counting(&self.pos), 1),
                _ => {
                    let new_depth = depth - 1 + i32::from(gives_check);
                    if i == self.pv_idx {
                        -self.search(-beta, -alpha, new_depth, 1, false)
                    } else {
                        let mut r = 0;
                        if depth >= 3 && !capture && !gives_check && i > self.pv_idx + 3 {
                            r = (i32::from(self.params.lmr()[depth.min(63) as usize][i.min(63)])
                                - 1)
                            .max(0);
                            r = r.min(new_depth - 1).max(0);
                        }
                        let mut s = -self.search(-alpha - 1, -alpha, new_depth - r, 1, true);
                        if s > alpha && r > 0 {
                            s = -self.search(-alpha - 1, -alpha, new_depth, 1, true);
                        }
                        if s > alpha && s < beta {
                            s = -self.search(-beta, -alpha, new_depth, 1, false);
                        }
                        s
                    }
                }
            };
            self.unmake_move();
            let sel = self.seldepth.max(1);
            self.seldepth = sel_before.max(sel);
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            if i == self.pv_idx || score > alpha {
                rm.score = score;
                rm.seldepth = sel;
                rm.pv.clear();
                rm.pv.push(mv);
                let n = self.pv_len[1];
                rm.pv.extend_from_slice(&self.pv[1][..n]);
            } else {
                rm.score = -INF;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// ProbCut's captures at `ply`: the first whose quiescence and then
    /// reduced search reach `pc_beta` gives the node's score (stored as a
    /// lower bound). `None` when the stop flag or no capture got there.
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        pc_beta: i32,
        depth: i32,
        ply: usize,
        cut: bool,
        tt_move: Option<Move>,
        raw_eval: i32,
        key: u64,
    ) -> Option<i32> {
        let ctx = OrderCtx {
            conts: [None; 2],
            capture_history: self.params.capt_hist > 0,
        };
        let mut picker = MovePicker::new(&self.pos, Kind::Captures, tt_move, [None; 2], None, ctx);
        let danger = self.pos.danger();
        let mut rep_forbidden = false;
        while let Some(mv) = picker.next(&self.pos, self.history) {
            if !see_ge(&self.pos, mv, pc_beta - raw_eval) {
                continue;
            }
            if danger.risky(mv) && self.pos.leaves_general_attacked(mv) {
                continue;
            }
            let Some(after) = self.make_in_loop(mv, true, ply, &mut rep_forbidden) else {
                continue;
            };
            let mut v = match after {
                After::End(v) => -verdict_score(v, ply + 1),
                _ => -self.qsearch(-pc_beta, -pc_beta + 1, ply + 1),
            };
            if v >= pc_beta && matches!(after, After::Continue) {
                v = -self.search(-pc_beta, -pc_beta + 1, depth - 4, ply + 1, !cut);
            }
            self.unmake_move();
            if self.stopped {
                return None;
            }
            if v >= pc_beta {
                self.shared
                    .tt
                    .store(key, ply, Some(mv), v, raw_eval, depth - 3, Bound::Lower);
                return Some(v);
            }
        }
        None
    }

    /// Negamax alpha-beta search of the current position at `ply` > 0.
    pub(crate) fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        if depth <= 0 {
            if !self.tree.must_answer_bikjang() || ply + 4 >= MAX_PLY {
                return self.qsearch(alpha, beta, ply);
            }
            // The answer to bikjang is a quiet move: look at all of them.
            depth = 1;
        }
        self.pv_len[ply] = 0;
        if self.count_node() {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if ply >= MAX_PLY - 2 {
            return self.static_eval();
        }

        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let in_check = self.in_check_at(ply);
        let key = self.tree.tt_key(&self.pos);
        // A singular-extension search (one move left out) is another
        // node than the full one: it neither reads nor writes the table.
        let excluded = self.excluded[ply];
        let hit = if excluded.is_some() {
            None
        } else {
            self.shared.tt.probe(key, ply)
        };
        let tt_move = hit.and_then(|h| h.mv);
        if let Some(h) = hit {
            if !pv_node && h.depth >= depth {
                let ok = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                };
                if ok {
                    return h.score;
                }
            }
        }

        let raw_eval = if in_check {
            -INF
        } else {
            match hit {
                Some(h) if h.eval.abs() < EVAL_LIMIT => h.eval,
                _ => self.static_eval(),
            }
        };
        // The correction history's guess of the evaluation's error here.
        let eval = if self.params.corr_hist > 0 && !in_check {
            let c = self.history.correction.get(&self.pos, self.params.corr_max);
            (raw_eval + c).clamp(-EVAL_LIMIT, EVAL_LIMIT)
        } else {
            raw_eval
        };
        self.evals[ply] = eval;
        let eval_static = eval;
        let improving = !in_check && ply >= 2 && eval > self.evals[ply - 2];
        // The hash score, where its bound says the static evaluation is
        // too low or too high, is the better guess for pruning.
        let eval = match hit {
            Some(h) if self.params.tt_eval > 0 && !in_check && h.score.abs() < WIN_BOUND => {
                match h.bound {
                    Bound::Exact => h.score,
                    Bound::Lower => eval.max(h.score),
                    Bound::Upper => eval.min(h.score),
                }
            }
            _ => eval,
        };
        let must_answer = self.tree.must_answer_bikjang();

        if !pv_node && !in_check && !must_answer && excluded.is_none() {
            // Reverse futility pruning.
            if depth <= self.params.rfp_depth
                && eval - self.params.rfp_margin * (depth - i32::from(improving)) >= beta
                && eval.abs() < self.params.rfp_max
                && eval.abs() < WIN_BOUND
                && beta.abs() < WIN_BOUND
            {
                return eval;
            }
            // Razoring.
            if depth == 1 && alpha.abs() < WIN_BOUND && eval + self.params.razor_margin < alpha {
                let v = self.qsearch(alpha, alpha + 1, ply);
                if v <= alpha {
                    return v;
                }
            }
            // Null move: Janggi's pass (한수쉼) is a real move, so "doing
            // nothing" is an option the side to move really has whenever
            // passing is allowed: the null move is searched as that pass,
            // through the rule state (a pass answered by a pass ends the
            // game by counting; a pass that leaves bikjang standing ends it
            // too). Without the pass, zugzwang is possible: deep null-move
            // cutoffs are then verified by a normal search.
            if depth >= 3
                && eval >= beta
                && !self.nmp_off
                && !self.tree.last_was_pass()
                && self.has_big_pieces()
                && beta.abs() < WIN_BOUND
            {
                let p = self.params;
                let r =
                    p.nmp_base + depth / p.nmp_depth_div + ((eval - beta) / p.nmp_eval_div).min(3);
                let after = self.make_move(Move::PASS, false, ply);
                self.pv_len[ply + 1] = 0;
                let score = match after {
                    After::Continue => {
                        Some(-self.search(-beta, -beta + 1, depth - r, ply + 1, !cut))
                    }
                    After::End(v) => Some(-verdict_score(v, ply + 1)),
                    _ => None,
                };
                self.unmake_move();
                if self.stopped {
                    return 0;
                }
                if let Some(mut score) = score {
                    if score >= beta {
                        if score >= WIN_BOUND {
                            score = beta;
                        }
                        if self.tree.rules().allow_pass || depth < 10 {
                            return score;
                        }
                        self.nmp_off = true;
                        let v = self.search(beta - 1, beta, depth - r, ply, false);
                        self.nmp_off = false;
                        if v >= beta {
                            return score;
                        }
                    }
                }
            }
        }

        // ProbCut: a good capture whose reduced search beats beta by a
        // margin would almost surely beat beta at full depth.
        if self.params.probcut > 0
            && !pv_node
            && !in_check
            && !must_answer
            && excluded.is_none()
            && depth >= self.params.probcut_depth
            && beta.abs() < WIN_BOUND
        {
            let pc_beta = beta + self.params.probcut;
            // A hash entry deep enough that says the margin is not reached.
            let refuted = hit.is_some_and(|h| h.depth >= depth - 3 && h.score < pc_beta);
            if !refuted {
                if let Some(v) = self.probcut(pc_beta, depth, ply, cut, tt_move, raw_eval, key) {
                    return v;
                }
            }
        }

        // Internal iterative reduction: no hash move, search shallower.
        if tt_move.is_none()
            && excluded.is_none()
            && depth >= self.params.iir_depth
            && (pv_node || cut)
        {
            depth -= 1;
        }

        let us = self.pos.side_to_move();
        let prev = if ply > 0 { self.moves[ply - 1] } else { None };
        let pass_ok = self.tree.pass_allowed(in_check);
        let killers = self.history.killers(ply);
        let counter = self.history.counter(prev);
        let ctx = OrderCtx {
            conts: if self.params.cont_hist > 0 {
                [
                    Some(self.conts[ply - 1]),
                    ply.checked_sub(2).map(|p| self.conts[p]),
                ]
            } else {
                [None; 2]
            },
            capture_history: self.params.capt_hist > 0,
        };
        let mut picker = MovePicker::new(
            &self.pos,
            Kind::All { pass: pass_ok },
            tt_move,
            killers,
            counter,
            ctx,
        );
        let mut best = -INF;
        let mut best_move = None;
        let mut legal = 0usize;
        let mut rep_forbidden = false;
        let mut pass_tried = false;
        let mut quiets: ArrayVec<Move, 64> = ArrayVec::new();
        let mut captures: ArrayVec<Move, 32> = ArrayVec::new();
        let lmp_limit = (3 + depth * depth) as usize / if improving { 1 } else { 2 };

        // The danger points, computed when a move first needs them (never
        // in check, where every move is tested).
        let mut danger = None;
        while let Some(mv) = picker.next(&self.pos, self.history) {
            if Some(mv) == excluded {
                continue;
            }
            let pass = mv.is_pass();
            if !pass
                && (in_check || danger.get_or_insert_with(|| self.pos.danger()).risky(mv))
                && self.pos.leaves_general_attacked(mv)
            {
                continue;
            }
            // Singular extension: when every other move stays clearly
            // below the hash move's score, the hash move is extended; when
            // even without it the node fails high, it is cut (multi-cut);
            // when the hash score alone beats beta, the hash move is
            // searched a ply shallower.
            let mut singular = 0;
            // (From depth 4 at least: the left-out search must not be a
            // quiescence search, which knows nothing of the left-out move.)
            if Some(mv) == tt_move
                && self.params.se_depth > 0
                && depth >= self.params.se_depth.max(4)
            {
                if let Some(h) = hit.filter(|h| {
                    h.bound != Bound::Upper
                        && h.depth >= depth - 3
                        && h.score.abs() < WIN_BOUND
                        && !must_answer
                        && (ply as i32) < 2 * self.root_depth
                }) {
                    let s_beta = h.score - self.params.se_margin * depth;
                    self.excluded[ply] = Some(mv);
                    let v = self.search(s_beta - 1, s_beta, (depth - 1) / 2, ply, cut);
                    self.excluded[ply] = None;
                    if self.stopped {
                        return 0;
                    }
                    if v < s_beta {
                        singular = 1;
                    } else if s_beta >= beta {
                        return s_beta;
                    } else if h.score >= beta {
                        singular = -1;
                    }
                    // The left-out search used this ply's slots.
                    self.evals[ply] = eval_static;
                    self.pv_len[ply] = 0;
                }
            }
            let capture = is_capture(&self.pos, mv);
            let special = Some(mv) == tt_move || Some(mv) == killers[0] || Some(mv) == killers[1];
            // The quiet move's history (with continuation history when on),
            // read before the move is made.
            let stat = if capture {
                0
            } else {
                self.history.quiet_score(&self.pos, mv, &ctx)
            };
            let Some(after) = self.make_in_loop(mv, capture, ply, &mut rep_forbidden) else {
                continue;
            };
            legal += 1;
            pass_tried |= pass;
            let gives_check = self.in_check_at(ply + 1);
            // Late move pruning and futility pruning of quiet moves that
            // do not give check and cannot raise alpha.
            if !pv_node
                && !in_check
                && !must_answer
                && !capture
                && !gives_check
                && !special
                && legal > 1
                && best > -WIN_BOUND
                && matches!(after, After::Continue)
                && ((depth <= self.params.lmp_depth && quiets.len() >= lmp_limit)
                    || (self.params.hist_prune > 0
                        && !pass
                        && depth <= self.params.hist_prune_depth
                        && stat < -self.params.hist_prune * depth)
                    || (depth <= self.params.futility_depth
                        && alpha.abs() < WIN_BOUND
                        && eval + self.params.futility_base + self.params.futility_per_ply * depth
                            <= alpha))
            {
                self.unmake_move();
                if !quiets.is_full() {
                    quiets.push(mv);
                }
                continue;
            }
            self.pv_len[ply + 1] = 0;
            let score = match after {
                After::End(v) => -verdict_score(v, ply + 1),
                _ => {
                    let check_ext = i32::from(
                        gives_check
                            && (ply as i32) < 2 * self.root_depth
                            && depth > self.params.check_ext_depth
                            && (in_check || eval_static.abs() > self.params.check_ext_eval),
                    );
                    let ext = if singular < 0 {
                        singular
                    } else {
                        check_ext.max(singular)
                    };
                    let new_depth = depth - 1 + ext;
                    if legal == 1 {
                        -self.search(-beta, -alpha, new_depth, ply + 1, !pv_node && !cut)
                    } else {
                        let mut r = 0;
                        // Late move reductions: quiet moves late in the
                        // order, checks and evasions included (captures
                        // too when `lmr_capture` ≥ 0).
                        let reducible = !capture || self.params.lmr_capture >= 0;
                        if depth >= 3 && reducible && legal > 1 + 2 * usize::from(pv_node) {
                            r = i32::from(self.params.lmr()[depth.min(63) as usize][legal.min(63)]);
                            r -= if capture {
                                self.params.lmr_capture
                            } else if self.params.cont_hist >= 2 {
                                stat / (2 * self.params.lmr_history)
                            } else {
                                self.history.score(us, mv) / self.params.lmr_history
                            };
                            r -= i32::from(pv_node);
                            r += i32::from(cut);
                            r -= i32::from(special);
                            r += i32::from(!improving);
                            if gives_check {
                                r -= self.params.lmr_check;
                            }
                            r = r.clamp(0, (new_depth - 1).max(0));
                        }
                        let mut s = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                        if s > alpha && r > 0 {
                            s = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, !cut);
                        }
                        if pv_node && s > alpha && s < beta {
                            s = -self.search(-beta, -alpha, new_depth, ply + 1, false);
                        }
                        s
                    }
                }
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
                        if !capture {
                            self.history
                                .update(&self.pos, ply, depth, mv, prev, &quiets, &ctx);
                        }
                        if ctx.capture_history {
                            let best = Some(mv).filter(|_| capture);
                            self.history
                                .update_captures(&self.pos, depth, best, &captures);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if !capture && !quiets.is_full() {
                quiets.push(mv);
            }
            if capture && !captures.is_full() {
                captures.push(mv);
            }
        }

        if legal == 0 && excluded.is_some() {
            // Only the left-out move: nothing else reaches the bound.
            return alpha;
        }
        if legal == 0 {
            if in_check && !self.tree.core_pass(in_check) {
                // "In check, with the repetition move as the only legal
                // move: it is allowed and the game ends by counting."
                best = if rep_forbidden {
                    verdict_score(self.tree.counting(&self.pos), ply)
                } else {
                    -MATE + ply as i32
                };
            } else if !pass_tried && self.tree.core_pass(in_check) {
                // "Not in check and no legal move: an automatic pass."
                let after = self.make_move(Move::PASS, false, ply);
                self.pv_len[ply + 1] = 0;
                best = match after {
                    After::End(v) => -verdict_score(v, ply + 1),
                    After::Continue => -self.search(-beta, -alpha, depth - 1, ply + 1, false),
                    _ => verdict_score(self.tree.counting(&self.pos), ply),
                };
                self.unmake_move();
                if self.stopped {
                    return 0;
                }
                if pv_node && best > alpha {
                    self.update_pv(ply, Move::PASS);
                }
                best_move = Some(Move::PASS);
            } else if rep_forbidden || pass_tried {
                best = verdict_score(self.tree.counting(&self.pos), ply);
            } else {
                best = -MATE + ply as i32;
            }
        }

        if excluded.is_some() {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // The correction history learns from nodes whose score says
        // something about the evaluation: not in check, no capture as
        // the best move, and a bound on the right side of the evaluation.
        if self.params.corr_hist > 0
            && !in_check
            && best.abs() < WIN_BOUND
            && !best_move.is_some_and(|m| is_capture(&self.pos, m))
            && !(bound == Bound::Lower && best <= eval_static)
            && !(bound == Bound::Upper && best >= eval_static)
        {
            self.history.correction.update(
                &self.pos,
                depth,
                best - eval_static,
                self.params.corr_max,
            );
        }
        self.shared.tt.store(
            key,
            ply,
            best_move,
            best,
            if in_check { -INF } else { raw_eval },
            depth,
            bound,
        );
        best
    }
}
