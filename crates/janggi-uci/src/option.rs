//! Engine options: the `option` lines an engine declares in its
//! handshake, and the `setoption` lines a client answers with.
//!
//! ```text
//! option name NAME type check default (true|false)
//! option name NAME type spin default N min N max N
//! option name NAME type combo default VALUE var VALUE…
//! option name NAME type string default (TEXT|<empty>)
//! option name NAME type button
//! setoption name NAME [value VALUE]
//! ```
//!
//! Names and values may hold spaces (`Move Overhead`): a name runs to
//! `type` (`value`), a value to the next keyword. An empty string default
//! is written `<empty>`, as Stockfish writes it.

use crate::error::ParseError;
use crate::words::Words;
use std::fmt;
use std::str::FromStr;

/// How an empty string default is written.
const EMPTY: &str = "<empty>";

/// The type of an option, with its default and range or choices.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OptionKind {
    /// `type check default true|false`.
    Check {
        /// Default.
        default: bool,
    },
    /// `type spin default N min A max B`.
    Spin {
        /// Default.
        default: i64,
        /// Least value.
        min: i64,
        /// Greatest value.
        max: i64,
    },
    /// `type combo default V var A var B …`.
    Combo {
        /// Default.
        default: String,
        /// The choices.
        vars: Vec<String>,
    },
    /// `type string default TEXT`.
    String {
        /// Default (empty for `<empty>`).
        default: String,
    },
    /// `type button`.
    Button,
}

/// An `option` line: an option the engine has.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OptionDecl {
    /// The name, as the engine spells it.
    pub name: String,
    /// Its type, default and range.
    pub kind: OptionKind,
}

impl OptionDecl {
    /// Whether the option accepts `value`: a combo one of its `var`s
    /// (case-insensitive), a check `true`/`false`, a spin a number in its
    /// range; a string anything, a button nothing but an empty value.
    pub fn accepts(&self, value: &str) -> bool {
        match &self.kind {
            OptionKind::Check { .. } => {
                value.eq_ignore_ascii_case("true") || value.eq_ignore_ascii_case("false")
            }
            OptionKind::Spin { min, max, .. } => value
                .trim()
                .parse::<i64>()
                .is_ok_and(|v| (*min..=*max).contains(&v)),
            OptionKind::Combo { vars, .. } => vars.iter().any(|v| v.eq_ignore_ascii_case(value)),
            OptionKind::String { .. } => true,
            OptionKind::Button => value.is_empty(),
        }
    }

    /// The `var`s of a combo option (empty for any other type).
    pub fn vars(&self) -> &[String] {
        match &self.kind {
            OptionKind::Combo { vars, .. } => vars,
            _ => &[],
        }
    }
}

fn is_keyword(w: &str) -> bool {
    matches!(w, "name" | "type" | "default" | "min" | "max" | "var")
}

impl fmt::Display for OptionDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            OptionKind::String { default } if default.is_empty() => {
                write!(f, "string default {EMPTY}")
            }
            OptionKind::String { default } => write!(f, "string default {default}"),
            OptionKind::Button => f.write_str("button"),
        }
    }
}

impl FromStr for OptionDecl {
    type Err = ParseError;

    /// Reads an `option` line (see the module's syntax); the fields after
    /// `type` may come in any order.
    ///
    /// # Errors
    /// [`ParseError`]: not an `option` line, no name, an unknown type or
    /// word, a missing or bad default, min or max.
    fn from_str(line: &str) -> Result<OptionDecl, ParseError> {
        read_decl(line)
    }
}

/// [`OptionDecl::from_str`], with the line's lifetime named for the
/// `default` text it borrows.
fn read_decl<'a>(line: &'a str) -> Result<OptionDecl, ParseError> {
    let mut w = Words::new(line);
    w.expect("option")?;
    match w.next() {
        Some("name") => {}
        Some(other) => return Err(ParseError::UnknownToken(other.to_string())),
        None => return Err(ParseError::MissingValue("option")),
    }
    let name = w.until(|t| t == "type");
    if name.is_empty() {
        return Err(ParseError::MissingValue("name"));
    }
    if w.next() != Some("type") {
        return Err(ParseError::MissingValue("type"));
    }
    let kind = w.value("type")?;
    let (mut default, mut min, mut max, mut vars) = (None, None, None, Vec::new());
    while let Some(word) = w.next() {
        match word {
            "default" => default = Some(w.until(is_keyword)),
            "min" => min = Some(w.number::<i64>("min")?),
            "max" => max = Some(w.number::<i64>("max")?),
            "var" => vars.push(w.until(is_keyword).to_string()),
            other => return Err(ParseError::UnknownToken(other.to_string())),
        }
    }
    let need = |v: Option<&'a str>| v.ok_or(ParseError::MissingValue("default"));
    let kind = match kind {
        "check" => OptionKind::Check {
            default: match need(default)? {
                "true" => true,
                "false" => false,
                other => {
                    return Err(ParseError::BadValue {
                        field: "default",
                        text: other.to_string(),
                    })
                }
            },
        },
        "spin" => {
            let text = need(default)?;
            OptionKind::Spin {
                default: text.parse().map_err(|_| ParseError::BadNumber {
                    field: "default",
                    text: text.to_string(),
                })?,
                min: min.ok_or(ParseError::MissingValue("min"))?,
                max: max.ok_or(ParseError::MissingValue("max"))?,
            }
        }
        "combo" => OptionKind::Combo {
            default: need(default)?.to_string(),
            vars,
        },
        "string" => OptionKind::String {
            default: match need(default)? {
                EMPTY => String::new(),
                text => text.to_string(),
            },
        },
        "button" => OptionKind::Button,
        other => {
            return Err(ParseError::BadValue {
                field: "type",
                text: other.to_string(),
            })
        }
    };
    Ok(OptionDecl {
        name: name.to_string(),
        kind,
    })
}

