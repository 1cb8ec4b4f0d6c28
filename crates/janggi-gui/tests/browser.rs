//! The page in a real browser: headless Chromium driven over the DevTools
//! protocol (a small client over a WebSocket). It starts a game against
//! the fake engine by clicks (setup cards Han first), plays moves by
//! clicking points, gets an illegal try refused with its reason, passes
//! through the confirm step, resigns and reads the result modal, and
//! saves screenshots at desktop size and 360 px wide under target/.
//!
//! Skips (passes, printing why) when no Chromium is installed.

mod common;

use common::*;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

fn find_chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .flat_map(|n| ["/usr/bin", "/usr/local/bin", "/snap/bin"].map(|d| Path::new(d).join(n)))
    .find(|p| p.is_file())
}

/// The browser, or `None` after saying why the test does not run.
fn chromium_or_skip() -> Option<PathBuf> {
    let exe = find_chromium();
    if exe.is_none() {
        println!(
            "skipped: no chromium found (apt-get install chromium), the browser test did not run"
        );
    }
    exe
}

struct Browser {
    child: Child,
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    session: String,
    _profile: PathBuf,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self._profile);
    }
}

impl Browser {
    fn launch(exe: &Path) -> Browser {
        // One profile per test: the tests of this file run at once.
        let profile = std::env::temp_dir().join(format!(
            "janggi-gui-chromium-{}-{}",
            std::process::id(),
            std::thread::current()
                .name()
                .unwrap_or("main")
                .replace(':', "_")
        ));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).unwrap();
        let mut child = Command::new(exe)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
                "--remote-allow-origins=*",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(i) = line.find("ws://") {
                    let _ = tx.send(line[i..].trim().to_string());
                }
            }
        });
        let url = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("DevTools URL on stderr");
        let (ws, _) = tungstenite::connect(url.as_str()).expect("DevTools WebSocket");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        }
        let mut b = Browser {
            child,
            ws,
            next_id: 0,
            session: String::new(),
            _profile: profile,
        };
        let t = b.call("Target.createTarget", json!({"url": "about:blank"}), false);
        let target = t["targetId"].as_str().unwrap().to_string();
        let a = b.call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
            false,
        );
        b.session = a["sessionId"].as_str().unwrap().to_string();
        b.call("Page.enable", json!({}), true);
        b.call("Runtime.enable", json!({}), true);
        b
    }

    fn call(&mut self, method: &str, params: Value, in_page: bool) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if in_page {
            msg["sessionId"] = json!(self.session);
        }
        self.ws.send(Message::text(msg.to_string())).expect("send");
        loop {
            let m = self.ws.read().expect("DevTools reply");
            let Message::Text(t) = m else { continue };
            let v: Value = serde_json::from_str(t.as_str()).unwrap_or(Value::Null);
            if v["id"] == id {
                assert!(v.get("error").is_none(), "{method}: {v}");
                return v["result"].clone();
            }
        }
    }

    fn eval(&mut self, expr: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
            true,
        );
        assert!(r.get("exceptionDetails").is_none(), "{expr}: {r}");
        r["result"]["value"].clone()
    }

    fn wait_until(&mut self, expr: &str, what: &str) -> Value {
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            let v = self.eval(expr);
            if v != Value::Null && v != Value::Bool(false) {
                return v;
            }
            assert!(
                Instant::now() < until,
                "timed out waiting for {what} ({expr})"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn viewport(&mut self, width: u32, height: u32, mobile: bool) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
            true,
        );
    }

    /// A real mouse click at the centre of the element `selector`.
    fn click(&mut self, selector: &str) {
        let sel = serde_json::to_string(selector).unwrap();
        let r = self.wait_until(
            &format!(
                "(() => {{ const e = document.querySelector({sel}); if (!e) return null; e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); return r.width > 0 ? [r.x + r.width / 2, r.y + r.height / 2] : null; }})()"
            ),
            selector,
        );
        let (x, y) = (r[0].as_f64().unwrap(), r[1].as_f64().unwrap());
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
                true,
            );
        }
    }

    fn click_point(&mut self, sq: &str) {
        self.click(&format!("rect.hit[data-sq=\"{sq}\"]"));
    }

    fn screenshot(&mut self, path: &Path) {
        let r = self.call("Page.captureScreenshot", json!({"format": "png"}), true);
        let data = data_encoding::BASE64
            .decode(r["data"].as_str().unwrap().as_bytes())
            .unwrap();
        std::fs::write(path, data).unwrap();
        println!("screenshot: {}", path.display());
    }
}

#[test]
fn a_game_in_headless_chromium() {
    let Some(exe) = chromium_or_skip() else {
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
        b.click_point("b3");
        b.click_point("b9");
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
    let Some(exe) = chromium_or_skip() else {
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
