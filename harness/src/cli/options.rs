//! The validated options between clap and the verbs (ripgrep's low-level
//! arguments → high-level options). clap has already checked every value
//! (lanes, pipelines, formats, shards, dates, output formats); what is
//! settled here is what needs more than one flag or a file: the default
//! lanes, the corpus directories that exist, the worker count and the
//! pipeline configuration. All of it happens before any work.

use std::path::PathBuf;

use crate::generate::FuzzSpec;
use crate::{BuiltinPipeline, DiffOptions, Lane, Pipeline, PipelineConfig, Profile};
use anyhow::Result;

use super::args::{CorpusArgs, Shard};

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
    /// `--ledger`, when given (else each pipeline pair has its own).
    pub(super) ledger: Option<PathBuf>,
    pub(super) shard: Option<Shard>,
    pub(super) jobs: usize,
    pub(super) config: PipelineConfig,
}

impl CorpusOptions {
    /// The ledger directory of the pipeline pair `old` → `new` (their
    /// ids): `--ledger` when given, else the pair's default
    /// (`ledger::pair_dir`), where a missing directory is an empty ledger.
    pub(super) fn ledger_dir(&self, old: &str, new: &str) -> PathBuf {
        self.ledger
            .clone()
            .unwrap_or_else(|| crate::ledger::pair_dir(old, new))
    }

    /// `--ledger` naming no directory is an input error (exit 2) for a
    /// verb that reads the ledger: a typo would otherwise run with an empty
    /// ledger and report every intended divergence as unexpected.
    pub(super) fn check_ledger(&self) -> Result<(), crate::LoadError> {
        match &self.ledger {
            Some(dir) if !dir.is_dir() => Err(crate::LoadError::Io {
                path: dir.clone(),
                source: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "no such ledger directory (`--ledger`)",
                ),
            }),
            _ => Ok(()),
        }
    }

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
    /// This pair's ledger directory (`CorpusOptions::ledger_dir`).
    pub(super) ledger: PathBuf,
}

impl DiffRun {
    /// `old` → `new` over `c` (default lanes: those where v0 and v1 differ).
    pub(super) fn new(old: Profile, new: Profile, c: &CorpusArgs) -> Result<Self> {
        let corpus = CorpusOptions::new(c, Lane::DIFFERENTIAL)?;
        let (old, new) = (
            old.with_config(corpus.config.clone()),
            new.with_config(corpus.config.clone()),
        );
        let ledger = corpus.ledger_dir(&old.id(), &new.id());
        Ok(Self {
            old,
            new,
            corpus,
            ledger,
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
            ledger_dir: Some(self.ledger.clone()),
            fuzz,
            shard: c.shard.map(|s| (s.k, s.n)),
            jobs: c.jobs,
        }
    }
}
