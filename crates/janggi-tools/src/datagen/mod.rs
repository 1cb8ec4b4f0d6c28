//! Training data for the network: self-play at a fixed node budget per move
//! (`janggi-tools datagen`; `janggi-engine datagen` hands over to it).
//!
//! Each game starts from one of the 16 setups (game id mod 16) plus
//! `random_plies` random legal moves (no passes), seeded by the seed and the
//! game id, so a game depends only on `(seed, id, settings)`: any thread,
//! shard or resumed run plays the same game for the same id. An opening
//! whose first search scores beyond ±[`DatagenConfig::opening_limit`] is
//! replaced by other random moves (up to 20 tries).
//!
//! Every searched position is kept except: positions in check, positions
//! whose best move is a capture, and positions with a decided score (mate or
//! a rule win). A record stores the board, the side to move, the search
//! score (side to move's view) and the game's result ([`format`](mod@format)).
//!
//! A game ends by the rules of the chosen rule set, or by adjudication:
//! - **win:** the search score (from one side's view) stayed at or beyond
//!   `win_score` for `win_plies` consecutive plies, or a mate was found;
//! - **ply cap:** at `max_plies` the game is decided by counting (the
//!   rule set's points with Han's 1.5 deom; a draw when scoring is off).
//!
//! Games are appended whole to the output file, which makes a run
//! resumable: started again with the same command, it skips the game ids
//! already in the file. `--shard i/n` plays the ids `i, i+n, i+2n, …`, so
//! the same command runs as a job array and the shard files concatenate.
//! Ctrl-C stops the workers after their current move; finished games are
//! already on disk, unfinished ones (no result yet) are dropped.
//!
//! Each run that has games to play first appends its settings to
//! `OUT.provenance` ([`provenance`]): the file says which network played
//! which part of it.

pub mod format;
pub mod provenance;

use format::{DataError, DataWriter, Record, Wdl};
use janggi_core::{rng::SplitMix64, Color, Game, MoveList, Position, Rules, Setup};
use janggi_interrupt as interrupt;
use janggi_search::nnue::Network;
use janggi_search::search::score::WIN_BOUND;
use janggi_search::search::{Limits, ReportScore, SearchControl, Searcher};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Settings of a data-generation run.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Output file (appended to).
    pub out: PathBuf,
    /// Stop when this shard's file holds this many games.
    pub games: Option<u64>,
    /// Stop when the file holds this many positions.
    pub positions: Option<u64>,
    /// Nodes per move.
    pub nodes: u64,
    /// Depth per move instead of nodes (both may be set).
    pub depth: Option<u32>,
    /// Worker threads (one game each).
    pub threads: usize,
    /// Base seed.
    pub seed: u64,
    /// This shard's index and the number of shards.
    pub shard: (u32, u32),
    /// Random plies after the setup.
    pub random_plies: usize,
    /// Rule set (a `UCI_Variant` name).
    pub rules: Rules,
    /// Ply cap, decided by counting.
    pub max_plies: u32,
    /// Win adjudication threshold in centipawns.
    pub win_score: i32,
    /// Consecutive plies at or beyond `win_score`.
    pub win_plies: u32,
    /// Openings scoring beyond this are replaced.
    pub opening_limit: i32,
    /// Hash per worker in MB.
    pub hash_mb: usize,
    /// The network to search with (`None`: the handcrafted evaluation).
    pub network: Option<Arc<Network>>,
    /// What the caller knows of the run beyond these settings (the
    /// network's SHA-256, the rule set's name), written first after the
    /// start time in the provenance line.
    pub provenance: provenance::Fields,
}

impl Default for DatagenConfig {
    fn default() -> Self {
        DatagenConfig {
            out: PathBuf::from("data.bin"),
            games: None,
            positions: None,
            nodes: 5000,
            depth: None,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
            shard: (0, 1),
            random_plies: 8,
            rules: Rules::from_variant("janggi").unwrap_or_default(),
            max_plies: 400,
            win_score: 1500,
            win_plies: 8,
            opening_limit: 400,
            hash_mb: 16,
            network: None,
            provenance: Vec::new(),
        }
    }
}

