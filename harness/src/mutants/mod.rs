//! Mutation checks (`wireshape mutants`): named, deterministic mutants of
//! the v1 profile, each run against the evidence suite the harness already
//! has. A mutant that no check notices names a rule no evidence pins.
//!
//! Mutants, per lane with passes (lanes in id order):
//! 1. each pass switched off;
//! 2. each pair of adjacent passes swapped;
//! 3. each pass's declared mutation points
//!    ([`Pass::mutants`](crate::passes::Pass::mutants)).
//!
//! A mutant is a pipeline value ([`PassList`](crate::pipeline::PassList)):
//! the lane's pass list with one change; every other lane runs v1
//! unchanged. The evidence suite, in the order the checks run (the first
//! one that changes verdict catches the mutant and is named in the
//! outcome):
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
//! pass every check, else the run stops (exit 4). Each mutant is then judged
//! on a thread of its own under a watchdog (`watchdog`): one still running
//! past its budget (a pass that never returns inside a case) is a timeout,
//! its thread is abandoned, and the run goes on.
//!
//! Files: `plan` (the mutants), `examples` (pass and pipeline examples and
//! their snapshots), `evidence` (loading the evidence, the baseline
//! verdicts), `judge` (one mutant against the suite, outcomes, equivalent
//! entries), `watchdog` (the judging threads and their deadlines),
//! `summary` (the counts), `writer` (the output folder).

mod evidence;
mod examples;
mod judge;
mod plan;
mod summary;
#[cfg(test)]
mod tests;
mod watchdog;
mod writer;

use std::collections::BTreeMap;
use std::time::Duration;

use crate::lane::Lane;

use evidence::LaneBaseline;
use judge::apply_equivalent;

pub(crate) use evidence::{EvidenceOptions, MutantEvidence, load_evidence};
pub(crate) use judge::MutantResult;
pub(crate) use plan::{Mutant, MutantInfo, plan};
pub(crate) use summary::{BaselineFailed, MutantsReport, MutantsSummary};
pub(crate) use writer::MutantsWriter;

/// What a run needs besides the evidence.
pub(crate) struct RunOptions {
    /// How many mutants are judged at once.
    pub jobs: usize,
    /// Per-mutant budget: checked between cases, and enforced by the
    /// watchdog (a mutant still running a grace past it is a timeout).
    pub timeout: Duration,
}

/// Run the baseline, then every mutant (each on a thread of its own, at
/// most `jobs` at a time, under the watchdog; results in plan order).
/// `on_result` gets each result as it arrives. A thread the watchdog gave up
/// on is left running detached: this returns without waiting for it.
pub(crate) fn run(
    ev: &MutantEvidence,
    mutants: &[Mutant],
    opts: &RunOptions,
    on_result: &mut dyn FnMut(&MutantResult),
) -> Result<MutantsReport, BaselineFailed> {
    let mut lanes: Vec<Lane> = mutants.iter().map(|m| m.info.lane).collect();
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
    let mut results = watchdog::judge_all(ev, baselines, mutants, opts, on_result);
    let stale_equivalent = apply_equivalent(&ev.equivalent, &mut results);
    Ok(MutantsReport {
        summary: MutantsSummary::of(&results),
        results,
        stale_equivalent,
    })
}
