//! Request-level shaping: the parts of a tool-calling request around the
//! tools array (whether `tools` is sent at all, and `tool_choice`).
//!
//! Three recorded rejections are about the request, not about any one
//! tool's schema, so no per-tool pass can fix them:
//! - `openai-empty-tools-array`: `"tools": []` → `[] is too short - 'tools'`;
//! - `xai-tool-choice-without-tools`: a `tool_choice` with no tools;
//! - `cerebras-tool-choice-named-function`: `tool_choice` naming a function
//!   (`Expected 'auto' or 'none'`).
//!
//! Two more are about a strict `response_format` schema rather than a tool
//! (`cerebras-additionalproperties-false-required`,
//! `openai-strict-minimum-not-permitted`): v1 shapes that schema with the
//! lane's own passes, as a strict tool named after the format.
//!
//! v1 applies [`RequestRule`]s in order after the tools are shaped; v0 and
//! verbatim send the request as built. Every change is a [`RequestChange`]
//! naming the rule, so nothing is silent.

use serde::Serialize;
use serde_json::Value;

use crate::lane::{Lane, Wire};
use crate::pipeline::{Outcome, Pipeline, Profile};
use crate::tool::Tool;

/// The request members shaping may touch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestParts {
    /// The wire tools array; `None` when the request sends no `tools` member.
    pub tools: Option<Vec<Value>>,
    pub tool_choice: Option<Value>,
    /// Chat wires' structured output: `{type: "json_schema", json_schema:
    /// {name, strict, schema}}`.
    pub response_format: Option<Value>,
}

/// One change to the request, with the rule it exists for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RequestChange {
    /// The request member changed (`tools`, `tool_choice`, `response_format`).
    pub member: &'static str,
    /// The rule name (stable id, like a pass name).
    pub name: &'static str,
    /// The oracle rule it exists for.
    pub rule: String,
    pub reason: String,
}

/// A request-level rule of a built-in pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestRule {
    /// An empty tools array is not sent.
    OmitEmptyTools,
    /// A `tool_choice` on a request that sends no tools is not sent.
    DropOrphanToolChoice,
    /// A `tool_choice` naming one function becomes `"auto"` (the lane takes
    /// only `auto` or `none`); the forced choice is lost and recorded.
    NamedToolChoiceToAuto,
}

impl RequestRule {
    /// Stable id.
    pub fn name(self) -> &'static str {
        match self {
            Self::OmitEmptyTools => "omit-empty-tools",
            Self::DropOrphanToolChoice => "drop-orphan-tool-choice",
            Self::NamedToolChoiceToAuto => "named-tool-choice-to-auto",
        }
    }

    /// The oracle rule it exists for.
    pub fn rule(self) -> &'static str {
        match self {
            Self::OmitEmptyTools => "openai-empty-tools-array",
            Self::DropOrphanToolChoice => "xai-tool-choice-without-tools",
            Self::NamedToolChoiceToAuto => "cerebras-tool-choice-named-function",
        }
    }

    fn apply(self, parts: &mut RequestParts) -> Option<RequestChange> {
        let change = |member, reason: String| RequestChange {
            member,
            name: self.name(),
            rule: self.rule().to_owned(),
            reason,
        };
        match self {
            Self::OmitEmptyTools => {
                if parts.tools.as_ref().is_some_and(Vec::is_empty) {
                    parts.tools = None;
                    return Some(change(
                        "tools",
                        "an empty tools array is rejected; the request sends no tools member"
                            .into(),
                    ));
                }
            }
            Self::DropOrphanToolChoice => {
                let no_tools = parts.tools.as_ref().is_none_or(Vec::is_empty);
                if no_tools && parts.tool_choice.as_ref().is_some_and(|c| !c.is_null()) {
                    let old = parts.tool_choice.take().unwrap_or_default();
                    return Some(change(
                        "tool_choice",
                        format!(
                            "tool_choice {old} is rejected on a request without tools; not sent"
                        ),
                    ));
                }
            }
            Self::NamedToolChoiceToAuto => {
                let named = parts
                    .tool_choice
                    .as_ref()
                    .and_then(Value::as_object)
                    .is_some_and(|c| c.get("type").and_then(Value::as_str) == Some("function"));
                if named {
                    let old = parts.tool_choice.replace(Value::from("auto"));
                    return Some(change(
                        "tool_choice",
                        format!(
                            "tool_choice {} is rejected (only auto or none); sent as \"auto\": the model is no longer forced to call that tool",
                            old.unwrap_or_default()
                        ),
                    ));
                }
            }
        }
        None
    }
}

