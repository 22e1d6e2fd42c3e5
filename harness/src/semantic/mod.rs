//! The semantic differential: what a shaped schema lets the model send,
//! compared with what the author's original schema allows, on instances.
//!
//! Byte diffs say that a schema changed; this says what changed for the
//! model. Each tool's instances ([`instances::of`], generated from the
//! original schema only) are judged by the original schema and by the
//! shaped one (both compiled by the `jsonschema` crate, `format` asserted):
//!
//! | class | meaning |
//! |---|---|
//! | `preserved` | the same verdict on every instance |
//! | `widened` | the shaped schema accepts an instance the original rejects (a lost constraint) |
//! | `narrowed` | the shaped schema rejects an instance the original accepts (the model can no longer make that call) |
//! | `unjudged` | a schema cannot be compiled (a remote `$ref`, an invalid keyword value, …), or the original has over 2,000 subschemas |
//!
//! A case that both widens and narrows is `narrowed` (the call the model
//! loses is the worse harm); both witnesses are kept.
//!
//! Translations, so that each side means what its wire means:
//! - **Arguments are an object.** Every wire sends a tool's arguments as a
//!   JSON object, so only object instances are judged (an untyped root
//!   seeds objects).
//! - **Omitted vs null.** Strict modes make optional properties required
//!   and nullable: the model sends `null` for "left out". An instance is
//!   judged by the original with its `null`s at optional, non-nullable
//!   properties removed, and by the shaped schema with each property the
//!   shaped schema requires but the instance lacks filled with `null`.
//! - **OpenAPI `nullable`** (`gemini-openapi`): `nullable: true` on the
//!   shaped side means "or null" (`type` gains `null`, an `enum` gains
//!   `null`). Elsewhere draft 2020-12 ignores it, and so does this check.
//! - **No parameters** (`gemini-openapi`): a declaration shipped without
//!   `parameters` (`null`) takes no arguments, so it accepts `{}` only.
//! - **Undeclared properties.** Closing an object (`additionalProperties:
//!   false`, strict mode) rejects properties the author never declared; a
//!   narrowing seen only on such instances is not counted (a widening is).
//!
//! - **Draft-3 required flags.** An original whose property schemas say
//!   `required: true` (draft 3) is read as draft 3 means it: the parent
//!   requires the property (draft 2020-12 has no boolean `required`).
//! - **Renamed keys.** A root property key the wire refused and the
//!   pipeline renamed (a degradation record with `renamed_to`) is mapped:
//!   the client maps the call's argument back, so a rename alone is not a
//!   change of meaning.
//!
//! The judgement reads the original tool, the shaped tool and the lane;
//! of the pipeline's records it reads only the renames. Whether the model was told is read from
//! the descriptions: `silent` is a widening with no description text the
//! original did not have.

pub(crate) mod instances;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::catalog::KnownInstance;
use crate::degradation::Degradation;
use crate::lane::Lane;
use crate::metaschema::Validator;
use crate::tool::Tool;

use instances::Instance;

/// A shaped schema's class against the original.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SemanticClass {
    Preserved,
    Widened,
    Narrowed,
    Unjudged,
}

impl SemanticClass {
    pub const ALL: [Self; 4] = [
        Self::Preserved,
        Self::Widened,
        Self::Narrowed,
        Self::Unjudged,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Self::Preserved => "preserved",
            Self::Widened => "widened",
            Self::Narrowed => "narrowed",
            Self::Unjudged => "unjudged",
        }
    }
}

/// Why a narrowing instance is rejected, as far as a translation explains
/// it: what a `[[narrowing]]` ledger entry declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NarrowingKind {
    /// The shaped schema accepts the instance once the optional properties
    /// it no longer declares are left out: strict mode's removal of
    /// optional parameters.
    DropsOptional,
    /// The shaped schema accepts the instance once every key it does not
    /// declare is left out: a closed object (strict mode) refuses keys the
    /// original admitted through `patternProperties` or an
    /// `additionalProperties` schema.
    ClosesObjects,
    /// The shaped schema accepts the instance once `nullable: true` is read
    /// as OpenAPI reads it ("or null"): draft 2020-12 ignores the keyword
    /// on this lane, so a `null` the original allowed is refused.
    IgnoredNullable,
    /// Neither explains it.
    Other,
}

