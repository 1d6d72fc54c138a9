//! Dead-code removal before conversion: which components of each instruction's destination
//! the rest of `main` reads.
//!
//! Many Direct3D 9 shaders (hand-written ones, test shaders) compute values nothing reads:
//! `mov r0, c6` with `r0` never read again, `texdp3 t1, t0` in a `ps_1_3` shader whose
//! colour does not depend on `t1`. Converting such an instruction costs IR ops the passes
//! must remove again, and its reads declare constant buffers, inputs and samplers that the
//! module then carries unused. So the prescan records what each instruction reads and
//! writes, and one backward walk over straight-line code computes, per instruction, the
//! components of its destination register that are read later: none (the instruction is
//! skipped), or, for an instruction computing each component on its own (`mov`, `add`,
//! `mad` …), fewer than its write mask (its mask is narrowed, so no op is emitted for a
//! component nothing reads).
//!
//! Only the temporaries (`r#`, and the `ps_1_1`-`ps_1_3` texture registers `t#`) are
//! tracked. Everything else an instruction does is a root that is always converted:
//! writing an output, `a0`, `p0`, the depth, `texkill`, the `texm3x*` and `texbem`
//! families (which keep state between instructions). A root reads all four components of
//! every register it names (and of the three after it, for matrix instructions), and
//! overwrites nothing as far as the analysis knows, so no earlier write is found dead
//! because of it. At the end of `main` nothing is read but the outputs (and `r0`, the colour
//! of `ps_1_x`).
//!
//! The analysis is off (every instruction converted as written) for shaders with flow
//! control, subroutines or co-issued instructions, where one backward walk does not give
//! the order in which registers are read.

use smallvec::SmallVec;

use crate::decode::Instruction;
use crate::opcode::Opcode;
use crate::operand::SourceModifier;
use crate::register::RegisterType;
use crate::version::Version;

/// The tracked registers: `r0`-`r31` at 0-31, `ps_1_1`-`ps_1_3` `t0`-`t7` at 32-39.
const SLOTS: usize = 40;
/// First slot of the texture registers.
const TEX_BASE: u8 = 32;
/// Not a tracked register.
const NONE: u8 = u8::MAX;

/// What the backward walk does with an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Always converted; reads every component of the registers it names.
    Root,
    /// Only writes its destination: skipped when nothing reads it; reads every component
    /// of the registers it names.
    Pure,
    /// Only writes its destination, lane `l` from lane `l` of each source (through the
    /// source swizzle): its write mask shrinks to the components read later.
    PerLane,
}

/// One source register read: its slot, swizzle, and whether it (and the three registers
/// after it) are read whole.
#[derive(Clone, Copy, Debug)]
struct Read {
    slot: u8,
    swizzle: u8,
    whole: bool,
}

const NO_READ: Read = Read {
    slot: NONE,
    swizzle: 0,
    whole: false,
};

/// What one instruction reads and writes.
#[derive(Clone, Copy, Debug)]
struct Effect {
    index: u32,
    kind: Kind,
    /// Destination slot ([`NONE`] for roots).
    dst: u8,
    /// Destination write mask.
    mask: u8,
    /// The write replaces the destination components (not predicated).
    kills: bool,
    reads: [Read; 5],
}

/// The recorded effects of `main` and, once [`Liveness::finish`] ran, the result.
#[derive(Debug, Default)]
pub(crate) struct Liveness {
    /// Inline for the short programs most shaders are: no allocation per compile.
    effects: SmallVec<[Effect; 16]>,
    /// The analysis does not apply (flow control, co-issue).
    off: bool,
    /// `main` ended (its `ret`): later instructions are not recorded.
    ended: bool,
    /// Per instruction index: 0xFF (convert as written), 0 (skip) or the write mask to use.
    masks: SmallVec<[u8; 32]>,
}

/// The slot of register `ty`/`index` in a shader of `v`, if tracked.
fn slot_of(v: Version, ty: RegisterType, index: u32) -> u8 {
    match ty {
        RegisterType::Temp if index < 32 => index as u8,
        RegisterType::Texture if v.is_pixel() && v.major == 1 && v.minor < 4 && index < 8 => {
            TEX_BASE + index as u8
        }
        _ => NONE,
    }
}

