//! The rules a record is read under when the user names them
//! (`--variant janggimodern`, `--rules "bikjang=off repetition=off"`), and
//! the `name=value` list that `[Rules]` and `--rules` share.

use janggi_core::{RuleError, Rules};
use std::fmt;

/// Why a `--variant`/`--rules` value (or a `[Rules]` tag) is not rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesArgError {
    /// An unknown variant, option or value.
    Rule(RuleError),
    /// A list item that is not `name=value`.
    BadPair(String),
}

impl fmt::Display for RulesArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesArgError::Rule(e) => e.fmt(f),
            RulesArgError::BadPair(p) => write!(f, "'{p}' is not name=value"),
        }
    }
}

impl std::error::Error for RulesArgError {}

/// Sets each `name=value` of `list` (space-separated: `bikjang=off
/// repetition=lose`) on `rules`.
///
/// # Errors
/// [`RulesArgError`]: an item that is not `name=value`, or an unknown
/// option or value.
pub fn apply_options(rules: &mut Rules, list: &str) -> Result<(), RulesArgError> {
    for pair in list.split_whitespace() {
        let (k, v) = pair
            .split_once('=')
            .ok_or_else(|| RulesArgError::BadPair(pair.to_string()))?;
        rules.set_option(k, v).map_err(RulesArgError::Rule)?;
    }
    Ok(())
}

/// The rules `--variant` and `--rules` name: `None` when neither is given
/// (the records' own rules then), else the variant (KJF's when only
/// `--rules` is given) with the options set over it.
///
/// # Errors
/// [`RulesArgError`]: an unknown variant, option or value.
pub fn rules_from_args(
    variant: Option<&str>,
    options: Option<&str>,
) -> Result<Option<Rules>, RulesArgError> {
    if variant.is_none() && options.is_none() {
        return Ok(None);
    }
    let mut rules = match variant {
        Some(v) => Rules::from_variant(v).map_err(RulesArgError::Rule)?,
        None => Rules::default(),
    };
    if let Some(list) = options {
        apply_options(&mut rules, list)?;
    }
    Ok(Some(rules))
}

#[cfg(test)]
mod tests {
    use super::*;
    use janggi_core::{BikjangRule, RepetitionRule};

    #[test]
    fn variant_and_options() {
        assert_eq!(rules_from_args(None, None), Ok(None));
        let r = rules_from_args(Some("janggimodern"), None)
            .unwrap()
            .unwrap();
        assert_eq!(r, Rules::from_variant("janggimodern").unwrap());
        let r = rules_from_args(None, Some("bikjang=off repetition=off"))
            .unwrap()
            .unwrap();
        assert_eq!(r.bikjang, BikjangRule::Off);
        assert_eq!(r.repetition, RepetitionRule::Off);
        assert!(rules_from_args(Some("chess"), None)
            .unwrap_err()
            .to_string()
            .contains("unknown variant 'chess'"));
        assert_eq!(
            rules_from_args(None, Some("bikjang")),
            Err(RulesArgError::BadPair("bikjang".to_string()))
        );
    }
}
