//! Static evaluation (형세 판단).
//!
//! Terms, each computed for both sides from that side's own point of view:
//!
//! * **material** — tapered piece values ([`material`]);
//! * **pst** — piece-square tables for all seven kinds ([`pst`]), drawn
//!   from Cho's side and mirrored top to bottom for Han;
//! * **mobility** — cheap reach counts: chariot lines, cannon lines that
//!   have a screen, horse and elephant jumps whose legs are free;
//! * **palace** — attackers near the enemy palace and missing guards.
//!
//! [`evaluate`] returns centipawns from the side to move's point of view;
//! [`explain`] returns the same number term by term for the protocol's
//! `eval` command. Evaluation never allocates (only [`explain`] does).

pub mod material;
pub mod pst;

use crate::rules::tables::{ELEPHANT_JUMPS, HORSE_JUMPS, LINES};
use crate::rules::Position;
use crate::types::{Bitboard, ByColor, Color, PieceKind, Square};

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

/// All terms for both sides, without tempo.
#[derive(Clone, Copy, Debug, Default)]
struct Breakdown {
    material: ByColor<i32>,
    pst: ByColor<i32>,
    mobility: ByColor<i32>,
    palace: ByColor<i32>,
}

/// Mobility weights per reachable point, by kind.
const MOB_CHARIOT: i32 = 3;
const MOB_CANNON: i32 = 3;
const MOB_HORSE: i32 = 4;
const MOB_ELEPHANT: i32 = 2;
/// A cannon with no screen on any line is nearly dead.
const CANNON_NO_SCREEN: i32 = -25;
/// Per own attacking piece (chariot, cannon, horse, soldier) inside or next
/// to the enemy palace, scaled by how many enemy guards are gone.
const PALACE_ATTACKER: i32 = 12;
const MISSING_GUARD: i32 = 20;

/// The palace zone of a side: its 3×3 palace plus the rank in front.
const fn palace_zone(ranks: [u8; 4]) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    let mut i = 0;
    while i < 4 {
        let mut f = 3;
        while f <= 5 {
            if let Some(s) = Square::new(f, ranks[i]) {
                b = b.with(s);
            }
            f += 1;
        }
        i += 1;
    }
    b
}

/// Palace zones by color.
const PALACE_ZONES: ByColor<Bitboard> =
    ByColor([palace_zone([0, 1, 2, 3]), palace_zone([9, 8, 7, 6])]);

fn mobility(pos: &Position, color: Color) -> i32 {
    let occ = pos.occupied();
    let own = pos.color_bb(color);
    let mut score = 0;
    for from in pos.pieces(color, PieceKind::Chariot) {
        let mut n = 0;
        for ray in LINES[from.index()].rays() {
            for &to in ray.as_slice() {
                if !own.contains(to) {
                    n += 1;
                }
                if occ.contains(to) {
                    break;
                }
            }
        }
        score += MOB_CHARIOT * n;
    }
    let cannons = pos.kind_bb(PieceKind::Cannon);
    for from in pos.pieces(color, PieceKind::Cannon) {
        let mut n = 0;
        let mut screened = false;
        for ray in LINES[from.index()].rays() {
            let mut it = ray.as_slice().iter();
            let mut screen = false;
            for &s in it.by_ref() {
                if occ.contains(s) {
                    screen = !cannons.contains(s);
                    break;
                }
            }
            if !screen {
                continue;
            }
            screened = true;
            for &to in it {
                if occ.contains(to) {
                    if !own.contains(to) && !cannons.contains(to) {
                        n += 1;
                    }
                    break;
                }
                n += 1;
            }
        }
        score += MOB_CANNON * n;
        if !screened {
            score += CANNON_NO_SCREEN;
        }
    }
    for from in pos.pieces(color, PieceKind::Horse) {
        let mut n = 0;
        for j in HORSE_JUMPS[from.index()].as_slice() {
            if !occ.contains(j.leg) && !own.contains(j.dest) {
                n += 1;
            }
        }
        score += MOB_HORSE * (n - 3);
    }
    for from in pos.pieces(color, PieceKind::Elephant) {
        let mut n = 0;
        for j in ELEPHANT_JUMPS[from.index()].as_slice() {
            if !occ.contains(j.leg1) && !occ.contains(j.leg2) && !own.contains(j.dest) {
                n += 1;
            }
        }
        score += MOB_ELEPHANT * (n - 2);
    }
    score
}

fn palace(pos: &Position, color: Color) -> i32 {
    let them = !color;
    let zone = PALACE_ZONES[them];
    let attackers = (pos.pieces(color, PieceKind::Chariot)
        | pos.pieces(color, PieceKind::Cannon)
        | pos.pieces(color, PieceKind::Horse)
        | pos.pieces(color, PieceKind::Soldier))
        & zone;
    let missing = 2 - (pos.pieces(them, PieceKind::Guard).count() as i32).min(2);
    attackers.count() as i32 * (PALACE_ATTACKER + MISSING_GUARD * missing / 2)
}

fn breakdown(pos: &Position) -> Breakdown {
    let phase = material::phase(pos);
    let mut b = Breakdown::default();
    for c in Color::BOTH {
        b.material[c] = material::material(pos, c, phase);
        let mut p = 0;
        for sq in pos.color_bb(c) {
            if let Some(piece) = pos.piece_at(sq) {
                p += pst::value(c, piece.kind, sq);
            }
        }
        b.pst[c] = p;
        b.mobility[c] = mobility(pos, c);
        b.palace[c] = palace(pos, c);
    }
    b
}

/// The evaluation from Cho's point of view, without tempo.
pub fn evaluate_cho(pos: &Position) -> i32 {
    let b = breakdown(pos);
    let side = |v: ByColor<i32>| v[Color::Cho] - v[Color::Han];
    side(b.material) + side(b.pst) + side(b.mobility) + side(b.palace)
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

/// The evaluation term by term, for the `eval` command. The last entry,
/// `total`, holds Cho's and Han's sums; their difference is
/// [`evaluate_cho`], and [`evaluate`] adds [`TEMPO`] for the side to move.
pub fn explain(pos: &Position) -> Vec<Term> {
    let b = breakdown(pos);
    let t = |name, v: ByColor<i32>| Term {
        name,
        cho: v[Color::Cho],
        han: v[Color::Han],
    };
    let mut terms = vec![
        t("material", b.material),
        t("pst", b.pst),
        t("mobility", b.mobility),
        t("palace", b.palace),
    ];
    let total = Term {
        name: "total",
        cho: terms.iter().map(|x| x.cho).sum(),
        han: terms.iter().map(|x| x.han).sum(),
    };
    terms.push(total);
    terms
}
