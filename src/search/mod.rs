//! Search: iterative deepening alpha-beta over the game tree.
//!
//! NOTE: this file is the interface skeleton (contract between the engine
//! facade and the search); the real search is being built (issue 4).

use crate::game::Game;
use crate::types::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A search score as reported to a GUI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportScore {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in N moves (positive: side to move mates; negative: is mated).
    Mate(i32),
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
}

impl Searcher {
    /// A searcher with `hash_mb` MB of hash and `threads` threads.
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        Searcher { hash_mb, threads }
    }

    /// Resizes the hash table (clears it).
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.hash_mb = mb;
    }

    /// Sets the number of search threads.
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    /// Clears the hash table and learned heuristics (`ucinewgame`).
    pub fn clear(&mut self) {}

    /// Searches `game`'s current position within `limits`, reporting
    /// progress through `on_info`, until a limit is reached or
    /// `control.stop` is set. Always returns a legal move when one exists.
    pub fn search(
        &mut self,
        game: &Game,
        _limits: &Limits,
        _control: &SearchControl,
        _on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let best = game.legal_moves().first().copied();
        SearchResult {
            best,
            ponder: None,
            score: ReportScore::Cp(0),
            nodes: 0,
        }
    }
}
