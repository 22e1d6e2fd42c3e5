//! Tests of the semantic check: classes, narrowing kinds, losses, instances.

use serde_json::{Value, json};

use super::*;
use crate::lane::Lane;
use crate::tool::Tool;

/// The record of a root property key `from` renamed to `to` on `lane`.
fn rename_record(lane: Lane, from: &str, to: &str) -> crate::degradation::Degradation {
    crate::degradation::Degradation {
        tool: "t".into(),
        lane,
        path: format!("/properties/{from}"),
        keyword: "properties".into(),
        action: crate::degradation::Action::Rewritten,
        reason: "".into(),
        rule: None,
        pass: "sanitize-property-keys".into(),
        renamed_to: Some(to.into()),
    }
}

fn judge(lane: Lane, original: Value, shaped: Value) -> Semantics {
    let o = Tool::new("t", original);
    Original::of(&o, &[]).judge_with_losses(lane, &Tool::new("t", shaped), &[])
}

#[test]
fn identical_schemas_are_preserved() {
    let s = json!({"type": "object", "properties": {"q": {"type": "string", "maxLength": 3}}});
    let got = judge(Lane::OpenaiChat, s.clone(), s);
    assert_eq!(got.class, SemanticClass::Preserved);
    assert!(got.instances > 10, "{got:?}");
    assert_eq!(got.disagreements, Vec::<usize>::new());
}

/// Issue 14's optional enum: strict mode made it required and nullable but
/// left `null` out of the enum, so the model cannot leave it empty.
#[test]
fn a_nullable_enum_without_null_is_narrowed_and_with_null_is_preserved() {
    let original = json!({
        "type": "object",
        "properties": {"kind": {"type": "string", "enum": ["ASN", "POPULATION"]}}
    });
    let broken = json!({
        "type": "object",
        "properties": {"kind": {"type": ["string", "null"], "enum": ["ASN", "POPULATION"]}},
        "required": ["kind"],
        "additionalProperties": false
    });
    let got = judge(Lane::OpenaiStrict, original.clone(), broken);
    assert_eq!(got.class, SemanticClass::Narrowed);
    assert_eq!(got.narrowed, Some(json!({})));
    let fixed = json!({
        "type": "object",
        "properties": {"kind": {"type": ["string", "null"], "enum": ["ASN", "POPULATION", null]}},
        "required": ["kind"],
        "additionalProperties": false
    });
    assert_eq!(
        judge(Lane::OpenaiStrict, original, fixed).class,
        SemanticClass::Preserved
    );
}

/// A `null` in the enum of a string does not make the property accept
/// null (the type refuses it): strict mode's nullable, required spelling
/// of that optional property is preserved, not widened (JSONSchemaBench
/// Github_easy o1316's `Role`).
#[test]
fn a_null_enum_member_beside_a_string_type_does_not_admit_null() {
    let original = json!({
        "type": "object",
        "properties": {"role": {"type": "string", "enum": [null, "QE", "Operations"]}}
    });
    let strict = json!({
        "type": "object",
        "properties": {"role": {"type": ["string", "null"], "enum": [null, "QE", "Operations"]}},
        "required": ["role"],
        "additionalProperties": false
    });
    let got = judge(Lane::OpenaiStrict, original, strict);
    assert_eq!(got.class, SemanticClass::Preserved, "{got:?}");
    assert_eq!(got.widened, None);
}

/// A nullable type beside an enum without null refuses null too:
/// strict mode's `null` for that optional property means "left out",
/// which the original allows (JSONSchemaBench Github_easy o32514).
#[test]
fn a_nullable_type_beside_an_enum_without_null_does_not_admit_null() {
    let original = json!({
        "type": "object",
        "properties": {"mode": {"type": ["string", "null"], "enum": ["0", "1"]}}
    });
    let strict = json!({
        "type": "object",
        "properties": {"mode": {"type": ["string", "null"], "enum": ["0", "1", null]}},
        "required": ["mode"],
        "additionalProperties": false
    });
    let got = judge(Lane::OpenaiStrict, original, strict);
    assert_eq!(got.class, SemanticClass::Preserved, "{got:?}");
}

