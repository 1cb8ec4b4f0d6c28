//! Why a try on the board is refused, in Korean and English (the spec's
//! §8.2 sentences), derived from the game layer's [`IllegalMove`] and the
//! position: the game layer says *that* a move is illegal, this module
//! names the rule the player ran into.

use janggi_core::{
    Color, Game, IllegalMove, Move, PieceKind, Position, RepetitionRule, Square, REPETITION_LIMIT,
};

/// A refused move or pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game is over.
    GameOver,
    /// It is not a human's turn (the engine is to move).
    NotYourTurn,
    /// No piece of the side to move on the from-point.
    NoOwnPiece,
    /// The destination holds one of the mover's pieces.
    OwnPieceThere,
    /// A cannon tried to jump over a cannon.
    CannonOverCannon,
    /// A cannon tried to capture a cannon.
    CannonTakesCannon,
    /// A cannon with nothing to jump over.
    CannonNeedsScreen,
    /// A cannon jumping over more than one piece.
    CannonOneScreen,
    /// The horse's leg (멱) is blocked.
    HorseBlocked,
    /// The elephant's path (멱) is blocked.
    ElephantBlocked,
    /// Something stands in a chariot's way.
    PathBlocked,
    /// A general or guard tried to leave the palace.
    LeavesPalace,
    /// A soldier tried to step back.
    SoldierBackward,
    /// The piece does not move like that.
    WrongShape,
    /// In check, and the move does not answer it.
    MustAnswerCheck,
    /// The move puts the mover's own general in check.
    SelfCheck,
    /// The move leaves the generals facing where the rules forbid it.
    Bikjang,
    /// Passing while in check.
    PassInCheck,
    /// Passing is off in these rules.
    PassNotAllowed,
    /// The move would make a position's 4th occurrence.
    Repetition,
}

