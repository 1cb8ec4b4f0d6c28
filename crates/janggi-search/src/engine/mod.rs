//! The engine facade: owns the current game, the one typed configuration
//! ([`EngineConfig`]), the [`Searcher`] (hash table, histories, network)
//! and a search thread that lives across searches.
//!
//! A front end talks only to [`Engine`]: [`Engine::set_game`],
//! [`Engine::configure`], [`Engine::go`] (returns at once),
//! [`Engine::stop`], [`Engine::ponderhit`], [`Engine::wait`],
//! [`Engine::quit`], and for the tools around play [`Engine::perft`],
//! [`Engine::bench`] and [`Engine::evaluation`]. The search thread reports
//! its progress and its final move through a [`Reporter`] callback that
//! the front end supplies (the engine knows no protocol text).
//!
//! # Search ids: no stale results
//!
//! Every search gets an id, taken by incrementing a counter *when the search
//! is requested* and handed to the search thread (`let id = ++current`, the
//! fix the sibling chess engine's devnote describes). Everything a search
//! thread reports passes through a gate that compares the thread's id with
//! the current one while holding the gate's lock, so:
//!
//! - a search that a newer `go` superseded reports nothing more, not even a
//!   `bestmove` (the newer search prints exactly one);
//! - a search that was stopped with [`Engine::stop`] still prints its one
//!   `bestmove`, and a following `go` waits for that before it starts, so the
//!   answers come out in request order;
//! - a `bestmove` is printed at most once per search.
//!
//! # Busy policy
//!
//! Commands that change state ([`Engine::set_game`], option setters) first
//! let a running search end: a search that ends by itself (depth, nodes,
//! time) or that was told to stop is waited for; an `infinite`, unlimited
//! (bare `go`) or ponder search that was not stopped would not end (or not
//! for a long time) while the input thread waits, so the command is refused
//! with [`EngineBusy`] and nothing changes. The running search works
//! on its own copy of the game, so it is never corrupted.

mod config;
mod evaluation;
mod job;
mod search_thread;

pub use config::{
    EngineConfig, Strength, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, DEFAULT_THREADS,
    USE_NNUE_DEFAULT,
};
pub use evaluation::Evaluation;

use crate::bench::BenchReport;
use crate::search::offer::{answer_offer, Offer, OfferDecision};
use crate::search::params::SearchParams;
use crate::search::skill::Skill;
use crate::search::{CurrMove, Info, Limits, ReportScore, SearchControl, Searcher};
use janggi_core::{Color, Game, Move};
use job::{no_move_score, waits_for_stop, Job, JobReport};
use search_thread::{Done, SearchThread};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::Thread;
use std::time::Duration;
/// Score reported when the side to move has no move because it already won
/// by a rule (e.g. the opponent made a forbidden 4th repetition).
pub const WON_BY_RULE_CP: i32 = 10_000;
/// How often a finished `infinite`/ponder search re-checks its flags while
/// it waits for `stop` or `ponderhit` (it is also woken explicitly).
const WAIT_POLL: Duration = Duration::from_millis(20);

/// Something a search reports, in the order it happens.
#[derive(Debug)]
pub enum Report<'a> {
    /// A progress line (`info depth …`).
    Info(&'a Info),
    /// There is no legal move; the score of the finished game (mate or
    /// draw). Always followed by `BestMove { best: None, .. }`.
    NoMove {
        /// Score from the side to move's point of view.
        score: ReportScore,
    },
    /// The root move being searched (only once a search runs long).
    CurrMove(CurrMove),
    /// A note for the user (`info string …`), e.g. an internal error that
    /// was recovered from.
    Message(&'a str),
    /// The final answer; `best` is legal under the game's rules, or `None`
    /// when there is no legal move.
    BestMove {
        /// The move to play.
        best: Option<Move>,
        /// The expected reply, legal after `best`.
        ponder: Option<Move>,
    },
}

/// Receives a search's reports on the search thread, with the game the
/// search started from (to write moves in context). Called with the gate
/// held, so reports of one search never interleave with another's.
pub type Reporter = Arc<dyn Fn(&Game, Report<'_>) + Send + Sync>;

/// Why the engine refused a command that changes its state: an `infinite`
/// or ponder search is running and was not stopped (see the module docs,
/// "Busy policy"). Nothing changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineBusy;

impl fmt::Display for EngineBusy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a search is running (send stop first)")
    }
}

