//! One game on the board: settings, the setup phase (Han first), the
//! game layer's [`Game`] as the referee, the record in Korean notation and
//! UCI, and the JSON views the page reads. Everything the page sends is
//! validated here; nothing here panics on any input.

use crate::engine::Go;
use crate::reasons::{cannon_screen, explain, Refusal};
use janggi_core::board::korean::{piece_name, KoreanScript};
use janggi_core::game::{Event, Game, Rules, REPETITION_WARNING};
use janggi_core::{Color, Move, Notation, PieceKind, Position, Setup, Square};
use janggi_records::Record;
use serde_json::{json, Map, Value};
use std::fmt;
use std::time::{Duration, Instant};

/// A request the session cannot accept (a 400 for the page).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// The request is malformed or names something that does not exist.
    Bad(String),
    /// The move or pass is refused by the rules.
    Refused(Refusal),
    /// The request does not fit the game's phase.
    Phase(&'static str),
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::Bad(m) => write!(f, "bad request: {m}"),
            ApiError::Refused(r) => write!(f, "refused: {}", r.en()),
            ApiError::Phase(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for ApiError {}

impl ApiError {
    /// The HTTP status for this error.
    pub fn status(&self) -> u16 {
        match self {
            ApiError::Bad(_) => 400,
            ApiError::Refused(_) => 422,
            ApiError::Phase(_) => 409,
        }
    }

    /// The JSON body for this error.
    pub fn body(&self) -> Value {
        match self {
            ApiError::Bad(m) => {
                json!({"error": {"code": "badRequest", "en": m, "ko": "잘못된 요청이에요"}})
            }
            ApiError::Refused(r) => {
                json!({"error": {"code": r.code(), "ko": r.ko(), "en": r.en()}})
            }
            ApiError::Phase(m) => {
                json!({"error": {"code": "wrongPhase", "en": m, "ko": "지금은 할 수 없어요"}})
            }
        }
    }
}

fn bad(m: impl Into<String>) -> ApiError {
    ApiError::Bad(m.into())
}

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
    fn parse(s: &str) -> Option<Level> {
        match s {
            "easy" => Some(Level::Easy),
            "normal" => Some(Level::Normal),
            "hard" => Some(Level::Hard),
            _ => None,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }
    fn skill(self) -> u32 {
        match self {
            Level::Easy => 3,
            Level::Normal => 10,
            Level::Hard => 20,
        }
    }
    fn movetime(self) -> u32 {
        match self {
            Level::Easy => 300,
            Level::Normal => 1000,
            Level::Hard => 3000,
        }
    }
    /// With a clock: the longest the engine may think on one move at this
    /// level (the board sends `stop` after it); hard has no cap.
    fn clock_cap(self) -> Option<u32> {
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
    /// Byoyomi (main time, period, periods), or none.
    pub byoyomi: Option<Byoyomi>,
}

/// The spec's byoyomi: main time, then `periods` periods of `period_ms`
/// (a move within a period keeps it; each period used up is lost).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Byoyomi {
    /// Main time in ms.
    pub main_ms: u64,
    /// One period in ms.
    pub period_ms: u64,
    /// Number of periods.
    pub periods: u32,
}

/// Both sides' clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Main time left, Cho and Han.
    pub main_ms: [u64; 2],
    /// Periods left, Cho and Han.
    pub periods: [u32; 2],
    /// When the side to move's turn started.
    pub turn_started: Option<Instant>,
}

impl Clock {
    fn new(b: Byoyomi) -> Clock {
        Clock {
            main_ms: [b.main_ms; 2],
            periods: [b.periods; 2],
            turn_started: None,
        }
    }

    /// Charges `side` for its turn up to `now`; false when its time ran out.
    fn charge(&mut self, b: Byoyomi, side: Color, now: Instant) -> bool {
        let Some(start) = self.turn_started else {
            return true;
        };
        let i = side.index();
        let elapsed = now.saturating_duration_since(start).as_millis() as u64;
        if elapsed <= self.main_ms[i] {
            self.main_ms[i] -= elapsed;
            return true;
        }
        let over = elapsed - self.main_ms[i];
        self.main_ms[i] = 0;
        let used = (over / b.period_ms.max(1)) as u32;
        if used >= self.periods[i] {
            self.periods[i] = 0;
            return false;
        }
        self.periods[i] -= used;
        true
    }

    /// When `side`'s time runs out if it does not move.
    fn deadline(&self, b: Byoyomi, side: Color) -> Option<Instant> {
        let i = side.index();
        let ms = self.main_ms[i] + u64::from(self.periods[i]) * b.period_ms;
        self.turn_started.map(|t| t + Duration::from_millis(ms))
    }
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
            byoyomi: None,
        }
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

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Cho => "cho",
        Color::Han => "han",
    }
}

fn parse_color(s: &str) -> Option<Color> {
    match s {
        "cho" => Some(Color::Cho),
        "han" => Some(Color::Han),
        _ => None,
    }
}

fn event_name(e: Event) -> &'static str {
    match e {
        Event::BikjangCalled => "bikjang",
        Event::RepetitionWarning => "repetitionWarning",
        Event::Check => "check",
        Event::CheckAnswered => "checkAnswered",
        Event::GameOver => "gameOver",
    }
}

/// Parses a point `a1` … `i10` from the page.
pub fn parse_square(v: Option<&Value>, field: &str) -> Result<Square, ApiError> {
    let s = v
        .and_then(Value::as_str)
        .ok_or_else(|| bad(format!("`{field}` must be a point such as \"e2\"")))?;
    Square::parse_uci(s).ok_or_else(|| bad(format!("`{field}`: no point {s:?} on the board")))
}

