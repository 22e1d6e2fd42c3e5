//! `non-schema-root` and `metaschema-gate`: a `parameters` root that is no
//! schema becomes `{}`; Groq's metaschema check as a fail-closed gate.

use crate::passes::root::replace_non_object_root;
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::TooDeep;
use crate::tool::Tool;

/// `non-schema-root`: OpenAI and Groq validate `parameters` against a
/// metaschema, which takes an object or a boolean (OpenAI: `[] is not of
/// type 'object', 'boolean'.`, rule `openai-subschema-not-object`; Groq:
/// `7 is not of types "boolean", "object"`, rule
/// `groq-metaschema-validation`). A root that is neither (an array, a
/// number, a string, null) says nothing a schema could keep and becomes
/// `{}`, recorded; a boolean root is valid and stays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NonSchemaRoot {
    pub(crate) rule: &'static str,
    /// Replace a boolean root too (a mutant).
    pub(crate) booleans: bool,
}

impl NonSchemaRoot {
    pub(crate) fn new(rule: &'static str) -> Self {
        Self {
            rule,
            booleans: false,
        }
    }
}

/// `metaschema-gate`: the last pass where the endpoint validates every
/// schema against the draft 2020-12 metaschema (Groq: `schema is not valid
/// JSON Schema`; the provider fact and the check live in `metaschema`,
/// below this pass and the oracle that judges it). What the repairs before it could not make valid (a keyword
/// whose value has the wrong type, say `pattern: {…}`) has no faithful
/// rewrite: the tool fails closed with the validator's message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MetaschemaGate {
    pub(crate) rule: &'static str,
    /// Mutation point: the gate switched off.
    pub(crate) enabled: bool,
}

impl Pass for MetaschemaGate {
    fn name(&self) -> &'static str {
        "metaschema-gate"
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }

    fn apply(&self, tool: &mut Tool, _cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if self.enabled
            && let Some(e) = crate::metaschema::draft_2020_12_error(&tool.input_schema)
        {
            return Ok(Step::FailClosed(format!(
                "not a valid draft 2020-12 schema after the repairs: {e}"
            )));
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::flip(self, "never fail closed", |p| {
            &mut p.enabled
        })]
    }
}

impl Pass for NonSchemaRoot {
    fn name(&self) -> &'static str {
        "non-schema-root"
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if self.booleans || !tool.input_schema.is_boolean() {
            replace_non_object_root(&mut tool.input_schema, cx);
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "replace a boolean root too",
            Self {
                booleans: !self.booleans,
                ..*self
            },
        )]
    }
}
