//! Format detection (module docs, "Detection"): decoding the text, telling
//! one JSON document from JSON Lines, and the order in which the shapes of a
//! document and of a tool element are recognized.

use std::path::Path;

use serde_json::Value;

use super::jsonl::{jsonl_line, looks_like_jsonl_line};
use super::locate::{Src, find_container, is_json_ws, json_error, locate, position};
use super::raw::Raw;
use super::single::{looks_like_schema, single_schema};
use super::suite::{is_test_suite, test_suite};
use super::tools::tools_list;
use super::types::Format;
use crate::error::LoadError;

/// The bytes as UTF-8 text without a leading byte-order mark.
pub(super) fn decode<'a>(path: &Path, bytes: &'a [u8]) -> Result<&'a str, LoadError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text.strip_prefix('\u{feff}').unwrap_or(text)),
        Err(e) => {
            let valid = e.valid_up_to();
            let prefix = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
            let (line, column) = position(prefix, valid);
            let byte = bytes.get(valid).copied().unwrap_or_default();
            Err(LoadError::Syntax {
                path: path.to_owned(),
                line,
                column,
                message: format!("invalid utf-8 (byte 0x{byte:02x})"),
            })
        }
    }
}

pub(super) enum Document {
    /// Exactly one JSON value.
    One(Value),
    /// A first object followed by more content: JSON Lines.
    Lines,
}

pub(super) fn parse_document(src: Src<'_>) -> Result<Document, LoadError> {
    let mut stream = serde_json::Deserializer::from_str(src.text).into_iter::<Value>();
    match stream.next() {
        None => match serde_json::from_str::<Value>(src.text) {
            Err(e) => Err(json_error(src.path, &e, 0)),
            Ok(v) => Ok(Document::One(v)),
        },
        Some(Err(e)) => Err(json_error(src.path, &e, 0)),
        Some(Ok(value)) => {
            let rest = src
                .text
                .as_bytes()
                .get(stream.byte_offset()..)
                .unwrap_or_default();
            if rest.iter().copied().all(is_json_ws) {
                Ok(Document::One(value))
            } else if value.is_object() {
                Ok(Document::Lines)
            } else {
                Err(trailing_characters(src))
            }
        }
    }
}

/// `serde_json`'s own error for content after the first value.
pub(super) fn trailing_characters(src: Src<'_>) -> LoadError {
    match serde_json::from_str::<Value>(src.text) {
        Err(e) => json_error(src.path, &e, 0),
        Ok(_) => LoadError::Syntax {
            path: src.path.to_owned(),
            line: 1,
            column: 1,
            message: "trailing characters".to_owned(),
        },
    }
}

/// Auto-detection on a single JSON document (module docs, steps 3–5).
pub(super) fn detect<'a>(
    src: Src<'a>,
    root: &mut Value,
    stem: &str,
) -> Result<(Format, Vec<Raw<'a>>), LoadError> {
    enum Shape {
        TestSuite,
        Tools,
        JsonlLine,
        Schema,
    }
    let shape = match &*root {
        Value::Array(items) if is_test_suite(items) => Shape::TestSuite,
        Value::Array(_) => Shape::Tools,
        Value::Object(obj) => {
            if find_container(src, root)?.is_some() {
                Shape::Tools
            } else if looks_like_jsonl_line(obj) {
                Shape::JsonlLine
            } else if looks_like_schema(obj) {
                Shape::Schema
            } else {
                return Err(unrecognized(src));
            }
        }
        _ => return Err(unrecognized(src)),
    };
    match shape {
        Shape::TestSuite => Ok((Format::TestSuite, test_suite(src, root)?)),
        Shape::Tools => tools_list(src, root, None),
        Shape::JsonlLine => {
            let line_no = locate(src.text, "").0;
            Ok((Format::Jsonl, vec![jsonl_line(src, line_no, root)?]))
        }
        Shape::Schema => Ok((Format::Schema, single_schema(src, root, stem)?)),
    }
}

fn unrecognized(src: Src<'_>) -> LoadError {
    src.error(
        "",
        "unrecognized catalog format: expected a tools array or {\"tools\":[…]} object, \
         json lines, a test-suite file or a json schema",
    )
}
