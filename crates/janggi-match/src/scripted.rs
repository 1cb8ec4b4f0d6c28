//! Test doubles of engines, for tests of [`crate::engine_process`] and of
//! the crates that drive engines through it (janggi-analysis, the board
//! of janggi-gui). Only in tests (`cfg(test)`) and behind the
//! `scripted-engine` feature, which only dev-dependencies switch on:
//! nothing that ships contains it.
//!
//! A test binary is its own engine: an entry test (say
//! `scripted_engine_entry`) calls [`entry`] (or [`entry_with`] for another
//! double), which does nothing when the test runs plainly, and
//! [`command`] ([`command_with`]) gives the command line that runs the
//! test binary as the engine (`current_exe() TEST --exact …  MARK ARGS`).
//! [`stdin_lines`] and [`log_line`] are the plumbing every double needs.
//!
//! The scripted engine here plays a transcript from a file, so a test
//! states exactly what the engine says. Arguments: `script=FILE`,
//! `log=FILE` (every line received is appended). The script's lines are
//! `uci: TEXT` (sent on `uci`, before `uciok`, after `id name Scripted`),
//! `go: TEXT` (sent on each `go`) and `stop: TEXT` (sent on `stop`);
//! `isready` is answered `readyok`; `quit` ends it.

use std::io::{BufRead, Write};
use std::sync::mpsc;

/// The word after which the arguments are the scripted engine's.
pub const MARK: &str = "janggi-scripted-engine";

/// Runs the scripted engine and exits, if this process was started as one
/// (the arguments hold [`MARK`]); otherwise returns at once.
pub fn entry() {
    entry_with(MARK, run);
}

/// Runs `double` with the arguments after `mark` and exits with its code,
/// if this process was started with `mark` among its arguments; otherwise
/// returns at once.
pub fn entry_with(mark: &str, double: impl FnOnce(&[String]) -> i32) {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == mark) {
        std::process::exit(double(&args[i + 1..]));
    }
}

/// The program and arguments that run this test binary as the scripted
/// engine, through the test `test_path` that calls [`entry`].
///
/// # Panics
/// When the test binary's path is unknown.
pub fn command(test_path: &str, args: &[String]) -> (String, Vec<String>) {
    command_with(MARK, test_path, args)
}

/// The program and arguments that run this test binary as the double
/// behind `mark`, through the test `test_path` that calls [`entry_with`].
///
/// # Panics
/// When the test binary's path is unknown.
pub fn command_with(mark: &str, test_path: &str, args: &[String]) -> (String, Vec<String>) {
    let exe = std::env::current_exe().expect("the test binary's path");
    let mut all: Vec<String> = [
        test_path,
        "--exact",
        "--nocapture",
        "--quiet",
        "--test-threads=1",
        mark,
    ]
    .iter()
    .map(|s| (*s).to_string())
    .collect();
    all.extend(args.iter().cloned());
    (exe.display().to_string(), all)
}

/// The lines of stdin, read on their own thread, so that a double can wait
/// for the next line or a deadline, whichever comes first. The channel
/// closes at the end of input.
pub fn stdin_lines() -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Appends `line` to the file `log` names, if any: the double's record of
/// what it was told, for the test to read. Errors are ignored (a test
/// that needs the log finds it missing).
pub fn log_line(log: Option<&str>, line: &str) {
    let Some(path) = log else { return };
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = writeln!(file, "{line}");
    }
}

fn run(args: &[String]) -> i32 {
    let value = |k: &str| args.iter().find_map(|a| a.strip_prefix(k));
    let script = value("script=")
        .and_then(|f| std::fs::read_to_string(f).ok())
        .unwrap_or_default();
    let log = value("log=");
    let section = |key: &str| -> Vec<String> {
        script
            .lines()
            .filter_map(|l| l.strip_prefix(key))
            .map(|l| l.trim().to_string())
            .collect()
    };
    let mut out = std::io::stdout();
    for line in stdin_lines() {
        let line = line.trim().to_string();
        log_line(log, &line);
        let word = line.split_whitespace().next().unwrap_or("");
        let reply: Vec<String> = match word {
            "uci" => {
                let mut r = vec!["id name Scripted".to_string()];
                r.extend(section("uci:"));
                r.push("uciok".into());
                r
            }
            "isready" => vec!["readyok".into()],
            "go" => section("go:"),
            "stop" => section("stop:"),
            "quit" => return 0,
            _ => Vec::new(),
        };
        for r in reply {
            let _ = writeln!(out, "{r}");
        }
        let _ = out.flush();
    }
    0
}
