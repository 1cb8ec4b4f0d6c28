//! Korean move notation against Fairy-Stockfish's own: for every move of
//! the random games in `tests/data/fsf_notation.txt` (written by
//! `tools/gen_notation_fixture.py` with pyffish), our Latin form equals
//! Fairy-Stockfish's `NOTATION_JANGGI` text, and the Latin, Hangul and Hanja
//! texts all parse back to the same move.

use janggi_core::{KoreanScript, LegalityModel, Notation, Position};

const FIXTURE: &str = include_str!("data/fsf_notation.txt");

#[test]
fn korean_notation_matches_fairy_stockfish() {
    let mut games = 0;
    let mut moves = 0;
    let mut pos = Position::startpos();
    // Two passes in a row end the game; an older fixture went on after
    // them (from the FEN, which forgets the first pass): skip to the next
    // game then.
    let mut passes = 0;
    for (n, line) in FIXTURE.lines().enumerate() {
        let at = n + 1;
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(fen) = line.strip_prefix("fen ") {
            pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("line {at}: {e}"));
            games += 1;
            passes = 0;
            continue;
        }
        if passes >= 2 {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 4, "line {at}: {line}");
        let mv = pos
            .parse_move(f[1], Notation::Uci)
            .unwrap_or_else(|e| panic!("line {at}: {e}"));
        assert_eq!(pos.korean(mv, KoreanScript::Latin), f[2], "line {at}");
        for script in [
            KoreanScript::Latin,
            KoreanScript::Hangul,
            KoreanScript::Hanja,
        ] {
            let text = pos.korean(mv, script);
            assert_eq!(
                pos.parse_korean(&text, LegalityModel::Fsf),
                Ok(mv),
                "line {at}: {text}"
            );
        }
        assert_eq!(
            pos.parse_korean(f[2], LegalityModel::Fsf),
            Ok(mv),
            "line {at}"
        );
        passes = if mv.is_pass() { passes + 1 } else { 0 };
        pos.make(mv);
        moves += 1;
    }
    assert!(
        games >= 100 && moves >= 5_000,
        "{games} games, {moves} moves"
    );
}