impl NarrowingKind {
    pub const ALL: [Self; 4] = [
        Self::DropsOptional,
        Self::ClosesObjects,
        Self::IgnoredNullable,
        Self::Other,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Self::DropsOptional => "drops-optional",
            Self::ClosesObjects => "closes-objects",
            Self::IgnoredNullable => "ignored-nullable",
            Self::Other => "other",
        }
    }
}

/// One shaped schema's semantic verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Semantics {
    pub class: SemanticClass,
    /// Instances judged.
    pub instances: usize,
    /// An instance the original rejects and the shaped schema accepts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub widened: Option<Value>,
    /// An instance the original accepts and the shaped schema rejects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub narrowed: Option<Value>,
    /// What explains the narrowing instances (sorted, each once).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub narrowed_kinds: Vec<NarrowingKind>,
    /// Widened, and no description tells the model anything the original
    /// did not ("silent widening").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub silent: bool,
    /// Why the case could not be judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Indices (into the instances) on which the shaped schema disagrees
    /// with the original: what `mutants` compares.
    #[serde(skip)]
    pub disagreements: Vec<usize>,
    /// The constraints the original states and the shaped schema no longer
    /// does ([`Losses`]), judged without instances: what `mutants` compares
    /// (computed only through [`Memo`], which `mutants` uses).
    #[serde(skip)]
    pub losses: Losses,
}

/// Constraint keywords the model reads with a plain value (`maxItems 1000`,
/// `pattern "^a"`, `format "uri"`, `enum [..]`), and the annotations it
/// reads (`default`, `title`, `examples`, OpenAPI's `example`, Gemini's `propertyOrdering`,
/// the order it generates keys in): one the
/// original states that the shaped schema no longer states anywhere is
/// *lost*; one lost that no new description text names is *untold* (the
/// model is not asked to follow it). Judged on the keyword and its value
/// only, so a loss that instances cannot reach (a `maxItems` of 1,000, a
/// `format`) is still seen.
pub(crate) const CONSTRAINTS: &[&str] = &[
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "format",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "enum",
    "const",
    "default",
    "title",
    "examples",
    "example",
    "propertyOrdering",
];

/// What the shaped tool no longer tells the model: constraints (see
/// [`CONSTRAINTS`]) and description texts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Losses {
    /// `keyword value` of each constraint lost, once per occurrence, in
    /// sorted order, then `description "…"` of each description text of the
    /// original (the tool's or a subschema's) that no description of the
    /// shaped tool contains.
    pub lost: Vec<String>,
    /// The keywords of the lost constraints no new description text names
    /// (a lost description counts as untold).
    pub untold: Vec<String>,
}

impl Losses {
    fn of(original: &[String], before: &[String], shaped: &Tool) -> Self {
        let mut left: HashMap<String, usize> = HashMap::new();
        for c in constraints(&shaped.input_schema) {
            *left.entry(c).or_default() += 1;
        }
        let mut lost = Vec::new();
        for c in original {
            match left.get_mut(c) {
                Some(n) if *n > 0 => *n -= 1,
                _ => lost.push(c.clone()),
            }
        }
        let now = descriptions(shaped);
        // Hashed: a tool may carry thousands of descriptions, and most
        // survive unchanged.
        let now_set: HashSet<&str> = now.iter().map(String::as_str).collect();
        let before_set: HashSet<&str> = before.iter().map(String::as_str).collect();
        // A description the original gave and no description of the
        // shaped tool still contains (a note may extend one).
        for d in before {
            if !now_set.contains(d.as_str()) && !now.iter().any(|n| n.contains(d.as_str())) {
                lost.push(format!(
                    "description {}",
                    crate::schema::to_bytes(&Value::from(d.as_str()))
                ));
            }
        }
        let told: Vec<&str> = now
            .iter()
            .map(String::as_str)
            .filter(|d| !before_set.contains(d))
            .collect();
        let mut untold: Vec<String> = lost
            .iter()
            .filter_map(|c| c.split_once(' ').map(|(k, _)| k))
            .filter(|k| *k == "description" || !told.iter().any(|d| d.contains(k)))
            .map(str::to_owned)
            .collect();
        untold.sort_unstable();
        untold.dedup();
        Self { lost, untold }
    }
}

/// Every [`CONSTRAINTS`] keyword the schema states, as `keyword value`
/// (compact JSON), sorted.
fn constraints(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let _ = crate::schema::visit(schema, &mut |_, node| {
        for k in CONSTRAINTS {
            if let Some(v) = node.get(*k) {
                out.push(format!("{k} {}", crate::schema::to_bytes(v)));
            }
        }
    });
    out.sort_unstable();
    out
}

