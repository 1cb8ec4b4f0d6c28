//! The board server's game API over real HTTP, in-process on an
//! ephemeral port (human vs human: no engine involved).

mod common;

use common::*;
use serde_json::{json, Value};

fn hvh() -> serde_json::Value {
    json!({"mode": "hvh"})
}

#[test]
fn serves_the_embedded_page() {
    let s = server();
    let p = s.port();
    let r = get(p, "/");
    assert_eq!(r.status, 200);
    let html = String::from_utf8_lossy(&r.body);
    assert!(html.contains("<svg id=\"board\""));
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no CDN"
    );
    assert_eq!(get(p, "/app.js").status, 200);
    assert_eq!(get(p, "/style.css").status, 200);
    assert_eq!(get(p, "/nope").status, 404);
    assert_eq!(post_text(p, "/api/state", "{}").status, 400);
    assert_eq!(
        raw(
            p,
            &format!("DELETE / HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\nConnection: close\r\n\r\n")
        )
        .status,
        405
    );
}

/// Nothing is read from the file system: a path that climbs out of the
/// page, plainly or encoded, names no page.
#[test]
fn paths_outside_the_page_are_not_found() {
    let s = server();
    let p = s.port();
    for path in [
        "/../Cargo.toml",
        "/fonts/../../src/lib.rs",
        "/%2e%2e/Cargo.toml",
        "/fonts/..%2f..%2fsrc%2flib.rs",
        "//etc/passwd",
        "/app.js/..",
    ] {
        let r = get(p, path);
        assert_eq!(r.status, 404, "{path}");
        assert_eq!(r.json()["error"]["code"], "notFound", "{path}");
    }
}

