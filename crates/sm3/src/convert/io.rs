//! Shader inputs and outputs: vertex inputs by register, varyings by usage and usage index
//! at the fixed locations of the binding contract, the built-ins (`oPos`, `oPts`, `vPos`,
//! `vFace`, `oDepth`), and the output shadows the epilogue writes out.
//!
//! | usage, index | location |
//! |---|---|
//! | TEXCOORD 0..9 | 0..9 |
//! | COLOR 0..1 | 10..11 |
//! | FOG 0 | 12 (the fog factor in `x`) |
//! | NORMAL 0..1 | 13..14 |
//! | TANGENT 0 | 15 |
//! | BINORMAL 0 | 16 |
//! | BLENDWEIGHT 0 | 17 |
//! | BLENDINDICES 0 | 18 |
//! | POSITION 1..2 | 19..20 |
//! | PSIZE 0 | 21 |
//! | DEPTH 0 | 22 |
//! | SAMPLE 0 | 23 |
//! | TEXCOORD 10..15 | 24..29 |
//!
//! Vertex shader inputs take the location of their register `v#`. Every output is written
//! through a shadow temporary (outputs cannot be read, but predicated and partial writes
//! need the old value, and the epilogue post-processes them); shadows start at the value
//! Direct3D 9 gives an unwritten output: `oD0` (1, 1, 1, 1), the other pre-3.0 varyings
//! (0, 0, 0, 1), `oFog` 0, everything else 0. Every varying is a `vec4<f32>`: the pre-3.0
//! `oFog` is written as `(oFog, 0, 0, 0)`.

use dxspv_ir::frontend::{FrontendBuilder, NamePart};
use dxspv_ir::{BuiltIn, InterpolationModes, Op, OpCode, Operand, ScalarType, SsaDef, Type};

use super::prescan::IoDcl;
use super::{l, r, string_op, Converter, Tmp, R};
use crate::decode::Usage;
use crate::options::DynamicState;
use crate::register::{misctype, rastout, Register, RegisterType};
use crate::version::Version;

/// Output shadow slots: `oPos`, `oFog`, `oPts`, `oD0-1`, `oT0-7` before `vs_3_0`;
/// `o0`-`o15` in `vs_3_0`; `oC0-3`, `oDepth` in pixel shaders.
pub(crate) const OUT_SLOTS: usize = 16;

/// Pre-3.0 vertex shader slots.
const SLOT_POS: u32 = 0;
const SLOT_FOG: u32 = 1;
const SLOT_PTS: u32 = 2;
const SLOT_D0: u32 = 3;
const SLOT_T0: u32 = 5;
/// Pixel shader depth slot.
const SLOT_DEPTH: u32 = 4;

/// Location of the fog varying.
pub(crate) const FOG_LOCATION: u32 = 12;
/// Location of the point size varying.
const PSIZE_LOCATION: u32 = 21;
/// Varying locations.
const LOCATIONS: usize = 30;

/// The shadow slot of output register `ty`/`index` in a shader of `v`.
pub(crate) fn out_slot(v: Version, ty: RegisterType, index: u32) -> Option<u32> {
    use RegisterType as T;
    let (base, count) = match ty {
        T::RastOut => (SLOT_POS, 3),
        T::AttrOut => (SLOT_D0, 2),
        T::TexCrdOut => (SLOT_T0, 8),
        T::Output if v.is_vertex() => (0, 16),
        T::ColorOut if v.is_pixel() => (0, 4),
        T::DepthOut if v.is_pixel() => (SLOT_DEPTH, 1),
        _ => return None,
    };
    (index < count).then_some(base + index)
}

/// The varying location of (usage, index), or `None` for pairs the contract does not place.
pub fn varying_location(usage: Usage, index: u8) -> Option<u32> {
    let i = u32::from(index);
    Some(match (usage, i) {
        (Usage::TexCoord, 0..=9) => i,
        (Usage::Color, 0..=1) => 10 + i,
        (Usage::Fog, 0) => FOG_LOCATION,
        (Usage::Normal, 0..=1) => 13 + i,
        (Usage::Tangent, 0) => 15,
        (Usage::Binormal, 0) => 16,
        (Usage::BlendWeight, 0) => 17,
        (Usage::BlendIndices, 0) => 18,
        (Usage::Position, 1..=2) => 18 + i,
        (Usage::PointSize, 0) => PSIZE_LOCATION,
        (Usage::Depth, 0) => 22,
        (Usage::Sample, 0) => 23,
        (Usage::TexCoord, 10..=15) => 14 + i,
        _ => return None,
    })
}

