//! What to run and its limits, and the faults an exchange can end in.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use crate::config::{Command, ExternalDef};
use crate::lane::Lane;

/// How long and how much an external pipeline may take.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// One answer.
    pub request: Duration,
    /// The answer to `start` (a driver may import a lot first).
    pub start: Duration,
    /// The longest line read from a driver, in bytes.
    pub max_line: usize,
    /// The most bytes a driver may write to stderr during one request.
    pub max_stderr: u64,
    /// Failed starts in a row after which the pipeline is given up.
    pub max_start_failures: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            request: Duration::from_secs(30),
            start: Duration::from_secs(30),
            max_line: 32 << 20,
            max_stderr: 1 << 20,
            max_start_failures: 3,
        }
    }
}

/// What to run: a command line and where and how to run it.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// The pipeline id: `cmd:<command line>` or the config name.
    pub id: String,
    pub argv: Vec<String>,
    pub cwd: Option<PathBuf>,
    pub env: BTreeMap<String, String>,
    /// Implementation lane id → lane; empty: what the driver announces.
    pub lanes: BTreeMap<String, Lane>,
    pub limits: Limits,
}

impl Spec {
    /// `cmd:<command line>`: the line split like a shell would.
    pub fn from_command_line(line: &str, limits: Limits) -> Result<Self, String> {
        let argv = split_command(line)?;
        Ok(Self {
            id: format!("cmd:{line}"),
            argv,
            cwd: None,
            env: BTreeMap::new(),
            lanes: BTreeMap::new(),
            limits,
        })
    }

    /// `[pipelines.<name>]` of a config file whose directory is `base`.
    pub(crate) fn from_def(
        name: &str,
        def: &ExternalDef,
        base: &std::path::Path,
        mut limits: Limits,
    ) -> Result<Self, String> {
        let argv = match &def.command {
            Command::Line(line) => split_command(line)?,
            Command::Args(args) if args.is_empty() => return Err("`command` is empty".into()),
            Command::Args(args) => args.clone(),
        };
        if let Some(secs) = def.timeout {
            limits.request = seconds(secs)?;
        }
        Ok(Self {
            id: name.to_owned(),
            argv,
            cwd: Some(base.join(def.cwd.as_deref().unwrap_or(std::path::Path::new(".")))),
            env: def.env.clone(),
            lanes: def.lanes.clone(),
            limits,
        })
    }
}

/// A positive number of seconds as a duration.
pub(crate) fn seconds(secs: f64) -> Result<Duration, String> {
    Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| format!("`{secs}` is not a positive number of seconds"))
}

fn split_command(line: &str) -> Result<Vec<String>, String> {
    match shlex::split(line) {
        Some(argv) if !argv.is_empty() => Ok(argv),
        Some(_) => Err("the command is empty".into()),
        None => Err(format!(
            "cannot split `{line}` into arguments (unbalanced quotes?)"
        )),
    }
}

/// Why one exchange with a driver failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fault {
    Start(String),
    Exited(String),
    Timeout(Duration),
    TooLong(usize),
    Malformed(String),
    WrongSeq { sent: u64, got: String },
    StderrFlood(u64),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Start(why) => write!(f, "failed to start: {why}"),
            Self::Exited(how) => write!(f, "the driver {how} before answering"),
            Self::Timeout(d) => write!(f, "no answer within {}", human(*d)),
            Self::TooLong(max) => write!(f, "an answer line longer than {max} bytes"),
            Self::Malformed(why) => write!(f, "a malformed answer: {why}"),
            Self::WrongSeq { sent, got } => {
                write!(f, "an answer with seq {got} to the request with seq {sent}")
            }
            Self::StderrFlood(max) => {
                write!(f, "more than {max} bytes on stderr during one request")
            }
        }
    }
}

fn human(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}
