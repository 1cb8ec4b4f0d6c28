//! Openings: where each game pair starts.
//!
//! Sources (`--openings …`):
//! * `startpos`: the standard start (Han MSSM, Cho MSSM);
//! * `setups` (the default): the 16 start positions, Han's arrangement ×
//!   Cho's arrangement (§4), in the spec's order: Han MSSM × Cho MSSM,
//!   SMMS, SMSM, MSMS, then Han SMMS × …;
//! * `file=PATH`: an EPD or FEN file, one position per line (`#` starts a
//!   comment; EPD lines need only the board, side and two `-` fields).
//!
//! Options: `order=sequential|random` (random: shuffled with the seed),
//! `plies=N` (N random plies from the source position, chosen uniformly
//! among the legal moves other than the pass), `start=K` (begin at the
//! K-th position, 1-based).
//!
//! Opening `k` depends only on the source, the options, the rules and the
//! seed, never on the order in which games finish, so a match is
//! reproducible under `--seed` at any `--concurrency`. Both games of a pair
//! use the same opening with colours swapped.

use janggi_core::{setup_fen, Game, Move, Position, Rules, Setup, START_FEN};
use std::fmt;
use std::path::PathBuf;

/// Tries to find random plies that do not end the game.
const RANDOM_TRIES: u32 = 64;

pub use janggi_core::rng::SplitMix64;

/// Where the start positions come from.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum OpeningSource {
    /// The standard start position only.
    Startpos,
    /// The 16 setups.
    #[default]
    Setups,
    /// An EPD/FEN file.
    File(PathBuf),
}

/// `--openings` settings.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct OpeningConfig {
    /// Source.
    pub source: OpeningSource,
    /// Shuffle the source (with the seed).
    pub random_order: bool,
    /// Random plies after the source position.
    pub plies: u32,
    /// First source position (0-based).
    pub start: usize,
}

/// A problem with the openings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningError(pub String);

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OpeningError {}

/// One opening: a start position and the moves played from it before the
/// engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Short name (`Han SMSM / Cho MSSM`, `book.epd:12`, `startpos`).
    pub name: String,
    /// FEN of the start position.
    pub fen: String,
    /// Moves from it (the random plies).
    pub moves: Vec<Move>,
}

impl OpeningConfig {
    /// Parses the words after `--openings`: `setups`, `startpos`,
    /// `file=PATH`, `order=…`, `plies=N`, `start=K`.
    ///
    /// # Errors
    /// [`OpeningError`] naming the bad word.
    pub fn parse(words: &[String]) -> Result<OpeningConfig, OpeningError> {
        let mut cfg = OpeningConfig::default();
        for w in words {
            let (k, v) = w.split_once('=').unwrap_or((w.as_str(), ""));
            let bad = || OpeningError(format!("bad --openings value '{w}'"));
            match k {
                "setups" => cfg.source = OpeningSource::Setups,
                "startpos" => cfg.source = OpeningSource::Startpos,
                "file" if !v.is_empty() => cfg.source = OpeningSource::File(PathBuf::from(v)),
                "order" => {
                    cfg.random_order = match v {
                        "random" => true,
                        "sequential" => false,
                        _ => return Err(bad()),
                    }
                }
                "plies" => cfg.plies = v.parse().map_err(|_| bad())?,
                "start" => {
                    let s: usize = v.parse().map_err(|_| bad())?;
                    cfg.start = s.checked_sub(1).ok_or_else(bad)?;
                }
                _ => return Err(bad()),
            }
        }
        Ok(cfg)
    }

    /// The source positions as (name, FEN), checked.
    ///
    /// # Errors
    /// [`OpeningError`]: unreadable file, bad FEN (with its line), no positions.
    pub fn source_positions(&self) -> Result<Vec<(String, String)>, OpeningError> {
        let list = match &self.source {
            OpeningSource::Startpos => vec![("startpos".to_string(), START_FEN.to_string())],
            OpeningSource::Setups => {
                let mut v = Vec::new();
                for han in Setup::ALL {
                    for cho in Setup::ALL {
                        v.push((format!("Han {han} / Cho {cho}"), setup_fen(han, cho)));
                    }
                }
                v
            }
            OpeningSource::File(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    OpeningError(format!("cannot read openings file {}: {e}", path.display()))
                })?;
                let base = path
                    .file_name()
                    .map_or_else(|| "book".to_string(), |n| n.to_string_lossy().into_owned());
                let mut v = Vec::new();
                for (i, line) in text.lines().enumerate() {
                    let line = line.trim();
                    if line.is_empty() || line.starts_with('#') {
                        continue;
                    }
                    let fen = epd_to_fen(line);
                    if let Err(e) = Position::from_fen(&fen) {
                        return Err(OpeningError(format!(
                            "{}:{}: bad position: {e}",
                            path.display(),
                            i + 1
                        )));
                    }
                    v.push((format!("{base}:{}", i + 1), fen));
                }
                v
            }
        };
        if list.is_empty() {
            return Err(OpeningError("no opening positions".to_string()));
        }
        Ok(list)
    }

    /// `count` openings for `rules` under `seed`.
    ///
    /// # Errors
    /// As [`OpeningConfig::source_positions`].
    pub fn build(
        &self,
        count: usize,
        seed: u64,
        rules: &Rules,
    ) -> Result<Vec<Opening>, OpeningError> {
        let mut list = self.source_positions()?;
        if self.random_order {
            let mut rng = SplitMix64::new(seed ^ 0x6F70_656E_696E_6773);
            for i in (1..list.len()).rev() {
                list.swap(i, rng.below(i + 1));
            }
        }
        let mut out = Vec::with_capacity(count);
        for k in 0..count {
            let (name, fen) = &list[(self.start + k) % list.len()];
            let moves = if self.plies == 0 {
                Vec::new()
            } else {
                let mut rng = SplitMix64::new(
                    seed.wrapping_add((k as u64).wrapping_mul(0xA24B_AED4_963E_E407)),
                );
                random_plies(fen, self.plies, rules, &mut rng)
            };
            out.push(Opening {
                name: name.clone(),
                fen: fen.clone(),
                moves,
            });
        }
        Ok(out)
    }
}

