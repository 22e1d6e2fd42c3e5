//! Planning a run: the corpus loaded (each catalog's tools parsed or
//! packed as it loads), the planned tools and the whole-request
//! comparisons.
//!
//! The plan is held per tool, not per case: a tool's cases are its lanes
//! in this run (one bit each), and a catalog's tools are listed once for
//! the requests of every lane. What the plan holds grows with the
//! corpus's tools, not with tools × lanes (at 15 lanes a case cost the
//! plan about 180 bytes; a tool costs it a few hundred, counted from the
//! types).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use super::{DiffOptions, PlannedCase};
use crate::catalog::CorpusTool;
use crate::corpus::{CorpusEntry, scan_corpus_each};
use crate::error::LoadError;
use crate::lane::Lane;
use crate::ledger::{self, LaneLedger, RunScope};
use crate::outcome::{CasePlan, Plan};

// A tool's lanes are bits of a `u64`.
const _: () = assert!(Lane::ALL.len() <= 64);

/// One planned tool: its cases are the tool on each of its lanes.
#[derive(Debug, Clone)]
pub struct PlannedTool {
    /// `<catalog>#<tool>` (or a generated tool's `fuzz/<seed>#<i>`): one
    /// allocation for its cases on every lane, the report's too.
    pub case: Arc<str>,
    /// The tool and the instances the corpus gives for it with their
    /// expected verdict (for the semantic judgement), shared by its cases.
    pub tool: CorpusTool,
    pub external: bool,
    /// From the generator (`--fuzz`): neither own nor external, and its
    /// ledger matches do not count toward an entry's use.
    pub generated: bool,
    /// Its lanes in this run (this shard's share): bit `j` is
    /// [`Inputs::lanes`]`[j]`.
    on: u64,
    /// The (catalog, position) of [`RequestPlan::catalogs`] whose tool it
    /// is: its outputs feed that catalog's requests on its lanes.
    home: Option<(usize, usize)>,
}

impl PlannedTool {
    /// The tool's case on `lane`.
    pub(crate) fn case_on(&self, lane: Lane) -> PlannedCase {
        self.key().case_on(lane, &self.tool)
    }

    /// What the requests read of it.
    pub(crate) fn key(&self) -> ToolKey {
        ToolKey {
            case: Arc::clone(&self.case),
            on: self.on,
            home: self.home,
            external: self.external,
            generated: self.generated,
        }
    }

    /// Its key and its tool, apart: a run keeps the key of every tool and
    /// each tool only until its cases run.
    pub(crate) fn into_parts(self) -> (ToolKey, CorpusTool) {
        let key = self.key();
        (key, self.tool)
    }
}

/// A planned tool's case key, lanes, place in its catalog and origin:
/// what a run keeps of it once the tool itself is dropped (its cases are
/// made from the key and the tool).
pub(crate) struct ToolKey {
    pub(crate) case: Arc<str>,
    on: u64,
    home: Option<(usize, usize)>,
    pub(crate) external: bool,
    pub(crate) generated: bool,
}

impl ToolKey {
    /// The case of this key's tool `tool` on `lane`.
    pub(crate) fn case_on(&self, lane: Lane, tool: &CorpusTool) -> PlannedCase {
        PlannedCase {
            plan: CasePlan {
                lane,
                case: Arc::clone(&self.case),
            },
            lane,
            tool: tool.clone(),
            external: self.external,
            generated: self.generated,
            semantic_memo: None,
        }
    }

    /// Whether it has a case on the lane of bit `bit`.
    pub(crate) fn on(&self, bit: u64) -> bool {
        self.on & bit != 0
    }

    /// The (catalog, position) of [`RequestPlan::catalogs`] its outputs feed.
    pub(crate) fn home(&self) -> Option<(usize, usize)> {
        self.home
    }
}

