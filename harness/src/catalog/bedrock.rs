//! The `bedrock` format: Converse `toolSpec` entries (`inputSchema.json`);
//! `cachePoint` entries are skipped.

use serde_json::{Map, Value};

use super::locate::{Src, child};
use super::raw::{Raw, tool_description, tool_name};
use super::types::Format;
use crate::error::LoadError;

pub(super) fn is_cache_point(obj: &Map<String, Value>) -> bool {
    obj.len() == 1 && obj.contains_key("cachePoint")
}

/// One Bedrock element: the tool its `toolSpec` declares, `None` for a
/// `cachePoint`.
pub(super) fn tool_spec<'a>(
    src: Src<'a>,
    ptr: &str,
    obj: &mut Map<String, Value>,
    format: Format,
) -> Result<Option<Raw<'a>>, LoadError> {
    if is_cache_point(obj) {
        return Ok(None);
    }
    let sptr = child(ptr, "toolSpec");
    let spec = match obj.get_mut("toolSpec") {
        Some(Value::Object(spec)) => spec,
        Some(_) => return Err(src.error(&sptr, "expected an object")),
        None => {
            return Err(src.error(ptr, &format!("missing \"toolSpec\" (format {format})")));
        }
    };
    let name = tool_name(src, &sptr, spec)?;
    let description = tool_description(src, &sptr, spec)?;
    let iptr = child(&sptr, "inputSchema");
    let schema = match spec.get_mut("inputSchema") {
        Some(Value::Object(input)) => match input.get_mut("json") {
            Some(json) => json.take(),
            None => return Err(src.error(&iptr, "missing \"json\"")),
        },
        Some(_) => return Err(src.error(&iptr, "expected an object {\"json\":…}")),
        None => return Err(src.error(&sptr, "missing \"inputSchema\"")),
    };
    Ok(Some(Raw {
        src,
        pointer: sptr,
        name,
        description,
        schema,
        strict: None,
        notes: Vec::new(),
        instances: Vec::new(),
    }))
}
