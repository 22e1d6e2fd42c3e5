//! The line files: `divergences.jsonl` (one JSON object a line, tagged
//! by `type`: the failing cases one by one, the declared divergences
//! counted per ledger class and lane, violations, ledger issues, unusable
//! files; each intended case's tags and entries are in `outcomes.json`)
//! and the `*.txt` lists (one key a line per class, plus `violations.txt`
//! and `failures.txt`).

use std::fmt::Write as _;

use serde::Serialize;

use super::view::{View, sorted_refs};
use crate::outcome::{CaseOutcome, Class, LedgerMatch, LedgerTable};

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
enum Line<'a> {
    Divergence {
        lane: &'a str,
        case: &'a str,
        class: Class,
        #[serde(skip_serializing_if = "<[_]>::is_empty")]
        tags: &'a [String],
        #[serde(skip_serializing_if = "Vec::is_empty")]
        ledger: Vec<LedgerRef<'a>>,
    },
    Declared {
        lane: &'a str,
        /// The ledger class.
        class: &'a str,
        cases: usize,
        /// `<file>#<index>`, sorted.
        entries: Vec<String>,
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

/// A ledger entry named by its place and class; its reason is in
/// `outcomes.json`'s `ledger` table and in the ledger file.
#[derive(Serialize)]
struct LedgerRef<'a> {
    file: &'a str,
    #[serde(skip_serializing_if = "LedgerTable::is_divergence")]
    table: LedgerTable,
    index: usize,
    class: &'a str,
}

impl<'a> From<&'a LedgerMatch> for LedgerRef<'a> {
    fn from(m: &'a LedgerMatch) -> Self {
        Self {
            file: &m.file,
            table: m.table,
            index: m.index,
            class: &m.class,
        }
    }
}

pub(super) fn divergences_jsonl(view: &View<'_>) -> String {
    let mut lines = Vec::new();
    for o in &view.tally.failing {
        lines.push(Line::Divergence {
            lane: o.lane.id(),
            case: &o.case,
            class: o.class,
            tags: &o.tags,
            ledger: o.ledger.iter().map(|m| LedgerRef::from(&**m)).collect(),
        });
    }
    for ((class, lane), g) in &view.tally.declared {
        lines.push(Line::Declared {
            lane: lane.id(),
            class,
            cases: g.cases,
            entries: g
                .entries
                .iter()
                .map(|m| format!("{}#{}", m.file, m.index))
                .collect(),
        });
    }
    // A case with a violation fails.
    for o in &view.tally.failing {
        for v in sorted_refs(&o.violations) {
            lines.push(Line::Violation {
                lane: o.lane.id(),
                case: &o.case,
                invariant: v.invariant.id(),
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
            kind: i.kind.id(),
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

pub(super) fn key_lines<'a>(outcomes: impl Iterator<Item = &'a &'a CaseOutcome>) -> String {
    let mut out = Vec::new();
    // Writing into a `Vec` cannot fail, and keys are UTF-8.
    let _ = write_key_lines(&mut out, outcomes);
    String::from_utf8(out).unwrap_or_default()
}

/// Each outcome's key (`lane::case`), one a line, written as it goes (the
/// identical cases' list of a large run is tens of MB).
pub(super) fn write_key_lines<'a>(
    w: &mut impl std::io::Write,
    outcomes: impl Iterator<Item = &'a &'a CaseOutcome>,
) -> std::io::Result<()> {
    for o in outcomes {
        w.write_all(o.lane.id().as_bytes())?;
        w.write_all(b"::")?;
        w.write_all(o.case.as_bytes())?;
        w.write_all(b"\n")?;
    }
    Ok(())
}

pub(super) fn violations_txt(view: &View<'_>) -> String {
    let mut out = String::new();
    // A case with a violation fails.
    for o in &view.tally.failing {
        for v in sorted_refs(&o.violations) {
            let _ = writeln!(out, "{}::{} {} {}", o.lane, o.case, v.invariant, v.pipeline);
        }
    }
    out
}

/// `failures.txt`: the failing cases' keys, then the failing requests'.
pub(super) fn failures_txt(view: &View<'_>) -> String {
    let failing: Vec<&CaseOutcome> = view.tally.failing.iter().collect();
    let mut failures = key_lines(failing.iter());
    for r in view.requests.iter().filter(|r| r.is_failure()) {
        failures.push_str(&r.key());
        failures.push('\n');
    }
    failures
}
