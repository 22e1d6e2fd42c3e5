//! The command line (clap). Parses arguments into the library's types and
//! dispatches; every flag has a `WIRESHAPE_*` environment twin. No clap type
//! leaves this module.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::{Args, Parser, Subcommand, ValueEnum};
use wireshape::generate::FuzzSpec;
use wireshape::{
    CaseOutcome, Class, DiffOptions, ExitStatus, Format, Lane, LedgerEntry, Outcome, Pipeline,
    PipelineConfig, Profile, RunMeta, RunReport, Shaped, load_catalog, load_catalog_bytes,
    scan_corpus,
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
    /// The nightly job: v0 → v1 on every lane over the corpus, invariants, ledger, report.
    Run(RunArgs),
    /// Compare two pipelines on every lane over the corpus (like `run`, any pair).
    Diff(DiffArgs),
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
}

/// `--output-format`: checked by clap, so a bad value is refused before any work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum OutputFormat {
    Text,
    Json,
}

/// `--as-of`: a real calendar date `YYYY-MM-DD` (checked by clap, before any work).
fn parse_date(s: &str) -> Result<String, wireshape::UsageError> {
    let bad = || wireshape::UsageError::BadDate(s.to_owned());
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return Err(bad());
    }
    let num = |from: usize, to: usize| -> Option<u32> {
        let part = &s[from..to];
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())
            .flatten()
    };
    let (Some(year), Some(month), Some(day)) = (num(0, 4), num(5, 7), num(8, 10)) else {
        return Err(bad());
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 0,
    };
    if day == 0 || day > days {
        return Err(bad());
    }
    Ok(s.to_owned())
}

#[derive(Debug, Args)]
struct MutantsArgs {
    /// List the mutants instead of running them.
    #[arg(long)]
    list: bool,
    /// With --list: machine-readable output.
    #[arg(long, requires = "list")]
    json: bool,
    /// The pipeline to mutate (built-in profiles; only v1 has evidence).
    #[arg(long, default_value = "v1", env = "WIRESHAPE_PIPELINE")]
    pipeline: String,
    #[command(flatten)]
    corpus: CorpusArgs,
    /// Output folder (mutants.json, outcomes.json, caught.txt, missed.txt, …).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "reports/mutants",
        env = "WIRESHAPE_OUTPUT"
    )]
    output: PathBuf,
    /// Recordings directory (replay evidence).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "recordings",
        env = "WIRESHAPE_RECORDINGS"
    )]
    recordings: PathBuf,
    /// Pass and pipeline example inputs (`<pass>.json` files; an empty directory: no examples).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "corpus/pass-examples",
        env = "WIRESHAPE_EXAMPLES"
    )]
    examples: PathBuf,
    /// The examples' accepted outputs: insta snapshots `pass-examples@<file>.snap` (`cargo insta review`).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "harness/src/snapshots",
        env = "WIRESHAPE_EXAMPLE_SNAPSHOTS"
    )]
    example_snapshots: PathBuf,
    /// Mutants equivalent by construction, with reasons.
    #[arg(
        long,
        value_name = "FILE",
        default_value = "corpus/mutants-equivalent.toml",
        env = "WIRESHAPE_EQUIVALENT"
    )]
    equivalent: PathBuf,
    /// Per-mutant time budget in seconds (checked between cases).
    #[arg(long, default_value_t = 600, env = "WIRESHAPE_MUTANT_TIMEOUT")]
    timeout: u64,
}

#[derive(Debug, Args)]
struct MetamorphicArgs {
    /// The pipeline under test.
    #[arg(long, default_value = "v1", env = "WIRESHAPE_PIPELINE")]
    pipeline: String,
    /// Lanes (comma-separated; default: every lane).
    #[arg(long, value_delimiter = ',', env = "WIRESHAPE_LANES")]
    lanes: Vec<String>,
    /// The clean tools come from these catalogs.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "corpus/catalogs",
        env = "WIRESHAPE_OWN_CORPUS"
    )]
    own: PathBuf,
    /// Recordings directory (where the constructs come from).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "recordings",
        env = "WIRESHAPE_RECORDINGS"
    )]
    recordings: PathBuf,
    /// Output format: `text` or `json`.
    #[arg(
        long = "output-format",
        value_name = "FORMAT",
        value_enum,
        default_value_t = OutputFormat::Text,
        env = "WIRESHAPE_OUTPUT_FORMAT"
    )]
    output_format: OutputFormat,
    #[command(flatten)]
    config: ConfigArg,
}

