//! The first walk over a shader: what the prologue and the declarations need before the
//! code that uses them is converted, and every check that does not depend on conversion.
//!
//! Direct3D 9 shaders define constants (`def`, `defi`, `defb`) and declare registers
//! (`dcl`) anywhere before use, and subroutines share every register with their callers.
//! The converter zero-initialises the registers a shader touches, binds the constant files
//! and samplers it reads, and gives `def`'d registers their literal values, all at the
//! entry of `main`; relative addressing needs the set of `def`'d registers before the
//! first relative read. One walk over every instruction (subroutines included) collects
//! all of that, checks each register against the model's [`Limits`] and each flow-control
//! instruction against the model, and records where each `label` starts.

use smallvec::SmallVec;

use crate::decode::{Declaration, Instruction, Payload, Shader, TextureType, Usage};
use crate::limits::Limits;
use crate::opcode::Opcode;
use crate::operand::{Destination, Source};
use crate::register::{Register, RegisterType};
use crate::version::{Stage, Version};

use super::{ConvertError, R};

/// Most instructions a shader may have (subroutines inlined at each call count again).
pub const MAX_INSTRUCTIONS: u32 = 1 << 16;

/// A `dcl` of an input or output register with a usage (vertex shaders, `ps_3_0` inputs,
/// `vs_3_0` outputs, and `ps_2_x` `t#`/`v#` declarations for their interpolation flags).
#[derive(Clone, Copy, Debug)]
pub(crate) struct IoDcl {
    /// The register file (`Input`, `Output`, `Texture`).
    pub ty: RegisterType,
    /// The register number.
    pub reg: u32,
    /// Usage and usage index.
    pub usage: Usage,
    /// Usage index.
    pub index: u8,
    /// Components declared.
    pub mask: u8,
    /// `_centroid`.
    pub centroid: bool,
}

/// What the first walk found.
#[derive(Debug, Default)]
pub(crate) struct Prescan {
    /// `r#` touched (read or written), bit per register.
    pub temps: u32,
    /// `t#` touched, bit per register.
    pub texregs: u32,
    /// `v#` read.
    pub inputs: u32,
    /// `a0` written or used.
    pub addr: bool,
    /// `p0` written or used.
    pub pred: bool,
    /// Output slots written (see `io::OutSlot`).
    pub outputs: u64,
    /// A float constant the shader does not define is read.
    pub float_used: bool,
    /// One past the highest float constant read with a constant index.
    pub float_end: u32,
    /// A float constant is read with relative addressing.
    pub float_relative: bool,
    /// An integer constant the shader does not define is read.
    pub int_used: bool,
    /// A boolean constant the shader does not define is read.
    pub bool_used: bool,
    /// `def c#` values (raw bits), sorted by register, the last definition of a register
    /// kept.
    pub defs_f: SmallVec<[(u32, [u32; 4]); 8]>,
    /// `defi i#` values.
    pub defs_i: SmallVec<[(u32, [i32; 4]); 2]>,
    /// `defb b#` values.
    pub defs_b: SmallVec<[(u32, bool); 2]>,
    /// Samplers used, bit per sampler.
    pub samplers: u32,
    /// Sampler types from `dcl_2d s#` and friends.
    pub sampler_dcl: [Option<TextureType>; 16],
    /// `dcl`s of inputs and outputs.
    pub dcls: SmallVec<[IoDcl; 8]>,
    /// Per file (`Input`, `Output`, `Texture`), register (0-15) and component: 1 + the
    /// index in `dcls` of the last `dcl` covering it, 0 for none.
    pub dcl_index: [[[u32; 4]; 16]; 3],
    /// Per file, the registers some `dcl` names (bit per register).
    pub declared: [u32; 3],
    /// `vPos` read.
    pub vpos: bool,
    /// `vFace` read.
    pub vface: bool,
    /// `oDepth` (or a depth-writing texture instruction) in the shader.
    pub depth: bool,
    /// Labels: (label number, token offset, instruction index) of each `label`.
    pub labels: Vec<(u32, u32, u32)>,
    /// Which instructions of `main` compute something read later.
    pub liveness: super::liveness::Liveness,
    /// Per `c0`-`c7`, the components some source swizzle names (bit per component): a
    /// `ps_1_x` row read in one component only is clamped as a scalar.
    pub const_lanes: [u8; 8],
}

