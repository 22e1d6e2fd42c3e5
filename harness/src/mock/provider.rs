//! Provider emulation: what one lane's endpoints answer. Routes the lane's
//! real paths, replays a recording whose request matches, else asks the
//! oracle and answers its first rejection ([`error_body`]) or the provider's
//! minimal valid answer ([`accept_body`], streamed when asked), in the
//! provider's own format. The HTTP itself is the transport's.

use serde_json::{Value, json};

use super::fault::{Fault, FaultKind, Injector};
use super::transport::{Delivery, Handler, HttpRequest, Response};
use crate::lane::{Lane, Wire};
use crate::oracle::{self, Rejection, Request, accept_body, error_body};
use crate::recording::Recording;

/// What answers requests.
pub(super) struct Service {
    lane: Lane,
    /// This lane's recordings, most specific first (see [`super::serve_mock`]).
    recordings: Vec<Recording>,
    as_of: String,
    /// The fault the first requests get, if any.
    fault: Option<Injector>,
}

impl Service {
    /// Serve `lane` with its own `recordings` (those of other lanes are
    /// dropped), sorted most specific first, then by id.
    pub(super) fn new(
        lane: Lane,
        recordings: Vec<Recording>,
        as_of: String,
        fault: Option<Injector>,
    ) -> Self {
        let mut recordings: Vec<Recording> = recordings
            .into_iter()
            .filter(|r| r.lane == lane.id())
            .collect();
        recordings.sort_by(|a, b| {
            specificity(b)
                .cmp(&specificity(a))
                .then_with(|| a.id.cmp(&b.id))
        });
        Self {
            lane,
            recordings,
            as_of,
            fault,
        }
    }

    /// The recording this request replays, if any.
    fn recorded(&self, ex: &Extracted<'_>) -> Option<&Recording> {
        self.recordings.iter().find(|rec| {
            let tools_match = match rec.request.tools_member() {
                Some(t) => ex.tools == Some(t),
                None => ex.tools.is_none_or(<[Value]>::is_empty),
            };
            tools_match
                && rec
                    .request
                    .tool_choice
                    .as_ref()
                    .is_none_or(|c| ex.tool_choice == Some(c))
                && rec
                    .request
                    .response_format
                    .as_ref()
                    .is_none_or(|f| ex.response_format == Some(f))
        })
    }
}

impl Handler for Service {
    /// The response to one request and its log verdict.
    fn handle(&self, req: &HttpRequest) -> (Response, String) {
        let lane = self.lane;
        let Some(endpoint) = route(lane, &req.path) else {
            let message = format!(
                "wireshape mock-provider ({lane}): no route for {} {}; this lane serves {}",
                req.method,
                req.path,
                paths(lane).join(", ")
            );
            let r = Response::json(404, &envelope(lane, 404, &message), "not-found");
            return (r, "not-found".to_owned());
        };
        if req.method != "POST" {
            let message = format!(
                "wireshape mock-provider ({lane}): method {} not allowed on {}; use POST",
                req.method, req.path
            );
            let mut r = Response::json(405, &envelope(lane, 405, &message), "method-not-allowed");
            r.headers.push(("allow", "POST".to_owned()));
            return (r, "method-not-allowed".to_owned());
        }
        match self.fault.as_ref().and_then(Injector::next) {
            Some((fault, tag)) => self.faulty(fault, tag, endpoint, req),
            None => self.answer(endpoint, req),
        }
    }

    /// The lane's error [`envelope`] for an error the transport raises.
    fn refuse(&self, status: u16, message: &str, verdict: &str) -> Response {
        Response::json(status, &envelope(self.lane, status, message), verdict)
    }
}

