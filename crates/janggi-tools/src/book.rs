//! Opening books for strength measurement (`janggi-tools book`; issue 22).
//!
//! Candidate `k` (k = 0, 1, 2, …) starts from setup pair `k mod 16` (Han's
//! arrangement `k mod 16 / 4`, Cho's `k mod 4`, as datagen numbers them)
//! and plays `plies` random legal moves (no passes; datagen's
//! [`play_random_plies`]) seeded by the seed and `k`. It is kept when
//! - the game is not over and the side to move is not in check;
//! - a short search (fixed nodes, one thread, cleared hash; the search
//!   datagen plays with) scores it within ±`margin` centipawns;
//! - neither it nor its left-right mirror image (the same opening: the
//!   rules are symmetric under it) is in the book already.
//!
//! Candidates are tried in order of `k` and the book is the first `count`
//! kept, so it depends only on the settings and the seed, never on the
//! number of threads (threads search candidates of a batch in parallel;
//! the batch is then accepted in order).
//!
//! The output is an EPD file `janggi-match --openings file=book.epd` reads:
//! a `#` comment header saying how it was made, then one line per opening,
//! `board side - - c0 "…"; id "…";` (the runner reads the first four
//! fields).

use crate::datagen::play_random_plies;
use janggi_core::{rng::SplitMix64, Game, Position, Rules, Setup};
use janggi_search::nnue::Network;
use janggi_search::search::score::WIN_BOUND;
use janggi_search::search::{Limits, ReportScore, SearchControl, Searcher};
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Settings of a book.
#[derive(Clone, Debug)]
pub struct BookConfig {
    /// Openings to write.
    pub count: usize,
    /// Random plies after the setup.
    pub plies: usize,
    /// Nodes of the balance search.
    pub nodes: u64,
    /// Largest |score| (centipawns, side to move) kept.
    pub margin: i32,
    /// Seed.
    pub seed: u64,
    /// Worker threads (the book does not depend on them).
    pub threads: usize,
    /// Rule set.
    pub rules: Rules,
    /// Its `UCI_Variant` name (for the header).
    pub variant: String,
    /// Hash per worker in MB (cleared before every search).
    pub hash_mb: usize,
    /// The network to search with (`None`: the handcrafted evaluation).
    pub network: Option<Arc<Network>>,
    /// A name for the evaluation (for the header).
    pub eval_name: String,
    /// Give up after this many candidates per opening wanted.
    pub max_tries_per_opening: usize,
}

impl Default for BookConfig {
    fn default() -> Self {
        BookConfig {
            count: 1000,
            plies: 8,
            nodes: 2000,
            margin: 150,
            seed: 1,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            rules: Rules::from_variant("janggi").unwrap_or_default(),
            variant: "janggi".to_string(),
            hash_mb: 2,
            network: None,
            eval_name: "hce".to_string(),
            max_tries_per_opening: 50,
        }
    }
}

/// One opening of the book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The candidate number it came from.
    pub candidate: u64,
    /// Its FEN.
    pub fen: String,
    /// The balance search's score (centipawns, side to move).
    pub score: i32,
    /// The setups it started from, `Han X / Cho Y`.
    pub setups: String,
}

impl BookEntry {
    /// The EPD line: board, side, two `-` fields, `c0` and `id`.
    pub fn epd(&self, index: usize) -> String {
        let head: Vec<&str> = self.fen.split_whitespace().take(4).collect();
        format!(
            "{} c0 \"{}, candidate {}, score {:+} cp\"; id \"{}\";",
            head.join(" "),
            self.setups,
            self.candidate,
            self.score,
            index + 1
        )
    }
}

/// A book and how many candidates it took.
#[derive(Clone, Debug)]
pub struct Book {
    /// The openings, in order.
    pub entries: Vec<BookEntry>,
    /// Candidates tried.
    pub tried: u64,
    /// Candidates dropped: game over, in check or no random line.
    pub dropped_illegal: u64,
    /// Candidates dropped by the balance filter (or a decided score).
    pub dropped_unbalanced: u64,
    /// Candidates dropped as duplicates (or mirror duplicates).
    pub dropped_duplicate: u64,
}

