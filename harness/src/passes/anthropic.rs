//! `narrow-root-composition`: v1's first-party Anthropic pass (seed 000),
//! narrowed to exactly the recorded rejection
//! (`input_schema does not support oneOf, allOf, or anyOf at the top level`).
//!
//! On a normalized schema:
//! 1. a root that is not a JSON object becomes `{}`;
//! 2. root `oneOf`/`anyOf`/`allOf` are stripped, branch properties merged
//!    (root wins, then the first branch);
//! 3. the note comes from the first of `oneOf` > `anyOf` > `allOf` present;
//!    when the root is left with no properties and that keyword gave no note,
//!    a generic keyword-specific note is used instead;
//! 4. whenever a composition was stripped and the root declares no `type`,
//!    the object floor is restored: `type: "object"` (and `properties: {}`
//!    when absent, so a second run is a no-op);
//! 5. root `required` entries left dangling by the merge are pruned.
//!
//! Root `enum`/`not`, `dependentRequired`/`dependentSchemas`, declared
//! non-object roots and nested compositions ship verbatim.

use serde_json::{Map, Value, json};

use super::names::NameSpec;
use super::notes::{self, Unenforced};
use super::root::{self, MergeOrder};
use super::{Cx, Pass, PassMutant, Step};
use crate::degradation::Action;
use crate::schema::{self, TooDeep};
use crate::strict_subset;
use crate::tool::Tool;

/// Tool names: `^[a-zA-Z0-9_-]{1,64}$`. The limit rose to 128 on
/// 2025-07-01 (recording `anthropic-tool-name-pattern-11`, 2025-03-07,
/// quotes `{1,64}`; the define-tools page now says `{1,128}`). A pipeline
/// has no date, and 64 is valid on both sides of the change: a name
/// shaped for 64 is accepted at every recording's date.
pub(crate) const TOOL_NAME: NameSpec = NameSpec::word_or_dash(64);

/// `[a-zA-Z0-9_.-]`: the root property-key alphabet.
fn key_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}

/// Root property keys: `^[a-zA-Z0-9_.-]{1,64}$` (recording
/// `anthropic-property-key-pattern-1`).
pub(crate) const PROPERTY_KEY: NameSpec = NameSpec {
    min: 1,
    max: 64,
    first: key_char,
    rest: key_char,
};

/// One mutation point: its name and how it flips the pass.
type Flip<P> = (&'static str, fn(&mut P));

/// See the module docs. The fields are the pass's mutation points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NarrowRootComposition {
    /// Stripped root keywords, also the note precedence order.
    pub(crate) keywords: Vec<&'static str>,
    pub(crate) merge: MergeOrder,
    pub(crate) replace_non_object_root: bool,
    pub(crate) restore_object_floor: bool,
    pub(crate) generic_note: bool,
    pub(crate) prune_dangling_required: bool,
}

impl Default for NarrowRootComposition {
    fn default() -> Self {
        Self {
            keywords: vec!["oneOf", "anyOf", "allOf"],
            merge: MergeOrder::FirstWins,
            replace_non_object_root: true,
            restore_object_floor: true,
            generic_note: true,
            prune_dangling_required: true,
        }
    }
}

