//! The engine binary itself, spawned as a GUI would: quitting mid-search
//! with CRLF input, a USI session ended by end of input, the `perft`
//! subcommand.
//!
//! No test asserts a duration except generous upper bounds (a test that
//! would otherwise hang fails after `LONG`).

mod common;

use common::session::{spawn_engine, LONG};
use std::io::Write;
use std::process::Command;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

fn expect_line(rx: &mpsc::Receiver<String>, seen: &mut Vec<String>, pred: impl Fn(&str) -> bool) {
    let deadline = Instant::now() + LONG;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(l) => {
                let hit = pred(&l);
                seen.push(l);
                if hit {
                    return;
                }
            }
            Err(_) => panic!("expected line not seen; got {seen:?}"),
        }
    }
}

fn wait_exit(child: &mut std::process::Child) -> std::process::ExitStatus {
    let deadline = Instant::now() + LONG;
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("engine did not exit within {LONG:?}");
        }
        thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn binary_quits_mid_search_with_crlf_input() {
    let (mut child, rx) = spawn_engine(&[]);
    let mut stdin = child.stdin.take().expect("stdin");
    let mut seen = Vec::new();
    stdin.write_all(b"uci\r\n\r\nisready\r\n").expect("write");
    expect_line(&rx, &mut seen, |l| l == "readyok");
    assert!(seen.contains(&"uciok".to_string()));
    stdin
        .write_all(b"setoption name Hash value 8\r\nposition startpos moves b1c3\r\ngo infinite\r\nisready\r\n")
        .expect("write");
    expect_line(&rx, &mut seen, |l| l == "readyok");
    // quit mid-search, stdin still open: the process must exit by itself.
    stdin.write_all(b"quit\r\n").expect("write");
    stdin.flush().expect("flush");
    let status = wait_exit(&mut child);
    assert_eq!(status.code(), Some(0));
    drop(stdin);
    let errors: Vec<&String> = seen.iter().filter(|l| l.contains("error")).collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn binary_usi_session_and_eof() {
    let (mut child, rx) = spawn_engine(&[]);
    let mut stdin = child.stdin.take().expect("stdin");
    let mut seen = Vec::new();
    stdin
        .write_all(b"usi\nposition startpos moves 8j7h\ngo depth 2\n")
        .expect("write");
    expect_line(&rx, &mut seen, |l| l.starts_with("bestmove "));
    assert!(seen.contains(&"usiok".to_string()));
    drop(stdin);
    let status = wait_exit(&mut child);
    assert_eq!(status.code(), Some(0));
}

#[test]
fn binary_perft_subcommand_still_works() {
    let out = Command::new(env!("CARGO_BIN_EXE_janggi-engine"))
        .args(["perft", "--startpos", "--depth", "2"])
        .output()
        .expect("run perft");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Nodes searched: 1024"), "{text}");
}
