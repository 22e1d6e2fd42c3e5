//! Human and JSON output on the terminal: the only module (with `main`) that
//! prints.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::fmt::Write as _;

use serde_json::{Value, json};

#[macro_use]
mod stdio;

use stdio::Stream;
pub(crate) use stdio::{json, stdout_failure};

use crate::corpus::{CorpusEntry, CorpusScan};
use crate::{CaseOutcome, Catalog, Class, Lane, Outcome, Profile, RunReport, Shaped};

pub(crate) fn lanes() {
    for lane in Lane::ALL {
        let rules = crate::rules_for(*lane);
        let recorded = rules
            .iter()
            .filter(|r| r.status == crate::Status::Recorded)
            .count();
        outln!(
            "{:<22} {:>2} rules ({recorded} recorded)  {}",
            lane.id(),
            rules.len(),
            lane.summary()
        );
    }
}

pub(crate) fn pipelines() {
    for p in Profile::ALL {
        outln!("{}: {}", p.id(), p.summary());
        for lane in Lane::ALL {
            let names = p.pass_names(*lane);
            let passes = if names.is_empty() {
                "(verbatim)".to_owned()
            } else {
                names.join(" → ")
            };
            outln!("  {:<22} {passes}", lane.id());
        }
    }
}

/// The `--explain` report, on stderr so stdout stays valid JSON.
/// `shape --trace`: a tool's schema as it came in and after each pass
/// that changed it, one compact JSON line each.
pub(crate) fn trace(name: &str, input: &serde_json::Value, steps: &[(&str, Shaped)]) {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{name}: input {}",
        serde_json::to_string(input).unwrap_or_default()
    );
    for (pass, sh) in steps {
        let tail = match &sh.outcome {
            Outcome::Shaped => serde_json::to_string(&sh.tool.input_schema).unwrap_or_default(),
            other => other.id().to_owned(),
        };
        let _ = writeln!(s, "  {pass}: {tail}");
    }
    err!("{s}");
}

pub(crate) fn explain(lane: Lane, pipeline: &str, catalog: &Catalog, shaped: &[Shaped]) {
    let count = |id: &str| shaped.iter().filter(|s| s.outcome.id() == id).count();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} · {pipeline} · {} tools: {} shaped, {} failed closed, {} errored",
        lane.id(),
        shaped.len(),
        count("shaped"),
        count("failed-closed"),
        count("errored"),
    );
    for note in &catalog.notes {
        let _ = writeln!(
            s,
            "load: {} {}: {}",
            note.tool,
            crate::schema::display_path(&note.path),
            note.message
        );
    }
    for sh in shaped {
        let head = match &sh.outcome {
            Outcome::Shaped if sh.degradations.is_empty() => "unchanged".to_owned(),
            Outcome::Shaped => format!("shaped, {} degradations", sh.degradations.len()),
            Outcome::FailedClosed { reason } => format!("failed closed: {reason}"),
            Outcome::Errored { message } => format!("errored: {message}"),
        };
        let _ = writeln!(s, "{}: {head}", sh.tool.name);
        for d in &sh.degradations {
            let rule = d
                .rule
                .as_deref()
                .map(|r| format!(" [{r}]"))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "  {} {} {} at {}: {}{rule}",
                d.pass,
                d.action.as_str(),
                if d.keyword.is_empty() {
                    "(root)"
                } else {
                    &d.keyword
                },
                crate::schema::display_path(&d.path),
                d.reason
            );
        }
    }
    err!("{s}");
}

pub(crate) fn list_text(scan: &CorpusScan) {
    let mut loaded = 0;
    let mut unusable = 0;
    for e in &scan.entries {
        match e {
            CorpusEntry::Loaded(c) => {
                loaded += 1;
                outln!("{:<60} {:>5} tools  {}", c.id, c.tools.len(), c.format.id());
            }
            CorpusEntry::Unusable { path, reason, .. } => {
                unusable += 1;
                outln!("{:<60} unusable: {reason}", path.display());
            }
        }
    }
    outln!(
        "{loaded} catalogs, {} tools, {unusable} unusable files",
        scan.tool_count()
    );
}

