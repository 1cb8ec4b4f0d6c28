//! The movement items of the rules spec's §10 checklist, one named test
//! each, on hand-built positions.

mod common;

use common::{dests, legal_texts, pos_of, sorted};
use janggi::{setup_fen, Setup};
use janggi::{Color, LegalityModel, Move, Piece, PieceKind, Position, Square};

fn sq(s: &str) -> Square {
    Square::parse_uci(s).unwrap()
}

// ---- setups -----------------------------------------------------------------

#[test]
fn setup_smsm_maps_as_in_the_spec() {
    // Spec §10: Cho SMSM → (1,0) elephant, (2,0) horse, (6,0) elephant,
    // (7,0) horse; Han SMSM → (7,9) elephant, (6,9) horse, (2,9) elephant,
    // (1,9) horse.
    let p = Position::from_setups(Setup::Smsm, Setup::Smsm);
    let at = |f: u8, r: u8| p.piece_at(Square::new(f, r).unwrap()).map(|x| x.kind);
    use PieceKind::{Elephant as S, Horse as M};
    assert_eq!(
        [at(1, 0), at(2, 0), at(6, 0), at(7, 0)],
        [Some(S), Some(M), Some(S), Some(M)]
    );
    assert_eq!(
        [at(7, 9), at(6, 9), at(2, 9), at(1, 9)],
        [Some(S), Some(M), Some(S), Some(M)]
    );
    assert!(p.fen().starts_with("rnba1anbr/"));
    assert!(p.fen().contains("/RBNA1ABNR w"));
}

#[test]
fn all_sixteen_setups_match_the_reference_suite() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/perft/casual.epd")).unwrap();
    let mut seen = 0;
    for line in text.lines() {
        let Some(id) = line.split(";id setup ").nth(1) else {
            continue;
        };
        let mut it = id.split_whitespace();
        let han: Setup = it
            .next()
            .unwrap()
            .trim_start_matches("han=")
            .parse()
            .unwrap();
        let cho: Setup = it
            .next()
            .unwrap()
            .trim_start_matches("cho=")
            .parse()
            .unwrap();
        let fen = line.split(';').next().unwrap().trim();
        assert_eq!(setup_fen(han, cho), fen, "han {han} cho {cho}");
        seen += 1;
    }
    assert_eq!(seen, 16);
    assert_eq!(
        Position::startpos(),
        Position::from_setups(Setup::Mssm, Setup::Mssm)
    );
}

#[test]
fn setups_seen_from_own_side() {
    // Each arrangement read from the player's own left to right.
    for s in Setup::ALL {
        let p = Position::from_setups(s, s);
        let cho: String = [1u8, 2, 6, 7]
            .iter()
            .map(|&f| p.piece_at(Square::new(f, 0).unwrap()).unwrap().kind)
            .map(|k| if k == PieceKind::Horse { 'M' } else { 'S' })
            .collect();
        let han: String = [7u8, 6, 2, 1]
            .iter()
            .map(|&f| p.piece_at(Square::new(f, 9).unwrap()).unwrap().kind)
            .map(|k| if k == PieceKind::Horse { 'M' } else { 'S' })
            .collect();
        assert_eq!(cho, s.name());
        assert_eq!(han, s.name());
    }
}

// ---- horse and elephant legs -------------------------------------------------

const GENERALS: [(&str, char); 2] = [("e2", 'K'), ("f10", 'k')];