/// The semantic name reflection reports for a usage.
pub fn semantic_name(usage: Usage) -> &'static str {
    match usage {
        Usage::Position => "POSITION",
        Usage::BlendWeight => "BLENDWEIGHT",
        Usage::BlendIndices => "BLENDINDICES",
        Usage::Normal => "NORMAL",
        Usage::PointSize => "PSIZE",
        Usage::TexCoord => "TEXCOORD",
        Usage::Tangent => "TANGENT",
        Usage::Binormal => "BINORMAL",
        Usage::TessFactor => "TESSFACTOR",
        Usage::PositionT => "POSITIONT",
        Usage::Color => "COLOR",
        Usage::Fog => "FOG",
        Usage::Depth => "DEPTH",
        Usage::Sample => "SAMPLE",
    }
}

/// `x` clamped to [0, 1] as `NClamp` does it (NaN gives 0).
fn saturate(x: f32) -> f32 {
    if x >= 1.0 {
        1.0
    } else if x > 0.0 {
        x
    } else {
        0.0
    }
}

/// A varying output being assembled: its declaration, its components, usage and index.
type LocationOut = (SsaDef, [Option<SsaDef>; 4], Usage, u8);

/// What the converter keeps about I/O.
#[derive(Debug)]
pub(crate) struct Io {
    /// Output shadow temporaries, per slot and component.
    shadows: [[Option<Tmp>; 4]; OUT_SLOTS],
    /// Varying input declarations per location (pixel shaders), vertex inputs per register.
    inputs: [Option<SsaDef>; LOCATIONS],
    /// Inputs read so far: the declaration, its `vec4` loaded at the entry of `main`, and
    /// the components extracted from it there.
    loads: smallvec::SmallVec<[super::EntryVec4<SsaDef>; 8]>,
    /// `FragCoord` and `FrontFacing`.
    frag_coord: Option<SsaDef>,
    front_face: Option<SsaDef>,
}

impl Default for Io {
    #[inline]
    fn default() -> Self {
        Io {
            shadows: [[None; 4]; OUT_SLOTS],
            inputs: [None; LOCATIONS],
            loads: smallvec::SmallVec::new(),
            frag_coord: None,
            front_face: None,
        }
    }
}

impl Converter<'_, '_> {
    // -------------------------------------------------------------------------------------
    // Inputs
    // -------------------------------------------------------------------------------------

    /// The `dcl` of register `reg` of file `ty` covering component `c`, if any.
    fn dcl_of(&self, ty: RegisterType, reg: u32, c: u8) -> Option<IoDcl> {
        self.pre.dcl_of(ty, reg, c)
    }

    /// Declares (once) the varying input at `loc`, a `vec4<f32>`.
    fn varying_input(&mut self, loc: u32, usage: Usage, index: u8, centroid: bool) -> R<SsaDef> {
        if let Some(Some(d)) = self.io.inputs.get(loc as usize) {
            return Ok(*d);
        }
        let mut modes = InterpolationModes::empty();
        if self.version.is_pixel() {
            if centroid {
                modes |= InterpolationModes::Centroid;
            }
            if usage == Usage::Color && self.opts.flat_shading {
                modes = InterpolationModes::Flat;
            }
        }
        let ep = self.ep;
        let d = self.decl(
            Op::new(OpCode::DclInput, Type::vector(ScalarType::F32, 4))
                .with_ref(ep)
                .with_lit(u64::from(loc))
                .with_lit(0)
                .with_lit(modes.to_literal()),
        );
        self.semantic(d, usage, index);
        if let Some(slot) = self.io.inputs.get_mut(loc as usize) {
            *slot = Some(d);
        }
        Ok(d)
    }

    /// A `Semantic` for a declaration.
    fn semantic(&mut self, d: SsaDef, usage: Usage, index: u8) {
        self.decl(string_op(
            OpCode::Semantic,
            &[r(d), l(u64::from(index))],
            semantic_name(usage),
        ));
    }

