//! The engine options, each declared once.
//!
//! [`OPTIONS`] is the one table. An entry names an option (its UCI and USI
//! spellings), gives its type with the default and the range or choices,
//! says how CECP reaches it, and holds the setter that applies a checked
//! value to the [`Session`], as Stockfish declares
//! `Option(default, min, max, on_change)`. Every dialect reads it:
//!
//! - UCI, USI and UCCI: the handshake's `option name … type …` lines
//!   ([`super::uci::option_line`], in table order);
//! - CECP: the `feature option="…"` lines ([`super::cecp::option_feature`])
//!   for the entries marked [`CecpAccess::Feature`], and its `memory` and
//!   `cores` commands, which run the setter of the entry marked
//!   [`CecpNative::Memory`] / [`CecpNative::Cores`] with the value clamped
//!   to that entry's range;
//! - `setoption` and CECP's `option NAME=VALUE`: [`OptionSpec::find`] by
//!   name, then [`OptionSpec::check_value`] against the entry; the setter
//!   runs only on a valid value, and a setter that fails changes nothing.
//!
//! The values live in typed fields (the session's `Settings`, the
//! engine, the rule set) that the code reads directly: nothing but
//! `setoption` looks an option up by name, and the search never sees one.
//!
//! A new option is one entry here (plus the typed field its setter
//! writes, if it needs a new one): the tests at the end walk the table and
//! check that every entry is advertised in each dialect with its default,
//! that its setter accepts the default and leaves the session as it
//! started, and that it refuses a missing, out-of-range or ill-typed value
//! without changing anything.
//!
//! ```
//! use janggi::protocol::{OptionSpec, OptionType, OPTIONS};
//! assert_eq!(OPTIONS[0].uci_name, "Hash");
//! let Some(hash) = OptionSpec::find("usi_hash") else { panic!() };
//! assert!(matches!(hash.kind, OptionType::Spin { default: 16, min: 1, .. }));
//! ```

use super::command::echo;
use super::error::busy;
use super::{ProtocolDialect, ProtocolError, Session};
use crate::engine::{EngineConfig, Strength, DEFAULT_HASH_MB, DEFAULT_THREADS, USE_NNUE_DEFAULT};
use crate::nnue::Network;
use crate::search::skill::{MAX_ELO, MAX_LEVEL, MIN_ELO};
use janggi_core::{RuleError, Rules};
use std::fmt;
use std::sync::Arc;

/// Largest `Hash` in MB.
pub const MAX_HASH_MB: i64 = 4096;
/// Largest `Threads`.
pub const MAX_THREADS: i64 = 256;
/// Largest `MultiPV`.
pub const MAX_MULTIPV: i64 = 256;
/// Default `Move Overhead` in ms.
pub const DEFAULT_MOVE_OVERHEAD_MS: i64 = crate::engine::DEFAULT_MOVE_OVERHEAD_MS as i64;
/// Largest `Move Overhead` in ms.
pub const MAX_MOVE_OVERHEAD_MS: i64 = 5000;
/// Largest `NoCaptureLimit` in plies (the game layer's bound).
pub const MAX_NO_CAPTURE_LIMIT: i64 = 1000;
/// The `EvalFile` value that names the network shipped in the binary.
pub const EMBEDDED_NET: &str = "<embedded>";

/// What a setter returns: a setter that fails has changed nothing.
pub type SetResult = Result<(), ProtocolError>;

/// The type of an option, with its default, range or choices, and the
/// setter that applies a value already checked against them. A setter
/// does not check again: `setoption` ([`OptionSpec::check_value`]) and
/// CECP's `memory` / `cores` ([`OptionSpec::clamp`]) run it only with a
/// value of the entry's range.
#[derive(Clone, Copy, Debug)]
pub enum OptionType {
    /// Integer in a range.
    Spin {
        /// Default.
        default: i64,
        /// Minimum.
        min: i64,
        /// Maximum.
        max: i64,
        /// Applies a value in `min..=max`.
        set: fn(&mut Session, i64) -> SetResult,
    },
    /// Boolean.
    Check {
        /// Default.
        default: bool,
        /// Applies the value.
        set: fn(&mut Session, bool) -> SetResult,
    },
    /// One of a list.
    Combo {
        /// Default.
        default: &'static str,
        /// Allowed values.
        vars: &'static [&'static str],
        /// Applies one of `vars` (in its canonical spelling).
        set: fn(&mut Session, &'static str) -> SetResult,
    },
    /// An action without value.
    Button {
        /// Does it.
        press: fn(&mut Session) -> SetResult,
    },
    /// Free text.
    String {
        /// Default.
        default: &'static str,
        /// The text names a file (CECP offers a file browser).
        file: bool,
        /// Applies the text (trimmed, not empty).
        set: fn(&mut Session, &str) -> SetResult,
    },
}

