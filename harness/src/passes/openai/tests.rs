//! Unit tests of the OpenAI-compatible Chat passes: exact bytes and marks.

use serde_json::{Value, json};

use super::*;
use crate::degradation::Action;
use crate::lane::Lane;
use crate::passes::lists::v1;
use crate::passes::strict::{CloseObjects, RequireAll};
use crate::passes::test_support::{Ran, bytes, run, run_on_tool};
use crate::passes::{Pass, Step};
use crate::tool::Tool;

fn mark(path: &str, keyword: &str, action: Action) -> (String, String, Action) {
    (path.to_owned(), keyword.to_owned(), action)
}

/// Run `pass` on `schema` and again on its output: the second run records
/// nothing and changes nothing.
fn twice(pass: &dyn Pass, lane: Lane, tool: Tool) -> Ran {
    let once = run_on_tool(pass, lane, tool);
    let again = run_on_tool(pass, lane, once.tool.clone());
    assert!(
        again.records.is_empty(),
        "not idempotent: {:?}",
        again.marks()
    );
    assert_eq!(again.tool, once.tool);
    once
}

fn strict(schema: Value) -> Tool {
    let mut t = Tool::new("t", schema);
    t.strict = Some(true);
    t
}

fn untouched(pass: &dyn Pass, lane: Lane, schema: &Value) {
    let r = run(pass, lane, schema.clone());
    assert_eq!(bytes(r.schema()), bytes(schema));
    assert!(r.records.is_empty(), "{:?}", r.marks());
}

// ---- v1 lists --------------------------------------------------------

#[test]
fn openai_v1_pass_lists_per_lane() {
    let names = |lane| v1(lane).iter().map(|p| p.name()).collect::<Vec<_>>();
    assert_eq!(
        names(Lane::OpenaiChat),
        [
            "sanitize-tool-name",
            "non-schema-root",
            "strict-inline-ref-siblings",
            "narrow-root-composition",
            "strip-root-assertions",
            "repair-keyword-types",
            "replace-non-schemas",
            "array-items-floor",
            "object-properties-floor",
            "strict-fallback",
            "strict-subset",
            "strict-typeless-fallback",
            "strict-inline-ref-siblings",
            "strict-close-objects",
            "strict-require-all"
        ]
    );
    assert_eq!(
        names(Lane::OpenaiStrict),
        [
            "sanitize-tool-name",
            "non-schema-root",
            "strict-inline-ref-siblings",
            "narrow-root-composition",
            "strip-root-assertions",
            "repair-keyword-types",
            "replace-non-schemas",
            "array-items-floor",
            "object-properties-floor",
            "strict-fallback",
            "strict-subset",
            "strict-typeless-fallback",
            "strict-inline-ref-siblings",
            "strict-strip-defaults",
            "strict-close-objects",
            "strict-require-all"
        ]
    );
    assert_eq!(
        names(Lane::Xai),
        ["strip-unsupported-keywords", "xai-exact-constructs"]
    );
    assert_eq!(
        names(Lane::Groq),
        [
            "non-schema-root",
            "repair-keyword-types",
            "upgrade-draft-keywords",
            "replace-non-schemas",
            "object-properties-floor",
            "metaschema-gate"
        ]
    );
    assert_eq!(
        names(Lane::Cerebras),
        [
            "strip-unsupported-keywords",
            "strict-conditionals",
            "strict-close-objects"
        ]
    );
    let rules = |lane| v1(lane).iter().map(|p| p.rule()).collect::<Vec<_>>();
    assert_eq!(
        rules(Lane::Cerebras),
        [
            Some("cerebras-unsupported-schema-fields"),
            Some("cerebras-additionalproperties-false-required"),
            Some("cerebras-additionalproperties-false-required")
        ]
    );
    assert_eq!(
        rules(Lane::Xai),
        [
            Some("xai-length-count-constraints"),
            Some("xai-schema-construct-rejected")
        ]
    );
    assert_eq!(
        rules(Lane::Groq),
        [
            Some("groq-metaschema-validation"),
            Some("groq-metaschema-validation"),
            Some("groq-metaschema-validation"),
            Some("groq-metaschema-validation"),
            Some("groq-required-without-properties"),
            Some("groq-metaschema-validation")
        ]
    );
    assert_eq!(
        rules(Lane::OpenaiChat)[5..7],
        [
            Some("openai-required-null"),
            Some("openai-subschema-not-object")
        ]
    );
    for lane in [
        Lane::OpenaiChat,
        Lane::OpenaiStrict,
        Lane::Xai,
        Lane::Groq,
        Lane::Cerebras,
    ] {
        for p in v1(lane) {
            if p.name() != "sanitize-tool-name" && p.name() != "narrow-root-composition" {
                assert!(!p.mutants().is_empty(), "{} has no mutants", p.name());
            }
        }
    }
}

