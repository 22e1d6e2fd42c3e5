//! Moonshot / Kimi chat completions ("moonshot flavored json schema"):
//! recorded rejections of function parameters. Moonshot expands `$ref`s
//! before checking, and prints paths with dots (`properties.x`).
//!
//! Rules, recorded:
//! - `moonshot-parameters-type-object`: parameters whose root `type` is
//!   missing or not `object`.
//! - `moonshot-ref-sibling-conflict`: a `$ref` with a sibling keyword that
//!   the referenced schema also sets, to a different value.
//! - `moonshot-type-beside-ref`: a schema with both `type` and `$ref`
//!   (`when using $ref, type should be defined in the referenced schema
//!   instead of the parent schema`), whether or not the target declares the
//!   same type. The validator rules document it too (MFJS `walle.md`: a
//!   `$ref` node declares no `type`). Recorded from public reports,
//!   2026-08-19 to 2026-09-01, all of Codex Desktop's `automation_update`
//!   tool (`$defs.__schema20`: `type`, `minLength`, `format` and
//!   `description` beside a `$ref`, k3 and kimi-k2.7-code on api.kimi.com
//!   and api.moonshot.cn): lidge-jun/opencodex#2673, farion1231/cc-switch
//!   #6614, #6861, #6867 (a minimal `{"$ref": "#/$defs/Mode", "type":
//!   "string"}` property verified against api.moonshot.cn), #6976 and
//!   #7028, router-for-me/CLIProxyAPI#5316 and openai/codex#41233.
//!   opencodex#2673 reads the same tool's seven `$ref`s beside only a
//!   `description` as tolerated, because the error names only
//!   `__schema20` (a validator may stop at its first error). The fix
//!   cc-switch shipped (#6863: each such `$ref` moved into an `allOf`,
//!   its siblings kept) was verified end to end (400 → 200). Every node is
//!   judged where it stands, `$defs` members included.
//! - `moonshot-type-beside-anyof`: a schema with both `type` and `anyOf`
//!   (`when using anyOf, type should be defined in anyOf items instead of
//!   the parent schema`), whether or not the members declare their own
//!   `type`. The validator rules document it too (MFJS `walle.md`: `type`
//!   must not sit beside `anyOf`). Recorded from five public reports,
//!   2026-04-30 to 2026-08-05: nicobailon/pi-subagents#126/#127
//!   (`properties.skill`, a type array beside typed members, via
//!   opencode-go), XiaomiMiMo/MiMo-Code#488 (`properties.operation`),
//!   openclaw/openclaw#113130 (`properties.tasks_attributes.items`, untyped
//!   members, kimi-k2.6 on api.moonshot.ai), abhigyanpatwari/GitNexus#2703
//!   (`root`, untyped members) and MoonshotAI/kimi-code#2661 (`root`, the
//!   Notion `notion-create-attachment` schema, typed members, `k3`). One
//!   report says otherwise: 14790897/MiqroForge-Desktop#1165 (2026-09-21)
//!   found kimi-k3 and kimi-k2.6 on api.moonshot.cn accepting a `type`
//!   beside an `anyOf` of untyped members. The rule stays, dated by its
//!   last rejection; the open question `moonshot-enforcement` keeps the
//!   conflict for a live probe. Every node is judged where it stands,
//!   `$defs` members included.
//! - `moonshot-type-required`: a subschema without `type` (`<At path
//!   'PATH': type is not defined>`). The validator rules say every
//!   subschema declares one, except `{}` (and `additionalProperties: {}`);
//!   an `anyOf` or `$ref` node must not. Recorded from three public
//!   reports, 2026-03-26 to 2026-07-30 (a fourth, earendil-works/pi#4138,
//!   is cited by the research notes): MoonshotAI/kimi-cli#1595
//!   (`properties.truncateMode`, a description only),
//!   earendil-works/pi#5822 (`properties.task`, kimi-k2.7-code)
//!   and luxus/pi-hindsight#550 (`properties.tagGroups.items.properties.match`,
//!   an enum without type, on api.kimi.com with K2.7, k3 and k3-256k; its
//!   fix, a type string, was accepted by all three). Judged only at the
//!   positions MFJS lists (`properties`, `$defs`, a single `items`,
//!   `additionalProperties`, `anyOf` members), never at the root (its own
//!   rule) nor at or under keywords whose reading is not recorded (a node
//!   with `allOf` or `oneOf`, and anything under `allOf`, `oneOf`, `not`
//!   or tuple `items`).
//! - `moonshot-property-schema-not-object`: a value of a `properties` map
//!   that is not an object (`<At path 'properties.tasks.items.properties':
//!   property schema for 'outputSchema' must be an object>`): a boolean
//!   schema (`true`), or a bare `"string"`. Recorded from three public
//!   reports: can1357/oh-my-pi#5918 (2026-07-17, kimi-k3 through
//!   OpenRouter) and #5952 (2026-07-18, K3 and K2.7 Code), both for the
//!   `task` tool's `outputSchema: true`, and diegosouzapw/OmniRoute#13586
//!   (2026-09-13, `<At path 'properties': property schema for 'content'
//!   must be an object>`, "all Moonshot models"). Judged at the root and
//!   the positions MFJS lists, like `moonshot-type-required`.
//! - `moonshot-ref-outside-defs`: a `$ref` other than `#` that does not
//!   start with `#/$defs/` (`<At path 'PATH.$ref': references must start
//!   with #/$defs/>`; the validator rules: `$ref` is internal, `#/$defs/…`
//!   or `#`). Recorded from two public reports: Softeria/ms-365-mcp-server#458
//!   (2026-05-12, kimi k2.6, the message quoted with the path masked) and
//!   NousResearch/hermes-agent#14804 (2026-04-23, kimi-k2.6 via Nous: MCP
//!   servers' draft-07 `#/definitions/…` references rejected until rewritten
//!   to `#/$defs/…`). Every schema node is judged: Moonshot expands
//!   references wherever they stand.
//!
//! - `moonshot-tuple-items`: an `items` that is not an object: a tuple
//!   array (`items must be an object`) or `false`. Recorded from
//!   vercel/ai#18921 (2026-08-14, merged; the fix, `prefixItems` in place
//!   of the array and no `items: false`, verified against the live
//!   validator, which rejected `items: false` too); anomalyco/opencode#39995
//!   (2026-08-01, kimi-k3 in direct API tests) reports tuple `items`
//!   rejected without quoting the text, so it is cited, not recorded.
//!   Every node is judged.
//!
//! Rules, documented only (`facts::moonshot`, tool-use reference read
//! 2026-12-01; the messages are ours):
//! - `moonshot-function-name-pattern`: a name outside
//!   `^[a-zA-Z_][a-zA-Z0-9-_]{2,63}$` (a leading digit is also reported as
//!   a 400 in kimi-cli#2531).
//! - `moonshot-tool-count-limit`: more than 128 functions.
//!
//! The MFJS keyword list (no `format`, `title`, `minimum`, …) stays an open
//! question: the spec itself says unlisted keywords "may not be directly
//! blocked", and its validator notes disagree with it.
//!
//! Left out: a schema depth limit of 10 reported for Kimi K2.6
//! (anomalyco/opencode#25495) is neither recorded nor documented in the
//! research notes.

