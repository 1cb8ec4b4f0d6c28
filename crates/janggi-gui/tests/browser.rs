//! The page in a real browser: headless Chromium driven over the DevTools
//! protocol (a small client over a WebSocket). It starts a game against
//! the fake engine by clicks (setup cards Han first), plays moves by
//! clicking points, gets an illegal try refused with its reason, passes
//! through the confirm step, resigns and reads the result modal, and
//! saves screenshots at desktop size and 360 px wide under target/.
//!
//! Skips (passes, printing why) when no Chromium is installed.

mod common;

use common::chromium::{chromium_or_skip, Browser};
use common::*;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[test]
fn a_game_in_headless_chromium() {
    let Some(exe) = chromium_or_skip("the browser test") else {
        return;
    };
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gui-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    // The engine: the fake (which makes the 3rd ply read as a blunder to
    // the analysis), or a real one named by JANGGI_GUI_ENGINE (e.g.
    // target/release/janggi-engine, run as `… uci`) for real screenshots.
    let real = std::env::var_os("JANGGI_GUI_ENGINE").map(PathBuf::from);
    let s = match &real {
        Some(exe) => {
            let mut c = config_with(&[]);
            c.engine = janggi_gui::EngineCommand {
                program: exe.clone(),
                args: vec!["uci".into()],
            };
            c.grace = Duration::from_secs(3);
            janggi_gui::start_with(&c, quick()).expect("server starts")
        }
        None => server_with(&["swing=3"]),
    };
    if let Some(exe) = &real {
        println!("engine: {}", exe.display());
    }
    let url = s.url();
    let mut b = Browser::launch(&exe);
    b.viewport(1200, 860, false);
    b.call("Page.navigate", json!({"url": url}), true);
    // The new-game dialog opens by itself: human (Cho) vs the engine.
    b.wait_until(
        "document.getElementById('new-form') !== null",
        "the new-game dialog",
    );
    b.eval("document.querySelector('#new-form [name=level]').value = 'easy'; document.querySelector('#new-form [name=time]').value = '600/30/3'; true");
    b.click("#btn-start");
    // Han's cards first, then Cho's.
    b.wait_until(
        "document.getElementById('setup-title')?.textContent.startsWith('한')",
        "Han's cards",
    );
    assert_eq!(
        b.eval("document.querySelectorAll('.card[data-setup]').length"),
        json!(5)
    );
    b.click(".card[data-setup=\"SMSM\"]");
    b.wait_until(
        "document.getElementById('setup-title')?.textContent.startsWith('초')",
        "Cho's cards",
    );
    b.click(".card[data-setup=\"MSSM\"]");
    b.wait_until("state && state.phase === 'playing' && document.getElementById('modal').classList.contains('hidden')", "the board");
    assert_eq!(
        b.eval("document.querySelectorAll('#board .piece').length"),
        json!(32)
    );
    assert_eq!(
        b.eval("document.getElementById('score-han').textContent"),
        json!("한 73.5")
    );
    // The page's own font is loaded (no system font needed).
    b.wait_until(
        "document.fonts.ready.then(() => [...document.fonts].some(f => f.family.replace(/\"/g, '') === 'JanggiBoard' && f.status === 'loaded'))",
        "the embedded font",
    );
    assert_eq!(
        b.eval("document.fonts.check('20px JanggiBoard', '車馬象士卒漢楚 장군 한수쉼')"),
        json!(true)
    );

    // A move by clicks: the horse shows its destinations, then goes.
    b.click_point("b1");
    b.wait_until(
        "document.querySelectorAll('#board .dot').length === 2",
        "two destination dots",
    );
    b.click_point("c3");
    b.wait_until("state.ply >= 2 && state.humanToMove", "the engine's reply");
    assert!(
        b.eval("document.querySelectorAll('#movelist li').length")
            .as_u64()
            .unwrap()
            >= 2
    );
    assert_eq!(b.eval("state.moves[0].uci"), json!("b1c3"));

    // An illegal try is refused with its reason: the h1 horse's leg (g1,
    // the elephant) is blocked towards f2.
    let ply = b.eval("state.ply");
    b.click_point("h1");
    b.wait_until(
        "document.querySelectorAll('#board .dot, #board .capture').length > 0",
        "the h1 horse's dots",
    );
    b.click_point("f2");
    b.wait_until(
        "document.getElementById('message').classList.contains('refused')",
        "a refusal",
    );
    let msg = b.eval("document.getElementById('message').textContent");
    assert!(
        msg.as_str().unwrap().contains("마의 길(멱)이 막혀 있어요"),
        "{msg}"
    );
    // The next selection clears the stale refusal.
    b.click_point("h1");
    b.wait_until(
        "document.getElementById('message').textContent === '' && !document.getElementById('message').classList.contains('refused')",
        "the refusal cleared by the next selection",
    );
    b.click_point("h1"); // deselect
                         // The cannon over a cannon, while Han's b8 cannon is still there.
    let cannons = "state.board.some(p => p.sq === 'b8' && p.kind === 'cannon') && state.board.some(p => p.sq === 'b3' && p.kind === 'cannon') && !state.board.some(p => p.sq === 'b9')";
    if b.eval(cannons) == json!(true) {
        // Both clicks with a redraw between press and release (a state
        // update under the finger): neither may be lost.
        b.click_point_across("b3", "drawBoard()");
        b.wait_until(
            "document.querySelector('#board .selected[data-sq=\"b3\"]') !== null",
            "b3 selected across a redraw",
        );
        b.click_point_across("b9", "drawBoard()");
        b.wait_until(
            "document.getElementById('message').textContent.includes('포는 포를 넘을 수 없어요')",
            "the cannon's reason",
        );
    }
    assert_eq!(b.eval("state.ply"), ply, "refusals change nothing");
    b.screenshot(&shots.join("desktop.png"));

    // A pass, through its confirm step.
    b.click("#btn-pass");
    b.wait_until(
        "document.getElementById('confirm-yes') !== null",
        "the confirm step",
    );
    b.click("#confirm-yes");
    b.wait_until(
        "state.moves.some(m => m.korean === '한수쉼')",
        "the pass in the record",
    );
    // The engine answers (a real one may pass back, ending the game by
    // the count while it is ahead by Han's deom).
    b.wait_until(
        "state.humanToMove || state.phase === 'finished'",
        "the engine's answer to the pass",
    );
    let passed_out = b.eval("state.phase === 'finished'") == json!(true);
    if passed_out {
        b.wait_until(
            "document.getElementById('btn-result-close') !== null",
            "the result modal",
        );
        b.click("#btn-result-close");
    }

    // Stepping back: |◀ shows the start (read-only), → the next ply, a
    // click in the move list that ply, ▶| the live position again.
    let live_ply = b.eval("state.ply");
    b.click("#nav-first");
    b.wait_until("viewed && viewed.ply === 0", "the start position");
    assert_eq!(
        b.eval("!!document.querySelector('#board .piece[data-sq=\"b1\"]') && !document.querySelector('#board .piece[data-sq=\"c3\"]')"),
        json!(true),
        "the b1 horse is home at ply 0"
    );
    assert_eq!(
        b.eval("document.getElementById('viewing').classList.contains('hidden')"),
        json!(false)
    );
    b.click_point("c1");
    b.wait_until(
        "document.getElementById('message').textContent.includes('지난 수')",
        "clicks are read-only while viewing",
    );
    for kind in ["keyDown", "keyUp"] {
        b.call(
            "Input.dispatchKeyEvent",
            json!({"type": kind, "key": "ArrowRight", "code": "ArrowRight", "windowsVirtualKeyCode": 39}),
            true,
        );
    }
    b.wait_until("viewed && viewed.ply === 1", "ply 1 by the arrow key");
    assert_eq!(
        b.eval("!!document.querySelector('#board .piece[data-sq=\"c3\"]')"),
        json!(true)
    );
    b.click("#movelist li[data-ply=\"2\"]");
    b.wait_until(
        "viewed && viewed.ply === 2 && document.querySelector('#movelist li.current')?.dataset.ply === '2'",
        "ply 2 from the move list",
    );
    b.screenshot(&shots.join("step-back.png"));
    b.click("#nav-last");
    b.wait_until(
        "viewed === null && document.getElementById('viewing').classList.contains('hidden')",
        "the live position",
    );
    assert_eq!(b.eval("state.ply"), live_ply, "viewing undid nothing");

    // Phone width.
    b.viewport(360, 780, true);
    std::thread::sleep(Duration::from_millis(300));
    let w = b.eval("document.getElementById('board').getBoundingClientRect().width");
    assert!(
        w.as_f64().unwrap() <= 360.0 && w.as_f64().unwrap() > 300.0,
        "board width {w}"
    );
    assert_eq!(
        b.eval("document.documentElement.scrollWidth <= 360"),
        json!(true)
    );
    b.screenshot(&shots.join("phone-360.png"));
    b.viewport(1200, 860, false);

    // Resign: the result modal with the Korean summary.
    if passed_out {
        b.eval("modalKind = null; showResult(); true");
    } else {
        b.click("#btn-resign");
        b.wait_until(
            "document.getElementById('confirm-yes') !== null",
            "the confirm step",
        );
        b.click("#confirm-yes");
    }
    let summary = b.wait_until(
        "document.getElementById('result')?.textContent",
        "the result modal",
    );
    let expected = if passed_out {
        "한 판정승"
    } else {
        "한 기권승"
    };
    assert!(summary.as_str().unwrap().starts_with(expected), "{summary}");
    assert_eq!(
        b.eval("document.getElementById('graph') !== null"),
        json!(true)
    );
    b.screenshot(&shots.join("result.png"));
    b.click("#btn-result-close");

    // A record pasted in: bad text is refused in words, a good one is
    // listed, opened, stepped through and analysed.
    b.click("#btn-load");
    b.wait_until(
        "document.getElementById('load-text') !== null",
        "the load dialog",
    );
    b.eval("document.getElementById('load-text').value = 'this is not a record'; true");
    b.click("#btn-load-read");
    b.wait_until(
        "!document.getElementById('load-error').classList.contains('hidden') && document.getElementById('load-error').textContent.includes('읽을 수 있는 대국이 없어요')",
        "the refusal of a bad record",
    );
    let pgn = "[Event \"Browser\"]\n[White \"Kim\"]\n[Black \"Lee\"]\n[Variant \"Janggi\"]\n\n1. a4a5 a7a6 2. c4c5 i7i6 3. e4e5 *\n";
    b.eval(&format!(
        "document.getElementById('load-text').value = {}; true",
        serde_json::to_string(pgn).unwrap()
    ));
    b.click("#btn-load-read");
    b.click(".load-game");
    b.wait_until(
        "state.moves.length === 5 && state.source && state.source.cho === 'Kim' && viewed && viewed.ply === 0",
        "the opened record at its start",
    );
    b.click("#nav-next");
    b.wait_until("viewed && viewed.ply === 1", "stepping through the record");
    b.click("#btn-analyse");
    b.wait_until(
        "state.review && state.review.moves && document.querySelector('#review-graph svg') !== null",
        "the analysis and its graph",
    );
    if real.is_none() {
        b.wait_until(
            "document.querySelector('#movelist li[data-ply=\"3\"] .mark.blunder')?.textContent === '??'",
            "the blunder mark in the move list",
        );
    }
    b.screenshot(&shots.join("analysis.png"));

    // The game saved as GIB (CP949) comes back through the file input.
    let gib = get(s.port(), "/api/records/save?format=gib");
    assert_eq!(gib.status, 200);
    let gib_path = shots.join("saved.gib");
    std::fs::write(&gib_path, &gib.body).unwrap();
    b.click("#btn-load");
    b.wait_until(
        "document.getElementById('load-file') !== null",
        "the load dialog",
    );
    let doc = b.call("DOM.getDocument", json!({}), true);
    let input = b.call(
        "DOM.querySelector",
        json!({"nodeId": doc["root"]["nodeId"], "selector": "#load-file"}),
        true,
    );
    b.call(
        "DOM.setFileInputFiles",
        json!({"nodeId": input["nodeId"], "files": [gib_path.to_string_lossy()]}),
        true,
    );
    b.click("#btn-load-read");
    b.wait_until(
        "document.querySelector('.load-game')?.textContent.includes('Kim')",
        "the GIB file's game listed",
    );
    b.click(".load-game");
    b.wait_until(
        "state.moves.length === 5 && state.moves[4].uci === 'e4e5' && state.source.cho === 'Kim'",
        "the GIB file's game on the board",
    );
    b.viewport(360, 780, true);
    std::thread::sleep(Duration::from_millis(300));
    b.screenshot(&shots.join("analysis-360.png"));

    // With a real engine: engine vs engine for a dozen plies, the
    // picture of the board in docs/gui-board.png (360 px wide).
    if real.is_some() {
        b.eval("(async () => { await api('/api/new', {mode: 'eve', level: 'hard', movetimeMs: 400, timeControl: {kind: 'byoyomi', mainSec: 600, periodSec: 30, periods: 3}}); await api('/api/setup', {side: 'han', setup: 'SMSM'}); await api('/api/setup', {side: 'cho', setup: 'MSSM'}); return true; })()");
        let until = Instant::now() + Duration::from_secs(60);
        while b.eval("state.ply >= 14 || state.phase === 'finished'") != json!(true) {
            assert!(Instant::now() < until, "engine vs engine is too slow");
            std::thread::sleep(Duration::from_millis(200));
        }
        // A still picture: no transient banner, no message.
        b.eval("document.getElementById('message').textContent = ''; document.getElementById('banner').classList.add('hidden'); true");
        b.viewport(360, 900, true);
        std::thread::sleep(Duration::from_millis(500));
        b.screenshot(&shots.join("board-360.png"));
        b.viewport(1200, 860, false);
        std::thread::sleep(Duration::from_millis(300));
        b.screenshot(&shots.join("board-desktop.png"));
    }
}

