//! The `gemini-openapi` passes: `parameters` is parsed into Gemini's
//! `Schema` proto (an OpenAPI 3.0 subset), then validated. Each pass exists
//! for one rule of `rules/gemini.rs`; its docs quote the recorded message.

use serde_json::{Map, Value, json};

use super::{noted, show};
use crate::degradation::Action;
use crate::passes::notes;
use crate::passes::root::{self, MergeOrder};
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::{self, MAX_DEPTH, TooDeep};
use crate::tool::Tool;

/// The `Schema` proto's fields (ai.google.dev/api/caching#Schema and the
/// Vertex `Schema`), less `title` and `default` (unknown fields until
/// 2024-09-26, so v1 never sends them).
pub(crate) const PROTO_FIELDS: &[&str] = &[
    "type",
    "format",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "items",
    "minimum",
    "maximum",
];

/// Removed keywords whose constraint the model should still honour.
const NOTE_WORTHY: &[&str] = &[
    "multipleOf",
    "uniqueItems",
    "not",
    "contains",
    "minContains",
    "maxContains",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "if",
    "then",
    "else",
    "prefixItems",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "propertyNames",
    "patternProperties",
];

/// The scalar types an untyped schema ("anything") is narrowed to: every
/// value the model sends under them is valid against the original.
const ANY_TYPES: &[&str] = &["string", "number", "boolean"];

/// The node's `type`, lowercased (the proto takes `OBJECT` and `object`).
fn type_of(node: &Map<String, Value>) -> Option<String> {
    node.get("type")
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase)
}

/// `{"type": t, ...siblings}` for each of `types`.
fn typed_branches(types: &[&str], siblings: &Map<String, Value>) -> Vec<Value> {
    types
        .iter()
        .map(|t| {
            let mut b = Map::new();
            b.insert("type".into(), json!(t));
            for (k, v) in siblings {
                if k != "type" {
                    b.insert(k.clone(), v.clone());
                }
            }
            Value::Object(b)
        })
        .collect()
}

/// Insert `key` first in `node`.
fn put_first(node: &mut Map<String, Value>, key: &str, value: Value) {
    let old = std::mem::take(node);
    node.insert(key.to_owned(), value);
    for (k, v) in old {
        if k != key {
            node.insert(k, v);
        }
    }
}

/// Replace `old` by `new` at the same position (dropping an existing `new`).
fn rename_key(node: &mut Map<String, Value>, old: &str, new: &str, value: Value) {
    let prev = std::mem::take(node);
    for (k, v) in prev {
        if k == old {
            node.insert(new.to_owned(), value.clone());
        } else if k != new {
            node.insert(k, v);
        }
    }
}

/// Remove `name` from the node's `required` (dropping an emptied list) and
/// record it.
fn unrequire(node: &mut Map<String, Value>, name: &str, path: &str, cx: &mut Cx<'_>) {
    let Some(Value::Array(req)) = node.get_mut("required") else {
        return;
    };
    let before = req.len();
    req.retain(|r| r.as_str() != Some(name));
    if req.len() == before {
        return;
    }
    let action = if req.is_empty() {
        node.shift_remove("required");
        Action::Removed
    } else {
        Action::Rewritten
    };
    cx.record(
        path,
        "required",
        action,
        format!("the entry {name:?} follows its removed property"),
    );
}

