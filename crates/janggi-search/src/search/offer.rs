//! Draw and count offers: when the engine agrees to end a game early.
//!
//! Under rule sets where nothing ends a dead endgame (`janggikjf`, the
//! default: no move limit, no n-move rule) a game between a person and the
//! engine can go on forever; the way out is an offer. A protocol that has
//! offers (CECP's `draw`) asks [`answer_offer`], through
//! [`crate::engine::Engine::answer_offer`]; the engine agrees only
//!
//! * to a **count** (ending the game now by counting, 점수 판정) when the
//!   count favours it: its points beat the opponent's, Han's 1.5 deom
//!   included. Without scoring a count is a draw and is judged as one;
//! * to a **draw** when the position is dead by its own search: its latest
//!   score for this position is within [`DEAD_SCORE_CP`] of equal (no mate
//!   either way) and [`DEAD_PLIES`] plies have passed without a capture —
//!   unless the count favours it, in which case it declines and the
//!   protocol may offer a count instead ([`OfferReason::CountFavours`]);
//! * to a **draw**, at once and whatever the score, when neither side has
//!   anything but its general and guards: both stay in their own palaces,
//!   so neither can ever give check, let alone mate
//!   ([`OfferReason::NoMatingMaterial`]); again unless the count favours
//!   the engine.
//!
//! Without a score (no search of this position yet) a draw is declined,
//! except in the bare ending above.
//!
//! ```
//! use janggi_core::{Game, Rules};
//! use janggi_search::search::offer::{answer_offer, Offer, OfferReason};
//! use janggi_search::search::ReportScore;
//! use janggi_core::{Color, Position};
//! // Han is a chariot up; nothing has been captured for 80 plies.
//! let pos = Position::from_fen("3k1r3/9/9/9/9/9/9/9/9/4K4 w - - 80 41").unwrap();
//! let game = Game::new(pos, Rules::default());
//! let han = answer_offer(&game, Color::Han, Offer::Count, None);
//! assert!(han.accept);
//! let cho = answer_offer(&game, Color::Cho, Offer::Count, None);
//! assert_eq!((cho.accept, cho.reason), (false, OfferReason::CountAgainst));
//! // Cho, behind on the count, takes a draw in a dead position.
//! let draw = answer_offer(&game, Color::Cho, Offer::Draw, Some(ReportScore::Cp(0)));
//! assert_eq!((draw.accept, draw.reason), (true, OfferReason::Dead));
//! ```

use super::ReportScore;
use janggi_core::{Color, Game, PieceKind, Position};

/// Whether neither side has a piece that could ever attack the enemy
/// general: only generals and guards are left, and those never leave
/// their own palace.
pub fn no_mating_material(pos: &Position) -> bool {
    Color::BOTH.iter().all(|&c| {
        PieceKind::ALL
            .iter()
            .filter(|&&k| k != PieceKind::General && k != PieceKind::Guard)
            .all(|&k| pos.pieces(c, k).is_empty())
    })
}

/// A search score within this many centipawns of equal counts as "no side
/// is making progress".
pub const DEAD_SCORE_CP: i32 = 50;

/// Plies without a capture before a position can count as dead (30 moves
/// each: a side that could make progress would have captured by then).
pub const DEAD_PLIES: u32 = 60;

/// What the opponent offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// End the game as a draw.
    Draw,
    /// End the game now by counting (a draw when the rule set does not
    /// score).
    Count,
}

/// Why the engine answered as it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferReason {
    /// The game is already over.
    GameOver,
    /// The count favours the engine (a count is accepted; a draw is
    /// declined, since counting would win).
    CountFavours,
    /// The count favours the opponent.
    CountAgainst,
    /// The position is dead by the engine's own search.
    Dead,
    /// Only generals and guards are left: nobody can ever mate.
    NoMatingMaterial,
    /// The engine's search still sees play (or has no score yet).
    NotDead,
}

impl OfferReason {
    /// A short English phrase for logs and `info string` lines.
    pub const fn text(self) -> &'static str {
        match self {
            OfferReason::GameOver => "the game is over",
            OfferReason::CountFavours => "the count favours the engine",
            OfferReason::CountAgainst => "the count favours the opponent",
            OfferReason::Dead => "the position is dead by the engine's search",
            OfferReason::NoMatingMaterial => "only generals and guards are left: no side can mate",
            OfferReason::NotDead => "the engine's search still sees play",
        }
    }
}

/// The engine's answer to an offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OfferDecision {
    /// Whether the engine agrees.
    pub accept: bool,
    /// Why.
    pub reason: OfferReason,
}

impl OfferDecision {
    const fn new(accept: bool, reason: OfferReason) -> OfferDecision {
        OfferDecision { accept, reason }
    }
}