/// Issue 35: a page loaded while every event-stream slot is taken is
/// refused (503; the browser gives up on such a stream for good) and asks
/// again after a growing pause, so it connects once a slot is free; and
/// a foreign page's `<img src=/api/events>` is no open page.
#[test]
fn a_refused_page_connects_once_a_slot_is_free() {
    let Some(exe) = chromium_or_skip("the refused-page browser test") else {
        return;
    };
    let s = server();
    let p = s.port();
    let taken: Vec<_> = (0..32).map(|_| open_events(p)).collect();
    let mut b = Browser::launch(&exe);
    b.call("Page.navigate", json!({"url": s.url()}), true);
    b.wait_until(
        "document.getElementById('message')?.textContent.includes('다시 연결하는 중')",
        "the page to say it reconnects",
    );
    // Refused, and asked again more than once while the slots are taken.
    std::thread::sleep(Duration::from_millis(1200));
    assert_eq!(
        b.eval("sseEvents"),
        json!(0),
        "no stream while all are taken"
    );
    drop(taken);
    b.wait_until("sseEvents > 0", "the page's stream once slots are free");
    b.wait_until(
        "!document.getElementById('message')?.textContent.startsWith('서버와')",
        "the reconnecting message to clear",
    );
    // The page's tab is the only one: a foreign page's image of the event
    // stream does not keep the board from pausing when it goes.
    let away_page = format!(
        "data:text/html,<img src=\"http://127.0.0.1:{p}/api/events\"><img src=\"http://127.0.0.1:{p}/api/events?token=x\">"
    );
    b.call("Page.navigate", json!({"url": away_page}), true);
    wait_for(p, 10, "away once the board's page left", |st| {
        st["away"] == true
    });
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(state(p)["away"], true, "the images are no page");
}
