//! Text disassembly in the syntax of fxc and `D3DXDisassembleShader`.
//!
//! The listing opens with the constant table as a comment block (when the shader has one),
//! then the profile line and one line per instruction, each indented by four spaces; a
//! co-issued pixel shader 1.x instruction is printed `  + mov r0.w, t0.w`. The operand
//! spelling follows fxc: write masks `.xyz`, source swizzles as one letter when all four
//! lanes agree (`c0.x`) and four letters otherwise (`r0.yzww`), source modifiers as a
//! prefix (`-`, `1 - `, `!`) and a suffix before the swizzle (`r1_bx2.w`, `-r0_abs.x`),
//! relative addresses as `c3[a0.x]` and `v0[aL]`, result modifiers after the opcode
//! (`mul_x4_sat`, `texld_pp`), `def` values with nine significant digits (`0.212500006`,
//! `4.99999987e-006`), and usage index 0 left out of `dcl_texcoord`.

use core::fmt::Write;

use crate::ctab::{ConstantTable, ParameterClass, TypeInfo};
use crate::decode::{Declaration, Instruction, Payload, Shader, TexLoad, TextureType};
use crate::error::Error;
use crate::opcode::Opcode;
use crate::operand::{Destination, RelativeAddress, Source, SourceModifier, Swizzle, WriteMask};
use crate::register::RegisterType;
use crate::version::Version;

const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

/// Parses a shader and disassembles it.
pub fn disassemble(bytes: &[u8]) -> Result<String, Error> {
    let shader = Shader::parse(bytes)?;
    disassemble_shader(&shader)
}

/// Disassembles a parsed shader.
pub fn disassemble_shader(shader: &Shader<'_>) -> Result<String, Error> {
    let mut out = String::with_capacity(64 + shader.tokens.len() * 8);
    if let Some(ctab) = &shader.constant_table {
        write_constant_table(&mut out, ctab);
    }
    let _ = writeln!(out, "    {}", shader.version);
    let mut inst = Instruction::default();
    let mut it = shader.instructions();
    while let Some(r) = it.next_into(&mut inst) {
        r?;
        if !inst.is_comment() {
            write_instruction(&mut out, &inst, shader.version);
            out.push('\n');
        }
    }
    Ok(out)
}

/// Appends one instruction (no newline) to `out`.
pub fn write_instruction(out: &mut String, inst: &Instruction<'_>, version: Version) {
    out.push_str(if inst.coissue { "  + " } else { "    " });
    if let Some(p) = &inst.predicate {
        out.push('(');
        write_source(out, p);
        out.push_str(") ");
    }
    let sources = inst.sources();
    let name = inst.opcode.name_for(sources.len());
    out.push_str(name);
    if inst.opcode == Opcode::Tex && name == "texld" {
        match inst.texld {
            TexLoad::Plain => {}
            TexLoad::Project => out.push('p'),
            TexLoad::Bias => out.push('b'),
        }
    }
    if let Some(c) = inst.comparison {
        out.push('_');
        out.push_str(c.suffix());
    }
    if let Payload::Dcl(decl) = inst.payload {
        write_declaration_suffix(out, decl, inst.dst.as_ref(), version);
    }
    if let Some(d) = &inst.dst {
        write_result_modifiers(out, d);
    }
    let mut first = true;
    let mut sep = |out: &mut String| {
        out.push_str(if first { " " } else { ", " });
        first = false;
    };
    if let Some(d) = &inst.dst {
        sep(out);
        write_destination(out, d);
    }
    for s in sources {
        sep(out);
        write_source(out, s);
    }
    match inst.payload {
        Payload::Def(v) => {
            for x in v {
                sep(out);
                write_float(out, f32::from_bits(x));
            }
        }
        Payload::DefI(v) => {
            for x in v {
                sep(out);
                let _ = write!(out, "{x}");
            }
        }
        Payload::DefB(b) => {
            sep(out);
            out.push_str(if b { "true" } else { "false" });
        }
        _ => {}
    }
}