impl Refusal {
    /// A stable machine-readable code.
    pub const fn code(self) -> &'static str {
        match self {
            Refusal::GameOver => "gameOver",
            Refusal::NotYourTurn => "notYourTurn",
            Refusal::NoOwnPiece => "noOwnPiece",
            Refusal::OwnPieceThere => "ownPieceThere",
            Refusal::CannonOverCannon => "cannonOverCannon",
            Refusal::CannonTakesCannon => "cannonTakesCannon",
            Refusal::CannonNeedsScreen => "cannonNeedsScreen",
            Refusal::CannonOneScreen => "cannonOneScreen",
            Refusal::HorseBlocked => "horseBlocked",
            Refusal::ElephantBlocked => "elephantBlocked",
            Refusal::PathBlocked => "pathBlocked",
            Refusal::LeavesPalace => "leavesPalace",
            Refusal::SoldierBackward => "soldierBackward",
            Refusal::WrongShape => "wrongShape",
            Refusal::MustAnswerCheck => "mustAnswerCheck",
            Refusal::SelfCheck => "selfCheck",
            Refusal::Bikjang => "bikjang",
            Refusal::PassInCheck => "passInCheck",
            Refusal::PassNotAllowed => "passNotAllowed",
            Refusal::Repetition => "repetition",
        }
    }

    /// The Korean sentence (the spec's wording where it has one).
    pub const fn ko(self) -> &'static str {
        match self {
            Refusal::GameOver => "대국이 끝났어요",
            Refusal::NotYourTurn => "지금은 엔진 차례예요",
            Refusal::NoOwnPiece => "움직일 자기 기물을 고르세요",
            Refusal::OwnPieceThere => "자기 기물이 있는 곳으로는 갈 수 없어요",
            Refusal::CannonOverCannon => "포는 포를 넘을 수 없어요",
            Refusal::CannonTakesCannon => "포는 포를 잡을 수 없어요",
            Refusal::CannonNeedsScreen => "포는 포다리(넘을 기물)가 있어야 움직여요",
            Refusal::CannonOneScreen => "포는 기물 하나만 넘을 수 있어요",
            Refusal::HorseBlocked => "마의 길(멱)이 막혀 있어요",
            Refusal::ElephantBlocked => "상의 길(멱)이 막혀 있어요",
            Refusal::PathBlocked => "가는 길이 막혀 있어요",
            Refusal::LeavesPalace => "궁은 궁성 밖으로 나갈 수 없어요",
            Refusal::SoldierBackward => "졸은 뒤로 갈 수 없어요",
            Refusal::WrongShape => "그 기물은 그렇게 움직일 수 없어요",
            Refusal::MustAnswerCheck => "장군을 피해야 해요",
            Refusal::SelfCheck => "그 수를 두면 궁이 장군을 받아요",
            Refusal::Bikjang => "궁이 마주보게 둘 수 없어요",
            Refusal::PassInCheck => "장군을 받은 상태에서는 쉴 수 없어요",
            Refusal::PassNotAllowed => "이 규칙에서는 한수쉼을 할 수 없어요",
            Refusal::Repetition => "같은 수를 너무 많이 반복해서 둘 수 없어요",
        }
    }

    /// The English sentence.
    pub const fn en(self) -> &'static str {
        match self {
            Refusal::GameOver => "The game is over.",
            Refusal::NotYourTurn => "It is the engine's turn.",
            Refusal::NoOwnPiece => "Pick one of your own pieces.",
            Refusal::OwnPieceThere => "One of your own pieces is there.",
            Refusal::CannonOverCannon => "A cannon cannot jump over a cannon.",
            Refusal::CannonTakesCannon => "A cannon cannot capture a cannon.",
            Refusal::CannonNeedsScreen => "A cannon needs exactly one piece to jump over.",
            Refusal::CannonOneScreen => "A cannon jumps over one piece only.",
            Refusal::HorseBlocked => "The horse's path is blocked.",
            Refusal::ElephantBlocked => "The elephant's path is blocked.",
            Refusal::PathBlocked => "Something is in the way.",
            Refusal::LeavesPalace => "The general cannot leave the palace.",
            Refusal::SoldierBackward => "A soldier cannot move backwards.",
            Refusal::WrongShape => "That piece does not move like that.",
            Refusal::MustAnswerCheck => "You must answer the check.",
            Refusal::SelfCheck => "That move puts your own general in check.",
            Refusal::Bikjang => "The generals may not be left facing each other.",
            Refusal::PassInCheck => "You cannot pass while in check.",
            Refusal::PassNotAllowed => "Passing is off under these rules.",
            Refusal::Repetition => "That repeats the same position too many times.",
        }
    }
}

fn in_palace(sq: Square) -> bool {
    (3..=5).contains(&sq.file()) && (sq.rank() <= 2 || sq.rank() >= 7)
}

/// The points strictly between `from` and `to` on a line a chariot or a
/// cannon can use (a file, a rank or a palace diagonal), or `None` when
/// they share no such line.
pub fn line_between(from: Square, to: Square) -> Option<Vec<Square>> {
    let df = i16::from(to.file()) - i16::from(from.file());
    let dr = i16::from(to.rank()) - i16::from(from.rank());
    let diagonal = df.abs() == dr.abs() && df != 0;
    let same_palace = in_palace(from)
        && in_palace(to)
        && (from.rank() <= 2) == (to.rank() <= 2)
        && diagonal
        && df.abs() <= 2;
    if diagonal && same_palace {
        // Palace diagonals go through the centre (file 4, rank 1 or 8).
        let centre_rank = if from.rank() <= 2 { 1 } else { 8 };
        let on_diag = |s: Square| {
            (i16::from(s.file()) - 4).abs() == (i16::from(s.rank()) - centre_rank).abs()
        };
        if !on_diag(from) || !on_diag(to) {
            return None;
        }
    } else if df != 0 && dr != 0 {
        return None;
    }
    let steps = df.abs().max(dr.abs());
    let (sf, sr) = (df.signum() as i8, dr.signum() as i8);
    let mut out = Vec::new();
    let mut cur = from;
    for _ in 1..steps {
        cur = cur.offset(sf, sr)?;
        out.push(cur);
    }
    Some(out)
}

