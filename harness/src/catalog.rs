//! Catalog loading: every file format that carries tools, turned into [`Tool`]s.
//!
//! Owns [`Format`], [`Catalog`], [`LoadNote`], the loaders
//! ([`load_catalog`], [`load_catalog_bytes`]), format detection, the BFCL
//! dialect translation and [`locate`] (JSON Pointer → `line:column`). Walking
//! directories of catalogs lives in `corpus`.
//!
//! Schemas are kept exactly as the file gives them (same values, same key
//! order); the only rewrite is the BFCL dialect translation, and every change
//! it makes is recorded as a [`LoadNote`].
//!
//! # Formats
//!
//! | id | shape |
//! |---|---|
//! | `mcp` | `{"tools":[{name,description,inputSchema}]}` (a `tools/list` result), the same inside a JSON-RPC envelope `{"jsonrpc","id","result":{"tools":[…]}}`, or a bare array |
//! | `anthropic` | bare array or `{"tools":[…]}` of `{name,description,input_schema,strict?}`; a custom tool whose schema sits under `inputSchema` is read from there (noted), one with neither key gets the typeless schema `{}` (noted) |
//! | `openai-chat` | bare array or `{"tools":[…]}` of `{type:"function",function:{name,description,parameters,strict}}` |
//! | `openai-responses` | bare array or `{"tools":[…]}` of `{type:"function",name,description,parameters,strict}` |
//! | `gemini` | `[{"functionDeclarations":[…]}]`, `{"tools":[{"functionDeclarations":[…]}]}`, `{"functionDeclarations":[…]}` or a bare array of declarations `{name,description,parameters\|parametersJsonSchema}` (`function_declarations`/`parameters_json_schema` also accepted) |
//! | `bedrock` | `[{"toolSpec":{name,description,inputSchema:{json}}}]`, `{"tools":[…]}` or `{"toolConfig":{"tools":[…]}}`; `{"cachePoint":…}` entries are skipped |
//! | `shared-corpus` | `{"source","commit","path",…,"tools":[{name,description,input_schema,…}]}`: extra top-level and per-tool keys are ignored |
//! | `bfcl` | any tools-array shape above whose schemas use the BFCL dialect (see below), translated |
//! | `jsonl` | one JSON object per line: benchmark lines `{"id","description","schema",…}` (tool named by `id`, else `line-N`) or history lines `{name,input_schema,commit,…}` (tool named `<name>@<commit[..7]>`); a line's `strict` flag is kept; blank lines skipped |
//! | `test-suite` | JSON-Schema-Test-Suite: a top-level array of `{description,schema,tests}` groups, one tool per group named by the slug of its description (`group-N` when that is empty) |
//! | `schema` | a single schema document (object, or boolean when forced): one tool named after the file stem |
//!
//! Per tool, `description` may be absent or `null`; `strict` is read where the
//! wire has it (anthropic, openai-chat, openai-responses). `OpenAI` and Gemini
//! tools may omit their parameters: `{"type":"object","properties":{}}` is
//! assumed and a note says so. Unknown per-tool keys are ignored in every format.
//!
//! # Detection (when no format is forced)
//!
//! Deterministic, on content only (the path's extension is never consulted):
//!
//! 1. Invalid UTF-8 is an error; a leading byte-order mark is dropped.
//! 2. The text is parsed as one JSON value. If more non-whitespace follows a
//!    first value that is an object, the file is **jsonl**.
//! 3. A top-level **array**: empty → `mcp` with no tools; every element an
//!    object with `schema` and `tests` → **test-suite**; otherwise a tools array.
//! 4. A top-level **object**, first match wins: `jsonrpc` (its `result.tools`;
//!    an `error` response is refused) → `toolConfig.tools` → `functionDeclarations`
//!    → `tools` (must be an array) → a single jsonl line (`schema`, or `name` +
//!    `input_schema`) → a schema (empty, or any JSON Schema keyword such as
//!    `type`, `properties`, `$schema`, `anyOf`, `$ref`, `$defs`, `enum`, `items`,
//!    `$id`, `required`, …) → otherwise an error.
//! 5. A tools array's kind comes from its first object element (Bedrock
//!    `cachePoint` entries skipped): `toolSpec` → bedrock;
//!    `functionDeclarations` → gemini; `function` → openai-chat;
//!    `type:"function"` → openai-responses; `inputSchema` → mcp;
//!    `input_schema` → anthropic, or **shared-corpus** when the array is the
//!    `tools` of an object with other top-level keys; `parameters` /
//!    `parametersJsonSchema` → gemini (bare declarations). Every element is then
//!    read as that kind. An empty list is mcp (gemini/bedrock/shared-corpus when
//!    its container says so).
//! 6. A tools-array catalog whose schemas use a BFCL marker type (`dict`,
//!    `float`, `tuple`, `any`) as `type` in a schema position becomes **bfcl**.
//!
//! Forcing a format reads the data as that format only and fails with a shape
//! error naming the first mismatch; forcing `shared-corpus` (or any other
//! tools format) on a BFCL file loads the dialect untranslated.
//!
//! # BFCL dialect
//!
//! Only `type` in schema positions (walked with [`crate::schema`]'s
//! traversal: name maps are not schemas, literals are never entered) and the
//! non-standard `optional` keyword are touched; each change is a [`LoadNote`]:
//!
//! - `dict`, `HashMap`, `Hashtable` → `object`; `float`, `double` → `number`;
//!   `tuple`, `list`, `Array`, `ArrayList`, `Queue`, `Stack` → `array`;
//!   `long`, `short`, `byte`, `int` → `integer`; `char`, `str` → `string`;
//!   `bool` → `boolean`; a capitalized JSON type (`String`, `Boolean`, …) →
//!   its lowercase form (message `bfcl: type "dict" translated to "object"`);
//! - `any` → the `type` keyword is removed (any value);
//! - any other non-JSON-Schema type name (including `""`) → removed, noted;
//! - `optional` (`true`, `"yes"`, or a list of names: BFCL's own, not JSON
//!   Schema; `required` already says which properties are required) → removed.
//!
//! # Names and errors
//!
//! Tool names are unique within a catalog: a repeated name gets `~2`, `~3`, …
//! (the first free one), with a note. Every [`LoadError`] names
//! `path:line:column`; shape errors point at the offending value (a tool with
//! no `name` at that tool object) via [`locate`].

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde_json::{Map, Value};

use crate::error::{LoadError, UsageError};
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

/// A catalog file format (see the module docs for each shape).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    McpToolsList,
    AnthropicTools,
    OpenaiChatTools,
    OpenaiResponsesTools,
    GeminiTools,
    BedrockTools,
    SharedCorpus,
    Bfcl,
    Jsonl,
    TestSuite,
    Schema,
}

impl Format {
    /// Every format, in declaration order.
    pub const ALL: &'static [Format] = &[
        Format::McpToolsList,
        Format::AnthropicTools,
        Format::OpenaiChatTools,
        Format::OpenaiResponsesTools,
        Format::GeminiTools,
        Format::BedrockTools,
        Format::SharedCorpus,
        Format::Bfcl,
        Format::Jsonl,
        Format::TestSuite,
        Format::Schema,
    ];

    /// The stable kebab-case id (`--format` value).
    pub fn id(self) -> &'static str {
        match self {
            Format::McpToolsList => "mcp",
            Format::AnthropicTools => "anthropic",
            Format::OpenaiChatTools => "openai-chat",
            Format::OpenaiResponsesTools => "openai-responses",
            Format::GeminiTools => "gemini",
            Format::BedrockTools => "bedrock",
            Format::SharedCorpus => "shared-corpus",
            Format::Bfcl => "bfcl",
            Format::Jsonl => "jsonl",
            Format::TestSuite => "test-suite",
            Format::Schema => "schema",
        }
    }

    /// The format with this id (exact match).
    pub fn parse(s: &str) -> Result<Format, UsageError> {
        Format::ALL
            .iter()
            .copied()
            .find(|f| f.id() == s)
            .ok_or_else(|| UsageError::UnknownFormat(s.to_owned()))
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for Format {
    type Err = UsageError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Format::parse(s)
    }
}

/// Something the loader did to a tool that the file did not literally say:
/// a BFCL translation, a rename of a duplicate name, an assumed schema.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LoadNote {
    /// The tool's (final, unique) name; empty for a note about the catalog.
    pub tool: String,
    /// JSON Pointer inside that tool's `input_schema`; `""` is the root.
    pub path: String,
    pub message: String,
}

