//! Resource declarations and access: constant buffers, immediate constant buffers, SRVs, UAVs
//! (with counters), samplers and thread group shared memory.
//!
//! Each `dcl_*` becomes one `DclCbv`/`DclSrv`/`DclUav`/`DclSampler`/`DclLds`, with the SM 5.1
//! register space and range (`count` 0 for unbounded ranges) and a `DebugName` taken from the
//! RDEF binding. Every access loads its descriptor with `DescriptorLoad`, indexing into the range
//! relative to its lower bound and flagged `NonUniform` where the operand says so.

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{
    Op, OpCode, OpFlags, Operand as IrOperand, ResourceKind, ScalarType, SsaDef, Type, UavFlags,
};

use super::registers::{Ix, Lanes};
use super::{lanes, Converter, NamePart, R};
use crate::enums::{ResourceDimension, ReturnType};
use crate::operand::Operand;
use crate::{Instruction, Payload};

/// Which descriptor heap a binding lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// Constant buffers.
    Cbv,
    /// Shader resource views.
    Srv,
    /// Unordered access views.
    Uav,
    /// Samplers.
    Sampler,
}

/// A declared resource.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Binding {
    /// The `Dcl*` op.
    pub decl: SsaDef,
    /// Resource kind (buffers and images; `BufferTyped` for CBVs and samplers).
    pub kind: ResourceKind,
    /// Sampled or element scalar type.
    pub ty: ScalarType,
    /// Descriptor count (0: unbounded).
    pub count: u32,
    /// First register of the range.
    pub lower: u32,
}

/// The IR resource kind of a dimension.
pub(crate) fn resource_kind(d: ResourceDimension) -> Option<ResourceKind> {
    use ResourceDimension as D;
    Some(match d {
        D::Buffer => ResourceKind::BufferTyped,
        D::Texture1D => ResourceKind::Image1D,
        D::Texture1DArray => ResourceKind::Image1DArray,
        D::Texture2D => ResourceKind::Image2D,
        D::Texture2DArray => ResourceKind::Image2DArray,
        D::Texture2DMS => ResourceKind::Image2DMS,
        D::Texture2DMSArray => ResourceKind::Image2DMSArray,
        D::Texture3D => ResourceKind::Image3D,
        D::TextureCube => ResourceKind::ImageCube,
        D::TextureCubeArray => ResourceKind::ImageCubeArray,
        D::RawBuffer => ResourceKind::BufferRaw,
        D::StructuredBuffer => ResourceKind::BufferStructured,
        D::Unknown => return None,
    })
}

/// The scalar type of a resource return type.
pub(crate) fn return_scalar(r: ReturnType) -> ScalarType {
    match r {
        ReturnType::Sint => ScalarType::I32,
        ReturnType::Uint | ReturnType::Mixed | ReturnType::Double => ScalarType::U32,
        _ => ScalarType::F32,
    }
}

