//! CECP output text: the `feature` lines, the `setup` line that tells
//! XBoard the Janggi board, thinking lines and result claims.

use super::super::notation::line_text;
use super::super::options::{CecpAccess, OptionSpec, OptionType, OPTIONS};
use super::super::{ProtocolDialect, ENGINE_NAME};
use crate::search::{Info, ReportScore};
use janggi_core::{Color, Game, Outcome, Position, Rules};

/// XBoard's mate scores: mate in `n` moves is `MATE_SCORE + n`, being
/// mated in `n` is `-(MATE_SCORE + n)` (the value XBoard and
/// Fairy-Stockfish use).
pub const MATE_SCORE: i64 = 100_000;

/// The piece-to-letter table of the `setup` command, in XBoard's internal
/// piece order (`P N B R Q F E A C W M O …`, the king last, then the same
/// for black): horse `H` (Knight), chariot `R` (Rook), guard `A` (Ferz),
/// elephant `E` (Elephant), general `K` (Wazir), soldier `P` (Commoner),
/// cannon `C` (Cannon). Janggi GUIs and Fairy-Stockfish's XBoard mode use
/// the letters `H` and `E` for horse and elephant. The Pawn slot stays
/// empty: XBoard promotes a Pawn on the last rank by itself (to a Queen,
/// which has no letter here), and a soldier there vanished from its board,
/// the move relayed as `g1g0.` (seen in a CI run of the XBoard smoke
/// check, which now fails on any relayed promotion).
pub const PIECE_TABLE: &str = ".H.R.AE..KPC..h.r.ae..kpc.";

/// The board geometry and parent variant of the `setup` command: 9 files,
/// 10 ranks, no holdings, XBoard's built-in Janggi rules.
pub const BOARD: &str = "9x10+0_janggi";

/// The answer to `protover 2`: the feature lines, `done=1` last. The
/// options offered are the table's [`CecpAccess::Feature`] ones; the others
/// CECP sets by its own commands (`memory`, `cores`, `variant`, `hard`,
/// `analyze`) or has no place for (`UCI_ShowWDL`).
pub fn features() -> Vec<String> {
    // `janggi` first: XBoard knows that name; the others are our rule
    // sets, for which the `setup` command defines the board.
    let mut variants = vec!["janggi"];
    variants.extend(Rules::VARIANTS.iter().filter(|&&v| v != "janggi"));
    let mut lines = vec![format!(
        "feature setboard=1 usermove=1 time=1 memory=1 smp=1 ping=1 colors=0 sigint=0 \
         sigterm=0 san=0 draw=1 analyze=1 reuse=1 myname=\"{ENGINE_NAME}\" variants=\"{}\"",
        variants.join(",")
    )];
    lines.extend(
        OPTIONS
            .iter()
            .filter(|o| o.cecp == CecpAccess::Feature)
            .map(option_feature),
    );
    lines.push("feature done=1".to_string());
    lines
}

/// `feature option="NAME -TYPE …"` for one engine option (combo: the
/// default first, the others after `///`; check: `0`/`1`; a string that
/// names a file, as `EvalFile`, is a `-file`).
pub fn option_feature(o: &OptionSpec) -> String {
    let name = o.name(ProtocolDialect::Cecp);
    let body = match o.kind {
        OptionType::Spin {
            default, min, max, ..
        } => format!("-spin {default} {min} {max}"),
        OptionType::Check { default, .. } => format!("-check {}", u8::from(default)),
        OptionType::Combo { default, vars, .. } => {
            let mut s = format!("-combo {default}");
            for v in vars.iter().filter(|&&v| v != default) {
                s.push_str(" /// ");
                s.push_str(v);
            }
            s
        }
        OptionType::Button { .. } => "-button".to_string(),
        // A file name gets XBoard's file browser.
        OptionType::String {
            default,
            file: true,
            ..
        } => format!("-file {default}"),
        OptionType::String { default, .. } => format!("-string {default}"),
    };
    format!("feature option=\"{name} {body}\"")
}

/// A FEN with XBoard's Janggi letters (`H` horse, `E` elephant).
pub fn xboard_fen(pos: &Position) -> String {
    let fen = pos.fen();
    let (board, rest) = fen.split_once(' ').unwrap_or((fen.as_str(), ""));
    let board: String = board
        .chars()
        .map(|c| match c {
            'N' => 'H',
            'n' => 'h',
            'B' => 'E',
            'b' => 'e',
            c => c,
        })
        .collect();
    format!("{board} {rest}")
}