/// One loaded catalog file.
#[derive(Debug, Clone, PartialEq)]
pub struct Catalog {
    /// `load_catalog`: the file stem; `scan_corpus`: the path relative to the corpus.
    pub id: String,
    pub path: PathBuf,
    /// The detected (or forced) format.
    pub format: Format,
    /// In file order, with unique names.
    pub tools: Vec<Tool>,
    /// Per tool (same index), the instances the source gives with their
    /// expected verdict (JSONSchemaBench `tests`, JSON-Schema-Test-Suite
    /// cases); empty for most catalogs.
    pub instances: Vec<Vec<KnownInstance>>,
    pub notes: Vec<LoadNote>,
}

/// An instance a corpus gives for a schema, with its expected verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct KnownInstance {
    pub data: Value,
    pub valid: bool,
}

/// The `tests` of a benchmark line or test-suite group: each `{data,
/// valid}` entry (others are skipped: the instances are context, not the
/// tool).
fn known_instances(obj: &Map<String, Value>) -> Vec<KnownInstance> {
    obj.get("tests")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| {
            Some(KnownInstance {
                data: t.get("data")?.clone(),
                valid: t.get("valid")?.as_bool()?,
            })
        })
        .collect()
}

/// Read and load a catalog file; the catalog id is the file stem.
pub fn load_catalog(path: &Path, format: Option<Format>) -> Result<Catalog, LoadError> {
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
        path: path.to_owned(),
        source,
    })?;
    let id = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    load_catalog_bytes(&id, path, &bytes, format)
}

/// Load a catalog from bytes. `path` names the file in messages (and its stem
/// names the tool of a single-schema file); it is never read.
pub fn load_catalog_bytes(
    id: &str,
    path: &Path,
    bytes: &[u8],
    format: Option<Format>,
) -> Result<Catalog, LoadError> {
    let text = decode(path, bytes)?;
    let whole = Src {
        path,
        text,
        line_base: 0,
    };
    let stem = path
        .file_stem()
        .map_or_else(|| id.to_owned(), |s| s.to_string_lossy().into_owned());

    let (detected, raws) = if format == Some(Format::Jsonl) {
        (Format::Jsonl, jsonl_tools(path, text)?)
    } else {
        match parse_document(whole)? {
            Document::Lines if format.is_none() => (Format::Jsonl, jsonl_tools(path, text)?),
            Document::Lines => return Err(trailing_characters(whole)),
            Document::One(mut root) => match format {
                None => detect(whole, &mut root, &stem)?,
                Some(Format::TestSuite) => (Format::TestSuite, test_suite(whole, &mut root)?),
                Some(Format::Schema) => (Format::Schema, single_schema(whole, &mut root, &stem)?),
                Some(Format::Bfcl) => (Format::Bfcl, tools_list(whole, &mut root, None)?.1),
                Some(f) => tools_list(whole, &mut root, Some(f))?,
            },
        }
    };

    let sniff_bfcl = format.is_none() && is_tools_format(detected);
    let (format, tools, instances, notes) = finish(detected, raws, sniff_bfcl)?;
    Ok(Catalog {
        id: id.to_owned(),
        path: path.to_owned(),
        format,
        tools,
        instances,
        notes,
    })
}

// ---------------------------------------------------------------------------
// Sources, positions, messages

/// Where a value came from: the text it was parsed from (the whole file, or
/// one JSONL line) and how many lines of the file precede that text.
#[derive(Clone, Copy)]
struct Src<'a> {
    path: &'a Path,
    text: &'a str,
    line_base: usize,
}

