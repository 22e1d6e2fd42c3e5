//! `normalize`: the shared registry normalization both profiles run first
//! (the seeds' "registry sanitize").
//!
//! Bottom-up over every schema position, each node until nothing changes:
//! 1. nullable-union collapse: `anyOf|oneOf: [X, {"type":"null"}]` (either
//!    order) → X's keys spliced in place of the union, then `nullable: true`;
//! 2. single-element union collapse: `anyOf|oneOf|allOf: [X]` → X's keys
//!    spliced in place (so a nested union can be hoisted to its parent);
//! 3. a bare `{"type":"object"}` (no `properties`) gets `properties: {}`;
//! 4. `required` entries that name no property of the node are pruned (a
//!    node without `properties` has none), and an emptied `required` goes.
//!
//! Where a spliced branch key collides with a key the node already has, the
//! node's key wins and the branch key is recorded as removed.

use serde_json::{Map, Value, json};

use super::{Cx, Pass, Step};
use crate::degradation::Action;
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

/// See the module docs. Each flag switches one of the four steps (all on in
/// both profiles; the flags are the pass's mutation points).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Normalize {
    pub(crate) collapse_nullable: bool,
    pub(crate) collapse_single: bool,
    pub(crate) inject_properties: bool,
    pub(crate) prune_required: bool,
}

impl Default for Normalize {
    fn default() -> Self {
        Self {
            collapse_nullable: true,
            collapse_single: true,
            inject_properties: true,
            prune_required: true,
        }
    }
}

const UNIONS: &[&str] = &["anyOf", "oneOf"];
const SINGLE_UNIONS: &[&str] = &["anyOf", "oneOf", "allOf"];

fn is_null_branch(v: &Value) -> bool {
    v.as_object()
        .is_some_and(|m| m.len() == 1 && m.get("type").and_then(Value::as_str) == Some("null"))
}

/// Replace `node[keyword]` by `branch`'s keys at the same position; keys the
/// node already has win. Returns the branch keys that lost.
fn splice(
    node: &mut Map<String, Value>,
    keyword: &str,
    branch: &Map<String, Value>,
    nullable: bool,
) -> Vec<String> {
    let old = std::mem::take(node);
    let mut lost = Vec::new();
    for (k, v) in &old {
        if k == keyword {
            for (bk, bv) in branch {
                if old.contains_key(bk) && bk != keyword {
                    lost.push(bk.clone());
                } else if !node.contains_key(bk) {
                    node.insert(bk.clone(), bv.clone());
                }
            }
            if nullable && !old.contains_key("nullable") && !node.contains_key("nullable") {
                node.insert("nullable".to_owned(), json!(true));
            }
        } else {
            node.insert(k.clone(), v.clone());
        }
    }
    lost
}

impl Normalize {
    /// One rewrite of one node; `true` when something changed.
    fn step(self, path: &str, node: &mut Map<String, Value>, cx: &mut Cx<'_>) -> bool {
        if self.collapse_nullable {
            for kw in UNIONS {
                let Some(Value::Array(branches)) = node.get(*kw) else {
                    continue;
                };
                if branches.len() != 2 {
                    continue;
                }
                let (keep, null_at) = if is_null_branch(&branches[1]) {
                    (0, 1)
                } else if is_null_branch(&branches[0]) {
                    (1, 0)
                } else {
                    continue;
                };
                let kept = match &branches[keep] {
                    Value::Object(m) => m.clone(),
                    Value::Bool(true) => Map::new(),
                    _ => continue,
                };
                let lost = splice(node, kw, &kept, true);
                cx.record(
                    path,
                    kw,
                    Action::Rewritten,
                    format!(
                        "nullable union collapsed: branch {keep} inlined, null branch {null_at} became nullable: true"
                    ),
                );
                for k in lost {
                    cx.record(
                        &format!("{path}/{kw}/{keep}/{}", schema::escape_token(&k)),
                        &k,
                        Action::Removed,
                        "union branch keyword shadowed by the same keyword on its parent",
                    );
                }
                return true;
            }
        }
        if self.collapse_single {
            for kw in SINGLE_UNIONS {
                let Some(Value::Array(branches)) = node.get(*kw) else {
                    continue;
                };
                if branches.len() != 1 {
                    continue;
                }
                let only = match &branches[0] {
                    Value::Object(m) => m.clone(),
                    Value::Bool(true) => Map::new(),
                    _ => continue,
                };
                let lost = splice(node, kw, &only, false);
                cx.record(
                    path,
                    kw,
                    Action::Rewritten,
                    "single-branch union inlined into its parent",
                );
                for k in lost {
                    cx.record(
                        &format!("{path}/{kw}/0/{}", schema::escape_token(&k)),
                        &k,
                        Action::Removed,
                        "union branch keyword shadowed by the same keyword on its parent",
                    );
                }
                return true;
            }
        }
        false
    }

