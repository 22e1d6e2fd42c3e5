//! One driver process: spawned in its own process group, spoken to over
//! stdin/stdout one line at a time, with every wait bounded.
//!
//! Three threads per process keep the caller from ever blocking on it: a
//! writer (a driver that stops reading cannot stall us on a full pipe), a
//! stdout reader that cuts a line at the size cap, and a stderr reader that
//! keeps the last lines and counts bytes (a flood is drained, never
//! buffered). Killing the process kills its whole group.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use super::spec::{Fault, Limits, Spec};

/// Lines of stderr kept for messages, and the most characters kept of each.
const STDERR_LINES: usize = 5;
const STDERR_LINE_CHARS: usize = 300;

/// What the stdout reader hands over.
enum Line {
    Text(String),
    TooLong,
    Closed,
}

/// The last lines a driver wrote to stderr, and how many bytes in all.
#[derive(Default)]
struct StderrTail {
    lines: VecDeque<String>,
    partial: String,
}

impl StderrTail {
    fn push(&mut self, chunk: &[u8]) {
        for piece in String::from_utf8_lossy(chunk).split_inclusive('\n') {
            let room = STDERR_LINE_CHARS.saturating_sub(self.partial.chars().count());
            self.partial
                .extend(piece.trim_end_matches('\n').chars().take(room));
            if piece.ends_with('\n') {
                let line: String = std::mem::take(&mut self.partial)
                    .chars()
                    .take(STDERR_LINE_CHARS)
                    .collect();
                if self.lines.len() == STDERR_LINES {
                    self.lines.pop_front();
                }
                self.lines.push_back(line);
            }
        }
    }

    fn render(&self) -> String {
        let mut lines: Vec<&str> = self.lines.iter().map(String::as_str).collect();
        if !self.partial.is_empty() {
            lines.push(&self.partial);
        }
        let lines: Vec<&str> = lines.into_iter().filter(|l| !l.trim().is_empty()).collect();
        let skip = lines.len().saturating_sub(STDERR_LINES);
        lines[skip..].join(" | ")
    }
}

/// A running driver process.
pub(super) struct Driver {
    child: Child,
    outbox_tx: Option<Sender<Vec<u8>>>,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<StderrTail>>,
    stderr_bytes: Arc<AtomicU64>,
    next_seq: u64,
}

impl Driver {
    /// Spawn `spec`'s command in its own process group.
    pub(super) fn spawn(spec: &Spec) -> Result<Self, Fault> {
        let (program, args) = spec
            .argv
            .split_first()
            .ok_or_else(|| Fault::Start("the command is empty".into()))?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .envs(&spec.env)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &spec.cwd {
            cmd.current_dir(dir);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| Fault::Start(format!("cannot run `{program}`: {e}")))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");

        let (outbox_tx, outbox) = mpsc::channel::<Vec<u8>>();
        thread::spawn(move || write_lines(stdin, &outbox));

        let (line_tx, lines) = mpsc::channel();
        let max_line = spec.limits.max_line;
        thread::spawn(move || read_lines(stdout, max_line, &line_tx));

        let tail = Arc::new(Mutex::new(StderrTail::default()));
        let bytes = Arc::new(AtomicU64::new(0));
        let (t, b) = (Arc::clone(&tail), Arc::clone(&bytes));
        thread::spawn(move || drain_stderr(stderr, &t, &b));

        Ok(Self {
            child,
            outbox_tx: Some(outbox_tx),
            lines,
            stderr: tail,
            stderr_bytes: bytes,
            next_seq: 1,
        })
    }

    /// The next request's sequence number.
    pub(super) fn next_seq(&mut self) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    /// Send one line (a newline is appended) and wait up to `timeout` for
    /// one line back. Any fault leaves the driver unusable: kill it.
    pub(super) fn exchange(
        &mut self,
        mut line: Vec<u8>,
        timeout: Duration,
        limits: &Limits,
    ) -> Result<String, Fault> {
        line.push(b'\n');
        let before = self.stderr_bytes.load(Ordering::Relaxed);
        if let Some(tx) = &self.outbox_tx {
            // A closed writer means the process is gone: the read says how.
            let _ = tx.send(line);
        }
        let got = match self.lines.recv_timeout(timeout) {
            Ok(Line::Text(text)) => Ok(text),
            Ok(Line::TooLong) => Err(Fault::TooLong(limits.max_line)),
            Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => Err(self.exited()),
            Err(RecvTimeoutError::Timeout) => Err(Fault::Timeout(timeout)),
        };
        let flood = self.stderr_bytes.load(Ordering::Relaxed) - before;
        if got.is_ok() && flood > limits.max_stderr {
            return Err(Fault::StderrFlood(limits.max_stderr));
        }
        got
    }

