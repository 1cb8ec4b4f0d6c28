//! A fake UCI engine for the board's tests: plays the first legal move
//! of the game layer (or passes), and misbehaves on request.
//!
//! * `--crash-once FILE`: on the first `go` while FILE does not exist,
//!   create FILE and exit (a crash); afterwards play normally;
//! * `--hang`: never answer `go`;
//! * `--illegal`: answer every `go` with `bestmove a1a1`.
//!
//! It sends `info … score cp … wdl … pv …` before each `bestmove`.

use janggi_core::game::{Game, Rules};
use janggi_core::{Notation, Position};
use std::io::{BufRead, Write};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let crash_file = args
        .iter()
        .position(|a| a == "--crash-once")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut game = Game::new(Position::startpos(), Rules::default());
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let line = line.trim();
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
            return;
        } else if let Some(rest) = line.strip_prefix("position fen ") {
            let (fen, moves) = match rest.split_once(" moves ") {
                Some((f, m)) => (f, m),
                None => (rest, ""),
            };
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
            if flag("--hang") {
                Vec::new()
            } else if flag("--illegal") {
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
                vec![
                    format!("info depth 1 score cp 12 wdl 300 400 300 nodes 10 pv {best}"),
                    format!("bestmove {best}"),
                ]
            }
        } else {
            Vec::new()
        };
        for r in reply {
            let _ = writeln!(out, "{r}");
        }
        let _ = out.flush();
    }
}
