//! Precomputed geometry, built at compile time by `const fn`: palaces and
//! their drawn diagonals, general/guard steps, soldier steps, horse and
//! elephant jumps with their blocking points, and the chariot/cannon lines
//! (orthogonal rays plus the palace diagonal rays).

use crate::types::{Bitboard, Color, Square};

/// A short list of squares with its length, usable in `const` tables.
#[derive(Clone, Copy, Debug)]
pub struct SqList<const N: usize> {
    len: u8,
    sq: [Square; N],
}

impl<const N: usize> SqList<N> {
    const EMPTY: SqList<N> = SqList {
        len: 0,
        sq: [Square::ALL[0]; N],
    };

    const fn push(mut self, s: Square) -> Self {
        self.sq[self.len as usize] = s;
        self.len += 1;
        self
    }

    /// The squares, in order.
    #[inline]
    pub fn as_slice(&self) -> &[Square] {
        &self.sq[..self.len as usize]
    }

    /// Number of squares.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the list is empty.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
}

// The line tables (LINES, PALACE) are the tests' reference for rays.rs.
#[cfg(test)]
/// A ray: squares walked outward from a start square, nearest first.
pub(crate) type Ray = SqList<9>;

#[cfg(test)]
/// All rays a chariot or cannon can travel from one square: up to four
/// orthogonal rays and the palace diagonal rays (corner → centre → corner,
/// or centre → corner).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lines {
    len: u8,
    rays: [Ray; 8],
}

#[cfg(test)]
impl Lines {
    /// The non-empty rays.
    #[inline]
    pub(crate) fn rays(&self) -> &[Ray] {
        &self.rays[..self.len as usize]
    }
}

/// A horse jump: the leg (멱) that must be empty, and the destination.
#[derive(Clone, Copy, Debug)]
pub struct HorseJump {
    /// The orthogonally adjacent point that blocks the jump.
    pub leg: Square,
    /// Where the horse lands.
    pub dest: Square,
}

/// An elephant jump: both intermediate points must be empty.
#[derive(Clone, Copy, Debug)]
pub struct ElephantJump {
    /// First point (one step orthogonally).
    pub leg1: Square,
    /// Second point (one step diagonally beyond the first).
    pub leg2: Square,
    /// Where the elephant lands.
    pub dest: Square,
}

/// A list of horse jumps.
#[derive(Clone, Copy, Debug)]
pub struct HorseJumps {
    len: u8,
    j: [HorseJump; 8],
}

impl HorseJumps {
    /// The jumps.
    #[inline]
    pub fn as_slice(&self) -> &[HorseJump] {
        &self.j[..self.len as usize]
    }
}

/// A list of elephant jumps.
#[derive(Clone, Copy, Debug)]
pub struct ElephantJumps {
    len: u8,
    j: [ElephantJump; 8],
}

impl ElephantJumps {
    /// The jumps.
    #[inline]
    pub fn as_slice(&self) -> &[ElephantJump] {
        &self.j[..self.len as usize]
    }
}

const ORTHO: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

const fn sq(i: usize) -> Square {
    Square::ALL[i]
}