// ---- strip-root-assertions -------------------------------------------

#[test]
fn openai_chat_v1_strips_root_enum_const_and_not_with_a_note() {
    let r = twice(
        &StripKeywords::root_assertions(),
        Lane::OpenaiChat,
        Tool::new(
            "t",
            json!({"type":"object","not":{"required":["a"]},"properties":{"a":{}},"const":{"a":1},"enum":[{"a":1}]}),
        )
        .with_description("D."),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"a":{}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("", "enum", Action::Removed),
            mark("", "const", Action::Removed),
            mark("", "not", Action::Removed),
            mark("", "description", Action::Noted),
        ]
    );
    assert_eq!(
        r.tool.description.as_deref(),
        Some(
            r#"D.

Constraints this schema does not enforce (still follow them): (root): enum [{"a":1}]; (root): const {"a":1}; (root): not {"required":["a"]}."#
        )
    );
}

#[test]
fn openai_chat_v1_keeps_nested_assertions_and_a_plain_root() {
    untouched(
        &StripKeywords::root_assertions(),
        Lane::OpenaiChat,
        &json!({"type":"object","properties":{"a":{"enum":["x"],"not":{"const":"y"}}}}),
    );
}

#[test]
fn openai_chat_v1_root_assertion_note_is_optional_per_the_field() {
    let r = run(
        &StripKeywords {
            note: false,
            ..StripKeywords::root_assertions()
        },
        Lane::OpenaiChat,
        json!({"type":"string","enum":["a"]}),
    );
    assert_eq!(bytes(r.schema()), r#"{"type":"string"}"#);
    assert_eq!(r.marks(), [mark("", "enum", Action::Removed)]);
}

// ---- repair-keyword-types --------------------------------------------

#[test]
fn openai_chat_v1_removes_required_null() {
    let r = twice(
        &RepairKeywordTypes::new("openai-required-null"),
        Lane::OpenaiChat,
        Tool::new(
            "ai-sfn",
            json!({"type":"object","properties":{"input":{"type":"string"}},"required":null}),
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"input":{"type":"string"}}}"#
    );
    assert_eq!(r.marks(), [mark("", "required", Action::Removed)]);
    assert_eq!(r.records[0].rule.as_deref(), Some("openai-required-null"));
}

#[test]
fn openai_chat_v1_replaces_every_malformed_name_map_by_an_empty_one() {
    let r = twice(
        &RepairKeywordTypes::new("openai-required-null"),
        Lane::OpenaiChat,
        Tool::new(
            "t",
            json!({"properties":[],"$defs":null,"definitions":"x","patternProperties":1,"dependentSchemas":[]}),
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"properties":{},"$defs":{},"definitions":{},"patternProperties":{},"dependentSchemas":{}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("", "properties", Action::Rewritten),
            mark("", "$defs", Action::Rewritten),
            mark("", "definitions", Action::Rewritten),
            mark("", "patternProperties", Action::Rewritten),
            mark("", "dependentSchemas", Action::Rewritten),
        ]
    );
}

#[test]
fn groq_v1_lifts_a_draft3_required_flag_into_the_parent_list() {
    let r = twice(
        &RepairKeywordTypes::new("groq-metaschema-validation"),
        Lane::Groq,
        Tool::new(
            "http_request",
            json!({"type":"object","properties":{"headers":{"type":"array","items":{"type":"object","properties":{
                "key":{"type":"string","required":"true"},"value":{"type":"string","required":false},"x":{"required":true}},"required":["x"]}}}}),
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"headers":{"type":"array","items":{"type":"object","properties":{"key":{"type":"string"},"value":{"type":"string"},"x":{}},"required":["x","key"]}}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark(
                "/properties/headers/items/properties/key",
                "required",
                Action::Rewritten
            ),
            mark(
                "/properties/headers/items/properties/value",
                "required",
                Action::Removed
            ),
            mark(
                "/properties/headers/items/properties/x",
                "required",
                Action::Rewritten
            ),
            mark("/properties/headers/items", "required", Action::Rewritten),
        ]
    );
}

#[test]
fn groq_v1_adds_a_required_list_after_properties_for_a_lifted_flag() {
    let r = run(
        &RepairKeywordTypes::new("groq-metaschema-validation"),
        Lane::Groq,
        json!({"properties":{"a":{"required":true}},"type":"object"}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"properties":{"a":{}},"required":["a"],"type":"object"}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/a", "required", Action::Rewritten),
            mark("", "required", Action::Added),
        ]
    );
}

