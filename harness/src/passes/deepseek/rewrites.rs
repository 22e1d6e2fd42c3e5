//! The DeepSeek strict rewrites: optionals removed, `const` as `enum`, widening
//! strips, closed objects.

use serde_json::{Map, Value};

use super::subset::{Close, FORMATS, WIDENING, find_in_shipped, objects};
use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::passes::normalize::Normalize;
use crate::passes::notes::{self, Unenforced};
use crate::passes::{Cx, Pass, PassMutant, Step};
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

/// Remove optional properties and note them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DeepseekRemoveOptionals {
    /// Fail closed when the removal empties a root that had properties.
    pub(crate) guard_emptied_root: bool,
    pub(crate) note: bool,
}

impl Default for DeepseekRemoveOptionals {
    fn default() -> Self {
        Self {
            guard_emptied_root: true,
            note: true,
        }
    }
}

impl Pass for DeepseekRemoveOptionals {
    fn name(&self) -> &'static str {
        "deepseek-remove-optionals"
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::flip(self, "skip the emptied-root guard", |p| {
                &mut p.guard_emptied_root
            }),
            PassMutant::flip(self, "skip the removed-optionals note", |p| &mut p.note),
        ]
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        if self.guard_emptied_root && empties_root(&tool.input_schema) {
            // Decided before the walk below, which would remove and record
            // every optional property only for the try to drop them both
            // when it fails closed: all the walk could still tell is that
            // the schema nests too deep, asked over the very positions it
            // visits (the shipped ones).
            find_in_shipped(&tool.input_schema, &mut |_, _| None)?;
            return Ok(Step::FailClosed(
                "every root property is optional: removing them would leave a tool callable only with {}".into(),
            ));
        }
        let mut removed: Vec<String> = Vec::new();
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let Some(Value::Object(props)) = node.field("properties") else {
                return true;
            };
            let optional: Vec<String> = props
                .keys()
                .filter(|k| !schema::requires(node, k))
                .cloned()
                .collect();
            if optional.is_empty() {
                return true;
            }
            if let Some(Value::Object(props)) = node.field_mut("properties") {
                // `optional` lists keys of `props` in their order.
                let mut next = optional.iter().peekable();
                props.retain(|k, _| next.next_if(|o| *o == k).is_none());
            }
            let at = format!("{path}/properties");
            let chain = notes::names_chain(path);
            for name in &optional {
                let p = schema::child_path(&at, name);
                removed.push(notes::property_location(path, chain.as_deref(), name, &p));
                cx.record_at(
                    p,
                    "properties",
                    Action::Removed,
                    "optional property removed: strict mode requires every property",
                );
            }
            true
        })?;
        if self.note && !removed.is_empty() {
            cx.note(
                tool,
                &notes::removed_optionals_note(&removed),
                "removed optional parameters surfaced as a note",
            );
        }
        Ok(Step::Continue)
    }
}

/// Whether removing the optional properties empties the root: it has
/// properties and requires none of them.
fn empties_root(schema: &Value) -> bool {
    schema.as_object().is_some_and(|root| {
        matches!(root.field("properties"), Some(Value::Object(props))
            if !props.is_empty() && !props.keys().any(|k| schema::requires(root, k)))
    })
}

/// Land non-numeric `const` on `enum`. The fields are the mutation points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DeepseekConstToEnum {
    /// Numeric `const` stays (the subset keeps it).
    pub(crate) keep_numeric: bool,
    /// `const: null` is dropped.
    pub(crate) drop_null: bool,
    /// An existing `enum` wins over `const`.
    pub(crate) yield_to_enum: bool,
}

/// The default pass, usable as a value like the unit struct it once was.
#[allow(non_upper_case_globals)]
pub(crate) const DeepseekConstToEnum: DeepseekConstToEnum = DeepseekConstToEnum {
    keep_numeric: true,
    drop_null: true,
    yield_to_enum: true,
};

impl Default for DeepseekConstToEnum {
    fn default() -> Self {
        DeepseekConstToEnum
    }
}

impl Pass for DeepseekConstToEnum {
    fn name(&self) -> &'static str {
        "deepseek-const-to-enum"
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::flip(self, "land numeric const on enum too", |p| {
                &mut p.keep_numeric
            }),
            PassMutant::flip(self, "keep const: null", |p| &mut p.drop_null),
            PassMutant::flip(self, "const overrides an existing enum", |p| {
                &mut p.yield_to_enum
            }),
        ]
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let Some(c) = node.field("const") else {
                return true;
            };
            if self.keep_numeric && c.is_number() {
                return true;
            }
            if c.is_null() && !self.drop_null {
                return true;
            }
            if c.is_null() {
                node.shift_remove("const");
                cx.record(
                    path,
                    "const",
                    Action::Removed,
                    "const: null dropped (null is outside the strict subset)",
                );
            } else if self.yield_to_enum && node.has("enum") {
                node.shift_remove("const");
                cx.record(
                    path,
                    "const",
                    Action::Removed,
                    "non-numeric const yields to the existing enum",
                );
            } else {
                let old = std::mem::take(node);
                for (k, v) in old {
                    if k == "const" {
                        node.insert("enum".into(), Value::Array(vec![v]));
                    } else {
                        node.insert(k, v);
                    }
                }
                cx.record(
                    path,
                    "const",
                    Action::Rewritten,
                    "non-numeric const landed on enum: [value]",
                );
            }
            true
        })?;
        Ok(Step::Continue)
    }
}

