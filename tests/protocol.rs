//! Protocol tests: scripted sessions through the loop into an in-memory
//! writer (the spawned binary: tests/protocol_binary.rs).
//!
//! No test asserts a duration except generous upper bounds (a test that
//! would otherwise hang fails after `LONG`).

mod common;

use common::fen_after;
use common::session::{Harness, LONG};
use janggi::perft::divide;
use janggi::protocol::{self, Flow, MemorySink};
use janggi::{Game, Rules};
use janggi::{LegalityModel, Notation, Position};
use std::thread;
use std::time::{Duration, Instant};

/// Han to move, in check from the chariot on a10, every flight square
/// covered by the chariot on i9: checkmated.
const MATED_FEN: &str = "R2k5/8R/9/9/9/9/9/9/4K4/9 b - - 0 1";

#[test]
fn uci_handshake_lists_options() {
    let mut h = Harness::new();
    let out = h.ask("uci");
    assert!(out[0].starts_with("id name janggi-engine"), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("id author ")));
    assert_eq!(out.last().map(String::as_str), Some("uciok"));
    for want in [
        "option name Hash type spin default 16 min 1 max",
        "option name Threads type spin default 1 min 1 max",
        "option name MultiPV type spin default 1 min 1 max",
        "option name Ponder type check default false",
        "option name Move Overhead type spin default 10 min 0 max",
        "option name UCI_Variant type combo default janggikjf var janggikjf var janggi var janggitraditional var janggimodern var janggicasual",
        "option name Bikjang type combo default kjf var off var kjf var kja30 var fsf",
        "option name Repetition type combo default forbid var forbid var lose var scoreEnd var fsf var fsfModern var off",
        "option name NoCaptureLimit type spin default 0 min 0 max 1000",
        "option name Scoring type check default true",
        "option name AllowPass type check default true",
        "option name MoveLimit type combo default 0 var 0 var 150 var 200 var 250",
        "option name Clear Hash type button",
    ] {
        assert!(out.iter().any(|l| l.starts_with(want)), "missing '{want}' in {out:?}");
    }
    assert_eq!(h.ask("isready"), vec!["readyok"]);
}

#[test]
fn usi_handshake_and_usi_squares() {
    let mut h = Harness::new();
    let out = h.ask("usi");
    assert_eq!(out.last().map(String::as_str), Some("usiok"));
    assert!(out
        .iter()
        .any(|l| l.starts_with("option name USI_Hash type spin default 16")));
    assert!(out
        .iter()
        .any(|l| l.starts_with("option name USI_Ponder type check")));
    assert!(
        out.iter().all(|l| !l.contains("Move Overhead")),
        "USI names have no spaces: {out:?}"
    );
    assert!(h.ask("usinewgame").is_empty());
    // 8j7h is b1c3 in USI squares.
    assert!(h.ask("position startpos moves 8j7h").is_empty());
    assert_eq!(h.fen(), fen_after(&["b1c3"]));
    let legal = h.ask("legal");
    assert_eq!(legal.len(), 1);
    let moves: Vec<&str> = legal[0].split(' ').skip(1).collect();
    assert!(moves.contains(&"9d9e"), "a7a6 is 9d9e in USI: {moves:?}");
    assert!(
        moves.contains(&"5b5b"),
        "Han's pass is 5b5b in USI: {moves:?}"
    );
    assert!(!moves.contains(&"a7a6"));
    // USI option names are accepted with and without the prefix.
    assert!(h.ask("setoption name USI_Hash value 8").is_empty());
    assert!(h.ask("setoption name Move_Overhead value 50").is_empty());
    h.send("go depth 1");
    let lines = h.wait_count("bestmove", 1);
    let best = lines
        .iter()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_default();
    let best = best.split(' ').next().unwrap_or_default();
    let g = {
        let mut g = Game::new(Position::startpos(), Rules::default());
        let mv = g.position().parse_move("b1c3", Notation::Uci).unwrap();
        g.play(mv).unwrap();
        g
    };
    let mv = g.position().parse_move(best, Notation::Usi).unwrap();
    assert!(g.is_legal(mv), "bestmove {best} is not legal");
    h.send("gameover win");
    assert!(h.errors().is_empty(), "{:?}", h.errors());
}

