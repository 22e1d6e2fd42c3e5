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

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{Map, Value, json};
use wireshape::testing::{
    MockOptions, accept_body, error_body, oracle_tools, serve_mock, v1_request,
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
    libtest_mimic::run(&args, trials).exit();
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
    let want = r#"{"error":{"message":"Invalid schema for function 'update_labels': In context=('properties', 'labels'), 'oneOf' is not permitted.","type":"invalid_request_error","param":null,"code":null}}"#;
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
    let tools = rec.request.tools_member().map(<[Value]>::to_vec);
    let body = request_body(
        lane,
        tools.as_deref(),
        rec.request.tool_choice.as_ref(),
        rec.request.response_format.as_ref(),
    );
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