/// The `dcl_index` slot of a register file.
pub(crate) fn dcl_file(ty: RegisterType) -> Option<usize> {
    match ty {
        RegisterType::Input => Some(0),
        RegisterType::Output => Some(1),
        RegisterType::Texture => Some(2),
        _ => None,
    }
}

impl Prescan {
    /// The `dcl` covering component `c` of register `reg` of file `ty`.
    pub fn dcl_of(&self, ty: RegisterType, reg: u32, c: u8) -> Option<IoDcl> {
        let f = dcl_file(ty)?;
        let i = *self
            .dcl_index
            .get(f)?
            .get(reg as usize)?
            .get(c as usize & 3)?;
        self.dcls.get(i.checked_sub(1)? as usize).copied()
    }

    /// The registers of file `ty` some `dcl` names, from `first` on, in order.
    pub fn declared_from(&self, ty: RegisterType, first: u32) -> impl Iterator<Item = u32> {
        let mask = dcl_file(ty).map_or(0, |f| self.declared[f]);
        (first..16).filter(move |r| mask & (1 << r) != 0)
    }

    /// The `def c#` value of `reg`, if defined.
    pub fn def_f(&self, reg: u32) -> Option<[u32; 4]> {
        self.defs_f
            .binary_search_by_key(&reg, |d| d.0)
            .ok()
            .and_then(|i| self.defs_f.get(i))
            .map(|d| d.1)
    }

    /// The `defi i#` value of `reg`, if defined.
    pub fn def_i(&self, reg: u32) -> Option<[i32; 4]> {
        self.defs_i
            .binary_search_by_key(&reg, |d| d.0)
            .ok()
            .and_then(|i| self.defs_i.get(i))
            .map(|d| d.1)
    }

    /// The `defb b#` value of `reg`, if defined.
    pub fn def_b(&self, reg: u32) -> Option<bool> {
        self.defs_b
            .binary_search_by_key(&reg, |d| d.0)
            .ok()
            .and_then(|i| self.defs_b.get(i))
            .map(|d| d.1)
    }

    /// The token offset and instruction index of `label l#` (the labels are sorted once
    /// the walk ends).
    pub fn label(&self, label: u32) -> Option<(u32, u32)> {
        self.labels
            .binary_search_by_key(&label, |l| l.0)
            .ok()
            .and_then(|i| self.labels.get(i))
            .map(|l| (l.1, l.2))
    }
}

/// Whether flow-control instruction `op` exists in `v`, and if not, the description of
/// what the model lacks. `dynamic` marks the forms that take a run-time condition
/// (`if p0`, `callnz l0, p0`).
pub(crate) fn flow_control_problem(v: Version, op: Opcode, dynamic: bool) -> Option<&'static str> {
    // Static flow control (bool-constant `if`, `call`, `callnz` on a bool, `rep`,
    // `loop`): vs_2_0 and later, ps_2_x and later. Dynamic flow control and predication:
    // vs_2_x, ps_2_x and model 3. `loop` in pixel shaders: ps_3_0 only.
    let two_zero = v.major == 2 && v.minor == 0;
    let static_ok = match v.stage {
        Stage::Vertex => v.major >= 2,
        Stage::Pixel => v.major >= 3 || (v.major == 2 && !two_zero),
    };
    let dynamic_ok = v.major >= 3 || (v.major == 2 && !two_zero);
    match op {
        Opcode::Ret => None,
        Opcode::Loop | Opcode::EndLoop if v.is_pixel() && v.major < 3 => {
            Some("loop (pixel shaders have it from ps_3_0)")
        }
        Opcode::Call
        | Opcode::Label
        | Opcode::Rep
        | Opcode::EndRep
        | Opcode::Loop
        | Opcode::EndLoop
        | Opcode::Else
        | Opcode::EndIf
            if !static_ok =>
        {
            Some("flow control")
        }
        Opcode::If | Opcode::CallNz if !static_ok || (dynamic && !dynamic_ok) => Some(if dynamic {
            "dynamic flow control"
        } else {
            "flow control"
        }),
        Opcode::IfC | Opcode::BreakC | Opcode::Break | Opcode::BreakP | Opcode::SetP
            if !dynamic_ok =>
        {
            Some("dynamic flow control")
        }
        _ => None,
    }
}

