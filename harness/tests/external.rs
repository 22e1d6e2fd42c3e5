//! External pipelines end to end: `cmd:` and config-named pipelines in
//! `diff`, `run`, `shape` and `fuzz`, against the test drivers of
//! `drivers/` (this binary runs itself as the driver). Each fault of the
//! fault driver must error exactly the cases of the tool it faults on, on
//! every lane, and nothing else; the run ends with exit 1 and a complete
//! report.

mod drivers;
mod util;

use std::path::Path;

use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;
use util::{outputs, wireshape};

const LANES: &str = "openai-chat,anthropic-messages";

/// Three clean tools; the fault driver faults on `flaky`.
const CATALOG: &str = r#"{"tools": [
  {"name": "get_weather", "description": "Weather for a city",
   "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
  {"name": "flaky", "description": "The tool the fault driver faults on",
   "input_schema": {"type": "object", "properties": {"n": {"type": "integer"}}}},
  {"name": "send_mail", "description": "Send a mail",
   "input_schema": {"type": "object", "properties": {"to": {"type": "string"}, "body": {"type": "string"}}, "required": ["to"]}}
]}"#;

fn workdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("corpus/catalogs")).unwrap();
    std::fs::write(dir.path().join("corpus/catalogs/tools.json"), CATALOG).unwrap();
    dir
}

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = wireshape(dir).args(args).output().expect("run wireshape");
    let (o, e) = outputs(&out);
    (out.status.code().expect("exit code"), o, e)
}

/// `diff --old OLD --new NEW --lanes LANES --output out --quiet` plus `extra`, in `dir`.
fn diff(dir: &Path, old: &str, new: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "diff", "--old", old, "--new", new, "--lanes", LANES, "--output", "out", "--quiet",
    ];
    args.extend_from_slice(extra);
    run(dir, &args)
}

