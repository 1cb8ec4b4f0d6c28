//! The server's limits, probed over loopback (issue 35): event-stream
//! slots come back when their pages go; a huge head, too many headers, a
//! slow head, a body that never comes and too many connections are
//! refused within their timeouts while the board goes on answering; a
//! refusal never echoes the path; only a page with the board's token
//! counts as open. Timeouts are a few hundred ms here
//! ([`janggi_gui::Limits`]); every wait is bounded.

mod common;

use common::*;
use janggi_gui::{Limits, Running, Tuning};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

const HEAD_TIMEOUT: Duration = Duration::from_millis(400);
const BODY_TIMEOUT: Duration = Duration::from_millis(400);
/// How late past its timeout a refusal may come on a loaded machine.
const SLACK: Duration = Duration::from_secs(8);

fn tight(max_connections: usize) -> Running {
    let tuning = Tuning {
        limits: Limits {
            head_timeout: HEAD_TIMEOUT,
            body_timeout: BODY_TIMEOUT,
            write_timeout: Duration::from_secs(5),
            max_head_bytes: 16 * 1024,
            max_headers: 50,
            max_connections,
        },
        ..quick()
    };
    janggi_gui::start_with(&config_with(&[]), tuning).expect("server starts")
}

fn connect(port: u16) -> TcpStream {
    let s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s
}

/// Everything the server sends until it closes (or 20 s pass).
fn read_all(s: &mut TcpStream) -> String {
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

fn status_of(reply: &str) -> u16 {
    reply
        .split_whitespace()
        .nth(1)
        .and_then(|t| t.parse().ok())
        .unwrap_or(0)
}

/// Sends `request` on its own thread (the server may stop reading it
/// part way) while this one reads the answer.
fn send_while_reading(port: u16, request: Vec<u8>) -> String {
    let mut s = connect(port);
    let mut w = s.try_clone().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = w.write_all(&request);
    });
    let reply = read_all(&mut s);
    drop(s);
    let _ = writer.join();
    reply
}

fn head(port: u16, target: &str, extra: &str) -> Vec<u8> {
    format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{extra}Connection: close\r\n\r\n")
        .into_bytes()
}

#[test]
fn event_stream_slots_are_reused_after_33_streams_opened_and_closed() {
    let s = server();
    let p = s.port();
    let token = page_token(p);
    // 33 pages one after the other: each closes before the next opens.
    for i in 0..33 {
        let (line, page) = try_events(p, &token);
        assert!(line.starts_with("HTTP/1.1 200"), "stream {i}: {line}");
        drop(page);
    }
    // All 32 slots at once, and a 33rd refused while they are open.
    let open_all = |what: &str| -> Vec<_> {
        (0..32)
            .map(|i| {
                let until = Instant::now() + Duration::from_secs(5);
                loop {
                    let (line, page) = try_events(p, &token);
                    if line.starts_with("HTTP/1.1 200") {
                        return page;
                    }
                    assert!(Instant::now() < until, "{what} stream {i}: {line}");
                    std::thread::sleep(Duration::from_millis(50));
                }
            })
            .collect()
    };
    let pages = open_all("first");
    let (line, _) = try_events(p, &token);
    assert!(line.starts_with("HTTP/1.1 503"), "33rd: {line}");
    // The pages go; no state changes; their slots come back within a ping
    // or two (100 ms here).
    drop(pages);
    let again = open_all("second");
    assert_eq!(again.len(), 32);
}

#[test]
fn events_without_the_token_are_refused_and_are_no_page() {
    let s = server();
    let p = s.port();
    for target in [
        "/api/events".to_string(),
        "/api/events?token=".to_string(),
        format!("/api/events?token={}", "0".repeat(32)),
    ] {
        let r = get(p, &target);
        assert_eq!(r.status, 403, "{target}");
        assert_eq!(r.json()["error"]["code"], "noToken");
    }
    // A real page comes and goes: the board is away.
    drop(open_events(p));
    wait_for(p, 5, "away once the page went", |s| s["away"] == true);
    // A foreign page's <img src=/api/events> (no token), held open: still
    // away, past the grace and a few pings.
    let (line, _img) = try_events(p, "");
    assert!(line.starts_with("HTTP/1.1 403"), "{line}");
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(state(p)["away"], true, "a tokenless stream is no page");
    // The board's own page is one.
    let _page = open_events(p);
    wait_for(p, 5, "back with the page", |s| s["away"] == false);
}

#[test]
fn an_8_mib_header_and_20000_headers_are_refused() {
    let s = tight(64);
    let p = s.port();
    let started = Instant::now();
    let big = head(
        p,
        "/api/state",
        &format!("X-Big: {}\r\n", "a".repeat(8 << 20)),
    );
    let reply = send_while_reading(p, big);
    assert_eq!(status_of(&reply), 431, "{}", &reply[..reply.len().min(300)]);
    let many = head(p, "/api/state", &"X-N: v\r\n".repeat(20_000));
    let reply = send_while_reading(p, many);
    assert_eq!(status_of(&reply), 431, "{}", &reply[..reply.len().min(300)]);
    assert!(started.elapsed() < SLACK, "refused at once");
    // Over the count (50 here) but small: refused too; under it: served.
    let reply = send_while_reading(p, head(p, "/api/state", &"X-N: v\r\n".repeat(60)));
    assert_eq!(status_of(&reply), 431, "{reply}");
    assert!(reply.contains("tooLarge"), "{reply}");
    let reply = send_while_reading(p, head(p, "/api/state", &"X-N: v\r\n".repeat(40)));
    assert_eq!(status_of(&reply), 200);
}

