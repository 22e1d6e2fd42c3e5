//! DeepSeek strict: every behaviour seed 002 pins, through the whole v1
//! (and v0) lane pipeline, each with its own test.
#![allow(clippy::needless_pass_by_value)]

use serde_json::{Value, json};

use crate::lane::Lane;
use crate::pipeline::{Outcome, Pipeline, PipelineConfig, Profile, Shaped};
use crate::tool::Tool;

fn v1_with(config: PipelineConfig, tool: Tool) -> Shaped {
    Profile::V1
        .with_config(config)
        .shape(Lane::DeepseekStrict, &tool)
}

fn v1(schema: Value) -> Shaped {
    v1_with(
        PipelineConfig::default(),
        Tool::new("t", schema).with_description("Does t."),
    )
}

fn bytes(v: &Value) -> String {
    serde_json::to_string(v).unwrap()
}

/// The tool failed closed: shipped non-strict as deepseek-chat shapes it,
/// which for these inputs is byte-for-byte as given, no flag, no note.
fn assert_failed_closed(schema: Value, reason_contains: &str) {
    let s = v1(schema.clone());
    match &s.outcome {
        Outcome::FailedClosed { reason } => assert!(
            reason.contains(reason_contains),
            "reason {reason:?} should contain {reason_contains:?}"
        ),
        other => panic!(
            "expected failed closed for {schema}, got {other:?}: {}",
            bytes(&s.tool.input_schema)
        ),
    }
    assert_eq!(bytes(&s.tool.input_schema), bytes(&schema));
    assert_eq!(s.tool.strict, None);
    assert_eq!(s.tool.description.as_deref(), Some("Does t."));
    assert!(s.degradations.is_empty());
}

fn assert_strict(s: &Shaped) {
    assert_eq!(s.outcome, Outcome::Shaped, "{:?}", s.outcome);
    assert_eq!(s.tool.strict, Some(true));
}

#[test]
fn deepseek_v1_removes_optional_properties_with_a_note() {
    let s = v1(json!({"type":"object","properties":{
        "path":{"type":"string"},"limit":{"type":"integer"},"offset":{"type":"integer"}},"required":["path"]}));
    assert_strict(&s);
    assert_eq!(
        bytes(&s.tool.input_schema),
        r#"{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}"#
    );
    assert_eq!(
        s.tool.description.as_deref(),
        Some(
            "Does t.\n\nOptional parameters removed for strict mode (do not send them): limit, offset."
        )
    );
}

