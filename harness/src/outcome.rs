//! What a differential run produces: the plan, one [`CaseOutcome`] per
//! (lane × case), ledger issues, and the summary that decides the exit code.
//!
//! Plain data (serde), sorted by key everywhere, so the same inputs give the
//! same bytes. Times and versions live only in `RunMeta` (`run.json`).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::degradation::Degradation;
use crate::exit_code::ExitStatus;
use crate::generate::FuzzSpec;
pub use crate::hash::Sha256Sum;
use crate::lane::Lane;
use crate::semantic::{SemanticClass, Semantics};
use crate::verdict::Verdict;

/// One planned unit of work: a tool on a lane. Plans sort by (lane id,
/// case): `Lane` orders by id.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CasePlan {
    pub lane: Lane,
    /// `<catalog>#<tool>` (one allocation for the tool's cases on every
    /// lane: a run holds its whole plan).
    pub case: std::sync::Arc<str>,
}

impl CasePlan {
    /// `lane::catalog#tool`, the key used in lists, test names and reports.
    pub fn key(&self) -> String {
        format!("{}::{}", self.lane, self.case)
    }
}

/// How the old and new outputs of one case compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    /// Same bytes: the prompt-cache prefix is unchanged.
    Identical,
    /// Same JSON value, different bytes, declared in the ledger. (Reordering
    /// breaks prompt caches: an undeclared one is `unexpected`, tagged `reordered`.)
    Reordered,
    /// Different, and the ledger declares it.
    Intended,
    /// Different, and no ledger entry covers it: a failure.
    Unexpected,
    /// A pipeline errored (panic, limit, protocol): a failure.
    Errored,
}

impl Class {
    pub const ALL: &'static [Class] = &[
        Class::Identical,
        Class::Reordered,
        Class::Intended,
        Class::Unexpected,
        Class::Errored,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Self::Identical => "identical",
            Self::Reordered => "reordered",
            Self::Intended => "intended",
            Self::Unexpected => "unexpected",
            Self::Errored => "errored",
        }
    }

    /// Whether this class alone fails the run.
    pub fn is_failure(self) -> bool {
        matches!(self, Self::Unexpected | Self::Errored)
    }
}

/// One pipeline's side of a case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    pub pipeline: String,
    pub outcome: crate::pipeline::OutcomeKind,
    /// The fail-closed reason or error message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// sha256 of the rendered wire tool (compact JSON, pipeline key order).
    pub sha256: Sha256Sum,
    pub degradations: Vec<Degradation>,
    /// Oracle rules that reject this output on its lane.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rejected_by: Vec<String>,
    /// What this output lets the model send, against the original schema
    /// (the semantic differential). Shared: a tool's outputs that judge
    /// alike on several lanes hold one verdict (a 15-lane run holds about
    /// 13,000 distinct verdicts for its 500,000 sides).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub semantic: Option<Arc<Semantics>>,
}

/// An invariant that did not hold.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Violation {
    pub invariant: Invariant,
    pub pipeline: String,
    /// What went wrong, with the input and both outputs.
    pub message: String,
}

/// The invariants every pipeline output must hold. Declared in id order
/// (violations sort by it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Invariant {
    /// The same input shaped twice gives the same bytes.
    Determinism,
    /// Shaping the output again changes nothing.
    Idempotence,
    /// Every change is recorded.
    NeverSilent,
    /// No pass panics.
    NoPanic,
}

impl Invariant {
    /// The stable id (`determinism`, `idempotence`, `never-silent`, `no-panic`).
    pub fn id(self) -> &'static str {
        match self {
            Self::Determinism => "determinism",
            Self::Idempotence => "idempotence",
            Self::NeverSilent => "never-silent",
            Self::NoPanic => "no-panic",
        }
    }
}

impl std::fmt::Display for Invariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// Which table of a ledger file an entry sits in.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum LedgerTable {
    /// `[[divergence]]`: an intended v0 → v1 change.
    #[default]
    Divergence,
    /// `[[rejection]]`: a rejected new output accepted as a risk, with a reason.
    Rejection,
    /// `[[narrowing]]`: a new output that rejects calls the original
    /// schema allows, declared with a reason.
    Narrowing,
    /// `[[widening]]`: a new output that silently accepts calls the
    /// original schema forbids, declared with a reason.
    Widening,
    /// `[[pin]]`: the exact new bytes of a case, checked on every case.
    Pin,
}

