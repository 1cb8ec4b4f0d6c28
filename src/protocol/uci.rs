//! UCI-family text (UCI, USI, UCCI): the handshake with its option list, the option
//! table, and the `info` / `bestmove` lines.

use super::notation::{line_text, move_text};
use super::{ProtocolDialect, ENGINE_AUTHOR, ENGINE_NAME};
use crate::engine::{DEFAULT_HASH_MB, DEFAULT_THREADS};
use crate::game::{Game, RuleError, Rules};
use crate::search::skill::{MAX_ELO, MAX_LEVEL, MIN_ELO};
use crate::search::{CurrMove, Info, ReportScore};
use crate::types::Move;
use std::fmt;

/// Largest `Hash` in MB.
pub const MAX_HASH_MB: i64 = 4096;
/// Largest `Threads`.
pub const MAX_THREADS: i64 = 256;
/// Largest `MultiPV`.
pub const MAX_MULTIPV: i64 = 256;
/// Default `Move Overhead` in ms.
pub const DEFAULT_MOVE_OVERHEAD_MS: i64 = 10;
/// Largest `NoCaptureLimit` in plies (the game layer's bound).
pub const MAX_NO_CAPTURE_LIMIT: i64 = 1000;
/// Largest `Move Overhead` in ms.
pub const MAX_MOVE_OVERHEAD_MS: i64 = 5000;

/// Which engine option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionId {
    /// `Hash` / `USI_Hash`.
    Hash,
    /// `Threads`.
    Threads,
    /// `MultiPV`.
    MultiPv,
    /// `Ponder` / `USI_Ponder`.
    Ponder,
    /// `Move Overhead`.
    MoveOverhead,
    /// `UCI_Variant`.
    Variant,
    /// `Bikjang`.
    Bikjang,
    /// `Repetition`.
    Repetition,
    /// `Scoring`.
    Scoring,
    /// `AllowPass`.
    AllowPass,
    /// `MoveLimit`.
    MoveLimit,
    /// `NoCaptureLimit` (Fairy-Stockfish's n-move rule, in plies).
    NoCaptureLimit,
    /// `Clear Hash`.
    ClearHash,
    /// `Skill Level` (0..=20; 20 is full strength).
    SkillLevel,
    /// `UCI_LimitStrength`: play at `UCI_Elo` instead of `Skill Level`.
    LimitStrength,
    /// `UCI_Elo`.
    Elo,
    /// `Use NNUE`: evaluate with the network (false: the handcrafted
    /// evaluation).
    UseNnue,
    /// `EvalFile`: the network file (`<embedded>`: the shipped one).
    EvalFile,
    /// `UCI_AnalyseMode`: the GUI analyses (full strength, whatever the
    /// skill options say).
    AnalyseMode,
    /// `UCI_ShowWDL`: `wdl W D L` in `info` lines (see [`super::wdl`]).
    ShowWdl,
}

/// The type of an option as the handshake shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionType {
    /// Integer in a range.
    Spin {
        /// Default.
        default: i64,
        /// Minimum.
        min: i64,
        /// Maximum.
        max: i64,
    },
    /// Boolean.
    Check {
        /// Default.
        default: bool,
    },
    /// One of a list.
    Combo {
        /// Default.
        default: &'static str,
        /// Allowed values.
        vars: &'static [&'static str],
    },
    /// An action without value.
    Button,
    /// Free text (a file name).
    String {
        /// Default.
        default: &'static str,
    },
}

/// One engine option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// Which option.
    pub id: OptionId,
    /// UCI (and UCCI) name.
    pub uci_name: &'static str,
    /// USI name (no spaces; `USI_` prefix where USI has one).
    pub usi_name: &'static str,
    /// Type, default and range.
    pub kind: OptionType,
}

