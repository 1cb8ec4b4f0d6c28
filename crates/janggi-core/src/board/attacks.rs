//! Attack detection: is a point attacked by a side?
//!
//! Used for check and for the legality filter. The board is read as a
//! `View`: the occupied points and the attacking side's pieces by kind,
//! so that the legality filter can ask "attacked after this move?" by
//! editing a few bitboards instead of the position. Lines are read with
//! the first-blocker lookups of [`rays`](super::rays). Generals facing each
//! other is not an attack; a general or guard never attacks a point outside
//! its palace, and since the two palaces are far apart they never attack
//! the enemy general — but they do attack points, which the generic query
//! reports.

use super::position::Position;
use super::rays::{all_lines, first_blocker, ray, DIRS};
use super::tables::{
    CHECK_ZONE, ELEPHANT_SOURCES, HORSE_SOURCES, SOURCE_MASKS, SRC_ELEPHANT, SRC_HORSE, SRC_PALACE,
    SRC_SOLDIER,
};
use crate::types::{Bitboard, ByKind, Color, Move, PieceKind, Square};

/// A board as attack detection reads it.
#[derive(Clone, Copy)]
struct View<'a> {
    /// Occupied points (screens, blockers, legs).
    occ: Bitboard,
    /// Every cannon of either side (a cannon is never a screen).
    cannons: Bitboard,
    /// The attacking side.
    color: Color,
    /// The pieces that may attack (of the attacking side).
    attackers: Bitboard,
    /// The position's pieces by kind.
    kinds: &'a ByKind<Bitboard>,
}

impl<'a> View<'a> {
    /// The position as it stands, attacked by `by`.
    #[inline(always)]
    fn of(pos: &'a Position, by: Color) -> View<'a> {
        View {
            occ: pos.occupied(),
            cannons: pos.kind_bb(PieceKind::Cannon),
            color: by,
            attackers: pos.color_bb(by),
            kinds: &pos.by_kind,
        }
    }

    #[inline(always)]
    fn attackers(&self, k: PieceKind) -> Bitboard {
        self.attackers & self.kinds[k]
    }

    /// Whether `target` is attacked. When `cannon_target` is true the point
    /// holds a cannon, which a cannon may not capture. Each kind is first
    /// tested against the set of points it could attack `target` from.
    #[inline(always)]
    fn attacks(&self, target: Square, cannon_target: bool, include_palace_pieces: bool) -> bool {
        let t = target.index();
        let chariots = self.attackers(PieceKind::Chariot);
        let cannons = if cannon_target {
            Bitboard::EMPTY
        } else {
            self.attackers(PieceKind::Cannon)
        };
        // Chariot and cannon along lines (orthogonal and palace diagonals).
        let sliders = chariots | cannons;
        if !(all_lines(target) & sliders).is_empty() {
            for d in 0..DIRS {
                if (ray(target, d) & sliders).is_empty() {
                    continue;
                }
                let Some(b) = first_blocker(target, d, self.occ) else {
                    continue;
                };
                if chariots.contains(b) {
                    return true;
                }
                // "A cannon may not jump over a cannon."
                if self.cannons.contains(b) {
                    continue;
                }
                if first_blocker(b, d, self.occ).is_some_and(|t| cannons.contains(t)) {
                    return true;
                }
            }
        }
        let horses = self.attackers(PieceKind::Horse);
        if !(SOURCE_MASKS[SRC_HORSE][t] & horses).is_empty() {
            for j in HORSE_SOURCES[t].as_slice() {
                if horses.contains(j.dest) && !self.occ.contains(j.leg) {
                    return true;
                }
            }
        }
        let elephants = self.attackers(PieceKind::Elephant);
        if !(SOURCE_MASKS[SRC_ELEPHANT][t] & elephants).is_empty() {
            for j in ELEPHANT_SOURCES[t].as_slice() {
                if elephants.contains(j.dest)
                    && !self.occ.contains(j.leg1)
                    && !self.occ.contains(j.leg2)
                {
                    return true;
                }
            }
        }
        let soldiers = self.attackers(PieceKind::Soldier);
        if !(SOURCE_MASKS[SRC_SOLDIER + self.color.index()][t] & soldiers).is_empty() {
            return true;
        }
        if include_palace_pieces {
            let palace = self.attackers(PieceKind::General) | self.attackers(PieceKind::Guard);
            if !(SOURCE_MASKS[SRC_PALACE][t] & palace).is_empty() {
                return true;
            }
        }
        false
    }
}

impl Position {
    /// Whether the non-pass move `mv` of the side to move may give check.
    /// `false` is exact when the other side's general is not attacked
    /// before the move (true of every position reached by legal moves,
    /// except right after a pass made in check under Fairy-Stockfish's
    /// bikjang rule); `true` says only that [`Position::in_check`] must be
    /// asked after the move. Costs two table lookups, where the check test
    /// after the move reads every attacker of the general.
    #[inline(always)]
    pub fn may_give_check(&self, mv: Move) -> bool {
        let zone = &CHECK_ZONE[self.generals[!self.side].index()];
        zone[mv.from().index()] | zone[mv.to().index()]
    }

