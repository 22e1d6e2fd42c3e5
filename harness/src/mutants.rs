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

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::degradation::Action;
use crate::differential::{self, DiffOptions, Inputs, PlannedCase};
use crate::error::LoadError;
use crate::lane::Lane;
use crate::ledger::LaneLedger;
use crate::outcome::{Class, LedgerMatch};
use crate::passes::{Cx, Pass, Step};
use crate::pipeline::{PassList, Pipeline, PipelineConfig, Profile};
use crate::recording::Recording;
use crate::replay::{self, Fix, KnownGap};
use crate::semantic::{Losses, SemanticClass};
use crate::tool::Tool;

/// The checks of the evidence suite, in the order they run.
pub const CHECKS: &[&str] = &[
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
pub const INDEPENDENT_CHECKS: &[&str] =
    &["invariants", "ledger-diff", "oracle", "replay", "semantic"];

/// Which evidence noticed a caught mutant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Evidence {
    /// At least one of [`INDEPENDENT_CHECKS`].
    Independent,
    /// Only `pass-examples` and/or `pipeline-examples`.
    ExamplesOnly,
}

impl Evidence {
    /// The evidence class of a non-empty `caught_by` list.
    pub fn of(caught_by: &[String]) -> Self {
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

/// What a mutant changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MutantKind {
    /// One pass switched off.
    Off,
    /// Two adjacent passes swapped.
    Swap,
    /// One of the pass's declared mutation points.
    Declared,
}

/// One mutant as the plan lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MutantInfo {
    /// `v1/<lane>/<pass>: <change>`: stable, unique.
    pub name: String,
    pub lane: String,
    pub pass: String,
    pub kind: MutantKind,
    pub change: String,
}

/// One mutant: its plan entry and the mutated pipeline.
pub struct Mutant {
    pub info: MutantInfo,
    pipeline: PassList,
    /// The pass whose examples judge the mutant and the index of its
    /// stand-in in the pass list (`None`: switched off); `None` for swaps.
    examples: Option<(String, Option<usize>)>,
    /// Why the mutant cannot be a distinct program.
    unviable: Option<String>,
}

/// Every mutant of `profile` on `lanes` (lanes without passes have none), in
/// a deterministic order: lanes by id, then switched-off, swapped and
/// declared mutants in pass order.
pub fn plan(profile: Profile, lanes: &[Lane], config: &PipelineConfig) -> Vec<Mutant> {
    let mut lanes = lanes.to_vec();
    lanes.sort_by_key(|l| l.id());
    lanes.dedup();
    let mut out: Vec<Mutant> = Vec::new();
    for lane in lanes {
        let names = profile.pass_names(lane);
        // A pass that runs twice on a lane (normalize on Gemini) is named by
        // its occurrence: `normalize#2`.
        let labels: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let total = names.iter().filter(|m| *m == n).count();
                let nth = names[..=i].iter().filter(|m| *m == n).count();
                if total > 1 {
                    format!("{n}#{nth}")
                } else {
                    (*n).to_owned()
                }
            })
            .collect();
        let name = |at: usize, change: &str| {
            format!("{}/{}/{}: {change}", profile.id(), lane.id(), labels[at])
        };
        let info = |at: usize, pass: &str, kind, change: String| MutantInfo {
            name: name(at, &change),
            lane: lane.id().to_owned(),
            pass: pass.to_owned(),
            kind,
            change,
        };
        let pipeline = |info: &MutantInfo, passes| PassList {
            id: info.name.clone(),
            base: profile,
            lane,
            passes,
            config: config.clone(),
        };
        for (i, pass) in names.iter().enumerate() {
            let mut passes = profile.passes(lane);
            passes.remove(i);
            let info = info(i, pass, MutantKind::Off, "switched off".to_owned());
            out.push(Mutant {
                pipeline: pipeline(&info, passes),
                info,
                examples: Some(((*pass).to_owned(), None)),
                unviable: None,
            });
        }
        for i in 1..names.len() {
            let mut passes = profile.passes(lane);
            passes.swap(i - 1, i);
            let (a, b) = (names[i - 1], names[i]);
            let info = info(
                i - 1,
                a,
                MutantKind::Swap,
                format!("swapped with {}", labels[i]),
            );
            out.push(Mutant {
                pipeline: pipeline(&info, passes),
                info,
                examples: None,
                unviable: (a == b).then(|| "swaps two identical passes".to_owned()),
            });
        }
        for (i, pass) in profile.passes(lane).iter().enumerate() {
            for m in pass.mutants() {
                let mut passes = profile.passes(lane);
                passes[i] = m.pass;
                let info = info(i, pass.name(), MutantKind::Declared, m.change);
                out.push(Mutant {
                    pipeline: pipeline(&info, passes),
                    info,
                    examples: Some((pass.name().to_owned(), Some(i))),
                    unviable: None,
                });
            }
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    for m in &mut out {
        if !seen.insert(m.info.name.clone()) && m.unviable.is_none() {
            m.unviable = Some("same name as an earlier mutant".to_owned());
        }
    }
    out
}

// ---------------------------------------------------------------- examples

/// One recorded degradation of an example, without the tool and lane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExampleRecord {
    pub path: String,
    pub keyword: String,
    pub action: Action,
    pub reason: String,
}

/// What one pass makes of one example input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExampleResult {
    /// `continue` or `fail-closed`.
    pub step: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub tool: Tool,
    #[serde(default)]
    pub records: Vec<ExampleRecord>,
}

/// One example of a pass (or of a lane's whole pass list): an input tool.
/// What the pass makes of it (bytes, records, step) is not written here:
/// it is the accepted insta snapshot of the file (see [`snapshot_file`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PassExample {
    pub name: String,
    pub lane: String,
    #[serde(default, skip_serializing_if = "is_default_config")]
    pub config: PipelineConfig,
    pub input: Tool,
    /// The accepted output, from the file's snapshot; `None` when the
    /// snapshot is missing or does not name this example (the example then
    /// fails: accept it with `cargo insta review`).
    #[serde(skip)]
    pub expect: Option<ExampleResult>,
}

fn is_default_config(c: &PipelineConfig) -> bool {
    c == &PipelineConfig::default()
}

/// `corpus/pass-examples/<pass>.json`: the inputs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExampleFile {
    pub pass: String,
    pub examples: Vec<PassExample>,
}

/// One entry of a snapshot's body: an example's name and its accepted
/// output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExpectedExample {
    pub name: String,
    pub expect: ExampleResult,
}

/// The insta snapshot name of the example files (`insta::glob!` adds the
/// input file name as the suffix).
pub(crate) const SNAPSHOT_NAME: &str = "pass-examples";

