//! Keywords a lane's validator refuses, stripped and noted (root assertions,
//! xAI and Cerebras lists), and xAI's exact constructs.

use serde_json::{Value, json};

use super::repair::without;
use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::notes::{self, Unenforced};
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

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
            // Most nodes hold none of the keywords: asking first spares the
            // removal's hashing (`lookup` scans a small object).
            for kw in &self.keywords {
                if !node.has(kw) {
                    continue;
                }
                if let Some(value) = node.shift_remove(*kw) {
                    cx.record(
                        path,
                        kw,
                        Action::Removed,
                        format!("{kw} stripped: the provider rejects it here"),
                    );
                    lost.push(Unenforced {
                        pointer: path.as_str().to_owned(),
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

/// `xai-exact-constructs`: xAI rejects `items` as an array ("use
/// 'prefixItems'"), property schemas `true`/`false` and an empty
/// `enum`/`anyOf` (rule `xai-schema-construct-rejected`, documented).
/// Tuple `items: [..]` is exactly `prefixItems: [..]` (the tuple's
/// `additionalItems` becomes `items`) and `true` is exactly `{}`; a `false`
/// property, an empty list and a tuple `items` beside an existing
/// `prefixItems` (draft 2020-12 reads the latter as the tuple) have no
/// accepted spelling, so they are removed and named in a description note.
/// Each change is recorded.
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
                && node.field("items").is_some_and(Value::is_array)
                && !node.has("prefixItems")
            {
                let old = std::mem::take(node);
                let rest = old.field("additionalItems").cloned();
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
            } else if self.tuples
                && node.field("items").is_some_and(Value::is_array)
                && let Some(v) = node.shift_remove("items")
            {
                // `prefixItems` is already the tuple (draft 2020-12, xAI's
                // dialect, reads it so): the array `items` beside it has
                // no spelling of its own, so it goes and the model is told.
                cx.record(
                    path,
                    "items",
                    Action::Removed,
                    "tuple items beside prefixItems: draft 2020-12 reads prefixItems as the tuple and xAI rejects array items",
                );
                lost.push(crate::passes::notes::Unenforced {
                    pointer: path.as_str().to_owned(),
                    keyword: "items".to_owned(),
                    value: v,
                });
            }
            if self.true_properties
                && let Some(Value::Object(props)) = node.field_mut("properties")
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
            if let Some(Value::Object(props)) = node.field_mut("properties") {
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
                    lost.push(crate::passes::notes::Unenforced {
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
                    lost.push(crate::passes::notes::Unenforced {
                        pointer: path.as_str().to_owned(),
                        keyword: k.to_owned(),
                        value: v,
                    });
                }
            }
            true
        })?;
        if let Some(n) = crate::passes::notes::unenforced_note(&lost) {
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
