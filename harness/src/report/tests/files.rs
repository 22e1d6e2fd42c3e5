//! The directory: the files written, their determinism, the `*.txt`
//! lists and `divergences.jsonl`, reading back, rotation, atomicity, shards.

use super::*;
use crate::exit_code::ExitStatus;
use crate::outcome::merge_reports;
use crate::outdir::OutputError;
use crate::report::files::{CASES_JSON, DIVERGENCES_JSONL, OUTCOMES_JSON};
use crate::report::{ReportError, ReportWriter, read_report};

#[test]
fn writing_the_same_report_twice_gives_identical_files_except_run_json() {
    // Arrange
    let tmp = tempfile::tempdir().unwrap();
    let report = sample();
    // Act
    let a = write_report(
        &tmp.path().join("a"),
        &report,
        &meta("2026-01-01T00:00:00Z"),
    )
    .unwrap();
    let b = write_report(
        &tmp.path().join("b"),
        &report,
        &meta("2026-02-02T00:00:00Z"),
    )
    .unwrap();
    // Assert
    assert_eq!(
        names(&a),
        [
            "cases.json",
            "data",
            "divergences.jsonl",
            "errored.txt",
            "failures.txt",
            "identical.txt",
            "index.html",
            "intended.txt",
            "junit.xml",
            "outcomes.json",
            "reordered.txt",
            "run.json",
            "summary.md",
            "unexpected.txt",
            "violations.txt",
        ]
    );
    assert_same_files_except_run_json(&a, &b);
    assert_ne!(read(&a, RUN_JSON), read(&b, RUN_JSON));
    for (name, bytes) in files(&a) {
        assert!(
            bytes.is_empty() || bytes.ends_with(b"\n"),
            "{name} does not end with a newline"
        );
    }
}

#[test]
fn read_report_of_write_report_round_trips_the_run_report_and_run_json() {
    let tmp = tempfile::tempdir().unwrap();
    let report = sample();
    let dir = write_report(&tmp.path().join("latest"), &report, &meta("t")).unwrap();
    let (back, back_meta) = read_report(&dir).unwrap();
    assert_eq!(back, report);
    assert_eq!(back_meta, meta("t"));
}

#[test]
fn txt_lists_hold_one_sorted_key_per_line_per_class() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_report(&tmp.path().join("latest"), &sample(), &meta("t")).unwrap();
    assert_eq!(
        read(&dir, "identical.txt"),
        "anthropic-messages::a#same\nopenai-chat::o#ok\nopenai-chat::o#plain\nopenai-chat::o#same\n"
    );
    assert_eq!(read(&dir, "reordered.txt"), "anthropic-messages::a#order\n");
    assert_eq!(read(&dir, "intended.txt"), "gemini-openapi::g#enum\n");
    assert_eq!(
        read(&dir, "unexpected.txt"),
        format!("anthropic-messages::{NASTY}\n")
    );
    assert_eq!(read(&dir, "errored.txt"), "gemini-openapi::g#boom\n");
    assert_eq!(
        read(&dir, "violations.txt"),
        "openai-chat::o#same idempotence v1\n"
    );
    assert_eq!(
        read(&dir, "failures.txt"),
        format!("anthropic-messages::{NASTY}\ngemini-openapi::g#boom\nopenai-chat::o#same\n")
    );
    let clean = report_from(Vec::new(), Vec::new(), Vec::new());
    let dir = write_report(&tmp.path().join("clean"), &clean, &meta("t")).unwrap();
    assert_eq!(read(&dir, "unexpected.txt"), "");
    assert_eq!(read(&dir, "failures.txt"), "");
}

#[test]
fn divergences_jsonl_has_failing_declared_violation_ledger_and_unusable_lines_in_that_order() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_report(&tmp.path().join("latest"), &sample(), &meta("t")).unwrap();
    let text = read(&dir, DIVERGENCES_JSONL);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<String> = lines
        .iter()
        .map(|l| {
            let key = l
                .get("case")
                .or(l.get("file"))
                .or(l.get("path"))
                .or(l.get("class"))
                .unwrap();
            format!("{} {}", l["type"].as_str().unwrap(), key.as_str().unwrap())
        })
        .collect();
    // The failing cases one by one (the unexpected, the errored, and the
    // identical one that violates an invariant), the declared (intended
    // and reordered) cases counted by ledger class and lane.
    assert_eq!(
        kinds,
        [
            &format!("divergence {NASTY}"),
            "divergence g#boom",
            "divergence o#same",
            "declared intended",
            "declared reordered",
            "violation o#same",
            "ledger anthropic.toml",
            "ledger gemini.toml",
            "unusable corpus/broken.json",
        ]
    );
    let boom = text.lines().nth(1).unwrap();
    assert_eq!(
        boom,
        r#"{"type":"divergence","lane":"gemini-openapi","case":"g#boom","class":"errored","tags":["outcome:shaped->errored"]}"#
    );
    assert_eq!(
        text.lines().nth(3).unwrap(),
        r#"{"type":"declared","lane":"gemini-openapi","class":"intended","cases":1,"entries":["gemini.toml#0"]}"#
    );
    assert_eq!(
        text.lines().nth(4).unwrap(),
        r#"{"type":"declared","lane":"anthropic-messages","class":"reordered","cases":1,"entries":["anthropic.toml#0"]}"#
    );
    assert_eq!(
        text.lines().last().unwrap(),
        r#"{"type":"unusable","path":"corpus/broken.json","reason":"corpus/broken.json:3:1: expected value"}"#
    );
}