impl Semantics {
    fn unjudged(reason: String) -> Self {
        Self {
            class: SemanticClass::Unjudged,
            instances: 0,
            widened: None,
            narrowed: None,
            narrowed_kinds: Vec::new(),
            silent: false,
            reason: Some(reason),
            disagreements: Vec::new(),
            losses: Losses::default(),
        }
    }
}

/// Subschemas a judged original may have: past it the case is `unjudged`
/// (limit tests such as 5,001 properties say nothing about meaning, and
/// their instances cost more than every other case together).
const MAX_NODES: usize = 2_000;

/// The original side, computed once per tool and shared by its pipelines.
pub(crate) struct Original {
    schema: Value,
    descriptions: Vec<String>,
    /// Its [`constraints`], sorted (computed when first needed).
    constraints: OnceLock<Vec<String>>,
    /// The instances (as generated, `undeclared` also set when a key is
    /// one the original names nowhere), each with the original's verdict
    /// on its canonical form.
    judged: Result<Vec<(Instance, Value, bool)>, String>,
}

/// Corpus instances judged per tool, at most (JSON-Schema-Test-Suite
/// groups have a handful; JSONSchemaBench lines up to a few dozen).
const MAX_KNOWN: usize = 32;

impl Original {
    /// The original side of `tool`: generated instances plus the ones the
    /// corpus gives (`known`, used where the validator agrees with their
    /// expected verdict: a disagreement says the validator, not the
    /// shaping, differs from the spec there).
    pub(crate) fn of(tool: &Tool, known: &[KnownInstance]) -> Self {
        let mut schema = tool.input_schema.clone();
        draft3_required(&mut schema, 0);
        let mut nodes = 0usize;
        let _ = crate::schema::visit(&schema, &mut |_, _| nodes += 1);
        let judged = if nodes > MAX_NODES {
            Err(format!(
                "original schema: {nodes} subschemas, over the {MAX_NODES} this check judges"
            ))
        } else {
            Validator::compile(&schema).map_err(|e| format!("original schema: {e}"))
        };
        let judged = judged.map(|v| {
            let mut judged: Vec<(Instance, Value, bool)> = instances::of(&schema)
                .into_iter()
                // Tool arguments are always a JSON object.
                .filter(|i| i.value.is_object())
                .map(|mut i| {
                    let canonical = unfill(&schema, &schema, &i.value, 0);
                    let ok = v.accepts(&canonical);
                    i.undeclared |= has_undeclared(&schema, &schema, &canonical, 0);
                    (i, canonical, ok)
                })
                .collect();
            for k in known.iter().filter(|k| k.data.is_object()).take(MAX_KNOWN) {
                if v.accepts(&k.data) != k.valid || judged.iter().any(|(i, _, _)| i.value == k.data)
                {
                    continue;
                }
                // As the generated ones: a `null` at an optional,
                // non-nullable property means "left out".
                let canonical = unfill(&schema, &schema, &k.data, 0);
                let ok = v.accepts(&canonical);
                let i = Instance {
                    value: k.data.clone(),
                    undeclared: has_undeclared(&schema, &schema, &canonical, 0),
                };
                judged.push((i, canonical, ok));
            }
            judged
        });
        Self {
            descriptions: descriptions(tool),
            constraints: OnceLock::new(),
            schema,
            judged,
        }
    }

    /// Judge `shaped` (the tool as `lane` receives it); `records` are the
    /// pipeline's degradation records, read only for renamed root property
    /// keys (a client maps a call's arguments back to the author's names).
    /// [`Original::judge`] plus the [`Losses`] (what `mutants` compares;
    /// a run does not report them, so it does not pay for them).
    pub(crate) fn judge_with_losses(
        &self,
        lane: Lane,
        shaped: &Tool,
        records: &[Degradation],
    ) -> Semantics {
        let constraints = self.constraints.get_or_init(|| constraints(&self.schema));
        let mut out = self.judge(lane, shaped, records);
        out.losses = Losses::of(constraints, &self.descriptions, shaped);
        out
    }

