//! `type-any-of-members`: every `anyOf` member gets a `type` on
//! `deepseek-chat` (rule `deepseek-anyof-member-missing-type`, recorded:
//! `Invalid tool parameters schema : field `anyOf`: missing field `type``;
//! DeepSeek parses each member into a struct whose `type` is required).
//!
//! Bottom-up over every schema position, for a node whose `anyOf` has an
//! object member with neither `type` nor `$ref` (the members the rule
//! flags):
//! 1. a member that is only a nested `anyOf` is spliced into the parent's
//!    (anyOf is associative: exact);
//! 2. a member that is only `not: {}` matches nothing and is dropped while
//!    another member remains (exact);
//! 3. when the node declares no `type` and a flagged member asserts nothing
//!    (only annotations or unknown keywords), the member accepts every value,
//!    so the whole `anyOf` constrains nothing and is removed (exact);
//! 4. each flagged member gets a type: the node's own `type` when it has
//!    one (every instance there already has it: exact); else the type its
//!    `const`, `enum`, local `$ref` target or composition implies (exact);
//!    else the one type family its keywords constrain (`properties` or
//!    `required` → object, `items` → array, `pattern` → string, `minimum`
//!    → number; a narrowing, recorded as such). Several types become a type
//!    array; `number` absorbs `integer`.
//!
//! A flagged member with no inferable type fails the tool closed.

use std::ops::ControlFlow;

use serde_json::{Map, Value, json};

use super::keywords::{FAMILIES, OTHER_ASSERTIONS};
use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::{self, ChildKey, NodePath, PastLimit, TooDeep};
use crate::tool::Tool;

/// How far `$ref` chains and nested compositions are followed.
const INFER_DEPTH: usize = 16;

/// See the module docs. The flags are the pass's mutation points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TypeAnyOfMembers {
    pub(crate) inherit_parent_type: bool,
    pub(crate) flatten_wrappers: bool,
    pub(crate) drop_never_members: bool,
    pub(crate) drop_vacuous: bool,
    pub(crate) infer_from_keywords: bool,
}

impl Default for TypeAnyOfMembers {
    fn default() -> Self {
        Self {
            inherit_parent_type: true,
            flatten_wrappers: true,
            drop_never_members: true,
            drop_vacuous: true,
            infer_from_keywords: true,
        }
    }
}

/// The member the rule flags: an object without `type` or `$ref`.
fn flagged(m: &Value) -> bool {
    m.as_object()
        .is_some_and(|o| !o.has("type") && !o.has("$ref"))
}

fn asserts_something(m: &Map<String, Value>) -> bool {
    m.keys().any(|k| {
        OTHER_ASSERTIONS.contains(&k.as_str())
            || FAMILIES.iter().any(|(_, kws)| kws.contains(&k.as_str()))
    })
}

/// Whether a `$ref` sits anywhere inside an `anyOf` member: only there can
/// typing a member resolve one (a flagged member has no `$ref` of its own;
/// its branches, and the targets they lead to, may).
fn ref_inside_members(schema: &Value) -> Result<bool, TooDeep> {
    let found = schema::walk::<bool, ()>(
        schema,
        PastLimit::Fail,
        false,
        &mut |_, node, inside| {
            if inside && node.has("$ref") {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(Some(inside))
            }
        },
        &|inside, _, child| Some(*inside || matches!(child, ChildKey::Indexed("anyOf", _))),
    )?;
    Ok(found.is_break())
}

/// A member that is only a nested `anyOf` list.
fn wrapper(m: &Map<String, Value>) -> bool {
    m.len() == 1 && matches!(m.field("anyOf"), Some(Value::Array(_)))
}

/// `{"not": {}}` (or `not: true`): matches no value.
fn matches_nothing(m: &Value) -> bool {
    m.as_object().is_some_and(|o| {
        o.len() == 1
            && match o.field("not") {
                Some(Value::Bool(b)) => *b,
                Some(Value::Object(n)) => n.is_empty(),
                _ => false,
            }
    })
}

