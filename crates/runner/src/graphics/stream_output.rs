//! Stream output on `VK_EXT_transform_feedback`: the buffers and their filled-size counters,
//! statistics queries, recording around draws, and the checks.
//!
//! A D3D stream-output buffer is a byte range (`view_offset`, `view_size`) of a buffer plus a
//! filled-size counter: the bytes written so far, where the next vertex goes. Vulkan's
//! transform feedback buffers and counter buffers are the same model: each buffer is bound at
//! the view's offset with the view's size, and its counter (a `u32` in the same buffer at the
//! case's offset, or in a buffer of its own) is passed to `vkCmdBeginTransformFeedbackEXT`
//! (where to resume) and `vkCmdEndTransformFeedbackEXT` (where it stopped). So output appends
//! across draws, also across draws that stream nothing out (transform feedback is only
//! active for draws whose pipeline captures outputs).
//!
//! D3D's SO statistics query around draws `first..=last` is a
//! `VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT` query begun before `first` and ended after
//! `last` (outside the render pass instances, which are per draw).

use super::case::{GraphicsRun, SoBuffer, SoStatistics};
use super::input::buffer_with;
use crate::data::{self, Layout};
use crate::scratch::{mapped, vkerr, Scratch};
use ash::vk;

/// One stream-output buffer with its counter.
struct Target {
    desc: SoBuffer,
    buffer: vk::Buffer,
    ptr: *mut u8,
    size: usize,
    counter: vk::Buffer,
    counter_offset: u64,
    counter_ptr: *mut u8,
}

/// The run's stream-output buffers and statistics queries.
pub(crate) struct StreamOutput {
    targets: Vec<Target>,
    queries: Option<vk::QueryPool>,
    statistics: Vec<SoStatistics>,
}

impl StreamOutput {
    /// Creates the buffers (filled with `initial`, counters set to their initial byte count)
    /// and the query pool. The inner `Err` is a skip reason.
    pub(crate) fn create(
        s: &mut Scratch,
        run: &GraphicsRun,
    ) -> Result<Result<StreamOutput, String>, String> {
        let descs = run.so_buffers.clone().unwrap_or_default();
        let mut targets = Vec::new();
        for b in descs {
            if b.slot >= 4 {
                return Err(format!("stream-output slot {}", b.slot));
            }
            if targets.iter().any(|t: &Target| t.desc.slot == b.slot) {
                return Err(format!("two stream-output buffers in slot {}", b.slot));
            }
            let fits = b
                .view_offset
                .checked_add(b.view_size)
                .is_some_and(|end| end <= b.size_bytes);
            if !fits || b.view_offset % 4 != 0 {
                return Err(format!(
                    "stream-output slot {}: view {}+{} does not fit {} bytes at a 4-byte offset",
                    b.slot, b.view_offset, b.view_size, b.size_bytes
                ));
            }
            let (buffer, ptr, size) = buffer_with(s, b.initial.as_ref(), Some(b.size_bytes))?;
            let (counter, counter_offset, counter_ptr) = match b.filled_size.location.as_str() {
                "same_buffer" => {
                    let off = b
                        .filled_size
                        .offset
                        .ok_or("same_buffer counter without offset")?;
                    if off % 4 != 0 || off + 4 > size as u64 {
                        return Err(format!("counter offset {off} in a {size}-byte buffer"));
                    }
                    (buffer, off, ptr)
                }
                "separate" | "hidden" => {
                    let (c, p) = s.buffer(16)?;
                    (c, 0, p)
                }
                l => return Err(format!("filled-size location `{l}`")),
            };
            mapped(counter_ptr, counter_offset as usize + 4)[counter_offset as usize..]
                .copy_from_slice(&b.filled_size.initial.to_le_bytes());
            targets.push(Target {
                desc: b,
                buffer,
                ptr,
                size,
                counter,
                counter_offset,
                counter_ptr,
            });
        }
        targets.sort_by_key(|t| t.desc.slot);
        let statistics = run.expect_so_statistics.clone();
        let mut queries = None;
        if !statistics.is_empty() {
            if !s.gpu.caps.transform_feedback_queries {
                return Ok(Err("device lacks `transformFeedbackQueries`".into()));
            }
            let ci = vk::QueryPoolCreateInfo::default()
                .query_type(vk::QueryType::TRANSFORM_FEEDBACK_STREAM_EXT)
                .query_count(statistics.len() as u32);
            // SAFETY: the device is live and has transform feedback queries.
            let pool = unsafe { s.gpu.device.create_query_pool(&ci, None) }
                .map_err(vkerr("vkCreateQueryPool"))?;
            s.query_pools.push(pool);
            queries = Some(pool);
        }
        for st in &statistics {
            if st.draws.is_empty()
                || st.draws.len() > 2
                || st.draws.iter().any(|&d| d >= run.draws.len())
            {
                return Err(format!(
                    "statistics over draws {:?} of {}",
                    st.draws,
                    run.draws.len()
                ));
            }
        }
        Ok(Ok(StreamOutput {
            targets,
            queries,
            statistics,
        }))
    }

    /// Records the query pool reset (before any draw, outside rendering).
    pub(crate) fn record_reset(&self, d: &ash::Device, cb: vk::CommandBuffer) {
        if let Some(pool) = self.queries {
            // SAFETY: `cb` is recording outside a render pass; the pool is live.
            unsafe { d.cmd_reset_query_pool(cb, pool, 0, self.statistics.len() as u32) };
        }
    }

