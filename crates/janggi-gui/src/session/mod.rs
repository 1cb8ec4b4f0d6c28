//! One game on the board, knowing nothing of HTTP or JSON: the settings
//! ([`settings`]), the setup phase (Han first), the game layer's [`Game`]
//! as the referee, the record in Korean notation and UCI, the byoyomi
//! clock ([`clock`]), undo, resignation, draw offers ([`draw`]) and
//! results. Requests come in as typed values (the HTTP edge parsed them);
//! what cannot be done is a typed [`GameError`]; nothing here panics on
//! any input.

pub mod clock;
pub mod consent;
pub mod draw;
pub mod error;
pub mod settings;
pub mod warning;

pub use clock::Clock;
pub use consent::{Answered, Ask, Pending};
pub use draw::{engine_answers_draw, DrawAnswer, DrawReason, DEAD_PLIES, DEAD_SCORE_CP};
pub use error::{GameError, PhaseError};
pub use settings::{parse_setup, setup_names, Hints, Level, Mode, Settings};
pub use warning::{bikjang_warning, pass_warning, Warning};

use crate::reasons::{cannon_screen, explain, Refusal};
use janggi_core::{
    Color, Event, Game, KoreanScript, Move, Notation, PieceKind, Position, Setup, Square,
};
use janggi_records::Record;
use std::time::Instant;

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
    pub events: Vec<Event>,
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

/// An arrangement as a side chooses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupChoice {
    /// This one.
    Named(Setup),
    /// Any of the four, at random.
    Random,
}

/// Where a game loaded from a record came from (its header as the page
/// shows it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// Cho's player.
    pub cho: Option<String>,
    /// Han's player.
    pub han: Option<String>,
    /// The event.
    pub event: Option<String>,
    /// The date.
    pub date: Option<String>,
    /// The result as PGN writes it.
    pub result: String,
    /// Plies in the record.
    pub plies: usize,
}

impl Source {
    /// The header of `r` as the page shows it.
    pub fn of(r: &Record) -> Source {
        let text = |t: Option<&str>| t.map(str::to_string);
        Source {
            cho: text(r.cho_player()),
            han: text(r.han_player()),
            event: text(r.tag_any(&["대회명", "Event"])),
            date: text(r.tag_any(&["대국일자", "Date"])),
            result: r.result.pgn().to_string(),
            plies: r.plies.len(),
        }
    }
}

/// A legal destination of a picked piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Destination {
    /// The point.
    pub to: Square,
    /// Whether the move captures.
    pub capture: bool,
    /// A cannon's screen (the piece it jumps), if the piece is a cannon.
    pub screen: Option<Square>,
}

/// The position after the first `ply` plies of the record.
#[derive(Clone, Debug)]
pub struct Stepped {
    /// Plies replayed.
    pub ply: usize,
    /// Plies in the record.
    pub plies: usize,
    /// The game after them.
    pub game: Game,
    /// The last of them, unless a pass.
    pub last: Option<Move>,
    /// The record's entry of that ply.
    pub played: Option<Played>,
}

