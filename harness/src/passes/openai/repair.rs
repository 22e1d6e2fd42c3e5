//! Keyword repairs: draft-4/6/7 spellings upgraded, keyword values of the wrong
//! JSON type repaired, non-schema subschemas replaced.

use serde_json::{Map, Value, json};

use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::{self, ChildKey, NAME_MAPS, NodePath, SCHEMA_ARRAYS, SINGLE_SCHEMA, TooDeep};
use crate::tool::Tool;

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
pub(super) fn rename_keyword(
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
    fn tuple(path: &NodePath<'_>, node: &mut Map<String, Value>, cx: &mut Cx<'_>) {
        if !node.field("items").is_some_and(Value::is_array) || node.has("prefixItems") {
            return;
        }
        rename_keyword(path, node, "items", "prefixItems", cx);
        if node.has("additionalItems") {
            rename_keyword(path, node, "additionalItems", "items", cx);
        }
    }

    fn anchor(path: &NodePath<'_>, node: &mut Map<String, Value>, cx: &mut Cx<'_>) {
        let Some(Value::String(id)) = node.field("$id") else {
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
        if !valid || node.has("$anchor") {
            return;
        }
        let name = Value::String(name.to_owned());
        rename_keyword(path, node, "$id", "$anchor", cx);
        node.insert("$anchor".to_owned(), name);
    }

    fn bound(
        path: &NodePath<'_>,
        node: &mut Map<String, Value>,
        flag: &str,
        bound: &str,
        cx: &mut Cx<'_>,
    ) {
        let Some(Value::Bool(on)) = node.field(flag) else {
            return;
        };
        let value = if *on {
            node.field(bound).filter(|b| b.is_number()).cloned()
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
pub(super) fn without(list: &[&'static str], drop: &str) -> Vec<&'static str> {
    list.iter().copied().filter(|k| *k != drop).collect()
}

/// The JSON kind of a value, for reasons.
pub(super) fn kind(v: &Value) -> &'static str {
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
pub(super) fn draft3_flag(v: &Value) -> Option<bool> {
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

    fn repair(&self, path: &NodePath<'_>, node: &mut Map<String, Value>, cx: &mut Cx<'_>) {
        for kw in &self.maps {
            if let Some(v) = node.field_mut(kw)
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
            && let Some(v) = node.field("required")
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
    fn lift(path: &NodePath<'_>, node: &mut Map<String, Value>, cx: &mut Cx<'_>) {
        let mut lifted = Vec::new();
        if let Some(Value::Object(props)) = node.field_mut("properties") {
            for (name, prop) in props.iter_mut() {
                let Some(p) = prop.as_object_mut() else {
                    continue;
                };
                let Some(flag) = p.field("required").and_then(draft3_flag) else {
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
        let mut all = match node.field("required") {
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

pub(super) fn schema_like(v: &Value) -> bool {
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
    fn culprits(&self, node: &Map<String, Value>) -> Vec<ChildKey<'static>> {
        let mut out = Vec::new();
        for (k, v) in node {
            if let Some(kw) = NAME_MAPS.iter().find(|m| **m == k) {
                if self.maps
                    && let Some(map) = v.as_object()
                {
                    out.extend(
                        map.iter()
                            .filter(|(_, s)| self.culprit(s))
                            .map(|(n, _)| ChildKey::Named(kw, n.clone().into())),
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
