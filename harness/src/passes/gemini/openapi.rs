//! The `gemini-openapi` passes that shape the root and the schema
//! structure (root object, `$ref` inlining, scalar subschemas), and the
//! helpers the other pass files share. `parameters` is parsed into Gemini's
//! `Schema` proto (an OpenAPI 3.0 subset), then validated; each pass exists
//! for one rule of `rules/gemini/` and its docs quote the recorded message.

use std::collections::HashMap;
use std::convert::Infallible;
use std::ops::ControlFlow;
use std::rc::Rc;

use serde_json::{Map, Value, json};

use super::notes::noted;
use crate::degradation::Action;
use crate::json_len;
use crate::lookup::Lookup;
use crate::passes::growth::{growth_budget, own_size};
use crate::passes::notes;
use crate::passes::root::{self, MergeOrder};
use crate::passes::{Cx, Pass, PassMutant, Step, may_act};
use crate::pointer::resolve_local;
use crate::schema::{self, ChildKey, NodePath, Rewrite, TooDeep};
use crate::tool::Tool;

/// The `Schema` proto's fields (`facts::gemini::SCHEMA_FIELDS`), less
/// `title` and `default` (unknown fields until 2024-09-26, so v1 never
/// sends them).
pub(crate) fn proto_fields() -> Vec<&'static str> {
    crate::facts::gemini::SCHEMA_FIELDS
        .items
        .iter()
        .copied()
        .filter(|f| !matches!(*f, "title" | "default"))
        .collect()
}

/// Removed keywords whose constraint the model should still honour.
pub(super) const NOTE_WORTHY: &[&str] = &[
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
pub(super) const ANY_TYPES: &[&str] = &["string", "number", "boolean"];

/// Whether the node's `type` is `name` (lowercase) in any ASCII case (the
/// proto takes `OBJECT` and `object`), without a lowercased copy.
pub(super) fn type_is(node: &Map<String, Value>, name: &str) -> bool {
    node.field("type")
        .and_then(Value::as_str)
        .is_some_and(|t| t.eq_ignore_ascii_case(name))
}

/// `{"type": t, ...siblings}` for each of `types` (the last takes the
/// siblings themselves, the others copies).
pub(super) fn typed_branches(types: &[&str], mut siblings: Map<String, Value>) -> Vec<Value> {
    let last = types.len().saturating_sub(1);
    types
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let mut b = Map::new();
            b.insert("type".into(), Value::String((*t).to_owned()));
            if i == last {
                b.extend(
                    std::mem::take(&mut siblings)
                        .into_iter()
                        .filter(|(k, _)| k != "type"),
                );
            } else {
                for (k, v) in &siblings {
                    if k != "type" {
                        b.insert(k.clone(), v.clone());
                    }
                }
            }
            Value::Object(b)
        })
        .collect()
}

/// Insert `key` first in `node`.
pub(super) fn put_first(node: &mut Map<String, Value>, key: &str, value: Value) {
    let old = std::mem::take(node);
    node.insert(key.to_owned(), value);
    for (k, v) in old {
        if k != key {
            node.insert(k, v);
        }
    }
}

/// Replace `old` by `new` at the same position (dropping an existing `new`).
pub(super) fn rename_key(node: &mut Map<String, Value>, old: &str, new: &str, value: Value) {
    let prev = std::mem::take(node);
    let mut value = Some(value);
    for (k, v) in prev {
        if k == old {
            if let Some(x) = value.take() {
                node.insert(new.to_owned(), x);
            }
        } else if k != new {
            node.insert(k, v);
        }
    }
}

