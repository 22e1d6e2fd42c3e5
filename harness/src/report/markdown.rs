//! `summary.md`: the run for humans, in Markdown: the verdict, the lane ×
//! class matrix, the oracle's and the semantic tables, and the first
//! entries of every failure section (the rest are in the other files).

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use super::files::{DIVERGENCES_JSONL, FAILURES_TXT, OUTCOMES_JSON, VIOLATIONS_TXT};
use super::view::{View, clip, exit_code_meaning, first_line, plural, side_details, sorted_refs};
use crate::generate::FuzzSpec;
use crate::outcome::{Class, Rejected, RequestClass, RequestCounts};
use crate::semantic::SemanticClass;
use crate::verdict::Verdict;

/// `summary.md` lists at most this many entries per section.
const SUMMARY_LIST_LIMIT: usize = 50;
/// `summary.md` lists at most this many unusable corpus files.
const SUMMARY_UNUSABLE_LIMIT: usize = 10;

/// Markdown inline text: punctuation that could start markup is
/// backslash-escaped, newlines become spaces.
pub(super) struct Md<'a>(pub(super) &'a str);

impl fmt::Display for Md<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            match c {
                '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '&' | '|' | '~' => {
                    f.write_char('\\')?;
                    f.write_char(c)?;
                }
                '\n' | '\r' => f.write_char(' ')?,
                c => f.write_char(c)?,
            }
        }
        Ok(())
    }
}

/// A Markdown code span that shows its text literally, whatever it contains
/// (the fence is longer than any run of backticks inside).
pub(super) struct Code<'a>(pub(super) &'a str);

impl fmt::Display for Code<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        let mut longest = 0;
        let mut run = 0;
        for c in s.chars() {
            run = if c == '`' { run + 1 } else { 0 };
            longest = longest.max(run);
        }
        let fence = "`".repeat(longest + 1);
        let pad = s.starts_with('`')
            || s.ends_with('`')
            || (s.starts_with(' ') && s.ends_with(' ') && !s.trim().is_empty());
        let pad = if pad { " " } else { "" };
        f.write_str(&fence)?;
        f.write_str(pad)?;
        for c in s.chars() {
            f.write_char(if c == '\n' || c == '\r' { ' ' } else { c })?;
        }
        f.write_str(pad)?;
        f.write_str(&fence)
    }
}

pub(super) fn summary_md(view: &View<'_>) -> String {
    let mut out = String::new();
    write_summary_md(&mut out, view).expect("formatting into a String cannot fail");
    out
}

fn write_more(out: &mut String, shown: usize, total: usize, file: &str) -> fmt::Result {
    if total > shown {
        writeln!(out, "- … and {} more (see `{file}`)", total - shown)?;
    }
    Ok(())
}

