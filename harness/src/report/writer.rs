//! [`ReportWriter`]: one report directory written atomically, with the
//! big JSON listings (`cases.json`, `outcomes.json`) one element a line;
//! `finish` asks each renderer for its file.

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::files::{
    CASES_JSON, DIVERGENCES_JSONL, FAILURES_TXT, INDEX_HTML, JUNIT_XML, OUTCOMES_JSON, RUN_JSON,
    ReportError, SUMMARY_MD, VIOLATIONS_TXT, io_error,
};
use super::stored::{self, OutcomeOut};
use super::view::{View, sorted_outcomes, sorted_refs};
use super::{data, html, jsonl, junit, markdown};
use crate::outcome::{CaseOutcome, CasePlan, Class, RunMeta, RunReport};
use crate::outdir::{OutputDir, ReportKind, Rotate};

/// Writes one report directory atomically (an [`OutputDir`] of
/// [`ReportKind::RUN`]).
///
/// Everything goes into a temporary sibling directory (same parent, named
/// `.<name>.tmp-<pid>`); [`finish`](Self::finish) renames it into place,
/// rotating an existing report first: `<parent>/latest` →
/// `<parent>/previous`, any other `<parent>/<name>` →
/// `<parent>/<name>.previous` (the old previous is removed). A target or
/// previous directory that is not a report is refused before any work. A
/// crash or error mid-run leaves the old report untouched; dropping the
/// writer without `finish` removes the temporary directory.
#[derive(Debug)]
pub(crate) struct ReportWriter {
    out: OutputDir,
    /// `out`'s temporary directory, where every file is written.
    pub(super) tmp: PathBuf,
}

impl ReportWriter {
    /// Create the temp dir and write `cases.json` (the plan) first.
    ///
    /// `old` and `new` in this early `cases.json` are empty; `finish` rewrites
    /// it from the final report.
    pub(crate) fn create(dir: &Path, plan: &[CasePlan]) -> Result<Self, ReportError> {
        let out = OutputDir::create(dir, ReportKind::RUN, Rotate::ToPrevious)?;
        let writer = Self {
            tmp: out.tmp().to_owned(),
            out,
        };
        writer.write_cases("", "", plan)?;
        Ok(writer)
    }

    /// Rewrite `outcomes.json` in the temp dir with the outcomes so far
    /// (sorted, with a default summary). Called periodically as results arrive.
    pub(crate) fn progress(&mut self, outcomes: &[CaseOutcome]) -> Result<(), ReportError> {
        let partial = RunReport::default();
        // Write beside and rename, so a reader never sees half a file.
        let part = format!("{OUTCOMES_JSON}.part");
        self.write_outcomes(&part, &partial, &sorted_outcomes(outcomes))?;
        let from = self.tmp.join(&part);
        let to = self.tmp.join(OUTCOMES_JSON);
        fs::rename(&from, &to).map_err(io_error(&to, "replace"))
    }

    /// Write every file from the final report and meta, then rename the
    /// directory into place (rotating the existing one). Returns the final dir.
    pub(crate) fn finish(self, report: &RunReport, meta: &RunMeta) -> Result<PathBuf, ReportError> {
        let view = View::new(report);
        self.write_json(RUN_JSON, meta)?;
        self.write_cases(&report.old, &report.new, &report.plan)?;
        // `outcomes.json` (a third of the writing) beside the other files:
        // both stream, so the second thread adds little memory (0.6 s of
        // the 15-lane run's 1.6 s of report; 2026-12-05).
        std::thread::scope(|scope| {
            let outcomes =
                scope.spawn(|| self.write_outcomes(OUTCOMES_JSON, report, &view.outcomes));
            let rest = self.write_views(&view);
            outcomes
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                .and(rest)
        })?;
        Ok(self.out.commit()?)
    }