fn points_text(p: f64) -> String {
    if (p.fract()).abs() < 1e-9 {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}

/// One ply of the record.
#[derive(Clone, Debug)]
pub struct Played {
    /// UCI text (a pass: the general's point twice).
    pub uci: String,
    /// Korean notation (`79졸78`, `한수쉼`, with ` 장군`).
    pub korean: String,
    /// Who played it.
    pub side: Color,
    /// Events it caused.
    pub events: Vec<&'static str>,
    /// Engine evaluation after it, centipawns from Cho's side, if known.
    pub eval: Option<i32>,
}

/// The game's phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Choosing arrangements (Han first).
    Setup {
        /// Han's arrangement once chosen.
        han: Option<Setup>,
    },
    /// Playing (or finished: see the game's outcome).
    Playing,
}

/// The board's game.
#[derive(Clone, Debug)]
pub struct Session {
    /// Settings.
    pub settings: Settings,
    /// Phase.
    pub phase: Phase,
    /// The referee.
    pub game: Game,
    /// The record.
    pub record: Vec<Played>,
    /// Undos used.
    pub undo_used: u32,
    /// Arrangements, once chosen.
    pub setups: Option<(Setup, Setup)>,
    /// Bumped on every change that makes a running engine search stale.
    pub generation: u64,
    /// The last draw offer's answer, for the page.
    pub draw_answer: Option<DrawAnswer>,
    /// The clocks (with byoyomi).
    pub clock: Option<Clock>,
    /// Where the game came from when it was loaded from a record (the
    /// header as the page shows it).
    pub source: Option<Value>,
    /// The loaded record's header tags, written back when it is saved.
    pub tags: Vec<(String, String)>,
}

impl Default for Session {
    fn default() -> Self {
        Session::new(Settings::default())
    }
}

impl Session {
    /// A session in its setup phase.
    pub fn new(settings: Settings) -> Session {
        let rules = settings.rules;
        let settings_clock = settings.byoyomi.map(Clock::new);
        Session {
            settings,
            phase: Phase::Setup { han: None },
            game: Game::new(Position::startpos(), rules),
            record: Vec::new(),
            undo_used: 0,
            setups: None,
            generation: 0,
            draw_answer: None,
            clock: settings_clock,
            source: None,
            tags: Vec::new(),
        }
    }

    /// Whether `color` is played by a human.
    pub fn is_human(&self, color: Color) -> bool {
        match self.settings.mode {
            Mode::HumanVsEngine(h) => h == color,
            Mode::HumanVsHuman => true,
            Mode::EngineVsEngine => false,
        }
    }

    /// Whether the engine is to move now.
    pub fn engine_to_move(&self) -> bool {
        self.phase == Phase::Playing
            && self.game.outcome().is_none()
            && !self.is_human(self.game.side_to_move())
    }

    /// `new game`: settings from the page's JSON; back to the setup phase.
    ///
    /// # Errors
    /// [`ApiError::Bad`] naming the field.
    pub fn new_game(&mut self, body: &Value) -> Result<(), ApiError> {
        let settings = parse_settings(body)?;
        let generation = self.generation + 1;
        *self = Session::new(settings);
        self.generation = generation;
        Ok(())
    }

    /// Chooses one side's arrangement (Han first, then Cho; `random` picks one).
    ///
    /// # Errors
    /// Wrong order, unknown name, or not in the setup phase.
    pub fn choose_setup(&mut self, body: &Value, random: u64) -> Result<(), ApiError> {
        let Phase::Setup { han } = self.phase else {
            return Err(ApiError::Phase("the arrangements are already chosen"));
        };
        let side = body
            .get("side")
            .and_then(Value::as_str)
            .and_then(parse_color)
            .ok_or_else(|| bad("`side` must be \"han\" or \"cho\""))?;
        let name = body.get("setup").and_then(Value::as_str).ok_or_else(|| {
            bad("`setup` must be an arrangement name such as \"MSSM\" or \"안상차림\"")
        })?;
        let setup = if name == "random" {
            Setup::ALL[(random % 4) as usize]
        } else {
            parse_setup(name).ok_or_else(|| bad(format!("unknown arrangement {name:?}")))?
        };
        match (side, han) {
            (Color::Han, None) => self.phase = Phase::Setup { han: Some(setup) },
            (Color::Cho, Some(h)) => {
                self.setups = Some((h, setup));
                self.game = Game::new(Position::from_setups(h, setup), self.settings.rules);
                self.phase = Phase::Playing;
                if let Some(c) = &mut self.clock {
                    c.turn_started = Some(Instant::now());
                }
                self.generation += 1;
            }
            (Color::Cho, None) => {
                return Err(ApiError::Phase(
                    "Han chooses first (hanFirst): Han's arrangement is not chosen yet",
                ))
            }
            (Color::Han, Some(_)) => {
                return Err(ApiError::Phase("Han's arrangement is already chosen"))
            }
        }
        Ok(())
    }

    /// Ends the game on time when the side to move's time ran out by
    /// `now`; returns whether it did.
    pub fn flag_fall(&mut self, now: Instant) -> bool {
        let (Some(c), Some(b)) = (self.clock, self.settings.byoyomi) else {
            return false;
        };
        if self.phase != Phase::Playing || self.game.outcome().is_some() {
            return false;
        }
        let side = self.game.side_to_move();
        let mut probe = c;
        if probe.charge(b, side, now) {
            return false;
        }
        self.clock = Some(probe);
        let _ = self.game.lose_on_time(side);
        self.generation += 1;
        true
    }

