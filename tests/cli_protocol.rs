//! Whole dialogues with the real `janggi-engine` binary over pipes.
//!
//! Latencies are printed (run with `--nocapture` to see them) and asserted
//! only against generous bounds, except where the bound is the clock itself:
//! a move that arrives after the clock ran out loses on time.

mod common;

use common::session::spawn_engine;
use janggi::Move;
use janggi::{EndReason, Game, Rules};
use janggi::{Notation, Position};
use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::thread;
use std::time::{Duration, Instant};

/// Upper bound for anything that should be prompt.
const LONG: Duration = Duration::from_secs(10);

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
    seen: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let (mut child, rx) = spawn_engine(&[]);
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            rx,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .expect("write");
        stdin.flush().expect("flush");
    }

    /// Reads until a line satisfies `pred`; returns the lines read (the
    /// matching one last) and the time it took.
    fn until(&mut self, pred: impl Fn(&str) -> bool) -> (Vec<String>, Duration) {
        let start = Instant::now();
        let mut got = Vec::new();
        loop {
            let left = LONG.saturating_sub(start.elapsed());
            match self.rx.recv_timeout(left) {
                Ok(l) => {
                    self.seen.push(l.clone());
                    let hit = pred(&l);
                    got.push(l);
                    if hit {
                        return (got, start.elapsed());
                    }
                }
                Err(_) => panic!("timed out after {LONG:?}; got {got:?}"),
            }
        }
    }

    fn bestmove(&mut self) -> (Vec<String>, String, Duration) {
        let (lines, t) = self.until(|l| l.starts_with("bestmove"));
        let best = lines
            .last()
            .and_then(|l| l.split(' ').nth(1))
            .unwrap_or_default()
            .to_string();
        (lines, best, t)
    }

    fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + LONG;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                assert_eq!(status.code(), Some(0));
                return;
            }
            assert!(Instant::now() < deadline, "engine did not quit");
            thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn game(fen: &str) -> Game {
    Game::new(Position::from_fen(fen).expect("fen"), Rules::default())
}

fn parse(g: &Game, text: &str, n: Notation) -> Move {
    g.position()
        .parse_move(text, n)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn mates(g: &Game, m: Move) -> bool {
    let mut h = g.clone();
    h.play(m).is_ok()
        && h.outcome()
            .is_some_and(|o| o.reason == EndReason::Checkmate)
}

fn last_score(lines: &[String]) -> Option<String> {
    lines.iter().rev().find_map(|l| {
        let i = l.find(" score ")?;
        let rest: Vec<&str> = l[i + 7..].split(' ').take(2).collect();
        Some(rest.join(" "))
    })
}

#[test]
fn uci_dialogue_search_stop_isready_and_clocks() {
    let mut e = Engine::start();
    e.send("uci");
    let (lines, _) = e.until(|l| l == "uciok");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name UCI_Variant type combo default janggikjf")));
    e.send("setoption name UCI_Variant value janggi");
    e.send("ucinewgame");
    e.send("isready");
    e.until(|l| l == "readyok");

    // go depth 4 from a played position gives a legal move.
    e.send("position startpos moves b1c3 b10c8");
    e.send("go depth 4");
    let (lines, best, _) = e.bestmove();
    assert!(
        lines.iter().any(|l| l.starts_with("info depth ")),
        "{lines:?}"
    );
    let mut g = Game::new(
        Position::startpos(),
        Rules::from_variant("janggi").expect("variant"),
    );
    for m in ["b1c3", "b10c8"] {
        let mv = parse(&g, m, Notation::Uci);
        g.play(mv).expect("legal");
    }
    assert!(
        g.is_legal(parse(&g, &best, Notation::Uci)),
        "bestmove {best} not legal"
    );

    // go infinite, isready mid-search, stop.
    e.send("position startpos");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(200));
    e.send("isready");
    let (lines, ready_t) = e.until(|l| l == "readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("stop");
    let (_, best, stop_t) = e.bestmove();
    println!("isready mid-search answered in {ready_t:?}; stop -> bestmove in {stop_t:?}");
    assert!(ready_t < Duration::from_secs(2) && stop_t < Duration::from_secs(2));
    assert!(
        Game::new(Position::startpos(), Rules::default()).is_legal(parse(
            &Game::new(Position::startpos(), Rules::default()),
            &best,
            Notation::Uci
        ))
    );

    // Sudden death, one second each: the move comes well inside the clock.
    e.send("position startpos moves b1c3");
    e.send("go wtime 1000 btime 1000");
    let (_, _, t) = e.bestmove();
    println!("go wtime 1000 btime 1000 -> {t:?}");
    assert!(t < Duration::from_millis(1000), "lost on time: {t:?}");

    // Byoyomi with no main time left: the move comes inside the period.
    e.send("setoption name Move Overhead value 50");
    e.send("go wtime 0 btime 0 byoyomi 1000");
    let (_, _, t) = e.bestmove();
    println!("byoyomi 1000 with no main time -> {t:?}");
    assert!(
        t < Duration::from_millis(1000),
        "lost on time in byoyomi: {t:?}"
    );

    // movetime.
    e.send("go movetime 300");
    let (_, _, t) = e.bestmove();
    println!("movetime 300 -> {t:?}");
    assert!(t < Duration::from_secs(3));
    e.quit();
}

#[test]
fn mate_in_one_is_found_through_the_protocol() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    let fen1 = "3ka4/3a5/9/9/9/9/4R4/9/R8/5K3 w - - 0 1";
    e.send(&format!("position fen {fen1}"));
    e.send("go depth 4");
    let (lines, best, _) = e.bestmove();
    let g = game(fen1);
    assert!(
        mates(&g, parse(&g, &best, Notation::Uci)),
        "{best} does not mate: {lines:?}"
    );
    assert_eq!(last_score(&lines).as_deref(), Some("mate 1"), "{lines:?}");
    e.quit();
}

