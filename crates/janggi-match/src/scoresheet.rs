//! The referee's record of one game: the game under its rules, the moves
//! as played, and the `position` command each engine gets before its move.
//!
//! This is the runner's own work per move, kept apart so that it can be
//! measured on a long game (`tools/long_games.rs`): playing a move and
//! keeping the next `position` line cost the same at ply 20 and at ply
//! 15,000 (the line grows by a move; only sending it to the engine is
//! proportional to its length, as UCI and USI require).
//!
//! ```
//! use janggi_core::{Game, Rules};
//! use janggi_match::engine_process::EngineProtocol;
//! use janggi_match::scoresheet::Scoresheet;
//! use janggi_core::START_FEN;
//! use janggi_core::{Notation, Position};
//! let mut sheet = Scoresheet::new(START_FEN, Game::new(Position::startpos(), Rules::default()));
//! let mv = sheet.game.position().parse_move("b1c3", Notation::Uci).unwrap();
//! sheet.push_move(mv, None).unwrap();
//! assert_eq!(sheet.position_command(EngineProtocol::Uci), "position startpos moves b1c3");
//! assert_eq!(sheet.position_command(EngineProtocol::Usi), "position startpos moves 8j7h");
//! ```

use super::engine_process::{EngineProtocol, Reply};
use super::referee::MoveRecord;
use janggi_core::{Game, IllegalMove, Move, Notation, START_FEN};

/// One game as the referee keeps it.
#[derive(Clone, Debug)]
pub struct Scoresheet {
    /// The game under its rule set (the authority on every rule ending).
    pub game: Game,
    /// The `position` command in UCI and in USI notation (`position
    /// startpos` or `position fen …`, then ` moves m1 m2 …`), grown by one
    /// move at a time.
    lines: [String; 2],
    /// The moves as played, with what the engine said.
    pub moves: Vec<MoveRecord>,
}

impl Scoresheet {
    /// A sheet for `game`, which starts from `fen`.
    pub fn new(fen: &str, game: Game) -> Scoresheet {
        let start = if fen == START_FEN {
            String::from("position startpos")
        } else {
            format!("position fen {fen}")
        };
        Scoresheet {
            game,
            lines: [start.clone(), start],
            moves: Vec::new(),
        }
    }

    /// The `position` command for an engine speaking `protocol` (kept up
    /// to date move by move, so asking for it copies nothing).
    pub fn position_command(&self, protocol: EngineProtocol) -> &str {
        &self.lines[index(protocol)]
    }

    /// Plays `mv` (with the engine's `reply`, or none for an opening move).
    ///
    /// # Errors
    /// [`IllegalMove`]; the sheet is unchanged.
    pub fn push_move(&mut self, mv: Move, reply: Option<&Reply>) -> Result<(), IllegalMove> {
        let pos = self.game.position();
        let uci = pos.move_text(mv, Notation::Uci);
        let usi = pos.move_text(mv, Notation::Usi);
        self.game.play(mv)?;
        let first = self.moves.is_empty();
        for (line, text) in self.lines.iter_mut().zip([&uci, &usi]) {
            line.push_str(if first { " moves " } else { " " });
            line.push_str(text);
        }
        self.moves.push(MoveRecord {
            mv,
            text: uci,
            score: reply.and_then(|r| r.score),
            depth: reply.and_then(|r| r.depth),
            elapsed_ms: reply.map_or(0, |r| r.elapsed.as_millis() as u64),
            book: reply.is_none(),
        });
        Ok(())
    }
}

fn index(protocol: EngineProtocol) -> usize {
    match protocol {
        EngineProtocol::Uci => 0,
        EngineProtocol::Usi => 1,
    }
}