fn write_summary_md(out: &mut String, view: &View<'_>) -> fmt::Result {
    let r = view.report;
    writeln!(out, "# wireshape: {} → {}", Md(&r.old), Md(&r.new))?;
    writeln!(out)?;
    let scope = format!(
        "{} on {}",
        plural(view.tally.cases, "case", "cases"),
        plural(view.lanes.len(), "lane", "lanes")
    );
    if view.failures() == 0 {
        write!(out, "**clean**: {scope}")?;
    } else {
        let mut parts = Vec::new();
        if view.failing > 0 {
            parts.push(plural(view.failing, "failing case", "failing cases"));
        }
        if view.failing_requests > 0 {
            parts.push(plural(
                view.failing_requests,
                "failing request",
                "failing requests",
            ));
        }
        if !view.unused.is_empty() {
            parts.push(plural(
                view.unused.len(),
                "unused ledger entry",
                "unused ledger entries",
            ));
        }
        write!(
            out,
            "**{}** ({}) in {scope}",
            plural(view.failures(), "failure", "failures"),
            parts.join(", ")
        )?;
    }
    if !view.stale.is_empty() {
        write!(
            out,
            "; {} (warning)",
            plural(
                view.stale.len(),
                "stale ledger entry",
                "stale ledger entries"
            )
        )?;
    }
    writeln!(out)?;
    writeln!(out)?;
    if let Some(fuzz) = &r.fuzz {
        write_fuzz_md(out, view, fuzz)?;
    }
    if r.summary.fixes + r.summary.regressions > 0 {
        writeln!(
            out,
            "Oracle: {} (old output rejected by the provider's oracle, new accepted), {} (old accepted, new rejected).",
            plural(r.summary.fixes, "fix", "fixes"),
            plural(r.summary.regressions, "regression", "regressions")
        )?;
        writeln!(out)?;
    }

    write!(out, "| lane |")?;
    for c in Class::ALL {
        write!(out, " {} |", c.id())?;
    }
    writeln!(out, " total |")?;
    write!(out, "|:---|")?;
    for _ in Class::ALL {
        write!(out, "---:|")?;
    }
    writeln!(out, "---:|")?;
    for (lane, counts) in &view.lanes {
        write!(out, "| {} |", Md(lane))?;
        for n in counts {
            write!(out, " {n} |")?;
        }
        writeln!(out, " {} |", counts.iter().sum::<usize>())?;
    }
    write!(out, "| **total** |")?;
    for &c in Class::ALL {
        write!(out, " {} |", view.class_total(c))?;
    }
    writeln!(out, " {} |", view.tally.cases)?;
    write_rejected_md(out, view)?;
    write_semantic_md(out, view)?;

    let unexpected: Vec<_> = view
        .tally
        .failing
        .iter()
        .filter(|o| o.class == Class::Unexpected)
        .collect();
    if !unexpected.is_empty() {
        writeln!(out, "\n## Unexpected divergences ({})\n", unexpected.len())?;
        for o in unexpected.iter().take(SUMMARY_LIST_LIMIT) {
            write!(out, "- {}", Code(&o.key()))?;
            for (i, tag) in o.tags.iter().enumerate() {
                write!(out, "{}{}", if i == 0 { ": " } else { ", " }, Code(tag))?;
            }
            writeln!(out)?;
        }
        write_more(out, SUMMARY_LIST_LIMIT, unexpected.len(), "unexpected.txt")?;
    }

    let errored: Vec<_> = view
        .tally
        .failing
        .iter()
        .filter(|o| o.class == Class::Errored)
        .collect();
    if !errored.is_empty() {
        writeln!(out, "\n## Errored ({})\n", errored.len())?;
        for o in errored.iter().take(SUMMARY_LIST_LIMIT) {
            write!(out, "- {}", Code(&o.key()))?;
            let details = side_details(o);
            if !details.is_empty() {
                write!(out, ": {}", Md(&details.join("; ")))?;
            }
            writeln!(out)?;
        }
        write_more(out, SUMMARY_LIST_LIMIT, errored.len(), "errored.txt")?;
    }

    if view.violations > 0 {
        writeln!(out, "\n## Invariant violations ({})\n", view.violations)?;
        let all = view
            .tally
            .failing
            .iter()
            .flat_map(|o| sorted_refs(&o.violations).into_iter().map(move |v| (o, v)));
        for (o, v) in all.take(SUMMARY_LIST_LIMIT) {
            writeln!(
                out,
                "- {} {} ({}): {}",
                Code(&o.key()),
                Md(v.invariant.id()),
                Code(&v.pipeline),
                Md(first_line(&v.message))
            )?;
        }
        write_more(out, SUMMARY_LIST_LIMIT, view.violations, VIOLATIONS_TXT)?;
    }

    let broken: Vec<_> = view
        .tally
        .failing
        .iter()
        .flat_map(|o| o.pin_breaks.iter().map(move |b| (o, b)))
        .collect();
    if !broken.is_empty() {
        writeln!(out, "\n## Broken pins ({})\n", broken.len())?;
        for (o, b) in broken.iter().take(SUMMARY_LIST_LIMIT) {
            writeln!(out, "- {}: {}", Code(&o.key()), Md(&b.message))?;
        }
        write_more(out, SUMMARY_LIST_LIMIT, broken.len(), FAILURES_TXT)?;
    }

    write_requests_md(out, view)?;

    let ledger = view.unused.len() + view.stale.len();
    if ledger > 0 {
        writeln!(out, "\n## Ledger ({ledger})\n")?;
        let labelled = view
            .unused
            .iter()
            .map(|i| ("unused (fails the run)", *i))
            .chain(view.stale.iter().map(|i| ("stale (warning)", *i)));
        for (label, i) in labelled.take(SUMMARY_LIST_LIMIT) {
            writeln!(
                out,
                "- {label}: {} ({}): {}",
                Code(&format!("{}#{}", i.file, i.index)),
                Md(&i.class),
                Md(first_line(&i.message))
            )?;
        }
        write_more(out, SUMMARY_LIST_LIMIT, ledger, DIVERGENCES_JSONL)?;
    }

    if !r.unusable.is_empty() {
        writeln!(out, "\n## Unusable corpus files ({})\n", r.unusable.len())?;
        for (path, reason) in r.unusable.iter().take(SUMMARY_UNUSABLE_LIMIT) {
            writeln!(out, "- {}: {}", Code(path), Md(first_line(reason)))?;
        }
        write_more(
            out,
            SUMMARY_UNUSABLE_LIMIT,
            r.unusable.len(),
            DIVERGENCES_JSONL,
        )?;
    }

    writeln!(
        out,
        "\n---\n\nExit code {}: {}. Details: `index.html`, `junit.xml`, `divergences.jsonl` and \
         one `*.txt` list per class in the report directory.",
        view.exit_code(),
        exit_code_meaning(view.exit_code())
    )
}