/// Whether `s` lies in either palace (궁성): files d–f, ranks 1–3 or 8–10.
pub(crate) const fn in_palace(s: Square) -> bool {
    let f = s.file();
    let r = s.rank();
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

/// Whether `s` lies in `color`'s own palace.
pub(crate) const fn in_own_palace(s: Square, color: Color) -> bool {
    in_palace(s)
        && match color {
            Color::Cho => s.rank() <= 2,
            Color::Han => s.rank() >= 7,
        }
}

/// Whether `s` is a palace centre (e2 or e9).
const fn is_palace_center(s: Square) -> bool {
    in_palace(s) && s.file() == 4 && (s.rank() == 1 || s.rank() == 8)
}

/// Whether `s` is a palace corner (the ends of the drawn diagonals).
const fn is_palace_corner(s: Square) -> bool {
    in_palace(s) && s.file() != 4 && s.rank() != 1 && s.rank() != 8
}

/// Whether `a` and `b` are neighbours along a drawn palace diagonal
/// (corner ↔ centre of the same palace).
pub(crate) const fn palace_diagonal_step(a: Square, b: Square) -> bool {
    let df = a.file() as i8 - b.file() as i8;
    let dr = a.rank() as i8 - b.rank() as i8;
    (df == 1 || df == -1)
        && (dr == 1 || dr == -1)
        && ((is_palace_center(a) && is_palace_corner(b))
            || (is_palace_corner(a) && is_palace_center(b)))
}

#[cfg(test)]
const fn build_palace() -> Bitboard {
    let mut b = 0u128;
    let mut i = 0;
    while i < 90 {
        if in_palace(sq(i)) {
            b |= 1 << i;
        }
        i += 1;
    }
    Bitboard(b)
}

#[cfg(test)]
/// Both palaces.
pub(crate) static PALACE: Bitboard = build_palace();

/// Steps of the general (궁) and guards (사): one point along the palace
/// lines — orthogonally anywhere inside the palace, diagonally only along
/// the drawn lines (never from a side midpoint). Empty outside the palaces.
pub static PALACE_STEPS: [SqList<8>; 90] = {
    let mut t = [SqList::<8>::EMPTY; 90];
    let mut i = 0;
    while i < 90 {
        let s = sq(i);
        if in_palace(s) {
            let mut d = 0;
            while d < 4 {
                if let Some(n) = s.offset(ORTHO[d].0, ORTHO[d].1) {
                    // Stay in the same palace: both palaces are far apart, so
                    // membership of either palace is enough.
                    if in_palace(n) {
                        t[i] = t[i].push(n);
                    }
                }
                if let Some(n) = s.offset(DIAG[d].0, DIAG[d].1) {
                    if palace_diagonal_step(s, n) {
                        t[i] = t[i].push(n);
                    }
                }
                d += 1;
            }
        }
        i += 1;
    }
    t
};

const fn build_soldier_steps(color: Color) -> [SqList<5>; 90] {
    let mut t = [SqList::<5>::EMPTY; 90];
    let fwd = color.forward();
    let mut i = 0;
    while i < 90 {
        let s = sq(i);
        if let Some(n) = s.offset(0, fwd) {
            t[i] = t[i].push(n);
        }
        if let Some(n) = s.offset(-1, 0) {
            t[i] = t[i].push(n);
        }
        if let Some(n) = s.offset(1, 0) {
            t[i] = t[i].push(n);
        }
        // Forward diagonals along the drawn lines, in the enemy palace only.
        if in_palace(s) && !in_own_palace(s, color) {
            let mut df = -1;
            while df <= 1 {
                if let Some(n) = s.offset(df, fwd) {
                    if palace_diagonal_step(s, n) {
                        t[i] = t[i].push(n);
                    }
                }
                df += 2;
            }
        }
        i += 1;
    }
    t
}

/// Soldier steps per color: forward or sideways one point, plus the forward
/// palace diagonals inside the enemy palace. Never backward.
pub static SOLDIER_STEPS: [[SqList<5>; 90]; 2] = [
    build_soldier_steps(Color::Cho),
    build_soldier_steps(Color::Han),
];

/// For each square, the squares a soldier of each color could step *from*
/// to reach it (the reverse of [`SOLDIER_STEPS`]).
pub(crate) static SOLDIER_SOURCES: [[SqList<5>; 90]; 2] = {
    let mut t = [[SqList::<5>::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < 90 {
            let steps = SOLDIER_STEPS[c][from];
            let mut k = 0;
            while k < steps.len as usize {
                let to = steps.sq[k].index();
                t[c][to] = t[c][to].push(sq(from));
                k += 1;
            }
            from += 1;
        }
        c += 1;
    }
    t
};

const fn build_horse() -> [HorseJumps; 90] {
    let empty = HorseJumps {
        len: 0,
        j: [HorseJump {
            leg: sq(0),
            dest: sq(0),
        }; 8],
    };
    let mut t = [empty; 90];
    let mut i = 0;
    while i < 90 {
        let s = sq(i);
        let mut d = 0;
        while d < 4 {
            let (dx, dy) = ORTHO[d];
            if let Some(leg) = s.offset(dx, dy) {
                let mut side = -1;
                while side <= 1 {
                    // perpendicular offset
                    let (px, py) = (dy * side, dx * side);
                    if let Some(dest) = leg.offset(dx + px, dy + py) {
                        let n = t[i].len as usize;
                        t[i].j[n] = HorseJump { leg, dest };
                        t[i].len += 1;
                    }
                    side += 2;
                }
            }
            d += 1;
        }
        i += 1;
    }
    t
}

/// Horse (마) jumps: one point orthogonally (the leg), then one diagonally
/// outward. Palace lines play no part.
pub static HORSE_JUMPS: [HorseJumps; 90] = build_horse();

/// For each target square, the horse jumps that *end* on it, given from the
/// horse's side: `dest` is the horse's square and `leg` the point that must
/// be empty for it to reach the target.
pub(crate) static HORSE_SOURCES: [HorseJumps; 90] = {
    let empty = HorseJumps {
        len: 0,
        j: [HorseJump {
            leg: sq(0),
            dest: sq(0),
        }; 8],
    };
    let mut t = [empty; 90];
    let mut from = 0;
    while from < 90 {
        let js = HORSE_JUMPS[from];
        let mut k = 0;
        while k < js.len as usize {
            let to = js.j[k].dest.index();
            let n = t[to].len as usize;
            t[to].j[n] = HorseJump {
                leg: js.j[k].leg,
                dest: sq(from),
            };
            t[to].len += 1;
            k += 1;
        }
        from += 1;
    }
    t
};

const fn build_elephant() -> [ElephantJumps; 90] {
    let empty = ElephantJumps {
        len: 0,
        j: [ElephantJump {
            leg1: sq(0),
            leg2: sq(0),
            dest: sq(0),
        }; 8],
    };
    let mut t = [empty; 90];
    let mut i = 0;
    while i < 90 {
        let s = sq(i);
        let mut d = 0;
        while d < 4 {
            let (dx, dy) = ORTHO[d];
            if let Some(leg1) = s.offset(dx, dy) {
                let mut side = -1;
                while side <= 1 {
                    let (px, py) = (dy * side, dx * side);
                    if let Some(leg2) = leg1.offset(dx + px, dy + py) {
                        if let Some(dest) = leg2.offset(dx + px, dy + py) {
                            let n = t[i].len as usize;
                            t[i].j[n] = ElephantJump { leg1, leg2, dest };
                            t[i].len += 1;
                        }
                    }
                    side += 2;
                }
            }
            d += 1;
        }
        i += 1;
    }
    t
}

/// Elephant (상) jumps: one point orthogonally, then two diagonally outward;
/// both intermediate points must be empty.
pub static ELEPHANT_JUMPS: [ElephantJumps; 90] = build_elephant();

/// For each target square, the elephant jumps ending on it, from the
/// elephant's side: `dest` is the elephant's square, `leg1`/`leg2` the
/// points (in the elephant's order) that must be empty.
pub(crate) static ELEPHANT_SOURCES: [ElephantJumps; 90] = {
    let empty = ElephantJumps {
        len: 0,
        j: [ElephantJump {
            leg1: sq(0),
            leg2: sq(0),
            dest: sq(0),
        }; 8],
    };
    let mut t = [empty; 90];
    let mut from = 0;
    while from < 90 {
        let js = ELEPHANT_JUMPS[from];
        let mut k = 0;
        while k < js.len as usize {
            let to = js.j[k].dest.index();
            let n = t[to].len as usize;
            t[to].j[n] = ElephantJump {
                leg1: js.j[k].leg1,
                leg2: js.j[k].leg2,
                dest: sq(from),
            };
            t[to].len += 1;
            k += 1;
        }
        from += 1;
    }
    t
};

#[cfg(test)]
const fn build_lines() -> [Lines; 90] {
    let empty = Lines {
        len: 0,
        rays: [Ray::EMPTY; 8],
    };
    let mut t = [empty; 90];
    let mut i = 0;
    while i < 90 {
        let s = sq(i);
        let mut d = 0;
        while d < 4 {
            let (dx, dy) = ORTHO[d];
            let mut ray = Ray::EMPTY;
            let mut cur = s;
            while let Some(n) = cur.offset(dx, dy) {
                ray = ray.push(n);
                cur = n;
            }
            if !ray.is_empty() {
                let n = t[i].len as usize;
                t[i].rays[n] = ray;
                t[i].len += 1;
            }
            d += 1;
        }
        // Palace diagonals: follow drawn lines while they continue straight.
        let mut d = 0;
        while d < 4 {
            let (dx, dy) = DIAG[d];
            let mut ray = Ray::EMPTY;
            let mut cur = s;
            while let Some(n) = cur.offset(dx, dy) {
                if !palace_diagonal_step(cur, n) {
                    break;
                }
                ray = ray.push(n);
                cur = n;
            }
            if !ray.is_empty() {
                let n = t[i].len as usize;
                t[i].rays[n] = ray;
                t[i].len += 1;
            }
            d += 1;
        }
        i += 1;
    }
    t
}

#[cfg(test)]
/// Chariot (차) and cannon (포) lines from every square.
pub(crate) static LINES: [Lines; 90] = build_lines();

/// Bitboard of each file (0..9).
pub static FILE_MASKS: [Bitboard; 9] = {
    let mut t = [Bitboard(0); 9];
    let mut i = 0;
    while i < 90 {
        t[i % 9].0 |= 1 << i;
        i += 1;
    }
    t
};

/// For two squares on one file, the squares strictly between them
/// (empty otherwise), from two lines of [`rays`](super::rays).
#[inline]
pub(crate) fn between_on_file(a: Square, b: Square) -> Bitboard {
    let (lo, hi) = if a.index() < b.index() {
        (a, b)
    } else {
        (b, a)
    };
    // The line up from the lower point and the line down from the higher
    // one meet only on a shared file, and there only between the two.
    super::rays::ray(lo, 0) & super::rays::ray(hi, 1)
}

/// Row of [`SOURCE_MASKS`]: horses.
pub(crate) const SRC_HORSE: usize = 0;
/// Row of [`SOURCE_MASKS`]: elephants.
pub(crate) const SRC_ELEPHANT: usize = 1;
/// Row of [`SOURCE_MASKS`]: Cho's soldiers (Han's are the next row).
pub(crate) const SRC_SOLDIER: usize = 2;
/// Row of [`SOURCE_MASKS`]: generals and guards.
pub(crate) const SRC_PALACE: usize = 4;

/// For each target point, the points a horse, an elephant, a Cho soldier,
/// a Han soldier, or a general or guard could attack it from (legs aside):
/// the sets of [`HORSE_SOURCES`], [`ELEPHANT_SOURCES`], [`SOLDIER_SOURCES`]
/// and [`PALACE_STEPS`] (palace steps are symmetric).
pub(crate) static SOURCE_MASKS: [[Bitboard; 90]; 5] = {
    let mut t = [[Bitboard(0); 90]; 5];
    let mut i = 0;
    while i < 90 {
        let h = HORSE_SOURCES[i];
        let mut k = 0;
        while k < h.len as usize {
            t[SRC_HORSE][i].0 |= 1 << h.j[k].dest.index();
            k += 1;
        }
        let e = ELEPHANT_SOURCES[i];
        let mut k = 0;
        while k < e.len as usize {
            t[SRC_ELEPHANT][i].0 |= 1 << e.j[k].dest.index();
            k += 1;
        }
        let mut c = 0;
        while c < 2 {
            let s = SOLDIER_SOURCES[c][i];
            let mut k = 0;
            while k < s.len as usize {
                t[SRC_SOLDIER + c][i].0 |= 1 << s.sq[k].index();
                k += 1;
            }
            c += 1;
        }
        let p = PALACE_STEPS[i];
        let mut k = 0;
        while k < p.len as usize {
            t[SRC_PALACE][i].0 |= 1 << p.sq[k].index();
            k += 1;
        }
        i += 1;
    }
    t
};

/// `CHECK_ZONE[k][s]`: whether a move must start or end on `s` to give
/// check to a general on `k` that is not attacked before it. A check after
/// the move comes either from the moved piece (it lands on a line through
/// `k`, or where a horse or an elephant attacks `k` from; a soldier's
/// points lie on those lines) or from a piece that did not move, whose
/// attack only the two points of the move can have changed: a chariot's or
/// cannon's line through `k` opened, a cannon's screen made or taken away
/// (a point on a line through `k`), or a horse's or elephant's leg left (a
/// leg point of a jump onto `k`). Generals and guards never attack the
/// other general.
pub(crate) static CHECK_ZONE: [[bool; 90]; 90] = {
    // One byte per point: a load, where a 128-bit set's variable shift
    // costs a branch and several instructions.
    let mut t = [[false; 90]; 90];
    let mut i = 0;
    while i < 90 {
        let mut z = super::rays::ALL_LINES[i].0
            | SOURCE_MASKS[SRC_HORSE][i].0
            | SOURCE_MASKS[SRC_ELEPHANT][i].0;
        let h = HORSE_SOURCES[i];
        let mut k = 0;
        while k < h.len as usize {
            z |= 1 << h.j[k].leg.index();
            k += 1;
        }
        let e = ELEPHANT_SOURCES[i];
        let mut k = 0;
        while k < e.len as usize {
            z |= 1 << e.j[k].leg1.index();
            z |= 1 << e.j[k].leg2.index();
            k += 1;
        }
        let mut s = 0;
        while s < 90 {
            t[i][s] = z >> s & 1 != 0;
            s += 1;
        }
        i += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    fn s(t: &str) -> Square {
        Square::parse_uci(t).unwrap()
    }

    fn names(l: &[Square]) -> Vec<String> {
        let mut v: Vec<String> = l.iter().map(|q| q.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn palace_has_18_points() {
        assert_eq!(PALACE.count(), 18);
    }

    #[test]
    fn general_steps_follow_drawn_lines() {
        // centre: all 8
        assert_eq!(PALACE_STEPS[s("e2").index()].len(), 8);
        // corner: 2 orthogonal + centre
        assert_eq!(
            names(PALACE_STEPS[s("d1").index()].as_slice()),
            ["d2", "e1", "e2"]
        );
        // side midpoint: no diagonals
        assert_eq!(
            names(PALACE_STEPS[s("e1").index()].as_slice()),
            ["d1", "e2", "f1"]
        );
        assert_eq!(
            names(PALACE_STEPS[s("d2").index()].as_slice()),
            ["d1", "d3", "e2"]
        );
        assert_eq!(
            names(PALACE_STEPS[s("e10").index()].as_slice()),
            ["d10", "e9", "f10"]
        );
        assert!(PALACE_STEPS[s("c2").index()].is_empty());
    }

    #[test]
    fn soldier_steps() {
        assert_eq!(
            names(SOLDIER_STEPS[0][s("e4").index()].as_slice()),
            ["d4", "e5", "f4"]
        );
        assert_eq!(
            names(SOLDIER_STEPS[1][s("e7").index()].as_slice()),
            ["d7", "e6", "f7"]
        );
        // Cho in Han's palace: diagonals forward along the lines
        assert_eq!(
            names(SOLDIER_STEPS[0][s("d8").index()].as_slice()),
            ["c8", "d9", "e8", "e9"]
        );
        assert_eq!(
            names(SOLDIER_STEPS[0][s("e9").index()].as_slice()),
            ["d10", "d9", "e10", "f10", "f9"]
        );
        assert_eq!(
            names(SOLDIER_STEPS[0][s("e8").index()].as_slice()),
            ["d8", "e9", "f8"]
        );
        assert_eq!(
            names(SOLDIER_STEPS[0][s("e10").index()].as_slice()),
            ["d10", "f10"]
        );
        // Cho in its own palace: no diagonals
        assert_eq!(
            names(SOLDIER_STEPS[0][s("d1").index()].as_slice()),
            ["c1", "d2", "e1"]
        );
        assert_eq!(
            names(SOLDIER_STEPS[0][s("e2").index()].as_slice()),
            ["d2", "e3", "f2"]
        );
        // Han in Cho's palace
        assert_eq!(
            names(SOLDIER_STEPS[1][s("f3").index()].as_slice()),
            ["e2", "e3", "f2", "g3"]
        );
        assert_eq!(
            names(SOLDIER_STEPS[1][s("e2").index()].as_slice()),
            ["d1", "d2", "e1", "f1", "f2"]
        );
    }

    #[test]
    fn horse_and_elephant_jumps() {
        let e5 = HORSE_JUMPS[s("e5").index()];
        assert_eq!(e5.as_slice().len(), 8);
        let a1 = HORSE_JUMPS[s("a1").index()];
        assert_eq!(
            names(&a1.as_slice().iter().map(|j| j.dest).collect::<Vec<_>>()),
            ["b3", "c2"]
        );
        let up = ELEPHANT_JUMPS[s("e1").index()]
            .as_slice()
            .iter()
            .find(|j| j.dest == s("g4"))
            .copied()
            .unwrap();
        assert_eq!((up.leg1, up.leg2), (s("e2"), s("f3")));
        assert_eq!(ELEPHANT_JUMPS[s("e5").index()].as_slice().len(), 8);
        for t in Square::ALL {
            for j in HORSE_SOURCES[t.index()].as_slice() {
                assert!(HORSE_JUMPS[j.dest.index()]
                    .as_slice()
                    .iter()
                    .any(|k| k.dest == t && k.leg == j.leg));
            }
        }
    }

    #[test]
    fn lines_include_palace_diagonals() {
        let d1 = LINES[s("d1").index()];
        let diag: Vec<_> = d1
            .rays()
            .iter()
            .filter(|r| r.as_slice()[0] == s("e2"))
            .collect();
        assert_eq!(diag.len(), 1);
        assert_eq!(names(diag[0].as_slice()), ["e2", "f3"]);
        let e2 = LINES[s("e2").index()];
        assert_eq!(e2.rays().len(), 8);
        // side midpoint: orthogonal only
        assert_eq!(LINES[s("e1").index()].rays().len(), 3);
        assert_eq!(LINES[s("d2").index()].rays().len(), 4);
        assert_eq!(LINES[s("f10").index()].rays().len(), 4);
    }

    #[test]
    fn between() {
        assert_eq!(between_on_file(s("e2"), s("e10")).count(), 7);
        assert_eq!(between_on_file(s("e10"), s("e2")).count(), 7);
        assert_eq!(between_on_file(s("e2"), s("e3")).count(), 0);
        assert!(between_on_file(s("e2"), s("d5")).is_empty());
    }
}
