//! `wireshape probe` and `wireshape matrix`: from parsed arguments to the
//! probe and matrix runners, the terminal and the exit status.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;
use serde_json::json;

use super::args::{MatrixArgs, OutputFormat, ProbeArgs};
use crate::construct::{Construct, load_constructs};
use crate::outdir::{OutputDir, ReportKind, Rotate};
use crate::probe::{self, Limits, Planned, ProbeResult, Sink, Verdict};
use crate::{ExitStatus, Lane, UsageError, console};

/// The constructs `filters` name (every one when empty); a filter that
/// names none is a usage error.
fn select(all: Vec<Construct>, filters: &[String]) -> Result<Vec<Construct>, UsageError> {
    if filters.is_empty() {
        return Ok(all);
    }
    for f in filters {
        if !all.iter().any(|c| crate::ledger::glob_match(f, &c.id)) {
            return Err(UsageError::UnknownConstruct(f.clone()));
        }
    }
    Ok(all
        .into_iter()
        .filter(|c| filters.iter().any(|f| crate::ledger::glob_match(f, &c.id)))
        .collect())
}

fn lanes_or_all(lanes: &[Lane]) -> Vec<Lane> {
    if lanes.is_empty() {
        Lane::ALL.to_vec()
    } else {
        let mut v = lanes.to_vec();
        v.sort();
        v.dedup();
        v
    }
}

/// The process environment, as the probe reads it.
fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

pub(super) fn probe(a: &ProbeArgs) -> Result<ExitStatus> {
    let constructs = select(load_constructs(&a.set.probes)?, &a.constructs)?;
    let lanes = lanes_or_all(&a.set.lanes);
    let planned = probe::plan(&constructs, &lanes, &process_env);
    if !a.live {
        match a.output_format {
            OutputFormat::Json => console::json(&json!({
                "live": false,
                "max_requests": a.max_requests,
                "requests": planned,
                "total": totals(&planned),
            })),
            OutputFormat::Text => console::block(&plan_text(&planned, a.max_requests)),
        }
        return Ok(ExitStatus::Clean);
    }
    if std::env::var("WIRESHAPE_LIVE").as_deref() != Ok("1") {
        return Err(UsageError::LiveNotAllowed(
            "--live sends real requests to the providers and also needs WIRESHAPE_LIVE=1 in the environment; nothing was sent".to_owned(),
        )
        .into());
    }
    if !planned.iter().any(|p| p.key_env.is_none() || p.key_set) {
        let mut missing: Vec<&str> = planned.iter().filter_map(|p| p.key_env).collect();
        missing.sort_unstable();
        missing.dedup();
        return Err(UsageError::LiveNotAllowed(format!(
            "no key for any planned lane: set {} (nothing was sent)",
            missing.join(" or ")
        ))
        .into());
    }
    // Everything that can refuse the run does so before a request goes
    // out: the recordings load, the report folder may be written.
    let known = crate::recording::load_recordings(&a.recordings)?;
    let out = OutputDir::create(&a.output, ReportKind::PROBE, Rotate::Discard)?;
    let date = a.date.clone().unwrap_or_else(|| {
        crate::date::utc_timestamp(std::time::SystemTime::now())[..10].to_owned()
    });
    let limits = Limits {
        max_requests: a.max_requests,
        concurrency: usize::from(a.concurrency),
        timeout: a.timeout,
        retries: a.retries,
        backoff: a.backoff,
    };
    let sink = Sink {
        recordings: &a.recordings,
        date: &date,
        known: &known,
    };
    let results = probe::run_live(
        &planned,
        &constructs,
        &limits,
        &process_env,
        &sink,
        &|p: &Planned, at: &crate::http::Attempt| {
            if let Some(f) = &at.failure {
                console::line_err(&format!("  {} {}: {f}", p.lane, p.construct));
            } else if let Some(s) = at.status.filter(|s| *s == 429 || *s >= 500) {
                console::line_err(&format!("  {} {}: {s}", p.lane, p.construct));
            }
        },
    );
    let summary = results_text(&results, &a.recordings, &a.output);
    let report = json!({
        "date": date,
        "max_requests": a.max_requests,
        "results": results,
    });
    let mut report_text = serde_json::to_string_pretty(&report)?;
    report_text.push('\n');
    std::fs::write(out.tmp().join("probe.json"), report_text)?;
    std::fs::write(out.tmp().join("summary.md"), &summary)?;
    out.commit()?;
    match a.output_format {
        OutputFormat::Json => console::json(&report),
        OutputFormat::Text => console::block(&summary),
    }
    Ok(if results.iter().any(ProbeResult::is_failure) {
        ExitStatus::Failures
    } else {
        ExitStatus::Clean
    })
}

