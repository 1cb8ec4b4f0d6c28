//! Search: iterative deepening alpha-beta over the game tree.
//!
//! * `negamax` — principal variation search with a transposition table,
//!   null move (Janggi's real pass), late move reductions, futility
//!   pruning, check extension and mate distance pruning;
//! * `qsearch` — captures (all evasions in check);
//! * [`movepick`] — staged move ordering (TT move, MVV-LVA, killers,
//!   counter move, history);
//! * [`see`] — static exchange evaluation (losing captures);
//! * [`history`] — killers, history heuristic, counter moves;
//! * [`tt`] — the lock-free transposition table;
//! * [`tree`] — the rule stack: the game layer's judge frames along the
//!   search path (bikjang, repetition, passes, move limit, counting);
//! * [`params`] — the pruning, reduction and extension parameters;
//! * [`score`] — the score scale (mates, rule wins, `MAX_PLY`);
//! * [`limits`] — time management;
//! * `thread` — iterative deepening, aspiration windows, MultiPV and
//!   Lazy SMP;
//! * `pool` — Lazy SMP's helper threads, which live across searches.
//!
//! Root moves come from [`Game::legal_moves`], so the search never plays a
//! repetition-forbidden move or an illegal pass.

pub mod correction;
pub mod history;
pub mod limits;
pub mod movepick;
pub(crate) mod negamax;
pub mod offer;
pub mod params;
mod pool;
mod qsearch;
pub mod score;
pub mod see;
pub mod skill;
pub(crate) mod thread;
pub mod tree;
pub mod tt;

use crate::nnue::Network;
use history::History;
use janggi_core::{Game, Move, MoveList};
use limits::{TimeBudget, Timer};
use negamax::{RootMove, Shared, Worker};
use score::{INF, MATE, MATE_BOUND, RULE_WIN};
use skill::{Skill, SkillRng};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use thread::{Plan, MAX_DEPTH};
use tree::Tree;
use tt::Tt;

/// A search score as reported to a GUI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportScore {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in N moves (positive: side to move mates; negative: is mated).
    Mate(i32),
}

/// The GUI form of an internal score. Games decided by counting or
/// repetition are reported as centipawns near ±`RULE_WIN`.
pub fn report_score(score: i32) -> ReportScore {
    if score >= MATE_BOUND {
        ReportScore::Mate((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        ReportScore::Mate(-(MATE + score) / 2)
    } else {
        ReportScore::Cp(score)
    }
}

/// Clock state for time management (all durations as the GUI sent them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Remaining main time of the side to move.
    pub time: Duration,
    /// Increment per move of the side to move.
    pub inc: Duration,
    /// Moves to the next time control, if any.
    pub movestogo: Option<u32>,
    /// Byoyomi period length, if any.
    pub byoyomi: Duration,
    /// Byoyomi periods left (informational; at least one assumed when byoyomi > 0).
    pub periods: u32,
}

/// What limits one search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes (exact).
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// Clock-based time management.
    pub clock: Option<Clock>,
    /// Search until stopped.
    pub infinite: bool,
    /// Time subtracted from every move for communication lag (`Move Overhead`).
    pub move_overhead: Duration,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Root move filter (`go searchmoves`): when not empty, only these of
    /// the legal moves are searched (and one of them is played); moves in
    /// it that are not legal are ignored, and if none is legal the filter
    /// is ignored.
    pub searchmoves: Vec<Move>,
}

/// Flags shared between the engine facade and a running search.
#[derive(Clone, Debug, Default)]
pub struct SearchControl {
    /// Set to stop the search as soon as possible.
    pub stop: Arc<AtomicBool>,
    /// While set, the search is pondering: it must not stop on time (it still
    /// stops on `stop`). Cleared by `ponderhit`.
    pub pondering: Arc<AtomicBool>,
}

impl SearchControl {
    /// Whether stop was requested.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// What a running search reports.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// A completed iteration's line (`info depth … pv …`).
    Info(&'a Info),
    /// The root move being searched now; reported only once the search
    /// has run for [`CURRMOVE_AFTER`] (GUIs show it for long searches).
    CurrMove(CurrMove),
}

/// A search reports the root move it works on only after this long
/// (earlier it would flood the GUI for no use).
pub const CURRMOVE_AFTER: Duration = Duration::from_secs(1);

/// The root move being searched (`info currmove … currmovenumber …`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CurrMove {
    /// The iteration's depth.
    pub depth: u32,
    /// The move.
    pub mv: Move,
    /// Its 1-based number in the root move order of this iteration.
    pub number: usize,
}

