//! Small value enumerations carried by declarations and modifiers
//! (resource dimensions, return types, system values, interpolation modes,
//! primitives, tessellator settings…), each with its fxc spelling.

macro_rules! value_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $val:literal => $text:literal,)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vm])* $var,)*
        }

        impl $name {
            /// Converts the raw token field, `None` if undefined.
            pub fn from_raw(value: u32) -> Option<Self> {
                match value {
                    $($val => Some(Self::$var),)*
                    _ => None,
                }
            }

            /// The raw token value.
            pub fn raw(self) -> u32 {
                match self {
                    $(Self::$var => $val,)*
                }
            }

            /// The fxc spelling.
            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$var => $text,)*
                }
            }
        }
    };
}

value_enum! {
    /// `D3D10_SB_RESOURCE_DIMENSION`.
    ResourceDimension {
        /// Unknown.
        Unknown = 0 => "unknown",
        /// Typed buffer.
        Buffer = 1 => "buffer",
        /// 1D texture.
        Texture1D = 2 => "texture1d",
        /// 2D texture.
        Texture2D = 3 => "texture2d",
        /// Multisampled 2D texture.
        Texture2DMS = 4 => "texture2dms",
        /// 3D texture.
        Texture3D = 5 => "texture3d",
        /// Cube texture.
        TextureCube = 6 => "texturecube",
        /// 1D texture array.
        Texture1DArray = 7 => "texture1darray",
        /// 2D texture array.
        Texture2DArray = 8 => "texture2darray",
        /// Multisampled 2D texture array.
        Texture2DMSArray = 9 => "texture2dmsarray",
        /// Cube texture array.
        TextureCubeArray = 10 => "texturecubearray",
        /// Raw (byte-address) buffer.
        RawBuffer = 11 => "raw_buffer",
        /// Structured buffer.
        StructuredBuffer = 12 => "structured_buffer",
    }
}

value_enum! {
    /// `D3D10_SB_RESOURCE_RETURN_TYPE`.
    ReturnType {
        /// Not set (0; only seen in unused slots).
        None = 0 => "none",
        /// UNORM.
        Unorm = 1 => "unorm",
        /// SNORM.
        Snorm = 2 => "snorm",
        /// Signed integer.
        Sint = 3 => "sint",
        /// Unsigned integer.
        Uint = 4 => "uint",
        /// Float.
        Float = 5 => "float",
        /// Mixed (raw / structured data).
        Mixed = 6 => "mixed",
        /// Double.
        Double = 7 => "double",
        /// Continuation of a double.
        Continued = 8 => "continued",
        /// Unused component.
        Unused = 9 => "unused",
    }
}

