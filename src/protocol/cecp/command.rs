//! Parsing one CECP (XBoard) input line into a [`CecpCommand`].
//!
//! Syntax only, as for the UCI commands: move text stays text and becomes a
//! move against the position it applies to. A line whose first word looks
//! like a move (`b0c2`, `@@@@`) is a move, as XBoard sends them when the
//! `usermove` feature is off.
//!
//! ```
//! use janggi::protocol::cecp::{CecpCommand, CecpLevel};
//! use std::time::Duration;
//! assert_eq!(CecpCommand::parse("usermove b0c2"), Ok(CecpCommand::UserMove("b0c2".into())));
//! assert_eq!(
//!     CecpCommand::parse("level 40 0:30 0.5"),
//!     Ok(CecpCommand::Level(CecpLevel {
//!         moves: 40,
//!         base: Duration::from_secs(30),
//!         inc: Duration::from_millis(500),
//!     }))
//! );
//! ```

use super::super::command::echo;
use std::fmt;
use std::time::Duration;

/// XBoard's time control, `level MPS BASE INC`: moves per session (0: the
/// whole game), base time, increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CecpLevel {
    /// Moves per time control (0: all moves).
    pub moves: u32,
    /// Base time per control.
    pub base: Duration,
    /// Increment per move.
    pub inc: Duration,
}

impl Default for CecpLevel {
    /// XBoard's own default, `level 40 5 0`.
    fn default() -> Self {
        CecpLevel {
            moves: 40,
            base: Duration::from_secs(300),
            inc: Duration::ZERO,
        }
    }
}

/// One CECP input line, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CecpCommand {
    /// `xboard` (again): nothing to do.
    Xboard,
    /// `protover N`: answer with the `feature` lines.
    Protover(u32),
    /// `accepted …` / `rejected …`: replies to our features.
    FeatureReply,
    /// `new`: the start position, the engine plays Han (black), leave
    /// force mode.
    New,
    /// `variant NAME`.
    Variant(String),
    /// `force`: play no side.
    Force,
    /// `go`: play the side to move, and think now.
    Go,
    /// `playother`: play the side not to move.
    PlayOther,
    /// `usermove M` or a bare move.
    UserMove(String),
    /// `setboard FEN`.
    SetBoard(String),
    /// `level MPS BASE INC`.
    Level(CecpLevel),
    /// `st SECONDS`: fixed time per move.
    St(Duration),
    /// `sd DEPTH`.
    Sd(u32),
    /// `time CS`: the engine's clock in centiseconds.
    Time(i64),
    /// `otim CS`: the opponent's clock in centiseconds.
    Otim(i64),
    /// `ping N`.
    Ping(String),
    /// `undo`: take back one ply.
    Undo,
    /// `remove`: take back two plies.
    Remove,
    /// `result RESULT {COMMENT}`: the game is over.
    Result(String),
    /// `post` (true) / `nopost` (false): thinking output.
    Post(bool),
    /// `hard` (true) / `easy` (false): pondering.
    Hard(bool),
    /// `analyze`.
    Analyze,
    /// `exit`: leave analysis.
    Exit,
    /// `.`: analysis status.
    Status,
    /// `?`: move now.
    MoveNow,
    /// `memory MB`.
    Memory(usize),
    /// `cores N`.
    Cores(usize),
    /// `option NAME[=VALUE]`.
    Option {
        /// Option name.
        name: String,
        /// Value (none for a button).
        value: Option<String>,
    },
    /// `draw`: the opponent offers a draw.
    Draw,
    /// `quit`.
    Quit,
    /// Commands that need no answer here (`random`, `computer`, `name`,
    /// `rating`, `ics`, `hint`, `bk`, `easy`…).
    Ignored,
    /// `d`: board diagram and FEN (an extension, as in UCI).
    Display,
    /// `legal`: the legal moves (an extension).
    Legal,
    /// `eval`: the static evaluation (an extension).
    Eval,
}

