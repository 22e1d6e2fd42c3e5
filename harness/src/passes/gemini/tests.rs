//! Gemini v1: each pass alone (exact bytes and marks, the no-op case, one
//! test per rule and per mutation point) and the whole lane pipelines
//! (oracle acceptance, idempotence, never-silent).
#![allow(clippy::needless_pass_by_value)]

use serde_json::{Map, Value, json};

use super::notes::NOTE_OPEN;
use super::*;
use crate::degradation::Action;
use crate::invariants;
use crate::json_len;
use crate::lane::Lane;
use crate::oracle::{self, DEFAULT_AS_OF};
use crate::passes::growth::{GROWTH_CAP, GROWTH_FACTOR, GROWTH_FLOOR, growth_budget};
use crate::passes::test_support::{Ran, bytes, run, run_on_tool};
use crate::pipeline::{Outcome, Pipeline, PipelineConfig, Profile, Shaped};

const OA: Lane = Lane::GeminiOpenapi;
const JS: Lane = Lane::GeminiJsonschema;

fn one(pass: &dyn Pass, schema: Value) -> Ran {
    run(pass, OA, schema)
}

fn mark(path: &str, keyword: &str, action: Action) -> (String, String, Action) {
    (path.to_owned(), keyword.to_owned(), action)
}

/// The pass changes nothing and records nothing on `schema`.
fn assert_noop(pass: &dyn Pass, schema: Value) {
    let r = one(pass, schema.clone());
    assert_eq!(bytes(r.schema()), bytes(&schema), "{}", pass.name());
    assert!(r.records.is_empty(), "{}: {:?}", pass.name(), r.marks());
}

/// A second run of the pass over its own output records nothing.
fn assert_idempotent(pass: &dyn Pass, schema: Value) {
    let once = one(pass, schema);
    let twice = one(pass, once.schema().clone());
    assert_eq!(bytes(twice.schema()), bytes(once.schema()));
    assert!(twice.records.is_empty(), "{:?}", twice.marks());
}

fn v1(lane: Lane, tool: Tool) -> Shaped {
    Profile::V1
        .with_config(PipelineConfig::default())
        .shape(lane, &tool)
}

/// Rule ids the oracle still raises for the shaped tool, on `as_of`.
fn rejections(lane: Lane, tool: &Tool, as_of: &str) -> Vec<&'static str> {
    let tools = [lane.render(tool)];
    oracle::check(&crate::rules::request(lane, &tools, as_of))
        .into_iter()
        .map(|r| r.rule)
        .collect()
}

/// Every note fragment the records carry.
fn note_of(r: &Ran) -> Option<String> {
    r.records.iter().find_map(|d| {
        let at = d.reason.find(NOTE_OPEN)?;
        let rest = &d.reason[at + NOTE_OPEN.len()..];
        Some(rest.strip_suffix(']').unwrap_or(rest).to_owned())
    })
}

// ------------------------------------------------------------ names

#[test]
fn gemini_v1_function_names_follow_the_spec_valid_on_every_date() {
    assert_eq!(FUNCTION_NAME.sanitize("a.b-c_9"), None);
    assert_eq!(
        FUNCTION_NAME.sanitize("21st_magic").as_deref(),
        Some("_21st_magic")
    );
    // `:` is accepted only as of 2026-03-03: v1 never relies on it.
    assert_eq!(
        FUNCTION_NAME.sanitize("mcp:search").as_deref(),
        Some("mcp_search")
    );
    assert_eq!(PARAMETER_NAME.sanitize("_file_path2"), None);
    assert_eq!(
        PARAMETER_NAME.sanitize("file-path.x").as_deref(),
        Some("file_path_x")
    );
}

#[test]
fn gemini_v1_pass_lists() {
    assert_eq!(
        Profile::V1.pass_names(JS),
        [
            "sanitize-tool-name",
            "gemini-maxitems-budget",
            "gemini-constraint-note"
        ]
    );
    assert_eq!(
        Profile::V1.pass_names(OA),
        [
            "sanitize-tool-name",
            "normalize",
            "gemini-inline-refs",
            "gemini-root-object",
            "sanitize-property-keys",
            "gemini-schema-values",
            "gemini-type-list",
            "gemini-const-to-enum",
            "gemini-exclusive-bounds",
            "gemini-fold-combinators",
            "gemini-strip-property-names",
            "gemini-strip-non-proto-fields",
            "gemini-anyof-only",
            "gemini-type-required",
            "gemini-enum-strings",
            "gemini-string-format",
            "gemini-array-items",
            "gemini-empty-objects",
            "normalize",
            "gemini-anyof-only",
            "gemini-maxitems-budget",
            "gemini-constraint-note",
        ]
    );
}

#[test]
fn gemini_v1_renames_a_digit_first_tool_and_a_hyphenated_parameter() {
    let s = v1(
        OA,
        Tool::new(
            "21st_magic",
            json!({"type":"object","properties":{"file-path":{"type":"string"}},"required":["file-path"]}),
        ),
    );
    assert_eq!(s.tool.name, "_21st_magic");
    assert_eq!(
        bytes(&s.tool.input_schema),
        r#"{"type":"object","properties":{"file_path":{"type":"string"}},"required":["file_path"]}"#
    );
    assert!(rejections(OA, &s.tool, "2025-09-06").is_empty());
}

// ------------------------------------------------------------ maxItems

fn arrays(maxes: &[u64]) -> Value {
    let props: serde_json::Map<String, Value> = maxes
        .iter()
        .enumerate()
        .map(|(k, m)| {
            (
                format!("a{k}"),
                json!({"type":"array","items":{"type":"string"},"maxItems":m}),
            )
        })
        .collect();
    json!({"type":"object","properties":props})
}

#[test]
fn gemini_v1_max_items_budget_removes_the_largest_first() {
    let r = one(
        &MaxItemsBudget::default(),
        arrays(&[100, 100, 100, 100, 100, 100, 100, 100, 100, 500]),
    );
    assert_eq!(
        r.marks(),
        [mark("/properties/a9", "maxItems", Action::Removed)]
    );
    assert_eq!(note_of(&r).as_deref(), Some("a9: maxItems 500"));
    assert!(r.schema()["properties"]["a9"].get("maxItems").is_none());
    assert_idempotent(&MaxItemsBudget::default(), arrays(&[100; 10]));
}

#[test]
fn gemini_v1_max_items_budget_counts_what_is_left_without_rounding_it_away() {
    // cargo fuzz (shape_idempotent): `1e218 + 1e174 - 1e218` is 0 in f64, so
    // the 1e174 stayed and a second shaping removed it.
    let r = one(
        &MaxItemsBudget::default(),
        json!({"type":"object","properties":{"a":{"type":"array","maxItems":1e218},"b":{"type":"array","maxItems":1e174},"c":{"type":"array","maxItems":10}}}),
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/a", "maxItems", Action::Removed),
            mark("/properties/b", "maxItems", Action::Removed),
        ]
    );
    assert_eq!(r.schema()["properties"]["c"]["maxItems"], json!(10));
}

