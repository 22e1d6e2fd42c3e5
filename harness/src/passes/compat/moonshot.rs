//! `type-into-any-of`: on `moonshot` (rule `moonshot-type-beside-anyof`,
//! recorded: `when using anyOf, type should be defined in anyOf items
//! instead of the parent schema`), a schema with both `type` and `anyOf`
//! gives its `type` to the members and keeps none itself, bottom-up:
//! `{"type": T, "anyOf": [A, B]}` accepts what `{"anyOf": [A ∧ T, B ∧ T]}`
//! accepts, so below the root nothing changes meaning. Each member gets:
//! - without `type` or `$ref`: `T` itself, first among its keywords; a
//!   member with an `anyOf` of its own passes `T` on to that anyOf's
//!   members instead (a `type` beside it would be the construct again);
//! - with a `type`: the types it shares with `T` (`integer` is a `number`);
//!   a member that shares none matches nothing beside `T` and is dropped,
//!   while another member remains;
//! - `true`: `{"type": T}`;
//! - a local `$ref` whose target's type (as far as its `type`, `const`,
//!   `enum` or compositions say) lies within `T`: nothing (Moonshot expands
//!   the reference); one that shares no type with `T` is dropped; any other
//!   `$ref` moves into an `allOf` (appended to one the member has) and the
//!   member takes `T` like any other (a `type` beside a `$ref` is ignored
//!   up to draft-07, and Moonshot's validator rules forbid it too;
//!   `ref-siblings-to-all-of` moves a `$ref` into an `allOf` the same way).
//!
//! The root keeps `type: "object"`: without it Moonshot rejects the tool
//! (`moonshot-parameters-type-object`), so a root `anyOf` beside a `type`
//! cannot stay. Members whose type the root's excludes go (exact); one
//! member left is merged whole (its properties and `required`); several
//! merge their properties into the root (the root's declaration first),
//! the `anyOf` goes, and what it asked for is surfaced as a description
//! note: a widening, recorded, as on the providers that reject a root
//! composition (`narrow-root-composition`). A node none of whose members
//! admits its type fails the tool closed.

use serde_json::{Map, Value, json};

use super::anyof::{add_types, exact_types, type_value};
use super::defs::RefsIntoDefs;
use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::notes;
use crate::passes::root::{self, MergeOrder};
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::{self, NodePath, TooDeep};
use crate::tool::Tool;

/// See the module docs. The flags are the pass's mutation points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TypeIntoAnyOf {
    /// Remove the node's own `type` once its members have it.
    pub(crate) remove_parent_type: bool,
    /// A typed member keeps only the types it shares with the node.
    pub(crate) narrow_typed_members: bool,
    /// A member that shares no type with the node is dropped.
    pub(crate) drop_disjoint_members: bool,
    /// The root's `anyOf` merges into it (else the root is left as it is).
    pub(crate) merge_root: bool,
}

impl Default for TypeIntoAnyOf {
    fn default() -> Self {
        Self {
            remove_parent_type: true,
            narrow_typed_members: true,
            drop_disjoint_members: true,
            merge_root: true,
        }
    }
}

/// The node the rule flags: `type` beside an `anyOf` list.
fn flagged(node: &Map<String, Value>) -> bool {
    node.has("type") && matches!(node.field("anyOf"), Some(Value::Array(_)))
}

/// `names` within `of`, `integer` being a `number`.
fn within(name: &str, of: &[String]) -> bool {
    of.iter()
        .any(|o| o == name || (o == "number" && name == "integer"))
}

/// The types `a` and `b` share, in `a`'s order (`integer` where one says
/// `number` and the other `integer`).
fn shared(a: &[String], b: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in a {
        let kept = if within(n, b) {
            Some(n.as_str())
        } else if n == "number" && b.iter().any(|x| x == "integer") {
            Some("integer")
        } else {
            None
        };
        if let Some(k) = kept
            && !out.iter().any(|o| o == k)
        {
            out.push(k.to_owned());
        }
    }
    out
}

/// What became of one member.
enum Member {
    Keep(Value),
    Drop,
}

