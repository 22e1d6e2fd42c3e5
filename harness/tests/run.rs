//! `wireshape run`, `diff`, `ledger accept` and `report merge` end to end,
//! on the mini corpus in `tests/testdata/cli/corpus`, copied to a temp dir.

mod util;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use util::{copy_of_testdata, outputs, wireshape};

const LANES: &str = "anthropic-messages,openai-responses,openai-chat";

fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = wireshape(dir).args(args).output().expect("run");
    let (o, e) = outputs(&out);
    (out.status.code().expect("exit code"), o, e)
}

/// Every file of a report directory except `run.json`, by path under it
/// (`data/<lane>.js` for the lane files).
fn report_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if e.file_type().unwrap().is_dir() {
            for (inner, bytes) in report_files(&e.path()) {
                out.insert(format!("{name}/{inner}"), bytes);
            }
        } else if name != "run.json" {
            out.insert(name, std::fs::read(e.path()).unwrap());
        }
    }
    out
}

fn without_time(stdout: &str) -> String {
    let mut s = String::new();
    for line in stdout.lines() {
        if let Some(i) = line.find(" cases in ") {
            let rest = &line[i + " cases in ".len()..];
            let after = rest.find("s:").map_or("", |j| &rest[j + 1..]);
            let _ = writeln!(s, "{} cases in [time]s{after}", &line[..i]);
        } else {
            s.push_str(line);
            s.push('\n');
        }
    }
    s
}

