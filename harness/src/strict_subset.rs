//! Anthropic's strict tool-use subset as checks over plain data (the
//! figures and formats come from the provider-facts table), below both the passes
//! (which shape for it) and the oracle rules (which judge against it), so a
//! pass never asks the oracle that judges it. The figures and constructs are
//! the documented JSON Schema limitations of structured outputs
//! (<https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations>,
//! <https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use>)
//! and the recorded compiler budget (recording
//! `anthropic-strict-schema-too-complex-5230`).
//!
//! Each check looks at one schema (every schema position, as
//! [`schema::visit`] walks them) and answers in the provider's words, with
//! the schema's location (`tools.N.custom`) supplied by the caller.

use serde_json::{Map, Value};

use crate::facts::anthropic as facts;
use crate::schema::{self, TooDeep};

/// Strict tools in one request before the grammar compiler gives up (a
/// request-wide budget: one tool never reaches it, so no pass reads it yet).
#[allow(dead_code)]
pub(crate) const MAX_STRICT_TOOLS: usize = facts::STRICT_TOOLS.value;
/// Optional properties across the strict schemas of one request.
pub(crate) const MAX_OPTIONAL_PROPERTIES: usize = facts::STRICT_OPTIONAL.value;
/// Union-typed properties (`anyOf`, or a `type` list of two or more names)
/// across the strict schemas of one request.
pub(crate) const MAX_UNION_PROPERTIES: usize = facts::STRICT_UNIONS.value;

/// The string formats strict mode supports.
pub(crate) const FORMATS: &[&str] = facts::STRICT_FORMATS.items;

/// The compiler's message when a request is over its budget.
pub(crate) const TOO_COMPLEX: &str = "Schema is too complex for compilation. Try reducing the number of tools or simplifying tool schemas.";

/// One schema object and its pointer.
type Node = (String, Map<String, Value>);

/// Every schema object of `root` with its pointer, in walk order.
fn nodes(root: &Value) -> Result<Vec<Node>, TooDeep> {
    let mut out = Vec::new();
    schema::visit(root, &mut |path, node| {
        out.push((path.to_owned(), node.clone()));
    })?;
    Ok(out)
}

/// Properties of one object node that its `required` does not list.
fn optional_count(node: &Map<String, Value>) -> usize {
    let Some(props) = node.get("properties").and_then(Value::as_object) else {
        return 0;
    };
    let required = schema::required_names(node);
    props.keys().filter(|k| !required.contains(k)).count()
}

/// A property whose schema is a union: `anyOf`, or a `type` list of two or
/// more names.
fn is_union(v: &Value) -> bool {
    v.get("anyOf").is_some()
        || v.get("type")
            .and_then(Value::as_array)
            .is_some_and(|t| t.len() > 1)
}

/// What one strict schema counts against the request-wide budgets.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Budget {
    pub(crate) optional_properties: usize,
    pub(crate) union_properties: usize,
}

/// The optional and union-typed properties of `root`, at every position.
pub(crate) fn budget(root: &Value) -> Result<Budget, TooDeep> {
    let mut b = Budget::default();
    for (_, node) in nodes(root)? {
        b.optional_properties += optional_count(&node);
        if let Some(props) = node.get("properties").and_then(Value::as_object) {
            b.union_properties += props.values().filter(|v| is_union(v)).count();
        }
    }
    Ok(b)
}

/// The union-limit message for `unions` union-typed properties.
pub(crate) fn too_many_unions(unions: usize) -> String {
    format!(
        "Schemas contains too many parameters with union types ({unions} parameters with union types, limit: {MAX_UNION_PROPERTIES})"
    )
}

/// The local `$ref`s of one schema: (pointer of the referring node, target
/// pointer inside the schema).
fn local_refs(nodes: &[Node]) -> Vec<(String, String)> {
    nodes
        .iter()
        .filter_map(|(path, node)| {
            let r = node.get("$ref")?.as_str()?;
            let target = r.strip_prefix('#')?;
            Some((path.clone(), target.to_owned()))
        })
        .collect()
}

