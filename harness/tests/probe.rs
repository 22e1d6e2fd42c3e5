//! `wireshape probe` and `wireshape matrix` end to end, on loopback only:
//! the plan sends nothing; a live run against the mock provider records
//! answers that agree with the oracles and a matrix without disagreement;
//! a canary key appears in no file, no line and no report; faults are
//! contained and reported.
#![allow(clippy::print_stderr)]

mod util;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::Value;
use util::wireshape;
use wireshape::Lane;
use wireshape::testing::{Fault, FaultKind, MockOptions, serve_mock};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `WIRESHAPE_<LANE>_BASE_URL`.
fn base_url_var(lane: Lane) -> String {
    format!(
        "WIRESHAPE_{}_BASE_URL",
        lane.id().to_ascii_uppercase().replace('-', "_")
    )
}

/// Every provider key variable the probe reads.
const KEY_VARS: &[&str] = &[
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "GEMINI_API_KEY",
    "DEEPSEEK_API_KEY",
    "MISTRAL_API_KEY",
    "GROQ_API_KEY",
    "XAI_API_KEY",
    "MOONSHOT_API_KEY",
    "CEREBRAS_API_KEY",
    "AWS_BEARER_TOKEN_BEDROCK",
];

/// A listener that counts every connection made to it (it answers none).
fn tripwire() -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let hits = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&hits);
    std::thread::spawn(move || {
        for s in listener.incoming() {
            count.fetch_add(1, Ordering::SeqCst);
            drop(s);
        }
    });
    (url, hits)
}

/// A fresh canary key: if it shows up anywhere, redaction failed.
fn canary() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("sk-canary-{nanos:08x}{}", std::process::id())
}

/// Every file below `dir`, as text.
fn all_text(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((
                    p.clone(),
                    String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned(),
                ));
            }
        }
    }
    out
}

#[test]
fn the_plan_sends_nothing_even_with_keys_and_the_live_switch_set() {
    let (url, hits) = tripwire();
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = wireshape(&root());
    cmd.args(["probe", "--recordings"]).arg(dir.path());
    for &lane in Lane::ALL {
        cmd.env(base_url_var(lane), &url);
    }
    for k in KEY_VARS {
        cmd.env(k, "sk-test-not-a-key");
    }
    cmd.env("WIRESHAPE_LIVE", "1");
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("wireshape probe: the plan; nothing is sent"));
    assert!(
        stdout.contains("\n1,908 requests on 16 lanes: ~"),
        "{stdout}"
    );
    assert!(stdout.contains(&format!("POST {url}/v1/messages")));
    assert!(!stdout.contains("sk-test-not-a-key"));
    // JSON: the same plan, one entry per request.
    let mut cmd = wireshape(&root());
    cmd.args([
        "probe",
        "--output-format",
        "json",
        "--lanes",
        "gemini-openapi",
    ]);
    cmd.env(base_url_var(Lane::GeminiOpenapi), &url);
    let out = cmd.output().unwrap();
    let plan: Value = serde_json::from_slice(&out.stdout).unwrap();
    let n = plan["requests"].as_array().unwrap().len();
    assert_eq!(plan["total"]["requests"], n);
    assert_eq!(plan["requests"][0]["key_env"], "GEMINI_API_KEY");
    assert_eq!(plan["requests"][0]["key_set"], false);
    assert_eq!(hits.load(Ordering::SeqCst), 0, "the plan made a connection");
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
}

#[test]
fn live_needs_the_environment_switch_and_a_key() {
    let (url, hits) = tripwire();
    let dir = tempfile::tempdir().unwrap();
    let run = |live_env: bool, key: bool| {
        let mut cmd = wireshape(&root());
        cmd.args(["probe", "--live", "--lanes", "openai-chat", "--recordings"])
            .arg(dir.path())
            .arg("--output")
            .arg(dir.path().join("out"));
        cmd.env(base_url_var(Lane::OpenaiChat), &url);
        if live_env {
            cmd.env("WIRESHAPE_LIVE", "1");
        }
        if key {
            cmd.env("OPENAI_API_KEY", "sk-test-not-a-key");
        }
        cmd.output().unwrap()
    };
    let out = run(false, true);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs WIRESHAPE_LIVE=1"));
    let out = run(true, false);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("no key for any planned lane: set OPENAI_API_KEY")
    );
    assert_eq!(hits.load(Ordering::SeqCst), 0);
}

/// A provider that echoes the key it was sent, with account and request
/// ids, in a 400 (as some providers do in their errors).
fn echo_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for s in listener.incoming() {
            let Ok(s) = s else { return };
            std::thread::spawn(move || echo(s));
        }
    });
    url
}

fn echo(mut stream: TcpStream) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let (mut key, mut length) = (String::new(), 0usize);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let lower = line.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("content-length:") {
            length = v.trim().parse().unwrap();
        }
        if lower.starts_with("x-api-key:") {
            line["x-api-key:".len()..].trim().clone_into(&mut key);
        }
        if line == "\r\n" {
            break;
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    let answer = serde_json::json!({
        "type": "error",
        "error": {"type": "invalid_request_error", "message": format!("tools.0.custom.input_schema: rejected for key {key} in organization org-AbCdEf123456")},
        "request_id": "req_011CanaryRequest42",
    })
    .to_string();
    let _ = write!(
        stream,
        "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{answer}",
        answer.len()
    );
}

