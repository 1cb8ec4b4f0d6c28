//! The test double behind the board: a UCI engine that plays the first
//! legal move of the game layer (or passes) and misbehaves on request.
//! It is test code only: each test binary runs it as one of its own tests
//! (`common::fake_engine_entry`, see `fake_engine_command`), so no binary
//! of the package ships it.
//!
//! Words after the `janggi-fake-engine` marker (libtest takes them for
//! extra name filters, which match no test):
//!
//! * `crash-once=FILE`: at the first `go` while FILE does not exist,
//!   create FILE and exit with code 3; afterwards play normally;
//! * `hang`: never answer `go` (nor `stop`);
//! * `illegal`: answer every `go` with `bestmove a1a1`;
//! * `slow=MS`: think MS milliseconds (until `stop`) before answering;
//! * `score=CP`: the score it reports (default 12);
//! * `swing=K`: in the position after K plies it reports +900 instead
//!   (so the K-th move reads as a blunder);
//! * `log=FILE`: append every line it receives to FILE;
//! * `multipv`: after its line, a worse `multipv 2` line (as engines at
//!   a low Skill Level send);
//! * `exit-after-move`: exit a moment after its first `bestmove` (an
//!   engine that dies while the board waits for the human).
//!
//! It sends `info … score cp … wdl … pv …` before each `bestmove`.

use janggi_core::{Game, Notation, Position, Rules};
use janggi_match::scripted::{log_line, stdin_lines};
use std::io::Write;
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn value<'a>(args: &'a [String], key: &str) -> Option<&'a str> {
    args.iter().find_map(|a| a.strip_prefix(key))
}

pub fn run(args: &[String]) -> i32 {
    let flag = |f: &str| args.iter().any(|a| a == f);
    let crash_file = value(args, "crash-once=").map(str::to_string);
    let log = value(args, "log=");
    let slow = value(args, "slow=").and_then(|v| v.parse::<u64>().ok());
    let score: i32 = value(args, "score=")
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    let swing = value(args, "swing=").and_then(|v| v.parse::<usize>().ok());
    let mut plies = 0usize;
    let rx = stdin_lines();
    let mut out = std::io::stdout();
    let mut game = Game::new(Position::startpos(), Rules::default());
    // A search in progress: when it is due and what it will answer.
    let mut pending: Option<(Instant, Vec<String>)> = None;
    loop {
        let line = match &pending {
            Some((due, _)) => {
                match rx.recv_timeout(due.saturating_duration_since(Instant::now())) {
                    Ok(l) => Some(l),
                    Err(mpsc::RecvTimeoutError::Timeout) => None,
                    Err(mpsc::RecvTimeoutError::Disconnected) => return 0,
                }
            }
            None => match rx.recv() {
                Ok(l) => Some(l),
                Err(_) => return 0,
            },
        };
        let Some(line) = line else {
            // Thinking is over.
            if let Some((_, reply)) = pending.take() {
                for r in reply {
                    let _ = writeln!(out, "{r}");
                }
                let _ = out.flush();
            }
            continue;
        };
        let line = line.trim().to_string();
        log_line(log, &line);
        let reply: Vec<String> = if line == "uci" {
            vec![
                "id name fake-engine".into(),
                "option name Skill Level type spin default 20 min 0 max 20".into(),
                "option name UCI_ShowWDL type check default false".into(),
                "option name UCI_Variant type combo default janggi var janggi".into(),
                "uciok".into(),
            ]
        } else if line == "isready" {
            vec!["readyok".into()]
        } else if line == "quit" {
            return 0;
        } else if line == "stop" {
            pending.take().map(|(_, r)| r).unwrap_or_default()
        } else if let Some(rest) = line.strip_prefix("position fen ") {
            let (fen, moves) = match rest.split_once(" moves ") {
                Some((f, m)) => (f, m),
                None => (rest, ""),
            };
            plies = moves.split_whitespace().count();
            if let Ok(pos) = Position::from_fen(fen) {
                game = Game::new(pos, Rules::default());
                for m in moves.split_whitespace() {
                    if let Ok(mv) = game.position().parse_move(m, Notation::Uci) {
                        game.play_unchecked(mv);
                    }
                }
            }
            Vec::new()
        } else if line.starts_with("go") {
            if let Some(f) = &crash_file {
                if !std::path::Path::new(f).exists() {
                    let _ = std::fs::write(f, b"crashed");
                    std::process::exit(3);
                }
            }
            if flag("hang") {
                Vec::new()
            } else if flag("illegal") {
                vec!["bestmove a1a1".into()]
            } else {
                let moves = game.legal_moves();
                let best = moves
                    .iter()
                    .find(|m| !m.is_pass())
                    .or_else(|| moves.first())
                    .map_or("0000".to_string(), |&m| {
                        game.position().move_text(m, Notation::Uci)
                    });
                let score = if swing == Some(plies) { 900 } else { score };
                let mut reply = vec![format!(
                    "info depth 1 multipv 1 score cp {score} wdl 300 400 300 nodes 10 pv {best}"
                )];
                // A second MultiPV line (as engines at a low Skill Level
                // send): not the engine's view, the board must skip it.
                if flag("multipv") {
                    reply.push(
                        "info depth 1 multipv 2 score cp -777 wdl 0 0 1000 nodes 10 pv 0000".into(),
                    );
                }
                reply.push(format!("bestmove {best}"));
                match slow {
                    Some(ms) => {
                        let _ = writeln!(out, "info depth 1 score cp {score} pv {best}");
                        pending = Some((Instant::now() + Duration::from_millis(ms), reply));
                        Vec::new()
                    }
                    None => reply,
                }
            }
        } else {
            Vec::new()
        };
        let moved = reply.iter().any(|r| r.starts_with("bestmove"));
        for r in reply {
            let _ = writeln!(out, "{r}");
        }
        let _ = out.flush();
        if moved && flag("exit-after-move") {
            std::thread::sleep(Duration::from_millis(100));
            std::process::exit(0);
        }
    }
}
