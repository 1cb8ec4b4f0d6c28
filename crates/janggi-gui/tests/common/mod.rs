//! Helpers: the server in-process on an ephemeral port, a tiny HTTP/1.1
//! test client over `TcpStream` (Connection: close, chunked bodies read).

#![allow(dead_code)]

use janggi_gui::{Config, EngineCommand, Running, Tuning};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

pub mod chromium;
mod fake_engine;

/// The word after which a test binary's arguments are the fake engine's.
const FAKE_MARK: &str = "janggi-fake-engine";

/// The fake engine lives in every test binary as this test: run plainly
/// it does nothing; run by [`fake_engine_command`] (the binary itself with
/// `--exact common::fake_engine_entry … janggi-fake-engine ARGS`) it is
/// the engine on stdin/stdout and exits when told `quit`.
#[test]
fn fake_engine_entry() {
    janggi_match::scripted::entry_with(FAKE_MARK, fake_engine::run);
}

/// The command line that runs this test binary as the fake engine.
pub fn fake_engine_command(args: &[&str]) -> EngineCommand {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let (program, args) =
        janggi_match::scripted::command_with(FAKE_MARK, "common::fake_engine_entry", &args);
    EngineCommand {
        program: program.into(),
        args,
    }
}

pub fn config_with(args: &[&str]) -> Config {
    Config {
        host: "127.0.0.1".into(),
        port: 0,
        engine: fake_engine_command(args),
        grace: Duration::from_millis(300),
    }
}

/// Quick timings for tests: pages are pinged every 100 ms (a closed tab is
/// noticed at once), analysis searches 20 ms a position, and the board
/// pauses 50 ms after the last page went.
pub fn quick() -> Tuning {
    Tuning {
        ping: Duration::from_millis(100),
        analysis_movetime_ms: 20,
        away_grace: Duration::from_millis(50),
        ..Tuning::default()
    }
}

pub fn server_with(args: &[&str]) -> Running {
    janggi_gui::start_with(&config_with(args), quick()).expect("server starts")
}

pub fn server() -> Running {
    server_with(&[])
}

pub struct Reply {
    pub status: u16,
    pub head: String,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(i) = b.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size = usize::from_str_radix(String::from_utf8_lossy(&b[..i]).trim(), 16).unwrap_or(0);
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&b[i + 2..i + 2 + size]);
        b = &b[i + 2 + size + 2..];
    }
}

pub fn raw(port: u16, request: &str) -> Reply {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    let split = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(buf.len());
    let head = String::from_utf8_lossy(&buf[..split]).to_string();
    let body = buf.get(split + 4..).unwrap_or(&[]).to_vec();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|t| t.parse().ok())
        .unwrap_or(0);
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(&body)
    } else {
        body
    };
    Reply { status, head, body }
}

pub fn get(port: u16, path: &str) -> Reply {
    raw(
        port,
        &format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"),
    )
}

pub fn post_text(port: u16, path: &str, body: &str) -> Reply {
    raw(
        port,
        &format!(
            "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    )
}

/// POST with a raw (non-JSON) body, e.g. a record file.
pub fn post_bytes(port: u16, path: &str, body: &[u8]) -> Reply {
    let mut req = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    req.extend_from_slice(body);
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(&req).unwrap();
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    let split = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(buf.len());
    let head = String::from_utf8_lossy(&buf[..split]).to_string();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|t| t.parse().ok())
        .unwrap_or(0);
    Reply {
        status,
        head,
        body: buf.get(split + 4..).unwrap_or(&[]).to_vec(),
    }
}

/// The token the board's own page presents on its event stream.
pub fn page_token(port: u16) -> String {
    let v = get(port, "/api/token").json();
    v["token"].as_str().expect("a token").to_string()
}

/// Asks for the event stream with `token` and reads the status line.
pub fn try_events(port: u16, token: &str) -> (String, std::io::BufReader<TcpStream>) {
    use std::io::BufRead;
    let mut sse = TcpStream::connect(("127.0.0.1", port)).unwrap();
    sse.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        sse,
        "GET /api/events?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
    )
    .unwrap();
    let mut reader = std::io::BufReader::new(sse);
    let mut line = String::new();
    let _ = reader.read_line(&mut line);
    (line, reader)
}

/// Opens the event stream like a page does; dropping it closes the tab.
pub fn open_events(port: u16) -> std::io::BufReader<TcpStream> {
    let (line, reader) = try_events(port, &page_token(port));
    assert!(line.starts_with("HTTP/1.1 200"), "{line}");
    reader
}

pub fn post(port: u16, path: &str, body: Value) -> Reply {
    post_text(port, path, &body.to_string())
}

pub fn state(port: u16) -> Value {
    get(port, "/api/state").json()
}

/// Polls the state until `pred` holds (or panics after `secs`).
pub fn wait_for(port: u16, secs: u64, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let until = Instant::now() + Duration::from_secs(secs);
    loop {
        let s = state(port);
        if pred(&s) {
            return s;
        }
        assert!(Instant::now() < until, "timed out waiting for {what}: {s}");
        std::thread::sleep(Duration::from_millis(30));
    }
}

pub fn piece_at(state: &Value, sq: &str) -> Option<(String, String)> {
    state["board"]
        .as_array()?
        .iter()
        .find(|p| p["sq"] == sq)
        .map(|p| {
            (
                p["side"].as_str().unwrap_or("").to_string(),
                p["kind"].as_str().unwrap_or("").to_string(),
            )
        })
}

/// New game with `settings`, then Han's and Cho's arrangements.
pub fn start_game(port: u16, settings: Value, han: &str, cho: &str) -> Value {
    let r = post(port, "/api/new", settings);
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let r = post(
        port,
        "/api/setup",
        serde_json::json!({"side": "han", "setup": han}),
    );
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let r = post(
        port,
        "/api/setup",
        serde_json::json!({"side": "cho", "setup": cho}),
    );
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    r.json()["state"].clone()
}

pub fn mv(port: u16, from: &str, to: &str) -> Reply {
    post(
        port,
        "/api/move",
        serde_json::json!({"from": from, "to": to}),
    )
}
