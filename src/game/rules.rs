//! The rule set: the spec's options and the named presets.

use crate::rules::LegalityModel;
use std::fmt;

/// Bikjang (빅장) rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BikjangRule {
    /// Facing generals mean nothing.
    Off,
    /// KJF: possible from the move after the first capture.
    Kjf,
    /// KJA: only when both sides have fewer than 30 points.
    Kja30,
    /// Fairy-Stockfish's semantics (illegal to keep facing; a pass ends it).
    Fsf,
}

/// What happens at a position's 4th occurrence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RepetitionRule {
    /// The move making the 4th occurrence is illegal.
    Forbid,
    /// The side making it loses.
    Lose,
    /// The game ends by counting.
    ScoreEnd,
}

/// A rule option name or value that is not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    /// Unknown preset / variant name.
    UnknownVariant(String),
    /// Unknown option name.
    UnknownOption(String),
    /// Bad value for an option.
    BadValue {
        /// Option name.
        option: String,
        /// The value given.
        value: String,
    },
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::UnknownVariant(v) => write!(f, "unknown variant '{v}'"),
            RuleError::UnknownOption(o) => write!(f, "unknown rule option '{o}'"),
            RuleError::BadValue { option, value } => write!(f, "bad value '{value}' for {option}"),
        }
    }
}

impl std::error::Error for RuleError {}

/// The rule set of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Bikjang rule.
    pub bikjang: BikjangRule,
    /// Repetition rule.
    pub repetition: RepetitionRule,
    /// Whether endings that need a judgement are decided by counting (else draw).
    pub scoring: bool,
    /// Whether the pass (한수쉼) is allowed.
    pub allow_pass: bool,
    /// Move limit in plies of both sides together (0 = none).
    pub move_limit: u32,
}

impl Default for Rules {
    /// The spec's defaults (`janggikjf`).
    fn default() -> Self {
        Rules {
            bikjang: BikjangRule::Kjf,
            repetition: RepetitionRule::Forbid,
            scoring: true,
            allow_pass: true,
            move_limit: 0,
        }
    }
}

impl Rules {
    /// Names of the presets.
    pub const VARIANTS: [&'static str; 5] = ["janggikjf", "janggi", "janggitraditional", "janggimodern", "janggicasual"];

    /// The preset called `name`.
    ///
    /// # Errors
    /// [`RuleError::UnknownVariant`].
    pub fn from_variant(name: &str) -> Result<Rules, RuleError> {
        let d = Rules::default();
        Ok(match name {
            "janggikjf" => d,
            "janggi" => Rules { bikjang: BikjangRule::Fsf, ..d },
            "janggitraditional" => Rules { bikjang: BikjangRule::Fsf, scoring: false, ..d },
            "janggimodern" => Rules { bikjang: BikjangRule::Off, ..d },
            "janggicasual" => Rules { bikjang: BikjangRule::Off, scoring: false, ..d },
            _ => return Err(RuleError::UnknownVariant(name.to_string())),
        })
    }

    /// Sets one rule option by its protocol name (`Bikjang`, `Repetition`,
    /// `Scoring`, `AllowPass`, `MoveLimit`; case-insensitive).
    ///
    /// # Errors
    /// [`RuleError`]; the rules are unchanged.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), RuleError> {
        let bad = || RuleError::BadValue { option: name.to_string(), value: value.to_string() };
        let v = value.to_ascii_lowercase();
        match name.to_ascii_lowercase().as_str() {
            "bikjang" => {
                self.bikjang = match v.as_str() {
                    "off" => BikjangRule::Off,
                    "kjf" => BikjangRule::Kjf,
                    "kja30" => BikjangRule::Kja30,
                    "fsf" => BikjangRule::Fsf,
                    _ => return Err(bad()),
                }
            }
            "repetition" => {
                self.repetition = match v.as_str() {
                    "forbid" => RepetitionRule::Forbid,
                    "lose" => RepetitionRule::Lose,
                    "scoreend" => RepetitionRule::ScoreEnd,
                    _ => return Err(bad()),
                }
            }
            "scoring" => self.scoring = v.parse().map_err(|_| bad())?,
            "allowpass" => self.allow_pass = v.parse().map_err(|_| bad())?,
            "movelimit" => {
                self.move_limit = match v.parse() {
                    Ok(n @ (0 | 150 | 200 | 250)) => n,
                    _ => return Err(bad()),
                }
            }
            _ => return Err(RuleError::UnknownOption(name.to_string())),
        }
        Ok(())
    }

    /// The rules core's legality model for this rule set.
    pub fn model(&self) -> LegalityModel {
        if self.bikjang == BikjangRule::Fsf {
            LegalityModel::Fsf
        } else {
            LegalityModel::Casual
        }
    }
}
