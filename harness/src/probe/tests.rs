//! The plan and the judging of answers, without a network: exchanges are
//! built by hand.

use std::path::Path;
use std::time::Duration;

use serde_json::json;

use super::*;
use crate::http::{Attempt, Exchange, Failure, Response};

fn construct(id: &str, schema: &Value, extra: &Value) -> Construct {
    let mut v = json!({"id": id, "asks": "?", "tools": [
        {"name": "probe_t", "description": "d", "input_schema": schema}
    ]});
    if let (Some(m), Some(e)) = (v.as_object_mut(), extra.as_object()) {
        m.extend(e.clone());
    }
    serde_json::from_value(v).unwrap()
}

fn no_env(_: &str) -> Option<String> {
    None
}

fn answer(status: u16, body: &str, attempts: usize) -> Exchange {
    Exchange {
        attempts: vec![
            Attempt {
                waited: Duration::ZERO,
                status: Some(status),
                failure: None,
            };
            attempts
        ],
        result: Ok(Response {
            status,
            headers: Vec::new(),
            body: body.as_bytes().to_vec(),
        }),
        budget_stopped: false,
    }
}

fn judge_one(c: &Construct, lane: Lane, ex: &Exchange, dir: &Path) -> ProbeResult {
    let planned = plan(std::slice::from_ref(c), &[lane], &no_env);
    let sink = Sink {
        recordings: dir,
        date: "2026-12-02",
        known: &[],
    };
    record::judge(&planned[0], c, ex, &["sk-secret-key-1234"], &sink)
}

fn clean() -> Value {
    json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false})
}

#[test]
fn the_plan_estimates_tokens_from_the_body_and_reads_overrides() {
    let c = construct("clean", &clean(), &json!({}));
    let env = |k: &str| match k {
        "WIRESHAPE_OPENAI_CHAT_BASE_URL" => Some("http://gw.example/".to_owned()),
        "WIRESHAPE_OPENAI_CHAT_MODEL" => Some("m1".to_owned()),
        "OPENAI_API_KEY" => Some("k".to_owned()),
        _ => None,
    };
    let p = plan(&[c], &[Lane::OpenaiChat, Lane::Ollama], &env);
    assert_eq!(p.len(), 2);
    assert_eq!(p[0].endpoint, "POST http://gw.example/v1/chat/completions");
    assert_eq!(p[0].model, "m1");
    assert!(p[0].key_set);
    assert_eq!(p[0].input_tokens, (p[0].body.len() as u64).div_ceil(4));
    assert_eq!(p[1].key_env, None);
    assert_eq!(p[1].endpoint, "POST http://127.0.0.1:11434/api/chat");
}

#[test]
fn gemini_openapi_sends_no_closed_objects_and_omit_strict_drops_the_member() {
    let c = construct("clean", &clean(), &json!({}));
    let wire = wire_tools(&c, Lane::GeminiOpenapi);
    assert!(!wire[0].to_string().contains("additionalProperties"));
    let wire = wire_tools(&c, Lane::GeminiJsonschema);
    assert!(wire[0].to_string().contains("additionalProperties"));
    let c = construct(
        "additional-properties-true",
        &json!({"additionalProperties": false}),
        &json!({}),
    );
    assert!(
        wire_tools(&c, Lane::GeminiOpenapi)[0]
            .to_string()
            .contains("additionalProperties")
    );
    let c = construct("omitted", &clean(), &json!({"omit_strict": true}));
    assert_eq!(wire_tools(&c, Lane::OpenaiResponses)[0].get("strict"), None);
    let c = construct("said", &clean(), &json!({}));
    assert_eq!(wire_tools(&c, Lane::OpenaiResponses)[0]["strict"], false);
}

