//! `janggi-match [match] ARGS…`: the tournament runner (`janggi-engine
//! match ARGS…` hands over to this program); `janggi-match spsa ARGS…`
//! tunes an engine's parameters (`janggi_match::spsa`). See `janggi_match` for the
//! syntax, or `janggi-match --help`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rest = match args.first().map(String::as_str) {
        Some("match") => &args[1..],
        _ => &args[..],
    };
    let stdout = std::io::stdout();
    let code = janggi_match::run_match(rest, &mut stdout.lock());
    std::process::exit(code);
}