use serde_json::Value;

use super::model::{Finding, Request, Rule, Status};
use super::{each_schema, finding, nodes};
use crate::facts::{self, moonshot as fact};
use crate::lane::Lane;

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
    Rule {
        id: "moonshot-type-beside-ref",
        lanes: MOONSHOT,
        status: Status::Recorded,
        summary: "a schema with both type and $ref (the type belongs in the referenced schema)",
        docs: &[fact::WALLE],
        first_seen: Some("2026-08-19"),
        last_seen: Some("2026-09-01"),
        read: None,
        status_code: 400,
        check: type_beside_ref,
    },
    Rule {
        id: "moonshot-type-beside-anyof",
        lanes: MOONSHOT,
        status: Status::Recorded,
        summary: "a schema with both type and anyOf (the type belongs in the members)",
        docs: &[fact::WALLE],
        first_seen: Some("2026-04-30"),
        last_seen: Some("2026-08-05"),
        read: None,
        status_code: 400,
        check: type_beside_anyof,
    },
    Rule {
        id: "moonshot-type-required",
        lanes: MOONSHOT,
        status: Status::Recorded,
        summary: "a subschema without type (other than {}, an anyOf or a $ref)",
        docs: &[fact::WALLE],
        first_seen: Some("2026-03-26"),
        last_seen: Some("2026-07-30"),
        read: None,
        status_code: 400,
        check: type_required,
    },
    Rule {
        id: "moonshot-property-schema-not-object",
        lanes: MOONSHOT,
        status: Status::Recorded,
        summary: "a properties value that is not an object (true, false, a bare \"string\")",
        docs: &[],
        first_seen: Some("2026-07-17"),
        last_seen: Some("2026-09-13"),
        read: None,
        status_code: 400,
        check: property_schema_not_object,
    },
    Rule {
        id: "moonshot-ref-outside-defs",
        lanes: MOONSHOT,
        status: Status::Recorded,
        summary: "a $ref other than # that does not start with #/$defs/",
        docs: &[fact::WALLE],
        first_seen: Some("2026-04-23"),
        last_seen: Some("2026-05-12"),
        read: None,
        status_code: 400,
        check: ref_outside_defs,
    },
    Rule {
        id: "moonshot-tuple-items",
        lanes: MOONSHOT,
        status: Status::Recorded,
        summary: "an items that is not an object (a tuple array, false)",
        docs: &[],
        first_seen: Some("2026-08-01"),
        last_seen: Some("2026-08-14"),
        read: None,
        status_code: 400,
        check: tuple_items,
    },
    Rule {
        id: "moonshot-function-name-pattern",
        lanes: MOONSHOT,
        status: Status::Documented,
        summary: "function name outside ^[a-zA-Z_][a-zA-Z0-9-_]{2,63}$",
        docs: &[fact::TOOL_USE],
        first_seen: None,
        last_seen: None,
        read: Some(facts::READ),
        status_code: 400,
        check: function_name_pattern,
    },
    Rule {
        id: "moonshot-tool-count-limit",
        lanes: MOONSHOT,
        status: Status::Documented,
        summary: "more than 128 functions in one request",
        docs: &[fact::TOOL_USE],
        first_seen: None,
        last_seen: None,
        read: Some(facts::READ),
        status_code: 400,
        check: tool_count_limit,
    },
];

