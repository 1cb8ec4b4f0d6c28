//! CECP (XBoard/WinBoard) dialogues: the command sequences XBoard really
//! sends (taken from its debug log: handshake, `new`, `variant janggi`,
//! `level`, `post`, `time`/`otim` before each move, `force`, `undo`,
//! `setboard`, `analyze`, `result`), replayed through the protocol loop
//! into an in-memory sink, and once against the real binary over pipes.
//! Every answer is asserted.

mod common;

use common::session::{spawn_engine, Harness, LONG};
use janggi::protocol::notation::parse_move;
use janggi::protocol::ProtocolDialect;
use janggi::Position;
use janggi::{Game, Rules};
use std::io::Write;
use std::thread;
use std::time::{Duration, Instant};

const START_XBOARD_FEN: &str =
    "rhea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RHEA1AEHR w - - 0 1";

/// Han to move with a bare general on d10 (UCI), every flight square
/// covered and not in check: the pass is the only legal move.
const ONLY_PASS_FEN: &str = "3k5/R8/9/9/9/9/9/9/4R4/5K3 b - - 0 1";

/// Cho to move; the horse g7-f9 (CECP g6f8) mates at once.
const MATE_IN_ONE_FEN: &str = "3k5/R8/9/6N2/9/9/9/9/4R4/5K3 w - - 0 1";

/// Generals and one guard each: dead even.
const DEAD_FEN: &str = "3ak4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1";
/// As `DEAD_FEN` with a soldier each: play is left.
const SOLDIERS_FEN: &str = "3ak4/9/9/p8/9/9/8P/9/4A4/4K4 w - - 0 1";

/// Cho has an extra chariot.
const CHO_UP_A_CHARIOT_FEN: &str = "3ak4/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1";

/// A session after XBoard's handshake, as XBoard 4.9 sends it.
struct Xb(Harness);

impl std::ops::Deref for Xb {
    type Target = Harness;
    fn deref(&self) -> &Harness {
        &self.0
    }
}

impl std::ops::DerefMut for Xb {
    fn deref_mut(&mut self) -> &mut Harness {
        &mut self.0
    }
}

impl Xb {
    /// A session after XBoard's handshake and `new` / `variant janggi`,
    /// as XBoard 4.9 sends them.
    fn new() -> Xb {
        let mut xb = Xb(Harness::new());
        for l in [
            "xboard",
            "protover 2",
            "accepted setboard",
            "accepted usermove",
            "memory 16",
            "cores 1",
            "new",
            "random",
            "variant janggi",
            "level 40 0:10 0",
            "post",
            "hard",
            "ping 1",
        ] {
            xb.send(l);
        }
        xb.wait_for(|l| l == "pong 1");
        xb
    }

    fn wait_for(&self, pred: impl Fn(&str) -> bool) -> Vec<String> {
        self.wait_from(0, pred)
    }

    /// Sends `time`/`otim` and the move, as XBoard does, and returns the
    /// engine's answer (`move X`) with the lines before it.
    fn usermove_and_answer(&mut self, mv: &str) -> Vec<String> {
        let before = self.lines().len();
        self.send("time 1000");
        self.send("otim 1000");
        self.send(&format!("usermove {mv}"));
        self.wait_from(before, |l| l.starts_with("move "))
    }
}

/// UCI FEN (N/B letters) of the start position after `moves` in CECP text.
fn fen_after(moves: &[&str]) -> String {
    let mut g = Game::new(Position::startpos(), Rules::from_variant("janggi").unwrap());
    for m in moves {
        let mv = parse_move(g.position(), m, ProtocolDialect::Cecp).unwrap();
        g.play(mv).unwrap();
    }
    g.position().fen()
}

/// Whether `text` is a legal CECP move in `fen` (janggi rules).
fn legal_in(fen: &str, text: &str) -> bool {
    let g = Game::new(
        Position::from_fen(fen).unwrap(),
        Rules::from_variant("janggi").unwrap(),
    );
    parse_move(g.position(), text, ProtocolDialect::Cecp).is_ok_and(|m| g.is_legal(m))
}