pub(crate) fn list_json(scan: &CorpusScan) {
    let entries: Vec<Value> = scan
        .entries
        .iter()
        .map(|e| match e {
            CorpusEntry::Loaded(c) => json!({
                "type": "catalog",
                "id": c.id,
                "path": c.path.display().to_string(),
                "format": c.format.id(),
                "tools": c.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
                "notes": c.notes.len(),
            }),
            CorpusEntry::Unusable { path, reason, .. } => json!({
                "type": "unusable",
                "path": path.display().to_string(),
                "reason": reason,
            }),
        })
        .collect();
    json(&Value::Array(entries));
}

/// One line on stderr (the mock provider's log).
pub(crate) fn line_err(s: &str) {
    errln!("{s}");
}

/// A block of text on stdout, printed as it is (it ends with its own newline).
pub(crate) fn block(s: &str) {
    out!("{s}");
}

/// One line on stdout.
pub(crate) fn line(s: &str) {
    outln!("{s}");
}

/// `cases done / total, rate` on stderr, only when stdout is a terminal and
/// not `--quiet`; redrawn at most ten times a second.
pub(crate) struct Progress {
    /// `None`: open-ended (a run bounded by time).
    total: Option<usize>,
    unit: &'static str,
    on: bool,
    started: std::time::Instant,
    last: std::time::Instant,
}

impl Progress {
    pub(crate) fn new(total: usize, wanted: bool) -> Self {
        Self::of(Some(total), "cases", wanted)
    }

    /// `wireshape fuzz`: inputs judged, out of `total` when the run has a count.
    pub(crate) fn inputs(total: Option<usize>, wanted: bool) -> Self {
        Self::of(total, "inputs", wanted)
    }

    fn of(total: Option<usize>, unit: &'static str, wanted: bool) -> Self {
        use std::io::IsTerminal as _;
        let now = std::time::Instant::now();
        Self {
            total,
            unit,
            on: wanted && std::io::stdout().is_terminal() && std::io::stderr().is_terminal(),
            started: now,
            last: now,
        }
    }

    pub(crate) fn tick(&mut self, done: usize) {
        if !self.on || (self.last.elapsed().as_millis() < 100 && Some(done) != self.total) {
            return;
        }
        self.last = std::time::Instant::now();
        let secs = self.started.elapsed().as_secs_f64().max(1e-3);
        #[allow(clippy::cast_precision_loss)]
        let rate = done as f64 / secs;
        let unit = self.unit;
        match self.total {
            Some(total) => err!("\r\x1b[2K{done} / {total} {unit}  {rate:.0}/s"),
            None => err!("\r\x1b[2K{done} {unit}  {rate:.0}/s"),
        }
    }

    pub(crate) fn finish(&self) {
        if self.on {
            err!("\r\x1b[2K");
        }
    }
}

