//! Judging one mutant: the checks of the evidence suite, how a mutant ended
//! ([`MutantOutcome`]), its result, and the equivalent entries the run
//! applies or refutes.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::pipeline::{PassList, Profile};

use super::evidence::{
    CaseVerdict, Equivalent, EquivalentOn, LaneBaseline, MutantEvidence, lane_key,
};
use super::examples::{failing_example, run_example, run_pipeline_example};
use super::plan::{Mutant, MutantInfo};

/// The checks of the evidence suite, in the order they run.
pub(crate) const CHECKS: &[&str] = &[
    "pass-examples",
    "pipeline-examples",
    "invariants",
    "ledger-diff",
    "oracle",
    "replay",
    "semantic",
];

/// The checks whose verdict is independent of the pipeline under test:
/// invariants, the ledger-classified diff, the oracles and the recordings.
/// The other checks (`pass-examples`, `pipeline-examples`) compare with
/// outputs accepted from the pipeline itself: they pin bytes and prove
/// nothing about providers, so a mutant only they notice is counted apart.
pub(crate) const INDEPENDENT_CHECKS: &[&str] =
    &["invariants", "ledger-diff", "oracle", "replay", "semantic"];

/// Which evidence noticed a caught mutant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Evidence {
    /// At least one of [`INDEPENDENT_CHECKS`].
    Independent,
    /// Only `pass-examples` and/or `pipeline-examples`.
    ExamplesOnly,
}

impl Evidence {
    /// The evidence class of a non-empty `caught_by` list.
    pub(crate) fn of(caught_by: &[String]) -> Self {
        if caught_by
            .iter()
            .any(|c| INDEPENDENT_CHECKS.contains(&c.as_str()))
        {
            Self::Independent
        } else {
            Self::ExamplesOnly
        }
    }
}

/// How one mutant ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub(crate) enum MutantOutcome {
    /// At least one check changed verdict.
    Caught {
        /// Every check that noticed the mutant, in [`CHECKS`] order.
        caught_by: Vec<String>,
        /// Whether any of them is independent evidence.
        evidence: Evidence,
        /// Per check in `caught_by`: on what it noticed (the first case, in
        /// case order, for the corpus checks).
        details: BTreeMap<String, String>,
        /// The per-mutant budget ran out before every check ran: a check
        /// that did not run may have noticed it too.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        budget_exhausted: bool,
    },
    /// Every check kept its verdict.
    Missed,
    /// Not a distinct program (or equivalent by construction), with why.
    Unviable { reason: String },
    /// The per-mutant time budget ran out before any check noticed it.
    Timeout,
}

impl MutantOutcome {
    pub(crate) fn id(&self) -> &'static str {
        match self {
            Self::Caught { .. } => "caught",
            Self::Missed => "missed",
            Self::Unviable { .. } => "unviable",
            Self::Timeout => "timeout",
        }
    }

    /// A caught mutant's evidence class.
    pub(crate) fn evidence(&self) -> Option<Evidence> {
        match self {
            Self::Caught { evidence, .. } => Some(*evidence),
            _ => None,
        }
    }

    /// The checks that noticed the mutant (empty unless caught).
    pub(crate) fn caught_by(&self) -> &[String] {
        match self {
            Self::Caught { caught_by, .. } => caught_by,
            _ => &[],
        }
    }

    /// Caught, but only by examples blessed from the pipeline's own output.
    pub(crate) fn only_by_examples(&self) -> bool {
        self.evidence() == Some(Evidence::ExamplesOnly)
    }
}

/// One mutant's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct MutantResult {
    #[serde(flatten)]
    pub info: MutantInfo,
    #[serde(flatten)]
    pub outcome: MutantOutcome,
    /// Missed mutants and those caught only by examples: the corpus case
    /// (`<catalog>#<tool>`) with the smallest input whose output the mutant
    /// changes; absent when no corpus tool's output changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witness: Option<String>,
}

impl MutantResult {
    /// The line under a missed mutant (in `missed.txt` and the summary) or
    /// a mutant caught only by examples (`caught-only-by-examples.txt`).
    pub(crate) fn witness_line(&self) -> Option<String> {
        let none = match &self.outcome {
            MutantOutcome::Missed => {
                "no corpus tool's output changes: a corpus tool must exercise it, or it is equivalent"
            }
            o if o.only_by_examples() => {
                "no corpus tool's output changes: only the examples show it"
            }
            _ => return None,
        };
        Some(match &self.witness {
            Some(case) => format!("output changes on: {case}"),
            None => none.to_owned(),
        })
    }

    /// The line under a caught mutant in `caught.txt`.
    pub(crate) fn caught_by_line(&self) -> Option<String> {
        let by = self.outcome.caught_by();
        (!by.is_empty()).then(|| format!("caught by: {}", by.join(", ")))
    }
}

/// What the checks have noticed of one mutant so far (check → on what),
/// shared with the watchdog: a mutant it stops waiting for is judged on
/// what was noticed before ([`outcome_of`] with the budget exhausted). The
/// lock is held only to read or add an entry, never while a pass runs.
#[derive(Debug, Default)]
pub(super) struct Noticed(Mutex<BTreeMap<String, String>>);

