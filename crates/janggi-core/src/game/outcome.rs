//! Game results (the spec's §6 and §8.6): winner, reason, both scores and
//! the summaries.
//!
//! ```
//! use janggi_core::{EndReason, Outcome};
//! use janggi_core::Color;
//! // The spec's worked example: Cho 50, Han 54 + 1.5 = 55.5 after bikjang.
//! let o = Outcome::by_counting(100, 111, true, EndReason::ScoreBikjang, EndReason::DrawBikjang, 80);
//! assert_eq!(o.winner, Some(Color::Han));
//! assert_eq!(o.summary_ko(), "한 판정승 55.5 : 50 (빅장)");
//! ```

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
    /// 반복수 실격패 (under Fairy-Stockfish's rules also perpetual check and
    /// the Kakao move-repetition rule).
    RepetitionLoss,
    /// 빅장 점수 판정.
    ScoreBikjang,
    /// 연속 한수쉼 점수 판정.
    ScorePasses,
    /// 수 제한 점수 판정 (also Fairy-Stockfish's n-move rule).
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
    /// Every reason.
    pub const ALL: [EndReason; 13] = [
        EndReason::Checkmate,
        EndReason::Resign,
        EndReason::TimeLoss,
        EndReason::RepetitionLoss,
        EndReason::ScoreBikjang,
        EndReason::ScorePasses,
        EndReason::ScoreMoveLimit,
        EndReason::ScoreRepetition,
        EndReason::DrawBikjang,
        EndReason::DrawPasses,
        EndReason::DrawRepetition,
        EndReason::DrawMoveLimit,
        EndReason::DrawAgreed,
    ];

    /// The reason with the spec's name `name`, if any.
    pub fn from_name(name: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.name() == name)
    }

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

    /// Whether the game was decided by counting the material (판정).
    pub const fn is_counting(self) -> bool {
        matches!(
            self,
            EndReason::ScoreBikjang
                | EndReason::ScorePasses
                | EndReason::ScoreMoveLimit
                | EndReason::ScoreRepetition
        )
    }

    /// Whether this reason always means a draw.
    pub const fn is_draw(self) -> bool {
        matches!(
            self,
            EndReason::DrawBikjang
                | EndReason::DrawPasses
                | EndReason::DrawRepetition
                | EndReason::DrawMoveLimit
                | EndReason::DrawAgreed
        )
    }

    /// The occasion in Korean, as the summaries name it (빅장, 연속 한수쉼, …).
    const fn occasion_ko(self) -> &'static str {
        match self {
            EndReason::Checkmate => "외통",
            EndReason::Resign => "기권",
            EndReason::TimeLoss => "시간",
            EndReason::RepetitionLoss => "반복수",
            EndReason::ScoreBikjang | EndReason::DrawBikjang => "빅장",
            EndReason::ScorePasses | EndReason::DrawPasses => "연속 한수쉼",
            EndReason::ScoreMoveLimit | EndReason::DrawMoveLimit => "수 제한",
            EndReason::ScoreRepetition | EndReason::DrawRepetition => "반복수",
            EndReason::DrawAgreed => "합의",
        }
    }

    /// The occasion in English.
    const fn occasion_en(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Resign => "resignation",
            EndReason::TimeLoss => "time",
            EndReason::RepetitionLoss => "repetition",
            EndReason::ScoreBikjang | EndReason::DrawBikjang => "bikjang",
            EndReason::ScorePasses | EndReason::DrawPasses => "two passes in a row",
            EndReason::ScoreMoveLimit | EndReason::DrawMoveLimit => "move limit",
            EndReason::ScoreRepetition | EndReason::DrawRepetition => "repetition",
            EndReason::DrawAgreed => "agreement",
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

/// Formats half points: `111` → `55.5`, `100` → `50`.
fn points_text(halves: u32) -> String {
    if halves % 2 == 0 {
        format!("{}", halves / 2)
    } else {
        format!("{}.5", halves / 2)
    }
}

/// `1 ply`, `63 plies`.
fn plies_text(n: u32) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// Points (a multiple of 0.5) back to half points.
fn halves_of(points: f64) -> u32 {
    let h = (points * 2.0).round();
    if h.is_finite() && h > 0.0 {
        h as u32
    } else {
        0
    }
}

impl Outcome {
    /// A result by counting (판정): both scores in half points (Han's with
    /// the deom). With `scoring` the higher score wins (the deom makes ties
    /// impossible; a tie, which only odd inputs give, is a draw); without
    /// it the game is a draw with reason `draw_reason`.
    pub fn by_counting(
        cho_halves: u32,
        han_halves: u32,
        scoring: bool,
        score_reason: EndReason,
        draw_reason: EndReason,
        move_count: u32,
    ) -> Outcome {
        let winner = if !scoring || cho_halves == han_halves {
            None
        } else if cho_halves > han_halves {
            Some(Color::Cho)
        } else {
            Some(Color::Han)
        };
        Outcome {
            winner,
            reason: if scoring { score_reason } else { draw_reason },
            cho_points: f64::from(cho_halves) / 2.0,
            han_points: f64::from(han_halves) / 2.0,
            move_count,
        }
    }

    /// A win of `winner` for `reason` (checkmate, resignation, …).
    pub fn win(
        winner: Color,
        reason: EndReason,
        cho_halves: u32,
        han_halves: u32,
        move_count: u32,
    ) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
            cho_points: f64::from(cho_halves) / 2.0,
            han_points: f64::from(han_halves) / 2.0,
            move_count,
        }
    }

    /// A draw for `reason`.
    pub fn draw(reason: EndReason, cho_halves: u32, han_halves: u32, move_count: u32) -> Outcome {
        Outcome {
            winner: None,
            reason,
            cho_points: f64::from(cho_halves) / 2.0,
            han_points: f64::from(han_halves) / 2.0,
            move_count,
        }
    }

    /// `cho`, `han` or `draw` (the protocol's `result` word).
    pub const fn winner_name(&self) -> &'static str {
        match self.winner {
            Some(c) => c.name(),
            None => "draw",
        }
    }

    /// `points` of `color` as text (`55.5`, `50`).
    pub fn points_text(&self, color: Color) -> String {
        points_text(halves_of(match color {
            Color::Cho => self.cho_points,
            Color::Han => self.han_points,
        }))
    }

    /// Korean summary in the spec's style: `초 외통승 (63수)`,
    /// `한 판정승 55.5 : 50 (빅장)` (the winner's score first),
    /// `무승부 (빅장)`, `초 기권승 (40수)`, `한 반칙승 (반복수, 88수)`.
    pub fn summary_ko(&self) -> String {
        let n = self.move_count;
        match self.winner {
            Some(w) => {
                let side = w.korean();
                match self.reason {
                    EndReason::Checkmate => format!("{side} 외통승 ({n}수)"),
                    EndReason::Resign => format!("{side} 기권승 ({n}수)"),
                    EndReason::TimeLoss => format!("{side} 시간승 ({n}수)"),
                    EndReason::RepetitionLoss => format!("{side} 반칙승 (반복수, {n}수)"),
                    r => format!(
                        "{side} 판정승 {} : {} ({})",
                        self.points_text(w),
                        self.points_text(!w),
                        r.occasion_ko()
                    ),
                }
            }
            None => format!("무승부 ({})", self.reason.occasion_ko()),
        }
    }

    /// English summary: `Cho wins by checkmate (63 plies)`,
    /// `Han wins on points 55.5 : 50 (bikjang)`, `Draw (two passes in a
    /// row)`, `Draw by agreement`.
    pub fn summary_en(&self) -> String {
        let n = plies_text(self.move_count);
        match self.winner {
            Some(w) => {
                let side = match w {
                    Color::Cho => "Cho",
                    Color::Han => "Han",
                };
                match self.reason {
                    EndReason::Checkmate => format!("{side} wins by checkmate ({n})"),
                    EndReason::Resign => format!("{side} wins by resignation ({n})"),
                    EndReason::TimeLoss => format!("{side} wins on time ({n})"),
                    EndReason::RepetitionLoss => {
                        format!("{side} wins: the opponent broke the repetition rule ({n})")
                    }
                    r => format!(
                        "{side} wins on points {} : {} ({})",
                        self.points_text(w),
                        self.points_text(!w),
                        r.occasion_en()
                    ),
                }
            }
            None => match self.reason {
                EndReason::DrawAgreed => "Draw by agreement".to_string(),
                r => format!("Draw ({})", r.occasion_en()),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_round_trip_by_name() {
        for r in EndReason::ALL {
            assert_eq!(EndReason::from_name(r.name()), Some(r));
        }
        assert_eq!(EndReason::from_name("stalemate"), None);
    }

    #[test]
    fn worked_example() {
        let o = Outcome::by_counting(
            100,
            111,
            true,
            EndReason::ScoreBikjang,
            EndReason::DrawBikjang,
            90,
        );
        assert_eq!(o.winner, Some(Color::Han));
        assert_eq!((o.cho_points, o.han_points), (50.0, 55.5));
        assert_eq!(o.summary_ko(), "한 판정승 55.5 : 50 (빅장)");
        assert_eq!(o.summary_en(), "Han wins on points 55.5 : 50 (bikjang)");
        let d = Outcome::by_counting(
            100,
            111,
            false,
            EndReason::ScoreBikjang,
            EndReason::DrawBikjang,
            90,
        );
        assert_eq!((d.winner, d.reason), (None, EndReason::DrawBikjang));
        assert_eq!(d.summary_ko(), "무승부 (빅장)");
        assert_eq!(d.summary_en(), "Draw (bikjang)");
    }

    #[test]
    fn summaries() {
        let m = Outcome::win(Color::Cho, EndReason::Checkmate, 144, 147, 63);
        assert_eq!(m.summary_ko(), "초 외통승 (63수)");
        assert_eq!(m.summary_en(), "Cho wins by checkmate (63 plies)");
        let c = Outcome::by_counting(
            120,
            67,
            true,
            EndReason::ScorePasses,
            EndReason::DrawPasses,
            10,
        );
        assert_eq!(c.summary_ko(), "초 판정승 60 : 33.5 (연속 한수쉼)");
        let a = Outcome::draw(EndReason::DrawAgreed, 144, 147, 12);
        assert_eq!(a.summary_ko(), "무승부 (합의)");
        assert_eq!(a.summary_en(), "Draw by agreement");
        let r = Outcome::win(Color::Han, EndReason::RepetitionLoss, 144, 147, 88);
        assert_eq!(r.summary_ko(), "한 반칙승 (반복수, 88수)");
        assert_eq!(r.winner_name(), "han");
    }
}