    /// Records the beginning (`begin`) or end of the statistics queries that start or end
    /// at draw `draw` (outside rendering).
    pub(crate) fn record_queries(
        &self,
        xfb: &ash::ext::transform_feedback::Device,
        cb: vk::CommandBuffer,
        draw: usize,
        begin: bool,
    ) {
        let Some(pool) = self.queries else {
            return;
        };
        for (q, st) in self.statistics.iter().enumerate() {
            let first = st.draws[0];
            let last = *st.draws.last().unwrap_or(&first);
            let fp = xfb.fp();
            if begin && draw == first {
                // SAFETY: `cb` is recording outside rendering; the pool is live and reset;
                // the stream index is below the device's stream count (checked by D3D limits).
                unsafe {
                    (fp.cmd_begin_query_indexed_ext)(
                        cb,
                        pool,
                        q as u32,
                        vk::QueryControlFlags::empty(),
                        st.stream,
                    )
                };
            }
            if !begin && draw == last {
                // SAFETY: as above; the query was begun at draw `first <= last`.
                unsafe { (fp.cmd_end_query_indexed_ext)(cb, pool, q as u32, st.stream) };
            }
        }
    }

    /// Records the buffer bindings and the beginning of transform feedback (inside
    /// rendering, for a draw whose pipeline captures outputs).
    pub(crate) fn record_begin(
        &self,
        xfb: &ash::ext::transform_feedback::Device,
        cb: vk::CommandBuffer,
    ) {
        let fp = xfb.fp();
        for t in &self.targets {
            // SAFETY: `cb` is recording; the buffer is live with transform feedback usage and
            // the range lies within it (checked at creation).
            unsafe {
                (fp.cmd_bind_transform_feedback_buffers_ext)(
                    cb,
                    t.desc.slot,
                    1,
                    &t.buffer,
                    &t.desc.view_offset,
                    &t.desc.view_size,
                )
            };
        }
        let (counters, offsets) = self.counters();
        // SAFETY: `cb` is recording inside rendering; the counter buffers are live (null for
        // unused slots) with counter usage.
        unsafe {
            (fp.cmd_begin_transform_feedback_ext)(
                cb,
                0,
                counters.len() as u32,
                counters.as_ptr(),
                offsets.as_ptr(),
            )
        };
    }

    /// Records the end of transform feedback, which stores the counters.
    pub(crate) fn record_end(
        &self,
        xfb: &ash::ext::transform_feedback::Device,
        cb: vk::CommandBuffer,
    ) {
        let (counters, offsets) = self.counters();
        // SAFETY: transform feedback is active (begun by `record_begin` in this rendering).
        unsafe {
            (xfb.fp().cmd_end_transform_feedback_ext)(
                cb,
                0,
                counters.len() as u32,
                counters.as_ptr(),
                offsets.as_ptr(),
            )
        };
    }

    /// Counter buffers and offsets for slots `0..=max slot` (null where no buffer is bound).
    fn counters(&self) -> (Vec<vk::Buffer>, Vec<vk::DeviceSize>) {
        let n = self
            .targets
            .iter()
            .map(|t| t.desc.slot + 1)
            .max()
            .unwrap_or(0) as usize;
        let mut counters = vec![vk::Buffer::null(); n];
        let mut offsets = vec![0; n];
        for t in &self.targets {
            counters[t.desc.slot as usize] = t.counter;
            offsets[t.desc.slot as usize] = t.counter_offset;
        }
        (counters, offsets)
    }

    /// Checks the buffers, their counters and the statistics (after the submission).
    pub(crate) fn check(&self, d: &ash::Device) -> Result<Option<String>, String> {
        for t in &self.targets {
            let slot = t.desc.slot;
            if let Some(want) = t.desc.filled_size.expect {
                let m = &mapped(t.counter_ptr, t.counter_offset as usize + 4)
                    [t.counter_offset as usize..];
                let got = u32::from_le_bytes([m[0], m[1], m[2], m[3]]);
                if got != want {
                    return Ok(Some(format!(
                        "stream-output slot {slot} filled size: expected {want}, got {got}"
                    )));
                }
            }
            if let Some(exp) = &t.desc.expect {
                let bytes = mapped(t.ptr, t.size);
                if let Err(e) =
                    data::check(bytes, exp, t.desc.tolerance.as_ref(), &Layout::BUFFER, None)
                {
                    return Ok(Some(format!("stream-output slot {slot}: {e}")));
                }
            }
        }
        if let Some(pool) = self.queries {
            let mut results = vec![[0u64; 2]; self.statistics.len()];
            // SAFETY: the submission finished; every query was begun and ended.
            unsafe {
                d.get_query_pool_results(
                    pool,
                    0,
                    &mut results,
                    vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
                )
            }
            .map_err(vkerr("vkGetQueryPoolResults"))?;
            for (st, [written, needed]) in self.statistics.iter().zip(results) {
                if written != st.primitives_written || needed != st.primitives_storage_needed {
                    return Ok(Some(format!(
                        "stream {} statistics over draws {:?}: expected {} written / {} needed, got {written} / {needed}",
                        st.stream, st.draws, st.primitives_written, st.primitives_storage_needed
                    )));
                }
            }
        }
        Ok(None)
    }
}