impl Profile {
    /// The request-level rules of this profile for `lane`, in order.
    pub fn request_rules(self, lane: Lane) -> Vec<RequestRule> {
        match self {
            Self::V0 | Self::Verbatim => Vec::new(),
            Self::V1 => {
                let mut rules = vec![
                    RequestRule::OmitEmptyTools,
                    RequestRule::DropOrphanToolChoice,
                ];
                if lane == Lane::Cerebras {
                    rules.push(RequestRule::NamedToolChoiceToAuto);
                }
                rules
            }
        }
    }

    /// Whether v1 shapes a strict `response_format` on this lane (Chat wires).
    pub fn shapes_response_format(self, lane: Lane) -> bool {
        self == Self::V1 && lane.wire() == Wire::Chat
    }

    /// Apply [`Profile::request_rules`] to `parts`; every change made.
    pub fn shape_request(self, lane: Lane, parts: &mut RequestParts) -> Vec<RequestChange> {
        self.request_rules(lane)
            .into_iter()
            .filter_map(|r| r.apply(parts))
            .collect()
    }
}

/// `profile`'s request rules, then (where the profile shapes one) a strict
/// `response_format` shaped by `pipeline`: what a built-in pipeline and a
/// pass list standing in for one do to the request.
pub(crate) fn shape_request_as(
    profile: Profile,
    pipeline: &dyn Pipeline,
    lane: Lane,
    parts: &mut RequestParts,
) -> Vec<RequestChange> {
    let mut changes = profile.shape_request(lane, parts);
    if profile.shapes_response_format(lane) {
        changes.extend(shape_response_format(pipeline, lane, parts));
    }
    changes
}

