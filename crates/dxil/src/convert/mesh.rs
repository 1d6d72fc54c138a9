//! Mesh and amplification shaders (SM 6.5) and per-vertex attributes (SM 6.1).
//!
//! - `SetMeshOutputCounts` is `MeshSetOutputCounts`; `DispatchMesh` is `DispatchMesh` (its
//!   payload operand is the amplification shader's payload variable).
//! - `StoreVertexOutput` and `StorePrimitiveOutput` store to the output arrays of the
//!   vertex and primitive signatures (`io.rs` declares them per vertex, stream 0, or per
//!   primitive, stream 1); `EmitIndices` stores the `PrimitiveIndices` built-in
//!   (`vec3<u32>` per triangle, `vec2<u32>` per line).
//! - The payload: DXIL reads it through the pointer `GetMeshPayload` returns (mesh shaders)
//!   or a groupshared global handed to `DispatchMesh` (amplification shaders), both of the
//!   payload's struct type. It is declared `DclMeshPayload` as an array of 32-bit words, the
//!   struct laid out field after field, one word per scalar of up to 32 bits (both shaders
//!   lay out the same struct alike); a pointer into it is a word offset
//!   ([`MemBase::Payload`]), `getelementptr` adds the words of the elements and fields it
//!   steps over, and scalars are loaded and stored as words (16-bit values in the low half,
//!   64-bit ones as two words, low first).
//! - `AttributeAtVertex(element, row, col, vertex)`: an `InputLoad` of the element declared
//!   `PerVertex` (an array of 3, see `io.rs`); the module is scanned first for the elements
//!   it reads so (their other reads are of vertex 0).

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{BuiltIn, Op, OpCode, ScalarType, SsaDef, Type};

use super::dx_op::code as C;
use super::io::Sig;
use super::values::{MemBase, PtrInfo, Val};
use super::{Args, Converter, R};
use crate::dx::{MeshOutputTopology, ShaderKind};
use crate::module::{Instruction, Type as LlType, TypeId, ValueId, ValueKind};

/// The most 32-bit words a payload may have (Direct3D's 16 KiB).
const MAX_PAYLOAD_WORDS: u32 = 16384 / 4;

/// Mesh, amplification and per-vertex state.
#[derive(Default)]
pub(crate) struct MeshState {
    /// The `DclMeshPayload`, once declared.
    pub payload: Option<SsaDef>,
    /// The amplification shader's payload global (the one `DispatchMesh` is given).
    pub payload_global: Option<u32>,
    /// The `PrimitiveIndices` output, once declared.
    pub indices: Option<SsaDef>,
    /// Pixel shader input elements read with `AttributeAtVertex`.
    pub per_vertex: smallvec::SmallVec<[u32; 4]>,
}

impl<'s> Converter<'s> {
    /// Scans the module before conversion: the amplification shader's payload global and
    /// the pixel shader's per-vertex inputs.
    pub(crate) fn scan_mesh_uses(&mut self) -> R<()> {
        let want = match self.stage {
            ShaderKind::Amplification => C::DISPATCH_MESH,
            ShaderKind::Pixel => C::ATTRIBUTE_AT_VERTEX,
            _ => return Ok(()),
        };
        let m = self.m;
        for (_, body) in m.definitions() {
            for inst in &body.instructions {
                let Some((code, _)) = m.dx_op(body, &inst.op) else {
                    continue;
                };
                if code != want {
                    continue;
                }
                let crate::module::Op::Call { args, .. } = inst.op else {
                    continue;
                };
                let ops = body.operands(args);
                if code == C::DISPATCH_MESH {
                    let Some(&p) = ops.get(4) else {
                        return Err(self.invalid("DispatchMesh without a payload"));
                    };
                    let g = match m.values.get(p as usize).map(|v| v.kind) {
                        Some(ValueKind::GlobalVariable(g)) => g,
                        _ => {
                            return Err(self.unsupported(
                                "a DispatchMesh payload other than a groupshared variable",
                            ))
                        }
                    };
                    if self.mesh.payload_global.is_some_and(|h| h != g) {
                        return Err(self.invalid("DispatchMesh with two payloads"));
                    }
                    self.mesh.payload_global = Some(g);
                } else if let Some(id) = ops
                    .get(1)
                    .and_then(|&o| m.constant_int(Some(body), ValueId(o)))
                    .and_then(|v| u32::try_from(v).ok())
                {
                    if !self.mesh.per_vertex.contains(&id) {
                        self.mesh.per_vertex.push(id);
                    }
                }
            }
        }
        Ok(())
    }

