//! The recordings over real HTTP, against the local mock provider.
//!
//! `replay-http::<provider>::<id>`: a mock provider for the recording's lane
//! (every recording of that lane loaded, verdicts as of the recording's date)
//! on 127.0.0.1 with a random port; the raw recorded request, wrapped in a
//! minimal request body of the lane's wire, goes to the lane's real endpoint
//! path with reqwest and must come back with the recorded status and the
//! recorded body, byte for byte.
//!
//! `replay-http::<provider>::<id>::v1`: the same request with its tools shaped
//! by the v1 pipeline must come back as the oracle judges it: a 200 with the
//! provider's minimal valid answer when v1 fixes it, else the oracle's first
//! rejection (on a lane with no v1 shaping yet, the raw request's verdict).
//!
//! Every server binds 127.0.0.1:0; no other address, no external network.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{Map, Value, json};
use wireshape::testing::{
    Fault, FaultKind, MockOptions, MockServer, accept_body, error_body, oracle_tools, serve_mock,
    v1_request,
};
use wireshape::{
    Format, Lane, Pipeline, PipelineConfig, Profile, Recording, Request, RequestParts, Wire, check,
    load_catalog_bytes,
};

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let recordings =
        Arc::new(wireshape::load_recordings(&root.join("recordings")).expect("recordings load"));
    let config = PipelineConfig::load(&root.join("corpus/config.toml")).expect("config");
    let v1 = Arc::new(Profile::V1.with_config(config));
    let mut trials = Vec::new();
    for i in 0..recordings.len() {
        let rec = &recordings[i];
        let name = format!("replay-http::{}::{}", rec.provider, rec.id);
        let all = Arc::clone(&recordings);
        trials.push(Trial::test(name.clone(), move || raw_trial(&all, &all[i])));
        if rec.expects_accept() {
            continue;
        }
        // Tools that are no catalog (no schema to shape) have no v1-shaped
        // request to send (declared in recordings/known-gaps.toml). On lanes
        // without v1 shaping the v1 request is the raw one, and the mock
        // must still answer with the oracle's verdict.
        let lane = Lane::parse(&rec.lane).expect("recordings name known lanes");
        let Ok(parts) = v1_tools(rec, lane, v1.as_ref()) else {
            continue;
        };
        let all = Arc::clone(&recordings);
        trials.push(Trial::test(format!("{name}::v1"), move || {
            v1_trial(&all, &all[i], lane, &parts)
        }));
    }
    trials.push(Trial::test(
        "documented::openai-strict::nested-one-of-is-a-400-in-openai-body-format",
        openai_strict_documented_rejection,
    ));
    trials.push(Trial::test(
        "documented::gemini-openapi::nested-one-of-is-a-400-in-gemini-body-format",
        gemini_openapi_documented_rejection,
    ));
    for i in 0..recordings.len() {
        let rec = &recordings[i];
        if json_body(rec).is_none() {
            continue;
        }
        let name = format!("error-body::{}::{}", rec.provider, rec.id);
        let all = Arc::clone(&recordings);
        trials.push(Trial::test(name, move || error_body_trial(&all[i])));
    }
    for &lane in Lane::ALL {
        trials.push(Trial::test(
            format!("fault::rate-limit::{lane}::429-with-retry-after-twice-then-200"),
            move || rate_limit_twice(lane),
        ));
        trials.push(Trial::test(
            format!("fault::server-error::{lane}::500-in-provider-format-then-200"),
            move || server_error_once(lane),
        ));
    }
    let faults: [(&str, TrialFn); 5] = [
        (
            "rate-limit::without-times-every-request",
            rate_limit_every_request,
        ),
        ("slow-body::stalls-then-completes-then-fast", slow_body_once),
        (
            "malformed-json::truncated-200-twice-then-valid",
            malformed_json_twice,
        ),
        (
            "drop-connection::no-response-then-200",
            drop_connection_once,
        ),
        (
            "cli::mock-provider-fault-rate-limit-1",
            cli_fault_rate_limit,
        ),
    ];
    for (name, trial) in faults {
        trials.push(Trial::test(format!("fault::{name}"), trial));
    }
    libtest_mimic::run(&args, trials).exit();
}

/// A trial without arguments.
type TrialFn = fn() -> Result<(), Failed>;