/// The snapshot holding the accepted outputs of the example file
/// `file_name` (e.g. `normalize.json`): `<dir>/pass-examples@normalize.json.snap`.
pub(crate) fn snapshot_file(dir: &Path, file_name: &str) -> PathBuf {
    dir.join(format!("{SNAPSHOT_NAME}@{file_name}.snap"))
}

/// What the pass (or, for `v1/<lane>` files, the lane's v1 pass list with
/// `config`) makes of every example of `file`: the body of its snapshot,
/// as pretty JSON.
#[cfg(test)]
pub(crate) fn expected_text(file: &ExampleFile, config: &PipelineConfig) -> String {
    let got: Vec<ExpectedExample> = file
        .examples
        .iter()
        .map(|ex| ExpectedExample {
            name: ex.name.clone(),
            expect: if let Some(lane) = file.pass.strip_prefix("v1/") {
                let lane = Lane::parse(lane).unwrap_or(Lane::OpenaiChat);
                let v1 = PassList {
                    id: Profile::V1.id().to_owned(),
                    base: Profile::V1,
                    lane,
                    passes: Profile::V1.passes(lane),
                    config: config.clone(),
                };
                run_pipeline_example(&v1, ex)
            } else {
                let pass = Lane::ALL
                    .iter()
                    .flat_map(|l| Profile::V1.passes(*l))
                    .find(|p| p.name() == file.pass);
                run_example(pass.as_deref(), ex)
            },
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&got).unwrap_or_default();
    text.push('\n');
    text
}

/// The body of an insta snapshot file (after its `---` header) and the
/// number of lines before it.
fn snapshot_body(text: &str) -> Option<(usize, &str)> {
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---\n")?;
    let header = rest[..end].matches('\n').count() + 3;
    Some((header, &rest[end + 5..]))
}

/// The accepted outputs of a snapshot file, by example name (a missing
/// file: none).
fn load_expected(path: &Path) -> Result<BTreeMap<String, ExampleResult>, LoadError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(source) => {
            return Err(LoadError::Io {
                path: path.to_owned(),
                source,
            });
        }
    };
    let (header, body) = snapshot_body(&text).ok_or_else(|| LoadError::Shape {
        path: path.to_owned(),
        line: 1,
        column: 1,
        message: "not an insta snapshot (no `---` header)".to_owned(),
    })?;
    let entries: Vec<ExpectedExample> =
        serde_json::from_str(body).map_err(|e| LoadError::from_json(path, &e).shifted(header))?;
    Ok(entries.into_iter().map(|e| (e.name, e.expect)).collect())
}

/// Load every `*.json` example file of `dir` (a missing dir: none), by
/// pass, each example with its accepted output from the file's snapshot in
/// `snapshots`.
pub(crate) fn load_examples(
    dir: &Path,
    snapshots: &Path,
) -> Result<BTreeMap<String, Vec<PassExample>>, LoadError> {
    let mut out: BTreeMap<String, Vec<PassExample>> = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(out);
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).map_err(|source| LoadError::Io {
            path: path.clone(),
            source,
        })?;
        let mut file: ExampleFile =
            serde_json::from_str(&text).map_err(|e| LoadError::from_json(&path, &e))?;
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut expected = load_expected(&snapshot_file(snapshots, &file_name))?;
        for ex in &mut file.examples {
            ex.expect = expected.remove(&ex.name);
        }
        out.entry(file.pass).or_default().extend(file.examples);
    }
    Ok(out)
}

/// Run one example through `pass` (`None`: the pass is switched off).
pub(crate) fn run_example(pass: Option<&dyn Pass>, ex: &PassExample) -> ExampleResult {
    let lane = Lane::parse(&ex.lane).unwrap_or(Lane::OpenaiChat);
    let mut tool = ex.input.clone();
    let mut cx = Cx::new(lane, &ex.config, &tool.name);
    let step = match pass {
        None => Ok(Step::Continue),
        Some(p) => {
            cx.enter(p);
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| p.apply(&mut tool, &mut cx)))
                .unwrap_or_else(|_| Ok(Step::FailClosed("panic".to_owned())))
        }
    };
    let (step, reason) = match step {
        Ok(Step::Continue) => ("continue", None),
        Ok(Step::FailClosed(r)) => ("fail-closed", Some(r)),
        Err(deep) => ("too-deep", Some(deep.to_string())),
    };
    ExampleResult {
        step: step.to_owned(),
        reason,
        tool,
        records: cx
            .degradations
            .into_iter()
            .map(|d| ExampleRecord {
                path: d.path,
                keyword: d.keyword,
                action: d.action,
                reason: d.reason,
            })
            .collect(),
    }
}

/// Run one example through a whole pipeline (on the example's lane).
pub(crate) fn run_pipeline_example(pipeline: &dyn Pipeline, ex: &PassExample) -> ExampleResult {
    let lane = Lane::parse(&ex.lane).unwrap_or(Lane::OpenaiChat);
    let shaped = pipeline.shape(lane, &ex.input);
    let step = shaped.outcome.id().to_owned();
    let reason = match shaped.outcome {
        crate::pipeline::Outcome::Shaped => None,
        crate::pipeline::Outcome::FailedClosed { reason } => Some(reason),
        crate::pipeline::Outcome::Errored { message } => Some(message),
    };
    ExampleResult {
        step,
        reason,
        tool: shaped.tool,
        records: shaped
            .degradations
            .into_iter()
            .map(|d| ExampleRecord {
                path: d.path,
                keyword: d.keyword,
                action: d.action,
                reason: d.reason,
            })
            .collect(),
    }
}

/// The first example of `examples` that `run` does not reproduce.
fn failing_example(
    examples: &[PassExample],
    run: impl Fn(&PassExample) -> ExampleResult,
) -> Option<&PassExample> {
    examples.iter().find(|ex| {
        let got = run(ex);
        ex.expect.as_ref().is_none_or(|want| {
            // Byte-exact: key order of the tool is part of the verdict.
            serde_json::to_string(want).ok() != serde_json::to_string(&got).ok()
        })
    })
}

/// Why a baseline example fails.
fn example_problem(ex: &PassExample) -> String {
    if ex.expect.is_none() {
        format!(
            "example {:?} has no accepted snapshot (run `cargo insta review`)",
            ex.name
        )
    } else {
        format!(
            "example {:?} does not hold (its accepted snapshot differs)",
            ex.name
        )
    }
}

// ---------------------------------------------------------------- evidence