    /// Every file but `run.json`, `cases.json` and `outcomes.json`.
    fn write_views(&self, view: &View<'_>) -> Result<(), ReportError> {
        self.write_text(DIVERGENCES_JSONL, &jsonl::divergences_jsonl(view))?;
        self.write_text(SUMMARY_MD, &markdown::summary_md(view))?;
        self.write_with(JUNIT_XML, |w| junit::write_junit(view, w))?;
        self.write_text(INDEX_HTML, &html::index_html(view))?;
        data::write_lanes(&self.tmp, view)?;
        for &class in Class::ALL {
            let keys = view.outcomes.iter().filter(|o| o.class == class);
            self.write_with(&format!("{}.txt", class.id()), |w| {
                jsonl::write_key_lines(w, keys)
            })?;
        }
        self.write_text(VIOLATIONS_TXT, &jsonl::violations_txt(view))?;
        self.write_text(FAILURES_TXT, &jsonl::failures_txt(view))
    }

    /// `cases.json`: the lanes, the cases planned on every lane (one a
    /// line) and, per lane, the cases planned on some lanes only.
    fn write_cases(&self, old: &str, new: &str, plan: &[CasePlan]) -> Result<(), ReportError> {
        let plan = stored::PlanOut::new(&sorted_plan(plan));
        let members = [
            member("format", &stored::FORMAT),
            member("old", &old),
            member("new", &new),
            member("lanes", &plan.lanes),
            member("only", &plan.only),
        ];
        self.write_listing(CASES_JSON, &members, "cases", &Tail::List(&plan.every))
    }

    fn write_outcomes(
        &self,
        name: &str,
        report: &RunReport,
        outcomes: &[&CaseOutcome],
    ) -> Result<(), ReportError> {
        let ledger = stored::ledger_table(outcomes);
        let tags = stored::tag_table(outcomes);
        let semantics = stored::SemanticTable::new(outcomes);
        let tables = stored::Tables {
            ledger: &ledger,
            tags: &tags,
            semantics: &semantics,
        };
        let ledger_use = sorted_refs(&report.ledger_use);
        let ledger_issues = sorted_refs(&report.ledger_issues);
        let semantic_values = semantics.values();
        let mut members = vec![
            member("format", &stored::FORMAT),
            member("old", &report.old),
            member("new", &report.new),
            member("summary", &report.summary),
            member("ledger_use", &ledger_use),
            member("ledger_issues", &ledger_issues),
            member("unusable", &report.unusable),
            member("sharded", &report.sharded),
        ];
        if let Some(fuzz) = &report.fuzz {
            members.push(member("fuzz", fuzz));
        }
        // Each member is written straight from its value: the whole
        // requests' list as a `serde_json::Value` took about 140 MB at the
        // peak of the 15-lane run over four copies of the shared corpus
        // (2026-12-05).
        members.push(member("requests", &report.requests));
        members.push(member("ledger", &ledger));
        members.push(member("tags", &tags));
        members.push(member("semantics", &semantic_values));
        // By lane (the outcomes are sorted by lane), each line made as it
        // is written: every outcome's stored form held at once (in every
        // progress snapshot too) took RSS up by 50-100 MB while a snapshot
        // of the 15-lane run was written (sampled, 2026-12-04).
        let groups: Vec<(&str, &[&CaseOutcome])> = outcomes
            .chunk_by(|a, b| a.lane == b.lane)
            .map(|g| (g[0].lane.id(), g))
            .collect();
        self.write_listing::<()>(
            name,
            &members,
            "outcomes",
            &Tail::Outcomes(&groups, &tables),
        )
    }