impl std::error::Error for EngineBusy {}

/// What [`Engine::go`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Started {
    /// The new search's id.
    pub id: u64,
    /// Whether a running search was superseded (its result discarded).
    pub superseded: bool,
}

/// The id gate: the current search id behind a lock. A report is delivered
/// only while its search's id is the current one.
#[derive(Debug, Default)]
pub(super) struct Gate {
    current: Mutex<u64>,
    /// The id of the last search whose `bestmove` was delivered (set under
    /// `current`'s lock, before the reporter prints it).
    answered: AtomicU64,
}

pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock leaves a plain integer behind, which
    // is still meaningful: keep going.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Gate {
    /// Makes a new id current (every older search becomes stale) and
    /// returns it. Increment first, then hand the new value over.
    pub(super) fn advance(&self) -> u64 {
        let mut g = lock(&self.current);
        *g += 1;
        *g
    }

    /// Runs `f` if `id` is current, holding the gate so that no newer
    /// search can start reporting in between. Returns whether it ran.
    pub(super) fn emit(&self, id: u64, f: impl FnOnce()) -> bool {
        let g = lock(&self.current);
        if *g == id {
            f();
            true
        } else {
            false
        }
    }

    /// [`Gate::emit`] for a search's final answer: marks `id` answered
    /// before `f` prints it, so whoever has read the answer also finds the
    /// search answered ([`Engine::answered`]).
    pub(super) fn answer(&self, id: u64, f: impl FnOnce()) -> bool {
        let g = lock(&self.current);
        if *g == id {
            self.answered.store(id, Ordering::SeqCst);
            f();
            true
        } else {
            false
        }
    }

    fn current(&self) -> u64 {
        *lock(&self.current)
    }
}

/// The search in progress and how to talk to it.
struct Running {
    id: u64,
    done: Arc<Done>,
    /// The search thread (to wake it from a wait for `stop`/`ponderhit`).
    thread: Option<Thread>,
    control: SearchControl,
    infinite: bool,
    stop_requested: bool,
}

impl Running {
    /// Whether the search would end without a `stop`.
    fn ends_by_itself(&self) -> bool {
        self.stop_requested || !(self.infinite || self.control.pondering.load(Ordering::SeqCst))
    }

    fn is_over(&self) -> bool {
        self.done.is_set()
    }

    fn wake(&self) {
        if let Some(t) = &self.thread {
            t.unpark();
        }
    }

    fn signal_stop(&mut self) {
        self.stop_requested = true;
        self.control.stop.store(true, Ordering::SeqCst);
        self.wake();
    }
}

/// The engine: current game, configuration, searcher, search thread.
pub struct Engine {
    game: Game,
    config: EngineConfig,
    searcher: Arc<Mutex<Searcher>>,
    thread: Option<SearchThread>,
    gate: Arc<Gate>,
    running: Option<Running>,
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("fen", &self.game.position().fen())
            .field("hash_mb", &self.config.hash_mb)
            .field("threads", &self.config.threads)
            .field("searching", &self.is_searching())
            .finish()
    }
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

/// Brings `searcher` in line with `new` (`old`: what it was made with;
/// `None` for a fresh searcher). A new hash size clears the table.
fn apply_config(searcher: &mut Searcher, old: Option<&EngineConfig>, new: &EngineConfig) {
    if old.is_some_and(|o| o.hash_mb != new.hash_mb) {
        searcher.set_hash_mb(new.hash_mb);
    }
    if old.is_some_and(|o| o.threads != new.threads) {
        searcher.set_threads(new.threads);
    }
    searcher.set_skill(new.skill());
    searcher.set_network(new.search_network());
    searcher.set_params(new.params.clone());
}

/// A searcher made for `config`.
fn new_searcher(config: &EngineConfig) -> Searcher {
    let mut s = Searcher::new(config.hash_mb, config.threads);
    apply_config(&mut s, None, config);
    s
}

impl Engine {
    /// An engine at the standard start position under the default rules,
    /// with the default configuration.
    pub fn new() -> Engine {
        Engine::with_config(EngineConfig::default())
    }