value_enum! {
    /// `D3D10_SB_NAME`: system value of an input/output declaration.
    SystemValue {
        /// None.
        Undefined = 0 => "undefined",
        /// SV_Position.
        Position = 1 => "position",
        /// SV_ClipDistance.
        ClipDistance = 2 => "clip_distance",
        /// SV_CullDistance.
        CullDistance = 3 => "cull_distance",
        /// SV_RenderTargetArrayIndex.
        RenderTargetArrayIndex = 4 => "rendertarget_array_index",
        /// SV_ViewportArrayIndex.
        ViewportArrayIndex = 5 => "viewport_array_index",
        /// SV_VertexID.
        VertexId = 6 => "vertex_id",
        /// SV_PrimitiveID.
        PrimitiveId = 7 => "primitive_id",
        /// SV_InstanceID.
        InstanceId = 8 => "instance_id",
        /// SV_IsFrontFace.
        IsFrontFace = 9 => "is_front_face",
        /// SV_SampleIndex.
        SampleIndex = 10 => "sampleIndex",
        /// Quad edge tess factor U=0.
        FinalQuadUEq0EdgeTessFactor = 11 => "finalQuadUeq0EdgeTessFactor",
        /// Quad edge tess factor V=0.
        FinalQuadVEq0EdgeTessFactor = 12 => "finalQuadVeq0EdgeTessFactor",
        /// Quad edge tess factor U=1.
        FinalQuadUEq1EdgeTessFactor = 13 => "finalQuadUeq1EdgeTessFactor",
        /// Quad edge tess factor V=1.
        FinalQuadVEq1EdgeTessFactor = 14 => "finalQuadVeq1EdgeTessFactor",
        /// Quad inside tess factor U.
        FinalQuadUInsideTessFactor = 15 => "finalQuadUInsideTessFactor",
        /// Quad inside tess factor V.
        FinalQuadVInsideTessFactor = 16 => "finalQuadVInsideTessFactor",
        /// Triangle edge tess factor U=0.
        FinalTriUEq0EdgeTessFactor = 17 => "finalTriUeq0EdgeTessFactor",
        /// Triangle edge tess factor V=0.
        FinalTriVEq0EdgeTessFactor = 18 => "finalTriVeq0EdgeTessFactor",
        /// Triangle edge tess factor W=0.
        FinalTriWEq0EdgeTessFactor = 19 => "finalTriWeq0EdgeTessFactor",
        /// Triangle inside tess factor.
        FinalTriInsideTessFactor = 20 => "finalTriInsideTessFactor",
        /// Line detail tess factor.
        FinalLineDetailTessFactor = 21 => "finalLineDetailTessFactor",
        /// Line density tess factor.
        FinalLineDensityTessFactor = 22 => "finalLineDensityTessFactor",
        /// SV_Barycentrics.
        Barycentrics = 23 => "barycentrics",
        /// SV_ShadingRate.
        ShadingRate = 24 => "shadingrate",
        /// SV_CullPrimitive.
        CullPrimitive = 25 => "cullprimitive",
    }
}

value_enum! {
    /// `D3D10_SB_INTERPOLATION_MODE`.
    Interpolation {
        /// Undefined.
        Undefined = 0 => "",
        /// No interpolation.
        Constant = 1 => "constant",
        /// Perspective-correct.
        Linear = 2 => "linear",
        /// Perspective-correct, centroid.
        LinearCentroid = 3 => "linear centroid",
        /// Screen-space linear.
        LinearNoPerspective = 4 => "linear noperspective",
        /// Screen-space linear, centroid.
        LinearNoPerspectiveCentroid = 5 => "linear noperspective centroid",
        /// Perspective-correct, per sample.
        LinearSample = 6 => "linear sample",
        /// Screen-space linear, per sample.
        LinearNoPerspectiveSample = 7 => "linear noperspective sample",
    }
}

value_enum! {
    /// `D3D10_SB_SAMPLER_MODE`.
    SamplerMode {
        /// Default.
        Default = 0 => "mode_default",
        /// Comparison.
        Comparison = 1 => "mode_comparison",
        /// Mono.
        Mono = 2 => "mode_mono",
    }
}

value_enum! {
    /// `D3D10_SB_PRIMITIVE_TOPOLOGY`: GS output topology.
    PrimitiveTopology {
        /// Undefined.
        Undefined = 0 => "undefined",
        /// Points.
        PointList = 1 => "pointlist",
        /// Lines.
        LineList = 2 => "linelist",
        /// Line strip.
        LineStrip = 3 => "linestrip",
        /// Triangles.
        TriangleList = 4 => "trianglelist",
        /// Triangle strip.
        TriangleStrip = 5 => "trianglestrip",
        /// Lines with adjacency.
        LineListAdj = 10 => "linelist_adj",
        /// Line strip with adjacency.
        LineStripAdj = 11 => "linestrip_adj",
        /// Triangles with adjacency.
        TriangleListAdj = 12 => "trianglelist_adj",
        /// Triangle strip with adjacency.
        TriangleStripAdj = 13 => "trianglestrip_adj",
    }
}

value_enum! {
    /// `D3D11_SB_TESSELLATOR_DOMAIN`.
    TessDomain {
        /// Undefined.
        Undefined = 0 => "domain_undefined",
        /// Isolines.
        Isoline = 1 => "domain_isoline",
        /// Triangles.
        Tri = 2 => "domain_tri",
        /// Quads.
        Quad = 3 => "domain_quad",
    }
}

