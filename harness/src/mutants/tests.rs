//! The runner's unit tests: pass examples against their snapshots, the plan,
//! witnesses, the budget, equivalent entries, the summary and the lists.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::evidence::{Equivalent, EquivalentOn};
use super::examples::{
    ExampleFile, PassExample, SNAPSHOT_NAME, expected_text, load_expected, run_example,
    snapshot_body,
};
use super::judge::{Evidence, MutantOutcome, apply_equivalent};
use super::plan::MutantKind;
use super::summary::{PassCounts, percent};
use super::writer::list;
use super::*;
use crate::differential::PlannedCase;
use crate::lane::Lane;
use crate::pipeline::{PipelineConfig, Profile};
use crate::tool::Tool;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

/// Every example file's outputs match its accepted insta snapshot
/// (`harness/src/snapshots/pass-examples@<file>.snap`), one snapshot per
/// file. A pass that changes an output fails here; accept the change
/// with `cargo insta review` (or `INSTA_UPDATE=always` and `git diff`).
/// `wireshape mutants` reads the same snapshots as the expected outputs.
#[test]
fn pass_examples_match_their_snapshots() {
    let config = PipelineConfig::load(&corpus().join("config.toml")).unwrap();
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    // The snapshots stay in `harness/src/snapshots`, where
    // `wireshape mutants --example-snapshots` reads them by default.
    settings.set_snapshot_path("../snapshots");
    settings.bind(|| {
        insta::glob!("../../../corpus/pass-examples", "*.json", |path| {
            let file: ExampleFile =
                serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            insta::assert_snapshot!(SNAPSHOT_NAME, expected_text(&file, &config));
        });
    });
}

/// Three corpus cases on openai-strict, no ledger, recordings or examples.
fn strict_evidence() -> MutantEvidence {
    use crate::outcome::CasePlan;
    let lane = Lane::OpenaiStrict;
    let case = |id: &str, schema: serde_json::Value| PlannedCase {
        plan: CasePlan {
            lane,
            case: format!("t#{id}").into(),
        },
        lane,
        tool: crate::catalog::CorpusTool::parsed(Tool::new(id, schema), Vec::new()),
        external: false,
        generated: false,
        semantic_memo: None,
    };
    let string = serde_json::json!({"type": "string"});
    MutantEvidence {
        cases: Arc::from(vec![
            // Both passes act, and the largest input: a witness too.
            case(
                "big",
                serde_json::json!({"type": "object", "description": "a long description",
                        "properties": {"a": string, "b": string}}),
            ),
            // The smallest input: already closed and required, so
            // the order of the two passes changes nothing here.
            case(
                "plain",
                serde_json::json!({"type": "object", "additionalProperties": false}),
            ),
            case(
                "small",
                serde_json::json!({"type": "object", "properties": {"a": string}}),
            ),
        ]),
        ledgers: Arc::new(BTreeMap::new()),
        recordings: Arc::from(Vec::new()),
        gaps: Arc::from(Vec::new()),
        examples: Arc::default(),
        equivalent: Arc::from(Vec::new()),
        config: PipelineConfig::default(),
    }
}

