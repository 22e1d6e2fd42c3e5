//! From an error that ended a command to its exit status and its one-line
//! message.

use crate::ExitStatus;

/// The exit status of an error that ended a command: the first of the
/// library's typed errors in its chain decides (each maps its own variants
/// explicitly); anything else (writing to stdout, a serializer) is internal.
pub(crate) fn exit_status_of(err: &anyhow::Error) -> ExitStatus {
    err.chain()
        .find_map(|e| {
            if let Some(e) = e.downcast_ref::<crate::LoadError>() {
                Some(e.exit_status())
            } else if let Some(e) = e.downcast_ref::<crate::UsageError>() {
                Some(e.exit_status())
            } else if let Some(e) = e.downcast_ref::<crate::report::ReportError>() {
                Some(e.exit_status())
            } else {
                e.downcast_ref::<crate::outdir::OutputError>()
                    .map(crate::outdir::OutputError::exit_status)
            }
        })
        .unwrap_or(ExitStatus::Internal)
}

/// The one-line message for an error: each cause once, joined with `: `.
/// A cause whose text its parent already ends with (an error that prints
/// its source, as `path: cannot read: <os error>` does) is not repeated.
pub(crate) fn message_of(err: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if out.is_empty() {
            out = text;
        } else if !out.ends_with(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
    }
    out
}
