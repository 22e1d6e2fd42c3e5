//! CLI tests: every user-visible behaviour of the binary, on tiny fixtures
//! copied to a temporary directory, with insta snapshots of what users see.

mod util;

use serde_json::{Value, json};
use util::{copy_of_testdata, outputs, wireshape};

fn run(args: &[&str]) -> (i32, String, String) {
    let dir = copy_of_testdata();
    let out = wireshape(dir.path()).args(args).output().expect("run");
    let (o, e) = outputs(&out);
    (out.status.code().expect("exit code"), o, e)
}

fn parse(stdout: &str) -> Value {
    serde_json::from_str(stdout).expect("stdout is JSON")
}

#[test]
fn shape_anthropic_messages_v1_narrows_a_root_any_of() {
    let (code, out, err) = run(&[
        "shape",
        "--lane",
        "anthropic-messages",
        "--pipeline",
        "v1",
        "union.json",
    ]);
    assert_eq!(code, 0, "{err}");
    let tools = parse(&out);
    let quote = &tools[0];
    assert!(quote["input_schema"].get("anyOf").is_none());
    assert_eq!(quote["input_schema"]["type"], json!("object"));
    assert_eq!(
        quote["input_schema"]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["range", "ticker", "isin"]
    );
    assert_eq!(
        quote["description"],
        json!(
            "Get a price quote.\n\nAt least one of these parameter groups must be provided: ticker | isin."
        )
    );
    insta::assert_snapshot!(out);
}

#[test]
fn shape_anthropic_compatible_ships_input_schema_bytes_unchanged() {
    let dir = copy_of_testdata();
    let input: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("union.json")).unwrap())
            .unwrap();
    for pipeline in ["v0", "v1"] {
        let out = wireshape(dir.path())
            .args([
                "shape",
                "--lane",
                "anthropic-compatible",
                "--pipeline",
                pipeline,
                "union.json",
            ])
            .output()
            .unwrap();
        let tools = parse(&outputs(&out).0);
        for (i, t) in tools.as_array().unwrap().iter().enumerate() {
            let same = serde_json::to_string(&t["input_schema"]).unwrap()
                == serde_json::to_string(&input["tools"][i]["inputSchema"]).unwrap();
            // v0 flattened third-party Messages lanes too; v1 ships them verbatim
            assert_eq!(same, pipeline == "v1", "{pipeline} tool {i}");
        }
    }
}

#[test]
fn shape_deepseek_strict_v1_removes_optionals_and_fails_closed_on_a_required_nullable() {
    let (code, out, err) = run(&[
        "shape",
        "--lane",
        "deepseek-strict",
        "--pipeline",
        "v1",
        "--config",
        "config.toml",
        "--explain",
        "strict.json",
    ]);
    assert_eq!(code, 0, "{err}");
    let tools = parse(&out);
    assert_eq!(
        tools[0]["function"]["description"],
        json!(
            "Read a file.\n\nOptional parameters removed for strict mode (do not send them): offset, limit.\n\nConstraints this schema does not enforce (still follow them): path: minLength 1."
        )
    );
    assert_eq!(tools[0]["function"]["strict"], json!(true));
    // required nullable: shipped unchanged, without the strict flag
    assert_eq!(
        serde_json::to_string(&tools[1]["function"]["parameters"]).unwrap(),
        r#"{"type":"object","properties":{"mode":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["mode"]}"#
    );
    assert!(tools[1]["function"].get("strict").is_none());
    insta::assert_snapshot!("deepseek_strict_explain", err);
    insta::assert_snapshot!("deepseek_strict_tools", out);
}

#[test]
fn shape_openai_responses_v1_removes_exactly_the_lookaround_patterns() {
    let (code, out, err) = run(&[
        "shape",
        "--lane",
        "openai-responses",
        "--pipeline",
        "v1",
        "--explain",
        "patterns.json",
    ]);
    assert_eq!(code, 0, "{err}");
    let p = &parse(&out)[0]["parameters"]["properties"];
    assert!(p["domain"].get("pattern").is_none());
    assert!(p["tags"]["items"].get("pattern").is_none());
    assert_eq!(p["owner"]["pattern"], json!("^[a-z]+$"));
    assert_eq!(p["literal"]["pattern"], json!("^[(?=]+$"));
    let removed: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("removed pattern"))
        .collect();
    assert_eq!(removed.len(), 2, "{err}");
    insta::assert_snapshot!(err);
}