/// Remove `name` from the node's `required` (dropping an emptied list) and
/// record it.
pub(super) fn unrequire(node: &mut Map<String, Value>, name: &str, path: &str, cx: &mut Cx<'_>) {
    let Some(Value::Array(req)) = node.field_mut("required") else {
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
/// `merge_maps`), otherwise the branch's own value wins. `extra` is moved
/// in: a caller that merges the same keywords into several branches
/// copies them for all but the last.
pub(super) fn merge_into(
    branch: &mut Map<String, Value>,
    extra: Map<String, Value>,
    merge_maps: bool,
) {
    for (k, v) in extra {
        match (branch.field_mut(&k), k.as_str(), v) {
            (None, _, v) => {
                branch.insert(k, v);
            }
            (Some(Value::Object(mine)), "properties", Value::Object(theirs)) if merge_maps => {
                for (n, s) in theirs {
                    if !mine.contains_key(&n) {
                        mine.insert(n, s);
                    }
                }
            }
            (Some(Value::Array(mine)), "required", Value::Array(theirs)) if merge_maps => {
                for r in theirs {
                    if !mine.contains(&r) {
                        mine.push(r);
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
/// Any other root (a scalar, `false`, a declared non-object type) has no
/// object schema that stands for it, and failing closed would ship a
/// declaration Gemini rejects (taking the whole request down): the
/// declaration ships without parameters (`null`), recorded as the removal
/// of the whole root and noted with what was lost (the root schema, or its
/// type when the schema is long). `null` (no parameters) is left alone.
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
            _ => {
                no_parameters(tool, cx);
                return Ok(Step::Continue);
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
            && let Some(lead) = keywords.iter().find(|k| root.has(k))
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
                        super::notes::NOTE_OPEN,
                        t.trim_end_matches('.')
                    ),
                );
            }
            root::prune_dangling_required(root, cx);
        }
        match root.field("type") {
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
            Some(_) => no_parameters(tool, cx),
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

/// The longest root schema a note quotes whole (longer ones: their type).
const QUOTE_LIMIT: usize = 200;

/// Replace a root that no object schema stands for by no parameters,
/// recorded and noted with what was lost.
fn no_parameters(tool: &mut Tool, cx: &mut Cx<'_>) {
    let root = std::mem::replace(&mut tool.input_schema, Value::Null);
    let quoted = schema::to_bytes(&root);
    let lost = if quoted.len() <= QUOTE_LIMIT {
        quoted
    } else {
        match root.field("type") {
            Some(t) => format!("a schema of type {}", schema::to_bytes(t)),
            None => "a schema that is not an object".to_owned(),
        }
    };
    cx.record(
        "",
        "",
        Action::Removed,
        noted(
            "Gemini's parameters must be an OBJECT schema and none stands for this root: the declaration ships without parameters",
            "",
            &format!("the input {lost} cannot be declared (not an object of named parameters)"),
        ),
    );
}

// ---------------------------------------------------------------------------

/// How many times one `$ref` is expanded along one path: its recursion is
/// unrolled this many levels, then cut.
const UNROLL: usize = 1;

/// The most `$ref` expansions one tool may take; past them each further
/// `$ref` is cut like a recursive one.
pub(crate) const MAX_INLINES: usize = 512;

/// Why a `$ref` is cut to a typed stub instead of inlined.
#[derive(Clone, Copy)]
enum Cut {
    /// It is being expanded [`UNROLL`] times above the node already.
    Recursive,
    /// The tool took [`MAX_INLINES`] expansions already.
    TooMany,
    /// Its target's copy would take the bytes inlining added past this
    /// budget ([`growth_budget`]).
    TooBig(usize),
}

/// `gemini-inline-refs`: the `Schema` proto has no references and rejects
/// `$defs` (rule `gemini-unknown-field-title-examples-default-defs`,
/// recorded `Unknown name "$defs"`), so every local `$ref` (`#…` JSON
/// Pointer into the tool's own schema) is replaced by its target, the
/// node's own keywords winning over the target's, and the root `$defs` /
/// `definitions` then go. A recursive `$ref` has no finite inlining:
/// failing closed would ship the `$ref` and get the whole request
/// rejected, so the recursion is unrolled [`UNROLL`] level(s) and the
/// recurring `$ref` is then cut to a typed stub (the target's type, the
/// node's own keywords kept), recorded and noted; later passes treat the
/// stub as any schema (an object stub has no properties, so
/// `gemini-empty-objects` omits it, noted). Past [`MAX_INLINES`]
/// expansions every further `$ref` is cut the same way, and so is each
/// `$ref` whose target's copy would take the bytes the copies added past
/// [`growth_budget`] (what `gemini-anyof-only` may grow a tool by: a
/// `{"type": "object", "$ref": "#"}` on each of 109 properties of a 66 KB
/// schema inlined it to about 6.6 MB). A `$ref` that points nowhere is
/// removed (the node then counts as untyped).
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

/// A child position that survives into the `Schema` proto (`properties`,
/// `items`, and the combinators that become `anyOf` or merge): only there
/// is a `$ref` inlined. Elsewhere (`not`, `additionalProperties`, `$defs`,
/// …) the keyword is stripped later with its `$ref`s, recursive or not.
fn kept(child: &ChildKey) -> bool {
    use ChildKey::{Indexed, Named, Single};
    matches!(
        child,
        Named("properties", _)
            | Single("items")
            | Indexed("items" | "anyOf" | "oneOf" | "allOf", _)
    )
}

/// The `$ref` inliner as a [`Rewrite`]: each node inherits the stack of
/// references being expanded above it.
struct Inliner<'a, 'c, 'x> {
    doc: &'a Value,
    inlines: usize,
    /// Bytes the inlined copies added (each target's compact size), and
    /// the most they may add.
    grown: usize,
    budget: usize,
    /// Each inlined reference's target size, counted once.
    sizes: HashMap<String, usize>,
    cx: &'c mut Cx<'x>,
}

/// The type a `$ref` target declares or implies, for its stub.
fn stub_type(target: Option<&Value>) -> Option<String> {
    let target = target?.as_object()?;
    match target.field("type") {
        Some(Value::String(t)) => return Some(t.to_ascii_lowercase()),
        Some(Value::Array(list)) => {
            return list
                .iter()
                .filter_map(Value::as_str)
                .find(|t| !t.eq_ignore_ascii_case("null"))
                .map(str::to_ascii_lowercase);
        }
        _ => {}
    }
    if target.has("properties") {
        Some("object".to_owned())
    } else if target.has("items") {
        Some("array".to_owned())
    } else {
        None
    }
}

impl Inliner<'_, '_, '_> {
    /// Replace the node's `$ref` by a typed stub, recorded and noted.
    fn cut(&mut self, node: &mut Map<String, Value>, reference: &str, why: Cut, path: &str) {
        node.shift_remove("$ref");
        if !node.has("type")
            && let Some(t) = stub_type(resolve_local(self.doc, reference))
        {
            put_first(node, "type", json!(t));
        }
        let (reason, what) = match why {
            Cut::Recursive => (
                format!(
                    "recursive $ref {reference} cut to a typed stub after {UNROLL} level(s) (the Schema proto has no references)"
                ),
                format!(
                    "repeats the schema at {reference} (recursion not declared below this level)"
                ),
            ),
            Cut::TooMany => (
                format!(
                    "$ref {reference} cut to a typed stub: inlining took more than {MAX_INLINES} expansions"
                ),
                format!("the schema at {reference} (not declared: too many references)"),
            ),
            Cut::TooBig(budget) => (
                format!(
                    "$ref {reference} cut to a typed stub: inlining it would grow the tool by more than {budget} bytes"
                ),
                format!("the schema at {reference} (not declared: the tool would grow too large)"),
            ),
        };
        self.cx
            .record(path, "$ref", Action::Removed, noted(&reason, path, &what));
    }
}

/// A `$ref` node inlined: the target's keywords in the target's order, then
/// the node's own (other than `$ref`) in theirs. The node and the target
/// both hold (a conjunction), so `properties` in both merge by name (the
/// target's in its order, the node's new names after them) and `required`
/// lists unite; any other keyword in both takes the node's value at the
/// target's place. A `{"type": "object", "$ref": "#"}` that `normalize`
/// gave `properties: {}` keeps the root's properties. The node's values
/// are moved; a target value the node overrides is not copied; without
/// one, the target is copied whole (a map's copy keeps its hash table,
/// where building one hashes every key).
pub(super) fn overlay(
    target: &Map<String, Value>,
    mut own: Map<String, Value>,
) -> Map<String, Value> {
    own.shift_remove("$ref");
    if !own.keys().any(|k| target.has(k)) {
        let mut out = target.clone();
        out.extend(own);
        return out;
    }
    let mut out = Map::with_capacity(target.len() + own.len());
    for (k, v) in target {
        let merged = match (own.shift_remove(k), k.as_str(), v) {
            (None, _, v) => v.clone(),
            (Some(Value::Object(mine)), "properties", Value::Object(theirs)) if mine.is_empty() => {
                Value::Object(theirs.clone())
            }
            (Some(Value::Object(mut mine)), "properties", Value::Object(theirs)) => {
                // Looked up, not removed (a removal shifts the rest: quadratic
                // on two long lists); the node's names the target lacks follow.
                let mut names = Map::with_capacity(theirs.len() + mine.len());
                for (n, s) in theirs {
                    let s = mine.get_mut(n).map_or_else(|| s.clone(), Value::take);
                    names.insert(n.clone(), s);
                }
                names.extend(mine.into_iter().filter(|(n, _)| !theirs.contains_key(n)));
                Value::Object(names)
            }
            (Some(Value::Array(mine)), "required", Value::Array(theirs)) => {
                let mut names = theirs.clone();
                for r in mine {
                    if !names.contains(&r) {
                        names.push(r);
                    }
                }
                Value::Array(names)
            }
            (Some(mine), _, _) => mine,
        };
        out.insert(k.clone(), merged);
    }
    out.extend(own);
    out
}

/// The references being expanded above a node, innermost first: a list
/// the children share (inheriting it copies a pointer, not the list).
#[derive(Clone, Default)]
struct Expanding(Option<Rc<(String, Expanding)>>);

impl Expanding {
    /// How many times `reference` is being expanded.
    fn count(&self, reference: &str) -> usize {
        let mut n = 0;
        let mut at = &self.0;
        while let Some(link) = at {
            n += usize::from(link.0 == reference);
            at = &link.1.0;
        }
        n
    }

    /// This list with `reference` in front.
    fn with(self, reference: String) -> Self {
        Self(Some(Rc::new((reference, self))))
    }
}

impl Rewrite for Inliner<'_, '_, '_> {
    /// The references being expanded above the node (a recursion guard).
    type State = Expanding;
    type Out = ();

    fn enter(
        &mut self,
        path: &NodePath<'_>,
        _: Option<&ChildKey>,
        node: &mut Map<String, Value>,
        mut stack: Expanding,
    ) -> ControlFlow<(), Option<Expanding>> {
        while let Some(Value::String(reference)) = node.field("$ref").cloned() {
            let target = resolve_local(self.doc, &reference);
            let cut = if stack.count(&reference) >= UNROLL {
                Some(Cut::Recursive)
            } else if self.inlines >= MAX_INLINES {
                Some(Cut::TooMany)
            } else {
                let size = match (self.sizes.get(&reference), target) {
                    (Some(&size), _) => size,
                    (None, Some(target)) => {
                        let size = json_len::byte_len(target);
                        self.sizes.insert(reference.clone(), size);
                        size
                    }
                    (None, None) => 0,
                };
                if self.grown + size > self.budget {
                    Some(Cut::TooBig(self.budget))
                } else {
                    self.grown += size;
                    None
                }
            };
            if let Some(why) = cut {
                self.cut(node, &reference, why, path);
                break;
            }
            self.inlines += 1;
            if let Some(Value::Object(target)) = target {
                *node = overlay(target, std::mem::take(node));
                self.cx.record(
                    path,
                    "$ref",
                    Action::Rewritten,
                    format!("local $ref {reference} inlined (the Schema proto has no references)"),
                );
                stack = stack.with(reference);
            } else {
                node.shift_remove("$ref");
                self.cx.record(
                    path,
                    "$ref",
                    Action::Removed,
                    format!("$ref {reference} resolves to no schema in this tool"),
                );
            }
        }
        ControlFlow::Continue(Some(stack))
    }

    fn inherit(&mut self, stack: &Expanding, child: &ChildKey<'_>) -> Option<Expanding> {
        kept(child).then(|| stack.clone())
    }

    fn leave(&mut self, _: &NodePath<'_>, _: Option<&ChildKey>, _: &mut Map<String, Value>) {}
}

impl Pass for InlineRefs {
    fn name(&self) -> &'static str {
        "gemini-inline-refs"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("gemini-unknown-field-title-examples-default-defs")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        const DEFS: [&str; 2] = ["$defs", "definitions"];
        let mut has_ref = false;
        // Whether every reference points into the root's definitions.
        let mut into_defs = true;
        let ControlFlow::Continue(()) =
            schema::visit_nodes::<Infallible>(&tool.input_schema, &mut |_, n| {
                if let Some(r) = n.field("$ref") {
                    has_ref = true;
                    into_defs &= r.as_str().is_some_and(|r| {
                        DEFS.iter().any(|k| {
                            r.strip_prefix("#/")
                                .and_then(|r| r.strip_prefix(k))
                                .is_some_and(|r| r.is_empty() || r.starts_with('/'))
                        })
                    });
                }
                ControlFlow::Continue(())
            })?;
        // The definitions the root gave up before inlining (they go anyway).
        let mut moved = [false; 2];
        if has_ref {
            let own = own_size(&tool.input_schema);
            // The references resolve against the schema as it came in: when
            // they all point into the root's definitions, which the walk
            // never enters and which are dropped afterwards, those are moved
            // out instead of copying the whole schema.
            let doc = match tool.input_schema.as_object_mut() {
                Some(root) if self.drop_defs && into_defs => {
                    let mut defs = serde_json::Map::new();
                    for (k, moved) in DEFS.iter().zip(&mut moved) {
                        if let Some(v) = root.shift_remove(*k) {
                            defs.insert((*k).to_owned(), v);
                            *moved = true;
                        }
                    }
                    Value::Object(defs)
                }
                _ => tool.input_schema.clone(),
            };
            let mut inliner = Inliner {
                doc: &doc,
                inlines: 0,
                grown: 0,
                budget: growth_budget(own),
                sizes: HashMap::new(),
                cx: &mut *cx,
            };
            schema::rewrite_with(&mut tool.input_schema, Expanding::default(), &mut inliner)?;
        }
        if self.drop_defs
            && let Some(root) = tool.input_schema.as_object_mut()
        {
            for (k, moved) in DEFS.into_iter().zip(moved) {
                // A `$ref` at the root may have brought definitions back.
                if root.shift_remove(k).is_some() | moved {
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
    const TYPES: &[&str] = &["string", "number", "integer", "boolean", "object", "array"];
    match v {
        Value::String(s) if TYPES.contains(&s.to_ascii_lowercase().as_str()) => {
            json!({"type": s.to_ascii_lowercase()})
        }
        _ => json!({}),
    }
}

/// Not a schema, and not `false` (which has its own handling): a scalar, a
/// JSON null or an array where one `Schema` belongs.
fn is_scalar(v: &Value) -> bool {
    !v.is_object() && *v != Value::Bool(false)
}

/// `gemini-schema-values`: a `Schema` position holding a scalar is a parse
/// error (rule `gemini-property-schema-not-object`, recorded `Invalid value
/// at '….properties[6].value' (…Schema), "object"`; a JSON null or a list
/// there fails the same proto parse). In `properties`,
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
    fn fix(self, v: &Value) -> Value {
        if self.type_names {
            as_schema(v)
        } else {
            json!({})
        }
    }
}

impl SchemaValues {
    /// A node holding a non-schema where a schema belongs (a property, an
    /// `items`, a union branch) or a composition that is not an array.
    fn acts_at(_: usize, node: &Map<String, Value>) -> bool {
        let not_object = |v: &Value| !v.is_object();
        node.field("properties")
            .and_then(Value::as_object)
            .is_some_and(|props| props.values().any(not_object))
            || node.field("items").is_some_and(not_object)
            || ["anyOf", "oneOf", "allOf"]
                .iter()
                .any(|k| node.field(k).is_some_and(|v| !v.is_array()))
            || ["anyOf", "oneOf"].iter().any(|k| {
                node.field(k)
                    .and_then(Value::as_array)
                    .is_some_and(|branches| branches.iter().any(not_object))
            })
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
        if !may_act(&tool.input_schema, &|depth, node| {
            Self::acts_at(depth, node)
        }) {
            return Ok(Step::Continue);
        }
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let mut falses = Vec::new();
            if let Some(Value::Object(props)) = node.field_mut("properties") {
                for (name, v) in props.iter_mut() {
                    if *v == Value::Bool(false) {
                        falses.push(name.clone());
                    } else if is_scalar(v) {
                        let at = schema::child_path(&format!("{path}/properties"), name);
                        cx.record_at(
                            at,
                            "",
                            Action::Rewritten,
                            format!("{} where a Schema belongs", schema::to_bytes(v)),
                        );
                        *v = self.fix(v);
                    }
                }
                let names: Vec<&str> = falses.iter().map(String::as_str).collect();
                schema::remove_keys(props, &names);
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
            match node.field_mut("items") {
                Some(Value::Array(list)) => {
                    // A member that is no schema (`[1]`) is fixed like any
                    // other non-schema, or the rewrite would ship `items: 1`
                    // and the next run would rewrite it again.
                    let schema_of = |v: &Value| {
                        if v.is_object() {
                            v.clone()
                        } else {
                            self.fix(v)
                        }
                    };
                    let new = match list.len() {
                        0 => json!({}),
                        1 => schema_of(&list[0]),
                        _ => Value::Object(Map::from_iter([(
                            "anyOf".to_owned(),
                            Value::Array(list.iter().map(schema_of).collect()),
                        )])),
                    };
                    let what = format!(
                        "items in tuple order {}",
                        schema::to_bytes(&Value::Array(list.clone()))
                    );
                    node.insert("items".into(), new);
                    cx.record(
                        path,
                        "items",
                        Action::Rewritten,
                        noted(
                            "tuple items have no Schema form",
                            &format!("{path}/items"),
                            &what,
                        ),
                    );
                }
                Some(v) if !v.is_object() => {
                    cx.record(
                        path,
                        "items",
                        Action::Rewritten,
                        format!("{} where a Schema belongs", schema::to_bytes(v)),
                    );
                    *v = self.fix(v);
                }
                _ => {}
            }
            // A composition whose value is not an array is no schema at all
            // (the metaschema rejects it): it goes, recorded.
            for kw in ["anyOf", "oneOf", "allOf"] {
                if node.field(kw).is_some_and(|v| !v.is_array()) {
                    node.shift_remove(kw);
                    cx.record(
                        path,
                        kw,
                        Action::Removed,
                        "not an array of schemas: a malformed composition constrains nothing",
                    );
                }
            }
            // `oneOf` too: it becomes `anyOf` later, and a false branch
            // (matching nothing) never changes which branch matches.
            for kw in ["anyOf", "oneOf"] {
                let Some(Value::Array(branches)) = node.field_mut(kw) else {
                    continue;
                };
                let before = branches.len();
                for (i, b) in branches.iter_mut().enumerate() {
                    if is_scalar(b) {
                        cx.record(
                            &format!("{path}/{kw}/{i}"),
                            "",
                            Action::Rewritten,
                            format!("{} where a Schema belongs", schema::to_bytes(b)),
                        );
                        *b = self.fix(b);
                    }
                }
                branches.retain(|b| *b != Value::Bool(false));
                if branches.len() != before {
                    cx.record(
                        path,
                        kw,
                        Action::Rewritten,
                        "false branches (matching nothing) removed",
                    );
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