    /// Write a JSON object whose last member (`tail`) holds one compact
    /// element per line (the big files: byte-stable, greppable, diffable),
    /// every other member compact on its own line.
    fn write_listing<T: Serialize>(
        &self,
        name: &str,
        members: &[Member<'_>],
        tail_name: &str,
        tail: &Tail<'_, T>,
    ) -> Result<(), ReportError> {
        let path = self.tmp.join(name);
        let file = fs::File::create(&path).map_err(io_error(&path, "write"))?;
        let mut w = io::BufWriter::new(file);
        let mut go = || -> io::Result<()> {
            w.write_all(b"{\n")?;
            for (k, v) in members {
                serde_json::to_writer(&mut w, k)?;
                w.write_all(b": ")?;
                v(&mut w)?;
                w.write_all(b",\n")?;
            }
            serde_json::to_writer(&mut w, tail_name)?;
            w.write_all(b": ")?;
            match tail {
                Tail::List(items) => write_lines(&mut w, items.iter())?,
                Tail::Outcomes(groups, tables) => {
                    w.write_all(b"{")?;
                    for (i, (key, outcomes)) in groups.iter().enumerate() {
                        w.write_all(if i == 0 { b"\n" } else { b",\n" })?;
                        serde_json::to_writer(&mut w, key)?;
                        w.write_all(b": ")?;
                        write_lines(&mut w, outcomes.iter().map(|o| OutcomeOut::new(o, tables)))?;
                    }
                    w.write_all(b"\n}")?;
                }
            }
            w.write_all(b"\n}\n")?;
            w.flush()
        };
        go().map_err(io_error(&path, "write"))
    }

    fn write_json<T: Serialize + ?Sized>(&self, name: &str, value: &T) -> Result<(), ReportError> {
        let path = self.tmp.join(name);
        let file = fs::File::create(&path).map_err(io_error(&path, "write"))?;
        let mut w = io::BufWriter::new(file);
        serde_json::to_writer_pretty(&mut w, value)
            .map_err(io::Error::from)
            .and_then(|()| w.write_all(b"\n"))
            .and_then(|()| w.flush())
            .map_err(io_error(&path, "write"))
    }

    /// Write a file through a buffered writer.
    fn write_with(
        &self,
        name: &str,
        write: impl FnOnce(&mut io::BufWriter<fs::File>) -> io::Result<()>,
    ) -> Result<(), ReportError> {
        let path = self.tmp.join(name);
        let file = fs::File::create(&path).map_err(io_error(&path, "write"))?;
        let mut w = io::BufWriter::new(file);
        write(&mut w)
            .and_then(|()| w.flush())
            .map_err(io_error(&path, "write"))
    }

    fn write_text(&self, name: &str, text: &str) -> Result<(), ReportError> {
        let path = self.tmp.join(name);
        fs::write(&path, text).map_err(io_error(&path, "write"))
    }
}

/// The last member of a listing file: one list, or the outcomes' lists by
/// lane, each outcome's stored line made when it is written.
enum Tail<'a, T> {
    List(&'a [T]),
    Outcomes(
        &'a [(&'a str, &'a [&'a CaseOutcome])],
        &'a stored::Tables<'a, 'a>,
    ),
}

/// `[`, one element a line, `]`.
fn write_lines<T: Serialize>(
    w: &mut impl io::Write,
    items: impl Iterator<Item = T>,
) -> io::Result<()> {
    w.write_all(b"[")?;
    for (i, item) in items.enumerate() {
        w.write_all(if i == 0 { b"\n" } else { b",\n" })?;
        serde_json::to_writer(&mut *w, &item)?;
    }
    w.write_all(b"\n]")
}

/// A member of a listing file: its name and how its compact JSON is
/// written.
type Member<'m> = (
    &'static str,
    Box<dyn Fn(&mut dyn io::Write) -> serde_json::Result<()> + 'm>,
);

fn member<'m, T: Serialize + ?Sized>(name: &'static str, value: &'m T) -> Member<'m> {
    (name, Box::new(move |w| serde_json::to_writer(w, value)))
}

fn sorted_plan(plan: &[CasePlan]) -> Vec<&CasePlan> {
    let mut v = sorted_refs(plan);
    v.dedup();
    v
}
