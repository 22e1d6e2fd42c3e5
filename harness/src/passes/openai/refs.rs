//! `strict-inline-ref-siblings`: OpenAI strict mode takes a `$ref` only
//! alone. `{"$ref": "#/$defs/X", "description": "…"}`, what pydantic writes
//! for every described model-typed field and zod v4 for a described
//! default, is rejected (rule `openai-strict-ref-siblings`, recording
//! `openai-strict-ref-siblings-11381`: `context=('properties', 'query'),
//! $ref cannot have keywords {'default', 'description', 'title'}`).
//!
//! Such a node is the conjunction of its target and its own keywords, so
//! the target is inlined into it, as OpenAI's own Python SDK does before it
//! sends a strict schema (`to_strict_json_schema`) and as the fix verified
//! live in langchainjs#11382 does: the target's keywords in its order, the
//! node's own after them. The merge is one schema only where it means what
//! the conjunction meant: a keyword both declare holds the same value on
//! both, or is an annotation (`description`, `title`, `default`, …: the
//! node's, written where the field is used, is kept); and a keyword whose
//! meaning depends on its neighbours (`additionalProperties` beside
//! `properties`, `items` beside `prefixItems`, …) is not added to a target
//! that has one of those neighbours. Where that does not hold, where the
//! reference is recursive (its copy would hold the same node again), where
//! it does not resolve, or where the copies would grow the tool past
//! [`growth_budget`], the tool is sent with `strict: false`, as it came in
//! (strict mode cannot carry it; the non-strict validator takes a `$ref`
//! beside other keywords). A `$defs`/`definitions` beside a root `$ref` is
//! not counted: whether OpenAI rejects it is not known.

use std::ops::ControlFlow;
use std::rc::Rc;

use serde_json::{Map, Value};

use super::fallback::StrictFallback;
use crate::degradation::Action;
use crate::json_len;
use crate::lookup::Lookup;
use crate::passes::growth::{growth_budget, own_size};
use crate::passes::strict::{StrictGate, send_non_strict};
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::pointer::resolve_local;
use crate::schema::{self, ChildKey, NodePath, Rewrite, TooDeep};
use crate::tool::Tool;

/// Keywords that only annotate: on both the node and its target, the
/// node's value is kept (it describes the field where it is used).
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "default",
    "examples",
    "example",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
    "markdownDescription",
];

/// Keywords whose meaning depends on others in the same schema object: one
/// of a group added to a target holding another of it would change what
/// that other one means (`additionalProperties: false` beside a target's
/// `properties` closes over them; alone, in a conjunction, it allows `{}`
/// only).
const NEIGHBOURS: &[&[&str]] = &[
    &[
        "properties",
        "patternProperties",
        "additionalProperties",
        "unevaluatedProperties",
    ],
    &[
        "items",
        "prefixItems",
        "additionalItems",
        "unevaluatedItems",
        "contains",
        "minContains",
        "maxContains",
    ],
    &["if", "then", "else"],
];

/// Keywords that name or hold schemas rather than assert anything: a
/// `$ref` in a draft that ignores its siblings keeps them (other `$ref`s
/// resolve through them), and on both the node and its target the node's
/// are kept (the target's own definitions stay where they are defined,
/// which is where every `$ref` into them points).
const HOLDERS: &[&str] = &["$schema", "$id", "id", "$defs", "definitions"];

/// The drafts in which a `$ref` replaces its siblings (up to draft-07,
/// <https://json-schema.org/draft-07/draft-handrews-json-schema-01#rfc.section.8.3>):
/// the root `$schema` names one of them.
fn legacy_draft(root: &Value) -> Option<&str> {
    let uri = root.field("$schema")?.as_str()?;
    ["draft-03", "draft-04", "draft-06", "draft-07"]
        .into_iter()
        .find(|d| uri.contains(d))
}

/// The definitions a root `$ref` may sit beside without being counted.
const ROOT_DEFS: &[&str] = &["$defs", "definitions"];

/// See the module docs. The fields are the pass's mutation points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StrictInlineRefSiblings {
    pub(crate) gate: StrictGate,
    /// Inline (`false`: leave every `$ref` and its siblings as they are).
    pub(crate) inline: bool,
    /// The root only (see [`Self::ROOT`]).
    pub(crate) root_only: bool,
    /// Also a root `$ref` beside nothing but its definitions (see
    /// [`Self::ANTHROPIC_ROOT`]).
    pub(crate) lone_root: bool,
    /// Send the tool non-strict when the inlined schema passes OpenAI's
    /// documented strict limits (`strict-fallback`'s).
    pub(crate) openai_limits: bool,
    pub(crate) name: &'static str,
    pub(crate) rule: &'static str,
}

