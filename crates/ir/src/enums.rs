//! Literal operand enums and flag sets: every value Direct3D needs from SM 1.0 to 6.x.
//!
//! Each enum is stored in an op as a literal operand (`u64`). The text form uses the names
//! below (`Position`, `StructuredLoop`, `Flat|Centroid`). One macro defines each enum once,
//! with its code, its name and the conversions the printer, parser and validator need.

use std::fmt;

/// Defines a literal enum with explicit codes, its `ALL` list, names and literal conversions.
macro_rules! literal_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $code:expr),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u32)]
        pub enum $name {
            $($(#[$vmeta])* $variant = $code),+
        }

        impl $name {
            /// Every value, in code order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The name used by the text form.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => stringify!($variant)),+
                }
            }

            /// Parses a name produced by `name`.
            pub fn from_name(s: &str) -> Option<Self> {
                match s {
                    $(stringify!($variant) => Some($name::$variant),)+
                    _ => None,
                }
            }

            /// The value stored in a literal operand.
            #[inline]
            pub fn to_literal(self) -> u64 {
                self as u64
            }

            /// Decodes a literal operand; `None` for an unknown code.
            #[inline]
            pub fn from_literal(v: u64) -> Option<Self> {
                match v {
                    $(x if x == $code => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

/// Defines a set of bit flags stored in one literal operand, printed as `A|B` (`None` for 0).
macro_rules! literal_flags {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $flag:ident = $bit:expr),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
        pub struct $name(pub u32);

        #[allow(non_upper_case_globals)]
        impl $name {
            $($(#[$vmeta])* pub const $flag: $name = $name($bit);)+

            /// Each flag with its name, in bit order.
            pub const NAMED: &'static [(&'static str, $name)] = &[$((stringify!($flag), $name::$flag)),+];

            /// All defined bits.
            pub const ALL_BITS: u32 = 0 $(| $bit)+;

            /// No flag set.
            #[inline]
            pub const fn empty() -> Self {
                $name(0)
            }

            /// True if no flag is set.
            #[inline]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            /// True if every flag of `other` is set.
            #[inline]
            pub const fn contains(self, other: Self) -> bool {
                self.0 & other.0 == other.0
            }

            /// The value stored in a literal operand.
            #[inline]
            pub fn to_literal(self) -> u64 {
                self.0 as u64
            }

            /// Decodes a literal operand; `None` if undefined bits are set.
            #[inline]
            pub fn from_literal(v: u64) -> Option<Self> {
                (v & !(Self::ALL_BITS as u64) == 0).then_some($name(v as u32))
            }

            /// Parses `A|B` or `None`.
            pub fn from_name(s: &str) -> Option<Self> {
                if s == "None" {
                    return Some($name(0));
                }
                let mut bits = 0;
                for part in s.split('|') {
                    let (_, flag) = Self::NAMED.iter().find(|(n, _)| *n == part)?;
                    bits |= flag.0;
                }
                Some($name(bits))
            }
        }

        impl std::ops::BitOr for $name {
            type Output = $name;
            fn bitor(self, rhs: $name) -> $name {
                $name(self.0 | rhs.0)
            }
        }

        impl std::ops::BitOrAssign for $name {
            fn bitor_assign(&mut self, rhs: $name) {
                self.0 |= rhs.0;
            }
        }

        impl std::ops::BitAnd for $name {
            type Output = $name;
            fn bitand(self, rhs: $name) -> $name {
                $name(self.0 & rhs.0)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                if self.0 == 0 {
                    return f.write_str("None");
                }
                let mut first = true;
                for (name, flag) in Self::NAMED {
                    if self.contains(*flag) {
                        if !first {
                            f.write_str("|")?;
                        }
                        f.write_str(name)?;
                        first = false;
                    }
                }
                Ok(())
            }
        }
    };
}

literal_enum! {
    /// Shader stage of an `EntryPoint`.
    ShaderStage {
        /// Pixel (fragment) shader.
        Pixel = 0,
        /// Vertex shader.
        Vertex = 1,
        /// Geometry shader.
        Geometry = 2,
        /// Hull shader (tessellation control).
        Hull = 3,
        /// Domain shader (tessellation evaluation).
        Domain = 4,
        /// Compute shader.
        Compute = 5,
        /// Mesh shader (SM 6.5).
        Mesh = 6,
        /// Amplification shader (SM 6.5; task shader).
        Amplification = 7,
    }
}

literal_flags! {
    /// A set of shader stages, for push data visibility.
    ShaderStageMask {
        /// Pixel shader.
        Pixel = 1 << 0,
        /// Vertex shader.
        Vertex = 1 << 1,
        /// Geometry shader.
        Geometry = 1 << 2,
        /// Hull shader.
        Hull = 1 << 3,
        /// Domain shader.
        Domain = 1 << 4,
        /// Compute shader.
        Compute = 1 << 5,
        /// Mesh shader.
        Mesh = 1 << 6,
        /// Amplification shader.
        Amplification = 1 << 7,
    }
}

impl ShaderStage {
    /// True for the stages whose invocations form workgroups that barriers can span
    /// (SPIR-V's `Workgroup` scope): compute, mesh and amplification shaders, and hull
    /// shaders, whose control-point invocations share a patch.
    #[inline]
    pub fn has_workgroups(self) -> bool {
        matches!(
            self,
            Self::Compute | Self::Hull | Self::Mesh | Self::Amplification
        )
    }

    /// True for the stages whose derivatives come from quads their workgroup forms (Shader
    /// Model 6.6): compute, mesh and amplification shaders (see [`DerivativeGroup`]).
    pub fn has_derivative_groups(self) -> bool {
        matches!(self, Self::Compute | Self::Mesh | Self::Amplification)
    }
}

/// How the invocations of a compute, mesh or amplification shader's workgroup form the 2x2
/// quads that derivatives and implicit-LOD sampling read (Shader Model 6.6), as the
/// workgroup size decides: SPIR-V's `DerivativeGroupQuads*` and `DerivativeGroupLinear*`
/// execution modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DerivativeGroup {
    /// X and Y even: each quad is a 2x2 square of the workgroup's X-Y plane.
    Quads,
    /// X a multiple of 4 with Y and Z 1: each quad is four invocations in a row of the
    /// local invocation index.
    Linear,
}

impl DerivativeGroup {
    /// The quads of a workgroup of `size` (X, Y, Z), or `None` if it forms none (Direct3D
    /// refuses derivatives there).
    pub fn of_workgroup(size: [u32; 3]) -> Option<Self> {
        let [x, y, z] = size;
        if x % 2 == 0 && y % 2 == 0 && x != 0 && y != 0 {
            Some(Self::Quads)
        } else if x % 4 == 0 && x != 0 && y == 1 && z == 1 {
            Some(Self::Linear)
        } else {
            None
        }
    }
}

impl BuiltIn {
    /// True for the system values a stage that does not generate or consume them passes on
    /// as plain varyings (a geometry shader reading `SV_Position`, a vertex shader writing
    /// `SV_PrimitiveID`): Direct3D lets them flow through any stage.
    pub fn passes_through_as_varying(self) -> bool {
        matches!(
            self,
            BuiltIn::Position
                | BuiltIn::ClipDistance
                | BuiltIn::CullDistance
                | BuiltIn::LayerIndex
                | BuiltIn::ViewportIndex
                | BuiltIn::PrimitiveId
                | BuiltIn::VertexId
                | BuiltIn::InstanceId
        )
    }

    /// True if a `stage` shader has this built-in as an input (`output == false`) or an
    /// output: where Direct3D generates or consumes the system value and Vulkan has the
    /// matching built-in for that stage and direction (`SampleCount` is read from the
    /// runtime, so every stage may read it).
    pub fn exists_in(self, stage: ShaderStage, output: bool) -> bool {
        use ShaderStage::*;
        let input = !output;
        match self {
            Self::Position | Self::ClipDistance | Self::CullDistance => match stage {
                Vertex | Mesh => output,
                Hull | Domain | Geometry => true,
                Pixel => input,
                _ => false,
            },
            Self::PointSize => {
                matches!(stage, Vertex if output) || matches!(stage, Hull | Domain | Geometry)
            }
            Self::LayerIndex | Self::ViewportIndex | Self::ShadingRate => match stage {
                Vertex | Domain | Geometry | Mesh => output,
                Pixel => input,
                _ => false,
            },
            Self::PrimitiveId => match stage {
                Hull | Domain | Pixel => input,
                Geometry => true,
                Mesh => output,
                _ => false,
            },
            Self::VertexId
            | Self::InstanceId
            | Self::StartVertexLocation
            | Self::StartInstanceLocation => stage == Vertex && input,
            Self::IsFrontFace
            | Self::SampleId
            | Self::SamplePosition
            | Self::Barycentrics
            | Self::IsFullyCovered
            | Self::PixelPosition => stage == Pixel && input,
            Self::TessFactorOuter | Self::TessFactorInner => {
                (stage == Hull && output) || (stage == Domain && input)
            }
            Self::Depth | Self::StencilRef => stage == Pixel && output,
            Self::SampleMask => stage == Pixel,
            Self::GsInstanceId => stage == Geometry && input,
            Self::TessControlPointId => stage == Hull && input,
            Self::TessControlPointCountIn => matches!(stage, Hull | Domain) && input,
            Self::TessCoord => stage == Domain && input,
            Self::GlobalThreadId
            | Self::WorkgroupId
            | Self::LocalThreadId
            | Self::LocalThreadIndex => matches!(stage, Compute | Mesh | Amplification) && input,
            Self::ViewId => !matches!(stage, Compute | Amplification) && input,
            Self::SampleCount => input,
            Self::Fog => (stage == Vertex && output) || (stage == Pixel && input),
            Self::CullPrimitive | Self::PrimitiveIndices => stage == Mesh && output,
            Self::WaveLaneIndex | Self::WaveLaneCount => input,
        }
    }
}

impl BuiltIn {
    /// True for the built-ins a mesh shader writes per primitive, in its primitive stream
    /// (stream 1 of `DclOutputBuiltIn`); the others it writes per vertex.
    #[inline]
    pub fn is_per_primitive(self) -> bool {
        matches!(
            self,
            Self::PrimitiveIndices
                | Self::PrimitiveId
                | Self::LayerIndex
                | Self::ViewportIndex
                | Self::ShadingRate
                | Self::CullPrimitive
        )
    }
}

impl ShaderStageMask {
    /// The mask holding one stage.
    pub fn from_stage(stage: ShaderStage) -> Self {
        ShaderStageMask(1 << stage as u32)
    }
}

literal_enum! {
    /// Built-in (system value) inputs and outputs: every `SV_*` of SM 4.0–6.x plus D3D9 specials.
    BuiltIn {
        /// `SV_Position` (vertex output / pixel input `FragCoord`).
        Position = 0,
        /// `SV_ClipDistance`.
        ClipDistance = 1,
        /// `SV_CullDistance`.
        CullDistance = 2,
        /// `SV_VertexID`.
        VertexId = 3,
        /// `SV_InstanceID`.
        InstanceId = 4,
        /// `SV_PrimitiveID`.
        PrimitiveId = 5,
        /// `SV_RenderTargetArrayIndex`.
        LayerIndex = 6,
        /// `SV_ViewportArrayIndex`.
        ViewportIndex = 7,
        /// `SV_GSInstanceID`.
        GsInstanceId = 8,
        /// Number of input control points of a hull shader patch (`vicp` count / `SV_InputControlPointCount`).
        TessControlPointCountIn = 9,
        /// `SV_OutputControlPointID`.
        TessControlPointId = 10,
        /// `SV_DomainLocation`.
        TessCoord = 11,
        /// `SV_InsideTessFactor` and friends.
        TessFactorInner = 12,
        /// `SV_TessFactor` and friends.
        TessFactorOuter = 13,
        /// `GetRenderTargetSampleCount()`.
        SampleCount = 14,
        /// `SV_SampleIndex`.
        SampleId = 15,
        /// `GetRenderTargetSamplePosition()`.
        SamplePosition = 16,
        /// `SV_Coverage` (input and output).
        SampleMask = 17,
        /// `SV_IsFrontFace`.
        IsFrontFace = 18,
        /// `SV_Depth`, `SV_DepthGreaterEqual`, `SV_DepthLessEqual`.
        Depth = 19,
        /// `SV_StencilRef`.
        StencilRef = 20,
        /// `SV_InnerCoverage`.
        IsFullyCovered = 21,
        /// `SV_GroupID`.
        WorkgroupId = 22,
        /// `SV_DispatchThreadID`.
        GlobalThreadId = 23,
        /// `SV_GroupThreadID`.
        LocalThreadId = 24,
        /// `SV_GroupIndex`.
        LocalThreadIndex = 25,
        /// D3D9 point size output (`oPts`).
        PointSize = 26,
        /// `SV_ViewID` (SM 6.1).
        ViewId = 27,
        /// `SV_Barycentrics` (SM 6.1).
        Barycentrics = 28,
        /// `SV_ShadingRate` (SM 6.4).
        ShadingRate = 29,
        /// `SV_CullPrimitive` (SM 6.5 mesh shaders).
        CullPrimitive = 30,
        /// `SV_StartVertexLocation` (SM 6.8).
        StartVertexLocation = 31,
        /// `SV_StartInstanceLocation` (SM 6.8).
        StartInstanceLocation = 32,
        /// D3D9 fog output (`oFog`).
        Fog = 33,
        /// D3D9 `vPos`-style pixel position input with D3D9 pixel centre conventions.
        PixelPosition = 34,
        /// `WaveGetLaneIndex()` (SM 6.0): the invocation's lane in its wave, `u32` from 0 to
        /// the lane count minus one (SPIR-V `SubgroupLocalInvocationId`).
        WaveLaneIndex = 35,
        /// `WaveGetLaneCount()` (SM 6.0): the lanes of a wave, `u32`, a power of two from 4 to
        /// 128 (SPIR-V `SubgroupSize`).
        WaveLaneCount = 36,
        /// The vertex indices of a mesh shader's primitives (`EmitIndices`, SM 6.5): an output
        /// array of `vec3<u32>` (triangles) or `vec2<u32>` (lines), one element per primitive,
        /// in the primitive stream (SPIR-V `PrimitiveTriangleIndicesEXT`,
        /// `PrimitiveLineIndicesEXT`).
        PrimitiveIndices = 37,
    }
}

literal_enum! {
    /// Dimension and layout of a resource declared by `DclSrv` / `DclUav`.
    ResourceKind {
        /// Typed buffer (`Buffer<T>`).
        BufferTyped = 0,
        /// Structured buffer.
        BufferStructured = 1,
        /// Raw (byte address) buffer.
        BufferRaw = 2,
        /// 1D texture.
        Image1D = 3,
        /// 1D texture array.
        Image1DArray = 4,
        /// 2D texture.
        Image2D = 5,
        /// 2D texture array.
        Image2DArray = 6,
        /// Multisampled 2D texture.
        Image2DMS = 7,
        /// Multisampled 2D texture array.
        Image2DMSArray = 8,
        /// Cube texture.
        ImageCube = 9,
        /// Cube texture array.
        ImageCubeArray = 10,
        /// 3D texture.
        Image3D = 11,
        /// Ray tracing acceleration structure (SM 6.3).
        AccelerationStructure = 12,
        /// Sampler feedback 2D texture (SM 6.5).
        FeedbackImage2D = 13,
        /// Sampler feedback 2D texture array (SM 6.5).
        FeedbackImage2DArray = 14,
    }
}

impl ResourceKind {
    /// True for any buffer kind.
    #[inline]
    pub fn is_buffer(self) -> bool {
        matches!(
            self,
            Self::BufferTyped | Self::BufferStructured | Self::BufferRaw
        )
    }

    /// True for image kinds with an array layer coordinate.
    #[inline]
    pub fn is_layered(self) -> bool {
        matches!(
            self,
            Self::Image1DArray
                | Self::Image2DArray
                | Self::Image2DMSArray
                | Self::ImageCubeArray
                | Self::FeedbackImage2DArray
        )
    }

    /// True for multisampled images.
    #[inline]
    pub fn is_multisampled(self) -> bool {
        matches!(self, Self::Image2DMS | Self::Image2DMSArray)
    }

    /// The components of a texel coordinate of this kind, without the array layer (also
    /// the components of a sample's gradients).
    #[inline]
    pub fn coord_components(self) -> u8 {
        match self {
            Self::Image1D | Self::Image1DArray | Self::BufferTyped => 1,
            Self::Image3D | Self::ImageCube | Self::ImageCubeArray => 3,
            _ => 2,
        }
    }

    /// The components of a texel offset for this kind: the coordinate's without the layer,
    /// and none for cube maps, which take no offsets (in D3D and in SPIR-V alike).
    #[inline]
    pub fn offset_components(self) -> u8 {
        match self {
            Self::ImageCube | Self::ImageCubeArray => 0,
            _ => self.coord_components(),
        }
    }
}

/// A primitive type: GS input/output topology, tessellation domain and output primitive.
/// Patch lists carry their control point count (1–32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrimitiveType {
    /// Points.
    Point,
    /// Lines (also the isoline tessellation domain).
    Line,
    /// Lines with adjacency.
    LineAdj,
    /// Triangles.
    Triangle,
    /// Triangles with adjacency.
    TriangleAdj,
    /// Quads (the quad tessellation domain).
    Quad,
    /// A patch list of 1–32 control points.
    Patch(u8),
}

