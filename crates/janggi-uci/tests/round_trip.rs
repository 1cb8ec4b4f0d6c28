//! Every line type: `T → text → T` gives the same value, and the text a
//! value writes is canonical (`text.parse()?.to_string() == text`).

mod common;

use common::{go, moves, mv};
use janggi_uci::{Answer, BestMove, Bound, Go, Info, OptionDecl, OptionKind, Score, SetOption};
use proptest::option::of;
use proptest::prelude::*;
use std::fmt::Display;
use std::str::FromStr;

/// Words that are no keyword of any line (keywords are lower case).
fn words() -> impl Strategy<Value = String> {
    "[A-Z][a-z0-9_]{0,6}( [A-Z][a-z0-9_]{0,6}){0,2}"
}

fn round_trip<T>(value: &T) -> Result<(), TestCaseError>
where
    T: Display + FromStr + PartialEq + std::fmt::Debug,
    T::Err: std::fmt::Debug,
{
    let text = value.to_string();
    let back = text.parse::<T>();
    prop_assert!(back.is_ok(), "{text}: {:?}", back.err());
    let back = back.ok();
    prop_assert_eq!(back.as_ref(), Some(value), "{}", text);
    prop_assert_eq!(back.map(|b| b.to_string()), Some(text));
    Ok(())
}

fn score() -> impl Strategy<Value = Score> {
    prop_oneof![
        any::<i32>().prop_map(Score::Cp),
        any::<i32>().prop_map(Score::Mate)
    ]
}

fn bound() -> impl Strategy<Value = Bound> {
    prop_oneof![Just(Bound::Lower), Just(Bound::Upper)]
}

fn info() -> impl Strategy<Value = Info> {
    (
        (
            of(any::<u32>()),
            of(any::<u32>()),
            of(any::<u32>()),
            of(score()),
            of(bound()),
        ),
        (
            of(any::<[u32; 3]>()),
            of(any::<u64>()),
            of(any::<u64>()),
            of(any::<u32>()),
        ),
        (
            of(any::<u64>()),
            of(any::<u64>()),
            of(mv()),
            of(any::<u32>()),
        ),
        (moves(), of(prop_oneof![Just(String::new()), words()])),
    )
        .prop_map(
            |(
                (depth, seldepth, multipv, score, bound),
                (wdl, nodes, nps, hashfull),
                (tbhits, time_ms, currmove, currmovenumber),
                (pv, string),
            )| Info {
                depth,
                seldepth,
                multipv,
                score,
                // A bound qualifies a score; alone it is not written.
                bound: score.and(bound),
                wdl,
                nodes,
                nps,
                hashfull,
                tbhits,
                time_ms,
                currmove,
                currmovenumber,
                pv,
                string,
            },
        )
}

fn bestmove() -> impl Strategy<Value = BestMove> {
    (
        prop_oneof![
            mv().prop_map(Answer::Move),
            Just(Answer::Move("0000".into())),
            Just(Answer::Resign),
            Just(Answer::NoMove)
        ],
        of(mv()),
    )
        .prop_map(|(mv, ponder)| BestMove { mv, ponder })
}

fn option_decl() -> impl Strategy<Value = OptionDecl> {
    let kind = prop_oneof![
        any::<bool>().prop_map(|default| OptionKind::Check { default }),
        (any::<i64>(), any::<i64>(), any::<i64>())
            .prop_map(|(default, min, max)| OptionKind::Spin { default, min, max }),
        (words(), prop::collection::vec(words(), 0..4))
            .prop_map(|(default, vars)| OptionKind::Combo { default, vars }),
        prop_oneof![Just(String::new()), words()]
            .prop_map(|default| OptionKind::String { default }),
        Just(OptionKind::Button),
    ];
    (words(), kind).prop_map(|(name, kind)| OptionDecl { name, kind })
}

fn set_option() -> impl Strategy<Value = SetOption> {
    (
        words(),
        of(prop_oneof![
            Just(String::new()),
            words(),
            "[a-z]{1,5}=[0-9]{1,3}"
        ]),
    )
        .prop_map(|(name, value)| SetOption { name, value })
}

proptest! {
    #[test]
    fn go_round_trips(g in go()) {
        round_trip(&g)?;
    }

    #[test]
    fn info_round_trips(i in info()) {
        round_trip(&i)?;
    }

    #[test]
    fn bestmove_round_trips(b in bestmove()) {
        round_trip(&b)?;
    }

    #[test]
    fn option_round_trips(o in option_decl()) {
        round_trip(&o)?;
    }

    #[test]
    fn setoption_round_trips(s in set_option()) {
        // `value` with an empty value writes a trailing space, which the
        // reader trims: the value survives, the text is not canonical.
        let text = s.to_string();
        prop_assert_eq!(text.parse::<SetOption>().ok(), Some(s.clone()));
        if s.value.as_deref() != Some("") {
            round_trip(&s)?;
        }
    }

    /// No text makes a parser panic.
    #[test]
    fn parsers_never_panic(tail in "[ -~]{0,60}") {
        for head in ["go ", "info ", "bestmove ", "option name ", "setoption name ", ""] {
            let line = format!("{head}{tail}");
            let _ = line.parse::<Go>();
            let _ = line.parse::<Info>();
            let _ = line.parse::<BestMove>();
            let _ = line.parse::<OptionDecl>();
            let _ = line.parse::<SetOption>();
        }
    }
}

/// Real lines, as this engine and Fairy-Stockfish write them.
#[test]
fn canonical_lines_read_and_write_back() {
    fn check<T>(line: &str)
    where
        T: Display + FromStr,
        T::Err: std::fmt::Debug,
    {
        let v = line
            .parse::<T>()
            .unwrap_or_else(|e| panic!("{line}: {e:?}"));
        assert_eq!(v.to_string(), line);
    }
    check::<Go>("go wtime 300000 btime 300000 byoyomi 30000 periods 3");
    check::<Go>("go wtime 10000 btime 9100 winc 100 binc 100 movestogo 40");
    check::<Go>("go movetime 1000");
    check::<Info>("info depth 12 seldepth 17 multipv 1 score cp 31 wdl 412 350 238 nodes 123456 nps 98765 hashfull 3 time 1250 pv h1h2 a7a6 b1c3");
    check::<Info>("info depth 9 seldepth 14 multipv 1 score mate 3 lowerbound nodes 9000 nps 1000 tbhits 0 time 9 pv b1c3");
    check::<Info>("info string variant janggi files 9 ranks 10 pocket 0 template xiangqi");
    check::<BestMove>("bestmove h1h2 ponder a7a6");
    check::<BestMove>("bestmove resign");
    check::<OptionDecl>("option name UCI_Variant type combo default janggi var janggi var janggicasual var janggimodern var janggitraditional");
    check::<OptionDecl>("option name Skill Level type spin default 20 min -20 max 20");
    check::<SetOption>("setoption name UCI_Variant value janggimodern");
}
