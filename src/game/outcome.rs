//! Game results.

use crate::types::Color;

/// Why a game ended (the spec's §8.6 names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// 외통.
    Checkmate,
    /// 기권.
    Resign,
    /// 시간패.
    TimeLoss,
    /// 반복수 실격패.
    RepetitionLoss,
    /// 빅장 점수 판정.
    ScoreBikjang,
    /// 연속 한수쉼 점수 판정.
    ScorePasses,
    /// 수 제한 점수 판정.
    ScoreMoveLimit,
    /// 반복수 점수 판정.
    ScoreRepetition,
    /// 빅장 무승부.
    DrawBikjang,
    /// 연속 한수쉼 무승부.
    DrawPasses,
    /// 반복수 무승부.
    DrawRepetition,
    /// 수 제한 무승부.
    DrawMoveLimit,
    /// 합의 무승부.
    DrawAgreed,
}

impl EndReason {
    /// The spec's name (`checkmate`, `scoreBikjang`, …).
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Resign => "resign",
            EndReason::TimeLoss => "timeLoss",
            EndReason::RepetitionLoss => "repetitionLoss",
            EndReason::ScoreBikjang => "scoreBikjang",
            EndReason::ScorePasses => "scorePasses",
            EndReason::ScoreMoveLimit => "scoreMoveLimit",
            EndReason::ScoreRepetition => "scoreRepetition",
            EndReason::DrawBikjang => "drawBikjang",
            EndReason::DrawPasses => "drawPasses",
            EndReason::DrawRepetition => "drawRepetition",
            EndReason::DrawMoveLimit => "drawMoveLimit",
            EndReason::DrawAgreed => "drawAgreed",
        }
    }
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
    /// Cho's points (material).
    pub cho_points: f64,
    /// Han's points (material + 1.5 deom).
    pub han_points: f64,
    /// Plies played.
    pub move_count: u32,
}

impl Outcome {
    /// Korean summary in the spec's style (`초 외통승 (63수)`,
    /// `한 판정승 55.5 : 50 (빅장)`).
    pub fn summary_ko(&self) -> String {
        match self.winner {
            Some(c) => format!("{} {} ({}수)", c.korean(), self.reason.name(), self.move_count),
            None => format!("무승부 ({})", self.reason.name()),
        }
    }

    /// English summary.
    pub fn summary_en(&self) -> String {
        match self.winner {
            Some(c) => format!("{} wins by {} after {} plies", c.name(), self.reason.name(), self.move_count),
            None => format!("draw by {}", self.reason.name()),
        }
    }
}