impl Pass for NarrowRootComposition {
    fn name(&self) -> &'static str {
        "narrow-root-composition"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("anthropic-root-composition")
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out: Vec<PassMutant> = self
            .keywords
            .iter()
            .map(|k| {
                let mut m = self.clone();
                m.keywords.retain(|x| x != k);
                PassMutant::new(format!("drop {k:?} from stripped keywords"), m)
            })
            .collect();
        let mut reversed = self.clone();
        reversed.keywords.reverse();
        out.push(PassMutant::new(
            "reverse the keyword (note) precedence",
            reversed,
        ));
        out.push(PassMutant::new(
            "last branch wins a merge",
            Self {
                merge: MergeOrder::LastWins,
                ..self.clone()
            },
        ));
        let flags: [Flip<Self>; 4] = [
            ("skip the non-object root replacement", |m| {
                m.replace_non_object_root = false;
            }),
            ("skip the object floor restore", |m| {
                m.restore_object_floor = false;
            }),
            ("skip the generic note", |m| m.generic_note = false),
            ("skip the dangling required prune", |m| {
                m.prune_dangling_required = false;
            }),
        ];
        for (change, flip) in flags {
            let mut m = self.clone();
            flip(&mut m);
            out.push(PassMutant::new(change, m));
        }
        out
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if self.replace_non_object_root {
            root::replace_non_object_root(&mut tool.input_schema, cx);
        }
        let Some(rootmap) = tool.input_schema.as_object_mut() else {
            return Ok(Step::Continue);
        };
        let Some(lead) = self
            .keywords
            .iter()
            .copied()
            .find(|k| rootmap.contains_key(*k))
        else {
            return Ok(Step::Continue);
        };
        let groups = rootmap
            .get(lead)
            .and_then(|v| v.as_array())
            .map(|b| notes::required_groups(b))
            .unwrap_or_default();
        let specific = notes::composition_note(lead, &groups);
        root::strip_and_merge(rootmap, &self.keywords, self.merge, cx);
        if self.restore_object_floor && !rootmap.contains_key("type") {
            rootmap.insert("type".into(), json!("object"));
            cx.record(
                "",
                "type",
                Action::Added,
                "object floor restored after the root composition strip",
            );
            if !rootmap.contains_key("properties") {
                rootmap.insert("properties".into(), json!({}));
                cx.record(
                    "",
                    "properties",
                    Action::Added,
                    "object floor restored after the root composition strip",
                );
            }
        }
        if self.prune_dangling_required {
            root::prune_dangling_required(rootmap, cx);
        }
        let note = match specific {
            Some(n) => Some(n),
            None if self.generic_note && !root::has_properties(rootmap) => {
                notes::generic_composition_note(lead).map(str::to_owned)
            }
            None => None,
        };
        if let Some(n) = note {
            cx.note(
                tool,
                &n,
                &format!("root {lead} constraint surfaced as a note"),
            );
        }
        Ok(Step::Continue)
    }
}

/// `object-root-floor`: v1's first-party Anthropic pass for the recorded
/// `tools.N.custom.input_schema.type: Field required` (rule
/// `anthropic-input-schema-type-required`): a root object schema that
/// declares no `type` gets `type: "object"` (and `properties: {}` when it
/// has none, so the result is stable under `normalize`). A declared root
/// type, object or not, is left alone. A tool read without any schema (the
/// catalog gives it the typeless `{}`: recordings
/// `anthropic-input-schema-missing-1`) gets `{"type":"object","properties":{}}`
/// here. The gate is the pass's one mutation point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ObjectRootFloor {
    /// Type only roots without a `type` (mutant: every root).
    pub(crate) only_typeless: bool,
}

impl Default for ObjectRootFloor {
    fn default() -> Self {
        Self {
            only_typeless: true,
        }
    }
}

impl Pass for ObjectRootFloor {
    fn name(&self) -> &'static str {
        "object-root-floor"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("anthropic-input-schema-type-required")
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "type every root object, declared type or not",
            Self {
                only_typeless: !self.only_typeless,
            },
        )]
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let Some(root) = tool.input_schema.as_object_mut() else {
            return Ok(Step::Continue);
        };
        if !root.contains_key("type") || !self.only_typeless {
            root.insert("type".into(), json!("object"));
            cx.record(
                "",
                "type",
                Action::Added,
                "the endpoint requires a root type",
            );
            if !root.contains_key("properties") {
                root.insert("properties".into(), json!({}));
                cx.record(
                    "",
                    "properties",
                    Action::Added,
                    "object floor for a typeless root",
                );
                // `required` entries can only name properties it declares.
                root::prune_dangling_required(root, cx);
            }
        }
        Ok(Step::Continue)
    }
}

