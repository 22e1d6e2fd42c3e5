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
pub(super) fn fragments<'c>(cx: &'c Cx<'_>) -> Vec<&'c str> {
    cx.degradations
        .iter()
        .filter(|d| d.action != Action::Noted)
        .filter_map(|d| {
            let at = note_at(&d.reason)?;
            let rest = &d.reason[at + NOTE_OPEN.len()..];
            Some(rest.strip_suffix(']').unwrap_or(rest))
        })
        .collect()
}

/// Where [`NOTE_OPEN`] first occurs in `reason` (`str::find`'s answer),
/// found from its one `[` (a byte search) rather than by a substring
/// search set up for every record.
fn note_at(reason: &str) -> Option<usize> {
    const BRACKET: usize = 1;
    debug_assert_eq!(NOTE_OPEN.find('['), Some(BRACKET));
    reason
        .match_indices('[')
        .map(|(i, _)| i)
        .filter(|&i| i >= BRACKET)
        .map(|i| i - BRACKET)
        .find(|&at| reason.as_bytes()[at..].starts_with(NOTE_OPEN.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn note_at_finds_what_find_finds() {
        for reason in [
            "",
            "[",
            " [note: ",
            "x [note: a: b]",
            "[note: a] [note: b]",
            "a [b] [note: c [note: d]]",
            "é [note: ü]",
            "é[note: ü]",
            "ü[[note: x] [note: y]",
            "[[ [note:x",
            "no note here",
        ] {
            assert_eq!(note_at(reason), reason.find(NOTE_OPEN), "{reason:?}");
        }
    }
}
