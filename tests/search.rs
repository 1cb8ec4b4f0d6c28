//! Search tests: mates, tactics, game-rule endings inside the tree,
//! legality over random games, node and stop limits, bench determinism.

mod common;

use common::Lcg;
use janggi::search::score::RULE_WIN;
use janggi::search::{Limits, ReportScore, SearchControl, SearchResult, Searcher};
use janggi::{EndReason, Game, Rules};
use janggi::{Move, Notation, Position};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn game(fen: &str) -> Game {
    Game::new(
        Position::from_fen(fen).expect("valid fen"),
        Rules::default(),
    )
}

fn mv(g: &Game, text: &str) -> Move {
    g.position()
        .parse_move(text, Notation::Uci)
        .expect("move text")
}

fn text(g: &Game, m: Move) -> String {
    g.position().move_text(m, Notation::Uci)
}

fn search(g: &Game, limits: Limits) -> SearchResult {
    let mut s = Searcher::new(16, 1);
    s.search(g, &limits, &SearchControl::default(), &mut |_| {})
}

fn search_depth(g: &Game, depth: u32) -> SearchResult {
    search(
        g,
        Limits {
            depth: Some(depth),
            ..Limits::default()
        },
    )
}

/// Whether playing `m` checkmates.
fn mates(g: &Game, m: Move) -> bool {
    let mut h = g.clone();
    h.play(m).is_ok()
        && h.outcome()
            .is_some_and(|o| o.reason == EndReason::Checkmate)
}

/// Whether `m` forces mate on the next move whatever the reply.
fn forces_mate_in_2(g: &Game, m: Move) -> bool {
    let mut h = g.clone();
    if h.play(m).is_err() || h.outcome().is_some() {
        return false;
    }
    let replies = h.legal_moves();
    !replies.is_empty()
        && replies.iter().all(|&r| {
            let mut k = h.clone();
            k.play(r).is_ok() && k.legal_moves().iter().any(|&m2| mates(&k, m2))
        })
}

#[test]
fn chariot_mate_in_one() {
    // Han's general is boxed in by its guards; the e-file chariot covers e9.
    let g = game("3ka4/3a5/9/9/9/9/4R4/9/R8/5K3 w - - 0 1");
    let r = search_depth(&g, 4);
    let best = r.best.expect("a move");
    assert!(mates(&g, best), "{} does not mate", text(&g, best));
    assert_eq!(text(&g, best), "a2a10");
    assert_eq!(r.score, ReportScore::Mate(1));
}

#[test]
fn cannon_mate_through_screen_in_one() {
    // The cannon jumps the a5 soldier to a10 and checks through the c10
    // elephant (포다리); e9 is covered by the chariot.
    let g = game("2Bka4/3a5/9/9/9/P8/4R4/9/C8/5K3 w - - 0 1");
    assert!(
        !mates(&g, mv(&g, "e4e9")),
        "the chariot alone does not mate"
    );
    let r = search_depth(&g, 4);
    let best = r.best.expect("a move");
    assert_eq!(text(&g, best), "a2a10");
    assert!(mates(&g, best));
    assert_eq!(r.score, ReportScore::Mate(1));
}

#[test]
fn double_chariot_mate_in_two() {
    let g = game("4k4/9/9/9/9/9/9/9/1R2A4/R3K4 w - - 0 1");
    assert!(
        !g.legal_moves().iter().any(|&m| mates(&g, m)),
        "no mate in one"
    );
    let r = search_depth(&g, 6);
    let best = r.best.expect("a move");
    assert_eq!(r.score, ReportScore::Mate(2), "best {}", text(&g, best));
    assert!(
        forces_mate_in_2(&g, best),
        "{} does not force mate",
        text(&g, best)
    );
}

#[test]
fn captures_hanging_chariot() {
    let g = game("4k4/9/9/r8/9/3p5/9/2N6/4A4/R3K4 w - - 0 1");
    let r = search_depth(&g, 5);
    assert_eq!(text(&g, r.best.expect("a move")), "a1a7");
    assert!(
        matches!(r.score, ReportScore::Cp(cp) if cp > 800),
        "{:?}",
        r.score
    );
}

