//! Many games: analysed in parallel, one engine per worker, results in
//! input order ([`analyse_all`]); and the split of a large collection
//! across machines ([`Shard`]).
//!
//! **Sharding** is by the game's place in the input: the games of all the
//! input files, in order, unreadable ones included, are numbered from 0,
//! and game `k` belongs to shard `(k mod n) + 1` of `n`. So `--shard 1/3`,
//! `2/3` and `3/3` together analyse every game exactly once, and their
//! outputs interleaved (game 0 from shard 1, game 1 from shard 2, …) are
//! the unsharded output.

use crate::{analyse, AnalysisError, Evaluator, GameAnalysis};
use janggi_records::Record;
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Shard `index` of `count` (1-based, as a job array numbers them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, 1 ≤ index ≤ count.
    pub index: usize,
    /// The number of shards.
    pub count: usize,
}

impl Shard {
    /// The one shard that holds every game.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Whether game `k` (0-based place in the input) is this shard's:
    /// `k mod count == index − 1`.
    pub fn owns(self, k: usize) -> bool {
        k % self.count == self.index - 1
    }
}

/// Text that is not `i/n` with 1 ≤ i ≤ n.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardError(pub String);

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a shard i/n with 1 <= i <= n", self.0)
    }
}

impl std::error::Error for ShardError {}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(s.to_string());
        let (i, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Analyses `games` with `jobs` workers (at least 1, at most one per game),
/// each with its own engine from `start` (started when the worker takes
/// its first game, and again after an engine failed). `progress(game,
/// done, total)` is called from the workers after each position of game
/// `game` (its index in `games`); `done(index, result)` is called on the
/// calling thread **in input order**, as soon as every earlier game is
/// done, so output can be written as it comes.
///
/// Each game starts with [`Evaluator::new_game`], so a game's result does
/// not depend on which worker analysed it.
pub fn analyse_all<E, S, P, D>(games: &[Record], jobs: usize, start: S, progress: P, mut done: D)
where
    E: Evaluator,
    S: Fn() -> Result<E, AnalysisError> + Sync,
    P: Fn(usize, usize, usize) + Sync,
    D: FnMut(usize, Result<GameAnalysis, AnalysisError>),
{
    let workers = jobs.clamp(1, games.len().max(1));
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, start, progress) = (&next, &start, &progress);
            scope.spawn(move || {
                let mut engine: Option<E> = None;
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(rec) = games.get(i) else { break };
                    let result = match engine.take().map_or_else(start, Ok) {
                        Ok(mut e) => {
                            let r = analyse(rec, &mut e, &mut |d, t| progress(i, d, t));
                            // An engine that failed is not reused.
                            if r.is_ok() {
                                engine = Some(e);
                            }
                            r
                        }
                        Err(e) => Err(e),
                    };
                    if tx.send((i, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut want = 0;
        for (i, r) in rx {
            pending.insert(i, r);
            while let Some(r) = pending.remove(&want) {
                done(want, r);
                want += 1;
            }
        }
    });
}
