//! Naming the op an error is about in the input's own terms: D3D registers, resources,
//! inputs and outputs rather than IR ids.
//!
//! Errors raised after a frontend (by a pass or by the SPIR-V backend) carry the [`SsaDef`] of
//! the op at fault. An id like `%45` means nothing to someone who compiled a DXBC, D3D9 or
//! DXIL shader, but the IR keeps a `DebugName` for each declaration the frontends make
//! (`r0.x`, `t0`, `cb0`, `u0_counter`, `v0_POSITION0`, `o0_SV_Target0`, system values,
//! the entry point), and a built-in declaration names its system value (`SV_Position`) or the
//! intrinsic that reads it (`WaveGetLaneIndex()`). [`describe`] turns a def into what such a
//! user knows:
//!
//! - a def with a debug name is that name: `` `t0` (%4) ``;
//! - a code op is its opcode and the named declarations among its operands, following the
//!   ops that only reach a declaration (`DescriptorLoad` → `DclSrv`, `InputLoad` →
//!   `DclInput`, `TmpLoad` → `DclTmp`, ...): ``ImageSample of `t0`, `s0` (%45)``;
//! - a code op with no such operand (arithmetic on loaded values, a wave op) names the
//!   declarations its operands are computed from, a few steps back:
//!   ``WaveActiveOp on data from `t0`, `SV_Position` (%45)``;
//! - an op with none of these keeps its opcode: `FMul (%38)`.
//!
//! The id stays as a trailing hint: for a backend error `dxspv ir` prints the same lowered IR,
//! so it finds the op (a pass error's op may be one the pipeline made, or one of `--raw`).
//! For IR text the ids are the user's own names and the errors keep their plain form (the
//! facade does not call [`describe`] there).
//!
//! All of this runs only once an error has happened: nothing is looked up, allocated or kept
//! on the path of a translation that succeeds.

use dxspv_ir::text::debug_name;
use dxspv_ir::{Builder, BuiltIn, OpCode, SsaDef};
use dxspv_spirv::d3d_system_value;
use std::fmt::Write;

/// At most this many names are listed for one op (an op with more operands than this is
/// rare; the list is for recognising the op, not for completeness).
const MAX_NAMES: usize = 4;

/// How many steps back through operands [`describe`] looks for the declarations a value is
/// computed from.
const MAX_DATA_DEPTH: usize = 4;

/// How many ops [`describe`] looks at in all on that walk back (it stays cheap on any input).
const MAX_DATA_OPS: usize = 64;

/// How many accessor ops [`declaration_name`] follows from an operand to its declaration
/// (`DescriptorLoad` → declaration is one; nothing in the IR chains further than two).
const MAX_ACCESS_CHAIN: usize = 3;

/// The ops that only reach a declaration (their first operand): an operand made by one of
/// them is named by the declaration it reads.
const ACCESSORS: &[OpCode] = &[
    OpCode::DescriptorLoad,
    OpCode::InputLoad,
    OpCode::OutputStore,
    OpCode::TmpLoad,
    OpCode::TmpStore,
    OpCode::LdsLoad,
    OpCode::ScratchLoad,
    OpCode::ScratchStore,
];

/// `def` in the input's terms: its debug name, or its opcode and the named declarations it
/// uses; the id follows in parentheses. A def that is not in `b` is its id alone.
#[cold]
#[inline(never)]
pub(crate) fn describe(b: &Builder, def: SsaDef) -> String {
    let Some(op) = b.get(def) else {
        return def.to_string();
    };
    if let Some(name) = own_name(b, def) {
        return format!("`{name}` ({def})");
    }
    let mut names: Vec<String> = Vec::new();
    for operand in op.refs().flatten().filter(|&d| !is_structure(b, d)) {
        if names.len() == MAX_NAMES {
            break;
        }
        if let Some(name) = declaration_name(b, operand) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    let mut lead = " of ";
    if names.is_empty() {
        names = data_sources(b, def);
        lead = " on data from ";
    }
    let mut out = String::from(op.opcode.info().name);
    for (i, name) in names.iter().enumerate() {
        let _ = write!(out, "{}`{name}`", if i == 0 { lead } else { ", " });
    }
    let _ = write!(out, " ({def})");
    out
}

/// The named declarations the operands of `def` are computed from, looking at most
/// [`MAX_DATA_DEPTH`] steps back and [`MAX_DATA_OPS`] ops in all, nearest first.
fn data_sources(b: &Builder, def: SsaDef) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut seen: Vec<SsaDef> = vec![def];
    let mut frontier: Vec<SsaDef> = vec![def];
    for _ in 0..MAX_DATA_DEPTH {
        let mut next = Vec::new();
        for at in frontier {
            let Some(op) = b.get(at) else { continue };
            for operand in op.refs().flatten() {
                if seen.contains(&operand) || seen.len() >= MAX_DATA_OPS || is_structure(b, operand)
                {
                    continue;
                }
                seen.push(operand);
                match declaration_name(b, operand) {
                    Some(name) if names.len() < MAX_NAMES && !names.contains(&name) => {
                        names.push(name)
                    }
                    Some(_) => {}
                    None => next.push(operand),
                }
            }
        }
        frontier = next;
    }
    names
}

