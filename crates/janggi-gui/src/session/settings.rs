//! The game's settings, fixed by "new game": who plays, the engine's
//! level, the rules, the undo allowance, hints, draw offers and the time
//! control; and the arrangements' names.

use janggi_core::{Color, Rules, Setup};
use janggi_uci::TimeControl;

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A human against the engine; the human plays `human`.
    HumanVsEngine(Color),
    /// Two humans on one screen.
    HumanVsHuman,
    /// The engine plays both sides.
    EngineVsEngine,
}

/// The engine's strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Skill Level 3, 300 ms a move.
    Easy,
    /// Skill Level 10, 1 s a move.
    Normal,
    /// Skill Level 20, 3 s a move.
    Hard,
}

impl Level {
    /// The level called `name` (`easy`, `normal`, `hard`).
    pub fn from_name(name: &str) -> Option<Level> {
        match name {
            "easy" => Some(Level::Easy),
            "normal" => Some(Level::Normal),
            "hard" => Some(Level::Hard),
            _ => None,
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    /// The `Skill Level` it sends.
    pub fn skill(self) -> u32 {
        match self {
            Level::Easy => 3,
            Level::Normal => 10,
            Level::Hard => 20,
        }
    }

    /// Its time per move without a clock (ms).
    pub fn movetime(self) -> u32 {
        match self {
            Level::Easy => 300,
            Level::Normal => 1000,
            Level::Hard => 3000,
        }
    }

    /// With a clock: the longest the engine may think on one move at this
    /// level (the board sends `stop` after it); hard has no cap.
    pub fn clock_cap(self) -> Option<u32> {
        match self {
            Level::Easy => Some(1000),
            Level::Normal => Some(5000),
            Level::Hard => None,
        }
    }
}

/// The spec's `hints` option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hints {
    /// No destinations shown.
    Off,
    /// Destinations of the picked piece.
    Moves,
    /// Destinations and the pieces the opponent can take next move.
    MovesAndThreats,
}

/// The game's settings, fixed by "new game".
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Who plays.
    pub mode: Mode,
    /// Engine level.
    pub level: Level,
    /// `Skill Level` sent to the engine (0–20).
    pub skill: u32,
    /// Engine time per move in milliseconds (without a clock).
    pub movetime_ms: u32,
    /// With a clock: the cap on one move's thinking (the level's, or
    /// `movetimeMs` when given), `None` for none.
    pub clock_cap_ms: Option<u32>,
    /// The rules (the referee's and, where the engine has the options, the engine's).
    pub rules: Rules,
    /// The Fairy-Stockfish variant these rules are, if they are one.
    pub variant: Option<&'static str>,
    /// Undo allowance: `None` = unlimited.
    pub undo_limit: Option<u32>,
    /// Hints.
    pub hints: Hints,
    /// Whether a draw may be offered.
    pub draw_offer: bool,
    /// The clock: main time then byoyomi periods (the spec's byoyomi:
    /// a move within a period keeps it), or none.
    pub time_control: Option<TimeControl>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            mode: Mode::HumanVsEngine(Color::Cho),
            level: Level::Normal,
            skill: Level::Normal.skill(),
            movetime_ms: Level::Normal.movetime(),
            clock_cap_ms: Level::Normal.clock_cap(),
            rules: Rules::default(),
            variant: None,
            undo_limit: Some(3),
            hints: Hints::Moves,
            draw_offer: true,
            time_control: None,
        }
    }
}

impl Settings {
    /// Sets the level and with it the skill, the move time and the cap.
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
        self.skill = level.skill();
        self.movetime_ms = level.movetime();
        self.clock_cap_ms = level.clock_cap();
    }
}

/// The names the page may use for an arrangement.
pub fn parse_setup(name: &str) -> Option<Setup> {
    Some(match name.trim() {
        "MSSM" | "mssm" | "마상상마" | "안상차림" | "원앙마" => Setup::Mssm,
        "SMMS" | "smms" | "상마마상" | "바깥상차림" | "양귀마" => Setup::Smms,
        "SMSM" | "smsm" | "상마상마" | "왼상차림" => Setup::Smsm,
        "MSMS" | "msms" | "마상마상" | "오른상차림" => Setup::Msms,
        _ => return None,
    })
}

/// The card names of an arrangement.
pub fn setup_names(s: Setup) -> (&'static str, &'static str) {
    match s {
        Setup::Mssm => ("안상차림", "원앙마"),
        Setup::Smms => ("바깥상차림", "양귀마"),
        Setup::Smsm => ("왼상차림", "귀마"),
        Setup::Msms => ("오른상차림", "귀마"),
    }
}
