//! OpenAI strict mode: the fallback to non-strict over the documented limits,
//! and property `default`s stripped (Azure).

use std::convert::Infallible;
use std::ops::ControlFlow;

use serde_json::{Map, Value};

use crate::degradation::Action;
use crate::facts::openai::STRICT_TYPE_STAND_INS;
use crate::lookup::Lookup;
use crate::passes::notes::{self, Unenforced};
use crate::passes::strict::StrictGate;
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::{self, ChildKey, PastLimit, TooDeep};
use crate::tool::Tool;

/// What one strict schema holds, against the documented limits.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Size {
    /// Object levels on the deepest path (definitions start their own count).
    levels: usize,
    properties: usize,
    enum_values: usize,
    /// The first nested object strict mode could only close to `{}`.
    open_map: Option<String>,
}

/// Measure `schema` against the documented limits (a definition starts
/// its own level count).
pub(super) fn measure(schema: &Value) -> Result<Size, TooDeep> {
    let mut size = Size::default();
    let ControlFlow::Continue(()) = schema::walk::<usize, Infallible>(
        schema,
        PastLimit::Fail,
        0,
        &mut |path, node, above| {
            let object = schema::is_object_schema(node);
            let here = above + usize::from(object);
            size.levels = size.levels.max(here);
            let props = node.field("properties").and_then(Value::as_object);
            size.properties += props.map_or(0, Map::len);
            size.enum_values += node
                .field("enum")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            let open = !matches!(node.field("additionalProperties"), Some(Value::Bool(false)));
            // A `$ref` node's object is its target's, measured where it is
            // defined (`{"type": "object", "$ref": …}` declares no
            // properties of its own).
            if object
                && open
                && !path.is_empty()
                && !node.has("$ref")
                && props.is_none_or(Map::is_empty)
                && size.open_map.is_none()
            {
                size.open_map = Some(schema::display_path(path));
            }
            ControlFlow::Continue(Some(here))
        },
        &|here, _, child| Some(if child.is_definition() { 0 } else { *here }),
    )?;
    Ok(size)
}

/// `strict-fallback`: a strict tool the strict subset cannot carry ships
/// with `strict: false` (recorded on the `strict` keyword) instead of a
/// rejected request. Over the documented limits (Structured Outputs:
/// 10 levels of object nesting, 5000 object properties, 1000 enum values
/// per schema; rules `openai-strict-nesting-limit`,
/// `openai-strict-property-count-limit`, `openai-strict-enum-count-limit`),
/// and for a nested object without properties that is not closed (a map or
/// a free-form object: `additionalProperties: false` would leave it
/// accepting only `{}`, so no faithful strict rewrite exists), and for an
/// `if`/`then`/`else`/`not` subschema: the documented strict subset
/// (<https://platform.openai.com/docs/guides/structured-outputs#supported-schemas>)
/// has no conditionals or negation, and closing the objects inside one
/// would change the condition instead of the shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StrictFallback {
    pub(crate) gate: StrictGate,
    pub(crate) levels: usize,
    pub(crate) properties: usize,
    pub(crate) enum_values: usize,
    /// Fall back for open nested objects without properties.
    pub(crate) open_maps: bool,
    /// Fall back for `if`/`then`/`else`/`not` subschemas.
    pub(crate) conditionals: bool,
}

impl Default for StrictFallback {
    fn default() -> Self {
        Self {
            gate: StrictGate::default(),
            levels: 10,
            properties: 5000,
            enum_values: 1000,
            open_maps: true,
            conditionals: true,
        }
    }
}

impl StrictFallback {
    /// Why the strict subset cannot carry `schema`, if it cannot.
    pub(super) fn reason(&self, schema: &Value) -> Result<Option<String>, TooDeep> {
        let size = measure(schema)?;
        let conditional = if self.conditionals {
            crate::passes::strict::first_conditional(schema)?
        } else {
            None
        };
        let over = |n: usize, limit: usize, what: &str| {
            (n > limit).then(|| format!("{n} {what} exceed the strict limit of {limit}"))
        };
        Ok(over(size.levels, self.levels, "levels of object nesting")
            .or_else(|| over(size.properties, self.properties, "object properties"))
            .or_else(|| over(size.enum_values, self.enum_values, "enum values"))
            .or_else(|| {
                size.open_map.filter(|_| self.open_maps).map(|at| {
                    format!("the open object at {at} declares no properties: strict mode could only accept {{}} there")
                })
            })
            .or_else(|| {
                conditional.map(|(at, kw)| crate::passes::strict::conditional_reason(&at, kw))
            }))
    }
}

