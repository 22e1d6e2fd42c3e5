//! The `gemini-openapi` passes for Gemini's validation phase: `anyOf`
//! alone, a type on every nested schema, string-only `enum`, string
//! formats, array `items`, and objects with properties.

use std::ops::ControlFlow;

use serde_json::{Map, Value, json};

use super::notes::{noted, show};
use super::openapi::{ANY_TYPES, merge_into, put_first, type_is, typed_branches, unrequire};
use crate::degradation::Action;
use crate::json_len;
use crate::lookup::Lookup;
use crate::passes::growth::{growth_budget, own_size};
use crate::passes::{Cx, Pass, PassMutant, Step, may_act};
use crate::schema::{self, ChildKey, NodePath, Rewrite, TooDeep};
use crate::tool::Tool;

/// `gemini-anyof-only`: an `anyOf` node may hold nothing else (rule
/// `gemini-anyof-must-be-only-field`, recorded `schema specified other
/// fields alongside any_of. When using any_of, it must be the only field
/// set.`). The siblings move into every branch (`{S, anyOf: [A, B]}` ≡
/// `{anyOf: [S∧A, S∧B]}`): keys a branch lacks are added, `properties`
/// merge by name and `required` lists unite; the branch's own value wins
/// any other clash.
///
/// Copying siblings into every branch, level under level, grows the schema
/// exponentially on nested unions (a fuzz input reached 5 GB; a 140-byte
/// tool nested 12 levels grew to a megabyte). Past
/// [`growth_budget`] added bytes, the siblings of each further `anyOf` are
/// removed instead of copied (recorded, and noted: every branch should
/// still satisfy them); failing closed would ship the `anyOf` beside its
/// siblings, which Gemini rejects.
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
        let moves = |root: bool, node: &Map<String, Value>| {
            !root && node.len() >= 2 && node.field("anyOf").is_some_and(Value::is_array)
        };
        // Most tools have nothing to move: find that out before measuring.
        if !schema::any_node(&tool.input_schema, &|depth, node| moves(depth == 0, node))? {
            return Ok(Step::Continue);
        }
        let mut grown = 0usize;
        let budget = growth_budget(own_size(&tool.input_schema));
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            if !moves(path.is_empty(), node) {
                return true;
            }
            let mut siblings = std::mem::take(node);
            let Some(Value::Array(mut branches)) = siblings.shift_remove("anyOf") else {
                return true;
            };
            let adds = json_len::byte_len(&siblings) * branches.len();
            if grown + adds > budget {
                let keys: Vec<&str> = siblings.keys().map(String::as_str).collect();
                let what = format!("every anyOf branch also needs {}", keys.join(", "));
                for k in siblings.keys() {
                    cx.record(
                        path,
                        k,
                        Action::Removed,
                        noted(
                            "anyOf must be the only field, and copying this field into every branch would pass the growth budget",
                            path,
                            &what,
                        ),
                    );
                }
                node.insert("anyOf".into(), Value::Array(branches));
                return true;
            }
            grown += adds;
            for k in siblings.keys() {
                cx.record(
                    path,
                    k,
                    Action::Rewritten,
                    "moved into every anyOf branch (anyOf must be the only field)",
                );
            }
            // The last object branch takes the siblings themselves.
            let last = branches.iter().rposition(Value::is_object);
            for (i, b) in branches.iter_mut().enumerate() {
                if let Value::Object(m) = b {
                    let extra = if Some(i) == last {
                        std::mem::take(&mut siblings)
                    } else {
                        siblings.clone()
                    };
                    merge_into(m, extra, self.merge_maps);
                }
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
    let has = |ks: &[&str]| ks.iter().any(|k| node.has(k));
    if has(&[
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "propertyOrdering",
    ]) {
        return Some("object");
    }
    if has(&["items", "minItems", "maxItems"]) {
        return Some("array");
    }
    if let Some(Value::Array(members)) = node.field("enum")
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
    match node.field("format").and_then(Value::as_str) {
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

impl TypeRequired {
    fn acts_at(depth: usize, node: &Map<String, Value>) -> bool {
        depth > 0 && node.field("type").is_none_or(Value::is_null) && !node.has("anyOf")
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
        if !may_act(&tool.input_schema, &|depth, node| {
            Self::acts_at(depth, node)
        }) {
            return Ok(Step::Continue);
        }
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let typeless = node.field("type").is_none_or(Value::is_null);
            if path.is_empty() || !typeless || node.has("anyOf") {
                return true;
            }
            if node.shift_remove("type").is_some() {
                cx.record(path, "type", Action::Removed, "type: null names no type");
            }
            if let Some(t) = implied_type(node).filter(|_| self.infer) {
                put_first(node, "type", json!(t));
                cx.record(
                    path,
                    "type",
                    Action::Added,
                    format!("untyped schema typed {t} by its keywords"),
                );
            } else {
                let siblings = std::mem::take(node);
                for k in siblings.keys() {
                    cx.record(
                        path,
                        k,
                        Action::Rewritten,
                        "moved into every branch of the scalar anyOf",
                    );
                }
                node.insert(
                    "anyOf".into(),
                    Value::Array(typed_branches(ANY_TYPES, siblings)),
                );
                cx.record(
                    path,
                    "anyOf",
                    Action::Added,
                    "an untyped schema (any value) narrowed to string, number or boolean",
                );
            }
            true
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new("never infer a type", Self { infer: false })]
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

impl EnumStrings {
    /// An `enum` other than an all-string one on a string.
    fn acts_at(_: usize, node: &Map<String, Value>) -> bool {
        node.field("enum").is_some_and(|members| {
            !(type_is(node, "string")
                && members
                    .as_array()
                    .is_some_and(|a| a.iter().all(Value::is_string)))
        })
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
        if !may_act(&tool.input_schema, &|depth, node| {
            Self::acts_at(depth, node)
        }) {
            return Ok(Step::Continue);
        }
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let Some(members) = node.field("enum").cloned() else {
                return true;
            };
            let is_string = type_is(node, "string");
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
                cx.record(
                    path,
                    "enum",
                    Action::Rewritten,
                    "non-string members of a string enum removed",
                );
            } else {
                node.shift_remove("enum");
                let reason = "Gemini takes enum only on strings";
                let reason = if is_string {
                    reason.to_owned()
                } else {
                    noted(reason, path, &show("one of", &members))
                };
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
            allowed: crate::facts::gemini::STRING_FORMATS.items.to_vec(),
        }
    }
}

impl StringFormat {
    fn acts_at(&self, _: usize, node: &Map<String, Value>) -> bool {
        node.field("format")
            .and_then(Value::as_str)
            .is_some_and(|f| !self.allowed.contains(&f))
            && type_is(node, "string")
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
        if !may_act(&tool.input_schema, &|depth, node| self.acts_at(depth, node)) {
            return Ok(Step::Continue);
        }
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let bad = node
                .field("format")
                .and_then(Value::as_str)
                .is_some_and(|f| !self.allowed.contains(&f));
            if bad
                && type_is(node, "string")
                && let Some(v) = node.shift_remove("format")
            {
                cx.record(
                    path,
                    "format",
                    Action::Removed,
                    noted(
                        "Gemini takes only enum and date-time string formats",
                        path,
                        &show("format", &v),
                    ),
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

impl ArrayItems {
    fn acts_at(_: usize, node: &Map<String, Value>) -> bool {
        node.field("items").is_none_or(Value::is_null) && type_is(node, "array")
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
        if !may_act(&tool.input_schema, &|depth, node| {
            Self::acts_at(depth, node)
        }) {
            return Ok(Step::Continue);
        }
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let missing = node.field("items").is_none_or(Value::is_null);
            if missing && type_is(node, "array") {
                let items = if self.scalar_any {
                    // Built, not `json!`: the macro serializes a value it is
                    // handed into a new one (on a tool of 1,800 untyped
                    // arrays, 5% of its shaping).
                    Value::Object(Map::from_iter([(
                        "anyOf".to_owned(),
                        Value::Array(typed_branches(ANY_TYPES, Map::new())),
                    )]))
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

/// Prunes free-form objects bottom-up: each node's outcome is whether it
/// must go. Only `properties`, an object `items` and `anyOf` are entered,
/// in that order.
struct Prune<'c, 'x> {
    cx: &'c mut Cx<'x>,
}

impl Rewrite for Prune<'_, '_> {
    type State = ();
    /// The node must go.
    type Out = bool;

    const KEYWORDS: Option<&'static [&'static str]> = Some(&["properties", "items", "anyOf"]);

    fn enter(
        &mut self,
        _: &NodePath<'_>,
        _: Option<&ChildKey>,
        _: &mut Map<String, Value>,
        (): (),
    ) -> ControlFlow<bool, Option<()>> {
        ControlFlow::Continue(Some(()))
    }

    fn inherit(&mut self, (): &(), child: &ChildKey<'_>) -> Option<()> {
        // Tuple `items` stay as they are.
        (!matches!(child, ChildKey::Indexed("items", _))).then_some(())
    }

    /// Only the children that must go are listed.
    fn reports(gone: &bool) -> bool {
        *gone
    }

    fn after(
        &mut self,
        path: &NodePath<'_>,
        node: &mut Map<String, Value>,
        keyword: &'static str,
        outs: Vec<(ChildKey<'static>, bool)>,
    ) -> ControlFlow<bool> {
        let gone = |outs: &[(ChildKey<'static>, bool)]| -> Vec<ChildKey<'static>> {
            outs.iter()
                .filter(|(_, out)| *out)
                .map(|(key, _)| key.clone())
                .collect()
        };
        match keyword {
            "properties" => self.properties_gone(path, node, &gone(&outs)),
            "items" if !gone(&outs).is_empty() => ControlFlow::Break(true),
            "anyOf" => self.branches_gone(path, node, &gone(&outs)),
            _ => ControlFlow::Continue(()),
        }
    }

    fn leave(
        &mut self,
        _: &NodePath<'_>,
        _: Option<&ChildKey>,
        node: &mut Map<String, Value>,
    ) -> bool {
        let object = type_is(node, "object");
        let empty = node
            .field("properties")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty);
        object && empty
    }
}

impl Prune<'_, '_> {
    /// Remove the properties that must go, with their `required` entries.
    fn properties_gone(
        &mut self,
        path: &NodePath<'_>,
        node: &mut Map<String, Value>,
        gone: &[ChildKey<'static>],
    ) -> ControlFlow<bool> {
        let names: Vec<&str> = gone
            .iter()
            .filter_map(|key| match key {
                ChildKey::Named(_, name) => Some(name.as_ref()),
                _ => None,
            })
            .collect();
        if let Some(Value::Object(props)) = node.field_mut("properties") {
            schema::remove_keys(props, &names);
        }
        for name in names {
            let at = schema::child_path(&format!("{path}/properties"), name);
            let required = schema::requires(node, name);
            unrequire(node, name, path, self.cx);
            let what = if required {
                "omitted, though required (a free-form object Gemini cannot declare)"
            } else {
                "omitted (a free-form object Gemini cannot declare)"
            };
            self.cx.record(
                &at,
                "properties",
                Action::Removed,
                noted("an object without properties is rejected", &at, what),
            );
        }
        ControlFlow::Continue(())
    }

    /// Remove the `anyOf` branches that must go; the node goes when none
    /// is left, and a single branch left stands for it.
    fn branches_gone(
        &mut self,
        path: &NodePath<'_>,
        node: &mut Map<String, Value>,
        gone: &[ChildKey<'static>],
    ) -> ControlFlow<bool> {
        let alone = node.len() == 1;
        let Some(Value::Array(branches)) = node.field_mut("anyOf") else {
            return ControlFlow::Continue(());
        };
        let dropped: Vec<usize> = gone
            .iter()
            .filter_map(|key| match key {
                ChildKey::Indexed(_, i) => Some(*i),
                _ => None,
            })
            .collect();
        let mut i = 0;
        branches.retain(|_| {
            i += 1;
            !dropped.contains(&(i - 1))
        });
        let left = branches.len();
        if !dropped.is_empty() {
            let at: Vec<String> = dropped
                .iter()
                .map(|i| format!("{path}/anyOf/{i}"))
                .collect();
            self.cx.record(
                path,
                "anyOf",
                Action::Rewritten,
                format!(
                    "branches {} removed: objects without properties",
                    at.join(", ")
                ),
            );
        }
        if left == 0 {
            return ControlFlow::Break(true);
        }
        // A single branch left stands for the node (as `normalize` would
        // splice it on a second run); moved, not copied: the prune runs
        // bottom-up, so a copy here copied nested unions once per level.
        if alone
            && !dropped.is_empty()
            && matches!(branches.as_slice(), [Value::Object(_)])
            && let Some(Value::Object(branch)) = branches.pop()
        {
            *node = branch;
        }
        ControlFlow::Continue(())
    }
}

/// Prune free-form objects under `v`; whether `v` itself must go.
fn prune(v: &mut Value, cx: &mut Cx<'_>) -> Result<bool, TooDeep> {
    Ok(schema::rewrite_with(v, (), &mut Prune { cx })?.unwrap_or(false))
}

impl Pass for EmptyObjects {
    fn name(&self) -> &'static str {
        "gemini-empty-objects"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("gemini-object-properties-non-empty")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if prune(&mut tool.input_schema, cx)? && self.root_to_null {
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