#[test]
fn repair_keyword_types_leaves_valid_keywords_and_a_property_named_required() {
    untouched(
        &RepairKeywordTypes::new("openai-required-null"),
        Lane::OpenaiChat,
        &json!({"type":"object","properties":{"required":{"type":"boolean"},"o":{"type":"object","properties":{},"required":[]}},"required":["required"],"$defs":{}}),
    );
}

// ---- replace-non-schemas ---------------------------------------------

#[test]
fn openai_chat_v1_replaces_non_schema_subschemas_by_empty_schemas() {
    let r = twice(
        &ReplaceNonSchemas::new("openai-subschema-not-object"),
        Lane::OpenaiChat,
        Tool::new(
            "str_replace_editor",
            json!({"type":"object","properties":{"path":{"type":"string"},"view_range":[]},
                "additionalProperties":null,"anyOf":[true,3],"items":"x","tuple":{"items":[1]}}),
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"path":{"type":"string"},"view_range":{}},"additionalProperties":{},"anyOf":[true,{}],"items":{},"tuple":{"items":[1]}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/view_range", "properties", Action::Rewritten),
            mark(
                "/additionalProperties",
                "additionalProperties",
                Action::Rewritten
            ),
            mark("/anyOf/1", "anyOf", Action::Rewritten),
            mark("/items", "items", Action::Rewritten),
        ]
    );
}

#[test]
fn replace_non_schemas_keeps_tuple_items_and_schema_values() {
    untouched(
        &ReplaceNonSchemas::new("openai-subschema-not-object"),
        Lane::OpenaiChat,
        &json!({"type":"array","items":[{"type":"string"},true],"not":false,"properties":{"a":true}}),
    );
}

// ---- array-items-floor -----------------------------------------------

#[test]
fn openai_chat_v1_states_items_on_every_array_without_them() {
    let r = twice(
        &ArrayItemsFloor::default(),
        Lane::OpenaiChat,
        Tool::new(
            "information_extraction",
            json!({"type":"array","properties":{"info":{"type":"array","items":{"type":"object","properties":{"synonyms":{"type":"array","description":"S"}}}}}}),
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"array","items":{},"properties":{"info":{"type":"array","items":{"type":"object","properties":{"synonyms":{"type":"array","items":{},"description":"S"}}}}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("", "items", Action::Added),
            mark(
                "/properties/info/items/properties/synonyms",
                "items",
                Action::Added
            ),
        ]
    );
}

#[test]
fn array_items_floor_leaves_arrays_with_items_and_type_lists_alone() {
    untouched(
        &ArrayItemsFloor::default(),
        Lane::OpenaiChat,
        &json!({"type":"object","properties":{"a":{"type":"array","items":false},"b":{"type":["array","null"]},"items":{"type":"string"}}}),
    );
}

// ---- object-properties-floor -----------------------------------------

#[test]
fn openai_chat_v1_states_empty_properties_on_a_root_object() {
    let r = twice(
        &RootPropertiesFloor::openai(),
        Lane::OpenaiChat,
        Tool::new(
            "mongodb-list-databases",
            json!({"type":"object","required":[]}),
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{},"required":[]}"#
    );
    assert_eq!(r.marks(), [mark("", "properties", Action::Added)]);
    // a root required without type is Groq's rule, not OpenAI's
    untouched(
        &RootPropertiesFloor::openai(),
        Lane::OpenaiChat,
        &json!({"required":[]}),
    );
    // nested objects pass OpenAI without properties
    untouched(
        &RootPropertiesFloor::openai(),
        Lane::OpenaiChat,
        &json!({"type":"object","properties":{"o":{"type":"object"}}}),
    );
}

#[test]
fn groq_v1_states_empty_properties_beside_a_root_required() {
    let r = twice(
        &RootPropertiesFloor::groq(),
        Lane::Groq,
        Tool::new("view_agent_graph", json!({"required":[],"type":"object"})),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"required":[],"type":"object","properties":{}}"#
    );
    assert_eq!(r.marks(), [mark("", "properties", Action::Added)]);
    untouched(
        &RootPropertiesFloor::groq(),
        Lane::Groq,
        &json!({"type":"object"}),
    );
}

// ---- non-schema-root / upgrade-draft-keywords ------------------------

#[test]
fn groq_v1_replaces_a_non_schema_root_and_keeps_a_boolean_one() {
    let r = twice(
        &NonSchemaRoot::new("groq-metaschema-validation"),
        Lane::Groq,
        Tool::new("t", json!([1])),
    );
    assert_eq!(bytes(r.schema()), "{}");
    assert_eq!(r.marks(), [mark("", "", Action::Rewritten)]);
    untouched(
        &NonSchemaRoot::new("groq-metaschema-validation"),
        Lane::Groq,
        &json!(true),
    );
    untouched(
        &NonSchemaRoot::new("groq-metaschema-validation"),
        Lane::Groq,
        &json!({"type":"object"}),
    );
}

