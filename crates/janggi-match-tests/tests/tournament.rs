//! Match runner tests: statistics against hand-computed values, SPRT
//! stopping, byoyomi accounting with a timed fake engine, fake engines that
//! misbehave (each loses with the right reason and the match goes on), a
//! PGN write → read round trip, a clean stop (Ctrl-C path), and the
//! default length adjudication of endless rule sets (issue 17).
//!
//! The fake engine is this package's `janggi-fake-engine` binary
//! (src/main.rs).

use janggi_core::Color;
use janggi_match::engine_process::ProcessError;
use janggi_match::pgn::read_pgn;
use janggi_match::referee::Termination;
use janggi_match::stats::{SprtDecision, SprtParams, Tally};
use janggi_match::{run, MatchConfig, MatchEnd, MatchError, MatchReport};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

const FAKE_ENGINE: &str = env!("CARGO_BIN_EXE_janggi-fake-engine");

/// `--engine` words for a fake engine.
fn fake(name: &str, behaviour: &[&str], limits: &[&str]) -> Vec<String> {
    let mut v = vec![
        "--engine".to_string(),
        format!("cmd={FAKE_ENGINE}"),
        format!("name={name}"),
    ];
    v.extend(behaviour.iter().map(|b| format!("arg={b}")));
    v.extend(limits.iter().map(|s| s.to_string()));
    v
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("janggi-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn play(args: &[String]) -> (MatchReport, String) {
    let cfg = MatchConfig::parse(args).expect("valid command line");
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    let report = run(&cfg, &mut out, &stop).expect("match starts");
    (report, String::from_utf8_lossy(&out).into_owned())
}

#[test]
fn elo_error_bars_and_los_match_the_standard_formulas() {
    // W = 60, L = 40, D = 100, N = 200:
    //   s = (60 + 50) / 200 = 0.55
    //   Elo = -400 log10(1/0.55 - 1) = -400 log10(0.818182) = 34.860
    //   σ² = 0.3·0.45² + 0.2·0.55² + 0.5·0.05² = 0.06075 + 0.0605 + 0.00125 = 0.1225
    //   σ/√N = 0.35 / √200 = 0.0247487; × 1.959964 = 0.0485066
    //   Elo(0.5985066) = 69.358, Elo(0.5014934) = 1.0378 → ±(69.358 − 1.038)/2 = 34.159
    //   LOS = ½(1 + erf(20 / √200)) = ½(1 + erf(1.41421)) = 0.977250
    let t = Tally {
        wins: 60,
        losses: 40,
        draws: 100,
    };
    assert!((t.score().unwrap() - 0.55).abs() < 1e-12);
    assert!(
        (t.elo().unwrap() - 34.860_070).abs() < 1e-4,
        "{:?}",
        t.elo()
    );
    assert!(
        (t.elo_error().unwrap() - 34.159_269).abs() < 1e-4,
        "{:?}",
        t.elo_error()
    );
    assert!((t.los().unwrap() - 0.977_250).abs() < 1e-6, "{:?}", t.los());
    assert_eq!(t.to_string(), "60 - 40 - 100  [0.550] 200");
    assert_eq!(
        t.elo_line(),
        "Elo difference: 34.9 +/- 34.2, LOS: 97.7 %, DrawRatio: 50.0 %"
    );
    // Symmetric from the other side.
    let f = t.flipped();
    assert!((f.elo().unwrap() + 34.860_070).abs() < 1e-4);
    assert!((f.elo_error().unwrap() - 34.159_269).abs() < 1e-4);
    assert!((f.los().unwrap() - 0.022_750).abs() < 1e-6);
    // W = 30, L = 10, D = 0, N = 40: s = 0.75, Elo = -400 log10(1/3) = 190.849;
    // σ² = 0.75·0.25² + 0.25·0.75² = 0.1875, σ/√N = 0.0684653, × z = 0.134190;
    // Elo(0.884190) = 353.119, Elo(0.615810) = 81.961 → ±135.579.
    let t = Tally {
        wins: 30,
        losses: 10,
        draws: 0,
    };
    assert!((t.elo().unwrap() - 190.849).abs() < 1e-3);
    assert!(
        (t.elo_error().unwrap() - 135.579).abs() < 1e-3,
        "{:?}",
        t.elo_error()
    );
}

/// Feeds `pattern` cyclically until the SPRT decides; returns (games, decision).
fn sprt_run(p: &SprtParams, pattern: &str) -> (u32, SprtDecision) {
    let mut t = Tally::default();
    for (n, c) in pattern.chars().cycle().enumerate().take(100_000) {
        match c {
            'W' => t.wins += 1,
            'L' => t.losses += 1,
            _ => t.draws += 1,
        }
        let d = p.decide(&t);
        if d != SprtDecision::Continue {
            return (n as u32 + 1, d);
        }
    }
    (0, SprtDecision::Continue)
}

#[test]
fn sprt_stops_at_the_expected_bound() {
    // elo0 = 0, elo1 = 5, α = β = 0.05: bounds ln(0.05/0.95) = −2.944439 and
    // +2.944439; s0 = 0.5, s1 = 1/(1 + 10^(−5/400)) = 0.5071951.
    // "WWDL" repeated: s = 0.625, σ² = 0.171875 at multiples of 4, so the LLR
    // per game ≈ 0.0071951·(1.25 − 1.0071951)/(2·0.171875) = 0.0050822 and the
    // bound is reached near 2.944439/0.0050822 ≈ 579; computed game by game
    // (the partial cycles shift it) it is first crossed at game 574
    // (LLR 2.9505), H1 accepted. "LLDW" repeated: first below −2.944439 at
    // game 542 (LLR −2.9512), H0 accepted.
    let p = SprtParams {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    assert!((p.upper_bound() - 2.944_439).abs() < 1e-6);
    assert!((p.lower_bound() + 2.944_439).abs() < 1e-6);
    assert_eq!(sprt_run(&p, "WWDL"), (574, SprtDecision::AcceptH1));
    assert_eq!(sprt_run(&p, "LLDW"), (542, SprtDecision::AcceptH0));
    let t = Tally {
        wins: 288,
        losses: 143,
        draws: 143,
    };
    assert!((p.llr(&t) - 2.950_470).abs() < 1e-4, "{}", p.llr(&t));
    assert!(p.line(&t).ends_with("H1 was accepted"));
    // One game earlier it goes on.
    let t = Tally {
        wins: 287,
        losses: 143,
        draws: 143,
    };
    assert_eq!(p.decide(&t), SprtDecision::Continue);
    // Equal results never accept H1.
    assert_eq!(sprt_run(&p, "WL").1, SprtDecision::AcceptH0);
}

#[test]
fn byoyomi_ninety_percent_never_forfeits_hundred_ten_does() {
    // Main time 0, two byoyomi periods of 1000 ms, no margin: the 90 %
    // engine sleeps 900 ms per move, the 110 % engine 1100 ms. The 110 %
    // engine's first move uses up one period (1100 ms > 1000 ms), its
    // second overruns the last one.
    let byo = ["tc=0", "byoyomi=1000x2"];
    let mut args = fake("ninety", &["pct=90", "seed=1"], &byo);
    args.extend(fake("hundredten", &["pct=110", "seed=2"], &byo));
    args.extend(fake("quick", &["seed=3"], &["nodes=1"]));
    args.extend(words(
        "--tournament gauntlet --games 2 --maxmoves 4 --openings startpos --seed 1",
    ));
    let (report, out) = play(&args);
    assert_eq!(report.games.len(), 4, "{out}");
    for g in &report.games {
        let ninety = if g.players[0] == "ninety" {
            Color::Cho
        } else {
            Color::Han
        };
        if g.players.contains(&"hundredten".to_string()) {
            assert_eq!(g.result.termination, Termination::TimeLoss, "{out}");
            assert_eq!(g.result.winner, Some(ninety), "{out}");
            let slow = g.moves.iter().filter(|m| m.elapsed_ms >= 1050).count();
            assert_eq!(slow, 1, "one 1100 ms move survives on the second period");
            assert!(g.moves.iter().all(|m| m.elapsed_ms < 1500));
        } else {
            // Against the quick engine: 2 moves of 900 ms each, no forfeit.
            assert_eq!(g.result.termination, Termination::MaxMoves, "{out}");
            assert_eq!(g.moves.iter().filter(|m| m.elapsed_ms >= 880).count(), 2);
        }
    }
    assert!(out.contains("Elo difference:"));
}

#[test]
fn misbehaving_engines_lose_with_the_right_reason_and_the_match_goes_on() {
    let pgn = temp("forfeits.pgn");
    let mut args = fake("good", &["seed=5"], &["nodes=1"]);
    args.extend(fake("illegal", &["mode=illegal", "at=2"], &["nodes=1"]));
    args.extend(fake("garbage", &["mode=garbage", "at=2"], &["nodes=1"]));
    args.extend(fake("crash", &["mode=crash", "at=2"], &["nodes=1"]));
    args.extend(fake(
        "hang",
        &["mode=hang", "at=2"],
        &["nodes=1", "timeout=300", "stopwait=200"],
    ));
    args.extend(fake(
        "late",
        &["mode=late", "at=2", "late=600"],
        &["st=0.2"],
    ));
    args.extend(fake(
        "resigner",
        &["mode=resign", "at=2"],
        &["nodes=1", "proto=usi"],
    ));
    args.extend(fake("usi", &["seed=9"], &["nodes=1", "proto=usi"]));
    args.extend(words(
        "--tournament gauntlet --games 2 --maxmoves 40 --openings setups",
    ));
    args.extend(["--pgnout".to_string(), pgn.display().to_string()]);
    let (report, out) = play(&args);
    assert_eq!(report.end, MatchEnd::Completed);
    assert_eq!(report.games.len(), 14, "every game is played: {out}");
    for g in &report.games {
        let bad = if g.players[0] == "good" { 1 } else { 0 };
        let bad_name = g.players[bad].as_str();
        let loser = if bad == 0 { Color::Cho } else { Color::Han };
        let expect = match bad_name {
            "illegal" => Termination::IllegalMove,
            "garbage" => Termination::UnparseableMove,
            "crash" => Termination::Crash,
            "hang" => Termination::NoReply,
            "late" => Termination::TimeLoss,
            "resigner" => Termination::Resign,
            _ => {
                // A well-behaved USI engine: a normal game, no forfeit.
                assert!(
                    matches!(
                        g.result.termination,
                        Termination::Rules(_) | Termination::MaxMoves
                    ),
                    "{bad_name}: {:?}",
                    g.result
                );
                continue;
            }
        };
        assert_eq!(
            g.result.termination, expect,
            "{bad_name}: {:?}\n{out}",
            g.result
        );
        assert_eq!(g.result.winner, Some(!loser), "{bad_name}");
        let detail = g.result.detail.clone().unwrap_or_default();
        assert!(detail.contains("position"), "{bad_name}: {detail}");
        match bad_name {
            "garbage" => assert!(detail.contains("xyzzy"), "{detail}"),
            "crash" => assert!(detail.contains("exit code 3"), "{detail}"),
            "illegal" => assert!(detail.contains("illegal move"), "{detail}"),
            _ => {}
        }
        // The misbehaviour is at the engine's 2nd move.
        let engine_moves = g.moves.iter().filter(|m| !m.book).count();
        assert_eq!(engine_moves, if bad == 0 { 2 } else { 3 }, "{bad_name}");
    }
    assert!(out.contains("Terminations:"));
    // The good engine won every forfeit; the PGN has all 14 games and
    // replays (the offending move is not in it).
    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    let games = read_pgn(&text).expect("PGN parses");
    assert_eq!(games.len(), 14);
    for (p, g) in games.iter().zip(&report.games) {
        let replayed = p.replay().expect("replays");
        assert_eq!(replayed.position().fen(), g.final_fen);
        assert_eq!(p.result, g.result.pgn_result());
        assert_eq!(p.termination(), Some(g.result.termination));
    }
    assert!(text.contains("[TerminationDetails \"han engine sent unparseable move 'xyzzy'"));
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn pgn_round_trip_replays_to_the_same_positions_and_results() {
    let pgn = temp("roundtrip.pgn");
    let mut args = fake("a", &["seed=11"], &["nodes=1"]);
    args.extend(fake("b", &["seed=12"], &["nodes=1"]));
    args.extend(words(
        "--games 6 --concurrency 2 --openings setups order=random plies=3 --seed 42 --variant janggi --maxmoves 120",
    ));
    args.extend(["--pgnout".to_string(), pgn.display().to_string()]);
    let (report, out) = play(&args);
    assert_eq!(report.games.len(), 6, "{out}");
    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    let games = read_pgn(&text).expect("PGN parses");
    assert_eq!(games.len(), 6);
    for p in &games {
        let round: usize = p.tag("Round").and_then(|r| r.parse().ok()).expect("Round");
        let rec = report
            .games
            .iter()
            .find(|g| g.number == round)
            .expect("same game");
        assert_eq!(p.tag("Variant"), Some("Janggi"));
        assert_eq!(p.tag("SetUp"), Some("1"));
        assert_eq!(p.tag("FEN"), Some(rec.start_fen.as_str()));
        assert_eq!(p.tag("Notation"), Some("UCI"));
        assert_eq!(p.moves.len(), rec.moves.len());
        let game = p.replay().expect("replays under the recorded rules");
        assert_eq!(game.position().fen(), rec.final_fen);
        assert_eq!(p.result, rec.result.pgn_result());
        assert_eq!(p.termination(), Some(rec.result.termination));
        let term = p.tag("Termination").unwrap_or("");
        assert!(term.contains(&rec.result.summary_ko), "{term}");
        if let Termination::Rules(reason) = rec.result.termination {
            let o = game.outcome().expect("the replayed game is over too");
            assert_eq!(o.reason, reason);
            assert_eq!(o.winner, rec.result.winner);
            assert_eq!(o.summary_ko(), rec.result.summary_ko);
        }
        // Both games of a pair start from the same opening.
        let partner = if round % 2 == 1 { round + 1 } else { round - 1 };
        let other = report
            .games
            .iter()
            .find(|g| g.number == partner)
            .expect("pair");
        assert_eq!(other.start_fen, rec.start_fen);
        let book = |g: &janggi_match::referee::GameRecord| {
            g.moves
                .iter()
                .filter(|m| m.book)
                .map(|m| m.mv)
                .collect::<Vec<_>>()
        };
        assert_eq!(book(other), book(rec));
        assert_eq!(other.players[0], rec.players[1]);
    }
    let _ = std::fs::remove_file(&pgn);
}

/// "weak" resigns at its first move in two games of every three and plays
/// normally in the third: "strong" scores about 5/6, far above elo1, so H1
/// is accepted long before the 400 scheduled games.
fn strong_against_weak_sprt() -> Vec<String> {
    let mut args = fake("strong", &["seed=1"], &["nodes=1"]);
    args.extend(fake(
        "weak",
        &["mode=resign", "at=1", "period=3", "seed=2"],
        &["nodes=1"],
    ));
    args.extend(words(
        "--games 400 --maxmoves 30 --openings setups --ratinginterval 0 \
         --sprt elo0=0 elo1=50 alpha=0.05 beta=0.05",
    ));
    args
}

#[test]
fn sprt_stops_the_match_early() {
    let (report, out) = play(&strong_against_weak_sprt());
    assert_eq!(report.end, MatchEnd::Sprt(SprtDecision::AcceptH1), "{out}");
    let t = report.pairs[&(0, 1)];
    assert!(t.games() < 400 && t.games() >= 2, "{out}");
    let p = SprtParams {
        elo0: 0.0,
        elo1: 50.0,
        alpha: 0.05,
        beta: 0.05,
    };
    assert!(p.llr(&t) >= p.upper_bound(), "{out}");
    // It stopped at the first game that crossed: one game fewer does not.
    let mut before = t;
    let last = report
        .games
        .iter()
        .rev()
        .find(|g| g.result.termination != Termination::Aborted)
        .expect("games");
    match last.result.winner {
        None => before.draws -= 1,
        Some(w) if last.players[w.index()] == "strong" => before.wins -= 1,
        Some(_) => before.losses -= 1,
    }
    assert_eq!(p.decide(&before), SprtDecision::Continue, "{out}");
    assert!(out.contains("H1 was accepted"), "{out}");
}

#[test]
fn stop_writes_the_games_played() {
    // Slow engines (st=0.1, 100 % of it per move); the stop flag (what
    // Ctrl-C sets) is raised during the second game.
    let pgn = temp("stop.pgn");
    let mut args = fake("a", &["pct=100"], &["st=0.1", "timemargin=200"]);
    args.extend(fake("b", &["pct=100"], &["st=0.1", "timemargin=200"]));
    args.extend(words("--games 10 --maxmoves 6 --openings startpos"));
    args.extend(["--pgnout".to_string(), pgn.display().to_string()]);
    let cfg = MatchConfig::parse(&args).expect("args");
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    let report = std::thread::scope(|s| {
        s.spawn(|| {
            // Once a game is written, stop in the middle of the next one
            // (a game is 6 moves of 100 ms).
            for _ in 0..200 {
                let written = std::fs::read_to_string(&pgn).unwrap_or_default();
                if written.contains("[Event ") {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            std::thread::sleep(Duration::from_millis(250));
            stop.store(true, Ordering::SeqCst);
        });
        run(&cfg, &mut out, &stop).expect("runs")
    });
    let out = String::from_utf8_lossy(&out);
    assert_eq!(report.end, MatchEnd::Interrupted, "{out}");
    assert!(report.games.len() < 10);
    assert!(out.contains("Match interrupted"), "{out}");
    let games = read_pgn(&std::fs::read_to_string(&pgn).expect("PGN")).expect("parses");
    assert_eq!(games.len(), report.games.len());
    assert!(
        games.iter().any(|g| g.result == "*"),
        "the game in progress is written unfinished"
    );
    let finished = games.iter().filter(|g| g.result != "*").count();
    assert!(finished >= 1, "{out}");
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn score_adjudication_needs_both_engines_to_agree() {
    // "pessimist" always reports −900 cp, "optimist" +900 cp: with
    // --resign movecount=3 score=500 the pessimist loses once each engine
    // has reported 3 such scores in a row: after 6 plies whoever is Cho.
    let mut args = fake("pessimist", &["score=-900", "seed=1"], &["nodes=1"]);
    args.extend(fake("optimist", &["score=900", "seed=2"], &["nodes=1"]));
    args.extend(words(
        "--games 2 --openings startpos --resign movecount=3 score=500",
    ));
    let (report, out) = play(&args);
    for g in &report.games {
        assert_eq!(g.result.termination, Termination::Adjudication, "{out}");
        let winner = g.result.winner.expect("decisive");
        assert_eq!(g.players[winner.index()], "optimist");
        assert_eq!(g.moves.len(), 6, "{out}");
    }
    // Two pessimists: nobody agrees to be winning, so no resign adjudication;
    // the draw rule (both within 1000 cp for 2 moves from move 3) applies.
    let mut args = fake("p1", &["score=-900", "seed=1"], &["nodes=1"]);
    args.extend(fake("p2", &["score=-900", "seed=2"], &["nodes=1"]));
    args.extend(words(
        "--games 2 --openings startpos --resign movecount=3 score=500 \
         --draw movenumber=3 movecount=2 score=1000",
    ));
    let (report, out) = play(&args);
    for g in &report.games {
        assert_eq!(g.result.termination, Termination::Adjudication, "{out}");
        assert_eq!(g.result.winner, None, "{out}");
        assert_eq!(g.moves.len(), 6, "{out}");
    }
}

#[test]
fn round_robin_of_three_engines() {
    let dir = std::env::temp_dir();
    let mut args = fake(
        "x",
        &["seed=1"],
        &["nodes=1", &format!("dir={}", dir.display())],
    );
    args.extend(fake("y", &["seed=2"], &["nodes=1"]));
    args.extend(fake("z", &["seed=3"], &["nodes=1", "proto=usi"]));
    args.extend(words(
        "--games 2 --concurrency 3 --maxmoves 20 --openings startpos plies=2 --seed 9",
    ));
    let (report, out) = play(&args);
    assert_eq!(report.games.len(), 6, "{out}");
    assert_eq!(report.pairs.len(), 3);
    for t in report.pairs.values() {
        assert_eq!(t.games(), 2);
    }
    for t in &report.engines {
        assert_eq!(t.games(), 4);
    }
    for pair in ["Score of x vs y", "Score of x vs z", "Score of y vs z"] {
        assert!(out.contains(pair), "{out}");
    }
    let mut numbers: Vec<usize> = report.games.iter().map(|g| g.number).collect();
    numbers.sort_unstable();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
}

#[test]
fn run_match_reports_usage_and_start_failures() {
    let mut out = Vec::new();
    assert_eq!(
        janggi_match::run_match(&words("--engine cmd=x"), &mut out),
        2
    );
    assert!(String::from_utf8_lossy(&out).contains("usage:"));
    let mut out = Vec::new();
    let code = janggi_match::run_match(
        &words("--engine cmd=/nonexistent/engine --engine cmd=/nonexistent/other --each nodes=1"),
        &mut out,
    );
    assert_eq!(code, 1);
    assert!(String::from_utf8_lossy(&out).contains("could not start"));
    // The same failure through `run`, typed.
    let cfg = MatchConfig::parse(&words(
        "--engine cmd=/nonexistent/engine name=A --engine cmd=/nonexistent/other --each nodes=1",
    ))
    .expect("a good command line");
    let stop = AtomicBool::new(false);
    match run(&cfg, &mut Vec::new(), &stop) {
        Err(MatchError::Engine {
            name,
            cmd,
            error: ProcessError::Spawn(_),
        }) => assert_eq!((name.as_str(), cmd.as_str()), ("A", "/nonexistent/engine")),
        other => panic!("{other:?}"),
    }
    // An unwritable PGN file.
    let mut args = fake("a", &[], &["nodes=1"]);
    args.extend(fake("b", &[], &["nodes=1"]));
    args.extend(words("--pgnout /nonexistent/dir/games.pgn"));
    let cfg = MatchConfig::parse(&args).expect("a good command line");
    let err = run(&cfg, &mut Vec::new(), &stop).expect_err("no such directory");
    assert!(matches!(err, MatchError::PgnFile { .. }), "{err:?}");
    assert!(err
        .to_string()
        .starts_with("cannot open /nonexistent/dir/games.pgn"));
}

/// A book of one position where no capture can ever happen: each side has
/// only its general and guards, which never leave their palace.
fn palace_book() -> PathBuf {
    let book = temp("palaces.epd");
    std::fs::write(&book, "3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1\n").expect("write book");
    book
}

/// `--engine` words for two quick fake engines from the palace book, with
/// bikjang off and no pass (so nothing but a length limit ends the game).
fn endless_match(extra: &str) -> Vec<String> {
    let mut args = fake("a", &["seed=1"], &["nodes=1"]);
    args.extend(fake("b", &["seed=2"], &["nodes=1"]));
    args.extend(words(&format!(
        "--games 2 --openings file={} --rule Bikjang=off AllowPass=false {extra}",
        palace_book().display()
    )));
    args
}

#[test]
fn endless_games_are_adjudicated_by_default_and_the_limits_can_change() {
    // The default for a rule set without a move limit or n-move rule: 200
    // plies without a capture, decided by counting (Cho 6 : Han 7.5).
    let pgn = temp("endless.pgn");
    let mut args = endless_match("");
    args.extend(words(&format!("--pgnout {}", pgn.display())));
    let (report, out) = play(&args);
    assert!(
        out.contains(
            "Adjudication: after 200 plies without a capture or at 1000 plies by counting (default"
        ),
        "{out}"
    );
    assert!(
        out.contains("Adjudicated: 2 of 2 games (noCapture 2)"),
        "{out}"
    );
    for g in &report.games {
        assert_eq!(g.result.termination, Termination::NoCapture, "{out}");
        assert_eq!(g.moves.len(), 200, "{out}");
        assert_eq!(g.result.winner, Some(Color::Han), "{out}");
    }
    let text = std::fs::read_to_string(&pgn).expect("pgn");
    let games = read_pgn(&text).expect("pgn parses");
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g.termination(), Some(Termination::NoCapture), "{text}");
    }
    assert!(
        text.contains("no capture for 200 plies (--nocapture): counting, Cho 6 : Han 7.5"),
        "{text}"
    );

    // Changed: 30 plies without a capture.
    let (report, out) = play(&endless_match("--nocapture 30"));
    for g in &report.games {
        assert_eq!(g.result.termination, Termination::NoCapture, "{out}");
        assert_eq!(g.moves.len(), 30, "{out}");
    }
    // Off, with a ply cap instead; without scoring the cap is a draw.
    let (report, out) = play(&endless_match(
        "--nocapture 0 --maxmoves 41 --rule Scoring=false",
    ));
    assert!(
        out.contains("Adjudicated: 2 of 2 games (maxMoves 2)"),
        "{out}"
    );
    for g in &report.games {
        assert_eq!(g.result.termination, Termination::MaxMoves, "{out}");
        assert_eq!(g.moves.len(), 41, "{out}");
        assert_eq!(g.result.winner, None, "{out}");
    }
    // A rule set with its own n-move rule gets no default: its own rule
    // ends the game (janggicasual: 100 plies, no scoring).
    let mut args = fake("a", &["seed=1"], &["nodes=1"]);
    args.extend(fake("b", &["seed=2"], &["nodes=1"]));
    args.extend(words(&format!(
        "--games 1 --openings file={} --variant janggicasual --rule AllowPass=false",
        palace_book().display()
    )));
    let (report, out) = play(&args);
    assert!(out.contains("Adjudicated: 0 of 1 games"), "{out}");
    let g = &report.games[0];
    assert!(
        matches!(g.result.termination, Termination::Rules(_)),
        "{out}"
    );
}

/// The file's games as (round, result), in file order.
fn rounds(text: &str) -> Vec<(usize, String)> {
    read_pgn(text)
        .expect("parses")
        .iter()
        .map(|g| {
            let round = g.tag("Round").and_then(|r| r.parse().ok()).expect("Round");
            (round, g.result.clone())
        })
        .collect()
}

#[test]
fn a_cut_off_match_resumes_from_its_pgn_file() {
    let pgn = temp("resume.pgn");
    let args = |seed: u32, name: &str, extra: &str| {
        let mut a = fake(name, &["seed=11"], &["nodes=1"]);
        a.extend(fake("b", &["seed=12"], &["nodes=1"]));
        a.extend(words(&format!(
            "--games 8 --concurrency 2 --openings setups order=random plies=2 --seed {seed} \
             --variant janggi --maxmoves 120 {extra}"
        )));
        a.extend(["--pgnout".to_string(), pgn.display().to_string()]);
        a
    };
    let (first, _) = play(&args(42, "a", ""));
    assert_eq!(first.games.len(), 8);
    let whole = std::fs::read_to_string(&pgn).expect("PGN");
    let at = janggi_match::resume::game_starts(&whole);
    assert_eq!(at.len(), 8);
    // What a cut-off run leaves: three finished games, the game in
    // progress at a Ctrl-C written unfinished (`*`), and a fifth game
    // whose write stopped in the middle (the machine went down).
    let kept = &whole[..at[3]];
    let fourth = &whole[at[3]..at[4]];
    let result = rounds(fourth)[0].1.clone();
    let aborted = fourth
        .replace(&format!("[Result \"{result}\"]"), "[Result \"*\"]")
        .replace(&format!("{result}\n\n"), "*\n\n");
    let fifth = &whole[at[4]..at[5]];
    let cut_text = format!("{kept}{aborted}{}", &fifth[..fifth.len() / 2]);
    std::fs::write(&pgn, &cut_text).expect("write");

    // Another match's command line is refused and the file left alone.
    // (Another seed: another opening, or the same setup with other
    // random plies; another name: on whichever side it plays.)
    let other_seed: &[&str] = &["[FEN]", "[Opening]", "opening moves"];
    for (seed, name, why) in [(43, "a", other_seed), (42, "x", &["[White]", "[Black]"])] {
        let cfg = MatchConfig::parse(&args(seed, name, "--resume")).expect("args");
        let err = run(&cfg, &mut Vec::new(), &AtomicBool::new(false)).expect_err("refused");
        assert!(matches!(err, MatchError::Resume { .. }), "{err:?}");
        let text = err.to_string();
        assert!(why.iter().any(|w| text.contains(w)), "{text}");
        assert_eq!(std::fs::read_to_string(&pgn).expect("PGN"), cut_text);
    }

    let (report, out) = play(&args(42, "a", "--resume"));
    let done: Vec<usize> = rounds(kept).iter().map(|r| r.0).collect();
    assert_eq!(
        report.earlier.iter().map(|g| g.number).collect::<Vec<_>>(),
        done,
        "{out}"
    );
    assert!(
        out.contains("Resuming from")
            && out.contains("3 of 8 games finished there, 1 aborted (played again); 5 to play"),
        "{out}"
    );
    assert!(out.contains("was cut off while being written"), "{out}");
    assert_eq!(report.games.len(), 5, "{out}");
    assert!(report.games.iter().all(|g| !done.contains(&g.number)));
    assert_eq!(report.pairs[&(0, 1)].games(), 8, "the file's games count");
    assert!(out.contains("Finished match"), "{out}");
    // The file: the three games as they were, the aborted one kept, the
    // cut one gone, then the five played now; every game finished once.
    let text = std::fs::read_to_string(&pgn).expect("PGN");
    assert!(text.starts_with(&format!("{kept}{aborted}")));
    let mut finished: Vec<usize> = rounds(&text)
        .into_iter()
        .filter(|r| r.1 != "*")
        .map(|r| r.0)
        .collect();
    finished.sort_unstable();
    assert_eq!(finished, (1..=8).collect::<Vec<_>>());
    // Terminations count the file's games too.
    let terms = out
        .lines()
        .find(|l| l.starts_with("Terminations:"))
        .expect("line");
    let n: usize = terms
        .split(", ")
        .map(|p| {
            p.rsplit(' ')
                .next()
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or(0)
        })
        .sum();
    assert_eq!(n, 8, "{terms}");

    // Resumed again when everything is played: nothing to play.
    let (again, out) = play(&args(42, "a", "--resume"));
    assert!(again.games.is_empty(), "{out}");
    assert_eq!(again.pairs[&(0, 1)].games(), 8);
    assert!(
        out.contains("8 of 8 games finished there; 0 to play"),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(&pgn).expect("PGN"), text);
    let _ = std::fs::remove_file(&pgn);

    // `--resume` needs the file.
    let mut a = fake("a", &[], &["nodes=1"]);
    a.extend(fake("b", &[], &["nodes=1"]));
    a.push("--resume".to_string());
    let err = MatchConfig::parse(&a).expect_err("no --pgnout");
    assert!(err.to_string().contains("--pgnout"), "{err}");
}

#[test]
fn a_resumed_sprt_that_the_file_already_decides_plays_nothing() {
    let pgn = temp("resume-sprt.pgn");
    let mut args = strong_against_weak_sprt();
    args.extend(["--pgnout".to_string(), pgn.display().to_string()]);
    let (first, out) = play(&args);
    assert_eq!(first.end, MatchEnd::Sprt(SprtDecision::AcceptH1), "{out}");
    let before = std::fs::read_to_string(&pgn).expect("PGN");
    args.push("--resume".to_string());
    let (again, out) = play(&args);
    assert_eq!(again.end, MatchEnd::Sprt(SprtDecision::AcceptH1), "{out}");
    assert!(again.games.is_empty(), "{out}");
    assert_eq!(again.pairs[&(0, 1)], first.pairs[&(0, 1)]);
    assert_eq!(std::fs::read_to_string(&pgn).expect("PGN"), before);
    let _ = std::fs::remove_file(&pgn);
}
