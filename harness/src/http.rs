//! The HTTP client: the one module wrapping reqwest and tokio on the client
//! side. `probe` and `corpus fetch` hand it a list of requests and get the
//! exchanges back in the same order; everything async stays in here.
//!
//! Bounded by construction: at most [`Policy::concurrency`] requests in
//! flight, a timeout per attempt (connect, head and body), a cap on each
//! response body, a hard budget of attempts shared by the whole batch
//! (retries included), and bounded retries with backoff on 429, 5xx and a
//! dropped connection (honouring `retry-after`). A timeout is never retried:
//! a hang costs one attempt. Redirects are not followed (a redirect would
//! carry the request's headers, keys included, to another host).
//!
//! Header values passed as [`Request::secret_headers`] are marked sensitive
//! and never appear in an error, a log line or a debug print from here.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The request method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Method {
    Get,
    Post,
}

/// One request to send.
#[derive(Clone, Default)]
pub(crate) struct Request {
    pub(crate) method: Option<Method>,
    pub(crate) url: String,
    /// Plain headers (content type, version headers, …).
    pub(crate) headers: Vec<(String, String)>,
    /// Headers that carry a credential: sent, never shown.
    pub(crate) secret_headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Request {
    /// A GET of `url`.
    pub(crate) fn get(url: impl Into<String>) -> Self {
        Self {
            method: Some(Method::Get),
            url: url.into(),
            ..Self::default()
        }
    }

    /// A POST of a JSON body to `url`.
    pub(crate) fn post_json(url: impl Into<String>, body: Vec<u8>) -> Self {
        Self {
            method: Some(Method::Post),
            url: url.into(),
            headers: vec![("content-type".to_owned(), "application/json".to_owned())],
            body,
            ..Self::default()
        }
    }
}

impl std::fmt::Debug for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Request")
            .field("method", &self.method)
            .field("url", &self.url)
            .field("headers", &self.headers)
            .field("secret_headers", &self.secret_headers.len())
            .field("body_bytes", &self.body.len())
            .finish()
    }
}

/// One answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Response {
    pub(crate) status: u16,
    /// Lowercase names, in the order received.
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Response {
    /// The first header named `name` (lowercase).
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// How a batch is sent.
#[derive(Debug, Clone)]
pub(crate) struct Policy {
    /// Requests in flight at once (at least 1).
    pub(crate) concurrency: usize,
    /// One attempt's limit: connect, head and whole body.
    pub(crate) timeout: Duration,
    /// Largest response body read; a longer one fails the attempt.
    pub(crate) max_body: usize,
    /// Attempts per request (1: no retry).
    pub(crate) max_attempts: u32,
    /// The first retry's wait; each further retry doubles it.
    pub(crate) backoff: Duration,
    /// The longest wait before a retry (a longer `retry-after` is cut to it).
    pub(crate) max_wait: Duration,
    /// Attempts the whole batch may make, retries included.
    pub(crate) budget: usize,
}

impl Default for Policy {
    fn default() -> Self {
        Self {
            concurrency: 4,
            timeout: Duration::from_secs(60),
            max_body: 16 * 1024 * 1024,
            max_attempts: 3,
            backoff: Duration::from_millis(500),
            max_wait: Duration::from_secs(30),
            budget: usize::MAX,
        }
    }
}

/// Why a request got no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Failure {
    /// No complete answer within the timeout.
    Timeout(Duration),
    /// The answer's body was longer than the cap.
    BodyTooLarge(usize),
    /// Connecting failed, or the connection dropped before a whole answer.
    Connection(String),
    /// The URL or a header could not be used.
    Invalid(String),
    /// The batch's budget was spent before this request was sent.
    Budget,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Timeout(d) => write!(f, "no answer within {} s", d.as_secs_f64()),
            Self::BodyTooLarge(cap) => write!(f, "the answer's body is over {cap} bytes"),
            Self::Connection(m) => write!(f, "connection failed: {m}"),
            Self::Invalid(m) => write!(f, "invalid request: {m}"),
            Self::Budget => f.write_str("request budget spent: not sent"),
        }
    }
}

/// One attempt at a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Attempt {
    /// How long the client waited before this attempt (0 for the first).
    pub(crate) waited: Duration,
    /// The answer's status, when one came.
    pub(crate) status: Option<u16>,
    /// What went wrong, when no answer came.
    pub(crate) failure: Option<Failure>,
}

