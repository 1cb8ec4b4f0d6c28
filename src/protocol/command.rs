//! Parsing one input line into a [`Command`].
//!
//! Parsing is syntax only: move text and FEN stay text here and become
//! values at the boundary, against the position they apply to (see
//! [`super::Session`]). Tokens are separated by any whitespace, so extra
//! spaces, tabs and a trailing `\r` (CRLF input) do not matter; command
//! words are case-insensitive.
//!
//! ```
//! use janggi::protocol::command::{Command, StartPos};
//! assert_eq!(
//!     Command::parse("position startpos moves b1c3  h10g8\r"),
//!     Ok(Command::Position { start: StartPos::Startpos, moves: vec!["b1c3".into(), "h10g8".into()] })
//! );
//! ```

use janggi_uci::{Go, LenientGo, ParseError};
use std::fmt;

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPos {
    /// `startpos`.
    Startpos,
    /// `fen …` (the FEN fields joined by single spaces).
    Fen(String),
    /// `sfen …` (USI; converted to FEN at the boundary).
    Sfen(String),
}

/// USI `gameover` result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOverResult {
    /// `win`.
    Win,
    /// `lose`.
    Lose,
    /// `draw`.
    Draw,
}

/// One input line, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: choose the UCI dialect, print id, options, `uciok`.
    Uci,
    /// `usi`: choose the USI dialect, print id, options, `usiok`.
    Usi,
    /// `ucci`: choose the UCCI dialect, print id, options, `ucciok`.
    Ucci,
    /// `xboard`: choose CECP (XBoard/WinBoard); its lines are parsed by
    /// [`super::cecp`] from then on.
    Xboard,
    /// `debug on|off` (accepted, no effect).
    Debug(bool),
    /// `isready`.
    IsReady,
    /// `setoption name N [value V]`.
    SetOption {
        /// Option name (words joined by single spaces).
        name: String,
        /// Value, if given.
        value: Option<String>,
    },
    /// `ucinewgame` / `usinewgame`.
    NewGame,
    /// `position startpos|fen …|sfen … [moves …]`.
    Position {
        /// Start position.
        start: StartPos,
        /// Move texts, in the dialect's notation.
        moves: Vec<String>,
    },
    /// `go …`, read leniently ([`Go::read_lenient`]: negative times as 0,
    /// UCCI's clock words, `perft N`; unknown words are kept for the
    /// session to report, and the search still starts). Boxed: it is by
    /// far the largest command.
    Go(Box<LenientGo>),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// USI `gameover win|lose|draw`.
    GameOver(GameOverResult),
    /// `d`: board diagram, FEN, key, checkers.
    Display,
    /// `legal`: the legal moves.
    Legal,
    /// `result`: the game's result.
    Result,
    /// `eval`: the static evaluation, term by term.
    Eval,
    /// `bench [depth]`.
    Bench {
        /// Depth override.
        depth: Option<u32>,
    },
}

/// A line that is not a valid command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// Nothing but whitespace (callers usually ignore this silently).
    Empty,
    /// The first word is no command.
    UnknownCommand(String),
    /// A required part is missing.
    Missing {
        /// The command.
        command: &'static str,
        /// What is missing.
        what: &'static str,
    },
    /// A parameter with no value after it.
    MissingValue {
        /// The command.
        command: &'static str,
        /// The parameter.
        param: &'static str,
    },
    /// A number that does not parse.
    BadNumber {
        /// The command.
        command: &'static str,
        /// The parameter.
        param: String,
        /// The text given.
        value: String,
    },
    /// A word that does not belong here.
    Unexpected {
        /// The command.
        command: &'static str,
        /// The word.
        token: String,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Empty => write!(f, "empty line"),
            CommandError::UnknownCommand(c) => write!(f, "unknown command '{c}'"),
            CommandError::Missing { command, what } => write!(f, "{command}: missing {what}"),
            CommandError::MissingValue { command, param } => {
                write!(f, "{command}: missing a number after {param}")
            }
            CommandError::BadNumber {
                command,
                param,
                value,
            } => {
                write!(f, "{command}: '{value}' is not a valid number for {param}")
            }
            CommandError::Unexpected { command, token } => {
                write!(f, "{command}: unexpected '{token}'")
            }
        }
    }
}