    fn clock_view(&self) -> Value {
        let (Some(c), Some(b)) = (self.clock, self.settings.byoyomi) else {
            return Value::Null;
        };
        let running = (self.phase == Phase::Playing && self.game.outcome().is_none())
            .then(|| self.game.side_to_move());
        let elapsed = match (running, c.turn_started) {
            (Some(_), Some(t)) => t.elapsed().as_millis() as u64,
            _ => 0,
        };
        let side = |col: Color| json!({"mainMs": c.main_ms[col.index()], "periodsLeft": c.periods[col.index()]});
        json!({
            "cho": side(Color::Cho),
            "han": side(Color::Han),
            "periodMs": b.period_ms,
            "running": running.map(color_name),
            "elapsedMs": elapsed,
            "deadlineInMs": running.and_then(|s| c.deadline(b, s)).map(|d| d.saturating_duration_since(Instant::now()).as_millis() as u64),
        })
    }

    fn playing(&self) -> Result<(), ApiError> {
        if self.phase != Phase::Playing {
            return Err(ApiError::Phase("choose the arrangements first"));
        }
        Ok(())
    }

    /// The legal destinations of the piece on `from` (for the side to move).
    ///
    /// # Errors
    /// A bad point, or not playing.
    pub fn destinations(&self, body: &Value) -> Result<Value, ApiError> {
        self.playing()?;
        let from = parse_square(body.get("from"), "from")?;
        let pos = self.game.position();
        let list: Vec<Value> = if self.settings.hints == Hints::Off {
            Vec::new()
        } else {
            self.game
                .legal_moves()
                .iter()
                .filter(|m| !m.is_pass() && m.from() == from)
                .map(|m| {
                    let cannon = pos
                        .piece_at(from)
                        .is_some_and(|p| p.kind == PieceKind::Cannon);
                    let screen = if cannon {
                        cannon_screen(pos, from, m.to())
                    } else {
                        None
                    };
                    json!({
                        "to": m.to().uci().as_str(),
                        "capture": pos.piece_at(m.to()).is_some(),
                        "screen": screen.map(|s| s.uci().as_str().to_string()),
                    })
                })
                .collect()
        };
        Ok(json!({"from": from.uci().as_str(), "destinations": list}))
    }