/// The short summary a run prints on stdout.
/// `failing`: the failing cases, sorted by key.
pub(crate) fn summary(
    report: &RunReport,
    failing: &[&CaseOutcome],
    dir: &std::path::Path,
    took: std::time::Duration,
) {
    let s = &report.summary;
    let mut totals: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for row in s.classes.values() {
        for (class, n) in row {
            *totals.entry(class.as_str()).or_default() += n;
        }
    }
    let parts: Vec<String> = Class::ALL
        .iter()
        .map(|c| format!("{} {}", totals.get(c.id()).copied().unwrap_or(0), c.id()))
        .collect();
    outln!(
        "wireshape {} → {}: {} cases in {:.1}s: {}; oracle: {} fixes, {} regressions, {} old and {} new outputs rejected ({} declared)",
        report.old,
        report.new,
        s.cases,
        took.as_secs_f64(),
        parts.join(", "),
        s.fixes,
        s.regressions,
        s.rejected.values().map(|r| r.old).sum::<usize>(),
        s.rejected.values().map(|r| r.new).sum::<usize>(),
        s.rejected.values().map(|r| r.declared).sum::<usize>(),
    );
    if !report.requests.is_empty() {
        let mut total = crate::outcome::RequestCounts::default();
        for c in s.requests.values() {
            total += c;
        }
        outln!(
            "requests: {} compared: {} identical, {} differ inside judged tools, {} recorded member changes, {} failing",
            total.compared,
            total.identical,
            total.inside_tools,
            total.recorded,
            total.failures
        );
        for r in report.requests.iter().filter(|r| r.is_failure()).take(20) {
            let why = r.issues.first().map_or("", |i| i.message.as_str());
            outln!("  {:<10} {}  {why}", r.class.id(), r.key());
        }
    }
    for o in failing.iter().take(20) {
        let why = if !o.pin_breaks.is_empty() {
            o.pin_breaks
                .iter()
                .map(|b| b.message.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        } else if o.undeclared_rejection() && o.violations.is_empty() && !o.class.is_failure() {
            format!(
                "{} by {}",
                o.verdict.map_or("", crate::Verdict::id),
                o.new.rejected_by.join(", ")
            )
        } else if o.violations.is_empty() {
            o.tags.join(" ")
        } else {
            o.violations
                .iter()
                .map(|v| format!("{} ({})", v.invariant, v.pipeline))
                .collect::<Vec<_>>()
                .join(", ")
        };
        outln!("  {:<10} {}  {why}", o.class.id(), o.key());
    }
    if failing.len() > 20 {
        outln!("  … and {} more (see failures.txt)", failing.len() - 20);
    }
    if let Some(fuzz) = &report.fuzz {
        let prefix = format!("fuzz/{}#", fuzz.seed);
        let mut lanes: Vec<&str> = failing
            .iter()
            .filter(|o| o.case.starts_with(&prefix))
            .map(|o| o.lane.id())
            .collect();
        lanes.dedup();
        let command = fuzz.command(&report.old, &report.new);
        if lanes.is_empty() {
            outln!(
                "  fuzz: {} generated schemas, seed {}, no failing case ({command})",
                fuzz.count,
                fuzz.seed
            );
        } else {
            outln!(
                "  fuzz: {} generated schemas, seed {}; reproduce: {command} --lanes {}",
                fuzz.count,
                fuzz.seed,
                lanes.join(",")
            );
        }
    }
    for i in &report.ledger_issues {
        outln!("  ledger {}: {}", i.kind, i.message);
    }
    if !report.unusable.is_empty() {
        outln!(
            "  {} corpus files unusable (listed in the report)",
            report.unusable.len()
        );
    }
    let verdict = if s.exit_code == 0 {
        "clean".to_owned()
    } else {
        let requests = if s.request_failures > 0 {
            format!(", {} failing requests", s.request_failures)
        } else {
            String::new()
        };
        format!(
            "{} failing cases{requests}, {} unused ledger entries",
            s.failures, s.unused_ledger_entries
        )
    };
    outln!("{verdict}; report: {}", dir.display());
}

/// The end of `wireshape compare`: the table (unless `table` is off) with
/// each served cell's summed shaping time, then one closing line. The
/// rules column, of any width, comes last here.
pub(crate) fn compare_summary(
    compared: &crate::Compared,
    dir: &std::path::Path,
    took: std::time::Duration,
    table: bool,
) {
    let report = &compared.report;
    if table {
        // The summary's columns, the time, then the rules.
        let order = |mut r: Vec<String>, time: String| {
            let rules = r.remove(crate::report::COMPARE_RULES_COLUMN);
            r.push(time);
            r.push(rules);
            r
        };
        let mut rows: Vec<Vec<String>> = Vec::with_capacity(report.cells.len() + 1);
        let head: Vec<String> = crate::report::COMPARE_COLUMNS
            .iter()
            .map(|c| (*c).to_owned())
            .collect();
        rows.push(order(head, "shape ms".to_owned()));
        let pipeline_at = |id: &str| report.pipelines.iter().position(|p| p == id);
        for cell in &report.cells {
            let time = compared
                .times
                .iter()
                .find(|t| t.lane == cell.lane && Some(t.pipeline) == pipeline_at(&cell.pipeline))
                .map_or_else(
                    || "—".to_owned(),
                    |t| format!("{:.1}", t.shape.as_secs_f64() * 1e3),
                );
            rows.push(order(crate::report::compare_row(cell).to_vec(), time));
        }
        let width = |i: usize| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0);
        let widths: Vec<usize> = (0..rows[0].len()).map(width).collect();
        // Text columns (lane, pipeline, rules) to the left, counts to the right.
        let left = [0, 1, widths.len() - 1];
        for r in &rows {
            let mut line = String::new();
            for (i, text) in r.iter().enumerate() {
                let pad = " ".repeat(widths[i] - text.chars().count());
                if i > 0 {
                    line.push_str("  ");
                }
                if left.contains(&i) {
                    line.push_str(text);
                    line.push_str(&pad);
                } else {
                    line.push_str(&pad);
                    line.push_str(text);
                }
            }
            outln!("{}", line.trim_end());
        }
    }
    let cases: usize = report
        .cells
        .iter()
        .filter_map(|c| c.stats.as_ref())
        .map(|s| s.cases)
        .sum();
    outln!(
        "wireshape compare: {} ({cases} cases) in {:.1}s; report: {}",
        crate::report::compare_scope(report),
        took.as_secs_f64(),
        dir.display()
    );
}