/// The lines a restarted analysis printed for `fen`, after any lines
/// that the stopped analysis of `old_fen` still printed before the engine
/// read the command that restarted it (the test counts the lines before it
/// sends the command, and the old search may add one in between; the
/// engine's gate drops everything after). Each stale line must be legal in
/// the old position; the two sides to move have no move in common.
fn restarted<'a>(lines: &'a [String], old_fen: &str, fen: &str) -> &'a [String] {
    let fresh = lines
        .iter()
        .position(|l| pv_starts_legally(l, fen))
        .unwrap_or(lines.len());
    for l in &lines[..fresh] {
        assert_thinking_line(l, old_fen);
    }
    assert!(
        fresh < lines.len(),
        "no line of the restarted analysis: {lines:?}"
    );
    &lines[fresh..]
}

/// Whether a thinking line's PV starts with a move legal in `fen`.
fn pv_starts_legally(line: &str, fen: &str) -> bool {
    line.split_whitespace()
        .nth(4)
        .is_some_and(|m| legal_in(fen, m))
}

/// `ply score time nodes pv…` with a legal first PV move.
fn assert_thinking_line(line: &str, fen: &str) {
    let f: Vec<&str> = line.split_whitespace().collect();
    assert!(f.len() >= 5, "thinking line too short: {line}");
    for n in &f[..4] {
        assert!(n.parse::<i64>().is_ok(), "not a number '{n}' in {line}");
    }
    assert!(
        legal_in(fen, f[4]),
        "PV starts with an illegal move: {line}"
    );
}

#[test]
fn handshake_features_and_setup() {
    let xb = Xb::new();
    let lines = xb.lines();
    assert!(lines[0].starts_with(
        "feature setboard=1 usermove=1 time=1 memory=1 smp=1 ping=1 colors=0 sigint=0"
    ));
    assert!(lines[0].contains("san=0"));
    assert!(lines[0].contains("myname=\"janggi-engine "));
    assert!(lines[0]
        .contains("variants=\"janggi,janggikjf,janggitraditional,janggimodern,janggicasual\""));
    for want in [
        "feature option=\"MultiPV -spin 1 1 256\"",
        "feature option=\"Skill Level -spin 20 0 20\"",
        "feature option=\"AllowPass -check 1\"",
        "feature option=\"Repetition -combo forbid /// lose /// scoreEnd /// fsf /// fsfModern /// off\"",
        "feature option=\"Clear Hash -button\"",
    ] {
        assert!(lines.iter().any(|l| l == want), "missing {want}");
    }
    let done = lines
        .iter()
        .position(|l| l == "feature done=1")
        .expect("done=1");
    assert!(lines[..done].iter().all(|l| l.starts_with("feature ")));
    assert!(lines.contains(&format!(
        "setup (.H.R.AE..KPC..h.r.ae..kpc.) 9x10+0_janggi {START_XBOARD_FEN}"
    )));
    assert_eq!(lines.last().map(String::as_str), Some("pong 1"));
    // Nothing else: no error, no move (the engine plays Han after `new`).
    assert!(!lines
        .iter()
        .any(|l| l.starts_with("Error") || l.starts_with("move")));
}

#[test]
fn every_rule_set_gets_a_setup_and_unknown_variants_an_error() {
    let mut xb = Xb::new();
    for v in Rules::VARIANTS {
        let out = xb.ask(&format!("variant {v}"));
        assert_eq!(
            out,
            vec![format!(
                "setup (.H.R.AE..KPC..h.r.ae..kpc.) 9x10+0_janggi {START_XBOARD_FEN}"
            )]
        );
    }
    assert_eq!(
        xb.ask("variant xiangqi"),
        vec!["Error (unsupported variant): xiangqi".to_string()]
    );
}

