//! The engine behind the board: a UCI child process over pipes (the
//! test-only fake engine of this crate), including one that crashes, one
//! that hangs and one that sends an illegal move.

mod common;

use common::*;
use serde_json::{json, Value};
use std::io::BufRead;
use std::time::Duration;

fn hve_cho() -> serde_json::Value {
    json!({"mode": "hve", "human": "cho", "movetimeMs": 20, "skill": 5})
}

#[test]
fn the_engine_answers_and_its_analysis_reaches_the_page() {
    // With a second, worse MultiPV line after the best one: only the best
    // line is the engine's view.
    let s = server_with(&["multipv"]);
    let p = s.port();
    start_game(p, hve_cho(), "MSSM", "MSSM");
    assert_eq!(mv(p, "a4", "a5").status, 200);
    // The engine's turn: a human try is refused with its reason.
    let r = mv(p, "a7", "a6");
    assert!(r.status == 422 || r.status == 200);
    let st = wait_for(p, 15, "the engine's move", |s| s["ply"] == 2);
    assert_eq!(st["moves"][1]["side"], "han");
    assert_eq!(st["humanToMove"], true);
    assert_eq!(st["engine"]["name"], "fake-engine");
    let a = &st["analysis"];
    assert_eq!(a["wdl"], json!([300, 400, 300]), "{a}");
    assert_eq!(a["cp"], -12, "Han's +12 is Cho's -12");
    assert!(a["pv"].as_array().is_some_and(|pv| !pv.is_empty()));
    assert_eq!(st["moves"][1]["eval"], -12);
}

#[test]
fn the_engine_moves_first_when_the_human_is_han() {
    let s = server();
    let p = s.port();
    start_game(
        p,
        json!({"mode": "hve", "human": "han", "movetimeMs": 20}),
        "MSSM",
        "random",
    );
    let st = wait_for(p, 15, "the engine's first move", |s| s["ply"] == 1);
    assert_eq!(st["moves"][0]["side"], "cho");
    // Undo takes back the engine's move and the human's turn comes back
    // after the engine plays again.
    assert_eq!(mv(p, "a7", "a6").status, 200);
    wait_for(p, 15, "the engine's reply", |s| s["ply"] == 3);
}

#[test]
fn engine_vs_engine_plays_on_and_events_stream() {
    let s = server();
    let p = s.port();
    let mut reader = open_events(p);
    let mut line = String::new();
    start_game(p, json!({"mode": "eve", "movetimeMs": 10}), "MSSM", "SMMS");
    wait_for(p, 30, "six plies", |s| s["ply"].as_u64().unwrap_or(0) >= 6);
    let mut seen_info = false;
    let mut seen_state = false;
    for _ in 0..2000 {
        line.clear();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        seen_info |= line.starts_with("event: info");
        seen_state |= line.starts_with("event: state");
        if seen_info && seen_state {
            break;
        }
    }
    assert!(seen_info && seen_state, "SSE events");
    // A new game stops the stream of moves.
    post(p, "/api/new", json!({"mode": "hvh"}));
    std::thread::sleep(Duration::from_millis(200));
    let st = state(p);
    assert_eq!(st["phase"], "setup");
}

#[test]
fn a_crashed_engine_is_restarted_without_losing_the_game() {
    let dir = std::env::temp_dir().join(format!("janggi-gui-crash-{}", std::process::id()));
    let _ = std::fs::remove_file(&dir);
    let marker = dir.to_string_lossy().to_string();
    let s = server_with(&[&format!("crash-once={marker}")]);
    let p = s.port();
    start_game(p, hve_cho(), "MSSM", "MSSM");
    assert_eq!(mv(p, "a4", "a5").status, 200);
    let st = wait_for(p, 20, "the restarted engine's move", |s| s["ply"] == 2);
    assert_eq!(st["engine"]["crashes"], 1);
    assert!(st["engine"]["lastCrash"]
        .as_str()
        .unwrap()
        .contains("restarted"));
    assert_eq!(st["moves"][0]["uci"], "a4a5", "the record is kept");
    let _ = std::fs::remove_file(&dir);
}