/// The provenance line of a run starting on a file that holds `games`
/// games and `positions` positions.
fn provenance_fields(cfg: &DatagenConfig, games: u64, positions: u64) -> provenance::Fields {
    let unix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut f: provenance::Fields = vec![
        ("started_unix".into(), unix.to_string()),
        (
            "tool".into(),
            concat!(env!("CARGO_PKG_NAME"), " ", env!("CARGO_PKG_VERSION")).into(),
        ),
    ];
    f.extend(cfg.provenance.iter().cloned());
    let eval = if cfg.network.is_some() { "nnue" } else { "hce" };
    let depth = cfg.depth.map_or("-".to_string(), |d| d.to_string());
    for (k, v) in [
        ("eval", eval.to_string()),
        ("nodes", cfg.nodes.to_string()),
        ("depth", depth),
        ("seed", cfg.seed.to_string()),
        ("shard", format!("{}/{}", cfg.shard.0, cfg.shard.1)),
        ("rules", cfg.rules.to_string()),
        ("random_plies", cfg.random_plies.to_string()),
        ("max_plies", cfg.max_plies.to_string()),
        ("win_score", cfg.win_score.to_string()),
        ("win_plies", cfg.win_plies.to_string()),
        ("games_before", games.to_string()),
        ("positions_before", positions.to_string()),
    ] {
        f.push((k.to_string(), v));
    }
    f
}

/// One finished game.
#[derive(Debug)]
pub struct GameData {
    /// The kept positions.
    pub records: Vec<Record>,
    /// The result.
    pub result: Wdl,
    /// Plies played.
    pub plies: u32,
}

/// Plays the random opening of game `id`; `None` when the random moves ran
/// into the end of the game.
fn opening(id: u64, tries: u64, cfg: &DatagenConfig) -> Option<Game> {
    let mut rng = SplitMix64::new(
        cfg.seed
            ^ id.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ tries.wrapping_mul(0xD6E8_FEB8_6659_FD93),
    );
    let han = Setup::ALL[(id % 16 / 4) as usize];
    let cho = Setup::ALL[(id % 4) as usize];
    let mut game = Game::new(Position::from_setups(han, cho), cfg.rules);
    (play_random_plies(&mut game, &mut rng, cfg.random_plies) && !game.is_over()).then_some(game)
}

/// Plays `n` random legal moves (never a pass) in `game`; false when the
/// game ended (or had no such move) before all were played.
pub fn play_random_plies(game: &mut Game, rng: &mut SplitMix64, n: usize) -> bool {
    for _ in 0..n {
        let moves: MoveList = game
            .legal_moves()
            .into_iter()
            .filter(|m| !m.is_pass())
            .collect();
        if moves.is_empty() || game.is_over() {
            return false;
        }
        // A move of `legal_moves`: no second legality check, no events.
        game.play_unchecked(moves[rng.below(moves.len())]);
    }
    true
}

/// The centipawn score of a search for the side to move, `None` when
/// decided (mate or rule win).
pub(crate) fn plain_score(s: ReportScore) -> Option<i32> {
    match s {
        ReportScore::Cp(c) if c.abs() < WIN_BOUND => Some(c),
        _ => None,
    }
}

/// A search of `nodes` nodes, or to `depth` (with `nodes` 0: depth only).
pub(crate) fn search_limits(nodes: u64, depth: Option<u32>) -> Limits {
    Limits {
        nodes: (depth.is_none() || nodes > 0).then_some(nodes.max(1)),
        depth,
        ..Limits::default()
    }
}