/// Merge `extra` into `branch`: keys the branch lacks are added,
/// `properties` merge by name and `required` lists unite (when
/// `merge_maps`), otherwise the branch's own value wins.
fn merge_into(branch: &mut Map<String, Value>, extra: &Map<String, Value>, merge_maps: bool) {
    for (k, v) in extra {
        match (branch.get_mut(k), k.as_str(), v) {
            (None, _, _) => {
                branch.insert(k.clone(), v.clone());
            }
            (Some(Value::Object(mine)), "properties", Value::Object(theirs)) if merge_maps => {
                for (n, s) in theirs {
                    if !mine.contains_key(n) {
                        mine.insert(n.clone(), s.clone());
                    }
                }
            }
            (Some(Value::Array(mine)), "required", Value::Array(theirs)) if merge_maps => {
                for r in theirs {
                    if !mine.contains(r) {
                        mine.push(r.clone());
                    }
                }
            }
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------

/// `gemini-root-object`: `parameters` must be an OBJECT schema (rule
/// `vertex-parameters-type-object`, recorded `functionDeclaration parameters
/// schema should be of type OBJECT` for `parameters: {}`).
///
/// A `true` (or bare `"object"`) root becomes an object floor; a root
/// `oneOf`/`anyOf`/`allOf` is stripped with its branch properties merged
/// (root first, then branches) and its required groups noted; a root without
/// `type` gets `type: "object"`, a type list naming `object` becomes it.
/// Any other root (a scalar, `false`, a non-object type) fails closed: no
/// object schema stands for it. `null` (no parameters) is left alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RootObject {
    pub(crate) merge_composition: bool,
    pub(crate) add_type: bool,
}

impl Default for RootObject {
    fn default() -> Self {
        Self {
            merge_composition: true,
            add_type: true,
        }
    }
}

impl Pass for RootObject {
    fn name(&self) -> &'static str {
        "gemini-root-object"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("vertex-parameters-type-object")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let floor = match &tool.input_schema {
            Value::Null | Value::Object(_) => false,
            Value::Bool(true) => true,
            Value::String(s) if s.eq_ignore_ascii_case("object") => true,
            other => {
                return Ok(Step::FailClosed(format!(
                    "the parameters root is {}: Gemini needs an OBJECT schema and none stands for it",
                    schema::to_bytes(other)
                )));
            }
        };
        if floor {
            cx.record(
                "",
                "",
                Action::Rewritten,
                "a root that accepts any object became the object floor",
            );
            tool.input_schema = json!({"type": "object", "properties": {}});
        }
        let Some(root) = tool.input_schema.as_object_mut() else {
            return Ok(Step::Continue);
        };
        let keywords = ["oneOf", "anyOf", "allOf"];
        if self.merge_composition
            && let Some(lead) = keywords.iter().find(|k| root.contains_key(**k))
        {
            let groups = root
                .get(*lead)
                .and_then(Value::as_array)
                .map(|b| notes::required_groups(b))
                .unwrap_or_default();
            let text = notes::composition_note(lead, &groups);
            root::strip_and_merge(root, &keywords, MergeOrder::FirstWins, cx);
            if let Some(t) = text {
                cx.record(
                    "",
                    lead,
                    Action::Removed,
                    format!(
                        "root {lead} groups surfaced{}{}]",
                        super::NOTE_OPEN,
                        t.trim_end_matches('.')
                    ),
                );
            }
            root::prune_dangling_required(root, cx);
        }
        match root.get("type") {
            None | Some(Value::Null) if self.add_type => {
                put_first(root, "type", json!("object"));
                cx.record(
                    "",
                    "type",
                    Action::Added,
                    "Gemini needs a parameters root of type OBJECT",
                );
            }
            None | Some(Value::Null) => {}
            Some(Value::String(s)) if s.eq_ignore_ascii_case("object") => {}
            Some(Value::Array(list))
                if list
                    .iter()
                    .any(|t| t.as_str().is_some_and(|s| s.eq_ignore_ascii_case("object"))) =>
            {
                root.insert("type".into(), json!("object"));
                cx.record(
                    "",
                    "type",
                    Action::Rewritten,
                    "the root type list narrowed to object (parameters are an object)",
                );
            }
            Some(t) => {
                return Ok(Step::FailClosed(format!(
                    "the parameters root is typed {}: Gemini needs an OBJECT root and wrapping it would change the call",
                    schema::to_bytes(t)
                )));
            }
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::new(
                "skip the root composition merge",
                Self {
                    merge_composition: false,
                    ..*self
                },
            ),
            PassMutant::new(
                "skip adding a missing root type",
                Self {
                    add_type: false,
                    ..*self
                },
            ),
        ]
    }
}

// ---------------------------------------------------------------------------

/// The most `$ref` expansions one tool may take before v1 fails closed.
const MAX_INLINES: usize = 512;

/// `gemini-inline-refs`: the `Schema` proto has no references and rejects
/// `$defs` (rule `gemini-unknown-field-title-examples-default-defs`,
/// recorded `Unknown name "$defs"`), so every local `$ref` (`#…` JSON
/// Pointer into the tool's own schema) is replaced by its target, the
/// node's own keywords winning over the target's, and the root `$defs` /
/// `definitions` then go. A recursive `$ref` fails closed: no finite
/// inlining is faithful and cutting the cycle would change the arguments
/// the model may send. A `$ref` that points nowhere is removed (the node
/// then counts as untyped).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct InlineRefs {
    /// Remove the root `$defs`/`definitions` after inlining (a mutation point).
    pub(crate) drop_defs: bool,
}

impl Default for InlineRefs {
    fn default() -> Self {
        Self { drop_defs: true }
    }
}

/// A local pointer's target in `doc`.
fn resolve<'a>(doc: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    let decoded = pointer.replace("%25", "%");
    doc.pointer(&decoded)
}

struct Inliner<'a> {
    doc: &'a Value,
    stack: Vec<String>,
    inlines: usize,
}

impl Inliner<'_> {
    fn go(
        &mut self,
        v: &mut Value,
        path: &str,
        depth: usize,
        cx: &mut Cx<'_>,
    ) -> Result<Option<String>, TooDeep> {
        let Some(node) = v.as_object_mut() else {
            return Ok(None);
        };
        if depth > MAX_DEPTH {
            return Err(TooDeep {
                path: schema::display_path(path),
                limit: MAX_DEPTH,
            });
        }
        let mut pushed = 0;
        while let Some(Value::String(reference)) = node.get("$ref").cloned() {
            if self.stack.contains(&reference) {
                return Ok(Some(format!(
                    "recursive $ref {reference} at {}: the Schema proto has no references and cutting the cycle would change the arguments",
                    schema::display_path(path)
                )));
            }
            self.inlines += 1;
            if self.inlines > MAX_INLINES {
                return Ok(Some(format!(
                    "inlining $ref takes more than {MAX_INLINES} expansions"
                )));
            }
            match resolve(self.doc, &reference) {
                Some(Value::Object(target)) => {
                    let mut merged = target.clone();
                    for (k, val) in node.iter() {
                        if k != "$ref" {
                            merged.insert(k.clone(), val.clone());
                        }
                    }
                    if !target.contains_key("$ref") {
                        merged.shift_remove("$ref");
                    }
                    *node = merged;
                    cx.record(
                        path,
                        "$ref",
                        Action::Rewritten,
                        format!("local $ref {reference} inlined (the Schema proto has no references)"),
                    );
                    self.stack.push(reference);
                    pushed += 1;
                }
                _ => {
                    node.shift_remove("$ref");
                    cx.record(
                        path,
                        "$ref",
                        Action::Removed,
                        format!("$ref {reference} resolves to no schema in this tool"),
                    );
                }
            }
        }
        let mut out = None;
        for child in schema::children(node) {
            if let schema::ChildKey::Named("$defs" | "definitions" | "$def", _) = child {
                continue;
            }
            let sub_path = format!("{path}{}", child.suffix());
            if let Some(sub) = child.get_mut(node)
                && let Some(r) = self.go(sub, &sub_path, depth + 1, cx)?
            {
                out = Some(r);
                break;
            }
        }
        self.stack.truncate(self.stack.len() - pushed);
        Ok(out)
    }
}