#[test]
fn deepseek_v1_optional_removal_note_replaces_an_empty_description() {
    let s = v1_with(
        PipelineConfig::default(),
        Tool::new("t", json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a"]}))
            .with_description(""),
    );
    assert_eq!(
        s.tool.description.as_deref(),
        Some("Optional parameters removed for strict mode (do not send them): b.")
    );
}

#[test]
fn deepseek_v1_names_nested_removed_optionals_by_dotted_path() {
    let s = v1(json!({"type":"object","properties":{
        "opts":{"type":"object","properties":{"level":{"type":"integer"},"mode":{"type":"string"}},"required":["mode"]}},
        "required":["opts"]}));
    assert_strict(&s);
    assert_eq!(
        s.tool.description.as_deref(),
        Some(
            "Does t.\n\nOptional parameters removed for strict mode (do not send them): opts.level."
        )
    );
}

#[test]
fn deepseek_v1_fails_closed_on_a_required_nullable_union() {
    assert_failed_closed(
        json!({"type":"object","properties":{"mode":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["mode"]}),
        "nullable at /properties/mode",
    );
}

#[test]
fn deepseek_v1_fails_closed_on_a_required_nullable_keyword() {
    assert_failed_closed(
        json!({"type":"object","properties":{"m":{"type":"string","nullable":true}},"required":["m"]}),
        "nullable at /properties/m",
    );
}

#[test]
fn deepseek_v1_fails_closed_on_a_required_null_union_branch() {
    assert_failed_closed(
        json!({"type":"object","properties":{"m":{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]}},"required":["m"]}),
        "type null at /properties/m/anyOf/2",
    );
}

#[test]
fn deepseek_v1_fails_closed_on_a_required_type_array() {
    assert_failed_closed(
        json!({"type":"object","properties":{"m":{"type":["string","null"]}},"required":["m"]}),
        "type array at /properties/m",
    );
}

#[test]
fn deepseek_v1_fails_closed_on_a_required_bare_null_type() {
    assert_failed_closed(
        json!({"type":"object","properties":{"a":{"type":"string"},"m":{"type":"null"}},"required":["a","m"]}),
        "type null at /properties/m",
    );
}

#[test]
fn deepseek_v1_fails_closed_on_a_required_null_const() {
    assert_failed_closed(
        json!({"type":"object","properties":{"m":{"const":null}},"required":["m"]}),
        "const: null at /properties/m",
    );
}

#[test]
fn deepseek_v1_fails_closed_on_a_required_null_enum_member() {
    assert_failed_closed(
        json!({"type":"object","properties":{"m":{"type":"string","enum":["a",null]}},"required":["m"]}),
        "null enum member at /properties/m",
    );
}

#[test]
fn deepseek_v1_keeps_strict_when_every_null_encoding_is_optional() {
    for (name, prop) in [
        (
            "union",
            json!({"anyOf":[{"type":"string"},{"type":"null"}]}),
        ),
        ("nullable", json!({"type":"string","nullable":true})),
        ("type-array", json!({"type":["string","null"]})),
        ("bare-null", json!({"type":"null"})),
        ("null-const", json!({"const":null})),
        ("null-enum", json!({"enum":["a",null]})),
    ] {
        let s = v1(
            json!({"type":"object","properties":{"keep":{"type":"string"},"opt":prop},"required":["keep"]}),
        );
        assert_strict(&s);
        assert_eq!(
            bytes(&s.tool.input_schema),
            r#"{"type":"object","properties":{"keep":{"type":"string"}},"required":["keep"],"additionalProperties":false}"#,
            "{name}"
        );
    }
}

macro_rules! structural_keyword_fails_closed {
    ($($test:ident: $kw:literal => $prop:tt),* $(,)?) => {$(
        #[test]
        fn $test() {
            assert_failed_closed(
                json!({"type":"object","properties":{"x":$prop},"required":["x"]}),
                &format!("{} at /properties/x", $kw),
            );
        }
    )*};
}

structural_keyword_fails_closed! {
    deepseek_v1_fails_closed_on_a_required_not: "not" => {"type":"string","not":{"const":"x"}},
    deepseek_v1_fails_closed_on_a_required_if: "if" => {"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"if":{"required":["a"]}},
    deepseek_v1_fails_closed_on_a_required_then: "then" => {"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"then":{"required":["a"]}},
    deepseek_v1_fails_closed_on_a_required_else: "else" => {"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"else":{"required":["a"]}},
    deepseek_v1_fails_closed_on_a_required_contains: "contains" => {"type":"array","items":{"type":"string"},"contains":{"const":"a"}},
    deepseek_v1_fails_closed_on_a_required_prefix_items: "prefixItems" => {"type":"array","prefixItems":[{"type":"string"}]},
    deepseek_v1_fails_closed_on_a_required_property_names: "propertyNames" => {"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"propertyNames":{"maxLength":3}},
    deepseek_v1_fails_closed_on_a_required_unevaluated_properties: "unevaluatedProperties" => {"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"unevaluatedProperties":false},
    deepseek_v1_fails_closed_on_a_required_unevaluated_items: "unevaluatedItems" => {"type":"array","items":{"type":"string"},"unevaluatedItems":false},
    deepseek_v1_fails_closed_on_a_required_tuple_items: "tuple-form items" => {"type":"array","items":[{"type":"string"},{"type":"integer"}]},
    deepseek_v1_fails_closed_on_a_required_one_of: "oneOf" => {"oneOf":[{"type":"string"},{"type":"integer"}]},
    deepseek_v1_fails_closed_on_a_required_all_of: "allOf" => {"allOf":[{"type":"string"},{"minLength":1}]},
}

#[test]
fn deepseek_v1_keeps_strict_when_a_structural_keyword_is_optional() {
    let s = v1(
        json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string","not":{"const":"x"}}},"required":["a"]}),
    );
    assert_strict(&s);
}

#[test]
fn deepseek_v1_keeps_any_of_which_the_subset_documents() {
    let s = v1(
        json!({"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer"}]}},"required":["v"]}),
    );
    assert_strict(&s);
    assert_eq!(
        bytes(&s.tool.input_schema),
        r#"{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer"}]}},"required":["v"],"additionalProperties":false}"#
    );
}

#[test]
fn deepseek_v1_never_walks_the_properties_name_map() {
    let s = v1(json!({"type":"object","properties":{
        "const":{"type":"string"},"properties":{"type":"string"},"contains":{"type":"string"},
        "nullable":{"type":"boolean"},"not":{"type":"string"},"minLength":{"type":"integer"}},
        "required":["const","properties","contains","nullable","not","minLength"]}));
    assert_strict(&s);
    assert_eq!(
        bytes(&s.tool.input_schema),
        r#"{"type":"object","properties":{"const":{"type":"string"},"properties":{"type":"string"},"contains":{"type":"string"},"nullable":{"type":"boolean"},"not":{"type":"string"},"minLength":{"type":"integer"}},"required":["const","properties","contains","nullable","not","minLength"],"additionalProperties":false}"#
    );
}

#[test]
fn deepseek_v1_walks_every_definition_map_spelling_as_a_name_map() {
    for defs in ["$defs", "definitions", "$def"] {
        let s = v1(
            json!({"type":"object","properties":{"a":{"$ref":format!("#/{defs}/const")}},"required":["a"],
            defs:{"const":{"type":"string","minLength":2},"not":{"type":"integer"}}}),
        );
        assert_strict(&s);
        let defs_out = &s.tool.input_schema[defs];
        assert_eq!(
            bytes(defs_out),
            r#"{"const":{"type":"string"},"not":{"type":"integer"}}"#,
            "{defs}"
        );
    }
}

#[test]
fn deepseek_v1_never_walks_literals() {
    let s = v1(json!({"type":"object","properties":{
        "e":{"type":"object","properties":{"k":{"type":"string"}},"required":["k"],
             "enum":[{"k":"nullable"}],"default":{"nullable":true},"examples":[{"not":{}}]}},
        "required":["e"]}));
    assert_strict(&s);
    assert_eq!(
        s.tool.input_schema["properties"]["e"]["default"],
        json!({"nullable":true})
    );
    assert_eq!(
        s.tool.input_schema["properties"]["e"]["examples"],
        json!([{"not":{}}])
    );
}

#[test]
fn deepseek_v1_lands_a_string_const_on_enum() {
    let s = v1(
        json!({"type":"object","properties":{"k":{"type":"string","const":"fixed","description":"d"}},"required":["k"]}),
    );
    assert_strict(&s);
    assert_eq!(
        bytes(&s.tool.input_schema["properties"]["k"]),
        r#"{"type":"string","enum":["fixed"],"description":"d"}"#
    );
}

#[test]
fn deepseek_v1_lands_a_boolean_and_an_object_const_on_enum() {
    let s = v1(
        json!({"type":"object","properties":{"b":{"const":true},"o":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"const":{"a":"x"}}},"required":["b","o"]}),
    );
    assert_strict(&s);
    assert_eq!(
        s.tool.input_schema["properties"]["b"],
        json!({"enum":[true]})
    );
    assert_eq!(
        s.tool.input_schema["properties"]["o"]["enum"],
        json!([{"a":"x"}])
    );
}

#[test]
fn deepseek_v1_keeps_a_numeric_const() {
    let s = v1(
        json!({"type":"object","properties":{"n":{"type":"integer","const":3}},"required":["n"]}),
    );
    assert_eq!(
        bytes(&s.tool.input_schema["properties"]["n"]),
        r#"{"type":"integer","const":3}"#
    );
}

#[test]
fn deepseek_v1_non_numeric_const_yields_to_an_existing_enum() {
    for c in ["a", "zzz"] {
        let s = v1(
            json!({"type":"object","properties":{"k":{"type":"string","enum":["a","b"],"const":c}},"required":["k"]}),
        );
        assert_strict(&s);
        assert_eq!(
            bytes(&s.tool.input_schema["properties"]["k"]),
            r#"{"type":"string","enum":["a","b"]}"#,
            "{c}"
        );
    }
}

#[test]
fn deepseek_v1_drops_a_null_const_that_ships_nowhere_required() {
    // In an anyOf branch of an optional... here: inside a required object's
    // optional member, removed with it; the tool stays strict.
    let s = v1(
        json!({"type":"object","properties":{"a":{"type":"string"},"z":{"const":null}},"required":["a"]}),
    );
    assert_strict(&s);
    assert!(s.tool.input_schema["properties"].get("z").is_none());
}

#[test]
fn deepseek_v1_fails_closed_when_removal_empties_the_root() {
    assert_failed_closed(
        json!({"type":"object","properties":{"action":{"type":"string"},"id":{"type":"string"}}}),
        "every root property is optional",
    );
}

#[test]
fn deepseek_v1_fails_closed_when_removal_empties_a_required_nested_object() {
    assert_failed_closed(
        json!({"type":"object","properties":{"a":{"type":"string"},
            "o":{"type":"object","properties":{"x":{"type":"string"}}}},"required":["a","o"]}),
        "object at /properties/o has no properties left",
    );
}

#[test]
fn deepseek_v1_fails_closed_on_a_required_bare_object() {
    assert_failed_closed(
        json!({"type":"object","properties":{"a":{"type":"string"},"meta":{"type":"object"}},"required":["a","meta"]}),
        "object at /properties/meta has no properties left",
    );
}

#[test]
fn deepseek_v1_keeps_an_authored_no_argument_root_strict() {
    for schema in [
        json!({"type":"object","properties":{}}),
        json!({"type":"object","properties":{},"additionalProperties":false}),
        json!({"type":"object"}),
    ] {
        let s = v1(schema.clone());
        assert_strict(&s);
        assert_eq!(
            bytes(&s.tool.input_schema),
            r#"{"type":"object","properties":{},"required":[],"additionalProperties":false}"#,
            "{schema}"
        );
    }
}

#[test]
fn deepseek_v1_fails_closed_on_a_root_map_shape() {
    assert_failed_closed(
        json!({"type":"object","additionalProperties":{"type":"string"}}),
        "root is a map shape",
    );
    assert_failed_closed(
        json!({"type":"object","additionalProperties":true}),
        "root is a map shape",
    );
}

#[test]
fn deepseek_v1_fails_closed_on_a_typeless_map_node() {
    assert_failed_closed(
        json!({"type":"object","properties":{"m":{"additionalProperties":{"type":"string"}}},"required":["m"]}),
        "additionalProperties at /properties/m",
    );
}

#[test]
fn deepseek_v1_fails_closed_on_dependent_schemas() {
    assert_failed_closed(
        json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a","b"],
            "dependentSchemas":{"a":{"required":["b"]}}}),
        "dependentSchemas at /",
    );
}

