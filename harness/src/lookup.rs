//! Keyword lookups on schema objects: [`Lookup`].
//!
//! serde_json's map (with `preserve_order`, an `IndexMap` under std's
//! SipHash) hashes the key on every `get`. Most schema objects hold a few
//! keywords, and the passes ask each node for several: on the strict and
//! `gemini-openapi` lanes the hashing took about a sixth of in-memory
//! shaping (perf of `examples/shape_rate.rs`, 2026-12-05). Up to
//! [`SCAN_UP_TO`] entries, comparing the keys in order is cheaper than
//! hashing one; the same entry is found either way (keys are unique).
//! The passes, `schema`'s keyword helpers and the oracle's rules read
//! schema objects through it. In the 15-lane run the judges' lookups cost
//! little (switched there, the run took no less CPU:
//! `harness/benches/RESULTS.md`); `check` is mostly the oracle's rules,
//! which ask every node of every tool for one keyword or more per rule
//! (with it, and each tool's schema found in its wire object without
//! parsing a JSON Pointer, `check --lane openai-strict` executed 36% fewer
//! instructions, 2026-12-06). The semantic judge and the invariants do
//! not use it.

use serde_json::{Map, Value};

/// Objects up to this many entries are scanned instead of hashed.
const SCAN_UP_TO: usize = 8;

/// `get`, `get_mut` and `contains_key` by keyword, for a schema object or
/// a value that may be one.
pub(crate) trait Lookup {
    /// The member named `key`, if any (on a non-object value: `None`).
    fn field(&self, key: &str) -> Option<&Value>;
    /// [`field`](Self::field), mutable.
    fn field_mut(&mut self, key: &str) -> Option<&mut Value>;
    /// Whether the member `key` is present.
    fn has(&self, key: &str) -> bool {
        self.field(key).is_some()
    }
}

impl Lookup for Map<String, Value> {
    #[inline]
    fn field(&self, key: &str) -> Option<&Value> {
        if self.len() <= SCAN_UP_TO {
            self.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
        } else {
            self.get(key)
        }
    }

    #[inline]
    fn field_mut(&mut self, key: &str) -> Option<&mut Value> {
        if self.len() <= SCAN_UP_TO {
            self.iter_mut()
                .find(|(k, _)| k.as_str() == key)
                .map(|(_, v)| v)
        } else {
            self.get_mut(key)
        }
    }
}

impl Lookup for Value {
    #[inline]
    fn field(&self, key: &str) -> Option<&Value> {
        self.as_object()?.field(key)
    }

    #[inline]
    fn field_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.as_object_mut()?.field_mut(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The same member as `get` finds, on small and large objects, and
    /// nothing on other values.
    #[test]
    fn field_finds_what_get_finds() {
        let mut big = Map::new();
        for i in 0..20 {
            big.insert(format!("k{i}"), json!(i));
        }
        for v in [
            json!({"type": "object", "properties": {}, "required": ["a"]}),
            Value::Object(big),
        ] {
            let m = v.as_object().unwrap();
            for k in ["type", "required", "k0", "k19", "k7", "absent", ""] {
                assert_eq!(m.field(k), m.get(k), "{k}");
                assert_eq!(v.field(k), v.get(k), "{k}");
                assert_eq!(m.has(k), m.contains_key(k), "{k}");
            }
        }
        assert_eq!(json!([1]).field("type"), None);
        assert_eq!(json!("type").field("type"), None);
        let mut v = json!({"a": 1, "b": 2});
        *v.field_mut("b").unwrap() = json!(3);
        assert_eq!(v, json!({"a": 1, "b": 3}));
        assert!(v.field_mut("c").is_none());
    }
}
