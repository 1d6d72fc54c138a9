//! The command-line form of the state Direct3D keeps outside the shader and a translation
//! needs: the Direct3D 9 application state (`--d3d9-*`), the class instances bound to an SM 5.0
//! shader's interface slots (`--class-instance`) and the stream-output declaration
//! (`--stream-output`, `--so-stride`, `--rasterized-stream`).
//!
//! Each flag's value is parsed by clap (a malformed one is bad usage, exit 2, naming the flag);
//! whether the state fits the shader is the compile's to say (exit 1).

use dxspv::dxbc::{InstanceData, InterfaceBinding};
use dxspv::ir::passes::stream_output::{StreamOutput, StreamOutputEntry};
use dxspv::sm3::{DynamicState, FloatEmulation, TextureType};

/// Direct3D 9 state a D3D9 shader is compiled for (ignored for DXBC and DXIL). `Default` is
/// what clap gives without these flags.
#[derive(clap::Args, Default)]
pub struct D3d9Args {
    /// The texture bound to sampler s<N>, for shaders that do not declare its type (ps_1_x,
    /// `dcl` without a type): `N=2d`, `N=cube`, `N=volume`, `N=1d` or `N=unknown` (as 2D).
    /// Repeatable; default 2d.
    #[arg(long = "d3d9-sampler-type", value_name = "N=TYPE", value_parser = parse_sampler_type)]
    pub sampler_types: Vec<(usize, TextureType)>,
    /// Sampler s<N> is bound to a depth texture with shadow comparison (D16, D24X8, D24S8).
    /// Repeatable.
    #[arg(long = "d3d9-depth-compare", value_name = "N", value_parser = clap::value_parser!(u32).range(0..16))]
    pub depth_compare: Vec<u32>,
    /// `D3DRS_SHADEMODE` is `D3DSHADE_FLAT`: colour inputs take the provoking vertex's value.
    #[arg(long = "d3d9-flat-shading")]
    pub flat_shading: bool,
    /// Direct3D 9's `0 * x = 0` for every product (strict), only inside dot products and the
    /// like (fast), or IEEE arithmetic (off).
    #[arg(
        long = "d3d9-float-emulation",
        value_name = "MODE",
        value_enum,
        default_value = "strict"
    )]
    pub float_emulation: FloatEmulationArg,
    /// The device does software vertex processing: vertex shaders have 8192 float constants.
    #[arg(long = "d3d9-software-vertex-processing")]
    pub software_vertex_processing: bool,
    /// Fixed-function states the module emulates so the host can change them after compiling
    /// (repeatable): `alpha-test`, `fog`, `clip-planes` or `all`. Left out, a state is compiled
    /// as a fresh device has it (off) and costs nothing.
    #[arg(long = "d3d9-dynamic-state", value_name = "STATE", value_enum)]
    pub dynamic_state: Vec<DynamicStateArg>,
}

/// `--d3d9-dynamic-state`'s values.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum DynamicStateArg {
    /// The alpha test (pixel shaders).
    AlphaTest,
    /// Fog (pixel shaders before 3.0).
    Fog,
    /// User clip planes (vertex shaders).
    ClipPlanes,
    /// Every state above.
    All,
}

/// `--d3d9-float-emulation`'s values.
#[derive(Clone, Copy, Default, clap::ValueEnum)]
pub enum FloatEmulationArg {
    /// Every product follows Direct3D 9's zero rule.
    #[default]
    Strict,
    /// The zero rule only inside instructions that hide products.
    Fast,
    /// IEEE arithmetic everywhere.
    Off,
}

