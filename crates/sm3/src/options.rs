//! [`Options`]: the Direct3D 9 application state a translated shader depends on, and the
//! fixed specialization constant ids ([`spec_id`]), push constant layout ([`push`]) and state
//! buffer layout ([`state`]) through which a host supplies the state that may change without
//! a new translation.
//!
//! A Direct3D 9 shader does not compute everything the pipeline draws: the fixed-function
//! stages around it (alpha test, fog blending, user clip planes, point size, projected
//! texture coordinates, bump-environment matrices, shade mode) read render and texture
//! stage states the application sets at draw time. Vulkan has none of these stages, so the
//! translation computes them, and each piece of state reaches the shader in one of four
//! ways, chosen by how often it changes and what it changes:
//!
//! * **compile time** ([`Options`] fields): the state changes the module's types,
//!   declarations or decorations, so another value means another translation;
//! * **specialization constant** ([`spec_id`]): the host sets it when it creates the
//!   pipeline; the module stays the same, the driver folds the branches it guards;
//! * **push constant** ([`push`]): per-draw values that change often, pushed at no cost;
//! * **state buffer** ([`state`]): values too large for push constants that change rarely
//!   (clip planes, bump-environment matrices), one small constant buffer per stage at `b3`
//!   the host writes when the state changes.
//!
//! Alpha test, fog and user clip planes are emulated only for the states
//! [`Options::dynamic_state`] names; the others are compiled as a fresh device has them (off)
//! and cost the shader nothing.
//!
//! Every default is what a fresh Direct3D 9 device does. The push block is one layout
//! shared by both stages (vertex shader fields first, pixel shader fields after them, no
//! byte used by both), [`push::SIZE`] bytes in all, so a host can keep one range for every
//! Direct3D 9 pipeline; a shader declares only the members and the state buffer it reads,
//! and its reflection lists them. Push constants and the state buffer have no defaults: the
//! host writes every member the shader's reflection lists (the values of a fresh device are
//! given with each offset).

use crate::decode::TextureType;

/// How `0 × anything` is computed (`mul`, `mad`, `dp*`, `m*x*`, `lrp`, `pow`, `lit`, …).
///
/// Direct3D 9 hardware returns 0 for a product with a zero factor, even when the other is
/// infinite or NaN, where IEEE arithmetic gives NaN. Shaders written for Direct3D 9 rely on
/// it (a `dp4` of a position whose `w` is 0 with a matrix row holding infinities, `pow(0,
/// 0)`, an uninitialised register multiplied by 0). Compile time: it changes the arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FloatEmulation {
    /// Every product follows the zero rule: the converter emits the IR's `FMulLegacy`,
    /// `FMadLegacy`, `FDotLegacy` and `FPowLegacy` for every multiplication the instruction
    /// set defines (the pass pipeline lowers them with one compare and select per
    /// component when `preserve_legacy_mul_zero` is on, its default).
    #[default]
    Strict,
    /// The zero rule only where products hide inside one instruction (dot products,
    /// matrix-vector products, `pow`, `lit`, `nrm`, the texture matrix instructions);
    /// `mul`, `mad`, `lrp` and `crs` use IEEE arithmetic. About half the cost of
    /// [`FloatEmulation::Strict`] on typical shaders.
    Fast,
    /// IEEE arithmetic everywhere (`0 × inf = NaN`): fastest, and what shaders that never
    /// meet infinities or NaNs get anyway.
    Off,
}

