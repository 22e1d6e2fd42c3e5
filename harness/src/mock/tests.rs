//! Unit tests of the mock provider: routes, verdicts, recordings and the
//! HTTP/1.1 transport (keep-alive, chunked bodies, limits, stop).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::provider::{Endpoint, route};
use super::transport::Limits;
use super::*;
use crate::oracle::{self, Request, accept_body, error_body};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

type Lines = Arc<Mutex<Vec<String>>>;

fn start(lane: Lane, recordings: Vec<Recording>) -> (MockServer, Lines) {
    start_with(lane, recordings, Limits::default())
}

fn start_with(lane: Lane, recordings: Vec<Recording>, limits: Limits) -> (MockServer, Lines) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&lines);
    let server = serve_with_limits(
        lane,
        "127.0.0.1:0",
        recordings,
        oracle::DEFAULT_AS_OF.to_owned(),
        &MockOptions::default(),
        Box::new(move |l| lock(&sink).push(l.to_owned())),
        limits,
    )
    .expect("bind 127.0.0.1:0");
    (server, lines)
}

/// Send raw bytes, read the whole answer (the request closes the connection).
fn raw(server: &MockServer, request: &[u8]) -> (u16, String, String) {
    let mut s = TcpStream::connect(server.addr()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s.write_all(request).unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").expect("a response head");
    let status = head[9..12].parse().unwrap();
    (status, head.to_owned(), body.to_owned())
}

fn post(server: &MockServer, path: &str, body: &str) -> (u16, String, String) {
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    raw(server, req.as_bytes())
}

/// A complete Ollama request the oracle accepts (`Content-Length`, kept
/// alive).
fn ollama_request() -> String {
    let body = r#"{"model":"m","messages":[],"stream":false}"#;
    format!(
        "POST /api/chat HTTP/1.1\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

fn messages(tools: &Value) -> String {
    json!({"model": "mock", "max_tokens": 16, "messages": [{"role": "user", "content": "hi"}], "tools": tools})
        .to_string()
}

#[test]
fn a_wrong_path_is_a_404_naming_the_lane_paths() {
    let (server, log) = start(Lane::AnthropicMessages, Vec::new());
    let (status, _, body) = post(&server, "/v1/chat/completions", "{}");
    assert_eq!(status, 404);
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["type"], "error");
    assert_eq!(body["error"]["type"], "not_found_error");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("POST /v1/messages")
    );
    server.stop();
    assert_eq!(
        lock(&log).as_slice(),
        ["POST /v1/chat/completions 404 not-found"]
    );
}

#[test]
fn get_on_the_endpoint_is_a_405() {
    let (server, _) = start(Lane::OpenaiChat, Vec::new());
    let (status, head, body) = raw(
        &server,
        b"GET /v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 405);
    assert!(head.contains("\r\nallow: POST"), "{head}");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("use POST")
    );
    server.stop();
}

#[test]
fn a_clean_tool_gets_200_with_the_accept_body() {
    let (server, log) = start(Lane::AnthropicMessages, Vec::new());
    let tools = json!([{"name": "get", "description": "d", "input_schema": {"type": "object"}}]);
    let (status, head, body) = post(&server, "/v1/messages?beta=true", &messages(&tools));
    assert_eq!(status, 200, "{body}");
    assert!(head.contains("content-type: application/json"), "{head}");
    assert_eq!(body, accept_body(Lane::AnthropicMessages).to_string());
    server.stop();
    assert_eq!(lock(&log).as_slice(), ["POST /v1/messages 200 accepted"]);
}

#[test]
fn a_bad_tool_gets_the_oracle_rejection_body() {
    let (server, log) = start(Lane::AnthropicMessages, Vec::new());
    let tools = json!([
        {"name": "ok", "input_schema": {"type": "object"}},
        {"name": "t", "input_schema": {"type": "object", "anyOf": [{"required": ["a"]}]}}
    ]);
    let arr = tools.as_array().unwrap().clone();
    let want = oracle::check(&Request {
        tools_present: true,
        lane: Lane::AnthropicMessages,
        tools: &arr,
        tool_choice: None,
        response_format: None,
        walks: None,
        as_of: oracle::DEFAULT_AS_OF,
    });
    assert_eq!(want[0].rule, "anthropic-root-composition");
    let (status, _, body) = post(&server, "/v1/messages", &messages(&tools));
    assert_eq!(status, want[0].status);
    assert_eq!(
        body,
        error_body(Lane::AnthropicMessages, &want[0]).to_string()
    );
    server.stop();
    assert_eq!(
        lock(&log).as_slice(),
        ["POST /v1/messages 400 anthropic-root-composition at tools[1]"]
    );
}

#[test]
fn malformed_json_and_malformed_http_get_400() {
    let (server, log) = start(Lane::OpenaiChat, Vec::new());
    let (status, _, body) = post(&server, "/v1/chat/completions", "{\"model\": ");
    assert_eq!(status, 400);
    let body: Value = serde_json::from_str(&body).unwrap();
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("invalid JSON body")
    );
    assert_eq!(body["error"]["type"], "invalid_request_error");

    // hyper answers a malformed head itself: a bare 400.
    let (status, _, body) = raw(&server, b"NOT HTTP AT ALL\r\n\r\n");
    assert_eq!(status, 400);
    assert_eq!(body, "");
    server.stop();
    assert_eq!(
        lock(&log).as_slice(),
        [
            "POST /v1/chat/completions 400 invalid-json",
            "- - 400 malformed-http"
        ]
    );
}