// ------------------------------------------------------- error bodies

/// Recordings behind a proxy that wraps the provider's own body: where the
/// upstream body sits (a JSON string) in the recorded one. The trial checks
/// the upstream body, the first-party shape.
const PROXIED: &[(&str, &str)] = &[
    // OpenRouter: `error.metadata.raw` (or `metadata.raw`) is OpenAI's body.
    ("openai-root-composition-552", "/error/metadata/raw"),
    (
        "openai-object-schema-missing-properties-1359",
        "/metadata/raw",
    ),
    // A proxy that put Gemini's body in `error.message`.
    (
        "gemini-string-format-enum-datetime-only-3178",
        "/error/message",
    ),
];

/// Recordings whose JSON body the oracle's answer does not match, and why.
/// Each must still differ (a trial fails once one matches: take it off).
const EXCEPTIONS: &[(&str, &str)] = &[
    // Anthropic: the newest first-party bodies carry `request_id` (and
    // Anthropic's error documentation shows it); these do not.
    (
        "anthropic-input-schema-missing-1",
        "no request_id in the body as quoted (2026-01)",
    ),
    (
        "anthropic-root-composition-5319",
        "no request_id in the body as quoted (2025-08)",
    ),
    (
        "anthropic-property-key-pattern-1",
        "no request_id in the body the client printed (2026-03)",
    ),
    (
        "anthropic-tool-name-pattern-11",
        "no request_id in the body the client printed (2025-03)",
    ),
    // Gemini: the Gemini API's own body has no `errors` array
    // (gemini-enum-only-string-type-475); these came through gemini-cli's
    // backend, which adds Google's legacy one.
    (
        "gemini-function-name-pattern-7878",
        "a legacy `errors` array (gemini-cli's backend)",
    ),
    (
        "vertex-schema-type-field-missing-2282",
        "a legacy `errors` array (gemini-cli's backend)",
    ),
    // OpenRouter sent this chat request to gpt-5 upstream on the Responses
    // wire: its param is the Responses form.
    (
        "openai-object-schema-missing-properties-1359",
        "param tools[5].parameters, the Responses form, on a chat request",
    ),
];