impl TypeIntoAnyOf {
    /// Give `names` to one member at `from`; `Err` = fail closed.
    fn type_member(
        self,
        from: &str,
        member: Value,
        names: &[String],
        snapshot: &Value,
        cx: &mut Cx<'_>,
    ) -> Result<Member, String> {
        let mut obj = match member {
            Value::Bool(true) => {
                cx.record(
                    from,
                    "type",
                    Action::Added,
                    "the anyOf member `true` takes the node's type: every instance here has it (exact)",
                );
                return Ok(Member::Keep(json!({"type": type_value(names.to_vec())})));
            }
            Value::Object(o) => o,
            other => return Ok(Member::Keep(other)),
        };
        if let Some(ty) = obj.field("type") {
            let mut own = Vec::new();
            if !add_types(ty, &mut own) {
                return Err(format!("anyOf member {from} has a type that names no type"));
            }
            if !self.narrow_typed_members || own.iter().all(|n| within(n, names)) {
                return Ok(Member::Keep(Value::Object(obj)));
            }
            let both = shared(&own, names);
            if both.is_empty() {
                if self.drop_disjoint_members {
                    cx.record(
                        from,
                        "",
                        Action::Removed,
                        "the anyOf member's type excludes the node's: it matches nothing here and is dropped (exact)",
                    );
                    return Ok(Member::Drop);
                }
                return Ok(Member::Keep(Value::Object(obj)));
            }
            obj.insert("type".into(), type_value(both));
            cx.record(
                from,
                "type",
                Action::Rewritten,
                "narrowed to the types it shares with the node's own type (exact)",
            );
            return Ok(Member::Keep(Value::Object(obj)));
        }
        if obj.has("$ref") {
            // Moonshot expands the reference, so a target whose types all
            // lie within the node's needs nothing, and one that shares none
            // matches nothing here.
            if let Some(t) = exact_types(&obj, snapshot, 0) {
                if t.iter().all(|n| within(n, names)) {
                    return Ok(Member::Keep(Value::Object(obj)));
                }
                if self.drop_disjoint_members && shared(&t, names).is_empty() {
                    cx.record(
                        from,
                        "",
                        Action::Removed,
                        "the anyOf member's $ref target has no type the node allows: it matches nothing here and is dropped (exact)",
                    );
                    return Ok(Member::Drop);
                }
            }
            // Any other `$ref` moves into an `allOf`, so the type can sit
            // beside it: a `type` beside a `$ref` is ignored up to draft-07,
            // and Moonshot's validator rules forbid it too.
            if let Some(reference) = obj.shift_remove("$ref") {
                match obj.field_mut("allOf") {
                    Some(Value::Array(all)) => all.push(json!({"$ref": reference})),
                    _ => {
                        obj.insert("allOf".into(), json!([{"$ref": reference}]));
                    }
                }
                cx.record(
                    from,
                    "$ref",
                    Action::Rewritten,
                    "moved into an allOf beside the type the member takes (exact)",
                );
            }
        }
        // A member with its own `anyOf` passes the type on to that anyOf's
        // members: a type beside it would be the construct again.
        if let Some(Value::Array(inner)) = obj.field_mut("anyOf") {
            let inner = std::mem::take(inner);
            let kept = self.type_members(from, inner, names, snapshot, cx)?;
            obj.insert("anyOf".into(), Value::Array(kept));
            return Ok(Member::Keep(Value::Object(obj)));
        }
        obj.shift_insert(0, "type".into(), type_value(names.to_vec()));
        cx.record(
            from,
            "type",
            Action::Added,
            "the node's own type, moved into the member: every instance here has it (exact)",
        );
        Ok(Member::Keep(Value::Object(obj)))
    }

    /// Type every member of the `anyOf` of the schema at `node`; `Err` when
    /// none is left. A dropped member moves the ones after it, so the
    /// `anyOf` is then recorded as rewritten at `node`.
    fn type_members(
        self,
        node: &str,
        members: Vec<Value>,
        names: &[String],
        snapshot: &Value,
        cx: &mut Cx<'_>,
    ) -> Result<Vec<Value>, String> {
        let at = format!("{node}/anyOf");
        let before = members.len();
        let mut out = Vec::with_capacity(before);
        for (i, m) in members.into_iter().enumerate() {
            if let Member::Keep(m) =
                self.type_member(&format!("{at}/{i}"), m, names, snapshot, cx)?
            {
                out.push(m);
            }
        }
        if out.is_empty() {
            return Err(format!("no anyOf member at {at} admits the node's type"));
        }
        if out.len() < before {
            cx.record(
                node,
                "anyOf",
                Action::Rewritten,
                "members that match nothing beside the node's type dropped (exact)",
            );
        }
        Ok(out)
    }

