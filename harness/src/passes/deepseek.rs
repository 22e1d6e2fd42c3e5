//! DeepSeek strict function calling (`deepseek-strict`), seed 002.
//!
//! v0 is one pass (`deepseek-strict-v0`): every object gets
//! `additionalProperties: false` and all its properties required, optional
//! properties gain `nullable: true`, `const` ships as is, every tool is strict.
//!
//! v1 holds the shape to DeepSeek's documented strict subset, one rule per
//! pass, in this order (after `normalize`):
//! 1. `deepseek-strict-unusable`: tools named in the configured
//!    `strict_unusable` list fail closed;
//! 2. `deepseek-pre-gate`: on the shape that will ship (optional
//!    properties excluded), fail closed on a root that is not a JSON object,
//!    schema-form
//!    `dependencies`/`dependentSchemas`, `const: null`, and a root map shape;
//! 3. `deepseek-remove-optionals`: optional properties are removed and listed
//!    in a description note; a removal that empties a root that had
//!    properties fails closed (authored no-argument roots stay strict);
//! 4. `deepseek-const-to-enum`: non-numeric `const` → `enum: [v]`, yielding to
//!    an existing `enum`; `const: null` dropped;
//! 5. `deepseek-widening-strips`: keywords outside the subset whose removal
//!    only widens what the endpoint accepts are stripped and noted;
//! 6. `deepseek-close-objects`: every object requires all its properties and
//!    gets `additionalProperties: false`;
//! 7. `deepseek-post-gate`: fail closed when the shape still needs a null
//!    encoding, a structural or conditional keyword, tuple `items`,
//!    `oneOf`/`allOf`, an emptied nested object, or a typeless map;
//! 8. `deepseek-mark-strict`: `strict: true`.
//!
//! Failing closed ships the tool exactly as it came in, without the flag.

use serde_json::{Map, Value, json};

use super::notes::{self, Unenforced};
use super::{Cx, Pass, PassMutant, Step};
use crate::degradation::Action;
use crate::schema::{self, ChildKey, MAX_DEPTH, TooDeep};
use crate::tool::Tool;

/// DeepSeek's documented `format` values.
pub(crate) const FORMATS: &[&str] = crate::facts::deepseek::STRICT_FORMATS.items;

/// Keywords stripped because removing them only widens what is accepted.
pub(crate) const WIDENING: &[&str] = &[
    "patternProperties",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "dependentRequired",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "minContains",
    "maxContains",
];

/// Keywords the strict subset cannot express: a shape needing one fails closed.
pub(crate) const UNREPRESENTABLE: &[&str] = &[
    "not",
    "if",
    "then",
    "else",
    "contains",
    "prefixItems",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "oneOf",
    "allOf",
    "dependentSchemas",
];

/// Pre-order walk over the schema positions that will ship: the values of
/// optional properties are skipped (the removal pass deletes them). Stops at
/// the first `Some(reason)` the callback returns.
type Judge<'a> = dyn FnMut(&str, &Map<String, Value>) -> Option<String> + 'a;

fn find_in_shipped(root: &Value, f: &mut Judge<'_>) -> Result<Option<String>, TooDeep> {
    fn go(
        v: &Value,
        path: &mut String,
        depth: usize,
        f: &mut Judge<'_>,
    ) -> Result<Option<String>, TooDeep> {
        let Some(map) = v.as_object() else {
            return Ok(None);
        };
        if depth > MAX_DEPTH {
            return Err(TooDeep {
                path: schema::display_path(path),
                limit: MAX_DEPTH,
            });
        }
        if let Some(r) = f(path, map) {
            return Ok(Some(r));
        }
        let required = schema::required_names(map);
        for child in schema::children(map) {
            if let ChildKey::Named("properties", name) = &child
                && !required.contains(name)
            {
                continue;
            }
            let len = path.len();
            path.push_str(&child.suffix());
            if let Some(sub) = child.get(map)
                && let Some(r) = go(sub, path, depth + 1, f)?
            {
                return Ok(Some(r));
            }
            path.truncate(len);
        }
        Ok(None)
    }
    go(root, &mut String::new(), 0, f)
}