#[test]
fn latest_is_rotated_to_previous_and_only_one_previous_is_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let latest = tmp.path().join("latest");
    let mut reports = Vec::new();
    for new in ["v1", "v2", "v3"] {
        let mut r = sample();
        r.new = new.to_owned();
        for o in &mut r.outcomes {
            o.new.pipeline = new.to_owned();
        }
        write_report(&latest, &r, &meta(new)).unwrap();
        reports.push(r);
    }
    assert_eq!(names(tmp.path()), [".latest.lock", "latest", "previous"]);
    assert_eq!(read_report(&latest).unwrap().0, reports[2]);
    assert_eq!(
        read_report(&tmp.path().join("previous")).unwrap().0,
        reports[1]
    );
}

#[test]
fn a_report_dir_not_named_latest_is_rotated_to_name_dot_previous() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("nightly");
    write_report(&dir, &sample(), &meta("1")).unwrap();
    write_report(&dir, &sample(), &meta("2")).unwrap();
    assert_eq!(
        names(tmp.path()),
        [".nightly.lock", "nightly", "nightly.previous"]
    );
    assert_eq!(
        read_report(&tmp.path().join("nightly.previous")).unwrap().1,
        meta("1")
    );
}

#[test]
fn a_write_error_mid_report_leaves_the_existing_report_untouched_and_no_temp_dir() {
    // Arrange: a finished report, then a writer whose outcomes.json cannot be written.
    let tmp = tempfile::tempdir().unwrap();
    let latest = tmp.path().join("latest");
    write_report(&latest, &sample(), &meta("old")).unwrap();
    let before = files(&latest);
    let writer = ReportWriter::create(&latest, &sample().plan).unwrap();
    fs::create_dir(writer.tmp.join(OUTCOMES_JSON)).unwrap();
    // Act
    let err = writer.finish(&sample(), &meta("new")).unwrap_err();
    // Assert
    assert!(
        err.to_string().contains("outcomes.json: cannot write"),
        "{err}"
    );
    assert_eq!(err.exit_status(), ExitStatus::Internal);
    assert_eq!(files(&latest), before);
    assert_eq!(names(tmp.path()), [".latest.lock", "latest"]);
}

#[test]
fn a_report_under_a_file_fails_naming_the_path_and_leaves_no_temp_dir() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("reports");
    fs::write(&file, "not a directory").unwrap();
    let err = write_report(&file.join("latest"), &sample(), &meta("t")).unwrap_err();
    assert!(
        err.to_string()
            .starts_with(&format!("{}: cannot create directory", file.display())),
        "{err}"
    );
    assert_eq!(err.exit_status(), ExitStatus::Internal);
    assert_eq!(names(tmp.path()), ["reports"]);
    assert_eq!(fs::read_to_string(&file).unwrap(), "not a directory");
}

#[test]
fn a_directory_that_is_not_a_report_is_never_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("src");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("main.rs"), "fn main() {}").unwrap();
    let err = write_report(&dir, &sample(), &meta("t")).unwrap_err();
    assert!(
        matches!(err, ReportError::Output(OutputError::NotAReport { .. })),
        "{err}"
    );
    assert_eq!(err.exit_status(), ExitStatus::Usage);
    assert_eq!(names(tmp.path()), ["src"]);
    assert_eq!(names(&dir), ["main.rs"]);
}