/// The JSON Schema type names: a bare one where a schema belongs is read as
/// `{"type": name}`.
const TYPE_NAMES: &[&str] = &[
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
fn bare_type_names(node: &Map<String, Value>) -> Vec<(String, Option<String>, String)> {
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
fn older_draft_forms(path: &str, node: &mut Map<String, Value>, cx: &mut Cx<'_>) {
    if node.get("items").is_some_and(Value::is_array) && !node.contains_key("prefixItems") {
        let tuple = node.get("items").cloned().unwrap_or_default();
        let rest = node.shift_remove("additionalItems");
        schema::insert_after(node, "items", "prefixItems", tuple);
        node.shift_remove("items");
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
        let Some(Value::Bool(b)) = node.get(flag) else {
            continue;
        };
        let exclusive = *b && node.get(bound).is_some_and(Value::is_number);
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
    fn repair_node(self, path: &str, node: &mut Map<String, Value>, cx: &mut Cx<'_>) {
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
                        .and_then(|m| m.get_mut(n)),
                    None => node.get_mut(&kw),
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
        if let Some(Value::Object(props)) = node.get_mut("properties") {
            for (name, prop) in props.iter_mut() {
                let Some(p) = prop.as_object_mut() else {
                    continue;
                };
                let Some(Value::Bool(b)) = p.get("required") else {
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
        if let Some(Value::Bool(b)) = node.get("required") {
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

/// Run `f` on every schema object of a strict tool (others are left alone).
fn each_strict_node(
    tool: &mut Tool,
    f: &mut dyn FnMut(&str, &mut Map<String, Value>),
) -> Result<bool, TooDeep> {
    if tool.strict != Some(true) {
        return Ok(false);
    }
    schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
        f(path, node);
        true
    })?;
    Ok(true)
}

/// Surface `lost` as one unenforced-constraint note (when `note` is on).
fn note_lost(tool: &mut Tool, cx: &mut Cx<'_>, note: bool, lost: &[Unenforced], why: &str) {
    if note && let Some(n) = notes::unenforced_note(lost) {
        cx.note(tool, &n, why);
    }
}

/// `strict-min-items`: strict mode supports `minItems` 0 or 1 only
/// (recording `anthropic-strict-minitems-0-or-1-93`: `For 'array' type,
/// 'minItems' values other than 0 or 1 are not supported`). A larger
/// `minItems` becomes 1 (the array stays non-empty) and the original
/// minimum reaches the model as a note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StrictMinItems {
    /// The value a larger `minItems` is lowered to.
    pub(crate) floor: u64,
    pub(crate) note: bool,
}

impl Default for StrictMinItems {
    fn default() -> Self {
        Self {
            floor: 1,
            note: true,
        }
    }
}

impl Pass for StrictMinItems {
    fn name(&self) -> &'static str {
        "strict-min-items"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("anthropic-strict-minitems-0-or-1")
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::new(
                "lower minItems to 0 instead of 1",
                Self { floor: 0, ..*self },
            ),
            PassMutant::new(
                "skip the note",
                Self {
                    note: false,
                    ..*self
                },
            ),
        ]
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let mut lost = Vec::new();
        each_strict_node(tool, &mut |path, node| {
            let Some(n) = node.get("minItems").and_then(Value::as_f64) else {
                return;
            };
            if n > 1.0 {
                let old = node.insert("minItems".into(), json!(self.floor));
                cx.record(
                    path,
                    "minItems",
                    Action::Rewritten,
                    format!(
                        "strict mode supports minItems 0 or 1 only: lowered to {}",
                        self.floor
                    ),
                );
                lost.push(Unenforced {
                    pointer: path.to_owned(),
                    keyword: "minItems".into(),
                    value: old.unwrap_or_default(),
                });
            }
        })?;
        note_lost(
            tool,
            cx,
            self.note,
            &lost,
            "strict minItems surfaced as a note",
        );
        Ok(Step::Continue)
    }
}

/// `strict-unsupported-formats`: a string `format` outside the strict list
/// (rule `anthropic-strict-format-unsupported`, documented) is removed and
/// named in a note; `format` is an annotation, the model still reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StrictUnsupportedFormats {
    pub(crate) supported: Vec<&'static str>,
    pub(crate) note: bool,
}

impl Default for StrictUnsupportedFormats {
    fn default() -> Self {
        Self {
            supported: strict_subset::FORMATS.to_vec(),
            note: true,
        }
    }
}

impl Pass for StrictUnsupportedFormats {
    fn name(&self) -> &'static str {
        "strict-unsupported-formats"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("anthropic-strict-format-unsupported")
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out = vec![PassMutant::new(
            "skip the note",
            Self {
                note: false,
                ..self.clone()
            },
        )];
        if let Some(first) = self.supported.first() {
            let mut m = self.clone();
            m.supported.retain(|f| f != first);
            out.push(PassMutant::new(
                format!("drop {first:?} from supported formats"),
                m,
            ));
        }
        out
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let mut lost = Vec::new();
        each_strict_node(tool, &mut |path, node| {
            let Some(f) = node.get("format").and_then(Value::as_str) else {
                return;
            };
            if self.supported.contains(&f) {
                return;
            }
            let why = format!("strict mode does not support format {f:?}");
            if let Some(v) = node.shift_remove("format") {
                cx.record(path, "format", Action::Removed, why);
                lost.push(Unenforced {
                    pointer: path.to_owned(),
                    keyword: "format".into(),
                    value: v,
                });
            }
        })?;
        note_lost(
            tool,
            cx,
            self.note,
            &lost,
            "strict formats surfaced as a note",
        );
        Ok(Step::Continue)
    }
}

/// `strict-bounds`: strict mode supports no numeric bounds on
/// `integer`/`number` and no length bounds on `string` (rule
/// `anthropic-strict-numeric-bounds`, recorded through Converse:
/// `For 'integer' type, properties maximum, minimum are not supported`;
/// the structured-outputs limitations say the same for the Messages API).
/// Each is removed and the bounds reach the model as a note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StrictBounds {
    pub(crate) numeric: Vec<&'static str>,
    pub(crate) string: Vec<&'static str>,
    pub(crate) note: bool,
}

impl Default for StrictBounds {
    fn default() -> Self {
        Self {
            numeric: vec![
                "minimum",
                "maximum",
                "exclusiveMinimum",
                "exclusiveMaximum",
                "multipleOf",
            ],
            string: vec!["minLength", "maxLength"],
            note: true,
        }
    }
}

impl Pass for StrictBounds {
    fn name(&self) -> &'static str {
        "strict-bounds"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("anthropic-strict-numeric-bounds")
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out = vec![PassMutant::new(
            "skip the note",
            Self {
                note: false,
                ..self.clone()
            },
        )];
        for k in self.numeric.iter().chain(&self.string) {
            let mut m = self.clone();
            m.numeric.retain(|x| x != k);
            m.string.retain(|x| x != k);
            out.push(PassMutant::new(
                format!("drop {k:?} from stripped bounds"),
                m,
            ));
        }
        out
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let mut lost = Vec::new();
        each_strict_node(tool, &mut |path, node| {
            let banned = match node.get("type").and_then(Value::as_str) {
                Some("integer" | "number") => &self.numeric,
                Some("string") => &self.string,
                _ => return,
            };
            for k in banned {
                if let Some(v) = node.shift_remove(*k) {
                    cx.record(
                        path,
                        k,
                        Action::Removed,
                        format!("strict mode does not support {k}"),
                    );
                    lost.push(Unenforced {
                        pointer: path.to_owned(),
                        keyword: (*k).to_owned(),
                        value: v,
                    });
                }
            }
        })?;
        note_lost(
            tool,
            cx,
            self.note,
            &lost,
            "strict bounds surfaced as a note",
        );
        Ok(Step::Continue)
    }
}