/// Which halves of [`close_object`] run (both, outside mutants).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Close {
    pub(crate) require_all: bool,
    pub(crate) forbid_additional: bool,
}

impl Default for Close {
    fn default() -> Self {
        Self {
            require_all: true,
            forbid_additional: true,
        }
    }
}

/// Require every property and forbid additional ones on one object node.
/// Existing `required` entries keep their order; missing property names
/// follow in property order (no needless byte change).
fn close_object(path: &str, node: &mut Map<String, Value>, close: Close, cx: &mut Cx<'_>) {
    let names: Vec<String> = node
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    let mut required: Vec<String> = schema::required_names(node)
        .into_iter()
        .filter(|r| names.contains(r))
        .collect();
    required.dedup();
    for n in &names {
        if !required.contains(n) {
            required.push(n.clone());
        }
    }
    if close.require_all {
        cx.set_keyword(
            path,
            node,
            ("properties", "required"),
            json!(required),
            "strict mode requires every property",
        );
    }
    if close.forbid_additional {
        cx.set_keyword(
            path,
            node,
            ("required", "additionalProperties"),
            json!(false),
            "strict mode closes every object",
        );
    }
}

fn at(path: &str) -> String {
    schema::display_path(path)
}

// ---------------------------------------------------------------- v0

/// The old line's strict shaping (see module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DeepseekStrictV0;

impl Pass for DeepseekStrictV0 {
    fn name(&self) -> &'static str {
        "deepseek-strict-v0"
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            if !schema::is_object_schema(node) {
                return true;
            }
            let required = schema::required_names(node);
            if let Some(Value::Object(props)) = node.get_mut("properties") {
                for (name, sub) in props.iter_mut() {
                    if required.contains(name) {
                        continue;
                    }
                    if let Value::Object(s) = sub
                        && s.get("nullable") != Some(&json!(true))
                    {
                        s.insert("nullable".into(), json!(true));
                        cx.record(
                            &schema::child_path(&format!("{path}/properties"), name),
                            "nullable",
                            Action::Added,
                            "optional property made nullable and required",
                        );
                    }
                }
            }
            close_object(path, node, Close::default(), cx);
            true
        })?;
        if tool.strict != Some(true) {
            tool.strict = Some(true);
            cx.record("", "strict", Action::Added, "tool marked strict");
        }
        Ok(Step::Continue)
    }
}

// ---------------------------------------------------------------- v1

/// Fail closed for tools the configuration names as unusable in strict mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct DeepseekStrictUnusable;

impl Pass for DeepseekStrictUnusable {
    fn name(&self) -> &'static str {
        "deepseek-strict-unusable"
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if cx.config.strict_unusable.contains(&tool.name) {
            return Ok(Step::FailClosed(format!(
                "tool `{}` is listed in strict_unusable: its runtime needs values the strict subset cannot require",
                tool.name
            )));
        }
        Ok(Step::Continue)
    }
}

/// Checks that must judge the shape before later passes erase the evidence.
/// Each field switches one check (the pass's mutation points).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DeepseekPreGate {
    pub(crate) non_object_root: bool,
    pub(crate) map_root: bool,
    pub(crate) dependent_schemas: bool,
    pub(crate) schema_dependencies: bool,
    pub(crate) const_null: bool,
}

/// The default gate, usable as a value like the unit struct it once was.
#[allow(non_upper_case_globals)]
pub(crate) const DeepseekPreGate: DeepseekPreGate = DeepseekPreGate {
    non_object_root: true,
    map_root: true,
    dependent_schemas: true,
    schema_dependencies: true,
    const_null: true,
};

impl Default for DeepseekPreGate {
    fn default() -> Self {
        DeepseekPreGate
    }
}