/// Plays game `id` to the end. `None` when stopped (Ctrl-C or `stop`).
pub fn play_game(
    id: u64,
    cfg: &DatagenConfig,
    searcher: &mut Searcher,
    stop: &AtomicBool,
) -> Option<GameData> {
    let limits = search_limits(cfg.nodes, cfg.depth);
    let control = SearchControl::default();
    searcher.clear();
    let mut game = None;
    for tries in 0..20 {
        let Some(g) = opening(id, tries, cfg) else {
            continue;
        };
        let r = searcher.search_silent(&g, &limits, &control);
        if plain_score(r.score).is_some_and(|c| c.abs() <= cfg.opening_limit) {
            game = Some(g);
            break;
        }
    }
    let mut game = game.or_else(|| opening(id, 0, cfg))?;
    let mut records = Vec::new();
    // Plies in a row with |score| ≥ win_score, and the side ahead.
    let (mut streak, mut leader) = (0u32, None::<Color>);
    let winner = loop {
        if stop.load(Ordering::Relaxed) || interrupt::interrupted() {
            return None;
        }
        if let Some(o) = game.outcome() {
            break o.winner;
        }
        if game.ply() >= cfg.max_plies {
            let (cho, han) = (game.score_halves(Color::Cho), game.score_halves(Color::Han));
            break (game.rules().scoring && cho != han).then_some(if cho > han {
                Color::Cho
            } else {
                Color::Han
            });
        }
        let us = game.side_to_move();
        let r = searcher.search_silent(&game, &limits, &control);
        let Some(mv) = r.best else {
            break game.outcome().and_then(|o| o.winner);
        };
        let pos = game.position();
        let capture = !mv.is_pass() && pos.piece_at(mv.to()).is_some();
        // The side the score says is winning, if it says so clearly.
        let ahead = match (r.score, plain_score(r.score)) {
            (_, Some(c)) if c.abs() >= cfg.win_score => Some(if c > 0 { us } else { !us }),
            (_, Some(_)) => None,
            (ReportScore::Mate(n), None) => Some(if n > 0 { us } else { !us }),
            (ReportScore::Cp(c), None) => Some(if c > 0 { us } else { !us }),
        };
        if let Some(c) = plain_score(r.score) {
            if !pos.in_check() && !capture {
                let score = c.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16;
                records.push(Record::new(pos, score, game.ply()));
            }
        }
        match ahead {
            Some(side) if leader == Some(side) => streak += 1,
            Some(side) => {
                leader = Some(side);
                streak = 1;
            }
            None => {
                leader = None;
                streak = 0;
            }
        }
        if streak >= cfg.win_plies.max(1) && plain_score(r.score).is_some() {
            break leader;
        }
        // A decided score (mate, rule win) plays on: the rules finish the
        // game, the ply cap at the latest.
        // The search returns a legal move: play it without checking it
        // again (`Game::play` regenerates the legal moves).
        game.play_unchecked(mv);
    };
    Some(GameData {
        records,
        result: Wdl::from_winner(winner),
        plies: game.ply(),
    })
}

/// Why a run stopped early.
#[derive(Debug)]
pub enum DatagenError {
    /// The output file.
    Data(DataError),
    /// A bad setting.
    Config(String),
}

impl std::fmt::Display for DatagenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DatagenError::Data(e) => write!(f, "{e}"),
            DatagenError::Config(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for DatagenError {}

impl From<DataError> for DatagenError {
    fn from(e: DataError) -> Self {
        DatagenError::Data(e)
    }
}

/// What a run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Games written in this run.
    pub games: u64,
    /// Positions written in this run.
    pub positions: u64,
    /// Positions in the file now.
    pub total_positions: u64,
}

