//! Property tests over random playouts: make/unmake, hashing, FEN
//! round-trips, pseudo-legal vs legal, and an independent, slow,
//! obviously-correct move generator written here from the rules text.

use janggi::search_support::GenKind;
use janggi::{Color, LegalityModel, Move, MoveList, Piece, PieceKind, Position, Square};
use proptest::prelude::*;

// ---- the slow reference -------------------------------------------------------

type Board = [[Option<Piece>; 9]; 10]; // [rank][file]

fn board_of(p: &Position) -> Board {
    let mut b = [[None; 9]; 10];
    for s in Square::ALL {
        b[s.rank() as usize][s.file() as usize] = p.piece_at(s);
    }
    b
}

fn on(f: i32, r: i32) -> bool {
    (0..9).contains(&f) && (0..10).contains(&r)
}

fn palace(f: i32, r: i32) -> bool {
    (3..=5).contains(&f) && ((0..=2).contains(&r) || (7..=9).contains(&r))
}

/// Drawn palace diagonal between two adjacent points: one is a centre
/// (e2/e9), the other a corner.
fn diag_line(f1: i32, r1: i32, f2: i32, r2: i32) -> bool {
    let centre = |f: i32, r: i32| f == 4 && (r == 1 || r == 8);
    let corner = |f: i32, r: i32| palace(f, r) && f != 4 && r != 1 && r != 8;
    (f1 - f2).abs() == 1
        && (r1 - r2).abs() == 1
        && ((centre(f1, r1) && corner(f2, r2)) || (corner(f1, r1) && centre(f2, r2)))
}

/// Points the piece on (f, r) attacks: its targets, including the enemy
/// general (which is attacked, though never actually captured).
fn slow_attacks(b: &Board, f: i32, r: i32) -> Vec<(i32, i32)> {
    let mut nb = *b;
    let Some(p) = nb[r as usize][f as usize] else {
        return vec![];
    };
    // Stand in a guard of the same color for the enemy general, so the
    // general-capture exclusion does not hide the attack.
    for row in nb.iter_mut() {
        for q in row.iter_mut() {
            if *q == Some(Piece::new(!p.color, PieceKind::General)) {
                *q = Some(Piece::new(!p.color, PieceKind::Guard));
            }
        }
    }
    slow_targets(&nb, f, r)
}

/// Target points of the piece on (f, r), as the rules text describes them.
fn slow_targets(b: &Board, f: i32, r: i32) -> Vec<(i32, i32)> {
    let Some(p) = b[r as usize][f as usize] else {
        return vec![];
    };
    let at = |f: i32, r: i32| b[r as usize][f as usize];
    let mut out = vec![];
    let own = |t: (i32, i32)| at(t.0, t.1).is_some_and(|q| q.color == p.color);
    match p.kind {
        PieceKind::General | PieceKind::Guard => {
            for df in -1..=1 {
                for dr in -1..=1 {
                    let (nf, nr) = (f + df, r + dr);
                    if (df, dr) == (0, 0) || !on(nf, nr) || !palace(nf, nr) {
                        continue;
                    }
                    // same palace
                    if (nr <= 2) != (r <= 2) {
                        continue;
                    }
                    if df != 0 && dr != 0 && !diag_line(f, r, nf, nr) {
                        continue;
                    }
                    out.push((nf, nr));
                }
            }
        }
        PieceKind::Soldier => {
            let fwd = if p.color == Color::Cho { 1 } else { -1 };
            for (df, dr) in [(0, fwd), (-1, 0), (1, 0)] {
                if on(f + df, r + dr) {
                    out.push((f + df, r + dr));
                }
            }
            let enemy_palace = palace(f, r)
                && (if p.color == Color::Cho {
                    r >= 7
                } else {
                    r <= 2
                });
            if enemy_palace {
                for df in [-1, 1] {
                    if on(f + df, r + fwd) && diag_line(f, r, f + df, r + fwd) {
                        out.push((f + df, r + fwd));
                    }
                }
            }
        }
        PieceKind::Horse => {
            for (dx, dy) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                if !on(f + dx, r + dy) || at(f + dx, r + dy).is_some() {
                    continue;
                }
                for s in [-1, 1] {
                    let (px, py) = (dy * s, dx * s);
                    let t = (f + 2 * dx + px, r + 2 * dy + py);
                    if on(t.0, t.1) {
                        out.push(t);
                    }
                }
            }
        }
        PieceKind::Elephant => {
            for (dx, dy) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                if !on(f + dx, r + dy) || at(f + dx, r + dy).is_some() {
                    continue;
                }
                for s in [-1, 1] {
                    let (px, py) = (dy * s, dx * s);
                    let l2 = (f + 2 * dx + px, r + 2 * dy + py);
                    let t = (f + 3 * dx + 2 * px, r + 3 * dy + 2 * py);
                    if on(l2.0, l2.1) && at(l2.0, l2.1).is_none() && on(t.0, t.1) {
                        out.push(t);
                    }
                }
            }
        }
        PieceKind::Chariot | PieceKind::Cannon => {
            let mut dirs: Vec<(i32, i32)> = vec![(0, 1), (0, -1), (1, 0), (-1, 0)];
            for d in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                if on(f + d.0, r + d.1) && diag_line(f, r, f + d.0, r + d.1) {
                    dirs.push(d);
                }
            }
            let diagonal = |d: (i32, i32)| d.0 != 0 && d.1 != 0;
            for d in dirs {
                let mut cur = (f, r);
                let mut screen: Option<Piece> = None;
                loop {
                    let n = (cur.0 + d.0, cur.1 + d.1);
                    if !on(n.0, n.1) || (diagonal(d) && !diag_line(cur.0, cur.1, n.0, n.1)) {
                        break;
                    }
                    cur = n;
                    let q = at(n.0, n.1);
                    if p.kind == PieceKind::Chariot {
                        out.push(n);
                        if q.is_some() {
                            break;
                        }
                    } else {
                        match (screen, q) {
                            (None, None) => {}
                            (None, Some(s)) => {
                                if s.kind == PieceKind::Cannon {
                                    break;
                                }
                                screen = Some(s);
                            }
                            (Some(_), None) => out.push(n),
                            (Some(_), Some(t)) => {
                                if t.kind != PieceKind::Cannon {
                                    out.push(n);
                                }
                                break;
                            }
                        }
                    }
                }
            }
        }
    }
    // Own pieces block; the general is never captured (the game ends at mate).
    out.retain(|&t| !own(t) && at(t.0, t.1).is_none_or(|q| q.kind != PieceKind::General));
    out
}