    /// Removes the components extracted at the entry (and from samples) that nothing uses
    /// (an input, constant row or sample passed on whole, `mov oT0, v0`, had each component
    /// extracted), and a loaded (or clamped) vector nothing uses at all.
    pub(crate) fn remove_unused_entry_values(&mut self) {
        let b = &mut self.b;
        for x in &self.spare_extracts {
            if !b.has_uses(*x) {
                b.remove(*x);
            }
        }
        let rows = self.consts.entry_rows();
        let loads = self.io.loads.iter().map(|(_, v, c)| (v, c));
        for (v, comps) in loads.chain(rows.iter().map(|(_, v, c)| (v, c))) {
            for x in comps.iter().flatten() {
                if !b.has_uses(*x) {
                    // A clamped component: the extract under the clamp goes too.
                    let under = b
                        .get(*x)
                        .filter(|op| op.opcode == OpCode::FClamp)
                        .and_then(|op| op.arg(0));
                    b.remove(*x);
                    if let Some(u) = under.filter(|u| !b.has_uses(*u)) {
                        b.remove(u);
                    }
                }
            }
            if !b.has_uses(*v) {
                // A clamped row: the load under the clamp goes too.
                let under = b
                    .get(*v)
                    .filter(|op| op.opcode == OpCode::FClamp)
                    .and_then(|op| op.arg(0));
                b.remove(*v);
                if let Some(u) = under.filter(|u| !b.has_uses(*u)) {
                    b.remove(u);
                }
            }
        }
    }

    /// Component `c` of an input declaration (a `vec4<f32>`): the input is loaded whole, once,
    /// at the entry of `main`, and each component extracted there once.
    fn input_load(&mut self, d: SsaDef, c: u8) -> SsaDef {
        let c = usize::from(c & 3);
        let at = match self.io.loads.iter().position(|(x, ..)| *x == d) {
            Some(i) => i,
            None => {
                let v = self.entry(
                    Op::new(OpCode::InputLoad, Type::vector(ScalarType::F32, 4))
                        .with_ref(d)
                        .with_opt_ref(None),
                );
                self.io.loads.push((d, v, [None; 4]));
                self.io.loads.len() - 1
            }
        };
        let (_, v, comps) = self.io.loads[at];
        if let Some(x) = comps[c] {
            return x;
        }
        let idx = self.c_u32(c as u32);
        let x = self.entry(Op::with_operands(
            OpCode::CompositeExtract,
            ScalarType::F32,
            [r(v), r(idx)],
        ));
        self.io.loads[at].2[c] = Some(x);
        x
    }

    /// The declaration and component of input register `v{reg}` component `c`, `None`
    /// for a `ps_3_0` input nothing feeds.
    fn input_decl(&mut self, reg: u32, c: u8) -> R<Option<(SsaDef, u8)>> {
        let v = self.version;
        if v.is_vertex() {
            // Vertex inputs: location = register number, whatever the usage.
            if let Some(Some(d)) = self.io.inputs.get(reg as usize) {
                return Ok(Some((*d, c)));
            }
            if reg as usize >= 16 {
                return Err(self.invalid(format!("v{reg} is out of range")));
            }
            let ep = self.ep;
            let d = self.decl(
                Op::new(OpCode::DclInput, Type::vector(ScalarType::F32, 4))
                    .with_ref(ep)
                    .with_lit(u64::from(reg))
                    .with_lit(0)
                    .with_lit(0),
            );
            match super::INPUT_NAMES.get(reg as usize) {
                Some(n) => self.name(d, n),
                None => self.name_parts(d, &[NamePart::S("v"), NamePart::N(u64::from(reg))]),
            }
            if let Some(dcl) = self.dcl_of(crate::RegisterType::Input, reg, c) {
                self.semantic(d, dcl.usage, dcl.index);
            }
            self.io.inputs[reg as usize] = Some(d);
            return Ok(Some((d, c)));
        }
        if v.major < 3 {
            // v0/v1: the two colours.
            if reg > 1 {
                return Err(self.invalid(format!("v{reg} is out of range")));
            }
            let centroid = self
                .dcl_of(RegisterType::Input, reg, c)
                .is_some_and(|d| d.centroid);
            let d = self.varying_input(10 + reg, Usage::Color, reg as u8, centroid)?;
            return Ok(Some((d, c)));
        }
        // ps_3_0: by the usage the register is declared with, component by component.
        // A component no dcl covers, or a usage no vertex shader output can have
        // (POSITION0, TESSFACTOR, POSITIONT), reads 0: Direct3D 9 creates such a shader
        // and refuses to draw with it.
        let Some(dcl) = self.dcl_of(RegisterType::Input, reg, c) else {
            return Ok(None);
        };
        let Some(loc) = varying_location(dcl.usage, dcl.index) else {
            return Ok(None);
        };
        let d = self.varying_input(loc, dcl.usage, dcl.index, dcl.centroid)?;
        Ok(Some((d, c)))
    }