    /// Mesh and amplification shader operations and `AttributeAtVertex`.
    pub(crate) fn mesh_op(&mut self, code: u32, args: &Args, inst: &'s Instruction) -> R<()> {
        match code {
            C::SET_MESH_OUTPUT_COUNTS => {
                self.require(ShaderKind::Mesh)?;
                let v = self.arg_u32(args, 1)?;
                let p = self.arg_u32(args, 2)?;
                self.code(
                    Op::new(OpCode::MeshSetOutputCounts, Type::VOID)
                        .with_ref(v)
                        .with_ref(p),
                );
                Ok(())
            }
            C::DISPATCH_MESH => {
                self.require(ShaderKind::Amplification)?;
                let x = self.arg_u32(args, 1)?;
                let y = self.arg_u32(args, 2)?;
                let z = self.arg_u32(args, 3)?;
                self.code(
                    Op::new(OpCode::DispatchMesh, Type::VOID)
                        .with_ref(x)
                        .with_ref(y)
                        .with_ref(z),
                );
                Ok(())
            }
            C::EMIT_INDICES => {
                self.require(ShaderKind::Mesh)?;
                let prim = self.arg_u32(args, 1)?;
                let d = self.primitive_indices()?;
                let n = self
                    .b
                    .op(d)
                    .ty
                    .element_type()
                    .as_basic()
                    .map_or(3, |b| b.vec_size());
                let mut parts = [prim; 3];
                for (k, slot) in parts.iter_mut().enumerate().take(usize::from(n)) {
                    *slot = self.arg_u32(args, 2 + k)?;
                }
                let v = self.vector(ScalarType::U32, &parts[..usize::from(n)]);
                self.code(
                    Op::new(OpCode::OutputStore, Type::VOID)
                        .with_ref(d)
                        .with_ref(prim)
                        .with_ref(v),
                );
                Ok(())
            }
            C::GET_MESH_PAYLOAD => {
                self.require(ShaderKind::Mesh)?;
                let pointee = self
                    .m
                    .types
                    .pointer(inst.ty)
                    .map(|(t, _)| t)
                    .ok_or_else(|| self.invalid("GetMeshPayload does not return a pointer"))?;
                let p = self.payload_pointer(pointee)?;
                let id = self.push_ptr(p);
                self.set(inst.result(), Val::Ptr(id))
            }
            C::STORE_VERTEX_OUTPUT | C::STORE_PRIMITIVE_OUTPUT => {
                self.require(ShaderKind::Mesh)?;
                let sig = if code == C::STORE_VERTEX_OUTPUT {
                    Sig::Output
                } else {
                    Sig::Patch
                };
                let index = self.arg_u32(args, 5)?;
                self.store_arrayed_output(sig, args, index)
            }
            C::ATTRIBUTE_AT_VERTEX => {
                self.require(ShaderKind::Pixel)?;
                let vertex = self.arg_u32(args, 4)?;
                if let Some(k) = self.const_of(vertex).filter(|&k| k > 2) {
                    return Err(self.invalid(format!("vertex {k} of a triangle")));
                }
                self.load_input_at_vertex(args, vertex, inst)
            }
            _ => Err(self.invalid("not a mesh shader operation")),
        }
    }

    /// Fails unless the shader is of kind `k`.
    fn require(&self, k: ShaderKind) -> R<()> {
        if self.stage == k {
            return Ok(());
        }
        Err(self.invalid(format!(
            "{} in a {} shader",
            self.at.what,
            self.stage.name()
        )))
    }

