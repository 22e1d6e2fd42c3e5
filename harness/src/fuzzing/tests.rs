use std::path::Path;

use serde_json::{Value, json};

use super::*;
use crate::pipeline::{PipelineConfig, Profile};

/// Whether `v` has an object member named `key` anywhere.
fn has_key(v: &Value, key: &str) -> bool {
    match v {
        Value::Object(m) => m.iter().any(|(k, c)| k == key || has_key(c, key)),
        Value::Array(a) => a.iter().any(|c| has_key(c, key)),
        _ => false,
    }
}

/// How many object members named `key` `v` holds.
fn count_key(v: &Value, key: &str) -> usize {
    match v {
        Value::Object(m) => m
            .iter()
            .map(|(k, c)| usize::from(k == key) + count_key(c, key))
            .sum(),
        Value::Array(a) => a.iter().map(|c| count_key(c, key)).sum(),
        _ => 0,
    }
}

/// Not idempotent exactly when the schema holds a `pattern` member
/// anywhere: it then appends a note to the description, every time.
struct GrowsOnPattern;

impl Pipeline for GrowsOnPattern {
    fn id(&self) -> String {
        "grows-on-pattern".into()
    }
    fn shape(&self, _lane: Lane, tool: &Tool) -> Shaped {
        let mut t = tool.clone();
        if has_key(&t.input_schema, "pattern") {
            t.append_note("again");
        }
        Shaped {
            tool: t,
            degradations: Vec::new(),
            outcome: Outcome::Shaped,
        }
    }
}