    /// Component `c` of input `v{index}` (or `v[index + rel]`).
    pub(crate) fn input(
        &mut self,
        index: u32,
        rel: Option<&crate::RelativeAddress>,
        c: u8,
    ) -> R<SsaDef> {
        let Some(rel) = rel else {
            return Ok(match self.input_decl(index, c)? {
                Some((d, c)) => self.input_load(d, c),
                None => self.c_f32(0.0),
            });
        };
        // v[index + rel]: a select over the declared input registers from `index` on.
        let r = self.relative_value(rel)?;
        let regs: smallvec::SmallVec<[u32; 16]> =
            self.pre.declared_from(RegisterType::Input, index).collect();
        let mut v = self.c_f32(0.0);
        for reg in regs {
            let Some((d, cc)) = self.input_decl(reg, c)? else {
                continue;
            };
            let x = self.input_load(d, cc);
            let k = self.c_i32((reg - index) as i32);
            let hit = self.op2(OpCode::IEq, ScalarType::Bool, r, k);
            v = self.select_f(hit, x, v);
        }
        Ok(v)
    }

    /// The fog varying input (location 12).
    pub(crate) fn fog_varying(&mut self) -> R<SsaDef> {
        self.varying_input(FOG_LOCATION, Usage::Fog, 0, false)
    }

    /// Component `c` of texture coordinate set `n` (`t#` of `ps_1_4` and `ps_2_x`).
    pub(crate) fn texcoord(&mut self, n: u32, c: u8) -> R<SsaDef> {
        let centroid = self
            .dcl_of(RegisterType::Texture, n, c)
            .is_some_and(|d| d.centroid);
        if n > 9 {
            return Err(self.invalid(format!("t{n} is out of range")));
        }
        let d = self.varying_input(n, Usage::TexCoord, n as u8, centroid)?;
        Ok(self.input_load(d, c))
    }

    /// Component `c` of texture coordinate set `n`, loaded at the entry of `main`.
    pub(crate) fn entry_texcoord(&mut self, n: u32, c: u8) -> R<SsaDef> {
        if n > 9 {
            return Err(self.invalid(format!("t{n} is out of range")));
        }
        let d = self.varying_input(n, Usage::TexCoord, n as u8, false)?;
        Ok(self.input_load(d, c))
    }

    /// The `FragCoord` built-in (pixel shaders).
    pub(crate) fn frag_coord(&mut self) -> SsaDef {
        if let Some(d) = self.io.frag_coord {
            return d;
        }
        let d = self.builtin_input(BuiltIn::Position, Type::vector(ScalarType::F32, 4));
        self.semantic_str(d, "SV_POSITION");
        self.io.frag_coord = Some(d);
        d
    }

    fn builtin_input(&mut self, b: BuiltIn, ty: Type) -> SsaDef {
        let ep = self.ep;
        let d = self.decl(
            Op::new(OpCode::DclInputBuiltIn, ty)
                .with_ref(ep)
                .with_lit(b.to_literal())
                .with_lit(InterpolationModes::empty().to_literal()),
        );
        self.name(d, b.name());
        d
    }

    fn semantic_str(&mut self, d: SsaDef, name: &str) {
        self.decl(string_op(OpCode::Semantic, &[r(d), l(0)], name));
    }