/// The loaded inputs of a run.
pub struct Inputs {
    /// The run's lanes, sorted by id, each once.
    pub lanes: Vec<Lane>,
    /// The planned tools, sorted by case, each case once (the first loaded
    /// of a duplicate); only tools with a case in this shard.
    pub tools: Vec<PlannedTool>,
    pub unusable: BTreeMap<String, String>,
    /// The own and external catalogs loaded: which ledger entries the run judges.
    pub scope: RunScope,
    pub ledgers: BTreeMap<Lane, LaneLedger>,
    /// Whole-request comparisons (this shard's share).
    pub requests: RequestPlan,
}

impl Inputs {
    /// The bit of `lane` in [`PlannedTool`]'s lanes (0: not a lane of the run).
    pub(crate) fn bit(&self, lane: Lane) -> u64 {
        self.lanes.binary_search(&lane).map_or(0, |j| 1 << j)
    }

    /// How many cases the run has.
    pub fn case_count(&self) -> usize {
        self.tools.iter().map(|t| t.on.count_ones() as usize).sum()
    }

    /// Every case, in (lane, case) order (the order plans sort in).
    pub fn cases(&self) -> Vec<PlannedCase> {
        let mut out = Vec::with_capacity(self.case_count());
        for (j, lane) in self.lanes.iter().enumerate() {
            let on = self.tools.iter().filter(|t| t.on & (1 << j) != 0);
            out.extend(on.map(|t| t.case_on(*lane)));
        }
        out
    }

    /// The run's plan: its name for each tool, once (not once per lane).
    pub fn plan(&self) -> Plan {
        // The lanes with a case; a tool on each of them is on every lane.
        let all = self.tools.iter().fold(0, |all, t| all | t.on);
        let mut plan = Plan {
            lanes: self.lanes_on(all).collect(),
            ..Plan::default()
        };
        for t in &self.tools {
            if t.on == all {
                plan.every.push(Arc::clone(&t.case));
            } else {
                for lane in self.lanes_on(t.on) {
                    plan.only.entry(lane).or_default().push(Arc::clone(&t.case));
                }
            }
        }
        plan
    }

    /// The lanes of the bits of `on`, in order.
    fn lanes_on(&self, on: u64) -> impl Iterator<Item = Lane> + '_ {
        self.lanes
            .iter()
            .enumerate()
            .filter(move |(j, _)| on & (1 << j) != 0)
            .map(|(_, lane)| *lane)
    }
}

/// One tool of a catalog's requests.
#[derive(Debug, Clone)]
pub(crate) struct CatalogTool {
    /// The planned tool (index in [`Inputs::tools`]) it is, when it is
    /// one: on that tool's lanes its case's outputs are reused.
    pub(crate) planned: Option<usize>,
    /// The tool, shaped with the request on a lane where no case of this
    /// run shapes it (another shard's, a duplicate name); `None` when its
    /// cases are on every lane (so the tool is dropped with its cases).
    pub(crate) tool: Option<CorpusTool>,
}

/// A catalog with tools, as its requests send them.
#[derive(Debug, Clone)]
pub(crate) struct PlannedCatalog {
    pub(crate) id: String,
    /// In catalog order.
    pub(crate) tools: Vec<CatalogTool>,
}

/// Every request comparison of a run: each catalog with tools on each
/// lane, this shard's share.
#[derive(Debug, Clone, Default)]
pub struct RequestPlan {
    /// Sorted by id, each id once (the first loaded).
    pub(crate) catalogs: Vec<PlannedCatalog>,
    /// (lane, index in `catalogs`), sorted by (lane, catalog id).
    pub(crate) requests: Vec<(Lane, usize)>,
}

/// Load corpora and ledgers and build the (sharded) plan, every tool
/// parsed.
pub fn prepare(opts: &DiffOptions<'_>) -> Result<Inputs, LoadError> {
    prepare_with(opts, false)
}