#[derive(Debug, Args)]
struct MockProviderArgs {
    /// Lane id.
    #[arg(long, env = "WIRESHAPE_LANE")]
    lane: String,
    /// Port (0: a free one, printed at start).
    #[arg(long, default_value_t = 0, env = "WIRESHAPE_PORT")]
    port: u16,
    /// Address to bind (loopback by default).
    #[arg(long, default_value = "127.0.0.1", env = "WIRESHAPE_BIND")]
    bind: String,
    /// Recordings served verbatim when a request matches one exactly.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "recordings",
        env = "WIRESHAPE_RECORDINGS"
    )]
    recordings: PathBuf,
    /// Judge as of this date (YYYY-MM-DD).
    #[arg(long, value_parser = parse_date, env = "WIRESHAPE_AS_OF")]
    as_of: Option<String>,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// Lane id, or `all`.
    #[arg(long, default_value = "all", env = "WIRESHAPE_LANE")]
    lane: String,
    /// Output format: `text` or `json` (stable).
    #[arg(
        long = "output-format",
        value_name = "FORMAT",
        value_enum,
        default_value_t = OutputFormat::Text,
        env = "WIRESHAPE_OUTPUT_FORMAT"
    )]
    output_format: OutputFormat,
    /// Judge as of this date (YYYY-MM-DD): rules that changed use their rule of that day.
    #[arg(long, value_parser = parse_date, env = "WIRESHAPE_AS_OF")]
    as_of: Option<String>,
    /// Recordings directory (evidence).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "recordings",
        env = "WIRESHAPE_RECORDINGS"
    )]
    recordings: PathBuf,
    /// Force the catalog format instead of detecting it.
    #[arg(long, env = "WIRESHAPE_FORMAT")]
    format: Option<String>,
    #[command(flatten)]
    config: ConfigArg,
    /// Tools file, or `-` for standard input.
    file: PathBuf,
}

#[derive(Debug, Args)]
struct ReplayArgs {
    /// Recordings directory.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "recordings",
        env = "WIRESHAPE_RECORDINGS"
    )]
    recordings: PathBuf,
    /// Output format: `text` or `json`.
    #[arg(
        long = "output-format",
        value_name = "FORMAT",
        value_enum,
        default_value_t = OutputFormat::Text,
        env = "WIRESHAPE_OUTPUT_FORMAT"
    )]
    output_format: OutputFormat,
    #[command(flatten)]
    config: ConfigArg,
}

#[derive(Debug, Args)]
struct CorpusArgs {
    /// Lanes to run (comma-separated ids; default: the lanes where v0 and v1 differ).
    #[arg(long, value_delimiter = ',', env = "WIRESHAPE_LANES")]
    lanes: Vec<String>,
    /// External corpus directories (colon-separated in the environment).
    #[arg(
        long = "corpus",
        value_name = "DIR",
        env = "WIRESHAPE_CORPUS_PATH",
        value_delimiter = ':'
    )]
    corpus: Vec<PathBuf>,
    /// The project's own catalogs.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "corpus/catalogs",
        env = "WIRESHAPE_OWN_CORPUS"
    )]
    own: PathBuf,
    /// Ledger directory (`<lane>.toml` files).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "corpus/ledger",
        env = "WIRESHAPE_LEDGER"
    )]
    ledger: PathBuf,
    /// Run only shard K of N (deterministic split of the sorted plan).
    #[arg(long, value_name = "K/N", env = "WIRESHAPE_SHARD")]
    shard: Option<String>,
    /// Worker threads (default: available cores).
    #[arg(long, env = "WIRESHAPE_JOBS")]
    jobs: Option<usize>,
    #[command(flatten)]
    config: ConfigArg,
}

#[derive(Debug, Args)]
struct OutputArgs {
    /// Report directory (the previous one is rotated to `previous`).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "reports/latest",
        env = "WIRESHAPE_OUTPUT"
    )]
    output: PathBuf,
    /// No progress line.
    #[arg(long, short, env = "WIRESHAPE_QUIET")]
    quiet: bool,
}