impl Pass for DeepseekPreGate {
    fn name(&self) -> &'static str {
        "deepseek-pre-gate"
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::flip(self, "skip the non-object root check", |p| {
                &mut p.non_object_root
            }),
            PassMutant::flip(self, "skip the root map-shape check", |p| &mut p.map_root),
            PassMutant::flip(self, "skip the dependentSchemas check", |p| {
                &mut p.dependent_schemas
            }),
            PassMutant::flip(self, "skip the schema-form dependencies check", |p| {
                &mut p.schema_dependencies
            }),
            PassMutant::flip(self, "skip the const: null check", |p| &mut p.const_null),
        ]
    }

    fn apply(&self, tool: &mut Tool, _cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if self.non_object_root && !tool.input_schema.is_object() {
            return Ok(Step::FailClosed(
                "input schema is not a JSON object: strict mode needs an object schema".into(),
            ));
        }
        if self.non_object_root
            && let Some(t) = tool.input_schema.get("type")
            && t != "object"
            && !t
                .as_array()
                .is_some_and(|ts| ts.iter().any(|x| x == "object"))
        {
            return Ok(Step::FailClosed(format!(
                "root declares type {t}: strict mode needs an object root"
            )));
        }
        if let Some(root) = tool.input_schema.as_object() {
            let props_empty = root
                .get("properties")
                .and_then(Value::as_object)
                .is_none_or(Map::is_empty);
            let map_like = matches!(
                root.get("additionalProperties"),
                Some(Value::Object(_) | Value::Bool(true))
            ) || root
                .get("patternProperties")
                .and_then(Value::as_object)
                .is_some_and(|p| !p.is_empty());
            if self.map_root && props_empty && map_like {
                return Ok(Step::FailClosed(
                    "root is a map shape (additionalProperties or patternProperties without properties): strict mode would only accept {}".into(),
                ));
            }
        }
        let found = find_in_shipped(&tool.input_schema, &mut |path, node| {
            if self.dependent_schemas
                && node
                    .get("dependentSchemas")
                    .and_then(Value::as_object)
                    .is_some_and(|m| !m.is_empty())
            {
                return Some(format!(
                    "dependentSchemas at {} cannot be expressed in strict mode",
                    at(path)
                ));
            }
            if self.schema_dependencies
                && let Some(Value::Object(deps)) = node.get("dependencies")
                && deps.values().any(|v| v.is_object() || v.is_boolean())
            {
                return Some(format!(
                    "schema-form dependencies at {} cannot be expressed in strict mode",
                    at(path)
                ));
            }
            if self.const_null && node.get("const") == Some(&Value::Null) {
                return Some(format!(
                    "const: null at {} needs a null type, outside the strict subset",
                    at(path)
                ));
            }
            None
        })?;
        Ok(found.map_or(Step::Continue, Step::FailClosed))
    }
}

/// Remove optional properties and note them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DeepseekRemoveOptionals {
    /// Fail closed when the removal empties a root that had properties.
    pub(crate) guard_emptied_root: bool,
    pub(crate) note: bool,
}

impl Default for DeepseekRemoveOptionals {
    fn default() -> Self {
        Self {
            guard_emptied_root: true,
            note: true,
        }
    }
}

impl Pass for DeepseekRemoveOptionals {
    fn name(&self) -> &'static str {
        "deepseek-remove-optionals"
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::flip(self, "skip the emptied-root guard", |p| {
                &mut p.guard_emptied_root
            }),
            PassMutant::flip(self, "skip the removed-optionals note", |p| &mut p.note),
        ]
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let mut removed: Vec<String> = Vec::new();
        let mut root_emptied = false;
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let required = schema::required_names(node);
            let Some(Value::Object(props)) = node.get_mut("properties") else {
                return true;
            };
            let had = props.len();
            let optional: Vec<String> = props
                .keys()
                .filter(|k| !required.contains(k))
                .cloned()
                .collect();
            for name in &optional {
                props.shift_remove(name);
                let p = schema::child_path(&format!("{path}/properties"), name);
                cx.record(
                    &p,
                    "properties",
                    Action::Removed,
                    "optional property removed: strict mode requires every property",
                );
                removed.push(notes::location(&p));
            }
            if path.is_empty() && had > 0 && props.is_empty() {
                root_emptied = true;
            }
            true
        })?;
        if root_emptied && self.guard_emptied_root {
            return Ok(Step::FailClosed(
                "every root property is optional: removing them would leave a tool callable only with {}".into(),
            ));
        }
        if self.note && !removed.is_empty() {
            cx.note(
                tool,
                &notes::removed_optionals_note(&removed),
                "removed optional parameters surfaced as a note",
            );
        }
        Ok(Step::Continue)
    }
}

