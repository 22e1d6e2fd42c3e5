//! Floors the OpenAI-compatible validators ask for: `items` on every array,
//! `properties` beside a root `required`.

use serde_json::json;

use crate::lookup::Lookup;
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

/// `array-items-floor`: OpenAI rejects `type: "array"` without `items` at
/// any depth (`array schema missing items`, recording
/// `openai-array-schema-missing-items-148`). Absent `items` means any
/// item, which is exactly `items: {}`: a faithful rewrite, recorded as added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ArrayItemsFloor {
    /// Nested arrays too (`false`: the root only, a mutant).
    pub(crate) nested: bool,
}

impl Default for ArrayItemsFloor {
    fn default() -> Self {
        Self { nested: true }
    }
}

impl Pass for ArrayItemsFloor {
    fn name(&self) -> &'static str {
        "array-items-floor"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("openai-array-schema-missing-items")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            if schema::has_type(node, "array") && !node.has("items") {
                cx.set_keyword(
                    path,
                    node,
                    ("type", "items"),
                    json!({}),
                    "array without items: items {} (any item) stated",
                );
            }
            self.nested
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "state items on the root only",
            Self {
                nested: !self.nested,
            },
        )]
    }
}

/// `object-properties-floor`: a root object without `properties` gets
/// `properties: {}` (no constraint changes). OpenAI rejects a root
/// `type: "object"` without it (`object schema missing properties`,
/// recordings `openai-object-schema-missing-properties-143`/`-1359`); Groq
/// rejects a root `required` without it (`'required' present but
/// 'properties' is missing`, recording `groq-required-without-properties-1088`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RootPropertiesFloor {
    pub(crate) rule: &'static str,
    /// Trigger on a root `type: "object"`.
    pub(crate) typed_object: bool,
    /// Trigger on a root `required`.
    pub(crate) with_required: bool,
}

impl RootPropertiesFloor {
    pub(crate) fn openai() -> Self {
        Self {
            rule: "openai-object-schema-missing-properties",
            typed_object: true,
            with_required: false,
        }
    }

    pub(crate) fn groq() -> Self {
        Self {
            rule: "groq-required-without-properties",
            typed_object: false,
            with_required: true,
        }
    }
}

impl Pass for RootPropertiesFloor {
    fn name(&self) -> &'static str {
        "object-properties-floor"
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let Some(root) = tool.input_schema.as_object_mut() else {
            return Ok(Step::Continue);
        };
        let hit = (self.typed_object && schema::has_type(root, "object"))
            || (self.with_required && root.has("required"));
        if hit && !root.has("properties") {
            cx.set_keyword(
                "",
                root,
                ("type", "properties"),
                json!({}),
                "root object without properties: properties {} stated",
            );
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::new(
                "flip the type-object trigger",
                Self {
                    typed_object: !self.typed_object,
                    ..*self
                },
            ),
            PassMutant::new(
                "flip the required trigger",
                Self {
                    with_required: !self.with_required,
                    ..*self
                },
            ),
        ]
    }
}
