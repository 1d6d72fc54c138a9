//! Which image ops an image's kind allows: the rules Direct3D and Vulkan share about what
//! can be sampled, loaded, stored and queried, checked by the validator and by the SPIR-V
//! backend from this one place.

use crate::enums::ResourceKind;
use crate::op::Op;
use crate::opcode::OpCode;

/// Why image op `op` cannot run on an image of `kind` (a UAV if `uav`), if it cannot:
///
/// - samples, gathers, LOD queries and mip counts need a single-sampled SRV;
/// - loads, stores and atomics address texels, which cube maps have no coordinates for;
/// - stores and atomics need a single-sampled UAV (the IR names no sample for them), and a
///   multisampled load names its sample;
/// - gathers read 2D and cube images;
/// - a 3D image takes no depth comparison (Vulkan has none for 3D images).
pub fn image_op_misfit(op: &Op, kind: ResourceKind, uav: bool) -> Option<&'static str> {
    use OpCode::*;
    let cube = matches!(kind, ResourceKind::ImageCube | ResourceKind::ImageCubeArray);
    let ms = kind.is_multisampled();
    Some(match op.opcode {
        ImageSample | ImageGather | ImageComputeLod | ImageQueryMips if uav => "a UAV",
        ImageSample | ImageGather | ImageComputeLod | ImageQueryMips if ms => {
            "a multisampled image"
        }
        ImageLoad | ImageStore | ImageAtomic if cube => "a cube map",
        ImageStore | ImageAtomic if !uav => "an SRV",
        ImageStore | ImageAtomic if ms => "a multisampled image",
        ImageLoad if ms && op.arg(4).is_none() => "a multisampled image without a sample index",
        ImageGather
            if !matches!(kind, ResourceKind::Image2D | ResourceKind::Image2DArray) && !cube =>
        {
            "an image that is neither 2D nor a cube map"
        }
        ImageSample if kind == ResourceKind::Image3D && op.arg(10).is_some() => {
            "a 3D image with a depth comparison"
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::op::SsaDef;
    use crate::types::{ScalarType, Type};
    use ResourceKind as K;

    /// `opcode` with a reference in operand slots `present` (counted from 0) and nulls up to
    /// `len`.
    fn op(opcode: OpCode, len: usize, present: &[usize]) -> Op {
        let d = SsaDef::new(1);
        (0..len).fold(Op::new(opcode, Type::scalar(ScalarType::F32)), |o, i| {
            o.with_opt_ref(if present.contains(&i) { d } else { None })
        })
    }

    #[test]
    fn image_ops_need_their_kind() {
        let sample = op(OpCode::ImageSample, 11, &[0, 1, 3]);
        let sample_dref = op(OpCode::ImageSample, 11, &[0, 1, 3, 10]);
        let gather = op(OpCode::ImageGather, 6, &[0, 1, 3]);
        let load = op(OpCode::ImageLoad, 6, &[0, 3]);
        let load_ms = op(OpCode::ImageLoad, 6, &[0, 3, 4]);
        let store = op(OpCode::ImageStore, 4, &[0, 2, 3]);
        let atomic = op(OpCode::ImageAtomic, 4, &[0, 2, 3]);
        let mips = op(OpCode::ImageQueryMips, 1, &[0]);
        for (o, kind, uav, want) in [
            (&sample, K::Image2D, false, None),
            (&sample, K::Image2D, true, Some("a UAV")),
            (&sample, K::Image2DMS, false, Some("a multisampled image")),
            (
                &sample_dref,
                K::Image3D,
                false,
                Some("a 3D image with a depth comparison"),
            ),
            (&sample_dref, K::ImageCube, false, None),
            (&gather, K::ImageCubeArray, false, None),
            (
                &gather,
                K::Image3D,
                false,
                Some("an image that is neither 2D nor a cube map"),
            ),
            (&load, K::Image2D, true, None),
            (&load, K::ImageCube, false, Some("a cube map")),
            (
                &load,
                K::Image2DMS,
                false,
                Some("a multisampled image without a sample index"),
            ),
            (&load_ms, K::Image2DMS, false, None),
            (&store, K::Image2DArray, true, None),
            (&store, K::Image2D, false, Some("an SRV")),
            (&store, K::Image2DMS, true, Some("a multisampled image")),
            (&atomic, K::ImageCube, true, Some("a cube map")),
            (&atomic, K::Image3D, true, None),
            (&mips, K::Image2D, false, None),
            (&mips, K::Image2D, true, Some("a UAV")),
            (
                &mips,
                K::Image2DMSArray,
                false,
                Some("a multisampled image"),
            ),
        ] {
            assert_eq!(
                image_op_misfit(o, kind, uav),
                want,
                "{} {kind} uav={uav}",
                o.opcode
            );
        }
    }
}
