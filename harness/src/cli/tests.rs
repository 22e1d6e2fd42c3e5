//! Tests of the command line: ledger entries, error messages and exit statuses.

use super::commands::{ProgressWrites, append_to_ledger};
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

/// `--fault KIND[:TIMES]` and `--fault-delay SECS` reach the mock's options.
#[test]
fn mock_provider_takes_a_fault_and_its_delay() {
    use clap::Parser as _;
    let parse = |extra: &[&str]| {
        let mut argv = vec!["wireshape", "mock-provider", "--lane", "openai-chat"];
        argv.extend_from_slice(extra);
        match args::Cli::try_parse_from(argv).map(|c| c.command) {
            Ok(args::Command::MockProvider(a)) => Ok((a.fault, a.fault_delay)),
            Ok(other) => panic!("parsed as {other:?}"),
            Err(e) => Err(e.to_string()),
        }
    };
    let fault = crate::mock::Fault::new(crate::mock::FaultKind::RateLimit);
    assert_eq!(
        parse(&["--fault", "rate-limit:2"]),
        Ok((Some(fault.times(2)), std::time::Duration::from_secs(1)))
    );
    assert_eq!(
        parse(&["--fault", "rate-limit", "--fault-delay", "0.5"]),
        Ok((Some(fault), std::time::Duration::from_millis(500)))
    );
    assert_eq!(parse(&[]), Ok((None, std::time::Duration::from_secs(1))));
    for bad in ["rate-limit:0", "rate-limit:x", "slow", "slow-body:-1"] {
        let err = parse(&["--fault", bad]).unwrap_err();
        assert!(
            err.contains(bad.split(':').next_back().unwrap()),
            "{bad}: {err}"
        );
    }
    assert!(parse(&["--fault-delay", "soon"]).is_err());
    assert!(parse(&["--fault-delay", "0"]).is_err());
}

/// outcomes.json is rewritten 10 s into a run, then at doubling intervals.
#[test]
fn progress_writes_come_at_10_s_then_at_doubling_intervals() {
    let mut w = ProgressWrites::default();
    let at = |s: u64| std::time::Duration::from_secs(s);
    let due: Vec<u64> = (0..=160).filter(|&s| w.due(at(s))).collect();
    assert_eq!(due, [10, 30, 70, 150]);
}