/// On gemini-openapi a property named `nullable` is a property, not the
/// OpenAPI flag, and the author's own `nullable: true`, shipped as it is,
/// means "or null" on both sides (fixtures keyword_named_properties_optional
/// and nullable_keyword_required).
#[test]
fn openapi_nullable_reads_keywords_only_and_the_authors_flag_on_both_sides() {
    let named = json!({
        "type": "object",
        "properties": {"q": {"type": "string"}, "nullable": {"type": "boolean"}},
        "required": ["q"]
    });
    let got = judge(Lane::GeminiOpenapi, named.clone(), named);
    assert_eq!(got.class, SemanticClass::Preserved, "{got:?}");
    let authored = json!({
        "type": "object",
        "properties": {"a": {"type": "string", "nullable": true}},
        "required": ["a"]
    });
    let got = judge(Lane::GeminiOpenapi, authored.clone(), authored.clone());
    assert_eq!(got.class, SemanticClass::Preserved, "{got:?}");
    // Elsewhere draft 2020-12 ignores the flag on both sides.
    assert_eq!(
        judge(Lane::OpenaiChat, authored.clone(), authored).class,
        SemanticClass::Preserved
    );
}

/// A Gemini declaration shipped without parameters takes no arguments:
/// it is judged as an object that accepts `{}` only (not unjudged).
#[test]
fn no_parameters_on_gemini_openapi_accept_only_the_empty_object() {
    let none = json!({"type": "object", "properties": {}});
    let got = judge(Lane::GeminiOpenapi, none, Value::Null);
    assert_eq!(got.class, SemanticClass::Preserved, "{got:?}");
    let free_form = json!({"type": "object", "properties": {"meta": {"type": "object"}}});
    let got = judge(Lane::GeminiOpenapi, free_form, Value::Null);
    assert_eq!(got.class, SemanticClass::Narrowed, "{got:?}");
}

/// `additionalProperties: false` written into an `if` changes the
/// condition: `then` no longer applies to inputs with other properties.
#[test]
fn closing_an_if_subschema_widens() {
    let original = json!({
        "type": "object",
        "properties": {"a": {"enum": [1, 2]}, "b": {"type": "string"}, "c": {"type": "boolean"}},
        "required": ["a"],
        "if": {"properties": {"a": {"const": 1}}},
        "then": {"required": ["b"]}
    });
    let mut closed = original.clone();
    closed["if"]["additionalProperties"] = json!(false);
    let got = judge(Lane::OpenaiChat, original.clone(), closed);
    assert_eq!(got.class, SemanticClass::Widened);
    let w = got.widened.expect("a witness");
    assert_eq!(w["a"], json!(1));
    assert!(w.get("b").is_none(), "{w}");
    assert!(got.silent);
    assert_eq!(
        judge(Lane::OpenaiChat, original.clone(), original).class,
        SemanticClass::Preserved
    );
}

#[test]
fn a_stripped_bound_is_silent_unless_a_description_tells_the_model() {
    let original =
        json!({"type": "object", "properties": {"q": {"type": "string", "maxLength": 5}}});
    let stripped = json!({"type": "object", "properties": {"q": {"type": "string"}}});
    let got = judge(Lane::OpenaiChat, original.clone(), stripped.clone());
    assert_eq!(got.class, SemanticClass::Widened);
    assert!(got.silent);
    let told = Original::of(&Tool::new("t", original), &[]).judge(
        Lane::OpenaiChat,
        &Tool::new("t", stripped).with_description("q: maxLength 5."),
        &[],
    );
    assert_eq!(told.class, SemanticClass::Widened);
    assert!(!told.silent);
}

#[test]
fn openapi_nullable_means_or_null_on_gemini_openapi_only() {
    let original = json!({"type": "object", "properties": {"n": {"type": ["integer", "null"]}}, "required": ["n"]});
    let shaped = json!({"type": "object", "properties": {"n": {"type": "integer", "nullable": true}}, "required": ["n"]});
    assert_eq!(
        judge(Lane::GeminiOpenapi, original.clone(), shaped.clone()).class,
        SemanticClass::Preserved
    );
    let plain = judge(Lane::OpenaiChat, original, shaped);
    assert_eq!(plain.class, SemanticClass::Narrowed);
    assert_eq!(plain.narrowed, Some(json!({"n": null})));
}

