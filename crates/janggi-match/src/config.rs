//! The match command line, in the spirit of cutechess-cli.
//!
//! ```text
//! match --engine cmd=./target/release/janggi-engine name=new option.Hash=64
//!       --engine cmd=/path/to/other name=base proto=usi
//!       --each tc=10+0.1 | st=0.1 | depth=8 | nodes=20000 | tc=600 byoyomi=30000x3
//!       --games 200 --concurrency 2 --openings setups|startpos|file=book.epd [order=random] [plies=N]
//!       --seed 7 --variant janggikjf [--rule Bikjang=kja30 ...] --pgnout games.pgn
//!       [--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05]
//! ```
//!
//! Options may be written with one dash or two (`-games` = `--games`).
//!
//! **Default adjudication.** A rule set without a move limit and without
//! an n-move rule (`janggikjf`, the default, and any `--rule MoveLimit=0
//! NoCaptureLimit=0`) never ends a dead endgame, so for it the runner ends
//! a game after [`DEFAULT_NO_CAPTURE_PLIES`] plies without a capture or at
//! [`DEFAULT_MAX_PLIES`] plies in all, by the rule set's counting (a draw
//! when it does not score), with `noCapture` or `maxMoves` in the PGN
//! `Termination`. `--nocapture N` and `--maxmoves N` change either limit,
//! `0` turns it off. Rule sets with their own limit get neither by
//! default.
//! Each option takes the words after it up to the next option.
//!
//! | option | meaning |
//! |---|---|
//! | `--engine KEY=VALUE…` | one engine (two or more are needed) |
//! | `--each KEY=VALUE…` | keys for every engine (an engine's own keys win) |
//! | `--games N` | games per pairing per round (default 2: one pair) |
//! | `--rounds N` | rounds (default 1) |
//! | `--tournament round-robin\|gauntlet` | pairings (gauntlet: the first engine against each other one) |
//! | `--concurrency N` | games at a time (default 1) |
//! | `--openings …` | see [`super::openings`] |
//! | `--seed N` | seed for opening order and random plies (default: from the clock, printed) |
//! | `--variant NAME` | rule preset (`janggikjf` default, `janggi`, `janggitraditional`, `janggimodern`, `janggicasual`) |
//! | `--rule NAME=VALUE…` | rule overrides (`Bikjang=kja30`, `Repetition=lose`, `Scoring=false`, `AllowPass=false`, `MoveLimit=200`, `NoCaptureLimit=…`), also sent to the engines as options |
//! | `--pgnout FILE` | append every game to FILE |
//! | `--resume` | go on with the match FILE holds: play only the games not finished there, count its games in every score (see [`super::resume`]; give the first run's `--seed`) |
//! | `--sprt elo0= elo1= alpha= beta=` | SPRT with early stop (two engines) |
//! | `--resign movecount=N score=CP [twosided=false]` | resign adjudication |
//! | `--draw movenumber=M movecount=N score=CP` | draw adjudication |
//! | `--maxmoves N` | decide a game of N plies by counting (0: never) |
//! | `--nocapture N` | decide a game after N plies in a row without a capture by counting (0: never) |
//! | `--ratinginterval N` | print the Elo line every N games (default 1; 0: only at the end) |
//! | `--event NAME` | PGN `Event` |
//! | `--debug` | log all engine I/O to stderr |
//!
//! Engine keys: `cmd=PROGRAM` (a path, or a command line split at
//! spaces), `arg=ARG` (repeatable), `name=NAME`, `dir=DIR`,
//! `proto=uci|usi`, `option.NAME=VALUE`, `restart=on|off` (a fresh process
//! every game; crashed or hung engines are always restarted),
//! `inittimeout=MS`, and the limits of [`super::clock`] (`tc`, `st`,
//! `depth`, `nodes`, `byoyomi`, `timemargin`, `timeout`, `stopwait`).

use super::clock::ThinkingLimits;
use super::engine_process::{EngineProtocol, Launch};
use super::openings::OpeningConfig;
use super::referee::{Adjudication, DrawRule, ResignRule};
pub use super::referee::{DEFAULT_MAX_PLIES, DEFAULT_NO_CAPTURE_PLIES};
use super::stats::SprtParams;
use janggi_core::Rules;
use std::fmt;
use std::path::PathBuf;

