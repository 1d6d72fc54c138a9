//! The shaders of a graphics run: compiled from the corpus once per case (cached by path,
//! stage, descriptor-set offset and stream-output declaration), or the runner's hand-written
//! pass-through vertex shader.
//!
//! Each stage gets its own descriptor sets (the binding model's `set_offset`), so that a
//! register bound to different data for different stages (D3D12 shader visibility, D3D11
//! per-stage slots) never shares a Vulkan binding. The last stage before the rasterizer is
//! compiled with the run's stream-output declaration (`dxspv::Options::stream_output`).
//! A shader missing from the corpus is a skip; a compile error (of any format, DXIL
//! included) is a failure.

use super::case::{StreamOutputDesc, PASSTHROUGH_VS};
use dxspv::ir::passes::stream_output::{StreamOutput, StreamOutputEntry};
use dxspv::spirv::{InterfaceVariable, Reflection};
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

/// A compiled stage.
#[derive(Debug)]
pub struct Shader {
    /// SPIR-V words.
    pub spirv: Vec<u32>,
    /// Bindings and interface.
    pub reflection: Reflection,
}

/// Why a shader cannot be used.
#[derive(Clone, Debug)]
pub enum Refusal {
    /// Not run, with the reason (the file is not in the corpus).
    Skip(String),
    /// A failure (unreadable file, compile error).
    Fail(String),
}

type Key = (String, u32, Option<StreamOutputDesc>);

/// Compiled shaders of one case, by path, set offset and stream-output declaration.
pub struct ShaderCache<'a> {
    corpora: &'a [PathBuf],
    map: HashMap<Key, Result<Rc<Shader>, Refusal>>,
}

impl<'a> ShaderCache<'a> {
    /// An empty cache reading shaders from `corpora` (first match wins).
    pub fn new(corpora: &'a [PathBuf]) -> Self {
        ShaderCache {
            corpora,
            map: HashMap::new(),
        }
    }

    /// The shader at `path` compiled with its descriptor sets from `set_offset` and, for the
    /// last stage before the rasterizer, the stream-output declaration `so`.
    pub fn get(
        &mut self,
        path: &str,
        set_offset: u32,
        so: Option<&StreamOutputDesc>,
    ) -> Result<Rc<Shader>, Refusal> {
        let key = (path.to_string(), set_offset, so.cloned());
        if let Some(r) = self.map.get(&key) {
            return r.clone();
        }
        let r = self.compile(path, set_offset, so).map(Rc::new);
        self.map.insert(key, r.clone());
        r
    }

    fn compile(
        &self,
        path: &str,
        set_offset: u32,
        so: Option<&StreamOutputDesc>,
    ) -> Result<Shader, Refusal> {
        if path == PASSTHROUGH_VS {
            return Ok(passthrough());
        }
        let Some(file) = self
            .corpora
            .iter()
            .map(|c| c.join(path))
            .find(|p| p.is_file())
        else {
            return Err(Refusal::Skip(format!(
                "shader {path} not found in the corpus"
            )));
        };
        let bytes = std::fs::read(&file)
            .map_err(|e| Refusal::Fail(format!("cannot read {}: {e}", file.display())))?;
        let mut opts = dxspv::Options::default();
        opts.spirv.bindings.set_offset = set_offset;
        opts.stream_output = so.map(stream_output_option);
        match dxspv::compile(&bytes, &opts) {
            Ok(out) => Ok(Shader {
                spirv: out.spirv,
                reflection: out.reflection,
            }),
            Err(e) => Err(Refusal::Fail(format!("{path}: compile: {e}"))),
        }
    }
}

/// The case's stream-output declaration as the compiler's option.
pub fn stream_output_option(so: &StreamOutputDesc) -> StreamOutput {
    StreamOutput {
        entries: so
            .entries
            .iter()
            .map(|e| StreamOutputEntry {
                stream: e.stream,
                semantic: e.semantic.clone(),
                semantic_index: e.index,
                start_component: e.start_component,
                component_count: e.component_count,
                slot: e.slot,
            })
            .collect(),
        strides: so.strides.clone(),
        rasterized_stream: so.rasterized_stream,
    }
}

/// The pass-through vertex shader with its reflection: `POSITION0` at location 0.
fn passthrough() -> Shader {
    Shader {
        spirv: passthrough_vs(),
        reflection: Reflection {
            inputs: vec![InterfaceVariable {
                location: Some(0),
                component: 0,
                builtin: None,
                semantic: Some(("POSITION".into(), 0)),
                patch: false,
                scalar: dxspv::spirv::ScalarKind::Float,
                bits: 32,
                components: 4,
                array: Vec::new(),
            }],
            ..Reflection::default()
        },
    }
}

/// Hand-assembled SPIR-V 1.0 vertex shader copying a `vec4` input at location 0 to `Position`.
pub fn passthrough_vs() -> Vec<u32> {
    const fn op(words: u32, opcode: u32) -> u32 {
        (words << 16) | opcode
    }
    // Result ids.
    let (main, inp, out, void, fnty, f32t, v4, pin, pout, label, x) =
        (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
    vec![
        0x0723_0203,
        0x0001_0000,
        0,
        12,
        0,
        op(2, 17), // OpCapability Shader
        1,
        op(3, 14), // OpMemoryModel Logical GLSL450
        0,
        1,
        op(7, 15), // OpEntryPoint Vertex %main "main" %in %out
        0,
        main,
        u32::from_le_bytes(*b"main"),
        0,
        inp,
        out,
        op(4, 71), // OpDecorate %in Location 0
        inp,
        30,
        0,
        op(4, 71), // OpDecorate %out BuiltIn Position
        out,
        11,
        0,
        op(2, 19), // OpTypeVoid
        void,
        op(3, 33), // OpTypeFunction %void
        fnty,
        void,
        op(3, 22), // OpTypeFloat 32
        f32t,
        32,
        op(4, 23), // OpTypeVector %f32 4
        v4,
        f32t,
        4,
        op(4, 32), // OpTypePointer Input %v4
        pin,
        1,
        v4,
        op(4, 32), // OpTypePointer Output %v4
        pout,
        3,
        v4,
        op(4, 59), // OpVariable Input
        pin,
        inp,
        1,
        op(4, 59), // OpVariable Output
        pout,
        out,
        3,
        op(5, 54), // OpFunction %void None %fn
        void,
        main,
        0,
        fnty,
        op(2, 248), // OpLabel
        label,
        op(4, 61), // OpLoad %v4 %in
        v4,
        x,
        inp,
        op(3, 62), // OpStore %out %x
        out,
        x,
        op(1, 253), // OpReturn
        op(1, 56),  // OpFunctionEnd
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-assembled pass-through shader is valid SPIR-V (checked when `spirv-val` is
    /// installed).
    #[test]
    fn passthrough_vs_validates() {
        let words = passthrough_vs();
        assert_eq!(words[0], 0x0723_0203);
        dxspv_testkit::assert_spirv_valid("pass-through vertex shader", &words);
    }
}
