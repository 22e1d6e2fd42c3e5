//! The `gemini-openapi` passes for the proto-parsing phase's keyword
//! rules: type lists, `const`, exclusive bounds, combinators and the fields
//! the `Schema` proto lacks.

use serde_json::{Map, Value, json};

use super::notes::{noted, show};
use super::openapi::{NOTE_WORTHY, merge_into, proto_fields, rename_key};
use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::{Cx, Pass, PassMutant, Step, may_act};
use crate::schema::{self, NodePath, TooDeep};
use crate::tool::Tool;

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
        "properties"
        | "required"
        | "additionalProperties"
        | "minProperties"
        | "maxProperties"
        | "propertyNames"
        | "patternProperties"
        | "propertyOrdering" => &["object"],
        _ => return None,
    })
}

/// `gemini-type-list`: `type` is one enum value in the proto (rule
/// `gemini-type-not-repeating`, recorded `Unknown name "type" at '…':
/// Proto field is not repeating, cannot start list.` for
/// `["string","null"]`). `"null"` in the list becomes `nullable: true`; one
/// other type stays as `type`; several become `anyOf` branches, one per
/// type, each with the keywords that apply to it; a list of only `"null"`
/// (or nothing) leaves the node untyped. Then a `type` string that names
/// no value of the `Type` enum (`""`, `date`, `any`: rule
/// `gemini-type-invalid-value`, documented; zereight/gitlab-mcp#166 quotes
/// `Invalid value at '….type'
/// (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), ""`)
/// is removed and noted: the node is untyped, as its author's word was no
/// type Gemini knows, and `gemini-type-required` types it later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TypeList {
    /// Turn `"null"` into `nullable: true` (a mutation point).
    pub(crate) nullable: bool,
    /// Remove a type name the `Type` enum lacks (a mutation point).
    pub(crate) drop_unknown_names: bool,
}

impl Default for TypeList {
    fn default() -> Self {
        Self {
            nullable: true,
            drop_unknown_names: true,
        }
    }
}

/// A `type` string the `Type` enum lacks.
fn unknown_type_name(node: &Map<String, Value>) -> bool {
    node.field("type")
        .and_then(Value::as_str)
        .is_some_and(|t| !crate::facts::gemini::is_type_name(t))
}

/// Record the removal of type names the `Type` enum lacks (rule
/// `gemini-type-invalid-value`), noting the names unless all were empty.
fn record_unknown_names(path: &str, reason: &str, named: Option<Value>, cx: &mut Cx<'_>) {
    let reason = match named {
        Some(shown) => noted(reason, path, &show("type", &shown)),
        None => reason.to_owned(),
    };
    cx.record_under(
        Some("gemini-type-invalid-value"),
        path,
        "type",
        Action::Removed,
        reason,
    );
}

