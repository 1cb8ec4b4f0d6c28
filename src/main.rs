//! `janggi-engine` binary: parses the command line and hands over to `cli`.

fn main() {
    std::process::exit(janggi::cli::run(std::env::args_os()));
}