#[test]
fn new_game_engine_answers_as_han_with_thinking_lines() {
    let mut xb = Xb::new();
    // Cho's soldier a4-b4 (CECP a3b3): the move XBoard's own legality
    // test refused.
    let out = xb.usermove_and_answer("a3b3");
    let fen = fen_after(&["a3b3"]);
    let (mv, thinking) = out.split_last().expect("lines");
    assert!(
        !thinking.is_empty(),
        "no thinking output after post: {out:?}"
    );
    for l in thinking {
        assert_thinking_line(l, &fen);
    }
    let reply = mv.strip_prefix("move ").expect("move");
    assert!(legal_in(&fen, reply), "illegal reply {reply}");
    // The engine's move is part of the game before the next command.
    let after = {
        let mut g = Game::new(Position::from_fen(&fen).unwrap(), Rules::default());
        g.play(parse_move(g.position(), reply, ProtocolDialect::Cecp).unwrap())
            .unwrap();
        g.position().fen()
    };
    assert_eq!(xb.fen(), after);
    // `nopost`: the next answer comes without thinking lines.
    xb.send("nopost");
    let out = xb.usermove_and_answer("b0c2");
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].starts_with("move "), "{out:?}");
}

#[test]
fn illegal_usermove_and_unknown_command_change_nothing() {
    let mut xb = Xb::new();
    xb.send("force");
    let before = xb.fen();
    // The chariot cannot jump over its own soldier; `j0a0` is off the board.
    assert_eq!(xb.ask("usermove a0a5")[0], "Illegal move: a0a5");
    assert_eq!(xb.ask("usermove j0a0"), vec!["Illegal move: j0a0"]);
    assert_eq!(xb.ask("usermove e0e0")[0], "Illegal move: e0e0");
    assert_eq!(
        xb.ask("frobnicate 3"),
        vec!["Error (unknown command): frobnicate"]
    );
    assert_eq!(
        xb.ask("level 40 x 0"),
        vec!["Error (bad argument): level 40 x 0"]
    );
    assert_eq!(xb.fen(), before);
    assert!(!xb.lines().iter().any(|l| l.starts_with("move ")));
}

#[test]
fn force_undo_remove_and_setboard() {
    let mut xb = Xb::new();
    xb.send("force");
    assert!(xb.ask("usermove b0c2").is_empty());
    assert!(xb.ask("usermove b9c7").is_empty());
    assert_eq!(xb.fen(), fen_after(&["b0c2", "b9c7"]));
    assert!(xb.ask("undo").is_empty());
    assert_eq!(xb.fen(), fen_after(&["b0c2"]));
    assert!(xb.ask("usermove h9g7").is_empty());
    assert!(xb.ask("remove").is_empty());
    assert_eq!(xb.fen(), Position::startpos().fen());
    assert_eq!(xb.ask("undo"), vec!["Error (no move to undo): undo"]);
    // XBoard's letters (H, E) are read.
    assert!(xb.ask(&format!("setboard {MATE_IN_ONE_FEN}")).is_empty());
    assert_eq!(xb.fen(), MATE_IN_ONE_FEN);
    let fen_he = "rhea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RHEA1AEHR b - - 0 1";
    assert!(xb.ask(&format!("setboard {fen_he}")).is_empty());
    assert_eq!(xb.fen(), Position::from_fen(fen_he).unwrap().fen());
    let bad = xb.ask("setboard 9/9 w - - 0 1");
    assert_eq!(bad.len(), 1);
    assert!(
        bad[0].starts_with("tellusererror Illegal position"),
        "{bad:?}"
    );
    assert_eq!(xb.fen(), Position::from_fen(fen_he).unwrap().fen());
    assert!(!xb.lines().iter().any(|l| l.starts_with("move ")));
}

