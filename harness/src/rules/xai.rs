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
//! Rules, documented only (structured-outputs page, read 2026-12-01; tool
//! schemas "follow the same JSON Schema support rules"; the message is
//! ours):
//! - `xai-schema-construct-rejected`: an `enum` or `anyOf` with no
//!   variants, a property schema that is `true`/`false`, or array-form
//!   `items` (use `prefixItems`), each documented as a 400.
//!
//! Documented as accepted but not enforced (`not`, `if`/`then`/`else`,
//! multi-schema `allOf`, unlisted formats, values past the enforcement
//! ceilings in `facts::xai`): no rule. The documented length ceilings
//! (`minLength`/`maxLength` up to 2,048) disagree with the recorded 502 for
//! any length keyword; the recording wins (`xai-length-count-constraints`).

use super::model::{Finding, Request, Rule, Status};
use super::{each_schema, finding, nodes};
use crate::facts::{self, xai as fact};
use crate::lane::Lane;
use crate::lookup::Lookup;

const XAI: &[Lane] = &[Lane::Xai];

const STRUCTURED_OUTPUTS: &str = fact::STRUCTURED_OUTPUTS;

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
    Rule {
        id: "xai-schema-construct-rejected",
        lanes: XAI,
        status: Status::Documented,
        summary: "an enum or anyOf with no variants, a true/false property schema, or array-form items",
        docs: &[STRUCTURED_OUTPUTS],
        first_seen: None,
        last_seen: None,
        read: Some(facts::READ),
        status_code: 400,
        check: schema_construct_rejected,
    },
];

/// The documented 400s of one node, as `(path, what)`.
fn rejected_constructs(
    path: &str,
    node: &serde_json::Map<String, serde_json::Value>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for k in ["enum", "anyOf"] {
        if node
            .get(k)
            .and_then(serde_json::Value::as_array)
            .is_some_and(Vec::is_empty)
        {
            out.push((
                format!("{path}/{k}"),
                format!("'{k}' must have at least one variant"),
            ));
        }
    }
    if let Some(props) = node
        .get("properties")
        .and_then(serde_json::Value::as_object)
    {
        for (name, v) in props.iter().filter(|(_, v)| v.is_boolean()) {
            out.push((
                format!("{path}/properties/{}", crate::schema::escape_token(name)),
                format!("property schema {v} is not supported"),
            ));
        }
    }
    if node.field("items").is_some_and(serde_json::Value::is_array) {
        out.push((
            format!("{path}/items"),
            "'items' as an array is not supported (use 'prefixItems')".to_owned(),
        ));
    }
    out
}

fn schema_construct_rejected(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        nodes(req, s)
            .iter()
            .flat_map(|(path, node)| rejected_constructs(path, node))
            .map(|(at, what)| finding(i, &at, format!("Invalid tool schema: {what} (at {at})")))
            .collect()
    })
}

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
        nodes(req, s)
            .iter()
            .filter(|(_, node)| LENGTH_COUNT.iter().any(|k| node.has(k)))
            .map(|(path, _)| finding(i, path, "Invalid arguments passed to the model".to_owned()))
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
    use crate::rules::check;
    use crate::rules::model::DEFAULT_AS_OF;
    use serde_json::{Value, json};

    fn req<'a>(tools: &'a [Value], tool_choice: Option<&'a Value>) -> Request<'a> {
        Request {
            tools_present: true,
            lane: Lane::Xai,
            tools,
            tool_choice,
            response_format: None,
            walks: None,
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

    #[test]
    fn xai_rejects_the_documented_schema_constructs() {
        let tools = [
            json!({"type": "function", "name": "t", "parameters": {"type": "object", "properties": {
                "e": {"type": "string", "enum": []},
                "any": true,
                "pair": {"type": "array", "items": [{"type": "string"}]},
                "u": {"anyOf": []}
            }}}),
        ];
        let r = check(&crate::rules::request(Lane::Xai, &tools, DEFAULT_AS_OF));
        let got: Vec<(&str, &str, &str)> = r
            .iter()
            .map(|x| (x.rule, x.path.as_str(), x.message.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "xai-schema-construct-rejected",
                    "/properties/any",
                    "Invalid tool schema: property schema true is not supported (at /properties/any)"
                ),
                (
                    "xai-schema-construct-rejected",
                    "/properties/e/enum",
                    "Invalid tool schema: 'enum' must have at least one variant (at /properties/e/enum)"
                ),
                (
                    "xai-schema-construct-rejected",
                    "/properties/pair/items",
                    "Invalid tool schema: 'items' as an array is not supported (use 'prefixItems') (at /properties/pair/items)"
                ),
                (
                    "xai-schema-construct-rejected",
                    "/properties/u/anyOf",
                    "Invalid tool schema: 'anyOf' must have at least one variant (at /properties/u/anyOf)"
                ),
            ]
        );
    }

    #[test]
    fn xai_accepts_non_empty_enums_object_property_schemas_and_prefix_items() {
        let tools = [
            json!({"type": "function", "name": "t", "parameters": {"type": "object", "properties": {
                "e": {"type": "string", "enum": ["a"]},
                "pair": {"type": "array", "prefixItems": [{"type": "string"}], "items": false},
                "n": {"not": {"type": "null"}}
            }}}),
        ];
        assert!(check(&crate::rules::request(Lane::Xai, &tools, DEFAULT_AS_OF)).is_empty());
    }
}
