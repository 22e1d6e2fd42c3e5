//! v1 on the OpenAI-compatible Chat lanes (`openai-chat`, `openai-strict`,
//! `xai`, `groq`, `cerebras`): every tool passes that lane's oracle, every
//! loss recorded.
//!
//! Each lane gets exactly the passes its oracle asks for (`v0` ships these
//! lanes verbatim, and on `openai-chat` every change is a declared v0 → v1
//! divergence, so nothing else is touched):
//! - `openai-chat` / `openai-strict`: tool names, root compositions and
//!   root assertions, malformed keyword types (`required: null`, a name map
//!   sent as `[]`), non-schema subschemas, arrays without `items`, a root
//!   object without `properties`; then, for strict tools (every tool without
//!   a flag on `openai-strict`), the strict subset: a fallback to non-strict
//!   over the documented limits, property `default`s (Azure; `openai-strict`
//!   only), closed objects, every key required.
//! - `xai`: length and count keywords stripped (noted).
//! - `groq`: malformed keyword types and non-schema subschemas repaired,
//!   `properties: {}` beside a root `required`.
//! - `cerebras`: `minItems`/`maxItems` stripped (noted), strict tools closed
//!   (a strict tool with an `if`/`then`/`else`/`not` subschema is sent
//!   non-strict instead).

use serde_json::{Map, Value, json};

use super::notes::{self, Unenforced};
use super::root::replace_non_object_root;
use super::strict::StrictGate;
use super::{Cx, Pass, PassMutant, Step};
use crate::degradation::Action;
use crate::schema::{self, ChildKey, NAME_MAPS, SCHEMA_ARRAYS, SINGLE_SCHEMA, TooDeep};
use crate::tool::Tool;

/// `non-schema-root`: OpenAI and Groq validate `parameters` against a
/// metaschema, which takes an object or a boolean (OpenAI: `[] is not of
/// type 'object', 'boolean'.`, rule `openai-subschema-not-object`; Groq:
/// `7 is not of types "boolean", "object"`, rule
/// `groq-metaschema-validation`). A root that is neither (an array, a
/// number, a string, null) says nothing a schema could keep and becomes
/// `{}`, recorded; a boolean root is valid and stays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NonSchemaRoot {
    pub(crate) rule: &'static str,
    /// Replace a boolean root too (a mutant).
    pub(crate) booleans: bool,
}

impl NonSchemaRoot {
    pub(crate) fn new(rule: &'static str) -> Self {
        Self {
            rule,
            booleans: false,
        }
    }
}

/// `metaschema-gate`: the last pass where the endpoint validates every
/// schema against the draft 2020-12 metaschema (Groq: `schema is not valid
/// JSON Schema`; the provider fact and the check live in `metaschema`,
/// below this pass and the oracle that judges it). What the repairs before it could not make valid (a keyword
/// whose value has the wrong type, say `pattern: {…}`) has no faithful
/// rewrite: the tool fails closed with the validator's message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MetaschemaGate {
    pub(crate) rule: &'static str,
    /// Mutation point: the gate switched off.
    pub(crate) enabled: bool,
}

impl Pass for MetaschemaGate {
    fn name(&self) -> &'static str {
        "metaschema-gate"
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }

    fn apply(&self, tool: &mut Tool, _cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if self.enabled
            && let Some(e) = crate::metaschema::draft_2020_12_error(&tool.input_schema)
        {
            return Ok(Step::FailClosed(format!(
                "not a valid draft 2020-12 schema after the repairs: {e}"
            )));
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::flip(self, "never fail closed", |p| {
            &mut p.enabled
        })]
    }
}

impl Pass for NonSchemaRoot {
    fn name(&self) -> &'static str {
        "non-schema-root"
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if self.booleans || !tool.input_schema.is_boolean() {
            replace_non_object_root(&mut tool.input_schema, cx);
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "replace a boolean root too",
            Self {
                booleans: !self.booleans,
                ..*self
            },
        )]
    }
}

/// `upgrade-draft-keywords`: Groq compiles `parameters` as draft 2020-12
/// (rule `groq-metaschema-validation`), where two older spellings are
/// invalid. Each is rewritten to its exact 2020-12 equivalent, in pre-order:
/// - tuple `items: [..]` becomes `prefixItems: [..]` (and `additionalItems`
///   becomes `items`), unless `prefixItems` is already there;
/// - draft-4 boolean `exclusiveMinimum`/`exclusiveMaximum`: `true` takes
///   the value of `minimum`/`maximum` (which goes), `false` (the default)
///   or a `true` without a bound goes;
/// - a draft-6/7 plain-name `$id: "#foo"` becomes `$anchor: "foo"`.
///
/// Draft 2019-09 `$recursiveAnchor`/`$recursiveRef` have no exact
/// 2020-12 spelling without resolving references; they are left as they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct UpgradeDraftKeywords {
    pub(crate) tuples: bool,
    pub(crate) exclusive_bounds: bool,
    pub(crate) anchors: bool,
}

