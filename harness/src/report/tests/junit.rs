//! `junit.xml`: suites, cases, failures and escaping.

use super::*;
use crate::outcome::{RequestIssue, RequestOutcome, RequestSide};
use crate::report::files::JUNIT_XML;
use crate::report::junit::{Waiting, junit_xml, suites, write_junit_via};

/// The sample report's `junit.xml`, whole: one suite per lane in lane
/// order, one for the unused ledger entry; every failure with its one-line
/// message, its class as `type` and everything known as its text.
const SAMPLE_JUNIT_XML: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="wireshape" tests="9" skipped="0" failures="4" errors="0">
    <testsuite name="anthropic-messages" tests="3" skipped="0" errors="0" failures="1">
        <testcase name="a#order" classname="anthropic-messages"/>
        <testcase name="a#same" classname="anthropic-messages"/>
        <testcase name="weird#&lt;&amp;&quot;&apos;&gt;" classname="anthropic-messages">
            <failure message="unexpected divergence: new:pattern:removed, old:&lt;b&gt;&amp;amp;:kept" type="unexpected">class: unexpected
tag: new:pattern:removed
tag: old:&lt;b&gt;&amp;amp;:kept
old: v0 shaped sha256=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
new: v1 shaped sha256=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
diff:
--- v0
+++ v1
@@ -1,4 +1,3 @@
 {
-  &quot;name&quot;: &quot;t&quot;,
-  &quot;pattern&quot;: &quot;^a&quot;
+  &quot;name&quot;: &quot;t&quot;
 }
</failure>
        </testcase>
    </testsuite>
    <testsuite name="gemini-openapi" tests="2" skipped="0" errors="0" failures="1">
        <testcase name="g#boom" classname="gemini-openapi">
            <failure message="errored: new errored: panic: index out of bounds" type="errored">class: errored
tag: outcome:shaped-&gt;errored
old: v0 shaped sha256=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
new: v1 errored sha256=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
new detail: panic: index out of bounds
at passes/flatten.rs
</failure>
        </testcase>
        <testcase name="g#enum" classname="gemini-openapi"/>
    </testsuite>
    <testsuite name="openai-chat" tests="3" skipped="0" errors="0" failures="1">
        <testcase name="o#ok" classname="openai-chat"/>
        <testcase name="o#plain" classname="openai-chat"/>
        <testcase name="o#same" classname="openai-chat">
            <failure message="idempotence violated (v1): shape(shape(x)) != shape(x)" type="violation">class: identical
old: v0 shaped sha256=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
new: v1 shaped sha256=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
violation idempotence (v1):
shape(shape(x)) != shape(x)
first: {}
second: {&quot;type&quot;:&quot;object&quot;}
</failure>
        </testcase>
    </testsuite>
    <testsuite name="ledger" tests="1" skipped="0" errors="0" failures="1">
        <testcase name="gemini.toml#1" classname="ledger">
            <failure message="ledger entry gemini.toml#1 (intended) matched no case in a run over the corpus it was written for: remove it or fix its `case`" type="unused-ledger-entry">class: intended
ledger entry gemini.toml#1 (intended) matched no case in a run over the corpus it was written for: remove it or fix its `case`
</failure>
        </testcase>
    </testsuite>
</testsuites>
"#;

#[test]
fn junit_xml_escapes_the_nasty_case_name_and_fails_unused_ledger_entries() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_report(&tmp.path().join("latest"), &sample(), &meta("t")).unwrap();
    let xml = read(&dir, JUNIT_XML);
    assert_eq!(xml, SAMPLE_JUNIT_XML);
    assert!(!xml.contains("time="));
}

