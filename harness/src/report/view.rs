//! [`View`]: the report sorted and counted once for every renderer, and
//! the small text helpers they share (plurals, first lines, the exit code's
//! meaning, sorted borrows).

use std::collections::BTreeMap;

use crate::outcome::{
    CaseOutcome, Class, LedgerIssue, LedgerMatch, LedgerTable, RequestOutcome, RunReport,
};

/// The report, sorted and counted once for all renderers.
pub(super) struct View<'a> {
    pub(super) report: &'a RunReport,
    /// Sorted by (lane, case).
    pub(super) outcomes: Vec<&'a CaseOutcome>,
    /// Every lane that ran (the summary's lanes and the outcomes' lanes),
    /// with its count per class (indexed like [`Class::ALL`]).
    pub(super) lanes: BTreeMap<&'a str, [usize; 5]>,
    /// Failing cases (`CaseOutcome::is_failure`).
    pub(super) failing: usize,
    pub(super) violations: usize,
    pub(super) unused: Vec<&'a LedgerIssue>,
    pub(super) stale: Vec<&'a LedgerIssue>,
    /// Whole-request comparisons, sorted by key.
    pub(super) requests: Vec<&'a RequestOutcome>,
    /// Failing requests.
    pub(super) failing_requests: usize,
}

impl<'a> View<'a> {
    pub(super) fn new(report: &'a RunReport) -> Self {
        let outcomes = sorted_outcomes(&report.outcomes);
        let mut lanes: BTreeMap<&str, [usize; 5]> = report
            .summary
            .classes
            .keys()
            .map(|l| (l.id(), [0; 5]))
            .collect();
        for o in &outcomes {
            lanes.entry(o.lane.id()).or_default()[class_index(o.class)] += 1;
        }
        let issues = sorted_refs(&report.ledger_issues);
        let mut requests: Vec<&RequestOutcome> = report.requests.iter().collect();
        requests.sort_by_key(|r| (r.lane, r.catalog.as_str(), r.kind));
        Self {
            failing_requests: requests.iter().filter(|r| r.is_failure()).count(),
            requests,
            failing: outcomes.iter().filter(|o| o.is_failure()).count(),
            violations: outcomes.iter().map(|o| o.violations.len()).sum(),
            unused: issues
                .iter()
                .copied()
                .filter(|i| i.kind == crate::outcome::LedgerIssueKind::Unused)
                .collect(),
            stale: issues
                .iter()
                .copied()
                .filter(|i| i.kind != crate::outcome::LedgerIssueKind::Unused)
                .collect(),
            report,
            outcomes,
            lanes,
        }
    }

    /// Failing cases and requests plus unused ledger entries: what the
    /// verdict counts.
    pub(super) fn failures(&self) -> usize {
        self.failing + self.unused.len() + self.failing_requests
    }

    pub(super) fn class_total(&self, class: Class) -> usize {
        self.lanes.values().map(|c| c[class_index(class)]).sum()
    }

    pub(super) fn exit_code(&self) -> u8 {
        self.report.summary.exit_code
    }
}

fn class_index(class: Class) -> usize {
    Class::ALL.iter().position(|c| *c == class).unwrap_or(0)
}

pub(super) fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

pub(super) fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

pub(super) fn exit_code_meaning(code: u8) -> &'static str {
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
pub(super) fn side_details(o: &CaseOutcome) -> Vec<String> {
    [("old", &o.old), ("new", &o.new)]
        .into_iter()
        .filter_map(|(which, side)| {
            side.detail
                .as_deref()
                .map(|d| format!("{which} {}: {}", side.outcome, first_line(d)))
        })
        .collect()
}

pub(super) fn sorted_refs<T: Ord>(items: &[T]) -> Vec<&T> {
    let mut v: Vec<&T> = items.iter().collect();
    v.sort();
    v
}

/// By (lane, case), the order `RunReport::finish` uses (stable, so equal keys
/// keep their order).
pub(super) fn sorted_outcomes(outcomes: &[CaseOutcome]) -> Vec<&CaseOutcome> {
    let mut v: Vec<&CaseOutcome> = outcomes.iter().collect();
    v.sort_by(|a, b| (a.lane, &a.case).cmp(&(b.lane, &b.case)));
    v
}

/// At most `max` characters of `s`, with an ellipsis when cut.
pub(super) fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_owned(),
    }
}

/// One group of declared divergences: a ledger class on a lane.
pub(super) struct Declared<'a> {
    pub(super) cases: usize,
    /// The entries of that class on that lane (`file#index`), sorted.
    pub(super) entries: Vec<&'a LedgerMatch>,
}

/// Intended and reordered cases grouped by the class of the
/// `[[divergence]]` entries that declare them, by (ledger class, lane),
/// with counts: `index.html`'s table and `divergences.jsonl`'s `declared`
/// lines. A case counts once per ledger class.
pub(super) fn declared_groups<'a>(view: &View<'a>) -> BTreeMap<(&'a str, &'a str), Declared<'a>> {
    let mut groups: BTreeMap<(&str, &str), Declared<'_>> = BTreeMap::new();
    for o in view
        .outcomes
        .iter()
        .filter(|o| matches!(o.class, Class::Intended | Class::Reordered))
    {
        let mut seen: Vec<&str> = Vec::new();
        for m in o
            .ledger
            .iter()
            .map(|m| &**m)
            .filter(|m| m.table == LedgerTable::Divergence)
        {
            let g = groups
                .entry((m.class.as_str(), o.lane.id()))
                .or_insert_with(|| Declared {
                    cases: 0,
                    entries: Vec::new(),
                });
            if !g.entries.contains(&m) {
                g.entries.push(m);
                g.entries.sort();
            }
            if !seen.contains(&m.class.as_str()) {
                seen.push(&m.class);
                g.cases += 1;
            }
        }
    }
    groups
}