pub(super) fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Add the names of `ty` (a `type` value) to `out`; `false` when it is not
/// a string or an array of strings.
pub(super) fn add_types(ty: &Value, out: &mut Vec<String>) -> bool {
    let names: Vec<&str> = match ty {
        Value::String(s) => vec![s.as_str()],
        Value::Array(a) if !a.is_empty() && a.iter().all(Value::is_string) => {
            a.iter().filter_map(Value::as_str).collect()
        }
        _ => return false,
    };
    for n in names {
        if !out.iter().any(|o| o == n) {
            out.push(n.to_owned());
        }
    }
    true
}

/// The `type` value for a list of names: one string, or an array.
pub(super) fn type_value(mut names: Vec<String>) -> Value {
    if names.iter().any(|n| n == "number") {
        names.retain(|n| n != "integer");
    }
    if names.len() == 1 {
        json!(names[0])
    } else {
        json!(names)
    }
}

/// The types a member's own assertions imply exactly (`type`, `$ref`
/// target, `const`, `enum`, compositions), as names.
pub(super) fn exact_types(
    m: &Map<String, Value>,
    root: &Value,
    depth: usize,
) -> Option<Vec<String>> {
    if depth > INFER_DEPTH {
        return None;
    }
    let mut out = Vec::new();
    if let Some(t) = m.field("type") {
        return add_types(t, &mut out).then_some(out);
    }
    if let Some(target) = m
        .field("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
        .and_then(|p| root.pointer(p))
        .and_then(Value::as_object)
        && let Some(t) = exact_types(target, root, depth + 1)
    {
        return Some(t);
    }
    if let Some(c) = m.field("const") {
        return Some(vec![json_type(c).to_owned()]);
    }
    if let Some(Value::Array(values)) = m.field("enum")
        && !values.is_empty()
    {
        for v in values {
            add_types(&json!(json_type(v)), &mut out);
        }
        return Some(out);
    }
    for kw in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = m.field(kw)
            && !branches.is_empty()
        {
            let mut all = Vec::new();
            let every = branches.iter().all(|b| {
                b.as_object()
                    .and_then(|b| exact_types(b, root, depth + 1))
                    .is_some_and(|t| t.iter().all(|n| add_types(&json!(n), &mut all)))
            });
            if every {
                return Some(all);
            }
        }
    }
    if let Some(Value::Array(branches)) = m.field("allOf") {
        return branches
            .iter()
            .filter_map(Value::as_object)
            .find_map(|b| exact_types(b, root, depth + 1));
    }
    None
}

/// The one type family a member's keywords constrain.
pub(super) fn family_type(m: &Map<String, Value>) -> Option<&'static str> {
    let mut found = FAMILIES
        .iter()
        .filter(|(_, kws)| m.keys().any(|k| kws.contains(&k.as_str())))
        .map(|(t, _)| *t);
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

