//! `RTS0`: a serialized root signature (versions 1.0, 1.1 and 1.2).
//!
//! Layout (little-endian `u32`s, offsets from the start of the part): version, parameter
//! count, parameter offset, static sampler count, static sampler offset, flags. Each
//! parameter is `type, shader visibility, payload offset`; the payload is a descriptor table
//! (`range count, range offset` and ranges of 20 bytes in 1.0, 24 with flags from 1.1), 32-bit
//! constants (`register, space, count`) or a root CBV/SRV/UAV (`register, space` and flags from
//! 1.1). Static samplers are 52 bytes (56 with flags in 1.2).

use crate::error::Error;
use crate::partread::PartReader;
use crate::FourCC;

/// A descriptor range of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DescriptorRange {
    /// 0 SRV, 1 UAV, 2 CBV, 3 sampler (`D3D12_DESCRIPTOR_RANGE_TYPE`).
    pub range_type: u32,
    /// Number of descriptors (`u32::MAX` for unbounded).
    pub count: u32,
    /// First register.
    pub base_register: u32,
    /// Register space.
    pub space: u32,
    /// `D3D12_DESCRIPTOR_RANGE_FLAGS` (1.1 and later; 0 in 1.0).
    pub flags: u32,
    /// Offset from the table start in descriptors (`u32::MAX` = append).
    pub offset_in_table: u32,
}

/// A root CBV, SRV or UAV.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootDescriptor {
    /// Register.
    pub register: u32,
    /// Register space.
    pub space: u32,
    /// `D3D12_ROOT_DESCRIPTOR_FLAGS` (1.1 and later; 0 in 1.0).
    pub flags: u32,
}

/// What a root parameter holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootParameterKind {
    /// A descriptor table.
    DescriptorTable(Vec<DescriptorRange>),
    /// Inline 32-bit constants.
    Constants {
        /// Register.
        register: u32,
        /// Register space.
        space: u32,
        /// Number of 32-bit values.
        count: u32,
    },
    /// A root CBV.
    Cbv(RootDescriptor),
    /// A root SRV.
    Srv(RootDescriptor),
    /// A root UAV.
    Uav(RootDescriptor),
}

/// One root parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootParameter {
    /// `D3D12_SHADER_VISIBILITY` (0 all, 1 vertex, …, 5 pixel, 6 amplification, 7 mesh).
    pub visibility: u32,
    /// The payload.
    pub kind: RootParameterKind,
}

/// A static sampler.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StaticSampler {
    /// `D3D12_FILTER`.
    pub filter: u32,
    /// Address modes (U, V, W).
    pub address: [u32; 3],
    /// Mip LOD bias.
    pub mip_lod_bias: f32,
    /// Maximum anisotropy.
    pub max_anisotropy: u32,
    /// `D3D12_COMPARISON_FUNC`.
    pub comparison: u32,
    /// `D3D12_STATIC_BORDER_COLOR`.
    pub border_color: u32,
    /// Minimum LOD.
    pub min_lod: f32,
    /// Maximum LOD.
    pub max_lod: f32,
    /// Register.
    pub register: u32,
    /// Register space.
    pub space: u32,
    /// Shader visibility.
    pub visibility: u32,
    /// `D3D12_SAMPLER_FLAGS` (1.2; 0 before).
    pub flags: u32,
}

/// A root signature.
#[derive(Clone, Debug, PartialEq)]
pub struct RootSignature {
    /// Version as stored: 1 (1.0), 2 (1.1), 3 (1.2).
    pub version: u32,
    /// `D3D12_ROOT_SIGNATURE_FLAGS`.
    pub flags: u32,
    /// Parameters in order.
    pub parameters: Vec<RootParameter>,
    /// Static samplers.
    pub static_samplers: Vec<StaticSampler>,
}

