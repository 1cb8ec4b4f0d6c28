//! Iterative deepening (반복 심화) with aspiration windows and MultiPV, run
//! by every search thread; Lazy SMP: helper threads run the same loop on
//! their own copies of the position over the shared transposition table,
//! one ply deeper on odd threads, without reporting. The main thread
//! decides when the search ends and then raises `done`.

use super::negamax::Worker;
use super::score::{INF, MATE, MATE_BOUND, MAX_PLY, WIN_BOUND};
use super::{report_score, Info, Progress};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Aspiration window half-width at the first try.
const ASPIRATION: i32 = 25;
/// Depth from which aspiration windows are used.
const ASPIRATION_DEPTH: i32 = 5;

/// What drives one thread's iterative deepening.
pub(crate) struct Plan {
    /// Deepest iteration.
    pub max_depth: i32,
    /// Number of principal variations.
    pub multipv: usize,
    /// Stop once a mate in this many moves (or fewer) is found.
    pub mate: Option<u32>,
    /// When the search started (for `time` and `nps`).
    pub start: Instant,
}

impl Worker<'_> {
    /// Total nodes of all threads (own count plus the others' published counts).
    pub(crate) fn total_nodes(&self) -> u64 {
        let others: u64 = self
            .shared
            .nodes
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != self.id)
            .map(|(_, n)| n.load(Ordering::Relaxed))
            .sum();
        others + self.nodes
    }

    fn info(&self, plan: &Plan, depth: i32, line: usize, searched: bool) -> Info {
        let rm = &self.root_moves[line];
        let score = if searched && rm.score > -INF {
            rm.score
        } else if rm.prev_score > -INF {
            rm.prev_score
        } else if rm.score > -INF {
            rm.score
        } else {
            0
        };
        let ms = plan.start.elapsed().as_millis() as u64;
        let nodes = self.total_nodes();
        Info {
            depth: depth.max(1) as u32,
            seldepth: rm.seldepth.max(depth.max(1) as usize) as u32,
            multipv: line + 1,
            score: report_score(score),
            nodes,
            nps: nodes * 1000 / ms.max(1),
            time_ms: ms,
            hashfull: self.shared.tt.hashfull(),
            pv: rm.pv.clone(),
        }
    }

    /// Runs iterative deepening; `report` is `Some` for the main thread.
    /// Returns the last completed depth.
    pub(crate) fn iterate(
        &mut self,
        plan: &Plan,
        mut report: Option<&mut dyn FnMut(Progress<'_>)>,
    ) -> i32 {
        let main = self.id == 0;
        let lines = plan.multipv.clamp(1, self.root_moves.len().max(1));
        let mut completed = 0;
        let mut last_best = None;
        let mut stable = 0u32;
        let mut reported_nodes = u64::MAX;
        let mut depth = 1;
        while depth <= plan.max_depth && !self.root_moves.is_empty() {
            let d = if main {
                depth
            } else {
                (depth + (self.id as i32 & 1)).min(plan.max_depth)
            };
            self.root_depth = d;
            for rm in self.root_moves.iter_mut() {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..lines {
                self.pv_idx = pv_idx;
                let prev = self.root_moves[pv_idx].prev_score;
                let (mut alpha, mut beta, mut delta) =
                    if d >= ASPIRATION_DEPTH && prev.abs() < WIN_BOUND && prev > -INF {
                        (prev - ASPIRATION, prev + ASPIRATION, ASPIRATION)
                    } else {
                        (-INF, INF, INF)
                    };
                loop {
                    let score = self.root_search(alpha, beta, d, plan, &mut report);
                    self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                    if self.stopped {
                        break;
                    }
                    if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INF);
                    } else if score >= beta {
                        beta = (score + delta).min(INF);
                    } else {
                        break;
                    }
                    delta += delta / 2;
                    if delta > 1000 {
                        alpha = -INF;
                        beta = INF;
                    }
                }
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            completed = d;
            if !main {
                depth += 1;
                continue;
            }
            if let Some(r) = report.as_mut() {
                for line in 0..lines {
                    let info = self.info(plan, completed, line, true);
                    reported_nodes = info.nodes;
                    r(Progress::Info(&info));
                }
            }
            let best = self.root_moves[0].mv;
            if last_best == Some(best) {
                stable += 1;
            } else {
                stable = 0;
            }
            last_best = Some(best);
            let score = self.root_moves[0].score;
            if let Some(n) = plan.mate {
                if score >= MATE - (2 * n as i32 - 1) {
                    break;
                }
            }
            if let Some(timer) = self.timer {
                let pondering = self.shared.control.pondering.load(Ordering::Relaxed);
                if !pondering && !self.was_pondering {
                    if self.root_moves.len() == 1 && timer.limited() {
                        break;
                    }
                    // A proven mate needs no deeper look on the clock.
                    if timer.limited() && score.abs() >= MATE_BOUND && d >= MATE - score.abs() + 4 {
                        break;
                    }
                    let scale = match stable {
                        0 => 150,
                        1 => 110,
                        2 | 3 => 85,
                        _ => 65,
                    };
                    if timer.soft_expired(scale) {
                        break;
                    }
                }
            }
            depth += 1;
        }
        if main {
            self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if let Some(r) = report.as_mut() {
                if self.total_nodes() != reported_nodes {
                    for line in 0..lines {
                        let info = self.info(plan, completed, line, true);
                        r(Progress::Info(&info));
                    }
                }
            }
        }
        completed
    }
}

/// The deepest iteration allowed.
pub(crate) const MAX_DEPTH: i32 = MAX_PLY as i32 - 8;