    /// Component `c` of `FragCoord`.
    pub(crate) fn frag_coord_comp(&mut self, c: u8) -> SsaDef {
        let d = self.frag_coord();
        let a = self.c_u32(u32::from(c & 3));
        self.code(
            Op::new(OpCode::InputLoad, ScalarType::F32)
                .with_ref(d)
                .with_ref(a),
        )
    }

    /// `vPos` (`FragCoord.xy - 0.5`: Direct3D 9 pixel centres are integers) and `vFace`
    /// (+1 front, -1 back).
    pub(crate) fn misc_input(&mut self, index: u32, c: u8) -> R<SsaDef> {
        match index {
            misctype::POSITION => {
                let v = self.frag_coord_comp(c);
                if c < 2 {
                    let h = self.c_f32(0.5);
                    Ok(self.op2(OpCode::FSub, ScalarType::F32, v, h))
                } else {
                    Ok(v)
                }
            }
            misctype::FACE => {
                let d = match self.io.front_face {
                    Some(d) => d,
                    None => {
                        let d = self.builtin_input(BuiltIn::IsFrontFace, ScalarType::Bool.into());
                        self.semantic_str(d, "VFACE");
                        self.io.front_face = Some(d);
                        d
                    }
                };
                let front = self.code(
                    Op::new(OpCode::InputLoad, ScalarType::Bool)
                        .with_ref(d)
                        .with_opt_ref(None),
                );
                let p = self.c_f32(1.0);
                let n = self.c_f32(-1.0);
                Ok(self.select_f(front, p, n))
            }
            _ => Err(self.invalid(format!("misc register {index}"))),
        }
    }

    // -------------------------------------------------------------------------------------
    // Output shadows
    // -------------------------------------------------------------------------------------

    /// The value an output slot holds before the shader writes it.
    fn output_default(&self, slot: u32, c: u8) -> f32 {
        let v = self.version;
        if v.is_vertex() && v.major < 3 {
            match slot {
                SLOT_POS | SLOT_FOG | SLOT_PTS => 0.0,
                s if s == SLOT_D0 => 1.0,
                _ => {
                    if c == 3 {
                        1.0
                    } else {
                        0.0
                    }
                }
            }
        } else {
            0.0
        }
    }

    /// The shadow temporary of component `c` of output register `ty`/`index`. With
    /// `overwrite` (the caller writes it before anything can read it), a shadow made here
    /// starts without a value: its default would never be read.
    pub(crate) fn output_shadow(
        &mut self,
        ty: RegisterType,
        index: u32,
        c: u8,
        overwrite: bool,
    ) -> R<Tmp> {
        let Some(slot) = out_slot(self.version, ty, index) else {
            return Err(self.invalid(format!(
                "{} is not an output of this shader",
                Register::new(ty, index)
            )));
        };
        if overwrite {
            if let Some(s) = self.io.shadows.get_mut(slot as usize) {
                if s[c as usize & 3].is_none() {
                    let t = self.tmp(ScalarType::F32);
                    self.io.shadows[slot as usize][c as usize & 3] = Some(t);
                    return Ok(t);
                }
            }
        }
        self.slot_shadow(slot, c)
    }

    fn slot_shadow(&mut self, slot: u32, c: u8) -> R<Tmp> {
        if let Some(Some(t)) = self
            .io
            .shadows
            .get(slot as usize)
            .map(|s| s[c as usize & 3])
        {
            return Ok(t);
        }
        let init = self.output_default(slot, c);
        let init = if self.version.is_pixel() && slot == SLOT_DEPTH {
            // An oDepth the shader leaves unwritten keeps the rasterised depth.
            let fc = self.frag_coord();
            let a = self.c_u32(2);
            self.entry(
                Op::new(OpCode::InputLoad, ScalarType::F32)
                    .with_ref(fc)
                    .with_ref(a),
            )
        } else {
            self.c_f32(init)
        };
        let t = self.init_tmp(ScalarType::F32, init);
        if let Some(s) = self.io.shadows.get_mut(slot as usize) {
            s[c as usize & 3] = Some(t);
        }
        Ok(t)
    }

