//! Headless Chromium over the DevTools protocol (a small client over a
//! WebSocket): launch, evaluate, wait, click, resize and screenshot. The
//! browser tests (browser.rs, page.rs) drive the page with it.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// Chromium's path (`CHROMIUM`, or the usual places), if installed.
pub fn find_chromium() -> Option<PathBuf> {
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

/// Chromium's path, or `None` after saying why the browser test `what`
/// did not run (it then passes).
pub fn chromium_or_skip(what: &str) -> Option<PathBuf> {
    let found = find_chromium();
    if found.is_none() {
        println!("skipped: no chromium found (apt-get install chromium), {what} did not run");
    }
    found
}

/// One headless Chromium with one page.
pub struct Browser {
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
    pub fn launch(exe: &Path) -> Browser {
        static LAUNCHED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = LAUNCHED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let profile =
            std::env::temp_dir().join(format!("janggi-gui-chromium-{}-{n}", std::process::id()));
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

    pub fn call(&mut self, method: &str, params: Value, in_page: bool) -> Value {
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

    pub fn eval(&mut self, expr: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
            true,
        );
        assert!(r.get("exceptionDetails").is_none(), "{expr}: {r}");
        r["result"]["value"].clone()
    }

    pub fn wait_until(&mut self, expr: &str, what: &str) -> Value {
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            let v = self.eval(expr);
            if v != Value::Null && v != Value::Bool(false) {
                return v;
            }
            if Instant::now() >= until {
                let errors = self.eval("JSON.stringify([window.pageErrors || null, document.readyState, performance.getEntriesByType('resource').map(e => e.name.replace(location.origin, '') + ' ' + Math.round(e.duration)), typeof modalKind === 'undefined' ? '-' : modalKind, typeof state === 'undefined' ? '-' : state && state.phase])");
                panic!("timed out waiting for {what} ({expr}); page errors: {errors}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn viewport(&mut self, width: u32, height: u32, mobile: bool) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
            true,
        );
    }

    /// The centre of the element `selector` in the viewport, once it is
    /// laid out, scrolled into view.
    fn centre_of(&mut self, selector: &str) -> (f64, f64) {
        let sel = serde_json::to_string(selector).unwrap();
        let r = self.wait_until(
            &format!(
                "(() => {{ const e = document.querySelector({sel}); if (!e) return null; e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); return r.width > 0 ? [r.x + r.width / 2, r.y + r.height / 2] : null; }})()"
            ),
            selector,
        );
        (r[0].as_f64().unwrap(), r[1].as_f64().unwrap())
    }

    fn mouse(&mut self, kind: &str, (x, y): (f64, f64)) {
        self.call(
            "Input.dispatchMouseEvent",
            json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            true,
        );
    }

    /// A real mouse click at the centre of the element `selector`.
    pub fn click(&mut self, selector: &str) {
        let at = self.centre_of(selector);
        self.mouse("mousePressed", at);
        self.mouse("mouseReleased", at);
    }

    pub fn click_point(&mut self, sq: &str) {
        self.click(&format!("rect.hit[data-sq=\"{sq}\"]"));
    }

    /// A click on a board point with `between` run in the page after the
    /// press and before the release, as when a state update redraws the
    /// board under a player's finger.
    pub fn click_point_across(&mut self, sq: &str, between: &str) {
        let at = self.centre_of(&format!("rect.hit[data-sq=\"{sq}\"]"));
        self.mouse("mousePressed", at);
        self.eval(between);
        self.mouse("mouseReleased", at);
    }

    pub fn screenshot(&mut self, path: &Path) {
        let r = self.call("Page.captureScreenshot", json!({"format": "png"}), true);
        let data = data_encoding::BASE64
            .decode(r["data"].as_str().unwrap().as_bytes())
            .unwrap();
        std::fs::write(path, data).unwrap();
        println!("screenshot: {}", path.display());
    }
}
