//! Raw tools: what each format yields before names are made unique, and the
//! readers of one tool declaration's fields (`name`, `description`,
//! `strict`, the schema under the key its format gives it).

use serde_json::{Map, Value};

use super::locate::{Src, child};
use super::types::{Format, KnownInstance};
use crate::error::LoadError;

/// One tool as its format yields it, before names are made unique.
pub(super) struct Raw<'a> {
    pub(super) src: Src<'a>,
    /// Pointer of the tool object (inside `src.text`).
    pub(super) pointer: String,
    pub(super) name: String,
    pub(super) description: Option<String>,
    pub(super) schema: Value,
    pub(super) strict: Option<bool>,
    /// Root-level notes (`path` ""), attached once the final name is known.
    pub(super) notes: Vec<String>,
    /// Instances the source gives with their expected verdict.
    pub(super) instances: Vec<KnownInstance>,
}

pub(super) fn tool_name(
    src: Src<'_>,
    ptr: &str,
    obj: &Map<String, Value>,
) -> Result<String, LoadError> {
    match obj.get("name") {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(src.error(ptr, "\"name\" is not a string")),
        None => Err(src.error(ptr, "missing \"name\"")),
    }
}

pub(super) fn tool_description(
    src: Src<'_>,
    ptr: &str,
    obj: &Map<String, Value>,
) -> Result<Option<String>, LoadError> {
    match obj.get("description") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(src.error(&child(ptr, "description"), "expected a string")),
    }
}

pub(super) fn tool_strict(
    src: Src<'_>,
    ptr: &str,
    obj: &Map<String, Value>,
) -> Result<Option<bool>, LoadError> {
    match obj.get("strict") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(src.error(&child(ptr, "strict"), "expected a boolean")),
    }
}

/// What a tool object calls its schema, and whether it may be absent.
pub(super) struct SchemaKey {
    /// Candidate keys, preferred first.
    pub(super) keys: &'static [&'static str],
    /// `false`: a missing schema is an error; `true`: an empty object schema
    /// is assumed (`OpenAI` and Gemini let a function declare no parameters).
    pub(super) optional: bool,
    pub(super) strict: bool,
    /// Anthropic custom tools: a missing schema is read as the typeless
    /// `{}` (the v1 object floor types it), and a schema found under a later
    /// key than the first gets a note (it renders under the first).
    pub(super) lenient: bool,
}

/// An Anthropic tool object without a `type`, or `type: "custom"`: server
/// tools (`web_search_20250305`, …) carry no schema and are not read.
fn is_custom_tool(obj: &Map<String, Value>) -> bool {
    match obj.get("type") {
        None | Some(Value::Null) => true,
        Some(t) => t.as_str() == Some("custom"),
    }
}

/// One tool declaration object: name, description, schema (taken out of the
/// object, not cloned) and, where the wire has it, `strict`.
pub(super) fn declaration<'a>(
    src: Src<'a>,
    ptr: &str,
    obj: &mut Map<String, Value>,
    key: &SchemaKey,
    format: Format,
) -> Result<Raw<'a>, LoadError> {
    let name = tool_name(src, ptr, obj)?;
    let description = tool_description(src, ptr, obj)?;
    let strict = if key.strict {
        tool_strict(src, ptr, obj)?
    } else {
        None
    };
    let present: Vec<&str> = key
        .keys
        .iter()
        .copied()
        .filter(|k| obj.contains_key(*k))
        .collect();
    let mut notes = Vec::new();
    let schema = match present.as_slice() {
        [] if key.optional => {
            notes.push(
                "no parameters declared: {\"type\":\"object\",\"properties\":{}} assumed"
                    .to_owned(),
            );
            serde_json::json!({"type": "object", "properties": {}})
        }
        [] if key.lenient && is_custom_tool(obj) => {
            let wanted = key.keys.first().copied().unwrap_or_default();
            notes.push(format!(
                "no \"{wanted}\" declared: the typeless schema {{}} assumed"
            ));
            Value::Object(Map::new())
        }
        [] => {
            let wanted = key.keys.first().copied().unwrap_or_default();
            return Err(src.error(ptr, &format!("missing \"{wanted}\" (format {format})")));
        }
        [first, rest @ ..] => {
            for other in rest {
                notes.push(format!(
                    "both \"{first}\" and \"{other}\" given: \"{first}\" used"
                ));
            }
            let wanted = key.keys.first().copied().unwrap_or_default();
            if key.lenient && *first != wanted {
                notes.push(format!(
                    "schema read from \"{first}\": it is sent as \"{wanted}\""
                ));
            }
            obj.get_mut(*first).map(Value::take).unwrap_or_default()
        }
    };
    Ok(Raw {
        src,
        pointer: ptr.to_owned(),
        name,
        description,
        schema,
        strict,
        notes,
        instances: Vec::new(),
    })
}
