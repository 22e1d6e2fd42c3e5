//! Each verb: from parsed arguments to the library's calls, and the exit
//! status.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::corpus::scan_corpus;
use crate::generate::FuzzSpec;
use crate::ledger::Entry as LedgerEntry;
use crate::outcome::RunMeta;
use crate::{
    CaseOutcome, Class, ExitStatus, Format, Lane, Outcome, Profile, RunReport, Shaped,
    load_catalog, load_catalog_bytes,
};
use anyhow::Result;

use super::args::{
    AcceptArgs, CheckArgs, Cli, Command, CompareArgs, CorpusArgs, DEFAULT_CORPUS, FuzzCmdArgs,
    LaneChoice, LedgerCommand, ListArgs, MergeArgs, MetamorphicArgs, MockProviderArgs, MutantsArgs,
    OutputArgs, OutputFormat, PipelineArg, ReplayArgs, ReportCommand, ShapeArgs, Shard,
};
use super::options::{CorpusOptions, DiffRun, Resolved, compare_pipelines, resolve};
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
            Command::List(a) => {
                list(&a);
                Ok(ExitStatus::Clean)
            }
            Command::Run(a) => diff_run(&a.old, &a.new, &a.corpus, a.fuzz.spec(), &a.out),
            Command::Diff(a) => diff_run(&a.old, &a.new, &a.corpus, a.fuzz.spec(), &a.out),
            Command::Compare(a) => compare(&a),
            Command::Ledger(LedgerCommand::Accept(a)) => accept(&a),
            Command::Report(ReportCommand::Merge(a)) => merge(&a),
            Command::Check(a) => check(&a),
            Command::Replay(a) => replay(&a),
            Command::MockProvider(a) => mock_provider(&a),
            Command::Mutants(a) => mutants(&a),
            Command::Metamorphic(a) => metamorphic(&a),
            Command::Fuzz(a) => fuzz(&a),
            Command::Probe(a) => super::probe::probe(&a),
            Command::Matrix(a) => super::probe::matrix(&a),
            Command::Corpus(super::corpus_fetch::CorpusCommand::Fetch(a)) => {
                super::corpus_fetch::run(&a)
            }
        }
    }
}

