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
}
