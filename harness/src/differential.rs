//! The differential run: plan (lane × catalog × tool, plus the generated
//! tools of `--fuzz`), shape with the old and new pipelines, check the
//! invariants, compare, classify with the ledger, and assemble the
//! [`RunReport`]. Pure library code: the CLI adds the report directory and
//! the terminal.
//!
//! Generated cases (`fuzz/<seed>#<i>`, from [`crate::generate`]) take the
//! same per-case path as catalog tools ([`run_case`]) on every lane. They are
//! neither own nor external: `external = true` ledger entries never apply to
//! them, and the entries they match do not count as used, so adding them to
//! a run cannot make an unused-entry failure appear or disappear.
//!
//! A ledger entry is judged (counted, and unused when it covers nothing)
//! only in a run over the corpus it was written for: [`Inputs::scope`]
//! records which own and external catalogs the run loaded, before sharding.
//!
//! Whole requests (`prefix`): every catalog with tools, on every lane of the
//! run, is sent as a `turn` and a `summary` request by both pipelines and
//! compared. A catalog's request is compared as soon as the last of its
//! cases finishes, from those cases' outputs (nothing is shaped twice).
//! With `--shard K/N` the (lane, catalog) requests, in (lane, catalog id)
//! order, are split like the cases: request `j` belongs to shard `K` when
//! `j mod N = K - 1`; that shard shapes whatever tools of it are not among
//! its own cases, so every request is compared exactly once over the
//! shards, and `report merge` unites them.
//!
//! Work is spread over `jobs` threads (the worker pool, `workers`);
//! results are sorted by key, so the report does not depend on scheduling.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::catalog::{CorpusTool, KnownInstance};
use crate::diff::{self, Comparison};
use crate::generate::FuzzSpec;
use crate::invariants;
use crate::lane::Lane;
use crate::ledger::LaneLedger;
use crate::outcome::{CaseCounts, MAX_WIRE_PAIRS, OutcomeSink, RequestOutcome, Sha256Sum};
use crate::outcome::{
    CaseOutcome, CasePlan, Class, LedgerIssue, LedgerMatch, LedgerTable, RunReport, Side, WirePair,
};
use crate::pipeline::{Outcome, Pipeline, Shaped};
use crate::prefix::{self, Held, HeldPair, HeldStore, RenderedPair};
use crate::semantic;
use crate::tool::Tool;
use crate::verdict::{Verdict, rejected_by};
use crate::workers::{self, take};

/// What to run.
pub struct DiffOptions<'a> {
    pub old: &'a (dyn Pipeline + Sync),
    pub new: &'a (dyn Pipeline + Sync),
    pub lanes: Vec<Lane>,
    /// The project's own catalogs: a file that does not load is an input error.
    pub own_corpus: Vec<PathBuf>,
    /// External corpora (`WIRESHAPE_CORPUS_PATH`): unusable files are listed.
    pub external_corpus: Vec<PathBuf>,
    /// Where `<lane>.toml` ledger files live (`None`: no ledger).
    pub ledger_dir: Option<PathBuf>,
    /// Generated tools to add to the plan (`--fuzz N --seed S`).
    pub fuzz: Option<FuzzSpec>,
    /// `(k, n)`: run only the k-th (1-based) of n deterministic shards.
    pub shard: Option<(usize, usize)>,
    pub jobs: usize,
}

/// A shard spec `K/N` with 1 ≤ K ≤ N.
pub(crate) fn parse_shard(s: &str) -> Option<(usize, usize)> {
    let (k, n) = s.split_once('/')?;
    let (k, n) = (k.trim().parse().ok()?, n.trim().parse().ok()?);
    (n >= 1 && k >= 1 && k <= n).then_some((k, n))
}

/// One planned case with its tool.
#[derive(Clone)]
pub struct PlannedCase {
    pub plan: CasePlan,
    pub lane: Lane,
    /// The tool and the instances the corpus gives for it with their
    /// expected verdict (for the semantic judgement), shared by the tool's
    /// cases on every lane (one copy per tool).
    pub tool: CorpusTool,
    pub external: bool,
    /// From the generator (`--fuzz`): neither own nor external, and its
    /// ledger matches do not count toward an entry's use.
    pub generated: bool,
    /// Set by callers that judge the case many times (`mutants`).
    pub(crate) semantic_memo: Option<semantic::Memo>,
}