#[test]
fn go_and_playother_choose_the_engines_side() {
    let mut xb = Xb::new();
    xb.send("force");
    xb.send("usermove b0c2");
    // `go`: the engine plays Han, the side to move, at once.
    let n = xb.lines().len();
    xb.send("sd 3");
    xb.send("go");
    let out = xb.wait_from(n, |l| l.starts_with("move "));
    let fen = fen_after(&["b0c2"]);
    for l in &out[..out.len() - 1] {
        assert_thinking_line(l, &fen);
        let ply: u32 = l.split_whitespace().next().unwrap().parse().unwrap();
        assert!(ply <= 3, "sd 3 exceeded: {l}");
    }
    // `playother` after `force`: the engine plays the side not on move and
    // waits for the opponent's move.
    xb.send("force");
    xb.send("undo");
    let n = xb.lines().len();
    xb.send("playother");
    thread::sleep(Duration::from_millis(300));
    assert!(
        xb.lines().len() == n,
        "playother must not think: {:?}",
        xb.lines()
    );
    // Han is on move (the engine's b9c7 was taken back): the user plays it.
    let out = xb.usermove_and_answer("h9g7");
    let reply = out.last().unwrap().strip_prefix("move ").expect("move");
    assert!(legal_in(&fen_after(&["b0c2", "h9g7"]), reply), "{reply}");
}

#[test]
fn move_now_and_short_time_answer_promptly() {
    let mut xb = Xb::new();
    xb.send("force");
    xb.send("level 0 30 0");
    xb.send("time 180000");
    xb.send("otim 180000");
    let n = xb.lines().len();
    let t = Instant::now();
    xb.send("go");
    thread::sleep(Duration::from_millis(200));
    xb.send("?");
    xb.wait_from(n, |l| l.starts_with("move "));
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "? took {:?}",
        t.elapsed()
    );
    // `st 1`: one second a move.
    xb.send("force");
    xb.send("st 1");
    let n = xb.lines().len();
    let t = Instant::now();
    xb.send("go");
    xb.wait_from(n, |l| l.starts_with("move "));
    assert!(
        t.elapsed() < Duration::from_millis(2500),
        "st 1 took {:?}",
        t.elapsed()
    );
    // 30 ms on the clock (centiseconds): still a legal move, quickly.
    xb.send("force");
    xb.send("level 40 0:10 0");
    xb.send("time 3");
    let n = xb.lines().len();
    let t = Instant::now();
    xb.send("go");
    xb.wait_from(n, |l| l.starts_with("move "));
    assert!(
        t.elapsed() < Duration::from_millis(1000),
        "time 3 took {:?}",
        t.elapsed()
    );
}

#[test]
fn the_pass_is_written_and_read_as_four_at_signs() {
    let mut xb = Xb::new();
    xb.send("force");
    xb.send(&format!("setboard {ONLY_PASS_FEN}"));
    let n = xb.lines().len();
    xb.send("sd 2");
    xb.send("go");
    let out = xb.wait_from(n, |l| l.starts_with("move "));
    assert_eq!(out.last().map(String::as_str), Some("move @@@@"));
    // The pass is in the game: Cho to move now.
    assert!(xb.fen().contains(" w "), "{}", xb.fen());
    // And read: the user passes back, which under `janggi` (two passes in
    // a row) ends the game by counting.
    xb.send("force");
    let out = xb.ask("usermove @@@@");
    assert!(!out.iter().any(|l| l.starts_with("Illegal")), "{out:?}");
    assert!(xb.fen().contains(" b "));
    assert!(
        out.iter().any(|l| l.starts_with("# game over: cho")),
        "{out:?}"
    );
    // A setboard that is the position after a pass keeps the history.
    xb.send(&format!("setboard {START_XBOARD_FEN}"));
    xb.send("usermove b0c2");
    // (XBoard's own move counters, which may differ from ours.)
    let after_pass = fen_after(&["b0c2", "@@@@"]);
    let board_side: Vec<&str> = after_pass.split(' ').take(2).collect();
    let xboard_fen = format!("{} {} - - 0 7", board_side[0], board_side[1]);
    assert!(xb.ask(&format!("setboard {xboard_fen}")).is_empty());
    assert!(xb.ask("undo").is_empty());
    assert_eq!(
        xb.fen(),
        fen_after(&["b0c2"]),
        "the pass was played, not a new game"
    );
}

