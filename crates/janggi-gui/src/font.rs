//! The page's font, inside the binary: a subset of NanumGothic (SIL Open
//! Font License 1.1, renamed "JanggiBoard" as the licence asks of a
//! modified font; `assets/fonts/OFL-NanumGothic.txt`) with ASCII, the
//! Hanja piece names and every Hangul/Hanja character the page shows.
//! `tools/gui-font/subset.py` makes it (a dev-time step); the page loads
//! it with `@font-face` from `/fonts/janggi-board.ttf`, so no system font
//! is needed.

/// The font file (TrueType).
pub const FONT_TTF: &[u8] = include_bytes!("../assets/fonts/janggi-board.ttf");
/// Its licence.
pub const FONT_LICENSE: &str = include_str!("../assets/fonts/OFL-NanumGothic.txt");

fn u16_at(b: &[u8], i: usize) -> Option<u32> {
    Some(u32::from(u16::from_be_bytes([*b.get(i)?, *b.get(i + 1)?])))
}

fn u32_at(b: &[u8], i: usize) -> Option<u32> {
    Some(u32::from_be_bytes([
        *b.get(i)?,
        *b.get(i + 1)?,
        *b.get(i + 2)?,
        *b.get(i + 3)?,
    ]))
}

/// The code points a TrueType font maps to a glyph other than 0: its
/// `cmap` table's Unicode subtables of format 4 (BMP) and 12 (full).
/// `None` when the file is not a font this reader understands.
pub fn mapped_chars(font: &[u8]) -> Option<std::collections::BTreeSet<u32>> {
    let tables = u16_at(font, 4)? as usize;
    let cmap = (0..tables).find_map(|t| {
        let rec = 12 + 16 * t;
        (font.get(rec..rec + 4)? == b"cmap").then(|| u32_at(font, rec + 8))?
    })? as usize;
    let mut out = std::collections::BTreeSet::new();
    for s in 0..u16_at(font, cmap + 2)? as usize {
        let rec = cmap + 4 + 8 * s;
        let (platform, encoding) = (u16_at(font, rec)?, u16_at(font, rec + 2)?);
        if !(platform == 0 || (platform == 3 && (encoding == 1 || encoding == 10))) {
            continue;
        }
        let sub = cmap + u32_at(font, rec + 4)? as usize;
        match u16_at(font, sub)? {
            4 => {
                let segs = u16_at(font, sub + 6)? as usize / 2;
                let ends = sub + 14;
                let starts = ends + 2 * segs + 2;
                let deltas = starts + 2 * segs;
                let offsets = deltas + 2 * segs;
                for i in 0..segs {
                    let (end, start) = (u16_at(font, ends + 2 * i)?, u16_at(font, starts + 2 * i)?);
                    let delta = u16_at(font, deltas + 2 * i)?;
                    let ro = u16_at(font, offsets + 2 * i)? as usize;
                    for c in start..=end.min(0xFFFE) {
                        let glyph = if ro == 0 {
                            (c + delta) & 0xFFFF
                        } else {
                            let at = offsets + 2 * i + ro + 2 * (c - start) as usize;
                            match u16_at(font, at)? {
                                0 => 0,
                                g => (g + delta) & 0xFFFF,
                            }
                        };
                        if glyph != 0 {
                            out.insert(c);
                        }
                    }
                }
            }
            12 => {
                for g in 0..u32_at(font, sub + 12)? as usize {
                    let at = sub + 16 + 12 * g;
                    let (start, end) = (u32_at(font, at)?, u32_at(font, at + 4)?);
                    let first = u32_at(font, at + 8)?;
                    for (k, c) in (start..=end.min(start + 0x10000)).enumerate() {
                        if first + k as u32 != 0 {
                            out.insert(c);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Some(out)
}

/// Whether `c` is Hangul (syllables, compatibility jamo) or a CJK
/// ideograph (Hanja).
pub fn is_korean(c: char) -> bool {
    matches!(u32::from(c), 0xAC00..=0xD7A3 | 0x3130..=0x318F | 0x4E00..=0x9FFF)
}

#[cfg(test)]
mod tests {
    use super::*;
    use janggi_core::{piece_name, Color, KoreanScript, PieceKind};

    /// The text the page can show: its own files, the server's Korean
    /// strings, the game layer's result summaries (the same files as
    /// `SCANNED` in tools/gui-font/subset.py), and the piece names.
    const SCANNED: &[(&str, &str)] = &[
        ("index.html", include_str!("../assets/index.html")),
        ("app.js", include_str!("../assets/app.js")),
        ("pieces.js", include_str!("../assets/pieces.js")),
        ("sound.js", include_str!("../assets/sound.js")),
        ("rules.js", include_str!("../assets/rules.js")),
        ("panels.js", include_str!("../assets/panels.js")),
        ("style.css", include_str!("../assets/style.css")),
        // The files that were session.rs and server.rs, and the engine's
        // notes (tools/gui-font/subset.py must list the same).
        ("session/mod.rs", include_str!("session/mod.rs")),
        ("session/settings.rs", include_str!("session/settings.rs")),
        ("session/draw.rs", include_str!("session/draw.rs")),
        ("session/consent.rs", include_str!("session/consent.rs")),
        ("session/warning.rs", include_str!("session/warning.rs")),
        ("request.rs", include_str!("request.rs")),
        ("error.rs", include_str!("error.rs")),
        ("view.rs", include_str!("view.rs")),
        ("engine/mod.rs", include_str!("engine/mod.rs")),
        ("engine/turns.rs", include_str!("engine/turns.rs")),
        ("engine/analysis.rs", include_str!("engine/analysis.rs")),
        ("reasons.rs", include_str!("reasons.rs")),
        (
            "outcome.rs",
            include_str!("../../janggi-core/src/game/outcome.rs"),
        ),
    ];

    #[test]
    fn every_korean_character_of_the_page_is_in_the_font() {
        let have = mapped_chars(FONT_TTF).expect("a TrueType font with a cmap");
        let mut text: String = SCANNED.iter().map(|(_, t)| *t).collect();
        for kind in PieceKind::ALL {
            for color in Color::BOTH {
                for script in [KoreanScript::Hanja, KoreanScript::Hangul] {
                    text.push_str(piece_name(kind, color, script));
                }
            }
        }
        text.push_str("한수쉼 장군 초 한");
        let mut missing: Vec<char> = text
            .chars()
            .filter(|&c| is_korean(c) && !have.contains(&u32::from(c)))
            .collect();
        missing.sort_unstable();
        missing.dedup();
        assert!(
            missing.is_empty(),
            "not in the embedded font (run tools/gui-font/subset.py): {}",
            missing.iter().collect::<String>()
        );
        // ASCII too, and the font is small.
        assert!((0x20..0x7F).all(|c| have.contains(&c)));
        assert!(FONT_TTF.len() < 200 * 1024, "{} bytes", FONT_TTF.len());
        assert!(FONT_LICENSE.contains("SIL OPEN FONT LICENSE"));
    }

    #[test]
    fn the_cmap_reader_rejects_what_is_not_a_font() {
        assert_eq!(mapped_chars(b""), None);
        assert_eq!(
            mapped_chars(b"not a font at all, just some text here"),
            None
        );
        // A font without the characters: a cut-off file reads as none.
        assert!(mapped_chars(&FONT_TTF[..64]).is_none_or(|s| s.is_empty()));
        assert!(!mapped_chars(FONT_TTF).unwrap().contains(&0x4FE5)); // 俥
    }
}