    /// The process closed its stdout: wait briefly for its exit status.
    fn exited(&mut self) -> Fault {
        for _ in 0..100 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Fault::Exited(describe_status(status));
            }
            thread::sleep(Duration::from_millis(10));
        }
        Fault::Exited("closed its output".into())
    }

    /// The last lines the driver wrote to stderr (` | `-joined).
    pub(super) fn stderr_tail(&self) -> String {
        // Give the stderr reader a moment to catch up with a crash.
        thread::sleep(Duration::from_millis(20));
        self.stderr.lock().map(|t| t.render()).unwrap_or_default()
    }

    /// Ask the driver to stop, then make sure it has.
    pub(super) fn stop(mut self) {
        if let Some(tx) = self.outbox_tx.take() {
            let _ = tx.send(b"{\"cmd\":\"stop\"}\n".to_vec());
        }
        for _ in 0..50 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Kill the whole process group and reap the process.
    pub(super) fn kill(mut self) {
        self.kill_group();
    }

    fn kill_group(&mut self) {
        self.outbox_tx = None;
        #[cfg(unix)]
        {
            use rustix::process::{Pid, Signal, kill_process_group};
            let _ = kill_process_group(Pid::from_child(&self.child), Signal::KILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.kill_group();
        }
    }
}

fn describe_status(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("was killed by signal {sig}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with status {code}"),
        None => "exited".into(),
    }
}

fn write_lines(mut stdin: ChildStdin, outbox: &Receiver<Vec<u8>>) {
    for line in outbox {
        if stdin.write_all(&line).and_then(|()| stdin.flush()).is_err() {
            return;
        }
    }
}

/// Read newline-terminated lines; a line longer than `max` ends the reading.
fn read_lines(stdout: impl Read, max: usize, tx: &Sender<Line>) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    loop {
        let mut line = Vec::new();
        loop {
            let buf = match reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => &[],
            };
            if buf.is_empty() {
                let _ = tx.send(Line::Closed);
                return;
            }
            let (take, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            line.extend_from_slice(&buf[..take]);
            reader.consume(take);
            if line.len() > max + 1 {
                let _ = tx.send(Line::TooLong);
                return;
            }
            if done {
                break;
            }
        }
        let text = String::from_utf8_lossy(&line).trim_end().to_owned();
        if text.is_empty() {
            continue;
        }
        if tx.send(Line::Text(text)).is_err() {
            return;
        }
    }
}

fn drain_stderr(mut stderr: impl Read, tail: &Mutex<StderrTail>, bytes: &AtomicU64) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match stderr.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                bytes.fetch_add(n as u64, Ordering::Relaxed);
                if let Ok(mut t) = tail.lock() {
                    t.push(&buf[..n]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::StderrTail;

    #[test]
    fn the_stderr_tail_keeps_the_last_five_lines_cut_to_300_characters() {
        let mut t = StderrTail::default();
        for i in 0..8 {
            t.push(format!("line {i}\n").as_bytes());
        }
        t.push(&[b'x'; 1000]);
        let r = t.render();
        assert!(
            r.starts_with("line 4 | line 5 | line 6 | line 7 | xxx"),
            "{r}"
        );
        assert_eq!(r.len(), "line 4 | line 5 | line 6 | line 7 | ".len() + 300);
    }

    #[test]
    fn a_line_split_across_chunks_is_one_line() {
        let mut t = StderrTail::default();
        t.push(b"Trace");
        t.push(b"back (most recent call last)\nValueError: x\n");
        assert_eq!(
            t.render(),
            "Traceback (most recent call last) | ValueError: x"
        );
    }
}
