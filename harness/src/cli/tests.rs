//! Tests of the command line: ledger entries, error messages and exit statuses.

use super::commands::append_to_ledger;
use super::*;
use crate::ExitStatus;
use crate::ledger::Entry as LedgerEntry;

fn ledger_entry() -> LedgerEntry {
    LedgerEntry {
        case: "mini#slug".to_owned(),
        class: "accepted".to_owned(),
        reason: "intended".to_owned(),
        evidence: Vec::new(),
        tags: vec!["new:pattern:removed".to_owned()],
        when: Vec::new(),
        external: false,
        new_sha256: None,
    }
}

/// A ledger that cannot be read as text is never taken for an empty
/// one: the error names the file, exits 2, and the bytes stay.
#[test]
fn appending_to_a_non_utf8_ledger_fails_and_keeps_its_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("groq.toml");
    let bytes = b"# \xff\xfe not UTF-8\n".to_vec();
    std::fs::write(&path, &bytes).unwrap();
    let err = append_to_ledger(&path, &[ledger_entry()]).unwrap_err();
    assert_eq!(
        message_of(&err),
        format!(
            "{}: cannot read: stream did not contain valid UTF-8",
            path.display()
        )
    );
    assert_eq!(exit_status_of(&err), ExitStatus::Usage);
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn appending_keeps_the_existing_entries_and_adds_the_new_ones() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("groq.toml");
    append_to_ledger(&path, &[ledger_entry()]).unwrap();
    let one = std::fs::read_to_string(&path).unwrap();
    append_to_ledger(&path, &[ledger_entry()]).unwrap();
    let two = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        two,
        format!("{one}\n{}", crate::ledger::to_toml(&[ledger_entry()]))
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}
