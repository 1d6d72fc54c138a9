//! Samplers and the texture instructions of every model.
//!
//! A sampler `s#` is an SRV `t#` plus a sampler `s#` (register space 0 in pixel shaders, 1
//! in vertex shaders), with the texture type of its `dcl` or, where the model has none,
//! of [`crate::Options::sampler_types`]. `ps_1_x` texture instructions sample the stage
//! of their destination register with the texture coordinate set of the same number:
//!
//! * `tex t#` (projected by `w` when [`crate::options::spec_id::PROJECTED_TEXTURES`] has
//!   the stage's bit), `texcoord t#` (the coordinate saturated, `w` = 1), `texld`/`texcrd`
//!   of `ps_1_4` (sampler = destination register, `_dz`/`_dw` on the source);
//! * `texbem`/`texbeml` (coordinate + bump matrix × `t(n).rg`, then `× (t(n).b × scale +
//!   offset)` for `texbeml`), `bem`;
//! * `texreg2ar`/`gb`/`rgb` (coordinates taken from a register's components);
//! * `texm3x2pad`/`tex`/`depth`, `texm3x3pad`/`tex`/`spec`/`vspec`, `texm3x3`: rows of a
//!   matrix product of texture coordinates with `t(n)`, the pads holding the first rows;
//!   `spec`/`vspec` reflect the eye vector (`c#.xyz`, or the three coordinates' `w`)
//!   about the normal: `2 (N·E)/(N·N) N − E`;
//! * `texdp3`, `texdp3tex`, `texdepth` and `texm3x2depth` (`z/w`, 1.0 where `w` is 0,
//!   written to the depth output), `texkill` (demote when a tested component is negative:
//!   `xyz` in 1.x, the write mask from 2.0).
//!
//! From 2.0 `texld`/`texldp`/`texldb`/`texldl`/`texldd` sample the sampler of their second
//! source, whose swizzle then swizzles the result. Depth-compare samplers
//! ([`crate::Options::depth_compare_samplers`]) compare the coordinate's `z` and return the
//! result in all four components.

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{Op, OpCode, ResourceKind, ScalarType, SsaDef, Type};

use super::{Converter, Lanes, R};
use crate::decode::{Instruction, TexLoad, TextureType};
use crate::opcode::Opcode;
use crate::operand::{Source, Swizzle};
use crate::register::{Register, RegisterType};

const F: ScalarType = ScalarType::F32;

/// A declared sampler: its texture's descriptor, the sampler's, and the texture kind.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SamplerSlot {
    texture: SsaDef,
    sampler: SsaDef,
    kind: ResourceKind,
}

/// Samplers declared so far, and the rows of a `texm3x*` product computed by the pads.
#[derive(Debug, Default)]
pub(crate) struct Samplers {
    slots: [Option<SamplerSlot>; 16],
    pads: [Option<SsaDef>; 2],
    pad_count: usize,
}

/// How a sample picks its level of detail.
#[derive(Clone, Copy, Debug)]
enum Lod {
    /// From the derivatives (pixel shaders; level 0 in vertex shaders).
    Implicit,
    /// `texldb`: bias.
    Bias(SsaDef),
    /// `texldl`: explicit level.
    Level(SsaDef),
    /// `texldd`: gradients (as many components as the coordinate).
    Grad(SsaDef, SsaDef),
}

impl Converter<'_, '_> {
    /// The texture kind of sampler `n`.
    fn sampler_kind(&self, n: u32) -> ResourceKind {
        let declared = self
            .pre
            .sampler_dcl
            .get(n as usize)
            .copied()
            .flatten()
            .filter(|t| *t != TextureType::Unknown);
        let ty = declared.unwrap_or_else(|| {
            self.opts
                .sampler_types
                .get(n as usize)
                .copied()
                .unwrap_or(TextureType::Texture2D)
        });
        match ty {
            TextureType::Cube => ResourceKind::ImageCube,
            TextureType::Volume => ResourceKind::Image3D,
            TextureType::Unknown | TextureType::Texture1D | TextureType::Texture2D => {
                ResourceKind::Image2D
            }
        }
    }

