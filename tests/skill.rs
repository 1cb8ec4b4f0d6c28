//! Skill levels: the level table, legality, full strength unchanged,
//! mates always played, varied picks, the options, and (ignored) a
//! measurement of the easy level converting a large material edge.

mod common;

use common::Lcg;
use janggi::protocol::{MemorySink, Session};
use janggi::search::score::MATE;
use janggi::search::skill::{Skill, SkillRng};
use janggi::search::{Limits, SearchControl, Searcher};
use janggi::Color;
use janggi::{Game, Rules};
use janggi::{Move, Position};
use std::collections::HashSet;
use std::time::Duration;

fn game(fen: &str) -> Game {
    Game::new(
        Position::from_fen(fen).expect("valid fen"),
        Rules::default(),
    )
}

fn skilled(level: u32) -> Searcher {
    let mut s = Searcher::new(4, 1);
    s.set_skill(Skill::new(level));
    s
}

fn pick(s: &mut Searcher, g: &Game) -> Move {
    let r = s.search(
        g,
        &Limits::default(),
        &SearchControl::default(),
        &mut |_| {},
    );
    r.best.expect("a legal move exists")
}

#[test]
fn level_mapping_table() {
    for level in 0..=20 {
        let s = Skill::new(level);
        let want = match level {
            0..=6 => ("easy", Some(1), Some(300), 160, 120),
            7..=13 => ("medium", Some(3), Some(1200), 12, 0),
            14..=19 => ("hard", Some(5), Some(2600), 0, 0),
            _ => ("unlimited", None, None, 0, 0),
        };
        let got = (
            s.name(),
            s.max_depth(),
            s.max_time().map(|t| t.as_millis() as u64),
            s.margin_cp(),
            s.random_permille(),
        );
        assert_eq!(got, want, "level {level}");
        assert_eq!(s.is_limited(), level < 20);
    }
    assert_eq!(Skill::new(99).level(), 20);
    assert_eq!(Skill::default().level(), 20);
    assert_eq!(Skill::from_elo(500).level(), 0);
    assert_eq!(Skill::from_elo(2500).level(), 19);
    assert_eq!(Skill::from_elo(1500).name(), "medium");
    // A mate or rule win beats every pick; full strength always picks 0.
    let mut rng = SkillRng::new(1, 2);
    for _ in 0..200 {
        assert_eq!(Skill::new(0).choose(&[MATE - 3, 100, 90], &mut rng), 0);
        assert_eq!(Skill::new(20).choose(&[10, 10, 10], &mut rng), 0);
        // Outside the margin and not lost: only the 12 % random pick reaches it.
        let i = Skill::new(10).choose(&[50, 45, -500], &mut rng);
        assert!(i < 2, "medium picked {i}");
    }
}

#[test]
fn easy_level_plays_only_legal_moves() {
    let mut rng = Lcg(11);
    let mut s = skilled(0);
    let mut checked = 0;
    while checked < 30 {
        let mut g = Game::new(Position::startpos(), Rules::default());
        let plies = 4 + rng.next() % 60;
        for _ in 0..plies {
            let legal = g.legal_moves();
            if legal.is_empty() || g.is_over() {
                break;
            }
            g.play(legal[(rng.next() % legal.len() as u64) as usize])
                .expect("legal");
        }
        if g.is_over() || g.legal_moves().is_empty() {
            continue;
        }
        s.set_skill_seed(rng.next());
        let m = pick(&mut s, &g);
        assert!(g.is_legal(m), "illegal move in {}", g.position().fen());
        checked += 1;
    }
}

#[test]
fn level_20_plays_the_normal_best_move() {
    let fens = [
        Position::startpos().fen(),
        "3ka4/3a5/9/9/9/9/4R4/9/R8/5K3 w - - 0 1".to_string(),
        "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1".to_string(),
    ];
    for fen in fens {
        let g = game(&fen);
        let limits = Limits {
            nodes: Some(30_000),
            ..Limits::default()
        };
        let mut plain = Searcher::new(16, 1);
        let a = plain.search(&g, &limits, &SearchControl::default(), &mut |_| {});
        let mut full = Searcher::new(16, 1);
        full.set_skill(Skill::new(20));
        full.set_skill_seed(12345);
        let b = full.search(&g, &limits, &SearchControl::default(), &mut |_| {});
        assert_eq!(a, b, "{fen}");
    }
}

#[test]
fn easy_level_plays_mate_in_one() {
    // a2a10 mates: Han's general is boxed in by its guards.
    let g = game("3ka4/3a5/9/9/9/9/4R4/9/R8/5K3 w - - 0 1");
    let mate = g
        .position()
        .parse_move("a2a10", janggi::Notation::Uci)
        .expect("move");
    let mut hits = 0;
    for seed in 0..40 {
        let mut s = skilled(0);
        s.set_skill_seed(seed);
        if pick(&mut s, &g) == mate {
            hits += 1;
        }
    }
    assert!(hits * 100 >= 95 * 40, "mate played {hits}/40");
}