/// The Direct3D 9 state a translation is made for. See the module documentation for the
/// three ways state reaches a shader; the fields here are the compile-time ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Texture type of each sampler `s0`-`s15` whose type the shader does not declare
    /// (`ps_1_x` texture stages, `dcl s#` without a type): the type of the texture the
    /// application binds there. Compile time: it picks the image type the module declares.
    /// Default: [`TextureType::Texture2D`] everywhere. [`TextureType::Unknown`] is read as
    /// 2D and [`TextureType::Texture1D`] as a 2D texture of height 1, as Direct3D 9 has it.
    pub sampler_types: [TextureType; 16],
    /// Samplers (bit `n` = `s#n` of the shader being translated) bound to a depth texture
    /// with hardware shadow-map comparison (`D3DFMT_D16`/`D24X8`/`D24S8` sampled through a
    /// sampler whose compare operation the host sets, `LESS_OR_EQUAL` in Direct3D 9): a
    /// sample compares the coordinate's `z` (after the projective divide) with the depth
    /// and returns the filtered result in all four components. Only 2D samplers compare
    /// (Direct3D 9 has no cube or volume depth textures; their bits are ignored). Compile
    /// time: it changes the sample instructions. Default: none.
    pub depth_compare_samplers: u32,
    /// `D3DRS_SHADEMODE` is `D3DSHADE_FLAT`: colour inputs of pixel shaders (`v0`/`v1`
    /// before 3.0, `dcl_color` inputs in 3.0) take the provoking vertex's value. Compile
    /// time: it changes interpolation decorations. Default: `false` (Gouraud).
    pub flat_shading: bool,
    /// How products with a zero factor are computed. Default: [`FloatEmulation::Strict`].
    pub float_emulation: FloatEmulation,
    /// The vertex shader is created on a device doing software vertex processing
    /// (`D3DCREATE_SOFTWARE_VERTEXPROCESSING`, or `MIXED` with
    /// `SetSoftwareVertexProcessing(TRUE)`): the hardware vertex profiles then have 8192
    /// float constants instead of 256, so `c256`-`c8191` are accepted and relative
    /// addressing reaches all of them. Compile time: it changes which shaders are valid and
    /// the size of the constant buffer. Default: `false` (hardware vertex processing, where
    /// Direct3D 9 refuses a `vs_1_1`-`vs_3_0` shader naming `c256`).
    pub software_vertex_processing: bool,
    /// The fixed-function states the translation emulates through specialization
    /// constants, push constants and the state buffer, so that the host can change them
    /// without a new translation. A state left out is compiled as a fresh device has it:
    /// no alpha test, no fog, no user clip plane; the shader then declares nothing for it
    /// (no spec constant, no push member, no `ClipDistance`). Default:
    /// [`DynamicState::NONE`]; a host that lets the application change these states sets
    /// [`DynamicState::ALL`] (or the states it handles otherwise left out).
    pub dynamic_state: DynamicState,
}

/// A set of fixed-function states emulated by the translation ([`Options::dynamic_state`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DynamicState(u8);

impl DynamicState {
    /// None: a fresh device's states compiled in.
    pub const NONE: DynamicState = DynamicState(0);
    /// The alpha test (`D3DRS_ALPHATESTENABLE`, `ALPHAFUNC`, `ALPHAREF`), pixel shaders.
    pub const ALPHA_TEST: DynamicState = DynamicState(1);
    /// Fog (`D3DRS_FOGENABLE`, `FOGTABLEMODE`, `FOGCOLOR`, `FOGSTART`, `FOGEND`,
    /// `FOGDENSITY`), pixel shaders before 3.0.
    pub const FOG: DynamicState = DynamicState(2);
    /// User clip planes (`D3DRS_CLIPPLANEENABLE`, `SetClipPlane`), vertex shaders.
    pub const CLIP_PLANES: DynamicState = DynamicState(4);
    /// All of them.
    pub const ALL: DynamicState = DynamicState(7);

    /// Whether every state of `other` is in `self`.
    pub fn contains(self, other: DynamicState) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for DynamicState {
    type Output = DynamicState;
    fn bitor(self, rhs: DynamicState) -> DynamicState {
        DynamicState(self.0 | rhs.0)
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            sampler_types: [TextureType::Texture2D; 16],
            depth_compare_samplers: 0,
            flat_shading: false,
            float_emulation: FloatEmulation::Strict,
            software_vertex_processing: false,
            dynamic_state: DynamicState::NONE,
        }
    }
}

/// Specialization constant ids (`VkSpecializationMapEntry::constantID`): 32-bit unsigned
/// integers, declared by a shader only when it reads them and listed with their defaults in
/// its reflection.
pub mod spec_id {
    /// `D3DRS_ALPHAFUNC` as its `D3DCMPFUNC` number (1 `NEVER` … 8 `ALWAYS`), or 8 when
    /// `D3DRS_ALPHATESTENABLE` is off. Pixel shaders. Default 8: no alpha test.
    pub const ALPHA_FUNC: u32 = 0x4000_0100;
    /// `D3DRS_FOGENABLE` (0 or 1). Pixel shaders before 3.0 (a `ps_3_0` shader computes its
    /// own fog). Default 0.
    pub const FOG_ENABLE: u32 = 0x4000_0101;
    /// `D3DRS_FOGTABLEMODE` as its `D3DFOGMODE` number: 0 `NONE` (vertex fog: the fog
    /// factor is the interpolated `oFog`), 1 `EXP`, 2 `EXP2`, 3 `LINEAR` (per-pixel fog
    /// from the depth `z` of the fragment). Pixel shaders before 3.0. Default 0.
    pub const FOG_MODE: u32 = 0x4000_0102;
    /// `D3DRS_CLIPPLANEENABLE`: bit `n` enables user clip plane `n` (0-5; the planes are in
    /// the [`state`](super::state) buffer). Vertex shaders. Default 0 (no plane: the driver
    /// folds the clip distances to 0).
    pub const CLIP_PLANE_ENABLE: u32 = 0x4000_0103;
    /// `D3DRS_POINTSPRITEENABLE` (0 or 1). Reserved: declared by no shader yet (the
    /// texture coordinate replacement needs the point coordinate built-in, which the IR
    /// does not have). Default 0.
    pub const POINT_SPRITE_ENABLE: u32 = 0x4000_0104;
    /// `D3DTTFF_PROJECTED` per texture stage: bit `n` makes `ps_1_1`-`ps_1_3`'s `tex t#n`
    /// divide its coordinate by `w`. Pixel shaders 1.1-1.3. Default 0.
    pub const PROJECTED_TEXTURES: u32 = 0x4000_0105;
}

