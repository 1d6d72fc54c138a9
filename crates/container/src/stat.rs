//! SFI0 feature flags and STAT statistics.

use crate::error::Error;
use crate::partread::PartReader;
use crate::FourCC;

/// Shader feature flags from the SFI0 part (`D3D_SHADER_FEATURE_*` bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureFlags(pub u64);

impl FeatureFlags {
    /// Parses the SFI0 part (a 64-bit flag word).
    pub fn parse(data: &[u8]) -> Result<Self, Error> {
        let r = PartReader {
            fourcc: FourCC::SFI0,
            data,
        };
        let lo = r.u32(0)? as u64;
        let hi = if data.len() >= 8 { r.u32(4)? as u64 } else { 0 };
        Ok(FeatureFlags(lo | (hi << 32)))
    }

    /// Names of the set bits that fxc and dxc document (`ShaderFeatureInfo_*`), in bit
    /// order.
    pub fn names(self) -> Vec<&'static str> {
        const NAMES: [&str; 33] = [
            "Double-precision floating point",
            "Raw and Structured buffers",
            "UAVs at every shader stage",
            "64 UAV slots",
            "Minimum-precision data types",
            "Double-precision extensions for 11.1",
            "Shader extensions for 11.1",
            "Comparison filtering for feature level 9",
            "Tiled resources",
            "PS Output Stencil Ref",
            "PS Inner Coverage",
            "Typed UAV Load Additional Formats",
            "Raster Ordered UAVs",
            "SV_RenderTargetArrayIndex or SV_ViewportArrayIndex from any shader feeding rasterizer",
            "Wave level operations",
            "64-Bit integer",
            "View Instancing",
            "Barycentrics",
            "Use native low precision",
            "Shading Rate",
            "Raytracing tier 1.1 features",
            "Sampler feedback",
            "64-bit Atomics on Typed Resources",
            "64-bit Atomics on Group Shared",
            "Derivatives in mesh and amplification shaders",
            "Resource descriptor heap indexing",
            "Sampler descriptor heap indexing",
            "Wave MMA",
            "64-bit Atomics on Heap Resources",
            "Advanced Texture Ops",
            "Writeable MSAA Textures",
            "SampleCmp with gradient or bias",
            "Extended command information",
        ];
        NAMES
            .iter()
            .enumerate()
            .filter(|(i, _)| self.0 & (1u64 << i) != 0)
            .map(|(_, n)| *n)
            .collect()
    }
}

/// The STAT part kept as raw 32-bit counts (instruction count first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statistics {
    /// The counts in part order.
    pub counts: Vec<u32>,
}

impl Statistics {
    /// Parses the STAT part; a trailing partial word is ignored.
    pub fn parse(data: &[u8]) -> Self {
        Statistics {
            counts: data
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        }
    }

    /// The instruction count (first field), if present.
    pub fn instruction_count(&self) -> Option<u32> {
        self.counts.first().copied()
    }
}