/// Errs with a fixed message on every tool.
struct Errs(&'static str);

impl Pipeline for Errs {
    fn id(&self) -> String {
        "errs".into()
    }
    fn shape(&self, _lane: Lane, tool: &Tool) -> Shaped {
        Shaped {
            tool: tool.clone(),
            degradations: Vec::new(),
            outcome: Outcome::Errored {
                message: self.0.to_owned(),
            },
        }
    }
}

fn big() -> Tool {
    Tool::new(
        "get_weather",
        json!({
            "type": "object",
            "description": "Weather.",
            "properties": {
                "a": {"type": "string", "pattern": "^a+$", "minLength": 1},
                "b": {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^b$"}]},
                "c": {"type": "array", "items": {"type": "object", "properties": {
                    "d": {"type": "string", "pattern": "^d$", "format": "email"}}}}
            },
            "required": ["a", "b"],
            "$defs": {"x": {"type": "string", "pattern": "x"}, "y": {"type": "number"}},
            "allOf": [{"properties": {"e": {"type": "string", "pattern": "e"}}, "required": ["e"]}],
            "additionalProperties": false
        }),
    )
    .with_description("Weather for a city.")
}

fn idempotence_found(tool: &Tool) -> Found {
    judge(&GrowsOnPattern, false, Lane::OpenaiChat, tool)
        .into_iter()
        .find(|f| f.property == Property::Idempotence)
        .expect("fails idempotence")
}

#[test]
fn a_big_schema_shrinks_to_the_one_pattern_that_breaks_idempotence() {
    let input = big();
    let found = idempotence_found(&input);
    let (minimized, message, calls) = minimize(
        &GrowsOnPattern,
        false,
        Lane::OpenaiChat,
        &input,
        &found,
        DEFAULT_SHRINK_CALLS,
        None,
    );
    // Removals first, root members in order: each whose removal leaves a
    // `pattern` elsewhere goes; `allOf` holds the last one and stays, and
    // everything in it but the path to that `pattern` goes. Then hoists
    // bring the schema holding the `pattern` up to the root, and its value
    // is made plain (the member keeps its name: renamed, it passes).
    assert_eq!(
        serde_json::to_value(&minimized).unwrap(),
        json!({"name": "t", "input_schema": {"pattern": ""}})
    );
    assert_eq!(
        message.lines().next(),
        Some("grows-on-pattern on openai-chat: shaping the output again changes it")
    );
    assert!(message.contains(r#"input: {"pattern":""}"#), "{message}");
    // Two calls per check (shape, then shape the output again), 23 checks:
    // the description and the name (2); pass one's removals: 5 root members
    // kept, `allOf` and the 4 steps down to its `pattern` not, `type` and
    // `required` inside kept, `additionalProperties` kept (13); its hoists:
    // `allOf/0`, then `properties`, then `e` to the root (3); its plain
    // values: `pattern` renamed (not kept), its value `""` (kept), renamed
    // again (3); pass two tries removing and renaming the `pattern` (2).
    assert_eq!(calls, 46);
}

#[test]
fn generated_schemas_holding_a_pattern_shrink_to_the_same_one_member_schema() {
    // The first generated tools of seed 0 that hold a `pattern`.
    let inputs: Vec<Tool> = (0..200)
        .map(|i| generate::seeded(0, i))
        .filter(|t| has_key(&t.input_schema, "pattern"))
        .take(5)
        .collect();
    assert_eq!(inputs.len(), 5);
    for input in &inputs {
        let found = idempotence_found(input);
        let (minimized, _, _) = minimize(
            &GrowsOnPattern,
            false,
            Lane::OpenaiChat,
            input,
            &found,
            DEFAULT_SHRINK_CALLS,
            None,
        );
        assert_eq!(
            count_key(&minimized.input_schema, "pattern"),
            1,
            "{minimized:?}"
        );
        // Hoisted to the root, its value made plain.
        assert_eq!(minimized.input_schema, json!({"pattern": ""}), "{input:?}");
        assert_eq!(minimized.description, None);
        assert_eq!(minimized.strict, None);
        assert_eq!(minimized.name, "t");
        // 1-minimal: every single removal left makes it pass.
        for path in shrink::paths(&minimized.input_schema) {
            let smaller = Tool {
                input_schema: shrink::without(&minimized.input_schema, &path),
                ..minimized.clone()
            };
            assert!(
                check_one(
                    &GrowsOnPattern,
                    false,
                    Lane::OpenaiChat,
                    &smaller,
                    Property::Idempotence,
                    None
                )
                .is_none(),
                "{smaller:?}"
            );
        }
    }
}

#[test]
fn a_shrink_stops_at_its_budget_of_pipeline_calls() {
    let input = big();
    let external = Errs("cmd:x: the implementation raised: ValueError");
    let found = judge(&external, true, Lane::OpenaiChat, &input)
        .pop()
        .unwrap();
    assert_eq!(found.property, Property::NoCrash);
    let (minimized, _, calls) =
        minimize(&external, true, Lane::OpenaiChat, &input, &found, 5, None);
    assert_eq!(calls, 5);
    // Five removals kept: the description, the name, then the first three
    // root members.
    assert_eq!(minimized.description, None);
    assert_eq!(minimized.name, "t");
    let keys: Vec<&String> = minimized.input_schema.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["required", "$defs", "allOf", "additionalProperties"]);
}

#[test]
fn a_depth_refusal_is_a_crash_only_for_an_external_pipeline_and_a_panic_always() {
    let t = Tool::new("t", json!({"type": "object"}));
    let deep = Errs("normalize: schema nests deeper than 128 levels at /properties/a");
    assert_eq!(judge(&deep, false, Lane::OpenaiChat, &t), []);
    let found = judge(&deep, true, Lane::OpenaiChat, &t);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].property, Property::NoCrash);
    assert_eq!(
        found[0].message.lines().next(),
        Some(
            "errs on openai-chat: errored: normalize: schema nests deeper than 128 levels at /properties/a"
        )
    );
    let panic = Errs("panic: boom");
    for external in [false, true] {
        let found = judge(&panic, external, Lane::OpenaiChat, &t);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].property, Property::NoCrash);
        assert_eq!(
            found[0].message.lines().next(),
            Some("errs on openai-chat: panic: boom")
        );
    }
    // Another errored outcome of a built-in pipeline is a crash too.
    let other = Errs("something else");
    assert_eq!(judge(&other, false, Lane::OpenaiChat, &t).len(), 1);
}

#[test]
fn v1_refusing_a_schema_past_the_depth_limit_is_not_a_failure() {
    let mut schema = json!({"type": "string"});
    for _ in 0..200 {
        schema = json!({"type": "object", "properties": {"a": schema}});
    }
    let t = Tool::new("t", schema);
    let v1 = Profile::V1.with_config(PipelineConfig::default());
    let shaped = v1.shape(Lane::AnthropicMessages, &t);
    assert!(matches!(shaped.outcome, Outcome::Errored { .. }));
    assert_eq!(judge(&v1, false, Lane::AnthropicMessages, &t), []);
}