#[test]
fn deepseek_v1_fails_closed_on_schema_form_dependencies() {
    assert_failed_closed(
        json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a","b"],
            "dependencies":{"a":{"required":["b"]}}}),
        "schema-form dependencies at /",
    );
}

#[test]
fn deepseek_v1_strips_name_table_dependencies_and_dependent_required() {
    let s = v1(
        json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a","b"],
        "dependencies":{"a":["b"]},"dependentRequired":{"b":["a"]}}),
    );
    assert_strict(&s);
    assert_eq!(
        bytes(&s.tool.input_schema),
        r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a","b"],"additionalProperties":false}"#
    );
}

#[test]
fn deepseek_v1_strips_each_widening_keyword() {
    let s = v1(json!({"type":"object","properties":{
        "s":{"type":"string","minLength":1,"maxLength":9},
        "l":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":3,"uniqueItems":true,"minContains":1,"maxContains":2},
        "o":{"type":"object","properties":{"k":{"type":"string"}},"required":["k"],"minProperties":1,"maxProperties":4,"patternProperties":{"^x":{"type":"string"}}}},
        "required":["s","l","o"]}));
    assert_strict(&s);
    assert_eq!(
        bytes(&s.tool.input_schema),
        r#"{"type":"object","properties":{"s":{"type":"string"},"l":{"type":"array","items":{"type":"string"}},"o":{"type":"object","properties":{"k":{"type":"string"}},"required":["k"],"additionalProperties":false}},"required":["s","l","o"],"additionalProperties":false}"#
    );
    let stripped: Vec<&str> = s
        .degradations
        .iter()
        .filter(|d| {
            d.pass == "deepseek-widening-strips" && d.action == crate::degradation::Action::Removed
        })
        .map(|d| d.keyword.as_str())
        .collect();
    assert_eq!(
        stripped,
        [
            "minLength",
            "maxLength",
            "minItems",
            "maxItems",
            "uniqueItems",
            "minContains",
            "maxContains",
            "patternProperties",
            "minProperties",
            "maxProperties"
        ]
    );
    assert_eq!(
        s.tool.description.as_deref(),
        Some(
            "Does t.\n\nConstraints this schema does not enforce (still follow them): s: minLength 1; s: maxLength 9; l: minItems 1; l: maxItems 3; l: uniqueItems true; l: minContains 1; l: maxContains 2; o: patternProperties {\"^x\":{\"type\":\"string\"}}; o: minProperties 1; o: maxProperties 4."
        )
    );
}

