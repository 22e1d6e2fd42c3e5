//! Unit tests of the OpenAI rules, one or more per rule id.

use super::limits::string_budget;
use super::target::{context, json_path};
use super::*;
use crate::rules::model::{DEFAULT_AS_OF, Rejection, Request};
use crate::rules::{check, py_repr, py_str};
use serde_json::{Value, json};

fn req<'a>(lane: Lane, tools: &'a [Value], as_of: &'a str) -> Request<'a> {
    crate::rules::request(lane, tools, as_of)
}

fn chat(name: &str, parameters: Value) -> Value {
    let mut t = json!({"type": "function", "function": {"name": name}});
    t["function"]["parameters"] = parameters;
    t
}

fn strict(name: &str, parameters: Value) -> Value {
    let mut t = chat(name, parameters);
    t["function"]["strict"] = json!(true);
    t
}

fn responses(name: &str, parameters: Value, strict: bool) -> Value {
    let mut t = json!({"type": "function", "name": name, "strict": strict});
    t["parameters"] = parameters;
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

fn only(r: &[Rejection]) -> &Rejection {
    assert_eq!(r.len(), 1, "{r:?}");
    &r[0]
}

#[test]
fn openai_validator_paths_print_as_python_tuples_and_json_paths() {
    assert_eq!(context(""), "()");
    assert_eq!(context("/items"), "('items',)");
    assert_eq!(
        context("/properties/info/items/properties/synonyms"),
        "('properties', 'info', 'items', 'properties', 'synonyms')"
    );
    assert_eq!(
        context("/anyOf/0/properties/1"),
        "('anyOf', 0, 'properties', '1')"
    );
    assert_eq!(py_str("it's"), "\"it's\"");
    assert_eq!(
        py_repr(&json!({"a": [null, true, 1]})),
        "{'a': [None, True, 1]}"
    );
    assert_eq!(json_path("/properties/email"), "$.properties.email");
    assert_eq!(
        json_path("/anyOf/1/properties/a~1b"),
        "$.anyOf[1].properties.a/b"
    );
}

#[test]
fn openai_chat_rejects_a_root_object_without_properties() {
    let tools = [
        chat("mongodb-find", closed(json!({"db": {"type": "string"}}))),
        chat("mongodb-list-databases", json!({"type": "object"})),
    ];
    let r = check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-object-schema-missing-properties");
    assert_eq!(r.tool, Some(1));
    assert_eq!(
        r.message,
        "Invalid schema for function 'mongodb-list-databases': In context=(), object schema missing properties."
    );
}

#[test]
fn openai_chat_accepts_empty_properties_and_a_nested_free_form_object() {
    let tools = [
        chat("a", json!({"type": "object", "properties": {}})),
        chat(
            "b",
            json!({"type": "object", "properties": {"meta": {"type": "object", "additionalProperties": true}}}),
        ),
    ];
    assert!(check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn openai_chat_rejects_a_nested_array_without_items() {
    let tools = [chat(
        "information_extraction",
        json!({"type": "object", "properties": {"info": {"type": "array", "items": {"type": "object", "properties": {"synonyms": {"type": "array"}}}}}}),
    )];
    let r = check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-array-schema-missing-items");
    assert_eq!(r.path, "/properties/info/items/properties/synonyms");
    assert_eq!(
        r.message,
        "Invalid schema for function 'information_extraction': In context=('properties', 'info', 'items', 'properties', 'synonyms'), array schema missing items"
    );
}

#[test]
fn openai_chat_accepts_an_array_with_items_and_an_items_property_name() {
    let tools = [chat(
        "t",
        json!({"type": "object", "properties": {"items": {"type": "array", "items": {}}, "enum": {"type": "string", "enum": ["array"]}}}),
    )];
    assert!(check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn openai_chat_rejects_a_root_any_of_with_the_message_of_its_date() {
    let tools = [chat(
        "HassStartTimer",
        json!({"type": "object", "properties": {"h": {"type": "integer"}}, "anyOf": [{"required": ["h"]}]}),
    )];
    let r = check(&req(Lane::OpenaiChat, &tools, "2026-08-12"));
    let hit = r
        .iter()
        .find(|r| r.rule == "openai-root-composition")
        .unwrap();
    assert_eq!(
        hit.message,
        "Invalid schema for function 'HassStartTimer': schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'const'/'not' at the top level."
    );
    let r = check(&req(Lane::OpenaiChat, &tools, "2025-07-03"));
    let hit = r
        .iter()
        .find(|r| r.rule == "openai-root-composition")
        .unwrap();
    assert_eq!(
        hit.message,
        "Invalid schema for function 'HassStartTimer': schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level."
    );
}

#[test]
fn openai_chat_accepts_a_nested_any_of_and_a_root_const_before_2026_08_12() {
    let tools = [chat(
        "t",
        json!({"type": "object", "properties": {"x": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}),
    )];
    assert!(check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF)).is_empty());
    let tools = [chat(
        "t",
        json!({"type": "object", "properties": {}, "const": {}}),
    )];
    assert!(check(&req(Lane::OpenaiChat, &tools, "2026-01-14")).is_empty());
}

#[test]
fn openai_responses_accepts_root_unions_from_2026_08_29_but_not_root_enum() {
    let tools = [responses(
        "t",
        json!({"type": "object", "properties": {}, "oneOf": [{"required": []}]}),
        false,
    )];
    assert!(check(&req(Lane::OpenaiResponses, &tools, "2026-08-29")).is_empty());
    assert_eq!(
        only(&check(&req(Lane::OpenaiResponses, &tools, "2026-08-28"))).rule,
        "openai-root-composition"
    );
    let tools = [responses(
        "t",
        json!({"type": "object", "properties": {}, "enum": [{}]}),
        false,
    )];
    assert_eq!(
        only(&check(&req(Lane::OpenaiResponses, &tools, DEFAULT_AS_OF))).rule,
        "openai-root-composition"
    );
}

#[test]
fn openai_chat_rejects_required_null_in_python_words() {
    let tools = [chat(
        "ai-sfn",
        json!({"type": "object", "properties": {}, "required": null}),
    )];
    let r = check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-required-null");
    assert_eq!(
        r.message,
        "Invalid schema for function 'ai-sfn': None is not of type 'array'."
    );
}

#[test]
fn openai_chat_rejects_properties_sent_as_an_empty_list() {
    let tools = [chat("relay", json!({"type": "object", "properties": []}))];
    let r = check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-required-null");
    assert_eq!(
        r.message,
        "Invalid schema for function 'relay': [] is not of type 'object'."
    );
}

#[test]
fn openai_chat_accepts_a_property_named_required() {
    let tools = [chat(
        "t",
        json!({"type": "object", "properties": {"required": {"type": "boolean"}}, "required": ["required"]}),
    )];
    assert!(check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn openai_chat_rejects_a_property_schema_sent_as_an_empty_list() {
    let tools = [chat(
        "str_replace_editor",
        json!({"type": "object", "properties": {"path": {"type": "string"}, "view_range": []}}),
    )];
    let r = check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-subschema-not-object");
    assert_eq!(r.path, "/properties/view_range");
    assert_eq!(
        r.message,
        "Invalid schema for function 'str_replace_editor': [] is not of type 'object', 'boolean'."
    );
}

#[test]
fn openai_chat_rejects_parameters_sent_as_a_list_and_accepts_a_boolean_root() {
    let tools = [chat("relay", json!([{"type": "object"}]))];
    let r = check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-subschema-not-object");
    assert_eq!(r.path, "");
    assert_eq!(
        r.message,
        "Invalid schema for function 'relay': [{'type': 'object'}] is not of type 'object', 'boolean'."
    );
    let tools = [chat("t", json!(true))];
    assert!(check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn openai_chat_accepts_boolean_subschemas_and_list_valued_keywords() {
    let tools = [chat(
        "t",
        json!({"type": "object", "properties": {"a": true, "b": {"type": "string", "enum": []}}, "additionalProperties": false}),
    )];
    assert!(check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn openai_responses_rejects_a_lookahead_pattern_from_2026_05_29() {
    let tools = [responses(
        "send_invite",
        closed(json!({"email": {"type": "string", "pattern": "^(?!\\.)[a-z.]+@[a-z]+$"}})),
        false,
    )];
    let r = check(&req(Lane::OpenaiResponses, &tools, "2026-05-29"));
    let r = only(&r);
    assert_eq!(r.rule, "openai-pattern-lookaround");
    assert_eq!(
        r.message,
        "Invalid JSON schema: regex lookaround is not supported. Found at $.properties.email.pattern."
    );
    assert!(check(&req(Lane::OpenaiResponses, &tools, "2026-05-28")).is_empty());
}

#[test]
fn openai_responses_accepts_a_lookahead_opener_inside_a_class() {
    let tools = [responses(
        "t",
        closed(json!({"p": {"type": "string", "pattern": "^[(?=]+$"}})),
        false,
    )];
    assert!(check(&req(Lane::OpenaiResponses, &tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn openai_chat_rejects_a_slash_in_a_function_name() {
    let tools = [chat(
        "filesystem/read_file",
        json!({"type": "object", "properties": {}}),
    )];
    let r = check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-tool-name-pattern");
    assert_eq!(
        r.message,
        "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'."
    );
}

#[test]
fn openai_responses_names_the_responses_location_and_accepts_a_dash() {
    let tools = [
        responses(
            "read-file_2",
            json!({"type": "object", "properties": {}}),
            false,
        ),
        responses("a.b", json!({"type": "object", "properties": {}}), false),
    ];
    let r = check(&req(Lane::OpenaiResponses, &tools, DEFAULT_AS_OF));
    assert_eq!(
        only(&r).message,
        "Invalid 'tools[1].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'."
    );
}

#[test]
fn openai_chat_rejects_a_65_character_name_and_accepts_64() {
    let tools = [
        chat(&"a".repeat(64), json!({"type": "object", "properties": {}})),
        chat(&"b".repeat(65), json!({"type": "object", "properties": {}})),
    ];
    let r = check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-tool-name-length");
    assert_eq!(
        r.message,
        "Invalid 'tools[1].function.name': string too long. Expected a string with maximum length 64, but got a string with length 65 instead."
    );
}

#[test]
fn openai_chat_rejects_an_empty_tools_array() {
    let r = check(&req(Lane::OpenaiChat, &[], DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-empty-tools-array");
    assert_eq!(r.tool, None);
    assert_eq!(r.message, "[] is too short - 'tools'");
}

#[test]
fn openai_chat_accepts_a_request_without_a_tools_member() {
    let r = check(&Request {
        tools_present: false,
        ..req(Lane::OpenaiChat, &[], DEFAULT_AS_OF)
    });
    assert!(r.is_empty(), "{r:?}");
}

#[test]
fn openai_chat_accepts_no_tools_member_beside_a_response_format() {
    let rf = json!({"type": "json_schema", "json_schema": {"name": "r", "strict": true, "schema": closed(json!({}))}});
    let r = check(&Request {
        tools_present: true,
        response_format: Some(&rf),
        ..req(Lane::OpenaiChat, &[], DEFAULT_AS_OF)
    });
    assert!(r.is_empty(), "{r:?}");
    assert!(check(&req(Lane::OpenaiResponses, &[], DEFAULT_AS_OF)).is_empty());
}

#[test]
fn openai_responses_strict_rejects_a_nested_object_without_additional_properties_false() {
    let tools = [responses(
        "filesystem-set_permissions",
        json!({"type": "object", "properties": {"permissions": {"type": "object", "properties": {"read": {"type": "boolean"}}, "required": ["read"]}}, "required": ["permissions"], "additionalProperties": false}),
        true,
    )];
    let r = check(&req(Lane::OpenaiResponses, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-strict-additionalproperties-false");
    assert_eq!(r.path, "/properties/permissions");
    assert_eq!(
        r.message,
        "Invalid schema for function 'filesystem-set_permissions': In context=('properties', 'permissions'), 'additionalProperties' is required to be supplied and to be false."
    );
}

#[test]
fn openai_strict_accepts_a_closed_object_and_a_non_strict_tool_stays_open() {
    let tools = [
        strict(
            "a",
            closed(json!({"o": closed(json!({"x": {"type": "string"}}))})),
        ),
        json!({"type": "function", "function": {"name": "b", "strict": false, "parameters": {"type": "object", "properties": {"o": {"type": "object", "properties": {}}}}}}),
    ];
    assert!(check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn openai_responses_strict_rejects_a_key_missing_from_required() {
    let tools = [responses(
        "mysql_execute",
        json!({"type": "object", "properties": {"sql": {"type": "string"}, "params": {"type": "array", "items": {"type": "string"}}}, "required": ["sql"], "additionalProperties": false}),
        true,
    )];
    let r = check(&req(Lane::OpenaiResponses, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-strict-required-all-keys");
    assert_eq!(
        r.message,
        "Invalid schema for function 'mysql_execute': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'params'."
    );
}

#[test]
fn openai_responses_treats_an_absent_strict_flag_as_strict() {
    let tools = [
        json!({"type": "function", "name": "t", "parameters": {"type": "object", "properties": {}}}),
    ];
    let r = check(&req(Lane::OpenaiResponses, &tools, DEFAULT_AS_OF));
    assert_eq!(only(&r).rule, "openai-strict-additionalproperties-false");
    assert_eq!(
        r[0].message,
        "Invalid schema for function 't': In context=(), 'additionalProperties' is required to be supplied and to be false."
    );
}

#[test]
fn openai_responses_accepts_an_optional_key_without_strict() {
    let tools = [responses(
        "t",
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": []}),
        false,
    )];
    assert!(check(&req(Lane::OpenaiResponses, &tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn openai_strict_rejected_minimum_in_a_response_format_until_2025_05_15() {
    let rf = json!({"type": "json_schema", "json_schema": {"name": "review", "strict": true, "schema":
        closed(json!({"scores": {"type": "array", "items": closed(json!({"value": {"type": "number", "minimum": 0}}))}}))}});
    let at = |as_of| {
        check(&Request {
            tools_present: true,
            response_format: Some(&rf),
            ..req(Lane::OpenaiStrict, &[], as_of)
        })
    };
    let r = at("2025-04-07");
    let r = only(&r);
    assert_eq!(r.rule, "openai-strict-minimum-not-permitted");
    assert_eq!(r.tool, None);
    assert_eq!(
        r.message,
        "Invalid schema for response_format 'review': In context=('properties', 'scores', 'items', 'properties', 'value'), 'minimum' is not permitted."
    );
    assert!(at("2025-05-16").is_empty());
}

#[test]
fn openai_chat_accepted_minimum_without_strict_in_2025_04() {
    let tools = [chat(
        "t",
        closed(json!({"n": {"type": "number", "minimum": 0}})),
    )];
    assert!(check(&req(Lane::OpenaiChat, &tools, "2025-04-07")).is_empty());
}

#[test]
fn openai_strict_rejects_a_property_default_as_azure_does() {
    let tools = [strict(
        "search_knowledge_base",
        closed(
            json!({"query": {"type": "string"}, "max_results": {"type": "integer", "default": 5}}),
        ),
    )];
    let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "azure-openai-strict-default-not-permitted");
    assert_eq!(r.path, "/properties/max_results");
    assert_eq!(
        r.message,
        "'default' is not permitted within a property definition"
    );
}

#[test]
fn openai_strict_accepts_a_null_default_and_a_property_named_default() {
    let tools = [strict(
        "t",
        closed(
            json!({"a": {"type": ["string", "null"], "default": null}, "default": {"type": "string"}}),
        ),
    )];
    assert!(check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF)).is_empty());
}

/// `levels` nested closed objects.
fn nested(levels: usize) -> Value {
    (1..levels).fold(closed(json!({})), |inner, _| closed(json!({"o": inner})))
}

#[test]
fn openai_strict_rejects_11_levels_of_nesting() {
    let tools = [strict("deep", nested(11))];
    let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-strict-nesting-limit");
    assert_eq!(
        r.message,
        "Invalid schema for function 'deep': 11 levels of nesting exceeds limit of 10."
    );
    let r = check(&req(
        Lane::OpenaiStrict,
        &[strict("deep", nested(6))],
        "2025-07-17",
    ));
    assert_eq!(
        only(&r).message,
        "Invalid schema for function 'deep': 6 levels of nesting exceeds limit of 5."
    );
}

#[test]
fn openai_strict_accepts_10_levels_of_nesting() {
    let tools = [strict("deep", nested(10))];
    assert!(check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn openai_strict_rejects_5001_properties_and_accepts_5000() {
    let props = |n: usize| -> Value {
        Value::Object(
            (0..n)
                .map(|k| (format!("p{k}"), json!({"type": "string"})))
                .collect(),
        )
    };
    let tools = [strict("wide", closed(props(5001)))];
    let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-strict-property-count-limit");
    assert_eq!(
        r.message,
        "Invalid schema for function 'wide': 5001 object properties exceeds limit of 5000."
    );
    let tools = [strict("wide", closed(props(5000)))];
    assert!(check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn openai_strict_rejects_1001_enum_values_and_accepts_1000() {
    let values = |n: usize| -> Vec<String> { (0..n).map(|k| format!("v{k}")).collect() };
    let tools = [strict(
        "e",
        closed(
            json!({"a": {"type": "string", "enum": values(600)}, "b": {"type": "string", "enum": values(401)}}),
        ),
    )];
    let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-strict-enum-count-limit");
    assert_eq!(
        r.message,
        "Invalid schema for function 'e': 1001 enum values exceeds limit of 1000."
    );
    let tools = [strict(
        "e",
        closed(json!({"a": {"type": "string", "enum": values(1000)}})),
    )];
    assert!(check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF)).is_empty());
}

// ---- documented strict subset ---------------------------------------

#[test]
fn openai_strict_rejects_a_nested_all_of_in_the_recorded_wording() {
    let tools = [strict(
        "notion-update-page",
        closed(json!({"data": {"allOf": [closed(json!({"a": {"type": "string"}}))]}})),
    )];
    let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-strict-keyword-not-permitted");
    assert_eq!(r.path, "/properties/data/allOf");
    assert_eq!(
        r.message,
        "Invalid schema for function 'notion-update-page': In context=('properties', 'data'), 'allOf' is not permitted."
    );
}

#[test]
fn openai_chat_accepts_unsupported_keywords_on_a_non_strict_tool() {
    let tools = [chat(
        "t",
        json!({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}}, "if": {"required": ["a"]}, "then": {}}),
    )];
    assert!(check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn openai_strict_accepts_every_documented_keyword_and_leaves_open_questions_alone() {
    let mut tools = [strict(
        "t",
        closed(json!({
            "s": {"type": "string", "pattern": "^a+$", "format": "email", "description": "d", "minLength": 1, "maxLength": 9},
            "n": {"type": ["number", "null"], "minimum": 0, "maximum": 9, "exclusiveMinimum": -1, "exclusiveMaximum": 10, "multipleOf": 0.5},
            "i": {"type": "integer", "format": "int64"},
            "a": {"type": "array", "items": {"$ref": "#/$defs/x"}, "minItems": 1, "maxItems": 3},
            "e": {"anyOf": [{"type": "string", "enum": ["x"]}, {"type": "null"}], "title": "E"},
            "c": {"type": "string", "const": "k"}
        })),
    )];
    tools[0]["function"]["parameters"]["$defs"] = json!({"x": {"type": "string"}});
    let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
    assert!(r.is_empty(), "{r:#?}");
}

#[test]
fn openai_strict_rejects_every_listed_unsupported_keyword() {
    for k in crate::facts::openai::STRICT_REJECTED.items {
        let mut prop = json!({"type": "string"});
        prop[*k] = json!({});
        let tools = [strict("t", closed(json!({"p": prop})))];
        let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
        let found: Vec<_> = r
            .iter()
            .filter(|x| x.rule == "openai-strict-keyword-not-permitted")
            .collect();
        assert_eq!(found.len(), 1, "{k}: {r:#?}");
        assert_eq!(found[0].path, format!("/properties/p/{k}"));
    }
}

#[test]
fn openai_strict_leaves_pattern_properties_to_the_older_rule_before_2025_05_16() {
    let tools = [strict(
        "t",
        closed(
            json!({"m": {"type": "object", "properties": {}, "additionalProperties": false, "patternProperties": {"^x": {"type": "string"}}}}),
        ),
    )];
    let r = check(&req(Lane::OpenaiStrict, &tools, "2025-04-07"));
    assert_eq!(only(&r).rule, "openai-strict-minimum-not-permitted");
    let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
    assert_eq!(only(&r).rule, "openai-strict-keyword-not-permitted");
}

#[test]
fn openai_responses_rejects_a_uri_format_on_a_strict_tool_and_accepts_date_time() {
    let tools = [responses(
        "fetch",
        closed(
            json!({"url": {"type": "string", "format": "uri"}, "at": {"type": "string", "format": "date-time"}}),
        ),
        true,
    )];
    let r = check(&req(Lane::OpenaiResponses, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-strict-format-unsupported");
    assert_eq!(r.path, "/properties/url/format");
    assert_eq!(
        r.message,
        "Invalid schema for function 'fetch': In context=('properties', 'url'), 'uri' is not a valid format."
    );
    let ok = [responses(
        "fetch",
        closed(json!({"at": {"type": "string", "format": "date-time"}})),
        true,
    )];
    assert!(check(&req(Lane::OpenaiResponses, &ok, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn openai_strict_rejects_an_unsupported_keyword_in_a_strict_response_format() {
    let rf = json!({"type": "json_schema", "json_schema": {"name": "out", "strict": true, "schema":
        closed(json!({"ids": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}}))}});
    let r = check(&Request {
        tools_present: true,
        response_format: Some(&rf),
        ..req(Lane::OpenaiStrict, &[], DEFAULT_AS_OF)
    });
    let r = only(&r);
    assert_eq!(r.rule, "openai-strict-keyword-not-permitted");
    assert_eq!(r.tool, None);
    assert_eq!(
        r.message,
        "Invalid schema for response_format 'out': In context=('properties', 'ids'), 'uniqueItems' is not permitted."
    );
}

/// A closed object whose `n` enum values are `len` characters each.
fn enum_of(n: usize, len: usize) -> Value {
    let values: Vec<String> = (0..n).map(|k| format!("{k:0>len$}")).collect();
    closed(json!({"e": {"type": "string", "enum": values}}))
}

#[test]
fn openai_strict_rejects_a_251_value_enum_past_15000_characters() {
    // 251 × 60 = 15,060 characters.
    let tools = [strict("e", enum_of(251, 60))];
    let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-strict-enum-string-budget-limit");
    assert_eq!(r.path, "/properties/e");
    assert_eq!(
        r.message,
        "Invalid schema for function 'e': In context=('properties', 'e'), enum with 251 string values totals 15060 characters, which exceeds limit of 15000 for enums with more than 250 values."
    );
    // 250 values are under the large-enum threshold whatever their size;
    // 251 × 59 = 14,809 characters are within the budget.
    for ok in [enum_of(250, 100), enum_of(251, 59)] {
        let tools = [strict("e", ok)];
        assert!(check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF)).is_empty());
    }
}

#[test]
fn openai_strict_rejects_120001_characters_of_names_and_values_and_accepts_120000() {
    // The property name "c" (1 character) plus its const value, plus
    // the definition name "d" and its enum value "v".
    let schema = |n: usize| {
        let mut s = closed(json!({"c": {"type": "string", "const": "x".repeat(n)}}));
        s["$defs"] = json!({"d": {"type": "string", "enum": ["v"]}});
        s
    };
    let none = req(Lane::OpenaiStrict, &[], DEFAULT_AS_OF);
    assert_eq!(string_budget(&none, &schema(119_997)), 120_000);
    let tools = [strict("big", schema(119_997))];
    assert!(check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF)).is_empty());
    let tools = [strict("big", schema(119_998))];
    let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-strict-string-budget-limit");
    assert_eq!(
        r.message,
        "Invalid schema for function 'big': 120001 characters of property names, definition names, enum values and const values exceeds limit of 120000."
    );
}

#[test]
fn openai_chat_rejects_129_tools_and_accepts_128() {
    let tools: Vec<Value> = (0..129)
        .map(|k| {
            chat(
                &format!("t{k}"),
                json!({"type": "object", "properties": {}}),
            )
        })
        .collect();
    let r = check(&req(Lane::OpenaiChat, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-tool-count-limit");
    assert_eq!(r.tool, None);
    assert_eq!(
        r.message,
        "Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length 129 instead."
    );
    assert!(check(&req(Lane::OpenaiChat, &tools[..128], DEFAULT_AS_OF)).is_empty());
    // Not documented for Responses: an open question, no rule.
    assert!(crate::facts::open_question("openai-responses-tool-count").is_some());
}

#[test]
fn openai_documented_rules_carry_the_doc_url_and_read_date() {
    for id in [
        "openai-strict-keyword-not-permitted",
        "openai-strict-format-unsupported",
        "openai-strict-string-budget-limit",
        "openai-strict-enum-string-budget-limit",
        "openai-tool-count-limit",
    ] {
        let rule = RULES.iter().find(|r| r.id == id).unwrap();
        assert_eq!(rule.status, Status::Documented, "{id}");
        assert_eq!(rule.read, Some("2026-12-01"), "{id}");
        assert!(
            rule.docs[0].starts_with("https://platform.openai.com/docs/"),
            "{id}"
        );
    }
}

/// `openai-strict-ref-siblings`, the recorded request (langchainjs#11381):
/// the keywords sorted, in the recorded wording (no `In` before `context`).
#[test]
fn openai_strict_rejects_a_ref_beside_keywords_in_a_response_format_as_recorded() {
    let rf = json!({"type": "json_schema", "json_schema": {"name": "search", "strict": true, "schema":
        {"type": "object", "properties": {"query": {"default": "all", "description": "what to search for", "$ref": "#/$defs/s", "title": "search"}},
         "required": ["query"], "additionalProperties": false, "$defs": {"s": {"type": "string"}}}}});
    let r = check(&Request {
        tools_present: true,
        response_format: Some(&rf),
        ..req(Lane::OpenaiChat, &[], DEFAULT_AS_OF)
    });
    let r = only(&r);
    assert_eq!(r.rule, "openai-strict-ref-siblings");
    assert_eq!(r.path, "/properties/query");
    assert_eq!(
        r.message,
        "Invalid schema for response_format 'search': context=('properties', 'query'), $ref cannot have keywords {'default', 'description', 'title'}."
    );
}

/// On a strict tool, at any depth; a bare `$ref`, a root's definitions
/// beside a root `$ref`, and a non-strict tool's `$ref` beside keywords
/// are not flagged.
#[test]
fn openai_strict_rejects_a_ref_beside_keywords_only_in_strict_schemas() {
    let defs = json!({"c": closed(json!({"n": {"type": "string"}}))});
    let mut nested = closed(
        json!({"items": {"type": "array", "items": {"$ref": "#/$defs/c", "description": "one"}}, "bare": {"$ref": "#/$defs/c"}}),
    );
    nested["$defs"] = defs.clone();
    let root = json!({"$ref": "#/$defs/c", "$defs": defs});
    let tools = [strict("nested", nested.clone()), strict("root", root), {
        let mut loose = chat("loose", nested);
        loose["function"]["strict"] = json!(false);
        loose
    }];
    let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
    let r: Vec<_> = r
        .iter()
        .filter(|r| r.rule == "openai-strict-ref-siblings")
        .collect();
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].tool, Some(0));
    assert_eq!(r[0].path, "/properties/items/items");
    assert_eq!(
        r[0].message,
        "Invalid schema for function 'nested': context=('properties', 'items', 'items'), $ref cannot have keywords {'description'}."
    );
}

/// A root `$ref` beside anything other than the definitions is flagged.
#[test]
fn openai_strict_rejects_a_root_ref_beside_its_schema_uri() {
    let tools = [responses(
        "root",
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/c",
               "definitions": {"c": closed(json!({"n": {"type": "string"}}))}}),
        true,
    )];
    let r = check(&req(Lane::OpenaiResponses, &tools, DEFAULT_AS_OF));
    let r = only(&r);
    assert_eq!(r.rule, "openai-strict-ref-siblings");
    assert_eq!(r.path, "");
    assert_eq!(
        r.message,
        "Invalid schema for function 'root': context=(), $ref cannot have keywords {'$schema'}."
    );
}

/// A description-only property and an empty `items` are flagged in
/// OpenAI's recorded wording; the root, `anyOf`, `$ref`, `enum` and
/// `const` nodes, and a non-strict tool's typeless property are not.
#[test]
fn openai_strict_rejects_a_subschema_without_a_type_only_in_strict_schemas() {
    let schema = closed(json!({
        "value": {"description": "Any JSON value."},
        "list": {"type": "array", "items": {}},
        "either": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "pick": {"enum": ["a", "b"]},
        "fixed": {"const": 1},
        "c": {"$ref": "#/$defs/c"}
    }));
    let mut schema = schema;
    schema["$defs"] = json!({"c": closed(json!({"n": {"type": "string"}}))});
    let tools = [
        strict("cfg", schema.clone()),
        strict("root", json!({"properties": {}})),
        {
            let mut loose = chat("loose", schema);
            loose["function"]["strict"] = json!(false);
            loose
        },
    ];
    let r = check(&req(Lane::OpenaiStrict, &tools, DEFAULT_AS_OF));
    let r: Vec<_> = r
        .iter()
        .filter(|r| r.rule == "openai-strict-subschema-missing-type")
        .map(|r| (r.tool, r.path.as_str(), r.message.as_str()))
        .collect();
    assert_eq!(
        r,
        [
            (
                Some(0),
                "/properties/value",
                "Invalid schema for function 'cfg': In context=('properties', 'value'), schema must have a 'type' key."
            ),
            (
                Some(0),
                "/properties/list/items",
                "Invalid schema for function 'cfg': In context=('properties', 'list', 'items'), schema must have a 'type' key."
            ),
        ]
    );
}
