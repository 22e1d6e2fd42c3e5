//! Where things are in a catalog document: the tools array
//! ([`find_container`]), the pointers of its members ([`child`]) and the
//! `line:column` of a JSON Pointer ([`locate`]), which every shape error
//! names through [`Src::error`]. The bottom of the catalog module: it uses
//! none of its siblings.

use std::path::Path;

use serde_json::{Map, Value};

use crate::error::LoadError;
use crate::schema;

/// Where a value came from: the text it was parsed from (the whole file, or
/// one JSONL line) and how many lines of the file precede that text.
#[derive(Clone, Copy)]
pub(super) struct Src<'a> {
    pub(super) path: &'a Path,
    pub(super) text: &'a str,
    pub(super) line_base: usize,
}

impl Src<'_> {
    /// A shape error at the value `pointer` names; `message` is prefixed with
    /// the pointer's readable label (`tools[3]: …`).
    pub(super) fn error(&self, pointer: &str, message: &str) -> LoadError {
        let (line, column) = locate(self.text, pointer);
        let label = label(pointer);
        LoadError::Shape {
            path: self.path.to_owned(),
            line: line + self.line_base,
            column,
            message: if label.is_empty() {
                message.to_owned()
            } else {
                format!("{label}: {message}")
            },
        }
    }
}

/// A `serde_json` error, shifted down by `line_base` lines.
pub(super) fn json_error(path: &Path, err: &serde_json::Error, line_base: usize) -> LoadError {
    LoadError::from_json(path, err).shifted(line_base)
}

/// A readable label for a pointer: `/tools/3/function` → `tools[3].function`.
pub(super) fn label(pointer: &str) -> String {
    let mut out = String::new();
    if pointer.is_empty() {
        return out;
    }
    for token in pointer.trim_start_matches('/').split('/') {
        let token = crate::schema::unescape_token(token);
        if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
            out.push('[');
            out.push_str(&token);
            out.push(']');
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&token);
        }
    }
    out
}

/// The pointer of member `token` under `pointer`.
pub(super) fn child(pointer: &str, token: &str) -> String {
    schema::child_path(pointer, token)
}

pub(super) fn is_json_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).copied().is_some_and(is_json_ws) {
        i += 1;
    }
    i
}

/// 1-based line and column (in bytes, like `serde_json`) of byte `offset`.
pub(super) fn position(text: &str, offset: usize) -> (usize, usize) {
    let bytes = text.as_bytes();
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.split(|&c| c == b'\n').count();
    let start = before
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1);
    (line, before.len() - start + 1)
}

/// The 1-based `(line, column)` where the value at JSON Pointer `pointer`
/// starts in the JSON `text` (`""` is the root value). When the pointer does
/// not resolve, the position of the deepest value it does reach.
///
/// Scans the text without building values and without recursion: strings and
/// their escapes are skipped correctly, so brackets inside strings never
/// count. A repeated object key resolves to its last occurrence (the one
/// `serde_json` keeps).
pub(crate) fn locate(text: &str, pointer: &str) -> (usize, usize) {
    let b = text.as_bytes();
    let mut at = skip_ws(b, 0);
    if !pointer.is_empty() {
        for raw in pointer.strip_prefix('/').unwrap_or(pointer).split('/') {
            let token = crate::schema::unescape_token(raw);
            let next = match b.get(at) {
                Some(b'{') => find_member(text, at, &token),
                Some(b'[') => token
                    .parse::<usize>()
                    .ok()
                    .and_then(|n| find_element(b, at, n)),
                _ => None,
            };
            match next {
                Some(p) => at = p,
                None => break,
            }
        }
    }
    position(text, at)
}

/// Index just past the string starting at `i` (which holds `"`).
fn skip_string(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        match b.get(j)? {
            b'\\' => j += 2,
            b'"' => return Some(j + 1),
            _ => j += 1,
        }
    }
}

