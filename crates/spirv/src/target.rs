//! Target environments ([`TargetEnv`]): the SPIR-V version, memory model and extensions of
//! each, and the questions the emitter asks of them (documented on the type, where rustdoc
//! shows them).

use spirv::Capability;
use std::fmt;
use std::str::FromStr;

/// The environment a module is written for: which SPIR-V version it is in, which memory
/// model it uses, and what that version lacks that the backend needs an extension or another
/// form for.
///
/// The names are those of `spirv-val --target-env` and glslang: `vulkan1.0` to `vulkan1.3`
/// (the SPIR-V version each Vulkan version accepts at most: 1.0, 1.3, 1.5, 1.6) and
/// `spirv1.0` to `spirv1.6` (that SPIR-V version, for a consumer that says which version it
/// reads rather than which Vulkan; spirv-val's spelling `spv1.N` is accepted too). The
/// default is `vulkan1.3`.
///
/// # Memory model
///
/// The Vulkan memory model is used where the target guarantees it: `vulkan1.3` (Vulkan 1.3
/// requires the `vulkanMemoryModel` feature) and `spirv1.5`/`spirv1.6` (core SPIR-V there;
/// the consumer asked for that version as such). Every other target gets the `GLSL450`
/// memory model: on `vulkan1.2` the Vulkan memory model is core SPIR-V but an optional
/// device feature, so the model every Vulkan 1.2 device runs is the safer default (a program
/// that knows its device has the feature can ask for `spirv1.5`, which `spirv-val
/// --target-env vulkan1.2` accepts too). Under `GLSL450` the backend's Vulkan-memory-model
/// forms become their older equivalents: no `NonPrivatePointer`/`NonPrivateTexel` operands
/// (all shared memory is non-private there), a globally coherent UAV is decorated
/// `Coherent` instead of making each access available or visible, `QueueFamily` scope
/// becomes `Device`, barriers lose `MakeAvailable`/`MakeVisible`, and the hull shader's
/// output barrier is a plain `OpControlBarrier Workgroup Invocation None` (outputs are
/// ordered by the barrier itself there, as GLSL's `barrier()` in a tessellation control
/// shader).
///
/// # What each version lacks
///
/// - `StorageBuffer` storage class (core in 1.3): before, `Uniform` with `BufferBlock`
///   structs, which every Vulkan 1.0 device takes without an extension.
/// - `DrawParameters`, `MultiView` (1.3): `SPV_KHR_shader_draw_parameters`,
///   `SPV_KHR_multiview`.
/// - The entry point's interface lists every global variable from 1.4, only the `Input`
///   and `Output` ones before.
/// - `OpCopyLogical` (1.4): before, an aggregate is copied member by member
///   (`OpCompositeExtract`, `OpCompositeConstruct`).
/// - `OpSelect` of composites and with a scalar condition for vectors (1.4): before, an
///   aggregate is selected member by member and the condition splatted to a vector.
/// - Float controls (`DenormPreserve`, `RoundingModeRTE`, ...; 1.4): `SPV_KHR_float_controls`.
/// - Descriptor indexing (`RuntimeDescriptorArray`, `ShaderNonUniform`, the
///   `*ArrayNonUniformIndexing` capabilities; 1.5): `SPV_EXT_descriptor_indexing`.
/// - `ShaderLayer`, `ShaderViewportIndex` (1.5): `ShaderViewportIndexLayerEXT` with
///   `SPV_EXT_shader_viewport_index_layer`.
/// - `VulkanMemoryModel` (1.5): the `GLSL450` memory model (see above).
/// - `OpDemoteToHelperInvocation` (1.6): `SPV_EXT_demote_to_helper_invocation` (D3D's
///   `discard` leaves the invocation running as a helper for its quad's derivatives, which
///   `OpKill` would not; so demote is kept on every target, through its extension).
///
/// The backend emits no `OpTerminateInvocation`, image operands `SignExtend`/`ZeroExtend`
/// or 8- and 16-bit storage capabilities, so their versions do not matter to it.
///
/// Subgroup scope has no form before SPIR-V 1.3 in Vulkan (Vulkan 1.0 has no subgroups): a
/// quad- or subgroup-scope barrier is refused for `vulkan1.0`, naming the feature.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TargetEnv {
    /// Vulkan 1.0: SPIR-V 1.0, `GLSL450` memory model.
    Vulkan1_0,
    /// Vulkan 1.1: SPIR-V 1.3, `GLSL450` memory model.
    Vulkan1_1,
    /// Vulkan 1.2: SPIR-V 1.5, `GLSL450` memory model (the Vulkan memory model is an
    /// optional feature there).
    Vulkan1_2,
    /// Vulkan 1.3: SPIR-V 1.6, Vulkan memory model (the default).
    #[default]
    Vulkan1_3,
    /// SPIR-V 1.0, `GLSL450` memory model.
    Spirv1_0,
    /// SPIR-V 1.1, `GLSL450` memory model.
    Spirv1_1,
    /// SPIR-V 1.2, `GLSL450` memory model.
    Spirv1_2,
    /// SPIR-V 1.3, `GLSL450` memory model.
    Spirv1_3,
    /// SPIR-V 1.4, `GLSL450` memory model.
    Spirv1_4,
    /// SPIR-V 1.5, Vulkan memory model.
    Spirv1_5,
    /// SPIR-V 1.6, Vulkan memory model.
    Spirv1_6,
}

