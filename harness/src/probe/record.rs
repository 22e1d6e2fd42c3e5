//! One answer judged and recorded: redacted, sorted into accepted,
//! rejected or failed, written as a `live-probe` recording, and compared
//! with the oracle's verdict (the replay's own check).

use serde_json::Value;

use super::model::{Planned, ProbeResult, Sink, Verdict, recording_path};
use super::{providers, redact};
use crate::construct::Construct;
use crate::http::{Exchange, Failure};
use crate::lane::Lane;
use crate::oracle::{self, Rejection, Request};
use crate::recording::{
    RecordedRequest, RecordedResponse, Recording, RecordingSource, body_contains,
};

/// The request members around the tools that the probe sends and the
/// oracle sees: the `tool_choice` of the wire, no `response_format`.
pub(super) fn probe_request_members(lane: Lane) -> Option<Value> {
    providers::tool_choice(lane)
}

/// The oracle's verdict on a probe's request as of `as_of`.
pub(crate) fn oracle_verdict(lane: Lane, wire_tools: &[Value], as_of: &str) -> Vec<Rejection> {
    let tools = crate::replay::oracle_tools(lane, wire_tools);
    let choice = probe_request_members(lane);
    oracle::check(&Request {
        lane,
        tools: &tools,
        tools_present: true,
        tool_choice: choice.as_ref(),
        response_format: None,
        walks: None,
        as_of,
    })
}

/// Longest provider message kept as a `match` the oracle does not know.
const MATCH_CHARS: usize = 200;

/// Judge one exchange; record it when it answers about the schema.
pub(super) fn judge(
    p: &Planned,
    c: &Construct,
    ex: &Exchange,
    secrets: &[&str],
    sink: &Sink<'_>,
) -> ProbeResult {
    let attempts = ex.attempts.len();
    let result = |verdict, status, detail: String| ProbeResult {
        lane: p.lane,
        construct: p.construct.clone(),
        model: p.model.clone(),
        verdict,
        status,
        attempts,
        detail: redact::text(&detail, secrets),
        recording: None,
        rule: None,
        disagreement: None,
    };
    let resp = match &ex.result {
        Err(Failure::Budget) => {
            return result(
                Verdict::NotSent,
                None,
                "not sent: the request budget (--max-requests) was spent".to_owned(),
            );
        }
        Err(f) => return result(Verdict::Failed, None, f.to_string()),
        Ok(r) => r,
    };
    let status = resp.status;
    let text = redact::text(&String::from_utf8_lossy(&resp.body), secrets);
    let parsed: Option<Value> = serde_json::from_str(&text).ok();
    let tries = match attempts {
        1 => "1 attempt".to_owned(),
        n => format!("{n} attempts"),
    };
    let stopped = if ex.budget_stopped {
        "; the budget stopped the retries"
    } else {
        ""
    };
    let body = match (status, parsed) {
        (200..=299, None) => {
            return result(
                Verdict::Failed,
                Some(status),
                format!(
                    "answered {status} with a body that is not JSON: {}",
                    snippet(&text, 120)
                ),
            );
        }
        (200..=299, Some(_)) => None,
        (400 | 413 | 422, Some(mut v)) => {
            redact::json(&mut v, secrets);
            Some(v)
        }
        (400 | 413 | 422, None) => Some(Value::String(text.clone())),
        (401 | 403, _) => {
            return result(
                Verdict::Failed,
                Some(status),
                format!("the key was refused ({status}): {}", snippet(&text, 160)),
            );
        }
        (429, _) => {
            return result(
                Verdict::Failed,
                Some(status),
                format!("rate limited: 429 after {tries}{stopped}"),
            );
        }
        (500.., _) => {
            return result(
                Verdict::Failed,
                Some(status),
                format!("server error {status} after {tries}{stopped}"),
            );
        }
        _ => {
            return result(
                Verdict::Failed,
                Some(status),
                format!("unexpected status {status}: {}", snippet(&text, 160)),
            );
        }
    };
    // A JSON body without a single string holds no message to match: it
    // is kept as its text.
    let body = body.map(|b| {
        if provider_message(&b).is_some() {
            b
        } else {
            Value::String(b.to_string())
        }
    });
    let rec = recording(p, c, status, body, sink);
    let verdict = if rec.expects_accept() {
        Verdict::Accepted
    } else {
        Verdict::Rejected
    };
    let disagreement = crate::replay::reproduces(&rec).err();
    let path = recording_path(sink.recordings, &rec);
    let relative = format!("{}/{}.json", rec.provider, rec.id);
    let mut out = result(verdict, Some(status), String::new());
    out.rule = Some(rec.rule.clone());
    out.disagreement = disagreement;
    let mut text = serde_json::to_string_pretty(&rec).unwrap_or_default();
    text.push('\n');
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .map_err(|e| e.to_string())
        .and_then(|()| {
            crate::outdir::create_new_file(&path, text.as_bytes()).map_err(|e| e.to_string())
        });
    out.detail = match written {
        Ok(true) => format!("{status} after {tries}: recorded {relative}"),
        Ok(false) => {
            format!("{status} after {tries}: {relative} already holds today's answer (kept)")
        }
        Err(e) => {
            out.verdict = Verdict::Failed;
            format!("{status} after {tries}, but the recording could not be written: {e}")
        }
    };
    out.recording = Some(relative);
    out
}