    pub(crate) fn judge(&self, lane: Lane, shaped: &Tool, records: &[Degradation]) -> Semantics {
        let judged = match &self.judged {
            Ok(j) => j,
            Err(e) => return Semantics::unjudged(e.clone()),
        };
        let mut schema = shaped.input_schema.clone();
        if lane == Lane::GeminiOpenapi {
            // A declaration without `parameters` (`null`) takes no
            // arguments: the model calls it with `{}` only.
            if schema.is_null() {
                schema = serde_json::json!({
                    "type": "object", "properties": {}, "additionalProperties": false
                });
            }
            openapi_nullable(&mut schema, 0);
        }
        let validator = match Validator::compile(&schema) {
            Ok(v) => v,
            Err(e) => return Semantics::unjudged(format!("shaped schema: {e}")),
        };
        let mut out = Semantics {
            class: SemanticClass::Preserved,
            instances: judged.len(),
            widened: None,
            narrowed: None,
            narrowed_kinds: Vec::new(),
            silent: false,
            reason: None,
            disagreements: Vec::new(),
            losses: Losses::default(),
        };
        // `nullable` read as OpenAPI reads it, compiled when first needed.
        let mut as_openapi: Option<Option<Validator>> = None;
        // On a wire that reads `nullable` as OpenAPI does, the author's own
        // `nullable: true` means "or null" there too: a null the original
        // allows that way is no widening (compiled when first needed).
        let mut original_openapi: Option<Option<Validator>> = None;
        let renames: HashMap<String, &str> = records
            .iter()
            .filter_map(|d| {
                let to = d.renamed_to.as_deref()?;
                let key = d.path.strip_prefix("/properties/")?;
                (!key.contains('/')).then(|| (key.replace("~1", "/").replace("~0", "~"), to))
            })
            .collect();
        // The translations read the original's root under the wire's key
        // names, so a renamed required key is not mistaken for an optional
        // one strict mode made required (and filled with null).
        let renamed_original;
        let original = if renames.is_empty() {
            &self.schema
        } else {
            renamed_original = rename_root(&self.schema, &renames);
            &renamed_original
        };
        let at = Pair {
            original: (original, original),
            shaped: (&schema, &schema),
        };
        for (i, (instance, canonical, original_ok)) in judged.iter().enumerate() {
            let as_wire;
            let canonical = if renames.is_empty() {
                canonical
            } else {
                as_wire = rename_keys(canonical, &renames);
                &as_wire
            };
            let filled = fill(at, canonical, 0);
            let shaped_ok = validator.accepts(&filled);
            match (*original_ok, shaped_ok) {
                (false, true)
                    if lane == Lane::GeminiOpenapi
                        && original_openapi
                            .get_or_insert_with(|| {
                                let mut s = self.schema.clone();
                                openapi_nullable(&mut s, 0);
                                (s != self.schema)
                                    .then(|| Validator::compile(&s).ok())
                                    .flatten()
                            })
                            .as_ref()
                            .is_some_and(|v| v.accepts(canonical)) => {}
                (false, true) => {
                    out.disagreements.push(i);
                    out.widened.get_or_insert_with(|| canonical.clone());
                }
                (true, false) if !instance.undeclared => {
                    out.disagreements.push(i);
                    out.narrowed.get_or_insert_with(|| canonical.clone());
                    let kind = narrowing_kind(at, &validator, &filled, canonical, || {
                        as_openapi
                            .get_or_insert_with(|| {
                                let mut s = schema.clone();
                                openapi_nullable(&mut s, 0);
                                (s != schema).then(|| Validator::compile(&s).ok()).flatten()
                            })
                            .as_ref()
                    });
                    if !out.narrowed_kinds.contains(&kind) {
                        out.narrowed_kinds.push(kind);
                    }
                }
                _ => {}
            }
        }
        out.narrowed_kinds.sort_unstable();
        out.class = if out.narrowed.is_some() {
            SemanticClass::Narrowed
        } else if out.widened.is_some() {
            SemanticClass::Widened
        } else {
            SemanticClass::Preserved
        };
        if out.widened.is_some() {
            let before = &self.descriptions;
            out.silent = descriptions(shaped).iter().all(|d| before.contains(d));
        }
        out
    }
}