value_enum! {
    /// `D3D11_SB_TESSELLATOR_PARTITIONING`.
    TessPartitioning {
        /// Undefined.
        Undefined = 0 => "partitioning_undefined",
        /// Integer.
        Integer = 1 => "partitioning_integer",
        /// Power of two.
        Pow2 = 2 => "partitioning_pow2",
        /// Fractional odd.
        FractionalOdd = 3 => "partitioning_fractional_odd",
        /// Fractional even.
        FractionalEven = 4 => "partitioning_fractional_even",
    }
}

value_enum! {
    /// `D3D11_SB_TESSELLATOR_OUTPUT_PRIMITIVE`.
    TessOutputPrimitive {
        /// Undefined.
        Undefined = 0 => "output_undefined",
        /// Points.
        Point = 1 => "output_point",
        /// Lines.
        Line = 2 => "output_line",
        /// Clockwise triangles.
        TriangleCw = 3 => "output_triangle_cw",
        /// Counter-clockwise triangles.
        TriangleCcw = 4 => "output_triangle_ccw",
    }
}

value_enum! {
    /// `D3D10_SB_CUSTOMDATA_CLASS`.
    CustomDataClass {
        /// Comment.
        Comment = 0 => "comment",
        /// Debug info.
        DebugInfo = 1 => "debuginfo",
        /// Opaque data.
        Opaque = 2 => "opaque",
        /// Immediate constant buffer.
        ImmediateConstantBuffer = 3 => "dcl_immediateConstantBuffer",
        /// Shader message.
        ShaderMessage = 4 => "shader_message",
        /// DX9 clip plane constant mappings.
        ClipPlaneConstantMappingsForDx9 = 5 => "clip_plane_constant_mappings",
    }
}

value_enum! {
    /// `D3D10_SB_OPERAND_MODIFIER`.
    OperandModifier {
        /// None.
        None = 0 => "",
        /// Negate.
        Neg = 1 => "neg",
        /// Absolute value.
        Abs = 2 => "abs",
        /// Negated absolute value.
        AbsNeg = 3 => "absneg",
    }
}

value_enum! {
    /// `D3D11_SB_OPERAND_MIN_PRECISION`.
    MinPrecision {
        /// Default precision.
        Default = 0 => "",
        /// At least 16-bit float.
        Float16 = 1 => "min16f",
        /// At least 2.8 fixed-point float.
        Float2_8 = 2 => "min2_8f",
        /// At least 16-bit signed integer.
        Sint16 = 4 => "min16i",
        /// At least 16-bit unsigned integer.
        Uint16 = 5 => "min16u",
    }
}

value_enum! {
    /// `D3D10_SB_RESINFO_INSTRUCTION_RETURN_TYPE`.
    ResInfoReturnType {
        /// Float.
        Float = 0 => "",
        /// Reciprocal float.
        RcpFloat = 1 => "_rcpFloat",
        /// Unsigned integer.
        Uint = 2 => "_uint",
    }
}

/// `D3D10_SB_PRIMITIVE`: GS input primitive or HS/DS patch (1..32 control points).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Primitive {
    /// Undefined.
    Undefined,
    /// Points.
    Point,
    /// Lines.
    Line,
    /// Triangles.
    Triangle,
    /// Lines with adjacency.
    LineAdj,
    /// Triangles with adjacency.
    TriangleAdj,
    /// A patch with this many control points (1..=32).
    Patch(u8),
}

impl Primitive {
    /// Converts the raw token field, `None` if undefined.
    pub fn from_raw(value: u32) -> Option<Self> {
        Some(match value {
            0 => Self::Undefined,
            1 => Self::Point,
            2 => Self::Line,
            3 => Self::Triangle,
            6 => Self::LineAdj,
            7 => Self::TriangleAdj,
            8..=39 => Self::Patch((value - 7) as u8),
            _ => return None,
        })
    }

    /// The fxc spelling.
    pub fn name(self) -> String {
        match self {
            Self::Undefined => "undefined".into(),
            Self::Point => "point".into(),
            Self::Line => "line".into(),
            Self::Triangle => "triangle".into(),
            Self::LineAdj => "lineadj".into(),
            Self::TriangleAdj => "triangleadj".into(),
            Self::Patch(n) => format!("{n}controlpointpatch"),
        }
    }
}
