//! Tests of the differential: wire-text caps, ledgers, shards, fuzz cases.

use super::*;
use crate::outcome::wire_choice;

#[test]
fn wire_texts_over_the_cap_are_cut_on_a_char_boundary_and_say_so() {
    let short = "x".repeat(MAX_WIRE_TEXT);
    assert_eq!(capped(short.clone()), short);
    // A 3-byte character straddling the cap: the cut moves before it.
    let long = format!("{}€tail", "x".repeat(MAX_WIRE_TEXT - 1));
    let total = long.len();
    let cut = capped(long);
    assert_eq!(
        cut,
        format!(
            "{}\n… cut at {} of {total} bytes: `wireshape shape --lane <lane> --pipeline <p>` prints it whole\n",
            "x".repeat(MAX_WIRE_TEXT - 1),
            MAX_WIRE_TEXT - 1
        )
    );
}
use crate::pipeline::{PipelineConfig, Profile};

const SLUG: &str = r#"{"tools":[{"name":"slug","input_schema":{"type":"object","properties":{"s":{"type":"string","pattern":"^(?!-)[a-z-]+$"}}}}]}"#;

/// A v0 → v1 run on `openai-responses` over one own catalog (`c#slug`:
/// a lookaround pattern v1 strips there) plus `fuzz`, with `ledger` as
/// that lane's ledger file.
fn run(ledger: &str, fuzz: Option<FuzzSpec>) -> RunReport {
    let dir = tempfile::tempdir().unwrap();
    let own = dir.path().join("own");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::write(own.join("c.json"), SLUG).unwrap();
    std::fs::write(dir.path().join("openai-responses.toml"), ledger).unwrap();
    let v0 = Profile::V0.with_config(PipelineConfig::default());
    let v1 = Profile::V1.with_config(PipelineConfig::default());
    let opts = DiffOptions {
        old: &v0,
        new: &v1,
        lanes: vec![Lane::OpenaiResponses],
        own_corpus: vec![own],
        external_corpus: Vec::new(),
        ledger_dir: Some(dir.path().to_owned()),
        fuzz,
        shard: None,
        jobs: 1,
    };
    let inputs = prepare(&opts).unwrap();
    execute(&opts, inputs, &mut |_| {})
}

const FIVE: Option<FuzzSpec> = Some(FuzzSpec { count: 5, seed: 1 });

fn entry(case: &str, external: bool) -> String {
    format!(
        "[[divergence]]\ncase = \"{case}\"\nclass = \"any\"\nreason = \"covers every tag\"\nexternal = {external}\n"
    )
}

/// Generated outcomes that a divergence entry made intended.
fn generated_matched(report: &RunReport) -> usize {
    report
        .outcomes
        .iter()
        .filter(|o| o.case.starts_with("fuzz/1#"))
        .filter(|o| o.ledger.iter().any(|m| m.table == LedgerTable::Divergence))
        .count()
}

fn divergent_generated(report: &RunReport) -> usize {
    report
        .outcomes
        .iter()
        .filter(|o| o.case.starts_with("fuzz/1#") && o.class != Class::Identical)
        .count()
}

fn unused(report: &RunReport) -> Vec<String> {
    report
        .ledger_issues
        .iter()
        .filter(|i| i.kind == crate::outcome::LedgerIssueKind::Unused)
        .map(|i| i.message.clone())
        .collect()
}

/// A shard plans every n-th case of the whole run's sorted plan, from the
/// k-th; its plan (`cases.json`'s) is exactly its cases, and the shards'
/// plans unite to the whole run's (a name its catalog repeats is a case
/// of its own, `b~2`; a lane given twice runs once).
#[test]
fn a_shard_plans_every_nth_case_of_the_sorted_plan() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.json"), ABC).unwrap();
    let twice = r#"{"tools":[{"name":"b","input_schema":{"type":"object"}},
        {"name":"a","input_schema":{"type":"object"}},
        {"name":"b","input_schema":{"type":"object","properties":{"x":{"type":"string"}}}}]}"#;
    std::fs::write(dir.path().join("d.json"), twice).unwrap();
    let v1 = v1();
    let plan_of = |shard| {
        let opts = DiffOptions {
            old: &v1,
            new: &v1,
            lanes: vec![Lane::Mistral, Lane::OpenaiChat, Lane::Mistral, Lane::Groq],
            own_corpus: vec![dir.path().to_owned()],
            external_corpus: Vec::new(),
            ledger_dir: None,
            fuzz: Some(FuzzSpec { count: 2, seed: 3 }),
            shard,
            jobs: 1,
        };
        let inputs = prepare(&opts).unwrap();
        let keys: Vec<String> = inputs.cases().iter().map(|c| c.plan.key()).collect();
        let plan = inputs.plan();
        assert_eq!(
            plan,
            crate::outcome::Plan::of(inputs.cases().into_iter().map(|c| c.plan))
        );
        assert_eq!((inputs.case_count(), plan.len()), (keys.len(), keys.len()));
        (keys, plan)
    };
    let (all, whole) = plan_of(None);
    // 3 + 3 + 2 tools on 3 lanes, sorted by lane, then case.
    assert_eq!(all.len(), 24, "{all:?}");
    assert_eq!(
        all[..8],
        [
            "groq::c#alpha",
            "groq::c#beta",
            "groq::c#gamma",
            "groq::d#a",
            "groq::d#b",
            "groq::d#b~2",
            "groq::fuzz/3#0",
            "groq::fuzz/3#1",
        ]
    );
    assert_eq!(all[8], "mistral::c#alpha");
    let mut united = Vec::new();
    for k in 1..=4 {
        let (keys, plan) = plan_of(Some((k, 4)));
        let want: Vec<String> = all.iter().skip(k - 1).step_by(4).cloned().collect();
        assert_eq!(keys, want, "shard {k}/4");
        united.extend(plan.iter());
    }
    assert_eq!(crate::outcome::Plan::of(united), whole);
}

