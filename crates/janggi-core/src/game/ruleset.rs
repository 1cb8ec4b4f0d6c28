//! The rule set: the spec's options (§2) and the named presets
//! (`docs/architecture.md` describes the rule sets).
//!
//! ```
//! use janggi_core::{BikjangRule, RepetitionRule, Rules};
//! let mut rules = Rules::from_variant("janggikjf").unwrap();
//! assert_eq!(rules, Rules::default());
//! rules.set_option("Repetition", "lose").unwrap();
//! assert_eq!(rules.repetition, RepetitionRule::Lose);
//! assert_eq!(Rules::from_variant("janggi").unwrap().bikjang, BikjangRule::Fsf);
//! ```

use crate::board::LegalityModel;
use std::fmt;

/// Bikjang (빅장) rule: what happens when the two generals face each other
/// on one file with nothing between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BikjangRule {
    /// Facing generals mean nothing.
    Off,
    /// KJF: a move that leaves the generals facing calls bikjang once a piece
    /// has been captured, from the move after the first capture on.
    Kjf,
    /// KJA: a move calls bikjang only when both sides have fewer than 30
    /// points (without the deom) right after it.
    Kja30,
    /// Fairy-Stockfish's semantics: while the generals face each other every
    /// non-pass move that keeps them facing is illegal (the pass stays legal,
    /// even in check), and a pass that leaves them facing ends the game.
    Fsf,
}

impl BikjangRule {
    /// The option value (`off`, `kjf`, `kja30`, `fsf`).
    pub const fn name(self) -> &'static str {
        match self {
            BikjangRule::Off => "off",
            BikjangRule::Kjf => "kjf",
            BikjangRule::Kja30 => "kja30",
            BikjangRule::Fsf => "fsf",
        }
    }
}

/// What a repeated position does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RepetitionRule {
    /// The spec's `forbid`: a move making a position's 4th occurrence is
    /// illegal, except when forbidding would leave no legal move at all (in
    /// check, the only evasion repeats): then it is allowed and the game
    /// ends by counting.
    Forbid,
    /// The spec's `lose` (KJF): the side making a 4th occurrence loses.
    Lose,
    /// The spec's `scoreEnd`: a 4th occurrence ends the game by counting.
    ScoreEnd,
    /// Fairy-Stockfish's `janggi` repetition: the 3rd occurrence (within the
    /// capture-free stretch) ends the game; a side that gave check in every
    /// one of its positions of the cycle (perpetual check) loses, otherwise
    /// the game is decided by counting (a draw without scoring).
    Fsf,
    /// Repetition changes nothing (play goes on), as the Korean apps let
    /// it and their records show; used to read such records.
    Off,
    /// Fairy-Stockfish's `janggimodern` repetition: as [`RepetitionRule::Fsf`]
    /// at the 4th occurrence, plus its Kakao-style move-repetition rule (a
    /// side that keeps moving one piece back and forth, without check, loses
    /// once the cycle repeats).
    FsfModern,
}

impl RepetitionRule {
    /// The option value (`forbid`, `lose`, `scoreEnd`, `fsf`, `fsfModern`,
    /// `off`).
    pub const fn name(self) -> &'static str {
        match self {
            RepetitionRule::Off => "off",
            RepetitionRule::Forbid => "forbid",
            RepetitionRule::Lose => "lose",
            RepetitionRule::ScoreEnd => "scoreEnd",
            RepetitionRule::Fsf => "fsf",
            RepetitionRule::FsfModern => "fsfModern",
        }
    }

    /// Whether this is one of Fairy-Stockfish's repetition rules.
    pub const fn is_fsf(self) -> bool {
        matches!(self, RepetitionRule::Fsf | RepetitionRule::FsfModern)
    }
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
            RuleError::UnknownVariant(v) => write!(
                f,
                "unknown variant '{v}' (expected one of {})",
                Rules::VARIANTS.join(", ")
            ),
            RuleError::UnknownOption(o) => write!(
                f,
                "unknown rule option '{o}' (expected Bikjang, Repetition, Scoring, AllowPass, MoveLimit or NoCaptureLimit)"
            ),
            RuleError::BadValue { option, value } => {
                let expected = match option.to_ascii_lowercase().as_str() {
                    "bikjang" => "off, kjf, kja30 or fsf",
                    "repetition" => "forbid, lose, scoreEnd, fsf, fsfModern or off",
                    "scoring" | "allowpass" => "true or false",
                    "movelimit" => "0, 150, 200 or 250",
                    "nocapturelimit" => "a number of plies from 0 to 1000",
                    _ => "a valid value",
                };
                write!(f, "bad value '{value}' for {option} (expected {expected})")
            }
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
    /// Whether the pass (한수쉼) is allowed. Off, a pass is still forced when
    /// the side to move has no other legal move and is not in check.
    pub allow_pass: bool,
    /// Move limit in plies of both sides together (0 = none); reaching it
    /// ends the game by counting.
    pub move_limit: u32,
    /// Fairy-Stockfish's n-move rule in plies (0 = none): once this many
    /// plies have passed without a capture (the FEN's halfmove clock
    /// included), the game ends by counting, unless the side to move is
    /// checkmated. 100 for `janggi`, 200 for `janggimodern`.
    pub no_capture_limit: u32,
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
            no_capture_limit: 0,
        }
    }
}