#[test]
fn a_hung_engine_is_given_up_after_restarts() {
    let s = server_with(&["hang"]);
    let p = s.port();
    start_game(p, hve_cho(), "MSSM", "MSSM");
    assert_eq!(mv(p, "a4", "a5").status, 200);
    let st = wait_for(p, 30, "the board to give up", |s| {
        s["engine"]["state"] == "down"
    });
    assert!(st["engine"]["crashes"].as_u64().unwrap() >= 3);
    assert_eq!(st["ply"], 1, "the game is kept");
    // Undo still works, and the human can go on.
    assert_eq!(post(p, "/api/undo", json!({})).status, 200);
    assert_eq!(state(p)["ply"], 0);
}

#[test]
fn an_illegal_engine_move_is_reported() {
    let s = server_with(&["illegal"]);
    let p = s.port();
    start_game(p, hve_cho(), "MSSM", "MSSM");
    assert_eq!(mv(p, "a4", "a5").status, 200);
    let st = wait_for(p, 15, "the report", |s| s["engine"]["state"] == "illegal");
    assert!(st["engine"]["message"].as_str().unwrap().contains("a1a1"));
    assert_eq!(st["ply"], 1);
}

#[test]
fn a_missing_engine_is_reported() {
    let config = janggi_gui::Config {
        host: "127.0.0.1".into(),
        port: 0,
        engine: janggi_gui::EngineCommand {
            program: "/nonexistent/engine".into(),
            args: vec![],
        },
        grace: Duration::from_millis(200),
    };
    let s = janggi_gui::start(&config).unwrap();
    let p = s.port();
    start_game(p, hve_cho(), "MSSM", "MSSM");
    assert_eq!(mv(p, "a4", "a5").status, 200);
    let st = wait_for(p, 10, "the report", |s| s["engine"]["state"] == "down");
    assert!(st["engine"]["message"]
        .as_str()
        .unwrap()
        .contains("could not start"));
}

/// Fairy-Stockfish behind the board, when it is installed (Debian's
/// `fairy-stockfish` package puts it in /usr/games; `FAIRY_STOCKFISH`
/// names another). Skips with a printed reason otherwise.
#[test]
fn fairy_stockfish_plays_on_the_board() {
    let exe = std::env::var_os("FAIRY_STOCKFISH")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            [
                "/usr/games/fairy-stockfish",
                "/usr/bin/fairy-stockfish",
                "/usr/local/bin/fairy-stockfish",
            ]
            .iter()
            .map(std::path::PathBuf::from)
            .find(|p| p.is_file())
        });
    let Some(exe) = exe else {
        println!("skipped: no fairy-stockfish found");
        return;
    };
    let config = janggi_gui::Config {
        host: "127.0.0.1".into(),
        port: 0,
        engine: janggi_gui::EngineCommand {
            program: exe,
            args: vec![],
        },
        grace: Duration::from_secs(3),
    };
    let s = janggi_gui::start(&config).unwrap();
    let p = s.port();
    // Its own rules (UCI_Variant janggi): engine vs engine for a while,
    // every move refereed by the game layer.
    start_game(
        p,
        json!({"mode": "eve", "variant": "janggi", "movetimeMs": 30}),
        "MSSM",
        "SMSM",
    );
    let st = wait_for(p, 60, "ten plies", |s| {
        s["ply"].as_u64().unwrap_or(0) >= 10
            || s["phase"] == "finished"
            || s["engine"]["state"] == "illegal"
    });
    assert_ne!(st["engine"]["state"], "illegal", "{}", st["engine"]);
    assert_eq!(st["engine"]["crashes"], 0);
    assert!(
        st["engine"]["name"]
            .as_str()
            .unwrap_or("")
            .contains("Fairy-Stockfish"),
        "{}",
        st["engine"]
    );
    assert!(st["analysis"]["pv"]
        .as_array()
        .is_some_and(|pv| !pv.is_empty()));
    // The spec's rules: the engine gets `janggi`, and the page says so.
    let st = start_game(
        p,
        json!({"mode": "hve", "human": "cho", "movetimeMs": 30}),
        "MSSM",
        "MSSM",
    );
    assert_eq!(st["phase"], "playing");
    assert_eq!(mv(p, "a4", "a5").status, 200);
    let st = wait_for(p, 20, "its reply", |s| {
        s["ply"] == 2 || s["engine"]["state"] == "illegal"
    });
    assert_eq!(st["ply"], 2, "{}", st["engine"]);
    assert!(st["engine"]["note"]
        .as_str()
        .unwrap_or("")
        .contains("Fairy-Stockfish"));
}

