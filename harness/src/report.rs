//! The report directory (`reports/latest/` by default): writes a
//! [`RunReport`] as `run.json`, `cases.json`, `outcomes.json`,
//! `divergences.jsonl`, `summary.md`, `junit.xml`, `index.html` and one
//! `*.txt` list per class, and reads one back for `wireshape report merge`.
//!
//! Owns [`ReportWriter`] (atomic writes through `outdir::OutputDir`:
//! everything goes into a hidden temporary sibling directory that is renamed
//! into place at the end, after rotating the previous report; a directory
//! that is not a report is never replaced), [`write_report`], [`read_report`] and
//! [`ReportError`]. Wraps no external crate beyond serde_json.
//!
//! Every file except `run.json` is a pure function of the [`RunReport`]:
//! everything is sorted by key, nothing holds a time, so the same run gives
//! the same bytes. The format is documented (and marked unstable) in
//! `reports/README.md`.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::LoadError;
use crate::exit_code::ExitStatus;
use crate::generate::FuzzSpec;
use crate::outcome::{
    CaseOutcome, CasePlan, Class, LedgerIssue, LedgerMatch, LedgerUse, RequestOutcome, RunMeta,
    RunReport, Side, Summary,
};
use crate::outdir::{OutputDir, OutputError, ReportKind, Rotate};
use crate::semantic::SemanticClass;

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

/// `summary.md` lists at most this many entries per section.
const SUMMARY_LIST_LIMIT: usize = 50;
/// `summary.md` lists at most this many unusable corpus files.
const SUMMARY_UNUSABLE_LIMIT: usize = 10;
/// `index.html` carries diff details for at most this many cases.
const HTML_DIFF_LIMIT: usize = 2_000;

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
pub struct ReportWriter {
    out: OutputDir,
    /// `out`'s temporary directory, where every file is written.
    tmp: PathBuf,
}

impl ReportWriter {
    /// Create the temp dir and write `cases.json` (the plan) first.
    ///
    /// `old` and `new` in this early `cases.json` are empty; `finish` rewrites
    /// it from the final report.
    pub fn create(dir: &Path, plan: &[CasePlan]) -> Result<Self, ReportError> {
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
    pub fn progress(&mut self, outcomes: &[CaseOutcome]) -> Result<(), ReportError> {
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
    pub fn finish(self, report: &RunReport, meta: &RunMeta) -> Result<PathBuf, ReportError> {
        let view = View::new(report);
        self.write_json(RUN_JSON, meta)?;
        self.write_cases(&report.old, &report.new, &report.plan)?;
        self.write_outcomes(OUTCOMES_JSON, report, &view.outcomes)?;
        self.write_text(DIVERGENCES_JSONL, &divergences_jsonl(&view))?;
        self.write_text(SUMMARY_MD, &summary_md(&view))?;
        self.write_text(JUNIT_XML, &junit_xml(&view))?;
        self.write_text(INDEX_HTML, &index_html(&view))?;
        for &class in Class::ALL {
            let keys = view.outcomes.iter().filter(|o| o.class == class);
            self.write_text(&format!("{}.txt", class.id()), &key_lines(keys))?;
        }
        self.write_text(VIOLATIONS_TXT, &violations_txt(&view))?;
        let failing = view.outcomes.iter().filter(|o| o.is_failure());
        let mut failures = key_lines(failing);
        for r in view.requests.iter().filter(|r| r.is_failure()) {
            failures.push_str(&r.key());
            failures.push('\n');
        }
        self.write_text(FAILURES_TXT, &failures)?;
        Ok(self.out.commit()?)
    }

    fn write_cases(&self, old: &str, new: &str, plan: &[CasePlan]) -> Result<(), ReportError> {
        self.write_listing(
            CASES_JSON,
            &[("old", json_value(&old)), ("new", json_value(&new))],
            ("cases", &sorted_plan(plan)),
        )
    }

    fn write_outcomes(
        &self,
        name: &str,
        report: &RunReport,
        outcomes: &[&CaseOutcome],
    ) -> Result<(), ReportError> {
        let mut members = vec![
            ("old", json_value(&report.old)),
            ("new", json_value(&report.new)),
            ("summary", json_value(&report.summary)),
            ("ledger_use", json_value(&sorted_refs(&report.ledger_use))),
            (
                "ledger_issues",
                json_value(&sorted_refs(&report.ledger_issues)),
            ),
            ("unusable", json_value(&report.unusable)),
            ("sharded", json_value(&report.sharded)),
        ];
        if let Some(fuzz) = &report.fuzz {
            members.push(("fuzz", json_value(fuzz)));
        }
        members.push(("requests", json_value(&report.requests)));
        self.write_listing(name, &members, ("outcomes", outcomes))
    }

    /// Write a JSON object whose `list` member holds one compact element
    /// per line (the big files: byte-stable, greppable, diffable), every
    /// other member compact on its own line.
    fn write_listing<T: Serialize>(
        &self,
        name: &str,
        members: &[(&str, serde_json::Value)],
        list: (&str, &[T]),
    ) -> Result<(), ReportError> {
        let path = self.tmp.join(name);
        let file = fs::File::create(&path).map_err(io_error(&path, "write"))?;
        let mut w = io::BufWriter::new(file);
        let mut go = || -> io::Result<()> {
            w.write_all(b"{\n")?;
            for (k, v) in members {
                serde_json::to_writer(&mut w, k)?;
                w.write_all(b": ")?;
                serde_json::to_writer(&mut w, v)?;
                w.write_all(b",\n")?;
            }
            serde_json::to_writer(&mut w, list.0)?;
            w.write_all(b": [")?;
            for (i, item) in list.1.iter().enumerate() {
                w.write_all(if i == 0 { b"\n" } else { b",\n" })?;
                serde_json::to_writer(&mut w, item)?;
            }
            w.write_all(b"\n]\n}\n")?;
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

    fn write_text(&self, name: &str, text: &str) -> Result<(), ReportError> {
        let path = self.tmp.join(name);
        fs::write(&path, text).map_err(io_error(&path, "write"))
    }
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

/// Read a report directory back (`cases.json` + `outcomes.json` +
/// `run.json`), as `wireshape report merge` does with shard reports.
pub fn read_report(dir: &Path) -> Result<(RunReport, RunMeta), ReportError> {
    let cases: CasesIn = read_json(&dir.join(CASES_JSON))?;
    let outcomes_path = dir.join(OUTCOMES_JSON);
    let outcomes: OutcomesIn = read_json(&outcomes_path)?;
    let meta: RunMeta = read_json(&dir.join(RUN_JSON))?;
    if (&cases.old, &cases.new) != (&outcomes.old, &outcomes.new) {
        return Err(LoadError::Shape {
            path: outcomes_path,
            line: 0,
            column: 0,
            message: format!(
                "`{}` → `{}` does not match cases.json (`{}` → `{}`)",
                outcomes.old, outcomes.new, cases.old, cases.new
            ),
        }
        .into());
    }
    let report = RunReport {
        old: outcomes.old,
        new: outcomes.new,
        plan: cases.cases,
        outcomes: outcomes.outcomes,
        ledger_use: outcomes.ledger_use,
        ledger_issues: outcomes.ledger_issues,
        unusable: outcomes.unusable,
        summary: outcomes.summary,
        sharded: outcomes.sharded,
        fuzz: outcomes.fuzz,
        requests: outcomes.requests,
    };
    Ok((report, meta))
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, ReportError> {
    let bytes = fs::read(path).map_err(|source| LoadError::Io {
        path: path.to_owned(),
        source,
    })?;
    serde_json::from_slice(&bytes).map_err(|e| LoadError::from_json(path, &e).into())
}

// ---------------------------------------------------------------------------
// cases.json and outcomes.json

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CasesIn {
    old: String,
    new: String,
    cases: Vec<CasePlan>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OutcomesIn {
    old: String,
    new: String,
    summary: Summary,
    outcomes: Vec<CaseOutcome>,
    ledger_use: Vec<LedgerUse>,
    ledger_issues: Vec<LedgerIssue>,
    unusable: BTreeMap<String, String>,
    #[serde(default)]
    sharded: bool,
    #[serde(default)]
    fuzz: Option<FuzzSpec>,
    #[serde(default)]
    requests: Vec<RequestOutcome>,
}

fn json_value<T: Serialize + ?Sized>(v: &T) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}

fn sorted_plan(plan: &[CasePlan]) -> Vec<&CasePlan> {
    let mut v = sorted_refs(plan);
    v.dedup();
    v
}

fn sorted_refs<T: Ord>(items: &[T]) -> Vec<&T> {
    let mut v: Vec<&T> = items.iter().collect();
    v.sort();
    v
}

/// By (lane, case), the order `RunReport::finish` uses (stable, so equal keys
/// keep their order).
fn sorted_outcomes(outcomes: &[CaseOutcome]) -> Vec<&CaseOutcome> {
    let mut v: Vec<&CaseOutcome> = outcomes.iter().collect();
    v.sort_by(|a, b| (&a.lane, &a.case).cmp(&(&b.lane, &b.case)));
    v
}

// ---------------------------------------------------------------------------
// What every rendered file is made from

/// The report, sorted and counted once for all renderers.
struct View<'a> {
    report: &'a RunReport,
    /// Sorted by (lane, case).
    outcomes: Vec<&'a CaseOutcome>,
    /// Every lane that ran (the summary's lanes and the outcomes' lanes),
    /// with its count per class (indexed like [`Class::ALL`]).
    lanes: BTreeMap<&'a str, [usize; 5]>,
    /// Failing cases (`CaseOutcome::is_failure`).
    failing: usize,
    violations: usize,
    unused: Vec<&'a LedgerIssue>,
    stale: Vec<&'a LedgerIssue>,
    /// Whole-request comparisons, sorted by key.
    requests: Vec<&'a RequestOutcome>,
    /// Failing requests.
    failing_requests: usize,
}

impl<'a> View<'a> {
    fn new(report: &'a RunReport) -> Self {
        let outcomes = sorted_outcomes(&report.outcomes);
        let mut lanes: BTreeMap<&str, [usize; 5]> = report
            .summary
            .classes
            .keys()
            .map(|l| (l.as_str(), [0; 5]))
            .collect();
        for o in &outcomes {
            lanes.entry(o.lane.as_str()).or_default()[class_index(o.class)] += 1;
        }
        let issues = sorted_refs(&report.ledger_issues);
        let mut requests: Vec<&RequestOutcome> = report.requests.iter().collect();
        requests.sort_by_key(|r| (r.lane.as_str(), r.catalog.as_str(), r.kind));
        Self {
            failing_requests: requests.iter().filter(|r| r.is_failure()).count(),
            requests,
            failing: outcomes.iter().filter(|o| o.is_failure()).count(),
            violations: outcomes.iter().map(|o| o.violations.len()).sum(),
            unused: issues
                .iter()
                .copied()
                .filter(|i| i.kind == "unused")
                .collect(),
            stale: issues
                .iter()
                .copied()
                .filter(|i| i.kind != "unused")
                .collect(),
            report,
            outcomes,
            lanes,
        }
    }

    /// Failing cases and requests plus unused ledger entries: what the
    /// verdict counts.
    fn failures(&self) -> usize {
        self.failing + self.unused.len() + self.failing_requests
    }

    fn class_total(&self, class: Class) -> usize {
        self.lanes.values().map(|c| c[class_index(class)]).sum()
    }

    fn exit_code(&self) -> u8 {
        self.report.summary.exit_code
    }
}

fn class_index(class: Class) -> usize {
    Class::ALL.iter().position(|c| *c == class).unwrap_or(0)
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

fn exit_code_meaning(code: u8) -> &'static str {
    match code {
        0 => {
            "clean: no unexpected or errored cases, no undeclared rejected outputs, no undeclared \
             narrowings or silent widenings, no invariant violations, no broken pins, no failing \
             requests, no unused ledger entries (stale ledger entries and unusable corpus files \
             only warn)"
        }
        1 => {
            "failures found: unexpected or errored cases, undeclared rejected outputs, undeclared \
             narrowings or silent widenings, invariant violations, broken pins, failing requests \
             or unused ledger entries"
        }
        2 => "usage or input error",
        3 => "timeout",
        4 => "baseline failed",
        _ => "internal error",
    }
}

/// Side outcomes that carry an explanation, as `old: <detail>` / `new: <detail>`.
fn side_details(o: &CaseOutcome) -> Vec<String> {
    [("old", &o.old), ("new", &o.new)]
        .into_iter()
        .filter_map(|(which, side)| {
            side.detail
                .as_deref()
                .map(|d| format!("{which} {}: {}", side.outcome, first_line(d)))
        })
        .collect()
}

// ---------------------------------------------------------------------------
// *.txt lists

fn key_lines<'a>(outcomes: impl Iterator<Item = &'a &'a CaseOutcome>) -> String {
    let mut out = String::new();
    for o in outcomes {
        out.push_str(&o.lane);
        out.push_str("::");
        out.push_str(&o.case);
        out.push('\n');
    }
    out
}

fn violations_txt(view: &View<'_>) -> String {
    let mut out = String::new();
    for o in &view.outcomes {
        for v in sorted_refs(&o.violations) {
            let _ = writeln!(out, "{}::{} {} {}", o.lane, o.case, v.invariant, v.pipeline);
        }
    }
    out
}

// ---------------------------------------------------------------------------
// divergences.jsonl

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
enum Line<'a> {
    Divergence {
        lane: &'a str,
        case: &'a str,
        class: Class,
        tags: &'a [String],
        ledger: &'a [LedgerMatch],
        old: SideLine<'a>,
        new: SideLine<'a>,
    },
    Violation {
        lane: &'a str,
        case: &'a str,
        invariant: &'a str,
        pipeline: &'a str,
        message: &'a str,
    },
    Ledger {
        file: &'a str,
        index: usize,
        class: &'a str,
        kind: &'a str,
        message: &'a str,
    },
    Unusable {
        path: &'a str,
        reason: &'a str,
    },
}

#[derive(Serialize)]
struct SideLine<'a> {
    pipeline: &'a str,
    outcome: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<&'a str>,
    sha256: &'a str,
}

impl<'a> From<&'a Side> for SideLine<'a> {
    fn from(side: &'a Side) -> Self {
        Self {
            pipeline: &side.pipeline,
            outcome: &side.outcome,
            detail: side.detail.as_deref(),
            sha256: &side.sha256,
        }
    }
}

fn divergences_jsonl(view: &View<'_>) -> String {
    let mut lines = Vec::new();
    for o in view.outcomes.iter().filter(|o| o.class != Class::Identical) {
        lines.push(Line::Divergence {
            lane: &o.lane,
            case: &o.case,
            class: o.class,
            tags: &o.tags,
            ledger: &o.ledger,
            old: (&o.old).into(),
            new: (&o.new).into(),
        });
    }
    for o in &view.outcomes {
        for v in sorted_refs(&o.violations) {
            lines.push(Line::Violation {
                lane: &o.lane,
                case: &o.case,
                invariant: &v.invariant,
                pipeline: &v.pipeline,
                message: &v.message,
            });
        }
    }
    for i in sorted_refs(&view.report.ledger_issues) {
        lines.push(Line::Ledger {
            file: &i.file,
            index: i.index,
            class: &i.class,
            kind: &i.kind,
            message: &i.message,
        });
    }
    for (path, reason) in &view.report.unusable {
        lines.push(Line::Unusable { path, reason });
    }
    let mut out = String::new();
    for line in &lines {
        // Serializing borrowed strings and integers cannot fail.
        out.push_str(&serde_json::to_string(line).unwrap_or_default());
        out.push('\n');
    }
    out
}

// ---------------------------------------------------------------------------
// summary.md

/// Markdown inline text: punctuation that could start markup is
/// backslash-escaped, newlines become spaces.
struct Md<'a>(&'a str);