#[test]
fn a_finished_game_is_claimed_with_reason_and_count() {
    let mut xb = Xb::new();
    xb.send("force");
    xb.send(&format!("setboard {MATE_IN_ONE_FEN}"));
    let n = xb.lines().len();
    xb.send("sd 3");
    xb.send("go");
    let out = xb.wait_from(n, |l| l.starts_with("1-0"));
    let mv = out
        .iter()
        .rev()
        .find(|l| l.starts_with("move "))
        .expect("a move");
    let claim = out.last().unwrap();
    assert!(
        claim.starts_with(
            "1-0 {Cho wins by checkmate (1 ply); 초 외통승 (1수); count Cho 31 : Han 1.5}"
        ),
        "{claim} after {mv}"
    );
    // Further moves are refused; `go` claims again.
    assert_eq!(xb.ask("usermove e8e7")[0], "Illegal move: e8e7");
    let n = xb.lines().len();
    xb.send("go");
    assert!(xb.lines()[n].starts_with("1-0 {"));
    // The opponent's mating move is claimed by the engine that is mated.
    xb.send("new");
    xb.send("force");
    xb.send(&format!("setboard {MATE_IN_ONE_FEN}"));
    xb.send("playother");
    let out = xb.ask("usermove g6f8");
    assert!(
        out.iter()
            .any(|l| l.starts_with("1-0 {Cho wins by checkmate")),
        "{out:?}"
    );
    assert!(!out.iter().any(|l| l.starts_with("move ")), "{out:?}");
    // `result` ends the game for the engine: it no longer moves.
    xb.send("result 1-0 {Cho wins}");
    xb.send("ping 9");
    assert_eq!(xb.lines().last().map(String::as_str), Some("pong 9"));
}

#[test]
fn analyze_follows_the_moves_until_exit() {
    let mut xb = Xb::new();
    xb.send("force");
    xb.send("post");
    let n = xb.lines().len();
    xb.send("analyze");
    let start_fen = Position::startpos().fen();
    let first = xb.wait_from(n, |l| l.starts_with("3 "));
    for l in &first {
        assert_thinking_line(l, &start_fen);
    }
    let stat = xb.ask(".");
    assert_eq!(stat.len(), 1, "{stat:?}");
    assert!(stat[0].starts_with("stat01: "), "{stat:?}");
    // A move restarts the analysis on the new position.
    let n = xb.lines().len();
    xb.send("usermove b0c2");
    let fen = fen_after(&["b0c2"]);
    let second = xb.wait_from(n, |l| l.starts_with("3 ") && pv_starts_legally(l, &fen));
    for l in restarted(&second, &start_fen, &fen) {
        assert_thinking_line(l, &fen);
    }
    let n = xb.lines().len();
    xb.send("undo");
    let third = xb.wait_from(n, |l| {
        l.starts_with("2 ") && pv_starts_legally(l, &start_fen)
    });
    for l in restarted(&third, &fen, &start_fen) {
        assert_thinking_line(l, &start_fen);
    }
    xb.send("exit");
    thread::sleep(Duration::from_millis(100));
    let n = xb.lines().len();
    thread::sleep(Duration::from_millis(300));
    assert_eq!(xb.lines().len(), n, "output after exit");
    assert!(!xb.lines().iter().any(|l| l.starts_with("move ")));
    assert_eq!(xb.fen(), start_fen);
}

