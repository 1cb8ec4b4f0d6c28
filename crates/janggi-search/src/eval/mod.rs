//! Static evaluation (형세 판단).
//!
//! Terms, each computed for both sides from that side's own point of view:
//!
//! * **material** — tapered piece values ([`material`]);
//! * **pst** — piece-square tables for all seven kinds ([`pst`]), drawn
//!   from Cho's side and mirrored top to bottom for Han;
//! * **mobility** — cheap reach counts: chariot lines, cannon lines that
//!   have a screen, horse and elephant jumps whose legs are free;
//! * **palace** — attackers near the enemy palace and missing enemy
//!   guards, enemy palace points (궁성 자리) reached by own chariots,
//!   cannons and horses, and the king attack: attack units of every piece
//!   that reaches the enemy palace, weighted by how many pieces take part
//!   (one attacker is rarely a threat, four usually are);
//! * **soldiers** — soldier structure: soldiers side by side (they guard
//!   each other, 졸 연결), doubled on a file, blocked by an own piece, and
//!   soldiers inside the enemy palace;
//! * **exposure** — the own general's safety: enemy chariots on a line
//!   through it with at most one piece between, enemy cannons with one or
//!   two pieces between (one move from a screen), missing own guards;
//! * **count** — counting awareness (판정): the side ahead on counting
//!   points (chariot 13, cannon 7, horse 5, elephant 3, guard 3, soldier 2;
//!   Han +1.5 deom, 덤) gets a bonus that grows as the phase falls, since a
//!   game with little material left is likely to end by the count (bikjang,
//!   move limit, two passes). The deom makes this term colour-asymmetric.
//!
//! The evaluation is linear in the [`weights`]: [`features`] gives the
//! coefficient of every weight for a position, and
//! `Σ coefficient · weight` equals [`evaluate_cho`] up to integer rounding.
//! The hot path uses the `const` [`weights::DEFAULT`].
//!
//! [`evaluate`] returns centipawns from the side to move's point of view;
//! [`explain`] returns the same number term by term for the protocol's
//! `eval` command. Evaluation never allocates (only [`explain`] and
//! [`features`] do).

pub mod material;
pub mod pst;
pub mod tuned;
pub mod weights;

use janggi_core::{
    search_support::{
        cannon_attacks, chariot_attacks, first_blocker, DIRS, ELEPHANT_JUMPS, FILE_MASKS,
        HORSE_JUMPS, PALACE_STEPS, SOLDIER_STEPS,
    },
    Bitboard, ByColor, Color, PieceKind, Position, Square,
};
use material::PHASE_MAX;
use weights::{Taper, Weights, DEFAULT};

/// Bonus for the side to move.
pub const TEMPO: i32 = 10;

/// One evaluation term for both sides (centipawns, each from its own side's
/// point of view; the term's contribution to Cho's score is `cho - han`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    /// Term name (`material`, `pst`, …).
    pub name: &'static str,
    /// Cho's part.
    pub cho: i32,
    /// Han's part.
    pub han: i32,
}

/// The terms, in [`explain`] order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TermId {
    Material,
    Pst,
    Mobility,
    Palace,
    Soldiers,
    Exposure,
    Count,
    Threats,
}

/// Term names, indexed by [`TermId`].
const TERM_NAMES: [&str; 8] = [
    "material", "pst", "mobility", "palace", "soldiers", "exposure", "count", "threats",
];

/// Receives feature counts: `n` units of weight `idx` for `color`.
trait Sink {
    fn add(&mut self, term: TermId, color: Color, idx: usize, taper: Taper, n: i32);
}

/// Sums of weighted counts per taper class (mg, eg, flat).
type Acc = [i32; 3];

/// Blends an accumulator by `phase`.
#[inline]
fn blend(a: Acc, phase: i32) -> i32 {
    (a[0] * phase + a[1] * (PHASE_MAX - phase)) / PHASE_MAX + a[2]
}

/// The evaluation sink: weighted sums per side.
struct ScoreSink<'a> {
    w: &'a Weights,
    acc: ByColor<Acc>,
}

impl Sink for ScoreSink<'_> {
    #[inline(always)]
    fn add(&mut self, _term: TermId, color: Color, idx: usize, taper: Taper, n: i32) {
        self.acc[color][taper as usize] += self.w.0[idx] * n;
    }
}

