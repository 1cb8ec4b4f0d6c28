//! Telling an engine the rules with only what it offers.

use super::{EngineProcess, ProcessError};
use janggi_core::Rules;

/// How [`EngineProcess::set_rules`] told the engine the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesSetup {
    /// `UCI_Variant` with the preset the rules are (which the engine offers).
    Variant(String),
    /// This engine's rule options (`Bikjang`, `Repetition`, …), one each.
    Options,
    /// The rules are no preset the engine has and it has no rule options:
    /// `UCI_Variant` with the nearest one it has (`janggi`), so it plays
    /// Janggi, though not exactly these rules.
    Nearest(String),
    /// The engine has neither `UCI_Variant` with a Janggi variant nor rule
    /// options: nothing was sent.
    Unsupported,
}

impl RulesSetup {
    /// Why an engine told the rules this way does not judge positions by
    /// exactly `rules` (`None` when it does: a preset or its rule options).
    /// One sentence, for a warning or a record's comment.
    pub fn caveat(&self, rules: &Rules) -> Option<String> {
        match self {
            RulesSetup::Variant(_) | RulesSetup::Options => None,
            RulesSetup::Nearest(v) => Some(format!(
                "the engine has neither these rules ({rules}) as a variant nor rule options, \
                 so it searched under its nearest variant `{v}`: scores near bikjang, \
                 repetition, counting or move-limit endings may not be these rules'"
            )),
            RulesSetup::Unsupported => Some(format!(
                "the engine was told no rules ({rules}): it offers neither a Janggi \
                 `UCI_Variant` nor rule options, so it searched under its own defaults"
            )),
        }
    }
}

/// The engine option of each rule in [`Rules`]'s text
/// (`bikjang=kjf repetition=forbid …`), with its value.
pub fn rule_options(rules: &Rules) -> Vec<(&'static str, String)> {
    let map = |k: &str| match k {
        "bikjang" => Some("Bikjang"),
        "repetition" => Some("Repetition"),
        "scoring" => Some("Scoring"),
        "allowPass" => Some("AllowPass"),
        "moveLimit" => Some("MoveLimit"),
        "noCaptureLimit" => Some("NoCaptureLimit"),
        _ => None,
    };
    rules
        .to_string()
        .split_whitespace()
        .filter_map(|kv| {
            let (k, v) = kv.split_once('=')?;
            Some((map(k)?, v.to_string()))
        })
        .collect()
}

impl EngineProcess {
    /// Tells the engine the rules, with only what it offers:
    /// `UCI_Variant` with the preset `rules` are (`janggi`,
    /// `janggicasual`, `janggimodern`, `janggitraditional`, and this
    /// engine's `janggikjf`) when it lists it; else this engine's rule
    /// options when it has them (`Bikjang` and `Repetition` at least);
    /// else `UCI_Variant janggi` when it lists that (Fairy-Stockfish);
    /// else nothing.
    ///
    /// # Errors
    /// [`ProcessError::Write`].
    pub fn set_rules(&mut self, rules: &Rules) -> Result<RulesSetup, ProcessError> {
        let variant = self.option("UCI_Variant").map(str::to_string);
        if let Some(opt) = &variant {
            let preset = Rules::VARIANTS.iter().find(|n| {
                Rules::from_variant(n).ok().as_ref() == Some(rules) && self.offers(opt, n)
            });
            if let Some(v) = preset {
                self.set_option(opt, v)?;
                return Ok(RulesSetup::Variant((*v).to_string()));
            }
        }
        if self.option("Bikjang").is_some() && self.option("Repetition").is_some() {
            for (k, v) in rule_options(rules) {
                if let Some(name) = self.option(k).map(str::to_string) {
                    self.set_option(&name, &v)?;
                }
            }
            return Ok(RulesSetup::Options);
        }
        match variant {
            Some(opt) if self.offers(&opt, "janggi") => {
                self.set_option(&opt, "janggi")?;
                Ok(RulesSetup::Nearest("janggi".into()))
            }
            _ => Ok(RulesSetup::Unsupported),
        }
    }
}
