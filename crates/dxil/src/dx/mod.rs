//! DXIL's metadata read into typed structures: shader model, versions, entry points with
//! their signatures and properties, and resources.
//!
//! DXIL describes everything a driver needs besides the code in named metadata
//! (`dx.shaderModel`, `dx.version`, `dx.valver`, `dx.entryPoints`, `dx.resources`,
//! `dx.viewIdState`). [`DxilMetadata::read`] walks those nodes as the DXIL specification
//! lays them out and checks their shapes; a node that does not fit is an
//! [`Error::Metadata`] naming the named metadata, the node and the operand. Metadata this
//! layer does not interpret (`dx.typeAnnotations`, `dx.dxrPayloadAnnotations`, node-shader
//! properties, extension tags) stays reachable through the module and the raw
//! `(tag, node)` lists kept here.

pub mod enums;
mod properties;
mod resources;
mod signature;
#[cfg(test)]
mod tests;

pub use enums::{
    ComponentType, InputPrimitive, InterpolationMode, MeshOutputTopology, PrimitiveTopology,
    ResourceKind, SamplerKind, SemanticKind, ShaderKind, TessellatorDomain,
    TessellatorOutputPrimitive, TessellatorPartitioning,
};
pub use properties::{
    AmplificationState, DomainState, EntryProperties, GeometryState, HullState, MeshState,
};
pub use resources::{Resource, ResourceClass, Resources};
pub use signature::{SignatureElement, Signatures};

use crate::error::Error;
use crate::module::{Constant, MetadataId, MetadataNode, MetadataRef, Module, Type, ValueId};

/// `dx.shaderModel`: the target profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShaderModel {
    /// The stage (`ps`, `vs`, …, `lib`).
    pub kind: ShaderKind,
    /// Major version (6).
    pub major: u32,
    /// Minor version.
    pub minor: u32,
}

/// One `dx.entryPoints` record.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryPoint {
    /// The entry function's value (`None` for a library's placeholder record).
    pub function: Option<ValueId>,
    /// The unmangled name.
    pub name: String,
    /// Input, output and patch-constant (or primitive) signatures.
    pub signatures: Signatures,
    /// The entry's own resource lists (libraries), if given.
    pub resources: Option<Resources>,
    /// Shader properties and capabilities.
    pub properties: EntryProperties,
}

/// The DXIL metadata of a module.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DxilMetadata {
    /// `dx.shaderModel`.
    pub shader_model: Option<ShaderModel>,
    /// `dx.version` (major, minor).
    pub dxil_version: Option<(u32, u32)>,
    /// `dx.valver` (major, minor).
    pub validator_version: Option<(u32, u32)>,
    /// `dx.entryPoints`.
    pub entry_points: Vec<EntryPoint>,
    /// `dx.resources`.
    pub resources: Resources,
    /// `dx.viewIdState`: the serialized view-id dependency data.
    pub view_id_state: Option<Vec<u32>>,
}

/// Reading helpers over a module's metadata: each returns an error naming `context`.
pub(crate) struct Reader<'m> {
    pub m: &'m Module,
}

/// Where in the DXIL metadata a reader is: a path of labels (with numbers), written out
/// only when an error needs it, so reading allocates nothing for it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx<'a> {
    parent: Option<&'a Ctx<'a>>,
    text: &'a str,
    number: Option<u64>,
}

impl<'a> Ctx<'a> {
    /// A path of one label.
    pub fn root(text: &'a str) -> Self {
        Ctx {
            parent: None,
            text,
            number: None,
        }
    }

    /// This path followed by a label.
    pub fn sub(&'a self, text: &'a str) -> Ctx<'a> {
        Ctx {
            parent: Some(self),
            text,
            number: None,
        }
    }

    /// This path followed by a numbered label (`record 3`).
    pub fn item(&'a self, text: &'a str, n: u64) -> Ctx<'a> {
        Ctx {
            parent: Some(self),
            text,
            number: Some(n),
        }
    }
}

impl core::fmt::Display for Ctx<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if let Some(p) = self.parent {
            write!(f, "{p} ")?;
        }
        f.write_str(self.text)?;
        if let Some(n) = self.number {
            write!(f, " {n}")?;
        }
        Ok(())
    }
}

/// The operands of a metadata tuple, borrowed from the module's operand table (where
/// they are stored as id + 1, 0 for null), so reading a tuple copies nothing.
#[derive(Clone, Copy)]
pub(crate) struct Ops<'m> {
    raw: &'m [u64],
}

impl<'m> Ops<'m> {
    fn decode(v: u64) -> MetadataRef {
        v.checked_sub(1).map(|id| MetadataId(id as u32))
    }

    /// Number of operands.
    pub fn len(&self) -> usize {
        self.raw.len()
    }

    /// Operand `i`, `None` past the end.
    pub fn get(&self, i: usize) -> Option<MetadataRef> {
        self.raw.get(i).map(|&v| Self::decode(v))
    }