/// The name of `def` a D3D user knows: a built-in's system value (`SV_DispatchThreadID`) or
/// the intrinsic that reads it (`WaveGetLaneIndex()`), else its debug name.
fn own_name(b: &Builder, def: SsaDef) -> Option<String> {
    let op = b.get(def)?;
    if matches!(
        op.opcode,
        OpCode::DclInputBuiltIn | OpCode::DclOutputBuiltIn
    ) {
        if let Some(builtin) = op.lit(0).and_then(BuiltIn::from_literal) {
            let d3d = match builtin {
                BuiltIn::WaveLaneIndex => Some("WaveGetLaneIndex()"),
                BuiltIn::WaveLaneCount => Some("WaveGetLaneCount()"),
                BuiltIn::SampleCount => Some("GetRenderTargetSampleCount()"),
                BuiltIn::SamplePosition => Some("GetRenderTargetSamplePosition()"),
                other => d3d_system_value(other, None),
            };
            if let Some(name) = d3d {
                return Some(name.to_string());
            }
        }
    }
    debug_name(b, def)
}

/// True for the ops that hold the program together rather than data: the entry point (every
/// declaration names it), functions and blocks (calls, branches and phis name them).
fn is_structure(b: &Builder, def: SsaDef) -> bool {
    b.get(def).is_some_and(|op| {
        matches!(
            op.opcode,
            OpCode::EntryPoint | OpCode::Function | OpCode::Label
        )
    })
}

