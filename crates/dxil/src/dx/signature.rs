//! Signature element records of an entry point.
//!
//! Each element is `!{i32 id, !"name", i8 component type, i8 semantic kind, !{indices},
//! i8 interpolation, i32 rows, i8 cols, i32 start row, i8 start col, !{tag, value, ...}}`;
//! the tags carry the output stream (0), the dynamically indexed components (2) and the
//! components the shader reads or writes (3).

use crate::dx::enums::{ComponentType, InterpolationMode, SemanticKind};
use crate::dx::{md_error, Ctx, Ops, Reader};
use crate::error::Error;
use crate::module::MetadataRef;
use smallvec::SmallVec;

/// One signature element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureElement {
    /// The element id `loadInput`/`storeOutput` name.
    pub id: u32,
    /// Semantic name (`SV_Position`, `TEXCOORD`).
    pub name: String,
    /// Component type.
    pub component_type: ComponentType,
    /// System value.
    pub semantic_kind: SemanticKind,
    /// Semantic index of each row.
    pub semantic_indices: SmallVec<[u32; 4]>,
    /// Interpolation mode.
    pub interpolation: InterpolationMode,
    /// Rows.
    pub rows: u32,
    /// Columns (components per row).
    pub cols: u8,
    /// Packed start row (-1 when not allocated).
    pub start_row: i32,
    /// Packed start column (-1 when not allocated).
    pub start_col: i8,
    /// Geometry shader output stream (tag 0; 0 when absent).
    pub output_stream: u32,
    /// Components indexed dynamically (tag 2), as a mask.
    pub dynamic_index_mask: u32,
    /// Components the shader uses (tag 3), as a mask; `None` when the record has no tag.
    pub usage_mask: Option<u32>,
    /// Every `(tag, value)` of the extension list, known or not.
    pub tags: SmallVec<[(u32, MetadataRef); 4]>,
}

/// The three signatures of an entry point.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Signatures {
    /// Input signature.
    pub input: Vec<SignatureElement>,
    /// Output signature.
    pub output: Vec<SignatureElement>,
    /// Patch constant signature (hull and domain shaders) or primitive signature (mesh
    /// shaders).
    pub patch_constant: Vec<SignatureElement>,
}

impl Signatures {
    /// Reads `!{input, output, patch constant}` (each a list or null).
    pub(crate) fn read(r: &Reader<'_>, ops: Ops<'_>, ctx: &Ctx<'_>) -> Result<Self, Error> {
        let mut lists: [Vec<SignatureElement>; 3] = Default::default();
        for (i, list) in lists.iter_mut().enumerate() {
            let which = ["input", "output", "patch constant"][i];
            let c = ctx.sub(which);
            let Some(elements) = r.optional_tuple(ops.get(i).flatten(), &c)? else {
                continue;
            };
            for (k, e) in elements.iter().enumerate() {
                let c = c.item("element", k as u64);
                let Some(id) = e else {
                    return Err(md_error(&c, "is null"));
                };
                list.push(read_element(r, r.tuple(id, &c)?, &c)?);
            }
        }
        let [input, output, patch_constant] = lists;
        Ok(Signatures {
            input,
            output,
            patch_constant,
        })
    }
}

fn read_element(r: &Reader<'_>, ops: Ops<'_>, ctx: &Ctx<'_>) -> Result<SignatureElement, Error> {
    if ops.len() < 10 {
        return Err(md_error(
            ctx,
            format!("has {} operands, an element has 11", ops.len()),
        ));
    }
    let field = |_i: usize, what: &'static str| ctx.sub(what);
    let small = |v: i64, what: &'static str| -> Result<u8, Error> {
        u8::try_from(v).map_err(|_| md_error(&field(0, what), format!("value {v} out of range")))
    };
    let semantic_indices = match r.optional_tuple(ops.op(4), &field(4, "semantic indices"))? {
        Some(list) => list
            .iter()
            .map(|i| r.u32(i, &field(4, "semantic index")))
            .collect::<Result<SmallVec<_>, _>>()?,
        None => SmallVec::new(),
    };
    let mut element = SignatureElement {
        id: r.u32(ops.op(0), &field(0, "id"))?,
        name: r.string(ops.op(1), &field(1, "name"))?,
        component_type: ComponentType::from_u32(u32::from(small(
            r.int(ops.op(2), &field(2, "component type"))?,
            "component type",
        )?)),
        semantic_kind: SemanticKind::from_u32(u32::from(small(
            r.int(ops.op(3), &field(3, "semantic kind"))?,
            "semantic kind",
        )?)),
        semantic_indices,
        interpolation: InterpolationMode::from_u32(u32::from(small(
            r.int(ops.op(5), &field(5, "interpolation"))?,
            "interpolation",
        )?)),
        rows: r.u32(ops.op(6), &field(6, "rows"))?,
        cols: small(r.int(ops.op(7), &field(7, "columns"))?, "columns")?,
        start_row: i32::try_from(r.int(ops.op(8), &field(8, "start row"))?)
            .map_err(|_| md_error(&field(8, "start row"), "out of range"))?,
        start_col: i8::try_from(r.int(ops.op(9), &field(9, "start column"))?)
            .map_err(|_| md_error(&field(9, "start column"), "out of range"))?,
        output_stream: 0,
        dynamic_index_mask: 0,
        usage_mask: None,
        tags: SmallVec::new(),
    };
    if let Some(tags) = r.optional_tuple(ops.get(10).flatten(), &field(10, "tags"))? {
        if tags.len() % 2 != 0 {
            return Err(md_error(
                &field(10, "tags"),
                "has an odd number of operands",
            ));
        }
        for (key, val) in tags.pairs() {
            let tag = r.u32(key, &field(10, "tag"))?;
            match tag {
                0 => element.output_stream = r.u32(val, &field(10, "output stream"))?,
                2 => element.dynamic_index_mask = r.u32(val, &field(10, "dynamic index mask"))?,
                3 => element.usage_mask = Some(r.u32(val, &field(10, "usage mask"))?),
                _ => {}
            }
            element.tags.push((tag, val));
        }
    }
    Ok(element)
}