/// A missed mutant names the smallest corpus case whose output it
/// changes; one that changes no output says so.
#[test]
fn a_missed_mutant_names_its_smallest_witness() {
    let lane = Lane::OpenaiStrict;
    let ev = strict_evidence();
    // Swapped, the two strict passes write `required` and
    // `additionalProperties` in the other order: bytes no independent
    // check judges (a missed mutant with a witness).
    let names = [
        "v1/openai-strict/strict-close-objects: swapped with strict-require-all",
        "v1/openai-strict/sanitize-tool-name: switched off",
    ];
    let mutants: Vec<Mutant> = plan(Profile::V1, &[lane], &PipelineConfig::default())
        .into_iter()
        .filter(|m| names.contains(&m.info.name.as_str()))
        .collect();
    assert_eq!(mutants.len(), 2);
    let opts = RunOptions {
        jobs: 1,
        timeout: Duration::from_secs(60),
    };
    let report = run(&ev, &mutants, &opts, &mut |_| {}).unwrap();
    let got: Vec<(&str, &str, Option<&str>, Option<String>)> = report
        .results
        .iter()
        .map(|r| {
            (
                r.info.name.as_str(),
                r.outcome.id(),
                r.witness.as_deref(),
                r.witness_line(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                names[1],
                "missed",
                None,
                Some(
                    "no corpus tool's output changes: a corpus tool must exercise it, or it is equivalent"
                        .to_owned()
                )
            ),
            (
                names[0],
                "missed",
                Some("t#small"),
                Some("output changes on: t#small".to_owned())
            ),
        ]
    );
    let json = serde_json::to_value(&report.results[1]).unwrap();
    assert_eq!(json["witness"], "t#small");
    assert!(
        serde_json::to_value(&report.results[0])
            .unwrap()
            .get("witness")
            .is_none()
    );
}

fn result(pass: &str, outcome: MutantOutcome) -> MutantResult {
    MutantResult {
        info: MutantInfo {
            name: format!("v1/xai/{pass}: {}", outcome.id()),
            lane: Lane::Xai,
            pass: pass.to_owned(),
            kind: MutantKind::Off,
            change: "switched off".to_owned(),
        },
        outcome,
        witness: None,
    }
}

fn caught(by: &[&str]) -> MutantOutcome {
    let caught_by: Vec<String> = by.iter().map(|c| (*c).to_owned()).collect();
    MutantOutcome::Caught {
        evidence: Evidence::of(&caught_by),
        details: caught_by
            .iter()
            .map(|c| (c.clone(), format!("{c} noticed")))
            .collect(),
        caught_by,
        budget_exhausted: false,
    }
}

/// An equivalent entry turns its mutant unviable unless the run refutes
/// it: independent evidence caught it, examples caught it (unless it is
/// listed as the same on the wire), or what it ships changed on a case.
#[test]
fn equivalent_entries_are_refuted_by_evidence_or_a_witness() {
    let entry = |r: &MutantResult, wire: bool| Equivalent {
        mutant: r.info.name.clone(),
        on: wire.then_some(EquivalentOn::Wire),
        reason: "because".to_owned(),
    };
    let with_witness = |mut r: MutantResult| {
        r.witness = Some("t#changed".to_owned());
        r
    };
    let mut results = vec![
        result("a", MutantOutcome::Missed),
        result("b", caught(&["pass-examples"])),
        result("c", caught(&["pass-examples"])),
        result("d", caught(&["pass-examples", "semantic"])),
        with_witness(result("e", MutantOutcome::Missed)),
        with_witness(result("f", caught(&["pipeline-examples"]))),
    ];
    let listed = vec![
        entry(&results[0], false),
        entry(&results[1], true),
        entry(&results[2], false),
        entry(&results[3], true),
        entry(&results[4], false),
        entry(&results[5], true),
    ];
    let stale = apply_equivalent(&listed, &mut results);
    let outcomes: Vec<(&str, String)> = results
        .iter()
        .map(|r| {
            let why = match &r.outcome {
                MutantOutcome::Unviable { reason } => reason.clone(),
                o => o.id().to_owned(),
            };
            (r.info.pass.as_str(), why)
        })
        .collect();
    assert_eq!(
        outcomes,
        [
            ("a", "equivalent: because".to_owned()),
            (
                "b",
                "equivalent on the wire (records differ: pass-examples noticed): because"
                    .to_owned()
            ),
            ("c", "caught".to_owned()),
            ("d", "caught".to_owned()),
            ("e", "missed".to_owned()),
            ("f", "caught".to_owned()),
        ]
    );
    assert_eq!(
        stale,
        [
            "v1/xai/c: caught: listed as equivalent but caught by pass-examples",
            "v1/xai/d: caught: listed as equivalent but caught by pass-examples, semantic",
            "v1/xai/e: missed: listed as equivalent but its output changes on t#changed",
            "v1/xai/f: caught: listed as equivalent but its output changes on t#changed",
        ]
    );
}

/// A mutant caught by an example and the oracle is independent; one
/// caught only by examples is counted apart; unviable mutants are not
/// viable; the percentage is of viable mutants.
#[test]
fn the_summary_counts_independent_evidence_apart_from_examples_only() {
    let results = vec![
        result("a", caught(&["pipeline-examples", "oracle"])),
        result("a", caught(&["pass-examples", "pipeline-examples"])),
        result("b", caught(&["replay"])),
        result("b", MutantOutcome::Missed),
        result(
            "c",
            MutantOutcome::Unviable {
                reason: "r".to_owned(),
            },
        ),
        result("c", MutantOutcome::Timeout),
    ];
    let s = MutantsSummary::of(&results);
    let counts = |viable, independent, examples_only, missed, timeout| PassCounts {
        viable,
        independent,
        examples_only,
        missed,
        timeout,
    };
    assert_eq!(
        s,
        MutantsSummary {
            mutants: 6,
            viable: 5,
            caught: 3,
            caught_by_independent_evidence: 2,
            caught_only_by_examples: 1,
            missed: 1,
            unviable: 1,
            timeout: 1,
            independent_percent: Some(40.0),
            noticed_by: [
                ("invariants", 0),
                ("ledger-diff", 0),
                ("oracle", 1),
                ("pass-examples", 1),
                ("pipeline-examples", 2),
                ("replay", 1),
                ("semantic", 0),
            ]
            .into_iter()
            .map(|(c, n)| (c.to_owned(), n))
            .collect(),
            by_pass: [
                ("a".to_owned(), counts(2, 1, 1, 0, 0)),
                ("b".to_owned(), counts(2, 1, 0, 1, 0)),
                ("c".to_owned(), counts(1, 0, 0, 0, 1)),
            ]
            .into_iter()
            .collect(),
        }
    );
    let unseen: Vec<(&str, usize)> = s
        .unseen_passes()
        .into_iter()
        .map(|(p, c)| (p, c.unseen()))
        .collect();
    assert_eq!(unseen, [("a", 1), ("b", 1), ("c", 1)]);
    assert_eq!(percent(227, 581), Some(39.1));
    assert_eq!(percent(1, 3), Some(33.3));
    assert_eq!(percent(2, 3), Some(66.7));
    assert_eq!(percent(0, 0), None);
}

/// `outcomes.json` entries name every check; the lists carry a
/// `caught by:` line, and `caught-only-by-examples.txt` the witness.
#[test]
fn a_caught_mutant_lists_every_check_in_json_and_text() {
    let both = result("a", caught(&["pipeline-examples", "oracle"]));
    let mut only = result("b", caught(&["pass-examples"]));
    only.witness = Some("fixtures#x".to_owned());
    let json = serde_json::to_string(&both).unwrap();
    assert_eq!(
        json,
        r#"{"name":"v1/xai/a: caught","lane":"xai","pass":"a","kind":"off","change":"switched off","outcome":"caught","caught_by":["pipeline-examples","oracle"],"evidence":"independent","details":{"oracle":"oracle noticed","pipeline-examples":"pipeline-examples noticed"}}"#
    );
    let back: MutantResult = serde_json::from_str(&json).unwrap();
    assert_eq!(back, both);
    assert_eq!(
        serde_json::to_value(&only).unwrap()["evidence"],
        "examples-only"
    );
    let results = [both, only];
    assert_eq!(
        list(results.iter(), false),
        "v1/xai/a: caught\n  caught by: pipeline-examples, oracle\n\
         v1/xai/b: caught\n  caught by: pass-examples\n"
    );
    assert_eq!(
        list(results[1..].iter(), true),
        "v1/xai/b: caught\n  caught by: pass-examples\n  output changes on: fixtures#x\n"
    );
}

/// The body of a snapshot file is what `expected_text` wrote; its
/// header lines are skipped (and counted for error positions).
#[test]
fn a_snapshot_body_is_read_after_its_header() {
    let text = "---\nsource: harness/src/mutants.rs\nexpression: x\n---\n[]\n";
    assert_eq!(snapshot_body(text), Some((4, "[]\n")));
    assert_eq!(snapshot_body("[]"), None);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pass-examples@n.json.snap");
    std::fs::write(&path, "---\nsource: s\n---\n[\n  {\"name\": 1}\n]\n").unwrap();
    let err = load_expected(&path).unwrap_err().to_string();
    assert!(err.starts_with(&format!("{}:5:", path.display())), "{err}");
    assert!(
        load_expected(&dir.path().join("none.snap"))
            .unwrap()
            .is_empty()
    );
}

/// With no budget left after the examples, a mutant they caught stays
/// caught (flagged `budget_exhausted`: the corpus checks did not run);
/// one they did not catch is a timeout.
#[test]
fn an_exhausted_budget_keeps_what_the_examples_caught() {
    let lane = Lane::OpenaiResponses;
    let input = Tool::new(
        "t",
        serde_json::json!({"type": "object", "properties": {
            "q": {"type": "string", "pattern": "^(?=a)a$"}}}),
    );
    let pass = Profile::V1
        .passes(lane)
        .into_iter()
        .find(|p| p.name() == "strip-lookaround-patterns")
        .unwrap();
    let mut example = PassExample {
        name: "lookahead stripped".to_owned(),
        lane,
        config: PipelineConfig::default(),
        input,
        expect: None,
    };
    example.expect = Some(run_example(Some(pass.as_ref()), &example));
    let ev = MutantEvidence {
        cases: Arc::from(Vec::new()),
        ledgers: Arc::new(BTreeMap::new()),
        recordings: Arc::from(Vec::new()),
        gaps: Arc::from(Vec::new()),
        examples: Arc::new(
            [("strip-lookaround-patterns".to_owned(), vec![example])]
                .into_iter()
                .collect(),
        ),
        equivalent: Arc::from(Vec::new()),
        config: PipelineConfig::default(),
    };
    let names = [
        "v1/openai-responses/strip-lookaround-patterns: switched off",
        "v1/openai-responses/normalize: switched off",
    ];
    let mutants: Vec<Mutant> = plan(Profile::V1, &[lane], &PipelineConfig::default())
        .into_iter()
        .filter(|m| names.contains(&m.info.name.as_str()))
        .collect();
    let opts = RunOptions {
        jobs: 1,
        timeout: Duration::ZERO,
    };
    let report = run(&ev, &mutants, &opts, &mut |_| {}).unwrap();
    let got: Vec<(&str, &MutantOutcome)> = report
        .results
        .iter()
        .map(|r| (r.info.name.as_str(), &r.outcome))
        .collect();
    assert_eq!(
        got,
        [
            (names[1], &MutantOutcome::Timeout),
            (
                names[0],
                &MutantOutcome::Caught {
                    caught_by: vec!["pass-examples".to_owned()],
                    evidence: Evidence::ExamplesOnly,
                    details: [(
                        "pass-examples".to_owned(),
                        "example \"lookahead stripped\" of strip-lookaround-patterns".to_owned()
                    )]
                    .into_iter()
                    .collect(),
                    budget_exhausted: true,
                }
            ),
        ]
    );
    assert_eq!(
        serde_json::to_value(&report.results[1]).unwrap()["budget_exhausted"],
        true
    );
    assert_eq!(report.summary.timeout, 1);
    assert_eq!(report.summary.caught_only_by_examples, 1);
    assert_eq!(report.exit_status(), crate::ExitStatus::Timeout);
}

#[test]
fn the_plan_is_deterministic_and_names_are_unique() {
    let config = PipelineConfig::default();
    let a: Vec<_> = plan(Profile::V1, Lane::ALL, &config)
        .into_iter()
        .map(|m| m.info)
        .collect();
    let b: Vec<_> = plan(Profile::V1, Lane::ALL, &config)
        .into_iter()
        .map(|m| m.info)
        .collect();
    assert_eq!(a, b);
    let mut names: Vec<_> = a.iter().map(|m| m.name.clone()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), a.len());
    assert!(
        names.contains(
            &"v1/deepseek-strict/deepseek-post-gate: drop \"allOf\" from unrepresentable keywords"
                .to_owned()
        )
    );
}

