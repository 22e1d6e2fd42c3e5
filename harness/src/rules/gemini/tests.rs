//! Unit tests of the Gemini rules, one or more per rule id.

use super::paths::{Style, is_proto_pointer, proto_nodes, render};
use super::*;
use crate::rules::check;
use crate::rules::model::{DEFAULT_AS_OF, Rejection, Request};
use serde_json::{Map, Value, json};

fn req<'a>(lane: Lane, tools: &'a [Value], as_of: &'a str) -> Request<'a> {
    crate::rules::request(lane, tools, as_of)
}

/// One declaration on the `parameters` wire.
fn decl(parameters: Value) -> Value {
    let mut d = json!({"name": "f", "description": "d"});
    d["parameters"] = parameters;
    d
}

fn openapi(tools: &[Value]) -> Vec<Rejection> {
    check(&req(Lane::GeminiOpenapi, tools, DEFAULT_AS_OF))
}

/// The single rejection, asserting its rule.
fn only(rejections: &[Rejection], rule: &str) -> String {
    assert_eq!(rejections.len(), 1, "{rejections:#?}");
    assert_eq!(rejections[0].rule, rule);
    rejections[0].message.clone()
}

#[test]
fn gemini_openapi_paths_name_map_entries_by_position_or_by_key() {
    let s = json!({"properties": {"a": {}, "b": {"items": {"anyOf": [{}, {"properties": {"c/d": {}}}]}}}});
    let p = "/properties/b/items/anyOf/1/properties/c~1d";
    assert_eq!(
        render(&s, p, Style::Payload),
        ".properties[1].value.items.any_of[1].properties[0].value"
    );
    assert_eq!(
        render(&s, p, Style::Field),
        ".properties[b].items.any_of[1].properties[c/d]"
    );
    assert_eq!(render(&s, p, Style::Dotted), ".b.items.any_of[1].c/d");
    assert!(is_proto_pointer(p));
    assert!(!is_proto_pointer("/not/properties/a"));
    assert!(!is_proto_pointer("/$defs/a"));
}

/// `proto_nodes` walks proto steps only; it gives exactly the nodes (and
/// order) of every node filtered by `is_proto_pointer`.
#[test]
fn gemini_openapi_proto_nodes_are_the_nodes_at_proto_pointers() {
    let mut schemas = vec![
        json!({"properties": {"a/b": {"anyOf": [{"items": {"properties": {"x": {}}}}, true, 3]}},
               "items": [{"properties": {"y": {}}}], "not": {"properties": {"z": {}}},
               "$defs": {"properties": {"anyOf": [{}]}}, "anyOf": [{"items": {}}],
               "dependencies": {"properties": {}}, "oneOf": [{"properties": {"w": {}}}]}),
        json!([{"type": "string"}]),
    ];
    schemas.extend((0..200).map(|i| crate::generate::seeded(7, i).input_schema));
    let mut deep = json!({"type": "string"});
    for _ in 0..150 {
        deep = json!({"properties": {"a": deep}});
    }
    schemas.push(deep);
    let none = crate::rules::request(Lane::GeminiOpenapi, &[], "");
    for s in &schemas {
        let filtered: Vec<_> = crate::rules::nodes(&none, s)
            .iter()
            .filter(|(p, _)| is_proto_pointer(p))
            .cloned()
            .collect();
        assert_eq!(proto_nodes(&none, s).to_vec(), filtered, "{s}");
    }
}

#[test]
fn gemini_openapi_rejects_additional_properties_with_the_recorded_message() {
    let tools = [
        decl(json!({"type": "object", "properties": {"a": {"type": "string"}}})),
        decl(
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}),
        ),
    ];
    let r = openapi(&tools);
    assert_eq!(r[0].tool, Some(1));
    assert_eq!(r[0].path, "/additionalProperties");
    assert_eq!(
        only(&r, "gemini-unknown-field-additionalproperties"),
        "Invalid JSON payload received. Unknown name \"additionalProperties\" at 'tools[0].function_declarations[1].parameters': Cannot find field."
    );
}

#[test]
fn gemini_openapi_accepts_a_property_named_additional_properties() {
    let tools = [decl(
        json!({"type": "object", "properties": {"additionalProperties": {"type": "string"}}}),
    )];
    assert!(openapi(&tools).is_empty());
}

