//! Analyses of structured IR that passes and the backend read but never change.
//!
//! - [`cfg`]: blocks, successors, predecessors and reverse post-order ([`Cfg`]).
//! - [`dominance`]: the dominator tree with O(1) dominance queries ([`DominatorTree`]).
//!
//! An analysis is a snapshot: after a pass changes the program's blocks or branches, build it
//! again (each is linear in the size of the program).

pub mod cfg;
pub mod dominance;

pub use cfg::{BlockId, Cfg};
pub use dominance::DominatorTree;
