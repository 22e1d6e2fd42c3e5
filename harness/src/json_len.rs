//! The length of a value's compact JSON (`serde_json::to_string`), counted
//! without writing it: the growth budgets of the Gemini passes compare
//! sizes, and serializing to count took a tenth of a `gemini-openapi`
//! shaping (most of it escaping strings byte by byte into nowhere).

use std::io::Write;

use serde_json::{Map, Number, Value};

/// A value whose compact JSON length [`byte_len`] counts.
pub(crate) trait JsonLen {
    /// The length, or any number `cap` or more once it reaches `cap`.
    fn len_up_to(&self, cap: usize) -> usize;
}

impl JsonLen for Value {
    fn len_up_to(&self, cap: usize) -> usize {
        match self {
            Self::Null | Self::Bool(true) => 4,
            Self::Bool(false) => 5,
            Self::Number(n) => number_len(n),
            Self::String(s) => str_len(s),
            Self::Array(items) => {
                // Brackets and a comma between items.
                let mut n = 1 + items.len().max(1);
                for v in items {
                    if n >= cap {
                        break;
                    }
                    n += v.len_up_to(cap - n);
                }
                n
            }
            Self::Object(m) => m.len_up_to(cap),
        }
    }
}

impl JsonLen for Map<String, Value> {
    fn len_up_to(&self, cap: usize) -> usize {
        // Braces, a comma between members, a colon in each.
        let mut n = 1 + self.len().max(1) + self.len();
        for (k, v) in self {
            if n >= cap {
                break;
            }
            n += str_len(k);
            n += v.len_up_to(cap.saturating_sub(n));
        }
        n
    }
}

/// The length of `v`'s compact JSON.
pub(crate) fn byte_len<T: JsonLen + ?Sized>(v: &T) -> usize {
    v.len_up_to(usize::MAX)
}

/// [`byte_len`], or `cap` when it is `cap` or more: the count stops about
/// there (a size compared against a bound need not count a huge schema to
/// its end).
pub(crate) fn byte_len_up_to<T: JsonLen + ?Sized>(v: &T, cap: usize) -> usize {
    v.len_up_to(cap).min(cap)
}

/// A quoted string: the quotes, its bytes, and one more for each byte
/// written as a two-character escape (`\"`, `\\`, `\b`, `\t`, `\n`, `\f`,
/// `\r`) or five more for one written as `\u00XX` (other control bytes).
fn str_len(s: &str) -> usize {
    let bytes = s.as_bytes();
    // Without a byte to escape (nearly every string), the length is known;
    // the fold (no early exit, no branch) vectorizes.
    #[allow(clippy::needless_bitwise_bool)]
    let escapes = bytes.iter().fold(false, |any, &b| {
        any | (b < 0x20) | (b == b'"') | (b == b'\\')
    });
    if !escapes {
        return bytes.len() + 2;
    }
    let extra: usize = bytes
        .iter()
        .map(|&b| match b {
            b'"' | b'\\' | 0x08 | b'\t' | b'\n' | 0x0c | b'\r' => 1,
            0..0x20 => 5,
            _ => 0,
        })
        .sum();
    bytes.len() + 2 + extra
}

/// A number as serde_json writes it (integers and shortest round-trip
/// floats): written into a counter.
fn number_len(n: &Number) -> usize {
    struct Count(usize);
    impl Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = serde_json::to_writer(&mut count, n);
    count.0
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{byte_len, byte_len_up_to};

    fn compact(v: &Value) -> usize {
        serde_json::to_string(v).unwrap().len()
    }

    /// Every value kind, every kind of escape, numbers of every form.
    #[test]
    fn byte_len_is_the_compact_json_length() {
        let cases = [
            json!(null),
            json!(true),
            json!(false),
            json!(0),
            json!(-17),
            json!(u64::MAX),
            json!(i64::MIN),
            json!(1.5),
            json!(-0.0),
            json!(1e300),
            json!(0.1),
            json!(2.5e-8),
            json!(""),
            json!("plain"),
            json!("quote \" backslash \\ slash /"),
            json!("\u{8}\t\n\u{c}\r"),
            json!("\u{0}\u{1}\u{1f}\u{7f}"),
            json!("é 漢字 😀"),
            json!([]),
            json!({}),
            json!([1, "a", [], {}, [null]]),
            json!({"a": 1, "b\n": {"c": [true, false]}, "": ""}),
        ];
        for v in &cases {
            assert_eq!(byte_len(v), compact(v), "{v}");
        }
        let Value::Object(m) = &cases[cases.len() - 1] else {
            unreachable!()
        };
        assert_eq!(byte_len(m), 38);
        assert_eq!(compact(&cases[cases.len() - 1]), 38);
    }

    /// Over every tool of the own corpus, as serialized.
    #[test]
    fn byte_len_matches_serde_json_on_the_own_corpus() {
        let tools = crate::catalog::own_corpus_tools();
        assert!(tools.len() > 100);
        for tool in tools {
            assert_eq!(
                byte_len(&tool.input_schema),
                compact(&tool.input_schema),
                "{}",
                tool.name
            );
        }
    }

    /// The count stops at the cap and says the cap.
    #[test]
    fn byte_len_up_to_counts_to_the_cap_at_most() {
        let v =
            json!({"a": "x\"y", "b": [1, 2.5, null, true], "c": {"d": "é"}, "e": "x".repeat(100)});
        let full = compact(&v);
        assert_eq!(full, 156);
        assert_eq!(byte_len(&v), full);
        for cap in [0, 1, 5, 20, 100, full - 1, full, full + 1, usize::MAX] {
            assert_eq!(byte_len_up_to(&v, cap), full.min(cap), "{cap}");
        }
        let m = v.as_object().unwrap();
        assert_eq!(byte_len_up_to(m, 10), 10);
        assert_eq!(byte_len_up_to(m, usize::MAX), full);
    }
}