    /// Operand `i`; the caller has checked the length.
    pub fn op(&self, i: usize) -> MetadataRef {
        Self::decode(self.raw[i])
    }

    /// Every operand in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = MetadataRef> + 'm {
        self.raw.iter().map(|&v| Self::decode(v))
    }

    /// Consecutive operand pairs (a trailing odd operand is left out).
    pub fn pairs(&self) -> impl Iterator<Item = (MetadataRef, MetadataRef)> + 'm {
        self.raw
            .chunks_exact(2)
            .map(|p| (Self::decode(p[0]), Self::decode(p[1])))
    }
}

/// An [`Error::Metadata`].
#[cold]
pub(crate) fn md_error(context: &Ctx<'_>, message: impl Into<String>) -> Error {
    Error::Metadata {
        context: context.to_string(),
        message: message.into(),
    }
}

impl<'m> Reader<'m> {
    /// The operands of tuple `id`.
    pub fn tuple(&self, id: MetadataId, context: &Ctx<'_>) -> Result<Ops<'m>, Error> {
        match self.m.metadata.get(id) {
            Some(MetadataNode::Tuple { operands, .. }) => Ok(Ops {
                raw: self.m.metadata.raw(*operands),
            }),
            _ => Err(md_error(context, format!("!{} is not a tuple", id.0))),
        }
    }

    /// The operands of an optional tuple (null gives `None`).
    pub fn optional_tuple(
        &self,
        r: MetadataRef,
        context: &Ctx<'_>,
    ) -> Result<Option<Ops<'m>>, Error> {
        r.map(|id| self.tuple(id, context)).transpose()
    }

    /// The operand `i` of `ops`.
    pub fn at(&self, ops: Ops<'_>, i: usize, context: &Ctx<'_>) -> Result<MetadataRef, Error> {
        ops.get(i).ok_or_else(|| {
            md_error(
                context,
                format!("has {} operands, operand {i} is missing", ops.len()),
            )
        })
    }

    /// The value a metadata operand wraps.
    pub fn value(&self, r: MetadataRef, context: &Ctx<'_>) -> Result<(Type, ValueId), Error> {
        match r.and_then(|id| self.m.metadata.get(id)) {
            Some(MetadataNode::Value { ty, value }) => Ok((self.m.types.ty(*ty), *value)),
            _ => Err(md_error(context, "is not a value")),
        }
    }

    /// An integer constant operand (sign-extended).
    pub fn int(&self, r: MetadataRef, context: &Ctx<'_>) -> Result<i64, Error> {
        let Some(MetadataNode::Value { value, .. }) = r.and_then(|id| self.m.metadata.get(id))
        else {
            return Err(md_error(context, "is not a value"));
        };
        self.m
            .constant_int(None, *value)
            .ok_or_else(|| md_error(context, "is not an integer constant"))
    }

    /// An integer constant operand that fits `u32` (`-1` reads as `u32::MAX`, as DXIL
    /// writes unbounded ranges).
    pub fn u32(&self, r: MetadataRef, context: &Ctx<'_>) -> Result<u32, Error> {
        let v = self.int(r, context)?;
        u32::try_from(v)
            .or_else(|_| i32::try_from(v).map(|v| v as u32))
            .map_err(|_| md_error(context, format!("value {v} does not fit 32 bits")))
    }

    /// An `i1` operand.
    pub fn bool(&self, r: MetadataRef, context: &Ctx<'_>) -> Result<bool, Error> {
        Ok(self.int(r, context)? != 0)
    }

    /// A floating-point constant operand.
    pub fn float(&self, r: MetadataRef, context: &Ctx<'_>) -> Result<f64, Error> {
        let (ty, v) = self.value(r, context)?;
        match (ty, self.m.constant(None, v)) {
            (Type::Float, Some(Constant::Float(bits))) => {
                Ok(f64::from(f32::from_bits(*bits as u32)))
            }
            (Type::Double, Some(Constant::Float(bits))) => Ok(f64::from_bits(*bits)),
            (Type::Float | Type::Double, Some(Constant::Null)) => Ok(0.0),
            _ => Err(md_error(context, "is not a float constant")),
        }
    }

    /// A string operand.
    pub fn string(&self, r: MetadataRef, context: &Ctx<'_>) -> Result<String, Error> {
        match r.and_then(|id| self.m.metadata.get(id)) {
            Some(MetadataNode::String(s)) => Ok(match std::str::from_utf8(self.m.str(*s)) {
                Ok(text) => text.to_owned(),
                Err(_) => self.m.text(*s).into_owned(),
            }),
            _ => Err(md_error(context, "is not a string")),
        }
    }

