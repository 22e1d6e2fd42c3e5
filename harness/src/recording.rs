//! Recorded provider responses: `recordings/<provider>/<id>.json`, one file
//! per response (DESIGN.md, "File formats" → Recording).
//!
//! A recording pairs the `tools` of one request, in the lane's native wire
//! shape, with the provider's answer: the status and the error body exactly as
//! the public source quotes it, plus `match`, a stable substring of the error
//! message (no tool indices, no request ids) that a reproduction must contain.
//! Most public reports quote the error but not the schema, so most requests
//! are rebuilt from the construct the error names (`request.reconstructed`).
//!
//! [`load_recordings`] reads every `<provider>/*.json` below a directory and
//! checks what serde cannot: the file is named after its `id`, sits in its
//! `provider`'s directory, names a known lane, carries a `YYYY-MM-DD` date and
//! an HTTP status, and, for a rejection, its body really contains `match`.
//!
//! "The body contains `match`" is judged on the body's text: a string body as
//! it is, a JSON body's string values (recursively), each also with one level
//! of JSON string escapes undone, because sources often quote a provider's
//! JSON body inside a log line (`Unknown name \"const\"`).
//!
//! Request members besides `tools`: `tool_choice` and `response_format`, as
//! sent. An empty `tools` array is sent as `"tools": []` unless
//! `response_format` is present: such a structured-output request carried no
//! `tools` member at all (see [`RecordedRequest::tools_member`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::LoadError;

/// Every lane id a recording may name (DESIGN.md, "Lanes"), sorted.
pub(crate) const LANE_IDS: [&str; 16] = [
    "anthropic-compatible",
    "anthropic-messages",
    "bedrock-converse",
    "cerebras",
    "deepseek-chat",
    "deepseek-strict",
    "gemini-jsonschema",
    "gemini-openapi",
    "groq",
    "mistral",
    "moonshot",
    "ollama",
    "openai-chat",
    "openai-responses",
    "openai-strict",
    "xai",
];

/// Where a recording comes from (`source.kind`).
pub(crate) const SOURCE_KINDS: [&str; 3] = ["public-report", "documentation", "live-probe"];

/// One recorded provider response to one request's tools.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recording {
    /// `<rule>-<short source suffix>`; the file is `<id>.json`.
    pub id: String,
    /// The oracle rule this response is evidence for.
    pub rule: String,
    /// The lane whose wire the request used.
    pub lane: String,
    /// Lowercase provider slug; the recording's directory.
    pub provider: String,
    /// The endpoint as the source names it (`POST /v1/messages`).
    pub endpoint: String,
    /// When the response was observed, `YYYY-MM-DD`.
    pub observed: String,
    /// The public source.
    pub source: RecordingSource,
    /// What was sent.
    pub request: RecordedRequest,
    /// What came back.
    pub response: RecordedResponse,
    /// A stable substring of the error message that a reproduction must contain.
    #[serde(rename = "match")]
    pub match_text: String,
    /// One line: what was reconstructed, what varies, what was redacted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// `"reject"` (the default when absent) or `"accept"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<String>,
    /// The model the request named, when the source says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The probe construct (`corpus/probes/<id>.json`) a live probe sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub construct: Option<String>,
}

/// `source`: what kind of evidence, and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordingSource {
    /// `public-report`, `documentation` or `live-probe`.
    pub kind: String,
    /// The source's address, exactly as given.
    pub url: String,
}

/// `request`: the tools (and the few other members a rule needs) as sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedRequest {
    /// Rebuilt from the construct the source describes (not quoted from it).
    pub reconstructed: bool,
    /// The request's `tools` array in the lane's native wire shape.
    pub tools: Vec<Value>,
    /// The request's `tool_choice`, when a rule depends on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<Value>,
    /// The request's `response_format`, for structured-output rejections.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_format: Option<Value>,
}

/// `response`: the status and the body exactly as the source quotes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedResponse {
    /// HTTP status.
    pub status: u16,
    /// Parsed JSON when the source quotes JSON, else the quoted text as a string.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Value>,
}

impl Recording {
    /// Whether the provider accepted the request (`expect: "accept"`).
    pub fn expects_accept(&self) -> bool {
        self.expect.as_deref() == Some("accept")
    }
}

