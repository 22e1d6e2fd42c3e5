//! `data/<lane>.js`: what `index.html` loads for one lane when someone asks
//! for its cases, so the page itself stays small at any corpus size.
//!
//! A file is `wireshapeLane(` on its first line, one JSON object, and `);`
//! on its last: a script a page opened from `file://` can load with a
//! `<script src>` (a `fetch` of a local file is refused there). The object
//! is `{"lane", "ledger": [entry, …], "tags": [tag, …], "cases": [row, …],
//! "details": {case: detail}}`, one row or detail a line: a row for every
//! divergent or failing case (class, tags and ledger entries as indices
//! into the file's `tags` and `ledger`, verdict, undeclared semantic
//! class, violations), a detail
//! (both sides and the wire pair) for every case with a wire pair and for
//! failing cases, at most [`MAX_DETAILS`] in all. The wire pairs are read
//! back from here by `read_report` (they are nowhere else).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::files::{ReportError, io_error};
use super::stored;
use super::view::View;
use crate::error::LoadError;
use crate::lane::Lane;
use crate::outcome::{CaseOutcome, Class, LedgerMatch, Sha256Sum, Side, Violation, WirePair};
use crate::semantic::{SemanticClass, Semantics};
use crate::verdict::Verdict;

/// The directory of the lane files, inside the report directory.
pub(super) const DATA_DIR: &str = "data";
/// Details (sides and wire pair) are written for at most this many cases,
/// failing ones first, then those with a wire pair, each by (lane, case).
pub(super) const MAX_DETAILS: usize = 1_000;

const OPEN: &str = "wireshapeLane(\n";
const CLOSE: &str = "\n);\n";

/// `data/<lane>.js` of one lane (a relative URL and path).
pub(super) fn lane_file(lane: &str) -> String {
    format!("{DATA_DIR}/{lane}.js")
}

pub(super) use super::tally::listed;

/// The cases that get a detail: failing ones first, then those with a
/// wire pair, at most [`MAX_DETAILS`] (in sorted order within each group).
pub(super) fn detailed(view: &View<'_>) -> BTreeSet<(Lane, String)> {
    let failing = view.tally.failing.iter().map(|o| (o.lane, o.case.clone()));
    let wired = view.tally.wired.iter().cloned();
    failing.chain(wired).take(MAX_DETAILS).collect()
}

/// The `data/<lane>.js` files of a report, written lane by lane into
/// `dir` (the directory made with the first lane that lists a case).
pub(super) struct LaneFiles<'d> {
    dir: &'d Path,
    made: bool,
}

impl<'d> LaneFiles<'d> {
    pub(super) fn new(dir: &'d Path) -> Self {
        Self { dir, made: false }
    }

    /// Start `data/<lane>.js` with its tables, `ledger` and `tags` (those
    /// of the lane's listed cases, sorted, each once); its rows and details
    /// follow as the lane's cases come ([`LaneFile::add`]).
    pub(super) fn open<'t>(
        &mut self,
        lane: Lane,
        ledger: Vec<&'t LedgerMatch>,
        tags: Vec<&'t str>,
    ) -> Result<LaneFile<'t>, ReportError> {
        if !self.made {
            let data = self.dir.join(DATA_DIR);
            fs::create_dir(&data).map_err(io_error(&data, "create directory"))?;
            self.made = true;
        }
        let path = self.dir.join(lane_file(lane.id()));
        let file = fs::File::create(&path).map_err(io_error(&path, "write"))?;
        let mut file = LaneFile {
            w: io::BufWriter::new(file),
            path,
            lane,
            ledger,
            tags,
            rows: 0,
            details: Vec::new(),
        };
        let head = |f: &mut LaneFile<'t>| -> io::Result<()> {
            let w = &mut f.w;
            w.write_all(OPEN.as_bytes())?;
            w.write_all(b"{\"lane\": ")?;
            serde_json::to_writer(&mut *w, lane.id())?;
            w.write_all(b",\n\"ledger\": ")?;
            serde_json::to_writer(&mut *w, &f.ledger)?;
            w.write_all(b",\n\"tags\": ")?;
            serde_json::to_writer(&mut *w, &f.tags)?;
            w.write_all(b",\n\"cases\": [")
        };
        head(&mut file).map_err(io_error(&file.path, "write"))?;
        Ok(file)
    }
}

/// One lane's `data/<lane>.js` being written: its rows go out as the
/// cases come, its details (few) wait until the rows are done.
pub(super) struct LaneFile<'t> {
    path: PathBuf,
    w: io::BufWriter<fs::File>,
    lane: Lane,
    ledger: Vec<&'t LedgerMatch>,
    tags: Vec<&'t str>,
    rows: usize,
    /// The details so far, as written.
    details: Vec<u8>,
}

