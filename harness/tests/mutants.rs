//! `wireshape mutants`: the plan is deterministic, a known mutant is caught
//! by every named check (examples apart from independent evidence), the
//! output folder has its files, exit codes follow DESIGN.md. Each run is narrowed to one mutant (`--shard K/N` with N the
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

/// A mutant only the examples notice: the two root passes swapped, so the
/// description notes come in the other order (no oracle, recording,
/// invariant or instance can tell).
const NOTE: &str = "v1/openai-responses/responses-root-flatten: swapped with strip-root-assertions";
const NOTE_WITNESS: &str =
    "pass-constructs#openai-responses__the_root_flatten_s_note_comes_before_the_r";

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
    assert!(
        names.contains(&"v1/openai-responses/normalize: swapped with strict-inline-ref-siblings#1")
    );
    // The whole plan is pinned: a pass whose declared mutation points
    // vanish (or a pass that leaves a lane) changes this snapshot.
    insta::assert_snapshot!("v1_mutant_plan", a);
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&read(path)).unwrap()
}

/// Run the one mutant `name` of `lane` into `<tmp>/m`; `examples`: an
/// example inputs directory instead of the default.
fn run_one(tmp: &Path, lane: &str, name: &str, examples: Option<&Path>) -> (i32, String, PathBuf) {
    let out = tmp.join("m");
    let shard = only(lane, name);
    let mut args = vec![
        "mutants".to_owned(),
        "--lanes".to_owned(),
        lane.to_owned(),
        "--shard".to_owned(),
        shard,
        "--output".to_owned(),
        out.to_str().unwrap().to_owned(),
    ];
    if let Some(ex) = examples {
        args.extend(["--examples".to_owned(), ex.to_str().unwrap().to_owned()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, stdout, err) = run(&args);
    (code, format!("{stdout}{err}"), out)
}

fn empty_dir(tmp: &Path) -> PathBuf {
    let empty = tmp.join("no-examples");
    std::fs::create_dir(&empty).unwrap();
    empty
}

#[test]
fn a_known_mutant_is_caught_by_its_pass_examples_and_the_folder_has_every_file() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, stdout, out) = run_one(tmp.path(), "openai-responses", NOTE, None);
    assert_eq!(code, 0, "{stdout}");
    let mut files: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "caught-only-by-examples.txt",
            "caught.txt",
            "missed.txt",
            "mutants.json",
            "outcomes.json",
            "run.json",
            "timeout.txt",
            "unviable.txt"
        ]
    );
    let outcomes = json(&out.join("outcomes.json"));
    let r = &outcomes["results"][0];
    assert_eq!(r["name"], NOTE);
    assert_eq!(r["outcome"], "caught");
    // Only the examples notice: no oracle, recording or invariant does.
    assert_eq!(r["caught_by"], serde_json::json!(["pipeline-examples"]));
    assert_eq!(r["evidence"], "examples-only");
    assert_eq!(r["witness"], NOTE_WITNESS);
    assert_eq!(
        read(&out.join("caught.txt")),
        format!("{NOTE}\n  caught by: pipeline-examples\n")
    );
    assert_eq!(
        read(&out.join("caught-only-by-examples.txt")),
        format!("{NOTE}\n  caught by: pipeline-examples\n  output changes on: {NOTE_WITNESS}\n")
    );
    assert_eq!(read(&out.join("missed.txt")), "");
    let s = &outcomes["summary"];
    assert_eq!(
        (
            &s["viable"],
            &s["caught"],
            &s["caught_by_independent_evidence"],
            &s["caught_only_by_examples"],
            &s["missed"],
            &s["independent_percent"],
        ),
        (
            &1.into(),
            &1.into(),
            &0.into(),
            &1.into(),
            &0.into(),
            &serde_json::json!(0.0)
        )
    );
    assert!(
        stdout.contains(
            "\n  1 viable: 0 caught by independent evidence (0.0%), 1 caught only by examples, 0 missed, 0 timeout\n"
        ),
        "{stdout}"
    );
    // Nothing left behind but the folder itself and its writer's lock file.
    assert_eq!(names(tmp.path()), [".m.lock", "m"]);
}

