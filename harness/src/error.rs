//! Error types at the library boundary (thiserror). Messages are lowercase,
//! carry no trailing period and name the file, position or lane concerned.

use std::path::PathBuf;

use crate::exit_code::ExitStatus;

/// A file that could not be read or understood as the format it claims.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read at all.
    #[error("{path}: cannot read: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The bytes are not JSON (or TOML); line and column are 1-based.
    #[error("{path}:{line}:{column}: {message}")]
    Syntax {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// Valid JSON whose shape is not the expected format; `line`/`column`
    /// locate the offending value where it can be known (0 when not: then
    /// the message reads `path: message`).
    #[error("{}: {message}", Located(path, *line, *column))]
    Shape {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
}

impl LoadError {
    /// The same error, its line moved down by `lines` (a document embedded
    /// below a header or at an offset in a larger file).
    #[must_use]
    pub fn shifted(self, lines: usize) -> Self {
        match self {
            Self::Syntax {
                path,
                line,
                column,
                message,
            } => Self::Syntax {
                path,
                line: line + lines,
                column,
                message,
            },
            Self::Shape {
                path,
                line,
                column,
                message,
            } => Self::Shape {
                path,
                line: line + lines,
                column,
                message,
            },
            other @ Self::Io { .. } => other,
        }
    }

    /// Wrap a `serde_json::Error` with the file's path, keeping its position.
    pub fn from_json(path: impl Into<PathBuf>, err: &serde_json::Error) -> Self {
        let path = path.into();
        let message = strip_position(&err.to_string());
        match err.classify() {
            serde_json::error::Category::Data => Self::Shape {
                path,
                line: err.line(),
                column: err.column(),
                message,
            },
            _ => Self::Syntax {
                path,
                line: err.line(),
                column: err.column(),
                message,
            },
        }
    }

    /// Wrap a TOML error with the file's path and the 1-based line and
    /// column of its span (`text` is the file's contents).
    pub fn from_toml(path: impl Into<PathBuf>, text: &str, err: &toml::de::Error) -> Self {
        match err.span() {
            Some(s) => Self::at_offset(path, text, s.start, err.message()),
            None => Self::Shape {
                path: path.into(),
                line: 0,
                column: 0,
                message: err.message().to_owned(),
            },
        }
    }

    /// A shape error about the value at byte `offset` of `text` (the file's
    /// contents), located by its 1-based line and column.
    pub(crate) fn at_offset(
        path: impl Into<PathBuf>,
        text: &str,
        offset: usize,
        message: impl Into<String>,
    ) -> Self {
        let mut end = offset.min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let before = &text[..end];
        let line = before.matches('\n').count() + 1;
        let column = before
            .rfind('\n')
            .map_or(before.chars().count(), |i| before[i + 1..].chars().count())
            + 1;
        Self::Shape {
            path: path.into(),
            line,
            column,
            message: message.into(),
        }
    }

    /// Every load error is about the user's input: exit 2.
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            Self::Io { .. } | Self::Syntax { .. } | Self::Shape { .. } => ExitStatus::Usage,
        }
    }

    /// The file this error is about.
    pub fn path(&self) -> &std::path::Path {
        match self {
            Self::Io { path, .. } | Self::Syntax { path, .. } | Self::Shape { path, .. } => path,
        }
    }
}

/// `path:line:column`, or just `path` when the position is unknown (line 0).
struct Located<'a>(&'a std::path::Path, usize, usize);

impl std::fmt::Display for Located<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self(path, 0, _) => write!(f, "{}", path.display()),
            Self(path, line, column) => write!(f, "{}:{line}:{column}", path.display()),
        }
    }
}

/// serde_json appends " at line L column C" to its messages; we print the
/// position as `path:line:column` instead, so drop the duplicate.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}

/// A usage error: an unknown lane, pipeline or format name.
#[derive(Debug, thiserror::Error)]
pub enum UsageError {
    #[error("unknown lane `{0}` (see `wireshape lanes`)")]
    UnknownLane(String),
    #[error("unknown pipeline `{0}` (see `wireshape pipelines`)")]
    UnknownPipeline(String),
    #[error("unknown catalog format `{0}`")]
    UnknownFormat(String),
    #[error("bad shard `{0}`: expected K/N with 1 <= K <= N")]
    BadShard(String),
    #[error("bad date `{0}`: expected YYYY-MM-DD")]
    BadDate(String),
    /// A pipeline name that is neither built in nor in the config file.
    #[error(
        "unknown pipeline `{name}`: not v0, v1, verbatim or `cmd:<command line>`, and {where_}"
    )]
    NoSuchPipeline { name: String, where_: String },
    /// No lane to run: a pipeline does not serve the lanes asked for.
    #[error("no lane to run: {0}")]
    NoLanes(String),
    /// `compare --pipelines`: an empty entry, or a pipeline named twice.
    #[error("bad pipeline list `{list}`: {reason}")]
    BadPipelineList { list: String, reason: String },
    /// `probe`: a construct filter that names no construct.
    #[error("no probe construct matches `{0}` (see corpus/probes/)")]
    UnknownConstruct(String),
    /// `probe --live` without the other gates (`WIRESHAPE_LIVE=1`, a key).
    #[error("{0}")]
    LiveNotAllowed(String),
    /// `corpus fetch` without `--into`, and `WIRESHAPE_CORPUS_PATH` names
    /// several directories: which one to fetch into is not clear.
    #[error(
        "WIRESHAPE_CORPUS_PATH names {0} directories ({1}): name the one to fetch into with --into"
    )]
    AmbiguousInto(usize, String),
    /// `mock-provider` could not load its recordings or bind its address.
    #[error("cannot serve {lane} on {addr}: {message}")]
    CannotServe {
        lane: String,
        addr: String,
        message: String,
    },
}

impl UsageError {
    /// Every usage error exits 2.
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            Self::UnknownLane(_)
            | Self::UnknownPipeline(_)
            | Self::UnknownFormat(_)
            | Self::BadShard(_)
            | Self::BadDate(_)
            | Self::NoLanes(_)
            | Self::NoSuchPipeline { .. }
            | Self::BadPipelineList { .. }
            | Self::UnknownConstruct(_)
            | Self::LiveNotAllowed(_)
            | Self::AmbiguousInto(..)
            | Self::CannotServe { .. } => ExitStatus::Usage,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_syntax_errors_name_path_line_and_column() {
        let err = serde_json::from_str::<serde_json::Value>("{\n  \"a\": ,\n}").unwrap_err();
        let e = LoadError::from_json("x/tools.json", &err);
        assert_eq!(e.to_string(), "x/tools.json:2:8: expected value");
    }

    #[test]
    fn a_shape_error_without_a_position_names_only_the_path() {
        let e = LoadError::Shape {
            path: "corpus/ledger/groq.toml".into(),
            line: 0,
            column: 0,
            message: "[[pin]] entry 0: `reason` is empty".to_owned(),
        };
        assert_eq!(
            e.to_string(),
            "corpus/ledger/groq.toml: [[pin]] entry 0: `reason` is empty"
        );
        let e = LoadError::Shape {
            path: "x.json".into(),
            line: 3,
            column: 1,
            message: "m".to_owned(),
        };
        assert_eq!(e.to_string(), "x.json:3:1: m");
    }
}
