//! Facts the seed PRs pin *across* pipelines, checked on the project's own
//! catalogs: where v0 and v1 must agree byte for byte, and where they must
//! differ.

use std::path::Path;

use serde_json::Value;
use wireshape::{Catalog, Lane, Pipeline, PipelineConfig, Profile, Tool, load_catalog};

fn catalog(name: &str) -> Catalog {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/catalogs")
        .join(name);
    load_catalog(&p, None).expect("own catalog loads")
}

fn config() -> PipelineConfig {
    PipelineConfig::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/config.toml"))
        .unwrap()
}

fn render(profile: Profile, lane: Lane, tool: &Tool) -> String {
    let s = profile.with_config(config()).shape(lane, tool);
    serde_json::to_string(&lane.render(&s.tool)).unwrap()
}

fn tool<'a>(c: &'a Catalog, name: &str) -> &'a Tool {
    c.tools
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
}

#[test]
fn anthropic_messages_v1_matches_v0_bytes_on_apply_patch_and_finance() {
    // Seed 000: the recorded triggering tools ship byte-identical to the
    // previous release line, notes included.
    let c = catalog("seed-tools.json");
    for name in ["apply_patch", "finance"] {
        let t = tool(&c, name);
        assert_eq!(
            render(Profile::V0, Lane::AnthropicMessages, t),
            render(Profile::V1, Lane::AnthropicMessages, t),
            "{name}"
        );
    }
}

#[test]
fn anthropic_messages_v1_keeps_the_agent_tools_dependent_schemas_where_v0_stripped_them() {
    let c = catalog("seed-tools.json");
    let t = tool(&c, "agent");
    let v0: Value = serde_json::from_str(&render(Profile::V0, Lane::AnthropicMessages, t)).unwrap();
    let v1: Value = serde_json::from_str(&render(Profile::V1, Lane::AnthropicMessages, t)).unwrap();
    assert!(v0["input_schema"].get("dependentSchemas").is_none());
    assert!(v1["input_schema"].get("dependentSchemas").is_some());
    assert!(
        v0["description"]
            .as_str()
            .unwrap()
            .contains("Parameter dependencies: ")
    );
    assert_eq!(
        v1["description"],
        t.description.clone().map(Value::String).unwrap()
    );
}

#[test]
fn anthropic_compatible_v1_ships_every_own_tool_verbatim() {
    for file in ["fixtures.json", "seed-tools.json"] {
        let c = catalog(file);
        for t in &c.tools {
            assert_eq!(
                render(Profile::V1, Lane::AnthropicCompatible, t),
                render(Profile::Verbatim, Lane::AnthropicCompatible, t),
                "{file}#{}",
                t.name
            );
        }
    }
}

#[test]
fn openai_responses_v0_and_v1_differ_exactly_where_a_lookaround_pattern_is() {
    // Seed 003: only Responses loses anything, and only lookaround patterns.
    // (Tools sent with `strict: true` also get the strict subset, per the
    // recorded strict rejections: they are judged by their own test. And a
    // tool whose v0 output the lane's oracle rejects for another recorded
    // rule, such as an array without items, is mended by v1 too.)
    for file in ["fixtures.json", "seed-tools.json"] {
        let c = catalog(file);
        let mut differing = Vec::new();
        let mut with_lookaround = Vec::new();
        for t in c.tools.iter().filter(|t| t.strict != Some(true)) {
            let v0 = render(Profile::V0, Lane::OpenaiResponses, t);
            if v0 != render(Profile::V1, Lane::OpenaiResponses, t) {
                let wire: Value = serde_json::from_str(&v0).unwrap();
                let other = wireshape::check(&wireshape::Request {
                    lane: Lane::OpenaiResponses,
                    tools: std::slice::from_ref(&wire),
                    tools_present: true,
                    tool_choice: None,
                    response_format: None,
                    walks: None,
                    as_of: wireshape::DEFAULT_AS_OF,
                })
                .into_iter()
                .any(|r| r.rule != "openai-pattern-lookaround");
                if !other {
                    differing.push(t.name.clone());
                }
            }
            let mut found = false;
            wireshape::testing::visit(&t.input_schema, &mut |_, node| {
                if let Some(Value::String(p)) = node.get("pattern") {
                    found |= wireshape::testing::has_lookaround(p) == Some(true);
                }
            })
            .unwrap();
            if found {
                with_lookaround.push(t.name.clone());
            }
        }
        assert_eq!(differing, with_lookaround, "{file}");
        assert!(!differing.is_empty(), "{file} has no lookaround fixture");
    }
}