/// A target environment name that is none of [`TargetEnv::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown target environment '{0}' (expected vulkan1.0, vulkan1.1, vulkan1.2, vulkan1.3 \
     or spirv1.0 to spirv1.6)"
)]
pub struct UnknownTargetEnv(pub String);

impl TargetEnv {
    /// Every target environment, Vulkan versions first.
    pub const ALL: [TargetEnv; 11] = [
        TargetEnv::Vulkan1_0,
        TargetEnv::Vulkan1_1,
        TargetEnv::Vulkan1_2,
        TargetEnv::Vulkan1_3,
        TargetEnv::Spirv1_0,
        TargetEnv::Spirv1_1,
        TargetEnv::Spirv1_2,
        TargetEnv::Spirv1_3,
        TargetEnv::Spirv1_4,
        TargetEnv::Spirv1_5,
        TargetEnv::Spirv1_6,
    ];

    /// The name `spirv-val --target-env` and glslang use: `vulkan1.3`, `spirv1.4`, ...
    pub fn name(self) -> &'static str {
        match self {
            TargetEnv::Vulkan1_0 => "vulkan1.0",
            TargetEnv::Vulkan1_1 => "vulkan1.1",
            TargetEnv::Vulkan1_2 => "vulkan1.2",
            TargetEnv::Vulkan1_3 => "vulkan1.3",
            TargetEnv::Spirv1_0 => "spirv1.0",
            TargetEnv::Spirv1_1 => "spirv1.1",
            TargetEnv::Spirv1_2 => "spirv1.2",
            TargetEnv::Spirv1_3 => "spirv1.3",
            TargetEnv::Spirv1_4 => "spirv1.4",
            TargetEnv::Spirv1_5 => "spirv1.5",
            TargetEnv::Spirv1_6 => "spirv1.6",
        }
    }

    /// The name `spirv-val --target-env` takes, which spells the SPIR-V versions `spv1.N`
    /// (glslang's `spirv1.N`); Vulkan versions as [`Self::name`].
    pub fn spirv_val_name(self) -> &'static str {
        match self {
            TargetEnv::Spirv1_0 => "spv1.0",
            TargetEnv::Spirv1_1 => "spv1.1",
            TargetEnv::Spirv1_2 => "spv1.2",
            TargetEnv::Spirv1_3 => "spv1.3",
            TargetEnv::Spirv1_4 => "spv1.4",
            TargetEnv::Spirv1_5 => "spv1.5",
            TargetEnv::Spirv1_6 => "spv1.6",
            t => t.name(),
        }
    }

    /// The SPIR-V version of the module, `(major, minor)`.
    pub fn spirv_version(self) -> (u8, u8) {
        match self {
            TargetEnv::Vulkan1_0 | TargetEnv::Spirv1_0 => (1, 0),
            TargetEnv::Spirv1_1 => (1, 1),
            TargetEnv::Spirv1_2 => (1, 2),
            TargetEnv::Vulkan1_1 | TargetEnv::Spirv1_3 => (1, 3),
            TargetEnv::Spirv1_4 => (1, 4),
            TargetEnv::Vulkan1_2 | TargetEnv::Spirv1_5 => (1, 5),
            TargetEnv::Vulkan1_3 | TargetEnv::Spirv1_6 => (1, 6),
        }
    }

    /// The version word of the SPIR-V header (`0x00MMmm00`).
    pub fn version_word(self) -> u32 {
        let (major, minor) = self.spirv_version();
        (u32::from(major) << 16) | (u32::from(minor) << 8)
    }

    /// True if the module uses the Vulkan memory model, false for `GLSL450` (see the type's
    /// docs for the choice).
    pub fn vulkan_memory_model(self) -> bool {
        matches!(
            self,
            TargetEnv::Vulkan1_3 | TargetEnv::Spirv1_5 | TargetEnv::Spirv1_6
        )
    }

    /// True for the Vulkan targets.
    pub fn is_vulkan(self) -> bool {
        matches!(
            self,
            TargetEnv::Vulkan1_0
                | TargetEnv::Vulkan1_1
                | TargetEnv::Vulkan1_2
                | TargetEnv::Vulkan1_3
        )
    }

    /// True if the SPIR-V version is at least `major.minor`.
    pub(crate) fn at_least(self, major: u8, minor: u8) -> bool {
        self.spirv_version() >= (major, minor)
    }

    /// True if buffers are `StorageBuffer` blocks (SPIR-V 1.3), not `Uniform` `BufferBlock`s.
    pub(crate) fn storage_buffer_class(self) -> bool {
        self.at_least(1, 3)
    }

    /// True if the entry point lists every global variable (SPIR-V 1.4), not only the
    /// `Input` and `Output` ones.
    pub(crate) fn interface_lists_all_globals(self) -> bool {
        self.at_least(1, 4)
    }

    /// True if `OpCopyLogical` exists and `OpSelect` takes composites and a scalar condition
    /// for vectors (SPIR-V 1.4).
    pub(crate) fn composite_copy_and_select(self) -> bool {
        self.at_least(1, 4)
    }

    /// True if subgroup scope exists (every SPIR-V version outside Vulkan; Vulkan 1.1 on).
    pub(crate) fn subgroup_scope(self) -> bool {
        !self.is_vulkan() || self.at_least(1, 3)
    }

    /// The capability to declare for `c` in this version, and the extension it needs there,
    /// if any (see the type's docs).
    pub(crate) fn capability(self, c: Capability) -> (Capability, Option<&'static str>) {
        use Capability as C;
        let ext = match c {
            C::DrawParameters if !self.at_least(1, 3) => "SPV_KHR_shader_draw_parameters",
            C::MultiView if !self.at_least(1, 3) => "SPV_KHR_multiview",
            C::DenormPreserve
            | C::DenormFlushToZero
            | C::SignedZeroInfNanPreserve
            | C::RoundingModeRTE
            | C::RoundingModeRTZ
                if !self.at_least(1, 4) =>
            {
                "SPV_KHR_float_controls"
            }
            C::RuntimeDescriptorArray
            | C::ShaderNonUniform
            | C::UniformBufferArrayNonUniformIndexing
            | C::StorageBufferArrayNonUniformIndexing
            | C::UniformTexelBufferArrayNonUniformIndexing
            | C::StorageTexelBufferArrayNonUniformIndexing
            | C::StorageImageArrayNonUniformIndexing
            | C::SampledImageArrayNonUniformIndexing
                if !self.at_least(1, 5) =>
            {
                "SPV_EXT_descriptor_indexing"
            }
            C::ShaderLayer | C::ShaderViewportIndex if !self.at_least(1, 5) => {
                return (
                    C::ShaderViewportIndexLayerEXT,
                    Some("SPV_EXT_shader_viewport_index_layer"),
                );
            }
            C::DemoteToHelperInvocation if !self.at_least(1, 6) => {
                "SPV_EXT_demote_to_helper_invocation"
            }
            _ => return (c, None),
        };
        (c, Some(ext))
    }
}