pub(super) fn shape(a: &ShapeArgs) -> Result<ExitStatus> {
    let lane = a.lane;
    let resolved = resolve(&a.pipeline, &a.config)?;
    let pipeline = resolved.as_dyn();
    if !pipeline.serves(lane) {
        return Err(crate::UsageError::NoLanes(format!(
            "{} does not serve {}",
            pipeline.id(),
            lane.id()
        ))
        .into());
    }
    // Said before any tool is shaped or printed.
    let traced_by = match (a.trace, resolved.builtin()) {
        (false, _) => None,
        (true, Some(builtin)) => Some(builtin),
        (true, None) => {
            return Err(crate::UsageError::UnknownPipeline(format!(
                "{} (--trace needs a built-in pipeline: an external one has no passes to show)",
                pipeline.id()
            ))
            .into());
        }
    };
    let mut catalog = read_tools(&a.file, a.format)?;
    // The tools are shaped on `--jobs` threads and written in file order.
    // Each input is dropped once shaped (kept for `--trace` only) and each
    // output's schema moves into its wire object: a large file is held
    // about once, not three times.
    let inputs: Vec<std::sync::Mutex<Option<crate::Tool>>> = std::mem::take(&mut catalog.tools)
        .into_iter()
        .map(|t| std::sync::Mutex::new(Some(t)))
        .collect();
    let count = inputs.len();
    let work = |i: usize| {
        crate::workers::take(&inputs[i]).map(|tool| {
            let mut s = pipeline.shape(lane, &tool);
            let w = lane.render_taking(&mut s.tool);
            // Handed back: freed on the thread that parsed it.
            (w, s, tool)
        })
    };
    // Each tool's wire object and its shaping (`--explain` reads the
    // outcome, the records and the name), by index.
    let mut done: Vec<Option<(serde_json::Value, Shaped)>> =
        std::iter::repeat_with(|| None).take(count).collect();
    let mut traced: Vec<Option<crate::Tool>> =
        std::iter::repeat_with(|| None).take(count).collect();
    let jobs = super::options::jobs(a.jobs);
    crate::workers::scoped("shape", jobs, count, &work, &mut |i, result| {
        if let Some((w, s, tool)) = result {
            done[i] = Some((w, s));
            if a.trace {
                traced[i] = Some(tool);
            }
        }
    });
    let (wire, shaped): (Vec<_>, Vec<Shaped>) = done.into_iter().flatten().unzip();
    catalog.tools = traced.into_iter().flatten().collect();
    let wire = lane.tools_array(wire);
    console::json(&wire);
    // The process ends after this command: its memory goes back to the
    // system without freeing each output value first (a tenth of a
    // second on a 40 MB file).
    std::mem::forget(wire);
    if a.explain {
        console::explain(lane, &pipeline.id(), &catalog, &shaped);
    }
    if let Some(builtin) = traced_by {
        for t in &catalog.tools {
            console::trace(&t.name, &t.input_schema, &builtin.trace(lane, t));
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

pub(super) fn list(a: &ListArgs) {
    let mut dirs = a.corpus.clone();
    if dirs.is_empty() {
        if Path::new(DEFAULT_CORPUS).is_dir() {
            dirs.push(PathBuf::from(DEFAULT_CORPUS));
        }
        dirs.extend(crate::corpus::corpus_dirs_from_env());
    }
    let scan = scan_corpus(&dirs);
    if a.json {
        console::list_json(&scan);
    } else {
        console::list_text(&scan);
    }
}

pub(super) fn diff_run(
    old: &PipelineArg,
    new: &PipelineArg,
    c: &CorpusArgs,
    fuzz: Option<FuzzSpec>,
    out: &OutputArgs,
) -> Result<ExitStatus> {
    let started = std::time::SystemTime::now();
    let clock = std::time::Instant::now();
    let p = DiffRun::new(old, new, c)?;
    p.corpus.check_ledger()?;
    let opts = p.diff_options(fuzz);
    let inputs = crate::prepare_packed(&opts)?;
    let mut writer = crate::report::ReportWriter::create(&out.output, &inputs.plan())?;
    let total = inputs.case_count();
    let mut sink = RunSink {
        spilled: crate::report::Spilled::new(&opts.old.id(), &opts.new.id()),
        progress: console::Progress::new(total, !out.quiet),
        schedule: ProgressWrites::default(),
        clock,
        writer: &mut writer,
        write_error: None,
    };
    let (report, pairs) = crate::execute_to(&opts, inputs, &mut sink);
    sink.progress.finish();
    if let Some(e) = sink.write_error {
        return Err(e.into());
    }
    let mut spilled = sink.spilled;
    spilled.set_wire_pairs(pairs);
    let meta = RunMeta {
        wireshape_version: env!("CARGO_PKG_VERSION").to_owned(),
        started_at: crate::date::utc_timestamp(started),
        duration_ms: u64::try_from(clock.elapsed().as_millis()).unwrap_or(u64::MAX),
        command: std::env::args().skip(1).collect(),
        old: report.old.clone(),
        new: report.new.clone(),
        lanes: p.corpus.lanes.clone(),
        corpus: opts
            .own_corpus
            .iter()
            .chain(&opts.external_corpus)
            .map(|d| d.display().to_string())
            .collect(),
        shard: p.corpus.shard.map(|s| s.to_string()),
        fuzz,
    };
    let dir = writer.finish_spilled(&report, &spilled, &meta)?;
    console::summary(&report, &spilled.failing(), &dir, clock.elapsed());
    Ok(report.exit_status())
}

/// Where `run` puts each outcome as it finishes: on disk ([`Spilled`]),
/// with the progress bar ticked and `outcomes.json` rewritten with the
/// outcomes so far when a [`ProgressWrites`] write is due.
///
/// [`Spilled`]: crate::report::Spilled
struct RunSink<'w> {
    spilled: crate::report::Spilled,
    progress: console::Progress,
    schedule: ProgressWrites,
    clock: std::time::Instant,
    writer: &'w mut crate::report::ReportWriter,
    write_error: Option<crate::report::ReportError>,
}

impl crate::OutcomeSink for RunSink<'_> {
    fn put(&mut self, outcome: CaseOutcome) {
        self.spilled.put(outcome);
        self.progress.tick(self.spilled.len());
        if self.schedule.due(self.clock.elapsed())
            && let Err(e) = self.writer.progress_spilled(&self.spilled)
        {
            self.write_error.get_or_insert(e);
        }
    }
}

/// When a run rewrites `outcomes.json` with the outcomes so far: 10 s in,
/// then each interval twice the one before (10, 30, 70, 150 s, …). The
/// file holds every outcome so far, so rewriting it at a fixed pace would
/// cost time quadratic in the run's length; doubling keeps all rewrites
/// together under about twice the final file's bytes.
#[derive(Debug)]
pub(super) struct ProgressWrites {
    next: std::time::Duration,
    interval: std::time::Duration,
}

impl Default for ProgressWrites {
    fn default() -> Self {
        let first = std::time::Duration::from_secs(10);
        Self {
            next: first,
            interval: first,
        }
    }
}

impl ProgressWrites {
    /// Whether to write now, `elapsed` into the run; a `true` moves the
    /// next write one doubled interval later.
    pub(super) fn due(&mut self, elapsed: std::time::Duration) -> bool {
        if elapsed < self.next {
            return false;
        }
        self.interval *= 2;
        self.next = elapsed + self.interval;
        true
    }
}

/// `wireshape compare`: every pipeline over the corpus, the report
/// directory, the table. Exit 0 whenever it ran (a comparison fails
/// nothing); 2 on a usage or input error, before any work.
pub(super) fn compare(a: &CompareArgs) -> Result<ExitStatus> {
    let started = std::time::SystemTime::now();
    let clock = std::time::Instant::now();
    let c = CorpusOptions::new(&a.corpus, Lane::ALL)?;
    let built = compare_pipelines(&a.pipelines, &a.corpus.config)?;
    let pipelines: Vec<&(dyn crate::Pipeline + Sync)> =
        built.iter().map(Resolved::as_dyn).collect();
    let fuzz = a.fuzz.spec();
    let opts = crate::CompareOptions {
        pipelines: &pipelines,
        lanes: c.lanes.clone(),
        own_corpus: c.own_corpus.clone(),
        external_corpus: c.external_corpus.clone(),
        fuzz,
        shard: c.shard.map(|s| (s.k, s.n)),
        jobs: c.jobs,
    };
    let inputs = crate::prepare_compare(&opts)?;
    let writer = crate::report::CompareWriter::create(&a.output)?;
    let mut progress: Option<console::Progress> = None;
    let compared = crate::compare(&opts, &inputs, &mut |done, total| {
        progress
            .get_or_insert_with(|| console::Progress::new(total, !a.quiet))
            .tick(done);
    });
    if let Some(p) = &progress {
        p.finish();
    }
    let report = &compared.report;
    let ms = |d: std::time::Duration| (d.as_secs_f64() * 1e6).round() / 1e3;
    let cells: Vec<serde_json::Value> = compared
        .times
        .iter()
        .map(|t| {
            serde_json::json!({
                "lane": t.lane.id(),
                "pipeline": report.pipelines[t.pipeline],
                "shape_ms": ms(t.shape),
            })
        })
        .collect();
    let mut by_pipeline = serde_json::Map::new();
    for (p, id) in report.pipelines.iter().enumerate() {
        let total = compared
            .times
            .iter()
            .filter(|t| t.pipeline == p)
            .map(|t| t.shape)
            .sum();
        by_pipeline.insert(id.clone(), ms(total).into());
    }
    let run = serde_json::json!({
        "wireshape_version": env!("CARGO_PKG_VERSION"),
        "started_at": crate::date::utc_timestamp(started),
        "duration_ms": u64::try_from(clock.elapsed().as_millis()).unwrap_or(u64::MAX),
        "command": std::env::args().skip(1).collect::<Vec<_>>(),
        "pipelines": report.pipelines,
        "lanes": report.lanes,
        "corpus": opts
            .own_corpus
            .iter()
            .chain(&opts.external_corpus)
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>(),
        "shard": report.shard,
        "fuzz": fuzz,
        "jobs": opts.jobs,
        "shape_ms_by_pipeline": by_pipeline,
        "shape_ms": cells,
    });
    let dir = writer.finish(report, &run)?;
    console::compare_summary(&compared, &dir, clock.elapsed(), !a.quiet);
    Ok(ExitStatus::Clean)
}

pub(super) fn accept(a: &AcceptArgs) -> Result<ExitStatus> {
    let p = DiffRun::new(&a.old, &a.new, &a.corpus)?;
    let opts = p.diff_options(None);
    let inputs = crate::prepare_packed(&opts)?;
    let report: RunReport = crate::execute(&opts, inputs, &mut |_| {});
    let selected: Vec<&CaseOutcome> = report
        .outcomes
        .iter()
        .filter(|o| o.class == Class::Unexpected)
        .filter(|o| {
            a.cases
                .as_deref()
                .is_none_or(|g| crate::ledger::glob_match(g, &o.case))
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
                Some(o.new.sha256.to_hex()),
            )),
        }
    }
    // The pair's ledger directory (`--ledger`, else the pair's default),
    // created when there is something to write.
    if !by_lane.is_empty() {
        std::fs::create_dir_all(&p.ledger).map_err(|source| crate::outdir::OutputError::Io {
            path: p.ledger.clone(),
            op: "create directory",
            source,
        })?;
    }
    for (lane, entries) in &by_lane {
        let path = p.ledger.join(format!("{lane}.toml"));
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
            return Err(crate::LoadError::Io {
                path: path.to_owned(),
                source,
            }
            .into());
        }
    };
    if !text.is_empty() && !text.ends_with("\n\n") {
        text.push('\n');
    }
    text.push_str(&crate::ledger::to_toml(entries));
    crate::outdir::replace_file(path, text.as_bytes())?;
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
        let (r, m) = crate::report::read_report(d)?;
        reports.push(r);
        metas.push(m);
    }
    let report = crate::outcome::merge_reports(reports);
    let mut meta = metas.into_iter().next().unwrap_or_default();
    meta.shard = None;
    meta.command = std::env::args().skip(1).collect();
    let dir = crate::report::write_report(&a.output, &report, &meta)?;
    let failing: Vec<&CaseOutcome> = report.outcomes.iter().filter(|o| o.is_failure()).collect();
    console::summary(&report, &failing, &dir, clock.elapsed());
    Ok(report.exit_status())
}