#[test]
fn gemini_jsonschema_accepts_additional_properties() {
    let tools = [
        json!({"name": "f", "parametersJsonSchema": {"type": "object", "properties": {}, "additionalProperties": false}}),
    ];
    assert!(check(&req(Lane::GeminiJsonschema, &tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn gemini_openapi_rejects_a_root_dollar_schema() {
    let tools = [decl(
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"q": {"type": "string"}}}),
    )];
    assert_eq!(
        only(&openapi(&tools), "gemini-unknown-field-schema-keyword"),
        "Invalid JSON payload received. Unknown name \"$schema\" at 'tools[0].function_declarations[0].parameters': Cannot find field."
    );
}

#[test]
fn gemini_openapi_accepts_a_schema_without_dollar_schema() {
    let tools = [decl(
        json!({"type": "object", "properties": {"query": {"type": "string"}}}),
    )];
    assert!(openapi(&tools).is_empty());
}

#[test]
fn gemini_openapi_rejects_const_inside_any_of_branches() {
    let tools = [decl(json!({"type": "object", "properties": {
        "q": {"type": "string"},
        "mode": {"anyOf": [{"type": "string", "const": "fast"}, {"type": "string", "const": "slow"}]}
    }}))];
    let r = openapi(&tools);
    assert_eq!(r.len(), 2);
    assert!(r.iter().all(|x| x.rule == "gemini-unknown-field-const"));
    assert_eq!(r[1].path, "/properties/mode/anyOf/1/const");
    assert_eq!(
        r[1].message,
        "Invalid JSON payload received. Unknown name \"const\" at 'tools[0].function_declarations[0].parameters.properties[1].value.any_of[1]': Cannot find field."
    );
}

#[test]
fn gemini_openapi_accepts_const_written_as_a_one_member_enum() {
    let tools = [decl(json!({"type": "object", "properties": {
        "mode": {"anyOf": [{"type": "string", "enum": ["fast"]}, {"type": "string", "enum": ["slow"]}]}
    }}))];
    assert!(openapi(&tools).is_empty());
}

#[test]
fn gemini_openapi_rejects_exclusive_minimum() {
    let tools = [decl(json!({"type": "object", "properties": {
        "item": {"type": "string"},
        "n": {"anyOf": [{"type": "number", "exclusiveMinimum": 0}, {"type": "null"}]}
    }}))];
    assert_eq!(
        only(&openapi(&tools), "gemini-unknown-field-exclusiveminimum"),
        "Invalid JSON payload received. Unknown name \"exclusiveMinimum\" at 'tools[0].function_declarations[0].parameters.properties[1].value.any_of[0]': Cannot find field."
    );
}

#[test]
fn gemini_openapi_accepts_an_inclusive_minimum() {
    let tools = [decl(json!({"type": "object", "properties": {
        "n": {"anyOf": [{"type": "number", "minimum": 0}, {"type": "null"}]}
    }}))];
    assert!(openapi(&tools).is_empty());
}

#[test]
fn gemini_openapi_rejects_property_names() {
    let tools = [
        decl(json!({"type": "object", "properties": {"p": {"type": "string"}}})),
        decl(json!({"type": "object", "properties": {
            "r": {"type": "string"},
            "labels": {"type": "object", "properties": {"env": {"type": "string"}}, "propertyNames": {"pattern": "^[a-z]+$"}}
        }})),
    ];
    assert_eq!(
        only(&openapi(&tools), "gemini-unknown-field-propertynames"),
        "Invalid JSON payload received. Unknown name \"propertyNames\" at 'tools[0].function_declarations[1].parameters.properties[1].value': Cannot find field."
    );
}

#[test]
fn gemini_openapi_does_not_enter_an_unknown_keyword_value() {
    // `not` is itself unknown (rejected where it stands, documented
    // rule): the parser never reaches what it holds.
    let tools = [decl(
        json!({"type": "object", "properties": {"a": {"type": "string"}},
        "not": {"propertyNames": {}, "additionalProperties": false}}),
    )];
    let r = openapi(&tools);
    assert_eq!(r[0].path, "/not");
    assert_eq!(
        only(&r, "gemini-unknown-field-schema-proto"),
        "Invalid JSON payload received. Unknown name \"not\" at 'tools[0].function_declarations[0].parameters': Cannot find field."
    );
}

#[test]
fn gemini_openapi_rejects_examples_and_title_as_of_the_recording() {
    let tools = [decl(json!({"type": "object", "properties": {
        "query": {"type": "string", "title": "Query", "examples": ["q"]}
    }}))];
    let then = check(&req(Lane::GeminiOpenapi, &tools, "2024-09-26"));
    let messages: Vec<_> = then.iter().map(|r| r.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "Invalid JSON payload received. Unknown name \"examples\" at 'tools[0].function_declarations[0].parameters.properties[0].value': Cannot find field.",
            "Invalid JSON payload received. Unknown name \"title\" at 'tools[0].function_declarations[0].parameters.properties[0].value': Cannot find field.",
        ]
    );
    let now = openapi(&tools);
    assert_eq!(
        only(&now, "gemini-unknown-field-title-examples-default-defs"),
        messages[0]
    );
}