/// The debug name of the declaration `def` is or reaches through [`ACCESSORS`], if any.
fn declaration_name(b: &Builder, def: SsaDef) -> Option<String> {
    let mut at = def;
    for _ in 0..=MAX_ACCESS_CHAIN {
        if let Some(name) = own_name(b, at) {
            return Some(name);
        }
        let op = b.get(at)?;
        if !ACCESSORS.contains(&op.opcode) {
            return None;
        }
        at = op.refs().next().flatten()?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pixel shader sampling `t0` with `s0` at `v1_TEXCOORD0`, writing `o0_SV_Target0`,
    /// through register `r0.x`; plus an unnamed declaration and an op with no named operand.
    const SHADER: &str = "\
%1 = EntryPoint %30 Pixel
%2 = DebugName %1 \"main\"
%3 = DclSrv f32 %1 0 0 1 Image2D
%4 = DebugName %3 \"t0\"
%5 = DclSampler %1 0 0 1
%6 = DebugName %5 \"s0\"
%7 = DclInput vec2<f32> %1 1 0 None
%8 = DebugName %7 \"v1_TEXCOORD0\"
%9 = DclOutput vec4<f32> %1 0 0 0
%10 = DebugName %9 \"o0_SV_Target0\"
%11 = DclTmp f32 %1
%12 = DebugName %11 \"r0.x\"
%13 = DclCbv f32 %1 0 3 1
%14 = Constant u32 0
%15 = Constant f32 1.0
%30 = Function void
%31 = Label None
%32 = DescriptorLoad srv %3 %14
%33 = DescriptorLoad sampler %5 %14
%34 = InputLoad vec2<f32> %7 null
%35 = ImageSample vec4<f32> %32 %33 null %34 null null null null null null null
%36 = TmpLoad f32 %11
%37 = FAdd f32 %36 %15
%38 = FMul f32 %15 %15
%39 = DescriptorLoad cbv %13 %14
%40 = OutputStore %9 null %35
%43 = FMul f32 %37 %15
%44 = FNeg f32 %43
%41 = Return void null
%42 = FunctionEnd
";

    fn def(id: u32) -> SsaDef {
        SsaDef::new(id).unwrap()
    }

    fn builder() -> Builder {
        dxspv_ir::text::parse(SHADER).unwrap()
    }

    #[test]
    fn a_named_declaration_is_its_name() {
        let b = builder();
        assert_eq!(describe(&b, def(3)), "`t0` (%3)");
        assert_eq!(describe(&b, def(7)), "`v1_TEXCOORD0` (%7)");
        assert_eq!(describe(&b, def(1)), "`main` (%1)");
    }

    #[test]
    fn a_code_op_names_the_declarations_it_reaches() {
        let b = builder();
        // Through DescriptorLoad (srv, sampler) and InputLoad.
        assert_eq!(
            describe(&b, def(35)),
            "ImageSample of `t0`, `s0`, `v1_TEXCOORD0` (%35)"
        );
        assert_eq!(describe(&b, def(32)), "DescriptorLoad of `t0` (%32)");
        // Through TmpLoad to the register; the constant has no name.
        assert_eq!(describe(&b, def(37)), "FAdd of `r0.x` (%37)");
        // A store names its output; the stored value comes from an ImageSample, which is no
        // accessor, so it adds no name.
        assert_eq!(
            describe(&b, def(40)),
            "OutputStore of `o0_SV_Target0` (%40)"
        );
    }

    #[test]
    fn a_computed_value_names_the_declarations_it_comes_from() {
        let b = builder();
        // %43 = FMul (FAdd (TmpLoad r0.x)) 1.0: two steps back to the register.
        assert_eq!(describe(&b, def(43)), "FMul on data from `r0.x` (%43)");
        assert_eq!(describe(&b, def(44)), "FNeg on data from `r0.x` (%44)");
    }

    #[test]
    fn nothing_named_keeps_the_opcode_and_id() {
        let b = builder();
        assert_eq!(describe(&b, def(38)), "FMul (%38)");
        // An unnamed declaration, and an access to it.
        assert_eq!(describe(&b, def(13)), "DclCbv (%13)");
        assert_eq!(describe(&b, def(39)), "DescriptorLoad (%39)");
        // A def that is not in the program.
        assert_eq!(describe(&b, def(99)), "%99");
    }

    #[test]
    fn built_ins_are_named_by_their_system_value_or_intrinsic() {
        let text = "\
%1 = EntryPoint %10 Compute
%2 = SetCsWorkgroupSize %1 1 1 1
%3 = DclInputBuiltIn vec3<u32> %1 GlobalThreadId None
%4 = DebugName %3 \"GlobalThreadId\"
%5 = DclInputBuiltIn u32 %1 WaveLaneIndex None
%6 = DclInputBuiltIn u32 %1 TessControlPointCountIn None
%7 = DebugName %6 \"vicp_count\"
%8 = DclInputBuiltIn u32 %1 TessControlPointId None
%10 = Function void
%11 = Label None
%12 = InputLoad vec3<u32> %3 null
%13 = Return void null
%14 = FunctionEnd
";
        let b = dxspv_ir::text::parse(text).unwrap();
        assert_eq!(describe(&b, def(3)), "`SV_DispatchThreadID` (%3)");
        assert_eq!(
            describe(&b, def(12)),
            "InputLoad of `SV_DispatchThreadID` (%12)"
        );
        // Read through an intrinsic in HLSL, named or not in the IR.
        assert_eq!(describe(&b, def(5)), "`WaveGetLaneIndex()` (%5)");
        // No system value and no intrinsic name: the debug name, else the opcode.
        assert_eq!(describe(&b, def(6)), "`vicp_count` (%6)");
        assert_eq!(describe(&b, def(8)), "`SV_OutputControlPointID` (%8)");
    }

    #[test]
    fn names_are_listed_once() {
        let text = "\
%1 = EntryPoint %10 Compute
%2 = SetCsWorkgroupSize %1 1 1 1
%3 = DclTmp f32 %1
%4 = DebugName %3 \"r0.x\"
%10 = Function void
%11 = Label None
%12 = TmpLoad f32 %3
%13 = FMul f32 %12 %12
%14 = Return void null
%15 = FunctionEnd
";
        let b = dxspv_ir::text::parse(text).unwrap();
        assert_eq!(describe(&b, def(13)), "FMul of `r0.x` (%13)");
    }
}