/// Largest accepted `NoCaptureLimit`.
const MAX_NO_CAPTURE_LIMIT: u32 = 1000;

/// Fairy-Stockfish's default n-move rule (50 moves = 100 plies).
const FSF_NO_CAPTURE_LIMIT: u32 = 100;

/// `janggimodern`'s n-move rule (100 moves = 200 plies).
const FSF_MODERN_NO_CAPTURE_LIMIT: u32 = 200;

impl Rules {
    /// Names of the presets.
    pub const VARIANTS: [&'static str; 5] = [
        "janggikjf",
        "janggi",
        "janggitraditional",
        "janggimodern",
        "janggicasual",
    ];

    /// The preset called `name` (case-insensitive).
    ///
    /// `janggikjf` is the spec's defaults; the other four follow
    /// Fairy-Stockfish's variants of the same name: bikjang (`Fsf` for
    /// `janggi`/`janggitraditional`, none otherwise), counting (`janggi`,
    /// `janggimodern`), repetition (`Fsf`, or `FsfModern` for
    /// `janggimodern`) and the n-move rule.
    ///
    /// # Errors
    /// [`RuleError::UnknownVariant`].
    pub fn from_variant(name: &str) -> Result<Rules, RuleError> {
        let fsf = Rules {
            bikjang: BikjangRule::Fsf,
            repetition: RepetitionRule::Fsf,
            scoring: true,
            allow_pass: true,
            move_limit: 0,
            no_capture_limit: FSF_NO_CAPTURE_LIMIT,
        };
        Ok(match name.to_ascii_lowercase().as_str() {
            "janggikjf" => Rules::default(),
            "janggi" => fsf,
            "janggitraditional" => Rules {
                scoring: false,
                ..fsf
            },
            "janggimodern" => Rules {
                bikjang: BikjangRule::Off,
                repetition: RepetitionRule::FsfModern,
                no_capture_limit: FSF_MODERN_NO_CAPTURE_LIMIT,
                ..fsf
            },
            "janggicasual" => Rules {
                bikjang: BikjangRule::Off,
                scoring: false,
                ..fsf
            },
            _ => return Err(RuleError::UnknownVariant(name.to_string())),
        })
    }

