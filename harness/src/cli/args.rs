//! The clap types: every verb's arguments, each flag with its `WIRESHAPE_*`
//! environment twin, and the checks clap runs before any work.

use std::path::{Path, PathBuf};

use crate::generate::FuzzSpec;
use crate::{Format, Lane, PipelineConfig, Profile, UsageError};
use anyhow::Result;
use clap::{Args, Parser, Subcommand, ValueEnum};

/// Differential conformance harness for LLM tool-schema shaping.
#[derive(Debug, Parser)]
#[command(name = "wireshape", version, about, max_term_width = 100)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Shape one tools file for one lane and print that wire's tools array.
    Shape(ShapeArgs),
    /// List the lanes (provider wires).
    Lanes,
    /// List the built-in pipelines and their passes per lane.
    Pipelines,
    /// List the catalogs found in corpus directories, and every file that cannot be used.
    List(ListArgs),
    /// The nightly job: v0 → v1 on every lane over the corpus, invariants, ledger, report.
    Run(RunArgs),
    /// Compare two pipelines on every lane over the corpus (like `run`, any pair).
    Diff(DiffArgs),
    /// Several pipelines side by side on every lane over the corpus: accepted, rejected, errored, failed closed and invariant violations per lane and pipeline.
    #[command(
        mut_arg("lanes", |a| a.help("Lanes to run (comma-separated ids; default: every lane)")),
        mut_arg("ledger", |a| a.hide(true))
    )]
    Compare(CompareArgs),
    /// Manage the intended-divergence ledger.
    #[command(subcommand)]
    Ledger(LedgerCommand),
    /// Work with report directories.
    #[command(subcommand)]
    Report(ReportCommand),
    /// Would these providers reject these tools? Rule, path, evidence and the v1 fix, per tool.
    Check(CheckArgs),
    /// Replay every recorded provider response against the oracles and the v1 pipeline.
    Replay(ReplayArgs),
    /// Serve a lane's real endpoint paths on loopback, answering with the oracle's verdict.
    MockProvider(MockProviderArgs),
    /// Mutation checks: every pass of v1 switched off, swapped or altered in turn; some evidence must notice.
    Mutants(MutantsArgs),
    /// Schema mutation: inject each oracle rule's recorded construct into clean corpus tools; the pipeline must handle it.
    Metamorphic(MetamorphicArgs),
    /// Fuzz any pipeline (built-in, `cmd:…` or a config name) with generated schemas: no crash, determinism, idempotence, never silent, oracle acceptance; each failure minimized into DIR.
    Fuzz(FuzzCmdArgs),
    /// Plan (default) or send (`--live`, with WIRESHAPE_LIVE=1 and the provider's key) one minimal request per probe construct and lane; answers become recordings.
    Probe(ProbeArgs),
    /// Constructs × lanes: accepted, rejected, documented only or unknown, from the recordings and the rules; marks where a probe disagrees with the oracle.
    Matrix(MatrixArgs),
    /// Public corpora: `corpus fetch` downloads the files a manifest lists, sha256-verified.
    #[command(subcommand)]
    Corpus(super::corpus_fetch::CorpusCommand),
}

/// `--output-format`: checked by clap, so a bad value is refused before any work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum OutputFormat {
    Text,
    Json,
}

// The value parsers: clap calls them while parsing, so a bad value is a
// usage error (exit 2) before any file is read or any work is done.

/// `--as-of`: a real calendar date `YYYY-MM-DD`.
pub(crate) fn parse_date(s: &str) -> Result<String, UsageError> {
    if crate::date::is_calendar_date(s) {
        Ok(s.to_owned())
    } else {
        Err(UsageError::BadDate(s.to_owned()))
    }
}

/// `--lane`, `--lanes`: a lane id (`wireshape lanes`).
pub(crate) fn parse_lane(s: &str) -> Result<Lane, UsageError> {
    Lane::parse(s)
}

/// `check --lane`: a lane id, or `all`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LaneChoice {
    All,
    One(Lane),
}

pub(crate) fn parse_lane_choice(s: &str) -> Result<LaneChoice, UsageError> {
    if s == "all" {
        Ok(LaneChoice::All)
    } else {
        Lane::parse(s).map(LaneChoice::One)
    }
}

/// `mutants --pipeline`: a built-in pipeline (`wireshape pipelines`).
pub(crate) fn parse_profile(s: &str) -> Result<Profile, UsageError> {
    Profile::parse(s)
}

