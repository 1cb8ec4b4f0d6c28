//! # janggi-gui — a local web board for Janggi (`janggi-engine gui`)
//!
//! A small HTTP/1.1 server of its own on 127.0.0.1 serves one embedded
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
//! otherwise), only a page the board served counts as open (its secret
//! token), the engine command is fixed on the command line, heads and
//! bodies are size- and time-limited ([`Limits`]) and validated, and
//! nothing panics on any input.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

//! Modules, one concept each: the HTTP edge (`server` accepts
//! connections under a bound, `wire` reads and writes HTTP/1.1 under the
//! limits, `http` routes, with its typed requests in `request`, its
//! errors in `error`, the JSON the page reads in `view`, the event
//! streams in `events` and page presence in `presence`); the board's shared state
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
mod server;
pub mod session;
mod view;
mod wire;

pub use engine::EngineCommand;

use app::Shared;
use std::fmt;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

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
    /// What one connection may take of the server.
    pub limits: Limits,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            ping: std::time::Duration::from_secs(2),
            analysis_movetime_ms: 300,
            away_grace: std::time::Duration::from_secs(5),
            limits: Limits::default(),
        }
    }
}

/// What one connection may take of the server, so that slow, huge or
/// many requests cannot hold the board (docs/gui.md, "Limits").
#[derive(Clone, Debug)]
pub struct Limits {
    /// The whole request head (request line and headers) must arrive
    /// within this, else 408 and the connection is closed.
    pub head_timeout: Duration,
    /// The whole body must arrive within this once the head is read, else
    /// 408 and the connection is closed.
    pub body_timeout: Duration,
    /// A response (or an event) the client does not read within this
    /// ends the connection.
    pub write_timeout: Duration,
    /// Largest request head in bytes: 414 when the request line alone is
    /// longer, else 431.
    pub max_head_bytes: usize,
    /// Most header lines in one request (431 past it).
    pub max_headers: usize,
    /// Most connections served at once (event streams included); one more
    /// is answered 503 at once and closed.
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            head_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            write_timeout: Duration::from_secs(10),
            max_head_bytes: 32 * 1024,
            max_headers: 100,
            max_connections: 64,
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
    addr: SocketAddr,
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
        let Some(t) = self.thread.take() else {
            return;
        };
        // The accept loop sees `stop` at its next connection: this one.
        // Should it not connect, the loop is left to end with the process
        // rather than waited for.
        if TcpStream::connect_timeout(&server::wake_address(self.addr), Duration::from_secs(2))
            .is_ok()
        {
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
    let listener = TcpListener::bind(&addr).map_err(|e| GuiError::Bind(format!("{addr}: {e}")))?;
    let local = listener
        .local_addr()
        .map_err(|e| GuiError::Bind(format!("{addr}: {e}")))?;
    let port = local.port();
    let shared = Arc::new(Shared::new(
        config.engine.clone(),
        config.grace,
        allowed_hosts(&config.host, port),
        matches!(config.host.as_str(), "0.0.0.0" | "::").then_some(port),
        tuning,
    ));
    let sh = Arc::clone(&shared);
    let thread = thread::Builder::new()
        .name("gui-http".into())
        .spawn(move || server::serve(&listener, &sh))
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
        addr: local,
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
