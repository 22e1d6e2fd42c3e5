//! The comparison table as text, shared by `summary.md`, `index.html` and
//! the terminal: its columns ([`COLUMNS`]), one row per cell ([`row`]),
//! what the comparison covers ([`scope`]) and how to read it ([`NOTES`]).

use super::view::plural;
use crate::compare::{Cell, CellStats, CompareReport};

/// The comparison table's columns, in order.
pub(crate) const COLUMNS: [&str; 9] = [
    "lane",
    "pipeline",
    "cases",
    "accepted %",
    "rejected",
    "top rejecting rules",
    "errored %",
    "failed closed",
    "violations",
];

/// The position of the one column of any width (`top rejecting rules`).
pub(crate) const RULES_COLUMN: usize = 5;

/// A cell the pipeline does not serve shows this in every count column.
pub(crate) const NOT_SERVED: &str = "—";

/// The top rejecting rules a row names (the rest are counted).
const TOP_RULES: usize = 3;

/// One row of the table as plain text, in [`COLUMNS`] order.
pub(crate) fn row(cell: &Cell) -> [String; 9] {
    let [cases, accepted, rejected, rules, errored, closed, violated] = match &cell.stats {
        None => std::array::from_fn(|_| NOT_SERVED.to_owned()),
        Some(s) => [
            s.cases.to_string(),
            percent(s.accepted_pct),
            s.rejected.to_string(),
            top_rules(s),
            percent(s.errored_pct),
            s.failed_closed.to_string(),
            violations(s),
        ],
    };
    [
        cell.lane.id().to_owned(),
        cell.pipeline.clone(),
        cases,
        accepted,
        rejected,
        rules,
        errored,
        closed,
        violated,
    ]
}

/// `40.0`, or `n/a` for a cell without cases.
fn percent(p: Option<f64>) -> String {
    p.map_or_else(|| "n/a".to_owned(), |p| format!("{p:.1}"))
}

/// The rules rejecting most outputs, most first (ties by id):
/// `rule (n), rule (n), rule (n), +k more`; empty when none.
pub(crate) fn top_rules(s: &CellStats) -> String {
    let mut rules: Vec<(&String, &usize)> = s.rejected_by_rule.iter().collect();
    rules.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let mut parts: Vec<String> = rules
        .iter()
        .take(TOP_RULES)
        .map(|(r, n)| format!("{r} ({n})"))
        .collect();
    if rules.len() > TOP_RULES {
        parts.push(format!("+{} more", rules.len() - TOP_RULES));
    }
    parts.join(", ")
}

/// `0`, or `3 (never-silent 2, idempotence 1)` (by invariant id).
fn violations(s: &CellStats) -> String {
    if s.violations == 0 {
        return "0".to_owned();
    }
    let parts: Vec<String> = s
        .violations_by_invariant
        .iter()
        .map(|(inv, n)| format!("{inv} {n}"))
        .collect();
    format!("{} ({})", s.violations, parts.join(", "))
}

/// What a comparison covers: `3 pipelines on 16 lanes over 40 tools`.
pub(crate) fn scope(report: &CompareReport) -> String {
    format!(
        "{} on {} over {}",
        plural(report.pipelines.len(), "pipeline", "pipelines"),
        plural(report.lanes.len(), "lane", "lanes"),
        plural(report.tools, "tool", "tools"),
    )
}

/// The notes under the table: how to read it.
pub(crate) const NOTES: [&str; 4] = [
    "accepted + rejected + errored = cases: an errored case (a panic, a limit, a broken protocol) has no output to judge",
    "failed closed: the tool ships as the pipeline left it, by design, and is judged like any other output",
    "violations: invariant checks of each output (idempotence, determinism, never silent, no panic)",
    "—: the pipeline does not serve that lane; its cases there were not run",
];