#[test]
fn groq_v1_upgrades_tuple_items_to_prefix_items() {
    let r = twice(
        &UpgradeDraftKeywords::default(),
        Lane::Groq,
        Tool::new(
            "t",
            json!({"type":"object","properties":{"range":{"type":"array","items":[{"type":"integer"},{"items":[true]}],"additionalItems":false,"minItems":2}}}),
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"range":{"type":"array","prefixItems":[{"type":"integer"},{"prefixItems":[true]}],"items":false,"minItems":2}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/range", "items", Action::Rewritten),
            mark("/properties/range", "additionalItems", Action::Rewritten),
            mark(
                "/properties/range/prefixItems/1",
                "items",
                Action::Rewritten
            ),
        ]
    );
    untouched(
        &UpgradeDraftKeywords::default(),
        Lane::Groq,
        &json!({"prefixItems":[true],"items":[false]}),
    );
}

#[test]
fn groq_v1_upgrades_draft4_boolean_exclusive_bounds() {
    let r = twice(
        &UpgradeDraftKeywords::default(),
        Lane::Groq,
        Tool::new(
            "t",
            json!({"type":"number","minimum":0,"exclusiveMinimum":true,"maximum":1,"exclusiveMaximum":false,"properties":{"n":{"exclusiveMaximum":true}}}),
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"number","exclusiveMinimum":0,"maximum":1,"properties":{"n":{}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("", "exclusiveMinimum", Action::Rewritten),
            mark("", "minimum", Action::Rewritten),
            mark("", "exclusiveMaximum", Action::Removed),
            mark("/properties/n", "exclusiveMaximum", Action::Removed),
        ]
    );
    untouched(
        &UpgradeDraftKeywords::default(),
        Lane::Groq,
        &json!({"minimum":0,"exclusiveMinimum":0,"maximum":2,"exclusiveMaximum":3}),
    );
}

// ---- strict-fallback -------------------------------------------------

/// `levels` nested closed objects.
fn nested(levels: usize) -> Value {
    (1..levels).fold(
        json!({"type":"object","properties":{"x":{"type":"string"}}}),
        |inner, _| json!({"type":"object","properties":{"o": inner}}),
    )
}

fn fallback(lane: Lane, tool: Tool) -> Ran {
    twice(&StrictFallback::default(), lane, tool)
}

#[test]
fn openai_strict_v1_drops_strict_over_the_nesting_limit_only() {
    let r = fallback(Lane::OpenaiStrict, Tool::new("deep", nested(11)));
    assert_eq!(r.tool.strict, Some(false));
    assert_eq!(bytes(r.schema()), bytes(&nested(11)));
    assert_eq!(r.marks(), [mark("", "strict", Action::Rewritten)]);
    assert_eq!(
        r.records[0].reason,
        "sent with strict: false: 11 levels of object nesting exceed the strict limit of 10"
    );
    let r = fallback(Lane::OpenaiStrict, Tool::new("deep", nested(10)));
    assert_eq!(r.tool.strict, None);
    assert!(r.records.is_empty());
}

#[test]
fn openai_strict_v1_nesting_restarts_in_definitions() {
    let mut s = nested(6);
    s["$defs"] = json!({"d": nested(6)});
    let r = fallback(Lane::OpenaiStrict, Tool::new("t", s));
    assert_eq!(r.tool.strict, None);
}

#[test]
fn openai_strict_v1_drops_strict_over_the_property_and_enum_limits() {
    let props: serde_json::Map<String, Value> = (0..5001)
        .map(|k| (format!("p{k}"), json!({"type":"string"})))
        .collect();
    let mut wide = json!({"type":"object"});
    wide["properties"] = Value::Object(props.clone());
    let r = fallback(Lane::OpenaiStrict, Tool::new("wide", wide.clone()));
    assert_eq!(r.tool.strict, Some(false));
    assert_eq!(
        r.records[0].reason,
        "sent with strict: false: 5001 object properties exceed the strict limit of 5000"
    );
    wide["properties"]
        .as_object_mut()
        .unwrap()
        .shift_remove("p0");
    assert_eq!(
        fallback(Lane::OpenaiStrict, Tool::new("w", wide))
            .tool
            .strict,
        None
    );

    let values = |n: usize| (0..n).map(|k| format!("v{k}")).collect::<Vec<_>>();
    let e = |n: usize| json!({"type":"object","properties":{"a":{"type":"string","enum":values(600)},"b":{"type":"string","enum":values(n)}}});
    let r = fallback(Lane::OpenaiStrict, Tool::new("e", e(401)));
    assert_eq!(r.tool.strict, Some(false));
    assert_eq!(
        r.records[0].reason,
        "sent with strict: false: 1001 enum values exceed the strict limit of 1000"
    );
    assert_eq!(
        fallback(Lane::OpenaiStrict, Tool::new("e", e(400)))
            .tool
            .strict,
        None
    );
}

#[test]
fn openai_strict_v1_drops_strict_for_a_nested_open_object_without_properties() {
    for open in [
        json!({"type":"object","properties":{"meta":{"type":"object","additionalProperties":{"type":"string"}}}}),
        json!({"type":"object","properties":{"meta":{"type":"object","properties":{}}}}),
    ] {
        let r = fallback(Lane::OpenaiStrict, Tool::new("t", open));
        assert_eq!(r.tool.strict, Some(false));
        assert_eq!(
            r.records[0].reason,
            "sent with strict: false: the open object at /properties/meta declares no properties: strict mode could only accept {} there"
        );
    }
    // a closed empty object, and a root without properties, stay strict
    for ok in [
        json!({"type":"object","properties":{"meta":{"type":"object","properties":{},"additionalProperties":false}}}),
        json!({"type":"object","properties":{}}),
    ] {
        assert_eq!(
            fallback(Lane::OpenaiStrict, Tool::new("t", ok)).tool.strict,
            None
        );
    }
}

#[test]
fn openai_strict_v1_drops_strict_for_an_if_then_else_or_not_subschema() {
    for (kw, v) in [
        (
            "if",
            json!({"type":"object","properties":{"k":{"type":"string"}},"if":{"properties":{"k":{"const":"a"}}},"then":{"required":["k"]}}),
        ),
        (
            "else",
            json!({"type":"object","properties":{"o":{"type":"object","properties":{"p":{"type":"string"}},"else":{"required":["p"]}}}}),
        ),
        (
            "not",
            json!({"type":"object","properties":{"n":{"type":"string","not":{"enum":["x"]}}}}),
        ),
    ] {
        let r = fallback(Lane::OpenaiStrict, Tool::new("t", v.clone()));
        assert_eq!(r.tool.strict, Some(false), "{v}");
        assert_eq!(r.schema(), &v);
        let at = match kw {
            "if" => "/if",
            "else" => "/properties/o/else",
            _ => "/properties/n/not",
        };
        assert_eq!(
            r.records[0].reason,
            format!(
                "sent with strict: false: {kw} at {at}: the strict subset has no if/then/else/not, and closing objects inside one would change the condition"
            )
        );
    }
    // A property named `if` is a name, not a keyword.
    let named =
        json!({"type":"object","properties":{"if":{"type":"string"},"not":{"type":"string"}}});
    assert_eq!(
        fallback(Lane::OpenaiStrict, Tool::new("t", named))
            .tool
            .strict,
        None
    );
}

#[test]
fn openai_strict_and_responses_v1_ship_a_conditional_tool_non_strict_and_unclosed() {
    use crate::pipeline::{PipelineConfig, Profile, run_passes};
    let v = json!({"type":"object","properties":{"k":{"type":"string"},"x":{"type":"string"}},"required":["k"],
        "if":{"properties":{"k":{"const":"a"}}},"then":{"required":["x"]}});
    for lane in [Lane::OpenaiStrict, Lane::OpenaiChat, Lane::OpenaiResponses] {
        let out = run_passes(
            &Profile::V1.passes(lane),
            lane,
            &PipelineConfig::default(),
            &strict(v.clone()),
        );
        assert_eq!(out.tool.strict, Some(false), "{lane:?}");
        assert_eq!(out.tool.input_schema, v, "{lane:?}");
        assert_eq!(
            out.degradations
                .iter()
                .map(|d| (&*d.pass, d.keyword.as_str()))
                .collect::<Vec<_>>(),
            [("strict-fallback", "strict")],
            "{lane:?}"
        );
    }
}

#[test]
fn openai_chat_v1_strict_fallback_only_looks_at_strict_tools() {
    // openai-chat: no flag means non-strict
    let r = fallback(Lane::OpenaiChat, Tool::new("deep", nested(11)));
    assert_eq!(r.tool.strict, None);
    assert!(r.records.is_empty());
    let r = fallback(Lane::OpenaiChat, strict(nested(11)));
    assert_eq!(r.tool.strict, Some(false));
    // openai-strict: an explicit false stays untouched
    let mut t = Tool::new("deep", nested(11));
    t.strict = Some(false);
    let r = fallback(Lane::OpenaiStrict, t);
    assert_eq!(r.tool.strict, Some(false));
    assert!(r.records.is_empty());
}

// ---- strict-strip-defaults -------------------------------------------

#[test]
fn openai_strict_v1_strips_property_defaults_with_a_note() {
    let r = twice(
        &StrictStripDefaults::default(),
        Lane::OpenaiStrict,
        Tool::new(
            "search_knowledge_base",
            json!({"type":"object","default":{},"properties":{"query":{"type":"string","default":null},
                "max_results":{"type":"integer","default":5},"o":{"type":"object","properties":{"m":{"default":"x"}}}}}),
        )
        .with_description("Search."),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","default":{},"properties":{"query":{"type":"string","default":null},"max_results":{"type":"integer"},"o":{"type":"object","properties":{"m":{}}}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/max_results", "default", Action::Removed),
            mark("/properties/o/properties/m", "default", Action::Removed),
            mark("", "description", Action::Noted),
        ]
    );
    assert_eq!(
        r.tool.description.as_deref(),
        Some(
            "Search.\n\nConstraints this schema does not enforce (still follow them): max_results: default 5; o.m: default x."
        )
    );
}