/// `--output` naming a directory that is no report (the user's own files)
/// is a usage error: exit 2, the path named, nothing touched.
#[test]
fn an_output_directory_that_is_no_report_is_refused_with_exit_2_and_kept() {
    let dir = copy_of_testdata();
    let mine = dir.path().join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "my notes").unwrap();
    let (code, _, err) = run_in(dir.path(), &["run", "--lanes", LANES, "--output", "mine"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("mine: exists and is not a wireshape report directory"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(mine.join("notes.txt")).unwrap(),
        "my notes"
    );
    assert_eq!(std::fs::read_dir(&mine).unwrap().count(), 1);
}

#[test]
fn run_on_the_mini_corpus_is_clean_and_writes_every_report_file() {
    let dir = copy_of_testdata();
    let (code, out, err) = run_in(dir.path(), &["run", "--lanes", LANES]);
    assert_eq!(code, 0, "{out}{err}");
    insta::assert_snapshot!(without_time(&out));
    let names: Vec<String> = report_files(&dir.path().join("reports/latest"))
        .into_keys()
        .collect();
    assert_eq!(
        names,
        [
            "cases.json",
            // One lane file for each lane with a divergent case.
            "data/anthropic-messages.js",
            "data/openai-chat.js",
            "data/openai-responses.js",
            "divergences.jsonl",
            "errored.txt",
            "failures.txt",
            "identical.txt",
            "index.html",
            "intended.txt",
            "junit.xml",
            "outcomes.json",
            "reordered.txt",
            "summary.md",
            "unexpected.txt",
            "violations.txt"
        ]
    );
    assert!(dir.path().join("reports/latest/run.json").is_file());
    insta::assert_snapshot!(
        std::fs::read_to_string(dir.path().join("reports/latest/intended.txt")).unwrap()
    );
}

#[test]
fn two_runs_write_byte_identical_reports_except_run_json() {
    let dir = copy_of_testdata();
    assert_eq!(
        run_in(dir.path(), &["run", "--lanes", LANES, "--output", "a"]).0,
        0
    );
    assert_eq!(
        run_in(
            dir.path(),
            &["run", "--lanes", LANES, "--output", "b", "--jobs", "1"]
        )
        .0,
        0
    );
    let (a, b) = (
        report_files(&dir.path().join("a")),
        report_files(&dir.path().join("b")),
    );
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (name, bytes) in &a {
        assert!(bytes == &b[name], "{name} differs between two runs");
    }
}

#[test]
fn four_shards_merged_equal_the_unsharded_run() {
    let dir = copy_of_testdata();
    assert_eq!(
        run_in(dir.path(), &["run", "--lanes", LANES, "--output", "whole"]).0,
        0
    );
    for k in 1..=4 {
        let (code, out, _) = run_in(
            dir.path(),
            &[
                "run",
                "--lanes",
                LANES,
                "--shard",
                &format!("{k}/4"),
                "--output",
                &format!("shard{k}"),
            ],
        );
        assert_eq!(code, 0, "{out}");
    }
    let (code, out, _) = run_in(
        dir.path(),
        &[
            "report", "merge", "shard1", "shard2", "shard3", "shard4", "--output", "merged",
        ],
    );
    assert_eq!(code, 0, "{out}");
    let (whole, merged) = (
        report_files(&dir.path().join("whole")),
        report_files(&dir.path().join("merged")),
    );
    assert_eq!(
        whole.keys().collect::<Vec<_>>(),
        merged.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &whole {
        assert!(
            bytes == &merged[name],
            "{name} differs between the merged shards and the unsharded run"
        );
    }
    // the whole requests are compared once over the shards, and merged
    let requests = |d: &str| {
        read_json(&dir.path().join(d).join("outcomes.json"))["requests"]
            .as_array()
            .unwrap()
            .len()
    };
    assert_eq!(requests("whole"), 6, "1 catalog × 3 lanes × 2 kinds");
    assert_eq!(
        (1..=4)
            .map(|k| requests(&format!("shard{k}")))
            .sum::<usize>(),
        requests("whole")
    );
    // each shard really holds a part
    let shard1 = std::fs::read_to_string(dir.path().join("shard1/identical.txt")).unwrap();
    let all = std::fs::read_to_string(dir.path().join("whole/identical.txt")).unwrap();
    assert!(shard1.lines().count() < all.lines().count());
}

#[test]
fn a_ledger_entry_that_matches_nothing_fails_the_run_naming_it() {
    let dir = copy_of_testdata();
    let ledger = dir.path().join("corpus/ledger/anthropic-messages.toml");
    let mut text = std::fs::read_to_string(&ledger).unwrap();
    text.push_str("\n[[divergence]]\ncase = \"mini#plain\"\nclass = \"rotting\"\nreason = \"nothing diverges here\"\n");
    std::fs::write(&ledger, text).unwrap();
    let (code, out, _) = run_in(dir.path(), &["run", "--lanes", LANES]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("ledger unused: ledger entry anthropic-messages.toml#1 (rotting) matched no case in a run over the corpus it was written for: remove it or fix its `case`"),
        "{out}"
    );
}

#[test]
fn deleting_a_ledger_entry_makes_its_divergence_unexpected() {
    let dir = copy_of_testdata();
    std::fs::remove_file(dir.path().join("corpus/ledger/openai-responses.toml")).unwrap();
    let (code, out, _) = run_in(dir.path(), &["run", "--lanes", LANES]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "  unexpected openai-responses::mini#slug  new:description:noted new:pattern:removed"
        ),
        "{out}"
    );
    let unexpected =
        std::fs::read_to_string(dir.path().join("reports/latest/unexpected.txt")).unwrap();
    assert_eq!(unexpected, "openai-responses::mini#slug\n");
}

#[test]
fn diff_against_another_new_pipeline_names_the_affected_cases_and_class() {
    // A stand-in for "a v1 pass changed by hand": verbatim as the new line.
    // The pair v0 → verbatim has its own ledger (corpus/ledger/v0--verbatim,
    // absent: empty), so v0 → v1's `mini#deps` entry does not cover it.
    let dir = copy_of_testdata();
    let (code, out, _) = run_in(
        dir.path(),
        &[
            "diff",
            "--old",
            "v0",
            "--new",
            "verbatim",
            "--lanes",
            "anthropic-messages",
        ],
    );
    assert_eq!(code, 1, "{out}");
    insta::assert_snapshot!(without_time(&out));
}

#[test]
fn ledger_accept_writes_entries_that_make_the_run_clean() {
    let dir = copy_of_testdata();
    std::fs::remove_file(dir.path().join("corpus/ledger/openai-responses.toml")).unwrap();
    let (code, out, err) = run_in(
        dir.path(),
        &[
            "ledger",
            "accept",
            "--lanes",
            LANES,
            "--reason",
            "lookaround strip is intended",
            "--class",
            "strips-lookaround",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out,
        "corpus/ledger/openai-responses.toml: 1 entries written\n"
    );
    let written =
        std::fs::read_to_string(dir.path().join("corpus/ledger/openai-responses.toml")).unwrap();
    assert!(written.starts_with("[[divergence]]\ncase = \"mini#slug\"\nclass = \"strips-lookaround\"\nreason = \"lookaround strip is intended\"\ntags = [\"new:description:noted\", \"new:pattern:removed\"]\nnew_sha256 = \""), "{written}");
    assert_eq!(run_in(dir.path(), &["run", "--lanes", LANES]).0, 0);
}

/// Every file under `dir`, by path relative to it.
fn files_under(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
                out.insert(rel, std::fs::read(e.path()).unwrap());
            }
        }
    }
    out
}

