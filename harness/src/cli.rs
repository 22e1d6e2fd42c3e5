//! The command line (clap). Parses arguments into the library's types and
//! dispatches; every flag has a `WIRESHAPE_*` environment twin. No clap type
//! leaves this module.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use wireshape::{
    ExitStatus, Format, Lane, Outcome, Pipeline, PipelineConfig, Profile, Shaped, load_catalog,
    load_catalog_bytes, scan_corpus,
};

use crate::console;

/// Differential conformance harness for LLM tool-schema shaping.
#[derive(Debug, Parser)]
#[command(name = "wireshape", version, about, max_term_width = 100)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Shape one tools file for one lane and print that wire's tools array.
    Shape(ShapeArgs),
    /// List the lanes (provider wires).
    Lanes,
    /// List the built-in pipelines and their passes per lane.
    Pipelines,
    /// List the catalogs found in corpus directories, and every file that cannot be used.
    List(ListArgs),
}

#[derive(Debug, Args)]
struct ShapeArgs {
    /// Lane id (see `wireshape lanes`).
    #[arg(long, env = "WIRESHAPE_LANE")]
    lane: String,
    /// Pipeline: v0, v1 or verbatim.
    #[arg(long, default_value = "v1", env = "WIRESHAPE_PIPELINE")]
    pipeline: String,
    /// Also print each tool's outcome and degradations (to stderr).
    #[arg(long)]
    explain: bool,
    /// Force the catalog format instead of detecting it.
    #[arg(long, env = "WIRESHAPE_FORMAT")]
    format: Option<String>,
    #[command(flatten)]
    config: ConfigArg,
    /// Tools file, or `-` for standard input.
    file: PathBuf,
}

#[derive(Debug, Args)]
struct ConfigArg {
    /// Pipeline configuration (TOML); default: corpus/config.toml when it exists.
    #[arg(long, env = "WIRESHAPE_CONFIG")]
    config: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct ListArgs {
    /// Corpus directories (default: corpus/catalogs, then WIRESHAPE_CORPUS_PATH).
    #[arg(long = "corpus", value_name = "DIR")]
    corpus: Vec<PathBuf>,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

const DEFAULT_CONFIG: &str = "corpus/config.toml";
const DEFAULT_CORPUS: &str = "corpus/catalogs";

impl ConfigArg {
    fn load(&self) -> Result<PipelineConfig> {
        match &self.config {
            Some(p) => Ok(PipelineConfig::load(p)?),
            None if Path::new(DEFAULT_CONFIG).is_file() => {
                Ok(PipelineConfig::load(Path::new(DEFAULT_CONFIG))?)
            }
            None => Ok(PipelineConfig::default()),
        }
    }
}

/// Errors that mean "usage or input" (exit 2) rather than internal (70).
pub(crate) fn is_input_error(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<wireshape::LoadError>().is_some()
            || e.downcast_ref::<wireshape::UsageError>().is_some()
            || e.downcast_ref::<std::io::Error>().is_some()
    })
}

impl Cli {
    pub(crate) fn run(self) -> Result<ExitStatus> {
        match self.command {
            Command::Shape(a) => shape(&a),
            Command::Lanes => {
                console::lanes();
                Ok(ExitStatus::Clean)
            }
            Command::Pipelines => {
                console::pipelines();
                Ok(ExitStatus::Clean)
            }
            Command::List(a) => list(&a),
        }
    }
}

fn shape(a: &ShapeArgs) -> Result<ExitStatus> {
    let lane = Lane::parse(&a.lane)?;
    let profile = Profile::parse(&a.pipeline)?;
    let format = a.format.as_deref().map(Format::parse).transpose()?;
    let config = a.config.load()?;
    let catalog = if a.file.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
        load_catalog_bytes("stdin", Path::new("<stdin>"), &bytes, format)?
    } else {
        load_catalog(&a.file, format)?
    };
    let pipeline = profile.with_config(config);
    let shaped: Vec<Shaped> = catalog
        .tools
        .iter()
        .map(|t| pipeline.shape(lane, t))
        .collect();
    let tools: Vec<_> = shaped.iter().map(|s| s.tool.clone()).collect();
    console::json(&lane.render_all(&tools))?;
    if a.explain {
        console::explain(lane, &pipeline.id(), &catalog, &shaped);
    }
    let errored = shaped
        .iter()
        .any(|s| matches!(s.outcome, Outcome::Errored { .. }));
    Ok(if errored {
        ExitStatus::Failures
    } else {
        ExitStatus::Clean
    })
}

fn list(a: &ListArgs) -> Result<ExitStatus> {
    let mut dirs = a.corpus.clone();
    if dirs.is_empty() {
        if Path::new(DEFAULT_CORPUS).is_dir() {
            dirs.push(PathBuf::from(DEFAULT_CORPUS));
        }
        dirs.extend(wireshape::corpus_dirs_from_env());
    }
    let scan = scan_corpus(&dirs);
    if a.json {
        console::list_json(&scan)?;
    } else {
        console::list_text(&scan);
    }
    Ok(ExitStatus::Clean)
}