    /// Argument `i` as a `u32` (a constant stays one).
    fn arg_u32(&mut self, args: &Args, i: usize) -> R<SsaDef> {
        let d = self.arg_def(args, i)?;
        let ty = self.b.op(d).ty.base_type();
        if let (Some(k), Some(s)) = (self.const_of(d), ty) {
            if s.is_int() && !s.is_signed_int() {
                return Ok(self.c_u32(k as u32));
            }
        }
        Ok(match ty {
            Some(ScalarType::U32) => d,
            Some(s) if s.is_int() && s.bit_size() == Some(32) => {
                self.op1(OpCode::Cast, ScalarType::U32, d)
            }
            Some(s) if s.is_int() => self.op1(OpCode::ConvertItoI, ScalarType::U32, d),
            _ => return Err(self.invalid(format!("operand {i} is not an integer"))),
        })
    }

    /// The `PrimitiveIndices` output, declared on first use.
    fn primitive_indices(&mut self) -> R<SsaDef> {
        if let Some(d) = self.mesh.indices {
            return Ok(d);
        }
        let m = self
            .entry
            .properties
            .mesh
            .ok_or_else(|| self.invalid("a mesh shader without mesh shader state"))?;
        let n = match m.output_topology {
            MeshOutputTopology::Line => 2,
            _ => 3,
        };
        if m.max_primitive_count == 0 {
            return Err(self.invalid("EmitIndices in a mesh shader of 0 primitives"));
        }
        let ty = Type::vector(ScalarType::U32, n)
            .array_of(m.max_primitive_count)
            .map_err(|e| self.type_error(e))?;
        let ep = self.ep;
        let d = self.decl(
            Op::new(OpCode::DclOutputBuiltIn, ty)
                .with_ref(ep)
                .with_lit(BuiltIn::PrimitiveIndices.to_literal())
                .with_lit(1),
        );
        self.name(d, BuiltIn::PrimitiveIndices.name());
        self.mesh.indices = Some(d);
        Ok(d)
    }

    /// The 32-bit words of an LLVM type in the payload layout.
    pub(crate) fn payload_words(&self, t: TypeId) -> R<u32> {
        self.payload_words_at(t, 0)
    }

    fn payload_words_at(&self, t: TypeId, depth: u32) -> R<u32> {
        if depth > 16 {
            return Err(self.limit("levels of types in a mesh payload", 16));
        }
        let words = match self.m.types.ty(t) {
            LlType::Integer { width } if width <= 32 => 1,
            LlType::Half | LlType::Float => 1,
            LlType::Integer { width: 64 } | LlType::Double => 2,
            LlType::Array { len, element } => {
                let e = u64::from(self.payload_words_at(element, depth + 1)?);
                u32::try_from(len.saturating_mul(e)).unwrap_or(u32::MAX)
            }
            LlType::Vector { len, element } => {
                len.saturating_mul(self.payload_words_at(element, depth + 1)?)
            }
            LlType::Struct { .. } => {
                let mut sum = 0u32;
                for &f in self.m.types.struct_elements(t).unwrap_or(&[]) {
                    sum = sum.saturating_add(self.payload_words_at(f, depth + 1)?);
                }
                sum
            }
            _ => return Err(self.unsupported("this type in a mesh payload")),
        };
        if words > MAX_PAYLOAD_WORDS {
            return Err(self.limit("32-bit words of mesh payload", u64::from(MAX_PAYLOAD_WORDS)));
        }
        Ok(words)
    }

    /// The payload declaration for a payload of LLVM type `t`, made once; a pointer to its
    /// start.
    pub(crate) fn payload_pointer(&mut self, t: TypeId) -> R<PtrInfo> {
        let words = self.payload_words(t)?.max(1);
        let ty = Type::scalar(ScalarType::U32)
            .array_of(words)
            .map_err(|e| self.type_error(e))?;
        let d = match self.mesh.payload {
            Some(d) if self.b.op(d).ty == ty => d,
            Some(_) => return Err(self.invalid("mesh payloads of two types")),
            None => {
                let ep = self.ep;
                let d = self.decl(Op::new(OpCode::DclMeshPayload, ty).with_ref(ep));
                self.name(d, "payload");
                self.mesh.payload = Some(d);
                d
            }
        };
        let zero = self.c_u32(0);
        Ok(PtrInfo {
            base: MemBase::Payload(d),
            var_ty: ty,
            index: [Some(zero), None, None, None],
            len: 1,
            pointee: t,
        })
    }