#[derive(Debug, Args)]
struct FuzzArgs {
    /// Add N generated schemas to the plan, cases `fuzz/<seed>#0` … `fuzz/<seed>#<N-1>` on every lane.
    #[arg(long, value_name = "N", env = "WIRESHAPE_FUZZ")]
    fuzz: Option<usize>,
    /// The generator's seed for --fuzz (default 0): a seed names the same schemas on every machine.
    #[arg(long, value_name = "S", requires = "fuzz", env = "WIRESHAPE_FUZZ_SEED")]
    seed: Option<u64>,
}

impl FuzzArgs {
    fn spec(&self) -> Option<FuzzSpec> {
        self.fuzz.filter(|&n| n > 0).map(|count| FuzzSpec {
            count,
            seed: self.seed.unwrap_or(FuzzSpec::DEFAULT_SEED),
        })
    }
}

#[derive(Debug, Args)]
struct RunArgs {
    #[command(flatten)]
    corpus: CorpusArgs,
    #[command(flatten)]
    fuzz: FuzzArgs,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
struct DiffArgs {
    /// The old pipeline.
    #[arg(long, default_value = "v0", env = "WIRESHAPE_OLD")]
    old: String,
    /// The new pipeline.
    #[arg(long, default_value = "v1", env = "WIRESHAPE_NEW")]
    new: String,
    #[command(flatten)]
    corpus: CorpusArgs,
    #[command(flatten)]
    fuzz: FuzzArgs,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Subcommand)]
enum LedgerCommand {
    /// Write ledger entries for the current unexpected divergences.
    Accept(AcceptArgs),
}

#[derive(Debug, Args)]
struct AcceptArgs {
    /// Why these divergences are intended (required).
    #[arg(long)]
    reason: String,
    /// Short label for the class of change.
    #[arg(long, default_value = "accepted")]
    class: String,
    /// Only cases matching this glob.
    #[arg(long, value_name = "GLOB")]
    cases: Option<String>,
    /// Write one entry per lane with this case glob and the union of the
    /// tags seen, instead of one pinned entry per case.
    #[arg(long, value_name = "GLOB")]
    glob: Option<String>,
    /// The old pipeline.
    #[arg(long, default_value = "v0", env = "WIRESHAPE_OLD")]
    old: String,
    /// The new pipeline.
    #[arg(long, default_value = "v1", env = "WIRESHAPE_NEW")]
    new: String,
    #[command(flatten)]
    corpus: CorpusArgs,
}

#[derive(Debug, Subcommand)]
enum ReportCommand {
    /// Merge shard report directories into one report.
    Merge(MergeArgs),
}

#[derive(Debug, Args)]
struct MergeArgs {
    /// Shard report directories.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Where the merged report goes.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "reports/latest",
        env = "WIRESHAPE_OUTPUT"
    )]
    output: PathBuf,
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
    /// Also print each tool's schema after every pass that changed it (to stderr).
    #[arg(long)]
    trace: bool,
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

/// The exit status of an error that ended a command: the first of the
/// library's typed errors in its chain decides (each maps its own variants
/// explicitly); anything else (writing to stdout, a serializer) is internal.
pub(crate) fn exit_status_of(err: &anyhow::Error) -> ExitStatus {
    err.chain()
        .find_map(|e| {
            if let Some(e) = e.downcast_ref::<wireshape::LoadError>() {
                Some(e.exit_status())
            } else if let Some(e) = e.downcast_ref::<wireshape::UsageError>() {
                Some(e.exit_status())
            } else if let Some(e) = e.downcast_ref::<wireshape::ReportError>() {
                Some(e.exit_status())
            } else {
                e.downcast_ref::<wireshape::OutputError>()
                    .map(wireshape::OutputError::exit_status)
            }
        })
        .unwrap_or(ExitStatus::Internal)
}

/// The one-line message for an error: each cause once, joined with `: `.
/// A cause whose text its parent already ends with (an error that prints
/// its source, as `path: cannot read: <os error>` does) is not repeated.
pub(crate) fn message_of(err: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if out.is_empty() {
            out = text;
        } else if !out.ends_with(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
    }
    out
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
            Command::Run(a) => diff_run("v0", "v1", &a.corpus, a.fuzz.spec(), &a.out),
            Command::Diff(a) => diff_run(&a.old, &a.new, &a.corpus, a.fuzz.spec(), &a.out),
            Command::Ledger(LedgerCommand::Accept(a)) => accept(&a),
            Command::Report(ReportCommand::Merge(a)) => merge(&a),
            Command::Check(a) => check(&a),
            Command::Replay(a) => replay(&a),
            Command::MockProvider(a) => mock_provider(&a),
            Command::Mutants(a) => mutants(&a),
            Command::Metamorphic(a) => metamorphic(&a),
        }
    }
}