impl D3d9Args {
    /// Writes the state into `opts`.
    pub fn apply(&self, opts: &mut dxspv::sm3::Options) {
        for &(sampler, t) in &self.sampler_types {
            // The parser keeps the sampler below 16.
            if let Some(slot) = opts.sampler_types.get_mut(sampler) {
                *slot = t;
            }
        }
        opts.depth_compare_samplers = self.depth_compare.iter().fold(0, |m, s| m | 1 << s);
        opts.flat_shading = self.flat_shading;
        opts.float_emulation = match self.float_emulation {
            FloatEmulationArg::Strict => FloatEmulation::Strict,
            FloatEmulationArg::Fast => FloatEmulation::Fast,
            FloatEmulationArg::Off => FloatEmulation::Off,
        };
        opts.software_vertex_processing = self.software_vertex_processing;
        opts.dynamic_state = self
            .dynamic_state
            .iter()
            .map(|s| match s {
                DynamicStateArg::AlphaTest => DynamicState::ALPHA_TEST,
                DynamicStateArg::Fog => DynamicState::FOG,
                DynamicStateArg::ClipPlanes => DynamicState::CLIP_PLANES,
                DynamicStateArg::All => DynamicState::ALL,
            })
            .fold(DynamicState::NONE, |set, s| set | s);
    }
}

/// Parses `N=TYPE` for `--d3d9-sampler-type`.
fn parse_sampler_type(s: &str) -> Result<(usize, TextureType), String> {
    let (n, t) = s
        .split_once('=')
        .ok_or_else(|| format!("'{s}' is not N=TYPE (e.g. 0=cube)"))?;
    let sampler: usize = n
        .parse()
        .ok()
        .filter(|&n| n < 16)
        .ok_or_else(|| format!("'{n}' is not a sampler number (0 to 15)"))?;
    let texture = match t.to_ascii_lowercase().as_str() {
        "2d" => TextureType::Texture2D,
        "cube" => TextureType::Cube,
        "volume" | "3d" => TextureType::Volume,
        "1d" => TextureType::Texture1D,
        "unknown" => TextureType::Unknown,
        _ => {
            return Err(format!(
                "'{t}' is not a texture type (2d, cube, volume, 1d, unknown)"
            ))
        }
    };
    Ok((sampler, texture))
}

/// Pipeline state Vulkan puts in the shader: class instances and stream output. `Default` is
/// what clap gives without these flags.
#[derive(clap::Args, Default)]
pub struct PipelineArgs {
    /// The class instance bound to the next interface slot of an SM 5.0 shader with class
    /// linkage (repeat in slot order): comma-separated `ft=N` (function table; default the
    /// first the slot lists), `cb=N` (constant buffer slot), `offset=N` (its 16-byte vector),
    /// `t=N` (first texture), `s=N` (first sampler), each default 0; `default` for all
    /// defaults. As `ID3D11ClassLinkage::CreateClassInstance` takes them.
    #[arg(long = "class-instance", value_name = "ft=N,cb=N,offset=N,t=N,s=N", value_parser = parse_class_instance)]
    pub class_instances: Vec<InterfaceBinding>,
    /// One stream-output declaration entry (repeat in declaration order), as
    /// `D3D11_SO_DECLARATION_ENTRY`: `[STREAM:]SEMANTIC[INDEX][.COMPONENTS][:SLOT]`, e.g.
    /// `SV_Position.xyzw`, `1:TEXCOORD2.xy:1`; `_` as the semantic is a gap
    /// (`_.xyz`: three components). The components are consecutive (default xyzw).
    #[arg(long = "stream-output", value_name = "ENTRY", value_parser = parse_stream_output_entry)]
    pub stream_output: Vec<StreamOutputEntry>,
    /// The byte stride of a stream-output buffer slot, `SLOT=BYTES` (repeatable); default the
    /// bytes the slot's entries write, as Direct3D 10 computes it.
    #[arg(long = "so-stride", value_name = "SLOT=BYTES", value_parser = parse_stride, requires = "stream_output")]
    pub so_strides: Vec<(u32, u32)>,
    /// The stream the rasterizer draws (0-3), or `none` (rasterizer discard). Default 0.
    #[arg(long = "rasterized-stream", value_name = "N|none", value_parser = parse_rasterized_stream, requires = "stream_output")]
    pub rasterized_stream: Option<RasterizedStream>,
}

/// `--rasterized-stream`'s value: a stream, or `None` for rasterizer discard.
#[derive(Clone, Copy, Debug)]
pub struct RasterizedStream(pub Option<u32>);

