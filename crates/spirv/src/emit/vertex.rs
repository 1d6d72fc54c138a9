//! The vertex shader wrapper.
//!
//! Direct3D 10+ draws points one pixel wide and has no point size output, while Vulkan
//! requires a vertex shader that feeds points to the rasterizer to write `PointSize`
//! (VUID-VkGraphicsPipelineCreateInfo-Vertex-07722). So a vertex shader's entry point written
//! here stores 1.0 to a `PointSize` output and calls the shader's function; the store is
//! ignored for other primitives and when another stage follows. A shader that writes
//! `PointSize` itself (Direct3D 9's `PSIZE`) keeps its own function as entry point.

use super::error::{malformed, R};
use super::types::TyKey;
use super::Emitter;
use crate::words::inst;
use crate::InterfaceVariable;
use dxspv_ir::{BuiltIn, ScalarType, SsaDef};
use spirv::{Decoration, Op as S, StorageClass as SC};

impl<'a> Emitter<'a> {
    /// The vertex shader entry: `PointSize = 1.0`, then the shader's function.
    pub(super) fn vertex_main(&mut self, entry: SsaDef) -> R<u32> {
        let Some(f) = self.entry_fns.first().copied() else {
            let op = self.b.op(entry);
            return malformed(entry, op, "entry point without function");
        };
        let void = self.module.void_ty();
        let fty = self.module.ty_key(TyKey::Func(smallvec::smallvec![void]));
        let f32_t = self.module.scalar_ty(ScalarType::F32).unwrap_or_default();
        let var = self.module.id();
        let p = self.module.ptr(SC::Output, f32_t);
        self.module.global_var(p, SC::Output, var, None);
        self.module.decorate(
            var,
            Decoration::BuiltIn,
            &[spirv::BuiltIn::PointSize as u32],
        );
        self.refl.outputs.push(InterfaceVariable {
            location: None,
            component: 0,
            builtin: Some(BuiltIn::PointSize.name()),
            semantic: Some(("PSIZE".into(), 0)),
            patch: false,
            scalar: crate::ScalarKind::Float,
            bits: 32,
            components: 1,
            array: Vec::new(),
        });
        let one = self
            .module
            .const_scalar(ScalarType::F32, u64::from(1.0f32.to_bits()));
        let main = self.module.id();
        let label = self.module.id();
        let fv = self.v(f);
        inst(self.module.body(), S::Function, &[void, main, 0, fty]);
        inst(self.module.body(), S::Label, &[label]);
        inst(self.module.body(), S::Store, &[var, one]);
        let r = self.module.id();
        inst(self.module.body(), S::FunctionCall, &[void, r, fv]);
        inst(self.module.body(), S::Return, &[]);
        inst(self.module.body(), S::FunctionEnd, &[]);
        Ok(main)
    }
}