impl LedgerTable {
    pub fn id(self) -> &'static str {
        match self {
            Self::Divergence => "divergence",
            Self::Rejection => "rejection",
            Self::Narrowing => "narrowing",
            Self::Widening => "widening",
            Self::Pin => "pin",
        }
    }

    #[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if takes &T
    pub(crate) fn is_divergence(&self) -> bool {
        *self == Self::Divergence
    }
}

/// The ledger entry that classified a case as intended, or declared its
/// rejection.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LedgerMatch {
    /// Ledger file, relative to the ledger directory (`anthropic-messages.toml`).
    pub file: String,
    /// The table the entry sits in (omitted: `divergence`).
    #[serde(default, skip_serializing_if = "LedgerTable::is_divergence")]
    pub table: LedgerTable,
    /// 0-based index of the entry in its table.
    pub index: usize,
    pub class: String,
    pub reason: String,
}

/// The two outputs of a divergent case, for side-by-side display.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WirePair {
    /// Pretty JSON of the old wire tool.
    pub old: String,
    /// Pretty JSON of the new wire tool.
    pub new: String,
    /// Unified diff old → new.
    pub unified: String,
}

/// The result of one case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseOutcome {
    pub lane: Lane,
    pub case: String,
    pub class: Class,
    /// What changed between old and new, as change tags
    /// (`old:<keyword>:<action>`, `new:<keyword>:<action>`, `outcome:<old>-><new>`, …).
    pub tags: Vec<String>,
    /// The ledger entries that declared this divergence (shared: an entry
    /// declares thousands of cases, and every outcome waits in memory for
    /// the report).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ledger: Vec<Arc<LedgerMatch>>,
    pub old: Side,
    pub new: Side,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<Violation>,
    /// Present when the outputs differ.
    /// Boxed: few outcomes have one, and every outcome waits in memory
    /// for the report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wire: Option<Box<WirePair>>,
    /// The oracle's view of the pair (absent: both accepted). Every
    /// verdict but `fix` means the new output is rejected: a failure unless
    /// a `[[rejection]]` ledger entry declares it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// `[[pin]]` entries whose sha256 the new output does not have: each
    /// fails the run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pin_breaks: Vec<PinBreak>,
}

/// A `[[pin]]` ledger entry that does not hold on a case's new output.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PinBreak {
    /// Ledger file, relative to the ledger directory.
    pub file: String,
    /// 0-based index of the entry among the file's `[[pin]]` tables.
    pub index: usize,
    pub expected: String,
    pub actual: String,
    /// Names the case, the pin, the expected and the actual hash.
    pub message: String,
}

impl CaseOutcome {
    pub fn key(&self) -> String {
        format!("{}::{}", self.lane, self.case)
    }

    /// The case fails the run: an unexpected or errored class, a
    /// violation, a new output the oracle rejects that no `[[rejection]]`
    /// entry declares, or a new output narrowed (shaped, not failed
    /// closed) or silently widened that no `[[narrowing]]`/`[[widening]]`
    /// entry declares, or a broken `[[pin]]`.
    pub fn is_failure(&self) -> bool {
        !self.pin_breaks.is_empty()
            || self.class.is_failure()
            || !self.violations.is_empty()
            || self.undeclared_rejection()
            || self.undeclared_semantic().is_some()
    }

    /// The new output's narrowing or silent widening that the ledger does
    /// not declare (`narrowed` or `widened`). A failed-closed tool ships
    /// as the author wrote it: its narrowing is not shaping's.
    pub fn undeclared_semantic(&self) -> Option<SemanticClass> {
        let s = self.new.semantic.as_ref()?;
        let declared = |t: LedgerTable| self.ledger.iter().any(|m| m.table == t);
        match s.class {
            SemanticClass::Narrowed
                if self.new.outcome == crate::pipeline::OutcomeKind::Shaped
                    && !declared(LedgerTable::Narrowing) =>
            {
                Some(SemanticClass::Narrowed)
            }
            SemanticClass::Widened if s.silent && !declared(LedgerTable::Widening) => {
                Some(SemanticClass::Widened)
            }
            _ => None,
        }
    }

    /// The new output is rejected and the ledger does not declare it.
    pub fn undeclared_rejection(&self) -> bool {
        self.verdict.is_some_and(Verdict::is_rejection)
            && !self
                .ledger
                .iter()
                .any(|m| m.table == LedgerTable::Rejection)
    }
}

