//! Finishing the module: the sections known only at the end, and the limits checked on the
//! whole module.
//!
//! The header (the target's SPIR-V version, the generator word of the options) and the first
//! sections (capabilities, extensions, the `GLSL.std.450` import, the memory model — Vulkan
//! or `GLSL450` by the target — the entry point with its interface — every global variable,
//! as SPIR-V 1.4 and later require, the inputs and outputs before — execution modes and
//! debug names) are written into the output,
//! then the annotation, global and function sections appended, and the id bound set.
//! SPIR-V's universal limits (section 2.17) on the id bound, `Private` variables, string
//! length and instruction length are checked on the result.

use super::capability_names::capability_name;
use super::error::{malformed, unsupported, R};
use super::resources::shared_binding;
use super::{Emitter, Info};
use crate::reflection::COMMON_SEMANTICS;
use crate::words::packed_str_words;
use crate::words::PackedStrTable;
use crate::words::{
    begin, decode_packed_str, end, first_oversized_instruction, inst, packed_str_eq,
    packed_str_len, push_packed_str, push_str, str_words,
};
use dxspv_ir::{BuiltIn, Op};
use dxspv_ir::{OpCode, ShaderStage, SsaDef};
use spirv::{Op as S, StorageClass as SC};
use std::borrow::Cow;

/// [`COMMON_SEMANTICS`], found by their packed IR literals.
static SEMANTICS: PackedStrTable<128> = PackedStrTable::new(&COMMON_SEMANTICS);

/// SPIR-V's universal limits (section 2.17) that spirv-val checks, besides nesting: the id
/// bound, `(literal, label)` pairs of one `OpSwitch`, parameters of one function, `Private`
/// variables of a module, and characters of a literal string.
pub(super) const MAX_ID_BOUND: u32 = 4_194_303;

/// SPIR-V's universal limit on the `Private` variables of a module.
pub(super) const MAX_PRIVATE_VARIABLES: usize = 65_535;

/// SPIR-V's universal limit on the characters of a literal string (longer names are left
/// out).
pub(super) const MAX_STRING_BYTES: usize = 65_535;

/// The literals of a `DebugName` or `Semantic`, which have one reference (their target) and
/// then literals only: what [`Op::literals`] gives, without working out the reference count.
fn late_literals(op: &Op) -> &[dxspv_ir::Operand] {
    let lits = op.operands.get(1..).unwrap_or(&[]);
    debug_assert_eq!(lits, op.literals());
    lits
}