/// `check`'s findings (library call; here so cli stays thin).
pub(crate) fn check_findings(
    tools: Vec<crate::Tool>,
    lanes: &[Lane],
    recordings: &[crate::Recording],
    as_of: &str,
    v1: &(dyn crate::Pipeline + Sync),
) -> Vec<crate::lint::LintFinding> {
    crate::lint::lint(tools, lanes, recordings, as_of, v1)
}

/// The fix verdict in words, naming the pipeline that made it (`v1` by
/// default; `check --pipeline P` names P).
fn fix_words(v: &crate::lint::V1Verdict, pipeline: &str) -> String {
    match v {
        crate::lint::V1Verdict::Fixed => format!("{pipeline} fixes it"),
        crate::lint::V1Verdict::FailedClosed => {
            format!("{pipeline} fails closed (ships it unchanged, non-strict): still rejected")
        }
        crate::lint::V1Verdict::NoShaping => format!("no {pipeline} shaping for this lane yet"),
        crate::lint::V1Verdict::StillRejected => format!("{pipeline} does NOT fix it"),
    }
}

/// Human output of `check`: per tool, per lane, the rule, path, message,
/// evidence and the v1 verdict; then a per-lane count.
pub(crate) fn check_text(
    tools: usize,
    lanes: &[Lane],
    as_of: &str,
    findings: &[crate::lint::LintFinding],
    pipeline: &str,
) {
    // Written as it is made: the text runs to hundreds of megabytes on a
    // large catalog.
    let mut s = Stream::new();
    let mut by_lane: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    let mut tools_hit = std::collections::BTreeSet::new();
    let mut current: Option<(&str, Option<usize>)> = None;
    for f in findings {
        *by_lane.entry(f.lane.id()).or_default() += 1;
        tools_hit.insert(f.tool_index);
        if current != Some((f.tool.as_str(), f.tool_index)) {
            let at = f
                .tool_index
                .map(|i| format!(" (tools[{i}])"))
                .unwrap_or_default();
            let _ = writeln!(s, "{}{at}", f.tool);
            current = Some((f.tool.as_str(), f.tool_index));
        }
        let path = if f.path.is_empty() { "/" } else { &f.path };
        let _ = writeln!(s, "  {:<20} {} at {path}", f.lane.id(), f.rule);
        let _ = writeln!(s, "      {}", f.message);
        let seen = match (&f.first_seen, &f.last_seen) {
            (Some(a), Some(b)) if a == b => format!(", seen {a}"),
            (Some(a), Some(b)) => format!(", seen {a} … {b}"),
            _ => String::new(),
        };
        let mut ev = format!("{}{seen}", f.status);
        if let Some(e) = f.evidence.first() {
            let more = if f.evidence.len() > 1 {
                format!(" (+{} more)", f.evidence.len() - 1)
            } else {
                String::new()
            };
            let _ = write!(ev, "; recording {} {}{more}", e.id, e.url);
            if let Some(d) = f.docs.first() {
                let _ = write!(ev, "; docs {d}");
            }
        } else if let Some(d) = f.docs.first() {
            let _ = write!(ev, "; {d}");
        }
        if let Some(read) = &f.read {
            let _ = write!(ev, " (read {read})");
        }
        let _ = writeln!(s, "      evidence: {ev}");
        let _ = writeln!(s, "      {}", fix_words(&f.v1, pipeline));
        for d in f.v1_detail.iter().take(6) {
            let _ = writeln!(s, "        {d}");
        }
        if f.v1_detail.len() > 6 {
            let _ = writeln!(s, "        … {} more", f.v1_detail.len() - 6);
        }
    }
    let clean = tools.saturating_sub(tools_hit.iter().filter(|t| t.is_some()).count());
    let lane_list = if lanes.len() == Lane::ALL.len() {
        "all lanes".to_owned()
    } else {
        lanes.iter().map(|l| l.id()).collect::<Vec<_>>().join(", ")
    };
    let _ = writeln!(
        s,
        "{tools} tools checked on {lane_list} as of {as_of}: {} rejections, {clean} tools accepted everywhere",
        findings.len()
    );
    for (lane, n) in &by_lane {
        let _ = writeln!(s, "  {lane}: {n}");
    }
}

