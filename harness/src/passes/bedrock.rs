//! v1 on `bedrock-converse`: every tool passes the Bedrock Converse oracle
//! (`rules/bedrock.rs`), every loss recorded. One pass per rule, in order:
//! - `bedrock-json-document` (`bedrock-converse-json-not-document`): a
//!   schema serialized into a string is parsed back; any other non-object
//!   `inputSchema.json` becomes `{}`;
//! - `bedrock-properties-object` (`bedrock-converse-properties-null`): a
//!   `properties` that is not an object (`null`, an array) becomes `{}`;
//! - `bedrock-root-type-object` (`bedrock-converse-root-type-object`): a
//!   typeless root gets `type: "object"` (and `properties: {}`); a type list
//!   holding `"object"` becomes `"object"`; any other root type has no
//!   object form, and the tool fails closed;
//! - `bedrock-root-defs` (`bedrock-converse-extraneous-defs`): root `$defs`
//!   moves to `definitions`, every `#/$defs/…` reference following it;
//! - `sanitize-tool-name` (`bedrock-converse-tool-name-pattern`):
//!   `[a-zA-Z0-9_-]+`, 1 to 64 characters;
//! - `bedrock-omit-empty-description`
//!   (`bedrock-converse-tool-description-empty`): an empty description is
//!   left out (the member is optional, but at least 1 character when sent).
//!
//! The strict checks (`anthropic-strict-*`) are not shaped here: the
//! Bedrock tools reader and the Converse rendering carry no `strict` flag.

use serde_json::{Map, Value, json};

use super::names::NameSpec;
use super::{Cx, Pass, PassMutant, Step, root};
use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

/// Converse tool names (`ToolSpecification.name`).
pub(crate) const TOOL_NAME: NameSpec = NameSpec::word_or_dash(64);

/// `bedrock-json-document`: the recorded `The format of the value at
/// toolConfig.tools.0.toolSpec.inputSchema.json is invalid. Provide a json
/// object for the field` (recording `bedrock-converse-json-not-document-3377`:
/// the schema serialized into a string). A string that parses as a JSON
/// object is that object (faithful); anything else that is not an object
/// (an array, a number, a boolean schema) becomes `{}`, recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct JsonDocument {
    /// Parse a serialized schema back (mutant: replace it by `{}`).
    pub(crate) parse_strings: bool,
}

impl Default for JsonDocument {
    fn default() -> Self {
        Self {
            parse_strings: true,
        }
    }
}

impl Pass for JsonDocument {
    fn name(&self) -> &'static str {
        "bedrock-json-document"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("bedrock-converse-json-not-document")
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "replace a serialized schema by {} instead of parsing it",
            Self {
                parse_strings: !self.parse_strings,
            },
        )]
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if self.parse_strings
            && let Value::String(text) = &tool.input_schema
            && let Ok(parsed @ Value::Object(_)) = serde_json::from_str::<Value>(text)
        {
            tool.input_schema = parsed;
            cx.record(
                "",
                "",
                Action::Rewritten,
                "input schema was a JSON object serialized into a string: parsed back",
            );
            return Ok(Step::Continue);
        }
        root::replace_non_object_root(&mut tool.input_schema, cx);
        Ok(Step::Continue)
    }
}

/// `bedrock-properties-object`: the recorded `$.properties: null found,
/// object expected` (recording `bedrock-converse-properties-null-1720`):
/// Bedrock's validator wants every `properties` to be an object. `null`
/// (no properties) and an array become `{}` at every schema position,
/// recorded; an empty map says the same as `null`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct PropertiesObject;

impl Pass for PropertiesObject {
    fn name(&self) -> &'static str {
        "bedrock-properties-object"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("bedrock-converse-properties-null")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            if node.field("properties").is_some_and(|p| !p.is_object()) {
                let old = node.insert("properties".into(), Value::Object(Map::new()));
                cx.record(
                    path,
                    "properties",
                    Action::Rewritten,
                    format!(
                        "properties {} is not an object: replaced by {{}}",
                        schema::to_bytes(&old.unwrap_or_default())
                    ),
                );
            }
            true
        })?;
        Ok(Step::Continue)
    }
}

/// `bedrock-root-type-object`: the recorded `The value at
/// toolConfig.tools.N.toolSpec.inputSchema.json.type must be one of the
/// following: object` (recordings `-272`: no root type; `-5064`: `{}`).
/// A typeless root gets `type: "object"` (and `properties: {}` when it has
/// none); a type list that holds `"object"` is narrowed to it (recorded:
/// the other members are lost). Any other root type (a scalar root) has no
/// object form: the tool fails closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RootTypeObject {
    pub(crate) add_properties: bool,
    pub(crate) narrow_type_lists: bool,
}

impl Default for RootTypeObject {
    fn default() -> Self {
        Self {
            add_properties: true,
            narrow_type_lists: true,
        }
    }
}

