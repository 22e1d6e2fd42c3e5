//! Unit tests of catalog loading: every format, detection, errors and their
//! positions, the BFCL translation.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::finish::finish;
use super::locate::{Src, label, locate};
use super::raw::Raw;
use super::suite::slug;
use super::*;
use crate::schema;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/testdata/catalogs")
        .join(name)
}

fn load(name: &str) -> Catalog {
    load_catalog(&fixture(name), None).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn load_err(name: &str, format: Option<Format>) -> String {
    match load_catalog(&fixture(name), format) {
        Ok(c) => panic!("{name} loaded as {}", c.format),
        Err(e) => e.to_string(),
    }
}

fn names(c: &Catalog) -> Vec<&str> {
    c.tools.iter().map(|t| t.name.as_str()).collect()
}

fn bytes_of(v: &Value) -> String {
    serde_json::to_string(v).unwrap()
}

fn note(tool: &str, path: &str, message: &str) -> LoadNote {
    LoadNote {
        tool: tool.to_owned(),
        path: path.to_owned(),
        message: message.to_owned(),
    }
}

fn from_bytes(text: &[u8], format: Option<Format>) -> Result<Catalog, LoadError> {
    load_catalog_bytes("x", Path::new("x.json"), text, format)
}

#[test]
fn format_ids_round_trip_and_unknown_ids_are_usage_errors() {
    for f in Format::ALL {
        assert_eq!(Format::parse(f.id()).unwrap(), *f);
        assert_eq!(f.to_string(), f.id());
    }
    let ids: Vec<&str> = Format::ALL.iter().map(|f| f.id()).collect();
    assert_eq!(
        ids,
        [
            "mcp",
            "anthropic",
            "openai-chat",
            "openai-responses",
            "gemini",
            "bedrock",
            "shared-corpus",
            "bfcl",
            "jsonl",
            "test-suite",
            "schema"
        ]
    );
    assert_eq!(
        Format::parse("yaml").unwrap_err().to_string(),
        "unknown catalog format `yaml`"
    );
}

#[test]
fn mcp_tools_list_loads_input_schema_verbatim() {
    let c = load("mcp.json");
    assert_eq!(c.id, "mcp");
    assert_eq!(c.format, Format::McpToolsList);
    assert_eq!(names(&c), ["search", "noop"]);
    assert_eq!(c.tools[0].description.as_deref(), Some("Search the index."));
    assert_eq!(
        bytes_of(&c.tools[0].input_schema),
        r#"{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"integer","minimum":1}},"required":["zeta"]}"#
    );
    assert_eq!(c.tools[1].description, None);
    assert_eq!(c.tools[1].input_schema, json!({"type": "object"}));
    assert_eq!(c.tools[0].strict, None);
    assert!(c.notes.is_empty(), "{:?}", c.notes);
}

#[test]
fn mcp_json_rpc_envelope_is_unwrapped() {
    let c = load("mcp-jsonrpc.json");
    assert_eq!(c.format, Format::McpToolsList);
    assert_eq!(names(&c), ["get_time"]);
    assert_eq!(
        bytes_of(&c.tools[0].input_schema),
        r#"{"type":"object","properties":{}}"#
    );
}

#[test]
fn json_rpc_error_response_is_refused_with_its_position() {
    let err = from_bytes(
        br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}"#,
        None,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "x.json:1:33: error: json-rpc error response, not a tools/list result"
    );
}

#[test]
fn anthropic_tools_read_a_camel_case_input_schema_with_a_note() {
    let c = from_bytes(
        br#"[{"name":"search_docs","inputSchema":{"type":"object","properties":{}}}]"#,
        Some(Format::AnthropicTools),
    )
    .unwrap();
    assert_eq!(
        bytes_of(&c.tools[0].input_schema),
        r#"{"type":"object","properties":{}}"#
    );
    assert_eq!(
        c.notes,
        [note(
            "search_docs",
            "",
            "schema read from \"inputSchema\": it is sent as \"input_schema\""
        )]
    );
}

#[test]
fn anthropic_tools_without_input_schema_get_the_typeless_schema_with_a_note() {
    let c = from_bytes(
        br#"[{"name":"get_weather","description":"d"},{"name":"c","type":"custom"}]"#,
        Some(Format::AnthropicTools),
    )
    .unwrap();
    assert_eq!(c.tools[0].input_schema, json!({}));
    assert_eq!(c.tools[1].input_schema, json!({}));
    assert_eq!(
        c.notes[0],
        note(
            "get_weather",
            "",
            "no \"input_schema\" declared: the typeless schema {} assumed"
        )
    );
}

