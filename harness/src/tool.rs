//! The unit every pipeline shapes: one tool as a catalog declares it.
//!
//! Owns [`Tool`] only. Catalog formats that carry tools live in `catalog`; how a
//! tool is rendered onto a provider wire lives in `lane`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::schema;

/// One tool: a name, an optional description, the JSON Schema of its input
/// and an optional `strict` flag, exactly as a catalog declared them.
///
/// `input_schema` is any JSON value: real catalogs carry arrays, scalars and
/// booleans where a schema object belongs, and shapers must cope.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tool {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub input_schema: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
}

impl Tool {
    /// A tool with a name and a schema, no description and no strict flag.
    pub fn new(name: impl Into<String>, input_schema: Value) -> Self {
        Self {
            name: name.into(),
            description: None,
            input_schema,
            strict: None,
        }
    }

    /// Builder: set the description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Whether two tools render the same wire bytes on every lane (the
    /// render is a function of these four fields) and are the same input to
    /// every pass: the cheap test before rendering.
    pub(crate) fn same_wire(&self, other: &Self) -> bool {
        self.name == other.name
            && self.description == other.description
            && self.strict == other.strict
            && schema::same_bytes(&self.input_schema, &other.input_schema)
    }

    /// Make this tool (a copy of `original` that passes changed) the same
    /// as `original` again, keeping every part they left as it was: only
    /// the values that differ are copied. A try that failed closed hands
    /// back its copy; the tool it ships, or shapes again, is the original,
    /// and most passes change little of a schema (copying it anew took a
    /// third of `deepseek-strict`'s copying, for the tools it fails closed).
    pub(crate) fn restore_from(&mut self, original: &Self) {
        if self.name != original.name {
            self.name.clone_from(&original.name);
        }
        if self.description != original.description {
            self.description.clone_from(&original.description);
        }
        self.strict = original.strict;
        restore(&mut self.input_schema, &original.input_schema);
    }

    /// Append a model-facing note to the description: an absent or empty
    /// description is replaced by the note, otherwise the two are joined with
    /// a blank line (the rule every seed pass uses).
    pub fn append_note(&mut self, note: &str) {
        match &mut self.description {
            Some(d) if !d.is_empty() => {
                d.push_str("\n\n");
                d.push_str(note);
            }
            _ => self.description = Some(note.to_owned()),
        }
    }
}

/// [`Tool::restore_from`] for a value: `value` ends with `original`'s bytes
/// (keys in its order, floats bit for bit, as [`schema::same_bytes`]
/// compares). Objects with the same keys in the same order and arrays of
/// the same length are restored member by member; anything else is copied
/// (rebuilding an object whose keys changed, moving the members it kept,
/// cost more than copying it: 1,796 M instructions against 1,769 M over
/// `deepseek-strict`'s shaping of the shared corpus).
fn restore(value: &mut Value, original: &Value) {
    match (&mut *value, original) {
        (Value::Object(mine), Value::Object(theirs))
            if mine.len() == theirs.len()
                && mine.keys().zip(theirs.keys()).all(|(a, b)| a == b) =>
        {
            for ((_, v), (_, o)) in mine.iter_mut().zip(theirs) {
                restore(v, o);
            }
        }
        (Value::Array(mine), Value::Array(theirs)) if mine.len() == theirs.len() => {
            for (v, o) in mine.iter_mut().zip(theirs) {
                restore(v, o);
            }
        }
        (Value::Object(_) | Value::Array(_), _) => *value = original.clone(),
        (v, o) => {
            if !schema::same_bytes(v, o) {
                *value = original.clone();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn append_note_replaces_an_empty_description() {
        let mut t = Tool::new("t", json!({})).with_description("");
        t.append_note("N.");
        assert_eq!(t.description.as_deref(), Some("N."));
    }

    #[test]
    fn append_note_replaces_an_absent_description() {
        let mut t = Tool::new("t", json!({}));
        t.append_note("N.");
        assert_eq!(t.description.as_deref(), Some("N."));
    }

    #[test]
    fn append_note_joins_with_a_blank_line() {
        let mut t = Tool::new("t", json!({})).with_description("Does things.");
        t.append_note("N.");
        assert_eq!(t.description.as_deref(), Some("Does things.\n\nN."));
    }

    /// Every kind of change a pass makes is undone, to the same bytes.
    #[test]
    fn restore_from_undoes_every_kind_of_change() {
        let original = Tool::new(
            "t",
            json!({"type": "object", "properties": {"a": {"type": ["string", "null"]},
                "b": {"anyOf": [{"type": "integer"}, {"type": "null"}]}, "c": {"const": 1.5}},
                "required": ["a"], "x-k": [1, 2, 3]}),
        )
        .with_description("d");
        let changes: [fn(&mut Tool); 9] = [
            |t| t.name = "renamed".into(),
            |t| t.description = None,
            |t| t.strict = Some(true),
            |t| t.input_schema["properties"]["a"]["type"] = json!("string"),
            |t| t.input_schema["properties"]["b"] = json!({"type": "integer", "nullable": true}),
            |t| {
                t.input_schema["properties"]
                    .as_object_mut()
                    .unwrap()
                    .shift_remove("a");
            },
            |t| {
                // The same keys in another order.
                let m = t.input_schema.as_object_mut().unwrap();
                let r = m.shift_remove("required").unwrap();
                m.shift_insert(0, "required".into(), r);
            },
            |t| t.input_schema["x-k"].as_array_mut().unwrap().push(json!(4)),
            |t| t.input_schema["properties"]["c"]["const"] = json!(1),
        ];
        for (i, change) in changes.iter().enumerate() {
            let mut copy = original.clone();
            change(&mut copy);
            assert!(!copy.same_wire(&original), "change {i} changes nothing");
            copy.restore_from(&original);
            assert!(copy.same_wire(&original), "change {i}");
            assert_eq!(
                serde_json::to_string(&copy).unwrap(),
                serde_json::to_string(&original).unwrap()
            );
        }
    }

    /// What the passes left as it was is kept, not copied again: a string
    /// beside the change keeps its allocation.
    #[test]
    fn restore_from_keeps_what_is_unchanged() {
        let original = Tool::new(
            "t",
            json!({"properties": {"a": {"description": "kept"}, "b": {"type": "string"}}}),
        );
        let mut copy = original.clone();
        copy.input_schema["properties"]["b"]["type"] = json!("integer");
        let kept = copy.input_schema["properties"]["a"]["description"]
            .as_str()
            .unwrap()
            .as_ptr();
        copy.restore_from(&original);
        assert!(copy.same_wire(&original));
        let after = copy.input_schema["properties"]["a"]["description"]
            .as_str()
            .unwrap()
            .as_ptr();
        assert_eq!(after, kept);
    }
}
