//! Deeper labels for positions already played: `janggi-tools relabel`
//! searches a sample of a data file's positions again with more nodes
//! (or depth) and writes them with the new score, for issue 33's
//! comparison of 1,000-node labels with deeper ones at equal CPU.
//!
//! - **Sample**: each position is taken with probability `fraction`, by a
//!   hash of the seed, its game id and its index in the game: the same
//!   positions whatever the threads or interruptions.
//! - **Search**: one search per position from the position alone (no game
//!   history), the hash table cleared at the start of each game and kept
//!   between its positions, so a game's labels depend only on the game: a
//!   relabelled file is the same for any number of threads.
//! - **Kept** as datagen keeps positions: a decided score (mate, rule win)
//!   or a capture as the new best move drops the position; the game's
//!   result stays its label's other half.
//! - **Resumable**: the output is appended to by whole games; a run started
//!   again skips the games already there. Ctrl-C stops after the current
//!   position; the game being relabelled is dropped. Each run appends its
//!   settings to `OUT.provenance` (`relabel_of`, `fraction`, the network's
//!   SHA-256, nodes).

use crate::datagen::format::{read_file, DataError, DataWriter, Record};
use crate::datagen::{lock, plain_score, provenance, search_limits, DatagenError};
use janggi_core::{Game, Rules};
use janggi_interrupt as interrupt;
use janggi_search::nnue::Network;
use janggi_search::search::{SearchControl, Searcher};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Settings of a relabelling run.
#[derive(Clone, Debug)]
pub struct RelabelConfig {
    /// The data file whose positions are searched again.
    pub input: PathBuf,
    /// The output file (appended to).
    pub out: PathBuf,
    /// Nodes per search.
    pub nodes: u64,
    /// Depth per search instead of nodes (both may be set).
    pub depth: Option<u32>,
    /// Share of the positions searched again, 0 < fraction ≤ 1.
    pub fraction: f64,
    /// Seed of the sample.
    pub seed: u64,
    /// Worker threads (one game each).
    pub threads: usize,
    /// Hash per worker in MB.
    pub hash_mb: usize,
    /// The rules the positions are searched under.
    pub rules: Rules,
    /// The network (`None`: the handcrafted evaluation).
    pub network: Option<Arc<Network>>,
    /// The caller's provenance fields (the network's SHA-256, the
    /// variant's name).
    pub provenance: provenance::Fields,
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RelabelSummary {
    /// Games written in this run.
    pub games: u64,
    /// Positions searched in this run.
    pub searched: u64,
    /// Positions written in this run.
    pub written: u64,
    /// Positions dropped: the deeper search found a decided score or a
    /// capture.
    pub dropped: u64,
    /// Positions in the output now.
    pub total: u64,
}

/// SplitMix64's output function.
fn mix(z: u64) -> u64 {
    janggi_core::rng::splitmix64(z).1
}

/// Whether record `r` is in the sample of `seed` at `fraction`.
pub fn sampled(r: &Record, seed: u64, fraction: f64) -> bool {
    let h = mix(mix(seed ^ 0x0072_656c_6162_656c) ^ (u64::from(r.game) << 16) ^ u64::from(r.index));
    (h >> 11) as f64 / (1u64 << 53) as f64 <= fraction
}

/// The records of one game searched again: `(kept, dropped)`; `None`
/// when stopped.
fn relabel_game(
    game: &[Record],
    cfg: &RelabelConfig,
    searcher: &mut Searcher,
    stop: &AtomicBool,
) -> Option<(Vec<Record>, u64)> {
    let limits = search_limits(cfg.nodes, cfg.depth);
    let control = SearchControl::default();
    searcher.clear();
    let mut kept = Vec::new();
    let mut dropped = 0;
    for r in game.iter().filter(|r| sampled(r, cfg.seed, cfg.fraction)) {
        if stop.load(Ordering::Relaxed) || interrupt::interrupted() {
            return None;
        }
        // The record decoded once already: its position is valid.
        let Ok(pos) = r.position() else {
            dropped += 1;
            continue;
        };
        let g = Game::new(pos, cfg.rules);
        let s = searcher.search_silent(&g, &limits, &control);
        let capture = s
            .best
            .is_some_and(|m| !m.is_pass() && g.position().piece_at(m.to()).is_some());
        match plain_score(s.score) {
            Some(c) if !capture => kept.push(Record {
                score: c.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
                ..*r
            }),
            _ => dropped += 1,
        }
    }
    Some((kept, dropped))
}

/// Relabels the sample of `cfg.input` into `cfg.out`.
///
/// # Errors
/// A bad fraction, or a file that cannot be read or written.
pub fn run(cfg: &RelabelConfig, progress: bool) -> Result<RelabelSummary, DatagenError> {
    if !(cfg.fraction > 0.0 && cfg.fraction <= 1.0) {
        return Err(DatagenError::Config(format!(
            "--fraction {}: want 0 < fraction <= 1",
            cfg.fraction
        )));
    }
    if cfg.input == cfg.out {
        return Err(DatagenError::Config(
            "--out must differ from --data (the input is read whole first)".into(),
        ));
    }
    let records = read_file(&cfg.input)?;
    let (writer, done) = DataWriter::open(&cfg.out)?;
    let games: Vec<&[Record]> = records
        .chunk_by(|a, b| a.game == b.game && a.index + 1 == b.index)
        .filter(|g| !done.contains(&g[0].game))
        .collect();
    let mut summary = RelabelSummary::default();
    if !games.is_empty() {
        let mut fields = vec![(
            "started_unix".to_string(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
                .to_string(),
        )];
        fields.extend(cfg.provenance.iter().cloned());
        for (k, v) in [
            ("relabel_of", cfg.input.display().to_string()),
            (
                "eval",
                if cfg.network.is_some() { "nnue" } else { "hce" }.to_string(),
            ),
            ("nodes", cfg.nodes.to_string()),
            ("depth", cfg.depth.map_or("-".into(), |d| d.to_string())),
            ("fraction", cfg.fraction.to_string()),
            ("seed", cfg.seed.to_string()),
            ("games_before", done.len().to_string()),
            ("positions_before", writer.records().to_string()),
        ] {
            fields.push((k.to_string(), v));
        }
        provenance::append(&cfg.out, &fields).map_err(DataError::Io)?;
    }
    let writer = Mutex::new(writer);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (searched, written, dropped, games_written) = (
        AtomicU64::new(0),
        AtomicU64::new(0),
        AtomicU64::new(0),
        AtomicU64::new(0),
    );
    let failure: Mutex<Option<std::io::Error>> = Mutex::new(None);
    let workers_left = AtomicUsize::new(cfg.threads.max(1));
    interrupt::install();
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.max(1) {
            s.spawn(|| {
                let mut searcher = Searcher::new(cfg.hash_mb, 1);
                searcher.set_network(cfg.network.clone());
                while let Some(game) = games.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let Some((kept, d)) = relabel_game(game, cfg, &mut searcher, &stop) else {
                        break;
                    };
                    searched.fetch_add(kept.len() as u64 + d, Ordering::Relaxed);
                    dropped.fetch_add(d, Ordering::Relaxed);
                    if kept.is_empty() {
                        continue;
                    }
                    if let Err(e) = lock(&writer).write_game(game[0].game, game[0].result, &kept) {
                        *lock(&failure) = Some(e);
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    written.fetch_add(kept.len() as u64, Ordering::Relaxed);
                    games_written.fetch_add(1, Ordering::Relaxed);
                }
                workers_left.fetch_sub(1, Ordering::Relaxed);
            });
        }
        let mut last = Instant::now();
        while workers_left.load(Ordering::Relaxed) > 0 {
            std::thread::sleep(Duration::from_millis(100));
            if progress && last.elapsed() >= Duration::from_secs(30) {
                last = Instant::now();
                let n = searched.load(Ordering::Relaxed);
                eprintln!(
                    "relabel: {} of {} games, {n} positions searched ({:.0}/s)",
                    next.load(Ordering::Relaxed).min(games.len()),
                    games.len(),
                    n as f64 / started.elapsed().as_secs_f64().max(1e-9)
                );
            }
        }
    });
    if let Some(e) = lock(&failure).take() {
        return Err(DatagenError::Data(DataError::Io(e)));
    }
    summary.games = games_written.into_inner();
    summary.searched = searched.into_inner();
    summary.written = written.into_inner();
    summary.dropped = dropped.into_inner();
    summary.total = lock(&writer).records();
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::{run as datagen, DatagenConfig};
    use std::collections::BTreeMap;