/// Matrix instructions read `rows` consecutive registers from their second source.
pub(crate) fn matrix_rows(op: Opcode) -> u32 {
    match op {
        Opcode::M4x4 | Opcode::M3x4 => 4,
        Opcode::M4x3 | Opcode::M3x3 => 3,
        Opcode::M3x2 => 2,
        _ => 1,
    }
}

/// The file name used in limit errors.
fn file_name(ty: RegisterType) -> &'static str {
    use RegisterType as T;
    match ty {
        T::Temp => "temporary registers",
        T::Input => "input registers",
        T::Const => "float constants",
        T::Address => "address registers",
        T::Texture => "texture registers",
        T::RastOut => "rasterizer outputs",
        T::AttrOut => "colour outputs (oD#)",
        T::TexCrdOut => "texture coordinate outputs (oT#)",
        T::Output => "output registers",
        T::ConstInt => "integer constants",
        T::ColorOut => "colour outputs (oC#)",
        T::DepthOut => "depth outputs",
        T::Sampler => "samplers",
        T::ConstBool => "boolean constants",
        T::Loop => "loop counters",
        T::MiscType => "vPos/vFace registers",
        T::Label => "labels",
        T::Predicate => "predicate registers",
    }
}

/// The prescan walk.
/// The instructions of `main` (comments left out) as the prescan decodes them, inline for
/// the short programs most shaders are.
pub(crate) type MainCode<'a> = SmallVec<[Instruction<'a>; 12]>;

pub(crate) struct Walk<'s, 'a> {
    pub shader: &'s Shader<'a>,
    pub limits: Limits,
    pub p: Prescan,
    pub at: super::Site,
}