const LOOKAROUND_OFF: &str = "v1/openai-responses/strip-lookaround-patterns: switched off";

/// Every check that notices a mutant is named, examples and independent
/// evidence alike; without examples the independent ones remain.
#[test]
fn a_mutant_caught_by_examples_and_the_oracle_names_every_check() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, stdout, out) = run_one(tmp.path(), "openai-responses", LOOKAROUND_OFF, None);
    assert_eq!(code, 0, "{stdout}");
    let outcomes = json(&out.join("outcomes.json"));
    let r = &outcomes["results"][0];
    assert_eq!(
        r["caught_by"],
        serde_json::json!([
            "pass-examples",
            "pipeline-examples",
            "ledger-diff",
            "oracle",
            "replay",
            "semantic"
        ])
    );
    assert_eq!(r["evidence"], "independent");
    assert_eq!(
        r["details"]["oracle"],
        "fixtures#pattern_lookahead: verdict still-rejected rejected by [openai-pattern-lookaround] (baseline fix [])"
    );
    assert_eq!(
        r["details"]["replay"],
        "openai-pattern-lookaround-1556: still-rejected, fails (baseline fixed)"
    );
    assert!(r.get("witness").is_none());
    assert_eq!(
        read(&out.join("caught.txt")),
        format!(
            "{LOOKAROUND_OFF}\n  caught by: pass-examples, pipeline-examples, ledger-diff, oracle, replay, semantic\n"
        )
    );
    assert_eq!(read(&out.join("caught-only-by-examples.txt")), "");
    assert_eq!(outcomes["summary"]["caught_by_independent_evidence"], 1);
    assert_eq!(outcomes["summary"]["independent_percent"], 100.0);

    let tmp = tempfile::tempdir().unwrap();
    let empty = empty_dir(tmp.path());
    let (code, stdout, out) = run_one(tmp.path(), "openai-responses", LOOKAROUND_OFF, Some(&empty));
    assert_eq!(code, 0, "{stdout}");
    let outcomes = json(&out.join("outcomes.json"));
    assert_eq!(
        outcomes["results"][0]["caught_by"],
        serde_json::json!(["ledger-diff", "oracle", "replay", "semantic"])
    );
    assert!(
        stdout.contains(
            "\n  1 viable: 1 caught by independent evidence (100.0%), 0 caught only by examples, 0 missed, 0 timeout\n"
        ),
        "{stdout}"
    );
}

#[test]
fn a_missed_mutant_exits_1_and_is_listed() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = empty_dir(tmp.path());
    let (code, stdout, out) = run_one(tmp.path(), "openai-responses", NOTE, Some(&empty));
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains(&format!("missed: {NOTE}")), "{stdout}");
    // The witness: the smallest corpus case whose output the mutant changes.
    let witness = NOTE_WITNESS;
    assert!(
        stdout.contains(&format!("    output changes on: {witness}\n")),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "\n  1 viable: 0 caught by independent evidence (0.0%), 0 caught only by examples, 1 missed, 0 timeout\n"
        ),
        "{stdout}"
    );
    assert_eq!(
        read(&out.join("missed.txt")),
        format!("{NOTE}\n  output changes on: {witness}\n")
    );
    let outcomes = json(&out.join("outcomes.json"));
    assert_eq!(outcomes["results"][0]["witness"], witness);
    assert_eq!(outcomes["summary"]["missed"], 1);
    assert_eq!(
        outcomes["summary"]["by_pass"]["responses-root-flatten"]["missed"],
        1
    );
}