/// `strict-close-objects`: strict mode wants `additionalProperties: false`
/// on every object (rule `anthropic-strict-additionalproperties-false`,
/// recorded through Converse). An object that says nothing gets it; an
/// explicit `true` or schema (a map the author wants) is left to
/// `strict-fallback`, which drops `strict` for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StrictCloseObjects {
    /// Close only objects that say nothing (mutant: overwrite open ones too).
    pub(crate) only_unsaid: bool,
}

impl Default for StrictCloseObjects {
    fn default() -> Self {
        Self { only_unsaid: true }
    }
}

impl Pass for StrictCloseObjects {
    fn name(&self) -> &'static str {
        "strict-close-objects"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("anthropic-strict-additionalproperties-false")
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![PassMutant::new(
            "close explicitly open objects too",
            Self {
                only_unsaid: !self.only_unsaid,
            },
        )]
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if tool.strict != Some(true) {
            return Ok(Step::Continue);
        }
        // Never inside `if`/`then`/`else`/`not`: closing there changes the
        // condition, not the shape (`strict-fallback` drops `strict` for them).
        schema::rewrite_pre_order_outside_conditionals(
            &mut tool.input_schema,
            &mut |path, node| {
                if schema::is_object_schema(node)
                    && (!node.contains_key("additionalProperties") || !self.only_unsaid)
                {
                    cx.set_keyword(
                        path,
                        node,
                        ("properties", "additionalProperties"),
                        json!(false),
                        "strict mode: every object closed",
                    );
                }
                true
            },
        )?;
        Ok(Step::Continue)
    }
}

