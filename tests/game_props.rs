//! Property tests of the game layer over random games under every rule
//! set: undo restores the full state, the repetition counts equal a
//! recount from the move list, `is_legal` agrees with `legal_moves`, and
//! the fast paths (`play_unchecked`, `outcome_after`) agree with `play`.

use janggi::{BikjangRule, Game, RepetitionRule, Rules};
use janggi::{Move, Position, Square};
use proptest::prelude::*;
use std::collections::HashMap;

const STARTS: [&str; 6] = [
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
    // Few pieces: repetitions, bikjang and passes come up often.
    "r3k4/9/9/9/9/9/9/9/4K4/R8 w - - 0 1",
    "4k4/9/9/2p6/9/9/6P2/9/4K4/9 w - - 0 1",
    "4r4/3k5/9/9/9/9/9/9/3p5/4K4 w - - 0 1",
    "rnba1abnr/4k4/1c5c1/p1pPp1p1p/9/9/P1P3P1P/1C5C1/4K4/RNBA1ABNR b - - 0 1",
    "3ak4/4a4/4c4/2p3p2/9/9/2P3P2/4C4/4A4/3AK4 b - - 90 1",
];

fn rule_sets() -> Vec<Rules> {
    let mut v: Vec<Rules> = Rules::VARIANTS
        .iter()
        .map(|n| Rules::from_variant(n).expect("preset"))
        .collect();
    let d = Rules::default();
    v.push(Rules {
        repetition: RepetitionRule::Lose,
        ..d
    });
    v.push(Rules {
        repetition: RepetitionRule::ScoreEnd,
        bikjang: BikjangRule::Kja30,
        ..d
    });
    v.push(Rules {
        allow_pass: false,
        move_limit: 150,
        scoring: false,
        ..d
    });
    v.push(Rules {
        bikjang: BikjangRule::Off,
        no_capture_limit: 20,
        ..d
    });
    v
}

/// A random game: each choice picks among the legal moves.
fn random_game(start: usize, rules: usize, choices: &[u16]) -> Game {
    let pos = Position::from_fen(STARTS[start % STARTS.len()]).expect("FEN");
    let sets = rule_sets();
    let mut g = Game::new(pos, sets[rules % sets.len()]);
    for &c in choices {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Favour the pass and the first few moves a little so that
        // sequences repeat.
        let i = if c % 7 == 0 {
            0
        } else {
            usize::from(c) % moves.len()
        };
        g.play(moves[i]).expect("legal move");
    }
    g
}

fn recount(g: &Game) -> HashMap<u64, u32> {
    let mut pos = g.start_position().clone();
    let mut counts = HashMap::new();
    *counts.entry(pos.key()).or_insert(0) += 1;
    for m in g.moves() {
        pos.make(m);
        *counts.entry(pos.key()).or_insert(0) += 1;
    }
    counts
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn undo_restores_the_full_state(start in 0usize..6, rules in 0usize..9,
                                    choices in prop::collection::vec(any::<u16>(), 0..140)) {
        let g = random_game(start, rules, &choices);
        let moves = g.moves();
        // Replaying the move list gives the same game.
        let replayed = Game::replay(g.start_position().clone(), *g.rules(), &moves);
        prop_assert!(replayed.as_ref().is_ok_and(|r| *r == g));
        // Undo ply by ply equals the replay of each prefix.
        let mut snapshots = Vec::new();
        let mut h = Game::new(g.start_position().clone(), *g.rules());
        snapshots.push(h.clone());
        for &m in &moves {
            h.play(m).expect("legal");
            snapshots.push(h.clone());
        }
        let mut u = g.clone();
        for k in (0..moves.len()).rev() {
            let n = if k > 0 && k % 3 == 0 { 2 } else { 1 };
            if n == 2 {
                prop_assert_eq!(u.undo_plies(2), 2);
                prop_assert!(u == snapshots[k - 1]);
                // Put one back to keep walking one ply at a time.
                u.play(moves[k - 1]).expect("legal");
            } else {
                prop_assert!(u.undo());
            }
            prop_assert!(u == snapshots[k], "after undoing to ply {}", k);
        }
        prop_assert!(!u.undo());
    }

    #[test]
    fn repetition_counts_equal_a_recount(start in 0usize..6, rules in 0usize..9,
                                         choices in prop::collection::vec(any::<u16>(), 0..160)) {
        let g = random_game(start, rules, &choices);
        prop_assert_eq!(g.position_counts(), &recount(&g));
        prop_assert_eq!(g.repetition_count(), recount(&g)[&g.position().key()]);
        // Nothing goes past the 4th occurrence under the spec's rules.
        if matches!(g.rules().repetition, RepetitionRule::Forbid | RepetitionRule::Lose | RepetitionRule::ScoreEnd) {
            prop_assert!(g.position_counts().values().all(|&c| c <= 4));
        }
    }

    #[test]
    fn is_legal_agrees_with_legal_moves(start in 0usize..6, rules in 0usize..9,
                                        choices in prop::collection::vec(any::<u16>(), 0..100),
                                        probes in prop::collection::vec((0usize..90, 0usize..90), 30)) {
        let g = random_game(start, rules, &choices);
        let legal = g.legal_moves();
        for &m in &legal {
            prop_assert!(g.is_legal(m), "{:?}", m);
        }
        prop_assert_eq!(g.is_legal(Move::PASS), legal.contains(&Move::PASS));
        for (a, b) in probes {
            if let Some(m) = Move::new(Square::ALL[a], Square::ALL[b]) {
                prop_assert_eq!(g.is_legal(m), legal.contains(&m), "{:?}", m);
            }
        }
        // A game that goes on always has a move (forced pass, repetition
        // exception), and the pass is never legal in check unless
        // Fairy-Stockfish's bikjang rule allows it.
        if g.outcome().is_none() {
            prop_assert!(!legal.is_empty());
            if g.in_check() && legal.contains(&Move::PASS) {
                prop_assert!(g.rules().bikjang == BikjangRule::Fsf && g.position().generals_facing());
            }
        } else {
            prop_assert!(legal.is_empty());
        }
        // A pending bikjang means the generals face each other.
        if g.pending_bikjang().is_some() {
            prop_assert!(g.position().generals_facing());
        }
    }

    #[test]
    fn fast_paths_agree_with_play(start in 0usize..6, rules in 0usize..9,
                                  choices in prop::collection::vec(any::<u16>(), 0..100)) {
        let g = random_game(start, rules, &choices);
        for &m in &g.legal_moves() {
            let mut played = g.clone();
            played.play(m).expect("legal");
            let mut fast = g.clone();
            fast.play_unchecked(m);
            prop_assert!(fast == played, "{:?}", m);
            let mut probe = g.clone();
            let after = probe.outcome_after(m);
            prop_assert_eq!(after.as_ref(), played.outcome());
            prop_assert!(probe == g);
            prop_assert_eq!(g.occurrences_after(m), played.repetition_count());
            prop_assert_eq!(g.key_after(m), played.position().key());
        }
    }
}

