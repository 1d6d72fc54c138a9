//! The fixed-function state around the shader: specialization constants, push data and
//! the state buffer ([`crate::options`] gives the ids and the layouts), and what the
//! epilogue computes from them: user clip planes and the point size for vertex shaders, fog
//! and the alpha test for pixel shaders, plus the bump-environment and projection state
//! texture instructions read.

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{BuiltIn, Op, OpCode, ScalarType, ShaderStageMask, SsaDef, Type};

use super::{Converter, Tmp, R};
use crate::options::{push, spec_id, state};

/// Spec constants, push data and the state buffer declared so far.
#[derive(Debug, Default)]
pub(crate) struct State {
    spec: [Option<SsaDef>; 6],
    push: smallvec::SmallVec<[(u32, SsaDef); 8]>,
    /// The state buffer's descriptor.
    buffer: Option<SsaDef>,
}

/// `D3DCMP_ALWAYS`.
const CMP_ALWAYS: u32 = 8;

impl Converter<'_, '_> {
    /// The `u32` specialization constant `id` (declared once) with its default.
    pub(crate) fn spec_constant(&mut self, id: u32, default: u32, name: &str) -> SsaDef {
        let i = (id - spec_id::ALPHA_FUNC) as usize;
        if let Some(Some(d)) = self.state.spec.get(i) {
            return *d;
        }
        let ep = self.ep;
        let d = self.decl(
            Op::new(OpCode::DclSpecConstant, ScalarType::U32)
                .with_ref(ep)
                .with_lit(u64::from(id))
                .with_lit(u64::from(default)),
        );
        self.name(d, name);
        if let Some(s) = self.state.spec.get_mut(i) {
            *s = Some(d);
        }
        d
    }

    /// The push data member at `offset` of type `ty` (declared once). Members get no
    /// `DebugName`: a push member has no SPIR-V id of its own, so a name would name nothing
    /// (the member names are those of [`crate::options::push`]).
    fn push_member(&mut self, offset: u32, ty: Type) -> SsaDef {
        if let Some((_, d)) = self.state.push.iter().find(|(o, _)| *o == offset) {
            return *d;
        }
        let stage = if self.version.is_vertex() {
            ShaderStageMask::Vertex
        } else {
            ShaderStageMask::Pixel
        };
        let ep = self.ep;
        let d = self.decl(
            Op::new(OpCode::DclPushData, ty)
                .with_ref(ep)
                .with_lit(u64::from(offset))
                .with_lit(stage.to_literal()),
        );
        self.state.push.push((offset, d));
        d
    }

    /// Loads an `f32` push member.
    fn push_f32(&mut self, offset: u32) -> SsaDef {
        let d = self.push_member(offset, ScalarType::F32.into());
        self.code(
            Op::new(OpCode::PushDataLoad, ScalarType::F32)
                .with_ref(d)
                .with_opt_ref(None),
        )
    }

    /// Row `row` of the stage's state buffer (`b3`, [`state`]) as a `vec4<f32>`.
    fn state_row(&mut self, row: u32) -> R<SsaDef> {
        let desc = match self.state.buffer {
            Some(d) => d,
            None => {
                let rows = if self.version.is_vertex() {
                    state::VERTEX_ROWS
                } else {
                    state::PIXEL_ROWS
                };
                let ty = Type::vector(ScalarType::F32, 4)
                    .array_of(rows)
                    .map_err(|e| self.invalid(e.to_string()))?;
                let (_, d) = self.constant_buffer(ty, state::REGISTER, state::NAME);
                self.state.buffer = Some(d);
                d
            }
        };
        let r = self.c_u32(row);
        Ok(self.code(
            Op::new(OpCode::BufferLoad, Type::vector(ScalarType::F32, 4))
                .with_ref(desc)
                .with_ref(r)
                .with_lit(16),
        ))
    }

    /// Whether bit `bit` of spec constant `spec` is set.
    fn spec_bit(&mut self, spec: SsaDef, bit: u32) -> SsaDef {
        let m = self.c_u32(1 << (bit & 31));
        let a = self.op2(OpCode::IAnd, ScalarType::U32, spec, m);
        let z = self.c_u32(0);
        self.op2(OpCode::INe, ScalarType::Bool, a, z)
    }

    // -------------------------------------------------------------------------------------
    // Texture state
    // -------------------------------------------------------------------------------------

    /// The bump-environment matrix of texture stage `stage`: (m00, m01, m10, m11).
    pub(crate) fn bump_matrix(&mut self, stage: u32) -> R<[SsaDef; 4]> {
        if stage >= 6 {
            return Err(self.invalid(format!("bump-environment stage {stage} is out of range")));
        }
        let row = self.state_row(state::BUMP_ENV_MATRICES + stage)?;
        let mut m = [row; 4];
        for (c, x) in m.iter_mut().enumerate() {
            *x = self.extract(ScalarType::F32, row, c as u32);
        }
        Ok(m)
    }

