//! `wireshape compare`: several pipelines side by side. Every pipeline
//! shapes every planned case (lane × tool, planned by
//! [`differential::prepare`], so the corpus flags and loading are `run`'s)
//! on every lane it [serves](Pipeline::serves); each output is judged by the
//! lane's oracle ([`rejected_by`]) and the invariants
//! ([`invariants::check_all`], idempotence included), and the results are
//! counted per (lane, pipeline) cell. Descriptive: nothing here fails a run.
//!
//! Counting: an errored case (`Outcome::Errored`: a panic, a limit, a
//! broken protocol) has no output to judge, so `accepted + rejected +
//! errored = cases`; a tool that failed closed ships as the pipeline left
//! it and is judged like any output (and counted in `failed_closed` too).
//!
//! Work runs on the worker pool (`workers::scoped`), one job per (pipeline,
//! case); counts are sums and examples are the smallest case ids, so the
//! [`CompareReport`] does not depend on scheduling. The shaping times
//! ([`CellTime`]) do, and are kept apart from it.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::differential::{self, DiffOptions, Inputs, PlannedCase};
use crate::error::LoadError;
use crate::generate::FuzzSpec;
use crate::invariants;
use crate::lane::Lane;
use crate::outcome::Invariant;
use crate::pipeline::{OutcomeKind, Pipeline, PipelineConfig, Profile};
use crate::verdict::rejected_by;
use crate::workers;

/// What to compare, over which corpus.
pub struct CompareOptions<'a> {
    /// The pipelines, in the order their rows appear within a lane.
    pub pipelines: &'a [&'a (dyn Pipeline + Sync)],
    /// The lanes (reported sorted by id, each once).
    pub lanes: Vec<Lane>,
    /// The project's own catalogs: a file that does not load is an input error.
    pub own_corpus: Vec<std::path::PathBuf>,
    /// External corpora (`WIRESHAPE_CORPUS_PATH`): unusable files are listed.
    pub external_corpus: Vec<std::path::PathBuf>,
    /// Generated tools to add to the plan (`--fuzz N --seed S`).
    pub fuzz: Option<FuzzSpec>,
    /// `(k, n)`: run only the k-th (1-based) of n deterministic shards.
    pub shard: Option<(usize, usize)>,
    pub jobs: usize,
}

impl CompareOptions<'_> {
    /// The lanes sorted by id, each once.
    fn sorted_lanes(&self) -> Vec<Lane> {
        let mut lanes = self.lanes.clone();
        lanes.sort();
        lanes.dedup();
        lanes
    }
}

/// Load the corpora and plan the cases (lane × tool) exactly as `run`
/// does ([`prepare`](crate::prepare), without a ledger: a comparison
/// declares nothing).
pub fn prepare_compare(opts: &CompareOptions<'_>) -> Result<Inputs, LoadError> {
    // `prepare` plans from the corpus and reads neither pipeline.
    let unused = Profile::Verbatim.with_config(PipelineConfig::default());
    differential::prepare(&DiffOptions {
        old: &unused,
        new: &unused,
        lanes: opts.sorted_lanes(),
        own_corpus: opts.own_corpus.clone(),
        external_corpus: opts.external_corpus.clone(),
        ledger_dir: None,
        fuzz: opts.fuzz,
        shard: opts.shard,
        jobs: opts.jobs,
    })
}

/// At most this many example case ids per count (the smallest ids).
pub(crate) const MAX_EXAMPLES: usize = 5;

/// The whole comparison: every (lane, pipeline) cell. Deterministic: a
/// pure function of the inputs (no time in it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompareReport {
    /// Pipeline ids, in the order given.
    pub pipelines: Vec<String>,
    /// Lanes, sorted by id.
    pub lanes: Vec<Lane>,
    /// Planned cases per lane (tools, plus generated ones).
    pub tools: usize,
    /// `K/N` when only one shard of the plan ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fuzz: Option<FuzzSpec>,
    /// External corpus files that could not be used: path → reason.
    pub unusable: BTreeMap<String, String>,
    /// Lane by lane (id order), then pipeline by pipeline (given order).
    pub cells: Vec<Cell>,
}

impl CompareReport {
    /// The cell of `pipeline` on `lane`.
    pub fn cell(&self, lane: Lane, pipeline: &str) -> Option<&Cell> {
        self.cells
            .iter()
            .find(|c| c.lane == lane && c.pipeline == pipeline)
    }
}