/// `--examples` on an empty directory: no example check runs, every
/// mutant of the lane is judged by independent evidence alone, and the
/// counts add up.
#[test]
fn examples_on_an_empty_dir_counts_only_independent_evidence() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = empty_dir(tmp.path());
    let out = tmp.path().join("m");
    let (code, stdout, _) = run(&[
        "mutants",
        "--lanes",
        "openai-responses",
        "--examples",
        empty.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(code == 0 || code == 1, "{stdout}");
    let outcomes = json(&out.join("outcomes.json"));
    let s = &outcomes["summary"];
    assert_eq!(s["caught_only_by_examples"], 0);
    assert_eq!(s["noticed_by"]["pass-examples"], 0);
    assert_eq!(s["noticed_by"]["pipeline-examples"], 0);
    let n = |k: &str| s[k].as_u64().unwrap();
    assert_eq!(n("viable") + n("unviable"), n("mutants"));
    assert_eq!(
        n("caught_by_independent_evidence") + n("missed") + n("timeout"),
        n("viable")
    );
    assert_eq!(n("caught"), n("caught_by_independent_evidence"));
    assert_eq!(code == 1, n("missed") > 0);
    assert!(
        stdout.contains(&format!(
            "\n  {} viable: {} caught by independent evidence (",
            n("viable"),
            n("caught_by_independent_evidence")
        )),
        "{stdout}"
    );
    assert_eq!(read(&out.join("caught-only-by-examples.txt")), "");
    // Every caught mutant names only independent checks.
    for r in outcomes["results"].as_array().unwrap() {
        if r["outcome"] == "caught" {
            assert_eq!(r["evidence"], "independent", "{r}");
        }
    }
}

#[test]
fn a_failing_baseline_exits_4_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let ex = tmp.path().join("examples");
    std::fs::create_dir(&ex).unwrap();
    std::fs::write(
        ex.join("normalize.json"),
        r#"{"pass":"normalize","examples":[
        {"name":"wrong on purpose","lane":"openai-responses","input":{"name":"t","input_schema":{"type":"object"}}},
        {"name":"never accepted","lane":"openai-responses","input":{"name":"u","input_schema":{}}}]}"#,
    )
    .unwrap();
    let snaps = tmp.path().join("snapshots");
    std::fs::create_dir(&snaps).unwrap();
    std::fs::write(
        snaps.join("pass-examples@normalize.json.snap"),
        "---\nsource: harness/src/mutants.rs\nexpression: x\n---\n\
         [{\"name\":\"wrong on purpose\",\"expect\":{\"step\":\"continue\",\
         \"tool\":{\"name\":\"t\",\"input_schema\":{\"type\":\"object\"}},\"records\":[]}}]\n",
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
        "--example-snapshots",
        snaps.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 4, "{err}");
    assert!(err.contains("baseline failed"), "{err}");
    assert!(
        err.contains(
            "openai-responses pass normalize example \"wrong on purpose\" does not hold (its accepted snapshot differs)"
        ),
        "{err}"
    );
    // Without the snapshot, the first example has no accepted output.
    std::fs::remove_file(snaps.join("pass-examples@normalize.json.snap")).unwrap();
    let (code, _, err) = run(&[
        "mutants",
        "--lanes",
        "openai-responses",
        "--shard",
        "1/1000",
        "--examples",
        ex.to_str().unwrap(),
        "--example-snapshots",
        snaps.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 4, "{err}");
    assert!(
        err.contains(
            "openai-responses pass normalize example \"wrong on purpose\" has no accepted snapshot (run `cargo insta review`)"
        ),
        "{err}"
    );
    // No report: the inputs and the (released) lock file only.
    assert_eq!(names(tmp.path()), [".m.lock", "examples", "snapshots"]);
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// An example file in the old format (expected output inline) is refused:
/// the expected outputs live in the snapshots now.
#[test]
fn an_example_with_an_inline_expect_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    let ex = tmp.path().join("examples");
    std::fs::create_dir(&ex).unwrap();
    std::fs::write(
        ex.join("normalize.json"),
        r#"{"pass":"normalize","examples":[{"name":"n","lane":"openai-responses",
        "input":{"name":"t","input_schema":{"type":"object"}},"expect":{}}]}"#,
    )
    .unwrap();
    let (code, _, err) = run(&[
        "mutants",
        "--lanes",
        "openai-responses",
        "--examples",
        ex.to_str().unwrap(),
        "--output",
        tmp.path().join("m").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("normalize.json:2:"), "{err}");
    assert!(err.contains("unknown field `expect`"), "{err}");
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
