//! The page's script, embedded in the binary like the rest of the page
//! (no CDN): written as one file per concern (the board's pictures,
//! the sound, the rules view, the panels beside the board, the page
//! itself) and served as one `/app.js` ([`APP_JS`]), so the page loads
//! with as few requests as before it was split.

/// The files of the page's script, in the order they run.
#[cfg(test)]
const PARTS: [(&str, &str); 5] = [
    ("pieces.js", include_str!("../assets/pieces.js")),
    ("sound.js", include_str!("../assets/sound.js")),
    ("rules.js", include_str!("../assets/rules.js")),
    ("panels.js", include_str!("../assets/panels.js")),
    ("app.js", include_str!("../assets/app.js")),
];

/// `/app.js`: the parts one after another (top-level names are shared,
/// as between classic scripts).
pub const APP_JS: &str = concat!(
    include_str!("../assets/pieces.js"),
    "\n",
    include_str!("../assets/sound.js"),
    "\n",
    include_str!("../assets/rules.js"),
    "\n",
    include_str!("../assets/panels.js"),
    "\n",
    include_str!("../assets/app.js"),
);

#[cfg(test)]
mod tests {
    use super::*;

    /// The served script is every part, in order, and nothing else.
    #[test]
    fn the_script_is_its_parts_in_order() {
        let joined: Vec<&str> = PARTS.iter().map(|(_, js)| *js).collect();
        assert_eq!(APP_JS, joined.join("\n"));
        let mut at = 0;
        for (name, js) in PARTS {
            let i = APP_JS[at..].find(js).expect(name) + at;
            at = i + js.len();
        }
        assert!(PARTS[4].1.starts_with("// The page of `janggi-engine gui`"));
    }
}