    /// Move one non-root node's `type` into its members.
    fn fix_node(
        self,
        path: &NodePath<'_>,
        node: &mut Map<String, Value>,
        snapshot: &Value,
        cx: &mut Cx<'_>,
    ) -> Result<(), String> {
        let mut names = Vec::new();
        if !node.field("type").is_some_and(|t| add_types(t, &mut names)) {
            return Err(format!("the type at {path} names no type"));
        }
        let Some(Value::Array(members)) = node.field_mut("anyOf") else {
            return Ok(());
        };
        let members = std::mem::take(members);
        let kept = self.type_members(path, members, &names, snapshot, cx)?;
        node.insert("anyOf".into(), Value::Array(kept));
        if self.remove_parent_type {
            node.shift_remove("type");
            cx.record(
                path,
                "type",
                Action::Removed,
                "moved into each anyOf member, where Moonshot wants it (exact)",
            );
        }
        Ok(())
    }

    /// The root: the members its type excludes go (exact); the rest merge
    /// into it. One member left merges whole, its `required` kept (exact
    /// as far as properties and `required` go); several are a widening,
    /// surfaced as a note. `Err` when no member admits the root's type;
    /// `Ok(true)` when the members merged.
    fn fix_root(self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<bool, String> {
        let Some(rootmap) = tool.input_schema.as_object_mut() else {
            return Ok(false);
        };
        if !self.merge_root || !flagged(rootmap) {
            return Ok(false);
        }
        let mut names = Vec::new();
        if !rootmap
            .field("type")
            .is_some_and(|t| add_types(t, &mut names))
        {
            return Err("the root's type names no type".to_owned());
        }
        if let Some(Value::Array(members)) = rootmap.field_mut("anyOf") {
            let mut kept = Vec::with_capacity(members.len());
            for (i, m) in std::mem::take(members).into_iter().enumerate() {
                let mut own = Vec::new();
                let disjoint = match &m {
                    Value::Bool(b) => !b,
                    Value::Object(o) => o
                        .field("type")
                        .is_some_and(|t| add_types(t, &mut own) && shared(&own, &names).is_empty()),
                    _ => false,
                };
                if disjoint && self.drop_disjoint_members {
                    cx.record(
                        &format!("/anyOf/{i}"),
                        "",
                        Action::Removed,
                        "the root anyOf member's type excludes the root's: it matches nothing here and is dropped (exact)",
                    );
                } else {
                    kept.push(m);
                }
            }
            if kept.is_empty() {
                return Err("no member of the root anyOf admits the root's type".to_owned());
            }
            *members = kept;
        }
        let groups = rootmap
            .field("anyOf")
            .and_then(Value::as_array)
            .map(|b| notes::required_groups(b))
            .unwrap_or_default();
        let specific = notes::composition_note("anyOf", &groups);
        let removed = root::strip_and_merge(rootmap, &["anyOf"], MergeOrder::FirstWins, cx);
        if let [(_, sole)] = removed.as_slice()
            && let [member] = sole.as_slice()
        {
            // A root `anyOf` of one member is that member.
            root::keep_branch_required(
                rootmap,
                std::slice::from_ref(member),
                "the root anyOf's one member is the root: its required entries kept at the root",
                cx,
            );
        } else {
            let note = specific.or_else(|| {
                (!root::has_properties(rootmap))
                    .then(|| notes::generic_composition_note("anyOf").map(str::to_owned))
                    .flatten()
            });
            if let Some(n) = note {
                cx.note(tool, &n, "root anyOf constraint surfaced as a note");
            }
        }
        if let Some(rootmap) = tool.input_schema.as_object_mut() {
            root::prune_dangling_required(rootmap, cx);
        }
        Ok(true)
    }
}

impl Pass for TypeIntoAnyOf {
    fn name(&self) -> &'static str {
        "type-into-any-of"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("moonshot-type-beside-anyof")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !schema::any_node(&tool.input_schema, &|_, node| flagged(node))? {
            return Ok(Step::Continue);
        }
        // A `$ref` member resolves against the schema as it came in.
        let snapshot = tool.input_schema.clone();
        let mut failed: Option<String> = None;
        schema::rewrite_post_order(&mut tool.input_schema, &mut |path, _, node| {
            if failed.is_none()
                && !path.is_empty()
                && flagged(node)
                && let Err(reason) = self.fix_node(path, node, &snapshot, cx)
            {
                failed = Some(reason);
            }
        })?;
        if let Some(reason) = failed {
            return Ok(Step::FailClosed(reason));
        }
        match self.fix_root(tool, cx) {
            Err(reason) => Ok(Step::FailClosed(reason)),
            // The merge gave the root properties it lacked: a reference
            // that pointed nowhere when `refs-into-defs` ran (which leaves
            // such a one under a keyword that holds no schema) may reach
            // one now. That pass runs again on the merged root, so a
            // second shaping finds nothing left to move (idempotence;
            // found by cargo fuzz).
            Ok(true) => cx.run_again(&RefsIntoDefs::default(), self, tool),
            Ok(false) => Ok(Step::Continue),
        }
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::flip(self, "keep the node's own type", |m| {
                &mut m.remove_parent_type
            }),
            PassMutant::flip(self, "leave typed members as they are", |m| {
                &mut m.narrow_typed_members
            }),
            PassMutant::flip(self, "keep members that share no type with the node", |m| {
                &mut m.drop_disjoint_members
            }),
            PassMutant::flip(self, "leave the root's anyOf beside its type", |m| {
                &mut m.merge_root
            }),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lane::Lane;
    use crate::passes::test_support::{Ran, bytes, marks, run, run_on_tool};