#[test]
fn strict_strip_defaults_leaves_non_strict_tools_alone() {
    let v = json!({"type":"object","properties":{"n":{"type":"integer","default":5}}});
    let mut t = Tool::new("t", v.clone());
    t.strict = Some(false);
    let r = run_on_tool(&StrictStripDefaults::default(), Lane::OpenaiStrict, t);
    assert_eq!(r.schema(), &v);
    assert!(r.records.is_empty());
    untouched(&StrictStripDefaults::default(), Lane::OpenaiChat, &v);
}

// ---- strip-unsupported-keywords --------------------------------------

#[test]
fn xai_v1_strips_length_and_count_keywords_with_a_note() {
    let r = twice(
        &StripKeywords::xai(),
        Lane::Xai,
        Tool::new(
            "create_post",
            json!({"type":"object","properties":{"text":{"type":"string","maxLength":280,"minLength":1},
                "tags":{"type":"array","items":{"type":"string"},"maxItems":5,"minItems":1,"contains":{"const":"a"},"minContains":1,"maxContains":2},
                "maxItems":{"type":"integer","minimum":1}}}),
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"text":{"type":"string"},"tags":{"type":"array","items":{"type":"string"},"contains":{"const":"a"}},"maxItems":{"type":"integer","minimum":1}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/text", "minLength", Action::Removed),
            mark("/properties/text", "maxLength", Action::Removed),
            mark("/properties/tags", "minItems", Action::Removed),
            mark("/properties/tags", "maxItems", Action::Removed),
            mark("/properties/tags", "minContains", Action::Removed),
            mark("/properties/tags", "maxContains", Action::Removed),
            mark("", "description", Action::Noted),
        ]
    );
    assert_eq!(
        r.tool.description.as_deref(),
        Some(
            "Constraints this schema does not enforce (still follow them): text: minLength 1; text: maxLength 280; tags: minItems 1; tags: maxItems 5; tags: minContains 1; tags: maxContains 2."
        )
    );
}

