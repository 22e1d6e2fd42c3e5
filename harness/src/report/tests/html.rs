//! `index.html` and its lane files: the first view (failures, declared
//! divergences by ledger class), escaping, no network reference, the
//! detail limit, and what the lane files hold.

use super::*;
use crate::report::data::MAX_DETAILS;
use crate::report::files::INDEX_HTML;
use crate::report::html::index_html;

#[test]
fn index_html_marks_a_failing_case_with_its_oracle_verdict_beside_the_class() {
    let tmp = tempfile::tempdir().unwrap();
    let mut report = sample();
    let at = report
        .outcomes
        .iter()
        .position(|o| o.class == Class::Unexpected)
        .unwrap();
    report.outcomes[at].verdict = Some(crate::verdict::Verdict::Regression);
    let dir = write_report(&tmp.path().join("latest"), &report, &meta("t")).unwrap();
    let html = read(&dir, INDEX_HTML);
    assert!(
        html.contains(
            r#"<span class="badge unexpected">unexpected</span> <span class="badge regression">regression</span>"#
        ),
        "{html}"
    );
}

#[test]
fn a_lane_file_carries_the_oracle_verdict_of_a_divergent_case() {
    let tmp = tempfile::tempdir().unwrap();
    let mut report = sample();
    let at = report
        .outcomes
        .iter()
        .position(|o| o.class == Class::Intended)
        .unwrap();
    report.outcomes[at].verdict = Some(crate::verdict::Verdict::Fix);
    let dir = write_report(&tmp.path().join("latest"), &report, &meta("t")).unwrap();
    let data = lane_data(&dir, "gemini-openapi");
    let rows = data["cases"].as_array().unwrap();
    let row = rows.iter().find(|r| r["case"] == "g#enum").unwrap();
    assert_eq!(row["verdict"], "fix");
    assert_eq!(row["class"], "intended");
    let at = |v: &serde_json::Value| usize::try_from(v.as_u64().unwrap()).unwrap();
    assert_eq!(data["tags"][at(&row["tags"][0])], "new:enum:rewritten");
    assert_eq!(data["ledger"][at(&row["ledger"][0])]["class"], "intended");
}

