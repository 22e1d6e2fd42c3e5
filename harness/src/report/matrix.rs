//! The acceptance matrix on paper: `matrix.md` (also what the terminal
//! shows), `matrix.json`, and `index.html`, one self-contained page in the
//! run report's style. Written atomically as an `outdir::OutputDir` of
//! [`ReportKind::MATRIX`]. Every file is a pure function of the
//! [`Matrix`]: same recordings and rules, same bytes.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use maud::{DOCTYPE, Markup, html};

use super::files::ReportError;
use crate::matrix::{Cell, Matrix, State};
use crate::outdir::{OutputDir, ReportKind, Rotate, io_error};

const EXTRA_STYLE: &str = "td.cell{white-space:nowrap;font-size:12px}\
td.accepted{background:#e6f4ea}td.rejected{background:#fce8e6}\
td.documented{background:#fef7e0}td.unknown{color:var(--muted)}\
td.not-asked{color:var(--muted);opacity:.5}td.disagrees{outline:2px solid var(--unexpected)}\
table.acceptance th.lane{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap}";

/// The short text of a cell (markdown and the page).
pub(crate) fn cell_text(c: &Cell) -> String {
    let mut s = match c.state {
        State::Accepted => format!(
            "accepted {}{}",
            c.date.as_deref().unwrap_or(""),
            c.model
                .as_deref()
                .map(|m| format!(" ({m})"))
                .unwrap_or_default()
        ),
        State::Rejected => format!(
            "rejected: {} {}",
            c.rule.as_deref().unwrap_or("unattributed"),
            c.date.as_deref().unwrap_or("")
        ),
        State::Documented => format!("documented: {}", c.rule.as_deref().unwrap_or("")),
        State::Unknown => "unknown".to_owned(),
        State::NotAsked => "·".to_owned(),
    };
    if c.disagreement.is_some() {
        s.insert_str(0, "⚠ ");
    }
    s.trim_end().to_owned()
}

/// `matrix.md`.
pub(crate) fn markdown(m: &Matrix) -> String {
    let mut out = String::new();
    let t = &m.totals;
    let _ = writeln!(out, "# Acceptance matrix\n");
    let _ = writeln!(
        out,
        "{} constructs × {} lanes, rules as of {}: {} accepted, {} rejected, {} documented only, {} unknown, {} not asked; **{} disagreement{}** between a probe and the oracle.\n",
        m.rows.len(),
        m.lanes.len(),
        m.as_of,
        t.accepted,
        t.rejected,
        t.documented,
        t.unknown,
        t.not_asked,
        t.disagreements,
        if t.disagreements == 1 { "" } else { "s" }
    );
    out.push_str("| construct |");
    for l in &m.lanes {
        let _ = write!(out, " {} |", l.id());
    }
    out.push_str("\n|---|");
    for _ in &m.lanes {
        out.push_str("---|");
    }
    out.push('\n');
    for row in &m.rows {
        let _ = write!(out, "| `{}` |", row.construct);
        for c in &row.cells {
            let _ = write!(out, " {} |", cell_text(c).replace('|', "\\|"));
        }
        out.push('\n');
    }
    let disagreements: Vec<_> = m
        .rows
        .iter()
        .flat_map(|r| {
            r.cells
                .iter()
                .zip(&m.lanes)
                .filter_map(move |(c, l)| c.disagreement.as_ref().map(|d| (r, l, c, d)))
        })
        .collect();
    if !disagreements.is_empty() {
        out.push_str("\n## Disagreements\n\nA probe's answer the oracle does not reproduce: `wireshape replay` fails until the rule's dated history agrees.\n\n");
        for (r, l, c, d) in disagreements {
            let _ = writeln!(
                out,
                "- `{}` on `{}` ({}): {}",
                r.construct,
                l.id(),
                c.recording.as_deref().unwrap_or("no recording"),
                d.replace('\n', " ")
            );
        }
    }
    out.push_str("\nCells: accepted (a live probe saw a 2xx: date, model) · rejected (a recording shows it: rule, date) · documented (only a documentation-based rule rejects it) · unknown (no evidence either way) · `·` not asked on this lane · ⚠ a probe disagrees with the oracle.\n");
    out
}

fn page(m: &Matrix) -> Markup {
    let t = &m.totals;
    html! {
        (DOCTYPE)
        html lang="en" {
            (super::html::page_head("wireshape acceptance matrix", EXTRA_STYLE))
            body {
                header class="top" {
                    h1 { "wireshape acceptance matrix" }
                    @if t.disagreements > 0 {
                        span class="verdict fail" { (t.disagreements) " disagreements" }
                    } @else {
                        span class="verdict clean" { "probes agree with the oracles" }
                    }
                }
                main {
                    div class="stats" {
                        @for (label, n) in [("accepted", t.accepted), ("rejected", t.rejected), ("documented only", t.documented), ("unknown", t.unknown), ("not asked", t.not_asked)] {
                            div class="stat" { b { (n) } span { (label) } }
                        }
                    }
                    section {
                        h2 { "Constructs × lanes " span class="n" { "(rules as of " (m.as_of) ")" } }
                        table class="acceptance" {
                            thead { tr {
                                th { "construct" }
                                @for l in &m.lanes { th class="lane" { (l.id()) } }
                            } }
                            tbody {
                                @for row in &m.rows {
                                    tr {
                                        td title=(row.asks) { code { (row.construct) } }
                                        @for c in &row.cells {
                                            @let class = format!("cell {}{}", c.state.id(), if c.disagreement.is_some() { " disagrees" } else { "" });
                                            td class=(class) title=(tooltip(c)) { (cell_text(c)) }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                footer {
                    "Generated by wireshape matrix; the same data: " code { "matrix.md" } ", " code { "matrix.json" } "."
                }
            }
        }
    }
}

/// The cell's details on hover.
fn tooltip(c: &Cell) -> String {
    [
        c.message.as_deref(),
        c.recording.as_deref(),
        c.disagreement.as_deref(),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join("\n")
}

/// Write `matrix.md`, `matrix.json` and `index.html` into `dir` at once.
pub(crate) fn write_matrix(dir: &Path, m: &Matrix) -> Result<PathBuf, ReportError> {
    let out = OutputDir::create(dir, ReportKind::MATRIX, Rotate::Discard)?;
    let mut json = serde_json::to_string_pretty(m).unwrap_or_default();
    json.push('\n');
    let mut html = page(m).into_string();
    html.push('\n');
    for (name, text) in [
        ("matrix.md", markdown(m)),
        ("matrix.json", json),
        ("index.html", html),
    ] {
        let path = out.tmp().join(name);
        fs::write(&path, text).map_err(io_error(&path, "write"))?;
    }
    Ok(out.commit()?)
}