#[test]
fn position_startpos_moves() {
    let mut h = Harness::new();
    h.send("uci");
    let moves = ["b1c3", "b10c8", "h1g3", "e9e9", "a4a5"];
    assert!(h
        .ask(&format!("position startpos moves {}", moves.join(" ")))
        .is_empty());
    assert_eq!(h.fen(), fen_after(&moves));
    // Extra spaces, tabs and CRLF do not matter.
    assert!(h
        .ask("  position \t startpos   moves  b1c3   b10c8 \r")
        .is_empty());
    assert_eq!(h.fen(), fen_after(&["b1c3", "b10c8"]));
    // Accepted pass spellings.
    // Two passes in a row end the game: told by one `info string`.
    let out = h.ask("position startpos moves 0000 pass");
    assert!(
        out.len() == 1 && out[0].starts_with("info string game over: han scorePasses"),
        "{out:?}"
    );
    assert_eq!(h.fen(), fen_after(&["e2e2", "e9e9"]));
    let fen = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
    assert!(h.ask(&format!("position fen {fen} moves b1c3")).is_empty());
    assert_eq!(h.fen(), fen_after(&["b1c3"]));
}

#[test]
fn bad_fen_keeps_previous_position() {
    let mut h = Harness::new();
    h.send("position startpos moves b1c3 a7a6");
    let before = h.fen();
    for bad in [
        "position fen rnba1abnr/4k4 w - - 0 1",
        "position fen rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR x - - 0 1",
        "position fen rnbaxabnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
        "position fen 9/9/9/9/9/9/9/9/4K4/9 w - - 0 1",
    ] {
        let out = h.ask(bad);
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert!(
            out[0].starts_with("info string error: position: bad FEN"),
            "{out:?}"
        );
        assert_eq!(h.fen(), before, "{bad} changed the position");
    }
    // The field is named.
    let out = h.ask(
        "position fen rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR x - - 0 1",
    );
    assert!(out[0].contains("side-to-move"), "{out:?}");
    assert!(h.ask("isready") == vec!["readyok"]);
}

#[test]
fn bad_move_keeps_valid_prefix() {
    let mut h = Harness::new();
    // Third move: nothing stands on b1 any more.
    let out = h.ask("position startpos moves b1c3 a7a6 b1c3 c1d3");
    assert_eq!(out.len(), 1, "{out:?}");
    let e = &out[0];
    assert!(
        e.starts_with("info string error: position: move 3 'b1c3' is illegal"),
        "{e}"
    );
    assert!(e.contains("kept the first 2 moves"), "{e}");
    assert_eq!(h.fen(), fen_after(&["b1c3", "a7a6"]));
    // Unparseable text.
    let out = h.ask("position startpos moves b1c3 xyzzy a7a6");
    assert_eq!(
        out,
        vec![
            "info string error: position: move 2 'xyzzy' is not move text; kept the first 1 moves"
        ]
    );
    assert_eq!(h.fen(), fen_after(&["b1c3"]));
    // A pass while in check is illegal; a pass square that is not the general's is no move.
    let out = h.ask("position startpos moves e3e3");
    assert!(out[0].contains("move 1 'e3e3' is not move text"), "{out:?}");
    assert_eq!(h.fen(), fen_after(&[]));
    assert_eq!(h.ask("isready"), vec!["readyok"]);
}

#[test]
fn isready_during_infinite_search_is_answered_before_bestmove() {
    let mut h = Harness::new();
    h.send("uci");
    h.send("position startpos");
    h.send("go infinite");
    h.send("isready");
    let lines = h.wait_count("readyok", 1);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "bestmove before stop: {lines:?}"
    );
    assert!(h.session().engine().is_searching());
    h.send("stop");
    let lines = h.wait_count("bestmove", 1);
    let ready = lines.iter().position(|l| l == "readyok");
    let best = lines.iter().position(|l| l.starts_with("bestmove"));
    assert!(ready < best, "{lines:?}");
}