/// Where the evidence comes from.
pub struct EvidenceOptions {
    pub own_corpus: Vec<PathBuf>,
    pub external_corpus: Vec<PathBuf>,
    pub ledger_dir: Option<PathBuf>,
    pub recordings_dir: PathBuf,
    /// Example inputs (`<pass>.json`; an empty dir: no examples).
    pub examples_dir: PathBuf,
    /// Their accepted outputs: `pass-examples@<file>.snap` insta snapshots.
    pub example_snapshots_dir: PathBuf,
    pub equivalent_file: PathBuf,
    pub config: PipelineConfig,
}

/// Mutants listed as equivalent by construction, with their reasons.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct EquivalentFile {
    #[serde(default)]
    equivalent: Vec<Equivalent>,
}

/// One mutant that no evidence can catch, and why.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Equivalent {
    pub mutant: String,
    /// `"wire"`: the mutant ships the same tool and outcome as v1 on every
    /// input, and differs only in its degradation records (their order, or
    /// which pass writes one). Examples, which compare records, may notice
    /// it; independent evidence judges only what ships, so it cannot.
    /// Absent: the same program in every respect.
    #[serde(default)]
    pub on: Option<EquivalentOn>,
    pub reason: String,
}

/// What an equivalent mutant is the same in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum EquivalentOn {
    Wire,
}

/// The loaded evidence.
pub struct MutantEvidence {
    inputs: Inputs,
    recordings: Vec<Recording>,
    gaps: Vec<KnownGap>,
    examples: BTreeMap<String, Vec<PassExample>>,
    equivalent: Vec<Equivalent>,
    config: PipelineConfig,
}

/// Load corpora, ledgers, recordings, gaps, examples and the equivalent list.
pub fn load_evidence(opts: &EvidenceOptions, lanes: &[Lane]) -> Result<MutantEvidence, LoadError> {
    let v0 = Profile::V0.with_config(opts.config.clone());
    let v1 = Profile::V1.with_config(opts.config.clone());
    let mut inputs = differential::prepare(&DiffOptions {
        old: &v0,
        new: &v1,
        lanes: lanes.to_vec(),
        own_corpus: opts.own_corpus.clone(),
        external_corpus: opts.external_corpus.clone(),
        ledger_dir: opts.ledger_dir.clone(),
        fuzz: None,
        shard: None,
        jobs: 1,
    })?;
    // Every case is judged once per mutant: its semantic side is memoised.
    for case in &mut inputs.cases {
        case.semantic_memo = Some(crate::semantic::Memo::default());
    }
    let recordings = if opts.recordings_dir.is_dir() {
        crate::recording::load_recordings(&opts.recordings_dir)?
    } else {
        Vec::new()
    };
    let gaps = replay::load_known_gaps(&opts.recordings_dir.join("known-gaps.toml"))?;
    let equivalent = match std::fs::read_to_string(&opts.equivalent_file) {
        Ok(text) => {
            toml::from_str::<EquivalentFile>(&text)
                .map_err(|e| LoadError::from_toml(&opts.equivalent_file, &text, &e))?
                .equivalent
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(source) => {
            return Err(LoadError::Io {
                path: opts.equivalent_file.clone(),
                source,
            });
        }
    };
    Ok(MutantEvidence {
        inputs,
        recordings,
        gaps,
        examples: load_examples(&opts.examples_dir, &opts.example_snapshots_dir)?,
        equivalent,
        config: opts.config.clone(),
    })
}

/// A case's class, ledger matches (file, index) and stale pins.
type LedgerVerdict = (Class, Vec<(String, usize)>, Vec<usize>);

/// A case's verdicts, per check.
#[derive(Debug, Clone, PartialEq, Eq)]
struct CaseVerdict {
    invariants: Vec<String>,
    /// Class, ledger matches, stale pins, on every lane with a ledger
    /// (each shaped lane has one: v0 is verbatim on most, so there every
    /// v1 change must match a declared divergence); without one the class
    /// counts only when errored.
    ledger: Option<LedgerVerdict>,
    oracle: (Option<crate::verdict::Verdict>, Vec<String>),
    /// The new output's semantic class against the original schema, the
    /// instances on which it disagrees with the original, whether a
    /// widening is silent, and the constraints it no longer states (and
    /// which of those no description names).
    semantic: Option<(SemanticClass, Vec<usize>, bool, Losses)>,
}

impl CaseVerdict {
    fn of(
        old: &dyn Pipeline,
        new: &dyn Pipeline,
        case: &PlannedCase,
        ledger: Option<&LaneLedger>,
    ) -> Self {
        let (o, stale) = differential::run_case(old, new, case, ledger);
        let mut invariants: Vec<String> = o
            .violations
            .iter()
            .filter(|v| v.pipeline == new.id())
            .map(|v| v.invariant.clone())
            .collect();
        invariants.dedup();
        let matches = o
            .ledger
            .iter()
            .map(|m: &LedgerMatch| (m.file.clone(), m.index))
            .collect();
        let ledgered = ledger.is_some() || o.class == Class::Errored;
        Self {
            invariants,
            ledger: ledgered.then_some((o.class, matches, stale)),
            semantic: o
                .new
                .semantic
                .map(|s| (s.class, s.disagreements, s.silent, s.losses)),
            oracle: (o.verdict, o.new.rejected_by),
        }
    }

    /// Every check on which `self` (mutant) differs from `base`, in
    /// [`CHECKS`] order, each with what changed.
    fn differences(&self, base: &Self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if self.invariants.iter().any(|i| !base.invariants.contains(i)) {
            out.push((
                "invariants",
                format!("violates {}", self.invariants.join(", ")),
            ));
        }
        if self.ledger != base.ledger {
            out.push((
                "ledger-diff",
                format!(
                    "class {} (baseline {})",
                    class_id(self.ledger.as_ref()),
                    class_id(base.ledger.as_ref())
                ),
            ));
        }
        if self.oracle != base.oracle {
            out.push((
                "oracle",
                format!(
                    "verdict {} rejected by [{}] (baseline {} [{}])",
                    self.oracle.0.map_or("none", crate::verdict::Verdict::id),
                    self.oracle.1.join(", "),
                    base.oracle.0.map_or("none", crate::verdict::Verdict::id),
                    base.oracle.1.join(", ")
                ),
            ));
        }
        if self.semantic != base.semantic {
            let show = |s: Option<&(SemanticClass, Vec<usize>, bool, Losses)>| {
                s.map_or_else(
                    || "none".to_owned(),
                    |(c, d, silent, losses)| {
                        let mut text = format!(
                            "{}{} on {} instances",
                            c.id(),
                            if *silent { " silently" } else { "" },
                            d.len()
                        );
                        if !losses.lost.is_empty() {
                            let _ = write!(text, ", loses [{}]", losses.lost.join(", "));
                        }
                        if !losses.untold.is_empty() {
                            let _ = write!(text, ", untold [{}]", losses.untold.join(", "));
                        }
                        text
                    },
                )
            };
            out.push((
                "semantic",
                format!(
                    "{} (baseline {})",
                    show(self.semantic.as_ref()),
                    show(base.semantic.as_ref())
                ),
            ));
        }
        out
    }

    /// Why the baseline fails on this case, if it does.
    fn failure(&self) -> Option<String> {
        if !self.invariants.is_empty() {
            return Some(format!("violates {}", self.invariants.join(", ")));
        }
        if let Some((class, _, stale)) = &self.ledger {
            if matches!(class, Class::Unexpected | Class::Errored) {
                return Some(format!("class {}", class.id()));
            }
            if !stale.is_empty() {
                return Some("stale ledger pin".to_owned());
            }
        }
        if self.oracle.0 == Some(crate::verdict::Verdict::Regression) {
            return Some("oracle regression".to_owned());
        }
        None
    }
}

/// The class of a ledger verdict (`unledgered` on lanes without ledgers).
fn class_id(ledger: Option<&LedgerVerdict>) -> &'static str {
    ledger.map_or("unledgered", |l| l.0.id())
}

