//! The report directory (`reports/latest/` by default): writes a
//! [`RunReport`] as `run.json`, `cases.json`, `outcomes.json`,
//! `divergences.jsonl`, `summary.md`, `junit.xml`, `index.html` and one
//! `*.txt` list per class, and reads one back for `wireshape report merge`.
//!
//! Owns [`ReportWriter`] (atomic writes through `outdir::OutputDir`:
//! everything goes into a hidden temporary sibling directory that is renamed
//! into place at the end, after rotating the previous report; a directory
//! that is not a report is never replaced), [`write_report`], [`read_report`] and
//! [`ReportError`]. One file per concern: `writer` (the directory and the
//! JSON listings), `reader`, `view` (the sorted, counted report every
//! renderer reads), `jsonl` (`divergences.jsonl` and the `*.txt` lists),
//! `markdown` (`summary.md`), `junit` (`junit.xml`, the only user of
//! quick-junit) and `html` (`index.html`, the only user of maud).
//!
//! Every file except `run.json` is a pure function of the [`RunReport`]:
//! everything is sorted by key, nothing holds a time, so the same run gives
//! the same bytes. The format is documented (and marked unstable) in
//! `reports/README.md`.

mod html;
mod jsonl;
mod junit;
mod markdown;
mod reader;
#[cfg(test)]
mod tests;
mod view;
mod writer;

use std::io;
use std::path::{Path, PathBuf};

use crate::error::LoadError;
use crate::exit_code::ExitStatus;
use crate::outcome::{RunMeta, RunReport};
use crate::outdir::OutputError;

pub use reader::read_report;
pub use writer::ReportWriter;

/// `run.json`: [`RunMeta`], the only volatile file.
const RUN_JSON: &str = "run.json";
/// `cases.json`: the plan, written before any work.
const CASES_JSON: &str = "cases.json";
/// `outcomes.json`: every outcome, rewritten as results arrive.
const OUTCOMES_JSON: &str = "outcomes.json";
const DIVERGENCES_JSONL: &str = "divergences.jsonl";
const SUMMARY_MD: &str = "summary.md";
const JUNIT_XML: &str = "junit.xml";
const INDEX_HTML: &str = "index.html";
const VIOLATIONS_TXT: &str = "violations.txt";
const FAILURES_TXT: &str = "failures.txt";

/// A report directory that could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
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
}

impl ReportError {
    /// A malformed report or a refused target is a usage or input error
    /// (2); a failed write is an environment failure (70).
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            Self::Io { .. } => ExitStatus::Internal,
            Self::Load(e) => e.exit_status(),
            Self::Output(e) => e.exit_status(),
        }
    }
}

fn io_error(path: &Path, op: &'static str) -> impl FnOnce(io::Error) -> ReportError {
    let path = path.to_owned();
    move |source| ReportError::Io { path, op, source }
}

/// Create a report directory in one go: [`ReportWriter::create`] then
/// [`ReportWriter::finish`].
pub fn write_report(
    dir: &Path,
    report: &RunReport,
    meta: &RunMeta,
) -> Result<PathBuf, ReportError> {
    ReportWriter::create(dir, &report.plan)?.finish(report, meta)
}
