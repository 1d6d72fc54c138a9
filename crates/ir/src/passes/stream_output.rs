//! Applies a Direct3D stream-output declaration to a vertex, domain or geometry shader:
//! `DclXfb` on the outputs it captures, and copies for the captures no output matches.
//!
//! In Direct3D the stream-output declaration (`D3D11_SO_DECLARATION_ENTRY`,
//! `D3D12_STREAM_OUTPUT_DESC`) is pipeline state, not part of the shader: which output
//! (by semantic name and index) goes to which buffer, at which byte offset, with which
//! components. Vulkan's transform feedback is declared in the shader instead (`XfbBuffer`,
//! `XfbStride`, `Offset` on output variables), so a translation layer passes the declaration
//! to the compiler ([`StreamOutput`]) and this pass writes it into the IR as `DclXfb` ops,
//! which the backend turns into those decorations.
//!
//! Each entry names components `start_component .. start_component + component_count` of a
//! signature element's register (`0` = `x`, as the shader's output signature counts them).
//! Where one output declaration holds exactly those components, it gets the `DclXfb` itself.
//! Otherwise (some components of a wider output, components from several declarations, an
//! output already captured by another entry) the pass declares a new output of
//! `component_count` components at a register no output of that stream uses, gives it the
//! `DclXfb`, and copies the captured components into it where they are final: before every
//! `EmitVertex` of the entry's stream in a geometry shader, before every `Return` of the entry
//! function in vertex and domain shaders. (Vulkan needs a location for every user output, so
//! such copies use up output locations; the new outputs have no semantic and no next-stage
//! input reads them.)
//!
//! Entries without a semantic are gaps: they only advance the buffer offset. Byte offsets are
//! assigned in declaration order per buffer slot, as Direct3D does.
//!
//! The declaration's `rasterized_stream` is pipeline state for the rasterizer; the pass only
//! checks that it names stream 0 or none when the geometry shader has outputs in other streams
//! (rasterizing another stream would need that stream's outputs at the pixel shader's
//! locations, which the backend does not arrange).
//!
//! Run it on lowered IR (after the pass pipeline), right before the backend.

use crate::enums::{BuiltIn, ShaderStage};
use crate::op::{Op, SsaDef};
use crate::opcode::OpCode;
use crate::passes::error::PassError;
use crate::types::{ScalarType, Type};
use crate::Builder;

const PASS: &str = "stream_output";

/// Most stream-output buffers (D3D11/D3D12 `D3D11_SO_BUFFER_SLOT_COUNT`).
pub const MAX_BUFFERS: u32 = 4;
/// Most geometry shader streams (`D3D11_SO_STREAM_COUNT`).
pub const MAX_STREAMS: u32 = 4;
/// Output registers per stream (`D3D11_SO_OUTPUT_COMPONENT_COUNT / 4`).
const MAX_REGISTERS: u32 = 32;

/// One entry of a stream-output declaration (`D3D11_SO_DECLARATION_ENTRY`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StreamOutputEntry {
    /// Geometry shader stream the output belongs to (0 for vertex and domain shaders).
    pub stream: u32,
    /// Semantic name (matched case-insensitively), or `None` for a gap of
    /// `component_count` components.
    pub semantic: Option<String>,
    /// Semantic index.
    pub semantic_index: u32,
    /// First captured component of the element's register (0 = `x`).
    pub start_component: u32,
    /// Captured components (1–4).
    pub component_count: u32,
    /// Output buffer slot (0–3).
    pub slot: u32,
}

/// A Direct3D stream-output declaration: what the last shader stage before the rasterizer
/// writes to which stream-output buffer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct StreamOutput {
    /// The entries in declaration order.
    pub entries: Vec<StreamOutputEntry>,
    /// Byte stride of each output buffer slot, indexed by slot.
    pub strides: Vec<u32>,
    /// The stream that is rasterized, or `None` (`D3D11_SO_NO_RASTERIZED_STREAM`).
    pub rasterized_stream: Option<u32>,
}

/// An output declaration and the register components it holds.
struct Output {
    def: SsaDef,
    /// D3D register (`None` for built-ins).
    register: Option<u32>,
    builtin: Option<BuiltIn>,
    first: u32,
    count: u32,
    base: ScalarType,
    vector: bool,
    stream: u32,
    semantic: Option<(String, u32)>,
    captured: bool,
}