    /// `getelementptr` into the payload: the word offset grows by the words stepped over.
    pub(crate) fn payload_gep(
        &mut self,
        mut p: PtrInfo,
        indices: impl Iterator<Item = ValueId>,
        result: TypeId,
    ) -> R<PtrInfo> {
        let mut cur = p.pointee;
        let mut offset =
            p.index[0].ok_or_else(|| self.invalid("payload pointer without offset"))?;
        for (k, i) in indices.enumerate() {
            let (step, next) = if k == 0 {
                (self.payload_words(cur)?, cur)
            } else {
                match self.m.types.ty(cur) {
                    LlType::Array { element, .. } | LlType::Vector { element, .. } => {
                        (self.payload_words(element)?, element)
                    }
                    LlType::Struct { .. } => {
                        let field = self
                            .const_int(i)
                            .and_then(|v| usize::try_from(v).ok())
                            .ok_or_else(|| self.invalid("struct field index is not a constant"))?;
                        let fields = self.m.types.struct_elements(cur).unwrap_or(&[]);
                        let Some(&f) = fields.get(field) else {
                            return Err(self.invalid(format!("struct field {field}")));
                        };
                        let mut before = 0u32;
                        for &g in &fields[..field] {
                            before = before.saturating_add(self.payload_words(g)?);
                        }
                        let c = self.c_u32(before);
                        offset = self.add_words(offset, c);
                        cur = f;
                        continue;
                    }
                    _ => return Err(self.invalid("getelementptr indexes into a scalar")),
                }
            };
            cur = next;
            if self.const_int(i) == Some(0) {
                continue;
            }
            let idx = self.def(i)?;
            let idx = match self.b.op(idx).ty.base_type() {
                Some(ScalarType::U32) => idx,
                Some(s) if s.is_int() => self.op1(OpCode::ConvertItoI, ScalarType::U32, idx),
                _ => return Err(self.invalid("address index is not an integer")),
            };
            let m = match self.const_of(idx) {
                Some(k) => self.c_u32((k as u32).wrapping_mul(step)),
                None if step == 1 => idx,
                None => {
                    let s = self.c_u32(step);
                    self.op2(OpCode::IMul, ScalarType::U32, idx, s)
                }
            };
            offset = self.add_words(offset, m);
        }
        p.index[0] = Some(offset);
        p.pointee = self.m.types.pointer(result).map(|(t, _)| t).unwrap_or(cur);
        Ok(p)
    }

    /// `a + b`, folded when both are constants.
    fn add_words(&mut self, a: SsaDef, b: SsaDef) -> SsaDef {
        match (self.const_of(a), self.const_of(b)) {
            (_, Some(0)) => a,
            (Some(0), _) => b,
            (Some(x), Some(y)) => self.c_u32((x as u32).wrapping_add(y as u32)),
            _ => self.op2(OpCode::IAdd, ScalarType::U32, a, b),
        }
    }

    /// The payload declaration and word offset of a payload pointer to a scalar.
    /// The payload declaration, the word offset of a pointer to a scalar of type `s`, and
    /// its words (2 for 64-bit scalars, low word first).
    fn payload_word(&self, p: &PtrInfo, s: ScalarType) -> R<(SsaDef, SsaDef, u32)> {
        let MemBase::Payload(d) = p.base else {
            return Err(self.invalid("not a payload pointer"));
        };
        let n = if s.bit_size() == Some(64) { 2 } else { 1 };
        let at = p.index[0].ok_or_else(|| self.invalid("payload pointer without offset"))?;
        let words = p.var_ty.dims().last().copied().unwrap_or(0);
        if let Some(k) = self
            .const_of(at)
            .filter(|&k| k + u64::from(n) > u64::from(words))
        {
            return Err(self.invalid(format!("word {k} of a mesh payload of {words}")));
        }
        Ok((d, at, n))
    }

