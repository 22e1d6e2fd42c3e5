//! `anthropic-messages` root shaping: the narrowed root-composition strip, the
//! object-root floor, and the tool-name and property-key alphabets.

use serde_json::json;

use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::names::NameSpec;
use crate::passes::notes::{self};
use crate::passes::root::{self, MergeOrder};
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::TooDeep;
use crate::tool::Tool;

/// Tool names: `^[a-zA-Z0-9_-]{1,64}$`. The limit rose to 128 on
/// 2025-07-01 (recording `anthropic-tool-name-pattern-11`, 2025-03-07,
/// quotes `{1,64}`; the define-tools page now says `{1,128}`). A pipeline
/// has no date, and 64 is valid on both sides of the change: a name
/// shaped for 64 is accepted at every recording's date.
pub(crate) const TOOL_NAME: NameSpec = NameSpec::word_or_dash(64);

/// `[a-zA-Z0-9_.-]`: the root property-key alphabet.
pub(super) fn key_char(c: char) -> bool {
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
pub(super) type Flip<P> = (&'static str, fn(&mut P));

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
        let Some(lead) = self.keywords.iter().copied().find(|k| rootmap.has(k)) else {
            return Ok(Step::Continue);
        };
        let groups = rootmap
            .get(lead)
            .and_then(|v| v.as_array())
            .map(|b| notes::required_groups(b))
            .unwrap_or_default();
        let specific = notes::composition_note(lead, &groups);
        root::strip_and_merge(rootmap, &self.keywords, self.merge, cx);
        if self.restore_object_floor && !rootmap.has("type") {
            rootmap.insert("type".into(), json!("object"));
            cx.record(
                "",
                "type",
                Action::Added,
                "object floor restored after the root composition strip",
            );
            if !rootmap.has("properties") {
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
                format!("root {lead} constraint surfaced as a note"),
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
        if !root.has("type") || !self.only_typeless {
            root.insert("type".into(), json!("object"));
            cx.record(
                "",
                "type",
                Action::Added,
                "the endpoint requires a root type",
            );
            if !root.has("properties") {
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
