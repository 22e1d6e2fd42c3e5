//! Moonshot / Kimi chat completions ("moonshot flavored json schema"):
//! recorded rejections of function parameters. Moonshot expands `$ref`s
//! before checking, and prints paths with dots (`properties.x`).
//!
//! Rules, recorded:
//! - `moonshot-parameters-type-object`: parameters whose root `type` is
//!   missing or not `object`.
//! - `moonshot-ref-sibling-conflict`: a `$ref` with a sibling keyword that
//!   the referenced schema also sets, to a different value.
//!
//! Left out: a schema depth limit of 10 reported for Kimi K2.6
//! (anomalyco/opencode#25495) is neither recorded nor documented in the
//! research notes.

use serde_json::Value;

use super::{each_schema, finding, nodes};
use crate::lane::Lane;
use crate::oracle::{Finding, Request, Rule, Status};

const MOONSHOT: &[Lane] = &[Lane::Moonshot];

/// The rules of this provider.
pub(crate) static RULES: &[Rule] = &[
    Rule {
        id: "moonshot-parameters-type-object",
        lanes: MOONSHOT,
        status: Status::Recorded,
        summary: "parameters without a root type: object",
        docs: &[],
        first_seen: Some("2026-08-15"),
        last_seen: Some("2026-08-15"),
        read: None,
        status_code: 400,
        check: parameters_type_object,
    },
    Rule {
        id: "moonshot-ref-sibling-conflict",
        lanes: MOONSHOT,
        status: Status::Recorded,
        summary: "a $ref sibling keyword that differs from the same keyword of its target",
        docs: &[],
        first_seen: Some("2026-04-24"),
        last_seen: Some("2026-04-24"),
        read: None,
        status_code: 400,
        check: ref_sibling_conflict,
    },
];

/// A tool without `parameters` is a function without arguments: not this rule.
fn parameters_type_object(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        if s.get("type").and_then(Value::as_str) == Some("object") {
            Vec::new()
        } else {
            vec![finding(
                i,
                "",
                "tools.function.parameters.type is required and must be \"object\"".to_owned(),
            )]
        }
    })
}

/// The pointer as Moonshot prints it: `properties.variantOptions`.
fn dotted(path: &str) -> String {
    path.trim_start_matches('/')
        .split('/')
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect::<Vec<_>>()
        .join(".")
}

fn ref_sibling_conflict(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        let mut out = Vec::new();
        for (path, node) in nodes(s) {
            let Some(target) = node
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix('#'))
                .and_then(|p| s.pointer(p))
                .and_then(Value::as_object)
            else {
                continue;
            };
            let conflicts: Vec<&str> = node
                .iter()
                .filter(|(k, v)| *k != "$ref" && target.get(*k).is_some_and(|t| t != *v))
                .map(|(k, _)| k.as_str())
                .collect();
            if !conflicts.is_empty() {
                out.push(finding(
                    i,
                    &path,
                    format!(
                        "Invalid request: tools.function.parameters is not a valid moonshot flavored json schema, details: <At path '{}': conflicting keywords found after $ref expansion: {}>",
                        dotted(&path),
                        conflicts.join(", ")
                    ),
                ));
            }
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{DEFAULT_AS_OF, check};
    use serde_json::json;

    fn req(tools: &[Value]) -> Request<'_> {
        crate::rules::request(Lane::Moonshot, tools, DEFAULT_AS_OF)
    }

    fn tool(parameters: Value) -> Value {
        let mut t = json!({"type": "function", "function": {"name": "t"}});
        t["function"]["parameters"] = parameters;
        t
    }

    #[test]
    fn moonshot_rejects_parameters_without_type() {
        let tools = [tool(
            json!({"properties": {"query": {"type": "string"}}, "required": ["query"]}),
        )];
        let r = check(&req(&tools));
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].rule, "moonshot-parameters-type-object");
        assert_eq!(
            r[0].message,
            "tools.function.parameters.type is required and must be \"object\""
        );
    }

    #[test]
    fn moonshot_accepts_an_object_root_with_an_untyped_property() {
        let tools = [tool(json!({"type": "object", "properties": {"q": {}}}))];
        assert!(check(&req(&tools)).is_empty());
    }

    #[test]
    fn moonshot_rejects_a_ref_whose_description_differs_from_its_target() {
        let tools = [tool(json!({
            "type": "object",
            "properties": {"variantOptions": {"$ref": "#/$defs/VariantOptions", "description": "Options for the variant"}},
            "$defs": {"VariantOptions": {"type": "object", "description": "Variant configuration", "properties": {}}}
        }))];
        let r = check(&req(&tools));
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].rule, "moonshot-ref-sibling-conflict");
        assert_eq!(r[0].path, "/properties/variantOptions");
        assert_eq!(
            r[0].message,
            "Invalid request: tools.function.parameters is not a valid moonshot flavored json schema, details: <At path 'properties.variantOptions': conflicting keywords found after $ref expansion: description>"
        );
    }

    #[test]
    fn moonshot_accepts_a_ref_sibling_the_target_does_not_set_or_sets_equally() {
        let tools = [tool(json!({
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A", "description": "A"}, "b": {"$ref": "#/$defs/A", "type": "object"}},
            "$defs": {"A": {"type": "object", "properties": {}}}
        }))];
        assert!(check(&req(&tools)).is_empty());
    }
}