fn totals(planned: &[Planned]) -> serde_json::Value {
    json!({
        "requests": planned.len(),
        "input_tokens": planned.iter().map(|p| p.input_tokens).sum::<u64>(),
        "output_tokens": planned.iter().map(|p| p.output_tokens).sum::<u64>(),
    })
}

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn plan_text(planned: &[Planned], max_requests: usize) -> String {
    let mut out = String::from(
        "wireshape probe: the plan; nothing is sent (send with --live and WIRESHAPE_LIVE=1)\n\n",
    );
    let w = |f: &dyn Fn(&Planned) -> usize, min: usize| {
        planned.iter().map(f).max().unwrap_or(0).max(min)
    };
    let (wl, wc, wm) = (
        w(&|p| p.lane.id().len(), 4),
        w(&|p| p.construct.len(), 9),
        w(&|p| p.model.len(), 5),
    );
    let _ = writeln!(
        out,
        "{:<wl$}  {:<wc$}  {:<wm$}  {:>5}  {:>8}  {:>3}  endpoint",
        "lane", "construct", "model", "tools", "~tok in", "out"
    );
    for p in planned {
        let _ = writeln!(
            out,
            "{:<wl$}  {:<wc$}  {:<wm$}  {:>5}  {:>8}  {:>3}  {}",
            p.lane.id(),
            p.construct,
            p.model,
            p.tools,
            thousands(p.input_tokens),
            p.output_tokens,
            p.endpoint
        );
    }
    let lanes: std::collections::BTreeSet<Lane> = planned.iter().map(|p| p.lane).collect();
    let input: u64 = planned.iter().map(|p| p.input_tokens).sum();
    let output: u64 = planned.iter().map(|p| p.output_tokens).sum();
    let _ = writeln!(
        out,
        "\n{} requests on {} lane{}: ~{} input and {} output tokens in all (estimated at 4 bytes a token; each provider's price per token applies).",
        thousands(planned.len() as u64),
        lanes.len(),
        if lanes.len() == 1 { "" } else { "s" },
        thousands(input),
        thousands(output)
    );
    let mut keys: std::collections::BTreeMap<&str, (bool, Vec<&str>)> =
        std::collections::BTreeMap::new();
    for p in planned {
        if let Some(k) = p.key_env {
            let e = keys.entry(k).or_insert((p.key_set, Vec::new()));
            if !e.1.contains(&p.lane.id()) {
                e.1.push(p.lane.id());
            }
        }
    }
    let listed: Vec<String> = keys
        .iter()
        .map(|(k, (set, lanes))| {
            if *set {
                format!("{k} set")
            } else {
                format!("{k} missing ({} not sent)", lanes.join(", "))
            }
        })
        .collect();
    if !listed.is_empty() {
        let _ = writeln!(out, "Keys: {}.", listed.join("; "));
    }
    let _ = writeln!(
        out,
        "A live run makes at most --max-requests {max_requests} attempts (retries included), in this order; narrow it with --lanes and --constructs."
    );
    out
}

fn results_text(results: &[ProbeResult], recordings: &Path, output: &Path) -> String {
    let mut out = String::new();
    let count = |v: Verdict| results.iter().filter(|r| r.verdict == v).count();
    for r in results {
        let verdict = match r.verdict {
            Verdict::Accepted => "accepted",
            Verdict::Rejected => "rejected",
            Verdict::Failed => "FAILED",
            Verdict::NotSent => "not sent",
        };
        let _ = writeln!(
            out,
            "{verdict:<9} {:<20} {:<36} {}",
            r.lane.id(),
            r.construct,
            r.detail
        );
        if let Some(d) = &r.disagreement {
            let _ = writeln!(
                out,
                "          disagrees with the oracle: {}",
                d.replace('\n', " ")
            );
        }
    }
    let disagreements = results.iter().filter(|r| r.disagreement.is_some()).count();
    let _ = writeln!(
        out,
        "\n{} accepted, {} rejected, {} failed, {} not sent; {} disagree{} with the oracle. Recordings: {}. Report: {}.",
        count(Verdict::Accepted),
        count(Verdict::Rejected),
        count(Verdict::Failed),
        count(Verdict::NotSent),
        disagreements,
        if disagreements == 1 { "s" } else { "" },
        recordings.display(),
        output.display()
    );
    out
}

pub(super) fn matrix(a: &MatrixArgs) -> Result<ExitStatus> {
    let constructs = load_constructs(&a.set.probes)?;
    let recordings = crate::recording::load_recordings(&a.recordings)?;
    let lanes = lanes_or_all(&a.set.lanes);
    let as_of = a.as_of.as_deref().unwrap_or(crate::DEFAULT_AS_OF);
    let m = crate::matrix::build(&constructs, &lanes, &recordings, as_of);
    if let Some(dir) = &a.output {
        crate::report::write_matrix(dir, &m)?;
    }
    match a.output_format {
        OutputFormat::Json => console::json(&serde_json::to_value(&m)?),
        OutputFormat::Text => console::block(&crate::report::matrix_markdown(&m)),
    }
    Ok(ExitStatus::Clean)
}