/// A request's whole story: every attempt, and the last answer or failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Exchange {
    pub(crate) attempts: Vec<Attempt>,
    /// The last answer (whatever its status), or why none came.
    pub(crate) result: Result<Response, Failure>,
    /// A retry was due but the budget was spent.
    pub(crate) budget_stopped: bool,
}

/// Send every request under `policy`; the exchanges come back in the
/// requests' order. `on_attempt(i, attempt)` hears of each attempt of
/// request `i` as it ends (from several threads at once).
pub(crate) fn send_all(
    requests: Vec<Request>,
    policy: &Policy,
    on_attempt: &(dyn Fn(usize, &Attempt) + Sync),
) -> Vec<Exchange> {
    let n = requests.len();
    if n == 0 {
        return Vec::new();
    }
    let all_invalid = |message: String| -> Vec<Exchange> {
        (0..n)
            .map(|_| Exchange {
                attempts: Vec::new(),
                result: Err(Failure::Invalid(message.clone())),
                budget_stopped: false,
            })
            .collect()
    };
    let client = match client(policy) {
        Ok(c) => c,
        Err(message) => return all_invalid(message),
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => return all_invalid(format!("cannot start the HTTP runtime: {e}")),
    };
    let budget = Arc::new(AtomicUsize::new(policy.budget));
    let concurrency = policy.concurrency.max(1);
    runtime.block_on(async {
        let semaphore = Arc::new(tokio::sync::Semaphore::new(concurrency));
        let mut slots: Vec<Option<Exchange>> = vec![None; n];
        // Requests start in order: a request takes the budget only once it
        // holds a slot, so with a budget of k the first k are the ones sent.
        let mut pending = futures_in_order(requests, |i, req| {
            let client = client.clone();
            let policy = policy.clone();
            let budget = Arc::clone(&budget);
            let semaphore = Arc::clone(&semaphore);
            async move {
                let _permit = semaphore.acquire_owned().await.ok();
                let ex = exchange(&client, &policy, &budget, req, &|a| on_attempt(i, a)).await;
                (i, ex)
            }
        });
        while let Some((i, ex)) = pending.next().await {
            slots[i] = Some(ex);
        }
        slots
            .into_iter()
            .map(|s| s.expect("every request answered"))
            .collect()
    })
}

/// The futures of a batch, polled together; results as they finish.
struct InOrder<F> {
    futures: Vec<Option<std::pin::Pin<Box<F>>>>,
}

fn futures_in_order<F, Fut>(requests: Vec<Request>, make: F) -> InOrder<Fut>
where
    F: Fn(usize, Request) -> Fut,
    Fut: std::future::Future<Output = (usize, Exchange)>,
{
    InOrder {
        futures: requests
            .into_iter()
            .enumerate()
            .map(|(i, r)| Some(Box::pin(make(i, r))))
            .collect(),
    }
}

impl<Fut: std::future::Future<Output = (usize, Exchange)>> InOrder<Fut> {
    /// The next finished future's output (`None` when all are done).
    async fn next(&mut self) -> Option<(usize, Exchange)> {
        std::future::poll_fn(|cx| {
            let mut any = false;
            for slot in &mut self.futures {
                if let Some(f) = slot {
                    any = true;
                    if let std::task::Poll::Ready(out) = f.as_mut().poll(cx) {
                        *slot = None;
                        return std::task::Poll::Ready(Some(out));
                    }
                }
            }
            if any {
                std::task::Poll::Pending
            } else {
                std::task::Poll::Ready(None)
            }
        })
        .await
    }
}

fn client(policy: &Policy) -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .timeout(policy.timeout)
        .connect_timeout(policy.timeout)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("wireshape/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {e}"))
}

/// Take one attempt from the budget (false when it is spent).
fn take(budget: &AtomicUsize) -> bool {
    budget
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |b| b.checked_sub(1))
        .is_ok()
}