/// `--pipeline`, `--old`, `--new`: a built-in pipeline, `cmd:<command
/// line>` (an external implementation behind the line protocol), or the
/// name of a `[pipelines.<name>]` table in the config file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PipelineArg {
    Builtin(Profile),
    Command(String),
    Named(String),
}

pub(crate) fn parse_pipeline(s: &str) -> Result<PipelineArg, UsageError> {
    if let Some(line) = s.strip_prefix("cmd:") {
        if line.trim().is_empty() {
            return Err(UsageError::UnknownPipeline(format!(
                "{s} (`cmd:` needs a command line)"
            )));
        }
        return Ok(PipelineArg::Command(line.to_owned()));
    }
    if let Ok(p) = Profile::parse(s) {
        return Ok(PipelineArg::Builtin(p));
    }
    let name_like = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':'));
    if name_like {
        Ok(PipelineArg::Named(s.to_owned()))
    } else {
        Err(UsageError::UnknownPipeline(s.to_owned()))
    }
}

/// `--format`: a catalog format name.
pub(crate) fn parse_format(s: &str) -> Result<Format, UsageError> {
    Format::parse(s)
}

/// `--shard K/N`: shard K of N, 1 <= K <= N.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shard {
    pub(crate) k: usize,
    pub(crate) n: usize,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

pub(crate) fn parse_shard(s: &str) -> Result<Shard, UsageError> {
    crate::differential::parse_shard(s)
        .map(|(k, n)| Shard { k, n })
        .ok_or_else(|| UsageError::BadShard(s.to_owned()))
}

#[derive(Debug, Args)]
pub(crate) struct MutantsArgs {
    /// List the mutants instead of running them.
    #[arg(long)]
    pub(crate) list: bool,
    /// With --list: machine-readable output.
    #[arg(long, requires = "list")]
    pub(crate) json: bool,
    /// The pipeline to mutate (built-in profiles; only v1 has evidence).
    #[arg(long, default_value = "v1", value_parser = parse_profile, env = "WIRESHAPE_PIPELINE")]
    pub(crate) pipeline: Profile,
    #[command(flatten)]
    pub(crate) corpus: CorpusArgs,
    /// Output folder (mutants.json, outcomes.json, caught.txt, missed.txt, …).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "reports/mutants",
        env = "WIRESHAPE_OUTPUT"
    )]
    pub(crate) output: PathBuf,
    /// Recordings directory (replay evidence).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "recordings",
        env = "WIRESHAPE_RECORDINGS"
    )]
    pub(crate) recordings: PathBuf,
    /// Pass and pipeline example inputs (`<pass>.json` files; an empty directory: no examples).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "corpus/pass-examples",
        env = "WIRESHAPE_EXAMPLES"
    )]
    pub(crate) examples: PathBuf,
    /// The examples' accepted outputs: insta snapshots `pass-examples@<file>.snap` (`cargo insta review`).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "harness/src/snapshots",
        env = "WIRESHAPE_EXAMPLE_SNAPSHOTS"
    )]
    pub(crate) example_snapshots: PathBuf,
    /// Mutants equivalent by construction, with reasons.
    #[arg(
        long,
        value_name = "FILE",
        default_value = "corpus/mutants-equivalent.toml",
        env = "WIRESHAPE_EQUIVALENT"
    )]
    pub(crate) equivalent: PathBuf,
    /// Per-mutant time budget in seconds (a watchdog ends a mutant that overruns it).
    #[arg(long, default_value_t = 600, env = "WIRESHAPE_MUTANT_TIMEOUT")]
    pub(crate) timeout: u64,
}

#[derive(Debug, Args)]
pub(crate) struct MetamorphicArgs {
    /// The pipeline under test (built-in, `cmd:…` or a config name).
    #[arg(long, default_value = "v1", value_parser = parse_pipeline, env = "WIRESHAPE_PIPELINE")]
    pub(crate) pipeline: PipelineArg,
    /// Lanes (comma-separated; default: every lane).
    #[arg(long, value_delimiter = ',', value_parser = parse_lane, env = "WIRESHAPE_LANES")]
    pub(crate) lanes: Vec<Lane>,
    /// The clean tools come from these catalogs.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "corpus/catalogs",
        env = "WIRESHAPE_OWN_CORPUS"
    )]
    pub(crate) own: PathBuf,
    /// Recordings directory (where the constructs come from).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "recordings",
        env = "WIRESHAPE_RECORDINGS"
    )]
    pub(crate) recordings: PathBuf,
    /// Output format: `text` or `json`.
    #[arg(
        long = "output-format",
        value_name = "FORMAT",
        value_enum,
        default_value_t = OutputFormat::Text,
        env = "WIRESHAPE_OUTPUT_FORMAT"
    )]
    pub(crate) output_format: OutputFormat,
    #[command(flatten)]
    pub(crate) config: ConfigArg,
}