fn temp_file(name: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("janggi-gui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// The `go` lines the fake engine received.
fn gos(log: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with("go"))
        .map(str::to_string)
        .collect()
}

fn field(go: &str, key: &str) -> u64 {
    let w: Vec<&str> = go.split_whitespace().collect();
    let i = w
        .iter()
        .position(|t| *t == key)
        .unwrap_or_else(|| panic!("no {key} in {go}"));
    w[i + 1].parse().unwrap()
}

#[test]
fn the_engines_go_follows_the_byoyomi_clock() {
    let log = temp_file("go-log");
    let s = server_with(&[&format!("log={}", log.display())]);
    let p = s.port();
    start_game(
        p,
        json!({"mode": "hve", "human": "cho", "level": "hard",
               "timeControl": {"kind": "byoyomi", "mainSec": 600, "periodSec": 30, "periods": 3}}),
        "MSSM",
        "MSSM",
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(mv(p, "a4", "a5").status, 200);
    wait_for(p, 15, "the engine's move", |s| s["ply"] == 2);
    let g = gos(&log);
    assert_eq!(g.len(), 1, "{g:?}");
    assert!(g[0].starts_with("go wtime "), "{}", g[0]);
    // Cho (the human) used some of its 10 minutes; Han's are whole.
    let (w, b) = (field(&g[0], "wtime"), field(&g[0], "btime"));
    assert!((590_000..600_000).contains(&w), "{}", g[0]);
    assert!((599_000..=600_000).contains(&b), "{}", g[0]);
    assert_eq!(field(&g[0], "byoyomi"), 30_000);
    assert_eq!(field(&g[0], "periods"), 3);
    // The server charged the engine for its move.
    let st = state(p);
    assert!(st["clock"]["han"]["mainMs"].as_u64().unwrap() <= b);

    // Without a clock: the level's (or the given) move time.
    let _ = std::fs::remove_file(&log);
    start_game(p, hve_cho(), "MSSM", "MSSM");
    assert_eq!(mv(p, "a4", "a5").status, 200);
    wait_for(p, 15, "the engine's move", |s| s["ply"] == 2);
    assert_eq!(gos(&log), vec!["go movetime 20".to_string()]);
    let _ = std::fs::remove_file(&log);
}

#[test]
fn the_engine_loses_on_time_and_the_level_caps_its_thinking() {
    // A slow engine (thinks 30 s unless stopped) at the hard level (no
    // cap) with one 1-second period: the server ends the game on time.
    let s = server_with(&["slow=30000"]);
    let p = s.port();
    start_game(
        p,
        json!({"mode": "hve", "human": "cho", "level": "hard",
               "timeControl": {"kind": "byoyomi", "mainSec": 0, "periodSec": 1, "periods": 1}}),
        "MSSM",
        "MSSM",
    );
    assert_eq!(mv(p, "a4", "a5").status, 200);
    let st = wait_for(p, 10, "the engine's time loss", |s| {
        s["phase"] == "finished"
    });
    assert_eq!(st["result"]["reason"], "timeLoss");
    assert_eq!(st["result"]["winner"], "cho");
    assert_eq!(st["ply"], 1);
    // The easy level caps a move at 1 s even with minutes on the clock:
    // the board stops the search and the engine's move comes.
    start_game(
        p,
        json!({"mode": "hve", "human": "cho", "level": "easy",
               "timeControl": {"kind": "byoyomi", "mainSec": 600, "periodSec": 30, "periods": 3}}),
        "MSSM",
        "MSSM",
    );
    assert_eq!(mv(p, "a4", "a5").status, 200);
    let t = std::time::Instant::now();
    wait_for(p, 10, "the capped move", |s| s["ply"] == 2);
    let took = t.elapsed();
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(4),
        "{took:?}"
    );
    assert_eq!(state(p)["phase"], "playing");
}

#[test]
fn a_closed_tab_stops_the_engine_and_the_clock_until_a_page_is_back() {
    let s = server_with(&["slow=150"]);
    let p = s.port();
    let page = open_events(p);
    start_game(
        p,
        json!({"mode": "eve", "timeControl": {"kind": "byoyomi", "mainSec": 600, "periodSec": 30, "periods": 3}}),
        "MSSM",
        "SMMS",
    );
    wait_for(p, 20, "two plies", |s| s["ply"].as_u64().unwrap_or(0) >= 2);
    assert_eq!(state(p)["away"], false);
    // The tab closes: noticed at the next ping (100 ms in tests).
    drop(page);
    let st = wait_for(p, 5, "the server to notice and stop the engine", |s| {
        s["away"] == true && s["engine"]["thinking"] == false
    });
    let ply = st["ply"].clone();
    let clock = st["clock"].clone();
    std::thread::sleep(Duration::from_millis(800));
    let st = state(p);
    assert_eq!(st["ply"], ply, "no engine moves while no page watches");
    assert_eq!(st["clock"]["running"], clock["running"]);
    assert_eq!(
        st["clock"]["deadlineInMs"],
        Value::Null,
        "the clock is stopped"
    );
    for side in ["cho", "han"] {
        assert_eq!(st["clock"][side], clock[side], "no time charged while away");
    }
    assert_eq!(st["phase"], "playing", "the game is kept");
    // A page comes back: the state is there and the game goes on.
    let _page = open_events(p);
    let before = ply.as_u64().unwrap();
    let st = wait_for(p, 10, "the engine to play on", |s| {
        s["ply"].as_u64().unwrap_or(0) > before
    });
    assert_eq!(st["away"], false);
    assert!(st["clock"]["deadlineInMs"].is_u64());
}

#[test]
fn the_analysis_marks_a_blunder_and_draws_its_graph() {
    // The fake reports +900 for the side to move after ply 3 only: Cho's
    // 3rd-ply move reads as a blunder.
    let log = temp_file("analysis-log");
    let s = server_with(&["swing=3", &format!("log={}", log.display())]);
    let p = s.port();
    start_game(p, json!({"mode": "hvh"}), "MSSM", "MSSM");
    for (f, t) in [("a4", "a5"), ("a7", "a6"), ("c4", "c5"), ("i7", "i6")] {
        assert_eq!(mv(p, f, t).status, 200);
    }
    let r = post(p, "/api/analyse", json!({}));
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let st = wait_for(p, 20, "the analysis", |s| s["review"]["moves"].is_array());
    let moves = st["review"]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    assert_eq!(moves[2]["mark"], "??", "{}", st["review"]);
    assert_eq!(moves[2]["markName"], "blunder");
    assert_eq!(moves[0]["mark"], Value::Null);
    assert!(st["review"]["svg"].as_str().unwrap().starts_with("<svg"));
    assert_eq!(st["review"]["cho"]["blunders"], 1);
    assert_eq!(st["review"]["running"], Value::Null);
    // Its engine (janggi-match's EngineProcess) was set up for Janggi and
    // searched each of the 5 positions once.
    let lines = std::fs::read_to_string(&log).unwrap();
    assert!(
        lines.contains("setoption name UCI_Variant value janggi"),
        "{lines}"
    );
    assert_eq!(gos(&log).len(), 5, "{lines}");
    assert!(gos(&log).iter().all(|g| g == "go movetime 20"));
    let _ = std::fs::remove_file(&log);
    // Nothing to analyse in a new game.
    start_game(p, json!({"mode": "hvh"}), "MSSM", "MSSM");
    assert_eq!(post(p, "/api/analyse", json!({})).status, 409);
    assert_eq!(state(p)["review"]["moves"], Value::Null);
}

fn server_with_grace(args: &[&str], grace: Duration) -> janggi_gui::Running {
    let tuning = janggi_gui::Tuning {
        away_grace: grace,
        ..quick()
    };
    janggi_gui::start_with(&config_with(args), tuning).expect("server starts")
}

#[test]
fn a_reload_within_the_grace_does_not_pause_the_game() {
    let log = temp_file("reload-log");
    let s = server_with_grace(
        &["slow=200", &format!("log={}", log.display())],
        Duration::from_secs(2),
    );
    let p = s.port();
    let page = open_events(p);
    start_game(p, json!({"mode": "eve"}), "MSSM", "SMMS");
    let st = wait_for(p, 20, "two plies", |s| s["ply"].as_u64().unwrap_or(0) >= 2);
    let before = st["ply"].as_u64().unwrap();
    // The page reloads: its stream closes, the new one opens 0.8 s later.
    drop(page);
    std::thread::sleep(Duration::from_millis(800));
    let st = state(p);
    assert_eq!(st["away"], false, "within the grace nothing pauses");
    assert!(
        st["ply"].as_u64().unwrap() > before,
        "the engine played on while the page reloaded"
    );
    let _page = open_events(p);
    // Past the first page's grace: still going.
    std::thread::sleep(Duration::from_millis(2500));
    let st = state(p);
    assert_eq!(st["away"], false);
    assert_eq!(st["engine"]["thinking"], true);
    let sent = std::fs::read_to_string(&log).unwrap();
    assert!(
        !sent.lines().any(|l| l == "stop"),
        "the engine was never stopped: {sent}"
    );
    let _ = std::fs::remove_file(&log);
}

#[test]
fn no_page_after_the_grace_pauses_the_game() {
    let s = server_with_grace(&["slow=150"], Duration::from_secs(2));
    let p = s.port();
    let page = open_events(p);
    start_game(
        p,
        json!({"mode": "eve", "timeControl": {"kind": "byoyomi", "mainSec": 600, "periodSec": 30, "periods": 3}}),
        "MSSM",
        "SMMS",
    );
    wait_for(p, 20, "two plies", |s| s["ply"].as_u64().unwrap_or(0) >= 2);
    let gone = std::time::Instant::now();
    drop(page);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(state(p)["away"], false, "not yet: the grace runs");
    let st = wait_for(p, 10, "the pause after the grace", |s| {
        s["away"] == true && s["engine"]["thinking"] == false
    });
    assert!(
        gone.elapsed() >= Duration::from_secs(2),
        "paused only after the grace ({:?})",
        gone.elapsed()
    );
    assert_eq!(
        st["clock"]["deadlineInMs"],
        Value::Null,
        "the clock is stopped"
    );
    let ply = st["ply"].clone();
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        state(p)["ply"],
        ply,
        "no engine moves while no page watches"
    );
}