/// The clocks as they read at one instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReading {
    /// Main time left (as last charged), Cho and Han.
    pub main_ms: [u64; 2],
    /// Periods left, Cho and Han.
    pub periods: [u32; 2],
    /// One period.
    pub period_ms: u64,
    /// The side whose clock runs, if one does.
    pub running: Option<Color>,
    /// How long the running side's turn has lasted.
    pub elapsed_ms: u64,
    /// How long until the running side's time runs out.
    pub deadline_in_ms: Option<u64>,
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
    /// Where the game came from when it was loaded from a record.
    pub source: Option<Source>,
    /// The loaded record's header tags, written back when it is saved.
    pub tags: Vec<(String, String)>,
    /// A draw offer or undo between two humans, waiting for the other
    /// player's answer.
    pub pending: Option<Pending>,
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
        let settings_clock = settings.time_control.map(Clock::new);
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
            pending: None,
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

    /// Whether the game is under way: arrangements chosen, no result yet.
    pub fn is_live(&self) -> bool {
        self.phase == Phase::Playing && self.game.outcome().is_none()
    }

    /// Whether the engine is to move now.
    pub fn engine_to_move(&self) -> bool {
        self.is_live() && !self.is_human(self.game.side_to_move())
    }

    /// `new game`: these settings, back to the setup phase.
    pub fn new_game(&mut self, settings: Settings) {
        let generation = self.generation + 1;
        *self = Session::new(settings);
        self.generation = generation;
    }

    /// Chooses one side's arrangement (Han first, then Cho; `random`
    /// picks one for [`SetupChoice::Random`]).
    ///
    /// # Errors
    /// Wrong order, or not in the setup phase.
    pub fn choose_setup(
        &mut self,
        side: Color,
        choice: SetupChoice,
        random: u64,
    ) -> Result<(), GameError> {
        let Phase::Setup { han } = self.phase else {
            return Err(PhaseError::SetupDone.into());
        };
        let setup = match choice {
            SetupChoice::Named(s) => s,
            SetupChoice::Random => Setup::ALL[(random % 4) as usize],
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
            (Color::Cho, None) => return Err(PhaseError::HanFirst.into()),
            (Color::Han, Some(_)) => return Err(PhaseError::HanChosen.into()),
        }
        Ok(())
    }

    /// Ends the game on time when the side to move's time ran out by
    /// `now`; returns whether it did.
    pub fn flag_fall(&mut self, now: Instant) -> bool {
        let Some(c) = &mut self.clock else {
            return false;
        };
        if self.phase != Phase::Playing || self.game.outcome().is_some() {
            return false;
        }
        let side = self.game.side_to_move();
        let mut probe = *c;
        if probe.charge(side, now).is_ok() {
            return false;
        }
        c.times.flag(side);
        let _ = self.game.lose_on_time(side);
        self.generation += 1;
        true
    }

    /// The clocks at `now`, if the game has one.
    pub fn clock_reading(&self, now: Instant) -> Option<ClockReading> {
        let c = self.clock.as_ref()?;
        let running = self.is_live().then(|| self.game.side_to_move());
        let elapsed_ms = match running {
            Some(_) => c.elapsed(now).as_millis() as u64,
            None => 0,
        };
        Some(ClockReading {
            main_ms: Color::BOTH.map(|s| c.main_ms(s)),
            periods: Color::BOTH.map(|s| c.periods_left(s)),
            period_ms: c.period_ms(),
            running,
            elapsed_ms,
            deadline_in_ms: running
                .and_then(|s| c.deadline(s))
                .map(|d| d.saturating_duration_since(now).as_millis() as u64),
        })
    }

    fn playing(&self) -> Result<(), GameError> {
        if self.phase != Phase::Playing {
            return Err(PhaseError::NotStarted.into());
        }
        Ok(())
    }

    /// The legal destinations of the piece on `from` (for the side to
    /// move); none when hints are off.
    ///
    /// # Errors
    /// Not playing.
    pub fn destinations(&self, from: Square) -> Result<Vec<Destination>, GameError> {
        self.playing()?;
        if self.settings.hints == Hints::Off {
            return Ok(Vec::new());
        }
        let pos = self.game.position();
        let cannon = pos
            .piece_at(from)
            .is_some_and(|p| p.kind == PieceKind::Cannon);
        Ok(self
            .game
            .legal_moves()
            .iter()
            .filter(|m| !m.is_pass() && m.from() == from)
            .map(|m| Destination {
                to: m.to(),
                capture: pos.piece_at(m.to()).is_some(),
                screen: if cannon {
                    cannon_screen(pos, from, m.to())
                } else {
                    None
                },
            })
            .collect())
    }

    /// The side to move's pieces (not the general) the opponent attacks,
    /// when the hints show threats and the game is under way.
    pub fn threatened(&self) -> Vec<Square> {
        if self.settings.hints != Hints::MovesAndThreats || !self.is_live() {
            return Vec::new();
        }
        let pos = self.game.position();
        let side = self.game.side_to_move();
        Square::ALL
            .iter()
            .copied()
            .filter(|&sq| {
                pos.piece_at(sq)
                    .is_some_and(|p| p.color == side && p.kind != PieceKind::General)
                    && pos.is_attacked(sq, !side)
            })
            .collect()
    }

    /// Plays a move; `by_engine` skips the human check.
    ///
    /// # Errors
    /// [`GameError::Refused`] with the reason.
    pub fn play(&mut self, mv: Move, by_engine: bool) -> Result<Vec<Event>, GameError> {
        self.playing()?;
        if self.game.outcome().is_some() {
            return Err(Refusal::GameOver.into());
        }
        if !by_engine && !self.is_human(self.game.side_to_move()) {
            return Err(Refusal::NotYourTurn.into());
        }
        let pos = self.game.position().clone();
        let side = pos.side_to_move();
        let now = Instant::now();
        if self.flag_fall(now) {
            return Err(Refusal::GameOver.into());
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
                // The same `now` as the flag check: a side that was not
                // out of time then is charged within its time.
                if let Some(c) = &mut self.clock {
                    if c.turn_started.is_some() {
                        let _ = c.charge(side, now);
                        c.turn_started = Some(Instant::now());
                    }
                }
                self.record.push(Played {
                    uci: pos.move_text(mv, Notation::Uci),
                    korean,
                    side,
                    events: events.clone(),
                    eval: None,
                });
                self.draw_answer = None;
                self.pending = None;
                Ok(events)
            }
            Err(e) => Err(explain(&self.game, mv, &e).into()),
        }
    }

    /// A human's move (or, with [`Move::PASS`], pass).
    ///
    /// # Errors
    /// A refused move, or not playing.
    pub fn play_human(&mut self, mv: Move) -> Result<Vec<Event>, GameError> {
        let ev = self.play(mv, false)?;
        self.generation += 1;
        Ok(ev)
    }

    /// Whether draws and undos wait for the other player's answer (two
    /// humans on one screen).
    pub fn needs_consent(&self) -> bool {
        self.settings.mode == Mode::HumanVsHuman
    }

    /// Plies an undo would take back now (human vs engine: back to the
    /// human's turn).
    ///
    /// # Errors
    /// Nothing to take back, or the allowance is used up.
    fn undo_plies(&self) -> Result<usize, GameError> {
        self.playing()?;
        if let Some(limit) = self.settings.undo_limit {
            if self.undo_used >= limit {
                return Err(PhaseError::NoUndosLeft.into());
            }
        }
        let plies = match self.settings.mode {
            Mode::HumanVsEngine(h) if self.game.side_to_move() == h => 2,
            _ => 1,
        };
        if plies > self.record.len() || self.record.is_empty() {
            return Err(PhaseError::NothingToTakeBack.into());
        }
        Ok(plies)
    }

    /// A player's undo: between two humans it becomes a question for the
    /// other player (`None`: asked); otherwise the plies taken back.
    ///
    /// # Errors
    /// Nothing to take back, the allowance is used up, or a question is
    /// already waiting.
    pub fn ask_undo(&mut self) -> Result<Option<usize>, GameError> {
        if !self.needs_consent() {
            return self.undo().map(Some);
        }
        self.undo_plies()?;
        self.ask(Ask::Undo)?;
        Ok(None)
    }

    fn ask(&mut self, ask: Ask) -> Result<(), GameError> {
        if self.pending.is_some() {
            return Err(PhaseError::AlreadyAsked.into());
        }
        self.pending = Some(Pending {
            ask,
            by: self.game.side_to_move(),
        });
        self.generation += 1;
        Ok(())
    }

    /// The other player's answer to the waiting question: a draw is
    /// agreed or an undo made on `accept`; declined, nothing changes.
    ///
    /// # Errors
    /// No question is waiting; the game ended meanwhile.
    pub fn answer(&mut self, accept: bool) -> Result<Answered, GameError> {
        self.playing()?;
        let Some(p) = self.pending.take() else {
            return Err(PhaseError::NothingAsked.into());
        };
        self.generation += 1;
        if !accept {
            return Ok(Answered::Declined(p.ask));
        }
        match p.ask {
            Ask::Draw => {
                self.game
                    .agree_draw()
                    .map_err(|_| GameError::Refused(Refusal::GameOver))?;
                self.draw_answer = Some(DrawAnswer {
                    accept: true,
                    reason: DrawReason::Agreed,
                });
                Ok(Answered::DrawAgreed)
            }
            Ask::Undo => self.undo().map(Answered::Undone),
        }
    }

    /// Takes back the last move (human vs engine: back to the human's
    /// turn) at once.
    ///
    /// # Errors
    /// Nothing to take back, or the allowance is used up.
    pub fn undo(&mut self) -> Result<usize, GameError> {
        let plies = self.undo_plies()?;
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
        self.pending = None;
        Ok(n)
    }

    /// The side to move (a human) resigns.
    ///
    /// # Errors
    /// Not playing, or already over.
    pub fn resign(&mut self) -> Result<(), GameError> {
        self.playing()?;
        let side = match self.settings.mode {
            Mode::HumanVsEngine(h) => h,
            _ => self.game.side_to_move(),
        };
        self.game
            .resign(side)
            .map_err(|_| GameError::Refused(Refusal::GameOver))?;
        self.pending = None;
        self.generation += 1;
        Ok(())
    }

    /// A draw offer. Between humans it waits for the other player's
    /// answer ([`Session::answer`]; the reply's reason is
    /// [`DrawReason::Offered`]). Against the engine the answer is the
    /// engine's own offer rule
    /// ([`engine_answers_draw`], the rule of `Engine::answer_offer` that
    /// this engine applies to CECP's `draw`), fed with the engine's last
    /// reported score: UCI has no draw offer to send it.
    ///
    /// # Errors
    /// Not playing, over, or offers are off.
    pub fn offer_draw(&mut self, last_eval: Option<i32>) -> Result<DrawAnswer, GameError> {
        self.playing()?;
        if !self.settings.draw_offer {
            return Err(PhaseError::DrawOffersOff.into());
        }
        if self.game.outcome().is_some() {
            return Err(Refusal::GameOver.into());
        }
        let answer = match self.settings.mode {
            Mode::HumanVsHuman => {
                self.ask(Ask::Draw)?;
                let offered = DrawAnswer {
                    accept: false,
                    reason: DrawReason::Offered,
                };
                self.draw_answer = Some(offered);
                return Ok(offered);
            }
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
        Ok(answer)
    }

    /// Stops the side to move's clock (no page is watching): its time so
    /// far is charged; [`Session::resume_clock`] starts it again.
    pub fn pause_clock(&mut self, now: Instant) {
        if self.flag_fall(now) {
            return;
        }
        let side = self.game.side_to_move();
        if let Some(c) = &mut self.clock {
            if c.turn_started.is_some() {
                let _ = c.charge(side, now);
                c.turn_started = None;
            }
        }
    }

    /// Starts the side to move's clock again after [`Session::pause_clock`].
    pub fn resume_clock(&mut self, now: Instant) {
        let live = self.is_live();
        if let Some(c) = &mut self.clock {
            if live && c.turn_started.is_none() {
                c.turn_started = Some(now);
            }
        }
    }

    /// The position after the first `ply` plies of the record (all of
    /// them for `None`), for stepping through the game (read-only: the
    /// game is not changed).
    ///
    /// # Errors
    /// [`GameError::NoSuchPly`] for a ply past the record.
    pub fn position_at(&self, ply: Option<u64>) -> Result<Stepped, GameError> {
        let n = self.record.len();
        let ply = match ply {
            None => n,
            Some(p) if p <= n as u64 => p as usize,
            Some(_) => return Err(GameError::NoSuchPly { plies: n }),
        };
        let mut g = Game::new(self.game.start_position().clone(), *self.game.rules());
        let mut last = None;
        for p in &self.record[..ply] {
            let mv = g
                .position()
                .parse_move(&p.uci, Notation::Uci)
                .map_err(GameError::RecordDoesNotReplay)?;
            g.play_unchecked(mv);
            last = Some(mv);
        }
        Ok(Stepped {
            ply,
            plies: n,
            game: g,
            last: last.filter(|m| !m.is_pass()),
            played: ply.checked_sub(1).map(|i| self.record[i].clone()),
        })
    }

    /// The game of a record (from a GIB or PGN file) as the board's game:
    /// two humans on one screen, the record's rules and start, every move
    /// played through the referee; the header is kept for saving.
    ///
    /// # Errors
    /// [`GameError::RecordMove`] naming the first move the referee refuses.
    pub fn from_record(rec: &Record) -> Result<Session, GameError> {
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
            s.play(p.mv, true).map_err(|e| GameError::RecordMove {
                number: i + 1,
                uci: s.game.position().move_text(p.mv, Notation::Uci),
                why: Box::new(e),
            })?;
        }
        s.tags.clone_from(&rec.tags);
        s.source = Some(Source::of(rec));
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
}

