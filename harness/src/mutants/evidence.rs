//! The evidence a mutant is judged on: loading it (corpora, ledgers,
//! recordings, known gaps, examples, the equivalent list), the per-case
//! verdicts the checks compare, and the unmutated pipeline's baseline per
//! lane.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

use serde::Deserialize;

use crate::differential::{self, DiffOptions, PlannedCase};
use crate::error::LoadError;
use crate::lane::Lane;
use crate::ledger::LaneLedger;
use crate::outcome::{Class, LedgerMatch};
use crate::pipeline::{PassList, Pipeline, PipelineConfig, Profile};
use crate::recording::Recording;
use crate::replay::{self, Fix, KnownGap};
use crate::semantic::{Losses, SemanticClass};

use super::examples::{
    PassExample, example_problem, failing_example, load_examples, run_example, run_pipeline_example,
};
use super::plan::Mutant;

/// Where the evidence comes from.
pub(crate) struct EvidenceOptions {
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

/// The loaded evidence (shared: a clone is cheap, and each thread that
/// judges a mutant owns one).
#[derive(Clone)]
pub(crate) struct MutantEvidence {
    /// The corpus's cases (each with its semantic memo: every case is
    /// judged once per mutant) and the lanes' ledgers.
    pub(super) cases: Arc<[PlannedCase]>,
    pub(super) ledgers: Arc<BTreeMap<Lane, LaneLedger>>,
    pub(super) recordings: Arc<[Recording]>,
    pub(super) gaps: Arc<[KnownGap]>,
    pub(super) examples: Arc<BTreeMap<String, Vec<PassExample>>>,
    pub(super) equivalent: Arc<[Equivalent]>,
    pub(super) config: PipelineConfig,
}

/// Load corpora, ledgers, recordings, gaps, examples and the equivalent list.
pub(crate) fn load_evidence(
    opts: &EvidenceOptions,
    lanes: &[Lane],
) -> Result<MutantEvidence, LoadError> {
    let v0 = Profile::V0.with_config(opts.config.clone());
    let v1 = Profile::V1.with_config(opts.config.clone());
    let inputs = differential::prepare(&DiffOptions {
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
    let mut cases = inputs.cases();
    for case in &mut cases {
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
        cases: cases.into(),
        ledgers: Arc::new(inputs.ledgers),
        recordings: recordings.into(),
        gaps: gaps.into(),
        examples: Arc::new(load_examples(
            &opts.examples_dir,
            &opts.example_snapshots_dir,
        )?),
        equivalent: equivalent.into(),
        config: opts.config.clone(),
    })
}

/// A case's class, ledger matches (file, index) and stale pins.
type LedgerVerdict = (Class, Vec<(String, usize)>, Vec<usize>);

/// A case's verdicts, per check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CaseVerdict {
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
    pub(super) fn of(
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
            .map(|v| v.invariant.id().to_owned())
            .collect();
        invariants.dedup();
        let matches = o
            .ledger
            .iter()
            .map(|m: &std::sync::Arc<LedgerMatch>| (m.file.clone(), m.index))
            .collect();
        let ledgered = ledger.is_some() || o.class == Class::Errored;
        Self {
            invariants,
            ledger: ledgered.then_some((o.class, matches, stale)),
            semantic: o
                .new
                .semantic
                .map(std::sync::Arc::unwrap_or_clone)
                .map(|s| (s.class, s.disagreements, s.silent, s.losses)),
            oracle: (o.verdict, o.new.rejected_by),
        }
    }

    /// Every check on which `self` (mutant) differs from `base`, in
    /// [`CHECKS`] order, each with what changed.
    pub(super) fn differences(&self, base: &Self) -> Vec<(&'static str, String)> {
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
pub(super) struct LaneBaseline {
    pub(super) cases: Vec<(usize, CaseVerdict)>,
    pub(super) replay: Vec<(String, &'static str, bool)>,
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
        self.cases
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

    pub(super) fn replay(
        &self,
        lane: Lane,
        pipeline: &dyn Pipeline,
    ) -> Vec<(String, &'static str, bool)> {
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

    pub(super) fn baseline_lane(&self, lane: Lane, problems: &mut Vec<String>) -> LaneBaseline {
        let v0 = Profile::V0.with_config(self.config.clone());
        let v1 = self.unmutated(lane);
        let cases: Vec<(usize, CaseVerdict)> = self
            .lane_cases(lane)
            .map(|(i, c)| {
                let v = CaseVerdict::of(&v0, &v1, c, self.ledgers.get(&lane));
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
            .filter_map(|(i, c)| {
                // `prepare` parses every tool: unpacking only shares it.
                let (tool, _) = c.tool.unpack().ok()?;
                let size = serde_json::to_string(&*tool).map_or(0, |t| t.len());
                Some((size, i, output_bytes(&v1.shape(lane, &tool))))
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
    pub(super) fn witness(&self, base: &LaneBaseline, m: &Mutant) -> Option<String> {
        let lane = m.info.lane;
        base.outputs.iter().find_map(|(i, want)| {
            let case = &self.cases[*i];
            let (tool, _) = case.tool.unpack().ok()?;
            (output_bytes(&m.pipeline.shape(lane, &tool)) != *want)
                .then(|| case.plan.case.to_string())
        })
    }

    pub(super) fn examples_of(&self, pass: &str) -> &[PassExample] {
        self.examples.get(pass).map_or(&[][..], Vec::as_slice)
    }
}

/// The examples key of a lane's whole v1 pass list.
pub(super) fn lane_key(lane: Lane) -> String {
    format!("{}/{}", Profile::V1.id(), lane.id())
}