    /// Stores component `l` of output `r` at run-time index `idx` (`o[aL + n]`): every
    /// declared output register from `r` on takes the value if the index names it (an
    /// undeclared one is written nowhere).
    pub(crate) fn store_output_indexed(
        &mut self,
        r: Register,
        idx: SsaDef,
        l: u8,
        v: SsaDef,
    ) -> R<()> {
        let regs: smallvec::SmallVec<[u32; 16]> = self.pre.declared_from(r.ty, r.index).collect();
        for i in regs {
            let Some(slot) = out_slot(self.version, r.ty, i) else {
                continue;
            };
            let t = self.slot_shadow(slot, l)?;
            let old = self.load_tmp(t, ScalarType::F32);
            let k = self.c_i32((i - r.index) as i32);
            let hit = self.op2(OpCode::IEq, ScalarType::Bool, idx, k);
            let nv = self.select_f(hit, v, old);
            self.store_tmp(t, nv);
        }
        Ok(())
    }

    /// The current value of the shadow of `slot` component `c`, or its default if the
    /// shader never wrote it.
    fn shadow_value(&mut self, slot: u32, c: u8) -> SsaDef {
        match self
            .io
            .shadows
            .get(slot as usize)
            .and_then(|s| s[c as usize & 3])
        {
            Some(t) => self.load_tmp(t, ScalarType::F32),
            None => {
                let d = self.output_default(slot, c);
                self.c_f32(d)
            }
        }
    }

    fn slot_written(&self, slot: u32) -> bool {
        self.io
            .shadows
            .get(slot as usize)
            .is_some_and(|s| s.iter().any(Option::is_some))
    }

    // -------------------------------------------------------------------------------------
    // Output declarations
    // -------------------------------------------------------------------------------------

    /// A varying output at `loc` (`vec4<f32>`).
    fn varying_output(&mut self, loc: u32, usage: Usage, index: u8) -> SsaDef {
        let ep = self.ep;
        let d = self.decl(Op::with_operands(
            OpCode::DclOutput,
            Type::vector(ScalarType::F32, 4),
            [r(ep), l(u64::from(loc)), l(0), l(0)],
        ));
        self.semantic(d, usage, index);
        d
    }

    /// A built-in output.
    pub(crate) fn builtin_output(&mut self, b: BuiltIn, ty: Type, semantic: &str) -> SsaDef {
        let ep = self.ep;
        let d = self.decl(
            Op::new(OpCode::DclOutputBuiltIn, ty)
                .with_ref(ep)
                .with_lit(b.to_literal())
                .with_lit(0),
        );
        self.name(d, b.name());
        self.semantic_str(d, semantic);
        d
    }

    /// Stores a whole value into an output declaration.
    pub(crate) fn output_store(&mut self, d: SsaDef, v: SsaDef) {
        self.code(Op::with_operands(
            OpCode::OutputStore,
            Type::VOID,
            [r(d), Operand::from_opt_def(None), r(v)],
        ));
    }

    /// A `vec4<f32>` of four components (see [`Converter::f32_vector`]).
    fn vec4(&mut self, v: [SsaDef; 4]) -> SsaDef {
        self.f32_vector(&v)
    }

    fn slot_vec4(&mut self, slot: u32) -> [SsaDef; 4] {
        let mut out = [self.shadow_value(slot, 0); 4];
        for c in 1..4u8 {
            out[c as usize] = self.shadow_value(slot, c);
        }
        out
    }

    /// `v` (a `vec4<f32>`) clamped to [0, 1]: one vector `FClamp`, or the clamped constant
    /// (NaN gives 0, as `NClamp` does).
    fn saturate_vec4(&mut self, v: SsaDef) -> SsaDef {
        let ty = Type::vector(ScalarType::F32, 4);
        if let Some(op) = self.b.get(v).filter(|op| op.opcode == OpCode::Constant) {
            let mut lits = [0u64; 4];
            for (i, l) in lits.iter_mut().enumerate() {
                let x = f32::from_bits(op.lit(i).unwrap_or(0) as u32);
                *l = u64::from(saturate(x).to_bits());
            }
            return self.vec4_constant(lits);
        }
        let zero = self.vec4_constant([0; 4]);
        let one = u64::from(1.0f32.to_bits());
        let one = self.vec4_constant([one; 4]);
        self.op3(OpCode::FClamp, ty, v, zero, one)
    }