#[cfg(test)]
impl Session {
    /// A game under way (both arrangements chosen) on a 60 s + 2 × 20 s
    /// byoyomi clock, human (Cho) against the engine.
    pub(crate) fn on_a_byoyomi_clock(level: Level) -> Session {
        let mut settings = Settings::default();
        settings.set_level(level);
        settings.time_control = Some(janggi_uci::TimeControl::byoyomi(
            60_000,
            janggi_uci::Byoyomi {
                period_ms: 20_000,
                periods: 2,
            },
        ));
        let mut s = Session::new(settings);
        s.choose_setup(Color::Han, SetupChoice::Named(Setup::Mssm), 0)
            .unwrap();
        s.choose_setup(Color::Cho, SetupChoice::Named(Setup::Mssm), 0)
            .unwrap();
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pausing_stops_the_clock_and_resuming_starts_it() {
        let mut s = Session::on_a_byoyomi_clock(Level::Normal);
        let now = Instant::now();
        s.pause_clock(now);
        assert_eq!(s.clock.unwrap().turn_started, None);
        assert_eq!(s.clock_reading(now).unwrap().deadline_in_ms, None);
        s.resume_clock(now);
        assert!(s.clock.unwrap().turn_started.is_some());
    }

    /// janggi-uci's arithmetic on the board: a turn that overruns the main
    /// time by exactly one period keeps every period (the board's own
    /// clock used one up there); past the last period the game is lost
    /// on time.
    #[test]
    fn an_overrun_of_exactly_one_period_keeps_the_periods() {
        let ms = std::time::Duration::from_millis;
        let mut s = Session::on_a_byoyomi_clock(Level::Normal);
        let t = Instant::now();
        s.clock.as_mut().unwrap().turn_started = Some(t);
        s.pause_clock(t + ms(60_000 + 20_000));
        let c = s.clock.unwrap();
        assert_eq!((c.main_ms(Color::Cho), c.periods_left(Color::Cho)), (0, 2));
        assert!(s.is_live());
        // Two periods exactly: one is used; the game goes on.
        let mut s = Session::on_a_byoyomi_clock(Level::Normal);
        s.clock.as_mut().unwrap().turn_started = Some(t);
        assert!(!s.flag_fall(t + ms(60_000 + 40_000)));
        s.pause_clock(t + ms(60_000 + 40_000));
        assert_eq!(s.clock.unwrap().periods_left(Color::Cho), 1);
        // One millisecond past the last period: Cho loses on time.
        let mut s = Session::on_a_byoyomi_clock(Level::Normal);
        s.clock.as_mut().unwrap().turn_started = Some(t);
        assert!(s.flag_fall(t + ms(60_000 + 40_000 + 1)));
        assert!(!s.is_live());
        assert_eq!(s.clock.unwrap().periods_left(Color::Cho), 0);
    }

    /// The race CI met: the last page leaves (the clock pauses) while the
    /// engine's move is on its way; the move is played and the clock
    /// stays paused, charging no one, until a page is back.
    #[test]
    fn a_move_played_while_the_clock_is_paused_keeps_it_paused() {
        let mut s = Session::on_a_byoyomi_clock(Level::Normal);
        s.pause_clock(Instant::now());
        let before = s.clock.unwrap().times;
        let mv = s.game.position().parse_move("a4a5", Notation::Uci).unwrap();
        s.play(mv, true).unwrap();
        let c = s.clock.unwrap();
        assert_eq!(c.turn_started, None, "still paused after the move");
        assert_eq!(c.times, before, "no time charged while paused");
        s.resume_clock(Instant::now());
        assert!(s.clock.unwrap().turn_started.is_some());
    }
}
