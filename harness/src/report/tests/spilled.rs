//! A report made from outcomes that waited on disk ([`Spilled`], what
//! `run` does) against the report made from the same run's outcomes held
//! in memory: the same bytes in every file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{files, meta};
use crate::differential::{DiffOptions, execute, execute_to, prepare};
use crate::lane::Lane;
use crate::outcome::{CaseOutcome, RunReport};
use crate::pipeline::{Pipeline as _, PipelineConfig, Profile};
use crate::report::files::OUTCOMES_JSON;
use crate::report::{ReportWriter, Spilled};

fn project(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

/// The project's own catalogs on two lanes, one with the project's
/// ledger (declared divergences) and one with none (its divergent cases
/// fail and get wire pairs first).
#[test]
fn a_report_from_outcomes_on_disk_is_the_report_from_outcomes_held() {
    let ledger = tempfile::tempdir().unwrap();
    let file = "anthropic-messages.toml";
    std::fs::copy(
        project("corpus/ledger").join(file),
        ledger.path().join(file),
    )
    .unwrap();
    let v0 = Profile::V0.with_config(PipelineConfig::default());
    let v1 = Profile::V1.with_config(PipelineConfig::default());
    let opts = DiffOptions {
        old: &v0,
        new: &v1,
        lanes: vec![Lane::AnthropicMessages, Lane::OpenaiStrict],
        own_corpus: vec![project("corpus/catalogs")],
        external_corpus: Vec::new(),
        ledger_dir: Some(ledger.path().to_owned()),
        fuzz: None,
        shard: None,
        jobs: 2,
    };
    let out = tempfile::tempdir().unwrap();
    let held = execute(&opts, prepare(&opts).unwrap(), &mut |_| {});
    let held_dir = super::write_report(&out.path().join("held"), &held, &meta("t")).unwrap();

    // Blocks of 4 KiB: each lane's outcomes go to disk in many of them.
    let mut spilled = Spilled::with_blocks(&v0.id(), &v1.id(), 4096, 7);
    let (report, pairs) = execute_to(&opts, prepare(&opts).unwrap(), &mut spilled);
    assert!(report.outcomes.is_empty());
    assert_eq!(
        pairs.len(),
        held.outcomes.iter().filter(|o| o.wire.is_some()).count()
    );
    spilled.set_wire_pairs(pairs);
    assert!(
        spilled.blocks_on_disk() > 10,
        "{}",
        spilled.blocks_on_disk()
    );
    assert_eq!(report.summary, held.summary);
    let writer = ReportWriter::create(&out.path().join("spilled"), &report.plan).unwrap();
    let spilled_dir = writer
        .finish_spilled(&report, &spilled, &meta("t"))
        .unwrap();

    // The run has every kind of line the renderers write.
    assert!(held.summary.failures > 0 && held.summary.failures < held.summary.cases);
    let wired = held.outcomes.iter().filter(|o| o.wire.is_some());
    assert!(wired.clone().any(CaseOutcome::is_failure) && wired.clone().any(|o| !o.is_failure()));
    let (a, b) = (files(&held_dir), files(&spilled_dir));
    let divergences = String::from_utf8(a["divergences.jsonl"].clone()).unwrap();
    assert!(
        divergences.contains(r#""type":"declared""#),
        "{divergences}"
    );
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (name, bytes) in &a {
        assert!(*bytes == b[name], "{name} differs");
    }
    assert!(a.contains_key("data/openai-strict.js"));
}

/// A progress snapshot of outcomes on disk holds what a report of the same
/// outcomes does: the same outcomes pointing at the same table entries
/// (copied as stored, each lane's in the order they finished, the tables
/// in the order their entries came), with a zeroed summary.
#[test]
fn a_progress_snapshot_from_disk_is_the_snapshot_of_the_outcomes_held() {
    let v0 = Profile::V0.with_config(PipelineConfig::default());
    let v1 = Profile::V1.with_config(PipelineConfig::default());
    let opts = DiffOptions {
        old: &v0,
        new: &v1,
        lanes: vec![Lane::OpenaiChat, Lane::Xai],
        own_corpus: vec![project("corpus/catalogs")],
        external_corpus: Vec::new(),
        ledger_dir: Some(project("corpus/ledger")),
        fuzz: None,
        shard: None,
        jobs: 1,
    };
    let mut held = Vec::new();
    let mut spilled = Spilled::with_blocks(&v0.id(), &v1.id(), 2048, 7);
    let mut n = 0;
    let (report, _) = execute_to(
        &opts,
        prepare(&opts).unwrap(),
        &mut Both {
            held: &mut held,
            spilled: &mut spilled,
            n: &mut n,
        },
    );
    assert!(held.len() > 100, "{}", held.len());
    let dir = tempfile::tempdir().unwrap();
    let mut writer = ReportWriter::create(&dir.path().join("run"), &report.plan).unwrap();
    writer.progress_spilled(&spilled).unwrap();
    let snapshot = std::fs::read(writer.tmp.join(OUTCOMES_JSON)).unwrap();
    drop(writer);
    let whole = RunReport {
        outcomes: held,
        ..RunReport::default()
    };
    let written = super::write_report(&dir.path().join("held"), &whole, &meta("t")).unwrap();
    let held_file = std::fs::read(written.join(OUTCOMES_JSON)).unwrap();
    assert!(snapshot != held_file);
    let (from_disk, members) = resolved(&snapshot);
    let (held_lanes, _) = resolved(&held_file);
    assert_eq!(
        held_lanes.keys().collect::<Vec<_>>(),
        ["openai-chat", "xai"]
    );
    assert_eq!(
        held_lanes.values().map(Vec::len).sum::<usize>(),
        whole.outcomes.len()
    );
    assert_eq!(from_disk, held_lanes);
    assert_eq!(
        members["summary"],
        serde_json::to_value(crate::outcome::Summary::default()).unwrap()
    );
}

/// Keeps two thirds of the outcomes, in memory and on disk.
struct Both<'a> {
    held: &'a mut Vec<CaseOutcome>,
    spilled: &'a mut Spilled,
    n: &'a mut usize,
}
impl crate::OutcomeSink for Both<'_> {
    fn put(&mut self, outcome: CaseOutcome) {
        // Two of every three: the third still running when the snapshot
        // is made.
        *self.n += 1;
        if !(*self.n).is_multiple_of(3) {
            self.held.push(outcome.clone());
            crate::OutcomeSink::put(self.spilled, outcome);
        }
    }
}

