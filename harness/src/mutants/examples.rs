//! Pass and pipeline examples: the inputs (`corpus/pass-examples/*.json`),
//! their accepted outputs (insta snapshots), running them through a pass or
//! a whole pass list, and finding the first one that does not hold.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::degradation::Action;
use crate::error::LoadError;
use crate::lane::Lane;
use crate::passes::{Cx, Pass, Step};
#[cfg(test)]
use crate::pipeline::{PassList, Profile};
use crate::pipeline::{Pipeline, PipelineConfig};
use crate::tool::Tool;

/// One recorded degradation of an example, without the tool and lane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExampleRecord {
    pub path: String,
    pub keyword: String,
    pub action: Action,
    pub reason: String,
}

/// What one pass makes of one example input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExampleResult {
    /// `continue` or `fail-closed`.
    pub step: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub tool: Tool,
    #[serde(default)]
    pub records: Vec<ExampleRecord>,
}

/// One example of a pass (or of a lane's whole pass list): an input tool.
/// What the pass makes of it (bytes, records, step) is not written here:
/// it is the accepted insta snapshot of the file (see [`snapshot_file`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PassExample {
    pub name: String,
    pub lane: Lane,
    #[serde(default, skip_serializing_if = "is_default_config")]
    pub config: PipelineConfig,
    pub input: Tool,
    /// The accepted output, from the file's snapshot; `None` when the
    /// snapshot is missing or does not name this example (the example then
    /// fails: accept it with `cargo insta review`).
    #[serde(skip)]
    pub expect: Option<ExampleResult>,
}

fn is_default_config(c: &PipelineConfig) -> bool {
    c == &PipelineConfig::default()
}

/// `corpus/pass-examples/<pass>.json`: the inputs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExampleFile {
    pub pass: String,
    pub examples: Vec<PassExample>,
}

/// One entry of a snapshot's body: an example's name and its accepted
/// output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExpectedExample {
    pub name: String,
    pub expect: ExampleResult,
}

/// The insta snapshot name of the example files (`insta::glob!` adds the
/// input file name as the suffix).
pub(crate) const SNAPSHOT_NAME: &str = "pass-examples";

/// The snapshot holding the accepted outputs of the example file
/// `file_name` (e.g. `normalize.json`): `<dir>/pass-examples@normalize.json.snap`.
pub(crate) fn snapshot_file(dir: &Path, file_name: &str) -> PathBuf {
    dir.join(format!("{SNAPSHOT_NAME}@{file_name}.snap"))
}

/// What the pass (or, for `v1/<lane>` files, the lane's v1 pass list with
/// `config`) makes of every example of `file`: the body of its snapshot,
/// as pretty JSON.
#[cfg(test)]
pub(crate) fn expected_text(file: &ExampleFile, config: &PipelineConfig) -> String {
    let got: Vec<ExpectedExample> = file
        .examples
        .iter()
        .map(|ex| ExpectedExample {
            name: ex.name.clone(),
            expect: if let Some(lane) = file.pass.strip_prefix("v1/") {
                let lane = Lane::parse(lane).unwrap_or(Lane::OpenaiChat);
                let v1 = PassList {
                    id: Profile::V1.id().to_owned(),
                    base: Profile::V1,
                    lane,
                    passes: Profile::V1.passes(lane),
                    config: config.clone(),
                };
                run_pipeline_example(&v1, ex)
            } else {
                let pass = Lane::ALL
                    .iter()
                    .flat_map(|l| Profile::V1.passes(*l))
                    .find(|p| p.name() == file.pass);
                run_example(pass.as_deref(), ex)
            },
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&got).unwrap_or_default();
    text.push('\n');
    text
}

/// The body of an insta snapshot file (after its `---` header) and the
/// number of lines before it.
pub(super) fn snapshot_body(text: &str) -> Option<(usize, &str)> {
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---\n")?;
    let header = rest[..end].matches('\n').count() + 3;
    Some((header, &rest[end + 5..]))
}

/// The accepted outputs of a snapshot file, by example name (a missing
/// file: none).
pub(super) fn load_expected(path: &Path) -> Result<BTreeMap<String, ExampleResult>, LoadError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(source) => {
            return Err(LoadError::Io {
                path: path.to_owned(),
                source,
            });
        }
    };
    let (header, body) = snapshot_body(&text).ok_or_else(|| LoadError::Shape {
        path: path.to_owned(),
        line: 1,
        column: 1,
        message: "not an insta snapshot (no `---` header)".to_owned(),
    })?;
    let entries: Vec<ExpectedExample> =
        serde_json::from_str(body).map_err(|e| LoadError::from_json(path, &e).shifted(header))?;
    Ok(entries.into_iter().map(|e| (e.name, e.expect)).collect())
}