/// `^[a-zA-Z_][a-zA-Z0-9-_]{2,63}$`.
fn is_function_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && (3..=fact::NAME_LENGTH.value).contains(&name.chars().count())
}

fn function_name_pattern(req: &Request<'_>) -> Vec<Finding> {
    (0..req.tools.len())
        .filter_map(|i| {
            let name = req.name(i).unwrap_or_default();
            (!is_function_name(name)).then(|| {
                finding(
                    i,
                    "",
                    format!(
                        "tools[{i}].function.name {name:?} does not match {}",
                        fact::NAME_PATTERN
                    ),
                )
            })
        })
        .collect()
}

fn tool_count_limit(req: &Request<'_>) -> Vec<Finding> {
    let max = fact::TOOLS.value;
    let n = req.tools.len();
    if n > max {
        vec![Finding {
            tool: None,
            path: String::new(),
            message: format!("too many tools: {n} functions exceeds the limit of {max}"),
        }]
    } else {
        Vec::new()
    }
}

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

/// The pointer as Moonshot prints it: `properties.variantOptions`, and
/// `root` for the root.
fn dotted(path: &str) -> String {
    if path.is_empty() {
        return "root".to_owned();
    }
    path.trim_start_matches('/')
        .split('/')
        .map(crate::schema::unescape_token)
        .collect::<Vec<_>>()
        .join(".")
}