/// The `explain` sink: weighted sums per term and side.
struct TermSink<'a> {
    w: &'a Weights,
    acc: [ByColor<Acc>; 8],
}

impl Sink for TermSink<'_> {
    fn add(&mut self, term: TermId, color: Color, idx: usize, taper: Taper, n: i32) {
        self.acc[term as usize][color][taper as usize] += self.w.0[idx] * n;
    }
}

/// The feature sink: coefficients from Cho's point of view, phase applied
/// with the taper class the weight layout declares.
struct FeatureSink {
    coef: Vec<f64>,
    mg: f64,
}

impl Sink for FeatureSink {
    fn add(&mut self, _term: TermId, color: Color, idx: usize, _taper: Taper, n: i32) {
        let sign = match color {
            Color::Cho => 1.0,
            Color::Han => -1.0,
        };
        let scale = match weights::taper(idx) {
            Taper::Mg => self.mg,
            Taper::Eg => 1.0 - self.mg,
            Taper::Flat => 1.0,
        };
        self.coef[idx] += sign * scale * f64::from(n);
    }
}

/// A palace's nine points.
const fn palace_points(lo_rank: u8) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    let mut r = lo_rank;
    while r < lo_rank + 3 {
        let mut f = 3;
        while f <= 5 {
            if let Some(s) = Square::new(f, r) {
                b = b.with(s);
            }
            f += 1;
        }
        r += 1;
    }
    b
}

/// Palace points by color.
const PALACES: ByColor<Bitboard> = ByColor([palace_points(0), palace_points(7)]);

/// The palace zone of a side: its 3×3 palace plus the rank in front.
const PALACE_ZONES: ByColor<Bitboard> = ByColor([
    Bitboard(palace_points(0).0 | palace_points(1).0),
    Bitboard(palace_points(7).0 | palace_points(6).0),
]);

/// Attack units of the pieces of one side that reach points of the enemy
/// palace (궁성 공격): each such piece adds its kind's unit plus the number
/// of palace points it reaches. The weight per unit depends on how many
/// pieces take part ([`KING_ATTACK_BUCKETS`]): one attacker is rarely a
/// threat, three or four together usually are.
#[derive(Default)]
struct KingAttack {
    attackers: i32,
    units: i32,
}

/// Units per attacking piece, by kind.
const KING_UNIT_CHARIOT: i32 = 4;
const KING_UNIT_CANNON: i32 = 3;
const KING_UNIT_HORSE: i32 = 2;
const KING_UNIT_ELEPHANT: i32 = 1;
const KING_UNIT_SOLDIER: i32 = 2;

impl KingAttack {
    /// A piece of unit `unit` reaching `hits` enemy palace points.
    #[inline(always)]
    fn piece(&mut self, unit: i32, hits: i32) {
        if hits > 0 {
            self.attackers += 1;
            self.units += unit + hits;
        }
    }
}

/// One piece's entry in the mobility tables: `table` 0..4 (chariot,
/// cannon, horse, elephant), `count` the points it reaches.
#[inline(always)]
fn mob_table<S: Sink>(sink: &mut S, color: Color, table: usize, count: i32) {
    use weights::{MOB_TABLE, MOB_TABLE_LEN, MOB_TABLE_OFFSET};
    let c = (count.max(0) as usize).min(MOB_TABLE_LEN[table] - 1);
    let i = MOB_TABLE + 2 * (MOB_TABLE_OFFSET[table] + c);
    sink.add(TermId::Mobility, color, i, Taper::Mg, 1);
    sink.add(TermId::Mobility, color, i + 1, Taper::Eg, 1);
}

/// Points a horse on `from` attacks (legs free).
#[inline(always)]
fn horse_attacks(from: Square, occ: Bitboard) -> Bitboard {
    HORSE_JUMPS[from.index()]
        .as_slice()
        .iter()
        .filter(|j| !occ.contains(j.leg))
        .fold(Bitboard::EMPTY, |a, j| a.with(j.dest))
}

/// Points an elephant on `from` attacks (both legs free).
#[inline(always)]
fn elephant_attacks(from: Square, occ: Bitboard) -> Bitboard {
    ELEPHANT_JUMPS[from.index()]
        .as_slice()
        .iter()
        .filter(|j| !occ.contains(j.leg1) && !occ.contains(j.leg2))
        .fold(Bitboard::EMPTY, |a, j| a.with(j.dest))
}