#[test]
fn draw_offers_follow_the_engines_offer_rule() {
    // The rule of `search::offer`: a draw only when the position is dead
    // by the engine's search (within 50 cp, 60 plies without a capture)
    // and the count does not favour the engine.
    let mut xb = Xb::new();
    xb.send("force");
    // Without counting (janggicasual), generals and a guard each: nobody
    // can ever mate, accepted at once (also just after a capture).
    xb.send("variant janggicasual");
    for fen in [DEAD_FEN.replace(" 0 1", " 80 41"), DEAD_FEN.to_string()] {
        xb.send(&format!("setboard {fen}"));
        let out = xb.ask("draw");
        assert_eq!(out[0], "offer draw", "{out:?}");
        assert!(
            out[1].starts_with("# draw accepted: only generals and guards are left"),
            "{out:?}"
        );
    }
    // Generals, guards and a soldier each, just after a capture: the
    // search still sees play, ignored.
    xb.send(&format!("setboard {SOLDIERS_FEN}"));
    let out = xb.ask("draw");
    assert_eq!(
        out,
        vec!["# draw declined: the engine's search still sees play"]
    );
    // Counting (janggi): Cho a chariot up is ahead on the count and
    // declines; Han, a chariot down, is not dead by its search and
    // declines too.
    xb.send("variant janggi");
    xb.send("force");
    xb.send(&format!(
        "setboard {}",
        CHO_UP_A_CHARIOT_FEN.replace(" 0 1", " 80 41")
    ));
    let out = xb.ask("draw");
    assert_eq!(out, vec!["# draw declined: the count favours the engine"]);
    let han_to_move = CHO_UP_A_CHARIOT_FEN.replace(" w - - 0 1", " b - - 80 41");
    xb.send(&format!("setboard {han_to_move}"));
    let out = xb.ask("draw");
    assert!(!out.iter().any(|l| l == "offer draw"), "{out:?}");
    // At the start Han (ahead on the count with the deom) declines.
    xb.send("new");
    xb.send("force");
    xb.send("playother"); // engine: Han
    let out = xb.ask("draw");
    assert_eq!(out, vec!["# draw declined: the count favours the engine"]);
}

#[test]
fn options_memory_and_cores() {
    let mut xb = Xb::new();
    assert!(xb.ask("option Skill Level=3").is_empty());
    assert!(xb.ask("option AllowPass=0").is_empty());
    assert!(xb.ask("option Clear Hash").is_empty());
    assert!(xb.ask("memory 8").is_empty());
    assert!(xb.ask("cores 2").is_empty());
    let bad = xb.ask("option Skill Level=99");
    assert_eq!(bad.len(), 1);
    assert!(bad[0].starts_with("Error (bad option): "), "{bad:?}");
    // AllowPass off: a voluntary pass is illegal now.
    xb.send("force");
    assert_eq!(xb.ask("usermove @@@@")[0], "Illegal move: @@@@");
}

/// The real binary over pipes: XBoard's handshake and a few moves of a
/// game with a clock, then `quit` ends the process.
#[test]
fn binary_plays_a_game_start_over_pipes() {
    let (mut child, rx) = spawn_engine(&[]);
    let mut stdin = child.stdin.take().expect("stdin");
    let mut send = |l: &str| {
        stdin.write_all(format!("{l}\n").as_bytes()).expect("write");
        stdin.flush().expect("flush");
    };
    let until = |pred: &dyn Fn(&str) -> bool| -> Vec<String> {
        let start = Instant::now();
        let mut got = Vec::new();
        loop {
            let left = LONG.saturating_sub(start.elapsed());
            let l = rx
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("timeout; got {got:?}"));
            let hit = pred(&l);
            got.push(l);
            if hit {
                return got;
            }
        }
    };
    send("xboard");
    send("protover 2");
    until(&|l| l == "feature done=1");
    for l in [
        "new",
        "variant janggi",
        "level 0 0:05 0.1",
        "post",
        "ping 1",
    ] {
        send(l);
    }
    let out = until(&|l| l == "pong 1");
    assert!(out[0].starts_with("setup ("), "{out:?}");
    let mut game = Game::new(Position::startpos(), Rules::from_variant("janggi").unwrap());
    for ours in ["a3b3", "b0c2", "h0g2"] {
        let mv = parse_move(game.position(), ours, ProtocolDialect::Cecp).unwrap();
        game.play(mv).unwrap();
        send("time 500");
        send("otim 500");
        send(&format!("usermove {ours}"));
        let out = until(&|l| l.starts_with("move ") || l.starts_with("Illegal"));
        let reply = out.last().unwrap().strip_prefix("move ").expect("a move");
        let mv = parse_move(game.position(), reply, ProtocolDialect::Cecp).unwrap();
        game.play(mv)
            .unwrap_or_else(|e| panic!("illegal reply {reply}: {e}"));
    }
    send("quit");
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            assert!(status.success());
            break;
        }
        assert!(start.elapsed() < LONG, "quit did not end the process");
        thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn exit_outside_analysis_does_not_stop_the_engines_move() {
    let mut xb = Xb::new();
    xb.send("force");
    xb.send("st 0.3");
    let n = xb.lines().len();
    xb.send("go");
    xb.send("exit");
    xb.send("ping 4");
    let out = xb.wait_from(n, |l| l.starts_with("move "));
    assert!(out.iter().any(|l| l == "pong 4"), "{out:?}");
}