#[test]
fn fuzz_plans_each_generated_tool_on_every_lane_as_generated_cases() {
    let dir = tempfile::tempdir().unwrap();
    let v1 = Profile::V1.with_config(PipelineConfig::default());
    let opts = DiffOptions {
        old: &v1,
        new: &v1,
        lanes: vec![Lane::OpenaiChat, Lane::OpenaiResponses],
        own_corpus: vec![dir.path().to_owned()],
        external_corpus: Vec::new(),
        ledger_dir: None,
        fuzz: Some(FuzzSpec { count: 3, seed: 9 }),
        shard: None,
        jobs: 1,
    };
    let inputs = prepare(&opts).unwrap();
    let cases = inputs.cases();
    let keys: Vec<String> = cases.iter().map(|c| c.plan.key()).collect();
    assert_eq!(
        keys,
        [
            "openai-chat::fuzz/9#0",
            "openai-chat::fuzz/9#1",
            "openai-chat::fuzz/9#2",
            "openai-responses::fuzz/9#0",
            "openai-responses::fuzz/9#1",
            "openai-responses::fuzz/9#2",
        ]
    );
    assert!(cases.iter().all(|c| c.generated && !c.external));
    assert_eq!(
        *cases[1].tool.unpack().unwrap().0,
        crate::generate::seeded(9, 1)
    );
    assert_eq!(inputs.scope, crate::ledger::RunScope::default());
}

#[test]
fn a_catalog_whose_id_is_the_fuzz_prefix_is_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("fuzz")).unwrap();
    std::fs::write(dir.path().join("fuzz/9.json"), SLUG).unwrap();
    let v1 = Profile::V1.with_config(PipelineConfig::default());
    let opts = DiffOptions {
        old: &v1,
        new: &v1,
        lanes: vec![Lane::OpenaiChat],
        own_corpus: vec![dir.path().to_owned()],
        external_corpus: Vec::new(),
        ledger_dir: None,
        fuzz: Some(FuzzSpec { count: 1, seed: 9 }),
        shard: None,
        jobs: 1,
    };
    let Err(err) = prepare(&opts) else {
        panic!("a clash must not load");
    };
    assert_eq!(
        err.to_string(),
        format!(
            "{}: catalog id `fuzz/9` clashes with the generated cases `fuzz/9#<i>` of `--seed 9`: rename the file or its directory",
            dir.path().join("fuzz/9.json").display()
        )
    );
}

/// An entry for generated cases (`case = "fuzz/…"`) judges them, and
/// has no use count: generated matches never count, so it is never
/// reported unused, with or without `--fuzz`.
#[test]
fn an_entry_for_generated_cases_judges_them_and_is_never_unused() {
    let ledger = entry("fuzz/*", false);
    let with = run(&ledger, FIVE);
    assert!(divergent_generated(&with) > 0, "seed 1 diverges somewhere");
    assert_eq!(generated_matched(&with), divergent_generated(&with));
    assert!(with.ledger_use.is_empty());
    assert!(unused(&with).is_empty());
    assert!(unused(&run(&ledger, None)).is_empty());
}

/// A catalog entry that only generated cases match stays unused:
/// adding `--fuzz` cannot make an unused-entry failure disappear.
#[test]
fn a_catalog_entry_only_generated_cases_match_stays_unused() {
    // `f*` matches `fuzz/1#…` but no catalog case (`c#slug`).
    let ledger = entry("f*", false);
    let with = run(&ledger, FIVE);
    assert_eq!(generated_matched(&with), divergent_generated(&with));
    assert!(generated_matched(&with) > 0);
    let message = "ledger entry openai-responses.toml#0 (any) matched no case in a run over the corpus it was written for: remove it or fix its `case`";
    assert_eq!(unused(&with), [message]);
    assert_eq!(unused(&run(&ledger, None)), [message]);
}