/// Points in a list, as a set.
#[inline(always)]
fn point_set(points: &[Square]) -> Bitboard {
    points.iter().fold(Bitboard::EMPTY, |a, &s| a.with(s))
}

/// Mobility, palace pressure and the king attack of `color`; fills `map`
/// with the points its pieces attack, by kind (see [`attack_maps`]).
#[inline(always)]
fn mobility<S: Sink>(pos: &Position, color: Color, sink: &mut S, map: &mut [Bitboard; 7]) {
    use weights::*;
    let occ = pos.occupied();
    let own = pos.color_bb(color);
    let free = !own;
    let enemy_palace = PALACES[!color];
    let mut pressure = 0;
    let mut attack = KingAttack::default();
    let mut n = 0;
    for from in pos.pieces(color, PieceKind::Chariot) {
        let a = chariot_attacks(from, occ);
        map[PieceKind::Chariot.index()] |= a;
        let reach = a & free;
        let hits = (reach & enemy_palace).count() as i32;
        pressure += hits;
        let moves = reach.count() as i32;
        n += moves;
        attack.piece(KING_UNIT_CHARIOT, hits);
        mob_table(sink, color, 0, moves);
    }
    sink.add(TermId::Mobility, color, MOB_CHARIOT, Taper::Flat, n);
    let cannons = pos.kind_bb(PieceKind::Cannon);
    let mut n = 0;
    let mut unscreened = 0;
    for from in pos.pieces(color, PieceKind::Cannon) {
        let (a, screened) = cannon_attacks(from, occ, cannons);
        map[PieceKind::Cannon.index()] |= a;
        // "A cannon may not capture a cannon."
        let reach = a & free & !cannons;
        let hits = (reach & enemy_palace).count() as i32;
        pressure += hits;
        let moves = reach.count() as i32;
        n += moves;
        unscreened += i32::from(!screened);
        attack.piece(KING_UNIT_CANNON, hits);
        mob_table(sink, color, 1, moves);
    }
    sink.add(TermId::Mobility, color, MOB_CANNON, Taper::Flat, n);
    sink.add(
        TermId::Mobility,
        color,
        CANNON_NO_SCREEN,
        Taper::Flat,
        unscreened,
    );
    let mut n = 0;
    for from in pos.pieces(color, PieceKind::Horse) {
        let a = horse_attacks(from, occ);
        map[PieceKind::Horse.index()] |= a;
        let reach = a & free;
        let hits = (reach & enemy_palace).count() as i32;
        pressure += hits;
        let moves = reach.count() as i32;
        n += moves - 3;
        attack.piece(KING_UNIT_HORSE, hits);
        mob_table(sink, color, 2, moves);
    }
    sink.add(TermId::Mobility, color, MOB_HORSE, Taper::Flat, n);
    let mut n = 0;
    for from in pos.pieces(color, PieceKind::Elephant) {
        let a = elephant_attacks(from, occ);
        map[PieceKind::Elephant.index()] |= a;
        let reach = a & free;
        let moves = reach.count() as i32;
        n += moves - 2;
        attack.piece(KING_UNIT_ELEPHANT, (reach & enemy_palace).count() as i32);
        mob_table(sink, color, 3, moves);
    }
    sink.add(TermId::Mobility, color, MOB_ELEPHANT, Taper::Flat, n);
    for from in pos.pieces(color, PieceKind::Soldier) {
        let a = point_set(SOLDIER_STEPS[color.index()][from.index()].as_slice());
        map[PieceKind::Soldier.index()] |= a;
        attack.piece(KING_UNIT_SOLDIER, (a & free & enemy_palace).count() as i32);
    }
    for kind in [PieceKind::General, PieceKind::Guard] {
        for from in pos.pieces(color, kind) {
            map[kind.index()] |= point_set(PALACE_STEPS[from.index()].as_slice());
        }
    }
    if attack.attackers > 0 {
        let bucket = KING_ATTACK + 2 * (attack.attackers.min(KING_ATTACK_BUCKETS) - 1) as usize;
        add_pair(sink, TermId::Palace, color, bucket, attack.units);
    }
    sink.add(TermId::Palace, color, PALACE_PRESSURE, Taper::Mg, pressure);
    sink.add(
        TermId::Palace,
        color,
        PALACE_PRESSURE + 1,
        Taper::Eg,
        pressure,
    );
}