fn ref_sibling_conflict(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        let mut out = Vec::new();
        for (path, node) in nodes(req, s).iter() {
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
                    path,
                    format!(
                        "Invalid request: tools.function.parameters is not a valid moonshot flavored json schema, details: <At path '{}': conflicting keywords found after $ref expansion: {}>",
                        dotted(path),
                        conflicts.join(", ")
                    ),
                ));
            }
        }
        out
    })
}

fn type_beside_ref(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        nodes(req, s)
            .iter()
            .filter(|(_, node)| node.contains_key("type") && node.contains_key("$ref"))
            .map(|(path, _)| {
                finding(
                    i,
                    path,
                    format!(
                        "Invalid request: tools.function.parameters is not a valid moonshot flavored json schema, details: <At path '{}': when using $ref, type should be defined in the referenced schema instead of the parent schema>",
                        dotted(path)
                    ),
                )
            })
            .collect()
    })
}

fn type_beside_anyof(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        nodes(req, s)
            .iter()
            .filter(|(_, node)| node.contains_key("type") && node.get("anyOf").is_some_and(Value::is_array))
            .map(|(path, _)| {
                finding(
                    i,
                    path,
                    format!(
                        "Invalid request: tools.function.parameters is not a valid moonshot flavored json schema, details: <At path '{}': when using anyOf, type should be defined in anyOf items instead of the parent schema>",
                        dotted(path)
                    ),
                )
            })
            .collect()
    })
}

/// Whether `path` reaches its node only through the keywords MFJS lists
/// (`properties`, `$defs`, a single `items`, `additionalProperties`,
/// `anyOf`): the positions the recorded rejections and the validator rules
/// speak of. A node under another keyword (`allOf`, `oneOf`, `not`, tuple
/// `items`, …) is left alone: how Moonshot reads those is not recorded
/// (one report says it merges `allOf` members), so no rule is guessed.
fn mfjs_position(path: &str) -> bool {
    let mut tokens = path.split('/').skip(1);
    while let Some(keyword) = tokens.next() {
        match keyword {
            "properties" | "$defs" | "anyOf" => {
                if tokens.next().is_none() {
                    return false;
                }
            }
            "items" | "additionalProperties" => {}
            _ => return false,
        }
    }
    true
}

/// A `$ref` Moonshot resolves: `#` (the root) or one starting `#/$defs/`.
fn ref_into_defs(reference: &str) -> bool {
    reference == "#" || reference.starts_with("#/$defs/")
}

fn ref_outside_defs(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        nodes(req, s)
            .iter()
            .filter(|(_, node)| {
                node.get("$ref")
                    .and_then(Value::as_str)
                    .is_some_and(|r| !ref_into_defs(r))
            })
            .map(|(path, _)| {
                let at = if path.is_empty() {
                    "$ref".to_owned()
                } else {
                    format!("{}.$ref", dotted(path))
                };
                finding(
                    i,
                    path,
                    format!(
                        "Invalid request: tools.function.parameters is not a valid moonshot flavored json schema, details: <At path '{at}': references must start with #/$defs/>"
                    ),
                )
            })
            .collect()
    })
}

fn property_schema_not_object(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        let mut out = Vec::new();
        for (path, node) in nodes(req, s).iter() {
            if !(path.is_empty() || mfjs_position(path)) {
                continue;
            }
            let Some(props) = node.get("properties").and_then(Value::as_object) else {
                continue;
            };
            let map = crate::schema::child_path(path, "properties");
            for (name, _) in props.iter().filter(|(_, v)| !v.is_object()) {
                out.push(finding(
                    i,
                    &crate::schema::child_path(&map, name),
                    format!(
                        "Invalid request: tools.function.parameters is not a valid moonshot flavored json schema, details: <At path '{}': property schema for '{name}' must be an object>",
                        dotted(&map)
                    ),
                ));
            }
        }
        out
    })
}

