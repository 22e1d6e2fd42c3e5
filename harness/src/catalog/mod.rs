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
//!
//! # Files
//!
//! Bottom up: `locate.rs` finds the tools array and turns pointers into
//! positions (it uses no sibling); `raw.rs` reads one tool declaration;
//! `tools.rs` reads a tools array through the per-family readers (`mcp.rs`,
//! `anthropic.rs`, `openai.rs`, `gemini.rs`, `bedrock.rs`); `jsonl.rs`,
//! `suite.rs` and `single.rs` read the other formats; `detect.rs` decides
//! the format; `finish.rs` makes names unique and `bfcl.rs` translates the
//! BFCL dialect.

mod anthropic;
mod bedrock;
mod bfcl;
mod detect;
mod finish;
mod gemini;
mod jsonl;
mod locate;
mod mcp;
mod openai;
mod raw;
mod single;
mod suite;
mod tools;
mod types;

use std::path::Path;

use crate::error::LoadError;

use detect::{Document, decode, detect, parse_document, trailing_characters};
use finish::finish;
use jsonl::jsonl_tools;
use locate::Src;
use single::single_schema;
use suite::test_suite;
use tools::{is_tools_format, tools_list};
pub use types::CorpusTool;
pub(crate) use types::KnownInstance;
pub use types::{Catalog, Format, LoadNote};

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

/// The tools of the own corpus's seed, pass-construct and strict-construct
/// catalogs (`corpus/catalogs`), in that order: what tests run over.
#[cfg(test)]
pub(crate) fn own_corpus_tools() -> Vec<crate::Tool> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/catalogs");
    [
        "seed-tools.json",
        "pass-constructs.json",
        "strict-constructs.json",
    ]
    .iter()
    .flat_map(|name| load_catalog(&dir.join(name), None).unwrap().tools)
    .collect()
}

#[cfg(test)]
mod tests;
