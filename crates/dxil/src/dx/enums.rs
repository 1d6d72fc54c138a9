//! The enumerations DXIL metadata uses (`DxilConstants.h` numbering). Each has an `Unknown`
//! variant for values newer than this reader, so a new shader model's value is carried, not
//! refused.

macro_rules! dx_enum {
    ($(#[$m:meta])* $name:ident { $($var:ident = $val:literal => $text:literal,)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $(
                #[doc = $text]
                $var,
            )*
            /// A value this reader does not know.
            Unknown(u32),
        }

        impl $name {
            /// The enumerator for DXIL value `v`.
            pub fn from_u32(v: u32) -> Self {
                match v {
                    $($val => Self::$var,)*
                    v => Self::Unknown(v),
                }
            }

            /// The DXIL value.
            pub fn to_u32(self) -> u32 {
                match self {
                    $(Self::$var => $val,)*
                    Self::Unknown(v) => v,
                }
            }

            /// The name DXIL tools print.
            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$var => $text,)*
                    Self::Unknown(_) => "unknown",
                }
            }
        }
    };
}

dx_enum! {
    /// Shader stage of an entry point or shader model (`DXIL::ShaderKind`).
    ShaderKind {
        Pixel = 0 => "pixel",
        Vertex = 1 => "vertex",
        Geometry = 2 => "geometry",
        Hull = 3 => "hull",
        Domain = 4 => "domain",
        Compute = 5 => "compute",
        Library = 6 => "library",
        RayGeneration = 7 => "raygeneration",
        Intersection = 8 => "intersection",
        AnyHit = 9 => "anyhit",
        ClosestHit = 10 => "closesthit",
        Miss = 11 => "miss",
        Callable = 12 => "callable",
        Mesh = 13 => "mesh",
        Amplification = 14 => "amplification",
        Node = 15 => "node",
    }
}

impl ShaderKind {
    /// The kind named by a shader model string (`vs`, `ps`, …, `lib`).
    pub fn from_profile(s: &[u8]) -> Option<Self> {
        Some(match s {
            b"ps" => ShaderKind::Pixel,
            b"vs" => ShaderKind::Vertex,
            b"gs" => ShaderKind::Geometry,
            b"hs" => ShaderKind::Hull,
            b"ds" => ShaderKind::Domain,
            b"cs" => ShaderKind::Compute,
            b"lib" => ShaderKind::Library,
            b"ms" => ShaderKind::Mesh,
            b"as" => ShaderKind::Amplification,
            _ => return None,
        })
    }
}

dx_enum! {
    /// Component type of a signature element or a typed resource (`DXIL::ComponentType`).
    ComponentType {
        Invalid = 0 => "invalid",
        I1 = 1 => "i1",
        I16 = 2 => "i16",
        U16 = 3 => "u16",
        I32 = 4 => "i32",
        U32 = 5 => "u32",
        I64 = 6 => "i64",
        U64 = 7 => "u64",
        F16 = 8 => "f16",
        F32 = 9 => "f32",
        F64 = 10 => "f64",
        SNormF16 = 11 => "snorm_f16",
        UNormF16 = 12 => "unorm_f16",
        SNormF32 = 13 => "snorm_f32",
        UNormF32 = 14 => "unorm_f32",
        SNormF64 = 15 => "snorm_f64",
        UNormF64 = 16 => "unorm_f64",
        PackedS8x32 = 17 => "p32i8",
        PackedU8x32 = 18 => "p32u8",
    }
}

dx_enum! {
    /// System value of a signature element (`DXIL::SemanticKind`).
    SemanticKind {
        Arbitrary = 0 => "arbitrary",
        VertexId = 1 => "SV_VertexID",
        InstanceId = 2 => "SV_InstanceID",
        Position = 3 => "SV_Position",
        RenderTargetArrayIndex = 4 => "SV_RenderTargetArrayIndex",
        ViewportArrayIndex = 5 => "SV_ViewportArrayIndex",
        ClipDistance = 6 => "SV_ClipDistance",
        CullDistance = 7 => "SV_CullDistance",
        OutputControlPointId = 8 => "SV_OutputControlPointID",
        DomainLocation = 9 => "SV_DomainLocation",
        PrimitiveId = 10 => "SV_PrimitiveID",
        GsInstanceId = 11 => "SV_GSInstanceID",
        SampleIndex = 12 => "SV_SampleIndex",
        IsFrontFace = 13 => "SV_IsFrontFace",
        Coverage = 14 => "SV_Coverage",
        InnerCoverage = 15 => "SV_InnerCoverage",
        Target = 16 => "SV_Target",
        Depth = 17 => "SV_Depth",
        DepthLessEqual = 18 => "SV_DepthLessEqual",
        DepthGreaterEqual = 19 => "SV_DepthGreaterEqual",
        StencilRef = 20 => "SV_StencilRef",
        DispatchThreadId = 21 => "SV_DispatchThreadID",
        GroupId = 22 => "SV_GroupID",
        GroupIndex = 23 => "SV_GroupIndex",
        GroupThreadId = 24 => "SV_GroupThreadID",
        TessFactor = 25 => "SV_TessFactor",
        InsideTessFactor = 26 => "SV_InsideTessFactor",
        ViewId = 27 => "SV_ViewID",
        Barycentrics = 28 => "SV_Barycentrics",
        ShadingRate = 29 => "SV_ShadingRate",
        CullPrimitive = 30 => "SV_CullPrimitive",
        StartVertexLocation = 31 => "SV_StartVertexLocation",
        StartInstanceLocation = 32 => "SV_StartInstanceLocation",
    }
}