/// Default handshake / `isready` timeout.
pub const DEFAULT_INIT_TIMEOUT_MS: u64 = 10_000;

/// A command-line error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgError(pub String);

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ArgError {}

/// One engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Display name (unique).
    pub name: String,
    /// How to start it.
    pub launch: Launch,
    /// `option.NAME=VALUE` pairs in order.
    pub options: Vec<(String, String)>,
    /// Time control and waits.
    pub limits: ThinkingLimits,
    /// Restart for every game.
    pub restart: bool,
    /// Handshake timeout (ms).
    pub init_timeout_ms: u64,
}

/// Pairing scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Tournament {
    /// Everyone against everyone.
    #[default]
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Engines.
    pub engines: Vec<EngineConfig>,
    /// Games per pairing per round.
    pub games: usize,
    /// Rounds.
    pub rounds: usize,
    /// Pairing scheme.
    pub tournament: Tournament,
    /// Games at a time.
    pub concurrency: usize,
    /// Openings.
    pub openings: OpeningConfig,
    /// Seed (`None`: from the clock).
    pub seed: Option<u64>,
    /// Rule preset name.
    pub variant: String,
    /// Rule overrides in order (sent to the engines too).
    pub rule_overrides: Vec<(String, String)>,
    /// The resulting rule set.
    pub rules: Rules,
    /// PGN output file.
    pub pgnout: Option<PathBuf>,
    /// Go on from the games `pgnout` holds.
    pub resume: bool,
    /// SPRT.
    pub sprt: Option<SprtParams>,
    /// Adjudications.
    pub adjudication: Adjudication,
    /// Elo line interval in games.
    pub rating_interval: usize,
    /// PGN event name.
    pub event: String,
    /// Log engine I/O.
    pub debug: bool,
}

/// The usage text.
pub const USAGE: &str = "\
usage: match --engine cmd=PROGRAM [name=N] [arg=A]... [dir=D] [proto=uci|usi] [option.X=V]...
             --engine ... [--engine ...]
             [--each KEY=VALUE...]   (tc=40/60+0.6 | tc=10+0.1 | st=0.1 | depth=8 | nodes=20000
                                      | tc=600 byoyomi=30000x3; timemargin=MS timeout=MS stopwait=MS)
             [--games N] [--rounds N] [--tournament round-robin|gauntlet] [--concurrency N]
             [--openings setups|startpos|file=book.epd [order=sequential|random] [plies=N] [start=K]]
             [--seed N] [--variant janggikjf|janggi|janggitraditional|janggimodern|janggicasual]
             [--rule NAME=VALUE...] [--pgnout FILE [--resume]] [--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05]
             [--resign movecount=N score=CP [twosided=true|false]]
             [--draw movenumber=M movecount=N score=CP] [--maxmoves PLIES] [--nocapture PLIES]
             [--ratinginterval N] [--event NAME] [--debug]
";

fn kv(word: &str) -> Result<(&str, &str), ArgError> {
    word.split_once('=')
        .ok_or_else(|| ArgError(format!("expected KEY=VALUE, got '{word}'")))
}

fn one<'a>(opt: &str, words: &'a [String]) -> Result<&'a str, ArgError> {
    match words {
        [w] => Ok(w),
        _ => Err(ArgError(format!("--{opt} takes exactly one value"))),
    }
}

fn number<T: std::str::FromStr>(opt: &str, text: &str) -> Result<T, ArgError> {
    text.parse()
        .map_err(|_| ArgError(format!("bad value '{text}' for {opt}")))
}

fn on_off(key: &str, v: &str) -> Result<bool, ArgError> {
    match v {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        _ => Err(ArgError(format!("bad value '{v}' for {key}"))),
    }
}