#[inline(always)]
fn palace<S: Sink>(pos: &Position, color: Color, sink: &mut S) {
    use weights::*;
    let them = !color;
    let attackers = (pos.pieces(color, PieceKind::Chariot)
        | pos.pieces(color, PieceKind::Cannon)
        | pos.pieces(color, PieceKind::Horse)
        | pos.pieces(color, PieceKind::Soldier))
        & PALACE_ZONES[them];
    let missing = 2 - (pos.pieces(them, PieceKind::Guard).count() as i32).min(2);
    let a = attackers.count() as i32;
    sink.add(TermId::Palace, color, PALACE_ATTACKER, Taper::Flat, a);
    sink.add(
        TermId::Palace,
        color,
        PALACE_ATTACKER_MISSING,
        Taper::Flat,
        a * missing,
    );
}

/// Adds a mg/eg pair of weights starting at `idx`.
#[inline(always)]
fn add_pair<S: Sink>(sink: &mut S, term: TermId, color: Color, idx: usize, n: i32) {
    sink.add(term, color, idx, Taper::Mg, n);
    sink.add(term, color, idx + 1, Taper::Eg, n);
}

/// Every point except file i (a soldier there has no right neighbour).
const NOT_FILE_I: u128 = {
    let mut b = 0u128;
    let mut i = 0;
    while i < 90 {
        if i % 9 != 8 {
            b |= 1 << i;
        }
        i += 1;
    }
    b
};

#[inline(always)]
fn soldiers<S: Sink>(pos: &Position, color: Color, sink: &mut S) {
    use weights::*;
    // Bit arithmetic on the square index `rank * 9 + file`: the point to
    // the right is one bit up, the point in front nine bits up (Cho) or
    // down (Han).
    let own = pos.color_bb(color).0;
    let sol = pos.pieces(color, PieceKind::Soldier).0;
    let pairs = (sol & (sol >> 1) & NOT_FILE_I).count_ones() as i32;
    let ahead = match color {
        Color::Cho => own >> 9,
        Color::Han => own << 9,
    };
    let blocked = (sol & ahead).count_ones() as i32;
    let in_palace = (sol & PALACES[!color].0).count_ones() as i32;
    let mut doubled = 0;
    for mask in FILE_MASKS {
        doubled += ((sol & mask.0).count_ones() as i32 - 1).max(0);
    }
    add_pair(sink, TermId::Soldiers, color, SOLDIER_PAIR, pairs);
    add_pair(sink, TermId::Soldiers, color, SOLDIER_DOUBLED, doubled);
    add_pair(sink, TermId::Soldiers, color, SOLDIER_BLOCKED, blocked);
    add_pair(sink, TermId::Soldiers, color, SOLDIER_IN_PALACE, in_palace);
}

#[inline(always)]
fn exposure<S: Sink>(pos: &Position, color: Color, sink: &mut S) {
    use weights::*;
    let them = !color;
    let occ = pos.occupied();
    let chariots = pos.pieces(them, PieceKind::Chariot);
    let cannons = pos.pieces(them, PieceKind::Cannon);
    let g = pos.general(color);
    let mut by_chariot = 0;
    let mut by_cannon = 0;
    // The first three pieces on each line through the general: a chariot
    // among the first two, a cannon second or third.
    for d in 0..DIRS {
        let Some(b1) = first_blocker(g, d, occ) else {
            continue;
        };
        by_chariot += i32::from(chariots.contains(b1));
        let Some(b2) = first_blocker(b1, d, occ) else {
            continue;
        };
        by_chariot += i32::from(chariots.contains(b2));
        by_cannon += i32::from(cannons.contains(b2));
        if let Some(b3) = first_blocker(b2, d, occ) {
            by_cannon += i32::from(cannons.contains(b3));
        }
    }
    let missing = 2 - (pos.pieces(color, PieceKind::Guard).count() as i32).min(2);
    add_pair(sink, TermId::Exposure, color, EXPOSED_CHARIOT, by_chariot);
    add_pair(sink, TermId::Exposure, color, EXPOSED_CANNON, by_cannon);
    add_pair(sink, TermId::Exposure, color, MISSING_GUARD, missing);
}

/// Deom (덤) in half points: Han's compensation for moving second.
const DEOM_HALVES: i32 = 3;

