//! Input buckets: which copy of the first layer a perspective reads,
//! chosen by where that perspective's own general stands in its palace
//! (Fairy-Stockfish's Janggi network does the same, HalfKA-style).
//!
//! A network of [`InputBuckets::count`] = K buckets has K first-layer
//! blocks of [`INPUTS`] rows; a perspective whose general stands on
//! bucket `k`'s point reads block `k`: its feature of a piece is
//! `k · INPUTS + feature_index(…)` ([`View::index`]). The scheme is carried
//! in the network file (version 3, docs/nnue.md).
//!
//! | scheme | K | bucket of the own general on (file, rank), own coordinates |
//! |---|---|---|
//! | [`InputBuckets::None`] | 1 | always 0 (the networks before input buckets) |
//! | [`InputBuckets::Palace9`] | 9 | `rank · 3 + (file − d)`: each palace point its own |
//! | [`InputBuckets::Palace6`] | 6 | `rank · 2 + [file = e]`, the general on file f seeing the board mirrored file-wise (a ↔ i), so on file d |
//!
//! Own coordinates are those of [`feature_index`]: Han sees the board
//! mirrored top to bottom (ranks), files unchanged, so both generals' palaces
//! are ranks 0–2, files d–f, and "the right-hand palace file" is file f
//! for both. Under `Palace6` the mirror applies to every square the
//! perspective sees, so a position and its left-right mirror image give
//! that perspective the same features whenever its general is off the
//! centre file.
//!
//! ```
//! use janggi_search::nnue::input_bucket::InputBuckets;
//! use janggi_core::{Color, Position};
//! let pos = Position::startpos();
//! // Both generals start on the palace centre (rank 1, file e).
//! for c in Color::BOTH {
//!     assert_eq!(InputBuckets::Palace9.view(c, pos.general(c)).bucket(), 4);
//!     assert_eq!(InputBuckets::Palace6.view(c, pos.general(c)).bucket(), 3);
//!     assert_eq!(InputBuckets::None.view(c, pos.general(c)).bucket(), 0);
//! }
//! ```

use super::network::{feature_index, INPUTS};
use janggi_core::{Color, Piece, Position, Square};
use std::fmt;

/// An input-bucket scheme (the network file's code, [`InputBuckets::code`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum InputBuckets {
    /// One bucket: the first layer of the networks before input buckets.
    #[default]
    None,
    /// Nine buckets, one per palace point of the own general.
    Palace9,
    /// Six buckets: the palace's two side files folded onto one by the
    /// left-right mirror, times three ranks.
    Palace6,
}

/// The palace's files in own coordinates (d, e, f).
const PALACE_FILES: std::ops::RangeInclusive<u8> = 3..=5;

impl InputBuckets {
    /// Every scheme, in the order of their codes.
    pub const ALL: [InputBuckets; 3] = [
        InputBuckets::None,
        InputBuckets::Palace9,
        InputBuckets::Palace6,
    ];

    /// The number of buckets K (first-layer blocks of [`INPUTS`] rows).
    #[inline]
    pub const fn count(self) -> usize {
        match self {
            InputBuckets::None => 1,
            InputBuckets::Palace9 => 9,
            InputBuckets::Palace6 => 6,
        }
    }

    /// The scheme's code in the network file (version 3's header).
    pub const fn code(self) -> u32 {
        match self {
            InputBuckets::None => 0,
            InputBuckets::Palace9 => 1,
            InputBuckets::Palace6 => 2,
        }
    }

    /// The scheme of a file's code, if this build has it.
    pub fn from_code(code: u32) -> Option<InputBuckets> {
        InputBuckets::ALL.into_iter().find(|s| s.code() == code)
    }

    /// The name `janggi-tools train --input-buckets` takes.
    pub const fn name(self) -> &'static str {
        match self {
            InputBuckets::None => "none",
            InputBuckets::Palace9 => "palace9",
            InputBuckets::Palace6 => "palace6",
        }
    }

    /// The scheme of `name` ([`InputBuckets::name`]), if any.
    pub fn from_name(name: &str) -> Option<InputBuckets> {
        InputBuckets::ALL.into_iter().find(|s| s.name() == name)
    }

    /// What perspective `persp` reads when its own general stands on
    /// `general`. A general outside the palace (not a legal position)
    /// counts as on the nearest palace point, so no input panics.
    #[inline]
    pub fn view(self, persp: Color, general: Square) -> View {
        let own = match persp {
            Color::Cho => general,
            Color::Han => general.flip_rank(),
        };
        let file =
            own.file().clamp(*PALACE_FILES.start(), *PALACE_FILES.end()) - PALACE_FILES.start();
        let rank = own.rank().min(2);
        match self {
            InputBuckets::None => View::FLAT,
            InputBuckets::Palace9 => View::new(rank * 3 + file, false),
            InputBuckets::Palace6 => View::new(rank * 2 + u8::from(file == 1), file == 2),
        }
    }

    /// Both perspectives' views of `pos`, indexed by colour.
    #[inline]
    pub fn views(self, pos: &Position) -> [View; 2] {
        Color::BOTH.map(|c| self.view(c, pos.general(c)))
    }
}

