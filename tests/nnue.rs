//! The neural evaluation: incremental accumulators against a full refresh
//! over random playouts (one-head and bucketed networks, of every width),
//! the network file's typed errors and its two versions, the wide
//! networks' output bound, the input buckets (incremental against refresh
//! across general moves, the blocks read, the version-3 file, palace6's
//! mirror symmetry), the kernel paths (portable and AVX2: the same
//! accumulators and evaluations over all the playouts above, the path
//! chosen by the CPU, hand-made output weights), and the engine keeping its
//! network when `EvalFile` fails. (The datagen round trip is in
//! crates/janggi-tools/tests/datagen.rs.)

use janggi::nnue::{
    position_bucket, AccStack, Accumulator, InputBuckets, NetError, Network, Simd, SimdUnavailable,
    Width, HIDDEN_SIZES, INPUTS, MAX_BUCKETS,
};
use janggi::protocol::Session;
use janggi::rng::SplitMix64;
use janggi::{Color, LegalityModel, Move, Piece, PieceKind, Position, Square};
use proptest::prelude::*;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// The shipped networks' width.
const H256: usize = 256;

/// A network of width 256 with random (non-zero) weights, so that every
/// feature counts: first-layer weights uniform in ±0.1, output weights
/// uniform in ±1/sqrt(2H), biases zero (the trainer's fresh model,
/// `Model::new(seed).quantize(340)`, draws the same numbers).
fn random_net(seed: u64) -> Arc<Network> {
    random_bucketed_net(seed, 1)
}

/// [`random_net`] with `buckets` output heads, drawn head after head, and
/// a different output bias per head (so that a wrong head shows), as
/// `Model::with_buckets(seed, buckets)` with biases would be.
fn random_bucketed_net(seed: u64, buckets: usize) -> Arc<Network> {
    random_wide_net(seed, Width::H256, buckets)
}

/// [`random_bucketed_net`] of `width`.
fn random_wide_net(seed: u64, width: Width, buckets: usize) -> Arc<Network> {
    let (w1, w2, b2) = random_weights(seed, width.hidden(), buckets);
    let b1 = vec![0.0; width.hidden()];
    Arc::new(Network::quantize(width, &w1, &b1, &w2, &b2, 340))
}

/// [`random_wide_net`] with the input buckets of `inputs`: K blocks of
/// first-layer rows, each drawn at random.
fn random_input_net(seed: u64, width: Width, buckets: usize, inputs: InputBuckets) -> Arc<Network> {
    let rows = inputs.count() * INPUTS;
    let (w1, w2, b2) = random_weights_rows(seed, rows, width.hidden(), buckets);
    let b1 = vec![0.0; width.hidden()];
    Arc::new(Network::quantize_with(
        width, inputs, &w1, &b1, &w2, &b2, 340,
    ))
}

/// The float weights of [`random_wide_net`] with `hidden` neurons: `w1`,
/// `w2`, `b2`.
fn random_weights(seed: u64, hidden: usize, buckets: usize) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    random_weights_rows(seed, INPUTS, hidden, buckets)
}

/// [`random_weights`] with `rows` first-layer rows.
fn random_weights_rows(
    seed: u64,
    rows: usize,
    hidden: usize,
    buckets: usize,
) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let mut rng = SplitMix64::new(seed);
    let mut uniform = |r: f32| {
        let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        (2.0 * u - 1.0) * r
    };
    let w1: Vec<f32> = (0..rows * hidden).map(|_| uniform(0.1)).collect();
    let r2 = 1.0 / (2.0 * hidden as f32).sqrt();
    let w2: Vec<f32> = (0..buckets * 2 * hidden).map(|_| uniform(r2)).collect();
    let b2: Vec<f32> = if buckets == 1 {
        vec![0.0]
    } else {
        (0..buckets).map(|_| uniform(0.5)).collect()
    };
    (w1, w2, b2)
}