/// Load every `*.json` example file of `dir` (a missing dir: none), by
/// pass, each example with its accepted output from the file's snapshot in
/// `snapshots`.
pub(crate) fn load_examples(
    dir: &Path,
    snapshots: &Path,
) -> Result<BTreeMap<String, Vec<PassExample>>, LoadError> {
    let mut out: BTreeMap<String, Vec<PassExample>> = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(out);
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).map_err(|source| LoadError::Io {
            path: path.clone(),
            source,
        })?;
        let mut file: ExampleFile =
            serde_json::from_str(&text).map_err(|e| LoadError::from_json(&path, &e))?;
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut expected = load_expected(&snapshot_file(snapshots, &file_name))?;
        for ex in &mut file.examples {
            ex.expect = expected.remove(&ex.name);
        }
        out.entry(file.pass).or_default().extend(file.examples);
    }
    Ok(out)
}

/// Run one example through `pass` (`None`: the pass is switched off).
pub(crate) fn run_example(pass: Option<&dyn Pass>, ex: &PassExample) -> ExampleResult {
    let lane = ex.lane;
    let mut tool = ex.input.clone();
    let mut cx = Cx::new(lane, &ex.config, &tool.name);
    let step = match pass {
        None => Ok(Step::Continue),
        Some(p) => {
            cx.enter(p);
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| p.apply(&mut tool, &mut cx)))
                .unwrap_or_else(|_| Ok(Step::FailClosed("panic".to_owned())))
        }
    };
    let (step, reason) = match step {
        Ok(Step::Continue) => ("continue", None),
        Ok(Step::FailClosed(r)) => ("fail-closed", Some(r)),
        Err(deep) => ("too-deep", Some(deep.to_string())),
    };
    ExampleResult {
        step: step.to_owned(),
        reason,
        tool,
        records: cx
            .degradations
            .into_iter()
            .map(|d| ExampleRecord {
                path: d.path,
                keyword: d.keyword,
                action: d.action,
                reason: d.reason.into_owned(),
            })
            .collect(),
    }
}

/// Run one example through a whole pipeline (on the example's lane).
pub(crate) fn run_pipeline_example(pipeline: &dyn Pipeline, ex: &PassExample) -> ExampleResult {
    let lane = ex.lane;
    let shaped = pipeline.shape(lane, &ex.input);
    let step = shaped.outcome.id().to_owned();
    let reason = match shaped.outcome {
        crate::pipeline::Outcome::Shaped => None,
        crate::pipeline::Outcome::FailedClosed { reason } => Some(reason),
        crate::pipeline::Outcome::Errored { message } => Some(message),
    };
    ExampleResult {
        step,
        reason,
        tool: shaped.tool,
        records: shaped
            .degradations
            .into_iter()
            .map(|d| ExampleRecord {
                path: d.path,
                keyword: d.keyword,
                action: d.action,
                reason: d.reason.into_owned(),
            })
            .collect(),
    }
}

/// The first example of `examples` that `run` does not reproduce.
pub(super) fn failing_example(
    examples: &[PassExample],
    run: impl Fn(&PassExample) -> ExampleResult,
) -> Option<&PassExample> {
    examples.iter().find(|ex| {
        let got = run(ex);
        ex.expect.as_ref().is_none_or(|want| {
            // Byte-exact: key order of the tool is part of the verdict.
            serde_json::to_string(want).ok() != serde_json::to_string(&got).ok()
        })
    })
}

/// Why a baseline example fails.
pub(super) fn example_problem(ex: &PassExample) -> String {
    if ex.expect.is_none() {
        format!(
            "example {:?} has no accepted snapshot (run `cargo insta review`)",
            ex.name
        )
    } else {
        format!(
            "example {:?} does not hold (its accepted snapshot differs)",
            ex.name
        )
    }
}