/// Stable JSON output of `check`.
pub(crate) fn check_json(
    tools: usize,
    lanes: &[Lane],
    as_of: &str,
    findings: &[crate::lint::LintFinding],
) {
    json(&json!({
        "as_of": as_of,
        "lanes": lanes.iter().map(|l| l.id()).collect::<Vec<_>>(),
        "tools": tools,
        "rejections": findings,
    }));
}

/// `replay` over every recording.
pub(crate) fn replay_results(
    recordings: &[crate::Recording],
    v1: &dyn crate::Pipeline,
    gaps: &[crate::replay::KnownGap],
) -> Vec<crate::replay::ReplayResult> {
    crate::replay::replay_all(recordings, v1, gaps)
}

pub(crate) fn replay_text(results: &[crate::replay::ReplayResult]) {
    let mut s = String::new();
    let mut counts: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for r in results {
        let fix = match &r.fix {
            crate::replay::Fix::Fixed => "v1 fixes it".to_owned(),
            crate::replay::Fix::FailedClosed { tools } => {
                format!(
                    "v1 fails closed ({}) and the request is STILL REJECTED",
                    tools.join(", ")
                )
            }
            crate::replay::Fix::KnownGap { .. } => {
                "known gap: no v1 shaping for this lane yet".to_owned()
            }
            crate::replay::Fix::StillRejected { rejections } => {
                format!("v1 STILL REJECTED: {}", rejections.join("; "))
            }
            crate::replay::Fix::RuleRetired { rejections } => format!(
                "accepted today: the rule that rejected v1's request on the recording date is retired ({})",
                rejections.join("; ")
            ),
            crate::replay::Fix::Unreadable { message } => format!("unreadable: {message}"),
        };
        let key = match (&r.oracle_error, &r.fix) {
            (Some(_), _) => "oracle-missed",
            (None, _) if r.known_gap.is_some() && !r.failed => "declared-gap",
            (None, crate::replay::Fix::Fixed) => "fixed",
            (None, crate::replay::Fix::FailedClosed { .. }) => "failed-closed-rejected",
            (None, crate::replay::Fix::RuleRetired { .. }) => "rule-retired",
            (None, crate::replay::Fix::KnownGap { .. }) => "known-gap",
            (None, _) => "still-rejected",
        };
        *counts.entry(key).or_default() += 1;
        let mark = if r.failed { "FAIL" } else { "ok  " };
        let _ = writeln!(s, "{mark} {}/{} [{}] {}", r.provider, r.id, r.lane, fix);
        if let Some(e) = &r.oracle_error {
            let _ = writeln!(s, "     {e}");
        }
        if let Some(g) = &r.known_gap {
            let _ = writeln!(s, "     declared gap: {g}");
        }
    }
    let parts: Vec<String> = counts.iter().map(|(k, n)| format!("{n} {k}")).collect();
    let _ = writeln!(s, "{} recordings: {}", results.len(), parts.join(", "));
    out!("{s}");
}

/// `wireshape mutants --list`: one mutant name per line.
pub(crate) fn mutant_list(infos: &[&crate::mutants::MutantInfo]) {
    for m in infos {
        outln!("{}", m.name);
    }
}

