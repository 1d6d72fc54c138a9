//! Resources: the ranges of `dx.resources` as `DclCbv`/`DclSrv`/`DclUav`/`DclSampler`, and
//! the handles that name them (`CreateHandle`, SM 6.6's `CreateHandleFromBinding`,
//! `CreateHandleFromHeap` and `AnnotateHandle`).
//!
//! A handle is a `DescriptorLoad` of its range at the index relative to the range's lower
//! bound (DXIL's index is absolute in the register space), flagged `NonUniform` where the
//! module says so. Structured buffers whose stride is not a multiple of four bytes (16-bit
//! members) are declared as raw buffers and addressed in bytes. Descriptor heap handles get
//! their declaration from their annotation: one unbounded array per kind of view in
//! [`super::RESOURCE_HEAP_SPACE`] / [`super::SAMPLER_HEAP_SPACE`] (see [`heap_register`]).

use dxspv_ir::frontend::{FrontendBuilder, NamePart};
use dxspv_ir::small_map::SmallMap;
use dxspv_ir::{Op, OpCode, OpFlags, ResourceKind, ScalarType, SsaDef, Type, UavFlags};

use super::dx_op::code as C;
use super::values::{Handle, HeapHandle, Val};
use super::{Args, Converter, R};
use crate::dx::{ComponentType, Resource, ResourceClass, ResourceKind as DxKind};
use crate::module::{Constant, Instruction};

/// A declared resource range.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ResDecl {
    /// The `Dcl*` op.
    pub dcl: SsaDef,
    /// Its class.
    pub class: ResourceClass,
    /// The IR kind (`BufferTyped` for CBVs and samplers).
    pub kind: ResourceKind,
    /// The element type of typed resources (`u32` for others).
    pub elem: ScalarType,
    /// Structure stride in bytes of a structured buffer declared as structured.
    pub stride: u32,
    /// Lower bound of the range.
    pub lower: u32,
    /// Descriptors in the range (0: unbounded).
    pub count: u32,
    /// The UAV counter, once used.
    pub counter: Option<SsaDef>,
}

/// The declared resources.
#[derive(Default)]
pub(crate) struct Resources {
    /// Every declaration.
    pub decls: Vec<ResDecl>,
    /// `(class, range id)` to declaration.
    pub by_id: SmallMap<(u32, u32), u32, 8>,
    /// Descriptor heap declarations by `(class, IR kind, element type)`.
    pub heap: SmallMap<(u32, u32, u32), u32, 4>,
}

/// The IR kind of a DXIL resource kind, `None` for kinds the converter refuses.
fn ir_kind(k: DxKind) -> Option<ResourceKind> {
    Some(match k {
        DxKind::Texture1D => ResourceKind::Image1D,
        DxKind::Texture2D => ResourceKind::Image2D,
        DxKind::Texture2DMS => ResourceKind::Image2DMS,
        DxKind::Texture3D => ResourceKind::Image3D,
        DxKind::TextureCube => ResourceKind::ImageCube,
        DxKind::Texture1DArray => ResourceKind::Image1DArray,
        DxKind::Texture2DArray => ResourceKind::Image2DArray,
        DxKind::Texture2DMSArray => ResourceKind::Image2DMSArray,
        DxKind::TextureCubeArray => ResourceKind::ImageCubeArray,
        DxKind::TypedBuffer => ResourceKind::BufferTyped,
        DxKind::RawBuffer => ResourceKind::BufferRaw,
        DxKind::StructuredBuffer => ResourceKind::BufferStructured,
        _ => return None,
    })
}

/// The IR scalar type of a typed resource's element type.
fn element_scalar(t: Option<ComponentType>) -> ScalarType {
    match t {
        Some(ComponentType::I32 | ComponentType::I16 | ComponentType::I1) => ScalarType::I32,
        Some(ComponentType::U32 | ComponentType::U16) => ScalarType::U32,
        Some(ComponentType::I64) => ScalarType::I64,
        Some(ComponentType::U64) => ScalarType::U64,
        _ => ScalarType::F32,
    }
}

/// The register of a descriptor heap view in its heap's register space: four registers per
/// IR resource kind (by its literal), one per element type (`f32`, `i32`, `u32`, other).
/// CBVs and samplers use register 0.
pub fn heap_register(kind: ResourceKind, elem: ScalarType) -> u32 {
    let slot = match elem {
        ScalarType::F32 => 0,
        ScalarType::I32 => 1,
        ScalarType::U32 => 2,
        _ => 3,
    };
    kind.to_literal() as u32 * 4 + slot
}

