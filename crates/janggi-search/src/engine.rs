//! The engine facade: owns the current game, the [`Searcher`] and the search
//! thread.
//!
//! The protocol layer talks only to [`Engine`]: [`Engine::set_game`],
//! [`Engine::go`] (returns at once), [`Engine::stop`], [`Engine::ponderhit`],
//! [`Engine::wait`] and [`Engine::quit`]. The search thread reports its
//! progress and its final move through a [`Reporter`] callback that the
//! protocol layer supplies (the engine knows no protocol text).
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

use crate::game::Game;
use crate::nnue::Network;
use crate::search::offer::{answer_offer, Offer, OfferDecision};
use crate::search::params::SearchParams;
use crate::search::skill::Skill;
use crate::search::{
    CurrMove, Info, Limits, Progress, ReportScore, SearchControl, SearchResult, Searcher,
};
use crate::types::{Color, Move};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Default hash size in MB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Default number of search threads.
pub const DEFAULT_THREADS: usize = 1;
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
struct Gate {
    current: Mutex<u64>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock leaves a plain integer behind, which
    // is still meaningful: keep going.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Gate {
    /// Makes a new id current (every older search becomes stale) and
    /// returns it. Increment first, then hand the new value over.
    fn advance(&self) -> u64 {
        let mut g = lock(&self.current);
        *g += 1;
        *g
    }