    /// Plays a move the page asked for; `by_engine` skips the human check.
    ///
    /// # Errors
    /// [`ApiError::Refused`] with the reason.
    pub fn play(&mut self, mv: Move, by_engine: bool) -> Result<Vec<&'static str>, ApiError> {
        self.playing()?;
        if self.game.outcome().is_some() {
            return Err(ApiError::Refused(Refusal::GameOver));
        }
        if !by_engine && !self.is_human(self.game.side_to_move()) {
            return Err(ApiError::Refused(Refusal::NotYourTurn));
        }
        let pos = self.game.position().clone();
        let side = pos.side_to_move();
        if self.flag_fall(Instant::now()) {
            return Err(ApiError::Refused(Refusal::GameOver));
        }
        let korean = if pos.is_legal(mv, self.game.model()) {
            pos.korean_marked(mv, KoreanScript::Hangul)
        } else {
            String::new()
        };
        match self.game.play(mv) {
            Ok(events) => {
                // A paused clock (no page watching) stays paused: a move
                // the engine sent just as the last page left starts no
                // clock.
                if let (Some(c), Some(b)) = (&mut self.clock, self.settings.byoyomi) {
                    if c.turn_started.is_some() {
                        c.charge(b, side, Instant::now());
                        c.turn_started = Some(Instant::now());
                    }
                }
                let events: Vec<&'static str> = events.into_iter().map(event_name).collect();
                self.record.push(Played {
                    uci: pos.move_text(mv, Notation::Uci),
                    korean,
                    side,
                    events: events.clone(),
                    eval: None,
                });
                self.draw_answer = None;
                Ok(events)
            }
            Err(e) => Err(ApiError::Refused(explain(&self.game, mv, &e))),
        }
    }

    /// Plays the page's `{from, to}`.
    ///
    /// # Errors
    /// Bad points or a refused move.
    pub fn play_json(&mut self, body: &Value) -> Result<Vec<&'static str>, ApiError> {
        self.playing()?;
        let from = parse_square(body.get("from"), "from")?;
        let to = parse_square(body.get("to"), "to")?;
        let mv = Move::new(from, to).ok_or_else(|| bad("`from` and `to` are the same point"))?;
        let ev = self.play(mv, false)?;
        self.generation += 1;
        Ok(ev)
    }

    /// Passes (the page confirms first and sends `confirm: true`).
    ///
    /// # Errors
    /// Without the confirmation, or refused.
    pub fn pass(&mut self, body: &Value) -> Result<Vec<&'static str>, ApiError> {
        if body.get("confirm") != Some(&Value::Bool(true)) {
            return Err(bad("a pass needs `confirm: true`"));
        }
        let ev = self.play(Move::PASS, false)?;
        self.generation += 1;
        Ok(ev)
    }

    /// Takes back the last move (human vs engine: back to the human's turn).
    ///
    /// # Errors
    /// Nothing to take back, or the allowance is used up.
    pub fn undo(&mut self) -> Result<usize, ApiError> {
        self.playing()?;
        if let Some(limit) = self.settings.undo_limit {
            if self.undo_used >= limit {
                return Err(ApiError::Phase("no undos left"));
            }
        }
        let plies = match self.settings.mode {
            Mode::HumanVsEngine(h) if self.game.side_to_move() == h => 2,
            _ => 1,
        };
        if plies > self.record.len() || self.record.is_empty() {
            return Err(ApiError::Phase("nothing to take back"));
        }
        let n = self.game.undo_plies(plies);
        // The clocks are kept (§8.2); the turn starts again now, unless
        // the clock is paused.
        if let Some(c) = &mut self.clock {
            if c.turn_started.is_some() {
                c.turn_started = Some(Instant::now());
            }
        }
        self.record.truncate(self.record.len() - n);
        self.undo_used += 1;
        self.generation += 1;
        self.draw_answer = None;
        Ok(n)
    }

    /// The side to move (a human) resigns.
    ///
    /// # Errors
    /// Not playing, or already over.
    pub fn resign(&mut self) -> Result<(), ApiError> {
        self.playing()?;
        let side = match self.settings.mode {
            Mode::HumanVsEngine(h) => h,
            _ => self.game.side_to_move(),
        };
        self.game
            .resign(side)
            .map_err(|_| ApiError::Refused(Refusal::GameOver))?;
        self.generation += 1;
        Ok(())
    }

    /// A draw offer. Between humans it is agreed at once. Against the
    /// engine the answer is the engine's own offer rule
    /// ([`engine_answers_draw`], the rule of `Engine::answer_offer` that
    /// this engine applies to CECP's `draw`), fed with the engine's last
    /// reported score: UCI has no draw offer to send it.
    ///
    /// # Errors
    /// Not playing, over, or offers are off.
    pub fn offer_draw(&mut self, last_eval: Option<i32>) -> Result<bool, ApiError> {
        self.playing()?;
        if !self.settings.draw_offer {
            return Err(ApiError::Phase("draw offers are off"));
        }
        if self.game.outcome().is_some() {
            return Err(ApiError::Refused(Refusal::GameOver));
        }
        let answer = match self.settings.mode {
            Mode::HumanVsHuman => DrawAnswer {
                accept: true,
                reason: DrawReason::Agreed,
            },
            Mode::HumanVsEngine(h) => engine_answers_draw(&self.game, !h, last_eval),
            Mode::EngineVsEngine => {
                engine_answers_draw(&self.game, self.game.side_to_move(), last_eval)
            }
        };
        if answer.accept {
            let _ = self.game.agree_draw();
            self.generation += 1;
        }
        self.draw_answer = Some(answer);
        Ok(answer.accept)
    }

    /// The `go` for the engine's move: with a clock the real remaining
    /// times (`wtime` Cho's, `btime` Han's main time left, `byoyomi` the
    /// period, `periods` the mover's periods left), the budget being the
    /// mover's whole time left and the cap the level's; without one
    /// `go movetime` at the level's move time.
    pub fn go(&self, now: Instant) -> Go {
        let (Some(c), Some(b)) = (self.clock, self.settings.byoyomi) else {
            return Go::movetime(self.settings.movetime_ms);
        };
        let side = self.game.side_to_move();
        let mut left = c;
        let _ = left.charge(b, side, now);
        let budget = c
            .deadline(b, side)
            .map_or(Duration::ZERO, |d| d.saturating_duration_since(now));
        Go {
            line: format!(
                "go wtime {} btime {} byoyomi {} periods {}",
                left.main_ms[Color::Cho.index()],
                left.main_ms[Color::Han.index()],
                b.period_ms,
                left.periods[side.index()],
            ),
            budget,
            cap: self
                .settings
                .clock_cap_ms
                .map(|ms| Duration::from_millis(u64::from(ms))),
        }
    }

    /// Stops the side to move's clock (no page is watching): its time so
    /// far is charged; [`Session::resume_clock`] starts it again.
    pub fn pause_clock(&mut self, now: Instant) {
        if self.flag_fall(now) {
            return;
        }
        let side = self.game.side_to_move();
        if let (Some(c), Some(b)) = (&mut self.clock, self.settings.byoyomi) {
            if c.turn_started.is_some() {
                c.charge(b, side, now);
                c.turn_started = None;
            }
        }
    }

    /// Starts the side to move's clock again after [`Session::pause_clock`].
    pub fn resume_clock(&mut self, now: Instant) {
        let live = self.phase == Phase::Playing && self.game.outcome().is_none();
        if let Some(c) = &mut self.clock {
            if live && c.turn_started.is_none() {
                c.turn_started = Some(now);
            }
        }
    }

    /// The position after the first `ply` plies of the record, for
    /// stepping through the game (read-only: the game is not changed).
    ///
    /// # Errors
    /// [`ApiError::Bad`] for a ply past the record.
    pub fn position_at(&self, body: &Value) -> Result<Value, ApiError> {
        let n = self.record.len();
        let ply = match body.get("ply") {
            None | Some(Value::Null) => n,
            Some(v) => {
                v.as_u64()
                    .filter(|&p| p <= n as u64)
                    .ok_or_else(|| bad(format!("`ply` must be 0 … {n}")))? as usize
            }
        };
        let mut g = Game::new(self.game.start_position().clone(), *self.game.rules());
        let mut last = None;
        for p in &self.record[..ply] {
            let mv = g
                .position()
                .parse_move(&p.uci, Notation::Uci)
                .map_err(|e| bad(format!("the record does not replay: {e}")))?;
            g.play_unchecked(mv);
            last = Some(mv);
        }
        let last = last.filter(|m| !m.is_pass());
        Ok(json!({
            "ply": ply,
            "plies": n,
            "board": board_json(g.position()),
            "sideToMove": color_name(g.side_to_move()),
            "score": {"cho": g.score(Color::Cho), "han": g.score(Color::Han)},
            "inCheck": g.in_check(),
            "lastMove": last.map(|m| json!({"from": m.from().uci().as_str(), "to": m.to().uci().as_str()})),
            "move": ply.checked_sub(1).map(|i| json!({"korean": self.record[i].korean, "uci": self.record[i].uci})),
        }))
    }

    /// The game of a record (from a GIB or PGN file) as the board's game:
    /// two humans on one screen, the record's rules and start, every move
    /// played through the referee; the header is kept for saving.
    ///
    /// # Errors
    /// [`ApiError::Bad`] naming the first move the referee refuses.
    pub fn from_record(rec: &Record) -> Result<Session, ApiError> {
        let settings = Settings {
            mode: Mode::HumanVsHuman,
            rules: rec.rules,
            undo_limit: None,
            ..Settings::default()
        };
        let mut s = Session::new(settings);
        s.phase = Phase::Playing;
        s.setups = rec.setups;
        s.game = Game::new(rec.start.clone(), rec.rules);
        for (i, p) in rec.plies.iter().enumerate() {
            s.play(p.mv, true).map_err(|e| {
                bad(format!(
                    "move {} ({}) cannot be played: {e}",
                    i + 1,
                    s.game.position().move_text(p.mv, Notation::Uci)
                ))
            })?;
        }
        s.tags.clone_from(&rec.tags);
        s.source = Some(json!({
            "cho": rec.cho_player(),
            "han": rec.han_player(),
            "event": rec.tag_any(&["대회명", "Event"]),
            "date": rec.tag_any(&["대국일자", "Date"]),
            "result": rec.result.pgn(),
            "plies": rec.plies.len(),
        }));
        Ok(s)
    }

    /// The game as a record, for saving: the loaded header (if any) or
    /// the board's own tags, the start, the moves and the result.
    pub fn to_record(&self, engine_name: Option<&str>) -> Record {
        let mut rec = Record::from_game(&self.game);
        if self.tags.is_empty() {
            let engine = engine_name.unwrap_or("engine");
            let (cho, han) = match self.settings.mode {
                Mode::HumanVsEngine(Color::Cho) => ("사람", engine),
                Mode::HumanVsEngine(Color::Han) => (engine, "사람"),
                Mode::HumanVsHuman => ("사람", "사람"),
                Mode::EngineVsEngine => (engine, engine),
            };
            rec.set_tag("Event", "janggi-engine gui");
            rec.set_tag("White", cho);
            rec.set_tag("Black", han);
        } else {
            for (k, v) in &self.tags {
                if !matches!(k.as_str(), "Result" | "대국결과" | "총수" | "FEN" | "SetUp") {
                    rec.set_tag(k, v);
                }
            }
        }
        rec
    }

    /// The UCI `position` line for the engine.
    pub fn position_line(&self) -> String {
        let mut s = format!("position fen {}", self.game.start_position().fen());
        if !self.record.is_empty() {
            s.push_str(" moves");
            for p in &self.record {
                s.push(' ');
                s.push_str(&p.uci);
            }
        }
        s
    }

    /// The public view of the game (§8.3) as JSON.
    pub fn view(&self) -> Value {
        let game = &self.game;
        let pos = game.position();
        let board = board_json(pos);
        let (cho, han) = (game.score(Color::Cho), game.score(Color::Han));
        let phase = match self.phase {
            Phase::Setup { .. } => "setup",
            Phase::Playing if game.outcome().is_some() => "finished",
            Phase::Playing => "playing",
        };
        let setup = match self.phase {
            Phase::Setup { han } => json!({
                "han": han.map(|s| s.name()),
                "cho": Value::Null,
                "next": if han.is_none() { "han" } else { "cho" },
            }),
            Phase::Playing => json!({
                "han": self.setups.map(|s| s.0.name()),
                "cho": self.setups.map(|s| s.1.name()),
                "next": Value::Null,
            }),
        };
        let result = game.outcome().map(|o| {
            json!({
                "winner": o.winner.map(color_name),
                "reason": o.reason.name(),
                "summaryKo": o.summary_ko(),
                "summaryEn": o.summary_en(),
                "scores": {"cho": o.cho_points, "han": o.han_points},
                "moveCount": o.move_count,
            })
        });
        let side = game.side_to_move();
        let threatened: Vec<String> =
            if self.settings.hints == Hints::MovesAndThreats && phase == "playing" {
                Square::ALL
                    .iter()
                    .filter(|&&sq| {
                        pos.piece_at(sq)
                            .is_some_and(|p| p.color == side && p.kind != PieceKind::General)
                            && pos.is_attacked(sq, !side)
                    })
                    .map(|sq| sq.uci().as_str().to_string())
                    .collect()
            } else {
                Vec::new()
            };
        let moves: Vec<Value> = self
            .record
            .iter()
            .enumerate()
            .map(|(i, p)| {
                json!({
                    "ply": i + 1,
                    "side": color_name(p.side),
                    "uci": p.uci,
                    "korean": p.korean,
                    "events": p.events,
                    "eval": p.eval,
                })
            })
            .collect();
        let last = game.moves().last().copied().filter(|m| !m.is_pass());
        let mut settings = Map::new();
        let (mode, human) = match self.settings.mode {
            Mode::HumanVsEngine(h) => ("hve", Some(color_name(h))),
            Mode::HumanVsHuman => ("hvh", None),
            Mode::EngineVsEngine => ("eve", None),
        };
        settings.insert("mode".into(), json!(mode));
        settings.insert("human".into(), json!(human));
        settings.insert("level".into(), json!(self.settings.level.name()));
        settings.insert("skill".into(), json!(self.settings.skill));
        settings.insert("rules".into(), json!(self.settings.rules.to_string()));
        settings.insert("variant".into(), json!(self.settings.variant));
        settings.insert(
            "hints".into(),
            json!(match self.settings.hints {
                Hints::Off => "off",
                Hints::Moves => "moves",
                Hints::MovesAndThreats => "movesAndThreats",
            }),
        );
        settings.insert("allowPass".into(), json!(self.settings.rules.allow_pass));
        settings.insert("drawOffer".into(), json!(self.settings.draw_offer));
        json!({
            "phase": phase,
            "setup": setup,
            "sideToMove": color_name(side),
            "humanToMove": phase == "playing" && self.is_human(side),
            "ply": self.record.len(),
            "board": board,
            "score": {"cho": cho, "han": han, "text": format!("초 {} : 한 {}", points_text(cho), points_text(han))},
            "inCheck": phase == "playing" && game.in_check(),
            "pendingBikjang": game.pending_bikjang().is_some(),
            "firstCapturePly": game.first_capture_ply(),
            "repetitionCount": game.repetition_count(),
            "repetitionWarning": phase == "playing" && game.repetition_count() >= REPETITION_WARNING,
            "threatened": threatened,
            "moves": moves,
            "lastMove": last.map(|m| json!({"from": m.from().uci().as_str(), "to": m.to().uci().as_str()})),
            "result": result,
            "settings": settings,
            "undoLeft": self.settings.undo_limit.map(|l| l.saturating_sub(self.undo_used)),
            "drawAnswer": self.draw_answer.map(|a| json!({
                "accepted": a.accept,
                "reason": a.reason.name(),
                "ko": a.reason.ko(),
                "en": a.reason.en(),
            })),
            "source": self.source,
            "clock": self.clock_view(),
        })
    }
}

