//! v1 on `deepseek-chat`, `moonshot`, `mistral` and `ollama`: every tool passes that lane's oracle, every loss recorded.
//!
//! Per lane, in order (each pass names the oracle rule it exists for):
//! - `deepseek-chat`: `wrap-bare-property-map`, `parameters-object-floor`
//!   (`deepseek-parameters-must-be-object`), `type-any-of-members`
//!   (`deepseek-anyof-member-missing-type`);
//! - `moonshot`: `wrap-bare-property-map`, `parameters-object-floor`
//!   (`moonshot-parameters-type-object`), `refs-into-defs`
//!   (`moonshot-ref-outside-defs`), `type-into-any-of`
//!   (`moonshot-type-beside-anyof`), `type-untyped-subschemas`
//!   (`moonshot-type-required`), `ref-type-to-all-of`
//!   (`moonshot-type-beside-ref`), `ref-siblings-to-all-of`
//!   (`moonshot-ref-sibling-conflict`);
//! - `mistral`: `wrap-bare-property-map`, `parameters-object-floor` (only
//!   roots that are no schema at all), `draft4-exclusive-bounds`
//!   (`mistral-parameters-not-object-schema`);
//! - `ollama`: `ollama-properties-map`, `ollama-boolean-properties`,
//!   `ollama-type-name-properties` (one per `ollama-*` rule).
//!
//! No `normalize` runs first: these endpoints read JSON Schema, so its
//! `nullable: true` collapse would change what they accept.
//! `mistral-function-extra-field-forbidden` concerns keys of the function
//! object beside `parameters`, which a `Tool` never carries: not a pass here.

mod anyof;
mod defs;
mod keywords;
mod mistral;
mod moonshot;
mod ollama;
mod properties;
mod refs;
mod root;
mod tuples;
mod untyped;

pub(crate) use anyof::TypeAnyOfMembers;
pub(crate) use defs::RefsIntoDefs;
pub(crate) use mistral::Draft4ExclusiveBounds;
pub(crate) use moonshot::TypeIntoAnyOf;
pub(crate) use ollama::{OllamaBooleanProperties, OllamaPropertiesMap, OllamaTypeNameProperties};
pub(crate) use properties::PropertySchemasToObjects;
pub(crate) use refs::{RefSiblingsToAllOf, RefTypeToAllOf};
pub(crate) use root::{ParametersObjectFloor, WrapBarePropertyMap};
pub(crate) use tuples::TupleItemsToPrefixItems;
pub(crate) use untyped::TypeUntypedSubschemas;

/// Moonshot's documented function name: `^[a-zA-Z_][a-zA-Z0-9-_]{2,63}$`
/// (`facts::moonshot`).
pub(crate) const MOONSHOT_FUNCTION_NAME: super::names::NameSpec = super::names::NameSpec {
    min: 3,
    max: crate::facts::moonshot::NAME_LENGTH.value,
    first: super::names::letter_or_underscore,
    rest: super::names::word_or_dash,
};

#[cfg(test)]
mod tests {
    use crate::lane::Lane;
    use crate::passes::lists::v1;
    use crate::passes::test_support::run_on_tool;
    use crate::pipeline::{Outcome, Pipeline, PipelineConfig, Profile};
    use crate::tool::Tool;
    use serde_json::{Value, json};

    fn v1_bytes(lane: Lane, schema: Value) -> (String, Outcome) {
        let shaped = Profile::V1
            .with_config(PipelineConfig::default())
            .shape(lane, &Tool::new("t", schema));
        (
            crate::schema::to_bytes(&shaped.tool.input_schema),
            shaped.outcome,
        )
    }