/// An EPD line (board, side, two fields, then opcodes) or a FEN as a FEN.
pub fn epd_to_fen(line: &str) -> String {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let is_num = |i: usize| fields.get(i).is_some_and(|f| f.parse::<u32>().is_ok());
    if fields.len() >= 6 && is_num(4) && is_num(5) {
        fields[..6].join(" ")
    } else {
        let head: Vec<&str> = fields.iter().take(4).copied().collect();
        let mut fen = head.join(" ");
        for (i, default) in ["w", "-", "-"].iter().enumerate() {
            if head.len() <= i + 1 {
                fen.push(' ');
                fen.push_str(default);
            }
        }
        fen.push_str(" 0 1");
        fen
    }
}

/// `plies` random moves from `fen` that leave the game running (fewer if
/// no such line is found).
fn random_plies(fen: &str, plies: u32, rules: &Rules, rng: &mut SplitMix64) -> Vec<Move> {
    let Ok(start) = Position::from_fen(fen) else {
        return Vec::new();
    };
    let mut best = Vec::new();
    for _ in 0..RANDOM_TRIES {
        let mut game = Game::new(start.clone(), *rules);
        let mut moves = Vec::new();
        while (moves.len() as u32) < plies && !game.is_over() {
            let legal = game.legal_moves();
            let choices: Vec<Move> = legal.iter().copied().filter(|m| !m.is_pass()).collect();
            let pool: Vec<Move> = if choices.is_empty() {
                legal.to_vec()
            } else {
                choices
            };
            if pool.is_empty() {
                break;
            }
            let mv = pool[rng.below(pool.len())];
            if game.play(mv).is_err() {
                break;
            }
            moves.push(mv);
        }
        if game.is_over() {
            moves.pop();
        }
        if moves.len() as u32 == plies {
            return moves;
        }
        if moves.len() > best.len() {
            best = moves;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn sixteen_setups_and_determinism() {
        let cfg = OpeningConfig::parse(&words("setups plies=4")).unwrap();
        let rules = Rules::default();
        let a = cfg.build(20, 7, &rules).unwrap();
        let b = cfg.build(20, 7, &rules).unwrap();
        assert_eq!(a, b);
        let fens: std::collections::HashSet<_> = a.iter().map(|o| o.fen.clone()).collect();
        assert_eq!(fens.len(), 16);
        assert_eq!(a[16].fen, a[0].fen);
        assert!(a.iter().all(|o| o.moves.len() == 4));
        // Replayable.
        for o in &a {
            let g = Game::replay(Position::from_fen(&o.fen).unwrap(), rules, &o.moves);
            assert!(g.is_ok_and(|g| !g.is_over()));
        }
        let c = cfg.build(20, 8, &rules).unwrap();
        assert_ne!(a, c, "another seed gives other random plies");
        let shuffled = OpeningConfig::parse(&words("setups order=random")).unwrap();
        let s = shuffled.build(16, 7, &rules).unwrap();
        assert_ne!(
            s.iter().map(|o| &o.fen).collect::<Vec<_>>(),
            a[..16].iter().map(|o| &o.fen).collect::<Vec<_>>()
        );
    }

    #[test]
    fn book_file() {
        let path = std::env::temp_dir().join(format!("janggi-book-{}.epd", std::process::id()));
        let text = format!(
            "# two positions\n{START_FEN}\n\n{} w - - id \"smsm\";\n",
            setup_fen(Setup::Smsm, Setup::Msms)
                .split(' ')
                .next()
                .unwrap_or("")
        );
        std::fs::write(&path, text).unwrap();
        let cfg = OpeningConfig::parse(&[format!("file={}", path.display())]).unwrap();
        let v = cfg.build(3, 1, &Rules::default()).unwrap();
        assert_eq!(v[0].fen, START_FEN);
        assert_eq!(v[1].fen, setup_fen(Setup::Smsm, Setup::Msms));
        assert_eq!(v[2].fen, START_FEN, "the book repeats");
        assert!(v[1].name.ends_with(":4"), "{}", v[1].name);
        std::fs::write(&path, "rnba1abnr/4k4/9 w - - 0 1\n").unwrap();
        let err = cfg.build(1, 1, &Rules::default()).unwrap_err();
        assert!(err.0.contains(":1: bad position"), "{err}");
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn epd_lines() {
        assert_eq!(
            epd_to_fen("4k4/9/9/9/9/9/9/9/4K4/9 w - - id \"x\";"),
            "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1"
        );
        assert_eq!(epd_to_fen(START_FEN), START_FEN);
        assert!(OpeningConfig::parse(&words("plies=x")).is_err());
        assert!(OpeningConfig::parse(&words("bogus")).is_err());
        assert!(OpeningConfig::parse(&words("start=0")).is_err());
        let missing = OpeningConfig::parse(&words("file=/nonexistent/book.epd")).unwrap();
        assert!(missing.build(2, 1, &Rules::default()).is_err());
    }
}
