//! The watchdog: each mutant is judged on a thread of its own, at most
//! `jobs` at a time, and one still running past its budget is a timeout
//! instead of a hung run.
//!
//! The budget is first checked between cases by the judging thread itself
//! ([`judge`]). A pass that never returns inside one case never reaches that
//! check, so the calling thread watches every judging thread's deadline
//! (its budget plus [`GRACE`]). Past it, the mutant is judged on what its
//! checks noticed so far ([`Noticed`]): nothing is the `timeout` outcome,
//! anything is caught with `budget_exhausted` (no witness is looked for:
//! that would run the mutant again). Its thread is *abandoned*: Rust cannot
//! kill a thread, so it is detached (its handle dropped, never joined), owns
//! what it reads (shared evidence, its mutant), holds no lock the run needs,
//! and sends any late result into a channel nobody reads. The run goes on
//! with a new thread in its place; the process exits at the end regardless.
//! Results are kept by plan position, so their order never depends on which
//! thread finished first.

use std::any::Any;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use crate::lane::Lane;

use super::RunOptions;
use super::evidence::{LaneBaseline, MutantEvidence};
use super::judge::{MutantOutcome, MutantResult, Noticed, judge, outcome_of};
use super::plan::Mutant;

/// How long past its budget a judging thread may take to reach its next
/// between-cases check before the watchdog stops waiting for it.
const GRACE: Duration = Duration::from_secs(1);

/// What a judging thread sends back: its plan position and its result, or
/// the payload of its panic (re-raised on the calling thread).
type Done = (usize, Result<MutantResult, Box<dyn Any + Send>>);

/// What every judging thread reads.
struct Shared {
    ev: MutantEvidence,
    baselines: BTreeMap<Lane, LaneBaseline>,
}

/// One mutant to judge, with everything its thread owns.
#[derive(Clone)]
struct Job {
    shared: Arc<Shared>,
    index: usize,
    mutant: Mutant,
    budget: Duration,
    noticed: Arc<Noticed>,
    done: Sender<Done>,
}

impl Job {
    /// Judge the mutant and send the result (a panic is sent too).
    fn run(self) {
        let result = catch_unwind(AssertUnwindSafe(|| self.judge()));
        // The receiver is gone only once the run stopped waiting for us.
        let _ = self.done.send((self.index, result));
    }

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

/// A judging thread the watchdog is waiting for.
struct Running {
    /// `None`: a budget too large to add to a clock.
    deadline: Option<Instant>,
    noticed: Arc<Noticed>,
}

/// Judge every mutant, each on a thread of its own (at most `opts.jobs` at
/// a time) under the watchdog; results in plan order. `on_result` gets each
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
    let (done, results) = mpsc::channel::<Done>();
    let mut slots: Vec<Option<MutantResult>> = vec![None; mutants.len()];
    let mut running: BTreeMap<usize, Running> = BTreeMap::new();
    let mut next = 0;
    loop {
        while running.len() < opts.jobs.max(1) && next < mutants.len() {
            let job = Job {
                shared: Arc::clone(&shared),
                index: next,
                mutant: mutants[next].clone(),
                budget: opts.timeout,
                noticed: Arc::new(Noticed::default()),
                done: done.clone(),
            };
            running.insert(
                next,
                Running {
                    deadline: Instant::now()
                        .checked_add(opts.timeout)
                        .and_then(|t| t.checked_add(GRACE)),
                    noticed: Arc::clone(&job.noticed),
                },
            );
            spawn(job);
            next += 1;
        }
        if running.is_empty() {
            break;
        }
        let first = running.values().filter_map(|r| r.deadline).min();
        let received = match first {
            Some(t) => results.recv_timeout(t.saturating_duration_since(Instant::now())),
            None => results.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match received {
            Ok((i, Ok(r))) => {
                // A result from a thread already given up on is dropped.
                if running.remove(&i).is_some() {
                    on_result(&r);
                    slots[i] = Some(r);
                }
            }
            Ok((_, Err(panic))) => resume_unwind(panic),
            Err(RecvTimeoutError::Timeout) => {
                let now = Instant::now();
                let late: Vec<usize> = running
                    .iter()
                    .filter(|(_, r)| r.deadline.is_some_and(|t| t <= now))
                    .map(|(i, _)| *i)
                    .collect();
                for i in late {
                    let Some(gone) = running.remove(&i) else {
                        continue;
                    };
                    let r = MutantResult {
                        info: mutants[i].info.clone(),
                        outcome: outcome_of(gone.noticed.details(), true),
                        witness: None,
                    };
                    on_result(&r);
                    slots[i] = Some(r);
                }
            }
            // Unreachable: `done` is held here until the end.
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    slots.into_iter().flatten().collect()
}

/// Start `job` on a detached thread (its handle is dropped: no one ever
/// joins it); when the system refuses a thread, judge it here instead,
/// without a watchdog.
fn spawn(job: Job) {
    let name = format!("mutant-{}", job.index);
    let here = job.clone();
    if std::thread::Builder::new()
        .name(name)
        .spawn(move || job.run())
        .is_err()
    {
        here.run();
    }
}