/// The pieces of `pos` as the page draws them.
fn board_json(pos: &Position) -> Vec<Value> {
    Square::ALL
        .iter()
        .filter_map(|&sq| {
            let p = pos.piece_at(sq)?;
            Some(json!({
                "sq": sq.uci().as_str(),
                "f": sq.file(),
                "r": sq.rank(),
                "side": color_name(p.color),
                "kind": p.kind.english(),
                "hanja": piece_name(p.kind, p.color, KoreanScript::Hanja),
                "hangul": piece_name(p.kind, p.color, KoreanScript::Hangul),
                "big": matches!(p.kind, PieceKind::Chariot | PieceKind::Cannon | PieceKind::Horse | PieceKind::Elephant),
            }))
        })
        .collect()
}

/// A search score within this many centipawns of equal counts as "no side
/// is making progress" (the engine's `DEAD_SCORE_CP`, src/search/offer.rs).
pub const DEAD_SCORE_CP: i32 = 50;
/// Plies without a capture before a position can count as dead (the
/// engine's `DEAD_PLIES`).
pub const DEAD_PLIES: u32 = 60;

/// Why the engine answered a draw offer as it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    /// Two humans: agreed.
    Agreed,
    /// The count favours the engine: it would rather win by counting.
    CountFavours,
    /// Dead by its own search: level score, no capture for a long time.
    Dead,
    /// Only generals and guards are left: nobody can mate.
    NoMatingMaterial,
    /// Its search still sees play (or it has no score yet).
    NotDead,
}

