//! The page's further scripts, embedded in the binary like the rest of
//! the page (no CDN): the sound ([`SOUND_JS`]), the rules view
//! ([`RULES_JS`]) and the board's pictures ([`PIECES_JS`]), each served
//! at its path by [`script`].

/// Sound effects synthesised with Web Audio, the mute switch and the
/// spoken calls.
pub const SOUND_JS: &str = include_str!("../assets/sound.js");
/// The rules view: each piece's moves animated on a small board.
pub const RULES_JS: &str = include_str!("../assets/rules.js");
/// Pieces and small boards as SVG, shared by the board, the setup cards
/// and the rules view.
pub const PIECES_JS: &str = include_str!("../assets/pieces.js");

/// The script served at `path`, if there is one.
pub fn script(path: &str) -> Option<&'static str> {
    match path {
        "/sound.js" => Some(SOUND_JS),
        "/rules.js" => Some(RULES_JS),
        "/pieces.js" => Some(PIECES_JS),
        _ => None,
    }
}