/// A CECP line that is no valid command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CecpError {
    /// Nothing but whitespace.
    Empty,
    /// The first word is no command (answered `Error (unknown command): X`).
    Unknown(String),
    /// A command's argument is missing or malformed.
    BadArgument {
        /// The command.
        command: &'static str,
        /// The argument as given (shortened), empty when missing.
        arg: String,
    },
}

impl fmt::Display for CecpError {
    /// The CECP error line, `Error (TYPE): TEXT`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CecpError::Empty => write!(f, "Error (empty line)"),
            CecpError::Unknown(w) => write!(f, "Error (unknown command): {w}"),
            CecpError::BadArgument { command, arg } if arg.is_empty() => {
                write!(f, "Error (missing argument): {command}")
            }
            CecpError::BadArgument { command, arg } => {
                write!(f, "Error (bad argument): {command} {arg}")
            }
        }
    }
}

impl std::error::Error for CecpError {}

/// Whether `word` has the shape of a CECP move (`b0c2`, `@@@@`).
pub fn looks_like_move(word: &str) -> bool {
    let b = word.as_bytes();
    word == "@@@@"
        || (b.len() == 4
            && matches!(b[0], b'a'..=b'i')
            && b[1].is_ascii_digit()
            && matches!(b[2], b'a'..=b'i')
            && b[3].is_ascii_digit())
}

/// Seconds as XBoard writes them (`30`, `0.5`), or `MIN:SEC` when
/// `minutes` (then a bare number is minutes).
fn duration(text: &str, minutes: bool) -> Option<Duration> {
    let secs = match text.split_once(':') {
        Some((m, s)) if minutes => m.parse::<f64>().ok()? * 60.0 + s.parse::<f64>().ok()?,
        Some(_) => return None,
        None if minutes => text.parse::<f64>().ok()? * 60.0,
        None => text.parse::<f64>().ok()?,
    };
    (secs.is_finite() && (0.0..1e9).contains(&secs)).then(|| Duration::from_secs_f64(secs))
}

