//! The judge: what a move ends or changes under the rule set, decided in
//! the spec's processing order after a move (§8.2 steps 3–6), once for
//! the game ([`Game`](super::Game)) and for the engine's search alike.
//!
//! * [`Frame`]: the rule state of one position of a line (first capture
//!   seen, pending bikjang, consecutive passes, last capture, facing
//!   generals, check, the move into it), small and `Copy`, so a search
//!   keeps a stack of them over `Position::make`/`unmake`;
//! * [`Line`]: what the judge reads of the positions before the move (the
//!   frames, and how often a position occurred), implemented by the game
//!   over its record and by the search over its frame stack;
//! * [`judge`]: the frame before a move, the position after it and the
//!   line give the frame after it and the [`Decision`]: the game goes on,
//!   the move is refused, or the game ended with a typed [`Ending`].
//!
//! Step 4 (mate) is the caller's, as a lazy probe, because it is
//! expensive: the game asks it in its place ([`MateCheck::Always`]); the
//! search finds mates itself and asks only where a step-6 ending would
//! hide one ([`MateCheck::BeforeRuleEnding`]: "a mate is a mate"). The
//! bikjang answer of step 3 ends the game without asking, for both.
//!
//! The design of the layers is described in `docs/architecture.md`.

use super::history::{PlyChain, RepetitionVerdict};
use super::outcome::EndReason;
use super::ruleset::{BikjangRule, RepetitionRule, Rules};
use crate::board::Position;
use crate::types::{Color, Move, PieceKind};

/// The 4th occurrence of a position is the one the spec's repetition
/// options act on (and `janggimodern`'s n-fold).
pub const REPETITION_LIMIT: u32 = 4;

/// The 3rd occurrence brings a warning ("한 번 더 반복하면 둘 수 없어요").
pub const REPETITION_WARNING: u32 = 3;

/// Fairy-Stockfish's `nFoldRule` for `janggi`, `janggitraditional` and
/// `janggicasual`; `janggimodern` uses the spec's 4.
pub(crate) const FSF_NFOLD: u32 = 3;

/// KJA bikjang: only while both sides have fewer than this many points
/// (without the deom).
pub(crate) const KJA_BIKJANG_POINTS: u32 = 30;

/// Pieces per side in every start setup; fewer at the start of a game
/// means captures happened before it.
pub(crate) const FULL_ARMY: u32 = 16;

/// The deom (덤) in half points: Han's 1.5 points.
pub(crate) const DEOM_HALVES: u32 = 3;

/// The rule state of one position of a line (the start, or the position
/// after a move), as [`judge`] leaves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Zobrist key (board + side to move).
    key: u64,
    /// Plies from the start of the line.
    ply: u32,
    /// Ply of the latest capture (0 without one): no position before it
    /// can occur again.
    last_irreversible: u32,
    /// Consecutive passes that led here.
    passes: u8,
    /// Whether a capture happened at or before the move into here (or the
    /// start lacked pieces).
    captured_any: bool,
    /// Whether the generals face each other here.
    facing: bool,
    /// Whether the side to move is in check here.
    in_check: bool,
    /// The side that called bikjang (KJF/KJA) and waits for the answer.
    pending: Option<Color>,
    /// Whether the move into here called bikjang.
    called: bool,
    /// The move into here (`None` at the start).
    mv: Option<Move>,
    /// Kind of the piece moved here (`None` for a pass or the start).
    moved: Option<PieceKind>,
    /// Whether the move into here captured.
    captured: bool,
}

impl Frame {
    /// The frame of a line's start position `pos` (no move led to it;
    /// with fewer than 16 pieces on a side, captures happened before it).
    pub fn start(pos: &Position) -> Frame {
        let full = Color::BOTH
            .iter()
            .all(|&c| pos.color_bb(c).count() >= FULL_ARMY);
        Frame {
            key: pos.key(),
            ply: 0,
            last_irreversible: 0,
            passes: 0,
            captured_any: !full,
            facing: pos.generals_facing(),
            in_check: pos.in_check(),
            pending: None,
            called: false,
            mv: None,
            moved: None,
            captured: false,
        }
    }

    /// Zobrist key (board + side to move) of the position.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plies from the start of the line.
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Ply of the latest capture (0 without one); the positions before it
    /// cannot occur again.
    #[inline]
    pub fn last_irreversible(&self) -> u32 {
        self.last_irreversible
    }