#[test]
fn answers_bikjang_instead_of_losing_the_count() {
    // Han's horse steps off the e-file and calls bikjang (pieces are missing,
    // so a capture counts as made). Taking the chariot on a3 would leave the
    // generals facing: the game would end by counting, 13 : 18.5 for Han.
    let mut g = game("2ba1ab2/4k4/9/9/9/4n4/9/r8/4K4/R8 b - - 0 1");
    let call = mv(&g, "e5c4");
    g.play(call).expect("legal");
    assert!(g.pending_bikjang().is_some(), "bikjang was called");
    let take = mv(&g, "a1a3");
    assert!(g.is_legal(take));
    let r = search_depth(&g, 5);
    let best = r.best.expect("a move");
    assert_ne!(best, take, "walked into a lost count");
    let mut h = g.clone();
    h.play(best).expect("legal");
    assert!(h.outcome().is_none(), "{} ends the game", text(&g, best));
}

#[test]
fn takes_a_won_count_by_passing() {
    // Cho is ahead 2 : 1.5; Han passed, so Cho's pass ends the game by
    // counting, and Cho wins.
    let mut g = game("3k5/9/9/9/9/9/P8/9/4K4/9 b - - 0 1");
    g.play(Move::PASS).expect("Han may pass");
    let r = search_depth(&g, 4);
    assert_eq!(r.best, Some(Move::PASS));
    assert!(
        matches!(r.score, ReportScore::Cp(cp) if cp > RULE_WIN - 100),
        "{:?}",
        r.score
    );
}

#[test]
fn does_not_pass_into_a_lost_count() {
    // Same material but Han is ahead (1.5 deom vs nothing): Cho must not pass.
    let mut g = game("3k5/9/9/9/9/9/9/9/4K4/9 b - - 0 1");
    g.play(Move::PASS).expect("Han may pass");
    let r = search_depth(&g, 4);
    assert_ne!(r.best, Some(Move::PASS));
    assert!(r.best.is_some_and(|m| g.is_legal(m)));
}

/// A game with `janggi`'s 100-ply no-capture rule ending by counting.
fn counted(fen: &str) -> Game {
    counted_at(fen, 100)
}

/// The same game with the no-capture rule at `limit` plies (0 = none).
fn counted_at(fen: &str, limit: u32) -> Game {
    Game::new(
        Position::from_fen(fen).expect("valid fen"),
        Rules {
            scoring: true,
            no_capture_limit: limit,
            ..Rules::default()
        },
    )
}

#[test]
fn behind_on_the_count_captures_before_the_no_capture_limit() {
    // 99 plies without a capture: any quiet move of Han ends the game by
    // counting, Cho 29 : Han 23.5. Taking the defended soldier loses the
    // chariot to the recapture but resets the clock: the only way on.
    let g = counted("2baka3/9/9/9/9/9/r3P4/4R4/4K4/1C5C1 b - - 99 80");
    let take = mv(&g, "a4e4");
    assert!(g.is_legal(take));
    let mut quiet = g.clone();
    quiet.play(mv(&g, "a4a5")).expect("legal");
    let end = quiet.outcome().expect("a quiet move reaches the limit");
    assert!(end.winner.is_some(), "decided by counting: {end:?}");
    // Without the rule the same search keeps its chariot.
    let free = counted_at("2baka3/9/9/9/9/9/r3P4/4R4/4K4/1C5C1 b - - 99 80", 0);
    assert_ne!(search_depth(&free, 5).best, Some(take));
    let r = search_depth(&g, 5);
    assert_eq!(r.best, Some(take), "{:?}", r.best.map(|m| text(&g, m)));
    assert!(
        matches!(r.score, ReportScore::Cp(cp) if cp > -RULE_WIN + 100),
        "{:?}",
        r.score
    );
}