/// Where one captured component comes from: an output and the component in it.
#[derive(Clone, Copy)]
struct Source {
    output: usize,
    component: u32,
}

/// A new output that receives copies of captured components.
struct Copy {
    def: SsaDef,
    stream: u32,
    vector: bool,
    base: ScalarType,
    sources: Vec<Source>,
}

fn invalid(def: impl Into<Option<SsaDef>>, message: impl Into<String>) -> PassError {
    PassError::invalid(PASS, def, message)
}

/// Writes `so` into the program as `DclXfb` ops (and copies where needed); returns whether
/// anything changed. Errors name the entry that cannot be applied.
pub fn run(b: &mut Builder, so: &StreamOutput) -> Result<bool, PassError> {
    let Some((entry, entry_op)) = b.iter().find(|(_, op)| op.opcode == OpCode::EntryPoint) else {
        return Err(invalid(None, "no EntryPoint"));
    };
    let stage = entry_op
        .lit(0)
        .and_then(ShaderStage::from_literal)
        .ok_or_else(|| invalid(entry, "EntryPoint without a stage"))?;
    let main = entry_op.arg(0);
    if !matches!(
        stage,
        ShaderStage::Vertex | ShaderStage::Domain | ShaderStage::Geometry
    ) {
        return Err(invalid(
            entry,
            format!("stream output from a {stage} shader (only vertex, domain and geometry shaders stream out)"),
        ));
    }
    let mut outputs = collect_outputs(b, stage)?;
    let last_output = outputs.iter().map(|o| o.def).next_back();

    if let Some(r) = so.rasterized_stream {
        if r >= MAX_STREAMS {
            return Err(invalid(entry, format!("rasterized stream {r}")));
        }
        if r != 0 && outputs.iter().any(|o| o.stream == r) {
            return Err(invalid(
                entry,
                format!(
                    "rasterizing stream {r} (its outputs are not at the pixel shader's locations)"
                ),
            ));
        }
    }

    // Registers used per stream, for the copies' new outputs.
    let mut used = [[false; MAX_REGISTERS as usize]; MAX_STREAMS as usize];
    for o in &outputs {
        if let (Some(r), Some(row)) = (o.register, used.get_mut(o.stream as usize)) {
            if let Some(u) = row.get_mut(r as usize) {
                *u = true;
            }
        }
    }

    let mut offsets = [0u32; MAX_BUFFERS as usize];
    let mut copies: Vec<Copy> = Vec::new();
    let mut changed = false;
    for (i, e) in so.entries.iter().enumerate() {
        let what = || format!("stream-output entry {i}");
        if e.slot >= MAX_BUFFERS || e.stream >= MAX_STREAMS {
            return Err(invalid(
                entry,
                format!(
                    "{}: buffer slot {} / stream {} out of range",
                    what(),
                    e.slot,
                    e.stream
                ),
            ));
        }
        if e.component_count == 0 || e.start_component + e.component_count > 4 {
            return Err(invalid(
                entry,
                format!(
                    "{}: components {}..{} are not within x..w",
                    what(),
                    e.start_component,
                    e.start_component + e.component_count
                ),
            ));
        }
        if e.stream != 0 && stage != ShaderStage::Geometry {
            return Err(invalid(
                entry,
                format!("{}: stream {} outside a geometry shader", what(), e.stream),
            ));
        }
        let stride = *so.strides.get(e.slot as usize).ok_or_else(|| {
            invalid(
                entry,
                format!("{}: no stride for buffer slot {}", what(), e.slot),
            )
        })?;
        let offset = offsets[e.slot as usize];
        let end = offset + 4 * e.component_count;
        if stride % 4 != 0 || end > stride {
            return Err(invalid(
                entry,
                format!(
                    "{}: bytes {offset}..{end} do not fit the {stride}-byte stride of slot {}",
                    what(),
                    e.slot
                ),
            ));
        }
        offsets[e.slot as usize] = end;
        let Some(name) = &e.semantic else {
            continue;
        };
        // The output (and component in it) of each captured component.
        let mut sources = Vec::with_capacity(e.component_count as usize);
        for c in e.start_component..e.start_component + e.component_count {
            let found = outputs.iter().position(|o| {
                o.stream == e.stream
                    && o.semantic.as_ref().is_some_and(|(n, idx)| {
                        n.eq_ignore_ascii_case(name) && *idx == e.semantic_index
                    })
                    && if o.builtin.is_some() && !o.vector {
                        // A scalar built-in's register component is not recorded: it is
                        // the one component captured.
                        e.component_count == 1
                    } else {
                        (o.first..o.first + o.count).contains(&c)
                    }
            });
            let Some(k) = found else {
                return Err(invalid(
                    entry,
                    format!(
                        "{}: the shader has no output {name}{} component {c} in stream {}",
                        what(),
                        e.semantic_index,
                        e.stream
                    ),
                ));
            };
            let o = &outputs[k];
            let component = if o.vector { c - o.first } else { 0 };
            sources.push(Source {
                output: k,
                component,
            });
        }
        let k = sources[0].output;
        let whole = sources.iter().all(|s| s.output == k) && {
            let o = &outputs[k];
            !o.captured
                && (o.builtin.is_some() && !o.vector
                    || (o.first == e.start_component && o.count == e.component_count))
        };
        let xfb = |target: SsaDef| {
            Op::new(OpCode::DclXfb, Type::VOID)
                .with_ref(target)
                .with_lit(u64::from(e.slot))
                .with_lit(u64::from(stride))
                .with_lit(u64::from(offset))
        };
        if whole {
            outputs[k].captured = true;
            let def = outputs[k].def;
            b.add_after(def, xfb(def));
            changed = true;
            continue;
        }
        let base = outputs[k].base;
        if let Some(s) = sources.iter().find(|s| outputs[s.output].base != base) {
            return Err(invalid(
                outputs[s.output].def,
                format!(
                    "{}: captures components of outputs of different types ({base} and {})",
                    what(),
                    outputs[s.output].base
                ),
            ));
        }
        let row = &mut used[e.stream as usize];
        let Some(reg) = row.iter().position(|u| !u) else {
            return Err(invalid(
                entry,
                format!(
                    "{}: no free output register in stream {} for a copy of {name}{}",
                    what(),
                    e.stream,
                    e.semantic_index
                ),
            ));
        };
        row[reg] = true;
        let vector = e.component_count > 1;
        let ty = if vector {
            Type::vector(base, e.component_count as u8)
        } else {
            Type::scalar(base)
        };
        let dcl = Op::new(OpCode::DclOutput, ty)
            .with_ref(entry)
            .with_lit(reg as u64)
            .with_lit(0)
            .with_lit(u64::from(e.stream));
        let def = match last_output {
            Some(at) => b.add_after(at, dcl),
            None => b.add_decl(dcl),
        };
        let label = format!("xfb{i}_{name}{}", e.semantic_index);
        let named = b.add_after(
            def,
            Op::new(OpCode::DebugName, Type::VOID)
                .with_ref(def)
                .with_str(&label),
        );
        b.add_after(named, xfb(def));
        copies.push(Copy {
            def,
            stream: e.stream,
            vector,
            base,
            sources,
        });
        changed = true;
    }
    if !copies.is_empty() {
        insert_copies(b, stage, main, &outputs, &copies)?;
    }
    Ok(changed)
}

