//! The report directory's file names and its error type.

use std::io;
use std::path::{Path, PathBuf};

use crate::error::LoadError;
use crate::exit_code::ExitStatus;
use crate::outdir::OutputError;

/// `run.json`: [`RunMeta`](crate::outcome::RunMeta), the only volatile file.
pub(super) const RUN_JSON: &str = "run.json";
/// `cases.json`: the plan, written before any work.
pub(super) const CASES_JSON: &str = "cases.json";
/// `outcomes.json`: every outcome, rewritten as results arrive.
pub(super) const OUTCOMES_JSON: &str = "outcomes.json";
pub(super) const DIVERGENCES_JSONL: &str = "divergences.jsonl";
pub(super) const SUMMARY_MD: &str = "summary.md";
pub(super) const JUNIT_XML: &str = "junit.xml";
pub(super) const INDEX_HTML: &str = "index.html";
pub(super) const VIOLATIONS_TXT: &str = "violations.txt";
pub(super) const FAILURES_TXT: &str = "failures.txt";

/// A report directory that could not be written or read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ReportError {
    /// A file system operation failed; `op` says which (`write`, `create directory`, …).
    #[error("{}: cannot {op}: {source}", path.display())]
    Io {
        path: PathBuf,
        op: &'static str,
        #[source]
        source: io::Error,
    },
    /// A report file is missing, unreadable or malformed (`path:line:column`).
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The target may not be replaced (not a report directory) or could
    /// not be set up or renamed into place.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The outcomes a run wrote to its temporary file did not read back.
    #[error("the run's outcomes on disk: {0}")]
    Spill(String),
}

impl ReportError {
    /// A malformed report or a refused target is a usage or input error
    /// (2); a failed write is an environment failure (70).
    pub(crate) fn exit_status(&self) -> ExitStatus {
        match self {
            Self::Io { .. } | Self::Spill(_) => ExitStatus::Internal,
            Self::Load(e) => e.exit_status(),
            Self::Output(e) => e.exit_status(),
        }
    }
}

pub(super) fn io_error(path: &Path, op: &'static str) -> impl FnOnce(io::Error) -> ReportError {
    let path = path.to_owned();
    move |source| ReportError::Io { path, op, source }
}