#[test]
fn refusals_do_not_echo_the_path() {
    let s = tight(64);
    let p = s.port();
    let marker = "zq".repeat(32);
    // A 1 MB URL: refused as too long, and not sent back.
    let long = format!("/{}", marker.repeat(1 << 14));
    let reply = send_while_reading(p, head(p, &long, ""));
    assert_eq!(status_of(&reply), 414);
    assert!(!reply.contains(&marker) && reply.len() < 1000, "{reply}");
    // Shorter ones reach the routes: still not echoed.
    let path = format!("/{marker}");
    let r = get(p, &path);
    assert_eq!(r.status, 404);
    assert!(!String::from_utf8_lossy(&r.body).contains(&marker));
    let r = post_text(p, &format!("/api/{marker}"), "{}");
    assert_eq!(r.status, 400);
    assert!(!String::from_utf8_lossy(&r.body).contains(&marker));
    let r = get(p, &format!("/api/records/save?format={marker}"));
    assert!(!String::from_utf8_lossy(&r.body).contains(&marker));
}

#[test]
fn slow_heads_are_dropped_after_the_timeout_while_the_board_answers() {
    let s = tight(64);
    let p = s.port();
    let started = Instant::now();
    let partial = format!("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\n");
    let mut slow: Vec<TcpStream> = (0..50)
        .map(|_| {
            let mut c = connect(p);
            c.write_all(partial.as_bytes()).unwrap();
            c
        })
        .collect();
    // One more that keeps sending, a byte at a time: the head's time is
    // the whole head's, not per read.
    let mut trickle = connect(p);
    let trickler = std::thread::spawn(move || {
        for _ in 0..400 {
            if trickle.write_all(b"X").is_err() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    });
    // The board answers meanwhile.
    assert_eq!(get(p, "/api/state").status, 200);
    assert!(started.elapsed() < HEAD_TIMEOUT + SLACK);
    for (i, c) in slow.iter_mut().enumerate() {
        let reply = read_all(c);
        assert_eq!(status_of(&reply), 408, "slow {i}: {reply}");
    }
    let took = started.elapsed();
    assert!(
        took >= HEAD_TIMEOUT && took < HEAD_TIMEOUT + SLACK,
        "dropped after {took:?}"
    );
    assert!(
        trickler.join().unwrap(),
        "the trickling head was cut off within 8 s"
    );
    assert_eq!(get(p, "/api/state").status, 200);
}

#[test]
fn a_body_that_never_comes_is_answered_after_the_timeout() {
    let s = tight(64);
    let p = s.port();
    let post = |path: &str, length: usize| {
        let mut c = connect(p);
        write!(
            c,
            "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\nContent-Length: {length}\r\n\r\n0123456789"
        )
        .unwrap();
        let started = Instant::now();
        let reply = read_all(&mut c);
        (status_of(&reply), started.elapsed(), reply)
    };
    // 10 MB announced: past any route's limit, refused before waiting.
    let (status, took, reply) = post("/api/records/parse", 10_000_000);
    assert_eq!(status, 400, "{reply}");
    assert!(took < BODY_TIMEOUT, "answered at once: {took:?}");
    // Within the limits but never sent: 408 after the body's timeout.
    for (path, length) in [("/api/records/parse", 5_000_000), ("/api/move", 60_000)] {
        let (status, took, reply) = post(path, length);
        assert_eq!(status, 408, "{path}: {reply}");
        assert!(
            took >= BODY_TIMEOUT && took < BODY_TIMEOUT + SLACK,
            "{path}: {took:?}"
        );
    }
    // A chunked body is refused: a body needs its length.
    let r = raw(
        p,
        &format!("POST /api/new HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{{}}\r\n0\r\n\r\n"),
    );
    assert_eq!(r.status, 411);
}

#[test]
fn connections_past_the_bound_are_refused_until_the_slow_ones_go() {
    let s = tight(8);
    let p = s.port();
    let held: Vec<TcpStream> = (0..8)
        .map(|_| {
            let mut c = connect(p);
            c.write_all(b"GET / HTTP/1.1\r\n").unwrap();
            c
        })
        .collect();
    // Give the server time to take all eight (bounded poll).
    let until = Instant::now() + SLACK;
    loop {
        let r = get(p, "/api/state");
        if r.status == 503 {
            assert_eq!(r.json()["error"]["code"], "busy");
            break;
        }
        assert!(Instant::now() < until, "never refused: {}", r.status);
        std::thread::sleep(Duration::from_millis(20));
    }
    // The slow ones are dropped after the head timeout; the board answers.
    let until = Instant::now() + HEAD_TIMEOUT + SLACK;
    while get(p, "/api/state").status != 200 {
        assert!(Instant::now() < until, "the board never came back");
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(held);
}

/// A client that asks before sending its body (curl does for bodies past
/// 1 KiB) is told to go on, and served.
#[test]
fn expect_100_continue_is_answered() {
    use std::io::{BufRead, BufReader};
    let s = tight(64);
    let p = s.port();
    let body = br#"{"mode": "hvh"}"#;
    let mut c = connect(p);
    write!(
        c,
        "POST /api/new HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\nContent-Length: {}\r\nExpect: 100-continue\r\n\r\n",
        body.len()
    )
    .unwrap();
    let mut reader = BufReader::new(c.try_clone().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.starts_with("HTTP/1.1 100"), "{line}");
    c.write_all(body).unwrap();
    let mut rest = String::new();
    let _ = reader.read_to_string(&mut rest);
    assert_eq!(status_of(&rest), 200, "{rest}");
    assert_eq!(state(p)["settings"]["mode"], "hvh", "the body was read");
}