impl DrawReason {
    /// The code the page gets.
    pub fn name(self) -> &'static str {
        match self {
            DrawReason::Agreed => "agreed",
            DrawReason::CountFavours => "countFavours",
            DrawReason::Dead => "dead",
            DrawReason::NoMatingMaterial => "noMatingMaterial",
            DrawReason::NotDead => "notDead",
        }
    }
    /// In Korean.
    pub fn ko(self) -> &'static str {
        match self {
            DrawReason::Agreed => "무승부에 합의했어요",
            DrawReason::CountFavours => "엔진이 거절했어요: 점수로는 엔진이 앞서요",
            DrawReason::Dead => "엔진이 받아들였어요: 더 둘 수가 없는 판이에요",
            DrawReason::NoMatingMaterial => "엔진이 받아들였어요: 궁과 사만 남았어요",
            DrawReason::NotDead => "엔진이 거절했어요: 아직 둘 수가 있어요",
        }
    }
    /// In English.
    pub fn en(self) -> &'static str {
        match self {
            DrawReason::Agreed => "draw agreed",
            DrawReason::CountFavours => "declined: the count favours the engine",
            DrawReason::Dead => "accepted: the position is dead by the engine's search",
            DrawReason::NoMatingMaterial => "accepted: only generals and guards are left",
            DrawReason::NotDead => "declined: the engine's search still sees play",
        }
    }
}

/// The answer to a draw offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAnswer {
    /// Agreed?
    pub accept: bool,
    /// Why.
    pub reason: DrawReason,
}