/// `path` lies at or below `root` (JSON Pointers).
pub(crate) fn within(path: &str, root: &str) -> bool {
    path == root
        || path
            .strip_prefix(root)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// A target is recursive when the refs inside it lead back to it.
pub(crate) fn is_recursive(target: &str, refs: &[(String, String)]) -> bool {
    let mut seen: Vec<&str> = Vec::new();
    let mut todo: Vec<&str> = vec![target];
    while let Some(t) = todo.pop() {
        for (at, next) in refs {
            if within(at, t) {
                if next == target {
                    return true;
                }
                if !seen.contains(&next.as_str()) {
                    seen.push(next);
                    todo.push(next);
                }
            }
        }
    }
    false
}

/// The pattern has a backreference (`\1`…`\9`, `\k<name>`) outside a
/// character class. Escapes and classes are consumed as units, as in
/// `ecma::groups`.
pub(crate) fn has_backreference(pattern: &str) -> bool {
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                match chars.get(i + 1) {
                    Some('1'..='9') => return true,
                    Some('k') if chars.get(i + 2) == Some(&'<') => return true,
                    _ => {}
                }
                i += 2;
            }
            '[' => {
                i += 1;
                while i < chars.len() && chars[i] != ']' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    false
}

/// One construct of a schema outside the strict subset: the rule id that
/// names it and the provider's message (located at `at`, e.g.
/// `tools.0.custom`).
pub(crate) type Offence = (&'static str, String);

/// Every per-schema construct outside the strict subset, grouped by rule
/// id in id order, then in walk order: external `$ref`s, unsupported
/// formats, `minItems` other than 0 or 1, lookaround/backreference
/// patterns, recursive `$ref`s.
pub(crate) fn offences(root: &Value, at: &str) -> Result<Vec<Offence>, TooDeep> {
    let nodes = nodes(root)?;
    let mut out = Vec::new();
    for (_, node) in &nodes {
        if let Some(r) = node.get("$ref").and_then(Value::as_str)
            && !r.starts_with('#')
        {
            out.push((
                "anthropic-strict-external-ref",
                format!("{at}: external $ref '{r}' is not supported"),
            ));
        }
    }
    for (_, node) in &nodes {
        if let Some(f) = node.get("format").and_then(Value::as_str)
            && !FORMATS.contains(&f)
        {
            out.push((
                "anthropic-strict-format-unsupported",
                format!("{at}: For 'string' type, format '{f}' is not supported"),
            ));
        }
    }
    for (_, node) in &nodes {
        if let Some(n) = node.get("minItems") {
            let allowed = n
                .as_f64()
                .is_some_and(|n| (0.0..=1.0).contains(&n) && n.fract().abs() < f64::EPSILON);
            if !allowed {
                out.push((
                    "anthropic-strict-minitems-0-or-1",
                    format!(
                        "{at}: For 'array' type, 'minItems' values other than 0 or 1 are not supported"
                    ),
                ));
            }
        }
    }
    for (_, node) in &nodes {
        if let Some(p) = node.get("pattern").and_then(Value::as_str)
            && let Some(lookaround) = crate::ecma::has_lookaround(p)
            && (lookaround || has_backreference(p))
        {
            out.push((
                "anthropic-strict-pattern-unsupported",
                format!(
                    "{at}: 'pattern' uses a lookaround or a backreference, which strict mode does not support"
                ),
            ));
        }
    }
    let refs = local_refs(&nodes);
    let mut reported: Vec<&str> = Vec::new();
    for (_, target) in &refs {
        if !reported.contains(&target.as_str()) && is_recursive(target, &refs) {
            reported.push(target);
            out.push((
                "anthropic-strict-recursive-schema",
                format!(
                    "{at}: recursive schemas are not supported ($ref '#{target}' refers back to itself)"
                ),
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_budget_counts_optional_and_union_properties_at_every_position() {
        let s = json!({"type":"object","properties":{
            "a":{"type":["string","null"]},
            "b":{"anyOf":[{"type":"string"},{"type":"integer"}]},
            "o":{"type":"object","properties":{"c":{"type":"string"},"d":{"type":"string"}},"required":["c"]}
        },"required":["a"]});
        assert_eq!(
            budget(&s),
            Ok(Budget {
                optional_properties: 3,
                union_properties: 2
            })
        );
    }

    #[test]
    fn offences_name_the_rule_and_the_provider_message_in_rule_order() {
        let s = json!({"type":"object","$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}}}},
        "properties":{
            "p":{"type":"string","pattern":"^(?!x)","format":"color"},
            "q":{"type":"string","pattern":"(a)\\1"},
            "r":{"type":"string","pattern":"[\\1]"},
            "e":{"$ref":"https://example.com/e.json"},
            "l":{"type":"array","minItems":2},
            "n":{"$ref":"#/$defs/n"}
        }});
        assert_eq!(
            offences(&s, "tools.0.custom").unwrap(),
            [
                (
                    "anthropic-strict-external-ref",
                    "tools.0.custom: external $ref 'https://example.com/e.json' is not supported".to_owned()
                ),
                (
                    "anthropic-strict-format-unsupported",
                    "tools.0.custom: For 'string' type, format 'color' is not supported".to_owned()
                ),
                (
                    "anthropic-strict-minitems-0-or-1",
                    "tools.0.custom: For 'array' type, 'minItems' values other than 0 or 1 are not supported".to_owned()
                ),
                (
                    "anthropic-strict-pattern-unsupported",
                    "tools.0.custom: 'pattern' uses a lookaround or a backreference, which strict mode does not support".to_owned()
                ),
                (
                    "anthropic-strict-pattern-unsupported",
                    "tools.0.custom: 'pattern' uses a lookaround or a backreference, which strict mode does not support".to_owned()
                ),
                (
                    "anthropic-strict-recursive-schema",
                    "tools.0.custom: recursive schemas are not supported ($ref '#/$defs/n' refers back to itself)".to_owned()
                ),
            ]
        );
        assert_eq!(
            offences(
                &json!({"type":"object","properties":{"a":{"type":"string","format":"uri"}}}),
                "x"
            ),
            Ok(Vec::new())
        );
    }
}