/// Builds one engine from `each` pairs then its own pairs.
fn engine(index: usize, each: &[String], own: &[String]) -> Result<EngineConfig, ArgError> {
    let mut cmd = None;
    let mut name = None;
    let mut extra_args = Vec::new();
    let mut dir = None;
    let mut protocol = EngineProtocol::Uci;
    let mut options: Vec<(String, String)> = Vec::new();
    let mut limits = ThinkingLimits::default();
    let mut restart = false;
    let mut init_timeout_ms = DEFAULT_INIT_TIMEOUT_MS;
    for word in each.iter().chain(own) {
        let (k, v) = kv(word)?;
        if let Some(opt) = k.strip_prefix("option.") {
            options.retain(|(n, _)| n != opt);
            options.push((opt.to_string(), v.to_string()));
            continue;
        }
        match k {
            "cmd" => cmd = Some(v.to_string()),
            "name" => name = Some(v.to_string()),
            "arg" => extra_args.push(v.to_string()),
            "dir" => dir = Some(PathBuf::from(v)),
            "proto" => {
                protocol = v
                    .parse::<EngineProtocol>()
                    .map_err(|_| ArgError(format!("bad protocol '{v}' (uci or usi)")))?
            }
            "restart" => restart = on_off(k, v)?,
            "inittimeout" => init_timeout_ms = number(k, v)?,
            _ => {
                if !limits.set(k, v).map_err(|e| ArgError(e.to_string()))? {
                    return Err(ArgError(format!("unknown engine key '{k}'")));
                }
            }
        }
    }
    let cmd = cmd.ok_or_else(|| ArgError(format!("engine {} has no cmd=", index + 1)))?;
    let (program, mut args) = if std::path::Path::new(&cmd).exists() {
        (cmd.clone(), Vec::new())
    } else {
        let mut parts = cmd.split_whitespace().map(String::from);
        let p = parts
            .next()
            .ok_or_else(|| ArgError(format!("engine {} has an empty cmd=", index + 1)))?;
        (p, parts.collect())
    };
    args.extend(extra_args);
    if !limits.is_limited() {
        return Err(ArgError(format!(
            "engine {} has no time control (tc=, st=, depth= or nodes=)",
            index + 1
        )));
    }
    let name = name.unwrap_or_else(|| {
        std::path::Path::new(&program)
            .file_stem()
            .map_or_else(|| program.clone(), |s| s.to_string_lossy().into_owned())
    });
    Ok(EngineConfig {
        name,
        launch: Launch {
            cmd: program,
            args,
            dir,
            protocol,
        },
        options,
        limits,
        restart,
        init_timeout_ms,
    })
}

