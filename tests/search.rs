//! Search tests: mates, tactics, legality, limits, eval symmetry, bench.

use janggi::game::{Game, Rules};
use janggi::search::{Limits, ReportScore, SearchControl, SearchResult, Searcher};
use janggi::{LegalityModel, Move, Position};
use std::time::{Duration, Instant};

fn game(fen: &str) -> Game {
    Game::new(
        Position::from_fen(fen).expect("valid fen"),
        Rules::default(),
    )
}

fn search_depth(g: &Game, depth: u32) -> SearchResult {
    let mut s = Searcher::new(16, 1);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    s.search(g, &limits, &SearchControl::default(), &mut |_| {})
}

#[test]
fn smoke_startpos() {
    let g = Game::new(Position::startpos(), Rules::default());
    let t = Instant::now();
    let mut s = Searcher::new(16, 1);
    let limits = Limits {
        depth: Some(7),
        ..Limits::default()
    };
    let r = s.search(&g, &limits, &SearchControl::default(), &mut |i| {
        eprintln!(
            "depth {} sel {} score {:?} nodes {} nps {} pv {:?}",
            i.depth, i.seldepth, i.score, i.nodes, i.nps, i.pv
        )
    });
    eprintln!("{:?} in {:?}", r, t.elapsed());
    assert!(g.is_legal(r.best.expect("a move")));
    let _ = (
        LegalityModel::Casual,
        Move::PASS,
        Duration::ZERO,
        ReportScore::Cp(0),
        search_depth,
    );
}