    /// Every piece of either color in `occ` that attacks `target` when only
    /// the pieces in `occ` are on the board (a piece outside `occ` has been
    /// exchanged off; `target` itself is never a screen or leg, so what
    /// stands there does not matter). Cannon screens and horse/elephant legs
    /// are read from `occ`, so they appear and disappear with it. Cannons are
    /// reported even when the point holds a cannon: "a cannon may not
    /// capture a cannon" is for the caller, who knows what stands there.
    /// Used by the static exchange evaluation and the evaluation's tests.
    pub fn attackers_to(&self, target: Square, occ: Bitboard) -> Bitboard {
        let chariots = self.kind_bb(PieceKind::Chariot) & occ;
        let cannons = self.kind_bb(PieceKind::Cannon) & occ;
        let mut out = Bitboard::EMPTY;
        for d in 0..DIRS {
            let Some(b) = first_blocker(target, d, occ) else {
                continue;
            };
            if chariots.contains(b) {
                out = out.with(b);
            }
            // "A cannon may not jump over a cannon."
            if cannons.contains(b) {
                continue;
            }
            if let Some(t) = first_blocker(b, d, occ).filter(|&t| cannons.contains(t)) {
                out = out.with(t);
            }
        }
        let horses = self.kind_bb(PieceKind::Horse) & occ;
        for j in HORSE_SOURCES[target.index()].as_slice() {
            if horses.contains(j.dest) && !occ.contains(j.leg) {
                out = out.with(j.dest);
            }
        }
        let elephants = self.kind_bb(PieceKind::Elephant) & occ;
        for j in ELEPHANT_SOURCES[target.index()].as_slice() {
            if elephants.contains(j.dest) && !occ.contains(j.leg1) && !occ.contains(j.leg2) {
                out = out.with(j.dest);
            }
        }
        for c in Color::BOTH {
            out |= SOURCE_MASKS[SRC_SOLDIER + c.index()][target.index()]
                & self.pieces(c, PieceKind::Soldier)
                & occ;
        }
        // General and guards step along the lines of the palace they stand
        // in; the steps from `target` never leave its palace, which only the
        // owner's general and guards can occupy.
        let palace = (self.kind_bb(PieceKind::General) | self.kind_bb(PieceKind::Guard)) & occ;
        out | (SOURCE_MASKS[SRC_PALACE][target.index()] & palace)
    }

    /// Whether a cannon stands on `s`.
    #[inline(always)]
    fn cannon_on(&self, s: Square) -> bool {
        self.kind_bb(PieceKind::Cannon).contains(s)
    }

    /// Whether `target` is attacked by any piece of `by` (a capture onto it
    /// would be pseudo-legal if it held an enemy piece). Respects the
    /// cannon-captures-cannon ban for the piece actually on `target`.
    pub fn is_attacked(&self, target: Square, by: Color) -> bool {
        View::of(self, by).attacks(target, self.cannon_on(target), true)
    }

    /// Whether `color`'s general is attacked (in check, 장군).
    #[inline]
    pub fn in_check_color(&self, color: Color) -> bool {
        View::of(self, !color).attacks(self.generals[color], false, false)
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.in_check_color(self.side)
    }