/// The instance with its root keys as the wire names them.
fn rename_keys(instance: &Value, renames: &HashMap<String, &str>) -> Value {
    match instance {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| {
                    let k = renames
                        .get(k)
                        .map_or_else(|| k.clone(), |to| (*to).to_owned());
                    (k, v.clone())
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The schema with its root `properties` keys and `required` names as the
/// wire names them.
fn rename_root(schema: &Value, renames: &HashMap<String, &str>) -> Value {
    let mut out = schema.clone();
    let rename = |k: &str| {
        renames
            .get(k)
            .map_or_else(|| k.to_owned(), |to| (*to).to_owned())
    };
    if let Some(Value::Object(props)) = out.get_mut("properties") {
        *props = std::mem::take(props)
            .into_iter()
            .map(|(k, v)| (rename(&k), v))
            .collect();
    }
    if let Some(Value::Array(req)) = out.get_mut("required") {
        for r in req.iter_mut() {
            if let Some(name) = r.as_str() {
                *r = Value::String(rename(name));
            }
        }
    }
    out
}

/// What explains one narrowing instance (`filled` is what the shaped
/// schema rejected; `canonical` the instance as the original sees it).
fn narrowing_kind<'v>(
    at: Pair<'_>,
    shaped: &Validator,
    filled: &Value,
    canonical: &Value,
    as_openapi: impl FnOnce() -> Option<&'v Validator>,
) -> NarrowingKind {
    let pruned = fill(at, &prune(at, canonical, 0, false), 0);
    if pruned != *filled && shaped.accepts(&pruned) {
        return NarrowingKind::DropsOptional;
    }
    // Before closing: a null the shaped schema accepts once `nullable` is
    // read as OpenAPI reads it is explained by that alone, wherever it
    // sits (a value of an `additionalProperties` map too).
    if let Some(v) = as_openapi()
        && (v.accepts(filled) || v.accepts(&pruned))
    {
        return NarrowingKind::IgnoredNullable;
    }
    let closed = fill(at, &prune(at, canonical, 0, true), 0);
    if closed != pruned && shaped.accepts(&closed) {
        return NarrowingKind::ClosesObjects;
    }
    NarrowingKind::Other
}

/// A case's semantic judgements, memoised for callers that judge the same
/// case many times (`mutants`: once per mutant): the original side is
/// computed once, and an output equal to the first one judged (the
/// unmutated pipeline's) reuses its verdict.
#[derive(Default, Clone)]
pub(crate) struct Memo {
    original: Arc<OnceLock<Original>>,
    first: Arc<OnceLock<(Lane, Tool, Semantics)>>,
}

impl Memo {
    pub(crate) fn judge(
        &self,
        tool: &Tool,
        known: &[KnownInstance],
        lane: Lane,
        shaped: &Tool,
        records: &[Degradation],
    ) -> Semantics {
        if let Some((l, t, s)) = self.first.get()
            && *l == lane
            && t == shaped
        {
            return s.clone();
        }
        let s = self
            .original
            .get_or_init(|| Original::of(tool, known))
            .judge_with_losses(lane, shaped, records);
        let _ = self.first.set((lane, shaped.clone(), s.clone()));
        s
    }
}

/// Every description text of a tool: its own and its schema's.
fn descriptions(tool: &Tool) -> Vec<String> {
    let mut out: Vec<String> = tool.description.iter().cloned().collect();
    let _ = crate::schema::visit(&tool.input_schema, &mut |_, node| {
        if let Some(d) = node.get("description").and_then(Value::as_str) {
            out.push(d.to_owned());
        }
    });
    out
}

/// The object-level view of a schema node: its properties (its own, its
/// `$ref` target's, every composition branch's; the first declaration of a
/// name wins) and the names it requires (its own, its `$ref` target's and
/// its `allOf` branches').
fn object_view<'a>(root: &'a Value, node: &'a Value, depth: usize) -> View<'a> {
    let mut props = Vec::new();
    let mut required = Vec::new();
    collect_view(root, node, depth, true, &mut props, &mut required);
    let mut by_name = HashMap::with_capacity(props.len());
    for (k, v) in props {
        by_name.entry(k).or_insert(v);
    }
    View {
        props: by_name,
        required: required.into_iter().collect(),
    }
}

/// Properties by name and required names (hashed: objects of thousands of
/// properties are judged in linear time).
struct View<'a> {
    props: HashMap<&'a str, &'a Value>,
    required: HashSet<&'a str>,
}

fn collect_view<'a>(
    root: &'a Value,
    node: &'a Value,
    depth: usize,
    requiring: bool,
    props: &mut Vec<(&'a str, &'a Value)>,
    required: &mut Vec<&'a str>,
) {
    let Some(m) = node.as_object() else { return };
    if depth > 8 {
        return;
    }
    if let Some(p) = m.get("properties").and_then(Value::as_object) {
        props.extend(p.iter().map(|(k, v)| (k.as_str(), v)));
    }
    if requiring && let Some(r) = m.get("required").and_then(Value::as_array) {
        required.extend(r.iter().filter_map(Value::as_str));
    }
    if let Some(target) = m.get("$ref").and_then(Value::as_str)
        && let Some(t) = resolve(root, target)
    {
        collect_view(root, t, depth + 1, requiring, props, required);
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(bs) = m.get(key).and_then(Value::as_array) {
            // An object matches every allOf branch, and the one branch of
            // a nullable union (`[X, {"type": "null"}]`): their required
            // names hold; another union's do not.
            let non_null = bs.iter().filter(|b| !is_null_type(b)).count();
            let req = requiring && (key == "allOf" || non_null == 1);
            for b in bs {
                collect_view(root, b, depth + 1, req, props, required);
            }
        }
    }
}