#[test]
fn stop_gives_exactly_one_bestmove() {
    let mut h = Harness::new();
    h.send("position startpos moves b1c3");
    h.send("go infinite");
    h.wait_count("info depth", 1);
    h.send("stop");
    let lines = h.wait_count("bestmove", 1);
    let i = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap_or(0);
    assert!(
        lines[i - 1].starts_with("info depth "),
        "an info line on stop: {lines:?}"
    );
    // More stops, isready and a little time change nothing.
    h.send("stop");
    h.send("isready");
    h.wait_count("readyok", 1);
    thread::sleep(Duration::from_millis(100));
    h.send("stop");
    assert_eq!(h.count("bestmove"), 1, "{:?}", h.lines());
    assert!(!h.session().engine().is_searching());
}

#[test]
fn stale_search_results_are_never_printed() {
    let mut h = Harness::new();
    h.send("position startpos");
    // go, stop, go again quickly: one bestmove per search, in order.
    h.send("go infinite");
    h.send("stop");
    h.send("go infinite");
    let first_id = h.session().engine().current_id();
    h.send("stop");
    h.wait_count("bestmove", 2);
    thread::sleep(Duration::from_millis(50));
    assert_eq!(h.count("bestmove"), 2, "{:?}", h.lines());

    // A search superseded by a new `go` prints nothing; the new one prints once.
    let before = h.lines().len();
    let mut last_id = first_id;
    for _ in 0..3 {
        h.send("go infinite");
        let id = h.session().engine().current_id();
        assert!(id > last_id, "each go takes a new id");
        assert_eq!(
            h.session().engine().running_id(),
            Some(id),
            "the running search has the newest id"
        );
        last_id = id;
    }
    h.send("stop");
    h.wait_count("bestmove", 3);
    h.send("isready");
    h.wait_count("readyok", 1);
    thread::sleep(Duration::from_millis(50));
    let new: Vec<String> = h.since(before);
    let bests = new.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(bests, 1, "superseded searches printed: {new:?}");

    // Many quick rounds: exactly one bestmove per stopped search.
    let before = h.count("bestmove");
    for _ in 0..20 {
        h.send("go infinite");
        h.send("stop");
    }
    h.wait_count("bestmove", before + 20);
    thread::sleep(Duration::from_millis(50));
    assert_eq!(h.count("bestmove"), before + 20);
}

#[test]
fn state_changes_during_an_infinite_search_are_refused() {
    let mut h = Harness::new();
    h.send("position startpos");
    h.send("go infinite");
    let out = h.ask("position startpos moves b1c3");
    assert_eq!(
        out,
        vec!["info string error: position ignored: a search is running (send stop first)"]
    );
    let out = h.ask("setoption name Hash value 32");
    assert_eq!(
        out,
        vec!["info string error: setoption ignored: a search is running (send stop first)"]
    );
    // Read-only commands still work.
    assert!(h.ask("legal")[0].starts_with("legal "));
    h.send("stop");
    h.wait_count("bestmove", 1);
    assert_eq!(h.fen(), fen_after(&[]));
    // After stop, state changes work again.
    assert!(h.ask("position startpos moves b1c3").is_empty());
    assert_eq!(h.fen(), fen_after(&["b1c3"]));
    // A bare `go` has no limit either: refused, not waited for.
    h.send("go");
    let out = h.ask("ucinewgame");
    assert_eq!(
        out,
        vec!["info string error: ucinewgame ignored: a search is running (send stop first)"]
    );
    h.send("stop");
    h.wait_count("bestmove", 2);
    // A finite search is waited for: the position is applied after it.
    h.send("go depth 3");
    let out = h.ask("position startpos moves b1c3 a7a6");
    assert!(out.iter().all(|l| !l.contains("error")), "{out:?}");
    assert_eq!(
        h.count("bestmove"),
        3,
        "the search finished before the position changed"
    );
    assert_eq!(h.fen(), fen_after(&["b1c3", "a7a6"]));
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut h = Harness::new();
    h.send("position startpos");
    h.send("go ponder wtime 2000 btime 2000");
    h.send("isready");
    h.wait_count("readyok", 1);
    thread::sleep(Duration::from_millis(100));
    assert_eq!(
        h.count("bestmove"),
        0,
        "bestmove while pondering: {:?}",
        h.lines()
    );
    h.send("ponderhit");
    h.wait_count("bestmove", 1);
}

