//! UCI-family text (UCI, USI, UCCI): the handshake with its option
//! lines, and the `info` / `bestmove` lines.

use super::notation::{line_text, move_text};
use super::options::{OptionSpec, OptionType, OPTIONS};
use super::{ProtocolDialect, ENGINE_AUTHOR, ENGINE_NAME};
use crate::game::Game;
use crate::search::{CurrMove, Info, ReportScore};
use crate::types::Move;

/// The handshake line `option name … type …` of one option of
/// [`OPTIONS`], with its name in `dialect`.
pub fn option_line(o: &OptionSpec, dialect: ProtocolDialect) -> String {
    let name = o.name(dialect);
    match o.kind {
        OptionType::Spin {
            default, min, max, ..
        } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        OptionType::Check { default, .. } => {
            format!("option name {name} type check default {default}")
        }
        OptionType::Combo { default, vars, .. } => {
            let mut s = format!("option name {name} type combo default {default}");
            for v in vars {
                s.push_str(" var ");
                s.push_str(v);
            }
            s
        }
        OptionType::Button { .. } => format!("option name {name} type button"),
        OptionType::String { default, .. } => {
            format!("option name {name} type string default {default}")
        }
    }
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

/// `cp X` / `mate Y`.
pub fn score_text(score: ReportScore) -> String {
    match score {
        ReportScore::Cp(cp) => format!("cp {cp}"),
        ReportScore::Mate(n) => format!("mate {n}"),
    }
}

/// `info depth … pv …`; with `show_wdl`, `wdl W D L` follows the score
/// (the model of [`super::wdl`]).
pub fn info_line(game: &Game, info: &Info, dialect: ProtocolDialect, show_wdl: bool) -> String {
    let wdl = if show_wdl {
        let (w, d, l) = super::wdl::wdl(info.score);
        format!(" wdl {w} {d} {l}")
    } else {
        String::new()
    };
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}{wdl} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score_text(info.score),
        info.nodes,
        info.nps,
        info.time_ms,
        info.hashfull
    );
    let pv = line_text(game, &info.pv, dialect);
    if !pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&pv.join(" "));
    }
    s
}

/// `info depth D currmove M currmovenumber N`.
pub fn currmove_line(game: &Game, c: &CurrMove, dialect: ProtocolDialect) -> String {
    format!(
        "info depth {} currmove {} currmovenumber {}",
        c.depth,
        move_text(game.position(), c.mv, dialect),
        c.number
    )
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
            ProtocolDialect::Uci => "bestmove (none)",
            ProtocolDialect::Usi => "bestmove resign",
            ProtocolDialect::Ucci => "nobestmove",
            ProtocolDialect::Cecp => "resign",
        }
        .to_string();
    };
    let moves: Vec<Move> = std::iter::once(best).chain(ponder).collect();
    let text = line_text(game, &moves, dialect);
    match text.as_slice() {
        [b, p] => format!("bestmove {b} ponder {p}"),
        [b] => format!("bestmove {b}"),
        // Not legal here: the engine checked it, so this cannot happen;
        // still print the raw text rather than nothing.
        _ => format!("bestmove {}", move_text(game.position(), best, dialect)),
    }
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
