//! The output folder of `wireshape mutants` ([`MutantsWriter`]):
//! `mutants.json` (the plan, first), `outcomes.json`, one list per outcome,
//! `caught-only-by-examples.txt` and `run.json` (the only timing data).

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::outdir::{OutputDir, OutputError, ReportKind, Rotate};

use super::judge::{MutantOutcome, MutantResult};
use super::plan::MutantInfo;
use super::summary::MutantsReport;

/// `mutants.json`: the plan.
#[derive(Debug, Serialize)]
struct PlanFile<'a> {
    total: usize,
    mutants: Vec<&'a MutantInfo>,
}

/// Writes an output folder atomically (an [`OutputDir`] of
/// [`ReportKind::MUTANTS`]: temp sibling, then rename). A target that is
/// not a mutants output folder (the user's own directory, a `run` report)
/// is refused before any work and left untouched.
pub(crate) struct MutantsWriter {
    out: OutputDir,
}

impl MutantsWriter {
    /// Create the temp dir and write `mutants.json` (the plan) first.
    pub(crate) fn create(dir: &Path, plan: &[&MutantInfo]) -> Result<Self, OutputError> {
        let w = Self {
            out: OutputDir::create(dir, ReportKind::MUTANTS, Rotate::Discard)?,
        };
        w.write_json(
            "mutants.json",
            &PlanFile {
                total: plan.len(),
                mutants: plan.to_vec(),
            },
        )?;
        Ok(w)
    }

    fn write(&self, name: &str, text: &str) -> Result<(), OutputError> {
        let path = self.out.tmp().join(name);
        std::fs::write(&path, text).map_err(crate::outdir::io_error(&path, "write"))
    }

    fn write_json<T: Serialize>(&self, name: &str, v: &T) -> Result<(), OutputError> {
        let mut text = serde_json::to_string_pretty(v).unwrap_or_default();
        text.push('\n');
        self.write(name, &text)
    }

    /// Write the outcomes and one list per outcome, then rename into place
    /// (replacing an existing mutants folder). `run` holds the only timing data.
    pub(crate) fn finish(
        self,
        report: &MutantsReport,
        run: &serde_json::Value,
    ) -> Result<PathBuf, OutputError> {
        self.write_json("outcomes.json", report)?;
        for outcome in ["caught", "missed", "unviable", "timeout"] {
            let results = report.results.iter().filter(|r| r.outcome.id() == outcome);
            self.write(&format!("{outcome}.txt"), &list(results, false))?;
        }
        let only = report
            .results
            .iter()
            .filter(|r| r.outcome.only_by_examples());
        self.write("caught-only-by-examples.txt", &list(only, true))?;
        self.write_json("run.json", run)?;
        self.out.commit()
    }
}

/// One mutant per line, each followed by its indented notes: the checks
/// that caught it, and (`witness`) its witness line when it has one.
pub(super) fn list<'a>(results: impl Iterator<Item = &'a MutantResult>, witness: bool) -> String {
    let mut lines = String::new();
    for r in results {
        lines.push_str(&r.info.name);
        lines.push('\n');
        let notes = [
            r.caught_by_line(),
            r.witness_line()
                .filter(|_| witness || r.outcome == MutantOutcome::Missed),
        ];
        for note in notes.into_iter().flatten() {
            lines.push_str("  ");
            lines.push_str(&note);
            lines.push('\n');
        }
    }
    lines
}
