//! `janggi-engine convert`: GIB (CP949) to PGN and back, a broken game
//! reported on stderr with exit code 2 while the others convert.

use std::process::Command;

const GIB: &str = "[대회명 \"시험\"]
[초대국자 \"김초\"]
[한대국자 \"이한\"]
[초차림 \"상마상마\"]
[한차림 \"마상상마\"]
[대국결과 \"한 기권승\"]

1. 79卒78 2. 12馬33 {마} 3. 03馬84 4. 한수쉼

[대회명 \"깨진 대국\"]
[초대국자 \"박\"]
[한대국자 \"최\"]
[초차림 \"마상상마\"]
[한차림 \"마상상마\"]

1. 79卒78 2. 55車45

[대회명 \"셋째\"]
[초차림 \"마상마상\"]
[한차림 \"마상마상\"]

1. 02馬83 2. 12馬33
";

fn engine() -> Command {
    Command::new(env!("CARGO_BIN_EXE_janggi-engine"))
}

#[test]
fn convert_gib_to_pgn_and_back() {
    let dir = std::env::temp_dir().join(format!("janggi-convert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gib = dir.join("in.gib");
    std::fs::write(&gib, janggi_records::gib::encode_cp949(GIB)).unwrap();
    let pgn = dir.join("out.pgn");
    let o = engine()
        .args(["convert", gib.to_str().unwrap(), "--to", "pgn", "--out"])
        .arg(&pgn)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("game 2 (박 – 최): move 2 '55車45'"),
        "stderr: {err}"
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Variant \"Janggi\"]").count(), 2, "{text}");
    assert!(text.contains("1. Pih4 Hc8 {마} 2. Hd3 Ke9 0-1"), "{text}");
    assert!(text.contains("[White \"김초\"]") && text.contains("1. Hc3 Hc8 *"));

    // And back to GIB: every game converts (exit 0), header and moves kept.
    let o = engine()
        .args(["convert", pgn.to_str().unwrap(), "--to", "gib"])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let back = String::from_utf8(o.stdout).unwrap();
    assert!(back.contains("[초대국자 \"김초\"]"), "{back}");
    assert!(
        back.contains("1. 79卒78 2. 12馬33 {마} 3. 03馬84 4. 한수쉼"),
        "{back}"
    );
    assert!(back.contains("[한차림 \"마상마상\"]"));
    assert!(!back.contains("\"?\""), "{back}");

    let o = engine()
        .args(["convert", pgn.to_str().unwrap(), "--to", "epd"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8(o.stdout).unwrap().lines().count(), 5 + 3);

    let o = engine()
        .args(["convert", "/nonexistent/x.gib", "--to", "pgn"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}