#[test]
fn an_oversized_body_is_a_413_without_reading_it() {
    let (server, _) = start(Lane::OpenaiChat, Vec::new());
    let (status, _, _) = raw(
        &server,
        format!(
            "POST /v1/chat/completions HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
            Limits::default().max_body + 1
        )
        .as_bytes(),
    );
    assert_eq!(status, 413);
    server.stop();
}

#[test]
fn keep_alive_serves_several_requests_and_chunked_bodies_on_one_connection() {
    let (server, log) = start(Lane::Ollama, Vec::new());
    let mut s = TcpStream::connect(server.addr()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let body = r#"{"model":"m","messages":[],"stream":false}"#;
    let first = ollama_request();
    let second = format!(
        "POST /api/chat HTTP/1.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{:x}\r\n{body}\r\n0\r\n\r\n",
        body.len()
    );
    s.write_all(first.as_bytes()).unwrap();
    s.write_all(second.as_bytes()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    assert_eq!(out.matches("HTTP/1.1 200 OK").count(), 2, "{out}");
    server.stop();
    assert_eq!(lock(&log).len(), 2);
}

#[test]
fn gemini_routes_any_model_and_streams_as_an_array() {
    let (server, _) = start(Lane::GeminiOpenapi, Vec::new());
    let body = json!({"contents": [], "tools": [{"functionDeclarations": [{"name": "f", "parameters": {"type": "OBJECT", "properties": {"a": {"type": "STRING"}}}}]}]});
    let (status, _, out) = post(
        &server,
        "/v1beta/models/gemini-2.5-pro:streamGenerateContent",
        &body.to_string(),
    );
    assert_eq!(status, 200, "{out}");
    assert_eq!(out, json!([accept_body(Lane::GeminiOpenapi)]).to_string());
    let (status, _, _) = post(&server, "/v1beta/models/m:countTokens", "{}");
    assert_eq!(status, 404);
    server.stop();
}

#[test]
fn stop_returns_promptly_with_an_idle_connection_open() {
    let (server, _) = start(Lane::OpenaiChat, Vec::new());
    let _idle = TcpStream::connect(server.addr()).unwrap();
    std::thread::sleep(Duration::from_millis(50));
    let t = Instant::now();
    server.stop();
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

#[test]
fn routes_follow_the_real_apis() {
    assert_eq!(
        route(Lane::DeepseekChat, "/chat/completions"),
        Some(Endpoint::Plain)
    );
    assert_eq!(route(Lane::Xai, "/v1/responses"), Some(Endpoint::Plain));
    assert_eq!(
        route(
            Lane::BedrockConverse,
            "/model/anthropic.claude-v2%3A1/converse"
        ),
        Some(Endpoint::Plain)
    );
    assert_eq!(route(Lane::BedrockConverse, "/model//converse"), None);
    assert_eq!(
        route(Lane::BedrockConverse, "/model/m/converse-stream"),
        None
    );
    assert_eq!(route(Lane::Ollama, "/v1/chat/completions"), None);
    assert_eq!(
        route(
            Lane::GeminiJsonschema,
            "/v1beta/models/gemini-2.5-flash:generateContent"
        ),
        Some(Endpoint::Gemini { stream: false })
    );
}

/// Limits small enough to reach in a test.
fn tight() -> Limits {
    Limits {
        max_body: 1024,
        max_head: 1024,
        max_connections: 1,
        head_timeout: Duration::from_millis(300),
        body_deadline: Duration::from_millis(300),
        grace: Duration::from_millis(100),
    }
}

/// Read one response (head and `Content-Length` body) off a kept-alive
/// connection.
fn read_one(s: &mut TcpStream) -> String {
    let mut out = Vec::new();
    let mut byte = [0u8; 1];
    while !out.ends_with(b"\r\n\r\n") {
        assert_eq!(s.read(&mut byte).unwrap(), 1, "closed mid-head");
        out.push(byte[0]);
    }
    let head = String::from_utf8(out).unwrap();
    let len: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length: "))
        .map_or(0, |n| n.trim().parse().unwrap());
    let mut body = vec![0u8; len];
    s.read_exact(&mut body).unwrap();
    head + &String::from_utf8(body).unwrap()
}

#[test]
fn a_head_over_the_cap_is_a_431() {
    let (server, log) = start_with(Lane::OpenaiChat, Vec::new(), tight());
    let filler = "a".repeat(2048);
    let req = format!("POST /v1/chat/completions HTTP/1.1\r\nX-Long: {filler}\r\n\r\n");
    let (status, _, _) = raw(&server, req.as_bytes());
    assert_eq!(status, 431);
    server.stop();
    assert_eq!(lock(&log).as_slice(), ["- - 431 too-large"]);
}

#[test]
fn a_chunked_body_over_the_cap_is_a_413_in_the_provider_format() {
    let (server, log) = start_with(Lane::AnthropicMessages, Vec::new(), tight());
    let chunk = "x".repeat(800);
    let req = format!(
        "POST /v1/messages HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n{n:x}\r\n{chunk}\r\n{n:x}\r\n{chunk}\r\n0\r\n\r\n",
        n = chunk.len()
    );
    let (status, head, body) = raw(&server, req.as_bytes());
    assert_eq!(status, 413);
    assert!(head.contains("connection: close"), "{head}");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["error"]["type"], "request_too_large");
    server.stop();
    assert_eq!(lock(&log).as_slice(), ["POST /v1/messages 413 too-large"]);
}

#[test]
fn a_body_slower_than_the_deadline_is_a_408() {
    let (server, log) = start_with(Lane::OpenaiChat, Vec::new(), tight());
    // Two of the ten announced bytes, then nothing.
    let (status, _, _) = raw(
        &server,
        b"POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 10\r\n\r\n{}",
    );
    assert_eq!(status, 408);
    server.stop();
    assert_eq!(
        lock(&log).as_slice(),
        ["POST /v1/chat/completions 408 too-slow"]
    );
}

#[test]
fn an_idle_kept_alive_connection_is_closed_after_the_head_timeout() {
    let (server, _) = start_with(Lane::Ollama, Vec::new(), tight());
    let mut s = TcpStream::connect(server.addr()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let req = ollama_request();
    s.write_all(req.as_bytes()).unwrap();
    assert!(read_one(&mut s).starts_with("HTTP/1.1 200 OK"));
    // Idle from here on: the server closes it (EOF, not our read timeout).
    let mut rest = Vec::new();
    assert_eq!(s.read_to_end(&mut rest).unwrap(), 0);
    server.stop();
}

#[test]
fn beyond_the_connection_cap_a_request_gets_503_and_a_close() {
    let (server, log) = start_with(Lane::Ollama, Vec::new(), tight());
    let req = ollama_request();
    // The first connection holds the only slot (answered, kept alive).
    let mut first = TcpStream::connect(server.addr()).unwrap();
    first
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    first.write_all(req.as_bytes()).unwrap();
    assert!(read_one(&mut first).starts_with("HTTP/1.1 200 OK"));
    let (status, head, out) = raw(&server, req.as_bytes());
    assert_eq!(status, 503);
    assert!(head.contains("connection: close"), "{head}");
    assert!(serde_json::from_str::<Value>(&out).unwrap()["error"].is_string());
    drop(first);
    server.stop();
    assert_eq!(
        lock(&log).as_slice(),
        ["POST /api/chat 200 accepted", "POST /api/chat 503 busy"]
    );
}

#[test]
fn faults_parse_as_kind_and_optional_times() {
    for kind in FaultKind::ALL {
        let once: Fault = format!("{kind}:1").parse().unwrap();
        assert_eq!(once, Fault::new(kind).times(1));
        assert_eq!(once.to_string(), format!("{kind}:1"));
        let always: Fault = kind.id().parse().unwrap();
        assert_eq!(
            (always.times, always.to_string()),
            (None, kind.id().to_owned())
        );
    }
    assert_eq!(
        "rate-limits".parse::<Fault>().unwrap_err(),
        "unknown fault `rate-limits` (one of: rate-limit, server-error, slow-body, malformed-json, drop-connection)"
    );
    assert!("server-error:0".parse::<Fault>().is_err());
    assert!("server-error:".parse::<Fault>().is_err());
    let rate = Fault::new(FaultKind::RateLimit);
    assert_eq!(
        rate.delay(Duration::from_millis(1500)).retry_after_secs(),
        2
    );
    assert_eq!(rate.delay(Duration::from_secs(3)).retry_after_secs(), 3);
    assert_eq!(rate.delay(Duration::ZERO).retry_after_secs(), 0);
}

#[test]
fn stop_closes_a_connection_stalled_mid_body_and_stops_accepting() {
    let stall = Fault::new(FaultKind::SlowBody).delay(Duration::from_secs(600));
    let server = serve_with_limits(
        Lane::Ollama,
        "127.0.0.1:0",
        Vec::new(),
        oracle::DEFAULT_AS_OF.to_owned(),
        &MockOptions { fault: Some(stall) },
        Box::new(|_| {}),
        Limits::default(),
    )
    .unwrap();
    let addr = server.addr();
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let req = ollama_request();
    s.write_all(req.as_bytes()).unwrap();
    // The head and the first half of the body come; the rest stalls.
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    while !got.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = s.read(&mut buf).unwrap();
        assert!(n > 0, "closed before the head");
        got.extend_from_slice(&buf[..n]);
    }
    let t = Instant::now();
    server.stop();
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    // The connection is closed with the body unfinished, and nothing listens.
    s.read_to_end(&mut got).unwrap();
    let text = String::from_utf8_lossy(&got);
    let (_, sent) = text.split_once("\r\n\r\n").unwrap();
    let whole = accept_body(Lane::Ollama).to_string();
    assert!(
        sent.len() < whole.len() && whole.starts_with(sent),
        "{text}"
    );
    assert!(TcpStream::connect(addr).is_err());
}