/// The instructions that compute each component from the same component of their sources.
pub(crate) fn per_lane(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::Mov
            | O::Add
            | O::Sub
            | O::Mul
            | O::Mad
            | O::Min
            | O::Max
            | O::Slt
            | O::Sge
            | O::Abs
            | O::Frc
            | O::Cmp
            | O::Lrp
            | O::Sgn
            | O::Cnd
    )
}

/// The instructions whose only effect is writing their destination register.
fn pure(op: Opcode) -> bool {
    use Opcode as O;
    per_lane(op)
        || matches!(
            op,
            O::Rcp
                | O::Rsq
                | O::Dp3
                | O::Dp4
                | O::Exp
                | O::Log
                | O::Lit
                | O::Dst
                | O::ExpP
                | O::LogP
                | O::Pow
                | O::Crs
                | O::Nrm
                | O::SinCos
                | O::M4x4
                | O::M4x3
                | O::M3x4
                | O::M3x3
                | O::M3x2
                | O::Dp2Add
                | O::Dsx
                | O::Dsy
                | O::Tex
                | O::TexLdl
                | O::TexLdd
                | O::TexCoord
                | O::TexReg2Ar
                | O::TexReg2Gb
                | O::TexReg2Rgb
                | O::TexDp3
                | O::TexDp3Tex
        )
}

/// Texture instructions (of any kind): they may read their destination register's number
/// as a texture coordinate set.
pub(super) fn is_texture(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::Tex
            | O::TexCoord
            | O::TexKill
            | O::TexBem
            | O::TexBemL
            | O::TexReg2Ar
            | O::TexReg2Gb
            | O::TexReg2Rgb
            | O::TexM3x2Pad
            | O::TexM3x2Tex
            | O::TexM3x2Depth
            | O::TexM3x3Pad
            | O::TexM3x3Tex
            | O::TexM3x3Spec
            | O::TexM3x3VSpec
            | O::TexM3x3
            | O::TexDp3
            | O::TexDp3Tex
            | O::TexDepth
            | O::TexLdd
            | O::TexLdl
            | O::Bem
    )
}

/// Whether converting `inst` cannot fail: each source is a register its instruction can
/// read (a sampler where a texture instruction names one). Only such instructions are
/// skipped when dead, so a malformed one is still refused by the conversion.
fn well_formed(v: Version, inst: &Instruction<'_>) -> bool {
    use RegisterType as T;
    if matches!(inst.opcode, Opcode::Dsx | Opcode::Dsy) && !v.is_pixel() {
        return false;
    }
    let sampler_at = matches!(inst.opcode, Opcode::Tex | Opcode::TexLdl | Opcode::TexLdd)
        && (v.major >= 2 || v.is_vertex());
    inst.sources().iter().enumerate().all(|(i, s)| {
        let ok = match s.register.ty {
            T::Sampler => sampler_at && i == 1 && s.register.index < 16,
            _ if sampler_at && i == 1 => false,
            T::Temp | T::Const | T::Input => true,
            T::Texture | T::MiscType => v.is_pixel(),
            _ => false,
        };
        // (`Option::is_none_or` is newer than the workspace's rust-version.)
        let relative_ok = match &s.relative {
            None => true,
            Some(r) => matches!(r.register.ty, T::Address | T::Loop),
        };
        ok && s.modifier != SourceModifier::Not && relative_ok
    })
}

