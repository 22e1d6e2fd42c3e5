//! `normalize`: the shared registry normalization both profiles run first
//! (the seeds' "registry sanitize").
//!
//! Bottom-up over every schema position, each node until nothing changes:
//! 1. nullable-union collapse: `anyOf|oneOf: [X, {"type":"null"}]` (either
//!    order) → X's keys spliced in place of the union, then `nullable: true`
//!    (only when X declares a `type`: `nullable` qualifies a type, and beside
//!    a typeless X such as a `$ref` or a bare `enum` it would not admit null,
//!    so that union stays); with `null_ignores_other_types` (v1 on OpenAI
//!    Responses) the null branch may also carry keywords that constrain only
//!    strings, numbers, objects or arrays (`{"type":"null","pattern":…}`
//!    admits exactly null too): they go with the branch, each recorded;
//! 2. single-element union collapse: `anyOf|oneOf|allOf: [X]` → X's keys
//!    spliced in place (so a nested union can be hoisted to its parent);
//! 3. a bare `{"type":"object"}` (no `properties`) gets `properties: {}`;
//! 4. in a node that declares `properties`, `required` entries naming no
//!    property are pruned, and an emptied `required` goes. In-place
//!    subschemas (`allOf`/`anyOf`/`oneOf` branches, `not`, `if`/`then`/
//!    `else`, `dependentSchemas` values) and nodes without `properties` are
//!    left alone: their entries may name the parent's properties, and a prune
//!    would turn `not: {"required": [..]}` into `not: {}` (reject everything).
//!
//! A collapse is a conjunction (`node ∧ X`), so X's keys merge into the node
//! only where that is exact: a key the node lacks is added, an equal value
//! is kept once, `properties` merge by name (a name declared on both sides
//! with different schemas blocks the collapse), `required` lists are united.
//! Annotations (`description`, `title`, `$comment`, `examples`) the node
//! already has win and the branch's is recorded as removed. Any other
//! conflict leaves the union in place.

use serde_json::{Map, Value, json};

use super::{Cx, Pass, PassMutant, Step};
use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::schema::{self, NodePath, TooDeep};
use crate::tool::Tool;

/// See the module docs. Each flag switches one of the four steps (all on in
/// both profiles); the flags and keyword sets are the pass's mutation points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Normalize {
    pub(crate) collapse_nullable: bool,
    pub(crate) collapse_single: bool,
    pub(crate) inject_properties: bool,
    pub(crate) prune_required: bool,
    /// Union keywords the nullable collapse applies to.
    pub(crate) nullable_unions: Vec<&'static str>,
    /// Union keywords the single-branch collapse applies to.
    pub(crate) single_unions: Vec<&'static str>,
    /// Annotations on which the node's own value wins a collapse.
    pub(crate) annotations: Vec<&'static str>,
    /// A nullable collapse adds `nullable: true`.
    pub(crate) mark_nullable: bool,
    /// The `required` prune skips in-place subschemas.
    pub(crate) spare_in_place: bool,
    /// A null branch's keywords for other types (`for_another_type`) do not stop
    /// the nullable collapse. Off in v0 and on the lanes whose later passes
    /// cannot strip such a keyword; on where one can (the Responses
    /// lookaround strip), or a second run would collapse what the first
    /// left: `{"type":"null","pattern":"(?=a)b"}` becomes `{"type":"null"}`
    /// after this pass ran.
    pub(crate) null_ignores_other_types: bool,
}

/// A keyword of one of `schema::KEYWORD_FAMILIES` (none is null's):
/// beside `"type": "null"` it admits every instance the branch admits, null.
fn for_another_type(keyword: &str) -> bool {
    schema::KEYWORD_FAMILIES
        .iter()
        .any(|(_, family)| family.contains(&keyword))
}

impl Default for Normalize {
    fn default() -> Self {
        Self {
            collapse_nullable: true,
            collapse_single: true,
            inject_properties: true,
            prune_required: true,
            nullable_unions: vec!["anyOf", "oneOf"],
            single_unions: vec!["anyOf", "oneOf", "allOf"],
            annotations: vec!["description", "title", "$comment", "examples"],
            mark_nullable: true,
            spare_in_place: true,
            null_ignores_other_types: false,
        }
    }
}

impl Normalize {
    /// v1 on OpenAI Responses: see [`Normalize::null_ignores_other_types`].
    pub(crate) fn ignoring_other_types_on_null() -> Self {
        Self {
            null_ignores_other_types: true,
            ..Self::default()
        }
    }