#[test]
fn an_entry_an_own_case_uses_counts_that_use_only() {
    let ledger = entry("*", false);
    let with = run(&ledger, FIVE);
    assert_eq!(generated_matched(&with), divergent_generated(&with));
    assert_eq!(with.ledger_use[0].uses, 1, "c#slug only");
    assert!(unused(&with).is_empty());
    assert_eq!(run(&ledger, None).ledger_use[0].uses, 1);
}

const ABC: &str = r#"{"tools":[
    {"name":"alpha","input_schema":{"type":"object","properties":{"q":{"type":"string"}}}},
    {"name":"beta","input_schema":{"type":"object","properties":{"q":{"type":"string"}}}},
    {"name":"gamma","input_schema":{"type":"object","properties":{"q":{"type":"string"}}}}]}"#;

/// `old` → `new` on `lane` over one own catalog `c` (`catalog`), with
/// `ledger` as that lane's ledger file.
fn run_on(
    old: &(dyn Pipeline + Sync),
    new: &(dyn Pipeline + Sync),
    lane: Lane,
    catalog: &str,
    ledger: &str,
    shard: Option<(usize, usize)>,
) -> RunReport {
    let dir = tempfile::tempdir().unwrap();
    let own = dir.path().join("own");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::write(own.join("c.json"), catalog).unwrap();
    std::fs::write(dir.path().join(format!("{lane}.toml")), ledger).unwrap();
    let opts = DiffOptions {
        old,
        new,
        lanes: vec![lane],
        own_corpus: vec![own],
        external_corpus: Vec::new(),
        ledger_dir: Some(dir.path().to_owned()),
        fuzz: None,
        shard,
        jobs: 2,
    };
    let inputs = prepare(&opts).unwrap();
    execute(&opts, inputs, &mut |_| {})
}

fn v1() -> crate::pipeline::BuiltinPipeline {
    Profile::V1.with_config(PipelineConfig::default())
}

use crate::prefix::test_pipelines::ReverseSummary;

#[test]
fn a_pipeline_reversing_the_summary_tools_fails_the_run_at_the_exact_byte() {
    let report = run_on(
        &v1(),
        &ReverseSummary(v1()),
        Lane::AnthropicMessages,
        ABC,
        "",
        None,
    );
    // Every tool case is identical: only the request fails.
    assert!(report.outcomes.iter().all(|o| o.class == Class::Identical));
    assert!(!report.outcomes.iter().any(CaseOutcome::is_failure));
    let keys: Vec<(String, &str)> = report
        .requests
        .iter()
        .map(|r| (r.key(), r.class.id()))
        .collect();
    assert_eq!(
        keys,
        [
            ("anthropic-messages::c@turn".to_owned(), "identical"),
            (
                "anthropic-messages::c@summary".to_owned(),
                "reordered-tools"
            ),
        ]
    );
    let summary = &report.requests[1];
    let d = summary.difference.as_ref().unwrap();
    assert_eq!(
        (d.offset, d.member.as_str(), d.tool_index, d.tool.as_deref()),
        (343, "tools", Some(0), Some("gamma"))
    );
    assert_eq!(
        summary.issues[0].message,
        "tools in another order: old [alpha, beta, gamma], new [gamma, beta, alpha]; differs at byte 343, inside tool 0 (gamma)"
    );
    assert_eq!(
        summary.issues[1].class,
        crate::outcome::RequestClass::KindsDiffer
    );
    assert_eq!(report.summary.request_failures, 1);
    assert_eq!(
        report.summary.requests[&Lane::AnthropicMessages],
        crate::outcome::RequestCounts {
            compared: 2,
            identical: 1,
            inside_tools: 0,
            recorded: 0,
            failures: 1
        }
    );
    assert_eq!(report.exit_status(), crate::ExitStatus::Failures);
    // v1 against itself: clean.
    let clean = run_on(&v1(), &v1(), Lane::AnthropicMessages, ABC, "", None);
    assert_eq!(clean.requests.len(), 2);
    assert_eq!(clean.summary.request_failures, 0);
    assert_eq!(clean.exit_status(), crate::ExitStatus::Clean);
}