impl std::error::Error for CommandError {}

/// The longest command word echoed back in an error (a garbage line may be
/// huge).
const MAX_ECHO: usize = 40;

/// Shortens `s` for an error message.
pub(crate) fn echo(s: &str) -> String {
    if s.chars().count() <= MAX_ECHO {
        s.to_string()
    } else {
        let head: String = s.chars().take(MAX_ECHO).collect();
        format!("{head}…")
    }
}

fn number<T: std::str::FromStr>(
    command: &'static str,
    param: &str,
    value: Option<&str>,
    what: &'static str,
) -> Result<T, CommandError> {
    let v = value.ok_or(CommandError::Missing { command, what })?;
    v.parse().map_err(|_| CommandError::BadNumber {
        command,
        param: param.to_string(),
        value: echo(v),
    })
}

impl Command {
    /// Parses one line.
    ///
    /// # Errors
    /// [`CommandError`]; [`CommandError::Empty`] for a blank line.
    pub fn parse(line: &str) -> Result<Command, CommandError> {
        let mut tokens = line.split_whitespace();
        let Some(first) = tokens.next() else {
            return Err(CommandError::Empty);
        };
        let rest: Vec<&str> = tokens.collect();
        let word = first.to_ascii_lowercase();
        let no_args = |c: Command, name: &'static str| match rest.first() {
            None => Ok(c),
            Some(t) => Err(CommandError::Unexpected {
                command: name,
                token: echo(t),
            }),
        };
        match word.as_str() {
            "uci" => no_args(Command::Uci, "uci"),
            "usi" => no_args(Command::Usi, "usi"),
            "ucci" => no_args(Command::Ucci, "ucci"),
            "xboard" => no_args(Command::Xboard, "xboard"),
            "isready" => no_args(Command::IsReady, "isready"),
            "ucinewgame" | "usinewgame" => Ok(Command::NewGame),
            "stop" => no_args(Command::Stop, "stop"),
            "ponderhit" => no_args(Command::PonderHit, "ponderhit"),
            "quit" => Ok(Command::Quit),
            "d" => no_args(Command::Display, "d"),
            "legal" => no_args(Command::Legal, "legal"),
            "result" => no_args(Command::Result, "result"),
            "eval" => no_args(Command::Eval, "eval"),
            "debug" => match rest.first().map(|t| t.to_ascii_lowercase()).as_deref() {
                Some("on") => Ok(Command::Debug(true)),
                Some("off") | None => Ok(Command::Debug(false)),
                Some(_) => Err(CommandError::Unexpected {
                    command: "debug",
                    token: echo(rest[0]),
                }),
            },
            "gameover" => match rest.first().map(|t| t.to_ascii_lowercase()).as_deref() {
                Some("win") => Ok(Command::GameOver(GameOverResult::Win)),
                Some("lose") => Ok(Command::GameOver(GameOverResult::Lose)),
                Some("draw") => Ok(Command::GameOver(GameOverResult::Draw)),
                Some(_) => Err(CommandError::Unexpected {
                    command: "gameover",
                    token: echo(rest[0]),
                }),
                None => Err(CommandError::Missing {
                    command: "gameover",
                    what: "win, lose or draw",
                }),
            },
            "bench" => match rest.first() {
                None => Ok(Command::Bench { depth: None }),
                Some(&d) => Ok(Command::Bench {
                    depth: Some(number("bench", "depth", Some(d), "depth")?),
                }),
            },
            "setoption" => parse_setoption(&rest),
            "position" => parse_position(&rest),
            "go" => Go::read_lenient(line)
                .map(|g| Command::Go(Box::new(g)))
                .map_err(go_error),
            _ => Err(CommandError::UnknownCommand(echo(first))),
        }
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    const C: &str = "setoption";
    match rest.first() {
        Some(t) if t.eq_ignore_ascii_case("name") => {}
        Some(t) => {
            return Err(CommandError::Unexpected {
                command: C,
                token: echo(t),
            })
        }
        None => {
            return Err(CommandError::Missing {
                command: C,
                what: "'name'",
            })
        }
    }
    let body = &rest[1..];
    let split = body.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let (name, value) = match split {
        Some(i) => (&body[..i], Some(body[i + 1..].join(" "))),
        None => (body, None),
    };
    if name.is_empty() {
        return Err(CommandError::Missing {
            command: C,
            what: "option name",
        });
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    const C: &str = "position";
    let moves_at = rest.iter().position(|t| t.eq_ignore_ascii_case("moves"));
    let (head, moves) = match moves_at {
        Some(i) => (
            &rest[..i],
            rest[i + 1..].iter().map(|s| s.to_string()).collect(),
        ),
        None => (rest, Vec::new()),
    };
    let Some(kind) = head.first() else {
        return Err(CommandError::Missing {
            command: C,
            what: "'startpos', 'fen' or 'sfen'",
        });
    };
    let start = match kind.to_ascii_lowercase().as_str() {
        "startpos" => {
            if let Some(t) = head.get(1) {
                return Err(CommandError::Unexpected {
                    command: C,
                    token: echo(t),
                });
            }
            StartPos::Startpos
        }
        "fen" | "sfen" => {
            if head.len() < 2 {
                return Err(CommandError::Missing {
                    command: C,
                    what: "FEN",
                });
            }
            let text = head[1..].join(" ");
            if kind.eq_ignore_ascii_case("fen") {
                StartPos::Fen(text)
            } else {
                StartPos::Sfen(text)
            }
        }
        _ => {
            return Err(CommandError::Unexpected {
                command: C,
                token: echo(kind),
            })
        }
    };
    Ok(Command::Position { start, moves })
}

/// What was wrong with a `go` line, in this module's terms.
fn go_error(e: ParseError) -> CommandError {
    const C: &str = "go";
    match e {
        ParseError::MissingValue(param) => CommandError::MissingValue { command: C, param },
        ParseError::BadNumber { field, text } | ParseError::BadValue { field, text } => {
            CommandError::BadNumber {
                command: C,
                param: field.to_string(),
                value: echo(&text),
            }
        }
        // Not returned by the lenient reader (unknown words are kept, the
        // line starts with `go`); mapped rather than assumed.
        ParseError::UnknownToken(token) => CommandError::Unexpected {
            command: C,
            token: echo(&token),
        },
        ParseError::NotThisCommand { .. } => CommandError::UnknownCommand(C.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_commands() {
        assert_eq!(Command::parse("uci"), Ok(Command::Uci));
        assert_eq!(Command::parse("  isready \r"), Ok(Command::IsReady));
        assert_eq!(Command::parse("USI"), Ok(Command::Usi));
        assert_eq!(Command::parse(""), Err(CommandError::Empty));
        assert_eq!(Command::parse(" \t\r"), Err(CommandError::Empty));
        assert_eq!(Command::parse("quit"), Ok(Command::Quit));
        assert_eq!(
            Command::parse("frobnicate x"),
            Err(CommandError::UnknownCommand("frobnicate".into()))
        );
        assert!(matches!(
            Command::parse("isready now"),
            Err(CommandError::Unexpected { .. })
        ));
        assert_eq!(
            Command::parse("gameover win"),
            Ok(Command::GameOver(GameOverResult::Win))
        );
        assert_eq!(
            Command::parse("bench 3"),
            Ok(Command::Bench { depth: Some(3) })
        );
        assert!(matches!(
            Command::parse("bench x"),
            Err(CommandError::BadNumber { .. })
        ));
    }

    #[test]
    fn setoption_names_with_spaces() {
        assert_eq!(
            Command::parse("setoption name Move Overhead value 30"),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            })
        );
        assert_eq!(
            Command::parse("setoption  name   Clear   Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            Command::parse("setoption name UCI_Variant value janggi\r"),
            Ok(Command::SetOption {
                name: "UCI_Variant".into(),
                value: Some("janggi".into())
            })
        );
        assert!(matches!(
            Command::parse("setoption"),
            Err(CommandError::Missing { .. })
        ));
        assert!(matches!(
            Command::parse("setoption name value 3"),
            Err(CommandError::Missing { .. })
        ));
        assert!(matches!(
            Command::parse("setoption Hash 3"),
            Err(CommandError::Unexpected { .. })
        ));
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            Command::parse("position startpos"),
            Ok(Command::Position {
                start: StartPos::Startpos,
                moves: vec![]
            })
        );
        let fen = "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
        assert_eq!(
            Command::parse(&format!("position fen {fen} moves e1e2 e10e9")),
            Ok(Command::Position {
                start: StartPos::Fen(fen.into()),
                moves: vec!["e1e2".into(), "e10e9".into()]
            })
        );
        assert!(matches!(
            Command::parse("position"),
            Err(CommandError::Missing { .. })
        ));
        assert!(matches!(
            Command::parse("position fen"),
            Err(CommandError::Missing { .. })
        ));
        assert!(matches!(
            Command::parse("position startpos b1c3"),
            Err(CommandError::Unexpected { .. })
        ));
        assert!(matches!(
            Command::parse("position somewhere"),
            Err(CommandError::Unexpected { .. })
        ));
    }

    #[test]
    fn go_parameters() {
        let Ok(Command::Go(g)) =
            Command::parse("go wtime 1000 btime -5 winc 10 binc 20 movestogo 5")
        else {
            panic!("go did not parse");
        };
        // A negative time (a clock that ran out) is 0.
        assert_eq!(
            (g.go.wtime, g.go.btime, g.go.winc, g.go.binc, g.go.movestogo),
            (Some(1000), Some(0), Some(10), Some(20), Some(5))
        );
        assert!(g.has_clock());
        let Ok(Command::Go(g)) =
            Command::parse("Go ponder byoyomi 3000 periods 2 searchmoves b1c3 h1g3 DEPTH 4 foo")
        else {
            panic!("go did not parse");
        };
        assert!(g.go.ponder && !g.go.infinite);
        assert_eq!(
            (g.go.byoyomi, g.go.periods, g.go.depth),
            (Some(3000), Some(2), Some(4))
        );
        assert_eq!(
            g.go.searchmoves,
            vec!["b1c3".to_string(), "h1g3".to_string()]
        );
        assert_eq!(g.unknown, vec!["foo".to_string()]);
        assert_eq!(
            Command::parse("go perft 2"),
            Ok(Command::Go(Box::new(LenientGo {
                perft: Some(2),
                ..LenientGo::default()
            })))
        );
        let Ok(Command::Go(g)) = Command::parse("go time 500 increment -1 opptime 9") else {
            panic!("go did not parse");
        };
        assert_eq!((g.ucci.time, g.ucci.increment), (Some(500), Some(0)));
        assert_eq!(
            Command::parse("go depth"),
            Err(CommandError::MissingValue {
                command: "go",
                param: "depth"
            })
        );
        assert_eq!(
            Command::parse("go depth").map_err(|e| e.to_string()),
            Err("go: missing a number after depth".to_string())
        );
        assert!(matches!(
            Command::parse("go depth x"),
            Err(CommandError::BadNumber { .. })
        ));
        assert!(matches!(
            Command::parse("go nodes -3"),
            Err(CommandError::BadNumber { .. })
        ));
        let Ok(Command::Go(g)) = Command::parse("go infinite") else {
            panic!("go did not parse")
        };
        assert!(g.go.infinite && !g.has_clock());
    }

    #[test]
    fn long_garbage_is_echoed_short() {
        let line = "x".repeat(10_000);
        let Err(CommandError::UnknownCommand(w)) = Command::parse(&line) else {
            panic!("expected unknown command")
        };
        assert!(w.chars().count() <= MAX_ECHO + 1);
    }
}
