//! `wireshape fuzz` end to end on the built-in v1 pipeline, in a temp dir
//! (the external pipeline's run is in `external.rs`, where the test driver
//! lives).

mod util;

use std::path::Path;

use util::{outputs, wireshape};

fn fuzz_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = wireshape(dir).arg("fuzz").args(args).output().expect("run");
    let (o, e) = outputs(&out);
    (out.status.code().expect("exit code"), o, timeless(&e))
}

/// `… in 1.2s, 40 inputs/s: …` → `… in [time]: …` (the summary's one
/// volatile part).
fn timeless(text: &str) -> String {
    text.lines()
        .map(|l| match (l.find(" in "), l.find(" inputs/s")) {
            (Some(a), Some(b)) if a < b => format!("{} in [time]{}", &l[..a], &l[b + 9..]),
            _ => l.to_owned(),
        })
        .map(|l| l + "\n")
        .collect()
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn fuzz_v1_on_openai_chat_with_seed_1_finds_nothing_in_50_inputs_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = fuzz_in(
        dir.path(),
        &[
            "--pipeline",
            "v1",
            "--count",
            "50",
            "--lanes",
            "openai-chat",
            "--seed",
            "1",
            "--output",
            "out",
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert_eq!(
        timeless(&out),
        "wireshape fuzz v1: 50 inputs (seed 1, 1 lane) in [time]: no failure\n"
    );
    assert!(!dir.path().join("out").exists());
}

/// The three catalogs `fuzz --pipeline v1 --count 50 --lanes ollama --seed
/// 1` writes: eight inputs fail the oracle, each minimized to a property
/// whose value is not a schema object (ollama's Go client cannot read it),
/// which v1 ships unchanged (it fails closed).
const OLLAMA: [(&str, &str, &str); 3] = [
    ("32b53bd1fdd8", "[]", "array"),
    ("6d1c4a60d3e4", "0", "number"),
    ("f0a0fcd6b957", "\"\"", "string"),
];

#[test]
fn fuzz_v1_on_ollama_with_seed_1_writes_each_minimized_failure_once_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--pipeline",
        "v1",
        "--count",
        "50",
        "--lanes",
        "ollama",
        "--seed",
        "1",
        "--output",
        "out",
    ];
    let (code, out, err) = fuzz_in(dir.path(), &args);
    assert_eq!(code, 1, "{out}{err}");
    let file = |sha: &str, ext: &str| format!("out/oracle-ollama-{sha}.{ext}");
    assert_eq!(
        timeless(&out),
        format!(
            "wireshape fuzz v1: 50 inputs (seed 1, 1 lane) in [time]: 8 failures\n  \
             property  lane    failures\n  \
             oracle    ollama         8\n\
             out: 3 new, 5 duplicates, 0 already there\n  {}\n  {}\n  {}\n",
            file(OLLAMA[1].0, "json"),
            file(OLLAMA[2].0, "json"),
            file(OLLAMA[0].0, "json"),
        )
    );
    let found: Vec<&str> = err.lines().collect();
    assert_eq!(found.len(), 8, "{err}");
    assert!(
        found[0].starts_with("found: oracle on ollama (input 13), minimized in "),
        "{err}"
    );
    assert_eq!(
        found
            .iter()
            .filter(|l| l.ends_with(" (a duplicate)"))
            .count(),
        5
    );
    let mut want: Vec<String> = OLLAMA
        .iter()
        .flat_map(|(sha, _, _)| {
            [
                format!("oracle-ollama-{sha}.json"),
                format!("oracle-ollama-{sha}.txt"),
            ]
        })
        .collect();
    want.sort();
    assert_eq!(names(&dir.path().join("out")), want);
    for (sha, value, kind) in OLLAMA {
        assert_eq!(
            read(&dir.path().join(file(sha, "json"))),
            format!(
                "{{\n  \"tools\": [\n    {{\n      \"name\": \"t\",\n      \"input_schema\": {{\n        \"properties\": {{\n          \"a\": {value}\n        }}\n      }}\n    }}\n  ]\n}}\n"
            )
        );
        assert_eq!(
            read(&dir.path().join(file(sha, "txt"))),
            format!(
                "oracle ollama v1: v1 on ollama: the oracle rejects the failed-closed output: \
                 ollama-property-value-must-be-object: json: cannot unmarshal {kind} into Go struct \
                 field ToolFunctionParameters.tools.function.parameters.properties of type api.ToolProperty\n"
            )
        );
        // Each catalog reads back: `check` names the same rule.
        let (code, out, err) = {
            let o = wireshape(dir.path())
                .args(["check", "--lane", "ollama", &file(sha, "json")])
                .output()
                .unwrap();
            let (out, err) = outputs(&o);
            (o.status.code().unwrap(), out, err)
        };
        assert_eq!(code, 1, "{out}{err}");
        assert!(
            out.contains("ollama-property-value-must-be-object"),
            "{out}"
        );
    }
    // Again: the same files are met, none written or replaced.
    let before: Vec<String> = want
        .iter()
        .map(|n| read(&dir.path().join("out").join(n)))
        .collect();
    let (code, out, _) = fuzz_in(dir.path(), &[&args[..], &["--quiet"]].concat());
    assert_eq!(code, 1);
    assert!(
        out.contains("\nout: 0 new, 5 duplicates, 3 already there\n"),
        "{out}"
    );
    let after: Vec<String> = want
        .iter()
        .map(|n| read(&dir.path().join("out").join(n)))
        .collect();
    assert_eq!(before, after);
    assert_eq!(names(&dir.path().join("out")), want);
}

#[test]
fn fuzz_refuses_an_output_directory_holding_other_files_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("out")).unwrap();
    std::fs::write(dir.path().join("out/notes.md"), "mine").unwrap();
    let (code, out, err) = fuzz_in(
        dir.path(),
        &["--count", "5", "--lanes", "ollama", "--output", "out"],
    );
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(out, "");
    assert_eq!(
        err,
        "wireshape: out: holds `notes.md`, which wireshape fuzz did not write; refusing to write into it\n"
    );
    assert_eq!(names(&dir.path().join("out")), ["notes.md"]);
}

#[test]
fn fuzz_count_0_and_an_unknown_lane_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = fuzz_in(dir.path(), &["--count", "0"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--count <N>"), "{err}");
    let (code, _, err) = fuzz_in(dir.path(), &["--count", "1", "--lanes", "nope"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("unknown lane `nope` (see `wireshape lanes`)"),
        "{err}"
    );
}