#[test]
fn each_request_is_compared_by_exactly_one_shard_and_the_shards_merge_to_the_whole() {
    let two = r#"{"tools":[{"name":"a","input_schema":{"type":"object"}}]}"#;
    let dir = tempfile::tempdir().unwrap();
    let own = dir.path().join("own");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::write(own.join("c.json"), ABC).unwrap();
    std::fs::write(own.join("d.json"), two).unwrap();
    let (old, new) = (v1(), ReverseSummary(v1()));
    let run = |shard| {
        let opts = DiffOptions {
            old: &old,
            new: &new,
            lanes: vec![Lane::AnthropicMessages, Lane::OpenaiChat],
            own_corpus: vec![own.clone()],
            external_corpus: Vec::new(),
            ledger_dir: None,
            fuzz: None,
            shard,
            jobs: 1,
        };
        let inputs = prepare(&opts).unwrap();
        execute(&opts, inputs, &mut |_| {})
    };
    let keys = |r: &RunReport| {
        r.requests
            .iter()
            .map(RequestOutcome::key)
            .collect::<Vec<_>>()
    };
    let whole = run(None);
    assert_eq!(
        keys(&whole),
        [
            "anthropic-messages::c@turn",
            "anthropic-messages::c@summary",
            "anthropic-messages::d@turn",
            "anthropic-messages::d@summary",
            "openai-chat::c@turn",
            "openai-chat::c@summary",
            "openai-chat::d@turn",
            "openai-chat::d@summary",
        ]
    );
    // (lane, catalog) j goes to shard j mod 3 + 1.
    let shards: Vec<RunReport> = (1..=3).map(|k| run(Some((k, 3)))).collect();
    assert_eq!(
        keys(&shards[0]),
        [
            "anthropic-messages::c@turn",
            "anthropic-messages::c@summary",
            "openai-chat::d@turn",
            "openai-chat::d@summary",
        ]
    );
    assert_eq!(
        keys(&shards[2]),
        ["openai-chat::c@turn", "openai-chat::c@summary"]
    );
    let merged = crate::outcome::merge_reports(shards);
    assert_eq!(merged.requests, whole.requests);
    assert_eq!(merged.summary, whole.summary);
}

fn pin(case: &str, sha: &str, external: bool) -> String {
    format!(
        "[[pin]]\ncase = \"{case}\"\nnew_sha256 = \"{sha}\"\nreason = \"r\"\nexternal = {external}\n"
    )
}

const PLAIN: &str = r#"{"tools":[{"name":"plain","input_schema":{"type":"object","properties":{"q":{"type":"string"}}}}]}"#;
/// sha256 of `{"type":"function","function":{"name":"plain","parameters":{"type":"object","properties":{"q":{"type":"string"}}}}}`.
const PLAIN_SHA: &str = "a22d1f6e62b4d8a287d149284690f04b85155b0732c9001d2e2ec7342e954519";

#[test]
fn a_pin_holds_on_an_identical_case_and_counts_as_used() {
    let wire = r#"{"type":"function","function":{"name":"plain","parameters":{"type":"object","properties":{"q":{"type":"string"}}}}}"#;
    assert_eq!(diff::sha256_hex(wire), PLAIN_SHA);
    let v0 = Profile::V0.with_config(PipelineConfig::default());
    let report = run_on(
        &v0,
        &v1(),
        Lane::OpenaiChat,
        PLAIN,
        &pin("c#plain", PLAIN_SHA, false),
        None,
    );
    let o = &report.outcomes[0];
    assert_eq!(o.class, Class::Identical);
    assert_eq!(o.new.sha256.to_hex(), PLAIN_SHA);
    assert!(o.pin_breaks.is_empty());
    assert_eq!(o.ledger.len(), 1);
    assert_eq!(o.ledger[0].table, LedgerTable::Pin);
    assert_eq!(report.ledger_use[0].uses, 1);
    assert!(report.ledger_issues.is_empty());
    assert_eq!(report.exit_status(), crate::ExitStatus::Clean);
}

#[test]
fn a_pin_that_no_longer_matches_fails_the_case_naming_both_hashes() {
    let zeros = "0".repeat(64);
    let v0 = Profile::V0.with_config(PipelineConfig::default());
    let report = run_on(
        &v0,
        &v1(),
        Lane::OpenaiChat,
        PLAIN,
        &pin("c#*", &zeros, false),
        None,
    );
    let o = &report.outcomes[0];
    assert_eq!(o.class, Class::Identical);
    assert!(o.is_failure());
    assert_eq!(o.pin_breaks.len(), 1);
    assert_eq!(
        o.pin_breaks[0].message,
        format!(
            "ledger pin openai-chat.toml#pin-0 on c#plain: expected new_sha256 {zeros}, got {PLAIN_SHA} (pinned: r); review the new output, then fix the pipeline or update the pin"
        )
    );
    assert_eq!(report.summary.failures, 1);
    assert_eq!(report.exit_status(), crate::ExitStatus::Failures);
}

#[test]
fn a_pin_that_matches_no_case_is_unused_unless_external_and_no_external_corpus() {
    let v0 = Profile::V0.with_config(PipelineConfig::default());
    let report = run_on(
        &v0,
        &v1(),
        Lane::OpenaiChat,
        PLAIN,
        &pin("c#gone", PLAIN_SHA, false),
        None,
    );
    assert_eq!(
        unused(&report),
        [
            "ledger entry openai-chat.toml#pin-0 (c#gone) matched no case in a run over the corpus it was written for: remove it or fix its `case`"
        ]
    );
    assert_eq!(report.ledger_issues[0].table, LedgerTable::Pin);
    assert_eq!(report.exit_status(), crate::ExitStatus::Failures);
    let external = run_on(
        &v0,
        &v1(),
        Lane::OpenaiChat,
        PLAIN,
        &pin("c#gone", PLAIN_SHA, true),
        None,
    );
    assert!(unused(&external).is_empty());
    assert!(
        external.ledger_use.is_empty(),
        "not judged without an external corpus"
    );
    // An external pin never applies to an own case either.
    let own = run_on(
        &v0,
        &v1(),
        Lane::OpenaiChat,
        PLAIN,
        &pin("c#plain", &"0".repeat(64), true),
        None,
    );
    assert!(own.outcomes[0].pin_breaks.is_empty());
}