impl Default for UpgradeDraftKeywords {
    fn default() -> Self {
        Self {
            tuples: true,
            exclusive_bounds: true,
            anchors: true,
        }
    }
}

/// Rename `from` to `to` in place (same position), recording it.
fn rename_keyword(
    path: &str,
    node: &mut Map<String, Value>,
    from: &str,
    to: &str,
    cx: &mut Cx<'_>,
) {
    let old = std::mem::take(node);
    for (k, v) in old {
        if k == from {
            node.insert(to.to_owned(), v);
        } else {
            node.insert(k, v);
        }
    }
    cx.record(
        path,
        from,
        Action::Rewritten,
        format!("draft 2020-12 spells {from} as {to}"),
    );
}

impl UpgradeDraftKeywords {
    fn tuple(path: &str, node: &mut Map<String, Value>, cx: &mut Cx<'_>) {
        if !node.get("items").is_some_and(Value::is_array) || node.contains_key("prefixItems") {
            return;
        }
        rename_keyword(path, node, "items", "prefixItems", cx);
        if node.contains_key("additionalItems") {
            rename_keyword(path, node, "additionalItems", "items", cx);
        }
    }

    fn anchor(path: &str, node: &mut Map<String, Value>, cx: &mut Cx<'_>) {
        let Some(Value::String(id)) = node.get("$id") else {
            return;
        };
        let Some(name) = id.strip_prefix('#') else {
            return;
        };
        let mut chars = name.chars();
        let valid = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
        if !valid || node.contains_key("$anchor") {
            return;
        }
        let name = Value::String(name.to_owned());
        rename_keyword(path, node, "$id", "$anchor", cx);
        node.insert("$anchor".to_owned(), name);
    }

    fn bound(path: &str, node: &mut Map<String, Value>, flag: &str, bound: &str, cx: &mut Cx<'_>) {
        let Some(Value::Bool(on)) = node.get(flag) else {
            return;
        };
        let value = if *on {
            node.get(bound).filter(|b| b.is_number()).cloned()
        } else {
            None
        };
        if let Some(v) = value {
            node.insert(flag.to_owned(), v);
            node.shift_remove(bound);
            cx.record(
                path,
                flag,
                Action::Rewritten,
                format!("draft-4 boolean {flag} takes the value of {bound}"),
            );
            cx.record(
                path,
                bound,
                Action::Rewritten,
                format!("moved under {flag}"),
            );
        } else {
            node.shift_remove(flag);
            cx.record(
                path,
                flag,
                Action::Removed,
                format!("draft-4 boolean {flag} without effect"),
            );
        }
    }
}

impl Pass for UpgradeDraftKeywords {
    fn name(&self) -> &'static str {
        "upgrade-draft-keywords"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("groq-metaschema-validation")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            if self.tuples {
                Self::tuple(path, node, cx);
            }
            if self.exclusive_bounds {
                Self::bound(path, node, "exclusiveMinimum", "minimum", cx);
                Self::bound(path, node, "exclusiveMaximum", "maximum", cx);
            }
            if self.anchors {
                Self::anchor(path, node, cx);
            }
            true
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::new(
                "leave tuple items alone",
                Self {
                    tuples: !self.tuples,
                    ..*self
                },
            ),
            PassMutant::new(
                "leave boolean exclusive bounds alone",
                Self {
                    exclusive_bounds: !self.exclusive_bounds,
                    ..*self
                },
            ),
            PassMutant::new(
                "leave plain-name ids alone",
                Self {
                    anchors: !self.anchors,
                    ..*self
                },
            ),
        ]
    }
}