/// Byte offsets of the members of the push constant block: the per-draw values that change
/// often. Vertex shader members occupy bytes 0-11, pixel shader members 12-39 (no byte is used
/// by both stages); the block is [`push::SIZE`] bytes, well inside the 128 bytes Vulkan
/// guarantees (`maxPushConstantsSize`), so one pipeline layout range serves every Direct3D 9
/// pipeline and leaves room for the host's own push data.
pub mod push {
    /// `f32`: `D3DRS_POINTSIZE`, the point size when the vertex shader does not write
    /// `oPts`. Vertex shaders. A fresh device: 1.0.
    pub const POINT_SIZE: u32 = 0;
    /// `f32`: `D3DRS_POINTSIZE_MIN`. Vertex shaders. A fresh device: 1.0.
    pub const POINT_SIZE_MIN: u32 = 4;
    /// `f32`: `D3DRS_POINTSIZE_MAX`. Vertex shaders. A fresh device: the device's
    /// `MaxPointSize` (64.0 on most).
    pub const POINT_SIZE_MAX: u32 = 8;
    /// `f32`: `D3DRS_ALPHAREF / 255.0`. Pixel shaders. A fresh device: 0.0.
    pub const ALPHA_REF: u32 = 12;
    /// `vec3<f32>`: `D3DRS_FOGCOLOR`'s red, green and blue, each byte of the `D3DCOLOR`
    /// divided by 255. Pixel shaders before 3.0. A fresh device: (0, 0, 0).
    pub const FOG_COLOR: u32 = 16;
    /// `f32`: `D3DRS_FOGSTART`. Pixel shaders before 3.0. A fresh device: 0.0.
    pub const FOG_START: u32 = 28;
    /// `f32`: `D3DRS_FOGEND`. Pixel shaders before 3.0. A fresh device: 1.0.
    pub const FOG_END: u32 = 32;
    /// `f32`: `D3DRS_FOGDENSITY`. Pixel shaders before 3.0. A fresh device: 1.0.
    pub const FOG_DENSITY: u32 = 36;
    /// Size of the block in bytes.
    pub const SIZE: u32 = 40;
}

/// The fixed-function state buffer: the state that changes rarely or is too large for push
/// constants, one constant buffer per stage at `b3` of register space 0 (beside the
/// constant files `b0`-`b2`), named [`state::NAME`] in reflection, declared as
/// `vec4<f32>[rows]` by a shader that reads it. Row numbers below; a row is 16 bytes.
pub mod state {
    /// The register (`b#`) of the state buffer in register space 0.
    pub const REGISTER: u32 = 3;
    /// The buffer's name in reflection.
    pub const NAME: &str = "d3d9_state";
    /// Vertex shaders, rows 0-5: user clip plane `n` as `SetClipPlane` got it (clip space
    /// when a vertex shader is bound) in row `n`; which planes apply is the
    /// [`CLIP_PLANE_ENABLE`](super::spec_id::CLIP_PLANE_ENABLE) specialization constant. A
    /// fresh device: all zero.
    pub const CLIP_PLANES: u32 = 0;
    /// Rows of the vertex shader's buffer.
    pub const VERTEX_ROWS: u32 = 6;
    /// Pixel shaders 1.x, rows 0-5: texture stage `n`'s `D3DTSS_BUMPENVMAT00`, `MAT01`,
    /// `MAT10`, `MAT11` in row `n` (`texbem`, `texbeml`, `bem`). A fresh device: all zero.
    pub const BUMP_ENV_MATRICES: u32 = 0;
    /// Pixel shaders 1.1-1.3, rows 6-11: texture stage `n`'s `D3DTSS_BUMPENVLSCALE` and
    /// `D3DTSS_BUMPENVLOFFSET` in the first two components of row `6 + n` (`texbeml`; the
    /// other two are not read). A fresh device: all zero.
    pub const BUMP_ENV_LUMINANCE: u32 = 6;
    /// Rows of the pixel shader's buffer.
    pub const PIXEL_ROWS: u32 = 12;
}
