use super::*;
use crate::lane::Lane;
use crate::passes::test_support::{Ran, bytes, marks, run};

fn typed(v: Value) -> Ran {
    run(&TypeUntypedSubschemas::default(), Lane::Moonshot, v)
}

#[test]
fn moonshot_v1_types_an_enum_without_type_by_its_values() {
    // luxus/pi-hindsight#550: `properties.tagGroups.items.properties.match`;
    // its fix, `type: string`, was accepted by K2.7, k3 and k3-256k.
    let r = typed(
        json!({"type":"object","properties":{"tagGroups":{"type":"array","items":{"type":"object","properties":{"match":{"enum":["any","all"],"description":"How tags match"}}}}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"tagGroups":{"type":"array","items":{"type":"object","properties":{"match":{"type":"string","enum":["any","all"],"description":"How tags match"}}}}}}"#
    );
    assert_eq!(
        r.marks(),
        marks(&[(
            "/properties/tagGroups/items/properties/match",
            "type",
            Action::Added
        )])
    );
    assert_eq!(r.records[0].rule.as_deref(), Some("moonshot-type-required"));
    assert_eq!(r.step, Step::Continue);
}

#[test]
fn moonshot_v1_types_mixed_enums_and_consts_exactly() {
    let r = typed(
        json!({"type":"object","properties":{"a":{"enum":["x",null]},"b":{"enum":[1,2.5]},"c":{"const":null},"d":{"enum":[1,2]}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"a":{"type":["string","null"],"enum":["x",null]},"b":{"type":"number","enum":[1,2.5]},"c":{"type":"null","const":null},"d":{"type":"integer","enum":[1,2]}}}"#
    );
}

#[test]
fn moonshot_v1_types_a_node_by_its_one_keyword_family_and_records_the_narrowing() {
    let r = typed(
        json!({"type":"object","properties":{"o":{"properties":{"k":{"type":"string"}},"required":["k"]},"s":{"format":"date-time"}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"o":{"type":"object","properties":{"k":{"type":"string"}},"required":["k"]},"s":{"type":"string","format":"date-time"}}}"#
    );
    assert_eq!(
        r.records
            .iter()
            .map(|d| d.reason.as_ref())
            .collect::<Vec<&str>>(),
        [
            "untyped: typed object by its keywords (narrows: values of other types it accepted vacuously no longer match it)",
            "untyped: typed string by its keywords (narrows: values of other types it accepted vacuously no longer match it)",
        ]
    );
}

#[test]
fn moonshot_v1_gives_a_description_only_node_an_any_of_of_every_type() {
    // MoonshotAI/kimi-cli#1595: `properties.truncateMode`, a description only.
    let r = typed(
        json!({"type":"object","properties":{"truncateMode":{"description":"How to truncate","title":"Mode"}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"truncateMode":{"description":"How to truncate","title":"Mode","anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"},{"type":"object"},{"type":"array"},{"type":"null"}]}}}"#
    );
    assert_eq!(
        r.marks(),
        marks(&[("/properties/truncateMode", "anyOf", Action::Added)])
    );
}

#[test]
fn moonshot_v1_moves_each_keyword_into_the_members_it_constrains() {
    // Keywords of two families, a default, an assertion of no family.
    let r = typed(
        json!({"type":"object","properties":{"p":{"$id":"p","minLength":1,"minimum":0,"default":3,"not":{"const":7},"description":"d"}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r#"{"type":"object","properties":{"p":{"$id":"p","description":"d","anyOf":[{"type":"string","minLength":1,"not":{"const":7}},{"type":"number","minimum":0,"default":3,"not":{"const":7}},{"type":"boolean","not":{"const":7}},{"type":"object","not":{"const":7}},{"type":"array","not":{"const":7}},{"type":"null","not":{"const":7}}]}}}"#
    );
    assert_eq!(
        r.marks(),
        marks(&[
            ("/properties/p", "minLength", Action::Rewritten),
            ("/properties/p", "minimum", Action::Rewritten),
            ("/properties/p", "default", Action::Rewritten),
            ("/properties/p", "not", Action::Rewritten),
            ("/properties/p", "anyOf", Action::Added),
        ])
    );
}

#[test]
fn moonshot_v1_types_defs_items_additional_properties_and_any_of_members() {
    let r = typed(
        json!({"type":"object","properties":{"l":{"type":"array","items":{"enum":["a"]}},"m":{"type":"object","additionalProperties":{"const":1}},"u":{"anyOf":[{"const":true},{"type":"null"}]},"r":{"$ref":"#/$defs/D"}},"$defs":{"D":{"pattern":"^x"}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r##"{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","enum":["a"]}},"m":{"type":"object","additionalProperties":{"type":"integer","const":1}},"u":{"anyOf":[{"type":"boolean","const":true},{"type":"null"}]},"r":{"$ref":"#/$defs/D"}},"$defs":{"D":{"type":"string","pattern":"^x"}}}"##
    );
    assert_eq!(
        r.marks(),
        marks(&[
            ("/properties/l/items", "type", Action::Added),
            ("/properties/m/additionalProperties", "type", Action::Added),
            ("/properties/u/anyOf/0", "type", Action::Added),
            ("/$defs/D", "type", Action::Added),
        ])
    );
}

#[test]
fn moonshot_v1_leaves_the_root_empty_schemas_and_what_moonshot_reads_otherwise_alone() {
    // The root (its own rule and pass), `{}`, nodes that must not or need
    // not carry a type, and everything at or under allOf, oneOf, not and
    // tuple items, whose reading Moonshot's reports do not record.
    let input = json!({"properties":{"e":{},"r":{"$ref":"#/$defs/D","description":"r"},"a":{"allOf":[{"enum":["x"]}]},"o":{"oneOf":[{"enum":["x"]},{"pattern":"^y"}]},"n":{"type":"string","not":{"enum":["z"]}},"t":{"type":"array","items":[{"enum":[1]}]},"p":{"type":"object","patternProperties":{"^x":{"enum":["x"]}}}},"$defs":{"D":{"type":"string"}}});
    let r = typed(input.clone());
    assert_eq!(r.schema(), &input);
    assert!(r.records.is_empty());
}

#[test]
fn moonshot_v1_mutants_leave_nodes_the_rule_still_rejects_or_type_them_otherwise() {
    let input =
        json!({"type":"object","properties":{"o":{"properties":{}},"d":{"description":"x"}}});
    let no_family = run(
        &TypeUntypedSubschemas {
            infer_from_keywords: false,
            ..TypeUntypedSubschemas::default()
        },
        Lane::Moonshot,
        input.clone(),
    );
    assert_eq!(
        bytes(no_family.schema()),
        r#"{"type":"object","properties":{"o":{"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"},{"type":"object","properties":{}},{"type":"array"},{"type":"null"}]},"d":{"description":"x","anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"},{"type":"object"},{"type":"array"},{"type":"null"}]}}}"#
    );
    let untyped = run(
        &TypeUntypedSubschemas {
            type_any_value: false,
            ..TypeUntypedSubschemas::default()
        },
        Lane::Moonshot,
        input,
    );
    assert_eq!(
        bytes(untyped.schema()),
        r#"{"type":"object","properties":{"o":{"type":"object","properties":{}},"d":{"description":"x"}}}"#
    );
}

#[test]
fn moonshot_v1_keeps_a_keyword_a_local_ref_points_into_beside_the_any_of() {
    // JSON-Schema-Test-Suite refOfUnknownKeyword: moving the keyword into
    // the members would leave the reference dangling.
    let r = typed(
        json!({"type":"object","properties":{"foo":{"unknown-keyword":{"type":"integer"},"x-note":1},"bar":{"$ref":"#/properties/foo/unknown-keyword"}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r##"{"type":"object","properties":{"foo":{"unknown-keyword":{"type":"integer"},"anyOf":[{"type":"string","x-note":1},{"type":"number","x-note":1},{"type":"boolean","x-note":1},{"type":"object","x-note":1},{"type":"array","x-note":1},{"type":"null","x-note":1}]},"bar":{"$ref":"#/properties/foo/unknown-keyword"}}}"##
    );
    assert_eq!(
        r.marks(),
        marks(&[
            ("/properties/foo", "x-note", Action::Rewritten),
            ("/properties/foo", "anyOf", Action::Added),
        ])
    );
}

#[test]
fn moonshot_v1_finds_a_ref_into_a_keyword_under_an_unknown_keyword_too() {
    // JSONSchemaStore meltano: `$defs/plugins` groups definitions under
    // keywords of its own, and one refers to another there.
    let r = typed(
        json!({"type":"object","properties":{"p":{"$ref":"#/$defs/plugins/special"}},"$defs":{"plugins":{"generic":{"type":"object"},"special":{"allOf":[{"$ref":"#/$defs/plugins/generic"}]}}}}),
    );
    assert_eq!(
        bytes(r.schema()),
        r##"{"type":"object","properties":{"p":{"$ref":"#/$defs/plugins/special"}},"$defs":{"plugins":{"generic":{"type":"object"},"special":{"allOf":[{"$ref":"#/$defs/plugins/generic"}]},"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"},{"type":"object"},{"type":"array"},{"type":"null"}]}}}"##
    );
}