impl<'s> Converter<'s> {
    /// Declares every range of `dx.resources`.
    pub(crate) fn declare_resources(&mut self) -> R<()> {
        self.at.what = "dx.resources";
        let md = self.md;
        for list in [
            &md.resources.srvs,
            &md.resources.uavs,
            &md.resources.cbvs,
            &md.resources.samplers,
        ] {
            for r in list {
                self.declare_resource(r)?;
            }
        }
        Ok(())
    }

    /// Declares one range.
    fn declare_resource(&mut self, r: &Resource) -> R<()> {
        if r.space == super::AGS_SPACE {
            return Err(self.unsupported("AMD AGS driver intrinsics"));
        }
        let count = if r.range_size == u32::MAX {
            0
        } else {
            r.range_size.max(1)
        };
        let mut feedback = UavFlags::empty();
        let (kind, elem, stride, as_raw) = match r.class {
            ResourceClass::Cbv => (ResourceKind::BufferTyped, ScalarType::U32, 0, false),
            ResourceClass::Sampler => (ResourceKind::BufferTyped, ScalarType::U32, 0, false),
            ResourceClass::Srv | ResourceClass::Uav => match r.kind {
                DxKind::RtAccelerationStructure => {
                    return Err(self.unsupported("inline ray tracing (RayQuery)"))
                }
                DxKind::FeedbackTexture2D => {
                    feedback = self.feedback_flags(r)?;
                    (ResourceKind::FeedbackImage2D, ScalarType::U32, 0, false)
                }
                DxKind::FeedbackTexture2DArray => {
                    feedback = self.feedback_flags(r)?;
                    (
                        ResourceKind::FeedbackImage2DArray,
                        ScalarType::U32,
                        0,
                        false,
                    )
                }
                DxKind::TBuffer => return Err(self.unsupported("texture buffers (tbuffer)")),
                DxKind::StructuredBuffer => {
                    let s = r.structured_stride.unwrap_or(0);
                    if s > 0 && s % 4 == 0 {
                        (ResourceKind::BufferStructured, ScalarType::U32, s, false)
                    } else {
                        (ResourceKind::BufferRaw, ScalarType::U32, s, true)
                    }
                }
                k => {
                    let kind = ir_kind(k).ok_or_else(|| {
                        self.invalid(format!("resource {} of kind {}", r.id, k.name()))
                    })?;
                    let elem = match (kind, element_scalar(r.element_type)) {
                        (ResourceKind::BufferRaw, _) => ScalarType::U32,
                        // A typed resource used with SM 6.6's 64-bit atomics names 32-bit
                        // elements and tag 3: its texels are 64-bit integers.
                        (_, ScalarType::U32) if r.atomic64 => ScalarType::U64,
                        (_, ScalarType::I32) if r.atomic64 => ScalarType::I64,
                        (_, e) => e,
                    };
                    (kind, elem, 0, false)
                }
            },
        };
        let flags = feedback
            | if r.globally_coherent {
                UavFlags::Coherent
            } else {
                UavFlags::empty()
            }
            | if r.rasterizer_ordered {
                UavFlags::RasterizerOrdered
            } else {
                UavFlags::empty()
            };
        let dcl = self.declare_range(
            r.class,
            kind,
            elem,
            stride,
            as_raw,
            r.space,
            r.lower_bound,
            count,
            flags,
            r.cbv_size,
        )?;
        let prefix = match r.class {
            ResourceClass::Srv => "t",
            ResourceClass::Uav => "u",
            ResourceClass::Cbv => "cb",
            ResourceClass::Sampler => "s",
        };
        if r.name.is_empty() {
            self.name_parts(
                dcl,
                &[NamePart::S(prefix), NamePart::N(u64::from(r.lower_bound))],
            );
        } else {
            self.name(dcl, &r.name);
        }
        let idx = self.res.decls.len() as u32;
        self.res.decls.push(ResDecl {
            dcl,
            class: r.class,
            kind,
            elem,
            stride,
            lower: r.lower_bound,
            count,
            counter: None,
        });
        self.res.by_id.insert((r.class.to_u32(), r.id), idx);
        Ok(())
    }