/// a1a9 (then b2b10 whatever Han does, a pass included) mates in two.
#[test]
fn mate_in_two_is_found_through_the_protocol() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    let fen2 = "4k4/9/9/9/9/9/9/9/1R2A4/R3K4 w - - 0 1";
    e.send(&format!("position fen {fen2}"));
    e.send("go depth 6");
    let (lines, best, _) = e.bestmove();
    assert_eq!(last_score(&lines).as_deref(), Some("mate 2"), "{lines:?}");
    let g = game(fen2);
    let first = parse(&g, &best, Notation::Uci);
    let mut h = g.clone();
    h.play(first).expect("legal");
    for &reply in h.legal_moves().iter() {
        let mut k = h.clone();
        k.play(reply).expect("legal");
        assert!(
            k.legal_moves().iter().any(|&m| mates(&k, m)),
            "{best} does not force mate"
        );
    }
    e.quit();
}

#[test]
fn usi_dialogue_with_byoyomi_and_resign() {
    let mut e = Engine::start();
    e.send("usi");
    let (lines, _) = e.until(|l| l == "usiok");
    assert!(lines.iter().any(|l| l.starts_with("option name USI_Hash")));
    e.send("setoption name USI_Hash value 8");
    e.send("usinewgame");
    e.send("position startpos moves 8j7h");
    // USI: btime is Cho's clock; Han to move here uses wtime.
    e.send("go btime 0 wtime 0 byoyomi 500");
    let (_, best, t) = e.bestmove();
    println!("USI byoyomi 500 -> {t:?}");
    assert!(t < Duration::from_millis(500), "lost on time: {t:?}");
    let mut g = Game::new(Position::startpos(), Rules::default());
    let mv = parse(&g, "8j7h", Notation::Usi);
    g.play(mv).expect("legal");
    assert!(g.is_legal(parse(&g, &best, Notation::Usi)), "{best}");
    e.send("gameover lose");
    // Checkmated side: resign.
    e.send("position fen R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
    e.send("go byoyomi 1000");
    let (lines, best, _) = e.bestmove();
    assert_eq!(best, "resign");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 0 score mate 0")),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn bad_input_of_every_kind_then_a_valid_command() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    let cases = [
        "bogus",
        "position fen 4k4/9 w - - 0 1",
        "position startpos moves b1c3 e7e5",
        "position startpos moves b1c3 nonsense",
        "setoption name Nope value 1",
        "setoption name Threads value -3",
        "go depth x",
        "position",
    ];
    for bad in cases {
        e.send(bad);
        let (lines, _) = e.until(|l| l.starts_with("info string error: "));
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        e.send("isready");
        let (lines, _) = e.until(|l| l == "readyok");
        assert_eq!(lines.len(), 1, "{bad}: more than one line: {lines:?}");
    }
    // The valid prefix of the bad move list was kept.
    e.send("position startpos moves b1c3 a7a6 h1g3 zzz");
    e.until(|l| l.starts_with("info string error: position: move 4 'zzz'"));
    e.send("d");
    let (lines, _) = e.until(|l| l.starts_with("Fen: "));
    let mut g = Game::new(Position::startpos(), Rules::default());
    for m in ["b1c3", "a7a6", "h1g3"] {
        let mv = parse(&g, m, Notation::Uci);
        g.play(mv).expect("legal");
    }
    assert_eq!(
        lines.last().map(String::as_str),
        Some(format!("Fen: {}", g.position().fen()).as_str())
    );
    e.send("go depth 2");
    let (_, best, _) = e.bestmove();
    assert!(g.is_legal(parse(&g, &best, Notation::Uci)));
    e.quit();
}

#[test]
fn bench_subcommand_and_command_agree() {
    let run = |args: &[&str], stdin: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_janggi-engine"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(stdin.as_bytes())
            .expect("write");
        let out = child.wait_with_output().expect("wait");
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines()
            .find(|l| l.starts_with("Nodes searched: "))
            .expect("Nodes searched line")
            .to_string()
    };
    let a = run(&["bench", "--depth", "2"], "");
    let b = run(&[], "bench 2\nquit\n");
    assert_eq!(a, b);
}