#[test]
fn ahead_on_the_count_lets_the_no_capture_limit_end_the_game() {
    // Cho 20 : Han 16.5 after 99 plies without a capture. Taking the free
    // soldier would win material and reset the clock; any quiet move wins
    // the game by counting now.
    let g = counted("4k4/r8/9/9/4p4/9/9/4R4/4K4/1C7 w - - 99 80");
    let take = mv(&g, "e3e6");
    assert!(g.is_legal(take));
    // Without the rule the same search takes the soldier.
    let free = counted_at("4k4/r8/9/9/4p4/9/9/4R4/4K4/1C7 w - - 99 80", 0);
    assert_eq!(search_depth(&free, 5).best, Some(take));
    let r = search_depth(&g, 5);
    let best = r.best.expect("a move");
    assert_ne!(
        best, take,
        "reset the clock instead of winning on the count"
    );
    let mut h = g.clone();
    h.play(best).expect("legal");
    let end = h.outcome().expect("the game ends by counting");
    assert_eq!(end.winner, Some(g.side_to_move()), "{end:?}");
    assert!(
        matches!(r.score, ReportScore::Cp(cp) if cp > RULE_WIN - 100),
        "{:?}",
        r.score
    );
}

#[test]
fn never_returns_an_illegal_move() {
    let mut rng = Lcg(7);
    let presets = [
        "janggikjf",
        "janggi",
        "janggitraditional",
        "janggimodern",
        "janggicasual",
    ];
    let mut searcher = Searcher::new(4, 1);
    let mut searches = 0;
    for game_no in 0..10 {
        let rules = Rules::from_variant(presets[game_no % presets.len()]).expect("preset");
        let mut g = Game::new(Position::startpos(), rules);
        for ply in 0..120 {
            let legal = g.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = if ply % 3 == 2 {
                let limits = Limits {
                    nodes: Some(400 + rng.next() % 400),
                    ..Limits::default()
                };
                let r = searcher.search(&g, &limits, &SearchControl::default(), &mut |_| {});
                let best = r.best.expect("a legal move exists");
                assert!(
                    g.is_legal(best),
                    "illegal {} in {}",
                    text(&g, best),
                    g.position().fen()
                );
                searches += 1;
                best
            } else {
                legal[(rng.next() % legal.len() as u64) as usize]
            };
            g.play(m).expect("legal");
        }
    }
    assert!(searches > 100);
}

#[test]
fn exact_node_limit() {
    let g = Game::new(Position::startpos(), Rules::default());
    for n in [1, 77, 5000, 20_000] {
        let r = search(
            &g,
            Limits {
                nodes: Some(n),
                ..Limits::default()
            },
        );
        assert_eq!(r.nodes, n);
        assert!(g.is_legal(r.best.expect("a move")));
    }
    // With more threads the node limit stays exact.
    let mut s = Searcher::new(16, 2);
    let limits = Limits {
        nodes: Some(3000),
        ..Limits::default()
    };
    let r = s.search(&g, &limits, &SearchControl::default(), &mut |_| {});
    assert_eq!(r.nodes, 3000);
}

/// The silent search (data generation's) is the same search: same move,
/// score and node count as the reporting one, over positions of a random
/// game, at a node limit and at a depth; and it reports nothing.
#[test]
fn silent_search_is_the_same_search() {
    let mut rng = Lcg(11);
    let mut g = Game::new(Position::startpos(), Rules::default());
    for ply in 0..24 {
        let limits = if ply % 2 == 0 {
            Limits {
                nodes: Some(3000),
                ..Limits::default()
            }
        } else {
            Limits {
                depth: Some(4),
                ..Limits::default()
            }
        };
        let mut a = Searcher::new(16, 1);
        let mut b = Searcher::new(16, 1);
        let mut infos = 0;
        let loud = a.search(&g, &limits, &SearchControl::default(), &mut |_| infos += 1);
        let quiet = b.search_silent(&g, &limits, &SearchControl::default());
        assert!(infos > 0, "the reporting search reports");
        assert_eq!(loud.best, quiet.best, "ply {ply}");
        assert_eq!(loud.score, quiet.score, "ply {ply}");
        assert_eq!(loud.nodes, quiet.nodes, "ply {ply}");
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.next() as usize % moves.len()];
        g.play(m).expect("legal");
    }
}

