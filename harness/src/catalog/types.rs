//! What loading a catalog yields: its format, the tools, the notes on what was
//! left out, and the known instances.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use serde_json::{Map, Value};

use crate::error::UsageError;
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
pub(super) fn known_instances(obj: &Map<String, Value>) -> Vec<KnownInstance> {
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
