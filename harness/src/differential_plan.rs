//! Planning a run: the corpus loaded (each catalog's tools parsed or
//! packed as it loads), the cases and the whole-request comparisons.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::{DiffOptions, Inputs, PlannedCase};
use crate::catalog::CorpusTool;
use crate::corpus::{CorpusEntry, scan_corpus_each};
use crate::error::LoadError;
use crate::lane::Lane;
use crate::ledger::{self, RunScope};
use crate::outcome::CasePlan;
use crate::prefix::{PlannedRequest, RequestPlan, ToolSource};

/// Load corpora and ledgers and build the (sharded) plan, every tool
/// parsed.
pub fn prepare(opts: &DiffOptions<'_>) -> Result<Inputs, LoadError> {
    prepare_with(opts, false)
}

/// [`prepare`], each catalog's tools packed as it loads and stored on disk
/// ([`CorpusTool::stored`]; packed in memory when no temporary file can be
/// made): what `run` does, so that memory holds one parsed catalog at a
/// time while loading and one tool per worker while running ([`execute`]
/// reads and parses a tool when its cases start).
pub fn prepare_packed(opts: &DiffOptions<'_>) -> Result<Inputs, LoadError> {
    prepare_with(opts, true)
}

/// A catalog as the plan keeps it: id, file, whether external, tools.
struct Planned {
    id: String,
    path: PathBuf,
    external: bool,
    tools: Vec<(String, CorpusTool)>,
}

fn prepare_with(opts: &DiffOptions<'_>, pack: bool) -> Result<Inputs, LoadError> {
    let mut catalogs: Vec<Planned> = Vec::new();
    let mut unusable = BTreeMap::new();
    // Packed tools wait on disk when a temporary file can be made.
    let spill = pack
        .then(crate::spill::Spill::new)
        .flatten()
        .map(std::sync::Arc::new);
    let keep = |mut c: crate::catalog::Catalog, external: bool| {
        let mut instances = std::mem::take(&mut c.instances).into_iter();
        let tools = std::mem::take(&mut c.tools)
            .into_iter()
            .map(|tool| {
                let known = instances.next().unwrap_or_default();
                let name = tool.name.clone();
                let entry = if let Some(spill) = &spill {
                    CorpusTool::stored(&tool, &known, spill)
                } else if pack {
                    CorpusTool::packed(&tool, &known)
                } else {
                    CorpusTool::parsed(tool, known)
                };
                (name, entry)
            })
            .collect();
        Planned {
            id: c.id,
            path: c.path,
            external,
            tools,
        }
    };
    let mut own_error = None;
    scan_corpus_each(&opts.own_corpus, &mut |entry| match entry {
        CorpusEntry::Loaded(c) => catalogs.push(keep(c, false)),
        CorpusEntry::Unusable {
            path,
            reason,
            error,
        } => {
            if reason.contains("not a .json or .jsonl file") {
                return;
            }
            // The catalog's own load error (`path:line:column: …`) when
            // it has one; otherwise `path: reason`.
            own_error.get_or_insert(error.unwrap_or(LoadError::Shape {
                path,
                line: 0,
                column: 0,
                message: reason,
            }));
        }
    });
    if let Some(e) = own_error {
        return Err(e);
    }
    scan_corpus_each(&opts.external_corpus, &mut |entry| match entry {
        CorpusEntry::Loaded(c) => catalogs.push(keep(c, true)),
        CorpusEntry::Unusable { path, reason, .. } => {
            unusable.insert(path.display().to_string(), reason);
        }
    });
    let ids = |external: bool| {
        catalogs
            .iter()
            .filter(|c| c.external == external)
            .map(|c| c.id.clone())
            .collect()
    };
    let scope = RunScope {
        own: ids(false),
        external: ids(true),
    };
    // Each tool is one shared entry for its lanes (and the whole
    // requests): nothing is copied per lane.
    let mut cases = Vec::new();
    for catalog in &catalogs {
        for (name, tool) in &catalog.tools {
            let case: std::sync::Arc<str> = format!("{}#{name}", catalog.id).into();
            for lane in &opts.lanes {
                cases.push(PlannedCase {
                    plan: CasePlan {
                        lane: *lane,
                        case: std::sync::Arc::clone(&case),
                    },
                    lane: *lane,
                    tool: tool.clone(),
                    external: catalog.external,
                    generated: false,
                    semantic_memo: None,
                });
            }
        }
    }
    if let Some(spec) = &opts.fuzz {
        let clash = format!("fuzz/{}", spec.seed);
        if let Some(c) = catalogs.iter().find(|c| c.id == clash) {
            return Err(LoadError::Shape {
                path: c.path.clone(),
                line: 0,
                column: 0,
                message: format!(
                    "catalog id `{clash}` clashes with the generated cases `{clash}#<i>` of `--seed {}`: rename the file or its directory",
                    spec.seed
                ),
            });
        }
        for (i, tool) in spec.tools().enumerate() {
            let tool = CorpusTool::parsed(tool, Vec::new());
            let case: std::sync::Arc<str> = spec.case_id(i).into();
            for lane in &opts.lanes {
                cases.push(PlannedCase {
                    plan: CasePlan {
                        lane: *lane,
                        case: std::sync::Arc::clone(&case),
                    },
                    lane: *lane,
                    tool: tool.clone(),
                    external: false,
                    generated: true,
                    semantic_memo: None,
                });
            }
        }
    }
    cases.sort_by(|a, b| a.plan.cmp(&b.plan));
    cases.dedup_by(|a, b| a.plan == b.plan);
    if let Some((k, n)) = opts.shard {
        cases = cases
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % n == k - 1)
            .map(|(_, c)| c)
            .collect();
    }
    let mut ledgers = BTreeMap::new();
    if let Some(dir) = &opts.ledger_dir {
        for lane in &opts.lanes {
            ledgers.insert(*lane, ledger::load_lane(dir, lane.id())?);
        }
    }
    let requests = plan_requests(&catalogs, &opts.lanes, &cases, opts.shard);
    Ok(Inputs {
        cases,
        unusable,
        scope,
        ledgers,
        requests,
    })
}