impl fmt::Display for Md<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            match c {
                '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '&' | '|' | '~' => {
                    f.write_char('\\')?;
                    f.write_char(c)?;
                }
                '\n' | '\r' => f.write_char(' ')?,
                c => f.write_char(c)?,
            }
        }
        Ok(())
    }
}

/// A Markdown code span that shows its text literally, whatever it contains
/// (the fence is longer than any run of backticks inside).
struct Code<'a>(&'a str);

impl fmt::Display for Code<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        let mut longest = 0;
        let mut run = 0;
        for c in s.chars() {
            run = if c == '`' { run + 1 } else { 0 };
            longest = longest.max(run);
        }
        let fence = "`".repeat(longest + 1);
        let pad = s.starts_with('`')
            || s.ends_with('`')
            || (s.starts_with(' ') && s.ends_with(' ') && !s.trim().is_empty());
        let pad = if pad { " " } else { "" };
        f.write_str(&fence)?;
        f.write_str(pad)?;
        for c in s.chars() {
            f.write_char(if c == '\n' || c == '\r' { ' ' } else { c })?;
        }
        f.write_str(pad)?;
        f.write_str(&fence)
    }
}

fn summary_md(view: &View<'_>) -> String {
    let mut out = String::new();
    write_summary_md(&mut out, view).expect("formatting into a String cannot fail");
    out
}

fn write_more(out: &mut String, shown: usize, total: usize, file: &str) -> fmt::Result {
    if total > shown {
        writeln!(out, "- … and {} more (see `{file}`)", total - shown)?;
    }
    Ok(())
}

fn write_summary_md(out: &mut String, view: &View<'_>) -> fmt::Result {
    let r = view.report;
    writeln!(out, "# wireshape: {} → {}", Md(&r.old), Md(&r.new))?;
    writeln!(out)?;
    let scope = format!(
        "{} on {}",
        plural(view.outcomes.len(), "case", "cases"),
        plural(view.lanes.len(), "lane", "lanes")
    );
    if view.failures() == 0 {
        write!(out, "**clean**: {scope}")?;
    } else {
        let mut parts = Vec::new();
        if view.failing > 0 {
            parts.push(plural(view.failing, "failing case", "failing cases"));
        }
        if view.failing_requests > 0 {
            parts.push(plural(
                view.failing_requests,
                "failing request",
                "failing requests",
            ));
        }
        if !view.unused.is_empty() {
            parts.push(plural(
                view.unused.len(),
                "unused ledger entry",
                "unused ledger entries",
            ));
        }
        write!(
            out,
            "**{}** ({}) in {scope}",
            plural(view.failures(), "failure", "failures"),
            parts.join(", ")
        )?;
    }
    if !view.stale.is_empty() {
        write!(
            out,
            "; {} (warning)",
            plural(
                view.stale.len(),
                "stale ledger entry",
                "stale ledger entries"
            )
        )?;
    }
    writeln!(out)?;
    writeln!(out)?;
    if let Some(fuzz) = &r.fuzz {
        write_fuzz_md(out, view, fuzz)?;
    }
    if r.summary.fixes + r.summary.regressions > 0 {
        writeln!(
            out,
            "Oracle: {} (old output rejected by the provider's oracle, new accepted), {} (old accepted, new rejected).",
            plural(r.summary.fixes, "fix", "fixes"),
            plural(r.summary.regressions, "regression", "regressions")
        )?;
        writeln!(out)?;
    }

    write!(out, "| lane |")?;
    for c in Class::ALL {
        write!(out, " {} |", c.id())?;
    }
    writeln!(out, " total |")?;
    write!(out, "|:---|")?;
    for _ in Class::ALL {
        write!(out, "---:|")?;
    }
    writeln!(out, "---:|")?;
    for (lane, counts) in &view.lanes {
        write!(out, "| {} |", Md(lane))?;
        for n in counts {
            write!(out, " {n} |")?;
        }
        writeln!(out, " {} |", counts.iter().sum::<usize>())?;
    }
    write!(out, "| **total** |")?;
    for &c in Class::ALL {
        write!(out, " {} |", view.class_total(c))?;
    }
    writeln!(out, " {} |", view.outcomes.len())?;
    write_rejected_md(out, view)?;
    write_semantic_md(out, view)?;

    let unexpected: Vec<_> = view
        .outcomes
        .iter()
        .filter(|o| o.class == Class::Unexpected)
        .collect();
    if !unexpected.is_empty() {
        writeln!(out, "\n## Unexpected divergences ({})\n", unexpected.len())?;
        for o in unexpected.iter().take(SUMMARY_LIST_LIMIT) {
            write!(out, "- {}", Code(&o.key()))?;
            for (i, tag) in o.tags.iter().enumerate() {
                write!(out, "{}{}", if i == 0 { ": " } else { ", " }, Code(tag))?;
            }
            writeln!(out)?;
        }
        write_more(out, SUMMARY_LIST_LIMIT, unexpected.len(), "unexpected.txt")?;
    }

    let errored: Vec<_> = view
        .outcomes
        .iter()
        .filter(|o| o.class == Class::Errored)
        .collect();
    if !errored.is_empty() {
        writeln!(out, "\n## Errored ({})\n", errored.len())?;
        for o in errored.iter().take(SUMMARY_LIST_LIMIT) {
            write!(out, "- {}", Code(&o.key()))?;
            let details = side_details(o);
            if !details.is_empty() {
                write!(out, ": {}", Md(&details.join("; ")))?;
            }
            writeln!(out)?;
        }
        write_more(out, SUMMARY_LIST_LIMIT, errored.len(), "errored.txt")?;
    }

    if view.violations > 0 {
        writeln!(out, "\n## Invariant violations ({})\n", view.violations)?;
        let all = view
            .outcomes
            .iter()
            .flat_map(|o| sorted_refs(&o.violations).into_iter().map(move |v| (o, v)));
        for (o, v) in all.take(SUMMARY_LIST_LIMIT) {
            writeln!(
                out,
                "- {} {} ({}): {}",
                Code(&o.key()),
                Md(&v.invariant),
                Code(&v.pipeline),
                Md(first_line(&v.message))
            )?;
        }
        write_more(out, SUMMARY_LIST_LIMIT, view.violations, VIOLATIONS_TXT)?;
    }

    let broken: Vec<_> = view
        .outcomes
        .iter()
        .flat_map(|o| o.pin_breaks.iter().map(move |b| (o, b)))
        .collect();
    if !broken.is_empty() {
        writeln!(out, "\n## Broken pins ({})\n", broken.len())?;
        for (o, b) in broken.iter().take(SUMMARY_LIST_LIMIT) {
            writeln!(out, "- {}: {}", Code(&o.key()), Md(&b.message))?;
        }
        write_more(out, SUMMARY_LIST_LIMIT, broken.len(), FAILURES_TXT)?;
    }

    write_requests_md(out, view)?;

    let ledger = view.unused.len() + view.stale.len();
    if ledger > 0 {
        writeln!(out, "\n## Ledger ({ledger})\n")?;
        let labelled = view
            .unused
            .iter()
            .map(|i| ("unused (fails the run)", *i))
            .chain(view.stale.iter().map(|i| ("stale (warning)", *i)));
        for (label, i) in labelled.take(SUMMARY_LIST_LIMIT) {
            writeln!(
                out,
                "- {label}: {} ({}): {}",
                Code(&format!("{}#{}", i.file, i.index)),
                Md(&i.class),
                Md(first_line(&i.message))
            )?;
        }
        write_more(out, SUMMARY_LIST_LIMIT, ledger, DIVERGENCES_JSONL)?;
    }

    if !r.unusable.is_empty() {
        writeln!(out, "\n## Unusable corpus files ({})\n", r.unusable.len())?;
        for (path, reason) in r.unusable.iter().take(SUMMARY_UNUSABLE_LIMIT) {
            writeln!(out, "- {}: {}", Code(path), Md(first_line(reason)))?;
        }
        write_more(
            out,
            SUMMARY_UNUSABLE_LIMIT,
            r.unusable.len(),
            DIVERGENCES_JSONL,
        )?;
    }

    writeln!(
        out,
        "\n---\n\nExit code {}: {}. Details: `index.html`, `junit.xml`, `divergences.jsonl` and \
         one `*.txt` list per class in the report directory.",
        view.exit_code(),
        exit_code_meaning(view.exit_code())
    )
}

/// The generated cases: how many, the seed, how to plan them again, and
/// how many of them fail.
fn write_fuzz_md(out: &mut String, view: &View<'_>, fuzz: &FuzzSpec) -> fmt::Result {
    let prefix = format!("fuzz/{}#", fuzz.seed);
    let failing = view
        .outcomes
        .iter()
        .filter(|o| o.case.starts_with(&prefix) && o.is_failure())
        .count();
    writeln!(
        out,
        "fuzz: {}, seed {} (reproduce: {}, plus `--lanes <lane>` for one lane); {} among them.",
        plural(fuzz.count, "generated schema", "generated schemas"),
        fuzz.seed,
        Code(&fuzz.command(&view.report.old, &view.report.new)),
        plural(failing, "failing case", "failing cases"),
    )?;
    writeln!(out)
}