/// Every output declaration with its register components and semantic.
fn collect_outputs(b: &Builder, stage: ShaderStage) -> Result<Vec<Output>, PassError> {
    let mut outputs: Vec<Output> = Vec::new();
    for (def, op) in b.iter() {
        let builtin = match op.opcode {
            OpCode::DclOutput => None,
            OpCode::DclOutputBuiltIn => Some(
                op.lit(0)
                    .and_then(BuiltIn::from_literal)
                    .ok_or_else(|| invalid(def, "unknown built-in"))?,
            ),
            OpCode::Semantic => {
                if let Some(o) = op
                    .arg(0)
                    .and_then(|t| outputs.iter_mut().find(|o| o.def == t))
                {
                    let index = op.lit(0).unwrap_or(0) as u32;
                    o.semantic = Some((op.string_from(1), index));
                }
                continue;
            }
            _ => continue,
        };
        let stream_lit = if builtin.is_some() { 1 } else { 2 };
        let stream = if stage == ShaderStage::Geometry {
            op.lit(stream_lit).unwrap_or(0) as u32
        } else {
            0
        };
        let basic = op.ty.as_basic();
        let (register, first) = match builtin {
            Some(_) => (None, 0),
            None => (
                Some(op.lit(0).unwrap_or(0) as u32),
                op.lit(1).unwrap_or(0) as u32,
            ),
        };
        let Some(basic) = basic else {
            // Arrays (indexed output ranges, clip distances) cannot be captured; they stay
            // in the list without components so that an entry naming them is refused.
            outputs.push(Output {
                def,
                register,
                builtin,
                first,
                count: 0,
                base: ScalarType::U32,
                vector: false,
                stream,
                semantic: None,
                captured: true,
            });
            continue;
        };
        outputs.push(Output {
            def,
            register,
            builtin,
            first,
            count: u32::from(basic.vec_size()),
            base: basic.base(),
            vector: basic.is_vector(),
            stream,
            semantic: None,
            captured: false,
        });
    }
    Ok(outputs)
}