impl TypeAnyOfMembers {
    /// Rewrite one node's `anyOf`; `Err` = fail closed with that reason.
    fn fix_node(
        self,
        path: &NodePath<'_>,
        node: &mut Map<String, Value>,
        root: &Value,
        cx: &mut Cx<'_>,
    ) -> Result<(), String> {
        let Some(Value::Array(members)) = node.field_mut("anyOf") else {
            return Ok(());
        };
        if !members.iter().any(flagged) {
            return Ok(());
        }
        // The members move out (the key keeps its place) and back in below,
        // or the key goes; a tool failing closed is dropped whole.
        let members = std::mem::take(members);
        let at = format!("{path}/anyOf");
        // Each member with the pointer it had in the received schema.
        let mut list: Vec<(String, Value)> = Vec::new();
        let mut spliced = false;
        for (i, m) in members.into_iter().enumerate() {
            match m {
                Value::Object(mut o) if self.flatten_wrappers && wrapper(&o) => {
                    spliced = true;
                    if let Some(Value::Array(inner)) = o.shift_remove("anyOf") {
                        for (j, x) in inner.into_iter().enumerate() {
                            list.push((format!("{at}/{i}/anyOf/{j}"), x));
                        }
                    }
                }
                m => list.push((format!("{at}/{i}"), m)),
            }
        }
        if spliced {
            cx.record(
                path,
                "anyOf",
                Action::Rewritten,
                "a nested anyOf wrapper without type: its members spliced into this anyOf (exact)",
            );
        }
        if self.drop_never_members && list.iter().any(|(_, m)| !matches_nothing(m)) {
            let before = list.len();
            list.retain(|(from, m)| {
                let never = matches_nothing(m);
                if never {
                    cx.record(
                        from,
                        "not",
                        Action::Removed,
                        "anyOf member `not: {}` matches nothing: dropped (exact)",
                    );
                }
                !never
            });
            if list.len() != before {
                cx.record(
                    path,
                    "anyOf",
                    Action::Rewritten,
                    "members that match nothing dropped",
                );
            }
        }
        let parent = node
            .field("type")
            .filter(|_| self.inherit_parent_type)
            .cloned();
        if parent.is_none()
            && self.drop_vacuous
            && let Some((from, _)) = list
                .iter()
                .find(|(_, m)| flagged(m) && m.as_object().is_some_and(|o| !asserts_something(o)))
        {
            let reason = format!(
                "member {from} asserts nothing and accepts every value: the anyOf constrains nothing (exact)"
            );
            node.shift_remove("anyOf");
            cx.record(path, "anyOf", Action::Removed, reason);
            return Ok(());
        }
        let mut out = Vec::with_capacity(list.len());
        for (from, mut m) in list {
            if let Some(obj) = m
                .as_object_mut()
                .filter(|o| !o.has("type") && !o.has("$ref"))
            {
                let (ty, reason) = if let Some(t) = &parent {
                    (
                        t.clone(),
                        "the node's own type: every instance here has it (exact)".to_owned(),
                    )
                } else if let Some(names) = exact_types(obj, root, 0) {
                    (
                        type_value(names),
                        "implied by the member's const, enum, $ref or composition (exact)"
                            .to_owned(),
                    )
                } else if let Some(t) = family_type(obj).filter(|_| self.infer_from_keywords) {
                    (
                        json!(t),
                        format!(
                            "from the member's {t} keywords (narrows: values of other types it accepted vacuously no longer match it)"
                        ),
                    )
                } else {
                    return Err(format!(
                        "anyOf member {from} has no type and none can be inferred from it"
                    ));
                };
                obj.shift_insert(0, "type".into(), ty);
                cx.record(&from, "type", Action::Added, reason);
            }
            out.push(m);
        }
        node.insert("anyOf".into(), Value::Array(out));
        Ok(())
    }
}

