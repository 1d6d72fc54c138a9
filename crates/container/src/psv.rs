//! `PSV0`: pipeline state validation data of a DXIL shader.
//!
//! The Direct3D 12 runtime checks a pipeline against this part without parsing the DXIL:
//! stage information, the resource bindings, the signatures in packed form, and which
//! outputs depend on the view id and on which inputs. Layout (little-endian): the size of
//! the runtime info, the runtime info (its size gives the version: 24 bytes for version 0,
//! 36 for 1, 48 for 2, 52 for 3), the resource count and, when there are resources, the
//! record size and the records (16 bytes in versions 0–1, 24 from 2 on). Versions 1 and
//! later continue with a string table, a semantic index table, the signature elements,
//! the view-id masks and the input-to-output dependency tables. Every count is checked
//! against the part's size before anything is allocated.

use crate::error::Error;
use crate::partread::PartReader;
use crate::FourCC;

/// Stage-specific runtime information (the union at the start of the runtime info).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageInfo {
    /// Vertex shader.
    Vertex {
        /// Writes `SV_Position`.
        output_position_present: bool,
    },
    /// Hull shader.
    Hull {
        /// Input control points.
        input_control_points: u32,
        /// Output control points.
        output_control_points: u32,
        /// Tessellator domain.
        domain: u32,
        /// Tessellator output primitive.
        output_primitive: u32,
    },
    /// Domain shader.
    Domain {
        /// Input control points.
        input_control_points: u32,
        /// Writes `SV_Position`.
        output_position_present: bool,
        /// Tessellator domain.
        domain: u32,
    },
    /// Geometry shader.
    Geometry {
        /// Input primitive.
        input_primitive: u32,
        /// Output topology.
        output_topology: u32,
        /// Streams written.
        output_stream_mask: u32,
        /// Writes `SV_Position`.
        output_position_present: bool,
    },
    /// Pixel shader.
    Pixel {
        /// Writes depth.
        depth_output: bool,
        /// Runs per sample.
        sample_frequency: bool,
    },
    /// Mesh shader.
    Mesh {
        /// Group-shared bytes used.
        group_shared_bytes_used: u32,
        /// Group-shared bytes that depend on the view id.
        group_shared_bytes_dependent_on_view_id: u32,
        /// Payload size in bytes.
        payload_size: u32,
        /// Maximum output vertices.
        max_output_vertices: u16,
        /// Maximum output primitives.
        max_output_primitives: u16,
    },
    /// Amplification shader.
    Amplification {
        /// Payload size in bytes.
        payload_size: u32,
    },
    /// A stage without stage information (compute, library, …).
    None,
}

/// One resource binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResourceBinding {
    /// `PSVResourceType`: 1 sampler, 2 CBV, 3–5 typed/raw/structured SRV, 6–9
    /// typed/raw/structured/structured-with-counter UAV.
    pub resource_type: u32,
    /// Register space.
    pub space: u32,
    /// First register.
    pub lower_bound: u32,
    /// Last register (`u32::MAX` for unbounded).
    pub upper_bound: u32,
    /// `PSVResourceKind` (the shape), version 2 and later.
    pub kind: Option<u32>,
    /// Flags (bit 0: used by 64-bit atomics), version 2 and later.
    pub flags: Option<u32>,
}

/// One packed signature element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PsvSignatureElement {
    /// Semantic name.
    pub name: String,
    /// Semantic index of each row.
    pub semantic_indices: Vec<u32>,
    /// Rows.
    pub rows: u8,
    /// Start row (meaningful when `allocated`).
    pub start_row: u8,
    /// Columns.
    pub cols: u8,
    /// Start column (meaningful when `allocated`).
    pub start_col: u8,
    /// Whether the element has a packing location.
    pub allocated: bool,
    /// `DXIL::SemanticKind`.
    pub semantic_kind: u8,
    /// `DXIL::ComponentType` (the container's program signature type).
    pub component_type: u8,
    /// `DXIL::InterpolationMode`.
    pub interpolation_mode: u8,
    /// Components indexed dynamically.
    pub dynamic_index_mask: u8,
    /// Geometry shader output stream.
    pub output_stream: u8,
}