#[test]
fn junit_xml_escapes_script_tags_and_quotes_in_tool_and_catalog_text() {
    let xml = junit_xml(&View::new(&hostile_report()));
    let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;&apos;";
    assert!(
        xml.contains(&format!(
            r#"<testcase name="catalog.json#0-{escaped}" classname="openai-chat">"#
        )),
        "{xml}"
    );
    assert!(
        xml.contains(&format!(
            r#"<failure message="unexpected divergence: new:description:{escaped}; idempotence violated (v1): tool {escaped} changed twice" type="unexpected">"#
        )),
        "{xml}"
    );
    assert!(xml.contains(&format!(
        "\nnew detail: tool {escaped}: description rewritten\n"
    )));
    assert!(!xml.contains("<script>"));
    assert!(!xml.contains(HOSTILE));
}

/// quick-junit's `XmlString` strips ANSI escape sequences and the C0
/// control characters (a tab too; newlines stay) from every name, message
/// and text, so the file is always well-formed XML 1.0.
#[test]
fn junit_xml_drops_ansi_escapes_and_control_characters_illegal_in_xml() {
    let name = "o#ansi-\u{1b}[31mred\u{1b}[0m-\u{7}bell";
    let report = report_from(
        vec![case("openai-chat", name, Class::Unexpected, &["tab\there"])],
        Vec::new(),
        Vec::new(),
    );
    let xml = junit_xml(&View::new(&report));
    assert!(
        xml.contains(r#"<testcase name="o#ansi-red-bell" classname="openai-chat">"#),
        "{xml}"
    );
    assert!(xml.contains("\ntag: tabhere\n"), "{xml}");
    for c in ['\u{1b}', '\u{7}', '\t'] {
        assert!(!xml.contains(c), "{c:?} in {xml}");
    }
}

/// `junit.xml` is written a suite at a time (quick-junit would hold every
/// case at once); the bytes are the ones quick-junit writes for the whole
/// report: lane suites, a failing and a passing request, an unused ledger
/// entry, and a report with no suite at all.
#[test]
fn junit_written_by_suite_is_the_whole_report_quick_junit_writes() {
    let request = |catalog: &str, issues: Vec<RequestIssue>| RequestOutcome {
        lane: Lane::OpenaiChat,
        catalog: catalog.to_owned(),
        kind: crate::request::RequestKind::Turn,
        tools: 2,
        class: issues
            .first()
            .map_or(crate::outcome::RequestClass::Identical, |i| i.class),
        old: RequestSide {
            pipeline: "v0".to_owned(),
            sha256: "a".repeat(64),
            bytes: 10,
            changes: Vec::new(),
        },
        new: RequestSide {
            pipeline: "v1".to_owned(),
            sha256: "b".repeat(64),
            bytes: 12,
            changes: Vec::new(),
        },
        difference: None,
        issues,
    };
    let mut with_requests = sample();
    with_requests.requests = vec![
        request("c<1>.json", Vec::new()),
        request(
            "c2.json",
            vec![RequestIssue {
                class: crate::outcome::RequestClass::ReorderedTools,
                message: "tools in another order: old [a, b], new [b, a]".to_owned(),
                at: None,
            }],
        ),
    ];
    for report in [sample(), with_requests, RunReport::default()] {
        let view = View::new(&report);
        let mut whole = quick_junit::Report::new("wireshape");
        whole.add_test_suites(suites(&view));
        let expected = whole.to_string().unwrap();
        assert_eq!(junit_xml(&view), expected);
        // The suites wait in a temporary file, or in memory when none can
        // be made: the same bytes.
        for waiting in [Waiting::new(), Waiting::Memory(Vec::new())] {
            let file = matches!(waiting, Waiting::File(_));
            let mut bytes = Vec::new();
            write_junit_via(&view, &mut bytes, waiting).unwrap();
            assert_eq!(String::from_utf8(bytes).unwrap(), expected, "file {file}");
        }
    }
    let empty = RunReport::default();
    assert_eq!(
        junit_xml(&View::new(&empty)),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"wireshape\" tests=\"0\" skipped=\"0\" failures=\"0\" errors=\"0\">\n</testsuites>\n"
    );
}
