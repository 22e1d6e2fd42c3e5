//! The `gemini` format: function declarations (`parameters` or
//! `parametersJsonSchema`), bare or inside `functionDeclarations` wrappers.

use serde_json::{Map, Value};

use super::locate::{Src, child, declarations_key};
use super::raw::{Raw, SchemaKey, declaration};
use super::types::Format;
use crate::error::LoadError;

pub(super) const GEMINI_KEY: SchemaKey = SchemaKey {
    keys: &[
        "parametersJsonSchema",
        "parameters_json_schema",
        "parameters",
    ],
    optional: true,
    strict: false,
    lenient: false,
};

/// A `{"functionDeclarations":[…]}` element: each declaration is a tool.
pub(super) fn wrapper_tools<'a>(
    src: Src<'a>,
    ptr: &str,
    obj: &mut Map<String, Value>,
    format: Format,
    raws: &mut Vec<Raw<'a>>,
) -> Result<(), LoadError> {
    let Some(key) = declarations_key(obj) else {
        return Err(src.error(
            ptr,
            &format!("missing \"functionDeclarations\" (format {format})"),
        ));
    };
    let dptr = child(ptr, key);
    let Some(Value::Array(decls)) = obj.get_mut(key) else {
        return Err(src.error(&dptr, "expected an array of function declarations"));
    };
    for (j, decl) in decls.iter_mut().enumerate() {
        let decl_ptr = format!("{dptr}/{j}");
        let Value::Object(d) = decl else {
            return Err(src.error(&decl_ptr, "expected a function declaration object"));
        };
        raws.push(declaration(src, &decl_ptr, d, &GEMINI_KEY, format)?);
    }
    Ok(())
}