/// `strict-fallback`: a strict tool that breaks a strict-mode rule the
/// rewrites after it cannot mend has no faithful strict form: too many
/// optional or union-typed properties for the grammar compiler (recording
/// `anthropic-strict-schema-too-complex-5230`), a recursive or external
/// `$ref`, a lookaround or backreference `pattern`, an explicitly open
/// object (`additionalProperties` `true` or a schema), an `if`/`then`/
/// `else`/`not` subschema (outside the documented strict subset, and
/// closing objects inside one would change the condition). It ships with
/// `strict` dropped (recorded, with the rule and the provider's message)
/// instead of being rejected; it runs first, so a tool that goes
/// non-strict keeps its bounds and formats. The check is the documented
/// strict subset (`strict_subset`, the data the oracle's strict rules are
/// built from) on this tool alone, minus what the rewrites mend:
/// request-wide budgets (more than 20 strict tools) are beyond one tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StrictFallback {
    /// Drop `strict` when a strict rule fires (mutant: never).
    pub(crate) drop_when_rejected: bool,
    /// Strict rules the later rewrites mend (not a reason to drop).
    pub(crate) mended: Vec<&'static str>,
    /// An explicitly open object is a reason to drop.
    pub(crate) open_objects: bool,
    /// An `if`/`then`/`else`/`not` subschema is a reason to drop.
    pub(crate) conditionals: bool,
}

impl Default for StrictFallback {
    fn default() -> Self {
        Self {
            drop_when_rejected: true,
            mended: vec![
                "anthropic-strict-minitems-0-or-1",
                "anthropic-strict-format-unsupported",
            ],
            open_objects: true,
            conditionals: true,
        }
    }
}

/// The first explicitly open object of a schema: `additionalProperties`
/// present and not `false`.
fn open_object(schema: &Value) -> Result<Option<String>, TooDeep> {
    let mut found = None;
    schema::visit(schema, &mut |path, node| {
        if found.is_none()
            && node
                .get("additionalProperties")
                .is_some_and(|v| v != &Value::Bool(false))
        {
            found = Some(schema::display_path(path));
        }
    })?;
    Ok(found)
}

/// The strict-subset rejections of `tool` alone (rule, message), from
/// the documented subset in `strict_subset` (never from the oracle that
/// judges this pass): the request-wide budgets as this one tool spends
/// them, then each construct outside the subset, in rule-id order.
fn strict_rejections(tool: &Tool) -> Result<Vec<(&'static str, String)>, TooDeep> {
    let b = strict_subset::budget(&tool.input_schema)?;
    let mut out = Vec::new();
    if b.optional_properties > strict_subset::MAX_OPTIONAL_PROPERTIES {
        out.push((
            "anthropic-strict-schema-too-complex",
            strict_subset::TOO_COMPLEX.to_owned(),
        ));
    }
    if b.union_properties > strict_subset::MAX_UNION_PROPERTIES {
        out.push((
            "anthropic-strict-union-types-limit",
            strict_subset::too_many_unions(b.union_properties),
        ));
    }
    out.extend(strict_subset::offences(
        &tool.input_schema,
        "tools.0.custom",
    )?);
    Ok(out)
}