impl<'a> Converter<'a, '_> {
    fn bindings(&mut self, class: Class) -> &mut dxspv_ir::small_map::SmallMap<u32, Binding, 4> {
        match class {
            Class::Cbv => &mut self.cbvs,
            Class::Srv => &mut self.srvs,
            Class::Uav => &mut self.uavs,
            Class::Sampler => &mut self.samplers,
        }
    }

    /// The RDEF name of a binding.
    fn rdef_name(&self, class: Class, lower: u32, space: u32) -> Option<&'a str> {
        let shader = self.shader;
        let rdef = shader.resources.as_ref()?;
        rdef.bindings
            .iter()
            .find(|b| {
                let c = match b.input_type {
                    0 => Class::Cbv,
                    3 => Class::Sampler,
                    4 | 6 | 8 | 9 | 10 | 11 => Class::Uav,
                    _ => Class::Srv,
                };
                c == class && b.bind_point == lower && b.space == space
            })
            .map(|b| b.name.as_str())
    }

    /// `(id, lower, count)` of a declaration's register operand.
    fn decl_range(&self, op: &Operand) -> R<(u32, u32, u32)> {
        let idx = |i: usize| op.indices().get(i).map(|x| x.imm as u32);
        if self.sm51 {
            let (Some(id), Some(lo), Some(hi)) = (idx(0), idx(1), idx(2)) else {
                return Err(
                    self.invalid("SM 5.1 resource declaration needs id, lower and upper bounds")
                );
            };
            let count = if hi == u32::MAX {
                0
            } else {
                hi.checked_sub(lo)
                    .and_then(|d| d.checked_add(1))
                    .ok_or_else(|| self.invalid("resource range upper bound below lower bound"))?
            };
            Ok((id, lo, count))
        } else {
            let Some(id) = idx(0) else {
                return Err(self.invalid("resource declaration without a register"));
            };
            Ok((id, id, 1))
        }
    }

    /// Declares a CBV, SRV, UAV, sampler or TGSM block.
    pub(crate) fn declare_resource(&mut self, inst: &Instruction<'_>) -> R<()> {
        let Some(op) = inst.operands().first().copied() else {
            return Err(self.invalid("resource declaration without a register"));
        };
        let ep = self.ep;
        let unbounded = |t: Type, me: &Self| t.array_of(0).map_err(|e| me.invalid(e.to_string()));
        match inst.payload {
            Payload::TgsmRaw { byte_count } => {
                self.check_tgsm_size(byte_count as u64)?;
                let id = self.imm_index(&op, 0)? as u32;
                let n = (byte_count / 4).max(1);
                let ty = Type::scalar(ScalarType::U32)
                    .array_of(n)
                    .map_err(|e| self.invalid(e.to_string()))?;
                let d = self.decl(Op::new(OpCode::DclLds, ty).with_ref(ep));
                self.name_parts(d, &[NamePart::S("g"), NamePart::N(id as u64)]);
                self.lds.insert(id, (d, 0));
                return Ok(());
            }
            Payload::TgsmStructured { stride, count } => {
                self.check_tgsm_size(stride as u64 * count as u64)?;
                let id = self.imm_index(&op, 0)? as u32;
                let sdw = (stride / 4).max(1);
                let ty = Type::scalar(ScalarType::U32)
                    .array_of(sdw)
                    .and_then(|t| t.array_of(count.max(1)))
                    .map_err(|e| self.invalid(e.to_string()))?;
                let d = self.decl(Op::new(OpCode::DclLds, ty).with_ref(ep));
                self.name_parts(d, &[NamePart::S("g"), NamePart::N(id as u64)]);
                self.lds.insert(id, (d, sdw));
                return Ok(());
            }
            _ => {}
        }
        let (id, lower, count) = self.decl_range(&op)?;
        let (class, opc, ty, kind, flags, space, _stride_dw, prefix) = match inst.payload {
            Payload::ConstantBuffer { size, space, .. } => {
                let ty = Type::vector(ScalarType::F32, 4)
                    .array_of(size.clamp(1, 65536))
                    .map_err(|e| self.invalid(e.to_string()))?;
                (
                    Class::Cbv,
                    OpCode::DclCbv,
                    ty,
                    ResourceKind::BufferTyped,
                    None,
                    space,
                    0,
                    "cb",
                )
            }
            Payload::Sampler { space, .. } => (
                Class::Sampler,
                OpCode::DclSampler,
                Type::VOID,
                ResourceKind::BufferTyped,
                None,
                space,
                0,
                "s",
            ),
            Payload::Resource {
                dimension,
                return_type,
                space,
                ..
            } => {
                let kind = resource_kind(dimension)
                    .ok_or_else(|| self.invalid("resource of unknown dimension"))?;
                let ty = Type::scalar(return_scalar(return_type[0]));
                (Class::Srv, OpCode::DclSrv, ty, kind, None, space, 0, "t")
            }
            Payload::ResourceRaw { space } => {
                let ty = unbounded(Type::scalar(ScalarType::U32), self)?;
                (
                    Class::Srv,
                    OpCode::DclSrv,
                    ty,
                    ResourceKind::BufferRaw,
                    None,
                    space,
                    0,
                    "t",
                )
            }
            Payload::ResourceStructured { stride, space } => {
                let sdw = (stride / 4).max(1);
                let ty = Type::scalar(ScalarType::U32)
                    .array_of(sdw)
                    .and_then(|t| t.array_of(0))
                    .map_err(|e| self.invalid(e.to_string()))?;
                (
                    Class::Srv,
                    OpCode::DclSrv,
                    ty,
                    ResourceKind::BufferStructured,
                    None,
                    space,
                    sdw,
                    "t",
                )
            }
            Payload::UavTyped {
                dimension,
                flags,
                return_type,
                space,
            } => {
                let kind = resource_kind(dimension)
                    .ok_or_else(|| self.invalid("UAV of unknown dimension"))?;
                if kind.is_multisampled() {
                    return Err(self.invalid("a UAV cannot be multisampled"));
                }
                let ty = Type::scalar(return_scalar(return_type[0]));
                (
                    Class::Uav,
                    OpCode::DclUav,
                    ty,
                    kind,
                    Some(flags),
                    space,
                    0,
                    "u",
                )
            }
            Payload::UavRaw { flags, space } => {
                let ty = unbounded(Type::scalar(ScalarType::U32), self)?;
                (
                    Class::Uav,
                    OpCode::DclUav,
                    ty,
                    ResourceKind::BufferRaw,
                    Some(flags),
                    space,
                    0,
                    "u",
                )
            }
            Payload::UavStructured {
                flags,
                stride,
                space,
            } => {
                let sdw = (stride / 4).max(1);
                let ty = Type::scalar(ScalarType::U32)
                    .array_of(sdw)
                    .and_then(|t| t.array_of(0))
                    .map_err(|e| self.invalid(e.to_string()))?;
                (
                    Class::Uav,
                    OpCode::DclUav,
                    ty,
                    ResourceKind::BufferStructured,
                    Some(flags),
                    space,
                    sdw,
                    "u",
                )
            }
            _ => return Err(self.invalid("resource declaration without its payload")),
        };
        let mut dop = Op::new(opc, ty)
            .with_ref(ep)
            .with_lit(space as u64)
            .with_lit(lower as u64)
            .with_lit(count as u64);
        if matches!(class, Class::Srv | Class::Uav) {
            dop = dop.with_lit(kind.to_literal());
        }
        if let Some(f) = flags {
            let mut u = UavFlags::empty();
            if f.globally_coherent {
                u |= UavFlags::Coherent;
            }
            if f.rasterizer_ordered {
                u |= UavFlags::RasterizerOrdered;
            }
            dop = dop.with_lit(u.to_literal());
        }
        let decl = self.decl(dop);
        match self.rdef_name(class, lower, space) {
            Some(name) => self.name(decl, name),
            None => self.name_parts(decl, &[NamePart::S(prefix), NamePart::N(id as u64)]),
        }
        let b = Binding {
            decl,
            kind,
            ty: ty.base_type().unwrap_or(ScalarType::U32),
            count,
            lower,
        };
        self.bindings(class).insert(id, b);
        Ok(())
    }

    /// The binding named by a resource operand.
    pub(crate) fn binding(&mut self, class: Class, op: &Operand) -> R<Binding> {
        let id = self.imm_index(op, 0)? as u32;
        let prefix = op.ty.prefix();
        self.bindings(class)
            .get(&id)
            .copied()
            .ok_or_else(|| self.invalid(format!("{prefix}{id} is not declared")))
    }

    /// Loads the descriptor a resource operand names: `(descriptor, binding)`.
    pub(crate) fn descriptor(&mut self, class: Class, op: &Operand) -> R<(SsaDef, Binding)> {
        let b = self.binding(class, op)?;
        let index = if self.sm51 && b.count != 1 {
            match self.operand_index(op, 1)? {
                Ix::C(c) => {
                    let i = c
                        .checked_sub(b.lower)
                        .ok_or_else(|| self.invalid("register below its range"))?;
                    self.c_u32(i)
                }
                Ix::D(d) => {
                    if b.lower == 0 {
                        d
                    } else {
                        let lo = self.c_u32(b.lower);
                        self.op2(OpCode::ISub, ScalarType::U32, d, lo)
                    }
                }
            }
        } else {
            self.c_u32(0)
        };
        let ty = match class {
            Class::Cbv => ScalarType::Cbv,
            Class::Srv => ScalarType::Srv,
            Class::Uav => ScalarType::Uav,
            Class::Sampler => ScalarType::Sampler,
        };
        let key = (b.decl, index, op.non_uniform);
        if let Some(d) = self.descriptors.get(key) {
            return Ok((d, b));
        }
        let mut dl = Op::new(OpCode::DescriptorLoad, ty)
            .with_ref(b.decl)
            .with_ref(index);
        if op.non_uniform {
            dl = dl.with_flags(OpFlags::NON_UNIFORM);
        }
        let d = self.code(dl);
        self.descriptors.put(key, d);
        Ok((d, b))
    }

    /// Marks a typed UAV as accessed with atomics (`FixedFormat`).
    pub(crate) fn mark_fixed_format(&mut self, b: &Binding) {
        if let Some(op) = self.b.get(b.decl) {
            if op.opcode == OpCode::DclUav {
                let flags = op.lit(4).unwrap_or(0) | UavFlags::FixedFormat.to_literal();
                let at = op.operands.len() - 1;
                self.b.set_operand(b.decl, at, IrOperand::lit(flags));
            }
        }
    }

    /// The counter descriptor of a UAV, declaring `DclUavCounter` on first use.
    pub(crate) fn counter_descriptor(&mut self, op: &Operand) -> R<SsaDef> {
        let id = self.imm_index(op, 0)? as u32;
        let b = self.binding(Class::Uav, op)?;
        let counter = match self.counters.get(&id) {
            Some(&c) => c,
            None => {
                let ep = self.ep;
                let c = self.decl(
                    Op::new(OpCode::DclUavCounter, ScalarType::U32)
                        .with_ref(ep)
                        .with_ref(b.decl),
                );
                self.name_parts(
                    c,
                    &[
                        NamePart::S("u"),
                        NamePart::N(id as u64),
                        NamePart::S("_counter"),
                    ],
                );
                self.counters.insert(id, c);
                c
            }
        };
        let index = if self.sm51 && b.count != 1 {
            let ix = self.operand_index(op, 1)?;
            let v = self.ix_value(ix);
            if b.lower == 0 {
                v
            } else {
                let lo = self.c_u32(b.lower);
                self.op2(OpCode::ISub, ScalarType::U32, v, lo)
            }
        } else {
            self.c_u32(0)
        };
        let mut dl = Op::new(OpCode::DescriptorLoad, ScalarType::UavCounter)
            .with_ref(counter)
            .with_ref(index);
        if op.non_uniform {
            dl = dl.with_flags(OpFlags::NON_UNIFORM);
        }
        Ok(self.code(dl))
    }

    /// Loads components of `cb#[...]`.
    pub(crate) fn load_cb_comps(&mut self, op: &Operand, ty: ScalarType, comps: u8) -> R<Lanes> {
        // `cb[this.x + …][…]`: class instance data in a slot known at draw time.
        if !self.sm51 && op.indices().first().is_some_and(|i| i.relative.is_some()) {
            return self.load_cb_dynamic_slot(op, ty, comps);
        }
        let (desc, _) = self.descriptor(Class::Cbv, op)?;
        let elem = self.operand_index(op, if self.sm51 { 2 } else { 1 })?;
        // Read untyped, the value is the `f32` load itself: looked up under `f32`, the one key
        // it is remembered under.
        let ty = if ty == ScalarType::Unknown {
            ScalarType::F32
        } else {
            ty
        };
        let mut out: Lanes = [None; 4];
        for c in lanes(comps) {
            let addr = self.address(&[elem, Ix::C(c as u32)]);
            if let Some(v) = self.cb_loads.get((desc, addr, ty)) {
                out[c] = Some(v);
                continue;
            }
            let raw = if ty == ScalarType::F32 {
                None
            } else {
                self.cb_loads.get((desc, addr, ScalarType::F32))
            };
            let v = match raw {
                Some(v) => v,
                None => {
                    let v = self.code(
                        Op::new(OpCode::BufferLoad, ScalarType::F32)
                            .with_ref(desc)
                            .with_opt_ref(addr)
                            .with_lit(4),
                    );
                    self.cb_loads.put((desc, addr, ScalarType::F32), v);
                    v
                }
            };
            let typed = self.coerce(v, ScalarType::F32, ty);
            if typed != v {
                self.cb_loads.put((desc, addr, ty), typed);
            }
            out[c] = Some(typed);
        }
        Ok(out)
    }

    /// Rejects thread group shared memory beyond [`super::limits::MAX_TGSM_BYTES`].
    fn check_tgsm_size(&self, bytes: u64) -> R<()> {
        if bytes > super::limits::MAX_TGSM_BYTES {
            return Err(self.invalid(format!(
                "{bytes} bytes of thread group shared memory exceed the limit of {}",
                super::limits::MAX_TGSM_BYTES
            )));
        }
        Ok(())
    }

    /// Loads components of `icb[...]`: constants for static indices, `ConstantLoad` else.
    pub(crate) fn load_icb_comps(&mut self, op: &Operand, ty: ScalarType, comps: u8) -> R<Lanes> {
        let Some((icb, _)) = self.icb.as_ref().map(|(c, w)| (*c, w.len())) else {
            return Err(self.invalid("icb is read but not declared"));
        };
        let elem = self.operand_index(op, 0)?;
        let mut out: Lanes = [None; 4];
        for c in lanes(comps) {
            out[c] = Some(match elem {
                Ix::C(i) => {
                    let bits = self
                        .icb
                        .as_ref()
                        .and_then(|(_, w)| w.get(i as usize * 4 + c).copied())
                        .unwrap_or(0);
                    self.imm_constant(ty, bits)
                }
                Ix::D(_) => {
                    let addr = self.address(&[elem, Ix::C(c as u32)]);
                    let v = self.code(
                        Op::new(OpCode::ConstantLoad, ScalarType::U32)
                            .with_ref(icb)
                            .with_opt_ref(addr),
                    );
                    self.coerce(v, ScalarType::U32, ty)
                }
            });
        }
        Ok(out)
    }
}
