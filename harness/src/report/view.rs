//! [`View`]: the report sorted and counted once for every renderer, and
//! the small text helpers they share (plurals, first lines, the exit code's
//! meaning, sorted borrows).

use std::collections::BTreeMap;

use super::files::ReportError;
use super::spilled::Spilled;
pub(crate) use super::tally::Tally;
use super::tally::class_index;
use crate::lane::Lane;
use crate::outcome::{CaseOutcome, Class, LedgerIssue, LedgerMatch, RequestOutcome, RunReport};

/// The report, sorted and counted once for all renderers. The outcomes
/// themselves are read lane by lane ([`View::each_lane`]): held in the
/// report, or waiting on disk ([`Spilled`]).
pub(super) struct View<'a> {
    pub(super) report: &'a RunReport,
    /// What every renderer counts of the outcomes, and the failing ones.
    pub(super) tally: Tally,
    source: Source<'a>,
    /// The keys of [`lanes`](Self::lanes), as lanes.
    lane_order: Vec<Lane>,
    /// Every lane that ran (the summary's lanes and the outcomes' lanes),
    /// with its count per class (indexed like [`Class::ALL`]).
    pub(super) lanes: BTreeMap<&'static str, [usize; 5]>,
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

/// What [`View::each_lane`] calls with each part of a lane's outcomes.
pub(super) type LaneFn<'f> = dyn FnMut(Lane, &[&CaseOutcome], Part) -> Result<(), ReportError> + 'f;

/// Where a part of a lane's outcomes is in the lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Part {
    pub(super) first: bool,
    pub(super) last: bool,
}

impl Part {
    /// The whole lane at once.
    pub(super) const WHOLE: Self = Self {
        first: true,
        last: true,
    };
}

/// Where a view's outcomes are.
enum Source<'a> {
    /// The report's own, sorted by (lane, case).
    Held(Vec<&'a CaseOutcome>),
    Spilled(&'a Spilled),
}

impl<'a> View<'a> {
    /// The view of a report that holds its outcomes.
    pub(super) fn new(report: &'a RunReport) -> Self {
        let outcomes = sorted_outcomes(&report.outcomes);
        let mut tally = Tally::default();
        for o in &outcomes {
            tally.add(o);
        }
        Self::with(report, tally, Source::Held(outcomes))
    }

    /// The view of a report whose outcomes wait in `spilled`.
    pub(super) fn spilled(report: &'a RunReport, spilled: &'a Spilled) -> Self {
        Self::with(report, spilled.tally(), Source::Spilled(spilled))
    }

    fn with(report: &'a RunReport, mut tally: Tally, source: Source<'a>) -> Self {
        tally.sort();
        let mut lanes: BTreeMap<&str, [usize; 5]> = report
            .summary
            .classes
            .keys()
            .map(|l| (l.id(), [0; 5]))
            .collect();
        let mut lane_order: Vec<Lane> = report.summary.classes.keys().copied().collect();
        for (lane, counts) in &tally.lanes {
            lanes.insert(lane.id(), *counts);
            lane_order.push(*lane);
        }
        lane_order.sort();
        lane_order.dedup();
        let issues = sorted_refs(&report.ledger_issues);
        let mut requests: Vec<&RequestOutcome> = report.requests.iter().collect();
        requests.sort_by_key(|r| (r.lane, r.catalog.as_str(), r.kind));
        Self {
            failing_requests: requests.iter().filter(|r| r.is_failure()).count(),
            requests,
            failing: tally.failing.len(),
            violations: tally.violations,
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
            tally,
            source,
            lane_order,
            lanes,
        }
    }

    /// Call `f` with each lane's outcomes sorted by case, every lane of
    /// [`lanes`](Self::lanes) in order (a lane with none gets one empty
    /// part): held, the whole lane at once; waiting on disk, a chunk at a
    /// time, so one chunk of outcomes is in memory at a time.
    pub(super) fn each_lane(&self, f: &mut LaneFn<'_>) -> Result<(), ReportError> {
        for &lane in &self.lane_order {
            match &self.source {
                Source::Held(outcomes) => {
                    let from = outcomes.partition_point(|o| o.lane < lane);
                    let to = outcomes.partition_point(|o| o.lane <= lane);
                    f(lane, &outcomes[from..to], Part::WHOLE)?;
                }
                Source::Spilled(spilled) => {
                    let mut first = true;
                    spilled.each_chunk(lane, &mut |cases, last| {
                        let part = Part { first, last };
                        first = false;
                        f(lane, cases, part)
                    })?;
                    if first {
                        f(lane, &[], Part::WHOLE)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The ledger entries and tags of `lane`'s listed cases (divergent or
    /// failing), each sorted and once: its lane file's tables.
    pub(super) fn listed_tables(&self, lane: Lane) -> (Vec<&'a LedgerMatch>, Vec<&'a str>) {
        match &self.source {
            Source::Held(outcomes) => {
                let from = outcomes.partition_point(|o| o.lane < lane);
                let to = outcomes.partition_point(|o| o.lane <= lane);
                let listed: Vec<&CaseOutcome> = outcomes[from..to]
                    .iter()
                    .copied()
                    .filter(|o| super::tally::listed(o))
                    .collect();
                (
                    super::stored::ledger_table(&listed),
                    super::stored::tag_table(&listed),
                )
            }
            Source::Spilled(spilled) => spilled.listed_tables(lane),
        }
    }

    /// Every ledger match, tag and semantic verdict the outcomes hold
    /// (each possibly many times): what `outcomes.json`'s tables are made of.
    pub(super) fn held_tables(
        &self,
    ) -> (
        Vec<&LedgerMatch>,
        Vec<&str>,
        Vec<&crate::semantic::Semantics>,
    ) {
        match &self.source {
            Source::Held(outcomes) => (
                super::stored::ledger_table(outcomes),
                super::stored::tag_table(outcomes),
                outcomes
                    .iter()
                    .flat_map(|o| [&o.old, &o.new])
                    .filter_map(|side| side.semantic.as_deref())
                    .collect(),
            ),
            Source::Spilled(spilled) => spilled.tables(),
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