/// `sha256`: of the rendered wire tool.
fn side(pipeline: &dyn Pipeline, shaped: &Shaped, sha256: Sha256Sum, keep_records: bool) -> Side {
    let detail = match &shaped.outcome {
        Outcome::Shaped => None,
        Outcome::FailedClosed { reason } => Some(reason.clone()),
        Outcome::Errored { message } => Some(message.clone()),
    };
    Side {
        pipeline: pipeline.id(),
        outcome: shaped.outcome.kind(),
        detail,
        sha256,
        degradations: if keep_records {
            shaped.degradations.clone()
        } else {
            Vec::new()
        },
        rejected_by: Vec::new(),
        semantic: None,
    }
}

/// Run one case: both pipelines, the invariants, the comparison, the ledger.
pub fn run_case(
    old: &dyn Pipeline,
    new: &dyn Pipeline,
    case: &PlannedCase,
    ledger: Option<&LaneLedger>,
) -> (CaseOutcome, Vec<usize>) {
    match case.tool.unpack() {
        Ok((tool, known)) => {
            let (outcome, stale, _) =
                run_case_rendered(old, new, case, &tool, &known, ledger, None);
            (outcome, stale)
        }
        Err(message) => (unreadable(old, new, case, &message), Vec::new()),
    }
}

/// The outcome of a case whose packed tool does not read back (never
/// expected: the text is serde_json's own): `errored` on both sides, with
/// the reason, so the run goes on and fails.
fn unreadable(
    old: &dyn Pipeline,
    new: &dyn Pipeline,
    case: &PlannedCase,
    message: &str,
) -> CaseOutcome {
    let shaped = Shaped {
        tool: Tool::new(case.plan.case.to_string(), serde_json::Value::Null),
        degradations: Vec::new(),
        outcome: Outcome::Errored {
            message: message.to_owned(),
        },
    };
    CaseOutcome {
        lane: case.plan.lane,
        case: case.plan.case.to_string(),
        class: Class::Errored,
        tags: Vec::new(),
        ledger: Vec::new(),
        old: side(old, &shaped, Sha256Sum::of(b""), true),
        new: side(new, &shaped, Sha256Sum::of(b""), true),
        violations: Vec::new(),
        wire: None,
        verdict: None,
        pin_breaks: Vec::new(),
    }
}