#[test]
fn go_perft_format() {
    let mut h = Harness::new();
    h.send("uci");
    h.send("position startpos moves b1c3");
    let out = h.ask("go perft 2");
    let pos = Position::from_fen(&fen_after(&["b1c3"])).unwrap();
    let rows = divide(&pos, 2, LegalityModel::Casual, 1);
    assert_eq!(out.len(), rows.len() + 2, "{out:?}");
    for (line, (mv, n)) in out.iter().zip(&rows) {
        assert_eq!(
            line,
            &format!("{}: {}", pos.move_text(*mv, Notation::Uci), n)
        );
    }
    assert_eq!(out[rows.len()], "");
    let total: u64 = rows.iter().map(|r| r.1).sum();
    assert_eq!(out[rows.len() + 1], format!("Nodes searched: {total}"));
    // Start position, depth 2: the reference count.
    h.send("position startpos");
    let out = h.ask("go perft 2");
    assert_eq!(out.last().map(String::as_str), Some("Nodes searched: 1024"));
    assert_eq!(out.len(), 32 + 2);
}

#[test]
fn legal_and_result_formats() {
    let mut h = Harness::new();
    h.send("position startpos");
    let out = h.ask("legal");
    assert_eq!(out.len(), 1);
    let g = Game::new(Position::startpos(), Rules::default());
    let mut want: Vec<String> = g
        .legal_moves()
        .iter()
        .map(|&m| g.position().move_text(m, Notation::Uci))
        .collect();
    let mut got: Vec<String> = out[0]
        .strip_prefix("legal ")
        .unwrap()
        .split(' ')
        .map(str::to_string)
        .collect();
    want.sort();
    got.sort();
    assert_eq!(got, want);
    assert!(got.contains(&"e2e2".to_string()), "the pass is listed");
    assert_eq!(h.ask("result"), vec!["result ongoing"]);

    h.send(&format!("position fen {MATED_FEN}"));
    assert_eq!(h.ask("legal"), vec!["legal"]);
    let out = h.ask("result");
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(out[0].starts_with("result cho checkmate cho "), "{out:?}");
    assert!(out[0].contains(" han "), "{out:?}");
    assert!(out[1].starts_with("info string "), "{out:?}");
}

#[test]
fn no_legal_move_gives_none_or_resign() {
    let mut h = Harness::new();
    h.send("uci");
    h.send(&format!("position fen {MATED_FEN}"));
    h.send("go depth 3");
    let lines = h.wait_count("bestmove", 1);
    let i = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap_or(0);
    assert_eq!(lines[i], "bestmove (none)");
    assert_eq!(lines[i - 1], "info depth 0 score mate 0");

    let mut h = Harness::new();
    h.send("usi");
    h.send(&format!("position fen {MATED_FEN}"));
    h.send("go btime 1000 wtime 1000 byoyomi 1000");
    let lines = h.wait_count("bestmove", 1);
    assert!(lines.contains(&"bestmove resign".to_string()), "{lines:?}");
}

