//! Reads of class instance data whose register is only known through `this`: members in a
//! constant buffer (`cb[this.x + …][this.y + …]`) and textures and samplers
//! (`t[this.z + …]`, `s[this.w + …]`).
//!
//! The register index is a run-time value, but the bindings say which values it can take: the
//! instance data of every slot plus the index's immediate part, and for constant buffers also
//! the buffers the shader declares (instances the shader itself declares keep their members
//! there). Each access becomes a `ScopedSwitch` on the index with one case per candidate
//! register, declaring it when the shader does not (a constant buffer of Direct3D's largest
//! size; a texture of the kind the instruction's resource-dimension token names; a sampler).
//! Another index reads zero, as an unbound register does in Direct3D. After SSA construction
//! the index is a constant, so only one case is ever taken.

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{Op, OpCode, Operand as IrOperand, ResourceKind, ScalarType, SsaDef, Type};

use super::CONSTANT_BUFFER_SLOTS;
use crate::convert::registers::{Ix, Lanes};
use crate::convert::resources::{resource_kind, return_scalar, Binding};
use crate::convert::{lanes, Converter, NamePart, R};
use crate::enums::ResourceDimension;
use crate::operand::{Index, Operand, OperandType};
use crate::{Instruction, Opcode};

/// Shader resource view slots of a stage (`D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT`).
pub const TEXTURE_SLOTS: u32 = 128;

/// Sampler slots of a stage (`D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT`).
pub const SAMPLER_SLOTS: u32 = 16;

/// Size, in 16-byte vectors, of a constant buffer the converter declares for class instance
/// data the shader does not declare itself (Direct3D's largest constant buffer).
const INSTANCE_BUFFER_VECTORS: u32 = 4096;

/// One dynamically indexed texture or sampler operand of an instruction.
struct DynamicRegister {
    /// Operand position.
    operand: usize,
    /// The index value.
    index: SsaDef,
    /// The registers it may name.
    candidates: Vec<u32>,
}

/// True if the instruction writes a residency status to its second operand (`*_s`).
fn has_status(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::Gather4Feedback
            | O::Gather4CFeedback
            | O::Gather4PoFeedback
            | O::Gather4PoCFeedback
            | O::LdFeedback
            | O::LdMsFeedback
            | O::LdRawFeedback
            | O::LdStructuredFeedback
            | O::SampleLFeedback
            | O::SampleCLzFeedback
            | O::SampleClampFeedback
            | O::SampleBClampFeedback
            | O::SampleDClampFeedback
            | O::SampleCClampFeedback
    )
}

/// True if `op` is a texture or sampler operand whose register is indexed dynamically.
fn is_dynamic_resource(op: &Operand) -> bool {
    matches!(op.ty, OperandType::Resource | OperandType::Sampler)
        && op.indices().first().is_some_and(|i| i.relative.is_some())
}

