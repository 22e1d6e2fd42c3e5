//! The validated options between clap and the verbs (ripgrep's low-level
//! arguments → high-level options). clap has already checked every value
//! (lanes, pipelines, formats, shards, dates, output formats); what is
//! settled here is what needs more than one flag or a file: the default
//! lanes, the corpus directories that exist, the worker count and the
//! pipeline configuration. All of it happens before any work.

use std::fmt::Write as _;
use std::path::PathBuf;

use crate::config::ExternalDefs;
use crate::external::{ExternalPipeline, Limits, Spec};
use crate::generate::FuzzSpec;
use crate::{DiffOptions, Lane, Pipeline, PipelineConfig, UsageError};
use anyhow::Result;

use super::args::{ConfigArg, CorpusArgs, PipelineArg, Shard};

/// A pipeline ready to run: built in, or an external implementation
/// (whose driver has been started once, so its lanes are known).
pub(super) enum Resolved {
    Builtin(crate::BuiltinPipeline),
    External(Box<ExternalPipeline>),
}

impl Resolved {
    pub(super) fn as_dyn(&self) -> &(dyn Pipeline + Sync) {
        match self {
            Self::Builtin(p) => p,
            Self::External(p) => p.as_ref(),
        }
    }

    /// The built-in pipeline, for what only it can do (`shape --trace`).
    pub(super) fn builtin(&self) -> Option<&crate::BuiltinPipeline> {
        match self {
            Self::Builtin(p) => Some(p),
            Self::External(_) => None,
        }
    }

    /// Lanes an external implementation announces twice (not served).
    fn ambiguous(&self) -> Vec<(Lane, Vec<String>)> {
        match self {
            Self::Builtin(_) => Vec::new(),
            Self::External(p) => p.ambiguous().clone().into_iter().collect(),
        }
    }
}

/// Build the pipeline `arg` names: a `cmd:` line or a config name starts
/// its driver here. A name the config does not define is a usage error.
pub(super) fn resolve(arg: &PipelineArg, config: &ConfigArg) -> Result<Resolved> {
    let limits = Limits {
        request: config.request_timeout,
        ..Limits::default()
    };
    match arg {
        PipelineArg::Builtin(p) => Ok(Resolved::Builtin(p.with_config(config.load()?))),
        PipelineArg::Command(line) => {
            let spec = Spec::from_command_line(line, limits)
                .map_err(|why| UsageError::UnknownPipeline(format!("cmd:{line} ({why})")))?;
            Ok(Resolved::External(Box::new(ExternalPipeline::new(spec))))
        }
        PipelineArg::Named(name) => {
            let defs = match config.path() {
                Some(path) => ExternalDefs::load(path)?,
                None => ExternalDefs::default(),
            };
            let Some(def) = defs.pipelines.get(name) else {
                let known: Vec<&str> = defs.pipelines.keys().map(String::as_str).collect();
                let where_ = match (config.path(), known.is_empty()) {
                    (None, _) => "there is no config file to define it (--config)".to_owned(),
                    (Some(p), true) => format!("{} defines no [pipelines.*]", p.display()),
                    (Some(p), false) => format!(
                        "{} defines no [pipelines.{name}] (it defines {})",
                        p.display(),
                        known.join(", ")
                    ),
                };
                return Err(UsageError::NoSuchPipeline {
                    name: name.clone(),
                    where_,
                }
                .into());
            };
            let spec = Spec::from_def(name, def, &defs.base, limits)
                .map_err(|why| UsageError::UnknownPipeline(format!("{name} ({why})")))?;
            Ok(Resolved::External(Box::new(ExternalPipeline::new(spec))))
        }
    }
}

/// The lanes to run `pipelines` on: the named ones (each must be served by
/// every pipeline), else the defaults the pipelines all serve.
pub(super) fn served_lanes(
    named: &[Lane],
    default: &[Lane],
    pipelines: &[&Resolved],
) -> Result<Vec<Lane>> {
    let serves_all = |lane: Lane| pipelines.iter().all(|p| p.as_dyn().serves(lane));
    if named.is_empty() {
        let lanes: Vec<Lane> = default.iter().copied().filter(|&l| serves_all(l)).collect();
        if lanes.is_empty() {
            return Err(UsageError::NoLanes(not_served(default, pipelines)).into());
        }
        return Ok(lanes);
    }
    let missing: Vec<Lane> = named.iter().copied().filter(|&l| !serves_all(l)).collect();
    if missing.is_empty() {
        Ok(named.to_vec())
    } else {
        Err(UsageError::NoLanes(not_served(&missing, pipelines)).into())
    }
}

fn not_served(lanes: &[Lane], pipelines: &[&Resolved]) -> String {
    let mut parts = Vec::new();
    for p in pipelines {
        let missing: Vec<&str> = lanes
            .iter()
            .filter(|&&l| !p.as_dyn().serves(l))
            .map(|l| l.id())
            .collect();
        if !missing.is_empty() {
            let mut part = format!("{} does not serve {}", p.as_dyn().id(), missing.join(", "));
            for (lane, ids) in p.ambiguous() {
                if missing.contains(&lane.id()) {
                    let _ = write!(
                        part,
                        " ({} is claimed by {}: name one in a [pipelines.<name>] `lanes` map)",
                        lane.id(),
                        ids.join(" and ")
                    );
                }
            }
            parts.push(part);
        }
    }
    parts.join("; ")
}

/// `lanes`, or `default` when none were named.
pub(super) fn lanes_or(lanes: &[Lane], default: &[Lane]) -> Vec<Lane> {
    if lanes.is_empty() {
        default.to_vec()
    } else {
        lanes.to_vec()
    }
}

/// The worker count: `--jobs`, else the available cores.
pub(super) fn jobs(requested: Option<usize>) -> usize {
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
    pub(super) old: Resolved,
    pub(super) new: Resolved,
    pub(super) corpus: CorpusOptions,
    /// This pair's ledger directory (`CorpusOptions::ledger_dir`).
    pub(super) ledger: PathBuf,
}

impl DiffRun {
    /// `old` → `new` over `c` (default lanes: those where v0 and v1 differ
    /// that both pipelines serve), with the pair's ledger.
    pub(super) fn new(old: &PipelineArg, new: &PipelineArg, c: &CorpusArgs) -> Result<Self> {
        let mut corpus = CorpusOptions::new(c, Lane::DIFFERENTIAL)?;
        let old = resolve(old, &c.config)?;
        let new = resolve(new, &c.config)?;
        corpus.lanes = served_lanes(&c.lanes, Lane::DIFFERENTIAL, &[&old, &new])?;
        let ledger = corpus.ledger_dir(&old.as_dyn().id(), &new.as_dyn().id());
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
            old: self.old.as_dyn(),
            new: self.new.as_dyn(),
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

/// `compare --pipelines`: the comma-separated list, each built with
/// `config`, in the order given. The one place that reads a pipeline list
/// (a spec parser for external pipelines takes its place): an unknown
/// name, an empty entry or a name given twice is a usage error.
pub(super) fn compare_pipelines(list: &str, config: &ConfigArg) -> Result<Vec<Resolved>> {
    let bad = |reason: String| UsageError::BadPipelineList {
        list: list.to_owned(),
        reason,
    };
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for name in list.split(',').map(str::trim) {
        if name.is_empty() {
            return Err(bad("an empty entry".to_owned()).into());
        }
        if !seen.insert(name) {
            return Err(bad(format!("`{name}` named twice")).into());
        }
        out.push(resolve(&super::args::parse_pipeline(name)?, config)?);
    }
    Ok(out)
}