impl PrimitiveType {
    /// The value stored in a literal operand (`0x100 + n` for a patch of `n` points).
    #[inline]
    pub fn to_literal(self) -> u64 {
        match self {
            Self::Point => 0,
            Self::Line => 1,
            Self::LineAdj => 2,
            Self::Triangle => 3,
            Self::TriangleAdj => 4,
            Self::Quad => 5,
            Self::Patch(n) => 0x100 + n as u64,
        }
    }

    /// Decodes a literal operand.
    #[inline]
    pub fn from_literal(v: u64) -> Option<Self> {
        Some(match v {
            0 => Self::Point,
            1 => Self::Line,
            2 => Self::LineAdj,
            3 => Self::Triangle,
            4 => Self::TriangleAdj,
            5 => Self::Quad,
            0x101..=0x120 => Self::Patch((v - 0x100) as u8),
            _ => return None,
        })
    }

    /// Parses a name produced by `Display` (`Triangle`, `Patch3`).
    pub fn from_name(s: &str) -> Option<Self> {
        Some(match s {
            "Point" => Self::Point,
            "Line" => Self::Line,
            "LineAdj" => Self::LineAdj,
            "Triangle" => Self::Triangle,
            "TriangleAdj" => Self::TriangleAdj,
            "Quad" => Self::Quad,
            _ => {
                let n: u8 = s.strip_prefix("Patch")?.parse().ok()?;
                if !(1..=32).contains(&n) {
                    return None;
                }
                Self::Patch(n)
            }
        })
    }

