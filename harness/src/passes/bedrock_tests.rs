//! Tests of the v1 `bedrock-converse` passes.

use serde_json::{Value, json};

use super::*;
use crate::lane::Lane;
use crate::passes::lists::v1;
use crate::passes::test_support::{Ran, bytes, run, run_on_tool};

const LANE: Lane = Lane::BedrockConverse;

fn mark(path: &str, keyword: &str, action: Action) -> (String, String, Action) {
    (path.to_owned(), keyword.to_owned(), action)
}

/// Run `pass` twice: the second run records nothing and changes nothing.
fn twice(pass: &dyn Pass, schema: Value) -> Ran {
    let first = run(pass, LANE, schema);
    let again = run_on_tool(pass, LANE, first.tool.clone());
    assert!(
        again.records.is_empty(),
        "not idempotent: {:?}",
        again.marks()
    );
    assert_eq!(again.tool, first.tool);
    first
}

fn shape(tool: &Tool) -> crate::pipeline::Shaped {
    let cfg = crate::pipeline::PipelineConfig::default();
    crate::pipeline::run_passes(&v1(LANE), LANE, &cfg, tool)
}

#[test]
fn bedrock_converse_v1_parses_a_serialized_schema_back() {
    // recording bedrock-converse-json-not-document-3377
    let r = twice(
        &JsonDocument::default(),
        json!(
            "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},\"required\":[\"city\"]}"
        ),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}"#
    );
    assert_eq!(r.marks(), [mark("", "", Action::Rewritten)]);
}

#[test]
fn bedrock_converse_v1_replaces_other_non_object_documents_by_an_empty_object() {
    for v in [
        json!([1]),
        json!(3),
        json!(true),
        json!("not json"),
        json!("[1]"),
    ] {
        let r = twice(&JsonDocument::default(), v.clone());
        assert_eq!(bytes(r.schema()), "{}", "{v}");
        assert_eq!(r.marks(), [mark("", "", Action::Rewritten)], "{v}");
    }
    let ok = json!({"type":"object","properties":{}});
    let r = run(&JsonDocument::default(), LANE, ok.clone());
    assert_eq!(r.schema(), &ok);
    assert!(r.records.is_empty());
}

#[test]
fn bedrock_converse_v1_json_document_mutant_loses_the_serialized_schema() {
    let m = JsonDocument {
        parse_strings: false,
    };
    let r = run(&m, LANE, json!("{\"type\":\"object\"}"));
    assert_eq!(bytes(r.schema()), "{}");
}

#[test]
fn bedrock_converse_v1_replaces_null_and_array_properties_by_an_empty_map() {
    // recording bedrock-converse-properties-null-1720
    let r = twice(
        &PropertiesObject,
        json!({"type":"object","properties":null,"x":1}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{},"x":1}"#
    );
    assert_eq!(r.marks(), [mark("", "properties", Action::Rewritten)]);
    let nested = twice(
        &PropertiesObject,
        json!({"type":"object","properties":{"o":{"type":"object","properties":[]}}}),
    );
    assert_eq!(
        bytes(nested.schema()),
        r#"{"type":"object","properties":{"o":{"type":"object","properties":{}}}}"#
    );
    assert_eq!(
        nested.marks(),
        [mark("/properties/o", "properties", Action::Rewritten)]
    );
}

#[test]
fn bedrock_converse_v1_types_a_typeless_root_as_an_object() {
    // recordings bedrock-converse-root-type-object-272 and -5064
    let r = twice(
        &RootTypeObject::default(),
        json!({"properties":{"city":{"type":"string"}},"required":["city"]}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"properties":{"city":{"type":"string"}},"required":["city"],"type":"object"}"#
    );
    assert_eq!(r.marks(), [mark("", "type", Action::Added)]);
    let empty = twice(&RootTypeObject::default(), json!({}));
    assert_eq!(
        bytes(empty.schema()),
        r#"{"type":"object","properties":{}}"#
    );
    assert_eq!(
        empty.marks(),
        [
            mark("", "type", Action::Added),
            mark("", "properties", Action::Added)
        ]
    );
}

