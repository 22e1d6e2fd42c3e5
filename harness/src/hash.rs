//! Content hashes (the one module wrapping `sha2`): ledger pins, report
//! hashes and the hash suffix of renamed names. Plain data, bottom layer.

use sha2::{Digest, Sha256};

/// Lowercase hex sha256 of a string.
pub fn sha256_hex(s: &str) -> String {
    sha256_bytes_hex(s.as_bytes())
}

/// sha256 of a value's compact JSON (serde_json's, keys in their order),
/// written straight into the hash.
pub(crate) fn sha256_json<T: serde::Serialize + ?Sized>(value: &T) -> [u8; 32] {
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
    hasher.finalize().into()
}

/// Lowercase hex sha256 of bytes (a fetched file's content).
pub(crate) fn sha256_bytes_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().fold(String::with_capacity(64), |mut acc, b| {
        use std::fmt::Write as _;
        let _ = write!(acc, "{b:02x}");
        acc
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digest of a value is the sha256 of its compact text, keys in
    /// their order.
    #[test]
    fn sha256_json_hashes_the_compact_text() {
        let value = serde_json::json!({"b": [1, "x"], "a": null});
        let want: [u8; 32] = Sha256::digest(br#"{"b":[1,"x"],"a":null}"#).into();
        assert_eq!(sha256_json(&value), want);
        assert_eq!(
            sha256_hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