impl Src<'_> {
    /// A shape error at the value `pointer` names; `message` is prefixed with
    /// the pointer's readable label (`tools[3]: …`).
    fn error(&self, pointer: &str, message: &str) -> LoadError {
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
fn json_error(path: &Path, err: &serde_json::Error, line_base: usize) -> LoadError {
    LoadError::from_json(path, err).shifted(line_base)
}

/// A readable label for a pointer: `/tools/3/function` → `tools[3].function`.
fn label(pointer: &str) -> String {
    let mut out = String::new();
    if pointer.is_empty() {
        return out;
    }
    for token in pointer.trim_start_matches('/').split('/') {
        let token = token.replace("~1", "/").replace("~0", "~");
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

fn is_json_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).copied().is_some_and(is_json_ws) {
        i += 1;
    }
    i
}

/// 1-based line and column (in bytes, like `serde_json`) of byte `offset`.
fn position(text: &str, offset: usize) -> (usize, usize) {
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
            let token = raw.replace("~1", "/").replace("~0", "~");
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

// ---------------------------------------------------------------------------
// Text and documents

/// The bytes as UTF-8 text without a leading byte-order mark.
fn decode<'a>(path: &Path, bytes: &'a [u8]) -> Result<&'a str, LoadError> {
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

enum Document {
    /// Exactly one JSON value.
    One(Value),
    /// A first object followed by more content: JSON Lines.
    Lines,
}

fn parse_document(src: Src<'_>) -> Result<Document, LoadError> {
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
fn trailing_characters(src: Src<'_>) -> LoadError {
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

// ---------------------------------------------------------------------------
// Raw tools: what each format yields before names are made unique

struct Raw<'a> {
    src: Src<'a>,
    /// Pointer of the tool object (inside `src.text`).
    pointer: String,
    name: String,
    description: Option<String>,
    schema: Value,
    strict: Option<bool>,
    /// Root-level notes (`path` ""), attached once the final name is known.
    notes: Vec<String>,
    /// Instances the source gives with their expected verdict.
    instances: Vec<KnownInstance>,
}

fn child(pointer: &str, token: &str) -> String {
    schema::child_path(pointer, token)
}

fn tool_name(src: Src<'_>, ptr: &str, obj: &Map<String, Value>) -> Result<String, LoadError> {
    match obj.get("name") {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(src.error(ptr, "\"name\" is not a string")),
        None => Err(src.error(ptr, "missing \"name\"")),
    }
}

fn tool_description(
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

fn tool_strict(
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
struct SchemaKey {
    /// Candidate keys, preferred first.
    keys: &'static [&'static str],
    /// `false`: a missing schema is an error; `true`: an empty object schema
    /// is assumed (`OpenAI` and Gemini let a function declare no parameters).
    optional: bool,
    strict: bool,
    /// Anthropic custom tools: a missing schema is read as the typeless
    /// `{}` (the v1 object floor types it), and a schema found under a later
    /// key than the first gets a note (it renders under the first).
    lenient: bool,
}

const MCP_KEY: SchemaKey = SchemaKey {
    keys: &["inputSchema"],
    optional: false,
    strict: false,
    lenient: false,
};
/// Anthropic custom tools. `inputSchema` (the Converse/MCP spelling, which
/// the Messages endpoint refuses: recording
/// `anthropic-bedrock-invoke-input-schema-key-549`) is read as the schema
/// and renders as `input_schema`; a tool with neither (recording
/// `anthropic-input-schema-missing-1`) is read as the typeless `{}`.
const ANTHROPIC_KEY: SchemaKey = SchemaKey {
    keys: &["input_schema", "inputSchema"],
    optional: false,
    strict: true,
    lenient: true,
};
const SHARED_KEY: SchemaKey = SchemaKey {
    keys: &["input_schema"],
    optional: false,
    // A catalog may pin the tool's `strict` flag (the project's fixtures do).
    strict: true,
    lenient: false,
};
const OPENAI_KEY: SchemaKey = SchemaKey {
    keys: &["parameters"],
    optional: true,
    strict: true,
    lenient: false,
};
const GEMINI_KEY: SchemaKey = SchemaKey {
    keys: &[
        "parametersJsonSchema",
        "parameters_json_schema",
        "parameters",
    ],
    optional: true,
    strict: false,
    lenient: false,
};

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
fn declaration<'a>(
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

// ---------------------------------------------------------------------------
// Tools arrays (mcp, anthropic, openai-*, gemini, bedrock, shared-corpus, bfcl)

/// Where a tools array sits in the document.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Origin {
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

/// The kind of element a tools array holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Mcp,
    Anthropic,
    Shared,
    Chat,
    Responses,
    GeminiWrapper,
    GeminiDecl,
    Bedrock,
}

impl Kind {
    fn format(self) -> Format {
        match self {
            Kind::Mcp => Format::McpToolsList,
            Kind::Anthropic => Format::AnthropicTools,
            Kind::Shared => Format::SharedCorpus,
            Kind::Chat => Format::OpenaiChatTools,
            Kind::Responses => Format::OpenaiResponsesTools,
            Kind::GeminiWrapper | Kind::GeminiDecl => Format::GeminiTools,
            Kind::Bedrock => Format::BedrockTools,
        }
    }
}

fn is_tools_format(f: Format) -> bool {
    matches!(
        f,
        Format::McpToolsList
            | Format::AnthropicTools
            | Format::OpenaiChatTools
            | Format::OpenaiResponsesTools
            | Format::GeminiTools
            | Format::BedrockTools
            | Format::SharedCorpus
    )
}

fn declarations_key(obj: &Map<String, Value>) -> Option<&'static str> {
    ["functionDeclarations", "function_declarations"]
        .into_iter()
        .find(|k| obj.contains_key(*k))
}

/// Find the tools array: its pointer and where it sits. `Ok(None)` when the
/// document has none.
fn find_container(src: Src<'_>, root: &Value) -> Result<Option<(String, Origin)>, LoadError> {
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

fn is_cache_point(obj: &Map<String, Value>) -> bool {
    obj.len() == 1 && obj.contains_key("cachePoint")
}

/// The element kind of one tool object (auto-detection order).
fn element_kind(obj: &Map<String, Value>) -> Option<Kind> {
    if obj.contains_key("toolSpec") {
        Some(Kind::Bedrock)
    } else if declarations_key(obj).is_some() {
        Some(Kind::GeminiWrapper)
    } else if obj.get("function").is_some_and(Value::is_object) {
        Some(Kind::Chat)
    } else if obj.get("type").and_then(Value::as_str) == Some("function") {
        Some(Kind::Responses)
    } else if obj.contains_key("inputSchema") {
        Some(Kind::Mcp)
    } else if obj.contains_key("input_schema") {
        Some(Kind::Anthropic)
    } else if GEMINI_KEY.keys.iter().any(|k| obj.contains_key(*k)) {
        Some(Kind::GeminiDecl)
    } else {
        None
    }
}

fn expected_containers(format: Format) -> &'static str {
    match format {
        Format::McpToolsList => {
            "{\"tools\":[…]}, a json-rpc tools/list response or a bare array of tools"
        }
        Format::SharedCorpus => "an object with a \"tools\" array",
        Format::GeminiTools => "{\"functionDeclarations\":[…]}, {\"tools\":[…]} or a bare array",
        Format::BedrockTools => "{\"toolConfig\":{\"tools\":[…]}}, {\"tools\":[…]} or a bare array",
        _ => "{\"tools\":[…]} or a bare array of tools",
    }
}

/// Read a tools array. `want` forces a tools format; `None` detects the
/// element kind (auto and bfcl).
fn tools_list<'a>(
    src: Src<'a>,
    root: &mut Value,
    want: Option<Format>,
) -> Result<(Format, Vec<Raw<'a>>), LoadError> {
    let Some((ptr, origin)) = find_container(src, root)? else {
        let f = want.unwrap_or(Format::Bfcl);
        let expected = expected_containers(f);
        return Err(src.error("", &format!("format {f} expects {expected}")));
    };
    if let Some(f) = want {
        let allowed = match f {
            Format::McpToolsList => matches!(
                origin,
                Origin::Bare | Origin::ToolsKey { .. } | Origin::RpcResult
            ),
            Format::SharedCorpus => matches!(origin, Origin::ToolsKey { .. }),
            Format::GeminiTools => matches!(
                origin,
                Origin::Bare | Origin::ToolsKey { .. } | Origin::Declarations
            ),
            Format::BedrockTools => matches!(
                origin,
                Origin::Bare | Origin::ToolsKey { .. } | Origin::ToolConfig
            ),
            _ => matches!(origin, Origin::Bare | Origin::ToolsKey { .. }),
        };
        if !allowed {
            return Err(src.error(
                "",
                &format!("format {f} expects {}", expected_containers(f)),
            ));
        }
    }
    let Some(items) = root.pointer_mut(&ptr).and_then(Value::as_array_mut) else {
        return Err(src.error(&ptr, "expected an array of tools"));
    };

    let first = items
        .iter()
        .enumerate()
        .find_map(|(i, v)| v.as_object().filter(|o| !is_cache_point(o)).map(|o| (i, o)));
    let kind = match (want, origin) {
        (Some(Format::McpToolsList), _) => Kind::Mcp,
        (Some(Format::AnthropicTools), _) => Kind::Anthropic,
        (Some(Format::SharedCorpus), _) => Kind::Shared,
        (Some(Format::OpenaiChatTools), _) => Kind::Chat,
        (Some(Format::OpenaiResponsesTools), _) => Kind::Responses,
        (Some(Format::BedrockTools), _) | (_, Origin::ToolConfig) => Kind::Bedrock,
        (_, Origin::Declarations) => Kind::GeminiDecl,
        (Some(Format::GeminiTools), _) => match first {
            Some((_, o)) if declarations_key(o).is_some() => Kind::GeminiWrapper,
            _ => Kind::GeminiDecl,
        },
        _ => match first {
            None if origin == (Origin::ToolsKey { extra: true }) => Kind::Shared,
            None => Kind::Mcp,
            Some((i, o)) => match element_kind(o) {
                Some(Kind::Anthropic) if origin == (Origin::ToolsKey { extra: true }) => {
                    Kind::Shared
                }
                Some(k) => k,
                None => {
                    return Err(src.error(
                        &format!("{ptr}/{i}"),
                        "unrecognized tool shape (expected one of inputSchema, input_schema, \
                         function, type \"function\", parameters, toolSpec, functionDeclarations)",
                    ));
                }
            },
        },
    };

    let mut raws = Vec::with_capacity(items.len());
    for (i, item) in items.iter_mut().enumerate() {
        let item_ptr = format!("{ptr}/{i}");
        let Value::Object(obj) = item else {
            return Err(src.error(&item_ptr, "expected a tool object"));
        };
        read_element(src, &item_ptr, obj, kind, &mut raws)?;
    }
    Ok((kind.format(), raws))
}

fn read_element<'a>(
    src: Src<'a>,
    ptr: &str,
    obj: &mut Map<String, Value>,
    kind: Kind,
    raws: &mut Vec<Raw<'a>>,
) -> Result<(), LoadError> {
    let format = kind.format();
    match kind {
        Kind::Mcp => raws.push(declaration(src, ptr, obj, &MCP_KEY, format)?),
        Kind::Anthropic => raws.push(declaration(src, ptr, obj, &ANTHROPIC_KEY, format)?),
        Kind::Shared => raws.push(declaration(src, ptr, obj, &SHARED_KEY, format)?),
        Kind::GeminiDecl => raws.push(declaration(src, ptr, obj, &GEMINI_KEY, format)?),
        Kind::Chat => {
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
                Some(Value::Object(f)) => {
                    raws.push(declaration(src, &fptr, f, &OPENAI_KEY, format)?);
                }
                Some(_) => return Err(src.error(&fptr, "expected an object")),
                None => {
                    return Err(src.error(ptr, &format!("missing \"function\" (format {format})")));
                }
            }
        }
        Kind::Responses => {
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
            raws.push(declaration(src, ptr, obj, &OPENAI_KEY, format)?);
        }
        Kind::GeminiWrapper => {
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
        }
        Kind::Bedrock => {
            if is_cache_point(obj) {
                return Ok(());
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
            raws.push(Raw {
                src,
                pointer: sptr,
                name,
                description,
                schema,
                strict: None,
                notes: Vec::new(),
                instances: Vec::new(),
            });
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// JSON Lines, test-suite files, single schemas

fn jsonl_tools<'a>(path: &'a Path, text: &'a str) -> Result<Vec<Raw<'a>>, LoadError> {
    let mut raws = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.bytes().all(is_json_ws) {
            continue;
        }
        let src = Src {
            path,
            text: line,
            line_base: i,
        };
        let mut value: Value = serde_json::from_str(line).map_err(|e| json_error(path, &e, i))?;
        raws.push(jsonl_line(src, i + 1, &mut value)?);
    }
    Ok(raws)
}

/// One JSON Lines record: a benchmark line (`schema`) or a history line
/// (`name` + `input_schema`).
fn jsonl_line<'a>(src: Src<'a>, line_no: usize, value: &mut Value) -> Result<Raw<'a>, LoadError> {
    let Value::Object(obj) = value else {
        return Err(src.error("", "expected a json object"));
    };
    let description = tool_description(src, "", obj)?;
    let strict = tool_strict(src, "", obj)?;
    let instances = known_instances(obj);
    let (name, schema) = if obj.contains_key("schema") {
        let name = match obj.get("id") {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            Some(Value::Number(n)) => n.to_string(),
            _ => format!("line-{line_no}"),
        };
        (
            name,
            obj.get_mut("schema").map(Value::take).unwrap_or_default(),
        )
    } else if obj.contains_key("input_schema") {
        let name = tool_name(src, "", obj)?;
        let name = match obj.get("commit") {
            Some(Value::String(c)) if !c.is_empty() => {
                format!("{name}@{}", c.chars().take(7).collect::<String>())
            }
            _ => name,
        };
        (
            name,
            obj.get_mut("input_schema")
                .map(Value::take)
                .unwrap_or_default(),
        )
    } else {
        return Err(src.error(
            "",
            "expected a benchmark line with \"schema\" or a history line with \"name\" and \"input_schema\"",
        ));
    };
    Ok(Raw {
        src,
        pointer: String::new(),
        name,
        description,
        schema,
        strict,
        notes: Vec::new(),
        instances,
    })
}

