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

// ---------------------------------------------------------------------
// Real records from the Korean apps (tests/data/records, sources in its
// README): one test per way the apps' records differ.

use janggi_core::{Game, Rules};
use janggi_records::record::{apps_rules, MoveError};
use janggi_records::{read_any, GameErrorKind, GameResult, Record, RecordWarning};

/// The bytes of a fixture.
fn fixture(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/records")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every game of a fixture, each read (a failure names the game).
fn records(name: &str) -> Vec<Record> {
    read_any(&fixture(name))
        .into_iter()
        .enumerate()
        .map(|(i, g)| g.unwrap_or_else(|e| panic!("{name} game {}: {e}", i + 1)))
        .collect()
}

/// The position before ply `n` (from 1) of `rec`.
fn before_ply(rec: &Record, n: usize) -> Game {
    Game::replay(rec.start.clone(), rec.rules, &rec.moves()[..n - 1]).unwrap()
}

fn has_warning(rec: &Record, f: impl Fn(&RecordWarning) -> bool) -> bool {
    rec.warnings.iter().any(f)
}

/// `convert` on a fixture: (exit code, stdout, stderr).
fn convert_fixture(name: &str, extra: &[&str]) -> (i32, String, String) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/records")
        .join(name);
    let o = engine()
        .args(["convert", path.to_str().unwrap(), "--to", "pgn"])
        .args(extra)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn capture_marks_of_every_app_are_read() {
    // 사이버장기, KBS, Netmarble, Hangame's champions league: `타` and the
    // piece taken, which must stand there.
    let recs = records("capture-marks.gib");
    assert_eq!(recs.len(), 4);
    // 네오장기 game 1, move 19 `09차49타졸`: the chariot takes a soldier.
    let g = before_ply(&recs[0], 19);
    let mv = recs[0].plies[18].mv;
    let taken = g.position().piece_at(mv.to()).expect("a capture");
    assert_eq!(taken.kind, janggi_core::PieceKind::Soldier);
    assert_ne!(taken.color, g.side_to_move());
    for r in &recs {
        assert!(r.game().is_ok() && r.plies.len() > 30, "{:?}", r.tags);
    }
    let (code, _, err) = convert_fixture("capture-marks.gib", &[]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn the_dos_end_of_file_byte_after_the_last_game_is_not_a_move() {
    let bytes = fixture("kakao-eof.gib");
    assert_eq!(bytes.trim_ascii_end().last(), Some(&0x1A));
    let recs = records("kakao-eof.gib");
    assert_eq!(recs.len(), 2);
    let (code, pgn, err) = convert_fixture("kakao-eof.gib", &[]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(pgn.matches("[Event ").count(), 2);
}

#[test]
fn forfeits_are_games_of_no_moves_and_stray_bytes_start_no_game() {
    let recs = records("forfeit-and-stray-bytes.gib");
    assert_eq!(recs.len(), 7, "five games were read as one before");
    let results: Vec<GameResult> = recs[..4].iter().map(|r| r.result).collect();
    assert_eq!(
        results,
        [
            GameResult::HanWins,
            GameResult::ChoWins,
            GameResult::ChoWins,
            GameResult::HanWins
        ]
    );
    assert!(recs[..4]
        .iter()
        .all(|r| r.plies.is_empty() && r.intro.is_some()));
    assert!(recs[4..].iter().all(|r| r.plies.len() > 50));
    assert_eq!(recs[6].tag("회전"), Some("챔피언결정전 1국"));
    assert!(fixture("forfeit-and-stray-bytes.gib")
        .windows(2)
        .any(|w| w == [0x1A, 0xFF] || w == [0xFF, 0x1A]));
}

#[test]
fn play_after_bikjang_is_read_under_the_apps_rules_with_a_warning() {
    let recs = records("bikjang-played-on.gib");
    assert_eq!(recs[0].rules, Rules::from_variant("janggimodern").unwrap());
    assert!(has_warning(&recs[0], |w| matches!(
        w,
        RecordWarning::OtherRules { because, .. }
            if matches!(**because, MoveError::GameOver { at: 55, .. })
    )));
    let (code, _, err) = convert_fixture("bikjang-played-on.gib", &[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("read under janggimodern rules")
            && err.contains("bikjang at move 55 ends the game under KJF rules"),
        "{err}"
    );
    // Under KJF's rules on request: an error that says why and what to try.
    let (code, _, err) = convert_fixture("bikjang-played-on.gib", &["--variant", "janggikjf"]);
    assert_eq!(code, 2);
    assert!(
        err.contains(
            "bikjang at move 55 ends the game under KJF rules; try --variant janggimodern"
        ),
        "{err}"
    );
}

#[test]
fn a_fourth_repetition_played_on_is_read_under_the_apps_rules() {
    let recs = records("fourth-repetition.gib");
    assert_eq!(recs[0].rules, apps_rules());
    assert_eq!(recs[0].plies.len(), 197);
    let kjf =
        janggi_records::read_any_with(&fixture("fourth-repetition.gib"), Some(Rules::default()));
    let e = kjf[0].as_ref().unwrap_err();
    assert!(
        matches!(&e.kind, GameErrorKind::BadMove { number: 99, error, .. }
            if matches!(**error, MoveError::Repetition { .. })),
        "{e}"
    );
    assert!(e
        .to_string()
        .contains("repeats a position a 4th time, which KJF rules forbid"));
    // --rules names the same rules.
    let (code, pgn, err) = convert_fixture(
        "fourth-repetition.gib",
        &["--rules", "bikjang=off repetition=off"],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(pgn.contains("repetition=off"));
}

#[test]
fn results_written_as_a_loss_name_the_other_side_the_winner() {
    let recs = records("loss-results.gib");
    let results: Vec<(Option<&str>, GameResult)> =
        recs.iter().map(|r| (r.tag("대국결과"), r.result)).collect();
    assert_eq!(
        results,
        [
            (Some("한기권패"), GameResult::ChoWins),
            (Some("한시간패"), GameResult::ChoWins),
            (Some("한 접속 끊김 패"), GameResult::ChoWins),
            (Some("초 접속 끊김 패"), GameResult::HanWins),
        ]
    );
    let (_, pgn, _) = convert_fixture("loss-results.gib", &[]);
    assert_eq!(pgn.matches("[Result \"1-0\"]").count(), 3, "{pgn}");
    assert_eq!(pgn.matches("[Result \"0-1\"]").count(), 1);
}

#[test]
fn letter_coordinates_are_read_where_unambiguous() {
    let recs = records("letter-coordinates.gib");
    let uci: Vec<String> = recs[0].moves()[..3]
        .iter()
        .map(|&m| recs[0].start.move_text(m, janggi_core::Notation::Uci))
        .collect();
    // `i3卒h3 a6兵b6 i0車i4`: ranks from 0 at Cho's back rank.
    assert_eq!(uci, ["i4h4", "a7b7", "i1i5"]);
    assert_eq!(recs[0].plies.len(), 91);
}

#[test]
fn move_times_after_the_moves_are_skipped() {
    let recs = records("move-times.gib");
    assert_eq!(recs[0].plies.len(), 131);
    assert!(!has_warning(&recs[0], |w| matches!(
        w,
        RecordWarning::MoveCountMismatch { .. }
    )));
}

#[test]
fn a_cyber_janggi_handicap_board_is_read_with_its_sides_exchanged() {
    let recs = records("handicap-sides-swapped.gib");
    assert!(has_warning(&recs[0], |w| *w == RecordWarning::BoardSidesSwapped));
    // Han, the 9단, gives the handicap: no guards.
    let han_guards = recs[0]
        .start
        .fen()
        .split(' ')
        .next()
        .unwrap()
        .matches('a')
        .count();
    assert_eq!(han_guards, 0);
    assert_eq!(recs[0].result, GameResult::ChoWins);
    assert_eq!(recs[0].plies.len(), 106);
}

#[test]
fn two_passes_then_play_says_the_passes_ended_the_game() {
    let text = "[초차림 \"마상상마\"]\n[한차림 \"마상상마\"]\n\n1. 한수쉼 2. 한수쉼 3. 79卒78\n";
    let games = read_any(text.as_bytes());
    let e = games[0].as_ref().unwrap_err().to_string();
    assert!(
        e.contains("move 3 '79卒78': two passes ended the game at move 2 under KJF rules"),
        "{e}"
    );
}

#[test]
fn a_truncated_last_game_keeps_its_moves_marked_incomplete() {
    let bytes = fixture("kakao-eof.gib");
    let full = records("kakao-eof.gib");
    // Cut inside the last game's 40th move text (`40. 12漢包…`).
    let text = janggi_records::gib::decode(&bytes).0;
    let last = text.rfind("[대회명").unwrap();
    let at = last + text[last..].find("40. ").unwrap() + "40. 12".len();
    let cut = janggi_records::gib::encode_cp949(&text[..at]);
    let games = read_any(&cut);
    assert!(games[0].is_ok());
    let last = games[1].as_ref().unwrap();
    assert_eq!(last.plies.len(), 39);
    assert_eq!(last.moves()[..], full[1].moves()[..39]);
    assert_eq!(last.result, GameResult::Unknown);
    assert!(has_warning(last, |w| matches!(
        w,
        RecordWarning::Incomplete { at: 40, .. }
    )));
}

#[test]
fn an_empty_input_says_so_and_fails() {
    let dir = std::env::temp_dir().join(format!("janggi-convert-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, body) in [("empty.gib", ""), ("blank.gib", " \r\n\t\n")] {
        let path = dir.join(name);
        std::fs::write(&path, body).unwrap();
        let o = engine()
            .args(["convert", path.to_str().unwrap(), "--to", "pgn"])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert!(o.stdout.is_empty());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("no games in the input"), "{name}: {err}");
    }
    let (code, _, err) = convert_fixture("move-times.gib", &["--variant", "chess"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown variant 'chess'"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_fixture_cut_anywhere_reads_without_a_panic() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "gib") {
            continue;
        }
        files += 1;
        let bytes = std::fs::read(&path).unwrap();
        for n in (0..bytes.len()).step_by(11) {
            // Every game read or refused with a reason; never a panic.
            for g in read_any(&bytes[..n]) {
                if let Err(e) = g {
                    assert!(!e.to_string().is_empty());
                }
            }
        }
    }
    assert_eq!(files, 9);
}