impl<'a> Walk<'_, 'a> {
    /// An error refusing a register or instruction the model does not have.
    #[cold]
    fn limit(&self, what: String) -> ConvertError {
        ConvertError::Limit {
            at: self.at.at(),
            what,
        }
    }

    #[cold]
    fn invalid(&self, what: String) -> ConvertError {
        ConvertError::Invalid {
            at: self.at.at(),
            what,
        }
    }

    /// Checks that register `r` exists in the model.
    fn check(&self, r: Register) -> R<()> {
        let limit = self.limits.of(r.ty);
        if limit.allows(r.index) {
            return Ok(());
        }
        let v = self.shader.version;
        Err(self.limit(if limit.max == 0 {
            format!("{r}: {v} has no {}", file_name(r.ty))
        } else {
            format!(
                "{r} is past {v}'s limit of {} {}",
                limit.max,
                file_name(r.ty)
            )
        }))
    }

    /// Runs the walk over every instruction.
    pub fn run(&mut self, main_code: &mut MainCode<'a>) -> R<()> {
        let mut it = self.shader.instructions();
        let mut inst = Instruction::default();
        // `main` runs to the first label (or its `ret`, which the conversion stops at).
        let mut in_main = true;
        while let Some(r) = it.next_into(&mut inst) {
            r?;
            if inst.is_comment() {
                continue;
            }
            self.at = super::Site::of(&inst);
            if inst.index >= MAX_INSTRUCTIONS {
                return Err(
                    self.invalid(format!("more than {MAX_INSTRUCTIONS} instructions (limit)"))
                );
            }
            self.instruction(&inst)?;
            self.p.liveness.record(self.shader.version, &inst);
            in_main &= inst.opcode != Opcode::Label;
            if in_main {
                main_code.push(inst.clone());
            }
        }
        self.p.liveness.finish(self.shader.version);
        // The conversion reads `main` as narrowed: write masks cut to the components read.
        for inst in main_code.iter_mut() {
            if let (Some(m), Some(d)) = (self.p.liveness.mask(inst.index), inst.dst.as_mut()) {
                if m != 0 {
                    d.write_mask.0 = m;
                }
            }
        }
        self.p.labels.sort_by_key(|l| l.0);
        if let Some(w) = self.p.labels.windows(2).find(|w| w[0].0 == w[1].0) {
            let (label, offset, index) = w[1];
            self.at = super::Site::new(index, offset, Opcode::Label, 1);
            return Err(self.invalid(format!("label l{label} defined twice")));
        }
        self.p.defs_f.sort_by_key(|d| d.0);
        dedup_last(&mut self.p.defs_f);
        self.p.defs_i.sort_by_key(|d| d.0);
        dedup_last(&mut self.p.defs_i);
        self.p.defs_b.sort_by_key(|d| d.0);
        dedup_last(&mut self.p.defs_b);
        Ok(())
    }

    fn instruction(&mut self, inst: &Instruction<'_>) -> R<()> {
        let v = self.shader.version;
        let dynamic_cond = inst
            .sources()
            .iter()
            .any(|s| s.register.ty == RegisterType::Predicate);
        if inst.opcode.is_flow_control() || inst.opcode == Opcode::SetP {
            if let Some(what) = flow_control_problem(v, inst.opcode, dynamic_cond) {
                return Err(self.limit(format!("{v} has no {what}")));
            }
        }
        if inst.predicate.is_some() {
            if let Some(what) = flow_control_problem(v, Opcode::SetP, true) {
                return Err(self.limit(format!("{v} has no predication ({what})")));
            }
        }
        match (inst.opcode, inst.payload) {
            (Opcode::Def, Payload::Def(vals)) => {
                let r = self.dst_register(inst)?;
                self.expect_file(r, RegisterType::Const)?;
                self.check(r)?;
                self.p.defs_f.push((r.index, vals));
                return Ok(());
            }
            (Opcode::DefI, Payload::DefI(vals)) => {
                let r = self.dst_register(inst)?;
                self.expect_file(r, RegisterType::ConstInt)?;
                self.check(r)?;
                self.p.defs_i.push((r.index, vals));
                return Ok(());
            }
            (Opcode::DefB, Payload::DefB(b)) => {
                let r = self.dst_register(inst)?;
                self.expect_file(r, RegisterType::ConstBool)?;
                self.check(r)?;
                self.p.defs_b.push((r.index, b));
                return Ok(());
            }
            (Opcode::Dcl, Payload::Dcl(d)) => return self.dcl(inst, d),
            (Opcode::Label, _) => {
                let Some(s) = inst.src(0) else {
                    return Err(self.invalid("label without a label register".into()));
                };
                self.check(s.register)?;
                if self.p.label(s.register.index).is_some() {
                    return Err(self.invalid(format!("label l{} defined twice", s.register.index)));
                }
                self.p
                    .labels
                    .push((s.register.index, inst.offset, inst.index));
                return Ok(());
            }
            _ => {}
        }
        if let Some(d) = &inst.dst {
            self.destination(inst, d)?;
        }
        if let Some(p) = &inst.predicate {
            self.check(p.register)?;
            self.p.pred = true;
        }
        let rows = matrix_rows(inst.opcode);
        for (i, s) in inst.sources().iter().enumerate() {
            let rows = if i == 1 { rows } else { 1 };
            self.source(inst, s, rows)?;
        }
        self.texture_stage_use(inst);
        Ok(())
    }

    fn dst_register(&self, inst: &Instruction<'_>) -> R<Register> {
        inst.dst
            .map(|d| d.register)
            .ok_or_else(|| self.invalid("missing destination".into()))
    }

    fn expect_file(&self, r: Register, ty: RegisterType) -> R<()> {
        if r.ty == ty {
            Ok(())
        } else {
            Err(self.invalid(format!("{r} is not a register this instruction defines")))
        }
    }

    fn dcl(&mut self, inst: &Instruction<'_>, d: Declaration) -> R<()> {
        let r = self.dst_register(inst)?;
        self.check(r)?;
        let dst = inst.dst.unwrap_or_default();
        match d {
            Declaration::Sampler(t) => {
                if r.ty != RegisterType::Sampler {
                    return Err(self.invalid(format!("sampler declaration of {r}")));
                }
                if let Some(slot) = self.p.sampler_dcl.get_mut(r.index as usize) {
                    *slot = Some(t);
                }
            }
            Declaration::Semantic { usage, index } => {
                use RegisterType as T;
                match r.ty {
                    T::Input | T::Output | T::Texture => {
                        let mask = dst.write_mask.0 & 0xF;
                        self.p.dcls.push(IoDcl {
                            ty: r.ty,
                            reg: r.index,
                            usage,
                            index,
                            mask,
                            centroid: dst.centroid,
                        });
                        let n = self.p.dcls.len() as u32;
                        if let (Some(f), true) = (dcl_file(r.ty), r.index < 16) {
                            self.p.declared[f] |= 1 << r.index;
                            let comps = &mut self.p.dcl_index[f][r.index as usize];
                            for (c, slot) in comps.iter_mut().enumerate() {
                                if mask == 0 || mask & (1 << c) != 0 {
                                    *slot = n;
                                }
                            }
                        }
                    }
                    // `dcl vPos.xy`, `dcl vFace`, `dcl_*` of registers without a semantic
                    // (fxc writes none): nothing to record.
                    T::MiscType => {}
                    _ => return Err(self.invalid(format!("declaration of {r}"))),
                }
            }
        }
        Ok(())
    }

    fn destination(&mut self, inst: &Instruction<'_>, d: &Destination) -> R<()> {
        use RegisterType as T;
        let r = d.register;
        self.check(r)?;
        if let Some(rel) = &d.relative {
            self.check(rel.register)?;
            if rel.register.ty == T::Address {
                self.p.addr = true;
            }
        }
        match r.ty {
            T::Temp => self.p.temps |= bit(r.index),
            T::Texture => self.p.texregs |= bit(r.index),
            T::Address => self.p.addr = true,
            T::Predicate => self.p.pred = true,
            T::RastOut | T::AttrOut | T::TexCrdOut | T::Output | T::ColorOut | T::DepthOut => {
                if d.relative.is_some() {
                    // o[aL + n]: any output from n on may be written.
                    let mut i = r.index;
                    while let Some(slot) = super::io::out_slot(self.shader.version, r.ty, i) {
                        self.p.outputs |= 1 << slot;
                        i += 1;
                    }
                } else if let Some(slot) = super::io::out_slot(self.shader.version, r.ty, r.index) {
                    self.p.outputs |= 1 << slot;
                }
                if r.ty == T::DepthOut {
                    self.p.depth = true;
                }
            }
            // `texkill` names the register it tests as its destination.
            T::Input | T::Const | T::MiscType if inst.opcode == Opcode::TexKill => {
                self.source_register(inst, r, d.relative.is_some(), 1)?;
            }
            _ => {
                return Err(self.invalid(format!("{r} cannot be written")));
            }
        }
        if matches!(inst.opcode, Opcode::TexM3x2Depth | Opcode::TexDepth) {
            self.p.depth = true;
        }
        Ok(())
    }

    fn source(&mut self, inst: &Instruction<'_>, s: &Source, rows: u32) -> R<()> {
        if let Some(rel) = &s.relative {
            self.check(rel.register)?;
            if rel.register.ty == RegisterType::Address {
                self.p.addr = true;
            }
        }
        if s.register.ty == RegisterType::Const && s.relative.is_none() {
            // Per-component instructions read the lanes they write; others may read all.
            let mask = match inst.dst {
                Some(d) if super::liveness::per_lane(inst.opcode) => d.write_mask.0 & 0xF,
                _ => 0xF,
            };
            if let Some(lanes) = self.p.const_lanes.get_mut(s.register.index as usize) {
                for l in (0..4).filter(|l| mask & (1 << l) != 0) {
                    *lanes |= 1 << s.swizzle.lane(l);
                }
            }
        }
        self.source_register(inst, s.register, s.relative.is_some(), rows)
    }

    fn source_register(
        &mut self,
        inst: &Instruction<'_>,
        r: Register,
        relative: bool,
        rows: u32,
    ) -> R<()> {
        use RegisterType as T;
        for row in 0..rows {
            let r = Register::new(
                r.ty,
                r.index
                    .checked_add(row)
                    .ok_or_else(|| self.invalid("register index overflows".into()))?,
            );
            if !relative || row == 0 {
                self.check(r)?;
            }
            match r.ty {
                T::Temp => self.p.temps |= bit(r.index),
                T::Texture => self.p.texregs |= bit(r.index),
                T::Input => self.p.inputs |= bit(r.index),
                T::Const => {
                    if relative {
                        self.p.float_relative = true;
                        self.p.float_used = true;
                    } else {
                        self.p.float_end = self.p.float_end.max(r.index + 1);
                        self.p.float_used = true;
                    }
                }
                T::ConstInt => self.p.int_used = true,
                T::ConstBool => self.p.bool_used = true,
                T::Sampler => self.p.samplers |= bit(r.index),
                T::Predicate => self.p.pred = true,
                T::Address => self.p.addr = true,
                T::MiscType => {
                    if r.index == crate::register::misctype::POSITION {
                        self.p.vpos = true;
                    } else {
                        self.p.vface = true;
                    }
                }
                T::Loop | T::Label => {}
                _ => {
                    return Err(
                        self.invalid(format!("{r} cannot be read by {}", inst.opcode.name()))
                    )
                }
            }
        }
        Ok(())
    }

    /// `ps_1_x` texture instructions sample the stage of their destination register.
    fn texture_stage_use(&mut self, inst: &Instruction<'_>) {
        let v = self.shader.version;
        if !(v.is_pixel() && v.major == 1) {
            return;
        }
        use Opcode as O;
        let samples = matches!(
            inst.opcode,
            O::Tex
                | O::TexBem
                | O::TexBemL
                | O::TexReg2Ar
                | O::TexReg2Gb
                | O::TexReg2Rgb
                | O::TexM3x2Tex
                | O::TexM3x3Tex
                | O::TexM3x3Spec
                | O::TexM3x3VSpec
                | O::TexDp3Tex
        );
        if samples {
            if let Some(d) = &inst.dst {
                self.p.samplers |= bit(d.register.index);
            }
        }
    }
}

