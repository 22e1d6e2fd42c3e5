//! Writing standard output and standard error for `console`: a reader
//! that goes away (a broken pipe) ends the output quietly, any other
//! failure is recorded for `main` to report; nothing here panics.

use std::io::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::Value;

/// Set when standard output's reader has gone (`wireshape check … | head`,
/// a pager quit early): not an error, as ripgrep has it. The rest of the
/// output is dropped without a word and the command keeps its verdict.
static STDOUT_GONE: AtomicBool = AtomicBool::new(false);

/// The first other error writing standard output (a full disk, …).
static STDOUT_FAILED: Mutex<Option<String>> = Mutex::new(None);

/// Record an error writing standard output (see [`stdout_failure`]).
fn stdout_error(e: &std::io::Error) {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        STDOUT_GONE.store(true, Ordering::Relaxed);
    } else if let Ok(mut first) = STDOUT_FAILED.lock() {
        first.get_or_insert_with(|| e.to_string());
    }
}

/// Why standard output could not take all of a command's output, other
/// than its reader going away: `main` reports it (exit 70).
pub(crate) fn stdout_failure() -> Option<String> {
    STDOUT_FAILED.lock().ok().and_then(|f| f.clone())
}

/// Write to standard output; an error is recorded, not raised (see
/// [`STDOUT_GONE`], [`stdout_failure`]), and once the reader has gone
/// nothing more is written.
pub(super) fn write_out(text: std::fmt::Arguments<'_>) {
    if STDOUT_GONE.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(text).and_then(|()| out.flush()) {
        stdout_error(&e);
    }
}

/// `print!` through [`write_out`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::console::stdio::write_out(format_args!($($arg)*))
    };
}

/// `println!` through [`write_out`].
macro_rules! outln {
    () => {
        $crate::console::stdio::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::console::stdio::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Write to standard error (diagnostics, `--explain`, progress); a reader
/// that went away (`… 2>&1 | head`) ends it without a word.
pub(super) fn write_err(text: std::fmt::Arguments<'_>) {
    static GONE: AtomicBool = AtomicBool::new(false);
    if GONE.load(Ordering::Relaxed) {
        return;
    }
    if std::io::stderr().lock().write_fmt(text).is_err() {
        GONE.store(true, Ordering::Relaxed);
    }
}

/// `eprint!` through [`write_err`].
macro_rules! err {
    ($($arg:tt)*) => {
        $crate::console::stdio::write_err(format_args!($($arg)*))
    };
}

/// `eprintln!` through [`write_err`].
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::console::stdio::write_err(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Standard output as a `fmt::Write` target, buffered: for output too
/// large to build as one string first (`check` on a large catalog). An
/// error writing it is recorded as [`write_out`]'s are; formatting into it
/// never fails.
pub(super) struct Stream(std::io::BufWriter<std::io::StdoutLock<'static>>);

impl Stream {
    pub(super) fn new() -> Self {
        Self(std::io::BufWriter::with_capacity(
            1 << 16,
            std::io::stdout().lock(),
        ))
    }
}

impl std::fmt::Write for Stream {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        if !STDOUT_GONE.load(Ordering::Relaxed)
            && let Err(e) = self.0.write_all(text.as_bytes())
        {
            stdout_error(&e);
        }
        Ok(())
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        if !STDOUT_GONE.load(Ordering::Relaxed)
            && let Err(e) = self.0.flush()
        {
            stdout_error(&e);
        }
    }
}

/// Pretty JSON on stdout, key order preserved; an error writing it is
/// recorded as [`write_out`]'s are.
pub(crate) fn json(v: &Value) {
    if STDOUT_GONE.load(Ordering::Relaxed) {
        return;
    }
    // Buffered: serde_json writes token by token, one syscall each unbuffered.
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let written = serde_json::to_writer_pretty(&mut out, v)
        .map_err(std::io::Error::from)
        .and_then(|()| writeln!(out))
        .and_then(|()| out.flush());
    if let Err(e) = written {
        stdout_error(&e);
    }
}