    /// The single tuple a named metadata holds (`None` when the name is absent).
    fn named_single(&self, name: &str) -> Result<Option<Ops<'m>>, Error> {
        let Some(n) = self.m.named_metadata(name) else {
            return Ok(None);
        };
        let ctx = Ctx::root(name);
        let Some(first) = self.m.metadata.named_operands(n.operands).next() else {
            return Err(md_error(&ctx, "is empty"));
        };
        self.tuple(first, &ctx).map(Some)
    }

    /// `!{i32 major, i32 minor}`.
    fn version(&self, name: &str) -> Result<Option<(u32, u32)>, Error> {
        let Some(ops) = self.named_single(name)? else {
            return Ok(None);
        };
        let ctx = Ctx::root(name);
        Ok(Some((
            self.u32(self.at(ops, 0, &ctx)?, &ctx.sub("major"))?,
            self.u32(self.at(ops, 1, &ctx)?, &ctx.sub("minor"))?,
        )))
    }
}

impl DxilMetadata {
    /// Reads the DXIL metadata of `m`. Absent named metadata leave their fields empty;
    /// present ones must have the layout the DXIL specification gives.
    pub fn read(m: &Module) -> Result<Self, Error> {
        let r = Reader { m };
        let mut d = DxilMetadata {
            dxil_version: r.version("dx.version")?,
            validator_version: r.version("dx.valver")?,
            ..Default::default()
        };
        if let Some(ops) = r.named_single("dx.shaderModel")? {
            let ctx = Ctx::root("dx.shaderModel");
            let name = r.string(r.at(ops, 0, &ctx)?, &ctx)?;
            d.shader_model = Some(ShaderModel {
                kind: ShaderKind::from_profile(name.as_bytes())
                    .ok_or_else(|| md_error(&ctx, format!("unknown shader model \"{name}\"")))?,
                major: r.u32(r.at(ops, 1, &ctx)?, &ctx)?,
                minor: r.u32(r.at(ops, 2, &ctx)?, &ctx)?,
            });
        }
        if let Some(ops) = r.named_single("dx.resources")? {
            d.resources = Resources::read(&r, ops, &Ctx::root("dx.resources"))?;
        }
        if let Some(n) = m.named_metadata("dx.entryPoints") {
            let root = Ctx::root("dx.entryPoints");
            for (i, id) in m.metadata.named_operands(n.operands).enumerate() {
                let ctx = root.item("entry", i as u64);
                d.entry_points.push(read_entry(&r, id, &ctx)?);
            }
        }
        if let Some(ops) = r.named_single("dx.viewIdState")? {
            let ctx = Ctx::root("dx.viewIdState");
            let (_, v) = r.value(r.at(ops, 0, &ctx)?, &ctx)?;
            let words = match m.constant(None, v) {
                Some(Constant::Data(words)) => m
                    .constants
                    .words(*words)
                    .iter()
                    .map(|&w| w as u32)
                    .collect(),
                Some(Constant::Aggregate(ops)) => m
                    .constants
                    .operands(*ops)
                    .iter()
                    .map(|&e| m.constant_int(None, e).map(|v| v as u32))
                    .collect::<Option<Vec<u32>>>()
                    .ok_or_else(|| md_error(&ctx, "is not an array of integers"))?,
                Some(Constant::Null) => Vec::new(),
                _ => return Err(md_error(&ctx, "is not an array of integers")),
            };
            d.view_id_state = Some(words);
        }
        Ok(d)
    }

    /// The entry point for `function`, if one names it.
    pub fn entry_point(&self, function: ValueId) -> Option<&EntryPoint> {
        self.entry_points
            .iter()
            .find(|e| e.function == Some(function))
    }
}

fn read_entry(r: &Reader<'_>, id: MetadataId, ctx: &Ctx<'_>) -> Result<EntryPoint, Error> {
    let ops = r.tuple(id, ctx)?;
    if ops.len() != 5 {
        return Err(md_error(
            ctx,
            format!("has {} operands, an entry point has 5", ops.len()),
        ));
    }
    let function = match ops.op(0) {
        None => None,
        Some(_) => Some(r.value(ops.op(0), &ctx.sub("function"))?.1),
    };
    let name = r.string(ops.op(1), &ctx.sub("name"))?;
    let sctx = ctx.sub("signatures");
    let signatures = match r.optional_tuple(ops.op(2), &sctx)? {
        Some(s) => Signatures::read(r, s, &sctx)?,
        None => Signatures::default(),
    };
    let rctx = ctx.sub("resources");
    let resources = r
        .optional_tuple(ops.op(3), &rctx)?
        .map(|res| Resources::read(r, res, &rctx))
        .transpose()?;
    let pctx = ctx.sub("properties");
    let properties = match r.optional_tuple(ops.op(4), &pctx)? {
        Some(p) => EntryProperties::read(r, p, &pctx)?,
        None => EntryProperties::default(),
    };
    Ok(EntryPoint {
        function,
        name,
        signatures,
        resources,
        properties,
    })
}