/// Inserts the copies into the new outputs where the captured values are final.
fn insert_copies(
    b: &mut Builder,
    stage: ShaderStage,
    main: Option<SsaDef>,
    outputs: &[Output],
    copies: &[Copy],
) -> Result<(), PassError> {
    // (insertion point, stream) pairs.
    let mut points: Vec<(SsaDef, u32)> = Vec::new();
    let mut in_main = false;
    for (def, op) in b.iter() {
        match op.opcode {
            OpCode::Function => in_main = Some(def) == main,
            OpCode::FunctionEnd => in_main = false,
            OpCode::EmitVertex if stage == ShaderStage::Geometry => {
                points.push((def, op.lit(0).unwrap_or(0) as u32));
            }
            OpCode::Return if in_main && stage != ShaderStage::Geometry => points.push((def, 0)),
            _ => {}
        }
    }
    for (at, stream) in points {
        for c in copies.iter().filter(|c| c.stream == stream) {
            for (j, s) in c.sources.iter().enumerate() {
                let src = &outputs[s.output];
                let src_addr = src
                    .vector
                    .then(|| b.add_scalar_constant(ScalarType::U32, u64::from(s.component)));
                let load = Op::new(OpCode::OutputLoad, Type::scalar(c.base))
                    .with_ref(src.def)
                    .with_opt_ref(src_addr);
                let value = b.add_before(at, load);
                let dst_addr = c
                    .vector
                    .then(|| b.add_scalar_constant(ScalarType::U32, j as u64));
                let store = Op::new(OpCode::OutputStore, Type::VOID)
                    .with_ref(c.def)
                    .with_opt_ref(dst_addr)
                    .with_ref(value);
                b.add_before(at, store);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text;
    use crate::validate::{validate, Level};

    fn entry(semantic: &str, start: u32, count: u32, slot: u32) -> StreamOutputEntry {
        StreamOutputEntry {
            stream: 0,
            semantic: Some(semantic.to_string()),
            semantic_index: 0,
            start_component: start,
            component_count: count,
            slot,
        }
    }

    const VS: &str = "
%1 = EntryPoint %10 Vertex
%2 = DclOutputBuiltIn vec4<f32> %1 Position 0
%3 = Semantic %2 0 \"SV_Position\"
%4 = DclOutput vec4<f32> %1 1 0 0
%5 = Semantic %4 0 \"COLOR\"
%6 = Constant f32 1.0
%7 = Constant vec4<f32> 1.0 2.0 3.0 4.0
%10 = Function void
%11 = Label None
%12 = OutputStore %2 null %7
%13 = OutputStore %4 null %7
%14 = Return void null
%15 = FunctionEnd
";

    fn run_on(src: &str, so: &StreamOutput) -> Result<String, PassError> {
        let mut b = text::parse(src).map_err(|e| invalid(None, e.to_string()))?;
        run(&mut b, so)?;
        if let Err(errors) = validate(&b, Level::Lowered) {
            return Err(invalid(None, format!("{errors:?}")));
        }
        Ok(text::print(&b))
    }

    /// Whole outputs are captured in place: one `DclXfb` per entry, offsets in order.
    #[test]
    fn whole_outputs_get_dcl_xfb() {
        let so = StreamOutput {
            entries: vec![entry("SV_POSITION", 0, 4, 0), entry("color", 0, 4, 0)],
            strides: vec![32],
            rasterized_stream: None,
        };
        let out = run_on(VS, &so).expect("applies");
        assert!(out.contains("DclXfb %2 0 32 0"), "{out}");
        assert!(out.contains("DclXfb %4 0 32 16"), "{out}");
        assert!(!out.contains("OutputLoad"), "{out}");
    }

    /// Some components of an output, or one captured twice, go through a copy made before
    /// the return.
    #[test]
    fn partial_outputs_are_copied() {
        let so = StreamOutput {
            entries: vec![
                entry("COLOR", 1, 2, 0),
                StreamOutputEntry {
                    semantic: None,
                    ..entry("", 0, 1, 0)
                },
                entry("COLOR", 0, 4, 1),
                entry("COLOR", 0, 4, 1),
            ],
            strides: vec![12, 32],
            rasterized_stream: None,
        };
        let out = run_on(VS, &so).expect("applies");
        // COLOR.yz: a vec2 copy at the first free register (0), offset 0 of slot 0.
        assert!(out.contains("DclOutput vec2<f32> %1 0 0 0"), "{out}");
        assert!(out.contains("0 12 0"), "{out}");
        // The whole COLOR in place once, then a copy for the second capture (register 2).
        assert!(out.contains("DclXfb %4 1 32 0"), "{out}");
        assert!(out.contains("DclOutput vec4<f32> %1 2 0 0"), "{out}");
        assert!(out.contains("1 32 16"), "{out}");
        assert_eq!(out.matches("OutputLoad").count(), 6, "{out}");
    }

    #[test]
    fn bad_declarations_are_refused() {
        let cases = [
            (
                vec![entry("TEXCOORD", 0, 4, 0)],
                vec![16],
                "no output TEXCOORD0",
            ),
            (vec![entry("COLOR", 2, 4, 0)], vec![16], "not within x..w"),
            (
                vec![entry("COLOR", 0, 4, 1)],
                vec![16],
                "no stride for buffer slot 1",
            ),
            (vec![entry("COLOR", 0, 4, 0)], vec![8], "do not fit"),
        ];
        for (entries, strides, want) in cases {
            let so = StreamOutput {
                entries,
                strides,
                rasterized_stream: None,
            };
            match run_on(VS, &so) {
                Err(e) => assert!(e.to_string().contains(want), "{e}"),
                Ok(out) => panic!("expected an error with {want:?}, got {out}"),
            }
        }
    }

    /// A geometry shader copies before each `EmitVertex` of the entry's stream.
    #[test]
    fn geometry_shader_copies_before_emit() {
        let gs = "
%1 = EntryPoint %10 Geometry
%2 = DclOutput vec4<f32> %1 0 0 0
%3 = Semantic %2 0 \"POSITION\"
%4 = SetGsOutputVertices %1 1
%5 = SetGsOutputPrimitive %1 Point 1
%6 = SetGsInputPrimitive %1 Point
%7 = Constant vec4<f32> 1.0 2.0 3.0 4.0
%10 = Function void
%11 = Label None
%12 = OutputStore %2 null %7
%13 = EmitVertex 0
%14 = OutputStore %2 null %7
%15 = EmitVertex 0
%16 = Return void null
%17 = FunctionEnd
";
        let so = StreamOutput {
            entries: vec![entry("POSITION", 0, 1, 0), entry("POSITION", 1, 1, 0)],
            strides: vec![8],
            rasterized_stream: None,
        };
        let out = run_on(gs, &so).expect("applies");
        assert_eq!(out.matches("OutputLoad").count(), 4, "{out}");
        assert!(out.contains("DclOutput f32 %1 1 0 0"), "{out}");
        assert!(out.contains("DclOutput f32 %1 2 0 0"), "{out}");
    }
}