/// Positions of a greedy random playout from the start (captures first,
/// most of the time), so that the material runs through every bucket.
fn greedy_playout(seed: u64) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut pos = Position::startpos();
    let mut out = vec![pos.clone()];
    for _ in 0..400 {
        let moves: Vec<Move> = pos
            .legal_moves(LegalityModel::Casual)
            .into_iter()
            .filter(|m| !m.is_pass())
            .collect();
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.to()).is_some())
            .collect();
        let mv = match (captures.is_empty(), moves.is_empty()) {
            (false, _) if rng.below(4) != 0 => captures[rng.below(captures.len())],
            (_, false) => moves[rng.below(moves.len())],
            _ => break,
        };
        pos.make(mv);
        out.push(pos.clone());
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// After every make and every unmake of a random playout (passes and
    /// captures included), the incrementally updated accumulator equals
    /// one computed from scratch, and so does the evaluation.
    #[test]
    fn incremental_equals_refresh(seed in any::<u64>(), plies in 1usize..120) {
        incremental_equals_refresh_with(random_net(seed % 7), seed, plies)?;
    }

    /// The same over a bucketed network, with playouts long and greedy
    /// enough to pass through many buckets.
    #[test]
    fn bucketed_incremental_equals_refresh(seed in any::<u64>(), plies in 1usize..250) {
        incremental_equals_refresh_with(random_bucketed_net(seed % 5, MAX_BUCKETS), seed, plies)?;
    }

    /// The same over a one-head 512 network.
    #[test]
    fn wide_incremental_equals_refresh(seed in any::<u64>(), plies in 1usize..120) {
        let net = random_wide_net(seed % 3, Width::H512, 1);
        prop_assert_eq!(net.hidden(), 512);
        incremental_equals_refresh_with(net, seed, plies)?;
    }

    /// The same over bucketed 384 and 768 networks.
    #[test]
    fn wide_bucketed_incremental_equals_refresh(seed in any::<u64>(), plies in 1usize..250) {
        let width = if seed % 2 == 0 { Width::H384 } else { Width::H768 };
        let net = random_wide_net(seed % 4, width, MAX_BUCKETS);
        incremental_equals_refresh_with(net, seed, plies)?;
    }

    /// The same over networks with input buckets (palace9 and palace6,
    /// one head and eight, 256 and 384 wide), whose playouts move the
    /// generals often: a perspective whose general moved is refreshed,
    /// the other updated, through makes, unmakes and lazy chains.
    #[test]
    fn input_bucketed_incremental_equals_refresh(seed in any::<u64>(), plies in 1usize..200) {
        let inputs = if seed % 2 == 0 { InputBuckets::Palace9 } else { InputBuckets::Palace6 };
        let buckets = if seed % 3 == 0 { MAX_BUCKETS } else { 1 };
        let width = if seed % 5 == 0 { Width::H384 } else { Width::H256 };
        let net = random_input_net(seed % 4, width, buckets, inputs);
        prop_assert_eq!(net.input_buckets(), inputs);
        incremental_equals_refresh_with(net, seed, plies)?;
    }
}

/// The input-bucketed playouts above do move the generals, and change
/// views: over a few fixed seeds, every scheme's stack stays equal to the
/// refresh through dozens of general moves.
#[test]
fn input_bucketed_playouts_move_the_generals() {
    for inputs in [InputBuckets::Palace9, InputBuckets::Palace6] {
        let net = random_input_net(1, Width::H256, MAX_BUCKETS, inputs);
        let mut general_moves = 0;
        for seed in 0..6 {
            general_moves += incremental_equals_refresh_with(net.clone(), seed, 150).unwrap();
        }
        assert!(
            general_moves >= 30,
            "{inputs}: {general_moves} general moves"
        );
    }
}