#[test]
fn an_accept_the_oracle_shares_is_recorded_without_its_body() {
    let dir = tempfile::tempdir().unwrap();
    let c = construct("clean", &clean(), &json!({}));
    let r = judge_one(
        &c,
        Lane::OpenaiChat,
        &answer(200, "{\"id\":\"chatcmpl-123456789\"}", 1),
        dir.path(),
    );
    assert_eq!(r.verdict, Verdict::Accepted);
    assert_eq!(r.disagreement, None);
    assert_eq!(
        r.recording.as_deref(),
        Some("openai/probe-clean-openai-chat-20261202.json")
    );
    let recs = crate::recording::load_recordings(dir.path()).unwrap();
    assert_eq!(recs[0].expect.as_deref(), Some("accept"));
    assert_eq!(recs[0].response.body, None);
    assert_eq!(recs[0].construct.as_deref(), Some("clean"));
    // The same answer again the same day: kept, never replaced.
    let again = judge_one(&c, Lane::OpenaiChat, &answer(200, "{}", 1), dir.path());
    assert!(
        again
            .detail
            .ends_with("already holds today's answer (kept)"),
        "{}",
        again.detail
    );
}

#[test]
fn a_rejection_in_the_oracles_words_is_evidence_for_its_rule() {
    let dir = tempfile::tempdir().unwrap();
    let c = construct(
        "root-anyof",
        &json!({"anyOf": [{"type": "object"}, {"type": "string"}]}),
        &json!({}),
    );
    let body = json!({"type": "error", "error": {"type": "invalid_request_error",
        "message": "tools.0.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level"},
        "request_id": "req_0123456789abcdef"});
    let r = judge_one(
        &c,
        Lane::AnthropicMessages,
        &answer(400, &body.to_string(), 1),
        dir.path(),
    );
    assert_eq!(r.verdict, Verdict::Rejected);
    assert_eq!(r.rule.as_deref(), Some("anthropic-root-composition"));
    assert_eq!(r.disagreement, None, "{r:?}");
    let rec = &crate::recording::load_recordings(dir.path()).unwrap()[0];
    assert_eq!(
        rec.id,
        "anthropic-root-composition-probe-root-anyof-anthropic-messages-20261202"
    );
    assert_eq!(
        rec.response.body.as_ref().unwrap()["request_id"],
        "[redacted]"
    );
}

#[test]
fn a_rejection_the_oracle_does_not_know_is_a_disagreement() {
    let dir = tempfile::tempdir().unwrap();
    let c = construct("clean", &clean(), &json!({}));
    let body = json!({"error": {"message": "Invalid schema: nope", "type": "invalid_request_error", "param": null, "code": null}});
    let r = judge_one(
        &c,
        Lane::OpenaiChat,
        &answer(400, &body.to_string(), 1),
        dir.path(),
    );
    assert_eq!(r.verdict, Verdict::Rejected);
    assert_eq!(r.rule.as_deref(), Some("probe-clean"));
    assert!(r.is_failure());
    let rec = &crate::recording::load_recordings(dir.path()).unwrap()[0];
    assert_eq!(rec.match_text, "Invalid schema: nope");
}

#[test]
fn answers_that_say_nothing_about_the_schema_fail_and_are_not_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let c = construct("clean", &clean(), &json!({}));
    let cases = [
        (
            answer(200, "{\"trunc", 1),
            "answered 200 with a body that is not JSON: {\"trunc",
        ),
        (
            answer(401, "bad key sk-secret-key-1234", 1),
            "the key was refused (401): bad key [redacted]",
        ),
        (answer(429, "{}", 3), "rate limited: 429 after 3 attempts"),
        (answer(503, "{}", 2), "server error 503 after 2 attempts"),
    ];
    for (ex, want) in cases {
        let r = judge_one(&c, Lane::OpenaiChat, &ex, dir.path());
        assert_eq!(r.verdict, Verdict::Failed);
        assert_eq!(r.detail, want);
    }
    let timeout = Exchange {
        attempts: vec![],
        result: Err(Failure::Timeout(Duration::from_secs(2))),
        budget_stopped: false,
    };
    assert_eq!(
        judge_one(&c, Lane::OpenaiChat, &timeout, dir.path()).detail,
        "no answer within 2 s"
    );
    let budget = Exchange {
        attempts: vec![],
        result: Err(Failure::Budget),
        budget_stopped: false,
    };
    assert_eq!(
        judge_one(&c, Lane::OpenaiChat, &budget, dir.path()).verdict,
        Verdict::NotSent
    );
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
}
