use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::json;

use super::protocol::{Reply, parse_reply, parse_start, shape_request};
use super::spec::Fault;
use super::{Limits, Spec, backoff, lane_map};
use crate::config::ExternalDefs;
use crate::lane::Lane;
use crate::pipeline::Outcome;
use crate::tool::Tool;

fn tool() -> Tool {
    Tool::new("get_weather", json!({"type": "object"})).with_description("Weather")
}

#[test]
fn a_request_is_one_line_with_cmd_seq_lane_tool_and_schema_in_that_order() {
    let line = shape_request(7, "py:openai-strict", &tool());
    assert_eq!(
        String::from_utf8(line).unwrap(),
        r#"{"cmd":"shape","seq":7,"lane":"py:openai-strict","tool":{"name":"get_weather","description":"Weather"},"schema":{"type":"object"}}"#
    );
}

#[test]
fn the_start_answer_must_speak_version_1() {
    let i = parse_start(
        r#"{"version":1,"implementation":{"name":"py-peers","lanes":{"a:strict":{"wire":"openai-strict","dist":"x"}}}}"#,
    )
    .unwrap();
    assert_eq!(i.name, "py-peers");
    assert_eq!(i.lanes["a:strict"].wire.as_deref(), Some("openai-strict"));
    assert!(!i.reports_degradations);
    assert_eq!(
        parse_start(r#"{"version":2}"#).unwrap_err(),
        "the driver speaks protocol version 2, wireshape speaks 1"
    );
    assert!(
        parse_start("hello")
            .unwrap_err()
            .starts_with("a malformed start answer (expected value at line 1 column 1): hello")
    );
}

#[test]
fn lanes_may_be_announced_as_a_list() {
    let i = parse_start(r#"{"version":1,"implementation":{"lanes":["openai-chat"]}}"#).unwrap();
    let (served, _) = lane_map(&BTreeMap::new(), Some(&i));
    assert_eq!(
        served.into_iter().collect::<Vec<_>>(),
        [(Lane::OpenaiChat, "openai-chat".to_owned())]
    );
}

#[test]
fn a_wrong_seq_garbage_or_an_empty_answer_is_a_fault() {
    assert_eq!(
        parse_reply(3, r#"{"seq":4,"schema":{}}"#).unwrap_err(),
        Fault::WrongSeq {
            sent: 3,
            got: "4".into()
        }
    );
    assert_eq!(
        parse_reply(3, r#"{"schema":{}}"#).unwrap_err(),
        Fault::WrongSeq {
            sent: 3,
            got: "(none)".into()
        }
    );
    assert!(
        matches!(parse_reply(3, "garbage"), Err(Fault::Malformed(m)) if m.starts_with("not JSON"))
    );
    assert!(matches!(parse_reply(3, "[1]"), Err(Fault::Malformed(m)) if m == "not an object: [1]"));
    assert!(
        matches!(parse_reply(3, r#"{"seq":3}"#), Err(Fault::Malformed(m)) if m.starts_with("no `schema`"))
    );
}

#[test]
fn an_answer_becomes_shaped_errored_or_failed_closed() {
    let t = tool();
    let shaped = parse_reply(
        1,
        r#"{"seq":1,"schema":{"type":"object","additionalProperties":false}}"#,
    )
    .unwrap()
    .into_shaped(Lane::OpenaiStrict, &t, "cmd:x");
    assert_eq!(shaped.outcome, Outcome::Shaped);
    assert_eq!(shaped.tool.name, "get_weather");
    assert_eq!(shaped.tool.description.as_deref(), Some("Weather"));
    assert_eq!(
        shaped.tool.input_schema,
        json!({"type":"object","additionalProperties":false})
    );

    let raised = parse_reply(
        1,
        r#"{"seq":1,"errored":true,"context":{"message":"ValueError: x","traceback":"…"}}"#,
    )
    .unwrap()
    .into_shaped(Lane::OpenaiStrict, &t, "cmd:x");
    assert_eq!(
        raised.outcome,
        Outcome::Errored {
            message: "cmd:x: the implementation raised: ValueError: x".into()
        }
    );
    assert_eq!(raised.tool, t);

    let skipped = parse_reply(
        1,
        r#"{"seq":1,"skipped":true,"message":"lane unavailable"}"#,
    )
    .unwrap();
    assert!(
        matches!(&skipped, Reply::Refused(m) if m == "the implementation skipped it: lane unavailable")
    );

    let closed = parse_reply(
        1,
        r#"{"seq":1,"schema":{},"meta":{"failed_closed":"recursive"},"tool":{"name":"w"}}"#,
    )
    .unwrap()
    .into_shaped(Lane::OpenaiStrict, &t, "cmd:x");
    assert_eq!(
        closed.outcome,
        Outcome::FailedClosed {
            reason: "recursive".into()
        }
    );
    assert_eq!(closed.tool.name, "w");
}

#[test]
fn degradation_records_in_meta_are_kept_with_the_lane_set() {
    let line = r#"{"seq":1,"schema":{},"meta":{"degradations":[{"tool":"get_weather","lane":"openai-chat","path":"/properties/a","keyword":"format","action":"removed","reason":"r","pass":"p"}]}}"#;
    let shaped = parse_reply(1, line)
        .unwrap()
        .into_shaped(Lane::OpenaiStrict, &tool(), "cmd:x");
    assert_eq!(shaped.outcome, Outcome::Shaped);
    assert_eq!(shaped.degradations.len(), 1);
    assert_eq!(shaped.degradations[0].lane, Lane::OpenaiStrict);
    assert_eq!(shaped.degradations[0].keyword, "format");

    let bad = parse_reply(1, r#"{"seq":1,"schema":{},"meta":{"degradations":[1]}}"#)
        .unwrap()
        .into_shaped(Lane::OpenaiStrict, &tool(), "cmd:x");
    assert!(
        matches!(&bad.outcome, Outcome::Errored { message } if message.starts_with("cmd:x: `meta.degradations` is not a list of degradation records")),
        "{bad:?}"
    );
}

#[test]
fn lanes_come_from_the_config_then_the_announced_ids_then_unambiguous_wires() {
    let i = parse_start(
        r#"{"version":1,"implementation":{"lanes":{
            "a:strict":{"wire":"openai-strict"},"b:strict":{"wire":"openai-strict"},
            "a:google":{"wire":"gemini-openapi"},"anthropic-messages":{"wire":"anthropic-strict"},
            "a:other":{"wire":"no-such-wire"}}}}"#,
    )
    .unwrap();
    let (served, ambiguous) = lane_map(&BTreeMap::new(), Some(&i));
    assert_eq!(
        served.into_iter().collect::<Vec<_>>(),
        [
            (Lane::AnthropicMessages, "anthropic-messages".to_owned()),
            (Lane::GeminiOpenapi, "a:google".to_owned()),
        ]
    );
    assert_eq!(
        ambiguous.into_iter().collect::<Vec<_>>(),
        [(
            Lane::OpenaiStrict,
            vec!["a:strict".to_owned(), "b:strict".to_owned()]
        )]
    );

    let configured = BTreeMap::from([("b:strict".to_owned(), Lane::OpenaiStrict)]);
    let (served, ambiguous) = lane_map(&configured, Some(&i));
    assert_eq!(
        served.into_iter().collect::<Vec<_>>(),
        [(Lane::OpenaiStrict, "b:strict".to_owned())]
    );
    assert!(ambiguous.is_empty());

    // A driver that never started: every lane, under its own id.
    let (served, _) = lane_map(&BTreeMap::new(), None);
    assert_eq!(served.len(), Lane::ALL.len());
    assert_eq!(served[&Lane::Mistral], "mistral");
}

#[test]
fn backoff_is_none_after_one_fault_then_doubles_from_50_ms_to_2_s() {
    let ms: Vec<u128> = (0..10).map(|n| backoff(n).as_millis()).collect();
    assert_eq!(ms, [0, 0, 50, 100, 200, 400, 800, 1600, 2000, 2000]);
}

#[test]
fn command_lines_split_like_a_shell_and_config_entries_resolve_cwd_and_timeout() {
    let spec =
        Spec::from_command_line("python3 'my driver.py' --serve", Limits::default()).unwrap();
    assert_eq!(spec.id, "cmd:python3 'my driver.py' --serve");
    assert_eq!(spec.argv, ["python3", "my driver.py", "--serve"]);
    assert_eq!(
        Spec::from_command_line("python3 'open", Limits::default()).unwrap_err(),
        "cannot split `python3 'open` into arguments (unbalanced quotes?)"
    );
    assert_eq!(
        Spec::from_command_line("  ", Limits::default()).unwrap_err(),
        "the command is empty"
    );

    let defs = ExternalDefs::parse(
        std::path::Path::new("conf/wireshape.toml"),
        r#"
[pipelines.peer]
command = "python3 driver.py --serve"
cwd = "peers"
env = { A = "1" }
lanes = { "p:strict" = "openai-strict" }
timeout = 2.5
"#,
    )
    .unwrap();
    let spec = Spec::from_def(
        "peer",
        &defs.pipelines["peer"],
        &defs.base,
        Limits::default(),
    )
    .unwrap();
    assert_eq!(spec.id, "peer");
    assert_eq!(spec.argv, ["python3", "driver.py", "--serve"]);
    assert_eq!(
        spec.cwd.as_deref(),
        Some(std::path::Path::new("conf/peers"))
    );
    assert_eq!(spec.env["A"], "1");
    assert_eq!(spec.lanes["p:strict"], Lane::OpenaiStrict);
    assert_eq!(spec.limits.request, Duration::from_millis(2500));
}

#[test]
fn a_config_with_an_unknown_lane_or_key_names_the_line() {
    let err = ExternalDefs::parse(
        std::path::Path::new("w.toml"),
        "[pipelines.p]\ncommand = \"x\"\nlanes = { a = \"gemini-pro\" }\n",
    )
    .unwrap_err()
    .to_string();
    assert!(err.starts_with("w.toml:3:"), "{err}");
    assert!(err.contains("gemini-pro"), "{err}");
    let err = ExternalDefs::parse(
        std::path::Path::new("w.toml"),
        "[pipelines.p]\ncmd = \"x\"\n",
    )
    .unwrap_err()
    .to_string();
    assert!(err.starts_with("w.toml:"), "{err}");
}

#[test]
fn an_answer_nested_past_the_reader_limit_errors_the_case_and_keeps_the_driver() {
    let deep = format!(
        r#"{{"seq":1,"schema":{}{}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let reply = parse_reply(1, &deep).unwrap();
    assert!(
        matches!(&reply, Reply::Refused(m) if m == "the answer nests deeper than wireshape's JSON reader allows (128 levels)"),
        "{reply:?}"
    );
}