#[test]
fn gemini_openapi_accepts_title_and_default_today() {
    let tools = [decl(json!({"type": "object", "properties": {
        "query": {"type": "string", "title": "Query", "default": "x", "example": "q"}
    }}))];
    assert!(openapi(&tools).is_empty());
}

#[test]
fn gemini_openapi_rejects_a_type_list() {
    let tools = [decl(json!({"type": "object", "properties": {
        "f": {"type": "string"},
        "patches": {"type": "array", "items": {"type": "object", "properties": {
            "start": {"type": "integer"}, "contents": {"type": ["string", "null"]}
        }}}
    }}))];
    assert_eq!(
        only(&openapi(&tools), "gemini-type-not-repeating"),
        "Invalid JSON payload received. Unknown name \"type\" at 'tools[0].function_declarations[0].parameters.properties[1].value.items.properties[1].value': Proto field is not repeating, cannot start list."
    );
}

#[test]
fn gemini_openapi_accepts_nullable_instead_of_a_type_list() {
    let tools = [decl(json!({"type": "object", "properties": {
        "contents": {"type": "string", "nullable": true}
    }}))];
    assert!(openapi(&tools).is_empty());
}

#[test]
fn gemini_openapi_rejects_a_bare_string_property_schema() {
    let tools = [decl(json!({"type": "object", "properties": {
        "title": {"type": "string"}, "options": "object"
    }}))];
    assert_eq!(
        only(&openapi(&tools), "gemini-property-schema-not-object"),
        "Invalid value at 'tools[0].function_declarations[0].parameters.properties[1].value' (type.googleapis.com/google.cloud.aiplatform.master.Schema), \"object\""
    );
}

#[test]
fn gemini_openapi_accepts_an_object_property_schema() {
    let tools = [decl(json!({"type": "object", "properties": {
        "options": {"type": "object", "properties": {"a": {"type": "string"}}}
    }}))];
    assert!(openapi(&tools).is_empty());
}

#[test]
fn gemini_openapi_rejects_numeric_enum_members_before_validation() {
    let tools = [decl(json!({"type": "object", "properties": {
        "project": {"type": "string"}, "depth": {"type": "number", "enum": [0, 1]}
    }}))];
    let r = openapi(&tools);
    // Only the parse errors: the enum-on-NUMBER validation never runs.
    assert_eq!(r.len(), 2, "{r:#?}");
    assert!(
        r.iter()
            .all(|x| x.rule == "gemini-enum-values-must-be-strings")
    );
    assert_eq!(
        r[0].message,
        "Invalid value at 'tools[0].function_declarations[0].parameters.properties[1].value.enum[0]' (TYPE_STRING), 0"
    );
}

#[test]
fn gemini_openapi_accepts_string_enum_members() {
    let tools = [decl(json!({"type": "object", "properties": {
        "depth": {"type": "string", "enum": ["0", "1"]}
    }}))];
    assert!(openapi(&tools).is_empty());
}

#[test]
fn gemini_openapi_rejects_an_object_with_empty_properties() {
    let tools = [decl(json!({"type": "object", "properties": {}}))];
    assert_eq!(
        only(&openapi(&tools), "gemini-object-properties-non-empty"),
        "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties: should be non-empty for OBJECT type"
    );
}

#[test]
fn gemini_openapi_accepts_a_declaration_without_parameters() {
    let tools = [json!({"name": "now", "description": "the time"})];
    assert!(openapi(&tools).is_empty());
}

