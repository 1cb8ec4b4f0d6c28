//! Asking the other player: between two humans on one screen a draw offer
//! or an undo is a question ([`Ask`]) that waits ([`Pending`]) until the
//! other player accepts or declines it; nothing happens on one tap.

use janggi_core::Color;

/// What one player asks of the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// To end the game as a draw.
    Draw,
    /// To take back the last move.
    Undo,
}

impl Ask {
    /// The code the page gets.
    pub fn name(self) -> &'static str {
        match self {
            Ask::Draw => "draw",
            Ask::Undo => "undo",
        }
    }

    /// The question in Korean, as the other player reads it.
    pub fn ko(self) -> &'static str {
        match self {
            Ask::Draw => "무승부를 제안했어요. 받을까요?",
            Ask::Undo => "무르기를 청했어요. 들어줄까요?",
        }
    }

    /// The question in English.
    pub fn en(self) -> &'static str {
        match self {
            Ask::Draw => "offers a draw. Accept?",
            Ask::Undo => "asks to take back the last move. Allow?",
        }
    }
}

/// A question waiting for the other player's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pending {
    /// What is asked.
    pub ask: Ask,
    /// Who asked.
    pub by: Color,
}

/// How a question was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answered {
    /// A draw was agreed: the game is over.
    DrawAgreed,
    /// The undo was allowed: this many plies were taken back.
    Undone(usize),
    /// Declined (or withdrawn): nothing changed.
    Declined(Ask),
}

impl Answered {
    /// The Korean sentence for the page.
    pub fn ko(self) -> &'static str {
        match self {
            Answered::DrawAgreed => "무승부에 합의했어요",
            Answered::Undone(_) => "무르기를 받아들였어요",
            Answered::Declined(Ask::Draw) => "무승부 제안을 거절했어요",
            Answered::Declined(Ask::Undo) => "무르기를 거절했어요",
        }
    }

    /// The English sentence.
    pub fn en(self) -> &'static str {
        match self {
            Answered::DrawAgreed => "draw agreed",
            Answered::Undone(_) => "the move was taken back",
            Answered::Declined(Ask::Draw) => "the draw offer was declined",
            Answered::Declined(Ask::Undo) => "the undo was declined",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{GameError, Mode, PhaseError, SetupChoice};
    use crate::session::{Session, Settings};
    use janggi_core::{Notation, Setup};

    fn two_humans() -> Session {
        let settings = Settings {
            mode: Mode::HumanVsHuman,
            ..Settings::default()
        };
        let mut s = Session::new(settings);
        for side in [Color::Han, Color::Cho] {
            s.choose_setup(side, SetupChoice::Named(Setup::Mssm), 0)
                .unwrap();
        }
        s
    }

    fn play(s: &mut Session, uci: &str) {
        let mv = s.game.position().parse_move(uci, Notation::Uci).unwrap();
        s.play_human(mv).unwrap();
    }

    #[test]
    fn a_draw_between_humans_needs_the_other_players_acceptance() {
        let mut s = two_humans();
        play(&mut s, "a4a5");
        let offer = s.offer_draw(None).unwrap();
        assert!(!offer.accept, "one tap does not end the game");
        assert!(s.is_live());
        assert_eq!(
            s.pending,
            Some(Pending {
                ask: Ask::Draw,
                by: Color::Han
            })
        );
        // A second offer while one waits is refused.
        assert_eq!(
            s.offer_draw(None),
            Err(GameError::Phase(PhaseError::AlreadyAsked))
        );
        // Declined: the game goes on, nothing waits.
        assert_eq!(s.answer(false), Ok(Answered::Declined(Ask::Draw)));
        assert!(s.is_live() && s.pending.is_none());
        // Offered again and accepted: a draw.
        s.offer_draw(None).unwrap();
        assert_eq!(s.answer(true), Ok(Answered::DrawAgreed));
        let o = s.game.outcome().expect("over");
        assert_eq!(o.winner, None);
        assert_eq!(
            s.answer(true),
            Err(GameError::Phase(PhaseError::NothingAsked))
        );
    }

    #[test]
    fn an_undo_between_humans_needs_the_other_players_acceptance() {
        let mut s = two_humans();
        play(&mut s, "a4a5");
        play(&mut s, "a7a6");
        assert_eq!(s.ask_undo(), Ok(None), "asked, not undone");
        assert_eq!(s.record.len(), 2);
        assert_eq!(s.answer(false), Ok(Answered::Declined(Ask::Undo)));
        assert_eq!(s.record.len(), 2);
        assert_eq!(s.undo_used, 0, "a declined undo costs nothing");
        assert_eq!(s.ask_undo(), Ok(None));
        assert_eq!(s.answer(true), Ok(Answered::Undone(1)));
        assert_eq!(s.record.len(), 1);
        assert_eq!(s.undo_used, 1);
        // A move answers a waiting question by ignoring it.
        assert_eq!(s.ask_undo(), Ok(None));
        play(&mut s, "a7a6");
        assert_eq!(s.pending, None);
        // Nothing to take back is refused before asking.
        let mut fresh = two_humans();
        assert_eq!(
            fresh.ask_undo(),
            Err(GameError::Phase(PhaseError::NothingToTakeBack))
        );
        assert_eq!(fresh.pending, None);
    }

    #[test]
    fn against_the_engine_nothing_waits() {
        let mut s = Session::on_a_byoyomi_clock(crate::session::Level::Easy);
        play(&mut s, "a4a5");
        s.play(
            s.game.position().parse_move("a7a6", Notation::Uci).unwrap(),
            true,
        )
        .unwrap();
        assert_eq!(s.ask_undo(), Ok(Some(2)));
        assert_eq!(s.pending, None);
    }
}
