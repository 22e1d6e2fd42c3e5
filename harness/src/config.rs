//! Configuration the built-in pipelines read (`--config FILE`): plain data,
//! below the passes that read it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::LoadError;
use crate::lane::Lane;

/// Configuration the built-in pipelines read (never hard-coded policy).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PipelineConfig {
    /// DeepSeek strict: tool names whose runtime contract the strict subset
    /// cannot express; they fail closed by name.
    #[serde(default)]
    pub strict_unusable: Vec<String>,
}

/// The on-disk form: `[deepseek-strict] strict_unusable = [..]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default, rename = "deepseek-strict")]
    deepseek_strict: DeepseekSection,
    #[serde(default)]
    pipelines: BTreeMap<String, ExternalDef>,
}

/// A named external pipeline: `[pipelines.<name>]` in the config file.
///
/// ```toml
/// [pipelines.pydantic-ai]
/// command = ["python3", "peers/py_peers.py", "--serve"]   # or one string, split like a shell
/// cwd = "peers"                                          # default: the config file's folder
/// env = { AISDK_DIR = "/opt/peers" }
/// lanes = { "pydantic-ai:openai-strict" = "openai-strict" }  # implementation lane id → lane
/// timeout = 30                                           # seconds per request
/// ```
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExternalDef {
    /// The command line: an argument list, or one string split like a shell.
    pub(crate) command: Command,
    /// The working directory, relative to the config file's directory
    /// (default: that directory itself).
    #[serde(default)]
    pub(crate) cwd: Option<PathBuf>,
    /// Extra environment variables for the process.
    #[serde(default)]
    pub(crate) env: BTreeMap<String, String>,
    /// The implementation's lane ids and the wireshape lane each shapes for.
    /// Empty: taken from what the implementation announces at start.
    #[serde(default)]
    pub(crate) lanes: BTreeMap<String, Lane>,
    /// Seconds to wait for one answer (default: `--request-timeout`).
    #[serde(default)]
    pub(crate) timeout: Option<f64>,
}

/// `command`: a list of arguments, or one shell-like string.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub(crate) enum Command {
    Line(String),
    Args(Vec<String>),
}

/// Every `[pipelines.<name>]` of a config file, with where it was read.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ExternalDefs {
    /// The config file's directory (relative `cwd`s resolve against it).
    pub(crate) base: PathBuf,
    pub(crate) pipelines: BTreeMap<String, ExternalDef>,
}

impl ExternalDefs {
    /// Parse the `[pipelines.*]` tables of a TOML config file; errors name
    /// `path:line:column`.
    pub(crate) fn parse(path: &Path, text: &str) -> Result<Self, LoadError> {
        let file: ConfigFile =
            toml::from_str(text).map_err(|e| LoadError::from_toml(path, text, &e))?;
        Ok(Self {
            base: path.parent().map(Path::to_path_buf).unwrap_or_default(),
            pipelines: file.pipelines,
        })
    }

    /// [`parse`](Self::parse) the file at `path`.
    pub(crate) fn load(path: &Path) -> Result<Self, LoadError> {
        let text = std::fs::read_to_string(path).map_err(|source| LoadError::Io {
            path: path.to_owned(),
            source,
        })?;
        Self::parse(path, &text)
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct DeepseekSection {
    #[serde(default)]
    strict_unusable: Vec<String>,
}

impl PipelineConfig {
    /// Parse a TOML config file; errors name `path:line:column`.
    pub fn load(path: &Path) -> Result<Self, LoadError> {
        let text = std::fs::read_to_string(path).map_err(|source| LoadError::Io {
            path: path.to_owned(),
            source,
        })?;
        Self::parse(path, &text)
    }

    /// Parse TOML text; `path` is for messages only.
    pub fn parse(path: &Path, text: &str) -> Result<Self, LoadError> {
        let file: ConfigFile =
            toml::from_str(text).map_err(|e| LoadError::from_toml(path, text, &e))?;
        let mut strict_unusable = file.deepseek_strict.strict_unusable;
        strict_unusable.sort();
        strict_unusable.dedup();
        Ok(Self { strict_unusable })
    }
}