impl Service {
    /// The answer of `fault` (its log verdict `tag`) to a POST on one of the
    /// lane's endpoints; `slow-body` delivers the normal answer slowly.
    fn faulty(
        &self,
        fault: Fault,
        tag: String,
        endpoint: Endpoint,
        req: &HttpRequest,
    ) -> (Response, String) {
        let lane = self.lane;
        let r = match fault.kind {
            FaultKind::RateLimit => {
                let secs = fault.retry_after_secs();
                let message = format!(
                    "wireshape mock-provider: rate limit exceeded ({tag}); retry after {secs} s"
                );
                let mut r = Response::json(429, &envelope(lane, 429, &message), &tag);
                r.headers.push(("retry-after", secs.to_string()));
                if lane.wire() == Wire::Bedrock {
                    r.headers
                        .push(("x-amzn-errortype", "ThrottlingException".to_owned()));
                }
                r
            }
            FaultKind::ServerError => {
                let message = format!("wireshape mock-provider: internal server error ({tag})");
                let mut r = Response::json(500, &envelope(lane, 500, &message), &tag);
                if lane.wire() == Wire::Bedrock {
                    r.headers
                        .push(("x-amzn-errortype", "InternalServerException".to_owned()));
                }
                r
            }
            FaultKind::MalformedJson => {
                let whole = accept_body(lane).to_string().into_bytes();
                let cut = whole[..whole.len() / 2].to_vec();
                Response::bytes(200, "application/json", cut, &tag)
            }
            FaultKind::DropConnection => Response {
                delivery: Delivery::Drop,
                ..Response::bytes(0, "text/plain", Vec::new(), &tag)
            },
            FaultKind::SlowBody => {
                let (mut r, verdict) = self.answer(endpoint, req);
                let tag = format!("{verdict}, {tag}");
                r.delivery = Delivery::Stall {
                    after: r.body.len() / 2,
                    stall: fault.delay,
                };
                r.verdict.clone_from(&tag);
                return (r, tag);
            }
        };
        (r, tag)
    }

    /// The answer to a POST on one of the lane's endpoints: the recording
    /// it matches, else the oracle's verdict.
    fn answer(&self, endpoint: Endpoint, req: &HttpRequest) -> (Response, String) {
        let lane = self.lane;
        let invalid = |message: String, verdict: &str| {
            let r = Response::json(400, &envelope(lane, 400, &message), verdict);
            (r, verdict.to_owned())
        };
        let body: Value = match serde_json::from_slice(&req.body) {
            Ok(v) => v,
            Err(e) => return invalid(format!("invalid JSON body: {e}"), "invalid-json"),
        };
        if !body.is_object() {
            return invalid(
                "the request body must be a JSON object".to_owned(),
                "invalid-body",
            );
        }
        let ex = match extract(lane, &body) {
            Ok(ex) => ex,
            Err(message) => return invalid(message, "invalid-body"),
        };
        if let Some(rec) = self.recorded(&ex) {
            let verdict = format!("recorded {}", rec.id);
            let (content_type, bytes) = match &rec.response.body {
                Some(Value::String(s)) => ("text/plain; charset=utf-8", s.clone().into_bytes()),
                Some(v) => ("application/json", v.to_string().into_bytes()),
                None => ("text/plain; charset=utf-8", Vec::new()),
            };
            let r = Response::bytes(rec.response.status, content_type, bytes, &verdict);
            return (r, verdict);
        }
        let rejections = oracle::check(&Request {
            tools_present: ex.tools.is_some(),
            lane,
            tools: &ex.oracle_tools,
            tool_choice: ex.tool_choice,
            response_format: ex.response_format,
            walks: None,
            as_of: &self.as_of,
        });
        if let Some(first) = rejections.first() {
            let verdict = match first.tool {
                Some(i) => format!("{} at tools[{i}]", first.rule),
                None => first.rule.to_owned(),
            };
            let r = Response::json(first.status, &error_body(lane, first), &verdict);
            return (r, verdict);
        }
        let (content_type, bytes) = accepted(lane, endpoint, &body, &req.query);
        let r = Response::bytes(200, content_type, bytes, "accepted");
        (r, "accepted".to_owned())
    }
}

/// The paths this lane serves, as printed in the banner and in 404s.
pub(super) fn paths(lane: Lane) -> Vec<&'static str> {
    match lane.wire() {
        Wire::Messages => vec!["POST /v1/messages"],
        Wire::Responses => vec!["POST /v1/responses"],
        Wire::GeminiParameters | Wire::GeminiJsonSchema => vec![
            "POST /v1beta/models/{model}:generateContent",
            "POST /v1beta/models/{model}:streamGenerateContent",
        ],
        Wire::Bedrock => vec!["POST /model/{modelId}/converse"],
        Wire::Chat if lane == Lane::Ollama => vec!["POST /api/chat"],
        Wire::Chat => vec!["POST /v1/chat/completions", "POST /chat/completions"],
    }
}