/// A tuple `items` array or `items: false`, the two forms recorded (not
/// `items: true`, which nothing reports). Every node is judged (Moonshot
/// expands references and validates the whole schema). The recorded text
/// is `items must be an object`; the wrapping and the path are the other
/// recorded messages' form.
fn tuple_items(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        nodes(req, s)
            .iter()
            .filter(|(_, node)| {
                node.get("items")
                    .is_some_and(|v| v.is_array() || v == &Value::Bool(false))
            })
            .map(|(path, _)| {
                finding(
                    i,
                    path,
                    format!(
                        "Invalid request: tools.function.parameters is not a valid moonshot flavored json schema, details: <At path '{}': items must be an object>",
                        dotted(path)
                    ),
                )
            })
            .collect()
    })
}

fn type_required(req: &Request<'_>) -> Vec<Finding> {
    each_schema(req, &mut |i, s| {
        nodes(req, s)
            .iter()
            .filter(|(path, node)| {
                !path.is_empty()
                    && !node.is_empty()
                    && !["type", "anyOf", "$ref", "allOf", "oneOf"]
                        .iter()
                        .any(|k| node.contains_key(*k))
                    && mfjs_position(path)
            })
            .map(|(path, _)| {
                finding(
                    i,
                    path,
                    format!(
                        "Invalid request: tools.function.parameters is not a valid moonshot flavored json schema, details: <At path '{}': type is not defined>",
                        dotted(path)
                    ),
                )
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::check;
    use crate::rules::model::DEFAULT_AS_OF;
    use serde_json::json;

    fn req(tools: &[Value]) -> Request<'_> {
        crate::rules::request(Lane::Moonshot, tools, DEFAULT_AS_OF)
    }

    fn tool(parameters: Value) -> Value {
        let mut t = json!({"type": "function", "function": {"name": "fn_t"}});
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
            "properties": {"a": {"$ref": "#/$defs/B", "description": "A"}, "b": {"$ref": "#/$defs/A", "description": "Thing"}},
            "$defs": {"A": {"type": "object", "description": "Thing", "properties": {}}, "B": {"type": "object", "properties": {}}}
        }))];
        assert!(check(&req(&tools)).is_empty());
    }

    fn type_beside_ref_findings(parameters: Value) -> Vec<(String, String)> {
        rule_findings("moonshot-type-beside-ref", parameters)
    }

    fn type_beside_ref_message(at: &str) -> String {
        format!(
            "Invalid request: tools.function.parameters is not a valid moonshot flavored json schema, details: <At path '{at}': when using $ref, type should be defined in the referenced schema instead of the parent schema>"
        )
    }

    #[test]
    fn moonshot_rejects_a_type_beside_a_ref_in_defs_and_in_a_property_even_when_the_target_agrees()
    {
        // opencodex#2673's `$defs.__schema20`, and cc-switch#6867's minimal
        // property: the target declares the same type in both.
        let found = type_beside_ref_findings(json!({
            "type": "object",
            "properties": {"mode": {"$ref": "#/$defs/Mode", "type": "string"}},
            "$defs": {
                "Mode": {"type": "string", "enum": ["a", "b"]},
                "__schema2": {"type": "string", "minLength": 1},
                "__schema20": {"type": "string", "minLength": 1, "format": "uuid", "description": "Target thread UUID", "$ref": "#/$defs/__schema2"}
            }
        }));
        assert_eq!(
            found,
            [
                (
                    "/properties/mode".to_owned(),
                    type_beside_ref_message("properties.mode")
                ),
                (
                    "/$defs/__schema20".to_owned(),
                    type_beside_ref_message("$defs.__schema20")
                ),
            ]
        );
    }

    #[test]
    fn moonshot_accepts_a_ref_beside_only_a_description_and_a_type_beside_all_of() {
        // The form cc-switch#6863 shipped: the reference moved into `allOf`.
        let found = type_beside_ref_findings(json!({
            "type": "object",
            "properties": {
                "a": {"$ref": "#/$defs/A", "description": "A"},
                "b": {"type": "string", "allOf": [{"$ref": "#/$defs/A"}]}
            },
            "$defs": {"A": {"type": "string"}}
        }));
        assert_eq!(found, []);
    }

    #[test]
    fn moonshot_rejects_a_function_name_starting_with_a_digit_or_too_short() {
        let params = json!({"type": "object", "properties": {}});
        let tools: Vec<Value> = [
            "2fa_code",
            "ab",
            "read-file_2",
            &"a".repeat(64),
            &"a".repeat(65),
        ]
        .iter()
        .map(|n| json!({"type": "function", "function": {"name": n, "parameters": params}}))
        .collect();
        let r = check(&crate::rules::request(
            Lane::Moonshot,
            &tools,
            DEFAULT_AS_OF,
        ));
        let got: Vec<(Option<usize>, &str, &str)> = r
            .iter()
            .map(|x| (x.tool, x.rule, x.message.as_str()))
            .collect();
        let long = format!(
            "tools[4].function.name \"{}\" does not match ^[a-zA-Z_][a-zA-Z0-9-_]{{2,63}}$",
            "a".repeat(65)
        );
        assert_eq!(
            got,
            [
                (
                    Some(0),
                    "moonshot-function-name-pattern",
                    "tools[0].function.name \"2fa_code\" does not match ^[a-zA-Z_][a-zA-Z0-9-_]{2,63}$"
                ),
                (
                    Some(1),
                    "moonshot-function-name-pattern",
                    "tools[1].function.name \"ab\" does not match ^[a-zA-Z_][a-zA-Z0-9-_]{2,63}$"
                ),
                (Some(4), "moonshot-function-name-pattern", long.as_str()),
            ]
        );
    }

    #[test]
    fn moonshot_rejects_129_functions_and_accepts_128() {
        let tools: Vec<Value> = (0..129)
            .map(|k| json!({"type": "function", "function": {"name": format!("fn_{k}"), "parameters": {"type": "object", "properties": {}}}}))
            .collect();
        let r = check(&crate::rules::request(
            Lane::Moonshot,
            &tools,
            DEFAULT_AS_OF,
        ));
        assert_eq!(r.len(), 1, "{r:#?}");
        assert_eq!(r[0].rule, "moonshot-tool-count-limit");
        assert_eq!(r[0].tool, None);
        assert_eq!(
            r[0].message,
            "too many tools: 129 functions exceeds the limit of 128"
        );
        assert!(
            check(&crate::rules::request(
                Lane::Moonshot,
                &tools[..128],
                DEFAULT_AS_OF
            ))
            .is_empty()
        );
    }

    /// `rule`'s findings on one tool with these parameters: (path, message).
    fn rule_findings(rule: &str, parameters: Value) -> Vec<(String, String)> {
        let tools = [tool(parameters)];
        check(&req(&tools))
            .into_iter()
            .filter(|r| r.rule == rule)
            .map(|r| (r.path, r.message))
            .collect()
    }

    fn type_beside_anyof_findings(parameters: Value) -> Vec<(String, String)> {
        rule_findings("moonshot-type-beside-anyof", parameters)
    }

    fn type_beside_anyof_message(at: &str) -> String {
        format!(
            "Invalid request: tools.function.parameters is not a valid moonshot flavored json schema, details: <At path '{at}': when using anyOf, type should be defined in anyOf items instead of the parent schema>"
        )
    }

    #[test]
    fn moonshot_rejects_a_root_type_beside_an_anyof_of_typed_members() {
        // MoonshotAI/kimi-code#2661: the members declare `type` too.
        let got = type_beside_anyof_findings(json!({
            "type": "object",
            "anyOf": [
                {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]}
            ]
        }));
        assert_eq!(got, [(String::new(), type_beside_anyof_message("root"))]);
    }

    #[test]
    fn moonshot_rejects_a_type_array_beside_anyof_in_a_property_and_in_items() {
        // pi-subagents#127 (`properties.skill`) and openclaw#113130
        // (`properties.tasks_attributes.items`, untyped members).
        let got = type_beside_anyof_findings(json!({
            "type": "object",
            "properties": {
                "skill": {"type": ["string", "array", "boolean"], "anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "boolean"}, {"type": "string"}]},
                "tasks_attributes": {"type": "array", "items": {"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}}
            }
        }));
        assert_eq!(
            got,
            [
                (
                    "/properties/skill".to_owned(),
                    type_beside_anyof_message("properties.skill")
                ),
                (
                    "/properties/tasks_attributes/items".to_owned(),
                    type_beside_anyof_message("properties.tasks_attributes.items")
                ),
            ]
        );
    }

    #[test]
    fn moonshot_accepts_anyof_without_a_type_beside_it_and_type_beside_oneof() {
        // Only `anyOf` is recorded; a typeless `anyOf` node is what the
        // message asks for.
        let got = type_beside_anyof_findings(json!({
            "type": "object",
            "properties": {
                "a": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                "b": {"type": "string", "oneOf": [{"minLength": 1}, {"maxLength": 0}]},
                "c": {"type": "string", "description": "anyOf"},
                "anyOf": {"type": "string"}
            }
        }));
        assert_eq!(got, []);
    }

    fn type_required_findings(parameters: Value) -> Vec<(String, String)> {
        rule_findings("moonshot-type-required", parameters)
    }

    fn type_required_message(at: &str) -> String {
        format!(
            "Invalid request: tools.function.parameters is not a valid moonshot flavored json schema, details: <At path '{at}': type is not defined>"
        )
    }

    #[test]
    fn moonshot_rejects_an_untyped_property_an_untyped_enum_in_items_and_an_untyped_anyof_member() {
        // kimi-cli#1595 (a description only), pi-hindsight#550 (an enum
        // under items), and an anyOf member (the validator rules: every
        // subschema).
        let got = type_required_findings(json!({
            "type": "object",
            "properties": {
                "truncateMode": {"description": "截断模式"},
                "tagGroups": {"type": "array", "items": {"type": "object", "properties": {"match": {"enum": ["any", "all"]}}}},
                "v": {"anyOf": [{"type": "string"}, {"minimum": 0}]},
                "m": {"type": "object", "additionalProperties": {"description": "any value"}}
            },
            "$defs": {"D": {"properties": {"x": {"type": "string"}}}}
        }));
        assert_eq!(
            got,
            [
                (
                    "/properties/truncateMode".to_owned(),
                    type_required_message("properties.truncateMode")
                ),
                (
                    "/properties/tagGroups/items/properties/match".to_owned(),
                    type_required_message("properties.tagGroups.items.properties.match")
                ),
                (
                    "/properties/v/anyOf/1".to_owned(),
                    type_required_message("properties.v.anyOf.1")
                ),
                (
                    "/properties/m/additionalProperties".to_owned(),
                    type_required_message("properties.m.additionalProperties")
                ),
                ("/$defs/D".to_owned(), type_required_message("$defs.D")),
            ]
        );
    }

    #[test]
    fn moonshot_type_required_spares_empty_anyof_ref_and_unrecorded_positions() {
        // `{}` is exempt, `anyOf` and `$ref` nodes must not carry a type,
        // the root has its own rule, and nothing is guessed under keywords
        // MFJS does not list (`allOf`, `oneOf`, `not`, tuple `items`).
        let got = type_required_findings(json!({
            "properties": {
                "any": {},
                "u": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "d"},
                "r": {"$ref": "#/$defs/S", "description": "d"},
                "a": {"allOf": [{"minLength": 1}]},
                "o": {"type": "string", "oneOf": [{"minLength": 1}]},
                "n": {"type": "string", "not": {"enum": ["x"]}},
                "t": {"type": "array", "items": [{"enum": [1]}]}
            },
            "$defs": {"S": {"type": "string"}}
        }));
        assert_eq!(got, []);
    }

    fn ref_outside_defs_paths(parameters: Value) -> Vec<String> {
        rule_findings("moonshot-ref-outside-defs", parameters)
            .into_iter()
            .map(|(path, _)| path)
            .collect()
    }

    #[test]
    fn moonshot_rejects_a_ref_that_does_not_start_with_defs() {
        // ms-365-mcp-server#458 (`….startDateTime.$ref`), hermes-agent#14804
        // (draft-07 `#/definitions/…`).
        let found = rule_findings(
            "moonshot-ref-outside-defs",
            json!({"type":"object","properties":{"startDateTime":{"$ref":"#/definitions/DateTime"}},"definitions":{"DateTime":{"type":"string"}}}),
        );
        assert_eq!(
            found,
            [(
                "/properties/startDateTime".to_owned(),
                "Invalid request: tools.function.parameters is not a valid moonshot flavored json schema, details: <At path 'properties.startDateTime.$ref': references must start with #/$defs/>".to_owned()
            )]
        );
        assert_eq!(
            ref_outside_defs_paths(
                json!({"type":"object","properties":{"a":{"$ref":"#/properties/b"},"b":{"type":"string"},"c":{"$ref":"other.json#/x"},"d":{"allOf":[{"$ref":"#foo"}]}}}),
            ),
            ["/properties/a", "/properties/c", "/properties/d/allOf/0"]
        );
    }

    #[test]
    fn moonshot_accepts_a_ref_into_defs_and_the_root_ref() {
        assert_eq!(
            ref_outside_defs_paths(
                json!({"type":"object","properties":{"a":{"$ref":"#/$defs/A"},"n":{"$ref":"#"}},"$defs":{"A":{"type":"object","properties":{"b":{"$ref":"#/$defs/A/properties/c"},"c":{"type":"string"}}}}}),
            ),
            Vec::<String>::new()
        );
    }

    /// oh-my-pi#5952 (`outputSchema: true` nested in items) and
    /// OmniRoute#13586 (a bare `"string"` at the root's properties), in
    /// Moonshot's wording; an object property schema and a `properties`
    /// map under `allOf` (not a position MFJS lists) are not judged.
    #[test]
    fn moonshot_rejects_a_property_schema_that_is_not_an_object() {
        let found = rule_findings(
            "moonshot-property-schema-not-object",
            json!({"type": "object", "properties": {
                "tasks": {"type": "array", "items": {"type": "object", "properties": {
                    "prompt": {"type": "string"},
                    "outputSchema": true
                }}},
                "content": "string",
                "either": {"allOf": [{"properties": {"x": false}}]}
            }}),
        );
        let message = |at: &str, name: &str| {
            format!(
                "Invalid request: tools.function.parameters is not a valid moonshot flavored json schema, details: <At path '{at}': property schema for '{name}' must be an object>"
            )
        };
        assert_eq!(
            found,
            [
                (
                    "/properties/content".to_owned(),
                    message("properties", "content")
                ),
                (
                    "/properties/tasks/items/properties/outputSchema".to_owned(),
                    message("properties.tasks.items.properties", "outputSchema")
                ),
            ]
        );
    }

    /// vercel/ai#18921: a tuple items array and `items: false` are
    /// rejected wherever they stand; a single items schema, `items: true`
    /// and `prefixItems` (the accepted fix) are not.
    #[test]
    fn moonshot_rejects_tuple_items_and_items_false() {
        let found = rule_findings(
            "moonshot-tuple-items",
            json!({"type": "object", "properties": {
                "pt": {"type": "array", "items": [{"type": "number"}, {"type": "number"}]},
                "e": {"type": "array", "items": false},
                "s": {"type": "array", "items": {"type": "string"}},
                "t": {"type": "array", "items": true},
                "p": {"type": "array", "prefixItems": [{"type": "number"}]},
                "n": {"allOf": [{"type": "array", "items": [{"type": "string"}]}]}
            }}),
        );
        let message = |at: &str| {
            format!(
                "Invalid request: tools.function.parameters is not a valid moonshot flavored json schema, details: <At path '{at}': items must be an object>"
            )
        };
        assert_eq!(
            found,
            [
                ("/properties/pt".to_owned(), message("properties.pt")),
                ("/properties/e".to_owned(), message("properties.e")),
                (
                    "/properties/n/allOf/0".to_owned(),
                    message("properties.n.allOf.0")
                ),
            ]
        );
    }
}
