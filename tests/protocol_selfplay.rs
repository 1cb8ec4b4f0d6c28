//! Legal-move fuzz through the protocol: fast self-play games (`go nodes`
//! small, a few random opening plies) under every rule set. Every
//! `bestmove` must be in `legal`, every game must end with a `result`
//! verdict, and the finished position must answer `go` with no move.
//!
//! The quick test plays a few games per rule set; the ignored one plays the
//! issue's 200 (`cargo test --release --test protocol_selfplay -- --ignored`).

use janggi::protocol::{MemorySink, Session};
use janggi::Rules;
use std::collections::HashSet;
use std::thread;
use std::time::{Duration, Instant};

const LONG: Duration = Duration::from_secs(30);
/// Plies after which a game that has not ended fails the test (the move
/// limit is set to 150, so games end by then).
const MAX_PLIES: usize = 400;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

fn ask(s: &mut Session, sink: &MemorySink, line: &str) -> Vec<String> {
    let before = sink.lines().len();
    s.handle_line(line);
    sink.lines().into_iter().skip(before).collect()
}

/// Sends `go …` and waits for its `bestmove`; returns the lines printed.
fn go(s: &mut Session, sink: &MemorySink, line: &str) -> Vec<String> {
    let before = sink.lines().len();
    s.handle_line(line);
    let start = Instant::now();
    loop {
        let new: Vec<String> = sink.lines().into_iter().skip(before).collect();
        if new.iter().any(|l| l.starts_with("bestmove")) {
            return new;
        }
        assert!(start.elapsed() < LONG, "no bestmove for '{line}': {new:?}");
        thread::sleep(Duration::from_micros(200));
    }
}

/// Plays one game; returns its `result` line.
fn play_game(variant: &str, seed: u64) -> String {
    let sink = MemorySink::default();
    let mut s = Session::new(sink.clone());
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    s.handle_line("uci");
    s.handle_line(&format!("setoption name UCI_Variant value {variant}"));
    s.handle_line("setoption name MoveLimit value 150");
    s.handle_line("setoption name Hash value 1");
    let random_plies = 2 + (rng.next() % 6) as usize;
    let mut moves: Vec<String> = Vec::new();
    let mut verdict = None;
    for ply in 0..MAX_PLIES {
        let pos_cmd = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        // Only rule-event notes (bikjang, a 3rd repetition, the end),
        // never an error.
        let told = ask(&mut s, &sink, &pos_cmd);
        assert!(
            told.iter()
                .all(|l| l.starts_with("info string ") && !l.starts_with("info string error")),
            "{variant} seed {seed}: {pos_cmd} rejected: {told:?}"
        );
        let legal_line = ask(&mut s, &sink, "legal");
        let legal: HashSet<String> = legal_line[0]
            .split(' ')
            .skip(1)
            .map(str::to_string)
            .collect();
        let result = ask(&mut s, &sink, "result");
        if result[0] != "result ongoing" {
            assert!(
                legal.is_empty(),
                "{variant}: game over but legal moves remain: {result:?}"
            );
            assert!(
                result.len() == 2 && result[1].starts_with("info string "),
                "{result:?}"
            );
            verdict = Some(result[0].clone());
            // A finished game answers `go` with no move, after a score line.
            let out = go(&mut s, &sink, "go nodes 100");
            let n = out.len();
            assert_eq!(out[n - 1], "bestmove (none)", "{variant}: {out:?}");
            assert!(out[n - 2].starts_with("info depth 0 score "), "{out:?}");
            break;
        }
        assert!(
            !legal.is_empty(),
            "{variant} seed {seed}: ongoing game without legal moves at ply {ply}"
        );
        let mv = if ply < random_plies {
            let mut all: Vec<&String> = legal.iter().collect();
            all.sort();
            all[(rng.next() % all.len() as u64) as usize].clone()
        } else {
            let out = go(&mut s, &sink, "go nodes 300");
            let best = out
                .iter()
                .find_map(|l| l.strip_prefix("bestmove "))
                .unwrap_or_default();
            let mut parts = best.split(' ');
            let mv = parts.next().unwrap_or_default().to_string();
            if parts.next() == Some("ponder") {
                assert!(parts.next().is_some(), "ponder without a move: {best}");
            }
            mv
        };
        assert!(
            legal.contains(&mv),
            "{variant} seed {seed} ply {ply}: bestmove {mv} not in legal {legal:?}\nmoves: {}",
            moves.join(" ")
        );
        moves.push(mv);
    }
    let errors: Vec<String> = sink
        .lines()
        .into_iter()
        .filter(|l| l.contains("error"))
        .collect();
    assert!(errors.is_empty(), "{variant} seed {seed}: {errors:?}");
    verdict.unwrap_or_else(|| {
        panic!(
            "{variant} seed {seed}: no result after {MAX_PLIES} plies: {}",
            moves.join(" ")
        )
    })
}

fn selfplay(games_per_variant: u64) {
    for variant in Rules::VARIANTS {
        let mut verdicts = Vec::new();
        for seed in 0..games_per_variant {
            verdicts.push(play_game(variant, seed + 1));
        }
        let reasons: HashSet<&str> = verdicts
            .iter()
            .filter_map(|v| v.split(' ').nth(2))
            .collect();
        println!("{variant}: {} games, reasons {reasons:?}", verdicts.len());
    }
}

#[test]
fn selfplay_quick() {
    selfplay(2);
}

#[test]
#[ignore = "long: 200 games under each rule set"]
fn selfplay_200_games_per_rule_set() {
    selfplay(200);
}