    /// Passes in a row that led here (at most 255).
    #[inline]
    pub fn passes(&self) -> u32 {
        u32::from(self.passes)
    }

    /// Whether a capture happened at or before the move into here, or the
    /// start position already lacked pieces (the KJF bikjang rule).
    #[inline]
    pub fn captured_any(&self) -> bool {
        self.captured_any
    }

    /// Whether the generals face each other here.
    #[inline]
    pub fn facing(&self) -> bool {
        self.facing
    }

    /// Whether the side to move is in check here.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.in_check
    }

    /// The side whose call of bikjang (KJF/KJA) waits for the answer.
    #[inline]
    pub fn pending(&self) -> Option<Color> {
        self.pending
    }

    /// Whether the move into here called bikjang (under Fairy-Stockfish's
    /// rule: made the generals face each other).
    #[inline]
    pub fn called_bikjang(&self) -> bool {
        self.called
    }

    /// The move into here (`None` at the start).
    #[inline]
    pub fn mv(&self) -> Option<Move> {
        self.mv
    }

    /// Kind of the piece moved here (`None` for a pass or the start).
    #[inline]
    pub fn moved(&self) -> Option<PieceKind> {
        self.moved
    }

    /// Whether the move into here captured.
    #[inline]
    pub fn captured(&self) -> bool {
        self.captured
    }
}

/// The move just made, as its caller saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move (or the pass).
    pub mv: Move,
    /// Whether it took a piece.
    pub captured: bool,
    /// Whether the side now to move is in check.
    pub in_check: bool,
}

/// How a game ended: the reason (§8.6 names) and the winner (`None`: a
/// draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// Why the game ended.
    pub reason: EndReason,
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
}

/// The occasion of an ending by counting (판정).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occasion {
    /// Bikjang (빅장).
    Bikjang,
    /// Two passes in a row.
    Passes,
    /// The move limit or Fairy-Stockfish's n-move rule.
    MoveLimit,
    /// A repetition.
    Repetition,
}

impl Ending {
    /// The ending by counting on `occasion` in `pos`: the higher score
    /// (Han's with the deom) wins, or a draw when the rule set does not
    /// score.
    #[inline]
    pub fn counting(rules: &Rules, pos: &Position, occasion: Occasion) -> Ending {
        let (score, draw) = match occasion {
            Occasion::Bikjang => (EndReason::ScoreBikjang, EndReason::DrawBikjang),
            Occasion::Passes => (EndReason::ScorePasses, EndReason::DrawPasses),
            Occasion::MoveLimit => (EndReason::ScoreMoveLimit, EndReason::DrawMoveLimit),
            Occasion::Repetition => (EndReason::ScoreRepetition, EndReason::DrawRepetition),
        };
        Ending {
            reason: if rules.scoring { score } else { draw },
            winner: counting_winner(rules, pos),
        }
    }
}

/// The winner by counting in `pos` (`None` when the rule set does not
/// score). The deom makes a tie impossible.
#[inline]
pub fn counting_winner(rules: &Rules, pos: &Position) -> Option<Color> {
    if !rules.scoring {
        return None;
    }
    let cho = 2 * pos.material(Color::Cho);
    let han = 2 * pos.material(Color::Han) + DEOM_HALVES;
    Some(if cho > han { Color::Cho } else { Color::Han })
}

/// What a move did, as the rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The game goes on (under [`MateCheck::BeforeRuleEnding`] the side to
    /// move may still be mated: the caller finds that out).
    Continue,
    /// The move is not legal under Fairy-Stockfish's bikjang rule (a
    /// non-pass move that keeps the generals facing).
    Illegal,
    /// The move makes a position's 4th occurrence under `forbid`. The game
    /// allows it only when nothing else is legal, and then ends by
    /// counting ([`Occasion::Repetition`]).
    RepetitionForbidden,
    /// The game ended with this move.
    Ended(Ending),
}

/// When [`judge`] asks whether the side to move is checkmated (step 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateCheck {
    /// In its place, after the bikjang answer: a mated side neither calls
    /// bikjang nor meets a step-6 ending (the game).
    Always,
    /// Only when a step-6 ending fires, which a mate beats (the search,
    /// which finds mates itself).
    BeforeRuleEnding,
}