/// Land non-numeric `const` on `enum`. The fields are the mutation points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DeepseekConstToEnum {
    /// Numeric `const` stays (the subset keeps it).
    pub(crate) keep_numeric: bool,
    /// `const: null` is dropped.
    pub(crate) drop_null: bool,
    /// An existing `enum` wins over `const`.
    pub(crate) yield_to_enum: bool,
}

/// The default pass, usable as a value like the unit struct it once was.
#[allow(non_upper_case_globals)]
pub(crate) const DeepseekConstToEnum: DeepseekConstToEnum = DeepseekConstToEnum {
    keep_numeric: true,
    drop_null: true,
    yield_to_enum: true,
};

impl Default for DeepseekConstToEnum {
    fn default() -> Self {
        DeepseekConstToEnum
    }
}

impl Pass for DeepseekConstToEnum {
    fn name(&self) -> &'static str {
        "deepseek-const-to-enum"
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::flip(self, "land numeric const on enum too", |p| {
                &mut p.keep_numeric
            }),
            PassMutant::flip(self, "keep const: null", |p| &mut p.drop_null),
            PassMutant::flip(self, "const overrides an existing enum", |p| {
                &mut p.yield_to_enum
            }),
        ]
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let Some(c) = node.get("const") else {
                return true;
            };
            if self.keep_numeric && c.is_number() {
                return true;
            }
            if c.is_null() && !self.drop_null {
                return true;
            }
            if c.is_null() {
                node.shift_remove("const");
                cx.record(
                    path,
                    "const",
                    Action::Removed,
                    "const: null dropped (null is outside the strict subset)",
                );
            } else if self.yield_to_enum && node.contains_key("enum") {
                node.shift_remove("const");
                cx.record(
                    path,
                    "const",
                    Action::Removed,
                    "non-numeric const yields to the existing enum",
                );
            } else {
                let old = std::mem::take(node);
                for (k, v) in old {
                    if k == "const" {
                        node.insert("enum".into(), Value::Array(vec![v]));
                    } else {
                        node.insert(k, v);
                    }
                }
                cx.record(
                    path,
                    "const",
                    Action::Rewritten,
                    "non-numeric const landed on enum: [value]",
                );
            }
            true
        })?;
        Ok(Step::Continue)
    }
}

/// Strip keywords outside the subset whose removal only widens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DeepseekWideningStrips {
    pub(crate) keywords: Vec<&'static str>,
    pub(crate) formats: Vec<&'static str>,
    pub(crate) note: bool,
    /// Strip name-table `dependencies`.
    pub(crate) name_table_dependencies: bool,
    /// Strip draft-4 boolean `exclusiveMinimum`/`exclusiveMaximum`.
    pub(crate) boolean_exclusive: bool,
}

impl Default for DeepseekWideningStrips {
    fn default() -> Self {
        Self {
            keywords: WIDENING.to_vec(),
            formats: FORMATS.to_vec(),
            note: true,
            name_table_dependencies: true,
            boolean_exclusive: true,
        }
    }
}