/// How the old and new whole requests of one (lane, catalog, kind)
/// compare (see `prefix`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RequestClass {
    /// Same bytes: the cached prefix survives the upgrade.
    Identical,
    /// The bytes differ only inside tools (same tools, same order): each
    /// such tool is judged by its tool case, not counted again here.
    InsideTools,
    /// A non-tools member changed and a request-level rule records every
    /// such change (the tools may differ too, inside judged tools).
    Recorded,
    /// The tools appear in another order (old vs new): a failure.
    ReorderedTools,
    /// The new tools array is not the per-tool outputs (a tool rewritten,
    /// added or dropped by request shaping, which no tool case judges): a
    /// failure.
    InconsistentTools,
    /// A non-tools member changed and no request-level rule records it: a
    /// failure.
    UnrecordedMember,
    /// On the new side, this kind's tools array differs from the `turn`
    /// request's (the cache prefix differs between kinds): a failure.
    KindsDiffer,
}

impl RequestClass {
    pub const ALL: &'static [RequestClass] = &[
        RequestClass::Identical,
        RequestClass::InsideTools,
        RequestClass::Recorded,
        RequestClass::ReorderedTools,
        RequestClass::InconsistentTools,
        RequestClass::UnrecordedMember,
        RequestClass::KindsDiffer,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Self::Identical => "identical",
            Self::InsideTools => "inside-tools",
            Self::Recorded => "recorded",
            Self::ReorderedTools => "reordered-tools",
            Self::InconsistentTools => "inconsistent-tools",
            Self::UnrecordedMember => "unrecorded-member",
            Self::KindsDiffer => "kinds-differ",
        }
    }

    pub fn is_failure(self) -> bool {
        !matches!(self, Self::Identical | Self::InsideTools | Self::Recorded)
    }
}

/// Where two request bodies first differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ByteDifference {
    /// 0-based offset of the first differing byte (for `kinds-differ`:
    /// within the tools arrays).
    pub offset: usize,
    /// The member it falls in (`tools`, `tool_choice`, …; `structure` for
    /// the braces and commas between members).
    pub member: String,
    /// The tool it falls in (0-based, request order of the new side).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_index: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
}

impl ByteDifference {
    /// `byte N, inside tool i (name)` / `byte N, in member m`.
    pub fn describe(&self) -> String {
        match (self.tool_index, &self.tool) {
            (Some(i), Some(name)) => format!("byte {}, inside tool {i} ({name})", self.offset),
            _ => format!("byte {}, in `{}`", self.offset, self.member),
        }
    }
}

/// A request failure, with what it is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestIssue {
    pub class: RequestClass,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<ByteDifference>,
}

/// One pipeline's whole request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestSide {
    pub pipeline: String,
    /// sha256 of the request body.
    pub sha256: String,
    /// Body length in bytes.
    pub bytes: usize,
    /// Every change its request-level rules recorded (`member: name [rule]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<String>,
}

/// The result of one whole-request comparison: a catalog's tools sent on a
/// lane as a request of one kind, old vs new.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestOutcome {
    pub lane: Lane,
    pub catalog: String,
    pub kind: crate::request::RequestKind,
    /// Tools in the catalog.
    pub tools: usize,
    /// The first failure's class, else what the difference is.
    pub class: RequestClass,
    pub old: RequestSide,
    pub new: RequestSide,
    /// The first differing byte, old vs new (absent: identical).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difference: Option<ByteDifference>,
    /// Every failure found (empty: the request passes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub issues: Vec<RequestIssue>,
}

impl RequestOutcome {
    /// `lane::catalog@kind`, the key used in lists and reports.
    pub fn key(&self) -> String {
        format!("{}::{}@{}", self.lane, self.catalog, self.kind.id())
    }

    pub fn is_failure(&self) -> bool {
        !self.issues.is_empty()
    }

    fn sort_key(&self) -> (Lane, &str, crate::request::RequestKind) {
        (self.lane, &self.catalog, self.kind)
    }
}

/// Whole-request comparisons on one lane.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestCounts {
    pub compared: usize,
    pub identical: usize,
    /// Differing only inside tools their tool cases judge.
    pub inside_tools: usize,
    /// A non-tools member changed, recorded by a request-level rule.
    pub recorded: usize,
    pub failures: usize,
}

