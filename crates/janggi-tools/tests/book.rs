//! `janggi-tools book`: the count, distinct openings (mirror images
//! included), every line read back by the match runner's opening reader,
//! balanced per the filter, and the same book for any thread count.

use janggi_core::Position;
use janggi_match::openings::OpeningConfig;
use janggi_tools::book::{build, canonical_key, BookConfig, BookError};
use std::collections::HashSet;

fn small(threads: usize) -> BookConfig {
    BookConfig {
        count: 40,
        plies: 6,
        nodes: 150,
        margin: 150,
        seed: 7,
        threads,
        ..BookConfig::default()
    }
}

#[test]
fn book_is_counted_distinct_balanced_readable_and_deterministic() {
    let cfg = small(1);
    let book = build(&cfg, false).unwrap();
    assert_eq!(book.entries.len(), 40);
    assert_eq!(
        book.tried,
        40 + book.dropped_illegal + book.dropped_unbalanced + book.dropped_duplicate
    );
    let mut keys = HashSet::new();
    for e in &book.entries {
        assert!(e.score.abs() <= cfg.margin, "{e:?}");
        let pos = Position::from_fen(&e.fen).unwrap();
        assert!(!pos.in_check());
        assert!(keys.insert(canonical_key(&pos)), "duplicate {}", e.fen);
    }
    // Written, the file reads back through the runner's `file=` reader.
    let path = std::env::temp_dir().join(format!("janggi-book-test-{}.epd", std::process::id()));
    let text = book.to_epd(&cfg, "test");
    std::fs::write(&path, &text).unwrap();
    let words = vec![format!("file={}", path.display())];
    let read = OpeningConfig::parse(&words)
        .unwrap()
        .source_positions()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(read.len(), 40);
    for ((_, fen), e) in read.iter().zip(&book.entries) {
        let a = Position::from_fen(fen).unwrap();
        let b = Position::from_fen(&e.fen).unwrap();
        assert_eq!(a.key(), b.key());
    }
    // The same book on three threads, and with a new seed another one.
    let again = build(&small(3), false).unwrap();
    assert_eq!(again.entries, book.entries);
    assert_eq!(again.to_epd(&cfg, "test"), text);
    let other = build(
        &BookConfig {
            seed: 8,
            ..small(2)
        },
        false,
    )
    .unwrap();
    assert_ne!(other.entries, book.entries);
}

#[test]
fn a_filter_nothing_passes_gives_up_with_a_typed_error() {
    // A negative margin keeps no candidate: after the limit (at least 64
    // candidates) the build stops and says how far it got.
    let cfg = BookConfig {
        count: 1,
        nodes: 50,
        margin: -1,
        max_tries_per_opening: 1,
        ..small(2)
    };
    let err = build(&cfg, false).expect_err("nothing passes");
    assert_eq!(
        err,
        BookError::TooFewOpenings {
            kept: 0,
            wanted: 1,
            candidates: 64
        }
    );
    assert_eq!(
        err.to_string(),
        "only 0 of 1 openings after 64 candidates: widen --margin or change --plies"
    );
}