dx_enum! {
    /// Interpolation of a signature element (`DXIL::InterpolationMode`).
    InterpolationMode {
        Undefined = 0 => "undefined",
        Constant = 1 => "constant",
        Linear = 2 => "linear",
        LinearCentroid = 3 => "linear centroid",
        LinearNoPerspective = 4 => "linear noperspective",
        LinearNoPerspectiveCentroid = 5 => "linear noperspective centroid",
        LinearSample = 6 => "linear sample",
        LinearNoPerspectiveSample = 7 => "linear noperspective sample",
    }
}

dx_enum! {
    /// Shape of a resource (`DXIL::ResourceKind`).
    ResourceKind {
        Invalid = 0 => "invalid",
        Texture1D = 1 => "1d",
        Texture2D = 2 => "2d",
        Texture2DMS = 3 => "2dMS",
        Texture3D = 4 => "3d",
        TextureCube = 5 => "cube",
        Texture1DArray = 6 => "1darray",
        Texture2DArray = 7 => "2darray",
        Texture2DMSArray = 8 => "2darrayMS",
        TextureCubeArray = 9 => "cubearray",
        TypedBuffer = 10 => "buf",
        RawBuffer = 11 => "rawbuf",
        StructuredBuffer = 12 => "structbuf",
        CBuffer = 13 => "cbuffer",
        Sampler = 14 => "sampler",
        TBuffer = 15 => "tbuffer",
        RtAccelerationStructure = 16 => "ras",
        FeedbackTexture2D = 17 => "fbtex2d",
        FeedbackTexture2DArray = 18 => "fbtex2darray",
    }
}

dx_enum! {
    /// Kind of a sampler (`DXIL::SamplerKind`).
    SamplerKind {
        Default = 0 => "default",
        Comparison = 1 => "comparison",
        Mono = 2 => "mono",
    }
}

dx_enum! {
    /// Tessellator domain (`DXIL::TessellatorDomain`).
    TessellatorDomain {
        Undefined = 0 => "undefined",
        IsoLine = 1 => "isoline",
        Tri = 2 => "tri",
        Quad = 3 => "quad",
    }
}

dx_enum! {
    /// Tessellator partitioning (`DXIL::TessellatorPartitioning`).
    TessellatorPartitioning {
        Undefined = 0 => "undefined",
        Integer = 1 => "integer",
        Pow2 = 2 => "pow2",
        FractionalOdd = 3 => "fractional_odd",
        FractionalEven = 4 => "fractional_even",
    }
}

dx_enum! {
    /// Tessellator output primitive (`DXIL::TessellatorOutputPrimitive`).
    TessellatorOutputPrimitive {
        Undefined = 0 => "undefined",
        Point = 1 => "point",
        Line = 2 => "line",
        TriangleCw = 3 => "triangle_cw",
        TriangleCcw = 4 => "triangle_ccw",
    }
}

dx_enum! {
    /// Geometry shader input primitive (`DXIL::InputPrimitive`); 8 to 39 are patches of 1 to
    /// 32 control points.
    InputPrimitive {
        Undefined = 0 => "undefined",
        Point = 1 => "point",
        Line = 2 => "line",
        Triangle = 3 => "triangle",
        LineWithAdjacency = 6 => "line_adj",
        TriangleWithAdjacency = 7 => "triangle_adj",
    }
}

dx_enum! {
    /// Output topology of a geometry shader stream (`DXIL::PrimitiveTopology`).
    PrimitiveTopology {
        Undefined = 0 => "undefined",
        PointList = 1 => "point_list",
        LineList = 2 => "line_list",
        LineStrip = 3 => "line_strip",
        TriangleList = 4 => "triangle_list",
        TriangleStrip = 5 => "triangle_strip",
    }
}

dx_enum! {
    /// Output topology of a mesh shader (`DXIL::MeshOutputTopology`).
    MeshOutputTopology {
        Undefined = 0 => "undefined",
        Line = 1 => "line",
        Triangle = 2 => "triangle",
    }
}
