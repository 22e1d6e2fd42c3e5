//! Mutation checks (`wireshape mutants`): named, deterministic mutants of
//! the v1 profile, each run against the evidence suite the harness already
//! has. A mutant that no check notices names a rule no evidence pins.
//!
//! Mutants, per lane with passes (lanes in id order):
//! 1. each pass switched off;
//! 2. each pair of adjacent passes swapped;
//! 3. each pass's declared mutation points ([`Pass::mutants`]).
//!
//! A mutant is a pipeline value ([`PassList`]): the lane's pass list with one
//! change; every other lane runs v1 unchanged. The evidence suite, in the
//! order the checks run (the first one that changes verdict catches the
//! mutant and is named in the outcome):
//! 1. `pass-examples`: the mutated pass's own expected examples
//!    (`corpus/pass-examples/<pass>.json`; a switched-off pass runs them as
//!    the identity);
//!    `pipeline-examples`: the lane's expected examples through the whole
//!    mutated pass list (`corpus/pass-examples/v1-<lane>.json`, whose `pass`
//!    is `v1/<lane>`): what pins an order;
//! 2. over the corpus cases of the lane, in case order, through the
//!    differential's own [`run_case`](crate::differential::run_case) (v0 →
//!    mutant): `invariants` (a new violation), `ledger-diff` (the case's
//!    class, ledger matches or stale pins change), `oracle` (the fix /
//!    regression verdict or the rules rejecting the new output change);
//! 3. `replay`: every recording of the lane through
//!    [`replay_all`](crate::replay::replay_all) with the declared known gaps
//!    (a recording's fix kind or pass/fail changes).
//!
//! The unmutated pipeline runs the same suite first (the baseline): it must
//! pass every check, else the run stops (exit 4).
//!
//! Files: `plan` (the mutants), `examples` (pass and pipeline examples and
//! their snapshots), `evidence` (loading the evidence, the baseline
//! verdicts), `judge` (one mutant against the suite, outcomes, equivalent
//! entries), `summary` (the counts), `writer` (the output folder).

mod evidence;
mod examples;
mod judge;
mod plan;
mod summary;
#[cfg(test)]
mod tests;
mod writer;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::Duration;

use crate::lane::Lane;

use evidence::LaneBaseline;
use judge::{apply_equivalent, judge};

pub use evidence::{EvidenceOptions, MutantEvidence, load_evidence};
pub use judge::{CHECKS, Evidence, INDEPENDENT_CHECKS, MutantOutcome, MutantResult};
pub use plan::{Mutant, MutantInfo, MutantKind, plan};
pub use summary::{BaselineFailed, MutantsReport, MutantsSummary, PassCounts};
pub use writer::MutantsWriter;

/// What a run needs besides the evidence.
pub struct RunOptions {
    pub jobs: usize,
    /// Per-mutant budget.
    pub timeout: Duration,
}

/// Run the baseline, then every mutant (on `jobs` threads; results in plan
/// order). `on_result` gets each result as it arrives.
pub fn run(
    ev: &MutantEvidence,
    mutants: &[Mutant],
    opts: &RunOptions,
    on_result: &mut dyn FnMut(&MutantResult),
) -> Result<MutantsReport, BaselineFailed> {
    let mut lanes: Vec<Lane> = mutants
        .iter()
        .filter_map(|m| Lane::parse(&m.info.lane).ok())
        .collect();
    lanes.sort_by_key(|l| l.id());
    lanes.dedup();
    let mut problems = Vec::new();
    let baselines: BTreeMap<Lane, LaneBaseline> = lanes
        .iter()
        .map(|&l| (l, ev.baseline_lane(l, &mut problems)))
        .collect();
    if !problems.is_empty() {
        return Err(BaselineFailed { problems });
    }
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<MutantResult>>> = Mutex::new(vec![None; mutants.len()]);
    let (tx, rx) = mpsc::channel::<MutantResult>();
    std::thread::scope(|scope| {
        for _ in 0..opts.jobs.max(1).min(mutants.len().max(1)) {
            let tx = tx.clone();
            let (next, slots, baselines) = (&next, &slots, &baselines);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(m) = mutants.get(i) else { break };
                    let lane = Lane::parse(&m.info.lane).unwrap_or(Lane::OpenaiChat);
                    let base = baselines.get(&lane);
                    let outcome = base.map_or(MutantOutcome::Missed, |base| {
                        judge(ev, base, m, opts.timeout)
                    });
                    // Only a mutant that stays missed, or that only examples
                    // notice, gets a witness (for one listed equivalent, it
                    // refutes the entry).
                    let witness = base
                        .filter(|_| outcome == MutantOutcome::Missed || outcome.only_by_examples())
                        .and_then(|base| ev.witness(base, m));
                    let r = MutantResult {
                        info: m.info.clone(),
                        outcome,
                        witness,
                    };
                    if let Ok(mut s) = slots.lock() {
                        s[i] = Some(r.clone());
                    }
                    if tx.send(r).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for r in rx {
            on_result(&r);
        }
    });
    let mut results: Vec<MutantResult> = slots
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect();
    let stale_equivalent = apply_equivalent(&ev.equivalent, &mut results);
    Ok(MutantsReport {
        summary: MutantsSummary::of(&results),
        results,
        stale_equivalent,
    })
}
