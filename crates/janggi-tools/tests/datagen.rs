//! The datagen round trip: a run writes a file that reads back to the
//! records of the same games played directly, and a resumed run keeps the
//! old games and adds new ones. (Moved from tests/nnue.rs with datagen.)

use janggi_search::search::Searcher;
use janggi_tools::datagen::format::read_file;
use janggi_tools::datagen::{play_game, run, DatagenConfig};
use std::sync::atomic::AtomicBool;

#[test]
fn datagen_round_trip() {
    let path = std::env::temp_dir().join(format!("janggi-datagen-{}.bin", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let cfg = DatagenConfig {
        out: path.clone(),
        games: Some(2),
        nodes: 200,
        max_plies: 40,
        threads: 1,
        seed: 11,
        network: None,
        ..DatagenConfig::default()
    };
    let s = run(&cfg, false).unwrap();
    assert_eq!(s.games, 2);
    let back = read_file(&path).unwrap();
    assert_eq!(back.len() as u64, s.total_positions);
    // The same games played directly give the same records.
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(cfg.hash_mb, 1);
    let mut want = Vec::new();
    for id in 0..2 {
        let g = play_game(id, &cfg, &mut searcher, &stop).unwrap();
        want.push((id as u32, g));
    }
    for (id, g) in &want {
        let got: Vec<_> = back.iter().filter(|r| r.game == *id).collect();
        assert_eq!(got.len(), g.records.len());
        for (a, b) in got.iter().zip(&g.records) {
            assert_eq!(a.position().unwrap().fen(), b.position().unwrap().fen());
            assert_eq!(a.score, b.score);
            assert_eq!(a.result, g.result);
        }
    }
    // Resuming with a larger target adds games, keeping the old ones.
    let more = DatagenConfig {
        games: Some(3),
        ..cfg.clone()
    };
    let s2 = run(&more, false).unwrap();
    assert_eq!(s2.games, 1);
    let all = read_file(&path).unwrap();
    assert_eq!(&all[..back.len()], &back[..]);
    let _ = std::fs::remove_file(&path);
}