/// Strip keywords outside the subset whose removal only widens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DeepseekWideningStrips {
    pub(crate) keywords: Vec<&'static str>,
    pub(crate) formats: Vec<&'static str>,
    pub(crate) note: bool,
    /// Strip name-table `dependencies`.
    pub(crate) name_table_dependencies: bool,
    /// Strip draft-4 boolean `exclusiveMinimum`/`exclusiveMaximum`.
    pub(crate) boolean_exclusive: bool,
}

impl Default for DeepseekWideningStrips {
    fn default() -> Self {
        Self {
            keywords: WIDENING.to_vec(),
            formats: FORMATS.to_vec(),
            note: true,
            name_table_dependencies: true,
            boolean_exclusive: true,
        }
    }
}

impl Pass for DeepseekWideningStrips {
    fn name(&self) -> &'static str {
        "deepseek-widening-strips"
    }

    fn mutants(&self) -> Vec<PassMutant> {
        let mut out = PassMutant::drop_each(self, "widening strips", |p| &mut p.keywords);
        out.extend(PassMutant::drop_each(self, "documented formats", |p| {
            &mut p.formats
        }));
        out.push(PassMutant::flip(self, "skip the unenforced note", |p| {
            &mut p.note
        }));
        out.push(PassMutant::flip(
            self,
            "keep name-table dependencies",
            |p| &mut p.name_table_dependencies,
        ));
        out.push(PassMutant::flip(
            self,
            "keep boolean exclusiveMinimum/Maximum",
            |p| &mut p.boolean_exclusive,
        ));
        out
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        let mut lost = Vec::new();
        schema::rewrite_pre_order(&mut tool.input_schema, &mut |path, node| {
            let mut strip = |node: &mut Map<String, Value>, kw: &str, why: &str| {
                // Most nodes hold none of the keywords: asking first spares
                // the removal's hashing (`lookup` scans a small object).
                if !node.has(kw) {
                    return;
                }
                if let Some(v) = node.shift_remove(kw) {
                    cx.record(path, kw, Action::Removed, why.to_owned());
                    lost.push(Unenforced {
                        pointer: path.as_str().to_owned(),
                        keyword: kw.to_owned(),
                        value: v,
                    });
                }
            };
            for kw in &self.keywords {
                strip(
                    node,
                    kw,
                    "outside the strict subset; removing it only widens what is accepted",
                );
            }
            if self.name_table_dependencies
                && matches!(node.field("dependencies"), Some(Value::Object(m)) if m.values().all(Value::is_array))
            {
                strip(
                    node,
                    "dependencies",
                    "name-table dependencies are outside the strict subset",
                );
            }
            if matches!(node.field("format"), Some(Value::String(f)) if !self.formats.contains(&f.as_str()))
            {
                strip(
                    node,
                    "format",
                    "format value outside DeepSeek's documented list",
                );
            }
            for kw in ["exclusiveMinimum", "exclusiveMaximum"] {
                if self.boolean_exclusive && node.field(kw).is_some_and(Value::is_boolean) {
                    strip(
                        node,
                        kw,
                        "draft-4 boolean form is outside the strict subset",
                    );
                }
            }
            true
        })?;
        if self.note
            && let Some(n) = notes::unenforced_note(&lost)
        {
            cx.note(tool, &n, "stripped constraints surfaced as a note");
        }
        // `normalize` ran first: a one-branch union kept apart from its
        // parent only by what `deepseek-remove-optionals` or this pass
        // removed is inlined now, not on the next shaping (idempotence;
        // found by cargo fuzz).
        cx.run_again(&Normalize::default().collapses_only(), self, tool)
    }
}

/// Every object requires all its properties and allows no others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DeepseekCloseObjects {
    pub(crate) close: Close,
}

/// The default pass, usable as a value like the unit struct it once was.
#[allow(non_upper_case_globals)]
pub(crate) const DeepseekCloseObjects: DeepseekCloseObjects = DeepseekCloseObjects {
    close: Close {
        require_all: true,
        forbid_additional: true,
    },
};

impl Default for DeepseekCloseObjects {
    fn default() -> Self {
        DeepseekCloseObjects
    }
}

impl Pass for DeepseekCloseObjects {
    fn name(&self) -> &'static str {
        "deepseek-close-objects"
    }

    fn mutants(&self) -> Vec<PassMutant> {
        vec![
            PassMutant::flip(self, "skip requiring every property", |p| {
                &mut p.close.require_all
            }),
            PassMutant::flip(self, "skip additionalProperties: false", |p| {
                &mut p.close.forbid_additional
            }),
        ]
    }

    fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
        // Never inside `if`/`then`/`else`/`not` (that would change the
        // condition); `deepseek-post-gate` fails such a tool closed anyway.
        objects(self.close, false).apply(
            &mut tool.input_schema,
            cx,
            &mut crate::passes::objects::leave_optional,
        )?;
        Ok(Step::Continue)
    }
}
