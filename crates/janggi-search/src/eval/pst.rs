//! Piece-square tables (위치 점수표) for all seven kinds.
//!
//! Every table is drawn from Cho's side: the first row of the source is
//! rank 10 (Han's back rank), the last row rank 1 (Cho's back rank), files
//! `a`..`i` left to right. Han reads the same table through
//! [`Square::flip_rank`], so a Han piece on rank r scores what a Cho piece
//! scores on rank 9 - r. The board is left-right symmetric and so are the
//! tables.

use janggi_core::{Color, PieceKind, Square};

/// A table in drawing order (rank 10 first).
type Drawn = [i16; 90];

/// Converts a drawn table into square-index order (rank 1 = index 0..9).
const fn from_drawing(d: &Drawn) -> [i16; 90] {
    let mut out = [0i16; 90];
    let mut i = 0;
    while i < 90 {
        let rank_from_top = i / 9;
        let file = i % 9;
        out[(9 - rank_from_top) * 9 + file] = d[i];
        i += 1;
    }
    out
}

/// General (궁): the palace centre is safest, the front row is exposed.
#[rustfmt::skip]
const GENERAL: Drawn = [
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0, -30, -20, -30, 0, 0, 0,
    0, 0, 0,  -5,  15,  -5, 0, 0, 0,
    0, 0, 0,  -5,   5,  -5, 0, 0, 0,
];

/// Guard (사): close to the general, in the palace.
#[rustfmt::skip]
const GUARD: Drawn = [
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0,   0,   0,   0, 0, 0, 0,
    0, 0, 0, -10,  -5, -10, 0, 0, 0,
    0, 0, 0,   5,  10,   5, 0, 0, 0,
    0, 0, 0,   5,   0,   5, 0, 0, 0,
];

/// Elephant (상): central points, away from the edges.
#[rustfmt::skip]
const ELEPHANT: Drawn = [
    -10, -5,  0,  0,  0,  0,  0, -5, -10,
     -5,  0,  5,  5,  5,  5,  5,  0,  -5,
     -5,  5, 10, 10, 10, 10, 10,  5,  -5,
     -5,  5, 10, 15, 15, 15, 10,  5,  -5,
     -5,  5, 10, 15, 15, 15, 10,  5,  -5,
     -5,  5, 10, 15, 15, 15, 10,  5,  -5,
     -5,  5, 10, 10, 15, 10, 10,  5,  -5,
     -5,  0,  5, 10,  5, 10,  5,  0,  -5,
    -10, -5,  0,  0,  0,  0,  0, -5, -10,
    -10, -5,  0,  0,  0,  0,  0, -5, -10,
];

/// Horse (마): centre and forward; the rim is poor.
#[rustfmt::skip]
const HORSE: Drawn = [
    -15, -5,  0,  5,  0,  5,  0, -5, -15,
    -10,  5, 15, 20, 20, 20, 15,  5, -10,
     -5, 10, 20, 25, 25, 25, 20, 10,  -5,
     -5, 10, 15, 20, 20, 20, 15, 10,  -5,
     -5,  5, 15, 20, 20, 20, 15,  5,  -5,
     -5,  5, 10, 15, 15, 15, 10,  5,  -5,
    -10,  0, 10, 10, 10, 10, 10,  0, -10,
    -10,  0,  5,  5,  0,  5,  5,  0, -10,
    -15, -5,  0,  0,  0,  0,  0, -5, -15,
    -20,-10, -5, -5, -5, -5, -5,-10, -20,
];

/// Chariot (차): open central files and the enemy palace.
#[rustfmt::skip]
const CHARIOT: Drawn = [
     5,  5,  5, 15, 20, 15,  5,  5,  5,
    10, 10, 15, 25, 30, 25, 15, 10, 10,
    10, 10, 10, 20, 25, 20, 10, 10, 10,
     5, 10, 10, 15, 15, 15, 10, 10,  5,
     0,  5,  5, 10, 10, 10,  5,  5,  0,
     0,  5,  5, 10, 10, 10,  5,  5,  0,
     0,  5,  5, 10, 10, 10,  5,  5,  0,
    -5,  0,  0,  5,  5,  5,  0,  0, -5,
    -5,  0,  0,  5,  5,  5,  0,  0, -5,
    -10, 0,  0,  5,  0,  5,  0,  0,-10,
];

/// Cannon (포): behind the own palace centre and facing the enemy palace.
#[rustfmt::skip]
const CANNON: Drawn = [
     0,  0,  0,  5, 10,  5,  0,  0,  0,
     0,  0,  0,  5, 10,  5,  0,  0,  0,
     0,  5,  5, 10, 15, 10,  5,  5,  0,
     0,  0,  5,  5, 10,  5,  5,  0,  0,
     0,  0,  0,  5, 10,  5,  0,  0,  0,
     0,  0,  0,  5, 10,  5,  0,  0,  0,
     0,  0,  5,  5, 10,  5,  5,  0,  0,
     5,  5,  5, 10, 15, 10,  5,  5,  5,
     0,  0,  5, 10, 20, 10,  5,  0,  0,
     0,  0,  0,  0,  5,  0,  0,  0,  0,
];