impl Pass for InlineRefs {
    fn name(&self) -> &'static str {
        "gemini-inline-refs"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("gemini-unknown-field-title-examples-default-defs")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let doc = tool.input_schema.clone();
        let mut has_ref = false;
        schema::visit(&doc, &mut |_, n| has_ref |= n.contains_key("$ref"))?;
        if has_ref {
            let mut inliner = Inliner {
                doc: &doc,
                stack: Vec::new(),
                inlines: 0,
            };
            if let Some(reason) = inliner.go(&mut tool.input_schema, "", 0, cx)? {
                return Ok(Step::FailClosed(reason));
            }
        }
        if self.drop_defs
            && let Some(root) = tool.input_schema.as_object_mut()
        {
            for k in ["$defs", "definitions"] {
                if root.shift_remove(k).is_some() {
                    cx.record(
                        "",
                        k,
                        Action::Removed,
                        "definitions inlined at their uses (Gemini rejects the keyword)",
                    );
                }
            }
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "keep the root definitions",
            Self { drop_defs: false },
        )]
    }
}

// ---------------------------------------------------------------------------

/// A scalar standing where a schema belongs, as a schema: a bare type name
/// becomes `{"type": name}`, anything else (and `true`) `{}`.
fn as_schema(v: &Value) -> Value {
    const TYPES: &[&str] = &[
        "string", "number", "integer", "boolean", "object", "array",
    ];
    match v {
        Value::String(s) if TYPES.contains(&s.to_ascii_lowercase().as_str()) => {
            json!({"type": s.to_ascii_lowercase()})
        }
        _ => json!({}),
    }
}

fn is_scalar(v: &Value) -> bool {
    matches!(v, Value::String(_) | Value::Number(_) | Value::Bool(_))
}

/// `gemini-schema-values`: a `Schema` position holding a scalar is a parse
/// error (rule `gemini-property-schema-not-object`, recorded `Invalid value
/// at '….properties[6].value' (…Schema), "object"`). In `properties`,
/// `items` and `anyOf`: `false` removes the property (and its `required`
/// entry) or the branch (no value may be sent there); `true` and other
/// scalars become `{}` (a bare type name `{"type": name}`), typed later; a
/// tuple `items: [A, B]` becomes `items: {"anyOf": [A, B]}` (one element:
/// itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SchemaValues {
    /// Read a bare type name as that type (else `{}`; a mutation point).
    pub(crate) type_names: bool,
}

impl Default for SchemaValues {
    fn default() -> Self {
        Self { type_names: true }
    }
}

impl SchemaValues {
    fn fix(&self, v: &Value) -> Value {
        if self.type_names { as_schema(v) } else { json!({}) }
    }
}

impl Pass for SchemaValues {
    fn name(&self) -> &'static str {
        "gemini-schema-values"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("gemini-property-schema-not-object")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let mut falses = Vec::new();
            if let Some(Value::Object(props)) = node.get_mut("properties") {
                for (name, v) in props.iter_mut() {
                    let at = schema::child_path(&format!("{path}/properties"), name);
                    if *v == Value::Bool(false) {
                        falses.push(name.clone());
                    } else if is_scalar(v) {
                        cx.record(&at, "", Action::Rewritten, format!("scalar {v} where a Schema belongs"));
                        *v = self.fix(v);
                    }
                }
                for name in &falses {
                    props.shift_remove(name);
                }
            }
            for name in &falses {
                unrequire(node, name, path, cx);
                cx.record(
                    &schema::child_path(&format!("{path}/properties"), name),
                    "properties",
                    Action::Removed,
                    "a property whose schema is false can never be sent",
                );
            }
            match node.get_mut("items") {
                Some(Value::Array(list)) => {
                    let new = match list.len() {
                        0 => json!({}),
                        1 => list[0].clone(),
                        _ => json!({"anyOf": list.clone()}),
                    };
                    let what = format!("items in tuple order {}", schema::to_bytes(&Value::Array(list.clone())));
                    node.insert("items".into(), new);
                    cx.record(
                        path,
                        "items",
                        Action::Rewritten,
                        noted("tuple items have no Schema form", &format!("{path}/items"), &what),
                    );
                }
                Some(v) if is_scalar(v) => {
                    cx.record(path, "items", Action::Rewritten, format!("scalar {v} where a Schema belongs"));
                    *v = self.fix(v);
                }
                _ => {}
            }
            if let Some(Value::Array(branches)) = node.get_mut("anyOf") {
                let before = branches.len();
                for (i, b) in branches.iter_mut().enumerate() {
                    if is_scalar(b) && *b != Value::Bool(false) {
                        cx.record(&format!("{path}/anyOf/{i}"), "", Action::Rewritten, format!("scalar {b} where a Schema belongs"));
                        *b = self.fix(b);
                    }
                }
                branches.retain(|b| *b != Value::Bool(false));
                if branches.len() != before {
                    cx.record(path, "anyOf", Action::Rewritten, "false branches (matching nothing) removed");
                }
            }
            true
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "read bare type names as {}",
            Self { type_names: false },
        )]
    }
}

