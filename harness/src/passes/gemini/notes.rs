//! Notes carried in record reasons: the fragment a pass appends to its
//! record (` [note: location: what]`), read back by `gemini-constraint-note`.

use serde_json::Value;

use crate::degradation::Action;
use crate::passes::Cx;
use crate::schema;

pub(super) const NOTE_OPEN: &str = " [note: ";

/// A record reason that also carries the note fragment `location: what`.
pub(crate) fn noted(reason: &str, pointer: &str, what: &str) -> String {
    format!(
        "{reason}{NOTE_OPEN}{}: {what}]",
        crate::passes::notes::location(pointer)
    )
}

/// `keyword value` as a note shows it (strings bare, others as JSON).
pub(crate) fn show(keyword: &str, value: &Value) -> String {
    match value {
        Value::String(s) => format!("{keyword} {s}"),
        other => format!("{keyword} {}", schema::to_bytes(other)),
    }
}

/// The note fragments the records of this tool carry, in record order.
pub(super) fn fragments(cx: &Cx<'_>) -> Vec<String> {
    cx.degradations
        .iter()
        .filter(|d| d.action != Action::Noted)
        .filter_map(|d| {
            let at = d.reason.find(NOTE_OPEN)?;
            let rest = &d.reason[at + NOTE_OPEN.len()..];
            Some(rest.strip_suffix(']').unwrap_or(rest).to_owned())
        })
        .collect()
}
