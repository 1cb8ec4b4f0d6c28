//! UCI-family text (UCI, USI, UCCI): the handshake with its option
//! lines, and the `info` / `bestmove` lines.

use super::notation::{line_text, move_text};
use super::options::{OptionSpec, OptionType, OPTIONS};
use super::{ProtocolDialect, ENGINE_AUTHOR, ENGINE_NAME};
use crate::search::{CurrMove, Info, ReportScore};
use janggi_core::{Game, Move};
use janggi_uci::{Answer, BestMove, Info as WireInfo, OptionDecl, OptionKind, Score};

/// The handshake line `option name … type …` of one option of
/// [`OPTIONS`], with its name in `dialect`.
pub fn option_line(o: &OptionSpec, dialect: ProtocolDialect) -> String {
    let kind = match o.kind {
        OptionType::Spin {
            default, min, max, ..
        } => OptionKind::Spin { default, min, max },
        OptionType::Check { default, .. } => OptionKind::Check { default },
        OptionType::Combo { default, vars, .. } => OptionKind::Combo {
            default: default.to_string(),
            vars: vars.iter().map(|v| v.to_string()).collect(),
        },
        OptionType::Button { .. } => OptionKind::Button,
        OptionType::String { default, .. } => OptionKind::String {
            default: default.to_string(),
        },
    };
    OptionDecl {
        name: o.name(dialect).to_string(),
        kind,
    }
    .to_string()
}

/// The handshake answer to `uci` / `usi` / `ucci`, one string per line.
pub fn handshake(dialect: ProtocolDialect) -> Vec<String> {
    let mut lines = vec![
        format!("id name {ENGINE_NAME}"),
        format!("id author {ENGINE_AUTHOR}"),
    ];
    lines.extend(OPTIONS.iter().map(|o| option_line(o, dialect)));
    lines.push(
        match dialect {
            ProtocolDialect::Uci => "uciok",
            ProtocolDialect::Usi => "usiok",
            ProtocolDialect::Ucci => "ucciok",
            // CECP has no such handshake (see `cecp::features`).
            ProtocolDialect::Cecp => "feature done=1",
        }
        .to_string(),
    );
    lines
}

/// The wire's score of a search score.
fn wire_score(score: ReportScore) -> Score {
    match score {
        ReportScore::Cp(cp) => Score::Cp(cp),
        ReportScore::Mate(n) => Score::Mate(n),
    }
}

/// `info depth 0 score …`: the score of a position without a legal move.
pub fn no_move_line(score: ReportScore) -> String {
    WireInfo {
        depth: Some(0),
        score: Some(wire_score(score)),
        ..WireInfo::default()
    }
    .to_string()
}

/// `info depth … pv …`; with `show_wdl`, `wdl W D L` follows the score
/// (the model of [`super::wdl`]).
pub fn info_line(game: &Game, info: &Info, dialect: ProtocolDialect, show_wdl: bool) -> String {
    WireInfo {
        depth: Some(info.depth),
        seldepth: Some(info.seldepth),
        multipv: Some(u32::try_from(info.multipv).unwrap_or(u32::MAX)),
        score: Some(wire_score(info.score)),
        wdl: show_wdl.then(|| {
            let (w, d, l) = super::wdl::wdl(info.score);
            [w, d, l]
        }),
        nodes: Some(info.nodes),
        nps: Some(info.nps),
        hashfull: Some(info.hashfull),
        time_ms: Some(info.time_ms),
        pv: line_text(game, &info.pv, dialect),
        ..WireInfo::default()
    }
    .to_string()
}

/// `info depth D currmove M currmovenumber N`.
pub fn currmove_line(game: &Game, c: &CurrMove, dialect: ProtocolDialect) -> String {
    WireInfo {
        depth: Some(c.depth),
        currmove: Some(move_text(game.position(), c.mv, dialect)),
        currmovenumber: Some(u32::try_from(c.number).unwrap_or(u32::MAX)),
        ..WireInfo::default()
    }
    .to_string()
}

/// `bestmove M [ponder P]`, or the dialect's no-move answer.
pub fn bestmove_line(
    game: &Game,
    best: Option<Move>,
    ponder: Option<Move>,
    dialect: ProtocolDialect,
) -> String {
    let Some(best) = best else {
        return match dialect {
            ProtocolDialect::Uci => BestMove {
                mv: Answer::NoMove,
                ponder: None,
            }
            .to_string(),
            ProtocolDialect::Usi => BestMove {
                mv: Answer::Resign,
                ponder: None,
            }
            .to_string(),
            ProtocolDialect::Ucci => "nobestmove".to_string(),
            ProtocolDialect::Cecp => "resign".to_string(),
        };
    };
    let moves: Vec<Move> = std::iter::once(best).chain(ponder).collect();
    let mut text = line_text(game, &moves, dialect).into_iter();
    // `line_text` stops at a move that is not legal; the engine checked
    // both, so the first is always there (else print the raw text).
    let mv = text
        .next()
        .unwrap_or_else(|| move_text(game.position(), best, dialect));
    BestMove {
        mv: Answer::Move(mv),
        ponder: text.next(),
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handshake_lines() {
        let uci = handshake(ProtocolDialect::Uci);
        assert!(uci.contains(
            &"option name Move Overhead type spin default 10 min 0 max 5000".to_string()
        ));
        assert_eq!(uci.last().map(String::as_str), Some("uciok"));
        let usi = handshake(ProtocolDialect::Usi);
        assert!(usi
            .iter()
            .any(|l| l.starts_with("option name USI_Hash type spin")));
        assert!(usi.iter().all(|l| !l.contains("Move Overhead")));
        assert_eq!(usi.last().map(String::as_str), Some("usiok"));
    }
}
