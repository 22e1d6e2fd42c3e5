//! Human and JSON output on the terminal: the only module (with `main`) that
//! prints.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::fmt::Write as _;
use std::io::Write as _;

use anyhow::Result;
use serde_json::{Value, json};
use wireshape::{Catalog, CorpusEntry, CorpusScan, Lane, Outcome, Profile, Shaped};

/// Pretty JSON on stdout, key order preserved.
pub(crate) fn json(v: &Value) -> Result<()> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, v)?;
    writeln!(out)?;
    Ok(())
}

pub(crate) fn lanes() {
    for lane in Lane::ALL {
        println!("{:<22} {}", lane.id(), lane.summary());
    }
}

pub(crate) fn pipelines() {
    for p in Profile::ALL {
        println!("{}: {}", p.id(), p.summary());
        for lane in Lane::ALL {
            let names = p.pass_names(*lane);
            let passes = if names.is_empty() {
                "(verbatim)".to_owned()
            } else {
                names.join(" → ")
            };
            println!("  {:<22} {passes}", lane.id());
        }
    }
}

/// The `--explain` report, on stderr so stdout stays valid JSON.
pub(crate) fn explain(lane: Lane, pipeline: &str, catalog: &Catalog, shaped: &[Shaped]) {
    let count = |id: &str| shaped.iter().filter(|s| s.outcome.id() == id).count();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} · {pipeline} · {} tools: {} shaped, {} failed closed, {} errored",
        lane.id(),
        shaped.len(),
        count("shaped"),
        count("failed-closed"),
        count("errored"),
    );
    for note in &catalog.notes {
        let _ = writeln!(
            s,
            "load: {} {}: {}",
            note.tool,
            wireshape::testing::display_path(&note.path),
            note.message
        );
    }
    for sh in shaped {
        let head = match &sh.outcome {
            Outcome::Shaped if sh.degradations.is_empty() => "unchanged".to_owned(),
            Outcome::Shaped => format!("shaped, {} degradations", sh.degradations.len()),
            Outcome::FailedClosed { reason } => format!("failed closed: {reason}"),
            Outcome::Errored { message } => format!("errored: {message}"),
        };
        let _ = writeln!(s, "{}: {head}", sh.tool.name);
        for d in &sh.degradations {
            let rule = d
                .rule
                .as_deref()
                .map(|r| format!(" [{r}]"))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "  {} {} {} at {}: {}{rule}",
                d.pass,
                d.action.as_str(),
                if d.keyword.is_empty() {
                    "(root)"
                } else {
                    &d.keyword
                },
                wireshape::testing::display_path(&d.path),
                d.reason
            );
        }
    }
    eprint!("{s}");
}

pub(crate) fn list_text(scan: &CorpusScan) {
    let mut loaded = 0;
    let mut unusable = 0;
    for e in &scan.entries {
        match e {
            CorpusEntry::Loaded(c) => {
                loaded += 1;
                println!("{:<60} {:>5} tools  {}", c.id, c.tools.len(), c.format.id());
            }
            CorpusEntry::Unusable { path, reason } => {
                unusable += 1;
                println!("{:<60} unusable: {reason}", path.display());
            }
        }
    }
    println!(
        "{loaded} catalogs, {} tools, {unusable} unusable files",
        scan.tool_count()
    );
}

pub(crate) fn list_json(scan: &CorpusScan) -> Result<()> {
    let entries: Vec<Value> = scan
        .entries
        .iter()
        .map(|e| match e {
            CorpusEntry::Loaded(c) => json!({
                "type": "catalog",
                "id": c.id,
                "path": c.path.display().to_string(),
                "format": c.format.id(),
                "tools": c.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
                "notes": c.notes.len(),
            }),
            CorpusEntry::Unusable { path, reason } => json!({
                "type": "unusable",
                "path": path.display().to_string(),
                "reason": reason,
            }),
        })
        .collect();
    json(&Value::Array(entries))
}
