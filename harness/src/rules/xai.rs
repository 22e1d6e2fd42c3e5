//! xAI (Grok, Responses-style wire): recorded rejections. xAI compiles every
//! tool schema for constrained decoding (strict is implicitly on), so its
//! structured-outputs limits apply to all tools.
//!
//! Rules, recorded:
//! - `xai-length-count-constraints`: `minLength`/`maxLength`/`minItems`/
//!   `maxItems`/`minContains`/`maxContains` anywhere in a tool schema (seen
//!   as HTTP 502 with an opaque message through OpenRouter).
//! - `xai-tool-choice-without-tools`: `tool_choice` set (even `auto` or
//!   `none`) on a request without tools.
//!
//! Nothing documented for xAI in the research notes is left out.

use super::{each_schema, finding, nodes};
use crate::lane::Lane;
use crate::oracle::{Finding, Request, Rule, Status};

const XAI: &[Lane] = &[Lane::Xai];

const STRUCTURED_OUTPUTS: &str =
    "https://docs.x.ai/developers/model-capabilities/text/structured-outputs";

/// The rules of this provider.
pub(crate) static RULES: &[Rule] = &[
    Rule {
        id: "xai-length-count-constraints",
        lanes: XAI,
        status: Status::Recorded,
        summary: "minLength/maxLength/minItems/maxItems/minContains/maxContains in a tool schema",
        docs: &[STRUCTURED_OUTPUTS],
        first_seen: Some("2026-03-02"),
        last_seen: Some("2026-03-02"),
        read: None,
        status_code: 502,
        check: length_count_constraints,
    },
    Rule {
        id: "xai-tool-choice-without-tools",
        lanes: XAI,
        status: Status::Recorded,
        summary: "tool_choice on a request without tools",
        docs: &[],
        first_seen: Some("2026-05-06"),
        last_seen: Some("2026-05-06"),
        read: None,
        status_code: 400,
        check: tool_choice_without_tools,
    },
];

const LENGTH_COUNT: &[&str] = &[
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minContains",
    "maxContains",
];

/// One finding per offending node; the provider's message names nothing.
fn length_count_constraints(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        nodes(s)
            .into_iter()
            .filter(|(_, node)| LENGTH_COUNT.iter().any(|k| node.contains_key(*k)))
            .map(|(path, _)| finding(i, &path, "Invalid arguments passed to the model".to_owned()))
            .collect()
    })
}

/// The recorded excerpt stops at "…but no"; the full sentence is quoted in
/// Wei-Shaw/sub2api#4819 and router-for-me/CLIProxyAPI#3704.
fn tool_choice_without_tools(req: &Request<'_>) -> Vec<Finding> {
    if req.tools.is_empty() && req.tool_choice.is_some_and(|c| !c.is_null()) {
        vec![Finding {
            tool: None,
            path: String::new(),
            message: "Invalid request content: A tool_choice was set on the request but no tools were specified.".to_owned(),
        }]
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{DEFAULT_AS_OF, check};
    use serde_json::{Value, json};

    fn req<'a>(tools: &'a [Value], tool_choice: Option<&'a Value>) -> Request<'a> {
        Request {
            tools_present: true,
            lane: Lane::Xai,
            tools,
            tool_choice,
            response_format: None,
            as_of: DEFAULT_AS_OF,
        }
    }

    fn tool(parameters: Value) -> Value {
        let mut t = json!({"type": "function", "name": "create_post", "strict": false});
        t["parameters"] = parameters;
        t
    }

    #[test]
    fn xai_rejects_max_length_with_a_502() {
        let tools = [tool(
            json!({"type": "object", "properties": {"text": {"type": "string", "maxLength": 280}}}),
        )];
        let r = check(&req(&tools, None));
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].rule, "xai-length-count-constraints");
        assert_eq!(r[0].status, 502);
        assert_eq!(r[0].path, "/properties/text");
        assert_eq!(r[0].message, "Invalid arguments passed to the model");
    }

    #[test]
    fn xai_accepts_a_property_named_max_items_and_numeric_bounds() {
        let tools = [tool(
            json!({"type": "object", "properties": {"maxItems": {"type": "integer", "minimum": 1}}}),
        )];
        assert!(check(&req(&tools, None)).is_empty());
    }

    #[test]
    fn xai_rejects_tool_choice_auto_without_tools() {
        let auto = json!("auto");
        let r = check(&req(&[], Some(&auto)));
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].rule, "xai-tool-choice-without-tools");
        assert_eq!(r[0].tool, None);
        assert_eq!(
            r[0].message,
            "Invalid request content: A tool_choice was set on the request but no tools were specified."
        );
    }

    #[test]
    fn xai_accepts_tool_choice_with_a_tool_and_no_tool_choice_without_tools() {
        let auto = json!("auto");
        let tools = [tool(json!({"type": "object", "properties": {}}))];
        assert!(check(&req(&tools, Some(&auto))).is_empty());
        assert!(check(&req(&[], None)).is_empty());
    }
}