fn sprt(words: &[String]) -> Result<SprtParams, ArgError> {
    let mut p = SprtParams {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    for w in words {
        let (k, v) = kv(w)?;
        let x: f64 = number(k, v)?;
        match k {
            "elo0" => p.elo0 = x,
            "elo1" => p.elo1 = x,
            "alpha" => p.alpha = x,
            "beta" => p.beta = x,
            _ => return Err(ArgError(format!("unknown --sprt key '{k}'"))),
        }
    }
    let prob = |x: f64| x > 0.0 && x < 0.5;
    if !(p.elo1 > p.elo0 && prob(p.alpha) && prob(p.beta)) {
        return Err(ArgError(
            "--sprt needs elo1 > elo0 and 0 < alpha, beta < 0.5".to_string(),
        ));
    }
    Ok(p)
}

impl MatchConfig {
    /// Parses the words after `match`.
    ///
    /// # Errors
    /// [`ArgError`] with a message for the user.
    pub fn parse(args: &[String]) -> Result<MatchConfig, ArgError> {
        // Group the words: an option and the words up to the next option.
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        for a in args {
            let is_opt = a.starts_with('-')
                && a.len() > 1
                && !a[1..].starts_with(|c: char| c.is_ascii_digit());
            if is_opt {
                groups.push((a.trim_start_matches('-').to_string(), Vec::new()));
            } else if let Some((_, words)) = groups.last_mut() {
                words.push(a.clone());
            } else {
                return Err(ArgError(format!(
                    "unexpected '{a}' (options start with --)"
                )));
            }
        }
        let mut each = Vec::new();
        let mut own = Vec::new();
        // Given on the command line (0: off); else the default for the rules.
        let mut max_plies: Option<u32> = None;
        let mut no_capture: Option<u32> = None;
        let mut cfg = MatchConfig {
            engines: Vec::new(),
            games: 2,
            rounds: 1,
            tournament: Tournament::RoundRobin,
            concurrency: 1,
            openings: OpeningConfig::default(),
            seed: None,
            variant: "janggikjf".to_string(),
            rule_overrides: Vec::new(),
            rules: Rules::default(),
            pgnout: None,
            resume: false,
            sprt: None,
            adjudication: Adjudication::default(),
            rating_interval: 1,
            event: "janggi-match".to_string(),
            debug: false,
        };
        for (opt, words) in &groups {
            match opt.as_str() {
                "engine" => own.push(words.clone()),
                "each" => each.extend(words.iter().cloned()),
                "games" => cfg.games = number(opt, one(opt, words)?)?,
                "rounds" => cfg.rounds = number(opt, one(opt, words)?)?,
                "concurrency" => cfg.concurrency = number(opt, one(opt, words)?)?,
                "tournament" => {
                    cfg.tournament = match one(opt, words)? {
                        "round-robin" | "roundrobin" => Tournament::RoundRobin,
                        "gauntlet" => Tournament::Gauntlet,
                        t => return Err(ArgError(format!("unknown tournament type '{t}'"))),
                    }
                }
                "openings" => {
                    cfg.openings =
                        OpeningConfig::parse(words).map_err(|e| ArgError(e.to_string()))?
                }
                "seed" => cfg.seed = Some(number(opt, one(opt, words)?)?),
                "variant" => cfg.variant = one(opt, words)?.to_string(),
                "rule" => {
                    for w in words {
                        let (k, v) = kv(w)?;
                        cfg.rule_overrides.push((k.to_string(), v.to_string()));
                    }
                }
                "pgnout" => cfg.pgnout = Some(PathBuf::from(one(opt, words)?)),
                "sprt" => cfg.sprt = Some(sprt(words)?),
                "resign" => {
                    let mut r = ResignRule {
                        movecount: 3,
                        score: 1000,
                        twosided: true,
                    };
                    for w in words {
                        let (k, v) = kv(w)?;
                        match k {
                            "movecount" => r.movecount = number(k, v)?,
                            "score" => r.score = number(k, v)?,
                            "twosided" => r.twosided = on_off(k, v)?,
                            _ => return Err(ArgError(format!("unknown --resign key '{k}'"))),
                        }
                    }
                    cfg.adjudication.resign = Some(r);
                }
                "draw" => {
                    let mut d = DrawRule {
                        movenumber: 40,
                        movecount: 8,
                        score: 10,
                    };
                    for w in words {
                        let (k, v) = kv(w)?;
                        match k {
                            "movenumber" => d.movenumber = number(k, v)?,
                            "movecount" => d.movecount = number(k, v)?,
                            "score" => d.score = number(k, v)?,
                            _ => return Err(ArgError(format!("unknown --draw key '{k}'"))),
                        }
                    }
                    cfg.adjudication.draw = Some(d);
                }
                "maxmoves" => max_plies = Some(number(opt, one(opt, words)?)?),
                "nocapture" => no_capture = Some(number(opt, one(opt, words)?)?),
                "ratinginterval" => cfg.rating_interval = number(opt, one(opt, words)?)?,
                "event" => cfg.event = words.join(" "),
                "debug" => cfg.debug = true,
                "resume" => {
                    if let Some(w) = words.first() {
                        return Err(ArgError(format!("--resume takes no value, got '{w}'")));
                    }
                    cfg.resume = true;
                }
                other => return Err(ArgError(format!("unknown option --{other}"))),
            }
        }
        for (i, words) in own.iter().enumerate() {
            cfg.engines.push(engine(i, &each, words)?);
        }
        if cfg.engines.len() < 2 {
            return Err(ArgError(
                "at least two --engine options are needed".to_string(),
            ));
        }
        // Unique names: suffix duplicates.
        for i in 1..cfg.engines.len() {
            let base = cfg.engines[i].name.clone();
            let mut n = 2;
            while cfg.engines[..i]
                .iter()
                .any(|e| e.name == cfg.engines[i].name)
            {
                cfg.engines[i].name = format!("{base}-{n}");
                n += 1;
            }
        }
        if cfg.resume && cfg.pgnout.is_none() {
            return Err(ArgError(
                "--resume needs --pgnout FILE (the match's games so far)".to_string(),
            ));
        }
        if cfg.games == 0 || cfg.rounds == 0 || cfg.concurrency == 0 {
            return Err(ArgError(
                "--games, --rounds and --concurrency must be at least 1".to_string(),
            ));
        }
        cfg.rules = Rules::from_variant(&cfg.variant).map_err(|e| ArgError(e.to_string()))?;
        for (k, v) in &cfg.rule_overrides {
            cfg.rules
                .set_option(k, v)
                .map_err(|e| ArgError(format!("--rule {k}={v}: {e}")))?;
        }
        let (default_no_capture, default_max) = Adjudication::endless_default(&cfg.rules);
        let pick = |given: Option<u32>, default: Option<u32>| match given {
            Some(0) => None,
            Some(n) => Some(n),
            None => default,
        };
        cfg.adjudication.no_capture = pick(no_capture, default_no_capture);
        cfg.adjudication.max_plies = pick(max_plies, default_max);
        Ok(cfg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<MatchConfig, ArgError> {
        let args: Vec<String> = s.split_whitespace().map(String::from).collect();
        MatchConfig::parse(&args)
    }

    #[test]
    fn full_command_line() {
        let c = parse(
            "--engine cmd=./eng name=new option.Hash=64 --engine cmd=other arg=-x name=base proto=usi \
             -each tc=40/60+0.6 timemargin=50 --games 20 --concurrency 2 --openings setups plies=4 \
             --seed 7 --variant janggi --rule Bikjang=kja30 Scoring=false --pgnout g.pgn \
             --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 --resign movecount=4 score=800 --maxmoves 300",
        )
        .unwrap();
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[0].name, "new");
        assert_eq!(
            c.engines[0].options,
            [("Hash".to_string(), "64".to_string())]
        );
        assert_eq!(c.engines[1].launch.protocol, EngineProtocol::Usi);
        assert_eq!(c.engines[1].launch.args, ["-x"]);
        assert_eq!(c.engines[1].limits.margin(), 50);
        assert_eq!(c.engines[1].limits.tc.unwrap().moves, Some(40));
        assert_eq!((c.games, c.concurrency, c.seed), (20, 2, Some(7)));
        assert_eq!(c.openings.plies, 4);
        assert!(!c.rules.scoring);
        assert_eq!(c.rules.bikjang.name(), "kja30");
        assert_eq!(c.sprt.unwrap().elo1, 5.0);
        assert_eq!(c.adjudication.resign.unwrap().score, 800);
        assert_eq!(c.adjudication.max_plies, Some(300));
    }

    #[test]
    fn default_adjudication_only_for_endless_rules() {
        let base = "--engine cmd=a --engine cmd=b --each nodes=1";
        let adj = |extra: &str| parse(&format!("{base} {extra}")).unwrap().adjudication;
        let a = adj("");
        assert_eq!(
            (a.no_capture, a.max_plies),
            (Some(DEFAULT_NO_CAPTURE_PLIES), Some(DEFAULT_MAX_PLIES))
        );
        // The rule set's own limits: nothing by default.
        let a = adj("--variant janggi");
        assert_eq!((a.no_capture, a.max_plies), (None, None));
        let a = adj("--rule MoveLimit=200");
        assert_eq!((a.no_capture, a.max_plies), (None, None));
        // Given: changed, or off with 0.
        let a = adj("--nocapture 60 --maxmoves 0");
        assert_eq!((a.no_capture, a.max_plies), (Some(60), None));
        let a = adj("--variant janggi --maxmoves 300");
        assert_eq!((a.no_capture, a.max_plies), (None, Some(300)));
        assert!(parse(&format!("{base} --nocapture x")).is_err());
    }

    #[test]
    fn errors() {
        assert!(parse("--engine cmd=a nodes=1").is_err(), "one engine");
        assert!(parse("--engine cmd=a --engine cmd=b").is_err(), "no limits");
        assert!(parse("--engine cmd=a --engine cmd=b --each nodes=1 --rule Bikjang=x").is_err());
        assert!(parse("--engine cmd=a --engine cmd=b --each nodes=1 --variant chess").is_err());
        assert!(parse("--engine cmd=a --engine cmd=b --each nodes=1 --bogus").is_err());
        assert!(
            parse("--engine cmd=a --engine cmd=b --each nodes=1 --sprt elo0=5 elo1=0").is_err()
        );
        assert!(parse("stray --engine cmd=a").is_err());
        let c = parse("--engine cmd=a --engine cmd=a --each depth=3").unwrap();
        assert_eq!(c.engines[1].name, "a-2");
        // An engine's own key beats --each.
        let c = parse("--engine cmd=a st=0.5 --engine cmd=b --each st=0.1").unwrap();
        assert_eq!(c.engines[0].limits.movetime_ms, Some(500));
        assert_eq!(c.engines[1].limits.movetime_ms, Some(100));
    }
}
