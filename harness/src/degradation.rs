//! Degradation records: every keyword a pipeline removed, rewrote or added.
//!
//! The "never silent" invariant is stated over these: nothing disappears from
//! a schema without a record naming the tool, lane, JSON Pointer (in the
//! coordinates of the schema the pass received) and keyword.

use std::borrow::Cow;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::lane::Lane;

/// What a pass did to one keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// The keyword (or the named property, for name maps) is gone.
    Removed,
    /// The keyword is still there with another value, or moved under another keyword.
    Rewritten,
    /// The pass inserted a keyword the author did not write.
    Added,
    /// A constraint the wire cannot carry was surfaced as a description note.
    Noted,
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Removed => "removed",
            Self::Rewritten => "rewritten",
            Self::Added => "added",
            Self::Noted => "noted",
        }
    }
}

/// One record: `path` is a JSON Pointer into the tool's input schema
/// (`""` is the root), `keyword` the keyword concerned (for a removed
/// property, the map keyword `properties` with the property's path).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Degradation {
    /// Shared by the records of one shaping.
    pub tool: Arc<str>,
    pub lane: Lane,
    pub path: String,
    pub keyword: String,
    pub action: Action,
    /// Borrowed when the pass says it in fixed words (most do): a run
    /// holds hundreds of thousands of records until the report.
    pub reason: Cow<'static, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<Cow<'static, str>>,
    /// The pass that produced the record.
    pub pass: Cow<'static, str>,
    /// For a renamed property key: the name it has on the wire (a client
    /// maps a call's argument back to the author's name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renamed_to: Option<String>,
}

impl std::fmt::Display for Degradation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = if self.path.is_empty() {
            "/"
        } else {
            &self.path
        };
        write!(
            f,
            "{} {} {} at {} ({}): {}",
            self.pass,
            self.action.as_str(),
            self.keyword,
            path,
            self.tool,
            self.reason
        )
    }
}
