//! Input and output: the line sink shared with the search thread, an
//! in-memory sink for tests, the capped line reader and the [`run`] loop.

use super::{Flow, ProtocolError, Session};
use std::fmt;
use std::io::{self, BufRead, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// Longest accepted input line in bytes; longer lines are discarded with an
/// error (a `position` with thousands of moves is far below this).
pub const MAX_LINE: usize = 1 << 20;
/// One unit of input from the reader thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line (without its `\n`).
    Line(String),
    /// A line longer than [`MAX_LINE`] (discarded).
    TooLong,
}

/// A line sink shared by the input thread and the search thread. Each line
/// is written and flushed in one piece under a lock.
#[derive(Clone)]
pub struct Output {
    inner: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl fmt::Debug for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Output")
    }
}

impl Output {
    /// Wraps a writer.
    pub fn new<W: Write + Send + 'static>(w: W) -> Output {
        Output {
            inner: Arc::new(Mutex::new(Box::new(w))),
        }
    }

    /// Writes `text` and a newline, then flushes. Write errors (a closed
    /// pipe) are ignored: there is nobody left to tell.
    pub fn line(&self, text: &str) {
        let mut buf = Vec::with_capacity(text.len() + 1);
        buf.extend_from_slice(text.as_bytes());
        buf.push(b'\n');
        let mut w = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let _ = w.write_all(&buf);
        let _ = w.flush();
    }
}

/// An in-memory [`Write`] sink that can be cloned and read while written
/// (for tests and embedding).
#[derive(Clone, Debug, Default)]
pub struct MemorySink(Arc<Mutex<Vec<u8>>>);

impl MemorySink {
    /// Everything written so far.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|p| p.into_inner())).into_owned()
    }

    /// Everything written so far, line by line.
    pub fn lines(&self) -> Vec<String> {
        self.text().lines().map(str::to_string).collect()
    }
}

impl Write for MemorySink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Reads one line of at most `max` bytes into `buf` (without the `\n`).
/// Returns `None` at end of input, else whether the line was cut.
fn read_line_capped<R: BufRead>(
    r: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<bool>> {
    buf.clear();
    let mut truncated = false;
    let mut any = false;
    loop {
        let avail = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(any.then_some(truncated));
        }
        any = true;
        let newline = avail.iter().position(|&b| b == b'\n');
        let chunk = &avail[..newline.unwrap_or(avail.len())];
        let room = max.saturating_sub(buf.len());
        if chunk.len() > room {
            truncated = true;
        }
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = newline.map_or(avail.len(), |i| i + 1);
        r.consume(used);
        if newline.is_some() {
            return Ok(Some(truncated));
        }
    }
}

/// Runs the protocol loop: a reader thread reads `input` line by line
/// (lines longer than [`MAX_LINE`] are discarded with an error) while this
/// thread handles them, until `quit` or end of input. Writes to `output`.
/// Returns the exit code (0).
pub fn run<R, W>(input: R, output: W) -> i32
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::Builder::new()
        .name("input".to_string())
        .spawn(move || {
            let mut input = input;
            let mut buf = Vec::new();
            loop {
                let item = match read_line_capped(&mut input, &mut buf, MAX_LINE) {
                    Ok(Some(false)) => Input::Line(String::from_utf8_lossy(&buf).into_owned()),
                    Ok(Some(true)) => Input::TooLong,
                    Ok(None) | Err(_) => break,
                };
                if tx.send(item).is_err() {
                    break;
                }
            }
        });
    let mut session = Session::new(output);
    if reader.is_err() {
        session.say("info string error: cannot start the input thread");
        return 1;
    }
    session.attach_input(rx);
    while let Some(item) = session.next_input() {
        match item {
            Input::Line(line) => {
                if session.handle_line(&line) == Flow::Quit {
                    return 0;
                }
            }
            Input::TooLong => session.error(&ProtocolError::LineTooLong(MAX_LINE)),
        }
    }
    session.end_of_input();
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capped_reader() {
        let data = b"uci\r\n\nxxxxxxxxxx\nlast";
        let mut r = io::BufReader::with_capacity(4, &data[..]);
        let mut buf = Vec::new();
        assert!(matches!(
            read_line_capped(&mut r, &mut buf, 6),
            Ok(Some(false))
        ));
        assert_eq!(buf, b"uci\r");
        assert!(matches!(
            read_line_capped(&mut r, &mut buf, 6),
            Ok(Some(false))
        ));
        assert_eq!(buf, b"");
        assert!(matches!(
            read_line_capped(&mut r, &mut buf, 6),
            Ok(Some(true))
        ));
        assert_eq!(buf, b"xxxxxx");
        assert!(matches!(
            read_line_capped(&mut r, &mut buf, 6),
            Ok(Some(false))
        ));
        assert_eq!(buf, b"last");
        assert!(matches!(read_line_capped(&mut r, &mut buf, 6), Ok(None)));
    }
}