/// What [`judge`] reads of the line before the move: index `k` of
/// [`Line::frames`] is the position after `k` plies (0: the start), the
/// last one is the position the move was made in.
pub trait Line {
    /// The frames of the line up to the position before the move.
    fn frames(&self) -> &[Frame];

    /// How often the position with Zobrist `key` occurred in the line.
    /// Only the positions since the last capture need to be counted: none
    /// before it can match one after it (the material differs).
    fn occurrences(&self, key: u64) -> u32;
}

/// Judges the move `played` that led from the position of `prev` (the
/// last frame of `line`) to `pos` under `rules`: returns the frame of
/// `pos` and what the move ends or changes, in the spec's order (§8.2):
///
/// 3. the answer to a pending bikjang must break the facing, else the
///    game ends by counting; under Fairy-Stockfish's rule a bikjang that
///    persists ends it (after a pass) or makes the move illegal;
/// 4. mate, asked of `is_mate` as `mate` says;
/// 5. a move that leaves the generals facing calls bikjang (KJF: from the
///    move after the first capture on; KJA: while both sides have fewer
///    than 30 points);
/// 6. repetition, two passes in a row, the n-move rule, the move limit
///    (Fairy-Stockfish's order and repetition rule under its presets).
#[inline]
pub fn judge<L: Line + ?Sized>(
    rules: &Rules,
    prev: &Frame,
    pos: &Position,
    played: Played,
    line: &L,
    mate: MateCheck,
    is_mate: impl FnOnce() -> bool,
) -> (Frame, Decision) {
    let mover = !pos.side_to_move();
    let facing = pos.generals_facing();
    let Played {
        mv,
        captured,
        in_check,
    } = played;
    let pass = mv.is_pass();
    let ply = prev.ply + 1;
    let mut frame = Frame {
        key: pos.key(),
        ply,
        last_irreversible: if captured {
            ply
        } else {
            prev.last_irreversible
        },
        passes: if pass {
            prev.passes.saturating_add(1)
        } else {
            0
        },
        captured_any: prev.captured_any || captured,
        facing,
        in_check,
        pending: None,
        called: false,
        mv: Some(mv),
        moved: if pass {
            None
        } else {
            pos.piece_at(mv.to()).map(|p| p.kind)
        },
        captured,
    };
    // Asks the probe once; later asks answer `false` (not a mate).
    let mut probe = Some(is_mate);
    let mut mated = move || probe.take().is_some_and(|f| f());
    let checkmate = Ending {
        reason: EndReason::Checkmate,
        winner: Some(mover),
    };

    // Step 3: the answer to bikjang.
    match rules.bikjang {
        BikjangRule::Fsf => {
            // "In bikjang every non-pass move that keeps the generals
            // facing is illegal; bikjang that persists after a move (a
            // pass) ends the game."
            if prev.facing && facing {
                let decision = if pass {
                    Decision::Ended(Ending::counting(rules, pos, Occasion::Bikjang))
                } else {
                    Decision::Illegal
                };
                return (frame, decision);
            }
        }
        BikjangRule::Kjf | BikjangRule::Kja30 => {
            if prev.pending.is_some_and(|c| c != mover) && facing {
                let end = Ending::counting(rules, pos, Occasion::Bikjang);
                return (frame, Decision::Ended(end));
            }
        }
        BikjangRule::Off => {}
    }

    // Step 4, where the caller wants it in its place.
    if mate == MateCheck::Always && mated() {
        return (frame, Decision::Ended(checkmate));
    }

    // Step 5: calling bikjang.
    if facing {
        let calls = match rules.bikjang {
            BikjangRule::Off => false,
            // "From the move after the first capture" (not on it).
            BikjangRule::Kjf => prev.captured_any,
            BikjangRule::Kja30 => {
                pos.material(Color::Cho) < KJA_BIKJANG_POINTS
                    && pos.material(Color::Han) < KJA_BIKJANG_POINTS
            }
            // The generals did not face each other before (step 3).
            BikjangRule::Fsf => true,
        };
        frame.called = calls;
        if calls && rules.bikjang != BikjangRule::Fsf {
            frame.pending = Some(mover);
        }
    }

    // Step 6: repetition, passes, the n-move rule, the move limit.
    let double_pass = pass && prev.passes > 0;
    let no_capture = rules.no_capture_limit > 0 && pos.halfmove_clock() >= rules.no_capture_limit;
    let end = if rules.repetition.is_fsf() {
        // Fairy-Stockfish: the double pass ends the game at once
        // (is_immediate_game_end) before its optional endings: the n-move
        // rule, then repetition.
        if double_pass {
            Some(Ending::counting(rules, pos, Occasion::Passes))
        } else if no_capture {
            Some(Ending::counting(rules, pos, Occasion::MoveLimit))
        } else {
            fsf_repetition(rules, &frame, pos, line)
        }
    } else {
        let mut end = None;
        if !captured && line.occurrences(frame.key) + 1 >= REPETITION_LIMIT {
            match rules.repetition {
                RepetitionRule::Lose => {
                    end = Some(Ending {
                        reason: EndReason::RepetitionLoss,
                        winner: Some(!mover),
                    });
                }
                RepetitionRule::ScoreEnd => {
                    end = Some(Ending::counting(rules, pos, Occasion::Repetition));
                }
                RepetitionRule::Off => {}
                _ => return (frame, Decision::RepetitionForbidden),
            }
        }
        if end.is_none() {
            if double_pass {
                end = Some(Ending::counting(rules, pos, Occasion::Passes));
            } else if no_capture {
                end = Some(Ending::counting(rules, pos, Occasion::MoveLimit));
            }
        }
        end
    };
    let end = end.or_else(|| {
        (rules.move_limit > 0 && ply >= rules.move_limit)
            .then(|| Ending::counting(rules, pos, Occasion::MoveLimit))
    });
    let decision = match end {
        // Step 4 comes first: a mate is a mate.
        Some(_) if mated() => Decision::Ended(checkmate),
        Some(e) => Decision::Ended(e),
        None => Decision::Continue,
    };
    (frame, decision)
}

