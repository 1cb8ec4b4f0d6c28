//! SAN against Fairy-Stockfish's own on every move of the fixture
//! (tests/data/fsf_notation.txt, made by tools/gen_notation_fixture.py
//! with pyffish; janggi-core's fixture, read from there).

use janggi_core::{LegalityModel, Notation, Position};
use janggi_records::san::{parse_san, write_san};

#[test]
fn san_matches_fairy_stockfish_on_every_fixture_move() {
    let text = include_str!("../../janggi-core/tests/data/fsf_notation.txt");
    let mut pos: Option<Position> = None;
    let (mut moves, mut games, mut passes, mut checks, mut captures) = (0, 0, 0, 0, 0);
    for line in text.lines() {
        if let Some(fen) = line.strip_prefix("fen ") {
            pos = Some(Position::from_fen(fen).unwrap());
            games += 1;
            continue;
        }
        let Some(rest) = line.strip_prefix("move ") else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        let (uci, san) = (f[0], f[2]);
        let p = pos.as_mut().unwrap();
        let mv = p.parse_move(uci, Notation::Uci).unwrap();
        assert_eq!(write_san(p, mv), san, "writing {uci} in {}", p.fen());
        assert_eq!(
            parse_san(p, san, LegalityModel::Fsf),
            Ok(mv),
            "reading {san} in {}",
            p.fen()
        );
        passes += usize::from(mv.is_pass());
        checks += usize::from(san.ends_with('+') || san.ends_with('#'));
        captures += usize::from(san.contains('x'));
        p.make(mv);
        // The fixture goes on from the FEN after each move (no history).
        *p = Position::from_fen(&p.fen()).unwrap();
        moves += 1;
    }
    assert_eq!(games, 200);
    assert!(moves > 10_000, "{moves} moves");
    assert!(passes > 0 && checks > 100 && captures > 100);
}
