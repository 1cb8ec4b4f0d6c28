//! Header tag names shared by GIB and PGN: each GIB tag with its PGN
//! counterpart. Tags outside this table are kept under their own name in
//! both formats.

/// (GIB name, PGN name) of the tags both formats have.
pub const PAIRS: [(&str, &str); 8] = [
    ("대회명", "Event"),
    ("회전", "Round"),
    ("대국일자", "Date"),
    ("대국장소", "Site"),
    ("초대국자", "White"),
    ("한대국자", "Black"),
    ("제한시간", "TimeControl"),
    ("대국결과", "Termination"),
];

/// Tags a writer derives from the record itself and so does not copy.
const DERIVED_PGN: [&str; 7] = [
    "FEN", "SetUp", "Variant", "Result", "PlyCount", "Notation", "Rules",
];
const DERIVED_GIB: [&str; 6] = ["초차림", "초포진", "한차림", "한포진", "총수", "판"];

/// The GIB name for a tag read from either format (`None`: not copied).
pub fn to_gib(name: &str) -> Option<&str> {
    if DERIVED_PGN.contains(&name) || name == "RuleSet" {
        return None;
    }
    Some(
        PAIRS
            .iter()
            .find(|(_, p)| *p == name)
            .map_or(name, |(g, _)| g),
    )
}

/// The PGN name for a tag read from either format (`None`: not copied).
pub fn to_pgn(name: &str) -> Option<&str> {
    if DERIVED_GIB.contains(&name) || DERIVED_PGN.contains(&name) {
        return None;
    }
    Some(
        PAIRS
            .iter()
            .find(|(g, _)| *g == name)
            .map_or(name, |(_, p)| p),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_translate_both_ways() {
        assert_eq!(to_pgn("대회명"), Some("Event"));
        assert_eq!(to_gib("Event"), Some("대회명"));
        assert_eq!(to_gib("대회명"), Some("대회명"));
        assert_eq!(to_pgn("초차림"), None);
        assert_eq!(to_gib("FEN"), None);
        assert_eq!(to_pgn("해설"), Some("해설"));
    }
}