#[test]
fn gemini_v1_max_items_budget_ties_go_in_walk_order_until_within_budget() {
    let r = one(&MaxItemsBudget::default(), arrays(&[100; 10]));
    assert_eq!(
        r.marks(),
        [mark("/properties/a0", "maxItems", Action::Removed)]
    );
    assert_noop(&MaxItemsBudget::default(), arrays(&[120; 8]));
}

#[test]
fn gemini_v1_fixes_the_max_items_recording_on_both_wires() {
    for lane in [JS, OA] {
        let s = v1(lane, Tool::new("plan", arrays(&[100; 10])));
        assert!(rejections(lane, &s.tool, DEFAULT_AS_OF).is_empty());
        assert_eq!(
            s.tool.description.as_deref(),
            Some("Constraints this schema does not enforce (still follow them): a0: maxItems 100.")
        );
    }
}

// ------------------------------------------------------------ root

#[test]
fn gemini_v1_root_object_types_a_typeless_root_and_keeps_a_valid_one() {
    let r = one(
        &RootObject::default(),
        json!({"properties":{"a":{"type":"string"}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"a":{"type":"string"}}}"#
    );
    assert_eq!(r.marks(), [mark("", "type", Action::Added)]);
    assert_noop(
        &RootObject::default(),
        json!({"type":"OBJECT","properties":{"a":{"type":"string"}}}),
    );
    assert_noop(&RootObject::default(), Value::Null);
}

#[test]
fn gemini_v1_root_object_merges_a_root_any_of_and_notes_its_groups() {
    let r = one(
        &RootObject::default(),
        json!({"type":"object","anyOf":[
            {"properties":{"a":{"type":"string"}},"required":["a"]},
            {"properties":{"b":{"type":"string"}},"required":["b"]}]}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}}"#
    );
    assert_eq!(
        note_of(&r).as_deref(),
        Some("At least one of these parameter groups must be provided: a | b")
    );
}

#[test]
fn gemini_v1_root_object_floors_true_narrows_a_type_list_and_ships_no_parameters_otherwise() {
    let r = one(&RootObject::default(), json!(true));
    assert_eq!(bytes(r.schema()), r#"{"type":"object","properties":{}}"#);
    let r = one(
        &RootObject::default(),
        json!({"type":["object","null"],"properties":{"a":{"type":"string"}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"a":{"type":"string"}}}"#
    );
    for (bad, lost) in [
        (json!({"type":"string"}), r#"{"type":"string"}"#),
        (json!(false), "false"),
        (json!(3), "3"),
        (
            json!({"type":"array","items":{"type":"string"},"description":"x".repeat(200)}),
            r#"a schema of type "array""#,
        ),
    ] {
        let r = one(&RootObject::default(), bad);
        assert_eq!(r.step, Step::Continue);
        assert_eq!(r.schema(), &Value::Null);
        assert_eq!(r.marks(), [mark("", "", Action::Removed)]);
        assert_eq!(
            note_of(&r),
            Some(format!(
                "(root): the input {lost} cannot be declared (not an object of named parameters)"
            ))
        );
    }
}

#[test]
fn gemini_v1_ships_a_declared_non_object_root_without_parameters_and_notes_it() {
    let tool = Tool::new("count", json!({"type":"integer","minimum":1})).with_description("Count.");
    let s = v1(OA, tool.clone());
    assert_eq!(s.outcome, Outcome::Shaped);
    assert_eq!(s.tool.input_schema, Value::Null);
    assert_eq!(
        s.tool.description.as_deref(),
        Some(
            "Count.\n\nConstraints this schema does not enforce (still follow them): (root): the input {\"type\":\"integer\",\"minimum\":1} cannot be declared (not an object of named parameters)."
        )
    );
    for as_of in ["2024-09-26", "2025-09-06", DEFAULT_AS_OF] {
        assert_eq!(
            rejections(OA, &tool, as_of),
            ["vertex-parameters-type-object"]
        );
        assert_eq!(
            rejections(OA, &s.tool, as_of),
            Vec::<&str>::new(),
            "{as_of}"
        );
    }
    let pipeline = Profile::V1.with_config(PipelineConfig::default());
    assert!(invariants::check_all(&pipeline, OA, &tool, &s, true).is_empty());
}

#[test]
fn gemini_v1_fixes_empty_parameters_by_shipping_none() {
    for schema in [json!({}), json!({"type":"object","properties":{}})] {
        let s = v1(OA, Tool::new("load_docs", schema));
        assert_eq!(s.tool.input_schema, Value::Null);
        assert!(rejections(OA, &s.tool, DEFAULT_AS_OF).is_empty());
        let again = v1(OA, s.tool.clone());
        assert!(again.degradations.is_empty());
    }
}

// ------------------------------------------------------------ refs

#[test]
fn gemini_v1_inline_refs_inlines_local_refs_and_drops_the_definitions() {
    let r = one(
        &InlineRefs::default(),
        json!({"type":"object","properties":{
            "a":{"$ref":"#/$defs/A","description":"mine"},
            "b":{"$ref":"#/definitions/B"},
            "c":{"$ref":"https://example.com/x"}},
            "$defs":{"A":{"type":"string","description":"theirs"}},
            "definitions":{"B":{"$ref":"#/$defs/A"}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"a":{"type":"string","description":"mine"},"b":{"type":"string","description":"theirs"},"c":{}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/a", "$ref", Action::Rewritten),
            mark("/properties/b", "$ref", Action::Rewritten),
            mark("/properties/b", "$ref", Action::Rewritten),
            mark("/properties/c", "$ref", Action::Removed),
            mark("", "$defs", Action::Removed),
            mark("", "definitions", Action::Removed),
        ]
    );
    assert_noop(
        &InlineRefs::default(),
        json!({"type":"object","properties":{"a":{"type":"string"}}}),
    );
}

#[test]
fn gemini_v1_inline_refs_into_the_definitions_alone_inline_the_same_and_keep_them_for_the_mutant() {
    // Every `$ref` points into the root's definitions: they are moved out
    // to resolve against instead of copying the schema.
    let input = json!({"type":"object","properties":{
        "a":{"$ref":"#/$defs/A","description":"mine"},
        "b":{"$ref":"#/definitions/B"}},
        "$defs":{"A":{"type":"string","description":"theirs"}},
        "definitions":{"B":{"$ref":"#/$defs/A"}}});
    let r = one(&InlineRefs::default(), input.clone());
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"a":{"type":"string","description":"mine"},"b":{"type":"string","description":"theirs"}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/a", "$ref", Action::Rewritten),
            mark("/properties/b", "$ref", Action::Rewritten),
            mark("/properties/b", "$ref", Action::Rewritten),
            mark("", "$defs", Action::Removed),
            mark("", "definitions", Action::Removed),
        ]
    );
    let kept = one(&InlineRefs { drop_defs: false }, input);
    assert_eq!(
        bytes(kept.schema()),
        r##"{"type":"object","properties":{"a":{"type":"string","description":"mine"},"b":{"type":"string","description":"theirs"}},"$defs":{"A":{"type":"string","description":"theirs"}},"definitions":{"B":{"$ref":"#/$defs/A"}}}"##
    );
}

#[test]
fn gemini_v1_inline_refs_records_definitions_a_root_ref_brought_back_once() {
    let r = one(
        &InlineRefs::default(),
        json!({"$ref":"#/$defs/R","$defs":{
            "R":{"type":"object","properties":{"x":{"$ref":"#/$defs/X"}},"$defs":{"Y":{}}},
            "X":{"type":"integer"}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"x":{"type":"integer"}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("", "$ref", Action::Rewritten),
            mark("/properties/x", "$ref", Action::Rewritten),
            mark("", "$defs", Action::Removed),
        ]
    );
}

#[test]
fn gemini_v1_inline_refs_cuts_a_recursive_ref_to_a_typed_stub_after_one_level() {
    let r = one(
        &InlineRefs::default(),
        json!({"type":"object","properties":{"tree":{"$ref":"#/$defs/N"}},
            "$defs":{"N":{"type":"object","properties":{"kids":{"type":"array",
                "items":{"$ref":"#/$defs/N","description":"A kid"}}}}}}),
    );
    assert_eq!(r.step, Step::Continue);
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"tree":{"type":"object","properties":{"kids":{"type":"array","items":{"type":"object","description":"A kid"}}}}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/tree", "$ref", Action::Rewritten),
            mark(
                "/properties/tree/properties/kids/items",
                "$ref",
                Action::Removed
            ),
            mark("", "$defs", Action::Removed),
        ]
    );
    assert_eq!(
        note_of(&r).as_deref(),
        Some(
            "/properties/tree/properties/kids/items: repeats the schema at #/$defs/N (recursion not declared below this level)"
        )
    );
    assert_idempotent(&InlineRefs::default(), r.schema().clone());
    // A target without a type leaves the stub untyped (typed later).
    let r = one(
        &InlineRefs::default(),
        json!({"anyOf":[{"type":"string"},{"type":"array","items":{"$ref":"#"}}]}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"anyOf":[{"type":"string"},{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"array","items":{}}]}}]}"#
    );
}