    /// Runs `f` if `id` is current, holding the gate so that no newer
    /// search can start reporting in between. Returns whether it ran.
    fn emit(&self, id: u64, f: impl FnOnce()) -> bool {
        let g = lock(&self.current);
        if *g == id {
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

/// A search thread and how to talk to it.
struct Running {
    id: u64,
    handle: JoinHandle<Option<Searcher>>,
    control: SearchControl,
    infinite: bool,
    stop_requested: bool,
}

impl Running {
    /// Whether the search would end without a `stop`.
    fn ends_by_itself(&self) -> bool {
        self.stop_requested || !(self.infinite || self.control.pondering.load(Ordering::SeqCst))
    }

    fn signal_stop(&mut self) {
        self.stop_requested = true;
        self.control.stop.store(true, Ordering::SeqCst);
        self.handle.thread().unpark();
    }
}

/// Whether the engine evaluates with the shipped network by default
/// (`Use NNUE`). On since generation 2 beat the handcrafted evaluation in
/// a recorded match (docs/strength.md, "The neural evaluation"); `Use NNUE
/// false` brings the handcrafted evaluation back.
pub const USE_NNUE_DEFAULT: bool = true;

/// The engine: current game, searcher, search thread.
pub struct Engine {
    game: Game,
    searcher: Option<Searcher>,
    hash_mb: usize,
    threads: usize,
    skill: Skill,
    network: Option<Arc<Network>>,
    params: SearchParams,
    gate: Arc<Gate>,
    running: Option<Running>,
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("fen", &self.game.position().fen())
            .field("hash_mb", &self.hash_mb)
            .field("threads", &self.threads)
            .field("searching", &self.is_searching())
            .finish()
    }
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine at the standard start position under the default rules,
    /// with [`DEFAULT_HASH_MB`] and [`DEFAULT_THREADS`].
    pub fn new() -> Engine {
        let network = USE_NNUE_DEFAULT.then(|| Arc::clone(crate::nnue::default_network()));
        let mut searcher = Searcher::new(DEFAULT_HASH_MB, DEFAULT_THREADS);
        searcher.set_network(network.clone());
        Engine {
            game: Game::new(
                crate::board::Position::startpos(),
                crate::game::Rules::default(),
            ),
            searcher: Some(searcher),
            hash_mb: DEFAULT_HASH_MB,
            threads: DEFAULT_THREADS,
            skill: Skill::default(),
            network,
            params: SearchParams::default(),
            gate: Arc::new(Gate::default()),
            running: None,
        }
    }

    /// Evaluates with `net` (`None`: the handcrafted evaluation).
    ///
    /// # Errors
    /// [`EngineBusy`]; nothing changes.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) -> Result<(), EngineBusy> {
        self.searcher_mut()?.set_network(net.clone());
        self.network = net;
        Ok(())
    }

    /// The network the engine evaluates with, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
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

    /// Whether a search thread is still running.
    pub fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished())
    }

    /// The id of the newest search (0 before the first).
    pub fn current_id(&self) -> u64 {
        self.gate.current()
    }

    /// Joins a search thread and takes the searcher back (a fresh one if
    /// the thread lost it).
    fn join(&mut self, r: Running) {
        let back = r.handle.join().ok().flatten();
        self.searcher = Some(back.unwrap_or_else(|| self.new_searcher()));
    }

    /// Lets a running search end before the state changes (see the module
    /// docs): waits for one that ends by itself.
    ///
    /// # Errors
    /// [`EngineBusy`] when an unstopped `infinite`/ponder search runs.
    fn settle(&mut self) -> Result<(), EngineBusy> {
        match self.running.take() {
            None => Ok(()),
            Some(r) if r.handle.is_finished() || r.ends_by_itself() => {
                self.join(r);
                Ok(())
            }
            Some(r) => {
                self.running = Some(r);
                Err(EngineBusy)
            }
        }
    }

    /// The searcher, after the running search (if any) has been settled.
    fn searcher_mut(&mut self) -> Result<&mut Searcher, EngineBusy> {
        self.settle()?;
        if self.searcher.is_none() {
            self.searcher = Some(self.new_searcher());
        }
        match &mut self.searcher {
            Some(s) => Ok(s),
            None => unreachable!("the searcher was just set"),
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

    /// Resizes the hash table.
    ///
    /// # Errors
    /// [`EngineBusy`]; nothing changes.
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), EngineBusy> {
        self.searcher_mut()?.set_hash_mb(mb);
        self.hash_mb = mb;
        Ok(())
    }

    /// Sets the number of search threads.
    ///
    /// # Errors
    /// [`EngineBusy`]; nothing changes.
    pub fn set_threads(&mut self, n: usize) -> Result<(), EngineBusy> {
        self.searcher_mut()?.set_threads(n);
        self.threads = n.max(1);
        Ok(())
    }

    /// Sets the playing strength (`Skill Level`, `UCI_LimitStrength`,
    /// `UCI_Elo`); level 20 is full strength.
    ///
    /// # Errors
    /// [`EngineBusy`]; nothing changes.
    pub fn set_skill(&mut self, skill: Skill) -> Result<(), EngineBusy> {
        self.searcher_mut()?.set_skill(skill);
        self.skill = skill;
        Ok(())
    }

    /// The playing strength.
    pub fn skill(&self) -> Skill {
        self.skill
    }

    /// Sets the search's pruning, reduction and extension parameters
    /// (tuning builds' `SearchTune`).
    ///
    /// # Errors
    /// [`EngineBusy`]; nothing changes.
    pub fn set_search_params(&mut self, params: SearchParams) -> Result<(), EngineBusy> {
        self.searcher_mut()?.set_params(params.clone());
        self.params = params;
        Ok(())
    }

    /// The search's pruning, reduction and extension parameters.
    pub fn search_params(&self) -> &SearchParams {
        &self.params
    }

    /// A fresh searcher with the engine's hash, threads and skill.
    fn new_searcher(&self) -> Searcher {
        let mut s = Searcher::new(self.hash_mb, self.threads);
        s.set_skill(self.skill);
        s.set_network(self.network.clone());
        s.set_params(self.params.clone());
        s
    }

    /// Clears the hash table and learned heuristics (`ucinewgame`,
    /// `Clear Hash`).
    ///
    /// # Errors
    /// [`EngineBusy`]; nothing changes.
    pub fn clear_hash(&mut self) -> Result<(), EngineBusy> {
        self.searcher_mut()?.clear();
        Ok(())
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
            self.join(r);
        }
    }

    /// Starts searching the current game on the search thread and returns at
    /// once. `ponder` starts a ponder search (it does not end on time until
    /// [`Engine::ponderhit`]). A search still running is superseded: its
    /// result is discarded and only this search prints `bestmove`. A search
    /// that was stopped but has not printed yet prints first.
    pub fn go(&mut self, limits: Limits, ponder: bool, reporter: Reporter) -> Started {
        let mut superseded = false;
        if let Some(mut r) = self.running.take() {
            if !r.handle.is_finished() && !r.stop_requested {
                // The old request is superseded: make its id stale *before*
                // stopping it, so nothing it reports can be mistaken for an
                // answer to the new request.
                self.gate.advance();
                r.signal_stop();
                superseded = true;
            }
            self.join(r);
        }
        let id = self.gate.advance();
        let control = SearchControl::default();
        control.pondering.store(ponder, Ordering::SeqCst);
        let searcher = self.searcher.take().unwrap_or_else(|| self.new_searcher());
        let fallback = Arc::clone(&reporter);
        let job = Job {
            id,
            game: self.game.clone(),
            limits: limits.clone(),
            control: control.clone(),
            gate: Arc::clone(&self.gate),
            reporter,
        };
        let spawned = std::thread::Builder::new()
            .name(format!("search-{id}"))
            .spawn(move || job.run(searcher));
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    id,
                    handle,
                    control,
                    infinite: waits_for_stop(&limits),
                    stop_requested: false,
                });
            }
            Err(_) => {
                // No thread: the searcher moved into the failed closure is
                // gone; make a new one and answer with a legal move at once.
                self.searcher = Some(self.new_searcher());
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
            if !r.handle.is_finished() {
                self.gate.advance();
                r.signal_stop();
            }
        }
    }

    /// Turns a ponder search into a normal one.
    pub fn ponderhit(&mut self) {
        if let Some(r) = self.running.as_ref() {
            r.control.pondering.store(false, Ordering::SeqCst);
            r.handle.thread().unpark();
        }
    }

    /// Whether the running search is one that waits for `stop`
    /// (`infinite`, or pondering) and has not been told to stop.
    pub fn waits_for_stop(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished() && !r.ends_by_itself())
    }

    /// Stops the search and waits up to `grace` for its thread; a thread
    /// that does not end in time is left behind (the process is exiting).
    pub fn quit(&mut self, grace: Duration) {
        if let Some(mut r) = self.running.take() {
            r.signal_stop();
            let deadline = Instant::now() + grace;
            while !r.handle.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(1));
            }
            if r.handle.is_finished() {
                self.join(r);
            }
        }
    }

    /// The id of the running search, if any.
    pub fn running_id(&self) -> Option<u64> {
        self.running.as_ref().map(|r| r.id)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.quit(Duration::from_secs(2));
    }
}