    /// The sampler `s{n}`, declared and its descriptors loaded at the entry on first use.
    fn sampler(&mut self, n: u32) -> R<SamplerSlot> {
        if let Some(Some(s)) = self.samplers.slots.get(n as usize) {
            return Ok(*s);
        }
        if n >= 16 {
            return Err(self.invalid(format!("s{n} is out of range")));
        }
        let kind = self.sampler_kind(n);
        let space = u64::from(self.version.is_vertex());
        let ep = self.ep;
        let t = self.decl(
            Op::new(OpCode::DclSrv, F)
                .with_ref(ep)
                .with_lit(space)
                .with_lit(u64::from(n))
                .with_lit(1)
                .with_lit(kind.to_literal()),
        );
        use dxspv_ir::frontend::NamePart as P;
        match super::TEXTURE_NAMES.get(n as usize) {
            Some(x) => self.name(t, x),
            None => self.name_parts(t, &[P::S("t"), P::N(u64::from(n))]),
        }
        let s = self.decl(
            Op::new(OpCode::DclSampler, Type::VOID)
                .with_ref(ep)
                .with_lit(space)
                .with_lit(u64::from(n))
                .with_lit(1),
        );
        match super::SAMPLER_NAMES.get(n as usize) {
            Some(x) => self.name(s, x),
            None => self.name_parts(s, &[P::S("s"), P::N(u64::from(n))]),
        }
        let zero = self.c_u32(0);
        let texture = self.entry(
            Op::new(OpCode::DescriptorLoad, ScalarType::Srv)
                .with_ref(t)
                .with_ref(zero),
        );
        let sampler = self.entry(
            Op::new(OpCode::DescriptorLoad, ScalarType::Sampler)
                .with_ref(s)
                .with_ref(zero),
        );
        let slot = SamplerSlot {
            texture,
            sampler,
            kind,
        };
        self.samplers.slots[n as usize] = Some(slot);
        Ok(slot)
    }

    /// How many leading coordinate components a plain sample of sampler `n` reads: those of
    /// its texture type, and the `z` a shadow sampler compares with.
    fn coordinate_components(&self, n: u32) -> usize {
        let kind = self.sampler_kind(n);
        let compare = self.opts.depth_compare_samplers & super::prescan::bit(n) != 0
            && kind == ResourceKind::Image2D;
        if compare {
            3
        } else {
            (kind.coord_components() as usize).clamp(1, 3)
        }
    }