    /// The collapses alone (no `properties` added, no `required` pruned):
    /// what a later pass runs again once its removals made two schemas
    /// equal (`Cx::run_again`).
    pub(crate) fn collapses_only(self) -> Self {
        Self {
            inject_properties: false,
            prune_required: false,
            ..self
        }
    }

    /// `Some(keys)` when `v` admits exactly null: `{"type":"null"}` plus,
    /// with `null_ignores_other_types`, the keywords `keys` for another type.
    fn null_branch<'v>(&self, v: &'v Value) -> Option<Vec<&'v str>> {
        let m = v.as_object()?;
        if m.field("type").and_then(Value::as_str) != Some("null") {
            return None;
        }
        let mut others = Vec::new();
        for k in m.keys().filter(|k| *k != "type") {
            if !(self.null_ignores_other_types && for_another_type(k)) {
                return None;
            }
            others.push(k.as_str());
        }
        Some(others)
    }
}

/// How one branch key joins the node.
enum Join {
    /// Insert at the union's position.
    Add,
    /// Already there with the same value.
    Same,
    /// Merge these property entries into the node's `properties`.
    Properties(Vec<(String, Value)>),
    /// Append these names to the node's `required`.
    Required(Vec<Value>),
    /// The node's annotation wins; the branch's is lost.
    Shadowed,
}

/// Plan the conjunction of `node` (without `keyword`) and `branch`; `None`
/// when it cannot be exact.
fn plan(
    node: &Map<String, Value>,
    keyword: &str,
    branch: &Map<String, Value>,
    annotations: &[&str],
) -> Option<Vec<(String, Join)>> {
    let mut out = Vec::new();
    for (k, v) in branch {
        let join = match node.field(k) {
            _ if k == keyword => return None,
            None => Join::Add,
            Some(existing) if existing == v => Join::Same,
            Some(Value::Object(mine)) if k == "properties" => {
                let theirs = v.as_object()?;
                let mut add = Vec::new();
                for (name, s) in theirs {
                    match mine.get(name) {
                        None => add.push((name.clone(), s.clone())),
                        Some(m) if m == s => {}
                        Some(_) => return None,
                    }
                }
                Join::Properties(add)
            }
            Some(Value::Array(mine)) if k == "required" => {
                let theirs = v.as_array()?;
                Join::Required(
                    theirs
                        .iter()
                        .filter(|r| !mine.contains(r))
                        .cloned()
                        .collect(),
                )
            }
            Some(_) if annotations.contains(&k.as_str()) => Join::Shadowed,
            Some(_) => return None,
        };
        out.push((k.clone(), join));
    }
    Some(out)
}

/// Replace `node[keyword]` by the conjunction with `branch` (see module
/// docs). Returns the shadowed branch keys, or `None` (node untouched) when
/// the conjunction cannot be exact.
fn collapse(
    node: &mut Map<String, Value>,
    keyword: &str,
    branch: &Map<String, Value>,
    nullable: bool,
    annotations: &[&str],
) -> Option<Vec<String>> {
    let plan = plan(node, keyword, branch, annotations)?;
    let old = std::mem::take(node);
    let mut shadowed = Vec::new();
    for (k, v) in old {
        if k != keyword {
            node.insert(k, v);
            continue;
        }
        for (bk, join) in &plan {
            if matches!(join, Join::Add) {
                node.insert(bk.clone(), branch[bk].clone());
            }
        }
        if nullable && !node.has("nullable") && !branch.has("nullable") {
            node.insert("nullable".to_owned(), json!(true));
        }
    }
    for (bk, join) in plan {
        match join {
            Join::Properties(add) => {
                if let Some(Value::Object(p)) = node.field_mut("properties") {
                    p.extend(add);
                }
            }
            Join::Required(add) => {
                if let Some(Value::Array(r)) = node.field_mut("required") {
                    r.extend(add);
                }
            }
            Join::Shadowed => shadowed.push(bk),
            Join::Add | Join::Same => {}
        }
    }
    Some(shadowed)
}