impl Liveness {
    /// Records instruction `inst` of `main` (called in order, after the prescan's checks).
    pub(crate) fn record(&mut self, v: Version, inst: &Instruction<'_>) {
        if self.off || self.ended {
            return;
        }
        use Opcode as O;
        match inst.opcode {
            O::Ret => {
                self.ended = true;
                return;
            }
            O::Label => {
                // A subroutine: main ended before it; nothing calls it (a call turns the
                // analysis off).
                self.ended = true;
                return;
            }
            O::Nop | O::Phase | O::Dcl | O::Def | O::DefI | O::DefB | O::Comment | O::End => return,
            op if op.is_flow_control() => {
                self.off = true;
                self.effects = SmallVec::new();
                return;
            }
            _ => {}
        }
        if inst.coissue {
            self.off = true;
            self.effects = SmallVec::new();
            return;
        }
        let plain = inst
            .sources()
            .iter()
            .all(|s| !matches!(s.modifier, SourceModifier::Dz | SourceModifier::Dw));
        let lanes = per_lane(inst.opcode) && plain;
        let mut e = Effect {
            index: inst.index,
            kind: Kind::Root,
            dst: NONE,
            mask: 0xF,
            kills: inst.predicate.is_none(),
            reads: [NO_READ; 5],
        };
        if let Some(d) = &inst.dst {
            e.mask = d.write_mask.0 & 0xF;
            let slot = slot_of(v, d.register.ty, d.register.index);
            if slot != NONE && d.relative.is_none() && pure(inst.opcode) && well_formed(v, inst) {
                e.dst = slot;
                e.kind = if lanes && e.kills {
                    Kind::PerLane
                } else {
                    Kind::Pure
                };
            }
        }
        let mut n = 0;
        for s in inst.sources() {
            let slot = slot_of(v, s.register.ty, s.register.index);
            if slot != NONE {
                e.reads[n.min(4)] = Read {
                    slot,
                    swizzle: s.swizzle.0,
                    whole: !lanes,
                };
                n += 1;
            }
        }
        // What a root or texture instruction names as its destination may be read too
        // (`texkill` tests it; ps_1_x texture instructions read coordinate set `#`).
        if let Some(d) = &inst.dst {
            let slot = slot_of(v, d.register.ty, d.register.index);
            if slot != NONE && (e.kind == Kind::Root || is_texture(inst.opcode) || !e.kills) {
                e.reads[n.min(4)] = Read {
                    slot,
                    swizzle: 0,
                    whole: true,
                };
                n += 1;
            }
        }
        if n > e.reads.len() {
            // More registers than the record holds (no valid instruction names so many):
            // no analysis.
            self.off = true;
            self.effects = SmallVec::new();
            return;
        }
        self.effects.push(e);
    }

    /// Computes the result over the recorded instructions of a shader of `v`.
    pub(crate) fn finish(&mut self, v: Version) {
        // Read in place (the list is inline: taking it would copy it) and emptied at the end.
        let effects = &self.effects;
        if self.off || effects.is_empty() {
            return;
        }
        let mut live = [0u8; SLOTS];
        // ps_1_x: the colour is r0.
        if v.is_pixel() && v.major == 1 {
            live[0] = 0xF;
        }
        let ps1_tex = v.is_pixel() && v.major == 1 && v.minor < 4;
        let mut masks: SmallVec<[u8; 32]> =
            SmallVec::from_elem(0xFF, effects.last().map_or(0, |e| e.index as usize + 1));
        let mut any = false;
        for e in effects.iter().rev() {
            // The components of the result that are used: a root's whole write mask.
            let mut use_mask = e.mask;
            if e.kind != Kind::Root {
                let m = e.mask & live[e.dst as usize];
                if m == 0 {
                    if let Some(x) = masks.get_mut(e.index as usize) {
                        *x = 0;
                        any = true;
                    }
                    continue;
                }
                if e.kind == Kind::PerLane && m != e.mask {
                    if let Some(x) = masks.get_mut(e.index as usize) {
                        *x = m;
                        any = true;
                    }
                }
                if e.kills {
                    live[e.dst as usize] &= !e.mask;
                }
                use_mask = m;
            } else if ps1_tex {
                // A texture-matrix root may read the texture registers its pads wrote.
                for x in &mut live[TEX_BASE as usize..] {
                    *x = 0xF;
                }
            }
            for r in e.reads.iter().filter(|r| r.slot != NONE) {
                if r.whole {
                    // The register and, for matrix instructions, the ones after it (in its
                    // own file).
                    let end = if r.slot < TEX_BASE {
                        TEX_BASE
                    } else {
                        SLOTS as u8
                    };
                    for s in r.slot..r.slot.saturating_add(4).min(end) {
                        live[s as usize] = 0xF;
                    }
                } else {
                    let mut comps = 0;
                    for l in 0..4 {
                        if use_mask & (1 << l) != 0 {
                            comps |= 1 << ((r.swizzle >> (l * 2)) & 3);
                        }
                    }
                    live[r.slot as usize] |= comps;
                }
            }
        }
        self.effects.clear();
        if any {
            self.masks = masks;
        }
    }

    /// What to do with instruction `index` of `main`: `None` to convert it as written,
    /// `Some(0)` to skip it, `Some(mask)` to write only `mask`.
    #[inline]
    pub(crate) fn mask(&self, index: u32) -> Option<u8> {
        self.masks
            .get(index as usize)
            .copied()
            .filter(|&m| m != 0xFF)
    }
}