    /// Sets one rule option by its protocol name (`Bikjang`, `Repetition`,
    /// `Scoring`, `AllowPass`, `MoveLimit`, `NoCaptureLimit`;
    /// case-insensitive, values too).
    ///
    /// # Errors
    /// [`RuleError`]; the rules are unchanged.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), RuleError> {
        let bad = || RuleError::BadValue {
            option: name.to_string(),
            value: value.to_string(),
        };
        let v = value.trim().to_ascii_lowercase();
        let parse_bool = |v: &str| match v {
            "true" | "on" | "1" | "yes" => Ok(true),
            "false" | "off" | "0" | "no" => Ok(false),
            _ => Err(bad()),
        };
        match name.trim().to_ascii_lowercase().as_str() {
            "bikjang" => {
                self.bikjang = match v.as_str() {
                    "off" | "none" => BikjangRule::Off,
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
                    "fsf" => RepetitionRule::Fsf,
                    "fsfmodern" => RepetitionRule::FsfModern,
                    "off" => RepetitionRule::Off,
                    _ => return Err(bad()),
                }
            }
            "scoring" => self.scoring = parse_bool(&v)?,
            "allowpass" => self.allow_pass = parse_bool(&v)?,
            "movelimit" => {
                self.move_limit = match v.parse() {
                    Ok(n @ (0 | 150 | 200 | 250)) => n,
                    _ => return Err(bad()),
                }
            }
            "nocapturelimit" => {
                self.no_capture_limit = match v.parse() {
                    Ok(n) if n <= MAX_NO_CAPTURE_LIMIT => n,
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

impl fmt::Display for Rules {
    /// `bikjang=kjf repetition=forbid scoring=true allowPass=true moveLimit=0 noCaptureLimit=0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bikjang={} repetition={} scoring={} allowPass={} moveLimit={} noCaptureLimit={}",
            self.bikjang.name(),
            self.repetition.name(),
            self.scoring,
            self.allow_pass,
            self.move_limit,
            self.no_capture_limit
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetition_off_is_an_option_value() {
        let mut r = Rules::default();
        r.set_option("Repetition", "off").unwrap();
        assert_eq!(r.repetition, RepetitionRule::Off);
        assert_eq!(r.repetition.name(), "off");
        assert!(!r.repetition.is_fsf());
        assert!(r.to_string().contains("repetition=off"));
    }

    #[test]
    fn presets() {
        for name in Rules::VARIANTS {
            assert!(Rules::from_variant(name).is_ok(), "{name}");
        }
        assert_eq!(Rules::from_variant("janggikjf"), Ok(Rules::default()));
        let j = Rules::from_variant("JANGGI").unwrap();
        assert_eq!(
            (j.bikjang, j.repetition, j.scoring),
            (BikjangRule::Fsf, RepetitionRule::Fsf, true)
        );
        assert_eq!(j.no_capture_limit, 100);
        let t = Rules::from_variant("janggitraditional").unwrap();
        assert_eq!((t.bikjang, t.scoring), (BikjangRule::Fsf, false));
        let m = Rules::from_variant("janggimodern").unwrap();
        assert_eq!(
            (m.bikjang, m.repetition, m.scoring),
            (BikjangRule::Off, RepetitionRule::FsfModern, true)
        );
        assert_eq!(m.no_capture_limit, 200);
        let c = Rules::from_variant("janggicasual").unwrap();
        assert_eq!(
            (c.bikjang, c.repetition, c.scoring),
            (BikjangRule::Off, RepetitionRule::Fsf, false)
        );
        assert!(matches!(
            Rules::from_variant("xiangqi"),
            Err(RuleError::UnknownVariant(_))
        ));
    }

    #[test]
    fn options() {
        let mut r = Rules::default();
        r.set_option("Bikjang", "KJA30").unwrap();
        r.set_option("repetition", "scoreEnd").unwrap();
        r.set_option("Scoring", "false").unwrap();
        r.set_option("AllowPass", "false").unwrap();
        r.set_option("MoveLimit", "200").unwrap();
        r.set_option("NoCaptureLimit", "100").unwrap();
        assert_eq!(
            r,
            Rules {
                bikjang: BikjangRule::Kja30,
                repetition: RepetitionRule::ScoreEnd,
                scoring: false,
                allow_pass: false,
                move_limit: 200,
                no_capture_limit: 100,
            }
        );
        let before = r;
        assert!(matches!(
            r.set_option("MoveLimit", "100"),
            Err(RuleError::BadValue { .. })
        ));
        assert!(matches!(
            r.set_option("Scoring", "maybe"),
            Err(RuleError::BadValue { .. })
        ));
        assert!(matches!(
            r.set_option("Bikjang", "kja"),
            Err(RuleError::BadValue { .. })
        ));
        assert!(matches!(
            r.set_option("Frobnicate", "1"),
            Err(RuleError::UnknownOption(_))
        ));
        assert_eq!(r, before);
        assert_eq!(
            Rules::default().to_string(),
            "bikjang=kjf repetition=forbid scoring=true allowPass=true moveLimit=0 noCaptureLimit=0"
        );
    }
}