impl Pass for DeepseekWideningStrips {
    fn name(&self) -> &'static str {
        "deepseek-widening-strips"
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out = PassMutant::drop_each(self, "widening strips", |p| &mut p.keywords);
        out.extend(PassMutant::drop_each(self, "documented formats", |p| {
            &mut p.formats
        }));
        out.push(PassMutant::flip(self, "skip the unenforced note", |p| {
            &mut p.note
        }));
        out.push(PassMutant::flip(
            self,
            "keep name-table dependencies",
            |p| &mut p.name_table_dependencies,
        ));
        out.push(PassMutant::flip(
            self,
            "keep boolean exclusiveMinimum/Maximum",
            |p| &mut p.boolean_exclusive,
        ));
        out
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let mut lost = Vec::new();
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let mut strip = |node: &mut Map<String, Value>, kw: &str, why: &str| {
                if let Some(v) = node.shift_remove(kw) {
                    cx.record(path, kw, Action::Removed, why.to_owned());
                    lost.push(Unenforced {
                        pointer: path.to_owned(),
                        keyword: kw.to_owned(),
                        value: v,
                    });
                }
            };
            for kw in &self.keywords {
                strip(
                    node,
                    kw,
                    "outside the strict subset; removing it only widens what is accepted",
                );
            }
            if self.name_table_dependencies
                && matches!(node.get("dependencies"), Some(Value::Object(m)) if m.values().all(Value::is_array))
            {
                strip(
                    node,
                    "dependencies",
                    "name-table dependencies are outside the strict subset",
                );
            }
            if matches!(node.get("format"), Some(Value::String(f)) if !self.formats.contains(&f.as_str()))
            {
                strip(
                    node,
                    "format",
                    "format value outside DeepSeek's documented list",
                );
            }
            for kw in ["exclusiveMinimum", "exclusiveMaximum"] {
                if self.boolean_exclusive && node.get(kw).is_some_and(Value::is_boolean) {
                    strip(
                        node,
                        kw,
                        "draft-4 boolean form is outside the strict subset",
                    );
                }
            }
            true
        })?;
        if self.note
            && let Some(n) = notes::unenforced_note(&lost)
        {
            cx.note(tool, &n, "stripped constraints surfaced as a note");
        }
        Ok(Step::Continue)
    }
}

/// Every object requires all its properties and allows no others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DeepseekCloseObjects {
    pub(crate) close: Close,
}

/// The default pass, usable as a value like the unit struct it once was.
#[allow(non_upper_case_globals)]
pub(crate) const DeepseekCloseObjects: DeepseekCloseObjects = DeepseekCloseObjects {
    close: Close {
        require_all: true,
        forbid_additional: true,
    },
};

impl Default for DeepseekCloseObjects {
    fn default() -> Self {
        DeepseekCloseObjects
    }
}

impl Pass for DeepseekCloseObjects {
    fn name(&self) -> &'static str {
        "deepseek-close-objects"
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::flip(self, "skip requiring every property", |p| {
                &mut p.close.require_all
            }),
            PassMutant::flip(self, "skip additionalProperties: false", |p| {
                &mut p.close.forbid_additional
            }),
        ]
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        // Never inside `if`/`then`/`else`/`not` (that would change the
        // condition); `deepseek-post-gate` fails such a tool closed anyway.
        schema::rewrite_pre_order_outside_conditionals(
            &mut tool.input_schema,
            &mut |path, node| {
                if !schema::is_object_schema(node) {
                    return true;
                }
                close_object(path, node, self.close, cx);
                true
            },
        )?;
        Ok(Step::Continue)
    }
}

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
fn forbidden_name<'a>(root: &'a Value, node: &'a Map<String, Value>) -> Option<Forbidden<'a>> {
    forbidden_by_closed(root, node).or_else(|| {
        forbidden_by_branches(root, node).map(|(key, name)| Forbidden::ByBranches(key, name))
    })
}

