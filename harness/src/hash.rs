//! Content hashes (the one module wrapping `sha2`): ledger pins, report
//! hashes and the hash suffix of renamed names. Plain data, bottom layer.

use sha2::{Digest, Sha256};

/// A sha256 digest, written and read as 64 lowercase hex digits: what a
/// case's side keeps of its output (32 bytes in place, where the hex text
/// took a 64-byte string besides; two per outcome, and every outcome waits
/// for the report).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sha256Sum([u8; 32]);

impl Sha256Sum {
    /// The digest of `bytes`.
    pub fn of(bytes: &[u8]) -> Self {
        Self(Sha256::digest(bytes).into())
    }

    /// Read 64 lowercase hex digits (`None` for anything else).
    pub fn from_hex(hex: &str) -> Option<Self> {
        let digit = |c: u8| match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            _ => None,
        };
        let hex = hex.as_bytes();
        if hex.len() != 64 {
            return None;
        }
        let mut out = [0u8; 32];
        for (o, pair) in out.iter_mut().zip(hex.chunks_exact(2)) {
            *o = digit(pair[0])? << 4 | digit(pair[1])?;
        }
        Some(Self(out))
    }

    /// The 64 lowercase hex digits.
    pub fn to_hex(&self) -> String {
        self.to_string()
    }
}

impl std::fmt::Display for Sha256Sum {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl std::fmt::Debug for Sha256Sum {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Sha256Sum({self})")
    }
}

impl serde::Serialize for Sha256Sum {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Sha256Sum {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let hex = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        Self::from_hex(&hex).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "a sha256 is 64 lowercase hex digits, not {:?}",
                hex.chars().take(80).collect::<String>()
            ))
        })
    }
}

/// Lowercase hex sha256 of a string.
pub fn sha256_hex(s: &str) -> String {
    sha256_bytes_hex(s.as_bytes())
}

/// sha256 of a value's compact JSON (serde_json's, keys in their order),
/// written straight into the hash.
pub(crate) fn sha256_json<T: serde::Serialize + ?Sized>(value: &T) -> Sha256Sum {
    struct Into<'h>(&'h mut Sha256);
    impl std::io::Write for Into<'_> {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.update(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut hasher = Sha256::new();
    // Writing into the hash cannot fail; a value that does not serialize
    // hashes what was written of it.
    let _ = serde_json::to_writer(Into(&mut hasher), value);
    Sha256Sum(hasher.finalize().into())
}

/// Lowercase hex sha256 of bytes (a fetched file's content).
pub(crate) fn sha256_bytes_hex(bytes: &[u8]) -> String {
    Sha256Sum::of(bytes).to_hex()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A digest is written as the hex text `sha256_hex` gives, reads back
    /// from it, and refuses any other text.
    #[test]
    fn a_sha256_sum_is_its_lowercase_hex_text() {
        let hex = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        let sum = Sha256Sum::of(b"");
        assert_eq!(sum.to_hex(), hex);
        assert_eq!(sum.to_hex(), sha256_hex(""));
        assert_eq!(Sha256Sum::from_hex(hex), Some(sum));
        assert_eq!(serde_json::to_string(&sum).unwrap(), format!("\"{hex}\""));
        assert_eq!(
            serde_json::from_str::<Sha256Sum>(&format!("\"{hex}\"")).unwrap(),
            sum
        );
        for bad in [
            &hex.to_uppercase(),
            &hex[..63],
            &format!("{hex}0"),
            &hex.replace('e', "g"),
            "",
        ] {
            assert_eq!(Sha256Sum::from_hex(bad), None, "{bad}");
        }
        let err = serde_json::from_str::<Sha256Sum>("\"abc\"").unwrap_err();
        assert_eq!(
            err.to_string(),
            "a sha256 is 64 lowercase hex digits, not \"abc\""
        );
        assert_eq!(format!("{sum:?}"), format!("Sha256Sum({hex})"));
    }

    /// The digest of a value is the sha256 of its compact text, keys in
    /// their order.
    #[test]
    fn sha256_json_hashes_the_compact_text() {
        let value = serde_json::json!({"b": [1, "x"], "a": null});
        assert_eq!(
            sha256_json(&value),
            Sha256Sum::of(br#"{"b":[1,"x"],"a":null}"#)
        );
    }
}