/// The generated cases: how many, the seed, how to plan them again, and
/// how many of them fail.
fn write_fuzz_md(out: &mut String, view: &View<'_>, fuzz: &FuzzSpec) -> fmt::Result {
    let prefix = format!("fuzz/{}#", fuzz.seed);
    let failing = view
        .tally
        .failing
        .iter()
        .filter(|o| o.case.starts_with(&prefix) && o.is_failure())
        .count();
    writeln!(
        out,
        "fuzz: {}, seed {} (reproduce: {}, plus `--lanes <lane>` for one lane); {} among them.",
        plural(fuzz.count, "generated schema", "generated schemas"),
        fuzz.seed,
        Code(&fuzz.command(&view.report.old, &view.report.new)),
        plural(failing, "failing case", "failing cases"),
    )?;
    writeln!(out)
}

/// How many requests differing only inside judged tools `summary.md` shows.
const SUMMARY_INSIDE_TOOLS_LIMIT: usize = 10;

/// The whole-request comparison per lane, the failures with where they
/// are, and the first requests that differ only inside judged tools.
fn write_requests_md(out: &mut String, view: &View<'_>) -> fmt::Result {
    if view.requests.is_empty() {
        return Ok(());
    }
    let counts = &view.report.summary.requests;
    writeln!(out, "\n## Requests\n")?;
    writeln!(
        out,
        "Whole requests per catalog (tools in catalog order, `tool_choice`, `response_format`), \
         an ordinary `turn` and a compaction `summary`, old vs new: the prompt-cache prefix is \
         the request. A difference inside a tool is judged by that tool's case, not counted \
         again.\n"
    )?;
    writeln!(
        out,
        "| lane | compared | identical | inside judged tools | recorded member change | failures |"
    )?;
    writeln!(out, "|:---|---:|---:|---:|---:|---:|")?;
    let mut total = RequestCounts::default();
    for (lane, c) in counts {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            Md(lane.id()),
            c.compared,
            c.identical,
            c.inside_tools,
            c.recorded,
            c.failures
        )?;
        total += c;
    }
    writeln!(
        out,
        "| **total** | {} | {} | {} | {} | {} |",
        total.compared, total.identical, total.inside_tools, total.recorded, total.failures
    )?;
    let failing: Vec<_> = view.requests.iter().filter(|r| r.is_failure()).collect();
    if !failing.is_empty() {
        writeln!(out, "\n### Failing requests ({})\n", failing.len())?;
        for r in failing.iter().take(SUMMARY_LIST_LIMIT) {
            for i in &r.issues {
                writeln!(
                    out,
                    "- {} ({}): {}",
                    Code(&r.key()),
                    i.class.id(),
                    Md(&i.message)
                )?;
            }
        }
        write_more(out, SUMMARY_LIST_LIMIT, failing.len(), FAILURES_TXT)?;
    }
    let inside: Vec<_> = view
        .requests
        .iter()
        .filter(|r| r.class == RequestClass::InsideTools)
        .collect();
    if !inside.is_empty() {
        writeln!(out, "\nDiffering inside judged tools ({}):\n", inside.len())?;
        for r in inside.iter().take(SUMMARY_INSIDE_TOOLS_LIMIT) {
            if let Some(d) = &r.difference {
                writeln!(
                    out,
                    "- {}: differs at {}, judged by its tool case",
                    Code(&r.key()),
                    Md(&d.describe())
                )?;
            }
        }
        write_more(out, SUMMARY_INSIDE_TOOLS_LIMIT, inside.len(), OUTCOMES_JSON)?;
    }
    Ok(())
}