#[test]
fn external_entries_never_apply_to_generated_cases() {
    let with = run(&entry("*", true), FIVE);
    assert!(divergent_generated(&with) > 0);
    assert_eq!(generated_matched(&with), 0);
    assert!(with.ledger_use.is_empty(), "no external corpus: not judged");
    assert!(unused(&with).is_empty());
}

/// A case of `class` on `lane`; `unexpected` fails.
fn outcome(lane: &str, case: &str, class: &str) -> CaseOutcome {
    let side = |p: &str| serde_json::json!({"pipeline": p, "outcome": "shaped", "sha256": "0".repeat(64), "degradations": []});
    serde_json::from_value(serde_json::json!({
        "lane": lane, "case": case, "class": class, "tags": [], "old": side("v0"), "new": side("v1"),
    }))
    .unwrap()
}

#[test]
fn wire_pairs_go_to_failures_first_then_to_the_lanes_in_turn() {
    let outcomes = [
        outcome("anthropic-messages", "a#1", "intended"),
        outcome("anthropic-messages", "a#2", "intended"),
        outcome("anthropic-messages", "a#3", "identical"),
        outcome("anthropic-messages", "a#4", "intended"),
        outcome("gemini-openapi", "g#1", "intended"),
        outcome("openai-chat", "o#1", "reordered"),
        outcome("openai-chat", "o#2", "unexpected"),
        outcome("openai-chat", "o#3", "intended"),
    ];
    let names = |max| -> Vec<&str> {
        wire_choice(&outcomes, max)
            .into_iter()
            .map(|i| outcomes[i].case.as_str())
            .collect()
    };
    assert_eq!(
        names(100),
        ["o#2", "a#1", "g#1", "o#1", "a#2", "o#3", "a#4"]
    );
    assert_eq!(names(3), ["o#2", "a#1", "g#1"]);
}

/// `n` outcomes over three lanes, sorted by (lane, case), without pairs.
fn mixed_outcomes(n: usize) -> Vec<CaseOutcome> {
    let lanes = ["anthropic-messages", "gemini-openapi", "openai-chat"];
    let classes = [
        "identical",
        "intended",
        "reordered",
        "intended",
        "unexpected",
        "identical",
        "intended",
    ];
    let mut outcomes: Vec<CaseOutcome> = (0..n)
        .map(|i| {
            // Each lane's divergent cases bunch differently along the plan.
            let class = classes[(i * 5 + i / 3 + i / 40) % 7];
            outcome(lanes[i % 3], &format!("c#{:04}", i / 3), class)
        })
        .collect();
    outcomes.sort_by(|a, b| (a.lane, &a.case).cmp(&(b.lane, &b.case)));
    outcomes
}

/// `outcomes` with a wire pair on each case [`wire_choice`] chooses.
fn with_chosen_pairs(mut outcomes: Vec<CaseOutcome>, max: usize) -> Vec<CaseOutcome> {
    let pair = WirePair {
        old: "{}".to_owned(),
        new: "[]".to_owned(),
        unified: String::new(),
    };
    for i in wire_choice(&outcomes, max) {
        outcomes[i].wire = Some(Box::new(pair.clone()));
    }
    outcomes
}

/// The keys of the outcomes that carry a wire pair, in order.
fn wired(outcomes: &[CaseOutcome]) -> Vec<String> {
    outcomes
        .iter()
        .filter(|o| o.wire.is_some())
        .map(|o| format!("{}::{}", o.lane, o.case))
        .collect()
}

/// Shard `k` of `n` (1-based): every `n`-th case of the sorted plan.
fn shard_of(outcomes: &[CaseOutcome], k: usize, n: usize) -> Vec<CaseOutcome> {
    outcomes
        .iter()
        .enumerate()
        .filter(|(i, _)| i % n == k - 1)
        .map(|(_, o)| o.clone())
        .collect()
}

/// Each shard chooses at most the cap of its own cases for wire pairs;
/// choosing again among the shards' pairs gives exactly the unsharded
/// run's choice, for every cap and shard count (found on a 5-lane run of
/// own + shared corpus: the merged report had 800 pairs on one lane and
/// none on three, the unsharded one 200 on each).
#[test]
fn choosing_again_among_the_shards_wire_pairs_gives_the_unsharded_choice() {
    let all = mixed_outcomes(150);
    for n in 2..=5 {
        for max in 1..=60 {
            let whole = with_chosen_pairs(all.clone(), max);
            let mut merged: Vec<CaseOutcome> = (1..=n)
                .flat_map(|k| with_chosen_pairs(shard_of(&all, k, n), max))
                .collect();
            merged.sort_by(|a, b| (a.lane, &a.case).cmp(&(b.lane, &b.case)));
            crate::outcome::keep_chosen_wire_pairs(&mut merged, max);
            assert_eq!(wired(&merged), wired(&whole), "{n} shards, max {max}");
        }
    }
}