/// `go` as GUIs send it (janggi-uci's `Go::read_lenient`): a clock that
/// ran out (negative), keywords in any case, UCCI's clock words and an
/// unknown word, which is reported while the search still answers.
#[test]
fn go_is_read_leniently() {
    let mut h = Harness::new();
    h.send("uci");
    h.send("position startpos");
    let out = h.go("GO Wtime -50 BTIME 18446744073709551615 frobnicate Depth 2");
    assert_eq!(
        out.iter()
            .filter(|l| l.starts_with("info string error:"))
            .collect::<Vec<_>>(),
        vec!["info string error: go: unexpected 'frobnicate'"],
        "{out:?}"
    );
    assert!(out.last().is_some_and(|l| l.starts_with("bestmove ")));

    let mut h = Harness::new();
    h.send("ucci");
    h.send("position startpos");
    let out = h.go("go time 300 increment 0 opptime 300 oppincrement 0");
    assert!(
        out.iter().all(|l| !l.starts_with("info string error:")),
        "{out:?}"
    );
    assert!(out.last().is_some_and(|l| l.starts_with("bestmove ")));
    assert_eq!(
        h.ask("go depth -1"),
        vec!["info string error: go: '-1' is not a valid number for depth"]
    );
    assert_eq!(
        h.ask("go wtime"),
        vec!["info string error: go: missing a number after wtime"]
    );
}

#[test]
fn option_errors_change_nothing() {
    let mut h = Harness::new();
    h.send("uci");
    let cases = [
        (
            "setoption name Foo value 3",
            "info string error: setoption: unknown option 'Foo'",
        ),
        (
            "setoption name Hash value lots",
            "info string error: setoption: bad value 'lots' for 'Hash'",
        ),
        (
            "setoption name Hash value 0",
            "info string error: setoption: bad value '0' for 'Hash'",
        ),
        (
            "setoption name Hash",
            "info string error: setoption: option 'Hash' needs a value",
        ),
        (
            "setoption name UCI_Variant value chess",
            "info string error: setoption: bad value 'chess' for 'UCI_Variant'",
        ),
        (
            "setoption name MoveLimit value 100",
            "info string error: setoption: bad value '100' for 'MoveLimit'",
        ),
        (
            "setoption name Scoring value maybe",
            "info string error: setoption: bad value 'maybe' for 'Scoring'",
        ),
        ("setoption", "info string error: setoption: missing 'name'"),
    ];
    for (cmd, want) in cases {
        let out = h.ask(cmd);
        assert_eq!(out.len(), 1, "{cmd}: {out:?}");
        assert!(out[0].starts_with(want), "{cmd}: {out:?}");
    }
    for ok in [
        "setoption name Hash value 32",
        "setoption name Threads value 1",
        "setoption name MultiPV value 2",
        "setoption name Ponder value true",
        "setoption name Move Overhead value 30",
        "setoption name move overhead value 30",
        "setoption name UCI_Variant value janggi",
        "setoption name Bikjang value kja30",
        "setoption name Repetition value scoreEnd",
        "setoption name Scoring value false",
        "setoption name AllowPass value false",
        "setoption name MoveLimit value 200",
        "setoption name NoCaptureLimit value 100",
        "setoption name Repetition value fsfModern",
        "setoption name Clear Hash",
        "setoption name UCI_Variant value janggikjf",
    ] {
        assert!(h.ask(ok).is_empty(), "{ok}: {:?}", h.lines());
    }
    // AllowPass false removes the pass from the legal moves.
    h.send("position startpos");
    assert!(h.ask("legal")[0].contains("e2e2"));
    h.send("setoption name AllowPass value false");
    let legal = h.ask("legal");
    // The game layer decides; at least the option was accepted.
    assert_eq!(legal.len(), 1);
}