/// The oracle's verdicts per lane, and the undeclared rejections.
fn write_rejected_md(out: &mut String, view: &View<'_>) -> fmt::Result {
    let rejected = &view.report.summary.rejected;
    writeln!(
        out,
        "\nOutputs the lane's oracle rejects (one rejected tool takes the whole request down; \
         a new one fails the run unless a `[[rejection]]` ledger entry declares it):\n"
    )?;
    writeln!(
        out,
        "| lane | old rejected | new rejected | declared | undeclared |"
    )?;
    writeln!(out, "|:---|---:|---:|---:|---:|")?;
    let mut total = Rejected::default();
    for (lane, r) in rejected {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            Md(lane.id()),
            r.old,
            r.new,
            r.declared,
            r.new - r.declared
        )?;
        total.old += r.old;
        total.new += r.new;
        total.declared += r.declared;
    }
    writeln!(
        out,
        "| **total** | {} | {} | {} | {} |",
        total.old,
        total.new,
        total.declared,
        total.new - total.declared
    )?;
    let undeclared: Vec<_> = view
        .tally
        .failing
        .iter()
        .filter(|o| o.undeclared_rejection())
        .collect();
    if !undeclared.is_empty() {
        writeln!(out, "\n## Rejected new outputs ({})\n", undeclared.len())?;
        for o in undeclared.iter().take(SUMMARY_LIST_LIMIT) {
            writeln!(
                out,
                "- {} ({}, {}): {}",
                Code(&o.key()),
                o.verdict.map_or("", Verdict::id),
                Md(o.new.outcome.id()),
                o.new
                    .rejected_by
                    .iter()
                    .map(|r| Code(r).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )?;
        }
        write_more(out, SUMMARY_LIST_LIMIT, undeclared.len(), "failures.txt")?;
    }
    Ok(())
}

/// What each output lets the model send against the author's schema, per
/// lane (old and new), and the new narrowings and silent widenings no
/// ledger entry declares.
fn write_semantic_md(out: &mut String, view: &View<'_>) -> fmt::Result {
    let semantic = &view.report.summary.semantic;
    if semantic.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "\nSemantic classes on instances of the author's schema (old → new; a narrowing of a \
         shaped tool or a silent widening fails the run unless a `[[narrowing]]`/`[[widening]]` \
         ledger entry declares it):\n"
    )?;
    writeln!(
        out,
        "| lane | preserved | widened | silent | narrowed | unjudged | declared | undeclared |"
    )?;
    writeln!(out, "|:---|---:|---:|---:|---:|---:|---:|---:|")?;
    let n = |m: &BTreeMap<String, usize>, c: SemanticClass| m.get(c.id()).copied().unwrap_or(0);
    for (lane, c) in semantic {
        writeln!(
            out,
            "| {} | {} → {} | {} → {} | {} | {} → {} | {} → {} | {} | {} |",
            Md(lane.id()),
            n(&c.old, SemanticClass::Preserved),
            n(&c.new, SemanticClass::Preserved),
            n(&c.old, SemanticClass::Widened),
            n(&c.new, SemanticClass::Widened),
            c.new_silent,
            n(&c.old, SemanticClass::Narrowed),
            n(&c.new, SemanticClass::Narrowed),
            n(&c.old, SemanticClass::Unjudged),
            n(&c.new, SemanticClass::Unjudged),
            c.new_declared,
            c.new_undeclared,
        )?;
    }
    let undeclared: Vec<_> = view
        .tally
        .failing
        .iter()
        .filter_map(|o| o.undeclared_semantic().map(|c| (o, c)))
        .collect();
    if !undeclared.is_empty() {
        writeln!(
            out,
            "\n## Undeclared changes of meaning ({})\n",
            undeclared.len()
        )?;
        for (o, class) in undeclared.iter().take(SUMMARY_LIST_LIMIT) {
            let s = o.new.semantic.as_ref();
            let witness = s.and_then(|s| match class {
                SemanticClass::Narrowed => s.narrowed.as_ref(),
                _ => s.widened.as_ref(),
            });
            let kinds = s.map_or_else(String::new, |s| {
                s.narrowed_kinds
                    .iter()
                    .map(|k| k.id())
                    .collect::<Vec<_>>()
                    .join(", ")
            });
            writeln!(
                out,
                "- {} ({}{}{}): witness {}",
                Code(&o.key()),
                class.id(),
                if kinds.is_empty() { "" } else { ": " },
                Md(&kinds),
                Code(&witness.map_or_else(String::new, |w| clip(&w.to_string(), 200)))
            )?;
        }
        write_more(out, SUMMARY_LIST_LIMIT, undeclared.len(), "failures.txt")?;
    }
    Ok(())
}