impl Pass for StrictFallback {
    fn name(&self) -> &'static str {
        "strict-fallback"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("anthropic-strict-schema-too-complex")
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out = vec![
            PassMutant::new(
                "never drop strict",
                Self {
                    drop_when_rejected: false,
                    ..self.clone()
                },
            ),
            PassMutant::new(
                "keep strict for explicitly open objects",
                Self {
                    open_objects: false,
                    ..self.clone()
                },
            ),
            PassMutant::new(
                "keep strict for conditional schemas",
                Self {
                    conditionals: false,
                    ..self.clone()
                },
            ),
        ];
        for rule in &self.mended {
            let mut m = self.clone();
            m.mended.retain(|r| r != rule);
            out.push(PassMutant::new(format!("drop strict for {rule}"), m));
        }
        out
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if tool.strict != Some(true) || !self.drop_when_rejected {
            return Ok(Step::Continue);
        }
        let mut why: Vec<String> = strict_rejections(tool)?
            .into_iter()
            .filter(|(rule, _)| !self.mended.contains(rule))
            .map(|(rule, message)| format!("{rule}: {message}"))
            .collect();
        if self.open_objects
            && let Some(at) = open_object(&tool.input_schema)?
        {
            why.push(format!(
                "anthropic-strict-additionalproperties-false: the object at {at} is explicitly open"
            ));
        }
        if self.conditionals
            && let Some((at, kw)) = schema::first_conditional(&tool.input_schema)?
        {
            why.push(format!(
                "{kw} at {at}: the strict subset has no if/then/else/not, and closing objects inside one would change the condition"
            ));
        }
        if !why.is_empty() {
            tool.strict = None;
            cx.record(
                "",
                "strict",
                Action::Removed,
                format!(
                    "no faithful strict form, the tool ships non-strict: {}",
                    why.join("; ")
                ),
            );
        }
        Ok(Step::Continue)
    }
}

