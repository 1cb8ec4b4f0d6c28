//! The search tree's light rule state (`search::tree::Tree`) against the
//! game layer, move by move, under every preset: after each move of a
//! random game the tree must report the same ending as the game (or go on
//! when the game goes on). The games shuffle pieces back and forth on
//! purpose, so repetitions, perpetual checks and `janggimodern`'s Kakao
//! move-repetition rule all happen.
//!
//! The property test below does the same under every rule set the options
//! can make (each bikjang and repetition rule, scoring on and off, the pass
//! allowed or not, move limits and n-move rules, short ones included so
//! that they fire), with the tree built from the game at a random point
//! (its import of the game history) and search-like excursions: moves
//! pushed and popped again, each judged against a copy of the game. It
//! also compares the light state the search reads (pending bikjang, the
//! last pass, the hash key) with the game's, so the two can never
//! disagree silently.

use janggi::rng::SplitMix64;
use janggi::search::tree::{is_mate, After, Tree, Verdict};
use janggi::{BikjangRule, EndReason, Game, Outcome, RepetitionRule, Rules};
use janggi::{Color, Move, Notation, Position};
use proptest::prelude::*;
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

const BIKJANG: [BikjangRule; 4] = [
    BikjangRule::Off,
    BikjangRule::Kjf,
    BikjangRule::Kja30,
    BikjangRule::Fsf,
];

const REPETITION: [RepetitionRule; 5] = [
    RepetitionRule::Forbid,
    RepetitionRule::Lose,
    RepetitionRule::ScoreEnd,
    RepetitionRule::Fsf,
    RepetitionRule::FsfModern,
];

/// Move limits: none, the spec's values, and short ones that fire within
/// a test game.
const MOVE_LIMITS: [u32; 5] = [0, 0, 150, 24, 41];

/// n-move rules: none, the presets' values, and short ones.
const NO_CAPTURE_LIMITS: [u32; 5] = [0, 0, 100, 12, 33];

const PROP_STARTS: [&str; 8] = [
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
    // Full armies with the generals facing: the KJF rule must wait for
    // the first capture, the KJA rule must wait for the points to drop.
    "rnba1abnr/4k4/1c5c1/p1p2pp1p/9/9/P1P2PP1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
    // Facing generals with Cho on exactly 30 points (KJA: "fewer than 30").
    "r3k3c/9/9/9/9/9/P1P6/9/9/R3K3R w - - 0 1",
    "3k5/4a4/9/9/9/9/9/9/4A4/3K1R3 w - - 0 1",
    "4k4/9/4c4/9/9/9/9/4R4/9/4K4 w - - 0 1",
    "r3k4/9/9/9/9/9/9/9/4K4/R8 w - - 0 1",
    "4r4/3k5/9/9/9/9/9/9/3p5/4K4 w - - 0 1",
    "3ak4/4a4/4c4/2p3p2/9/9/2P3P2/4C4/4A4/3AK4 b - - 90 1",
];

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        0..4usize,
        0..5usize,
        any::<bool>(),
        any::<bool>(),
        0..5usize,
        0..5usize,
    )
        .prop_map(|(b, r, scoring, allow_pass, ml, nc)| Rules {
            bikjang: BIKJANG[b],
            repetition: REPETITION[r],
            scoring,
            allow_pass,
            move_limit: MOVE_LIMITS[ml],
            no_capture_limit: NO_CAPTURE_LIMITS[nc],
        })
}

/// The light state the search reads equals the game's.
fn same_state(tree: &Tree, g: &Game, context: &str) {
    let pos = g.position();
    let facing_fsf = g.rules().bikjang == BikjangRule::Fsf && pos.generals_facing();
    assert_eq!(
        tree.must_answer_bikjang(),
        g.pending_bikjang().is_some() || facing_fsf,
        "pending bikjang: {context}"
    );
    assert_eq!(
        tree.last_was_pass(),
        g.consecutive_passes() > 0,
        "last pass: {context}"
    );
    assert_eq!(tree.game_ply(), g.ply() as usize, "ply: {context}");
    // A tree built from the game here is the tree that followed it.
    let fresh = Tree::new(g);
    assert_eq!(fresh.tt_key(pos), tree.tt_key(pos), "hash key: {context}");
}