impl RecordedRequest {
    /// The request's `tools` member: `None` when the request had none (an
    /// empty `tools` next to a `response_format`), else the array as sent
    /// (possibly empty: sending `"tools": []` is itself a recorded rejection).
    pub fn tools_member(&self) -> Option<&[Value]> {
        if self.tools.is_empty() && self.response_format.is_some() {
            None
        } else {
            Some(&self.tools)
        }
    }
}

/// Load every `<dir>/<provider>/*.json`, validated, sorted by id.
///
/// Files directly in `dir` other than `*.json` (the README) and non-JSON files
/// in provider directories are ignored; a `*.json` directly in `dir` is an
/// error (a recording belongs in its provider's directory).
pub fn load_recordings(dir: &Path) -> Result<Vec<Recording>, LoadError> {
    let mut out = Vec::new();
    let mut seen: BTreeMap<String, PathBuf> = BTreeMap::new();
    for entry in sorted_entries(dir)? {
        if entry.is_dir() {
            for path in sorted_entries(&entry)? {
                if path.is_file() && has_json_extension(&path) {
                    let rec = load_one(&path)?;
                    if let Some(first) = seen.insert(rec.id.clone(), path.clone()) {
                        return Err(shape(
                            &path,
                            format!("duplicate id `{}` (also in {})", rec.id, first.display()),
                        ));
                    }
                    out.push(rec);
                }
            }
        } else if has_json_extension(&entry) {
            return Err(shape(
                &entry,
                "a recording must sit in its provider's directory: <dir>/<provider>/<id>.json"
                    .to_owned(),
            ));
        }
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(out)
}

/// Parse and validate one recording file.
fn load_one(path: &Path) -> Result<Recording, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let rec: Recording = serde_json::from_str(&text).map_err(|e| LoadError::from_json(path, &e))?;
    validate(path, &rec).map_err(|message| shape(path, message))?;
    Ok(rec)
}

/// The checks serde cannot make; `Err` carries the message.
fn validate(path: &Path, rec: &Recording) -> Result<(), String> {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    if rec.id.is_empty() || stem != rec.id {
        return Err(format!(
            "file name must be `<id>.json`: id is `{}`, file is `{stem}.json`",
            rec.id
        ));
    }
    if !rec.id.starts_with(&format!("{}-", rec.rule)) || rec.id.len() == rec.rule.len() + 1 {
        return Err(format!(
            "id `{}` must be `<rule>-<source suffix>` for rule `{}`",
            rec.id, rec.rule
        ));
    }
    let parent = path
        .parent()
        .and_then(Path::file_name)
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    if parent != rec.provider {
        return Err(format!(
            "provider `{}` must match the directory `{parent}`",
            rec.provider
        ));
    }
    if !is_slug(&rec.provider) {
        return Err(format!(
            "provider `{}` must be a lowercase slug (a-z, 0-9, -)",
            rec.provider
        ));
    }
    if !LANE_IDS.contains(&rec.lane.as_str()) {
        return Err(format!(
            "unknown lane `{}` (expected one of: {})",
            rec.lane,
            LANE_IDS.join(", ")
        ));
    }
    if !crate::date::is_calendar_date(&rec.observed) {
        return Err(format!(
            "observed `{}` must be a date YYYY-MM-DD",
            rec.observed
        ));
    }
    if !SOURCE_KINDS.contains(&rec.source.kind.as_str()) {
        return Err(format!(
            "source.kind `{}` must be one of: {}",
            rec.source.kind,
            SOURCE_KINDS.join(", ")
        ));
    }
    if let Some(c) = &rec.construct
        && (rec.source.kind != "live-probe" || !is_slug(c))
    {
        return Err(format!(
            "construct `{c}` belongs to a live-probe recording and must be a slug (a-z, 0-9, -)"
        ));
    }
    if rec.source.url.is_empty() {
        return Err("source.url must not be empty".to_owned());
    }
    let status = rec.response.status;
    if !(100..=599).contains(&status) {
        return Err(format!(
            "response.status {status} is not an HTTP status (100..=599)"
        ));
    }
    match rec.expect.as_deref() {
        None | Some("reject") => {
            if status < 400 {
                return Err(format!(
                    "a rejection needs an error status (400..=599), got {status}"
                ));
            }
            if rec.match_text.is_empty() {
                return Err("match must not be empty for a rejection".to_owned());
            }
            let found = rec
                .response
                .body
                .as_ref()
                .is_some_and(|body| body_contains(body, &rec.match_text));
            if !found {
                return Err(format!(
                    "match `{}` is not found in response.body",
                    rec.match_text
                ));
            }
        }
        Some("accept") => {}
        Some(other) => {
            return Err(format!("expect `{other}` must be \"reject\" or \"accept\""));
        }
    }
    Ok(())
}

