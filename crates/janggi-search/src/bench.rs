//! `bench`: a fixed set of positions from every phase of the game searched
//! to a fixed depth with one thread and a 16 MB hash, cleared before each
//! position. The total node count is the search's signature: the same
//! binary gives the same count on every run and machine, and any change
//! to search or evaluation behaviour changes it.
//!
//! ```no_run
//! let report = janggi_search::bench::bench(Some(4), None);
//! println!("Nodes searched: {}", report.nodes);
//! println!("Nodes/second: {}", report.nps);
//! ```

use crate::nnue::Network;
use crate::search::params::SearchParams;
use crate::search::{Limits, SearchControl, Searcher};
use janggi_core::{Game, Position, Rules};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 9;
/// Hash size in MB.
pub const HASH_MB: usize = 16;

/// The positions: the four symmetric set-ups, then middlegames and
/// endgames (from the perft suite's random games).
pub const FENS: [&str; 46] = [
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
    "rbna1anbr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ANBR w - - 0 1",
    "rnba1anbr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ABNR w - - 0 1",
    "rbna1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ANBR w - - 0 1",
    "1n1kaabn1/cr2N4/5C1c1/p1pNp3p/9/9/P1PbP1P1P/3r1p3/4A4/R1BA1KB1R b - - 0 1",
    "1Pbcka3/3nNn1c1/N2CaC3/1pB6/9/9/5P3/9/4K4/9 w - - 0 23",
    "nC1a5/r2a1k1Cn/9/p1pp5/4P1p2/9/r1P1B2P1/9/3A5/1NB1KA1N1 w - - 4 19",
    "1nCa5/1r1ka2c1/9/1p3pp2/9/9/9/N8/5K3/9 w - - 3 31",
    "1b1a5/3nk4/3a1c3/4b4/2p2P3/9/1P2P4/2C6/2N2A3/3A1K3 w - - 7 43",
    "1n7/5k3/9/5b3/9/3P5/4P4/9/4K4/9 w - - 7 42",
    "2b1aaR2/4k4/nc5c1/p5p2/9/4p4/2P2BP2/4AC3/3ANK3/2BN5 b - - 0 24",
    "9/2R1ak3/9/7c1/4p4/7P1/5B2P/9/5K3/1NB6 b - - 14 43",
    "1bna2rb1/4a4/4k4/2pp5/9/9/3PP3P/1C5C1/R2A5/1NB1AK1BR w - - 4 20",
    "1b1a2r2/4a4/3b1k1R1/5p3/2CP5/B7P/3N5/4K4/4A4/1B1A5 b - - 0 30",
    "1nba1anbr/4k4/1c5c1/1pp1p1p1p/9/8P/P1P2PP2/NC5C1/R3K4/2Br1ABNR w - - 0 5",
    "1b2a1b2/r2kBa3/1c5cr/p3p3p/2p2n3/8P/P1P2P3/RC1AK2CR/4A4/6NB1 b - - 0 20",
    "4a4/3Ck4/5b3/2C3N2/8B/1P5P1/9/2R6/4AK3/1BN2A3 w - - 5 37",
    "4k1C2/9/8n/3p5/8P/p2bp4/4r4/5K3/5N1c1/3A5 b - - 3 37",
    "r1na1anb1/5k3/1c6r/p1pbp2pp/9/2P6/4P3R/1C5C1/3A5/RNB1KABN1 b - - 0 8",
    "1n1a5/4k4/3b5/p2p1p2p/6p2/6P1c/9/1C1A5/3K5/1NB2A3 b - - 1 21",
    "1n1aa2b1/4k4/3R5/7p1/4p1p2/9/7P1/9/3A5/4bK3 b - - 0 33",
    "1bn2anb1/4a4/c2k3c1/2p3P2/4P2p1/4C4/9/4r4/5K3/3A5 w - - 0 24",
    "1n2ar1n1/4ak3/7c1/9/p5p2/8p/7P1/1N7/1C2K4/1B6R b - - 0 37",
    "1bn2an2/3a1k3/6r2/1pp4p1/9/1N2P3c/9/5K3/3A5/2B2ANB1 b - - 4 20",
    "rnba1anbr/9/1cck5/4p1p1p/p8/2p6/P1P2PP1P/1CNB3C1/3K1A3/R1BA3NR w - - 10 6",
    "1rC6/3ak1C2/1c3a2R/2p2pp2/p8/9/P1P1P2P1/2N6/3K5/R1BA2BN1 b - - 0 16",
    "5a1b1/3a1k3/1c7/P5p2/6p1N/9/3n5/9/5K3/9 w - - 1 41",
    "5k3/9/4n2cr/bBp3p1p/9/9/4N1P1P/c3CK3/8R/2NA2B2 b - - 0 29",
    "r1b1a2b1/3k1r3/nc1a5/p4p1p1/1p5R1/P4P3/3P5/1C5C1/5K1B1/RBN1AA1N1 b - - 0 22",
    "5k3/9/1c7/p8/p7p/6P2/2rP3P1/4K1C2/9/4A4 w - - 2 29",
    "1nba1ab2/8r/1c1k2n2/p1p6/4C1p1p/9/P3P2PP/1C5R1/9/RNBKNA3 b - - 2 12",
    "rnb2abnr/3a5/1c1k3c1/p3pp2p/2P6/4P4/P6PP/1C5C1/3NKA3/RBNA3BR b - - 0 7",
    "1nbaa1bnr/R8/1c3k1c1/1pp2p1p1/3P4p/9/2P3P1P/1C1N3C1/4K4/1B1A1ABNR w - - 13 11",
    "1nb2a1br/r2ak4/1c3n1c1/4p3p/1pp4p1/9/P1P1PB1PP/RC3B1C1/5K2R/1N1A1AN2 b - - 17 9",
    "9/3aa4/5k3/9/3p2P2/8b/2b1P4/9/3K5/5A3 b - - 3 44",
    "1bn2a1b1/4a4/4kn3/3prp3/8p/5P3/B1P6/4r4/9/3K5 b - - 17 31",
    "3a3b1/5k3/5nr2/pp1n4P/5p3/4P2P1/Bc1N5/9/5R3/1N3K3 w - - 1 34",
    "1C7/9/4ka1r1/3p3n1/9/9/3NP4/4A4/1n3K2c/1B3AB1b w - - 2 41",
    "1C3a3/3ak4/9/9/9/3P5/4B4/4K4/4A3n/5ANBb b - - 0 26",
    "1C7/3k5/9/p8/4n2p1/c2p5/c8/1C3N3/2NKA4/4A2B1 w - - 2 31",
    "2n1a4/5a3/3k5/3bbp3/3p4p/7P1/1R2B4/1C6N/3Kn4/5A3 w - - 2 33",
    "2n1ka1n1/9/1cr5c/p3pp1r1/3P5/2P6/P3B1N2/4K2p1/4A4/R1N2A3 b - - 3 33",
    "1n1a2bn1/5a3/4k4/b1p6/9/1B7/2R1p2c1/1C7/3AKN3/5A1B1 b - - 5 22",
    "rbna1anbr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ANBR w - - 0 1",
    "r1baa1nb1/9/nc2k4/p2ppp2r/9/8P/P1P1B1P2/1C5C1/4A4/RNBAK2N1 b - - 0 12",
    "1bn1a1b2/5k3/rc3cn2/p5p2/2p6/2P4Pr/P3P3P/NC4N2/9/R1BKAAB2 b - - 3 14",
];