impl std::ops::AddAssign<&RequestCounts> for RequestCounts {
    /// Each count summed (a total over lanes).
    fn add_assign(&mut self, c: &RequestCounts) {
        self.compared += c.compared;
        self.identical += c.identical;
        self.inside_tools += c.inside_tools;
        self.recorded += c.recorded;
        self.failures += c.failures;
    }
}

/// A ledger entry that did not do its job.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LedgerIssue {
    pub file: String,
    #[serde(default, skip_serializing_if = "LedgerTable::is_divergence")]
    pub table: LedgerTable,
    pub index: usize,
    pub class: String,
    pub kind: LedgerIssueKind,
    pub message: String,
}

/// What is wrong with a ledger entry. Declared in id order (the issues
/// sort by it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LedgerIssueKind {
    /// Its sha256 pin no longer matches the new bytes.
    Stale,
    /// It matched nothing: fails the run.
    Unused,
}

impl LedgerIssueKind {
    /// The stable id (`stale`, `unused`).
    pub fn id(self) -> &'static str {
        match self {
            Self::Stale => "stale",
            Self::Unused => "unused",
        }
    }
}

impl std::fmt::Display for LedgerIssueKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// How often one ledger entry matched in a run (zero: unused).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LedgerUse {
    pub file: String,
    #[serde(default, skip_serializing_if = "LedgerTable::is_divergence")]
    pub table: LedgerTable,
    pub index: usize,
    pub class: String,
    pub uses: usize,
}

/// Counts that decide the exit status.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// lane → class → count (every lane and class present, zeros included).
    pub classes: BTreeMap<Lane, BTreeMap<String, usize>>,
    pub cases: usize,
    pub failures: usize,
    pub violations: usize,
    pub unused_ledger_entries: usize,
    pub stale_ledger_entries: usize,
    /// Cases the oracle rejected before and accepts now.
    #[serde(default)]
    pub fixes: usize,
    /// Cases the oracle accepted before and rejects now.
    #[serde(default)]
    pub regressions: usize,
    /// lane → outputs the oracle rejects, old and new, and how many of the
    /// new ones the ledger declares (every lane present, zeros included).
    #[serde(default)]
    pub rejected: BTreeMap<Lane, Rejected>,
    /// lane → semantic classes of the old and new outputs (every lane and
    /// class present, zeros included).
    #[serde(default)]
    pub semantic: BTreeMap<Lane, SemanticCounts>,
    /// lane → whole-request comparisons (lanes with requests only).
    #[serde(default)]
    pub requests: BTreeMap<Lane, RequestCounts>,
    /// Whole requests that fail (`reordered-tools`, …).
    #[serde(default)]
    pub request_failures: usize,
    pub exit_code: u8,
}

/// Semantic classes on one lane.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SemanticCounts {
    /// class → old outputs.
    pub old: BTreeMap<String, usize>,
    /// class → new outputs.
    pub new: BTreeMap<String, usize>,
    /// New outputs widened with no description note ("silent widening").
    pub new_silent: usize,
    /// New narrowings and silent widenings a `[[narrowing]]` or
    /// `[[widening]]` ledger entry declares.
    #[serde(default)]
    pub new_declared: usize,
    /// New narrowings (of shaped tools) and silent widenings no entry
    /// declares: failures.
    #[serde(default)]
    pub new_undeclared: usize,
}

impl SemanticCounts {
    fn empty() -> Self {
        let zeros: BTreeMap<String, usize> = SemanticClass::ALL
            .iter()
            .map(|c| (c.id().to_owned(), 0))
            .collect();
        Self {
            old: zeros.clone(),
            new: zeros,
            new_silent: 0,
            new_declared: 0,
            new_undeclared: 0,
        }
    }
}

/// Rejected outputs on one lane.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rejected {
    /// Old outputs the oracle rejects.
    pub old: usize,
    /// New outputs the oracle rejects (shaped, failed closed or shared).
    pub new: usize,
    /// New rejections a `[[rejection]]` ledger entry declares.
    pub declared: usize,
}

/// Where a run's outcomes go as they finish (in completion order).
pub trait OutcomeSink {
    fn put(&mut self, outcome: CaseOutcome);
}

/// What the summary counts of the outcomes, added one outcome at a time
/// (in any order).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CaseCounts {
    classes: BTreeMap<Lane, BTreeMap<Class, usize>>,
    cases: usize,
    failures: usize,
    violations: usize,
    fixes: usize,
    regressions: usize,
    rejected: BTreeMap<Lane, Rejected>,
    semantic: BTreeMap<Lane, SemanticCounts>,
}