    /// Samples sampler `n` at `coord` (as many components as given; missing ones are 0,
    /// extra ones ignored). `dref` is the comparison value of a depth-compare sampler (the
    /// coordinate's `z` when `None`). Returns the four components.
    fn sample(
        &mut self,
        n: u32,
        coord: &[SsaDef],
        lod: Lod,
        dref: Option<SsaDef>,
    ) -> R<[SsaDef; 4]> {
        let slot = self.sampler(n)?;
        let k = slot.kind.coord_components() as usize;
        // The constant 0 is made only where something takes it.
        let mut zero_def = None;
        let mut zero = |s: &mut Self| *zero_def.get_or_insert_with(|| s.c_f32(0.0));
        let mut parts: smallvec::SmallVec<[SsaDef; 3]> = smallvec::SmallVec::new();
        for i in 0..k.min(3) {
            let p = match coord.get(i) {
                Some(x) => *x,
                None => zero(self),
            };
            parts.push(p);
        }
        let c = self.f32_vector(&parts);
        // Direct3D 9 shadow maps are 2D depth textures: the bit of a cube or volume sampler
        // changes nothing.
        let compare = self.opts.depth_compare_samplers & super::prescan::bit(n) != 0
            && slot.kind == ResourceKind::Image2D;
        let dref = match (compare, dref, coord.get(2)) {
            (false, ..) => None,
            (true, Some(d), _) | (true, None, Some(&d)) => Some(d),
            (true, None, None) => Some(zero(self)),
        };
        let vertex = self.version.is_vertex();
        let (mut lod_index, mut bias, mut dx, mut dy) = (None, None, None, None);
        match lod {
            Lod::Implicit if vertex => lod_index = Some(zero(self)),
            Lod::Implicit => {}
            Lod::Bias(b) if vertex => {
                let _ = b;
                lod_index = Some(zero(self));
            }
            Lod::Bias(b) => bias = Some(b),
            Lod::Level(l) => lod_index = Some(l),
            Lod::Grad(x, y) => {
                dx = Some(x);
                dy = Some(y);
            }
        }
        let ty: Type = if dref.is_some() {
            F.into()
        } else {
            Type::vector(F, 4)
        };
        let v = self.code(
            Op::new(OpCode::ImageSample, ty)
                .with_ref(slot.texture)
                .with_ref(slot.sampler)
                .with_opt_ref(None)
                .with_ref(c)
                .with_opt_ref(None)
                .with_opt_ref(lod_index)
                .with_opt_ref(bias)
                .with_opt_ref(None)
                .with_opt_ref(dx)
                .with_opt_ref(dy)
                .with_opt_ref(dref),
        );
        if dref.is_some() {
            return Ok([v; 4]);
        }
        let mut out = [v; 4];
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.extract(F, v, i as u32);
            // Removed at the end if nothing reads it (the sample written out whole).
            self.spare_extracts.push(*o);
        }
        Ok(out)
    }

    /// The texture coordinate set `n` as four values (`ps_1_x` texture instructions).
    fn coord_set(&mut self, n: u32) -> R<[SsaDef; 4]> {
        let x = self.texcoord(n, 0)?;
        let mut out = [x; 4];
        for (c, o) in out.iter_mut().enumerate().skip(1) {
            *o = self.texcoord(n, c as u8)?;
        }
        Ok(out)
    }

    /// Writes four values to the destination (through the write mask).
    fn write4(&mut self, inst: &Instruction<'_>, v: [SsaDef; 4]) -> R<()> {
        self.write(inst, [Some(v[0]), Some(v[1]), Some(v[2]), Some(v[3])])
    }

    /// The stage a `ps_1_x` texture instruction uses: its destination register's number.
    fn stage_of(&self, inst: &Instruction<'_>) -> R<u32> {
        Ok(self.destination(inst)?.register.index)
    }

    /// The register a `ps_1_x` texture instruction reads, as a plain source.
    fn plain(r: Register) -> Source {
        Source {
            register: r,
            swizzle: Swizzle::IDENTITY,
            ..Source::default()
        }
    }

    /// `dot(coordinate set m .xyz, t(n).rgb)`: one row of a texture matrix product.
    fn tex_row(&mut self, m: u32, n: &[SsaDef; 4]) -> R<SsaDef> {
        let tc = self.coord_set(m)?;
        Ok(self.dot(&tc[..3], &n[..3]))
    }

    /// The result of the pads of a `texm3x2`/`texm3x3` sequence.
    fn take_pads<const N: usize>(&mut self) -> R<[SsaDef; N]> {
        if self.samplers.pad_count != N {
            return Err(self.invalid(format!(
                "{} texm pad instructions before this one, {N} expected",
                self.samplers.pad_count
            )));
        }
        self.samplers.pad_count = 0;
        let mut out = [self.c_f32(0.0); N];
        for (o, p) in out.iter_mut().zip(self.samplers.pads) {
            *o = p.ok_or_else(|| self.invalid("missing texm pad"))?;
        }
        Ok(out)
    }

    /// The reflection of eye vector `e` about normal `n`: `2 (n·e)/(n·n) n − e`.
    fn reflect(&mut self, n: [SsaDef; 3], e: [SsaDef; 3]) -> [SsaDef; 3] {
        let ne = self.dot(&n, &e);
        let nn = self.dot(&n, &n);
        let two = self.c_f32(2.0);
        let ne2 = self.op2(OpCode::FMul, F, ne, two);
        let k = self.op2(OpCode::FDiv, F, ne2, nn);
        let mut r = n;
        for i in 0..3 {
            let p = self.inner_mul(k, n[i]);
            r[i] = self.op2(OpCode::FSub, F, p, e[i]);
        }
        r
    }

    /// `z / w`, 1.0 where `w` is 0.
    fn depth_ratio(&mut self, z: SsaDef, w: SsaDef) -> SsaDef {
        let zero = self.c_f32(0.0);
        let one = self.c_f32(1.0);
        let q = self.op2(OpCode::FDiv, F, z, w);
        let w0 = self.op2(OpCode::FEq, ScalarType::Bool, w, zero);
        self.select_f(w0, one, q)
    }

    /// Converts a texture instruction.
    pub(crate) fn texture(&mut self, inst: &Instruction<'_>) -> R<()> {
        use Opcode as O;
        let v = self.version;
        let ps1 = v.is_pixel() && v.major == 1;
        match inst.opcode {
            O::Tex if ps1 && v.minor < 4 => {
                let m = self.stage_of(inst)?;
                let tc = self.coord_set(m)?;
                // D3DTTFF_PROJECTED: divide by w.
                let proj = self.projected(m);
                let mut c = tc;
                for x in c.iter_mut().take(3) {
                    let d = self.op2(OpCode::FDiv, F, *x, tc[3]);
                    *x = self.select_f(proj, d, *x);
                }
                let r = self.sample(m, &c[..3], Lod::Implicit, None)?;
                self.write4(inst, r)
            }
            O::Tex if ps1 => {
                // ps_1_4: texld r#, t#/r# samples stage #.
                let m = self.stage_of(inst)?;
                let s = *self.source(inst, 0)?;
                // The components the stage's coordinate takes (and the `z` a shadow
                // sampler compares with).
                let need = self.coordinate_components(m);
                let c = self.src(&s, (1u8 << need) - 1)?;
                let c: smallvec::SmallVec<[SsaDef; 3]> =
                    c.iter().take(need).flatten().copied().collect();
                if c.len() != need {
                    return Err(self.invalid("missing source component"));
                }
                let r = self.sample(m, &c, Lod::Implicit, None)?;
                self.write4(inst, r)
            }
            O::Tex | O::TexLdl | O::TexLdd => self.texld(inst),
            O::TexCoord if ps1 && v.minor < 4 => {
                let m = self.stage_of(inst)?;
                let tc = self.coord_set(m)?;
                let zero = self.c_f32(0.0);
                let one = self.c_f32(1.0);
                let mut r = [one; 4];
                for i in 0..3 {
                    r[i] = self.op3(OpCode::FClamp, F, tc[i], zero, one);
                }
                self.write4(inst, r)
            }
            O::TexCoord => {
                // texcrd r#, t#: the coordinate, as the source's modifiers make it.
                let m = inst.dst.map_or(0, |d| d.write_mask.0 & 0xF);
                let s = *self.source(inst, 0)?;
                let r = self.src(&s, m)?;
                self.write(inst, r)
            }
            O::TexKill => self.texkill(inst),
            O::TexBem | O::TexBemL => {
                let m = self.stage_of(inst)?;
                let n = self.src4(self.source(inst, 0)?)?;
                let tc = self.coord_set(m)?;
                let [m00, m01, m10, m11] = self.bump_matrix(m)?;
                let a = self.inner_mul(m00, n[0]);
                let u = self.op2(OpCode::FAdd, F, tc[0], a);
                let b = self.inner_mul(m10, n[1]);
                let u = self.op2(OpCode::FAdd, F, u, b);
                let a = self.inner_mul(m01, n[0]);
                let vv = self.op2(OpCode::FAdd, F, tc[1], a);
                let b = self.inner_mul(m11, n[1]);
                let vv = self.op2(OpCode::FAdd, F, vv, b);
                let mut r = self.sample(m, &[u, vv], Lod::Implicit, None)?;
                if inst.opcode == O::TexBemL {
                    let [scale, offset] = self.bump_luminance(m)?;
                    let l = self.op3(OpCode::FMad, F, n[2], scale, offset);
                    for x in &mut r {
                        *x = self.inner_mul(*x, l);
                    }
                }
                self.write4(inst, r)
            }
            O::Bem => {
                let d = *self.destination(inst)?;
                let stage = d.register.index;
                let a = self.src4(self.source(inst, 0)?)?;
                let n = self.src4(self.source(inst, 1)?)?;
                let [m00, m01, m10, m11] = self.bump_matrix(stage)?;
                let p = self.inner_mul(m00, n[0]);
                let x = self.op2(OpCode::FAdd, F, a[0], p);
                let p = self.inner_mul(m10, n[1]);
                let x = self.op2(OpCode::FAdd, F, x, p);
                let p = self.inner_mul(m01, n[0]);
                let y = self.op2(OpCode::FAdd, F, a[1], p);
                let p = self.inner_mul(m11, n[1]);
                let y = self.op2(OpCode::FAdd, F, y, p);
                self.write(inst, [Some(x), Some(y), None, None])
            }
            O::TexReg2Ar | O::TexReg2Gb | O::TexReg2Rgb => {
                let m = self.stage_of(inst)?;
                let n = self.src4(self.source(inst, 0)?)?;
                let c = match inst.opcode {
                    O::TexReg2Ar => [n[3], n[0], n[2]],
                    O::TexReg2Gb => [n[1], n[2], n[3]],
                    _ => [n[0], n[1], n[2]],
                };
                let r = self.sample(m, &c, Lod::Implicit, None)?;
                self.write4(inst, r)
            }
            O::TexM3x2Pad | O::TexM3x3Pad => {
                let m = self.stage_of(inst)?;
                let n = self.src4(self.source(inst, 0)?)?;
                let row = self.tex_row(m, &n)?;
                let limit = if inst.opcode == O::TexM3x2Pad { 1 } else { 2 };
                let i = self.samplers.pad_count;
                if i >= limit {
                    return Err(self.invalid("too many texm pad instructions in a row"));
                }
                self.samplers.pads[i] = Some(row);
                self.samplers.pad_count += 1;
                Ok(())
            }
            O::TexM3x2Tex | O::TexM3x2Depth => {
                let m = self.stage_of(inst)?;
                let n = self.src4(self.source(inst, 0)?)?;
                let [u] = self.take_pads::<1>()?;
                let w = self.tex_row(m, &n)?;
                if inst.opcode == O::TexM3x2Depth {
                    let z = self.depth_ratio(u, w);
                    return self.write_depth(z);
                }
                let r = self.sample(m, &[u, w], Lod::Implicit, None)?;
                self.write4(inst, r)
            }
            O::TexM3x3Tex | O::TexM3x3 | O::TexM3x3Spec | O::TexM3x3VSpec => {
                let m = self.stage_of(inst)?;
                let n = self.src4(self.source(inst, 0)?)?;
                let [u, vv] = self.take_pads::<2>()?;
                let w = self.tex_row(m, &n)?;
                let normal = [u, vv, w];
                match inst.opcode {
                    O::TexM3x3 => {
                        let one = self.c_f32(1.0);
                        self.write4(inst, [u, vv, w, one])
                    }
                    O::TexM3x3Tex => {
                        let r = self.sample(m, &normal, Lod::Implicit, None)?;
                        self.write4(inst, r)
                    }
                    O::TexM3x3Spec => {
                        let e = self.src4(self.source(inst, 1)?)?;
                        let refl = self.reflect(normal, [e[0], e[1], e[2]]);
                        let r = self.sample(m, &refl, Lod::Implicit, None)?;
                        self.write4(inst, r)
                    }
                    _ => {
                        // The eye vector is the w of the three coordinate sets.
                        let first = m.checked_sub(2).ok_or_else(|| {
                            self.invalid("texm3x3vspec needs the two pads' coordinate sets")
                        })?;
                        let mut e = [u; 3];
                        for (i, x) in e.iter_mut().enumerate() {
                            *x = self.texcoord(first + i as u32, 3)?;
                        }
                        let refl = self.reflect(normal, e);
                        let r = self.sample(m, &refl, Lod::Implicit, None)?;
                        self.write4(inst, r)
                    }
                }
            }
            O::TexDp3 | O::TexDp3Tex => {
                let m = self.stage_of(inst)?;
                let n = self.src4(self.source(inst, 0)?)?;
                let u = self.tex_row(m, &n)?;
                if inst.opcode == O::TexDp3 {
                    return self.write4(inst, [u; 4]);
                }
                let zero = self.c_f32(0.0);
                let r = self.sample(m, &[u, zero], Lod::Implicit, None)?;
                self.write4(inst, r)
            }
            O::TexDepth => {
                let d = *self.destination(inst)?;
                let s = Self::plain(d.register);
                let r = self.src(&s, 0x3)?;
                let (Some(z), Some(w)) = (r[0], r[1]) else {
                    return Err(self.invalid("texdepth register"));
                };
                let z = self.depth_ratio(z, w);
                self.write_depth(z)
            }
            other => Err(self.invalid(format!("{} is not a texture instruction", other.name()))),
        }
    }

    /// `texld`, `texldp`, `texldb` (2.0+), `texldl`, `texldd`.
    fn texld(&mut self, inst: &Instruction<'_>) -> R<()> {
        let s = *self.source(inst, 1)?;
        if s.register.ty != RegisterType::Sampler {
            return Err(self.invalid(format!("{} is not a sampler", s.register)));
        }
        let n = s.register.index;
        if inst.opcode == Opcode::Tex && inst.texld == TexLoad::Plain {
            // Only the components the sampler's coordinate takes (and the `z` a shadow
            // sampler compares with) are read: no op for the others.
            let need = self.coordinate_components(n);
            let l = self.src(self.source(inst, 0)?, (1u8 << need) - 1)?;
            let c: smallvec::SmallVec<[SsaDef; 3]> =
                l.iter().take(need).flatten().copied().collect();
            if c.len() != need {
                return Err(self.invalid("missing source component"));
            }
            let r = self.sample(n, &c, Lod::Implicit, None)?;
            let mut out: Lanes = [None; 4];
            for (l, o) in out.iter_mut().enumerate() {
                *o = Some(r[s.swizzle.lane(l) as usize]);
            }
            return self.write(inst, out);
        }
        let coord = self.src4(self.source(inst, 0)?)?;
        let mut c = coord;
        let mut lod = Lod::Implicit;
        match inst.opcode {
            Opcode::TexLdl => lod = Lod::Level(coord[3]),
            Opcode::TexLdd => {
                let k = self.sampler(n)?.kind.coord_components() as usize;
                let dx = self.src4(self.source(inst, 2)?)?;
                let dy = self.src4(self.source(inst, 3)?)?;
                let x = self.f32_vector(&dx[..k]);
                let y = self.f32_vector(&dy[..k]);
                lod = Lod::Grad(x, y);
            }
            _ => match inst.texld {
                TexLoad::Plain => {}
                TexLoad::Bias => lod = Lod::Bias(coord[3]),
                TexLoad::Project => {
                    for x in c.iter_mut().take(3) {
                        *x = self.op2(OpCode::FDiv, F, *x, coord[3]);
                    }
                }
            },
        }
        let r = self.sample(n, &c[..3], lod, None)?;
        // The sampler's swizzle picks the result's components.
        let mut out: Lanes = [None; 4];
        for (l, o) in out.iter_mut().enumerate() {
            *o = Some(r[s.swizzle.lane(l) as usize]);
        }
        self.write(inst, out)
    }

    /// `texkill`: demote the pixel if a tested component is negative.
    fn texkill(&mut self, inst: &Instruction<'_>) -> R<()> {
        if !self.version.is_pixel() {
            return Err(self.invalid("texkill outside a pixel shader"));
        }
        let d = *self.destination(inst)?;
        let mask = if self.version.major == 1 {
            0x7
        } else {
            d.write_mask.0 & 0xF
        };
        let s = Self::plain(d.register);
        let vals = self.src(&s, mask)?;
        let zero = self.c_f32(0.0);
        let mut kill = None;
        for v in vals.iter().flatten() {
            let lt = self.op2(OpCode::FLt, ScalarType::Bool, *v, zero);
            kill = Some(match kill {
                None => lt,
                Some(k) => self.op2(OpCode::BOr, ScalarType::Bool, k, lt),
            });
        }
        let Some(mut kill) = kill else {
            return Ok(());
        };
        // A predicated texkill (`(p0.x) texkill r0`) kills only where the predicate holds.
        if let Some(p) = &inst.predicate {
            let pt = self.pred(p.swizzle.lane(0));
            let mut c = self.load_tmp(pt, ScalarType::Bool);
            if p.modifier == crate::SourceModifier::Not {
                c = self.op1(OpCode::BNot, ScalarType::Bool, c);
            }
            kill = self.op2(OpCode::BAnd, ScalarType::Bool, kill, c);
        }
        let i = self.cf(Op::new(OpCode::ScopedIf, Type::VOID)
            .with_opt_ref(None)
            .with_ref(kill));
        self.code(Op::new(OpCode::Demote, Type::VOID));
        let e = self.cf(Op::new(OpCode::ScopedEndIf, Type::VOID).with_ref(i));
        self.b.set_operand(i, 0, dxspv_ir::Operand::from_def(e));
        Ok(())
    }
}
