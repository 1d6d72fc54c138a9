//! Mesh and amplification shaders (`SPV_EXT_mesh_shader`, `MeshEXT` and `TaskEXT` execution
//! models; SPIR-V 1.4, refused by name before).
//!
//! A mesh shader's `SetMsOutputs` is its `OutputVertices`, `OutputPrimitivesEXT` and
//! `OutputTrianglesEXT`/`OutputLinesEXT` modes, `MeshSetOutputCounts` is
//! `OpSetMeshOutputsEXT`; its outputs are arrays (declared in `interface.rs`), the
//! per-primitive ones, those of stream 1, decorated `PerPrimitiveEXT`, and the primitive
//! indices `PrimitiveTriangleIndicesEXT` or `PrimitiveLineIndicesEXT` by the topology. Each
//! output array has as many elements as the mode's count for its stream (Direct3D's arrays
//! define those counts).
//!
//! The payload (`DclMeshPayload`) is a `TaskPayloadWorkgroupEXT` variable, read and written
//! by the LDS ops like workgroup memory. `OpEmitMeshTasksEXT`, which ends the invocation,
//! cannot stand where Direct3D calls `DispatchMesh` (code may follow it there), so
//! `DispatchMesh` stores its group counts in a `Private` `uvec3` (zero until then: no mesh
//! workgroups) and the entry point is a wrapper that calls the shader's function and then
//! emits the tasks with those counts and the payload. Direct3D runs `DispatchMesh` once, in
//! every invocation, with uniform counts, so the counts every invocation holds at the end
//! are the ones it passed.

use super::error::{malformed, unsupported, R};
use super::interface::{IoWrap, VarInfo};
use super::types::TyKey;
use super::{Emitter, Info};
use crate::words::inst;
use dxspv_ir::{BasicType, Op, PrimitiveType, ScalarType, ShaderStage, SsaDef, Type};
use smallvec::{smallvec, SmallVec};
use spirv::{Capability, ExecutionMode as M, Op as S, StorageClass as SC};

/// What the mesh and amplification ops keep per module.
#[derive(Default)]
pub(super) struct MeshState {
    /// The payload variable (0 if the shader declares none).
    payload: u32,
    /// The `Private` `uvec3` `DispatchMesh` stores its group counts in (0 until used).
    dispatch: u32,
    /// The mesh shader's output arrays: declaration, stream (0 vertices, 1 primitives) and
    /// element count, checked against the output counts when the module is finished.
    pub(super) outputs: SmallVec<[(SsaDef, u32, u32); 8]>,
    /// `SetMsOutputs`' vertex and primitive counts and topology.
    limits: Option<(u32, u32, PrimitiveType)>,
}

impl<'a> Emitter<'a> {
    /// The capability and extension of a mesh or amplification shader, refused before
    /// SPIR-V 1.4.
    pub(super) fn need_mesh_shading(&mut self, def: SsaDef, op: &Op, what: &str) -> R<()> {
        let target = self.module.target;
        if !target.at_least(1, 4) {
            return unsupported(
                def,
                op,
                format!("{what} on {target} (SPV_EXT_mesh_shader needs SPIR-V 1.4, vulkan1.2)"),
            );
        }
        self.module.cap(Capability::MeshShadingEXT);
        self.module.ext("SPV_EXT_mesh_shader");
        Ok(())
    }

    /// `SetMsOutputs`: `OutputVertices`, `OutputPrimitivesEXT` and the topology's mode.
    pub(super) fn set_ms_outputs(&mut self, def: SsaDef, op: &Op) -> R<()> {
        // A shader of no vertices or primitives (it outputs nothing) declares one: Vulkan
        // wants the modes' counts above 0.
        let vertices = self.mesh_count_lit(def, op, 0)?;
        let primitives = self.mesh_count_lit(def, op, 1)?;
        let topology = PrimitiveType::from_literal(self.lit(def, op, 2)?);
        let mode = match topology {
            Some(PrimitiveType::Triangle) => M::OutputTrianglesEXT,
            Some(PrimitiveType::Line) => M::OutputLinesEXT,
            _ => return unsupported(def, op, "mesh output topology"),
        };
        if self.mesh.limits.is_some() {
            return malformed(def, op, "a second SetMsOutputs");
        }
        self.mesh.limits = topology.map(|t| (vertices, primitives, t));
        self.module
            .execution_mode(M::OutputVertices, &[vertices.max(1)]);
        self.module
            .execution_mode(M::OutputPrimitivesEXT, &[primitives.max(1)]);
        self.module.execution_mode(mode, &[]);
        Ok(())
    }

