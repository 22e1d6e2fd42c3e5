//! `wireshape fuzz`: generated inputs against any pipeline, built in or
//! external, with no coverage instrumentation (an external pipeline is
//! behind a process boundary).
//!
//! Input `i` (0, 1, 2, …) is the generator's tool `i` of the seed
//! ([`generate::seeded`]) on lane `i mod n` of the `n` lanes (round-robin).
//! Each is judged on the [`Property`]s, every check being the one the
//! other runners use: a crash ([`invariants::no_panic`]; for an external
//! pipeline, any errored outcome), [`invariants::determinism`],
//! [`invariants::idempotence`], [`invariants::never_silent`] and the
//! lane's oracle over the output, shaped or failed closed, as `compare`
//! judges it ([`verdict::rejections`]). A built-in pipeline's refusal of a
//! schema nested past the depth limit is by design, not a failure.
//!
//! Each failure is minimized ([`shrink`]): a smaller input is kept when the
//! same property still fails on the same lane (a crash with the same
//! message, digits aside; the oracle under the same rule), for at most
//! [`FuzzOptions::shrink_calls`] pipeline calls per failure and never past
//! the run's deadline. `writer` writes each minimized tool as a one-tool
//! catalog beside a one-line note.
//!
//! Inputs run on the worker pool in batches; failures reach the caller in
//! input order, so a run bounded by `count` alone (no deadline) reports the
//! same failures, minimized the same way, on every machine.

mod failure;
mod shrink;
mod writer;

use std::cell::Cell;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::generate;
use crate::invariants;
use crate::lane::Lane;
use crate::outcome::Violation;
use crate::pipeline::{Outcome, Pipeline, Shaped};
use crate::schema;
use crate::tool::Tool;
use crate::verdict;
use crate::workers;

pub(crate) use failure::{Failure, Property};
pub(crate) use shrink::shrink;
pub(crate) use writer::{FailureWriter, Written};

/// Pipeline calls one failure's shrink may make by default.
pub(crate) const DEFAULT_SHRINK_CALLS: usize = 2_000;

/// What to fuzz, and for how long.
pub(crate) struct FuzzOptions<'a> {
    pub(crate) pipeline: &'a (dyn Pipeline + Sync),
    /// An external implementation: every errored outcome is a crash (a
    /// built-in pipeline errs by design on a schema past the depth limit).
    pub(crate) external: bool,
    /// The lanes, in round-robin order (at least one).
    pub(crate) lanes: Vec<Lane>,
    pub(crate) seed: u64,
    /// Stop after this many inputs.
    pub(crate) count: Option<usize>,
    /// Stop when this much time has passed (shrinking included).
    pub(crate) time: Option<Duration>,
    /// Pipeline calls one failure's shrink may make.
    pub(crate) shrink_calls: usize,
    pub(crate) jobs: usize,
}

/// What a run tried and found.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct FuzzSummary {
    /// Inputs judged.
    pub(crate) tried: usize,
    /// Failing inputs per (property, lane).
    pub(crate) failures: BTreeMap<(Property, Lane), usize>,
    pub(crate) elapsed: Duration,
}

impl FuzzSummary {
    /// Failing inputs in all.
    pub(crate) fn total(&self) -> usize {
        self.failures.values().sum()
    }
}

/// One property failing on one input: the violation message and, for a
/// crash and the oracle, what must stay the same for a smaller input to
/// fail the same way (a shrink keeps a change only then): the crash's
/// [`crash_key`], the rejecting rule's id.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Found {
    pub(crate) property: Property,
    pub(crate) message: String,
    pub(crate) key: Option<String>,
}

impl Found {
    fn of(property: Property, v: Violation) -> Self {
        Self {
            property,
            message: v.message,
            key: None,
        }
    }
}

/// What names a crash across inputs: the errored message's first line,
/// without the driver's stderr tail and with each run of digits as `#`
/// (indices, lengths and sequence numbers change as an input shrinks).
fn crash_key(message: &str) -> String {
    let line = message.lines().next().unwrap_or("");
    let line = line.split_once("; stderr:").map_or(line, |(head, _)| head);
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        if !c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('#') {
            out.push('#');
        }
    }
    out
}