impl PipelineArgs {
    /// Writes the state into `opts`.
    pub fn apply(&self, opts: &mut dxspv::Options) {
        opts.class_linkage = self.class_instances.clone();
        if self.stream_output.is_empty() {
            return;
        }
        let slots = dxspv::ir::passes::stream_output::MAX_BUFFERS as usize;
        let mut strides = vec![0u32; slots];
        for e in &self.stream_output {
            // The parser keeps slots below MAX_BUFFERS and counts at 4 or less.
            if let Some(s) = strides.get_mut(e.slot as usize) {
                *s = s.saturating_add(e.component_count * 4);
            }
        }
        for &(slot, bytes) in &self.so_strides {
            if let Some(s) = strides.get_mut(slot as usize) {
                *s = bytes;
            }
        }
        // Slots past the last one used need no stride.
        let used = strides.iter().rposition(|&s| s != 0).map_or(0, |i| i + 1);
        strides.truncate(used);
        opts.stream_output = Some(StreamOutput {
            entries: self.stream_output.clone(),
            strides,
            rasterized_stream: self.rasterized_stream.map_or(Some(0), |r| r.0),
        });
    }
}

/// Parses a number below `limit` for the part of a flag's value called `what`.
fn number_below(s: &str, limit: u32, what: &str) -> Result<u32, String> {
    s.parse()
        .ok()
        .filter(|&n| n < limit)
        .ok_or_else(|| format!("{what} '{s}' is not a number below {limit}"))
}

/// Parses `--class-instance`.
fn parse_class_instance(s: &str) -> Result<InterfaceBinding, String> {
    let mut b = InterfaceBinding::default();
    if s == "default" {
        return Ok(b);
    }
    for part in s.split(',') {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| format!("'{part}' is not KEY=N (keys ft, cb, offset, t, s)"))?;
        let i: &mut InstanceData = &mut b.instance;
        match key {
            "ft" => b.function_table = Some(number_below(value, u32::MAX, "ft")?),
            "cb" => i.constant_buffer = number_below(value, 14, "cb")?,
            "offset" => i.constant_vector_offset = number_below(value, 4096, "offset")?,
            "t" => i.texture_offset = number_below(value, 128, "t")?,
            "s" => i.sampler_offset = number_below(value, 16, "s")?,
            _ => return Err(format!("'{key}' is not ft, cb, offset, t or s")),
        }
    }
    Ok(b)
}

/// Parses a `--stream-output` entry: `[STREAM:]SEMANTIC[INDEX][.COMPONENTS][:SLOT]`.
fn parse_stream_output_entry(s: &str) -> Result<StreamOutputEntry, String> {
    let parts: Vec<&str> = s.split(':').collect();
    let (stream, element, slot) = match parts.as_slice() {
        [e] => ("0", *e, "0"),
        [a, b] if a.bytes().all(|c| c.is_ascii_digit()) => (*a, *b, "0"),
        [e, slot] => ("0", *e, *slot),
        [stream, e, slot] => (*stream, *e, *slot),
        _ => return Err(format!("'{s}' is not [STREAM:]SEMANTIC[.xyzw][:SLOT]")),
    };
    let stream = number_below(stream, 4, "stream")?;
    let slot = number_below(slot, 4, "slot")?;
    let (name, mask) = element.split_once('.').unwrap_or((element, "xyzw"));
    let components: Vec<u32> = mask
        .chars()
        .map(|c| match c {
            'x' | 'r' => Ok(0),
            'y' | 'g' => Ok(1),
            'z' | 'b' => Ok(2),
            'w' | 'a' => Ok(3),
            _ => Err(format!("'{mask}' is not a component list (xyzw)")),
        })
        .collect::<Result<_, _>>()?;
    let start = *components
        .first()
        .ok_or_else(|| format!("'{s}' names no components"))?;
    if components.iter().zip(start..).any(|(&c, want)| c != want) {
        return Err(format!(
            "'{mask}': stream output captures consecutive components"
        ));
    }
    let count = components.len() as u32;
    let semantic = if name == "_" {
        None
    } else {
        let digits = name.len() - name.bytes().rev().take_while(u8::is_ascii_digit).count();
        let (base, index) = name.split_at(digits);
        if base.is_empty() {
            return Err(format!("'{name}' has no semantic name"));
        }
        let index = if index.is_empty() {
            0
        } else {
            number_below(index, u32::MAX, "semantic index")?
        };
        Some((base.to_string(), index))
    };
    let (semantic, semantic_index) = match semantic {
        Some((name, index)) => (Some(name), index),
        None => (None, 0),
    };
    Ok(StreamOutputEntry {
        stream,
        semantic,
        semantic_index,
        start_component: start,
        component_count: count,
        slot,
    })
}

