//! Sampler feedback (`WriteSamplerFeedback*`) as the converter emulates it, on the corpus
//! shaders that use it: each variant's level of detail (implicit, biased, explicit, from
//! gradients), the clamp to the paired texture's mips, the mip region texel (and array layer)
//! and the atomic that records it (`UMin` of the level for `MIN_MIP` maps, `Or` of the mip
//! bits for `MIP_REGION_USED` maps), read from the IR the converter writes (before passes).
//! The contract is `docs/sampler_feedback.md`.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use std::collections::HashMap;

use dxspv_dxil::{convert, Shader};
use dxspv_testkit::Corpus;

/// The IR text of a program: each op by its `%id`: opcode and operand tokens (the type first).
struct Ir {
    text: String,
    ops: HashMap<String, (String, Vec<String>)>,
}

impl Ir {
    fn of(name: &str) -> Option<Ir> {
        let corpus = Corpus::open()?;
        let path = format!("dxil/vkd3d-proton/{name}.dxil");
        let e = corpus.entries.iter().find(|e| e.path == path)?;
        let bytes = corpus.read(e);
        let shader = Shader::parse(&bytes).unwrap_or_else(|err| panic!("{path}: {err}"));
        let b = convert(&shader).unwrap_or_else(|err| panic!("{path}: {err}"));
        let text = dxspv_ir::text::print(&b);
        let mut ops = HashMap::new();
        for line in text.lines() {
            let line = line.split("   ;").next().unwrap_or(line);
            let Some((def, rest)) = line.split_once(" = ") else {
                continue;
            };
            let mut toks = rest.split_whitespace().map(str::to_owned);
            let opcode = toks.next().unwrap_or_default();
            // A struct type has spaces: its tokens join until the braces balance.
            let mut out: Vec<String> = Vec::new();
            let mut depth = 0i32;
            for t in toks {
                let joined = depth > 0;
                depth += t.matches('{').count() as i32 - t.matches('}').count() as i32;
                match out.last_mut() {
                    Some(last) if joined => {
                        last.push(' ');
                        last.push_str(&t);
                    }
                    _ => out.push(t),
                }
            }
            ops.insert(def.trim().to_owned(), (opcode, out));
        }
        Some(Ir { text, ops })
    }

    /// The op `%id` names: its opcode and tokens.
    fn op(&self, id: &str) -> (&str, &[String]) {
        let (o, t) = self
            .ops
            .get(id)
            .unwrap_or_else(|| panic!("no {id} in\n{}", self.text));
        (o.as_str(), t.as_slice())
    }

    /// Operand `i` (after the type) of `%id`, which must be an `opcode`.
    fn arg(&self, id: &str, opcode: &str, i: usize) -> String {
        let (o, t) = self.op(id);
        assert_eq!(o, opcode, "{id} in\n{}", self.text);
        t.get(i + 1)
            .unwrap_or_else(|| panic!("{id} has no operand {i}"))
            .clone()
    }

    /// The `Constant` `%id` is, as its literal text.
    fn constant(&self, id: &str) -> String {
        self.arg(id, "Constant", 0)
    }

    /// Every op of `opcode`, by id.
    fn all(&self, opcode: &str) -> Vec<String> {
        let mut v: Vec<_> = self
            .ops
            .iter()
            .filter(|(_, (o, _))| o == opcode)
            .map(|(d, _)| d.clone())
            .collect();
        v.sort_by_key(|d| d.trim_start_matches('%').parse::<u32>().unwrap_or(0));
        v
    }

    /// The one `ImageAtomic`: `(descriptor, layer, coord, value, atomic op)`.
    fn atomics(&self) -> Vec<[String; 5]> {
        self.all("ImageAtomic")
            .iter()
            .map(|d| {
                let (_, t) = self.op(d);
                assert_eq!(t[0], "void", "{d}: result unused");
                [
                    t[1].clone(),
                    t[2].clone(),
                    t[3].clone(),
                    t[4].clone(),
                    t[5].clone(),
                ]
            })
            .collect()
    }