impl CaseCounts {
    pub fn add(&mut self, o: &CaseOutcome) {
        *self
            .classes
            .entry(o.lane)
            .or_default()
            .entry(o.class)
            .or_default() += 1;
        self.cases += 1;
        self.failures += usize::from(o.is_failure());
        self.violations += o.violations.len();
        self.fixes += usize::from(o.verdict == Some(Verdict::Fix));
        self.regressions += usize::from(o.verdict == Some(Verdict::Regression));
        let r = self.rejected.entry(o.lane).or_default();
        r.old += usize::from(!o.old.rejected_by.is_empty());
        r.new += usize::from(!o.new.rejected_by.is_empty());
        r.declared +=
            usize::from(o.verdict.is_some_and(Verdict::is_rejection) && !o.undeclared_rejection());
        let row = self
            .semantic
            .entry(o.lane)
            .or_insert_with(SemanticCounts::empty);
        if let Some(s) = &o.old.semantic {
            *row.old.entry(s.class.id().to_owned()).or_default() += 1;
        }
        if let Some(s) = &o.new.semantic {
            *row.new.entry(s.class.id().to_owned()).or_default() += 1;
            row.new_silent += usize::from(s.silent);
            let declared = o
                .ledger
                .iter()
                .any(|m| matches!(m.table, LedgerTable::Narrowing | LedgerTable::Widening));
            row.new_declared += usize::from(declared);
        }
        row.new_undeclared += usize::from(o.undeclared_semantic().is_some());
    }
}

/// Everything a run decided, sorted; what the report files are made from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunReport {
    pub old: String,
    pub new: String,
    pub plan: Plan,
    pub outcomes: Vec<CaseOutcome>,
    /// Every ledger entry of the lanes that ran, with its use count.
    pub ledger_use: Vec<LedgerUse>,
    /// Stale and unused entries (unused ones are derived from `ledger_use`).
    pub ledger_issues: Vec<LedgerIssue>,
    /// Corpus files that could not be used, with the reason (path → reason).
    pub unusable: BTreeMap<String, String>,
    pub summary: Summary,
    /// A shard's report: an entry unused here may be used by another shard,
    /// so unused entries are judged only when the shards are merged.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sharded: bool,
    /// The generated tools the plan holds (`--fuzz N --seed S`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuzz: Option<FuzzSpec>,
    /// Whole-request comparisons, sorted by (lane, catalog, kind).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requests: Vec<RequestOutcome>,
}

impl RunReport {
    /// Sort everything by key and recompute the summary. `lanes` lists every
    /// lane that ran (so empty lanes still show zero counts).
    pub fn finish(&mut self, lanes: &[Lane]) {
        let mut counts = CaseCounts::default();
        for o in &self.outcomes {
            counts.add(o);
        }
        self.finish_counted(lanes, counts);
    }

