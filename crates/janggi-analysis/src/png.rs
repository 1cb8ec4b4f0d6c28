//! The evaluation graph as PNG: the SVG of [`crate::svg_graph`] rendered
//! by resvg. Its text is drawn with the two fonts embedded here: DejaVu
//! Sans cut down to printable ASCII by tools/make_graph_font.sh (licence in
//! crates/janggi-analysis/fonts/LICENSE), and for Hangul, which resvg
//! falls back to for a Korean file or player name in the title, NanumGothic
//! cut down to the 11,172 syllables and the compatibility jamo by
//! tools/graph-font/hangul.py (SIL OFL, fonts/OFL-NanumGothic.txt), and for
//! Hanja (楚漢, 段級, names and titles in Korean records) NanumGothic cut
//! down to the 535 characters of fonts/graph-hanja.txt by
//! tools/graph-font/hanja.py (134 KiB, budget 256 KiB). No system font is
//! read, so the picture is the same on every machine. Characters in none
//! of the fonts (rarer Hanja, emoji) are drawn as `?`.

use crate::{svg_graph, GameAnalysis};
use resvg::{tiny_skia, usvg};
use std::fmt;

/// The embedded font.
static FONT: &[u8] = include_bytes!("../fonts/DejaVuSans-graph.ttf");
/// Its family name, which `sans-serif` maps to.
pub const FONT_FAMILY: &str = "DejaVu Sans";
/// The embedded Hangul font, the fallback for what [`FONT`] lacks.
static HANGUL_FONT: &[u8] = include_bytes!("../fonts/graph-hangul.ttf");
/// The embedded Hanja font, the fallback for Hanja.
static HANJA_FONT: &[u8] = include_bytes!("../fonts/graph-hanja.ttf");
/// The Hanja [`HANJA_FONT`] draws (tools/graph-font/hanja.py reads the
/// same list).
pub const HANJA: &str = include_str!("../fonts/graph-hanja.txt");

/// Whether the embedded fonts draw `c` (what tools/make_graph_font.sh and
/// tools/graph-font/hangul.py put in them).
pub fn drawable(c: char) -> bool {
    (' '..='~').contains(&c)
        || c == '–'
        || ('\u{AC00}'..='\u{D7A3}').contains(&c)
        || ('\u{3131}'..='\u{318E}').contains(&c)
        || (!c.is_ascii() && !c.is_whitespace() && HANJA.contains(c))
}

/// Why an SVG could not be made a PNG.
#[derive(Clone, Debug, PartialEq)]
pub enum PngError {
    /// The SVG does not parse.
    Svg(String),
    /// The picture is empty or too large.
    Size(f32, f32),
    /// The PNG encoder failed.
    Encode(String),
}

impl fmt::Display for PngError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PngError::Svg(e) => write!(f, "bad SVG: {e}"),
            PngError::Size(w, h) => write!(f, "cannot draw a {w}x{h} picture"),
            PngError::Encode(e) => write!(f, "PNG encoding failed: {e}"),
        }
    }
}

impl std::error::Error for PngError {}

/// Renders `svg` at `scale` (2.0: twice the SVG's size in pixels).
///
/// # Errors
/// [`PngError`].
pub fn svg_to_png(svg: &str, scale: f32) -> Result<Vec<u8>, PngError> {
    let mut opt = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        ..usvg::Options::default()
    };
    {
        let db = opt.fontdb_mut();
        db.load_font_data(FONT.to_vec());
        db.load_font_data(HANGUL_FONT.to_vec());
        db.load_font_data(HANJA_FONT.to_vec());
        db.set_sans_serif_family(FONT_FAMILY);
    }
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| PngError::Svg(e.to_string()))?;
    let size = tree.size();
    let (w, h) = (size.width() * scale, size.height() * scale);
    let too_big = !(1.0..=16_384.0).contains(&w) || !(1.0..=16_384.0).contains(&h);
    let mut pixmap = if too_big {
        None
    } else {
        tiny_skia::Pixmap::new(w.ceil() as u32, h.ceil() as u32)
    }
    .ok_or(PngError::Size(w, h))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))
}

/// The evaluation graph ([`svg_graph`]) as PNG, 1600 × 600 pixels.
///
/// # Errors
/// [`PngError`] (not for graphs [`svg_graph`] draws).
pub fn png_graph(a: &GameAnalysis, title: &str) -> Result<Vec<u8>, PngError> {
    let title: String = title
        .chars()
        .map(|c| if drawable(c) { c } else { '?' })
        .collect();
    svg_to_png(&svg_graph(a, &title), 2.0)
}