/// XBoard relays an engine's move within a millisecond and sends
/// `time`/`otim` at once: a line that arrives while the search thread is
/// still ending (after it printed `move X`) must not lose the move from
/// the engine's game. The engine plays both sides here, and the next line
/// goes in the instant each move is printed; every printed move must be
/// legal in the game so far and be part of the engine's game afterwards.
#[test]
fn a_line_right_after_the_engines_move_keeps_that_move_in_the_game() {
    let mut xb = Xb::new();
    xb.send("nopost");
    xb.send("force");
    xb.send("sd 1");
    let mut game = Game::new(Position::startpos(), Rules::from_variant("janggi").unwrap());
    for _ in 0..150 {
        if game.is_over() {
            break;
        }
        let n = xb.lines().len();
        xb.send("go");
        let start = Instant::now();
        let reply = loop {
            // No sleep: the next line must reach the session as soon as
            // the move is visible, as a GUI's relay would.
            if let Some(l) = xb.since(n).iter().find(|l| l.starts_with("move ")) {
                break l.strip_prefix("move ").unwrap().to_string();
            }
            assert!(start.elapsed() < LONG, "no move: {:?}", xb.since(n));
        };
        xb.send("time 1000");
        let mv = parse_move(game.position(), &reply, ProtocolDialect::Cecp)
            .unwrap_or_else(|e| panic!("unreadable move {reply}: {e}"));
        game.play(mv)
            .unwrap_or_else(|e| panic!("illegal move {reply} at ply {}: {e}", game.ply()));
        xb.send("force");
    }
    assert!(
        game.ply() >= 20,
        "the game was too short to test: {}",
        game.ply()
    );
    assert_eq!(
        xb.fen(),
        game.position().fen(),
        "the engine's game lost a move"
    );
    assert!(
        !xb.lines().iter().any(|l| l.contains("could not record")),
        "{:?}",
        xb.lines()
    );
}

/// XBoard (4.9, legality testing off) promoted a soldier in its Pawn slot
/// on the last rank (to a Queen, whose letter in the old `setup` table was
/// `.`) and relayed the step as `usermove g1g0.` for Han's soldier g2-g1
/// (UCI). The table now keeps soldiers out of the Pawn slot; a move with
/// the dot is still read as the four squares, and other trailing text is
/// still refused.
#[test]
fn a_soldier_reaching_the_last_rank_with_xboards_promotion_dot_is_read() {
    // Han soldier on g2 (UCI), one step from Cho's back rank; Han to move.
    let fen = "4k4/9/9/9/9/9/9/9/6p2/3K5 b - - 0 1";
    let mut xb = Xb::new();
    xb.send("force");
    assert!(xb.ask(&format!("setboard {fen}")).is_empty());
    assert_eq!(xb.ask("usermove g1g0x"), vec!["Illegal move: g1g0x"]);
    assert_eq!(xb.ask("usermove g1g0.."), vec!["Illegal move: g1g0.."]);
    assert!(xb.ask("usermove g1g0.").is_empty());
    assert_eq!(xb.fen(), "4k4/9/9/9/9/9/9/9/9/3K2p2 w - - 1 2");
}