/// How many requests differing only inside judged tools `summary.md` shows.
const SUMMARY_INSIDE_TOOLS_LIMIT: usize = 10;

/// The whole-request comparison per lane, the failures with where they
/// are, and the first requests that differ only inside judged tools.
fn write_requests_md(out: &mut String, view: &View<'_>) -> fmt::Result {
    if view.requests.is_empty() {
        return Ok(());
    }
    let counts = &view.report.summary.requests;
    writeln!(out, "\n## Requests\n")?;
    writeln!(
        out,
        "Whole requests per catalog (tools in catalog order, `tool_choice`, `response_format`), \
         an ordinary `turn` and a compaction `summary`, old vs new: the prompt-cache prefix is \
         the request. A difference inside a tool is judged by that tool's case, not counted \
         again.\n"
    )?;
    writeln!(
        out,
        "| lane | compared | identical | inside judged tools | recorded member change | failures |"
    )?;
    writeln!(out, "|:---|---:|---:|---:|---:|---:|")?;
    let mut total = crate::outcome::RequestCounts::default();
    for (lane, c) in counts {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            Md(lane),
            c.compared,
            c.identical,
            c.inside_tools,
            c.recorded,
            c.failures
        )?;
        total.compared += c.compared;
        total.identical += c.identical;
        total.inside_tools += c.inside_tools;
        total.recorded += c.recorded;
        total.failures += c.failures;
    }
    writeln!(
        out,
        "| **total** | {} | {} | {} | {} | {} |",
        total.compared, total.identical, total.inside_tools, total.recorded, total.failures
    )?;
    let failing: Vec<_> = view.requests.iter().filter(|r| r.is_failure()).collect();
    if !failing.is_empty() {
        writeln!(out, "\n### Failing requests ({})\n", failing.len())?;
        for r in failing.iter().take(SUMMARY_LIST_LIMIT) {
            for i in &r.issues {
                writeln!(
                    out,
                    "- {} ({}): {}",
                    Code(&r.key()),
                    i.class.id(),
                    Md(&i.message)
                )?;
            }
        }
        write_more(out, SUMMARY_LIST_LIMIT, failing.len(), FAILURES_TXT)?;
    }
    let inside: Vec<_> = view
        .requests
        .iter()
        .filter(|r| r.class == crate::outcome::RequestClass::InsideTools)
        .collect();
    if !inside.is_empty() {
        writeln!(out, "\nDiffering inside judged tools ({}):\n", inside.len())?;
        for r in inside.iter().take(SUMMARY_INSIDE_TOOLS_LIMIT) {
            if let Some(d) = &r.difference {
                writeln!(
                    out,
                    "- {}: differs at {}, judged by its tool case",
                    Code(&r.key()),
                    Md(&d.describe())
                )?;
            }
        }
        write_more(out, SUMMARY_INSIDE_TOOLS_LIMIT, inside.len(), OUTCOMES_JSON)?;
    }
    Ok(())
}

/// The oracle's verdicts per lane, and the undeclared rejections.
fn write_rejected_md(out: &mut String, view: &View<'_>) -> fmt::Result {
    let rejected = &view.report.summary.rejected;
    writeln!(
        out,
        "\nOutputs the lane's oracle rejects (one rejected tool takes the whole request down; \
         a new one fails the run unless a `[[rejection]]` ledger entry declares it):\n"
    )?;
    writeln!(
        out,
        "| lane | old rejected | new rejected | declared | undeclared |"
    )?;
    writeln!(out, "|:---|---:|---:|---:|---:|")?;
    let mut total = crate::outcome::Rejected::default();
    for (lane, r) in rejected {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            Md(lane),
            r.old,
            r.new,
            r.declared,
            r.new - r.declared
        )?;
        total.old += r.old;
        total.new += r.new;
        total.declared += r.declared;
    }
    writeln!(
        out,
        "| **total** | {} | {} | {} | {} |",
        total.old,
        total.new,
        total.declared,
        total.new - total.declared
    )?;
    let undeclared: Vec<_> = view
        .outcomes
        .iter()
        .filter(|o| o.undeclared_rejection())
        .collect();
    if !undeclared.is_empty() {
        writeln!(out, "\n## Rejected new outputs ({})\n", undeclared.len())?;
        for o in undeclared.iter().take(SUMMARY_LIST_LIMIT) {
            writeln!(
                out,
                "- {} ({}, {}): {}",
                Code(&o.key()),
                o.verdict.map_or("", crate::verdict::Verdict::id),
                Md(&o.new.outcome),
                o.new
                    .rejected_by
                    .iter()
                    .map(|r| Code(r).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )?;
        }
        write_more(out, SUMMARY_LIST_LIMIT, undeclared.len(), "failures.txt")?;
    }
    Ok(())
}

/// What each output lets the model send against the author's schema, per
/// lane (old and new), and the new narrowings and silent widenings no
/// ledger entry declares.
fn write_semantic_md(out: &mut String, view: &View<'_>) -> fmt::Result {
    let semantic = &view.report.summary.semantic;
    if semantic.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "\nSemantic classes on instances of the author's schema (old → new; a narrowing of a \
         shaped tool or a silent widening fails the run unless a `[[narrowing]]`/`[[widening]]` \
         ledger entry declares it):\n"
    )?;
    writeln!(
        out,
        "| lane | preserved | widened | silent | narrowed | unjudged | declared | undeclared |"
    )?;
    writeln!(out, "|:---|---:|---:|---:|---:|---:|---:|---:|")?;
    let n = |m: &BTreeMap<String, usize>, c: SemanticClass| m.get(c.id()).copied().unwrap_or(0);
    for (lane, c) in semantic {
        writeln!(
            out,
            "| {} | {} → {} | {} → {} | {} | {} → {} | {} → {} | {} | {} |",
            Md(lane),
            n(&c.old, SemanticClass::Preserved),
            n(&c.new, SemanticClass::Preserved),
            n(&c.old, SemanticClass::Widened),
            n(&c.new, SemanticClass::Widened),
            c.new_silent,
            n(&c.old, SemanticClass::Narrowed),
            n(&c.new, SemanticClass::Narrowed),
            n(&c.old, SemanticClass::Unjudged),
            n(&c.new, SemanticClass::Unjudged),
            c.new_declared,
            c.new_undeclared,
        )?;
    }
    let undeclared: Vec<_> = view
        .outcomes
        .iter()
        .filter_map(|o| o.undeclared_semantic().map(|c| (o, c)))
        .collect();
    if !undeclared.is_empty() {
        writeln!(
            out,
            "\n## Undeclared changes of meaning ({})\n",
            undeclared.len()
        )?;
        for (o, class) in undeclared.iter().take(SUMMARY_LIST_LIMIT) {
            let s = o.new.semantic.as_ref();
            let witness = s.and_then(|s| match class {
                SemanticClass::Narrowed => s.narrowed.as_ref(),
                _ => s.widened.as_ref(),
            });
            let kinds = s.map_or_else(String::new, |s| {
                s.narrowed_kinds
                    .iter()
                    .map(|k| k.id())
                    .collect::<Vec<_>>()
                    .join(", ")
            });
            writeln!(
                out,
                "- {} ({}{}{}): witness {}",
                Code(&o.key()),
                class.id(),
                if kinds.is_empty() { "" } else { ": " },
                Md(&kinds),
                Code(&witness.map_or_else(String::new, |w| clip(&w.to_string(), 200)))
            )?;
        }
        write_more(out, SUMMARY_LIST_LIMIT, undeclared.len(), "failures.txt")?;
    }
    Ok(())
}

/// At most `max` characters of `s`, with an ellipsis when cut.
fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_owned(),
    }
}

// ---------------------------------------------------------------------------
// Markup escaping (junit.xml, index.html)

/// Text escaped for XML and HTML, in element content and attribute values
/// alike: `& < > " '` become references, tab/newline/carriage return become
/// character references when `attr` is set (so XML attribute normalization
/// keeps them), and other control characters (illegal in XML 1.0) are shown
/// as `\u{XXXX}`.
struct Esc<'a>(&'a str);
/// [`Esc`] for XML attribute values.
struct EscAttr<'a>(&'a str);

impl fmt::Display for Esc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        escape_markup(f, self.0, false)
    }
}

impl fmt::Display for EscAttr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        escape_markup(f, self.0, true)
    }
}

fn escape_markup(f: &mut fmt::Formatter<'_>, s: &str, attr: bool) -> fmt::Result {
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let replacement = match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '"' => "&quot;",
            '\'' => "&#39;",
            '\t' if attr => "&#9;",
            '\n' if attr => "&#10;",
            '\r' if attr => "&#13;",
            '\t' | '\n' | '\r' => continue,
            c if c.is_control() || c == '\u{FFFE}' || c == '\u{FFFF}' => "",
            _ => continue,
        };
        f.write_str(&s[start..i])?;
        if replacement.is_empty() {
            write!(f, "\\u{{{:04X}}}", u32::from(c))?;
        } else {
            f.write_str(replacement)?;
        }
        start = i + c.len_utf8();
    }
    f.write_str(&s[start..])
}

// ---------------------------------------------------------------------------
// junit.xml

fn junit_xml(view: &View<'_>) -> String {
    let mut out = String::new();
    write_junit_xml(&mut out, view).expect("formatting into a String cannot fail");
    out
}

/// The `<failure>` message (one line) and body (everything known) of a
/// failing case.
fn junit_failure(o: &CaseOutcome) -> (String, String, &'static str) {
    let mut message = Vec::new();
    let mut body = String::new();
    let kind = if o.class.is_failure() {
        o.class.id()
    } else if o.violations.is_empty() && !o.pin_breaks.is_empty() {
        "pin"
    } else {
        "violation"
    };
    match o.class {
        Class::Unexpected => {
            let tags = if o.tags.is_empty() {
                "no change tags".to_owned()
            } else {
                o.tags.join(", ")
            };
            message.push(format!("unexpected divergence: {tags}"));
        }
        Class::Errored => {
            let details = side_details(o);
            message.push(if details.is_empty() {
                "errored".to_owned()
            } else {
                format!("errored: {}", details.join("; "))
            });
        }
        _ => {}
    }
    for b in &o.pin_breaks {
        message.push(b.message.clone());
    }
    if let Some(class) = o.undeclared_semantic() {
        let s = o.new.semantic.as_ref();
        let witness = s.and_then(|s| match class {
            SemanticClass::Narrowed => s.narrowed.as_ref(),
            _ => s.widened.as_ref(),
        });
        message.push(format!(
            "{} new output, undeclared (witness {})",
            if class == SemanticClass::Narrowed {
                "narrowed"
            } else {
                "silently widened"
            },
            witness.map_or_else(String::new, |w| clip(&w.to_string(), 200))
        ));
    }
    for v in sorted_refs(&o.violations) {
        message.push(format!(
            "{} violated ({}): {}",
            v.invariant,
            v.pipeline,
            first_line(&v.message)
        ));
    }
    let _ = writeln!(body, "class: {}", o.class.id());
    for tag in &o.tags {
        let _ = writeln!(body, "tag: {tag}");
    }
    for (which, side) in [("old", &o.old), ("new", &o.new)] {
        let _ = writeln!(
            body,
            "{which}: {} {} sha256={}",
            side.pipeline, side.outcome, side.sha256
        );
        if let Some(d) = &side.detail {
            let _ = writeln!(body, "{which} detail: {d}");
        }
    }
    for v in sorted_refs(&o.violations) {
        let _ = writeln!(
            body,
            "violation {} ({}):\n{}",
            v.invariant, v.pipeline, v.message
        );
    }
    if let Some(wire) = &o.wire {
        body.push_str("diff:\n");
        body.push_str(&wire.unified);
        if !wire.unified.ends_with('\n') {
            body.push('\n');
        }
    }
    (message.join("; "), body, kind)
}