impl TypeList {
    fn acts_at(_: usize, node: &Map<String, Value>) -> bool {
        node.field("type").is_some_and(Value::is_array) || unknown_type_name(node)
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
        if !may_act(&tool.input_schema, &|depth, node| {
            Self::acts_at(depth, node)
        }) {
            return Ok(Step::Continue);
        }
        schema::rewrite_post_order(&mut tool.input_schema, &mut |path, _, node| {
            if node.field("type").is_some_and(Value::is_array) {
                self.split(path, node, cx);
            }
            if self.drop_unknown_names && unknown_type_name(node) {
                let old = node.shift_remove("type").unwrap_or_default();
                // An empty name said nothing a note could keep.
                let named = old.as_str().is_none_or(|t| !t.is_empty()).then_some(old);
                record_unknown_names(
                    path,
                    "the type names no Gemini Type: the schema is left untyped",
                    named,
                    cx,
                );
            }
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::new(
                "drop null without nullable",
                Self {
                    nullable: false,
                    ..*self
                },
            ),
            PassMutant::new(
                "keep a type name Gemini lacks",
                Self {
                    drop_unknown_names: false,
                    ..*self
                },
            ),
        ]
    }
}

impl TypeList {
    /// A `type` list as one type (`nullable` for `"null"`) or `anyOf`
    /// branches.
    fn split(self, path: &NodePath<'_>, node: &mut Map<String, Value>, cx: &mut Cx<'_>) {
        let Some(Value::Array(list)) = node.field("type") else {
            return;
        };
        let mut types: Vec<String> = Vec::new();
        let mut unknown: Vec<&str> = Vec::new();
        let mut null = false;
        for t in list.iter().filter_map(Value::as_str) {
            if t.eq_ignore_ascii_case("null") {
                null = true;
            } else if self.drop_unknown_names && !crate::facts::gemini::is_type_name(t) {
                // Removed here, before the list splits: a branch per
                // unknown name would be judged, and typed, only on the
                // next shaping (the walk is post-order).
                unknown.push(t);
            } else if !types.contains(&t.to_owned()) {
                types.push(t.to_owned());
            }
        }
        if !unknown.is_empty() {
            let named: Vec<&str> = unknown.into_iter().filter(|t| !t.is_empty()).collect();
            record_unknown_names(
                path,
                "the type list names types Gemini lacks: they were removed",
                (!named.is_empty()).then(|| json!(named)),
                cx,
            );
        }
        let reason = "Gemini's type is a single value: the list became type + nullable";
        if null && self.nullable {
            node.insert("nullable".into(), json!(true));
            cx.record(path, "nullable", Action::Added, reason);
        }
        match types.as_slice() {
            [] => {
                node.shift_remove("type");
                cx.record(
                    path,
                    "type",
                    Action::Removed,
                    "a type list naming no non-null type",
                );
            }
            [one] => {
                node.insert("type".into(), json!(one));
                cx.record(path, "type", Action::Rewritten, reason);
            }
            _ if node.has("anyOf") => {
                let first = types[0].clone();
                node.insert("type".into(), json!(first));
                cx.record(
                    path,
                    "type",
                    Action::Rewritten,
                    noted(
                        "a type list beside anyOf kept its first type",
                        path,
                        &format!("also types {}", types[1..].join(", ")),
                    ),
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
                    cx.record(
                        path,
                        k,
                        Action::Rewritten,
                        "a type list became one anyOf branch per type",
                    );
                }
                node.insert("anyOf".into(), Value::Array(branches));
            }
        }
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

impl ConstToEnum {
    fn acts_at(_: usize, node: &Map<String, Value>) -> bool {
        node.has("const")
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
        if !may_act(&tool.input_schema, &|depth, node| {
            Self::acts_at(depth, node)
        }) {
            return Ok(Step::Continue);
        }
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let Some(c) = node.field("const").cloned() else {
                return true;
            };
            if c.is_string() && self.to_enum {
                if node.has("enum") {
                    cx.record(
                        path,
                        "enum",
                        Action::Rewritten,
                        "the const value narrows the enum",
                    );
                }
                rename_key(node, "const", "enum", Value::Array(vec![c]));
                cx.record(
                    path,
                    "const",
                    Action::Rewritten,
                    "string const landed on enum: [value]",
                );
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

impl ExclusiveBounds {
    fn acts_at(_: usize, node: &Map<String, Value>) -> bool {
        node.has("exclusiveMinimum") || node.has("exclusiveMaximum")
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
        if !may_act(&tool.input_schema, &|depth, node| {
            Self::acts_at(depth, node)
        }) {
            return Ok(Step::Continue);
        }
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            for (ex, inclusive, lower) in [
                ("exclusiveMinimum", "minimum", true),
                ("exclusiveMaximum", "maximum", false),
            ] {
                let Some(v) = node.field(ex).cloned() else {
                    continue;
                };
                if let (Some(x), true) = (v.as_f64(), self.carry) {
                    let current = node.field(inclusive).and_then(Value::as_f64);
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

impl FoldCombinators {
    fn acts_at(_: usize, node: &Map<String, Value>) -> bool {
        node.has("allOf") || node.has("oneOf")
    }
}

impl Pass for FoldCombinators {
    fn name(&self) -> &'static str {
        "gemini-fold-combinators"
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !may_act(&tool.input_schema, &|depth, node| {
            Self::acts_at(depth, node)
        }) {
            return Ok(Step::Continue);
        }
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            if self.all_of
                && node.field("allOf").is_some_and(Value::is_array)
                && let Some(Value::Array(branches)) = node.shift_remove("allOf")
            {
                for b in branches {
                    if let Value::Object(b) = b {
                        merge_into(node, b, true);
                    }
                }
                cx.record(
                    path,
                    "allOf",
                    Action::Rewritten,
                    "allOf branches merged into the node",
                );
            }
            if self.one_of
                && !node.has("anyOf")
                && let Some(slot) = node.field_mut("oneOf")
                && slot.is_array()
            {
                // Moved out, not copied: `rename_key` puts it back under
                // the new name at the same position.
                let v = slot.take();
                rename_key(node, "oneOf", "anyOf", v);
                cx.record(
                    path,
                    "oneOf",
                    Action::Rewritten,
                    "oneOf became anyOf (Gemini's only combinator)",
                );
            }
            true
        })?;
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::new(
                "skip oneOf -> anyOf",
                Self {
                    one_of: false,
                    ..*self
                },
            ),
            PassMutant::new(
                "skip the allOf merge",
                Self {
                    all_of: false,
                    ..*self
                },
            ),
        ]
    }
}

// ---------------------------------------------------------------------------

/// `gemini-strip-*`: keywords the `Schema` proto lacks are parse errors
/// (`Invalid JSON payload received. Unknown name "k" at '…': Cannot find
/// field.`). `gemini-strip-property-names` removes the two whose constraint
/// the note carries for its recorded rule; the last, `…-non-proto-fields`,
/// keeps only [`proto_fields`] (everything else Gemini would reject as
/// unknown), recording a keyword a recording names under that recording's
/// rule ([`RECORDED_UNKNOWN`]). `noted` keywords are listed in the
/// description note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StripFields {
    pub(crate) name: &'static str,
    pub(crate) rule: Option<&'static str>,
    /// The keywords removed, or (when `allow`) the only ones kept.
    pub(crate) keywords: Vec<&'static str>,
    pub(crate) allow: bool,
    /// Removed keywords surfaced in the note.
    pub(crate) noted: Vec<&'static str>,
    /// Removed keywords a recorded rejection names, with its rule.
    pub(crate) recorded: &'static [(&'static str, &'static str)],
}

/// The unknown fields a recorded rejection names, and its rule. Before
/// 2026-12-02 one pass per rule removed them ahead of the allow-list pass,
/// which then had nothing left to do for them: two passes doing one thing,
/// which no evidence could tell apart.
pub(crate) const RECORDED_UNKNOWN: &[(&str, &str)] = &[
    (
        "additionalProperties",
        "gemini-unknown-field-additionalproperties",
    ),
    ("$schema", "gemini-unknown-field-schema-keyword"),
    ("title", "gemini-unknown-field-title-examples-default-defs"),
    (
        "examples",
        "gemini-unknown-field-title-examples-default-defs",
    ),
    (
        "default",
        "gemini-unknown-field-title-examples-default-defs",
    ),
    ("$defs", "gemini-unknown-field-title-examples-default-defs"),
    (
        "definitions",
        "gemini-unknown-field-title-examples-default-defs",
    ),
];

impl StripFields {
    pub(crate) fn property_names() -> Self {
        Self {
            name: "gemini-strip-property-names",
            rule: Some("gemini-unknown-field-propertynames"),
            keywords: vec!["propertyNames", "patternProperties"],
            allow: false,
            noted: vec!["propertyNames", "patternProperties"],
            recorded: &[],
        }
    }

    pub(crate) fn non_proto() -> Self {
        Self {
            name: "gemini-strip-non-proto-fields",
            rule: None,
            keywords: proto_fields(),
            allow: true,
            noted: NOTE_WORTHY.to_vec(),
            recorded: RECORDED_UNKNOWN,
        }
    }

    fn removes(&self, key: &str) -> bool {
        self.keywords.contains(&key) != self.allow
    }
}

impl StripFields {
    fn acts_at(&self, _: usize, node: &Map<String, Value>) -> bool {
        node.keys().any(|k| self.removes(k))
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
        if !may_act(&tool.input_schema, &|depth, node| self.acts_at(depth, node)) {
            return Ok(Step::Continue);
        }
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
                let rule = self.recorded.iter().find(|(kw, _)| *kw == k).map(|r| r.1);
                cx.record_under(rule, path, &k, Action::Removed, reason);
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