/// `list` without `drop` (for the "drop one keyword" mutants).
fn without(list: &[&'static str], drop: &str) -> Vec<&'static str> {
    list.iter().copied().filter(|k| *k != drop).collect()
}

/// The JSON kind of a value, for reasons.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A draft-3 property-level `required` flag: `true`/`"true"` is `Some(true)`,
/// `false`/`"false"` is `Some(false)`.
fn draft3_flag(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s == "true" => Some(true),
        Value::String(s) if s == "false" => Some(false),
        _ => None,
    }
}

/// `repair-keyword-types`: keywords whose value has the wrong JSON type,
/// which OpenAI rejects in metaschema words (`None is not of type 'array'.`,
/// recording `openai-required-null-860`; `[] is not of type 'object'.`) and
/// Groq rejects against the draft 2020-12 metaschema (`expected array, but
/// got string` for a property's `"required": "true"`, recording
/// `groq-metaschema-validation-31132`). In pre-order, at each node:
/// 1. a name map (`properties`, `$defs`, …) that is not an object becomes
///    `{}` (PHP and JS serialize an empty map as `[]`);
/// 2. a property's draft-3 `required: true` (or `"true"`) moves into the
///    node's `required` list, a `false` one goes (it is the default);
/// 3. a `required` that is still not an array is removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RepairKeywordTypes {
    pub(crate) rule: &'static str,
    /// The name maps repaired.
    pub(crate) maps: Vec<&'static str>,
    /// Lift draft-3 `required` flags (`false`: remove them like any other
    /// non-array `required`, a mutant).
    pub(crate) lift_draft3: bool,
    /// Remove a non-array `required`.
    pub(crate) drop_required: bool,
}

impl RepairKeywordTypes {
    pub(crate) fn new(rule: &'static str) -> Self {
        Self {
            rule,
            maps: vec![
                "properties",
                "$defs",
                "definitions",
                "patternProperties",
                "dependentSchemas",
            ],
            lift_draft3: true,
            drop_required: true,
        }
    }

    fn repair(&self, path: &str, node: &mut Map<String, Value>, cx: &mut Cx<'_>) {
        for kw in &self.maps {
            if let Some(v) = node.get_mut(*kw)
                && !v.is_object()
            {
                let was = kind(v);
                *v = json!({});
                cx.record(
                    path,
                    kw,
                    Action::Rewritten,
                    format!("{kw} was {was}, not a name map: replaced by {{}}"),
                );
            }
        }
        if self.lift_draft3 {
            Self::lift(path, node, cx);
        }
        if self.drop_required
            && let Some(v) = node.get("required")
            && !v.is_array()
        {
            let was = kind(v);
            node.shift_remove("required");
            cx.record(
                path,
                "required",
                Action::Removed,
                format!("required was {was}, not an array of names"),
            );
        }
    }

    /// Move draft-3 `required` flags of `node`'s properties into its list.
    fn lift(path: &str, node: &mut Map<String, Value>, cx: &mut Cx<'_>) {
        let mut lifted = Vec::new();
        if let Some(Value::Object(props)) = node.get_mut("properties") {
            for (name, prop) in props.iter_mut() {
                let Some(p) = prop.as_object_mut() else {
                    continue;
                };
                let Some(flag) = p.get("required").and_then(draft3_flag) else {
                    continue;
                };
                p.shift_remove("required");
                let at = schema::child_path(&format!("{path}/properties"), name);
                if flag {
                    cx.record(
                        &at,
                        "required",
                        Action::Rewritten,
                        "draft-3 required flag moved into the parent's required list",
                    );
                    lifted.push(name.clone());
                } else {
                    cx.record(
                        &at,
                        "required",
                        Action::Removed,
                        "draft-3 required: false is the default",
                    );
                }
            }
        }
        if lifted.is_empty() {
            return;
        }
        let mut all = match node.get("required") {
            Some(Value::Array(a)) => a.clone(),
            _ => Vec::new(),
        };
        for name in lifted {
            if !all.iter().any(|r| r.as_str() == Some(&name)) {
                all.push(Value::String(name));
            }
        }
        cx.set_keyword(
            path,
            node,
            ("properties", "required"),
            Value::Array(all),
            "draft-3 required flags lifted",
        );
    }
}

impl Pass for RepairKeywordTypes {
    fn name(&self) -> &'static str {
        "repair-keyword-types"
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            self.repair(path, node, cx);
            true
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out: Vec<PassMutant> = self
            .maps
            .iter()
            .map(|k| {
                PassMutant::new(
                    format!("drop {k:?} from repaired name maps"),
                    Self {
                        maps: without(&self.maps, k),
                        ..self.clone()
                    },
                )
            })
            .collect();
        out.push(PassMutant::new(
            "remove draft-3 required flags instead of lifting them",
            Self {
                lift_draft3: !self.lift_draft3,
                ..self.clone()
            },
        ));
        out.push(PassMutant::new(
            "keep a non-array required",
            Self {
                drop_required: !self.drop_required,
                ..self.clone()
            },
        ));
        out
    }
}

