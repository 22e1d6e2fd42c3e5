//! The original side of a judgement, computed once per tool, and the memo
//! the mutants path judges through.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use crate::catalog::KnownInstance;
use crate::degradation::Degradation;
use crate::lane::Lane;
use crate::metaschema::{Patterns, Validator};
use crate::tool::Tool;

use super::class::{Losses, NarrowingKind, SemanticClass, Semantics, constraints, descriptions};
use super::instances::{self, Instance};
use super::legacy::{draft3_required, openapi_nullable};
use super::view::{Pair, Views, fill, has_undeclared, prune, unfill};

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
    /// The regexes of the patterns compiled for this tool, reused by the
    /// validators of its shaped outputs.
    patterns: Patterns,
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
        let patterns = Patterns::default();
        let mut nodes = 0usize;
        let _ = crate::schema::visit(&schema, &mut |_, _| nodes += 1);
        let judged = if nodes > MAX_NODES {
            Err(format!(
                "original schema: {nodes} subschemas, over the {MAX_NODES} this check judges"
            ))
        } else {
            Validator::compile(&schema, &patterns).map_err(|e| format!("original schema: {e}"))
        };
        let judged = judged.map(|v| {
            let views = Views::default();
            let mut judged: Vec<(Instance, Value, bool)> = instances::of(&schema)
                .into_iter()
                // Tool arguments are always a JSON object.
                .filter(|i| i.value.is_object())
                .map(|mut i| {
                    let canonical = unfill(&views, &schema, &schema, &i.value, 0);
                    let ok = v.accepts(&canonical);
                    i.undeclared |= has_undeclared(&views, &schema, &schema, &canonical, 0);
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
                let canonical = unfill(&views, &schema, &schema, &k.data, 0);
                let ok = v.accepts(&canonical);
                let i = Instance {
                    value: k.data.clone(),
                    undeclared: has_undeclared(&views, &schema, &schema, &canonical, 0),
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
            patterns,
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
        let renames: HashMap<String, &str> = renames(records).collect();
        // The original itself (what a verbatim pipeline ships), read as it
        // was read above: nothing is filled, the validator is the
        // original's, so every instance judges as it did.
        if lane != Lane::GeminiOpenapi && renames.is_empty() && shaped.input_schema == self.schema {
            return Semantics::plain(SemanticClass::Preserved, judged.len());
        }
        // Read as it is but on the wire that reads `nullable` as OpenAPI does.
        let openapi_schema;
        let schema = if lane == Lane::GeminiOpenapi {
            let mut schema = shaped.input_schema.clone();
            // A declaration without `parameters` (`null`) takes no
            // arguments: the model calls it with `{}` only.
            if schema.is_null() {
                schema = serde_json::json!({
                    "type": "object", "properties": {}, "additionalProperties": false
                });
            }
            openapi_nullable(&mut schema, 0);
            openapi_schema = schema;
            &openapi_schema
        } else {
            &shaped.input_schema
        };
        let validator = match Validator::compile(schema, &self.patterns) {
            Ok(v) => v,
            Err(e) => return Semantics::unjudged(format!("shaped schema: {e}")),
        };
        let mut out = Semantics::plain(SemanticClass::Preserved, judged.len());
        // `nullable` read as OpenAPI reads it, compiled when first needed.
        let mut as_openapi: Option<Option<Validator>> = None;
        // On a wire that reads `nullable` as OpenAPI does, the author's own
        // `nullable: true` means "or null" there too: a null the original
        // allows that way is no widening (compiled when first needed).
        let mut original_openapi: Option<Option<Validator>> = None;
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
        let views = Views::default();
        let at = Pair {
            original: (original, original),
            shaped: (schema, schema),
            views: &views,
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
                                    .then(|| Validator::compile(&s, &self.patterns).ok())
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
                                (s != *schema)
                                    .then(|| Validator::compile(&s, &self.patterns).ok())
                                    .flatten()
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

/// The root property keys the records say were renamed (the author's key,
/// unescaped, and the wire's): a client maps a call's arguments back.
fn renames(records: &[Degradation]) -> impl Iterator<Item = (String, &str)> {
    records.iter().filter_map(|d| {
        let to = d.renamed_to.as_deref()?;
        let key = d.path.strip_prefix("/properties/")?;
        (!key.contains('/')).then(|| (crate::schema::unescape_token(key), to))
    })
}

/// What a judgement depends on besides the original: whether the wire
/// reads `nullable` as OpenAPI does, the renamed root keys, and of the
/// shaped tool its description and its schema ([`Original::judge`] reads
/// nothing else of it: outputs that differ only in the tool's name or
/// `strict` flag judge alike).
type SeenKey = (bool, Vec<(String, String)>, Option<String>, SeenSchema);

/// A judged output's schema as part of its key: the value itself, or for
/// an output over [`DIGEST_OVER`] bytes the sha256 of its compact JSON.
/// Each tool's judgements are kept until its last case finishes: a
/// 900 KB schema's outputs on 15 lanes kept as values took a worker up by
/// tens of megabytes, and two such tools side by side made the 15-lane
/// run's peak (2026-12-05). A digest is exact too (it differs for another
/// key order, where values compare equal: such an output is judged again,
/// to the same verdict).
#[derive(PartialEq)]
enum SeenSchema {
    Value(Value),
    Digest(crate::hash::Sha256Sum),
}

/// Outputs whose compact wire text is longer are keyed by digest.
const DIGEST_OVER: usize = 16 * 1024;

/// One tool's semantic judgements in a run, shared by its cases on every
/// lane and by both pipelines: the original side is computed once (when
/// first needed), and an output equal to one judged before (most lanes
/// ship the same schema; old and new often agree) reuses its verdict.
/// Exact: a verdict depends only on what [`SeenKey`] holds.
pub(crate) struct Shared<'a> {
    tool: &'a Tool,
    known: &'a [KnownInstance],
    original: OnceCell<Original>,
    seen: RefCell<Vec<(SeenKey, Semantics)>>,
}

impl<'a> Shared<'a> {
    pub(crate) fn new(tool: &'a Tool, known: &'a [KnownInstance]) -> Self {
        Self {
            tool,
            known,
            original: OnceCell::new(),
            seen: RefCell::new(Vec::new()),
        }
    }

    /// [`Original::judge`] of `shaped` on `lane`, computed once per key.
    #[cfg(test)]
    pub(crate) fn judge(&self, lane: Lane, shaped: &Tool, records: &[Degradation]) -> Semantics {
        self.judge_sized(lane, shaped, records, 0)
    }

    /// How many verdicts are kept by schema value and by digest.
    #[cfg(test)]
    pub(crate) fn kept(&self) -> (usize, usize) {
        let seen = self.seen.borrow();
        let digests = seen
            .iter()
            .filter(|((.., s), _)| matches!(s, SeenSchema::Digest(_)))
            .count();
        (seen.len() - digests, digests)
    }

    /// [`judge`](Self::judge), told the length of the output's compact
    /// wire text (above [`DIGEST_OVER`], it is remembered by digest).
    pub(crate) fn judge_sized(
        &self,
        lane: Lane,
        shaped: &Tool,
        records: &[Degradation],
        wire_len: usize,
    ) -> Semantics {
        let mut renamed: Vec<(String, String)> =
            renames(records).map(|(k, to)| (k, to.to_owned())).collect();
        renamed.sort();
        let openapi = lane == Lane::GeminiOpenapi;
        let digest =
            (wire_len > DIGEST_OVER).then(|| crate::hash::sha256_json(&shaped.input_schema));
        let same_schema = |schema: &SeenSchema| match (schema, &digest) {
            (SeenSchema::Digest(seen), Some(d)) => seen == d,
            (SeenSchema::Value(seen), None) => *seen == shaped.input_schema,
            _ => false,
        };
        let hit = self
            .seen
            .borrow()
            .iter()
            .find(|((o, r, d, schema), _)| {
                *o == openapi && *r == renamed && *d == shaped.description && same_schema(schema)
            })
            .map(|(_, s)| s.clone());
        if let Some(s) = hit {
            return s;
        }
        let s = self
            .original
            .get_or_init(|| Original::of(self.tool, self.known))
            .judge(lane, shaped, records);
        let key = (
            openapi,
            renamed,
            shaped.description.clone(),
            digest.map_or_else(
                || SeenSchema::Value(shaped.input_schema.clone()),
                SeenSchema::Digest,
            ),
        );
        self.seen.borrow_mut().push((key, s.clone()));
        s
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
    let pruned = prune(at, canonical, 0, false);
    let pruned = fill(at, &pruned, 0);
    if *pruned != *filled && shaped.accepts(&pruned) {
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
    let closed = prune(at, canonical, 0, true);
    let closed = fill(at, &closed, 0);
    if *closed != *pruned && shaped.accepts(&closed) {
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