/// [`run_case`] on the case's unpacked `tool` and `known` instances, also
/// handing back both rendered outputs (for the catalog's whole requests);
/// `shared` holds the semantic judgements of the tool's other cases in
/// this run.
fn run_case_rendered(
    old: &dyn Pipeline,
    new: &dyn Pipeline,
    case: &PlannedCase,
    tool: &Tool,
    known: &[KnownInstance],
    ledger: Option<&LaneLedger>,
    shared: Option<&semantic::Shared<'_>>,
) -> (CaseOutcome, Vec<usize>, RenderedPair) {
    let lane = case.lane;
    let mut a = old.shape(lane, tool);
    let mut b = new.shape(lane, tool);
    let mut violations = invariants::check_all(old, lane, tool, &a, false);
    violations.extend(invariants::check_all(new, lane, tool, &b, true));
    violations.sort();
    // The outputs on the wire, their schemas moved in (not copied) and
    // given back once the oracle has read them (below). Equal tools render
    // the same bytes: the new output is rendered only when it differs.
    let same = a.tool.same_wire(&b.tool);
    let wa = lane.render_taking(&mut a.tool);
    let sa = crate::schema::to_bytes(&wa);
    let (wb, new_text) = if same {
        (None, None)
    } else {
        let wb = lane.render_taking(&mut b.tool);
        let sb = crate::schema::to_bytes(&wb);
        (Some(wb), Some(sb))
    };
    let sb = new_text.as_deref().unwrap_or(&sa);
    // Each output's hash, once (the same bytes, the same hash).
    let db = Sha256Sum::of(sb.as_bytes());
    let da = if sa == sb {
        db
    } else {
        Sha256Sum::of(sa.as_bytes())
    };
    // The new output's hash as the ledger reads it.
    let hb = db.to_hex();
    let comparison = diff::compare(&wa, wb.as_ref().unwrap_or(&wa), (&sa, sb));
    let errored = a.outcome.id() == "errored" || b.outcome.id() == "errored";
    let tags = diff::change_tags(&a, &b, comparison);
    let mut stale = Vec::new();
    let mut matches = Vec::new();
    let class = if errored {
        Class::Errored
    } else if comparison == Comparison::Identical {
        Class::Identical
    } else {
        let verdict = ledger.map(|l| l.judge(&case.plan.case, case.external, &tags, &hb));
        let verdict = verdict.unwrap_or_default();
        stale = verdict.stale;
        matches = verdict.matches;
        match (verdict.intended, comparison) {
            (true, Comparison::Reordered) => Class::Reordered,
            (true, _) => Class::Intended,
            (false, _) => Class::Unexpected,
        }
    };
    // Every output gets its oracle verdict, identical ones too: a
    // rejection old and new share still takes the request down. Identical
    // bytes get the same verdict, so the oracle runs once for them.
    let new_rejected = rejected_by(lane, wb.as_ref().unwrap_or(&wa));
    let old_rejected = if comparison == Comparison::Identical {
        new_rejected.clone()
    } else {
        rejected_by(lane, &wa)
    };
    lane.return_schema(wa, &mut a.tool);
    if let Some(wb) = wb {
        lane.return_schema(wb, &mut b.tool);
    }
    // What each output lets the model send, against the author's schema.
    let fresh;
    // (`len`: the output's compact wire text's.)
    let judge: &dyn Fn(&Shaped, usize) -> semantic::Semantics =
        if let Some(memo) = &case.semantic_memo {
            &|s, _| memo.judge(tool, known, lane, &s.tool, &s.degradations)
        } else if let Some(shared) = shared {
            &|s, len| shared.judge_sized(lane, &s.tool, &s.degradations, len)
        } else {
            fresh = semantic::Original::of(tool, known);
            &|s, _| fresh.judge(lane, &s.tool, &s.degradations)
        };
    let new_semantic = judge(&b, sb.len());
    // `None`: the old output is the new one, and so is its verdict.
    let old_semantic = (comparison != Comparison::Identical).then(|| judge(&a, sa.len()));
    let closed = matches!(b.outcome, Outcome::FailedClosed { .. });
    let verdict = Verdict::of(!old_rejected.is_empty(), !new_rejected.is_empty(), closed);
    if let Some(v) = verdict.filter(|v| v.is_rejection())
        && let Some(l) = ledger
    {
        matches.extend(l.judge_rejection(
            &case.plan.case,
            case.external,
            v,
            b.outcome.failed_in(),
            &new_rejected,
        ));
    }
    // A change of meaning the ledger may declare: a narrowing of a shaped
    // tool (by what explains it), or a silent widening (by the passes that
    // recorded what they removed or rewrote).
    if let Some(l) = ledger {
        // The passes that recorded something on the new output, but for
        // renames (a tool name, a root key the client maps back, and the
        // `required` entries that follow it): they change no meaning.
        let renaming: Vec<&str> = b
            .degradations
            .iter()
            .filter(|d| d.renamed_to.is_some())
            .map(|d| &*d.pass)
            .collect();
        let mut records: Vec<String> = b
            .degradations
            .iter()
            .filter(|d| {
                d.keyword != "tool-name"
                    && d.renamed_to.is_none()
                    && !(d.keyword == "required" && renaming.contains(&&*d.pass))
            })
            .map(|d| d.pass.to_string())
            .collect();
        records.sort();
        records.dedup();
        let semantic = match new_semantic.class {
            semantic::SemanticClass::Narrowed if !closed => Some((
                LedgerTable::Narrowing,
                new_semantic
                    .narrowed_kinds
                    .iter()
                    .map(|k| k.id().to_owned())
                    .collect::<Vec<_>>(),
            )),
            semantic::SemanticClass::Widened if new_semantic.silent => {
                let kinds = if records.is_empty() {
                    vec!["unrecorded".to_owned()]
                } else {
                    records.clone()
                };
                Some((LedgerTable::Widening, kinds))
            }
            _ => None,
        };
        if let Some((table, kinds)) = semantic {
            matches.extend(l.judge_semantic(
                table,
                &case.plan.case,
                case.external,
                &kinds,
                &records,
            ));
        }
    }
    // Every `[[pin]]` holds on the new bytes, identical to the old or not.
    let (pins, pin_breaks) = ledger
        .map(|l| l.check_pins(&case.plan.case, case.external, &hb))
        .unwrap_or_default();
    matches.extend(pins);
    // Records are kept for failing cases only (the report stays small; any
    // case's records are one `wireshape shape --explain` away).
    let declared = |t: LedgerTable| matches.iter().any(|m| m.table == t);
    let keep = class.is_failure()
        || !violations.is_empty()
        || (verdict.is_some_and(Verdict::is_rejection) && !declared(LedgerTable::Rejection))
        || (new_semantic.class == semantic::SemanticClass::Narrowed
            && !closed
            && !declared(LedgerTable::Narrowing))
        || (new_semantic.silent && !declared(LedgerTable::Widening));
    let keep = keep || !pin_breaks.is_empty();
    let mut old_side = side(old, &a, da, keep);
    old_side.rejected_by = old_rejected;
    let mut new_side = side(new, &b, db, keep);
    new_side.rejected_by = new_rejected;
    let new_semantic = Arc::new(new_semantic);
    old_side.semantic = Some(old_semantic.map_or_else(|| Arc::clone(&new_semantic), Arc::new));
    new_side.semantic = Some(new_semantic);
    let outcome = CaseOutcome {
        lane: case.plan.lane,
        case: case.plan.case.to_string(),
        class,
        tags,
        ledger: matches.into_iter().map(Arc::new).collect(),
        old: old_side,
        new: new_side,
        violations,
        wire: None,
        verdict,
        pin_breaks,
    };
    let rendered = RenderedPair::new(sa, new_text);
    (outcome, stale, rendered)
}