    /// An engine at the standard start position under the default rules,
    /// configured by `config`.
    pub fn with_config(mut config: EngineConfig) -> Engine {
        normalize(&mut config);
        Engine {
            game: Game::new(
                janggi_core::Position::startpos(),
                janggi_core::Rules::default(),
            ),
            searcher: Arc::new(Mutex::new(new_searcher(&config))),
            config,
            thread: None,
            gate: Arc::new(Gate::default()),
            running: None,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Changes the configuration: `change` edits a copy, which replaces the
    /// current one and is applied to the searcher (a new `hash_mb` clears
    /// the hash table). Counts below 1 (hash, threads, MultiPV) become 1.
    ///
    /// # Errors
    /// [`EngineBusy`]; nothing changes.
    pub fn configure(&mut self, change: impl FnOnce(&mut EngineConfig)) -> Result<(), EngineBusy> {
        self.settle()?;
        let mut next = self.config.clone();
        change(&mut next);
        normalize(&mut next);
        apply_config(&mut lock(&self.searcher), Some(&self.config), &next);
        self.config = next;
        Ok(())
    }

    /// The network the search evaluates with, if any.
    pub fn network(&self) -> Option<Arc<crate::nnue::Network>> {
        self.config.search_network()
    }

    /// The current game (the one the next search starts from).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Whether the engine, playing `me`, agrees to a draw or count offer
    /// in the current game; `score` is its latest search score for the
    /// current position from `me`'s point of view (`None`: none yet). See
    /// [`crate::search::offer`] for when it agrees.
    pub fn answer_offer(
        &self,
        me: Color,
        offer: Offer,
        score: Option<ReportScore>,
    ) -> OfferDecision {
        answer_offer(&self.game, me, offer, score)
    }

    /// Whether a search is still running (it may have answered and be
    /// winding down: see [`Engine::answered`]).
    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.is_over())
    }

    /// The id of the newest search (0 before the first).
    pub fn current_id(&self) -> u64 {
        self.gate.current()
    }

    /// Lets a running search end before the state changes (see the module
    /// docs): waits for one that ends by itself.
    ///
    /// # Errors
    /// [`EngineBusy`] when an unstopped `infinite`/ponder search runs.
    fn settle(&mut self) -> Result<(), EngineBusy> {
        match self.running.take() {
            None => Ok(()),
            Some(r) if r.is_over() || r.ends_by_itself() => {
                r.done.wait();
                Ok(())
            }
            Some(r) => {
                self.running = Some(r);
                Err(EngineBusy)
            }
        }
    }

    /// Replaces the current game.
    ///
    /// # Errors
    /// [`EngineBusy`]; the game is unchanged.
    pub fn set_game(&mut self, game: Game) -> Result<(), EngineBusy> {
        self.settle()?;
        self.game = game;
        Ok(())
    }

    /// The playing strength.
    pub fn skill(&self) -> Skill {
        self.config.skill()
    }

    /// The search's pruning, reduction and extension parameters.
    pub fn search_params(&self) -> &SearchParams {
        &self.config.params
    }

    /// Clears the hash table and learned heuristics (`ucinewgame`,
    /// `Clear Hash`).
    ///
    /// # Errors
    /// [`EngineBusy`]; nothing changes.
    pub fn clear_hash(&mut self) -> Result<(), EngineBusy> {
        self.settle()?;
        lock(&self.searcher).clear();
        Ok(())
    }

    /// Per-root-move leaf counts of the current position to `depth` under
    /// the game's legality model, on the configured number of threads
    /// (`go perft`).
    pub fn perft(&self, depth: u32) -> Vec<(Move, u64)> {
        crate::perft::divide(
            self.game.position(),
            depth,
            self.game.model(),
            self.config.threads,
        )
    }

    /// The search benchmark at `depth` (default
    /// [`crate::bench::DEFAULT_DEPTH`]) with the configured evaluation, on
    /// the calling thread with a searcher of its own (a running search is
    /// not disturbed); `on_position(index, fen, nodes)` after each
    /// position. Its node count is the deterministic signature.
    pub fn bench(
        &self,
        depth: Option<u32>,
        on_position: &mut dyn FnMut(usize, &str, u64),
    ) -> BenchReport {
        crate::bench::bench_with(
            depth,
            self.config.search_network(),
            &self.config.params,
            on_position,
        )
    }

    /// The static evaluation of the current position, term by term.
    pub fn evaluation(&self) -> Evaluation {
        Evaluation::of(self.game.position(), &self.config)
    }

