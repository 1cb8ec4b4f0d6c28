//! GIB and PGN: round trips over generated games, hand-written records in
//! CP949 and UTF-8, and broken input.

use janggi_core::{
    rng::SplitMix64, Color, EndReason, Game, KoreanScript, Move, Notation, Position, Rules, Setup,
};
use janggi_records::gib::{encode_cp949, read_gib, read_gib_text, write_gib, TextEncoding};
use janggi_records::pgn::{read_pgn, write_pgn, MoveStyle};
use janggi_records::{GameErrorKind, GameResult, MoveError, Ply, Record, RecordWarning};

/// A random legal playout: passes, captures and checks preferred now and
/// then, until the game ends or `max` plies.
fn playout(start: Position, rules: Rules, seed: u64, max: usize) -> Game {
    let mut rng = SplitMix64::new(seed);
    let mut game = Game::new(start, rules);
    for _ in 0..max {
        if game.is_over() {
            break;
        }
        let legal: Vec<Move> = game.legal_moves().iter().copied().collect();
        if legal.is_empty() {
            break;
        }
        let pos = game.position();
        let pick = match rng.below(10) {
            0 if legal.contains(&Move::PASS) => Some(Move::PASS),
            1..=3 => {
                let caps: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| !m.is_pass() && pos.piece_at(m.to()).is_some())
                    .collect();
                (!caps.is_empty()).then(|| caps[rng.below(caps.len())])
            }
            4 => {
                let checks: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|&m| pos.gives_check(m))
                    .collect();
                (!checks.is_empty()).then(|| checks[rng.below(checks.len())])
            }
            _ => None,
        };
        let mv = pick.unwrap_or_else(|| legal[rng.below(legal.len())]);
        game.play(mv).unwrap();
    }
    game
}

fn with_tags(game: &Game, i: usize) -> Record {
    let mut rec = Record::from_game(game);
    rec.tags = vec![
        ("대회명".into(), format!("시험 대회 {i}")),
        ("회전".into(), (i % 7).to_string()),
        ("대국일자".into(), "2026.12.01".into()),
        ("대국장소".into(), "서울".into()),
        ("초대국자".into(), format!("초선수{i}")),
        ("한대국자".into(), format!("한선수{i}")),
        ("제한시간".into(), "10분 30초 3회".into()),
        ("해설".into(), "extra tag".into()),
    ];
    rec.intro = Some("대국 전 {설명}".into());
    for (j, p) in rec.plies.iter_mut().enumerate() {
        if j % 9 == 4 {
            p.comment = Some(format!("수 {j} 설명"));
        }
    }
    rec
}

fn moves_and_comments(rec: &Record) -> Vec<(Move, Option<String>)> {
    rec.plies
        .iter()
        .map(|p| (p.mv, p.comment.clone()))
        .collect()
}

/// Rules with a move limit, so that long playouts end by counting.
fn counting_rules() -> Rules {
    let mut r = Rules::default();
    r.set_option("MoveLimit", "150").unwrap();
    r
}

#[test]
fn gib_round_trips_generated_games_from_every_setup() {
    let rules = counting_rules();
    let (mut passes, mut captures, mut checks, mut counted) = (0, 0, 0, 0);
    let mut file = String::new();
    let mut originals = Vec::new();
    let mut i = 0;
    for han in Setup::ALL {
        for cho in Setup::ALL {
            i += 1;
            let game = playout(Position::from_setups(han, cho), rules, i as u64, 400);
            if let Some(o) = game.outcome() {
                counted += usize::from(o.reason.is_counting());
            }
            let mut g = Game::new(game.start_position().clone(), rules);
            for m in game.moves() {
                passes += usize::from(m.is_pass());
                captures += usize::from(!m.is_pass() && g.position().piece_at(m.to()).is_some());
                checks += usize::from(g.position().gives_check(m));
                g.play(m).unwrap();
            }
            let rec = with_tags(&game, i);
            let text = write_gib(&rec).unwrap();
            // One game alone, then all in one file.
            let back = read_gib_text(&text, rules);
            let b = back[0].as_ref().unwrap();
            assert_eq!(moves_and_comments(b), moves_and_comments(&rec), "game {i}");
            assert_eq!(b.setups, Some((han, cho)));
            assert_eq!(b.intro.as_deref(), Some("대국 전 (설명)"));
            assert_eq!(b.result, rec.result);
            assert!(b.warnings.is_empty(), "{:?}", b.warnings);
            for (k, v) in &rec.tags {
                assert_eq!(b.tag(k), Some(v.as_str()), "tag {k}");
            }
            assert_eq!(
                write_gib(b).unwrap(),
                text,
                "a second round trip is identical"
            );
            file.push_str(&text);
            originals.push(rec);
        }
    }
    assert!(
        passes > 0 && captures > 50 && checks > 5,
        "{passes} {captures} {checks}"
    );
    assert!(counted > 0, "no game ended by counting");
    // The whole file, in CP949 as the Korean apps write it.
    let f = janggi_records::gib::read_gib_with(&encode_cp949(&file), rules);
    assert_eq!(f.encoding, TextEncoding::Cp949);
    assert_eq!(f.games.len(), 16);
    for (g, o) in f.games.iter().zip(&originals) {
        assert_eq!(g.as_ref().unwrap().moves(), o.moves());
    }
}

