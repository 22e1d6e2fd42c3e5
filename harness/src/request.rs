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
//! v1 applies [`RequestRule`]s in order after the tools are shaped; v0 and
//! verbatim send the request as built. Every change is a [`RequestChange`]
//! naming the rule, so nothing is silent.

use serde::Serialize;
use serde_json::Value;

use crate::lane::Lane;
use crate::pipeline::Profile;

/// The request members shaping may touch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestParts {
    /// The wire tools array; `None` when the request sends no `tools` member.
    pub tools: Option<Vec<Value>>,
    pub tool_choice: Option<Value>,
}

/// One change to the request, with the rule it exists for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RequestChange {
    /// The request member changed (`tools`, `tool_choice`).
    pub member: &'static str,
    /// The rule name (stable id, like a pass name).
    pub name: &'static str,
    /// The oracle rule it exists for.
    pub rule: &'static str,
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
            rule: self.rule(),
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

    /// Apply [`Profile::request_rules`] to `parts`; every change made.
    pub fn shape_request(self, lane: Lane, parts: &mut RequestParts) -> Vec<RequestChange> {
        self.request_rules(lane)
            .into_iter()
            .filter_map(|r| r.apply(parts))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parts(tools: Option<Vec<Value>>, tool_choice: Option<Value>) -> RequestParts {
        RequestParts { tools, tool_choice }
    }

    #[test]
    fn v1_omits_an_empty_tools_array() {
        let mut p = parts(Some(vec![]), None);
        let changes = Profile::V1.shape_request(Lane::OpenaiChat, &mut p);
        assert_eq!(p, parts(None, None));
        assert_eq!(changes.len(), 1);
        assert_eq!(
            (changes[0].member, changes[0].name, changes[0].rule),
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