/// The FEN with the board mirrored left to right (files a↔i).
pub fn mirror_fen(fen: &str) -> String {
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap_or("");
    // A rank's run-length string reversed is the mirrored rank: digits are
    // single runs (at most 9), so reversing the characters is enough.
    let ranks: Vec<String> = board
        .split('/')
        .map(|r| r.chars().rev().collect())
        .collect();
    let mut out = ranks.join("/");
    for f in fields {
        out.push(' ');
        out.push_str(f);
    }
    out
}

/// The key that identifies an opening up to mirror image: the smaller of
/// the position's key and its mirror's.
pub fn canonical_key(pos: &Position) -> u64 {
    let k = pos.key();
    match Position::from_fen(&mirror_fen(&pos.fen())) {
        Ok(m) => k.min(m.key()),
        Err(_) => k,
    }
}

/// The candidate's position before the filter: `None` when the random line
/// ran into the end of the game or into check.
pub fn candidate(k: u64, cfg: &BookConfig) -> Option<(Game, String)> {
    let mut rng = SplitMix64::new(
        cfg.seed.wrapping_mul(0xA076_1D64_78BD_642F) ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    let han = Setup::ALL[(k % 16 / 4) as usize];
    let cho = Setup::ALL[(k % 4) as usize];
    let mut game = Game::new(Position::from_setups(han, cho), cfg.rules);
    let ok = play_random_plies(&mut game, &mut rng, cfg.plies) && !game.is_over();
    (ok && !game.in_check()).then(|| (game, format!("Han {han} / Cho {cho}")))
}

/// What happened to one candidate.
#[derive(Clone, Debug)]
enum Verdict {
    Illegal,
    Unbalanced,
    Kept(BookEntry, u64),
}

fn judge(k: u64, cfg: &BookConfig, searcher: &mut Searcher) -> Verdict {
    let Some((game, setups)) = candidate(k, cfg) else {
        return Verdict::Illegal;
    };
    let limits = Limits {
        nodes: Some(cfg.nodes.max(1)),
        ..Limits::default()
    };
    searcher.clear();
    let r = searcher.search(&game, &limits, &SearchControl::default(), &mut |_| {});
    let score = match r.score {
        ReportScore::Cp(c) if c.abs() < WIN_BOUND => c,
        _ => return Verdict::Unbalanced,
    };
    if score.abs() > cfg.margin || r.best.is_none() {
        return Verdict::Unbalanced;
    }
    let pos = game.position();
    Verdict::Kept(
        BookEntry {
            candidate: k,
            fen: pos.fen(),
            score,
            setups,
        },
        canonical_key(pos),
    )
}

/// Why [`build`] gave up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// Too few candidates passed the filter within the candidate limit
    /// (`count × max_tries_per_opening`, at least 64).
    TooFewOpenings {
        /// Openings kept.
        kept: usize,
        /// Openings asked for (`count`).
        wanted: usize,
        /// Candidates tried.
        candidates: u64,
    },
}

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BookError::TooFewOpenings {
                kept,
                wanted,
                candidates,
            } => write!(
                f,
                "only {kept} of {wanted} openings after {candidates} candidates: widen --margin or change --plies"
            ),
        }
    }
}

impl std::error::Error for BookError {}