#[test]
fn index_html_lists_the_failing_cases_escaped_and_references_nothing_on_the_network() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_report(&tmp.path().join("latest"), &sample(), &meta("t")).unwrap();
    let html = read(&dir, INDEX_HTML);
    assert!(
        html.contains(
            r##"<td class="case mono"><a href="#cases" data-open-lane="anthropic-messages" data-open-case="weird#&lt;&amp;&quot;'&gt;">weird#&lt;&amp;&quot;'&gt;</a></td>"##
        ),
        "{html}"
    );
    assert!(html.contains(r#"<code class="tag">old:&lt;b&gt;&amp;amp;:kept</code>"#));
    assert!(!html.contains(NASTY));
    // Failing: the unexpected, the errored and the violated (identical) case.
    assert!(html.contains(r#"<h2>Failing cases <span class="n">(3)</span></h2>"#));
    // Identical cases that pass are counts only, nowhere listed.
    assert!(!html.contains("o#plain"));
    for external in ["http://", "https://", "<link", "src=\"", "fetch("] {
        assert!(!html.contains(external), "index.html references {external}");
    }
    assert_eq!(html.matches("<script>").count(), 1);
}

#[test]
fn index_html_groups_declared_divergences_by_ledger_class_with_counts() {
    let (mut outcomes, uses, issues) = sample_parts();
    for i in 0..3 {
        let mut o = case(
            "openai-chat",
            &format!("c#{i}"),
            Class::Intended,
            &["new:enum:rewritten"],
        );
        o.ledger
            .push(ledger_match("openai.toml", i % 2, "strips-enums"));
        outcomes.push(o);
    }
    let html = index_html(&View::new(&report_from(outcomes, uses, issues)));
    assert!(
        html.contains(
            r##"<tr><td><b>strips-enums</b></td><td class="mono">openai-chat</td><td class="n"><a href="#cases" data-filter-lane="openai-chat" data-filter-ledger="strips-enums">3</a></td><td class="mono">openai.toml#0 openai.toml#1</td><td class="reason">v1 drops `pattern` on purpose</td></tr>"##
        ),
        "{html}"
    );
    // The sample's reordered and intended cases, one each.
    assert!(html.contains(
        r#"<h2>Declared divergences by ledger class <span class="n">(5 cases)</span></h2>"#
    ));
    assert!(
        html.contains(
            r#"data-filter-lane="anthropic-messages" data-filter-ledger="reordered">1</a>"#
        )
    );
}

#[test]
fn lane_files_keep_details_for_at_most_max_details_cases_failures_first() {
    let tmp = tempfile::tempdir().unwrap();
    let outcomes: Vec<CaseOutcome> = (0..=MAX_DETAILS)
        .map(|i| case("openai-chat", &format!("c#{i:05}"), Class::Intended, &[]))
        .chain([case("openai-chat", "z#last", Class::Unexpected, &[])])
        .collect();
    let report = report_from(outcomes, Vec::new(), Vec::new());
    let dir = write_report(&tmp.path().join("latest"), &report, &meta("t")).unwrap();
    let data = lane_data(&dir, "openai-chat");
    let details = data["details"].as_object().unwrap();
    assert_eq!(data["cases"].as_array().unwrap().len(), MAX_DETAILS + 2);
    assert_eq!(details.len(), MAX_DETAILS);
    // The failure is kept even though it sorts last; the last intended case is not.
    assert!(details.contains_key("z#last"));
    assert!(!details.contains_key(&format!("c#{MAX_DETAILS:05}")));
    let html = read(&dir, INDEX_HTML);
    assert!(html.contains(&format!(
        r#"<option value="openai-chat">openai-chat ({})</option>"#,
        MAX_DETAILS + 2
    )));
}

#[test]
fn hostile_text_is_escaped_in_index_html_and_kept_exact_in_the_lane_file() {
    let tmp = tempfile::tempdir().unwrap();
    let report = hostile_report();
    let html = index_html(&View::new(&report));
    let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;'";
    // The case name (tool name) in the failures table.
    assert!(
        html.contains(&format!(
            r#"data-open-case="catalog.json#0-{escaped}">catalog.json#0-{escaped}</a></td>"#
        )),
        "{html}"
    );
    assert!(html.contains(&format!(
        r#"<code class="tag">new:description:{escaped}</code>"#
    )));
    assert!(html.contains(&format!("tool {escaped} changed twice")));
    assert!(html.contains(&format!(
        r#"<tr><td class="mono">catalogs/{escaped}.json</td><td>catalog {escaped}: expected value</td></tr>"#
    )));
    assert!(!html.contains(HOSTILE));
    assert!(!html.contains("<script>alert"));
    assert_eq!(html.matches("<script>").count(), 1);
    // The lane file is JSON inside a script call: every string exact, for
    // the page to put into text nodes.
    let dir = write_report(&tmp.path().join("latest"), &report, &meta("t")).unwrap();
    let data = lane_data(&dir, "openai-chat");
    let case = format!("catalog.json#0-{HOSTILE}");
    assert_eq!(data["cases"][0]["case"], case.as_str());
    assert_eq!(
        data["ledger"][0]["reason"],
        format!("keeps {HOSTILE}").as_str()
    );
    let detail = &data["details"][case.as_str()];
    assert_eq!(
        detail["new"]["detail"],
        format!("tool {HOSTILE}: description rewritten").as_str()
    );
    assert!(
        detail["wire"]["old"]
            .as_str()
            .unwrap()
            .contains(r#""name": "<script>alert(1)</script>\"&'""#)
    );
}

#[test]
fn the_page_script_loads_lane_files_by_script_element_and_writes_text_only() {
    let script = include_str!("../index.js");
    assert!(script.contains("document.createElement('script')"));
    assert!(script.contains("s.src='data/'+encodeURIComponent(l)+'.js'"));
    for unsafe_sink in [
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
        "eval(",
    ] {
        assert!(!script.contains(unsafe_sink), "index.js uses {unsafe_sink}");
    }
}
