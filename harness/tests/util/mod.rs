//! Shared helpers for the CLI tests: a `wireshape` command with a scrubbed
//! environment, run inside a copy of the test data.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The test data folder.
pub(crate) fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/testdata")
}

/// `wireshape` with no `WIRESHAPE_*` or provider-key variables, run in `dir`.
pub(crate) fn wireshape(dir: &Path) -> Command {
    Command::from_std(wireshape_process(dir))
}

/// [`wireshape`] as a plain `std::process::Command`, for a test that
/// spawns it and holds its pipes.
pub(crate) fn wireshape_process(dir: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_wireshape"));
    for (k, _) in std::env::vars() {
        if k.starts_with("WIRESHAPE_")
            || k.ends_with("_API_KEY")
            || k.starts_with("AWS_")
            || k == "NO_COLOR"
        {
            cmd.env_remove(k);
        }
    }
    cmd.current_dir(dir);
    cmd
}

/// A fresh temporary copy of `tests/testdata/cli`.
pub(crate) fn copy_of_testdata() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_dir(&testdata().join("cli"), dir.path());
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    let mut entries: Vec<_> = std::fs::read_dir(from)
        .expect("read_dir")
        .flatten()
        .collect();
    entries.sort_by_key(std::fs::DirEntry::path);
    for e in entries {
        let target = to.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).expect("copy");
        }
    }
}

/// stdout and stderr of a finished command, as strings.
pub(crate) fn outputs(out: &std::process::Output) -> (String, String) {
    (
        String::from_utf8(out.stdout.clone()).expect("utf8 stdout"),
        String::from_utf8(out.stderr.clone()).expect("utf8 stderr"),
    )
}

/// Every outcome of an `outcomes.json` (format 3: grouped by lane, the new
/// side omitted when it equals the old one, sides without pipeline names,
/// tags and semantic verdicts as indices into the file's tables) as one
/// object with its `lane`, `class` (absent: `identical`), tag names and
/// both sides, each side named by its `pipeline`, with its `outcome`
/// (absent: `shaped`) and its semantic verdict.
pub(crate) fn outcome_list(outcomes_json: &serde_json::Value) -> Vec<serde_json::Value> {
    let side = |s: &serde_json::Value, pipeline: &serde_json::Value| {
        let mut s = s.clone();
        s["pipeline"] = pipeline.clone();
        if s.get("outcome").is_none() {
            s["outcome"] = "shaped".into();
        }
        if let Some(i) = s.get("semantic").and_then(serde_json::Value::as_u64) {
            s["semantic"] = outcomes_json["semantics"][usize::try_from(i).unwrap()].clone();
        }
        s
    };
    let mut list = Vec::new();
    for (lane, lines) in outcomes_json["outcomes"]
        .as_object()
        .expect("outcomes by lane")
    {
        for o in lines.as_array().expect("a lane's outcomes") {
            let mut o = o.clone();
            o["lane"] = lane.as_str().into();
            if o.get("class").is_none() {
                o["class"] = "identical".into();
            }
            if let Some(tags) = o.get("tags").and_then(serde_json::Value::as_array) {
                let names: Vec<serde_json::Value> = tags
                    .iter()
                    .map(|i| {
                        outcomes_json["tags"][usize::try_from(i.as_u64().unwrap()).unwrap()].clone()
                    })
                    .collect();
                o["tags"] = names.into();
            }
            let new = o.get("new").unwrap_or(&o["old"]).clone();
            o["new"] = side(&new, &outcomes_json["new"]);
            o["old"] = side(&o["old"], &outcomes_json["old"]);
            list.push(o);
        }
    }
    list
}

/// `(lane, case)` of every case a `cases.json` (format 3) plans, sorted.
pub(crate) fn plan_list(cases_json: &serde_json::Value) -> Vec<(String, String)> {
    let names = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_owned())
            .collect()
    };
    let mut plan: Vec<(String, String)> = names(&cases_json["lanes"])
        .into_iter()
        .flat_map(|lane| {
            names(&cases_json["cases"])
                .into_iter()
                .map(move |case| (lane.clone(), case))
        })
        .collect();
    for (lane, cases) in cases_json["only"].as_object().unwrap() {
        plan.extend(names(cases).into_iter().map(|case| (lane.clone(), case)));
    }
    plan.sort();
    plan
}
