//! After the rewrites: the post-gate on the shape that would ship, and the
//! strict flag.

use std::convert::Infallible;
use std::ops::ControlFlow;

use serde_json::{Map, Value, json};

use super::subset::{UNREPRESENTABLE, at};
use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::{self, NodePath, TooDeep};
use crate::tool::Tool;

/// Fail closed when the shape that would ship still needs something the
/// strict subset cannot carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DeepseekPostGate {
    pub(crate) unrepresentable: Vec<&'static str>,
    pub(crate) null_encodings: bool,
    pub(crate) tuple_items: bool,
    pub(crate) emptied_objects: bool,
    pub(crate) typeless_maps: bool,
    pub(crate) closed_branches: bool,
}

impl Default for DeepseekPostGate {
    fn default() -> Self {
        Self {
            unrepresentable: UNREPRESENTABLE.to_vec(),
            null_encodings: true,
            tuple_items: true,
            emptied_objects: true,
            typeless_maps: true,
            closed_branches: true,
        }
    }
}

/// A property name a closed `node` forbids although a call must or may
/// send it: one its own `required` or a composition branch (`required` or
/// `properties`) names, and its own `properties` does not declare.
/// `additionalProperties: false` does not look into applicators, so no
/// call could send it (and a required one makes every call invalid).
/// Or (checked second) a name the object requires that its closed
/// branches forbid ([`forbidden_by_branches`]).
pub(super) fn forbidden_name<'a>(
    root: &'a Value,
    node: &'a Map<String, Value>,
) -> Option<Forbidden<'a>> {
    forbidden_by_closed(root, node).or_else(|| {
        forbidden_by_branches(root, node).map(|(key, name)| Forbidden::ByBranches(key, name))
    })
}

/// The first half of [`forbidden_name`]: what the closed `node` forbids.
pub(super) fn forbidden_by_closed<'a>(
    root: &'a Value,
    node: &'a Map<String, Value>,
) -> Option<Forbidden<'a>> {
    if node.field("additionalProperties") != Some(&Value::Bool(false)) {
        return None;
    }
    let own = node.field("properties").and_then(Value::as_object);
    let undeclared = |n: &&str| own.is_none_or(|o| !o.contains_key(*n));
    if let Some(name) = node
        .field("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .find(undeclared)
    {
        return Some(Forbidden::Required(name));
    }
    // A `$ref` beside the closed object's keywords is a branch of one.
    let by_ref = node
        .field("$ref")
        .and_then(Value::as_str)
        .and_then(|t| local_target(root, t));
    ["anyOf", "oneOf", "allOf", "$ref"]
        .into_iter()
        .find_map(|key| {
            let branches: Vec<&Value> = if key == "$ref" {
                vec![by_ref?]
            } else {
                node.field(key)
                    .and_then(Value::as_array)?
                    .iter()
                    .map(|b| resolve_branch(root, b))
                    .collect()
            };
            branches.into_iter().find_map(|b| {
                // A branch that is a local `$ref` stands for its target.
                let declared = b
                    .field("properties")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flat_map(|p| p.keys());
                let required = b
                    .field("required")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|r| r.as_str());
                let name = declared
                    .map(String::as_str)
                    .chain(required)
                    .find(undeclared)?;
                Some(Forbidden::InBranches(key, name))
            })
        })
}

/// A name no call could send (see [`forbidden_name`]).
pub(super) enum Forbidden<'a> {
    /// The closed object's own required list names it.
    Required(&'a str),
    /// Only the closed object's branches (`key`) name it.
    InBranches(&'static str, &'a str),
    /// The object requires it and its closed `key` branches forbid it.
    ByBranches(&'static str, &'a str),
}

/// The schema a local `$ref` (`#…`) points at.
pub(super) fn local_target<'a>(root: &'a Value, target: &str) -> Option<&'a Value> {
    let p = target.strip_prefix('#')?;
    if p.is_empty() {
        Some(root)
    } else {
        root.pointer(p)
    }
}

/// A local `$ref` branch stands for its target.
pub(super) fn resolve_branch<'a>(root: &'a Value, b: &'a Value) -> &'a Value {
    b.field("$ref")
        .and_then(Value::as_str)
        .and_then(|t| local_target(root, t))
        .unwrap_or(b)
}

/// The other direction: a name the node requires that its closed `$ref`
/// target forbids, or that no closed `anyOf`/`oneOf` branch takes: no call
/// could send it.
pub(super) fn forbidden_by_branches<'a>(
    root: &'a Value,
    node: &'a Map<String, Value>,
) -> Option<(&'static str, &'a str)> {
    let required: Vec<&str> = node
        .field("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if required.is_empty() {
        return None;
    }
    // A branch (a local `$ref` standing for its target) that is closed and
    // does not declare `name`.
    let forbids = |b: &Value, name: &str| {
        let b = resolve_branch(root, b);
        b.field("additionalProperties") == Some(&Value::Bool(false))
            && b.field("properties")
                .and_then(Value::as_object)
                .is_none_or(|p| !p.contains_key(name))
    };
    // A `$ref` beside the object's keywords is a conjunction, as an
    // `allOf` of one (normalize collapses a one-branch `oneOf` into it).
    if let Some(target) = node
        .field("$ref")
        .and_then(Value::as_str)
        .and_then(|t| local_target(root, t))
        && let Some(name) = required.iter().find(|n| forbids(target, n))
    {
        return Some(("$ref", *name));
    }
    // (`allOf` never reaches this gate: strict mode has no spelling for it.)
    ["anyOf", "oneOf"].into_iter().find_map(|key| {
        let branches = node.field(key).and_then(Value::as_array)?;
        if branches.is_empty() {
            return None;
        }
        let name = required
            .iter()
            .find(|n| branches.iter().all(|b| forbids(b, n)))?;
        Some((key, *name))
    })
}

