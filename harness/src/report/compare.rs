//! The `wireshape compare` report directory (`reports/compare/` by
//! default): `compare.json` (the whole [`CompareReport`]), `summary.md`
//! (one table: a row per lane and pipeline), `index.html` (the table and
//! each cell's breakdown, `compare_html`) and `run.json` (times and
//! versions: the only volatile file). Written atomically through
//! `outdir::OutputDir` like a run's report ([`ReportKind::COMPARE`]; the
//! previous one is rotated to `<name>.previous`).
//!
//! The table's text is `compare_view`'s, shared with `index.html` and the
//! terminal.

use std::fmt::{self, Write as _};
use std::fs;
use std::path::{Path, PathBuf};

use super::compare_html;
use super::compare_view::{COLUMNS, NOTES, row, scope};
use super::files::{INDEX_HTML, RUN_JSON, ReportError, SUMMARY_MD, io_error};
use super::markdown::{Code, Md};
use super::view::plural;
use crate::compare::CompareReport;
use crate::outdir::{OutputDir, ReportKind, Rotate};

/// `compare.json`: the whole comparison, pretty, keys in a fixed order.
pub(super) const COMPARE_JSON: &str = "compare.json";

/// `summary.md` lists at most this many unusable corpus files.
const UNUSABLE_LIMIT: usize = 10;

/// `summary.md`.
pub(super) fn summary_md(report: &CompareReport) -> String {
    let mut out = String::new();
    write_summary_md(&mut out, report).expect("formatting into a String cannot fail");
    out
}

fn write_summary_md(out: &mut String, r: &CompareReport) -> fmt::Result {
    let names: Vec<String> = r.pipelines.iter().map(|p| Code(p).to_string()).collect();
    writeln!(out, "# wireshape compare: {}", names.join(", "))?;
    writeln!(out)?;
    write!(
        out,
        "{}: every output judged by its lane's oracle and checked against the invariants. \
         Descriptive: a comparison fails nothing.",
        scope(r)
    )?;
    if let Some(shard) = &r.shard {
        write!(out, " Shard {shard} of the plan only.")?;
    }
    if let Some(fuzz) = &r.fuzz {
        write!(
            out,
            " With {} (seed {}).",
            plural(fuzz.count, "generated schema", "generated schemas"),
            fuzz.seed
        )?;
    }
    writeln!(out)?;
    writeln!(out)?;
    writeln!(out, "| {} |", COLUMNS.join(" | "))?;
    writeln!(out, "|---|---|--:|--:|--:|---|--:|--:|--:|")?;
    for cell in &r.cells {
        let [lane, pipeline, rest @ ..] = row(cell);
        let rest: Vec<String> = rest.iter().map(|t| Md(t).to_string()).collect();
        writeln!(
            out,
            "| {} | {} | {} |",
            Code(&lane),
            Code(&pipeline),
            rest.join(" | ")
        )?;
    }
    writeln!(out)?;
    for note in NOTES {
        writeln!(out, "- {}", Md(note))?;
    }
    writeln!(
        out,
        "- Every rule's count and example cases: `{COMPARE_JSON}` and `{INDEX_HTML}`. \
         Shaping times: `{RUN_JSON}`, the only file that differs between runs of the same inputs."
    )?;
    if !r.unusable.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "{} (not compared):",
            plural(
                r.unusable.len(),
                "unusable corpus file",
                "unusable corpus files"
            )
        )?;
        writeln!(out)?;
        for (path, reason) in r.unusable.iter().take(UNUSABLE_LIMIT) {
            writeln!(out, "- {}: {}", Code(path), Md(reason))?;
        }
        if r.unusable.len() > UNUSABLE_LIMIT {
            writeln!(
                out,
                "- … and {} more (see `{COMPARE_JSON}`)",
                r.unusable.len() - UNUSABLE_LIMIT
            )?;
        }
    }
    Ok(())
}

/// Writes one comparison directory atomically (an [`OutputDir`] of
/// [`ReportKind::COMPARE`]). A target that is not a comparison (the
/// user's own directory, a `run` report) is refused before any work.
#[derive(Debug)]
pub(crate) struct CompareWriter {
    out: OutputDir,
}

impl CompareWriter {
    /// Check the target and create the temporary directory.
    pub(crate) fn create(dir: &Path) -> Result<Self, ReportError> {
        Ok(Self {
            out: OutputDir::create(dir, ReportKind::COMPARE, Rotate::ToPrevious)?,
        })
    }

    /// Write every file (`run` holds the only times), then rename the
    /// directory into place. Returns the final directory.
    pub(crate) fn finish(
        self,
        report: &CompareReport,
        run: &serde_json::Value,
    ) -> Result<PathBuf, ReportError> {
        self.write(COMPARE_JSON, &pretty(report))?;
        self.write(SUMMARY_MD, &summary_md(report))?;
        self.write(INDEX_HTML, &compare_html::index_html(report))?;
        self.write(RUN_JSON, &pretty(run))?;
        Ok(self.out.commit()?)
    }

    fn write(&self, name: &str, text: &str) -> Result<(), ReportError> {
        let path = self.out.tmp().join(name);
        fs::write(&path, text).map_err(io_error(&path, "write"))
    }
}

/// Pretty JSON with a final newline.
fn pretty<T: serde::Serialize + ?Sized>(v: &T) -> String {
    let mut text = serde_json::to_string_pretty(v).unwrap_or_default();
    text.push('\n');
    text
}
