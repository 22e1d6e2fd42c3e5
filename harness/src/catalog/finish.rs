//! The last loading step: unique names, the BFCL decision and translation,
//! the depth check, and the load notes for each.

use std::collections::{HashMap, HashSet};

use super::bfcl::{translate_bfcl, uses_bfcl_types};
use super::raw::Raw;
use super::types::{Format, KnownInstance, LoadNote};
use crate::error::LoadError;
use crate::schema::{self, TooDeep};
use crate::tool::Tool;

/// Make names unique, translate BFCL, check depth; decide bfcl when sniffing.
pub(super) fn finish(
    format: Format,
    raws: Vec<Raw<'_>>,
    sniff_bfcl: bool,
) -> Result<Finished, LoadError> {
    let mut format = format;
    if sniff_bfcl {
        for raw in &raws {
            if uses_bfcl_types(&raw.schema).map_err(|e| too_deep(raw, &raw.name, &e))? {
                format = Format::Bfcl;
                break;
            }
        }
    }

    let mut used: HashSet<String> = HashSet::with_capacity(raws.len());
    let mut next_suffix: HashMap<String, usize> = HashMap::new();
    let mut tools = Vec::with_capacity(raws.len());
    let mut instances = Vec::with_capacity(raws.len());
    let mut notes = Vec::new();
    for mut raw in raws {
        let name = unique_name(&mut used, &mut next_suffix, &raw.name);
        if name != raw.name {
            notes.push(LoadNote {
                tool: name.clone(),
                path: String::new(),
                message: format!("duplicate tool name \"{}\" renamed to \"{name}\"", raw.name),
            });
        }
        for message in raw.notes.drain(..) {
            notes.push(LoadNote {
                tool: name.clone(),
                path: String::new(),
                message,
            });
        }
        let mut schema = raw.schema.take();
        let walked = if format == Format::Bfcl {
            translate_bfcl(&mut schema, &name, &mut notes)
        } else {
            schema::visit(&schema, &mut |_, _| {})
        };
        walked.map_err(|e| too_deep(&raw, &name, &e))?;
        tools.push(Tool {
            name,
            description: raw.description.take(),
            input_schema: schema,
            strict: raw.strict,
        });
        instances.push(std::mem::take(&mut raw.instances));
    }
    if tools.is_empty() {
        notes.push(LoadNote {
            tool: String::new(),
            path: String::new(),
            message: "catalog declares no tools".to_owned(),
        });
    }
    Ok((format, tools, instances, notes))
}

/// What [`finish`] makes of the raw tools: the format, the tools, their
/// known instances (same index) and the load notes.
type Finished = (Format, Vec<Tool>, Vec<Vec<KnownInstance>>, Vec<LoadNote>);

fn too_deep(raw: &Raw<'_>, name: &str, err: &TooDeep) -> LoadError {
    raw.src
        .error(&raw.pointer, &format!("tool \"{name}\": {err}"))
}

/// `name`, or `name~2`, `name~3`, … (the first one not used yet).
fn unique_name(
    used: &mut HashSet<String>,
    next: &mut HashMap<String, usize>,
    name: &str,
) -> String {
    if used.insert(name.to_owned()) {
        return name.to_owned();
    }
    let k = next.entry(name.to_owned()).or_insert(2);
    loop {
        let candidate = format!("{name}~{k}");
        *k += 1;
        if used.insert(candidate.clone()) {
            return candidate;
        }
    }
}
