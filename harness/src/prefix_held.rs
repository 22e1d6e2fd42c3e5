//! [`HeldRequests`]: the whole-request outcomes a run holds until its
//! report, compressed (part of `prefix`, the one module that uses
//! `lz4_flex`).

use crate::outcome::RequestOutcome;

/// Bytes of outcome lines compressed together.
const BLOCK: usize = 256 * 1024;

/// Whole-request outcomes as they finish, each a JSON line, LZ4-compressed
/// a block of lines at a time. A run compares each (lane, catalog) request
/// of every kind, and held as values the outcomes took about 10 MB for
/// every copy of the shared corpus on 15 lanes (16,110 outcomes): memory
/// that grew with the corpus until the report read them.
#[derive(Debug, Default)]
pub(crate) struct HeldRequests {
    blocks: Vec<Box<[u8]>>,
    /// The lines not compressed yet.
    open: Vec<u8>,
    /// Outcomes held as lines.
    lines: usize,
    /// Outcomes that did not serialize (never seen: each is a plain
    /// struct), held as values.
    values: Vec<RequestOutcome>,
}

impl HeldRequests {
    /// Hold `outcomes`.
    pub(crate) fn extend(&mut self, outcomes: impl IntoIterator<Item = RequestOutcome>) {
        for outcome in outcomes {
            let mark = self.open.len();
            if serde_json::to_writer(&mut self.open, &outcome).is_err() {
                self.open.truncate(mark);
                self.values.push(outcome);
                continue;
            }
            self.open.push(b'\n');
            self.lines += 1;
            if self.open.len() >= BLOCK {
                self.seal();
            }
        }
    }

    /// Compress the open lines into a block.
    fn seal(&mut self) {
        if !self.open.is_empty() {
            let block = lz4_flex::compress_prepend_size(&self.open);
            self.blocks.push(block.into_boxed_slice());
            self.open.clear();
        }
    }

    /// How many outcomes are held.
    pub(crate) fn len(&self) -> usize {
        self.lines + self.values.len()
    }

    /// Every outcome held, as it was put (the lines in the order they were
    /// put, then the values). Only lines serialized from an outcome and
    /// blocks compressed from them are read back, so neither step fails on
    /// them; an impossible failure would leave those outcomes out (no
    /// check counts them).
    pub(crate) fn into_vec(mut self) -> Vec<RequestOutcome> {
        self.seal();
        let mut out = Vec::with_capacity(self.len());
        for block in &self.blocks {
            let Ok(lines) = lz4_flex::decompress_size_prepended(block) else {
                continue;
            };
            out.extend(
                lines
                    .split(|&b| b == b'\n')
                    .filter(|line| !line.is_empty())
                    .filter_map(|line| serde_json::from_slice(line).ok()),
            );
        }
        out.append(&mut self.values);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lane::Lane;
    use crate::outcome::{ByteDifference, RequestClass, RequestIssue, RequestSide};
    use crate::request::RequestKind;

    fn outcome(i: usize) -> RequestOutcome {
        let side = |pipeline: &str| RequestSide {
            pipeline: pipeline.to_owned(),
            sha256: format!("{i:064x}"),
            bytes: i * 7,
            changes: if i.is_multiple_of(3) {
                vec![format!("tool_choice: t{i} [rule]")]
            } else {
                Vec::new()
            },
        };
        let at = i.is_multiple_of(2).then(|| ByteDifference {
            offset: i,
            member: "tools".to_owned(),
            tool_index: Some(i % 5),
            tool: Some(format!("tool_{i}")),
        });
        RequestOutcome {
            lane: Lane::ALL[i % Lane::ALL.len()],
            catalog: format!("catalogs/c{i}"),
            kind: RequestKind::ALL[i % RequestKind::ALL.len()],
            tools: i,
            class: if i.is_multiple_of(4) {
                RequestClass::ReorderedTools
            } else {
                RequestClass::InsideTools
            },
            old: side("v0"),
            new: side("v1"),
            difference: at.clone(),
            issues: if i.is_multiple_of(4) {
                vec![RequestIssue {
                    class: RequestClass::ReorderedTools,
                    message: format!("tools in another order {i} \"quoted\"\n"),
                    at,
                }]
            } else {
                Vec::new()
            },
        }
    }

    #[test]
    fn held_requests_come_back_as_they_were_put_across_blocks() {
        // Enough outcomes for several blocks.
        let all: Vec<RequestOutcome> = (0..3000).map(outcome).collect();
        let mut held = HeldRequests::default();
        held.extend(all[..1000].iter().cloned());
        held.extend(all[1000..].iter().cloned());
        assert!(held.blocks.len() >= 2, "{} blocks", held.blocks.len());
        assert_eq!(held.len(), 3000);
        assert_eq!(held.into_vec(), all);
        assert_eq!(HeldRequests::default().into_vec(), Vec::new());
    }
}