#[test]
fn foreign_host_or_origin_is_refused() {
    let s = server();
    let p = s.port();
    let evil_host = raw(
        p,
        "GET /api/state HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(evil_host.status, 403);
    let evil_origin = raw(
        p,
        &format!("POST /api/new HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\nOrigin: http://evil.example\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"),
    );
    assert_eq!(evil_origin.status, 403);
    let own = raw(
        p,
        &format!("GET /api/state HTTP/1.1\r\nHost: localhost:{p}\r\nOrigin: http://localhost:{p}\r\nConnection: close\r\n\r\n"),
    );
    assert_eq!(own.status, 200);
    let no_host = raw(p, "GET /api/state HTTP/1.0\r\n\r\n");
    assert_eq!(no_host.status, 403);
}

#[test]
fn bad_requests_get_clear_errors() {
    let s = server();
    let p = s.port();
    for (path, body) in [
        ("/api/new", "{bad"),
        ("/api/new", "[1,2]"),
        ("/api/new", "\"x\""),
        ("/api/new", r#"{"mode": "chess"}"#),
        ("/api/new", r#"{"rules": {"bikjang": "sometimes"}}"#),
        ("/api/new", r#"{"rules": {"moveLimit": 123}}"#),
        ("/api/new", r#"{"rules": {"colour": 1}}"#),
        ("/api/new", r#"{"skill": 99}"#),
        ("/api/new", r#"{"undo": 7}"#),
        ("/api/setup", r#"{"side": "han", "setup": "XXXX"}"#),
        ("/api/setup", r#"{"side": "blue", "setup": "MSSM"}"#),
        ("/api/nothing", "{}"),
    ] {
        let r = post_text(p, path, body);
        assert_eq!(
            r.status,
            400,
            "{path} {body}: {}",
            String::from_utf8_lossy(&r.body)
        );
        let v = r.json();
        assert!(
            v["error"]["en"].as_str().is_some_and(|m| !m.is_empty()),
            "{v}"
        );
    }
    let big = format!("{{\"x\": \"{}\"}}", "a".repeat(70_000));
    assert_eq!(post_text(p, "/api/new", &big).status, 400);
    start_game(p, hvh(), "MSSM", "MSSM");
    for body in [
        json!({"from": "z9", "to": "a1"}),
        json!({"from": "a1"}),
        json!({"from": 5, "to": "a2"}),
        json!({"from": "a1", "to": "a1"}),
        json!({"from": "a0", "to": "a11"}),
    ] {
        let r = post(p, "/api/move", body.clone());
        assert_eq!(r.status, 400, "{body}");
    }
    // The pass needs its confirmation.
    assert_eq!(post(p, "/api/pass", json!({})).status, 400);
    assert_eq!(state(p)["ply"], 0);
}

#[test]
fn setup_order_is_han_first_with_the_named_cards() {
    let s = server();
    let p = s.port();
    assert_eq!(post(p, "/api/new", hvh()).status, 200);
    // Cho cannot choose before Han (hanFirst).
    let r = post(p, "/api/setup", json!({"side": "cho", "setup": "MSSM"}));
    assert_eq!(r.status, 409);
    // Moves are refused in the setup phase.
    assert_eq!(mv(p, "a4", "a5").status, 409);
    let r = post(p, "/api/setup", json!({"side": "han", "setup": "왼상차림"}));
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["state"]["setup"]["han"], "SMSM");
    assert_eq!(r.json()["state"]["setup"]["next"], "cho");
    assert_eq!(
        post(p, "/api/setup", json!({"side": "han", "setup": "MSSM"})).status,
        409
    );
    let r = post(p, "/api/setup", json!({"side": "cho", "setup": "왼상차림"}));
    assert_eq!(r.status, 200);
    let st = r.json()["state"].clone();
    assert_eq!(st["phase"], "playing");
    // The spec's check (§10): SMSM for Cho → (1,0) 상, (2,0) 마, (6,0) 상,
    // (7,0) 마; for Han → (7,9) 상, (6,9) 마, (2,9) 상, (1,9) 마.
    let e = |sq: &str| piece_at(&st, sq).map(|(_, k)| k).unwrap_or_default();
    assert_eq!(
        [e("b1"), e("c1"), e("g1"), e("h1")],
        ["elephant", "horse", "elephant", "horse"]
    );
    assert_eq!(
        [e("h10"), e("g10"), e("c10"), e("b10")],
        ["elephant", "horse", "elephant", "horse"]
    );
    // The other names.
    for (name, code, order) in [
        (
            "안상차림",
            "MSSM",
            ["horse", "elephant", "elephant", "horse"],
        ),
        ("원앙마", "MSSM", ["horse", "elephant", "elephant", "horse"]),
        (
            "바깥상차림",
            "SMMS",
            ["elephant", "horse", "horse", "elephant"],
        ),
        ("양귀마", "SMMS", ["elephant", "horse", "horse", "elephant"]),
        (
            "오른상차림",
            "MSMS",
            ["horse", "elephant", "horse", "elephant"],
        ),
    ] {
        let st = start_game(p, hvh(), name, name);
        assert_eq!(st["setup"]["han"], code);
        assert_eq!(st["setup"]["cho"], code);
        let e = |sq: &str| piece_at(&st, sq).map(|(_, k)| k).unwrap_or_default();
        assert_eq!(
            [e("b1"), e("c1"), e("g1"), e("h1")],
            order,
            "{name} for Cho"
        );
        assert_eq!(
            [e("h10"), e("g10"), e("c10"), e("b10")],
            order,
            "{name} for Han"
        );
        assert_eq!(st["score"]["text"], "초 72 : 한 73.5");
    }
}

#[test]
fn destinations_captures_and_cannon_screens() {
    let s = server();
    let p = s.port();
    start_game(p, hvh(), "MSSM", "MSSM");
    let r = post(p, "/api/moves", json!({"from": "b1"})).json();
    let mut to: Vec<&str> = r["destinations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["to"].as_str().unwrap())
        .collect();
    to.sort_unstable();
    assert_eq!(to, ["a3", "c3"], "d2 is blocked by the elephant on c1");
    // Nothing to jump yet: the cannon has no move.
    let r = post(p, "/api/moves", json!({"from": "b3"})).json();
    assert_eq!(r["destinations"].as_array().unwrap().len(), 0);
    assert_eq!(mv(p, "b1", "c3").status, 200);
    assert_eq!(mv(p, "a7", "a6").status, 200);
    let r = post(p, "/api/moves", json!({"from": "b3"})).json();
    let d = r["destinations"].as_array().unwrap();
    let d3 = d
        .iter()
        .find(|x| x["to"] == "d3")
        .expect("b3 → d3 over the horse");
    assert_eq!(d3["screen"], "c3");
    assert_eq!(d3["capture"], false);
    assert!(
        d.iter().all(|x| x["to"] != "h3"),
        "a cannon cannot capture a cannon"
    );
    // A chariot capture is marked as one.
    assert_eq!(mv(p, "a4", "a5").status, 200);
    assert_eq!(mv(p, "a6", "a5").status, 200); // Han's soldier takes
    let st = state(p);
    assert_eq!(st["firstCapturePly"], 4);
    let r = post(p, "/api/moves", json!({"from": "a1"})).json();
    let d = r["destinations"].as_array().unwrap();
    let a5 = d.iter().find(|x| x["to"] == "a5").expect("a1 takes on a5");
    assert_eq!(a5["capture"], true);
    // The score bar counts the soldier.
    assert_eq!(st["score"]["text"], "초 70 : 한 73.5");
}

#[test]
fn illegal_tries_are_answered_with_their_reasons() {
    let s = server();
    let p = s.port();
    start_game(p, hvh(), "MSSM", "MSSM");
    let refused = |from: &str, to: &str| {
        let r = mv(p, from, to);
        assert_eq!(r.status, 422, "{from}{to}");
        r.json()["error"].clone()
    };
    let e = refused("b3", "b9");
    assert_eq!(e["code"], "cannonOverCannon");
    assert_eq!(e["ko"], "포는 포를 넘을 수 없어요");
    assert_eq!(e["en"], "A cannon cannot jump over a cannon.");
    let e = refused("b1", "d2");
    assert_eq!(e["ko"], "마의 길(멱)이 막혀 있어요");
    let e = refused("a7", "a6");
    assert_eq!(e["code"], "noOwnPiece");
    let e = refused("e2", "c2");
    assert_eq!(e["code"], "leavesPalace", "{e}");
    let e = refused("d1", "d3");
    assert_eq!(e["code"], "wrongShape", "{e}");
    // The general leaves the palace: step to e3 first (legal), then e4 is
    // a soldier of its own; make room with the soldier.
    assert_eq!(mv(p, "e4", "f4").status, 200);
    assert_eq!(mv(p, "a7", "a6").status, 200);
    assert_eq!(mv(p, "e2", "e3").status, 200);
    assert_eq!(mv(p, "a6", "a5").status, 200);
    let e = refused("e3", "e4");
    assert_eq!(e["ko"], "궁은 궁성 밖으로 나갈 수 없어요");
    // Nothing changed by the refusals.
    assert_eq!(state(p)["ply"], 4);
}

#[test]
fn check_must_be_answered_and_no_pass_in_check() {
    let s = server();
    let p = s.port();
    start_game(p, hvh(), "MSSM", "MSSM");
    // Open the e-file: Cho's central soldier steps aside, Han's chariot
    // comes round to the e-file and gives check.
    for (f, t) in [
        ("e4", "f4"),
        ("a7", "b7"),
        ("i4", "i5"),
        ("a10", "a5"),
        ("i5", "i6"),
        ("a5", "e5"),
    ] {
        let r = mv(p, f, t);
        assert_eq!(
            r.status,
            200,
            "{f}{t}: {}",
            String::from_utf8_lossy(&r.body)
        );
    }
    let st = state(p);
    let last = st["moves"].as_array().unwrap().last().unwrap().clone();
    assert!(
        last["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e == "check"),
        "{last}"
    );
    assert_eq!(st["inCheck"], true);
    assert!(last["korean"].as_str().unwrap().ends_with("장군"), "{last}");
    let r = post(p, "/api/pass", json!({"confirm": true}));
    assert_eq!(r.status, 422);
    assert_eq!(
        r.json()["error"]["ko"],
        "장군을 받은 상태에서는 쉴 수 없어요"
    );
    let r = mv(p, "i6", "h6");
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["error"]["ko"], "장군을 피해야 해요");
    // Block with the guard: 멍군.
    let r = mv(p, "f1", "e1");
    assert_eq!(r.status, 422, "e1 does not block e3");
    let r = mv(p, "e2", "d2");
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let ev = r.json()["events"].clone();
    assert!(
        ev.as_array().unwrap().iter().any(|e| e == "checkAnswered"),
        "{ev}"
    );
}

#[test]
fn repetition_warning_refusal_and_undo_restores_the_counts() {
    let s = server();
    let p = s.port();
    start_game(p, hvh(), "MSSM", "MSSM");
    let cycle = [("b1", "c3"), ("b10", "c8"), ("c3", "b1"), ("c8", "b10")];
    for (f, t) in cycle.iter().chain(cycle.iter()) {
        assert_eq!(mv(p, f, t).status, 200);
    }
    let st = state(p);
    assert_eq!(st["repetitionCount"], 3);
    assert_eq!(st["repetitionWarning"], true);
    let last = st["moves"].as_array().unwrap().last().unwrap().clone();
    assert!(last["events"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e == "repetitionWarning"));
    // Undo (asked, then allowed by the other player) restores the
    // count and the warning.
    let r = post(p, "/api/undo", json!({}));
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["asked"], "undo");
    assert_eq!(r.json()["state"]["pending"]["ask"], "undo");
    assert_eq!(r.json()["state"]["ply"], 8, "nothing undone yet");
    let r = post(p, "/api/answer", json!({"accept": true}));
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["accepted"], true);
    let st = state(p);
    assert_eq!(st["pending"], serde_json::Value::Null);
    assert_eq!(st["ply"], 7);
    assert_eq!(st["repetitionWarning"], false);
    assert_eq!(mv(p, "c8", "b10").status, 200);
    assert_eq!(state(p)["repetitionCount"], 3);
    for (f, t) in &cycle[..3] {
        assert_eq!(mv(p, f, t).status, 200);
    }
    let r = mv(p, "c8", "b10");
    assert_eq!(r.status, 422);
    assert_eq!(
        r.json()["error"]["ko"],
        "같은 수를 너무 많이 반복해서 둘 수 없어요"
    );
    assert_eq!(r.json()["error"]["code"], "repetition");
}

#[test]
fn undo_restores_the_first_capture_and_has_a_count() {
    let s = server();
    let p = s.port();
    start_game(p, json!({"mode": "hvh", "undo": 1}), "MSSM", "MSSM");
    assert_eq!(mv(p, "a4", "a5").status, 200);
    assert_eq!(mv(p, "a7", "a6").status, 200);
    assert_eq!(mv(p, "a5", "a6").status, 200);
    let st = state(p);
    assert_eq!(st["firstCapturePly"], 3);
    assert_eq!(st["score"]["han"], 71.5);
    assert_eq!(post(p, "/api/undo", json!({})).status, 200);
    let r = post(p, "/api/answer", json!({"accept": true}));
    assert_eq!(r.status, 200);
    let st = r.json()["state"].clone();
    assert_eq!(st["firstCapturePly"], serde_json::Value::Null);
    assert_eq!(st["score"]["han"], 73.5);
    assert_eq!(st["ply"], 2);
    assert_eq!(st["moves"].as_array().unwrap().len(), 2);
    assert_eq!(st["undoLeft"], 0);
    assert_eq!(post(p, "/api/undo", json!({})).status, 409);
}

#[test]
fn results_by_resignation_and_by_counting_after_two_passes() {
    let s = server();
    let p = s.port();
    start_game(p, hvh(), "MSSM", "MSSM");
    assert_eq!(mv(p, "a4", "a5").status, 200);
    assert_eq!(post(p, "/api/resign", json!({})).status, 200);
    let st = state(p);
    assert_eq!(st["phase"], "finished");
    assert_eq!(st["result"]["winner"], "cho");
    assert_eq!(st["result"]["summaryKo"], "초 기권승 (1수)");
    let r = mv(p, "a7", "a6");
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["error"]["code"], "gameOver");

    start_game(p, hvh(), "MSSM", "MSSM");
    assert_eq!(post(p, "/api/pass", json!({"confirm": true})).status, 200);
    assert_eq!(state(p)["moves"][0]["korean"], "한수쉼");
    let r = post(p, "/api/pass", json!({"confirm": true}));
    assert_eq!(r.status, 200);
    let st = r.json()["state"].clone();
    assert_eq!(
        st["result"]["summaryKo"], "한 판정승 73.5 : 72 (연속 한수쉼)",
        "{}",
        st["result"]
    );
    assert_eq!(st["result"]["reason"], "scorePasses");

    // Passing is refused when the rules turn it off.
    start_game(
        p,
        json!({"mode": "hvh", "rules": {"allowPass": false}}),
        "MSSM",
        "MSSM",
    );
    let r = post(p, "/api/pass", json!({"confirm": true}));
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["error"]["code"], "passNotAllowed");

    // A draw offer between humans waits for the other player: declined,
    // the game goes on; accepted, it is drawn. An answer with nothing
    // asked is refused, and `accept` must be a boolean.
    start_game(p, hvh(), "MSSM", "MSSM");
    let r = post(p, "/api/draw", json!({}));
    assert_eq!(r.json()["accepted"], false);
    assert_eq!(r.json()["reason"], "offered");
    assert_eq!(state(p)["phase"], "playing");
    assert_eq!(state(p)["pending"]["ask"], "draw");
    assert_eq!(post(p, "/api/answer", json!({"accept": "yes"})).status, 400);
    let r = post(p, "/api/answer", json!({"accept": false}));
    assert_eq!(r.json()["accepted"], false);
    assert_eq!(state(p)["phase"], "playing");
    assert_eq!(post(p, "/api/answer", json!({"accept": true})).status, 409);
    post(p, "/api/draw", json!({}));
    let r = post(p, "/api/answer", json!({"accept": true}));
    assert_eq!(r.json()["accepted"], true);
    assert_eq!(state(p)["result"]["reason"], "drawAgreed");
}

#[test]
fn rule_options_reach_the_referee() {
    let s = server();
    let p = s.port();
    let st = start_game(
        p,
        json!({"mode": "hvh", "rules": {"scoring": false, "bikjang": "kja30", "repetition": "lose", "allowPass": true, "moveLimit": 150}}),
        "MSSM",
        "MSSM",
    );
    let rules = st["settings"]["rules"].as_str().unwrap();
    assert!(rules.contains("bikjang=kja30"), "{rules}");
    assert!(rules.contains("scoring=false"), "{rules}");
    assert!(rules.contains("moveLimit=150"), "{rules}");
    let st = start_game(
        p,
        json!({"mode": "hvh", "variant": "janggi"}),
        "MSSM",
        "MSSM",
    );
    assert_eq!(st["settings"]["variant"], "janggi");
    // Without scoring two passes are a draw.
    start_game(
        p,
        json!({"mode": "hvh", "rules": {"scoring": false}}),
        "MSSM",
        "MSSM",
    );
    post(p, "/api/pass", json!({"confirm": true}));
    let st = post(p, "/api/pass", json!({"confirm": true})).json()["state"].clone();
    assert_eq!(st["result"]["winner"], serde_json::Value::Null);
    assert_eq!(st["result"]["summaryKo"], "무승부 (연속 한수쉼)");
}

#[test]
fn on_all_interfaces_ip_hosts_are_accepted_but_names_are_not() {
    let config = janggi_gui::Config {
        host: "0.0.0.0".into(),
        port: 0,
        engine: fake_engine_command(&[]),
        grace: std::time::Duration::from_millis(300),
    };
    let s = janggi_gui::start(&config).unwrap();
    let p = s.port();
    // Only headers name these addresses; the connection is to 127.0.0.1.
    let ip = raw(
        p,
        &format!("GET /api/state HTTP/1.1\r\nHost: 192.0.2.7:{p}\r\nConnection: close\r\n\r\n"),
    );
    assert_eq!(ip.status, 200);
    let wrong_port = raw(
        p,
        "GET /api/state HTTP/1.1\r\nHost: 192.0.2.7:1\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(wrong_port.status, 403);
    let name = raw(
        p,
        &format!(
            "GET /api/state HTTP/1.1\r\nHost: rebind.example:{p}\r\nConnection: close\r\n\r\n"
        ),
    );
    assert_eq!(name.status, 403);
}

#[test]
fn byoyomi_runs_out_into_a_time_loss() {
    let s = server();
    let p = s.port();
    let st = start_game(
        p,
        json!({"mode": "hvh", "timeControl": {"kind": "byoyomi", "mainSec": 0, "periodSec": 1, "periods": 1}}),
        "MSSM",
        "MSSM",
    );
    assert_eq!(st["clock"]["cho"]["periodsLeft"], 1);
    assert_eq!(st["clock"]["running"], "cho");
    // A move within the period keeps it.
    assert_eq!(mv(p, "a4", "a5").status, 200);
    let st = state(p);
    assert_eq!(st["clock"]["cho"]["periodsLeft"], 1);
    assert_eq!(st["clock"]["running"], "han");
    // Han lets it run out.
    let st = wait_for(p, 5, "the time loss", |s| s["phase"] == "finished");
    assert_eq!(st["result"]["reason"], "timeLoss");
    assert_eq!(st["result"]["winner"], "cho");
    assert_eq!(st["result"]["summaryKo"], "초 시간승 (1수)");
    for bad in [
        json!({"timeControl": {"kind": "byoyomi", "mainSec": 600, "periodSec": 0, "periods": 3}}),
        json!({"timeControl": {"kind": "fischer"}}),
        json!({"timeControl": {"kind": "byoyomi", "mainSec": -1, "periodSec": 30, "periods": 3}}),
    ] {
        assert_eq!(post(p, "/api/new", bad.clone()).status, 400, "{bad}");
    }
}

#[test]
fn hints_follow_the_option() {
    let s = server();
    let p = s.port();
    // movesAndThreats: the side to move's pieces that can be taken next move.
    start_game(
        p,
        json!({"mode": "hvh", "hints": "movesAndThreats"}),
        "MSSM",
        "MSSM",
    );
    assert_eq!(mv(p, "a4", "a5").status, 200);
    assert_eq!(mv(p, "a7", "a6").status, 200);
    let st = state(p);
    let threatened: Vec<&str> = st["threatened"]
        .as_array()
        .expect("threatened is a list")
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(threatened, ["a5"], "Han's soldier on a6 can take a5");
    // moves: destinations but no threats.
    start_game(p, json!({"mode": "hvh", "hints": "moves"}), "MSSM", "MSSM");
    assert_eq!(mv(p, "a4", "a5").status, 200);
    assert_eq!(mv(p, "a7", "a6").status, 200);
    let st = state(p);
    assert!(st["threatened"].as_array().is_none_or(|a| a.is_empty()));
    let r = post(p, "/api/moves", json!({"from": "b1"})).json();
    assert_eq!(r["destinations"].as_array().unwrap().len(), 2);
    // off: no destinations shown either (the move itself is still legal).
    start_game(p, json!({"mode": "hvh", "hints": "off"}), "MSSM", "MSSM");
    let r = post(p, "/api/moves", json!({"from": "b1"})).json();
    assert_eq!(r["destinations"].as_array().unwrap().len(), 0);
    assert_eq!(mv(p, "b1", "c3").status, 200);
}

#[test]
fn draw_offers_are_answered_by_the_engines_rule() {
    let s = server();
    let p = s.port();
    // Against the engine (Han) at the start: Han's 1.5 deom makes the
    // count favour it, so it declines (it would rather count).
    start_game(
        p,
        json!({"mode": "hve", "human": "cho", "movetimeMs": 20}),
        "MSSM",
        "MSSM",
    );
    let v = post(p, "/api/draw", json!({})).json();
    assert_eq!(
        (v["accepted"].clone(), v["reason"].clone()),
        (json!(false), json!("countFavours"))
    );
    // The engine as Cho, early in the game: its search still sees play.
    start_game(
        p,
        json!({"mode": "hve", "human": "han", "movetimeMs": 20}),
        "MSSM",
        "MSSM",
    );
    let r = post(p, "/api/draw", json!({}));
    assert_eq!(r.status, 200);
    let v = r.json();
    assert_eq!(v["accepted"], false);
    assert_eq!(v["reason"], "notDead");
    assert!(v["ko"].as_str().unwrap().contains("거절"));
    assert_eq!(v["state"]["drawAnswer"]["reason"], "notDead");
    assert_eq!(v["state"]["phase"], "playing");
    // Off by the settings: refused.
    start_game(
        p,
        json!({"mode": "hvh", "drawOffer": false}),
        "MSSM",
        "MSSM",
    );
    assert_eq!(post(p, "/api/draw", json!({})).status, 409);
}

#[test]
fn stepping_back_gives_earlier_positions_without_undoing() {
    let s = server();
    let p = s.port();
    let start = start_game(p, hvh(), "MSSM", "MSSM");
    assert_eq!(mv(p, "a4", "a5").status, 200);
    assert_eq!(mv(p, "a7", "a6").status, 200);
    let at = |ply: u64| post(p, "/api/position", json!({"ply": ply}));
    let zero = at(0).json();
    assert_eq!(zero["ply"], 0);
    assert_eq!(zero["plies"], 2);
    assert_eq!(zero["board"], start["board"], "the start position");
    assert_eq!(zero["lastMove"], Value::Null);
    let one = at(1).json();
    assert_eq!(one["lastMove"], json!({"from": "a4", "to": "a5"}));
    assert_eq!(one["move"]["uci"], "a4a5");
    assert_eq!(one["sideToMove"], "han");
    assert!(piece_at(&one, "a5").is_some() && piece_at(&one, "a7").is_some());
    let two = at(2).json();
    assert_eq!(
        two["board"],
        state(p)["board"],
        "the last ply is the live position"
    );
    // Read-only: the game is where it was.
    let st = state(p);
    assert_eq!(st["ply"], 2);
    assert_eq!(st["sideToMove"], "cho");
    // Past the record, or not a number: a clear 400.
    assert_eq!(at(3).status, 400);
    assert_eq!(post(p, "/api/position", json!({"ply": "x"})).status, 400);
    assert_eq!(post(p, "/api/position", json!({"ply": -1})).status, 400);
}

const PGN: &str = r#"[Event "Test"]
[White "Kim"]
[Black "Lee"]
[Variant "Janggi"]
[Result "*"]

1. a4a5 a7a6 2. c4c5 i7i6 *
"#;

#[test]
fn records_load_open_step_and_save() {
    let s = server();
    let p = s.port();
    start_game(p, hvh(), "MSSM", "MSSM");
    assert_eq!(mv(p, "e4", "e5").status, 200);
    let before = state(p);

    // Broken input loses nothing: garbage, an empty file, an illegal move.
    let r = post_bytes(
        p,
        "/api/records/parse",
        &[0xff, 0x00, 0x13, 0x37, 0x80, 0x81],
    );
    assert_eq!(r.status, 422, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["error"]["code"], "noGame");
    assert_eq!(post_bytes(p, "/api/records/parse", b"  \n").status, 400);
    let illegal = PGN.replace("c4c5", "c4c9");
    let r = post_bytes(p, "/api/records/parse", illegal.as_bytes());
    assert_eq!(r.status, 422);
    let en = r.json()["error"]["en"].as_str().unwrap().to_string();
    assert!(en.contains("game 1") && en.contains("c4c9"), "{en}");
    assert_eq!(
        post(p, "/api/records/open", json!({"index": 0})).status,
        409,
        "nothing loaded yet"
    );
    let st = state(p);
    assert_eq!(st["ply"], before["ply"]);
    assert_eq!(st["moves"], before["moves"]);

    // A good file: its games are listed, one is opened.
    let two = format!("{PGN}\n{}", PGN.replace("Kim", "Park"));
    let r = post_bytes(p, "/api/records/parse", two.as_bytes());
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let games = r.json()["games"].clone();
    assert_eq!(games.as_array().unwrap().len(), 2);
    assert_eq!(games[1]["cho"], "Park");
    assert_eq!(games[0]["plies"], 4);
    assert_eq!(
        post(p, "/api/records/open", json!({"index": 2})).status,
        400
    );
    assert_eq!(post(p, "/api/records/open", json!({})).status, 400);
    let r = post(p, "/api/records/open", json!({"index": 0}));
    assert_eq!(r.status, 200);
    let st = r.json()["state"].clone();
    assert_eq!(st["ply"], 4);
    assert_eq!(st["moves"][3]["uci"], "i7i6");
    assert_eq!(st["moves"][0]["korean"], "71졸61");
    assert_eq!(st["source"]["cho"], "Kim");
    assert_eq!(st["settings"]["mode"], "hvh");
    // Stepping through it.
    let one = post(p, "/api/position", json!({"ply": 1})).json();
    assert_eq!(one["lastMove"], json!({"from": "a4", "to": "a5"}));

    // Saved as PGN and as GIB (CP949), both read back with the same moves.
    for format in ["pgn", "gib"] {
        let r = get(p, &format!("/api/records/save?format={format}"));
        assert_eq!(r.status, 200, "{format}");
        assert!(
            r.head
                .to_ascii_lowercase()
                .contains(&format!("attachment; filename=\"janggi.{format}\"")),
            "{}",
            r.head
        );
        let back = janggi_records::read_any(&r.body);
        let rec = back[0].as_ref().expect("reads back");
        let uci: Vec<String> = rec
            .moves()
            .iter()
            .map(|m| format!("{}{}", m.from().uci().as_str(), m.to().uci().as_str()))
            .collect();
        assert_eq!(uci, ["a4a5", "a7a6", "c4c5", "i7i6"], "{format}");
        assert_eq!(rec.cho_player(), Some("Kim"), "{format}");
    }
    assert_eq!(get(p, "/api/records/save?format=doc").status, 400);
}
