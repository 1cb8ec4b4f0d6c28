//! Long games (issue 17): a `position` that extends the previous one plays
//! only the new moves and leaves exactly the game a full replay builds
//! (rules, repetition counts and all); anything else rebuilds the game; and
//! the search's rule state taken over from a long game agrees with the
//! game layer about the repetitions in it.

use janggi::protocol::{MemorySink, Session};
use janggi::rng::SplitMix64;
use janggi::search::tree::{After, Tree};
use janggi::{Game, Rules};
use janggi::{Move, Notation, PieceKind, Position};

/// A game of `plies` plies in which only the generals and guards move, in
/// their palaces, the generals whenever they can: no capture, no check,
/// and positions repeated up to the 4th occurrence the rules forbid.
fn palace_shuffle(plies: usize, seed: u64) -> Vec<Move> {
    let mut g = Game::new(Position::startpos(), Rules::default());
    let mut rng = SplitMix64::new(seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        let pos = g.position();
        let quiet = |kind: PieceKind| -> Vec<Move> {
            g.legal_moves()
                .iter()
                .copied()
                .filter(|m| {
                    !m.is_pass()
                        && pos.piece_at(m.to()).is_none()
                        && pos.piece_at(m.from()).is_some_and(|p| p.kind == kind)
                })
                .collect()
        };
        let mut pool = quiet(PieceKind::General);
        if pool.is_empty() {
            pool = quiet(PieceKind::Guard);
        }
        assert!(!pool.is_empty(), "no palace move at ply {}", moves.len());
        let m = pool[rng.below(pool.len())];
        g.play(m).expect("legal");
        moves.push(m);
    }
    assert!(!g.is_over());
    moves
}

fn texts(moves: &[Move]) -> Vec<String> {
    let mut p = Position::startpos();
    moves
        .iter()
        .map(|&m| {
            let t = p.move_text(m, Notation::Uci);
            p.make(m);
            t
        })
        .collect()
}

fn line(head: &str, texts: &[String]) -> String {
    if texts.is_empty() {
        head.to_string()
    } else {
        format!("{head} moves {}", texts.join(" "))
    }
}

fn replay(moves: &[Move], rules: Rules) -> Game {
    Game::replay(Position::startpos(), rules, moves).expect("legal moves")
}

#[test]
fn position_extending_the_last_one_builds_the_same_game() {
    let moves = palace_shuffle(300, 5);
    let texts = texts(&moves);
    let sink = MemorySink::default();
    let mut s = Session::new(sink.clone());
    s.handle_line("uci");
    // A game growing a move at a time, as a GUI sends it.
    for k in 0..=moves.len() {
        s.handle_line(&line("position startpos", &texts[..k]));
        assert!(
            *s.engine().game() == replay(&moves[..k], Rules::default()),
            "after {k} moves"
        );
    }
    // Not an extension: a different last move, a shorter list, another start.
    let mut other = texts[..200].to_vec();
    other.push(texts[201].clone());
    s.handle_line(&line("position startpos", &other));
    assert_eq!(s.engine().game().ply(), 200, "{:?}", sink.lines().last());
    s.handle_line(&line("position startpos", &texts[..150]));
    assert!(*s.engine().game() == replay(&moves[..150], Rules::default()));
    let fen = Position::startpos().fen();
    s.handle_line(&line(&format!("position fen {fen}"), &texts[..160]));
    assert!(*s.engine().game() == replay(&moves[..160], Rules::default()));
    // A rule change replays the game; the next extension uses the new rules.
    s.handle_line("setoption name UCI_Variant value janggimodern");
    let modern = Rules::from_variant("janggimodern").expect("preset");
    s.handle_line(&line(&format!("position fen {fen}"), &texts[..170]));
    assert!(*s.engine().game() == replay(&moves[..170], modern));
    // An illegal move keeps the valid prefix, every time it is sent.
    s.handle_line("setoption name UCI_Variant value janggikjf");
    let mut bad = texts[..40].to_vec();
    bad.push("a1a9".to_string());
    for _ in 0..2 {
        let before = sink.lines().len();
        s.handle_line(&line("position startpos", &bad));
        assert!(*s.engine().game() == replay(&moves[..40], Rules::default()));
        assert!(
            sink.lines()[before..]
                .iter()
                .any(|l| l.starts_with("info string error")),
            "{:?}",
            &sink.lines()[before..]
        );
    }
    s.handle_line(&line("position startpos", &texts[..41]));
    assert!(*s.engine().game() == replay(&moves[..41], Rules::default()));
}

#[test]
fn tree_taken_over_from_a_long_game_counts_its_repetitions() {
    // 3,000 plies without a capture: the tree imports the counts once and
    // must refuse exactly the moves the game forbids (a 4th occurrence).
    let moves = palace_shuffle(3000, 9);
    let game = replay(&moves, Rules::default());
    let legal = game.legal_moves();
    let pos = game.position();
    let mut tree = Tree::new(&game);
    let mut p = pos.clone();
    let mut forbidden = 0;
    for m in pos.legal_moves(game.model()) {
        let captured = !m.is_pass() && p.piece_at(m.to()).is_some();
        p.make(m);
        let after = tree.push(&p, m, captured, p.in_check());
        tree.pop();
        p.unmake();
        let refused = after == After::RepetitionForbidden;
        assert_eq!(refused, !legal.contains(&m), "{m:?}: {after:?}");
        forbidden += usize::from(refused);
    }
    assert!(
        forbidden > 0,
        "the test game must reach forbidden repetitions"
    );
}