/// After every make and every unmake of a random playout (passes,
/// captures and general moves included), the incrementally updated
/// accumulator equals one computed from scratch, and so does the
/// evaluation: on every kernel path this CPU has (portable, AVX2), each
/// path's stack and refresh equal to the portable refresh. Returns the
/// number of general moves made.
fn incremental_equals_refresh_with(
    net: Arc<Network>,
    seed: u64,
    plies: usize,
) -> Result<usize, TestCaseError> {
    let nets: Vec<Arc<Network>> = Simd::available()
        .map(|s| Arc::new(net.with_simd(s).unwrap()))
        .collect();
    prop_assert_eq!(nets[0].simd(), Simd::Portable);
    let net = &nets[0];
    let mut general_moves = 0;
    let mut pos = Position::startpos();
    let mut stacks: Vec<AccStack> = nets
        .iter()
        .map(|n| AccStack::new(n.clone(), &pos))
        .collect();
    let mut rng = janggi::rng::SplitMix64::new(seed);
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
        let generals: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| {
                !m.is_pass() && pos.piece_at(m.from()).map(|p| p.kind) == Some(PieceKind::General)
            })
            .collect();
        let mv = match rng.below(7) {
            0 if moves.iter().any(|m| m.is_pass()) => Move::PASS,
            1 | 2 if !captures.is_empty() => captures[rng.below(captures.len())],
            3 if !generals.is_empty() => generals[rng.below(generals.len())],
            _ => moves[rng.below(moves.len())],
        };
        if !mv.is_pass() && pos.piece_at(mv.from()).map(|p| p.kind) == Some(PieceKind::General) {
            general_moves += 1;
        }
        stacks.iter_mut().for_each(|s| s.push(&pos, mv));
        pos.make(mv);
        made += 1;
        // Evaluate only some plies, so that lazy chains of several
        // pending moves are exercised too.
        if rng.below(3) == 0 {
            let fresh = Accumulator::refresh(net, &pos);
            prop_assert_eq!(fresh.hidden(), net.hidden());
            let eval = janggi::nnue::evaluate(net, &pos);
            for (n, stack) in nets.iter().zip(&mut stacks) {
                prop_assert_eq!(Accumulator::refresh(n, &pos), fresh);
                prop_assert_eq!(stack.current(&pos), fresh);
                prop_assert_eq!(stack.evaluate(&pos), eval);
            }
        }
        // Take back a move now and then.
        if made > 0 && rng.below(5) == 0 {
            pos.unmake();
            stacks.iter_mut().for_each(AccStack::pop);
            made -= 1;
            let fresh = Accumulator::refresh(net, &pos);
            for stack in &mut stacks {
                prop_assert_eq!(stack.current(&pos), fresh);
            }
        }
    }
    while made > 0 {
        pos.unmake();
        stacks.iter_mut().for_each(AccStack::pop);
        made -= 1;
    }
    for stack in &mut stacks {
        prop_assert_eq!(stack.current(&pos), Accumulator::refresh(net, &pos));
        prop_assert_eq!(stack.len(), 1);
    }
    Ok(general_moves)
}

/// A CPU with AVX2 runs it (unless `JANGGI_NNUE_SIMD=portable`), and a
/// path the CPU lacks is refused with a typed error.
#[test]
fn the_kernels_follow_the_cpu() {
    #[cfg(target_arch = "x86_64")]
    let avx2 = std::arch::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    let avx2 = false;
    let asked_portable = std::env::var(janggi::nnue::simd::SIMD_ENV).is_ok_and(|v| v == "portable");
    let want = if avx2 && !asked_portable {
        Simd::Avx2
    } else {
        Simd::Portable
    };
    assert_eq!(janggi::nnue::default_network().simd(), want);
    assert_eq!(random_net(1).simd(), want);
    let refused = random_net(1).with_simd(Simd::Avx2).err();
    assert_eq!(refused, (!avx2).then_some(SimdUnavailable(Simd::Avx2)));
    assert_eq!(Simd::available().count(), 1 + usize::from(avx2));
}

/// Output weights beyond ±128 (only a hand-made file has them: the
/// trainer clips to ±63) would wrap AVX2's i16 products: such a network
/// evaluates alike on both paths, and unlike the clipped one.
#[test]
fn large_output_weights_evaluate_alike_on_every_path() {
    let mut bytes = random_net(5).to_bytes();
    let head_at = 48 + 2 * (INPUTS * H256 + H256);
    for (i, w) in bytes[head_at..head_at + 4 * H256].chunks_mut(2).enumerate() {
        let v: i16 = if i % 3 == 0 { 300 } else { -200 };
        w.copy_from_slice(&v.to_le_bytes());
    }
    let sum = janggi::nnue::network::fnv1a(&bytes[48..]);
    bytes[36..40].copy_from_slice(&sum.to_le_bytes());
    let big = Network::from_bytes(&bytes).unwrap();
    for pos in greedy_playout(5).iter().step_by(7) {
        let want = janggi::nnue::evaluate(&big.with_simd(Simd::Portable).unwrap(), pos);
        for s in Simd::available() {
            assert_eq!(
                janggi::nnue::evaluate(&big.with_simd(s).unwrap(), pos),
                want
            );
        }
        assert_ne!(want, janggi::nnue::evaluate(&random_net(5), pos));
    }
}