// ---------------------------------------------------------------------------

/// Keywords that constrain only one type (kept on that type's branch when
/// a type list splits).
fn only_for(keyword: &str) -> Option<&'static [&'static str]> {
    Some(match keyword {
        "minLength" | "maxLength" | "pattern" => &["string"],
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
            &["number", "integer"]
        }
        "items" | "minItems" | "maxItems" | "prefixItems" | "uniqueItems" | "contains" => {
            &["array"]
        }
        "properties" | "required" | "additionalProperties" | "minProperties"
        | "maxProperties" | "propertyNames" | "patternProperties" | "propertyOrdering" => {
            &["object"]
        }
        _ => return None,
    })
}

/// `gemini-type-list`: `type` is one enum value in the proto (rule
/// `gemini-type-not-repeating`, recorded `Unknown name "type" at '…':
/// Proto field is not repeating, cannot start list.` for
/// `["string","null"]`). `"null"` in the list becomes `nullable: true`; one
/// other type stays as `type`; several become `anyOf` branches, one per
/// type, each with the keywords that apply to it; a list of only `"null"`
/// (or nothing) leaves the node untyped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TypeList {
    /// Turn `"null"` into `nullable: true` (a mutation point).
    pub(crate) nullable: bool,
}

impl Default for TypeList {
    fn default() -> Self {
        Self { nullable: true }
    }
}

impl Pass for TypeList {
    fn name(&self) -> &'static str {
        "gemini-type-list"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("gemini-type-not-repeating")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_post_order(&mut tool.input_schema, &mut |path, _, node| {
            let Some(Value::Array(list)) = node.get("type") else {
                return;
            };
            let mut types: Vec<String> = Vec::new();
            let mut null = false;
            for t in list.iter().filter_map(Value::as_str) {
                if t.eq_ignore_ascii_case("null") {
                    null = true;
                } else if !types.contains(&t.to_owned()) {
                    types.push(t.to_owned());
                }
            }
            let reason = "Gemini's type is a single value: the list became type + nullable";
            if null && self.nullable {
                node.insert("nullable".into(), json!(true));
                cx.record(path, "nullable", Action::Added, reason);
            }
            match types.as_slice() {
                [] => {
                    node.shift_remove("type");
                    cx.record(path, "type", Action::Removed, "a type list naming no non-null type");
                }
                [one] => {
                    node.insert("type".into(), json!(one));
                    cx.record(path, "type", Action::Rewritten, reason);
                }
                _ if node.contains_key("anyOf") => {
                    let first = types[0].clone();
                    node.insert("type".into(), json!(first));
                    cx.record(
                        path,
                        "type",
                        Action::Rewritten,
                        noted("a type list beside anyOf kept its first type", path, &format!("also types {}", types[1..].join(", "))),
                    );
                }
                _ => {
                    let old = std::mem::take(node);
                    let branches: Vec<Value> = types
                        .iter()
                        .map(|t| {
                            let mut b = Map::new();
                            b.insert("type".into(), json!(t));
                            for (k, v) in &old {
                                let fits = only_for(k).is_none_or(|ts| ts.contains(&t.as_str()));
                                if k != "type" && fits {
                                    b.insert(k.clone(), v.clone());
                                }
                            }
                            Value::Object(b)
                        })
                        .collect();
                    for k in old.keys() {
                        cx.record(path, k, Action::Rewritten, "a type list became one anyOf branch per type");
                    }
                    node.insert("anyOf".into(), Value::Array(branches));
                }
            }
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "drop null without nullable",
            Self { nullable: false },
        )]
    }
}

// ---------------------------------------------------------------------------

/// `gemini-const-to-enum`: the proto has no `const` (rule
/// `gemini-unknown-field-const`, recorded `Unknown name "const" at
/// '….any_of[0]': Cannot find field.`). A string `const` becomes
/// `enum: [value]` in its place (exact: an enum of one); any other `const`
/// is removed and noted (a non-string enum is itself rejected).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ConstToEnum {
    /// Land string consts on `enum` (else remove them; a mutation point).
    pub(crate) to_enum: bool,
}

impl Default for ConstToEnum {
    fn default() -> Self {
        Self { to_enum: true }
    }
}