impl RootSignature {
    /// Parses an `RTS0` part.
    pub fn parse(data: &[u8]) -> Result<Self, Error> {
        let r = PartReader {
            fourcc: FourCC::RTS0,
            data,
        };
        let version = r.u32(0)?;
        if !(1..=3).contains(&version) {
            return Err(r.err(0, "unknown root signature version"));
        }
        let count = r.u32(4)?;
        let params_at = r.u32(8)? as usize;
        let sampler_count = r.u32(12)?;
        let samplers_at = r.u32(16)? as usize;
        let flags = r.u32(20)?;
        r.check_table(params_at, count as usize, 12)?;
        let mut parameters = Vec::with_capacity(count as usize);
        for i in 0..count as usize {
            let at = params_at + 12 * i;
            let kind = r.u32(at)?;
            let visibility = r.u32(at + 4)?;
            let payload = r.u32(at + 8)? as usize;
            let descriptor = |r: &PartReader<'_>| -> Result<RootDescriptor, Error> {
                Ok(RootDescriptor {
                    register: r.u32(payload)?,
                    space: r.u32(payload + 4)?,
                    flags: if version >= 2 { r.u32(payload + 8)? } else { 0 },
                })
            };
            let kind = match kind {
                0 => {
                    let ranges = r.u32(payload)?;
                    let ranges_at = r.u32(payload + 4)? as usize;
                    let size = if version >= 2 { 24 } else { 20 };
                    r.check_table(ranges_at, ranges as usize, size)?;
                    let mut list = Vec::with_capacity(ranges as usize);
                    for k in 0..ranges as usize {
                        let a = ranges_at + size * k;
                        let (flags, offset) = if version >= 2 {
                            (r.u32(a + 16)?, r.u32(a + 20)?)
                        } else {
                            (0, r.u32(a + 16)?)
                        };
                        list.push(DescriptorRange {
                            range_type: r.u32(a)?,
                            count: r.u32(a + 4)?,
                            base_register: r.u32(a + 8)?,
                            space: r.u32(a + 12)?,
                            flags,
                            offset_in_table: offset,
                        });
                    }
                    RootParameterKind::DescriptorTable(list)
                }
                1 => RootParameterKind::Constants {
                    register: r.u32(payload)?,
                    space: r.u32(payload + 4)?,
                    count: r.u32(payload + 8)?,
                },
                2 => RootParameterKind::Cbv(descriptor(&r)?),
                3 => RootParameterKind::Srv(descriptor(&r)?),
                4 => RootParameterKind::Uav(descriptor(&r)?),
                _ => return Err(r.err(at, "unknown root parameter type")),
            };
            parameters.push(RootParameter { visibility, kind });
        }
        let size = if version >= 3 { 56 } else { 52 };
        r.check_table(samplers_at, sampler_count as usize, size)?;
        let mut static_samplers = Vec::with_capacity(sampler_count as usize);
        for i in 0..sampler_count as usize {
            let a = samplers_at + size * i;
            let f = |o: usize| r.u32(a + o).map(f32::from_bits);
            static_samplers.push(StaticSampler {
                filter: r.u32(a)?,
                address: [r.u32(a + 4)?, r.u32(a + 8)?, r.u32(a + 12)?],
                mip_lod_bias: f(16)?,
                max_anisotropy: r.u32(a + 20)?,
                comparison: r.u32(a + 24)?,
                border_color: r.u32(a + 28)?,
                min_lod: f(32)?,
                max_lod: f(36)?,
                register: r.u32(a + 40)?,
                space: r.u32(a + 44)?,
                visibility: r.u32(a + 48)?,
                flags: if version >= 3 { r.u32(a + 52)? } else { 0 },
            });
        }
        Ok(RootSignature {
            version,
            flags,
            parameters,
            static_samplers,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn le(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// A 1.1 root signature: a table of two ranges, constants, a root CBV, one sampler.
    fn v1_1() -> Vec<u8> {
        // Header (24) + 3 params (36) = 60: table payload at 60, ranges at 68 (2 x 24),
        // constants at 116, CBV at 128, sampler at 140.
        let mut v = le(&[2, 3, 24, 1, 140, 0x1]);
        v.extend(le(&[0, 0, 60, 1, 5, 116, 2, 1, 128]));
        v.extend(le(&[2, 68]));
        v.extend(le(&[0, 4, 0, 1, 0, 0]));
        v.extend(le(&[1, u32::MAX, 2, 0, 1, 4]));
        v.extend(le(&[3, 0, 8]));
        v.extend(le(&[1, 2, 4]));
        let mut s = le(&[0x15, 1, 1, 3]);
        s.extend(0.5f32.to_bits().to_le_bytes());
        s.extend(le(&[16, 4, 0]));
        s.extend(0.0f32.to_bits().to_le_bytes());
        s.extend(1000.0f32.to_bits().to_le_bytes());
        s.extend(le(&[7, 0, 5]));
        v.extend(s);
        v
    }

    #[test]
    fn reads_tables_constants_descriptors_and_samplers() {
        let rs = RootSignature::parse(&v1_1()).expect("parses");
        assert_eq!((rs.version, rs.flags), (2, 1));
        assert_eq!(rs.parameters.len(), 3);
        let RootParameterKind::DescriptorTable(ranges) = &rs.parameters[0].kind else {
            panic!("not a table")
        };
        assert_eq!(ranges.len(), 2);
        assert_eq!(
            (ranges[0].range_type, ranges[0].count, ranges[0].space),
            (0, 4, 1)
        );
        assert_eq!(
            (ranges[1].count, ranges[1].base_register, ranges[1].flags),
            (u32::MAX, 2, 1)
        );
        assert_eq!(ranges[1].offset_in_table, 4);
        assert_eq!(rs.parameters[1].visibility, 5);
        assert_eq!(
            rs.parameters[1].kind,
            RootParameterKind::Constants {
                register: 3,
                space: 0,
                count: 8
            }
        );
        assert_eq!(
            rs.parameters[2].kind,
            RootParameterKind::Cbv(RootDescriptor {
                register: 1,
                space: 2,
                flags: 4
            })
        );
        let s = rs.static_samplers[0];
        assert_eq!(
            (s.filter, s.address, s.mip_lod_bias),
            (0x15, [1, 1, 3], 0.5)
        );
        assert_eq!((s.max_lod, s.register, s.visibility), (1000.0, 7, 5));
    }

    #[test]
    fn bad_offsets_and_versions_are_errors() {
        let part = v1_1();
        let mut bad = part.clone();
        bad[0] = 9;
        assert!(RootSignature::parse(&bad).is_err());
        let mut bad = part.clone();
        bad[16..20].copy_from_slice(&10_000u32.to_le_bytes());
        assert!(RootSignature::parse(&bad).is_err());
        let mut bad = part.clone();
        bad[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = RootSignature::parse(&bad).unwrap_err().to_string();
        assert!(e.contains("RTS0"), "{e}");
        assert!(RootSignature::parse(&part[..20]).is_err());
    }
}