/// v1 on a Chat wire: a strict `response_format` schema is shaped by
/// `pipeline` as a strict tool named after the format (the strict rules of a
/// lane are the same for both), one change per degradation. A format the
/// pipeline fails closed ships as it came.
pub(crate) fn shape_response_format(
    pipeline: &dyn Pipeline,
    lane: Lane,
    parts: &mut RequestParts,
) -> Vec<RequestChange> {
    let Some(js) = parts
        .response_format
        .as_mut()
        .filter(|rf| rf.get("type").and_then(Value::as_str) == Some("json_schema"))
        .and_then(|rf| rf.get_mut("json_schema"))
        .and_then(Value::as_object_mut)
    else {
        return Vec::new();
    };
    if js.get("strict").and_then(Value::as_bool) != Some(true) {
        return Vec::new();
    }
    let Some(schema) = js.get("schema") else {
        return Vec::new();
    };
    let name = js
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("response_format");
    let tool = Tool {
        strict: Some(true),
        ..Tool::new(name, schema.clone())
    };
    let shaped = pipeline.shape(lane, &tool);
    if !matches!(shaped.outcome, Outcome::Shaped) || shaped.tool.input_schema == *schema {
        return Vec::new();
    }
    js.insert("schema".to_owned(), shaped.tool.input_schema);
    shaped
        .degradations
        .iter()
        .filter(|d| d.keyword != "description" && d.keyword != "tool-name")
        .map(|d| RequestChange {
            member: "response_format",
            name: "shape-response-format",
            rule: d.rule.clone().unwrap_or_default(),
            reason: d.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parts(tools: Option<Vec<Value>>, tool_choice: Option<Value>) -> RequestParts {
        RequestParts {
            tools,
            tool_choice,
            response_format: None,
        }
    }

    #[test]
    fn v1_omits_an_empty_tools_array() {
        let mut p = parts(Some(vec![]), None);
        let changes = Profile::V1.shape_request(Lane::OpenaiChat, &mut p);
        assert_eq!(p, parts(None, None));
        assert_eq!(changes.len(), 1);
        assert_eq!(
            (changes[0].member, changes[0].name, changes[0].rule.as_str()),
            ("tools", "omit-empty-tools", "openai-empty-tools-array")
        );
    }

    #[test]
    fn v1_drops_a_tool_choice_without_tools_after_omitting_them() {
        let mut p = parts(Some(vec![]), Some(json!("auto")));
        let changes = Profile::V1.shape_request(Lane::Xai, &mut p);
        assert_eq!(p, parts(None, None));
        let names: Vec<_> = changes.iter().map(|c| c.name).collect();
        assert_eq!(names, ["omit-empty-tools", "drop-orphan-tool-choice"]);
        assert_eq!(
            changes[1].reason,
            "tool_choice \"auto\" is rejected on a request without tools; not sent"
        );
    }

    #[test]
    fn a_tool_choice_with_tools_is_kept() {
        let tool = json!({"type": "function", "function": {"name": "f"}});
        let mut p = parts(Some(vec![tool.clone()]), Some(json!("required")));
        assert!(Profile::V1.shape_request(Lane::Xai, &mut p).is_empty());
        assert_eq!(p, parts(Some(vec![tool]), Some(json!("required"))));
    }

    #[test]
    fn cerebras_v1_turns_a_named_tool_choice_into_auto() {
        let tool = json!({"type": "function", "function": {"name": "Steps"}});
        let choice = json!({"type": "function", "function": {"name": "Steps"}});
        let mut p = parts(Some(vec![tool.clone()]), Some(choice.clone()));
        let changes = Profile::V1.shape_request(Lane::Cerebras, &mut p);
        assert_eq!(p, parts(Some(vec![tool.clone()]), Some(json!("auto"))));
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].rule, "cerebras-tool-choice-named-function");
        // Other lanes take a named choice: untouched.
        let mut q = parts(Some(vec![tool.clone()]), Some(choice.clone()));
        assert!(
            Profile::V1
                .shape_request(Lane::OpenaiChat, &mut q)
                .is_empty()
        );
        assert_eq!(q.tool_choice, Some(choice));
    }

    #[test]
    fn v0_and_verbatim_send_the_request_as_built() {
        for profile in [Profile::V0, Profile::Verbatim] {
            let mut p = parts(Some(vec![]), Some(json!("auto")));
            assert!(profile.shape_request(Lane::Xai, &mut p).is_empty());
            assert_eq!(p, parts(Some(vec![]), Some(json!("auto"))));
        }
    }
}

#[cfg(test)]
mod response_format_tests {
    use super::*;
    use crate::pipeline::PipelineConfig;
    use serde_json::json;

    fn format(schema: &Value, strict: bool) -> RequestParts {
        RequestParts {
            tools: None,
            tool_choice: None,
            response_format: Some(
                json!({"type": "json_schema", "json_schema": {"name": "Movie", "strict": strict, "schema": schema}}),
            ),
        }
    }

    #[test]
    fn a_strict_format_is_closed_on_cerebras() {
        let v1 = Profile::V1.with_config(PipelineConfig::default());
        let mut p = format(
            &json!({"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}),
            true,
        );
        let changes = v1.shape_request(Lane::Cerebras, &mut p);
        assert_eq!(
            p.response_format.unwrap()["json_schema"]["schema"].to_string(),
            r#"{"type":"object","properties":{"title":{"type":"string"}},"additionalProperties":false,"required":["title"]}"#
        );
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].member, "response_format");
        assert_eq!(changes[0].name, "shape-response-format");
    }

    #[test]
    fn a_non_strict_format_and_v0_are_left_alone() {
        let schema = json!({"type":"object","properties":{"a":{"type":"string"}}});
        let v1 = Profile::V1.with_config(PipelineConfig::default());
        let mut p = format(&schema, false);
        assert!(v1.shape_request(Lane::Cerebras, &mut p).is_empty());
        assert_eq!(p, format(&schema, false));
        let v0 = Profile::V0.with_config(PipelineConfig::default());
        let mut q = format(&schema, true);
        assert!(v0.shape_request(Lane::Cerebras, &mut q).is_empty());
        assert_eq!(q, format(&schema, true));
    }
}
