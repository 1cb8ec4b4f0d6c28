//! `janggi-engine match …` hands over to the `janggi-match` program next to
//! the engine binary, `janggi-engine datagen|train …` to `janggi-tools`
//! (the developer tools are not part of the engine), and each says where
//! the command lives when that program is missing.
//!
//! Each test copies the engine binary into a fresh directory, alone or
//! beside a stand-in script for the tool, so the result does not depend on
//! which workspace binaries happen to be built.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ENGINE: &str = env!("CARGO_BIN_EXE_janggi-engine");

/// A fresh directory holding a copy of the engine binary.
fn engine_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("janggi-handover-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(ENGINE, dir.join("janggi-engine")).unwrap();
    dir
}

/// A stand-in for `program` in `dir` that prints its name and arguments
/// and exits with code 7.
fn stand_in(dir: &Path, program: &str) {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(program);
    std::fs::write(&path, format!("#!/bin/sh\necho \"{program} $*\"\nexit 7\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Runs the copied engine. The tests copy the binary in parallel threads:
/// a child forked by another thread while this copy's file was still open
/// for writing holds that descriptor until its own exec, and meanwhile
/// exec of this copy fails with ETXTBSY ("Text file busy", seen once in a
/// full `cargo test`). That is a moment, not an error: try again.
fn run(dir: &Path, args: &[&str]) -> Output {
    const ETXTBSY: i32 = 26;
    let mut tries = 0;
    loop {
        match Command::new(dir.join("janggi-engine")).args(args).output() {
            Err(e) if e.raw_os_error() == Some(ETXTBSY) && tries < 100 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            r => return r.unwrap(),
        }
    }
}

#[test]
fn match_runs_the_janggi_match_program_next_to_the_engine() {
    let dir = engine_dir("match");
    stand_in(&dir, "janggi-match");
    let out = run(
        &dir,
        &["match", "--engine", "cmd=x", "--help", "--games", "2"],
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(7), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "janggi-match match --engine cmd=x --help --games 2\n"
    );
}

#[test]
fn match_without_the_program_says_where_it_lives() {
    let dir = engine_dir("match-missing");
    let out = run(&dir, &["match", "--games", "2"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("it is the janggi-match program"), "{err}");
    assert!(err.contains("cargo run --release -p janggi-match"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn datagen_and_train_run_janggi_tools_next_to_the_engine() {
    let dir = engine_dir("tools");
    stand_in(&dir, "janggi-tools");
    let datagen = run(&dir, &["datagen", "--out", "x.bin", "--games", "1"]);
    let train = run(&dir, &["train", "--help"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(datagen.status.code(), Some(7), "{datagen:?}");
    assert_eq!(
        String::from_utf8_lossy(&datagen.stdout),
        "janggi-tools datagen --out x.bin --games 1\n"
    );
    assert_eq!(train.status.code(), Some(7), "{train:?}");
    assert_eq!(
        String::from_utf8_lossy(&train.stdout),
        "janggi-tools train --help\n"
    );
}

#[test]
fn datagen_without_the_program_says_where_it_lives() {
    let dir = engine_dir("tools-missing");
    let out = run(&dir, &["datagen", "--out", "x.bin"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("it is the janggi-tools program"), "{err}");
    assert!(
        err.contains("cargo run --release -p janggi-tools -- datagen"),
        "{err}"
    );
    assert!(!dir.join("x.bin").exists());
}