impl StrictInlineRefSiblings {
    /// The instance for the root alone, before the root passes: a root
    /// `$ref`'s target brings its root keywords (a root `anyOf`, `type`,
    /// `properties`), which they then shape like any root. The default
    /// instance runs after the strict fallbacks, so a tool they send
    /// non-strict is not grown by copies, and before the strict passes
    /// that close and require the copies like any other node.
    pub(crate) const ROOT: Self = Self {
        root_only: true,
        ..Self::OPENAI
    };

    /// Every node (the default instance).
    const OPENAI: Self = Self {
        gate: StrictGate::DEFAULT,
        inline: true,
        root_only: false,
        lone_root: false,
        openai_limits: true,
        name: "strict-inline-ref-siblings",
        rule: "openai-strict-ref-siblings",
    };

    /// `anthropic-messages`, before the root floor (`strict-inline-root-ref`):
    /// a strict tool's root `$ref`, even beside its definitions alone (a
    /// recursive pydantic model's root), is inlined. Left there, the floor
    /// gives the root `type: object` and `properties: {}` (the endpoint
    /// requires a root type), and strict mode then closes that empty
    /// object: beside the `$ref` it accepts `{}` only, which the target
    /// rejects whenever it requires anything.
    pub(crate) const ANTHROPIC_ROOT: Self = Self {
        root_only: true,
        lone_root: true,
        openai_limits: false,
        name: "strict-inline-root-ref",
        rule: "anthropic-strict-additionalproperties-false",
        ..Self::OPENAI
    };

    /// Whether the node has a `$ref` this instance inlines: the keywords
    /// beside it (none for a lone root `$ref`).
    fn wants(self, root: bool, node: &Map<String, Value>) -> Option<Vec<&str>> {
        let keys = siblings(root, node);
        (!keys.is_empty() || (root && self.lone_root && node.has("$ref"))).then_some(keys)
    }
}

impl Default for StrictInlineRefSiblings {
    fn default() -> Self {
        Self::OPENAI
    }
}

/// The keywords beside the node's `$ref`, if it has one (at the root, not
/// counting the definitions).
fn siblings(root: bool, node: &Map<String, Value>) -> Vec<&str> {
    if !node.has("$ref") {
        return Vec::new();
    }
    node.keys()
        .map(String::as_str)
        .filter(|k| *k != "$ref" && !(root && ROOT_DEFS.contains(k)))
        .collect()
}

/// A keyword that asserts nothing: `properties: {}` (what `normalize` and
/// the floors give a bare object) or `required: []`. Beside a target that
/// declares the keyword, the target's is kept.
fn vacuous(key: &str, value: &Value) -> bool {
    match key {
        "properties" | "patternProperties" => value.as_object().is_some_and(Map::is_empty),
        "required" => value.as_array().is_some_and(Vec::is_empty),
        _ => false,
    }
}