    /// Number of vertices of one input primitive (GS input arrays).
    #[inline]
    pub fn vertex_count(self) -> u32 {
        match self {
            Self::Point => 1,
            Self::Line => 2,
            Self::LineAdj => 4,
            Self::Triangle => 3,
            Self::TriangleAdj => 6,
            Self::Quad => 4,
            Self::Patch(n) => n as u32,
        }
    }
}

impl fmt::Display for PrimitiveType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Point => f.write_str("Point"),
            Self::Line => f.write_str("Line"),
            Self::LineAdj => f.write_str("LineAdj"),
            Self::Triangle => f.write_str("Triangle"),
            Self::TriangleAdj => f.write_str("TriangleAdj"),
            Self::Quad => f.write_str("Quad"),
            Self::Patch(n) => write!(f, "Patch{n}"),
        }
    }
}

literal_flags! {
    /// Pixel shader input interpolation; empty means perspective-correct linear at the pixel centre.
    InterpolationModes {
        /// No interpolation (`nointerpolation`); always set for integer inputs.
        Flat = 1 << 0,
        /// Interpolate at the centroid.
        Centroid = 1 << 1,
        /// Interpolate at each sample (sample-rate shading).
        Sample = 1 << 2,
        /// Linear without perspective correction (`noperspective`).
        NoPerspective = 1 << 3,
        /// Not interpolated: the input is read per vertex of the primitive (SM 6.1
        /// `GetAttributeAtVertex`), its type an array of 3 (one element per vertex, in the
        /// order of `SV_Barycentrics`' weights; element 0 is the provoking vertex, the value a
        /// `nointerpolation` read gives). Pixel shader user inputs only; `Flat` may be set
        /// besides, nothing else.
        PerVertex = 1 << 4,
        /// Not interpolated: a per-primitive attribute a mesh shader wrote to its primitive
        /// stream (SPIR-V `PerPrimitiveEXT`). Pixel shader user inputs only, with `Flat` or
        /// nothing else.
        PerPrimitive = 1 << 5,
    }
}