/// The engine's draw-offer rule (this engine's `answer_offer` for
/// `Offer::Draw`, src/search/offer.rs, which CECP's `draw` asks), for
/// the engine playing `me`, from its last reported score `cho_cp`
/// (centipawns from Cho's side; mates beyond ±90 000):
///
/// * the count favours the engine (scoring on, its points ahead, Han's
///   deom included): declined, it wins by counting;
/// * only generals and guards are left: accepted;
/// * its score within ±[`DEAD_SCORE_CP`] and [`DEAD_PLIES`] plies
///   without a capture: accepted;
/// * otherwise (or without a score) declined.
pub fn engine_answers_draw(game: &Game, me: Color, cho_cp: Option<i32>) -> DrawAnswer {
    let answer = |accept, reason| DrawAnswer { accept, reason };
    let scoring = game.rules().scoring;
    if scoring && game.score_halves(me) > game.score_halves(!me) {
        return answer(false, DrawReason::CountFavours);
    }
    let pos = game.position();
    let bare = Color::BOTH.iter().all(|&c| {
        PieceKind::ALL
            .iter()
            .filter(|&&k| k != PieceKind::General && k != PieceKind::Guard)
            .all(|&k| pos.pieces(c, k).is_empty())
    });
    if bare {
        return answer(true, DrawReason::NoMatingMaterial);
    }
    let level = cho_cp.is_some_and(|cp| cp.abs() <= DEAD_SCORE_CP);
    if level && pos.halfmove_clock() >= DEAD_PLIES {
        answer(true, DrawReason::Dead)
    } else {
        answer(false, DrawReason::NotDead)
    }
}

fn get_str<'a>(body: &'a Value, key: &str) -> Result<Option<&'a str>, ApiError> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(bad(format!("`{key}` must be a string"))),
    }
}