    /// The vertex shader's outputs: the position (and what the state derives from it),
    /// the point size, and the varyings.
    pub(crate) fn vertex_epilogue(&mut self) -> R<()> {
        let v = self.version;
        let mut pos = None;
        let mut psize = None;
        if v.major < 3 {
            // An unwritten oPos is the zero vector below (no scalar constants made for it).
            if self.slot_written(SLOT_POS) {
                pos = Some(self.slot_vec4(SLOT_POS));
            }
            if self.slot_written(SLOT_PTS) {
                psize = Some(self.shadow_value(SLOT_PTS, 0));
            }
            // Every pre-3.0 varying is written, its default where the shader did not (two
            // constants: (1, 1, 1, 1) for oD0, (0, 0, 0, 1) for the others).
            let mut defaults: [Option<SsaDef>; 2] = [None; 2];
            for (slot, usage, index) in (0..2)
                .map(|i| (SLOT_D0 + i, Usage::Color, i as u8))
                .chain((0..8).map(|i| (SLOT_T0 + i, Usage::TexCoord, i as u8)))
            {
                let val = if self.slot_written(slot) {
                    let mut vals = self.slot_vec4(slot);
                    if usage == Usage::Color && vals.iter().all(|&x| x == vals[0]) {
                        // One value in every component (a scalar instruction's result):
                        // clamp it once.
                        let clamped = match self.known(vals[0]) {
                            // A constant (a `def`'d colour): clamped here, as `NClamp`
                            // would (NaN gives 0).
                            Some(x) => self.c_f32(saturate(x)),
                            None => {
                                let zero = self.c_f32(0.0);
                                let one = self.c_f32(1.0);
                                self.op3(OpCode::FClamp, ScalarType::F32, vals[0], zero, one)
                            }
                        };
                        vals = [clamped; 4];
                        self.vec4(vals)
                    } else if usage == Usage::Color {
                        let v = self.vec4(vals);
                        self.saturate_vec4(v)
                    } else {
                        self.vec4(vals)
                    }
                } else {
                    let k = usize::from(slot != SLOT_D0);
                    match defaults[k] {
                        Some(d) => d,
                        None => {
                            let mut lits = [0u64; 4];
                            for (c, l) in lits.iter_mut().enumerate() {
                                *l = u64::from(self.output_default(slot, c as u8).to_bits());
                            }
                            let d = self.vec4_constant(lits);
                            defaults[k] = Some(d);
                            d
                        }
                    }
                };
                let loc = varying_location(usage, index).unwrap_or(0);
                let d = self.varying_output(loc, usage, index);
                self.output_store(d, val);
            }
            // oFog: (fog, 0, 0, 0).
            let fog = if self.slot_written(SLOT_FOG) {
                let f = self.shadow_value(SLOT_FOG, 0);
                let zero = self.c_f32(0.0);
                self.vec4([f, zero, zero, zero])
            } else {
                self.vec4_constant([0; 4])
            };
            let d = self.varying_output(FOG_LOCATION, Usage::Fog, 0);
            self.output_store(d, fog);
        } else {
            // vs_3_0: each declared output register's components go to the location of
            // their usage.
            let dcls: smallvec::SmallVec<[IoDcl; 16]> = self
                .pre
                .dcls
                .iter()
                .filter(|d| d.ty == RegisterType::Output)
                .copied()
                .collect();
            let mut locs: [Option<LocationOut>; LOCATIONS] = [None; LOCATIONS];
            for d in dcls {
                let mask = if d.mask == 0 { 0xF } else { d.mask };
                match (d.usage, d.index) {
                    (Usage::Position, 0) => {
                        pos = Some(self.slot_vec4(d.reg));
                        continue;
                    }
                    (Usage::PointSize, 0) => {
                        let c = mask.trailing_zeros() as u8;
                        psize = Some(self.shadow_value(d.reg, c));
                    }
                    _ => {}
                }
                let Some(loc) = varying_location(d.usage, d.index) else {
                    return Err(self.invalid(format!(
                        "output usage {}{} has no varying location",
                        semantic_name(d.usage),
                        d.index
                    )));
                };
                let entry = match locs.get_mut(loc as usize) {
                    Some(Some(e)) => e.0,
                    _ => self.varying_output(loc, d.usage, d.index),
                };
                let mut comps = locs
                    .get(loc as usize)
                    .and_then(|e| e.map(|e| e.1))
                    .unwrap_or([None; 4]);
                for c in 0..4u8 {
                    if mask & (1 << c) != 0 {
                        comps[c as usize] = Some(self.shadow_value(d.reg, c));
                    }
                }
                if let Some(slot) = locs.get_mut(loc as usize) {
                    *slot = Some((entry, comps, d.usage, d.index));
                }
            }
            for e in &locs {
                let Some((d, comps, _, _)) = *e else { continue };
                let zero = self.c_f32(0.0);
                let v4 = [
                    comps[0].unwrap_or(zero),
                    comps[1].unwrap_or(zero),
                    comps[2].unwrap_or(zero),
                    comps[3].unwrap_or(zero),
                ];
                let val = self.vec4(v4);
                self.output_store(d, val);
            }
        }
        let d = self.builtin_output(
            BuiltIn::Position,
            Type::vector(ScalarType::F32, 4),
            "POSITION",
        );
        let pv = match pos {
            Some(p) => self.vec4(p),
            None => self.vec4_constant([0; 4]),
        };
        self.output_store(d, pv);
        if self.opts.dynamic_state.contains(DynamicState::CLIP_PLANES) {
            let pos = match pos {
                Some(p) => p,
                None => [self.c_f32(0.0); 4],
            };
            self.clip_planes(pos)?;
        }
        self.point_size(psize)?;
        Ok(())
    }