/// A `setoption` line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SetOption {
    /// The option's name.
    pub name: String,
    /// The value (`None` for a button).
    pub value: Option<String>,
}

impl SetOption {
    /// `setoption name NAME value VALUE`.
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> SetOption {
        SetOption {
            name: name.into(),
            value: Some(value.into()),
        }
    }
}

impl fmt::Display for SetOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "setoption name {}", self.name)?;
        match &self.value {
            Some(v) => write!(f, " value {v}"),
            None => Ok(()),
        }
    }
}

impl FromStr for SetOption {
    type Err = ParseError;

    /// Reads `setoption name NAME [value VALUE]`; the value runs to the
    /// end of the line (it may be empty: `value` alone).
    ///
    /// # Errors
    /// [`ParseError`]: not a `setoption` line, no `name`, or an empty one.
    fn from_str(line: &str) -> Result<SetOption, ParseError> {
        let mut w = Words::new(line);
        w.expect("setoption")?;
        match w.next() {
            Some("name") => {}
            Some(other) => return Err(ParseError::UnknownToken(other.to_string())),
            None => return Err(ParseError::MissingValue("setoption")),
        }
        let name = w.until(|t| t == "value");
        if name.is_empty() {
            return Err(ParseError::MissingValue("name"));
        }
        // After the name comes `value` (the only word that ends it).
        let value = w.next().map(|_value| w.rest().to_string());
        Ok(SetOption {
            name: name.to_string(),
            value,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_round_trip() {
        for line in [
            "option name Hash type spin default 16 min 1 max 33554432",
            "option name Move Overhead type spin default 10 min 0 max 5000",
            "option name Contempt type spin default -5 min -100 max 100",
            "option name UCI_ShowWDL type check default false",
            "option name UCI_Variant type combo default janggi var chess var janggi var janggimodern",
            "option name Style type combo default Solid Play var Solid Play var Risky",
            "option name VariantPath type string default <empty>",
            "option name EvalFile type string default nn-1.nnue",
            "option name Clear Hash type button",
        ] {
            let o: OptionDecl = line.parse().unwrap();
            assert_eq!(o.to_string(), line);
        }
        let o: OptionDecl =
            "option name Style type combo default Solid Play var Solid Play var Risky"
                .parse()
                .unwrap();
        assert_eq!(o.name, "Style");
        assert_eq!(o.vars(), ["Solid Play", "Risky"]);
        assert!(o.accepts("risky") && !o.accepts("Wild"));
        // Fields after `type` in another order.
        let o: OptionDecl = "option name Threads type spin min 1 max 8 default 1"
            .parse()
            .unwrap();
        assert_eq!(
            o.kind,
            OptionKind::Spin {
                default: 1,
                min: 1,
                max: 8
            }
        );
        assert!(o.accepts("8") && !o.accepts("9") && !o.accepts("x"));
        assert!(o.vars().is_empty());
    }

    #[test]
    fn bad_declarations_are_typed_errors() {
        assert_eq!(
            "option name".parse::<OptionDecl>(),
            Err(ParseError::MissingValue("name"))
        );
        assert_eq!(
            "option name X".parse::<OptionDecl>(),
            Err(ParseError::MissingValue("type"))
        );
        assert_eq!(
            "option name X type spin default 1 min 0".parse::<OptionDecl>(),
            Err(ParseError::MissingValue("max"))
        );
        assert_eq!(
            "option name X type check default maybe".parse::<OptionDecl>(),
            Err(ParseError::BadValue {
                field: "default",
                text: "maybe".into()
            })
        );
        assert_eq!(
            "option name X type slider default 1".parse::<OptionDecl>(),
            Err(ParseError::BadValue {
                field: "type",
                text: "slider".into()
            })
        );
        assert_eq!(
            "option name X type spin default 1 min a max 2".parse::<OptionDecl>(),
            Err(ParseError::BadNumber {
                field: "min",
                text: "a".into()
            })
        );
        assert_eq!(
            "id name X".parse::<OptionDecl>(),
            Err(ParseError::NotThisCommand { expected: "option" })
        );
    }

    #[test]
    fn setoption_lines_round_trip() {
        for line in [
            "setoption name UCI_Variant value janggimodern",
            "setoption name Move Overhead value 50",
            "setoption name SearchTune value a=1 b=2",
            "setoption name Clear Hash",
        ] {
            let s: SetOption = line.parse().unwrap();
            assert_eq!(s.to_string(), line);
        }
        let s: SetOption = "setoption name Move Overhead value 50".parse().unwrap();
        assert_eq!(s, SetOption::new("Move Overhead", "50"));
        assert_eq!(
            "setoption value 3".parse::<SetOption>(),
            Err(ParseError::UnknownToken("value".into()))
        );
        assert_eq!(
            "setoption name value 3".parse::<SetOption>(),
            Err(ParseError::MissingValue("name"))
        );
        let empty: SetOption = "setoption name EvalFile value".parse().unwrap();
        assert_eq!(empty.value.as_deref(), Some(""));
    }
}