/// `replace-non-schemas`: a schema position holding neither an object nor
/// a boolean (`[] is not of type 'object', 'boolean'.`, recording
/// `openai-subschema-not-object-1162`: a PHP empty array as a property
/// schema) becomes `{}`. The value says nothing a schema could keep, and
/// `{}` accepts what the author could have meant. Array-form `items` is
/// left alone (the oracle does too).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ReplaceNonSchemas {
    pub(crate) rule: &'static str,
    /// Repair name-map entries (`properties/x`, `$defs/x`, …).
    pub(crate) maps: bool,
    /// Repair single-schema keywords (`additionalProperties`, `not`, `items`, …).
    pub(crate) singles: bool,
    /// Repair members of `allOf`/`anyOf`/`oneOf`/`prefixItems`.
    pub(crate) arrays: bool,
    /// Leave a bare JSON type name (`"x": "number"`) for a later pass that
    /// reads it as `{"type": …}` (Anthropic's draft 2020-12 repair) instead
    /// of replacing it by `{}`, which would lose the type.
    pub(crate) keep_type_names: bool,
}

fn schema_like(v: &Value) -> bool {
    v.is_object() || v.is_boolean()
}

impl ReplaceNonSchemas {
    pub(crate) fn new(rule: &'static str) -> Self {
        Self {
            rule,
            maps: true,
            singles: true,
            arrays: true,
            keep_type_names: false,
        }
    }

    /// [`Self::new`], leaving bare type names to a later repair.
    pub(crate) fn keeping_type_names(rule: &'static str) -> Self {
        Self {
            keep_type_names: true,
            ..Self::new(rule)
        }
    }

    /// `v` stands where a schema belongs and must be replaced.
    fn culprit(&self, v: &Value) -> bool {
        const TYPE_NAMES: [&str; 7] = [
            "string", "number", "integer", "boolean", "object", "array", "null",
        ];
        let type_name = v.as_str().is_some_and(|t| TYPE_NAMES.contains(&t));
        !(schema_like(v) || self.keep_type_names && type_name)
    }

    /// The non-schema children of `node`, as keys.
    fn culprits(&self, node: &Map<String, Value>) -> Vec<ChildKey> {
        let mut out = Vec::new();
        for (k, v) in node {
            if let Some(kw) = NAME_MAPS.iter().find(|m| **m == k) {
                if self.maps
                    && let Some(map) = v.as_object()
                {
                    out.extend(
                        map.iter()
                            .filter(|(_, s)| self.culprit(s))
                            .map(|(n, _)| ChildKey::Named(kw, n.clone())),
                    );
                }
            } else if let Some(kw) = SINGLE_SCHEMA.iter().chain(&["items"]).find(|m| **m == k) {
                if self.singles && self.culprit(v) && !(*kw == "items" && v.is_array()) {
                    out.push(ChildKey::Single(kw));
                }
            } else if let Some(kw) = SCHEMA_ARRAYS.iter().find(|m| **m == k)
                && self.arrays
                && let Some(items) = v.as_array()
            {
                out.extend(
                    items
                        .iter()
                        .enumerate()
                        .filter(|(_, s)| self.culprit(s))
                        .map(|(i, _)| ChildKey::Indexed(kw, i)),
                );
            }
        }
        out
    }
}

impl Pass for ReplaceNonSchemas {
    fn name(&self) -> &'static str {
        "replace-non-schemas"
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            for key in self.culprits(node) {
                let keyword = match &key {
                    ChildKey::Single(k) | ChildKey::Named(k, _) | ChildKey::Indexed(k, _) => *k,
                };
                if let Some(v) = key.get_mut(node) {
                    let was = kind(v);
                    *v = json!({});
                    cx.record(
                        &format!("{path}{}", key.suffix()),
                        keyword,
                        Action::Rewritten,
                        format!("schema position held {was}, not a schema: replaced by {{}}"),
                    );
                }
            }
            true
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::new(
                "leave name-map entries alone",
                Self {
                    maps: !self.maps,
                    ..*self
                },
            ),
            PassMutant::new(
                "leave single-schema keywords alone",
                Self {
                    singles: !self.singles,
                    ..*self
                },
            ),
            PassMutant::new(
                "leave schema-array members alone",
                Self {
                    arrays: !self.arrays,
                    ..*self
                },
            ),
        ]
    }
}