#[test]
fn cerebras_v1_strips_only_min_and_max_items() {
    let r = twice(
        &StripKeywords::cerebras(),
        Lane::Cerebras,
        Tool::new(
            "MultiEdit",
            json!({"type":"object","properties":{"edits":{"type":"array","minItems":1,"maxItems":9,"items":{"type":"string","maxLength":3}}}}),
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"edits":{"type":"array","items":{"type":"string","maxLength":3}}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/edits", "minItems", Action::Removed),
            mark("/properties/edits", "maxItems", Action::Removed),
            mark("", "description", Action::Noted),
        ]
    );
    untouched(
        &StripKeywords::cerebras(),
        Lane::Cerebras,
        &json!({"type":"object","properties":{"minItems":{"type":"string","minLength":2}}}),
    );
}

// ---- the strict passes on the Chat lanes -----------------------------

#[test]
fn openai_strict_v1_closes_and_requires_a_tool_without_a_flag() {
    let v = json!({"type":"object","properties":{"a":{"type":"string"},"o":{"type":"object","properties":{"b":{"type":"integer"}}}},"required":["a"]});
    let closed = run(&CloseObjects::default(), Lane::OpenaiStrict, v.clone());
    assert_eq!(
        bytes(closed.schema()),
        r#"{"type":"object","properties":{"a":{"type":"string"},"o":{"type":"object","properties":{"b":{"type":"integer"}},"additionalProperties":false}},"additionalProperties":false,"required":["a"]}"#
    );
    assert_eq!(
        closed.marks(),
        [
            mark("", "additionalProperties", Action::Added),
            mark("/properties/o", "additionalProperties", Action::Added),
        ]
    );
    let all = run(&RequireAll::default(), Lane::OpenaiStrict, v.clone());
    assert_eq!(
        bytes(all.schema()),
        r#"{"type":"object","properties":{"a":{"type":"string"},"o":{"type":["object","null"],"properties":{"b":{"type":["integer","null"]}},"required":["b"]}},"required":["a","o"]}"#
    );
    assert_eq!(
        all.marks(),
        [
            mark("/properties/o", "type", Action::Rewritten),
            mark("", "required", Action::Rewritten),
            mark("/properties/o/properties/b", "type", Action::Rewritten),
            mark("/properties/o", "required", Action::Added),
        ]
    );
    // the same tool on openai-chat, without a flag, is not strict
    untouched(&CloseObjects::default(), Lane::OpenaiChat, &v);
    untouched(&RequireAll::default(), Lane::OpenaiChat, &v);
    // with strict: true it is
    let r = run_on_tool(&CloseObjects::default(), Lane::OpenaiChat, strict(v));
    assert_eq!(r.marks().len(), 2);
}