/// Standard input, read to the end (a failure is an input error, exit 2).
pub(super) fn read_stdin() -> Result<Vec<u8>, crate::LoadError> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|source| crate::LoadError::Io {
            path: PathBuf::from("<stdin>"),
            source,
        })?;
    Ok(bytes)
}

pub(super) fn read_tools(file: &Path, format: Option<Format>) -> Result<crate::Catalog> {
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
    let lanes = match a.lane {
        LaneChoice::All => Lane::ALL.to_vec(),
        LaneChoice::One(lane) => vec![lane],
    };
    let catalog = read_tools(&a.file, a.format)?;
    let recordings = if a.recordings.is_dir() {
        crate::load_recordings(&a.recordings)?
    } else {
        Vec::new()
    };
    let as_of = a.as_of.as_deref().unwrap_or(crate::DEFAULT_AS_OF);
    let fix = resolve(&a.pipeline, &a.config)?;
    let tools = catalog.tools.len();
    let findings = console::check_findings(catalog.tools, &lanes, &recordings, as_of, fix.as_dyn());
    match a.output_format {
        OutputFormat::Json => console::check_json(tools, &lanes, as_of, &findings),
        OutputFormat::Text => {
            console::check_text(tools, &lanes, as_of, &findings, &fix.as_dyn().id());
        }
    }
    Ok(if findings.is_empty() {
        ExitStatus::Clean
    } else {
        ExitStatus::Failures
    })
}

