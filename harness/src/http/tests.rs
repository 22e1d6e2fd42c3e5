//! The client against a scripted local server (std only, 127.0.0.1:0): each
//! connection gets the next scripted answer.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::*;

/// What the server does with one connection.
#[derive(Clone)]
enum Script {
    /// Answer with this status, extra headers and body.
    Answer(u16, Vec<(&'static str, &'static str)>, &'static str),
    /// Read the request, then close without a byte.
    Drop,
    /// Read the request, then say nothing until the client gives up.
    Hang,
}

struct Server {
    url: String,
    /// Every request's head, in arrival order.
    seen: Arc<Mutex<Vec<String>>>,
}

fn serve(script: Vec<Script>) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    std::thread::spawn(move || {
        let mut script = script.into_iter();
        for stream in listener.incoming() {
            let Ok(stream) = stream else { return };
            let Some(step) = script.next() else { return };
            let log = Arc::clone(&log);
            std::thread::spawn(move || answer(stream, &step, &log));
        }
    });
    Server { url, seen }
}

fn answer(mut stream: TcpStream, step: &Script, log: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut head = String::new();
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap();
        }
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    log.lock().unwrap().push(head);
    match step {
        Script::Answer(status, headers, body) => {
            let mut out = format!(
                "HTTP/1.1 {status} X\r\ncontent-length: {}\r\nconnection: close\r\n",
                body.len()
            );
            for (n, v) in headers {
                out.push_str(n);
                out.push_str(": ");
                out.push_str(v);
                out.push_str("\r\n");
            }
            out.push_str("\r\n");
            out.push_str(body);
            let _ = stream.write_all(out.as_bytes());
        }
        Script::Drop => {}
        Script::Hang => std::thread::sleep(Duration::from_secs(5)),
    }
}

fn policy() -> Policy {
    Policy {
        concurrency: 1,
        timeout: Duration::from_millis(800),
        max_body: 1024,
        max_attempts: 3,
        backoff: Duration::from_millis(10),
        max_wait: Duration::from_millis(50),
        budget: 100,
    }
}

fn statuses(ex: &Exchange) -> Vec<Option<u16>> {
    ex.attempts.iter().map(|a| a.status).collect()
}

fn one(server: &Server, policy: &Policy) -> Exchange {
    let mut out = send_all(
        vec![Request::post_json(
            format!("{}/v1/x", server.url),
            b"{}".to_vec(),
        )],
        policy,
        &|_, _| {},
    );
    out.remove(0)
}

#[test]
fn a_429_is_retried_after_the_wait_it_asks_for() {
    let s = serve(vec![
        Script::Answer(429, vec![("retry-after", "0.02")], "{}"),
        Script::Answer(200, vec![], "{\"ok\":true}"),
    ]);
    let ex = one(&s, &policy());
    assert_eq!(statuses(&ex), [Some(429), Some(200)]);
    assert_eq!(ex.attempts[1].waited, Duration::from_millis(20));
    assert_eq!(ex.result.unwrap().body, b"{\"ok\":true}");
}

#[test]
fn a_5xx_is_retried_until_the_attempts_run_out_and_the_last_answer_stands() {
    let s = serve(vec![Script::Answer(500, vec![], "a"); 4]);
    let ex = one(&s, &policy());
    assert_eq!(statuses(&ex), [Some(500); 3]);
    let waits: Vec<_> = ex.attempts.iter().map(|a| a.waited).collect();
    assert_eq!(
        waits,
        [
            Duration::ZERO,
            Duration::from_millis(10),
            Duration::from_millis(20)
        ]
    );
    assert_eq!(ex.result.unwrap().status, 500);
    assert!(!ex.budget_stopped);
}

#[test]
fn a_400_is_an_answer_not_retried() {
    let s = serve(vec![Script::Answer(400, vec![], "{\"error\":1}")]);
    let ex = one(&s, &policy());
    assert_eq!(statuses(&ex), [Some(400)]);
}

#[test]
fn a_hang_times_out_once_and_is_not_retried() {
    let s = serve(vec![Script::Hang, Script::Hang]);
    let ex = one(&s, &policy());
    assert_eq!(ex.attempts.len(), 1);
    assert_eq!(ex.result, Err(Failure::Timeout(Duration::from_millis(800))));
}

