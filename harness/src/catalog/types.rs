//! What loading a catalog yields: its format, the tools, the notes on what was
//! left out, and the known instances.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::error::UsageError;
use crate::spill::Spill;
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

/// A corpus tool with the instances its corpus gives, shared by its cases
/// on every lane: parsed, or packed as compact JSON until its cases run.
/// `run` packs each catalog as it loads: a parsed schema takes several
/// times its text's memory, and every tool would otherwise wait parsed
/// for its cases (the 15-lane run over own + shared corpus held 433 MB
/// once loaded, 2026-12-04). The text is serde_json's own output, and
/// reading back what it wrote gives the same values (the workspace
/// enables serde_json's `float_roundtrip`): a packed tool shapes to the same bytes.
#[derive(Debug, Clone)]
pub enum CorpusTool {
    Parsed {
        tool: Arc<Tool>,
        known: Arc<[KnownInstance]>,
    },
    /// `[tool, [[data, valid], …]]`.
    Packed(Arc<str>),
    /// The packed text, waiting on disk ([`CorpusTool::stored`]).
    Stored(Arc<Stored>),
}

/// Where a stored tool's packed text is: `len` bytes at `at` in `spill`.
#[derive(Debug)]
pub struct Stored {
    spill: Arc<Spill>,
    at: u64,
    len: usize,
}

impl CorpusTool {
    /// A parsed tool and its instances.
    pub fn parsed(tool: Tool, known: Vec<KnownInstance>) -> Self {
        Self::Parsed {
            tool: Arc::new(tool),
            known: Arc::from(known),
        }
    }

    /// `tool` and its instances as compact JSON.
    pub fn packed(tool: &Tool, known: &[KnownInstance]) -> Self {
        let known: Vec<(&Value, bool)> = known.iter().map(|k| (&k.data, k.valid)).collect();
        // A `Tool` and `Value`s always serialize.
        let text = serde_json::to_string(&(tool, known)).unwrap_or_default();
        Self::Packed(Arc::from(text))
    }

    /// [`CorpusTool::packed`], the text put in `spill` to wait on disk
    /// until its cases run (`run` stores every tool: the packed corpus
    /// took about 95 MB of memory per copy of the shared corpus from load
    /// to its last case). Packed in memory if `spill` cannot take it.
    pub fn stored(tool: &Tool, known: &[KnownInstance], spill: &Arc<Spill>) -> Self {
        let packed = Self::packed(tool, known);
        let Self::Packed(text) = &packed else {
            return packed;
        };
        match spill.put(text.as_bytes()) {
            Some(at) => Self::Stored(Arc::new(Stored {
                spill: Arc::clone(spill),
                at,
                len: text.len(),
            })),
            None => packed,
        }
    }

    /// The tool and its instances (a packed one parsed again: an error
    /// only if the text is not what [`CorpusTool::packed`] wrote).
    pub fn unpack(&self) -> Result<(Arc<Tool>, Arc<[KnownInstance]>), String> {
        match self {
            Self::Parsed { tool, known } => Ok((Arc::clone(tool), Arc::clone(known))),
            Self::Stored(stored) => {
                let bytes = stored
                    .spill
                    .get(stored.at, stored.len)
                    .map_err(|e| format!("a stored corpus tool does not read back: {e}"))?;
                unpacked(&bytes)
                    .map_err(|e| format!("a stored corpus tool does not read back: {e}"))
            }
            Self::Packed(text) => unpacked(text.as_bytes())
                .map_err(|e| format!("a packed corpus tool does not read back: {e}")),
        }
    }

    /// Whether both are the same shared tool (the same `Arc`).
    pub fn same(&self, other: &Self) -> bool {
        self.id() == other.id()
    }

    /// The shared tool's address: equal for the clones of one tool.
    pub fn id(&self) -> *const () {
        match self {
            Self::Parsed { tool, .. } => Arc::as_ptr(tool).cast(),
            Self::Packed(text) => Arc::as_ptr(text).cast(),
            Self::Stored(stored) => Arc::as_ptr(stored).cast(),
        }
    }
}

/// What [`CorpusTool::packed`] wrote, read back.
fn unpacked(text: &[u8]) -> serde_json::Result<(Arc<Tool>, Arc<[KnownInstance]>)> {
    let (tool, known): (Tool, Vec<(Value, bool)>) = serde_json::from_slice(text)?;
    let known: Vec<KnownInstance> = known
        .into_iter()
        .map(|(data, valid)| KnownInstance { data, valid })
        .collect();
    Ok((Arc::new(tool), Arc::from(known)))
}