/// The `PSV0` part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipelineStateValidation {
    /// Version (0 to 3), from the runtime info size.
    pub version: u32,
    /// The runtime info size as stored.
    pub runtime_info_size: u32,
    /// The 16 bytes of stage information, undecoded (see [`Self::stage_info`]).
    pub stage_bytes: [u8; 16],
    /// Minimum wave lane count the shader needs (0 = any).
    pub minimum_wave_lane_count: u32,
    /// Maximum wave lane count the shader can use (`u32::MAX` = any).
    pub maximum_wave_lane_count: u32,
    /// `DXIL::ShaderKind` (version 1+).
    pub shader_stage: Option<u8>,
    /// Uses `SV_ViewID` (version 1+).
    pub uses_view_id: bool,
    /// The 16-bit union of version 1: a geometry shader's maximum vertex count, or the
    /// patch-constant/primitive vectors (low byte) and a mesh shader's output topology
    /// (high byte).
    pub stage_extra: u16,
    /// Packed vectors of the input signature.
    pub input_vectors: u8,
    /// Packed vectors of the output signature, per stream.
    pub output_vectors: [u8; 4],
    /// Thread group size (version 2+).
    pub num_threads: Option<[u32; 3]>,
    /// Entry function name (version 3+).
    pub entry_function_name: Option<String>,
    /// Resource bindings.
    pub resources: Vec<ResourceBinding>,
    /// Input signature elements.
    pub input_elements: Vec<PsvSignatureElement>,
    /// Output signature elements.
    pub output_elements: Vec<PsvSignatureElement>,
    /// Patch-constant (hull, domain) or primitive (mesh) signature elements.
    pub patch_constant_elements: Vec<PsvSignatureElement>,
    /// Per output stream: the output components that depend on the view id (bit masks).
    pub view_id_output_masks: [Vec<u32>; 4],
    /// The patch-constant or primitive components that depend on the view id.
    pub view_id_patch_constant_mask: Vec<u32>,
    /// Per output stream: for each input component, the output components it affects.
    pub input_to_output: [Vec<u32>; 4],
    /// Hull shaders: for each input component, the patch constants it affects.
    pub input_to_patch_constant: Vec<u32>,
    /// Domain shaders: for each patch constant component, the outputs it affects.
    pub patch_constant_to_output: Vec<u32>,
}

/// Dwords of a mask with one bit per component of `vectors` 4-component vectors.
fn mask_dwords(vectors: u32) -> u32 {
    vectors.div_ceil(8)
}

/// A bounds-checked cursor over the part.
struct Cursor<'a> {
    r: PartReader<'a>,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn u32(&mut self) -> Result<u32, Error> {
        let v = self.r.u32(self.at)?;
        self.at += 4;
        Ok(v)
    }

    /// `count` records of `size` bytes, checked to fit before anything is read.
    fn table(&mut self, count: u32, size: u32) -> Result<&'a [u8], Error> {
        self.r.check_table(self.at, count as usize, size as usize)?;
        let len = count as usize * size as usize;
        let bytes = self
            .r
            .data
            .get(self.at..self.at + len)
            .ok_or_else(|| self.r.err(self.at, "table runs past the part end"))?;
        self.at += len;
        Ok(bytes)
    }

    /// `count` little-endian `u32`s.
    fn dwords(&mut self, count: u32) -> Result<Vec<u32>, Error> {
        let bytes = self.table(count, 4)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
}