/// Soldier (졸/병): forward and central, best inside the enemy palace; on
/// the last rank it can only move sideways.
#[rustfmt::skip]
const SOLDIER: Drawn = [
     0,  0,  5, 25, 30, 25,  5,  0,  0,
    10, 15, 25, 45, 55, 45, 25, 15, 10,
    10, 15, 25, 40, 45, 40, 25, 15, 10,
    10, 12, 18, 25, 30, 25, 18, 12, 10,
     5,  8, 12, 18, 20, 18, 12,  8,  5,
     0,  3,  5,  8, 10,  8,  5,  3,  0,
    -5,  0,  0,  0,  5,  0,  0,  0, -5,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];

/// Files after folding the board at its centre file (a/i → 0, …, e → 4):
/// the tables are left-right symmetric.
pub const FOLDED_FILES: usize = 5;
/// Entries per kind: ten ranks (own view) times the folded files.
pub const PER_KIND: usize = 10 * FOLDED_FILES;

/// The drawn tables in kind order.
const DRAWN: [&Drawn; 7] = [
    &GENERAL, &GUARD, &ELEPHANT, &HORSE, &CHARIOT, &CANNON, &SOLDIER,
];

/// The hand-drawn tables folded into the weight layout (see [`index`]).
pub const HANDCRAFTED: [i16; 7 * PER_KIND] = {
    let mut out = [0i16; 7 * PER_KIND];
    let mut k = 0;
    while k < 7 {
        let t = from_drawing(DRAWN[k]);
        let mut r = 0;
        while r < 10 {
            let mut f = 0;
            while f < FOLDED_FILES {
                out[k * PER_KIND + r * FOLDED_FILES + f] = t[r * 9 + f];
                f += 1;
            }
            r += 1;
        }
        k += 1;
    }
    out
};

/// The table entry of a `color` `kind` on `sq`, relative to the start of
/// the tables in the weight vector: kind, then the rank seen from the
/// piece's own side (Han reads the board through [`Square::flip_rank`]),
/// then the folded file.
#[inline]
pub fn index(color: Color, kind: PieceKind, sq: Square) -> usize {
    kind.index() * PER_KIND + usize::from(SQUARE_INDEX[color.index()][sq.index()])
}

/// Per color and square: own-view rank times [`FOLDED_FILES`] plus the
/// folded file.
static SQUARE_INDEX: [[u8; 90]; 2] = {
    let mut t = [[0u8; 90]; 2];
    let mut i = 0;
    while i < 90 {
        let f = i % 9;
        let folded = if f > 4 { 8 - f } else { f };
        let r = i / 9;
        t[0][i] = (r * FOLDED_FILES + folded) as u8;
        t[1][i] = ((9 - r) * FOLDED_FILES + folded) as u8;
        i += 1;
    }
    t
};

/// The hand-drawn piece-square bonus of a `color` `kind` on `sq`, from
/// that color's own point of view (positive is good for the piece's owner).
#[inline]
pub fn value(color: Color, kind: PieceKind, sq: Square) -> i32 {
    i32::from(HANDCRAFTED[index(color, kind, sq)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawn_tables_are_left_right_symmetric() {
        // Folding the files is lossless only for symmetric drawings.
        for (k, d) in DRAWN.iter().enumerate() {
            let t = from_drawing(d);
            for sq in Square::ALL {
                let m = Square::new(8 - sq.file(), sq.rank()).expect("on board");
                assert_eq!(t[sq.index()], t[m.index()], "kind {k} {sq:?}");
                assert_eq!(
                    value(Color::Cho, PieceKind::ALL[k], sq),
                    i32::from(t[sq.index()]),
                    "kind {k} {sq:?}"
                );
            }
        }
    }

    #[test]
    fn han_reads_mirrored() {
        let e2 = Square::new(4, 1).expect("on board");
        let e9 = Square::new(4, 8).expect("on board");
        assert_eq!(value(Color::Cho, PieceKind::General, e2), 15);
        assert_eq!(value(Color::Han, PieceKind::General, e9), 15);
        // Inside the enemy palace: Cho on e9, Han on e2 (rank 9 - 8 = 1).
        let e9_sq = Square::new(4, 8).expect("on board");
        let e2_sq = Square::new(4, 1).expect("on board");
        assert_eq!(value(Color::Cho, PieceKind::Soldier, e9_sq), 55);
        assert_eq!(value(Color::Han, PieceKind::Soldier, e2_sq), 55);
        let e8 = Square::new(4, 7).expect("on board");
        let e3 = Square::new(4, 2).expect("on board");
        assert_eq!(value(Color::Cho, PieceKind::Soldier, e8), 45);
        assert_eq!(value(Color::Han, PieceKind::Soldier, e3), 45);
    }
}