#[test]
fn robust_input() {
    let mut h = Harness::new();
    assert!(h.ask("").is_empty());
    assert!(h.ask("   \t  ").is_empty());
    assert!(h.ask("\r").is_empty());
    assert_eq!(h.ask("isready\r"), vec!["readyok"]);
    assert_eq!(
        h.ask("frobnicate the board"),
        vec!["info string error: unknown command 'frobnicate'"]
    );
    assert_eq!(
        h.ask("go depth banana"),
        vec!["info string error: go: 'banana' is not a valid number for depth"]
    );
    let out = h.ask("position");
    assert_eq!(out.len(), 1);
    assert!(
        out[0].starts_with("info string error: position: missing"),
        "{out:?}"
    );
    let long = "x".repeat(200_000);
    let out = h.ask(&long);
    assert_eq!(out.len(), 1);
    assert!(out[0].len() < 200, "error lines stay short");
    let long_moves = format!(
        "position startpos moves {}",
        "b1c3 b10c8 c3b1 c8b10 ".repeat(2)
    );
    // The start position's 3rd occurrence is told, nothing else.
    let out = h.ask(&long_moves);
    assert!(
        out.len() == 1 && out[0].starts_with("info string repetition: "),
        "{out:?}"
    );
    let many_spaces = format!(
        "position{}startpos{}moves b1c3",
        " ".repeat(50_000),
        "\t".repeat(50_000)
    );
    assert!(h.ask(&many_spaces).is_empty());
    assert_eq!(h.fen(), fen_after(&["b1c3"]));
    for junk in [
        "\u{0}\u{1}",
        "日本語",
        "position fen 日本",
        "go perft x",
        "setoption name",
    ] {
        let out = h.ask(junk);
        assert_eq!(out.len(), 1, "{junk:?}: {out:?}");
        assert!(out[0].starts_with("info string error: "));
    }
    assert_eq!(h.ask("isready"), vec!["readyok"]);
}

#[test]
fn quit_mid_search() {
    let mut h = Harness::new();
    h.send("position startpos");
    h.send("go infinite");
    let start = Instant::now();
    assert_eq!(h.send("quit"), Flow::Quit);
    assert!(start.elapsed() < LONG);
    assert!(!h.session().engine().is_searching());
}

#[test]
fn run_loop_reads_crlf_and_long_lines() {
    let too_long = "y".repeat(protocol::MAX_LINE + 10);
    let input = format!("uci\r\n\r\n{too_long}\r\nisready\r\nposition startpos moves b1c3\r\nd\r\nquit\r\nisready\r\n");
    let sink = MemorySink::default();
    let code = protocol::run(std::io::Cursor::new(input.into_bytes()), sink.clone());
    assert_eq!(code, 0);
    let lines = sink.lines();
    assert!(lines.contains(&"uciok".to_string()));
    assert_eq!(
        lines.iter().filter(|l| *l == "readyok").count(),
        1,
        "nothing after quit: {lines:?}"
    );
    assert!(lines.iter().any(|l| l.contains("longer than")), "{lines:?}");
    assert!(lines.contains(&format!("Fen: {}", fen_after(&["b1c3"]))));
}

#[test]
fn end_of_input_finishes_a_finite_search() {
    let sink = MemorySink::default();
    let code = protocol::run(
        std::io::Cursor::new("position startpos\ngo depth 2\n"),
        sink.clone(),
    );
    assert_eq!(code, 0);
    assert_eq!(
        sink.lines()
            .iter()
            .filter(|l| l.starts_with("bestmove "))
            .count(),
        1,
        "{:?}",
        sink.lines()
    );
}

