//! `keyword-type-gate`: the last pass of a lane whose endpoint rejects a
//! schema wholesale when a keyword's value has the wrong JSON type (say
//! `allOf: {…}`): Mistral checks `parameters` with Python's `jsonschema`
//! (rule `mistral-parameters-not-object-schema`). What the passes before it
//! could not mend has no faithful rewrite, so the tool fails closed with
//! the validator's message: the outcome says why instead of the shaped tool
//! pretending to be fixed.
//!
//! The condition is the plain-data metaschema table in `metaschema`
//! ([`crate::metaschema::keyword_type_violation`]), below this pass and the
//! oracle that judges it; the pass never asks the oracle.

use super::{Cx, Pass, PassMutant, Step};
use crate::schema::TooDeep;
use crate::tool::Tool;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeywordTypeGate {
    pub(crate) rule: &'static str,
    /// Mutation point: the gate switched off.
    pub(crate) enabled: bool,
}

impl KeywordTypeGate {
    pub(crate) const fn new(rule: &'static str) -> Self {
        Self {
            rule,
            enabled: true,
        }
    }
}

impl Pass for KeywordTypeGate {
    fn name(&self) -> &'static str {
        "keyword-type-gate"
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }

    fn apply(&self, tool: &mut Tool, _cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !self.enabled {
            return Ok(Step::Continue);
        }
        Ok(
            match crate::metaschema::keyword_type_violation(&tool.input_schema)? {
                Some((_, message)) => Step::FailClosed(format!(
                    "{} still applies after the repairs: Invalid tool schema: {message}",
                    self.rule
                )),
                None => Step::Continue,
            },
        )
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::flip(self, "never fail closed", |p| {
            &mut p.enabled
        })]
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::run;
    use super::*;
    use crate::lane::Lane;
    use serde_json::json;

    const GATE: KeywordTypeGate = KeywordTypeGate::new("mistral-parameters-not-object-schema");

    #[test]
    fn a_tool_with_a_keyword_of_the_wrong_type_fails_closed_with_the_message() {
        let ran = run(
            &GATE,
            Lane::Mistral,
            json!({"type":"object","properties":{"a":{"allOf":{"type":"string"}}}}),
        );
        assert_eq!(
            ran.step,
            Step::FailClosed(
                "mistral-parameters-not-object-schema still applies after the repairs: Invalid tool schema: {'type': 'string'} is not of type 'array'".into()
            )
        );
    }

    #[test]
    fn a_well_typed_tool_continues_untouched() {
        let schema = json!({"type":"object","properties":{"a":{"type":"string"}}});
        let ran = run(&GATE, Lane::Mistral, schema.clone());
        assert_eq!(ran.step, Step::Continue);
        assert_eq!(ran.schema(), &schema);
        assert!(ran.records.is_empty());
        let off = KeywordTypeGate {
            enabled: false,
            ..GATE
        };
        let bad = json!({"type":"object","properties":{"a":{"allOf":{"type":"string"}}}});
        assert_eq!(run(&off, Lane::Mistral, bad).step, Step::Continue);
    }
}
