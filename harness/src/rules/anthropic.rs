//! Anthropic Messages (first party): recorded and documented rejections of
//! `tools[].input_schema` and tool names. Messages quote the recorded bodies
//! (`tools.N.custom.…`), with the tool index of the request.

use super::{each_schema, finding};
use crate::lane::Lane;
use crate::oracle::{Finding, Request, Rule, Status};

const MESSAGES: &[Lane] = &[Lane::AnthropicMessages];

/// The rules of this provider.
pub(crate) static RULES: &[Rule] = &[
    Rule {
        id: "anthropic-root-composition",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "oneOf/anyOf/allOf at the root of input_schema",
        docs: &[],
        first_seen: Some("2025-07-02"),
        last_seen: Some("2026-08-23"),
        status_code: 400,
        check: root_composition,
    },
    Rule {
        id: "anthropic-tool-name-pattern",
        lanes: MESSAGES,
        status: Status::Recorded,
        summary: "tool name must match ^[a-zA-Z0-9_-]{1,128}$ ({1,64} before 2025-07-01)",
        docs: &["https://platform.claude.com/docs/agents-and-tools/tool-use/define-tools"],
        first_seen: Some("2025-03-07"),
        last_seen: Some("2025-08-14"),
        status_code: 400,
        check: tool_name_pattern,
    },
];

fn root_composition(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        let Some(root) = s.as_object() else {
            return Vec::new();
        };
        if ["oneOf", "allOf", "anyOf"]
            .iter()
            .any(|k| root.contains_key(*k))
        {
            vec![finding(
                i,
                "",
                format!(
                    "{}: input_schema does not support oneOf, allOf, or anyOf at the top level",
                    req.schema_location(i)
                ),
            )]
        } else {
            Vec::new()
        }
    })
}

/// The name limit changed from 64 to 128 characters (2025-07-01).
fn name_limit(as_of: &str) -> usize {
    if as_of < "2025-07-01" { 64 } else { 128 }
}

fn tool_name_pattern(req: &Request<'_>) -> Vec<Finding> {
    let limit = name_limit(req.as_of);
    (0..req.tools.len())
        .filter_map(|i| {
            let name = req.name(i)?;
            let ok = !name.is_empty()
                && name.chars().count() <= limit
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            (!ok).then(|| {
                finding(
                    i,
                    "",
                    format!("tools.{i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{{1,{limit}}}$'"),
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{DEFAULT_AS_OF, check};
    use serde_json::{Value, json};

    fn req<'a>(tools: &'a [Value], as_of: &'a str) -> Request<'a> {
        Request {
            lane: Lane::AnthropicMessages,
            tools,
            tool_choice: None,
            response_format: None,
            as_of,
        }
    }

    #[test]
    fn anthropic_messages_rejects_a_root_any_of_with_the_recorded_message() {
        let tools = [
            json!({"name": "ok", "input_schema": {"type": "object"}}),
            json!({"name": "t", "input_schema": {"type": "object", "anyOf": [{"required": ["a"]}]}}),
        ];
        let r = check(&req(&tools, DEFAULT_AS_OF));
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].rule, "anthropic-root-composition");
        assert_eq!(r[0].tool, Some(1));
        assert_eq!(
            r[0].message,
            "tools.1.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level"
        );
    }

    #[test]
    fn anthropic_messages_accepts_a_nested_composition() {
        let tools = [
            json!({"name": "t", "input_schema": {"type": "object", "properties": {"x": {"oneOf": [{}, {}]}}}}),
        ];
        assert!(check(&req(&tools, DEFAULT_AS_OF)).is_empty());
    }

    #[test]
    fn anthropic_tool_name_limit_follows_the_as_of_date() {
        let long = "a".repeat(100);
        let tools = [json!({"name": long, "input_schema": {"type": "object"}})];
        assert!(check(&req(&tools, "2026-01-01")).is_empty());
        let r = check(&req(&tools, "2025-03-07"));
        assert_eq!(r[0].rule, "anthropic-tool-name-pattern");
        assert_eq!(
            r[0].message,
            "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"
        );
    }
}