impl Converter<'_, '_> {
    /// Loads components of `cb[dynamic slot][offset]`: a switch over the candidate slots,
    /// zero for any other.
    pub(crate) fn load_cb_dynamic_slot(
        &mut self,
        op: &Operand,
        ty: ScalarType,
        comps: u8,
    ) -> R<Lanes> {
        let (Some(slot_index), Some(_)) = (op.indices().first().copied(), op.indices().get(1))
        else {
            return Err(self.invalid("cb operand lacks its slot or offset"));
        };
        let Ix::D(slot) = self.index_value(&slot_index)? else {
            return Err(self.invalid("cb slot index is not dynamic"));
        };
        let offset = self.operand_index(op, 1)?;
        // Candidates: the declared buffers and those the bindings point at (plus the
        // index's immediate part, which fxc adds to `this.x`).
        let mut candidates: Vec<u32> = self.cbvs.keys().copied().collect();
        for &(_, data) in &self.cl.slots {
            let s = u64::from(data.constant_buffer).saturating_add(slot_index.imm);
            if s < u64::from(CONSTANT_BUFFER_SLOTS) {
                candidates.push(s as u32);
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        let zero = self.constant(ty, 0);
        let mut tmps = [None; 4];
        for c in lanes(comps) {
            let t = self.fresh_temp();
            self.code(
                Op::new(OpCode::TmpStore, Type::VOID)
                    .with_ref(t)
                    .with_ref(zero),
            );
            tmps[c] = Some(t);
        }
        let sw = self.code(
            Op::new(OpCode::ScopedSwitch, Type::VOID)
                .with_opt_ref(None)
                .with_ref(slot),
        );
        for s in candidates {
            let b = self.instance_cbv(s)?;
            self.code(
                Op::new(OpCode::ScopedSwitchCase, Type::VOID)
                    .with_ref(sw)
                    .with_lit(s as u64),
            );
            let first = self.c_u32(0);
            let desc = self.code(
                Op::new(OpCode::DescriptorLoad, ScalarType::Cbv)
                    .with_ref(b.decl)
                    .with_ref(first),
            );
            for c in lanes(comps) {
                let addr = self.address(&[offset, Ix::C(c as u32)]);
                let v = self.code(
                    Op::new(OpCode::BufferLoad, ScalarType::F32)
                        .with_ref(desc)
                        .with_opt_ref(addr)
                        .with_lit(4),
                );
                let v = self.coerce(v, ScalarType::F32, ty);
                if let Some(t) = tmps[c] {
                    self.code(
                        Op::new(OpCode::TmpStore, Type::VOID)
                            .with_ref(t)
                            .with_ref(v),
                    );
                }
            }
            self.code(Op::new(OpCode::ScopedSwitchBreak, Type::VOID).with_ref(sw));
        }
        let end = self.code(Op::new(OpCode::ScopedEndSwitch, Type::VOID).with_ref(sw));
        self.b.set_operand(sw, 0, IrOperand::from_def(end));
        let mut out: Lanes = [None; 4];
        for c in lanes(comps) {
            if let Some(t) = tmps[c] {
                let v = self.op1(OpCode::TmpLoad, ScalarType::Unknown, t);
                out[c] = Some(self.coerce(v, ScalarType::Unknown, ty));
            }
        }
        Ok(out)
    }

    /// The constant buffer at `slot`, declaring one of Direct3D's largest size if the shader
    /// does not (class instance data the application binds there).
    fn instance_cbv(&mut self, slot: u32) -> R<Binding> {
        if let Some(&b) = self.cbvs.get(&slot) {
            return Ok(b);
        }
        let ty = Type::vector(ScalarType::F32, 4)
            .array_of(INSTANCE_BUFFER_VECTORS)
            .map_err(|e| self.invalid(e.to_string()))?;
        let ep = self.ep;
        let decl = self.decl(
            Op::new(OpCode::DclCbv, ty)
                .with_ref(ep)
                .with_lit(0)
                .with_lit(slot as u64)
                .with_lit(1),
        );
        self.name_parts(decl, &[NamePart::S("cb"), NamePart::N(slot as u64)]);
        let b = Binding {
            decl,
            kind: ResourceKind::BufferTyped,
            ty: ScalarType::F32,
            count: 1,
            lower: slot,
        };
        self.cbvs.insert(slot, b);
        Ok(b)
    }

    /// True if `inst` reads a class instance texture or sampler (`t[this.z + …]`).
    pub(crate) fn has_instance_resource(&self, inst: &Instruction<'_>) -> bool {
        !self.sm51 && self.cl.any() && inst.operands().iter().any(is_dynamic_resource)
    }

    /// Converts an instruction reading class instance textures or samplers: one switch per
    /// dynamic register (nested for a texture and a sampler), the instruction converted with
    /// the candidate register in each case, its destinations zeroed for any other index.
    pub(crate) fn instance_resource_instruction(&mut self, inst: &Instruction<'_>) -> R<()> {
        let mut dynamic = Vec::with_capacity(2);
        for (i, op) in inst.operands().iter().enumerate() {
            if !is_dynamic_resource(op) {
                continue;
            }
            let Some(&index) = op.indices().first() else {
                continue;
            };
            // The value first: every case reads the registers as they were.
            let Ix::D(value) = self.index_value(&index)? else {
                return Err(self.invalid("resource index is not dynamic"));
            };
            let candidates = self.instance_candidates(inst, op, index.imm)?;
            dynamic.push(DynamicRegister {
                operand: i,
                index: value,
                candidates,
            });
        }
        let mut copy = inst.clone();
        self.instance_cases(&mut copy, &dynamic)
    }

    /// The registers a dynamic texture or sampler index may name, declared: every slot's base
    /// plus `imm`, within Direct3D's slots.
    fn instance_candidates(
        &mut self,
        inst: &Instruction<'_>,
        op: &Operand,
        imm: u64,
    ) -> R<Vec<u32>> {
        let texture = op.ty == OperandType::Resource;
        let limit = if texture {
            TEXTURE_SLOTS
        } else {
            SAMPLER_SLOTS
        };
        let mut out: Vec<u32> = Vec::with_capacity(self.cl.slots.len());
        for &(_, data) in &self.cl.slots {
            let base = if texture {
                data.texture_offset
            } else {
                data.sampler_offset
            };
            let r = u64::from(base).saturating_add(imm);
            if r < u64::from(limit) {
                out.push(r as u32);
            }
        }
        out.sort_unstable();
        out.dedup();
        for &r in &out {
            if texture {
                self.instance_srv(r, inst)?;
            } else {
                self.instance_sampler(r);
            }
        }
        Ok(out)
    }

    /// Emits the switch on `dynamic[0]` (then the rest, nested) around `inst`.
    fn instance_cases(&mut self, inst: &mut Instruction<'_>, dynamic: &[DynamicRegister]) -> R<()> {
        let Some((first, rest)) = dynamic.split_first() else {
            return self.code_instruction(inst);
        };
        let sw = self.code(
            Op::new(OpCode::ScopedSwitch, Type::VOID)
                .with_opt_ref(None)
                .with_ref(first.index),
        );
        let saved = inst.operand(first.operand).copied();
        for &r in &first.candidates {
            self.code(
                Op::new(OpCode::ScopedSwitchCase, Type::VOID)
                    .with_ref(sw)
                    .with_lit(r as u64),
            );
            if let Some(op) = inst.operand_mut(first.operand) {
                op.indices[0] = Index {
                    imm: r as u64,
                    relative: None,
                };
            }
            self.instance_cases(inst, rest)?;
            self.code(Op::new(OpCode::ScopedSwitchBreak, Type::VOID).with_ref(sw));
        }
        if let (Some(op), Some(saved)) = (inst.operand_mut(first.operand), saved) {
            *op = saved;
        }
        self.code(Op::new(OpCode::ScopedSwitchDefault, Type::VOID).with_ref(sw));
        self.zero_destinations(inst)?;
        self.code(Op::new(OpCode::ScopedSwitchBreak, Type::VOID).with_ref(sw));
        let end = self.code(Op::new(OpCode::ScopedEndSwitch, Type::VOID).with_ref(sw));
        self.b.set_operand(sw, 0, IrOperand::from_def(end));
        Ok(())
    }

    /// Writes zero to the destinations of `inst` (what reading an unbound register gives).
    fn zero_destinations(&mut self, inst: &Instruction<'_>) -> R<()> {
        let n = if has_status(inst.opcode) { 2 } else { 1 };
        let zero = self.c_u32(0);
        for op in inst.operands().iter().take(n) {
            self.store_dst(op, &[Some(zero); 4], ScalarType::U32)?;
        }
        Ok(())
    }

    /// The texture at `slot`, declared from the instruction's resource-dimension and
    /// return-type tokens if the shader does not declare it.
    fn instance_srv(&mut self, slot: u32, inst: &Instruction<'_>) -> R<Binding> {
        if let Some(&b) = self.srvs.get(&slot) {
            return Ok(b);
        }
        let Some(dim) = inst.modifiers.resource_dim else {
            return Err(self.invalid("class instance texture without a resource dimension token"));
        };
        let kind = resource_kind(dim)
            .ok_or_else(|| self.invalid("class instance texture of unknown dimension"))?;
        let ty = match dim {
            ResourceDimension::RawBuffer => Type::scalar(ScalarType::U32).array_of(0),
            ResourceDimension::StructuredBuffer => Type::scalar(ScalarType::U32)
                .array_of((inst.modifiers.structure_stride / 4).max(1))
                .and_then(|t| t.array_of(0)),
            _ => {
                let Some(ret) = inst.modifiers.resource_return else {
                    return Err(self.invalid("class instance texture without a return type token"));
                };
                Ok(Type::scalar(return_scalar(ret[0])))
            }
        }
        .map_err(|e| self.invalid(e.to_string()))?;
        let ep = self.ep;
        let decl = self.decl(
            Op::new(OpCode::DclSrv, ty)
                .with_ref(ep)
                .with_lit(0)
                .with_lit(slot as u64)
                .with_lit(1)
                .with_lit(kind.to_literal()),
        );
        self.name_parts(decl, &[NamePart::S("t"), NamePart::N(slot as u64)]);
        let b = Binding {
            decl,
            kind,
            ty: ty.base_type().unwrap_or(ScalarType::U32),
            count: 1,
            lower: slot,
        };
        self.srvs.insert(slot, b);
        Ok(b)
    }

    /// The sampler at `slot`, declared if the shader does not.
    fn instance_sampler(&mut self, slot: u32) {
        if self.samplers.contains_key(&slot) {
            return;
        }
        let ep = self.ep;
        let decl = self.decl(
            Op::new(OpCode::DclSampler, Type::VOID)
                .with_ref(ep)
                .with_lit(0)
                .with_lit(slot as u64)
                .with_lit(1),
        );
        self.name_parts(decl, &[NamePart::S("s"), NamePart::N(slot as u64)]);
        self.samplers.insert(
            slot,
            Binding {
                decl,
                kind: ResourceKind::BufferTyped,
                ty: ScalarType::U32,
                count: 1,
                lower: slot,
            },
        );
    }
}
