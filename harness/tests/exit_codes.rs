//! Exit codes and error messages end to end (DESIGN.md: 0 clean · 1
//! failures · 2 usage or input · 3 timeout · 4 baseline failed · 70
//! internal), and the output directories that must never be lost. Each
//! test runs the binary in a temporary copy of `tests/testdata/cli`, or
//! (`mutants`) in the repository root with its output in a temporary
//! directory. Exit 4 is pinned in `tests/mutants.rs` (a failing pass
//! example); a panic (exit 70) by the boundary's unit tests in `src/main.rs`.

mod util;

use std::path::{Path, PathBuf};

use util::{copy_of_testdata, outputs, wireshape};

fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = wireshape(dir).args(args).output().expect("run");
    let (o, e) = outputs(&out);
    (out.status.code().expect("exit code"), o, e)
}

/// The repository root (the committed corpus, recordings and examples).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

// ------------------------------------------------------------ 0 and 1

#[test]
fn exit_0_when_nothing_is_wrong() {
    let dir = copy_of_testdata();
    let (code, out, err) = run_in(dir.path(), &["lanes"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("openai-chat"), "{out}");
}

#[test]
fn exit_1_when_a_provider_would_reject_a_tool() {
    let dir = copy_of_testdata();
    let (code, _, err) = run_in(dir.path(), &["check", "--lane", "all", "union.json"]);
    assert_eq!(code, 1, "{err}");
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

#[test]
fn an_impossible_as_of_date_is_refused_by_the_parser() {
    let dir = copy_of_testdata();
    let (code, out, err) = run_in(
        dir.path(),
        &["check", "--as-of", "2025-99-99", "union.json"],
    );
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert_eq!(
        err,
        "error: invalid value '2025-99-99' for '--as-of <AS_OF>': bad date `2025-99-99`: expected YYYY-MM-DD\n\n\
         For more information, try '--help'.\n"
    );
    for bad in ["2025-02-29", "2024-04-31", "2024-00-10", "2024-1-100"] {
        let (code, _, err) = run_in(dir.path(), &["check", "--as-of", bad, "union.json"]);
        assert_eq!(code, 2, "{bad}: {err}");
    }
    // A leap day is a real date.
    let (code, _, err) = run_in(
        dir.path(),
        &["check", "--as-of", "2024-02-29", "union.json"],
    );
    assert_eq!(code, 1, "{err}");
}

/// A bad `--output-format` is refused before any work: the tools file is
/// never read (it does not exist).
#[test]
fn a_bad_output_format_is_refused_before_any_work() {
    let dir = copy_of_testdata();
    for command in ["check", "replay", "metamorphic"] {
        let mut args = vec![command, "--output-format", "xml"];
        if command == "check" {
            args.push("nope.json");
        }
        let (code, out, err) = run_in(dir.path(), &args);
        assert_eq!(code, 2, "{command}: {err}");
        assert_eq!(out, "");
        assert_eq!(
            err,
            "error: invalid value 'xml' for '--output-format <FORMAT>'\n  \
             [possible values: text, json]\n\n\
             For more information, try '--help'.\n",
            "{command}"
        );
    }
}

/// `run --output` on the user's own directory: exit 2, every file kept.
#[test]
fn run_refuses_an_output_directory_holding_a_users_file() {
    let dir = copy_of_testdata();
    std::fs::create_dir(dir.path().join("out")).unwrap();
    std::fs::write(dir.path().join("out/user.txt"), "mine").unwrap();
    let (code, _, err) = run_in(
        dir.path(),
        &["run", "--lanes", "openai-chat", "--output", "out"],
    );
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err,
        "wireshape: out: exists and is not a wireshape report directory (it lacks cases.json or run.json); refusing to replace it\n"
    );
    assert_eq!(names(&dir.path().join("out")), ["user.txt"]);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out/user.txt")).unwrap(),
        "mine"
    );
}

/// `mutants --output` on the user's own directory: exit 2 before any work,
/// every file kept (it used to delete the directory).
#[test]
fn mutants_refuses_an_output_directory_holding_a_users_file() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("user.txt"), "mine").unwrap();
    let examples = tmp.path().join("no-examples");
    std::fs::create_dir(&examples).unwrap();
    let (code, stdout, err) = run_in(
        &root(),
        &[
            "mutants",
            "--lanes",
            "groq",
            "--examples",
            examples.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 2, "{stdout}{err}");
    assert_eq!(stdout, "");
    assert_eq!(
        err,
        format!(
            "wireshape: {}: exists and is not a wireshape mutants report directory (it lacks mutants.json or run.json); refusing to replace it\n",
            out.display()
        )
    );
    assert_eq!(names(tmp.path()), ["no-examples", "out"]);
    assert_eq!(names(&out), ["user.txt"]);
    assert_eq!(
        std::fs::read_to_string(out.join("user.txt")).unwrap(),
        "mine"
    );
}