fn write_junit_xml(out: &mut String, view: &View<'_>) -> fmt::Result {
    let tests = view.outcomes.len() + view.unused.len() + view.requests.len();
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="wireshape" tests="{tests}" failures="{}">"#,
        view.failures()
    )?;
    let mut i = 0;
    for lane in view.lanes.keys() {
        let start = i;
        while i < view.outcomes.len() && view.outcomes[i].lane == *lane {
            i += 1;
        }
        let cases = &view.outcomes[start..i];
        let failures = cases.iter().filter(|o| o.is_failure()).count();
        writeln!(
            out,
            r#"  <testsuite name="{}" tests="{}" failures="{failures}">"#,
            EscAttr(lane),
            cases.len()
        )?;
        for o in cases {
            write!(
                out,
                r#"    <testcase classname="{}" name="{}""#,
                EscAttr(&o.lane),
                EscAttr(&o.case)
            )?;
            if o.is_failure() {
                let (message, body, kind) = junit_failure(o);
                writeln!(
                    out,
                    r#"><failure message="{}" type="{kind}">{}</failure></testcase>"#,
                    EscAttr(&message),
                    Esc(&body)
                )?;
            } else {
                writeln!(out, "/>")?;
            }
        }
        writeln!(out, "  </testsuite>")?;
    }
    if !view.requests.is_empty() {
        writeln!(
            out,
            r#"  <testsuite name="requests" tests="{}" failures="{}">"#,
            view.requests.len(),
            view.failing_requests
        )?;
        for r in &view.requests {
            write!(
                out,
                r#"    <testcase classname="requests.{}" name="{}""#,
                EscAttr(&r.lane),
                EscAttr(&format!("{}@{}", r.catalog, r.kind.id()))
            )?;
            let Some(first) = r.issues.first() else {
                writeln!(out, "/>")?;
                continue;
            };
            let mut body = format!("class: {}\n", r.class.id());
            for i in &r.issues {
                let _ = writeln!(body, "{}: {}", i.class.id(), i.message);
            }
            for (which, side) in [("old", &r.old), ("new", &r.new)] {
                let _ = writeln!(
                    body,
                    "{which}: {} {} bytes sha256={}",
                    side.pipeline, side.bytes, side.sha256
                );
            }
            writeln!(
                out,
                r#"><failure message="{}" type="{}">{}</failure></testcase>"#,
                EscAttr(&first.message),
                first.class.id(),
                Esc(&body)
            )?;
        }
        writeln!(out, "  </testsuite>")?;
    }
    if !view.unused.is_empty() {
        writeln!(
            out,
            r#"  <testsuite name="ledger" tests="{0}" failures="{0}">"#,
            view.unused.len()
        )?;
        for issue in &view.unused {
            writeln!(
                out,
                r#"    <testcase classname="ledger" name="{}"><failure message="{}" type="unused-ledger-entry">{}</failure></testcase>"#,
                EscAttr(&format!("{}#{}", issue.file, issue.index)),
                EscAttr(first_line(&issue.message)),
                Esc(&format!("class: {}\n{}\n", issue.class, issue.message))
            )?;
        }
        writeln!(out, "  </testsuite>")?;
    }
    writeln!(out, "</testsuites>")
}

// ---------------------------------------------------------------------------
// index.html

fn index_html(view: &View<'_>) -> String {
    let mut out = String::new();
    write_index_html(&mut out, view).expect("formatting into a String cannot fail");
    out
}

