//! Bytes that wait on disk instead of in memory: an unnamed temporary file
//! (`tempfile`, used here only outside tests), removed by the system when
//! its last handle closes, so nothing is left behind even when the run is
//! killed. [`Spill`] appends and reads back at an offset from any thread;
//! [`unnamed`] is the bare file for a store that manages its own space.

use std::fs::File;
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::sync::Mutex;

/// An unnamed temporary file, or `None` when none can be made.
pub(crate) fn unnamed() -> Option<File> {
    tempfile::tempfile().ok()
}

/// An append-only store of byte strings on an unnamed temporary file.
#[derive(Debug)]
pub struct Spill {
    file: Mutex<Appended>,
}

#[derive(Debug)]
struct Appended {
    file: File,
    /// Where the next bytes go.
    end: u64,
    /// A write failed: nothing more is put.
    broken: bool,
}

impl Spill {
    /// A store on a new unnamed temporary file, or `None` when none can be
    /// made.
    pub fn new() -> Option<Self> {
        unnamed().map(|file| Self {
            file: Mutex::new(Appended {
                file,
                end: 0,
                broken: false,
            }),
        })
    }

    /// Append `bytes`; where they start, or `None` when they could not be
    /// written (then no later call writes either: the caller keeps its
    /// bytes in memory).
    pub fn put(&self, bytes: &[u8]) -> Option<u64> {
        let mut a = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if a.broken {
            return None;
        }
        let at = a.end;
        let written = a
            .file
            .seek(SeekFrom::Start(at))
            .and_then(|_| a.file.write_all(bytes));
        if written.is_err() {
            a.broken = true;
            return None;
        }
        a.end += bytes.len() as u64;
        Some(at)
    }

    /// The `len` bytes put at `at`.
    pub fn get(&self, at: u64, len: usize) -> std::io::Result<Vec<u8>> {
        let mut a = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        a.file.seek(SeekFrom::Start(at))?;
        let mut bytes = vec![0; len];
        a.file.read_exact(&mut bytes)?;
        Ok(bytes)
    }

    /// Bytes in the file.
    #[cfg(test)]
    pub fn len(&self) -> u64 {
        self.file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .end
    }

    /// Whether nothing was put.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_put_reads_back_at_its_offset_in_any_order() {
        let spill = Spill::new().unwrap();
        assert!(spill.is_empty());
        assert_eq!(spill.put(b"alpha"), Some(0));
        assert_eq!(spill.put(b""), Some(5));
        assert_eq!(spill.put("βeta".as_bytes()), Some(5));
        assert_eq!(spill.len(), 10);
        assert_eq!(spill.get(5, 5).unwrap(), "βeta".as_bytes());
        assert_eq!(spill.get(0, 5).unwrap(), b"alpha");
        assert_eq!(spill.get(5, 0).unwrap(), b"");
        assert_eq!(
            spill.get(8, 5).unwrap_err().kind(),
            std::io::ErrorKind::UnexpectedEof
        );
    }

    #[test]
    fn threads_read_back_what_each_put() {
        let spill = Spill::new().unwrap();
        let at: Vec<(u64, String)> = (0..64)
            .map(|i| {
                let text = format!("tool {i} {}", "x".repeat(i));
                (spill.put(text.as_bytes()).unwrap(), text)
            })
            .collect();
        std::thread::scope(|s| {
            for chunk in at.chunks(16) {
                let spill = &spill;
                s.spawn(move || {
                    for (at, text) in chunk.iter().rev() {
                        assert_eq!(spill.get(*at, text.len()).unwrap(), text.as_bytes());
                    }
                });
            }
        });
    }
}
