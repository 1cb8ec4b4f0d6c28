//! What the player is warned of before one tap ends the game: a pass that
//! ends it at once or lets a reply pass end it on points ([`pass_warning`]),
//! and a pending bikjang that ends it on points unless it is answered
//! ([`bikjang_warning`]). The referee is asked (on a copy of the game);
//! nothing here knows the rules.

use janggi_core::{Game, Move, Outcome};

/// How a game would end, and when.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// The end comes with this very pass (or unanswered bikjang), not
    /// only after the opponent's reply pass.
    pub at_once: bool,
    /// The result it would have.
    pub outcome: Outcome,
}

impl Warning {
    /// The Korean sentence for the pass modal or the bikjang marker.
    pub fn ko(&self, bikjang: bool) -> String {
        let result = self.outcome.summary_ko();
        match (bikjang, self.at_once) {
            (true, _) => format!("빅장을 풀지 않으면 대국이 끝나요: {result}"),
            (false, true) => format!("지금 쉬면 대국이 바로 끝나요: {result}"),
            (false, false) => format!("상대도 쉬면 대국이 끝나요: {result}"),
        }
    }

    /// The English sentence.
    pub fn en(&self, bikjang: bool) -> String {
        let result = self.outcome.summary_en();
        match (bikjang, self.at_once) {
            (true, _) => format!("unless the bikjang is broken the game ends: {result}"),
            (false, true) => format!("passing now ends the game: {result}"),
            (false, false) => format!("if the opponent passes back the game ends: {result}"),
        }
    }
}

/// What a pass by the side to move would lead to: the game ends at once
/// (a pass answering a pass, or an unanswered bikjang), or ends if the
/// opponent passes back; `None` when neither (or the pass is not legal).
pub fn pass_warning(game: &Game) -> Option<Warning> {
    if game.outcome().is_some() || !game.is_legal(Move::PASS) {
        return None;
    }
    let mut g = game.clone();
    if let Some(outcome) = g.outcome_after(Move::PASS) {
        return Some(Warning {
            at_once: true,
            outcome,
        });
    }
    g.play(Move::PASS).ok()?;
    g.outcome_after(Move::PASS).map(|outcome| Warning {
        at_once: false,
        outcome,
    })
}

/// A pending bikjang that the side to move must break: the result if it
/// does not (the referee's, by counting).
pub fn bikjang_warning(game: &Game) -> Option<Warning> {
    let pending = game.pending_bikjang()?;
    if game.outcome().is_some() || pending.called_by == game.side_to_move() {
        return None;
    }
    game.clone()
        .outcome_after(Move::PASS)
        .map(|outcome| Warning {
            at_once: true,
            outcome,
        })
}
