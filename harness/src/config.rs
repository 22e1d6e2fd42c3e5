//! Configuration the built-in pipelines read (`--config FILE`): plain data,
//! below the passes that read it.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::LoadError;

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