const HTML_STYLE: &str = r#"
:root{--bg:#fff;--fg:#1f2328;--muted:#656d76;--line:#d0d7de;--soft:#f6f8fa;--head:#fbfcfd;
--link:#0969da;--add-bg:#dafbe1;--add-fg:#116329;--del-bg:#ffebe9;--del-fg:#a40e26;--hunk:#ddf4ff;
--identical:#6e7781;--reordered:#9a6700;--intended:#0969da;--unexpected:#cf222e;--errored:#8250df;--ok:#1a7f37;
--hh:52px;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#8d96a0;--line:#30363d;
--soft:#161b22;--head:#11161d;--link:#4493f8;--add-bg:#12261e;--add-fg:#7ee787;--del-bg:#2d1214;--del-fg:#ffa198;
--hunk:#0c2d6b;--identical:#8d96a0;--reordered:#d29922;--intended:#4493f8;--unexpected:#f85149;--errored:#a371f7;--ok:#3fb950}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",
"Noto Sans",Helvetica,Arial,sans-serif}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace;font-size:12px}
a{color:var(--link);text-decoration:none}a:hover{text-decoration:underline}
header.top{position:sticky;top:0;z-index:10;height:var(--hh);display:flex;align-items:center;gap:14px;
padding:0 24px;background:var(--head);border-bottom:1px solid var(--line)}
header.top h1{font-size:16px;margin:0;font-weight:600;white-space:nowrap}
header.top h1 code{font-size:14px;background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:1px 6px}
header.top nav{margin-left:auto;display:flex;gap:14px;font-size:13px}
.verdict{font-weight:600;border-radius:999px;padding:2px 10px;font-size:13px;color:#fff;white-space:nowrap}
.verdict.clean{background:var(--ok)}.verdict.fail{background:var(--unexpected)}
main{padding:8px 24px 32px;max-width:1600px}
section{margin-top:22px}
h2{font-size:15px;margin:0 0 8px;font-weight:600}
h2 .n{color:var(--muted);font-weight:400}
.stats{display:flex;flex-wrap:wrap;gap:8px;margin-top:14px}
.stat{border:1px solid var(--line);border-radius:6px;padding:6px 12px;min-width:110px;background:var(--soft)}
.stat b{display:block;font-size:18px}.stat span{color:var(--muted);font-size:12px}
.stat.bad b{color:var(--unexpected)}.stat.warn b{color:var(--reordered)}
table{border-collapse:collapse;font-size:13px}
th,td{border-bottom:1px solid var(--line);padding:4px 10px;text-align:left;vertical-align:baseline}
th{background:var(--soft);font-weight:600;white-space:nowrap}
table.matrix td.n,table.matrix th.n{text-align:right;font-variant-numeric:tabular-nums;min-width:84px}
table.matrix tr.total td{font-weight:600;border-top:2px solid var(--line)}
td.zero{color:var(--muted);opacity:.55}
table.cases{width:100%}
table.cases thead th{position:sticky;top:var(--hh);z-index:5}
table.cases tbody tr:hover{background:var(--soft)}
td.case{word-break:break-all;min-width:220px}
.badge{display:inline-block;border-radius:999px;padding:0 8px;font-size:12px;font-weight:600;color:#fff;white-space:nowrap}
.badge.identical{background:var(--identical)}.badge.reordered{background:var(--reordered)}
.badge.intended{background:var(--intended)}.badge.unexpected{background:var(--unexpected)}
.badge.errored{background:var(--errored)}.badge.violation{background:var(--unexpected)}
.badge.unused{background:var(--unexpected)}.badge.stale{background:var(--reordered)}
.badge.fix{background:var(--identical)}.badge.regression{background:var(--unexpected)}
.badge.failed-closed-rejected{background:var(--reordered)}
.badge.preserved{background:var(--identical)}.badge.widened{background:var(--reordered)}
.badge.narrowed{background:var(--unexpected)}.badge.unjudged{background:var(--errored)}.badge.silent{background:var(--unexpected)}
.tag{display:inline-block;white-space:nowrap;background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:0 4px;margin:1px 2px 1px 0}
.muted{color:var(--muted)}
.filters{display:flex;gap:8px;align-items:center;margin-bottom:8px}
.filters input,.filters select{font:inherit;padding:4px 8px;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
.filters input{width:320px}
.note{border:1px solid var(--reordered);border-radius:6px;padding:6px 10px;background:var(--soft)}
details.case{border:1px solid var(--line);border-radius:6px;margin:6px 0;background:var(--bg)}
details.case>summary{cursor:pointer;padding:6px 10px;background:var(--soft);border-radius:6px;word-break:break-all}
details.case[open]>summary{border-bottom:1px solid var(--line);border-radius:6px 6px 0 0}
.body{padding:8px 10px}
.sides{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:10px}
.sides>div{min-width:0}
.sides h4,.body h4{margin:4px 0;font-size:12px;font-weight:600;color:var(--muted)}
pre{margin:0;padding:8px;background:var(--soft);border:1px solid var(--line);border-radius:6px;overflow:auto;max-height:480px;white-space:pre}
pre.diff span{display:block}
pre.diff .add{background:var(--add-bg);color:var(--add-fg)}
pre.diff .del{background:var(--del-bg);color:var(--del-fg)}
pre.diff .hunk{background:var(--hunk);color:var(--muted)}
pre.diff .hdr{color:var(--muted);font-weight:600}
ul.plain{margin:4px 0;padding-left:18px}
p.v{margin:6px 0 4px}
.sides p{margin:4px 0}
section,details.case{scroll-margin-top:calc(var(--hh) + 8px)}
.body>p{margin:0 0 6px}
footer{padding:12px 24px 24px;color:var(--muted);font-size:12px;border-top:1px solid var(--line)}
"#;

const HTML_SCRIPT: &str = r"
(function(){
var q=document.getElementById('f-text'),lane=document.getElementById('f-lane'),cls=document.getElementById('f-class'),count=document.getElementById('f-count');
var rows=[].slice.call(document.querySelectorAll('#case-table tbody tr'));
var dets=[].slice.call(document.querySelectorAll('#diffs details.case'));
var rt=rows.map(function(e){return e.textContent.toLowerCase();});
var dt=dets.map(function(e){return e.querySelector('summary').textContent.toLowerCase();});
function ok(e,t,txt){var l=lane.value,c=cls.value;
return (!l||e.getAttribute('data-lane')===l)&&(!c||e.getAttribute('data-class')===c||(c==='failure'&&e.hasAttribute('data-failure')))&&(!t||txt.indexOf(t)>=0);}
function apply(){var t=q.value.toLowerCase(),n=0;
rows.forEach(function(e,i){var s=ok(e,t,rt[i]);e.hidden=!s;if(s)n++;});
dets.forEach(function(e,i){e.hidden=!ok(e,t,dt[i]);});
count.textContent=n+' of '+rows.length+' shown';}
q.addEventListener('input',apply);lane.addEventListener('change',apply);cls.addEventListener('change',apply);
[].forEach.call(document.querySelectorAll('a[data-filter-class]'),function(a){a.addEventListener('click',function(){
lane.value=a.getAttribute('data-filter-lane')||'';cls.value=a.getAttribute('data-filter-class')||'';q.value='';apply();});});
document.getElementById('filters').hidden=false;apply();
})();
";

fn badge(out: &mut String, class: &str) -> fmt::Result {
    write!(out, r#"<span class="badge {0}">{0}</span>"#, Esc(class))
}

fn write_index_html(out: &mut String, view: &View<'_>) -> fmt::Result {
    let r = view.report;
    let failures = view.failures();
    let verdict = if failures == 0 {
        "clean".to_owned()
    } else {
        plural(failures, "failure", "failures")
    };
    // Failures first, then the other divergent cases; each by (lane, case).
    let listed: Vec<&CaseOutcome> = view
        .outcomes
        .iter()
        .filter(|o| o.is_failure())
        .chain(
            view.outcomes
                .iter()
                .filter(|o| !o.is_failure() && o.class != Class::Identical),
        )
        .copied()
        .collect();

    writeln!(out, "<!DOCTYPE html>")?;
    writeln!(out, r#"<html lang="en">"#)?;
    writeln!(out, "<head>")?;
    writeln!(out, r#"<meta charset="utf-8">"#)?;
    writeln!(
        out,
        r#"<meta name="viewport" content="width=device-width, initial-scale=1">"#
    )?;
    writeln!(
        out,
        "<title>wireshape: {} → {} ({})</title>",
        Esc(&r.old),
        Esc(&r.new),
        Esc(&verdict)
    )?;
    writeln!(out, "<style>{HTML_STYLE}</style>")?;
    writeln!(out, "</head>")?;
    writeln!(out, "<body>")?;
    writeln!(out, r#"<header class="top">"#)?;
    writeln!(
        out,
        "<h1>wireshape <code>{}</code> → <code>{}</code></h1>",
        Esc(&r.old),
        Esc(&r.new)
    )?;
    writeln!(
        out,
        r#"<span class="verdict {}">{}</span>"#,
        if failures == 0 { "clean" } else { "fail" },
        Esc(&verdict)
    )?;
    write!(
        out,
        r##"<nav><a href="#matrix">Matrix</a><a href="#cases">Cases</a><a href="#diffs">Diffs</a>"##
    )?;
    if !r.ledger_issues.is_empty() || !r.ledger_use.is_empty() {
        write!(out, r##"<a href="#ledger">Ledger</a>"##)?;
    }
    if !r.unusable.is_empty() {
        write!(out, r##"<a href="#unusable">Unusable</a>"##)?;
    }
    writeln!(out, "</nav>")?;
    writeln!(out, "</header>")?;
    writeln!(out, "<main>")?;

    // Headline numbers.
    writeln!(out, r#"<div class="stats">"#)?;
    let stats = [
        ("cases", view.outcomes.len(), ""),
        ("lanes", view.lanes.len(), ""),
        ("failing cases", view.failing, "bad"),
        ("invariant violations", view.violations, "bad"),
        ("unused ledger entries", view.unused.len(), "bad"),
        ("stale ledger entries", view.stale.len(), "warn"),
        ("unusable corpus files", r.unusable.len(), "warn"),
    ];
    for (label, n, tone) in stats {
        let tone = if n == 0 { "" } else { tone };
        writeln!(
            out,
            r#"<div class="stat {tone}"><b>{n}</b><span>{label}</span></div>"#
        )?;
    }
    writeln!(
        out,
        r#"<div class="stat {}"><b>{}</b><span>exit code</span></div>"#,
        if view.exit_code() == 0 { "" } else { "bad" },
        view.exit_code()
    )?;
    writeln!(out, "</div>")?;

    // Lane × class matrix.
    writeln!(out, r#"<section id="matrix">"#)?;
    writeln!(out, "<h2>Lanes × classes</h2>")?;
    writeln!(out, r#"<table class="matrix">"#)?;
    write!(out, "<thead><tr><th>lane</th>")?;
    for c in Class::ALL {
        write!(out, r#"<th class="n">{}</th>"#, c.id())?;
    }
    writeln!(out, r#"<th class="n">total</th></tr></thead>"#)?;
    writeln!(out, "<tbody>")?;
    let cell = |out: &mut String, lane: &str, class: Class, n: usize| -> fmt::Result {
        if n == 0 {
            write!(out, r#"<td class="n zero">0</td>"#)
        } else if class == Class::Identical {
            write!(out, r#"<td class="n">{n}</td>"#)
        } else {
            write!(
                out,
                r##"<td class="n"><a href="#cases" data-filter-lane="{}" data-filter-class="{}">{n}</a></td>"##,
                Esc(lane),
                class.id()
            )
        }
    };
    for (lane, counts) in &view.lanes {
        write!(out, r#"<tr><td class="mono">{}</td>"#, Esc(lane))?;
        for (&c, &n) in Class::ALL.iter().zip(counts) {
            cell(out, lane, c, n)?;
        }
        writeln!(
            out,
            r#"<td class="n">{}</td></tr>"#,
            counts.iter().sum::<usize>()
        )?;
    }
    write!(out, r#"<tr class="total"><td>total</td>"#)?;
    for &c in Class::ALL {
        cell(out, "", c, view.class_total(c))?;
    }
    writeln!(out, r#"<td class="n">{}</td></tr>"#, view.outcomes.len())?;
    writeln!(out, "</tbody></table>")?;
    writeln!(
        out,
        r#"<p class="muted">Identical cases appear only as counts; see <code>identical.txt</code>.</p>"#
    )?;
    writeln!(out, "</section>")?;

    // Oracle verdicts per lane.
    writeln!(out, r#"<section id="rejected">"#)?;
    writeln!(out, "<h2>Rejected by the oracle</h2>")?;
    writeln!(
        out,
        r#"<table class="matrix"><thead><tr><th>lane</th><th class="n">old rejected</th><th class="n">new rejected</th><th class="n">declared</th><th class="n">undeclared</th></tr></thead><tbody>"#
    )?;
    for (lane, r) in &view.report.summary.rejected {
        writeln!(
            out,
            r#"<tr><td class="mono">{}</td><td class="n">{}</td><td class="n">{}</td><td class="n">{}</td><td class="n">{}</td></tr>"#,
            Esc(lane),
            r.old,
            r.new,
            r.declared,
            r.new - r.declared
        )?;
    }
    writeln!(out, "</tbody></table>")?;
    writeln!(
        out,
        r#"<p class="muted">A rejected new output fails the run (shaped, failed closed, or shared with old) unless a <code>[[rejection]]</code> ledger entry declares it with a reason.</p>"#
    )?;
    writeln!(out, "</section>")?;
    write_semantic_html(out, view)?;

    // Case table.
    writeln!(out, r#"<section id="cases">"#)?;
    writeln!(
        out,
        r#"<h2>Divergent and failing cases <span class="n">({})</span></h2>"#,
        listed.len()
    )?;
    writeln!(out, r#"<div class="filters" id="filters" hidden>"#)?;
    writeln!(
        out,
        r#"<input type="search" id="f-text" placeholder="Filter by lane, case, tag, reason…" aria-label="filter text">"#
    )?;
    write!(
        out,
        r#"<select id="f-lane" aria-label="lane"><option value="">all lanes</option>"#
    )?;
    for lane in view.lanes.keys() {
        write!(out, r#"<option value="{0}">{0}</option>"#, Esc(lane))?;
    }
    writeln!(out, "</select>")?;
    write!(
        out,
        r#"<select id="f-class" aria-label="class"><option value="">all classes</option><option value="failure">failures</option>"#
    )?;
    for c in Class::ALL.iter().filter(|c| **c != Class::Identical) {
        write!(out, r#"<option value="{0}">{0}</option>"#, c.id())?;
    }
    writeln!(out, "</select>")?;
    writeln!(out, r#"<span class="muted" id="f-count"></span>"#)?;
    writeln!(out, "</div>")?;
    if listed.is_empty() {
        writeln!(
            out,
            r#"<p class="muted">No divergent or failing cases: every case is identical.</p>"#
        )?;
    } else {
        writeln!(out, r#"<table class="cases" id="case-table">"#)?;
        writeln!(
            out,
            "<thead><tr><th>lane</th><th>case</th><th>class</th><th>tags</th><th>ledger</th><th>violations</th></tr></thead>"
        )?;
        writeln!(out, "<tbody>")?;
        for (i, o) in listed.iter().enumerate() {
            write_case_row(out, i, o)?;
        }
        writeln!(out, "</tbody></table>")?;
    }
    writeln!(out, "</section>")?;

    // Per-case details.
    writeln!(out, r#"<section id="diffs">"#)?;
    writeln!(
        out,
        r#"<h2>Side-by-side diffs <span class="n">({})</span></h2>"#,
        listed.len().min(HTML_DIFF_LIMIT)
    )?;
    if listed.len() > HTML_DIFF_LIMIT {
        writeln!(
            out,
            r#"<p class="note">{} divergent or failing cases: details are included for the first {HTML_DIFF_LIMIT} only (failures first). The rest are in the table above, <code>divergences.jsonl</code> and <code>outcomes.json</code>.</p>"#,
            listed.len()
        )?;
    }
    if listed.is_empty() {
        writeln!(out, r#"<p class="muted">Nothing to show.</p>"#)?;
    }
    for (i, o) in listed.iter().take(HTML_DIFF_LIMIT).enumerate() {
        write_case_details(out, i, o)?;
    }
    writeln!(out, "</section>")?;

    write_ledger_html(out, view)?;

    // Unusable corpus files.
    if !r.unusable.is_empty() {
        writeln!(out, r#"<section id="unusable">"#)?;
        writeln!(
            out,
            r#"<h2>Unusable corpus files <span class="n">({})</span></h2>"#,
            r.unusable.len()
        )?;
        writeln!(
            out,
            "<table><thead><tr><th>path</th><th>reason</th></tr></thead><tbody>"
        )?;
        for (path, reason) in &r.unusable {
            writeln!(
                out,
                r#"<tr><td class="mono">{}</td><td>{}</td></tr>"#,
                Esc(path),
                Esc(reason)
            )?;
        }
        writeln!(out, "</tbody></table>")?;
        writeln!(out, "</section>")?;
    }

    writeln!(out, "</main>")?;
    writeln!(
        out,
        "<footer>Exit code {}: {}. Generated by wireshape; the other files of this report directory: <code>summary.md</code>, <code>junit.xml</code>, <code>divergences.jsonl</code>, <code>outcomes.json</code>, <code>cases.json</code>, <code>run.json</code> and one <code>*.txt</code> list per class.</footer>",
        view.exit_code(),
        Esc(exit_code_meaning(view.exit_code()))
    )?;
    writeln!(out, "<script>{HTML_SCRIPT}</script>")?;
    writeln!(out, "</body>")?;
    writeln!(out, "</html>")
}

fn data_attrs(out: &mut String, o: &CaseOutcome) -> fmt::Result {
    write!(
        out,
        r#" data-lane="{}" data-class="{}""#,
        Esc(&o.lane),
        o.class.id()
    )?;
    if o.is_failure() {
        write!(out, r#" data-failure="""#)?;
    }
    Ok(())
}

fn write_case_row(out: &mut String, i: usize, o: &CaseOutcome) -> fmt::Result {
    write!(out, "<tr")?;
    data_attrs(out, o)?;
    write!(
        out,
        r#"><td class="mono">{}</td><td class="case mono">"#,
        Esc(&o.lane)
    )?;
    if i < HTML_DIFF_LIMIT {
        write!(out, r##"<a href="#d-{i}">{}</a>"##, Esc(&o.case))?;
    } else {
        write!(out, "{}", Esc(&o.case))?;
    }
    write!(out, "</td><td>")?;
    badge(out, o.class.id())?;
    if let Some(v) = o.verdict {
        // The oracle's view: fix, regression, still-rejected or
        // failed-closed-rejected.
        write!(out, " ")?;
        badge(out, v.id())?;
    }
    if let Some(c) = o.undeclared_semantic() {
        // A change of meaning no ledger entry declares.
        write!(out, " ")?;
        badge(out, c.id())?;
    }
    write!(out, "</td><td>")?;
    for tag in &o.tags {
        write!(out, r#"<code class="tag">{}</code>"#, Esc(tag))?;
    }
    write!(out, "</td><td>")?;
    for (n, m) in o.ledger.iter().enumerate() {
        if n > 0 {
            write!(out, "<br>")?;
        }
        // The class names the entry; its reason is one hover away (and in
        // the case's details below), so the table stays one line a case.
        write!(
            out,
            r#"<span title="{}#{}: {}"><b>{}</b></span>"#,
            Esc(&m.file),
            m.index,
            Esc(&m.reason),
            Esc(&m.class)
        )?;
    }
    write!(out, "</td><td>")?;
    for (n, v) in sorted_refs(&o.violations).into_iter().enumerate() {
        if n > 0 {
            write!(out, "<br>")?;
        }
        write!(
            out,
            r#"<b>{}</b> <span class="muted">({})</span>: {}"#,
            Esc(&v.invariant),
            Esc(&v.pipeline),
            Esc(first_line(&v.message))
        )?;
    }
    writeln!(out, "</td></tr>")
}

fn write_semantic_html(out: &mut String, view: &View<'_>) -> fmt::Result {
    let semantic = &view.report.summary.semantic;
    if semantic.is_empty() {
        return Ok(());
    }
    writeln!(out, r#"<section id="semantic">"#)?;
    writeln!(out, "<h2>Semantic classes</h2>")?;
    writeln!(
        out,
        r#"<table class="matrix"><thead><tr><th>lane</th><th class="n">preserved</th><th class="n">widened</th><th class="n">silent</th><th class="n">narrowed</th><th class="n">unjudged</th><th class="n">declared</th><th class="n">undeclared</th></tr></thead><tbody>"#
    )?;
    let n = |m: &BTreeMap<String, usize>, c: SemanticClass| m.get(c.id()).copied().unwrap_or(0);
    for (lane, c) in semantic {
        write!(out, r#"<tr><td class="mono">{}</td>"#, Esc(lane))?;
        let old_new = |out: &mut String, class| {
            write!(
                out,
                r#"<td class="n">{} → {}</td>"#,
                n(&c.old, class),
                n(&c.new, class)
            )
        };
        old_new(out, SemanticClass::Preserved)?;
        old_new(out, SemanticClass::Widened)?;
        write!(out, r#"<td class="n">{}</td>"#, c.new_silent)?;
        old_new(out, SemanticClass::Narrowed)?;
        old_new(out, SemanticClass::Unjudged)?;
        writeln!(
            out,
            r#"<td class="n">{}</td><td class="n">{}</td></tr>"#,
            c.new_declared, c.new_undeclared
        )?;
    }
    writeln!(out, "</tbody></table>")?;
    writeln!(
        out,
        r#"<p class="muted">Old → new outputs per class, judged on instances generated from the author's schema. A narrowing of a shaped tool, or a widening no description tells the model about (silent), fails the run unless a <code>[[narrowing]]</code>/<code>[[widening]]</code> ledger entry declares it; each case below shows its witness instance.</p>"#
    )?;
    writeln!(out, "</section>")
}

/// One side's semantic verdict and witness.
fn write_side_semantic(out: &mut String, side: &Side) -> fmt::Result {
    let Some(s) = &side.semantic else {
        return Ok(());
    };
    write!(out, "<h4>semantic: ")?;
    badge(out, s.class.id())?;
    if s.silent {
        write!(out, " ")?;
        badge(out, "silent")?;
    }
    for k in &s.narrowed_kinds {
        write!(out, r#" <code class="tag">{}</code>"#, k.id())?;
    }
    writeln!(
        out,
        r#" <span class="muted">({} instances)</span></h4>"#,
        s.instances
    )?;
    for (label, w) in [
        (
            "narrowed: the author's schema accepts, this output refuses",
            &s.narrowed,
        ),
        (
            "widened: the author's schema refuses, this output accepts",
            &s.widened,
        ),
    ] {
        if let Some(w) = w {
            let pretty = serde_json::to_string_pretty(w).unwrap_or_default();
            writeln!(
                out,
                r#"<p class="muted">{label}</p><pre>{}</pre>"#,
                Esc(&pretty)
            )?;
        }
    }
    if let Some(r) = &s.reason {
        writeln!(out, r#"<p class="muted">{}</p>"#, Esc(r))?;
    }
    Ok(())
}

fn write_side_head(out: &mut String, which: &str, side: &Side) -> fmt::Result {
    write!(
        out,
        r#"<h4>{which}: <code>{}</code> · {} · <span class="mono" title="sha256 {}">{}</span></h4>"#,
        Esc(&side.pipeline),
        Esc(&side.outcome),
        Esc(&side.sha256),
        Esc(side.sha256.get(..12).unwrap_or(&side.sha256))
    )
}

fn write_case_details(out: &mut String, i: usize, o: &CaseOutcome) -> fmt::Result {
    write!(out, r#"<details class="case" id="d-{i}""#)?;
    data_attrs(out, o)?;
    write!(out, "><summary>")?;
    badge(out, o.class.id())?;
    if !o.violations.is_empty() {
        write!(out, " ")?;
        badge(out, "violation")?;
    }
    writeln!(
        out,
        r#" <span class="mono">{}::{}</span></summary>"#,
        Esc(&o.lane),
        Esc(&o.case)
    )?;
    writeln!(out, r#"<div class="body">"#)?;
    if !o.tags.is_empty() {
        write!(out, "<p>")?;
        for tag in &o.tags {
            write!(out, r#"<code class="tag">{}</code>"#, Esc(tag))?;
        }
        writeln!(out, "</p>")?;
    }
    if !o.ledger.is_empty() {
        writeln!(out, "<h4>ledger</h4><ul class=\"plain\">")?;
        for m in &o.ledger {
            writeln!(
                out,
                "<li><code>{}#{}</code> <b>{}</b>: {}</li>",
                Esc(&m.file),
                m.index,
                Esc(&m.class),
                Esc(&m.reason)
            )?;
        }
        writeln!(out, "</ul>")?;
    }
    if !o.violations.is_empty() {
        writeln!(out, "<h4>invariant violations</h4>")?;
        for v in sorted_refs(&o.violations) {
            writeln!(
                out,
                r#"<p class="v"><b>{}</b> <span class="muted">({})</span></p><pre>{}</pre>"#,
                Esc(&v.invariant),
                Esc(&v.pipeline),
                Esc(&v.message)
            )?;
        }
    }
    writeln!(out, r#"<div class="sides">"#)?;
    for (which, side, text) in [
        ("old", &o.old, o.wire.as_ref().map(|w| w.old.as_str())),
        ("new", &o.new, o.wire.as_ref().map(|w| w.new.as_str())),
    ] {
        writeln!(out, "<div>")?;
        write_side_head(out, which, side)?;
        match text.or(side.detail.as_deref()) {
            Some(body) => writeln!(out, "<pre>{}</pre>", Esc(body))?,
            None => writeln!(out, r#"<p class="muted">no wire output recorded</p>"#)?,
        }
        if let (Some(_), Some(d)) = (text, &side.detail) {
            writeln!(out, r#"<p class="muted">{}</p>"#, Esc(d))?;
        }
        write_side_semantic(out, side)?;
        if !side.degradations.is_empty() {
            writeln!(
                out,
                r#"<h4>degradations ({})</h4><ul class="plain mono">"#,
                side.degradations.len()
            )?;
            for d in &side.degradations {
                writeln!(out, "<li>{}</li>", Esc(&d.to_string()))?;
            }
            writeln!(out, "</ul>")?;
        }
        writeln!(out, "</div>")?;
    }
    writeln!(out, "</div>")?;
    if let Some(wire) = &o.wire {
        writeln!(out, "<h4>unified diff</h4>")?;
        write!(out, r#"<pre class="diff">"#)?;
        for line in wire.unified.lines() {
            let class = if line.starts_with("+++") || line.starts_with("---") {
                "hdr"
            } else if line.starts_with("@@") {
                "hunk"
            } else if line.starts_with('+') {
                "add"
            } else if line.starts_with('-') {
                "del"
            } else {
                "ctx"
            };
            write!(out, r#"<span class="{class}">{}"#, Esc(line))?;
            out.push_str("\n</span>");
        }
        writeln!(out, "</pre>")?;
    }
    writeln!(out, "</div>")?;
    writeln!(out, "</details>")
}

fn write_ledger_html(out: &mut String, view: &View<'_>) -> fmt::Result {
    let r = view.report;
    if r.ledger_issues.is_empty() && r.ledger_use.is_empty() {
        return Ok(());
    }
    writeln!(out, r#"<section id="ledger">"#)?;
    writeln!(
        out,
        r#"<h2>Ledger <span class="n">({} unused, {} stale)</span></h2>"#,
        view.unused.len(),
        view.stale.len()
    )?;
    if !r.ledger_issues.is_empty() {
        writeln!(
            out,
            "<table><thead><tr><th>issue</th><th>entry</th><th>class</th><th>message</th></tr></thead><tbody>"
        )?;
        for i in view.unused.iter().chain(&view.stale) {
            write!(out, "<tr><td>")?;
            badge(out, &i.kind)?;
            writeln!(
                out,
                r#"</td><td class="mono">{}#{}</td><td>{}</td><td>{}</td></tr>"#,
                Esc(&i.file),
                i.index,
                Esc(&i.class),
                Esc(&i.message)
            )?;
        }
        writeln!(out, "</tbody></table>")?;
        writeln!(
            out,
            r#"<p class="muted">Unused entries fail the run (remove them or fix their <code>case</code>); stale entries only warn.</p>"#
        )?;
    }
    if !r.ledger_use.is_empty() {
        writeln!(
            out,
            "<details><summary>All ledger entries ({})</summary>",
            r.ledger_use.len()
        )?;
        writeln!(
            out,
            r#"<table><thead><tr><th>entry</th><th>class</th><th class="n">uses</th></tr></thead><tbody>"#
        )?;
        for u in sorted_refs(&r.ledger_use) {
            writeln!(
                out,
                r#"<tr><td class="mono">{}#{}</td><td>{}</td><td class="n">{}</td></tr>"#,
                Esc(&u.file),
                u.index,
                Esc(&u.class),
                u.uses
            )?;
        }
        writeln!(out, "</tbody></table></details>")?;
    }
    writeln!(out, "</section>")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::degradation::{Action, Degradation};
    use crate::outcome::{LedgerMatch, LedgerTable, Violation, WirePair, merge_reports};

    const NASTY: &str = r#"weird#<&"'>"#;

    fn side(pipeline: &str, outcome: &str, sha: &str) -> Side {
        Side {
            pipeline: pipeline.to_owned(),
            outcome: outcome.to_owned(),
            detail: None,
            sha256: sha.repeat(64 / sha.len()),
            degradations: Vec::new(),
            rejected_by: Vec::new(),
            semantic: None,
        }
    }

    fn case(lane: &str, case: &str, class: Class, tags: &[&str]) -> CaseOutcome {
        CaseOutcome {
            lane: lane.to_owned(),
            case: case.to_owned(),
            class,
            tags: tags.iter().map(|t| (*t).to_owned()).collect(),
            ledger: Vec::new(),
            old: side("v0", "shaped", "a"),
            new: side("v1", "shaped", if class == Class::Identical { "a" } else { "b" }),
            violations: Vec::new(),
            wire: (class != Class::Identical).then(|| WirePair {
                old: "{\n  \"name\": \"t\",\n  \"pattern\": \"^a\"\n}".to_owned(),
                new: "{\n  \"name\": \"t\"\n}".to_owned(),
                unified: "--- v0\n+++ v1\n@@ -1,4 +1,3 @@\n {\n-  \"name\": \"t\",\n-  \"pattern\": \"^a\"\n+  \"name\": \"t\"\n }\n".to_owned(),
            }),
            verdict: None,
            pin_breaks: Vec::new(),
        }
    }

    fn ledger_match(file: &str, index: usize, class: &str) -> LedgerMatch {
        LedgerMatch {
            file: file.to_owned(),
            table: LedgerTable::Divergence,
            index,
            class: class.to_owned(),
            reason: "v1 drops `pattern` on purpose".to_owned(),
        }
    }

    fn lanes() -> Vec<String> {
        vec![
            "anthropic".to_owned(),
            "gemini".to_owned(),
            "openai".to_owned(),
        ]
    }

    /// Three lanes, every class, a nasty case name, a violation, an unused
    /// and a stale ledger entry, an unusable corpus file.
    fn sample_parts() -> (Vec<CaseOutcome>, Vec<LedgerUse>, Vec<LedgerIssue>) {
        let mut reordered = case(
            "anthropic",
            "a#order",
            Class::Reordered,
            &["order:properties"],
        );
        reordered
            .ledger
            .push(ledger_match("anthropic.toml", 0, "reordered"));
        let mut intended = case("gemini", "g#enum", Class::Intended, &["new:enum:rewritten"]);
        intended
            .ledger
            .push(ledger_match("gemini.toml", 0, "intended"));
        intended.new.degradations.push(Degradation {
            tool: "enum".to_owned(),
            lane: "gemini".to_owned(),
            path: "/properties/kind".to_owned(),
            keyword: "enum".to_owned(),
            action: Action::Rewritten,
            reason: "integer enum becomes string enum".to_owned(),
            rule: None,
            pass: "enum-strings".to_owned(),
            renamed_to: None,
        });
        let mut errored = case(
            "gemini",
            "g#boom",
            Class::Errored,
            &["outcome:shaped->errored"],
        );
        errored.new.outcome = "errored".to_owned();
        errored.new.detail = Some("panic: index out of bounds\nat passes/flatten.rs".to_owned());
        errored.wire = None;
        let mut violated = case("openai", "o#same", Class::Identical, &[]);
        violated.violations.push(Violation {
            invariant: "idempotence".to_owned(),
            pipeline: "v1".to_owned(),
            message: "shape(shape(x)) != shape(x)\nfirst: {}\nsecond: {\"type\":\"object\"}"
                .to_owned(),
        });
        let outcomes = vec![
            case("openai", "o#plain", Class::Identical, &[]),
            violated,
            case("anthropic", "a#same", Class::Identical, &[]),
            case(
                "anthropic",
                NASTY,
                Class::Unexpected,
                &["new:pattern:removed", "old:<b>&amp;:kept"],
            ),
            reordered,
            intended,
            errored,
            case("openai", "o#ok", Class::Identical, &[]),
        ];
        let uses = vec![
            LedgerUse {
                file: "anthropic.toml".to_owned(),
                table: LedgerTable::Divergence,
                index: 0,
                class: "reordered".to_owned(),
                uses: 1,
            },
            LedgerUse {
                file: "gemini.toml".to_owned(),
                table: LedgerTable::Divergence,
                index: 0,
                class: "intended".to_owned(),
                uses: 1,
            },
            LedgerUse {
                file: "gemini.toml".to_owned(),
                table: LedgerTable::Divergence,
                index: 1,
                class: "intended".to_owned(),
                uses: 0,
            },
        ];
        let issues = vec![LedgerIssue {
            file: "anthropic.toml".to_owned(),
            table: LedgerTable::Divergence,
            index: 0,
            class: "reordered".to_owned(),
            kind: "stale".to_owned(),
            message: "sha256 pin no longer matches the new bytes".to_owned(),
        }];
        (outcomes, uses, issues)
    }

    fn unusable() -> BTreeMap<String, String> {
        BTreeMap::from([(
            "corpus/broken.json".to_owned(),
            "corpus/broken.json:3:1: expected value".to_owned(),
        )])
    }

    fn report_from(
        outcomes: Vec<CaseOutcome>,
        uses: Vec<LedgerUse>,
        issues: Vec<LedgerIssue>,
    ) -> RunReport {
        let mut report = RunReport {
            old: "v0".to_owned(),
            new: "v1".to_owned(),
            plan: outcomes
                .iter()
                .map(|o| CasePlan {
                    lane: o.lane.clone(),
                    case: o.case.clone(),
                })
                .collect(),
            outcomes,
            ledger_use: uses,
            ledger_issues: issues,
            unusable: unusable(),
            summary: Summary::default(),
            sharded: false,
            fuzz: None,
            requests: Vec::new(),
        };
        report.finish(&lanes());
        report
    }

    fn sample() -> RunReport {
        let (outcomes, uses, issues) = sample_parts();
        report_from(outcomes, uses, issues)
    }

    fn meta(started_at: &str) -> RunMeta {
        RunMeta {
            wireshape_version: "0.1.0".to_owned(),
            started_at: started_at.to_owned(),
            duration_ms: 1234,
            command: vec!["wireshape".to_owned(), "run".to_owned()],
            old: "v0".to_owned(),
            new: "v1".to_owned(),
            lanes: lanes(),
            corpus: vec!["corpus".to_owned()],
            shard: None,
            fuzz: None,
        }
    }

    /// Every file of a report directory, name → bytes.
    fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    fs::read(e.path()).unwrap(),
                )
            })
            .collect()
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    fn read(dir: &Path, name: &str) -> String {
        fs::read_to_string(dir.join(name)).unwrap()
    }

    fn assert_same_files_except_run_json(a: &Path, b: &Path) {
        let (fa, fb) = (files(a), files(b));
        assert_eq!(fa.keys().collect::<Vec<_>>(), fb.keys().collect::<Vec<_>>());
        for (name, bytes) in &fa {
            if name != RUN_JSON {
                assert!(
                    bytes == &fb[name],
                    "{name} differs between {} and {}",
                    a.display(),
                    b.display()
                );
            }
        }
    }

    #[test]
    fn writing_the_same_report_twice_gives_identical_files_except_run_json() {
        // Arrange
        let tmp = tempfile::tempdir().unwrap();
        let report = sample();
        // Act
        let a = write_report(
            &tmp.path().join("a"),
            &report,
            &meta("2026-01-01T00:00:00Z"),
        )
        .unwrap();
        let b = write_report(
            &tmp.path().join("b"),
            &report,
            &meta("2026-02-02T00:00:00Z"),
        )
        .unwrap();
        // Assert
        assert_eq!(
            names(&a),
            [
                "cases.json",
                "divergences.jsonl",
                "errored.txt",
                "failures.txt",
                "identical.txt",
                "index.html",
                "intended.txt",
                "junit.xml",
                "outcomes.json",
                "reordered.txt",
                "run.json",
                "summary.md",
                "unexpected.txt",
                "violations.txt",
            ]
        );
        assert_same_files_except_run_json(&a, &b);
        assert_ne!(read(&a, RUN_JSON), read(&b, RUN_JSON));
        for (name, bytes) in files(&a) {
            assert!(
                bytes.is_empty() || bytes.ends_with(b"\n"),
                "{name} does not end with a newline"
            );
        }
    }

    #[test]
    fn read_report_of_write_report_round_trips_the_run_report_and_run_json() {
        let tmp = tempfile::tempdir().unwrap();
        let report = sample();
        let dir = write_report(&tmp.path().join("latest"), &report, &meta("t")).unwrap();
        let (back, back_meta) = read_report(&dir).unwrap();
        assert_eq!(back, report);
        assert_eq!(back_meta, meta("t"));
    }

    #[test]
    fn txt_lists_hold_one_sorted_key_per_line_per_class() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_report(&tmp.path().join("latest"), &sample(), &meta("t")).unwrap();
        assert_eq!(
            read(&dir, "identical.txt"),
            "anthropic::a#same\nopenai::o#ok\nopenai::o#plain\nopenai::o#same\n"
        );
        assert_eq!(read(&dir, "reordered.txt"), "anthropic::a#order\n");
        assert_eq!(read(&dir, "intended.txt"), "gemini::g#enum\n");
        assert_eq!(
            read(&dir, "unexpected.txt"),
            format!("anthropic::{NASTY}\n")
        );
        assert_eq!(read(&dir, "errored.txt"), "gemini::g#boom\n");
        assert_eq!(
            read(&dir, "violations.txt"),
            "openai::o#same idempotence v1\n"
        );
        assert_eq!(
            read(&dir, "failures.txt"),
            format!("anthropic::{NASTY}\ngemini::g#boom\nopenai::o#same\n")
        );
        let clean = report_from(Vec::new(), Vec::new(), Vec::new());
        let dir = write_report(&tmp.path().join("clean"), &clean, &meta("t")).unwrap();
        assert_eq!(read(&dir, "unexpected.txt"), "");
        assert_eq!(read(&dir, "failures.txt"), "");
    }

    #[test]
    fn divergences_jsonl_has_divergence_violation_ledger_and_unusable_lines_in_that_order() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_report(&tmp.path().join("latest"), &sample(), &meta("t")).unwrap();
        let text = read(&dir, DIVERGENCES_JSONL);
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let kinds: Vec<String> = lines
            .iter()
            .map(|l| {
                let key = l.get("case").or(l.get("file")).or(l.get("path")).unwrap();
                format!("{} {}", l["type"].as_str().unwrap(), key.as_str().unwrap())
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "divergence a#order",
                &format!("divergence {NASTY}"),
                "divergence g#boom",
                "divergence g#enum",
                "violation o#same",
                "ledger anthropic.toml",
                "ledger gemini.toml",
                "unusable corpus/broken.json",
            ]
        );
        let boom = text.lines().nth(2).unwrap();
        assert_eq!(
            boom,
            r#"{"type":"divergence","lane":"gemini","case":"g#boom","class":"errored","tags":["outcome:shaped->errored"],"ledger":[],"old":{"pipeline":"v0","outcome":"shaped","sha256":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},"new":{"pipeline":"v1","outcome":"errored","detail":"panic: index out of bounds\nat passes/flatten.rs","sha256":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"}}"#
        );
        assert_eq!(
            text.lines().last().unwrap(),
            r#"{"type":"unusable","path":"corpus/broken.json","reason":"corpus/broken.json:3:1: expected value"}"#
        );
    }

    #[test]
    fn latest_is_rotated_to_previous_and_only_one_previous_is_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let latest = tmp.path().join("latest");
        let mut reports = Vec::new();
        for new in ["v1", "v2", "v3"] {
            let mut r = sample();
            r.new = new.to_owned();
            write_report(&latest, &r, &meta(new)).unwrap();
            reports.push(r);
        }
        assert_eq!(names(tmp.path()), ["latest", "previous"]);
        assert_eq!(read_report(&latest).unwrap().0, reports[2]);
        assert_eq!(
            read_report(&tmp.path().join("previous")).unwrap().0,
            reports[1]
        );
    }

    #[test]
    fn a_report_dir_not_named_latest_is_rotated_to_name_dot_previous() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("nightly");
        write_report(&dir, &sample(), &meta("1")).unwrap();
        write_report(&dir, &sample(), &meta("2")).unwrap();
        assert_eq!(names(tmp.path()), ["nightly", "nightly.previous"]);
        assert_eq!(
            read_report(&tmp.path().join("nightly.previous")).unwrap().1,
            meta("1")
        );
    }

    #[test]
    fn a_write_error_mid_report_leaves_the_existing_report_untouched_and_no_temp_dir() {
        // Arrange: a finished report, then a writer whose outcomes.json cannot be written.
        let tmp = tempfile::tempdir().unwrap();
        let latest = tmp.path().join("latest");
        write_report(&latest, &sample(), &meta("old")).unwrap();
        let before = files(&latest);
        let writer = ReportWriter::create(&latest, &sample().plan).unwrap();
        fs::create_dir(writer.tmp.join(OUTCOMES_JSON)).unwrap();
        // Act
        let err = writer.finish(&sample(), &meta("new")).unwrap_err();
        // Assert
        assert!(
            err.to_string().contains("outcomes.json: cannot write"),
            "{err}"
        );
        assert_eq!(err.exit_status(), ExitStatus::Internal);
        assert_eq!(files(&latest), before);
        assert_eq!(names(tmp.path()), ["latest"]);
    }

    #[test]
    fn a_report_under_a_file_fails_naming_the_path_and_leaves_no_temp_dir() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("reports");
        fs::write(&file, "not a directory").unwrap();
        let err = write_report(&file.join("latest"), &sample(), &meta("t")).unwrap_err();
        assert!(
            err.to_string()
                .starts_with(&format!("{}: cannot create directory", file.display())),
            "{err}"
        );
        assert_eq!(err.exit_status(), ExitStatus::Internal);
        assert_eq!(names(tmp.path()), ["reports"]);
        assert_eq!(fs::read_to_string(&file).unwrap(), "not a directory");
    }

    #[test]
    fn a_directory_that_is_not_a_report_is_never_replaced() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("src");
        fs::create_dir(&dir).unwrap();
        fs::write(dir.join("main.rs"), "fn main() {}").unwrap();
        let err = write_report(&dir, &sample(), &meta("t")).unwrap_err();
        assert!(
            matches!(err, ReportError::Output(OutputError::NotAReport { .. })),
            "{err}"
        );
        assert_eq!(err.exit_status(), ExitStatus::Usage);
        assert_eq!(names(tmp.path()), ["src"]);
        assert_eq!(names(&dir), ["main.rs"]);
    }

    #[test]
    fn progress_writes_partial_outcomes_json_into_the_temp_dir_only() {
        let tmp = tempfile::tempdir().unwrap();
        let latest = tmp.path().join("latest");
        let report = sample();
        let mut writer = ReportWriter::create(&latest, &report.plan).unwrap();
        let tmp_dir = writer.tmp.clone();
        assert_eq!(
            names(tmp.path()),
            [format!(".latest.tmp-{}", std::process::id())]
        );
        let cases: serde_json::Value = serde_json::from_str(&read(&tmp_dir, CASES_JSON)).unwrap();
        assert_eq!(cases["cases"].as_array().unwrap().len(), report.plan.len());

        writer.progress(&report.outcomes[..2]).unwrap();

        assert!(!latest.exists());
        let partial: serde_json::Value =
            serde_json::from_str(&read(&tmp_dir, OUTCOMES_JSON)).unwrap();
        assert_eq!(partial["outcomes"].as_array().unwrap().len(), 2);
        assert_eq!(
            partial["summary"],
            serde_json::to_value(Summary::default()).unwrap()
        );
        assert_eq!(names(&tmp_dir), [CASES_JSON, OUTCOMES_JSON]);

        writer.finish(&report, &meta("t")).unwrap();
        assert_eq!(names(tmp.path()), ["latest"]);
        assert_eq!(read_report(&latest).unwrap().0, report);
    }

    #[test]
    fn dropping_a_writer_without_finish_removes_its_temp_dir() {
        let tmp = tempfile::tempdir().unwrap();
        let writer = ReportWriter::create(&tmp.path().join("latest"), &[]).unwrap();
        assert_eq!(names(tmp.path()).len(), 1);
        drop(writer);
        assert!(names(tmp.path()).is_empty());
    }

    #[test]
    fn read_report_names_path_line_and_column_of_a_malformed_outcomes_json() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_report(&tmp.path().join("latest"), &sample(), &meta("t")).unwrap();
        fs::write(dir.join(OUTCOMES_JSON), "{\n  \"old\": ,\n}").unwrap();
        let err = read_report(&dir).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("{}:2:10: expected value", dir.join(OUTCOMES_JSON).display())
        );
    }

    #[test]
    fn junit_xml_escapes_the_nasty_case_name_and_fails_unused_ledger_entries() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_report(&tmp.path().join("latest"), &sample(), &meta("t")).unwrap();
        let xml = read(&dir, JUNIT_XML);
        assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"wireshape\" tests=\"9\" failures=\"4\">\n"), "{xml}");
        assert!(xml.contains(r#"<testcase classname="anthropic" name="weird#&lt;&amp;&quot;&#39;&gt;"><failure message="unexpected divergence: new:pattern:removed, old:&lt;b&gt;&amp;amp;:kept" type="unexpected">"#), "{xml}");
        assert!(
            xml.contains(r#"<testsuite name="gemini" tests="2" failures="1">"#),
            "{xml}"
        );
        assert!(
            xml.contains(r#"<testcase classname="gemini" name="g#enum"/>"#),
            "{xml}"
        );
        assert!(xml.contains(r#"<failure message="idempotence violated (v1): shape(shape(x)) != shape(x)" type="violation">"#), "{xml}");
        assert!(
            xml.contains(r#"<testsuite name="ledger" tests="1" failures="1">"#),
            "{xml}"
        );
        assert!(xml.contains(r#"<testcase classname="ledger" name="gemini.toml#1"><failure message="ledger entry gemini.toml#1 (intended) matched no case: remove it or fix its `case`" type="unused-ledger-entry">"#), "{xml}");
        assert!(!xml.contains("time="));
    }

    #[test]
    fn markup_escaping_covers_quotes_and_control_characters() {
        assert_eq!(
            Esc("a<b>&\"'\u{1}\t\n").to_string(),
            "a&lt;b&gt;&amp;&quot;&#39;\\u{0001}\t\n"
        );
        assert_eq!(EscAttr("x\ty\nz\r").to_string(), "x&#9;y&#10;z&#13;");
        assert_eq!(Code("a`b").to_string(), "``a`b``");
        assert_eq!(Code("`a").to_string(), "`` `a ``");
        assert_eq!(Md("a_b <c> | d").to_string(), "a\\_b \\<c\\> \\| d");
    }

    #[test]
    fn index_html_marks_oracle_fixes_and_regressions_beside_the_class() {
        let tmp = tempfile::tempdir().unwrap();
        let mut report = sample();
        let at = report
            .outcomes
            .iter()
            .position(|o| o.class == Class::Intended)
            .unwrap();
        report.outcomes[at].verdict = Some(crate::verdict::Verdict::Fix);
        let dir = write_report(&tmp.path().join("latest"), &report, &meta("t")).unwrap();
        let html = read(&dir, INDEX_HTML);
        assert!(
            html.contains(
                r#"<span class="badge intended">intended</span> <span class="badge fix">fix</span>"#
            ),
            "{html}"
        );
    }

    #[test]
    fn index_html_escapes_the_nasty_case_name_and_is_self_contained() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_report(&tmp.path().join("latest"), &sample(), &meta("t")).unwrap();
        let html = read(&dir, INDEX_HTML);
        assert!(
            html.contains(
                r##"<td class="case mono"><a href="#d-0">weird#&lt;&amp;&quot;&#39;&gt;</a></td>"##
            ),
            "{html}"
        );
        assert!(html.contains(
            r#"<span class="mono">anthropic::weird#&lt;&amp;&quot;&#39;&gt;</span></summary>"#
        ));
        assert!(html.contains(r#"<code class="tag">old:&lt;b&gt;&amp;amp;:kept</code>"#));
        assert!(!html.contains(NASTY));
        assert!(html.contains(r#"<span class="add">+  &quot;name&quot;: &quot;t&quot;"#));
        assert!(html.contains(r#"<span class="del">-  &quot;pattern&quot;: &quot;^a&quot;"#));
        // Identical cases are counts only: no row, no details.
        assert!(!html.contains("o#plain"));
        for external in ["http://", "https://", "<link", "src="] {
            assert!(!html.contains(external), "index.html references {external}");
        }
    }

    #[test]
    fn index_html_carries_diff_details_for_at_most_2000_cases_and_says_so() {
        let outcomes: Vec<CaseOutcome> = (0..=HTML_DIFF_LIMIT)
            .map(|i| case("openai", &format!("c#{i:05}"), Class::Intended, &[]))
            .chain([case("openai", "z#last", Class::Unexpected, &[])])
            .collect();
        let report = report_from(outcomes, Vec::new(), Vec::new());
        let html = index_html(&View::new(&report));
        assert_eq!(
            html.matches("<details class=\"case\"").count(),
            HTML_DIFF_LIMIT
        );
        assert!(html.contains("2002 divergent or failing cases: details are included for the first 2000 only (failures first)."));
        // The failure comes first even though it sorts last.
        assert!(html.contains(r#"<details class="case" id="d-0" data-lane="openai" data-class="unexpected" data-failure="">"#));
        assert_eq!(html.matches("<tr data-lane=").count(), HTML_DIFF_LIMIT + 2);
    }

    #[test]
    fn summary_md_for_a_small_report_is_exactly_this() {
        let md = summary_md(&View::new(&sample()));
        let expected = r#"# wireshape: v0 → v1

**4 failures** (3 failing cases, 1 unused ledger entry) in 8 cases on 3 lanes; 1 stale ledger entry (warning)

| lane | identical | reordered | intended | unexpected | errored | total |
|:---|---:|---:|---:|---:|---:|---:|
| anthropic | 1 | 1 | 0 | 1 | 0 | 3 |
| gemini | 0 | 0 | 1 | 0 | 1 | 2 |
| openai | 3 | 0 | 0 | 0 | 0 | 3 |
| **total** | 4 | 1 | 1 | 1 | 1 | 8 |

Outputs the lane's oracle rejects (one rejected tool takes the whole request down; a new one fails the run unless a `[[rejection]]` ledger entry declares it):

| lane | old rejected | new rejected | declared | undeclared |
|:---|---:|---:|---:|---:|
| anthropic | 0 | 0 | 0 | 0 |
| gemini | 0 | 0 | 0 | 0 |
| openai | 0 | 0 | 0 | 0 |
| **total** | 0 | 0 | 0 | 0 |

Semantic classes on instances of the author's schema (old → new; a narrowing of a shaped tool or a silent widening fails the run unless a `[[narrowing]]`/`[[widening]]` ledger entry declares it):

| lane | preserved | widened | silent | narrowed | unjudged | declared | undeclared |
|:---|---:|---:|---:|---:|---:|---:|---:|
| anthropic | 0 → 0 | 0 → 0 | 0 | 0 → 0 | 0 → 0 | 0 | 0 |
| gemini | 0 → 0 | 0 → 0 | 0 | 0 → 0 | 0 → 0 | 0 | 0 |
| openai | 0 → 0 | 0 → 0 | 0 | 0 → 0 | 0 → 0 | 0 | 0 |

## Unexpected divergences (1)

- `anthropic::weird#<&"'>`: `new:pattern:removed`, `old:<b>&amp;:kept`

## Errored (1)

- `gemini::g#boom`: new errored: panic: index out of bounds

## Invariant violations (1)

- `openai::o#same` idempotence (`v1`): shape(shape(x)) != shape(x)

## Ledger (2)

- unused (fails the run): `gemini.toml#1` (intended): ledger entry gemini.toml#1 (intended) matched no case: remove it or fix its \`case\`
- stale (warning): `anthropic.toml#0` (reordered): sha256 pin no longer matches the new bytes

## Unusable corpus files (1)

- `corpus/broken.json`: corpus/broken.json:3:1: expected value

---

Exit code 1: failures found: unexpected or errored cases, undeclared rejected outputs, undeclared narrowings or silent widenings, invariant violations, broken pins, failing requests or unused ledger entries. Details: `index.html`, `junit.xml`, `divergences.jsonl` and one `*.txt` list per class in the report directory.
"#;
        assert_eq!(md, expected);
    }

    #[test]
    fn summary_md_of_a_clean_run_says_clean_and_has_no_sections() {
        let report = report_from(
            vec![case("openai", "o#ok", Class::Identical, &[])],
            Vec::new(),
            Vec::new(),
        );
        let md = summary_md(&View::new(&RunReport {
            unusable: BTreeMap::new(),
            ..report
        }));
        assert!(md.contains("\n**clean**: 1 case on 3 lanes\n"), "{md}");
        assert!(!md.contains("\n## "), "{md}");
        assert!(md.ends_with("Exit code 0: clean: no unexpected or errored cases, no undeclared rejected outputs, no undeclared narrowings or silent widenings, no invariant violations, no broken pins, no failing requests, no unused ledger entries (stale ledger entries and unusable corpus files only warn). Details: `index.html`, `junit.xml`, `divergences.jsonl` and one `*.txt` list per class in the report directory.\n"), "{md}");
    }

    #[test]
    fn an_undeclared_narrowing_is_counted_listed_with_its_witness_and_fails() {
        let mut o = case("openai", "o#enum", Class::Identical, &[]);
        o.new.semantic = Some(crate::semantic::Semantics {
            class: SemanticClass::Narrowed,
            instances: 7,
            widened: None,
            narrowed: Some(serde_json::json!({})),
            narrowed_kinds: vec![crate::semantic::NarrowingKind::Other],
            silent: false,
            reason: None,
            disagreements: vec![2],
            losses: crate::semantic::Losses::default(),
        });
        assert!(o.is_failure());
        let mut report = report_from(vec![o], Vec::new(), Vec::new());
        report.unusable.clear();
        report.finish(&["openai".to_owned()]);
        let view = View::new(&report);
        let md = summary_md(&view);
        assert!(
            md.contains("| openai | 0 → 0 | 0 → 0 | 0 | 0 → 1 | 0 → 0 | 0 | 1 |\n"),
            "{md}"
        );
        assert!(
            md.contains("## Undeclared changes of meaning (1)\n\n- `openai::o#enum` (narrowed: other): witness `{}`\n"),
            "{md}"
        );
        let junit = junit_xml(&view);
        assert!(
            junit.contains("narrowed new output, undeclared (witness {})"),
            "{junit}"
        );
        let html = index_html(&view);
        assert!(html.contains(r#"<section id="semantic">"#));
        assert!(html.contains(
            r#"<p class="muted">narrowed: the author's schema accepts, this output refuses</p><pre>{}</pre>"#
        ), "{html}");
    }

    #[test]
    fn summary_md_lists_at_most_50_unexpected_cases() {
        let outcomes = (0..53)
            .map(|i| case("openai", &format!("c#{i:02}"), Class::Unexpected, &[]))
            .collect();
        let md = summary_md(&View::new(&report_from(outcomes, Vec::new(), Vec::new())));
        assert!(
            md.contains("- `openai::c#49`\n- … and 3 more (see `unexpected.txt`)\n"),
            "{md}"
        );
        assert!(!md.contains("c#50"));
    }

    #[test]
    fn merged_shard_halves_write_the_same_files_as_the_unsharded_report() {
        // Arrange: split the outcomes between two shards; each shard counts
        // its own ledger uses, so an entry used by one shard is unused in the other.
        let (outcomes, uses, issues) = sample_parts();
        let (mut first, mut second) = (Vec::new(), Vec::new());
        for (i, o) in outcomes.iter().cloned().enumerate() {
            if i % 2 == 0 {
                first.push(o);
            } else {
                second.push(o);
            }
        }
        let shard_uses = |shard: &[CaseOutcome]| -> Vec<LedgerUse> {
            uses.iter()
                .map(|u| LedgerUse {
                    uses: shard
                        .iter()
                        .flat_map(|o| &o.ledger)
                        .filter(|m| (&m.file, m.index) == (&u.file, u.index))
                        .count(),
                    ..u.clone()
                })
                .collect()
        };
        let a = report_from(first.clone(), shard_uses(&first), issues.clone());
        let b = report_from(second.clone(), shard_uses(&second), Vec::new());
        let unsharded = report_from(outcomes, uses.clone(), issues);
        // Act
        let merged = merge_reports(vec![a, b]);
        let tmp = tempfile::tempdir().unwrap();
        let m = write_report(&tmp.path().join("merged"), &merged, &meta("1")).unwrap();
        let u = write_report(&tmp.path().join("unsharded"), &unsharded, &meta("2")).unwrap();
        // Assert
        assert_eq!(merged, unsharded);
        assert_same_files_except_run_json(&m, &u);
    }
}
