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
