//! Analyses of structured IR that passes and the backend read but never change.
//!
//! - [`calls`]: the static call graph, checked for recursion ([`recursive_call`]).
//! - [`cfg`](mod@cfg): blocks, successors, predecessors and reverse post-order ([`Cfg`]).
//! - [`divergence`]: which values and blocks are uniform across invocations ([`Divergence`]).
//! - [`dominance`]: the dominator tree with O(1) dominance queries ([`DominatorTree`]).
//!
//! An analysis is a snapshot: after a pass changes the program's blocks or branches, build it
//! again (each is linear in the size of the program).

pub mod calls;
pub mod cfg;
pub mod divergence;
pub mod dominance;

pub use calls::recursive_call;
pub use cfg::{BlockId, Cfg, Edges};
pub use divergence::Divergence;
pub use dominance::DominatorTree;