    fn finish(self, path: &str, node: &mut Map<String, Value>, cx: &mut Cx<'_>) {
        if self.inject_properties
            && schema::has_type(node, "object")
            && !node.contains_key("properties")
        {
            node.insert("properties".into(), json!({}));
            cx.record(
                path,
                "properties",
                Action::Added,
                "bare object schema given empty properties",
            );
        }
        if self.prune_required {
            let Some(Value::Array(required)) = node.get("required") else {
                return;
            };
            let props = node.get("properties").and_then(Value::as_object);
            let (keep, gone): (Vec<Value>, Vec<Value>) = required.iter().cloned().partition(|r| {
                r.as_str()
                    .is_some_and(|n| props.is_some_and(|p| p.contains_key(n)))
            });
            if gone.is_empty() {
                return;
            }
            for g in &gone {
                cx.record(
                    path,
                    "required",
                    Action::Removed,
                    format!("required entry {} names no property", schema::to_bytes(g)),
                );
            }
            if keep.is_empty() {
                node.shift_remove("required");
            } else {
                node.insert("required".into(), Value::Array(keep));
            }
        }
    }
}

impl Pass for Normalize {
    fn name(&self) -> &'static str {
        "normalize"
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_post_order(&mut tool.input_schema, &mut |path, node| {
            // Each collapse removes one union keyword, so this terminates.
            let mut guard = 0;
            while self.step(path, node, cx) && guard < 64 {
                guard += 1;
            }
            self.finish(path, node, cx);
        })?;
        Ok(Step::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lane::Lane;
    use crate::passes::test_support::{bytes, run};

    fn norm(v: Value) -> crate::passes::test_support::Ran {
        run(&Normalize::default(), Lane::AnthropicMessages, v)
    }

    #[test]
    fn normalize_collapses_a_nullable_any_of_in_place() {
        let r = norm(
            json!({"type":"object","properties":{"q":{"description":"d","anyOf":[{"type":"string"},{"type":"null"}],"title":"Q"}},"required":["q"]}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"q":{"description":"d","type":"string","nullable":true,"title":"Q"}},"required":["q"]}"#
        );
        assert_eq!(
            r.marks(),
            [("/properties/q".into(), "anyOf".into(), Action::Rewritten)]
        );
    }