/// A `{"type": "object", "$ref": "#"}` property (which `normalize` gives
/// `properties: {}`) keeps the root's properties one level down: the node's
/// empty `properties` merges with the target's instead of replacing them
/// (the Renovate configuration schema lost its 109 manager settings so).
#[test]
fn gemini_v1_inline_refs_merges_a_typed_ref_node_with_the_root_properties() {
    let tool = Tool::new(
        "t",
        json!({"type":"object","properties":{"a":{"type":"object","$ref":"#"},"b":{"type":"string"}}}),
    )
    .with_description("d");
    let s = v1(OA, tool.clone());
    assert_eq!(s.outcome, Outcome::Shaped);
    assert_eq!(
        bytes(&s.tool.input_schema),
        r#"{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}},"b":{"type":"string"}}}"#
    );
    assert_eq!(
        s.tool.description.as_deref(),
        Some(
            "d\n\nConstraints this schema does not enforce (still follow them): a.a: repeats the schema at # (recursion not declared below this level); a.a: omitted (a free-form object Gemini cannot declare)."
        )
    );
    assert_eq!(rejections(OA, &s.tool, DEFAULT_AS_OF), Vec::<&str>::new());
    let pipeline = Profile::V1.with_config(PipelineConfig::default());
    assert!(invariants::check_all(&pipeline, OA, &tool, &s, true).is_empty());
}

#[test]
fn gemini_v1_inline_refs_cuts_every_ref_past_the_expansion_budget() {
    let mut props = serde_json::Map::new();
    for i in 0..=MAX_INLINES {
        props.insert(format!("p{i}"), json!({"$ref":"#/$defs/A"}));
    }
    let r = one(
        &InlineRefs::default(),
        json!({"type":"object","properties":props,"$defs":{"A":{"type":"string","maxLength":3}}}),
    );
    assert_eq!(r.step, Step::Continue);
    let last = format!("/properties/p{MAX_INLINES}");
    assert_eq!(
        bytes(&r.schema()["properties"]["p511"]),
        r#"{"type":"string","maxLength":3}"#
    );
    assert_eq!(
        bytes(&r.schema()["properties"][format!("p{MAX_INLINES}")]),
        r#"{"type":"string"}"#
    );
    let marks = r.marks();
    assert_eq!(marks.len(), MAX_INLINES + 2);
    assert_eq!(marks[MAX_INLINES], mark(&last, "$ref", Action::Removed));
    assert_eq!(
        note_of(&r).as_deref(),
        Some("p512: the schema at #/$defs/A (not declared: too many references)")
    );
}

