//! `wireshape compare` end to end on a tiny own catalog, in a temp dir.

mod util;

use std::path::Path;

use serde_json::{Value, json};

use util::{outputs, wireshape};

/// Three tools: `search` (an open object), `pick` (a root `anyOf`), `opt`
/// (a closed object with an optional property).
const TINY: &str = r#"{"tools": [
  {"name": "search", "description": "Search.", "input_schema":
    {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}},
  {"name": "pick", "description": "Pick one.", "input_schema":
    {"type": "object", "anyOf": [
      {"properties": {"a": {"type": "string"}}, "required": ["a"]},
      {"properties": {"b": {"type": "string"}}, "required": ["b"]}]}},
  {"name": "opt", "description": "Optional n.", "input_schema":
    {"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}},
     "required": ["q"], "additionalProperties": false}}
]}"#;

fn compare_in(dir: &Path, output: &str) -> (i32, String, String) {
    let out = wireshape(dir)
        .env_remove("WIRESHAPE_CORPUS_PATH")
        .args([
            "compare",
            "--pipelines",
            "verbatim,v1",
            "--lanes",
            "openai-strict,anthropic-messages",
            "--own",
            "own",
            "--output",
            output,
        ])
        .output()
        .expect("run");
    let (o, e) = outputs(&out);
    (out.status.code().expect("exit code"), o, e)
}

/// The counts of one cell of `compare.json`, examples left out.
fn counts(report: &Value, lane: &str, pipeline: &str) -> Value {
    let cell = report["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["lane"] == lane && c["pipeline"] == pipeline)
        .unwrap_or_else(|| panic!("no cell {lane} {pipeline}"));
    let mut cell = cell.clone();
    cell.as_object_mut().unwrap().shift_remove("examples");
    cell
}

#[test]
fn compare_verbatim_and_v1_on_openai_strict_and_anthropic_messages_counts_each_cell() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("own")).unwrap();
    std::fs::write(dir.path().join("own/tiny.json"), TINY).unwrap();

    let (code, out, err) = compare_in(dir.path(), "out");
    assert_eq!(code, 0, "{out}{err}");
    let report = dir.path().join("out");
    for file in ["summary.md", "compare.json", "index.html", "run.json"] {
        assert!(report.join(file).is_file(), "{file} missing");
    }
    let json: Value =
        serde_json::from_slice(&std::fs::read(report.join("compare.json")).unwrap()).unwrap();
    assert_eq!(json["pipelines"], json!(["verbatim", "v1"]));
    assert_eq!(
        json["lanes"],
        json!(["anthropic-messages", "openai-strict"])
    );
    assert_eq!(json["tools"], 3);

    // Anthropic rejects only pick's root anyOf, as sent; v1 strips it.
    assert_eq!(
        counts(&json, "anthropic-messages", "verbatim"),
        json!({
            "lane": "anthropic-messages", "pipeline": "verbatim", "served": true,
            "cases": 3, "accepted": 2, "accepted_pct": 66.7,
            "rejected": 1, "rejected_by_rule": {"anthropic-root-composition": 1},
            "errored": 0, "errored_pct": 0.0, "failed_closed": 0,
            "violations": 0, "violations_by_invariant": {}
        })
    );
    // openai-strict sends every tool strict: search is not closed, pick is
    // a root composition (its root and branches not closed, its root an
    // object without properties, its branches without a type), opt leaves
    // `n` out of `required`.
    assert_eq!(
        counts(&json, "openai-strict", "verbatim"),
        json!({
            "lane": "openai-strict", "pipeline": "verbatim", "served": true,
            "cases": 3, "accepted": 0, "accepted_pct": 0.0,
            "rejected": 3, "rejected_by_rule": {
                "openai-object-schema-missing-properties": 1,
                "openai-root-composition": 1,
                "openai-strict-additionalproperties-false": 2,
                "openai-strict-required-all-keys": 1,
                "openai-strict-subschema-missing-type": 1
            },
            "errored": 0, "errored_pct": 0.0, "failed_closed": 0,
            "violations": 0, "violations_by_invariant": {}
        })
    );
    // v1 shapes every tool to pass both lanes, recording every change.
    for lane in ["anthropic-messages", "openai-strict"] {
        assert_eq!(
            counts(&json, lane, "v1"),
            json!({
                "lane": lane, "pipeline": "v1", "served": true,
                "cases": 3, "accepted": 3, "accepted_pct": 100.0,
                "rejected": 0, "rejected_by_rule": {},
                "errored": 0, "errored_pct": 0.0, "failed_closed": 0,
                "violations": 0, "violations_by_invariant": {}
            })
        );
    }
    let cell = &json["cells"][2];
    assert_eq!(
        (&cell["lane"], &cell["pipeline"]),
        (&json!("openai-strict"), &json!("verbatim"))
    );
    assert_eq!(
        cell["examples"]["rejected_by_rule"]["openai-strict-additionalproperties-false"],
        json!(["tiny#pick", "tiny#search"])
    );

    let summary = std::fs::read_to_string(report.join("summary.md")).unwrap();
    assert!(
        summary.contains(
            "| `anthropic-messages` | `verbatim` | 3 | 66.7 | 1 | anthropic-root-composition (1) | 0.0 | 0 | 0 |\n"
        ),
        "{summary}"
    );
    assert!(out.contains("wireshape compare: 2 pipelines on 2 lanes over 3 tools (12 cases) in "));
    let run: Value =
        serde_json::from_slice(&std::fs::read(report.join("run.json")).unwrap()).unwrap();
    assert_eq!(run["shape_ms"].as_array().unwrap().len(), 4);

    // The same inputs again: byte-identical files but run.json.
    let (code, _, _) = compare_in(dir.path(), "again");
    assert_eq!(code, 0);
    for file in ["summary.md", "compare.json", "index.html"] {
        assert_eq!(
            std::fs::read(report.join(file)).unwrap(),
            std::fs::read(dir.path().join("again").join(file)).unwrap(),
            "{file} differs between two runs"
        );
    }
}

#[test]
fn compare_refuses_an_unknown_or_repeated_pipeline_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for (list, message) in [
        (
            "v1,v9",
            "wireshape: unknown pipeline `v9`: not v0, v1, verbatim or `cmd:<command line>`, \
             and there is no config file to define it (--config)\n",
        ),
        (
            "v1,verbatim,v1",
            "wireshape: bad pipeline list `v1,verbatim,v1`: `v1` named twice\n",
        ),
        (
            "v1,",
            "wireshape: bad pipeline list `v1,`: an empty entry\n",
        ),
    ] {
        let out = wireshape(dir.path())
            .args(["compare", "--pipelines", list, "--own", "none"])
            .output()
            .unwrap();
        let (o, e) = outputs(&out);
        assert_eq!(out.status.code(), Some(2), "{list}: {o}{e}");
        assert_eq!(e, message);
        assert!(
            !dir.path().join("reports").exists(),
            "{list}: wrote a report"
        );
    }
}
