//! wireshape: a differential conformance harness for LLM tool-schema shaping.
//!
//! The library API is small on purpose:
//! - **tools and lanes**: [`load_catalog`] reads a catalog into [`Tool`]s;
//!   a [`Lane`] is one provider wire.
//! - **shaping**: a [`Pipeline`] turns a tool into what one lane sends
//!   ([`Shaped`]: the tool, its [`Outcome`], every [`Degradation`]); the
//!   built-in ones are the [`Profile`]s.
//! - **judging**: [`check`] runs a lane's oracle over a [`Request`] and
//!   gives the [`Finding`]s; [`Verdict`] is what an old and a new verdict
//!   mean together.
//! - **the differential**: [`prepare`] plans a corpus run for two pipelines
//!   ([`DiffOptions`]), [`execute`] runs it, [`run_case`] runs one case; the
//!   result types are in [`outcome`].
//! - **the comparison**: [`prepare_compare`] plans a corpus run for any
//!   number of pipelines ([`CompareOptions`]), [`compare`] runs it and
//!   counts each (lane, pipeline) cell ([`CompareReport`]).
//! - **provider facts**: [`facts`], the documented keyword sets, formats
//!   and limits as plain data.
//!
//! Everything else is internal. Module map and stages: `ARCHITECTURE.md`.

pub mod alloc;
mod catalog;
#[doc(hidden)]
pub mod cli;
mod compare;
mod config;
mod console;
mod construct;
mod corpus;
mod date;
mod degradation;
mod diff;
mod differential;
mod ecma;
mod error;
mod exit_code;
mod external;
pub mod facts;
mod fetch;
mod fuzzing;
mod generate;
mod hash;
mod http;
mod invariants;
mod json_len;
mod lane;
mod ledger;
mod lint;
mod lookup;
mod matrix;
mod metamorphic;
mod metaschema;
mod mock;
mod mutants;
mod oracle;
pub mod outcome;
mod outdir;
mod passes;
mod pipeline;
mod pointer;
mod prefix;
mod probe;
mod properties;
mod recording;
mod replay;
mod report;
mod request;
mod rules;
mod schema;
mod semantic;
mod spill;
mod strict_subset;
mod tool;
mod verdict;
mod workers;

// The public API: what a library user needs to shape tools, judge them
// and run the differential over their own pipelines. Nothing else is
// public; `cli` (the binary) and `testing` (tests, fuzz targets) are
// hidden and not part of the API.

// Tools, lanes and catalogs.
pub use catalog::{Catalog, Format, LoadNote, load_catalog, load_catalog_bytes};
pub use error::{LoadError, UsageError};
pub use exit_code::ExitStatus;
pub use lane::{Lane, Wire};
pub use schema::{MAX_DEPTH, TooDeep};
pub use tool::Tool;

// Shaping: the pipeline trait, the built-in profiles, what a shaping gives.
pub use config::PipelineConfig;
pub use degradation::{Action, Degradation};
pub use pipeline::{
    BuiltinPipeline, Outcome, OutcomeKind, Pipeline, Profile, Shaped, build_request,
};
pub use request::{
    RequestBody, RequestChange, RequestKind, RequestParts, RequestRule, ShapedRequest,
};

// Judging: a lane's oracle over one request, and recorded evidence.
pub use oracle::{DEFAULT_AS_OF, Finding, Rejection, Request, Rule, Status, check, rules_for};
pub use recording::{Recording, load_recordings};
pub use verdict::Verdict;

// The differential: old against new over a corpus, and what it found
// (`outcome` holds every type of a run's result).
pub use catalog::CorpusTool;
pub use differential::{
    DiffOptions, Inputs, PlannedCase, PlannedTool, RequestPlan, WirePairs, execute, execute_to,
    prepare, prepare_packed, run_case,
};
pub use external::{
    ExternalPipeline, Implementation, LaneInfo, Limits as ExternalLimits, Spec as ExternalSpec,
};
pub use generate::FuzzSpec;
pub use outcome::{
    CaseCounts, CaseOutcome, CasePlan, Class, OutcomeSink, Plan, RunReport, Summary,
};

// The comparison: several pipelines side by side over a corpus.
pub use compare::{
    Cell, CellStats, CellTime, CompareOptions, CompareReport, Compared, Examples, compare,
    prepare_compare,
};

/// Internals exposed for the tests, fuzz targets and benches only: not part
/// of the API, may change at any time.
#[doc(hidden)]
pub mod testing {
    pub use crate::diff::{canonical, sha256_hex};
    pub use crate::ecma::has_lookaround;
    pub use crate::invariants::{check_all, determinism, idempotence, never_silent, no_panic};
    pub use crate::ledger::{glob_match, load_lane as load_ledger};
    pub use crate::mock::{Fault, FaultKind, MockOptions, MockServer, serve_mock};
    pub use crate::oracle::{accept_body, error_body};
    pub use crate::replay::{
        fix as replay_fix, judge_fix, load_known_gaps, oracle_tools, reproduces, v1_request,
    };
    pub use crate::schema::{display_path, visit};
    /// The structured schema generator.
    pub mod generate {
        pub use crate::generate::*;
    }
    /// The property drivers the fuzz targets and proptest properties share.
    pub mod properties {
        pub use crate::properties::*;
    }
}