#[test]
fn openai_chat_is_verbatim_in_v0_and_v1_touches_only_rejected_tools() {
    let c = catalog("fixtures.json");
    for t in &c.tools {
        let verbatim = render(Profile::Verbatim, Lane::OpenaiChat, t);
        assert_eq!(
            render(Profile::V0, Lane::OpenaiChat, t),
            verbatim,
            "{}",
            t.name
        );
        let wire: Value = serde_json::from_str(&verbatim).unwrap();
        let accepted = wireshape::check(&wireshape::Request {
            tools_present: true,
            lane: Lane::OpenaiChat,
            tools: &[wire],
            tool_choice: None,
            response_format: None,
            walks: None,
            as_of: wireshape::DEFAULT_AS_OF,
        })
        .is_empty();
        if accepted {
            assert_eq!(
                render(Profile::V1, Lane::OpenaiChat, t),
                verbatim,
                "{}",
                t.name
            );
        }
    }
}

#[test]
fn deepseek_strict_v1_fails_update_goal_and_send_later_closed_by_configuration() {
    let c = catalog("seed-tools.json");
    for name in ["update_goal", "send_later"] {
        let s = Profile::V1
            .with_config(config())
            .shape(Lane::DeepseekStrict, tool(&c, name));
        assert_eq!(s.outcome.id(), "failed-closed", "{name}");
        assert_eq!(&s.tool.input_schema, &tool(&c, name).input_schema);
    }
    let remember = Profile::V1
        .with_config(config())
        .shape(Lane::DeepseekStrict, tool(&c, "remember"));
    assert_eq!(remember.outcome.id(), "shaped");
    assert_eq!(remember.tool.strict, Some(true));
}

#[test]
fn openai_responses_v1_gives_strict_tools_the_strict_subset_and_nothing_else_changes() {
    let c = catalog("fixtures.json");
    let ready = tool(&c, "preset_strict_true");
    assert_eq!(
        render(Profile::V0, Lane::OpenaiResponses, ready),
        render(Profile::V1, Lane::OpenaiResponses, ready),
        "a strict-ready schema is left alone"
    );
    let t = tool(&c, "strict_tool_with_optional_property");
    let v1: Value = serde_json::from_str(&render(Profile::V1, Lane::OpenaiResponses, t)).unwrap();
    assert_eq!(
        serde_json::to_string(&v1["parameters"]).unwrap(),
        r#"{"type":"object","properties":{"sql":{"type":"string","description":"SQL statement."},"params":{"type":["array","null"],"items":{"type":"string"},"description":"Bound parameters."},"options":{"type":"object","properties":{"timeout_ms":{"type":"integer"}},"additionalProperties":false,"required":["timeout_ms"]}},"additionalProperties":false,"required":["sql","options","params"]}"#
    );
    assert_eq!(v1["strict"], serde_json::json!(true));
}

fn pins(lane: &str) -> std::collections::BTreeMap<String, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/ledger");
    wireshape::testing::load_ledger(&dir, lane)
        .unwrap()
        .pins
        .into_iter()
        .map(|p| (p.case, p.new_sha256))
        .collect()
}

fn sha(s: &str) -> String {
    wireshape::testing::sha256_hex(s)
}

#[test]
fn anthropic_compatible_pins_every_seed_tool_at_its_declared_bytes() {
    // Seed 000: third-party Messages endpoints get the tool exactly as
    // declared, so each pin is the hash of the declared tool rendered, with
    // no pipeline involved.
    let c = catalog("seed-tools.json");
    let pins = pins("anthropic-compatible");
    assert_eq!(pins.len(), c.tools.len());
    for t in &c.tools {
        let declared = serde_json::to_string(&Lane::AnthropicCompatible.render(t)).unwrap();
        assert_eq!(
            pins.get(&format!("seed-tools#{}", t.name)),
            Some(&sha(&declared)),
            "{}",
            t.name
        );
    }
}

#[test]
fn openai_responses_pins_the_seed_tools_without_lookaround_at_v0_bytes() {
    // Seeds 000 and 003: the Responses pass is untouched and only lookaround
    // patterns go, so each pinned tool has v0's bytes (the previous line).
    let c = catalog("seed-tools.json");
    let pins = pins("openai-responses");
    let pinned: Vec<&str> = pins
        .keys()
        .map(|k| k.trim_start_matches("seed-tools#"))
        .collect();
    let unpinned: Vec<&str> = c
        .tools
        .iter()
        .map(|t| t.name.as_str())
        .filter(|n| !pinned.contains(n))
        .collect();
    assert_eq!(
        unpinned,
        ["web_search"],
        "the one seed tool with a lookaround pattern"
    );
    for t in c.tools.iter().filter(|t| t.name != "web_search") {
        let v0 = render(Profile::V0, Lane::OpenaiResponses, t);
        assert_eq!(
            pins[&format!("seed-tools#{}", t.name)],
            sha(&v0),
            "{}",
            t.name
        );
    }
}