#[test]
fn pgn_round_trips_generated_games_in_san_and_uci() {
    let mut i = 0;
    for han in Setup::ALL {
        for cho in Setup::ALL {
            i += 1;
            for rules in [counting_rules(), Rules::from_variant("janggi").unwrap()] {
                let game = playout(Position::from_setups(han, cho), rules, 100 + i, 400);
                let rec = with_tags(&game, i as usize);
                for style in [MoveStyle::San, MoveStyle::Uci] {
                    let text = write_pgn(&rec, style);
                    let back = read_pgn(&text);
                    assert_eq!(back.len(), 1);
                    let b = back[0].as_ref().unwrap_or_else(|e| panic!("{e}\n{text}"));
                    assert_eq!(moves_and_comments(b), moves_and_comments(&rec));
                    assert_eq!(b.start.fen(), rec.start.fen());
                    assert_eq!(b.rules, rules);
                    assert_eq!(b.result, rec.result);
                    assert_eq!(b.tag("Event"), rec.tag("대회명"));
                    assert_eq!(b.tag("White"), rec.tag("초대국자"));
                    assert_eq!(b.tag("해설"), Some("extra tag"));
                    // And on to GIB: the header comes back under its GIB names.
                    let gib = write_gib(b).unwrap();
                    let g = read_gib_text(&gib, rules);
                    let g = g[0].as_ref().unwrap();
                    assert_eq!(g.moves(), rec.moves());
                    for (k, v) in &rec.tags {
                        assert_eq!(g.tag(k), Some(v.as_str()), "tag {k}");
                    }
                }
            }
        }
    }
}

#[test]
fn bikjang_and_counting_endings_round_trip_in_pgn() {
    // Fairy-Stockfish's bikjang: Cho opens the file, Han passes, the game
    // ends by counting the bikjang.
    let rules = Rules::from_variant("janggi").unwrap();
    let start = Position::from_fen("9/4k4/9/9/9/4P4/9/9/4K4/9 w - - 0 1").unwrap();
    let mut game = Game::new(start, rules);
    let m = game.position().parse_move("e5d5", Notation::Uci).unwrap();
    game.play(m).unwrap();
    game.play(Move::PASS).unwrap();
    let reason = game.outcome().map(|o| o.reason);
    assert!(
        matches!(
            reason,
            Some(EndReason::ScoreBikjang | EndReason::DrawBikjang)
        ),
        "{reason:?}"
    );
    let rec = Record::from_game(&game);
    for style in [MoveStyle::San, MoveStyle::Uci] {
        let text = write_pgn(&rec, style);
        let b = read_pgn(&text).remove(0).unwrap();
        assert_eq!(b.moves(), rec.moves());
        assert_eq!(b.result, rec.result);
        assert_eq!(
            b.game().unwrap().outcome().map(|o| o.reason),
            reason,
            "the ending replays"
        );
    }
}