/// [`prepare`], each catalog's tools packed as it loads and stored on disk
/// ([`CorpusTool::stored`]; packed in memory when no temporary file can be
/// made): what `run` does, so that memory holds one parsed catalog at a
/// time while loading and one tool per worker while running
/// ([`execute`](super::execute) reads and parses a tool when its cases
/// start).
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
    let spill = pack.then(crate::spill::Spill::new).flatten().map(Arc::new);
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
    let planned = |case: Arc<str>, tool: CorpusTool, external, generated| PlannedTool {
        case,
        tool,
        external,
        generated,
        on: 0,
        home: None,
    };
    let mut tools = Vec::new();
    for catalog in &catalogs {
        for (name, tool) in &catalog.tools {
            let case = format!("{}#{name}", catalog.id).into();
            tools.push(planned(case, tool.clone(), catalog.external, false));
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
            tools.push(planned(spec.case_id(i).into(), tool, false, true));
        }
    }
    // Stable: a case id loaded twice keeps its first tool.
    tools.sort_by(|a, b| a.case.cmp(&b.case));
    tools.dedup_by(|a, b| a.case == b.case);
    let mut lanes = opts.lanes.clone();
    lanes.sort();
    lanes.dedup();
    // The cases in (lane, case) order are lane `j`'s tool `i` at `j × tools
    // + i`: a shard takes every n-th of them.
    let count = tools.len();
    for j in 0..lanes.len() {
        for (i, t) in tools.iter_mut().enumerate() {
            if in_shard(opts.shard, j * count + i) {
                t.on |= 1 << j;
            }
        }
    }
    tools.retain(|t| t.on != 0);
    let mut ledgers = BTreeMap::new();
    if let Some(dir) = &opts.ledger_dir {
        for lane in &opts.lanes {
            ledgers.insert(*lane, ledger::load_lane(dir, lane.id())?);
        }
    }
    let requests = plan_requests(catalogs, &lanes, &mut tools, opts.shard);
    Ok(Inputs {
        lanes,
        tools,
        unusable,
        scope,
        ledgers,
        requests,
    })
}

/// Whether item `i` of a sorted list is this shard's (`(k, n)`: the k-th
/// of n, 1-based).
fn in_shard(shard: Option<(usize, usize)>, i: usize) -> bool {
    shard.is_none_or(|(k, n)| i % n == k - 1)
}

/// Every (lane, catalog with tools) request comparison, in (lane, catalog
/// id) order, this shard's share. A catalog tool that is a planned tool
/// (same key, same tool) is marked so, and the planned tool gets its
/// place: its cases' outputs feed the requests on its lanes.
fn plan_requests(
    catalogs: Vec<Planned>,
    lanes: &[Lane],
    tools: &mut [PlannedTool],
    shard: Option<(usize, usize)>,
) -> RequestPlan {
    let mut order: Vec<Planned> = catalogs
        .into_iter()
        .filter(|c| !c.tools.is_empty())
        .collect();
    // Stable: a catalog id loaded twice keeps its first catalog.
    order.sort_by(|a, b| a.id.cmp(&b.id));
    order.dedup_by(|a, b| a.id == b.id);
    let every_lane = u64::MAX >> (64 - lanes.len().max(1));
    let mut plan = RequestPlan::default();
    for (c, catalog) in order.into_iter().enumerate() {
        let mut listed = Vec::with_capacity(catalog.tools.len());
        for (pos, (name, tool)) in catalog.tools.into_iter().enumerate() {
            let key = format!("{}#{name}", catalog.id);
            let at = tools
                .binary_search_by(|t| (*t.case).cmp(key.as_str()))
                .ok()
                .filter(|&t| tools[t].home.is_none() && tools[t].tool.same(&tool));
            if let Some(t) = at {
                tools[t].home = Some((c, pos));
            }
            let fed_everywhere = at.is_some_and(|t| tools[t].on == every_lane);
            listed.push(CatalogTool {
                planned: at,
                tool: (!fed_everywhere).then_some(tool),
            });
        }
        plan.catalogs.push(PlannedCatalog {
            id: catalog.id,
            tools: listed,
        });
    }
    let count = plan.catalogs.len();
    for (j, lane) in lanes.iter().enumerate() {
        for c in 0..count {
            if in_shard(shard, j * count + c) {
                plan.requests.push((*lane, c));
            }
        }
    }
    plan
}
