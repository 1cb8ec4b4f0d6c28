//! Strategies shared by the wire tests.
#![allow(dead_code)]

use janggi_uci::Go;
use proptest::option::of;
use proptest::prelude::*;

/// A move in UCI coordinates.
pub fn mv() -> impl Strategy<Value = String> {
    "[a-i](10|[1-9])[a-i](10|[1-9])"
}

pub fn moves() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(mv(), 0..6)
}

/// Any `go` value.
pub fn go() -> impl Strategy<Value = Go> {
    (
        (
            any::<bool>(),
            of(any::<u64>()),
            of(any::<u64>()),
            of(any::<u64>()),
            of(any::<u64>()),
        ),
        (
            of(any::<u32>()),
            of(any::<u64>()),
            of(any::<u32>()),
            of(any::<u64>()),
        ),
        (
            of(any::<u32>()),
            of(any::<u64>()),
            of(any::<u32>()),
            any::<bool>(),
            moves(),
        ),
    )
        .prop_map(
            |(
                (ponder, wtime, btime, winc, binc),
                (movestogo, byoyomi, periods, movetime),
                (depth, nodes, mate, infinite, searchmoves),
            )| Go {
                ponder,
                wtime,
                btime,
                winc,
                binc,
                movestogo,
                byoyomi,
                periods,
                movetime,
                depth,
                nodes,
                mate,
                infinite,
                searchmoves,
            },
        )
}