#[test]
fn gemini_openapi_rejects_an_array_without_items() {
    let tools = [decl(json!({"type": "object", "properties": {
        "q": {"type": "string"}, "x": {"type": "array", "description": "ids"}
    }}))];
    assert_eq!(
        only(&openapi(&tools), "gemini-array-items-required"),
        "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[x].items: missing field."
    );
}

#[test]
fn gemini_openapi_accepts_an_array_with_items() {
    let tools = [decl(json!({"type": "object", "properties": {
        "x": {"type": "ARRAY", "items": {"type": "STRING"}}
    }}))];
    assert!(openapi(&tools).is_empty());
}

#[test]
fn gemini_openapi_rejects_an_enum_on_an_integer() {
    let tools = [decl(json!({"type": "object", "properties": {
        "path": {"type": "string"}, "truncateMode": {"type": "integer", "enum": ["0", "1"]}
    }}))];
    assert_eq!(
        only(&openapi(&tools), "gemini-enum-only-string-type"),
        "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[truncateMode].enum: only allowed for STRING type"
    );
}

#[test]
fn gemini_openapi_accepts_an_enum_on_a_string() {
    let tools = [decl(json!({"type": "object", "properties": {
        "truncateMode": {"type": "string", "enum": ["0", "1"]}
    }}))];
    assert!(openapi(&tools).is_empty());
}

#[test]
fn gemini_openapi_rejects_a_uri_format_on_a_string() {
    let tools = [decl(
        json!({"type": "object", "properties": {"links": {"type": "array", "items": {
            "type": "object", "properties": {"title": {"type": "string"}, "url": {"type": "string", "format": "uri"}}
        }}}}),
    )];
    assert_eq!(
        only(&openapi(&tools), "gemini-string-format-enum-datetime-only"),
        "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[links].items.properties[url].format: only 'enum' and 'date-time' are supported for STRING type"
    );
}

#[test]
fn gemini_openapi_accepts_a_date_time_format_and_numeric_formats() {
    let tools = [decl(json!({"type": "object", "properties": {
        "at": {"type": "string", "format": "date-time"},
        "n": {"type": "integer", "format": "int64"}
    }}))];
    assert!(openapi(&tools).is_empty());
}

#[test]
fn gemini_openapi_rejects_an_untyped_property_in_both_backends_wordings() {
    let tools = [
        json!({"name": "create-field", "parameters": {"type": "object", "properties": {
            "data": {"type": "object", "properties": {"meta": {"type": "object", "properties": {
                "width": {"description": "Display width"}
            }}}}
        }}}),
    ];
    let r = openapi(&tools);
    let messages: Vec<_> = r.iter().map(|x| (x.rule, x.message.as_str())).collect();
    assert_eq!(
        messages,
        [
            (
                "gemini-type-required-without-combinator",
                "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[data].properties[meta].properties[width].type: must be specified when not using one_of, any_of or all_of fields"
            ),
            (
                "vertex-schema-type-field-missing",
                "Unable to submit request because `create-field` functionDeclaration `parameters.data.meta.width` schema didn't specify the schema type field. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/function-calling"
            ),
        ]
    );
}

#[test]
fn gemini_openapi_accepts_an_untyped_any_of_holder() {
    let tools = [decl(json!({"type": "object", "properties": {
        "v": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    }}))];
    assert!(openapi(&tools).is_empty());
}

#[test]
fn gemini_openapi_rejects_any_of_beside_a_description() {
    let tools = [
        json!({"name": "edit", "parameters": {"type": "object", "properties": {
            "edits": {"description": "The edits", "anyOf": [{"type": "string"}, {"type": "integer"}]}
        }}}),
    ];
    assert_eq!(
        only(&openapi(&tools), "gemini-anyof-must-be-only-field"),
        "Unable to submit request because `edit` functionDeclaration `parameters.edits` schema specified other fields alongside any_of. When using any_of, it must be the only field set."
    );
}

#[test]
fn gemini_openapi_accepts_any_of_as_the_only_field() {
    let tools = [
        json!({"name": "edit", "parameters": {"type": "object", "properties": {
            "edits": {"anyOf": [{"type": "string", "description": "The edits"}, {"type": "integer"}]}
        }}}),
    ];
    assert!(openapi(&tools).is_empty());
}