#[test]
fn side_to_move_matters() {
    // The same board with the other side to move is evaluated from the
    // other perspective: mirrored boards give mirrored answers, with one
    // head and with eight.
    let a = Position::from_fen("4k4/9/9/9/9/9/9/4R4/9/4K4 w - - 0 1").unwrap();
    let b = Position::from_fen("4k4/9/4r4/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
    for net in [
        random_net(3),
        random_bucketed_net(3, MAX_BUCKETS),
        random_wide_net(3, Width::H512, 1),
    ] {
        assert_eq!(
            janggi::nnue::evaluate(&net, &a),
            janggi::nnue::evaluate(&net, &b),
            "{net:?}"
        );
    }
}

/// Each position is evaluated by the head of its material bucket: a
/// bucketed network answers as the one-head network made of that head.
#[test]
fn the_head_follows_the_material() {
    let (w1, w2, b2) = random_weights(11, H256, MAX_BUCKETS);
    let b1 = vec![0.0; H256];
    let net = Network::quantize(Width::H256, &w1, &b1, &w2, &b2, 340);
    assert_eq!(net.buckets(), MAX_BUCKETS);
    let single: Vec<Network> = (0..MAX_BUCKETS)
        .map(|k| {
            let head = &w2[k * 2 * H256..(k + 1) * 2 * H256];
            Network::quantize(Width::H256, &w1, &b1, head, &b2[k..k + 1], 340)
        })
        .collect();
    let mut seen = [false; MAX_BUCKETS];
    let mut differ = 0;
    for pos in greedy_playout(4) {
        let k = position_bucket(&pos, MAX_BUCKETS);
        seen[k] = true;
        let e = janggi::nnue::evaluate(&net, &pos);
        assert_eq!(e, janggi::nnue::evaluate(&single[k], &pos), "bucket {k}");
        let other = &single[(k + 1) % MAX_BUCKETS];
        differ += usize::from(e != janggi::nnue::evaluate(other, &pos));
    }
    assert!(seen.iter().all(|&b| b), "{seen:?}");
    assert!(differ > 0);
}

/// Generation 3 (`nets/default.nnue` from 2026-12-02 to the shipping of
/// generation 4), kept as a version-1 file whose answers are pinned.
static GEN3_V1: &[u8] = include_bytes!("data/gen3-v1.nnue");

/// Version-1 files (one head, no bucket count) load as one bucket and
/// evaluate as before buckets: generation 3's answers are those of the
/// build before output buckets (pinned), whatever the material; a
/// version-2 image of the same network, and one with eight copies of its
/// head, answer the same.
#[test]
fn version_one_files_are_one_bucket() {
    let net = &Arc::new(Network::from_bytes(GEN3_V1).unwrap());
    assert_eq!(net.buckets(), 1);
    let pinned = [
        (
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
            73,
        ),
        ("4k4/9/9/9/9/9/9/4R4/9/4K4 w - - 0 1", 2102),
        (
            "1bn1a1b2/5k3/rc3cn2/p5p2/2p6/2P4Pr/P3P3P/NC4N2/9/R1BKAAB2 b - - 3 14",
            1230,
        ),
        ("3ak4/9/4b4/9/9/9/9/4C4/4A4/4KA3 w - - 0 1", 1509),
    ];
    for (fen, cp) in pinned {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(janggi::nnue::evaluate(net, &pos), cp, "{fen}");
    }
    let v1 = net.to_bytes();
    assert_eq!(u32::from_le_bytes(v1[8..12].try_into().unwrap()), 1);
    assert_eq!(&v1[40..48], &[0; 8]);
    // The same network as a version-2 file with one bucket.
    let mut v2 = v1.clone();
    v2[8..12].copy_from_slice(&2u32.to_le_bytes());
    v2[40..44].copy_from_slice(&1u32.to_le_bytes());
    assert_eq!(&Network::from_bytes(&v2).unwrap(), net.as_ref());
    // Eight copies of its head: a version-2 file, the same answers.
    let payload = &v1[48..];
    let head_at = 2 * (INPUTS * H256 + H256);
    let (head, bias) = payload[head_at..].split_at(4 * H256);
    let mut p8 = payload[..head_at].to_vec();
    (0..MAX_BUCKETS).for_each(|_| p8.extend_from_slice(head));
    (0..MAX_BUCKETS).for_each(|_| p8.extend_from_slice(bias));
    let mut v8 = v1[..48].to_vec();
    v8[8..12].copy_from_slice(&2u32.to_le_bytes());
    v8[32..36].copy_from_slice(&(p8.len() as u32).to_le_bytes());
    v8[36..40].copy_from_slice(&janggi::nnue::network::fnv1a(&p8).to_le_bytes());
    v8[40..44].copy_from_slice(&(MAX_BUCKETS as u32).to_le_bytes());
    v8.extend_from_slice(&p8);
    let net8 = Network::from_bytes(&v8).unwrap();
    assert_eq!(net8.buckets(), MAX_BUCKETS);
    assert_eq!(net8.to_bytes(), v8);
    for pos in greedy_playout(7).iter().step_by(5) {
        assert_eq!(
            janggi::nnue::evaluate(&net8, pos),
            janggi::nnue::evaluate(net, pos)
        );
    }
}

#[test]
fn bucketed_network_files_are_refused_with_typed_errors() {
    let good = random_bucketed_net(1, MAX_BUCKETS).to_bytes();
    // Version 2, the bucket count in the header; under the 8 MB limit.
    assert_eq!(u32::from_le_bytes(good[8..12].try_into().unwrap()), 2);
    assert_eq!(u32::from_le_bytes(good[40..44].try_into().unwrap()), 8);
    assert_eq!(good.len(), 48 + janggi::nnue::network::payload_len(256, 8));
    assert!(good.len() < 8 << 20);
    let net = Network::from_bytes(&good).unwrap();
    assert_eq!(net.buckets(), MAX_BUCKETS);
    assert_eq!(net.to_bytes(), good);
    // Bucket counts out of range.
    for n in [0u32, 9, 1000, u32::MAX] {
        let mut bad = good.clone();
        bad[40..44].copy_from_slice(&n.to_le_bytes());
        assert_eq!(Network::from_bytes(&bad), Err(NetError::Buckets(n)));
    }
    // A version-1 file relabelled as version 2 has bucket count 0.
    let mut bad = random_net(1).to_bytes();
    bad[8] = 2;
    assert_eq!(Network::from_bytes(&bad), Err(NetError::Buckets(0)));
    // A bucket count that does not match the payload.
    let mut bad = good.clone();
    bad[40..44].copy_from_slice(&4u32.to_le_bytes());
    assert!(matches!(
        Network::from_bytes(&bad),
        Err(NetError::Mismatch {
            field: "payload length",
            ..
        })
    ));
    // Truncated (in the heads), too long, corrupt.
    assert!(matches!(
        Network::from_bytes(&good[..good.len() - 2000]),
        Err(NetError::Truncated { .. })
    ));
    let mut long = good.clone();
    long.extend_from_slice(&[0; 4]);
    assert!(matches!(
        Network::from_bytes(&long),
        Err(NetError::TrailingBytes { .. })
    ));
    let mut bad = good.clone();
    let n = bad.len();
    bad[n - 3] ^= 0x01;
    assert_eq!(Network::from_bytes(&bad), Err(NetError::Checksum));
    assert!(NetError::Buckets(9)
        .to_string()
        .contains("9 output buckets"));
}

/// Every width this build has goes to a file and back: the header holds
/// H, the payload is that of H, the file is read as it was written, and a
/// file of one width with another width's header is refused.
#[test]
fn every_width_round_trips_through_its_file() {
    assert_eq!(HIDDEN_SIZES, Width::ALL.map(Width::hidden));
    for (i, width) in Width::ALL.into_iter().enumerate() {
        let h = width.hidden();
        assert_eq!(Width::from_hidden(h), Some(width));
        for buckets in [1, MAX_BUCKETS] {
            let net = random_wide_net(i as u64, width, buckets);
            assert_eq!(
                (net.width(), net.hidden(), net.buckets()),
                (width, h, buckets)
            );
            let bytes = net.to_bytes();
            let field = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
            assert_eq!(field(16), h as u32);
            assert_eq!(field(8), if buckets == 1 { 1 } else { 2 });
            let payload = janggi::nnue::network::payload_len(h, buckets);
            assert_eq!(bytes.len(), 48 + payload);
            assert_eq!(field(32), payload as u32);
            let back = Network::from_bytes(&bytes).unwrap();
            assert_eq!(&back, net.as_ref());
            assert!(format!("{back:?}").contains(&format!("1260x{h}x2")));
            // The same playout evaluates the same through the loaded copy.
            for pos in greedy_playout(i as u64).iter().step_by(40) {
                assert_eq!(
                    janggi::nnue::evaluate(&back, pos),
                    janggi::nnue::evaluate(&net, pos)
                );
            }
            // Relabelled as the next width: the payload no longer fits.
            let mut bad = bytes.clone();
            let other = Width::ALL[(i + 1) % Width::ALL.len()].hidden() as u32;
            bad[16..20].copy_from_slice(&other.to_le_bytes());
            assert!(matches!(
                Network::from_bytes(&bad),
                Err(NetError::Mismatch {
                    field: "payload length",
                    ..
                })
            ));
        }
    }
    assert_eq!(Width::from_hidden(300), None);
}

/// The output sum's worst case (every accumulator value at `QA`, every
/// output weight at its clip, 0.99 · 64 = 63) is exact at every width:
/// `2H · QA · 63 · scale / (QA · QB)` centipawns, which for H = 768 needs
/// more than i32 (`2H · QA² · 63` = 6,292,339,200), and its negation.
#[test]
fn the_widest_output_sum_does_not_overflow() {
    let pos = Position::startpos();
    for width in Width::ALL {
        let h = width.hidden();
        // First-layer biases at the clip (1.98 · 255 = 505: SCReLU
        // saturates whatever the pieces add, as their rows are zero).
        let b1 = vec![1.98; h];
        for sign in [1.0f32, -1.0] {
            let w2 = vec![sign * 0.99; 2 * h];
            let net = Network::quantize(width, &[], &b1, &w2, &[0.0], 400);
            let want = sign as i64 * (2 * h as i64 * 255 * 63) * 400 / (255 * 64);
            assert_eq!(
                i64::from(janggi::nnue::evaluate(&net, &pos)),
                want,
                "H = {h}"
            );
        }
    }
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
    // A hidden size this build does not have.
    for h in [0u32, 255, 300, 1024, u32::MAX] {
        let mut bad = good.clone();
        bad[16..20].copy_from_slice(&h.to_le_bytes());
        assert_eq!(Network::from_bytes(&bad), Err(NetError::Hidden(h)));
    }
    assert!(NetError::Hidden(300)
        .to_string()
        .contains("hidden size 300"));
    // One it has, but not the payload's.
    let mut bad = good.clone();
    bad[16..20].copy_from_slice(&512u32.to_le_bytes());
    assert!(matches!(
        Network::from_bytes(&bad),
        Err(NetError::Mismatch {
            field: "payload length",
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
    // The good file is of another width: the engine searches with it too.
    std::fs::write(&good, random_wide_net(2, Width::H512, 1).to_bytes()).unwrap();
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
        "go depth 3",
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
    let bestmoves = out.lines().filter(|l| l.starts_with("bestmove ")).count();
    assert_eq!(bestmoves, 2, "{out}");
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

/// The bucket and mirror of perspective `c`'s own general in `pos`, worked
/// out here from the scheme's definition (docs/nnue.md), independently of
/// the engine's code: own coordinates (Han's ranks flipped), the palace's
/// files d, e, f.
fn expected_view(inputs: InputBuckets, pos: &Position, c: Color) -> (usize, bool) {
    let g = pos.general(c);
    let rank = usize::from(match c {
        Color::Cho => g.rank(),
        Color::Han => 9 - g.rank(),
    });
    let file = usize::from(g.file()) - 3;
    match inputs {
        InputBuckets::None => (0, false),
        InputBuckets::Palace9 => (rank * 3 + file, false),
        InputBuckets::Palace6 => (rank * 2 + usize::from(file == 1), file == 2),
    }
}

/// Positions of a random playout whose moves are the generals' a third of
/// the time, so that the generals visit their palaces.
fn general_playout(seed: u64, plies: usize) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut pos = Position::startpos();
    let mut out = vec![pos.clone()];
    for _ in 0..plies {
        let moves: Vec<Move> = pos
            .legal_moves(LegalityModel::Casual)
            .into_iter()
            .filter(|m| !m.is_pass())
            .collect();
        if moves.is_empty() {
            break;
        }
        let generals: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.from()).map(|p| p.kind) == Some(PieceKind::General))
            .collect();
        let mv = if !generals.is_empty() && rng.below(3) == 0 {
            generals[rng.below(generals.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        pos.make(mv);
        out.push(pos.clone());
    }
    out
}

/// Each perspective sums the rows of its own general's block, its
/// squares mirrored under palace6 on the right-hand palace file: the
/// accumulator equals the sums of the (dequantized, rescaled) rows picked
/// by [`expected_view`], and the evaluation changes with the block.
#[test]
fn each_perspective_reads_its_generals_block() {
    for inputs in [InputBuckets::Palace9, InputBuckets::Palace6] {
        let net = random_input_net(6, Width::H256, 1, inputs);
        let f = net.dequantize();
        assert_eq!(f.inputs, inputs);
        assert_eq!(f.w1.len(), inputs.count() * INPUTS * H256);
        let q = |x: f32| (x * 255.0).round() as i32;
        let mut seen = vec![false; inputs.count()];
        for pos in general_playout(8, 300) {
            let Accumulator::H256(acc) = Accumulator::refresh(&net, &pos) else {
                panic!("width");
            };
            for c in Color::BOTH {
                let (bucket, mirror) = expected_view(inputs, &pos, c);
                seen[bucket] = true;
                let mut want: Vec<i32> = f.b1.iter().map(|&x| q(x)).collect();
                for sq in Square::ALL {
                    let Some(p) = pos.piece_at(sq) else { continue };
                    let seen_sq = if mirror { sq.flip_file() } else { sq };
                    let row = bucket * INPUTS + janggi::nnue::feature_index(c, p, seen_sq);
                    for (j, w) in want.iter_mut().enumerate() {
                        *w += q(f.w1[row * H256 + j]);
                    }
                }
                let got: Vec<i32> = acc.v[c.index()].iter().map(|&x| i32::from(x)).collect();
                assert_eq!(got, want, "{inputs}, {c:?}");
            }
        }
        assert!(seen.iter().all(|&s| s), "{inputs}: blocks visited {seen:?}");
    }
    // Quantizing the dequantized weights gives the network back.
    let net = random_input_net(2, Width::H384, 3, InputBuckets::Palace6);
    let f = net.dequantize();
    let back = Network::quantize_with(f.width, f.inputs, &f.w1, &f.b1, &f.w2, &f.b2, f.eval_scale);
    assert_eq!(&back, net.as_ref());
}

/// A palace6 network is blind to the left-right mirror for a perspective
/// whose general is off the centre file (it sees the board through the
/// mirror when on file f, so a position and its mirror image look alike
/// to it); its accumulator of such a perspective is the same for both
/// positions, and the evaluation is the same when both generals are off
/// the centre file. A perspective whose general is on the centre file
/// sees two different boards (a random network tells them apart), and
/// palace9, which has no mirror, tells every such pair apart.
#[test]
fn palace6_sees_a_position_and_its_mirror_alike() {
    let net6 = random_input_net(4, Width::H256, MAX_BUCKETS, InputBuckets::Palace6);
    let net9 = random_input_net(4, Width::H256, MAX_BUCKETS, InputBuckets::Palace9);
    let mirror = |pos: &Position| {
        let mut board = [None::<Piece>; 90];
        for sq in Square::ALL {
            board[sq.flip_file().index()] = pos.piece_at(sq);
        }
        Position::from_board(board, pos.side_to_move()).unwrap()
    };
    let (mut both_off, mut centre_differs, mut nine_differs) = (0, 0, 0);
    for seed in 0..4 {
        for pos in general_playout(seed, 200) {
            let m = mirror(&pos);
            let (a, b) = (
                Accumulator::refresh(&net6, &pos),
                Accumulator::refresh(&net6, &m),
            );
            let (Accumulator::H256(a), Accumulator::H256(b)) = (a, b) else {
                panic!("width");
            };
            let mut off = true;
            for c in Color::BOTH {
                if pos.general(c).file() == 4 {
                    off = false;
                    centre_differs += usize::from(a.v[c.index()] != b.v[c.index()]);
                } else {
                    assert_eq!(a.v[c.index()], b.v[c.index()], "{c:?}");
                }
            }
            let e = janggi::nnue::evaluate(&net6, &pos);
            if off {
                both_off += 1;
                assert_eq!(e, janggi::nnue::evaluate(&net6, &m));
                nine_differs += usize::from(
                    janggi::nnue::evaluate(&net9, &pos) != janggi::nnue::evaluate(&net9, &m),
                );
            }
        }
    }
    assert!(
        both_off >= 50,
        "{both_off} positions with both generals off centre"
    );
    assert!(centre_differs >= 50, "{centre_differs}");
    assert!(nine_differs >= both_off / 2, "{nine_differs} of {both_off}");
}

/// Version 3: networks with input buckets go to a file (the output
/// buckets and the scheme's code in the header, K blocks in the payload)
/// and back; an unknown scheme, a scheme of another K than the payload,
/// a bad bucket count are typed errors; a version-3 file with scheme none
/// loads as the network it describes, written back as version 1 or 2.
#[test]
fn input_bucketed_files_round_trip_and_refuse_bad_headers() {
    for (i, inputs) in [InputBuckets::Palace9, InputBuckets::Palace6]
        .into_iter()
        .enumerate()
    {
        for buckets in [1, MAX_BUCKETS] {
            let net = random_input_net(i as u64 + 1, Width::H256, buckets, inputs);
            let bytes = net.to_bytes();
            let field = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
            assert_eq!(field(8), 3);
            assert_eq!(field(40), buckets as u32);
            assert_eq!(field(44), inputs.code());
            let payload = janggi::nnue::network::payload_len_with(H256, buckets, inputs);
            assert_eq!(
                payload,
                janggi::nnue::network::payload_len(H256, buckets)
                    + 2 * (inputs.count() - 1) * INPUTS * H256
            );
            assert_eq!(bytes.len(), 48 + payload);
            assert_eq!(field(32), payload as u32);
            // Under the 8 MB of an embedded network (palace9: 5.8 MB).
            assert!(bytes.len() < 8 << 20, "{}", bytes.len());
            let back = Network::from_bytes(&bytes).unwrap();
            assert_eq!(&back, net.as_ref());
            assert_eq!(back.to_bytes(), bytes);
            assert_eq!(back.input_buckets(), inputs);
            assert!(format!("{back:?}")
                .contains(&format!("{} input buckets ({inputs})", inputs.count())));
            for pos in general_playout(i as u64, 120).iter().step_by(15) {
                assert_eq!(
                    janggi::nnue::evaluate(&back, pos),
                    janggi::nnue::evaluate(&net, pos)
                );
            }
            // Unknown scheme codes.
            for code in [3u32, 9, 1000, u32::MAX] {
                let mut bad = bytes.clone();
                bad[44..48].copy_from_slice(&code.to_le_bytes());
                assert_eq!(Network::from_bytes(&bad), Err(NetError::InputBuckets(code)));
            }
            // Another scheme's K: the payload no longer fits.
            for other in InputBuckets::ALL.into_iter().filter(|&s| s != inputs) {
                let mut bad = bytes.clone();
                bad[44..48].copy_from_slice(&other.code().to_le_bytes());
                assert!(matches!(
                    Network::from_bytes(&bad),
                    Err(NetError::Mismatch {
                        field: "payload length",
                        ..
                    })
                ));
            }
            // A bucket count out of range, a short file, a corrupt one.
            let mut bad = bytes.clone();
            bad[40..44].copy_from_slice(&0u32.to_le_bytes());
            assert_eq!(Network::from_bytes(&bad), Err(NetError::Buckets(0)));
            assert!(matches!(
                Network::from_bytes(&bytes[..bytes.len() - 1]),
                Err(NetError::Truncated { .. })
            ));
            let mut bad = bytes.clone();
            bad[48 + INPUTS * H256 * 2 * 5] ^= 1;
            assert_eq!(Network::from_bytes(&bad), Err(NetError::Checksum));
        }
    }
    let text = NetError::InputBuckets(7).to_string();
    assert!(text.contains("scheme code 7"), "{text}");
    assert!(
        text.contains("1 (palace9)") && text.contains("2 (palace6)"),
        "{text}"
    );
    assert!(NetError::Version(4).to_string().contains("1, 2 and 3"));
    // Version 3 with scheme none: the version-1 network it describes.
    let flat = random_net(3);
    let v1 = flat.to_bytes();
    let mut v3 = v1.clone();
    v3[8..12].copy_from_slice(&3u32.to_le_bytes());
    v3[40..44].copy_from_slice(&1u32.to_le_bytes());
    let back = Network::from_bytes(&v3).unwrap();
    assert_eq!(&back, flat.as_ref());
    assert_eq!(back.to_bytes(), v1);
    assert_eq!(back.input_buckets(), InputBuckets::None);
}

/// The search runs on a network with input buckets (its stack refreshes
/// a perspective whose general moved): `EvalFile` loads a palace6 file,
/// `eval` and a search answer, with no error.
#[test]
fn the_engine_searches_with_input_buckets() {
    let path = std::env::temp_dir().join(format!("janggi-palace6-{}.nnue", std::process::id()));
    let net = random_input_net(5, Width::H256, MAX_BUCKETS, InputBuckets::Palace6);
    std::fs::write(&path, net.to_bytes()).unwrap();
    let p = path.display().to_string();
    let out = session_output(&[
        "uci",
        &format!("setoption name EvalFile value {p}"),
        "position fen 3k5/4a4/9/9/9/9/9/9/4A4/3K5 w - - 0 1",
        "eval",
        "go depth 5",
    ]);
    let _ = std::fs::remove_file(&path);
    assert!(!out.contains("info string error"), "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("bestmove ")).count(),
        1,
        "{out}"
    );
}