pub(super) fn replay(a: &ReplayArgs) -> Result<ExitStatus> {
    let recordings = crate::load_recordings(&a.recordings)?;
    let v1 = Profile::V1.with_config(a.config.load()?);
    let gaps = crate::replay::load_known_gaps(&a.recordings.join("known-gaps.toml"))?;
    let results = console::replay_results(&recordings, &v1, &gaps);
    match a.output_format {
        OutputFormat::Json => console::json(&serde_json::to_value(&results)?),
        OutputFormat::Text => console::replay_text(&results),
    }
    Ok(if results.iter().any(|r| r.failed) {
        ExitStatus::Failures
    } else {
        ExitStatus::Clean
    })
}

pub(super) fn mock_provider(a: &MockProviderArgs) -> Result<ExitStatus> {
    let lane = a.lane;
    let as_of = a.as_of.as_deref().unwrap_or(crate::DEFAULT_AS_OF);
    let dir = a.recordings.is_dir().then_some(a.recordings.as_path());
    let addr = format!("{}:{}", a.bind, a.port);
    // Unreadable recordings or an address that cannot be bound: the user's
    // input or choice, exit 2.
    let options = crate::mock::MockOptions {
        fault: a.fault.map(|f| f.delay(a.fault_delay)),
    };
    let log = Box::new(console::line_err);
    crate::mock::run_mock_provider(lane, &addr, dir, as_of, &options, log).map_err(|e| {
        crate::UsageError::CannotServe {
            lane: lane.id().to_owned(),
            addr: addr.clone(),
            message: e.to_string(),
        }
    })?;
    Ok(ExitStatus::Clean)
}