fn with_generals(extra: &[(&'static str, char)]) -> Vec<(&'static str, char)> {
    let mut v = GENERALS.to_vec();
    v.extend_from_slice(extra);
    v
}

#[test]
fn horse_moves_and_blocked_leg() {
    let p = pos_of(&with_generals(&[("c5", 'N')]), 'w');
    assert_eq!(
        dests(&p, "c5"),
        sorted(&["a4", "a6", "b3", "b7", "d3", "d7", "e4", "e6"])
    );
    // A piece on the leg c6 blocks both upward jumps (b7, d7).
    let p = pos_of(&with_generals(&[("c5", 'N'), ("c6", 'p')]), 'w');
    assert_eq!(
        dests(&p, "c5"),
        sorted(&["a4", "a6", "b3", "d3", "e4", "e6"])
    );
}

#[test]
fn elephant_moves_and_both_legs() {
    let p = pos_of(&with_generals(&[("c5", 'B')]), 'w');
    // e2 holds the own general.
    assert_eq!(dests(&p, "c5"), sorted(&["a2", "a8", "e8", "f3", "f7"]));
    // First point c6 blocks the jumps to a8 and e8.
    let p = pos_of(&with_generals(&[("c5", 'B'), ("c6", 'P')]), 'w');
    assert_eq!(dests(&p, "c5"), sorted(&["a2", "f3", "f7"]));
    // Second point d7 (diagonal beyond c6) blocks only e8.
    let p = pos_of(&with_generals(&[("c5", 'B'), ("d7", 'p')]), 'w');
    assert_eq!(dests(&p, "c5"), sorted(&["a2", "a8", "f3", "f7"]));
    // Path c5 → d5 → e4 → f3: e4 is the second point and blocks only f3.
    let p = pos_of(&with_generals(&[("c5", 'B'), ("e4", 'p')]), 'w');
    assert_eq!(dests(&p, "c5"), sorted(&["a2", "a8", "e8", "f7"]));
}

// ---- cannon --------------------------------------------------------------------

#[test]
fn cannon_cannot_move_without_screen() {
    let p = pos_of(&with_generals(&[("a1", 'C')]), 'w');
    assert!(dests(&p, "a1").is_empty());
}

#[test]
fn cannon_jumps_one_screen_to_many_empty_points() {
    let p = pos_of(&with_generals(&[("a1", 'C'), ("a3", 'P')]), 'w');
    assert_eq!(
        dests(&p, "a1"),
        sorted(&["a4", "a5", "a6", "a7", "a8", "a9", "a10"])
    );
    // An enemy piece beyond the screen can be captured; nothing past it.
    let p = pos_of(
        &with_generals(&[("a1", 'C'), ("a3", 'P'), ("a6", 'r')]),
        'w',
    );
    assert_eq!(dests(&p, "a1"), sorted(&["a4", "a5", "a6"]));
}

#[test]
fn cannon_cannot_use_cannon_as_screen() {
    let p = pos_of(&with_generals(&[("a1", 'C'), ("a3", 'c')]), 'w');
    assert!(dests(&p, "a1").is_empty());
    let p = pos_of(&with_generals(&[("a1", 'C'), ("a3", 'C')]), 'w');
    assert!(dests(&p, "a1").is_empty());
}

#[test]
fn cannon_cannot_capture_cannon() {
    let p = pos_of(
        &with_generals(&[("a1", 'C'), ("a3", 'P'), ("a6", 'c')]),
        'w',
    );
    assert_eq!(dests(&p, "a1"), sorted(&["a4", "a5"]));
}

#[test]
fn cannon_jumps_palace_diagonal_over_centre() {
    // Cannon on the corner d1, a non-cannon piece on the centre e2.
    let p = pos_of(&[("d1", 'C'), ("e2", 'A'), ("f2", 'K'), ("e10", 'k')], 'w');
    assert!(dests(&p, "d1").contains(&"f3".to_string()));
    // With a cannon on the centre there is no jump.
    let p = pos_of(&[("d1", 'C'), ("e2", 'C'), ("f2", 'K'), ("e10", 'k')], 'w');
    assert!(!dests(&p, "d1").contains(&"f3".to_string()));
    // Enemy palace, capture of a non-cannon on the far corner.
    let p = pos_of(
        &[
            ("d8", 'C'),
            ("e9", 'a'),
            ("f10", 'a'),
            ("e10", 'k'),
            ("e2", 'K'),
        ],
        'w',
    );
    assert!(dests(&p, "d8").contains(&"f10".to_string()));
    // A cannon on a side midpoint has no diagonal.
    let p = pos_of(&[("e8", 'C'), ("d9", 'a'), ("f10", 'k'), ("e2", 'K')], 'w');
    assert!(!dests(&p, "e8").contains(&"c10".to_string()));
}

// ---- chariot -------------------------------------------------------------------

#[test]
fn chariot_palace_diagonal_corner_to_corner() {
    let p = pos_of(&[("d1", 'R'), ("f2", 'K'), ("e10", 'k')], 'w');
    let d = dests(&p, "d1");
    assert!(
        d.contains(&"e2".to_string()) && d.contains(&"f3".to_string()),
        "{d:?}"
    );
    // Centre occupied: stops before it (own) — no opposite corner.
    let p = pos_of(&[("d1", 'R'), ("e2", 'A'), ("f2", 'K'), ("e10", 'k')], 'w');
    let d = dests(&p, "d1");
    assert!(
        !d.contains(&"e2".to_string()) && !d.contains(&"f3".to_string()),
        "{d:?}"
    );
    // Centre to corner, one step, in the enemy palace.
    let p = pos_of(&[("e9", 'R'), ("e2", 'K'), ("f10", 'k')], 'w');
    let d = dests(&p, "e9");
    for c in ["d8", "f8", "d10"] {
        assert!(d.contains(&c.to_string()), "{c} in {d:?}");
    }
    // Not from a side midpoint.
    let p = pos_of(&[("e1", 'R'), ("d2", 'K'), ("e10", 'k')], 'w');
    let d = dests(&p, "e1");
    assert!(
        !d.contains(&"f2".to_string()) && !d.contains(&"d2".to_string()),
        "{d:?}"
    );
}

// ---- general and guard ----------------------------------------------------------

#[test]
fn general_and_guard_no_diagonal_from_side_midpoints() {
    let p = pos_of(&[("e1", 'K'), ("d2", 'A'), ("f10", 'k')], 'w');
    assert_eq!(dests(&p, "e1"), sorted(&["d1", "e2", "f1"]));
    assert_eq!(dests(&p, "d2"), sorted(&["d1", "d3", "e2"]));
    // From the centre all eight lines.
    let p = pos_of(&[("e2", 'K'), ("f10", 'k')], 'w');
    assert_eq!(dests(&p, "e2").len(), 8);
}

#[test]
fn general_and_guard_never_leave_the_palace() {
    let p = pos_of(&[("d3", 'K'), ("f1", 'A'), ("f10", 'k')], 'w');
    assert_eq!(dests(&p, "d3"), sorted(&["d2", "e2", "e3"]));
    assert_eq!(dests(&p, "f1"), sorted(&["e1", "e2", "f2"]));
    let p = pos_of(&[("f8", 'k'), ("d8", 'a'), ("e1", 'K')], 'b');
    assert_eq!(dests(&p, "f8"), sorted(&["e8", "e9", "f9"]));
}

// ---- soldier --------------------------------------------------------------------

#[test]
fn soldier_never_moves_backward() {
    let p = pos_of(&with_generals(&[("c5", 'P')]), 'w');
    assert_eq!(dests(&p, "c5"), sorted(&["b5", "c6", "d5"]));
    let p = pos_of(&with_generals(&[("c5", 'p')]), 'b');
    assert_eq!(dests(&p, "c5"), sorted(&["b5", "c4", "d5"]));
}

#[test]
fn soldier_enemy_palace_diagonals_only() {
    // Cho soldier on Han's palace corner d8 may step to the centre e9.
    let p = pos_of(&[("d8", 'P'), ("e2", 'K'), ("f10", 'k')], 'w');
    assert_eq!(dests(&p, "d8"), sorted(&["c8", "d9", "e8", "e9"]));
    // From the centre to the far corners.
    let p = pos_of(&[("e9", 'P'), ("e2", 'K'), ("d8", 'k')], 'w');
    let d = dests(&p, "e9");
    assert!(d.contains(&"d10".to_string()) && d.contains(&"f10".to_string()));
    // Never diagonally backward, never from a side midpoint.
    let p = pos_of(&[("e8", 'P'), ("e2", 'K'), ("f10", 'k')], 'w');
    assert_eq!(dests(&p, "e8"), sorted(&["d8", "e9", "f8"]));
    // Han soldier in Cho's palace.
    let p = pos_of(&[("f3", 'p'), ("d1", 'K'), ("e10", 'k')], 'b');
    assert_eq!(dests(&p, "f3"), sorted(&["e2", "e3", "f2", "g3"]));
}

#[test]
fn soldier_no_diagonal_in_own_palace() {
    // A Cho soldier placed in Cho's own palace corner has no diagonal.
    let p = pos_of(&[("d2", 'K'), ("f1", 'P'), ("e10", 'k')], 'w');
    assert_eq!(dests(&p, "f1"), sorted(&["e1", "f2", "g1"]));
}

// ---- self-check and pins -----------------------------------------------------------

#[test]
fn self_check_refused() {
    // The general may not step onto a file held by an enemy chariot.
    let p = pos_of(&[("e2", 'K'), ("d10", 'r'), ("f10", 'k')], 'w');
    let d = dests(&p, "e2");
    assert!(!d.iter().any(|s| s.starts_with('d')), "{d:?}");
    // A guard pinned by a chariot may not leave the file.
    let p = pos_of(&[("e1", 'K'), ("e2", 'A'), ("e7", 'r'), ("f10", 'k')], 'w');
    assert_eq!(dests(&p, "e2"), sorted(&["e3"]));
}

#[test]
fn pin_by_cannon_screen_refused() {
    // Two pieces between the general and an enemy cannon: moving either one
    // away leaves exactly one screen and exposes the general.
    let p = pos_of(
        &[
            ("e1", 'K'),
            ("e3", 'P'),
            ("e5", 'N'),
            ("e8", 'c'),
            ("f10", 'k'),
        ],
        'w',
    );
    assert!(p
        .legal_moves(LegalityModel::Casual)
        .iter()
        .all(|m| m.is_pass() || m.from() != sq("e3") || m.to() == sq("e4")));
    assert!(dests(&p, "e5").is_empty(), "{:?}", dests(&p, "e5"));
}

#[test]
fn move_that_creates_a_cannon_screen_refused() {
    // Nothing between general and enemy cannon: placing a piece between
    // gives the cannon a screen.
    let p = pos_of(&[("e1", 'K'), ("d4", 'R'), ("e8", 'c'), ("f10", 'k')], 'w');
    let d = dests(&p, "d4");
    assert!(!d.contains(&"e4".to_string()), "{d:?}");
    assert!(d.contains(&"d5".to_string()));
    // And a capture that removes a cannon-screen blocker is fine, while one
    // that replaces a cannon (not a screen) by a chariot (a screen) is not.
    let p = pos_of(
        &[
            ("e1", 'K'),
            ("a4", 'R'),
            ("e4", 'c'),
            ("e8", 'c'),
            ("f10", 'k'),
        ],
        'w',
    );
    assert!(!dests(&p, "a4").contains(&"e4".to_string()));
}

#[test]
fn facing_generals_is_not_check() {
    let p = pos_of(&[("e2", 'K'), ("e9", 'k')], 'w');
    assert!(!p.in_check());
    assert!(p.generals_facing());
    assert!(legal_texts(&p, LegalityModel::Casual).contains(&"e2e2".to_string()));
}

// ---- pass ---------------------------------------------------------------------

#[test]
fn pass_refused_in_check() {
    let p = pos_of(&[("e2", 'K'), ("e7", 'r'), ("f10", 'k')], 'w');
    assert!(p.in_check());
    assert!(!p.legal_moves(LegalityModel::Casual).contains(&Move::PASS));
    assert!(!p.is_legal(Move::PASS, LegalityModel::Casual));
    let p = pos_of(&[("e2", 'K'), ("d7", 'r'), ("f10", 'k')], 'w');
    assert!(p.legal_moves(LegalityModel::Casual).contains(&Move::PASS));
}

#[test]
fn checks_by_every_attacker_kind() {
    let cases: [(&[(&str, char)], bool); 8] = [
        (&[("e2", 'K'), ("e5", 'P'), ("e8", 'c'), ("f10", 'k')], true), // cannon through screen
        (
            &[("e2", 'K'), ("e5", 'C'), ("e8", 'c'), ("f10", 'k')],
            false,
        ), // cannon screen is no screen
        (&[("e2", 'K'), ("d4", 'n'), ("f10", 'k')], true),              // horse
        (
            &[("e2", 'K'), ("d4", 'n'), ("d3", 'P'), ("f10", 'k')],
            false,
        ), // horse leg blocked
        (&[("e2", 'K'), ("g5", 'b'), ("f10", 'k')], true),              // elephant
        (
            &[("e2", 'K'), ("g5", 'b'), ("f3", 'A'), ("f10", 'k')],
            false,
        ), // elephant 2nd point
        (&[("e2", 'K'), ("e3", 'p'), ("f10", 'k')], true),              // soldier
        (&[("e2", 'K'), ("f3", 'p'), ("f10", 'k')], true),              // soldier palace diagonal
    ];
    for (pieces, check) in cases {
        let p = pos_of(pieces, 'w');
        assert_eq!(p.in_check(), check, "{}", p.fen());
        assert_eq!(!p.checkers().is_empty(), check, "{}", p.fen());
    }
    // A chariot on the palace diagonal checks; a soldier behind does not.
    let p = pos_of(&[("e2", 'K'), ("f3", 'r'), ("f10", 'k')], 'w');
    assert!(p.in_check());
    let p = pos_of(&[("e2", 'K'), ("e1", 'p'), ("f10", 'k')], 'w');
    assert!(!p.in_check());
    let _ = (Color::Cho, Piece::new(Color::Cho, PieceKind::General));
}

#[test]
fn the_general_is_never_captured() {
    // A FEN where the side not to move is in check (Fairy-Stockfish accepts
    // these): the chariot attacks the Han general but may not take it.
    let p = pos_of(&[("e2", 'K'), ("e5", 'R'), ("e10", 'k')], 'w');
    assert!(p.is_attacked(sq("e10"), Color::Cho));
    assert!(!dests(&p, "e5").contains(&"e10".to_string()));
    assert!(dests(&p, "e5").contains(&"e9".to_string()));
}