#[inline(always)]
fn count<S: Sink>(points: ByColor<i32>, sink: &mut S) {
    use weights::*;
    let cho = 2 * points[Color::Cho];
    let han = 2 * points[Color::Han] + DEOM_HALVES;
    let (leader, margin) = if cho > han {
        (Color::Cho, cho - han)
    } else {
        (Color::Han, han - cho)
    };
    sink.add(TermId::Count, leader, COUNT_LEAD, Taper::Eg, 1);
    sink.add(
        TermId::Count,
        leader,
        COUNT_MARGIN,
        Taper::Eg,
        margin.min(COUNT_MARGIN_CAP),
    );
}

/// Points each side's pieces attack, by attacking kind (`ByKind` order):
/// a point is in `map[c][k]` when a piece of kind `k` and color `c` could
/// capture there if an enemy piece stood on it, pins and the cannon's
/// target rule aside (the cannon map includes points holding a cannon).
/// The same relation as [`Position::attackers_to`], built in one pass over
/// the pieces instead of one search per target.
#[cfg(test)]
pub(crate) fn attack_maps(pos: &Position) -> ByColor<[Bitboard; 7]> {
    // The evaluation fills the maps as a by-product of mobility.
    struct Nothing;
    impl Sink for Nothing {
        fn add(&mut self, _: TermId, _: Color, _: usize, _: Taper, _: i32) {}
    }
    let mut maps = ByColor([[Bitboard::EMPTY; 7]; 2]);
    for c in Color::BOTH {
        mobility(pos, c, &mut Nothing, &mut maps[c]);
    }
    maps
}

/// Pieces of the side to move that the opponent threatens: attacked and
/// undefended, or attacked by a piece worth less. (The opponent's hanging
/// pieces need no term: the side to move takes them, in the quiescence
/// search.)
#[inline(always)]
fn threats<S: Sink>(pos: &Position, sink: &mut S, maps: &ByColor<[Bitboard; 7]>) {
    use weights::*;
    let us = pos.side_to_move();
    let union = |m: &[Bitboard; 7]| m.iter().fold(Bitboard::EMPTY, |a, &b| a | b);
    let defended = union(&maps[us]);
    let attacked = union(&maps[!us]);
    let mut threatened = 0;
    for sq in pos.color_bb(us) & attacked {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        if piece.kind == PieceKind::General {
            continue;
        }
        let value = material::piece_value(piece.kind);
        // By enemy kind; "a cannon may not capture a cannon".
        let by = |k: PieceKind| {
            maps[!us][k.index()].contains(sq)
                && !(k == PieceKind::Cannon && piece.kind == PieceKind::Cannon)
        };
        if !PieceKind::ALL.into_iter().any(by) {
            continue;
        }
        let k = piece.kind.index();
        if !defended.contains(sq) {
            sink.add(TermId::Threats, us, THREAT_HANGING + k, Taper::Flat, 1);
            threatened += 1;
        } else if PieceKind::ALL
            .into_iter()
            .any(|e| by(e) && material::piece_value(e) < value)
        {
            sink.add(TermId::Threats, us, THREAT_LESSER + k, Taper::Flat, 1);
            threatened += 1;
        }
    }
    if threatened >= 2 {
        sink.add(TermId::Threats, us, THREAT_MULTI, Taper::Flat, 1);
    }
}

/// Feeds every feature of `pos` into `sink`.
#[inline(always)]
fn collect<S: Sink>(pos: &Position, sink: &mut S) {
    use weights::*;
    let mut points = ByColor([0; 2]);
    let mut maps = ByColor([[Bitboard::EMPTY; 7]; 2]);
    for c in Color::BOTH {
        for k in PieceKind::ALL {
            let n = pos.pieces(c, k).count() as i32;
            points[c] += k.points() as i32 * n;
            sink.add(TermId::Material, c, MAT_MG + k.index(), Taper::Mg, n);
            sink.add(TermId::Material, c, MAT_EG + k.index(), Taper::Eg, n);
        }
        for sq in pos.color_bb(c) {
            if let Some(piece) = pos.piece_at(sq) {
                let i = pst::index(c, piece.kind, sq);
                sink.add(TermId::Pst, c, PST + i, Taper::Mg, 1);
                sink.add(TermId::Pst, c, PST_EG + i, Taper::Eg, 1);
            }
        }
        mobility(pos, c, sink, &mut maps[c]);
        palace(pos, c, sink);
        soldiers(pos, c, sink);
        exposure(pos, c, sink);
    }
    count(points, sink);
    threats(pos, sink, &maps);
}

