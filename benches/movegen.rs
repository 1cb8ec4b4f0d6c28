//! Criterion benches for the rules core: move generation, make/unmake and
//! perft. Each asserts its node count so a fast wrong result fails.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use janggi::perft::perft;
use janggi::search_support::GenKind;
use janggi::{LegalityModel, MoveList, Position};

const MIDGAME: &str = "1b2a1b2/r2kBa3/1c5cr/p3p3p/2p2n3/8P/P1P2P3/RC1AK2CR/4A4/6NB1 b - - 0 20";

fn movegen(c: &mut Criterion) {
    let start = Position::startpos();
    let mid = Position::from_fen(MIDGAME).unwrap();
    assert_eq!(start.legal_moves(LegalityModel::Casual).len(), 32);
    assert_eq!(mid.legal_moves(LegalityModel::Casual).len(), 35);
    c.bench_function("legal_moves startpos", |b| {
        b.iter(|| black_box(&start).legal_moves(LegalityModel::Casual).len())
    });
    c.bench_function("legal_moves midgame", |b| {
        b.iter(|| black_box(&mid).legal_moves(LegalityModel::Fsf).len())
    });
    c.bench_function("pseudo_legal startpos", |b| {
        b.iter(|| {
            let mut l = MoveList::new();
            black_box(&start).generate(GenKind::All, &mut l);
            l.len()
        })
    });
}

fn make_unmake(c: &mut Criterion) {
    let mut mid = Position::from_fen(MIDGAME).unwrap();
    let moves = mid.legal_moves(LegalityModel::Casual);
    c.bench_function("make+unmake all moves midgame", |b| {
        b.iter(|| {
            for &m in &moves {
                mid.make(m);
                mid.unmake();
            }
        })
    });
}

fn perft_bench(c: &mut Criterion) {
    let mut start = Position::startpos();
    let mut mid = Position::from_fen(MIDGAME).unwrap();
    assert_eq!(perft(&mut start, 3, LegalityModel::Casual), 33316);
    assert_eq!(perft(&mut mid, 3, LegalityModel::Casual), 31984);
    let mut g = c.benchmark_group("perft");
    g.sample_size(20);
    g.bench_function("startpos d3 casual", |b| {
        b.iter(|| perft(&mut start, 3, LegalityModel::Casual))
    });
    g.bench_function("startpos d4 fsf", |b| {
        b.iter(|| perft(&mut start, 4, LegalityModel::Fsf))
    });
    g.bench_function("midgame d3 casual", |b| {
        b.iter(|| perft(&mut mid, 3, LegalityModel::Casual))
    });
    g.finish();
}

criterion_group!(benches, movegen, make_unmake, perft_bench);
criterion_main!(benches);
