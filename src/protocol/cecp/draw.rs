//! Whether to accept a draw offer (CECP `draw`, answered `offer draw`).
//!
//! Under rule sets where nothing ends a dead endgame (no move limit, no
//! n-move rule), a player needs a way out; the engine agrees only when a
//! draw costs it nothing by its own judgement:
//!
//! * **dead position**: its search score is within [`DEAD_MARGIN_CP`] of
//!   0 and either little material is left (each side at most
//!   [`LITTLE_MATERIAL`] points besides the general) or nothing has been
//!   captured for [`NO_PROGRESS_PLIES`] plies;
//! * **the count favours the draw**: the rule set decides endings by
//!   counting, the engine is behind on the count (Han's total includes the
//!   1.5-point deom), so a game ended by counting now would be lost, and
//!   its search does not see it better (score ≤ [`COUNT_MARGIN_CP`]).
//!
//! Otherwise the offer is ignored, as CECP allows. A won score (mate or a
//! rule win for the engine) never accepts; a lost one accepts only by the
//! count.

use crate::game::Game;
use crate::search::ReportScore;
use crate::types::Color;

/// `|score|` at most this (centipawns) is a dead-even position.
pub const DEAD_MARGIN_CP: i32 = 50;
/// At most this much material per side (points without the general:
/// chariot 13, cannon 7, horse 5, elephant 3, guard 3, soldier 2) is
/// little material.
pub const LITTLE_MATERIAL: u32 = 10;
/// This many plies without a capture is no progress.
pub const NO_PROGRESS_PLIES: u32 = 40;
/// Behind on the count, the engine accepts while its score is at most this.
pub const COUNT_MARGIN_CP: i32 = 0;

/// Why a draw offer is accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accept {
    /// The position is dead by the engine's search.
    Dead,
    /// The engine is behind on the count and not better by its search.
    Count,
}

/// Whether `engine` (the side the engine plays) accepts a draw in `game`,
/// given its search `score` from its own point of view (`None`: no
/// search, which never accepts).
pub fn accept_draw(game: &Game, engine: Color, score: Option<ReportScore>) -> Option<Accept> {
    if game.is_over() {
        return None;
    }
    let cp = match score? {
        // Being mated: as bad as it gets (only the count rule can accept).
        ReportScore::Mate(n) if n <= 0 => -crate::search::MATE,
        ReportScore::Mate(_) => return None,
        ReportScore::Cp(cp) if cp >= crate::search::WIN_BOUND => return None,
        ReportScore::Cp(cp) => cp,
    };
    let pos = game.position();
    let little = Color::BOTH
        .iter()
        .all(|&c| pos.material(c) <= LITTLE_MATERIAL);
    let stuck = pos.halfmove_clock() >= NO_PROGRESS_PLIES;
    if cp.abs() <= DEAD_MARGIN_CP && (little || stuck) {
        return Some(Accept::Dead);
    }
    if game.rules().scoring
        && game.score_halves(engine) < game.score_halves(!engine)
        && cp <= COUNT_MARGIN_CP
    {
        return Some(Accept::Count);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;
    use crate::rules::Position;

    fn game(fen: &str, rules: Rules) -> Game {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        Game::new(pos, rules)
    }

    #[test]
    fn dead_even_with_little_material_accepts() {
        // Generals and one guard each: 3 points a side.
        let g = game("3ak4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", Rules::default());
        assert_eq!(
            accept_draw(&g, Color::Cho, Some(ReportScore::Cp(5))),
            Some(Accept::Dead)
        );
        assert_eq!(accept_draw(&g, Color::Cho, None), None);
        assert_eq!(
            accept_draw(&g, Color::Cho, Some(ReportScore::Mate(4))),
            None
        );
    }

    #[test]
    fn ahead_on_count_and_material_refuses() {
        // Cho has an extra chariot: ahead on the count and by its search.
        let g = game("3ak4/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1", Rules::default());
        assert_eq!(
            accept_draw(&g, Color::Cho, Some(ReportScore::Cp(900))),
            None
        );
        assert_eq!(accept_draw(&g, Color::Cho, Some(ReportScore::Cp(0))), None);
        // Han, behind on the count and worse by its search, accepts.
        assert_eq!(
            accept_draw(&g, Color::Han, Some(ReportScore::Cp(-900))),
            Some(Accept::Count)
        );
        // Without counting, being behind on the count is no reason.
        let casual = Rules::from_variant("janggicasual").unwrap_or_default();
        let g = game("3ak4/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1", casual);
        assert_eq!(
            accept_draw(&g, Color::Han, Some(ReportScore::Cp(-900))),
            None
        );
    }
}