    /// `load` of a scalar from the payload.
    pub(crate) fn payload_load(&mut self, p: &PtrInfo, t: TypeId) -> R<SsaDef> {
        let want = self.ir_type(t)?;
        let Some(s) = want.as_basic().filter(|b| !b.is_vector()).map(|b| b.base()) else {
            return Err(self.unsupported("loads of vectors and aggregates from a mesh payload"));
        };
        let (d, at, n) = self.payload_word(p, s)?;
        let mut w = [at; 2];
        for k in 0..n {
            let a = if k == 0 { at } else { self.add_u32(at, k) };
            w[k as usize] = self.code(
                Op::new(OpCode::LdsLoad, ScalarType::U32)
                    .with_ref(d)
                    .with_ref(a),
            );
        }
        if n == 2 {
            let pair = self.vector(ScalarType::U32, &w);
            return Ok(self.op1(OpCode::Cast, s, pair));
        }
        Ok(self.payload_word_as(w[0], s))
    }

    /// `store` of a scalar to the payload.
    pub(crate) fn payload_store(&mut self, p: &PtrInfo, v: SsaDef) -> R<()> {
        let Some(s) = self
            .b
            .op(v)
            .ty
            .as_basic()
            .filter(|b| !b.is_vector())
            .map(|b| b.base())
        else {
            return Err(self.unsupported("stores of vectors and aggregates to a mesh payload"));
        };
        let (d, at, n) = self.payload_word(p, s)?;
        let words = if n == 2 {
            let pair = self.op1(OpCode::Cast, Type::vector(ScalarType::U32, 2), v);
            let lo = self.c_u32(0);
            let hi = self.c_u32(1);
            [
                self.op2(OpCode::CompositeExtract, ScalarType::U32, pair, lo),
                self.op2(OpCode::CompositeExtract, ScalarType::U32, pair, hi),
            ]
        } else {
            [self.payload_word_of(v, s); 2]
        };
        for k in 0..n {
            let a = if k == 0 { at } else { self.add_u32(at, k) };
            self.code(
                Op::new(OpCode::LdsStore, Type::VOID)
                    .with_ref(d)
                    .with_ref(a)
                    .with_ref(words[k as usize]),
            );
        }
        Ok(())
    }

    /// A payload word as a scalar of type `s` (at most 32 bits).
    fn payload_word_as(&mut self, w: SsaDef, s: ScalarType) -> SsaDef {
        match s {
            ScalarType::U32 => w,
            ScalarType::Bool => {
                let zero = self.c_u32(0);
                self.op2(OpCode::INe, ScalarType::Bool, w, zero)
            }
            _ if s.bit_size() == Some(32) => self.op1(OpCode::Cast, s, w),
            _ => {
                let h = self.op1(OpCode::ConvertItoI, ScalarType::U16, w);
                if s == ScalarType::U16 {
                    h
                } else {
                    self.op1(OpCode::Cast, s, h)
                }
            }
        }
    }

    /// A scalar of type `s` (at most 32 bits) as a payload word.
    fn payload_word_of(&mut self, v: SsaDef, s: ScalarType) -> SsaDef {
        match s {
            ScalarType::U32 => v,
            ScalarType::Bool => {
                let one = self.c_u32(1);
                let zero = self.c_u32(0);
                self.code(
                    Op::new(OpCode::Select, ScalarType::U32)
                        .with_ref(v)
                        .with_ref(one)
                        .with_ref(zero),
                )
            }
            _ if s.bit_size() == Some(32) => self.op1(OpCode::Cast, ScalarType::U32, v),
            _ => {
                let h = if s == ScalarType::U16 {
                    v
                } else {
                    self.op1(OpCode::Cast, ScalarType::U16, v)
                };
                self.op1(OpCode::ConvertItoI, ScalarType::U32, h)
            }
        }
    }
}