#[derive(Debug, Args)]
pub(crate) struct FuzzCmdArgs {
    /// The pipeline under test: v0, v1, verbatim, `cmd:<command line>` or a config name.
    #[arg(long, default_value = "v1", value_parser = parse_pipeline, env = "WIRESHAPE_PIPELINE")]
    pub(crate) pipeline: PipelineArg,
    /// Lanes, taken in turn by the inputs (comma-separated; default: every lane the pipeline serves).
    #[arg(long, value_delimiter = ',', value_parser = parse_lane, env = "WIRESHAPE_LANES")]
    pub(crate) lanes: Vec<Lane>,
    /// Stop after SECS seconds, shrinking included (default: 60 without --count, none with it).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, env = "WIRESHAPE_FUZZ_TIME")]
    pub(crate) time: Option<std::time::Duration>,
    /// Stop after N inputs (with --time: whichever comes first).
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u64).range(1..),
        env = "WIRESHAPE_FUZZ_COUNT"
    )]
    pub(crate) count: Option<u64>,
    /// The generator's seed: input i is generated tool i of this seed, on lane i mod (number of lanes).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        env = "WIRESHAPE_FUZZ_SEED"
    )]
    pub(crate) seed: u64,
    /// Where each minimized failure is written (`<property>-<lane>-<sha>.json` and `.txt`); only
    /// ever adds files, and refuses a directory holding anything else.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "fuzz-failures",
        env = "WIRESHAPE_OUTPUT"
    )]
    pub(crate) output: PathBuf,
    /// Pipeline calls one failure's shrink may make.
    #[arg(long, value_name = "N", default_value_t = crate::fuzzing::DEFAULT_SHRINK_CALLS, env = "WIRESHAPE_SHRINK_CALLS")]
    pub(crate) shrink_calls: usize,
    /// Worker threads (default: available cores).
    #[arg(long, env = "WIRESHAPE_JOBS")]
    pub(crate) jobs: Option<usize>,
    /// No progress and no line per failure (the summary is still printed).
    #[arg(long, short, env = "WIRESHAPE_QUIET")]
    pub(crate) quiet: bool,
    #[command(flatten)]
    pub(crate) config: ConfigArg,
}

impl FuzzCmdArgs {
    /// The default run length: 60 seconds when neither bound is given.
    pub(crate) const DEFAULT_TIME: std::time::Duration = std::time::Duration::from_secs(60);

    /// `--time`, else 60 seconds unless `--count` bounds the run.
    pub(crate) fn time(&self) -> Option<std::time::Duration> {
        self.time
            .or_else(|| self.count.is_none().then_some(Self::DEFAULT_TIME))
    }
}

#[derive(Debug, Args)]
pub(crate) struct MockProviderArgs {
    /// Lane id.
    #[arg(long, value_parser = parse_lane, env = "WIRESHAPE_LANE")]
    pub(crate) lane: Lane,
    /// Port (0: a free one, printed at start).
    #[arg(long, default_value_t = 0, env = "WIRESHAPE_PORT")]
    pub(crate) port: u16,
    /// Address to bind (loopback by default).
    #[arg(long, default_value = "127.0.0.1", env = "WIRESHAPE_BIND")]
    pub(crate) bind: String,
    /// Recordings served verbatim when a request matches one exactly.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "recordings",
        env = "WIRESHAPE_RECORDINGS"
    )]
    pub(crate) recordings: PathBuf,
    /// Judge as of this date (YYYY-MM-DD).
    #[arg(long, value_parser = parse_date, env = "WIRESHAPE_AS_OF")]
    pub(crate) as_of: Option<String>,
    /// Fail the first TIMES requests on purpose (no TIMES: every request): rate-limit,
    /// server-error, slow-body, malformed-json or drop-connection.
    #[arg(long, value_name = "KIND[:TIMES]", value_parser = parse_fault, env = "WIRESHAPE_FAULT")]
    pub(crate) fault: Option<crate::mock::Fault>,
    /// The fault's delay: how long slow-body stalls, the Retry-After of rate-limit.
    #[arg(
        long,
        value_name = "SECS",
        default_value = "1",
        value_parser = parse_seconds,
        env = "WIRESHAPE_FAULT_DELAY"
    )]
    pub(crate) fault_delay: std::time::Duration,
}