/// The evaluation from Cho's point of view with weights `w`, without tempo.
#[inline(always)]
pub fn evaluate_cho_with(pos: &Position, w: &Weights) -> i32 {
    let mut sink = ScoreSink {
        w,
        acc: ByColor([[0; 3]; 2]),
    };
    collect(pos, &mut sink);
    let phase = material::phase(pos);
    blend(sink.acc[Color::Cho], phase) - blend(sink.acc[Color::Han], phase)
}

/// The evaluation from Cho's point of view, without tempo.
pub fn evaluate_cho(pos: &Position) -> i32 {
    evaluate_cho_with(pos, &DEFAULT)
}

/// The evaluation in centipawns from the side to move's point of view
/// (tempo included).
pub fn evaluate(pos: &Position) -> i32 {
    let v = evaluate_cho(pos);
    TEMPO
        + match pos.side_to_move() {
            Color::Cho => v,
            Color::Han => -v,
        }
}

/// The coefficient of every weight ([`weights::NUM_PARAMS`] entries) for
/// `pos`, from Cho's point of view, phase scaling included:
/// `Σ features(pos)[i] · w[i]` is [`evaluate_cho_with`]`(pos, w)` up to
/// rounding (each side's blended sum is truncated to an integer).
pub fn features(pos: &Position) -> Vec<f64> {
    let mut sink = FeatureSink {
        coef: vec![0.0; weights::NUM_PARAMS],
        mg: f64::from(material::phase(pos)) / f64::from(PHASE_MAX),
    };
    collect(pos, &mut sink);
    sink.coef
}

/// The evaluation term by term, for the `eval` command. The last entry,
/// `total`, holds Cho's and Han's sums; their difference is
/// [`evaluate_cho`], and [`evaluate`] adds [`TEMPO`] for the side to move.
/// Each term is blended by the phase on its own, so the terms may differ
/// from `total` by rounding.
pub fn explain(pos: &Position) -> Vec<Term> {
    let mut sink = TermSink {
        w: &DEFAULT,
        acc: [ByColor([[0; 3]; 2]); 8],
    };
    collect(pos, &mut sink);
    let phase = material::phase(pos);
    let mut terms: Vec<Term> = TERM_NAMES
        .iter()
        .zip(sink.acc.iter())
        .map(|(&name, a)| Term {
            name,
            cho: blend(a[Color::Cho], phase),
            han: blend(a[Color::Han], phase),
        })
        .collect();
    let mut total = ByColor([[0; 3]; 2]);
    for a in &sink.acc {
        for c in Color::BOTH {
            for t in 0..3 {
                total[c][t] += a[c][t];
            }
        }
    }
    terms.push(Term {
        name: "total",
        cho: blend(total[Color::Cho], phase),
        han: blend(total[Color::Han], phase),
    });
    terms
}

#[cfg(test)]
mod tests {
    use super::*;
    use janggi_core::{rng::SplitMix64, LegalityModel, START_FEN};

    /// The one-pass attack maps agree with `attackers_to` on every point of
    /// positions from random playouts (captures and palace play included).
    #[test]
    fn attack_maps_match_attackers_to() {
        let mut rng = SplitMix64::new(7);
        let mut checked = 0;
        for _ in 0..40 {
            let mut pos = Position::from_fen(START_FEN).expect("start");
            for _ in 0..120 {
                let maps = attack_maps(&pos);
                for sq in Square::ALL {
                    let attackers = pos.attackers_to(sq, pos.occupied());
                    for c in Color::BOTH {
                        for k in PieceKind::ALL {
                            let want = (attackers & pos.color_bb(c) & pos.kind_bb(k)).is_empty();
                            assert_eq!(
                                maps[c][k.index()].contains(sq),
                                !want,
                                "{} {sq:?} {c:?} {k:?}",
                                pos.fen()
                            );
                        }
                    }
                    checked += 1;
                }
                let moves = pos.legal_moves(LegalityModel::Casual);
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[rng.below(moves.len())]);
            }
        }
        assert!(checked > 100_000, "{checked}");
    }
}