/// Bit `i` of a `u32` mask (0 past bit 31).
pub(crate) fn bit(i: u32) -> u32 {
    1u32.checked_shl(i).unwrap_or(0)
}

/// Keeps the last entry of each run of equal keys of a list sorted by key (a stable sort
/// keeps definitions in program order, so the last is the one Direct3D 9 keeps).
fn dedup_last<T: Copy, A: smallvec::Array<Item = (u32, T)>>(v: &mut SmallVec<A>) {
    let mut out = 0;
    for i in 0..v.len() {
        let next_same = v.get(i + 1).is_some_and(|n| n.0 == v[i].0);
        if !next_same {
            v[out] = v[i];
            out += 1;
        }
    }
    v.truncate(out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dedup_keeps_the_last_definition() {
        let mut v: SmallVec<[(u32, char); 2]> = SmallVec::from_vec(vec![
            (1, 'a'),
            (1, 'b'),
            (2, 'c'),
            (3, 'd'),
            (3, 'e'),
            (3, 'f'),
        ]);
        dedup_last(&mut v);
        assert_eq!(v.as_slice(), &[(1, 'b'), (2, 'c'), (3, 'f')]);
    }

    #[test]
    fn flow_control_by_model() {
        let vs = Version::vs;
        let ps = Version::ps;
        assert!(flow_control_problem(vs(1, 1), Opcode::Rep, false).is_some());
        assert!(flow_control_problem(vs(2, 0), Opcode::Rep, false).is_none());
        assert!(flow_control_problem(vs(2, 0), Opcode::IfC, false).is_some());
        assert!(flow_control_problem(vs(2, 0), Opcode::If, true).is_some());
        assert!(flow_control_problem(vs(2, 1), Opcode::IfC, false).is_none());
        assert!(flow_control_problem(ps(2, 0), Opcode::Rep, false).is_some());
        assert!(flow_control_problem(ps(2, 0), Opcode::If, false).is_some());
        assert!(flow_control_problem(ps(2, 1), Opcode::Rep, false).is_none());
        assert!(flow_control_problem(ps(2, 1), Opcode::Loop, false).is_some());
        assert!(flow_control_problem(ps(3, 0), Opcode::Loop, false).is_none());
        assert!(flow_control_problem(ps(1, 4), Opcode::Ret, false).is_none());
        assert!(flow_control_problem(vs(3, 0xFF), Opcode::BreakP, false).is_none());
    }
}