fn fix_kind(f: &Fix) -> &'static str {
    match f {
        Fix::Fixed => "fixed",
        Fix::FailedClosed { .. } => "failed-closed",
        Fix::KnownGap { .. } => "known-gap",
        Fix::RuleRetired { .. } => "rule-retired",
        Fix::StillRejected { .. } => "still-rejected",
        Fix::Unreadable { .. } => "unreadable",
    }
}

/// The baseline verdicts of one lane.
struct LaneBaseline {
    cases: Vec<(usize, CaseVerdict)>,
    replay: Vec<(String, &'static str, bool)>,
    /// The v1 output bytes of every case of the lane (case index, output),
    /// smallest input first (ties in case order): where witnesses are
    /// looked for.
    outputs: Vec<(usize, String)>,
}

/// The bytes a witness compares: what ships, the shaped tool and the
/// outcome's kind (a fail-closed reason is report text, not wire).
fn output_bytes(shaped: &crate::pipeline::Shaped) -> String {
    serde_json::to_string(&(&shaped.tool, shaped.outcome.id())).unwrap_or_default()
}

impl MutantEvidence {
    fn lane_cases(&self, lane: Lane) -> impl Iterator<Item = (usize, &PlannedCase)> {
        self.inputs
            .cases
            .iter()
            .enumerate()
            .filter(move |(_, c)| c.lane == lane)
    }

    fn lane_recordings(&self, lane: Lane) -> Vec<Recording> {
        self.recordings
            .iter()
            .filter(|r| r.lane == lane.id())
            .cloned()
            .collect()
    }

    fn replay(&self, lane: Lane, pipeline: &dyn Pipeline) -> Vec<(String, &'static str, bool)> {
        replay::replay_all(&self.lane_recordings(lane), pipeline, &self.gaps)
            .into_iter()
            .map(|r| (r.id, fix_kind(&r.fix), r.failed))
            .collect()
    }

    fn unmutated(&self, lane: Lane) -> PassList {
        PassList {
            id: Profile::V1.id().to_owned(),
            base: Profile::V1,
            lane,
            passes: Profile::V1.passes(lane),
            config: self.config.clone(),
        }
    }

    fn baseline_lane(&self, lane: Lane, problems: &mut Vec<String>) -> LaneBaseline {
        let v0 = Profile::V0.with_config(self.config.clone());
        let v1 = self.unmutated(lane);
        let cases: Vec<(usize, CaseVerdict)> = self
            .lane_cases(lane)
            .map(|(i, c)| {
                let v = CaseVerdict::of(&v0, &v1, c, self.inputs.ledgers.get(&lane));
                if let Some(why) = v.failure() {
                    problems.push(format!("{} {}: {why}", lane.id(), c.plan.case));
                }
                (i, v)
            })
            .collect();
        let replay = self.replay(lane, &v1);
        for (id, kind, failed) in &replay {
            if *failed {
                problems.push(format!("{} replay {id}: fails ({kind})", lane.id()));
            }
        }
        if let Some(ex) = failing_example(self.examples_of(&lane_key(lane)), |ex| {
            run_pipeline_example(&v1, ex)
        }) {
            problems.push(format!("{} pipeline {}", lane.id(), example_problem(ex)));
        }
        for pass in Profile::V1.passes(lane) {
            let examples = self.examples_of(pass.name());
            if let Some(ex) = failing_example(examples, |ex| run_example(Some(pass.as_ref()), ex)) {
                problems.push(format!(
                    "{} pass {} {}",
                    lane.id(),
                    pass.name(),
                    example_problem(ex)
                ));
            }
        }
        let mut outputs: Vec<(usize, usize, String)> = self
            .lane_cases(lane)
            .map(|(i, c)| {
                let size = serde_json::to_string(&c.tool).map_or(0, |t| t.len());
                (size, i, output_bytes(&v1.shape(lane, &c.tool)))
            })
            .collect();
        outputs.sort_by_key(|(size, i, _)| (*size, *i));
        LaneBaseline {
            cases,
            replay,
            outputs: outputs.into_iter().map(|(_, i, o)| (i, o)).collect(),
        }
    }

    /// The witness of a missed mutant: the corpus case of its lane with the
    /// smallest serialized input on which what the mutant ships (tool bytes
    /// and outcome kind) differs from v1's, though no check noticed. `None`: no
    /// corpus tool's output changes.
    fn witness(&self, base: &LaneBaseline, m: &Mutant) -> Option<String> {
        let lane = Lane::parse(&m.info.lane).unwrap_or(Lane::OpenaiChat);
        base.outputs.iter().find_map(|(i, want)| {
            let case = &self.inputs.cases[*i];
            (output_bytes(&m.pipeline.shape(lane, &case.tool)) != *want)
                .then(|| case.plan.case.clone())
        })
    }

    fn examples_of(&self, pass: &str) -> &[PassExample] {
        self.examples.get(pass).map_or(&[][..], Vec::as_slice)
    }
}

/// The examples key of a lane's whole v1 pass list.
fn lane_key(lane: Lane) -> String {
    format!("{}/{}", Profile::V1.id(), lane.id())
}

/// How one mutant ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum MutantOutcome {
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
    pub fn id(&self) -> &'static str {
        match self {
            Self::Caught { .. } => "caught",
            Self::Missed => "missed",
            Self::Unviable { .. } => "unviable",
            Self::Timeout => "timeout",
        }
    }

    /// A caught mutant's evidence class.
    pub fn evidence(&self) -> Option<Evidence> {
        match self {
            Self::Caught { evidence, .. } => Some(*evidence),
            _ => None,
        }
    }

    /// The checks that noticed the mutant (empty unless caught).
    pub fn caught_by(&self) -> &[String] {
        match self {
            Self::Caught { caught_by, .. } => caught_by,
            _ => &[],
        }
    }

    /// Caught, but only by examples blessed from the pipeline's own output.
    pub fn only_by_examples(&self) -> bool {
        self.evidence() == Some(Evidence::ExamplesOnly)
    }
}