impl Pass for StrictFallback {
    fn name(&self) -> &'static str {
        "strict-fallback"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("openai-strict-nesting-limit")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !self.gate.admits(tool, cx.lane) {
            return Ok(Step::Continue);
        }
        if let Some(why) = self.reason(&tool.input_schema)? {
            crate::passes::strict::send_non_strict(tool, cx, &why);
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out = self.gate.mutants(|gate| Self { gate, ..*self });
        out.extend([
            PassMutant::new(
                "nesting limit one higher",
                Self {
                    levels: self.levels + 1,
                    ..*self
                },
            ),
            PassMutant::new(
                "property limit one higher",
                Self {
                    properties: self.properties + 1,
                    ..*self
                },
            ),
            PassMutant::new(
                "enum limit one higher",
                Self {
                    enum_values: self.enum_values + 1,
                    ..*self
                },
            ),
            PassMutant::new(
                "keep open maps strict",
                Self {
                    open_maps: !self.open_maps,
                    ..*self
                },
            ),
            PassMutant::new(
                "keep conditional schemas strict",
                Self {
                    conditionals: !self.conditionals,
                    ..*self
                },
            ),
        ]);
        out
    }
}

/// The pointer of the first subschema (not the root) with no `type` key
/// and none of the keywords standing in for one
/// (`facts::openai::STRICT_TYPE_STAND_INS`), if any.
pub(super) fn first_typeless(schema: &Value) -> Result<Option<String>, TooDeep> {
    let mut found = None;
    schema::visit(schema, &mut |path, node| {
        if found.is_none()
            && !path.is_empty()
            && !node.has("type")
            && !STRICT_TYPE_STAND_INS.iter().any(|k| node.has(k))
        {
            found = Some(schema::display_path(path));
        }
    })?;
    Ok(found)
}

/// `strict-typeless-fallback`: OpenAI rejects a strict schema with a
/// subschema that has no `type` key (`In context=('properties',
/// 'value'), schema must have a 'type' key.`, rule
/// `openai-strict-subschema-missing-type`, recordings from
/// Gitlawb/openclaude#1114 and can1357/oh-my-pi#211): `{}`, a property
/// that only has a description, the `items: {}` that `array-items-floor`
/// writes for an array without `items`. Such a node admits any value, which
/// no strict type does, so the tool ships with `strict: false` (recorded on
/// the `strict` keyword), as the reports' own fixes do. It runs after
/// `strict-subset` (which merges `allOf` members and strips
/// `propertyNames`, whose subschemas need no type then) and before
/// `strict-inline-ref-siblings`, so a tool going non-strict ships without
/// inlinings it no longer needs (an inlined copy is typeless only if its
/// target, walked in `$defs`, already is).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct StrictTypelessFallback {
    pub(crate) gate: StrictGate,
}

impl Pass for StrictTypelessFallback {
    fn name(&self) -> &'static str {
        "strict-typeless-fallback"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("openai-strict-subschema-missing-type")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !self.gate.admits(tool, cx.lane) {
            return Ok(Step::Continue);
        }
        if let Some(at) = first_typeless(&tool.input_schema)? {
            crate::passes::strict::send_non_strict(
                tool,
                cx,
                &format!(
                    "the subschema at {at} has no type: strict mode requires one on every subschema, and no strict type admits any value"
                ),
            );
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        self.gate.mutants(|gate| Self { gate })
    }
}

/// `strict-strip-defaults` (`openai-strict` only): Azure OpenAI rejects a
/// strict tool whose property carries a non-null `default` (`'default' is
/// not permitted within a property definition`, recording
/// `azure-openai-strict-default-not-permitted-4390`); api.openai.com
/// accepts it, and the lane stands for both. A default is an annotation
/// (strict mode sends every key anyway), so it goes, recorded, and the
/// values are restated in a note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StrictStripDefaults {
    pub(crate) gate: StrictGate,
    pub(crate) note: bool,
}

impl Default for StrictStripDefaults {
    fn default() -> Self {
        Self {
            gate: StrictGate::default(),
            note: true,
        }
    }
}

impl Pass for StrictStripDefaults {
    fn name(&self) -> &'static str {
        "strict-strip-defaults"
    }

    fn rule(&self) -> Option<&'static str> {
        Some("azure-openai-strict-default-not-permitted")
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if !self.gate.admits(tool, cx.lane) {
            return Ok(Step::Continue);
        }
        let mut lost = Vec::new();
        schema::rewrite_post_order(&mut tool.input_schema, &mut |path, via, node| {
            let property = matches!(via, Some(ChildKey::Named("properties", _)));
            if property
                && node.field("default").is_some_and(|d| !d.is_null())
                && let Some(value) = node.shift_remove("default")
            {
                cx.record(
                    path,
                    "default",
                    Action::Removed,
                    "strict mode: a property default is not permitted (Azure OpenAI)",
                );
                lost.push(Unenforced {
                    pointer: path.as_str().to_owned(),
                    keyword: "default".into(),
                    value,
                });
            }
        })?;
        if self.note
            && let Some(n) = notes::unenforced_note(&lost)
        {
            cx.note(tool, &n, "stripped property defaults surfaced as a note");
        }
        Ok(Step::Continue)
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out = self.gate.mutants(|gate| Self { gate, ..*self });
        out.push(PassMutant::new(
            "skip the note",
            Self {
                note: !self.note,
                ..*self
            },
        ));
        out
    }
}