#[test]
fn anthropic_server_tools_and_malformed_tools_are_still_refused() {
    let server = from_bytes(
        br#"[{"type":"web_search_20250305","name":"web_search"}]"#,
        Some(Format::AnthropicTools),
    )
    .unwrap_err()
    .to_string();
    assert!(server.contains("missing \"input_schema\""), "{server}");
    let nameless = from_bytes(br#"[{"input_schema":{}}]"#, Some(Format::AnthropicTools))
        .unwrap_err()
        .to_string();
    assert!(nameless.contains("missing \"name\""), "{nameless}");
}

#[test]
fn anthropic_bare_array_keeps_strict_and_description() {
    let c = load("anthropic.json");
    assert_eq!(c.format, Format::AnthropicTools);
    assert_eq!(names(&c), ["get_weather", "ping"]);
    assert_eq!(c.tools[0].strict, Some(true));
    assert_eq!(
        c.tools[0].description.as_deref(),
        Some("Weather for a city.")
    );
    assert_eq!(
        bytes_of(&c.tools[0].input_schema),
        r#"{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}"#
    );
    assert_eq!(c.tools[1].strict, None);
    assert_eq!(c.tools[1].description, None);
}

#[test]
fn openai_chat_tools_read_the_function_object_and_note_missing_parameters() {
    let c = load("openai-chat.json");
    assert_eq!(c.format, Format::OpenaiChatTools);
    assert_eq!(names(&c), ["lookup", "now"]);
    assert_eq!(c.tools[0].strict, Some(true));
    assert_eq!(
        bytes_of(&c.tools[0].input_schema),
        r#"{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}"#
    );
    assert_eq!(
        c.tools[1].input_schema,
        json!({"type": "object", "properties": {}})
    );
    assert_eq!(
        c.notes,
        [note(
            "now",
            "",
            "no parameters declared: {\"type\":\"object\",\"properties\":{}} assumed"
        )]
    );
}

#[test]
fn openai_responses_tools_read_flat_function_objects() {
    let c = load("openai-responses.json");
    assert_eq!(c.format, Format::OpenaiResponsesTools);
    assert_eq!(names(&c), ["lookup"]);
    assert_eq!(c.tools[0].strict, Some(false));
    assert_eq!(c.tools[0].description.as_deref(), Some("Look a record up."));
    assert_eq!(
        bytes_of(&c.tools[0].input_schema),
        r#"{"type":"object","properties":{"id":{"type":"string"}}}"#
    );
}

#[test]
fn gemini_function_declarations_load_from_every_wrapper() {
    let c = load("gemini.json");
    assert_eq!(c.format, Format::GeminiTools);
    assert_eq!(names(&c), ["find_movies", "find_theaters", "ping"]);
    assert_eq!(
        bytes_of(&c.tools[0].input_schema),
        r#"{"type":"OBJECT","properties":{"title":{"type":"STRING"}},"required":["title"]}"#
    );
    assert_eq!(
        bytes_of(&c.tools[1].input_schema),
        r#"{"type":"object","properties":{"city":{"type":["string","null"]}}}"#
    );
    assert_eq!(
        c.tools[2].input_schema,
        json!({"type": "object", "properties": {}})
    );
    assert_eq!(
        c.notes,
        [
            note(
                "find_theaters",
                "",
                "both \"parametersJsonSchema\" and \"parameters\" given: \"parametersJsonSchema\" used"
            ),
            note(
                "ping",
                "",
                "no parameters declared: {\"type\":\"object\",\"properties\":{}} assumed"
            ),
        ]
    );
    let bare = from_bytes(
        br#"[{"functionDeclarations":[{"name":"a","parameters":{"type":"STRING"}}]}]"#,
        None,
    )
    .unwrap();
    assert_eq!(
        (bare.format, names(&bare)),
        (Format::GeminiTools, vec!["a"])
    );
    let flat = from_bytes(
        br#"{"functionDeclarations":[{"name":"b","parametersJsonSchema":{}}]}"#,
        None,
    )
    .unwrap();
    assert_eq!(
        (flat.format, names(&flat)),
        (Format::GeminiTools, vec!["b"])
    );
}

#[test]
fn bedrock_tool_specs_unwrap_input_schema_json_and_skip_cache_points() {
    let c = load("bedrock.json");
    assert_eq!(c.format, Format::BedrockTools);
    assert_eq!(names(&c), ["top_song", "noop"]);
    assert_eq!(
        c.tools[0].description.as_deref(),
        Some("Most popular song on a station.")
    );
    assert_eq!(
        bytes_of(&c.tools[0].input_schema),
        r#"{"type":"object","properties":{"sign":{"type":"string"}},"required":["sign"]}"#
    );
    let bare = from_bytes(
        br#"[{"toolSpec":{"name":"t","inputSchema":{"json":true}}}]"#,
        None,
    )
    .unwrap();
    assert_eq!(
        (bare.format, names(&bare)),
        (Format::BedrockTools, vec!["t"])
    );
    assert_eq!(bare.tools[0].input_schema, json!(true));
}

#[test]
fn shared_corpus_format_ignores_extra_keys() {
    let c = load("shared-corpus.json");
    assert_eq!(c.format, Format::SharedCorpus);
    assert_eq!(names(&c), ["create_issue", "list_issues"]);
    assert_eq!(c.tools[0].description.as_deref(), Some("Create an issue."));
    assert_eq!(
        bytes_of(&c.tools[0].input_schema),
        r#"{"properties":{"title":{"type":"string"},"body":{"type":"string"}},"required":["title"],"type":"object"}"#
    );
    assert_eq!(c.tools[1].description, None);
    assert!(c.notes.is_empty(), "{:?}", c.notes);
}

#[test]
fn bfcl_dialect_is_detected_and_every_translation_noted() {
    let c = load("bfcl.json");
    assert_eq!(c.format, Format::Bfcl);
    assert_eq!(names(&c), ["calc.distance", "Util.join"]);
    assert_eq!(
        c.tools[0].input_schema,
        json!({
            "type": "object",
            "properties": {
                "coord": {"type": "array", "items": {"type": "number"}, "description": "(lat, lon)"},
                "type": {"type": "string", "enum": ["dict", "float"], "default": {"type": "dict"}},
                "extra": {"description": "Anything."},
                "unit": {"type": "string"}
            },
            "required": ["coord"]
        })
    );
    // Key order survives the translation (the removed keys leave no gap).
    assert_eq!(
        bytes_of(&c.tools[0].input_schema["properties"]["unit"]),
        r#"{"type":"string"}"#
    );
    assert_eq!(
        bytes_of(&c.tools[1].input_schema),
        r#"{"type":"object","properties":{"parts":{"type":"array","items":{"type":"string"}},"sep":{"description":"Separator."},"opts":{"type":"object","additionalProperties":{"type":"boolean"}}}}"#
    );
    assert_eq!(
        c.notes,
        [
            note(
                "calc.distance",
                "",
                "bfcl: type \"dict\" translated to \"object\""
            ),
            note(
                "calc.distance",
                "/properties/coord",
                "bfcl: type \"tuple\" translated to \"array\""
            ),
            note(
                "calc.distance",
                "/properties/coord/items",
                "bfcl: type \"float\" translated to \"number\""
            ),
            note(
                "calc.distance",
                "/properties/extra",
                "bfcl: type \"any\" removed (any value)"
            ),
            note(
                "calc.distance",
                "/properties/unit",
                "bfcl: non-standard keyword \"optional\" removed"
            ),
            note(
                "Util.join",
                "",
                "bfcl: type \"dict\" translated to \"object\""
            ),
            note(
                "Util.join",
                "/properties/parts",
                "bfcl: type \"ArrayList\" translated to \"array\""
            ),
            note(
                "Util.join",
                "/properties/parts/items",
                "bfcl: type \"String\" translated to \"string\""
            ),
            note(
                "Util.join",
                "/properties/sep",
                "bfcl: unknown type \"\" removed"
            ),
            note(
                "Util.join",
                "/properties/opts",
                "bfcl: type \"HashMap\" translated to \"object\""
            ),
            note(
                "Util.join",
                "/properties/opts/additionalProperties",
                "bfcl: type \"Boolean\" translated to \"boolean\""
            ),
        ]
    );
}

#[test]
fn forcing_shared_corpus_on_bfcl_loads_the_dialect_untranslated() {
    let c = load_catalog(&fixture("bfcl.json"), Some(Format::SharedCorpus)).unwrap();
    assert_eq!(c.format, Format::SharedCorpus);
    assert_eq!(c.tools[0].input_schema["type"], json!("dict"));
    assert!(c.notes.is_empty());
}

#[test]
fn forcing_bfcl_translates_a_plain_tools_array() {
    let c = from_bytes(
        br#"[{"name":"f","input_schema":{"type":"dict","properties":{}}}]"#,
        Some(Format::Bfcl),
    )
    .unwrap();
    assert_eq!(c.format, Format::Bfcl);
    assert_eq!(
        c.tools[0].input_schema,
        json!({"type": "object", "properties": {}})
    );
    assert_eq!(
        c.notes,
        [note(
            "f",
            "",
            "bfcl: type \"dict\" translated to \"object\""
        )]
    );
}

#[test]
fn jsonl_benchmark_lines_become_one_tool_each() {
    let c = load("bench.jsonl");
    assert_eq!(c.format, Format::Jsonl);
    assert_eq!(names(&c), ["Demo_0", "line-4"]);
    assert_eq!(c.tools[0].description.as_deref(), Some("first"));
    assert_eq!(
        bytes_of(&c.tools[0].input_schema),
        r#"{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"number"}}}"#
    );
    assert_eq!(c.tools[1].input_schema, json!(true));
    // The line's `tests` travel with its tool, by index.
    assert_eq!(
        c.instances,
        [
            vec![KnownInstance {
                data: json!({}),
                valid: true
            }],
            vec![]
        ]
    );
}

/// A single tool object (detected as one jsonl line) keeps its `strict`
/// flag, like every format that carries one; a non-boolean is an error.
#[test]
fn a_jsonl_line_keeps_its_strict_flag() {
    let text = r#"{"name":"t","strict":true,"input_schema":{"type":"object"}}"#;
    let c = load_catalog_bytes("t", Path::new("t.json"), text.as_bytes(), None).unwrap();
    assert_eq!(c.format, Format::Jsonl);
    assert_eq!(c.tools[0].strict, Some(true));
    let text = "{\"id\":\"a\",\"schema\":{}}\n{\"id\":\"b\",\"strict\":1,\"schema\":{}}\n";
    let err = load_catalog_bytes("t", Path::new("t.jsonl"), text.as_bytes(), None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("t.jsonl:2:") && err.contains("expected a boolean"),
        "{err}"
    );
}

#[test]
fn jsonl_history_lines_are_named_with_their_commit() {
    let c = load("history.jsonl");
    assert_eq!(c.format, Format::Jsonl);
    assert_eq!(
        names(&c),
        [
            "get_me@023f59d",
            "get_me@3e988d5",
            "get_me@3e988d5~2",
            "list"
        ]
    );
    assert_eq!(c.tools[0].description.as_deref(), Some("Who am I."));
    assert_eq!(
        c.notes,
        [note(
            "get_me@3e988d5~2",
            "",
            "duplicate tool name \"get_me@3e988d5\" renamed to \"get_me@3e988d5~2\""
        )]
    );
}

#[test]
fn a_single_jsonl_line_in_a_json_file_still_loads() {
    let c = from_bytes(
        br#"{"dataset":"D","id":"D_1","schema":{"type":"string"},"tests":[]}"#,
        None,
    )
    .unwrap();
    assert_eq!((c.format, names(&c)), (Format::Jsonl, vec!["D_1"]));
}

#[test]
fn test_suite_groups_are_named_by_slug() {
    let c = load("test-suite.json");
    assert_eq!(c.format, Format::TestSuite);
    assert_eq!(
        c.instances[0],
        [KnownInstance {
            data: json!("foo"),
            valid: true
        }]
    );
    assert_eq!(
        names(&c),
        [
            "anyof-with-boolean-schemas-all-true",
            "boolean-schema-false",
            "anyof-with-boolean-schemas-all-true~2",
            "group-3"
        ]
    );
    assert_eq!(
        c.tools[0].description.as_deref(),
        Some("anyOf with boolean schemas, all true")
    );
    assert_eq!(
        bytes_of(&c.tools[0].input_schema),
        r#"{"anyOf":[true,true]}"#
    );
    assert_eq!(c.tools[1].input_schema, json!(false));
    assert_eq!(c.tools[3].description.as_deref(), Some("!!!"));
}

#[test]
fn a_single_schema_file_is_one_tool_named_after_the_file() {
    let c = load("single-schema.json");
    assert_eq!(c.format, Format::Schema);
    assert_eq!(names(&c), ["single-schema"]);
    assert_eq!(
        bytes_of(&c.tools[0].input_schema),
        r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{"n":{"type":"integer"}},"$ref":"#/$defs/n"}"##
    );
    let empty = from_bytes(b"{}", None).unwrap();
    assert_eq!((empty.format, names(&empty)), (Format::Schema, vec!["x"]));
    let boolean = from_bytes(b"true", Some(Format::Schema)).unwrap();
    assert_eq!(boolean.tools[0].input_schema, json!(true));
}