/// One mutant's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MutantResult {
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
    pub fn witness_line(&self) -> Option<String> {
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
    pub fn caught_by_line(&self) -> Option<String> {
        let by = self.outcome.caught_by();
        (!by.is_empty()).then(|| format!("caught by: {}", by.join(", ")))
    }
}

/// The counts of a pass's mutants (swaps count under the earlier pass).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PassCounts {
    pub viable: usize,
    pub independent: usize,
    pub examples_only: usize,
    pub missed: usize,
    pub timeout: usize,
}

impl PassCounts {
    /// Viable mutants that no independent evidence noticed.
    pub fn unseen(&self) -> usize {
        self.viable - self.independent
    }
}

/// The counts of a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MutantsSummary {
    pub mutants: usize,
    /// Every mutant but the unviable ones.
    pub viable: usize,
    pub caught: usize,
    /// Caught, and at least one of [`INDEPENDENT_CHECKS`] noticed.
    pub caught_by_independent_evidence: usize,
    /// Caught, but only by `pass-examples` / `pipeline-examples`.
    pub caught_only_by_examples: usize,
    pub missed: usize,
    pub unviable: usize,
    pub timeout: usize,
    /// `caught_by_independent_evidence` in percent of `viable`, one decimal
    /// (`null` when nothing is viable).
    pub independent_percent: Option<f64>,
    /// Per check: how many mutants it noticed (a mutant counts under every
    /// check that noticed it).
    pub noticed_by: BTreeMap<String, usize>,
    /// Per pass name (over lanes).
    pub by_pass: BTreeMap<String, PassCounts>,
}

impl MutantsSummary {
    /// Count `results`.
    pub fn of(results: &[MutantResult]) -> Self {
        let mut s = Self {
            mutants: results.len(),
            noticed_by: CHECKS.iter().map(|c| ((*c).to_owned(), 0)).collect(),
            ..Self::default()
        };
        for r in results {
            match &r.outcome {
                MutantOutcome::Unviable { .. } => {
                    s.unviable += 1;
                    continue;
                }
                MutantOutcome::Missed => s.missed += 1,
                MutantOutcome::Timeout => s.timeout += 1,
                MutantOutcome::Caught {
                    caught_by,
                    evidence,
                    ..
                } => {
                    s.caught += 1;
                    match evidence {
                        Evidence::Independent => s.caught_by_independent_evidence += 1,
                        Evidence::ExamplesOnly => s.caught_only_by_examples += 1,
                    }
                    for c in caught_by {
                        *s.noticed_by.entry(c.clone()).or_default() += 1;
                    }
                }
            }
            s.viable += 1;
            let p = s.by_pass.entry(r.info.pass.clone()).or_default();
            p.viable += 1;
            match r.outcome.id() {
                "missed" => p.missed += 1,
                "timeout" => p.timeout += 1,
                _ if r.outcome.only_by_examples() => p.examples_only += 1,
                _ => p.independent += 1,
            }
        }
        s.independent_percent = percent(s.caught_by_independent_evidence, s.viable);
        s
    }

    /// Passes with viable mutants that no independent evidence noticed,
    /// most such mutants first (ties by name).
    pub fn unseen_passes(&self) -> Vec<(&str, &PassCounts)> {
        let mut v: Vec<(&str, &PassCounts)> = self
            .by_pass
            .iter()
            .filter(|(_, c)| c.unseen() > 0)
            .map(|(p, c)| (p.as_str(), c))
            .collect();
        v.sort_by(|a, b| b.1.unseen().cmp(&a.1.unseen()).then(a.0.cmp(b.0)));
        v
    }
}

/// `part` in percent of `whole`, rounded half up to one decimal.
fn percent(part: usize, whole: usize) -> Option<f64> {
    if whole == 0 {
        return None;
    }
    let per_mille = (part as u128 * 1000 + whole as u128 / 2) / whole as u128;
    #[allow(clippy::cast_precision_loss)]
    Some(per_mille as f64 / 10.0)
}

/// A whole run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MutantsReport {
    /// The counts (computed from `results`).
    pub summary: MutantsSummary,
    pub results: Vec<MutantResult>,
    /// Equivalent-list entries whose mutant was caught (the list must not rot).
    pub stale_equivalent: Vec<String>,
}

impl MutantsReport {
    pub fn count(&self, outcome: &str) -> usize {
        self.results
            .iter()
            .filter(|r| r.outcome.id() == outcome)
            .count()
    }

    /// Missed or timed-out mutants and stale equivalent entries are failures.
    pub fn exit_status(&self) -> crate::ExitStatus {
        let mut s = crate::ExitStatus::Clean;
        if self.count("missed") > 0 || !self.stale_equivalent.is_empty() {
            s = s.max(crate::ExitStatus::Failures);
        }
        if self.count("timeout") > 0 {
            s = s.max(crate::ExitStatus::Timeout);
        }
        s
    }
}

/// The unmutated pipeline failed the evidence suite.
#[derive(Debug, thiserror::Error)]
#[error("baseline failed: the unmutated pipeline does not pass the evidence suite:\n  {}", .problems.join("\n  "))]
pub struct BaselineFailed {
    pub problems: Vec<String>,
}

