//! Image ops: which ones an image's kind allows (the rules Direct3D and Vulkan share about
//! what can be sampled, loaded, stored and queried, checked by the validator and by the SPIR-V
//! backend from this one place), the shapes of their coordinates, layers, gradients and
//! offsets, and what a size query returns.

use super::{Rule, Validator};
use crate::enums::ResourceKind;
use crate::op::{Op, SsaDef};
use crate::opcode::{OpCode, TypeRule};
use crate::types::{ScalarType, Type};

/// Why image op `op` cannot run on an image of `kind` (a UAV if `uav`), if it cannot:
///
/// - samples, gathers, LOD queries and mip counts need a single-sampled SRV;
/// - loads, stores and atomics address texels, which cube maps have no coordinates for;
/// - stores and atomics need a UAV; atomics a single-sampled one (the IR names no sample
///   for them); a multisampled load or store names its sample, a single-sampled store none;
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
        ImageAtomic if ms => "a multisampled image",
        ImageLoad | ImageStore if ms && op.arg(4).is_none() => {
            "a multisampled image without a sample index"
        }
        ImageStore if !ms && op.arg(4).is_some() => "a single-sampled image with a sample index",
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

/// True if [`Validator::check_image_ops`] has a rule for `op`.
pub(super) const fn has_image_rule(op: OpCode) -> bool {
    use OpCode::*;
    matches!(
        op,
        ImageQuerySize
            | ImageLoad
            | ImageStore
            | ImageAtomic
            | ImageSample
            | ImageGather
            | ImageComputeLod
            | ImageQueryMips
    )
}

impl Validator<'_> {
    /// Image query results and image operands.
    pub(super) fn check_image_ops(&mut self, def: SsaDef, op: &Op) {
        use OpCode::*;
        let rt = &op.ty;
        match op.opcode {
            ImageQuerySize => {
                // struct{size, layers}: the size a 32-bit integer scalar or vector, the layer
                // count a scalar of the same integer type.
                let fits = match rt.members() {
                    [size, layers] if rt.is_struct() && !rt.is_array() => {
                        let s = size.base();
                        s.is_int()
                            && s.bit_size() == Some(32)
                            && layers.vec_size() == 1
                            && layers.base() == s
                    }
                    _ => false,
                };
                if !fits {
                    self.err(
                        def,
                        op,
                        Rule::ResultType,
                        format!("{rt} is not struct{{size, layers}} of one 32-bit integer type"),
                    );
                }
            }
            ImageLoad | ImageStore | ImageAtomic | ImageSample | ImageGather | ImageComputeLod
            | ImageQueryMips => self.check_image_operands(def, op),
            _ => {}
        }
    }

    /// The image kind `op`'s descriptor (operand 0) was declared with, if it is an image,
    /// and whether it is a UAV.
    fn image_kind(&self, op: &Op) -> Option<(ResourceKind, bool)> {
        let (_, load) = self.target(op, 0)?;
        let (_, dcl) = self.target(load, 0)?;
        if load.opcode != OpCode::DescriptorLoad
            || !matches!(dcl.opcode, OpCode::DclSrv | OpCode::DclUav)
        {
            return None;
        }
        let kind = ResourceKind::from_literal(dcl.lit(3)?)?;
        let image = !kind.is_buffer() && kind != ResourceKind::AccelerationStructure;
        image.then_some((kind, dcl.opcode == OpCode::DclUav))
    }
    /// Image coordinates, layers, gradients and offsets (the operands the opcode table gives
    /// image [`TypeRule`]s) fit the image's kind: a coordinate of its components (floats to
    /// sample, 32-bit integers to address texels), a layer of the coordinate's scalar type
    /// exactly where the kind is layered, gradients of the coordinate's type, and offsets of
    /// 32-bit integers, one per coordinate component (none on cube maps).
    fn check_image_operands(&mut self, def: SsaDef, op: &Op) {
        let Some((kind, uav)) = self.image_kind(op) else {
            return;
        };
        if let Some(what) = image_op_misfit(op, kind, uav) {
            self.err_at(
                def,
                op,
                0,
                Rule::OperandType,
                format!("{} of {what}", op.opcode),
            );
        }
        let refs = op.opcode.info().refs;
        let find = |rules: &[TypeRule]| refs.iter().position(|r| rules.contains(&r.ty));
        let Some(coord) = find(&[TypeRule::TexelCoord, TypeRule::SampleCoord]) else {
            return;
        };
        let float = refs[coord].ty == TypeRule::SampleCoord;
        let scalar_ok = |s: ScalarType| {
            if float {
                s == ScalarType::F32
            } else {
                matches!(s, ScalarType::I32 | ScalarType::U32)
            }
        };
        let n = kind.coord_components();
        let what = format_args!(
            "{n} {} for {kind}",
            if float { "f32" } else { "32-bit integers" }
        );
        self.want_type(def, op, coord, what, |v, t| {
            v.basic_of(t, scalar_ok) && t.as_basic().is_some_and(|b| b.vec_size() == n)
        });
        if let Some(l) = find(&[TypeRule::TexelLayer, TypeRule::SampleLayer]) {
            if op.arg(l).is_some() != kind.is_layered() {
                let what = if kind.is_layered() {
                    "a layer"
                } else {
                    "no layer"
                };
                self.want(def, op, l, false, format_args!("{what} for {kind}"));
            } else if let Some(c) = self.operand_type(op, coord) {
                let want = Type::scalar(c.base_type().unwrap_or(ScalarType::Unknown));
                self.want_type(def, op, l, want, |v, t| v.same_type(t, &want));
            }
        }
        if let Some(c) = self.operand_type(op, coord) {
            for (g, _) in refs
                .iter()
                .enumerate()
                .filter(|(_, r)| r.ty == TypeRule::Gradient)
            {
                self.want_type(def, op, g, c, |v, t| v.same_type(t, &c));
            }
        }
        let Some(o) = find(&[TypeRule::Offset]).filter(|&o| op.arg(o).is_some()) else {
            return;
        };
        let n = kind.offset_components();
        self.want_type(def, op, o, format_args!("{n} 32-bit integers"), |v, t| {
            v.basic_of(t, |s| matches!(s, ScalarType::I32 | ScalarType::U32))
                && t.as_basic().is_some_and(|b| b.vec_size() == n)
        });
    }
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
        let store = op(OpCode::ImageStore, 5, &[0, 2, 3]);
        let store_ms = op(OpCode::ImageStore, 5, &[0, 2, 3, 4]);
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
            (
                &store,
                K::Image2DMS,
                true,
                Some("a multisampled image without a sample index"),
            ),
            (&store_ms, K::Image2DMSArray, true, None),
            (&store_ms, K::Image2DMS, false, Some("an SRV")),
            (
                &store_ms,
                K::Image2D,
                true,
                Some("a single-sampled image with a sample index"),
            ),
            (&atomic, K::Image2DMS, true, Some("a multisampled image")),
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