#[test]
fn stop_flag_is_honoured_promptly() {
    let g = Game::new(Position::startpos(), Rules::default());
    for threads in [1, 2] {
        let control = SearchControl::default();
        let stop = control.stop.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        let g2 = g.clone();
        let handle = std::thread::spawn(move || {
            let mut s = Searcher::new(16, threads);
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            let r = s.search(&g2, &limits, &control, &mut |_| {});
            tx.send(Instant::now()).expect("send");
            r
        });
        std::thread::sleep(Duration::from_millis(200));
        let stopped_at = Instant::now();
        stop.store(true, Ordering::Relaxed);
        let returned_at = rx
            .recv_timeout(Duration::from_secs(5))
            .expect("search returned");
        let r = handle.join().expect("no panic");
        assert!(returned_at.duration_since(stopped_at) < Duration::from_millis(500));
        assert!(g.is_legal(r.best.expect("a move")));
    }
}

#[test]
fn movetime_is_respected() {
    let g = Game::new(Position::startpos(), Rules::default());
    let t = Instant::now();
    let r = search(
        &g,
        Limits {
            movetime: Some(Duration::from_millis(150)),
            ..Limits::default()
        },
    );
    assert!(t.elapsed() < Duration::from_millis(1000));
    assert!(g.is_legal(r.best.expect("a move")));
}

#[test]
fn no_legal_move_gives_none() {
    // Mated: the chariot mate above, played out.
    let mut g = game("3ka4/3a5/9/9/9/9/4R4/9/R8/5K3 w - - 0 1");
    g.play(mv(&g, "a2a10")).expect("legal");
    let r = search_depth(&g, 3);
    assert_eq!(r.best, None);
    assert_eq!(r.score, ReportScore::Mate(0));
}

#[test]
fn multipv_reports_distinct_lines() {
    let g = Game::new(Position::startpos(), Rules::default());
    let mut s = Searcher::new(16, 1);
    let limits = Limits {
        depth: Some(4),
        multipv: 3,
        ..Limits::default()
    };
    let mut last = Vec::new();
    s.search(&g, &limits, &SearchControl::default(), &mut |i| {
        if i.depth == 4 {
            last.push((i.multipv, i.pv[0]));
        }
    });
    assert_eq!(last.iter().map(|x| x.0).collect::<Vec<_>>(), vec![1, 2, 3]);
    assert!(last[0].1 != last[1].1 && last[1].1 != last[2].1 && last[0].1 != last[2].1);
}

#[test]
fn bench_is_deterministic() {
    let a = janggi::bench::bench(Some(3), None);
    let b = janggi::bench::bench(Some(3), None);
    assert!(a.positions >= 30);
    assert!(a.nodes > 0);
    assert_eq!(a.nodes, b.nodes);
}

#[test]
fn bench_is_deterministic_with_the_network() {
    let net = Some(janggi::nnue::default_network().clone());
    let a = janggi::bench::bench(Some(4), net.clone());
    let b = janggi::bench::bench(Some(4), net);
    let hce = janggi::bench::bench(Some(4), None);
    assert!(a.nodes > 0);
    assert_eq!(a.nodes, b.nodes);
    // The network is really used: the tree differs from the handcrafted one.
    assert_ne!(a.nodes, hce.nodes);
}

/// Han to move; the generals shuffle d10–d9 and e2–e1. After three cycles
/// and Han's next three moves, Cho's `e1e2` would make the start
/// position's 4th occurrence.
fn shuffled(repetition: &str) -> Game {
    let mut rules = Rules::default();
    rules.set_option("Repetition", repetition).expect("option");
    rules.set_option("AllowPass", "false").expect("option");
    let mut g = Game::new(
        Position::from_fen("3k5/9/9/9/9/9/P8/9/4K4/9 b - - 0 1").expect("fen"),
        rules,
    );
    let cycle = ["d10d9", "e2e1", "d9d10", "e1e2"];
    for text in cycle.iter().cycle().take(4 * 2 + 3) {
        let m = mv(&g, text);
        g.play(m).expect("legal");
    }
    assert!(g.outcome().is_none());
    g
}