impl Pass for TypeAnyOfMembers {
    fn name(&self) -> &'static str {
        "type-any-of-members"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("deepseek-anyof-member-missing-type")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        // Most tools have no member to fix: find one before copying the
        // schema the `$ref`s resolve against.
        if !schema::any_node(
            &tool.input_schema,
            &|_, node| matches!(node.field("anyOf"), Some(Value::Array(ms)) if ms.iter().any(flagged)),
        )? {
            return Ok(Step::Continue);
        }
        // The copy is read only to resolve a `$ref` inside a member: a
        // schema with none there (and fixing adds none) needs no copy.
        let snapshot = if ref_inside_members(&tool.input_schema)? {
            tool.input_schema.clone()
        } else {
            Value::Null
        };
        let mut failed: Option<String> = None;
        schema::rewrite_post_order(&mut tool.input_schema, &mut |path, _, node| {
            if failed.is_none()
                && let Err(reason) = self.fix_node(path, node, &snapshot, cx)
            {
                failed = Some(reason);
            }
        })?;
        Ok(failed.map_or(Step::Continue, Step::FailClosed))
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let flip = |f: fn(&mut Self)| {
            let mut m = *self;
            f(&mut m);
            m
        };
        vec![
            PassMutant::new(
                "ignore the node's own type",
                flip(|m| m.inherit_parent_type = !m.inherit_parent_type),
            ),
            PassMutant::new(
                "keep nested anyOf wrappers",
                flip(|m| m.flatten_wrappers = !m.flatten_wrappers),
            ),
            PassMutant::new(
                "keep members that match nothing",
                flip(|m| m.drop_never_members = !m.drop_never_members),
            ),
            PassMutant::new(
                "keep an anyOf with a vacuous member",
                flip(|m| m.drop_vacuous = !m.drop_vacuous),
            ),
            PassMutant::new(
                "no type from keyword families",
                flip(|m| m.infer_from_keywords = !m.infer_from_keywords),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lane::Lane;
    use crate::passes::test_support::{Ran, bytes, marks, run};

    fn typed(v: Value) -> Ran {
        run(&TypeAnyOfMembers::default(), Lane::DeepseekChat, v)
    }

    #[test]
    fn deepseek_chat_v1_splices_a_nested_any_of_wrapper() {
        let r = typed(
            json!({"type":"object","properties":{"timeout":{"anyOf":[{"anyOf":[{"type":"number"},{"type":"string"}]},{"type":"null"}]}}}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"timeout":{"anyOf":[{"type":"number"},{"type":"string"},{"type":"null"}]}}}"#
        );
        assert_eq!(
            r.marks(),
            marks(&[("/properties/timeout", "anyOf", Action::Rewritten)])
        );
        assert_eq!(
            r.records[0].rule.as_deref(),
            Some("deepseek-anyof-member-missing-type")
        );
    }

    #[test]
    fn deepseek_chat_v1_copies_the_nodes_type_into_required_only_members() {
        let r = typed(
            json!({"type":"object","properties":{"a":{},"b":{}},"anyOf":[{"required":["a"]},{"required":["b"]}]}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"a":{},"b":{}},"anyOf":[{"type":"object","required":["a"]},{"type":"object","required":["b"]}]}"#
        );
        assert_eq!(
            r.marks(),
            marks(&[
                ("/anyOf/0", "type", Action::Added),
                ("/anyOf/1", "type", Action::Added)
            ])
        );
    }