/// The settings of a new game from the page's JSON (every field optional).
///
/// # Errors
/// [`ApiError::Bad`] naming the field.
pub fn parse_settings(body: &Value) -> Result<Settings, ApiError> {
    if !body.is_object() {
        return Err(bad("the body must be a JSON object"));
    }
    let mut s = Settings::default();
    let human = match get_str(body, "human")? {
        None => Color::Cho,
        Some(h) => parse_color(h).ok_or_else(|| bad("`human` must be \"cho\" or \"han\""))?,
    };
    s.mode = match get_str(body, "mode")? {
        None | Some("hve") => Mode::HumanVsEngine(human),
        Some("hvh") => Mode::HumanVsHuman,
        Some("eve") => Mode::EngineVsEngine,
        Some(m) => return Err(bad(format!("unknown mode {m:?} (hve, hvh, eve)"))),
    };
    if let Some(l) = get_str(body, "level")? {
        s.level = Level::parse(l).ok_or_else(|| bad("`level` must be easy, normal or hard"))?;
        s.skill = s.level.skill();
        s.movetime_ms = s.level.movetime();
        s.clock_cap_ms = s.level.clock_cap();
    }
    match body.get("skill") {
        None | Some(Value::Null) => {}
        Some(v) => {
            s.skill = v
                .as_u64()
                .filter(|&n| n <= 20)
                .ok_or_else(|| bad("`skill` must be 0 … 20"))? as u32
        }
    }
    match body.get("movetimeMs") {
        None | Some(Value::Null) => {}
        Some(v) => {
            s.movetime_ms =
                v.as_u64()
                    .filter(|&n| (10..=60_000).contains(&n))
                    .ok_or_else(|| bad("`movetimeMs` must be 10 … 60000"))? as u32;
            s.clock_cap_ms = Some(s.movetime_ms);
        }
    }
    if let Some(v) = get_str(body, "variant")? {
        let rules = Rules::from_variant(v).map_err(|e| bad(e.to_string()))?;
        s.rules = rules;
        s.variant = Rules::VARIANTS
            .iter()
            .copied()
            .find(|n| n.eq_ignore_ascii_case(v) && *n != "janggikjf");
    }
    if let Some(rules) = body.get("rules") {
        let obj = rules
            .as_object()
            .ok_or_else(|| bad("`rules` must be an object"))?;
        for (k, v) in obj {
            let name = match k.as_str() {
                "scoring" => "Scoring",
                "bikjang" => "Bikjang",
                "repetition" => "Repetition",
                "allowPass" => "AllowPass",
                "moveLimit" => "MoveLimit",
                _ => return Err(bad(format!("unknown rule option {k:?}"))),
            };
            let text = match v {
                Value::Bool(b) => b.to_string(),
                Value::Number(n) => n.to_string(),
                Value::String(t) => t.clone(),
                _ => return Err(bad(format!("rule option {k:?} has a bad value"))),
            };
            s.rules
                .set_option(name, &text)
                .map_err(|e| bad(e.to_string()))?;
        }
        // The preset no longer describes the rules if an option changed them.
        if let Some(v) = s.variant {
            if Rules::from_variant(v).ok() != Some(s.rules) {
                s.variant = None;
            }
        }
    }
    s.undo_limit = match body.get("undo") {
        None | Some(Value::Null) => Some(3),
        Some(Value::String(u)) if u == "off" => Some(0),
        Some(Value::String(u)) if u == "unlimited" => None,
        Some(v) => match v
            .as_u64()
            .or_else(|| v.as_str().and_then(|t| t.parse().ok()))
        {
            Some(n @ (0 | 1 | 3)) => Some(n as u32),
            _ => return Err(bad("`undo` must be off, 1, 3 or unlimited")),
        },
    };
    s.hints = match get_str(body, "hints")? {
        None | Some("moves") => Hints::Moves,
        Some("off") => Hints::Off,
        Some("movesAndThreats") => Hints::MovesAndThreats,
        Some(h) => return Err(bad(format!("unknown hints {h:?}"))),
    };
    match body.get("drawOffer") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(b)) => s.draw_offer = *b,
        Some(_) => return Err(bad("`drawOffer` must be true or false")),
    }
    s.byoyomi = match body.get("timeControl") {
        None | Some(Value::Null) => None,
        Some(tc) => {
            let num = |k: &str, lo: u64, hi: u64| -> Result<u64, ApiError> {
                tc.get(k)
                    .and_then(Value::as_u64)
                    .filter(|n| (lo..=hi).contains(n))
                    .ok_or_else(|| bad(format!("`timeControl.{k}` must be {lo} … {hi}")))
            };
            match tc.get("kind").and_then(Value::as_str) {
                Some("none") => None,
                Some("byoyomi") => Some(Byoyomi {
                    main_ms: num("mainSec", 0, 7200)? * 1000,
                    period_ms: num("periodSec", 1, 600)? * 1000,
                    periods: num("periods", 1, 10)? as u32,
                }),
                _ => return Err(bad("`timeControl.kind` must be none or byoyomi")),
            }
        }
    };
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(fen: &str) -> Game {
        Game::new(Position::from_fen(fen).expect("FEN"), Rules::default())
    }

    /// The same cases as the engine's own `answer_offer` (src/search/offer.rs).
    #[test]
    fn the_draw_rule_is_the_engines() {
        // Han is a chariot up; nothing captured for 80 plies.
        let g = game("3k1r3/9/9/9/9/9/9/9/9/4K4 w - - 80 41");
        assert_eq!(
            engine_answers_draw(&g, Color::Han, Some(0)),
            DrawAnswer {
                accept: false,
                reason: DrawReason::CountFavours
            }
        );
        assert_eq!(
            engine_answers_draw(&g, Color::Cho, Some(0)),
            DrawAnswer {
                accept: true,
                reason: DrawReason::Dead
            }
        );
        // Not level, no score, or too recent a capture: declined.
        for (score, halfmove) in [
            (Some(51), 80),
            (None, 80),
            (Some(0), 59),
            (Some(99_990), 80),
        ] {
            let g = game(&format!("3k1r3/9/9/9/9/9/9/9/9/4K4 w - - {halfmove} 41"));
            assert_eq!(
                engine_answers_draw(&g, Color::Cho, score).reason,
                DrawReason::NotDead,
                "{score:?} {halfmove}"
            );
        }
        // Generals and guards only: accepted at once, whatever the score,
        // unless the count favours the engine (Han's 1.5 deom).
        let bare = game("3ka4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1");
        assert!(engine_answers_draw(&bare, Color::Cho, Some(500)).accept);
        assert_eq!(
            engine_answers_draw(&bare, Color::Han, None).reason,
            DrawReason::CountFavours
        );
    }

    /// A game under way (both arrangements chosen) on a 60 s + 2 × 20 s
    /// byoyomi clock, human (Cho) against the engine at `level`.
    fn on_a_byoyomi_clock(level: &str) -> Session {
        let mut s = Session::new(
            parse_settings(&json!({"level": level, "timeControl": {"kind": "byoyomi", "mainSec": 60, "periodSec": 20, "periods": 2}}))
                .unwrap(),
        );
        s.choose_setup(&json!({"side": "han", "setup": "MSSM"}), 0)
            .unwrap();
        s.choose_setup(&json!({"side": "cho", "setup": "MSSM"}), 0)
            .unwrap();
        s
    }

    #[test]
    fn go_gives_the_clock_or_the_move_time() {
        let mut s = Session::new(parse_settings(&json!({"level": "easy"})).unwrap());
        assert_eq!(s.go(Instant::now()), Go::movetime(300));
        s = on_a_byoyomi_clock("normal");
        let now = Instant::now();
        let go = s.go(now);
        assert!(go.line.starts_with("go wtime "), "{}", go.line);
        assert!(
            go.line.ends_with(" btime 60000 byoyomi 20000 periods 2"),
            "{}",
            go.line
        );
        assert!(go.budget <= Duration::from_secs(100) && go.budget > Duration::from_secs(99));
        assert_eq!(go.cap, Some(Duration::from_secs(5)));
        // Paused: no time passes, and the clock has no deadline.
        s.pause_clock(now);
        assert_eq!(s.clock.unwrap().turn_started, None);
        s.resume_clock(now);
        assert!(s.clock.unwrap().turn_started.is_some());
    }

    /// The race CI met: the last page leaves (the clock pauses) while the
    /// engine's move is on its way; the move is played and the clock
    /// stays paused, charging no one, until a page is back.
    #[test]
    fn a_move_played_while_the_clock_is_paused_keeps_it_paused() {
        let mut s = on_a_byoyomi_clock("normal");
        s.pause_clock(Instant::now());
        let before = s.clock.unwrap().main_ms;
        let mv = s.game.position().parse_move("a4a5", Notation::Uci).unwrap();
        s.play(mv, true).unwrap();
        let c = s.clock.unwrap();
        assert_eq!(c.turn_started, None, "still paused after the move");
        assert_eq!(c.main_ms, before, "no time charged while paused");
        s.resume_clock(Instant::now());
        assert!(s.clock.unwrap().turn_started.is_some());
    }
}