/// `--fault`: `KIND[:TIMES]`.
pub(crate) fn parse_fault(s: &str) -> Result<crate::mock::Fault, String> {
    s.parse()
}

#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// Lane id, or `all`.
    #[arg(long, default_value = "all", value_parser = parse_lane_choice, env = "WIRESHAPE_LANE")]
    pub(crate) lane: LaneChoice,
    /// The pipeline whose fix is shown: v0, v1, verbatim, `cmd:<command line>` or a config name.
    #[arg(long, default_value = "v1", value_parser = parse_pipeline, env = "WIRESHAPE_PIPELINE")]
    pub(crate) pipeline: PipelineArg,
    /// Output format: `text` or `json` (stable).
    #[arg(
        long = "output-format",
        value_name = "FORMAT",
        value_enum,
        default_value_t = OutputFormat::Text,
        env = "WIRESHAPE_OUTPUT_FORMAT"
    )]
    pub(crate) output_format: OutputFormat,
    /// Judge as of this date (YYYY-MM-DD): rules that changed use their rule of that day.
    #[arg(long, value_parser = parse_date, env = "WIRESHAPE_AS_OF")]
    pub(crate) as_of: Option<String>,
    /// Recordings directory (evidence).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "recordings",
        env = "WIRESHAPE_RECORDINGS"
    )]
    pub(crate) recordings: PathBuf,
    /// Force the catalog format instead of detecting it.
    #[arg(long, value_parser = parse_format, env = "WIRESHAPE_FORMAT")]
    pub(crate) format: Option<Format>,
    #[command(flatten)]
    pub(crate) config: ConfigArg,
    /// Tools file, or `-` for standard input.
    pub(crate) file: PathBuf,
}

/// The probe constructs and lanes `probe` and `matrix` take.
#[derive(Debug, Args)]
pub(crate) struct ProbeSet {
    /// Lanes (comma-separated; default: every lane).
    #[arg(long, value_delimiter = ',', value_parser = parse_lane, env = "WIRESHAPE_LANES")]
    pub(crate) lanes: Vec<Lane>,
    /// The constructs directory.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "corpus/probes",
        env = "WIRESHAPE_PROBES"
    )]
    pub(crate) probes: PathBuf,
}

#[derive(Debug, Args)]
pub(crate) struct ProbeArgs {
    /// Send the requests (also needs WIRESHAPE_LIVE=1 and each lane's key in the environment); without it, print the plan and send nothing.
    #[arg(long)]
    pub(crate) live: bool,
    #[command(flatten)]
    pub(crate) set: ProbeSet,
    /// Construct ids or globs (comma-separated; default: every construct).
    #[arg(long, value_delimiter = ',', env = "WIRESHAPE_CONSTRUCTS")]
    pub(crate) constructs: Vec<String>,
    /// Where answers are recorded (`<DIR>/<provider>/<id>.json`; never replaces a file).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "recordings",
        env = "WIRESHAPE_RECORDINGS"
    )]
    pub(crate) recordings: PathBuf,
    /// With --live: the report folder (probe.json, summary.md).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "reports/probe",
        env = "WIRESHAPE_OUTPUT"
    )]
    pub(crate) output: PathBuf,
    /// Attempts the whole run may make, retries included.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 40,
        env = "WIRESHAPE_MAX_REQUESTS"
    )]
    pub(crate) max_requests: usize,
    /// Requests in flight at once.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64), env = "WIRESHAPE_PROBE_CONCURRENCY")]
    pub(crate) concurrency: u16,
    /// One attempt's time limit in seconds.
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = parse_seconds, env = "WIRESHAPE_REQUEST_TIMEOUT")]
    pub(crate) timeout: std::time::Duration,
    /// Retries after a 429, a 5xx or a dropped connection (waits honour retry-after).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=10), env = "WIRESHAPE_RETRIES")]
    pub(crate) retries: u32,
    /// The first retry's wait in seconds (doubling after), unless retry-after says otherwise.
    #[arg(long, value_name = "SECS", default_value = "1", value_parser = parse_seconds, env = "WIRESHAPE_BACKOFF")]
    pub(crate) backoff: std::time::Duration,
    /// The observation date written into recordings (default: today, UTC).
    #[arg(long, value_parser = parse_date, env = "WIRESHAPE_PROBE_DATE")]
    pub(crate) date: Option<String>,
    /// Output format of the plan and the results: `text` or `json`.
    #[arg(
        long = "output-format",
        value_name = "FORMAT",
        value_enum,
        default_value_t = OutputFormat::Text,
        env = "WIRESHAPE_OUTPUT_FORMAT"
    )]
    pub(crate) output_format: OutputFormat,
}