/// One finished case, as a worker hands it to the collecting thread.
struct CaseDone {
    /// Its tool's index in [`Inputs::tools`].
    at: usize,
    outcome: CaseOutcome,
    stale: Vec<usize>,
    /// Its rendered outputs, when a request reuses them.
    rendered: Option<HeldPair>,
    /// Its tool as the plan holds it (on disk in `run`), when its case may
    /// get a wire pair.
    tool: Option<CorpusTool>,
}

/// What a worker hands the collecting thread.
enum Done {
    /// The cases of one tool finished.
    Cases(Vec<CaseDone>),
    /// A request that reuses no case of this run was compared.
    Requests(Vec<RequestOutcome>),
}

/// Make `outcome`'s semantic verdicts the ones in `seen` they equal, and
/// add the others: a tool's outputs on its lanes mostly judge alike, and
/// every outcome waits in memory for the report.
fn share_verdicts(seen: &mut Vec<Arc<semantic::Semantics>>, outcome: &mut CaseOutcome) {
    for side in [&mut outcome.old, &mut outcome.new] {
        let Some(s) = &mut side.semantic else {
            continue;
        };
        match seen.iter().find(|v| ***v == **s) {
            Some(v) => *s = Arc::clone(v),
            None => seen.push(Arc::clone(s)),
        }
    }
}

/// Make `outcome`'s ledger matches the ones in `seen` they equal (by
/// file, table and entry index, and then whole), and add the others.
fn share_matches(
    seen: &mut BTreeMap<(String, LedgerTable, usize), Arc<LedgerMatch>>,
    outcome: &mut CaseOutcome,
) {
    for m in &mut outcome.ledger {
        let key = (m.file.clone(), m.table, m.index);
        match seen.get(&key) {
            Some(held) if **held == **m => *m = Arc::clone(held),
            Some(_) => {}
            None => {
                seen.insert(key, Arc::clone(m));
            }
        }
    }
}

/// Compare `catalog`'s request on `lane` (whose bit in a planned tool's
/// lanes is `bit`), shaping the tools no case of this run renders on that
/// lane. `slots` holds the outputs the finished cases handed over, by
/// position; a tool a case fed takes its name from the case's key
/// (`<catalog>#<name>`).
fn compare_request(
    opts: &DiffOptions<'_>,
    tools: &[ToolKey],
    (lane, bit): (Lane, u64),
    catalog: &PlannedCatalog,
    mut slots: Vec<Option<HeldPair>>,
) -> Vec<RequestOutcome> {
    let mut names: Vec<std::borrow::Cow<'_, str>> = Vec::with_capacity(catalog.tools.len());
    let mut pairs: Vec<RenderedPair> = Vec::with_capacity(catalog.tools.len());
    for (i, listed) in catalog.tools.iter().enumerate() {
        let held = slots.get_mut(i).and_then(Option::take);
        let fed = listed.planned.filter(|&t| tools[t].on(bit));
        let (name, pair) = match (fed, held) {
            (Some(t), Some(held)) => {
                let case = &tools[t].case;
                let name = case
                    .strip_prefix(catalog.id.as_str())
                    .and_then(|n| n.strip_prefix('#'))
                    .unwrap_or(case);
                (name.into(), held.release())
            }
            (None, _) => {
                // A tool that does not read back is left out, as below (and
                // one that is not kept: every lane's case feeds it).
                let Some(Ok((t, _))) = listed.tool.as_ref().map(CorpusTool::unpack) else {
                    continue;
                };
                let pair = prefix::render_pair(opts.old, opts.new, lane, &t);
                (t.name.clone().into(), pair)
            }
            // A case that rendered nothing (its tool did not read back):
            // the tool is left out, and the comparison reports the
            // request's tools as they were sent.
            (Some(_), None) => continue,
        };
        names.push(name);
        pairs.push(pair);
    }
    let names: Vec<&str> = names.iter().map(AsRef::as_ref).collect();
    prefix::compare(opts.old, opts.new, lane, &catalog.id, &names, &pairs)
}

