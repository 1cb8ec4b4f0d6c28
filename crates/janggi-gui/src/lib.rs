//! # janggi-gui — a local web board for Janggi (`janggi-engine gui`)
//!
//! A small HTTP server ([`tiny_http`]) on 127.0.0.1 serves one embedded
//! page (HTML, JS and CSS inside the binary; no CDN). The game layer of
//! `janggi-core` referees every move on the server side; the page only
//! shows what the server says (legal destinations, refusals with their
//! reasons, check, bikjang, repetition warnings, the score and the
//! result). The engine is a UCI child process over pipes (this binary by
//! default, or any `--engine CMD` such as Fairy-Stockfish), driven by the
//! match runner's `janggi_match::engine_process::EngineProcess`; its
//! `info` lines reach the page as server-sent events.
//!
//! Safety: only the server's own `Host`/`Origin` are answered (403
//! otherwise), the engine command is fixed on the command line, bodies
//! are size-limited and validated, and nothing panics on any input.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

//! Modules, one concept each: the HTTP edge (`http`, the only one that
//! sees `tiny_http`, with its typed requests in `request`, its errors in
//! `error`, the JSON the page reads in `view`, the event streams in
//! `events` and page presence in `presence`); the board's shared state
//! and its calls (`app`, record files in `records`); the game model,
//! which knows nothing of HTTP or JSON ([`session`]); and the engine
//! driver ([`engine`]).

mod app;
mod assets;
pub mod engine;
mod error;
mod events;
pub mod font;
mod http;
mod presence;
pub mod reasons;
mod records;
mod request;
pub mod session;
mod view;

pub use engine::EngineCommand;

use app::Shared;
use std::fmt;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::{self, JoinHandle};

/// How to run the board.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on (`127.0.0.1` unless `--host`).
    pub host: String,
    /// Port (0: any free port).
    pub port: u16,
    /// The engine.
    pub engine: EngineCommand,
    /// How long past its move time the engine may think before `stop`,
    /// and after `stop` before it is taken for hung and restarted.
    pub grace: std::time::Duration,
}

/// Timings of the server (the defaults suit people; tests shorten them).
#[derive(Clone, Debug)]
pub struct Tuning {
    /// How often an idle event stream is pinged: a closed tab is noticed
    /// at the first ping that cannot be written.
    pub ping: std::time::Duration,
    /// Search time per position of the board's game analysis.
    pub analysis_movetime_ms: u64,
    /// How long after the last page's event stream closed the engine and
    /// the clock go on before they pause: a reload (or a page that loses
    /// its connection for a moment) comes back within it and changes
    /// nothing.
    pub away_grace: std::time::Duration,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            ping: std::time::Duration::from_secs(2),
            analysis_movetime_ms: 300,
            away_grace: std::time::Duration::from_secs(5),
        }
    }
}

/// The server could not start.
#[derive(Debug)]
pub enum GuiError {
    /// Binding the address failed.
    Bind(String),
}

impl fmt::Display for GuiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GuiError::Bind(m) => write!(f, "cannot listen: {m}"),
        }
    }
}

impl std::error::Error for GuiError {}

/// A running board server.
pub struct Running {
    server: Arc<tiny_http::Server>,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
    port: u16,
    host: String,
}

impl fmt::Debug for Running {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Running").field("url", &self.url()).finish()
    }
}

impl Running {
    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The page's address.
    pub fn url(&self) -> String {
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        format!("http://{host}:{}/", self.port)
    }

    /// Blocks until the server stops.
    pub fn wait(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    /// Stops the server (and the engine with it).
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        self.server.unblock();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// The `Host` header values the server answers to.
fn allowed_hosts(host: &str, port: u16) -> Vec<String> {
    let mut v = vec![
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ];
    let own = if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    };
    if !v.contains(&own) {
        v.push(own);
    }
    v
}

/// Starts the server on its own thread.
///
/// # Errors
/// [`GuiError::Bind`].
pub fn start(config: &Config) -> Result<Running, GuiError> {
    start_with(config, Tuning::default())
}

/// [`start`] with other timings.
///
/// # Errors
/// [`GuiError::Bind`].
pub fn start_with(config: &Config, tuning: Tuning) -> Result<Running, GuiError> {
    let addr = if config.host.contains(':') {
        format!("[{}]:{}", config.host, config.port)
    } else {
        format!("{}:{}", config.host, config.port)
    };
    let server =
        tiny_http::Server::http(&addr).map_err(|e| GuiError::Bind(format!("{addr}: {e}")))?;
    let port = server
        .server_addr()
        .to_ip()
        .map(|a| a.port())
        .ok_or_else(|| GuiError::Bind("not an IP socket".into()))?;
    let server = Arc::new(server);
    let shared = Arc::new(Shared::new(
        config.engine.clone(),
        config.grace,
        allowed_hosts(&config.host, port),
        matches!(config.host.as_str(), "0.0.0.0" | "::").then_some(port),
        tuning,
    ));
    let (srv, sh) = (Arc::clone(&server), Arc::clone(&shared));
    let thread = thread::Builder::new()
        .name("gui-http".into())
        .spawn(move || {
            for req in srv.incoming_requests() {
                if sh.stop.load(Ordering::SeqCst) {
                    break;
                }
                let sh = Arc::clone(&sh);
                let _ = thread::Builder::new()
                    .name("gui-request".into())
                    .spawn(move || http::handle(&sh, req));
            }
        })
        .map_err(|e| GuiError::Bind(format!("cannot start the server thread: {e}")))?;
    let sh = Arc::clone(&shared);
    let _ = thread::Builder::new()
        .name("gui-clock".into())
        .spawn(move || {
            while !sh.stop.load(Ordering::SeqCst) {
                thread::sleep(std::time::Duration::from_millis(100));
                app::tick(&sh);
            }
        });
    Ok(Running {
        server,
        shared,
        thread: Some(thread),
        port,
        host: config.host.clone(),
    })
}

/// Tries to open `url` in the desktop's browser; returns the tool used.
pub fn open_browser(url: &str) -> Option<&'static str> {
    let tools: &[(&'static str, &[&str])] = if cfg!(windows) {
        &[("cmd", &["/C", "start", ""])]
    } else if cfg!(target_os = "macos") {
        &[("open", &[])]
    } else {
        &[("xdg-open", &[]), ("open", &[])]
    };
    tools.iter().find_map(|(tool, pre)| {
        std::process::Command::new(tool)
            .args(*pre)
            .arg(url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .ok()
            .map(|_| *tool)
    })
}

/// `janggi-engine gui`: starts the server, prints the URL (and a warning
/// when not on loopback), opens a browser with `open`, and serves until
/// the process ends. Returns the exit code.
pub fn run(config: &Config, open: bool) -> i32 {
    let loopback = matches!(config.host.as_str(), "127.0.0.1" | "localhost" | "::1");
    if !loopback {
        eprintln!(
            "warning: listening on {} — anyone who can reach this address can play on this board",
            config.host
        );
    }
    let running = match start(config) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let url = running.url();
    println!("janggi board: {url}");
    let mut command = config.engine.program.display().to_string();
    for arg in &config.engine.args {
        command.push(' ');
        command.push_str(arg);
    }
    println!(
        "engine: {command} (grace {} s past its move time)",
        config.grace.as_secs_f64()
    );
    if open && open_browser(&url).is_none() {
        eprintln!("note: no browser could be opened; open {url} yourself");
    }
    running.wait();
    0
}
