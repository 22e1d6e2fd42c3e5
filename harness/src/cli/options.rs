//! The validated options between clap and the verbs (ripgrep's low-level
//! arguments → high-level options). clap has already checked every value
//! (lanes, pipelines, formats, shards, dates, output formats); what is
//! settled here is what needs more than one flag or a file: the default
//! lanes, the corpus directories that exist, the worker count and the
//! pipeline configuration. All of it happens before any work.

use std::path::PathBuf;

use crate::generate::FuzzSpec;
use crate::{BuiltinPipeline, DiffOptions, Lane, Pipeline, PipelineConfig, Profile, UsageError};
use anyhow::Result;

use super::args::{CorpusArgs, Shard, parse_profile};

/// `lanes`, or `default` when none were named.
pub(super) fn lanes_or(lanes: &[Lane], default: &[Lane]) -> Vec<Lane> {
    if lanes.is_empty() {
        default.to_vec()
    } else {
        lanes.to_vec()
    }
}

/// The worker count: `--jobs`, else the available cores.
fn jobs(requested: Option<usize>) -> usize {
    requested.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// What a verb that walks the corpus runs over.
pub(super) struct CorpusOptions {
    pub(super) lanes: Vec<Lane>,
    /// The own corpus, when its directory exists.
    pub(super) own_corpus: Vec<PathBuf>,
    /// External corpus directories (empty entries dropped).
    pub(super) external_corpus: Vec<PathBuf>,
    pub(super) ledger: PathBuf,
    pub(super) shard: Option<Shard>,
    pub(super) jobs: usize,
    pub(super) config: PipelineConfig,
}

impl CorpusOptions {
    /// Settle `c`; `default_lanes` when it names none. Reads the pipeline
    /// configuration (a bad one is an input error, exit 2).
    pub(super) fn new(c: &CorpusArgs, default_lanes: &[Lane]) -> Result<Self> {
        Ok(Self {
            lanes: lanes_or(&c.lanes, default_lanes),
            own_corpus: if c.own.is_dir() {
                vec![c.own.clone()]
            } else {
                Vec::new()
            },
            external_corpus: c
                .corpus
                .iter()
                .filter(|d| !d.as_os_str().is_empty())
                .cloned()
                .collect(),
            ledger: c.ledger.clone(),
            shard: c.shard,
            jobs: jobs(c.jobs),
            config: c.config.load()?,
        })
    }
}

/// A differential run (`run`, `diff`, `ledger accept`): two pipelines over
/// the corpus.
pub(super) struct DiffRun {
    pub(super) old: BuiltinPipeline,
    pub(super) new: BuiltinPipeline,
    pub(super) corpus: CorpusOptions,
}

impl DiffRun {
    /// `old` → `new` over `c` (default lanes: those where v0 and v1 differ).
    pub(super) fn new(old: Profile, new: Profile, c: &CorpusArgs) -> Result<Self> {
        let corpus = CorpusOptions::new(c, Lane::DIFFERENTIAL)?;
        Ok(Self {
            old: old.with_config(corpus.config.clone()),
            new: new.with_config(corpus.config.clone()),
            corpus,
        })
    }

    /// The library's options for this run.
    pub(super) fn diff_options(&self, fuzz: Option<FuzzSpec>) -> DiffOptions<'_> {
        let c = &self.corpus;
        DiffOptions {
            old: &self.old,
            new: &self.new,
            lanes: c.lanes.clone(),
            own_corpus: c.own_corpus.clone(),
            external_corpus: c.external_corpus.clone(),
            ledger_dir: Some(c.ledger.clone()),
            fuzz,
            shard: c.shard.map(|s| (s.k, s.n)),
            jobs: c.jobs,
        }
    }
}

/// `compare --pipelines`: the comma-separated list, each built with
/// `config`, in the order given. The one place that reads a pipeline list
/// (a spec parser for external pipelines takes its place): an unknown
/// name, an empty entry or a name given twice is a usage error.
pub(super) fn compare_pipelines(
    list: &str,
    config: &PipelineConfig,
) -> Result<Vec<Box<dyn Pipeline + Sync>>, UsageError> {
    let bad = |reason: String| UsageError::BadPipelineList {
        list: list.to_owned(),
        reason,
    };
    let mut seen = std::collections::BTreeSet::new();
    let mut out: Vec<Box<dyn Pipeline + Sync>> = Vec::new();
    for name in list.split(',').map(str::trim) {
        if name.is_empty() {
            return Err(bad("an empty entry".to_owned()));
        }
        if !seen.insert(name) {
            return Err(bad(format!("`{name}` named twice")));
        }
        out.push(Box::new(parse_profile(name)?.with_config(config.clone())));
    }
    Ok(out)
}