    /// Literal `i` of `SetMsOutputs`: a count from 0 to 256.
    fn mesh_count_lit(&self, def: SsaDef, op: &Op, i: usize) -> R<u32> {
        match u32::try_from(self.lit(def, op, i)?) {
            Ok(n) if n <= 256 => Ok(n),
            _ => malformed(
                def,
                op,
                format!("count {} past 256", op.lit(i).unwrap_or(0)),
            ),
        }
    }

    /// `DclMeshPayload`: a `TaskPayloadWorkgroupEXT` variable, accessed as LDS.
    pub(super) fn dcl_mesh_payload(&mut self, def: SsaDef, op: &Op) -> R<()> {
        if self.mesh.payload != 0 {
            return malformed(def, op, "a second mesh payload");
        }
        let Some(t) = self.module.ty(&op.ty, false) else {
            return unsupported(def, op, format!("payload type {}", op.ty));
        };
        let sc = SC::TaskPayloadWorkgroupEXT;
        let p = self.module.ptr(sc, t);
        self.module.global_var(p, sc, def.id(), None);
        self.mark(def);
        self.mesh.payload = def.id();
        self.set_info(
            def,
            Info::Var(VarInfo {
                var: def.id(),
                sc,
                dcl: def,
                wrap: IoWrap::None,
                refl: 0,
            }),
        );
        Ok(())
    }

    /// The value of operand `i` as a `u32` (bit cast from an `i32`).
    fn u32_operand(&mut self, def: SsaDef, op: &Op, i: usize) -> R<u32> {
        let a = self.arg(def, op, i)?;
        let v = self.v(a);
        let u = self.module.u32_ty();
        Ok(self.operand_as(op, i, v, BasicType::scalar(ScalarType::U32), u))
    }

    /// `MeshSetOutputCounts`: `OpSetMeshOutputsEXT`.
    pub(super) fn mesh_set_output_counts(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let vertices = self.u32_operand(def, op, 0)?;
        let primitives = self.u32_operand(def, op, 1)?;
        inst(
            self.module.body(),
            S::SetMeshOutputsEXT,
            &[vertices, primitives],
        );
        Ok(())
    }

    /// `DispatchMesh`: the group counts stored for the entry point's wrapper (see the module
    /// doc).
    pub(super) fn dispatch_mesh(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let uvec3 = self
            .module
            .basic_ty(BasicType::vector(ScalarType::U32, 3))
            .unwrap_or_default();
        if self.mesh.dispatch == 0 {
            let var = self.module.id();
            let p = self.module.ptr(SC::Private, uvec3);
            let zero = self.module.const_u32(0);
            let init = self.module.const_composite(uvec3, &[zero; 3]);
            self.module.global_var(p, SC::Private, var, Some(init));
            self.mesh.dispatch = var;
        }
        let counts = [
            self.u32_operand(def, op, 0)?,
            self.u32_operand(def, op, 1)?,
            self.u32_operand(def, op, 2)?,
        ];
        let v = self.module.un(S::CompositeConstruct, uvec3, &counts);
        inst(self.module.body(), S::Store, &[self.mesh.dispatch, v]);
        Ok(())
    }

