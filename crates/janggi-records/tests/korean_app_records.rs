//! Real records from a Korean app (tests/data/hangame-2010.gib, CP949, see
//! tests/data/hangame-2010.md): they read, every move is legal, and
//! GIB → PGN → GIB keeps the header and the moves.

use janggi_core::{Move, Rules, Setup};
use janggi_records::gib::{encode_cp949, read_gib, read_gib_text, write_gib, TextEncoding};
use janggi_records::pgn::{read_pgn, write_pgn, MoveStyle};
use janggi_records::{GameErrorKind, GameResult, MoveError, Record, RecordWarning};

const FILE: &[u8] = include_bytes!("data/hangame-2010.gib");

fn games() -> Vec<Record> {
    let f = read_gib(FILE);
    assert_eq!(f.encoding, TextEncoding::Cp949);
    f.games
        .into_iter()
        .map(|g| g.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

#[test]
fn the_apps_records_read_and_every_move_is_legal() {
    let games = games();
    assert_eq!(games.len(), 3);
    for (g, (plies, cho, result)) in games.iter().zip([
        (93, "soo6168 4단", GameResult::ChoWins),
        (116, "ksn943102 6단", GameResult::HanWins),
        (89, "페빠마리솔 4단", GameResult::ChoWins),
    ]) {
        assert_eq!(g.plies.len(), plies, "총수");
        assert_eq!(g.tag("총수"), Some(plies.to_string().as_str()));
        assert_eq!(g.cho_player(), Some(cho));
        assert_eq!(g.result, result);
        assert_eq!(
            g.tag("대국장소").map(|s| s.starts_with("한게임")),
            Some(true)
        );
        // Every move replays under the record's rules (KJF's).
        let game = g.game().expect("every move legal");
        assert_eq!(game.ply() as usize, plies);
        assert!(g.warnings.is_empty(), "{:?}", g.warnings);
    }
    // Game 2 has Cho's two passes (moves 61 and 63).
    let passes: Vec<usize> = games[1]
        .plies
        .iter()
        .enumerate()
        .filter(|(_, p)| p.mv == Move::PASS)
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(passes, [61, 63]);
    // Setups: game 3 is 상마상마 for Cho and 마상상마 for Han.
    assert_eq!(games[2].setups, Some((Setup::Mssm, Setup::Smsm)));
}

#[test]
fn gib_to_pgn_to_gib_keeps_header_and_moves() {
    for g in games() {
        for style in [MoveStyle::San, MoveStyle::Uci] {
            let pgn = write_pgn(&g, style);
            let back = read_pgn(&pgn)
                .remove(0)
                .unwrap_or_else(|e| panic!("{e}\n{pgn}"));
            assert_eq!(back.moves(), g.moves());
            assert_eq!(back.start.fen(), g.start.fen());
            assert_eq!(back.result, g.result);
            let gib = write_gib(&back).unwrap();
            for tag in [
                "대회명",
                "회전",
                "대국일자",
                "대국장소",
                "초대국자",
                "한대국자",
                "제한시간",
                "총수",
            ] {
                assert!(
                    gib.contains(&format!("[{tag} \"{}\"]", g.tag(tag).unwrap())),
                    "{tag} lost:\n{gib}"
                );
            }
            // And in CP949, as the apps read it.
            let again = read_gib(&encode_cp949(&gib)).games.remove(0).unwrap();
            assert_eq!(again.moves(), g.moves());
            assert_eq!(again.setups, g.setups);
            for (k, v) in &g.tags {
                if k != "대국결과" {
                    assert_eq!(again.tag(k), Some(v.as_str()), "{k}");
                }
            }
            assert_eq!(again.result, g.result);
        }
    }
}

#[test]
fn a_capture_naming_the_wrong_piece_is_a_typed_error() {
    let text = encoding_rs::EUC_KR.decode(FILE).0.into_owned();
    // Move 32 of game 1: Han's elephant takes the soldier on 74.
    assert!(text.contains("46漢象74卒장군"));
    let bad = text.replacen("46漢象74卒장군", "46漢象74車장군", 1);
    let games = read_gib_text(&bad, Rules::default());
    match &games[0] {
        Err(e) => match &e.kind {
            GameErrorKind::BadMove { number, error, .. } => {
                assert_eq!(*number, 32);
                assert!(
                    matches!(**error, MoveError::WrongCapture { named: '車', .. }),
                    "{error:?}"
                );
            }
            k => panic!("{k:?}"),
        },
        Ok(_) => panic!("read a wrong capture"),
    }
    // The file's other games still read.
    assert!(games[1].is_ok() && games[2].is_ok());
}

#[test]
fn a_record_starting_with_hans_move_is_read_with_han_to_move() {
    let text = "[초차림 \"마상상마\"]\n[한차림 \"마상상마\"]\n\n1. 12마33 2. 02마83 3. 41병42\n";
    let g = read_gib_text(text, Rules::default()).remove(0).unwrap();
    assert_eq!(g.warnings, [RecordWarning::HanMovesFirst]);
    assert_eq!(g.plies.len(), 3);
    assert_eq!(g.setups, Some((Setup::Mssm, Setup::Mssm)));
    // It writes back and reads the same way.
    let gib = write_gib(&g).unwrap();
    let back = read_gib_text(&gib, Rules::default()).remove(0).unwrap();
    assert_eq!(back.moves(), g.moves());
    assert_eq!(back.start.fen(), g.start.fen());
}

#[test]
fn stray_bytes_before_a_games_tags_are_skipped() {
    let mut bytes = FILE.to_vec();
    // 0xFF bytes before game 2's first tag, as some apps' files have.
    let tag = encode_cp949("[대회명");
    let second = bytes
        .windows(tag.len())
        .enumerate()
        .filter(|(_, w)| *w == tag.as_slice())
        .nth(1)
        .unwrap()
        .0;
    bytes.splice(second..second, [0xff, 0xff]);
    let f = read_gib(&bytes);
    assert_eq!(f.games.len(), 3);
    assert!(f.games.iter().all(Result::is_ok));
}

#[test]
fn a_handicap_board_is_read_written_and_read_again() {
    // As the apps write a handicap game (접장기): Han's pieces in Hangul,
    // Cho's in Hanja (a soldier fewer), Han to move. The board has the
    // left horses and elephants where the players had not yet put them:
    // the moves (Han's elephant from 12, Cho's horse from 02) show them
    // swapped.
    let board = "차마상사1사상마차/4장/1포5포/졸1졸1졸1졸1졸///兵1兵1兵1兵/1包5包/4將/車象馬士1士象馬車 한 접장기";
    let text = format!(
        "[대회명 \"친선대국\"]\n[판 \"{board}\"]\n\n1. 18마37 2. 08마87 3. 38포35 4. 88포85 5. 12상44 6. 02마83\n"
    );
    let g = read_gib_text(&text, Rules::default()).remove(0).unwrap();
    assert_eq!(g.warnings, [RecordWarning::BoardRearranged]);
    assert_eq!(
        g.start.fen(),
        "rbna1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P2/1C5C1/4K4/RNBA1ABNR b - - 0 1"
    );
    assert_eq!(g.setups, None);
    assert_eq!(g.plies.len(), 6);
    // GIB keeps it as a board; PGN as a FEN; both read back.
    let gib = write_gib(&g).unwrap();
    assert!(
        gib.contains("[판 \"차상마사1사상마차/4장/1포5포/졸1졸1졸1졸1졸///兵1兵1兵1兵/1包5包/4將/車馬象士1士象馬車 한\"]"),
        "{gib}"
    );
    assert_eq!(gib.matches("[판").count(), 1, "{gib}");
    let back = read_gib_text(&gib, Rules::default()).remove(0).unwrap();
    assert_eq!(back.start.fen(), g.start.fen());
    assert_eq!(back.moves(), g.moves());
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
    let pgn = write_pgn(&g, MoveStyle::San);
    assert!(!pgn.contains("[판"), "{pgn}");
    let p = read_pgn(&pgn).remove(0).unwrap();
    assert_eq!(p.moves(), g.moves());
    assert_eq!(write_gib(&p).unwrap(), gib);
    // A board that is not one: a typed error for that game.
    for bad in [
        "차마상/4장",
        "차마상사1사상마차X/////////",
        "차마상사1사상마차사사/////////",
    ] {
        let t = format!("[판 \"{bad} 한\"]\n\n1. 18마37\n");
        let e = read_gib_text(&t, Rules::default()).remove(0).unwrap_err();
        assert!(matches!(e.kind, GameErrorKind::BadFen(_)), "{bad}: {e}");
    }
}
