//! The crate's error type: every variant says where (container byte offset, or part and
//! offset inside it) and what.

use crate::FourCC;

/// Why a container or one of its parts could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The container header or part table is malformed.
    #[error("container: {what} at byte {offset}")]
    Container {
        /// Byte offset in the container.
        offset: usize,
        /// What is wrong.
        what: &'static str,
    },
    /// A part (chunk) could not be parsed.
    #[error("part {fourcc}: {what} at byte {offset} of the part")]
    Part {
        /// The part's fourcc.
        fourcc: FourCC,
        /// Byte offset inside the part data.
        offset: usize,
        /// What is wrong.
        what: &'static str,
    },
}