/// One pipeline on one lane.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    pub lane: Lane,
    pub pipeline: String,
    /// Whether the pipeline serves the lane; when it does not, its cases
    /// there were not run and `stats` is absent.
    pub served: bool,
    #[serde(flatten)]
    pub stats: Option<CellStats>,
}

/// What one pipeline's outputs on one lane came to.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CellStats {
    pub cases: usize,
    /// Outputs the lane's oracle accepts.
    pub accepted: usize,
    /// `accepted` in percent of `cases` (one decimal; absent with no case).
    pub accepted_pct: Option<f64>,
    /// Outputs the lane's oracle rejects.
    pub rejected: usize,
    /// Rejected outputs by rule id (an output rejected by two rules counts
    /// under both).
    pub rejected_by_rule: BTreeMap<String, usize>,
    /// Cases the pipeline errored on (no output judged).
    pub errored: usize,
    /// `errored` in percent of `cases`.
    pub errored_pct: Option<f64>,
    /// Outputs that failed closed (judged like any other).
    pub failed_closed: usize,
    /// Invariant violations (a case may have several).
    pub violations: usize,
    pub violations_by_invariant: BTreeMap<Invariant, usize>,
    /// The smallest case ids behind each count, at most 5 per count.
    pub examples: Examples,
}

/// Example case ids of one cell, at most 5 per list (the smallest), sorted.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Examples {
    pub rejected_by_rule: BTreeMap<String, Vec<String>>,
    pub errored: Vec<String>,
    pub failed_closed: Vec<String>,
    pub violations_by_invariant: BTreeMap<Invariant, Vec<String>>,
}

/// The summed wall time of one pipeline's `shape` calls on one lane (one
/// call per case: the invariants' extra calls are not counted). Summed over
/// the workers, so it compares pipelines, not the run's elapsed time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellTime {
    pub lane: Lane,
    /// Index into [`CompareOptions::pipelines`].
    pub pipeline: usize,
    pub shape: Duration,
}

/// A comparison: the deterministic report and, apart, the times.
#[derive(Debug, Clone)]
pub struct Compared {
    pub report: CompareReport,
    /// One per served cell, in the report's cell order.
    pub times: Vec<CellTime>,
}

/// What one job (a pipeline on a case) found.
struct CaseResult {
    outcome: OutcomeKind,
    rejected: Vec<String>,
    violations: Vec<Invariant>,
    took: Duration,
}

/// Shape, judge and check one case with one pipeline.
fn run_one(pipeline: &dyn Pipeline, case: &PlannedCase) -> CaseResult {
    let lane = case.lane;
    let started = Instant::now();
    // `prepare_compare` parses every tool: unpacking only shares it.
    let Ok((input, _)) = case.tool.unpack() else {
        return CaseResult {
            outcome: OutcomeKind::Errored,
            rejected: Vec::new(),
            violations: Vec::new(),
            took: started.elapsed(),
        };
    };
    let shaped = pipeline.shape(lane, &input);
    let took = started.elapsed();
    let outcome = shaped.outcome.kind();
    let rejected = if outcome == OutcomeKind::Errored {
        Vec::new()
    } else {
        rejected_by(lane, &lane.render(&shaped.tool))
    };
    let violations = invariants::check_all(pipeline, lane, &input, &shaped, true)
        .into_iter()
        .map(|v| v.invariant)
        .collect();
    CaseResult {
        outcome,
        rejected,
        violations,
        took,
    }
}

/// Keep `case` among the [`MAX_EXAMPLES`] smallest ids of `list`.
fn example(list: &mut BTreeSet<String>, case: &str) {
    if list.len() < MAX_EXAMPLES || list.last().is_some_and(|l| case < l.as_str()) {
        list.insert(case.to_owned());
        if list.len() > MAX_EXAMPLES {
            list.pop_last();
        }
    }
}

/// A cell's counts while results arrive.
#[derive(Default)]
struct Tally {
    stats: CellStats,
    by_rule: BTreeMap<String, BTreeSet<String>>,
    errored: BTreeSet<String>,
    failed_closed: BTreeSet<String>,
    by_invariant: BTreeMap<Invariant, BTreeSet<String>>,
    took: Duration,
}