    #[test]
    fn normalize_collapses_a_null_first_one_of() {
        let r = norm(json!({"oneOf":[{"type":"null"},{"type":"integer","minimum":0}]}));
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"integer","minimum":0,"nullable":true}"#
        );
    }

    #[test]
    fn normalize_keeps_a_three_branch_union_with_null() {
        let v = json!({"anyOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]});
        let r = norm(v.clone());
        assert_eq!(r.schema(), &v);
        assert!(r.records.is_empty());
    }

    #[test]
    fn normalize_records_a_branch_key_shadowed_by_its_parent() {
        let r = norm(
            json!({"description":"outer","anyOf":[{"type":"string","description":"inner"},{"type":"null"}]}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"description":"outer","type":"string","nullable":true}"#
        );
        assert_eq!(
            r.marks()[1],
            (
                "/anyOf/0/description".into(),
                "description".into(),
                Action::Removed
            )
        );
    }

    #[test]
    fn normalize_inlines_a_single_element_union() {
        let r = norm(
            json!({"allOf":[{"type":"object","properties":{"a":{"type":"string"}}}],"description":"x"}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"a":{"type":"string"}},"description":"x"}"#
        );
    }

    #[test]
    fn normalize_hoists_a_nested_union_through_a_single_element_union() {
        let r = norm(json!({"anyOf":[{"oneOf":[{"type":"string"},{"type":"integer"}]}]}));
        assert_eq!(
            bytes(r.schema()),
            r#"{"oneOf":[{"type":"string"},{"type":"integer"}]}"#
        );
    }

    #[test]
    fn normalize_collapses_a_nullable_union_hoisted_by_a_single_element_union() {
        let r = norm(json!({"anyOf":[{"anyOf":[{"type":"string"},{"type":"null"}]}]}));
        assert_eq!(bytes(r.schema()), r#"{"type":"string","nullable":true}"#);
    }

    #[test]
    fn normalize_gives_a_bare_object_empty_properties() {
        let r =
            norm(json!({"type":"object","properties":{"o":{"type":"object","description":"any"}}}));
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"o":{"type":"object","description":"any","properties":{}}}}"#
        );
        assert_eq!(
            r.marks(),
            [("/properties/o".into(), "properties".into(), Action::Added)]
        );
    }

    #[test]
    fn normalize_prunes_required_entries_that_name_no_property() {
        let r = norm(json!({"type":"object","properties":{"a":{}},"required":["a","ghost"]}));
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"a":{}},"required":["a"]}"#
        );
        assert_eq!(
            r.marks(),
            [(String::new(), "required".into(), Action::Removed)]
        );
        assert_eq!(
            r.records[0].reason,
            "required entry \"ghost\" names no property"
        );
    }

    #[test]
    fn normalize_removes_a_required_list_it_empties() {
        // A required-only branch names properties its parent declares: the
        // registry prune still empties it (the seeds' apply_patch corner).
        let r =
            norm(json!({"properties":{"a":{}},"oneOf":[{"required":["a"]},{"required":["b"]}]}));
        assert_eq!(
            bytes(r.schema()),
            r#"{"properties":{"a":{}},"oneOf":[{},{}]}"#
        );
    }

    #[test]
    fn normalize_spreads_a_single_branch_required_group_then_prunes_it() {
        let r = norm(json!({"type":"object","properties":{"a":{}},"oneOf":[{"required":["a"]}]}));
        // the branch's required list is pruned at the branch (no properties
        // there) before the collapse: nothing dangles at the root.
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"a":{}}}"#
        );
    }

    #[test]
    fn normalize_never_treats_a_property_named_any_of_as_a_union() {
        let v = json!({"type":"object","properties":{"anyOf":{"type":"string"},"oneOf":{"type":"null"}},"required":["anyOf"]});
        let r = norm(v.clone());
        assert_eq!(r.schema(), &v);
    }

    #[test]
    fn normalize_never_rewrites_literals() {
        let v = json!({"type":"string","enum":[{"anyOf":[{"type":"string"},{"type":"null"}]}],"default":{"type":"object"}});
        let r = norm(v.clone());
        assert_eq!(r.schema(), &v);
    }

    #[test]
    fn normalize_is_idempotent_on_its_own_output() {
        let v = json!({"type":"object","properties":{"a":{"anyOf":[{"anyOf":[{"type":"object"},{"type":"null"}]}]}},"required":["a","b"]});
        let once = norm(v);
        let twice = norm(once.schema().clone());
        assert_eq!(bytes(twice.schema()), bytes(once.schema()));
        assert!(twice.records.is_empty());
    }
}
