//! Unit tests of the Anthropic rules, one or more per rule id.

use super::*;
use crate::rules::check;
use crate::rules::model::{DEFAULT_AS_OF, Request};
use crate::strict_subset::has_backreference;
use serde_json::{Map, Value, json};

fn req<'a>(tools: &'a [Value], as_of: &'a str) -> Request<'a> {
    crate::rules::request(Lane::AnthropicMessages, tools, as_of)
}

/// The one rejection of a request, with its rule.
fn only(tools: &[Value], as_of: &str) -> (String, Option<usize>, String, String) {
    let r = check(&req(tools, as_of));
    assert_eq!(r.len(), 1, "{r:?}");
    (
        r[0].rule.to_owned(),
        r[0].tool,
        r[0].path.clone(),
        r[0].message.clone(),
    )
}

fn strict_tool(schema: Value) -> Value {
    let mut t = json!({"name": "t", "strict": true});
    t["input_schema"] = schema;
    t
}

/// A strict-clean object around `props`.
fn closed(props: Value) -> Value {
    let required: Vec<String> = props
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    let mut o = json!({"type": "object", "required": required, "additionalProperties": false});
    o["properties"] = props;
    o
}

#[test]
fn anthropic_messages_rejects_a_root_any_of_with_the_recorded_message() {
    let tools = [
        json!({"name": "ok", "input_schema": {"type": "object"}}),
        json!({"name": "t", "input_schema": {"type": "object", "anyOf": [{"required": ["a"]}]}}),
    ];
    let r = check(&req(&tools, DEFAULT_AS_OF));
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].rule, "anthropic-root-composition");
    assert_eq!(r[0].tool, Some(1));
    assert_eq!(
        r[0].message,
        "tools.1.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level"
    );
}

