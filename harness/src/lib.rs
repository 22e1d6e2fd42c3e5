//! wireshape: a differential conformance harness for LLM tool-schema shaping.
//!
//! Stages: load (catalog) → shape (pipeline × lane) → render (lane).
//! Later stages (oracle, diff, classify, report) build on these types.

mod catalog;
mod corpus;
mod degradation;
mod ecma;
mod error;
mod exit_code;
mod lane;
mod passes;
mod pipeline;
mod schema;
mod tool;

pub use catalog::{Catalog, Format, LoadNote, load_catalog, load_catalog_bytes};
pub use corpus::{CorpusEntry, CorpusScan, corpus_dirs_from_env, scan_corpus};
pub use degradation::{Action, Degradation};
pub use error::{LoadError, UsageError};
pub use exit_code::ExitStatus;
pub use lane::Lane;
pub use pipeline::{BuiltinPipeline, Outcome, Pipeline, PipelineConfig, Profile, Shaped};
pub use schema::{MAX_DEPTH, TooDeep};
pub use tool::Tool;

/// Internals exposed for tests, fuzz targets and benches only.
#[doc(hidden)]
pub mod testing {
    pub use crate::ecma::has_lookaround;
    pub use crate::schema::{display_path, visit};
}