/// Run every check of the suite on `m` (the corpus checks stop scanning
/// cases once each has noticed, or when the budget runs out).
fn judge(ev: &MutantEvidence, base: &LaneBaseline, m: &Mutant, budget: Duration) -> MutantOutcome {
    if let Some(reason) = &m.unviable {
        return MutantOutcome::Unviable {
            reason: reason.clone(),
        };
    }
    let started = Instant::now();
    let lane = Lane::parse(&m.info.lane).unwrap_or(Lane::OpenaiChat);
    let mut details: BTreeMap<String, String> = BTreeMap::new();
    if let Some((pass, stand_in)) = &m.examples {
        let p = stand_in.map(|i| m.pipeline.passes[i].as_ref());
        if let Some(ex) = failing_example(ev.examples_of(pass), |ex| run_example(p, ex)) {
            details.insert(
                "pass-examples".to_owned(),
                format!("example {:?} of {pass}", ex.name),
            );
        }
    }
    let key = lane_key(lane);
    if let Some(ex) = failing_example(ev.examples_of(&key), |ex| {
        run_pipeline_example(&m.pipeline, ex)
    }) {
        details.insert(
            "pipeline-examples".to_owned(),
            format!("example {:?} of {key}", ex.name),
        );
    }
    let v0 = Profile::V0.with_config(ev.config.clone());
    let mutant = &m.pipeline;
    let corpus_checks = ["invariants", "ledger-diff", "oracle", "semantic"];
    let mut exhausted = false;
    for (i, want) in &base.cases {
        if corpus_checks.iter().all(|c| details.contains_key(*c)) {
            break;
        }
        if started.elapsed() > budget {
            exhausted = true;
            break;
        }
        let case = &ev.inputs.cases[*i];
        let got = CaseVerdict::of(&v0, mutant, case, ev.inputs.ledgers.get(&lane));
        for (check, detail) in got.differences(want) {
            details
                .entry(check.to_owned())
                .or_insert_with(|| format!("{}: {detail}", case.plan.case));
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
            details.insert(
                "replay".to_owned(),
                format!(
                    "{id}: {kind}{} (baseline {bkind})",
                    if *failed { ", fails" } else { "" }
                ),
            );
        }
    }
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

/// Mark the listed equivalent mutants unviable, and return the entries the
/// run refutes: a mutant caught by independent evidence (or, unless listed
/// as the same on the wire, by examples), or one whose shipped output
/// changes on a corpus case (its witness).
fn apply_equivalent(listed: &[Equivalent], results: &mut [MutantResult]) -> Vec<String> {
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

// ---------------------------------------------------------------- output

/// `mutants.json`: the plan.
#[derive(Debug, Serialize)]
struct PlanFile<'a> {
    total: usize,
    mutants: Vec<&'a MutantInfo>,
}

use crate::outdir::{OutputDir, OutputError, ReportKind, Rotate};

/// Writes an output folder atomically (an [`OutputDir`] of
/// [`ReportKind::MUTANTS`]: temp sibling, then rename). A target that is
/// not a mutants output folder (the user's own directory, a `run` report)
/// is refused before any work and left untouched.
pub struct MutantsWriter {
    out: OutputDir,
}

impl MutantsWriter {
    /// Create the temp dir and write `mutants.json` (the plan) first.
    pub fn create(dir: &Path, plan: &[&MutantInfo]) -> Result<Self, OutputError> {
        let w = Self {
            out: OutputDir::create(dir, ReportKind::MUTANTS, Rotate::Discard)?,
        };
        w.write_json(
            "mutants.json",
            &PlanFile {
                total: plan.len(),
                mutants: plan.to_vec(),
            },
        )?;
        Ok(w)
    }

    fn write(&self, name: &str, text: &str) -> Result<(), OutputError> {
        let path = self.out.tmp().join(name);
        std::fs::write(&path, text).map_err(crate::outdir::io_error(&path, "write"))
    }

    fn write_json<T: Serialize>(&self, name: &str, v: &T) -> Result<(), OutputError> {
        let mut text = serde_json::to_string_pretty(v).unwrap_or_default();
        text.push('\n');
        self.write(name, &text)
    }

    /// Write the outcomes and one list per outcome, then rename into place
    /// (replacing an existing mutants folder). `run` holds the only timing data.
    pub fn finish(
        self,
        report: &MutantsReport,
        run: &serde_json::Value,
    ) -> Result<PathBuf, OutputError> {
        self.write_json("outcomes.json", report)?;
        for outcome in ["caught", "missed", "unviable", "timeout"] {
            let results = report.results.iter().filter(|r| r.outcome.id() == outcome);
            self.write(&format!("{outcome}.txt"), &list(results, false))?;
        }
        let only = report
            .results
            .iter()
            .filter(|r| r.outcome.only_by_examples());
        self.write("caught-only-by-examples.txt", &list(only, true))?;
        self.write_json("run.json", run)?;
        self.out.commit()
    }
}

/// One mutant per line, each followed by its indented notes: the checks
/// that caught it, and (`witness`) its witness line when it has one.
fn list<'a>(results: impl Iterator<Item = &'a MutantResult>, witness: bool) -> String {
    let mut lines = String::new();
    for r in results {
        lines.push_str(&r.info.name);
        lines.push('\n');
        let notes = [
            r.caught_by_line(),
            r.witness_line()
                .filter(|_| witness || r.outcome == MutantOutcome::Missed),
        ];
        for note in notes.into_iter().flatten() {
            lines.push_str("  ");
            lines.push_str(&note);
            lines.push('\n');
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
    }

    /// Every example file's outputs match its accepted insta snapshot
    /// (`harness/src/snapshots/pass-examples@<file>.snap`), one snapshot per
    /// file. A pass that changes an output fails here; accept the change
    /// with `cargo insta review` (or `INSTA_UPDATE=always` and `git diff`).
    /// `wireshape mutants` reads the same snapshots as the expected outputs.
    #[test]
    fn pass_examples_match_their_snapshots() {
        let config = PipelineConfig::load(&corpus().join("config.toml")).unwrap();
        let mut settings = insta::Settings::clone_current();
        settings.set_prepend_module_to_snapshot(false);
        settings.bind(|| {
            insta::glob!("../../corpus/pass-examples", "*.json", |path| {
                let file: ExampleFile =
                    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
                insta::assert_snapshot!(SNAPSHOT_NAME, expected_text(&file, &config));
            });
        });
    }

    /// A missed mutant names the smallest corpus case whose output it
    /// changes; one that changes no output says so.
    #[test]
    fn a_missed_mutant_names_its_smallest_witness() {
        use crate::outcome::CasePlan;
        let lane = Lane::OpenaiStrict;
        let case = |id: &str, schema: serde_json::Value| PlannedCase {
            plan: CasePlan {
                lane: lane.id().to_owned(),
                case: format!("t#{id}"),
            },
            lane,
            tool: Tool::new(id, schema),
            external: false,
            generated: false,
            known: std::sync::Arc::from([]),
            semantic_memo: None,
        };
        let string = serde_json::json!({"type": "string"});
        let ev = MutantEvidence {
            inputs: Inputs {
                cases: vec![
                    // Both passes act, and the largest input: a witness too.
                    case(
                        "big",
                        serde_json::json!({"type": "object", "description": "a long description",
                            "properties": {"a": string, "b": string}}),
                    ),
                    // The smallest input: already closed and required, so
                    // the order of the two passes changes nothing here.
                    case(
                        "plain",
                        serde_json::json!({"type": "object", "additionalProperties": false}),
                    ),
                    case(
                        "small",
                        serde_json::json!({"type": "object", "properties": {"a": string}}),
                    ),
                ],
                unusable: BTreeMap::new(),
                external_loaded: false,
                ledgers: BTreeMap::new(),
                requests: crate::prefix::RequestPlan::default(),
            },
            recordings: Vec::new(),
            gaps: Vec::new(),
            examples: BTreeMap::new(),
            equivalent: Vec::new(),
            config: PipelineConfig::default(),
        };
        // Swapped, the two strict passes write `required` and
        // `additionalProperties` in the other order: bytes no independent
        // check judges (a missed mutant with a witness).
        let names = [
            "v1/openai-strict/strict-close-objects: swapped with strict-require-all",
            "v1/openai-strict/sanitize-tool-name: switched off",
        ];
        let mutants: Vec<Mutant> = plan(Profile::V1, &[lane], &PipelineConfig::default())
            .into_iter()
            .filter(|m| names.contains(&m.info.name.as_str()))
            .collect();
        assert_eq!(mutants.len(), 2);
        let opts = RunOptions {
            jobs: 1,
            timeout: Duration::from_secs(60),
        };
        let report = run(&ev, &mutants, &opts, &mut |_| {}).unwrap();
        let got: Vec<(&str, &str, Option<&str>, Option<String>)> = report
            .results
            .iter()
            .map(|r| {
                (
                    r.info.name.as_str(),
                    r.outcome.id(),
                    r.witness.as_deref(),
                    r.witness_line(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (
                    names[1],
                    "missed",
                    None,
                    Some(
                        "no corpus tool's output changes: a corpus tool must exercise it, or it is equivalent"
                            .to_owned()
                    )
                ),
                (
                    names[0],
                    "missed",
                    Some("t#small"),
                    Some("output changes on: t#small".to_owned())
                ),
            ]
        );
        let json = serde_json::to_value(&report.results[1]).unwrap();
        assert_eq!(json["witness"], "t#small");
        assert!(
            serde_json::to_value(&report.results[0])
                .unwrap()
                .get("witness")
                .is_none()
        );
    }

    fn result(pass: &str, outcome: MutantOutcome) -> MutantResult {
        MutantResult {
            info: MutantInfo {
                name: format!("v1/xai/{pass}: {}", outcome.id()),
                lane: "xai".to_owned(),
                pass: pass.to_owned(),
                kind: MutantKind::Off,
                change: "switched off".to_owned(),
            },
            outcome,
            witness: None,
        }
    }

    fn caught(by: &[&str]) -> MutantOutcome {
        let caught_by: Vec<String> = by.iter().map(|c| (*c).to_owned()).collect();
        MutantOutcome::Caught {
            evidence: Evidence::of(&caught_by),
            details: caught_by
                .iter()
                .map(|c| (c.clone(), format!("{c} noticed")))
                .collect(),
            caught_by,
            budget_exhausted: false,
        }
    }

    /// An equivalent entry turns its mutant unviable unless the run refutes
    /// it: independent evidence caught it, examples caught it (unless it is
    /// listed as the same on the wire), or what it ships changed on a case.
    #[test]
    fn equivalent_entries_are_refuted_by_evidence_or_a_witness() {
        let entry = |r: &MutantResult, wire: bool| Equivalent {
            mutant: r.info.name.clone(),
            on: wire.then_some(EquivalentOn::Wire),
            reason: "because".to_owned(),
        };
        let with_witness = |mut r: MutantResult| {
            r.witness = Some("t#changed".to_owned());
            r
        };
        let mut results = vec![
            result("a", MutantOutcome::Missed),
            result("b", caught(&["pass-examples"])),
            result("c", caught(&["pass-examples"])),
            result("d", caught(&["pass-examples", "semantic"])),
            with_witness(result("e", MutantOutcome::Missed)),
            with_witness(result("f", caught(&["pipeline-examples"]))),
        ];
        let listed = vec![
            entry(&results[0], false),
            entry(&results[1], true),
            entry(&results[2], false),
            entry(&results[3], true),
            entry(&results[4], false),
            entry(&results[5], true),
        ];
        let stale = apply_equivalent(&listed, &mut results);
        let outcomes: Vec<(&str, String)> = results
            .iter()
            .map(|r| {
                let why = match &r.outcome {
                    MutantOutcome::Unviable { reason } => reason.clone(),
                    o => o.id().to_owned(),
                };
                (r.info.pass.as_str(), why)
            })
            .collect();
        assert_eq!(
            outcomes,
            [
                ("a", "equivalent: because".to_owned()),
                (
                    "b",
                    "equivalent on the wire (records differ: pass-examples noticed): because"
                        .to_owned()
                ),
                ("c", "caught".to_owned()),
                ("d", "caught".to_owned()),
                ("e", "missed".to_owned()),
                ("f", "caught".to_owned()),
            ]
        );
        assert_eq!(
            stale,
            [
                "v1/xai/c: caught: listed as equivalent but caught by pass-examples",
                "v1/xai/d: caught: listed as equivalent but caught by pass-examples, semantic",
                "v1/xai/e: missed: listed as equivalent but its output changes on t#changed",
                "v1/xai/f: caught: listed as equivalent but its output changes on t#changed",
            ]
        );
    }

    /// A mutant caught by an example and the oracle is independent; one
    /// caught only by examples is counted apart; unviable mutants are not
    /// viable; the percentage is of viable mutants.
    #[test]
    fn the_summary_counts_independent_evidence_apart_from_examples_only() {
        let results = vec![
            result("a", caught(&["pipeline-examples", "oracle"])),
            result("a", caught(&["pass-examples", "pipeline-examples"])),
            result("b", caught(&["replay"])),
            result("b", MutantOutcome::Missed),
            result(
                "c",
                MutantOutcome::Unviable {
                    reason: "r".to_owned(),
                },
            ),
            result("c", MutantOutcome::Timeout),
        ];
        let s = MutantsSummary::of(&results);
        let counts = |viable, independent, examples_only, missed, timeout| PassCounts {
            viable,
            independent,
            examples_only,
            missed,
            timeout,
        };
        assert_eq!(
            s,
            MutantsSummary {
                mutants: 6,
                viable: 5,
                caught: 3,
                caught_by_independent_evidence: 2,
                caught_only_by_examples: 1,
                missed: 1,
                unviable: 1,
                timeout: 1,
                independent_percent: Some(40.0),
                noticed_by: [
                    ("invariants", 0),
                    ("ledger-diff", 0),
                    ("oracle", 1),
                    ("pass-examples", 1),
                    ("pipeline-examples", 2),
                    ("replay", 1),
                    ("semantic", 0),
                ]
                .into_iter()
                .map(|(c, n)| (c.to_owned(), n))
                .collect(),
                by_pass: [
                    ("a".to_owned(), counts(2, 1, 1, 0, 0)),
                    ("b".to_owned(), counts(2, 1, 0, 1, 0)),
                    ("c".to_owned(), counts(1, 0, 0, 0, 1)),
                ]
                .into_iter()
                .collect(),
            }
        );
        let unseen: Vec<(&str, usize)> = s
            .unseen_passes()
            .into_iter()
            .map(|(p, c)| (p, c.unseen()))
            .collect();
        assert_eq!(unseen, [("a", 1), ("b", 1), ("c", 1)]);
        assert_eq!(percent(227, 581), Some(39.1));
        assert_eq!(percent(1, 3), Some(33.3));
        assert_eq!(percent(2, 3), Some(66.7));
        assert_eq!(percent(0, 0), None);
    }

    /// `outcomes.json` entries name every check; the lists carry a
    /// `caught by:` line, and `caught-only-by-examples.txt` the witness.
    #[test]
    fn a_caught_mutant_lists_every_check_in_json_and_text() {
        let both = result("a", caught(&["pipeline-examples", "oracle"]));
        let mut only = result("b", caught(&["pass-examples"]));
        only.witness = Some("fixtures#x".to_owned());
        let json = serde_json::to_string(&both).unwrap();
        assert_eq!(
            json,
            r#"{"name":"v1/xai/a: caught","lane":"xai","pass":"a","kind":"off","change":"switched off","outcome":"caught","caught_by":["pipeline-examples","oracle"],"evidence":"independent","details":{"oracle":"oracle noticed","pipeline-examples":"pipeline-examples noticed"}}"#
        );
        let back: MutantResult = serde_json::from_str(&json).unwrap();
        assert_eq!(back, both);
        assert_eq!(
            serde_json::to_value(&only).unwrap()["evidence"],
            "examples-only"
        );
        let results = [both, only];
        assert_eq!(
            list(results.iter(), false),
            "v1/xai/a: caught\n  caught by: pipeline-examples, oracle\n\
             v1/xai/b: caught\n  caught by: pass-examples\n"
        );
        assert_eq!(
            list(results[1..].iter(), true),
            "v1/xai/b: caught\n  caught by: pass-examples\n  output changes on: fixtures#x\n"
        );
    }

    /// The body of a snapshot file is what `expected_text` wrote; its
    /// header lines are skipped (and counted for error positions).
    #[test]
    fn a_snapshot_body_is_read_after_its_header() {
        let text = "---\nsource: harness/src/mutants.rs\nexpression: x\n---\n[]\n";
        assert_eq!(snapshot_body(text), Some((4, "[]\n")));
        assert_eq!(snapshot_body("[]"), None);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pass-examples@n.json.snap");
        std::fs::write(&path, "---\nsource: s\n---\n[\n  {\"name\": 1}\n]\n").unwrap();
        let err = load_expected(&path).unwrap_err().to_string();
        assert!(err.starts_with(&format!("{}:5:", path.display())), "{err}");
        assert!(
            load_expected(&dir.path().join("none.snap"))
                .unwrap()
                .is_empty()
        );
    }

    /// With no budget left after the examples, a mutant they caught stays
    /// caught (flagged `budget_exhausted`: the corpus checks did not run);
    /// one they did not catch is a timeout.
    #[test]
    fn an_exhausted_budget_keeps_what_the_examples_caught() {
        let lane = Lane::OpenaiResponses;
        let input = Tool::new(
            "t",
            serde_json::json!({"type": "object", "properties": {
                "q": {"type": "string", "pattern": "^(?=a)a$"}}}),
        );
        let pass = Profile::V1
            .passes(lane)
            .into_iter()
            .find(|p| p.name() == "strip-lookaround-patterns")
            .unwrap();
        let mut example = PassExample {
            name: "lookahead stripped".to_owned(),
            lane: lane.id().to_owned(),
            config: PipelineConfig::default(),
            input,
            expect: None,
        };
        example.expect = Some(run_example(Some(pass.as_ref()), &example));
        let ev = MutantEvidence {
            inputs: Inputs {
                cases: Vec::new(),
                unusable: BTreeMap::new(),
                external_loaded: false,
                ledgers: BTreeMap::new(),
                requests: crate::prefix::RequestPlan::default(),
            },
            recordings: Vec::new(),
            gaps: Vec::new(),
            examples: [("strip-lookaround-patterns".to_owned(), vec![example])]
                .into_iter()
                .collect(),
            equivalent: Vec::new(),
            config: PipelineConfig::default(),
        };
        let names = [
            "v1/openai-responses/strip-lookaround-patterns: switched off",
            "v1/openai-responses/normalize: switched off",
        ];
        let mutants: Vec<Mutant> = plan(Profile::V1, &[lane], &PipelineConfig::default())
            .into_iter()
            .filter(|m| names.contains(&m.info.name.as_str()))
            .collect();
        let opts = RunOptions {
            jobs: 1,
            timeout: Duration::ZERO,
        };
        let report = run(&ev, &mutants, &opts, &mut |_| {}).unwrap();
        let got: Vec<(&str, &MutantOutcome)> = report
            .results
            .iter()
            .map(|r| (r.info.name.as_str(), &r.outcome))
            .collect();
        assert_eq!(
            got,
            [
                (names[1], &MutantOutcome::Timeout),
                (
                    names[0],
                    &MutantOutcome::Caught {
                        caught_by: vec!["pass-examples".to_owned()],
                        evidence: Evidence::ExamplesOnly,
                        details: [(
                            "pass-examples".to_owned(),
                            "example \"lookahead stripped\" of strip-lookaround-patterns"
                                .to_owned()
                        )]
                        .into_iter()
                        .collect(),
                        budget_exhausted: true,
                    }
                ),
            ]
        );
        assert_eq!(
            serde_json::to_value(&report.results[1]).unwrap()["budget_exhausted"],
            true
        );
        assert_eq!(report.summary.timeout, 1);
        assert_eq!(report.summary.caught_only_by_examples, 1);
        assert_eq!(report.exit_status(), crate::ExitStatus::Timeout);
    }

    #[test]
    fn the_plan_is_deterministic_and_names_are_unique() {
        let config = PipelineConfig::default();
        let a: Vec<_> = plan(Profile::V1, Lane::ALL, &config)
            .into_iter()
            .map(|m| m.info)
            .collect();
        let b: Vec<_> = plan(Profile::V1, Lane::ALL, &config)
            .into_iter()
            .map(|m| m.info)
            .collect();
        assert_eq!(a, b);
        let mut names: Vec<_> = a.iter().map(|m| m.name.clone()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), a.len());
        assert!(names.contains(
            &"v1/deepseek-strict/deepseek-post-gate: drop \"allOf\" from unrepresentable keywords"
                .to_owned()
        ));
    }
}
