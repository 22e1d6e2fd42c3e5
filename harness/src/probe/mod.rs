//! `wireshape probe`: each construct of `corpus/probes/` sent raw (not
//! shaped) to each lane's endpoint, to learn what the provider accepts.
//!
//! Without `--live` the probe only plans: each request, its endpoint, its
//! model, an estimated token cost, and the total; nothing is sent. With
//! `--live` (and `WIRESHAPE_LIVE=1`, checked by the CLI) the requests of
//! every lane whose key is in the environment go out through [`crate::http`]
//! (bounded concurrency, a hard budget of attempts, a timeout per attempt,
//! retries on 429 and 5xx); every answer about the schema (2xx, 400, 413,
//! 422) becomes a recording (`source.kind: "live-probe"`, redacted first)
//! written beside the others, and is compared with the oracle's verdict:
//! a disagreement is reported here, shown by `wireshape matrix`, and fails
//! `wireshape replay` until the rule's dated history says so.

mod model;
mod providers;
mod record;
mod redact;
#[cfg(test)]
mod tests;

use std::time::Duration;

use serde_json::Value;

use crate::construct::Construct;
use crate::http;
use crate::lane::Lane;

pub(crate) use model::{Planned, ProbeResult, Sink, Verdict};
pub(crate) use providers::env_name;
pub(crate) use record::oracle_verdict;

/// Bytes per token in the estimate (a common rule of thumb for JSON and
/// English; the providers' own counts differ by model).
const BYTES_PER_TOKEN: u64 = 4;

/// How a probe run is bounded.
#[derive(Debug, Clone)]
pub(crate) struct Limits {
    /// Attempts the whole run may make, retries included (`--max-requests`).
    pub max_requests: usize,
    /// Requests in flight at once.
    pub concurrency: usize,
    /// One attempt's limit.
    pub timeout: Duration,
    /// Retries after a 429, a 5xx or a dropped connection.
    pub retries: u32,
    /// The first retry's wait (doubling), unless `retry-after` says.
    pub backoff: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_requests: 40,
            concurrency: 4,
            timeout: Duration::from_secs(60),
            retries: 2,
            backoff: Duration::from_secs(1),
        }
    }
}

/// The environment as the probe reads it (the process's, or a test's).
pub(crate) type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The lane's tools for a construct: rendered on the wire, without
/// `strict` when the construct says so, and on `gemini-openapi` without
/// `additionalProperties: false` unless that keyword is the construct.
pub(crate) fn wire_tools(c: &Construct, lane: Lane) -> Vec<Value> {
    let mut tools = c.request_tools();
    if lane == Lane::GeminiOpenapi && !c.id.contains("additional-properties") {
        for t in &mut tools {
            drop_closed_objects(&mut t.input_schema);
        }
    }
    let mut wire = match lane.render_all(&tools) {
        Value::Array(items) => items,
        other => vec![other],
    };
    if c.omit_strict {
        for t in &mut wire {
            if let Some(m) = t.as_object_mut() {
                m.remove("strict");
                if let Some(f) = m.get_mut("function").and_then(Value::as_object_mut) {
                    f.remove("strict");
                }
            }
        }
    }
    wire
}

/// Remove every `additionalProperties: false` member.
fn drop_closed_objects(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if m.get("additionalProperties") == Some(&Value::Bool(false)) {
                m.remove("additionalProperties");
            }
            m.values_mut().for_each(drop_closed_objects);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_closed_objects),
        _ => {}
    }
}

/// The plan: every construct × lane it applies to, lane by lane.
pub(crate) fn plan(constructs: &[Construct], lanes: &[Lane], env: Env<'_>) -> Vec<Planned> {
    let mut out = Vec::new();
    for &lane in lanes {
        let e = providers::endpoint(lane);
        let base = env(&env_name(lane, "BASE_URL")).unwrap_or_else(|| e.base_url.to_owned());
        let model = env(&env_name(lane, "MODEL")).unwrap_or_else(|| e.model.to_owned());
        let url = format!(
            "{}{}",
            base.trim_end_matches('/'),
            e.path.replace("{model}", &model)
        );
        let key_set = e
            .key_env
            .is_some_and(|k| env(k).is_some_and(|v| !v.is_empty()));
        for c in constructs.iter().filter(|c| c.applies_to(lane)) {
            let wire_tools = wire_tools(c, lane);
            let tools = Value::Array(wire_tools.clone());
            let body = providers::body(lane, &model, &tools)
                .to_string()
                .into_bytes();
            out.push(Planned {
                lane,
                construct: c.id.clone(),
                provider: e.provider,
                endpoint: format!("POST {url}"),
                model: model.clone(),
                tools: c.request_tools().len(),
                input_tokens: (body.len() as u64).div_ceil(BYTES_PER_TOKEN),
                output_tokens: providers::output_tokens(lane),
                key_env: e.key_env,
                key_set,
                url: url.clone(),
                body,
                wire_tools,
            });
        }
    }
    out
}

/// Send the plan (the CLI has checked `--live` and `WIRESHAPE_LIVE=1`):
/// requests of lanes without a key are not sent; the rest go out under
/// `limits`; each answer about the schema is recorded. `on_result` hears of
/// each result in plan order once all are in.
pub(crate) fn run_live(
    planned: &[Planned],
    constructs: &[Construct],
    limits: &Limits,
    env: Env<'_>,
    sink: &Sink<'_>,
    on_attempt: &(dyn Fn(&Planned, &http::Attempt) + Sync),
) -> Vec<ProbeResult> {
    let mut keys: Vec<String> = Vec::new();
    let mut requests = Vec::new();
    let mut sent_index = Vec::new();
    for (i, p) in planned.iter().enumerate() {
        let key = match p.key_env {
            Some(k) => match env(k).filter(|v| !v.is_empty()) {
                Some(v) => Some(v),
                None => continue,
            },
            None => None,
        };
        let mut req = http::Request::post_json(p.url.clone(), p.body.clone());
        req.headers.extend(providers::plain_headers(p.lane));
        if let Some(key) = key {
            req.secret_headers = providers::auth_headers(p.lane, &key);
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        requests.push(req);
        sent_index.push(i);
    }
    let policy = http::Policy {
        concurrency: limits.concurrency.max(1),
        timeout: limits.timeout,
        max_body: 4 * 1024 * 1024,
        max_attempts: limits.retries + 1,
        backoff: limits.backoff,
        max_wait: Duration::from_secs(60),
        budget: limits.max_requests,
    };
    let exchanges = http::send_all(requests, &policy, &|j, a| {
        on_attempt(&planned[sent_index[j]], a);
    });
    let secrets: Vec<&str> = keys.iter().map(String::as_str).collect();
    let mut by_plan: Vec<Option<http::Exchange>> = vec![None; planned.len()];
    for (j, ex) in exchanges.into_iter().enumerate() {
        by_plan[sent_index[j]] = Some(ex);
    }
    planned
        .iter()
        .zip(by_plan)
        .map(|(p, ex)| {
            let construct = constructs.iter().find(|c| c.id == p.construct);
            match (ex, construct) {
                (Some(ex), Some(c)) => record::judge(p, c, &ex, &secrets, sink),
                _ => ProbeResult {
                    lane: p.lane,
                    construct: p.construct.clone(),
                    model: p.model.clone(),
                    verdict: Verdict::NotSent,
                    status: None,
                    attempts: 0,
                    detail: format!(
                        "not sent: no {} in the environment",
                        p.key_env.unwrap_or("key")
                    ),
                    recording: None,
                    rule: None,
                    disagreement: None,
                },
            }
        })
        .collect()
}