    /// The pixel shader's outputs: colours (with fog and the alpha test on `oC0`) and
    /// depth.
    pub(crate) fn pixel_epilogue(&mut self) -> R<()> {
        let v = self.version;
        let mut colors: [Option<[SsaDef; 4]>; 4] = [None; 4];
        if v.major == 1 {
            // ps_1_x: the colour is r0.
            let t = self.temp(0, 0)?;
            let mut c = [self.load_tmp(t, ScalarType::F32); 4];
            for (i, x) in c.iter_mut().enumerate().skip(1) {
                let t = self.temp(0, i as u8)?;
                *x = self.load_tmp(t, ScalarType::F32);
            }
            colors[0] = Some(c);
        } else {
            for (i, slot) in colors.iter_mut().enumerate() {
                if self.slot_written(i as u32) {
                    *slot = Some(self.slot_vec4(i as u32));
                }
            }
        }
        if let Some(c0) = colors[0].as_mut() {
            let dynamic = self.opts.dynamic_state;
            if v.major < 3 && dynamic.contains(DynamicState::FOG) {
                self.fog(c0)?;
            }
            if dynamic.contains(DynamicState::ALPHA_TEST) {
                self.alpha_test(c0[3])?;
            }
        }
        for (i, c) in colors.iter().enumerate() {
            let Some(c) = c else { continue };
            let ep = self.ep;
            let d = self.decl(
                Op::new(OpCode::DclOutput, Type::vector(ScalarType::F32, 4))
                    .with_ref(ep)
                    .with_lit(i as u64)
                    .with_lit(0)
                    .with_lit(0),
            );
            match super::COLOR_NAMES.get(i) {
                Some(n) => self.name(d, n),
                None => self.name_parts(d, &[NamePart::S("oC"), NamePart::N(i as u64)]),
            }
            self.decl(string_op(OpCode::Semantic, &[r(d), l(i as u64)], "COLOR"));
            let val = self.vec4(*c);
            self.output_store(d, val);
        }
        if self.slot_written(SLOT_DEPTH) {
            let z = self.shadow_value(SLOT_DEPTH, 0);
            let d = self.builtin_output(BuiltIn::Depth, ScalarType::F32.into(), "DEPTH");
            self.output_store(d, z);
        }
        Ok(())
    }

    /// Writes the depth output (`texdepth`, `texm3x2depth`).
    pub(crate) fn write_depth(&mut self, z: SsaDef) -> R<()> {
        let t = self.slot_shadow(SLOT_DEPTH, 0)?;
        self.store_tmp(t, z);
        Ok(())
    }

    /// Whether `r` is `oPts`.
    #[allow(dead_code)]
    pub(crate) fn is_point_size(r: Register) -> bool {
        r.ty == RegisterType::RastOut && r.index == rastout::POINT_SIZE
    }
}