/// The recording of an answer about the schema.
fn recording(
    p: &Planned,
    c: &Construct,
    status: u16,
    body: Option<Value>,
    sink: &Sink<'_>,
) -> Recording {
    let found = oracle_verdict(p.lane, &p.wire_tools, sink.date);
    let unattributed = format!("probe-{}", c.id);
    let accepted = body.is_none();
    // The rule the answer is evidence for, and the text a reproduction
    // must contain: the oracle's rule when its message (or a recorded
    // `match` of that rule) is in the body; else the provider's own words,
    // which the oracle does not reproduce (a disagreement to settle).
    let (rule, match_text) = match &body {
        None => (
            found
                .first()
                .map_or(unattributed.clone(), |r| r.rule.to_owned()),
            String::new(),
        ),
        Some(b) => {
            let known = found.iter().find_map(|r| {
                let recorded = sink
                    .known
                    .iter()
                    .filter(|rec| rec.rule == r.rule && !rec.expects_accept())
                    .map(|rec| rec.match_text.clone());
                std::iter::once(r.message.clone())
                    .chain(recorded)
                    .find(|m| !m.is_empty() && body_contains(b, m))
                    .map(|m| (r.rule.to_owned(), m))
            });
            known.unwrap_or_else(|| {
                (
                    found
                        .first()
                        .map_or(unattributed.clone(), |r| r.rule.to_owned()),
                    provider_message(b).unwrap_or_default(),
                )
            })
        }
    };
    let day = sink.date.replace('-', "");
    let id = if rule == unattributed {
        format!("{rule}-{}-{day}", p.lane.id())
    } else {
        format!("{rule}-probe-{}-{}-{day}", c.id, p.lane.id())
    };
    Recording {
        id,
        rule,
        lane: p.lane.id().to_owned(),
        provider: p.provider.to_owned(),
        endpoint: p.lane.endpoint().to_owned(),
        observed: sink.date.to_owned(),
        source: RecordingSource {
            kind: "live-probe".to_owned(),
            url: p.url.clone(),
        },
        request: RecordedRequest {
            reconstructed: false,
            tools: p.wire_tools.clone(),
            tool_choice: probe_request_members(p.lane),
            response_format: None,
        },
        response: RecordedResponse { status, body },
        match_text,
        notes: Some(format!(
            "Live probe of construct {} (corpus/probes/{}.json), sent raw (not shaped) with the smallest output limit{}. Credentials, account and request ids redacted{}.",
            c.id,
            c.id,
            if probe_request_members(p.lane).is_some() {
                " and tool_choice none"
            } else {
                ""
            },
            if accepted {
                "; the accepted answer's body is not kept"
            } else {
                ""
            },
        )),
        expect: accepted.then(|| "accept".to_owned()),
        model: Some(p.model.clone()),
        construct: Some(c.id.clone()),
    }
}

/// The provider's own message in an error body: `error.message`,
/// `message`, `error` or `detail` when a string, else the first non-empty
/// string in it; at most [`MATCH_CHARS`] characters of it (`None`: the
/// body holds no string).
fn provider_message(body: &Value) -> Option<String> {
    fn first_string(v: &Value) -> Option<&str> {
        match v {
            Value::String(s) if !s.trim().is_empty() => Some(s),
            Value::Array(items) => items.iter().find_map(first_string),
            Value::Object(m) => m.values().find_map(first_string),
            _ => None,
        }
    }
    let text = ["/error/message", "/message", "/error", "/detail"]
        .iter()
        .find_map(|ptr| body.pointer(ptr).and_then(Value::as_str))
        .filter(|s| !s.trim().is_empty())
        .or_else(|| first_string(body))?;
    Some(snippet(text, MATCH_CHARS).to_owned())
}

/// At most `n` characters of `s`, cut at a character boundary.
fn snippet(s: &str, n: usize) -> &str {
    s.char_indices().nth(n).map_or(s, |(i, _)| &s[..i])
}
