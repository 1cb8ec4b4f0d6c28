//! Static exchange evaluation (SEE, 기물 교환 계산): the material balance
//! of the capture sequence on one point, each side recapturing with its
//! least valuable piece and free to stop when going on would lose.
//!
//! The Janggi particulars are all about what changes as pieces leave the
//! board: a piece that moves to the point may have been a cannon's only
//! screen (the cannon can no longer capture) or one of two pieces between
//! a cannon and the point (the cannon now can); it may have stood on a
//! horse's or elephant's leg (the jump opens); and "a cannon may not capture
//! a cannon", so no cannon recaptures while a cannon stands on the point.
//! The attackers are therefore recomputed for the remaining pieces after
//! every capture ([`Position::attackers_to`]), not kept as one set with
//! x-rays added as in chess.
//!
//! The general captures only last: a recapture by the general while the
//! other side still attacks the point would leave it attacked, so it
//! counts only when the other side has nothing left. Pins are ignored.

use crate::eval::material::piece_value;
use janggi_core::{Move, PieceKind, Position};

/// Attackers are tried from the least valuable up; the general comes last.
const LEAST_VALUABLE_FIRST: [PieceKind; 7] = [
    PieceKind::Soldier,
    PieceKind::Guard,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Chariot,
    PieceKind::General,
];

/// The value of a piece in exchanges (the middlegame material value).
#[inline]
fn value(kind: PieceKind) -> i32 {
    piece_value(kind)
}