#[derive(Debug, Args)]
pub(crate) struct MatrixArgs {
    #[command(flatten)]
    pub(crate) set: ProbeSet,
    /// Recordings directory.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "recordings",
        env = "WIRESHAPE_RECORDINGS"
    )]
    pub(crate) recordings: PathBuf,
    /// Also write matrix.md, matrix.json and index.html into DIR.
    #[arg(long, value_name = "DIR", env = "WIRESHAPE_OUTPUT")]
    pub(crate) output: Option<PathBuf>,
    /// Judge rules without a probe as of this date (default: the rules' newest date).
    #[arg(long, value_parser = parse_date, env = "WIRESHAPE_AS_OF")]
    pub(crate) as_of: Option<String>,
    /// What the terminal shows: `text` (the markdown table) or `json`.
    #[arg(
        long = "output-format",
        value_name = "FORMAT",
        value_enum,
        default_value_t = OutputFormat::Text,
        env = "WIRESHAPE_OUTPUT_FORMAT"
    )]
    pub(crate) output_format: OutputFormat,
}

#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// Recordings directory.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "recordings",
        env = "WIRESHAPE_RECORDINGS"
    )]
    pub(crate) recordings: PathBuf,
    /// Output format: `text` or `json`.
    #[arg(
        long = "output-format",
        value_name = "FORMAT",
        value_enum,
        default_value_t = OutputFormat::Text,
        env = "WIRESHAPE_OUTPUT_FORMAT"
    )]
    pub(crate) output_format: OutputFormat,
    #[command(flatten)]
    pub(crate) config: ConfigArg,
}

#[derive(Debug, Args)]
pub(crate) struct CorpusArgs {
    /// Lanes to run (comma-separated ids; default: the lanes where v0 and v1 differ).
    #[arg(long, value_delimiter = ',', value_parser = parse_lane, env = "WIRESHAPE_LANES")]
    pub(crate) lanes: Vec<Lane>,
    /// External corpus directories (colon-separated in the environment).
    #[arg(
        long = "corpus",
        value_name = "DIR",
        env = "WIRESHAPE_CORPUS_PATH",
        value_delimiter = ':'
    )]
    pub(crate) corpus: Vec<PathBuf>,
    /// The project's own catalogs.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "corpus/catalogs",
        env = "WIRESHAPE_OWN_CORPUS"
    )]
    pub(crate) own: PathBuf,
    /// Ledger directory (`<lane>.toml` files). Default: the pipeline pair's own, `corpus/ledger`
    /// for v0 → v1, else `corpus/ledger/<OLD>--<NEW>`, where a pipeline id with characters outside
    /// `A-Za-z0-9._-` becomes `cmd-<first 12 hex digits of its sha256>`. A missing default
    /// directory is an empty ledger; a missing `--ledger` DIR is an error (`ledger accept` creates
    /// it).
    #[arg(long, value_name = "DIR", env = "WIRESHAPE_LEDGER")]
    pub(crate) ledger: Option<PathBuf>,
    /// Run only shard K of N (deterministic split of the sorted plan).
    #[arg(long, value_name = "K/N", value_parser = parse_shard, env = "WIRESHAPE_SHARD")]
    pub(crate) shard: Option<Shard>,
    /// Worker threads (default: available cores).
    #[arg(long, env = "WIRESHAPE_JOBS")]
    pub(crate) jobs: Option<usize>,
    #[command(flatten)]
    pub(crate) config: ConfigArg,
}