impl<'a> Emitter<'a> {
    /// Writes the module: the push constant block, the hull shader entry point, the
    /// remaining execution modes, then every section (see the module doc).
    pub(super) fn finish(&mut self, entry: SsaDef, model: spirv::ExecutionModel) -> R<Vec<u32>> {
        self.finish_push_data(entry)?;
        if let Some((a, b)) = shared_binding(&self.refl.resources) {
            let r = &self.refl.resources;
            let op = self.b.op(entry);
            return unsupported(
                entry,
                op,
                format!(
                    "{} and {} share descriptor set {}, binding {} (choose other register shifts)",
                    r[a].register_name(),
                    r[b].register_name(),
                    r[a].set,
                    r[a].binding
                ),
            );
        }
        let main = if self.stage == ShaderStage::Hull {
            self.hull_main(entry)?
        } else if self.stage == ShaderStage::Amplification {
            self.task_main(entry)?
        } else {
            match self.entry_fns.first() {
                Some(f) => self.v(*f),
                None => {
                    let op = self.b.op(entry);
                    return malformed(entry, op, "entry point without function");
                }
            }
        };
        self.complete_execution_modes(entry)?;
        // Everything before the annotations is only known now: write the module in one go.
        let name = self.opts.entry_point_name.as_str();
        let glsl_words = if self.module.glsl != 0 { 6 } else { 0 };
        let head = 5
            + 2 * self.module.caps.0.len()
            + self
                .module
                .exts
                .iter()
                .map(|e| 1 + str_words(e))
                .sum::<usize>()
            + glsl_words
            + 3
            + 3
            + str_words(name)
            + self.module.sections.globals.len() / 4
            + self.module.modes.iter().map(|m| 3 + m.2).sum::<usize>()
            + self.names_words;
        let mut out = Vec::with_capacity(head + self.module.sections.len());
        let target = self.opts.target_env;
        out.extend_from_slice(&[
            spirv::MAGIC_NUMBER,
            target.version_word(),
            self.opts.generator,
            0,
            0,
        ]);
        for c in &self.module.caps.0 {
            inst(&mut out, S::Capability, &[*c as u32]);
        }
        for e in &self.module.exts {
            let st = begin(&mut out, S::Extension);
            push_str(&mut out, e);
            end(&mut out, st);
        }
        if self.module.glsl != 0 {
            let st = begin(&mut out, S::ExtInstImport);
            out.push(self.module.glsl);
            push_str(&mut out, "GLSL.std.450");
            end(&mut out, st);
        }
        inst(
            &mut out,
            S::MemoryModel,
            &[
                spirv::AddressingModel::Logical as u32,
                if target.vulkan_memory_model() {
                    spirv::MemoryModel::Vulkan as u32
                } else {
                    spirv::MemoryModel::GLSL450 as u32
                },
            ],
        );
        {
            let st = begin(&mut out, S::EntryPoint);
            out.push(model as u32);
            out.push(main);
            push_str(&mut out, name);
            // The interface: every module-scope variable (SPIR-V 1.4 on), or the inputs and
            // outputs (before).
            let globals = &self.module.global_vars;
            if target.interface_lists_all_globals() {
                // Of a known count: one capacity check.
                out.extend(globals.iter().map(|&(id, _)| id));
            } else {
                out.extend(globals.iter().filter(|&&(_, io)| io).map(|&(id, _)| id));
            }
            end(&mut out, st);
        }
        for (m, args, n) in &self.module.modes {
            let st = begin(&mut out, S::ExecutionMode);
            out.push(main);
            out.push(*m);
            out.extend_from_slice(&args[..*n]);
            end(&mut out, st);
        }
        // Debug names and semantics, straight from the IR. Signatures repeat a semantic name
        // over consecutive indices (`TEXCOORD0`, `TEXCOORD1`, ...): the last one found is
        // tried first.
        {
            let mut last_semantic: (&[dxspv_ir::Operand], &'static str) = (&[], "");
            for &op in &self.late {
                let lits = late_literals(op);
                match op.opcode {
                    OpCode::DebugName => {
                        let Some(t) = op.arg(0) else {
                            continue;
                        };
                        let Some(slot) = self.slots.get(t.index()).filter(|s| s.defined) else {
                            continue;
                        };
                        // The entry function's name, when it is the entry point's, would only
                        // repeat `OpEntryPoint`.
                        if slot.id == main && packed_str_eq(lits, name) {
                            continue;
                        }
                        // A name past SPIR-V's string limit is left out (names are optional).
                        if lits.len() * 8 > MAX_STRING_BYTES
                            && packed_str_len(lits) > MAX_STRING_BYTES
                        {
                            continue;
                        }
                        let st = begin(&mut out, S::Name);
                        out.push(slot.id);
                        if !push_packed_str(&mut out, lits) {
                            push_str(&mut out, &dxspv_ir::op::decode_string(lits));
                        }
                        end(&mut out, st);
                    }
                    OpCode::Semantic => {
                        let Some(&Info::Var(vi)) = op.arg(0).and_then(|t| self.info(t)) else {
                            continue;
                        };
                        let list = if vi.sc == SC::Input {
                            &mut self.refl.inputs
                        } else {
                            &mut self.refl.outputs
                        };
                        let Some(info) = (vi.refl as usize)
                            .checked_sub(1)
                            .and_then(|i| list.get_mut(i))
                        else {
                            continue;
                        };
                        let idx = lits.first().map_or(0, |l| l.0) as u32;
                        let lits = lits.get(1..).unwrap_or(&[]);
                        let name = if !lits.is_empty() && lits == last_semantic.0 {
                            Cow::Borrowed(last_semantic.1)
                        } else {
                            match SEMANTICS.find(lits) {
                                Some(s) => {
                                    last_semantic = (lits, s);
                                    Cow::Borrowed(s)
                                }
                                None => Cow::Owned(decode_packed_str(lits)),
                            }
                        };
                        info.semantic = Some((name, idx));
                    }
                    // `late` holds the two opcodes above only.
                    _ => {}
                }
            }
        }
        self.finish_reflection();
        // The helper functions of the wave emulations follow the IR's functions.
        let helpers = std::mem::take(&mut self.subgroup.helpers);
        self.module.sections.functions.extend_from_slice(&helpers);
        self.module.sections.append_to(&mut out);
        if let Some(b) = out.get_mut(3) {
            *b = self.module.next_id;
        }
        if self.module.next_id > MAX_ID_BOUND || self.module.private_vars > MAX_PRIVATE_VARIABLES {
            let op = self.b.op(entry);
            return unsupported(
                entry,
                op,
                format!(
                    "a module of {} ids and {} private variables (SPIR-V allows {MAX_ID_BOUND} \
                     and {MAX_PRIVATE_VARIABLES})",
                    self.module.next_id, self.module.private_vars
                ),
            );
        }
        if let Some(opcode) = first_oversized_instruction(&out) {
            let op = self.b.op(entry);
            let name =
                S::from_u32(opcode).map_or_else(|| format!("{opcode}"), |o| format!("Op{o:?}"));
            return unsupported(
                entry,
                op,
                format!("an {name} longer than SPIR-V's 65,535 words (too many operands)"),
            );
        }
        Ok(out)
    }

    /// Completes the reflection with what is known only at the end: the capabilities and
    /// extensions, and the system-value semantic of each built-in the signature did not
    /// name (the depth output's variant from the depth execution mode).
    fn finish_reflection(&mut self) {
        let refl = &mut self.refl;
        refl.capabilities = self
            .module
            .caps
            .0
            .iter()
            .map(|&c| capability_name(c))
            .collect();
        refl.extensions = self.module.exts.to_vec();
        let has = |m: spirv::ExecutionMode| self.module.modes.iter().any(|x| x.0 == m as u32);
        let depth = if has(spirv::ExecutionMode::DepthGreater) {
            Some("SV_DepthGreaterEqual")
        } else if has(spirv::ExecutionMode::DepthLess) {
            Some("SV_DepthLessEqual")
        } else {
            None
        };
        for v in refl.inputs.iter_mut().chain(refl.outputs.iter_mut()) {
            if v.semantic.is_some() {
                continue;
            }
            let sv = v
                .builtin
                .and_then(BuiltIn::from_name)
                .and_then(|b| crate::d3d_system_value(b, depth));
            if let Some(sv) = sv {
                v.semantic = Some((Cow::Borrowed(sv), 0));
            }
        }
    }

    /// `DebugName`: names are written at the end, straight from the IR (unless stripped);
    /// this keeps the op and counts the words its `OpName` may take.
    pub(super) fn record_debug_name(&mut self, op: &'a Op) {
        if !self.opts.strip_debug_names && op.arg(0).is_some() {
            // Bounded by all the operands (cheaper to count than the literals).
            self.names_words += 2 + packed_str_words(op.operands.len());
            self.late.push(op);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_semantics_are_found_by_their_packed_literals() {
        let find = |s: &str| {
            let mut ops = dxspv_ir::Operands::new();
            dxspv_ir::op::push_string(&mut ops, s);
            SEMANTICS.find(&ops)
        };
        for name in COMMON_SEMANTICS {
            assert_eq!(find(name), Some(name));
        }
        for other in [
            "",
            "T",
            "TEXCOORDS",
            "TEXCOOR",
            "texcoord",
            "SV_Targe",
            "SV_Target1",
        ] {
            assert_eq!(find(other), None, "{other}");
        }
    }
}