impl Tally {
    fn add(&mut self, case: &str, r: &CaseResult) {
        let s = &mut self.stats;
        s.cases += 1;
        self.took += r.took;
        match r.outcome {
            OutcomeKind::Errored => {
                s.errored += 1;
                example(&mut self.errored, case);
            }
            OutcomeKind::FailedClosed | OutcomeKind::Shaped => {
                if r.outcome == OutcomeKind::FailedClosed {
                    s.failed_closed += 1;
                    example(&mut self.failed_closed, case);
                }
                if r.rejected.is_empty() {
                    s.accepted += 1;
                } else {
                    s.rejected += 1;
                }
            }
        }
        for rule in &r.rejected {
            *s.rejected_by_rule.entry(rule.clone()).or_default() += 1;
            example(self.by_rule.entry(rule.clone()).or_default(), case);
        }
        for &inv in &r.violations {
            s.violations += 1;
            *s.violations_by_invariant.entry(inv).or_default() += 1;
            example(self.by_invariant.entry(inv).or_default(), case);
        }
    }

    fn finish(self) -> CellStats {
        let list = |s: BTreeSet<String>| s.into_iter().collect::<Vec<_>>();
        let mut stats = self.stats;
        stats.accepted_pct = percent(stats.accepted, stats.cases);
        stats.errored_pct = percent(stats.errored, stats.cases);
        stats.examples = Examples {
            rejected_by_rule: self
                .by_rule
                .into_iter()
                .map(|(k, v)| (k, list(v)))
                .collect(),
            errored: list(self.errored),
            failed_closed: list(self.failed_closed),
            violations_by_invariant: self
                .by_invariant
                .into_iter()
                .map(|(k, v)| (k, list(v)))
                .collect(),
        };
        stats
    }
}

/// `n` in percent of `of`, rounded half up to one decimal in integers (so
/// the value, and its JSON, never depend on float formatting); `None` when
/// `of` is 0.
#[allow(clippy::cast_precision_loss)] // counts far below 2^52
fn percent(n: usize, of: usize) -> Option<f64> {
    (of > 0).then(|| ((n * 1000 + of / 2) / of) as f64 / 10.0)
}

/// Run every pipeline over the cases of `inputs` on the lanes it serves, on
/// `opts.jobs` threads. `on_progress(done, total)` runs on the calling
/// thread after each job. Never fails: an errored case is a count.
pub fn compare(
    opts: &CompareOptions<'_>,
    inputs: &Inputs,
    on_progress: &mut dyn FnMut(usize, usize),
) -> Compared {
    let lanes = opts.sorted_lanes();
    let pipelines = opts.pipelines;
    let cases = inputs.cases();
    let np = pipelines.len();
    // Cell `l * np + p`: lane `l` (sorted), pipeline `p` (given order).
    let cell_of = |lane: Lane, p: usize| lanes.binary_search(&lane).ok().map(|l| l * np + p);
    let jobs: Vec<(usize, usize)> = (0..np)
        .flat_map(|p| {
            cases
                .iter()
                .enumerate()
                .filter(move |(_, c)| pipelines[p].serves(c.lane))
                .map(move |(c, _)| (p, c))
        })
        .collect();
    let mut tallies: Vec<Tally> = (0..lanes.len() * np).map(|_| Tally::default()).collect();
    let work = |i: usize| {
        let (p, c) = jobs[i];
        run_one(pipelines[p], &cases[c])
    };
    let total = jobs.len();
    let mut done = 0;
    workers::scoped("compare", opts.jobs, total, &work, &mut |i, result| {
        let (p, c) = jobs[i];
        let case = &cases[c];
        if let Some(at) = cell_of(case.lane, p) {
            tallies[at].add(&case.plan.case, &result);
        }
        done += 1;
        on_progress(done, total);
    });
    let mut cells = Vec::with_capacity(tallies.len());
    let mut times = Vec::new();
    for (at, tally) in tallies.into_iter().enumerate() {
        let (lane, p) = (lanes[at / np], at % np);
        let served = pipelines[p].serves(lane);
        if served {
            times.push(CellTime {
                lane,
                pipeline: p,
                shape: tally.took,
            });
        }
        cells.push(Cell {
            lane,
            pipeline: pipelines[p].id(),
            served,
            stats: served.then(|| tally.finish()),
        });
    }
    let mut planned: Vec<&str> = cases.iter().map(|c| &*c.plan.case).collect();
    planned.sort_unstable();
    planned.dedup();
    Compared {
        report: CompareReport {
            pipelines: pipelines.iter().map(|p| p.id()).collect(),
            lanes,
            tools: planned.len(),
            shard: opts.shard.map(|(k, n)| format!("{k}/{n}")),
            fuzz: opts.fuzz,
            unusable: inputs.unusable.clone(),
            cells,
        },
        times,
    }
}

#[cfg(test)]
#[path = "compare_tests.rs"]
mod tests;