    /// Waits until the running search (if any) has ended and printed its
    /// `bestmove`. Only call this when the search ends by itself (a finite
    /// search, or after [`Engine::stop`]); an `infinite` search is stopped
    /// first so that this never hangs.
    pub fn wait(&mut self) {
        if let Some(mut r) = self.running.take() {
            if !r.ends_by_itself() {
                r.signal_stop();
            }
            r.done.wait();
        }
    }

    /// The search thread, started on first use (or again, if it is gone).
    fn search_thread(&mut self) -> Option<&SearchThread> {
        if self.thread.is_none() {
            let config = self.config.clone();
            let fresh = move || new_searcher(&config);
            self.thread = SearchThread::spawn(Arc::clone(&self.searcher), fresh).ok();
        }
        self.thread.as_ref()
    }

    /// Hands `job` to the search thread (restarting it once if it is
    /// gone); `None` when no thread can run it.
    fn submit(&mut self, job: Job, done: Arc<Done>) -> Option<Option<Thread>> {
        let mut request = (Box::new(job), done);
        for _ in 0..2 {
            let Some(t) = self.search_thread() else {
                break;
            };
            match t.submit(request) {
                Ok(()) => return Some(t.thread()),
                Err(back) => {
                    request = back;
                    if let Some(mut gone) = self.thread.take() {
                        gone.shut_down(false);
                    }
                }
            }
        }
        None
    }

    /// Starts searching the current game on the search thread and returns at
    /// once. `ponder` starts a ponder search (it does not end on time until
    /// [`Engine::ponderhit`]). A search still running is superseded: its
    /// result is discarded and only this search prints `bestmove`. A search
    /// that was stopped but has not printed yet prints first.
    pub fn go(&mut self, limits: Limits, ponder: bool, reporter: Reporter) -> Started {
        let mut superseded = false;
        if let Some(mut r) = self.running.take() {
            if !r.is_over() && !r.stop_requested {
                // The old request is superseded: make its id stale *before*
                // stopping it, so nothing it reports can be mistaken for an
                // answer to the new request.
                self.gate.advance();
                r.signal_stop();
                superseded = true;
            }
            r.done.wait();
        }
        let id = self.gate.advance();
        let control = SearchControl::default();
        control.pondering.store(ponder, Ordering::SeqCst);
        let fallback = Arc::clone(&reporter);
        let job = Job {
            id,
            game: self.game.clone(),
            limits: limits.clone(),
            control: control.clone(),
            gate: Arc::clone(&self.gate),
            reporter,
        };
        let done = Arc::new(Done::default());
        match self.submit(job, Arc::clone(&done)) {
            Some(thread) => {
                self.running = Some(Running {
                    id,
                    done,
                    thread,
                    control,
                    infinite: waits_for_stop(&limits),
                    stop_requested: false,
                });
            }
            None => {
                // No thread: answer with a legal move at once.
                let legal: Vec<Move> = self.game.legal_moves().iter().copied().collect();
                let rep = JobReport {
                    id,
                    game: &self.game,
                    gate: &self.gate,
                };
                if legal.is_empty() {
                    rep.emit(
                        &*fallback,
                        Report::NoMove {
                            score: no_move_score(&self.game),
                        },
                    );
                }
                rep.finish(&legal, None, None, &*fallback);
            }
        }
        Started { id, superseded }
    }

    /// Asks the running search to stop; it prints its `bestmove` promptly
    /// (from the search thread). No effect when nothing runs.
    pub fn stop(&mut self) {
        if let Some(r) = self.running.as_mut() {
            r.signal_stop();
        }
    }

    /// Stops the running search without an answer: its id becomes stale
    /// first, so it prints nothing more, not even `bestmove` (USI
    /// `gameover`: the game is over, nobody waits for a move).
    pub fn cancel(&mut self) {
        if let Some(r) = self.running.as_mut() {
            if !r.is_over() {
                self.gate.advance();
                r.signal_stop();
            }
        }
    }

    /// Turns a ponder search into a normal one.
    pub fn ponderhit(&mut self) {
        if let Some(r) = self.running.as_ref() {
            r.control.pondering.store(false, Ordering::SeqCst);
            r.wake();
        }
    }

