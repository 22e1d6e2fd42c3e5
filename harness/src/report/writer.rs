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
use super::spilled::Spilled;
use super::stored::{self, OutcomeOut};
use super::view::{Part, View, sorted_refs};
use super::{data, html, jsonl, junit, markdown};
use crate::lane::Lane;
use crate::outcome::{CaseOutcome, Class, Plan, RunMeta, RunReport};
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
    pub(crate) fn create(dir: &Path, plan: &Plan) -> Result<Self, ReportError> {
        let out = OutputDir::create(dir, ReportKind::RUN, Rotate::ToPrevious)?;
        let writer = Self {
            tmp: out.tmp().to_owned(),
            out,
        };
        writer.write_cases("", "", plan)?;
        Ok(writer)
    }

    /// Rewrite `outcomes.json` in the temp dir with the outcomes so far
    /// (with a default summary), written beside and renamed, so a reader
    /// never sees half a file. Called periodically as results arrive. The
    /// outcomes wait in `spilled` and are not read back: their stored
    /// lines are copied as they are, each lane's in the order its cases
    /// finished, and the tables they point into in the order their entries
    /// first came.
    pub(crate) fn progress_spilled(&mut self, spilled: &Spilled) -> Result<(), ReportError> {
        let part = format!("{OUTCOMES_JSON}.part");
        let path = self.tmp.join(&part);
        let (ledger, tags, semantics) = spilled.tables_in_order();
        let partial = RunReport::default();
        let mut file = OutcomesFile::open(&path, &partial, &ledger, &tags, &semantics)?;
        for lane in spilled.lanes() {
            file.raw_group(lane, |w| spilled.write_lines(lane, w))?;
        }
        file.close()?;
        let to = self.tmp.join(OUTCOMES_JSON);
        fs::rename(&path, &to).map_err(io_error(&to, "replace"))
    }

    /// Write every file from the final report and meta, then rename the
    /// directory into place (rotating the existing one). Returns the final dir.
    pub(crate) fn finish(self, report: &RunReport, meta: &RunMeta) -> Result<PathBuf, ReportError> {
        self.finish_view(&View::new(report), meta)
    }

    /// [`finish`](Self::finish) for a report whose outcomes wait in
    /// `spilled` (`report.outcomes` is empty): they are read back one lane
    /// at a time.
    pub(crate) fn finish_spilled(
        self,
        report: &RunReport,
        spilled: &Spilled,
        meta: &RunMeta,
    ) -> Result<PathBuf, ReportError> {
        self.finish_view(&View::spilled(report, spilled), meta)
    }

    /// Every file, the files with a line per case (`outcomes.json`, the
    /// lane files, `junit.xml`'s lane suites, the class lists) written in
    /// one pass over the lanes, the rest from the view's counts.
    fn finish_view(self, view: &View<'_>, meta: &RunMeta) -> Result<PathBuf, ReportError> {
        let report = view.report;
        self.write_json(RUN_JSON, meta)?;
        self.write_cases(&report.old, &report.new, &report.plan)?;
        let tables = view.held_tables();
        let semantics = stored::SemanticTable::of(tables.2);
        let tables = stored::Tables {
            ledger: &tables.0,
            tags: &tables.1,
            semantics: &semantics,
        };
        let mut outcomes = OutcomesFile::open(
            &self.tmp.join(OUTCOMES_JSON),
            report,
            &tables.ledger,
            &tables.tags,
            &semantics.values(),
        )?;
        let mut lists = Class::ALL
            .iter()
            .map(|class| Listing::create(&self.tmp.join(format!("{}.txt", class.id()))))
            .collect::<Result<Vec<_>, _>>()?;
        let mut junit = junit::Suites::new();
        let detailed = data::detailed(view);
        let mut lane_files = data::LaneFiles::new(&self.tmp);
        // The lane being written: its file (when it lists a case) and suite.
        let mut lane_file = None;
        let mut suite = None;
        view.each_lane(&mut |lane, cases, part| {
            if part.first && view.tally.listed.get(&lane).is_some_and(|&n| n > 0) {
                let (ledger, tags) = view.listed_tables(lane);
                lane_file = Some(lane_files.open(lane, ledger, tags)?);
            }
            // `outcomes.json` (a third of the writing) beside the rest.
            std::thread::scope(|scope| {
                let group = scope.spawn(|| outcomes.group(lane, cases, &tables, part));
                let rest = (|| {
                    if let Some(file) = &mut lane_file {
                        file.add(cases, &detailed)?;
                    }
                    let s = suite.get_or_insert_with(|| junit::lane_suite(lane));
                    junit::add_cases(s, cases);
                    for (class, list) in Class::ALL.iter().zip(&mut lists) {
                        list.keys(cases.iter().filter(|o| o.class == *class))?;
                    }
                    Ok(())
                })();
                group
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                    .and(rest)
            })?;
            if part.last {
                if let Some(file) = lane_file.take() {
                    file.close()?;
                }
                if let Some(s) = suite.take() {
                    junit
                        .add(s)
                        .map_err(io_error(&self.tmp.join(JUNIT_XML), "write"))?;
                }
            }
            Ok(())
        })?;
        outcomes.close()?;
        for list in lists {
            list.close()?;
        }
        for suite in junit::other_suites(view) {
            junit
                .add(suite)
                .map_err(io_error(&self.tmp.join(JUNIT_XML), "write"))?;
        }
        self.write_with(JUNIT_XML, |w| junit.finish(w))?;
        self.write_text(DIVERGENCES_JSONL, &jsonl::divergences_jsonl(view))?;
        self.write_text(SUMMARY_MD, &markdown::summary_md(view))?;
        self.write_text(INDEX_HTML, &html::index_html(view))?;
        self.write_text(VIOLATIONS_TXT, &jsonl::violations_txt(view))?;
        self.write_text(FAILURES_TXT, &jsonl::failures_txt(view))?;
        Ok(self.out.commit()?)
    }

    /// `cases.json`: the lanes, the cases planned on every lane (one a
    /// line) and, per lane, the cases planned on some lanes only.
    fn write_cases(&self, old: &str, new: &str, plan: &Plan) -> Result<(), ReportError> {
        let members = [
            member("format", &stored::FORMAT),
            member("old", &old),
            member("new", &new),
            member("lanes", &plan.lanes),
            member("only", &plan.only),
        ];
        self.write_listing(CASES_JSON, &members, "cases", &plan.every)
    }

    /// Write a JSON object whose last member (`tail`) holds one compact
    /// element per line (the big files: byte-stable, greppable, diffable),
    /// every other member compact on its own line: `cases.json`
    /// (`outcomes.json` is an [`OutcomesFile`]).
    fn write_listing<T: Serialize>(
        &self,
        name: &str,
        members: &[Member<'_>],
        tail_name: &str,
        tail: &[T],
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
            write_lines(&mut w, tail.iter())?;
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

/// `outcomes.json`, written as the lanes come: its members, then each
/// lane's outcomes one a line, each line made as it is written (every
/// outcome's stored form held at once, in every progress snapshot too,
/// took RSS up by 50-100 MB while a snapshot of the 15-lane run was
/// written; sampled, 2026-12-04).
struct OutcomesFile {
    path: PathBuf,
    w: io::BufWriter<fs::File>,
    groups: usize,
}

impl OutcomesFile {
    /// The file's members up to `"outcomes": {`, with the tables
    /// `ledger`, `tags` and `semantics` the outcomes point into.
    fn open(
        path: &Path,
        report: &RunReport,
        ledger: &impl Serialize,
        tags: &impl Serialize,
        semantics: &impl Serialize,
    ) -> Result<Self, ReportError> {
        let file = fs::File::create(path).map_err(io_error(path, "write"))?;
        let mut w = io::BufWriter::new(file);
        let ledger_use = sorted_refs(&report.ledger_use);
        let ledger_issues = sorted_refs(&report.ledger_issues);
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
        members.push(member("ledger", ledger));
        members.push(member("tags", tags));
        members.push(member("semantics", semantics));
        let mut go = || -> io::Result<()> {
            w.write_all(b"{\n")?;
            for (k, v) in &members {
                serde_json::to_writer(&mut w, k)?;
                w.write_all(b": ")?;
                v(&mut w)?;
                w.write_all(b",\n")?;
            }
            w.write_all(b"\"outcomes\": {")
        };
        go().map_err(io_error(path, "write"))?;
        Ok(Self {
            path: path.to_owned(),
            w,
            groups: 0,
        })
    }

    /// One lane's outcomes (sorted by case; none: nothing is written).
    /// A part of one lane's outcomes (`part`: where it is in the lane);
    /// a lane with none is left out.
    fn group(
        &mut self,
        lane: Lane,
        outcomes: &[&CaseOutcome],
        tables: &stored::Tables<'_, '_>,
        part: Part,
    ) -> Result<(), ReportError> {
        if part.first && outcomes.is_empty() {
            return Ok(());
        }
        let lines = |w: &mut dyn io::Write| -> io::Result<()> {
            for (i, o) in outcomes.iter().enumerate() {
                let first = part.first && i == 0;
                w.write_all(if first { b"[\n" } else { b",\n" })?;
                serde_json::to_writer(&mut *w, &OutcomeOut::new(o, tables))?;
            }
            if part.last {
                w.write_all(b"\n]")?;
            }
            Ok(())
        };
        if part.first {
            self.raw_group(lane, lines)
        } else {
            lines(&mut self.w).map_err(io_error(&self.path, "write"))
        }
    }

    /// One lane's outcomes written by `lines` (a JSON list).
    fn raw_group(
        &mut self,
        lane: Lane,
        lines: impl FnOnce(&mut dyn io::Write) -> io::Result<()>,
    ) -> Result<(), ReportError> {
        let w = &mut self.w;
        let first = self.groups == 0;
        self.groups += 1;
        let go = || -> io::Result<()> {
            w.write_all(if first { b"\n" } else { b",\n" })?;
            serde_json::to_writer(&mut *w, lane.id())?;
            w.write_all(b": ")?;
            lines(w)
        };
        go().map_err(io_error(&self.path, "write"))
    }

    fn close(mut self) -> Result<(), ReportError> {
        self.w
            .write_all(b"\n}\n}\n")
            .and_then(|()| self.w.flush())
            .map_err(io_error(&self.path, "write"))
    }
}

/// A `<class>.txt` list: each case's key (`lane::case`) a line, written as
/// the lanes come (the identical cases' list of a large run is tens of MB).
struct Listing {
    path: PathBuf,
    w: io::BufWriter<fs::File>,
}

impl Listing {
    fn create(path: &Path) -> Result<Self, ReportError> {
        let file = fs::File::create(path).map_err(io_error(path, "write"))?;
        Ok(Self {
            path: path.to_owned(),
            w: io::BufWriter::new(file),
        })
    }

    fn keys<'a>(
        &mut self,
        outcomes: impl Iterator<Item = &'a &'a CaseOutcome>,
    ) -> Result<(), ReportError> {
        jsonl::write_key_lines(&mut self.w, outcomes).map_err(io_error(&self.path, "write"))
    }

    fn close(mut self) -> Result<(), ReportError> {
        self.w.flush().map_err(io_error(&self.path, "write"))
    }
}
