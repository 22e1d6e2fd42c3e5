//! The stored form of `outcomes.json` outcomes and of `cases.json` (format
//! 2): what a report writes per case and how [`read_report`](super::read_report)
//! turns it back into [`CaseOutcome`]s.
//!
//! Nothing is written twice: a side carries no pipeline name (the file's
//! `old`/`new` say it), `outcome` is omitted when `shaped`, empty lists are
//! omitted, the new side is omitted when it equals the old one (an
//! identical case), outcomes are grouped by lane (the lane is not
//! repeated), a ledger match is an index into the file's `ledger` table
//! (each entry, with its reason, written once), and the wire pairs (schema
//! bytes) live only in the lane's `data/<lane>.js`, keyed by case: an
//! output is named by its sha256.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::degradation::Degradation;
use crate::lane::Lane;
use crate::outcome::{CaseOutcome, CasePlan, Class, LedgerMatch, PinBreak, Side, Violation};
use crate::pipeline::OutcomeKind;
use crate::semantic::Semantics;
use crate::verdict::Verdict;

/// The format number `outcomes.json` and `cases.json` carry.
pub(super) const FORMAT: u32 = 2;

/// Every ledger entry the outcomes name, sorted, each once: the
/// `ledger` table outcomes point into by position.
pub(super) fn ledger_table<'a>(outcomes: &[&'a CaseOutcome]) -> Vec<&'a LedgerMatch> {
    let mut table: Vec<&LedgerMatch> = outcomes.iter().flat_map(|o| &o.ledger).collect();
    table.sort();
    table.dedup();
    table
}

/// The plan as written: the lanes, the cases planned on every lane, and
/// per lane the cases planned on it but not on every lane (a sharded run's
/// plan, a fuzz case on some lanes), so a plan that is lanes × cases names
/// each case once.
pub(super) struct PlanOut<'a> {
    pub(super) lanes: Vec<Lane>,
    pub(super) every: Vec<&'a str>,
    pub(super) only: BTreeMap<Lane, Vec<&'a str>>,
}

impl<'a> PlanOut<'a> {
    /// `plan` sorted and deduplicated.
    pub(super) fn new(plan: &[&'a CasePlan]) -> Self {
        let mut lanes: Vec<Lane> = plan.iter().map(|p| p.lane).collect();
        lanes.sort();
        lanes.dedup();
        let mut on: BTreeMap<&str, usize> = BTreeMap::new();
        for p in plan {
            *on.entry(&p.case).or_default() += 1;
        }
        let every: Vec<&str> = on
            .iter()
            .filter(|(_, n)| **n == lanes.len())
            .map(|(c, _)| *c)
            .collect();
        let mut only: BTreeMap<Lane, Vec<&str>> = BTreeMap::new();
        for p in plan.iter().filter(|p| on[p.case.as_str()] != lanes.len()) {
            only.entry(p.lane).or_default().push(&p.case);
        }
        Self { lanes, every, only }
    }
}

/// The plan as read back, sorted.
pub(super) fn plan_in(
    lanes: &[Lane],
    every: &[String],
    only: BTreeMap<Lane, Vec<String>>,
) -> Vec<CasePlan> {
    let mut plan: Vec<CasePlan> =
        lanes
            .iter()
            .flat_map(|&lane| {
                every.iter().map(move |case| CasePlan {
                    lane,
                    case: case.clone(),
                })
            })
            .chain(only.into_iter().flat_map(|(lane, cases)| {
                cases.into_iter().map(move |case| CasePlan { lane, case })
            }))
            .collect();
    plan.sort();
    plan
}

/// One outcome as written.
#[derive(Serialize)]
pub(super) struct OutcomeOut<'a> {
    case: &'a str,
    class: Class,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    tags: &'a [String],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    ledger: Vec<usize>,
    old: SideOut<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    new: Option<SideOut<'a>>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    violations: &'a [Violation],
    #[serde(skip_serializing_if = "Option::is_none")]
    verdict: Option<Verdict>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pin_breaks: &'a [PinBreak],
}

