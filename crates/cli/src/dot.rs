//! The control-flow graph as Graphviz (`dxspv ir --dot`, `dxspv compile --dot FILE`), for
//! people who would rather look than read.
//!
//! One digraph per program: a cluster per function, inside it one box per block listing its
//! ops as IR text, and a dashed cluster per structured construct (selection or loop, from its
//! header to its merge block) nested as the constructs nest. Back edges (to a dominating loop
//! header) are drawn red and do not constrain the layout; a loop's continue target and merge
//! block are named in its cluster's label. A block's construct is found by walking up the
//! dominator tree from its immediate dominator's construct while the block lies past that
//! construct's merge, so the work per block is bounded by the nesting depth.

use dxspv::ir::analysis::{BlockId, Cfg, DominatorTree};
use dxspv::ir::{text, Builder, Construct, OpCode};
use std::fmt::Write;

/// Most ops shown per block; the rest are counted.
const MAX_OPS_PER_BLOCK: usize = 48;

/// The Graphviz text of `b`'s control-flow graph; `Err` when `b` is not in block form.
pub fn cfg_dot(b: &Builder, title: &str) -> Result<String, String> {
    let cfg = Cfg::build(b).map_err(|e| format!("no control-flow graph: {e}"))?;
    let dom = DominatorTree::build(&cfg);
    let n = cfg.len();
    // The construct header owning each block (the innermost construct it lies in).
    let mut owner: Vec<Option<BlockId>> = vec![None; n];
    let merge_of = |h: BlockId| -> Option<BlockId> {
        let label = b.get(cfg.label(h))?;
        cfg.block_of_label(label.arg(0)?)
    };
    let is_header = |h: BlockId| {
        b.get(cfg.label(h))
            .and_then(|l| l.construct())
            .is_some_and(|c| c != Construct::None)
    };
    // Dominator-tree preorder: a block's idom is placed before it.
    let mut stack: Vec<BlockId> = cfg.entries().to_vec();
    let mut order = Vec::with_capacity(n);
    while let Some(blk) = stack.pop() {
        order.push(blk);
        stack.extend(dom.children(blk).iter().rev());
    }
    let mut parent: Vec<Option<BlockId>> = vec![None; n];
    for &blk in &order {
        let mut c = dom.idom(blk).and_then(|i| {
            if is_header(i) {
                Some(i)
            } else {
                owner[i.index()]
            }
        });
        while let Some(h) = c {
            match merge_of(h) {
                Some(m) if dom.dominates(m, blk) => c = parent[h.index()],
                _ => break,
            }
        }
        owner[blk.index()] = c;
        if is_header(blk) {
            parent[blk.index()] = c;
        }
    }

    let mut out = String::new();
    let _ = writeln!(out, "digraph \"{}\" {{", escape(title));
    out.push_str("  node [shape=box, fontname=\"monospace\", fontsize=9];\n");
    out.push_str("  edge [fontname=\"monospace\", fontsize=8];\n");
    // Blocks grouped per function, each emitted inside its construct clusters.
    let mut functions: Vec<_> = cfg.blocks().map(|blk| cfg.function(blk)).collect();
    functions.sort();
    functions.dedup();
    for (fi, func) in functions.iter().enumerate() {
        let name = text::debug_name(b, *func).unwrap_or_default();
        let _ = writeln!(out, "  subgraph cluster_f{fi} {{");
        let _ = writeln!(out, "    label=\"function {func} {}\";", escape(&name));
        let blocks: Vec<BlockId> = cfg.blocks().filter(|&k| cfg.function(k) == *func).collect();
        write_cluster(&mut out, b, &cfg, &owner, &blocks, None, 2);
        out.push_str("  }\n");
    }
    for blk in cfg.blocks() {
        let term = b.get(cfg.terminator(blk));
        for (k, &s) in cfg.succs(blk).iter().enumerate() {
            let back = dom.dominates(s, blk);
            let label = match term.map(|t| t.opcode) {
                Some(OpCode::BranchConditional) => ["true", "false"].get(k).copied().unwrap_or(""),
                Some(OpCode::Switch) if k == 0 => "default",
                _ => "",
            };
            let _ = write!(out, "  b{} -> b{}", blk.0, s.0);
            let mut attrs = Vec::new();
            if !label.is_empty() {
                attrs.push(format!("label=\"{label}\""));
            }
            if back {
                attrs.push("color=red, constraint=false, label=\"back\"".into());
            }
            if !attrs.is_empty() {
                let _ = write!(out, " [{}]", attrs.join(", "));
            }
            out.push_str(";\n");
        }
    }
    out.push_str("}\n");
    Ok(out)
}

/// Writes the blocks owned by `header` (all of `blocks` when `None` at top level) and, nested,
/// the clusters of the constructs inside.
fn write_cluster(
    out: &mut String,
    b: &Builder,
    cfg: &Cfg,
    owner: &[Option<BlockId>],
    blocks: &[BlockId],
    header: Option<BlockId>,
    indent: usize,
) {
    let pad = " ".repeat(indent * 2);
    for &blk in blocks.iter().filter(|k| owner[k.index()] == header) {
        let label = b.get(cfg.label(blk));
        let construct = label.and_then(|l| l.construct()).unwrap_or(Construct::None);
        if construct == Construct::None {
            let _ = writeln!(
                out,
                "{pad}b{} [label=\"{}\"];",
                blk.0,
                block_text(b, cfg, blk)
            );
            continue;
        }
        let name = |i: usize| {
            label
                .and_then(|l| l.arg(i))
                .map_or("?".into(), |d| d.to_string())
        };
        let what = match construct {
            Construct::StructuredLoop => format!("loop: merge {}, continue {}", name(0), name(1)),
            _ => format!("selection: merge {}", name(0)),
        };
        let _ = writeln!(out, "{pad}subgraph cluster_c{} {{", blk.0);
        let _ = writeln!(out, "{pad}  label=\"{what}\"; style=dashed;");
        let _ = writeln!(
            out,
            "{pad}  b{} [label=\"{}\"];",
            blk.0,
            block_text(b, cfg, blk)
        );
        write_cluster(out, b, cfg, owner, blocks, Some(blk), indent + 1);
        let _ = writeln!(out, "{pad}}}");
    }
}

/// A block's ops as IR text, one left-justified line each.
fn block_text(b: &Builder, cfg: &Cfg, blk: BlockId) -> String {
    let mut s = String::new();
    let term = cfg.terminator(blk);
    let mut count = 0;
    for (def, _) in b.iter_from(cfg.label(blk)) {
        if count < MAX_OPS_PER_BLOCK {
            s.push_str(&escape(&text::print_op(b, def)));
            s.push_str("\\l");
        }
        count += 1;
        if def == term {
            break;
        }
    }
    if count > MAX_OPS_PER_BLOCK {
        let _ = write!(s, "… {} more ops\\l", count - MAX_OPS_PER_BLOCK);
    }
    s
}

/// `s` inside a Graphviz double-quoted string.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\l"),
            c => out.push(c),
        }
    }
    out
}