/// Lowercase ASCII alphanumerics, every other run of characters one `-`,
/// no leading or trailing `-`.
fn slug(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

fn is_test_suite(items: &[Value]) -> bool {
    !items.is_empty()
        && items.iter().all(|g| {
            g.as_object()
                .is_some_and(|o| o.contains_key("schema") && o.contains_key("tests"))
        })
}

fn test_suite<'a>(src: Src<'a>, root: &mut Value) -> Result<Vec<Raw<'a>>, LoadError> {
    let Value::Array(groups) = root else {
        return Err(src.error(
            "",
            "format test-suite expects a top-level array of {description, schema, tests} groups",
        ));
    };
    let mut raws = Vec::with_capacity(groups.len());
    for (i, group) in groups.iter_mut().enumerate() {
        let ptr = format!("/{i}");
        let Value::Object(obj) = group else {
            return Err(src.error(&ptr, "expected a test group object"));
        };
        let Some(schema) = obj.get_mut("schema").map(Value::take) else {
            return Err(src.error(&ptr, "missing \"schema\" (format test-suite)"));
        };
        let description = tool_description(src, &ptr, obj)?;
        let instances = known_instances(obj);
        let name = description
            .as_deref()
            .map(slug)
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| format!("group-{i}"));
        raws.push(Raw {
            src,
            pointer: ptr,
            name,
            description,
            schema,
            strict: None,
            notes: Vec::new(),
            instances,
        });
    }
    Ok(raws)
}

/// JSON Schema keywords: an object with any of these (or no keys at all) is
/// taken for a schema document.
const SCHEMA_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "$schema",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "definitions",
    "$defs",
    "enum",
    "items",
    "$id",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
    "const",
    "not",
    "if",
    "then",
    "else",
    "required",
    "additionalProperties",
    "patternProperties",
    "prefixItems",
    "contains",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
];

fn looks_like_schema(obj: &Map<String, Value>) -> bool {
    obj.is_empty() || obj.keys().any(|k| SCHEMA_KEYWORDS.contains(&k.as_str()))
}

fn looks_like_jsonl_line(obj: &Map<String, Value>) -> bool {
    obj.get("schema")
        .is_some_and(|s| s.is_object() || s.is_boolean())
        || (obj.contains_key("name") && obj.contains_key("input_schema"))
}

fn single_schema<'a>(
    src: Src<'a>,
    root: &mut Value,
    stem: &str,
) -> Result<Vec<Raw<'a>>, LoadError> {
    if !(root.is_object() || root.is_boolean()) {
        return Err(src.error("", "format schema expects a json object or boolean"));
    }
    Ok(vec![Raw {
        src,
        pointer: String::new(),
        name: stem.to_owned(),
        description: None,
        schema: root.take(),
        strict: None,
        notes: Vec::new(),
        instances: Vec::new(),
    }])
}

/// Auto-detection on a single JSON document (module docs, steps 3–5).
fn detect<'a>(
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

// ---------------------------------------------------------------------------
// Unique names, BFCL, depth

/// Make names unique, translate BFCL, check depth; decide bfcl when sniffing.
fn finish(format: Format, raws: Vec<Raw<'_>>, sniff_bfcl: bool) -> Result<Finished, LoadError> {
    let mut format = format;
    if sniff_bfcl {
        for raw in &raws {
            if uses_bfcl_types(&raw.schema).map_err(|e| too_deep(raw, &raw.name, &e))? {
                format = Format::Bfcl;
                break;
            }
        }
    }

    let mut used: HashSet<String> = HashSet::with_capacity(raws.len());
    let mut next_suffix: HashMap<String, usize> = HashMap::new();
    let mut tools = Vec::with_capacity(raws.len());
    let mut instances = Vec::with_capacity(raws.len());
    let mut notes = Vec::new();
    for mut raw in raws {
        let name = unique_name(&mut used, &mut next_suffix, &raw.name);
        if name != raw.name {
            notes.push(LoadNote {
                tool: name.clone(),
                path: String::new(),
                message: format!("duplicate tool name \"{}\" renamed to \"{name}\"", raw.name),
            });
        }
        for message in raw.notes.drain(..) {
            notes.push(LoadNote {
                tool: name.clone(),
                path: String::new(),
                message,
            });
        }
        let mut schema = raw.schema.take();
        let walked = if format == Format::Bfcl {
            translate_bfcl(&mut schema, &name, &mut notes)
        } else {
            schema::visit(&schema, &mut |_, _| {})
        };
        walked.map_err(|e| too_deep(&raw, &name, &e))?;
        tools.push(Tool {
            name,
            description: raw.description.take(),
            input_schema: schema,
            strict: raw.strict,
        });
        instances.push(std::mem::take(&mut raw.instances));
    }
    if tools.is_empty() {
        notes.push(LoadNote {
            tool: String::new(),
            path: String::new(),
            message: "catalog declares no tools".to_owned(),
        });
    }
    Ok((format, tools, instances, notes))
}

/// What [`finish`] makes of the raw tools: the format, the tools, their
/// known instances (same index) and the load notes.
type Finished = (Format, Vec<Tool>, Vec<Vec<KnownInstance>>, Vec<LoadNote>);

fn too_deep(raw: &Raw<'_>, name: &str, err: &TooDeep) -> LoadError {
    raw.src
        .error(&raw.pointer, &format!("tool \"{name}\": {err}"))
}

/// `name`, or `name~2`, `name~3`, … (the first one not used yet).
fn unique_name(
    used: &mut HashSet<String>,
    next: &mut HashMap<String, usize>,
    name: &str,
) -> String {
    if used.insert(name.to_owned()) {
        return name.to_owned();
    }
    let k = next.entry(name.to_owned()).or_insert(2);
    loop {
        let candidate = format!("{name}~{k}");
        *k += 1;
        if used.insert(candidate.clone()) {
            return candidate;
        }
    }
}

/// The JSON Schema type names.
const JSON_TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "object", "array", "null",
];

/// BFCL types whose presence makes a catalog BFCL (module docs, step 6).
const BFCL_MARKERS: &[&str] = &["dict", "float", "tuple", "any"];

/// BFCL (Python/Java/JavaScript) type names and their JSON Schema type.
const BFCL_TYPES: &[(&str, &str)] = &[
    ("dict", "object"),
    ("HashMap", "object"),
    ("Hashtable", "object"),
    ("float", "number"),
    ("double", "number"),
    ("tuple", "array"),
    ("list", "array"),
    ("Array", "array"),
    ("ArrayList", "array"),
    ("Queue", "array"),
    ("Stack", "array"),
    ("long", "integer"),
    ("short", "integer"),
    ("byte", "integer"),
    ("int", "integer"),
    ("char", "string"),
    ("str", "string"),
    ("bool", "boolean"),
];