/// `report merge` at the real cap: four shards with fewer candidates each
/// than the cap, more together; the merge keeps the unsharded run's.
#[test]
fn a_merge_keeps_the_wire_pairs_the_unsharded_run_chooses() {
    let all = mixed_outcomes(3 * (MAX_WIRE_PAIRS + 200));
    let whole = with_chosen_pairs(all.clone(), MAX_WIRE_PAIRS);
    assert_eq!(wired(&whole).len(), MAX_WIRE_PAIRS);
    let shards: Vec<RunReport> = (1..=4)
        .map(|k| {
            let outcomes = with_chosen_pairs(shard_of(&all, k, 4), MAX_WIRE_PAIRS);
            assert!(wired(&outcomes).len() < MAX_WIRE_PAIRS);
            RunReport {
                outcomes,
                sharded: true,
                ..RunReport::default()
            }
        })
        .collect();
    let merged = crate::outcome::merge_reports(shards);
    assert_eq!(wired(&merged.outcomes), wired(&whole));
}

/// `old` → `new` on `openai-chat` and `mistral` over the catalogs in
/// `dir`, no ledger.
fn chat_and_mistral<'a>(
    dir: &std::path::Path,
    old: &'a crate::pipeline::BuiltinPipeline,
    new: &'a crate::pipeline::BuiltinPipeline,
    jobs: usize,
) -> DiffOptions<'a> {
    DiffOptions {
        old,
        new,
        lanes: vec![Lane::OpenaiChat, Lane::Mistral],
        own_corpus: vec![dir.to_owned()],
        external_corpus: Vec::new(),
        ledger_dir: None,
        fuzz: None,
        shard: None,
        jobs,
    }
}

/// The run drops each tool when its cases finish and keeps only the
/// tools whose cases the wire-pair choice can still pick: whatever order
/// the cases finish in, every case the choice picks has its tool kept,
/// and the candidates kept give the choice made from every outcome.
#[test]
fn wire_candidates_keep_every_tool_the_choice_can_pick() {
    let n = 90;
    let outcomes = mixed_outcomes(n);
    let orders: [Vec<usize>; 3] = [
        (0..n).collect(),
        (0..n).rev().collect(),
        (0..n).map(|i| (i * 37) % n).collect(),
    ];
    for max in 1..=40 {
        let chosen = wire_choice(&outcomes, max);
        assert!(!chosen.is_empty());
        for order in &orders {
            let mut kept = WireCandidates::new(max);
            for &i in order {
                let o = &outcomes[i];
                assert_eq!(WireCandidates::wanted(o), o.class != Class::Identical);
                kept.offer(
                    o,
                    Some(&CorpusTool::parsed(
                        Tool::new(o.case.clone(), serde_json::json!({})),
                        Vec::new(),
                    )),
                );
            }
            // The choice made from the candidates alone is the choice
            // made from every outcome, in the same order.
            let expected: Vec<(Lane, &str)> = chosen
                .iter()
                .map(|&i| (outcomes[i].lane, outcomes[i].case.as_str()))
                .collect();
            assert_eq!(kept.choice(), expected, "max {max}");
            for &i in &chosen {
                let o = &outcomes[i];
                let tool = kept.get(o.lane, &o.case).map(|t| t.unpack().unwrap().0);
                assert_eq!(
                    tool.as_ref().map(|t| t.name.as_str()),
                    Some(o.case.as_str()),
                    "max {max}"
                );
            }
            let held =
                kept.failures.len() + kept.divergent.values().map(BTreeMap::len).sum::<usize>();
            assert!(held <= 4 * max, "max {max}: {held} held");
        }
    }
}

/// Each tool (its parsed schema) is dropped as soon as its cases finish,
/// not when the run ends: the corpus does not wait in memory for the
/// last case. Identical pipelines: no case can get a wire pair.
/// Whether the shared tool behind `tool` is still alive, checked later.
fn alive(tool: &CorpusTool) -> Box<dyn Fn() -> bool> {
    match tool {
        CorpusTool::Parsed { tool, .. } => {
            let weak = Arc::downgrade(tool);
            Box::new(move || weak.upgrade().is_some())
        }
        CorpusTool::Packed(text) => {
            let weak = Arc::downgrade(text);
            Box::new(move || weak.upgrade().is_some())
        }
        CorpusTool::Stored(stored) => {
            let weak = Arc::downgrade(stored);
            Box::new(move || weak.upgrade().is_some())
        }
    }
}