/// A pass that never returns: it parks its thread for good, as a pass
/// looping inside one case would hold it.
struct NeverReturns;

impl crate::passes::Pass for NeverReturns {
    fn name(&self) -> &'static str {
        "never-returns"
    }

    fn apply(
        &self,
        _: &mut Tool,
        _: &mut crate::passes::Cx<'_>,
    ) -> Result<crate::passes::Step, crate::schema::TooDeep> {
        loop {
            std::thread::park();
        }
    }
}

/// A mutant of openai-strict whose first pass never returns.
fn never_returning_mutant() -> Mutant {
    let lane = Lane::OpenaiStrict;
    let name = "v1/openai-strict/never-returns: added first";
    let mut passes = Profile::V1.passes(lane);
    passes.insert(0, Box::new(NeverReturns));
    Mutant {
        info: MutantInfo {
            name: name.to_owned(),
            lane,
            pass: "never-returns".to_owned(),
            kind: MutantKind::Declared,
            change: "added first".to_owned(),
        },
        pipeline: Arc::new(crate::pipeline::PassList {
            id: name.to_owned(),
            base: Profile::V1,
            lane,
            passes,
            config: PipelineConfig::default(),
        }),
        examples: None,
        unviable: None,
    }
}

/// A mutant whose pass never returns inside a case is a `timeout` once its
/// budget (and the watchdog's grace) is spent; its thread is abandoned, and
/// the mutants after it (on the one job) get the outcomes they get without
/// it, in plan order.
#[test]
fn a_mutant_whose_pass_never_returns_is_a_timeout_and_the_run_goes_on() {
    let ev = strict_evidence();
    let names = [
        "v1/openai-strict/sanitize-tool-name: switched off",
        "v1/openai-strict/strict-close-objects: swapped with strict-require-all",
    ];
    let planned = || -> Vec<Mutant> {
        plan(
            Profile::V1,
            &[Lane::OpenaiStrict],
            &PipelineConfig::default(),
        )
        .into_iter()
        .filter(|m| names.contains(&m.info.name.as_str()))
        .collect()
    };
    let opts = RunOptions {
        jobs: 1,
        timeout: Duration::from_millis(300),
    };
    let without = run(&ev, &planned(), &opts, &mut |_| {}).unwrap();
    let outcomes: Vec<&str> = without.results.iter().map(|r| r.outcome.id()).collect();
    assert_eq!(outcomes, ["missed", "missed"]);

    let mut mutants = planned();
    mutants.insert(1, never_returning_mutant());
    let mut arrived = Vec::new();
    let with = run(&ev, &mutants, &opts, &mut |r| {
        arrived.push(r.info.name.clone());
    })
    .unwrap();

    assert_eq!(
        with.results,
        [
            without.results[0].clone(),
            MutantResult {
                info: mutants[1].info.clone(),
                outcome: MutantOutcome::Timeout,
                witness: None,
            },
            without.results[1].clone(),
        ]
    );
    arrived.sort();
    let mut all: Vec<String> = mutants.iter().map(|m| m.info.name.clone()).collect();
    all.sort();
    assert_eq!(arrived, all);
    assert_eq!(with.summary.timeout, 1);
    assert_eq!(with.summary.missed, 2);
    assert_eq!(with.exit_status(), crate::ExitStatus::Timeout);
}

