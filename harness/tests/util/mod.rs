//! Shared helpers for the CLI tests: a `wireshape` command with a scrubbed
//! environment, run inside a copy of the test data.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The test data folder.
pub(crate) fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/testdata")
}

/// `wireshape` with no `WIRESHAPE_*` or provider-key variables, run in `dir`.
pub(crate) fn wireshape(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("wireshape").expect("binary");
    for (k, _) in std::env::vars() {
        if k.starts_with("WIRESHAPE_")
            || k.ends_with("_API_KEY")
            || k.starts_with("AWS_")
            || k == "NO_COLOR"
        {
            cmd.env_remove(k);
        }
    }
    cmd.current_dir(dir);
    cmd
}

/// A fresh temporary copy of `tests/testdata/cli`.
pub(crate) fn copy_of_testdata() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_dir(&testdata().join("cli"), dir.path());
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    let mut entries: Vec<_> = std::fs::read_dir(from)
        .expect("read_dir")
        .flatten()
        .collect();
    entries.sort_by_key(std::fs::DirEntry::path);
    for e in entries {
        let target = to.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).expect("copy");
        }
    }
}

/// stdout and stderr of a finished command, as strings.
pub(crate) fn outputs(out: &std::process::Output) -> (String, String) {
    (
        String::from_utf8(out.stdout.clone()).expect("utf8 stdout"),
        String::from_utf8(out.stderr.clone()).expect("utf8 stderr"),
    )
}