/// The spec's history state recomputed naively from the move list.
fn naive_state(g: &Game) -> (Option<u32>, u32, Option<(janggi::Color, u32)>) {
    let start = g.start_position().clone();
    let full = janggi::Color::BOTH
        .iter()
        .all(|&c| start.color_bb(c).count() >= 16);
    let mut pos = start;
    let mut first = if full { None } else { Some(0) };
    let mut passes = 0;
    let mut last_mover = None;
    for (i, m) in g.moves().into_iter().enumerate() {
        last_mover = Some(pos.side_to_move());
        pos.make(m);
        if first.is_none() && pos.history().last().is_some_and(|s| s.captured.is_some()) {
            first = Some(i as u32 + 1);
        }
        passes = if m.is_pass() { passes + 1 } else { 0 };
    }
    let n = g.ply();
    let condition = match g.rules().bikjang {
        BikjangRule::Kjf => first.is_some_and(|p| p < n),
        BikjangRule::Kja30 => janggi::Color::BOTH.iter().all(|&c| pos.material(c) < 30),
        _ => false,
    };
    let pending = match last_mover {
        Some(c) if pos.generals_facing() && condition => Some((c, n)),
        _ => None,
    };
    (first, passes, pending)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn spec_state_matches_a_naive_recount(start in 0usize..6, kja in any::<bool>(),
                                          choices in prop::collection::vec(any::<u16>(), 0..120)) {
        // Rule sets 0 (janggikjf) and 6 (kja30 + scoreEnd).
        let g = random_game(start, if kja { 6 } else { 0 }, &choices);
        let (first, passes, pending) = naive_state(&g);
        prop_assert_eq!(g.first_capture_ply(), first);
        prop_assert_eq!(g.consecutive_passes(), passes);
        prop_assert_eq!(g.in_check(), g.position().in_check());
        if g.outcome().is_none() {
            prop_assert_eq!(g.pending_bikjang().map(|b| (b.called_by, b.ply)), pending);
        }
    }
}

/// The random games above do reach the rules under test: over a fixed set
/// of pseudo-random games every kind of ending and the bikjang call occur.
#[test]
fn random_games_reach_every_rule() {
    use janggi::{EndReason, Event};
    use std::collections::BTreeSet;
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let sets = rule_sets();
    for game_no in 0..400 {
        let pos = Position::from_fen(STARTS[1 + game_no % (STARTS.len() - 1)]).expect("FEN");
        let mut g = Game::new(pos, sets[game_no % sets.len()]);
        while g.outcome().is_none() && g.ply() < 300 {
            let moves = g.legal_moves();
            let pick = moves[(next() % moves.len() as u64) as usize];
            for e in g.play(pick).expect("legal") {
                if e == Event::BikjangCalled
                    && matches!(g.rules().bikjang, BikjangRule::Kjf | BikjangRule::Kja30)
                {
                    seen.insert("called".into());
                }
            }
        }
        if let Some(o) = g.outcome() {
            seen.insert(o.reason.name().into());
        }
    }
    for reason in [
        EndReason::Checkmate,
        EndReason::ScoreBikjang,
        EndReason::DrawBikjang,
        EndReason::ScorePasses,
        EndReason::DrawPasses,
        EndReason::DrawRepetition,
        EndReason::ScoreMoveLimit,
    ] {
        assert!(
            seen.contains(reason.name()),
            "no game ended by {} ({seen:?})",
            reason.name()
        );
    }
    assert!(seen.contains("called"), "{seen:?}");
}
