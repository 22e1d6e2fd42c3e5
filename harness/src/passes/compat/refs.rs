//! `ref-siblings-to-all-of`: on `moonshot` (rule
//! `moonshot-ref-sibling-conflict`, recorded: `conflicting keywords found
//! after $ref expansion: description`), a `$ref` whose sibling keywords the
//! referenced schema also sets, to other values, moves into a one-member
//! `allOf` at its own position: `{"$ref": R, "description": D}` →
//! `{"allOf": [{"$ref": R}], "description": D}` (appended to an existing
//! `allOf`). Under draft 2020-12 a `$ref` beside siblings is already their
//! conjunction, so nothing changes meaning, and the ref-site annotation the
//! model reads stays where it was. Only local (`#...`) refs that resolve are
//! judged, as Moonshot expands them; a `$ref` without a conflicting sibling
//! ships verbatim.

use serde_json::{Map, Value, json};

use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

/// Rounds of moving: a move can only create a conflict for a `$ref` whose
/// target was itself moved, so a few rounds reach the fixed point.
const ROUNDS: usize = 8;

/// See the module docs. The field is the pass's mutation point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RefSiblingsToAllOf {
    /// Move only refs with a conflicting sibling (off: every ref with siblings).
    pub(crate) only_conflicts: bool,
}

impl Default for RefSiblingsToAllOf {
    fn default() -> Self {
        Self {
            only_conflicts: true,
        }
    }
}

impl RefSiblingsToAllOf {
    /// `(pointer, sibling keys the target sets differently)` of every `$ref`
    /// to move, in pre-order.
    fn conflicts(self, root: &Value) -> Result<Vec<(String, Vec<String>)>, TooDeep> {
        let mut out = Vec::new();
        schema::visit(root, &mut |path, node| {
            let Some(target) = node
                .field("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix('#'))
                .and_then(|p| root.pointer(p))
                .and_then(Value::as_object)
            else {
                return;
            };
            let keys: Vec<String> = node
                .iter()
                .filter(|(k, v)| {
                    *k != "$ref"
                        && (!self.only_conflicts || target.get(*k).is_some_and(|t| t != *v))
                })
                .map(|(k, _)| k.clone())
                .collect();
            if !keys.is_empty() {
                out.push((path.to_owned(), keys));
            }
        })?;
        Ok(out)
    }
}

/// Replace `node["$ref"]` by a one-member `allOf` at the same position, or
/// append the member to an existing `allOf`.
fn move_ref(node: &mut Map<String, Value>) {
    let Some(r) = node.field("$ref").cloned() else {
        return;
    };
    let member = json!({ "$ref": r });
    if let Some(Value::Array(all)) = node.field_mut("allOf") {
        all.push(member);
        node.shift_remove("$ref");
        return;
    }
    let old = std::mem::take(node);
    for (k, v) in old {
        if k == "$ref" {
            node.insert("allOf".into(), Value::Array(vec![member.clone()]));
        } else {
            node.insert(k, v);
        }
    }
}

impl Pass for RefSiblingsToAllOf {
    fn name(&self) -> &'static str {
        "ref-siblings-to-all-of"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("moonshot-ref-sibling-conflict")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        for _ in 0..ROUNDS {
            let found = self.conflicts(&tool.input_schema)?;
            if found.is_empty() {
                break;
            }
            // Deepest and last first: a move never shifts a pointer still to visit.
            for (path, keys) in found.into_iter().rev() {
                let Some(node) = tool
                    .input_schema
                    .pointer_mut(&path)
                    .and_then(Value::as_object_mut)
                else {
                    continue;
                };
                move_ref(node);
                cx.record(
                    &path,
                    "$ref",
                    Action::Rewritten,
                    format!(
                        "moved into allOf: its siblings {} differ from the target's after expansion (a conjunction either way)",
                        keys.join(", ")
                    ),
                );
            }
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "move every $ref with siblings",
            Self {
                only_conflicts: !self.only_conflicts,
            },
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lane::Lane;
    use crate::passes::test_support::{Ran, bytes, run};

    fn moved(v: Value) -> Ran {
        run(&RefSiblingsToAllOf::default(), Lane::Moonshot, v)
    }

    #[test]
    fn moonshot_v1_moves_a_ref_whose_description_conflicts_into_all_of() {
        let r = moved(json!({"type":"object","properties":{
            "variantOptions":{"$ref":"#/$defs/V","description":"Options"}},
            "$defs":{"V":{"type":"object","description":"Config","properties":{}}}}));
        assert_eq!(
            bytes(r.schema()),
            r##"{"type":"object","properties":{"variantOptions":{"allOf":[{"$ref":"#/$defs/V"}],"description":"Options"}},"$defs":{"V":{"type":"object","description":"Config","properties":{}}}}"##
        );
        assert_eq!(
            r.marks(),
            [(
                "/properties/variantOptions".to_owned(),
                "$ref".to_owned(),
                Action::Rewritten
            )]
        );
        assert_eq!(
            r.records[0].reason,
            "moved into allOf: its siblings description differ from the target's after expansion (a conjunction either way)"
        );
    }

    #[test]
    fn moonshot_v1_appends_to_an_existing_all_of() {
        let r = moved(
            json!({"$defs":{"V":{"title":"A"}},"title":"B","allOf":[{"minProperties":1}],"$ref":"#/$defs/V"}),
        );
        assert_eq!(
            bytes(r.schema()),
            r##"{"$defs":{"V":{"title":"A"}},"title":"B","allOf":[{"minProperties":1},{"$ref":"#/$defs/V"}]}"##
        );
    }

    #[test]
    fn moonshot_v1_leaves_refs_without_a_conflicting_sibling_and_is_idempotent() {
        let v = json!({"type":"object","properties":{
            "a":{"$ref":"#/$defs/A","description":"A"},
            "b":{"$ref":"#/$defs/A","type":"object"},
            "c":{"$ref":"https://x/y","title":"T"}},
            "$defs":{"A":{"type":"object","properties":{}}}});
        let r = moved(v.clone());
        assert_eq!(r.schema(), &v);
        assert!(r.records.is_empty());
        let once = moved(
            json!({"$defs":{"A":{"title":"a"}},"properties":{"x":{"$ref":"#/$defs/A","title":"x"},"y":{"$ref":"#/$defs/A","title":"y"}}}),
        );
        assert_eq!(once.records.len(), 2);
        let twice = moved(once.schema().clone());
        assert_eq!(bytes(twice.schema()), bytes(once.schema()));
        assert!(twice.records.is_empty());
    }

    #[test]
    fn ref_siblings_to_all_of_declares_its_mutant() {
        let m = RefSiblingsToAllOf::default().mutants();
        assert_eq!(m[0].change, "move every $ref with siblings");
    }
}