/// Every option, in handshake order. Rule option defaults are the
/// `janggikjf` preset's. Setting `UCI_Variant` replaces the whole rule set
/// by that preset; the rule options set afterwards override single rules
/// of it (so a GUI sets the variant first, then any overrides).
pub const OPTIONS: [OptionSpec; 20] = [
    OptionSpec {
        id: OptionId::Hash,
        uci_name: "Hash",
        usi_name: "USI_Hash",
        kind: OptionType::Spin {
            default: DEFAULT_HASH_MB as i64,
            min: 1,
            max: MAX_HASH_MB,
        },
    },
    OptionSpec {
        id: OptionId::Threads,
        uci_name: "Threads",
        usi_name: "Threads",
        kind: OptionType::Spin {
            default: DEFAULT_THREADS as i64,
            min: 1,
            max: MAX_THREADS,
        },
    },
    OptionSpec {
        id: OptionId::MultiPv,
        uci_name: "MultiPV",
        usi_name: "MultiPV",
        kind: OptionType::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV,
        },
    },
    OptionSpec {
        id: OptionId::Ponder,
        uci_name: "Ponder",
        usi_name: "USI_Ponder",
        kind: OptionType::Check { default: false },
    },
    OptionSpec {
        id: OptionId::MoveOverhead,
        uci_name: "Move Overhead",
        usi_name: "Move_Overhead",
        kind: OptionType::Spin {
            default: DEFAULT_MOVE_OVERHEAD_MS,
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS,
        },
    },
    OptionSpec {
        id: OptionId::Variant,
        uci_name: "UCI_Variant",
        usi_name: "UCI_Variant",
        kind: OptionType::Combo {
            default: "janggikjf",
            vars: &Rules::VARIANTS,
        },
    },
    OptionSpec {
        id: OptionId::Bikjang,
        uci_name: "Bikjang",
        usi_name: "Bikjang",
        kind: OptionType::Combo {
            default: "kjf",
            vars: &["off", "kjf", "kja30", "fsf"],
        },
    },
    OptionSpec {
        id: OptionId::Repetition,
        uci_name: "Repetition",
        usi_name: "Repetition",
        kind: OptionType::Combo {
            default: "forbid",
            vars: &["forbid", "lose", "scoreEnd", "fsf", "fsfModern"],
        },
    },
    OptionSpec {
        id: OptionId::Scoring,
        uci_name: "Scoring",
        usi_name: "Scoring",
        kind: OptionType::Check { default: true },
    },
    OptionSpec {
        id: OptionId::AllowPass,
        uci_name: "AllowPass",
        usi_name: "AllowPass",
        kind: OptionType::Check { default: true },
    },
    OptionSpec {
        id: OptionId::MoveLimit,
        uci_name: "MoveLimit",
        usi_name: "MoveLimit",
        kind: OptionType::Combo {
            default: "0",
            vars: &["0", "150", "200", "250"],
        },
    },
    OptionSpec {
        id: OptionId::NoCaptureLimit,
        uci_name: "NoCaptureLimit",
        usi_name: "NoCaptureLimit",
        kind: OptionType::Spin {
            default: 0,
            min: 0,
            max: MAX_NO_CAPTURE_LIMIT,
        },
    },
    OptionSpec {
        id: OptionId::ClearHash,
        uci_name: "Clear Hash",
        usi_name: "Clear_Hash",
        kind: OptionType::Button,
    },
    OptionSpec {
        id: OptionId::SkillLevel,
        uci_name: "Skill Level",
        usi_name: "Skill_Level",
        kind: OptionType::Spin {
            default: MAX_LEVEL as i64,
            min: 0,
            max: MAX_LEVEL as i64,
        },
    },
    OptionSpec {
        id: OptionId::LimitStrength,
        uci_name: "UCI_LimitStrength",
        usi_name: "UCI_LimitStrength",
        kind: OptionType::Check { default: false },
    },
    OptionSpec {
        id: OptionId::Elo,
        uci_name: "UCI_Elo",
        usi_name: "UCI_Elo",
        kind: OptionType::Spin {
            default: MAX_ELO,
            min: MIN_ELO,
            max: MAX_ELO,
        },
    },
    OptionSpec {
        id: OptionId::UseNnue,
        uci_name: "Use NNUE",
        usi_name: "Use_NNUE",
        kind: OptionType::Check {
            default: crate::engine::USE_NNUE_DEFAULT,
        },
    },
    OptionSpec {
        id: OptionId::EvalFile,
        uci_name: "EvalFile",
        usi_name: "EvalFile",
        kind: OptionType::String {
            default: EMBEDDED_NET,
        },
    },
    OptionSpec {
        id: OptionId::AnalyseMode,
        uci_name: "UCI_AnalyseMode",
        usi_name: "UCI_AnalyseMode",
        kind: OptionType::Check { default: false },
    },
    OptionSpec {
        id: OptionId::ShowWdl,
        uci_name: "UCI_ShowWDL",
        usi_name: "UCI_ShowWDL",
        kind: OptionType::Check { default: false },
    },
];

/// The `EvalFile` value that names the network shipped in the binary.
pub const EMBEDDED_NET: &str = "<embedded>";