#[test]
fn a_narrowing_seen_only_on_undeclared_properties_is_not_counted() {
    let original =
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]});
    let mut closed = original.clone();
    closed["additionalProperties"] = json!(false);
    let got = judge(Lane::OpenaiStrict, original.clone(), closed.clone());
    assert_eq!(got.class, SemanticClass::Preserved, "{got:?}");
    // The other way round it is a widening: the author's closed object opened.
    let got = judge(Lane::OpenaiChat, closed, original);
    assert_eq!(got.class, SemanticClass::Widened);
    assert_eq!(
        got.widened.map(|w| w["undeclared_property"].clone()),
        Some(json!("x"))
    );
}

#[test]
fn an_uncompilable_schema_is_unjudged_with_its_reason() {
    let remote = json!({"$ref": "https://example.com/s.json"});
    let got = judge(Lane::OpenaiChat, remote, json!({"type": "object"}));
    assert_eq!(got.class, SemanticClass::Unjudged);
    assert!(
        got.reason
            .as_deref()
            .is_some_and(|r| r.starts_with("original schema: ")),
        "{got:?}"
    );
}

#[test]
fn a_dropped_format_widens() {
    let original = json!({"type": "object", "properties": {"d": {"type": "string", "format": "date"}}, "required": ["d"]});
    let stripped =
        json!({"type": "object", "properties": {"d": {"type": "string"}}, "required": ["d"]});
    let got = judge(Lane::OpenaiStrict, original, stripped);
    assert_eq!(got.class, SemanticClass::Widened);
    assert_eq!(got.widened, Some(json!({"d": ""})));
}

/// Strict mode's removal of an optional parameter is a narrowing of its
/// own kind, which the ledger can declare apart from any other.
#[test]
fn a_removed_optional_property_is_a_drops_optional_narrowing() {
    let original = json!({
        "type": "object",
        "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}},
        "required": ["q"]
    });
    let removed = json!({
        "type": "object",
        "properties": {"q": {"type": "string"}},
        "required": ["q"],
        "additionalProperties": false
    });
    let got = judge(Lane::DeepseekStrict, original.clone(), removed);
    assert_eq!(got.class, SemanticClass::Narrowed);
    assert_eq!(got.narrowed_kinds, [NarrowingKind::DropsOptional]);
    assert!(got.narrowed.expect("a witness").get("limit").is_some());
    // A bound tightened on a kept property is another kind.
    let tightened = json!({
        "type": "object",
        "properties": {"q": {"type": "string", "maxLength": 1}, "limit": {"type": "integer"}},
        "required": ["q"]
    });
    let got = judge(Lane::DeepseekStrict, original, tightened);
    assert_eq!(got.narrowed_kinds, [NarrowingKind::Other]);
}