    /// Whether the running search is one that waits for `stop`
    /// (`infinite`, or pondering) and has not been told to stop.
    pub fn waits_for_stop(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.is_over() && !r.ends_by_itself())
    }

    /// Whether the running search (if any) has delivered its `bestmove`:
    /// it is only winding down, and [`Engine::wait`] returns promptly.
    /// From then on a front end must act on its input strictly in order.
    pub fn answered(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| self.gate.answered.load(Ordering::SeqCst) == r.id)
    }

    /// Stops the search and waits up to `grace` for it; a search that does
    /// not end in time is left behind (the process is exiting).
    pub fn quit(&mut self, grace: Duration) {
        if let Some(mut r) = self.running.take() {
            r.signal_stop();
            if !r.done.wait_for(grace) {
                self.running = Some(r);
            }
        }
    }

    /// The id of the running search, if any.
    pub fn running_id(&self) -> Option<u64> {
        self.running.as_ref().map(|r| r.id)
    }
}

/// Counts below 1 become 1.
fn normalize(config: &mut EngineConfig) {
    config.hash_mb = config.hash_mb.max(1);
    config.threads = config.threads.max(1);
    config.multipv = config.multipv.max(1);
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.quit(Duration::from_secs(2));
        let idle = self.running.is_none();
        if let Some(mut t) = self.thread.take() {
            t.shut_down(idle);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn gate_delivers_only_for_the_current_id() {
        let gate = Gate::default();
        let first = gate.advance();
        assert!(gate.emit(first, || {}));
        let second = gate.advance();
        assert!(second > first);
        assert!(!gate.emit(first, || panic!("a stale report was delivered")));
        assert!(gate.emit(second, || {}));
    }

    fn counting_reporter(bestmoves: Arc<AtomicUsize>) -> Reporter {
        Arc::new(move |_: &Game, r: Report<'_>| {
            if let Report::BestMove { .. } = r {
                bestmoves.fetch_add(1, Ordering::SeqCst);
            }
        })
    }

    #[test]
    fn superseded_search_reports_no_bestmove() {
        let count = Arc::new(AtomicUsize::new(0));
        let mut e = Engine::new();
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        let a = e.go(
            infinite.clone(),
            false,
            counting_reporter(Arc::clone(&count)),
        );
        assert!(!a.superseded);
        let b = e.go(infinite, false, counting_reporter(Arc::clone(&count)));
        assert!(b.superseded && b.id > a.id);
        assert!(e.waits_for_stop());
        assert_eq!(e.set_game(e.game().clone()), Err(EngineBusy));
        e.stop();
        e.wait();
        assert_eq!(count.load(Ordering::SeqCst), 1);
        assert!(e.set_game(e.game().clone()).is_ok());
    }

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    #[test]
    fn one_search_thread_serves_every_search() {
        let threads = Arc::new(Mutex::new(Vec::new()));
        let mut e = Engine::new();
        for _ in 0..3 {
            let seen = Arc::clone(&threads);
            let reporter: Reporter = Arc::new(move |_: &Game, r: Report<'_>| {
                if let Report::BestMove { best, .. } = r {
                    assert!(best.is_some());
                    seen.lock().unwrap().push(std::thread::current().id());
                }
            });
            e.go(depth(3), false, reporter);
            e.wait();
        }
        let ids = threads.lock().unwrap().clone();
        assert_eq!(ids.len(), 3);
        assert!(ids.iter().all(|&id| id == ids[0]), "{ids:?}");
        assert_ne!(ids[0], std::thread::current().id());
    }

    #[test]
    fn the_configuration_changes_only_when_the_engine_may_change() {
        let count = Arc::new(AtomicUsize::new(0));
        let mut e = Engine::new();
        e.configure(|c| {
            c.hash_mb = 0;
            c.threads = 2;
            c.multipv = 3;
        })
        .unwrap();
        assert_eq!(
            (e.config().hash_mb, e.config().threads, e.config().multipv),
            (1, 2, 3)
        );
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        e.go(infinite, false, counting_reporter(Arc::clone(&count)));
        assert_eq!(e.configure(|c| c.multipv = 5), Err(EngineBusy));
        assert_eq!(e.config().multipv, 3, "a refused change changes nothing");
        e.stop();
        e.wait();
        assert_eq!(count.load(Ordering::SeqCst), 1);
        e.configure(|c| c.multipv = 5).unwrap();
        assert_eq!(e.config().multipv, 5);
        // Two threads still give one legal answer per search.
        e.go(depth(4), false, counting_reporter(Arc::clone(&count)));
        e.wait();
        assert_eq!(count.load(Ordering::SeqCst), 2);
    }
}
