//! `wireshape mutants`: the plan is deterministic, a known mutant is caught
//! by the named check, the output folder has its files, exit codes follow
//! DESIGN.md. Each run is narrowed to one mutant (`--shard K/N` with N the
//! plan length), so the file stays fast.

mod util;

use std::path::{Path, PathBuf};

use serde_json::Value;
use util::{outputs, wireshape};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = wireshape(&root()).args(args).output().expect("run");
    let (o, e) = outputs(&out);
    (out.status.code().expect("exit code"), o, e)
}

fn list(lanes: &str) -> Vec<String> {
    let (code, out, err) = run(&["mutants", "--list", "--json", "--lanes", lanes]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    v.as_array()
        .expect("array")
        .iter()
        .map(|m| m["name"].as_str().expect("name").to_owned())
        .collect()
}

/// `--shard K/N` selecting exactly `name` among the lane's mutants.
fn only(lane: &str, name: &str) -> String {
    let names = list(lane);
    let i = names.iter().position(|n| n == name).expect("mutant listed");
    format!("{}/{}", i + 1, names.len())
}

const NOTE: &str = "v1/openai-responses/strip-lookaround-patterns: skip the unenforced note";

#[test]
fn the_list_is_deterministic_non_empty_and_names_what_changed() {
    let (code, a, _) = run(&["mutants", "--list"]);
    assert_eq!(code, 0);
    let (_, b, _) = run(&["mutants", "--list"]);
    assert_eq!(a, b);
    let names: Vec<&str> = a.lines().collect();
    assert!(names.len() >= 60, "{} mutants", names.len());
    assert!(names.contains(&NOTE));
    assert!(names.contains(&"v1/deepseek-strict/deepseek-pre-gate: switched off"));
    assert!(names.contains(&"v1/openai-responses/normalize: swapped with responses-root-flatten"));
    // The whole plan is pinned: a pass whose declared mutation points
    // vanish (or a pass that leaves a lane) changes this snapshot.
    insta::assert_snapshot!("v1_mutant_plan", a);
}

#[test]
fn a_known_mutant_is_caught_by_its_pass_examples_and_the_folder_has_every_file() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m");
    let shard = only("openai-responses", NOTE);
    let (code, stdout, err) = run(&[
        "mutants",
        "--lanes",
        "openai-responses",
        "--shard",
        &shard,
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}{err}");
    let mut files: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "caught.txt",
            "missed.txt",
            "mutants.json",
            "outcomes.json",
            "run.json",
            "timeout.txt",
            "unviable.txt"
        ]
    );
    let outcomes: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("outcomes.json")).unwrap()).unwrap();
    let r = &outcomes["results"][0];
    assert_eq!(r["name"], NOTE);
    assert_eq!(r["outcome"], "caught");
    assert_eq!(r["check"], "pass-examples");
    assert_eq!(
        std::fs::read_to_string(out.join("caught.txt")).unwrap(),
        format!("{NOTE}\n")
    );
    assert_eq!(std::fs::read_to_string(out.join("missed.txt")).unwrap(), "");
    // Nothing left behind but the folder itself.
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
}

#[test]
fn a_missed_mutant_exits_1_and_is_listed() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("no-examples");
    std::fs::create_dir(&empty).unwrap();
    let out = tmp.path().join("m");
    let shard = only("openai-responses", NOTE);
    let (code, stdout, _) = run(&[
        "mutants",
        "--lanes",
        "openai-responses",
        "--shard",
        &shard,
        "--examples",
        empty.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains(&format!("missed: {NOTE}")), "{stdout}");
    // The witness: the smallest corpus case whose output the mutant changes.
    let witness = "fixtures#pattern_lookbehind";
    assert!(
        stdout.contains(&format!("    output changes on: {witness}\n")),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("missed.txt")).unwrap(),
        format!("{NOTE}\n  output changes on: {witness}\n")
    );
    let outcomes: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("outcomes.json")).unwrap()).unwrap();
    assert_eq!(outcomes["results"][0]["witness"], witness);
}

#[test]
fn a_failing_baseline_exits_4_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let ex = tmp.path().join("examples");
    std::fs::create_dir(&ex).unwrap();
    std::fs::write(
        ex.join("normalize.json"),
        r#"{"pass":"normalize","examples":[{"name":"wrong on purpose","lane":"openai-responses",
        "input":{"name":"t","input_schema":{"type":"object"}},
        "expect":{"step":"continue","tool":{"name":"t","input_schema":{"type":"object"}},"records":[]}}]}"#,
    )
    .unwrap();
    let out = tmp.path().join("m");
    let (code, _, err) = run(&[
        "mutants",
        "--lanes",
        "openai-responses",
        "--shard",
        "1/1000",
        "--examples",
        ex.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 4, "{err}");
    assert!(err.contains("baseline failed"), "{err}");
    assert!(err.contains("wrong on purpose"), "{err}");
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
}

#[test]
fn usage_errors_exit_2() {
    let (code, _, err) = run(&["mutants", "--pipeline", "v0"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, _) = run(&["mutants", "--lanes", "no-such-lane", "--list"]);
    assert_eq!(code, 2);
    let (code, _, _) = run(&["mutants", "--json"]);
    assert_eq!(code, 2);
}