/// `_position1`, `_texcoord`, `_2d`… after `dcl`. Pixel shaders before 3.0 and the
/// `ps_3_0` `vPos` / `vFace` registers have no usage in their syntax (`dcl t0.xy`,
/// `dcl vPos.xy`).
fn write_declaration_suffix(
    out: &mut String,
    decl: Declaration,
    dst: Option<&Destination>,
    version: Version,
) {
    match decl {
        Declaration::Sampler(t) => {
            if t != TextureType::Unknown {
                out.push('_');
                out.push_str(t.name());
            }
        }
        Declaration::Semantic { usage, index } => {
            let ty = dst.map(|d| d.register.ty);
            let named = match version.stage {
                crate::Stage::Vertex => true,
                crate::Stage::Pixel => version.major >= 3 && ty == Some(RegisterType::Input),
            };
            if named {
                out.push('_');
                out.push_str(usage.name());
                if index != 0 {
                    let _ = write!(out, "{index}");
                }
            }
        }
    }
}

fn write_result_modifiers(out: &mut String, d: &Destination) {
    out.push_str(match d.shift {
        1 => "_x2",
        2 => "_x4",
        3 => "_x8",
        -1 => "_d2",
        -2 => "_d4",
        -3 => "_d8",
        _ => "",
    });
    if d.saturate {
        out.push_str("_sat");
    }
    if d.partial_precision {
        out.push_str("_pp");
    }
    if d.centroid {
        out.push_str("_centroid");
    }
}

/// Appends a destination parameter: `r0.xy`, `o[a0.x]`…
pub fn write_destination(out: &mut String, d: &Destination) {
    let _ = write!(out, "{}", d.register);
    if let Some(r) = &d.relative {
        write_relative(out, r);
    }
    write_mask(out, d.write_mask);
}

/// Appends a source parameter: `-r0_bx2.x`, `c3[a0.x]`, `!b0`…
pub fn write_source(out: &mut String, s: &Source) {
    use SourceModifier as M;
    out.push_str(match s.modifier {
        M::Negate | M::BiasNegate | M::SignNegate | M::X2Negate | M::AbsNegate => "-",
        M::Complement => "1 - ",
        M::Not => "!",
        _ => "",
    });
    let _ = write!(out, "{}", s.register);
    if let Some(r) = &s.relative {
        write_relative(out, r);
    }
    out.push_str(match s.modifier {
        M::Bias | M::BiasNegate => "_bias",
        M::Sign | M::SignNegate => "_bx2",
        M::X2 | M::X2Negate => "_x2",
        M::Dz => "_dz",
        M::Dw => "_dw",
        M::Abs | M::AbsNegate => "_abs",
        _ => "",
    });
    write_swizzle(out, s.swizzle);
}

fn write_relative(out: &mut String, r: &RelativeAddress) {
    let _ = write!(out, "[{}", r.register);
    write_swizzle(out, r.swizzle);
    out.push(']');
}

fn write_mask(out: &mut String, mask: WriteMask) {
    if mask.is_full() {
        return;
    }
    out.push('.');
    for (i, c) in COMPONENTS.iter().enumerate() {
        if mask.contains(i) {
            out.push(*c);
        }
    }
}

fn write_swizzle(out: &mut String, s: Swizzle) {
    if s.is_identity() {
        return;
    }
    out.push('.');
    match s.replicated() {
        Some(c) => out.push(COMPONENTS[usize::from(c)]),
        None => {
            for lane in s.lanes() {
                out.push(COMPONENTS[usize::from(lane)]);
            }
        }
    }
}

/// Appends `v` the way fxc prints `def` values: C's `%.9g` with the three-digit exponent
/// of the Microsoft C runtime (`1e+010`, `4.99999987e-006`), and `1.#INF` / `1.#QNAN` for
/// the special values.
pub fn write_float(out: &mut String, v: f32) {
    let d = f64::from(v);
    let sign = if d.is_sign_negative() { "-" } else { "" };
    if d.is_nan() {
        out.push_str(sign);
        out.push_str("1.#QNAN");
        return;
    }
    if d.is_infinite() {
        out.push_str(sign);
        out.push_str("1.#INF");
        return;
    }
    if d == 0.0 {
        out.push_str(sign);
        out.push('0');
        return;
    }
    // The exponent %e would print, after rounding to nine significant digits.
    let e = format!("{d:.8e}");
    let (mantissa, exp) = e.split_once('e').unwrap_or((e.as_str(), "0"));
    let x: i32 = exp.parse().unwrap_or(0);
    if !(-4..9).contains(&x) {
        out.push_str(strip_zeros(mantissa));
        let _ = write!(
            out,
            "e{}{:03}",
            if x < 0 { '-' } else { '+' },
            x.unsigned_abs()
        );
    } else {
        let decimals = (8 - x) as usize;
        let f = format!("{d:.decimals$}");
        out.push_str(strip_zeros(&f));
    }
}