#[test]
fn shape_trace_prints_the_schema_after_each_pass_that_changed_it() {
    let (code, out, err) = run(&[
        "shape",
        "--lane",
        "openai-responses",
        "--trace",
        "patterns.json",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = err.lines().collect();
    // the input, then only the passes that changed the schema, in order
    let passes: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l.trim_start().split(':').next().unwrap())
        .collect();
    assert_eq!(passes, ["strip-lookaround-patterns"], "{err}");
    assert!(lines[0].contains(": input {"), "{err}");
    // the last step is exactly what `shape` ships
    let last = lines[1]
        .trim_start()
        .strip_prefix("strip-lookaround-patterns: ")
        .unwrap();
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(last).unwrap(),
        parse(&out)[0]["parameters"]
    );
}

#[test]
fn shape_openai_responses_v0_keeps_lookaround_patterns() {
    let (code, out, _) = run(&[
        "shape",
        "--lane",
        "openai-responses",
        "--pipeline",
        "v0",
        "patterns.json",
    ]);
    assert_eq!(code, 0);
    let p = &parse(&out)[0]["parameters"]["properties"];
    assert_eq!(
        p["domain"]["pattern"],
        json!("^(?!-)[a-z0-9-]{1,63}(?<!-)$")
    );
}

#[test]
fn shape_reads_standard_input() {
    let dir = copy_of_testdata();
    let out = wireshape(dir.path())
        .args(["shape", "--lane", "openai-chat", "-"])
        .write_stdin(r#"[{"name":"n","input_schema":{"type":"object"}}]"#)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        serde_json::to_string(&parse(&outputs(&out).0)).unwrap(),
        r#"[{"type":"function","function":{"name":"n","parameters":{"type":"object","properties":{}}}}]"#
    );
}

#[test]
fn shape_uses_the_pipeline_from_the_environment() {
    let dir = copy_of_testdata();
    let out = wireshape(dir.path())
        .env("WIRESHAPE_PIPELINE", "verbatim")
        .args(["shape", "--lane", "anthropic-messages", "union.json"])
        .output()
        .unwrap();
    let tools = parse(&outputs(&out).0);
    assert!(tools[0]["input_schema"].get("anyOf").is_some());
}

