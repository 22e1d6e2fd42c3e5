//! The Gemini rules' per-request memos: the parse-phase verdict
//! ([`PARSED`], read by every validation rule) and the positions of the
//! last name map a path was rendered in ([`POSITIONS`]). `check`
//! (`rules/mod.rs`) arms them around each request ([`request_memos`]).

use serde_json::{Map, Value};

/// [`PARSED`]'s state.
#[derive(Clone, Copy)]
pub(super) enum Memo {
    /// No `check` (`rules/mod.rs`) is running: nothing is memoised.
    Off,
    /// Armed, nothing memoised yet.
    Empty,
    /// The verdict for the request whose tools are at this address and length.
    Parsed(usize, usize, bool),
}

thread_local! {
    /// [`parsed`](super::parse::parsed)'s verdict for the request being
    /// checked (keyed by its tools' address and length): every
    /// validation-phase rule asks, and the parse phase walks every node.
    pub(super) static PARSED: std::cell::Cell<Memo> = const { std::cell::Cell::new(Memo::Off) };
}

/// Arm (`true`, before a request) or disarm (after it) the per-request
/// memos ([`PARSED`], [`POSITIONS`]): `check` (`rules/mod.rs`) brackets
/// each request with them, so no memo outlives the schemas whose addresses
/// it keys on.
pub(crate) fn request_memos(armed: bool) {
    PARSED.with(|c| c.set(if armed { Memo::Empty } else { Memo::Off }));
    POSITIONS.with(|c| c.borrow_mut().take());
}

/// A name map's address and length, and each name's position in it.
type Positions = (usize, usize, std::collections::HashMap<String, usize>);

thread_local! {
    /// The last name map [`position_of`] indexed: its address and length,
    /// and each name's position. Findings on sibling properties come one
    /// after another, so one entry turns a quadratic scan of a large map
    /// (5,001 properties, one finding each) into one pass.
    static POSITIONS: std::cell::RefCell<Option<Positions>> = const { std::cell::RefCell::new(None) };
}

/// `name`'s position among `map`'s keys (0 if absent).
pub(super) fn position_of(map: &Map<String, Value>, name: &str) -> usize {
    if map.len() < 32 || matches!(PARSED.with(std::cell::Cell::get), Memo::Off) {
        return map.keys().position(|k| k == name).unwrap_or(0);
    }
    let addr = std::ptr::from_ref(map) as usize;
    POSITIONS.with(|cell| {
        let mut cache = cell.borrow_mut();
        let hit = matches!(&*cache, Some((a, n, _)) if *a == addr && *n == map.len());
        if !hit {
            let index = map
                .keys()
                .enumerate()
                .map(|(i, k)| (k.clone(), i))
                .collect();
            *cache = Some((addr, map.len(), index));
        }
        cache
            .as_ref()
            .and_then(|(_, _, index)| index.get(name).copied())
            .unwrap_or(0)
    })
}
