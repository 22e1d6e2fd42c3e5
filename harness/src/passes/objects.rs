//! Closing objects (`additionalProperties: false`) and requiring all their
//! properties: the one helper behind the strict passes of OpenAI and
//! Cerebras (`strict`), Anthropic (`anthropic::strict`) and DeepSeek
//! (`deepseek`). Where the lanes differ, [`Objects`] names the difference
//! as a parameter: which objects qualify, how far the walk reaches, and
//! what happens to `required` names, optional `false` properties and the
//! `required` keyword itself.

use serde_json::{Map, Value, json};

use super::Cx;
use crate::degradation::Action;
use crate::lookup::Lookup;
use crate::schema::{self, NodePath, TooDeep};

/// Which schema objects a pass shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Qualify {
    /// Every object schema ([`schema::is_object_schema`]).
    Objects,
    /// Object schemas without an `additionalProperties` keyword (an
    /// explicit `true` or schema is the author's map, left as it is).
    UnsaidObjects,
    /// Nodes whose `properties` is an object, typed or not.
    DeclaringProperties,
}

impl Qualify {
    fn admits(self, node: &Map<String, Value>) -> bool {
        match self {
            Self::Objects => schema::is_object_schema(node),
            Self::UnsaidObjects => {
                schema::is_object_schema(node) && !node.has("additionalProperties")
            }
            Self::DeclaringProperties => node.field("properties").is_some_and(Value::is_object),
        }
    }
}

/// What becomes of a `required` name the object does not declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Undeclared {
    /// Dropped without a record (DeepSeek).
    DropSilently,
    /// Dropped and recorded on `required`: the closed object could never
    /// carry the key, so no call could satisfy the tool (OpenAI).
    DropRecorded,
}

/// What becomes of an optional property whose schema is `false`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FalseOptional {
    /// Required like any other (DeepSeek).
    Require,
    /// Dropped and recorded: no value matches `false`, so requiring it
    /// would make the tool uncallable; the closed object keeps the key
    /// out (OpenAI).
    DropRecorded,
}

/// When the completed `required` list is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WriteRequired {
    /// Always (an object without properties gets `required: []`; a list
    /// with non-string entries is rewritten) (DeepSeek).
    Always,
    /// Only when its names change, or a non-empty list has no keyword
    /// yet (OpenAI).
    WhenNamesChange,
}

/// Requiring every property.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RequireAll {
    pub(crate) undeclared: Undeclared,
    pub(crate) false_optional: FalseOptional,
    /// Collapse adjacent repeats of a kept `required` name.
    pub(crate) dedup: bool,
    pub(crate) write: WriteRequired,
    /// The degradation reason when `required` is written.
    pub(crate) reason: &'static str,
}

/// Closing the object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Close {
    /// The keyword `additionalProperties` is inserted after.
    pub(crate) after: &'static str,
    /// The degradation reason.
    pub(crate) reason: &'static str,
}

/// One lane's way of closing objects and requiring their properties.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Objects {
    pub(crate) qualify: Qualify,
    /// Shape nested objects too (`false`: the root only).
    pub(crate) nested: bool,
    /// Enter `if`/`then`/`else`/`not` subschemas (where closing an object
    /// changes the condition rather than the shape).
    pub(crate) conditionals: bool,
    /// Require every property first (`None`: leave `required`).
    pub(crate) require: Option<RequireAll>,
    /// Then close the object (`None`: leave `additionalProperties`).
    pub(crate) close: Option<Close>,
}

/// Called on each property that was optional before it was required: the
/// property's pointer, its schema and the pass's context.
pub(crate) type Optional<'a> = dyn FnMut(&str, &mut Value, &mut Cx<'_>) + 'a;

impl Objects {
    /// Close the qualifying objects outside conditionals (`nested`: below
    /// the root too), leaving `required` alone: the OpenAI/Cerebras and
    /// Anthropic `*-close-objects` passes.
    pub(crate) const fn close_only(qualify: Qualify, nested: bool) -> Self {
        Self {
            qualify,
            nested,
            conditionals: false,
            require: None,
            close: Some(Close {
                after: "properties",
                reason: "strict mode: every object closed",
            }),
        }
    }

    /// Shape every qualifying object of `schema` (pre-order).
    pub(crate) fn apply(
        &self,
        schema: &mut Value,
        cx: &mut Cx<'_>,
        optional: &mut Optional<'_>,
    ) -> Result<(), TooDeep> {
        let mut each = |path: &NodePath<'_>, node: &mut Map<String, Value>| {
            if self.qualify.admits(node) {
                self.shape(path, node, cx, optional);
            }
            self.nested
        };
        if self.conditionals {
            schema::rewrite_pre_order(schema, &mut each)
        } else {
            schema::rewrite_pre_order_outside_conditionals(schema, &mut each)
        }
    }

    /// Require every property of one object node, then close it.
    pub(crate) fn shape(
        &self,
        path: &NodePath<'_>,
        node: &mut Map<String, Value>,
        cx: &mut Cx<'_>,
        optional: &mut Optional<'_>,
    ) {
        if let Some(require) = self.require {
            require_all(path, node, require, cx, optional);
        }
        if let Some(close) = self.close {
            cx.set_keyword(
                path,
                node,
                (close.after, "additionalProperties"),
                json!(false),
                close.reason,
            );
        }
    }
}