impl Pass for ConstToEnum {
    fn name(&self) -> &'static str {
        "gemini-const-to-enum"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("gemini-unknown-field-const")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let Some(c) = node.get("const").cloned() else {
                return true;
            };
            if c.is_string() && self.to_enum {
                if node.contains_key("enum") {
                    cx.record(path, "enum", Action::Rewritten, "the const value narrows the enum");
                }
                rename_key(node, "const", "enum", json!([c]));
                cx.record(path, "const", Action::Rewritten, "string const landed on enum: [value]");
            } else {
                node.shift_remove("const");
                cx.record(
                    path,
                    "const",
                    Action::Removed,
                    noted("Gemini has no const", path, &show("const", &c)),
                );
            }
            true
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "remove string consts instead of enum",
            Self { to_enum: false },
        )]
    }
}

// ---------------------------------------------------------------------------

/// `gemini-exclusive-bounds`: the proto has no `exclusiveMinimum` /
/// `exclusiveMaximum` (rule `gemini-unknown-field-exclusiveminimum`,
/// recorded `Unknown name "exclusiveMinimum" at '….any_of[0]'`). A numeric
/// bound becomes the inclusive `minimum`/`maximum` (unless a tighter one is
/// there) and the exclusion is noted; a draft-4 boolean `true` is noted,
/// `false` only removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ExclusiveBounds {
    /// Carry a numeric bound over to the inclusive keyword (a mutation point).
    pub(crate) carry: bool,
}

impl Default for ExclusiveBounds {
    fn default() -> Self {
        Self { carry: true }
    }
}

impl Pass for ExclusiveBounds {
    fn name(&self) -> &'static str {
        "gemini-exclusive-bounds"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("gemini-unknown-field-exclusiveminimum")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            for (ex, inclusive, lower) in [
                ("exclusiveMinimum", "minimum", true),
                ("exclusiveMaximum", "maximum", false),
            ] {
                let Some(v) = node.get(ex).cloned() else {
                    continue;
                };
                if let (Some(x), true) = (v.as_f64(), self.carry) {
                    let current = node.get(inclusive).and_then(Value::as_f64);
                    let looser = current.is_none_or(|m| if lower { m < x } else { m > x });
                    if looser {
                        cx.set_keyword(
                            path,
                            node,
                            (ex, inclusive),
                            v.clone(),
                            "the exclusive bound carried over as an inclusive one",
                        );
                    }
                }
                node.shift_remove(ex);
                let reason = "Gemini has no exclusive bounds";
                let reason = if v.is_number() || v == Value::Bool(true) {
                    noted(reason, path, &show(ex, &v))
                } else {
                    reason.to_owned()
                };
                cx.record(path, ex, Action::Removed, reason);
            }
            true
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "skip carrying the bound over",
            Self { carry: false },
        )]
    }
}

// ---------------------------------------------------------------------------

/// `gemini-fold-combinators`: the proto knows `anyOf` only. `oneOf` becomes
/// `anyOf` (the model sends one branch either way) unless the node has an
/// `anyOf` already; `allOf` branches merge into the node (keys it lacks,
/// `properties` by name, `required` united). No rule id evidences these
/// keywords (the oracle leaves them alone); Gemini documents its `Schema`
/// fields and rejects unknown ones as it does `const`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FoldCombinators {
    /// `oneOf` → `anyOf` (else it is stripped later; a mutation point).
    pub(crate) one_of: bool,
    /// Merge `allOf` branches (else they are stripped later; a mutation point).
    pub(crate) all_of: bool,
}

impl Default for FoldCombinators {
    fn default() -> Self {
        Self {
            one_of: true,
            all_of: true,
        }
    }
}

impl Pass for FoldCombinators {
    fn name(&self) -> &'static str {
        "gemini-fold-combinators"
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            if self.all_of
                && let Some(Value::Array(branches)) = node.get("allOf").cloned()
            {
                node.shift_remove("allOf");
                for b in branches.iter().filter_map(Value::as_object) {
                    merge_into(node, b, true);
                }
                cx.record(path, "allOf", Action::Rewritten, "allOf branches merged into the node");
            }
            if self.one_of
                && !node.contains_key("anyOf")
                && let Some(v @ Value::Array(_)) = node.get("oneOf").cloned()
            {
                rename_key(node, "oneOf", "anyOf", v);
                cx.record(path, "oneOf", Action::Rewritten, "oneOf became anyOf (Gemini's only combinator)");
            }
            true
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::new("skip oneOf -> anyOf", Self { one_of: false, ..*self }),
            PassMutant::new("skip the allOf merge", Self { all_of: false, ..*self }),
        ]
    }
}

// ---------------------------------------------------------------------------

/// `gemini-strip-*`: keywords the `Schema` proto lacks are parse errors
/// (`Invalid JSON payload received. Unknown name "k" at '…': Cannot find
/// field.`). Each instance removes one set for one rule; `noted` keywords
/// are listed in the description note. The last instance keeps only
/// [`PROTO_FIELDS`] (everything else Gemini would reject as unknown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StripFields {
    pub(crate) name: &'static str,
    pub(crate) rule: Option<&'static str>,
    /// The keywords removed, or (when `allow`) the only ones kept.
    pub(crate) keywords: Vec<&'static str>,
    pub(crate) allow: bool,
    /// Removed keywords surfaced in the note.
    pub(crate) noted: Vec<&'static str>,
}

impl StripFields {
    pub(crate) fn additional_properties() -> Self {
        Self {
            name: "gemini-strip-additional-properties",
            rule: Some("gemini-unknown-field-additionalproperties"),
            keywords: vec!["additionalProperties"],
            allow: false,
            noted: Vec::new(),
        }
    }