    /// Whether the side to move's general would be attacked after the
    /// pseudo-legal non-pass move `mv` (the board is not modified).
    #[inline]
    pub fn leaves_general_attacked(&self, mv: Move) -> bool {
        let us = self.side;
        let from = mv.from();
        let to = mv.to();
        let king = if from == self.generals[us] {
            to
        } else {
            self.generals[us]
        };
        let mut v = View::of(self, !us);
        v.occ = v.occ.without(from).with(to);
        // A captured piece attacks nothing; a moving cannon takes its
        // "not a screen" property along.
        let moved_cannon = self.cannon_on(from);
        v.cannons = v.cannons.without(from).without(to);
        if moved_cannon {
            v.cannons = v.cannons.with(to);
        }
        v.attackers = v.attackers.without(to);
        v.attacks(king, false, false)
    }

    /// The enemy pieces giving check to the side to move.
    pub fn checkers(&self) -> Bitboard {
        let us = self.side;
        let king = self.generals[us];
        let them = !us;
        let mut out = Bitboard::EMPTY;
        for s in self.color_bb(them) {
            if self.attacks_square_from(s, king) {
                out = out.with(s);
            }
        }
        out
    }

    /// Whether the piece on `from` attacks `target` (slow; for diagnostics
    /// such as the `Checkers:` line and tests).
    pub fn attacks_square_from(&self, from: Square, target: Square) -> bool {
        let Some(p) = self.piece_at(from) else {
            return false;
        };
        // Every other piece stays on the board as a blocker, screen or
        // leg, but only the one on `from` attacks.
        let mut v = View::of(self, p.color);
        v.attackers = Bitboard::from_square(from);
        v.attacks(target, self.cannon_on(target), true)
    }
}

#[cfg(test)]
mod tests {
    use crate::board::{GenKind, LegalityModel, Position, START_FEN};
    use crate::rng::SplitMix64;
    use crate::types::MoveList;

    /// On random playouts: the legality test without touching the board
    /// agrees with making the move and asking whether the mover's general
    /// is attacked, and the checkers are non-empty exactly in check.
    #[test]
    fn legality_test_matches_make_and_look() {
        let mut rng = SplitMix64::new(11);
        let mut tested = 0;
        for _ in 0..30 {
            let mut pos = Position::from_fen(START_FEN).expect("start");
            for _ in 0..150 {
                assert_eq!(pos.in_check(), !pos.checkers().is_empty(), "{}", pos.fen());
                let us = pos.side_to_move();
                let mut all = MoveList::new();
                pos.generate(GenKind::All, &mut all);
                for &mv in &all {
                    let fast = pos.leaves_general_attacked(mv);
                    pos.make(mv);
                    let slow = pos.in_check_color(us);
                    pos.unmake();
                    assert_eq!(fast, slow, "{} {mv:?}", pos.fen());
                    tested += 1;
                }
                let legal = pos.legal_moves(LegalityModel::Casual);
                if legal.is_empty() || pos.is_terminal_by_history(LegalityModel::Casual) {
                    break;
                }
                pos.make(legal[rng.below(legal.len())]);
            }
        }
        assert!(tested > 50_000, "{tested}");
    }

    /// On random playouts: a legal move that `may_give_check` rules out
    /// never gives check, and the filter rules out a fair share of moves
    /// (else it would save nothing).
    #[test]
    fn check_zone_never_misses_a_check() {
        let mut rng = SplitMix64::new(12);
        let (mut checks, mut ruled_out, mut tested) = (0, 0, 0);
        for _ in 0..60 {
            let mut pos = Position::from_fen(START_FEN).expect("start");
            for _ in 0..200 {
                let legal = pos.legal_moves(LegalityModel::Casual);
                for &mv in legal.iter().filter(|m| !m.is_pass()) {
                    let may = pos.may_give_check(mv);
                    pos.make(mv);
                    let check = pos.in_check();
                    pos.unmake();
                    assert!(may || !check, "{} {mv:?} gives check", pos.fen());
                    checks += usize::from(check);
                    ruled_out += usize::from(!may);
                    tested += 1;
                }
                if legal.is_empty() || pos.is_terminal_by_history(LegalityModel::Casual) {
                    break;
                }
                pos.make(legal[rng.below(legal.len())]);
            }
        }
        assert!(checks > 1_000, "{checks} checks in {tested} moves");
        assert!(ruled_out * 3 > tested, "{ruled_out} of {tested} ruled out");
    }
}