/// Drops trailing zeros after a decimal point, and the point if nothing follows it.
fn strip_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// The constant table as fxc's comment header: the creator, the constants' HLSL
/// declarations and their registers.
fn write_constant_table(out: &mut String, ctab: &ConstantTable) {
    out.push_str("//\n");
    if !ctab.creator.is_empty() {
        let _ = writeln!(out, "// Generated by {}\n//", ctab.creator);
    }
    if ctab.constants.is_empty() {
        out.push('\n');
        return;
    }
    out.push_str("// Parameters:\n//\n");
    // Shared struct types expand into a tree when printed; bound the lines so a table
    // whose types nest shared structs many levels deep cannot print exponentially many.
    let mut budget = 4 * (ctab.constants.len() + ctab.members.len()) + 64;
    for c in &ctab.constants {
        let ty = c.ty.and_then(|t| ctab.type_info(t));
        write_declaration(out, ctab, ty, &c.name, 1, &mut budget);
    }
    out.push_str("//\n//\n// Registers:\n//\n");
    let name_width = ctab
        .constants
        .iter()
        .map(|c| c.name.len())
        .max()
        .unwrap_or(0)
        .max(4);
    let _ = writeln!(out, "//   {:name_width$} Reg   Size", "Name");
    let _ = writeln!(out, "//   {:-<name_width$} ----- ----", "");
    let mut order: Vec<&crate::ctab::Constant> = ctab.constants.iter().collect();
    order.sort_by_key(|c| (c.register_set as u8, c.register_index));
    for c in order {
        let reg = format!("{}{}", c.register_set.prefix(), c.register_index);
        let _ = writeln!(
            out,
            "//   {:name_width$} {:5} {:4}",
            c.name, reg, c.register_count
        );
    }
    out.push_str("//\n\n");
}

/// One HLSL declaration line (a struct spans several) of the Parameters block.
fn write_declaration(
    out: &mut String,
    ctab: &ConstantTable,
    ty: Option<&TypeInfo>,
    name: &str,
    depth: usize,
    budget: &mut usize,
) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    if *budget == 0 {
        out.push_str("//   ...\n");
        return;
    }
    let indent = "    ".repeat(depth.saturating_sub(1));
    let Some(ty) = ty else {
        let _ = writeln!(out, "//   {indent}{name};");
        return;
    };
    let array = if ty.elements > 1 {
        format!("[{}]", ty.elements)
    } else {
        String::new()
    };
    let base = ty.ty.hlsl_name();
    match ty.class {
        ParameterClass::Scalar | ParameterClass::Object => {
            let _ = writeln!(out, "//   {indent}{base} {name}{array};");
        }
        ParameterClass::Vector => {
            let _ = writeln!(out, "//   {indent}{base}{} {name}{array};", ty.columns);
        }
        ParameterClass::MatrixRows => {
            let _ = writeln!(
                out,
                "//   {indent}row_major {base}{}x{} {name}{array};",
                ty.rows, ty.columns
            );
        }
        ParameterClass::MatrixColumns => {
            let _ = writeln!(
                out,
                "//   {indent}{base}{}x{} {name}{array};",
                ty.rows, ty.columns
            );
        }
        ParameterClass::Struct => {
            let _ = writeln!(out, "//   {indent}struct\n//   {indent}{{");
            for m in ctab.members_of(ty) {
                let mt = m.ty.and_then(|t| ctab.type_info(t));
                write_declaration(out, ctab, mt, &m.name, depth + 1, budget);
            }
            let _ = writeln!(out, "//\n//   {indent}}} {name}{array};");
        }
    }
}