impl DeepseekPostGate {
    fn judge(
        &self,
        root: &Value,
        path: &NodePath<'_>,
        node: &Map<String, Value>,
    ) -> Option<String> {
        if self.null_encodings {
            if node.has("nullable") {
                return Some(format!(
                    "nullable at {} is outside the strict subset",
                    at(path)
                ));
            }
            match node.field("type") {
                Some(Value::Array(_)) => {
                    return Some(format!(
                        "type array at {} is outside the strict subset",
                        at(path)
                    ));
                }
                Some(Value::String(t)) if t == "null" => {
                    return Some(format!(
                        "type null at {} is outside the strict subset",
                        at(path)
                    ));
                }
                _ => {}
            }
            if node
                .field("enum")
                .and_then(Value::as_array)
                .is_some_and(|e| e.contains(&Value::Null))
            {
                return Some(format!(
                    "null enum member at {} is outside the strict subset",
                    at(path)
                ));
            }
            if node.field("const") == Some(&Value::Null) {
                return Some(format!(
                    "const: null at {} is outside the strict subset",
                    at(path)
                ));
            }
        }
        if let Some(kw) = self.unrepresentable.iter().find(|k| node.has(k)) {
            return Some(format!(
                "{kw} at {} cannot be expressed in strict mode",
                at(path)
            ));
        }
        if self.tuple_items && node.field("items").is_some_and(Value::is_array) {
            return Some(format!(
                "tuple-form items at {} cannot be expressed in strict mode",
                at(path)
            ));
        }
        if self.emptied_objects
            && !path.is_empty()
            && schema::is_object_schema(node)
            && node
                .field("properties")
                .and_then(Value::as_object)
                .is_none_or(Map::is_empty)
        {
            return Some(format!(
                "object at {} has no properties left: strict mode would only accept {{}}",
                at(path)
            ));
        }
        if self.closed_branches
            && let Some(found) = forbidden_name(root, node)
        {
            let at = at(path);
            return Some(match found {
                Forbidden::Required(name) => format!(
                    "closed object at {at} forbids {name:?}, which its required list names: no call could send it"
                ),
                Forbidden::InBranches("$ref", name) => format!(
                    "closed object at {at} forbids {name:?}, which only its $ref target names: no call could send it"
                ),
                Forbidden::InBranches(key, name) => format!(
                    "closed object at {at} forbids {name:?}, which only its {key} branches name: no call could send it"
                ),
                Forbidden::ByBranches("$ref", name) => format!(
                    "the closed $ref target at {at} forbids {name:?}, which the object requires: no call could send it"
                ),
                Forbidden::ByBranches(key, name) => format!(
                    "closed {key} branches at {at} forbid {name:?}, which the object requires: no call could send it"
                ),
            });
        }
        if self.typeless_maps
            && !schema::is_object_schema(node)
            && node
                .field("additionalProperties")
                .is_some_and(|a| a != &json!(false))
        {
            return Some(format!(
                "additionalProperties at {} on a node that is not an object schema",
                at(path)
            ));
        }
        None
    }
}

impl Pass for DeepseekPostGate {
    fn name(&self) -> &'static str {
        "deepseek-post-gate"
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out =
            PassMutant::drop_each(self, "unrepresentable keywords", |p| &mut p.unrepresentable);
        out.push(PassMutant::flip(
            self,
            "skip the null-encoding checks",
            |p| &mut p.null_encodings,
        ));
        out.push(PassMutant::flip(self, "skip the tuple items check", |p| {
            &mut p.tuple_items
        }));
        out.push(PassMutant::flip(
            self,
            "skip the emptied-object check",
            |p| &mut p.emptied_objects,
        ));
        out.push(PassMutant::flip(self, "skip the typeless map check", |p| {
            &mut p.typeless_maps
        }));
        out.push(PassMutant::flip(
            self,
            "skip the closed-branches check",
            |p| &mut p.closed_branches,
        ));
        out
    }

    fn apply(&self, tool: &mut Tool, _cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let mut found = None;
        let root = &tool.input_schema;
        // Every node is walked (past `MAX_DEPTH` is `TooDeep` even after a
        // finding); a pointer is built for the first failing node only.
        let ControlFlow::Continue(()) =
            schema::search::<Infallible>(root, &|_, _| true, &mut |path, node| {
                if found.is_none() {
                    found = self.judge(root, path, node);
                }
                ControlFlow::Continue(())
            })?;
        Ok(found.map_or(Step::Continue, Step::FailClosed))
    }
}

/// Mark the tool strict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct DeepseekMarkStrict;

impl Pass for DeepseekMarkStrict {
    fn name(&self) -> &'static str {
        "deepseek-mark-strict"
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if tool.strict != Some(true) {
            tool.strict = Some(true);
            cx.record("", "strict", Action::Added, "tool marked strict");
        }
        Ok(Step::Continue)
    }
}