/// The cannon's screen (the piece it jumps) for a cannon move, if any.
pub fn cannon_screen(pos: &Position, from: Square, to: Square) -> Option<Square> {
    line_between(from, to)?
        .into_iter()
        .find(|&s| pos.piece_at(s).is_some())
}

/// Why the piece on `from` cannot reach `to` by its own movement (the
/// move is not pseudo-legal).
fn shape_reason(
    pos: &Position,
    from: Square,
    to: Square,
    kind: PieceKind,
    color: Color,
) -> Refusal {
    let df = i16::from(to.file()) - i16::from(from.file());
    let dr = i16::from(to.rank()) - i16::from(from.rank());
    let occupied = |f: i16, r: i16| {
        from.offset(f as i8, r as i8)
            .is_some_and(|s| pos.piece_at(s).is_some())
    };
    match kind {
        PieceKind::General | PieceKind::Guard => {
            if !in_palace(to) || (from.rank() <= 2) != (to.rank() <= 2) {
                Refusal::LeavesPalace
            } else {
                Refusal::WrongShape
            }
        }
        PieceKind::Horse => {
            let (a, b) = (df.abs(), dr.abs());
            if (a, b) == (1, 2) || (a, b) == (2, 1) {
                let leg = if a == 2 {
                    (df.signum(), 0)
                } else {
                    (0, dr.signum())
                };
                if occupied(leg.0, leg.1) {
                    return Refusal::HorseBlocked;
                }
            }
            Refusal::WrongShape
        }
        PieceKind::Elephant => {
            let (a, b) = (df.abs(), dr.abs());
            if (a, b) == (2, 3) || (a, b) == (3, 2) {
                let (sx, sy) = (df.signum(), dr.signum());
                let (first, second) = if a == 3 {
                    ((sx, 0), (2 * sx, sy))
                } else {
                    ((0, sy), (sx, 2 * sy))
                };
                if occupied(first.0, first.1) || occupied(second.0, second.1) {
                    return Refusal::ElephantBlocked;
                }
            }
            Refusal::WrongShape
        }
        PieceKind::Chariot => match line_between(from, to) {
            Some(between) if between.iter().any(|&s| pos.piece_at(s).is_some()) => {
                Refusal::PathBlocked
            }
            _ => Refusal::WrongShape,
        },
        PieceKind::Cannon => {
            let Some(between) = line_between(from, to) else {
                return Refusal::WrongShape;
            };
            let jumped: Vec<Square> = between
                .into_iter()
                .filter(|&s| pos.piece_at(s).is_some())
                .collect();
            let is_cannon =
                |s: Square| pos.piece_at(s).is_some_and(|p| p.kind == PieceKind::Cannon);
            if jumped.iter().any(|&s| is_cannon(s)) {
                Refusal::CannonOverCannon
            } else if jumped.is_empty() {
                Refusal::CannonNeedsScreen
            } else if jumped.len() > 1 {
                Refusal::CannonOneScreen
            } else if is_cannon(to) {
                Refusal::CannonTakesCannon
            } else {
                Refusal::WrongShape
            }
        }
        PieceKind::Soldier => {
            if dr * i16::from(color.forward()) < 0 {
                Refusal::SoldierBackward
            } else {
                Refusal::WrongShape
            }
        }
    }
}