/// The depth-limit refusal of a built-in pipeline (`schema::TooDeep`).
fn depth_refusal(message: &str) -> bool {
    message.contains(&format!(
        "schema nests deeper than {} levels",
        schema::MAX_DEPTH
    ))
}

/// The crash property over one output.
fn crash(
    pipeline: &dyn Pipeline,
    external: bool,
    lane: Lane,
    input: &Tool,
    shaped: &Shaped,
) -> Option<Found> {
    let Outcome::Errored { message } = &shaped.outcome else {
        return None;
    };
    let key = Some(crash_key(message));
    if let Err(v) = invariants::no_panic(pipeline, lane, input, shaped) {
        return Some(Found {
            key,
            ..Found::of(Property::NoCrash, v)
        });
    }
    if !external && depth_refusal(message) {
        return None;
    }
    Some(Found {
        property: Property::NoCrash,
        message: format!(
            "{} on {}: errored: {message}\n  input: {}",
            pipeline.id(),
            lane.id(),
            schema::to_bytes(&input.input_schema)
        ),
        key,
    })
}

/// The oracle property over one output that is not errored: its first
/// rejection (rules in id order), or its first under `rule` when given.
fn oracle(
    pipeline: &dyn Pipeline,
    lane: Lane,
    input: &Tool,
    shaped: &Shaped,
    rule: Option<&str>,
) -> Option<Found> {
    let wire = lane.render(&shaped.tool);
    let mut rejections = verdict::rejections(lane, &wire);
    rejections.sort_by_key(|r| r.rule);
    let r = rejections
        .into_iter()
        .find(|r| rule.is_none_or(|want| r.rule == want))?;
    Some(Found {
        property: Property::Oracle,
        message: format!(
            "{} on {}: the oracle rejects the {} output: {}: {}\n  input:  {}\n  output: {}",
            pipeline.id(),
            lane.id(),
            shaped.outcome.id(),
            r.rule,
            r.message,
            schema::to_bytes(&input.input_schema),
            schema::to_bytes(&wire)
        ),
        key: Some(r.rule.to_owned()),
    })
}

/// `property` over `input` on `lane` (shaping it once, and again as the
/// property needs); `key` narrows a crash to one [`crash_key`] and the
/// oracle property to one rule.
pub(crate) fn check_one(
    pipeline: &dyn Pipeline,
    external: bool,
    lane: Lane,
    input: &Tool,
    property: Property,
    key: Option<&str>,
) -> Option<Found> {
    let shaped = pipeline.shape(lane, input);
    if property == Property::NoCrash {
        return crash(pipeline, external, lane, input, &shaped)
            .filter(|f| key.is_none() || f.key.as_deref() == key);
    }
    if matches!(shaped.outcome, Outcome::Errored { .. }) {
        return None;
    }
    let found = |r: Result<(), Violation>| r.err().map(|v| Found::of(property, v));
    match property {
        Property::NoCrash => None,
        Property::Determinism => found(invariants::determinism(pipeline, lane, input, &shaped)),
        Property::Idempotence => found(invariants::idempotence(pipeline, lane, input, &shaped)),
        Property::NeverSilent => found(invariants::never_silent(pipeline, lane, input, &shaped)),
        Property::Oracle => oracle(pipeline, lane, input, &shaped, key),
    }
}

/// Every property that fails for `input` on `lane`, in [`Property::ALL`]
/// order. An errored output is judged for the crash property only.
pub(crate) fn judge(
    pipeline: &dyn Pipeline,
    external: bool,
    lane: Lane,
    input: &Tool,
) -> Vec<Found> {
    let shaped = pipeline.shape(lane, input);
    if matches!(shaped.outcome, Outcome::Errored { .. }) {
        return crash(pipeline, external, lane, input, &shaped)
            .into_iter()
            .collect();
    }
    let checks = [
        (
            Property::Determinism,
            invariants::determinism(pipeline, lane, input, &shaped),
        ),
        (
            Property::Idempotence,
            invariants::idempotence(pipeline, lane, input, &shaped),
        ),
        (
            Property::NeverSilent,
            invariants::never_silent(pipeline, lane, input, &shaped),
        ),
    ];
    let mut out: Vec<Found> = checks
        .into_iter()
        .filter_map(|(p, r)| r.err().map(|v| Found::of(p, v)))
        .collect();
    out.extend(oracle(pipeline, lane, input, &shaped, None));
    out
}