fn shape(a: &ShapeArgs) -> Result<ExitStatus> {
    let lane = Lane::parse(&a.lane)?;
    let profile = Profile::parse(&a.pipeline)?;
    let format = a.format.as_deref().map(Format::parse).transpose()?;
    let config = a.config.load()?;
    let catalog = if a.file.as_os_str() == "-" {
        load_catalog_bytes("stdin", Path::new("<stdin>"), &read_stdin()?, format)?
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
    if a.trace {
        for t in &catalog.tools {
            console::trace(&t.name, &t.input_schema, &pipeline.trace(lane, t));
        }
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

struct Prepared {
    old: wireshape::BuiltinPipeline,
    new: wireshape::BuiltinPipeline,
    lanes: Vec<Lane>,
    shard: Option<(usize, usize)>,
}

fn prepare_pipelines(old: &str, new: &str, c: &CorpusArgs) -> Result<Prepared> {
    let config = c.config.load()?;
    let old = Profile::parse(old)?.with_config(config.clone());
    let new = Profile::parse(new)?.with_config(config);
    let lanes = if c.lanes.is_empty() {
        Lane::DIFFERENTIAL.to_vec()
    } else {
        c.lanes
            .iter()
            .map(|l| Lane::parse(l))
            .collect::<Result<Vec<_>, _>>()?
    };
    let shard = match &c.shard {
        None => None,
        Some(s) => Some(
            wireshape::parse_shard(s).ok_or_else(|| wireshape::UsageError::BadShard(s.clone()))?,
        ),
    };
    Ok(Prepared {
        old,
        new,
        lanes,
        shard,
    })
}

fn options<'a>(p: &'a Prepared, c: &CorpusArgs, fuzz: Option<FuzzSpec>) -> DiffOptions<'a> {
    let jobs = c
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    DiffOptions {
        old: &p.old,
        new: &p.new,
        lanes: p.lanes.clone(),
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
        ledger_dir: Some(c.ledger.clone()),
        fuzz,
        shard: p.shard,
        jobs,
    }
}

fn diff_run(
    old: &str,
    new: &str,
    c: &CorpusArgs,
    fuzz: Option<FuzzSpec>,
    out: &OutputArgs,
) -> Result<ExitStatus> {
    let started = std::time::SystemTime::now();
    let clock = std::time::Instant::now();
    let p = prepare_pipelines(old, new, c)?;
    let opts = options(&p, c, fuzz);
    let inputs = wireshape::prepare(&opts)?;
    let mut writer = wireshape::ReportWriter::create(
        &out.output,
        &inputs
            .cases
            .iter()
            .map(|c| c.plan.clone())
            .collect::<Vec<_>>(),
    )?;
    let total = inputs.cases.len();
    let mut progress = console::Progress::new(total, !out.quiet);
    let mut last_write = std::time::Instant::now();
    let mut write_error = None;
    // outcomes.json is rewritten as results arrive, at most every 10 s (it
    // holds every outcome so far: rewriting it more often dominates a run).
    let report = wireshape::execute(&opts, &inputs, &mut |so_far| {
        progress.tick(so_far.len());
        if last_write.elapsed() > std::time::Duration::from_secs(10) {
            if let Err(e) = writer.progress(so_far) {
                write_error.get_or_insert(e);
            }
            last_write = std::time::Instant::now();
        }
    });
    progress.finish();
    if let Some(e) = write_error {
        return Err(e.into());
    }
    let meta = RunMeta {
        wireshape_version: env!("CARGO_PKG_VERSION").to_owned(),
        started_at: console::rfc3339(started),
        duration_ms: u64::try_from(clock.elapsed().as_millis()).unwrap_or(u64::MAX),
        command: std::env::args().skip(1).collect(),
        old: report.old.clone(),
        new: report.new.clone(),
        lanes: p.lanes.iter().map(|l| l.id().to_owned()).collect(),
        corpus: opts
            .own_corpus
            .iter()
            .chain(&opts.external_corpus)
            .map(|d| d.display().to_string())
            .collect(),
        shard: c.shard.clone(),
        fuzz,
    };
    let dir = writer.finish(&report, &meta)?;
    console::summary(&report, &dir, clock.elapsed());
    Ok(report.exit_status())
}

fn accept(a: &AcceptArgs) -> Result<ExitStatus> {
    let p = prepare_pipelines(&a.old, &a.new, &a.corpus)?;
    let opts = options(&p, &a.corpus, None);
    let inputs = wireshape::prepare(&opts)?;
    let report: RunReport = wireshape::execute(&opts, &inputs, &mut |_| {});
    let selected: Vec<&CaseOutcome> = report
        .outcomes
        .iter()
        .filter(|o| o.class == Class::Unexpected)
        .filter(|o| {
            a.cases
                .as_deref()
                .is_none_or(|g| wireshape::glob_match(g, &o.case))
        })
        .collect();
    let mut by_lane: std::collections::BTreeMap<&str, Vec<LedgerEntry>> =
        std::collections::BTreeMap::new();
    for o in &selected {
        let entries = by_lane.entry(o.lane.as_str()).or_default();
        match &a.glob {
            Some(g) => {
                if let Some(e) = entries.first_mut() {
                    for t in &o.tags {
                        if !e.tags.contains(t) {
                            e.tags.push(t.clone());
                        }
                    }
                    e.tags.sort();
                } else {
                    entries.push(entry(a, g.clone(), o.tags.clone(), None));
                }
            }
            None => entries.push(entry(
                a,
                o.case.clone(),
                o.tags.clone(),
                Some(o.new.sha256.clone()),
            )),
        }
    }
    std::fs::create_dir_all(&a.corpus.ledger).map_err(|source| wireshape::OutputError::Io {
        path: a.corpus.ledger.clone(),
        op: "create directory",
        source,
    })?;
    for (lane, entries) in &by_lane {
        let path = a.corpus.ledger.join(format!("{lane}.toml"));
        append_to_ledger(&path, entries)?;
        console::line(&format!(
            "{}: {} entries written",
            path.display(),
            entries.len()
        ));
    }
    if by_lane.is_empty() {
        console::line("no unexpected divergences: nothing to accept");
    }
    Ok(ExitStatus::Clean)
}

/// Append `entries` to the ledger file `path` (created when missing). The
/// existing text is read first: a file that cannot be read as text is an
/// input error (exit 2), never taken for an empty ledger. The new text
/// replaces the file atomically (temp file, then rename).
fn append_to_ledger(path: &Path, entries: &[LedgerEntry]) -> Result<()> {
    let mut text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(source) => {
            return Err(wireshape::LoadError::Io {
                path: path.to_owned(),
                source,
            }
            .into());
        }
    };
    if !text.is_empty() && !text.ends_with("\n\n") {
        text.push('\n');
    }
    text.push_str(&wireshape::ledger_to_toml(entries));
    wireshape::replace_file(path, text.as_bytes())?;
    Ok(())
}

