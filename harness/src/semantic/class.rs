//! The judgement's vocabulary: a schema's class against the original, the
//! kinds of narrowing, the per-case result and the losses.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::tool::Tool;

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
    pub(super) fn of(original: &[String], before: &[String], shaped: &Tool) -> Self {
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
pub(super) fn constraints(schema: &Value) -> Vec<String> {
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
    /// A verdict of `class` over `instances`, with no witness, kind or reason.
    pub(crate) fn plain(class: SemanticClass, instances: usize) -> Self {
        Self {
            class,
            instances,
            widened: None,
            narrowed: None,
            narrowed_kinds: Vec::new(),
            silent: false,
            reason: None,
            disagreements: Vec::new(),
            losses: Losses::default(),
        }
    }

    pub(super) fn unjudged(reason: String) -> Self {
        Self {
            reason: Some(reason),
            ..Self::plain(SemanticClass::Unjudged, 0)
        }
    }
}

/// Every description text of a tool: its own and its schema's.
pub(super) fn descriptions(tool: &Tool) -> Vec<String> {
    let mut out: Vec<String> = tool.description.iter().cloned().collect();
    let _ = crate::schema::visit(&tool.input_schema, &mut |_, node| {
        if let Some(d) = node.get("description").and_then(Value::as_str) {
            out.push(d.to_owned());
        }
    });
    out
}