/// `array-items-floor`: OpenAI rejects `type: "array"` without `items` at
/// any depth (`array schema missing items`, recording
/// `openai-array-schema-missing-items-148`). Absent `items` means any
/// item, which is exactly `items: {}`: a faithful rewrite, recorded as added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ArrayItemsFloor {
    /// Nested arrays too (`false`: the root only, a mutant).
    pub(crate) nested: bool,
}

impl Default for ArrayItemsFloor {
    fn default() -> Self {
        Self { nested: true }
    }
}

impl Pass for ArrayItemsFloor {
    fn name(&self) -> &'static str {
        "array-items-floor"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("openai-array-schema-missing-items")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            if schema::has_type(node, "array") && !node.contains_key("items") {
                cx.set_keyword(
                    path,
                    node,
                    ("type", "items"),
                    json!({}),
                    "array without items: items {} (any item) stated",
                );
            }
            self.nested
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "state items on the root only",
            Self {
                nested: !self.nested,
            },
        )]
    }
}

/// `object-properties-floor`: a root object without `properties` gets
/// `properties: {}` (no constraint changes). OpenAI rejects a root
/// `type: "object"` without it (`object schema missing properties`,
/// recordings `openai-object-schema-missing-properties-143`/`-1359`); Groq
/// rejects a root `required` without it (`'required' present but
/// 'properties' is missing`, recording `groq-required-without-properties-1088`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RootPropertiesFloor {
    pub(crate) rule: &'static str,
    /// Trigger on a root `type: "object"`.
    pub(crate) typed_object: bool,
    /// Trigger on a root `required`.
    pub(crate) with_required: bool,
}

impl RootPropertiesFloor {
    pub(crate) fn openai() -> Self {
        Self {
            rule: "openai-object-schema-missing-properties",
            typed_object: true,
            with_required: false,
        }
    }

    pub(crate) fn groq() -> Self {
        Self {
            rule: "groq-required-without-properties",
            typed_object: false,
            with_required: true,
        }
    }
}

impl Pass for RootPropertiesFloor {
    fn name(&self) -> &'static str {
        "object-properties-floor"
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let Some(root) = tool.input_schema.as_object_mut() else {
            return Ok(Step::Continue);
        };
        let hit = (self.typed_object && schema::has_type(root, "object"))
            || (self.with_required && root.contains_key("required"));
        if hit && !root.contains_key("properties") {
            cx.set_keyword(
                "",
                root,
                ("type", "properties"),
                json!({}),
                "root object without properties: properties {} stated",
            );
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::new(
                "flip the type-object trigger",
                Self {
                    typed_object: !self.typed_object,
                    ..*self
                },
            ),
            PassMutant::new(
                "flip the required trigger",
                Self {
                    with_required: !self.with_required,
                    ..*self
                },
            ),
        ]
    }
}

/// What one strict schema holds, against the documented limits.
#[derive(Debug, Default, PartialEq, Eq)]
struct Size {
    /// Object levels on the deepest path (definitions start their own count).
    levels: usize,
    properties: usize,
    enum_values: usize,
    /// The first nested object strict mode could only close to `{}`.
    open_map: Option<String>,
}

fn measure(
    v: &Value,
    path: &str,
    above: usize,
    depth: usize,
    size: &mut Size,
) -> Result<(), TooDeep> {
    let Some(node) = v.as_object() else {
        return Ok(());
    };
    if depth > schema::MAX_DEPTH {
        return Err(TooDeep {
            path: schema::display_path(path),
            limit: schema::MAX_DEPTH,
        });
    }
    let object = schema::is_object_schema(node);
    let here = above + usize::from(object);
    size.levels = size.levels.max(here);
    let props = node.get("properties").and_then(Value::as_object);
    size.properties += props.map_or(0, Map::len);
    size.enum_values += node
        .get("enum")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let open = !matches!(node.get("additionalProperties"), Some(Value::Bool(false)));
    if object
        && open
        && !path.is_empty()
        && props.is_none_or(Map::is_empty)
        && size.open_map.is_none()
    {
        size.open_map = Some(schema::display_path(path));
    }
    for child in schema::children(node) {
        let defs = matches!(&child, ChildKey::Named("$defs" | "definitions", _));
        if let Some(sub) = child.get(node) {
            let at = format!("{path}{}", child.suffix());
            measure(sub, &at, if defs { 0 } else { here }, depth + 1, size)?;
        }
    }
    Ok(())
}