/// Require every property of `node`: kept `required` names first, in their
/// order, then the optional properties in property order.
fn require_all(
    path: &NodePath<'_>,
    node: &mut Map<String, Value>,
    spec: RequireAll,
    cx: &mut Cx<'_>,
    optional: &mut Optional<'_>,
) {
    let required = schema::required_names(node);
    let mut empty = Map::new();
    let props = match node.field_mut("properties") {
        Some(Value::Object(props)) => props,
        _ => &mut empty,
    };
    if spec.false_optional == FalseOptional::DropRecorded {
        let banned: Vec<String> = props
            .iter()
            .filter(|(k, v)| **v == Value::Bool(false) && !required.contains(*k))
            .map(|(k, _)| k.clone())
            .collect();
        for name in banned {
            props.shift_remove(&name);
            cx.record(
                &schema::child_path(&format!("{path}/properties"), &name),
                "(schema)",
                Action::Removed,
                "strict mode: a property schema false (the key must stay absent) is dropped, not required; the closed object keeps the key out",
            );
        }
    }
    let mut all: Vec<String> = Vec::with_capacity(required.len());
    for name in &required {
        if !props.has(name) {
            if spec.undeclared == Undeclared::DropRecorded {
                cx.record(
                    path,
                    "required",
                    Action::Removed,
                    format!(
                        "strict mode: required name {name:?} is no declared property; the closed object could never carry it, so no call could satisfy the tool"
                    ),
                );
            }
        } else if !(spec.dedup && all.last() == Some(name)) {
            all.push(name.clone());
        }
    }
    let declared = all.clone();
    for (name, prop) in props.iter_mut() {
        if declared.contains(name) {
            continue;
        }
        optional(
            &schema::child_path(&format!("{path}/properties"), name),
            prop,
            cx,
        );
        all.push(name.clone());
    }
    let write = match spec.write {
        WriteRequired::Always => true,
        WriteRequired::WhenNamesChange => {
            all != required || (!all.is_empty() && !node.has("required"))
        }
    };
    if write {
        cx.set_keyword(
            path,
            node,
            ("properties", "required"),
            Value::Array(all.into_iter().map(Value::String).collect()),
            spec.reason,
        );
    }
}

/// No change to an optional property.
pub(crate) fn leave_optional(_: &str, _: &mut Value, _: &mut Cx<'_>) {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lane::Lane;
    use crate::passes::test_support::{bytes, run};
    use crate::passes::{Pass, Step};
    use crate::tool::Tool;

    /// One [`Objects`] as a pass.
    struct Shape(Objects);

    impl Pass for Shape {
        fn name(&self) -> &'static str {
            "objects"
        }

        fn apply(&self, tool: &mut Tool, cx: &mut Cx<'_>) -> Result<Step, TooDeep> {
            self.0
                .apply(&mut tool.input_schema, cx, &mut leave_optional)?;
            Ok(Step::Continue)
        }
    }

    fn schema() -> Value {
        json!({"type":"object","properties":{"a":{},"f":false,"b":{}},"required":["x","b","b"]})
    }

    #[test]
    fn deepseek_strict_objects_drop_undeclared_required_names_silently_and_require_false_optionals()
    {
        let ran = run(
            &Shape(Objects {
                qualify: Qualify::Objects,
                nested: true,
                conditionals: false,
                require: Some(RequireAll {
                    undeclared: Undeclared::DropSilently,
                    false_optional: FalseOptional::Require,
                    dedup: true,
                    write: WriteRequired::Always,
                    reason: "r",
                }),
                close: Some(Close {
                    after: "required",
                    reason: "c",
                }),
            }),
            Lane::DeepseekStrict,
            schema(),
        );
        assert_eq!(
            bytes(ran.schema()),
            r#"{"type":"object","properties":{"a":{},"f":false,"b":{}},"required":["b","a","f"],"additionalProperties":false}"#
        );
        assert_eq!(
            ran.marks(),
            [
                (String::new(), "required".into(), Action::Rewritten),
                (String::new(), "additionalProperties".into(), Action::Added)
            ]
        );
    }

    #[test]
    fn openai_strict_objects_record_undeclared_required_names_and_drop_false_optionals() {
        let ran = run(
            &Shape(Objects {
                qualify: Qualify::DeclaringProperties,
                nested: true,
                conditionals: false,
                require: Some(RequireAll {
                    undeclared: Undeclared::DropRecorded,
                    false_optional: FalseOptional::DropRecorded,
                    dedup: false,
                    write: WriteRequired::WhenNamesChange,
                    reason: "r",
                }),
                close: None,
            }),
            Lane::OpenaiStrict,
            schema(),
        );
        assert_eq!(
            bytes(ran.schema()),
            r#"{"type":"object","properties":{"a":{},"b":{}},"required":["b","b","a"]}"#
        );
        assert_eq!(
            ran.marks(),
            [
                ("/properties/f".into(), "(schema)".into(), Action::Removed),
                (String::new(), "required".into(), Action::Removed),
                (String::new(), "required".into(), Action::Rewritten)
            ]
        );
    }

    #[test]
    fn write_required_always_gives_an_empty_object_an_empty_list() {
        let shape = |write| {
            Shape(Objects {
                qualify: Qualify::Objects,
                nested: true,
                conditionals: false,
                require: Some(RequireAll {
                    undeclared: Undeclared::DropSilently,
                    false_optional: FalseOptional::Require,
                    dedup: false,
                    write,
                    reason: "r",
                }),
                close: None,
            })
        };
        let always = run(
            &shape(WriteRequired::Always),
            Lane::DeepseekStrict,
            json!({"type":"object"}),
        );
        assert_eq!(bytes(always.schema()), r#"{"type":"object","required":[]}"#);
        let changed = run(
            &shape(WriteRequired::WhenNamesChange),
            Lane::DeepseekStrict,
            json!({"type":"object"}),
        );
        assert_eq!(bytes(changed.schema()), r#"{"type":"object"}"#);
    }
}