/// The recorded JSON body: the body when it is a JSON object, else the
/// first complete JSON object inside the string the source quoted (a log
/// line around the body); `None` when there is none (plain text, Python
/// reprs, truncated bodies).
fn json_body(rec: &Recording) -> Option<Value> {
    match &rec.response.body {
        Some(v @ Value::Object(_)) => Some(v.clone()),
        Some(Value::String(s)) => {
            let start = s.find('{')?;
            let mut values = serde_json::Deserializer::from_str(&s[start..]).into_iter::<Value>();
            match values.next() {
                Some(Ok(v @ Value::Object(_))) => Some(v),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The body the oracle's answer must match: the recorded JSON body, or the
/// upstream body inside a proxy's wrapper.
fn wanted_body(rec: &Recording) -> Result<Value, String> {
    let body = json_body(rec).ok_or("no JSON body")?;
    match PROXIED.iter().find(|(id, _)| *id == rec.id) {
        None => Ok(body),
        Some((_, at)) => {
            let raw = body
                .pointer(at)
                .and_then(Value::as_str)
                .ok_or_else(|| format!("no upstream body at {at}"))?;
            serde_json::from_str(raw).map_err(|e| format!("upstream body at {at}: {e}"))
        }
    }
}

/// Where `want` and `got` differ in shape: keys (recursively), and the
/// value of every field but a `message` string. Two allowances, both from
/// the recordings' conventions (recordings/README.md): a value the
/// recording scrubbed (`"[redacted]"`) matches any string, and a tool index
/// over 3 in a recorded value matches any index (the request puts that tool
/// at index 0).
fn shape_diff(want: &Value, got: &Value, at: &str, out: &mut Vec<String>) {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => {
            for k in w.keys().filter(|k| !g.contains_key(*k)) {
                out.push(format!("{at}/{k}: missing"));
            }
            for k in g.keys().filter(|k| !w.contains_key(*k)) {
                out.push(format!("{at}/{k}: not recorded"));
            }
            for (k, wv) in w {
                let Some(gv) = g.get(k) else { continue };
                if k == "message" && wv.is_string() && gv.is_string() {
                    continue;
                }
                shape_diff(wv, gv, &format!("{at}/{k}"), out);
            }
        }
        (Value::Array(w), Value::Array(g)) if w.len() == g.len() => {
            for (i, (wv, gv)) in w.iter().zip(g).enumerate() {
                shape_diff(wv, gv, &format!("{at}/{i}"), out);
            }
        }
        (Value::String(w), Value::String(g)) if w == "[redacted]" || moved(w, g) => {}
        _ if want == got => {}
        _ => out.push(format!("{at}: {got}, recorded {want}")),
    }
}

/// `recorded` names a tool index over 3 (`tools[22]`, `tools.22`) where
/// `got` names index 0, and they are otherwise equal: the recording keeps
/// the source's index, the request moved that tool to index 0.
fn moved(recorded: &str, got: &str) -> bool {
    let Some(start) = ["tools[", "tools."]
        .iter()
        .find_map(|p| recorded.find(p).map(|i| i + p.len()))
    else {
        return false;
    };
    let rest = &recorded[start..];
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let index: Option<usize> = rest[..digits].parse().ok();
    index.is_some_and(|i| i > 3)
        && got.get(..start) == Some(&recorded[..start])
        && got.get(start..start + 1) == Some("0")
        && got.get(start + 1..) == Some(&recorded[start + digits..])
}

/// The recorded request, sent to a mock without the recording (so the
/// oracle answers), comes back with the recorded body's shape.
fn error_body_trial(rec: &Recording) -> Result<(), Failed> {
    let lane = Lane::parse(&rec.lane).map_err(|e| e.to_string())?;
    let want = wanted_body(rec)?;
    let body = recorded_request(rec, lane);
    let (status, text) = round_trip(lane, &[], rec, &body)?;
    let got: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: not JSON ({e}): {text}", rec.id))?;
    let mut diffs = Vec::new();
    if status != rec.response.status {
        diffs.push(format!("status {status}, recorded {}", rec.response.status));
    }
    shape_diff(&want, &got, "", &mut diffs);
    let excepted = EXCEPTIONS.iter().find(|(id, _)| *id == rec.id);
    match (excepted, diffs.is_empty()) {
        (None, true) | (Some(_), false) => Ok(()),
        (None, false) => Err(format!(
            "{}: the oracle's body differs from the recorded one:\n  {}\n  got:      {got}\n  recorded: {want}",
            rec.id,
            diffs.join("\n  ")
        )
        .into()),
        (Some((_, why)), true) => Err(format!(
            "{}: matches now; take it off EXCEPTIONS ({why})",
            rec.id
        )
        .into()),
    }
}

// ---------------------------------------------------------------- faults

fn client() -> Result<reqwest::blocking::Client, Failed> {
    reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(20))
        .no_proxy()
        .build()
        .map_err(|e| Failed::from(e.to_string()))
}

/// A mock for `lane` (no recordings) with `fault`.
fn faulty(lane: Lane, fault: Fault) -> Result<MockServer, Failed> {
    faulty_logged(lane, fault, Box::new(|_| {}))
}

fn faulty_logged(
    lane: Lane,
    fault: Fault,
    log: Box<dyn Fn(&str) + Send + Sync>,
) -> Result<MockServer, Failed> {
    serve_mock(
        lane,
        "127.0.0.1:0",
        Vec::new(),
        "2026-12-01".to_owned(),
        &MockOptions { fault: Some(fault) },
        log,
    )
    .map_err(|e| Failed::from(format!("bind 127.0.0.1:0: {e}")))
}

/// `n` requests the oracle accepts, one after the other, to a mock for
/// `lane` with `fault`: their answers.
fn answers(lane: Lane, fault: Fault, n: usize) -> Result<Vec<Answer>, Failed> {
    let server = faulty(lane, fault)?;
    let client = client()?;
    let answers = (0..n)
        .map(|_| post_ok(&client, &server, lane))
        .collect::<Result<Vec<_>, _>>();
    server.stop();
    answers
}

/// One answer: status, headers, body text.
struct Answer {
    status: u16,
    headers: reqwest::header::HeaderMap,
    text: String,
}

/// POST a request the oracle accepts (no tools) to the lane's endpoint.
fn post_hi(
    client: &reqwest::blocking::Client,
    server: &MockServer,
    lane: Lane,
) -> reqwest::Result<Answer> {
    let url = format!("{}{}", server.url(), endpoint_path(lane));
    let resp = client
        .post(url)
        .json(&request_body(lane, None, None, None))
        .send()?;
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let text = resp.text()?;
    Ok(Answer {
        status,
        headers,
        text,
    })
}

fn post_ok(
    client: &reqwest::blocking::Client,
    server: &MockServer,
    lane: Lane,
) -> Result<Answer, Failed> {
    post_hi(client, server, lane).map_err(|e| Failed::from(format!("{lane}: POST: {e}")))
}

/// The answer is the lane's minimal valid 200.
fn expect_accepted(lane: Lane, a: &Answer, what: &str) -> Result<(), Failed> {
    let want = accept_body(lane).to_string();
    if a.status != 200 || a.text != want {
        return Err(format!(
            "{lane}: {what}: answered {} {}\n  want 200 {want}",
            a.status, a.text
        )
        .into());
    }
    Ok(())
}

/// The object of an error body that holds its `type` (OpenAI-style lanes:
/// under `error`, or the body itself on the flat ones).
fn error_object(body: &Value) -> &Value {
    match body.get("error") {
        Some(e @ Value::Object(_)) => e,
        _ => body,
    }
}

/// The provider's error body for `status` (429 or 500), as far as the
/// wire's envelope goes.
fn check_fault_body(lane: Lane, status: u16, a: &Answer) -> Result<(), Failed> {
    let body: Value = serde_json::from_str(&a.text)
        .map_err(|e| format!("{lane}: {status} body is not JSON ({e}): {}", a.text))?;
    let (field, got, want) = match (lane.wire(), status) {
        (Wire::Messages, 429) => (
            "error.type",
            &body["error"]["type"],
            json!("rate_limit_error"),
        ),
        (Wire::Messages, _) => ("error.type", &body["error"]["type"], json!("api_error")),
        (Wire::GeminiParameters | Wire::GeminiJsonSchema, 429) => (
            "error.status",
            &body["error"]["status"],
            json!("RESOURCE_EXHAUSTED"),
        ),
        (Wire::GeminiParameters | Wire::GeminiJsonSchema, _) => {
            ("error.status", &body["error"]["status"], json!("INTERNAL"))
        }
        (Wire::Bedrock, _) => {
            let want = if status == 429 {
                "ThrottlingException"
            } else {
                "InternalServerException"
            };
            let kind = a
                .headers
                .get("x-amzn-errortype")
                .and_then(|v| v.to_str().ok());
            if kind != Some(want) {
                return Err(format!("{lane}: x-amzn-errortype {kind:?}, want {want}").into());
            }
            ("message", &body["message"], body["message"].clone())
        }
        _ if lane == Lane::Ollama => ("error", &body["error"], body["error"].clone()),
        (_, 429) => (
            "code",
            &error_object(&body)["code"],
            json!("rate_limit_exceeded"),
        ),
        (_, _) => ("type", &error_object(&body)["type"], json!("server_error")),
    };
    if *got != want || !a.text.contains("wireshape mock-provider") {
        return Err(format!(
            "{lane}: {status} body {field} is {got}, want {want}: {}",
            a.text
        )
        .into());
    }
    Ok(())
}

/// `rate-limit:2` with a 3 s delay: two 429s announcing `retry-after: 3`
/// in the provider's format, then the normal answer.
fn rate_limit_twice(lane: Lane) -> Result<(), Failed> {
    // Arrange
    let fault = Fault::new(FaultKind::RateLimit)
        .times(2)
        .delay(Duration::from_secs(3));
    // Act
    let answers = answers(lane, fault, 3)?;
    // Assert
    for a in &answers[..2] {
        if a.status != 429 {
            return Err(format!("{lane}: answered {} {}, want 429", a.status, a.text).into());
        }
        let retry = a.headers.get("retry-after").and_then(|v| v.to_str().ok());
        if retry != Some("3") {
            return Err(format!("{lane}: retry-after {retry:?}, want \"3\"").into());
        }
        check_fault_body(lane, 429, a)?;
    }
    expect_accepted(lane, &answers[2], "the third request")
}

/// `server-error:1`: one 500 in the provider's format, then the normal
/// answer.
fn server_error_once(lane: Lane) -> Result<(), Failed> {
    let [first, second]: [Answer; 2] = answers(lane, "server-error:1".parse()?, 2)?
        .try_into()
        .map_err(|_| "two answers")?;
    if first.status != 500 {
        return Err(format!("{lane}: answered {} {}, want 500", first.status, first.text).into());
    }
    check_fault_body(lane, 500, &first)?;
    expect_accepted(lane, &second, "the second request")
}

/// `rate-limit` without a count: every request is limited.
fn rate_limit_every_request() -> Result<(), Failed> {
    let lane = Lane::OpenaiChat;
    let statuses: Vec<u16> = answers(lane, "rate-limit".parse()?, 4)?
        .iter()
        .map(|a| a.status)
        .collect();
    if statuses != [429; 4] {
        return Err(format!("statuses {statuses:?}, want four 429s").into());
    }
    Ok(())
}

/// `slow-body:1`: the status and headers come, the body completes no
/// sooner than the delay; the next request is answered at once.
fn slow_body_once() -> Result<(), Failed> {
    let lane = Lane::AnthropicMessages;
    let delay = Duration::from_millis(1500);
    let server = faulty(lane, Fault::new(FaultKind::SlowBody).times(1).delay(delay))?;
    let client = client()?;
    let url = format!("{}{}", server.url(), endpoint_path(lane));
    let started = Instant::now();
    let resp = client
        .post(&url)
        .json(&request_body(lane, None, None, None))
        .send()
        .map_err(|e| format!("POST: {e}"))?;
    let headers_after = started.elapsed();
    let status = resp.status().as_u16();
    let length = resp.content_length();
    let text = resp.text().map_err(|e| format!("body: {e}"))?;
    let body_after = started.elapsed();
    let second = post_ok(&client, &server, lane)?;
    server.stop();
    let want = accept_body(lane).to_string();
    if status != 200 || text != want || length != Some(want.len() as u64) {
        return Err(
            format!("answered {status} ({length:?} bytes) {text}\n  want 200 {want}").into(),
        );
    }
    if body_after < delay || headers_after > body_after {
        return Err(format!(
            "headers after {headers_after:?}, body after {body_after:?}; the stall is {delay:?}"
        )
        .into());
    }
    expect_accepted(lane, &second, "the second request")
}

/// `malformed-json:2`: two 200s whose bodies are the valid answer cut
/// short (not JSON), then the valid answer.
fn malformed_json_twice() -> Result<(), Failed> {
    let lane = Lane::GeminiOpenapi;
    let answers = answers(lane, "malformed-json:2".parse()?, 3)?;
    let whole = accept_body(lane).to_string();
    for a in &answers[..2] {
        let truncated =
            !a.text.is_empty() && a.text.len() < whole.len() && whole.starts_with(&a.text);
        if a.status != 200 || !truncated || serde_json::from_str::<Value>(&a.text).is_ok() {
            return Err(format!(
                "answered {} {}, want 200 with a prefix of {whole}",
                a.status, a.text
            )
            .into());
        }
    }
    expect_accepted(lane, &answers[2], "the third request")
}

/// `drop-connection:1`: the first request gets no response at all (the
/// connection closes), the second the normal answer.
fn drop_connection_once() -> Result<(), Failed> {
    let lane = Lane::BedrockConverse;
    let lines = Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = Arc::clone(&lines);
    let log = Box::new(move |l: &str| sink.lock().expect("log lock").push(l.to_owned()));
    let server = faulty_logged(lane, "drop-connection:1".parse()?, log)?;
    let client = client()?;
    let first = post_hi(&client, &server, lane);
    let second = post_ok(&client, &server, lane)?;
    server.stop();
    let logged = lines.lock().expect("log lock").clone();
    let want = [
        "POST /model/mock/converse - fault drop-connection (1 of 1)",
        "POST /model/mock/converse 200 accepted",
    ];
    if logged != want {
        return Err(format!("logged {logged:?}, want {want:?}").into());
    }
    match first {
        Ok(a) => {
            return Err(format!("the first request was answered: {} {}", a.status, a.text).into());
        }
        Err(e) if e.is_timeout() => return Err(format!("the first request timed out: {e}").into()),
        Err(_) => {}
    }
    expect_accepted(lane, &second, "the second request")
}

/// The binary: `mock-provider --fault rate-limit:1 --fault-delay 2` on a
/// random port answers one 429 (`retry-after: 2`), then 200.
fn cli_fault_rate_limit() -> Result<(), Failed> {
    let lane = Lane::OpenaiResponses;
    let mut child = Command::new(env!("CARGO_BIN_EXE_wireshape"))
        .args(["mock-provider", "--lane", lane.id(), "--port", "0"])
        .args(["--bind", "127.0.0.1", "--recordings", "/nonexistent"])
        .args(["--fault", "rate-limit:1", "--fault-delay", "2"])
        .env_clear()
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("spawn wireshape: {e}"))?;
    let result = (|| -> Result<(), Failed> {
        let stderr = child.stderr.take().ok_or("no stderr")?;
        let mut stderr = BufReader::new(stderr);
        let mut banner = String::new();
        stderr
            .read_line(&mut banner)
            .map_err(|e| format!("read the banner: {e}"))?;
        // Keep reading: the log lines must not meet a closed pipe.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        if !banner.contains("; fault rate-limit:1, delay 2000 ms)") {
            return Err(format!("banner: {banner}").into());
        }
        let url = banner
            .split_whitespace()
            .find(|w| w.starts_with("http://127.0.0.1:"))
            .ok_or_else(|| format!("no URL in the banner: {banner}"))?;
        let client = client()?;
        let post = || {
            client
                .post(format!("{url}/v1/responses"))
                .json(&request_body(lane, None, None, None))
                .send()
                .map_err(|e| Failed::from(format!("POST: {e}")))
        };
        let first = post()?;
        let retry = first.headers().get("retry-after").cloned();
        let (s1, s2) = (first.status().as_u16(), post()?.status().as_u16());
        if (s1, s2) != (429, 200) || retry.as_ref().and_then(|v| v.to_str().ok()) != Some("2") {
            return Err(format!(
                "answered {s1} (retry-after {retry:?}) then {s2}; want 429 (2) then 200"
            )
            .into());
        }
        Ok(())
    })();
    let _ = child.kill();
    let _ = child.wait();
    result
}