#[derive(Debug, Args)]
pub(crate) struct OutputArgs {
    /// Report directory (the previous one is rotated to `previous`).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "reports/latest",
        env = "WIRESHAPE_OUTPUT"
    )]
    pub(crate) output: PathBuf,
    /// No progress line.
    #[arg(long, short, env = "WIRESHAPE_QUIET")]
    pub(crate) quiet: bool,
}

#[derive(Debug, Args)]
pub(crate) struct FuzzArgs {
    /// Add N generated schemas to the plan, cases `fuzz/<seed>#0` … `fuzz/<seed>#<N-1>` on every lane.
    #[arg(long, value_name = "N", env = "WIRESHAPE_FUZZ")]
    pub(crate) fuzz: Option<usize>,
    /// The generator's seed for --fuzz (default 0): a seed names the same schemas on every machine.
    #[arg(long, value_name = "S", requires = "fuzz", env = "WIRESHAPE_FUZZ_SEED")]
    pub(crate) seed: Option<u64>,
}

impl FuzzArgs {
    pub(crate) fn spec(&self) -> Option<FuzzSpec> {
        self.fuzz.filter(|&n| n > 0).map(|count| FuzzSpec {
            count,
            seed: self.seed.unwrap_or(FuzzSpec::DEFAULT_SEED),
        })
    }
}

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// The old pipeline: v0, v1, verbatim, `cmd:<command line>` or a config name.
    #[arg(long, default_value = "v0", value_parser = parse_pipeline, env = "WIRESHAPE_OLD")]
    pub(crate) old: PipelineArg,
    /// The new pipeline: v0, v1, verbatim, `cmd:<command line>` or a config name.
    #[arg(long, default_value = "v1", value_parser = parse_pipeline, env = "WIRESHAPE_NEW")]
    pub(crate) new: PipelineArg,
    #[command(flatten)]
    pub(crate) corpus: CorpusArgs,
    #[command(flatten)]
    pub(crate) fuzz: FuzzArgs,
    #[command(flatten)]
    pub(crate) out: OutputArgs,
}

#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    /// The old pipeline: v0, v1, verbatim, `cmd:<command line>` or a config name.
    #[arg(long, default_value = "v0", value_parser = parse_pipeline, env = "WIRESHAPE_OLD")]
    pub(crate) old: PipelineArg,
    /// The new pipeline: v0, v1, verbatim, `cmd:<command line>` or a config name.
    #[arg(long, default_value = "v1", value_parser = parse_pipeline, env = "WIRESHAPE_NEW")]
    pub(crate) new: PipelineArg,
    #[command(flatten)]
    pub(crate) corpus: CorpusArgs,
    #[command(flatten)]
    pub(crate) fuzz: FuzzArgs,
    #[command(flatten)]
    pub(crate) out: OutputArgs,
}

#[derive(Debug, Args)]
pub(crate) struct CompareArgs {
    /// The pipelines, comma-separated, in the order of their rows: built-in (`v0`, `v1`,
    /// `verbatim`), config names, or `cmd:<command line>` without a comma (name one that has
    /// commas in the config).
    #[arg(long, value_name = "P,Q,…", env = "WIRESHAPE_PIPELINES")]
    pub(crate) pipelines: String,
    #[command(flatten)]
    pub(crate) corpus: CorpusArgs,
    #[command(flatten)]
    pub(crate) fuzz: FuzzArgs,
    /// Report directory (the previous one is rotated to `DIR.previous`).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "reports/compare",
        env = "WIRESHAPE_OUTPUT"
    )]
    pub(crate) output: PathBuf,
    /// No progress line and no table (the closing line still names the report).
    #[arg(long, short, env = "WIRESHAPE_QUIET")]
    pub(crate) quiet: bool,
}

#[derive(Debug, Subcommand)]
pub(crate) enum LedgerCommand {
    /// Write ledger entries for the current unexpected divergences.
    Accept(AcceptArgs),
}