enum TypeFix {
    Keep,
    To(&'static str),
    /// `any`: no type constraint at all.
    Any,
    Unknown,
}

fn bfcl_type(t: &str) -> TypeFix {
    if JSON_TYPES.contains(&t) {
        TypeFix::Keep
    } else if t == "any" {
        TypeFix::Any
    } else if let Some((_, to)) = BFCL_TYPES.iter().find(|(from, _)| *from == t) {
        TypeFix::To(to)
    } else if let Some(to) = JSON_TYPES.iter().find(|j| j.eq_ignore_ascii_case(t)) {
        TypeFix::To(to)
    } else {
        TypeFix::Unknown
    }
}

fn uses_bfcl_types(schema: &Value) -> Result<bool, TooDeep> {
    let mut found = false;
    schema::visit(schema, &mut |_, node| {
        found |= match node.get("type") {
            Some(Value::String(t)) => BFCL_MARKERS.contains(&t.as_str()),
            Some(Value::Array(ts)) => ts
                .iter()
                .any(|t| t.as_str().is_some_and(|t| BFCL_MARKERS.contains(&t))),
            _ => false,
        };
    })?;
    Ok(found)
}

/// Translate the BFCL dialect in one schema (module docs), noting each change.
fn translate_bfcl(
    schema: &mut Value,
    tool: &str,
    notes: &mut Vec<LoadNote>,
) -> Result<(), TooDeep> {
    schema::rewrite_pre_order(schema, &mut |path, node| {
        let mut note = |message: String| {
            notes.push(LoadNote {
                tool: tool.to_owned(),
                path: path.to_owned(),
                message,
            });
        };
        let mut remove_type = false;
        match node.get_mut("type") {
            Some(Value::String(t)) => match bfcl_type(t) {
                TypeFix::Keep => {}
                TypeFix::To(to) => {
                    note(format!("bfcl: type \"{t}\" translated to \"{to}\""));
                    to.clone_into(t);
                }
                TypeFix::Any => {
                    note("bfcl: type \"any\" removed (any value)".to_owned());
                    remove_type = true;
                }
                TypeFix::Unknown => {
                    note(format!("bfcl: unknown type \"{t}\" removed"));
                    remove_type = true;
                }
            },
            Some(Value::Array(ts)) => {
                let mut kept = Vec::with_capacity(ts.len());
                for t in ts.drain(..) {
                    let Value::String(s) = &t else {
                        kept.push(t);
                        continue;
                    };
                    match bfcl_type(s) {
                        TypeFix::Keep => kept.push(t),
                        TypeFix::To(to) => {
                            note(format!("bfcl: type \"{s}\" translated to \"{to}\""));
                            kept.push(Value::String(to.to_owned()));
                        }
                        TypeFix::Any => {
                            note("bfcl: type \"any\" removed (any value)".to_owned());
                            remove_type = true;
                        }
                        TypeFix::Unknown => note(format!("bfcl: unknown type \"{s}\" removed")),
                    }
                }
                remove_type |= kept.is_empty();
                *ts = kept;
            }
            _ => {}
        }
        if remove_type {
            node.shift_remove("type");
        }
        if node.shift_remove("optional").is_some() {
            note("bfcl: non-standard keyword \"optional\" removed".to_owned());
        }
        true
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/testdata/catalogs")
            .join(name)
    }

    fn load(name: &str) -> Catalog {
        load_catalog(&fixture(name), None).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    fn load_err(name: &str, format: Option<Format>) -> String {
        match load_catalog(&fixture(name), format) {
            Ok(c) => panic!("{name} loaded as {}", c.format),
            Err(e) => e.to_string(),
        }
    }

    fn names(c: &Catalog) -> Vec<&str> {
        c.tools.iter().map(|t| t.name.as_str()).collect()
    }

    fn bytes_of(v: &Value) -> String {
        serde_json::to_string(v).unwrap()
    }

    fn note(tool: &str, path: &str, message: &str) -> LoadNote {
        LoadNote {
            tool: tool.to_owned(),
            path: path.to_owned(),
            message: message.to_owned(),
        }
    }

    fn from_bytes(text: &[u8], format: Option<Format>) -> Result<Catalog, LoadError> {
        load_catalog_bytes("x", Path::new("x.json"), text, format)
    }

    #[test]
    fn format_ids_round_trip_and_unknown_ids_are_usage_errors() {
        for f in Format::ALL {
            assert_eq!(Format::parse(f.id()).unwrap(), *f);
            assert_eq!(f.to_string(), f.id());
        }
        let ids: Vec<&str> = Format::ALL.iter().map(|f| f.id()).collect();
        assert_eq!(
            ids,
            [
                "mcp",
                "anthropic",
                "openai-chat",
                "openai-responses",
                "gemini",
                "bedrock",
                "shared-corpus",
                "bfcl",
                "jsonl",
                "test-suite",
                "schema"
            ]
        );
        assert_eq!(
            Format::parse("yaml").unwrap_err().to_string(),
            "unknown catalog format `yaml`"
        );
    }

    #[test]
    fn mcp_tools_list_loads_input_schema_verbatim() {
        let c = load("mcp.json");
        assert_eq!(c.id, "mcp");
        assert_eq!(c.format, Format::McpToolsList);
        assert_eq!(names(&c), ["search", "noop"]);
        assert_eq!(c.tools[0].description.as_deref(), Some("Search the index."));
        assert_eq!(
            bytes_of(&c.tools[0].input_schema),
            r#"{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"integer","minimum":1}},"required":["zeta"]}"#
        );
        assert_eq!(c.tools[1].description, None);
        assert_eq!(c.tools[1].input_schema, json!({"type": "object"}));
        assert_eq!(c.tools[0].strict, None);
        assert!(c.notes.is_empty(), "{:?}", c.notes);
    }

    #[test]
    fn mcp_json_rpc_envelope_is_unwrapped() {
        let c = load("mcp-jsonrpc.json");
        assert_eq!(c.format, Format::McpToolsList);
        assert_eq!(names(&c), ["get_time"]);
        assert_eq!(
            bytes_of(&c.tools[0].input_schema),
            r#"{"type":"object","properties":{}}"#
        );
    }

    #[test]
    fn json_rpc_error_response_is_refused_with_its_position() {
        let err = from_bytes(
            br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}"#,
            None,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "x.json:1:33: error: json-rpc error response, not a tools/list result"
        );
    }

    #[test]
    fn anthropic_tools_read_a_camel_case_input_schema_with_a_note() {
        let c = from_bytes(
            br#"[{"name":"search_docs","inputSchema":{"type":"object","properties":{}}}]"#,
            Some(Format::AnthropicTools),
        )
        .unwrap();
        assert_eq!(
            bytes_of(&c.tools[0].input_schema),
            r#"{"type":"object","properties":{}}"#
        );
        assert_eq!(
            c.notes,
            [note(
                "search_docs",
                "",
                "schema read from \"inputSchema\": it is sent as \"input_schema\""
            )]
        );
    }

    #[test]
    fn anthropic_tools_without_input_schema_get_the_typeless_schema_with_a_note() {
        let c = from_bytes(
            br#"[{"name":"get_weather","description":"d"},{"name":"c","type":"custom"}]"#,
            Some(Format::AnthropicTools),
        )
        .unwrap();
        assert_eq!(c.tools[0].input_schema, json!({}));
        assert_eq!(c.tools[1].input_schema, json!({}));
        assert_eq!(
            c.notes[0],
            note(
                "get_weather",
                "",
                "no \"input_schema\" declared: the typeless schema {} assumed"
            )
        );
    }

    #[test]
    fn anthropic_server_tools_and_malformed_tools_are_still_refused() {
        let server = from_bytes(
            br#"[{"type":"web_search_20250305","name":"web_search"}]"#,
            Some(Format::AnthropicTools),
        )
        .unwrap_err()
        .to_string();
        assert!(server.contains("missing \"input_schema\""), "{server}");
        let nameless = from_bytes(br#"[{"input_schema":{}}]"#, Some(Format::AnthropicTools))
            .unwrap_err()
            .to_string();
        assert!(nameless.contains("missing \"name\""), "{nameless}");
    }

    #[test]
    fn anthropic_bare_array_keeps_strict_and_description() {
        let c = load("anthropic.json");
        assert_eq!(c.format, Format::AnthropicTools);
        assert_eq!(names(&c), ["get_weather", "ping"]);
        assert_eq!(c.tools[0].strict, Some(true));
        assert_eq!(
            c.tools[0].description.as_deref(),
            Some("Weather for a city.")
        );
        assert_eq!(
            bytes_of(&c.tools[0].input_schema),
            r#"{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}"#
        );
        assert_eq!(c.tools[1].strict, None);
        assert_eq!(c.tools[1].description, None);
    }

    #[test]
    fn openai_chat_tools_read_the_function_object_and_note_missing_parameters() {
        let c = load("openai-chat.json");
        assert_eq!(c.format, Format::OpenaiChatTools);
        assert_eq!(names(&c), ["lookup", "now"]);
        assert_eq!(c.tools[0].strict, Some(true));
        assert_eq!(
            bytes_of(&c.tools[0].input_schema),
            r#"{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}"#
        );
        assert_eq!(
            c.tools[1].input_schema,
            json!({"type": "object", "properties": {}})
        );
        assert_eq!(
            c.notes,
            [note(
                "now",
                "",
                "no parameters declared: {\"type\":\"object\",\"properties\":{}} assumed"
            )]
        );
    }

    #[test]
    fn openai_responses_tools_read_flat_function_objects() {
        let c = load("openai-responses.json");
        assert_eq!(c.format, Format::OpenaiResponsesTools);
        assert_eq!(names(&c), ["lookup"]);
        assert_eq!(c.tools[0].strict, Some(false));
        assert_eq!(c.tools[0].description.as_deref(), Some("Look a record up."));
        assert_eq!(
            bytes_of(&c.tools[0].input_schema),
            r#"{"type":"object","properties":{"id":{"type":"string"}}}"#
        );
    }

    #[test]
    fn gemini_function_declarations_load_from_every_wrapper() {
        let c = load("gemini.json");
        assert_eq!(c.format, Format::GeminiTools);
        assert_eq!(names(&c), ["find_movies", "find_theaters", "ping"]);
        assert_eq!(
            bytes_of(&c.tools[0].input_schema),
            r#"{"type":"OBJECT","properties":{"title":{"type":"STRING"}},"required":["title"]}"#
        );
        assert_eq!(
            bytes_of(&c.tools[1].input_schema),
            r#"{"type":"object","properties":{"city":{"type":["string","null"]}}}"#
        );
        assert_eq!(
            c.tools[2].input_schema,
            json!({"type": "object", "properties": {}})
        );
        assert_eq!(
            c.notes,
            [
                note(
                    "find_theaters",
                    "",
                    "both \"parametersJsonSchema\" and \"parameters\" given: \"parametersJsonSchema\" used"
                ),
                note(
                    "ping",
                    "",
                    "no parameters declared: {\"type\":\"object\",\"properties\":{}} assumed"
                ),
            ]
        );
        let bare = from_bytes(
            br#"[{"functionDeclarations":[{"name":"a","parameters":{"type":"STRING"}}]}]"#,
            None,
        )
        .unwrap();
        assert_eq!(
            (bare.format, names(&bare)),
            (Format::GeminiTools, vec!["a"])
        );
        let flat = from_bytes(
            br#"{"functionDeclarations":[{"name":"b","parametersJsonSchema":{}}]}"#,
            None,
        )
        .unwrap();
        assert_eq!(
            (flat.format, names(&flat)),
            (Format::GeminiTools, vec!["b"])
        );
    }

    #[test]
    fn bedrock_tool_specs_unwrap_input_schema_json_and_skip_cache_points() {
        let c = load("bedrock.json");
        assert_eq!(c.format, Format::BedrockTools);
        assert_eq!(names(&c), ["top_song", "noop"]);
        assert_eq!(
            c.tools[0].description.as_deref(),
            Some("Most popular song on a station.")
        );
        assert_eq!(
            bytes_of(&c.tools[0].input_schema),
            r#"{"type":"object","properties":{"sign":{"type":"string"}},"required":["sign"]}"#
        );
        let bare = from_bytes(
            br#"[{"toolSpec":{"name":"t","inputSchema":{"json":true}}}]"#,
            None,
        )
        .unwrap();
        assert_eq!(
            (bare.format, names(&bare)),
            (Format::BedrockTools, vec!["t"])
        );
        assert_eq!(bare.tools[0].input_schema, json!(true));
    }

    #[test]
    fn shared_corpus_format_ignores_extra_keys() {
        let c = load("shared-corpus.json");
        assert_eq!(c.format, Format::SharedCorpus);
        assert_eq!(names(&c), ["create_issue", "list_issues"]);
        assert_eq!(c.tools[0].description.as_deref(), Some("Create an issue."));
        assert_eq!(
            bytes_of(&c.tools[0].input_schema),
            r#"{"properties":{"title":{"type":"string"},"body":{"type":"string"}},"required":["title"],"type":"object"}"#
        );
        assert_eq!(c.tools[1].description, None);
        assert!(c.notes.is_empty(), "{:?}", c.notes);
    }

    #[test]
    fn bfcl_dialect_is_detected_and_every_translation_noted() {
        let c = load("bfcl.json");
        assert_eq!(c.format, Format::Bfcl);
        assert_eq!(names(&c), ["calc.distance", "Util.join"]);
        assert_eq!(
            c.tools[0].input_schema,
            json!({
                "type": "object",
                "properties": {
                    "coord": {"type": "array", "items": {"type": "number"}, "description": "(lat, lon)"},
                    "type": {"type": "string", "enum": ["dict", "float"], "default": {"type": "dict"}},
                    "extra": {"description": "Anything."},
                    "unit": {"type": "string"}
                },
                "required": ["coord"]
            })
        );
        // Key order survives the translation (the removed keys leave no gap).
        assert_eq!(
            bytes_of(&c.tools[0].input_schema["properties"]["unit"]),
            r#"{"type":"string"}"#
        );
        assert_eq!(
            bytes_of(&c.tools[1].input_schema),
            r#"{"type":"object","properties":{"parts":{"type":"array","items":{"type":"string"}},"sep":{"description":"Separator."},"opts":{"type":"object","additionalProperties":{"type":"boolean"}}}}"#
        );
        assert_eq!(
            c.notes,
            [
                note(
                    "calc.distance",
                    "",
                    "bfcl: type \"dict\" translated to \"object\""
                ),
                note(
                    "calc.distance",
                    "/properties/coord",
                    "bfcl: type \"tuple\" translated to \"array\""
                ),
                note(
                    "calc.distance",
                    "/properties/coord/items",
                    "bfcl: type \"float\" translated to \"number\""
                ),
                note(
                    "calc.distance",
                    "/properties/extra",
                    "bfcl: type \"any\" removed (any value)"
                ),
                note(
                    "calc.distance",
                    "/properties/unit",
                    "bfcl: non-standard keyword \"optional\" removed"
                ),
                note(
                    "Util.join",
                    "",
                    "bfcl: type \"dict\" translated to \"object\""
                ),
                note(
                    "Util.join",
                    "/properties/parts",
                    "bfcl: type \"ArrayList\" translated to \"array\""
                ),
                note(
                    "Util.join",
                    "/properties/parts/items",
                    "bfcl: type \"String\" translated to \"string\""
                ),
                note(
                    "Util.join",
                    "/properties/sep",
                    "bfcl: unknown type \"\" removed"
                ),
                note(
                    "Util.join",
                    "/properties/opts",
                    "bfcl: type \"HashMap\" translated to \"object\""
                ),
                note(
                    "Util.join",
                    "/properties/opts/additionalProperties",
                    "bfcl: type \"Boolean\" translated to \"boolean\""
                ),
            ]
        );
    }

    #[test]
    fn forcing_shared_corpus_on_bfcl_loads_the_dialect_untranslated() {
        let c = load_catalog(&fixture("bfcl.json"), Some(Format::SharedCorpus)).unwrap();
        assert_eq!(c.format, Format::SharedCorpus);
        assert_eq!(c.tools[0].input_schema["type"], json!("dict"));
        assert!(c.notes.is_empty());
    }

    #[test]
    fn forcing_bfcl_translates_a_plain_tools_array() {
        let c = from_bytes(
            br#"[{"name":"f","input_schema":{"type":"dict","properties":{}}}]"#,
            Some(Format::Bfcl),
        )
        .unwrap();
        assert_eq!(c.format, Format::Bfcl);
        assert_eq!(
            c.tools[0].input_schema,
            json!({"type": "object", "properties": {}})
        );
        assert_eq!(
            c.notes,
            [note(
                "f",
                "",
                "bfcl: type \"dict\" translated to \"object\""
            )]
        );
    }

    #[test]
    fn jsonl_benchmark_lines_become_one_tool_each() {
        let c = load("bench.jsonl");
        assert_eq!(c.format, Format::Jsonl);
        assert_eq!(names(&c), ["Demo_0", "line-4"]);
        assert_eq!(c.tools[0].description.as_deref(), Some("first"));
        assert_eq!(
            bytes_of(&c.tools[0].input_schema),
            r#"{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"number"}}}"#
        );
        assert_eq!(c.tools[1].input_schema, json!(true));
        // The line's `tests` travel with its tool, by index.
        assert_eq!(
            c.instances,
            [
                vec![KnownInstance {
                    data: json!({}),
                    valid: true
                }],
                vec![]
            ]
        );
    }

    /// A single tool object (detected as one jsonl line) keeps its `strict`
    /// flag, like every format that carries one; a non-boolean is an error.
    #[test]
    fn a_jsonl_line_keeps_its_strict_flag() {
        let text = r#"{"name":"t","strict":true,"input_schema":{"type":"object"}}"#;
        let c = load_catalog_bytes("t", Path::new("t.json"), text.as_bytes(), None).unwrap();
        assert_eq!(c.format, Format::Jsonl);
        assert_eq!(c.tools[0].strict, Some(true));
        let text = "{\"id\":\"a\",\"schema\":{}}\n{\"id\":\"b\",\"strict\":1,\"schema\":{}}\n";
        let err = load_catalog_bytes("t", Path::new("t.jsonl"), text.as_bytes(), None)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("t.jsonl:2:") && err.contains("expected a boolean"),
            "{err}"
        );
    }

    #[test]
    fn jsonl_history_lines_are_named_with_their_commit() {
        let c = load("history.jsonl");
        assert_eq!(c.format, Format::Jsonl);
        assert_eq!(
            names(&c),
            [
                "get_me@023f59d",
                "get_me@3e988d5",
                "get_me@3e988d5~2",
                "list"
            ]
        );
        assert_eq!(c.tools[0].description.as_deref(), Some("Who am I."));
        assert_eq!(
            c.notes,
            [note(
                "get_me@3e988d5~2",
                "",
                "duplicate tool name \"get_me@3e988d5\" renamed to \"get_me@3e988d5~2\""
            )]
        );
    }

    #[test]
    fn a_single_jsonl_line_in_a_json_file_still_loads() {
        let c = from_bytes(
            br#"{"dataset":"D","id":"D_1","schema":{"type":"string"},"tests":[]}"#,
            None,
        )
        .unwrap();
        assert_eq!((c.format, names(&c)), (Format::Jsonl, vec!["D_1"]));
    }

    #[test]
    fn test_suite_groups_are_named_by_slug() {
        let c = load("test-suite.json");
        assert_eq!(c.format, Format::TestSuite);
        assert_eq!(
            c.instances[0],
            [KnownInstance {
                data: json!("foo"),
                valid: true
            }]
        );
        assert_eq!(
            names(&c),
            [
                "anyof-with-boolean-schemas-all-true",
                "boolean-schema-false",
                "anyof-with-boolean-schemas-all-true~2",
                "group-3"
            ]
        );
        assert_eq!(
            c.tools[0].description.as_deref(),
            Some("anyOf with boolean schemas, all true")
        );
        assert_eq!(
            bytes_of(&c.tools[0].input_schema),
            r#"{"anyOf":[true,true]}"#
        );
        assert_eq!(c.tools[1].input_schema, json!(false));
        assert_eq!(c.tools[3].description.as_deref(), Some("!!!"));
    }

    #[test]
    fn a_single_schema_file_is_one_tool_named_after_the_file() {
        let c = load("single-schema.json");
        assert_eq!(c.format, Format::Schema);
        assert_eq!(names(&c), ["single-schema"]);
        assert_eq!(
            bytes_of(&c.tools[0].input_schema),
            r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{"n":{"type":"integer"}},"$ref":"#/$defs/n"}"##
        );
        let empty = from_bytes(b"{}", None).unwrap();
        assert_eq!((empty.format, names(&empty)), (Format::Schema, vec!["x"]));
        let boolean = from_bytes(b"true", Some(Format::Schema)).unwrap();
        assert_eq!(boolean.tools[0].input_schema, json!(true));
    }

    #[test]
    fn duplicate_names_are_suffixed_in_order() {
        let c = load("duplicates.json");
        assert_eq!(names(&c), ["a", "a~2", "b", "a~3", "a~2~2"]);
        assert_eq!(
            c.notes,
            [
                note("a~2", "", "duplicate tool name \"a\" renamed to \"a~2\""),
                note("a~3", "", "duplicate tool name \"a\" renamed to \"a~3\""),
                note(
                    "a~2~2",
                    "",
                    "duplicate tool name \"a~2\" renamed to \"a~2~2\""
                ),
            ]
        );
    }

    #[test]
    fn an_empty_tools_list_loads_with_a_note() {
        let c = from_bytes(br#"{"tools":[]}"#, None).unwrap();
        assert_eq!(c.format, Format::McpToolsList);
        assert!(c.tools.is_empty());
        assert_eq!(c.notes, [note("", "", "catalog declares no tools")]);
    }

    #[test]
    fn forced_format_mismatch_names_the_first_tool_that_does_not_fit() {
        let path = fixture("mcp.json");
        assert_eq!(
            load_err("mcp.json", Some(Format::OpenaiChatTools)),
            format!(
                "{}:3:5: tools[0]: missing \"function\" (format openai-chat)",
                path.display()
            )
        );
        // The Anthropic reader takes the camelCase key too (with a note):
        // forcing it on an MCP file reads every tool.
        let as_anthropic = load_catalog(&path, Some(Format::AnthropicTools)).unwrap();
        assert_eq!(as_anthropic.format, Format::AnthropicTools);
        assert!(as_anthropic.notes.iter().all(
            |n| n.message == "schema read from \"inputSchema\": it is sent as \"input_schema\""
        ));
        assert_eq!(
            load_err("mcp.json", Some(Format::TestSuite)),
            format!(
                "{}:1:1: format test-suite expects a top-level array of {{description, schema, tests}} groups",
                path.display()
            )
        );
        assert_eq!(
            load_err("anthropic.json", Some(Format::SharedCorpus)),
            format!(
                "{}:1:1: format shared-corpus expects an object with a \"tools\" array",
                path_of("anthropic.json")
            )
        );
        assert_eq!(
            load_err("bench.jsonl", Some(Format::McpToolsList)),
            format!("{}:4:1: trailing characters", path_of("bench.jsonl"))
        );
    }

    #[test]
    fn forced_format_mismatch_on_the_document_shape_is_a_root_error() {
        let err = |text: &[u8], f: Format| from_bytes(text, Some(f)).unwrap_err().to_string();
        assert_eq!(
            err(br#"{"type":"object"}"#, Format::Bfcl),
            "x.json:1:1: format bfcl expects {\"tools\":[…]} or a bare array of tools"
        );
        assert_eq!(
            err(br#"{"functionDeclarations":[]}"#, Format::McpToolsList),
            "x.json:1:1: format mcp expects {\"tools\":[…]}, a json-rpc tools/list response or a bare array of tools"
        );
        assert_eq!(
            err(b"[]", Format::Schema),
            "x.json:1:1: format schema expects a json object or boolean"
        );
        assert_eq!(
            err(b"{\n  \"tools\": []\n}", Format::Jsonl),
            "x.json:1:1: EOF while parsing an object"
        );
        assert_eq!(
            err(
                br#"[{"type":"function","function":{"name":"f"}}]"#,
                Format::OpenaiResponsesTools
            ),
            "x.json:1:2: [0]: missing \"name\""
        );
    }

    fn path_of(name: &str) -> String {
        fixture(name).display().to_string()
    }

    #[test]
    fn json_syntax_error_names_line_and_column() {
        assert_eq!(
            load_err("broken-syntax.json", None),
            format!("{}:5:3: trailing comma", path_of("broken-syntax.json"))
        );
    }

    #[test]
    fn missing_name_points_at_the_tool_object() {
        assert_eq!(
            load_err("missing-name.json", None),
            format!(
                "{}:8:5: tools[2]: missing \"name\"",
                path_of("missing-name.json")
            )
        );
        let err = from_bytes(br#"[{"name": 7, "inputSchema": {}}]"#, None).unwrap_err();
        assert_eq!(err.to_string(), "x.json:1:2: [0]: \"name\" is not a string");
    }

    #[test]
    fn jsonl_bad_line_3_names_the_file_line() {
        assert_eq!(
            load_err("bad-line-3.jsonl", None),
            format!("{}:3:21: expected value", path_of("bad-line-3.jsonl"))
        );
        assert_eq!(
            load_err("bad-line-3.jsonl", Some(Format::Jsonl)),
            format!("{}:3:21: expected value", path_of("bad-line-3.jsonl"))
        );
    }

    #[test]
    fn jsonl_shape_errors_name_the_file_line() {
        let err = from_bytes(b"{\"schema\":{}}\n\n{\"nothing\":1}\n", None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "x.json:3:1: expected a benchmark line with \"schema\" or a history line with \"name\" and \"input_schema\""
        );
        let err = from_bytes(b"{\"schema\":{}}\n  {\"input_schema\":{}}", None).unwrap_err();
        assert_eq!(err.to_string(), "x.json:2:3: missing \"name\"");
    }

    #[test]
    fn invalid_utf8_is_a_syntax_error_not_a_panic() {
        assert_eq!(
            load_err("invalid-utf8.json", None),
            format!(
                "{}:2:13: invalid utf-8 (byte 0xff)",
                path_of("invalid-utf8.json")
            )
        );
    }

    #[test]
    fn nesting_1000_deep_is_an_error_not_a_panic() {
        let err = load_err("deep-nesting.json", None);
        assert_eq!(
            err,
            format!(
                "{}:1:128: recursion limit exceeded",
                path_of("deep-nesting.json")
            )
        );
        let deep = format!(
            "{{\"tools\":[{{\"name\":\"t\",\"inputSchema\":{}{}}}]}}",
            "{\"not\":".repeat(1000),
            "}".repeat(1000)
        );
        let err = from_bytes(deep.as_bytes(), None).unwrap_err();
        assert!(matches!(err, LoadError::Syntax { .. }), "{err}");
        assert!(
            err.to_string().ends_with("recursion limit exceeded"),
            "{err}"
        );
    }

    #[test]
    fn a_schema_deeper_than_the_walk_limit_is_a_shape_error_naming_the_tool() {
        let text = r#"{"tools": [{"name": "t", "inputSchema": {}}]}"#;
        let src = Src {
            path: Path::new("d.json"),
            text,
            line_base: 0,
        };
        let mut schema = json!({});
        for _ in 0..=schema::MAX_DEPTH {
            schema = json!({ "not": schema });
        }
        let raw = Raw {
            src,
            pointer: "/tools/0".to_owned(),
            name: "t".to_owned(),
            description: None,
            schema,
            strict: None,
            notes: Vec::new(),
            instances: Vec::new(),
        };
        let err = finish(Format::McpToolsList, vec![raw], true)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with(
                "d.json:1:12: tools[0]: tool \"t\": schema nests deeper than 128 levels at /not/not"
            ),
            "{err}"
        );
    }

    #[test]
    fn unrecognized_documents_and_scalars_are_shape_errors_at_the_root() {
        let msg = "unrecognized catalog format: expected a tools array or {\"tools\":[…]} object, json lines, a test-suite file or a json schema";
        assert_eq!(
            from_bytes(b"  {\"hello\": 1}", None)
                .unwrap_err()
                .to_string(),
            format!("x.json:1:3: {msg}")
        );
        assert_eq!(
            from_bytes(b"42", None).unwrap_err().to_string(),
            format!("x.json:1:1: {msg}")
        );
        assert_eq!(
            from_bytes(b"[{\"what\": 1}]", None)
                .unwrap_err()
                .to_string(),
            "x.json:1:2: [0]: unrecognized tool shape (expected one of inputSchema, input_schema, function, type \"function\", parameters, toolSpec, functionDeclarations)"
        );
        assert_eq!(
            from_bytes(b"", None).unwrap_err().to_string(),
            "x.json:1:0: EOF while parsing a value"
        );
        assert_eq!(
            from_bytes(b"[1] [2]", None).unwrap_err().to_string(),
            "x.json:1:5: trailing characters"
        );
    }

    #[test]
    fn a_byte_order_mark_is_ignored() {
        let c = from_bytes(b"\xef\xbb\xbf{\"tools\":[]}", None).unwrap();
        assert_eq!(c.format, Format::McpToolsList);
    }

    #[test]
    fn locate_finds_values_past_strings_escapes_and_nesting() {
        let text = "{\n  \"a\": \"}]\\\" {\",\n  \"b\\\"c\": [1, {\"x\": [[]]}, \n   {\"a/b\": null}],\n  \"b\": 2\n}";
        assert_eq!(locate(text, ""), (1, 1));
        assert_eq!(locate(text, "/a"), (2, 8));
        assert_eq!(locate(text, "/b\"c"), (3, 11));
        assert_eq!(locate(text, "/b\"c/1"), (3, 15));
        assert_eq!(locate(text, "/b\"c/1/x/0"), (3, 22));
        assert_eq!(locate(text, "/b\"c/2/a~1b"), (4, 12));
        assert_eq!(locate(text, "/b"), (5, 8));
        // Unresolvable pointers stop at the deepest value they reach.
        assert_eq!(locate(text, "/b\"c/9"), (3, 11));
        assert_eq!(locate(text, "/nope"), (1, 1));
        // A repeated key resolves to the value serde_json keeps (the last).
        assert_eq!(locate(r#"{"k": 1, "k": 2}"#, "/k"), (1, 15));
        // Garbage never panics.
        assert_eq!(locate("{\"a", "/a/b"), (1, 1));
        assert_eq!(locate("[", "/3"), (1, 1));
    }

    #[test]
    fn labels_read_like_paths() {
        assert_eq!(label("/tools/3"), "tools[3]");
        assert_eq!(
            label("/0/functionDeclarations/2"),
            "[0].functionDeclarations[2]"
        );
        assert_eq!(
            label("/result/tools/0/function"),
            "result.tools[0].function"
        );
        assert_eq!(label(""), "");
    }

    #[test]
    fn slugs_collapse_non_alphanumerics() {
        assert_eq!(slug("  Foo, BAR -- baz!"), "foo-bar-baz");
        assert_eq!(slug("héllo wörld"), "h-llo-w-rld");
        assert_eq!(slug("!!!"), "");
    }

    #[test]
    fn truncated_and_mutated_fixtures_never_panic() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/testdata/catalogs");
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        let specials = b"{}[]\",:\\\n \xff0";
        for file in files {
            let original = std::fs::read(&file).unwrap();
            for cut in 0..original.len().min(400) {
                let _ = from_bytes(&original[..cut], None);
            }
            for _ in 0..200 {
                let mut bytes = original.clone();
                for _ in 0..3 {
                    let at = usize::try_from(next() % bytes.len().max(1) as u64).unwrap();
                    let byte = specials[usize::try_from(next() % specials.len() as u64).unwrap()];
                    if let Some(b) = bytes.get_mut(at) {
                        *b = byte;
                    }
                }
                let format = Format::ALL
                    .get(usize::try_from(next() % 16).unwrap())
                    .copied();
                let _ = from_bytes(&bytes, format);
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        let samples: &[&[u8]] = &[
            b"",
            b"\xff",
            b"[",
            b"{",
            b"{\"tools\":",
            b"{\"tools\":[{]}",
            b"[{}]",
            b"[null]",
            b"{\"tools\":{}}",
            b"{\"jsonrpc\":\"2.0\"}",
            b"{\"toolConfig\":{\"tools\":1}}",
            b"[{\"toolSpec\":1}]",
            b"[{\"toolSpec\":{\"name\":\"a\",\"inputSchema\":{}}}]",
            b"[{\"type\":\"function\",\"function\":3}]",
            b"[{\"functionDeclarations\":[1]}]",
            b"{\"a\":1}\n{",
            b"\n\n",
            b"{\"schema\":1,\"tests\":[]}\n[",
            b"[{\"schema\":{},\"tests\":[]},1]",
        ];
        for s in samples {
            for f in std::iter::once(None).chain(Format::ALL.iter().copied().map(Some)) {
                let _ = from_bytes(s, f);
            }
        }
    }
}