/// The end-of-run lines of `wireshape mutants`: counts, then every mutant
/// that failed the run (missed, timed out) and stale equivalent entries.
pub(crate) fn mutants_summary(
    report: &crate::mutants::MutantsReport,
    dir: &std::path::Path,
    took: std::time::Duration,
) {
    outln!(
        "wireshape mutants: {} mutants in {:.1}s: {} caught, {} missed, {} unviable, {} timeout",
        report.results.len(),
        took.as_secs_f64(),
        report.count("caught"),
        report.count("missed"),
        report.count("unviable"),
        report.count("timeout"),
    );
    let s = &report.summary;
    outln!(
        "  {} viable: {} caught by independent evidence ({}), {} caught only by examples, {} missed, {} timeout",
        s.viable,
        s.caught_by_independent_evidence,
        s.independent_percent
            .map_or_else(|| "n/a".to_owned(), |p| format!("{p:.1}%")),
        s.caught_only_by_examples,
        s.missed,
        s.timeout,
    );
    let unseen = s.unseen_passes();
    if !unseen.is_empty() {
        let top: Vec<String> = unseen
            .iter()
            .take(10)
            .map(|(pass, c)| format!("{pass} {}/{}", c.unseen(), c.viable))
            .collect();
        outln!(
            "  passes with mutants no independent evidence notices (unseen/viable{}): {}",
            if unseen.len() > top.len() {
                format!(", top {} of {}", top.len(), unseen.len())
            } else {
                String::new()
            },
            top.join(", ")
        );
    }
    for r in &report.results {
        if matches!(r.outcome.id(), "missed" | "timeout") {
            outln!("  {}: {}", r.outcome.id(), r.info.name);
            if let Some(w) = r.witness_line() {
                outln!("    {w}");
            }
        }
    }
    for s in &report.stale_equivalent {
        outln!("  stale equivalent entry: {s}");
    }
    let status = if report.exit_status() == crate::ExitStatus::Clean {
        "clean"
    } else {
        "failures"
    };
    outln!("{status}; output: {}", dir.display());
}

/// `wireshape metamorphic`: the handled rate per lane and rule.
pub(crate) fn metamorphic_text(pipeline: &str, rates: &[crate::metamorphic::RuleRate]) {
    outln!(
        "schema mutation of {pipeline}: handled = accepted by the oracle (failed closed and still rejected is not handled)"
    );
    for r in rates {
        let total = r.total();
        let rate = if total == 0 {
            "   n/a".to_owned()
        } else {
            #[allow(clippy::cast_precision_loss)]
            let pct = 100.0 * r.fixed as f64 / total as f64;
            format!("{pct:5.1}%")
        };
        let positions: Vec<String> = crate::metamorphic::POSITIONS
            .iter()
            .map(|p| format!("{p} {}", r.cases.get(*p).copied().unwrap_or(0)))
            .collect();
        outln!(
            "  {:<22} {:<48} {rate}  {} cases ({}; {} fixed, {} failed closed and rejected, {} still rejected){}",
            r.lane.id(),
            r.rule,
            total,
            positions.join(", "),
            r.fixed,
            r.failed_closed,
            r.unhandled,
            if r.unhandled_cases.is_empty() {
                String::new()
            } else {
                format!(" e.g. {}", r.unhandled_cases.join(", "))
            }
        );
        if r.non_object_roots > 0 {
            outln!(
                "  {:<22} {:<48}         {} root injections left out: the construct's type makes a non-object root, failed closed",
                "",
                "",
                r.non_object_roots
            );
        }
        if let Some(reason) = &r.known_gap {
            let what = if r.failed() {
                "every injection is handled now: remove its entry from recordings/known-gaps.toml"
            } else {
                "a declared gap (recordings/known-gaps.toml), not a failure"
            };
            outln!("  {:<22} {:<48}         {what}: {reason}", "", "");
        }
    }
}

/// The files `wireshape fuzz` wrote or met, as failures arrive.
#[derive(Debug, Default)]
pub(crate) struct FuzzFiles {
    pub(crate) new: Vec<std::path::PathBuf>,
    pub(crate) duplicates: usize,
    pub(crate) already_there: Vec<std::path::PathBuf>,
}

impl FuzzFiles {
    pub(crate) fn add(&mut self, written: crate::fuzzing::Written) {
        use crate::fuzzing::Written;
        match written {
            Written::New(p) => self.new.push(p),
            Written::Duplicate(_) => self.duplicates += 1,
            Written::AlreadyThere(p) => self.already_there.push(p),
        }
    }
}

/// One line on stderr per failure found, as it is found.
pub(crate) fn fuzz_found(f: &crate::fuzzing::Failure, written: &crate::fuzzing::Written) {
    use crate::fuzzing::Written;
    let (path, what) = match written {
        Written::New(p) => (p, ""),
        Written::Duplicate(p) => (p, " (a duplicate)"),
        Written::AlreadyThere(p) => (p, " (already there)"),
    };
    errln!(
        "found: {} on {} (input {}), minimized in {} calls: {}{what}",
        f.property,
        f.lane.id(),
        f.index,
        f.shrink_calls,
        path.display()
    );
}