/// How CECP (XBoard) reaches an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CecpAccess {
    /// Offered as `feature option="…"`; set by `option NAME=VALUE`.
    Feature,
    /// CECP has a command of its own for it, so no `option=` feature.
    Command(CecpNative),
    /// Not offered (`option NAME=VALUE` still sets it).
    Hidden,
}

/// The CECP command that stands for an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CecpNative {
    /// `memory MB`: runs the option's setter, clamped to its range.
    Memory,
    /// `cores N`: runs the option's setter, clamped to its range.
    Cores,
    /// `variant NAME` (CECP's own: it starts a new game).
    Variant,
    /// `hard` / `easy` (CECP's own pondering flag).
    Hard,
    /// `analyze` (CECP's own analysis mode).
    Analyze,
}

impl CecpNative {
    /// The command word.
    pub fn word(self) -> &'static str {
        match self {
            CecpNative::Memory => "memory",
            CecpNative::Cores => "cores",
            CecpNative::Variant => "variant",
            CecpNative::Hard => "hard",
            CecpNative::Analyze => "analyze",
        }
    }
}

/// One engine option: everything about it, in one place.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// UCI (and UCCI, and CECP) name.
    pub uci_name: &'static str,
    /// USI name (no spaces; `USI_` prefix where USI has one).
    pub usi_name: &'static str,
    /// Type, default, range or choices, setter.
    pub kind: OptionType,
    /// How CECP reaches it.
    pub cecp: CecpAccess,
}

/// A spin value as a count (the table's ranges keep it positive).
fn count(n: i64) -> usize {
    usize::try_from(n).unwrap_or(1)
}

/// How many options there are: tuning builds have `SearchTune` too.
pub const OPTION_COUNT: usize = 20 + cfg!(feature = "tune") as usize;

