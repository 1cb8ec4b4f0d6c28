//! The neural evaluation: incremental accumulators against a full refresh
//! over random playouts, the network file's typed errors, and the engine
//! keeping its network when `EvalFile` fails. (The datagen round trip is
//! in crates/janggi-tools/tests/datagen.rs.)

use janggi::nnue::{AccStack, Accumulator, NetError, Network, HIDDEN, INPUTS};
use janggi::protocol::Session;
use janggi::types::rng::SplitMix64;
use janggi::{LegalityModel, Move, Position};
use proptest::prelude::*;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// A network with random (non-zero) weights, so that every feature counts:
/// first-layer weights uniform in ±0.1, output weights uniform in
/// ±1/sqrt(2·HIDDEN), biases zero (the trainer's fresh model,
/// `Model::new(seed).quantize(340)`, draws the same numbers).
fn random_net(seed: u64) -> Arc<Network> {
    let mut rng = SplitMix64::new(seed);
    let mut uniform = |r: f32| {
        let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        (2.0 * u - 1.0) * r
    };
    let w1: Vec<f32> = (0..INPUTS * HIDDEN).map(|_| uniform(0.1)).collect();
    let r2 = 1.0 / (2.0 * HIDDEN as f32).sqrt();
    let w2: Vec<f32> = (0..2 * HIDDEN).map(|_| uniform(r2)).collect();
    Arc::new(Network::quantize(&w1, &vec![0.0; HIDDEN], &w2, 0.0, 340))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// After every make and every unmake of a random playout (passes and
    /// captures included), the incrementally updated accumulator equals
    /// one computed from scratch, and so does the evaluation.
    #[test]
    fn incremental_equals_refresh(seed in any::<u64>(), plies in 1usize..120) {
        let net = random_net(seed % 7);
        let mut pos = Position::startpos();
        let mut stack = AccStack::new(net.clone(), &pos);
        let mut rng = janggi::types::rng::SplitMix64::new(seed);
        let mut made = 0usize;
        for _ in 0..plies {
            let moves = pos.legal_moves(LegalityModel::Casual);
            if moves.is_empty() {
                break;
            }
            // Prefer captures now and then, and passes sometimes.
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| !m.is_pass() && pos.piece_at(m.to()).is_some())
                .collect();
            let mv = match rng.below(6) {
                0 if moves.iter().any(|m| m.is_pass()) => Move::PASS,
                1 | 2 if !captures.is_empty() => captures[rng.below(captures.len())],
                _ => moves[rng.below(moves.len())],
            };
            stack.push(&pos, mv);
            pos.make(mv);
            made += 1;
            // Evaluate only some plies, so that lazy chains of several
            // pending moves are exercised too.
            if rng.below(3) == 0 {
                let fresh = Accumulator::refresh(&net, &pos);
                prop_assert_eq!(stack.current(), &fresh);
                prop_assert_eq!(
                    stack.evaluate(pos.side_to_move()),
                    janggi::nnue::evaluate(&net, &pos)
                );
            }
            // Take back a move now and then.
            if made > 0 && rng.below(5) == 0 {
                pos.unmake();
                stack.pop();
                made -= 1;
                let fresh = Accumulator::refresh(&net, &pos);
                prop_assert_eq!(stack.current(), &fresh);
            }
        }
        while made > 0 {
            pos.unmake();
            stack.pop();
            made -= 1;
        }
        prop_assert_eq!(stack.current(), &Accumulator::refresh(&net, &pos));
        prop_assert_eq!(stack.len(), 1);
    }
}

#[test]
fn side_to_move_matters() {
    // The same board with the other side to move is evaluated from the
    // other perspective: mirrored boards give mirrored answers.
    let net = random_net(3);
    let a = Position::from_fen("4k4/9/9/9/9/9/9/4R4/9/4K4 w - - 0 1").unwrap();
    let b = Position::from_fen("4k4/9/4r4/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert_eq!(
        janggi::nnue::evaluate(&net, &a),
        janggi::nnue::evaluate(&net, &b)
    );
}