fn entry(a: &AcceptArgs, case: String, tags: Vec<String>, pin: Option<String>) -> LedgerEntry {
    LedgerEntry {
        case,
        class: a.class.clone(),
        reason: a.reason.clone(),
        evidence: Vec::new(),
        tags,
        when: Vec::new(),
        external: false,
        new_sha256: pin,
    }
}

fn merge(a: &MergeArgs) -> Result<ExitStatus> {
    let clock = std::time::Instant::now();
    let mut reports = Vec::new();
    let mut metas = Vec::new();
    for d in &a.dirs {
        let (r, m) = wireshape::read_report(d)?;
        reports.push(r);
        metas.push(m);
    }
    let report = wireshape::merge_reports(reports);
    let mut meta = metas.into_iter().next().unwrap_or_default();
    meta.shard = None;
    meta.command = std::env::args().skip(1).collect();
    let dir = wireshape::write_report(&a.output, &report, &meta)?;
    console::summary(&report, &dir, clock.elapsed());
    Ok(report.exit_status())
}

/// Standard input, read to the end (a failure is an input error, exit 2).
fn read_stdin() -> Result<Vec<u8>, wireshape::LoadError> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|source| wireshape::LoadError::Io {
            path: PathBuf::from("<stdin>"),
            source,
        })?;
    Ok(bytes)
}

fn read_tools(file: &Path, format: Option<&str>) -> Result<wireshape::Catalog> {
    let format = format.map(Format::parse).transpose()?;
    if file.as_os_str() == "-" {
        Ok(load_catalog_bytes(
            "stdin",
            Path::new("<stdin>"),
            &read_stdin()?,
            format,
        )?)
    } else {
        Ok(load_catalog(file, format)?)
    }
}