/// A copy of `value` made on the collecting thread, for what is kept
/// until the run ends (an outcome) or until its catalog finishes (a held
/// pair). A worker allocates a case's few long-lived pieces among the
/// many short-lived ones of its shaping and judging; kept as they are,
/// they pin the worker's partly freed pages. Copied here, they are packed
/// together: after the 15-lane run over own + shared corpus the process
/// held 746 MB with the workers' outcomes and 533 MB with copied ones
/// (one run each, 2026-12-04; the held pairs' copy was not measured
/// apart), for one more allocation per piece.
fn settle<T: Clone>(value: &T) -> T {
    value.clone()
}

/// The two outputs of one case, pretty, with the unified diff of the two
/// texts as kept (each cut at [`MAX_WIRE_TEXT`]): a line diff of whole
/// megabyte outputs that differ on most lines took seconds (a tool of
/// 5,001 properties on gemini-openapi: 4.6 s, 96% of it in the diff).
pub(crate) fn wire_pair(
    old: &dyn Pipeline,
    new: &dyn Pipeline,
    lane: Lane,
    tool: &Tool,
) -> WirePair {
    let wa = lane.render(&old.shape(lane, tool).tool);
    let wb = lane.render(&new.shape(lane, tool).tool);
    let (po, pn) = (capped(diff::pretty(&wa)), capped(diff::pretty(&wb)));
    let unified = diff::unified(&po, &pn, &old.id(), &new.id());
    WirePair {
        old: po,
        new: pn,
        unified: capped(unified),
    }
}

/// Bytes of one wire text a report keeps (generated schemas reach
/// megabytes; the whole text is one `wireshape shape` away).
pub(crate) const MAX_WIRE_TEXT: usize = 64 * 1024;

/// `text`, cut at [`MAX_WIRE_TEXT`] bytes (on a character boundary) with a
/// line saying so.
fn capped(mut text: String) -> String {
    if text.len() <= MAX_WIRE_TEXT {
        return text;
    }
    let total = text.len();
    let mut at = MAX_WIRE_TEXT;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    text.truncate(at);
    let _ = writeln!(
        text,
        "\n… cut at {at} of {total} bytes: `wireshape shape --lane <lane> --pipeline <p>` prints it whole"
    );
    text
}

/// The tools whose cases [`wire_choice`](crate::outcome::wire_choice) can still pick, kept while the
/// run drops every other tool as its cases finish. The choice takes the
/// failing outcomes in key order, then each lane's other divergent ones by
/// their rank in the lane: a case is picked only if fewer than `max` cases
/// come before it. So it is among the first `max` failures in key order,
/// or among the first `max` other divergent cases of its lane in key
/// order; those are all this holds, whatever order the cases finish in.
/// Each as the plan holds it: a stored tool is read back only when its
/// pair is made (a 15-lane run can keep a thousand tools a lane).
pub(crate) struct WireCandidates {
    max: usize,
    failures: BTreeMap<(Lane, String), Option<CorpusTool>>,
    divergent: BTreeMap<Lane, BTreeMap<String, Option<CorpusTool>>>,
}

impl WireCandidates {
    pub(crate) fn new(max: usize) -> Self {
        Self {
            max,
            failures: BTreeMap::new(),
            divergent: BTreeMap::new(),
        }
    }

    /// Whether `outcome` may be picked at all (failing or divergent).
    pub(crate) fn wanted(outcome: &CaseOutcome) -> bool {
        outcome.is_failure() || outcome.class != Class::Identical
    }

