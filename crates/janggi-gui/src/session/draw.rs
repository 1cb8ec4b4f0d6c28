//! Draw offers: against the engine the answer is the engine's own offer
//! rule ([`engine_answers_draw`]), fed with its last reported score.

use janggi_core::{Color, Game, PieceKind};

/// A search score within this many centipawns of equal counts as "no side
/// is making progress" (the engine's `DEAD_SCORE_CP`, src/search/offer.rs).
pub const DEAD_SCORE_CP: i32 = 50;
/// Plies without a capture before a position can count as dead (the
/// engine's `DEAD_PLIES`).
pub const DEAD_PLIES: u32 = 60;

/// Why the engine answered a draw offer as it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    /// Two humans: agreed.
    Agreed,
    /// Two humans: offered, waiting for the other player.
    Offered,
    /// The count favours the engine: it would rather win by counting.
    CountFavours,
    /// Dead by its own search: level score, no capture for a long time.
    Dead,
    /// Only generals and guards are left: nobody can mate.
    NoMatingMaterial,
    /// Its search still sees play (or it has no score yet).
    NotDead,
}

impl DrawReason {
    /// The code the page gets.
    pub fn name(self) -> &'static str {
        match self {
            DrawReason::Agreed => "agreed",
            DrawReason::Offered => "offered",
            DrawReason::CountFavours => "countFavours",
            DrawReason::Dead => "dead",
            DrawReason::NoMatingMaterial => "noMatingMaterial",
            DrawReason::NotDead => "notDead",
        }
    }
    /// In Korean.
    pub fn ko(self) -> &'static str {
        match self {
            DrawReason::Agreed => "무승부에 합의했어요",
            DrawReason::Offered => "무승부를 제안했어요: 상대가 받아야 끝나요",
            DrawReason::CountFavours => "엔진이 거절했어요: 점수로는 엔진이 앞서요",
            DrawReason::Dead => "엔진이 받아들였어요: 더 둘 수가 없는 판이에요",
            DrawReason::NoMatingMaterial => "엔진이 받아들였어요: 궁과 사만 남았어요",
            DrawReason::NotDead => "엔진이 거절했어요: 아직 둘 수가 있어요",
        }
    }
    /// In English.
    pub fn en(self) -> &'static str {
        match self {
            DrawReason::Agreed => "draw agreed",
            DrawReason::Offered => "draw offered: the other player must accept",
            DrawReason::CountFavours => "declined: the count favours the engine",
            DrawReason::Dead => "accepted: the position is dead by the engine's search",
            DrawReason::NoMatingMaterial => "accepted: only generals and guards are left",
            DrawReason::NotDead => "declined: the engine's search still sees play",
        }
    }
}

/// The answer to a draw offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAnswer {
    /// Agreed?
    pub accept: bool,
    /// Why.
    pub reason: DrawReason,
}

/// The engine's draw-offer rule (this engine's `answer_offer` for
/// `Offer::Draw`, src/search/offer.rs, which CECP's `draw` asks), for
/// the engine playing `me`, from its last reported score `cho_cp`
/// (centipawns from Cho's side; mates beyond ±90 000):
///
/// * the count favours the engine (scoring on, its points ahead, Han's
///   deom included): declined, it wins by counting;
/// * only generals and guards are left: accepted;
/// * its score within ±[`DEAD_SCORE_CP`] and [`DEAD_PLIES`] plies
///   without a capture: accepted;
/// * otherwise (or without a score) declined.
pub fn engine_answers_draw(game: &Game, me: Color, cho_cp: Option<i32>) -> DrawAnswer {
    let answer = |accept, reason| DrawAnswer { accept, reason };
    let scoring = game.rules().scoring;
    if scoring && game.score_halves(me) > game.score_halves(!me) {
        return answer(false, DrawReason::CountFavours);
    }
    let pos = game.position();
    let bare = Color::BOTH.iter().all(|&c| {
        PieceKind::ALL
            .iter()
            .filter(|&&k| k != PieceKind::General && k != PieceKind::Guard)
            .all(|&k| pos.pieces(c, k).is_empty())
    });
    if bare {
        return answer(true, DrawReason::NoMatingMaterial);
    }
    let level = cho_cp.is_some_and(|cp| cp.abs() <= DEAD_SCORE_CP);
    if level && pos.halfmove_clock() >= DEAD_PLIES {
        answer(true, DrawReason::Dead)
    } else {
        answer(false, DrawReason::NotDead)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use janggi_core::{Position, Rules};

    fn game(fen: &str) -> Game {
        Game::new(Position::from_fen(fen).expect("FEN"), Rules::default())
    }

    /// The same cases as the engine's own `answer_offer` (src/search/offer.rs).
    #[test]
    fn the_draw_rule_is_the_engines() {
        // Han is a chariot up; nothing captured for 80 plies.
        let g = game("3k1r3/9/9/9/9/9/9/9/9/4K4 w - - 80 41");
        assert_eq!(
            engine_answers_draw(&g, Color::Han, Some(0)),
            DrawAnswer {
                accept: false,
                reason: DrawReason::CountFavours
            }
        );
        assert_eq!(
            engine_answers_draw(&g, Color::Cho, Some(0)),
            DrawAnswer {
                accept: true,
                reason: DrawReason::Dead
            }
        );
        // Not level, no score, or too recent a capture: declined.
        for (score, halfmove) in [
            (Some(51), 80),
            (None, 80),
            (Some(0), 59),
            (Some(99_990), 80),
        ] {
            let g = game(&format!("3k1r3/9/9/9/9/9/9/9/9/4K4 w - - {halfmove} 41"));
            assert_eq!(
                engine_answers_draw(&g, Color::Cho, score).reason,
                DrawReason::NotDead,
                "{score:?} {halfmove}"
            );
        }
        // Generals and guards only: accepted at once, whatever the score,
        // unless the count favours the engine (Han's 1.5 deom).
        let bare = game("3ka4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1");
        assert!(engine_answers_draw(&bare, Color::Cho, Some(500)).accept);
        assert_eq!(
            engine_answers_draw(&bare, Color::Han, None).reason,
            DrawReason::CountFavours
        );
    }
}