#[test]
fn each_tool_is_dropped_once_its_cases_finish() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.json"), ABC).unwrap();
    let v1 = v1();
    let opts = chat_and_mistral(dir.path(), &v1, &v1, 1);
    for (inputs, packed) in [
        (prepare(&opts).unwrap(), false),
        (prepare_packed(&opts).unwrap(), true),
    ] {
        let tools: BTreeMap<String, Box<dyn Fn() -> bool>> = inputs
            .tools
            .iter()
            .map(|t| (t.case.to_string(), alive(&t.tool)))
            .collect();
        assert_eq!(tools.len(), 3);
        assert!(
            inputs
                .tools
                .iter()
                .all(|t| matches!(t.tool, CorpusTool::Stored(_)) == packed)
        );
        let mut checked = 0;
        let report = execute(&opts, inputs, &mut |so_far| {
            let last = &so_far[so_far.len() - 1];
            assert!(!tools[&last.case](), "{} still held", last.case);
            checked += 1;
        });
        assert_eq!((checked, report.outcomes.len()), (6, 6));
    }
}

/// `run` plans with packed tools: the same report as with parsed ones,
/// byte for byte: over the own corpus and benchmark lines with floats at
/// the edges of `f64`, escapes and instances (the semantic judgement reads
/// them), on lanes that rewrite numbers, names and nullability.
#[test]
fn packed_tools_give_the_report_parsed_ones_give() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bench.jsonl"),
        concat!(
            r#"{"id":"floats","schema":{"type":"object","properties":{"x":{"type":"number","minimum":0.1,"maximum":1.7976931348623157e308},"z":{"type":"number","maximum":1e9,"multipleOf":0.01},"y":{"type":"number","exclusiveMinimum":-4.9e-324,"default":2.5e-7}},"required":["x"]},"tests":[{"data":{"x":0.3},"valid":true},{"data":{"x":0.30000000000000004,"y":1e-300},"valid":false},{"data":{"y":2.5e-7},"valid":false}]}"#,
            "\n",
            r#"{"id":"escapes","schema":{"type":"object","description":"caf\u00e9 \ud83d\ude00 \"q\" \\ \t","properties":{"na\u00efve":{"type":"string","pattern":"^\\d+\\.\\d{2}$","enum":["1.00","\u0000"]}}},"tests":[{"data":{"na\u00efve":"1.00"},"valid":true},{"data":{"na\u00efve":"x"},"valid":false}]}"#,
            "\n",
        ),
    )
    .unwrap();
    // Two of the own catalogs beside (not `pass-constructs`: its 5,001
    // properties take seconds to diff on `gemini-openapi`).
    let own = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/catalogs");
    for name in ["fixtures.json", "seed-tools.json"] {
        std::fs::copy(own.join(name), dir.path().join(name)).unwrap();
    }
    let v0 = Profile::V0.with_config(PipelineConfig::default());
    let v1 = v1();
    let opts = DiffOptions {
        old: &v0,
        new: &v1,
        lanes: vec![
            Lane::OpenaiStrict,
            Lane::GeminiOpenapi,
            Lane::AnthropicMessages,
        ],
        own_corpus: Vec::new(),
        external_corpus: vec![dir.path().to_owned()],
        ledger_dir: None,
        fuzz: None,
        shard: None,
        jobs: 2,
    };
    let json = |inputs| serde_json::to_string(&execute(&opts, inputs, &mut |_| {})).unwrap();
    let parsed = prepare(&opts).unwrap();
    let bench: Vec<usize> = parsed
        .cases()
        .iter()
        .filter(|c| c.plan.case.starts_with("bench#"))
        .map(|c| c.tool.unpack().unwrap().1.len())
        .collect();
    assert_eq!(bench, [2, 3, 2, 3, 2, 3]);
    assert!(parsed.case_count() > 100, "{}", parsed.case_count());
    let packed = prepare_packed(&opts).unwrap();
    // Every tool waits on disk (a temporary file), and reads back as the
    // tool it was.
    assert_eq!(packed.tools.len(), parsed.tools.len());
    for (p, c) in packed.tools.iter().zip(&parsed.tools) {
        assert_eq!(p.case, c.case);
        assert!(matches!(p.tool, CorpusTool::Stored(_)), "{}", p.case);
        let (back, known) = p.tool.unpack().unwrap();
        let (tool, known_parsed) = c.tool.unpack().unwrap();
        assert_eq!((&back, &known), (&tool, &known_parsed), "{}", p.case);
    }
    assert_eq!(json(packed), json(parsed));
}