    /// Keep `outcome`'s case (with `tool`, none when it did not read) if
    /// it can still be picked.
    pub(crate) fn offer(&mut self, outcome: &CaseOutcome, tool: Option<&CorpusTool>) {
        if outcome.is_failure() {
            self.failures
                .insert((outcome.lane, outcome.case.clone()), tool.cloned());
            if self.failures.len() > self.max {
                self.failures.pop_last();
            }
        } else if outcome.class != Class::Identical {
            let lane = self.divergent.entry(outcome.lane).or_default();
            lane.insert(outcome.case.clone(), tool.cloned());
            if lane.len() > self.max {
                lane.pop_last();
            }
        }
    }

    pub(crate) fn get(&self, lane: Lane, case: &str) -> Option<&CorpusTool> {
        self.failures
            .get(&(lane, case.to_owned()))
            .or_else(|| self.divergent.get(&lane).and_then(|l| l.get(case)))
            .and_then(Option::as_ref)
    }

    /// The cases [`wire_choice`](crate::outcome::wire_choice) picks among all the outcomes offered, in
    /// its order: the failures in key order, then the other divergent
    /// cases by their rank in their lane, then lane.
    pub(crate) fn choice(&self) -> Vec<(Lane, &str)> {
        let mut chosen: Vec<(Lane, &str)> = self
            .failures
            .keys()
            .map(|(lane, case)| (*lane, case.as_str()))
            .collect();
        let mut divergent: Vec<(usize, Lane, &str)> = self
            .divergent
            .iter()
            .flat_map(|(lane, cases)| {
                cases
                    .keys()
                    .enumerate()
                    .map(|(rank, case)| (rank, *lane, case.as_str()))
            })
            .collect();
        divergent.sort_unstable();
        chosen.extend(divergent.into_iter().map(|(_, lane, case)| (lane, case)));
        chosen.truncate(self.max);
        chosen
    }
}

/// The wire pairs a run made (1,000 at most), by (lane, case).
pub type WirePairs = BTreeMap<(Lane, String), WirePair>;

/// Make the wire pairs of at most [`MAX_WIRE_PAIRS`] divergent or failing
/// cases: failures first (in key order), then the lanes in turn, each
/// lane's cases in key order, so every lane gets its share
/// ([`wire_choice`](crate::outcome::wire_choice), from the candidates kept). Deterministic: the choice
/// depends only on the outcomes.
fn make_wire_pairs(opts: &DiffOptions<'_>, kept: &WireCandidates) -> WirePairs {
    let chosen = kept.choice();
    let mut pairs: Vec<Option<WirePair>> = vec![None; chosen.len()];
    // Made on the worker threads (a large pair's diff takes seconds),
    // each into its own place.
    let work = |k: usize| {
        let (lane, case) = chosen[k];
        // A tool that does not read back has its cases errored already.
        kept.get(lane, case)
            .and_then(|tool| tool.unpack().ok())
            .map(|(tool, _)| wire_pair(opts.old, opts.new, lane, &tool))
    };
    workers::scoped(
        "wire pairs",
        opts.jobs,
        chosen.len(),
        &work,
        &mut |k, pair| {
            pairs[k] = pair;
        },
    );
    chosen
        .iter()
        .zip(pairs)
        .filter_map(|(&(lane, case), pair)| pair.map(|p| ((lane, case.to_owned()), p)))
        .collect()
}

/// Run every planned case on `jobs` threads (the worker pool's scoped
/// front end: cases borrow the pipelines), every outcome held for the
/// report. `on_result` gets every outcome finished so far (completion
/// order) each time one finishes; it is called on the calling thread for
/// each finished case, in completion order. [`execute_to`] hands each
/// outcome on instead.
pub fn execute(
    opts: &DiffOptions<'_>,
    inputs: Inputs,
    on_result: &mut dyn FnMut(&[CaseOutcome]),
) -> RunReport {
    struct Held<'f> {
        outcomes: Vec<CaseOutcome>,
        on_result: &'f mut dyn FnMut(&[CaseOutcome]),
    }
    impl OutcomeSink for Held<'_> {
        fn put(&mut self, outcome: CaseOutcome) {
            self.outcomes.push(settle(&outcome));
            (self.on_result)(&self.outcomes);
        }
    }
    let mut held = Held {
        outcomes: Vec::new(),
        on_result,
    };
    let (mut report, pairs) = execute_to(opts, inputs, &mut held);
    report.outcomes = held.outcomes;
    report.finish(&opts.lanes);
    for ((lane, case), pair) in pairs {
        let at = report
            .outcomes
            .binary_search_by(|o| (o.lane, o.case.as_str()).cmp(&(lane, case.as_str())));
        if let Ok(at) = at {
            report.outcomes[at].wire = Some(Box::new(pair));
        }
    }
    report
}

