//! The push constant block on devices with less room than the contract's 256 bytes.
//!
//! The D3D9 frontend lays out one 256-byte block for both stages (vertex shader members at
//! bytes 0-107, pixel shader members at 108-255), but Vulkan guarantees only 128 bytes of
//! push constants, and lavapipe (Mesa 22.3), like several other drivers, offers no more.
//! A run usually reads a fraction of the block (a pre-3.0 pixel shader its fog members at
//! 240-255, a vertex shader its clip planes and point size at 0-107). When the bytes the
//! run's shaders read reach past the device's `maxPushConstantsSize`, the runner packs the
//! ranges they read closer together ([`PushLayout::plan`]; each range keeps its offset
//! modulo 16, so every member keeps its alignment), rewrites the `Offset` decorations of the
//! modules' push constant block accordingly ([`PushLayout::patch`]) and pushes the packed
//! bytes ([`PushLayout::pack`]). The shaders' code is untouched; where the ranges fit, the
//! contract's layout is used as it is.

/// Where the contract's push constant ranges go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PushLayout {
    /// (contract offset, size, offset pushed at), sorted, disjoint.
    ranges: Vec<(u32, u32, u32)>,
}

/// `OpVariable`, `OpTypePointer`, `OpMemberDecorate`, `Offset`, `PushConstant`.
const OP_VARIABLE: u32 = 59;
const OP_TYPE_POINTER: u32 = 32;
const OP_MEMBER_DECORATE: u32 = 72;
const DECORATION_OFFSET: u32 = 35;
const STORAGE_PUSH_CONSTANT: u32 = 9;