    /// [`finish`](Self::finish) with the outcomes' counts made elsewhere:
    /// a run whose outcomes wait on disk counts each as it finishes.
    pub fn finish_counted(&mut self, lanes: &[Lane], counts: CaseCounts) {
        // By (lane id, case): `Lane` orders by id. Stable, by moving the
        // outcomes along a sorted order of their indices: `sort_by` on the
        // outcomes themselves takes a buffer of half of them (60 MB for
        // the 15-lane run's 250,000).
        let mut order: Vec<usize> = (0..self.outcomes.len()).collect();
        order.sort_by(|&a, &b| {
            let (a, b) = (&self.outcomes[a], &self.outcomes[b]);
            (a.lane, &a.case).cmp(&(b.lane, &b.case))
        });
        permute(&mut self.outcomes, order);
        self.requests
            .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        self.requests.dedup_by(|a, b| a.sort_key() == b.sort_key());
        self.ledger_use.sort();
        self.ledger_issues
            .retain(|i| i.kind != LedgerIssueKind::Unused);
        for u in self
            .ledger_use
            .iter()
            .filter(|u| u.uses == 0 && !self.sharded)
        {
            let at = match u.table {
                LedgerTable::Divergence => format!("{}#{}", u.file, u.index),
                t => format!("{}#{}-{}", u.file, t.id(), u.index),
            };
            self.ledger_issues.push(LedgerIssue {
                file: u.file.clone(),
                table: u.table,
                index: u.index,
                class: u.class.clone(),
                kind: LedgerIssueKind::Unused,
                message: format!(
                    "ledger entry {at} ({}) matched no case in a run over the corpus it was written for: remove it or fix its `case`",
                    u.class
                ),
            });
        }
        self.ledger_issues.sort();
        self.ledger_issues.dedup();
        let unused = self
            .ledger_issues
            .iter()
            .filter(|i| i.kind == LedgerIssueKind::Unused)
            .count();
        let stale = self
            .ledger_issues
            .iter()
            .filter(|i| i.kind == LedgerIssueKind::Stale)
            .count();
        let CaseCounts {
            classes: counted,
            cases,
            failures,
            violations,
            fixes,
            regressions,
            rejected: counted_rejected,
            semantic: counted_semantic,
        } = counts;
        let mut classes: BTreeMap<Lane, BTreeMap<String, usize>> = BTreeMap::new();
        for &lane in lanes {
            let row = classes.entry(lane).or_default();
            for c in Class::ALL {
                row.insert(c.id().to_owned(), 0);
            }
        }
        for (lane, row) in counted {
            let into = classes.entry(lane).or_default();
            for (class, n) in row {
                *into.entry(class.id().to_owned()).or_default() += n;
            }
        }
        let mut rejected: BTreeMap<Lane, Rejected> =
            lanes.iter().map(|&l| (l, Rejected::default())).collect();
        rejected.extend(counted_rejected);
        let mut semantic: BTreeMap<Lane, SemanticCounts> = lanes
            .iter()
            .map(|&l| (l, SemanticCounts::empty()))
            .collect();
        semantic.extend(counted_semantic);
        self.summary = Summary {
            classes,
            cases,
            failures,
            violations,
            unused_ledger_entries: unused,
            stale_ledger_entries: stale,
            fixes,
            regressions,
            rejected,
            semantic,
            requests: self.request_counts(),
            request_failures: self.requests.iter().filter(|r| r.is_failure()).count(),
            exit_code: 0,
        };
        self.summary.exit_code = self.exit_status().code();
    }

    fn request_counts(&self) -> BTreeMap<Lane, RequestCounts> {
        let mut out: BTreeMap<Lane, RequestCounts> = BTreeMap::new();
        for r in &self.requests {
            let c = out.entry(r.lane).or_default();
            c.compared += 1;
            if r.is_failure() {
                c.failures += 1;
            } else {
                match r.class {
                    RequestClass::Identical => c.identical += 1,
                    RequestClass::InsideTools => c.inside_tools += 1,
                    _ => c.recorded += 1,
                }
            }
        }
        out
    }

    /// Failures (any failing case or request, or unused ledger entry) → 1,
    /// else 0.
    pub fn exit_status(&self) -> ExitStatus {
        if self.summary.failures > 0
            || self.outcomes.iter().any(CaseOutcome::is_failure)
            || self.requests.iter().any(RequestOutcome::is_failure)
            || self
                .ledger_issues
                .iter()
                .any(|i| i.kind == LedgerIssueKind::Unused)
        {
            ExitStatus::Failures
        } else {
            ExitStatus::Clean
        }
    }
}

/// How many divergent cases carry their two outputs and a unified diff
/// (failures first, then by key): enough to review, bounded in size.
pub(crate) const MAX_WIRE_PAIRS: usize = 1000;

/// The outcomes that get a wire pair, at most `max`: the failing ones (in
/// order), then the other divergent ones taking the lanes in turn (each
/// lane's first, then each lane's second, …). `outcomes` sorted by (lane,
/// case).
///
/// A shard chooses every case of its own that the whole run chooses: a
/// shard's outcomes are a subset of the run's, so for any case, the
/// failures, the case's rank in its lane and the number of each other
/// lane's cases ranked ahead of it can only be smaller in the shard, and
/// so is its place in the order. [`merge_reports`] therefore gets the
/// whole run's choice back by choosing again among the shards' pairs.
pub(crate) fn wire_choice(outcomes: &[CaseOutcome], max: usize) -> Vec<usize> {
    let mut rank = vec![0usize; outcomes.len()];
    let mut seen: BTreeMap<Lane, usize> = BTreeMap::new();
    let mut chosen = Vec::new();
    for (i, o) in outcomes.iter().enumerate() {
        if o.is_failure() {
            chosen.push(i);
        } else if o.class != Class::Identical {
            let n = seen.entry(o.lane).or_default();
            rank[i] = *n;
            *n += 1;
            chosen.push(i);
        }
    }
    chosen.sort_by_key(|&i| (!outcomes[i].is_failure(), rank[i], outcomes[i].lane, i));
    chosen.truncate(max);
    chosen
}