    pub(crate) fn schema_keyword() -> Self {
        Self {
            name: "gemini-strip-schema-keyword",
            rule: Some("gemini-unknown-field-schema-keyword"),
            keywords: vec!["$schema"],
            allow: false,
            noted: Vec::new(),
        }
    }

    pub(crate) fn property_names() -> Self {
        Self {
            name: "gemini-strip-property-names",
            rule: Some("gemini-unknown-field-propertynames"),
            keywords: vec!["propertyNames", "patternProperties"],
            allow: false,
            noted: vec!["propertyNames", "patternProperties"],
        }
    }

    pub(crate) fn annotations() -> Self {
        Self {
            name: "gemini-strip-annotations",
            rule: Some("gemini-unknown-field-title-examples-default-defs"),
            keywords: vec!["title", "examples", "default", "$defs", "definitions"],
            allow: false,
            noted: Vec::new(),
        }
    }

    pub(crate) fn non_proto() -> Self {
        Self {
            name: "gemini-strip-non-proto-fields",
            rule: None,
            keywords: PROTO_FIELDS.to_vec(),
            allow: true,
            noted: NOTE_WORTHY.to_vec(),
        }
    }

    fn removes(&self, key: &str) -> bool {
        self.keywords.contains(&key) != self.allow
    }
}

impl Pass for StripFields {
    fn name(&self) -> &'static str {
        self.name
    }

    fn rule(&self) -> Option<&'static str> {
        self.rule
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let gone: Vec<String> = node.keys().filter(|k| self.removes(k)).cloned().collect();
            for k in gone {
                let Some(v) = node.shift_remove(&k) else {
                    continue;
                };
                let reason = format!("{k} is not a field of Gemini's Schema");
                let reason = if self.noted.contains(&k.as_str()) {
                    noted(&reason, path, &show(&k, &v))
                } else {
                    reason
                };
                cx.record(path, &k, Action::Removed, reason);
            }
            true
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out = Vec::new();
        for k in &self.keywords {
            let mut m = self.clone();
            m.keywords.retain(|x| x != k);
            let change = if self.allow {
                format!("strip {k:?} too")
            } else {
                format!("keep {k:?}")
            };
            out.push(PassMutant::new(change, m));
        }
        if !self.noted.is_empty() {
            let mut m = self.clone();
            m.noted.clear();
            out.push(PassMutant::new("note nothing", m));
        }
        out
    }
}

// ---------------------------------------------------------------------------

/// `gemini-anyof-only`: an `anyOf` node may hold nothing else (rule
/// `gemini-anyof-must-be-only-field`, recorded `schema specified other
/// fields alongside any_of. When using any_of, it must be the only field
/// set.`). The siblings move into every branch (`{S, anyOf: [A, B]}` ≡
/// `{anyOf: [S∧A, S∧B]}`): keys a branch lacks are added, `properties`
/// merge by name and `required` lists unite; the branch's own value wins
/// any other clash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AnyOfOnly {
    /// Merge `properties`/`required` (else the branch's wins; a mutation point).
    pub(crate) merge_maps: bool,
}

impl Default for AnyOfOnly {
    fn default() -> Self {
        Self { merge_maps: true }
    }
}

impl Pass for AnyOfOnly {
    fn name(&self) -> &'static str {
        "gemini-anyof-only"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("gemini-anyof-must-be-only-field")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            if path.is_empty() || node.len() < 2 || !node.get("anyOf").is_some_and(Value::is_array) {
                return true;
            }
            let mut siblings = std::mem::take(node);
            let Some(Value::Array(mut branches)) = siblings.shift_remove("anyOf") else {
                return true;
            };
            for b in &mut branches {
                if let Value::Object(m) = b {
                    merge_into(m, &siblings, self.merge_maps);
                }
            }
            for k in siblings.keys() {
                cx.record(path, k, Action::Rewritten, "moved into every anyOf branch (anyOf must be the only field)");
            }
            node.insert("anyOf".into(), Value::Array(branches));
            true
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "branch properties win whole",
            Self { merge_maps: false },
        )]
    }
}

// ---------------------------------------------------------------------------

/// The type a node's keywords imply, if any.
fn implied_type(node: &Map<String, Value>) -> Option<&'static str> {
    let has = |ks: &[&str]| ks.iter().any(|k| node.contains_key(*k));
    if has(&["properties", "required", "minProperties", "maxProperties", "propertyOrdering"]) {
        return Some("object");
    }
    if has(&["items", "minItems", "maxItems"]) {
        return Some("array");
    }
    if let Some(Value::Array(members)) = node.get("enum")
        && !members.is_empty()
    {
        if members.iter().all(Value::is_string) {
            return Some("string");
        }
        if members.iter().all(|m| m.is_i64() || m.is_u64()) {
            return Some("integer");
        }
        if members.iter().all(Value::is_number) {
            return Some("number");
        }
        if members.iter().all(Value::is_boolean) {
            return Some("boolean");
        }
        return None;
    }
    if has(&["minLength", "maxLength", "pattern"]) {
        return Some("string");
    }
    if has(&["minimum", "maximum"]) {
        return Some("number");
    }
    match node.get("format").and_then(Value::as_str) {
        Some("int32" | "int64") => Some("integer"),
        Some("float" | "double") => Some("number"),
        Some(_) => Some("string"),
        None => None,
    }
}