/// Every option, in handshake order. Rule option defaults are the
/// `janggikjf` preset's. Setting `UCI_Variant` replaces the whole rule set
/// by that preset; the rule options set afterwards override single rules
/// of it (so a GUI sets the variant first, then any overrides).
pub static OPTIONS: [OptionSpec; OPTION_COUNT] = [
    OptionSpec {
        uci_name: "Hash",
        usi_name: "USI_Hash",
        kind: OptionType::Spin {
            default: DEFAULT_HASH_MB as i64,
            min: 1,
            max: MAX_HASH_MB,
            set: |s, n| s.configure(|c| c.hash_mb = count(n)),
        },
        cecp: CecpAccess::Command(CecpNative::Memory),
    },
    OptionSpec {
        uci_name: "Threads",
        usi_name: "Threads",
        kind: OptionType::Spin {
            default: DEFAULT_THREADS as i64,
            min: 1,
            max: MAX_THREADS,
            set: |s, n| s.configure(|c| c.threads = count(n)),
        },
        cecp: CecpAccess::Command(CecpNative::Cores),
    },
    OptionSpec {
        uci_name: "MultiPV",
        usi_name: "MultiPV",
        kind: OptionType::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV,
            set: |s, n| s.configure(|c| c.multipv = count(n)),
        },
        cecp: CecpAccess::Feature,
    },
    OptionSpec {
        uci_name: "Ponder",
        usi_name: "USI_Ponder",
        kind: OptionType::Check {
            default: false,
            set: |s, p| s.configure(|c| c.ponder = p),
        },
        cecp: CecpAccess::Command(CecpNative::Hard),
    },
    OptionSpec {
        uci_name: "Move Overhead",
        usi_name: "Move_Overhead",
        kind: OptionType::Spin {
            default: DEFAULT_MOVE_OVERHEAD_MS,
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS,
            set: |s, n| s.configure(|c| c.move_overhead_ms = n.unsigned_abs()),
        },
        cecp: CecpAccess::Feature,
    },
    OptionSpec {
        uci_name: "UCI_Variant",
        usi_name: "UCI_Variant",
        kind: OptionType::Combo {
            default: "janggikjf",
            vars: &Rules::VARIANTS,
            set: |s, v| s.set_rules(Rules::from_variant(v)?),
        },
        cecp: CecpAccess::Command(CecpNative::Variant),
    },
    OptionSpec {
        uci_name: "Bikjang",
        usi_name: "Bikjang",
        kind: OptionType::Combo {
            default: "kjf",
            vars: &["off", "kjf", "kja30", "fsf"],
            set: |s, v| s.set_rule("Bikjang", v),
        },
        cecp: CecpAccess::Feature,
    },
    OptionSpec {
        uci_name: "Repetition",
        usi_name: "Repetition",
        kind: OptionType::Combo {
            default: "forbid",
            vars: &["forbid", "lose", "scoreEnd", "fsf", "fsfModern", "off"],
            set: |s, v| s.set_rule("Repetition", v),
        },
        cecp: CecpAccess::Feature,
    },
    OptionSpec {
        uci_name: "Scoring",
        usi_name: "Scoring",
        kind: OptionType::Check {
            default: true,
            set: |s, b| s.set_rule("Scoring", &b.to_string()),
        },
        cecp: CecpAccess::Feature,
    },
    OptionSpec {
        uci_name: "AllowPass",
        usi_name: "AllowPass",
        kind: OptionType::Check {
            default: true,
            set: |s, b| s.set_rule("AllowPass", &b.to_string()),
        },
        cecp: CecpAccess::Feature,
    },
    OptionSpec {
        uci_name: "MoveLimit",
        usi_name: "MoveLimit",
        kind: OptionType::Combo {
            default: "0",
            vars: &["0", "150", "200", "250"],
            set: |s, v| s.set_rule("MoveLimit", v),
        },
        cecp: CecpAccess::Feature,
    },
    OptionSpec {
        // Fairy-Stockfish's n-move rule, in plies.
        uci_name: "NoCaptureLimit",
        usi_name: "NoCaptureLimit",
        kind: OptionType::Spin {
            default: 0,
            min: 0,
            max: MAX_NO_CAPTURE_LIMIT,
            set: |s, n| s.set_rule("NoCaptureLimit", &n.to_string()),
        },
        cecp: CecpAccess::Feature,
    },
    OptionSpec {
        uci_name: "Clear Hash",
        usi_name: "Clear_Hash",
        kind: OptionType::Button {
            press: |s| s.engine.clear_hash().map_err(busy("setoption")),
        },
        cecp: CecpAccess::Feature,
    },
    OptionSpec {
        uci_name: "Skill Level",
        usi_name: "Skill_Level",
        kind: OptionType::Spin {
            default: MAX_LEVEL as i64,
            min: 0,
            max: MAX_LEVEL as i64,
            set: |s, n| s.set_strength(|st| st.level = u32::try_from(n).unwrap_or(0)),
        },
        cecp: CecpAccess::Feature,
    },
    OptionSpec {
        uci_name: "UCI_LimitStrength",
        usi_name: "UCI_LimitStrength",
        kind: OptionType::Check {
            default: false,
            set: |s, l| s.set_strength(|st| st.limit = l),
        },
        cecp: CecpAccess::Feature,
    },
    OptionSpec {
        uci_name: "UCI_Elo",
        usi_name: "UCI_Elo",
        kind: OptionType::Spin {
            default: MAX_ELO,
            min: MIN_ELO,
            max: MAX_ELO,
            set: |s, n| s.set_strength(|st| st.elo = n),
        },
        cecp: CecpAccess::Feature,
    },
    OptionSpec {
        // Evaluate with the network (false: the handcrafted evaluation).
        uci_name: "Use NNUE",
        usi_name: "Use_NNUE",
        kind: OptionType::Check {
            default: USE_NNUE_DEFAULT,
            set: |s, on| s.configure(|c| c.use_nnue = on),
        },
        cecp: CecpAccess::Feature,
    },
    OptionSpec {
        // The network file; `<embedded>`: the shipped one.
        uci_name: "EvalFile",
        usi_name: "EvalFile",
        kind: OptionType::String {
            default: EMBEDDED_NET,
            file: true,
            set: Session::set_eval_file,
        },
        cecp: CecpAccess::Feature,
    },
    OptionSpec {
        uci_name: "UCI_AnalyseMode",
        usi_name: "UCI_AnalyseMode",
        kind: OptionType::Check {
            default: false,
            set: |s, a| s.set_strength(|st| st.analyse = a),
        },
        cecp: CecpAccess::Command(CecpNative::Analyze),
    },
    OptionSpec {
        // `wdl W D L` in `info` lines (see `super::wdl`); CECP's thinking
        // lines have no place for it.
        uci_name: "UCI_ShowWDL",
        usi_name: "UCI_ShowWDL",
        kind: OptionType::Check {
            default: false,
            set: |s, w| s.configure(|c| c.show_wdl = w),
        },
        cecp: CecpAccess::Hidden,
    },
    // Tuning builds only (`--features tune`): sets the search's pruning,
    // reduction and extension parameters by name, e.g.
    // `lmr_div=200 lmp_depth=8` (`default` restores them all); see
    // `crate::search::params`.
    #[cfg(feature = "tune")]
    OptionSpec {
        uci_name: "SearchTune",
        usi_name: "SearchTune",
        kind: OptionType::String {
            default: "default",
            file: false,
            set: Session::set_search_tune,
        },
        cecp: CecpAccess::Feature,
    },
];

