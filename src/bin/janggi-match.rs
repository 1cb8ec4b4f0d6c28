//! `janggi-match [match] ARGS…`: the tournament runner on its own (the same
//! as `janggi-engine match ARGS…`). See `janggi::tournament` for the syntax.
//!
//! `janggi-match fake-engine …` runs the test engine of
//! `tests/fake_engines/fake_engine.rs` (for the runner's own tests).

#[path = "../../tests/fake_engines/fake_engine.rs"]
mod fake_engine;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("fake-engine") {
        std::process::exit(fake_engine::main(&args[1..]));
    }
    let rest = match args.first().map(String::as_str) {
        Some("match") => &args[1..],
        _ => &args[..],
    };
    let stdout = std::io::stdout();
    let code = janggi::tournament::run_match(rest, &mut stdout.lock());
    std::process::exit(code);
}