/// POST `body` to a mock for `lane` (no recordings, verdicts as of the
/// day the documentation was read): the status and the body text.
fn post_to_mock(lane: Lane, body: &Value) -> Result<(u16, String), Failed> {
    let server = serve_mock(
        lane,
        "127.0.0.1:0",
        Vec::new(),
        "2026-12-01".to_owned(),
        &MockOptions::default(),
        Box::new(|_| {}),
    )
    .map_err(|e| format!("bind 127.0.0.1:0: {e}"))?;
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(5))
        .no_proxy()
        .build()
        .map_err(|e| e.to_string())?;
    let url = format!("{}{}", server.url(), endpoint_path(lane));
    let result = client
        .post(&url)
        .json(body)
        .send()
        .and_then(|resp| {
            let status = resp.status().as_u16();
            resp.text().map(|text| (status, text))
        })
        .map_err(|e| Failed::from(format!("POST {url}: {e}")));
    server.stop();
    result
}

/// A strict tool that is valid under strict but for a nested `oneOf`
/// (rule `openai-strict-keyword-not-permitted`, documented only).
fn openai_strict_documented_rejection() -> Result<(), Failed> {
    // Arrange
    let tools = [
        json!({"type": "function", "function": {"name": "update_labels", "strict": true, "parameters": {
        "type": "object",
        "properties": {"labels": {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}},
        "required": ["labels"], "additionalProperties": false}}}),
    ];
    let body = request_body(Lane::OpenaiStrict, Some(&tools), None, None);
    // Act
    let (status, got) = post_to_mock(Lane::OpenaiStrict, &body)?;
    // Assert
    let want = r#"{"error":{"message":"Invalid schema for function 'update_labels': In context=('properties', 'labels'), 'oneOf' is not permitted.","type":"invalid_request_error","param":"tools[0].function.parameters","code":"invalid_function_parameters"}}"#;
    if status != 400 || got != want {
        return Err(format!("answered {status} {got}\n  want 400 {want}").into());
    }
    Ok(())
}

