//! The report directory (`reports/latest/` by default): writes a
//! [`RunReport`] as `run.json`, `cases.json`, `outcomes.json`,
//! `divergences.jsonl`, `summary.md`, `junit.xml`, `index.html` with its
//! `data/<lane>.js` files and one `*.txt` list per class, and reads one
//! back for `wireshape report merge`.
//!
//! Owns [`ReportWriter`] (atomic writes through `outdir::OutputDir`:
//! everything goes into a hidden temporary sibling directory that is renamed
//! into place at the end, after rotating the previous report; a directory
//! that is not a report is never replaced), [`write_report`], [`read_report`] and
//! [`ReportError`]. One file per concern: `writer` (the directory and the
//! JSON listings), `stored` (the stored form of outcomes and of the plan,
//! format 3), `reader`, `data` (the lane files `index.html` loads, the
//! only copy of the wire pairs), `view` (the sorted, counted report every
//! renderer reads), `jsonl` (`divergences.jsonl` and the `*.txt` lists),
//! `markdown` (`summary.md`), `junit` (`junit.xml`, the only user of
//! quick-junit) and `html` (`index.html`, with `compare_html` the only
//! users of maud). `spilled` holds a run's outcomes on disk as they finish
//! (what `run` writes its report from: one lane's outcomes in memory at a
//! time), `tally` what the renderers count of them as they come.
//!
//! `wireshape compare` writes a directory of its own ([`CompareWriter`]):
//! `compare.json`, `summary.md`, `index.html` and `run.json`, from a
//! [`CompareReport`](crate::compare::CompareReport) (`compare`,
//! `compare_html`, and `compare_view`, the table's text).
//!
//! Every file except `run.json` is a pure function of the [`RunReport`]:
//! everything is sorted by key, nothing holds a time, so the same run gives
//! the same bytes. The format is documented (and marked unstable) in
//! `reports/README.md`.

mod compare;
mod compare_html;
mod compare_view;
mod data;
mod files;
mod html;
mod jsonl;
mod junit;
mod markdown;
mod matrix;
mod reader;
mod spilled;
mod stored;
mod tally;
#[cfg(test)]
mod tests;
mod view;
mod writer;

use std::path::{Path, PathBuf};

use crate::outcome::{RunMeta, RunReport};

pub(crate) use compare::CompareWriter;
pub(crate) use compare_view::{
    COLUMNS as COMPARE_COLUMNS, RULES_COLUMN as COMPARE_RULES_COLUMN, row as compare_row,
    scope as compare_scope,
};
pub(crate) use files::ReportError;
pub(crate) use matrix::{markdown as matrix_markdown, write_matrix};
pub(crate) use reader::read_report;
pub(crate) use spilled::Spilled;
pub(crate) use writer::ReportWriter;

/// Create a report directory in one go: [`ReportWriter::create`] then
/// [`ReportWriter::finish`].
pub(crate) fn write_report(
    dir: &Path,
    report: &RunReport,
    meta: &RunMeta,
) -> Result<PathBuf, ReportError> {
    ReportWriter::create(dir, &report.plan)?.finish(report, meta)
}