/// `strict-fallback`: a strict tool the strict subset cannot carry ships
/// with `strict: false` (recorded on the `strict` keyword) instead of a
/// rejected request. Over the documented limits (Structured Outputs:
/// 10 levels of object nesting, 5000 object properties, 1000 enum values
/// per schema; rules `openai-strict-nesting-limit`,
/// `openai-strict-property-count-limit`, `openai-strict-enum-count-limit`),
/// and for a nested object without properties that is not closed (a map or
/// a free-form object: `additionalProperties: false` would leave it
/// accepting only `{}`, so no faithful strict rewrite exists), and for an
/// `if`/`then`/`else`/`not` subschema: the documented strict subset
/// (<https://platform.openai.com/docs/guides/structured-outputs#supported-schemas>)
/// has no conditionals or negation, and closing the objects inside one
/// would change the condition instead of the shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StrictFallback {
    pub(crate) gate: StrictGate,
    pub(crate) levels: usize,
    pub(crate) properties: usize,
    pub(crate) enum_values: usize,
    /// Fall back for open nested objects without properties.
    pub(crate) open_maps: bool,
    /// Fall back for `if`/`then`/`else`/`not` subschemas.
    pub(crate) conditionals: bool,
}

impl Default for StrictFallback {
    fn default() -> Self {
        Self {
            gate: StrictGate::default(),
            levels: 10,
            properties: 5000,
            enum_values: 1000,
            open_maps: true,
            conditionals: true,
        }
    }
}

impl StrictFallback {
    /// Why the strict subset cannot carry `schema`, if it cannot.
    fn reason(&self, schema: &Value) -> Result<Option<String>, TooDeep> {
        let mut size = Size::default();
        measure(schema, "", 0, 0, &mut size)?;
        let conditional = if self.conditionals {
            schema::first_conditional(schema)?
        } else {
            None
        };
        let over = |n: usize, limit: usize, what: &str| {
            (n > limit).then(|| format!("{n} {what} exceed the strict limit of {limit}"))
        };
        Ok(over(size.levels, self.levels, "levels of object nesting")
            .or_else(|| over(size.properties, self.properties, "object properties"))
            .or_else(|| over(size.enum_values, self.enum_values, "enum values"))
            .or_else(|| {
                size.open_map.filter(|_| self.open_maps).map(|at| {
                    format!("the open object at {at} declares no properties: strict mode could only accept {{}} there")
                })
            })
            .or_else(|| {
                conditional.map(|(at, kw)| {
                    format!("{kw} at {at}: the strict subset has no if/then/else/not, and closing objects inside one would change the condition")
                })
            }))
    }
}

impl Pass for StrictFallback {
    fn name(&self) -> &'static str {
        "strict-fallback"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("openai-strict-nesting-limit")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !self.gate.admits(tool, cx.lane) {
            return Ok(Step::Continue);
        }
        if let Some(why) = self.reason(&tool.input_schema)? {
            super::strict::send_non_strict(tool, cx, &why);
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out = self.gate.mutants(|gate| Self { gate, ..*self });
        out.extend([
            PassMutant::new(
                "nesting limit one higher",
                Self {
                    levels: self.levels + 1,
                    ..*self
                },
            ),
            PassMutant::new(
                "property limit one higher",
                Self {
                    properties: self.properties + 1,
                    ..*self
                },
            ),
            PassMutant::new(
                "enum limit one higher",
                Self {
                    enum_values: self.enum_values + 1,
                    ..*self
                },
            ),
            PassMutant::new(
                "keep open maps strict",
                Self {
                    open_maps: !self.open_maps,
                    ..*self
                },
            ),
            PassMutant::new(
                "keep conditional schemas strict",
                Self {
                    conditionals: !self.conditionals,
                    ..*self
                },
            ),
        ]);
        out
    }
}

/// `strict-strip-defaults` (`openai-strict` only): Azure OpenAI rejects a
/// strict tool whose property carries a non-null `default` (`'default' is
/// not permitted within a property definition`, recording
/// `azure-openai-strict-default-not-permitted-4390`); api.openai.com
/// accepts it, and the lane stands for both. A default is an annotation
/// (strict mode sends every key anyway), so it goes, recorded, and the
/// values are restated in a note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StrictStripDefaults {
    pub(crate) gate: StrictGate,
    pub(crate) note: bool,
}

impl Default for StrictStripDefaults {
    fn default() -> Self {
        Self {
            gate: StrictGate::default(),
            note: true,
        }
    }
}