#[test]
fn anthropic_messages_accepts_a_nested_composition() {
    let tools = [
        json!({"name": "t", "input_schema": {"type": "object", "properties": {"x": {"oneOf": [{}, {}]}}}}),
    ];
    assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn openai_chat_lane_carries_the_anthropic_root_composition_message_of_openrouter() {
    let tools = [
        json!({"type": "function", "function": {"name": "t", "parameters": {"type": "object", "allOf": [{"required": ["a"]}]}}}),
    ];
    let r = check(&Request {
        tools_present: true,
        lane: Lane::OpenaiChat,
        ..req(&tools, DEFAULT_AS_OF)
    });
    let hit = r
        .iter()
        .find(|r| r.rule == "anthropic-root-composition")
        .expect("fires on the chat wire");
    assert_eq!(
        hit.message,
        "tools.0.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level"
    );
}

#[test]
fn anthropic_tool_name_limit_follows_the_as_of_date() {
    let long = "a".repeat(100);
    let tools = [json!({"name": long, "input_schema": {"type": "object"}})];
    assert!(check(&req(&tools, "2026-01-01")).is_empty());
    let r = check(&req(&tools, "2025-03-07"));
    assert_eq!(r[0].rule, "anthropic-tool-name-pattern");
    assert_eq!(
        r[0].message,
        "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"
    );
}

#[test]
fn anthropic_messages_rejects_a_dotted_tool_name_with_the_pattern_message() {
    let tools = [
        json!({"name": "ok", "input_schema": {"type": "object"}}),
        json!({"name": "apify.rag-web-browser", "input_schema": {"type": "object"}}),
    ];
    assert_eq!(
        only(&tools, DEFAULT_AS_OF),
        (
            "anthropic-tool-name-pattern".to_owned(),
            Some(1),
            String::new(),
            "tools.1.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'".to_owned()
        )
    );
}

#[test]
fn anthropic_messages_rejects_a_129_character_name_with_the_length_message_only() {
    let tools = [json!({"name": "a.".repeat(65), "input_schema": {"type": "object"}})];
    let (rule, _, _, message) = only(&tools, DEFAULT_AS_OF);
    assert_eq!(rule, "anthropic-tool-name-length");
    assert_eq!(
        message,
        "tools.0.custom.name: String should have at most 128 characters"
    );
}

#[test]
fn anthropic_messages_accepts_a_128_character_name() {
    let tools = [json!({"name": "a".repeat(128), "input_schema": {"type": "object"}})];
    assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn anthropic_messages_rejects_a_custom_tool_without_input_schema() {
    let tools = [json!({"name": "get_weather", "description": "d"})];
    assert_eq!(
        only(&tools, DEFAULT_AS_OF),
        (
            "anthropic-input-schema-missing".to_owned(),
            Some(0),
            String::new(),
            "tools.0.custom.input_schema: Field required".to_owned()
        )
    );
}

#[test]
fn anthropic_messages_accepts_a_server_tool_without_input_schema() {
    let tools = [json!({"type": "web_search_20250305", "name": "web_search"})];
    assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn anthropic_messages_rejects_the_converse_input_schema_key() {
    let tools = [json!({"name": "search_docs", "inputSchema": {"type": "object"}})];
    let (rule, tool, _, message) = only(&tools, DEFAULT_AS_OF);
    assert_eq!(rule, "anthropic-bedrock-invoke-input-schema-key");
    assert_eq!(tool, Some(0));
    assert_eq!(message, "tools.0.custom.input_schema: Field required");
}

#[test]
fn anthropic_messages_accepts_both_keys_when_input_schema_is_there() {
    let tools = [json!({"name": "t", "input_schema": {"type": "object"}, "inputSchema": {}})];
    assert!(
        check(&req(&tools, DEFAULT_AS_OF))
            .iter()
            .all(|r| r.rule != "anthropic-bedrock-invoke-input-schema-key")
    );
}

#[test]
fn anthropic_messages_rejects_an_input_schema_without_type() {
    let tools = [
        json!({"name": "a", "input_schema": {"type": "object"}}),
        json!({"name": "spawn_agent", "input_schema": {"properties": {"prompt": {"type": "string"}}}}),
    ];
    assert_eq!(
        only(&tools, DEFAULT_AS_OF),
        (
            "anthropic-input-schema-type-required".to_owned(),
            Some(1),
            String::new(),
            "tools.1.custom.input_schema.type: Field required".to_owned()
        )
    );
}

#[test]
fn anthropic_messages_accepts_a_typeless_nested_schema() {
    let tools = [json!({"name": "t", "input_schema": {"type": "object", "properties": {"x": {}}}})];
    assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn anthropic_messages_rejects_a_draft_2020_12_invalid_schema_with_the_dated_docs_link() {
    let tools = [
        json!({"name": "take_screenshot", "input_schema": {"type": "object", "properties": {}}}),
        json!({"name": "click", "input_schema": {"type": "object", "properties": {"x": "number"}}}),
    ];
    let (rule, tool, _, message) = only(&tools, "2025-04-05");
    assert_eq!(rule, "anthropic-json-schema-invalid-2020-12");
    assert_eq!(tool, Some(1));
    assert_eq!(
        message,
        "tools.1.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at https://docs.anthropic.com/en/docs/tool-use."
    );
    assert!(
        only(&tools, "2025-12-20")
            .3
            .ends_with("https://docs.claude.com/en/docs/tool-use.")
    );
}

#[test]
fn anthropic_messages_accepts_a_property_named_required_with_a_schema() {
    // `required` as a property name is data, not the keyword.
    let tools = [
        json!({"name": "t", "input_schema": {"type": "object", "properties": {"required": {"type": "boolean"}}}}),
    ];
    assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn anthropic_messages_rejects_a_bracketed_root_property_name() {
    let tools = [
        json!({"name": "list_apps", "input_schema": {"type": "object", "properties": {"limit": {}, "filter[bundleId]": {"type": "string"}}}}),
    ];
    assert_eq!(
        only(&tools, DEFAULT_AS_OF),
        (
            "anthropic-property-key-pattern".to_owned(),
            Some(0),
            "/properties/filter[bundleId]".to_owned(),
            "tools.0.custom.input_schema.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'".to_owned()
        )
    );
}

#[test]
fn anthropic_messages_accepts_a_bracketed_nested_property_name() {
    let tools = [
        json!({"name": "t", "input_schema": {"type": "object", "properties": {"filter": {"type": "object", "properties": {"a[b]": {}}}}}}),
    ];
    assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn anthropic_messages_strict_rejects_min_items_8() {
    let tools = [strict_tool(closed(
        json!({"cards": {"type": "array", "minItems": 8, "items": {"type": "string"}}}),
    ))];
    assert_eq!(
        only(&tools, DEFAULT_AS_OF),
        (
            "anthropic-strict-minitems-0-or-1".to_owned(),
            Some(0),
            "/properties/cards".to_owned(),
            "tools.0.custom: For 'array' type, 'minItems' values other than 0 or 1 are not supported".to_owned()
        )
    );
}

#[test]
fn anthropic_messages_strict_output_config_reports_its_own_location() {
    let rf = json!({"type": "json_schema", "schema": closed(json!({"xs": {"type": "array", "minItems": 2}}))});
    let r = check(&Request {
        tools_present: true,
        response_format: Some(&rf),
        ..req(&[], DEFAULT_AS_OF)
    });
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].tool, None);
    assert_eq!(
        r[0].message,
        "output_config.format.schema: For 'array' type, 'minItems' values other than 0 or 1 are not supported"
    );
}

#[test]
fn anthropic_messages_accepts_min_items_1_strict_and_min_items_8_non_strict() {
    let tools = [
        strict_tool(closed(json!({"xs": {"type": "array", "minItems": 1}}))),
        json!({"name": "u", "input_schema": {"type": "object", "properties": {"xs": {"type": "array", "minItems": 8}}}}),
    ];
    assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn anthropic_messages_strict_rejects_max_items_on_an_array() {
    let tools = [strict_tool(closed(
        json!({"ids": {"type": "array", "maxItems": 5, "items": {"type": "string"}}}),
    ))];
    assert_eq!(
        only(&tools, DEFAULT_AS_OF),
        (
            "anthropic-strict-array-constraints".to_owned(),
            Some(0),
            "/properties/ids".to_owned(),
            "tools.0.custom: For 'array' type, property 'maxItems' is not supported".to_owned()
        )
    );
}

#[test]
fn anthropic_messages_strict_names_max_items_and_unique_items_together_sorted() {
    let tools = [strict_tool(closed(
        json!({"ids": {"type": "array", "uniqueItems": true, "maxItems": 5}}),
    ))];
    assert_eq!(
        only(&tools, DEFAULT_AS_OF).3,
        "tools.0.custom: For 'array' type, properties maxItems, uniqueItems are not supported"
    );
}

#[test]
fn anthropic_messages_strict_output_config_rejects_unique_items() {
    let rf = json!({"type": "json_schema", "schema": closed(json!({"xs": {"type": "array", "uniqueItems": false}}))});
    let r = check(&Request {
        tools_present: true,
        response_format: Some(&rf),
        ..req(&[], DEFAULT_AS_OF)
    });
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].rule, "anthropic-strict-array-constraints");
    assert_eq!(
        r[0].message,
        "output_config.format.schema: For 'array' type, property 'uniqueItems' is not supported"
    );
}

/// Non-strict tools keep their array bounds, and a `maxItems` on a node
/// not typed `array` is not what the recorded message names.
#[test]
fn anthropic_messages_accepts_max_items_non_strict_and_off_arrays() {
    let tools = [
        json!({"name": "u", "input_schema": {"type": "object", "properties": {"xs": {"type": "array", "maxItems": 3, "uniqueItems": true}}}}),
        strict_tool(closed(json!({"s": {"type": "string", "maxItems": 3}}))),
    ];
    assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
}

fn optional_props(n: usize) -> Value {
    let props: Map<String, Value> = (0..n)
        .map(|k| (format!("p{k}"), json!({"type": "string"})))
        .collect();
    json!({"type": "object", "properties": props, "required": [], "additionalProperties": false})
}

#[test]
fn anthropic_messages_strict_rejects_25_optional_properties_as_too_complex() {
    let tools = [strict_tool(optional_props(25))];
    assert_eq!(
        only(&tools, DEFAULT_AS_OF),
        (
            "anthropic-strict-schema-too-complex".to_owned(),
            None,
            String::new(),
            "Schema is too complex for compilation. Try reducing the number of tools or simplifying tool schemas.".to_owned()
        )
    );
}

#[test]
fn anthropic_messages_strict_accepts_24_optional_properties_and_20_strict_tools() {
    let mut tools = vec![strict_tool(optional_props(24))];
    tools.extend((0..19).map(|_| strict_tool(closed(json!({})))));
    assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
    tools.push(strict_tool(closed(json!({}))));
    assert_eq!(
        only(&tools, DEFAULT_AS_OF).0,
        "anthropic-strict-schema-too-complex"
    );
}

#[test]
fn anthropic_messages_strict_rejects_17_union_typed_properties() {
    let props: Map<String, Value> = (0..17)
        .map(|k| (format!("p{k}"), json!({"type": ["string", "null"]})))
        .collect();
    let tools = [strict_tool(closed(Value::Object(props)))];
    let (rule, tool, _, message) = only(&tools, DEFAULT_AS_OF);
    assert_eq!(rule, "anthropic-strict-union-types-limit");
    assert_eq!(tool, None);
    assert_eq!(
        message,
        "Schemas contains too many parameters with union types (17 parameters with union types, limit: 16)"
    );
}

#[test]
fn anthropic_messages_strict_accepts_16_union_typed_properties() {
    let props: Map<String, Value> = (0..16)
        .map(|k| {
            (
                format!("p{k}"),
                json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
            )
        })
        .collect();
    let tools = [strict_tool(closed(Value::Object(props)))];
    assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn anthropic_messages_strict_rejects_a_recursive_ref() {
    let mut schema = closed(json!({"root": {"$ref": "#/$defs/node"}}));
    schema["$defs"] = json!({"node": closed(json!({"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}))});
    let tools = [strict_tool(schema)];
    assert_eq!(
        only(&tools, DEFAULT_AS_OF),
        (
            "anthropic-strict-recursive-schema".to_owned(),
            Some(0),
            "/properties/root".to_owned(),
            "tools.0.custom: recursive schemas are not supported ($ref '#/$defs/node' refers back to itself)".to_owned()
        )
    );
}

#[test]
fn anthropic_messages_strict_accepts_a_shared_non_recursive_ref() {
    let mut schema = closed(json!({"a": {"$ref": "#/$defs/leaf"}, "b": {"$ref": "#/$defs/leaf"}}));
    schema["$defs"] = json!({"leaf": {"type": "string"}});
    let tools = [strict_tool(schema)];
    assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn anthropic_messages_strict_rejects_an_external_ref() {
    let tools = [strict_tool(closed(
        json!({"a": {"$ref": "https://example.com/a.json"}}),
    ))];
    assert_eq!(
        only(&tools, DEFAULT_AS_OF),
        (
            "anthropic-strict-external-ref".to_owned(),
            Some(0),
            "/properties/a".to_owned(),
            "tools.0.custom: external $ref 'https://example.com/a.json' is not supported"
                .to_owned()
        )
    );
}

#[test]
fn anthropic_messages_accepts_an_external_ref_without_strict() {
    let tools = [
        json!({"name": "t", "input_schema": closed(json!({"a": {"$ref": "https://example.com/a.json"}}))}),
    ];
    assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn anthropic_messages_strict_rejects_a_lookahead_pattern() {
    let tools = [strict_tool(closed(
        json!({"p": {"type": "string", "pattern": "^(?!-)[a-z-]+$"}}),
    ))];
    assert_eq!(
        only(&tools, DEFAULT_AS_OF),
        (
            "anthropic-strict-pattern-unsupported".to_owned(),
            Some(0),
            "/properties/p".to_owned(),
            "tools.0.custom: 'pattern' uses a lookaround or a backreference, which strict mode does not support".to_owned()
        )
    );
}

#[test]
fn anthropic_messages_strict_rejects_a_backreference_but_not_one_in_a_class() {
    assert!(has_backreference(r"^(a)\1$"));
    assert!(has_backreference(r"^(?<q>a)\k<q>$"));
    assert!(!has_backreference(r"^[\1]$"));
    assert!(!has_backreference(r"^\\1$"));
    let tools = [strict_tool(closed(
        json!({"p": {"type": "string", "pattern": "^[(?=]+$"}}),
    ))];
    assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
    let tools = [strict_tool(closed(
        json!({"p": {"type": "string", "pattern": "^(a)\\1$"}}),
    ))];
    assert_eq!(
        only(&tools, DEFAULT_AS_OF).0,
        "anthropic-strict-pattern-unsupported"
    );
}

#[test]
fn anthropic_messages_strict_rejects_an_unsupported_format() {
    let tools = [strict_tool(closed(
        json!({"p": {"type": "string", "format": "regex"}}),
    ))];
    assert_eq!(
        only(&tools, DEFAULT_AS_OF),
        (
            "anthropic-strict-format-unsupported".to_owned(),
            Some(0),
            "/properties/p".to_owned(),
            "tools.0.custom: For 'string' type, format 'regex' is not supported".to_owned()
        )
    );
}

#[test]
fn anthropic_messages_strict_accepts_a_supported_format() {
    let tools = [strict_tool(closed(
        json!({"p": {"type": "string", "format": "date-time"}}),
    ))];
    assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
}
