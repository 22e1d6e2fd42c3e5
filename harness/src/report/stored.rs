//! The stored form of `outcomes.json` outcomes and of `cases.json` (format
//! 3): what a report writes per case and how [`read_report`](super::read_report)
//! turns it back into [`CaseOutcome`]s.
//!
//! Nothing is written twice: a side carries no pipeline name (the file's
//! `old`/`new` say it), `outcome` is omitted when `shaped` and `class`
//! when `identical`, empty lists are omitted, the new side is omitted when
//! it equals the old one (an identical case), outcomes are grouped by lane
//! (the lane is not repeated), a ledger match, a tag and a semantic verdict
//! are indices into the file's `ledger`, `tags` and `semantics` tables
//! (each entry, with its reason, each tag and each verdict written once),
//! and the wire pairs (schema bytes) live only in the lane's
//! `data/<lane>.js`, keyed by case: an output is named by its sha256.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::degradation::Degradation;
use crate::lane::Lane;
use crate::outcome::{
    CaseOutcome, CasePlan, Class, LedgerMatch, PinBreak, Plan, Sha256Sum, Side, Violation,
};
use crate::pipeline::OutcomeKind;
use crate::semantic::Semantics;
use crate::verdict::Verdict;

/// The format number `outcomes.json` and `cases.json` carry.
pub(super) const FORMAT: u32 = 3;

/// Every ledger entry the outcomes name, sorted, each once: the
/// `ledger` table outcomes point into by position.
pub(super) fn ledger_table<'a>(outcomes: &[&'a CaseOutcome]) -> Vec<&'a LedgerMatch> {
    let mut table: Vec<&LedgerMatch> = outcomes
        .iter()
        .flat_map(|o| o.ledger.iter().map(|m| &**m))
        .collect();
    table.sort();
    table.dedup();
    table
}

/// Every tag the outcomes carry, sorted, each once: the `tags` table
/// outcomes point into by position.
pub(super) fn tag_table<'a>(outcomes: &[&'a CaseOutcome]) -> Vec<&'a str> {
    let mut table: Vec<&str> = outcomes
        .iter()
        .flat_map(|o| &o.tags)
        .map(String::as_str)
        .collect();
    table.sort_unstable();
    table.dedup();
    table
}

/// Every semantic verdict the outcomes' sides carry, each once, in the
/// order of its JSON text: the `semantics` table sides point into by
/// position (most verdicts repeat: a tool's on every lane, `preserved`
/// over the same instances).
pub(super) struct SemanticTable<'a> {
    /// Sorted by the JSON text.
    entries: Vec<&'a Semantics>,
    /// Each verdict the outcomes hold (sides share them), by address: its
    /// position in `entries`, so each is serialized once.
    at: HashMap<usize, usize>,
}

impl<'a> SemanticTable<'a> {
    /// Each verdict's text is made once and held only while the table is
    /// sorted (the 15-lane run over four copies of the shared corpus held
    /// two copies of every text for its whole `outcomes.json`: about
    /// 140 MB; 2026-12-05).
    #[cfg(test)]
    pub(super) fn new(outcomes: &[&'a CaseOutcome]) -> Self {
        Self::of(
            outcomes
                .iter()
                .flat_map(|o| [&o.old, &o.new])
                .filter_map(|side| side.semantic.as_deref())
                .collect(),
        )
    }

    /// The table of the verdicts `held` (each as many times as it is held).
    pub(super) fn of(mut held: Vec<&'a Semantics>) -> Self {
        held.sort_unstable_by_key(|s| std::ptr::from_ref(*s));
        held.dedup_by_key(|s| std::ptr::from_ref(*s));
        let mut texts: Vec<(String, &Semantics)> =
            held.into_iter().map(|s| (semantic_text(s), s)).collect();
        texts.sort_by(|a, b| a.0.cmp(&b.0));
        let mut entries: Vec<&Semantics> = Vec::new();
        let mut at = HashMap::with_capacity(texts.len());
        for (i, (text, s)) in texts.iter().enumerate() {
            if i == 0 || texts[i - 1].0 != *text {
                entries.push(*s);
            }
            at.insert(std::ptr::from_ref(*s).addr(), entries.len() - 1);
        }
        Self { entries, at }
    }

    /// The table as written.
    pub(super) fn values(&self) -> Vec<&'a Semantics> {
        self.entries.clone()
    }

    /// `s`'s position: by its address for a verdict of the outcomes the
    /// table was made from, else by its text (a scan: never needed for
    /// those outcomes).
    pub(super) fn index(&self, s: &Semantics) -> Option<usize> {
        if let Some(&i) = self.at.get(&std::ptr::from_ref(s).addr()) {
            return Some(i);
        }
        let text = semantic_text(s);
        self.entries.iter().position(|e| semantic_text(e) == text)
    }
}

pub(super) fn semantic_text(s: &Semantics) -> String {
    // A struct of strings, numbers and JSON values always serializes.
    serde_json::to_string(s).unwrap_or_default()
}

/// The positions of `items` in the sorted `table` (every item is in it).
pub(super) fn indices<T: Ord, U: std::borrow::Borrow<T>>(
    items: impl IntoIterator<Item = U>,
    table: &[T],
) -> Vec<usize> {
    items
        .into_iter()
        .filter_map(|item| table.binary_search(item.borrow()).ok())
        .collect()
}