literal_enum! {
    /// Atomic operation of `*Atomic` ops.
    AtomicOp {
        /// Atomic load (result used, no side effect).
        Load = 0,
        /// Atomic store (exchange whose result is unused).
        Store = 1,
        /// Exchange.
        Exchange = 2,
        /// Compare and exchange; the operand is `vec2` (compare, value).
        CompareExchange = 3,
        /// Integer add.
        Add = 4,
        /// Integer subtract.
        Sub = 5,
        /// Signed minimum.
        SMin = 6,
        /// Signed maximum.
        SMax = 7,
        /// Unsigned minimum.
        UMin = 8,
        /// Unsigned maximum.
        UMax = 9,
        /// Bitwise and.
        And = 10,
        /// Bitwise or.
        Or = 11,
        /// Bitwise xor.
        Xor = 12,
        /// Increment (counters); no operand.
        Inc = 13,
        /// Decrement (counters); no operand.
        Dec = 14,
    }
}

literal_enum! {
    /// Float rounding mode: for `FRound` and `SetFpMode` (which allows only `Zero` and `NearestEven`).
    RoundMode {
        /// Round toward zero (`round_z`).
        Zero = 0,
        /// Round to nearest, ties to even (`round_ne`).
        NearestEven = 1,
        /// Round toward negative infinity (`round_ni`).
        NegativeInf = 2,
        /// Round toward positive infinity (`round_pi`).
        PositiveInf = 3,
    }
}

