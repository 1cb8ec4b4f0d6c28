//! A short match of the project's engine against itself at fixed nodes:
//! it finishes, every game is legal and decided by the rules (no forfeit),
//! and the PGN replays through the project's reader to the same final
//! positions and results.

use janggi_match::pgn::read_pgn;
use janggi_match::referee::Termination;
use janggi_match::{run, MatchConfig, MatchEnd};
use std::sync::atomic::AtomicBool;

const ENGINE: &str = env!("CARGO_BIN_EXE_janggi-engine");

#[test]
fn self_play_at_fixed_nodes_is_legal_and_replays() {
    let pgn = std::env::temp_dir().join(format!("janggi-selfplay-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&pgn);
    let mut args: Vec<String> = Vec::new();
    for name in ["one", "two"] {
        args.extend([
            "--engine".to_string(),
            format!("cmd={ENGINE}"),
            format!("name={name}"),
            "option.Hash=16".to_string(),
        ]);
    }
    args.extend(
        "--each nodes=1000 timeout=20000 --games 4 --concurrency 2 --openings setups plies=2 \
         --seed 3 --maxmoves 200 --pgnout"
            .split_whitespace()
            .map(String::from),
    );
    args.push(pgn.display().to_string());
    let cfg = MatchConfig::parse(&args).expect("command line");
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    let report = run(&cfg, &mut out, &stop).expect("the engine starts");
    let out = String::from_utf8_lossy(&out).into_owned();
    assert_eq!(report.end, MatchEnd::Completed, "{out}");
    assert_eq!(report.games.len(), 4, "{out}");
    for g in &report.games {
        assert!(
            matches!(
                g.result.termination,
                Termination::Rules(_) | Termination::MaxMoves
            ),
            "game {} ended by {:?}\n{out}",
            g.number,
            g.result
        );
        assert!(g.moves.iter().filter(|m| !m.book).count() > 0);
    }
    assert!(out.contains("Score of one vs two: "), "{out}");
    assert!(out.contains("Elo difference: "), "{out}");
    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    let games = read_pgn(&text).expect("PGN parses");
    assert_eq!(games.len(), 4);
    for p in &games {
        let round: usize = p.tag("Round").and_then(|r| r.parse().ok()).expect("Round");
        let rec = report
            .games
            .iter()
            .find(|g| g.number == round)
            .expect("game");
        let game = p.replay().expect("every move is legal");
        assert_eq!(game.position().fen(), rec.final_fen);
        assert_eq!(p.result, rec.result.pgn_result());
        if let Termination::Rules(reason) = rec.result.termination {
            let o = game.outcome().expect("over after replay");
            assert_eq!((o.reason, o.winner), (reason, rec.result.winner));
        }
    }
    let _ = std::fs::remove_file(&pgn);
}