#[test]
fn gemini_openapi_rejects_an_enum_on_an_array_in_vertex_wording() {
    let tools = [
        json!({"name": "run", "parameters": {"type": "object", "properties": {
            "modes": {"type": "array", "items": {"type": "string"}, "enum": ["a", "b"]}
        }}}),
    ];
    assert_eq!(
        only(&openapi(&tools), "vertex-enum-with-object-or-array-type"),
        "Unable to submit request because run functionDeclaration parameters.modes schema specified incorrect schema type field. For schema with enum values, schema type should not be OBJECT or ARRAY. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/function-calling"
    );
}

#[test]
fn gemini_openapi_accepts_the_enum_on_the_array_items() {
    let tools = [
        json!({"name": "run", "parameters": {"type": "object", "properties": {
            "modes": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}
        }}}),
    ];
    assert!(openapi(&tools).is_empty());
}

#[test]
fn gemini_openapi_rejects_empty_parameters_in_vertex_wording() {
    let tools = [json!({"name": "load_docs", "parameters": {}})];
    assert_eq!(
        only(&openapi(&tools), "vertex-parameters-type-object"),
        "Unable to submit request because `load_docs` functionDeclaration parameters schema should be of type OBJECT. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/function-calling"
    );
}

#[test]
fn gemini_openapi_accepts_an_object_root_with_properties() {
    let tools = [
        json!({"name": "load_docs", "parameters": {"type": "OBJECT", "properties": {"q": {"type": "STRING"}}}}),
    ];
    assert!(openapi(&tools).is_empty());
}

#[test]
fn gemini_openapi_rejects_a_function_name_starting_with_a_digit() {
    let tools = [
        decl(json!({"type": "object", "properties": {"m": {"type": "string"}}})),
        json!({"name": "21st_magic", "parameters": {"type": "object", "properties": {"m": {"type": "string"}}}}),
    ];
    let r = check(&req(Lane::GeminiOpenapi, &tools, "2025-09-06"));
    assert_eq!(r[0].tool, Some(1));
    assert_eq!(
        only(&r, "gemini-function-name-pattern"),
        "The GenerateContentRequest proto is invalid:\n  * tools[0].function_declarations[1].name: [FIELD_INVALID] Invalid function name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots and dashes, with a maximum length of 64."
    );
}

#[test]
fn gemini_jsonschema_accepts_colons_in_a_function_name_only_since_2026_03_03() {
    let tools = [json!({"name": "mcp:search.web-1", "parametersJsonSchema": {"type": "object"}})];
    assert!(check(&req(Lane::GeminiJsonschema, &tools, DEFAULT_AS_OF)).is_empty());
    let before = check(&req(Lane::GeminiJsonschema, &tools, "2025-09-06"));
    assert_eq!(
        only(&before, "gemini-function-name-pattern")
            .lines()
            .count(),
        2
    );
    let long = [json!({"name": "a".repeat(65)})];
    assert_eq!(
        only(
            &check(&req(Lane::GeminiJsonschema, &long, DEFAULT_AS_OF)),
            "gemini-function-name-pattern"
        ),
        "* GenerateContentRequest.tools[0].function_declarations[0].name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64."
    );
}

fn arrays(n: usize, max: u64) -> Value {
    let props: Map<String, Value> = (0..n)
        .map(|k| {
            (
                format!("a{k}"),
                json!({"type": "array", "items": {"type": "string"}, "maxItems": max}),
            )
        })
        .collect();
    json!({"type": "object", "properties": props})
}

#[test]
fn gemini_jsonschema_rejects_a_max_items_sum_past_960() {
    let tools = [json!({"name": "plan", "parametersJsonSchema": arrays(10, 100)})];
    let r = check(&req(Lane::GeminiJsonschema, &tools, DEFAULT_AS_OF));
    assert_eq!(
        only(&r, "gemini-maxitems-cumulative-budget"),
        "INVALID_ARGUMENT"
    );
}