/// Index just past the value starting at `i`.
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'"' => skip_string(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match b.get(j)? {
                    b'"' => {
                        j = skip_string(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        _ => {
            let mut j = i;
            while let Some(&c) = b.get(j) {
                if matches!(c, b',' | b']' | b'}') || is_json_ws(c) {
                    break;
                }
                j += 1;
            }
            Some(j)
        }
    }
}

/// Start of the value of member `token` in the object opening at `open`.
fn find_member(text: &str, open: usize, token: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = skip_ws(b, open + 1);
    let mut found = None;
    loop {
        if b.get(i) != Some(&b'"') {
            return found;
        }
        let end = skip_string(b, i)?;
        let raw = b.get(i + 1..end - 1)?;
        let matches = if raw.contains(&b'\\') {
            text.get(i..end)
                .and_then(|quoted| serde_json::from_str::<String>(quoted).ok())
                .is_some_and(|key| key == token)
        } else {
            raw == token.as_bytes()
        };
        i = skip_ws(b, end);
        if b.get(i) != Some(&b':') {
            return found;
        }
        i = skip_ws(b, i + 1);
        if matches {
            found = Some(i);
        }
        i = skip_ws(b, skip_value(b, i)?);
        if b.get(i) == Some(&b',') {
            i = skip_ws(b, i + 1);
        } else {
            return found;
        }
    }
}

/// Start of element `n` of the array opening at `open`.
fn find_element(b: &[u8], open: usize, n: usize) -> Option<usize> {
    let mut i = skip_ws(b, open + 1);
    if matches!(b.get(i), None | Some(b']')) {
        return None;
    }
    for _ in 0..n {
        i = skip_ws(b, skip_value(b, i)?);
        if b.get(i) != Some(&b',') {
            return None;
        }
        i = skip_ws(b, i + 1);
    }
    Some(i)
}

/// Where a tools array sits in the document.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Origin {
    /// The document is the array.
    Bare,
    /// `{"tools":[…]}`; `extra` when the object has other keys too.
    ToolsKey { extra: bool },
    /// `{"jsonrpc",…,"result":{"tools":[…]}}`.
    RpcResult,
    /// `{"toolConfig":{"tools":[…]}}` (Bedrock Converse).
    ToolConfig,
    /// `{"functionDeclarations":[…]}` (Gemini).
    Declarations,
}

/// The key a Gemini object holds its function declarations under (either
/// spelling), if any.
pub(super) fn declarations_key(obj: &Map<String, Value>) -> Option<&'static str> {
    ["functionDeclarations", "function_declarations"]
        .into_iter()
        .find(|k| obj.contains_key(*k))
}

/// Find the tools array: its pointer and where it sits. `Ok(None)` when the
/// document has none.
pub(super) fn find_container(
    src: Src<'_>,
    root: &Value,
) -> Result<Option<(String, Origin)>, LoadError> {
    match root {
        Value::Array(_) => Ok(Some((String::new(), Origin::Bare))),
        Value::Object(obj) => {
            if obj.contains_key("jsonrpc") {
                if obj.contains_key("error") {
                    return Err(
                        src.error("/error", "json-rpc error response, not a tools/list result")
                    );
                }
                let tools = obj
                    .get("result")
                    .and_then(Value::as_object)
                    .and_then(|r| r.get("tools"));
                return match tools {
                    Some(Value::Array(_)) => {
                        Ok(Some(("/result/tools".to_owned(), Origin::RpcResult)))
                    }
                    Some(_) => Err(src.error("/result/tools", "expected an array of tools")),
                    None => Err(src.error("", "json-rpc message without a result.tools array")),
                };
            }
            if let Some(Value::Object(config)) = obj.get("toolConfig")
                && let Some(tools) = config.get("tools")
            {
                return if tools.is_array() {
                    Ok(Some(("/toolConfig/tools".to_owned(), Origin::ToolConfig)))
                } else {
                    Err(src.error("/toolConfig/tools", "expected an array of tools"))
                };
            }
            if let Some(key) = declarations_key(obj) {
                let ptr = child("", key);
                return if obj.get(key).is_some_and(Value::is_array) {
                    Ok(Some((ptr, Origin::Declarations)))
                } else {
                    Err(src.error(&ptr, "expected an array of function declarations"))
                };
            }
            match obj.get("tools") {
                Some(Value::Array(_)) => Ok(Some((
                    "/tools".to_owned(),
                    Origin::ToolsKey {
                        extra: obj.len() > 1,
                    },
                ))),
                Some(_) => Err(src.error("/tools", "expected an array of tools")),
                None => Ok(None),
            }
        }
        _ => Ok(None),
    }
}