fn check(a: &CheckArgs) -> Result<ExitStatus> {
    let lanes = if a.lane == "all" {
        Lane::ALL.to_vec()
    } else {
        vec![Lane::parse(&a.lane)?]
    };
    let catalog = read_tools(&a.file, a.format.as_deref())?;
    let recordings = if a.recordings.is_dir() {
        wireshape::load_recordings(&a.recordings)?
    } else {
        Vec::new()
    };
    let as_of = a.as_of.as_deref().unwrap_or(wireshape::DEFAULT_AS_OF);
    let v1 = Profile::V1.with_config(a.config.load()?);
    let findings = console::check_findings(&catalog, &lanes, &recordings, as_of, &v1);
    match a.output_format {
        OutputFormat::Json => console::check_json(&catalog, &lanes, as_of, &findings)?,
        OutputFormat::Text => console::check_text(&catalog, &lanes, as_of, &findings),
    }
    Ok(if findings.is_empty() {
        ExitStatus::Clean
    } else {
        ExitStatus::Failures
    })
}

fn replay(a: &ReplayArgs) -> Result<ExitStatus> {
    let recordings = wireshape::load_recordings(&a.recordings)?;
    let v1 = Profile::V1.with_config(a.config.load()?);
    let gaps = wireshape::load_known_gaps(&a.recordings.join("known-gaps.toml"))?;
    let results = console::replay_results(&recordings, &v1, &gaps);
    match a.output_format {
        OutputFormat::Json => console::json(&serde_json::to_value(&results)?)?,
        OutputFormat::Text => console::replay_text(&results),
    }
    Ok(if results.iter().any(|r| r.failed) {
        ExitStatus::Failures
    } else {
        ExitStatus::Clean
    })
}

fn mock_provider(a: &MockProviderArgs) -> Result<ExitStatus> {
    let lane = Lane::parse(&a.lane)?;
    let as_of = a.as_of.as_deref().unwrap_or(wireshape::DEFAULT_AS_OF);
    let dir = a.recordings.is_dir().then_some(a.recordings.as_path());
    let addr = format!("{}:{}", a.bind, a.port);
    // Unreadable recordings or an address that cannot be bound: the user's
    // input or choice, exit 2.
    wireshape::run_mock_provider(lane, &addr, dir, as_of, Box::new(console::line_err)).map_err(
        |e| wireshape::UsageError::CannotServe {
            lane: lane.id().to_owned(),
            addr: addr.clone(),
            message: e.to_string(),
        },
    )?;
    Ok(ExitStatus::Clean)
}

fn parse_lanes(ids: &[String], default: &[Lane]) -> Result<Vec<Lane>> {
    if ids.is_empty() {
        return Ok(default.to_vec());
    }
    Ok(ids
        .iter()
        .map(|l| Lane::parse(l))
        .collect::<Result<Vec<_>, _>>()?)
}