/// How many request members besides `tools` a recording pins.
fn specificity(r: &Recording) -> usize {
    usize::from(r.request.tool_choice.is_some()) + usize::from(r.request.response_format.is_some())
}

/// Which endpoint of the lane a path names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Endpoint {
    /// Everything but Gemini's and Ollama's special cases.
    Plain,
    /// Gemini `:generateContent` (`stream: false`) or `:streamGenerateContent`.
    Gemini { stream: bool },
    /// Ollama `/api/chat` (streams unless `"stream": false`).
    Ollama,
}

pub(super) fn route(lane: Lane, path: &str) -> Option<Endpoint> {
    match lane.wire() {
        Wire::Messages => (path == "/v1/messages").then_some(Endpoint::Plain),
        Wire::Responses => (path == "/v1/responses").then_some(Endpoint::Plain),
        Wire::Chat if lane == Lane::Ollama => (path == "/api/chat").then_some(Endpoint::Ollama),
        Wire::Chat => {
            matches!(path, "/v1/chat/completions" | "/chat/completions").then_some(Endpoint::Plain)
        }
        Wire::GeminiParameters | Wire::GeminiJsonSchema => {
            let rest = path.strip_prefix("/v1beta/models/")?;
            let (model, method) = rest.rsplit_once(':')?;
            if model.is_empty() || model.contains('/') {
                return None;
            }
            match method {
                "generateContent" => Some(Endpoint::Gemini { stream: false }),
                "streamGenerateContent" => Some(Endpoint::Gemini { stream: true }),
                _ => None,
            }
        }
        Wire::Bedrock => {
            let model = path.strip_prefix("/model/")?.strip_suffix("/converse")?;
            (!model.is_empty() && !model.contains('/')).then_some(Endpoint::Plain)
        }
    }
}

/// The lane's error envelope for an error the mock itself raises (or a
/// fault it injects), with the provider's error type for the status.
fn envelope(lane: Lane, status: u16, message: &str) -> Value {
    let mut body = error_body(
        lane,
        &Rejection {
            rule: "mock-provider",
            status,
            tool: None,
            path: String::new(),
            message: message.to_owned(),
        },
    );
    match lane.wire() {
        Wire::Messages => {
            let kind = match status {
                404 => "not_found_error",
                413 => "request_too_large",
                429 => "rate_limit_error",
                500 => "api_error",
                503 => "overloaded_error",
                _ => "invalid_request_error",
            };
            body["error"]["type"] = json!(kind);
        }
        Wire::GeminiParameters | Wire::GeminiJsonSchema => {
            let kind = match status {
                404 => "NOT_FOUND",
                429 => "RESOURCE_EXHAUSTED",
                500 => "INTERNAL",
                503 => "UNAVAILABLE",
                _ => "INVALID_ARGUMENT",
            };
            body["error"]["status"] = json!(kind);
        }
        _ => {
            // OpenAI's types and codes, wherever the lane keeps its `type`
            // (under `error`, or at the top on the flat bodies).
            let error = match body.get("error") {
                Some(Value::Object(_)) => &mut body["error"],
                _ => &mut body,
            };
            if error.get("type").is_some() {
                match status {
                    429 => {
                        error["type"] = json!("requests");
                        error["code"] = json!("rate_limit_exceeded");
                    }
                    500 => error["type"] = json!("server_error"),
                    503 => error["type"] = json!("service_unavailable"),
                    _ => {}
                }
            }
        }
    }
    body
}

/// What the oracle and the recordings look at in one request body.
struct Extracted<'a> {
    /// The raw `tools` member (`None` when absent or null).
    tools: Option<&'a [Value]>,
    /// What the oracle judges (Gemini: the flattened declarations).
    oracle_tools: Vec<Value>,
    tool_choice: Option<&'a Value>,
    response_format: Option<&'a Value>,
}