impl PushLayout {
    /// The layout for shaders reading the byte ranges `used` (offset, size) of the block on
    /// a device with `limit` bytes: the contract's offsets when they fit, the ranges packed
    /// otherwise; `None` when even the packed ranges do not fit.
    pub(super) fn plan(used: &[(u32, u32)], limit: u32) -> Option<PushLayout> {
        let mut sorted: Vec<(u32, u32)> = used
            .iter()
            .map(|&(o, s)| (o, o.saturating_add(s)))
            .collect();
        sorted.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::new();
        for (lo, hi) in sorted {
            match merged.last_mut() {
                Some(last) if lo <= last.1 => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        if merged.last().is_none_or(|&(_, hi)| hi <= limit) {
            return Some(PushLayout {
                ranges: merged.iter().map(|&(lo, hi)| (lo, hi - lo, lo)).collect(),
            });
        }
        let mut ranges = Vec::new();
        let mut cursor = 0u32;
        for (lo, hi) in merged {
            // The first offset from `cursor` on with the same remainder modulo 16.
            let at = cursor + (lo % 16 + 16 - cursor % 16) % 16;
            ranges.push((lo, hi - lo, at));
            cursor = at + (hi - lo);
        }
        (cursor <= limit).then_some(PushLayout { ranges })
    }

    /// Whether the contract's offsets are used unchanged.
    pub(super) fn is_identity(&self) -> bool {
        self.ranges.iter().all(|&(o, _, n)| o == n)
    }

    /// The bytes pushed: `(first, end)`, or `None` when nothing is read.
    pub(super) fn span(&self) -> Option<(u32, u32)> {
        let lo = self.ranges.iter().map(|r| r.2).min()?;
        let hi = self.ranges.iter().map(|r| r.2 + r.1).max()?;
        Some((lo, hi))
    }

    /// Where contract offset `offset` is pushed.
    fn map(&self, offset: u32) -> Option<u32> {
        self.ranges
            .iter()
            .find(|&&(o, s, _)| offset >= o && offset < o + s)
            .map(|&(o, _, n)| n + (offset - o))
    }

    /// The bytes `span()` covers, taken from the contract's `block`.
    pub(super) fn pack(&self, block: &[u8]) -> Vec<u8> {
        let Some((lo, hi)) = self.span() else {
            return Vec::new();
        };
        let mut out = vec![0u8; (hi - lo) as usize];
        for &(o, s, n) in &self.ranges {
            let src = block.get(o as usize..(o + s) as usize);
            let dst = out.get_mut((n - lo) as usize..(n - lo + s) as usize);
            if let (Some(src), Some(dst)) = (src, dst) {
                dst.copy_from_slice(src);
            }
        }
        out
    }

    /// Rewrites the `Offset` decorations of the push constant block of `spirv`.
    pub(super) fn patch(&self, spirv: &mut [u32]) -> Result<(), String> {
        if self.is_identity() {
            return Ok(());
        }
        let insts = |words: &[u32]| -> Result<Vec<(usize, u32, usize)>, String> {
            let mut out = Vec::new();
            let mut at = 5;
            while at < words.len() {
                let n = (words[at] >> 16) as usize;
                if n == 0 || at + n > words.len() {
                    return Err(format!("malformed SPIR-V instruction at word {at}"));
                }
                out.push((at, words[at] & 0xffff, n));
                at += n;
            }
            Ok(out)
        };
        let list = insts(spirv)?;
        let w = |i: usize| spirv.get(i).copied().unwrap_or(0);
        let Some(ptr_ty) = list
            .iter()
            .find(|&&(at, op, n)| op == OP_VARIABLE && n >= 4 && w(at + 3) == STORAGE_PUSH_CONSTANT)
            .map(|&(at, ..)| w(at + 1))
        else {
            return Ok(());
        };
        let block = list
            .iter()
            .find(|&&(at, op, n)| op == OP_TYPE_POINTER && n == 4 && w(at + 1) == ptr_ty)
            .map(|&(at, ..)| w(at + 3))
            .ok_or("push constant variable without its pointer type")?;
        let mut moves = Vec::new();
        for (at, op, n) in list {
            if op == OP_MEMBER_DECORATE
                && n == 5
                && w(at + 1) == block
                && w(at + 3) == DECORATION_OFFSET
            {
                let old = w(at + 4);
                let new = self.map(old).ok_or_else(|| {
                    format!("push constant member at byte {old} outside the read ranges")
                })?;
                moves.push((at + 4, new));
            }
        }
        for (at, new) in moves {
            spirv[at] = new;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitting_ranges_keep_their_offsets() {
        let l =
            PushLayout::plan(&[(0, 96), (96, 4), (100, 4), (104, 4), (108, 4)], 128).expect("fits");
        assert!(l.is_identity());
        assert_eq!(l.span(), Some((0, 112)));
        assert_eq!(PushLayout::plan(&[], 128).and_then(|l| l.span()), None);
    }

    #[test]
    fn ranges_pack_keeping_alignment() {
        // Vertex clip planes and point sizes, pixel alpha reference and fog.
        let used = [
            (0, 96),
            (96, 4),
            (100, 4),
            (104, 4),
            (108, 4),
            (240, 4),
            (244, 4),
            (248, 4),
            (252, 4),
        ];
        let l = PushLayout::plan(&used, 128).expect("packs");
        assert!(!l.is_identity());
        assert_eq!(l.span(), Some((0, 128)));
        assert_eq!(l.map(240), Some(112));
        assert_eq!(l.map(252), Some(124));
        assert_eq!(l.map(108), Some(108));
        // Bump-environment matrices (vec4 at 112) and fog: 112 % 16 = 0.
        let l = PushLayout::plan(&[(112, 96), (240, 16)], 128).expect("packs");
        assert_eq!(l.map(112), Some(0));
        assert_eq!(l.map(240), Some(96));
        let mut block = vec![0u8; 256];
        block[112] = 7;
        block[240] = 9;
        let packed = l.pack(&block);
        assert_eq!(packed.len(), 112);
        assert_eq!((packed[0], packed[96]), (7, 9));
        // Too much even packed.
        assert!(PushLayout::plan(&[(0, 108), (112, 96)], 128).is_none());
    }

    /// A real module (the fixed-function pixel stage with fog: the alpha reference at 108,
    /// the fog members at 240-255) stays valid with its block packed into 32 bytes, and the
    /// packing changes its offsets.
    #[test]
    fn patched_modules_stay_valid() {
        let text = super::super::fixed::pixel_shader(false, false, true);
        let out = match dxspv::compile_ir_text(&text, &dxspv::Options::default()) {
            Ok(o) => o,
            Err(e) => panic!("{e}"),
        };
        let used: Vec<(u32, u32)> = out
            .reflection
            .push_data
            .iter()
            .map(|r| (r.offset, r.size))
            .collect();
        // 108 keeps its remainder 12 modulo 16; the fog members follow at 16.
        let l = PushLayout::plan(&used, 32).expect("packs");
        assert_eq!(l.span(), Some((12, 32)));
        let mut words = out.spirv.clone();
        l.patch(&mut words).expect("patches");
        assert_ne!(words, out.spirv);
        dxspv_testkit::assert_spirv_valid("packed push block", &words);
    }

    #[test]
    fn patch_moves_member_offsets() {
        // Header, OpMemberDecorate %10 0 Offset 240, OpTypePointer %11 PushConstant %10,
        // OpVariable %11 %12 PushConstant.
        let mut words = vec![
            0x0723_0203,
            0x0001_0000,
            0,
            13,
            0,
            (5 << 16) | OP_MEMBER_DECORATE,
            10,
            0,
            DECORATION_OFFSET,
            240,
            (4 << 16) | OP_TYPE_POINTER,
            11,
            STORAGE_PUSH_CONSTANT,
            10,
            (4 << 16) | OP_VARIABLE,
            11,
            12,
            STORAGE_PUSH_CONSTANT,
        ];
        let l = PushLayout::plan(&[(0, 108), (240, 16)], 128).expect("packs");
        l.patch(&mut words).expect("patches");
        assert_eq!(words[9], 112);
        words[9] = 200;
        assert!(l.patch(&mut words).is_err());
    }
}
