//! EPD out: every position of a game, one line each — the first four FEN
//! fields, then `hmvc` and `fmvn` (the FEN's counters), `id` naming the
//! game and ply, and `sm` (the move played from it, in SAN) where one was.
//!
//! `rnba1abnr/4k4/… w - - hmvc 0; fmvn 1; id "g1.p0"; sm "Hc3";`

use crate::record::Record;
use janggi_core::Game;
use std::fmt::Write as _;

/// The EPD lines of `rec`'s positions; `game` numbers the `id`s.
pub fn write_epd(rec: &Record, game: usize) -> String {
    let mut out = String::new();
    let mut g = Game::new(rec.start.clone(), rec.rules);
    for ply in 0..=rec.plies.len() {
        let pos = g.position();
        let fen = pos.fen();
        let f: Vec<&str> = fen.split_whitespace().collect();
        let head = f.iter().take(4).copied().collect::<Vec<_>>().join(" ");
        let _ = write!(
            out,
            "{head} hmvc {}; fmvn {}; id \"g{game}.p{ply}\";",
            f.get(4).copied().unwrap_or("0"),
            f.get(5).copied().unwrap_or("1")
        );
        if let Some(p) = rec.plies.get(ply) {
            let _ = write!(out, " sm \"{}\";", crate::san::write_san(pos, p.mv));
            out.push('\n');
            g.play_unchecked(p.mv);
        } else {
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use janggi_core::{Notation, Position, Rules};

    #[test]
    fn one_line_per_position() {
        let mut g = Game::new(Position::startpos(), Rules::default());
        let m = g.position().parse_move("b1c3", Notation::Uci).unwrap();
        g.play(m).unwrap();
        let rec = Record::from_game(&g);
        let epd = write_epd(&rec, 3);
        let lines: Vec<&str> = epd.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            lines[0],
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - hmvc 0; fmvn 1; id \"g3.p0\"; sm \"Hc3\";"
        );
        assert!(lines[1].contains(" b - - ") && lines[1].ends_with("id \"g3.p1\";"));
    }
}