/// Why `own`'s keywords and `target`'s cannot merge into one schema: the
/// keywords that say so, or `None` when they can.
fn conflict(target: &Map<String, Value>, own: &Map<String, Value>) -> Option<Vec<String>> {
    let mut out: Vec<String> = own
        .iter()
        .filter(|(k, v)| {
            *k != "$ref"
                && !ANNOTATIONS.contains(&k.as_str())
                && !HOLDERS.contains(&k.as_str())
                && !vacuous(k, v)
                && target.field(k).is_some_and(|t| t != *v)
        })
        .map(|(k, _)| k.clone())
        .collect();
    for group in NEIGHBOURS {
        let added: Vec<&String> = own
            .iter()
            .filter(|(k, v)| {
                group.contains(&k.as_str()) && !vacuous(k, v) && target.field(k) != Some(*v)
            })
            .map(|(k, _)| k)
            .collect();
        if group.iter().any(|k| target.has(k)) {
            for k in added {
                if !out.contains(k) {
                    out.push(k.clone());
                }
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The node with its target inlined: the target's keywords in its order
/// (an annotation or holder the node also has takes the node's value, a
/// vacuous one the target's), then the node's other keywords in theirs.
fn inline(target: &Map<String, Value>, mut own: Map<String, Value>) -> Map<String, Value> {
    own.shift_remove("$ref");
    let mut out = target.clone();
    for (k, v) in own {
        if !(vacuous(&k, &v) && out.has(&k)) {
            out.insert(k, v);
        }
    }
    out
}

/// Why the tool cannot stay strict.
enum Stuck {
    /// Inlined, the tool passes a strict limit (strict-fallback's reason).
    Limit(String),
    Recursive,
    Unresolved,
    Conflict(Vec<String>),
    TooBig(usize),
}

/// The references being inlined above a node, innermost first, each with
/// the pointer of the node it was inlined at.
#[derive(Clone, Default)]
struct Inlining(Option<Rc<(String, String, Inlining)>>);

impl Inlining {
    /// Where `reference` was inlined above, if it was.
    fn holds(&self, reference: &str) -> Option<&str> {
        let mut at = &self.0;
        while let Some(link) = at {
            if link.0 == reference {
                return Some(&link.1);
            }
            at = &link.2.0;
        }
        None
    }
}

/// Where the inliner stopped: the pointer, the keywords beside its
/// `$ref`, and why.
type Stop = (String, Vec<String>, Stuck);

/// The inliner as a [`Rewrite`]; it stops at the first node it cannot
/// inline (and enters no node after it).
struct Inliner<'a, 'c, 'x> {
    doc: &'a Value,
    /// The draft the root's `$schema` names, when it ignores a `$ref`'s
    /// siblings.
    legacy: Option<&'a str>,
    pass: StrictInlineRefSiblings,
    grown: usize,
    budget: usize,
    stopped: Option<Stop>,
    cx: &'c mut Cx<'x>,
}

impl Inliner<'_, '_, '_> {
    /// Inline `node`'s `$ref` while it has siblings; `false` when it stops.
    fn inline_at(
        &mut self,
        path: &NodePath<'_>,
        node: &mut Map<String, Value>,
        above: &mut Inlining,
    ) -> bool {
        loop {
            let Some(keys) = self.pass.wants(path.is_empty(), node) else {
                return true;
            };
            let keys: Vec<String> = keys.into_iter().map(str::to_owned).collect();
            if let Some(draft) = self.legacy {
                let ignored: Vec<&String> = keys
                    .iter()
                    .filter(|k| {
                        !ANNOTATIONS.contains(&k.as_str()) && !HOLDERS.contains(&k.as_str())
                    })
                    .collect();
                if !ignored.is_empty() {
                    self.cx.record(
                        path,
                        "$ref",
                        Action::Rewritten,
                        format!("its siblings but the annotations dropped: {draft} (the root's $schema) ignores them"),
                    );
                    for k in ignored {
                        node.shift_remove(k.as_str());
                        self.cx.record(
                            path,
                            k,
                            Action::Removed,
                            format!("ignored beside a $ref in {draft} (the root's $schema), dropped as the $ref is inlined"),
                        );
                    }
                    continue;
                }
            }
            let reference = node
                .field("$ref")
                .and_then(Value::as_str)
                .map(str::to_owned);
            let target = reference
                .as_deref()
                .and_then(|r| resolve_local(self.doc, r))
                .and_then(Value::as_object);
            if let Some(first) = reference.as_deref().and_then(|r| above.holds(r)) {
                // Named where the recursion starts (the node the input has).
                self.stopped = Some((first.to_owned(), keys, Stuck::Recursive));
                return false;
            }
            let (Some(reference), Some(target)) = (reference, target) else {
                self.stopped = Some((path.as_str().to_owned(), keys, Stuck::Unresolved));
                return false;
            };
            let why = conflict(target, node).map(Stuck::Conflict).or_else(|| {
                self.grown += json_len::byte_len(target);
                (self.grown > self.budget).then_some(Stuck::TooBig(self.budget))
            });
            if let Some(why) = why {
                self.stopped = Some((path.as_str().to_owned(), keys, why));
                return false;
            }
            *node = inline(target, std::mem::take(node));
            self.cx.record(
                path,
                "$ref",
                Action::Rewritten,
                if self.pass.lone_root {
                    format!(
                        "root $ref {reference} inlined: a strict root closed beside a $ref accepts {{}} only"
                    )
                } else {
                    format!(
                        "$ref {reference} inlined into the node with {} beside it: strict mode takes no keywords beside a $ref",
                        keys.join(", ")
                    )
                },
            );
            *above = Inlining(Some(Rc::new((
                reference,
                path.as_str().to_owned(),
                std::mem::take(above),
            ))));
        }
    }
}

impl Rewrite for Inliner<'_, '_, '_> {
    type State = Inlining;
    type Out = ();

    fn enter(
        &mut self,
        path: &NodePath<'_>,
        _: Option<&ChildKey>,
        node: &mut Map<String, Value>,
        mut above: Inlining,
    ) -> ControlFlow<(), Option<Inlining>> {
        if self.stopped.is_some() || !self.inline_at(path, node, &mut above) || self.pass.root_only
        {
            return ControlFlow::Continue(None);
        }
        ControlFlow::Continue(Some(above))
    }

    fn leave(&mut self, _: &NodePath<'_>, _: Option<&ChildKey>, _: &mut Map<String, Value>) {}
}

/// Why the tool goes non-strict, for its record.
fn stuck_reason(at: &str, keys: &[String], why: Stuck) -> String {
    let why = match why {
        Stuck::Limit(why) => {
            return format!(
                "strict mode takes no keywords beside a $ref, and with the targets inlined {why}"
            );
        }
        Stuck::Recursive => "its target holds it again (a recursive reference)".to_owned(),
        Stuck::Unresolved => "its reference resolves to no schema in this tool".to_owned(),
        Stuck::Conflict(clash) => format!(
            "its target declares {} too, so one schema cannot say both",
            clash.join(", ")
        ),
        Stuck::TooBig(budget) => {
            format!("inlining would grow the tool by more than {budget} bytes")
        }
    };
    format!(
        "the $ref at {} has {} beside it, which strict mode rejects, and cannot be inlined: {why}",
        schema::display_path(at),
        keys.join(", ")
    )
}

impl Pass for StrictInlineRefSiblings {
    fn name(&self) -> &'static str {
        self.name
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !self.inline || !self.gate.admits(tool, cx.lane) {
            return Ok(Step::Continue);
        }
        let found = if self.root_only {
            tool.input_schema
                .as_object()
                .is_some_and(|root| self.wants(true, root).is_some())
        } else {
            schema::any_node(&tool.input_schema, &|depth, node| {
                self.wants(depth == 0, node).is_some()
            })?
        };
        if !found {
            return Ok(Step::Continue);
        }
        let limits = StrictFallback::default();
        let doc = tool.input_schema.clone();
        let mark = cx.degradations.len();
        let mut inliner = Inliner {
            doc: &doc,
            legacy: legacy_draft(&doc),
            pass: *self,
            grown: 0,
            budget: growth_budget(own_size(&doc)),
            stopped: None,
            cx: &mut *cx,
        };
        let walked =
            schema::rewrite_with(&mut tool.input_schema, Inlining::default(), &mut inliner);
        let stopped = inliner.stopped.take();
        if let Err(e) = walked {
            tool.input_schema = doc;
            cx.degradations.truncate(mark);
            return Err(e);
        }
        // Inlined past a strict limit (the copies add levels, properties and
        // enum values), the tool cannot be strict either way.
        let stopped = match stopped {
            Some(stop) => Some(stop),
            None if !self.openai_limits => None,
            None => match limits.reason(&tool.input_schema) {
                Ok(None) => None,
                Ok(Some(why)) => Some((String::new(), Vec::new(), Stuck::Limit(why))),
                Err(e) => {
                    tool.input_schema = doc;
                    cx.degradations.truncate(mark);
                    return Err(e);
                }
            },
        };
        // The tool then goes non-strict as it came in, without the
        // inlinings before the stop.
        if let Some((at, keys, why)) = stopped {
            tool.input_schema = doc;
            cx.degradations.truncate(mark);
            send_non_strict(tool, cx, &stuck_reason(&at, &keys, why));
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out = self.gate.mutants(|gate| Self { gate, ..*self });
        out.push(PassMutant::new(
            "leave $ref siblings",
            Self {
                inline: !self.inline,
                ..*self
            },
        ));
        if self.lone_root {
            out.push(PassMutant::new(
                "leave a lone root $ref",
                Self {
                    lone_root: false,
                    ..*self
                },
            ));
        }
        out
    }
}

#[cfg(test)]
#[path = "refs_tests.rs"]
mod tests;