#[test]
fn a_dropped_connection_is_retried() {
    let s = serve(vec![Script::Drop, Script::Answer(200, vec![], "ok")]);
    let ex = one(&s, &policy());
    assert_eq!(ex.attempts.len(), 2);
    assert!(matches!(
        ex.attempts[0].failure,
        Some(Failure::Connection(_))
    ));
    assert_eq!(ex.result.unwrap().status, 200);
}

#[test]
fn a_body_over_the_cap_fails_the_attempt() {
    let big: &'static str = Box::leak("x".repeat(2000).into_boxed_str());
    let s = serve(vec![Script::Answer(200, vec![], big)]);
    let ex = one(&s, &policy());
    assert_eq!(ex.result, Err(Failure::BodyTooLarge(1024)));
}

#[test]
fn the_budget_bounds_every_attempt_of_the_batch_retries_included() {
    let s = serve(vec![
        Script::Answer(500, vec![], "a"),
        Script::Answer(200, vec![], "b"),
        Script::Answer(200, vec![], "c"),
        Script::Answer(200, vec![], "d"),
    ]);
    let p = Policy {
        budget: 3,
        ..policy()
    };
    let reqs = (0..4)
        .map(|i| Request::get(format!("{}/r{i}", s.url)))
        .collect();
    let out = send_all(reqs, &p, &|_, _| {});
    assert_eq!(statuses(&out[0]), [Some(500), Some(200)]);
    assert_eq!(statuses(&out[1]), [Some(200)]);
    assert_eq!(out[2].result, Err(Failure::Budget));
    assert_eq!(out[3].result, Err(Failure::Budget));
    assert_eq!(s.seen.lock().unwrap().len(), 3);
}

#[test]
fn a_retry_the_budget_cannot_pay_keeps_the_last_answer() {
    let s = serve(vec![Script::Answer(429, vec![("retry-after", "0")], "{}")]);
    let p = Policy {
        budget: 1,
        ..policy()
    };
    let ex = one(&s, &p);
    assert!(ex.budget_stopped);
    assert_eq!(ex.result.unwrap().status, 429);
}

#[test]
fn secret_headers_are_sent_and_never_printed() {
    let s = serve(vec![Script::Answer(200, vec![], "ok")]);
    let mut req = Request::post_json(format!("{}/v1/x", s.url), b"{}".to_vec());
    req.secret_headers
        .push(("x-api-key".to_owned(), "sk-canary-123".to_owned()));
    assert!(!format!("{req:?}").contains("sk-canary"));
    let out = send_all(vec![req], &policy(), &|_, _| {});
    assert_eq!(out[0].result.as_ref().unwrap().status, 200);
    assert!(s.seen.lock().unwrap()[0].contains("x-api-key: sk-canary-123"));
}

#[test]
fn retry_waits_follow_retry_after_then_backoff_both_capped() {
    let p = policy();
    let answer = |v: &'static str| Response {
        status: 429,
        headers: vec![("retry-after".to_owned(), v.to_owned())],
        body: Vec::new(),
    };
    assert_eq!(
        retry_wait(&p, 1, Some(&answer("0.03"))),
        Duration::from_millis(30)
    );
    assert_eq!(
        retry_wait(&p, 1, Some(&answer("120"))),
        Duration::from_millis(50)
    );
    let date = answer("Wed, 21 Oct 2015 07:28:00 GMT");
    assert_eq!(retry_wait(&p, 2, Some(&date)), Duration::from_millis(20));
    assert_eq!(retry_wait(&p, 9, None), Duration::from_millis(50));
}

#[test]
fn exchanges_come_back_in_request_order_at_any_concurrency() {
    let s = serve(vec![
        Script::Answer(200, vec![], "0"),
        Script::Answer(200, vec![], "1"),
        Script::Answer(200, vec![], "2"),
    ]);
    let p = Policy {
        concurrency: 3,
        ..policy()
    };
    let reqs = (0..3)
        .map(|i| Request::get(format!("{}/{i}", s.url)))
        .collect();
    let out = send_all(reqs, &p, &|_, _| {});
    assert_eq!(out.len(), 3);
    assert!(out.iter().all(|e| e.result.as_ref().unwrap().status == 200));
}

#[test]
fn an_unusable_url_is_an_invalid_request_without_an_attempt_on_the_wire() {
    let out = send_all(vec![Request::get("not a url")], &policy(), &|_, _| {});
    assert!(matches!(out[0].result, Err(Failure::Invalid(_))));
}
