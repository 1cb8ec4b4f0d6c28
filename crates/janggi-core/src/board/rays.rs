//! Line attacks by first-blocker lookup: the chariot's and the cannon's
//! reach along files, ranks and palace diagonals without walking the line
//! point by point.
//!
//! A line from a point in one of eight directions is a bitboard
//! ([`ray`]). The first occupied point on it is its lowest set bit when the
//! direction runs towards higher indices (up, right, and the two upward
//! diagonals) and its highest set bit otherwise. Everything beyond a point
//! `b` on the line is `ray(b, dir)`, because lines are straight: the palace
//! diagonals continue from corner through centre to corner. So the points
//! up to and including the first blocker are `ray(s, d) ^ ray(b, d)`.
//!
//! The directions are [`LINES`](super::tables::LINES)'s order (four
//! orthogonal, then four diagonal), and a walk over the directions in
//! index order with the points of each in [`outward`] order visits the
//! points in exactly the order of `LINES[s].rays()`, so that move
//! generation built on these sets lists moves in the same order.

use crate::types::{Bitboard, Square};

/// Number of directions (four orthogonal, four palace diagonals).
pub const DIRS: usize = 8;

/// (file step, rank step) of each direction, orthogonal first.
const STEPS: [(i8, i8); DIRS] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// Whether the direction runs towards higher point indices.
const UPWARD: [bool; DIRS] = {
    let mut t = [false; DIRS];
    let mut d = 0;
    while d < DIRS {
        t[d] = STEPS[d].1 > 0 || (STEPS[d].1 == 0 && STEPS[d].0 > 0);
        d += 1;
    }
    t
};

/// `RAYS[s][d]`: the points of the line from `s` in direction `d`, `s`
/// itself excluded (empty when there is none; diagonals only along the
/// palace's drawn lines).
static RAYS: [[Bitboard; DIRS]; 90] = {
    let mut t = [[Bitboard::EMPTY; DIRS]; 90];
    let mut i = 0;
    while i < 90 {
        let s = Square::ALL[i];
        let mut d = 0;
        while d < DIRS {
            let (df, dr) = STEPS[d];
            let mut cur = s;
            while let Some(n) = cur.offset(df, dr) {
                if d >= 4 && !super::tables::palace_diagonal_step(cur, n) {
                    break;
                }
                t[i][d] = t[i][d].with(n);
                cur = n;
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// All lines from each point, as one set.
pub(crate) static ALL_LINES: [Bitboard; 90] = {
    let mut t = [Bitboard::EMPTY; 90];
    let mut i = 0;
    while i < 90 {
        let mut d = 0;
        while d < DIRS {
            t[i].0 |= RAYS[i][d].0;
            d += 1;
        }
        i += 1;
    }
    t
};

/// The points on any line from `s` (`s` excluded).
#[inline(always)]
pub(crate) fn all_lines(s: Square) -> Bitboard {
    ALL_LINES[s.index()]
}

/// The line from `s` in direction `d` (`s` excluded).
#[inline(always)]
pub(crate) fn ray(s: Square, d: usize) -> Bitboard {
    RAYS[s.index()][d]
}

/// The point of the non-empty set `b` nearest to the start of a line in
/// direction `d`.
#[inline(always)]
fn nearest(b: Bitboard, d: usize) -> Square {
    let i = if UPWARD[d] {
        b.0.trailing_zeros()
    } else {
        127 - b.0.leading_zeros()
    };
    Square::from_index_unchecked(i as u8)
}

/// The first occupied point on the line from `s` in direction `d`.
#[inline(always)]
pub fn first_blocker(s: Square, d: usize, occ: Bitboard) -> Option<Square> {
    let b = ray(s, d) & occ;
    if b.is_empty() {
        None
    } else {
        Some(nearest(b, d))
    }
}

/// The points of the line from `s` in direction `d` up to and including
/// the first occupied one.
#[inline(always)]
pub(crate) fn segment(s: Square, d: usize, occ: Bitboard) -> Bitboard {
    let r = ray(s, d);
    match first_blocker(s, d, occ) {
        None => r,
        Some(b) => r ^ ray(b, d),
    }
}

/// Points a chariot on `from` attacks: along its lines up to and including
/// the first occupied point.
#[inline(always)]
pub fn chariot_attacks(from: Square, occ: Bitboard) -> Bitboard {
    let mut a = Bitboard::EMPTY;
    for d in 0..DIRS {
        a |= segment(from, d, occ);
    }
    a
}

/// The cannon's screen (포다리) on the line from `from` in direction `d`:
/// the first occupied point, when it holds no cannon ("a cannon may not
/// jump over a cannon").
#[inline(always)]
pub(crate) fn cannon_screen(
    from: Square,
    d: usize,
    occ: Bitboard,
    cannons: Bitboard,
) -> Option<Square> {
    first_blocker(from, d, occ).filter(|&s| !cannons.contains(s))
}

/// Points a cannon on `from` attacks (beyond a screen that is not a
/// cannon, up to and including the next occupied point), and whether it
/// has such a screen on any line. Whether a cannon may capture what
/// stands on an attacked point is the caller's business.
#[inline(always)]
pub fn cannon_attacks(from: Square, occ: Bitboard, cannons: Bitboard) -> (Bitboard, bool) {
    let mut a = Bitboard::EMPTY;
    let mut screened = false;
    for d in 0..DIRS {
        if let Some(screen) = cannon_screen(from, d, occ, cannons) {
            screened = true;
            a |= segment(screen, d, occ);
        }
    }
    (a, screened)
}

/// The points of `b`, all on one line from some point in direction `d`,
/// nearest to that point first.
#[inline(always)]
pub(crate) fn outward(b: Bitboard, d: usize) -> Outward {
    Outward { bits: b.0, d }
}

/// Iterator of [`outward`].
pub(crate) struct Outward {
    bits: u128,
    d: usize,
}

impl Iterator for Outward {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.bits == 0 {
            return None;
        }
        let s = nearest(Bitboard(self.bits), self.d);
        self.bits &= !(1u128 << s.index());
        Some(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::tables::LINES;

    /// The directions' lines, in outward order, are `LINES`'s rays.
    #[test]
    fn rays_match_lines_in_order() {
        for s in Square::ALL {
            let mine: Vec<Vec<Square>> = (0..DIRS)
                .filter(|&d| !ray(s, d).is_empty())
                .map(|d| outward(ray(s, d), d).collect())
                .collect();
            let theirs: Vec<Vec<Square>> = LINES[s.index()]
                .rays()
                .iter()
                .map(|r| r.as_slice().to_vec())
                .collect();
            assert_eq!(mine, theirs, "{}", s.uci().as_str());
        }
    }

    /// Segments agree with a walk along the line, on random occupancies
    /// (about one point in four occupied).
    #[test]
    fn segments_match_a_walk() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            u128::from(seed >> 32) << 96 | u128::from(seed) << 48 ^ u128::from(seed >> 16)
        };
        for _ in 0..2000 {
            let occ = Bitboard(next() & next() & ((1 << 90) - 1));
            for s in Square::ALL {
                let lines = LINES[s.index()].rays();
                for (k, d) in (0..DIRS).filter(|&d| !ray(s, d).is_empty()).enumerate() {
                    let mut want = Bitboard::EMPTY;
                    for &t in lines[k].as_slice() {
                        want = want.with(t);
                        if occ.contains(t) {
                            break;
                        }
                    }
                    assert_eq!(segment(s, d, occ), want);
                }
            }
        }
    }
}
