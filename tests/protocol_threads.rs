//! The protocol loop's threads: input read while a search runs, and the
//! order of answers once a search has answered (issue 32). Scripted
//! sessions through `protocol::run` over a channel-fed reader.
//!
//! No test asserts a duration except generous upper bounds (a test that
//! would otherwise hang fails after `LONG`).

mod common;

use common::fen_after;
use common::session::LONG;
use janggi::protocol::{self, MemorySink};
use std::io::{BufReader, Write};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// A blocking reader fed through a channel, like a pipe the test writes to.
struct ChannelReader {
    rx: mpsc::Receiver<Vec<u8>>,
    buf: Vec<u8>,
}

impl std::io::Read for ChannelReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.buf.is_empty() {
            match self.rx.recv() {
                Ok(chunk) => self.buf = chunk,
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buf.len());
        out[..n].copy_from_slice(&self.buf[..n]);
        self.buf.drain(..n);
        Ok(n)
    }
}

/// A protocol loop on its own thread, fed line by line through a channel,
/// its output collected in `sink`.
struct Scripted {
    tx: mpsc::Sender<Vec<u8>>,
    sink: MemorySink,
    runner: thread::JoinHandle<i32>,
}

impl Scripted {
    /// Starts the loop writing to `out`, which must write through to `sink`.
    fn start<W: Write + Send + 'static>(sink: MemorySink, out: W) -> Scripted {
        let (tx, rx) = mpsc::channel::<Vec<u8>>();
        let runner = thread::spawn(move || {
            protocol::run(
                BufReader::new(ChannelReader {
                    rx,
                    buf: Vec::new(),
                }),
                out,
            )
        });
        Scripted { tx, sink, runner }
    }

    fn send(&self, line: &str) {
        self.tx
            .send(format!("{line}\n").into_bytes())
            .expect("send");
    }

    /// The output so far once `pred` holds of it (fails after `LONG`).
    fn wait(&self, pred: &dyn Fn(&[String]) -> bool) -> Vec<String> {
        let start = Instant::now();
        loop {
            let lines = self.sink.lines();
            if pred(&lines) {
                return lines;
            }
            assert!(start.elapsed() < LONG, "timed out: {lines:?}");
            thread::sleep(Duration::from_millis(1));
        }
    }
}

#[test]
fn input_stays_responsive_while_a_command_waits_for_a_finite_search() {
    let sink = MemorySink::default();
    let p = Scripted::start(sink.clone(), sink.clone());
    let send = |l: &str| p.send(l);
    let wait = |pred: &dyn Fn(&[String]) -> bool| p.wait(pred);
    send("position startpos");
    // A finite search that will not end by itself within the test.
    send("go depth 60");
    // This position has to wait for the search ...
    send("position startpos moves b1c3");
    // ... but isready is still answered, before any bestmove.
    send("isready");
    let lines = wait(&|l| l.iter().any(|x| x == "readyok"));
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    // stop is acted on while the position waits; then the position applies.
    send("stop");
    send("d");
    let lines = wait(&|l| l.iter().any(|x| x.starts_with("Fen: ")));
    let best = lines.iter().position(|l| l.starts_with("bestmove"));
    let fen = lines.iter().position(|l| l.starts_with("Fen: "));
    assert!(best.is_some() && best < fen, "{lines:?}");
    assert!(
        lines.contains(&format!("Fen: {}", fen_after(&["b1c3"]))),
        "{lines:?}"
    );
    // quit while a position waits for a search: exits.
    send("go depth 60");
    send("position startpos");
    send("quit");
    let start = Instant::now();
    while !p.runner.is_finished() {
        assert!(start.elapsed() < LONG, "run did not return after quit");
        thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(p.runner.join().ok(), Some(0));
    assert!(
        sink.lines().iter().all(|l| !l.contains("error")),
        "{:?}",
        sink.lines()
    );
}

/// A sink that, once it has written a `bestmove` line, holds the writing
/// thread (the search thread) for a while: the search has answered but is
/// still winding down, the window in which lines used to be answered out
/// of order.
#[derive(Clone)]
struct LingeringSink {
    inner: MemorySink,
    linger: Duration,
}

impl Write for LingeringSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        if buf.starts_with(b"bestmove") {
            thread::sleep(self.linger);
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Once `bestmove` is out, lines are acted on strictly in order: the
/// errors of `position` and `setoption` lines sent after it come before
/// the `readyok` of an `isready` sent after them (issue 32; on the old
/// loop `readyok` came first while the search thread wound down).
#[test]
fn after_bestmove_lines_are_answered_in_order() {
    let sink = MemorySink::default();
    let out = LingeringSink {
        inner: sink.clone(),
        linger: Duration::from_millis(400),
    };
    let p = Scripted::start(sink, out);
    let send = |l: &str| p.send(l);
    let wait_for = |what: &str, count: usize| {
        p.wait(&|lines| lines.iter().filter(|l| l.starts_with(what)).count() >= count)
    };
    for round in 1..=3 {
        send("position startpos");
        send("go infinite");
        send("stop");
        wait_for("bestmove", round);
        send("position fen not-a-fen");
        send("setoption name NoSuchOption value 1");
        send("isready");
        let lines = wait_for("readyok", round);
        let ready = lines.iter().rposition(|l| l == "readyok").expect("readyok");
        let errors: Vec<usize> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.starts_with("info string error"))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(errors.len(), 2 * round, "{lines:?}");
        assert!(
            errors.iter().all(|&e| e < ready),
            "readyok before an earlier line's error: {lines:?}"
        );
    }
    send("quit");
    assert_eq!(p.runner.join().expect("runner"), 0);
}
