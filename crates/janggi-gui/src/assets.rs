//! The page's further scripts, embedded in the binary like the rest of
//! the page (no CDN): the sound ([`SOUND_JS`]), the rules view
//! ([`RULES_JS`]), the board's pictures ([`PIECES_JS`]) and the panels
//! beside the board ([`PANELS_JS`]), each served at its path by
//! [`script`]. Each stays under 32 KiB, which tiny_http sends with a
//! `Content-Length` (larger ones go out chunked).

/// Sound effects synthesised with Web Audio, the mute switch and the
/// spoken calls.
pub const SOUND_JS: &str = include_str!("../assets/sound.js");
/// The rules view: each piece's moves animated on a small board.
pub const RULES_JS: &str = include_str!("../assets/rules.js");
/// Pieces and small boards as SVG, shared by the board, the setup cards
/// and the rules view.
pub const PIECES_JS: &str = include_str!("../assets/pieces.js");
/// The panels beside the board: evaluation, engine status, markers,
/// review, records, the result's graph.
pub const PANELS_JS: &str = include_str!("../assets/panels.js");

/// The script served at `path`, if there is one.
pub fn script(path: &str) -> Option<&'static str> {
    match path {
        "/sound.js" => Some(SOUND_JS),
        "/rules.js" => Some(RULES_JS),
        "/pieces.js" => Some(PIECES_JS),
        "/panels.js" => Some(PANELS_JS),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// tiny_http sends a body of 32 KiB or more chunked; the page's
    /// scripts stay below that (split app.js by concern when it grows).
    #[test]
    fn every_script_is_served_whole_and_small() {
        let app = include_str!("../assets/app.js");
        for (path, js) in [
            ("/app.js", app),
            ("/sound.js", SOUND_JS),
            ("/rules.js", RULES_JS),
            ("/pieces.js", PIECES_JS),
            ("/panels.js", PANELS_JS),
        ] {
            assert!(js.len() < 32 * 1024, "{path}: {} bytes", js.len());
            if path != "/app.js" {
                assert_eq!(script(path), Some(js));
            }
        }
        assert_eq!(script("/../app.js"), None);
        assert_eq!(script("/app.js"), None, "app.js is the HTTP edge's own");
    }
}