#[test]
fn cerebras_v1_closes_the_objects_of_strict_tools_only() {
    let pass = &v1(Lane::Cerebras)[2];
    let v = json!({"type":"object","properties":{"o":{"type":"object","properties":{}}},"additionalProperties":false});
    let r = run_on_tool(pass.as_ref(), Lane::Cerebras, strict(v.clone()));
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"o":{"type":"object","properties":{},"additionalProperties":false}},"additionalProperties":false}"#
    );
    assert_eq!(
        r.records[0].rule.as_deref(),
        Some("cerebras-additionalproperties-false-required")
    );
    untouched(pass.as_ref(), Lane::Cerebras, &v);
}

// ---- the whole lane --------------------------------------------------

#[test]
fn openai_strict_v1_ships_the_azure_recording_without_the_default() {
    use crate::pipeline::{PipelineConfig, run_passes};
    let t = Tool::new(
        "search_knowledge_base",
        json!({"type":"object","properties":{"query":{"type":"string"},"max_results":{"type":"integer","default":5}},"required":["query","max_results"],"additionalProperties":false}),
    );
    let out = run_passes(
        &v1(Lane::OpenaiStrict),
        Lane::OpenaiStrict,
        &PipelineConfig::default(),
        &t,
    );
    assert_eq!(
        bytes(&Lane::OpenaiStrict.render(&out.tool)),
        r#"{"type":"function","function":{"name":"search_knowledge_base","description":"Constraints this schema does not enforce (still follow them): max_results: default 5.","parameters":{"type":"object","properties":{"query":{"type":"string"},"max_results":{"type":"integer"}},"required":["query","max_results"],"additionalProperties":false},"strict":true}}"#
    );
}

#[test]
fn groq_v1_turns_a_plain_name_id_into_an_anchor() {
    let r = twice(
        &UpgradeDraftKeywords::default(),
        Lane::Groq,
        Tool::new(
            "t",
            json!({"definitions":{"A":{"$id":"#foo","type":"integer"},"B":{"$id":"#9x"},"C":{"$id":"http://x/y.json"}},"$ref":"#foo"}),
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r##"{"definitions":{"A":{"$anchor":"foo","type":"integer"},"B":{"$id":"#9x"},"C":{"$id":"http://x/y.json"}},"$ref":"#foo"}"##
    );
    assert_eq!(
        r.marks(),
        [mark("/definitions/A", "$id", Action::Rewritten)]
    );
}

#[test]
fn openai_chat_v1_replaces_a_list_root_and_keeps_a_boolean_root() {
    use crate::pipeline::{PipelineConfig, run_passes};
    let passes = v1(Lane::OpenaiChat);
    let shape = |schema: Value| {
        run_passes(
            &passes,
            Lane::OpenaiChat,
            &PipelineConfig::default(),
            &Tool::new("t", schema),
        )
    };
    let out = shape(json!([{"type":"object"}]));
    assert_eq!(bytes(&out.tool.input_schema), "{}");
    assert_eq!(out.degradations.len(), 1);
    assert_eq!(out.degradations[0].pass, "non-schema-root");
    assert_eq!(
        out.degradations[0].rule.as_deref(),
        Some("openai-subschema-not-object")
    );
    let out = shape(json!(true));
    assert_eq!(bytes(&out.tool.input_schema), "true");
    assert!(out.degradations.is_empty());
}

#[test]
fn metaschema_gate_fails_closed_on_what_no_repair_made_valid() {
    let gate = MetaschemaGate {
        rule: "groq-metaschema-validation",
        enabled: true,
    };
    let bad = run(
        &gate,
        Lane::Groq,
        json!({"type":"object","properties":{"b":{"pattern":{"type":"string"}}}}),
    );
    assert!(
        matches!(&bad.step, Step::FailClosed(r) if r.starts_with("not a valid draft 2020-12 schema after the repairs: ")),
        "{:?}",
        bad.step
    );
    let good = run(
        &gate,
        Lane::Groq,
        json!({"type":"object","properties":{"b":{"pattern":"^a"}}}),
    );
    assert_eq!(good.step, Step::Continue);
    assert!(good.records.is_empty());
}

#[test]
fn xai_v1_spells_tuple_items_as_prefix_items_and_true_properties_as_empty_schemas() {
    use crate::passes::test_support::run;
    let r = run(
        &super::XaiExactConstructs::default(),
        Lane::Xai,
        json!({"type":"object","properties":{
            "range":{"type":"array","items":[{"type":"integer"},{"type":"integer"}],"additionalItems":false},
            "any":true}}),
    );
    assert_eq!(
        serde_json::to_string(r.schema()).unwrap(),
        r#"{"type":"object","properties":{"range":{"type":"array","prefixItems":[{"type":"integer"},{"type":"integer"}],"items":false},"any":{}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            // The root's properties map first, then the walk reaches `range`.
            (
                "/properties/any".to_owned(),
                "(schema)".to_owned(),
                Action::Rewritten
            ),
            (
                "/properties/range".to_owned(),
                "items".to_owned(),
                Action::Rewritten
            ),
            // The tuple's additionalItems moves to items: recorded too
            // (never silent).
            (
                "/properties/range".to_owned(),
                "additionalItems".to_owned(),
                Action::Rewritten
            ),
        ]
    );
}