    /// Checks that `level` is `UMin(ConvertFtoI(lod), ImageQueryMips(tex) - 1)` and returns
    /// `lod`.
    fn clamped_level(&self, level: &str) -> String {
        let f2i = self.arg(level, "UMin", 0);
        let last = self.arg(level, "UMin", 1);
        let mips = self.arg(&last, "ISub", 0);
        assert_eq!(self.op(&mips).0, "ImageQueryMips");
        assert_eq!(self.constant(&self.arg(&last, "ISub", 1)), "1");
        self.arg(&f2i, "ConvertFtoI", 0)
    }

    /// Checks that `coord` is the region texel: the coordinate's texel of mip 0 shifted right
    /// by the region size's log2 and clamped to the map.
    fn check_region(&self, coord: &str) {
        let shifted = self.arg(coord, "UMin", 0);
        let map_last = self.arg(coord, "UMin", 1);
        let map_size = self.arg(&map_last, "ISub", 0);
        let q = self.arg(&map_size, "CompositeExtract", 0);
        assert_eq!(self.op(&q).0, "ImageQuerySize");
        assert_eq!(self.arg(&q, "ImageQuerySize", 1), "null", "UAV: no mip");
        let texel = self.arg(&shifted, "UShr", 0);
        let shift = self.arg(&shifted, "UShr", 1);
        let scaled = self.arg(&texel, "ConvertFtoI", 0);
        assert_eq!(self.op(&scaled).0, "FMul");
        let msb = self.arg(&shift, "IAdd", 0);
        let below = self.arg(&msb, "UFindMsb", 0);
        let per_texel = self.arg(&below, "ISub", 0);
        assert_eq!(self.op(&per_texel).0, "UDiv");
    }
}

#[test]
fn explicit_lod_min_mip_records_the_clamped_level() {
    let Some(ir) = Ir::of("d3d12_sampler_feedback_cs_code_min_mip_level_non_array") else {
        return;
    };
    assert!(
        ir.text
            .contains("u32 %1 0 0 1 FeedbackImage2D FixedFormat   ;"),
        "{}",
        ir.text
    );
    assert!(ir.all("ImageComputeLod").is_empty());
    let [desc, layer, coord, value, op] = ir.atomics().pop().unwrap();
    assert_eq!(op, "UMin");
    assert_eq!(layer, "null");
    assert_eq!(ir.op(&desc).0, "DescriptorLoad");
    ir.check_region(&coord);
    // The level is the shader's own LOD operand (read from the constant buffer).
    let lod = ir.clamped_level(&value);
    assert_eq!(ir.op(&lod).0, "CompositeExtract");
}

#[test]
fn arrays_record_in_the_rounded_layer() {
    let Some(ir) = Ir::of("d3d12_sampler_feedback_cs_code_min_mip_level_array") else {
        return;
    };
    assert!(
        ir.text.contains("FeedbackImage2DArray FixedFormat   ;"),
        "{}",
        ir.text
    );
    let [_, layer, coord, value, op] = ir.atomics().pop().unwrap();
    assert_eq!(op, "UMin");
    ir.check_region(&coord);
    ir.clamped_level(&value);
    let index = ir.arg(&layer, "UMin", 0);
    let last_layer = ir.arg(&layer, "UMin", 1);
    let rounded = ir.arg(&index, "ConvertFtoI", 0);
    assert_eq!(ir.op(&rounded).1.last().unwrap(), "NearestEven");
    assert_eq!(ir.op(&rounded).0, "FRound");
    let layers = ir.arg(&last_layer, "ISub", 0);
    assert_eq!(ir.op(&layers).0, "CompositeExtract");
}

/// Checks a `MIP_REGION_USED` value: `IShl(1, level) | (lod > level ? IShl(1, min(level + 1,
/// last)) : 0)`; returns the level.
fn check_region_used_bits(ir: &Ir, value: &str) -> String {
    let bit = ir.arg(value, "IOr", 0);
    let next_bit = ir.arg(value, "IOr", 1);
    assert_eq!(ir.constant(&ir.arg(&bit, "IShl", 0)), "1");
    let level = ir.arg(&bit, "IShl", 1);
    let between = ir.arg(&next_bit, "Select", 0);
    assert_eq!(ir.constant(&ir.arg(&next_bit, "Select", 2)), "0");
    let level_f = ir.arg(&between, "FGt", 1);
    assert_eq!(ir.arg(&level_f, "ConvertItoF", 0), level);
    let shifted = ir.arg(&next_bit, "Select", 1);
    let next = ir.arg(&shifted, "IShl", 1);
    let plus = ir.arg(&next, "UMin", 0);
    assert_eq!(ir.arg(&plus, "IAdd", 0), level);
    assert_eq!(ir.arg(&next, "UMin", 1), ir.arg(&level, "UMin", 1));
    level
}

