//! Exit codes and error messages end to end (DESIGN.md: 0 clean · 1
//! failures · 2 usage or input · 3 timeout · 4 baseline failed · 70
//! internal), and the output directories that must never be lost. Each
//! test runs the binary in a temporary copy of `tests/testdata/cli`, or
//! (`mutants`) in the repository root with its output in a temporary
//! directory. Exit 4 is pinned in `tests/mutants.rs` (a failing pass
//! example).

mod util;

use std::path::Path;

use util::{copy_of_testdata, outputs, wireshape};

fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = wireshape(dir).args(args).output().expect("run");
    let (o, e) = outputs(&out);
    (out.status.code().expect("exit code"), o, e)
}

// ------------------------------------------------------------ 2

#[test]
fn a_missing_file_names_the_os_error_once() {
    let dir = copy_of_testdata();
    let (code, out, err) = run_in(dir.path(), &["check", "--lane", "all", "nope.json"]);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert_eq!(
        err,
        "wireshape: nope.json: cannot read: No such file or directory (os error 2)\n"
    );
}

/// An own-corpus catalog that does not load is named once, at its own
/// position (it used to read `bad.json:0:0: bad.json:2:12: …`).
#[test]
fn an_unusable_own_corpus_file_names_its_path_line_and_column_once() {
    let dir = copy_of_testdata();
    std::fs::create_dir(dir.path().join("own")).unwrap();
    std::fs::write(dir.path().join("own/bad.json"), "{\n  \"tools\": ,\n}\n").unwrap();
    let (code, out, err) = run_in(
        dir.path(),
        &[
            "run",
            "--lanes",
            "openai-chat",
            "--own",
            "own",
            "--output",
            "out",
        ],
    );
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(err, "wireshape: own/bad.json:2:12: expected value\n");
    assert!(!dir.path().join("out").exists());
}
