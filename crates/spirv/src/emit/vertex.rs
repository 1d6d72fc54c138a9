//! The vertex shader's point size.
//!
//! Direct3D 10+ draws points one pixel wide and has no point size output, while Vulkan
//! requires a vertex shader that feeds points to the rasterizer to write `PointSize`
//! (VUID-VkGraphicsPipelineCreateInfo-Vertex-07722). So a vertex shader gets a `PointSize`
//! output to which the first block of its entry function stores 1.0 (the store is ignored for
//! other primitives and when another stage follows). A shader that writes `PointSize` itself
//! (Direct3D 9's `PSIZE`) declares it, and gets nothing added. Every declaration comes before
//! the code in the IR, so the outputs are all known when the entry function's first block is
//! reached.

use super::Emitter;
use crate::words::inst;
use crate::InterfaceVariable;
use dxspv_ir::{BuiltIn, ScalarType, ShaderStage, SsaDef};
use spirv::{Decoration, Op as S, StorageClass as SC};

impl<'a> Emitter<'a> {
    /// True if `func`, whose `Function` op is being emitted, is the entry function of a
    /// vertex shader that must be given a `PointSize` output (see the module doc).
    pub(super) fn needs_point_size(&self, func: SsaDef) -> bool {
        self.stage == ShaderStage::Vertex
            && self.opts.vertex_point_size
            && self.entry_fns.first() == Some(&func)
            && !self
                .refl
                .outputs
                .iter()
                .any(|o| o.builtin == Some(BuiltIn::PointSize.name()))
    }

    /// Declares the `PointSize` output and stores 1.0 to it, at the start of the entry
    /// function's first block.
    pub(super) fn store_point_size(&mut self) {
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
        inst(self.module.body(), S::Store, &[var, one]);
    }
}