#[test]
fn a_live_run_against_the_mock_records_answers_that_agree_and_no_key_leaks() {
    let key = canary();
    let lanes = [
        Lane::OpenaiStrict,
        Lane::AnthropicMessages,
        Lane::GeminiOpenapi,
    ];
    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    let mocks: Vec<_> = lanes
        .iter()
        .map(|&lane| {
            let log = Arc::clone(&log);
            serve_mock(
                lane,
                "127.0.0.1:0",
                Vec::new(),
                wireshape::DEFAULT_AS_OF.to_owned(),
                &MockOptions::default(),
                Box::new(move |l| log.lock().unwrap().push(l.to_owned())),
            )
            .unwrap()
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let recordings = dir.path().join("recordings");
    std::fs::create_dir_all(&recordings).unwrap();
    let constructs =
        "root-anyof,root-type-string,strict-*,nullable-openapi,format-email,name-65-chars";
    let mut cmd = wireshape(&root());
    cmd.args([
        "probe",
        "--live",
        "--lanes",
        "openai-strict,anthropic-messages,gemini-openapi",
    ])
    .args([
        "--constructs",
        constructs,
        "--max-requests",
        "200",
        "--date",
        "2026-12-02",
    ])
    .arg("--recordings")
    .arg(&recordings)
    .arg("--output")
    .arg(dir.path().join("probe"));
    for (lane, mock) in lanes.iter().zip(&mocks) {
        cmd.env(base_url_var(*lane), mock.url());
    }
    for k in ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"] {
        cmd.env(k, &key);
    }
    cmd.env("WIRESHAPE_LIVE", "1");
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let report: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("probe/probe.json")).unwrap(),
    )
    .unwrap();
    let results = report["results"].as_array().unwrap();
    assert!(results.len() > 40, "{}", results.len());
    for r in results {
        assert!(
            matches!(r["verdict"].as_str(), Some("accepted" | "rejected")),
            "{r}"
        );
        assert!(r.get("disagreement").is_none(), "{r}");
    }
    // Every answer is a recording the loader reads back, one per result.
    let recs = wireshape::load_recordings(&recordings).unwrap();
    assert_eq!(recs.len(), results.len());
    assert!(
        recs.iter()
            .all(|r| r.source.kind == "live-probe" && r.observed == "2026-12-02")
    );
    for rec in &recs {
        wireshape::testing::reproduces(rec).unwrap();
    }
    // The matrix built from them: no disagreement, every probed cell filled.
    let mut cmd = wireshape(&root());
    cmd.args([
        "matrix",
        "--lanes",
        "openai-strict,anthropic-messages,gemini-openapi",
        "--output-format",
        "json",
    ])
    .arg("--recordings")
    .arg(&recordings)
    .arg("--output")
    .arg(dir.path().join("matrix"));
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let m: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(m["totals"]["disagreements"], 0);
    let probed = m["rows"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["cells"].as_array().unwrap().iter())
        .filter(|c| c.get("model").is_some())
        .count();
    assert_eq!(probed, results.len());
    assert!(dir.path().join("matrix/index.html").is_file());
    // The canary key: nowhere in what was written or printed.
    for (path, text) in all_text(dir.path()) {
        assert!(!text.contains(&key), "{} holds the key", path.display());
    }
    assert!(!stdout.contains(&key) && !stderr.contains(&key));
    assert!(log.lock().unwrap().iter().all(|l| !l.contains(&key)));
    for m in mocks {
        m.stop();
    }
}

#[test]
fn a_key_an_answer_echoes_is_redacted_before_anything_is_written() {
    let key = canary();
    let url = echo_server();
    let dir = tempfile::tempdir().unwrap();
    let recordings = dir.path().join("recordings");
    std::fs::create_dir_all(&recordings).unwrap();
    let mut cmd = wireshape(&root());
    cmd.args([
        "probe",
        "--live",
        "--lanes",
        "anthropic-messages",
        "--constructs",
        "baseline,root-anyof",
    ])
    .args(["--date", "2026-12-02", "--output-format", "json"])
    .arg("--recordings")
    .arg(&recordings)
    .arg("--output")
    .arg(dir.path().join("probe"))
    .env(base_url_var(Lane::AnthropicMessages), &url)
    .env("ANTHROPIC_API_KEY", &key)
    .env("WIRESHAPE_LIVE", "1");
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    // baseline: the oracle accepts it, the provider rejected it: a
    // disagreement, exit 1; root-anyof: the oracle rejects it too, but with
    // other words: a disagreement on the message.
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let recs = wireshape::load_recordings(&recordings).unwrap();
    assert_eq!(recs.len(), 2);
    let text: String = all_text(dir.path()).into_iter().map(|(_, t)| t).collect();
    assert!(!text.contains(&key) && !stdout.contains(&key));
    assert!(!text.contains("org-AbCdEf123456") && !text.contains("req_011CanaryRequest42"));
    let baseline = recs
        .iter()
        .find(|r| r.construct.as_deref() == Some("baseline"))
        .unwrap();
    assert_eq!(baseline.rule, "probe-baseline");
    assert_eq!(
        baseline.match_text,
        "tools.0.custom.input_schema: rejected for key [redacted] in organization [redacted]"
    );
    assert!(wireshape::testing::reproduces(baseline).is_err());
    // The matrix marks both cells; replay fails until the rules agree.
    let out = wireshape(&root())
        .args([
            "matrix",
            "--lanes",
            "anthropic-messages",
            "--output-format",
            "json",
        ])
        .arg("--recordings")
        .arg(&recordings)
        .output()
        .unwrap();
    let m: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(m["totals"]["disagreements"], 2);
    let out = wireshape(&root())
        .arg("replay")
        .arg("--recordings")
        .arg(&recordings)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("expected rule probe-baseline, the oracle said: accepted the request"),
        "{text}"
    );
}