pub(super) fn mutants(a: &MutantsArgs) -> Result<ExitStatus> {
    let started = std::time::SystemTime::now();
    let clock = std::time::Instant::now();
    let profile = a.pipeline;
    if profile != Profile::V1 {
        // The evidence suite is the v0 → v1 differential: only v1 has it.
        return Err(crate::UsageError::UnknownPipeline(format!(
            "{} (mutants run on v1)",
            profile.id()
        ))
        .into());
    }
    let c = CorpusOptions::new(&a.corpus, Lane::ALL)?;
    c.check_ledger()?;
    let lanes = c.lanes.clone();
    let mut plan = crate::mutants::plan(profile, &lanes, &c.config);
    if let Some(Shard { k, n }) = c.shard {
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
            console::json(&serde_json::to_value(&infos)?);
        } else {
            console::mutant_list(&infos);
        }
        return Ok(ExitStatus::Clean);
    }
    // The output folder is checked (and refused if it is not a mutants
    // report) before the evidence is loaded.
    let infos: Vec<_> = plan.iter().map(|m| &m.info).collect();
    let writer = crate::mutants::MutantsWriter::create(&a.output, &infos)?;
    let ev = crate::mutants::load_evidence(
        &crate::mutants::EvidenceOptions {
            own_corpus: c.own_corpus.clone(),
            external_corpus: c.external_corpus.clone(),
            // The evidence is the v0 → v1 differential: that pair's ledger.
            ledger_dir: Some(c.ledger_dir(Profile::V0.id(), Profile::V1.id())),
            recordings_dir: a.recordings.clone(),
            examples_dir: a.examples.clone(),
            example_snapshots_dir: a.example_snapshots.clone(),
            equivalent_file: a.equivalent.clone(),
            config: c.config.clone(),
        },
        &lanes,
    )?;
    let opts = crate::mutants::RunOptions {
        jobs: c.jobs,
        timeout: std::time::Duration::from_secs(a.timeout),
    };
    let report = match crate::mutants::run(&ev, &plan, &opts, &mut |_| {}) {
        Ok(r) => r,
        Err(baseline) => {
            console::line_err(&format!("wireshape: {baseline}"));
            return Ok(ExitStatus::BaselineFailed);
        }
    };
    let run = serde_json::json!({
        "wireshape_version": env!("CARGO_PKG_VERSION"),
        "started_at": crate::date::utc_timestamp(started),
        "duration_ms": u64::try_from(clock.elapsed().as_millis()).unwrap_or(u64::MAX),
        "command": std::env::args().skip(1).collect::<Vec<_>>(),
        "pipeline": profile.id(),
    });
    let dir = writer.finish(&report, &run)?;
    console::mutants_summary(&report, &dir, clock.elapsed());
    Ok(report.exit_status())
}

