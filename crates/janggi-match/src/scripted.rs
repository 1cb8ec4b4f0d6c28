//! A scripted fake engine for tests of [`crate::engine_process`] and of
//! the crates that drive engines through it (janggi-analysis): it plays a
//! transcript from a file, so a test states exactly what the engine says.
//! Only in tests (`cfg(test)`) and behind the `scripted-engine` feature,
//! which only dev-dependencies switch on: nothing that ships contains it.
//!
//! A test binary is its own engine: [`entry`] is called from a test (say
//! `scripted_engine_entry`) that does nothing when run plainly, and
//! [`command`] gives the command line that runs the test binary as the
//! engine (`current_exe() TEST --exact … janggi-scripted-engine ARGS`).
//!
//! Arguments: `script=FILE`, `log=FILE` (every line received is appended).
//! The script's lines are `uci: TEXT` (sent on `uci`, before `uciok`, after
//! `id name Scripted`), `go: TEXT` (sent on each `go`) and `stop: TEXT`
//! (sent on `stop`); `isready` is answered `readyok`; `quit` ends it.

use std::io::{BufRead, Write};

/// The word after which the arguments are the scripted engine's.
pub const MARK: &str = "janggi-scripted-engine";

/// Runs the scripted engine and exits, if this process was started as one
/// (the arguments hold [`MARK`]); otherwise returns at once.
pub fn entry() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == MARK) {
        std::process::exit(run(&args[i + 1..]));
    }
}

/// The program and arguments that run this test binary as the scripted
/// engine, through the test `test_path` that calls [`entry`].
///
/// # Panics
/// When the test binary's path is unknown.
pub fn command(test_path: &str, args: &[String]) -> (String, Vec<String>) {
    let exe = std::env::current_exe().expect("the test binary's path");
    let mut all: Vec<String> = [
        test_path,
        "--exact",
        "--nocapture",
        "--quiet",
        "--test-threads=1",
        MARK,
    ]
    .iter()
    .map(|s| (*s).to_string())
    .collect();
    all.extend(args.iter().cloned());
    (exe.display().to_string(), all)
}

fn run(args: &[String]) -> i32 {
    let value = |k: &str| args.iter().find_map(|a| a.strip_prefix(k));
    let script = value("script=")
        .and_then(|f| std::fs::read_to_string(f).ok())
        .unwrap_or_default();
    let log = value("log=").map(str::to_string);
    let section = |key: &str| -> Vec<String> {
        script
            .lines()
            .filter_map(|l| l.strip_prefix(key))
            .map(|l| l.trim().to_string())
            .collect()
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim().to_string();
        if let Some(f) = &log {
            if let Ok(mut file) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(f)
            {
                let _ = writeln!(file, "{line}");
            }
        }
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
