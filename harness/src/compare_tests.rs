use std::collections::BTreeMap;

use serde_json::json;

use super::*;
use crate::pipeline::{Outcome, Shaped};
use crate::tool::Tool;

/// Errors on `boom`, fails closed on `closed`, silently drops the
/// `minLength` of `trim`; every other tool ships as declared.
struct Fake;

impl Pipeline for Fake {
    fn id(&self) -> String {
        "fake".into()
    }

    fn shape(&self, _lane: Lane, tool: &Tool) -> Shaped {
        let unchanged = |outcome| Shaped {
            tool: Tool {
                strict: None,
                ..tool.clone()
            },
            degradations: Vec::new(),
            outcome,
        };
        match tool.name.as_str() {
            "boom" => unchanged(Outcome::Errored {
                message: "fake: cannot shape".into(),
            }),
            "closed" => unchanged(Outcome::FailedClosed {
                reason: "fake: root oneOf".into(),
            }),
            _ => {
                let mut t = tool.clone();
                if let Some(q) = t.input_schema.pointer_mut("/properties/q") {
                    q.as_object_mut().unwrap().shift_remove("minLength");
                }
                Shaped {
                    tool: t,
                    degradations: Vec::new(),
                    outcome: Outcome::Shaped,
                }
            }
        }
    }
}

/// Ships every tool as declared, and serves `anthropic-messages` only.
struct AnthropicOnly;

impl Pipeline for AnthropicOnly {
    fn id(&self) -> String {
        "anthropic-only".into()
    }

    fn shape(&self, _lane: Lane, tool: &Tool) -> Shaped {
        Shaped {
            tool: tool.clone(),
            degradations: Vec::new(),
            outcome: Outcome::Shaped,
        }
    }

    fn serves(&self, lane: Lane) -> bool {
        lane == Lane::AnthropicMessages
    }
}

fn tools() -> Vec<Tool> {
    let closed_object = |props: serde_json::Value| json!({"type": "object", "properties": props, "required": ["q"], "additionalProperties": false});
    vec![
        Tool::new("plain", closed_object(json!({"q": {"type": "string"}}))),
        Tool::new(
            "trim",
            closed_object(json!({"q": {"type": "string", "minLength": 1}})),
        ),
        Tool::new("boom", json!({"type": "object", "properties": {}})),
        Tool::new(
            "union",
            json!({"type": "object", "anyOf": [
                {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false},
                {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"], "additionalProperties": false}
            ]}),
        ),
        Tool::new(
            "closed",
            json!({"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"], "additionalProperties": false, "oneOf": [{"required": ["x"]}]}),
        ),
    ]
}

/// The five tools of catalog `t` on `lanes`, planned by `prepare_compare`
/// from an MCP `tools/list` file `t.json`.
fn inputs(lanes: &[Lane]) -> Inputs {
    let dir = tempfile::tempdir().unwrap();
    let listed: Vec<serde_json::Value> = tools()
        .iter()
        .map(|t| json!({"name": t.name, "inputSchema": t.input_schema}))
        .collect();
    std::fs::write(
        dir.path().join("t.json"),
        json!({ "tools": listed }).to_string(),
    )
    .unwrap();
    let inputs = prepare_compare(&CompareOptions {
        pipelines: &[],
        lanes: lanes.to_vec(),
        own_corpus: vec![dir.path().to_owned()],
        external_corpus: Vec::new(),
        fuzz: None,
        shard: None,
        jobs: 1,
    })
    .unwrap();
    // Each tool as given, on every lane.
    let cases = inputs.cases();
    assert_eq!(cases.len(), tools().len() * lanes.len());
    for c in &cases {
        let name = c.plan.case.strip_prefix("t#").unwrap();
        let want = tools().into_iter().find(|t| t.name == name).unwrap();
        assert_eq!(*c.tool.unpack().unwrap().0, want);
    }
    inputs
}

fn counts<const N: usize>(pairs: [(&str, usize); N]) -> BTreeMap<String, usize> {
    pairs.iter().map(|(k, n)| ((*k).to_owned(), *n)).collect()
}

fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn compare_counts_errored_failed_closed_rejected_and_silent_drops_per_cell() {
    let (fake, only) = (Fake, AnthropicOnly);
    let pipelines: [&(dyn Pipeline + Sync); 2] = [&fake, &only];
    // Lanes given out of id order, one of them twice.
    let lanes = vec![
        Lane::OpenaiStrict,
        Lane::AnthropicMessages,
        Lane::OpenaiStrict,
    ];
    let opts = CompareOptions {
        pipelines: &pipelines,
        lanes: lanes.clone(),
        own_corpus: Vec::new(),
        external_corpus: Vec::new(),
        fuzz: None,
        shard: None,
        jobs: 2,
    };
    let inputs = inputs(&[Lane::AnthropicMessages, Lane::OpenaiStrict]);
    let mut progress = Vec::new();
    let compared = compare(&opts, &inputs, &mut |done, total| {
        progress.push((done, total));
    });
    let r = &compared.report;

    assert_eq!(r.pipelines, ["fake", "anthropic-only"]);
    assert_eq!(r.lanes, [Lane::AnthropicMessages, Lane::OpenaiStrict]);
    assert_eq!(r.tools, 5);
    let order: Vec<(Lane, &str, bool)> = r
        .cells
        .iter()
        .map(|c| (c.lane, c.pipeline.as_str(), c.served))
        .collect();
    assert_eq!(
        order,
        [
            (Lane::AnthropicMessages, "fake", true),
            (Lane::AnthropicMessages, "anthropic-only", true),
            (Lane::OpenaiStrict, "fake", true),
            (Lane::OpenaiStrict, "anthropic-only", false),
        ]
    );
    // 5 cases × 2 lanes for `fake`, 5 × 1 for `anthropic-only`.
    assert_eq!(progress.len(), 15);
    assert_eq!(progress.last(), Some(&(15, 15)));

    // `fake` on anthropic-messages: plain and trim accepted, union and
    // closed (failed closed, shipped as declared) rejected for their root
    // composition, boom errored and not judged; trim's dropped minLength
    // is the one silent change.
    let fake_messages = r.cell(Lane::AnthropicMessages, "fake").unwrap();
    assert_eq!(
        fake_messages.stats,
        Some(CellStats {
            cases: 5,
            accepted: 2,
            accepted_pct: Some(40.0),
            rejected: 2,
            rejected_by_rule: counts([("anthropic-root-composition", 2)]),
            errored: 1,
            errored_pct: Some(20.0),
            failed_closed: 1,
            violations: 1,
            violations_by_invariant: [(Invariant::NeverSilent, 1)].into(),
            examples: Examples {
                rejected_by_rule: [(
                    "anthropic-root-composition".to_owned(),
                    ids(&["t#closed", "t#union"])
                )]
                .into(),
                errored: ids(&["t#boom"]),
                failed_closed: ids(&["t#closed"]),
                violations_by_invariant: [(Invariant::NeverSilent, ids(&["t#trim"]))].into(),
            },
        })
    );

    // The verbatim pipeline on the same lane: boom ships and is accepted.
    let only_messages = r.cell(Lane::AnthropicMessages, "anthropic-only").unwrap();
    let s = only_messages.stats.as_ref().unwrap();
    assert_eq!(
        (
            s.cases,
            s.accepted,
            s.rejected,
            s.errored,
            s.failed_closed,
            s.violations
        ),
        (5, 3, 2, 0, 0, 0)
    );
    assert_eq!(s.accepted_pct, Some(60.0));
    assert_eq!(s.errored_pct, Some(0.0));

    // openai-strict (every tool strict): the closed objects pass; both
    // root compositions are rejected, union's also as an open object
    // without `properties`, closed's for `oneOf` (strict takes `anyOf` only)
    // and for its branch `{"required": ["x"]}`, which has no type.
    let fake_strict = r.cell(Lane::OpenaiStrict, "fake").unwrap();
    let s = fake_strict.stats.as_ref().unwrap();
    assert_eq!(
        (s.cases, s.accepted, s.rejected, s.errored, s.failed_closed),
        (5, 2, 2, 1, 1)
    );
    assert_eq!(
        s.rejected_by_rule,
        counts([
            ("openai-object-schema-missing-properties", 1),
            ("openai-root-composition", 2),
            ("openai-strict-additionalproperties-false", 1),
            ("openai-strict-keyword-not-permitted", 1),
            ("openai-strict-subschema-missing-type", 1)
        ])
    );
    assert_eq!(
        s.examples.rejected_by_rule["openai-strict-keyword-not-permitted"],
        ["t#closed"]
    );
    assert_eq!(
        s.violations_by_invariant,
        [(Invariant::NeverSilent, 1)].into()
    );

    // A lane the pipeline does not serve: no stats, no time, nothing run.
    let unserved = r.cell(Lane::OpenaiStrict, "anthropic-only").unwrap();
    assert_eq!(unserved.stats, None);
    let timed: Vec<(Lane, usize)> = compared
        .times
        .iter()
        .map(|t| (t.lane, t.pipeline))
        .collect();
    assert_eq!(
        timed,
        [
            (Lane::AnthropicMessages, 0),
            (Lane::AnthropicMessages, 1),
            (Lane::OpenaiStrict, 0)
        ]
    );

    // The JSON form: the unserved cell is only its key and `served`; the
    // same inputs on one worker give the same report.
    assert_eq!(
        serde_json::to_value(unserved).unwrap(),
        json!({"lane": "openai-strict", "pipeline": "anthropic-only", "served": false})
    );
    let one = compare(&CompareOptions { jobs: 1, ..opts }, &inputs, &mut |_, _| {});
    assert_eq!(one.report, compared.report);
}

#[test]
fn percentages_round_half_up_to_one_decimal_and_are_absent_without_cases() {
    assert_eq!(percent(2, 3), Some(66.7));
    assert_eq!(percent(1, 3), Some(33.3));
    assert_eq!(percent(1, 8), Some(12.5));
    assert_eq!(percent(1, 16), Some(6.3));
    assert_eq!(percent(0, 7), Some(0.0));
    assert_eq!(percent(7, 7), Some(100.0));
    assert_eq!(percent(0, 0), None);
}

#[test]
fn examples_keep_the_smallest_case_ids_whatever_the_arrival_order() {
    let mut list = BTreeSet::new();
    for c in ["c#9", "c#1", "c#8", "c#2", "c#7", "c#3", "c#6", "c#0"] {
        example(&mut list, c);
    }
    assert_eq!(
        list.into_iter().collect::<Vec<_>>(),
        ["c#0", "c#1", "c#2", "c#3", "c#6"]
    );
}