/// Whether the engine, playing `me` in `game`, agrees to `offer`.
/// `score` is its latest search score for the current position, from
/// `me`'s point of view (`None`: not searched yet). See the module docs.
pub fn answer_offer(
    game: &Game,
    me: Color,
    offer: Offer,
    score: Option<ReportScore>,
) -> OfferDecision {
    if game.is_over() {
        return OfferDecision::new(false, OfferReason::GameOver);
    }
    let scoring = game.rules().scoring;
    let count_favours = scoring && game.score_halves(me) > game.score_halves(!me);
    if offer == Offer::Count && scoring {
        return if count_favours {
            OfferDecision::new(true, OfferReason::CountFavours)
        } else {
            OfferDecision::new(false, OfferReason::CountAgainst)
        };
    }
    // A draw, or a count that is a draw.
    if count_favours {
        return OfferDecision::new(false, OfferReason::CountFavours);
    }
    if no_mating_material(game.position()) {
        return OfferDecision::new(true, OfferReason::NoMatingMaterial);
    }
    let level = matches!(score, Some(ReportScore::Cp(cp)) if cp.abs() <= DEAD_SCORE_CP);
    if level && game.position().halfmove_clock() >= DEAD_PLIES {
        OfferDecision::new(true, OfferReason::Dead)
    } else {
        OfferDecision::new(false, OfferReason::NotDead)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use janggi_core::{Position, Rules};

    /// Cho: general and horse (5); Han: general and cannon (7 + 1.5).
    fn game(halfmove: u32, rules: Rules) -> Game {
        let fen = format!("3k1c3/9/9/9/9/9/9/9/9/3K1N3 w - - {halfmove} 50");
        Game::new(Position::from_fen(&fen).expect("FEN"), rules)
    }

    #[test]
    fn count_offers_follow_the_count() {
        let g = game(0, Rules::default());
        assert!(answer_offer(&g, Color::Han, Offer::Count, None).accept);
        assert_eq!(
            answer_offer(&g, Color::Cho, Offer::Count, Some(ReportScore::Cp(0))),
            OfferDecision::new(false, OfferReason::CountAgainst)
        );
    }

    #[test]
    fn draw_offers_need_a_dead_position() {
        let dead = Some(ReportScore::Cp(-DEAD_SCORE_CP));
        let g = game(DEAD_PLIES, Rules::default());
        assert_eq!(
            answer_offer(&g, Color::Cho, Offer::Draw, dead),
            OfferDecision::new(true, OfferReason::Dead)
        );
        // Ahead on the count: count instead.
        assert_eq!(
            answer_offer(&g, Color::Han, Offer::Draw, dead).reason,
            OfferReason::CountFavours
        );
        // The search still sees play, or has not looked, or a capture was recent.
        for score in [
            Some(ReportScore::Cp(DEAD_SCORE_CP + 1)),
            Some(ReportScore::Mate(-3)),
            None,
        ] {
            assert!(!answer_offer(&g, Color::Cho, Offer::Draw, score).accept);
        }
        let fresh = game(DEAD_PLIES - 1, Rules::default());
        assert!(!answer_offer(&fresh, Color::Cho, Offer::Draw, dead).accept);
    }

    #[test]
    fn without_scoring_a_count_is_a_draw() {
        let rules = Rules {
            scoring: false,
            ..Rules::default()
        };
        let g = game(DEAD_PLIES, rules);
        let level = Some(ReportScore::Cp(0));
        // Han leads on points, but points decide nothing: a dead draw.
        assert!(answer_offer(&g, Color::Han, Offer::Count, level).accept);
        assert!(!answer_offer(&g, Color::Han, Offer::Count, Some(ReportScore::Cp(400))).accept);
    }

    #[test]
    fn bare_generals_and_guards_are_dead_at_once() {
        let fen = "3ak4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1";
        let casual = Rules::from_variant("janggicasual").expect("variant");
        let g = Game::new(Position::from_fen(fen).expect("FEN"), casual);
        assert!(no_mating_material(g.position()));
        // Whatever the search said, and right after a capture.
        assert_eq!(
            answer_offer(&g, Color::Cho, Offer::Draw, Some(ReportScore::Cp(-284))),
            OfferDecision::new(true, OfferReason::NoMatingMaterial)
        );
        // With counting, the side ahead on points still declines.
        let g = Game::new(Position::from_fen(fen).expect("FEN"), Rules::default());
        assert_eq!(
            answer_offer(&g, Color::Han, Offer::Draw, None).reason,
            OfferReason::CountFavours
        );
        // A single soldier keeps the game alive.
        let p = Position::from_fen("3ak4/9/9/9/9/9/4P4/9/4A4/4K4 w - - 0 1").expect("FEN");
        assert!(!no_mating_material(&p));
    }

    #[test]
    fn nothing_after_the_end() {
        let mut g = game(DEAD_PLIES, Rules::default());
        g.resign(Color::Cho).expect("resign");
        assert_eq!(
            answer_offer(&g, Color::Han, Offer::Count, None).reason,
            OfferReason::GameOver
        );
    }
}