/// Whether the static exchange evaluation of the pseudo-legal move `mv` is
/// at least `threshold` (centipawns, from the mover's side). A quiet move
/// counts as capturing nothing and then being exposed to the exchange on
/// its destination; a pass exchanges nothing (its value is 0).
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    if mv.is_pass() {
        return threshold <= 0;
    }
    let from = mv.from();
    let to = mv.to();
    let Some(mover) = pos.piece_at(from) else {
        return threshold <= 0;
    };
    // What we win if the opponent does not recapture.
    let mut swap = pos.piece_at(to).map_or(0, |p| value(p.kind)) - threshold;
    if swap < 0 {
        return false;
    }
    // What we still have if the mover is taken and we stop.
    swap = value(mover.kind) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied().without(from).without(to);
    let mut on_point = mover.kind;
    let mut stm = mover.color;
    // Whether the side that made the last capture is ahead of the
    // threshold; it flips with each capture.
    let mut res = true;
    loop {
        stm = !stm;
        let mut ours = pos.attackers_to(to, occ) & pos.color_bb(stm);
        if on_point == PieceKind::Cannon {
            // "A cannon may not capture a cannon."
            ours &= !pos.kind_bb(PieceKind::Cannon);
        }
        let Some((kind, sq)) = LEAST_VALUABLE_FIRST
            .iter()
            .find_map(|&k| (ours & pos.kind_bb(k)).first().map(|s| (k, s)))
        else {
            break;
        };
        res = !res;
        occ = occ.without(sq);
        if kind == PieceKind::General {
            // The general may take only if the point is then safe; the
            // piece on the point is the general, which cannons may take.
            let theirs = pos.attackers_to(to, occ) & pos.color_bb(!stm);
            return if theirs.is_empty() { res } else { !res };
        }
        swap = value(kind) - swap;
        if swap < i32::from(res) {
            break;
        }
        on_point = kind;
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;
    use janggi_core::{search_support::GenKind, Bitboard, Color, MoveList, Square};

    /// A position from a list such as `"Ke1 ke9 Ra1 na5"` (upper case Cho,
    /// lower case Han), through a FEN.
    fn place(pieces: &str, side: Color) -> Position {
        let mut board = [[None::<char>; 9]; 10];
        for item in pieces.split_whitespace() {
            let mut chars = item.chars();
            let letter = chars.next().expect("piece letter");
            let sq = Square::parse_uci(chars.as_str()).expect("square");
            board[sq.rank() as usize][sq.file() as usize] = Some(letter);
        }
        let ranks: Vec<String> = (0..10)
            .rev()
            .map(|r| {
                let mut s = String::new();
                let mut empty = 0;
                for cell in board[r] {
                    match cell {
                        Some(c) => {
                            if empty > 0 {
                                s.push_str(&empty.to_string());
                                empty = 0;
                            }
                            s.push(c);
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                }
                s
            })
            .collect();
        let side = if side == Color::Cho { 'w' } else { 'b' };
        let fen = format!("{} {side} - - 0 1", ranks.join("/"));
        Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn mv(pos: &Position, from: &str, to: &str) -> Move {
        let from = Square::parse_uci(from).expect("square");
        let to = Square::parse_uci(to).expect("square");
        let m = Move::new(from, to).expect("move");
        assert!(pos.is_pseudo_legal(m), "{from}{to} in {}", pos.fen());
        m
    }

    /// The exact exchange value, found by bisection over `see_ge`.
    fn see(pos: &Position, m: Move) -> i32 {
        let (mut lo, mut hi) = (-20_000, 20_000);
        assert!(see_ge(pos, m, lo) && !see_ge(pos, m, hi));
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if see_ge(pos, m, mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    const R: i32 = piece_value(PieceKind::Chariot);
    const N: i32 = piece_value(PieceKind::Horse);
    const A: i32 = piece_value(PieceKind::Guard);
    const P: i32 = piece_value(PieceKind::Soldier);

    #[test]
    fn undefended_capture_wins_the_victim() {
        let pos = place("Ke2 ke9 Ra1 na5", Color::Cho);
        assert_eq!(see(&pos, mv(&pos, "a1", "a5")), N);
        assert!(see_ge(&pos, mv(&pos, "a1", "a5"), N));
        assert!(!see_ge(&pos, mv(&pos, "a1", "a5"), N + 1));
    }

    #[test]
    fn defended_captures() {
        // The b5 soldier (Han moves down the board) guards a5 sideways.
        let pos = place("Ke2 ke9 Ra1 pa5 pb5", Color::Cho);
        assert_eq!(see(&pos, mv(&pos, "a1", "a5")), P - R);
        assert!(!see_ge(&pos, mv(&pos, "a1", "a5"), 0));
        // A soldier taking a defended horse still wins the difference.
        let pos = place("Ke2 ke9 Pa4 na5 pb5", Color::Cho);
        assert_eq!(see(&pos, mv(&pos, "a4", "a5")), N - P);
        // Two attackers against one defender: the chariot joins in after
        // the soldier (least valuable first) and wins the soldier back.
        let pos = place("Ke2 ke9 Pa4 Ra1 na5 pb5", Color::Cho);
        assert_eq!(see(&pos, mv(&pos, "a4", "a5")), N);
    }

    #[test]
    fn cannon_loses_its_screen_when_the_screen_captures() {
        // The a7 chariot is the only piece between the a9 cannon and a5; once
        // it has captured on a5 the cannon has nothing to jump.
        let pos = place("Ke2 ke9 Ra7 ca9 na5", Color::Cho);
        assert!(pos
            .attackers_to(sq("a5"), pos.occupied())
            .contains(sq("a9")));
        assert_eq!(see(&pos, mv(&pos, "a7", "a5")), N);
    }

    #[test]
    fn cannon_gains_a_screen_when_a_blocker_captures() {
        // a5 chariot and a6 horse stand between a4 and the a7 cannon: two
        // pieces, no capture. Once the chariot has taken on a4 the horse is
        // the one screen and the cannon recaptures.
        let pos = place("Ke2 ke9 Ra5 na6 ca7 pa4", Color::Cho);
        assert!(!pos
            .attackers_to(sq("a4"), pos.occupied())
            .contains(sq("a7")));
        assert_eq!(see(&pos, mv(&pos, "a5", "a4")), P - R);
        assert!(!see_ge(&pos, mv(&pos, "a5", "a4"), 0));
    }

    #[test]
    fn cannon_never_recaptures_a_cannon() {
        // Cho's cannon takes the horse over the a3 soldier; Han's a8 cannon
        // sees a5 over its a7 soldier but may not take a cannon.
        let pos = place("Ke2 ke9 Ca1 Pa3 na5 pa7 ca8", Color::Cho);
        assert_eq!(see(&pos, mv(&pos, "a1", "a5")), N);
        // The same with a chariot as the capturer: the cannon takes it.
        let pos = place("Ke2 ke9 Ra1 na5 pa7 ca8", Color::Cho);
        assert_eq!(see(&pos, mv(&pos, "a1", "a5")), N - R);
        // A cannon may stop where the enemy cannon sees it; a chariot may not.
        let pos = place("Ke2 ke9 Ca1 Pa3 pa7 ca8", Color::Cho);
        assert_eq!(see(&pos, mv(&pos, "a1", "a5")), 0);
        let pos = place("Ke2 ke9 Ra1 pa7 ca8", Color::Cho);
        assert_eq!(see(&pos, mv(&pos, "a1", "a5")), -R);
    }

    #[test]
    fn horse_leg_opened_by_the_exchange() {
        // Han's soldier takes the guard on e2 from d3 (palace diagonal),
        // unblocking the c3 horse's leg: the horse recaptures. The e1
        // general cannot (the e5 chariot still sees e2), so without the
        // opened leg Han would keep the whole guard.
        let pos = place("Ke1 Ae2 Nc3 pd3 re5 ke9", Color::Han);
        assert_eq!(see(&pos, mv(&pos, "d3", "e2")), A - P);
        // Without the horse nothing recaptures.
        let pos = place("Ke1 Ae2 pd3 re5 ke9", Color::Han);
        assert_eq!(see(&pos, mv(&pos, "d3", "e2")), A);
    }

    #[test]
    fn general_recaptures_only_when_safe() {
        // The e9 general takes back on e8: the chariot is lost.
        let pos = place("Ke2 ke9 Re5 ne8", Color::Cho);
        assert_eq!(see(&pos, mv(&pos, "e5", "e8")), N - R);
        // A second chariot behind the first guards e8 through the vacated
        // e5: the general may not take.
        let pos = place("Ke2 ke9 Re5 Re4 ne8", Color::Cho);
        assert_eq!(see(&pos, mv(&pos, "e5", "e8")), N);
        // Cho's e1 general takes back on e2, nothing else attacking it.
        let pos = place("Ke1 Ae2 pd3 ke9", Color::Han);
        assert_eq!(see(&pos, mv(&pos, "d3", "e2")), A - P);
    }

    #[test]
    fn quiet_moves_and_pass() {
        let pos = place("Ke2 ke9 Ra1 pb6", Color::Cho);
        // a6 is guarded by the soldier (sideways), a4 is not.
        assert_eq!(see(&pos, mv(&pos, "a1", "a6")), -R);
        assert_eq!(see(&pos, mv(&pos, "a1", "a4")), 0);
        assert!(see_ge(&pos, Move::PASS, 0));
        assert!(!see_ge(&pos, Move::PASS, 1));
    }

    fn sq(s: &str) -> Square {
        Square::parse_uci(s).expect("square")
    }

    /// `attackers_to` with the full board agrees with move generation: the
    /// side to move's pieces attacking a point are exactly the origins of
    /// its pseudo-legal moves there (random playouts from the bench
    /// positions).
    #[test]
    fn attackers_match_move_generation() {
        let mut rng = janggi_core::rng::SplitMix64::new(2024);
        for fen in crate::bench::FENS {
            let mut pos = Position::from_fen(fen).expect("fen");
            for _ in 0..30 {
                let us = pos.side_to_move();
                let mut all = MoveList::new();
                pos.generate(GenKind::All, &mut all);
                for target in Square::ALL {
                    let here = pos.piece_at(target);
                    if here.is_some_and(|p| p.color == us || p.kind == PieceKind::General) {
                        continue;
                    }
                    let mut want = Bitboard::EMPTY;
                    for m in all.iter().filter(|m| !m.is_pass() && m.to() == target) {
                        want = want.with(m.from());
                    }
                    let mut got = pos.attackers_to(target, pos.occupied()) & pos.color_bb(us);
                    if here.is_some_and(|p| p.kind == PieceKind::Cannon) {
                        got &= !pos.kind_bb(PieceKind::Cannon);
                    }
                    assert_eq!(got, want, "{target} in {}", pos.fen());
                }
                let legal = pos.legal_moves(janggi_core::LegalityModel::Casual);
                if legal.is_empty() {
                    break;
                }
                pos.make(legal[rng.below(legal.len())]);
            }
        }
    }
}