impl Noticed {
    fn lock(&self) -> MutexGuard<'_, BTreeMap<String, String>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Record what `check` noticed, unless it already noticed something.
    fn note(&self, check: &str, detail: impl FnOnce() -> String) {
        self.lock().entry(check.to_owned()).or_insert_with(detail);
    }

    fn all(&self, checks: &[&str]) -> bool {
        let noticed = self.lock();
        checks.iter().all(|c| noticed.contains_key(*c))
    }

    /// Every check that noticed, with on what.
    pub(super) fn details(&self) -> BTreeMap<String, String> {
        self.lock().clone()
    }
}

/// How a mutant ended, given what its checks noticed (`details`) and
/// whether the budget ran out before every check ran: nothing noticed is
/// missed (a timeout when the budget ran out), anything noticed is caught.
pub(super) fn outcome_of(details: BTreeMap<String, String>, exhausted: bool) -> MutantOutcome {
    if details.is_empty() {
        return if exhausted {
            MutantOutcome::Timeout
        } else {
            MutantOutcome::Missed
        };
    }
    let caught_by: Vec<String> = CHECKS
        .iter()
        .filter(|c| details.contains_key(**c))
        .map(|c| (*c).to_owned())
        .collect();
    MutantOutcome::Caught {
        evidence: Evidence::of(&caught_by),
        caught_by,
        details,
        budget_exhausted: exhausted,
    }
}

/// Run every check of the suite on `m`, recording into `noticed` what each
/// notices (the corpus checks stop scanning cases once each has noticed,
/// or when the budget runs out: it is checked between cases).
pub(super) fn judge(
    ev: &MutantEvidence,
    base: &LaneBaseline,
    m: &Mutant,
    budget: Duration,
    noticed: &Noticed,
) -> MutantOutcome {
    if let Some(reason) = &m.unviable {
        return MutantOutcome::Unviable {
            reason: reason.clone(),
        };
    }
    let started = Instant::now();
    let lane = m.info.lane;
    let mutant: &PassList = &m.pipeline;
    if let Some((pass, stand_in)) = &m.examples {
        let p = stand_in.map(|i| mutant.passes[i].as_ref());
        if let Some(ex) = failing_example(ev.examples_of(pass), |ex| run_example(p, ex)) {
            noticed.note("pass-examples", || {
                format!("example {:?} of {pass}", ex.name)
            });
        }
    }
    let key = lane_key(lane);
    if let Some(ex) = failing_example(ev.examples_of(&key), |ex| run_pipeline_example(mutant, ex)) {
        noticed.note("pipeline-examples", || {
            format!("example {:?} of {key}", ex.name)
        });
    }
    let v0 = Profile::V0.with_config(ev.config.clone());
    let corpus_checks = ["invariants", "ledger-diff", "oracle", "semantic"];
    let mut exhausted = false;
    for (i, want) in &base.cases {
        if noticed.all(&corpus_checks) {
            break;
        }
        if started.elapsed() > budget {
            exhausted = true;
            break;
        }
        let case = &ev.cases[*i];
        let got = CaseVerdict::of(&v0, mutant, case, ev.ledgers.get(&lane));
        for (check, detail) in got.differences(want) {
            noticed.note(check, || format!("{}: {detail}", case.plan.case));
        }
    }
    if !exhausted && started.elapsed() > budget {
        exhausted = true;
    }
    if !exhausted {
        let replay = ev.replay(lane, mutant);
        if let Some(((id, kind, failed), (_, bkind, _))) =
            replay.iter().zip(&base.replay).find(|(a, b)| a != b)
        {
            noticed.note("replay", || {
                format!(
                    "{id}: {kind}{} (baseline {bkind})",
                    if *failed { ", fails" } else { "" }
                )
            });
        }
    }
    outcome_of(noticed.details(), exhausted)
}

/// Mark the listed equivalent mutants unviable, and return the entries the
/// run refutes: a mutant caught by independent evidence (or, unless listed
/// as the same on the wire, by examples), or one whose shipped output
/// changes on a corpus case (its witness).
pub(super) fn apply_equivalent(listed: &[Equivalent], results: &mut [MutantResult]) -> Vec<String> {
    let mut stale = Vec::new();
    for e in listed {
        let Some(r) = results.iter_mut().find(|r| r.info.name == e.mutant) else {
            continue;
        };
        let wire = e.on == Some(EquivalentOn::Wire);
        let refuted = match (&r.outcome, &r.witness) {
            (MutantOutcome::Unviable { .. } | MutantOutcome::Timeout, _) => continue,
            (_, Some(case)) => format!("its output changes on {case}"),
            (o, None) if o.evidence() == Some(Evidence::Independent) => {
                format!("caught by {}", o.caught_by().join(", "))
            }
            (o, None) if o.only_by_examples() && !wire => {
                format!("caught by {}", o.caught_by().join(", "))
            }
            (o, None) => {
                let noticed = if o.only_by_examples() {
                    format!(" (records differ: {} noticed)", o.caught_by().join(", "))
                } else {
                    String::new()
                };
                r.outcome = MutantOutcome::Unviable {
                    reason: if wire {
                        format!("equivalent on the wire{noticed}: {}", e.reason)
                    } else {
                        format!("equivalent: {}", e.reason)
                    },
                };
                continue;
            }
        };
        stale.push(format!("{}: listed as equivalent but {refuted}", e.mutant));
    }
    stale
}