/// One progress report (`info depth … pv …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Completed depth.
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// 1-based index of this PV line.
    pub multipv: usize,
    /// Score.
    pub score: ReportScore,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Transposition table fill in permille.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// The final answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Best move; `None` only when there is no legal move.
    pub best: Option<Move>,
    /// Expected reply, if known.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: ReportScore,
    /// Nodes searched.
    pub nodes: u64,
}

/// Persistent search state (hash table, thread settings) reused across
/// searches.
#[derive(Debug)]
pub struct Searcher {
    hash_mb: usize,
    threads: usize,
    tt: Arc<Tt>,
    /// The main thread's killers and histories.
    history: History,
    /// Each helper thread's, kept across searches like the threads.
    helper_histories: Vec<Arc<Mutex<History>>>,
    /// Lazy SMP's helper threads (`threads` − 1 of them).
    pool: pool::HelperPool,
    skill: Skill,
    /// Counts searches; seeds the skill pick with the position key.
    skill_counter: u64,
    /// The network the search evaluates with (`None`: the handcrafted
    /// evaluation).
    network: Option<Arc<Network>>,
    /// The pruning, reduction and extension parameters.
    params: params::SearchParams,
}

impl Searcher {
    /// A searcher with `hash_mb` MB of hash and `threads` threads.
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        let threads = threads.max(1);
        let mut searcher = Searcher {
            hash_mb,
            threads: 1,
            tt: Arc::new(Tt::new(hash_mb)),
            history: History::new(),
            helper_histories: Vec::new(),
            pool: pool::HelperPool::default(),
            skill: Skill::default(),
            skill_counter: 0,
            network: None,
            params: params::SearchParams::default(),
        };
        searcher.set_threads(threads);
        searcher
    }

    /// Resizes the hash table (clears it).
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.hash_mb = mb;
        self.tt = Arc::new(Tt::new(mb));
    }

    /// Sets the number of search threads: starts or ends helper threads
    /// (they then live until the next change).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
        let helpers = self.threads - 1;
        self.helper_histories
            .resize_with(helpers, || Arc::new(Mutex::new(History::new())));
        self.pool.resize(helpers);
    }

    /// Sets the playing strength (level 20 is full strength).
    pub fn set_skill(&mut self, skill: Skill) {
        self.skill = skill;
    }

    /// The playing strength.
    pub fn skill(&self) -> Skill {
        self.skill
    }

    /// Sets the counter that, with the position key, seeds the next
    /// search's skill pick (it advances by one every search).
    pub fn set_skill_seed(&mut self, counter: u64) {
        self.skill_counter = counter;
    }

    /// Evaluates with `net` (`None`: the handcrafted evaluation).
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.network = net;
    }

    /// Sets the pruning, reduction and extension parameters.
    pub fn set_params(&mut self, params: params::SearchParams) {
        self.params = params;
    }

    /// The pruning, reduction and extension parameters.
    pub fn params(&self) -> &params::SearchParams {
        &self.params
    }

    /// The network the search evaluates with, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// The hash size in MB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Clears the hash table and learned heuristics (`ucinewgame`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
        for h in &self.helper_histories {
            lock(h).clear();
        }
    }

    /// Searches `game`'s current position within `limits`, reporting
    /// progress through `on_info`, until a limit is reached or
    /// `control.stop` is set. Always returns a legal move when one exists.
    ///
    /// With `limits.nodes` set the search runs on one thread so that the
    /// node limit is exact. In `infinite` mode and while pondering, the
    /// result is held back until `stop` (or `ponderhit`), as UCI requires.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.search_with_progress(game, limits, control, &mut |p| {
            if let Progress::Info(info) = p {
                on_info(info);
            }
        })
    }

    /// [`Searcher::search`], reporting every [`Progress`] (the root move
    /// being searched, too) through `on_progress`.
    pub fn search_with_progress(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
        on_progress: &mut dyn FnMut(Progress<'_>),
    ) -> SearchResult {
        self.run(game, limits, control, Some(on_progress))
    }

    /// [`Searcher::search`] without any progress report: the same search
    /// and the same result, minus the cost of building `info` lines no one
    /// reads (data generation calls this millions of times).
    pub fn search_silent(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
    ) -> SearchResult {
        self.run(game, limits, control, None)
    }

    fn run(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
        mut on_progress: Option<&mut dyn FnMut(Progress<'_>)>,
    ) -> SearchResult {
        let start = Instant::now();
        let skill = self.skill;
        let capped;
        let limits = if skill.is_limited() {
            capped = skill_limits(limits, skill);
            &capped
        } else {
            limits
        };
        let mut legal = game.legal_moves();
        if legal.iter().any(|m| limits.searchmoves.contains(m)) {
            legal.retain(|m| limits.searchmoves.contains(m));
        }
        if legal.is_empty() {
            let pos = game.position();
            let score = if pos.in_check() {
                ReportScore::Mate(0)
            } else {
                match game.outcome().and_then(|o| o.winner) {
                    Some(w) if w == game.side_to_move() => ReportScore::Cp(RULE_WIN),
                    Some(_) => ReportScore::Cp(-RULE_WIN),
                    None => ReportScore::Cp(0),
                }
            };
            let info = Info {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score,
                nodes: 0,
                nps: 0,
                time_ms: 0,
                hashfull: self.tt.hashfull(),
                pv: Vec::new(),
            };
            if let Some(report) = on_progress.as_mut() {
                report(Progress::Info(&info));
            }
            wait_for_release(limits, control);
            return SearchResult {
                best: None,
                ponder: None,
                score,
                nodes: 0,
            };
        }

        self.tt.new_search();
        // With a node limit one thread searches, so that the limit is exact.
        let helpers = if limits.nodes.is_some() {
            0
        } else {
            self.pool.len().min(self.threads - 1)
        };
        self.history.new_search();
        for h in &self.helper_histories[..helpers] {
            lock(h).new_search();
        }
        let tree = Tree::new(game);
        let root_moves = order_root(game, &legal);
        let mut max_depth = limits
            .depth
            .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
        if let Some(n) = limits.mate {
            max_depth = max_depth.min((2 * n as i32 + 1).clamp(1, MAX_DEPTH));
        }
        let plan = Plan {
            max_depth,
            multipv: if skill.needs_all_scores() {
                root_moves.len()
            } else {
                limits.multipv.max(1)
            },
            mate: limits.mate,
            start,
        };
        let timed = !limits.infinite && (limits.movetime.is_some() || limits.clock.is_some());
        let budget = if timed {
            TimeBudget::new(limits)
        } else {
            TimeBudget::NONE
        };
        let done = Arc::new(AtomicBool::new(false));
        let counters: Arc<[AtomicU64]> = (0..=helpers).map(|_| AtomicU64::new(0)).collect();
        let params = Arc::new(self.params.clone());
        let pos = game.position().clone();
        let tasks: Vec<pool::Task> = (0..helpers)
            .map(|i| {
                let job = HelperJob {
                    id: i + 1,
                    tt: Arc::clone(&self.tt),
                    done: Arc::clone(&done),
                    control: control.clone(),
                    nodes: Arc::clone(&counters),
                    network: self.network.clone(),
                    params: Arc::clone(&params),
                    history: Arc::clone(&self.helper_histories[i]),
                    plan: plan.clone(),
                    pos: pos.clone(),
                    tree: tree.clone(),
                    root_moves: root_moves.clone(),
                };
                Box::new(move || job.run()) as pool::Task
            })
            .collect();
        let running = self.pool.run(tasks);
        let shared = Shared {
            tt: &self.tt,
            done: &done,
            control,
            nodes: &counters,
            network: self.network.as_ref(),
            params: &params,
        };
        let mut w = Worker::new(0, &shared, pos, tree, &mut self.history, root_moves);
        w.node_limit = limits.nodes;
        w.timer = if timed {
            Some(Timer::start(budget))
        } else {
            None
        };
        w.was_pondering = control.pondering.load(Ordering::Relaxed);
        w.iterate(&plan, on_progress);
        done.store(true, Ordering::Relaxed);
        let (root_moves, total) = (w.root_moves, w.nodes);
        running.wait();
        let helpers: u64 = counters
            .iter()
            .skip(1)
            .map(|n| n.load(Ordering::Relaxed))
            .sum();
        wait_for_release(limits, control);
        let counter = self.skill_counter;
        self.skill_counter = self.skill_counter.wrapping_add(1);
        let best = if skill.is_limited() {
            let mut rng = SkillRng::new(game.position().key(), counter);
            skill_pick(&root_moves, skill, &mut rng)
        } else {
            &root_moves[0]
        };
        let score = if best.score > -INF {
            best.score
        } else {
            best.prev_score.max(-INF + 1)
        };
        SearchResult {
            best: Some(best.mv),
            ponder: best.pv.get(1).copied(),
            score: report_score(if score <= -INF + 1 { 0 } else { score }),
            nodes: total + helpers,
        }
    }
}

/// Everything a helper thread needs for its part of one search (owned,
/// since the helper thread outlives the search).
struct HelperJob {
    id: usize,
    tt: Arc<Tt>,
    done: Arc<AtomicBool>,
    control: SearchControl,
    nodes: Arc<[AtomicU64]>,
    network: Option<Arc<Network>>,
    params: Arc<params::SearchParams>,
    history: Arc<Mutex<History>>,
    plan: Plan,
    pos: janggi_core::Position,
    tree: Tree,
    root_moves: Vec<RootMove>,
}

impl HelperJob {
    /// Iterative deepening on the helper thread, without reporting, until
    /// the main thread raises `done`; publishes its node count.
    fn run(self) {
        let shared = Shared {
            tt: &self.tt,
            done: &self.done,
            control: &self.control,
            nodes: &self.nodes,
            network: self.network.as_ref(),
            params: &self.params,
        };
        let mut history = lock(&self.history);
        let mut w = Worker::new(
            self.id,
            &shared,
            self.pos,
            self.tree,
            &mut history,
            self.root_moves,
        );
        w.iterate(&self.plan, None);
        shared.nodes[w.id].store(w.nodes, Ordering::Relaxed);
    }
}

/// A helper's history (a panic in an earlier search leaves a usable one).
fn lock(m: &Mutex<History>) -> MutexGuard<'_, History> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// `limits` with depth and time capped by `skill`.
fn skill_limits(limits: &Limits, skill: Skill) -> Limits {
    let mut l = limits.clone();
    if let Some(d) = skill.max_depth() {
        l.depth = Some(l.depth.map_or(d, |x| x.min(d)));
    }
    if let (Some(t), false) = (skill.max_time(), l.infinite) {
        l.movetime = Some(l.movetime.map_or(t, |x| x.min(t)));
    }
    l
}

/// The root move `skill` plays: the best move, or one of the near-best.
fn skill_pick<'a>(root_moves: &'a [RootMove], skill: Skill, rng: &mut SkillRng) -> &'a RootMove {
    let eff = |rm: &RootMove| {
        if rm.score > -INF {
            rm.score
        } else {
            rm.prev_score
        }
    };
    // The best move first, then the other scored moves, best first.
    let mut order: Vec<&RootMove> = root_moves[1..].iter().filter(|rm| eff(rm) > -INF).collect();
    order.sort_by_key(|rm| std::cmp::Reverse(eff(rm)));
    order.insert(0, &root_moves[0]);
    let scores: Vec<i32> = order.iter().map(|rm| eff(rm).max(-INF + 1)).collect();
    order[skill.choose(&scores, rng)]
}

/// In `infinite` mode and while pondering, UCI forbids `bestmove` before
/// `stop` (or `ponderhit`): wait for it.
fn wait_for_release(limits: &Limits, control: &SearchControl) {
    loop {
        if control.stopped() {
            return;
        }
        let pondering = control.pondering.load(Ordering::Relaxed);
        if !limits.infinite && !pondering {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Root moves in a first guess of order: captures by MVV-LVA, then the
/// rest in generation order, the pass last.
fn order_root(game: &Game, legal: &MoveList) -> Vec<RootMove> {
    let pos = game.position();
    let mut scored: Vec<(i32, Move)> = legal
        .iter()
        .map(|&m| {
            let s = if m.is_pass() {
                -1_000_000
            } else if movepick::is_capture(pos, m) {
                movepick::mvv_lva(pos, m)
            } else {
                0
            };
            (s, m)
        })
        .collect();
    scored.sort_by_key(|s| std::cmp::Reverse(s.0));
    scored.into_iter().map(|(_, m)| RootMove::new(m)).collect()
}