/// Builds the book.
///
/// # Errors
/// [`BookError::TooFewOpenings`] when too few candidates pass the filter
/// (after `count × max_tries_per_opening` candidates).
pub fn build(cfg: &BookConfig, progress: bool) -> Result<Book, BookError> {
    let limit = (cfg.count as u64)
        .saturating_mul(cfg.max_tries_per_opening.max(1) as u64)
        .max(64);
    let threads = cfg.threads.max(1);
    let mut searchers: Vec<Mutex<Searcher>> = (0..threads)
        .map(|_| {
            let mut s = Searcher::new(cfg.hash_mb.max(1), 1);
            s.set_network(cfg.network.clone());
            Mutex::new(s)
        })
        .collect();
    let mut book = Book {
        entries: Vec::with_capacity(cfg.count),
        tried: 0,
        dropped_illegal: 0,
        dropped_unbalanced: 0,
        dropped_duplicate: 0,
    };
    let mut seen = HashSet::new();
    let mut next = 0u64;
    while book.entries.len() < cfg.count {
        if next >= limit {
            return Err(BookError::TooFewOpenings {
                kept: book.entries.len(),
                wanted: cfg.count,
                candidates: next,
            });
        }
        // A batch a bit larger than what is still missing (most pass).
        let missing = (cfg.count - book.entries.len()) as u64;
        let size = (missing + missing / 2).clamp(16, 4096).min(limit - next);
        let verdicts: Vec<Mutex<Option<Verdict>>> = (0..size).map(|_| Mutex::new(None)).collect();
        let cursor = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for searcher in &mut searchers {
                let (verdicts, cursor) = (&verdicts, &cursor);
                s.spawn(move || {
                    let searcher = searcher.get_mut().unwrap_or_else(|e| e.into_inner());
                    loop {
                        let i = cursor.fetch_add(1, Ordering::Relaxed);
                        if i >= verdicts.len() {
                            break;
                        }
                        let v = judge(next + i as u64, cfg, searcher);
                        *verdicts[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(v);
                    }
                });
            }
        });
        for v in verdicts {
            if book.entries.len() >= cfg.count {
                break;
            }
            book.tried += 1;
            match v.into_inner().unwrap_or_else(|e| e.into_inner()) {
                Some(Verdict::Kept(e, key)) => {
                    if seen.insert(key) {
                        book.entries.push(e);
                    } else {
                        book.dropped_duplicate += 1;
                    }
                }
                Some(Verdict::Unbalanced) => book.dropped_unbalanced += 1,
                Some(Verdict::Illegal) | None => book.dropped_illegal += 1,
            }
        }
        next += size;
        if progress {
            eprintln!(
                "book: {} of {} openings from {} candidates",
                book.entries.len(),
                cfg.count,
                book.tried
            );
        }
    }
    Ok(book)
}

impl Book {
    /// The EPD file: the header (`command`, the settings, the counts) and
    /// one line per opening.
    pub fn to_epd(&self, cfg: &BookConfig, command: &str) -> String {
        let mut s = String::new();
        s.push_str(
            "# Janggi opening book made by janggi-tools book (crates/janggi-tools/src/book.rs)\n",
        );
        if !command.is_empty() {
            s.push_str(&format!("# command: {command}\n"));
        }
        s.push_str(&format!(
            "# {} openings: the 16 setups (candidate k: Han's k mod 16 / 4, Cho's k mod 4) plus {} random plies \
             (no passes), seed {}, rules {};\n",
            self.entries.len(),
            cfg.plies,
            cfg.seed,
            cfg.variant
        ));
        s.push_str(&format!(
            "# kept when not in check, the game not over, a {}-node search ({} evaluation, cleared {} MB hash) \
             scores it within +-{} cp for the side to move,\n# and neither it nor its left-right mirror image is \
             already in. {} candidates: {} over/in check, {} unbalanced, {} duplicates.\n",
            cfg.nodes,
            cfg.eval_name,
            cfg.hash_mb.max(1),
            cfg.margin,
            self.tried,
            self.dropped_illegal,
            self.dropped_unbalanced,
            self.dropped_duplicate
        ));
        s.push_str("# fields: board side - - c0 \"setups, candidate, score\"; id \"n\";\n");
        for (i, e) in self.entries.iter().enumerate() {
            s.push_str(&e.epd(i));
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_fen_reverses_ranks() {
        let fen = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
        assert_eq!(mirror_fen(fen), fen);
        assert_eq!(
            mirror_fen("2b3k2/9/9/9/9/9/9/9/4K4/R8 b - - 3 9"),
            "2k3b2/9/9/9/9/9/9/9/4K4/8R b - - 3 9"
        );
        let p = Position::from_fen("2b1k4/9/9/9/9/9/9/9/4K4/R8 b - - 0 1").unwrap();
        let m = Position::from_fen(&mirror_fen(&p.fen())).unwrap();
        assert_ne!(p.key(), m.key());
        assert_eq!(canonical_key(&p), canonical_key(&m));
    }
}
