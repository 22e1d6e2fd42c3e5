//! The watchdog: each mutant is judged on a thread of its own, at most
//! `jobs` at a time, and one still running past its budget is a timeout
//! instead of a hung run.
//!
//! The budget is first checked between cases by the judging thread itself
//! ([`judge`]). A pass that never returns inside one case never reaches that
//! check, so the calling thread watches every judging thread's deadline
//! (its budget plus [`GRACE`]) with the worker pool
//! ([`workers::detached`]). Past it, the mutant is judged on what its
//! checks noticed so far ([`Noticed`]): nothing is the `timeout` outcome,
//! anything is caught with `budget_exhausted` (no witness is looked for:
//! that would run the mutant again). Its thread is *abandoned*: Rust cannot
//! kill a thread, so it is detached (its handle dropped, never joined), owns
//! what it reads (shared evidence, its mutant), holds no lock the run needs,
//! and sends any late result into a channel nobody reads. The run goes on
//! with a new thread in its place; the process exits at the end regardless.
//! Results are kept by plan position, so their order never depends on which
//! thread finished first.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::lane::Lane;
use crate::workers::{self, Finished};

use super::RunOptions;
use super::evidence::{LaneBaseline, MutantEvidence};
use super::judge::{MutantOutcome, MutantResult, Noticed, judge, outcome_of};
use super::plan::Mutant;

/// How long past its budget a judging thread may take to reach its next
/// between-cases check before the watchdog stops waiting for it.
const GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// What every judging thread reads.
struct Shared {
    ev: MutantEvidence,
    baselines: BTreeMap<Lane, LaneBaseline>,
}

/// One mutant to judge, with everything its thread owns.
struct Job {
    shared: Arc<Shared>,
    mutant: Mutant,
    budget: std::time::Duration,
    noticed: Arc<Noticed>,
}

impl Job {
    fn judge(&self) -> MutantResult {
        let (ev, m) = (&self.shared.ev, &self.mutant);
        let lane = m.info.lane;
        let base = self.shared.baselines.get(&lane);
        let outcome = base.map_or(MutantOutcome::Missed, |base| {
            judge(ev, base, m, self.budget, &self.noticed)
        });
        // Only a mutant that stays missed, or that only examples notice,
        // gets a witness (for one listed equivalent, it refutes the entry).
        let witness = base
            .filter(|_| outcome == MutantOutcome::Missed || outcome.only_by_examples())
            .and_then(|base| ev.witness(base, m));
        MutantResult {
            info: m.info.clone(),
            outcome,
            witness,
        }
    }
}

/// Judge every mutant, each on a detached thread of its own (at most
/// `opts.jobs` at a time) under the watchdog (the worker pool's deadline:
/// budget plus [`GRACE`]); results in plan order. `on_result` gets each
/// result as it arrives (a timeout when the watchdog gives up waiting).
pub(super) fn judge_all(
    ev: &MutantEvidence,
    baselines: BTreeMap<Lane, LaneBaseline>,
    mutants: &[Mutant],
    opts: &RunOptions,
    on_result: &mut dyn FnMut(&MutantResult),
) -> Vec<MutantResult> {
    let shared = Arc::new(Shared {
        ev: ev.clone(),
        baselines,
    });
    let mut slots: Vec<Option<MutantResult>> = vec![None; mutants.len()];
    // What each mutant's checks noticed so far, read on a timeout.
    let noticed: Vec<Arc<Noticed>> = mutants.iter().map(|_| Arc::default()).collect();
    workers::detached(
        "mutant",
        opts.jobs,
        mutants.len(),
        opts.timeout.checked_add(GRACE),
        &mut |i| {
            let job = Job {
                shared: Arc::clone(&shared),
                mutant: mutants[i].clone(),
                budget: opts.timeout,
                noticed: Arc::clone(&noticed[i]),
            };
            move || job.judge()
        },
        &mut |i, finished| {
            let r = match finished {
                Finished::Done(r) => r,
                Finished::TimedOut => MutantResult {
                    info: mutants[i].info.clone(),
                    outcome: outcome_of(noticed[i].details(), true),
                    witness: None,
                },
            };
            on_result(&r);
            slots[i] = Some(r);
        },
    );
    slots.into_iter().flatten().collect()
}
