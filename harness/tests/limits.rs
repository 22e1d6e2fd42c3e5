//! Deep and huge input: a schema nested 100,000 levels deep and a 50 MB
//! catalog each give a clear error or a result, never a stack overflow or an
//! out-of-memory. The inputs are generated here, not committed.

use std::fmt::Write as _;
use std::path::Path;

use assert_cmd::Command;
use wireshape::testing::properties;
use wireshape::{Format, Lane, Outcome, Pipeline, PipelineConfig, Profile, load_catalog_bytes};

const DEEP: usize = 100_000;

/// `{"tools":[{"name":"deep","inputSchema": {"not": … {"type":"string"} …}}]}`.
fn deep_catalog() -> Vec<u8> {
    let mut s = String::with_capacity(DEEP * 9 + 100);
    s.push_str(r#"{"tools":[{"name":"deep","inputSchema":"#);
    for _ in 0..DEEP {
        s.push_str(r#"{"not":"#);
    }
    s.push_str(r#"{"type":"string"}"#);
    for _ in 0..DEEP {
        s.push('}');
    }
    s.push_str("}]}");
    s.into_bytes()
}

#[test]
fn a_schema_nested_100000_deep_is_a_clear_error_in_every_format() {
    let bytes = deep_catalog();
    let formats = std::iter::once(None).chain(Format::ALL.iter().copied().map(Some));
    for format in formats {
        let err = load_catalog_bytes("deep", Path::new("deep.json"), &bytes, format)
            .expect_err("a 100,000-deep schema is refused");
        let msg = err.to_string();
        assert!(
            msg.starts_with("deep.json:1:") && msg.contains("recursion limit exceeded"),
            "{format:?}: {msg}"
        );
    }
    assert_eq!(properties::catalog_load_no_panic(&bytes), Ok(()));
}

#[test]
fn the_cli_refuses_a_100000_deep_schema_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("deep.json");
    std::fs::write(&file, deep_catalog()).unwrap();
    let out = Command::cargo_bin("wireshape")
        .unwrap()
        .args(["check", "--lane", "openai-chat"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert_eq!(
        out.status.code(),
        Some(2),
        "a usage/input error, not a crash"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("recursion limit exceeded"), "{stderr}");
}

/// Schemas as deep as the parser lets through (just under serde_json's
/// 128-level limit) shape on every lane without a panic: each either
/// shapes or errors with the walks' depth message.
#[test]
fn the_deepest_parseable_schema_shapes_or_errors_on_every_lane() {
    for wrap in [r#"{"not":"#, r#"{"type":"array","items":"#, r#"{"anyOf":["#] {
        let close = if wrap.ends_with('[') { "]}" } else { "}" };
        let levels = if wrap.ends_with('[') { 60 } else { 120 };
        let text = format!(
            r#"{{"tools":[{{"name":"t","inputSchema":{}{{}}{}}}]}}"#,
            wrap.repeat(levels),
            close.repeat(levels)
        );
        let catalog = load_catalog_bytes("d", Path::new("d.json"), text.as_bytes(), None)
            .expect("within the parse limit");
        let tool = &catalog.tools[0];
        assert_eq!(properties::shape_no_panic(tool), Ok(()));
        assert_eq!(properties::shape_never_silent(tool), Ok(()));
        for profile in [Profile::V0, Profile::V1] {
            let p = profile.with_config(PipelineConfig::default());
            for &lane in Lane::ALL {
                if let Outcome::Errored { message } = p.shape(lane, tool).outcome {
                    assert!(message.contains("nests deeper than"), "{lane}: {message}");
                }
            }
        }
    }
}

const HUGE: usize = 50 * 1024 * 1024;

/// A catalog of at least 50 MB made of `count` copies of one tool.
fn huge_catalog(tool: &str) -> (Vec<u8>, usize) {
    let mut s = String::with_capacity(HUGE + tool.len() + 64);
    s.push_str(r#"{"tools":["#);
    let mut count = 0;
    while s.len() < HUGE {
        if count > 0 {
            s.push(',');
        }
        s.push_str(tool);
        count += 1;
    }
    s.push_str("]}");
    (s.into_bytes(), count)
}

/// Tens of thousands of tools, all with the same name: the loader renames
/// them (`same~2`, …) without quadratic work, and a sample shapes.
#[test]
fn a_50_mb_catalog_of_many_tools_loads_with_unique_names_and_shapes() {
    let tool = r#"{"name":"same","description":"Looks things up.","inputSchema":{"type":"object","properties":{"q":{"type":"string","pattern":"(?=a)"},"n":{"anyOf":[{"type":"integer"},{"type":"null"}]}},"required":["q"]}}"#;
    let (bytes, count) = huge_catalog(tool);
    assert!(bytes.len() >= HUGE);
    let catalog = load_catalog_bytes("huge", Path::new("huge.json"), &bytes, None).unwrap();
    assert_eq!(catalog.tools.len(), count);
    assert_eq!(catalog.tools[count - 1].name, format!("same~{count}"));
    // Shaping is per tool: a sample of the catalog on every lane is enough.
    let v1 = Profile::V1.with_config(PipelineConfig::default());
    for t in catalog.tools.iter().step_by(count / 4) {
        for &lane in Lane::ALL {
            assert!(!matches!(
                v1.shape(lane, t).outcome,
                Outcome::Errored { .. }
            ));
        }
    }
}

#[test]
fn one_50_mb_schema_loads_and_shapes() {
    // One tool whose enum alone is 50 MB.
    let mut s = String::with_capacity(HUGE + 200);
    s.push_str(r#"{"tools":[{"name":"big","inputSchema":{"type":"object","properties":{"e":{"type":"string","enum":["#);
    let mut n = 0usize;
    while s.len() < HUGE {
        if n > 0 {
            s.push(',');
        }
        write!(s, "\"v{n}\"").unwrap();
        n += 1;
    }
    s.push_str("]}}}}]}");
    let catalog = load_catalog_bytes("big", Path::new("big.json"), s.as_bytes(), None).unwrap();
    let tool = &catalog.tools[0];
    assert_eq!(
        tool.input_schema["properties"]["e"]["enum"]
            .as_array()
            .unwrap()
            .len(),
        n
    );
    let v1 = Profile::V1.with_config(PipelineConfig::default());
    for lane in [
        Lane::OpenaiStrict,
        Lane::AnthropicMessages,
        Lane::GeminiOpenapi,
    ] {
        let out = v1.shape(lane, tool);
        assert!(!matches!(out.outcome, Outcome::Errored { .. }), "{lane}");
    }
}

#[test]
fn a_50_mb_file_that_is_not_json_is_a_syntax_error() {
    let mut bytes = vec![b'['; 16];
    bytes.resize(HUGE, b'x');
    let err = load_catalog_bytes("junk", Path::new("junk.json"), &bytes, None).unwrap_err();
    assert!(err.to_string().starts_with("junk.json:1:17: "), "{err}");
    let format = Some(Format::Jsonl);
    let err = load_catalog_bytes("junk", Path::new("junk.jsonl"), &bytes, format).unwrap_err();
    assert!(err.to_string().starts_with("junk.jsonl:1:"), "{err}");
}