    /// The `Dcl*` op of one range.
    #[allow(clippy::too_many_arguments)]
    fn declare_range(
        &mut self,
        class: ResourceClass,
        kind: ResourceKind,
        elem: ScalarType,
        stride: u32,
        as_raw: bool,
        space: u32,
        lower: u32,
        count: u32,
        flags: UavFlags,
        cbv_size: u32,
    ) -> R<SsaDef> {
        let ep = self.ep;
        let te = |me: &Self, e| me.type_error(e);
        let op = match class {
            ResourceClass::Cbv => {
                let rows = cbv_size.div_ceil(16).clamp(1, 4096);
                let ty = Type::vector(ScalarType::F32, 4)
                    .array_of(rows)
                    .map_err(|e| te(self, e))?;
                Op::new(OpCode::DclCbv, ty)
            }
            ResourceClass::Sampler => Op::new(OpCode::DclSampler, Type::VOID),
            ResourceClass::Srv | ResourceClass::Uav => {
                let ty = match kind {
                    ResourceKind::BufferRaw => Type::scalar(ScalarType::U32)
                        .array_of(0)
                        .map_err(|e| te(self, e))?,
                    ResourceKind::BufferStructured if !as_raw => Type::scalar(ScalarType::U32)
                        .array_of(stride / 4)
                        .and_then(|t| t.array_of(0))
                        .map_err(|e| te(self, e))?,
                    _ => Type::scalar(elem),
                };
                let opc = if class == ResourceClass::Srv {
                    OpCode::DclSrv
                } else {
                    OpCode::DclUav
                };
                Op::new(opc, ty)
            }
        };
        let mut op = op
            .with_ref(ep)
            .with_lit(u64::from(space))
            .with_lit(u64::from(lower))
            .with_lit(u64::from(count));
        if matches!(class, ResourceClass::Srv | ResourceClass::Uav) {
            op = op.with_lit(kind.to_literal());
        }
        if class == ResourceClass::Uav {
            op = op.with_lit(flags.to_literal());
        }
        Ok(self.decl(op))
    }

    /// `CreateHandle`, `CreateHandleFromBinding`, `CreateHandleFromHeap`, `AnnotateHandle`.
    pub(crate) fn handle_op(&mut self, code: u32, args: &Args, inst: &'s Instruction) -> R<()> {
        let v = match code {
            C::CREATE_HANDLE => {
                let class = self.arg_const(args, 1, "resource class")?;
                let id = self.arg_const(args, 2, "range id")?;
                let res = self
                    .res
                    .by_id
                    .get(&(class as u32, id as u32))
                    .copied()
                    .ok_or_else(|| {
                        self.invalid(format!(
                            "no resource of class {class} with range id {id} in dx.resources"
                        ))
                    })?;
                let nu = self.arg_const(args, 4, "non-uniform flag").unwrap_or(0) != 0;
                self.bound_handle(res, args, 3, nu)?
            }
            C::CREATE_HANDLE_FROM_BINDING => {
                let [lower, _upper, space, class] = self.res_bind(args)?;
                let res = self
                    .res
                    .decls
                    .iter()
                    .position(|d| {
                        d.class.to_u32() == class && d.lower == lower && self.decl_space(d) == Some(space)
                    })
                    .ok_or_else(|| {
                        self.invalid(format!(
                            "no resource of class {class} at register {lower}, space {space} in dx.resources"
                        ))
                    })? as u32;
                let nu = self.arg_const(args, 3, "non-uniform flag").unwrap_or(0) != 0;
                self.bound_handle(res, args, 2, nu)?
            }
            C::CREATE_HANDLE_FROM_HEAP => {
                let index = self.arg_def(args, 1)?;
                let sampler = self.arg_const(args, 2, "sampler heap flag")? != 0;
                let nu = self.arg_const(args, 3, "non-uniform flag").unwrap_or(0) != 0;
                self.f.heap_handles.push(HeapHandle {
                    index,
                    sampler,
                    non_uniform: nu,
                });
                Val::HeapHandle((self.f.heap_handles.len() - 1) as u32)
            }
            C::ANNOTATE_HANDLE => {
                let h = self.arg(args, 1)?;
                match self.value(h)? {
                    v @ Val::Handle(_) => v,
                    Val::HeapHandle(i) => {
                        let hh = self.f.heap_handles[i as usize];
                        let props = self.props(args)?;
                        self.heap_handle(hh, props)?
                    }
                    _ => {
                        return Err(self.invalid("AnnotateHandle of something other than a handle"))
                    }
                }
            }
            _ => return Err(self.invalid("not a handle operation")),
        };
        self.set(inst.result(), v)
    }

    /// The register space of a declaration.
    fn decl_space(&self, d: &ResDecl) -> Option<u32> {
        self.b.get(d.dcl).and_then(|op| op.lit(0)).map(|s| s as u32)
    }