/// The end of `wireshape fuzz` on stdout: inputs, rate, failures per
/// (property, lane) and the files written (the first 20 named).
pub(crate) fn fuzz_summary(
    pipeline: &str,
    opts: &crate::fuzzing::FuzzOptions<'_>,
    summary: &crate::fuzzing::FuzzSummary,
    files: &FuzzFiles,
    dir: &std::path::Path,
) {
    let secs = summary.elapsed.as_secs_f64();
    #[allow(clippy::cast_precision_loss)]
    let rate = summary.tried as f64 / secs.max(1e-3);
    let lanes = opts.lanes.len();
    let total = summary.total();
    let found = match total {
        0 => "no failure".to_owned(),
        1 => "1 failure".to_owned(),
        n => format!("{n} failures"),
    };
    outln!(
        "wireshape fuzz {pipeline}: {} inputs (seed {}, {lanes} lane{}) in {secs:.1}s, {rate:.0} inputs/s: {found}",
        summary.tried,
        opts.seed,
        if lanes == 1 { "" } else { "s" },
    );
    if total == 0 {
        return;
    }
    let rows: Vec<[String; 3]> = summary
        .failures
        .iter()
        .map(|((p, l), n)| [p.id().to_owned(), l.id().to_owned(), n.to_string()])
        .collect();
    let head = [
        "property".to_owned(),
        "lane".to_owned(),
        "failures".to_owned(),
    ];
    let width = |i: usize| {
        rows.iter()
            .chain(std::iter::once(&head))
            .map(|r| r[i].chars().count())
            .max()
            .unwrap_or(0)
    };
    let (w0, w1, w2) = (width(0), width(1), width(2));
    for r in std::iter::once(&head).chain(&rows) {
        outln!("  {:<w0$}  {:<w1$}  {:>w2$}", r[0], r[1], r[2]);
    }
    outln!(
        "{}: {} new, {} duplicate{}, {} already there",
        dir.display(),
        files.new.len(),
        files.duplicates,
        if files.duplicates == 1 { "" } else { "s" },
        files.already_there.len()
    );
    for p in files.new.iter().take(FUZZ_FILES_LISTED) {
        outln!("  {}", p.display());
    }
    if files.new.len() > FUZZ_FILES_LISTED {
        outln!("  … and {} more", files.new.len() - FUZZ_FILES_LISTED);
    }
}

/// New files `wireshape fuzz` names in its summary (in the order found).
const FUZZ_FILES_LISTED: usize = 20;

/// `corpus fetch`: one line per file in manifest order (`fetched`,
/// `cached`, `replaced` with the bytes verified; `refused`, `failed` with
/// the reason), then the counts, the bytes verified and the licences.
pub(crate) fn fetch_report(report: &crate::fetch::Report) {
    use crate::fetch::Status;
    let mut s = String::new();
    for f in &report.files {
        let word = f.status.word();
        match &f.status {
            Status::Refused(why) | Status::Failed { reason: why, .. } => {
                let _ = writeln!(s, "{word:<8} {}: {why}", f.entry.path);
            }
            Status::Fetched | Status::Cached | Status::Replaced => {
                let _ = writeln!(
                    s,
                    "{word:<8} {} ({} bytes)",
                    f.entry.path,
                    f.bytes.unwrap_or_default()
                );
            }
        }
    }
    let counts: Vec<String> = report
        .counts()
        .iter()
        .map(|(w, n)| format!("{n} {w}"))
        .collect();
    let _ = writeln!(
        s,
        "{} files from {} into {}: {}; {} bytes verified",
        report.files.len(),
        report.manifest.display(),
        report.into.display(),
        if counts.is_empty() {
            "nothing to do".to_owned()
        } else {
            counts.join(", ")
        },
        report.verified_bytes()
    );
    let licences: Vec<String> = report
        .licences()
        .iter()
        .map(|(l, n)| format!("{l} ({n})"))
        .collect();
    if !licences.is_empty() {
        let _ = writeln!(s, "licences: {}", licences.join(", "));
    }
    out!("{s}");
}