#[test]
fn the_oracle_property_names_the_rule_and_a_shrink_keeps_to_it() {
    let verbatim = Profile::Verbatim.with_config(PipelineConfig::default());
    let input = Tool::new(
        "t",
        json!({"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}},
               "anyOf": [{"required": ["q"]}, {"required": ["n"]}]}),
    );
    let found = judge(&verbatim, false, Lane::AnthropicMessages, &input);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].property, Property::Oracle);
    assert_eq!(found[0].key.as_deref(), Some("anthropic-root-composition"));
    let (minimized, message, _) = minimize(
        &verbatim,
        false,
        Lane::AnthropicMessages,
        &input,
        &found[0],
        DEFAULT_SHRINK_CALLS,
        None,
    );
    assert_eq!(minimized.input_schema, json!({"anyOf": []}));
    assert!(
        message.starts_with(
            "verbatim on anthropic-messages: the oracle rejects the shaped output: anthropic-root-composition: "
        ),
        "{message}"
    );
}

#[test]
fn a_run_takes_the_lanes_in_turn_and_reports_failures_in_input_order() {
    let lanes = vec![Lane::OpenaiChat, Lane::AnthropicMessages];
    let opts = FuzzOptions {
        pipeline: &GrowsOnPattern,
        external: false,
        lanes: lanes.clone(),
        seed: 3,
        count: Some(40),
        time: None,
        shrink_calls: 50,
        jobs: 2,
    };
    let mut seen = Vec::new();
    let mut ticks = 0;
    let summary = run(&opts, &mut |_| ticks += 1, &mut |f| {
        if f.property == Property::Idempotence {
            seen.push((f.index, f.lane));
        }
    });
    assert_eq!(summary.tried, 40);
    assert_eq!(ticks, 40);
    let expected: Vec<(u64, Lane)> = (0..40u64)
        .filter(|&i| has_key(&generate::seeded(3, i).input_schema, "pattern"))
        .map(|i| (i, lanes[usize::try_from(i).unwrap() % 2]))
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(seen, expected);
    let per_lane = |lane| {
        summary
            .failures
            .get(&(Property::Idempotence, lane))
            .copied()
            .unwrap_or(0)
    };
    assert_eq!(
        per_lane(Lane::OpenaiChat),
        expected.iter().filter(|e| e.1 == Lane::OpenaiChat).count()
    );
    assert_eq!(
        per_lane(Lane::AnthropicMessages),
        expected
            .iter()
            .filter(|e| e.1 == Lane::AnthropicMessages)
            .count()
    );
}