/// A declaration that is valid but for a nested `oneOf` (rule
/// `gemini-unknown-field-schema-proto`, documented only).
fn gemini_openapi_documented_rejection() -> Result<(), Failed> {
    // Arrange
    let tools = [
        json!({"functionDeclarations": [{"name": "update_labels", "parameters": {
        "type": "object",
        "properties": {"labels": {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}},
        "required": ["labels"]}}]}),
    ];
    let body = request_body(Lane::GeminiOpenapi, Some(&tools), None, None);
    // Act
    let (status, got) = post_to_mock(Lane::GeminiOpenapi, &body)?;
    // Assert
    let want = r#"{"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \"oneOf\" at 'tools[0].function_declarations[0].parameters.properties[0].value': Cannot find field.","status":"INVALID_ARGUMENT"}}"#;
    if status != 400 || got != want {
        return Err(format!("answered {status} {got}\n  want 400 {want}").into());
    }
    Ok(())
}

/// The recorded request goes out; the recorded answer comes back.
fn raw_trial(all: &[Recording], rec: &Recording) -> Result<(), Failed> {
    let lane = Lane::parse(&rec.lane).map_err(|e| e.to_string())?;
    let body = recorded_request(rec, lane);
    let (status, bytes) = round_trip(lane, all, rec, &body)?;
    let want = match &rec.response.body {
        Some(Value::String(s)) => s.clone(),
        Some(v) => serde_json::to_string(v).map_err(|e| e.to_string())?,
        None => String::new(),
    };
    if status != rec.response.status {
        return Err(format!(
            "{}: status {status}, recorded {}; body {bytes}",
            rec.id, rec.response.status
        )
        .into());
    }
    if bytes != want {
        return Err(format!("{}: body differs\n  got:  {bytes}\n  want: {want}", rec.id).into());
    }
    Ok(())
}

