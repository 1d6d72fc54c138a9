//! Direct3D system values as IR built-ins.
//!
//! SM 4–5 signatures and declarations name system values with `D3D_NAME` numbers (the
//! `D3D10_SB_NAME` token values; 64 and up are pixel-shader outputs). Several tessellation
//! factors share one IR built-in, an array, and pick their element by name and semantic
//! index.

use crate::{BuiltIn, ScalarType};

/// The built-in of a `D3D_NAME` system value, and for tessellation factors the element of the
/// factor array it names; `None` for values that are not built-ins (`D3D_NAME_UNDEFINED`,
/// render targets, unknown numbers).
pub fn builtin_of_d3d_name(name: u32, semantic_index: u32) -> Option<(BuiltIn, Option<u32>)> {
    Some(match name {
        1 => (BuiltIn::Position, None),
        2 => (BuiltIn::ClipDistance, None),
        3 => (BuiltIn::CullDistance, None),
        4 => (BuiltIn::LayerIndex, None),
        5 => (BuiltIn::ViewportIndex, None),
        6 => (BuiltIn::VertexId, None),
        7 => (BuiltIn::PrimitiveId, None),
        8 => (BuiltIn::InstanceId, None),
        9 => (BuiltIn::IsFrontFace, None),
        10 => (BuiltIn::SampleId, None),
        // FINAL_QUAD_EDGE / FINAL_TRI_EDGE tessfactors: outer[semantic index].
        11 | 13 => (BuiltIn::TessFactorOuter, Some(semantic_index.min(3))),
        // FINAL_QUAD_INSIDE: inner[semantic index]; FINAL_TRI_INSIDE: inner[0].
        12 => (BuiltIn::TessFactorInner, Some(semantic_index.min(1))),
        14 => (BuiltIn::TessFactorInner, Some(0)),
        // FINAL_LINE_DETAIL / FINAL_LINE_DENSITY: outer[1] / outer[0], as Vulkan's isolines.
        15 => (BuiltIn::TessFactorOuter, Some(1)),
        16 => (BuiltIn::TessFactorOuter, Some(0)),
        23 => (BuiltIn::Barycentrics, None),
        24 => (BuiltIn::ShadingRate, None),
        25 => (BuiltIn::CullPrimitive, None),
        // DEPTH, DEPTH_GREATER_EQUAL, DEPTH_LESS_EQUAL.
        65 | 67 | 68 => (BuiltIn::Depth, None),
        66 => (BuiltIn::SampleMask, None),
        69 => (BuiltIn::StencilRef, None),
        70 => (BuiltIn::IsFullyCovered, None),
        _ => return None,
    })
}

/// The scalar type, vector size and array length (0: not an array) of a built-in, with
/// `clip_count` clip or cull distances.
pub fn builtin_shape(b: BuiltIn, clip_count: u32) -> (ScalarType, u8, u32) {
    use ScalarType as S;
    match b {
        BuiltIn::Position | BuiltIn::PixelPosition => (S::F32, 4, 0),
        BuiltIn::ClipDistance | BuiltIn::CullDistance => (S::F32, 1, clip_count.max(1)),
        BuiltIn::TessFactorOuter => (S::F32, 1, 4),
        BuiltIn::TessFactorInner => (S::F32, 1, 2),
        BuiltIn::TessCoord | BuiltIn::Barycentrics => (S::F32, 3, 0),
        BuiltIn::WorkgroupId | BuiltIn::GlobalThreadId | BuiltIn::LocalThreadId => (S::U32, 3, 0),
        BuiltIn::IsFrontFace | BuiltIn::IsFullyCovered | BuiltIn::CullPrimitive => (S::Bool, 1, 0),
        BuiltIn::Depth | BuiltIn::PointSize | BuiltIn::Fog => (S::F32, 1, 0),
        BuiltIn::SamplePosition => (S::F32, 2, 0),
        _ => (S::U32, 1, 0),
    }
}
