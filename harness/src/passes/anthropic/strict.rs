//! The Anthropic strict subset for `strict: true` tools: `minItems`, formats,
//! bounds, closed objects, and the fallback to non-strict.

use serde_json::{Map, Value, json};

use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::notes::{self, Unenforced};
use crate::passes::objects::{self, Objects, Qualify};
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::{self, NodePath, TooDeep};
use crate::strict_subset;
use crate::tool::Tool;

/// Run `f` on every schema object of a strict tool (others are left alone).
pub(super) fn each_strict_node(
    tool: &mut Tool,
    f: &mut dyn FnMut(&NodePath<'_>, &mut Map<String, Value>),
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
pub(super) fn note_lost(
    tool: &mut Tool,
    cx: &mut Cx<'_>,
    note: bool,
    lost: &[Unenforced],
    why: &'static str,
) {
    if note && let Some(n) = notes::unenforced_note(lost) {
        cx.note(tool, &n, why);
    }
}

/// `strict-min-items`: strict mode supports `minItems` 0 or 1 only
/// (recording `anthropic-strict-minitems-0-or-1-93`: `For 'array' type,
/// 'minItems' values other than 0 or 1 are not supported`). A larger
/// `minItems` becomes 1 (the array stays non-empty) and the original
/// minimum reaches the model as a note. Any other `minItems` (a string, an
/// object, `0.5`, `-2`: no count of items) is removed and recorded. The
/// draft 2020-12 repair has already failed such a tool closed wherever the
/// metaschema reads it, so it is left only under a keyword 2020-12 does not
/// know (`additionalItems`), where it constrains nothing and the oracle's
/// strict rule still rejects it (fuzz regression
/// `shape_conforms/strict-min-items-not-a-count.json`).
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
            let Some(v) = node.field("minItems") else {
                return;
            };
            // 0 or 1 as the oracle reads them, or a count to lower.
            let count =
                |n: &f64| *n > 1.0 || ((0.0..=1.0).contains(n) && n.fract().abs() < f64::EPSILON);
            let Some(n) = v.as_f64().filter(count) else {
                let was = v.to_string();
                node.shift_remove("minItems");
                cx.record(
                    path,
                    "minItems",
                    Action::Removed,
                    format!(
                        "strict mode supports minItems 0 or 1 only: {was} is no count of items, removed"
                    ),
                );
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
                    pointer: path.as_str().to_owned(),
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
            let Some(f) = node.field("format").and_then(Value::as_str) else {
                return;
            };
            if self.supported.contains(&f) {
                return;
            }
            let why = format!("strict mode does not support format {f:?}");
            if let Some(v) = node.shift_remove("format") {
                cx.record(path, "format", Action::Removed, why);
                lost.push(Unenforced {
                    pointer: path.as_str().to_owned(),
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
        let banned = |ty: &str| -> &[&'static str] {
            match ty {
                "integer" | "number" => &self.numeric,
                "string" => &self.string,
                _ => &[],
            }
        };
        strip_by_type(
            tool,
            cx,
            &banned,
            self.note,
            "strict bounds surfaced as a note",
        )?;
        Ok(Step::Continue)
    }
}

/// Remove from every node of a strict tool the keywords `banned` lists for
/// its `type` (each recorded), then note what they said (a `false`, which
/// constrains nothing, is not noted).
fn strip_by_type<'k>(
    tool: &mut Tool,
    cx: &mut Cx<'_>,
    banned: &dyn Fn(&str) -> &'k [&'static str],
    note: bool,
    why: &'static str,
) -> Result<(), TooDeep> {
    let mut lost = Vec::new();
    each_strict_node(tool, &mut |path, node| {
        let Some(ty) = node.field("type").and_then(Value::as_str) else {
            return;
        };
        for k in banned(ty) {
            if let Some(v) = node.shift_remove(*k) {
                cx.record(
                    path,
                    k,
                    Action::Removed,
                    format!("strict mode does not support {k}"),
                );
                if v != Value::Bool(false) {
                    lost.push(Unenforced {
                        pointer: path.as_str().to_owned(),
                        keyword: (*k).to_owned(),
                        value: v,
                    });
                }
            }
        }
    })?;
    note_lost(tool, cx, note, &lost, why);
    Ok(())
}

/// `strict-array-bounds`: strict mode supports no array constraint but
/// `minItems` 0 or 1 (rule `anthropic-strict-array-constraints`, recorded:
/// `For 'array' type, property 'maxItems' is not supported`). Each
/// `maxItems` and `uniqueItems` of an array schema is removed and
/// recorded; the model reads the bounds in a note (`uniqueItems: false`
/// constrains nothing and is not noted). The keywords are the
/// provider-facts table's (`STRICT_ARRAY_UNSUPPORTED`), which the rule
/// also reads; the pass never asks the oracle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StrictArrayBounds {
    pub(crate) array: Vec<&'static str>,
    pub(crate) note: bool,
}

impl Default for StrictArrayBounds {
    fn default() -> Self {
        Self {
            array: crate::facts::anthropic::STRICT_ARRAY_UNSUPPORTED
                .items
                .to_vec(),
            note: true,
        }
    }
}

impl Pass for StrictArrayBounds {
    fn name(&self) -> &'static str {
        "strict-array-bounds"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("anthropic-strict-array-constraints")
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out = vec![PassMutant::new(
            "skip the note",
            Self {
                note: false,
                ..self.clone()
            },
        )];
        for k in &self.array {
            let mut m = self.clone();
            m.array.retain(|x| x != k);
            out.push(PassMutant::new(
                format!("drop {k:?} from stripped array constraints"),
                m,
            ));
        }
        out
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let banned =
            |ty: &str| -> &[&'static str] { if ty == "array" { &self.array } else { &[] } };
        strip_by_type(
            tool,
            cx,
            &banned,
            self.note,
            "strict array constraints surfaced as a note",
        )?;
        Ok(Step::Continue)
    }
}

/// `anthropic-strict-close-objects`: strict mode wants `additionalProperties: false`
/// on every object (rule `anthropic-strict-additionalproperties-false`,
/// recorded through Converse). An object that says nothing gets it; an
/// explicit `true` or schema (a map the author wants) is left to
/// `anthropic-strict-fallback`, which drops `strict` for it.
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
        "anthropic-strict-close-objects"
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
        // condition, not the shape (`anthropic-strict-fallback` drops `strict` for them).
        let qualify = if self.only_unsaid {
            Qualify::UnsaidObjects
        } else {
            Qualify::Objects
        };
        Objects::close_only(qualify, true).apply(
            &mut tool.input_schema,
            cx,
            &mut objects::leave_optional,
        )?;
        Ok(Step::Continue)
    }
}

/// `anthropic-strict-fallback`: a strict tool that breaks a strict-mode rule the
/// rewrites after it cannot mend has no faithful strict form: too many
/// optional or union-typed properties for the grammar compiler (recording
/// `anthropic-strict-schema-too-complex-5230`), a recursive or external
/// `$ref`, a lookaround or backreference `pattern`, an explicitly open
/// object (`additionalProperties` `true` or a schema), an `if`/`then`/
/// `else`/`not` or `dependentSchemas` subschema (outside the documented
/// strict subset, and closing objects inside one would change the
/// condition: closed, a `dependentSchemas` entry typed `object` refused
/// every instance with the property it depends on). It ships with
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
pub(super) fn open_object(schema: &Value) -> Result<Option<String>, TooDeep> {
    let mut found = None;
    schema::visit(schema, &mut |path, node| {
        if found.is_none()
            && node
                .field("additionalProperties")
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
pub(super) fn strict_rejections(tool: &Tool) -> Result<Vec<(&'static str, String)>, TooDeep> {
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
        "anthropic-strict-fallback"
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
            && let Some((at, kw)) = crate::passes::strict::first_conditional(&tool.input_schema)?
        {
            why.push(crate::passes::strict::conditional_reason(&at, kw));
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