/// Fairy-Stockfish's repetition rule ([`PlyChain::fsf_repetition`], the
/// Kakao rule included under `fsfModern`): the `nfold`-th occurrence
/// within the capture-free stretch ends the game; a side that gave check
/// in each of its moves of the cycle loses, else counting.
fn fsf_repetition<L: Line + ?Sized>(
    rules: &Rules,
    frame: &Frame,
    pos: &Position,
    line: &L,
) -> Option<Ending> {
    let modern = rules.repetition == RepetitionRule::FsfModern;
    let nfold = if modern { REPETITION_LIMIT } else { FSF_NFOLD };
    // Without the Kakao rule only the n-fold count can end the game, and
    // every earlier occurrence of this position lies in the window the
    // port scans (since the last capture: a capture changes the material
    // for good), so the count says at once when it cannot fire, and no
    // move scans a long capture-free stretch.
    if !modern {
        let count = if frame.captured {
            1
        } else {
            line.occurrences(frame.key) + 1
        };
        if count < nfold {
            return None;
        }
    }
    let chain = Next {
        frames: line.frames(),
        next: frame,
    };
    let stm = pos.side_to_move();
    Some(
        match chain.fsf_repetition(pos.halfmove_clock() as usize, nfold, modern)? {
            RepetitionVerdict::SideToMoveWins => Ending {
                reason: EndReason::RepetitionLoss,
                winner: Some(stm),
            },
            RepetitionVerdict::SideToMoveLoses => Ending {
                reason: EndReason::RepetitionLoss,
                winner: Some(!stm),
            },
            RepetitionVerdict::Neutral => Ending::counting(rules, pos, Occasion::Repetition),
        },
    )
}

/// A line's frames followed by the frame of the position after the move:
/// Fairy-Stockfish's state chain up to the position being judged.
struct Next<'a> {
    frames: &'a [Frame],
    next: &'a Frame,
}

impl Next<'_> {
    #[inline]
    fn at(&self, k: usize) -> &Frame {
        self.frames.get(k).unwrap_or(self.next)
    }
}

