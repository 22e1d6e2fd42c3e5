//! Unit tests of the mock provider: routes, verdicts, recordings and the
//! HTTP/1.1 transport (keep-alive, chunked bodies, limits, stop).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::provider::{Endpoint, route};
use super::transport::{MAX_BODY, lock, split_target};
use super::*;
use crate::oracle::{self, Request, accept_body, error_body};

fn start(lane: Lane, recordings: Vec<Recording>) -> (MockServer, Arc<Mutex<Vec<String>>>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&lines);
    let server = serve_mock(
        lane,
        "127.0.0.1:0",
        recordings,
        oracle::DEFAULT_AS_OF.to_owned(),
        Box::new(move |l| lock(&sink).push(l.to_owned())),
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
    assert!(head.contains("\r\nAllow: POST"), "{head}");
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
    assert!(head.contains("Content-Type: application/json"));
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

    let (status, _, body) = raw(&server, b"NOT HTTP AT ALL\r\n\r\n");
    assert_eq!(status, 400);
    assert!(serde_json::from_str::<Value>(&body).is_ok(), "{body}");
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
            MAX_BODY + 1
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
    let first = format!(
        "POST /api/chat HTTP/1.1\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
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
    assert_eq!(
        split_target("/a?b=c#d"),
        Some(("/a".to_owned(), "b=c".to_owned()))
    );
    assert_eq!(
        split_target("http://h:1/v1/messages"),
        Some(("/v1/messages".to_owned(), String::new()))
    );
    assert_eq!(split_target("*"), None);
}
