//! Engine-vs-engine matches: a Janggi-aware tournament runner (the
//! `janggi-match` binary; `janggi-engine match …` hands over to it).
//!
//! General tournament managers know neither the 9×10 board nor the pass,
//! bikjang or counting; this runner referees every move with the game
//! layer under the chosen rule set.
//!
//! * [`config`] — the cutechess-cli-style command line;
//! * [`engine_process`] — child processes, handshake, timed replies;
//! * [`clock`] — time controls and the runner's clocks (byoyomi included);
//! * [`openings`] — the 16 setups, EPD/FEN books, random plies;
//! * [`referee`] — one game, every ending and forfeit;
//! * [`scoresheet`] — the referee's record of a game and the `position` lines;
//! * [`stats`] — Elo, error bars, LOS, SPRT;
//! * [`pgn`] — PGN writer and reader;
//! * [`resume`] — going on with a cut-off match from its PGN file;
//! * [`runner`] — scheduling, concurrency, output;
//! * [`spsa`] — SPSA tuning of an engine's parameters against itself,
//!   resumable (`janggi-match spsa …`);
//! * `scripted` — a fake engine playing a transcript, for tests only
//!   (`cfg(test)` or the `scripted-engine` feature).
//!
//! Ctrl-C comes from the `janggi-interrupt` crate (shared with datagen).
//!
//! At the end the runner prints cutechess-cli's lines, so existing
//! scripts can read them:
//!
//! ```text
//! Score of new vs base: 12 - 5 - 3  [0.675] 20
//! Elo difference: 127.0 +/- 151.6, LOS: 95.4 %, DrawRatio: 15.0 %
//! ```
//!
//! The runner needs only the rules ([`janggi_core`]), never the engine: the
//! engines are child processes.

#![warn(missing_docs)]

pub mod clock;
pub mod config;
pub mod engine_process;
pub mod openings;
pub mod pgn;
pub mod referee;
pub mod resume;
pub mod runner;
pub mod scoresheet;
#[cfg(any(test, feature = "scripted-engine"))]
pub mod scripted;
pub mod spsa;
pub mod stats;

pub use config::{ArgError, MatchConfig, USAGE};
pub use runner::{run, MatchEnd, MatchError, MatchReport};

use std::io::Write;
use std::sync::atomic::AtomicBool;

/// Exit code: bad command line.
pub const EXIT_USAGE: i32 = 2;
/// Exit code: the match could not start.
pub const EXIT_FAILURE: i32 = 1;
/// Exit code: stopped by Ctrl-C (128 + SIGINT).
pub const EXIT_INTERRUPTED: i32 = 130;

/// Runs `janggi-match ARGS…` (`args` are the words after the program name,
/// or after `match`; `spsa …` runs [`spsa::run_spsa`]),
/// writing progress and results to `out`. Returns the process exit code:
/// 0 when the match finished (or SPRT stopped it), [`EXIT_USAGE`] for a bad
/// command line (usage printed), [`EXIT_FAILURE`] when it could not start,
/// [`EXIT_INTERRUPTED`] after Ctrl-C.
pub fn run_match(args: &[String], out: &mut dyn Write) -> i32 {
    if args.first().map(String::as_str) == Some("spsa") {
        janggi_interrupt::install();
        return spsa::run_spsa(&args[1..], out, &AtomicBool::new(false));
    }
    if args
        .iter()
        .any(|a| matches!(a.as_str(), "-h" | "--help" | "-help" | "help"))
    {
        let _ = write!(out, "{USAGE}");
        return 0;
    }
    let cfg = match MatchConfig::parse(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(out, "error: {e}");
            let _ = write!(out, "{USAGE}");
            return EXIT_USAGE;
        }
    };
    janggi_interrupt::install();
    let stop = AtomicBool::new(false);
    match run(&cfg, out, &stop) {
        Ok(r) if r.end == MatchEnd::Interrupted => EXIT_INTERRUPTED,
        Ok(_) => 0,
        Err(e) => {
            let _ = writeln!(out, "error: {e}");
            EXIT_FAILURE
        }
    }
}