/// Why `mv` (refused by the game) is refused, in the player's terms.
pub fn explain(game: &Game, mv: Move, err: &IllegalMove) -> Refusal {
    if matches!(err, IllegalMove::GameOver) || game.outcome().is_some() {
        return Refusal::GameOver;
    }
    let pos = game.position();
    let side = pos.side_to_move();
    let repeats = game.rules().repetition == RepetitionRule::Forbid
        && game.occurrences_after(mv) >= REPETITION_LIMIT;
    if mv.is_pass() {
        if game.in_check() {
            return Refusal::PassInCheck;
        }
        if !game.rules().allow_pass {
            return Refusal::PassNotAllowed;
        }
        return Refusal::Repetition;
    }
    let (from, to) = (mv.from(), mv.to());
    let Some(piece) = pos.piece_at(from).filter(|p| p.color == side) else {
        return Refusal::NoOwnPiece;
    };
    if pos.piece_at(to).is_some_and(|p| p.color == side) {
        return Refusal::OwnPieceThere;
    }
    if !pos.is_pseudo_legal(mv) {
        return shape_reason(pos, from, to, piece.kind, side);
    }
    if pos.leaves_general_attacked(mv) {
        return if game.in_check() {
            Refusal::MustAnswerCheck
        } else {
            Refusal::SelfCheck
        };
    }
    if pos.is_legal(mv, game.model()) {
        // Legal for the board: the game layer refused it for its history.
        return Refusal::Repetition;
    }
    if repeats {
        Refusal::Repetition
    } else {
        Refusal::Bikjang
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use janggi_core::{Notation, Rules};

    fn refusal(fen: &str, text: &str) -> Refusal {
        let game = Game::new(Position::from_fen(fen).unwrap(), Rules::default());
        let mv = match text {
            "pass" => Move::PASS,
            _ => game.position().parse_move(text, Notation::Uci).unwrap(),
        };
        let err = game.clone().play(mv).unwrap_err();
        explain(&game, mv, &err)
    }

    const START: &str = janggi_core::START_FEN;

    #[test]
    fn start_position_reasons() {
        assert_eq!(refusal(START, "b3b6"), Refusal::CannonNeedsScreen);
        assert_eq!(refusal(START, "b3b9"), Refusal::CannonOverCannon);
        assert_eq!(refusal(START, "b1d2"), Refusal::HorseBlocked);
        assert_eq!(refusal(START, "c1f3"), Refusal::ElephantBlocked);
        assert_eq!(refusal(START, "a1b1"), Refusal::OwnPieceThere);
        assert_eq!(refusal(START, "a5a3"), Refusal::NoOwnPiece);
        assert_eq!(refusal(START, "a4a3"), Refusal::SoldierBackward);
        assert_eq!(refusal(START, "a1c2"), Refusal::WrongShape);
    }

    #[test]
    fn positional_reasons() {
        let lone = "3k5/9/9/9/9/9/9/4K4/9/9 w - - 0 1";
        assert_eq!(refusal(lone, "e3e4"), Refusal::LeavesPalace);
        let checked = "3k5/9/9/9/4r4/9/9/9/4K4/R8 w - - 0 1";
        assert_eq!(refusal(checked, "a1a2"), Refusal::MustAnswerCheck);
        assert_eq!(refusal(checked, "pass"), Refusal::PassInCheck);
        let pinned = "3k5/9/9/9/3r5/9/9/9/4K4/9 w - - 0 1";
        assert_eq!(refusal(pinned, "e2d2"), Refusal::SelfCheck);
        let cannons = "3k5/9/1c7/9/9/1P7/9/1C7/4K4/9 w - - 0 1";
        assert_eq!(refusal(cannons, "b3b8"), Refusal::CannonTakesCannon);
        let two = "3k5/9/9/1p7/9/1P7/9/1C7/4K4/9 w - - 0 1";
        assert_eq!(refusal(two, "b3b8"), Refusal::CannonOneScreen);
    }

    #[test]
    fn lines_and_screens() {
        let sq = |t: &str| Square::parse_uci(t).unwrap();
        assert_eq!(line_between(sq("d1"), sq("f3")), Some(vec![sq("e2")]));
        assert_eq!(line_between(sq("d2"), sq("e3")), None);
        assert_eq!(
            line_between(sq("a1"), sq("a4")),
            Some(vec![sq("a2"), sq("a3")])
        );
        assert_eq!(line_between(sq("a1"), sq("b3")), None);
        let pos = Position::from_fen(START).unwrap();
        assert_eq!(cannon_screen(&pos, sq("b3"), sq("b6")), None);
        assert_eq!(cannon_screen(&pos, sq("h3"), sq("e3")), None);
    }
}