/// Drop every wire pair [`wire_choice`] (at most `max`) does not choose.
pub(crate) fn keep_chosen_wire_pairs(outcomes: &mut [CaseOutcome], max: usize) {
    let mut chosen = wire_choice(outcomes, max);
    chosen.sort_unstable();
    let mut next = chosen.into_iter().peekable();
    for (i, o) in outcomes.iter_mut().enumerate() {
        if next.next_if_eq(&i).is_none() {
            o.wire = None;
        }
    }
}

/// Merge shard reports into the report one unsharded run would give: plans,
/// outcomes and unusable files are united, ledger uses summed (an entry is
/// unused only when no shard used it), stale entries united, and of the
/// shards' wire pairs the ones the unsharded run chooses are kept (each
/// shard chose up to [`MAX_WIRE_PAIRS`] of its own).
pub(crate) fn merge_reports(shards: Vec<RunReport>) -> RunReport {
    let mut out = RunReport::default();
    let mut plans = Vec::with_capacity(shards.len());
    let mut lanes: Vec<Lane> = Vec::new();
    let mut uses: BTreeMap<(String, LedgerTable, usize), LedgerUse> = BTreeMap::new();
    for shard in shards {
        if out.old.is_empty() {
            out.old = shard.old;
            out.new = shard.new;
        }
        out.fuzz = out.fuzz.or(shard.fuzz);
        lanes.extend(shard.summary.classes.into_keys());
        plans.push(shard.plan);
        out.outcomes.extend(shard.outcomes);
        out.requests.extend(shard.requests);
        out.unusable.extend(shard.unusable);
        out.ledger_issues.extend(
            shard
                .ledger_issues
                .into_iter()
                .filter(|i| i.kind != LedgerIssueKind::Unused),
        );
        for u in shard.ledger_use {
            uses.entry((u.file.clone(), u.table, u.index))
                .and_modify(|e| e.uses += u.uses)
                .or_insert(u);
        }
    }
    out.ledger_use = uses.into_values().collect();
    out.plan = Plan::of(plans.iter().flat_map(Plan::iter));
    lanes.sort();
    lanes.dedup();
    out.finish(&lanes);
    keep_chosen_wire_pairs(&mut out.outcomes, MAX_WIRE_PAIRS);
    out
}

/// `run.json`: the only report file with times and versions.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RunMeta {
    pub wireshape_version: String,
    /// RFC 3339, UTC.
    pub started_at: String,
    pub duration_ms: u64,
    pub command: Vec<String>,
    pub old: String,
    pub new: String,
    pub lanes: Vec<Lane>,
    pub corpus: Vec<String>,
    /// `K/N` when sharded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// `{"count", "seed"}` of `--fuzz N --seed S`, when the run had generated cases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuzz: Option<FuzzSpec>,
}

/// Move `v[order[i]]` to place `i` for every `i` (`order` a permutation
/// of `v`'s indices), following each cycle with swaps.
fn permute<T>(v: &mut [T], mut order: Vec<usize>) {
    const DONE: usize = usize::MAX;
    for start in 0..v.len() {
        let mut at = start;
        while order[at] != DONE {
            let from = std::mem::replace(&mut order[at], DONE);
            if from == start {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

#[path = "outcome_plan.rs"]
mod plan;
pub use plan::Plan;

#[cfg(test)]
mod tests {
    use super::permute;

    #[test]
    fn permute_puts_each_element_where_the_order_says() {
        // Two cycles (0 2 4) and (1 3), a fixed point (5).
        let mut v = vec!['a', 'b', 'c', 'd', 'e', 'f'];
        permute(&mut v, vec![2, 3, 4, 1, 0, 5]);
        assert_eq!(v, ['c', 'd', 'e', 'b', 'a', 'f']);
        let mut v = vec![1, 2, 3];
        permute(&mut v, vec![0, 1, 2]);
        assert_eq!(v, [1, 2, 3]);
        let mut empty: Vec<u8> = Vec::new();
        permute(&mut empty, Vec::new());
        assert!(empty.is_empty());
    }
}
