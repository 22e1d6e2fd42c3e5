//! `repair-draft-2020-12`: bare type names, draft-3 `required` flags and
//! earlier-draft spellings said the draft 2020-12 way, then the metaschema
//! gate.

use serde_json::{Map, Value, json};

use super::narrow::Flip;
use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::{self, NodePath, TooDeep};
use crate::tool::Tool;

/// The JSON Schema type names: a bare one where a schema belongs is read as
/// `{"type": name}`.
pub(super) const TYPE_NAMES: &[&str] = &[
    "string", "number", "integer", "boolean", "object", "array", "null",
];

/// `repair-draft-2020-12`: the recorded `JSON schema is invalid. It must
/// match JSON Schema draft 2020-12` (rule
/// `anthropic-json-schema-invalid-2020-12`). Two faithful repairs of the
/// recorded constructs, then a gate:
/// 1. a bare type name where a schema belongs (`"x": "number"`, recording
///    `-241`) becomes `{"type": "number"}`;
/// 2. a draft-3 boolean `required` inside a property schema (recording
///    `-71`) moves into the parent's `required` list (`true`) or goes
///    (`false`, the default); one outside a property says nothing and goes;
/// 3. earlier-draft spellings with an exact 2020-12 form: tuple `items`
///    → `prefixItems` (`additionalItems` → `items`), draft-4 boolean
///    `exclusiveMinimum`/`exclusiveMaximum` → the numeric bound;
/// 4. a schema still invalid under the draft 2020-12 metaschema has no
///    faithful repair: the tool fails closed, with the validator's reason
///    (Anthropic validates `input_schema` against that metaschema: the
///    fact and the check live in `metaschema`, below this pass and the
///    oracle that judges it).
///
/// A root that is not a JSON object is left to `narrow-root-composition`
/// (it becomes `{}`). The fields are the pass's mutation points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RepairDraft202012 {
    pub(crate) type_names: bool,
    pub(crate) boolean_required: bool,
    /// Lift `required: true` into the parent (mutant: drop it silently-noted).
    pub(crate) lift_required: bool,
    /// Tuple `items` and boolean exclusive bounds in their 2020-12 form.
    pub(crate) older_drafts: bool,
    pub(crate) fail_closed: bool,
}

impl Default for RepairDraft202012 {
    fn default() -> Self {
        Self {
            type_names: true,
            boolean_required: true,
            lift_required: true,
            older_drafts: true,
            fail_closed: true,
        }
    }
}

/// The schema-position keys of `node` whose value is a bare type name:
/// `(keyword, name-or-index, type)`.
pub(super) fn bare_type_names(node: &Map<String, Value>) -> Vec<(String, Option<String>, String)> {
    let is_type = |v: &Value| {
        v.as_str()
            .filter(|t| TYPE_NAMES.contains(t))
            .map(str::to_owned)
    };
    let mut out = Vec::new();
    for (k, v) in node {
        if schema::NAME_MAPS.contains(&k.as_str()) {
            if let Some(m) = v.as_object() {
                for (name, sub) in m {
                    if let Some(t) = is_type(sub) {
                        out.push((k.clone(), Some(name.clone()), t));
                    }
                }
            }
        } else if (schema::SINGLE_SCHEMA.contains(&k.as_str()) || k == "items")
            && let Some(t) = is_type(v)
        {
            out.push((k.clone(), None, t));
        }
    }
    out
}

/// Two earlier-draft spellings with an exact draft 2020-12 form: tuple
/// `items: [..]` (+ `additionalItems`) is `prefixItems` (+ `items`), and a
/// draft-4 boolean `exclusiveMinimum`/`exclusiveMaximum` next to
/// `minimum`/`maximum` is the numeric bound itself (`false`, or `true`
/// with no bound, says nothing).
pub(super) fn older_draft_forms(
    path: &NodePath<'_>,
    node: &mut Map<String, Value>,
    cx: &mut Cx<'_>,
) {
    if schema::tuple_to_prefix_items(node).is_some() {
        let rest = node.shift_remove("additionalItems");
        cx.record(
            path,
            "items",
            Action::Rewritten,
            "tuple-form items (before draft 2020-12) moved to prefixItems",
        );
        if let Some(rest) = rest {
            node.insert("items".into(), rest);
            cx.record(
                path,
                "additionalItems",
                Action::Rewritten,
                "additionalItems (before draft 2020-12) moved to items",
            );
        }
    }
    for (flag, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        let Some(Value::Bool(b)) = node.field(flag) else {
            continue;
        };
        let exclusive = *b && node.field(bound).is_some_and(Value::is_number);
        if exclusive {
            let n = node.shift_remove(bound).unwrap_or_default();
            node.insert(flag.into(), n);
            cx.record(
                path,
                bound,
                Action::Rewritten,
                format!("draft-4 boolean {flag}: {bound} moved into {flag}"),
            );
        } else {
            node.shift_remove(flag);
            cx.record(
                path,
                flag,
                Action::Removed,
                format!("draft-4 boolean {flag} that excludes nothing"),
            );
        }
    }
}