impl CecpCommand {
    /// Parses one line.
    ///
    /// # Errors
    /// [`CecpError`]; [`CecpError::Empty`] for a blank line.
    pub fn parse(line: &str) -> Result<CecpCommand, CecpError> {
        let line = line.trim();
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        if word.is_empty() {
            return Err(CecpError::Empty);
        }
        let first = rest.split_whitespace().next().unwrap_or("");
        let bad = |command: &'static str| CecpError::BadArgument {
            command,
            arg: echo(rest),
        };
        let num = |command: &'static str| first.parse::<i64>().map_err(|_| bad(command));
        Ok(match word {
            "xboard" => CecpCommand::Xboard,
            "protover" => {
                CecpCommand::Protover(u32::try_from(num("protover")?).map_err(|_| bad("protover"))?)
            }
            "accepted" | "rejected" => CecpCommand::FeatureReply,
            "new" => CecpCommand::New,
            "variant" if !first.is_empty() => CecpCommand::Variant(first.to_string()),
            "variant" => return Err(bad("variant")),
            "force" => CecpCommand::Force,
            "go" => CecpCommand::Go,
            "playother" => CecpCommand::PlayOther,
            "usermove" if !first.is_empty() => CecpCommand::UserMove(first.to_string()),
            "usermove" => return Err(bad("usermove")),
            "setboard" if !rest.is_empty() => CecpCommand::SetBoard(rest.to_string()),
            "setboard" => return Err(bad("setboard")),
            "level" => {
                let f: Vec<&str> = rest.split_whitespace().collect();
                let [mps, base, inc] = f[..] else {
                    return Err(bad("level"));
                };
                CecpCommand::Level(CecpLevel {
                    moves: mps.parse().map_err(|_| bad("level"))?,
                    base: duration(base, true).ok_or_else(|| bad("level"))?,
                    inc: duration(inc, false).ok_or_else(|| bad("level"))?,
                })
            }
            "st" => CecpCommand::St(duration(first, false).ok_or_else(|| bad("st"))?),
            "sd" => CecpCommand::Sd(u32::try_from(num("sd")?).map_err(|_| bad("sd"))?),
            "time" => CecpCommand::Time(num("time")?),
            "otim" => CecpCommand::Otim(num("otim")?),
            "ping" => CecpCommand::Ping(first.to_string()),
            "undo" => CecpCommand::Undo,
            "remove" => CecpCommand::Remove,
            "result" => CecpCommand::Result(rest.to_string()),
            "post" => CecpCommand::Post(true),
            "nopost" => CecpCommand::Post(false),
            "hard" => CecpCommand::Hard(true),
            "easy" => CecpCommand::Hard(false),
            "analyze" => CecpCommand::Analyze,
            "exit" => CecpCommand::Exit,
            "." => CecpCommand::Status,
            "?" => CecpCommand::MoveNow,
            "memory" => {
                CecpCommand::Memory(usize::try_from(num("memory")?).map_err(|_| bad("memory"))?)
            }
            "cores" => {
                CecpCommand::Cores(usize::try_from(num("cores")?).map_err(|_| bad("cores"))?)
            }
            "option" if !rest.is_empty() => match rest.split_once('=') {
                Some((n, v)) => CecpCommand::Option {
                    name: n.trim().to_string(),
                    value: Some(v.trim().to_string()),
                },
                None => CecpCommand::Option {
                    name: rest.to_string(),
                    value: None,
                },
            },
            "option" => return Err(bad("option")),
            "draw" => CecpCommand::Draw,
            "quit" => CecpCommand::Quit,
            "random" | "computer" | "name" | "rating" | "ics" | "hint" | "bk" | "pause"
            | "resume" | "white" | "black" | "edit" | "lift" | "put" | "hover" => {
                CecpCommand::Ignored
            }
            "d" => CecpCommand::Display,
            "legal" => CecpCommand::Legal,
            "eval" => CecpCommand::Eval,
            w if looks_like_move(w) => CecpCommand::UserMove(w.to_string()),
            w => return Err(CecpError::Unknown(echo(w))),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands() {
        assert_eq!(
            CecpCommand::parse("protover 2"),
            Ok(CecpCommand::Protover(2))
        );
        assert_eq!(CecpCommand::parse("  new \r"), Ok(CecpCommand::New));
        assert_eq!(
            CecpCommand::parse("@@@@"),
            Ok(CecpCommand::UserMove("@@@@".into()))
        );
        assert_eq!(
            CecpCommand::parse("a3a4"),
            Ok(CecpCommand::UserMove("a3a4".into()))
        );
        assert_eq!(CecpCommand::parse("time 6000"), Ok(CecpCommand::Time(6000)));
        assert_eq!(
            CecpCommand::parse("st 2.5"),
            Ok(CecpCommand::St(Duration::from_millis(2500)))
        );
        assert_eq!(
            CecpCommand::parse("level 0 2 12"),
            Ok(CecpCommand::Level(CecpLevel {
                moves: 0,
                base: Duration::from_secs(120),
                inc: Duration::from_secs(12),
            }))
        );
        assert_eq!(
            CecpCommand::parse("option Skill Level=5"),
            Ok(CecpCommand::Option {
                name: "Skill Level".into(),
                value: Some("5".into())
            })
        );
        assert_eq!(
            CecpCommand::parse("option Clear Hash"),
            Ok(CecpCommand::Option {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            CecpCommand::parse("setboard 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
            Ok(CecpCommand::SetBoard(
                "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1".into()
            ))
        );
        assert_eq!(CecpCommand::parse(""), Err(CecpError::Empty));
        let unknown = CecpCommand::parse("frobnicate now");
        assert_eq!(unknown, Err(CecpError::Unknown("frobnicate".into())));
        assert_eq!(
            unknown.err().map(|e| e.to_string()).as_deref(),
            Some("Error (unknown command): frobnicate")
        );
        assert!(CecpCommand::parse("level 40 x 0").is_err());
        assert!(CecpCommand::parse("time").is_err());
        assert!(CecpCommand::parse("st -1").is_err());
        assert!(CecpCommand::parse("j0a0").is_err());
    }
}