impl Pass for StrictStripDefaults {
    fn name(&self) -> &'static str {
        "strict-strip-defaults"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("azure-openai-strict-default-not-permitted")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !self.gate.admits(tool, cx.lane) {
            return Ok(Step::Continue);
        }
        let mut lost = Vec::new();
        schema::rewrite_post_order(&mut tool.input_schema, &mut |path, via, node| {
            let property = matches!(via, Some(ChildKey::Named("properties", _)));
            if property
                && node.get("default").is_some_and(|d| !d.is_null())
                && let Some(value) = node.shift_remove("default")
            {
                cx.record(
                    path,
                    "default",
                    Action::Removed,
                    "strict mode: a property default is not permitted (Azure OpenAI)",
                );
                lost.push(Unenforced {
                    pointer: path.to_owned(),
                    keyword: "default".into(),
                    value,
                });
            }
        })?;
        if self.note
            && let Some(n) = notes::unenforced_note(&lost)
        {
            cx.note(tool, &n, "stripped property defaults surfaced as a note");
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out = self.gate.mutants(|gate| Self { gate, ..*self });
        out.push(PassMutant::new(
            "skip the note",
            Self {
                note: !self.note,
                ..*self
            },
        ));
        out
    }
}

/// `strip-unsupported-keywords`: keywords a provider rejects anywhere in a
/// tool schema are removed at every schema position, one record each, and
/// restated in one description note (the model should still honour them).
/// xAI compiles every tool for constrained decoding and rejects length and
/// count bounds (HTTP 502 `Invalid arguments passed to the model`, recording
/// `xai-length-count-constraints-32080`); Cerebras rejects `minItems` /
/// `maxItems` (`Unsupported JSON schema fields: {'minItems', 'items'}`,
/// recording `cerebras-unsupported-schema-fields-708`).
///
/// As `strip-root-assertions`, the root only: OpenAI rejects a root `enum`,
/// `const` or `not` (`schema must have type 'object' and not have
/// 'oneOf'/'anyOf'/'allOf'/'enum'/'const'/'not' at the top level`,
/// recordings `openai-root-composition-545`/`-552`; the unions are
/// `narrow-root-composition`'s), and no object keyword says the same thing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StripKeywords {
    pub(crate) name: &'static str,
    pub(crate) rule: &'static str,
    /// Stripped keywords, in record (and note) order per node.
    pub(crate) keywords: Vec<&'static str>,
    /// The root only (`false`: every schema position).
    pub(crate) root_only: bool,
    pub(crate) note: bool,
}

impl StripKeywords {
    pub(crate) fn root_assertions() -> Self {
        Self {
            name: "strip-root-assertions",
            rule: "openai-root-composition",
            keywords: vec!["enum", "const", "not"],
            root_only: true,
            note: true,
        }
    }

    /// Root `const` on Responses: the root flatten strips `enum` and `not`
    /// but predates `const`, which OpenAI rejects at the root as well.
    pub(crate) fn root_assertions_const() -> Self {
        Self {
            keywords: vec!["const"],
            ..Self::root_assertions()
        }
    }

    pub(crate) fn xai() -> Self {
        Self {
            name: "strip-unsupported-keywords",
            rule: "xai-length-count-constraints",
            keywords: vec![
                "minLength",
                "maxLength",
                "minItems",
                "maxItems",
                "minContains",
                "maxContains",
            ],
            root_only: false,
            note: true,
        }
    }

    pub(crate) fn cerebras() -> Self {
        Self {
            name: "strip-unsupported-keywords",
            rule: "cerebras-unsupported-schema-fields",
            keywords: vec!["minItems", "maxItems"],
            root_only: false,
            note: true,
        }
    }
}

impl Pass for StripKeywords {
    fn name(&self) -> &'static str {
        self.name
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let mut lost = Vec::new();
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            for kw in &self.keywords {
                if let Some(value) = node.shift_remove(*kw) {
                    cx.record(
                        path,
                        kw,
                        Action::Removed,
                        format!("{kw} stripped: the provider rejects it here"),
                    );
                    lost.push(Unenforced {
                        pointer: path.to_owned(),
                        keyword: (*kw).to_owned(),
                        value,
                    });
                }
            }
            !self.root_only
        })?;
        if self.note
            && let Some(n) = notes::unenforced_note(&lost)
        {
            cx.note(tool, &n, "stripped keywords surfaced as a note");
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out: Vec<PassMutant> = self
            .keywords
            .iter()
            .map(|k| {
                PassMutant::new(
                    format!("drop {k:?} from stripped keywords"),
                    Self {
                        keywords: without(&self.keywords, k),
                        ..self.clone()
                    },
                )
            })
            .collect();
        out.push(PassMutant::new(
            "skip the note",
            Self {
                note: !self.note,
                ..self.clone()
            },
        ));
        out.push(PassMutant::new(
            "flip root-only",
            Self {
                root_only: !self.root_only,
                ..self.clone()
            },
        ));
        out
    }
}