    /// The amplification shader's entry point: calls the shader's function, then emits the
    /// mesh tasks `DispatchMesh` asked for, with the payload.
    pub(super) fn task_main(&mut self, entry: SsaDef) -> R<u32> {
        let Some(f) = self.entry_fns.first().copied() else {
            let op = self.b.op(entry);
            return malformed(entry, op, "entry point without function");
        };
        let void = self.module.void_ty();
        let fty = self.module.ty_key(TyKey::Func(smallvec![void]));
        let u = self.module.u32_ty();
        let [main, label, call] = [self.module.id(), self.module.id(), self.module.id()];
        let fv = self.v(f);
        inst(self.module.body(), S::Function, &[void, main, 0, fty]);
        inst(self.module.body(), S::Label, &[label]);
        inst(self.module.body(), S::FunctionCall, &[void, call, fv]);
        let counts: [u32; 3] = if self.mesh.dispatch == 0 {
            [self.module.const_u32(0); 3]
        } else {
            let uvec3 = self
                .module
                .basic_ty(BasicType::vector(ScalarType::U32, 3))
                .unwrap_or_default();
            let all = self.module.un(S::Load, uvec3, &[self.mesh.dispatch]);
            [0, 1, 2].map(|k| self.module.un(S::CompositeExtract, u, &[all, k]))
        };
        let mut args: SmallVec<[u32; 4]> = SmallVec::from_slice(&counts);
        if self.mesh.payload != 0 {
            args.push(self.mesh.payload);
        }
        inst(self.module.body(), S::EmitMeshTasksEXT, &args);
        inst(self.module.body(), S::FunctionEnd, &[]);
        Ok(main)
    }

    /// Records a mesh shader output array (`def`, of stream `stream`) and the decorations of
    /// its stream: `PerPrimitiveEXT` for a per-primitive one but the primitive indices (as
    /// glslang declares `gl_PrimitiveTriangleIndicesEXT`).
    pub(super) fn mesh_output(&mut self, def: SsaDef, op: &Op, var: u32, stream: u32) -> R<()> {
        let Some(&n) = op.ty.dims().last().filter(|&&n| n != 0) else {
            return malformed(
                def,
                op,
                format!(
                    "mesh output of type {}: not an array of vertices or primitives",
                    op.ty
                ),
            );
        };
        if stream > 1 {
            return malformed(def, op, format!("mesh output stream {stream}"));
        }
        let indices = op.opcode == dxspv_ir::OpCode::DclOutputBuiltIn
            && op.lit(0).and_then(dxspv_ir::BuiltIn::from_literal)
                == Some(dxspv_ir::BuiltIn::PrimitiveIndices);
        if stream == 1 && !indices {
            self.module
                .decorate(var, spirv::Decoration::PerPrimitiveEXT, &[]);
        }
        self.mesh.outputs.push((def, stream, n));
        Ok(())
    }

    /// The modes a mesh or amplification shader needs, and its output arrays against its
    /// output counts.
    pub(super) fn complete_mesh_modes(&mut self, entry: SsaDef) -> R<()> {
        let op = self.b.op(entry);
        if self.stage == ShaderStage::Mesh {
            let Some((vertices, primitives, topology)) = self.mesh.limits else {
                return malformed(entry, op, "a mesh shader needs a SetMsOutputs");
            };
            for &(def, stream, n) in &self.mesh.outputs {
                let want = if stream == 0 { vertices } else { primitives };
                if n != want {
                    let dcl = self.b.op(def);
                    let what = if stream == 0 {
                        "vertices"
                    } else {
                        "primitives"
                    };
                    return malformed(
                        def,
                        dcl,
                        format!("an output of {n} {what} in a mesh shader of {want}"),
                    );
                }
                let indices = self
                    .b
                    .op(def)
                    .lit(0)
                    .and_then(dxspv_ir::BuiltIn::from_literal)
                    == Some(dxspv_ir::BuiltIn::PrimitiveIndices)
                    && self.b.op(def).opcode == dxspv_ir::OpCode::DclOutputBuiltIn;
                let want_size = if topology == PrimitiveType::Triangle {
                    3
                } else {
                    2
                };
                let elem = self.b.op(def).ty.element_type();
                if indices && elem != Type::vector(ScalarType::U32, want_size) {
                    let dcl = self.b.op(def);
                    return malformed(
                        def,
                        dcl,
                        format!("primitive indices of {} for {topology} primitives", dcl.ty),
                    );
                }
            }
        }
        Ok(())
    }
}