/// `{"type": "null"}` (a nullable union's null branch).
fn is_null_type(node: &Value) -> bool {
    node.get("type").and_then(Value::as_str) == Some("null")
}

/// The local target of a `$ref` (`#` or a `#/…` JSON Pointer).
pub(crate) fn resolve<'a>(root: &'a Value, target: &str) -> Option<&'a Value> {
    let pointer = target.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    root.pointer(pointer)
}

/// The item schema of an array node (`items` as one schema, its `$ref`
/// target's, or the first `anyOf`/`oneOf` branch's that has one; else
/// none).
fn items_of<'a>(root: &'a Value, node: &'a Value, depth: usize) -> Option<&'a Value> {
    let m = node.as_object()?;
    if depth > 8 {
        return None;
    }
    if let Some(i) = m.get("items").filter(|i| i.is_object()) {
        return Some(i);
    }
    if let Some(target) = m.get("$ref").and_then(Value::as_str) {
        return items_of(root, resolve(root, target)?, depth + 1);
    }
    ["anyOf", "oneOf"].iter().find_map(|k| {
        m.get(*k)
            .and_then(Value::as_array)?
            .iter()
            .find_map(|b| items_of(root, b, depth + 1))
    })
}

/// Whether a property schema admits `null` by its own keywords.
fn admits_null(root: &Value, node: &Value, depth: usize) -> bool {
    let Some(m) = node.as_object() else {
        return node == &Value::Bool(true);
    };
    if depth > 8 {
        return false;
    }
    let typed_null = match m.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
        _ => false,
    };
    // Every assertion beside must take null too (draft 2020-12 reads them
    // all): a type that excludes null rejects it whatever `enum`, `const`
    // or an OpenAPI `nullable` say, and so does an enum without null
    // beside a nullable type.
    if (m.contains_key("type") && !typed_null)
        || m.get("enum")
            .and_then(Value::as_array)
            .is_some_and(|e| !e.contains(&Value::Null))
        || m.get("const").is_some_and(|c| !c.is_null())
    {
        return false;
    }
    typed_null
        || m.get("nullable") == Some(&Value::Bool(true))
        || m.get("enum")
            .and_then(Value::as_array)
            .is_some_and(|e| e.contains(&Value::Null))
        || m.get("const") == Some(&Value::Null)
        || ["anyOf", "oneOf"].iter().any(|k| {
            m.get(*k)
                .and_then(Value::as_array)
                .is_some_and(|bs| bs.iter().any(|b| admits_null(root, b, depth + 1)))
        })
        || m.get("$ref")
            .and_then(Value::as_str)
            .and_then(|t| resolve(root, t))
            .is_some_and(|t| admits_null(root, t, depth + 1))
}

/// Whether the instance has a key the original declares nowhere: not in
/// the object's `properties` (own, `$ref`'d or in a branch), at an object
/// with no `patternProperties` or `additionalProperties` schema describing
/// other keys. A `required` name with no property schema is such a key:
/// the model is never told what to send for it.
fn has_undeclared(root: &Value, node: &Value, instance: &Value, depth: usize) -> bool {
    if depth > 16 {
        return false;
    }
    match instance {
        Value::Object(obj) => {
            let view = object_view(root, node, 0);
            let described = node.as_object().is_some_and(|m| {
                m.get("patternProperties")
                    .and_then(Value::as_object)
                    .is_some_and(|p| !p.is_empty())
                    || m.get("additionalProperties").is_some_and(Value::is_object)
            });
            obj.iter().any(|(k, v)| match view.props.get(k.as_str()) {
                Some(s) => has_undeclared(root, s, v, depth + 1),
                None => !described,
            })
        }
        Value::Array(a) => items_of(root, node, 0)
            .is_some_and(|s| a.iter().any(|v| has_undeclared(root, s, v, depth + 1))),
        _ => false,
    }
}