/// Run every planned case on `jobs` threads, each outcome handed to
/// `sink` on the calling thread as it finishes (completion order), and
/// counted there: the report comes back with no outcomes and their
/// summary, with the wire pairs of the cases `outcome::wire_choice` picks.
///
/// A tool is read (parsed, when the plan holds it packed or on disk, as
/// `run`'s does) when its cases start, and dropped when they finish; a
/// catalog's outputs wait (on disk) only until its requests are compared.
/// Only the tools whose cases can still get a wire pair are kept
/// (`WireCandidates`).
pub fn execute_to(
    opts: &DiffOptions<'_>,
    inputs: Inputs,
    sink: &mut dyn OutcomeSink,
) -> (RunReport, WirePairs) {
    let plans = inputs.plan();
    let bits: BTreeMap<Lane, u64> = inputs.lanes.iter().map(|&l| (l, inputs.bit(l))).collect();
    let bit = |lane: Lane| bits.get(&lane).copied().unwrap_or(0);
    let Inputs {
        tools,
        unusable,
        scope,
        ledgers,
        requests: RequestPlan { catalogs, requests },
        ..
    } = inputs;
    // Each tool is taken by the worker that runs its cases and dropped
    // when they finish; the rest read only its key.
    let (tools, queue): (Vec<ToolKey>, Vec<Mutex<Option<CorpusTool>>>) = tools
        .into_iter()
        .map(|t| {
            let (key, tool) = t.into_parts();
            (key, Mutex::new(Some(tool)))
        })
        .unzip();
    // Generated cases are judged by the ledger but never count as its use.
    let generated: std::collections::BTreeSet<Arc<str>> = tools
        .iter()
        .filter(|t| t.generated)
        .map(|t| Arc::clone(&t.case))
        .collect();
    // Each request's index by (lane, catalog).
    let request_at: HashMap<(Lane, usize), usize> = requests
        .iter()
        .enumerate()
        .map(|(r, &key)| (key, r))
        .collect();
    // The (request, position) the case of tool `t` on `lane` feeds.
    let feeds = |t: usize, lane: Lane| {
        let (c, pos) = tools.get(t)?.home()?;
        Some((*request_at.get(&(lane, c))?, pos))
    };
    // How many of each request's tools its cases feed; requests no case
    // of this run feeds are work items of their own.
    let mut remaining: Vec<usize> = requests
        .iter()
        .map(|&(lane, c)| {
            catalogs[c]
                .tools
                .iter()
                .filter(|l| l.planned.is_some_and(|t| tools[t].on(bit(lane))))
                .count()
        })
        .collect();
    let fresh: Vec<usize> = (0..requests.len()).filter(|&r| remaining[r] == 0).collect();
    let taken: Vec<AtomicBool> = requests.iter().map(|_| AtomicBool::new(false)).collect();
    // Compared once: by the worker of a fresh request, or on the
    // collecting thread when its last case arrives.
    let compare_once = |r: usize, slots: Vec<Option<HeldPair>>| {
        if taken[r].swap(true, Ordering::Relaxed) {
            return Vec::new();
        }
        let (lane, c) = requests[r];
        compare_request(opts, &tools, (lane, bit(lane)), &catalogs[c], slots)
    };
    // Each fed request's pairs so far, waiting in `store` (on disk).
    let mut slots: Vec<Vec<Option<Held>>> = std::iter::repeat_with(Vec::new)
        .take(requests.len())
        .collect();
    let mut store = HeldStore::new();
    let items = tools.len() + fresh.len();
    let mut counts = CaseCounts::default();
    let mut matched: HashMap<*const LedgerMatch, (Arc<LedgerMatch>, usize)> = HashMap::new();
    // Compressed until the report reads them.
    let mut compared = prefix::HeldRequests::default();
    let mut stale: Vec<LedgerIssue> = Vec::new();
    let mut entries = BTreeMap::new();
    let mut kept = WireCandidates::new(MAX_WIRE_PAIRS);
    // Item `i` is the planned tool `i` (its cases, one per lane), then
    // the requests no case feeds.
    let work = |i: usize| {
        let Some(slot) = queue.get(i) else {
            return Done::Requests(compare_once(fresh[i - tools.len()], Vec::new()));
        };
        let Some(corpus_tool) = take(slot) else {
            return Done::Cases(Vec::new());
        };
        let lanes: Vec<Lane> = bits
            .iter()
            .filter(|(_, bit)| tools[i].on(**bit))
            .map(|(lane, _)| *lane)
            .collect();
        let cases = lanes
            .iter()
            .map(|&lane| tools[i].case_on(lane, &corpus_tool));
        // The tool is parsed here (when packed) and dropped with its cases.
        let (tool, known) = match corpus_tool.unpack() {
            Ok(parsed) => parsed,
            Err(message) => {
                return Done::Cases(
                    cases
                        .map(|case| CaseDone {
                            at: i,
                            outcome: unreadable(opts.old, opts.new, &case, &message),
                            stale: Vec::new(),
                            rendered: None,
                            tool: None,
                        })
                        .collect(),
                );
            }
        };
        let shared = semantic::Shared::new(&tool, &known);
        let mut verdicts = Vec::new();
        let mut done = Vec::with_capacity(lanes.len());
        for case in cases {
            let (mut outcome, stale, rendered) = run_case_rendered(
                opts.old,
                opts.new,
                &case,
                &tool,
                &known,
                ledgers.get(&case.lane),
                Some(&shared),
            );
            share_verdicts(&mut verdicts, &mut outcome);
            done.push(CaseDone {
                at: i,
                tool: WireCandidates::wanted(&outcome).then(|| corpus_tool.clone()),
                rendered: feeds(i, case.lane).map(|_| HeldPair::hold(&rendered)),
                outcome,
                stale,
            });
        }
        Done::Cases(done)
    };
    workers::scoped("differential", opts.jobs, items, &work, &mut |_, done| {
        let cases = match done {
            Done::Requests(r) => {
                compared.extend(r);
                return;
            }
            Done::Cases(cases) => cases,
        };
        for CaseDone {
            at,
            mut outcome,
            stale: stale_idx,
            rendered,
            tool,
        } in cases
        {
            share_matches(&mut entries, &mut outcome);
            if let Some(l) = ledgers.get(&outcome.lane) {
                for i in stale_idx {
                    stale.push(l.stale_issue(i, &outcome.case));
                }
            }
            kept.offer(&outcome, tool.as_ref());
            // A case that rendered nothing (its tool did not read back)
            // still counts: its request is compared without the tool.
            if let Some((r, pos)) = feeds(at, outcome.lane) {
                let slot = &mut slots[r];
                if slot.is_empty() {
                    slot.resize_with(catalogs[requests[r].1].tools.len(), || None);
                }
                slot[pos] = rendered.map(|rendered| match store.put(rendered) {
                    Held::Memory(pair) => Held::Memory(settle(&pair)),
                    on_disk @ Held::File { .. } => on_disk,
                });
                remaining[r] -= 1;
                if remaining[r] == 0 {
                    let pairs = std::mem::take(slot)
                        .into_iter()
                        .map(|held| held.map(|h| store.take(h)))
                        .collect();
                    compared.extend(compare_once(r, pairs));
                }
            }
            if !generated.contains(outcome.case.as_str()) {
                for m in &outcome.ledger {
                    matched
                        .entry(Arc::as_ptr(m))
                        .or_insert_with(|| (Arc::clone(m), 0))
                        .1 += 1;
                }
            }
            counts.add(&outcome);
            sink.put(outcome);
        }
    });
    let mut ledger_use = Vec::new();
    let uses = crate::ledger::MatchCounts::of(
        matched
            .values()
            .flat_map(|(m, n)| std::iter::repeat_n(&**m, *n)),
    );
    for l in ledgers.values() {
        ledger_use.extend(l.uses(&uses, &scope));
    }
    let mut report = RunReport {
        old: opts.old.id(),
        new: opts.new.id(),
        plan: plans,
        outcomes: Vec::new(),
        ledger_use,
        ledger_issues: stale,
        unusable,
        summary: crate::outcome::Summary::default(),
        sharded: opts.shard.is_some(),
        fuzz: opts.fuzz,
        requests: compared.into_vec(),
    };
    report.finish_counted(&opts.lanes, counts);
    let pairs = make_wire_pairs(opts, &kept);
    (report, pairs)
}

#[path = "differential_plan.rs"]
mod plan;
pub use plan::{Inputs, PlannedTool, RequestPlan, prepare, prepare_packed};
use plan::{PlannedCatalog, ToolKey};

#[cfg(test)]
#[path = "differential_tests.rs"]
mod tests;