#[test]
fn ledger_accept_for_the_pair_v0_verbatim_writes_into_corpus_ledger_v0_verbatim() {
    // Arrange: the mini corpus's v0 → v1 ledger, which must stay as it is.
    let dir = copy_of_testdata();
    let ledger = dir.path().join("corpus/ledger");
    let before = files_under(&ledger);
    let diff = [
        "diff",
        "--old",
        "v0",
        "--new",
        "verbatim",
        "--lanes",
        "anthropic-messages",
        "--quiet",
    ];
    // Act
    let (code, out, err) = run_in(
        dir.path(),
        &[
            "ledger",
            "accept",
            "--old",
            "v0",
            "--new",
            "verbatim",
            "--lanes",
            "anthropic-messages",
            "--reason",
            "verbatim keeps what v0 strips",
            "--class",
            "keeps-verbatim",
        ],
    );
    // Assert
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out,
        "corpus/ledger/v0--verbatim/anthropic-messages.toml: 2 entries written\n"
    );
    let mut after = files_under(&ledger);
    let written = after
        .remove("v0--verbatim/anthropic-messages.toml")
        .expect("the pair's file");
    assert_eq!(after, before, "the v0 → v1 ledger is untouched");
    let written = String::from_utf8(written).unwrap();
    assert!(
        written.starts_with("[[divergence]]\ncase = \"mini#deps\"\nclass = \"keeps-verbatim\"\nreason = \"verbatim keeps what v0 strips\"\ntags = [\"old:dependentRequired:removed\", \"old:description:noted\"]\nnew_sha256 = \""),
        "{written}"
    );
    assert_eq!(written.matches("[[divergence]]").count(), 2, "{written}");
    // The pair's diff now reads them: nothing unexpected, nothing unused.
    // Exit 1 all the same: verbatim ships `mini#union`'s root anyOf, which
    // the anthropic-messages oracle rejects (a regression no entry declares).
    let (code, out, _) = run_in(dir.path(), &diff);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(": 2 identical, 0 reordered, 2 intended, 0 unexpected, 0 errored;"),
        "{out}"
    );
    assert!(
        out.contains("\n1 failing cases, 0 unused ledger entries; report: "),
        "{out}"
    );
    // Nothing to accept writes nothing: no directory for v1 → v1 either.
    let (code, out, _) = run_in(
        dir.path(),
        &[
            "ledger", "accept", "--old", "v1", "--new", "v1", "--lanes", LANES, "--reason", "r",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(out, "no unexpected divergences: nothing to accept\n");
    assert!(!ledger.join("v1--v1").exists());
}

#[test]
fn a_ledger_directory_given_with_ledger_that_does_not_exist_is_an_input_error() {
    let dir = copy_of_testdata();
    let (code, out, err) = run_in(
        dir.path(),
        &["diff", "--old", "v1", "--new", "v1", "--ledger", "nowhere"],
    );
    assert_eq!(code, 2, "{out}");
    assert_eq!(
        err,
        "wireshape: nowhere: cannot read: no such ledger directory (`--ledger`)\n"
    );
    assert!(!dir.path().join("reports/latest").exists(), "no report");
}

/// A glob entry (not `external = true`) is written for the own corpus:
/// a run over other catalogs only does not judge it.
#[test]
fn a_wildcard_ledger_entry_that_matches_nothing_fails_only_a_run_over_the_own_corpus() {
    let dir = copy_of_testdata();
    let ledger = dir.path().join("corpus/ledger/openai-chat.toml");
    let mut text = std::fs::read_to_string(&ledger).unwrap();
    text.push_str("\n[[divergence]]\ncase = \"*\"\nclass = \"rotting\"\nreason = \"no tag of this run\"\nwhen = [\"never:*\"]\n");
    std::fs::write(&ledger, text).unwrap();
    let (code, out, _) = run_in(dir.path(), &["run", "--lanes", LANES]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("\n  ledger unused: ledger entry openai-chat.toml#1 (rotting) matched no case in a run over the corpus it was written for: remove it or fix its `case`\n0 failing cases, 1 unused ledger entries; report: "),
        "{out}"
    );
    // The same catalog, as an external corpus and without the own one.
    let (code, out, _) = run_in(
        dir.path(),
        &[
            "run",
            "--lanes",
            LANES,
            "--own",
            "no-own-corpus",
            "--corpus",
            "corpus/catalogs",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(": 9 identical, 0 reordered, 3 intended, 0 unexpected, 0 errored;"),
        "{out}"
    );
    assert!(!out.contains("ledger unused"), "{out}");
}

#[test]
fn ledger_accept_requires_a_reason() {
    let dir = copy_of_testdata();
    let (code, _, err) = run_in(dir.path(), &["ledger", "accept"]);
    assert_eq!(code, 2);
    assert!(err.contains("--reason <REASON>"), "{err}");
}

#[test]
fn a_broken_ledger_file_is_an_input_error_naming_its_position() {
    let dir = copy_of_testdata();
    std::fs::write(
        dir.path().join("corpus/ledger/openai-chat.toml"),
        "[[divergence]]\ncase = 3\n",
    )
    .unwrap();
    let (code, out, err) = run_in(dir.path(), &["run", "--lanes", LANES]);
    assert_eq!(code, 2, "{out}");
    assert_eq!(
        err,
        "wireshape: corpus/ledger/openai-chat.toml:2:8: invalid type: integer `3`, expected a string\n"
    );
    assert!(
        !dir.path().join("reports/latest").exists(),
        "no half-written report"
    );
}

#[test]
fn the_previous_report_is_rotated_to_previous() {
    let dir = copy_of_testdata();
    assert_eq!(run_in(dir.path(), &["run", "--lanes", "openai-chat"]).0, 0);
    assert_eq!(run_in(dir.path(), &["run", "--lanes", LANES]).0, 0);
    let prev = std::fs::read_to_string(dir.path().join("reports/previous/cases.json")).unwrap();
    let latest = std::fs::read_to_string(dir.path().join("reports/latest/cases.json")).unwrap();
    assert!(!prev.contains("anthropic-messages") && latest.contains("anthropic-messages"));
}

#[test]
fn a_bad_shard_is_a_usage_error() {
    let dir = copy_of_testdata();
    let (code, _, err) = run_in(dir.path(), &["run", "--shard", "5/4"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: invalid value '5/4' for '--shard <K/N>': bad shard `5/4`: expected K/N with 1 <= K <= N\n\n\
         For more information, try '--help'.\n"
    );
}

/// A ledger directory holding one `[[rejection]]` entry for `lane`.
fn rejection_ledger(dir: &Path, lane: &str, case: &str, rule: &str) {
    let led = dir.join("rejections");
    std::fs::create_dir_all(&led).unwrap();
    std::fs::write(
        led.join(format!("{lane}.toml")),
        format!(
            "[[rejection]]\ncase = \"{case}\"\nrules = [\"{rule}\"]\nclass = \"accepted-risk\"\nreason = \"declared by the test\"\n"
        ),
    )
    .unwrap();
}

#[test]
fn a_rejection_old_and_new_share_fails_the_run_unless_a_rejection_entry_declares_it() {
    // verbatim → verbatim: every output identical, so `mini#union`'s root
    // anyOf is a rejection both sides share, counted all the same.
    let dir = copy_of_testdata();
    let args = [
        "diff",
        "--old",
        "verbatim",
        "--new",
        "verbatim",
        "--lanes",
        "anthropic-messages",
        "--ledger",
        "rejections",
    ];
    std::fs::create_dir_all(dir.path().join("rejections")).unwrap();
    let (code, out, _) = run_in(dir.path(), &args);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("  identical  anthropic-messages::mini#union  still-rejected by anthropic-root-composition\n"),
        "{out}"
    );
    let failures = std::fs::read_to_string(dir.path().join("reports/latest/failures.txt")).unwrap();
    assert_eq!(failures, "anthropic-messages::mini#union\n");
    let summary = std::fs::read_to_string(dir.path().join("reports/latest/summary.md")).unwrap();
    assert!(
        summary.contains("| anthropic-messages | 1 | 1 | 0 | 1 |\n"),
        "{summary}"
    );

    rejection_ledger(
        dir.path(),
        "anthropic-messages",
        "mini#union",
        "anthropic-root-*",
    );
    let (code, out, _) = run_in(dir.path(), &args);
    assert_eq!(code, 0, "{out}");
    let summary = std::fs::read_to_string(dir.path().join("reports/latest/summary.md")).unwrap();
    assert!(
        summary.contains("| anthropic-messages | 1 | 1 | 1 | 0 |\n"),
        "{summary}"
    );
}

#[test]
fn a_failed_closed_tool_the_oracle_still_rejects_fails_the_run_unless_declared() {
    // deepseek-strict: v1 fails closed on a bare string root and ships it
    // unchanged, which DeepSeek still rejects.
    let dir = copy_of_testdata();
    let own = dir.path().join("closed");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::write(
        own.join("c.json"),
        r#"{"tools":[{"name":"word","description":"A bare string root.","input_schema":{"type":"string"}}]}"#,
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("rejections")).unwrap();
    let args = [
        "diff",
        "--old",
        "verbatim",
        "--new",
        "v1",
        "--lanes",
        "deepseek-strict",
        "--own",
        "closed",
        "--ledger",
        "rejections",
    ];
    let (code, out, _) = run_in(dir.path(), &args);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("  identical  deepseek-strict::c#word  failed-closed-rejected by deepseek-parameters-must-be-object\n"),
        "{out}"
    );

    rejection_ledger(
        dir.path(),
        "deepseek-strict",
        "c#word",
        "deepseek-parameters-must-be-object",
    );
    let (code, out, _) = run_in(dir.path(), &args);
    assert_eq!(code, 0, "{out}");

    // An entry that covers another rule only does not declare it.
    rejection_ledger(
        dir.path(),
        "deepseek-strict",
        "c#word",
        "deepseek-other-rule",
    );
    let (code, out, _) = run_in(dir.path(), &args);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("ledger unused: ledger entry deepseek-strict.toml#rejection-0 (accepted-risk) matched no case"),
        "{out}"
    );
}