#[test]
fn easy_level_picks_vary_in_a_quiet_position() {
    let g = Game::new(Position::startpos(), Rules::default());
    let mut seen = HashSet::new();
    let mut s = skilled(0);
    for seed in 0..40 {
        s.set_skill_seed(seed);
        seen.insert(pick(&mut s, &g));
    }
    assert!(seen.len() >= 3, "only {} different moves", seen.len());
    // Full strength is deterministic from the start position.
    let mut full = Searcher::new(4, 1);
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let mut best = HashSet::new();
    for seed in 0..5 {
        full.set_skill_seed(seed);
        full.clear();
        let r = full.search(&g, &limits, &SearchControl::default(), &mut |_| {});
        best.insert(r.best);
    }
    assert_eq!(best.len(), 1);
}

fn session() -> (MemorySink, Session) {
    let sink = MemorySink::default();
    let session = Session::new(sink.clone());
    (sink, session)
}

fn errors(sink: &MemorySink) -> usize {
    sink.lines()
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .count()
}

#[test]
fn skill_options_and_out_of_range_values() {
    let (sink, mut s) = session();
    s.handle_line("uci");
    let lines = sink.lines();
    for want in [
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 2500 min 500 max 2500",
    ] {
        assert!(lines.iter().any(|l| l == want), "missing {want}");
    }
    for bad in ["21", "-1", "abc"] {
        let before = errors(&sink);
        s.handle_line(&format!("setoption name Skill Level value {bad}"));
        assert_eq!(errors(&sink), before + 1, "no error for {bad}");
        assert_eq!(s.engine().skill().level(), 20);
    }
    s.handle_line("setoption name Skill Level value 3");
    assert_eq!(s.engine().skill().level(), 3);
    let before = errors(&sink);
    s.handle_line("setoption name Skill Level value 42");
    assert_eq!(errors(&sink), before + 1);
    assert_eq!(s.engine().skill().level(), 3);
    s.handle_line("setoption name UCI_Elo value 100");
    assert_eq!(errors(&sink), before + 2);
    s.handle_line("setoption name UCI_LimitStrength value true");
    assert_eq!(s.engine().skill().level(), 19, "default Elo 2500");
    s.handle_line("setoption name UCI_Elo value 500");
    assert_eq!(s.engine().skill().level(), 0);
    s.handle_line("setoption name UCI_LimitStrength value false");
    assert_eq!(s.engine().skill().level(), 3);
    // The limited level searches to depth 1 and still answers.
    s.handle_line("position startpos");
    s.handle_line("go depth 6");
    let start = std::time::Instant::now();
    while !sink.lines().iter().any(|l| l.starts_with("bestmove")) {
        assert!(start.elapsed() < Duration::from_secs(20), "no bestmove");
        std::thread::sleep(Duration::from_millis(5));
    }
    let lines = sink.lines();
    assert!(!lines.iter().any(|l| l.starts_with("info depth 2")));
    // USI spelling.
    let (usink, mut u) = session();
    u.handle_line("usi");
    assert!(usink
        .lines()
        .iter()
        .any(|l| l.starts_with("option name Skill_Level type spin default 20")));
    u.handle_line("setoption name Skill_Level value 8");
    assert_eq!(u.engine().skill().level(), 8);
}

/// The devnote's measurement for Janggi: Cho (general, two chariots, a
/// cannon) against Han's bare general and guards, easy level against a
/// random mover, up to 200 plies, 20 games under janggikjf. Run with
/// `cargo test --release --test skill -- --ignored --nocapture`.
#[test]
#[ignore]
fn measure_easy_level_converts_a_material_edge() {
    let fen = "3a1a3/4k4/9/9/9/9/9/4C4/4K4/R7R w - - 0 1";
    let (mut wins, mut mates) = (0, 0);
    let mut rng = Lcg(2024);
    let mut s = skilled(0);
    for game_no in 0..20u64 {
        let rules = Rules::from_variant("janggikjf").expect("preset");
        let mut g = Game::new(Position::from_fen(fen).expect("fen"), rules);
        let mut ply = 0;
        while ply < 200 && !g.is_over() {
            let legal = g.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = if g.side_to_move() == Color::Cho {
                s.set_skill_seed(game_no * 1000 + ply);
                pick(&mut s, &g)
            } else {
                legal[(rng.next() % legal.len() as u64) as usize]
            };
            g.play(m).expect("legal");
            ply += 1;
        }
        let outcome = g.outcome().cloned();
        let won = outcome.as_ref().and_then(|o| o.winner) == Some(Color::Cho);
        wins += u32::from(won);
        mates += u32::from(
            won && outcome.as_ref().map(|o| o.reason) == Some(janggi::EndReason::Checkmate),
        );
        println!(
            "game {game_no}: {} plies, {:?}",
            ply,
            outcome.map(|o| (o.winner, o.reason))
        );
    }
    println!("easy level won {wins}/20 ({mates} by checkmate)");
    assert!(wins >= 15, "easy level won only {wins}/20");
}
