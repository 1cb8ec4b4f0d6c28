//! The evaluation graph as SVG ([`svg_graph`]) and its title
//! ([`graph_title`]); [`crate::png::png_graph`] renders it to PNG.

use crate::{GameAnalysis, Mark, Score, WinProbability};
use janggi_records::GameResult;
use janggi_records::Record;
use std::fmt::Write as _;

/// The title of `rec`'s graph: `label` (the file and game number), then
/// the players when the record names them:
/// `대국.gib game 1: 홍길동 (Cho) – 김철수 (Han)`.
pub fn graph_title(label: &str, rec: &Record) -> String {
    fn named(p: Option<&str>) -> Option<&str> {
        p.map(str::trim).filter(|p| !p.is_empty() && *p != "?")
    }
    match (named(rec.cho_player()), named(rec.han_player())) {
        (None, None) => label.to_string(),
        (cho, han) => format!(
            "{label}: {} (Cho) – {} (Han)",
            cho.unwrap_or("?"),
            han.unwrap_or("?")
        ),
    }
}

/// The evaluation graph as SVG: Cho's win probability after each ply (the
/// top is Cho winning), the 50 % line, a dot on every marked move
/// (yellow inaccuracy, orange mistake, red blunder; the move in its
/// tooltip), ply numbers (수) below, the result and the rules at the
/// bottom. [`crate::png::png_graph`] renders it to PNG.
pub fn svg_graph(a: &GameAnalysis, title: &str) -> String {
    let (w, h, pad) = (800.0_f64, 300.0_f64, 30.0_f64);
    let n = a.moves.len().max(1) as f64;
    let x = |i: usize| pad + (w - 2.0 * pad) * i as f64 / n;
    let y = |s: Score| pad + (h - 2.0 * pad) * (1.0 - s.win_probability());
    let mut pts = vec![(x(0), y(a.start))];
    pts.extend(a.moves.iter().map(|m| (x(m.ply), y(m.after))));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">"
    );
    let _ = writeln!(out, "<title>{}</title>", xml(title));
    let _ = writeln!(out, "<rect width=\"{w}\" height=\"{h}\" fill=\"#f4ecd8\"/>");
    let _ = writeln!(
        out,
        "<line x1=\"{pad}\" y1=\"{m:.1}\" x2=\"{x2}\" y2=\"{m:.1}\" stroke=\"#888\" stroke-dasharray=\"4 4\"/>",
        m = h / 2.0,
        x2 = w - pad
    );
    let mut area = format!("M{:.1},{:.1}", pad, h / 2.0);
    for (px, py) in &pts {
        let _ = write!(area, " L{px:.1},{py:.1}");
    }
    let _ = write!(
        area,
        " L{:.1},{:.1} Z",
        pts.last().map_or(pad, |p| p.0),
        h / 2.0
    );
    let _ = writeln!(
        out,
        "<path d=\"{area}\" fill=\"#2a6fdb\" fill-opacity=\"0.25\"/>"
    );
    let line: Vec<String> = pts
        .iter()
        .map(|(px, py)| format!("{px:.1},{py:.1}"))
        .collect();
    let _ = writeln!(
        out,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#2a6fdb\" stroke-width=\"2\"/>",
        line.join(" ")
    );
    for m in &a.moves {
        if let Some(mark) = m.mark {
            let color = match mark {
                Mark::Inaccuracy => "#e6c229",
                Mark::Mistake => "#f08a24",
                Mark::Blunder => "#d7263d",
            };
            let _ = writeln!(
                out,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"{color}\" stroke=\"#fff\" stroke-width=\"1\"><title>{} {} {}</title></circle>",
                x(m.ply),
                y(m.after),
                m.ply,
                xml(&m.korean),
                mark.name()
            );
        }
    }
    let _ = writeln!(
        out,
        "<text x=\"{pad}\" y=\"20\" font-family=\"sans-serif\" font-size=\"14\">{}</text>",
        xml(title)
    );
    // Who is winning at the top and bottom.
    let label = |x: f64, y: f64, anchor: &str, text: &str| {
        format!(
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-family=\"sans-serif\" font-size=\"11\" fill=\"#555\" text-anchor=\"{anchor}\">{text}</text>\n"
        )
    };
    out.push_str(&label(pad + 4.0, pad + 12.0, "start", "Cho"));
    out.push_str(&label(pad + 4.0, h - pad - 5.0, "start", "Han"));
    // Plies (수, as Korean records number them) below.
    let plies = a.moves.len();
    let step = [5, 10, 20, 50, 100, 200, 500]
        .into_iter()
        .find(|s| plies / s <= 10)
        .unwrap_or(1000);
    for m in (step..=plies).step_by(step) {
        let px = x(m);
        let _ = writeln!(
            out,
            "<line x1=\"{px:.1}\" y1=\"{y1:.1}\" x2=\"{px:.1}\" y2=\"{y2:.1}\" stroke=\"#888\"/>",
            y1 = h - pad,
            y2 = h - pad + 4.0
        );
        out.push_str(&label(px, h - pad + 15.0, "middle", &m.to_string()));
    }
    out.push_str(&label(w - 4.0, h - pad + 15.0, "end", "수"));
    // The result and the rules, bottom left.
    out.push_str(&label(pad, h - 3.0, "start", &xml(&result_text(a))));
    out.push_str("</svg>\n");
    out
}

/// `Cho won (1-0) – KJF rules`, and how the game ended when not by the
/// moves: `Han won (0-1), by resignation or time – janggimodern rules`.
pub fn result_text(a: &GameAnalysis) -> String {
    let result = match a.result {
        GameResult::ChoWins => "Cho won (1-0)",
        GameResult::HanWins => "Han won (0-1)",
        GameResult::Draw => "draw (1/2-1/2)",
        GameResult::Unknown => "result unknown (*)",
    };
    let how = match a.result {
        GameResult::Unknown => "",
        _ if a.ended_by_moves => "",
        GameResult::Draw => ", by agreement",
        _ => ", by resignation or time",
    };
    format!(
        "{result}{how} – {} rules",
        janggi_records::record::rules_name(&a.rules)
    )
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