#[test]
fn an_undo_while_the_engine_thinks_stops_it_and_drops_its_answer() {
    let log = temp_file("undo-log");
    // It would think 2.5 s of its 5 s.
    let s = server_with(&["slow=2500", &format!("log={}", log.display())]);
    let p = s.port();
    start_game(
        p,
        json!({"mode": "hve", "human": "cho", "movetimeMs": 5000, "skill": 5}),
        "MSSM",
        "MSSM",
    );
    assert_eq!(mv(p, "a4", "a5").status, 200);
    wait_for(p, 10, "the engine to think", |s| {
        s["engine"]["state"] == "thinking"
    });
    // Taken back while it thinks: `stop`, and its answer (for the old
    // position) must not be played in the new one.
    let r = post(p, "/api/undo", json!({}));
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    wait_for(p, 10, "the stop to be sent", |_| {
        std::fs::read_to_string(&log).is_ok_and(|l| l.lines().any(|l| l == "stop"))
    });
    std::thread::sleep(Duration::from_millis(300));
    let st = state(p);
    assert_eq!(
        st["ply"], 0,
        "the stale answer was dropped: {}",
        st["moves"]
    );
    assert_eq!(mv(p, "c4", "c5").status, 200);
    let st = wait_for(p, 15, "the engine's answer to the new move", |s| {
        s["ply"] == 2
    });
    assert_eq!(st["moves"][0]["uci"], "c4c5");
    assert_eq!(st["engine"]["state"], "idle", "{}", st["engine"]);
    let _ = std::fs::remove_file(&log);
}