literal_enum! {
    /// Float denormal handling set by `SetFpMode`.
    DenormMode {
        /// Denormals flush to zero.
        Flush = 0,
        /// Denormals are preserved.
        Preserve = 1,
    }
}

literal_enum! {
    /// Execution or memory scope of a barrier.
    Scope {
        /// The invocation itself (no execution barrier).
        Thread = 0,
        /// A 2x2 pixel quad.
        Quad = 1,
        /// A subgroup (wave).
        Subgroup = 2,
        /// The workgroup (thread group / HS patch).
        Workgroup = 3,
        /// The whole device (globally coherent).
        Global = 4,
    }
}

literal_flags! {
    /// Which kinds of memory a barrier or ROV lock makes available and visible.
    MemoryTypeMask {
        /// Thread group shared memory.
        Lds = 1 << 0,
        /// UAV buffers.
        UavBuffer = 1 << 1,
        /// UAV images.
        UavImage = 1 << 2,
    }
}

literal_flags! {
    /// Access properties of a UAV (`DclUav`) or raw pointer.
    UavFlags {
        /// Globally coherent: writes are visible at `Global` scope.
        Coherent = 1 << 0,
        /// Only read.
        ReadOnly = 1 << 1,
        /// Only written.
        WriteOnly = 1 << 2,
        /// Rasterizer ordered view: accessed only between ROV lock ops.
        RasterizerOrdered = 1 << 3,
        /// The resource format matches the declared type exactly (needed for typed atomics).
        FixedFormat = 1 << 4,
        /// On a sampler feedback map (`FeedbackImage2D*`): it records which mips each region
        /// used (D3D's `SAMPLER_FEEDBACK_MIP_REGION_USED`, a bit per mip) rather than the
        /// most detailed mip sampled (`SAMPLER_FEEDBACK_MIN_MIP`, without the flag).
        MipRegionUsed = 1 << 5,
    }
}