/// A pipeline that counts its `shape` calls (a shrink's budget).
struct Counted<'a> {
    inner: &'a dyn Pipeline,
    calls: Cell<usize>,
}

impl Pipeline for Counted<'_> {
    fn id(&self) -> String {
        self.inner.id()
    }
    fn shape(&self, lane: Lane, tool: &Tool) -> Shaped {
        self.calls.set(self.calls.get() + 1);
        self.inner.shape(lane, tool)
    }
    fn serves(&self, lane: Lane) -> bool {
        self.inner.serves(lane)
    }
    fn reports_degradations(&self) -> bool {
        self.inner.reports_degradations()
    }
}

/// Shrink `input`, which fails as `found` says on `lane`, for at most
/// `budget` pipeline calls and never past `deadline`.
pub(crate) fn minimize(
    pipeline: &dyn Pipeline,
    external: bool,
    lane: Lane,
    input: &Tool,
    found: &Found,
    budget: usize,
    deadline: Option<Instant>,
) -> (Tool, String, usize) {
    let counted = Counted {
        inner: pipeline,
        calls: Cell::new(0),
    };
    let mut message = found.message.clone();
    let mut fails = |t: &Tool| match check_one(
        &counted,
        external,
        lane,
        t,
        found.property,
        found.key.as_deref(),
    ) {
        Some(f) => {
            message = f.message;
            true
        }
        None => false,
    };
    let spent = || counted.calls.get() >= budget || deadline.is_some_and(|d| Instant::now() >= d);
    let minimized = shrink(input, &mut fails, &spent);
    (minimized, message, counted.calls.get())
}

/// Judge input `index` and minimize what fails.
fn fuzz_one(opts: &FuzzOptions<'_>, index: usize, deadline: Option<Instant>) -> Vec<Failure> {
    let lane = opts.lanes[index % opts.lanes.len()];
    let index = index as u64;
    let input = generate::seeded(opts.seed, index);
    judge(opts.pipeline, opts.external, lane, &input)
        .into_iter()
        .map(|found| {
            let (minimized, message, shrink_calls) = minimize(
                opts.pipeline,
                opts.external,
                lane,
                &input,
                &found,
                opts.shrink_calls,
                deadline,
            );
            Failure {
                property: found.property,
                lane,
                index,
                input: input.clone(),
                minimized,
                message,
                shrink_calls,
            }
        })
        .collect()
}

/// Inputs handed to the workers at a time, per worker: the deadline is
/// checked between batches (and by each input before it starts).
const BATCH_PER_JOB: usize = 8;

/// Fuzz until `opts.count` inputs were judged or `opts.time` has passed,
/// whichever comes first (one of them must be set, or this runs until the
/// index space ends). `on_tried(n)` runs on the calling thread as inputs
/// finish (`n` judged so far); `on_failure` gets each failure, minimized,
/// in input order.
pub(crate) fn run(
    opts: &FuzzOptions<'_>,
    on_tried: &mut dyn FnMut(usize),
    on_failure: &mut dyn FnMut(&Failure),
) -> FuzzSummary {
    let started = Instant::now();
    let deadline = opts.time.and_then(|t| started.checked_add(t));
    let past = || deadline.is_some_and(|d| Instant::now() >= d);
    let limit = opts.count.unwrap_or(usize::MAX);
    let batch = opts.jobs.max(1) * BATCH_PER_JOB;
    let mut summary = FuzzSummary::default();
    let mut next = 0usize;
    while next < limit && !opts.lanes.is_empty() && !past() {
        let base = next;
        let n = batch.min(limit - base);
        let work = |i: usize| (!past()).then(|| fuzz_one(opts, base + i, deadline));
        let mut results: Vec<Option<Vec<Failure>>> = vec![None; n];
        let mut tried = summary.tried;
        workers::scoped("fuzz", opts.jobs, n, &work, &mut |i, result| {
            if result.is_some() {
                tried += 1;
                on_tried(tried);
            }
            results[i] = result;
        });
        for failures in results.into_iter().flatten() {
            summary.tried += 1;
            for f in &failures {
                *summary.failures.entry((f.property, f.lane)).or_default() += 1;
                on_failure(f);
            }
        }
        next = base + n;
    }
    summary.elapsed = started.elapsed();
    summary
}

#[cfg(test)]
mod tests;