/// Pushes `m` (legal in `g`) on the tree and plays it in `g`; checks that
/// they agree. Returns whether the game goes on.
fn step(tree: &mut Tree, pos: &mut Position, g: &mut Game, m: Move, context: &str) -> bool {
    let captured = !m.is_pass() && pos.piece_at(m.to()).is_some();
    let pending_before = g.pending_bikjang().is_some();
    g.play(m).expect("a legal move");
    pos.make(m);
    // The search prefetches the table's bucket with this guess before the
    // rules judge the move: right unless the move changed a bikjang call.
    let guess = tree.tt_key_guess(pos, m, captured);
    let after = tree.push(pos, m, captured, pos.in_check());
    if g.pending_bikjang().is_some() == pending_before {
        assert_eq!(guess, tree.tt_key(pos), "key guess: {context}");
    }
    let stm = pos.side_to_move();
    match (g.outcome(), after) {
        (None, After::Continue) => true,
        (Some(o), After::End(v)) => {
            assert!(agrees(v, o, stm), "{v:?} vs {o:?}: {context}");
            false
        }
        // Mate is found by the search, not by the rule state.
        (Some(o), After::Continue) if o.reason == EndReason::Checkmate => {
            assert!(is_mate(pos, g.model()), "not mate: {context}");
            false
        }
        // The game allows a 4th occurrence under `forbid` only when nothing
        // else is legal, and ends the game by counting; the tree refuses it.
        (Some(o), After::RepetitionForbidden)
            if g.rules().repetition == RepetitionRule::Forbid
                && matches!(
                    o.reason,
                    EndReason::ScoreRepetition | EndReason::DrawRepetition
                ) =>
        {
            false
        }
        (o, a) => panic!("game {o:?}, tree {a:?}: {context}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn tree_and_game_agree_under_every_rule_set(
        rules in rules_strategy(),
        start in 0..PROP_STARTS.len(),
        seed in any::<u64>(),
        lead in 0..12usize,
    ) {
        let mut rng = SplitMix64::new(seed);
        let fen = PROP_STARTS[start];
        let mut g = Game::new(Position::from_fen(fen).expect("FEN"), rules);
        // The tree takes over a game already under way.
        for _ in 0..lead {
            if g.is_over() || g.legal_moves().is_empty() {
                break;
            }
            let m = pick(&g, &mut rng);
            g.play(m).expect("legal");
        }
        prop_assume!(!g.is_over());
        let mut tree = Tree::new(&g);
        let mut pos = g.position().clone();
        for _ in 0..120 {
            if g.is_over() || g.legal_moves().is_empty() {
                break;
            }
            let context = format!("{rules} {fen} moves {:?}", g.moves());
            same_state(&tree, &g, &context);
            // A search-like excursion: a few moves down and back up, each
            // judged against a copy of the game.
            if rng.below(4) == 0 {
                let mut copy = g.clone();
                let mut depth = 0;
                for _ in 0..1 + rng.below(4) {
                    let m = pick(&copy, &mut rng);
                    depth += 1;
                    let ctx = format!("{context} then {:?}", &copy.moves()[g.moves().len()..]);
                    if !step(&mut tree, &mut pos, &mut copy, m, &ctx)
                        || copy.legal_moves().is_empty()
                    {
                        break;
                    }
                }
                for _ in 0..depth {
                    tree.pop();
                    pos.unmake();
                }
                same_state(&tree, &g, &format!("back from an excursion: {context}"));
            }
            let m = pick(&g, &mut rng);
            if !step(&mut tree, &mut pos, &mut g, m, &context) {
                break;
            }
        }
    }
}