#[cfg(test)]
#[path = "openai_tests.rs"]
mod tests;

/// `xai-exact-constructs`: xAI rejects `items` as an array ("use
/// 'prefixItems'"), property schemas `true`/`false` and an empty
/// `enum`/`anyOf` (rule `xai-schema-construct-rejected`, documented).
/// Tuple `items: [..]` is exactly `prefixItems: [..]` (the tuple's
/// `additionalItems` becomes `items`) and `true` is exactly `{}`; a `false`
/// property and an empty list have no accepted spelling, so they are removed
/// and named in a description note. Each change is recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct XaiExactConstructs {
    /// Rewrite tuple `items` (mutation point).
    pub(crate) tuples: bool,
    /// Rewrite `true` property schemas (mutation point).
    pub(crate) true_properties: bool,
}

impl Default for XaiExactConstructs {
    fn default() -> Self {
        Self {
            tuples: true,
            true_properties: true,
        }
    }
}

impl Pass for XaiExactConstructs {
    fn name(&self) -> &'static str {
        "xai-exact-constructs"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("xai-schema-construct-rejected")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let mut lost = Vec::new();
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            if self.tuples
                && node.get("items").is_some_and(Value::is_array)
                && !node.contains_key("prefixItems")
            {
                let old = std::mem::take(node);
                let rest = old.get("additionalItems").cloned();
                for (k, v) in old {
                    match k.as_str() {
                        "items" => {
                            node.insert("prefixItems".to_owned(), v);
                            if let Some(r) = &rest {
                                node.insert("items".to_owned(), r.clone());
                            }
                        }
                        "additionalItems" => {}
                        _ => {
                            node.insert(k, v);
                        }
                    }
                }
                cx.record(
                    path,
                    "items",
                    Action::Rewritten,
                    "tuple items spelled as prefixItems (the same constraint in draft 2020-12)",
                );
                if rest.is_some() {
                    cx.record(
                        path,
                        "additionalItems",
                        Action::Rewritten,
                        "the tuple's additionalItems spelled as items (the same constraint in draft 2020-12)",
                    );
                }
            }
            if self.true_properties
                && let Some(Value::Object(props)) = node.get_mut("properties")
            {
                for (name, v) in props.iter_mut().filter(|(_, v)| **v == Value::Bool(true)) {
                    *v = json!({});
                    cx.record(
                        &format!("{path}/properties/{}", schema::escape_token(name)),
                        "(schema)",
                        Action::Rewritten,
                        "property schema true spelled as {} (the same constraint)",
                    );
                }
            }
            // `false` (the key must be absent) has no accepted spelling:
            // the entry goes, and the model is told. On xAI objects are
            // closed by default, so the key stays disallowed unless the
            // object admits others.
            if let Some(Value::Object(props)) = node.get_mut("properties") {
                let banned: Vec<String> = props
                    .iter()
                    .filter(|(_, v)| **v == Value::Bool(false))
                    .map(|(k, _)| k.clone())
                    .collect();
                for name in banned {
                    props.shift_remove(&name);
                    let at = format!("{path}/properties/{}", schema::escape_token(&name));
                    cx.record(
                        &at,
                        "(schema)",
                        Action::Removed,
                        "property schema false is not accepted: the key must stay absent",
                    );
                    lost.push(super::notes::Unenforced {
                        pointer: at,
                        keyword: "must be absent".to_owned(),
                        value: Value::Bool(true),
                    });
                }
            }
            // An empty `enum`/`anyOf` accepts no value; xAI wants a variant.
            for k in ["enum", "anyOf"] {
                if node
                    .get(k)
                    .and_then(Value::as_array)
                    .is_some_and(Vec::is_empty)
                    && let Some(v) = node.shift_remove(k)
                {
                    cx.record(
                        path,
                        k,
                        Action::Removed,
                        "an empty list accepts no value and xAI rejects it",
                    );
                    lost.push(super::notes::Unenforced {
                        pointer: path.to_owned(),
                        keyword: k.to_owned(),
                        value: v,
                    });
                }
            }
            true
        })?;
        if let Some(n) = super::notes::unenforced_note(&lost) {
            cx.note(tool, &n, "rejected constructs surfaced as a note");
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::flip(self, "keep tuple items", |p| &mut p.tuples),
            PassMutant::flip(self, "keep true property schemas", |p| {
                &mut p.true_properties
            }),
        ]
    }
}