impl OptionSpec {
    /// The name in `dialect`.
    pub fn name(&self, dialect: ProtocolDialect) -> &'static str {
        match dialect {
            ProtocolDialect::Usi => self.usi_name,
            ProtocolDialect::Uci | ProtocolDialect::Ucci | ProtocolDialect::Cecp => self.uci_name,
        }
    }

    /// The handshake line `option name … type …`.
    pub fn line(&self, dialect: ProtocolDialect) -> String {
        let name = self.name(dialect);
        match self.kind {
            OptionType::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionType::Check { default } => {
                format!("option name {name} type check default {default}")
            }
            OptionType::Combo { default, vars } => {
                let mut s = format!("option name {name} type combo default {default}");
                for v in vars {
                    s.push_str(" var ");
                    s.push_str(v);
                }
                s
            }
            OptionType::Button => format!("option name {name} type button"),
            OptionType::String { default } => {
                format!("option name {name} type string default {default}")
            }
        }
    }

    /// Finds an option by name in any dialect's spelling (case-insensitive;
    /// spaces and underscores are the same; `USI_Hash` and `Hash` both work).
    pub fn find(name: &str) -> Option<&'static OptionSpec> {
        let key = normalize(name);
        OPTIONS
            .iter()
            .find(|o| normalize(o.uci_name) == key || normalize(o.usi_name) == key)
    }

    /// Checks `value` against the type and returns it in canonical form.
    ///
    /// # Errors
    /// [`OptionError`] naming the option, the value and what is allowed.
    pub fn check_value(
        &self,
        dialect: ProtocolDialect,
        value: Option<&str>,
    ) -> Result<OptionValue, OptionError> {
        let name = self.name(dialect);
        let bad = |v: &str, expected: String| OptionError::BadValue {
            option: name.to_string(),
            value: super::command::echo(v),
            expected,
        };
        if let OptionType::Button = self.kind {
            return Ok(OptionValue::Button);
        }
        let v = value
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| OptionError::MissingValue(name.to_string()))?;
        match self.kind {
            OptionType::Spin { min, max, .. } => match v.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(OptionValue::Int(n)),
                _ => Err(bad(v, format!("an integer from {min} to {max}"))),
            },
            OptionType::Check { .. } => match v.to_ascii_lowercase().as_str() {
                "true" => Ok(OptionValue::Bool(true)),
                "false" => Ok(OptionValue::Bool(false)),
                _ => Err(bad(v, "true or false".to_string())),
            },
            OptionType::Combo { vars, .. } => vars
                .iter()
                .find(|x| x.eq_ignore_ascii_case(v))
                .map(|x| OptionValue::Text(x))
                .ok_or_else(|| bad(v, format!("one of {}", vars.join(", ")))),
            OptionType::Button => Ok(OptionValue::Button),
            // The text itself is taken from the command (it is not static).
            OptionType::String { .. } => Ok(OptionValue::Free),
        }
    }
}

fn normalize(name: &str) -> String {
    let s: String = name
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .flat_map(char::to_lowercase)
        .collect();
    match s.as_str() {
        "usihash" => "hash".to_string(),
        "usiponder" => "ponder".to_string(),
        _ => s,
    }
}

/// A checked option value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// Spin.
    Int(i64),
    /// Check.
    Bool(bool),
    /// Combo (canonical spelling).
    Text(&'static str),
    /// Button press.
    Button,
    /// Free text: the value as given.
    Free,
}

/// A `setoption` that cannot be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No such option.
    Unknown(String),
    /// The option needs a value.
    MissingValue(String),
    /// The value does not fit the option.
    BadValue {
        /// Option name.
        option: String,
        /// Value given.
        value: String,
        /// What is allowed.
        expected: String,
    },
    /// The rule set rejected it.
    Rule(RuleError),
    /// `EvalFile` named a file that is not a usable network.
    Network(crate::nnue::NetError),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "setoption: unknown option '{n}'"),
            OptionError::MissingValue(n) => write!(f, "setoption: option '{n}' needs a value"),
            OptionError::BadValue {
                option,
                value,
                expected,
            } => {
                write!(
                    f,
                    "setoption: bad value '{value}' for '{option}', expected {expected}"
                )
            }
            OptionError::Rule(e) => write!(f, "setoption: {e}"),
            OptionError::Network(e) => {
                write!(f, "setoption: EvalFile: {e} (the current network stays)")
            }
        }
    }
}

impl std::error::Error for OptionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OptionError::Rule(e) => Some(e),
            OptionError::Network(e) => Some(e),
            _ => None,
        }
    }
}

impl From<RuleError> for OptionError {
    fn from(e: RuleError) -> Self {
        OptionError::Rule(e)
    }
}

/// The handshake answer to `uci` / `usi` / `ucci`, one string per line.
pub fn handshake(dialect: ProtocolDialect) -> Vec<String> {
    let mut lines = vec![
        format!("id name {ENGINE_NAME}"),
        format!("id author {ENGINE_AUTHOR}"),
    ];
    lines.extend(OPTIONS.iter().map(|o| o.line(dialect)));
    lines.push(
        match dialect {
            ProtocolDialect::Uci => "uciok",
            ProtocolDialect::Usi => "usiok",
            ProtocolDialect::Ucci => "ucciok",
            // CECP has no such handshake (see `cecp::features`).
            ProtocolDialect::Cecp => "feature done=1",
        }
        .to_string(),
    );
    lines
}