/// `setup (TABLE) 9x10+0_janggi FEN`: the board XBoard draws for every
/// rule set (they share board and pieces).
pub fn setup_line(start: &Position) -> String {
    format!("setup ({PIECE_TABLE}) {BOARD} {}", xboard_fen(start))
}

/// A score in XBoard's units: centipawns, or [`MATE_SCORE`]` + n`.
pub fn score(score: ReportScore) -> i64 {
    match score {
        ReportScore::Cp(cp) => i64::from(cp),
        ReportScore::Mate(n) if n > 0 => MATE_SCORE + i64::from(n),
        ReportScore::Mate(n) => -MATE_SCORE + i64::from(n),
    }
}

/// The thinking line `ply score time nodes pv`: time in centiseconds,
/// score from the engine's (side to move's) point of view.
pub fn thinking_line(game: &Game, info: &Info) -> String {
    let pv = line_text(game, &info.pv, ProtocolDialect::Cecp);
    format!(
        "{} {} {} {} {}",
        info.depth,
        score(info.score),
        info.time_ms / 10,
        info.nodes,
        pv.join(" ")
    )
    .trim_end()
    .to_string()
}

/// `1-0 {…}`, `0-1 {…}` or `1/2-1/2 {…}`: the claim of a finished game
/// (Cho is "white"), with the reason in English, the Korean summary and
/// the count (Han's with the 1.5-point deom).
pub fn result_line(o: &Outcome) -> String {
    let result = match o.winner {
        Some(Color::Cho) => "1-0",
        Some(Color::Han) => "0-1",
        None => "1/2-1/2",
    };
    format!(
        "{result} {{{}; {}; count Cho {} : Han {}}}",
        o.summary_en(),
        o.summary_ko(),
        o.points_text(Color::Cho),
        o.points_text(Color::Han)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use janggi_core::EndReason;

    /// XBoard promotes whatever stands in its Pawn slot (first of each
    /// half) on the last rank: no Janggi piece may sit there, and each
    /// side's seven letters appear once in its half, the general last but
    /// one (XBoard's king slot, the last, stays empty).
    #[test]
    fn no_janggi_piece_sits_in_xboards_pawn_slot() {
        let (white, black) = PIECE_TABLE.split_at(PIECE_TABLE.len() / 2);
        for (half, letters) in [(white, "HRAEKPC"), (black, "hraekpc")] {
            assert!(half.starts_with('.'), "{half}");
            assert!(half.ends_with('.'), "{half}");
            for l in letters.chars() {
                assert_eq!(half.matches(l).count(), 1, "{l} in {half}");
            }
            assert_eq!(half.chars().filter(|&c| c != '.').count(), 7, "{half}");
        }
    }

    #[test]
    fn setup_of_the_start_position() {
        assert_eq!(
            setup_line(&Position::startpos()),
            "setup (.H.R.AE..KPC..h.r.ae..kpc.) 9x10+0_janggi \
             rhea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RHEA1AEHR w - - 0 1"
        );
    }

    #[test]
    fn feature_lines() {
        let f = features();
        assert!(f[0].starts_with("feature setboard=1 usermove=1 time=1 memory=1 smp=1 ping=1"));
        assert!(f[0]
            .contains("variants=\"janggi,janggikjf,janggitraditional,janggimodern,janggicasual\""));
        assert!(f.contains(&"feature option=\"MultiPV -spin 1 1 256\"".to_string()));
        assert!(f.contains(&"feature option=\"Clear Hash -button\"".to_string()));
        assert!(f.contains(&"feature option=\"Scoring -check 1\"".to_string()));
        assert!(f.contains(
            &"feature option=\"Bikjang -combo kjf /// off /// kja30 /// fsf\"".to_string()
        ));
        assert!(f.contains(&"feature option=\"EvalFile -file <embedded>\"".to_string()));
        assert!(!f.iter().any(|l| l.contains("option=\"Hash ")));
        assert_eq!(f.last().map(String::as_str), Some("feature done=1"));
    }

    #[test]
    fn scores_and_results() {
        assert_eq!(score(ReportScore::Cp(-35)), -35);
        assert_eq!(score(ReportScore::Mate(3)), 100_003);
        assert_eq!(score(ReportScore::Mate(-2)), -100_002);
        let o = Outcome::by_counting(
            100,
            111,
            true,
            EndReason::ScoreBikjang,
            EndReason::DrawBikjang,
            80,
        );
        assert_eq!(
            result_line(&o),
            "0-1 {Han wins on points 55.5 : 50 (bikjang); 한 판정승 55.5 : 50 (빅장); \
             count Cho 50 : Han 55.5}"
        );
    }
}