/// An `outcomes.json`'s members but the tables and the outcomes, and each
/// lane's outcomes with their indices replaced by the entries they point
/// at, sorted by case.
fn resolved(
    bytes: &[u8],
) -> (
    BTreeMap<String, Vec<serde_json::Value>>,
    serde_json::Map<String, serde_json::Value>,
) {
    use serde_json::Value;
    let file: Value = serde_json::from_slice(bytes).unwrap();
    let mut members = file.as_object().unwrap().clone();
    let mut table = |k: &str| members.remove(k).unwrap().as_array().unwrap().clone();
    let (ledger, tags, semantics) = (table("ledger"), table("tags"), table("semantics"));
    let outcomes = members.remove("outcomes").unwrap();
    let at = |i: &Value, t: &[Value]| t[usize::try_from(i.as_u64().unwrap()).unwrap()].clone();
    let look = |list: &Value, t: &[Value]| {
        Value::Array(list.as_array().unwrap().iter().map(|i| at(i, t)).collect())
    };
    let lanes = outcomes
        .as_object()
        .unwrap()
        .iter()
        .map(|(lane, list)| {
            let mut list: Vec<Value> = list
                .as_array()
                .unwrap()
                .iter()
                .map(|o| {
                    let mut o = o.clone();
                    if let Some(t) = o.get("tags").cloned() {
                        o["tags"] = look(&t, &tags);
                    }
                    if let Some(l) = o.get("ledger").cloned() {
                        o["ledger"] = look(&l, &ledger);
                    }
                    for side in ["old", "new"] {
                        if let Some(i) = o.get(side).and_then(|s| s.get("semantic")).cloned() {
                            o[side]["semantic"] = at(&i, &semantics);
                        }
                    }
                    o
                })
                .collect();
            list.sort_by(|a, b| a["case"].as_str().cmp(&b["case"].as_str()));
            (lane.clone(), list)
        })
        .collect();
    (lanes, members)
}