/// A hand-written record: Korean and Hanja moves, the side written before
/// the piece, glued move numbers, a pass, 장군 marks, comments across
/// lines, an extra tag and no 대국장소.
const HAND: &str = "[대회명 \"제1회 시험 대회\"]
[회전 \"결승\"]
[대국일자 \"2024.05.05\"]
[초대국자 \"김초\"]
[한대국자 \"이한\"]
[제한시간 \"30분\"]
[초차림 \"상마상마\"]
[한차림 \"마상상마\"]
[대국결과 \"한 기권승\"]
[총수 \"6\"]
[메모 \"손으로 쓴 기보\"]

{첫 수 전
여러 줄 설명}
1. 79卒78 2. 12馬33 {한이 마를 올림}
3.03馬84 4. 한수쉼
5. 71楚卒72 6. 14士15 장군
";

#[test]
fn hand_written_records_in_utf8_and_cp949() {
    let check = |rec: &Record| {
        assert_eq!(rec.tag("대국장소"), None);
        assert_eq!(rec.tag("메모"), Some("손으로 쓴 기보"));
        assert_eq!(rec.cho_player(), Some("김초"));
        assert_eq!(rec.result, GameResult::HanWins);
        assert_eq!(rec.setups, Some((Setup::Mssm, Setup::Smsm)));
        assert_eq!(rec.intro.as_deref(), Some("첫 수 전\n여러 줄 설명"));
        assert_eq!(rec.plies[1].comment.as_deref(), Some("한이 마를 올림"));
        assert_eq!(rec.plies[3].mv, Move::PASS);
        let uci: Vec<String> = {
            let mut g = Game::new(rec.start.clone(), rec.rules);
            rec.plies
                .iter()
                .map(|p| {
                    let t = g.position().move_text(p.mv, Notation::Uci);
                    g.play(p.mv).unwrap();
                    t
                })
                .collect()
        };
        assert_eq!(uci, ["i4h4", "b10c8", "c1d3", "e9e9", "a4b4", "d10e10"]);
        assert!(rec.warnings.is_empty(), "{:?}", rec.warnings);
    };
    let utf8 = read_gib(HAND.as_bytes());
    assert_eq!(utf8.encoding, TextEncoding::Utf8);
    check(utf8.games[0].as_ref().unwrap());
    let cp = read_gib(&encode_cp949(HAND));
    assert_eq!(cp.encoding, TextEncoding::Cp949);
    check(cp.games[0].as_ref().unwrap());
    // Writing keeps the header (names, order, values) and the moves.
    let rec = utf8.games[0].as_ref().unwrap();
    let out = write_gib(rec).unwrap();
    let back = read_gib_text(&out, Rules::default());
    let b = back[0].as_ref().unwrap();
    assert_eq!(b.tags, rec.tags);
    assert_eq!(b.moves(), rec.moves());
}

#[test]
fn han_setup_read_the_other_way_with_a_warning() {
    // Han's 상마상마 read from Cho's left puts an elephant on b10, so Han's
    // 12馬33 (b10c8) is illegal; read from Han's own left (SMSM) a horse
    // stands there. The reader recovers and says so.
    let text = "[초대국자 \"A\"]\n[한대국자 \"B\"]\n[초차림 \"마상상마\"]\n[한차림 \"상마상마\"]\n\n1. 02馬83 2. 12馬33\n";
    let rec = read_gib(text.as_bytes()).games.remove(0).unwrap();
    assert_eq!(
        rec.warnings,
        [RecordWarning::HanSetupReversed {
            written: "상마상마".into(),
            used: Setup::Smsm
        }]
    );
    assert_eq!(rec.plies.len(), 2);
    // The same text with a move legal under neither reading is an error.
    let bad = text.replace("12馬33", "55馬45");
    let e = read_gib(bad.as_bytes()).games.remove(0).unwrap_err();
    assert!(
        matches!(e.kind, GameErrorKind::BadMove { number: 2, .. }),
        "{e}"
    );
}

/// A legal game of `n` plies in GIB text, with the players named.
fn gib_game(seed: u64, n: usize, cho: &str, han: &str) -> (String, Vec<Move>) {
    let rules = Rules {
        allow_pass: false,
        ..Rules::default()
    };
    let mut game;
    let mut s = seed;
    loop {
        game = playout(Position::startpos(), rules, s, n);
        if game.moves().len() == n {
            break;
        }
        s += 1000;
    }
    let mut rec = Record::from_game(&game);
    rec.result = GameResult::Unknown;
    rec.tags = vec![
        ("초대국자".into(), cho.into()),
        ("한대국자".into(), han.into()),
    ];
    (write_gib(&rec).unwrap(), game.moves())
}

#[test]
fn an_illegal_move_at_move_37_names_game_players_and_move() {
    let (g1, m1) = gib_game(1, 50, "가", "나");
    let (g2, _) = gib_game(2, 50, "박초", "최한");
    let (g3, m3) = gib_game(3, 50, "다", "라");
    // Move 37 (Cho's) becomes a chariot move from an empty point.
    let g2 = {
        let start = g2.find("37. ").unwrap() + 4;
        let end = start + g2[start..].find(' ').unwrap();
        format!("{}55車45{}", &g2[..start], &g2[end..])
    };
    let file = format!("{g1}{g2}{g3}");
    let games = read_gib(&encode_cp949(&file)).games;
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].as_ref().unwrap().moves(), m1);
    assert_eq!(games[2].as_ref().unwrap().moves(), m3);
    let e = games[1].as_ref().unwrap_err();
    assert_eq!(e.index, 2);
    assert_eq!(
        (e.cho.as_deref(), e.han.as_deref()),
        (Some("박초"), Some("최한"))
    );
    match &e.kind {
        GameErrorKind::BadMove {
            number,
            text,
            error,
        } => {
            assert_eq!((*number, text.as_str()), (37, "55車45"));
            assert!(matches!(**error, MoveError::Korean(_)), "{error:?}");
        }
        k => panic!("{k:?}"),
    }
    let msg = e.to_string();
    assert!(
        msg.contains("game 2") && msg.contains("박초") && msg.contains("move 37"),
        "{msg}"
    );
}

#[test]
fn truncated_file_keeps_the_games_before() {
    let (g1, m1) = gib_game(4, 30, "가", "나");
    let (g2, _) = gib_game(5, 30, "다", "라");
    let file = format!("{g1}{g2}");
    // Cut in the middle of a move of game 2, and inside a comment.
    let cut = &file[..g1.len() + g2.len() / 2];
    let cut = &cut[..(0..=cut.len())
        .rev()
        .find(|&i| cut.is_char_boundary(i))
        .unwrap()];
    let games = read_gib_text(cut, Rules::default());
    assert_eq!(games[0].as_ref().unwrap().moves(), m1);
    assert_eq!(games.len(), 2);
    let open = format!("{g1}[초대국자 \"x\"]\n\n1. 79卒78 {{unfinished");
    let games = read_gib_text(&open, Rules::default());
    assert!(games[0].is_ok());
    // The file ends inside the last game's comment: its moves are kept,
    // marked incomplete.
    let last = games[1].as_ref().unwrap();
    assert_eq!(last.plies.len(), 1);
    assert!(
        last.warnings
            .iter()
            .any(|w| matches!(w, RecordWarning::Incomplete { .. })),
        "{:?}",
        last.warnings
    );
    assert_eq!(last.result, GameResult::Unknown);
    // Cut at every byte: never a panic.
    let bytes = encode_cp949(&file);
    for n in (0..bytes.len()).step_by(7) {
        let _ = read_gib(&bytes[..n]);
    }
}

#[test]
fn unknown_setup_name_is_an_error_for_that_game_only() {
    let (g1, _) = gib_game(6, 10, "가", "나");
    let bad = "[초대국자 \"X\"]\n[한대국자 \"Y\"]\n[초차림 \"마마상상\"]\n[한차림 \"마상상마\"]\n\n1. 79卒78\n\n";
    let file = format!("{g1}{bad}{g1}");
    let games = read_gib_text(&file, Rules::default());
    assert_eq!(games.len(), 3);
    assert!(games[0].is_ok() && games[2].is_ok());
    let e = games[1].as_ref().unwrap_err();
    assert_eq!(
        e.kind,
        GameErrorKind::UnknownSetup {
            tag: "초차림".into(),
            value: "마마상상".into()
        }
    );
    assert!(e.to_string().contains("마마상상"));
}

#[test]
fn binary_garbage_never_panics() {
    let mut rng = SplitMix64::new(99);
    for len in [0usize, 1, 17, 1000, 100_000] {
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        let f = read_gib(&bytes);
        assert!(f.games.iter().all(Result::is_err), "garbage read as a game");
        let _ = read_pgn(&String::from_utf8_lossy(&bytes));
        let _ = janggi_records::read_any(&bytes);
    }
}

#[test]
fn a_50_mb_file_is_read_without_trouble() {
    let (g1, m1) = gib_game(7, 40, "가", "나");
    let (g2, _) = gib_game(8, 40, "큰", "파일");
    // Game 2 carries a 50 MB comment after move 10 (with text that looks
    // like tags and moves) and an illegal move 37.
    let filler = "가나다 abc 79卒78\n[대회명 \"x\"]\n".repeat(50 * 1024 * 1024 / 30);
    let g2 = {
        let at = g2.find("11. ").unwrap();
        let g2 = format!("{}{{{filler}}} {}", &g2[..at], &g2[at..]);
        let start = g2.find("37. ").unwrap() + 4;
        let end = start + g2[start..].find(' ').unwrap();
        format!("{}55車45{}", &g2[..start], &g2[end..])
    };
    drop(filler);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.gib");
    std::fs::write(&path, format!("{g1}{g2}{g1}")).unwrap();
    drop(g2);
    let bytes = std::fs::read(&path).unwrap();
    assert!(bytes.len() >= 50 * 1024 * 1024, "{}", bytes.len());
    let t = std::time::Instant::now();
    let games = read_gib(&bytes).games;
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].as_ref().unwrap().moves(), m1);
    assert_eq!(games[2].as_ref().unwrap().moves(), m1);
    let e = games[1].as_ref().unwrap_err();
    assert!(
        matches!(e.kind, GameErrorKind::BadMove { number: 37, .. }),
        "{e}"
    );
    assert!(t.elapsed().as_secs() < 60, "{:?}", t.elapsed());
    drop(dir);
}

#[test]
fn pgn_from_pychess_and_from_the_match_runner() {
    // pychess-style: SAN, no FEN (the standard start), Variant only.
    let pychess = "[Event \"Casual game\"]\n[Site \"pychess\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[Variant \"Janggi\"]\n\n1. Hc3 Hc8 2. Ade1 {guard} Ke9 3. Ke2 *\n";
    let r = read_pgn(pychess).remove(0).unwrap();
    assert_eq!(r.rules, Rules::from_variant("janggi").unwrap());
    assert_eq!(r.result, GameResult::ChoWins);
    assert_eq!(r.plies[2].comment.as_deref(), Some("guard"));
    assert_eq!(r.plies[4].mv, Move::PASS);
    assert_eq!(r.plies[3].mv, Move::PASS);
    // The runner's: UCI, RuleSet and Rules, score comments, a variation.
    let runner = "[Event \"m\"]\n[White \"e1\"]\n[Black \"e2\"]\n[Result \"1/2-1/2\"]\n[Variant \"Janggi\"]\n[RuleSet \"janggimodern\"]\n[FEN \"rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1\"]\n[SetUp \"1\"]\n[Notation \"UCI\"]\n\n1. b1c3 {+0.10/3 0.1s} b10c8 $1 (2. a4a5) 2. a1a2 {-0.05/4 0.2s} e9e9 1/2-1/2\n";
    let r = read_pgn(runner).remove(0).unwrap();
    assert_eq!(r.rules, Rules::from_variant("janggimodern").unwrap());
    assert_eq!(r.plies.len(), 4);
    assert_eq!(r.plies[0].comment.as_deref(), Some("+0.10/3 0.1s"));
    assert_eq!(r.result, GameResult::Draw);
    // Each variant name picks its rules.
    for v in [
        "janggicasual",
        "janggimodern",
        "janggitraditional",
        "janggi",
    ] {
        let t = format!("[Variant \"{v}\"]\n\n1. Hc3 *\n");
        let r = read_pgn(&t).remove(0).unwrap();
        assert_eq!(r.rules, Rules::from_variant(v).unwrap(), "{v}");
    }
    // A bad move names the game and the move number; the next game reads.
    let two =
        "[White \"x\"]\n[Black \"y\"]\n\n1. Hc3 Hc8 2. Hc3 *\n\n[Event \"ok\"]\n\n1. b1c3 *\n";
    let games = read_pgn(two);
    let e = games[0].as_ref().unwrap_err();
    assert!(matches!(&e.kind, GameErrorKind::BadMove { number: 2, text, .. } if text == "Hc3"));
    assert!(e.to_string().contains("(x – y)"), "{e}");
    assert!(games[1].is_ok());
    let bad_variant = read_pgn("[Variant \"xiangqi\"]\n\n1. Hc3 *\n");
    assert!(matches!(
        bad_variant[0].as_ref().unwrap_err().kind,
        GameErrorKind::BadRules(_)
    ));
}

#[test]
fn korean_moves_are_written_as_fairy_stockfish_and_records_do() {
    // The GIB writer's move text is janggi-core's Hanja notation.
    let pos = Position::startpos();
    let m = pos.parse_move("i4h4", Notation::Uci).unwrap();
    assert_eq!(pos.korean(m, KoreanScript::Hanja), "79卒78");
    let rec = Record {
        plies: vec![Ply {
            mv: m,
            comment: None,
        }],
        ..Record::from_game(&Game::new(pos, Rules::default()))
    };
    let text = write_gib(&rec).unwrap();
    assert!(text.contains("1. 79卒78"), "{text}");
    assert!(text.contains("[초차림 \"마상상마\"]") && text.contains("[총수 \"1\"]"));
    assert_eq!(Color::Cho, rec.start.side_to_move());
}