#[test]
fn a_rejection_entry_without_a_reason_is_an_input_error() {
    let dir = copy_of_testdata();
    let led = dir.path().join("rejections");
    std::fs::create_dir_all(&led).unwrap();
    std::fs::write(
        led.join("anthropic-messages.toml"),
        "[[rejection]]\ncase = \"*\"\nrules = [\"*\"]\nclass = \"c\"\nreason = \" \"\n",
    )
    .unwrap();
    let (code, _, err) = run_in(
        dir.path(),
        &[
            "run",
            "--lanes",
            "anthropic-messages",
            "--ledger",
            "rejections",
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("anthropic-messages.toml")
            && err.contains("[[rejection]] entry 0: `reason` is empty"),
        "{err}"
    );
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// `(lane, case)` of every generated case in a report's `cases.json`.
fn fuzz_cases(report: &Path) -> Vec<(String, String)> {
    util::plan_list(&read_json(&report.join("cases.json")))
        .into_iter()
        .filter(|(_, case)| case.starts_with("fuzz/"))
        .collect()
}

/// `lane::case` → sha256 of the old (v0) output, for the generated cases.
fn fuzz_hashes(report: &Path) -> BTreeMap<String, String> {
    util::outcome_list(&read_json(&report.join("outcomes.json")))
        .iter()
        .filter(|o| o["case"].as_str().unwrap().starts_with("fuzz/"))
        .map(|o| {
            (
                format!(
                    "{}::{}",
                    o["lane"].as_str().unwrap(),
                    o["case"].as_str().unwrap()
                ),
                o["old"]["sha256"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn run_fuzz_5_seed_1_plans_fuzz_1_0_to_fuzz_1_4_on_every_lane_the_same_bytes_each_time() {
    let dir = copy_of_testdata();
    let args = |seed: &'static str, out: &'static str| {
        [
            "run", "--lanes", LANES, "--fuzz", "5", "--seed", seed, "--output", out,
        ]
    };
    let (code, out, err) = run_in(dir.path(), &args("1", "a"));
    let (code_b, _, _) = run_in(
        dir.path(),
        &[&args("1", "b")[..], &["--jobs", "1"]].concat(),
    );
    let a = dir.path().join("a");

    // The plan: 5 generated cases on each of the 3 lanes, beside the mini corpus.
    let mut expected = Vec::new();
    for lane in ["anthropic-messages", "openai-chat", "openai-responses"] {
        for i in 0..5 {
            expected.push((lane.to_owned(), format!("fuzz/1#{i}")));
        }
    }
    assert_eq!(fuzz_cases(&a), expected);
    assert_eq!(
        fuzz_hashes(&a).len(),
        15,
        "every planned case has its outcome"
    );
    assert_eq!(
        read_json(&a.join("run.json"))["fuzz"],
        serde_json::json!({"count": 5, "seed": 1})
    );

    // Same seed, same bytes (scheduling aside).
    assert_eq!(code, code_b);
    let (ra, rb) = (report_files(&a), report_files(&dir.path().join("b")));
    assert_eq!(ra.keys().collect::<Vec<_>>(), rb.keys().collect::<Vec<_>>());
    for (name, bytes) in &ra {
        assert!(
            bytes == &rb[name],
            "{name} differs between two runs of seed 1"
        );
    }

    // The exit code follows the usual rules, generated cases included.
    let outcomes = read_json(&a.join("outcomes.json"));
    let failures = std::fs::read_to_string(a.join("failures.txt")).unwrap();
    let unused = outcomes["summary"]["unused_ledger_entries"]
        .as_u64()
        .unwrap();
    assert_eq!(
        i64::from(code),
        outcomes["summary"]["exit_code"].as_i64().unwrap()
    );
    assert_eq!(
        code,
        i32::from(!failures.is_empty() || unused > 0),
        "{out}{err}"
    );

    // Failing generated cases are named with their seed and how to plan them again.
    let failing: Vec<&str> = failures
        .lines()
        .filter(|k| k.contains("::fuzz/1#"))
        .collect();
    let summary = std::fs::read_to_string(a.join("summary.md")).unwrap();
    let among = match failing.len() {
        1 => "1 failing case".to_owned(),
        n => format!("{n} failing cases"),
    };
    assert!(
        summary.contains(&format!(
            "\nfuzz: 5 generated schemas, seed 1 (reproduce: `wireshape run --fuzz 5 --seed 1`, plus `--lanes <lane>` for one lane); {among} among them.\n"
        )),
        "{summary}"
    );
    let mut lanes: Vec<&str> = failing
        .iter()
        .map(|k| k.split_once("::").unwrap().0)
        .collect();
    lanes.dedup();
    let line = if lanes.is_empty() {
        "  fuzz: 5 generated schemas, seed 1, no failing case (wireshape run --fuzz 5 --seed 1)\n"
            .to_owned()
    } else {
        format!(
            "  fuzz: 5 generated schemas, seed 1; reproduce: wireshape run --fuzz 5 --seed 1 --lanes {}\n",
            lanes.join(",")
        )
    };
    assert!(out.contains(&line), "{out}");

    // Another seed, other tools.
    run_in(dir.path(), &args("2", "c"));
    let (one, two) = (fuzz_hashes(&a), fuzz_hashes(&dir.path().join("c")));
    let chat = |h: &BTreeMap<String, String>| -> std::collections::BTreeSet<String> {
        h.iter()
            .filter(|(k, _)| k.starts_with("openai-chat::"))
            .map(|(_, v)| v.clone())
            .collect()
    };
    // v0 ships openai-chat tools verbatim: its hashes are the tools'.
    assert_eq!(chat(&one).len(), 5);
    assert!(
        chat(&one).is_disjoint(&chat(&two)),
        "seeds 1 and 2 share a tool"
    );
}

#[test]
fn fuzz_without_seed_uses_seed_0_and_the_env_twins_and_diff_take_it_too() {
    let dir = copy_of_testdata();
    run_in(
        dir.path(),
        &[
            "run",
            "--lanes",
            "openai-chat",
            "--fuzz",
            "2",
            "--output",
            "zero",
        ],
    );
    assert_eq!(
        fuzz_cases(&dir.path().join("zero")),
        [
            ("openai-chat".to_owned(), "fuzz/0#0".to_owned()),
            ("openai-chat".to_owned(), "fuzz/0#1".to_owned())
        ]
    );

    let out = wireshape(dir.path())
        .args(["run", "--lanes", "openai-chat", "--output", "env"])
        .env("WIRESHAPE_FUZZ", "2")
        .env("WIRESHAPE_FUZZ_SEED", "3")
        .output()
        .unwrap();
    assert!(out.status.code().is_some());
    assert_eq!(
        fuzz_cases(&dir.path().join("env")),
        [
            ("openai-chat".to_owned(), "fuzz/3#0".to_owned()),
            ("openai-chat".to_owned(), "fuzz/3#1".to_owned())
        ]
    );

    run_in(
        dir.path(),
        &[
            "diff",
            "--old",
            "v0",
            "--new",
            "verbatim",
            "--lanes",
            "openai-chat",
            "--fuzz",
            "1",
            "--seed",
            "4",
            "--output",
            "diff",
        ],
    );
    let summary = std::fs::read_to_string(dir.path().join("diff/summary.md")).unwrap();
    assert!(
        summary.contains(
            "(reproduce: `wireshape diff --old v0 --new verbatim --fuzz 1 --seed 4`, plus"
        ),
        "{summary}"
    );
}

#[test]
fn seed_without_fuzz_is_a_usage_error() {
    let dir = copy_of_testdata();
    let (code, _, err) = run_in(dir.path(), &["run", "--seed", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("--fuzz <N>"), "{err}");
}

#[test]
fn fuzz_cases_are_sharded_and_two_shards_merge_into_the_unsharded_report() {
    let dir = copy_of_testdata();
    let run = |extra: &[&str], out: &str| {
        let args = [
            &[
                "run", "--lanes", LANES, "--fuzz", "5", "--seed", "1", "--output", out,
            ][..],
            extra,
        ]
        .concat();
        run_in(dir.path(), &args).0
    };
    let whole = run(&[], "whole");
    run(&["--shard", "1/2"], "s1");
    run(&["--shard", "2/2"], "s2");
    let (s1, s2) = (
        fuzz_cases(&dir.path().join("s1")),
        fuzz_cases(&dir.path().join("s2")),
    );
    assert!(!s1.is_empty() && !s2.is_empty(), "{s1:?} {s2:?}");
    let mut both = [s1, s2].concat();
    both.sort();
    assert_eq!(both, fuzz_cases(&dir.path().join("whole")));

    let (code, out, _) = run_in(
        dir.path(),
        &["report", "merge", "s1", "s2", "--output", "merged"],
    );
    assert_eq!(code, whole, "{out}");
    let (w, m) = (
        report_files(&dir.path().join("whole")),
        report_files(&dir.path().join("merged")),
    );
    assert_eq!(w.keys().collect::<Vec<_>>(), m.keys().collect::<Vec<_>>());
    for (name, bytes) in &w {
        assert!(
            bytes == &m[name],
            "{name}: merged shards differ from the whole run"
        );
    }
}

#[test]
fn the_default_run_on_the_own_corpus_is_clean_and_compares_every_catalogs_requests() {
    // The project's own corpus and ledger (pins included), as `wireshape run` sees them.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = tempfile::tempdir().unwrap();
    let report = out.path().join("report");
    let (code, stdout, err) = run_in(
        &root,
        &["run", "--quiet", "--output", report.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{stdout}{err}");
    assert!(
        stdout.contains(
            "\nrequests: 40 compared: 0 identical, 40 differ inside judged tools, 0 recorded member changes, 0 failing\n"
        ),
        "{stdout}"
    );
    let outcomes = read_json(&report.join("outcomes.json"));
    let requests = outcomes["requests"].as_array().unwrap();
    assert_eq!(requests.len(), 40, "4 catalogs × 5 lanes × 2 kinds");
    assert_eq!(
        outcomes["summary"]["requests"]["anthropic-compatible"],
        serde_json::json!({"compared": 8, "identical": 0, "inside_tools": 8, "recorded": 0, "failures": 0})
    );
    // Every seed pin was checked and held.
    let pins = outcomes["ledger_use"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["table"] == "pin")
        .count();
    assert_eq!(pins, 31);
    let summary = std::fs::read_to_string(report.join("summary.md")).unwrap();
    assert!(summary.contains("\n## Requests\n"), "{summary}");
}

/// Every lane over the own corpus alone: clean, and no ledger entry written
/// for the shared corpus (`json-schema-test-suite/*`, `jsonschemabench/*`,
/// or a `*` seen only there: `external = true`) is reported unused, since
/// that corpus was not part of the run (DESIGN: the ledger must not break
/// runs over other corpora).
#[test]
fn every_lane_over_the_own_corpus_alone_is_clean_with_no_unused_ledger_entry() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = tempfile::tempdir().unwrap();
    let report = out.path().join("report");
    let lanes: Vec<&str> = wireshape::Lane::ALL.iter().map(|l| l.id()).collect();
    let lanes = lanes.join(",");
    // `wireshape` strips every WIRESHAPE_* variable: the own corpus only.
    let (code, stdout, err) = run_in(
        &root,
        &[
            "run",
            "--lanes",
            &lanes,
            "--quiet",
            "--output",
            report.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{stdout}{err}");
    assert!(
        stdout.starts_with("wireshape v0 → v1: 6432 cases in "),
        "{stdout}"
    );
    assert!(!stdout.contains("ledger unused"), "{stdout}");
    let outcomes = read_json(&report.join("outcomes.json"));
    assert_eq!(outcomes["summary"]["unused_ledger_entries"], 0);
    assert_eq!(outcomes["summary"]["failures"], 0);
}

/// v1 → v1 reads its own ledger (corpus/ledger/v1--v1, absent: empty), not
/// v0 → v1's: none of the latter's entries is judged, so none is unused.
#[test]
fn diff_old_v1_new_v1_on_the_own_corpus_reports_no_unused_v0_v1_ledger_entry() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    assert!(!root.join("corpus/ledger/v1--v1").exists());
    let out = tempfile::tempdir().unwrap();
    let report = out.path().join("report");
    // `wireshape` strips every WIRESHAPE_* variable (WIRESHAPE_CORPUS_PATH
    // included): the own corpus only.
    let (code, stdout, err) = run_in(
        &root,
        &[
            "diff",
            "--old",
            "v1",
            "--new",
            "v1",
            "--quiet",
            "--output",
            report.to_str().unwrap(),
        ],
    );
    // Exit 1, for another reason than the ledger: every case is identical,
    // but the judgements of a new output (not of a change) still apply, and
    // only v0 → v1's ledger declares them: 12 v1 outputs the oracle rejects
    // (failed closed on anthropic-messages and deepseek-strict, declared
    // there by `[[rejection]]` entries) and 88 changes of meaning against
    // the author's schema (`[[narrowing]]`/`[[widening]]` entries there).
    assert_eq!(code, 1, "{stdout}{err}");
    assert!(
        stdout.starts_with(
            "wireshape v1 → v1: 2010 cases in "
        ) && stdout.contains(
            ": 2010 identical, 0 reordered, 0 intended, 0 unexpected, 0 errored; oracle: 0 fixes, 0 regressions, 13 old and 13 new outputs rejected (0 declared)\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(&format!(
            "\n101 failing cases, 0 unused ledger entries; report: {}\n",
            report.display()
        )),
        "{stdout}"
    );
    let outcomes = read_json(&report.join("outcomes.json"));
    assert_eq!(outcomes["ledger_use"], serde_json::json!([]));
    assert_eq!(outcomes["ledger_issues"], serde_json::json!([]));
    let summary = &outcomes["summary"];
    assert_eq!(summary["unused_ledger_entries"], 0);
    assert_eq!(summary["failures"], 101);
    let total = |what: &str, field: &str| -> u64 {
        summary[what]
            .as_object()
            .unwrap()
            .values()
            .map(|lane| lane[field].as_u64().unwrap())
            .sum()
    };
    assert_eq!(
        (total("rejected", "new"), total("rejected", "declared")),
        (13, 0)
    );
    assert_eq!(total("semantic", "new_undeclared"), 88);
}

/// A shard whose `cases.json` names a lane wireshape does not know is an
/// input error naming the file and the position, never a default lane.
#[test]
fn report_merge_of_a_shard_with_an_unknown_lane_fails_naming_the_file() {
    let dir = copy_of_testdata();
    let (code, out, _) = run_in(
        dir.path(),
        &["run", "--lanes", LANES, "--shard", "1/2", "--output", "s1"],
    );
    assert_eq!(code, 0, "{out}");
    let cases = dir.path().join("s1/cases.json");
    let text = std::fs::read_to_string(&cases).unwrap().replacen(
        r#""openai-chat""#,
        r#""openai-legacy""#,
        1,
    );
    // The first mention is in the `lanes` line; serde names the column
    // just past the value.
    let (line, column) = text
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.find(r#""openai-legacy""#).map(|at| (i + 1, at + 16)))
        .expect("an openai-chat lane");
    std::fs::write(&cases, &text).unwrap();
    let (code, _, err) = run_in(dir.path(), &["report", "merge", "s1", "--output", "merged"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err,
        format!(
            "wireshape: {}:{line}:{column}: unknown lane `openai-legacy` (see `wireshape lanes`)\n",
            Path::new("s1").join("cases.json").display()
        )
    );
    assert!(!dir.path().join("merged").exists());
}