fn mutants(a: &MutantsArgs) -> Result<ExitStatus> {
    let started = std::time::SystemTime::now();
    let clock = std::time::Instant::now();
    let profile = Profile::parse(&a.pipeline)?;
    if profile != Profile::V1 {
        // The evidence suite is the v0 → v1 differential: only v1 has it.
        return Err(wireshape::UsageError::UnknownPipeline(format!(
            "{} (mutants run on v1)",
            a.pipeline
        ))
        .into());
    }
    let config = a.corpus.config.load()?;
    let lanes = parse_lanes(&a.corpus.lanes, Lane::ALL)?;
    let mut plan = wireshape::mutant_plan(profile, &lanes, &config);
    if let Some(s) = &a.corpus.shard {
        let (k, n) =
            wireshape::parse_shard(s).ok_or_else(|| wireshape::UsageError::BadShard(s.clone()))?;
        plan = plan
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % n == k - 1)
            .map(|(_, m)| m)
            .collect();
    }
    if a.list {
        let infos: Vec<_> = plan.iter().map(|m| &m.info).collect();
        if a.json {
            console::json(&serde_json::to_value(&infos)?)?;
        } else {
            console::mutant_list(&infos);
        }
        return Ok(ExitStatus::Clean);
    }
    // The output folder is checked (and refused if it is not a mutants
    // report) before the evidence is loaded.
    let infos: Vec<_> = plan.iter().map(|m| &m.info).collect();
    let writer = wireshape::MutantsWriter::create(&a.output, &infos)?;
    let ev = wireshape::load_evidence(
        &wireshape::EvidenceOptions {
            own_corpus: if a.corpus.own.is_dir() {
                vec![a.corpus.own.clone()]
            } else {
                Vec::new()
            },
            external_corpus: a
                .corpus
                .corpus
                .iter()
                .filter(|d| !d.as_os_str().is_empty())
                .cloned()
                .collect(),
            ledger_dir: Some(a.corpus.ledger.clone()),
            recordings_dir: a.recordings.clone(),
            examples_dir: a.examples.clone(),
            example_snapshots_dir: a.example_snapshots.clone(),
            equivalent_file: a.equivalent.clone(),
            config,
        },
        &lanes,
    )?;
    let opts = wireshape::MutantRunOptions {
        jobs: a
            .corpus
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)),
        timeout: std::time::Duration::from_secs(a.timeout),
    };
    let report = match wireshape::run_mutants(&ev, &plan, &opts, &mut |_| {}) {
        Ok(r) => r,
        Err(baseline) => {
            console::line_err(&format!("wireshape: {baseline}"));
            return Ok(ExitStatus::BaselineFailed);
        }
    };
    let run = serde_json::json!({
        "wireshape_version": env!("CARGO_PKG_VERSION"),
        "started_at": console::rfc3339(started),
        "duration_ms": u64::try_from(clock.elapsed().as_millis()).unwrap_or(u64::MAX),
        "command": std::env::args().skip(1).collect::<Vec<_>>(),
        "pipeline": profile.id(),
    });
    let dir = writer.finish(&report, &run)?;
    console::mutants_summary(&report, &dir, clock.elapsed());
    Ok(report.exit_status())
}

fn metamorphic(a: &MetamorphicArgs) -> Result<ExitStatus> {
    let pipeline = Profile::parse(&a.pipeline)?.with_config(a.config.load()?);
    let lanes = parse_lanes(&a.lanes, Lane::ALL)?;
    let tools: Vec<wireshape::Tool> = scan_corpus(std::slice::from_ref(&a.own))
        .catalogs()
        .flat_map(|c| c.tools.iter().cloned())
        .collect();
    let recordings = if a.recordings.is_dir() {
        wireshape::load_recordings(&a.recordings)?
    } else {
        Vec::new()
    };
    let rates = wireshape::run_metamorphic(&pipeline, &lanes, &tools, &recordings);
    match a.output_format {
        OutputFormat::Json => console::json(&serde_json::to_value(&rates)?)?,
        OutputFormat::Text => console::metamorphic_text(&pipeline.id(), &rates),
    }
    Ok(if rates.iter().any(|r| r.rejected() > 0) {
        ExitStatus::Failures
    } else {
        ExitStatus::Clean
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ledger_entry() -> LedgerEntry {
        LedgerEntry {
            case: "mini#slug".to_owned(),
            class: "accepted".to_owned(),
            reason: "intended".to_owned(),
            evidence: Vec::new(),
            tags: vec!["new:pattern:removed".to_owned()],
            when: Vec::new(),
            external: false,
            new_sha256: None,
        }
    }

    /// A ledger that cannot be read as text is never taken for an empty
    /// one: the error names the file, exits 2, and the bytes stay.
    #[test]
    fn appending_to_a_non_utf8_ledger_fails_and_keeps_its_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("groq.toml");
        let bytes = b"# \xff\xfe not UTF-8\n".to_vec();
        std::fs::write(&path, &bytes).unwrap();
        let err = append_to_ledger(&path, &[ledger_entry()]).unwrap_err();
        assert_eq!(
            message_of(&err),
            format!(
                "{}: cannot read: stream did not contain valid UTF-8",
                path.display()
            )
        );
        assert_eq!(exit_status_of(&err), ExitStatus::Usage);
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn appending_keeps_the_existing_entries_and_adds_the_new_ones() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("groq.toml");
        append_to_ledger(&path, &[ledger_entry()]).unwrap();
        let one = std::fs::read_to_string(&path).unwrap();
        append_to_ledger(&path, &[ledger_entry()]).unwrap();
        let two = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            two,
            format!("{one}\n{}", wireshape::ledger_to_toml(&[ledger_entry()]))
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