impl Session {
    /// Changes the engine's configuration (refused, changing nothing,
    /// while an unstopped `infinite` or ponder search runs).
    fn configure(&mut self, change: impl FnOnce(&mut EngineConfig)) -> SetResult {
        self.engine.configure(change).map_err(busy("setoption"))
    }

    /// Changes one of the four strength options (see [`Strength`]).
    fn set_strength(&mut self, change: impl FnOnce(&mut Strength)) -> SetResult {
        self.configure(|c| change(&mut c.strength))
    }

    /// Changes one rule of the rule set by the game layer's option name,
    /// re-playing the game under the new rules.
    fn set_rule(&mut self, name: &str, value: &str) -> SetResult {
        let mut rules = self.rules;
        rules.set_option(name, value)?;
        self.set_rules(rules)
    }

    /// `EvalFile`: loads the network (`<embedded>`: the shipped one); the
    /// search switches to it when `Use NNUE` is on.
    fn set_eval_file(&mut self, text: &str) -> SetResult {
        let net = if text.is_empty() || text == EMBEDDED_NET {
            None
        } else {
            let n = Network::load(std::path::Path::new(text)).map_err(OptionError::Network)?;
            Some(Arc::new(n))
        };
        self.configure(|c| c.eval_file = net)?;
        self.say(&format!("info string EvalFile {text}: network loaded"));
        Ok(())
    }

    /// `SearchTune` (tuning builds): a list of `name=value` search
    /// parameters; a list with a bad item changes nothing.
    #[cfg(feature = "tune")]
    fn set_search_tune(&mut self, text: &str) -> SetResult {
        let mut params = self.engine.search_params().clone();
        params.apply(text).map_err(|e| OptionError::BadValue {
            option: "SearchTune".to_string(),
            value: echo(text),
            expected: e.to_string(),
        })?;
        let now = params.changed();
        self.configure(|c| c.params = params)?;
        self.say(&format!("info string SearchTune: {now}"));
        Ok(())
    }

    /// `setoption` (and CECP's `option`): finds the option by name in any
    /// dialect's spelling, checks the value against the table, then runs
    /// the option's setter.
    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) -> SetResult {
        let spec = OptionSpec::find(name).ok_or_else(|| OptionError::Unknown(echo(name)))?;
        spec.set(self, value)
    }
}

impl OptionSpec {
    /// The name in `dialect`.
    pub fn name(&self, dialect: ProtocolDialect) -> &'static str {
        match dialect {
            ProtocolDialect::Usi => self.usi_name,
            ProtocolDialect::Uci | ProtocolDialect::Ucci | ProtocolDialect::Cecp => self.uci_name,
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

    /// The option CECP sets by its command `which`, if any.
    pub fn for_cecp(which: CecpNative) -> Option<&'static OptionSpec> {
        OPTIONS
            .iter()
            .find(|o| o.cecp == CecpAccess::Command(which))
    }

    /// `n` clamped to a spin option's range (`None` for other types).
    pub fn clamp(&self, n: i64) -> Option<i64> {
        match self.kind {
            OptionType::Spin { min, max, .. } => Some(n.clamp(min, max)),
            _ => None,
        }
    }