impl Pass for RootTypeObject {
    fn name(&self) -> &'static str {
        "bedrock-root-type-object"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("bedrock-converse-root-type-object")
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::new(
                "skip properties: {} on a typed-up root",
                Self {
                    add_properties: false,
                    ..*self
                },
            ),
            PassMutant::new(
                "fail closed on a type list holding object",
                Self {
                    narrow_type_lists: false,
                    ..*self
                },
            ),
        ]
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let Some(root) = tool.input_schema.as_object_mut() else {
            return Ok(Step::Continue);
        };
        match root.field("type") {
            None => {
                root.insert("type".into(), json!("object"));
                cx.record(
                    "",
                    "type",
                    Action::Added,
                    "Converse requires a root type object",
                );
                if self.add_properties && !root.has("properties") {
                    root.insert("properties".into(), json!({}));
                    cx.record(
                        "",
                        "properties",
                        Action::Added,
                        "object floor for a typeless root",
                    );
                }
            }
            Some(Value::String(t)) if t == "object" => {}
            Some(Value::Array(ts)) if self.narrow_type_lists && ts.contains(&json!("object")) => {
                let old = schema::to_bytes(&Value::Array(ts.clone()));
                root.insert("type".into(), json!("object"));
                cx.record(
                    "",
                    "type",
                    Action::Rewritten,
                    format!(
                        "root type {old} narrowed to \"object\": Converse takes an object root only"
                    ),
                );
            }
            Some(t) => {
                return Ok(Step::FailClosed(format!(
                    "root type {} has no object form on Converse (it requires type object)",
                    schema::to_bytes(t)
                )));
            }
        }
        Ok(Step::Continue)
    }
}

/// `bedrock-root-defs`: the recorded `extraneous key [$defs] is not
/// permitted` (recording `bedrock-converse-extraneous-defs-126`, an
/// Anthropic model behind Converse). Root `$defs` moves, entry by entry, to
/// `definitions` (the draft-07 spelling; a `$ref` is a JSON Pointer, so
/// `#/definitions/X` resolves the same), and every `$ref` to `#/$defs/…`
/// follows. When `definitions` already holds one of the names, there is no
/// faithful move: the tool fails closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RootDefs {
    /// Rewrite the references (mutant: leave them dangling).
    pub(crate) follow_refs: bool,
}

impl Default for RootDefs {
    fn default() -> Self {
        Self { follow_refs: true }
    }
}

impl Pass for RootDefs {
    fn name(&self) -> &'static str {
        "bedrock-root-defs"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("bedrock-converse-extraneous-defs")
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "leave #/$defs/ references unrewritten",
            Self {
                follow_refs: !self.follow_refs,
            },
        )]
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let Some(root) = tool.input_schema.as_object_mut() else {
            return Ok(Step::Continue);
        };
        let Some(defs) = root.field("$defs") else {
            return Ok(Step::Continue);
        };
        let Some(defs) = defs.as_object().cloned() else {
            return Ok(Step::FailClosed(
                "root $defs is not an object: nothing to move to definitions".to_owned(),
            ));
        };
        let existing = root.field("definitions").and_then(Value::as_object);
        if root.has("definitions") && existing.is_none() {
            return Ok(Step::FailClosed(
                "root definitions is not an object: $defs cannot move there".to_owned(),
            ));
        }
        if let Some(clash) = defs
            .keys()
            .find(|k| existing.is_some_and(|e| e.contains_key(*k)))
        {
            return Ok(Step::FailClosed(format!(
                "$defs and definitions both define {clash:?}: no faithful move"
            )));
        }
        root.shift_remove("$defs");
        let mut merged = root
            .field("definitions")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        merged.extend(defs);
        root.insert("definitions".into(), Value::Object(merged));
        cx.record(
            "",
            "$defs",
            Action::Rewritten,
            "Converse rejects root $defs: moved to definitions",
        );
        if self.follow_refs {
            schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
                if let Some(Value::String(r)) = node.field_mut("$ref")
                    && let Some(rest) = r.strip_prefix("#/$defs/")
                {
                    *r = format!("#/definitions/{rest}");
                    cx.record(
                        path,
                        "$ref",
                        Action::Rewritten,
                        "reference follows $defs to definitions",
                    );
                }
                true
            })?;
        }
        Ok(Step::Continue)
    }
}

/// `bedrock-omit-empty-description`: `ToolSpecification.description` is
/// optional, but when sent it must have at least 1 character (the API
/// reference's length constraint; recorded `Value '' at
/// 'toolConfig.tools.15.member.toolSpec.description' failed to satisfy
/// constraint: Member must have length greater than or equal to 1`,
/// vercel/ai#10260; anomalyco/opencode#48582 saw the 400 live and a 200
/// without the member). An empty description says nothing, so it is left
/// out, as both those clients now do; recorded, since the tool is then sent
/// without the member. A description of whitespace has a length and is
/// kept as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct OmitEmptyDescription;

impl Pass for OmitEmptyDescription {
    fn name(&self) -> &'static str {
        "bedrock-omit-empty-description"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("bedrock-converse-tool-description-empty")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if tool.description.as_deref() == Some("") {
            tool.description = None;
            cx.record(
                "",
                "tool-description",
                Action::Removed,
                "empty tool description left out: Converse takes a description of at least 1 character or none",
            );
        }
        Ok(Step::Continue)
    }
}

#[cfg(test)]
#[path = "bedrock_tests.rs"]
mod tests;