    /// The bump-environment luminance scale and offset of texture stage `stage`.
    pub(crate) fn bump_luminance(&mut self, stage: u32) -> R<[SsaDef; 2]> {
        if stage >= 6 {
            return Err(self.invalid(format!("bump luminance stage {stage} is out of range")));
        }
        let row = self.state_row(state::BUMP_ENV_LUMINANCE + stage)?;
        let s = self.extract(ScalarType::F32, row, 0);
        let o = self.extract(ScalarType::F32, row, 1);
        Ok([s, o])
    }

    /// Whether texture stage `stage` projects its coordinates (`D3DTTFF_PROJECTED`).
    pub(crate) fn projected(&mut self, stage: u32) -> SsaDef {
        let s = self.spec_constant(spec_id::PROJECTED_TEXTURES, 0, "projected_textures");
        self.spec_bit(s, stage)
    }

    // -------------------------------------------------------------------------------------
    // Vertex shader state
    // -------------------------------------------------------------------------------------

    /// `ClipDistance[i] = dot(position, plane[i])` for each plane the enable mask (a spec
    /// constant) turns on, 0 (never clipped) for the others; the planes are rows of the
    /// state buffer.
    pub(crate) fn clip_planes(&mut self, pos: [SsaDef; 4]) -> R<()> {
        let mask = self.spec_constant(spec_id::CLIP_PLANE_ENABLE, 0, "clip_plane_enable");
        let out_ty = Type::scalar(ScalarType::F32)
            .array_of(6)
            .map_err(|e| self.invalid(e.to_string()))?;
        let out = self.builtin_output(BuiltIn::ClipDistance, out_ty, "CLIPDISTANCE");
        let zero = self.c_f32(0.0);
        for i in 0..6u32 {
            let plane = self.state_row(state::CLIP_PLANES + i)?;
            let mut p = pos;
            for (c, x) in p.iter_mut().enumerate() {
                *x = self.extract(ScalarType::F32, plane, c as u32);
            }
            let d = self.dot_chain(&pos, &p);
            let on = self.spec_bit(mask, i);
            let v = self.select_f(on, d, zero);
            let idx = self.c_u32(i);
            self.code(
                Op::new(OpCode::OutputStore, Type::VOID)
                    .with_ref(out)
                    .with_ref(idx)
                    .with_ref(v),
            );
        }
        Ok(())
    }

    /// `PointSize = clamp(oPts or D3DRS_POINTSIZE, min, max)`.
    pub(crate) fn point_size(&mut self, written: Option<SsaDef>) -> R<()> {
        let size = match written {
            Some(v) => v,
            None => self.push_f32(push::POINT_SIZE),
        };
        let lo = self.push_f32(push::POINT_SIZE_MIN);
        let hi = self.push_f32(push::POINT_SIZE_MAX);
        let s = self.op2(OpCode::FMax, ScalarType::F32, size, lo);
        let s = self.op2(OpCode::FMin, ScalarType::F32, s, hi);
        let d = self.builtin_output(BuiltIn::PointSize, ScalarType::F32.into(), "PSIZE");
        self.output_store(d, s);
        Ok(())
    }

    // -------------------------------------------------------------------------------------
    // Pixel shader state
    // -------------------------------------------------------------------------------------