/// `cp X` / `mate Y`.
pub fn score_text(score: ReportScore) -> String {
    match score {
        ReportScore::Cp(cp) => format!("cp {cp}"),
        ReportScore::Mate(n) => format!("mate {n}"),
    }
}

/// `info depth … pv …`; with `show_wdl`, `wdl W D L` follows the score
/// (the model of [`super::wdl`]).
pub fn info_line(game: &Game, info: &Info, dialect: ProtocolDialect, show_wdl: bool) -> String {
    let wdl = if show_wdl {
        let (w, d, l) = super::wdl::wdl(info.score);
        format!(" wdl {w} {d} {l}")
    } else {
        String::new()
    };
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}{wdl} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score_text(info.score),
        info.nodes,
        info.nps,
        info.time_ms,
        info.hashfull
    );
    let pv = line_text(game, &info.pv, dialect);
    if !pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&pv.join(" "));
    }
    s
}

/// `info depth D currmove M currmovenumber N`.
pub fn currmove_line(game: &Game, c: &CurrMove, dialect: ProtocolDialect) -> String {
    format!(
        "info depth {} currmove {} currmovenumber {}",
        c.depth,
        move_text(game.position(), c.mv, dialect),
        c.number
    )
}

/// `bestmove M [ponder P]`, or the dialect's no-move answer.
pub fn bestmove_line(
    game: &Game,
    best: Option<Move>,
    ponder: Option<Move>,
    dialect: ProtocolDialect,
) -> String {
    let Some(best) = best else {
        return match dialect {
            ProtocolDialect::Uci => "bestmove (none)",
            ProtocolDialect::Usi => "bestmove resign",
            ProtocolDialect::Ucci => "nobestmove",
            ProtocolDialect::Cecp => "resign",
        }
        .to_string();
    };
    let moves: Vec<Move> = std::iter::once(best).chain(ponder).collect();
    let text = line_text(game, &moves, dialect);
    match text.as_slice() {
        [b, p] => format!("bestmove {b} ponder {p}"),
        [b] => format!("bestmove {b}"),
        // Not legal here: the engine checked it, so this cannot happen;
        // still print the raw text rather than nothing.
        _ => format!("bestmove {}", move_text(game.position(), best, dialect)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lookup() {
        assert_eq!(
            OptionSpec::find("usi_hash").map(|o| o.id),
            Some(OptionId::Hash)
        );
        assert_eq!(OptionSpec::find("Hash").map(|o| o.id), Some(OptionId::Hash));
        assert_eq!(
            OptionSpec::find("move overhead").map(|o| o.id),
            Some(OptionId::MoveOverhead)
        );
        assert_eq!(
            OptionSpec::find("Move_Overhead").map(|o| o.id),
            Some(OptionId::MoveOverhead)
        );
        assert_eq!(
            OptionSpec::find("USI_Ponder").map(|o| o.id),
            Some(OptionId::Ponder)
        );
        assert_eq!(OptionSpec::find("Hashish"), None);
    }

    #[test]
    fn option_values() {
        let Some(hash) = OptionSpec::find("Hash") else {
            panic!("Hash")
        };
        assert_eq!(
            hash.check_value(ProtocolDialect::Uci, Some("64")),
            Ok(OptionValue::Int(64))
        );
        assert!(hash.check_value(ProtocolDialect::Uci, Some("0")).is_err());
        assert!(hash
            .check_value(ProtocolDialect::Uci, Some("lots"))
            .is_err());
        assert!(matches!(
            hash.check_value(ProtocolDialect::Uci, None),
            Err(OptionError::MissingValue(_))
        ));
        let Some(rep) = OptionSpec::find("Repetition") else {
            panic!("Repetition")
        };
        assert_eq!(
            rep.check_value(ProtocolDialect::Uci, Some("SCOREEND")),
            Ok(OptionValue::Text("scoreEnd"))
        );
        let Some(clear) = OptionSpec::find("Clear Hash") else {
            panic!("Clear Hash")
        };
        assert_eq!(
            clear.check_value(ProtocolDialect::Uci, None),
            Ok(OptionValue::Button)
        );
    }

    #[test]
    fn handshake_lines() {
        let uci = handshake(ProtocolDialect::Uci);
        assert!(uci.contains(
            &"option name Move Overhead type spin default 10 min 0 max 5000".to_string()
        ));
        assert_eq!(uci.last().map(String::as_str), Some("uciok"));
        let usi = handshake(ProtocolDialect::Usi);
        assert!(usi
            .iter()
            .any(|l| l.starts_with("option name USI_Hash type spin")));
        assert!(usi.iter().all(|l| !l.contains("Move Overhead")));
        assert_eq!(usi.last().map(String::as_str), Some("usiok"));
    }
}