fn slow_attacked(b: &Board, target: (i32, i32), by: Color) -> bool {
    for r in 0..10 {
        for f in 0..9 {
            if b[r as usize][f as usize].is_some_and(|p| p.color == by)
                && slow_attacks(b, f, r).contains(&target)
            {
                return true;
            }
        }
    }
    false
}

fn general_of(b: &Board, c: Color) -> (i32, i32) {
    for r in 0..10 {
        for f in 0..9 {
            if b[r as usize][f as usize] == Some(Piece::new(c, PieceKind::General)) {
                return (f, r);
            }
        }
    }
    panic!("no general")
}

fn facing(b: &Board) -> bool {
    let (f1, r1) = general_of(b, Color::Cho);
    let (f2, r2) = general_of(b, Color::Han);
    f1 == f2 && (r1 + 1..r2).all(|r| b[r as usize][f1 as usize].is_none())
}

/// Legal moves by the slow reference (root of a fresh tree: no history).
fn slow_legal(p: &Position, model: LegalityModel) -> Vec<Move> {
    let b = board_of(p);
    let us = p.side_to_move();
    let bikjang = model == LegalityModel::Fsf && facing(&b);
    let in_check = slow_attacked(&b, general_of(&b, us), !us);
    let mut out = vec![];
    for r in 0..10 {
        for f in 0..9 {
            if b[r as usize][f as usize].is_none_or(|q| q.color != us) {
                continue;
            }
            for t in slow_targets(&b, f, r) {
                let mut nb = b;
                nb[t.1 as usize][t.0 as usize] = nb[r as usize][f as usize].take();
                if slow_attacked(&nb, general_of(&nb, us), !us) || (bikjang && facing(&nb)) {
                    continue;
                }
                let from = Square::new(f as u8, r as u8).unwrap();
                let to = Square::new(t.0 as u8, t.1 as u8).unwrap();
                out.push(Move::new(from, to).unwrap());
            }
        }
    }
    if !in_check || bikjang {
        out.push(Move::PASS);
    }
    out
}

fn sorted(v: impl IntoIterator<Item = Move>) -> Vec<u16> {
    let mut v: Vec<u16> = v.into_iter().map(|m| m.bits()).collect();
    v.sort();
    v
}

// ---- random playouts -------------------------------------------------------------

