//! The match runner's PGN (crates/janggi-match/src/pgn.rs, written with
//! janggi-records' writer) keeps the runner's tags and comments, reads back
//! with both readers, and converts to GIB and back.

use janggi_core::{rng::SplitMix64, Color, Game, Notation, Position, Rules, Setup};
use janggi_match::engine_process::EngineScore;
use janggi_match::referee::{GameRecord, GameResult, MoveRecord, Termination};
use janggi_records::gib::{read_gib_text, write_gib};
use janggi_records::pgn::read_pgn;

#[test]
fn runner_pgn_converts_to_gib_and_back() {
    let rules = Rules::from_variant("janggimodern").unwrap();
    let start = Position::from_setups(Setup::Smsm, Setup::Msms);
    let mut game = Game::new(start.clone(), rules);
    let mut rng = SplitMix64::new(5);
    let mut moves = Vec::new();
    for i in 0..60 {
        if game.is_over() {
            break;
        }
        let legal = game.legal_moves();
        let mv = legal[rng.below(legal.len())];
        moves.push(MoveRecord {
            mv,
            text: game.position().move_text(mv, Notation::Uci),
            score: Some(EngineScore::Cp(i * 3 - 40)),
            depth: Some(5),
            elapsed_ms: 12,
            book: i < 2,
        });
        game.play(mv).unwrap();
    }
    let rec = GameRecord {
        number: 3,
        players: ["engine-a".into(), "engine-b".into()],
        opening: "setups".into(),
        start_fen: start.fen(),
        variant: "janggimodern".into(),
        rules,
        moves,
        result: GameResult {
            winner: Some(Color::Han),
            termination: Termination::Resign,
            summary_ko: "한 기권승".into(),
            summary_en: "Han wins by resignation".into(),
            detail: None,
        },
        final_fen: game.position().fen(),
        time_controls: ["10+0.1".into(), "10+0.1".into()],
        restart: [false, false],
    };
    let text = janggi_match::pgn::write_game(&rec, "m", "2026.12.01");
    for tag in [
        "[Event \"m\"]",
        "[Date \"2026.12.01\"]",
        "[Round \"3\"]",
        "[White \"engine-a\"]",
        "[Result \"0-1\"]",
        "[Variant \"Janggi\"]",
        "[RuleSet \"janggimodern\"]",
        "[SetUp \"1\"]",
        "[Notation \"UCI\"]",
        "[Opening \"setups\"]",
        "[TimeControl \"10+0.1\"]",
        "[Termination \"resign; 한 기권승\"]",
    ] {
        assert!(text.contains(tag), "{tag} missing:\n{text}");
    }
    assert!(
        text.contains(&format!("[PlyCount \"{}\"]", game.moves().len())),
        "{text}"
    );
    assert!(text.contains(&format!("[Rules \"{rules}\"]")), "{text}");
    assert!(text.contains("[FEN \""), "{text}");
    let first = game
        .start_position()
        .move_text(game.moves()[0], Notation::Uci);
    assert!(text.contains(&format!("1. {first} {{book}}")), "{text}");
    assert!(text.contains("/5 0.012s}"), "{text}");
    assert!(
        text.trim_end()
            .ends_with("{Han wins by resignation: 한 기권승} 0-1"),
        "{text}"
    );
    // The runner's own reader replays it.
    let own = janggi_match::pgn::read_pgn(&text).unwrap().remove(0);
    assert_eq!(own.replay().unwrap().moves(), game.moves());
    assert_eq!(own.termination(), Some(Termination::Resign));
    let r = read_pgn(&text).remove(0).unwrap();
    assert_eq!(r.moves(), game.moves());
    assert_eq!(r.rules, rules);
    assert_eq!(r.result, janggi_records::GameResult::HanWins);
    assert_eq!(r.plies[0].comment.as_deref(), Some("book"));
    assert_eq!(r.setups, Some((Setup::Smsm, Setup::Msms)));
    let gib = write_gib(&r).unwrap();
    assert!(gib.contains("[초대국자 \"engine-a\"]"), "{gib}");
    assert!(
        gib.contains("[대국결과 \"한 기권승\"]") || gib.contains("[대국결과 \"한 승\"]"),
        "{gib}"
    );
    let back = read_gib_text(&gib, rules).remove(0).unwrap();
    assert_eq!(back.moves(), game.moves());
    assert_eq!(back.tag("한대국자"), Some("engine-b"));
}