/// Runs data generation until the game or position target is reached, or
/// Ctrl-C (then the run can be resumed with the same command).
///
/// # Errors
/// A bad shard, or an output file that is not a data file or cannot be
/// written.
pub fn run(cfg: &DatagenConfig, progress: bool) -> Result<Summary, DatagenError> {
    let (shard, shards) = cfg.shard;
    if shards == 0 || shard >= shards {
        return Err(DatagenError::Config(format!(
            "bad shard {shard}/{shards}: want i/n with 0 <= i < n"
        )));
    }
    if cfg.games.is_none() && cfg.positions.is_none() {
        return Err(DatagenError::Config(
            "give --games or --positions (the run's target)".into(),
        ));
    }
    let (writer, done) = DataWriter::open(&cfg.out)?;
    let start_games = done.len() as u64;
    let start_positions = writer.records();
    let reached =
        |g: u64, p: u64| cfg.games.is_some_and(|t| g >= t) || cfg.positions.is_some_and(|t| p >= t);
    if !reached(start_games, start_positions) {
        provenance::append(
            &cfg.out,
            &provenance_fields(cfg, start_games, start_positions),
        )
        .map_err(DataError::Io)?;
    }
    let writer = Mutex::new(writer);
    let done = Mutex::new(done);
    let next = AtomicU64::new(0);
    let games_in_file = AtomicU64::new(start_games);
    let positions_in_file = AtomicU64::new(start_positions);
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<std::io::Error>> = Mutex::new(None);
    interrupt::install();
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.max(1) {
            s.spawn(|| {
                let mut searcher = Searcher::new(cfg.hash_mb, 1);
                searcher.set_network(cfg.network.clone());
                loop {
                    if stop.load(Ordering::Relaxed) || interrupt::interrupted() {
                        break;
                    }
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let id = u64::from(shard) + k * u64::from(shards);
                    if id > u64::from(u32::MAX) {
                        break;
                    }
                    if lock(&done).contains(&(id as u32)) {
                        continue;
                    }
                    let Some(g) = play_game(id, cfg, &mut searcher, &stop) else {
                        break;
                    };
                    let mut w = lock(&writer);
                    if reached(
                        games_in_file.load(Ordering::Relaxed),
                        positions_in_file.load(Ordering::Relaxed),
                    ) {
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    if let Err(e) = w.write_game(id as u32, g.result, &g.records) {
                        *lock(&failure) = Some(e);
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    lock(&done).insert(id as u32);
                    let games = games_in_file.fetch_add(1, Ordering::Relaxed) + 1;
                    let positions = w.records();
                    positions_in_file.store(positions, Ordering::Relaxed);
                    if reached(games, positions) {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
        // The progress line.
        let tty = std::io::stderr().is_terminal();
        let mut last = Instant::now();
        while !stop.load(Ordering::Relaxed) && !interrupt::interrupted() {
            std::thread::sleep(Duration::from_millis(200));
            let every = if tty { 1 } else { 30 };
            if progress && last.elapsed() >= Duration::from_secs(every) {
                last = Instant::now();
                let line = progress_line(
                    cfg,
                    started.elapsed(),
                    games_in_file.load(Ordering::Relaxed),
                    positions_in_file.load(Ordering::Relaxed),
                    start_games,
                    start_positions,
                );
                let mut err = std::io::stderr().lock();
                let _ = if tty {
                    write!(err, "\r{line}   ")
                } else {
                    writeln!(err, "{line}")
                };
            }
        }
        stop.store(true, Ordering::Relaxed);
    });
    if let Some(e) = lock(&failure).take() {
        return Err(DatagenError::Data(DataError::Io(e)));
    }
    let total_games = games_in_file.load(Ordering::Relaxed);
    let total_positions = positions_in_file.load(Ordering::Relaxed);
    if progress {
        let line = progress_line(
            cfg,
            started.elapsed(),
            total_games,
            total_positions,
            start_games,
            start_positions,
        );
        eprintln!("\r{line}");
        if interrupt::interrupted() {
            eprintln!(
                "interrupted: finished games are in the file; run the same command to resume"
            );
        }
    }
    Ok(Summary {
        games: total_games - start_games,
        positions: total_positions - start_positions,
        total_positions,
    })
}

fn progress_line(
    cfg: &DatagenConfig,
    elapsed: Duration,
    games: u64,
    positions: u64,
    start_games: u64,
    start_positions: u64,
) -> String {
    let secs = elapsed.as_secs_f64().max(1e-3);
    let new_p = positions - start_positions;
    let new_g = games - start_games;
    let rate = new_p as f64 / secs;
    let grate = new_g as f64 / secs;
    let eta = match (cfg.positions, cfg.games) {
        (Some(t), _) if rate > 0.0 => Some(t.saturating_sub(positions) as f64 / rate),
        (_, Some(t)) if grate > 0.0 => Some(t.saturating_sub(games) as f64 / grate),
        _ => None,
    };
    let eta = eta.map_or("?".to_string(), |s| {
        let s = s as u64;
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    });
    format!("{positions} positions ({new_p} new), {rate:.0} pos/s, {games} games, ETA {eta}")
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_reproducible_and_filtered() {
        let cfg = DatagenConfig {
            nodes: 300,
            max_plies: 60,
            threads: 1,
            ..DatagenConfig::default()
        };
        let stop = AtomicBool::new(false);
        let mut s = Searcher::new(1, 1);
        let a = play_game(3, &cfg, &mut s, &stop).unwrap();
        let b = play_game(3, &cfg, &mut Searcher::new(1, 1), &stop).unwrap();
        assert_eq!(a.records, b.records);
        assert_eq!(a.result, b.result);
        assert!(!a.records.is_empty());
        for r in &a.records {
            let pos = r.position().unwrap();
            assert!(!pos.in_check());
            assert!(i32::from(r.score).abs() < WIN_BOUND);
        }
        assert!(a.plies <= 60 + 1);
    }
}
