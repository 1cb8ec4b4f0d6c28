//! The engine panel's server side (issue 35): the principal variation in
//! Korean notation, the report dropped on an undo, an engine that dies
//! while idle noticed at once (not at the next move), and the restart
//! button for an engine that is down, with one message for it.

mod common;

use common::*;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Reads a JSON field path such as `engine.state` from the state.
fn field<'a>(v: &'a Value, path: &str) -> &'a Value {
    path.split('.').fold(v, |v, k| &v[k])
}

/// An engine that cannot start: the status line and the message say
/// the same, and the restart button (`POST /api/engine/restart`) clears
/// it and tries again.
#[test]
fn the_restart_button_tries_a_down_engine_again() {
    let mut c = config_with(&[]);
    c.engine = janggi_gui::EngineCommand {
        program: PathBuf::from("/nonexistent/janggi-engine"),
        args: vec![],
    };
    let s = janggi_gui::start_with(&c, quick()).expect("server starts");
    let p = s.port();
    // Han is the engine, and moves first after the setups... Cho is
    // first: the human plays Han so the engine is to move at once.
    post(p, "/api/new", json!({"mode": "hve", "human": "han"}));
    post(p, "/api/setup", json!({"side": "han", "setup": "MSSM"}));
    post(p, "/api/setup", json!({"side": "cho", "setup": "MSSM"}));
    let until = Instant::now() + Duration::from_secs(10);
    let st = loop {
        let st = state(p);
        if field(&st, "engine.state") == "down" {
            break st;
        }
        assert!(Instant::now() < until, "{st}");
        std::thread::sleep(Duration::from_millis(50));
    };
    let msg = field(&st, "engine.message").as_str().unwrap().to_string();
    assert!(msg.starts_with("엔진을 쓸 수 없어요"), "{msg}");
    assert_eq!(field(&st, "engine.lastCrash"), &json!(msg), "one message");
    let r = post(p, "/api/engine/restart", json!({}));
    assert_eq!(r.status, 200);
    let after = &r.json()["state"];
    assert_eq!(field(after, "engine.lastCrash"), &Value::Null);
    assert_ne!(field(after, "engine.message"), &json!(msg));
    // It is tried again (and, still missing, is down again).
    let until = Instant::now() + Duration::from_secs(10);
    while field(&state(p), "engine.state") != "down" {
        assert!(Instant::now() < until);
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The engine's line in Korean notation, gone after an undo; an engine
/// that exits after its move is noticed while the human thinks, and is
/// started again for its next move.
#[test]
fn korean_pv_reset_on_undo_and_an_idle_engine_noticed_at_once() {
    let s = server_with(&["exit-after-move"]);
    let p = s.port();
    start_game(p, json!({"mode": "hve", "human": "cho"}), "MSSM", "MSSM");
    assert_eq!(mv(p, "a4", "a5").status, 200);
    let st = wait_for(p, 10, "the engine's move", |st| st["ply"] == 2);
    let analysis = &st["analysis"];
    let korean = analysis["pvKorean"][0].as_str().unwrap_or_default();
    assert_eq!(korean, st["moves"][1]["korean"], "{analysis}");
    assert!(
        korean.chars().any(|c| ('가'..='힣').contains(&c)),
        "{korean}"
    );
    // The engine exits while the human thinks: the page hears of it now.
    let st = wait_for(p, 10, "the idle engine's death", |st| {
        field(st, "engine.crashes") == 1
    });
    let note = field(&st, "engine.lastCrash").as_str().unwrap();
    assert!(note.starts_with("엔진이 쉬는 동안 멈췄어요"), "{note}");
    assert_eq!(st["ply"], 2, "noticed before the next move");
    // The undo drops the report of the position that is gone.
    let r = post(p, "/api/undo", json!({}));
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["state"]["analysis"], Value::Null);
    // The next move: the engine is started again and answers.
    assert_eq!(mv(p, "c4", "c5").status, 200);
    wait_for(p, 10, "the restarted engine's move", |st| st["ply"] == 2);
}