impl fmt::Display for InputBuckets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One perspective's reading of the first layer: its bucket and whether it
/// sees the board mirrored file-wise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct View {
    /// The first row of the bucket's block (`bucket · INPUTS`).
    base: u16,
    /// Squares mirrored left to right (a ↔ i) before indexing.
    mirror: bool,
}

impl View {
    /// The view of a one-bucket network: block 0, no mirror.
    pub const FLAT: View = View {
        base: 0,
        mirror: false,
    };

    const fn new(bucket: u8, mirror: bool) -> View {
        View {
            base: bucket as u16 * INPUTS as u16,
            mirror,
        }
    }

    /// The bucket (0..K).
    pub const fn bucket(self) -> usize {
        self.base as usize / INPUTS
    }

    /// Whether the board is seen mirrored file-wise.
    pub const fn mirrored(self) -> bool {
        self.mirror
    }

    /// The first-layer row of `piece` on `sq` for perspective `persp`
    /// seeing the board through this view.
    #[inline]
    pub fn index(self, persp: Color, piece: Piece, sq: Square) -> usize {
        let sq = if self.mirror { sq.flip_file() } else { sq };
        usize::from(self.base) + feature_index(persp, piece, sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use janggi_core::PieceKind;

    /// Every palace point of each colour, in own coordinates (rank, file).
    fn palace(c: Color) -> Vec<(u8, u8, Square)> {
        let mut out = Vec::new();
        for rank in 0..3u8 {
            for file in 3..6u8 {
                let own = Square::new(file, rank).unwrap();
                let sq = match c {
                    Color::Cho => own,
                    Color::Han => own.flip_rank(),
                };
                out.push((rank, file - 3, sq));
            }
        }
        out
    }

    #[test]
    fn palace9_numbers_every_point() {
        for c in Color::BOTH {
            let mut seen = [false; 9];
            for (rank, file, sq) in palace(c) {
                let v = InputBuckets::Palace9.view(c, sq);
                assert_eq!(v.bucket(), usize::from(rank * 3 + file));
                assert!(!v.mirrored());
                seen[v.bucket()] = true;
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn palace6_folds_the_side_files() {
        for c in Color::BOTH {
            let mut seen = [0; 6];
            for (rank, file, sq) in palace(c) {
                let v = InputBuckets::Palace6.view(c, sq);
                assert!(v.bucket() < 6);
                assert_eq!(v.mirrored(), file == 2, "{sq}");
                assert_eq!(v.bucket(), usize::from(rank * 2 + u8::from(file == 1)));
                // The mirror image of the point: the same bucket.
                let m = InputBuckets::Palace6.view(c, sq.flip_file());
                assert_eq!(m.bucket(), v.bucket());
                seen[v.bucket()] += 1;
            }
            // Side buckets hold two points each, centre buckets one.
            assert_eq!(seen, [2, 1, 2, 1, 2, 1]);
        }
    }

    #[test]
    fn codes_and_names_round_trip() {
        for s in InputBuckets::ALL {
            assert_eq!(InputBuckets::from_code(s.code()), Some(s));
            assert_eq!(InputBuckets::from_name(s.name()), Some(s));
            assert_eq!(s.to_string(), s.name());
        }
        assert_eq!(InputBuckets::from_code(3), None);
        assert_eq!(InputBuckets::from_name("palace"), None);
        assert_eq!(InputBuckets::default().count(), 1);
    }

    #[test]
    fn indices_stay_inside_the_blocks() {
        let p = Piece::new(Color::Han, PieceKind::Chariot);
        for s in InputBuckets::ALL {
            for c in Color::BOTH {
                for g in Square::ALL {
                    let v = s.view(c, g);
                    assert!(v.bucket() < s.count());
                    for sq in [Square::ALL[0], Square::ALL[89]] {
                        let i = v.index(c, p, sq);
                        assert_eq!(i / INPUTS, v.bucket());
                    }
                }
            }
        }
        // The flat view is feature_index itself.
        let sq = Square::new(2, 7).unwrap();
        assert_eq!(
            View::FLAT.index(Color::Han, p, sq),
            feature_index(Color::Han, p, sq)
        );
    }
}