    fn source(dir: &std::path::Path) -> PathBuf {
        let input = dir.join("src.bin");
        let cfg = DatagenConfig {
            out: input.clone(),
            games: Some(6),
            nodes: 150,
            threads: 2,
            seed: 3,
            ..Default::default()
        };
        datagen(&cfg, false).unwrap();
        input
    }

    fn cfg(input: PathBuf, out: PathBuf, threads: usize, fraction: f64) -> RelabelConfig {
        RelabelConfig {
            input,
            out,
            nodes: 600,
            depth: None,
            fraction,
            seed: 9,
            threads,
            hash_mb: 1,
            rules: Rules::from_variant("janggi").unwrap(),
            network: None,
            provenance: Vec::new(),
        }
    }

    fn by_game(path: &std::path::Path) -> BTreeMap<u32, Vec<Record>> {
        let mut m: BTreeMap<u32, Vec<Record>> = BTreeMap::new();
        for r in read_file(path).unwrap() {
            m.entry(r.game).or_default().push(r);
        }
        m
    }

    #[test]
    fn a_sample_is_searched_again_the_same_for_any_threads_and_resumes() {
        let dir = std::env::temp_dir().join(format!("janggi-relabel-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let input = source(&dir);
        let all = read_file(&input).unwrap();
        let one = dir.join("one.bin");
        let s1 = run(&cfg(input.clone(), one.clone(), 1, 0.5), false).unwrap();
        let two = dir.join("two.bin");
        let s2 = run(&cfg(input.clone(), two.clone(), 2, 0.5), false).unwrap();
        assert_eq!(
            by_game(&one),
            by_game(&two),
            "threads do not change a label"
        );
        assert_eq!((s1.written, s1.total), (s2.written, s2.total));
        // About half the positions, each a sampled one of the source with
        // its board, result and ply, and a score of its own.
        let want = all.iter().filter(|r| sampled(r, 9, 0.5)).count() as u64;
        assert_eq!(s1.searched, want);
        assert_eq!(s1.written + s1.dropped, want);
        assert!(want > 0 && (want as usize) < all.len());
        let out = read_file(&one).unwrap();
        let mut changed = 0;
        for r in &out {
            let src = all
                .iter()
                .find(|a| a.game == r.game && a.ply == r.ply)
                .expect("a position of the source");
            assert_eq!(
                (src.occupied, src.pieces, src.side),
                (r.occupied, r.pieces, r.side)
            );
            assert_eq!(src.result, r.result);
            changed += usize::from(src.score != r.score);
        }
        assert!(changed > 0, "deeper searches give other scores somewhere");
        // Again: every game is done, nothing is searched.
        let again = run(&cfg(input.clone(), one.clone(), 2, 0.5), false).unwrap();
        assert_eq!((again.searched, again.total), (0, s1.total));
        assert_eq!(
            provenance::read(&one).len(),
            1,
            "a run with nothing to do adds no line"
        );
        // Bad settings.
        assert!(run(&cfg(input.clone(), dir.join("x.bin"), 1, 0.0), false).is_err());
        assert!(run(&cfg(input.clone(), input.clone(), 1, 1.0), false).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
