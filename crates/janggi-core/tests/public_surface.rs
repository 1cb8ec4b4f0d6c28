//! Pins janggi-core's public surface: the names at the crate root and in its
//! two public modules, `search_support` and `rng`. Adding a `pub mod`, a
//! `pub use`, a public item in one of those files or a `#[macro_export]`
//! macro fails `declared_names_are_pinned` until the lists below (and the
//! README) are updated on purpose; removing or renaming one fails to
//! compile `pinned_names_resolve`. Items of the private modules (`board`,
//! `game`, `types`) are public only through these files, and the crate's
//! `#![warn(unreachable_pub)]` (an error under `clippy -D warnings`) keeps
//! the rest `pub(crate)`.

use std::collections::BTreeSet;
use std::path::Path;

/// The crate root: the everyday API, the two public modules and the
/// `bitboard!` macro.
const ROOT: &[&str] = &[
    "BikjangRule",
    "Bitboard",
    "BitboardIter",
    "ByColor",
    "ByKind",
    "Color",
    "EndReason",
    "Event",
    "FenError",
    "Game",
    "IllegalMove",
    "KoreanMoveError",
    "KoreanScript",
    "LegalityModel",
    "MAX_MOVES",
    "Move",
    "MoveList",
    "MoveParseError",
    "Notation",
    "Outcome",
    "PendingBikjang",
    "Piece",
    "PieceKind",
    "Position",
    "PositionError",
    "REPETITION_LIMIT",
    "REPETITION_WARNING",
    "RepetitionRule",
    "RuleError",
    "Rules",
    "START_FEN",
    "Setup",
    "Square",
    "SquareText",
    "UnknownModel",
    "UnknownSetup",
    "bitboard",
    "piece_name",
    "rng",
    "search_support",
    "setup_fen",
];

/// `janggi_core::search_support`: the engine's hooks.
const SEARCH_SUPPORT: &[&str] = &[
    "DIRS",
    "Danger",
    "Decision",
    "ELEPHANT_JUMPS",
    "ElephantJump",
    "ElephantJumps",
    "Ending",
    "FILE_MASKS",
    "Frame",
    "GenKind",
    "HORSE_JUMPS",
    "HorseJump",
    "HorseJumps",
    "Line",
    "MateCheck",
    "Occasion",
    "PALACE_STEPS",
    "Played",
    "SOLDIER_STEPS",
    "SqList",
    "State",
    "cannon_attacks",
    "chariot_attacks",
    "counting_winner",
    "first_blocker",
    "judge",
];

/// `janggi_core::rng`.
const RNG: &[&str] = &["SplitMix64", "splitmix64"];

#[allow(unused_imports)]
mod pinned_names_resolve {
    // Each pinned name must exist at its path: removing or renaming one
    // fails to compile here.
    use janggi_core::rng::{splitmix64, SplitMix64};
    use janggi_core::search_support::{
        cannon_attacks, chariot_attacks, counting_winner, first_blocker, judge, Danger, Decision,
        ElephantJump, ElephantJumps, Ending, Frame, GenKind, HorseJump, HorseJumps, Line,
        MateCheck, Occasion, Played, SqList, State, DIRS, ELEPHANT_JUMPS, FILE_MASKS, HORSE_JUMPS,
        PALACE_STEPS, SOLDIER_STEPS,
    };
    use janggi_core::{
        bitboard, piece_name, rng, search_support, setup_fen, BikjangRule, Bitboard, BitboardIter,
        ByColor, ByKind, Color, EndReason, Event, FenError, Game, IllegalMove, KoreanMoveError,
        KoreanScript, LegalityModel, Move, MoveList, MoveParseError, Notation, Outcome,
        PendingBikjang, Piece, PieceKind, Position, PositionError, RepetitionRule, RuleError,
        Rules, Setup, Square, SquareText, UnknownModel, UnknownSetup, MAX_MOVES, REPETITION_LIMIT,
        REPETITION_WARNING, START_FEN,
    };
}

fn src(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The code of a file without its comments (line comments only: the crate
/// has no block comments).
fn code(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names a use tree (`a::{b, c::d as e}`) brings in.
fn use_leaves(tree: &str, out: &mut BTreeSet<String>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        assert!(tree.ends_with('}'), "use tree {tree:?}");
        let inner = &tree[open + 1..tree.len() - 1];
        let (mut depth, mut start) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    use_leaves(&inner[start..i], out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        use_leaves(&inner[start..], out);
    } else if !tree.is_empty() {
        assert!(
            !tree.ends_with('*'),
            "glob re-export `{tree}` hides the surface"
        );
        let leaf = match tree.split_once(" as ") {
            Some((_, alias)) => alias.trim(),
            None => tree.rsplit("::").next().unwrap(),
        };
        out.insert(leaf.to_string());
    }
}

/// Public names a module file declares at its top level: `pub use` trees,
/// `pub mod` and public items (indented ones are in impls or nested
/// modules and are not counted; `pub(crate)` is not public).
fn declared(file: &str) -> BTreeSet<String> {
    let text = code(&src(file));
    let mut out = BTreeSet::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("pub use ") {
        let at_line_start = i == 0 || rest[..i].ends_with('\n');
        let end = rest[i..].find(';').expect("`;` after `pub use`") + i;
        if at_line_start {
            use_leaves(&rest[i + "pub use ".len()..end], &mut out);
        }
        rest = &rest[end..];
    }
    // "const fn" before "const".
    const KINDS: &[&str] = &[
        "mod", "const fn", "fn", "struct", "enum", "const", "static", "type", "trait", "union",
    ];
    for line in text.lines() {
        let Some(decl) = line.strip_prefix("pub ") else {
            continue;
        };
        for kind in KINDS {
            if let Some(tail) = decl.strip_prefix(kind).and_then(|t| t.strip_prefix(' ')) {
                let name: String = tail
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.insert(name);
                break;
            }
        }
    }
    out
}

/// `#[macro_export]` macros anywhere in the crate: they land at the root.
fn exported_macros(dir: &Path, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            exported_macros(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            let mut lines = text.lines();
            while let Some(line) = lines.next() {
                if line.trim() == "#[macro_export]" {
                    let def = lines.next().unwrap_or_default().trim();
                    let name = def
                        .strip_prefix("macro_rules!")
                        .expect("macro_rules! after it");
                    out.insert(name.trim().trim_end_matches('{').trim().to_string());
                }
            }
        }
    }
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

#[test]
fn declared_names_are_pinned() {
    let mut root = declared("lib.rs");
    exported_macros(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut root,
    );
    assert_eq!(
        root,
        set(ROOT),
        "janggi-core's root changed: update ROOT here and the README on purpose"
    );
    assert_eq!(declared("search_support.rs"), set(SEARCH_SUPPORT));
    assert_eq!(declared("rng.rs"), set(RNG));
}

#[test]
fn internal_modules_stay_private() {
    // Every module below the root other than the two public ones is private,
    // so that each public item has exactly one path.
    let lib = code(&src("lib.rs"));
    for line in lib.lines().map(str::trim) {
        if let Some(m) = line.strip_prefix("pub mod ") {
            let m = m.trim_end_matches(';');
            assert!(
                m == "rng" || m == "search_support",
                "`pub mod {m}` in lib.rs"
            );
        }
    }
    for m in ["board", "game", "types"] {
        assert!(
            lib.lines().any(|l| l.trim() == format!("mod {m};")),
            "mod {m}"
        );
    }
}
