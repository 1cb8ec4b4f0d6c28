//! `janggi-engine gui` on the command line: the options it takes before
//! the board is served.

mod common;

use common::session::spawn_engine;
use std::process::{Command, Stdio};
use std::time::Duration;

const ENGINE: &str = env!("CARGO_BIN_EXE_janggi-engine");

#[test]
fn a_bad_grace_is_refused_before_anything_starts() {
    for bad in ["0", "abc", "1000"] {
        let out = Command::new(ENGINE)
            .args(["gui", "--port", "0", "--grace", bad])
            .stdin(Stdio::null())
            .output()
            .expect("run janggi-engine");
        assert_eq!(out.status.code(), Some(2), "--grace {bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--grace") && err.contains("0.1 to 600"),
            "--grace {bad}: {err}"
        );
        assert!(out.stdout.is_empty(), "nothing served with --grace {bad}");
    }
}

#[test]
fn the_board_runs_with_the_grace_it_was_given() {
    let (mut child, rx) = spawn_engine(&[
        "gui",
        "--port",
        "0",
        "--grace",
        "2.5",
        "--engine",
        "/bin/cat -u",
    ]);
    let mut lines = Vec::new();
    while lines.len() < 2 {
        match rx.recv_timeout(Duration::from_secs(10)) {
            Ok(line) => lines.push(line),
            Err(_) => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(lines.len(), 2, "the board's two first lines: {lines:?}");
    assert!(
        lines[0].starts_with("janggi board: http://127.0.0.1:"),
        "{lines:?}"
    );
    assert_eq!(
        lines[1], "engine: /bin/cat -u (grace 2.5 s past its move time)",
        "{lines:?}"
    );
}
