//! The `openai-chat` (`{type, function:{…}}`) and `openai-responses`
//! (flat `{type:"function", …}`) formats: both call the schema `parameters`.

use serde_json::{Map, Value};

use super::locate::{Src, child};
use super::raw::{Raw, SchemaKey, declaration};
use super::types::Format;
use crate::error::LoadError;

const OPENAI_KEY: SchemaKey = SchemaKey {
    keys: &["parameters"],
    optional: true,
    strict: true,
    lenient: false,
};

/// An `openai-chat` element: `{type?: "function", function: {name,
/// description, parameters, strict}}`.
pub(super) fn chat_tool<'a>(
    src: Src<'a>,
    ptr: &str,
    obj: &mut Map<String, Value>,
    format: Format,
) -> Result<Raw<'a>, LoadError> {
    match obj.get("type") {
        None | Some(Value::Null) => {}
        Some(Value::String(t)) if t == "function" => {}
        Some(_) => {
            return Err(src.error(
                &child(ptr, "type"),
                &format!("expected \"function\" (format {format})"),
            ));
        }
    }
    let fptr = child(ptr, "function");
    match obj.get_mut("function") {
        Some(Value::Object(f)) => declaration(src, &fptr, f, &OPENAI_KEY, format),
        Some(_) => Err(src.error(&fptr, "expected an object")),
        None => Err(src.error(ptr, &format!("missing \"function\" (format {format})"))),
    }
}

/// An `openai-responses` element: `{type: "function", name, description,
/// parameters, strict}`.
pub(super) fn responses_tool<'a>(
    src: Src<'a>,
    ptr: &str,
    obj: &mut Map<String, Value>,
    format: Format,
) -> Result<Raw<'a>, LoadError> {
    match obj.get("type") {
        Some(Value::String(t)) if t == "function" => {}
        Some(_) => {
            return Err(src.error(
                &child(ptr, "type"),
                &format!("expected \"function\" (format {format})"),
            ));
        }
        None => {
            return Err(src.error(ptr, &format!("missing \"type\" (format {format})")));
        }
    }
    declaration(src, ptr, obj, &OPENAI_KEY, format)
}