/// The recorded request as v1 sends it: tools shaped and rendered on the
/// lane's wire, then the request-level rules.
fn v1_tools(rec: &Recording, lane: Lane, v1: &dyn Pipeline) -> Result<RequestParts, String> {
    let bytes = serde_json::to_vec(&rec.request.tools).map_err(|e| e.to_string())?;
    let catalog = load_catalog_bytes(&rec.id, Path::new(&rec.id), &bytes, Some(format_for(lane)))
        .map_err(|e| e.to_string())?;
    let shaped: Vec<_> = catalog.tools.iter().map(|t| v1.shape(lane, t)).collect();
    Ok(v1_request(rec, lane, v1, &shaped))
}

/// The v1-shaped request comes back as the oracle judges it.
fn v1_trial(
    all: &[Recording],
    rec: &Recording,
    lane: Lane,
    parts: &RequestParts,
) -> Result<(), Failed> {
    if parts.tools.as_deref() == rec.request.tools_member()
        && parts.tool_choice == rec.request.tool_choice
        && parts.response_format == rec.request.response_format
    {
        // v1 left the request as recorded: the mock replays the recording.
        return raw_trial(all, rec);
    }
    let body = request_body(
        lane,
        parts.tools.as_deref(),
        parts.tool_choice.as_ref(),
        parts.response_format.as_ref(),
    );
    let judged = oracle_tools(lane, parts.tools.as_deref().unwrap_or_default());
    let found = check(&Request {
        tools_present: parts.tools.is_some(),
        lane,
        tools: &judged,
        tool_choice: parts.tool_choice.as_ref(),
        response_format: parts.response_format.as_ref(),
        walks: None,
        as_of: &rec.observed,
    });
    let (want_status, want_body) = if let Some(first) = found.first() {
        (first.status, error_body(lane, first).to_string())
    } else {
        (200, accept_body(lane).to_string())
    };
    let (status, got) = round_trip(lane, all, rec, &body)?;
    if status != want_status || got != want_body {
        return Err(format!(
            "{}: v1 request answered {status} {got}\n  want {want_status} {want_body}",
            rec.id
        )
        .into());
    }
    Ok(())
}

