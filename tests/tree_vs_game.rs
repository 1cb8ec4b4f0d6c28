//! The search tree's light rule state (`search::tree::Tree`) against the
//! game layer, move by move, under every preset: after each move of a
//! random game the tree must report the same ending as the game (or go on
//! when the game goes on). The games shuffle pieces back and forth on
//! purpose, so repetitions, perpetual checks and `janggimodern`'s Kakao
//! move-repetition rule all happen.

use janggi::game::{EndReason, Game, Outcome, Rules};
use janggi::search::tree::{After, Tree, Verdict};
use janggi::types::rng::SplitMix64;
use janggi::{Color, Move, Notation, Position};
use std::collections::BTreeMap;

const PRESETS: [&str; 5] = [
    "janggikjf",
    "janggi",
    "janggitraditional",
    "janggimodern",
    "janggicasual",
];

/// Whether the tree's verdict (for the side to move after the move)
/// describes the game's outcome.
fn agrees(v: Verdict, o: &Outcome, stm: Color) -> bool {
    match v {
        Verdict::Win => o.winner == Some(stm),
        Verdict::Loss => o.winner == Some(!stm),
        Verdict::Draw => o.winner.is_none(),
        Verdict::Mated => o.winner == Some(!stm) && o.reason == EndReason::Checkmate,
    }
}

/// A move for a random game: often the reverse of the mover's previous
/// move (a shuffle), sometimes a pass, else a random legal move.
fn pick(g: &Game, rng: &mut SplitMix64) -> Move {
    let legal = g.legal_moves();
    let moves = g.moves();
    let r = rng.below(100);
    if r < 60 && moves.len() >= 2 {
        let own = moves[moves.len() - 2];
        if !own.is_pass() {
            if let Some(back) = Move::new(own.to(), own.from()) {
                if legal.contains(&back) {
                    return back;
                }
            }
        }
    }
    if (60..63).contains(&r) && legal.contains(&Move::PASS) {
        return Move::PASS;
    }
    legal[rng.below(legal.len())]
}

#[test]
fn tree_endings_match_the_game_move_by_move() {
    let mut rng = SplitMix64::new(2026);
    let mut endings: BTreeMap<(&str, String), u32> = BTreeMap::new();
    let starts = [
        Position::startpos().fen(),
        // Few pieces: bikjang, counting and repetitions come fast.
        "3k5/4a4/9/9/9/9/9/9/4A4/3K1R3 w - - 0 1".to_string(),
        "4k4/9/4c4/9/9/9/9/4R4/9/4K4 w - - 0 1".to_string(),
    ];
    for game_no in 0..600 {
        let preset = PRESETS[game_no % PRESETS.len()];
        let rules = Rules::from_variant(preset).expect("preset");
        let start = &starts[(game_no / PRESETS.len()) % starts.len()];
        let mut g = Game::new(Position::from_fen(start).expect("start FEN"), rules);
        // A few random plies first, then the tree follows the game.
        let lead = rng.below(6);
        for _ in 0..lead {
            if g.is_over() || g.legal_moves().is_empty() {
                break;
            }
            let m = pick(&g, &mut rng);
            g.play(m).expect("legal");
        }
        if g.is_over() {
            continue;
        }
        let mut tree = Tree::new(&g);
        let mut pos = g.position().clone();
        for _ in 0..300 {
            if g.is_over() || g.legal_moves().is_empty() {
                break;
            }
            let m = pick(&g, &mut rng);
            let text = g.position().move_text(m, Notation::Uci);
            let captured = !m.is_pass() && pos.piece_at(m.to()).is_some();
            g.play(m).expect("legal");
            pos.make(m);
            let after = tree.push(&pos, m, captured, pos.in_check());
            let stm = pos.side_to_move();
            let context = || format!("{preset} {start} moves {:?} last {text}", g.moves());
            match (g.outcome(), after) {
                (None, After::Continue) => {}
                (Some(o), After::End(v)) => {
                    assert!(agrees(v, o, stm), "{v:?} vs {o:?}: {}", context());
                }
                // Mate is found by the search, not by the rule state.
                (Some(o), After::Continue) if o.reason == EndReason::Checkmate => {}
                // The game allows a 4th occurrence under `forbid` only when
                // nothing else is legal; the tree refuses it.
                (_, After::RepetitionForbidden) => break,
                (o, a) => panic!("game {o:?}, tree {a:?}: {}", context()),
            }
            if let Some(o) = g.outcome() {
                *endings
                    .entry((preset, format!("{:?}", o.reason)))
                    .or_default() += 1;
            }
        }
    }
    // The test must have exercised the history rules, the Kakao rule
    // (a repetition loss under janggimodern) included.
    let count = |preset: &str, reason: &str| {
        endings
            .get(&(preset, reason.to_string()))
            .copied()
            .unwrap_or(0)
    };
    assert!(count("janggimodern", "RepetitionLoss") > 0, "{endings:?}");
    assert!(count("janggi", "ScoreRepetition") > 0, "{endings:?}");
    assert!(count("janggikjf", "ScoreBikjang") > 0, "{endings:?}");
}