#[cfg(test)]
#[path = "anthropic_tests.rs"]
mod strict_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lane::Lane;
    use crate::passes::test_support::{bytes, run, run_on_tool};
    use serde_json::Value;

    fn narrow(v: Value) -> crate::passes::test_support::Ran {
        run(
            &NarrowRootComposition::default(),
            Lane::AnthropicMessages,
            v,
        )
    }

    fn narrow_tool(v: Value, desc: &str) -> crate::passes::test_support::Ran {
        run_on_tool(
            &NarrowRootComposition::default(),
            Lane::AnthropicMessages,
            Tool::new("t", v).with_description(desc),
        )
    }

    #[test]
    fn anthropic_v1_strips_a_root_any_of_merges_branches_and_notes_at_least_one() {
        let r = narrow_tool(
            json!({"type":"object","properties":{"range":{"type":"string"}},"anyOf":[
                {"properties":{"ticker":{"type":"string"}},"required":["ticker"]},
                {"properties":{"isin":{"type":"string"}},"required":["isin"]}]}),
            "Quote.",
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"range":{"type":"string"},"ticker":{"type":"string"},"isin":{"type":"string"}}}"#
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some(
                "Quote.\n\nAt least one of these parameter groups must be provided: ticker | isin."
            )
        );
    }

    /// An allOf branch's `required` binds the whole input: kept at the root
    /// (found by a mutation-check witness: the entry was dropped with only
    /// "root allOf stripped" recorded). A name no property declares, and one
    /// already required, are not added.
    #[test]
    fn anthropic_v1_keeps_the_required_entries_of_root_all_of_branches() {
        let r = narrow(
            json!({"type":"object","properties":{"q":{"type":"string"}},"required":["q"],
            "allOf":[{"properties":{"ticket id":{"type":"string"}},"required":["ticket id","q"]},
                     {"required":["ghost"]}]}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"q":{"type":"string"},"ticket id":{"type":"string"}},"required":["q","ticket id"]}"#
        );
        assert_eq!(
            r.marks(),
            [
                (String::new(), "allOf".into(), Action::Removed),
                (
                    "/allOf/0/properties/ticket id".into(),
                    "properties".into(),
                    Action::Rewritten
                ),
                (String::new(), "required".into(), Action::Rewritten),
                (String::new(), "description".into(), Action::Noted),
            ]
        );
        let r = narrow(json!({"allOf":[{"type":"object","properties":{"a":{}},"required":["a"]}]}));
        assert_eq!(
            bytes(r.schema()),
            r#"{"properties":{"a":{}},"required":["a"],"type":"object"}"#
        );
    }

    #[test]
    fn anthropic_v1_note_replaces_an_empty_description() {
        let r = narrow_tool(
            json!({"type":"object","oneOf":[{"properties":{"a":{}},"required":["a"]},{"properties":{"b":{}},"required":["b"]}]}),
            "",
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some("Exactly one of these parameter groups must be provided: a | b.")
        );
    }

    #[test]
    fn anthropic_v1_strips_a_root_all_of_with_an_every_group_note() {
        let r = narrow_tool(
            json!({"type":"object","allOf":[{"properties":{"a":{}},"required":["a"]},{"properties":{"b":{}},"required":["b"]}]}),
            "",
        );
        // the groups are kept as required too
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"a":{},"b":{}},"required":["a","b"]}"#
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some("Every one of these parameter groups must be provided: a | b.")
        );
    }

    #[test]
    fn anthropic_v1_keeps_root_enum_not_and_dependent_keywords_verbatim() {
        for v in [
            json!({"type":"string","enum":["a","b"]}),
            json!({"type":"object","properties":{"a":{}},"not":{"required":["a"]}}),
            json!({"type":"object","properties":{"a":{},"b":{}},"dependentRequired":{"a":["b"]}}),
            json!({"type":"object","properties":{"a":{}},"dependentSchemas":{"a":{"properties":{"b":{}}}}}),
            json!({"type":"string"}),
        ] {
            let r = narrow(v.clone());
            assert_eq!(bytes(r.schema()), bytes(&v));
            assert!(r.records.is_empty(), "{v}");
        }
    }

    #[test]
    fn anthropic_v1_keeps_nested_compositions() {
        let v = json!({"type":"object","properties":{"x":{"oneOf":[{"type":"string"},{"type":"integer"}]}}});
        assert_eq!(narrow(v.clone()).schema(), &v);
    }

    #[test]
    fn anthropic_v1_restores_the_object_floor_for_an_all_of_of_refs() {
        let r = narrow_tool(
            json!({"$defs":{"a":{"type":"object","properties":{"x":{}}}},"allOf":[{"$ref":"#/$defs/a"}]}),
            "",
        );
        // single-element allOf would collapse in normalize; run the pass alone
        assert_eq!(
            bytes(r.schema()),
            r#"{"$defs":{"a":{"type":"object","properties":{"x":{}}}},"type":"object","properties":{}}"#
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some(
                "The input must match several combined shapes that this schema cannot express; see the tool's documentation."
            )
        );
    }

    #[test]
    fn anthropic_v1_restores_the_object_floor_for_boolean_branches() {
        let r = narrow_tool(json!({"anyOf":[true,{"required":["a"]}]}), "D.");
        assert_eq!(bytes(r.schema()), r#"{"type":"object","properties":{}}"#);
        assert_eq!(
            r.tool.description.as_deref(),
            Some(
                "D.\n\nThe input must match at least one of several alternative shapes that this schema cannot express; see the tool's documentation."
            )
        );
    }

    #[test]
    fn anthropic_v1_gives_no_generic_note_when_the_root_keeps_properties() {
        // apply_patch-like: required-only branches beside root properties,
        // after normalize pruned the branch groups: no note, as the old line.
        let r = narrow_tool(
            json!({"type":"object","properties":{"input":{},"patch":{}},"oneOf":[{},{}]}),
            "Patch.",
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"input":{},"patch":{}}}"#
        );
        assert_eq!(r.tool.description.as_deref(), Some("Patch."));
    }

    #[test]
    fn anthropic_v1_root_property_wins_a_merge() {
        let r = narrow(
            json!({"type":"object","properties":{"a":{"type":"string"}},"oneOf":[
            {"properties":{"a":{"type":"integer"}}},{"properties":{"b":{}}}]}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"a":{"type":"string"},"b":{}}}"#
        );
        assert!(r.marks().contains(&(
            "/oneOf/0/properties/a".into(),
            "properties".into(),
            Action::Removed
        )));
    }

    #[test]
    fn anthropic_v1_first_branch_wins_a_merge() {
        let r = narrow(json!({"type":"object","anyOf":[
            {"properties":{"b":{"type":"integer"}}},{"properties":{"b":{"type":"string"}}}]}));
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"b":{"type":"integer"}}}"#
        );
    }

    #[test]
    fn anthropic_v1_note_precedence_is_one_of_over_any_of() {
        let r = narrow_tool(
            json!({"type":"object",
                "anyOf":[{"properties":{"c":{}},"required":["c"]},{"properties":{"d":{}},"required":["d"]}],
                "oneOf":[{"properties":{"a":{}},"required":["a"]},{"properties":{"b":{}},"required":["b"]}]}),
            "",
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some("Exactly one of these parameter groups must be provided: a | b.")
        );
        // merge order follows the keyword order too: oneOf branches first
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"a":{},"b":{},"c":{},"d":{}}}"#
        );
    }

    #[test]
    fn anthropic_v1_note_precedence_is_any_of_over_all_of() {
        let r = narrow_tool(
            json!({"allOf":[{"required":["x"]},{"required":["y"]}],
                   "anyOf":[{"properties":{"c":{}},"required":["c"]},{"properties":{"d":{}},"required":["d"]}]}),
            "",
        );
        assert_eq!(
            r.tool.description.as_deref(),
            Some("At least one of these parameter groups must be provided: c | d.")
        );
    }

    #[test]
    fn anthropic_v1_keeps_a_declared_root_type() {
        let r = narrow(json!({"type":"string","oneOf":[{"minLength":1},{"maxLength":0}]}));
        assert_eq!(bytes(r.schema()), r#"{"type":"string"}"#);
    }

    #[test]
    fn anthropic_v1_replaces_a_non_object_root_with_an_empty_object() {
        let r = narrow(json!(["not", "a", "schema"]));
        assert_eq!(bytes(r.schema()), "{}");
        assert_eq!(bytes(narrow(json!(42)).schema()), "{}");
    }

    #[test]
    fn anthropic_v1_prunes_required_left_dangling_after_the_merge() {
        let r = narrow(
            json!({"type":"object","properties":{"a":{}},"required":["a","b"],"oneOf":[{"properties":{"c":{}}}]}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"type":"object","properties":{"a":{},"c":{}},"required":["a"]}"#
        );
    }

    #[test]
    fn anthropic_v1_narrowing_leaves_a_typeless_root_without_composition_to_the_floor_pass() {
        let v = json!({"properties":{"a":{}}});
        let r = narrow(v.clone());
        assert_eq!(r.schema(), &v);
        assert!(r.records.is_empty());
    }

    #[test]
    fn anthropic_v1_object_root_floor_types_a_typeless_root() {
        let r = run(
            &ObjectRootFloor::default(),
            Lane::AnthropicMessages,
            json!({"properties":{"a":{}},"required":["a"]}),
        );
        assert_eq!(
            bytes(r.schema()),
            r#"{"properties":{"a":{}},"required":["a"],"type":"object"}"#
        );
        assert_eq!(r.marks(), [(String::new(), "type".into(), Action::Added)]);
        let empty = run(
            &ObjectRootFloor::default(),
            Lane::AnthropicMessages,
            json!({}),
        );
        assert_eq!(
            bytes(empty.schema()),
            r#"{"type":"object","properties":{}}"#
        );
    }

    #[test]
    fn anthropic_v1_object_root_floor_keeps_a_declared_root_type() {
        for v in [json!({"type":"string"}), json!({"type":"object"})] {
            let r = run(
                &ObjectRootFloor::default(),
                Lane::AnthropicMessages,
                v.clone(),
            );
            assert_eq!(r.schema(), &v);
            assert!(r.records.is_empty());
        }
    }

    #[test]
    fn anthropic_v1_restores_type_for_a_typeless_root_with_merged_properties() {
        let r = narrow(json!({"anyOf":[{"properties":{"a":{}}},{"properties":{"b":{}}}]}));
        assert_eq!(
            bytes(r.schema()),
            r#"{"properties":{"a":{},"b":{}},"type":"object"}"#
        );
    }
}