impl LaneFile<'_> {
    /// The rows (and details) of the listed ones among the lane's next
    /// `cases` (sorted by case).
    pub(super) fn add(
        &mut self,
        cases: &[&CaseOutcome],
        detailed: &BTreeSet<(Lane, String)>,
    ) -> Result<(), ReportError> {
        let mut go = || -> io::Result<()> {
            for o in cases.iter().filter(|o| listed(o)) {
                self.w
                    .write_all(if self.rows == 0 { b"\n" } else { b",\n" })?;
                self.rows += 1;
                serde_json::to_writer(&mut self.w, &Row::new(o, &self.ledger, &self.tags))?;
                if !detailed.contains(&(self.lane, o.case.clone())) {
                    continue;
                }
                let d = &mut self.details;
                d.extend_from_slice(if d.is_empty() { b"\n" } else { b",\n" });
                serde_json::to_writer(&mut *d, &o.case)?;
                d.extend_from_slice(b": ");
                serde_json::to_writer(&mut *d, &Detail::new(o))?;
            }
            Ok(())
        };
        go().map_err(io_error(&self.path, "write"))
    }

    pub(super) fn close(mut self) -> Result<(), ReportError> {
        let mut go = || -> io::Result<()> {
            self.w.write_all(b"\n],\n\"details\": {")?;
            self.w.write_all(&self.details)?;
            self.w.write_all(b"\n}}")?;
            self.w.write_all(CLOSE.as_bytes())?;
            self.w.flush()
        };
        go().map_err(io_error(&self.path, "write"))
    }
}

/// One listed case: what the table shows and filters on.
#[derive(Serialize)]
struct Row<'a> {
    case: &'a str,
    class: Class,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    failure: bool,
    /// Indices into the file's `tags`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tags: Vec<usize>,
    /// Indices into the file's `ledger`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    ledger: Vec<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    verdict: Option<Verdict>,
    /// A narrowing or silent widening no ledger entry declares.
    #[serde(skip_serializing_if = "Option::is_none")]
    semantic: Option<SemanticClass>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    violations: &'a [Violation],
}

impl<'a> Row<'a> {
    fn new(o: &'a CaseOutcome, ledger: &[&LedgerMatch], tags: &[&str]) -> Self {
        Self {
            case: &o.case,
            class: o.class,
            failure: o.is_failure(),
            tags: stored::indices(o.tags.iter().map(String::as_str), tags),
            ledger: stored::indices(o.ledger.iter().map(|m| &**m), ledger),
            verdict: o.verdict,
            semantic: o.undeclared_semantic(),
            violations: &o.violations,
        }
    }
}

/// Both sides of a case and its wire pair.
#[derive(Serialize)]
struct Detail<'a> {
    old: DetailSide<'a>,
    new: DetailSide<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    wire: Option<&'a WirePair>,
}

impl<'a> Detail<'a> {
    fn new(o: &'a CaseOutcome) -> Self {
        Self {
            old: DetailSide::new(&o.old),
            new: DetailSide::new(&o.new),
            wire: o.wire.as_deref(),
        }
    }
}

#[derive(Serialize)]
struct DetailSide<'a> {
    pipeline: &'a str,
    outcome: &'a str,
    sha256: &'a Sha256Sum,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<&'a str>,
    /// Each degradation as the text `shape` prints.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    degradations: Vec<String>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    rejected_by: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    semantic: Option<&'a Semantics>,
}

impl<'a> DetailSide<'a> {
    fn new(s: &'a Side) -> Self {
        Self {
            pipeline: &s.pipeline,
            outcome: s.outcome.id(),
            sha256: &s.sha256,
            detail: s.detail.as_deref(),
            degradations: s.degradations.iter().map(ToString::to_string).collect(),
            rejected_by: &s.rejected_by,
            semantic: s.semantic.as_deref(),
        }
    }
}

/// What `read_report` takes back from a lane file: the wire pairs.
#[derive(Deserialize)]
struct LaneIn {
    #[serde(default)]
    details: BTreeMap<String, DetailIn>,
}

#[derive(Deserialize)]
struct DetailIn {
    #[serde(default)]
    wire: Option<WirePair>,
}

/// Put the wire pairs of `dir`'s lane files back on `outcomes`. A lane
/// without a file has none; a malformed file is an error naming it.
pub(super) fn read_wire_pairs(dir: &Path, outcomes: &mut [CaseOutcome]) -> Result<(), ReportError> {
    let mut lanes: Vec<Lane> = outcomes.iter().map(|o| o.lane).collect();
    lanes.dedup();
    for lane in lanes {
        let path = dir.join(lane_file(lane.id()));
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(source) => return Err(LoadError::Io { path, source }.into()),
        };
        let Some(json) = text.strip_prefix(OPEN).and_then(|t| t.strip_suffix(CLOSE)) else {
            return Err(LoadError::Shape {
                path,
                line: 1,
                column: 1,
                message: format!(
                    "a lane data file starts with `{}` and ends with `{}`",
                    OPEN.trim_end(),
                    CLOSE.trim()
                ),
            }
            .into());
        };
        let parsed: LaneIn =
            serde_json::from_str(json).map_err(|e| LoadError::from_json(&path, &e).shifted(1))?;
        for o in outcomes.iter_mut().filter(|o| o.lane == lane) {
            if let Some(d) = parsed.details.get(&o.case) {
                o.wire = d.wire.clone().map(Box::new);
            }
        }
    }
    Ok(())
}