#[test]
fn gemini_jsonschema_accepts_a_max_items_sum_of_960() {
    let tools = [json!({"name": "plan", "parametersJsonSchema": arrays(8, 120)})];
    assert!(check(&req(Lane::GeminiJsonschema, &tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn gemini_openapi_rejects_a_hyphenated_parameter_name_as_documented() {
    let tools = [decl(
        json!({"type": "object", "properties": {"file-path": {"type": "string"}}}),
    )];
    assert_eq!(
        only(&openapi(&tools), "gemini-parameter-name-pattern"),
        "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[file-path]: parameter names must start with a letter or an underscore and must only contain chars a-z, A-Z, 0-9, or underscores with a maximum length of 64"
    );
}

#[test]
fn gemini_openapi_accepts_an_underscored_parameter_name() {
    let tools = [decl(
        json!({"type": "object", "properties": {"_file_path2": {"type": "string"}}}),
    )];
    assert!(openapi(&tools).is_empty());
}

#[test]
fn gemini_jsonschema_rejects_parameters_beside_parameters_json_schema() {
    let tools = [
        json!({"name": "f", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}},
        "parametersJsonSchema": {"type": "object"}}),
    ];
    assert_eq!(
        only(
            &check(&req(Lane::GeminiJsonschema, &tools, DEFAULT_AS_OF)),
            "gemini-parameters-json-schema-exclusive"
        ),
        "tools[0].function_declarations[0]: parametersJsonSchema is mutually exclusive with parameters"
    );
}

#[test]
fn gemini_jsonschema_accepts_parameters_json_schema_alone() {
    let tools = [
        json!({"name": "f", "parametersJsonSchema": {"type": "object", "properties": {"a": {"const": 1}}}}),
    ];
    assert!(check(&req(Lane::GeminiJsonschema, &tools, DEFAULT_AS_OF)).is_empty());
}

// ---- documented: the closed Schema proto ----------------------------

#[test]
fn gemini_openapi_rejects_a_nested_one_of_as_an_unknown_proto_field() {
    let tools = [
        decl(json!({"type": "object", "properties": {"q": {"type": "string"}}})),
        decl(json!({"type": "object", "properties": {
            "q": {"type": "string"},
            "labels": {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
        }})),
    ];
    let r = openapi(&tools);
    assert_eq!(r[0].tool, Some(1));
    assert_eq!(r[0].path, "/properties/labels/oneOf");
    assert_eq!(r[0].status, 400);
    assert_eq!(
        only(&r, "gemini-unknown-field-schema-proto"),
        "Invalid JSON payload received. Unknown name \"oneOf\" at 'tools[0].function_declarations[1].parameters.properties[1].value': Cannot find field."
    );
}

#[test]
fn gemini_openapi_reports_an_unknown_field_where_it_stands_and_never_enters_it() {
    let tools = [decl(json!({"type": "object", "properties": {
        "x": {"type": "array", "items": {"$ref": "#/$defs/y"}, "uniqueItems": true},
        "n": {"not": {"additionalProperties": false, "foo": 1}, "type": "string"}
    }}))];
    let r = openapi(&tools);
    let got: Vec<(&str, &str)> = r.iter().map(|x| (x.rule, x.path.as_str())).collect();
    assert_eq!(
        got,
        [
            (
                "gemini-unknown-field-schema-proto",
                "/properties/x/uniqueItems"
            ),
            (
                "gemini-unknown-field-schema-proto",
                "/properties/x/items/$ref"
            ),
            ("gemini-unknown-field-schema-proto", "/properties/n/not"),
        ]
    );
    assert_eq!(
        r[1].message,
        "Invalid JSON payload received. Unknown name \"$ref\" at 'tools[0].function_declarations[0].parameters.properties[0].value.items': Cannot find field."
    );
}

#[test]
fn gemini_openapi_accepts_every_schema_field_and_its_snake_case_alias() {
    let tools = [decl(json!({
        "type": "OBJECT", "title": "T", "description": "d", "nullable": false,
        "required": ["s"], "minProperties": "1", "max_properties": "3",
        "propertyOrdering": ["s", "a", "n"], "default": {}, "example": {"s": "x"},
        "properties": {
            "s": {"type": "STRING", "format": "enum", "enum": ["x"], "minLength": "1", "max_length": "9", "pattern": "^x$"},
            "a": {"type": "ARRAY", "items": {"type": "STRING"}, "min_items": "0", "maxItems": "4"},
            "n": {"any_of": [{"type": "NUMBER", "minimum": 0, "maximum": 9}], "property_ordering": []}
        }
    }))];
    let r = openapi(&tools);
    assert!(
        r.iter()
            .all(|x| x.rule != "gemini-unknown-field-schema-proto"),
        "{r:#?}"
    );
    assert!(r.is_empty(), "{r:#?}");
}

#[test]
fn gemini_openapi_leaves_recorded_unknown_fields_to_their_own_rules() {
    let tools = [decl(
        json!({"type": "object", "properties": {"a": {"type": "string"}},
        "additionalProperties": false, "$defs": {}}),
    )];
    let rules: Vec<&str> = openapi(&tools).iter().map(|x| x.rule).collect();
    assert_eq!(
        rules,
        [
            "gemini-unknown-field-additionalproperties",
            "gemini-unknown-field-title-examples-default-defs"
        ]
    );
}

#[test]
fn gemini_jsonschema_accepts_one_of_and_unique_items() {
    let tools = [
        json!({"name": "f", "parametersJsonSchema": {"type": "object", "properties": {
            "v": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "ids": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}
        }}}),
    ];
    assert!(check(&req(Lane::GeminiJsonschema, &tools, DEFAULT_AS_OF)).is_empty());
}

#[test]
fn gemini_unknown_field_rule_is_documented_with_the_schema_reference_and_read_date() {
    let rule = RULES
        .iter()
        .find(|r| r.id == "gemini-unknown-field-schema-proto")
        .unwrap();
    assert_eq!(rule.status, Status::Documented);
    assert_eq!(rule.docs[0], "https://ai.google.dev/api/caching#Schema");
    assert_eq!(rule.read, Some("2026-12-01"));
}

#[test]
fn gemini_rejects_more_than_512_declarations_as_a_request_on_both_wires() {
    // recording gemini-function-declarations-limit-19083
    let one = decl(json!({"type": "object", "properties": {"q": {"type": "string"}}}));
    let at_limit = vec![one.clone(); 512];
    assert!(openapi(&at_limit).is_empty());
    let over = vec![one; 513];
    let r = openapi(&over);
    assert_eq!(
        only(&r, "gemini-function-declarations-limit"),
        "The GenerateContentRequest proto is invalid:\n  * tools[0].function_declarations: [FIELD_INVALID] At most 512 function declarations can be specified."
    );
    assert_eq!(r[0].tool, None);
    let json_schema = vec![json!({"name": "f", "parametersJsonSchema": {"type": "object"}}); 513];
    let r = check(&req(Lane::GeminiJsonschema, &json_schema, DEFAULT_AS_OF));
    assert_eq!(r.len(), 1, "{r:#?}");
    assert_eq!(r[0].rule, "gemini-function-declarations-limit");
}

#[test]
fn gemini_reports_a_parse_error_before_the_declaration_count() {
    let mut over =
        vec![decl(json!({"type": "object", "properties": {"q": {"type": "string"}}})); 513];
    over[3] = decl(
        json!({"type": "object", "properties": {"q": {"type": "string"}}, "additionalProperties": false}),
    );
    let r = openapi(&over);
    assert!(
        r.iter()
            .all(|x| x.rule != "gemini-function-declarations-limit"),
        "{r:#?}"
    );
    assert!(
        r.iter()
            .any(|x| x.rule == "gemini-unknown-field-additionalproperties")
    );
}

#[test]
fn gemini_openapi_rejects_a_type_name_the_type_enum_lacks_while_parsing() {
    let tools = [decl(json!({"type": "object", "properties": {
        "a": {"type": "string"},
        "b": {"anyOf": [{"type": ""}, {"type": "date"}]}
    }}))];
    let r = openapi(&tools);
    let found: Vec<(&str, &str, &str)> = r
        .iter()
        .map(|x| (x.rule, x.path.as_str(), x.message.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "gemini-type-invalid-value",
                "/properties/b/anyOf/0/type",
                "Invalid value at 'tools[0].function_declarations[0].parameters.properties[1].value.any_of[0].type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), \"\""
            ),
            (
                "gemini-type-invalid-value",
                "/properties/b/anyOf/1/type",
                "Invalid value at 'tools[0].function_declarations[0].parameters.properties[1].value.any_of[1].type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), \"date\""
            ),
        ]
    );
}

#[test]
fn gemini_openapi_accepts_type_names_in_any_case() {
    let tools = [decl(json!({"type": "OBJECT", "properties": {
        "a": {"type": "String"}, "b": {"type": "integer"}, "c": {"type": "NULL"}
    }}))];
    assert!(openapi(&tools).is_empty(), "{:#?}", openapi(&tools));
}