#[test]
fn duplicate_names_are_suffixed_in_order() {
    let c = load("duplicates.json");
    assert_eq!(names(&c), ["a", "a~2", "b", "a~3", "a~2~2"]);
    assert_eq!(
        c.notes,
        [
            note("a~2", "", "duplicate tool name \"a\" renamed to \"a~2\""),
            note("a~3", "", "duplicate tool name \"a\" renamed to \"a~3\""),
            note(
                "a~2~2",
                "",
                "duplicate tool name \"a~2\" renamed to \"a~2~2\""
            ),
        ]
    );
}

#[test]
fn an_empty_tools_list_loads_with_a_note() {
    let c = from_bytes(br#"{"tools":[]}"#, None).unwrap();
    assert_eq!(c.format, Format::McpToolsList);
    assert!(c.tools.is_empty());
    assert_eq!(c.notes, [note("", "", "catalog declares no tools")]);
}

#[test]
fn forced_format_mismatch_names_the_first_tool_that_does_not_fit() {
    let path = fixture("mcp.json");
    assert_eq!(
        load_err("mcp.json", Some(Format::OpenaiChatTools)),
        format!(
            "{}:3:5: tools[0]: missing \"function\" (format openai-chat)",
            path.display()
        )
    );
    // The Anthropic reader takes the camelCase key too (with a note):
    // forcing it on an MCP file reads every tool.
    let as_anthropic = load_catalog(&path, Some(Format::AnthropicTools)).unwrap();
    assert_eq!(as_anthropic.format, Format::AnthropicTools);
    assert!(
        as_anthropic.notes.iter().all(
            |n| n.message == "schema read from \"inputSchema\": it is sent as \"input_schema\""
        )
    );
    assert_eq!(
        load_err("mcp.json", Some(Format::TestSuite)),
        format!(
            "{}:1:1: format test-suite expects a top-level array of {{description, schema, tests}} groups",
            path.display()
        )
    );
    assert_eq!(
        load_err("anthropic.json", Some(Format::SharedCorpus)),
        format!(
            "{}:1:1: format shared-corpus expects an object with a \"tools\" array",
            path_of("anthropic.json")
        )
    );
    assert_eq!(
        load_err("bench.jsonl", Some(Format::McpToolsList)),
        format!("{}:4:1: trailing characters", path_of("bench.jsonl"))
    );
}

#[test]
fn forced_format_mismatch_on_the_document_shape_is_a_root_error() {
    let err = |text: &[u8], f: Format| from_bytes(text, Some(f)).unwrap_err().to_string();
    assert_eq!(
        err(br#"{"type":"object"}"#, Format::Bfcl),
        "x.json:1:1: format bfcl expects {\"tools\":[…]} or a bare array of tools"
    );
    assert_eq!(
        err(br#"{"functionDeclarations":[]}"#, Format::McpToolsList),
        "x.json:1:1: format mcp expects {\"tools\":[…]}, a json-rpc tools/list response or a bare array of tools"
    );
    assert_eq!(
        err(b"[]", Format::Schema),
        "x.json:1:1: format schema expects a json object or boolean"
    );
    assert_eq!(
        err(b"{\n  \"tools\": []\n}", Format::Jsonl),
        "x.json:1:1: EOF while parsing an object"
    );
    assert_eq!(
        err(
            br#"[{"type":"function","function":{"name":"f"}}]"#,
            Format::OpenaiResponsesTools
        ),
        "x.json:1:2: [0]: missing \"name\""
    );
}

fn path_of(name: &str) -> String {
    fixture(name).display().to_string()
}

#[test]
fn json_syntax_error_names_line_and_column() {
    assert_eq!(
        load_err("broken-syntax.json", None),
        format!("{}:5:3: trailing comma", path_of("broken-syntax.json"))
    );
}

#[test]
fn missing_name_points_at_the_tool_object() {
    assert_eq!(
        load_err("missing-name.json", None),
        format!(
            "{}:8:5: tools[2]: missing \"name\"",
            path_of("missing-name.json")
        )
    );
    let err = from_bytes(br#"[{"name": 7, "inputSchema": {}}]"#, None).unwrap_err();
    assert_eq!(err.to_string(), "x.json:1:2: [0]: \"name\" is not a string");
}

#[test]
fn jsonl_bad_line_3_names_the_file_line() {
    assert_eq!(
        load_err("bad-line-3.jsonl", None),
        format!("{}:3:21: expected value", path_of("bad-line-3.jsonl"))
    );
    assert_eq!(
        load_err("bad-line-3.jsonl", Some(Format::Jsonl)),
        format!("{}:3:21: expected value", path_of("bad-line-3.jsonl"))
    );
}

#[test]
fn jsonl_shape_errors_name_the_file_line() {
    let err = from_bytes(b"{\"schema\":{}}\n\n{\"nothing\":1}\n", None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "x.json:3:1: expected a benchmark line with \"schema\" or a history line with \"name\" and \"input_schema\""
    );
    let err = from_bytes(b"{\"schema\":{}}\n  {\"input_schema\":{}}", None).unwrap_err();
    assert_eq!(err.to_string(), "x.json:2:3: missing \"name\"");
}

#[test]
fn invalid_utf8_is_a_syntax_error_not_a_panic() {
    assert_eq!(
        load_err("invalid-utf8.json", None),
        format!(
            "{}:2:13: invalid utf-8 (byte 0xff)",
            path_of("invalid-utf8.json")
        )
    );
}

#[test]
fn nesting_1000_deep_is_an_error_not_a_panic() {
    let err = load_err("deep-nesting.json", None);
    assert_eq!(
        err,
        format!(
            "{}:1:128: recursion limit exceeded",
            path_of("deep-nesting.json")
        )
    );
    let deep = format!(
        "{{\"tools\":[{{\"name\":\"t\",\"inputSchema\":{}{}}}]}}",
        "{\"not\":".repeat(1000),
        "}".repeat(1000)
    );
    let err = from_bytes(deep.as_bytes(), None).unwrap_err();
    assert!(matches!(err, LoadError::Syntax { .. }), "{err}");
    assert!(
        err.to_string().ends_with("recursion limit exceeded"),
        "{err}"
    );
}

#[test]
fn a_schema_deeper_than_the_walk_limit_is_a_shape_error_naming_the_tool() {
    let text = r#"{"tools": [{"name": "t", "inputSchema": {}}]}"#;
    let src = Src {
        path: Path::new("d.json"),
        text,
        line_base: 0,
    };
    let mut schema = json!({});
    for _ in 0..=schema::MAX_DEPTH {
        schema = json!({ "not": schema });
    }
    let raw = Raw {
        src,
        pointer: "/tools/0".to_owned(),
        name: "t".to_owned(),
        description: None,
        schema,
        strict: None,
        notes: Vec::new(),
        instances: Vec::new(),
    };
    let err = finish(Format::McpToolsList, vec![raw], true)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with(
            "d.json:1:12: tools[0]: tool \"t\": schema nests deeper than 128 levels at /not/not"
        ),
        "{err}"
    );
}

#[test]
fn unrecognized_documents_and_scalars_are_shape_errors_at_the_root() {
    let msg = "unrecognized catalog format: expected a tools array or {\"tools\":[…]} object, json lines, a test-suite file or a json schema";
    assert_eq!(
        from_bytes(b"  {\"hello\": 1}", None)
            .unwrap_err()
            .to_string(),
        format!("x.json:1:3: {msg}")
    );
    assert_eq!(
        from_bytes(b"42", None).unwrap_err().to_string(),
        format!("x.json:1:1: {msg}")
    );
    assert_eq!(
        from_bytes(b"[{\"what\": 1}]", None)
            .unwrap_err()
            .to_string(),
        "x.json:1:2: [0]: unrecognized tool shape (expected one of inputSchema, input_schema, function, type \"function\", parameters, toolSpec, functionDeclarations)"
    );
    assert_eq!(
        from_bytes(b"", None).unwrap_err().to_string(),
        "x.json:1:0: EOF while parsing a value"
    );
    assert_eq!(
        from_bytes(b"[1] [2]", None).unwrap_err().to_string(),
        "x.json:1:5: trailing characters"
    );
}

#[test]
fn a_byte_order_mark_is_ignored() {
    let c = from_bytes(b"\xef\xbb\xbf{\"tools\":[]}", None).unwrap();
    assert_eq!(c.format, Format::McpToolsList);
}

#[test]
fn locate_finds_values_past_strings_escapes_and_nesting() {
    let text = "{\n  \"a\": \"}]\\\" {\",\n  \"b\\\"c\": [1, {\"x\": [[]]}, \n   {\"a/b\": null}],\n  \"b\": 2\n}";
    assert_eq!(locate(text, ""), (1, 1));
    assert_eq!(locate(text, "/a"), (2, 8));
    assert_eq!(locate(text, "/b\"c"), (3, 11));
    assert_eq!(locate(text, "/b\"c/1"), (3, 15));
    assert_eq!(locate(text, "/b\"c/1/x/0"), (3, 22));
    assert_eq!(locate(text, "/b\"c/2/a~1b"), (4, 12));
    assert_eq!(locate(text, "/b"), (5, 8));
    // Unresolvable pointers stop at the deepest value they reach.
    assert_eq!(locate(text, "/b\"c/9"), (3, 11));
    assert_eq!(locate(text, "/nope"), (1, 1));
    // A repeated key resolves to the value serde_json keeps (the last).
    assert_eq!(locate(r#"{"k": 1, "k": 2}"#, "/k"), (1, 15));
    // Garbage never panics.
    assert_eq!(locate("{\"a", "/a/b"), (1, 1));
    assert_eq!(locate("[", "/3"), (1, 1));
}

#[test]
fn labels_read_like_paths() {
    assert_eq!(label("/tools/3"), "tools[3]");
    assert_eq!(
        label("/0/functionDeclarations/2"),
        "[0].functionDeclarations[2]"
    );
    assert_eq!(
        label("/result/tools/0/function"),
        "result.tools[0].function"
    );
    assert_eq!(label(""), "");
}

#[test]
fn slugs_collapse_non_alphanumerics() {
    assert_eq!(slug("  Foo, BAR -- baz!"), "foo-bar-baz");
    assert_eq!(slug("héllo wörld"), "h-llo-w-rld");
    assert_eq!(slug("!!!"), "");
}

#[test]
fn truncated_and_mutated_fixtures_never_panic() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/testdata/catalogs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let specials = b"{}[]\",:\\\n \xff0";
    for file in files {
        let original = std::fs::read(&file).unwrap();
        for cut in 0..original.len().min(400) {
            let _ = from_bytes(&original[..cut], None);
        }
        for _ in 0..200 {
            let mut bytes = original.clone();
            for _ in 0..3 {
                let at = usize::try_from(next() % bytes.len().max(1) as u64).unwrap();
                let byte = specials[usize::try_from(next() % specials.len() as u64).unwrap()];
                if let Some(b) = bytes.get_mut(at) {
                    *b = byte;
                }
            }
            let format = Format::ALL
                .get(usize::try_from(next() % 16).unwrap())
                .copied();
            let _ = from_bytes(&bytes, format);
        }
    }
}

#[test]
fn arbitrary_bytes_never_panic() {
    let samples: &[&[u8]] = &[
        b"",
        b"\xff",
        b"[",
        b"{",
        b"{\"tools\":",
        b"{\"tools\":[{]}",
        b"[{}]",
        b"[null]",
        b"{\"tools\":{}}",
        b"{\"jsonrpc\":\"2.0\"}",
        b"{\"toolConfig\":{\"tools\":1}}",
        b"[{\"toolSpec\":1}]",
        b"[{\"toolSpec\":{\"name\":\"a\",\"inputSchema\":{}}}]",
        b"[{\"type\":\"function\",\"function\":3}]",
        b"[{\"functionDeclarations\":[1]}]",
        b"{\"a\":1}\n{",
        b"\n\n",
        b"{\"schema\":1,\"tests\":[]}\n[",
        b"[{\"schema\":{},\"tests\":[]},1]",
    ];
    for s in samples {
        for f in std::iter::once(None).chain(Format::ALL.iter().copied().map(Some)) {
            let _ = from_bytes(s, f);
        }
    }
}