/// Parses `--so-stride SLOT=BYTES`.
fn parse_stride(s: &str) -> Result<(u32, u32), String> {
    let (slot, bytes) = s
        .split_once('=')
        .ok_or_else(|| format!("'{s}' is not SLOT=BYTES"))?;
    Ok((
        number_below(slot, 4, "slot")?,
        number_below(bytes, 2049, "stride")?,
    ))
}

/// Parses `--rasterized-stream`.
fn parse_rasterized_stream(s: &str) -> Result<RasterizedStream, String> {
    if s == "none" {
        return Ok(RasterizedStream(None));
    }
    number_below(s, 4, "stream").map(|n| RasterizedStream(Some(n)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_output_entries_parse_like_their_d3d_declarations() {
        let e = parse_stream_output_entry("1:TEXCOORD12.yz:3").unwrap();
        assert_eq!(
            e,
            StreamOutputEntry {
                stream: 1,
                semantic: Some("TEXCOORD".into()),
                semantic_index: 12,
                start_component: 1,
                component_count: 2,
                slot: 3,
            }
        );
        let e = parse_stream_output_entry("SV_Position").unwrap();
        assert_eq!((e.stream, e.slot, e.semantic_index), (0, 0, 0));
        assert_eq!((e.start_component, e.component_count), (0, 4));
        let e = parse_stream_output_entry("_.xyz:2").unwrap();
        assert_eq!((e.semantic, e.component_count, e.slot), (None, 3, 2));
        assert_eq!(parse_stream_output_entry("2:COLOR").unwrap().stream, 2);
        for bad in ["4:A", "A:4", "A.xz", "A.q", "7", "A.", "a:b:c:d"] {
            assert!(parse_stream_output_entry(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn class_instances_and_sampler_types_parse_with_their_limits() {
        let b = parse_class_instance("ft=2,cb=13,offset=5,t=127,s=15").unwrap();
        assert_eq!(b.function_table, Some(2));
        assert_eq!(b.instance.components(), [13, 5, 127, 15]);
        assert_eq!(
            parse_class_instance("default").unwrap(),
            InterfaceBinding::default()
        );
        for bad in ["cb=14", "t=128", "s=16", "x=1", "cb"] {
            assert!(parse_class_instance(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_sampler_type("15=Volume").unwrap(),
            (15, TextureType::Volume)
        );
        assert!(parse_sampler_type("16=cube").is_err());
        assert!(parse_sampler_type("0=rect").is_err());
    }

    #[test]
    fn strides_default_to_the_bytes_written() {
        let args = PipelineArgs {
            class_instances: Vec::new(),
            stream_output: vec![
                parse_stream_output_entry("A.xyzw:0").unwrap(),
                parse_stream_output_entry("_.xy:1").unwrap(),
                parse_stream_output_entry("B.x:1").unwrap(),
            ],
            so_strides: vec![(0, 32)],
            rasterized_stream: Some(RasterizedStream(None)),
        };
        let mut opts = dxspv::Options::default();
        args.apply(&mut opts);
        let so = opts.stream_output.unwrap();
        assert_eq!(so.strides, [32, 12]);
        assert_eq!(so.rasterized_stream, None);
        assert_eq!(so.entries.len(), 3);
    }
}