/// Start a mock for `lane` with every recording of it, POST `body` to the
/// lane's endpoint, stop the mock; the status and the body text.
fn round_trip(
    lane: Lane,
    all: &[Recording],
    rec: &Recording,
    body: &Value,
) -> Result<(u16, String), Failed> {
    let same_lane: Vec<Recording> = all.iter().filter(|r| r.lane == rec.lane).cloned().collect();
    let server = serve_mock(
        lane,
        "127.0.0.1:0",
        same_lane,
        rec.observed.clone(),
        &MockOptions::default(),
        Box::new(|_| {}),
    )
    .map_err(|e| format!("bind 127.0.0.1:0: {e}"))?;
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(5))
        .no_proxy()
        .build()
        .map_err(|e| e.to_string())?;
    let url = format!("{}{}", server.url(), endpoint_path(lane));
    let result = client
        .post(&url)
        .json(body)
        .send()
        .and_then(|resp| {
            let status = resp.status().as_u16();
            resp.text().map(|text| (status, text))
        })
        .map_err(|e| Failed::from(format!("POST {url}: {e}")));
    server.stop();
    result
}

/// The recorded request in a minimal request body of the lane's wire.
fn recorded_request(rec: &Recording, lane: Lane) -> Value {
    let tools = rec.request.tools_member().map(<[Value]>::to_vec);
    request_body(
        lane,
        tools.as_deref(),
        rec.request.tool_choice.as_ref(),
        rec.request.response_format.as_ref(),
    )
}