    #[test]
    fn compat_v1_lists_its_passes_per_lane_with_their_rules() {
        let listed = |lane| -> Vec<(&'static str, Option<&'static str>)> {
            v1(lane).iter().map(|p| (p.name(), p.rule())).collect()
        };
        assert_eq!(
            listed(Lane::DeepseekChat),
            [
                (
                    "wrap-bare-property-map",
                    Some("deepseek-parameters-must-be-object")
                ),
                (
                    "parameters-object-floor",
                    Some("deepseek-parameters-must-be-object")
                ),
                (
                    "type-any-of-members",
                    Some("deepseek-anyof-member-missing-type")
                ),
            ]
        );
        assert_eq!(
            listed(Lane::Moonshot),
            [
                ("sanitize-tool-name", Some("moonshot-function-name-pattern")),
                (
                    "wrap-bare-property-map",
                    Some("moonshot-parameters-type-object")
                ),
                (
                    "parameters-object-floor",
                    Some("moonshot-parameters-type-object")
                ),
                ("refs-into-defs", Some("moonshot-ref-outside-defs")),
                ("type-into-any-of", Some("moonshot-type-beside-anyof")),
                (
                    "property-schemas-to-objects",
                    Some("moonshot-property-schema-not-object"),
                ),
                ("tuple-items-to-prefix-items", Some("moonshot-tuple-items")),
                ("type-untyped-subschemas", Some("moonshot-type-required")),
                ("ref-type-to-all-of", Some("moonshot-type-beside-ref")),
                (
                    "ref-siblings-to-all-of",
                    Some("moonshot-ref-sibling-conflict")
                ),
            ]
        );
        assert_eq!(
            listed(Lane::Mistral),
            [
                (
                    "wrap-bare-property-map",
                    Some("mistral-parameters-not-object-schema")
                ),
                (
                    "parameters-object-floor",
                    Some("mistral-parameters-not-object-schema")
                ),
                (
                    "draft4-exclusive-bounds",
                    Some("mistral-parameters-not-object-schema")
                ),
                (
                    "repair-keyword-types",
                    Some("mistral-parameters-not-object-schema")
                ),
                (
                    "replace-non-schemas",
                    Some("mistral-parameters-not-object-schema")
                ),
                (
                    "keyword-type-gate",
                    Some("mistral-parameters-not-object-schema")
                ),
            ]
        );
        assert_eq!(
            listed(Lane::Ollama),
            [
                (
                    "ollama-properties-map",
                    Some("ollama-properties-must-be-map")
                ),
                (
                    "ollama-boolean-properties",
                    Some("ollama-boolean-subschema")
                ),
                (
                    "ollama-type-name-properties",
                    Some("ollama-property-value-must-be-object")
                ),
            ]
        );
        for lane in [
            Lane::DeepseekChat,
            Lane::Moonshot,
            Lane::Mistral,
            Lane::Ollama,
        ] {
            assert!(v1(lane).iter().all(|p| !p.mutants().is_empty()), "{lane}");
        }
    }

    #[test]
    fn deepseek_chat_v1_wraps_then_types_a_bare_map_and_types_its_any_of_members() {
        let (out, outcome) = v1_bytes(
            Lane::DeepseekChat,
            json!({"q":{"anyOf":[{"anyOf":[{"type":"number"},{"type":"string"}]},{"type":"null"}]}}),
        );
        assert_eq!(
            out,
            r#"{"type":"object","properties":{"q":{"anyOf":[{"type":"number"},{"type":"string"},{"type":"null"}]}}}"#
        );
        assert_eq!(outcome, Outcome::Shaped);
    }

    #[test]
    fn moonshot_v1_types_the_root_before_judging_ref_siblings() {
        // The new root type conflicts with the target's: the $ref moves.
        let (out, _) = v1_bytes(
            Lane::Moonshot,
            json!({"$ref":"#/$defs/S","$defs":{"S":{"type":"string"}}}),
        );
        assert_eq!(
            out,
            r##"{"type":"object","properties":{},"allOf":[{"$ref":"#/$defs/S"}],"$defs":{"S":{"type":"string"}}}"##
        );
    }