#[test]
fn progress_writes_partial_outcomes_json_into_the_temp_dir_only() {
    let tmp = tempfile::tempdir().unwrap();
    let latest = tmp.path().join("latest");
    let report = sample();
    let mut writer = ReportWriter::create(&latest, &report.plan).unwrap();
    let tmp_dir = writer.tmp.clone();
    assert_eq!(
        names(tmp.path()),
        [
            ".latest.lock".to_owned(),
            format!(".latest.tmp-{}", std::process::id())
        ]
    );
    let cases: serde_json::Value = serde_json::from_str(&read(&tmp_dir, CASES_JSON)).unwrap();
    // The sample's lanes have no case in common: every case is in `only`.
    assert_eq!(cases["cases"], serde_json::json!([]));
    let only: usize = cases["only"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_array().unwrap().len())
        .sum();
    assert_eq!(only, report.plan.len());

    let mut spilled = crate::report::Spilled::new("v0", "v1");
    for o in &report.outcomes[..2] {
        crate::OutcomeSink::put(&mut spilled, o.clone());
    }
    writer.progress_spilled(&spilled).unwrap();

    assert!(!latest.exists());
    let partial: serde_json::Value = serde_json::from_str(&read(&tmp_dir, OUTCOMES_JSON)).unwrap();
    assert_eq!(
        partial["outcomes"]["anthropic-messages"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(
        partial["summary"],
        serde_json::to_value(Summary::default()).unwrap()
    );
    assert_eq!(names(&tmp_dir), [CASES_JSON, OUTCOMES_JSON]);

    writer.finish(&report, &meta("t")).unwrap();
    assert_eq!(names(tmp.path()), [".latest.lock", "latest"]);
    assert_eq!(read_report(&latest).unwrap().0, report);
}

#[test]
fn dropping_a_writer_without_finish_removes_its_temp_dir() {
    let tmp = tempfile::tempdir().unwrap();
    let writer =
        ReportWriter::create(&tmp.path().join("latest"), &crate::outcome::Plan::default()).unwrap();
    assert_eq!(
        names(tmp.path()),
        [
            ".latest.lock".to_owned(),
            format!(".latest.tmp-{}", std::process::id())
        ]
    );
    drop(writer);
    assert_eq!(names(tmp.path()), [".latest.lock"]);
}

#[test]
fn read_report_names_path_line_and_column_of_a_malformed_outcomes_json() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_report(&tmp.path().join("latest"), &sample(), &meta("t")).unwrap();
    fs::write(dir.join(OUTCOMES_JSON), "{\n  \"old\": ,\n}").unwrap();
    let err = read_report(&dir).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("{}:2:10: expected value", dir.join(OUTCOMES_JSON).display())
    );
}

#[test]
fn merged_shard_halves_write_the_same_files_as_the_unsharded_report() {
    // Arrange: split the outcomes between two shards; each shard counts
    // its own ledger uses, so an entry used by one shard is unused in the other.
    let (outcomes, uses, issues) = sample_parts();
    let (mut first, mut second) = (Vec::new(), Vec::new());
    for (i, o) in outcomes.iter().cloned().enumerate() {
        if i % 2 == 0 {
            first.push(o);
        } else {
            second.push(o);
        }
    }
    let shard_uses = |shard: &[CaseOutcome]| -> Vec<LedgerUse> {
        uses.iter()
            .map(|u| LedgerUse {
                uses: shard
                    .iter()
                    .flat_map(|o| &o.ledger)
                    .filter(|m| (&m.file, m.index) == (&u.file, u.index))
                    .count(),
                ..u.clone()
            })
            .collect()
    };
    let a = report_from(first.clone(), shard_uses(&first), issues.clone());
    let b = report_from(second.clone(), shard_uses(&second), Vec::new());
    let unsharded = report_from(outcomes, uses.clone(), issues);
    // Act
    let merged = merge_reports(vec![a, b]);
    let tmp = tempfile::tempdir().unwrap();
    let m = write_report(&tmp.path().join("merged"), &merged, &meta("1")).unwrap();
    let u = write_report(&tmp.path().join("unsharded"), &unsharded, &meta("2")).unwrap();
    // Assert
    assert_eq!(merged, unsharded);
    assert_same_files_except_run_json(&m, &u);
}

#[test]
fn read_report_refuses_an_unknown_lane_in_cases_json_naming_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_report(&tmp.path().join("latest"), &sample(), &meta("t")).unwrap();
    fs::write(
        dir.join(CASES_JSON),
        "{\n\"format\": 3,\n\"old\": \"v0\",\n\"new\": \"v1\",\n\"lanes\": [\"anthropic-legacy\"],\n\"only\": {},\n\"cases\": [\n\"a#x\"\n]\n}\n",
    )
    .unwrap();
    let err = read_report(&dir).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}:5:29: unknown lane `anthropic-legacy` (see `wireshape lanes`)",
            dir.join(CASES_JSON).display()
        )
    );
}