    /// Checks `value` against the type and returns it in canonical form.
    ///
    /// # Errors
    /// [`OptionError`] naming the option (in `dialect`'s spelling), the
    /// value and what is allowed.
    pub fn check_value<'v>(
        &self,
        dialect: ProtocolDialect,
        value: Option<&'v str>,
    ) -> Result<OptionValue<'v>, OptionError> {
        Ok(match self.kind {
            OptionType::Spin { min, max, .. } => {
                OptionValue::Int(self.int(dialect, value, min, max)?)
            }
            OptionType::Check { .. } => OptionValue::Bool(self.boolean(dialect, value)?),
            OptionType::Combo { vars, .. } => OptionValue::Text(self.choice(dialect, value, vars)?),
            OptionType::Button { .. } => OptionValue::Button,
            OptionType::String { .. } => OptionValue::Free(self.required(dialect, value)?),
        })
    }

    /// Checks `value` (as [`OptionSpec::check_value`], in the session's
    /// dialect) and runs the setter with it.
    fn set(&self, s: &mut Session, value: Option<&str>) -> SetResult {
        let dialect = s.dialect;
        match self.kind {
            OptionType::Spin { min, max, set, .. } => set(s, self.int(dialect, value, min, max)?),
            OptionType::Check { set, .. } => set(s, self.boolean(dialect, value)?),
            OptionType::Combo { vars, set, .. } => set(s, self.choice(dialect, value, vars)?),
            OptionType::Button { press } => press(s),
            OptionType::String { set, .. } => set(s, self.required(dialect, value)?),
        }
    }

    /// The value, trimmed; an option other than a button needs one.
    fn required<'v>(
        &self,
        dialect: ProtocolDialect,
        value: Option<&'v str>,
    ) -> Result<&'v str, OptionError> {
        value
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| OptionError::MissingValue(self.name(dialect).to_string()))
    }

    fn bad(&self, dialect: ProtocolDialect, v: &str, expected: String) -> OptionError {
        OptionError::BadValue {
            option: self.name(dialect).to_string(),
            value: echo(v),
            expected,
        }
    }

    fn int(
        &self,
        dialect: ProtocolDialect,
        value: Option<&str>,
        min: i64,
        max: i64,
    ) -> Result<i64, OptionError> {
        let v = self.required(dialect, value)?;
        match v.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(self.bad(dialect, v, format!("an integer from {min} to {max}"))),
        }
    }

    fn boolean(&self, dialect: ProtocolDialect, value: Option<&str>) -> Result<bool, OptionError> {
        let v = self.required(dialect, value)?;
        match v.to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(self.bad(dialect, v, "true or false".to_string())),
        }
    }

    fn choice(
        &self,
        dialect: ProtocolDialect,
        value: Option<&str>,
        vars: &'static [&'static str],
    ) -> Result<&'static str, OptionError> {
        let v = self.required(dialect, value)?;
        vars.iter()
            .find(|x| x.eq_ignore_ascii_case(v))
            .copied()
            .ok_or_else(|| self.bad(dialect, v, format!("one of {}", vars.join(", "))))
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
pub enum OptionValue<'v> {
    /// Spin.
    Int(i64),
    /// Check.
    Bool(bool),
    /// Combo (canonical spelling).
    Text(&'static str),
    /// Button press.
    Button,
    /// Free text: the value as given (trimmed).
    Free(&'v str),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{cecp, uci, MemorySink};

    fn spec(name: &str) -> &'static OptionSpec {
        match OptionSpec::find(name) {
            Some(o) => o,
            None => panic!("no option {name}"),
        }
    }

    #[test]
    fn option_lookup() {
        let found = |n: &str| OptionSpec::find(n).map(|o| o.uci_name);
        assert_eq!(found("usi_hash"), Some("Hash"));
        assert_eq!(found("Hash"), Some("Hash"));
        assert_eq!(found("move overhead"), Some("Move Overhead"));
        assert_eq!(found("Move_Overhead"), Some("Move Overhead"));
        assert_eq!(found("USI_Ponder"), Some("Ponder"));
        assert_eq!(found("Hashish"), None);
        let native = |w| OptionSpec::for_cecp(w).map(|o| o.uci_name);
        assert_eq!(native(CecpNative::Memory), Some("Hash"));
        assert_eq!(native(CecpNative::Cores), Some("Threads"));
    }

    #[test]
    fn option_values() {
        let hash = spec("Hash");
        let uci = ProtocolDialect::Uci;
        assert_eq!(hash.check_value(uci, Some("64")), Ok(OptionValue::Int(64)));
        assert!(hash.check_value(uci, Some("0")).is_err());
        assert!(hash.check_value(uci, Some("lots")).is_err());
        assert!(matches!(
            hash.check_value(uci, None),
            Err(OptionError::MissingValue(_))
        ));
        assert_eq!(hash.clamp(0), Some(1));
        assert_eq!(hash.clamp(1 << 40), Some(MAX_HASH_MB));
        assert_eq!(
            spec("Repetition").check_value(uci, Some("SCOREEND")),
            Ok(OptionValue::Text("scoreEnd"))
        );
        // The apps' rules (records that repeat a 4th time and play on).
        assert_eq!(
            spec("Repetition").check_value(uci, Some("off")),
            Ok(OptionValue::Text("off"))
        );
        assert_eq!(
            spec("Clear Hash").check_value(uci, None),
            Ok(OptionValue::Button)
        );
        assert_eq!(
            spec("EvalFile").check_value(uci, Some(" a.nnue ")),
            Ok(OptionValue::Free("a.nnue"))
        );
        assert_eq!(spec("Scoring").clamp(1), None);
    }

    /// Each name is unique in each dialect, so `find` is unambiguous.
    #[test]
    fn names_are_unique() {
        for (i, a) in OPTIONS.iter().enumerate() {
            for b in &OPTIONS[i + 1..] {
                for x in [a.uci_name, a.usi_name] {
                    for y in [b.uci_name, b.usi_name] {
                        assert_ne!(normalize(x), normalize(y), "{x} / {y}");
                    }
                }
            }
        }
    }

    /// The option-related state of a session: a setter that is refused must
    /// leave it as it was.
    fn state(s: &Session) -> String {
        let ptr = |n: Option<&Arc<Network>>| n.map(Arc::as_ptr);
        let c = s.engine.config();
        let config = EngineConfig {
            eval_file: None,
            ..c.clone()
        };
        format!(
            "{config:?} {:?} {:?} {:?} {:?} {:?}",
            ptr(c.eval_file.as_ref()),
            s.rules,
            s.engine,
            s.engine.skill(),
            ptr(s.engine.network().as_ref()),
        )
    }

    fn session(first: &str) -> (Session, MemorySink) {
        let sink = MemorySink::default();
        let mut s = Session::new(sink.clone());
        s.handle_line(first);
        (s, sink)
    }

    /// The lines `line` adds to the session's output.
    fn ask(s: &mut Session, sink: &MemorySink, line: &str) -> Vec<String> {
        let before = sink.lines().len();
        s.handle_line(line);
        sink.lines()[before..].to_vec()
    }

    /// The default as the handshake writes it (none for a button).
    fn default_text(o: &OptionSpec) -> Option<String> {
        match o.kind {
            OptionType::Spin { default, .. } => Some(default.to_string()),
            OptionType::Check { default, .. } => Some(default.to_string()),
            OptionType::Combo { default, .. } | OptionType::String { default, .. } => {
                Some(default.to_string())
            }
            OptionType::Button { .. } => None,
        }
    }

    /// Values the option must refuse: out of its range, not of its type,
    /// not one of its choices, a file that does not exist.
    fn bad_values(o: &OptionSpec) -> Vec<String> {
        match o.kind {
            OptionType::Spin { min, max, .. } => {
                vec![(min - 1).to_string(), (max + 1).to_string(), "x".into()]
            }
            OptionType::Check { .. } => vec!["maybe".into(), "2".into()],
            OptionType::Combo { .. } => vec!["no-such-choice".into()],
            OptionType::String { file: true, .. } => vec!["/nonexistent/janggi.nnue".into()],
            OptionType::Button { .. } | OptionType::String { file: false, .. } => Vec::new(),
        }
    }

    /// Every option of the table is advertised, with the table's default,
    /// in table order, in UCI, USI and UCCI.
    #[test]
    fn every_option_is_in_every_handshake() {
        for (dialect, first, ok) in [
            (ProtocolDialect::Uci, "uci", "uciok"),
            (ProtocolDialect::Usi, "usi", "usiok"),
            (ProtocolDialect::Ucci, "ucci", "ucciok"),
        ] {
            let (_s, sink) = session(first);
            let lines = sink.lines();
            assert_eq!(lines.last().map(String::as_str), Some(ok));
            let options: Vec<&String> = lines
                .iter()
                .filter(|l| l.starts_with("option name "))
                .collect();
            assert_eq!(options.len(), OPTIONS.len(), "{first}: {lines:?}");
            for (o, line) in OPTIONS.iter().zip(options) {
                assert_eq!(*line, uci::option_line(o, dialect));
                let head = format!("option name {} type ", o.name(dialect));
                assert!(line.starts_with(&head), "{first}: {line}");
                if let Some(d) = default_text(o) {
                    assert!(line.contains(&format!(" default {d}")), "{first}: {line}");
                }
            }
        }
    }

    /// CECP offers exactly the options marked `Feature`, with the table's
    /// default (a check box as 0/1).
    #[test]
    fn every_feature_option_is_offered_in_cecp() {
        let (mut s, sink) = session("xboard");
        let lines = ask(&mut s, &sink, "protover 2");
        assert_eq!(lines.last().map(String::as_str), Some("feature done=1"));
        for o in &OPTIONS {
            let head = format!("feature option=\"{} -", o.uci_name);
            let offered: Vec<&String> = lines.iter().filter(|l| l.starts_with(&head)).collect();
            if o.cecp != CecpAccess::Feature {
                assert!(offered.is_empty(), "{offered:?}");
                continue;
            }
            assert_eq!(offered, vec![&cecp::option_feature(o)]);
            let default = match o.kind {
                OptionType::Check { default, .. } => Some(u8::from(default).to_string()),
                _ => default_text(o),
            };
            if let Some(d) = default {
                assert!(offered[0].contains(&format!(" {d}")), "{}", offered[0]);
            }
        }
    }

    /// Each setter, in each dialect's spelling, accepts the table's
    /// default and leaves the session as it started (so the session's
    /// initial state is the table's defaults); each refuses a missing,
    /// out-of-range or ill-typed value with one error line and no change.
    #[test]
    fn every_setter_accepts_its_default_and_refuses_bad_values() {
        for (dialect, first) in [(ProtocolDialect::Uci, "uci"), (ProtocolDialect::Usi, "usi")] {
            let (mut s, sink) = session(first);
            let start = state(&s);
            for o in &OPTIONS {
                let name = o.name(dialect);
                let set = match default_text(o) {
                    Some(d) => format!("setoption name {name} value {d}"),
                    None => format!("setoption name {name}"),
                };
                let out = ask(&mut s, &sink, &set);
                let said = match o.kind {
                    OptionType::String { default, .. } => {
                        vec![format!("info string EvalFile {default}: network loaded")]
                    }
                    _ => Vec::new(),
                };
                assert_eq!(out, said, "{set}");
                assert_eq!(state(&s), start, "{set}");
                let mut bad: Vec<String> = bad_values(o)
                    .iter()
                    .map(|v| format!("setoption name {name} value {v}"))
                    .collect();
                if default_text(o).is_some() {
                    bad.push(format!("setoption name {name}"));
                }
                for line in bad {
                    let out = ask(&mut s, &sink, &line);
                    assert_eq!(out.len(), 1, "{line}: {out:?}");
                    assert!(
                        out[0].starts_with("info string error: setoption: "),
                        "{line}: {out:?}"
                    );
                    assert_eq!(state(&s), start, "{line}");
                }
            }
        }
    }

    /// CECP's `memory` and `cores` set `Hash` and `Threads`, clamped to the
    /// table's range.
    #[test]
    fn cecp_memory_and_cores_are_clamped_by_the_table() {
        let (mut s, sink) = session("xboard");
        assert!(ask(&mut s, &sink, "memory 0").is_empty());
        assert!(format!("{:?}", s.engine).contains("hash_mb: 1,"));
        assert!(ask(&mut s, &sink, "memory 8").is_empty());
        assert!(format!("{:?}", s.engine).contains("hash_mb: 8,"));
        assert!(ask(&mut s, &sink, "cores 0").is_empty());
        assert_eq!(s.engine.config().threads, 1);
        assert!(ask(&mut s, &sink, "cores 2").is_empty());
        assert_eq!(s.engine.config().threads, 2);
        assert!(format!("{:?}", s.engine).contains("threads: 2,"));
    }
}