/// The two kinds of report never replace each other (they share
/// `WIRESHAPE_OUTPUT`).
#[test]
fn mutants_refuses_a_run_report_directory() {
    let dir = copy_of_testdata();
    let (code, _, err) = run_in(
        dir.path(),
        &["run", "--lanes", "openai-chat", "--output", "out"],
    );
    assert_eq!(code, 0, "{err}");
    let before = names(&dir.path().join("out"));
    let out = dir.path().join("out");
    let (code, _, err) = run_in(
        &root(),
        &[
            "mutants",
            "--lanes",
            "groq",
            "--output",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("is not a wireshape mutants report directory"),
        "{err}"
    );
    assert_eq!(names(&out), before);
}

// ------------------------------------------------------------ 3

/// With no time budget, a mutant no example catches is a timeout: exit 3.
#[test]
fn exit_3_when_a_mutant_runs_out_of_time() {
    let tmp = tempfile::tempdir().unwrap();
    let examples = tmp.path().join("no-examples");
    std::fs::create_dir(&examples).unwrap();
    let name = "v1/openai-responses/responses-root-flatten: swapped with strip-root-assertions";
    let (code, list, err) = run_in(
        &root(),
        &["mutants", "--list", "--lanes", "openai-responses"],
    );
    assert_eq!(code, 0, "{err}");
    let names: Vec<&str> = list.lines().collect();
    let i = names
        .iter()
        .position(|n| *n == name)
        .expect("mutant listed");
    let shard = format!("{}/{}", i + 1, names.len());
    let out = tmp.path().join("m");
    let (code, stdout, err) = run_in(
        &root(),
        &[
            "mutants",
            "--lanes",
            "openai-responses",
            "--shard",
            &shard,
            "--examples",
            examples.to_str().unwrap(),
            "--timeout",
            "0",
            "--output",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 3, "{stdout}{err}");
    assert_eq!(
        std::fs::read_to_string(out.join("timeout.txt")).unwrap(),
        format!("{name}\n")
    );
}

// ------------------------------------------------------------ 70

/// A report that cannot be written (here: its parent is a file; a full
/// disk alike) is an environment failure, exit 70, not a usage error.
#[test]
fn exit_70_when_the_report_cannot_be_written() {
    let dir = copy_of_testdata();
    std::fs::write(dir.path().join("file"), "x").unwrap();
    let (code, _, err) = run_in(
        dir.path(),
        &["run", "--lanes", "openai-chat", "--output", "file/out"],
    );
    assert_eq!(code, 70, "{err}");
    assert_eq!(
        err,
        "wireshape: file: cannot create directory: File exists (os error 17)\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("file")).unwrap(),
        "x"
    );
}

#[test]
fn exit_70_when_the_mutants_folder_cannot_be_written() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let (code, _, err) = run_in(
        &root(),
        &[
            "mutants",
            "--lanes",
            "groq",
            "--output",
            file.join("out").to_str().unwrap(),
        ],
    );
    assert_eq!(code, 70, "{err}");
    assert_eq!(
        err,
        format!(
            "wireshape: {}: cannot create directory: File exists (os error 17)\n",
            file.display()
        )
    );
    assert_eq!(names(tmp.path()), ["file"]);
}

// ------------------------------------------------------------ a reader that goes

/// `n` copies of `union.json`'s first tool, each under its own name: on
/// every lane some provider rejects it, and the output of `check` and
/// `shape` is far more than a pipe holds (64 KiB on Linux).
fn many_tools(dir: &Path, n: usize) -> &'static str {
    let union: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("union.json")).unwrap()).unwrap();
    let tools: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let mut t = union["tools"][0].clone();
            t["name"] = format!("quote_{i}").into();
            t
        })
        .collect();
    std::fs::write(
        dir.join("many.json"),
        serde_json::json!({ "tools": tools }).to_string(),
    )
    .unwrap();
    "many.json"
}

/// Run `args` with standard output a pipe whose reader has gone before
/// anything is read (`wireshape check … | head`, a pager quit at once):
/// the exit code and standard error.
fn with_reader_gone(dir: &Path, args: &[&str]) -> (i32, String) {
    let mut child = util::wireshape_process(dir)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    let err = String::from_utf8(out.stderr).expect("utf8 stderr");
    (out.status.code().expect("exit code"), err)
}

#[test]
fn a_reader_that_stops_reading_is_no_error_and_the_verdict_stands() {
    let dir = copy_of_testdata();
    let file = many_tools(dir.path(), 300);
    // The output is more than a pipe holds: the writes meet the closed pipe.
    let full = wireshape(dir.path())
        .args(["check", "--lane", "all", file])
        .output()
        .expect("run");
    assert!(full.stdout.len() > 1 << 20, "{}", full.stdout.len());
    assert_eq!(full.status.code(), Some(1));
    for format in ["text", "json"] {
        let (code, err) = with_reader_gone(
            dir.path(),
            &["check", "--lane", "all", "--output-format", format, file],
        );
        assert_eq!(
            (code, err.as_str()),
            (1, ""),
            "check --output-format {format}"
        );
    }
    let (code, err) = with_reader_gone(dir.path(), &["shape", "--lane", "openai-strict", file]);
    assert_eq!((code, err.as_str()), (0, ""), "shape");
    // `--explain` writes standard error too; its reader going is no error.
    let mut child = util::wireshape_process(dir.path())
        .args(["shape", "--lane", "openai-strict", "--explain", file])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take());
    drop(child.stderr.take());
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(0), "shape --explain");
}

/// Any other failure to write standard output (here a full disk) is said
/// once, plainly, with exit 70: the output is incomplete.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_under_standard_output_is_said_plainly() {
    let dir = copy_of_testdata();
    for args in [
        &["lanes"][..],
        &["check", "--lane", "all", "union.json"][..],
    ] {
        let out = util::wireshape_process(dir.path())
            .args(args)
            .stdout(std::fs::File::create("/dev/full").expect("/dev/full"))
            .output()
            .expect("run");
        assert_eq!(
            (
                out.status.code(),
                String::from_utf8(out.stderr).expect("utf8").as_str()
            ),
            (
                Some(70),
                "wireshape: cannot write to standard output: No space left on device (os error 28)\n"
            ),
            "{args:?}"
        );
    }
}