/// `gemini-type-required`: a nested schema needs `type` unless it uses
/// `anyOf` (rules `gemini-type-required-without-combinator`, recorded
/// `….properties[query].type: must be specified when not using one_of,
/// any_of or all_of fields`, and `vertex-schema-type-field-missing`,
/// recorded `schema didn't specify the schema type field`). The type the
/// node's keywords imply is added; a node that implies none (it accepted
/// anything) becomes `anyOf` string | number | boolean, its keywords in
/// every branch: narrower than "anything", so every value the model sends
/// stays valid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TypeRequired {
    /// Infer the type from keywords (else always the scalar anyOf; a mutation point).
    pub(crate) infer: bool,
}

impl Default for TypeRequired {
    fn default() -> Self {
        Self { infer: true }
    }
}

impl Pass for TypeRequired {
    fn name(&self) -> &'static str {
        "gemini-type-required"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("gemini-type-required-without-combinator")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let typeless = node.get("type").is_none_or(Value::is_null);
            if path.is_empty() || !typeless || node.contains_key("anyOf") {
                return true;
            }
            node.shift_remove("type");
            match implied_type(node).filter(|_| self.infer) {
                Some(t) => {
                    put_first(node, "type", json!(t));
                    cx.record(path, "type", Action::Added, format!("untyped schema typed {t} by its keywords"));
                }
                None => {
                    let siblings = std::mem::take(node);
                    for k in siblings.keys() {
                        cx.record(path, k, Action::Rewritten, "moved into every branch of the scalar anyOf");
                    }
                    node.insert("anyOf".into(), Value::Array(typed_branches(ANY_TYPES, &siblings)));
                    cx.record(
                        path,
                        "anyOf",
                        Action::Added,
                        "an untyped schema (any value) narrowed to string, number or boolean",
                    );
                }
            }
            true
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "never infer a type",
            Self { infer: false },
        )]
    }
}

// ---------------------------------------------------------------------------

/// `gemini-enum-strings`: `enum` members are proto strings and `enum` is
/// only for STRING (rules `gemini-enum-values-must-be-strings`, recorded
/// `Invalid value at '….enum[0]' (TYPE_STRING), 0`;
/// `gemini-enum-only-string-type`, recorded `….enum: only allowed for
/// STRING type`; `vertex-enum-with-object-or-array-type`). On a string the
/// non-string members go (no string matches them); on any other type the
/// `enum` goes and its values are noted: stringifying them would make the
/// model send strings where the tool expects numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EnumStrings {
    /// Keep a string enum's string members (else drop it whole; a mutation point).
    pub(crate) keep_strings: bool,
}

impl Default for EnumStrings {
    fn default() -> Self {
        Self { keep_strings: true }
    }
}

impl Pass for EnumStrings {
    fn name(&self) -> &'static str {
        "gemini-enum-strings"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("gemini-enum-only-string-type")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let Some(members) = node.get("enum").cloned() else {
                return true;
            };
            let is_string = type_of(node).as_deref() == Some("string");
            let strings: Vec<Value> = members
                .as_array()
                .map(|a| a.iter().filter(|m| m.is_string()).cloned().collect())
                .unwrap_or_default();
            let all = members.as_array().is_some_and(|a| a.len() == strings.len());
            if is_string && all {
                return true;
            }
            if is_string && self.keep_strings && !strings.is_empty() {
                node.insert("enum".into(), Value::Array(strings));
                cx.record(path, "enum", Action::Rewritten, "non-string members of a string enum removed");
            } else {
                node.shift_remove("enum");
                let reason = "Gemini takes enum only on strings";
                let reason = if is_string { reason.to_owned() } else { noted(reason, path, &show("one of", &members)) };
                cx.record(path, "enum", Action::Removed, reason);
            }
            true
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "drop a mixed string enum whole",
            Self {
                keep_strings: false,
            },
        )]
    }
}

// ---------------------------------------------------------------------------

/// `gemini-string-format`: a STRING `format` other than `enum` /
/// `date-time` is rejected (rule `gemini-string-format-enum-datetime-only`,
/// recorded `….format: only 'enum' and 'date-time' are supported for STRING
/// type` for `format: "uri"`). Others are removed and noted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StringFormat {
    pub(crate) allowed: Vec<&'static str>,
}

impl Default for StringFormat {
    fn default() -> Self {
        Self {
            allowed: vec!["enum", "date-time"],
        }
    }
}

impl Pass for StringFormat {
    fn name(&self) -> &'static str {
        "gemini-string-format"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("gemini-string-format-enum-datetime-only")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let bad = node
                .get("format")
                .and_then(Value::as_str)
                .is_some_and(|f| !self.allowed.contains(&f));
            if bad
                && type_of(node).as_deref() == Some("string")
                && let Some(v) = node.shift_remove("format")
            {
                cx.record(
                    path,
                    "format",
                    Action::Removed,
                    noted("Gemini takes only enum and date-time string formats", path, &show("format", &v)),
                );
            }
            true
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        self.allowed
            .iter()
            .map(|f| {
                let mut m = self.clone();
                m.allowed.retain(|x| x != f);
                PassMutant::new(format!("drop {f:?} from the allowed formats"), m)
            })
            .collect()
    }
}