    /// A handle of declared range `res`, indexed by argument `arg` (absolute register).
    fn bound_handle(&mut self, res: u32, args: &Args, arg: usize, non_uniform: bool) -> R<Val> {
        let d = self.res.decls[res as usize];
        let index = if d.count == 1 {
            self.c_u32(0)
        } else {
            let a = self.arg(args, arg)?;
            match self.const_int(a) {
                Some(i) => {
                    let rel = (i as u32).checked_sub(d.lower).ok_or_else(|| {
                        self.invalid(format!(
                            "resource index {i} is below its range's lower bound {}",
                            d.lower
                        ))
                    })?;
                    self.c_u32(rel)
                }
                None => {
                    let i = self.def(a)?;
                    if d.lower == 0 {
                        i
                    } else {
                        let lo = self.c_u32(d.lower);
                        self.op2(OpCode::ISub, ScalarType::U32, i, lo)
                    }
                }
            }
        };
        let desc = self.descriptor_load(d.dcl, d.class, index, non_uniform);
        self.f.handles.push(Handle {
            desc,
            res,
            index,
            non_uniform,
            stride: d.stride,
        });
        Ok(Val::Handle((self.f.handles.len() - 1) as u32))
    }

    /// `DescriptorLoad` of a range.
    fn descriptor_load(
        &mut self,
        dcl: SsaDef,
        class: ResourceClass,
        index: SsaDef,
        non_uniform: bool,
    ) -> SsaDef {
        let ty = match class {
            ResourceClass::Cbv => ScalarType::Cbv,
            ResourceClass::Srv => ScalarType::Srv,
            ResourceClass::Uav => ScalarType::Uav,
            ResourceClass::Sampler => ScalarType::Sampler,
        };
        let mut op = Op::new(OpCode::DescriptorLoad, ty)
            .with_ref(dcl)
            .with_ref(index);
        if non_uniform {
            op = op.with_flags(OpFlags::NON_UNIFORM);
        }
        self.code(op)
    }

    /// The `%dx.types.ResBind` constant of `CreateHandleFromBinding`: lower bound, upper
    /// bound, space, class.
    fn res_bind(&self, args: &Args) -> R<[u32; 4]> {
        let a = self.arg(args, 1)?;
        self.const_struct_u32(a, "resource binding")
    }

    /// The two words of an `AnnotateHandle`'s `%dx.types.ResourceProperties` constant.
    fn props(&self, args: &Args) -> R<[u32; 2]> {
        let a = self.arg(args, 2)?;
        self.const_struct_u32(a, "resource properties")
    }

    /// The integer members of a constant struct.
    fn const_struct_u32<const N: usize>(
        &self,
        id: crate::module::ValueId,
        what: &str,
    ) -> R<[u32; N]> {
        let body = self.body()?;
        let c = self
            .m
            .constant(Some(body), id)
            .ok_or_else(|| self.invalid(format!("{what} must be a constant")))?;
        let mut out = [0u32; N];
        match c {
            Constant::Null => {}
            Constant::Aggregate(ops) => {
                let table = if id.index() >= self.m.values.len() {
                    &body.constants
                } else {
                    &self.m.constants
                };
                for (o, &e) in out.iter_mut().zip(table.operands(*ops)) {
                    *o = self.m.constant_int(Some(body), e).unwrap_or(0) as u32;
                }
            }
            _ => return Err(self.invalid(format!("{what} is not a constant struct"))),
        }
        Ok(out)
    }