const STARTS: [&str; 5] = [
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
    "1n1kaabn1/cr2N4/5C1c1/p1pNp3p/9/9/P1PbP1P1P/3r1p3/4A4/R1BA1KB1R b - - 0 1",
    "1b2a1b2/r2kBa3/1c5cr/p3p3p/2p2n3/8P/P1P2P3/RC1AK2CR/4A4/6NB1 b - - 0 20",
    "4k1C2/9/8n/3p5/8P/p2bp4/4r4/5K3/5N1c1/3A5 b - - 3 37",
    "4a4/3Ck4/5b3/2C3N2/8B/1P5P1/9/2R6/4AK3/1BN2A3 w - - 5 37",
];

/// Plays `choices` as indices into the legal-move list, checking
/// invariants at every step; prefers captures when `capture_bias`.
fn playout(start: usize, choices: &[usize], model: LegalityModel, check: impl Fn(&Position)) {
    let mut p = Position::from_fen(STARTS[start % STARTS.len()]).unwrap();
    for &c in choices {
        check(&p);
        let legal = p.legal_moves(model);
        if legal.is_empty() {
            break;
        }
        let mv = legal[c % legal.len()];
        let before = (p.clone(), p.key(), p.fen());
        p.make(mv);
        assert!(p.is_consistent(), "inconsistent after {mv:?}: {}", p.fen());
        assert_eq!(p.key(), p.compute_key());
        p.unmake();
        assert_eq!((p.clone(), p.key(), p.fen()), before, "unmake of {mv:?}");
        p.make(mv);
    }
    // unwind everything
    while p.last_move().is_some() {
        p.unmake();
    }
    assert_eq!(
        p.fen(),
        Position::from_fen(STARTS[start % STARTS.len()])
            .unwrap()
            .fen()
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn make_unmake_and_keys(start in 0usize..5, choices in prop::collection::vec(0usize..1000, 1..120)) {
        playout(start, &choices, LegalityModel::Casual, |_| {});
    }

    #[test]
    fn fen_round_trips(start in 0usize..5, choices in prop::collection::vec(0usize..1000, 1..80)) {
        playout(start, &choices, LegalityModel::Fsf, |p| {
            let q = Position::from_fen(&p.fen()).unwrap();
            assert_eq!(q.fen(), p.fen());
            assert_eq!(q.key(), p.key());
            assert_eq!(&q, p);
        });
    }

    #[test]
    fn legal_is_subset_of_pseudo_and_is_legal_agrees(start in 0usize..5, choices in prop::collection::vec(0usize..1000, 1..80)) {
        for model in [LegalityModel::Casual, LegalityModel::Fsf] {
            playout(start, &choices, model, |p| {
                let legal = p.legal_moves(model);
                let mut pseudo = MoveList::new();
                p.generate(GenKind::All, &mut pseudo);
                let mut caps = MoveList::new();
                p.generate(GenKind::Captures, &mut caps);
                let mut quiets = MoveList::new();
                p.generate(GenKind::Quiets, &mut quiets);
                assert_eq!(sorted(pseudo.clone()), sorted(caps.iter().chain(quiets.iter()).copied()));
                for m in &legal {
                    assert!(m.is_pass() || pseudo.contains(m), "{m:?} legal but not pseudo-legal");
                }
                for m in pseudo.iter().chain(std::iter::once(&Move::PASS)) {
                    assert_eq!(p.is_legal(*m, model), legal.contains(m), "is_legal({m:?}) in {}", p.fen());
                    assert!(p.is_pseudo_legal(*m));
                }
                for m in &caps {
                    assert!(p.piece_at(m.to()).is_some());
                }
            });
        }
    }

    #[test]
    fn legal_moves_equal_the_slow_reference(start in 0usize..5, choices in prop::collection::vec(0usize..1000, 1..60)) {
        for model in [LegalityModel::Casual, LegalityModel::Fsf] {
            playout(start, &choices, model, |p| {
                // The reference knows no history: compare on a fresh root
                // (a game already over by history has no such root).
                if p.is_terminal_by_history(model) {
                    return;
                }
                let mut root = p.clone();
                root.clear_history();
                let fast = root.legal_moves(model);
                assert_eq!(sorted(fast.iter().copied()), sorted(slow_legal(&root, model)), "{}", root.fen());
                // No legal move leaves the mover's general attacked.
                let us = root.side_to_move();
                for &m in fast.iter().filter(|m| !m.is_pass()) {
                    let mut q = root.clone();
                    q.make(m);
                    let b = board_of(&q);
                    assert!(!slow_attacked(&b, general_of(&b, us), !us), "{m:?} in {}", root.fen());
                    assert_eq!(q.in_check(), slow_attacked(&b, general_of(&b, !us), us));
                }
            });
        }
    }
}