/// The instance as the original sees it: a `null` at an optional property
/// whose schema does not admit `null` means "left out".
fn unfill(root: &Value, node: &Value, instance: &Value, depth: usize) -> Value {
    if depth > 16 {
        return instance.clone();
    }
    match instance {
        Value::Object(obj) => {
            let view = object_view(root, node, 0);
            let mut out = Map::new();
            for (k, v) in obj {
                let sub = view.props.get(k.as_str()).copied();
                if v.is_null()
                    && !view.required.contains(k.as_str())
                    && sub.is_some_and(|s| !admits_null(root, s, 0))
                {
                    continue;
                }
                let v = match sub {
                    Some(s) => unfill(root, s, v, depth + 1),
                    None => v.clone(),
                };
                out.insert(k.clone(), v);
            }
            Value::Object(out)
        }
        Value::Array(a) => match items_of(root, node, 0) {
            Some(s) => Value::Array(a.iter().map(|v| unfill(root, s, v, depth + 1)).collect()),
            None => instance.clone(),
        },
        _ => instance.clone(),
    }
}

/// The two schemas a [`fill`] walks side by side: the original's root and
/// node, the shaped schema's root and node.
#[derive(Clone, Copy)]
struct Pair<'a> {
    original: (&'a Value, &'a Value),
    shaped: (&'a Value, &'a Value),
}

const ANY: Value = Value::Bool(true);

/// The instance as the shaped schema sees it: each property the shaped
/// schema requires, the original does not, and the instance leaves out is
/// sent as `null`.
fn fill<'a>(at: Pair<'a>, instance: &Value, depth: usize) -> Value {
    if depth > 16 {
        return instance.clone();
    }
    let (oroot, onode) = at.original;
    let (sroot, snode) = at.shaped;
    let child = |o: Option<&'a Value>, s: &'a Value| Pair {
        original: (oroot, o.unwrap_or(&ANY)),
        shaped: (sroot, s),
    };
    match instance {
        Value::Object(obj) => {
            let shaped = object_view(sroot, snode, 0);
            let original = object_view(oroot, onode, 0);
            let mut out = Map::new();
            for (k, v) in obj {
                let v = match shaped.props.get(k.as_str()) {
                    Some(s) => fill(
                        child(original.props.get(k.as_str()).copied(), s),
                        v,
                        depth + 1,
                    ),
                    None => v.clone(),
                };
                out.insert(k.clone(), v);
            }
            // In the shaped schema's declaration order (determinism).
            let mut missing: Vec<&str> = shaped
                .required
                .iter()
                .copied()
                .filter(|r| {
                    !out.contains_key(*r)
                        && !original.required.contains(r)
                        && shaped.props.contains_key(r)
                })
                .collect();
            missing.sort_unstable();
            for r in missing {
                out.insert(r.to_owned(), Value::Null);
            }
            Value::Object(out)
        }
        Value::Array(a) => match items_of(sroot, snode, 0) {
            Some(s) => {
                let o = items_of(oroot, onode, 0);
                Value::Array(a.iter().map(|v| fill(child(o, s), v, depth + 1)).collect())
            }
            None => instance.clone(),
        },
        _ => instance.clone(),
    }
}