#[test]
fn read_report_refuses_an_unknown_lane_in_outcomes_json_naming_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_report(&tmp.path().join("latest"), &sample(), &meta("t")).unwrap();
    let text = read(&dir, OUTCOMES_JSON).replacen(r#""gemini-openapi": ["#, r#""gemini": ["#, 1);
    fs::write(dir.join(OUTCOMES_JSON), &text).unwrap();
    let err = read_report(&dir).unwrap_err();
    // Line 20 opens the gemini-openapi outcomes (one outcome a line);
    // serde names the column of the key's last character.
    assert_eq!(
        err.to_string(),
        format!(
            "{}:20:8: unknown lane `gemini` (see `wireshape lanes`)",
            dir.join(OUTCOMES_JSON).display()
        )
    );
}

#[test]
fn outcomes_json_writes_each_thing_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_report(&tmp.path().join("latest"), &sample(), &meta("t")).unwrap();
    let text = read(&dir, OUTCOMES_JSON);
    // An identical case: no class (identical), one side (the new one
    // equals it), no pipeline name, no default outcome, no empty list.
    assert!(
        text.contains(&format!(
            "\n{{\"case\":\"a#same\",\"old\":{{\"sha256\":\"{}\"}}}},\n",
            "a".repeat(64)
        )),
        "{text}"
    );
    // A ledger match and a tag are indices into the `ledger` table, which
    // holds the reason once, and the `tags` table.
    assert!(text.contains(r#"{"case":"g#enum","class":"intended","tags":[0],"ledger":[1],"old":"#));
    assert!(text.contains(
        "\n\"tags\": [\"new:enum:rewritten\",\"new:pattern:removed\",\"old:<b>&amp;:kept\",\"order:properties\",\"outcome:shaped->errored\"],\n"
    ), "{text}");
    assert!(text.contains(
        "\n\"ledger\": [{\"file\":\"anthropic.toml\",\"index\":0,\"class\":\"reordered\",\"reason\":\"v1 drops `pattern` on purpose\"},{\"file\":\"gemini.toml\",\"index\":0,\"class\":\"intended\",\"reason\":\"v1 drops `pattern` on purpose\"}],\n"
    ));
    // No schema bytes: the wire pairs are in the lane files only.
    assert!(!text.contains("\"wire\""));
    assert!(!text.contains("pattern\\\""));
    assert!(read(&dir, "data/gemini-openapi.js").contains(r#""unified":"--- v0\n+++ v1\n"#));
    assert!(text.starts_with("{\n\"format\": 3,\n\"old\": \"v0\",\n"));
}

#[test]
fn cases_json_names_a_case_planned_on_every_lane_once() {
    let outcomes: Vec<CaseOutcome> = ["anthropic-messages", "gemini-openapi", "openai-chat"]
        .iter()
        .flat_map(|lane| {
            [
                case(lane, "c#1", Class::Identical, &[]),
                case(lane, "c#2", Class::Identical, &[]),
            ]
        })
        .chain([case("openai-chat", "c#3", Class::Identical, &[])])
        .collect();
    let report = report_from(outcomes, Vec::new(), Vec::new());
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_report(&tmp.path().join("latest"), &report, &meta("t")).unwrap();
    assert_eq!(
        read(&dir, CASES_JSON),
        "{\n\"format\": 3,\n\"old\": \"v0\",\n\"new\": \"v1\",\n\"lanes\": [\"anthropic-messages\",\"gemini-openapi\",\"openai-chat\"],\n\"only\": {\"openai-chat\":[\"c#3\"]},\n\"cases\": [\n\"c#1\",\n\"c#2\"\n]\n}\n"
    );
    assert_eq!(read_report(&dir).unwrap().0.plan, report.plan);
}

#[test]
fn read_report_refuses_a_report_of_the_previous_format_naming_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_report(&tmp.path().join("latest"), &sample(), &meta("t")).unwrap();
    // cases.json as format 1 wrote it.
    fs::write(
        dir.join(CASES_JSON),
        "{\n\"old\": \"v0\",\n\"new\": \"v1\",\n\"cases\": [\n{\"lane\":\"openai-chat\",\"case\":\"o#ok\"}\n]\n}\n",
    )
    .unwrap();
    let err = read_report(&dir).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: no `format` member (format 1): this wireshape reads report format 3; run it again with this version",
            dir.join(CASES_JSON).display()
        )
    );
    assert_eq!(err.exit_status(), ExitStatus::Usage);
}