pub(super) fn metamorphic(a: &MetamorphicArgs) -> Result<ExitStatus> {
    let resolved = resolve(&a.pipeline, &a.config)?;
    let pipeline = resolved.as_dyn();
    let lanes = super::options::served_lanes(&a.lanes, Lane::ALL, &[&resolved])?;
    let tools: Vec<crate::Tool> = scan_corpus(std::slice::from_ref(&a.own))
        .catalogs()
        .flat_map(|c| c.tools.iter().cloned())
        .collect();
    let recordings = if a.recordings.is_dir() {
        crate::load_recordings(&a.recordings)?
    } else {
        Vec::new()
    };
    let gaps = if a.recordings.is_dir() {
        crate::replay::load_known_gaps(&a.recordings.join("known-gaps.toml"))?
    } else {
        Vec::new()
    };
    let rates = crate::metamorphic::run(pipeline, &lanes, &tools, &recordings, &gaps);
    match a.output_format {
        OutputFormat::Json => console::json(&serde_json::to_value(&rates)?),
        OutputFormat::Text => console::metamorphic_text(&pipeline.id(), &rates),
    }
    Ok(if rates.iter().any(crate::metamorphic::RuleRate::failed) {
        ExitStatus::Failures
    } else {
        ExitStatus::Clean
    })
}

/// `wireshape fuzz`: generated inputs against one pipeline until `--count`
/// or `--time`; each failure minimized and written to `--output`. Exit 1
/// when anything failed, 0 otherwise; 2 on a usage or input error (an
/// `--output` holding other files included), before any work.
pub(super) fn fuzz(a: &FuzzCmdArgs) -> Result<ExitStatus> {
    let mut writer = crate::fuzzing::FailureWriter::create(&a.output)?;
    let resolved = resolve(&a.pipeline, &a.config)?;
    let pipeline = resolved.as_dyn();
    let lanes = super::options::served_lanes(&a.lanes, Lane::ALL, &[&resolved])?;
    let opts = crate::fuzzing::FuzzOptions {
        pipeline,
        external: resolved.builtin().is_none(),
        lanes,
        seed: a.seed,
        count: a.count.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        time: a.time(),
        shrink_calls: a.shrink_calls,
        jobs: super::options::jobs(a.jobs),
    };
    let id = pipeline.id();
    let progress = std::cell::RefCell::new(console::Progress::inputs(opts.count, !a.quiet));
    let mut files = console::FuzzFiles::default();
    let mut write_error = None;
    let summary = crate::fuzzing::run(
        &opts,
        &mut |tried| progress.borrow_mut().tick(tried),
        &mut |failure| {
            if write_error.is_some() {
                return;
            }
            match writer.write(failure, &id) {
                Ok(written) => {
                    if !a.quiet {
                        progress.borrow().finish();
                        console::fuzz_found(failure, &written);
                    }
                    files.add(written);
                }
                Err(e) => write_error = Some(e),
            }
        },
    );
    progress.borrow().finish();
    if let Some(e) = write_error {
        return Err(e.into());
    }
    console::fuzz_summary(&id, &opts, &summary, &files, &a.output);
    Ok(if summary.total() > 0 {
        ExitStatus::Failures
    } else {
        ExitStatus::Clean
    })
}