/// One probe run of `constructs` on openai-chat against a mock with `fault`.
fn against_fault(fault: Fault, constructs: &str, extra: &[&str]) -> (Option<i32>, Value, String) {
    let mock = serve_mock(
        Lane::OpenaiChat,
        "127.0.0.1:0",
        Vec::new(),
        wireshape::DEFAULT_AS_OF.to_owned(),
        &MockOptions { fault: Some(fault) },
        Box::new(|_| {}),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let recordings = dir.path().join("recordings");
    std::fs::create_dir_all(&recordings).unwrap();
    let out = wireshape(&root())
        .args([
            "probe",
            "--live",
            "--lanes",
            "openai-chat",
            "--constructs",
            constructs,
        ])
        .args([
            "--concurrency",
            "1",
            "--backoff",
            "0.01",
            "--date",
            "2026-12-02",
        ])
        .args(extra)
        .arg("--recordings")
        .arg(&recordings)
        .arg("--output")
        .arg(dir.path().join("probe"))
        .env(base_url_var(Lane::OpenaiChat), mock.url())
        .env("OPENAI_API_KEY", "sk-test-not-a-key")
        .env("WIRESHAPE_LIVE", "1")
        .output()
        .unwrap();
    let report: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("probe/probe.json")).unwrap(),
    )
    .unwrap();
    let recorded = wireshape::load_recordings(&recordings).unwrap().len();
    mock.stop();
    (
        out.status.code(),
        report["results"].clone(),
        format!(
            "{recorded} recorded; {}",
            String::from_utf8_lossy(&out.stdout)
        ),
    )
}

fn details(results: &Value) -> Vec<(String, String)> {
    results
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["verdict"].as_str().unwrap().to_owned(),
                r["detail"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_429_and_a_dropped_connection_are_retried_and_then_recorded() {
    for kind in [FaultKind::RateLimit, FaultKind::DropConnection] {
        let fault = Fault::new(kind).times(1).delay(std::time::Duration::ZERO);
        let (code, results, text) = against_fault(fault, "baseline", &[]);
        assert_eq!(code, Some(0), "{text}");
        assert_eq!(
            details(&results),
            [(
                "accepted".to_owned(),
                "200 after 2 attempts: recorded openai/probe-baseline-openai-chat-20261202.json"
                    .to_owned()
            )],
            "{kind:?}"
        );
    }
}

#[test]
fn a_slow_body_times_out_once_and_is_reported_not_recorded() {
    let fault = Fault::new(FaultKind::SlowBody).delay(std::time::Duration::from_secs(5));
    let (code, results, text) = against_fault(fault, "baseline", &["--timeout", "0.5"]);
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(
        details(&results),
        [("failed".to_owned(), "no answer within 0.5 s".to_owned())]
    );
    assert_eq!(results[0]["attempts"], 1);
    assert!(text.starts_with("0 recorded"), "{text}");
}

#[test]
fn the_budget_stops_retries_and_leaves_the_rest_unsent() {
    let fault = Fault::new(FaultKind::ServerError);
    let (code, results, text) = against_fault(
        fault,
        "baseline,root-anyof,root-oneof",
        &["--max-requests", "4"],
    );
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(
        details(&results),
        [
            (
                "failed".to_owned(),
                "server error 500 after 3 attempts".to_owned()
            ),
            (
                "failed".to_owned(),
                "server error 500 after 1 attempt; the budget stopped the retries".to_owned()
            ),
            (
                "not-sent".to_owned(),
                "not sent: the request budget (--max-requests) was spent".to_owned()
            ),
        ]
    );
}

#[test]
fn a_200_that_is_not_json_is_a_failure_not_an_accept() {
    let fault = Fault::new(FaultKind::MalformedJson);
    let (code, results, text) = against_fault(fault, "baseline", &[]);
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(results[0]["verdict"], "failed");
    assert!(
        results[0]["detail"]
            .as_str()
            .unwrap()
            .starts_with("answered 200 with a body that is not JSON: "),
        "{results}"
    );
}
