//! The engine's lenient `go` reader against the canonical lines: every
//! `go` a client writes (the match runner's clock lines, the analysis'
//! fixed limits, any `Go` value) reads back as the same `Go` with nothing
//! beside it, and no text makes the reader panic.

mod common;

use common::go;
use janggi_core::Color;
use janggi_uci::{Byoyomi, Clock, Dialect, Go, LenientGo, ParseError, TimeControl};
use proptest::prelude::*;

/// What the lenient reader must make of a canonical line.
fn reads_back(go: &Go) -> Result<(), TestCaseError> {
    let line = go.to_string();
    prop_assert_eq!(
        Go::read_lenient(&line),
        Ok(LenientGo::from(go.clone())),
        "{}",
        line
    );
    Ok(())
}

/// The runner's `go` lines: [`Clock::go`] (both dialects, both sides,
/// after some moves) plus its `movetime`/`depth`/`nodes`
/// (janggi-match's `go_command`), and the analysis' fixed limits.
#[test]
fn the_runners_lines_read_back() {
    let mut lines = vec![Go::movetime(1000), Go::depth(12), Go::nodes(50_000)];
    let byoyomi =
        |base_ms, period_ms, periods| TimeControl::byoyomi(base_ms, Byoyomi { period_ms, periods });
    let mut controls: Vec<TimeControl> = ["10+0.1", "300", "40/60+0.6", "1:30"]
        .iter()
        .map(|t| t.parse().unwrap_or_else(|e| panic!("{t}: {e}")))
        .collect();
    controls.push(byoyomi(60_000, 30_000, 3));
    controls.push(byoyomi(0, 10_000, 5));
    for tc in controls {
        let mut clock = Clock::new(tc);
        for used in [0, 700, 3_000, 25_000] {
            for side in [Color::Cho, Color::Han] {
                for dialect in [Dialect::Uci, Dialect::Usi] {
                    let mut go = clock.go(side, dialect);
                    lines.push(go.clone());
                    go.movetime = Some(250);
                    go.depth = Some(9);
                    go.nodes = Some(1_000);
                    lines.push(go);
                }
                let _ = clock.charge(side, used);
            }
        }
    }
    assert!(lines.len() > 100);
    for go in &lines {
        if let Err(e) = reads_back(go) {
            panic!("{e}");
        }
    }
}

#[test]
fn real_gui_lines() {
    // Cute Chess after a flag fall, a UCCI GUI, a GUI shouting.
    let g = Go::read_lenient("go wtime -43 btime 12000 winc 0 binc 0").unwrap();
    assert_eq!(g.go.wtime, Some(0));
    assert_eq!(g.go.to_string(), "go wtime 0 btime 12000 winc 0 binc 0");
    let g = Go::read_lenient("go time 30000 increment 0 opptime 29000 oppincrement 0").unwrap();
    assert_eq!(g.own_time(Dialect::Uci, Color::Han), Some(30_000));
    assert_eq!(g.go, Go::default());
    let g = Go::read_lenient("GO DEPTH 5").unwrap();
    assert_eq!(g, LenientGo::from(Go::depth(5)));
    assert_eq!(
        Go::read_lenient("go nodes lots"),
        Err(ParseError::BadNumber {
            field: "nodes",
            text: "lots".into()
        })
    );
}

proptest! {
    #[test]
    fn every_canonical_line_reads_back(g in go()) {
        reads_back(&g)?;
    }

    /// Upper-casing a canonical line without `searchmoves` changes
    /// nothing.
    #[test]
    fn case_does_not_matter(mut g in go()) {
        g.searchmoves.clear();
        let line = g.to_string().to_ascii_uppercase();
        prop_assert_eq!(Go::read_lenient(&line), Ok(LenientGo::from(g)));
    }

    /// Unknown words anywhere between the keywords are kept in order and
    /// change nothing else.
    #[test]
    fn unknown_words_are_kept_aside(mut g in go(), junk in prop::collection::vec("[XYZ][a-z]{0,5}", 1..4)) {
        g.searchmoves.clear();
        let line = format!("{} {}", g, junk.join(" "));
        let read = Go::read_lenient(&line);
        prop_assert_eq!(read, Ok(LenientGo { go: g, unknown: junk, ..LenientGo::default() }));
    }

    /// Any negative time reads as 0.
    #[test]
    fn negative_times_are_zero(ms in 1u64.., key in prop::sample::select(vec!["wtime", "btime", "winc", "binc", "byoyomi", "movetime"])) {
        let g = Go::read_lenient(&format!("go {key} -{ms}"));
        prop_assert!(g.is_ok());
        let line = g.map(|g| g.go.to_string()).unwrap_or_default();
        prop_assert_eq!(line, format!("go {key} 0"));
    }

    #[test]
    fn never_panics(tail in "[ -~]{0,60}") {
        for head in ["go ", "GO ", "go searchmoves ", ""] {
            let _ = Go::read_lenient(&format!("{head}{tail}"));
        }
    }
}