impl fmt::Display for TargetEnv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TargetEnv {
    type Err = UnknownTargetEnv;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TargetEnv::ALL
            .into_iter()
            .find(|t| t.name() == s || t.spirv_val_name() == s)
            .ok_or_else(|| UnknownTargetEnv(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_versions_follow_vulkan() {
        for t in TargetEnv::ALL {
            assert_eq!(t.name().parse::<TargetEnv>(), Ok(t));
            assert_eq!(t.spirv_val_name().parse::<TargetEnv>(), Ok(t));
            assert_eq!(t.to_string(), t.name());
        }
        assert_eq!(TargetEnv::default(), TargetEnv::Vulkan1_3);
        let versions: Vec<(u8, u8)> = TargetEnv::ALL[..4]
            .iter()
            .map(|t| t.spirv_version())
            .collect();
        assert_eq!(versions, [(1, 0), (1, 3), (1, 5), (1, 6)]);
        for (i, t) in TargetEnv::ALL[4..].iter().enumerate() {
            assert_eq!(t.spirv_version(), (1, i as u8));
        }
        assert_eq!(TargetEnv::Vulkan1_3.version_word(), 0x0001_0600);
        assert_eq!(TargetEnv::Spirv1_4.version_word(), 0x0001_0400);
        assert!("vulkan1.4".parse::<TargetEnv>().is_err());
        assert!("Vulkan1.3".parse::<TargetEnv>().is_err());
    }

    #[test]
    fn the_vulkan_memory_model_only_where_guaranteed() {
        let vmm: Vec<&str> = TargetEnv::ALL
            .iter()
            .filter(|t| t.vulkan_memory_model())
            .map(|t| t.name())
            .collect();
        assert_eq!(vmm, ["vulkan1.3", "spirv1.5", "spirv1.6"]);
    }

    #[test]
    fn capabilities_get_their_extension_before_their_core_version() {
        use Capability as C;
        let v10 = TargetEnv::Vulkan1_0;
        let v13 = TargetEnv::Vulkan1_3;
        assert_eq!(
            v10.capability(C::DrawParameters),
            (C::DrawParameters, Some("SPV_KHR_shader_draw_parameters"))
        );
        assert_eq!(
            TargetEnv::Vulkan1_1.capability(C::DrawParameters),
            (C::DrawParameters, None)
        );
        assert_eq!(
            TargetEnv::Spirv1_3.capability(C::DenormPreserve).1,
            Some("SPV_KHR_float_controls")
        );
        assert_eq!(TargetEnv::Spirv1_4.capability(C::DenormPreserve).1, None);
        assert_eq!(
            TargetEnv::Vulkan1_1.capability(C::ShaderLayer),
            (
                C::ShaderViewportIndexLayerEXT,
                Some("SPV_EXT_shader_viewport_index_layer")
            )
        );
        assert_eq!(
            TargetEnv::Vulkan1_2.capability(C::ShaderLayer),
            (C::ShaderLayer, None)
        );
        assert_eq!(
            TargetEnv::Vulkan1_2
                .capability(C::DemoteToHelperInvocation)
                .1,
            Some("SPV_EXT_demote_to_helper_invocation")
        );
        assert_eq!(
            TargetEnv::Vulkan1_1.capability(C::ShaderNonUniform).1,
            Some("SPV_EXT_descriptor_indexing")
        );
        // Nothing needs an extension at the default target.
        for c in [
            C::DrawParameters,
            C::DenormPreserve,
            C::ShaderLayer,
            C::DemoteToHelperInvocation,
            C::RuntimeDescriptorArray,
            C::MultiView,
            C::Shader,
        ] {
            assert_eq!(v13.capability(c), (c, None));
        }
    }
}