    /// A descriptor heap handle annotated with `props`: its heap declaration and load.
    fn heap_handle(&mut self, h: HeapHandle, props: [u32; 2]) -> R<Val> {
        let kind_code = props[0] & 0xff;
        let is_uav = props[0] & (1 << 12) != 0;
        let dx_kind = DxKind::from_u32(kind_code);
        let (class, kind, elem, stride) = if h.sampler || dx_kind == DxKind::Sampler {
            (
                ResourceClass::Sampler,
                ResourceKind::BufferTyped,
                ScalarType::U32,
                0,
            )
        } else if dx_kind == DxKind::CBuffer {
            (
                ResourceClass::Cbv,
                ResourceKind::BufferTyped,
                ScalarType::U32,
                0,
            )
        } else {
            match dx_kind {
                DxKind::RtAccelerationStructure => {
                    return Err(self.unsupported("inline ray tracing (RayQuery)"))
                }
                DxKind::FeedbackTexture2D | DxKind::FeedbackTexture2DArray => {
                    return Err(self.unsupported(
                        "sampler feedback maps from the descriptor heap (ResourceDescriptorHeap)",
                    ))
                }
                _ => {}
            }
            let kind = ir_kind(dx_kind)
                .ok_or_else(|| self.invalid(format!("heap resource of kind {}", dx_kind.name())))?;
            let class = if is_uav {
                ResourceClass::Uav
            } else {
                ResourceClass::Srv
            };
            match kind {
                ResourceKind::BufferStructured => {
                    (class, ResourceKind::BufferRaw, ScalarType::U32, props[1])
                }
                ResourceKind::BufferRaw => (class, ResourceKind::BufferRaw, ScalarType::U32, 0),
                _ => {
                    let ct = ComponentType::from_u32(props[1] & 0xff);
                    let elem = element_scalar(Some(ct));
                    (class, kind, elem, 0)
                }
            }
        };
        let key = (class.to_u32(), kind.to_literal() as u32, elem as u32);
        let res = match self.res.heap.get(&key) {
            Some(&r) => r,
            None => {
                let (space, reg) = match class {
                    ResourceClass::Sampler => (super::SAMPLER_HEAP_SPACE, 0),
                    ResourceClass::Cbv => (super::RESOURCE_HEAP_SPACE, 0),
                    _ => (super::RESOURCE_HEAP_SPACE, heap_register(kind, elem)),
                };
                let dcl = self.declare_range(
                    class,
                    kind,
                    elem,
                    0,
                    kind == ResourceKind::BufferRaw,
                    space,
                    reg,
                    0,
                    UavFlags::empty(),
                    65536,
                )?;
                let name = match class {
                    ResourceClass::Sampler => "SamplerDescriptorHeap",
                    _ => "ResourceDescriptorHeap",
                };
                self.name(dcl, name);
                let r = self.res.decls.len() as u32;
                self.res.decls.push(ResDecl {
                    dcl,
                    class,
                    kind,
                    elem,
                    stride: 0,
                    lower: reg,
                    count: 0,
                    counter: None,
                });
                self.res.heap.insert(key, r);
                r
            }
        };
        let dcl = self.res.decls[res as usize].dcl;
        let desc = self.descriptor_load(dcl, class, h.index, h.non_uniform);
        self.f.handles.push(Handle {
            desc,
            res,
            index: h.index,
            non_uniform: h.non_uniform,
            stride,
        });
        Ok(Val::Handle((self.f.handles.len() - 1) as u32))
    }

    /// The handle value `id` is, and its declaration.
    pub(crate) fn handle(&mut self, id: crate::module::ValueId) -> R<(Handle, ResDecl)> {
        match self.value(id)? {
            Val::Handle(i) => {
                let h = self.f.handles[i as usize];
                Ok((h, self.res.decls[h.res as usize]))
            }
            Val::HeapHandle(_) => {
                Err(self.invalid("descriptor heap handle used without AnnotateHandle"))
            }
            other => Err(self.invalid(format!(
                "%{} is {} where a resource handle is needed",
                id.0,
                super::values::kind_name(&other)
            ))),
        }
    }

    /// The counter descriptor of a UAV handle, declaring `DclUavCounter` on first use.
    pub(crate) fn counter_descriptor(&mut self, h: &Handle) -> R<SsaDef> {
        let d = self.res.decls[h.res as usize];
        if d.class != ResourceClass::Uav {
            return Err(self.invalid("counter of a resource that is not a UAV"));
        }
        let counter = match d.counter {
            Some(c) => c,
            None => {
                let ep = self.ep;
                let c = self.decl(
                    Op::new(OpCode::DclUavCounter, ScalarType::U32)
                        .with_ref(ep)
                        .with_ref(d.dcl),
                );
                self.name_parts(
                    c,
                    &[
                        NamePart::S("u"),
                        NamePart::N(u64::from(d.lower)),
                        NamePart::S("_counter"),
                    ],
                );
                self.res.decls[h.res as usize].counter = Some(c);
                c
            }
        };
        let mut op = Op::new(OpCode::DescriptorLoad, ScalarType::UavCounter)
            .with_ref(counter)
            .with_ref(h.index);
        if h.non_uniform {
            op = op.with_flags(OpFlags::NON_UNIFORM);
        }
        Ok(self.code(op))
    }

    /// Marks a typed UAV as accessed with atomics (`FixedFormat`).
    pub(crate) fn mark_fixed_format(&mut self, d: &ResDecl) {
        if let Some(op) = self.b.get(d.dcl) {
            if op.opcode == OpCode::DclUav {
                let flags = op.lit(4).unwrap_or(0) | UavFlags::FixedFormat.to_literal();
                let at = op.operands.len() - 1;
                self.b.set_operand(d.dcl, at, dxspv_ir::Operand::lit(flags));
            }
        }
    }
}