/// Whether `needle` occurs in the body's text (see the module docs).
pub(crate) fn body_contains(body: &Value, needle: &str) -> bool {
    match body {
        Value::String(s) => s.contains(needle) || unescape_once(s).contains(needle),
        Value::Array(items) => items.iter().any(|v| body_contains(v, needle)),
        Value::Object(map) => map.values().any(|v| body_contains(v, needle)),
        Value::Null | Value::Bool(_) | Value::Number(_) => false,
    }
}

/// Undo one level of JSON string escapes (`\"`, `\\`, `\n`, `\t`, `\r`, `\/`);
/// any other escape is kept as written.
fn unescape_once(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('"') => out.push('"'),
            Some('\\') | None => out.push('\\'),
            Some('/') => out.push('/'),
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    out
}

fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn has_json_extension(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "json")
}

/// The entries of a directory, sorted by path (hidden entries skipped).
fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>, LoadError> {
    let io = |source| LoadError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        let hidden = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with('.'));
        if !hidden {
            paths.push(path);
        }
    }
    paths.sort();
    Ok(paths)
}

fn shape(path: &Path, message: String) -> LoadError {
    LoadError::Shape {
        path: path.to_path_buf(),
        line: 1,
        column: 1,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    const RECORDINGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../recordings");
    /// Recordings committed under `recordings/` (see its README for the list).
    const EXPECTED_COUNT: usize = 91;

    fn real() -> Vec<Recording> {
        load_recordings(Path::new(RECORDINGS)).expect("the committed recordings load")
    }

    #[test]
    fn committed_recordings_load_with_the_expected_count() {
        assert_eq!(real().len(), EXPECTED_COUNT);
    }

    #[test]
    fn committed_ids_are_unique_and_sorted() {
        let recs = real();
        let ids: Vec<&str> = recs.iter().map(|r| r.id.as_str()).collect();
        let unique: BTreeSet<&str> = ids.iter().copied().collect();
        assert_eq!(unique.len(), ids.len());
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        assert_eq!(ids, sorted);
    }

    #[test]
    fn committed_lanes_and_kinds_are_valid() {
        for r in real() {
            assert!(
                LANE_IDS.contains(&r.lane.as_str()),
                "{}: lane {}",
                r.id,
                r.lane
            );
            assert!(SOURCE_KINDS.contains(&r.source.kind.as_str()), "{}", r.id);
            assert!(
                !r.expects_accept(),
                "{}: only rejections are committed",
                r.id
            );
        }
    }

    #[test]
    fn committed_files_are_canonical_pretty_json() {
        // Key order as in the types, 2-space indent, newline at the end.
        for provider in sorted_entries(Path::new(RECORDINGS)).unwrap() {
            if !provider.is_dir() {
                continue;
            }
            for path in sorted_entries(&provider).unwrap() {
                let text = std::fs::read_to_string(&path).unwrap();
                let rec: Recording = serde_json::from_str(&text).unwrap();
                let canonical = serde_json::to_string_pretty(&rec).unwrap() + "\n";
                assert!(
                    canonical == text,
                    "{} is not in canonical form",
                    path.display()
                );
            }
        }
    }

    /// Values that look like credentials or account identifiers.
    fn credential_like(text: &str) -> Vec<String> {
        let patterns = [
            r"\bsk-(ant-)?[A-Za-z0-9_-]{20,}",
            r"\breq_[A-Za-z0-9_]{12,}",
            r"\borg-[A-Za-z0-9]{16,}",
            r"\bAKIA[0-9A-Z]{16}\b",
            r"\bAIza[0-9A-Za-z_-]{30,}",
            r"\bgsk_[A-Za-z0-9]{20,}",
            r"\bxai-[A-Za-z0-9]{20,}",
            r"Bearer\s+[A-Za-z0-9._~+/-]{16,}",
            r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}",
        ];
        let mut hits = Vec::new();
        for p in patterns {
            let re = regress::Regex::new(p).unwrap();
            for m in re.find_iter(text) {
                hits.push(text[m.range()].to_owned());
            }
        }
        // A request id given as a value: `request_id": "…`, `requestId=…`,
        // `(request id: …)`. Only `[redacted]` (or a word) may follow.
        let lower = text.to_ascii_lowercase();
        for key in ["request_id", "requestid", "request id", "request-id"] {
            for (at, _) in lower.match_indices(key) {
                let rest = &text[at + key.len()..];
                let value = rest.trim_start_matches(|c: char| {
                    c.is_whitespace() || matches!(c, '\\' | '"' | '\'' | ':' | '=')
                });
                let token: String = value
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
                    .collect();
                if token.len() >= 8 && token.chars().any(|c| c.is_ascii_digit()) {
                    hits.push(format!("{key} {token}"));
                }
            }
        }
        hits
    }

    #[test]
    fn credential_check_catches_what_it_should() {
        for bad in [
            "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123",
            r#"{"request_id":"req_011CcqiYNzcinns1gsUkV9Cg"}"#,
            r#"\"request_id\":\"req_vrtx_011CWHwzK1JUfA9QaLqgX1Sr\""#,
            "(request id: 20250611110758283206479dq0R9awt)",
            "contact someone.name@example.com",
            "org-AbCdEfGhIjKlMnOpQrSt",
        ] {
            assert!(!credential_like(bad).is_empty(), "missed: {bad}");
        }
        for fine in [
            r#""request_id": "[redacted]""#,
            "(request id: [redacted])",
            "the request_id value is [redacted]",
            "task-runner",
            r"[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$",
        ] {
            assert!(credential_like(fine).is_empty(), "false positive: {fine}");
        }
    }

    #[test]
    fn no_committed_file_contains_a_credential_like_string() {
        let mut files = Vec::new();
        for entry in sorted_entries(Path::new(RECORDINGS)).unwrap() {
            if entry.is_dir() {
                files.extend(sorted_entries(&entry).unwrap());
            } else {
                files.push(entry);
            }
        }
        assert!(files.len() > EXPECTED_COUNT, "README plus every recording");
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let hits = credential_like(&text);
            assert!(hits.is_empty(), "{}: {hits:?}", path.display());
        }
    }

    const VALID: &str = r#"{
  "id": "demo-rule-1",
  "rule": "demo-rule",
  "lane": "openai-chat",
  "provider": "openai",
  "endpoint": "POST /v1/chat/completions",
  "observed": "2025-01-02",
  "source": {"kind": "public-report", "url": "https://example.invalid/1"},
  "request": {"reconstructed": true, "tools": []},
  "response": {"status": 400, "body": {"error": {"message": "Invalid schema: \"x\" is bad"}}},
  "match": "\"x\" is bad"
}
"#;

    fn write(dir: &Path, provider: &str, file: &str, text: &str) -> PathBuf {
        let d = dir.join(provider);
        std::fs::create_dir_all(&d).unwrap();
        let path = d.join(file);
        std::fs::write(&path, text).unwrap();
        path
    }

    fn load_err(dir: &Path) -> String {
        load_recordings(dir).unwrap_err().to_string()
    }

    #[test]
    fn a_valid_file_loads_and_readme_is_ignored() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("README.md"), "# recordings\n").unwrap();
        write(tmp.path(), "openai", "demo-rule-1.json", VALID);
        write(tmp.path(), "openai", "notes.txt", "not a recording");
        let recs = load_recordings(tmp.path()).unwrap();
        assert_eq!(recs.len(), 1);
        assert_eq!(recs[0].match_text, "\"x\" is bad");
        assert_eq!(recs[0].request.tools_member(), Some(&[][..]));
    }

    #[test]
    fn malformed_json_names_path_line_and_column() {
        let tmp = tempfile::tempdir().unwrap();
        let path = write(
            tmp.path(),
            "openai",
            "demo-rule-1.json",
            "{\n  \"id\": ,\n}\n",
        );
        assert_eq!(
            load_err(tmp.path()),
            format!("{}:2:9: expected value", path.display())
        );
    }

    #[test]
    fn unknown_fields_are_rejected() {
        let tmp = tempfile::tempdir().unwrap();
        let text = VALID.replacen("\"id\"", "\"extra\": 1,\n  \"id\"", 1);
        let path = write(tmp.path(), "openai", "demo-rule-1.json", &text);
        let err = load_err(tmp.path());
        assert!(err.starts_with(&format!("{}:2:", path.display())), "{err}");
        assert!(err.contains("unknown field `extra`"), "{err}");

        let nested = VALID.replace(
            r#""reconstructed": true,"#,
            r#""reconstructed": true, "stream": true,"#,
        );
        write(tmp.path(), "openai", "demo-rule-1.json", &nested);
        assert!(load_err(tmp.path()).contains("unknown field `stream`"));
    }

    #[test]
    fn a_match_missing_from_the_body_is_rejected() {
        let tmp = tempfile::tempdir().unwrap();
        let text = VALID.replace(r#""match": "\"x\" is bad""#, r#""match": "is fine""#);
        let path = write(tmp.path(), "openai", "demo-rule-1.json", &text);
        assert_eq!(
            load_err(tmp.path()),
            format!(
                "{}:1:1: match `is fine` is not found in response.body",
                path.display()
            )
        );
    }

    #[test]
    fn a_match_inside_a_quoted_json_log_line_is_found() {
        let body = Value::String(
            r#"status 400, body: {"message": "Unknown name \"const\" at 'tools[0]'"#.to_owned(),
        );
        assert!(body_contains(&body, "Unknown name \"const\""));
        assert!(!body_contains(&body, "Unknown name \"enum\""));
    }

    #[test]
    fn shape_violations_are_named() {
        let cases = [
            (
                VALID.replace("openai-chat", "openai-chats"),
                "unknown lane `openai-chats`",
            ),
            (
                VALID.replace("2025-01-02", "2025-13-02"),
                "observed `2025-13-02` must be a date YYYY-MM-DD",
            ),
            (
                VALID.replace("\"status\": 400", "\"status\": 600"),
                "response.status 600 is not an HTTP status",
            ),
            (
                VALID.replace("\"status\": 400", "\"status\": 200"),
                "a rejection needs an error status",
            ),
            (
                VALID.replace("\"provider\": \"openai\"", "\"provider\": \"anthropic\""),
                "provider `anthropic` must match the directory `openai`",
            ),
            (
                VALID.replace("public-report", "blog"),
                "source.kind `blog` must be one of",
            ),
            (
                VALID.replace("\"rule\": \"demo-rule\"", "\"rule\": \"other-rule\""),
                "must be `<rule>-<source suffix>`",
            ),
            (
                VALID.replace("\"match\"", "\"expect\": \"maybe\",\n  \"match\""),
                "expect `maybe` must be",
            ),
        ];
        for (text, want) in cases {
            let tmp = tempfile::tempdir().unwrap();
            write(tmp.path(), "openai", "demo-rule-1.json", &text);
            let err = load_err(tmp.path());
            assert!(err.contains(want), "want {want:?} in {err}");
            assert!(err.contains(":1:1: "), "{err}");
        }
    }

    #[test]
    fn file_name_and_placement_are_checked() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), "openai", "demo-rule-2.json", VALID);
        assert!(load_err(tmp.path()).contains("file name must be `<id>.json`"));

        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("demo-rule-1.json"), VALID).unwrap();
        assert!(load_err(tmp.path()).contains("must sit in its provider's directory"));
    }

    #[test]
    fn an_accept_needs_no_match_and_tools_member_follows_response_format() {
        let tmp = tempfile::tempdir().unwrap();
        let text = VALID
            .replace("\"status\": 400", "\"status\": 200")
            .replace("\"match\"", "\"expect\": \"accept\",\n  \"match\"")
            .replace(r#""match": "\"x\" is bad""#, r#""match": """#)
            .replace(
                r#""tools": []"#,
                r#""tools": [], "response_format": {"type": "json_object"}"#,
            );
        write(tmp.path(), "openai", "demo-rule-1.json", &text);
        let recs = load_recordings(tmp.path()).unwrap();
        assert!(recs[0].expects_accept());
        assert_eq!(recs[0].request.tools_member(), None);
    }
}
