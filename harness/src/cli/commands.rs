//! Each verb: from parsed arguments to the library's calls, and the exit
//! status.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::Result;
use wireshape::generate::FuzzSpec;
use wireshape::{
    CaseOutcome, Class, DiffOptions, ExitStatus, Format, Lane, LedgerEntry, Outcome, Pipeline,
    Profile, RunMeta, RunReport, Shaped, load_catalog, load_catalog_bytes, scan_corpus,
};

use super::args::{
    AcceptArgs, CheckArgs, Cli, Command, CorpusArgs, DEFAULT_CORPUS, LedgerCommand, ListArgs,
    MergeArgs, MetamorphicArgs, MockProviderArgs, MutantsArgs, OutputArgs, OutputFormat,
    ReplayArgs, ReportCommand, ShapeArgs,
};
use crate::console;

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

pub(super) fn shape(a: &ShapeArgs) -> Result<ExitStatus> {
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

pub(super) fn list(a: &ListArgs) -> Result<ExitStatus> {
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

pub(super) struct Prepared {
    old: wireshape::BuiltinPipeline,
    new: wireshape::BuiltinPipeline,
    lanes: Vec<Lane>,
    shard: Option<(usize, usize)>,
}

pub(super) fn prepare_pipelines(old: &str, new: &str, c: &CorpusArgs) -> Result<Prepared> {
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

pub(super) fn options<'a>(
    p: &'a Prepared,
    c: &CorpusArgs,
    fuzz: Option<FuzzSpec>,
) -> DiffOptions<'a> {
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

pub(super) fn diff_run(
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
        started_at: wireshape::date::utc_timestamp(started),
        duration_ms: u64::try_from(clock.elapsed().as_millis()).unwrap_or(u64::MAX),
        command: std::env::args().skip(1).collect(),
        old: report.old.clone(),
        new: report.new.clone(),
        lanes: p.lanes.clone(),
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

pub(super) fn accept(a: &AcceptArgs) -> Result<ExitStatus> {
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
        let entries = by_lane.entry(o.lane.id()).or_default();
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
pub(super) fn append_to_ledger(path: &Path, entries: &[LedgerEntry]) -> Result<()> {
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

pub(super) fn entry(
    a: &AcceptArgs,
    case: String,
    tags: Vec<String>,
    pin: Option<String>,
) -> LedgerEntry {
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

pub(super) fn merge(a: &MergeArgs) -> Result<ExitStatus> {
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
pub(super) fn read_stdin() -> Result<Vec<u8>, wireshape::LoadError> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|source| wireshape::LoadError::Io {
            path: PathBuf::from("<stdin>"),
            source,
        })?;
    Ok(bytes)
}

pub(super) fn read_tools(file: &Path, format: Option<&str>) -> Result<wireshape::Catalog> {
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

pub(super) fn check(a: &CheckArgs) -> Result<ExitStatus> {
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

pub(super) fn replay(a: &ReplayArgs) -> Result<ExitStatus> {
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

pub(super) fn mock_provider(a: &MockProviderArgs) -> Result<ExitStatus> {
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

pub(super) fn parse_lanes(ids: &[String], default: &[Lane]) -> Result<Vec<Lane>> {
    if ids.is_empty() {
        return Ok(default.to_vec());
    }
    Ok(ids
        .iter()
        .map(|l| Lane::parse(l))
        .collect::<Result<Vec<_>, _>>()?)
}

pub(super) fn mutants(a: &MutantsArgs) -> Result<ExitStatus> {
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
        "started_at": wireshape::date::utc_timestamp(started),
        "duration_ms": u64::try_from(clock.elapsed().as_millis()).unwrap_or(u64::MAX),
        "command": std::env::args().skip(1).collect::<Vec<_>>(),
        "pipeline": profile.id(),
    });
    let dir = writer.finish(&report, &run)?;
    console::mutants_summary(&report, &dir, clock.elapsed());
    Ok(report.exit_status())
}

pub(super) fn metamorphic(a: &MetamorphicArgs) -> Result<ExitStatus> {
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