literal_enum! {
    /// Structured control-flow construct declared by a `Label`.
    Construct {
        /// Plain basic block.
        None = 0,
        /// If or switch header; one extra operand: the merge block.
        StructuredSelection = 1,
        /// Loop header; two extra operands: merge block and continue target.
        StructuredLoop = 2,
    }
}

literal_enum! {
    /// Precision of `DerivX` / `DerivY`.
    DerivativeMode {
        /// Implementation's choice (`deriv_rtx`).
        Default = 0,
        /// Coarse (`deriv_rtx_coarse`).
        Coarse = 1,
        /// Fine (`deriv_rtx_fine`).
        Fine = 2,
    }
}

literal_enum! {
    /// Granularity of a rasterizer-ordered lock.
    RovScope {
        /// Per pixel.
        Pixel = 0,
        /// Per sample.
        Sample = 1,
        /// Per shading-rate (VRS) block.
        ShadingRate = 2,
    }
}

literal_enum! {
    /// The operation of a wave reduction or prefix (`WaveActiveOp`, `WavePrefixOp`,
    /// `WaveMultiPrefixOp`). Integer operations take integers of either signedness (the
    /// operation names how they are read), float operations floats, the bit operations
    /// integers or `bool`s (then logical).
    WaveOp {
        /// Integer sum (wrapping): `WaveActiveSum`, `WavePrefixSum`.
        IAdd = 0,
        /// Integer product (low bits): `WaveActiveProduct`, `WavePrefixProduct`.
        IMul = 1,
        /// Float sum.
        FAdd = 2,
        /// Float product.
        FMul = 3,
        /// Signed minimum: `WaveActiveMin` of signed integers.
        SMin = 4,
        /// Signed maximum.
        SMax = 5,
        /// Unsigned minimum.
        UMin = 6,
        /// Unsigned maximum.
        UMax = 7,
        /// Float minimum; a NaN operand gives way to the other, as `FMin`.
        FMin = 8,
        /// Float maximum; a NaN operand gives way to the other, as `FMax`.
        FMax = 9,
        /// Bitwise (or logical) and: `WaveActiveBitAnd`, `WaveActiveAllTrue`.
        And = 10,
        /// Bitwise (or logical) or: `WaveActiveBitOr`, `WaveActiveAnyTrue`.
        Or = 11,
        /// Bitwise (or logical) xor: `WaveActiveBitXor`.
        Xor = 12,
    }
}