#[test]
fn repetition_score_end_is_taken_when_ahead() {
    // Cho is ahead 2 : 1.5, so the 4th occurrence wins the count.
    let g = shuffled("scoreEnd");
    let r = search_depth(&g, 4);
    assert_eq!(text(&g, r.best.expect("a move")), "e1e2");
    assert!(
        matches!(r.score, ReportScore::Cp(cp) if cp > RULE_WIN - 100),
        "{:?}",
        r.score
    );
}

#[test]
fn repetition_loss_is_avoided() {
    // Under `lose` the side making the 4th occurrence loses.
    let g = shuffled("lose");
    let rep = mv(&g, "e1e2");
    assert!(g.is_legal(rep));
    let r = search_depth(&g, 4);
    assert_ne!(r.best, Some(rep));
    assert!(
        matches!(r.score, ReportScore::Cp(cp) if cp.abs() < 5000),
        "{:?}",
        r.score
    );
}

#[test]
fn forbidden_repetition_is_never_played() {
    let g = shuffled("forbid");
    let rep = mv(&g, "e1e2");
    assert!(!g.is_legal(rep));
    for depth in 1..5 {
        let r = search_depth(&g, depth);
        assert!(g.is_legal(r.best.expect("a move")));
    }
}

#[test]
fn pondering_ignores_the_clock_until_ponderhit() {
    let g = Game::new(Position::startpos(), Rules::default());
    let control = SearchControl::default();
    control.pondering.store(true, Ordering::Relaxed);
    let ctl = control.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    let handle = std::thread::spawn(move || {
        let mut s = Searcher::new(16, 1);
        let limits = Limits {
            movetime: Some(Duration::from_millis(50)),
            ..Limits::default()
        };
        let r = s.search(&g, &limits, &ctl, &mut |_| {});
        tx.send(()).expect("send");
        r
    });
    assert!(
        rx.recv_timeout(Duration::from_millis(400)).is_err(),
        "stopped on time while pondering"
    );
    control.pondering.store(false, Ordering::Relaxed);
    rx.recv_timeout(Duration::from_secs(3))
        .expect("returned after ponderhit");
    let r = handle.join().expect("no panic");
    assert!(r.best.is_some());
}

#[test]
fn go_mate_finds_the_mate_and_stops() {
    let g = game("4k4/9/9/9/9/9/9/9/1R2A4/R3K4 w - - 0 1");
    let r = search(
        &g,
        Limits {
            mate: Some(2),
            ..Limits::default()
        },
    );
    assert_eq!(r.score, ReportScore::Mate(2));
    assert!(forces_mate_in_2(&g, r.best.expect("a move")));
}

#[test]
fn mate_scores_survive_the_transposition_table() {
    // The same searcher (warm table) reports the same mate distance, also
    // one ply later in the line.
    let g = game("4k4/9/9/9/9/9/9/9/1R2A4/R3K4 w - - 0 1");
    let mut s = Searcher::new(16, 1);
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let first = s.search(&g, &limits, &SearchControl::default(), &mut |_| {});
    let again = s.search(&g, &limits, &SearchControl::default(), &mut |_| {});
    assert_eq!(first.score, ReportScore::Mate(2));
    assert_eq!(again.score, ReportScore::Mate(2));
    let mut h = g.clone();
    h.play(first.best.expect("a move")).expect("legal");
    let reply = s.search(&h, &limits, &SearchControl::default(), &mut |_| {});
    assert_eq!(reply.score, ReportScore::Mate(-1));
}