#[test]
fn bad_network_files_are_refused_with_typed_errors() {
    let good = random_net(1).to_bytes();
    assert!(Network::from_bytes(&good).is_ok());
    // Truncated.
    assert!(matches!(
        Network::from_bytes(&good[..good.len() - 10]),
        Err(NetError::Truncated { .. })
    ));
    assert!(matches!(
        Network::from_bytes(&good[..20]),
        Err(NetError::Truncated { .. })
    ));
    // Too long.
    let mut long = good.clone();
    long.push(0);
    assert!(matches!(
        Network::from_bytes(&long),
        Err(NetError::TrailingBytes { .. })
    ));
    // Wrong magic.
    let mut bad = good.clone();
    bad[0] = b'X';
    assert_eq!(Network::from_bytes(&bad), Err(NetError::BadMagic));
    // Wrong version.
    let mut bad = good.clone();
    bad[8] = 99;
    assert_eq!(Network::from_bytes(&bad), Err(NetError::Version(99)));
    // Wrong hidden size.
    let mut bad = good.clone();
    bad[16..20].copy_from_slice(&512u32.to_le_bytes());
    assert!(matches!(
        Network::from_bytes(&bad),
        Err(NetError::Mismatch {
            field: "hidden size",
            found: 512,
            ..
        })
    ));
    // A flipped payload byte.
    let mut bad = good.clone();
    let n = bad.len();
    bad[n / 2] ^= 0x10;
    assert_eq!(Network::from_bytes(&bad), Err(NetError::Checksum));
    // Not a file at all.
    assert!(matches!(
        Network::load(std::path::Path::new("/nonexistent/net.nnue")),
        Err(NetError::Io(_))
    ));
}

#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn session_output(lines: &[&str]) -> String {
    let buf = Buf::default();
    let mut s = Session::new(buf.clone());
    for l in lines {
        s.handle_line(l);
    }
    // Dropping the session ends a running search (it prints its bestmove).
    s.handle_line("quit");
    drop(s);
    let out = buf.0.lock().unwrap().clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn engine_keeps_its_network_when_evalfile_fails() {
    let dir = std::env::temp_dir();
    let truncated = dir.join(format!("janggi-trunc-{}.nnue", std::process::id()));
    let good = dir.join(format!("janggi-good-{}.nnue", std::process::id()));
    let bytes = random_net(2).to_bytes();
    std::fs::write(&truncated, &bytes[..1000]).unwrap();
    std::fs::write(&good, &bytes).unwrap();
    let t = truncated.display().to_string();
    let g = good.display().to_string();
    let out = session_output(&[
        "uci",
        "position startpos",
        "eval",
        &format!("setoption name EvalFile value {t}"),
        "eval",
        "go depth 3",
        &format!("setoption name EvalFile value {g}"),
        "eval",
    ]);
    let _ = std::fs::remove_file(&truncated);
    let _ = std::fs::remove_file(&good);
    let errors: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(errors.len(), 1, "{out}");
    assert!(errors[0].contains("truncated"), "{}", errors[0]);
    let nnue: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("NNUE evaluation"))
        .collect();
    assert_eq!(nnue.len(), 3);
    // The failed load changed nothing; the good one did.
    assert_eq!(nnue[0], nnue[1]);
    assert_ne!(nnue[1], nnue[2]);
    assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
    assert!(out.contains("option name EvalFile type string default <embedded>"));
    assert!(out.contains("option name Use NNUE type check"));
}

#[test]
fn use_nnue_switches_the_evaluation() {
    let out = session_output(&[
        "uci",
        "setoption name Use NNUE value false",
        "bench 3",
        "setoption name Use NNUE value true",
        "bench 3",
    ]);
    let nodes: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("Nodes searched"))
        .collect();
    assert_eq!(nodes.len(), 2);
    assert_ne!(nodes[0], nodes[1]);
}