impl WaveOp {
    /// True for the operations on floats (the others take integers, the bit operations also
    /// `bool`s).
    #[inline]
    pub fn is_float(self) -> bool {
        matches!(self, Self::FAdd | Self::FMul | Self::FMin | Self::FMax)
    }

    /// True for the bit operations, which also take `bool`s.
    #[inline]
    pub fn is_bitwise(self) -> bool {
        matches!(self, Self::And | Self::Or | Self::Xor)
    }
}

literal_enum! {
    /// The lane a quad read takes its value from (`QuadReadAcrossX/Y/Diagonal`), relative to
    /// the reading lane in its 2x2 quad (lanes 0 1 on the top row, 2 3 below).
    QuadDirection {
        /// The horizontal neighbour (lane index xor 1).
        X = 0,
        /// The vertical neighbour (lane index xor 2).
        Y = 1,
        /// The diagonally opposite lane (lane index xor 3).
        Diagonal = 2,
    }
}

literal_enum! {
    /// Triangle winding order of tessellator output.
    TessWindingOrder {
        /// Clockwise.
        Cw = 0,
        /// Counter-clockwise.
        Ccw = 1,
    }
}

literal_enum! {
    /// Tessellation partitioning mode.
    TessPartitioning {
        /// `integer`.
        Integer = 0,
        /// `pow2`.
        Pow2 = 1,
        /// `fractional_odd`.
        FractOdd = 2,
        /// `fractional_even`.
        FractEven = 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enums_round_trip_names_and_literals() {
        for v in BuiltIn::ALL {
            assert_eq!(BuiltIn::from_name(v.name()), Some(*v));
            assert_eq!(BuiltIn::from_literal(v.to_literal()), Some(*v));
        }
        for v in ResourceKind::ALL {
            assert_eq!(ResourceKind::from_literal(v.to_literal()), Some(*v));
        }
        assert_eq!(AtomicOp::from_literal(99), None);
    }

    #[test]
    fn flags_print_and_parse() {
        let m = InterpolationModes::Flat | InterpolationModes::Sample;
        assert_eq!(m.to_string(), "Flat|Sample");
        assert_eq!(InterpolationModes::from_name("Flat|Sample"), Some(m));
        assert_eq!(
            InterpolationModes::from_name("None"),
            Some(InterpolationModes(0))
        );
        assert_eq!(InterpolationModes::from_name("Bogus"), None);
        assert_eq!(UavFlags::from_literal(1 << 10), None);
    }

    #[test]
    fn primitive_patch_counts() {
        for n in 1..=32u8 {
            let p = PrimitiveType::Patch(n);
            assert_eq!(PrimitiveType::from_literal(p.to_literal()), Some(p));
            assert_eq!(PrimitiveType::from_name(&p.to_string()), Some(p));
        }
        assert_eq!(PrimitiveType::from_literal(0x100), None);
        assert_eq!(PrimitiveType::from_name("Patch33"), None);
        assert_eq!(PrimitiveType::TriangleAdj.vertex_count(), 6);
    }
}
