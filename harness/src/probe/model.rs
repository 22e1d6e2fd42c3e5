//! The probe's plain data: a planned request, its result, and where the
//! answers go (shared by the planner, the sender and the recorder).

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::lane::Lane;
use crate::recording::Recording;

/// One request of the plan.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Planned {
    pub(crate) lane: Lane,
    pub(crate) construct: String,
    pub(crate) provider: &'static str,
    /// `POST <url>`, the key never in it.
    pub(crate) endpoint: String,
    pub(crate) model: String,
    pub(crate) tools: usize,
    /// Estimated input tokens (the body's bytes / 4, rounded up).
    pub(crate) input_tokens: u64,
    /// The output limit the body asks for.
    pub(crate) output_tokens: u64,
    /// The variable the key is read from (`null`: the lane needs none).
    pub(crate) key_env: Option<&'static str>,
    /// Whether that variable is set (its value is never read into the plan).
    pub(crate) key_set: bool,
    #[serde(skip)]
    pub(crate) url: String,
    #[serde(skip)]
    pub(crate) body: Vec<u8>,
    /// The wire tools as sent.
    #[serde(skip)]
    pub(crate) wire_tools: Vec<Value>,
}

/// What became of one planned request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Verdict {
    /// A 2xx: the provider accepted the tools.
    Accepted,
    /// A 400, 413 or 422: the provider rejected the tools.
    Rejected,
    /// No answer about the schema: a timeout, a refused key, a 429 or
    /// 5xx after the retries, an answer that is not JSON, …
    Failed,
    /// Not sent: no key for the lane, or the budget was spent.
    NotSent,
}

/// One planned request's result.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ProbeResult {
    pub(crate) lane: Lane,
    pub(crate) construct: String,
    pub(crate) model: String,
    pub(crate) verdict: Verdict,
    /// The last answer's status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) status: Option<u16>,
    /// Attempts made (retries included).
    pub(crate) attempts: usize,
    /// What happened, in one line (redacted).
    pub(crate) detail: String,
    /// The recording written (relative to the recordings directory), or
    /// the one that already held this answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) recording: Option<String>,
    /// The rule the answer is evidence for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) rule: Option<String>,
    /// Why the oracle disagrees with the answer (`None`: it agrees, or no
    /// answer came).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) disagreement: Option<String>,
}

impl ProbeResult {
    /// Whether the result counts against the run (exit 1).
    pub(crate) fn is_failure(&self) -> bool {
        self.verdict == Verdict::Failed || self.disagreement.is_some()
    }
}

/// Where the answers go and how they are dated.
#[derive(Debug, Clone)]
pub(crate) struct Sink<'a> {
    /// The recordings directory (`<dir>/<provider>/<id>.json`).
    pub(crate) recordings: &'a Path,
    /// The observation date written into each recording.
    pub(crate) date: &'a str,
    /// The recordings already there: a rejection whose body holds one of
    /// their `match` texts for the oracle's rule is evidence for that rule.
    pub(crate) known: &'a [Recording],
}

/// The path of a recording under `dir`, as results name it.
pub(crate) fn recording_path(dir: &Path, rec: &Recording) -> PathBuf {
    dir.join(&rec.provider).join(format!("{}.json", rec.id))
}