/// The first half of [`forbidden_name`]: what the closed `node` forbids.
fn forbidden_by_closed<'a>(root: &'a Value, node: &'a Map<String, Value>) -> Option<Forbidden<'a>> {
    if node.get("additionalProperties") != Some(&Value::Bool(false)) {
        return None;
    }
    let own = node.get("properties").and_then(Value::as_object);
    let undeclared = |n: &&str| own.is_none_or(|o| !o.contains_key(*n));
    if let Some(name) = node
        .get("required")
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
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|t| local_target(root, t));
    ["anyOf", "oneOf", "allOf", "$ref"]
        .into_iter()
        .find_map(|key| {
            let branches: Vec<&Value> = if key == "$ref" {
                vec![by_ref?]
            } else {
                node.get(key)
                    .and_then(Value::as_array)?
                    .iter()
                    .map(|b| resolve_branch(root, b))
                    .collect()
            };
            branches.into_iter().find_map(|b| {
                // A branch that is a local `$ref` stands for its target.
                let declared = b
                    .get("properties")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flat_map(|p| p.keys());
                let required = b
                    .get("required")
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
enum Forbidden<'a> {
    /// The closed object's own required list names it.
    Required(&'a str),
    /// Only the closed object's branches (`key`) name it.
    InBranches(&'static str, &'a str),
    /// The object requires it and its closed `key` branches forbid it.
    ByBranches(&'static str, &'a str),
}

/// The schema a local `$ref` (`#…`) points at.
fn local_target<'a>(root: &'a Value, target: &str) -> Option<&'a Value> {
    let p = target.strip_prefix('#')?;
    if p.is_empty() {
        Some(root)
    } else {
        root.pointer(p)
    }
}

/// A local `$ref` branch stands for its target.
fn resolve_branch<'a>(root: &'a Value, b: &'a Value) -> &'a Value {
    b.get("$ref")
        .and_then(Value::as_str)
        .and_then(|t| local_target(root, t))
        .unwrap_or(b)
}

/// The other direction: a name the node requires that its closed `$ref`
/// target forbids, or that no closed `anyOf`/`oneOf` branch takes: no call
/// could send it.
fn forbidden_by_branches<'a>(
    root: &'a Value,
    node: &'a Map<String, Value>,
) -> Option<(&'static str, &'a str)> {
    let required: Vec<&str> = node
        .get("required")
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
        b.get("additionalProperties") == Some(&Value::Bool(false))
            && b.get("properties")
                .and_then(Value::as_object)
                .is_none_or(|p| !p.contains_key(name))
    };
    // A `$ref` beside the object's keywords is a conjunction, as an
    // `allOf` of one (normalize collapses a one-branch `oneOf` into it).
    if let Some(target) = node
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|t| local_target(root, t))
        && let Some(name) = required.iter().find(|n| forbids(target, n))
    {
        return Some(("$ref", *name));
    }
    // (`allOf` never reaches this gate: strict mode has no spelling for it.)
    ["anyOf", "oneOf"].into_iter().find_map(|key| {
        let branches = node.get(key).and_then(Value::as_array)?;
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
    fn judge(&self, root: &Value, path: &str, node: &Map<String, Value>) -> Option<String> {
        if self.null_encodings {
            if node.contains_key("nullable") {
                return Some(format!(
                    "nullable at {} is outside the strict subset",
                    at(path)
                ));
            }
            match node.get("type") {
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
                .get("enum")
                .and_then(Value::as_array)
                .is_some_and(|e| e.contains(&Value::Null))
            {
                return Some(format!(
                    "null enum member at {} is outside the strict subset",
                    at(path)
                ));
            }
            if node.get("const") == Some(&Value::Null) {
                return Some(format!(
                    "const: null at {} is outside the strict subset",
                    at(path)
                ));
            }
        }
        if let Some(kw) = self.unrepresentable.iter().find(|k| node.contains_key(**k)) {
            return Some(format!(
                "{kw} at {} cannot be expressed in strict mode",
                at(path)
            ));
        }
        if self.tuple_items && node.get("items").is_some_and(Value::is_array) {
            return Some(format!(
                "tuple-form items at {} cannot be expressed in strict mode",
                at(path)
            ));
        }
        if self.emptied_objects
            && !path.is_empty()
            && schema::is_object_schema(node)
            && node
                .get("properties")
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
                .get("additionalProperties")
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
        schema::visit(root, &mut |path, node| {
            if found.is_none() {
                found = self.judge(root, path, node);
            }
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

#[cfg(test)]
#[path = "deepseek_tests.rs"]
mod tests;