    fn moved(v: Value) -> Ran {
        run(&TypeIntoAnyOf::default(), Lane::Moonshot, v)
    }

    #[test]
    fn moonshot_v1_moves_the_items_type_into_required_only_members() {
        // openclaw#113130: `properties.tasks_attributes.items`.
        let r = moved(
            json!({"type":"object","properties":{"t":{"type":"array","items":{"type":"object","properties":{"a":{},"b":{}},"anyOf":[{"required":["a"]},{"required":["b"]}]}}}}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"t":{"type":"array","items":{"properties":{"a":{},"b":{}},"anyOf":[{"type":"object","required":["a"]},{"type":"object","required":["b"]}]}}}}"#
        );
        assert_eq!(
            r.marks(),
            marks(&[
                ("/properties/t/items/anyOf/0", "type", Action::Added),
                ("/properties/t/items/anyOf/1", "type", Action::Added),
                ("/properties/t/items", "type", Action::Removed),
            ])
        );
        assert_eq!(
            r.records[0].rule.as_deref(),
            Some("moonshot-type-beside-anyof")
        );
        assert_eq!(r.step, Step::Continue);
    }

    #[test]
    fn moonshot_v1_drops_a_type_list_whose_members_already_lie_within_it() {
        // pi-subagents#127: `properties.skill`.
        let r = moved(
            json!({"type":"object","properties":{"skill":{"type":["string","array","boolean"],"anyOf":[{"type":"array","items":{"type":"string"}},{"type":"boolean"},{"type":"string"}]}}}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"skill":{"anyOf":[{"type":"array","items":{"type":"string"}},{"type":"boolean"},{"type":"string"}]}}}"#
        );
        assert_eq!(
            r.marks(),
            marks(&[("/properties/skill", "type", Action::Removed)])
        );
    }

    #[test]
    fn moonshot_v1_narrows_a_number_member_to_integer_and_drops_a_string_member() {
        let r = moved(
            json!({"type":"object","properties":{"p":{"type":"integer","anyOf":[{"type":"number","minimum":1},{"type":"string","pattern":"^[0-9]+$"},{"type":["integer","null"]}]}}}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"p":{"anyOf":[{"type":"integer","minimum":1},{"type":"integer"}]}}}"#
        );
        assert_eq!(
            r.marks(),
            marks(&[
                ("/properties/p/anyOf/0", "type", Action::Rewritten),
                ("/properties/p/anyOf/1", "", Action::Removed),
                ("/properties/p/anyOf/2", "type", Action::Rewritten),
                ("/properties/p", "anyOf", Action::Rewritten),
                ("/properties/p", "type", Action::Removed),
            ])
        );
    }

    #[test]
    fn moonshot_v1_moves_a_ref_member_into_an_all_of_unless_its_target_type_lies_within() {
        let r = moved(
            json!({"type":"object","properties":{"p":{"type":"object","anyOf":[{"$ref":"#/$defs/open"},{"$ref":"#/$defs/typed"},{"$ref":"#/$defs/text"},{"allOf":[{"required":["x"]}],"$ref":"#/$defs/open"}]}},"$defs":{"open":{"properties":{"x":{}}},"typed":{"type":"object"},"text":{"type":"string"}}}),
        );
        assert_eq!(
            bytes(r.schema()),
            r##"{"type":"object","properties":{"p":{"anyOf":[{"type":"object","allOf":[{"$ref":"#/$defs/open"}]},{"$ref":"#/$defs/typed"},{"type":"object","allOf":[{"required":["x"]},{"$ref":"#/$defs/open"}]}]}},"$defs":{"open":{"properties":{"x":{}}},"typed":{"type":"object"},"text":{"type":"string"}}}"##
        );
        assert_eq!(
            r.marks(),
            marks(&[
                ("/properties/p/anyOf/0", "$ref", Action::Rewritten),
                ("/properties/p/anyOf/0", "type", Action::Added),
                ("/properties/p/anyOf/2", "", Action::Removed),
                ("/properties/p/anyOf/3", "$ref", Action::Rewritten),
                ("/properties/p/anyOf/3", "type", Action::Added),
                ("/properties/p", "anyOf", Action::Rewritten),
                ("/properties/p", "type", Action::Removed),
            ])
        );
    }

    #[test]
    fn moonshot_v1_passes_the_type_through_a_wrapper_member_and_types_a_true_member() {
        let r = moved(
            json!({"type":"object","properties":{"p":{"type":"string","anyOf":[{"anyOf":[{"minLength":1},{"format":"date"}]},true]}}}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"p":{"anyOf":[{"anyOf":[{"type":"string","minLength":1},{"type":"string","format":"date"}]},{"type":"string"}]}}}"#
        );
        assert_eq!(
            r.marks(),
            marks(&[
                ("/properties/p/anyOf/0/anyOf/0", "type", Action::Added),
                ("/properties/p/anyOf/0/anyOf/1", "type", Action::Added),
                ("/properties/p/anyOf/1", "type", Action::Added),
                ("/properties/p", "type", Action::Removed),
            ])
        );
    }

    #[test]
    fn moonshot_v1_passes_the_type_into_a_member_whose_own_type_went_to_its_members() {
        // Bottom-up: the inner node gave its type to its members first, so
        // the outer type must not land beside the inner anyOf (a fuzz case).
        let r = moved(
            json!({"type":"object","properties":{"p":{"type":"object","anyOf":[{"type":"object","description":"inner","anyOf":[{"required":["a"]},{"type":"object"}]},{"$ref":"#/$defs/t","anyOf":[{"required":["b"]}]}]}},"$defs":{"t":{"properties":{"b":{}}}}}),
        );
        assert_eq!(
            bytes(r.schema()),
            r##"{"type":"object","properties":{"p":{"anyOf":[{"description":"inner","anyOf":[{"type":"object","required":["a"]},{"type":"object"}]},{"anyOf":[{"type":"object","required":["b"]}],"allOf":[{"$ref":"#/$defs/t"}]}]}},"$defs":{"t":{"properties":{"b":{}}}}}"##
        );
        assert_eq!(
            r.marks(),
            marks(&[
                ("/properties/p/anyOf/0/anyOf/0", "type", Action::Added),
                ("/properties/p/anyOf/0", "type", Action::Removed),
                ("/properties/p/anyOf/1", "$ref", Action::Rewritten),
                ("/properties/p/anyOf/1/anyOf/0", "type", Action::Added),
                ("/properties/p", "type", Action::Removed),
            ])
        );
    }

    #[test]
    fn moonshot_v1_merges_a_typed_root_any_of_and_notes_its_required_groups() {
        // kimi-code#2661: the root keeps type object, the anyOf goes.
        let r = run_on_tool(
            &TypeIntoAnyOf::default(),
            Lane::Moonshot,
            Tool {
                description: Some("Attach a file.".into()),
                ..Tool::new(
                    "t",
                    json!({"type":"object","anyOf":[{"type":"object","properties":{"f":{"type":"string"},"c":{"type":"string"}},"required":["f","c"]},{"type":"object","properties":{"f":{"type":"string"},"u":{"type":"string"}},"required":["f","u"]}]}),
                )
            },
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"f":{"type":"string"},"c":{"type":"string"},"u":{"type":"string"}}}"#
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some(
                "Attach a file.\n\nAt least one of these parameter groups must be provided: f + c | f + u."
            )
        );
        assert_eq!(
            r.marks(),
            marks(&[
                ("", "anyOf", Action::Removed),
                ("/anyOf/0/properties/f", "properties", Action::Rewritten),
                ("/anyOf/0/properties/c", "properties", Action::Rewritten),
                ("/anyOf/1/properties/u", "properties", Action::Rewritten),
                ("", "description", Action::Noted),
            ])
        );
    }

    #[test]
    fn moonshot_v1_moves_a_reference_the_root_merge_made_reachable_into_defs() {
        // cargo fuzz (shape_idempotent): `#/properties/a` pointed nowhere
        // until the merge; left for the next shaping, it moved only then.
        let r = moved(
            json!({"type":"object","anyOf":[{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string","x-same-as":{"$ref":"#/properties/a"}}}},{"type":"object","properties":{"c":{"type":"integer"}}}]}),
        );
        assert_eq!(
            bytes(r.schema()),
            r##"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string","x-same-as":{"$ref":"#/$defs/a"}},"c":{"type":"integer"}},"$defs":{"a":{"type":"string"}}}"##
        );
        assert_eq!(
            r.marks(),
            marks(&[
                ("", "anyOf", Action::Removed),
                ("/anyOf/0/properties/a", "properties", Action::Rewritten),
                ("/anyOf/0/properties/b", "properties", Action::Rewritten),
                ("/anyOf/1/properties/c", "properties", Action::Rewritten),
                ("/$defs/a", "$defs", Action::Added),
                ("/properties/b", "x-same-as", Action::Rewritten),
            ])
        );
        assert_eq!(
            r.records[4].rule.as_deref(),
            Some("moonshot-ref-outside-defs")
        );
    }

    #[test]
    fn moonshot_v1_merges_the_one_root_member_its_type_admits_with_its_required() {
        // A nullable root model after the object floor: the null member
        // matches nothing under type object, the other is the root.
        let r = moved(
            json!({"type":"object","anyOf":[{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]},{"type":"null"}]}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}"#
        );
        assert_eq!(
            r.marks(),
            marks(&[
                ("/anyOf/1", "", Action::Removed),
                ("", "anyOf", Action::Removed),
                ("/anyOf/0/properties/q", "properties", Action::Rewritten),
                ("", "required", Action::Added),
            ])
        );
        assert_eq!(r.tool.description, None);
    }

    #[test]
    fn moonshot_v1_fails_closed_where_no_member_admits_the_nodes_type() {
        let r = moved(
            json!({"type":"object","properties":{"a":{"type":"array","items":{"type":"array","anyOf":[{"type":"object"},{"type":"object","required":["e"]}]}}}}),
        );
        assert_eq!(
            r.step,
            Step::FailClosed(
                "no anyOf member at /properties/a/items/anyOf admits the node's type".to_owned()
            )
        );
        let root = moved(json!({"type":"object","anyOf":[{"type":"string"},{"type":"null"}]}));
        assert_eq!(
            root.step,
            Step::FailClosed("no member of the root anyOf admits the root's type".to_owned())
        );
    }

    #[test]
    fn moonshot_v1_leaves_an_any_of_without_a_type_beside_it() {
        let input = json!({"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]},"b":{"type":"string","oneOf":[{"minLength":1},{"maxLength":0}]}}});
        let r = moved(input.clone());
        assert_eq!(r.schema(), &input);
        assert!(r.records.is_empty());
    }
}