/// A packed tool that does not read back errors its cases, with the
/// reason, and the run goes on.
#[test]
fn a_packed_tool_that_does_not_read_back_errors_its_cases() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.json"), ABC).unwrap();
    let v1 = v1();
    let opts = chat_and_mistral(dir.path(), &v1, &v1, 1);
    let mut inputs = prepare_packed(&opts).unwrap();
    let broken = CorpusTool::Packed(Arc::from("[{\"name\": 1}, []]"));
    for t in inputs.tools.iter_mut().filter(|t| &*t.case == "c#beta") {
        t.tool = broken.clone();
    }
    let report = execute(&opts, inputs, &mut |_| {});
    let classes: Vec<(&str, Class)> = report
        .outcomes
        .iter()
        .map(|o| (o.case.as_str(), o.class))
        .collect();
    assert_eq!(
        classes,
        [
            ("c#alpha", Class::Identical),
            ("c#beta", Class::Errored),
            ("c#gamma", Class::Identical),
            ("c#alpha", Class::Identical),
            ("c#beta", Class::Errored),
            ("c#gamma", Class::Identical),
        ]
    );
    let b = report.outcomes.iter().find(|o| o.case == "c#beta").unwrap();
    assert!(
        b.new
            .detail
            .as_deref()
            .unwrap()
            .starts_with("a packed corpus tool does not read back: invalid type: integer `1`"),
        "{:?}",
        b.new.detail
    );
    // The catalog's requests are still compared, without the tool that
    // did not read back.
    let requests: Vec<(String, usize)> =
        report.requests.iter().map(|r| (r.key(), r.tools)).collect();
    assert_eq!(
        requests,
        [
            ("mistral::c@turn".to_owned(), 2),
            ("mistral::c@summary".to_owned(), 2),
            ("openai-chat::c@turn".to_owned(), 2),
            ("openai-chat::c@summary".to_owned(), 2),
        ]
    );
}

/// Every outcome waits in memory for the report, so what many hold is
/// held once: an identical case's two sides share one semantic verdict,
/// and every case one ledger entry declares shares one match. Equal
/// values held apart would pass every other test.
#[test]
fn verdicts_and_ledger_matches_are_held_once_across_outcomes() {
    let report = run(&entry("*", false), FIVE);
    let mut identical = 0;
    for o in report
        .outcomes
        .iter()
        .filter(|o| o.class == Class::Identical)
    {
        let (a, b) = (o.old.semantic.as_ref(), o.new.semantic.as_ref());
        assert!(Arc::ptr_eq(a.unwrap(), b.unwrap()), "{}", o.case);
        identical += 1;
    }
    let matches: Vec<&Arc<LedgerMatch>> = report.outcomes.iter().flat_map(|o| &o.ledger).collect();
    assert!(
        identical > 0 && matches.len() > 1,
        "{identical} identical, {} matches",
        matches.len()
    );
    assert!(matches.iter().all(|m| Arc::ptr_eq(m, matches[0])));
}

/// A tool's outputs on several lanes that judge alike hold one verdict.
#[test]
fn a_tools_equal_verdicts_on_its_lanes_are_held_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.json"), ABC).unwrap();
    let v0 = Profile::V0.with_config(PipelineConfig::default());
    let v1 = v1();
    let opts = chat_and_mistral(dir.path(), &v0, &v1, 2);
    let report = execute(&opts, prepare(&opts).unwrap(), &mut |_| {});
    let mut shared = 0;
    for o in &report.outcomes {
        let other = report
            .outcomes
            .iter()
            .find(|p| p.case == o.case && p.lane != o.lane)
            .unwrap();
        let (a, b) = (
            o.new.semantic.as_ref().unwrap(),
            other.new.semantic.as_ref().unwrap(),
        );
        assert_eq!(a == b, Arc::ptr_eq(a, b), "{}", o.case);
        shared += usize::from(Arc::ptr_eq(a, b));
    }
    assert_eq!(shared, 6, "three tools, two lanes each");
}

/// A wire pair of outputs over [`MAX_WIRE_TEXT`] diffs the two texts as
/// kept, not the whole outputs (whose line diff took seconds on a tool of
/// 5,001 properties).
#[test]
fn a_wire_pair_of_outputs_over_the_cap_diffs_the_texts_as_kept() {
    let properties: serde_json::Map<String, serde_json::Value> = (0..3000)
        .map(|i| (format!("p{i:04}"), serde_json::json!({"type": "string"})))
        .collect();
    let tool = Tool::new(
        "big",
        serde_json::json!({"type": "object", "properties": properties}),
    );
    let v0 = Profile::V0.with_config(PipelineConfig::default());
    let lane = Lane::OpenaiStrict;
    let pair = wire_pair(&v0, &v1(), lane, &tool);
    let cut = "prints it whole\n";
    assert!(pair.old.ends_with(cut) && pair.new.ends_with(cut));
    assert!(pair.old.len() < MAX_WIRE_TEXT + 200 && pair.new.len() < MAX_WIRE_TEXT + 200);
    let kept = capped(diff::unified(&pair.old, &pair.new, &v0.id(), &v1().id()));
    assert!(pair.unified == kept, "not the diff of the texts as kept");
    let whole = capped(diff::unified(
        &diff::pretty(&lane.render(&v0.shape(lane, &tool).tool)),
        &diff::pretty(&lane.render(&v1().shape(lane, &tool).tool)),
        &v0.id(),
        &v1().id(),
    ));
    assert!(
        pair.unified != whole,
        "the texts as kept diff like the whole outputs"
    );
}