impl Normalize {
    /// One rewrite of one node; `true` when something changed.
    fn step(&self, path: &NodePath<'_>, node: &mut Map<String, Value>, cx: &mut Cx<'_>) -> bool {
        // Both collapses need a union, an array value: most nodes hold
        // none, and one look at their values settles them.
        if !node.values().any(Value::is_array) {
            return false;
        }
        if self.collapse_nullable {
            for kw in &self.nullable_unions {
                let Some(Value::Array(branches)) = node.field(kw) else {
                    continue;
                };
                if branches.len() != 2 {
                    continue;
                }
                let (keep, null_at, others) = if let Some(o) = self.null_branch(&branches[1]) {
                    (0, 1, o)
                } else if let Some(o) = self.null_branch(&branches[0]) {
                    (1, 0, o)
                } else {
                    continue;
                };
                let others: Vec<String> = others.into_iter().map(str::to_owned).collect();
                let kept = match &branches[keep] {
                    Value::Object(m) => m.clone(),
                    Value::Bool(true) => Map::new(),
                    _ => continue,
                };
                // `nullable` qualifies a `type` (OpenAPI 3.0); beside a
                // typeless branch (a `$ref`, a bare `enum`, …) it would not
                // admit null, so such a union stays a union.
                if !kept.has("type") {
                    continue;
                }
                let Some(lost) = collapse(node, kw, &kept, self.mark_nullable, &self.annotations)
                else {
                    continue;
                };
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
                for k in others {
                    cx.record(
                        &format!("{path}/{kw}/{null_at}/{}", schema::escape_token(&k)),
                        &k,
                        Action::Removed,
                        "null branch keyword constrains only other types (no null instance)",
                    );
                }
                return true;
            }
        }
        if self.collapse_single {
            for kw in &self.single_unions {
                let Some(Value::Array(branches)) = node.field(kw) else {
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
                let Some(lost) = collapse(node, kw, &only, false, &self.annotations) else {
                    continue;
                };
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

    fn finish(
        &self,
        path: &NodePath<'_>,
        in_place: bool,
        node: &mut Map<String, Value>,
        cx: &mut Cx<'_>,
    ) {
        if self.inject_properties && schema::has_type(node, "object") && !node.has("properties") {
            node.insert("properties".into(), json!({}));
            cx.record(
                path,
                "properties",
                Action::Added,
                "bare object schema given empty properties",
            );
        }
        if self.prune_required && !(in_place && self.spare_in_place) {
            let Some(Value::Array(required)) = node.field("required") else {
                return;
            };
            let Some(props) = node.field("properties").and_then(Value::as_object) else {
                return;
            };
            let named = |r: &Value| r.as_str().is_some_and(|n| props.has(n));
            // Most lists name only properties: nothing to copy or record.
            if required.iter().all(named) {
                return;
            }
            let (keep, gone): (Vec<Value>, Vec<Value>) = required.iter().cloned().partition(named);
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

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out = vec![
            PassMutant::flip(self, "skip the nullable-union collapse", |p| {
                &mut p.collapse_nullable
            }),
            PassMutant::flip(self, "skip the single-branch collapse", |p| {
                &mut p.collapse_single
            }),
            PassMutant::flip(self, "skip the bare-object properties", |p| {
                &mut p.inject_properties
            }),
            PassMutant::flip(self, "skip the dangling-required prune", |p| {
                &mut p.prune_required
            }),
            PassMutant::flip(self, "skip nullable: true after a collapse", |p| {
                &mut p.mark_nullable
            }),
            PassMutant::flip(self, "prune required in in-place subschemas too", |p| {
                &mut p.spare_in_place
            }),
        ];
        if self.null_ignores_other_types {
            out.push(PassMutant::flip(
                self,
                "let a null branch's keywords for other types block the collapse",
                |p| &mut p.null_ignores_other_types,
            ));
        }
        out.extend(PassMutant::drop_each(self, "nullable unions", |p| {
            &mut p.nullable_unions
        }));
        out.extend(PassMutant::drop_each(self, "single-branch unions", |p| {
            &mut p.single_unions
        }));
        out.extend(PassMutant::drop_each(
            self,
            "parent-wins annotations",
            |p| &mut p.annotations,
        ));
        out
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_post_order(&mut tool.input_schema, &mut |path, via, node| {
            // Each collapse removes one union keyword, so this terminates.
            let mut guard = 0;
            while self.step(path, node, cx) && guard < 64 {
                guard += 1;
            }
            let in_place = via.is_some_and(schema::ChildKey::is_in_place);
            self.finish(path, in_place, node, cx);
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
    fn normalize_keeps_a_nullable_union_around_a_typeless_branch() {
        // `{"$ref": …, "nullable": true}` and `{"enum": […], "nullable": true}`
        // would not admit null: the unions stay (and a second run of a v1
        // strict pass's `anyOf: [X, null]` is a no-op).
        for schema in [
            json!({"type":"object","properties":{"r":{"anyOf":[{"$ref":"#/$defs/x"},{"type":"null"}]}},"$defs":{"x":{"type":"string"}}}),
            json!({"type":"object","properties":{"e":{"oneOf":[{"type":"null"},{"enum":["a","b"]}]}}}),
        ] {
            let r = norm(schema.clone());
            assert_eq!(bytes(r.schema()), bytes(&schema));
            assert!(r.marks().is_empty(), "{:?}", r.marks());
        }
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
    fn normalize_collapses_a_null_branch_with_keywords_for_other_types_when_asked() {
        let v =
            json!({"anyOf":[{"type":"null","pattern":"(?=a)b","minItems":2},{"type":"string"}]});
        let r = run(
            &Normalize::ignoring_other_types_on_null(),
            Lane::OpenaiResponses,
            v.clone(),
        );
        assert_eq!(bytes(r.schema()), r#"{"type":"string","nullable":true}"#);
        assert_eq!(
            r.marks(),
            [
                (String::new(), "anyOf".into(), Action::Rewritten),
                ("/anyOf/0/pattern".into(), "pattern".into(), Action::Removed),
                (
                    "/anyOf/0/minItems".into(),
                    "minItems".into(),
                    Action::Removed
                ),
            ]
        );
        // Off (v0, the other lanes): the union stays.
        let r = norm(v.clone());
        assert_eq!(r.schema(), &v);
        assert!(r.records.is_empty());
    }

    #[test]
    fn normalize_keeps_a_null_branch_whose_keyword_constrains_null() {
        // `enum`, `const`, `not` and annotations speak about null too.
        for branch in [
            json!({"type":"null","enum":["a"]}),
            json!({"type":"null","const":1}),
            json!({"type":"null","not":{}}),
            json!({"type":"null","description":"none"}),
            json!({"type":"null","pattern":"x","default":null}),
        ] {
            let v = json!({"anyOf":[branch,{"type":"string"}]});
            let r = run(
                &Normalize::ignoring_other_types_on_null(),
                Lane::OpenaiResponses,
                v.clone(),
            );
            assert_eq!(r.schema(), &v);
            assert!(r.records.is_empty());
        }
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
        let r = norm(json!({"type":"object","properties":{"a":{}},"required":["ghost"]}));
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"a":{}}}"#
        );
    }

    #[test]
    fn normalize_leaves_required_only_branches_alone() {
        // Their entries name the parent's properties: a prune there would
        // erase the constraint the note needs (seed 000 MINOR-5/9).
        let v = json!({"type":"object","properties":{"a":{},"b":{}},"oneOf":[{"required":["a"]},{"required":["b"]}]});
        let r = norm(v.clone());
        assert_eq!(r.schema(), &v);
        assert!(r.records.is_empty());
    }

    #[test]
    fn normalize_leaves_required_in_dependent_schemas_and_branches_with_properties() {
        let v = json!({"type":"object","properties":{"mode":{},"goal":{}},
            "dependentSchemas":{"mode":{"properties":{"mode":{"const":"x"}},"required":["goal"]}},
            "anyOf":[{"properties":{"mode":{}},"required":["goal"]},{"required":["mode"]}]});
        let r = norm(v.clone());
        assert_eq!(r.schema(), &v);
        assert!(r.records.is_empty());
    }

    #[test]
    fn normalize_never_turns_not_required_into_not_anything() {
        let v = json!({"type":"object","properties":{"force":{},"dry_run":{}},"not":{"required":["force","dry_run"]}});
        assert_eq!(norm(v.clone()).schema(), &v);
    }

    #[test]
    fn normalize_spreads_a_single_branch_required_group_onto_its_parent() {
        let r = norm(
            json!({"type":"object","properties":{"a":{},"b":{}},"oneOf":[{"required":["a"]}]}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"a":{},"b":{}},"required":["a"]}"#
        );
    }

    #[test]
    fn normalize_merges_a_single_branch_into_the_parents_properties_and_required() {
        let r = norm(
            json!({"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"],
            "oneOf":[{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}]}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"confirm":{"type":"boolean"},"path":{"type":"string"}},"required":["confirm","path"]}"#
        );
    }

    #[test]
    fn normalize_keeps_a_single_branch_union_whose_conjunction_is_not_exact() {
        for v in [
            json!({"type":"object","properties":{"a":{"type":"string"}},"oneOf":[{"properties":{"a":{"type":"integer"}}}]}),
            json!({"type":"string","anyOf":[{"type":"integer"}]}),
            json!({"minimum":1,"allOf":[{"minimum":2}]}),
        ] {
            let r = norm(v.clone());
            assert_eq!(r.schema(), &v);
        }
    }

    #[test]
    fn normalize_keeps_a_nullable_union_whose_branch_conflicts_with_its_parent() {
        let v = json!({"type":"string","anyOf":[{"type":"integer"},{"type":"null"}]});
        assert_eq!(norm(v.clone()).schema(), &v);
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