    /// Fixed-function fog on the colour (pixel shaders before 3.0):
    /// `rgb = lerp(fog_colour, rgb, f)` with `f` the interpolated `oFog` (table mode
    /// `NONE`) or computed from the fragment depth (`EXP`, `EXP2`, `LINEAR`), saturated.
    pub(crate) fn fog(&mut self, color: &mut [SsaDef; 4]) -> R<()> {
        let f32t = ScalarType::F32;
        let enable = self.spec_constant(spec_id::FOG_ENABLE, 0, "fog_enable");
        let zero_u = self.c_u32(0);
        let on = self.op2(OpCode::INe, ScalarType::Bool, enable, zero_u);
        // Results of the fogged colour go through temporaries so that the disabled path
        // keeps the colour untouched.
        let tmps: [Tmp; 3] = [self.tmp(f32t), self.tmp(f32t), self.tmp(f32t)];
        for (t, c) in tmps.iter().zip(color.iter()) {
            self.store_tmp(*t, *c);
        }
        let iff = self.cf(Op::new(OpCode::ScopedIf, Type::VOID)
            .with_opt_ref(None)
            .with_ref(on));
        let mode = self.spec_constant(spec_id::FOG_MODE, 0, "fog_mode");
        // Vertex fog: the interpolated factor.
        let fog_in = self.fog_input()?;
        // Table fog from the depth.
        let z = self.frag_coord_comp(2);
        let start = self.push_f32(push::FOG_START);
        let end = self.push_f32(push::FOG_END);
        let density = self.push_f32(push::FOG_DENSITY);
        let range = self.op2(OpCode::FSub, f32t, end, start);
        let dist = self.op2(OpCode::FSub, f32t, end, z);
        let linear = self.op2(OpCode::FDiv, f32t, dist, range);
        // exp(-d z) = 2^(-d z log2 e)
        let dz = self.op2(OpCode::FMul, f32t, density, z);
        let k = self.c_f32(-std::f32::consts::LOG2_E);
        let e1 = self.op2(OpCode::FMul, f32t, dz, k);
        let exp1 = self.op1(OpCode::FExp2, f32t, e1);
        let dz2 = self.op2(OpCode::FMul, f32t, dz, dz);
        let e2 = self.op2(OpCode::FMul, f32t, dz2, k);
        let exp2 = self.op1(OpCode::FExp2, f32t, e2);
        let one_u = self.c_u32(1);
        let two_u = self.c_u32(2);
        let three_u = self.c_u32(3);
        let is1 = self.op2(OpCode::IEq, ScalarType::Bool, mode, one_u);
        let is2 = self.op2(OpCode::IEq, ScalarType::Bool, mode, two_u);
        let is3 = self.op2(OpCode::IEq, ScalarType::Bool, mode, three_u);
        let f = self.select_f(is3, linear, fog_in);
        let f = self.select_f(is2, exp2, f);
        let f = self.select_f(is1, exp1, f);
        let zero = self.c_f32(0.0);
        let one = self.c_f32(1.0);
        let f = self.op3(OpCode::FClamp, f32t, f, zero, one);
        let fog_color = {
            let d = self.push_member(push::FOG_COLOR, Type::vector(ScalarType::F32, 3));
            self.code(
                Op::new(OpCode::PushDataLoad, Type::vector(ScalarType::F32, 3))
                    .with_ref(d)
                    .with_opt_ref(None),
            )
        };
        for (c, tmp) in tmps.iter().enumerate() {
            let fc = self.extract(f32t, fog_color, c as u32);
            // lerp(fog, colour, f) = fog + f * (colour - fog)
            let diff = self.op2(OpCode::FSub, f32t, color[c], fc);
            let v = self.op3(OpCode::FMad, f32t, f, diff, fc);
            self.store_tmp(*tmp, v);
        }
        let end_if = self.cf(Op::new(OpCode::ScopedEndIf, Type::VOID).with_ref(iff));
        self.b
            .set_operand(iff, 0, dxspv_ir::Operand::from_def(end_if));
        for (c, t) in tmps.iter().enumerate() {
            color[c] = self.load_tmp(*t, f32t);
        }
        Ok(())
    }

    /// The interpolated vertex fog factor (component 0 of the FOG varying, location 12).
    fn fog_input(&mut self) -> R<SsaDef> {
        let d = self.fog_varying()?;
        let x = self.c_u32(0);
        Ok(self.code(
            Op::new(OpCode::InputLoad, ScalarType::F32)
                .with_ref(d)
                .with_ref(x),
        ))
    }

    /// The alpha test: demote the fragment unless `alpha <func> ref`.
    pub(crate) fn alpha_test(&mut self, alpha: SsaDef) -> R<()> {
        let func = self.spec_constant(spec_id::ALPHA_FUNC, CMP_ALWAYS, "alpha_func");
        let always = self.c_u32(CMP_ALWAYS);
        let enabled = self.op2(OpCode::INe, ScalarType::Bool, func, always);
        let iff = self.cf(Op::new(OpCode::ScopedIf, Type::VOID)
            .with_opt_ref(None)
            .with_ref(enabled));
        let r = self.push_f32(push::ALPHA_REF);
        let b = ScalarType::Bool;
        let u = ScalarType::U32;
        // D3DCMPFUNC - 1 is a mask of the outcomes that pass: 1 less, 2 equal, 4 greater
        // (NEVER 0, LESS 1, EQUAL 2, LESSEQUAL 3, GREATER 4, NOTEQUAL 5, GREATEREQUAL 6).
        let zero = self.c_u32(0);
        let mut outcome = zero;
        for (opc, bit) in [(OpCode::FLt, 1u32), (OpCode::FEq, 2), (OpCode::FGt, 4)] {
            let t = self.op2(opc, b, alpha, r);
            let k = self.c_u32(bit);
            let v = self.op3(OpCode::Select, u, t, k, zero);
            outcome = if outcome == zero {
                v
            } else {
                self.op2(OpCode::IOr, u, outcome, v)
            };
        }
        let one = self.c_u32(1);
        let mask = self.op2(OpCode::ISub, u, func, one);
        let hit = self.op2(OpCode::IAnd, u, mask, outcome);
        let pass = self.op2(OpCode::INe, b, hit, zero);
        let fail = self.op1(OpCode::BNot, b, pass);
        let kill = self.cf(Op::new(OpCode::ScopedIf, Type::VOID)
            .with_opt_ref(None)
            .with_ref(fail));
        self.code(Op::new(OpCode::Demote, Type::VOID));
        let end_kill = self.cf(Op::new(OpCode::ScopedEndIf, Type::VOID).with_ref(kill));
        self.b
            .set_operand(kill, 0, dxspv_ir::Operand::from_def(end_kill));
        let end_if = self.cf(Op::new(OpCode::ScopedEndIf, Type::VOID).with_ref(iff));
        self.b
            .set_operand(iff, 0, dxspv_ir::Operand::from_def(end_if));
        Ok(())
    }
}
