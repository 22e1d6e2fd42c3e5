//! `index.html`: badges, escaping, self-containment and the diff limit.

use super::*;
use crate::report::files::INDEX_HTML;
use crate::report::html::{HTML_DIFF_LIMIT, index_html};

#[test]
fn index_html_marks_oracle_fixes_and_regressions_beside_the_class() {
    let tmp = tempfile::tempdir().unwrap();
    let mut report = sample();
    let at = report
        .outcomes
        .iter()
        .position(|o| o.class == Class::Intended)
        .unwrap();
    report.outcomes[at].verdict = Some(crate::verdict::Verdict::Fix);
    let dir = write_report(&tmp.path().join("latest"), &report, &meta("t")).unwrap();
    let html = read(&dir, INDEX_HTML);
    assert!(
        html.contains(
            r#"<span class="badge intended">intended</span> <span class="badge fix">fix</span>"#
        ),
        "{html}"
    );
}

#[test]
fn index_html_escapes_the_nasty_case_name_and_is_self_contained() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_report(&tmp.path().join("latest"), &sample(), &meta("t")).unwrap();
    let html = read(&dir, INDEX_HTML);
    assert!(
        html.contains(
            r##"<td class="case mono"><a href="#d-0">weird#&lt;&amp;&quot;'&gt;</a></td>"##
        ),
        "{html}"
    );
    assert!(html.contains(
        r#"<span class="mono">anthropic-messages::weird#&lt;&amp;&quot;'&gt;</span></summary>"#
    ));
    assert!(html.contains(r#"<code class="tag">old:&lt;b&gt;&amp;amp;:kept</code>"#));
    assert!(!html.contains(NASTY));
    assert!(html.contains(r#"<span class="add">+  &quot;name&quot;: &quot;t&quot;"#));
    assert!(html.contains(r#"<span class="del">-  &quot;pattern&quot;: &quot;^a&quot;"#));
    // Identical cases are counts only: no row, no details.
    assert!(!html.contains("o#plain"));
    for external in ["http://", "https://", "<link", "src="] {
        assert!(!html.contains(external), "index.html references {external}");
    }
}

#[test]
fn index_html_carries_diff_details_for_at_most_2000_cases_and_says_so() {
    let outcomes: Vec<CaseOutcome> = (0..=HTML_DIFF_LIMIT)
        .map(|i| case("openai-chat", &format!("c#{i:05}"), Class::Intended, &[]))
        .chain([case("openai-chat", "z#last", Class::Unexpected, &[])])
        .collect();
    let report = report_from(outcomes, Vec::new(), Vec::new());
    let html = index_html(&View::new(&report));
    assert_eq!(
        html.matches("<details class=\"case\"").count(),
        HTML_DIFF_LIMIT
    );
    assert!(html.contains("2002 divergent or failing cases: details are included for the first 2000 only (failures first)."));
    // The failure comes first even though it sorts last.
    assert!(html.contains(
        r#"<details class="case" id="d-0" data-lane="openai-chat" data-class="unexpected" data-failure>"#
    ));
    assert_eq!(html.matches("<tr data-lane=").count(), HTML_DIFF_LIMIT + 2);
}

#[test]
fn index_html_escapes_script_tags_and_quotes_in_tool_and_catalog_text() {
    let html = index_html(&View::new(&hostile_report()));
    let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;'";
    // The case name (tool name) in the table and in the details.
    assert!(
        html.contains(&format!(
            r##"<td class="case mono"><a href="#d-0">catalog.json#0-{escaped}</a></td>"##
        )),
        "{html}"
    );
    assert!(html.contains(&format!(
        r#"<span class="mono">openai-chat::catalog.json#0-{escaped}</span></summary>"#
    )));
    // Tags, ledger reasons (an attribute value), violations, details.
    assert!(html.contains(&format!(
        r#"<code class="tag">new:description:{escaped}</code>"#
    )));
    assert!(html.contains(&format!(
        r#"<span title="openai.toml#0: keeps {escaped}"><b>intended</b></span>"#
    )));
    assert!(html.contains(&format!("<pre>tool {escaped} changed twice</pre>")));
    assert!(html.contains(&format!(
        r#"<p class="muted">tool {escaped}: description rewritten</p>"#
    )));
    // The shaped tool's JSON (name and description) in the side and diff views.
    let json = r"&quot;&lt;script&gt;alert(1)&lt;/script&gt;\&quot;&amp;'&quot;";
    assert!(
        html.contains(&format!("  &quot;description&quot;: {json}\n")),
        "{html}"
    );
    assert!(html.contains(&format!(
        r#"<span class="ctx">   &quot;name&quot;: {json},"#
    )));
    // The unusable catalog file and its reason.
    assert!(html.contains(&format!(
        r#"<tr><td class="mono">catalogs/{escaped}.json</td><td>catalog {escaped}: expected value</td></tr>"#
    )));
    // Nothing raw: the page's own inline script is its only script element.
    assert!(!html.contains(HOSTILE));
    assert!(!html.contains("<script>alert"));
    assert_eq!(html.matches("<script>").count(), 1);
}