#[test]
fn lanes_lists_every_lane() {
    let (code, out, _) = run(&["lanes"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!(out);
}

#[test]
fn pipelines_lists_passes_per_lane() {
    let (code, out, _) = run(&["pipelines"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!(out);
}

#[test]
fn an_unknown_lane_is_a_usage_error_with_exit_2() {
    let (code, out, err) = run(&["shape", "--lane", "anthropic", "union.json"]);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    // Refused by the argument parser, before the file is read.
    assert_eq!(
        err,
        "error: invalid value 'anthropic' for '--lane <LANE>': unknown lane `anthropic` (see `wireshape lanes`)\n\n\
         For more information, try '--help'.\n"
    );
}

#[test]
fn an_unknown_lane_in_a_list_is_refused_before_any_work() {
    // `run` would write reports/latest: nothing is written.
    let dir = copy_of_testdata();
    let out = wireshape(dir.path())
        .args(["run", "--lanes", "openai-chat,gemini-pro"])
        .output()
        .expect("run");
    let (code, (out, err)) = (out.status.code().expect("exit code"), outputs(&out));
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert_eq!(
        err,
        "error: invalid value 'gemini-pro' for '--lanes <LANES>': unknown lane `gemini-pro` (see `wireshape lanes`)\n\n\
         For more information, try '--help'.\n"
    );
    assert!(!dir.path().join("reports").exists());
}

#[test]
fn an_unknown_catalog_format_is_refused_by_the_parser() {
    let (code, out, err) = run(&[
        "shape",
        "--lane",
        "openai-chat",
        "--format",
        "yaml",
        "union.json",
    ]);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert_eq!(
        err,
        "error: invalid value 'yaml' for '--format <FORMAT>': unknown catalog format `yaml`\n\n\
         For more information, try '--help'.\n"
    );
}

#[test]
fn an_unknown_pipeline_is_a_usage_error_with_exit_2() {
    let (code, _, err) = run(&[
        "shape",
        "--lane",
        "openai-chat",
        "--pipeline",
        "v9",
        "union.json",
    ]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "wireshape: unknown pipeline `v9`: not v0, v1, verbatim or `cmd:<command line>`, \
         and there is no config file to define it (--config)\n"
    );
}

#[test]
fn a_broken_tools_file_names_path_line_and_column_with_exit_2() {
    let (code, out, err) = run(&["shape", "--lane", "openai-chat", "broken.json"]);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    insta::assert_snapshot!(err);
}

#[test]
fn a_missing_tools_file_is_an_input_error_with_exit_2() {
    let (code, _, err) = run(&["shape", "--lane", "openai-chat", "nope.json"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("wireshape: nope.json: cannot read: "),
        "{err}"
    );
}

#[test]
fn a_broken_config_file_names_its_position_with_exit_2() {
    let dir = copy_of_testdata();
    std::fs::write(
        dir.path().join("bad.toml"),
        "[deepseek-strict]\nstrict_unusable = 3\n",
    )
    .unwrap();
    let out = wireshape(dir.path())
        .args([
            "shape",
            "--lane",
            "deepseek-strict",
            "--config",
            "bad.toml",
            "strict.json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    insta::assert_snapshot!(outputs(&out).1);
}

#[test]
fn missing_arguments_are_a_clap_usage_error_with_exit_2() {
    let (code, _, err) = run(&["shape"]);
    assert_eq!(code, 2);
    assert!(err.contains("--lane <LANE>"), "{err}");
}

#[test]
fn help_exits_0() {
    let (code, out, _) = run(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Shape one tools file"), "{out}");
}

#[test]
fn check_lists_each_rejection_with_rule_evidence_and_the_v1_fix() {
    let dir = copy_of_testdata();
    std::fs::create_dir_all(dir.path().join("recordings")).unwrap();
    let out = wireshape(dir.path())
        .args([
            "check",
            "--lane",
            "anthropic-messages",
            "--recordings",
            "none",
            "union.json",
        ])
        .output()
        .unwrap();
    let (o, e) = outputs(&out);
    assert_eq!(out.status.code(), Some(1), "{e}");
    insta::assert_snapshot!(o);
}

#[test]
fn check_exits_0_when_no_lane_rejects_anything() {
    let dir = copy_of_testdata();
    let out = wireshape(dir.path())
        .args(["check", "--lane", "openai-chat", "-"])
        .write_stdin(r#"[{"name":"ok","input_schema":{"type":"object","properties":{"q":{"type":"string"}}}}]"#)
        .output()
        .unwrap();
    let (o, e) = outputs(&out);
    assert_eq!(out.status.code(), Some(0), "{e}");
    assert_eq!(
        o,
        "1 tools checked on openai-chat as of 2026-11-30: 0 rejections, 1 tools accepted everywhere\n"
    );
}

#[test]
fn check_json_output_is_stable() {
    let dir = copy_of_testdata();
    let out = wireshape(dir.path())
        .args(["check", "--lane", "gemini-openapi", "--output-format", "json", "--as-of", "2026-01-01", "-"])
        .write_stdin(r#"[{"name":"list","input_schema":{"type":"object","properties":{"ids":{"type":"array"}},"required":["ids"]}}]"#)
        .output()
        .unwrap();
    let (o, e) = outputs(&out);
    assert_eq!(out.status.code(), Some(1), "{e}");
    insta::assert_snapshot!(o);
}

#[test]
fn check_rejects_a_malformed_as_of_date() {
    let (code, _, err) = run(&["check", "--as-of", "2026-13", "union.json"]);
    assert_eq!(code, 2);
    // Refused by the argument parser, before any work.
    assert_eq!(
        err,
        "error: invalid value '2026-13' for '--as-of <AS_OF>': bad date `2026-13`: expected YYYY-MM-DD\n\n\
         For more information, try '--help'.\n"
    );
}

#[test]
fn replay_names_a_recording_whose_rule_the_oracle_does_not_implement() {
    let dir = copy_of_testdata();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../recordings/anthropic");
    let mut rec: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("anthropic-root-composition-5319.json")).unwrap(),
    )
    .unwrap();
    rec["rule"] = json!("anthropic-made-up-rule");
    rec["id"] = json!("anthropic-made-up-rule-5319");
    std::fs::create_dir_all(dir.path().join("recs/anthropic")).unwrap();
    std::fs::write(
        dir.path()
            .join("recs/anthropic/anthropic-made-up-rule-5319.json"),
        serde_json::to_string_pretty(&rec).unwrap(),
    )
    .unwrap();
    let out = wireshape(dir.path())
        .args(["replay", "--recordings", "recs"])
        .output()
        .unwrap();
    let (o, e) = outputs(&out);
    assert_eq!(out.status.code(), Some(1), "{e}");
    assert!(
        o.contains("recording anthropic-made-up-rule-5319: expected rule anthropic-made-up-rule, the oracle said: anthropic-root-composition"),
        "{o}"
    );
}

#[test]
fn replay_of_the_committed_recordings_exits_0() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = wireshape(&root).args(["replay"]).output().unwrap();
    let (o, e) = outputs(&out);
    assert_eq!(out.status.code(), Some(0), "{o}{e}");
    assert!(
        o.ends_with("91 recordings: 1 declared-gap, 89 fixed, 1 rule-retired\n"),
        "{o}"
    );
}

/// `(tool, rule, JSON path, message)` of every rejection of `rules` in
/// `check --output-format json` output, each also asserted to carry its
/// documentation URL `doc`.
fn rejections_of(stdout: &str, rules: &[&str], doc: &str) -> Vec<(String, String, String, String)> {
    let v = parse(stdout);
    v["rejections"]
        .as_array()
        .expect("rejections")
        .iter()
        .filter(|r| rules.contains(&r["rule"].as_str().unwrap_or_default()))
        .map(|r| {
            let docs: Vec<&str> = r["docs"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(Value::as_str)
                .collect();
            assert!(docs.contains(&doc), "{r}");
            let s = |k: &str| r[k].as_str().unwrap().to_owned();
            (s("tool"), s("rule"), s("path"), s("message"))
        })
        .collect()
}

fn row(tool: &str, rule: &str, path: &str, message: &str) -> (String, String, String, String) {
    (tool.into(), rule.into(), path.into(), message.into())
}

#[test]
fn check_openai_strict_reports_each_unsupported_construct_with_rule_and_doc_url() {
    let dir = copy_of_testdata();
    std::fs::create_dir_all(dir.path().join("recordings")).unwrap();
    let out = wireshape(dir.path())
        .args([
            "check",
            "--lane",
            "openai-strict",
            "--output-format",
            "json",
            "strict-constructs.json",
        ])
        .output()
        .unwrap();
    let (o, e) = outputs(&out);
    assert_eq!(out.status.code(), Some(1), "{e}");
    let doc = "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas";
    let rules = [
        "openai-strict-keyword-not-permitted",
        "openai-strict-format-unsupported",
    ];
    let kw = "openai-strict-keyword-not-permitted";
    let ctx = |tool: &str, at: &str, k: &str| {
        format!("Invalid schema for function '{tool}': In context={at}, '{k}' is not permitted.")
    };
    assert_eq!(
        rejections_of(&o, &rules, doc),
        [
            row(
                "fetch_url",
                "openai-strict-format-unsupported",
                "/properties/url/format",
                "Invalid schema for function 'fetch_url': In context=('properties', 'url'), 'uri' is not a valid format."
            ),
            row(
                "update_labels",
                kw,
                "/properties/labels/oneOf",
                &ctx("update_labels", "('properties', 'labels')", "oneOf")
            ),
            row(
                "histogram",
                kw,
                "/properties/bins/anyOf/1/not",
                &ctx("histogram", "('properties', 'bins', 'anyOf', 1)", "not")
            ),
            row(
                "set_mode",
                kw,
                "/properties/mode/if",
                &ctx("set_mode", "('properties', 'mode')", "if")
            ),
            row(
                "set_mode",
                kw,
                "/properties/mode/then",
                &ctx("set_mode", "('properties', 'mode')", "then")
            ),
            row(
                "login",
                kw,
                "/dependentRequired",
                &ctx("login", "()", "dependentRequired")
            ),
            row(
                "set_env",
                kw,
                "/properties/env/patternProperties",
                &ctx("set_env", "('properties', 'env')", "patternProperties")
            ),
            row(
                "tag",
                kw,
                "/properties/tags/propertyNames",
                &ctx("tag", "('properties', 'tags')", "propertyNames")
            ),
            row(
                "find",
                kw,
                "/properties/ids/contains",
                &ctx("find", "('properties', 'ids')", "contains")
            ),
            row(
                "move_to",
                kw,
                "/properties/point/prefixItems",
                &ctx("move_to", "('properties', 'point')", "prefixItems")
            ),
            row(
                "merge",
                kw,
                "/properties/ids/uniqueItems",
                &ctx("merge", "('properties', 'ids')", "uniqueItems")
            ),
        ]
    );
    // The text form names the rule and the documentation URL with its read date.
    let text = wireshape(dir.path())
        .args(["check", "--lane", "openai-strict", "strict-constructs.json"])
        .output()
        .unwrap();
    let (t, _) = outputs(&text);
    assert!(
        t.contains("openai-strict-keyword-not-permitted at /properties/labels/oneOf"),
        "{t}"
    );
    assert!(
        t.contains(&format!("evidence: documented; {doc} (read 2026-12-01)")),
        "{t}"
    );
}

#[test]
fn check_gemini_openapi_reports_each_unknown_schema_field_with_rule_and_doc_url() {
    let dir = copy_of_testdata();
    std::fs::create_dir_all(dir.path().join("recordings")).unwrap();
    let out = wireshape(dir.path())
        .args([
            "check",
            "--lane",
            "gemini-openapi",
            "--output-format",
            "json",
            "strict-constructs.json",
        ])
        .output()
        .unwrap();
    let (o, e) = outputs(&out);
    assert_eq!(out.status.code(), Some(1), "{e}");
    let doc = "https://ai.google.dev/api/caching#Schema";
    let unknown = |i: usize, at: &str, k: &str| {
        format!(
            "Invalid JSON payload received. Unknown name \"{k}\" at 'tools[0].function_declarations[{i}].parameters{at}': Cannot find field."
        )
    };
    let proto = "gemini-unknown-field-schema-proto";
    let names = "gemini-unknown-field-propertynames";
    assert_eq!(
        rejections_of(&o, &[proto, names], doc),
        [
            row(
                "update_labels",
                proto,
                "/properties/labels/oneOf",
                &unknown(1, ".properties[0].value", "oneOf")
            ),
            row(
                "histogram",
                proto,
                "/properties/bins/anyOf/1/not",
                &unknown(2, ".properties[0].value.any_of[1]", "not")
            ),
            row(
                "set_mode",
                proto,
                "/properties/mode/if",
                &unknown(3, ".properties[0].value", "if")
            ),
            row(
                "set_mode",
                proto,
                "/properties/mode/then",
                &unknown(3, ".properties[0].value", "then")
            ),
            row(
                "login",
                proto,
                "/dependentRequired",
                &unknown(4, "", "dependentRequired")
            ),
            row(
                "set_env",
                names,
                "/properties/env/patternProperties",
                &unknown(5, ".properties[0].value", "patternProperties")
            ),
            row(
                "tag",
                names,
                "/properties/tags/propertyNames",
                &unknown(6, ".properties[0].value", "propertyNames")
            ),
            row(
                "find",
                proto,
                "/properties/ids/contains",
                &unknown(7, ".properties[0].value", "contains")
            ),
            row(
                "move_to",
                proto,
                "/properties/point/prefixItems",
                &unknown(8, ".properties[0].value", "prefixItems")
            ),
            row(
                "merge",
                proto,
                "/properties/ids/uniqueItems",
                &unknown(9, ".properties[0].value", "uniqueItems")
            ),
        ]
    );
    // A parse error rejects the whole request before validation: the
    // `format: "uri"` tool alone reaches the format rule.
    let out = wireshape(dir.path())
        .args(["check", "--lane", "gemini-openapi", "--output-format", "json", "-"])
        .write_stdin(r#"[{"name":"fetch_url","description":"Fetch a page.","input_schema":{"type":"object","properties":{"url":{"type":"string","format":"uri"}},"required":["url"]}}]"#)
        .output()
        .unwrap();
    let (o, e) = outputs(&out);
    assert_eq!(out.status.code(), Some(1), "{e}");
    assert_eq!(
        rejections_of(
            &o,
            &["gemini-string-format-enum-datetime-only"],
            "https://firebase.google.com/docs/reference/js/ai.schemashared"
        ),
        [row(
            "fetch_url",
            "gemini-string-format-enum-datetime-only",
            "/properties/url/format",
            "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[url].format: only 'enum' and 'date-time' are supported for STRING type"
        )]
    );
}

#[test]
fn shape_writes_the_tools_in_file_order_whatever_the_jobs() {
    let dir = copy_of_testdata();
    // The first tool takes far longer than the others, so with several
    // threads it finishes last: only writing by index keeps it first.
    let heavy: serde_json::Map<String, Value> = (0..3000)
        .map(|i| {
            (
                format!("p{i}"),
                json!({"$ref": "#/$defs/n", "description": "x"}),
            )
        })
        .collect();
    let tools: Vec<Value> = (0..40)
        .map(|i| {
            if i == 0 {
                return json!({
                    "name": "tool_00",
                    "inputSchema": {"type": "object", "properties": heavy, "$defs": {"n": {"type": "integer"}}}
                });
            }
            json!({
                "name": format!("tool_{i:02}"),
                "description": format!("Tool {i}."),
                "inputSchema": {
                    "type": "object",
                    "properties": {"q": {"type": "string", "minLength": i}, "n": {"$ref": "#/$defs/n"}},
                    "$defs": {"n": {"type": "integer"}}
                }
            })
        })
        .collect();
    std::fs::write(
        dir.path().join("many.json"),
        serde_json::to_string(&json!({ "tools": tools })).unwrap(),
    )
    .unwrap();
    let shape = |jobs: &str| {
        let out = wireshape(dir.path())
            .args([
                "shape",
                "--lane",
                "gemini-openapi",
                "--explain",
                "--jobs",
                jobs,
                "many.json",
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let (o, e) = outputs(&out);
        (o, e)
    };
    let names = |out: &str| -> Vec<String> {
        parse(out)[0]["functionDeclarations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let expected: Vec<String> = (0..40).map(|i| format!("tool_{i:02}")).collect();
    let (one, one_explain) = shape("1");
    assert_eq!(names(&one), expected);
    assert_eq!(
        serde_json::to_string(&parse(&one)[0]["functionDeclarations"][7]["parameters"]).unwrap(),
        r#"{"type":"object","properties":{"q":{"type":"string","minLength":7},"n":{"type":"integer"}}}"#
    );
    for jobs in ["2", "4"] {
        let (many, many_explain) = shape(jobs);
        assert_eq!(names(&many), expected, "--jobs {jobs}");
        assert_eq!(many, one, "--jobs {jobs}");
        assert_eq!(many_explain, one_explain, "--jobs {jobs}");
    }
}