impl PipelineStateValidation {
    /// Parses a `PSV0` part.
    pub fn parse(data: &[u8]) -> Result<Self, Error> {
        let r = PartReader {
            fourcc: FourCC::PSV0,
            data,
        };
        let mut c = Cursor { r, at: 0 };
        let size = c.u32()?;
        let version = match size {
            24..=35 => 0,
            36..=47 => 1,
            48..=51 => 2,
            52.. => 3,
            _ => return Err(r.err(0, "runtime info smaller than its version 0 (24 bytes)")),
        };
        let info = c.table(1, size)?;
        let byte = |i: usize| info.get(i).copied().unwrap_or(0);
        let word = |i: usize| {
            info.get(i..i + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .unwrap_or(0)
        };
        let mut stage_bytes = [0u8; 16];
        stage_bytes.copy_from_slice(info.get(..16).unwrap_or(&[0; 16]));
        let mut psv = PipelineStateValidation {
            version,
            runtime_info_size: size,
            stage_bytes,
            minimum_wave_lane_count: word(16),
            maximum_wave_lane_count: word(20),
            shader_stage: (version >= 1).then(|| byte(24)),
            uses_view_id: version >= 1 && byte(25) != 0,
            stage_extra: u16::from(byte(26)) | (u16::from(byte(27)) << 8),
            input_vectors: byte(31),
            output_vectors: [byte(32), byte(33), byte(34), byte(35)],
            num_threads: (version >= 2).then(|| [word(36), word(40), word(44)]),
            entry_function_name: None,
            resources: Vec::new(),
            input_elements: Vec::new(),
            output_elements: Vec::new(),
            patch_constant_elements: Vec::new(),
            view_id_output_masks: Default::default(),
            view_id_patch_constant_mask: Vec::new(),
            input_to_output: Default::default(),
            input_to_patch_constant: Vec::new(),
            patch_constant_to_output: Vec::new(),
        };
        let resource_count = c.u32()?;
        if resource_count > 0 {
            let record = c.u32()?;
            if record < 16 {
                return Err(r.err(c.at - 4, "resource binding records smaller than 16 bytes"));
            }
            let table = c.table(resource_count, record)?;
            for rec in table.chunks_exact(record as usize) {
                let w = |i: usize| u32::from_le_bytes([rec[i], rec[i + 1], rec[i + 2], rec[i + 3]]);
                psv.resources.push(ResourceBinding {
                    resource_type: w(0),
                    space: w(4),
                    lower_bound: w(8),
                    upper_bound: w(12),
                    kind: (record >= 24).then(|| w(16)),
                    flags: (record >= 24).then(|| w(20)),
                });
            }
        }
        if version == 0 {
            return Ok(psv);
        }
        let strings_at = c.at + 4;
        let string_size = c.u32()?;
        if string_size % 4 != 0 {
            return Err(r.err(c.at - 4, "string table size is not a multiple of 4"));
        }
        let strings = c.table(1, string_size)?;
        if strings.last().is_some_and(|&b| b != 0) {
            return Err(r.err(strings_at, "string table does not end with NUL"));
        }
        let index_count = c.u32()?;
        let indices = c.dwords(index_count)?;
        let string = |offset: u32, at: usize| -> Result<String, Error> {
            let tail = strings
                .get(offset as usize..)
                .ok_or_else(|| r.err(at, "string offset past the string table"))?;
            let end = tail.iter().position(|&b| b == 0).unwrap_or(tail.len());
            Ok(String::from_utf8_lossy(&tail[..end]).into_owned())
        };
        if version >= 3 {
            psv.entry_function_name = Some(string(word(48), 4 + 48)?);
        }
        let counts = [byte(28), byte(29), byte(30)];
        if counts.iter().any(|&n| n > 0) {
            let size = c.u32()?;
            if size < 16 {
                return Err(r.err(c.at - 4, "signature element records smaller than 16 bytes"));
            }
            for (list, &n) in counts.iter().enumerate() {
                let table_at = c.at;
                let table = c.table(u32::from(n), size)?;
                for (k, e) in table.chunks_exact(size as usize).enumerate() {
                    let at = table_at + k * size as usize;
                    let name = u32::from_le_bytes([e[0], e[1], e[2], e[3]]);
                    let first = u32::from_le_bytes([e[4], e[5], e[6], e[7]]) as usize;
                    let rows = e[8];
                    let semantic_indices = indices
                        .get(first..first + usize::from(rows))
                        .ok_or_else(|| r.err(at + 4, "semantic indices past the index table"))?
                        .to_vec();
                    let element = PsvSignatureElement {
                        name: string(name, at)?,
                        semantic_indices,
                        rows,
                        start_row: e[9],
                        cols: e[10] & 0xF,
                        start_col: (e[10] >> 4) & 0x3,
                        allocated: e[10] & 0x40 != 0,
                        semantic_kind: e[11],
                        component_type: e[12],
                        interpolation_mode: e[13],
                        dynamic_index_mask: e[14] & 0xF,
                        output_stream: (e[14] >> 4) & 0x3,
                    };
                    match list {
                        0 => psv.input_elements.push(element),
                        1 => psv.output_elements.push(element),
                        _ => psv.patch_constant_elements.push(element),
                    }
                }
            }
        }
        let stage = psv.shader_stage.unwrap_or(u8::MAX);
        let (hull, domain, mesh) = (stage == 3, stage == 4, stage == 13);
        let pc_vectors = u32::from(psv.stage_extra & 0xFF);
        let pc_vectors = if hull || domain || mesh {
            pc_vectors
        } else {
            0
        };
        let inputs = u32::from(psv.input_vectors);
        if psv.uses_view_id {
            for (i, &v) in psv.output_vectors.iter().enumerate() {
                if v != 0 {
                    psv.view_id_output_masks[i] = c.dwords(mask_dwords(u32::from(v)))?;
                }
            }
            if (hull || mesh) && pc_vectors != 0 {
                psv.view_id_patch_constant_mask = c.dwords(mask_dwords(pc_vectors))?;
            }
        }
        for (i, &v) in psv.output_vectors.iter().enumerate() {
            if inputs != 0 && v != 0 {
                psv.input_to_output[i] = c.dwords(mask_dwords(u32::from(v)) * inputs * 4)?;
            }
        }
        if hull && pc_vectors != 0 && inputs != 0 {
            psv.input_to_patch_constant = c.dwords(mask_dwords(pc_vectors) * inputs * 4)?;
        }
        if domain && psv.output_vectors[0] != 0 && pc_vectors != 0 {
            psv.patch_constant_to_output =
                c.dwords(mask_dwords(u32::from(psv.output_vectors[0])) * pc_vectors * 4)?;
        }
        if c.at != data.len() {
            return Err(r.err(c.at, "bytes left after the dependency tables"));
        }
        Ok(psv)
    }

    /// The stage information for `DXIL::ShaderKind` `stage` (the part's own stage from
    /// version 1 on; pass the program's kind for version 0).
    pub fn stage_info(&self, stage: u32) -> StageInfo {
        let b = &self.stage_bytes;
        let w = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let h = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
        match stage {
            0 => StageInfo::Pixel {
                depth_output: b[0] != 0,
                sample_frequency: b[1] != 0,
            },
            1 => StageInfo::Vertex {
                output_position_present: b[0] != 0,
            },
            2 => StageInfo::Geometry {
                input_primitive: w(0),
                output_topology: w(4),
                output_stream_mask: w(8),
                output_position_present: b[12] != 0,
            },
            3 => StageInfo::Hull {
                input_control_points: w(0),
                output_control_points: w(4),
                domain: w(8),
                output_primitive: w(12),
            },
            4 => StageInfo::Domain {
                input_control_points: w(0),
                output_position_present: b[4] != 0,
                domain: w(8),
            },
            13 => StageInfo::Mesh {
                group_shared_bytes_used: w(0),
                group_shared_bytes_dependent_on_view_id: w(4),
                payload_size: w(8),
                max_output_vertices: h(12),
                max_output_primitives: h(14),
            },
            14 => StageInfo::Amplification { payload_size: w(0) },
            _ => StageInfo::None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn le(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// A version 2 part of a hull shader with one resource, one input and one patch
    /// constant element, view-id masks and dependency tables.
    fn hull_part() -> Vec<u8> {
        let mut v = le(&[48]);
        // Stage info: 3 in, 4 out control points, tri domain (2), triangle_cw (3).
        v.extend(le(&[3, 4, 2, 3, 0, u32::MAX]));
        // Stage 3, view id used, 1 pc vector; 1 input, 0 output, 1 pc element; 1 input
        // vector, output vectors [1, 0, 0, 0].
        v.extend([3, 1, 1, 0, 1, 0, 1, 1, 1, 0, 0, 0]);
        v.extend(le(&[8, 1, 1]));
        v.extend(le(&[1, 24, 6, 0, 2, 5, 2, 0])); // one UAV u2..u5, kind 2D
        v.extend(le(&[12]));
        v.extend(b"POS\0TF\0\0\0\0\0\0");
        v.extend(le(&[3, 2, 0, 3])); // semantic indices: 3 entries
        v.extend(le(&[16]));
        v.extend(le(&[0, 0]));
        v.extend([1, 0, 0x44, 3, 9, 2, 0, 0]); // POS0: 1 row, 4 cols at row 0 col 0
        v.extend(le(&[4, 1]));
        v.extend([1, 2, 0x51, 25, 9, 0, 0x10, 0]); // TF3: row 2, col 1, 1 col, stream 1
        v.extend(le(&[0xF])); // output view-id mask (1 vector)
        v.extend(le(&[0x1])); // pc view-id mask
        v.extend(le(&[1, 2, 4, 8])); // input -> output (1 input vector x 4 components)
        v.extend(le(&[1, 1, 1, 1])); // input -> pc
        v
    }

    #[test]
    fn reads_every_section_of_a_version_2_part() {
        let p = PipelineStateValidation::parse(&hull_part()).expect("parses");
        assert_eq!((p.version, p.shader_stage), (2, Some(3)));
        assert_eq!(
            p.stage_info(3),
            StageInfo::Hull {
                input_control_points: 3,
                output_control_points: 4,
                domain: 2,
                output_primitive: 3
            }
        );
        assert_eq!(p.num_threads, Some([8, 1, 1]));
        assert_eq!(
            p.resources,
            vec![ResourceBinding {
                resource_type: 6,
                space: 0,
                lower_bound: 2,
                upper_bound: 5,
                kind: Some(2),
                flags: Some(0)
            }]
        );
        let pos = &p.input_elements[0];
        assert_eq!(
            (pos.name.as_str(), pos.rows, pos.cols, pos.allocated),
            ("POS", 1, 4, true)
        );
        assert_eq!(pos.semantic_indices, vec![2]);
        let tf = &p.patch_constant_elements[0];
        assert_eq!(tf.name, "TF");
        assert_eq!(
            (tf.start_row, tf.start_col, tf.cols, tf.output_stream),
            (2, 1, 1, 1)
        );
        assert_eq!(tf.semantic_kind, 25);
        assert_eq!(p.view_id_output_masks[0], vec![0xF]);
        assert_eq!(p.view_id_patch_constant_mask, vec![1]);
        assert_eq!(p.input_to_output[0], vec![1, 2, 4, 8]);
        assert_eq!(p.input_to_patch_constant, vec![1, 1, 1, 1]);
    }

    #[test]
    fn truncations_and_bad_sizes_are_errors() {
        let part = hull_part();
        for cut in [3, 30, 60, 100, part.len() - 1] {
            assert!(
                PipelineStateValidation::parse(&part[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        let mut extra = part.clone();
        extra.extend([0, 0, 0, 0]);
        assert!(PipelineStateValidation::parse(&extra).is_err());
        // A resource count no part could hold is refused before allocating.
        let mut huge = le(&[24]);
        huge.extend([0; 24]);
        huge.extend(le(&[u32::MAX, 24]));
        let e = PipelineStateValidation::parse(&huge)
            .unwrap_err()
            .to_string();
        assert!(e.contains("PSV0"), "{e}");
        // Version 0: the runtime info and the bindings only.
        let mut v0 = le(&[24, 0, 0, 0, 0, 0, 0]);
        v0.extend(le(&[0]));
        let p = PipelineStateValidation::parse(&v0).expect("version 0");
        assert_eq!((p.version, p.shader_stage), (0, None));
        assert_eq!(p.stage_info(5), StageInfo::None);
    }
}