/// Everything one search thread needs.
struct Job {
    id: u64,
    game: Game,
    limits: Limits,
    control: SearchControl,
    gate: Arc<Gate>,
    reporter: Reporter,
}

/// Reporting helpers shared by the thread and the no-thread fallback.
struct JobReport<'a> {
    id: u64,
    game: &'a Game,
    gate: &'a Gate,
}

impl JobReport<'_> {
    fn emit(&self, reporter: &(dyn Fn(&Game, Report<'_>) + Send + Sync), r: Report<'_>) {
        self.gate.emit(self.id, || reporter(self.game, r));
    }

    /// Checks the search's answer against the legal moves and prints the
    /// final lines. `best` comes from the search; it is replaced by a legal
    /// move if it is not one (which would be a search bug).
    fn finish(
        &self,
        legal: &[Move],
        best: Option<Move>,
        ponder: Option<Move>,
        reporter: &(dyn Fn(&Game, Report<'_>) + Send + Sync),
    ) {
        let Some(&first) = legal.first() else {
            self.emit(
                reporter,
                Report::BestMove {
                    best: None,
                    ponder: None,
                },
            );
            return;
        };
        let (best, ponder) = match best {
            Some(m) if legal.contains(&m) => (m, ponder),
            Some(_) => {
                self.emit(
                    reporter,
                    Report::Message("search returned an illegal move; playing a legal one instead"),
                );
                (first, None)
            }
            None => (first, None),
        };
        let ponder = ponder.filter(|&p| {
            let mut g = self.game.clone();
            g.play(best).is_ok() && g.is_legal(p)
        });
        self.emit(
            reporter,
            Report::BestMove {
                best: Some(best),
                ponder,
            },
        );
    }
}

/// Whether a search with `limits` runs until `stop` (`infinite`, or no
/// limit at all, as a bare `go`): commands that would wait for it are
/// refused instead, since the input thread would never read the `stop`.
fn waits_for_stop(limits: &Limits) -> bool {
    limits.infinite
        || (limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.mate.is_none()
            && limits.movetime.is_none()
            && limits.clock.is_none())
}

/// The score of a finished game from the side to move's point of view.
fn no_move_score(game: &Game) -> ReportScore {
    let stm: Color = game.side_to_move();
    match game.outcome() {
        Some(o) => match o.winner {
            None => ReportScore::Cp(0),
            Some(w) if w == stm => ReportScore::Cp(WON_BY_RULE_CP),
            Some(_) => ReportScore::Mate(0),
        },
        None if game.position().in_check() => ReportScore::Mate(0),
        None => ReportScore::Cp(0),
    }
}

impl Job {
    fn run(self, mut searcher: Searcher) -> Option<Searcher> {
        let Job {
            id,
            game,
            limits,
            control,
            gate,
            reporter,
        } = self;
        let rep = JobReport {
            id,
            game: &game,
            gate: &gate,
        };
        let legal: Vec<Move> = game.legal_moves().iter().copied().collect();
        let mut keep_searcher = true;
        let mut result: Option<SearchResult> = None;
        if legal.is_empty() {
            rep.emit(
                &*reporter,
                Report::NoMove {
                    score: no_move_score(&game),
                },
            );
        } else {
            let started = Instant::now();
            let mut last: Option<Info> = None;
            let searched = catch_unwind(AssertUnwindSafe(|| {
                let mut on_progress = |p: Progress<'_>| match p {
                    Progress::Info(info) => {
                        if info.multipv <= 1 {
                            last = Some(info.clone());
                        }
                        rep.emit(&*reporter, Report::Info(info));
                    }
                    Progress::CurrMove(c) => rep.emit(&*reporter, Report::CurrMove(c)),
                };
                searcher.search_with_progress(&game, &limits, &control, &mut on_progress)
            }));
            match searched {
                Ok(r) => {
                    // The protocol wants an `info` line on stop too: if the
                    // search ended after its last report (stopped inside an
                    // iteration), repeat that report with the final counts.
                    if let Some(mut info) = last.filter(|i| r.nodes > i.nodes) {
                        let ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
                        info.nodes = r.nodes;
                        info.time_ms = ms.max(info.time_ms);
                        info.nps = r.nodes.saturating_mul(1000) / info.time_ms.max(1);
                        rep.emit(&*reporter, Report::Info(&info));
                    }
                    result = Some(r);
                }
                Err(_) => {
                    keep_searcher = false;
                    rep.emit(
                        &*reporter,
                        Report::Message("error: the search failed; playing a legal move"),
                    );
                }
            }
        }
        // UCI: in `infinite` and ponder mode the answer waits for `stop`
        // (or `ponderhit`), even if the search itself has ended.
        while !control.stop.load(Ordering::SeqCst)
            && (limits.infinite || control.pondering.load(Ordering::SeqCst))
        {
            std::thread::park_timeout(WAIT_POLL);
        }
        let (best, ponder) = result.map_or((None, None), |r| (r.best, r.ponder));
        rep.finish(&legal, best, ponder, &*reporter);
        keep_searcher.then_some(searcher)
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
}
