//! The reference perft suite (`perft/*.epd`, counts from Fairy-Stockfish)
//! under both legality models. CI runs every depth whose count is at most
//! `CI_LIMIT`; the `#[ignore]`d tests run everything (`cargo test --release
//! -- --ignored`, or `janggi-engine perft --suite perft/casual.epd`).

use janggi::perft::{parse_epd, perft, perft_threads};
use janggi::{LegalityModel, Position};

const CI_LIMIT: u64 = 2_500_000;

fn run_suite(file: &str, model: LegalityModel, limit: u64) {
    run_file(file, model, limit, 58, 200);
}

fn run_file(file: &str, model: LegalityModel, limit: u64, positions: usize, min_checked: usize) {
    let text = std::fs::read_to_string(format!("{}/perft/{file}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    let entries = parse_epd(&text).unwrap();
    assert_eq!(entries.len(), positions, "{file} has {positions} positions");
    let mut failures = Vec::new();
    let mut checked = 0;
    for e in &entries {
        let pos = Position::from_fen(&e.fen).unwrap_or_else(|err| panic!("{}: {err}", e.fen));
        for &(d, want) in &e.counts {
            if want > limit {
                continue;
            }
            let got = perft_threads(&pos, d, model, 2);
            checked += 1;
            if got != want {
                failures.push(format!("{} depth {d}: got {got}, want {want}", e.fen));
            }
        }
    }
    assert!(checked >= min_checked, "only {checked} counts checked");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn casual_suite() {
    run_suite("casual.epd", LegalityModel::Casual, CI_LIMIT);
}

#[test]
fn fsf_suite() {
    run_suite("fsf.epd", LegalityModel::Fsf, CI_LIMIT);
}

/// Positions added for rules the reference positions miss (palace cannons,
/// soldiers on enemy palace corners); counts from Fairy-Stockfish too.
#[test]
fn extra_positions() {
    run_file("extra-casual.epd", LegalityModel::Casual, u64::MAX, 2, 8);
    run_file("extra-fsf.epd", LegalityModel::Fsf, u64::MAX, 2, 8);
}

#[test]
#[ignore = "deep: all counts up to 36 M leaves; run with --ignored"]
fn casual_suite_full() {
    run_suite("casual.epd", LegalityModel::Casual, u64::MAX);
}

#[test]
#[ignore = "deep: all counts up to 35 M leaves; run with --ignored"]
fn fsf_suite_full() {
    run_suite("fsf.epd", LegalityModel::Fsf, u64::MAX);
}

/// The example of `perft/README.md`: bare generals facing each other.
#[test]
fn facing_generals_example() {
    let fen = "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1";
    let mut p = Position::from_fen(fen).unwrap();
    assert_eq!(perft(&mut p, 1, LegalityModel::Fsf), 7);
    assert_eq!(perft(&mut p, 2, LegalityModel::Fsf), 24);
    assert_eq!(perft(&mut p, 1, LegalityModel::Casual), 9);
    assert_eq!(perft(&mut p, 2, LegalityModel::Casual), 36);
}

/// Two passes in a row end the game: the pass-pass branch has no children.
#[test]
fn double_pass_ends_tree() {
    let mut p = Position::startpos();
    p.make(janggi::Move::PASS);
    p.make(janggi::Move::PASS);
    assert_eq!(perft(&mut p, 1, LegalityModel::Casual), 0);
    assert_eq!(perft(&mut p, 1, LegalityModel::Fsf), 0);
    p.unmake();
    assert_eq!(perft(&mut p, 1, LegalityModel::Casual), 32);
}

/// Divide, single- and multi-threaded, sums to perft and agrees per move.
#[test]
fn divide_matches_perft() {
    let p = Position::startpos();
    let one = janggi::perft::divide(&p, 3, LegalityModel::Casual, 1);
    let two = janggi::perft::divide(&p, 3, LegalityModel::Casual, 2);
    assert_eq!(one, two);
    assert_eq!(one.iter().map(|x| x.1).sum::<u64>(), 33316);
}