/// A `cmd:` pipeline running this binary as driver `mode`.
fn driver(mode: &str) -> String {
    format!("cmd:{}", drivers::command_line(mode))
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(
        &std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap()
}

/// `(lane, case, class, new outcome, new detail)` of every outcome.
fn outcomes(report: &Path) -> Vec<(String, String, String, String, String)> {
    let v = read_json(&report.join("outcomes.json"));
    let list = if v["outcomes"].is_object() {
        util::outcome_list(&v)
    } else {
        v.get("outcomes")
            .and_then(Value::as_array)
            .or_else(|| v.as_array())
            .expect("an outcomes list")
            .clone()
    };
    let s = |o: &Value, p: &str| {
        o.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    list.iter()
        .map(|o| {
            (
                s(o, "/lane"),
                s(o, "/case"),
                s(o, "/class"),
                s(o, "/new/outcome"),
                s(o, "/new/detail"),
            )
        })
        .collect()
}

fn check(cond: bool, what: impl FnOnce() -> String) -> Result<(), Failed> {
    if cond { Ok(()) } else { Err(what().into()) }
}

/// The report files a finished run always writes.
fn complete(report: &Path) -> Result<(), Failed> {
    for f in [
        "run.json",
        "cases.json",
        "outcomes.json",
        "summary.md",
        "junit.xml",
        "index.html",
    ] {
        check(report.join(f).is_file(), || {
            format!("{f} missing from the report")
        })?;
    }
    Ok(())
}

/// `diff --old cmd:<echo> --new cmd:<fault:KIND:flaky>`: the `flaky` cases
/// error on both lanes with `expect` in the message, every other case is
/// identical, exit 1, complete report.
fn fault_case(kind: &str, expect: &str) -> Result<(), Failed> {
    let dir = workdir();
    let old = driver("echo");
    let new = driver(&format!("fault:{kind}:flaky"));
    let (code, _, err) = diff(dir.path(), &old, &new, &["--request-timeout", "1"]);
    check(code == 1, || format!("exit {code}, want 1: {err}"))?;
    let report = dir.path().join("out");
    complete(&report)?;
    let all = outcomes(&report);
    check(all.len() == 6, || {
        format!("{} outcomes, want 6: {all:?}", all.len())
    })?;
    for (lane, case, class, outcome, detail) in &all {
        if case.ends_with("#flaky") {
            check(class == "errored" && outcome == "errored", || {
                format!("{lane} {case}: {class}/{outcome}, want errored")
            })?;
            check(detail.contains(expect), || {
                format!("{lane} {case}: `{detail}` does not say `{expect}`")
            })?;
        } else {
            check(class == "identical" && outcome == "shaped", || {
                format!("{lane} {case}: {class}/{outcome} ({detail}), want identical")
            })?;
        }
    }
    let errored = std::fs::read_to_string(report.join("errored.txt")).unwrap_or_default();
    check(errored.lines().count() == 2, || {
        format!("errored.txt: {errored:?}")
    })?;
    Ok(())
}

fn echo_diff_against_verbatim_is_identical() -> Result<(), Failed> {
    let dir = workdir();
    let echo = driver("echo");
    let (code, out, err) = diff(dir.path(), "verbatim", &echo, &[]);
    check(code == 0, || format!("exit {code}: {out}{err}"))?;
    let all = outcomes(&dir.path().join("out"));
    check(all.len() == 6, || format!("{all:?}"))?;
    check(all.iter().all(|o| o.2 == "identical"), || {
        format!("{all:?}")
    })?;
    let cases = read_json(&dir.path().join("out/outcomes.json"));
    let text = cases.to_string();
    check(
        text.contains(&echo.replace('\\', "\\\\").replace('"', "\\\"")),
        || "the new side is not named by its cmd: id".into(),
    )
}

fn run_takes_cmd_pipelines_too() -> Result<(), Failed> {
    let dir = workdir();
    let echo = driver("echo");
    let (code, out, err) = run(
        dir.path(),
        &[
            "run", "--old", &echo, "--new", "verbatim", "--lanes", LANES, "--output", "out",
            "--quiet",
        ],
    );
    check(code == 0, || format!("exit {code}: {out}{err}"))?;
    complete(&dir.path().join("out"))
}

fn a_driver_that_never_starts_errors_every_case_and_is_given_up() -> Result<(), Failed> {
    let dir = workdir();
    let new = driver("no-start");
    let (code, _, err) = diff(dir.path(), "verbatim", &new, &[]);
    check(code == 1, || format!("exit {code}: {err}"))?;
    let report = dir.path().join("out");
    complete(&report)?;
    let all = outcomes(&report);
    check(all.len() == 6, || format!("{all:?}"))?;
    for (lane, case, class, _, detail) in &all {
        check(class == "errored", || format!("{lane} {case}: {class}"))?;
        check(
            detail.ends_with(
                "--wireshape-driver no-start: failed to start: the driver exited with status 1 \
                 before answering; stderr: fault driver: cannot start (as asked)",
            ),
            || format!("{lane} {case}: {detail}"),
        )?;
    }
    Ok(())
}

fn a_driver_of_another_protocol_version_is_refused_at_start() -> Result<(), Failed> {
    let dir = workdir();
    let new = driver("bad-version");
    let (code, _, err) = diff(dir.path(), "verbatim", &new, &[]);
    check(code == 1, || format!("exit {code}: {err}"))?;
    let all = outcomes(&dir.path().join("out"));
    check(
        all.iter().all(|o| {
            o.4.contains("the driver speaks protocol version 2, wireshape speaks 1")
        }),
        || format!("{all:?}"),
    )
}

fn a_slow_start_is_not_charged_to_the_first_request() -> Result<(), Failed> {
    let dir = workdir();
    let new = driver("slow-start:1500");
    let (code, out, err) = diff(dir.path(), "verbatim", &new, &["--request-timeout", "1"]);
    check(code == 0, || format!("exit {code}: {out}{err}"))?;
    let all = outcomes(&dir.path().join("out"));
    check(all.iter().all(|o| o.2 == "identical"), || {
        format!("{all:?}")
    })
}

fn shape_prints_what_the_driver_answers() -> Result<(), Failed> {
    let dir = workdir();
    let echo = driver("echo");
    let file = "corpus/catalogs/tools.json";
    let (c1, via_driver, e1) = run(
        dir.path(),
        &["shape", "--lane", "openai-chat", "--pipeline", &echo, file],
    );
    let (c2, verbatim, e2) = run(
        dir.path(),
        &[
            "shape",
            "--lane",
            "openai-chat",
            "--pipeline",
            "verbatim",
            file,
        ],
    );
    check(c1 == 0 && c2 == 0, || format!("exit {c1}/{c2}: {e1}{e2}"))?;
    check(via_driver == verbatim, || {
        format!("{via_driver}\n!=\n{verbatim}")
    })?;
    let (c3, o3, e3) = run(
        dir.path(),
        &[
            "shape",
            "--lane",
            "openai-chat",
            "--pipeline",
            &echo,
            "--trace",
            file,
        ],
    );
    // A usage error, said before anything is shaped or printed.
    check(
        c3 == 2 && o3.is_empty() && e3.contains("--trace needs a built-in pipeline"),
        || format!("{c3}: {o3}{e3}"),
    )
}

fn a_pipeline_named_in_the_config_runs_with_its_lane_map() -> Result<(), Failed> {
    let dir = workdir();
    let exe = std::env::current_exe().unwrap();
    let config = format!(
        "[pipelines.echo]\ncommand = [{exe:?}, \"--wireshape-driver\", \"echo\"]\nlanes = {{ \"openai-chat\" = \"openai-chat\" }}\n",
        exe = exe.display().to_string()
    );
    std::fs::write(dir.path().join("wireshape.toml"), config).unwrap();
    let (code, out, err) = run(
        dir.path(),
        &[
            "diff",
            "--config",
            "wireshape.toml",
            "--old",
            "verbatim",
            "--new",
            "echo",
            "--output",
            "out",
            "--quiet",
        ],
    );
    check(code == 0, || format!("exit {code}: {out}{err}"))?;
    let all = outcomes(&dir.path().join("out"));
    check(
        all.len() == 3 && all.iter().all(|o| o.0 == "openai-chat"),
        || format!("the default lanes narrowed to the one the map serves: {all:?}"),
    )?;
    let (code, _, err) = run(
        dir.path(),
        &[
            "diff",
            "--config",
            "wireshape.toml",
            "--old",
            "verbatim",
            "--new",
            "echo",
            "--lanes",
            "anthropic-messages",
            "--output",
            "out2",
            "--quiet",
        ],
    );
    check(
        code == 2 && err.contains("no lane to run: echo does not serve anthropic-messages"),
        || format!("{code}: {err}"),
    )?;
    check(!dir.path().join("out2").exists(), || {
        "out2 was written".into()
    })?;
    let (code, _, err) = run(
        dir.path(),
        &[
            "diff",
            "--config",
            "wireshape.toml",
            "--new",
            "nosuch",
            "--output",
            "out3",
        ],
    );
    check(
        code == 2
            && err.contains(
                "unknown pipeline `nosuch`: not v0, v1, verbatim or `cmd:<command line>`, \
             and wireshape.toml defines no [pipelines.nosuch] (it defines echo)",
            ),
        || format!("{code}: {err}"),
    )
}

/// `fuzz --pipeline cmd:<raise-on-key:pattern>`: the driver raises on every
/// schema with a `pattern` member and echoes the rest. Of the first 5
/// generated tools of seed 1 on openai-chat, inputs 1 and 3 hold a
/// `pattern` (a crash each, both minimized to `{"pattern": ""}`, one file)
/// and input 0 is named `` (openai-chat rejects the echoed name: the
/// oracle property, minimized to the name alone); exit 1.
fn fuzz_finds_minimizes_and_writes_what_an_external_pipeline_fails_on() -> Result<(), Failed> {
    let dir = workdir();
    let pipeline = format!("cmd:{}", drivers::command_line("raise-on-key:pattern"));
    let (code, out, err) = run(
        dir.path(),
        &[
            "fuzz",
            "--pipeline",
            &pipeline,
            "--lanes",
            "openai-chat",
            "--count",
            "5",
            "--seed",
            "1",
            "--output",
            "out",
            "--quiet",
        ],
    );
    check(code == 1, || format!("exit {code}, want 1: {out}{err}"))?;
    let crash = "no-crash-openai-chat-f494711bb3b2";
    let oracle = "oracle-openai-chat-44136fa355b3";
    let head = out.lines().next().unwrap_or("");
    check(
        head.starts_with(&format!(
            "wireshape fuzz {pipeline}: 5 inputs (seed 1, 1 lane) in "
        )) && head.ends_with(" inputs/s: 3 failures"),
        || format!("summary: {out}"),
    )?;
    let rest: Vec<&str> = out.lines().skip(1).collect();
    let want = [
        "  property  lane         failures".to_owned(),
        "  no-crash  openai-chat         2".to_owned(),
        "  oracle    openai-chat         1".to_owned(),
        "out: 2 new, 1 duplicate, 0 already there".to_owned(),
        format!("  out/{oracle}.json"),
        format!("  out/{crash}.json"),
    ];
    check(rest == want, || {
        format!(
            "{rest:#?}
!=
{want:#?}"
        )
    })?;
    let mut files: Vec<String> = std::fs::read_dir(dir.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let want_files = [
        format!("{crash}.json"),
        format!("{crash}.txt"),
        format!("{oracle}.json"),
        format!("{oracle}.txt"),
    ];
    check(files == want_files, || format!("{files:?}"))?;
    let tool = |name: &str| read_json(&dir.path().join(format!("out/{name}.json")));
    check(
        tool(crash)
            == serde_json::json!({"tools": [{"name": "t", "input_schema": {"pattern": ""}}]}),
        || format!("{}", tool(crash)),
    )?;
    check(
        tool(oracle) == serde_json::json!({"tools": [{"name": "", "input_schema": {}}]}),
        || format!("{}", tool(oracle)),
    )?;
    let note = |name: &str| {
        std::fs::read_to_string(dir.path().join(format!("out/{name}.txt"))).unwrap_or_default()
    };
    let want = format!(
        "no-crash openai-chat {pipeline}: {pipeline} on openai-chat: errored: {pipeline}: \
         the implementation raised: KeyError: pattern is not supported\n"
    );
    check(note(crash) == want, || {
        format!("{:?}\n!=\n{want:?}", note(crash))
    })?;
    check(
        note(oracle).starts_with(&format!(
            "oracle openai-chat {pipeline}: {pipeline} on openai-chat: the oracle rejects the \
             shaped output: openai-tool-name-pattern: "
        )),
        || note(oracle),
    )
}

fn main() {
    drivers::serve_if_asked();
    let args = Arguments::from_args();
    let faults: [(&str, &str); 7] = [
        (
            "crash",
            "the driver exited with status 3 before answering; stderr: fault driver: crashing on flaky",
        ),
        ("hang", "no answer within 1 s"),
        (
            "garbage",
            "a malformed answer: not JSON (expected ident at line 1 column 2): this is not json",
        ),
        ("wrong-seq", "an answer with seq 1"),
        ("huge", "an answer line longer than 33554432 bytes"),
        (
            "stderr-flood",
            "more than 1048576 bytes on stderr during one request",
        ),
        (
            "raise",
            "the implementation raised: ValueError: flaky is not supported",
        ),
    ];
    let mut trials: Vec<Trial> = faults
        .into_iter()
        .map(|(kind, expect)| {
            Trial::test(
                format!("fault_{kind}_errors_exactly_the_flaky_cases"),
                move || fault_case(kind, expect),
            )
        })
        .collect();
    trials.extend([
        Trial::test(
            "echo_diff_against_verbatim_is_identical",
            echo_diff_against_verbatim_is_identical,
        ),
        Trial::test("run_takes_cmd_pipelines_too", run_takes_cmd_pipelines_too),
        Trial::test(
            "a_driver_that_never_starts_errors_every_case_and_is_given_up",
            a_driver_that_never_starts_errors_every_case_and_is_given_up,
        ),
        Trial::test(
            "a_driver_of_another_protocol_version_is_refused_at_start",
            a_driver_of_another_protocol_version_is_refused_at_start,
        ),
        Trial::test(
            "a_slow_start_is_not_charged_to_the_first_request",
            a_slow_start_is_not_charged_to_the_first_request,
        ),
        Trial::test(
            "shape_prints_what_the_driver_answers",
            shape_prints_what_the_driver_answers,
        ),
        Trial::test(
            "a_pipeline_named_in_the_config_runs_with_its_lane_map",
            a_pipeline_named_in_the_config_runs_with_its_lane_map,
        ),
        Trial::test(
            "fuzz_finds_minimizes_and_writes_what_an_external_pipeline_fails_on",
            fuzz_finds_minimizes_and_writes_what_an_external_pipeline_fails_on,
        ),
    ]);
    libtest_mimic::run(&args, trials).exit();
}
