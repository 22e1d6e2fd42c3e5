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
//!
//! `ref-type-to-all-of`: on `moonshot` (rule `moonshot-type-beside-ref`,
//! recorded: `when using $ref, type should be defined in the referenced
//! schema instead of the parent schema`), every `$ref` with a `type` beside
//! it moves into an `allOf` the same way, whatever the target declares (the
//! rule rejects a type the target shares too). It runs before
//! `ref-siblings-to-all-of`, whose rounds then see the moved targets.

use serde_json::{Map, Value, json};

use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::{Cx, Pass, PassMutant, Step, may_act};
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
            let keys: Vec<String> = self.moving(root, node).map(|(k, _)| k.clone()).collect();
            if !keys.is_empty() {
                out.push((path.to_owned(), keys));
            }
        })?;
        Ok(out)
    }

    /// The sibling keywords of `node`'s local `$ref` that make it move: those
    /// its target sets to another value (or, for the mutant, every one).
    fn moving<'n>(
        self,
        root: &Value,
        node: &'n Map<String, Value>,
    ) -> impl Iterator<Item = (&'n String, &'n Value)> {
        let target = node
            .field("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix('#'))
            .and_then(|p| root.pointer(p))
            .and_then(Value::as_object);
        node.iter().filter(move |(k, v)| {
            target.is_some_and(|target| {
                *k != "$ref" && (!self.only_conflicts || target.get(*k).is_some_and(|t| t != *v))
            })
        })
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

/// [`move_ref`] at each `(pointer, reason)` of `found` (in pre-order),
/// recorded with its reason.
fn move_refs(schema: &mut Value, found: Vec<(String, String)>, cx: &mut Cx<'_>) {
    // Deepest and last first: a move never shifts a pointer still to visit.
    for (path, reason) in found.into_iter().rev() {
        let Some(node) = schema.pointer_mut(&path).and_then(Value::as_object_mut) else {
            continue;
        };
        move_ref(node);
        cx.record(&path, "$ref", Action::Rewritten, reason);
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
        // Most tools have no `$ref` to move: one walk without pointers says so.
        let root = &tool.input_schema;
        if !may_act(root, &|_, node| self.moving(root, node).next().is_some()) {
            return Ok(Step::Continue);
        }
        for _ in 0..ROUNDS {
            let found = self.conflicts(&tool.input_schema)?;
            if found.is_empty() {
                break;
            }
            let found = found.into_iter().map(|(path, keys)| {
                let reason = format!(
                    "moved into allOf: its siblings {} differ from the target's after expansion (a conjunction either way)",
                    keys.join(", ")
                );
                (path, reason)
            });
            move_refs(&mut tool.input_schema, found.collect(), cx);
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

/// `ref-type-to-all-of`'s reason for each move.
const TYPE_MOVED: &str = "moved into allOf: a type beside it is rejected (Moonshot reads the type from the referenced schema; a conjunction either way)";

/// See the module docs. The field is the pass's mutation point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RefTypeToAllOf {
    /// Move a `$ref` whose local target declares the same `type` too (off:
    /// leave it, as if an agreeing type were harmless).
    pub(crate) even_when_the_target_agrees: bool,
}

impl Default for RefTypeToAllOf {
    fn default() -> Self {
        Self {
            even_when_the_target_agrees: true,
        }
    }
}

impl Pass for RefTypeToAllOf {
    fn name(&self) -> &'static str {
        "ref-type-to-all-of"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("moonshot-type-beside-ref")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        // Most tools have no such node: one walk without pointers says so.
        if !may_act(&tool.input_schema, &|_, node| {
            node.has("$ref") && node.has("type")
        }) {
            return Ok(Step::Continue);
        }
        let root = &tool.input_schema;
        let mut found = Vec::new();
        schema::visit(root, &mut |path, node| {
            let (Some(r), Some(t)) = (node.field("$ref"), node.field("type")) else {
                return;
            };
            let agrees = || {
                r.as_str()
                    .and_then(|r| r.strip_prefix('#'))
                    .and_then(|p| root.pointer(p))
                    .and_then(|target| target.get("type"))
                    == Some(t)
            };
            if self.even_when_the_target_agrees || !agrees() {
                found.push(path.to_owned());
            }
        })?;
        let found = found.into_iter().map(|path| (path, TYPE_MOVED.to_owned()));
        move_refs(&mut tool.input_schema, found.collect(), cx);
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "leave a $ref whose target declares the same type",
            Self {
                even_when_the_target_agrees: !self.even_when_the_target_agrees,
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

    fn typed(v: Value) -> Ran {
        run(&RefTypeToAllOf::default(), Lane::Moonshot, v)
    }

    #[test]
    fn moonshot_v1_moves_a_ref_beside_a_type_the_target_shares_into_all_of() {
        // opencodex#2673's `$defs.__schema20` (Codex's `automation_update`).
        let r = typed(
            json!({"type":"object","properties":{"t":{"$ref":"#/$defs/__schema20"}},
            "$defs":{"__schema2":{"type":"string","minLength":1},
            "__schema20":{"type":"string","minLength":1,"format":"uuid","description":"Target thread","$ref":"#/$defs/__schema2"}}}),
        );
        assert_eq!(
            bytes(r.schema()),
            r##"{"type":"object","properties":{"t":{"$ref":"#/$defs/__schema20"}},"$defs":{"__schema2":{"type":"string","minLength":1},"__schema20":{"type":"string","minLength":1,"format":"uuid","description":"Target thread","allOf":[{"$ref":"#/$defs/__schema2"}]}}}"##
        );
        assert_eq!(
            r.marks(),
            [(
                "/$defs/__schema20".to_owned(),
                "$ref".to_owned(),
                Action::Rewritten
            )]
        );
        assert_eq!(
            r.records[0].reason,
            "moved into allOf: a type beside it is rejected (Moonshot reads the type from the referenced schema; a conjunction either way)"
        );
    }

    #[test]
    fn moonshot_v1_moves_typed_refs_deepest_first_and_appends_to_all_of() {
        // cc-switch#6867's property, a remote reference and an `allOf` already there.
        let r = typed(json!({"type":"object","properties":{
            "mode":{"$ref":"#/$defs/Mode","type":"string","description":"How"},
            "far":{"type":"object","$ref":"https://x/y","allOf":[{"minProperties":1}],
                "properties":{"in":{"type":"integer","$ref":"#/$defs/N"}}}},
            "$defs":{"Mode":{"type":"string","enum":["a","b"]},"N":{"type":"number"}}}));
        assert_eq!(
            bytes(r.schema()),
            r##"{"type":"object","properties":{"mode":{"allOf":[{"$ref":"#/$defs/Mode"}],"type":"string","description":"How"},"far":{"type":"object","allOf":[{"minProperties":1},{"$ref":"https://x/y"}],"properties":{"in":{"type":"integer","allOf":[{"$ref":"#/$defs/N"}]}}}},"$defs":{"Mode":{"type":"string","enum":["a","b"]},"N":{"type":"number"}}}"##
        );
        let paths: Vec<String> = r.marks().into_iter().map(|m| m.0).collect();
        assert_eq!(
            paths,
            [
                "/properties/far/properties/in",
                "/properties/far",
                "/properties/mode"
            ]
        );
    }

    #[test]
    fn moonshot_v1_leaves_refs_without_a_type_and_is_idempotent() {
        let v = json!({"type":"object","properties":{
            "a":{"$ref":"#/$defs/A","description":"A"},"b":{"type":"string","allOf":[{"$ref":"#/$defs/A"}]}},
            "$defs":{"A":{"type":"string"}}});
        let r = typed(v.clone());
        assert_eq!(r.schema(), &v);
        assert!(r.records.is_empty());
        let once = typed(
            json!({"$defs":{"A":{"type":"string"}},"properties":{"x":{"$ref":"#/$defs/A","type":"string"}}}),
        );
        assert_eq!(once.records.len(), 1);
        let twice = typed(once.schema().clone());
        assert_eq!(bytes(twice.schema()), bytes(once.schema()));
        assert!(twice.records.is_empty());
    }

    #[test]
    fn ref_type_to_all_of_declares_its_mutant_which_leaves_an_agreeing_type() {
        let m = RefTypeToAllOf::default().mutants();
        assert_eq!(
            m[0].change,
            "leave a $ref whose target declares the same type"
        );
        let v = json!({"$defs":{"A":{"type":"string"}},"properties":{
            "same":{"$ref":"#/$defs/A","type":"string"},"other":{"$ref":"#/$defs/A","type":"integer"}}});
        let r = run(m[0].pass.as_ref(), Lane::Moonshot, v);
        let paths: Vec<String> = r.marks().into_iter().map(|m| m.0).collect();
        assert_eq!(paths, ["/properties/other"]);
    }

    #[test]
    fn ref_siblings_to_all_of_declares_its_mutant() {
        let m = RefSiblingsToAllOf::default().mutants();
        assert_eq!(m[0].change, "move every $ref with siblings");
    }
}