/// The plan as read back (`cases.json`'s lanes, cases on every lane, and
/// each lane's own).
pub(super) fn plan_in(lanes: &[Lane], every: &[String], only: BTreeMap<Lane, Vec<String>>) -> Plan {
    let every = lanes.iter().flat_map(|&lane| {
        every.iter().map(move |case| CasePlan {
            lane,
            case: case.as_str().into(),
        })
    });
    let only = only.into_iter().flat_map(|(lane, cases)| {
        cases.into_iter().map(move |case| CasePlan {
            lane,
            case: case.into(),
        })
    });
    Plan::of(every.chain(only))
}

/// The tables an outcome's indices point into.
pub(super) struct Tables<'t, 'a> {
    pub(super) ledger: &'t [&'a LedgerMatch],
    pub(super) tags: &'t [&'a str],
    pub(super) semantics: &'t SemanticTable<'a>,
}

/// One outcome as written.
#[derive(Serialize)]
pub(super) struct OutcomeOut<'a> {
    case: &'a str,
    #[serde(skip_serializing_if = "is_identical")]
    class: Class,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tags: Vec<usize>,
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
    /// The tables are [`ledger_table`], [`tag_table`] and
    /// [`SemanticTable`] of the outcomes written.
    pub(super) fn new(o: &'a CaseOutcome, tables: &Tables<'_, '_>) -> Self {
        let semantic = |s: &Side| {
            s.semantic
                .as_deref()
                .and_then(|s| tables.semantics.index(s))
        };
        Self::with(
            o,
            indices(o.tags.iter().map(String::as_str), tables.tags),
            indices(o.ledger.iter().map(|m| &**m), tables.ledger),
            [semantic(&o.old), semantic(&o.new)],
        )
    }

    /// `o` with its tags, ledger matches and sides' semantic verdicts
    /// already looked up (old, new).
    pub(super) fn with(
        o: &'a CaseOutcome,
        tags: Vec<usize>,
        ledger: Vec<usize>,
        semantic: [Option<usize>; 2],
    ) -> Self {
        let old = SideOut::new(&o.old, semantic[0]);
        let new = SideOut::new(&o.new, semantic[1]);
        Self {
            case: &o.case,
            class: o.class,
            tags,
            ledger,
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
    sha256: &'a Sha256Sum,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    degradations: &'a [Degradation],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    rejected_by: &'a [String],
    /// An index into the file's `semantics` table.
    #[serde(skip_serializing_if = "Option::is_none")]
    semantic: Option<usize>,
}

impl<'a> SideOut<'a> {
    fn new(s: &'a Side, semantic: Option<usize>) -> Self {
        Self {
            outcome: s.outcome,
            detail: s.detail.as_deref(),
            sha256: &s.sha256,
            degradations: &s.degradations,
            rejected_by: &s.rejected_by,
            semantic,
        }
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if takes &T
fn is_shaped(k: &OutcomeKind) -> bool {
    *k == OutcomeKind::Shaped
}

/// The tables of `outcomes.json` an outcome's indices point into, as read.
pub(super) struct TablesIn<'a> {
    pub(super) ledger: &'a [Arc<LedgerMatch>],
    pub(super) tags: &'a [String],
    pub(super) semantics: &'a [Arc<Semantics>],
}

/// One outcome as read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct OutcomeIn {
    case: String,
    #[serde(default = "identical")]
    class: Class,
    #[serde(default)]
    tags: Vec<usize>,
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
    /// and tags looked up in the file's tables; an index past a table is an
    /// error message.
    pub(super) fn into_outcome(
        self,
        lane: Lane,
        old: &str,
        new: &str,
        tables: &TablesIn<'_>,
    ) -> Result<CaseOutcome, String> {
        let look_up =
            |indices: &[usize], name: &str, len: usize| match indices.iter().find(|&&i| i >= len) {
                Some(i) => Err(format!(
                    "{lane}::{}: {name} index {i} is past the {len}-entry `{name}` table",
                    self.case
                )),
                None => Ok(indices.to_vec()),
            };
        let ledger = look_up(&self.ledger, "ledger", tables.ledger.len())?;
        let tags = look_up(&self.tags, "tags", tables.tags.len())?;
        let semantic = |side: &SideIn| {
            side.semantic
                .map(|i| {
                    look_up(&[i], "semantics", tables.semantics.len())
                        .map(|_| Arc::clone(&tables.semantics[i]))
                })
                .transpose()
        };
        let old_semantic = semantic(&self.old)?;
        let new_semantic = match &self.new {
            Some(side) => semantic(side)?,
            None => old_semantic.clone(),
        };
        let new_side = self.new.unwrap_or_else(|| self.old.clone());
        Ok(CaseOutcome {
            lane,
            case: self.case,
            class: self.class,
            tags: tags.iter().map(|&i| tables.tags[i].clone()).collect(),
            ledger: ledger
                .iter()
                .map(|&i| Arc::clone(&tables.ledger[i]))
                .collect(),
            old: self.old.into_side(old, old_semantic),
            new: new_side.into_side(new, new_semantic),
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
    sha256: Sha256Sum,
    #[serde(default)]
    degradations: Vec<Degradation>,
    #[serde(default)]
    rejected_by: Vec<String>,
    /// An index into the file's `semantics` table.
    #[serde(default)]
    semantic: Option<usize>,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if takes &T
fn is_identical(c: &Class) -> bool {
    *c == Class::Identical
}

fn identical() -> Class {
    Class::Identical
}

fn shaped() -> OutcomeKind {
    OutcomeKind::Shaped
}

impl SideIn {
    fn into_side(self, pipeline: &str, semantic: Option<Arc<Semantics>>) -> Side {
        Side {
            pipeline: pipeline.to_owned(),
            outcome: self.outcome,
            detail: self.detail,
            sha256: self.sha256,
            degradations: self.degradations,
            rejected_by: self.rejected_by,
            semantic,
        }
    }
}