// ---------------------------------------------------------------------------

/// `gemini-array-items`: an ARRAY needs `items` (rule
/// `gemini-array-items-required`, recorded `….items: missing field.`). A
/// missing `items` (any item) becomes the scalar anyOf string | number |
/// boolean (as an untyped schema does): narrower, so still valid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ArrayItems {
    /// Give items the scalar anyOf (else `{}`; a mutation point).
    pub(crate) scalar_any: bool,
}

impl Default for ArrayItems {
    fn default() -> Self {
        Self { scalar_any: true }
    }
}

impl Pass for ArrayItems {
    fn name(&self) -> &'static str {
        "gemini-array-items"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("gemini-array-items-required")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let missing = node.get("items").is_none_or(Value::is_null);
            if missing && type_of(node).as_deref() == Some("array") {
                let items = if self.scalar_any {
                    json!({"anyOf": typed_branches(ANY_TYPES, &Map::new())})
                } else {
                    json!({})
                };
                cx.set_keyword(
                    path,
                    node,
                    ("type", "items"),
                    items,
                    "an array of any items narrowed to scalar items (Gemini requires items)",
                );
            }
            true
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "fill items with {}",
            Self { scalar_any: false },
        )]
    }
}

// ---------------------------------------------------------------------------

/// `gemini-empty-objects`: an OBJECT needs non-empty `properties` (rule
/// `gemini-object-properties-non-empty`, recorded `….parameters.properties:
/// should be non-empty for OBJECT type`; "omit parameters instead"). A
/// nested object that declares no properties (a free-form map) cannot be
/// declared: its property is removed (with its `required` entry) and noted,
/// an array of them or an `anyOf` left without branches goes the same way.
/// A root left without properties ships as no parameters at all (`null`,
/// the declaration's accepted no-argument form).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EmptyObjects {
    /// Ship an empty root as no parameters (a mutation point).
    pub(crate) root_to_null: bool,
}

impl Default for EmptyObjects {
    fn default() -> Self {
        Self { root_to_null: true }
    }
}

/// Prune free-form objects under `v`; whether `v` itself must go.
fn prune(v: &mut Value, path: &str, depth: usize, cx: &mut Cx<'_>) -> Result<bool, TooDeep> {
    let Some(node) = v.as_object_mut() else {
        return Ok(false);
    };
    if depth > MAX_DEPTH {
        return Err(TooDeep {
            path: schema::display_path(path),
            limit: MAX_DEPTH,
        });
    }
    let mut gone: Vec<String> = Vec::new();
    if let Some(Value::Object(props)) = node.get_mut("properties") {
        for (name, sub) in props.iter_mut() {
            let at = schema::child_path(&format!("{path}/properties"), name);
            if prune(sub, &at, depth + 1, cx)? {
                gone.push(name.clone());
            }
        }
        for name in &gone {
            props.shift_remove(name);
        }
    }
    for name in &gone {
        let at = schema::child_path(&format!("{path}/properties"), name);
        let required = schema::required_names(node).contains(name);
        unrequire(node, name, path, cx);
        let what = if required {
            "omitted, though required (a free-form object Gemini cannot declare)"
        } else {
            "omitted (a free-form object Gemini cannot declare)"
        };
        cx.record(
            &at,
            "properties",
            Action::Removed,
            noted("an object without properties is rejected", &at, what),
        );
    }
    if let Some(items) = node.get_mut("items")
        && prune(items, &format!("{path}/items"), depth + 1, cx)?
    {
        return Ok(true);
    }
    if let Some(Value::Array(branches)) = node.get_mut("anyOf") {
        let mut keep = Vec::new();
        let mut dropped = Vec::new();
        for (i, mut b) in std::mem::take(branches).into_iter().enumerate() {
            let at = format!("{path}/anyOf/{i}");
            if prune(&mut b, &at, depth + 1, cx)? {
                dropped.push(at);
            } else {
                keep.push(b);
            }
        }
        *branches = keep;
        let left = branches.len();
        if !dropped.is_empty() {
            cx.record(
                path,
                "anyOf",
                Action::Rewritten,
                format!(
                    "branches {} removed: objects without properties",
                    dropped.join(", ")
                ),
            );
        }
        if left == 0 {
            return Ok(true);
        }
        // A single branch left stands for the node (as `normalize` would
        // splice it on a second run).
        if left == 1
            && !dropped.is_empty()
            && node.len() == 1
            && let Some(Value::Array(mut only)) = node.shift_remove("anyOf")
            && let Some(Value::Object(branch)) = only.pop()
        {
            *node = branch;
        }
    }
    let object = type_of(node).as_deref() == Some("object");
    let empty = node
        .get("properties")
        .and_then(Value::as_object)
        .is_none_or(Map::is_empty);
    Ok(object && empty)
}

impl Pass for EmptyObjects {
    fn name(&self) -> &'static str {
        "gemini-empty-objects"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("gemini-object-properties-non-empty")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if prune(&mut tool.input_schema, "", 0, cx)? && self.root_to_null {
            tool.input_schema = Value::Null;
            cx.record(
                "",
                "",
                Action::Removed,
                "no parameters left: the declaration ships without parameters (Gemini rejects an OBJECT without properties)",
            );
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "keep an empty root",
            Self {
                root_to_null: false,
            },
        )]
    }
}