#[test]
fn read_report_names_the_lane_file_and_line_of_a_malformed_detail() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_report(&tmp.path().join("latest"), &sample(), &meta("t")).unwrap();
    let path = dir.join("data/gemini-openapi.js");
    let text =
        fs::read_to_string(&path)
            .unwrap()
            .replacen("\"unified\":", "\"unified\":1,\"x\":", 1);
    fs::write(&path, text).unwrap();
    let err = read_report(&dir).unwrap_err().to_string();
    assert!(err.starts_with(&format!("{}:", path.display())), "{err}");
    let line: usize = err[path.display().to_string().len() + 1..]
        .split(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let bad = fs::read_to_string(&path)
        .unwrap()
        .lines()
        .position(|l| l.contains("\"unified\":1"))
        .unwrap();
    assert_eq!(line, bad + 1, "{err}");
    fs::write(&path, "{}").unwrap();
    assert_eq!(
        read_report(&dir).unwrap_err().to_string(),
        format!(
            "{}:1:1: a lane data file starts with `wireshapeLane(` and ends with `);`",
            path.display()
        )
    );
}

/// The table of `outcomes.json`: equal verdicts held apart once, in the
/// order of their text; a verdict found by its address, or else by its
/// text; one not in the table has no position.
#[test]
fn the_semantic_table_finds_a_verdict_by_address_or_by_text() {
    use crate::semantic::{SemanticClass, Semantics};
    let widened = Arc::new(Semantics::plain(SemanticClass::Widened, 3));
    let preserved = Arc::new(Semantics::plain(SemanticClass::Preserved, 3));
    let again = Arc::new(Semantics::plain(SemanticClass::Widened, 3));
    let mut a = case("openai-chat", "c#1", Class::Intended, &[]);
    a.old.semantic = Some(Arc::clone(&widened));
    a.new.semantic = Some(Arc::clone(&preserved));
    let mut b = case("xai", "c#1", Class::Intended, &[]);
    b.new.semantic = Some(Arc::clone(&again));
    let outcomes = [&a, &b];
    let table = crate::report::stored::SemanticTable::new(&outcomes);
    assert_eq!(
        table.values(),
        [&*preserved, &*widened],
        "by text: {{\"class\":\"preserved\"… before {{\"class\":\"widened\"…"
    );
    assert_eq!(
        [&widened, &preserved, &again].map(|s| table.index(s)),
        [Some(1), Some(0), Some(1)]
    );
    let elsewhere = Semantics::plain(SemanticClass::Preserved, 3);
    assert_eq!(table.index(&elsewhere), Some(0));
    let unknown = Semantics::plain(SemanticClass::Preserved, 4);
    assert_eq!(table.index(&unknown), None);
}

#[test]
fn a_semantic_verdict_is_written_once_and_sides_point_into_the_table() {
    let verdict = crate::semantic::Semantics::plain;
    let preserved = verdict(crate::semantic::SemanticClass::Preserved, 44);
    let outcomes: Vec<CaseOutcome> = ["anthropic-messages", "openai-chat"]
        .iter()
        .map(|lane| {
            let mut o = case(lane, "c#1", Class::Intended, &[]);
            o.old.semantic = Some(Arc::new(preserved.clone()));
            o.new.semantic = Some(Arc::new(verdict(
                crate::semantic::SemanticClass::Widened,
                44,
            )));
            o
        })
        .collect();
    let report = report_from(outcomes, Vec::new(), Vec::new());
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_report(&tmp.path().join("latest"), &report, &meta("t")).unwrap();
    let text = read(&dir, OUTCOMES_JSON);
    // Two verdicts, each once, ordered by their JSON text; four sides name them.
    assert!(text.contains(
        "\n\"semantics\": [{\"class\":\"preserved\",\"instances\":44},{\"class\":\"widened\",\"instances\":44}],\n"
    ), "{text}");
    assert_eq!(text.matches(r#""old":{"sha256":"#).count(), 2);
    assert_eq!(text.matches(r#""semantic":0}"#).count(), 2);
    assert_eq!(text.matches(r#""semantic":1}"#).count(), 2);
    assert_eq!(read_report(&dir).unwrap().0.outcomes, report.outcomes);
    // An index past the table is an error naming the file and the case.
    fs::write(
        dir.join(OUTCOMES_JSON),
        text.replacen(r#""semantic":1}"#, r#""semantic":2}"#, 1),
    )
    .unwrap();
    let err = read_report(&dir).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: anthropic-messages::c#1: semantics index 2 is past the 2-entry `semantics` table",
            dir.join(OUTCOMES_JSON).display()
        )
    );
}