    #[test]
    fn mistral_v1_leaves_an_untyped_root_and_fixes_only_what_mistral_rejects() {
        let (out, _) = v1_bytes(Lane::Mistral, json!({"properties":{"a":{}}}));
        assert_eq!(out, r#"{"properties":{"a":{}}}"#);
        let (out, _) = v1_bytes(Lane::Mistral, json!(["x"]));
        assert_eq!(out, "{}");
    }

    #[test]
    fn ollama_v1_runs_its_three_passes_in_order() {
        let (out, outcome) = v1_bytes(
            Lane::Ollama,
            json!({"type":"object","properties":{"a":"string","b":true}}),
        );
        assert_eq!(
            out,
            r#"{"type":"object","properties":{"a":{"type":"string"},"b":{}}}"#
        );
        assert_eq!(outcome, Outcome::Shaped);
    }

    /// No declared mutation point is an equivalent mutant: each changes the
    /// output, records or step on one of the inputs the pass tests assert on.
    #[test]
    fn compat_v1_every_declared_mutant_acts_on_an_input_the_pass_tests_use() {
        let inputs = [
            json!({"video_path":{"type":"string"},"description":{"type":"string"}}),
            json!({"video_path":{"type":"string"},"title":"T"}),
            json!({"type":{"type":"string"},"x-meta":{"a":1},"$comment":"c","name":{}}),
            json!({}),
            json!({"type":["object","null"],"properties":{"a":{}}}),
            json!([1]),
            json!({"type":"object","properties":{"timeout":{"anyOf":[{"anyOf":[{"type":"number"},{"type":"string"}]},{"type":"null"}]}}}),
            json!({"type":["string","null"],"anyOf":[{"pattern":"^a"},{"type":"null"}]}),
            json!({"anyOf":[{"format":"ipv4"},{"properties":{"a":{}}},{"items":{}}]}),
            json!({"description":"x","anyOf":[{"type":"string"},{"description":"any"}]}),
            json!({"anyOf":[{"type":"number"},{"not":{}}]}),
            json!({"type":"object","properties":{"a":{"$ref":"#/$defs/A","description":"A"}},"$defs":{"A":{"type":"object","properties":{}}}}),
            json!({"minimum":2,"exclusiveMinimum":true}),
            json!({"type":"object","properties":["a"]}),
            json!({"type":"object","properties":{"x":false,"y":true},"required":["x"]}),
            json!({"type":"object","properties":{"x":false,"y":true}}),
            json!({"type":"object","properties":{"n":["integer","null"]}}),
            json!({"type":"object","properties":{"p":{"type":"integer","anyOf":[{"type":"number"},{"type":"string"}]}}}),
            json!({"type":"object","anyOf":[{"type":"object","properties":{"a":{}}},{"type":"null"}]}),
            json!({"type":"object","properties":{"a":{"$ref":"#/definitions/A"},"b":{"$ref":"#/properties/c"},"c":{"type":"string"}},"definitions":{"A":{"type":"string"}}}),
            json!({"type":"object","properties":{"mode":{"$ref":"#/$defs/Mode","type":"string"}},"$defs":{"Mode":{"type":"string","enum":["a","b"]}}}),
            json!({"type":"object","properties":{"pt":{"type":"array","items":[{"type":"number"}],"additionalItems":false}}}),
        ];
        for lane in [
            Lane::DeepseekChat,
            Lane::Moonshot,
            Lane::Mistral,
            Lane::Ollama,
        ] {
            // This test covers the passes defined here; the OpenAI wires'
            // repairs Mistral borrows are judged with their mutants by
            // `wireshape mutants` (pass examples and the corpus).
            let shared = ["repair-keyword-types", "replace-non-schemas"];
            for pass in v1(lane).into_iter().filter(|p| !shared.contains(&p.name())) {
                for m in pass.mutants() {
                    let differs = inputs.iter().any(|i| {
                        let a = run_on_tool(pass.as_ref(), lane, Tool::new("t", i.clone()));
                        let b = run_on_tool(m.pass.as_ref(), lane, Tool::new("t", i.clone()));
                        a.tool != b.tool || a.step != b.step || a.marks() != b.marks()
                    });
                    assert!(
                        differs,
                        "{lane} {} mutant {:?} survives",
                        pass.name(),
                        m.change
                    );
                }
            }
        }
    }
}