    #[test]
    fn deepseek_chat_v1_prefers_the_nodes_type_to_the_members_keywords() {
        let r = typed(json!({"type":["string","null"],"anyOf":[{"pattern":"^a"},{"type":"null"}]}));
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":["string","null"],"anyOf":[{"type":["string","null"],"pattern":"^a"},{"type":"null"}]}"#
        );
    }

    #[test]
    fn deepseek_chat_v1_infers_exact_types_from_const_enum_refs_and_compositions() {
        let r = typed(json!({"$defs":{"D":{"type":"integer"}},"anyOf":[
            {"const":"x"},
            {"enum":[1,2.5,"a",1]},
            {"$ref":"#/$defs/D","description":"kept: $ref members are not flagged"},
            {"allOf":[{"$ref":"#/$defs/D"}],"description":"d"},
            {"oneOf":[{"type":"boolean"},{"const":null}]},
            {"enum":[3]}
        ]}));
        assert_eq!(
            bytes(r.schema()),
            r##"{"$defs":{"D":{"type":"integer"}},"anyOf":[{"type":"string","const":"x"},{"type":["number","string"],"enum":[1,2.5,"a",1]},{"$ref":"#/$defs/D","description":"kept: $ref members are not flagged"},{"type":"integer","allOf":[{"$ref":"#/$defs/D"}],"description":"d"},{"type":["boolean","null"],"oneOf":[{"type":"boolean"},{"const":null}]},{"type":"integer","enum":[3]}]}"##
        );
        assert_eq!(r.records.len(), 5);
        assert!(r.records.iter().all(|d| d.reason.ends_with("(exact)")));
    }

    #[test]
    fn deepseek_chat_v1_types_a_member_from_its_one_keyword_family_as_a_narrowing() {
        let r = typed(json!({"anyOf":[{"format":"ipv4"},{"properties":{"a":{}}},{"items":{}}]}));
        assert_eq!(
            bytes(r.schema()),
            r#"{"anyOf":[{"type":"string","format":"ipv4"},{"type":"object","properties":{"a":{}}},{"type":"array","items":{}}]}"#
        );
        assert!(r.records[0].reason.contains("narrows"));
    }

    #[test]
    fn deepseek_chat_v1_fails_closed_when_no_type_can_be_inferred() {
        for v in [
            json!({"anyOf":[{"not":{"type":"string"}},{"type":"null"}]}),
            json!({"anyOf":[{"minimum":1,"maxLength":2},{"type":"null"}]}),
        ] {
            let r = typed(v);
            assert_eq!(
                r.step,
                Step::FailClosed(
                    "anyOf member /anyOf/0 has no type and none can be inferred from it".into()
                )
            );
        }
    }

    #[test]
    fn deepseek_chat_v1_removes_an_any_of_whose_member_accepts_everything() {
        let r = typed(json!({"description":"x","anyOf":[{"type":"string"},{"description":"any"}]}));
        assert_eq!(bytes(r.schema()), r#"{"description":"x"}"#);
        assert_eq!(r.marks(), marks(&[("", "anyOf", Action::Removed)]));
        // with a type on the node, the member takes it instead
        let r = typed(json!({"type":"string","anyOf":[{"minLength":1},{}]}));
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"string","anyOf":[{"type":"string","minLength":1},{"type":"string"}]}"#
        );
    }

    #[test]
    fn deepseek_chat_v1_drops_members_that_match_nothing() {
        let r = typed(json!({"anyOf":[{"type":"number"},{"not":{}}]}));
        assert_eq!(bytes(r.schema()), r#"{"anyOf":[{"type":"number"}]}"#);
        assert_eq!(
            r.marks(),
            marks(&[
                ("/anyOf/1", "not", Action::Removed),
                ("", "anyOf", Action::Rewritten)
            ])
        );
        let lone = json!({"anyOf":[{"not":{}}]});
        assert!(matches!(typed(lone).step, Step::FailClosed(_)));
    }

    #[test]
    fn deepseek_chat_v1_leaves_typed_and_ref_members_alone_and_is_idempotent() {
        let v = json!({"type":"object","properties":{"anyOf":{"anyOf":[{"type":"number"},{"$ref":"#/x"},true]}}});
        let r = typed(v.clone());
        assert_eq!(r.schema(), &v);
        assert!(r.records.is_empty());
        let once = typed(json!({"anyOf":[{"anyOf":[{"const":1},{"required":["a"]}]},{"not":{}}]}));
        assert_eq!(
            bytes(once.schema()),
            r#"{"anyOf":[{"type":"integer","const":1},{"type":"object","required":["a"]}]}"#
        );
        let twice = typed(once.schema().clone());
        assert_eq!(bytes(twice.schema()), bytes(once.schema()));
        assert!(twice.records.is_empty());
    }

    /// The `$ref`s the copy is taken for: those inside an `anyOf` member,
    /// at any depth, not those elsewhere.
    #[test]
    fn only_a_ref_inside_an_any_of_member_needs_the_copy() {
        let inside = |v: Value| ref_inside_members(&v).unwrap();
        assert!(!inside(
            json!({"$defs":{"D":{"type":"integer"}},"properties":{"a":{"$ref":"#/$defs/D"}},"anyOf":[{"minimum":1},{"type":"string"}]})
        ));
        assert!(inside(json!({"anyOf":[{"allOf":[{"$ref":"#/$defs/D"}]}]})));
        assert!(inside(
            json!({"properties":{"a":{"anyOf":[{"properties":{"b":{"items":{"$ref":"#"}}}}]}}})
        ));
        assert!(!inside(json!({"oneOf":[{"$ref":"#/$defs/D"}]})));
    }

    #[test]
    fn type_any_of_members_declares_its_mutants() {
        assert_eq!(TypeAnyOfMembers::default().mutants().len(), 5);
    }
}