/// The lane's real endpoint path (with a placeholder model where it has one).
fn endpoint_path(lane: Lane) -> &'static str {
    match lane.wire() {
        Wire::Messages => "/v1/messages",
        Wire::Responses => "/v1/responses",
        Wire::GeminiParameters | Wire::GeminiJsonSchema => "/v1beta/models/mock:generateContent",
        Wire::Bedrock => "/model/mock/converse",
        Wire::Chat if lane == Lane::Ollama => "/api/chat",
        Wire::Chat => "/v1/chat/completions",
    }
}

/// A minimal request of the lane's wire carrying `tools` (no `tools` member
/// when `None`), `tool_choice` and `response_format`.
fn request_body(
    lane: Lane,
    tools: Option<&[Value]>,
    tool_choice: Option<&Value>,
    response_format: Option<&Value>,
) -> Value {
    let hi = json!([{"role": "user", "content": "hi"}]);
    let mut body = match lane.wire() {
        Wire::Messages => json!({"model": "mock", "max_tokens": 16, "messages": hi}),
        Wire::Chat if lane == Lane::Ollama => {
            json!({"model": "mock", "messages": hi, "stream": false})
        }
        Wire::Chat => json!({"model": "mock", "messages": hi}),
        Wire::Responses => json!({"model": "mock", "input": "hi"}),
        Wire::GeminiParameters | Wire::GeminiJsonSchema => {
            json!({"contents": [{"role": "user", "parts": [{"text": "hi"}]}]})
        }
        Wire::Bedrock => json!({"messages": [{"role": "user", "content": [{"text": "hi"}]}]}),
    };
    let obj = body.as_object_mut().expect("an object");
    match lane.wire() {
        Wire::Bedrock => {
            let mut config = Map::new();
            if let Some(t) = tools {
                config.insert("tools".into(), Value::Array(t.to_vec()));
            }
            if let Some(c) = tool_choice {
                config.insert("toolChoice".into(), c.clone());
            }
            if !config.is_empty() {
                obj.insert("toolConfig".into(), Value::Object(config));
            }
        }
        Wire::GeminiParameters | Wire::GeminiJsonSchema => {
            if let Some(t) = tools {
                obj.insert("tools".into(), Value::Array(t.to_vec()));
            }
            if let Some(c) = tool_choice {
                obj.insert("toolConfig".into(), json!({"functionCallingConfig": c}));
            }
        }
        Wire::Messages | Wire::Chat | Wire::Responses => {
            if let Some(t) = tools {
                obj.insert("tools".into(), Value::Array(t.to_vec()));
            }
            if let Some(c) = tool_choice {
                obj.insert("tool_choice".into(), c.clone());
            }
        }
    }
    if let Some(f) = response_format {
        obj.insert("response_format".into(), f.clone());
    }
    body
}

fn format_for(lane: Lane) -> Format {
    match lane.wire() {
        Wire::Messages => Format::AnthropicTools,
        Wire::Chat => Format::OpenaiChatTools,
        Wire::Responses => Format::OpenaiResponsesTools,
        Wire::GeminiParameters | Wire::GeminiJsonSchema => Format::GeminiTools,
        Wire::Bedrock => Format::BedrockTools,
    }
}