impl<'a> OutcomeOut<'a> {
    /// `table` is [`ledger_table`] of the outcomes written.
    pub(super) fn new(o: &'a CaseOutcome, table: &[&LedgerMatch]) -> Self {
        let old = SideOut::from(&o.old);
        let new = SideOut::from(&o.new);
        Self {
            case: &o.case,
            class: o.class,
            tags: &o.tags,
            ledger: o
                .ledger
                .iter()
                .filter_map(|m| table.binary_search(&m).ok())
                .collect(),
            new: (new != old).then_some(new),
            old,
            violations: &o.violations,
            verdict: o.verdict,
            pin_breaks: &o.pin_breaks,
        }
    }
}

#[derive(Serialize, PartialEq)]
struct SideOut<'a> {
    #[serde(skip_serializing_if = "is_shaped")]
    outcome: OutcomeKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<&'a str>,
    sha256: &'a str,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    degradations: &'a [Degradation],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    rejected_by: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    semantic: Option<&'a Semantics>,
}

impl<'a> From<&'a Side> for SideOut<'a> {
    fn from(s: &'a Side) -> Self {
        Self {
            outcome: s.outcome,
            detail: s.detail.as_deref(),
            sha256: &s.sha256,
            degradations: &s.degradations,
            rejected_by: &s.rejected_by,
            semantic: s.semantic.as_ref(),
        }
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if takes &T
fn is_shaped(k: &OutcomeKind) -> bool {
    *k == OutcomeKind::Shaped
}

/// One outcome as read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct OutcomeIn {
    case: String,
    class: Class,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    ledger: Vec<usize>,
    old: SideIn,
    #[serde(default)]
    new: Option<SideIn>,
    #[serde(default)]
    violations: Vec<Violation>,
    #[serde(default)]
    verdict: Option<Verdict>,
    #[serde(default)]
    pin_breaks: Vec<PinBreak>,
}

impl OutcomeIn {
    /// The outcome, its sides named `old` and `new`, its ledger matches
    /// looked up in `table`; an index past the table is an error message.
    pub(super) fn into_outcome(
        self,
        lane: Lane,
        old: &str,
        new: &str,
        table: &[LedgerMatch],
    ) -> Result<CaseOutcome, String> {
        let ledger = self
            .ledger
            .iter()
            .map(|&i| {
                table.get(i).cloned().ok_or_else(|| {
                    format!(
                        "{lane}::{}: ledger index {i} is past the {}-entry `ledger` table",
                        self.case,
                        table.len()
                    )
                })
            })
            .collect::<Result<_, _>>()?;
        let new_side = self.new.unwrap_or_else(|| self.old.clone());
        Ok(CaseOutcome {
            lane,
            case: self.case,
            class: self.class,
            tags: self.tags,
            ledger,
            old: self.old.into_side(old),
            new: new_side.into_side(new),
            violations: self.violations,
            wire: None,
            verdict: self.verdict,
            pin_breaks: self.pin_breaks,
        })
    }
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct SideIn {
    #[serde(default = "shaped")]
    outcome: OutcomeKind,
    #[serde(default)]
    detail: Option<String>,
    sha256: String,
    #[serde(default)]
    degradations: Vec<Degradation>,
    #[serde(default)]
    rejected_by: Vec<String>,
    #[serde(default)]
    semantic: Option<Semantics>,
}

fn shaped() -> OutcomeKind {
    OutcomeKind::Shaped
}

impl SideIn {
    fn into_side(self, pipeline: &str) -> Side {
        Side {
            pipeline: pipeline.to_owned(),
            outcome: self.outcome,
            detail: self.detail,
            sha256: self.sha256,
            degradations: self.degradations,
            rejected_by: self.rejected_by,
            semantic: self.semantic,
        }
    }
}