#[derive(Debug, Args)]
pub(crate) struct AcceptArgs {
    /// Why these divergences are intended (required).
    #[arg(long)]
    pub(crate) reason: String,
    /// Short label for the class of change.
    #[arg(long, default_value = "accepted")]
    pub(crate) class: String,
    /// Only cases matching this glob.
    #[arg(long, value_name = "GLOB")]
    pub(crate) cases: Option<String>,
    /// Write one entry per lane with this case glob and the union of the
    /// tags seen, instead of one pinned entry per case.
    #[arg(long, value_name = "GLOB")]
    pub(crate) glob: Option<String>,
    /// The old pipeline: v0, v1, verbatim, `cmd:<command line>` or a config name.
    #[arg(long, default_value = "v0", value_parser = parse_pipeline, env = "WIRESHAPE_OLD")]
    pub(crate) old: PipelineArg,
    /// The new pipeline: v0, v1, verbatim, `cmd:<command line>` or a config name.
    #[arg(long, default_value = "v1", value_parser = parse_pipeline, env = "WIRESHAPE_NEW")]
    pub(crate) new: PipelineArg,
    #[command(flatten)]
    pub(crate) corpus: CorpusArgs,
}

#[derive(Debug, Subcommand)]
pub(crate) enum ReportCommand {
    /// Merge shard report directories into one report.
    Merge(MergeArgs),
}

#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// Shard report directories.
    #[arg(required = true)]
    pub(crate) dirs: Vec<PathBuf>,
    /// Where the merged report goes.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "reports/latest",
        env = "WIRESHAPE_OUTPUT"
    )]
    pub(crate) output: PathBuf,
}

#[derive(Debug, Args)]
pub(crate) struct ShapeArgs {
    /// Lane id (see `wireshape lanes`).
    #[arg(long, value_parser = parse_lane, env = "WIRESHAPE_LANE")]
    pub(crate) lane: Lane,
    /// Pipeline: v0, v1, verbatim, `cmd:<command line>` or a `[pipelines.<name>]` of the config.
    #[arg(long, default_value = "v1", value_parser = parse_pipeline, env = "WIRESHAPE_PIPELINE")]
    pub(crate) pipeline: PipelineArg,
    /// Also print each tool's outcome and degradations (to stderr).
    #[arg(long)]
    pub(crate) explain: bool,
    /// Also print each tool's schema after every pass that changed it (to stderr).
    #[arg(long)]
    pub(crate) trace: bool,
    /// Force the catalog format instead of detecting it.
    #[arg(long, value_parser = parse_format, env = "WIRESHAPE_FORMAT")]
    pub(crate) format: Option<Format>,
    #[command(flatten)]
    pub(crate) config: ConfigArg,
    /// Threads the tools are shaped on (default: available cores); the
    /// output is in file order whatever the count.
    #[arg(long, env = "WIRESHAPE_JOBS")]
    pub(crate) jobs: Option<usize>,
    /// Tools file, or `-` for standard input.
    pub(crate) file: PathBuf,
}

#[derive(Debug, Args)]
pub(crate) struct ConfigArg {
    /// Pipeline configuration (TOML): built-in pipeline settings and
    /// `[pipelines.<name>]` external pipelines; default: corpus/config.toml when it exists.
    #[arg(long, env = "WIRESHAPE_CONFIG")]
    pub(crate) config: Option<PathBuf>,
    /// Seconds an external pipeline may take to answer one request.
    #[arg(
        long,
        value_name = "SECS",
        default_value = "30",
        value_parser = parse_seconds,
        env = "WIRESHAPE_REQUEST_TIMEOUT"
    )]
    pub(crate) request_timeout: std::time::Duration,
}

/// `--request-timeout`, `--fault-delay`: a positive number of seconds.
pub(crate) fn parse_seconds(s: &str) -> Result<std::time::Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    crate::external::seconds(secs)
}

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// Corpus directories (default: corpus/catalogs, then WIRESHAPE_CORPUS_PATH).
    #[arg(long = "corpus", value_name = "DIR")]
    pub(crate) corpus: Vec<PathBuf>,
    /// Machine-readable output.
    #[arg(long)]
    pub(crate) json: bool,
}

pub(crate) const DEFAULT_CONFIG: &str = "corpus/config.toml";
pub(crate) const DEFAULT_CORPUS: &str = "corpus/catalogs";

impl ConfigArg {
    /// The config file in use: `--config`, else `corpus/config.toml` when it exists.
    pub(crate) fn path(&self) -> Option<&Path> {
        match &self.config {
            Some(p) => Some(p),
            None if Path::new(DEFAULT_CONFIG).is_file() => Some(Path::new(DEFAULT_CONFIG)),
            None => None,
        }
    }

    pub(crate) fn load(&self) -> Result<PipelineConfig> {
        match self.path() {
            Some(p) => Ok(PipelineConfig::load(p)?),
            None => Ok(PipelineConfig::default()),
        }
    }
}
