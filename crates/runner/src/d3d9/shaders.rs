//! The shaders of a Direct3D 9 run: corpus shaders translated by `dxspv::compile` with the
//! D3D9 frontend's compile-time options, and the fixed-function stand-ins compiled from IR
//! text, cached per case.
//!
//! Each stage gets its own descriptor sets: the vertex shader's register spaces 0 (constant
//! buffers, `D3DVERTEXTEXTURESAMPLER` textures are space 1) start at set 0, the pixel
//! shader's at set [`PS_SET_OFFSET`], so the two stages' constant buffers `b0`-`b2` never
//! share a binding.

use crate::graphics::shaders::Refusal;
use dxspv::sm3::TextureType;
use dxspv::spirv::Reflection;
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

/// Skip reason of a run while `dxspv::compile` has no D3D9 frontend.
pub const D3D9_SKIP: &str = "D3D9 frontend not landed";

/// Descriptor set of the pixel shader's register space 0 (the vertex shader uses sets 0
/// and 1).
pub(super) const PS_SET_OFFSET: u32 = 2;

/// Where a stage's code comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Source {
    /// A corpus shader (path relative to the corpus folder).
    Corpus(String),
    /// A fixed-function stand-in as IR text.
    Ir(String),
}

/// The compile-time options a translation depends on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Variant {
    /// Pixel shader: `D3DSHADE_FLAT`.
    pub(super) flat: bool,
    /// Texture type per sampler the shader does not declare (`ps_1_x`).
    pub(super) sampler_types: [TextureType; 16],
    /// `set_offset` of the binding model.
    pub(super) set_offset: u32,
}

/// A compiled stage.
#[derive(Debug)]
pub(super) struct Shader {
    /// SPIR-V words.
    pub(super) spirv: Vec<u32>,
    /// Bindings, interface, spec constants and push data.
    pub(super) reflection: Reflection,
}

/// Compiled shaders of one case.
pub(super) struct ShaderCache<'a> {
    corpora: &'a [PathBuf],
    map: HashMap<(Source, Variant), Result<Rc<Shader>, Refusal>>,
}

impl<'a> ShaderCache<'a> {
    /// An empty cache reading corpus shaders from `corpora` (first match wins).
    pub(super) fn new(corpora: &'a [PathBuf]) -> Self {
        ShaderCache {
            corpora,
            map: HashMap::new(),
        }
    }

    /// `source` compiled for `variant`.
    pub(super) fn get(
        &mut self,
        source: &Source,
        variant: &Variant,
    ) -> Result<Rc<Shader>, Refusal> {
        let key = (source.clone(), variant.clone());
        if let Some(r) = self.map.get(&key) {
            return r.clone();
        }
        let r = self.compile(source, variant).map(Rc::new);
        self.map.insert(key, r.clone());
        r
    }

    fn compile(&self, source: &Source, variant: &Variant) -> Result<Shader, Refusal> {
        let mut opts = dxspv::Options::default();
        opts.spirv.bindings.set_offset = variant.set_offset;
        opts.d3d9.flat_shading = variant.flat;
        opts.d3d9.sampler_types = variant.sampler_types;
        // One translation for every draw state: alpha test, fog and clip planes through the
        // contract's spec constants, push constants and state buffer.
        opts.d3d9.dynamic_state = dxspv::sm3::DynamicState::ALL;
        let (what, result) = match source {
            Source::Ir(text) => (
                "fixed-function stand-in",
                dxspv::compile_ir_text(text, &opts),
            ),
            Source::Corpus(path) => {
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
                (path.as_str(), dxspv::compile(&bytes, &opts))
            }
        };
        match result {
            Ok(out) => Ok(Shader {
                spirv: out.spirv,
                reflection: out.reflection,
            }),
            Err(dxspv::Error::Unsupported(dxspv::Format::D3d9)) => {
                Err(Refusal::Skip(D3D9_SKIP.into()))
            }
            Err(e) => Err(Refusal::Fail(format!("{what}: compile: {e}"))),
        }
    }
}