/// Found by the `shape_conforms` property: a tuple `items` beside a
/// `prefixItems` already there shipped unchanged, and xAI rejects it.
#[test]
fn xai_v1_removes_tuple_items_beside_prefix_items_with_a_note() {
    use crate::passes::test_support::run;
    let r = run(
        &super::XaiExactConstructs::default(),
        Lane::Xai,
        json!({"type":"object","properties":{"a":{"type":"array","items":[{"type":"string"}],"prefixItems":[{"type":"integer"}]}}}),
    );
    assert_eq!(
        serde_json::to_string(r.schema()).unwrap(),
        r#"{"type":"object","properties":{"a":{"type":"array","prefixItems":[{"type":"integer"}]}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            (
                "/properties/a".to_owned(),
                "items".to_owned(),
                Action::Removed
            ),
            (String::new(), "description".to_owned(), Action::Noted),
        ]
    );
    assert_eq!(
        r.tool.description.as_deref(),
        Some(
            r#"Constraints this schema does not enforce (still follow them): a: items [{"type":"string"}]."#
        )
    );
}

#[test]
fn xai_v1_removes_a_false_property_and_an_empty_enum_with_a_note() {
    use crate::passes::test_support::run;
    let r = run(
        &super::XaiExactConstructs::default(),
        Lane::Xai,
        json!({"type":"object","properties":{"secret":false,"mode":{"type":"string","enum":[]}}}),
    );
    assert_eq!(
        serde_json::to_string(r.schema()).unwrap(),
        r#"{"type":"object","properties":{"mode":{"type":"string"}}}"#
    );
    assert_eq!(
        r.tool.description.as_deref(),
        Some(
            "Constraints this schema does not enforce (still follow them): secret: must be absent true; mode: enum []."
        )
    );
}

/// A strict tool with a subschema that has no type (here the `items: {}`
/// of an array) goes non-strict, the node named and the record under the
/// rule OpenAI's 400 is evidence for; `anyOf`, `$ref`, `enum` and `const`
/// nodes and the root do not count, and on Chat a tool that does not ask
/// for strict is left alone.
#[test]
fn openai_strict_v1_drops_strict_for_a_typeless_subschema_only() {
    let pass = StrictTypelessFallback::default();
    let typeless = json!({"type": "object", "properties": {
        "k": {"type": "string"},
        "list": {"type": "array", "items": {}}
    }});
    let r = twice(&pass, Lane::OpenaiStrict, Tool::new("t", typeless.clone()));
    assert_eq!(r.tool.strict, Some(false));
    assert_eq!(bytes(r.schema()), bytes(&typeless));
    assert_eq!(r.marks(), [mark("", "strict", Action::Rewritten)]);
    assert_eq!(
        r.records[0].reason,
        "sent with strict: false: the subschema at /properties/list/items has no type: strict mode requires one on every subschema, and no strict type admits any value"
    );
    assert_eq!(
        r.records[0].rule.as_deref(),
        Some("openai-strict-subschema-missing-type")
    );
    let stand_ins = json!({"properties": {
        "a": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "b": {"$ref": "#/$defs/b"},
        "c": {"enum": ["x"]},
        "d": {"const": 1}
    }, "$defs": {"b": {"type": "string"}}});
    untouched(&pass, Lane::OpenaiStrict, &stand_ins);
    untouched(&pass, Lane::OpenaiChat, &typeless);
}