impl PlyChain for Next<'_> {
    #[inline]
    fn plies(&self) -> usize {
        self.frames.len()
    }

    #[inline]
    fn key(&self, k: usize) -> u64 {
        self.at(k).key
    }

    #[inline]
    fn checked(&self, k: usize) -> bool {
        self.at(k).in_check
    }

    #[inline]
    fn mv(&self, k: usize) -> Option<Move> {
        self.at(k).mv
    }

    #[inline]
    fn captured(&self, k: usize) -> bool {
        self.at(k).captured
    }

    #[inline]
    fn moved(&self, k: usize) -> Option<PieceKind> {
        self.at(k).moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Notation;
    use std::cell::Cell;
    use std::collections::HashMap;

    /// A line kept as the game keeps it: frames and a count map.
    struct TestLine {
        rules: Rules,
        pos: Position,
        frames: Vec<Frame>,
        counts: HashMap<u64, u32>,
    }

    impl Line for TestLine {
        fn frames(&self) -> &[Frame] {
            &self.frames
        }

        fn occurrences(&self, key: u64) -> u32 {
            self.counts.get(&key).copied().unwrap_or(0)
        }
    }

    impl TestLine {
        fn new(fen: &str, rules: Rules) -> TestLine {
            let pos = Position::from_fen(fen).expect("FEN");
            TestLine {
                rules,
                frames: vec![Frame::start(&pos)],
                counts: HashMap::from([(pos.key(), 1)]),
                pos,
            }
        }

        /// Plays `text` (legal) and judges it; the probe answers `mate`
        /// and must not be asked unless `ask` allows it.
        fn play_with(&mut self, text: &str, check: MateCheck, mate: bool, ask: bool) -> Decision {
            let mv = self.pos.parse_move(text, Notation::Uci).expect("move");
            assert!(self.pos.is_legal(mv, self.rules.model()), "{text}");
            let captured = !mv.is_pass() && self.pos.piece_at(mv.to()).is_some();
            self.pos.make(mv);
            let played = Played {
                mv,
                captured,
                in_check: self.pos.in_check(),
            };
            let asked = Cell::new(false);
            let prev = *self.frames.last().expect("start frame");
            let (frame, decision) =
                judge(&self.rules, &prev, &self.pos, played, self, check, || {
                    asked.set(true);
                    mate
                });
            assert!(ask || !asked.get(), "mate asked after {text}");
            *self.counts.entry(frame.key()).or_insert(0) += 1;
            self.frames.push(frame);
            decision
        }

        fn play(&mut self, text: &str) -> Decision {
            self.play_with(text, MateCheck::BeforeRuleEnding, false, true)
        }

        fn top(&self) -> Frame {
            *self.frames.last().expect("start frame")
        }
    }

    fn ended(reason: EndReason, winner: Option<Color>) -> Decision {
        Decision::Ended(Ending { reason, winner })
    }

    /// Full armies; Han's soldier takes on d7 and opens the e-file.
    const FIRST_CAPTURE_FACING: &str =
        "rnba1abnr/4k4/1c5c1/p1pPp1p1p/9/9/P1P3P1P/1C5C1/4K4/RNBA1ABNR b - - 0 1";

    #[test]
    fn kjf_calls_only_after_the_first_capture_and_the_answer_ends_unasked() {
        let mut line = TestLine::new(FIRST_CAPTURE_FACING, Rules::default());
        assert!(!line.top().captured_any());
        // The capture itself opens the file: no call on it.
        assert_eq!(line.play("e7d7"), Decision::Continue);
        let f = line.top();
        assert!(f.facing() && f.captured() && f.captured_any());
        assert!(!f.called_bikjang());
        assert_eq!(f.pending(), None);
        assert_eq!(f.last_irreversible(), 1);
        // The next move that keeps them facing calls it.
        assert_eq!(line.play("a1a2"), Decision::Continue);
        assert!(line.top().called_bikjang());
        assert_eq!(line.top().pending(), Some(Color::Cho));
        // Not answered: counting (Han 73.5 : Cho 70), without asking for a
        // mate, even under `Always`.
        let d = line.play_with("a10a9", MateCheck::Always, true, false);
        assert_eq!(d, ended(EndReason::ScoreBikjang, Some(Color::Han)));
    }

    #[test]
    fn a_broken_facing_answers_the_call() {
        let mut line = TestLine::new(FIRST_CAPTURE_FACING, Rules::default());
        line.play("e7d7");
        line.play("a1a2");
        assert_eq!(line.play("d7e7"), Decision::Continue);
        assert_eq!(line.top().pending(), None);
        assert!(!line.top().facing());
    }

    #[test]
    fn fsf_bikjang_refuses_moves_and_ends_on_a_pass() {
        let rules = Rules::from_variant("janggi").expect("preset");
        // Generals facing on the e-file from the start.
        let fen = "4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
        let mut line = TestLine::new(fen, rules);
        assert!(line.top().facing());
        let mv = line.pos.parse_move("a1a2", Notation::Uci).expect("move");
        let mut pos = line.pos.clone();
        pos.make(mv);
        let played = Played {
            mv,
            captured: false,
            in_check: false,
        };
        let prev = line.top();
        let (_, d) = judge(
            &rules,
            &prev,
            &pos,
            played,
            &line,
            MateCheck::Always,
            || false,
        );
        assert_eq!(d, Decision::Illegal);
        // Cho 13 : Han 1.5.
        let d = line.play_with("pass", MateCheck::Always, false, false);
        assert_eq!(d, ended(EndReason::ScoreBikjang, Some(Color::Cho)));
    }

    /// Bare generals, Cho's chariot and Han's guard shuffle.
    const SHUFFLE: &str = "3k5/4a4/9/9/9/9/9/9/9/3K1R3 w - - 0 1";
    const CYCLE: [&str; 4] = ["f1f2", "e9e10", "f2f1", "e10e9"];

    /// Plays the cycle three times and once more: the start position
    /// occurs the 4th time on the 12th ply.
    fn fourth_occurrence(repetition: RepetitionRule) -> Decision {
        let rules = Rules {
            bikjang: BikjangRule::Off,
            repetition,
            ..Rules::default()
        };
        let mut line = TestLine::new(SHUFFLE, rules);
        for (i, mv) in CYCLE.iter().cycle().take(11).enumerate() {
            assert_eq!(line.play(mv), Decision::Continue, "ply {}", i + 1);
        }
        line.play(CYCLE[3])
    }

    #[test]
    fn the_fourth_occurrence_under_each_spec_rule() {
        assert_eq!(
            fourth_occurrence(RepetitionRule::Lose),
            ended(EndReason::RepetitionLoss, Some(Color::Cho))
        );
        assert_eq!(
            fourth_occurrence(RepetitionRule::Forbid),
            Decision::RepetitionForbidden
        );
        assert_eq!(
            fourth_occurrence(RepetitionRule::ScoreEnd),
            ended(EndReason::ScoreRepetition, Some(Color::Cho))
        );
        // The apps' records: repetition changes nothing.
        assert_eq!(fourth_occurrence(RepetitionRule::Off), Decision::Continue);
        // Fairy-Stockfish's 3-fold ends it earlier, on the 8th ply.
        let rules = Rules {
            bikjang: BikjangRule::Off,
            repetition: RepetitionRule::Fsf,
            scoring: false,
            ..Rules::default()
        };
        let mut line = TestLine::new(SHUFFLE, rules);
        for mv in CYCLE.iter().cycle().take(7) {
            assert_eq!(line.play(mv), Decision::Continue);
        }
        assert_eq!(line.play(CYCLE[3]), ended(EndReason::DrawRepetition, None));
    }

    #[test]
    fn double_pass_ends_by_counting_and_a_mate_beats_it() {
        let start = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
        let mut line = TestLine::new(start, Rules::default());
        assert_eq!(line.play("pass"), Decision::Continue);
        assert_eq!(line.top().passes(), 1);
        // 72 : 73.5 with the deom.
        let d = line.play_with("pass", MateCheck::BeforeRuleEnding, false, true);
        assert_eq!(d, ended(EndReason::ScorePasses, Some(Color::Han)));
        let rules = Rules {
            scoring: false,
            ..Rules::default()
        };
        let mut line = TestLine::new(start, rules);
        line.play("pass");
        assert_eq!(line.play("pass"), ended(EndReason::DrawPasses, None));
        // A rule ending asks for the mate, and the mate wins.
        let mut line = TestLine::new(start, Rules::default());
        line.play("pass");
        let d = line.play_with("pass", MateCheck::BeforeRuleEnding, true, true);
        assert_eq!(d, ended(EndReason::Checkmate, Some(Color::Han)));
    }

    #[test]
    fn the_move_limit_counts_the_plies_of_both_sides() {
        let start = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
        let rules = Rules {
            move_limit: 2,
            ..Rules::default()
        };
        let mut line = TestLine::new(start, rules);
        assert_eq!(line.play("a4a5"), Decision::Continue);
        assert_eq!(
            line.play("a7a6"),
            ended(EndReason::ScoreMoveLimit, Some(Color::Han))
        );
        assert_eq!(line.top().ply(), 2);
    }
}