/// What one bench run measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Positions searched.
    pub positions: usize,
    /// Depth searched.
    pub depth: u32,
    /// Total nodes (the signature).
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Nodes per second.
    pub nps: u64,
}

/// Runs the bench at `depth` (default [`DEFAULT_DEPTH`]) with `network`
/// (`None`: the handcrafted evaluation).
pub fn bench(depth: Option<u32>, network: Option<Arc<Network>>) -> BenchReport {
    bench_with(depth, network, &SearchParams::default(), &mut |_, _, _| {})
}

/// Runs the bench with `params` (the signature is that of the defaults;
/// a tuning build's `SearchTune` changes it), calling
/// `on_position(index, fen, nodes)` after each position (for progress
/// output).
pub fn bench_with(
    depth: Option<u32>,
    network: Option<Arc<Network>>,
    params: &SearchParams,
    on_position: &mut dyn FnMut(usize, &str, u64),
) -> BenchReport {
    let depth = depth.unwrap_or(DEFAULT_DEPTH).clamp(1, 64);
    let mut searcher = Searcher::new(HASH_MB, 1);
    searcher.set_network(network);
    searcher.set_params(params.clone());
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let control = SearchControl::default();
    let start = Instant::now();
    let mut nodes = 0;
    let mut positions = 0;
    for (i, fen) in FENS.iter().enumerate() {
        let Ok(pos) = Position::from_fen(fen) else {
            continue;
        };
        searcher.clear();
        let game = Game::new(pos, Rules::default());
        let r = searcher.search(&game, &limits, &control, &mut |_| {});
        nodes += r.nodes;
        positions += 1;
        on_position(i, fen, r.nodes);
    }
    let elapsed = start.elapsed();
    BenchReport {
        positions,
        depth,
        nodes,
        elapsed,
        nps: (nodes as u128 * 1000 / elapsed.as_millis().max(1)) as u64,
    }
}