impl RepairDraft202012 {
    fn repair_node(self, path: &NodePath<'_>, node: &mut Map<String, Value>, cx: &mut Cx<'_>) {
        if self.type_names {
            for (kw, name, t) in bare_type_names(node) {
                let at = match &name {
                    Some(n) => schema::child_path(&schema::child_path(path, &kw), n),
                    None => schema::child_path(path, &kw),
                };
                let slot = match &name {
                    Some(n) => node
                        .get_mut(&kw)
                        .and_then(Value::as_object_mut)
                        .and_then(|m| m.field_mut(n)),
                    None => node.field_mut(&kw),
                };
                if let Some(slot) = slot {
                    *slot = json!({ "type": t });
                    cx.record(
                        &at,
                        "type",
                        Action::Rewritten,
                        format!("bare type name {t:?} where a schema belongs: read as {{\"type\":{t:?}}} (draft 2020-12)"),
                    );
                }
            }
        }
        if self.older_drafts {
            older_draft_forms(path, node, cx);
        }
        if !self.boolean_required {
            return;
        }
        let mut lifted = Vec::new();
        if let Some(Value::Object(props)) = node.field_mut("properties") {
            for (name, prop) in props.iter_mut() {
                let Some(p) = prop.as_object_mut() else {
                    continue;
                };
                let Some(Value::Bool(b)) = p.field("required") else {
                    continue;
                };
                let b = *b;
                p.shift_remove("required");
                let at = schema::child_path(&format!("{path}/properties"), name);
                cx.record(
                    &at,
                    "required",
                    Action::Removed,
                    format!("draft-3 boolean required: {b} (not valid in draft 2020-12)"),
                );
                if b && self.lift_required {
                    lifted.push(name.clone());
                }
            }
        }
        if let Some(Value::Bool(b)) = node.field("required") {
            let b = *b;
            node.shift_remove("required");
            cx.record(
                path,
                "required",
                Action::Removed,
                format!("boolean required: {b} outside a property says nothing (not valid in draft 2020-12)"),
            );
        }
        if !lifted.is_empty() {
            let mut all = schema::required_names(node);
            for n in lifted {
                if !all.contains(&n) {
                    all.push(n);
                }
            }
            cx.set_keyword(
                path,
                node,
                ("properties", "required"),
                json!(all),
                "draft-3 boolean required lifted into the parent's required list",
            );
        }
    }
}

impl Pass for RepairDraft202012 {
    fn name(&self) -> &'static str {
        "repair-draft-2020-12"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("anthropic-json-schema-invalid-2020-12")
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let flags: [Flip<Self>; 5] = [
            ("skip the bare type-name repair", |m| m.type_names = false),
            ("skip the earlier-draft forms", |m| m.older_drafts = false),
            ("skip the boolean required repair", |m| {
                m.boolean_required = false;
            }),
            ("drop required: true instead of lifting it", |m| {
                m.lift_required = false;
            }),
            (
                "ship an unrepairable schema instead of failing closed",
                |m| {
                    m.fail_closed = false;
                },
            ),
        ];
        flags
            .into_iter()
            .map(|(change, flip)| {
                let mut m = *self;
                flip(&mut m);
                PassMutant::new(change, m)
            })
            .collect()
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !tool.input_schema.is_object() {
            return Ok(Step::Continue);
        }
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            self.repair_node(path, node, cx);
            true
        })?;
        if self.fail_closed
            && let Some(e) = crate::metaschema::draft_2020_12_error(&tool.input_schema)
        {
            return Ok(Step::FailClosed(format!(
                "not a valid draft 2020-12 schema and no faithful repair exists: {e}"
            )));
        }
        Ok(Step::Continue)
    }
}