#[test]
fn bedrock_converse_v1_narrows_a_root_type_list_holding_object() {
    let r = twice(
        &RootTypeObject::default(),
        json!({"type":["object","null"],"properties":{}}),
    );
    assert_eq!(bytes(r.schema()), r#"{"type":"object","properties":{}}"#);
    assert_eq!(r.marks(), [mark("", "type", Action::Rewritten)]);
}

#[test]
fn bedrock_converse_v1_fails_closed_on_a_scalar_root_type() {
    for v in [
        json!({"type":"string","enum":["a"]}),
        json!({"type":["string","null"]}),
    ] {
        let r = run(&RootTypeObject::default(), LANE, v.clone());
        assert!(
            matches!(&r.step, Step::FailClosed(m) if m.contains("has no object form on Converse")),
            "{v}: {:?}",
            r.step
        );
    }
    let ok = json!({"type":"object"});
    let r = run(&RootTypeObject::default(), LANE, ok.clone());
    assert_eq!((r.schema(), r.records.len()), (&ok, 0));
}

#[test]
fn bedrock_converse_v1_moves_root_defs_to_definitions_with_their_refs() {
    // recording bedrock-converse-extraneous-defs-126
    let r = twice(
        &RootDefs::default(),
        json!({"$defs":{"H":{"type":"object","properties":{"next":{"$ref":"#/$defs/H"}}}},
               "type":"object","properties":{"request":{"$ref":"#/$defs/H"},"other":{"$ref":"#/x"}},
               "definitions":{"K":{}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r##"{"type":"object","properties":{"request":{"$ref":"#/definitions/H"},"other":{"$ref":"#/x"}},"definitions":{"K":{},"H":{"type":"object","properties":{"next":{"$ref":"#/definitions/H"}}}}}"##
    );
    assert_eq!(
        r.marks(),
        [
            mark("", "$defs", Action::Rewritten),
            mark("/properties/request", "$ref", Action::Rewritten),
            mark("/definitions/H/properties/next", "$ref", Action::Rewritten),
        ]
    );
}

#[test]
fn bedrock_converse_v1_fails_closed_when_defs_and_definitions_clash() {
    let r = run(
        &RootDefs::default(),
        LANE,
        json!({"$defs":{"A":{}},"definitions":{"A":{"type":"string"}}}),
    );
    assert!(
        matches!(&r.step, Step::FailClosed(m) if m.contains("\"A\"")),
        "{:?}",
        r.step
    );
    let r = run(&RootDefs::default(), LANE, json!({"$defs":[1]}));
    assert!(matches!(r.step, Step::FailClosed(_)));
}

#[test]
fn bedrock_converse_v1_pipeline_fixes_every_recorded_construct_and_the_name() {
    let shaped = shape(&Tool::new(
        "fs.read file",
        json!({"$defs":{"P":{"type":"string"}},"properties":{"p":{"$ref":"#/$defs/P"},"o":{"type":"object","properties":null}}}),
    ));
    assert_eq!(shaped.tool.name, "fs_read_file");
    assert_eq!(
        bytes(&shaped.tool.input_schema),
        r##"{"properties":{"p":{"$ref":"#/definitions/P"},"o":{"type":"object","properties":{}}},"type":"object","definitions":{"P":{"type":"string"}}}"##
    );
    let valid = Tool::new(
        "ok",
        json!({"type":"object","properties":{"a":{"type":"string"}}}),
    );
    let same = shape(&valid);
    assert_eq!(same.tool, valid);
    assert!(same.degradations.is_empty());
}

#[test]
fn bedrock_converse_v1_leaves_an_empty_description_out() {
    // recording bedrock-converse-tool-description-empty-10260
    let schema = json!({"type":"object","properties":{"ticker":{"type":"string"}}});
    let empty = Tool::new("get_earnings_history", schema.clone()).with_description("");
    let r = run_on_tool(&OmitEmptyDescription, LANE, empty);
    assert_eq!(r.tool.description, None);
    assert_eq!(r.tool.input_schema, schema);
    assert_eq!(r.marks(), [mark("", "tool-description", Action::Removed)]);
    assert_eq!(
        r.records[0].reason,
        "empty tool description left out: Converse takes a description of at least 1 character or none"
    );
    let again = run_on_tool(&OmitEmptyDescription, LANE, r.tool.clone());
    assert!(again.records.is_empty());
    assert_eq!(again.tool, r.tool);
}

#[test]
fn bedrock_converse_v1_keeps_a_blank_or_written_description() {
    for d in [" ", "Read a file"] {
        let t = Tool::new("t", json!({"type":"object"})).with_description(d);
        let r = run_on_tool(&OmitEmptyDescription, LANE, t.clone());
        assert_eq!(r.tool, t, "{d:?}");
        assert!(r.records.is_empty(), "{d:?}");
    }
}

#[test]
fn bedrock_converse_v1_passes_declare_their_mutation_points() {
    let count: usize = v1(LANE).iter().map(|p| p.mutants().len()).sum();
    assert_eq!(count, 4);
    let m = RootDefs { follow_refs: false };
    let r = run(
        &m,
        LANE,
        json!({"$defs":{"A":{}},"properties":{"a":{"$ref":"#/$defs/A"}}}),
    );
    assert_eq!(r.schema()["properties"]["a"]["$ref"], json!("#/$defs/A"));
    let m = RootTypeObject {
        add_properties: false,
        narrow_type_lists: true,
    };
    assert_eq!(
        bytes(run(&m, LANE, json!({})).schema()),
        r#"{"type":"object"}"#
    );
    let m = RootTypeObject {
        add_properties: true,
        narrow_type_lists: false,
    };
    assert!(matches!(
        run(&m, LANE, json!({"type":["object","null"]})).step,
        Step::FailClosed(_)
    ));
}