/// Every (lane, catalog with tools) request comparison, in (lane, catalog
/// id) order, this shard's share; each tool reuses its case when the case is
/// in `cases` (same tool), else is kept to be shaped with the request.
fn plan_requests(
    catalogs: &[Planned],
    lanes: &[Lane],
    cases: &[PlannedCase],
    shard: Option<(usize, usize)>,
) -> RequestPlan {
    let mut plan = RequestPlan {
        feeds: vec![None; cases.len()],
        ..RequestPlan::default()
    };
    let mut order: Vec<(Lane, &Planned)> = lanes
        .iter()
        .flat_map(|l| {
            catalogs
                .iter()
                .filter(|c| !c.tools.is_empty())
                .map(move |c| (*l, c))
        })
        .collect();
    // Stable: a catalog id loaded twice keeps its first catalog.
    order.sort_by(|a, b| (a.0.id(), &a.1.id).cmp(&(b.0.id(), &b.1.id)));
    order.dedup_by(|a, b| (a.0, &a.1.id) == (b.0, &b.1.id));
    for (j, (lane, catalog)) in order.into_iter().enumerate() {
        let (id, catalog_tools) = (catalog.id.as_str(), &catalog.tools);
        if shard.is_some_and(|(k, n)| j % n != k - 1) {
            continue;
        }
        let r = plan.requests.len();
        let mut tools = Vec::with_capacity(catalog_tools.len());
        for (pos, (name, tool)) in catalog_tools.iter().enumerate() {
            let key = CasePlan {
                lane,
                case: format!("{id}#{name}").into(),
            };
            let at = cases
                .binary_search_by(|c| c.plan.cmp(&key))
                .ok()
                .filter(|&at| plan.feeds[at].is_none() && cases[at].tool.same(tool));
            tools.push(match at {
                Some(at) => {
                    plan.feeds[at] = Some((r, pos));
                    ToolSource::Case(at)
                }
                None => ToolSource::Tool(tool.clone()),
            });
        }
        plan.requests.push(PlannedRequest {
            lane,
            catalog: id.to_owned(),
            tools,
        });
    }
    plan
}