#[test]
fn eval_prints_terms_and_final_score() {
    let mut h = Harness::new();
    h.send("position startpos moves b1c3");
    let out = h.ask("eval");
    for term in [
        "material", "pst", "mobility", "palace", "soldiers", "exposure", "count", "total",
    ] {
        assert!(
            out.iter()
                .any(|l| l.split_whitespace().next() == Some(term)),
            "no {term} line: {out:?}"
        );
    }
    let pos = Position::from_fen(&fen_after(&["b1c3"])).unwrap();
    let want = format!(
        "Final evaluation: {} cp (han to move",
        janggi::eval::evaluate(&pos)
    );
    assert!(out.iter().any(|l| l.starts_with(&want)), "{out:?}");
    // The network's verdict follows, then which evaluation the search uses.
    let net = janggi::nnue::evaluate(janggi::nnue::default_network(), &pos);
    let want_net = format!("NNUE evaluation: {net} cp (han to move");
    assert!(out.iter().any(|l| l.starts_with(&want_net)), "{out:?}");
    let default = if janggi::engine::USE_NNUE_DEFAULT {
        "Search uses: NNUE"
    } else {
        "Search uses: handcrafted"
    };
    assert!(
        out.last().is_some_and(|l| l.starts_with(default)),
        "{out:?}"
    );
    // `Use NNUE` switches the search, not the printed verdicts.
    for (value, uses) in [
        ("false", "Search uses: handcrafted"),
        ("true", "Search uses: NNUE"),
    ] {
        h.send(&format!("setoption name Use NNUE value {value}"));
        let again = h.ask("eval");
        assert!(
            again.last().is_some_and(|l| l.starts_with(uses)),
            "{again:?}"
        );
        assert_eq!(again[..again.len() - 1], out[..out.len() - 1]);
    }
}

#[test]
fn bench_is_deterministic_and_ends_with_the_counts() {
    let mut h = Harness::new();
    let run = |h: &mut Harness| {
        let out = h.ask("bench 2");
        let n = out.len();
        assert!(n >= 4, "{out:?}");
        assert!(out[n - 2].starts_with("Nodes searched: "), "{out:?}");
        assert!(out[n - 1].starts_with("Nodes/second: "), "{out:?}");
        assert!(out[0].starts_with("Position 1/"), "{out:?}");
        out[n - 2].clone()
    };
    let first = run(&mut h);
    assert_ne!(first, "Nodes searched: 0");
    assert_eq!(run(&mut h), first, "the node count is the signature");
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    const WORDS: &[&str] = &[
        "uci",
        "usi",
        "ucci",
        "isready",
        "setoption",
        "name",
        "value",
        "Hash",
        "Threads",
        "MultiPV",
        "UCI_Variant",
        "janggi",
        "Bikjang",
        "Clear",
        "position",
        "startpos",
        "fen",
        "sfen",
        "moves",
        "b1c3",
        "a7a6",
        "e2e2",
        "0000",
        "8j7h",
        "9d9e",
        "b0c2",
        "go",
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "byoyomi",
        "infinite",
        "ponder",
        "perft",
        "stop",
        "ponderhit",
        "d",
        "legal",
        "result",
        "eval",
        "usinewgame",
        "ucinewgame",
        "gameover",
        "win",
        "-5",
        "0",
        "1",
        "2",
        "3",
        "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR",
        "w",
        "b",
        "-",
        "\r",
        "\t",
        "ü",
        "x",
        "",
        "99999999999999999999999",
    ];

    fn line() -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(WORDS), 0..8).prop_map(|w| w.join(" "))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// Random command soup never panics and the engine still answers.
        #[test]
        fn random_lines_never_break_the_session(lines in prop::collection::vec(line(), 1..16)) {
            let mut h = Harness::new();
            for l in &lines {
                if h.send(l) == Flow::Quit {
                    return Ok(());
                }
            }
            h.send("stop");
            let before = h.count("readyok");
            h.send("isready");
            prop_assert_eq!(h.count("readyok"), before + 1);
        }
    }
}

#[test]
fn usi_gameover_drops_a_ponder_search_without_bestmove() {
    let mut h = Harness::new();
    h.send("usi");
    h.send("position startpos moves 8j7h");
    h.send("go ponder btime 1000 wtime 1000 byoyomi 1000");
    h.send("gameover win");
    h.send("isready");
    h.wait_count("readyok", 1);
    // The next search answers normally, and only once.
    h.send("go depth 1");
    h.wait_count("bestmove", 1);
    h.send("isready");
    h.wait_count("readyok", 2);
    thread::sleep(Duration::from_millis(50));
    assert_eq!(h.count("bestmove"), 1, "{:?}", h.lines());
}