#[test]
fn a_run_bounded_by_time_stops() {
    let v1 = Profile::V1.with_config(PipelineConfig::default());
    let opts = FuzzOptions {
        pipeline: &v1,
        external: false,
        lanes: vec![Lane::OpenaiChat],
        seed: 0,
        count: None,
        time: Some(Duration::from_millis(300)),
        shrink_calls: 10,
        jobs: 1,
    };
    let summary = run(&opts, &mut |_| {}, &mut |_| {});
    assert!(summary.tried > 0);
    assert!(
        summary.elapsed < Duration::from_secs(5),
        "{:?}",
        summary.elapsed
    );
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn failure(schema: Value) -> Failure {
    let minimized = Tool::new("t", schema);
    Failure {
        property: Property::Idempotence,
        lane: Lane::OpenaiChat,
        index: 7,
        input: minimized.clone(),
        minimized,
        message: "p on openai-chat: shaping the output again changes it\n  input: {}".into(),
        shrink_calls: 3,
    }
}

#[test]
fn the_writer_adds_a_catalog_and_a_note_once_and_reads_back_as_the_tool() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("out");
    let mut w = FailureWriter::create(&dir).unwrap();
    assert!(!dir.exists(), "nothing is created before a failure");
    let f = failure(json!({"pattern": "e"}));
    let name = FailureWriter::file_name(&f);
    let sha = &crate::hash::sha256_hex(r#"{"pattern":"e"}"#)[..12];
    assert_eq!(name, format!("idempotence-openai-chat-{sha}.json"));
    assert_eq!(w.write(&f, "v1").unwrap(), Written::New(dir.join(&name)));
    assert_eq!(
        w.write(&f, "v1").unwrap(),
        Written::Duplicate(dir.join(&name))
    );
    let note = format!("idempotence-openai-chat-{sha}.txt");
    assert_eq!(names(&dir), [name.clone(), note.clone()]);
    assert_eq!(
        std::fs::read_to_string(dir.join(&note)).unwrap(),
        "idempotence openai-chat v1: p on openai-chat: shaping the output again changes it\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join(&name)).unwrap(),
        "{\n  \"tools\": [\n    {\n      \"name\": \"t\",\n      \"input_schema\": {\n        \"pattern\": \"e\"\n      }\n    }\n  ]\n}\n"
    );
    // Detected as Anthropic tools (the shared corpus spells tools the same
    // way), or read as the shared corpus format: the same tool either way.
    for format in [None, Some(crate::catalog::Format::SharedCorpus)] {
        let catalog = crate::catalog::load_catalog(&dir.join(&name), format).unwrap();
        assert_eq!(catalog.tools, std::slice::from_ref(&f.minimized));
    }
    // A second run meets the file and leaves it as it is.
    let mut again = FailureWriter::create(&dir).unwrap();
    assert_eq!(
        again.write(&f, "v0").unwrap(),
        Written::AlreadyThere(dir.join(&name))
    );
    assert!(
        std::fs::read_to_string(dir.join(&note))
            .unwrap()
            .starts_with("idempotence openai-chat v1: ")
    );
}

#[test]
fn the_note_says_when_a_catalog_nests_deeper_than_the_loader_reads() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("out");
    let mut w = FailureWriter::create(&dir).unwrap();
    let mut schema = json!({});
    for _ in 0..130 {
        schema = json!({"a": schema});
    }
    let f = failure(schema);
    let Written::New(path) = w.write(&f, "v1").unwrap() else {
        panic!("not written");
    };
    assert!(crate::catalog::load_catalog(&path, None).is_err());
    let note = std::fs::read_to_string(path.with_extension("txt")).unwrap();
    assert_eq!(
        note,
        "idempotence openai-chat v1: p on openai-chat: shaping the output again changes it \
         (this catalog nests deeper than the catalog loader reads)\n"
    );
}

#[test]
fn the_writer_refuses_a_directory_holding_other_files_and_touches_nothing() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("out");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("oracle-openai-chat-0123456789ab.json"), "{}").unwrap();
    std::fs::write(dir.join("notes.md"), "mine").unwrap();
    let err = FailureWriter::create(&dir).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: holds `notes.md`, which wireshape fuzz did not write; refusing to write into it",
            dir.display()
        )
    );
    assert_eq!(err.exit_status(), crate::ExitStatus::Usage);
    assert_eq!(
        names(&dir),
        ["notes.md", "oracle-openai-chat-0123456789ab.json"]
    );
    let file = root.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let err = FailureWriter::create(&file).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: exists and is not a directory; refusing to write into it",
            file.display()
        )
    );
}

#[test]
fn the_writer_knows_its_own_file_names() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("out");
    std::fs::create_dir(&dir).unwrap();
    for ok in [
        "no-crash-anthropic-messages-0123456789ab.json",
        "never-silent-gemini-openapi-abcdefabcdef.txt",
        ".oracle-xai-0123456789ab.json.tmp-42",
    ] {
        std::fs::write(dir.join(ok), "").unwrap();
    }
    FailureWriter::create(&dir).unwrap();
    for bad in [
        "oracle-openai-chat-0123456789AB.json",
        "oracle-openai-chat-0123456789a.json",
        "flaky-openai-chat-0123456789ab.json",
        "oracle-no-such-lane-0123456789ab.json",
        "oracle-openai-chat-0123456789ab.md",
    ] {
        std::fs::write(dir.join(bad), "").unwrap();
        assert!(FailureWriter::create(&dir).is_err(), "{bad}");
        std::fs::remove_file(dir.join(bad)).unwrap();
    }
}