/// normalize's nullable-union collapse writes OpenAPI `nullable`, which
/// draft 2020-12 ignores: on a JSON Schema lane `null` is refused.
#[test]
fn a_collapsed_nullable_union_is_an_ignored_nullable_narrowing_outside_openapi() {
    let original = json!({
        "type": "object",
        "properties": {"due": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
        "required": ["due"]
    });
    let collapsed = json!({
        "type": "object",
        "properties": {"due": {"type": "string", "nullable": true}},
        "required": ["due"]
    });
    let got = judge(Lane::AnthropicMessages, original.clone(), collapsed.clone());
    assert_eq!(got.class, SemanticClass::Narrowed);
    assert_eq!(got.narrowed, Some(json!({"due": null})));
    assert_eq!(got.narrowed_kinds, [NarrowingKind::IgnoredNullable]);
    assert_eq!(
        judge(Lane::GeminiOpenapi, original, collapsed).class,
        SemanticClass::Preserved
    );
}

/// A renamed root key is mapped back through its record (DESIGN: a client
/// maps a call's keys back), so a rename alone changes nothing.
#[test]
fn a_renamed_property_key_is_mapped_through_its_record() {
    let original = json!({
        "type": "object",
        "properties": {"a:b": {"type": "integer"}},
        "required": ["a:b"]
    });
    let renamed = json!({
        "type": "object",
        "properties": {"a_b": {"type": "integer"}},
        "required": ["a_b"]
    });
    let o = Original::of(&Tool::new("t", original), &[]);
    let unmapped = o.judge(Lane::GeminiOpenapi, &Tool::new("t", renamed.clone()), &[]);
    assert_eq!(unmapped.class, SemanticClass::Narrowed);
    let record = rename_record(Lane::GeminiOpenapi, "a:b", "a_b");
    let mapped = o.judge(Lane::GeminiOpenapi, &Tool::new("t", renamed), &[record]);
    assert_eq!(mapped.class, SemanticClass::Preserved, "{mapped:?}");
}

/// A renamed key the original requires stays required under its wire
/// name: an instance lacking it is not filled with null as if strict mode
/// had made an optional key required (JSONSchemaBench Github_easy o44986,
/// an untyped `prov:value`).
#[test]
fn a_renamed_required_key_is_not_filled_with_null() {
    let original = json!({
        "type": "object",
        "properties": {"name": {"type": "string"}, "p:v": {"description": "any value"}},
        "required": ["name", "p:v"]
    });
    let renamed = json!({
        "type": "object",
        "properties": {"name": {"type": "string"}, "p_v": {"description": "any value"}},
        "required": ["name", "p_v"]
    });
    let record = rename_record(Lane::AnthropicMessages, "p:v", "p_v");
    let o = Original::of(&Tool::new("t", original), &[]);
    let got = o.judge(Lane::AnthropicMessages, &Tool::new("t", renamed), &[record]);
    assert_eq!(got.class, SemanticClass::Preserved, "{got:?}");
}

/// Instances a corpus gives (JSONSchemaBench `tests`) reach what the
/// generator does not; one the validator judges against its expected
/// verdict is left out.
#[test]
fn corpus_instances_join_the_generated_ones_where_the_validator_agrees() {
    use crate::catalog::KnownInstance;
    let original = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let shaped = json!({
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "not": {"const": {"a": "zebra"}}
    });
    let tool = Tool::new("t", original);
    let shaped = Tool::new("t", shaped);
    let generated_only = Original::of(&tool, &[]).judge(Lane::OpenaiChat, &shaped, &[]);
    assert_eq!(generated_only.class, SemanticClass::Preserved);
    let zebra = KnownInstance {
        data: json!({"a": "zebra"}),
        valid: true,
    };
    let with_corpus =
        Original::of(&tool, std::slice::from_ref(&zebra)).judge(Lane::OpenaiChat, &shaped, &[]);
    assert_eq!(with_corpus.class, SemanticClass::Narrowed);
    assert_eq!(with_corpus.narrowed, Some(json!({"a": "zebra"})));
    assert_eq!(with_corpus.instances, generated_only.instances + 1);
    // The corpus says invalid, the validator says valid: not used.
    let wrong = KnownInstance {
        valid: false,
        ..zebra
    };
    let skipped = Original::of(&tool, &[wrong]).judge(Lane::OpenaiChat, &shaped, &[]);
    assert_eq!(skipped.class, SemanticClass::Preserved);
    assert_eq!(skipped.instances, generated_only.instances);
}

/// Closing an object refuses the keys `patternProperties` admitted: a
/// narrowing of its own kind, apart from removed optionals.
#[test]
fn keys_only_pattern_properties_admitted_are_a_closes_objects_narrowing() {
    use crate::catalog::KnownInstance;
    let original = json!({
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
        "patternProperties": {"^comment[0-9]$": {"type": "string"}}
    });
    let closed = json!({
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
        "additionalProperties": false
    });
    let known = KnownInstance {
        data: json!({"name": "n", "comment1": "c"}),
        valid: true,
    };
    let got = Original::of(&Tool::new("t", original), &[known]).judge(
        Lane::DeepseekStrict,
        &Tool::new("t", closed),
        &[],
    );
    assert_eq!(got.class, SemanticClass::Narrowed);
    assert_eq!(
        got.narrowed_kinds,
        [NarrowingKind::ClosesObjects],
        "{got:?}"
    );
}

/// Strict mode wraps a `$ref`'d object in a nullable union and requires
/// its properties: the model sends `null` for them inside the union too.
#[test]
fn required_names_inside_a_nullable_union_are_filled_with_null() {
    let original = json!({
        "type": "object",
        "properties": {"owner": {"$ref": "#/definitions/Person"}},
        "definitions": {"Person": {"type": "object", "properties": {"name": {"type": "string"}}}}
    });
    let strict = json!({
        "type": "object",
        "properties": {"owner": {"anyOf": [{"$ref": "#/definitions/Person"}, {"type": "null"}]}},
        "required": ["owner"],
        "additionalProperties": false,
        "definitions": {"Person": {
            "type": "object",
            "properties": {"name": {"type": ["string", "null"]}},
            "required": ["name"],
            "additionalProperties": false
        }}
    });
    let got = judge(Lane::OpenaiStrict, original, strict);
    assert_eq!(got.class, SemanticClass::Preserved, "{got:?}");
}

/// Issue 14's two cases through v1 itself (not a hand-written output): the
/// optional enum keeps `null` in its enum, and an `if` is never closed.
/// Both failed on the v1 the issue was filed against.
#[test]
fn v1_openai_strict_keeps_the_meaning_of_an_optional_enum_and_an_if() {
    use crate::pipeline::{Pipeline, PipelineConfig, Profile};
    let v1 = Profile::V1.with_config(PipelineConfig::default());
    let judge_v1 = |schema: Value| {
        let tool = Tool::new("t", schema);
        let shaped = v1.shape(Lane::OpenaiStrict, &tool);
        Original::of(&tool, &[]).judge(Lane::OpenaiStrict, &shaped.tool, &shaped.degradations)
    };
    let optional_enum = judge_v1(json!({
        "type": "object",
        "properties": {
            "kind": {"type": "string", "enum": ["ASN", "POPULATION"]},
            "q": {"type": "string"}
        },
        "required": ["q"]
    }));
    assert_eq!(
        optional_enum.class,
        SemanticClass::Preserved,
        "{optional_enum:?}"
    );
    let with_if = judge_v1(json!({
        "type": "object",
        "properties": {"a": {"enum": [1, 2]}, "b": {"type": "string"}, "c": {"type": "boolean"}},
        "required": ["a"],
        "if": {"properties": {"a": {"const": 1}}},
        "then": {"required": ["b"]}
    }));
    assert_eq!(with_if.class, SemanticClass::Preserved, "{with_if:?}");
}

/// A `maxItems` of 1,000 no generated instance reaches: the instances see
/// no change, the constraint judgement does, and it reads the note.
#[test]
fn a_lost_constraint_is_seen_without_instances_and_untold_unless_a_description_names_it() {
    let original = json!({"type": "object", "properties": {
        "days": {"type": "array", "items": {"type": "string"}, "maxItems": 1000},
        "hours": {"type": "array", "maxItems": 10, "description": "maxItems is how many"}
    }});
    let stripped = json!({"type": "object", "properties": {
        "days": {"type": "array", "items": {"type": "string"}},
        "hours": {"type": "array", "maxItems": 10, "description": "maxItems is how many"}
    }});
    let got = judge(Lane::GeminiJsonschema, original.clone(), stripped.clone());
    assert_eq!(got.class, SemanticClass::Preserved);
    assert_eq!(got.losses.lost, vec!["maxItems 1000".to_owned()]);
    // The original's own text naming the keyword tells the model nothing new.
    assert_eq!(got.losses.untold, vec!["maxItems".to_owned()]);
    let told = Original::of(&Tool::new("t", original.clone()), &[]).judge_with_losses(
        Lane::GeminiJsonschema,
        &Tool::new("t", stripped).with_description("days: maxItems 1000."),
        &[],
    );
    assert_eq!(told.losses.lost, vec!["maxItems 1000".to_owned()]);
    assert_eq!(told.losses.untold, Vec::<String>::new());
    // Kept, or moved elsewhere in the schema: nothing lost.
    assert_eq!(
        judge(Lane::GeminiJsonschema, original.clone(), original).losses,
        Losses::default()
    );
    // A property named like a keyword is not one.
    let named = json!({"type": "object", "properties": {"pattern": {"type": "string"}}});
    let got = judge(Lane::OpenaiChat, named.clone(), json!({"type": "object"}));
    assert_eq!(got.losses, Losses::default());
}

/// Which description survives a collapse is what the model reads: the one
/// no shaped description still contains is lost (and untold).
#[test]
fn a_description_no_shaped_description_contains_is_lost() {
    let original = json!({"type": "object", "properties": {
        "m": {"description": "outer", "anyOf": [{"type": "string", "description": "inner"}]}
    }});
    let parent_wins = json!({"type": "object", "properties": {
        "m": {"description": "outer", "type": "string"}
    }});
    let got = judge(Lane::OpenaiChat, original.clone(), parent_wins);
    assert_eq!(got.losses.lost, vec![r#"description "inner""#.to_owned()]);
    assert_eq!(got.losses.untold, vec!["description".to_owned()]);
    let noted = json!({"type": "object", "properties": {
        "m": {"description": "outer\n\ninner", "type": "string"}
    }});
    assert_eq!(
        judge(Lane::OpenaiChat, original, noted).losses,
        Losses::default()
    );
}

/// Draft 3 spells "required" on the property: read that way, lifting the
/// flag into the parent's list keeps the meaning and dropping it widens.
#[test]
fn a_draft3_required_flag_is_read_as_the_parent_requiring_the_property() {
    let original = json!({"type": "object", "properties": {
        "id": {"type": "string", "required": true},
        "note": {"type": "string", "required": "false"}
    }});
    let lifted = json!({"type": "object", "properties": {
        "id": {"type": "string"}, "note": {"type": "string"}
    }, "required": ["id"]});
    assert_eq!(
        judge(Lane::Groq, original.clone(), lifted).class,
        SemanticClass::Preserved
    );
    let dropped = json!({"type": "object", "properties": {
        "id": {"type": "string"}, "note": {"type": "string"}
    }});
    let got = judge(Lane::Groq, original, dropped);
    assert_eq!(got.class, SemanticClass::Widened);
    assert!(got.widened.is_some_and(|w| w.get("id").is_none()));
}

/// A tool's shared judgements give what a fresh judgement gives, whichever
/// lane or records asked first: the renames and the OpenAPI reading of
/// `nullable` are part of what an earlier verdict is reused for.
#[test]
fn shared_judgements_are_reused_only_for_the_same_renames_and_reading() {
    let original = json!({
        "type": "object",
        "properties": {"a:b": {"type": "integer"}},
        "required": ["a:b"]
    });
    let renamed = Tool::new(
        "t",
        json!({
            "type": "object",
            "properties": {"a_b": {"type": "integer"}},
            "required": ["a_b"]
        }),
    );
    let nullable = Tool::new(
        "t",
        json!({
            "type": "object",
            "properties": {"a:b": {"type": "integer", "nullable": true}},
            "required": ["a:b"]
        }),
    );
    let record = rename_record(Lane::GeminiOpenapi, "a:b", "a_b");
    let tool = Tool::new("t", original);
    let fresh = Original::of(&tool, &[]);
    let shared = Shared::new(&tool, &[]);
    let asks: [(Lane, &Tool, &[crate::degradation::Degradation]); 6] = [
        (Lane::OpenaiChat, &renamed, &[]),
        (Lane::OpenaiChat, &renamed, std::slice::from_ref(&record)),
        (Lane::GeminiOpenapi, &renamed, &[]),
        (Lane::OpenaiChat, &nullable, &[]),
        (Lane::GeminiOpenapi, &nullable, &[]),
        (Lane::Mistral, &renamed, &[]),
    ];
    let classes: Vec<SemanticClass> = asks
        .iter()
        .map(|&(lane, shaped, records)| {
            let got = shared.judge(lane, shaped, records);
            assert_eq!(
                got,
                fresh.judge(lane, shaped, records),
                "{lane:?} {records:?}"
            );
            got.class
        })
        .collect();
    assert_eq!(
        classes,
        [
            SemanticClass::Narrowed,
            SemanticClass::Preserved,
            SemanticClass::Narrowed,
            SemanticClass::Preserved,
            SemanticClass::Widened,
            SemanticClass::Narrowed,
        ]
    );
}

/// The shared verdicts are keyed by what a judgement reads of the shaped
/// tool: its description counts (it decides `silent`), its name and
/// `strict` flag do not.
#[test]
fn shared_verdicts_follow_the_description_not_the_name_or_strict() {
    let original =
        json!({"type": "object", "properties": {"q": {"type": "string", "maxLength": 5}}});
    let stripped = json!({"type": "object", "properties": {"q": {"type": "string"}}});
    let tool = Tool::new("t", original);
    let fresh = Original::of(&tool, &[]);
    let shared = Shared::new(&tool, &[]);
    let silent = Tool::new("t", stripped.clone());
    let told = Tool::new("t", stripped.clone()).with_description("q: maxLength 5.");
    let mut renamed = Tool::new("t_1", stripped);
    renamed.strict = Some(true);
    let got: Vec<bool> = [&silent, &told, &renamed, &told]
        .into_iter()
        .map(|shaped| {
            let got = shared.judge(Lane::OpenaiChat, shaped, &[]);
            assert_eq!(got, fresh.judge(Lane::OpenaiChat, shaped, &[]));
            assert_eq!(got.class, SemanticClass::Widened);
            got.silent
        })
        .collect();
    assert_eq!(got, [true, false, true, false]);
}

/// An output that is the original judges as the original; with root keys
/// the records rename, the same schema is judged for what the wire makes
/// of it.
#[test]
fn the_original_itself_is_preserved_unless_its_keys_are_renamed() {
    let schema = json!({
        "type": "object",
        "properties": {"n": {"type": "integer", "nullable": true}, "a:b": {"type": "string"}},
        "required": ["n"],
        "additionalProperties": false
    });
    let tool = Tool::new("t", schema.clone());
    let original = Original::of(&tool, &[]);
    let same = Tool::new("t", schema);
    let plain = original.judge(Lane::OpenaiChat, &same, &[]);
    assert_eq!(plain.class, SemanticClass::Preserved);
    assert!(plain.instances > 10, "{plain:?}");
    assert_eq!(plain.disagreements, Vec::<usize>::new());
    // Gemini reads `nullable` as OpenAPI does, and so the author's own.
    assert_eq!(original.judge(Lane::GeminiOpenapi, &same, &[]), plain);
    // Arguments sent as `a_b`, which the schema does not declare.
    let record = rename_record(Lane::OpenaiChat, "a:b", "a_b");
    assert_eq!(
        original
            .judge(Lane::OpenaiChat, &same, std::slice::from_ref(&record))
            .class,
        SemanticClass::Narrowed
    );
}

/// An output whose wire text is over 16 KB is remembered by the sha256 of
/// its schema, not as a value: the verdicts are still a fresh judgement's;
/// the same output asked again is a hit, and the same schema with its keys
/// in another order (equal as values, other bytes) is judged again.
#[test]
fn large_outputs_are_remembered_by_digest_and_judge_as_fresh_ones() {
    let original =
        json!({"type": "object", "properties": {"q": {"type": "string", "maxLength": 5}}});
    let stripped = Tool::new(
        "t",
        json!({"type": "object", "properties": {"q": {"type": "string"}}}),
    );
    let reordered = Tool::new(
        "t",
        json!({"properties": {"q": {"type": "string"}}, "type": "object"}),
    );
    let kept = Tool::new("t", original.clone());
    let tool = Tool::new("t", original);
    let fresh = Original::of(&tool, &[]);
    let large = Shared::new(&tool, &[]);
    let small = Shared::new(&tool, &[]);
    for shaped in [&stripped, &kept, &stripped, &reordered] {
        let want = fresh.judge(Lane::OpenaiChat, shaped, &[]);
        assert_eq!(
            large.judge_sized(Lane::OpenaiChat, shaped, &[], 16 * 1024 + 1),
            want
        );
        assert_eq!(
            small.judge_sized(Lane::OpenaiChat, shaped, &[], 16 * 1024),
            want
        );
    }
    assert_eq!(large.kept(), (0, 3));
    assert_eq!(small.kept(), (2, 0));
}