/// The instance without the optional properties (of the original) that
/// the shaped schema no longer declares; with `all`, without every key
/// the shaped schema does not declare.
fn prune(at: Pair<'_>, instance: &Value, depth: usize, all: bool) -> Value {
    if depth > 16 {
        return instance.clone();
    }
    let (oroot, onode) = at.original;
    let (sroot, snode) = at.shaped;
    match instance {
        Value::Object(obj) => {
            let shaped = object_view(sroot, snode, 0);
            let original = object_view(oroot, onode, 0);
            let mut out = Map::new();
            for (k, v) in obj {
                let key = k.as_str();
                match shaped.props.get(key) {
                    Some(s) => {
                        let o = original.props.get(key).copied().unwrap_or(&ANY);
                        let child = Pair {
                            original: (oroot, o),
                            shaped: (sroot, s),
                        };
                        out.insert(k.clone(), prune(child, v, depth + 1, all));
                    }
                    None if all
                        || (original.props.contains_key(key)
                            && !original.required.contains(key)) => {}
                    None => {
                        out.insert(k.clone(), v.clone());
                    }
                }
            }
            Value::Object(out)
        }
        Value::Array(a) => match (items_of(sroot, snode, 0), items_of(oroot, onode, 0)) {
            (Some(s), o) => {
                let child = Pair {
                    original: (oroot, o.unwrap_or(&ANY)),
                    shaped: (sroot, s),
                };
                Value::Array(a.iter().map(|v| prune(child, v, depth + 1, all)).collect())
            }
            (None, _) => instance.clone(),
        },
        _ => instance.clone(),
    }
}

/// Draft 3's property-level `required: true` (or `"true"`) as draft
/// 2020-12 says it: the name in the parent's `required` list (a `false`
/// flag is the default and goes). Draft 2020-12 has no boolean `required`,
/// so without this an author's draft-3 schema cannot be judged at all.
fn draft3_required(node: &mut Value, depth: usize) {
    if depth > crate::schema::MAX_DEPTH {
        return;
    }
    let Value::Object(m) = node else {
        if let Value::Array(items) = node {
            for v in items {
                draft3_required(v, depth + 1);
            }
        }
        return;
    };
    let mut lifted = Vec::new();
    if let Some(Value::Object(props)) = m.get_mut("properties") {
        for (name, prop) in props.iter_mut() {
            let Some(p) = prop.as_object_mut() else {
                continue;
            };
            let flag = match p.get("required") {
                Some(Value::Bool(b)) => *b,
                Some(Value::String(t)) if t == "true" || t == "false" => t == "true",
                _ => continue,
            };
            p.remove("required");
            if flag {
                lifted.push(Value::String(name.clone()));
            }
        }
    }
    if !lifted.is_empty() {
        match m.get_mut("required") {
            Some(Value::Array(names)) => {
                for n in lifted {
                    if !names.contains(&n) {
                        names.push(n);
                    }
                }
            }
            None => {
                m.insert("required".into(), Value::Array(lifted));
            }
            Some(_) => {}
        }
    }
    for (k, v) in m.iter_mut() {
        match k.as_str() {
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
                if let Value::Object(named) = v {
                    for s in named.values_mut() {
                        draft3_required(s, depth + 1);
                    }
                }
            }
            "enum" | "const" | "default" | "examples" | "example" | "required" => {}
            _ => draft3_required(v, depth + 1),
        }
    }
}

/// OpenAPI 3.0 `nullable: true` as draft 2020-12 says it.
fn openapi_nullable(node: &mut Value, depth: usize) {
    if depth > crate::schema::MAX_DEPTH {
        return;
    }
    match node {
        Value::Object(m) => {
            if m.get("nullable") == Some(&Value::Bool(true)) {
                m.remove("nullable");
                match m.get_mut("type") {
                    Some(Value::String(t)) => {
                        let t = t.clone();
                        m.insert("type".into(), Value::Array(vec![t.into(), "null".into()]));
                    }
                    Some(Value::Array(ts)) if !ts.contains(&Value::from("null")) => {
                        ts.push("null".into());
                    }
                    _ => {}
                }
                if let Some(Value::Array(e)) = m.get_mut("enum")
                    && !e.contains(&Value::Null)
                {
                    e.push(Value::Null);
                }
                if let Some(Value::Array(bs)) = m.get_mut("anyOf") {
                    bs.push(serde_json::json!({"type": "null"}));
                }
            }
            for (k, v) in m.iter_mut() {
                match k.as_str() {
                    // Name → schema maps: the names are no keywords (a
                    // property may be called `nullable`).
                    "properties" | "patternProperties" | "$defs" | "definitions"
                    | "dependentSchemas" => {
                        if let Value::Object(named) = v {
                            for s in named.values_mut() {
                                openapi_nullable(s, depth + 1);
                            }
                        }
                    }
                    // Values, not schemas.
                    "enum" | "const" | "default" | "examples" | "example" | "required" => {}
                    _ => openapi_nullable(v, depth + 1),
                }
            }
        }
        Value::Array(a) => {
            for v in a {
                openapi_nullable(v, depth + 1);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests;
