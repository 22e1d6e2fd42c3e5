//! wireshape: a differential conformance harness for LLM tool-schema shaping.
//!
//! Stages: load (`catalog`, `corpus`) → shape (`pipeline` of `passes`, per
//! `lane`) → check (`invariants`) → diff (`diff`) → classify (`ledger`) →
//! report (`outcome`, `report`); `differential` runs them over a corpus.
//! Provider facts (`facts`: documented keyword sets, formats, limits and
//! open questions, plain data) sit below both the passes and the oracles'
//! documented rules. Oracles (`oracle`, `rules`) judge outputs per provider; `recording`,
//! `replay`, `lint` (`check`) and `mock` build on them. The schema generator
//! (`generate`) feeds the fuzz targets, the proptest properties and `run --fuzz`.

mod catalog;
mod config;
mod corpus;
pub mod date;
mod degradation;
mod diff;
mod differential;
mod ecma;
mod error;
mod exit_code;
pub mod facts;
pub mod generate;
mod hash;
mod invariants;
mod lane;
mod ledger;
mod lint;
mod metamorphic;
mod metaschema;
mod mock;
mod mutants;
mod oracle;
mod outcome;
mod outdir;
mod passes;
mod pipeline;
mod prefix;
mod properties;
mod recording;
mod replay;
mod report;
mod request;
mod rules;
mod schema;
mod semantic;
mod strict_subset;
mod tool;
mod verdict;
mod workers;

pub use catalog::{Catalog, Format, LoadNote, load_catalog, load_catalog_bytes};
pub use corpus::{CorpusEntry, CorpusScan, corpus_dirs_from_env, scan_corpus};
pub use degradation::{Action, Degradation};
pub use differential::{
    DiffOptions, Inputs, PlannedCase, default_own_corpus, execute, parse_shard, prepare, run_case,
};
pub use error::{LoadError, UsageError};
pub use exit_code::ExitStatus;
pub use lane::{Lane, Wire};
pub use ledger::{
    Entry as LedgerEntry, LaneLedger, PinEntry, glob_match, load_lane as load_ledger,
    to_toml as ledger_to_toml,
};
pub use lint::{Evidence, LintFinding, V1Verdict, lint};
pub use metamorphic::{POSITIONS as METAMORPHIC_POSITIONS, RuleRate, run as run_metamorphic};
pub use mock::{MockServer, run_mock_provider, serve_mock};
pub use mutants::{
    BaselineFailed, CHECKS as MUTANT_CHECKS, Evidence as MutantEvidenceClass, EvidenceOptions,
    INDEPENDENT_CHECKS as MUTANT_INDEPENDENT_CHECKS, Mutant, MutantEvidence, MutantInfo,
    MutantKind, MutantOutcome, MutantResult, MutantsReport, MutantsSummary, MutantsWriter,
    PassCounts as MutantPassCounts, RunOptions as MutantRunOptions, load_evidence,
    plan as mutant_plan, run as run_mutants,
};
pub use oracle::{
    DEFAULT_AS_OF, Finding, Rejection, Request, Rule, Status, accept_body, check, error_body,
    rules_for,
};
pub use outcome::{
    ByteDifference, CaseOutcome, CasePlan, Class, Invariant, LedgerIssue, LedgerIssueKind,
    LedgerMatch, LedgerUse, PinBreak, RequestClass, RequestCounts, RequestIssue, RequestOutcome,
    RequestSide, RunMeta, RunReport, Side, Summary, Violation, WirePair, merge_reports,
};
pub use outdir::{OutputError, ReportKind, replace_file};
pub use pipeline::{
    BuiltinPipeline, Outcome, OutcomeKind, PassList, Pipeline, PipelineConfig, Profile, Shaped,
    build_request,
};
pub use prefix::{PlannedRequest, RequestPlan, ToolSource};
pub use recording::{
    RecordedRequest, RecordedResponse, Recording, RecordingSource, load_recordings,
};
pub use replay::{
    Context as ReplayContext, Fix, KnownGap, ReplayResult, fix as replay_fix, gap_for,
    has_v1_shaping, judge_fix, judge_shaped, load_known_gaps, oracle_tools, replay_all, reproduces,
    v1_request, verdict as replay_verdict,
};
pub use report::{ReportError, ReportWriter, read_report, write_report};
pub use request::{
    RequestBody, RequestChange, RequestKind, RequestParts, RequestRule, ShapedRequest,
};
pub use schema::{MAX_DEPTH, TooDeep};
pub use tool::Tool;
pub use verdict::Verdict;

/// Internals exposed for tests, fuzz targets and benches only.
#[doc(hidden)]
pub mod testing {
    pub use crate::diff::{canonical, sha256_hex};
    pub use crate::ecma::has_lookaround;
    pub use crate::invariants::{check_all, determinism, idempotence, never_silent, no_panic};
    /// The property drivers the fuzz targets and proptest properties share.
    pub mod properties {
        pub use crate::properties::*;
    }
    pub use crate::schema::{display_path, visit};
}