#[test]
fn explicit_lod_mip_region_used_sets_the_bits_of_the_levels_touched() {
    let Some(ir) = Ir::of("d3d12_sampler_feedback_cs_code_level_used_region") else {
        return;
    };
    assert!(
        ir.text
            .contains("FeedbackImage2D FixedFormat|MipRegionUsed   ;"),
        "{}",
        ir.text
    );
    let [_, layer, coord, value, op] = ir.atomics().pop().unwrap();
    assert_eq!(op, "Or");
    assert_eq!(layer, "null");
    ir.check_region(&coord);
    let level = check_region_used_bits(&ir, &value);
    ir.clamped_level(&level);
}

#[test]
fn gradients_give_the_log2_of_the_longer_gradient_in_texels() {
    let Some(ir) = Ir::of("d3d12_sampler_feedback_test_sampler_feedback_grad_cs_code") else {
        return;
    };
    let atomics = ir.atomics();
    assert_eq!(atomics.len(), 2);
    // u0 is a MIP_REGION_USED map, u1 a MIN_MIP map; both get the same LOD computation.
    assert_eq!(atomics[0][4], "Or");
    assert_eq!(atomics[1][4], "UMin");
    for a in &atomics {
        let level = if a[4] == "Or" {
            check_region_used_bits(&ir, &a[3])
        } else {
            a[3].clone()
        };
        let lod = ir.clamped_level(&level);
        // 0.5 * log2(max(dot(ddx * size, ddx * size), dot(ddy * size, ddy * size))).
        let log = ir.arg(&lod, "FMul", 0);
        assert_eq!(ir.constant(&ir.arg(&lod, "FMul", 1)), "0.5");
        let longest = ir.arg(&log, "FLog2", 0);
        for i in 0..2 {
            let dot = ir.arg(&longest, "FMax", i);
            let scaled = ir.arg(&dot, "FDot", 0);
            assert_eq!(ir.arg(&dot, "FDot", 1), scaled);
            let size = ir.arg(&scaled, "FMul", 1);
            let sizes = ir.arg(&size, "ConvertItoF", 0);
            let q = ir.arg(&sizes, "CompositeExtract", 0);
            assert_eq!(ir.op(&q).0, "ImageQuerySize");
            assert_eq!(ir.constant(&ir.arg(&q, "ImageQuerySize", 1)), "0", "mip 0");
        }
        ir.check_region(&a[2]);
    }
}

#[test]
fn implicit_lod_uses_the_clamped_lod_of_the_sample() {
    let Some(ir) =
        Ir::of("d3d12_sampler_feedback_test_sampler_feedback_implicit_lod_inner_ps_code_non_bias")
    else {
        return;
    };
    let [_, _, coord, value, op] = ir.atomics().pop().unwrap();
    assert_eq!(op, "UMin");
    ir.check_region(&coord);
    let lod = ir.clamped_level(&value);
    let lods = ir.arg(&lod, "CompositeExtract", 0);
    assert_eq!(ir.constant(&ir.arg(&lod, "CompositeExtract", 1)), "0");
    assert_eq!(ir.op(&lods).0, "ImageComputeLod");
}

#[test]
fn a_bias_adds_to_the_unclamped_lod() {
    let Some(ir) =
        Ir::of("d3d12_sampler_feedback_test_sampler_feedback_implicit_lod_inner_ps_code_bias")
    else {
        return;
    };
    let [_, _, _, value, op] = ir.atomics().pop().unwrap();
    assert_eq!(op, "UMin");
    let lod = ir.clamped_level(&value);
    let unclamped = ir.arg(&lod, "FAdd", 0);
    assert_eq!(ir.constant(&ir.arg(&unclamped, "CompositeExtract", 1)), "1");
    let lods = ir.arg(&unclamped, "CompositeExtract", 0);
    assert_eq!(ir.op(&lods).0, "ImageComputeLod");
}