#[test]
fn deepseek_v1_keeps_documented_formats_and_strips_the_rest() {
    let s = v1(json!({"type":"object","properties":{
        "e":{"type":"string","format":"email"},"h":{"type":"string","format":"hostname"},
        "4":{"type":"string","format":"ipv4"},"6":{"type":"string","format":"ipv6"},"u":{"type":"string","format":"uuid"},
        "t":{"type":"string","format":"date-time"},"r":{"type":"string","format":"uri"}},
        "required":["e","h","4","6","u","t","r"]}));
    assert_strict(&s);
    let p = &s.tool.input_schema["properties"];
    for k in ["e", "h", "4", "6", "u"] {
        assert!(p[k].get("format").is_some(), "{k}");
    }
    assert_eq!(p["t"], json!({"type":"string"}));
    assert_eq!(p["r"], json!({"type":"string"}));
}

#[test]
fn deepseek_v1_strips_boolean_exclusive_bounds_and_keeps_numeric_ones() {
    let s = v1(json!({"type":"object","properties":{
        "a":{"type":"number","minimum":0,"exclusiveMinimum":true,"maximum":9,"exclusiveMaximum":false},
        "b":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":9}},"required":["a","b"]}));
    assert_strict(&s);
    assert_eq!(
        bytes(&s.tool.input_schema["properties"]["a"]),
        r#"{"type":"number","minimum":0,"maximum":9}"#
    );
    assert_eq!(
        bytes(&s.tool.input_schema["properties"]["b"]),
        r#"{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":9}"#
    );
}

#[test]
fn deepseek_v1_fails_closed_on_a_configured_strict_unusable_name() {
    let config = PipelineConfig {
        strict_unusable: vec!["update_goal".into()],
    };
    let schema = json!({"type":"object","properties":{"status":{"type":"string"},"evidence":{"type":"string"}},"required":["status"]});
    let s = v1_with(config.clone(), Tool::new("update_goal", schema.clone()));
    assert!(
        matches!(&s.outcome, Outcome::FailedClosed { reason } if reason.contains("strict_unusable")),
        "{:?}",
        s.outcome
    );
    assert_eq!(s.tool.input_schema, schema);
    let other = v1_with(config, Tool::new("read_goal", schema));
    assert_strict(&other);
}

#[test]
fn deepseek_v1_without_configuration_has_no_unusable_names() {
    let s = v1_with(
        PipelineConfig::default(),
        Tool::new(
            "update_goal",
            json!({"type":"object","properties":{"status":{"type":"string"}},"required":["status"]}),
        ),
    );
    assert_strict(&s);
}

#[test]
fn deepseek_v1_failing_closed_ships_the_pre_normalization_bytes() {
    let schema = json!({"type":"object","properties":{"m":{"oneOf":[{"type":"null"},{"type":"string"}]},"o":{"type":"object"}},"required":["m","ghost"]});
    assert_failed_closed(schema, "nullable at /properties/m");
}

#[test]
fn deepseek_v0_makes_optionals_nullable_and_required() {
    let s = Profile::V0.with_config(PipelineConfig::default()).shape(
        Lane::DeepseekStrict,
        &Tool::new("t", json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string","const":"x"}},"required":["a"]})),
    );
    assert_eq!(s.outcome, Outcome::Shaped);
    assert_eq!(s.tool.strict, Some(true));
    assert_eq!(
        bytes(&s.tool.input_schema),
        r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string","const":"x","nullable":true}},"required":["a","b"],"additionalProperties":false}"#
    );
}

#[test]
fn deepseek_v1_is_idempotent_on_a_shaped_tool() {
    let s = v1(
        json!({"type":"object","properties":{"a":{"type":"string","minLength":1,"const":"x"},"b":{"type":"string"}},"required":["a"]}),
    );
    assert_strict(&s);
    let again = v1_with(PipelineConfig::default(), s.tool.clone());
    assert_eq!(bytes(&again.tool.input_schema), bytes(&s.tool.input_schema));
    assert_eq!(again.tool.description, s.tool.description);
}

#[test]
fn deepseek_v1_replaces_a_root_that_is_not_a_json_object_as_deepseek_chat_does_then_ships_strict() {
    // The strict passes fail closed on it; deepseek-chat's object floor
    // makes it `{}` typed object, which the strict passes then serve (so
    // shaping the output again changes nothing).
    for root in [
        json!([{"type":"object"}]),
        json!(7),
        json!(true),
        json!(null),
    ] {
        let s = v1(root.clone());
        assert_strict(&s);
        assert_eq!(
            bytes(&s.tool.input_schema),
            r#"{"type":"object","properties":{},"required":[],"additionalProperties":false}"#,
            "{root}"
        );
        let records: Vec<(&str, &str, &str)> = s
            .degradations
            .iter()
            .map(|d| (&*d.pass, d.keyword.as_str(), d.lane.id()))
            .collect();
        assert_eq!(
            records,
            [
                ("parameters-object-floor", "", "deepseek-strict"),
                ("parameters-object-floor", "type", "deepseek-strict"),
                ("parameters-object-floor", "properties", "deepseek-strict"),
                ("deepseek-close-objects", "required", "deepseek-strict"),
                (
                    "deepseek-close-objects",
                    "additionalProperties",
                    "deepseek-strict"
                ),
                ("deepseek-mark-strict", "strict", "deepseek-strict"),
            ],
            "{root}"
        );
    }
}

#[test]
fn deepseek_v1_ships_a_tool_failing_closed_non_strict_as_deepseek_chat_shapes_it() {
    // `not` keeps it out of strict mode; the typeless root, which DeepSeek
    // rejects even non-strict, still gets deepseek-chat's `type: object`.
    let s = v1(json!({"properties":{"a":{"not":{"type":"string"}}}}));
    match &s.outcome {
        Outcome::FailedClosed { reason } => assert!(
            reason.ends_with("; shaped as on deepseek-chat instead"),
            "{reason}"
        ),
        other => panic!("expected failed closed, got {other:?}"),
    }
    assert_eq!(s.tool.strict, None);
    assert_eq!(
        bytes(&s.tool.input_schema),
        r#"{"type":"object","properties":{"a":{"not":{"type":"string"}}}}"#
    );
    assert_eq!(s.degradations.len(), 1);
    assert_eq!(s.degradations[0].keyword, "type");
    assert_eq!(s.degradations[0].lane, Lane::DeepseekStrict);
}

#[test]
fn deepseek_strict_v1_close_objects_never_reaches_into_if_then_else_not() {
    use crate::passes::test_support::run;
    let v = json!({"type":"object","properties":{"k":{"type":"string"}},"required":["k"],
        "if":{"properties":{"k":{"const":"a"}}},"then":{"type":"object","properties":{"x":{"type":"string"}}},
        "not":{"type":"object","properties":{"w":{"type":"string"}}}});
    let r = run(&super::DeepseekCloseObjects, Lane::DeepseekStrict, v);
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"k":{"type":"string"}},"required":["k"],"additionalProperties":false,"if":{"properties":{"k":{"const":"a"}}},"then":{"type":"object","properties":{"x":{"type":"string"}}},"not":{"type":"object","properties":{"w":{"type":"string"}}}}"#
    );
    assert_eq!(r.records.len(), 1);
    // The whole lane still fails such a tool closed (the subset has no conditionals).
    assert_failed_closed(
        json!({"type":"object","properties":{"k":{"type":"string"}},"required":["k"],"if":{"required":["k"]}}),
        "if at / cannot be expressed in strict mode",
    );
}

/// Closing a root whose properties only its `anyOf` branches declare
/// (`additionalProperties` does not look into applicators) would refuse
/// every call: the semantic differential found it on BFCL's "multiple"
/// schemas. The tool fails closed instead.
#[test]
fn deepseek_v1_fails_closed_when_closing_would_forbid_branch_properties() {
    let s = v1(json!({"anyOf":[
        {"type":"object","properties":{"area":{"type":"integer"}},"required":["area"],"additionalProperties":false},
        {"type":"object","properties":{"radius":{"type":"number"}},"required":["radius"],"additionalProperties":false}]}));
    assert_eq!(
        s.outcome,
        Outcome::FailedClosed {
            reason: "deepseek-post-gate: closed object at / forbids \"area\", which only its anyOf branches name: no call could send it; shaped as on deepseek-chat instead".into()
        }
    );
    assert_eq!(s.tool.strict, None);
}

/// The other direction: the object declares and requires `c`, and the
/// `$ref` beside it (a conjunction) points at an object that, once closed,
/// declares only `k`: every call would be refused, so the tool fails
/// closed. (JSONSchemaBench o85208 is caught by the first check: there
/// the target also declares a key the object lacks.)
#[test]
fn deepseek_v1_fails_closed_when_a_closed_ref_target_forbids_a_required_name() {
    let s = v1(json!({"type":"object",
        "$defs":{"T":{"type":"object","properties":{"k":{"type":"string"}},"required":["k"]}},
        "properties":{"k":{"type":"string"},"c":{"type":"boolean"}},
        "required":["k","c"],
        "$ref":"#/$defs/T"}));
    assert_eq!(
        s.outcome,
        Outcome::FailedClosed {
            reason: "deepseek-post-gate: the closed $ref target at / forbids \"c\", which the object requires: no call could send it".into()
        }
    );
}

/// A closed root beside a `$ref` whose target requires keys the root does
/// not declare (JSONSchemaBench o6378: normalize inlines the one-branch
/// `anyOf` into a sibling `$ref`, and closing the root then forbids every
/// key the target requires): no call is possible, so the tool fails closed.
#[test]
fn deepseek_v1_fails_closed_when_a_closed_root_forbids_its_ref_targets_keys() {
    let s = v1(json!({"type":"object","anyOf":[{"$ref":"#/definitions/T"}],
        "definitions":{"T":{"type":"object","properties":{"k":{"type":"string"}},"required":["k"],"additionalProperties":false}}}));
    assert_eq!(
        s.outcome,
        Outcome::FailedClosed {
            reason: "deepseek-post-gate: closed object at / forbids \"k\", which only its $ref target names: no call could send it".into()
        }
    );
}

/// The same through `anyOf`: no closed branch takes the required `c`.
#[test]
fn deepseek_v1_fails_closed_when_no_closed_any_of_branch_takes_a_required_name() {
    let branch = |v: &str| json!({"type":"object","properties":{"k":{"type":"string","enum":[v]}},"required":["k"]});
    let s = v1(
        json!({"type":"object","properties":{"k":{"type":"string"},"c":{"type":"boolean"}},
        "required":["k","c"],"anyOf":[branch("x"), branch("y")]}),
    );
    assert_eq!(
        s.outcome,
        Outcome::FailedClosed {
            reason: "deepseek-post-gate: closed anyOf branches at / forbid \"c\", which the object requires: no call could send it".into()
        }
    );
}

/// A root whose keys only `patternProperties` describes is a map: closing
/// it after the strip would accept only `{}`.
#[test]
fn deepseek_v1_fails_closed_on_a_pattern_properties_map_root() {
    let s = v1(json!({"type":"object","patternProperties":{"^iglu:":{"type":"string"}}}));
    assert_eq!(
        s.outcome,
        Outcome::FailedClosed {
            reason: "deepseek-pre-gate: root is a map shape (additionalProperties or patternProperties without properties): strict mode would only accept {}".into()
        }
    );
}

/// Removing the optional properties that `anyOf` branches require would
/// leave a schema no call satisfies (o65440 in JSONSchemaBench).
#[test]
fn deepseek_v1_fails_closed_when_a_branch_requires_a_removed_optional() {
    let s = v1(json!({"type":"object",
        "properties":{"value":{"type":"string"},"date":{"type":"string"},"end_date":{"type":"string"}},
        "required":["value"],
        "anyOf":[{"required":["date"]},{"required":["end_date"]}]}));
    assert_eq!(
        s.outcome,
        Outcome::FailedClosed {
            reason: "deepseek-post-gate: closed object at / forbids \"date\", which only its anyOf branches name: no call could send it; shaped as on deepseek-chat instead".into()
        }
    );
}

/// A tool failing closed that deepseek-chat leaves exactly as it is ships
/// as it came in, not strict, under the strict passes' own reason: the
/// strict passes are not run a second time on what would be the same input
/// (the outcome could only be the first one's), and the copy deepseek-chat
/// shaped is what ships. Key order and the description are kept.
#[test]
fn deepseek_v1_ships_a_tool_deepseek_chat_leaves_alone_as_it_came_in() {
    let mut tool = Tool::new(
        "t",
        json!({"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}}}),
    )
    .with_description("Does t.");
    tool.strict = Some(true);
    let s = v1_with(PipelineConfig::default(), tool);
    assert_eq!(
        s.outcome,
        Outcome::FailedClosed {
            reason: "deepseek-remove-optionals: every root property is optional: removing them would leave a tool callable only with {}".into()
        }
    );
    assert_eq!(s.tool.strict, None);
    assert_eq!(s.tool.name, "t");
    assert_eq!(s.tool.description.as_deref(), Some("Does t."));
    assert_eq!(
        bytes(&s.tool.input_schema),
        r#"{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}}}"#
    );
    assert!(s.degradations.is_empty());
}

/// The emptied-root guard answers before the removal walk, and as the walk
/// would have: a schema nested too deep where the walk goes (beside the
/// optional root properties) is still too deep, at the same node; one too
/// deep only under an optional property, which the walk removes before
/// reaching it, still fails closed.
#[test]
fn deepseek_v1_emptied_root_guard_keeps_the_walks_depth_verdict() {
    use crate::passes::{Cx, Pass, Step};
    use crate::schema::{MAX_DEPTH, TooDeep};

    let pass = super::DeepseekRemoveOptionals::default();
    let config = PipelineConfig::default();
    let apply = |schema: Value| {
        let mut tool = Tool::new("t", schema);
        let mut cx = Cx::new(Lane::DeepseekStrict, &config, "t");
        cx.enter(&pass);
        pass.apply(&mut tool, &mut cx)
    };
    // MAX_DEPTH arrays around a string: under `items`, the string sits one
    // level past the limit.
    let deep = (0..MAX_DEPTH).fold(
        json!({"type":"string"}),
        |inner, _| json!({"type":"array","items":inner}),
    );
    let emptied = Step::FailClosed(
        "every root property is optional: removing them would leave a tool callable only with {}"
            .to_owned(),
    );
    assert_eq!(
        apply(json!({"type":"object","properties":{"a":{"type":"string"}},"items":deep.clone()})),
        Err(TooDeep {
            path: "/items".repeat(MAX_DEPTH + 1),
            limit: MAX_DEPTH,
        })
    );
    assert_eq!(
        apply(
            json!({"type":"object","properties":{"a":{"type":"object","properties":{"b":deep}}}})
        ),
        Ok(emptied)
    );
}

#[test]
fn deepseek_v1_inlines_a_union_the_removed_optionals_kept_apart() {
    // cargo fuzz (shape_idempotent): normalize, which runs first, could not
    // inline this branch (its `id` differs from the parent's); once both
    // optional `id`s were gone a second shaping did. Now the first does.
    let s = v1(
        json!({"type":"object","properties":{"ids":{"type":"array","items":{"type":"string"},
        "properties":{"id":{"type":"string"}},"anyOf":[{"type":"array","properties":{"id":{"type":"integer"}}}]}},
        "required":["ids"]}),
    );
    assert_strict(&s);
    assert_eq!(
        bytes(&s.tool.input_schema),
        r#"{"type":"object","properties":{"ids":{"type":"array","items":{"type":"string"},"properties":{}}},"required":["ids"],"additionalProperties":false}"#
    );
    let inlined: Vec<(&str, &str)> = s
        .degradations
        .iter()
        .map(|d| (d.path.as_str(), d.keyword.as_str()))
        .filter(|(_, k)| *k == "anyOf")
        .collect();
    assert_eq!(inlined, [("/properties/ids", "anyOf")]);
    let again = v1(s.tool.input_schema.clone());
    assert_eq!(bytes(&again.tool.input_schema), bytes(&s.tool.input_schema));
}