/// Inlining copies no more than the growth budget: a `$ref` whose target
/// would take the copies past it is cut to a typed stub, noted; a later
/// smaller target still fits and is inlined.
#[test]
fn gemini_v1_inline_refs_cuts_a_ref_whose_copy_would_pass_the_growth_budget() {
    let mut props = serde_json::Map::new();
    for i in 0..120 {
        props.insert(format!("p{i}"), json!({"$ref":"#/$defs/big"}));
    }
    props.insert("small".into(), json!({"$ref":"#/$defs/small"}));
    let big = json!({"type":"string","description":"x".repeat(5000)});
    let schema = json!({"type":"object","properties":props,
        "$defs":{"big":big,"small":{"type":"integer","minimum":1}}});
    // 8,645 bytes: a budget of 64 times that; the big target takes 5,034.
    assert_eq!(json_len::byte_len(&schema), 8_645);
    assert_eq!(growth_budget(8_645), 553_280);
    assert_eq!(json_len::byte_len(&big), 5_034);
    let r = one(&InlineRefs::default(), schema);
    assert_eq!(r.step, Step::Continue);
    let p = &r.schema()["properties"];
    // 109 copies (548,706 bytes) fit; the 110th would not, nor any after it.
    assert_eq!(bytes(&p["p108"]), bytes(&big));
    assert_eq!(bytes(&p["p109"]), r#"{"type":"string"}"#);
    assert_eq!(bytes(&p["p119"]), r#"{"type":"string"}"#);
    assert_eq!(bytes(&p["small"]), r#"{"type":"integer","minimum":1}"#);
    let marks = r.marks();
    assert_eq!(marks.len(), 122);
    assert_eq!(
        marks[108],
        mark("/properties/p108", "$ref", Action::Rewritten)
    );
    assert_eq!(
        marks[109],
        mark("/properties/p109", "$ref", Action::Removed)
    );
    assert_eq!(
        marks[120],
        mark("/properties/small", "$ref", Action::Rewritten)
    );
    assert_eq!(
        note_of(&r).as_deref(),
        Some("p109: the schema at #/$defs/big (not declared: the tool would grow too large)")
    );
}

#[test]
fn gemini_v1_declares_a_recursive_tree_one_level_deep_and_notes_the_cut() {
    // mcp-server-chart `generate_mind_map` (livemcpbench), trimmed.
    let tool = Tool::new(
        "generate_mind_map",
        json!({"type":"object","properties":{"data":{"type":"object","properties":{
            "name":{"type":"string"},
            "children":{"type":"array","items":{"type":"object","properties":{
                "name":{"type":"string"},
                "children":{"type":"array","items":{"$ref":"#/properties/data/properties/children/items"}}},
                "required":["name"]}}},"required":["name"]}},
            "required":["data"],"$schema":"http://json-schema.org/draft-07/schema#"}),
    )
    .with_description("Draw a mind map.");
    let s = v1(OA, tool.clone());
    assert_eq!(s.outcome, Outcome::Shaped);
    assert_eq!(
        bytes(&s.tool.input_schema),
        r#"{"type":"object","properties":{"data":{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}},"required":["name"]}}},"required":["name"]}},"required":["data"]}"#
    );
    assert_eq!(
        s.tool.description.as_deref(),
        Some(
            "Draw a mind map.\n\nConstraints this schema does not enforce (still follow them): /properties/data/properties/children/items/properties/children/items/properties/children/items: repeats the schema at #/properties/data/properties/children/items (recursion not declared below this level); /properties/data/properties/children/items/properties/children/items/properties/children: omitted (a free-form object Gemini cannot declare)."
        )
    );
    for as_of in ["2024-09-26", "2025-09-06", DEFAULT_AS_OF] {
        assert_eq!(
            rejections(OA, &s.tool, as_of),
            Vec::<&str>::new(),
            "{as_of}"
        );
    }
    let pipeline = Profile::V1.with_config(PipelineConfig::default());
    assert!(invariants::check_all(&pipeline, OA, &tool, &s, true).is_empty());
}

// ------------------------------------------------------------ schema values

#[test]
fn gemini_v1_schema_values_turns_scalars_into_schemas() {
    let r = one(
        &SchemaValues::default(),
        json!({"type":"object","properties":{
            "options":"object","any":true,"never":false,
            "pair":{"type":"array","items":[{"type":"string"},{"type":"integer"}]},
            "one":{"type":"array","items":[{"type":"string"}]},
            "u":{"anyOf":[false,{"type":"string"},3]}},"required":["never","options"]}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"options":{"type":"object"},"any":{},"pair":{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"integer"}]}},"one":{"type":"array","items":{"type":"string"}},"u":{"anyOf":[{"type":"string"},{}]}},"required":["options"]}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/options", "", Action::Rewritten),
            mark("/properties/any", "", Action::Rewritten),
            mark("", "required", Action::Rewritten),
            mark("/properties/never", "properties", Action::Removed),
            mark("/properties/pair", "items", Action::Rewritten),
            mark("/properties/one", "items", Action::Rewritten),
            mark("/properties/u/anyOf/2", "", Action::Rewritten),
            mark("/properties/u", "anyOf", Action::Rewritten),
        ]
    );
    assert_noop(
        &SchemaValues::default(),
        json!({"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}}}}),
    );
}

/// A JSON null or a list where one Schema belongs fails the proto parse
/// like a scalar (found by the conformance property).
#[test]
fn gemini_v1_schema_values_turns_null_and_lists_into_schemas() {
    let r = one(
        &SchemaValues::default(),
        json!({"type":"object","properties":{
            "n":null,"l":[{"type":"string"}],
            "i":{"type":"array","items":null},
            "u":{"anyOf":[null,{"type":"string"},[1]]}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"n":{},"l":{},"i":{"type":"array","items":{}},"u":{"anyOf":[{},{"type":"string"},{}]}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/n", "", Action::Rewritten),
            mark("/properties/l", "", Action::Rewritten),
            mark("/properties/i", "items", Action::Rewritten),
            mark("/properties/u/anyOf/0", "", Action::Rewritten),
            mark("/properties/u/anyOf/2", "", Action::Rewritten),
        ]
    );
    assert_idempotent(
        &SchemaValues::default(),
        json!({"type":"object","properties":{"n":null,"u":{"anyOf":[null]}}}),
    );
}

#[test]
fn gemini_v1_schema_values_removes_a_composition_that_is_not_an_array() {
    let r = one(
        &SchemaValues::default(),
        json!({"type":"object","properties":{"p":{"type":"string","anyOf":{"type":"string"},"allOf":3}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"p":{"type":"string"}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/p", "anyOf", Action::Removed),
            mark("/properties/p", "allOf", Action::Removed),
        ]
    );
}

#[test]
fn gemini_v1_schema_values_drops_false_one_of_branches_too() {
    let r = one(
        &SchemaValues::default(),
        json!({"type":"object","properties":{"p":{"oneOf":[false,{"type":"string"},"integer"]}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"p":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/p/oneOf/2", "", Action::Rewritten),
            mark("/properties/p", "oneOf", Action::Rewritten),
        ]
    );
}

// ------------------------------------------------------------ type lists

#[test]
fn gemini_v1_type_list_becomes_type_and_nullable() {
    let r = one(
        &TypeList::default(),
        json!({"type":"object","properties":{"c":{"type":["string","null"],"maxLength":3}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"c":{"type":"string","maxLength":3,"nullable":true}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/c", "nullable", Action::Added),
            mark("/properties/c", "type", Action::Rewritten),
        ]
    );
    assert_noop(
        &TypeList::default(),
        json!({"type":"string","nullable":true}),
    );
}

#[test]
fn gemini_v1_type_list_of_several_types_becomes_branches() {
    let r = one(
        &TypeList::default(),
        json!({"type":["string","integer","null"],"description":"d","maxLength":3,"minimum":1}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"anyOf":[{"type":"string","description":"d","maxLength":3,"nullable":true},{"type":"integer","description":"d","minimum":1,"nullable":true}]}"#
    );
    let r = one(&TypeList::default(), json!({"type":["null"]}));
    assert_eq!(bytes(r.schema()), r#"{"nullable":true}"#);
    assert_idempotent(&TypeList::default(), json!({"type":["string","integer"]}));
}

#[test]
fn gemini_v1_type_list_removes_a_type_name_gemini_lacks() {
    // rule gemini-type-invalid-value: `""` as agno-agi/agno#3298 and
    // zereight/gitlab-mcp#166 quote it, and a name the Type enum lacks.
    let r = one(
        &TypeList::default(),
        json!({"type":"object","properties":{"a":{"type":""},"b":{"type":"date","description":"When"}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"a":{},"b":{"description":"When"}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/a", "type", Action::Removed),
            mark("/properties/b", "type", Action::Removed),
        ]
    );
    assert_eq!(
        r.records[0].reason,
        "the type names no Gemini Type: the schema is left untyped"
    );
    assert_eq!(
        r.records[1].rule.as_deref(),
        Some("gemini-type-invalid-value")
    );
    assert!(
        r.records[1].reason.contains("[note: b: type date]"),
        "{}",
        r.records[1].reason
    );
    for kept in ["STRING", "object", "Integer", "null", "TYPE_UNSPECIFIED"] {
        assert_noop(&TypeList::default(), json!({"type": kept}));
    }
    let keep = TypeList {
        drop_unknown_names: false,
        ..TypeList::default()
    };
    assert_noop(&keep, json!({"type":"date"}));
    assert_idempotent(&TypeList::default(), json!({"type":"any"}));
}

#[test]
fn gemini_v1_type_list_removes_names_gemini_lacks_before_it_splits() {
    // Found by cargo fuzz (shape_idempotent): branches made of unknown
    // names were past the post-order walk, so only a second run fixed them.
    let r = one(
        &TypeList::default(),
        json!({"type":["todo","string","","integer","null"],"description":"d"}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"anyOf":[{"type":"string","description":"d","nullable":true},{"type":"integer","description":"d","nullable":true}]}"#
    );
    assert_eq!(
        r.records[0].rule.as_deref(),
        Some("gemini-type-invalid-value")
    );
    assert_eq!(
        r.records[0].reason,
        "the type list names types Gemini lacks: they were removed [note: (root): type [\"todo\"]]"
    );
    let r = one(&TypeList::default(), json!({"type":["todo","done"]}));
    assert_eq!(bytes(r.schema()), "{}");
    let r = one(&TypeList::default(), json!({"type":["",""]}));
    assert_eq!(
        r.records[0].reason,
        "the type list names types Gemini lacks: they were removed"
    );
    assert_idempotent(
        &TypeList::default(),
        json!({"type":["todo","doing","done"]}),
    );
    let keep = TypeList {
        drop_unknown_names: false,
        ..TypeList::default()
    };
    let r = one(&keep, json!({"type":["todo","done"]}));
    assert_eq!(
        bytes(r.schema()),
        r#"{"anyOf":[{"type":"todo"},{"type":"done"}]}"#
    );
}

// ------------------------------------------------------------ const, bounds

#[test]
fn gemini_v1_const_to_enum() {
    let r = one(
        &ConstToEnum::default(),
        json!({"anyOf":[{"type":"string","const":"fast","description":"f"},{"type":"integer","const":5}]}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"anyOf":[{"type":"string","enum":["fast"],"description":"f"},{"type":"integer"}]}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/anyOf/0", "const", Action::Rewritten),
            mark("/anyOf/1", "const", Action::Removed),
        ]
    );
    assert_eq!(note_of(&r).as_deref(), Some("/anyOf/1: const 5"));
    assert_noop(
        &ConstToEnum::default(),
        json!({"type":"string","enum":["a"]}),
    );
}

#[test]
fn gemini_v1_exclusive_bounds_become_inclusive_and_noted() {
    let r = one(
        &ExclusiveBounds::default(),
        json!({"type":"object","properties":{
            "q":{"type":"number","exclusiveMinimum":0},
            "r":{"type":"number","minimum":5,"exclusiveMinimum":1,"exclusiveMaximum":false}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"q":{"type":"number","minimum":0},"r":{"type":"number","minimum":5}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/q", "minimum", Action::Added),
            mark("/properties/q", "exclusiveMinimum", Action::Removed),
            mark("/properties/r", "exclusiveMinimum", Action::Removed),
            mark("/properties/r", "exclusiveMaximum", Action::Removed),
        ]
    );
    assert_eq!(note_of(&r).as_deref(), Some("q: exclusiveMinimum 0"));
    assert_noop(
        &ExclusiveBounds::default(),
        json!({"type":"number","minimum":0}),
    );
}

// ------------------------------------------------------------ combinators, strips

#[test]
fn gemini_v1_fold_combinators() {
    let r = one(
        &FoldCombinators::default(),
        json!({"type":"object","properties":{
            "o":{"oneOf":[{"type":"string"},{"type":"integer"}]},
            "a":{"allOf":[{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]},
                          {"properties":{"y":{"type":"string"}},"required":["y"]}]}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"o":{"anyOf":[{"type":"string"},{"type":"integer"}]},"a":{"type":"object","properties":{"x":{"type":"string"},"y":{"type":"string"}},"required":["x","y"]}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/o", "oneOf", Action::Rewritten),
            mark("/properties/a", "allOf", Action::Rewritten),
        ]
    );
    assert_noop(
        &FoldCombinators::default(),
        json!({"anyOf":[{"type":"string"}]}),
    );
}

#[test]
fn gemini_v1_strips_each_unknown_field_for_its_rule() {
    let r = one(
        &StripFields::property_names(),
        json!({"type":"object","propertyNames":{"pattern":"^a"},"patternProperties":{"^b":{}}}),
    );
    assert_eq!(bytes(r.schema()), r#"{"type":"object"}"#);
    assert!(r.marks().iter().all(|m| m.2 == Action::Removed));
    let r = one(
        &StripFields::property_names(),
        json!({"type":"object","propertyNames":{"pattern":"^a"}}),
    );
    assert_eq!(
        note_of(&r).as_deref(),
        Some(r#"(root): propertyNames {"pattern":"^a"}"#)
    );
    // The allow-list pass records each field a recording names under that
    // recording's rule, and an unrecorded one under none.
    let ran = crate::passes::test_support::run(
        &StripFields::non_proto(),
        OA,
        json!({"type":"object","additionalProperties":false,"$schema":"x","title":"T",
            "examples":[1],"default":{},"$defs":{},"definitions":{},"$id":"i"}),
    );
    assert_eq!(bytes(&ran.tool.input_schema), r#"{"type":"object"}"#);
    let rules: Vec<(&str, Option<&str>)> = ran
        .records
        .iter()
        .map(|d| (d.keyword.as_str(), d.rule.as_deref()))
        .collect();
    let t = Some("gemini-unknown-field-title-examples-default-defs");
    assert_eq!(
        rules,
        [
            (
                "additionalProperties",
                Some("gemini-unknown-field-additionalproperties")
            ),
            ("$schema", Some("gemini-unknown-field-schema-keyword")),
            ("title", t),
            ("examples", t),
            ("default", t),
            ("$defs", t),
            ("definitions", t),
            ("$id", None),
        ]
    );
    let r = one(
        &StripFields::non_proto(),
        json!({"additionalProperties":{}}),
    );
    assert_eq!(note_of(&r), None);
}

#[test]
fn gemini_v1_strip_non_proto_keeps_every_proto_field() {
    let all = json!({"type":"string","format":"date-time","description":"d","nullable":true,
        "enum":["a"],"maxItems":1,"minItems":0,"properties":{"p":{"type":"string"}},"required":["p"],
        "minProperties":1,"maxProperties":2,"minLength":1,"maxLength":2,"pattern":"a","example":"a",
        "anyOf":[{"type":"string"}],"propertyOrdering":["p"],"items":{"type":"string"},"minimum":0,"maximum":1});
    assert_eq!(all.as_object().unwrap().len(), proto_fields().len());
    assert_noop(&StripFields::non_proto(), all);
    let r = one(
        &StripFields::non_proto(),
        json!({"type":"array","items":{"type":"string","$id":"x"},"uniqueItems":true,"not":{"const":1}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"array","items":{"type":"string"}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("", "uniqueItems", Action::Removed),
            mark("", "not", Action::Removed),
            mark("/items", "$id", Action::Removed),
        ]
    );
    assert_eq!(note_of(&r).as_deref(), Some("(root): uniqueItems true"));
}

// ------------------------------------------------------------ anyOf only

#[test]
fn gemini_v1_any_of_siblings_move_into_every_branch() {
    let r = one(
        &AnyOfOnly::default(),
        json!({"type":"object","properties":{"e":{"description":"The edits","nullable":true,
            "properties":{"k":{"type":"string"}},"required":["k"],
            "anyOf":[{"type":"object","properties":{"j":{"type":"string"}},"required":["j"]},
                     {"type":"string","description":"A diff"}]}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"e":{"anyOf":[{"type":"object","properties":{"j":{"type":"string"},"k":{"type":"string"}},"required":["j","k"],"description":"The edits","nullable":true},{"type":"string","description":"A diff","nullable":true,"properties":{"k":{"type":"string"}},"required":["k"]}]}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/e", "description", Action::Rewritten),
            mark("/properties/e", "nullable", Action::Rewritten),
            mark("/properties/e", "properties", Action::Rewritten),
            mark("/properties/e", "required", Action::Rewritten),
        ]
    );
    assert_noop(
        &AnyOfOnly::default(),
        json!({"type":"object","properties":{"e":{"anyOf":[{"type":"string"}]}}}),
    );
}

#[test]
fn gemini_v1_any_of_siblings_past_the_growth_budget_are_removed_and_noted() {
    let long = "d".repeat(GROWTH_CAP / 2);
    let r = one(
        &AnyOfOnly::default(),
        json!({"type":"object","properties":{
            "a":{"description":"A","anyOf":[{"type":"string"},{"type":"number"}]},
            "b":{"description":long,"maxLength":3,"anyOf":[{"type":"string"},{"type":"number"}]}}}),
    );
    assert_eq!(r.step, Step::Continue);
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"a":{"anyOf":[{"type":"string","description":"A"},{"type":"number","description":"A"}]},"b":{"anyOf":[{"type":"string"},{"type":"number"}]}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/a", "description", Action::Rewritten),
            mark("/properties/b", "description", Action::Removed),
            mark("/properties/b", "maxLength", Action::Removed),
        ]
    );
    assert_eq!(
        note_of(&r).as_deref(),
        Some("b: every anyOf branch also needs description, maxLength")
    );
}

#[test]
fn gemini_v1_any_of_growth_budget_scales_with_the_tool() {
    assert_eq!(growth_budget(0), GROWTH_FLOOR);
    assert_eq!(growth_budget(2048), 2048 * GROWTH_FACTOR);
    assert_eq!(growth_budget(GROWTH_CAP), GROWTH_CAP);
    // The pass measures a tool only this far: any size from here gets the cap.
    assert_eq!(
        growth_budget(GROWTH_CAP.div_ceil(GROWTH_FACTOR)),
        GROWTH_CAP
    );
    assert!(growth_budget(GROWTH_CAP.div_ceil(GROWTH_FACTOR) - 1) < GROWTH_CAP);
    // Past the floor but within 64 times the tool's own size: copied.
    let long = "d".repeat(GROWTH_FLOOR);
    let r = one(
        &AnyOfOnly::default(),
        json!({"type":"object","properties":{
            "b":{"description":long,"anyOf":[{"type":"string"},{"type":"number"}]}}}),
    );
    assert_eq!(
        r.marks(),
        [mark("/properties/b", "description", Action::Rewritten)]
    );
}

#[test]
fn gemini_v1_any_of_on_a_small_deeply_nested_tool_stops_at_its_budget() {
    // 12 levels, each an `anyOf` beside `properties`: copying every level's
    // siblings into both branches doubles the schema per level.
    let mut schema = json!({"type":"string"});
    for _ in 0..12 {
        schema = json!({"description":"x","properties":{"p":schema},
            "anyOf":[{"type":"object"},{"type":"object"}]});
    }
    let schema = json!({"type":"object","properties":{"p":schema}});
    let own = bytes(&schema).len();
    assert_eq!(own, 1074);
    let r = one(&AnyOfOnly::default(), schema);
    let grown = bytes(r.schema()).len();
    // The budget is 64 × 1,074 bytes; the removals below show it was reached.
    assert!(
        grown > own && grown <= own + growth_budget(own),
        "{own} → {grown}"
    );
    assert!(
        r.marks().iter().any(|m| m.2 == Action::Removed),
        "past the floor the siblings are removed: {:?}",
        r.marks()
    );
}

// ------------------------------------------------------------ types

#[test]
fn gemini_v1_type_required_infers_or_narrows_to_scalars() {
    let r = one(
        &TypeRequired::default(),
        json!({"type":"object","properties":{
            "w":{"description":"Display width"},
            "o":{"properties":{"a":{"type":"string"}}},
            "e":{"enum":["a","b"]},
            "n":{"enum":[1,2]}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"w":{"anyOf":[{"type":"string","description":"Display width"},{"type":"number","description":"Display width"},{"type":"boolean","description":"Display width"}]},"o":{"type":"object","properties":{"a":{"type":"string"}}},"e":{"type":"string","enum":["a","b"]},"n":{"type":"integer","enum":[1,2]}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/w", "description", Action::Rewritten),
            mark("/properties/w", "anyOf", Action::Added),
            mark("/properties/o", "type", Action::Added),
            mark("/properties/e", "type", Action::Added),
            mark("/properties/n", "type", Action::Added),
        ]
    );
    assert_noop(
        &TypeRequired::default(),
        json!({"properties":{"a":{"type":"string"},"b":{"anyOf":[{"type":"string"}]}}}),
    );
}

// ------------------------------------------------------------ enum, format, items

#[test]
fn gemini_v1_enum_only_on_strings_with_string_members() {
    let r = one(
        &EnumStrings::default(),
        json!({"type":"object","properties":{
            "t":{"type":"integer","enum":["0","1"]},
            "d":{"type":"number","enum":[0,1]},
            "m":{"type":"array","items":{"type":"string"},"enum":["a"]},
            "s":{"type":"string","enum":["a",1,null]},
            "ok":{"type":"STRING","enum":["a"]}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"t":{"type":"integer"},"d":{"type":"number"},"m":{"type":"array","items":{"type":"string"}},"s":{"type":"string","enum":["a"]},"ok":{"type":"STRING","enum":["a"]}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/t", "enum", Action::Removed),
            mark("/properties/d", "enum", Action::Removed),
            mark("/properties/m", "enum", Action::Removed),
            mark("/properties/s", "enum", Action::Rewritten),
        ]
    );
    assert_eq!(note_of(&r).as_deref(), Some(r#"t: one of ["0","1"]"#));
}

#[test]
fn gemini_v1_string_format_keeps_enum_and_date_time_only() {
    let r = one(
        &StringFormat::default(),
        json!({"type":"object","properties":{
            "u":{"type":"string","format":"uri"},
            "t":{"type":"string","format":"date-time"},
            "e":{"type":"string","format":"enum","enum":["a"]},
            "n":{"type":"integer","format":"int64"}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"u":{"type":"string"},"t":{"type":"string","format":"date-time"},"e":{"type":"string","format":"enum","enum":["a"]},"n":{"type":"integer","format":"int64"}}}"#
    );
    assert_eq!(
        r.marks(),
        [mark("/properties/u", "format", Action::Removed)]
    );
    assert_eq!(note_of(&r).as_deref(), Some("u: format uri"));
}

#[test]
fn gemini_v1_array_items_fills_scalar_items() {
    let r = one(
        &ArrayItems::default(),
        json!({"type":"object","properties":{"x":{"type":"array","description":"ids"}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"x":{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"}]},"description":"ids"}}}"#
    );
    assert_eq!(r.marks(), [mark("/properties/x", "items", Action::Added)]);
    assert_noop(
        &ArrayItems::default(),
        json!({"type":"ARRAY","items":{"type":"STRING"}}),
    );
}

// ------------------------------------------------------------ empty objects

#[test]
fn gemini_v1_empty_objects_drop_free_form_parameters() {
    let r = one(
        &EmptyObjects::default(),
        json!({"type":"object","properties":{
            "q":{"type":"string"},
            "meta":{"type":"object"},
            "rows":{"type":"array","items":{"type":"object","properties":{}}},
            "u":{"anyOf":[{"type":"object"},{"type":"string"}]}},"required":["q","meta"]}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"q":{"type":"string"},"u":{"type":"string"}},"required":["q"]}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/u", "anyOf", Action::Rewritten),
            mark("", "required", Action::Rewritten),
            mark("/properties/meta", "properties", Action::Removed),
            mark("/properties/rows", "properties", Action::Removed),
        ]
    );
    assert_eq!(
        note_of(&r).as_deref(),
        Some("meta: omitted, though required (a free-form object Gemini cannot declare)")
    );
    let r = one(
        &EmptyObjects::default(),
        json!({"type":"object","properties":{"m":{"type":"object"}}}),
    );
    assert_eq!(r.schema(), &Value::Null);
    assert_noop(
        &EmptyObjects::default(),
        json!({"type":"object","properties":{"q":{"type":"string"}}}),
    );
}

/// A lone branch left that is no object (found by the conformance property:
/// the composition was lost and the node shipped as an untyped `{}`).
#[test]
fn gemini_v1_empty_objects_keep_a_lone_branch_that_is_no_object() {
    let r = one(
        &EmptyObjects::default(),
        json!({"type":"object","properties":{
            "a":{"type":"array","items":{"anyOf":[true,{"type":"object","properties":{}}]}},
            "s":{"anyOf":[{"type":"string"},{"type":"object"}]}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"a":{"type":"array","items":{"anyOf":[true]}},"s":{"type":"string"}}}"#
    );
    assert_eq!(
        r.marks(),
        [
            mark("/properties/a/items", "anyOf", Action::Rewritten),
            mark("/properties/s", "anyOf", Action::Rewritten),
        ]
    );
}

// ------------------------------------------------------------ whole lane

/// A schema that trips every `gemini-openapi` rule at once.
fn everything() -> Value {
    json!({"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
        "additionalProperties":false,
        "properties":{
            "file-path":{"type":"string","title":"Path","examples":["a"],"format":"uri"},
            "c":{"type":["string","null"]},
            "mode":{"anyOf":[{"type":"string","const":"fast"},{"type":"string","const":"slow"}],"description":"m"},
            "q":{"anyOf":[{"type":"number","exclusiveMinimum":0},{"type":"null"}]},
            "labels":{"type":"object","properties":{"env":{"type":"string"}},"propertyNames":{"pattern":"^a"}},
            "opts":"object",
            "w":{"description":"Display width"},
            "ids":{"type":"array"},
            "depth":{"type":"number","enum":[0,1]},
            "modes":{"type":"array","items":{"type":"string"},"enum":["a"]},
            "ref":{"$ref":"#/$defs/R"},
            "big":{"type":"array","items":{"type":"string"},"maxItems":1000}},
        "$defs":{"R":{"type":"string","default":"x"}},
        "required":["file-path"]})
}

#[test]
fn gemini_v1_openapi_output_is_accepted_on_every_recorded_date() {
    let tool = Tool::new("21st:magic", everything()).with_description("Does it.");
    let s = v1(OA, tool.clone());
    assert_eq!(s.outcome, Outcome::Shaped);
    for as_of in ["2024-09-26", "2025-09-06", DEFAULT_AS_OF] {
        assert_eq!(
            rejections(OA, &s.tool, as_of),
            Vec::<&str>::new(),
            "{as_of}"
        );
    }
    assert_eq!(
        s.tool.description.as_deref(),
        Some(
            "Does it.\n\nConstraints this schema does not enforce (still follow them): q: exclusiveMinimum 0; labels: propertyNames {\"pattern\":\"^a\"}; depth: one of [0,1]; modes: one of [\"a\"]; file_path: format uri; opts: omitted (a free-form object Gemini cannot declare); big: maxItems 1000."
        )
    );
    let pipeline = Profile::V1.with_config(PipelineConfig::default());
    assert!(invariants::check_all(&pipeline, OA, &tool, &s, true).is_empty());
}

#[test]
fn gemini_v1_strips_every_field_outside_the_proto_with_records_and_notes() {
    let tool = Tool::new(
        "u",
        json!({"type":"object","properties":{
            "tags":{"type":"array","items":{"type":"string"},"uniqueItems":true,"x-order":2},
            "n":{"type":"integer","multipleOf":5,"$comment":"c"}},
            "if":{"required":["n"]},"then":{"required":["tags"]}}),
    )
    .with_description("U.");
    let s = v1(OA, tool.clone());
    assert_eq!(s.outcome, Outcome::Shaped);
    assert_eq!(
        bytes(&s.tool.input_schema),
        r#"{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}},"n":{"type":"integer"}}}"#
    );
    let marks: Vec<_> = s
        .degradations
        .iter()
        .map(|d| (d.path.as_str(), d.keyword.as_str(), d.action))
        .collect();
    assert_eq!(
        marks,
        [
            ("", "if", Action::Removed),
            ("", "then", Action::Removed),
            ("/properties/tags", "uniqueItems", Action::Removed),
            ("/properties/tags", "x-order", Action::Removed),
            ("/properties/n", "multipleOf", Action::Removed),
            ("/properties/n", "$comment", Action::Removed),
            ("", "description", Action::Noted),
        ]
    );
    assert_eq!(
        s.tool.description.as_deref(),
        Some(
            "U.\n\nConstraints this schema does not enforce (still follow them): (root): if {\"required\":[\"n\"]}; (root): then {\"required\":[\"tags\"]}; tags: uniqueItems true; n: multipleOf 5."
        )
    );
    assert_eq!(rejections(OA, &s.tool, DEFAULT_AS_OF), Vec::<&str>::new());
    let pipeline = Profile::V1.with_config(PipelineConfig::default());
    assert!(invariants::check_all(&pipeline, OA, &tool, &s, true).is_empty());
}

#[test]
fn gemini_v1_jsonschema_keeps_full_json_schema() {
    let tool = Tool::new("f", everything());
    let s = v1(JS, tool.clone());
    let mut expected = everything();
    expected["properties"]["big"]
        .as_object_mut()
        .unwrap()
        .shift_remove("maxItems");
    assert_eq!(bytes(&s.tool.input_schema), bytes(&expected));
    assert!(rejections(JS, &s.tool, DEFAULT_AS_OF).is_empty());
}

#[test]
fn gemini_v1_constraint_note_is_one_note_per_tool() {
    let r = run_on_tool(
        &ConstraintNote::default(),
        OA,
        Tool::new("t", json!({})).with_description("D."),
    );
    assert!(r.records.is_empty());
    assert_eq!(r.tool.description.as_deref(), Some("D."));
    let s = v1(
        OA,
        Tool::new(
            "t",
            json!({"type":"object","properties":{"u":{"type":"string","format":"uri"},"v":{"type":"string","format":"uri"}}}),
        ),
    );
    let noted: Vec<_> = s
        .degradations
        .iter()
        .filter(|d| d.action == Action::Noted)
        .collect();
    assert_eq!(noted.len(), 1);
    assert_eq!(
        s.tool.description.as_deref(),
        Some(
            "Constraints this schema does not enforce (still follow them): u: format uri; v: format uri."
        )
    );
}

#[test]
fn gemini_v1_inline_refs_leaves_refs_in_stripped_keywords_alone() {
    let schema = json!({"type":"object","properties":{"a":{"type":"string"}},"not":{"$ref":"#"}});
    assert_noop(&InlineRefs::default(), schema.clone());
    let s = v1(OA, Tool::new("t", schema));
    assert_eq!(s.outcome, Outcome::Shaped);
    assert_eq!(
        bytes(&s.tool.input_schema),
        r#"{"type":"object","properties":{"a":{"type":"string"}}}"#
    );
}

#[test]
fn gemini_v1_is_idempotent_when_inlining_leaves_required_dangling() {
    let tool = Tool::new(
        "t",
        json!({"type":"object","properties":{"r":{"$ref":"#/$defs/R"}},"required":["r"],
            "$defs":{"R":{"type":"object","properties":{"a":{"type":"string"}},"required":["a","gone"]}}}),
    );
    let s = v1(OA, tool.clone());
    assert_eq!(
        bytes(&s.tool.input_schema),
        r#"{"type":"object","properties":{"r":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}},"required":["r"]}"#
    );
    let pipeline = Profile::V1.with_config(PipelineConfig::default());
    assert!(invariants::check_all(&pipeline, OA, &tool, &s, true).is_empty());
}

#[test]
fn gemini_v1_is_idempotent_when_the_prune_leaves_a_nullable_union() {
    let tool = Tool::new(
        "t",
        json!({"type":"object","properties":{"e":{"oneOf":[
            {"type":"string","maxLength":9},{"type":"null"},{"type":"object","additionalProperties":false}]}}}),
    );
    let s = v1(OA, tool.clone());
    assert_eq!(
        bytes(&s.tool.input_schema),
        r#"{"type":"object","properties":{"e":{"type":"string","maxLength":9,"nullable":true}}}"#
    );
    let pipeline = Profile::V1.with_config(PipelineConfig::default());
    assert!(invariants::check_all(&pipeline, OA, &tool, &s, true).is_empty());
}

/// `overlay` builds what copying the target and inserting the node's own
/// keywords (but `$ref`) builds, `properties` and `required` in both
/// merged: the node's values win at the target's place, its other keywords
/// follow in its order, a target's own `$ref` stays (the inliner follows it
/// next).
#[test]
fn overlay_matches_copying_the_target_then_inserting_the_node() {
    fn copied(target: &Map<String, Value>, own: &Map<String, Value>) -> Map<String, Value> {
        let mut out = target.clone();
        for (k, v) in own {
            match (k.as_str(), out.get_mut(k), v) {
                ("$ref", ..) => {}
                ("properties", Some(Value::Object(theirs)), Value::Object(mine)) => {
                    for (n, s) in mine {
                        theirs.insert(n.clone(), s.clone());
                    }
                }
                ("required", Some(Value::Array(theirs)), Value::Array(mine)) => {
                    for r in mine {
                        if !theirs.contains(r) {
                            theirs.push(r.clone());
                        }
                    }
                }
                _ => {
                    out.insert(k.clone(), v.clone());
                }
            }
        }
        out
    }
    let cases = [
        // Disjoint keywords (the whole target copied).
        (
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            json!({"$ref": "#/$defs/x", "description": "d"}),
        ),
        // The node overrides a target keyword (not copied).
        (
            json!({"title": "t", "type": "object", "properties": {"a": {}}, "required": ["a"]}),
            json!({"description": "d", "$ref": "#", "properties": {}, "type": "OBJECT"}),
        ),
        // The target's own `$ref` stays; the node's goes.
        (
            json!({"$ref": "#/$defs/y", "description": "target"}),
            json!({"$ref": "#/$defs/x", "description": "own", "nullable": true}),
        ),
        // Both declare properties and required: they merge.
        (
            json!({"type": "object", "properties": {"a": {}, "b": {"type": "string"}}, "required": ["a"]}),
            json!({"$ref": "#", "properties": {"c": {}, "a": {"type": "integer"}}, "required": ["c", "a"]}),
        ),
        // A node of only `$ref`.
        (json!({"enum": ["a"]}), json!({"$ref": "#/$defs/x"})),
    ];
    for (target, own) in cases {
        let (Value::Object(target), Value::Object(own)) = (target, own) else {
            unreachable!()
        };
        let want = copied(&target, &own);
        let got = overlay(&target, own);
        assert_eq!(
            serde_json::to_string(&got).unwrap(),
            serde_json::to_string(&want).unwrap()
        );
    }
}

/// `merge_into`: keys the branch lacks are added in the extra's order,
/// `properties` merge by name and `required` lists unite (when asked),
/// any other clash keeps the branch's value.
#[test]
fn merge_into_adds_missing_keys_and_unites_maps() {
    let branch =
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]});
    let extra = json!({"description": "d", "properties": {"a": {}, "b": {"enum": ["x"]}}, "required": ["b", "a"], "type": "string"});
    let (Value::Object(branch), Value::Object(extra)) = (branch, extra) else {
        unreachable!()
    };
    let mut merged = branch.clone();
    merge_into(&mut merged, extra.clone(), true);
    assert_eq!(
        serde_json::to_string(&merged).unwrap(),
        r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"enum":["x"]}},"required":["a","b"],"description":"d"}"#
    );
    let mut kept = branch;
    merge_into(&mut kept, extra, false);
    assert_eq!(
        serde_json::to_string(&kept).unwrap(),
        r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"description":"d"}"#
    );
}

/// The prechecks (`may_act`) skip only passes that would change and
/// record nothing: over every tool of the own corpus, at each point of the
/// `gemini-openapi` list, each pass leaves the same tool, records and step
/// with its precheck as without it. The prechecks skip some passes there.
#[test]
fn prechecks_skip_only_passes_that_would_do_nothing() {
    use crate::passes::prechecks::{OFF, SKIPPED};
    let config = PipelineConfig::default();
    let passes = Profile::V1.passes(OA);
    SKIPPED.set(0);
    for tool in crate::catalog::own_corpus_tools() {
        let mut work = tool.clone();
        for pass in &passes {
            let mut without = work.clone();
            let mut cx_without = Cx::new(OA, &config, &tool.name);
            cx_without.enter(pass.as_ref());
            OFF.set(true);
            let off = pass.apply(&mut without, &mut cx_without);
            OFF.set(false);
            let mut cx = Cx::new(OA, &config, &tool.name);
            cx.enter(pass.as_ref());
            let on = pass.apply(&mut work, &mut cx);
            let at = format!("{} at {}", tool.name, pass.name());
            assert_eq!(format!("{on:?}"), format!("{off:?}"), "{at}");
            assert_eq!(
                bytes(&work.input_schema),
                bytes(&without.input_schema),
                "{at}"
            );
            assert_eq!(work.description, without.description, "{at}");
            assert_eq!(
                format!("{:?}", cx.degradations),
                format!("{:?}", cx_without.degradations),
                "{at}"
            );
            if !matches!(on, Ok(Step::Continue)) {
                break;
            }
        }
    }
    assert!(SKIPPED.get() >= 2000, "{} passes skipped", SKIPPED.get());
}