/// What the checks noticed before the pass stopped returning still counts:
/// the watchdog judges the mutant on it (caught, `budget_exhausted`, no
/// witness), as the budget does between cases.
#[test]
fn a_mutant_noticed_before_its_pass_never_returns_is_caught_with_its_budget_exhausted() {
    let mut ev = strict_evidence();
    let lane = Lane::OpenaiStrict;
    let mut example = PassExample {
        name: "not the identity".to_owned(),
        lane,
        config: PipelineConfig::default(),
        input: Tool::new("t", serde_json::json!({"type": "object"})),
        expect: None,
    };
    let mut expect = run_example(None, &example);
    expect.step = "fail-closed".to_owned();
    example.expect = Some(expect);
    ev.examples = Arc::new([("never-returns".to_owned(), vec![example])].into());
    let mut mutant = never_returning_mutant();
    // Its examples run with the pass switched off: the identity.
    mutant.examples = Some(("never-returns".to_owned(), None));
    let opts = RunOptions {
        jobs: 1,
        timeout: Duration::from_millis(300),
    };
    let report = run(&ev, std::slice::from_ref(&mutant), &opts, &mut |_| {}).unwrap();
    assert_eq!(
        report.results,
        [MutantResult {
            info: mutant.info.clone(),
            outcome: MutantOutcome::Caught {
                caught_by: vec!["pass-examples".to_owned()],
                evidence: Evidence::ExamplesOnly,
                details: [(
                    "pass-examples".to_owned(),
                    "example \"not the identity\" of never-returns".to_owned()
                )]
                .into(),
                budget_exhausted: true,
            },
            witness: None,
        }]
    );
}

/// An example file naming a lane no one knows is refused with its file and
/// position (it once ran silently as `openai-chat`).
#[test]
fn an_example_naming_an_unknown_lane_is_a_load_error_with_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("normalize.json");
    std::fs::write(
        &path,
        "{\"pass\": \"normalize\", \"examples\": [\n  {\"name\": \"a\", \"lane\": \"openai-chatt\", \"input\": {\"name\": \"t\", \"input_schema\": {}}}\n]}\n",
    )
    .unwrap();
    let err = super::examples::load_examples(dir.path(), dir.path()).unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with(&format!("{}:2:", path.display())),
        "{text}"
    );
    assert!(text.contains("unknown lane"), "{text}");
    assert!(text.contains("openai-chatt"), "{text}");
}
