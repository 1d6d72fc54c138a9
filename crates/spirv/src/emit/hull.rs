//! The hull shader wrapper.
//!
//! A D3D hull shader is two functions: the control point phase, run once per output control
//! point, and the patch constant phase, run once per patch. A Vulkan tessellation control
//! shader is one entry point run once per output control point, so the entry point written
//! here calls the control point function, waits at a workgroup `OpControlBarrier` whose
//! semantics make the outputs available and visible (`OutputMemory`, acquire-release; under
//! the `GLSL450` memory model the barrier alone orders them), and has invocation 0 call the
//! patch constant function.

use super::error::{malformed, R};
use super::types::TyKey;
use super::Emitter;
use crate::words::inst;
use dxspv_ir::{ScalarType, SsaDef};
use spirv::{Decoration, Op as S, StorageClass as SC};

impl<'a> Emitter<'a> {
    /// The joined hull shader entry: control point phase, barrier, patch constants on
    /// invocation 0.
    pub(super) fn hull_main(&mut self, entry: SsaDef) -> R<u32> {
        let op = self.b.op(entry);
        let (Some(cp), Some(pc)) = (
            self.entry_fns.first().copied(),
            self.entry_fns.get(1).copied(),
        ) else {
            return malformed(entry, op, "hull shader needs two functions");
        };
        let void = self.module.void_ty();
        let fty = self.module.ty_key(TyKey::Func(smallvec::smallvec![void]));
        let u = self.module.u32_ty();
        let (inv, inv_ty) = match self.invocation_id_var {
            Some(v) => v,
            None => {
                let v = self.module.id();
                let p = self.module.ptr(SC::Input, u);
                self.module.global_var(p, SC::Input, v, None);
                self.module.decorate(
                    v,
                    Decoration::BuiltIn,
                    &[spirv::BuiltIn::InvocationId as u32],
                );
                (v, u)
            }
        };
        let main = self.module.id();
        let l0 = self.module.id();
        let l1 = self.module.id();
        let l2 = self.module.id();
        let c0 = self.module.const_u32(0);
        let wg = self.module.const_u32(spirv::Scope::Workgroup as u32);
        // AcquireRelease | OutputMemory | MakeAvailable | MakeVisible on the outputs; under
        // GLSL450, which has no OutputMemory, the barrier itself orders them (memory scope
        // Invocation, no semantics, as GLSL's barrier() in a tessellation control shader).
        let (mem_scope, sem) = if self.module.vulkan_memory_model() {
            (wg, self.module.const_u32(0x8 | 0x1000 | 0x2000 | 0x4000))
        } else {
            let invocation = self.module.const_u32(spirv::Scope::Invocation as u32);
            (invocation, self.module.const_u32(0))
        };
        let bool_t = self.module.scalar_ty(ScalarType::Bool).unwrap_or_default();
        let cpv = self.v(cp);
        let pcv = self.v(pc);
        inst(self.module.body(), S::Function, &[void, main, 0, fty]);
        inst(self.module.body(), S::Label, &[l0]);
        let r = self.module.id();
        inst(self.module.body(), S::FunctionCall, &[void, r, cpv]);
        inst(self.module.body(), S::ControlBarrier, &[wg, mem_scope, sem]);
        // (Loaded as declared; the compare takes either signedness.)
        let iv = self.module.un(S::Load, inv_ty, &[inv]);
        let is0 = self.module.un(S::IEqual, bool_t, &[iv, c0]);
        inst(self.module.body(), S::SelectionMerge, &[l2, 0]);
        inst(self.module.body(), S::BranchConditional, &[is0, l1, l2]);
        inst(self.module.body(), S::Label, &[l1]);
        let r2 = self.module.id();
        inst(self.module.body(), S::FunctionCall, &[void, r2, pcv]);
        inst(self.module.body(), S::Branch, &[l2]);
        inst(self.module.body(), S::Label, &[l2]);
        inst(self.module.body(), S::Return, &[]);
        inst(self.module.body(), S::FunctionEnd, &[]);
        Ok(main)
    }
}