fn extract(lane: Lane, body: &Value) -> Result<Extracted<'_>, String> {
    let (tools_at, choice_at) = match lane.wire() {
        Wire::Bedrock => ("/toolConfig/tools", "/toolConfig/toolChoice"),
        Wire::GeminiParameters | Wire::GeminiJsonSchema => {
            ("/tools", "/toolConfig/functionCallingConfig")
        }
        Wire::Messages | Wire::Chat | Wire::Responses => ("/tools", "/tool_choice"),
    };
    let present = |p: &str| body.pointer(p).filter(|v| !v.is_null());
    let tools = match present(tools_at) {
        None => None,
        Some(Value::Array(a)) => Some(a.as_slice()),
        Some(_) => {
            return Err(format!(
                "`{}` must be an array",
                tools_at.trim_start_matches('/').replace('/', ".")
            ));
        }
    };
    let raw = tools.unwrap_or_default();
    let oracle_tools = match lane.wire() {
        Wire::GeminiParameters | Wire::GeminiJsonSchema => raw
            .iter()
            .filter_map(|t| {
                t.get("functionDeclarations")
                    .or_else(|| t.get("function_declarations"))
                    .and_then(Value::as_array)
            })
            .flatten()
            .cloned()
            .collect(),
        _ => raw.to_vec(),
    };
    Ok(Extracted {
        tools,
        oracle_tools,
        tool_choice: present(choice_at),
        response_format: present("/response_format"),
    })
}

/// The provider's answer to an accepted request: [`accept_body`], or its
/// streaming form when the request asks for a stream.
fn accepted(lane: Lane, endpoint: Endpoint, body: &Value, query: &str) -> (&'static str, Vec<u8>) {
    const SSE: &str = "text/event-stream";
    let ok = accept_body(lane);
    let wants_stream = body.get("stream") == Some(&Value::Bool(true));
    let sse = |events: &[(Option<&str>, Value)]| -> Vec<u8> {
        let mut out = String::new();
        for (event, data) in events {
            if let Some(e) = event {
                out.push_str("event: ");
                out.push_str(e);
                out.push('\n');
            }
            out.push_str("data: ");
            out.push_str(&data.to_string());
            out.push_str("\n\n");
        }
        out.into_bytes()
    };
    match (endpoint, lane.wire()) {
        (Endpoint::Gemini { stream: true }, _) => {
            let sse_wanted = query.split('&').any(|kv| kv == "alt=sse");
            if sse_wanted {
                (SSE, sse(&[(None, ok)]))
            } else {
                ("application/json", json!([ok]).to_string().into_bytes())
            }
        }
        (Endpoint::Ollama, _) if body.get("stream") != Some(&Value::Bool(false)) => {
            ("application/x-ndjson", format!("{ok}\n").into_bytes())
        }
        (Endpoint::Plain, Wire::Messages) if wants_stream => {
            let mut start = ok.clone();
            start["content"] = json!([]);
            start["stop_reason"] = Value::Null;
            start["usage"]["output_tokens"] = json!(0);
            let events = [
                (
                    Some("message_start"),
                    json!({"type": "message_start", "message": start}),
                ),
                (
                    Some("content_block_start"),
                    json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
                ),
                (
                    Some("content_block_delta"),
                    json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "ok"}}),
                ),
                (
                    Some("content_block_stop"),
                    json!({"type": "content_block_stop", "index": 0}),
                ),
                (
                    Some("message_delta"),
                    json!({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": {"output_tokens": 1}}),
                ),
                (Some("message_stop"), json!({"type": "message_stop"})),
            ];
            (SSE, sse(&events))
        }
        (Endpoint::Plain, Wire::Chat) if wants_stream => {
            let chunk = |delta: Value, finish: Value| {
                json!({
                    "id": ok["id"], "object": "chat.completion.chunk", "model": ok["model"],
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
                })
            };
            let mut out = sse(&[
                (
                    None,
                    chunk(json!({"role": "assistant", "content": "ok"}), Value::Null),
                ),
                (None, chunk(json!({}), json!("stop"))),
            ]);
            out.extend_from_slice(b"data: [DONE]\n\n");
            (SSE, out)
        }
        (Endpoint::Plain, Wire::Responses) if wants_stream => {
            let mut created = ok.clone();
            created["status"] = json!("in_progress");
            created["output"] = json!([]);
            let events = [
                (
                    Some("response.created"),
                    json!({"type": "response.created", "sequence_number": 0, "response": created}),
                ),
                (
                    Some("response.completed"),
                    json!({"type": "response.completed", "sequence_number": 1, "response": ok}),
                ),
            ];
            (SSE, sse(&events))
        }
        _ => ("application/json", ok.to_string().into_bytes()),
    }
}