/// One request with its retries.
async fn exchange(
    client: &reqwest::Client,
    policy: &Policy,
    budget: &AtomicUsize,
    req: Request,
    on_attempt: &(dyn Fn(&Attempt) + Sync),
) -> Exchange {
    let mut attempts = Vec::new();
    let mut waited = Duration::ZERO;
    let mut last: Option<Result<Response, Failure>> = None;
    let max = policy.max_attempts.max(1);
    for n in 1..=max {
        if !take(budget) {
            return Exchange {
                attempts,
                budget_stopped: last.is_some(),
                result: last.unwrap_or(Err(Failure::Budget)),
            };
        }
        let result = attempt(client, policy, &req).await;
        let a = Attempt {
            waited,
            status: result.as_ref().ok().map(|r| r.status),
            failure: result.as_ref().err().cloned(),
        };
        on_attempt(&a);
        attempts.push(a);
        let wait = match &result {
            Ok(r) if r.status == 429 || r.status >= 500 => Some(retry_wait(policy, n, Some(r))),
            Err(Failure::Connection(_)) => Some(retry_wait(policy, n, None)),
            _ => None,
        };
        last = Some(result);
        match wait {
            Some(w) if n < max => {
                tokio::time::sleep(w).await;
                waited = w;
            }
            _ => break,
        }
    }
    Exchange {
        attempts,
        result: last.expect("at least one attempt"),
        budget_stopped: false,
    }
}

/// The wait before retry `n + 1`: the answer's `retry-after` (seconds, or
/// an HTTP date is treated as absent), else the backoff doubled per retry,
/// both capped at `max_wait`.
pub(crate) fn retry_wait(policy: &Policy, n: u32, answer: Option<&Response>) -> Duration {
    let asked = answer
        .and_then(|r| r.header("retry-after"))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64);
    let backoff = policy
        .backoff
        .saturating_mul(1u32 << (n.saturating_sub(1)).min(16));
    asked.unwrap_or(backoff).min(policy.max_wait)
}

async fn attempt(
    client: &reqwest::Client,
    policy: &Policy,
    req: &Request,
) -> Result<Response, Failure> {
    let method = match req.method.unwrap_or(Method::Get) {
        Method::Get => reqwest::Method::GET,
        Method::Post => reqwest::Method::POST,
    };
    let url = reqwest::Url::parse(&req.url).map_err(|e| Failure::Invalid(format!("{e}")))?;
    let mut headers = reqwest::header::HeaderMap::new();
    for (name, value, secret) in req
        .headers
        .iter()
        .map(|(n, v)| (n, v, false))
        .chain(req.secret_headers.iter().map(|(n, v)| (n, v, true)))
    {
        let name = reqwest::header::HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| Failure::Invalid(format!("header name {name:?}")))?;
        let mut value = reqwest::header::HeaderValue::from_str(value).map_err(|_| {
            Failure::Invalid(if secret {
                format!("the value of header {name} is not a valid header value")
            } else {
                format!("header {name}: {value:?} is not a valid header value")
            })
        })?;
        value.set_sensitive(secret);
        headers.append(name, value);
    }
    let fut = async {
        let mut resp = client
            .request(method, url)
            .headers(headers)
            .body(req.body.clone())
            .send()
            .await
            .map_err(|e| failure(&e, policy))?;
        let status = resp.status().as_u16();
        let headers = resp
            .headers()
            .iter()
            .map(|(n, v)| {
                (
                    n.as_str().to_owned(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        let mut body = Vec::new();
        while let Some(chunk) = resp.chunk().await.map_err(|e| failure(&e, policy))? {
            if body.len() + chunk.len() > policy.max_body {
                return Err(Failure::BodyTooLarge(policy.max_body));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(Response {
            status,
            headers,
            body,
        })
    };
    // reqwest's own timeout covers the whole exchange; this one is the
    // backstop should a body stall between chunks past it.
    match tokio::time::timeout(policy.timeout + Duration::from_secs(1), fut).await {
        Ok(r) => r,
        Err(_) => Err(Failure::Timeout(policy.timeout)),
    }
}

/// A reqwest error as a failure: its kind and its message without the URL
/// (the URL carries no key, but the message is written to reports).
fn failure(e: &reqwest::Error, policy: &Policy) -> Failure {
    if e.is_timeout() {
        return Failure::Timeout(policy.timeout);
    }
    let mut message = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        message = format!("{message}: {s}");
        source = s.source();
    }
    Failure::Connection(message)
}

#[cfg(test)]
mod tests;
