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

#[cfg(test)]
mod tests {
    use super::*;
    use janggi_core::{Color, Notation, Position, Rules};

    fn game(fen: &str) -> Game {
        Game::new(Position::from_fen(fen).expect("FEN"), Rules::default())
    }

    #[test]
    fn a_pass_warns_when_a_reply_pass_ends_the_game_and_with_which_score() {
        // The start: Cho 72, Han 73.5 with the deom. Cho's pass lets Han
        // pass back and win on points.
        let mut g = game(janggi_core::START_FEN);
        let w = pass_warning(&g).expect("a warning");
        assert!(!w.at_once);
        assert_eq!(w.outcome.winner, Some(Color::Han));
        assert_eq!(
            w.ko(false),
            "상대도 쉬면 대국이 끝나요: 한 판정승 73.5 : 72 (연속 한수쉼)"
        );
        assert!(w.en(false).starts_with("if the opponent passes back"));
        // After Cho's pass, Han's pass ends the game at once.
        g.play(Move::PASS).unwrap();
        let w = pass_warning(&g).expect("a warning");
        assert!(w.at_once);
        assert!(w
            .ko(false)
            .starts_with("지금 쉬면 대국이 바로 끝나요: 한 판정승"));
        // After a move there is nothing to pass back to at once.
        let mut g = game(janggi_core::START_FEN);
        let mv = g.position().parse_move("a4a5", Notation::Uci).unwrap();
        g.play(mv).unwrap();
        assert!(!pass_warning(&g).expect("Han's pass").at_once);
    }

    #[test]
    fn no_pass_warning_where_no_pass_is_allowed() {
        let rules = Rules {
            allow_pass: false,
            ..Rules::default()
        };
        let g = Game::new(Position::startpos(), rules);
        assert_eq!(pass_warning(&g), None);
        // In check a pass is not legal either.
        let checked = game("3k5/9/9/9/4r4/9/9/9/4K4/R8 w - - 0 1");
        assert_eq!(pass_warning(&checked), None);
    }

    #[test]
    fn a_pending_bikjang_warns_of_the_count() {
        // Generals and a guard each (KJF: pieces already missing at the
        // start count as a capture); Cho's general steps onto Han's file.
        let mut g = game("3k5/4a4/9/9/9/9/9/9/4A4/4K4 w - - 0 1");
        assert_eq!(bikjang_warning(&g), None);
        let mv = g.position().parse_move("e1d1", Notation::Uci).unwrap();
        let events = g.play(mv).unwrap();
        assert!(g.pending_bikjang().is_some(), "{events:?}");
        let w = bikjang_warning(&g).expect("a warning for Han");
        assert!(w.at_once);
        // Han 4.5 (guard and deom) against Cho's 3: Han wins the count.
        assert_eq!(w.outcome.winner, Some(Color::Han));
        assert!(
            w.ko(true)
                .starts_with("빅장을 풀지 않으면 대국이 끝나요: 한 판정승"),
            "{}",
            w.ko(true)
        );
        // Han breaks it: no warning any more.
        let mv = g.position().parse_move("d10e10", Notation::Uci).unwrap();
        g.play(mv).unwrap();
        assert_eq!(bikjang_warning(&g), None);
    }
}