/// `cargo test --release --test search bench_report -- --ignored --nocapture`
#[test]
#[ignore]
fn bench_report() {
    let depth = std::env::var("BENCH_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok());
    let net = janggi::engine::USE_NNUE_DEFAULT.then(|| janggi::nnue::default_network().clone());
    let params = janggi::search::params::SearchParams::default();
    let r = janggi::bench::bench_with(depth, net, &params, &mut |i, _, n| {
        eprintln!("position {:2}: {n} nodes", i + 1)
    });
    eprintln!(
        "Nodes searched: {}\nNodes/second: {}\nTime: {:?}",
        r.nodes, r.nps, r.elapsed
    );
}

/// `cargo test --release --test search startpos_one_second -- --ignored --nocapture`
#[test]
#[ignore]
fn startpos_one_second() {
    let threads = std::env::var("THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(1);
    let g = Game::new(Position::startpos(), Rules::default());
    let mut s = Searcher::new(64, threads);
    let limits = Limits {
        movetime: Some(Duration::from_millis(1000)),
        ..Limits::default()
    };
    let r = s.search(&g, &limits, &SearchControl::default(), &mut |i| {
        eprintln!(
            "info depth {} seldepth {} score {:?} nodes {} nps {} time {} hashfull {} pv {}",
            i.depth,
            i.seldepth,
            i.score,
            i.nodes,
            i.nps,
            i.time_ms,
            i.hashfull,
            i.pv.iter()
                .map(|&m| text(&g, m))
                .collect::<Vec<_>>()
                .join(" ")
        )
    });
    eprintln!(
        "bestmove {:?} nodes {}",
        r.best.map(|m| text(&g, m)),
        r.nodes
    );
}

/// The search switches that are off by default (singular extension,
/// the hash score as the pruning evaluation; crates/janggi-search/src/search/params.rs), each
/// on: the mates are still found, every move is legal over random games
/// deep enough for the switch to act, and the switch changes the tree.
#[test]
fn the_search_switches_keep_the_search_sound() {
    use janggi::search::params::SearchParams;
    for list in [
        "se_depth=4",
        "se_depth=4 se_margin=0",
        "tt_eval=1",
        "cont_hist=1",
        "cont_hist=2",
        "capt_hist=1",
        "corr_hist=1",
        "hist_prune=200 hist_prune_depth=6",
        "probcut=200",
    ] {
        let mut params = SearchParams::default();
        params.apply(list).expect("a good list");
        let searcher = || {
            let mut s = Searcher::new(16, 1);
            s.set_params(params.clone());
            s
        };
        let depth = |d| Limits {
            depth: Some(d),
            ..Limits::default()
        };
        // Mates in one and two.
        for (fen, d, mate) in [
            ("3ka4/3a5/9/9/9/9/4R4/9/R8/5K3 w - - 0 1", 6, 1),
            ("2Bka4/3a5/9/9/9/P8/4R4/9/C8/5K3 w - - 0 1", 6, 1),
            ("4k4/9/9/9/9/9/9/9/1R2A4/R3K4 w - - 0 1", 7, 2),
        ] {
            let g = game(fen);
            let r = searcher().search(&g, &depth(d), &SearchControl::default(), &mut |_| {});
            assert_eq!(r.score, ReportScore::Mate(mate), "{list}: {fen}");
            let best = r.best.expect("a move");
            assert!(
                if mate == 1 {
                    mates(&g, best)
                } else {
                    forces_mate_in_2(&g, best)
                },
                "{list}: {} in {fen}",
                text(&g, best)
            );
        }
        // Legal moves over random games, searched to depth 7.
        let mut rng = Lcg(11);
        let mut s = searcher();
        for game_no in 0..3 {
            let mut g = Game::new(Position::startpos(), Rules::default());
            for ply in 0..60 {
                let legal = g.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = if ply % 4 == 3 {
                    let r = s.search(&g, &depth(7), &SearchControl::default(), &mut |_| {});
                    let best = r.best.expect("a legal move exists");
                    assert!(
                        g.is_legal(best),
                        "{list}, game {game_no}: {}",
                        text(&g, best)
                    );
                    best
                } else {
                    legal[(rng.next() % legal.len() as u64) as usize]
                };
                g.play(m).expect("legal");
            }
        }
        // The switch acts: the same depth searches another tree (from the
        // start, and from a middlegame with captures about, for ProbCut).
        let trees = |s: &mut Searcher| {
            [
                Position::startpos(),
                Position::from_fen(janggi::bench::FENS[3]).expect("bench fen"),
            ]
            .map(|p| {
                let g = Game::new(p, Rules::default());
                s.search(&g, &depth(9), &SearchControl::default(), &mut |_| {})
                    .nodes
            })
        };
        let a = trees(&mut Searcher::new(16, 1));
        let b = trees(&mut searcher());
        assert_ne!(a, b, "{list} changed nothing");
    }
}
