//! DXIL metadata read from handcrafted modules: what the corpus lacks (amplification
//! state, UAV flags and tags, unbounded ranges, output streams) and malformed records.

use crate::dx::*;
use crate::module::Module;
use crate::testing::{blk, module, r, rs, Item};

/// Metadata records, numbered as they are added.
#[derive(Default)]
struct Md {
    items: Vec<Item>,
}

impl Md {
    fn push(&mut self, item: Item) -> u64 {
        self.items.push(item);
        self.items.len() as u64 - 1
    }
    fn string(&mut self, s: &str) -> u64 {
        self.push(rs(1, &[], s))
    }
    fn value(&mut self, ty: u64, v: u64) -> u64 {
        self.push(r(2, &[ty, v]))
    }
    fn node(&mut self, ops: &[Option<u64>]) -> u64 {
        let ops: Vec<u64> = ops.iter().map(|o| o.map_or(0, |i| i + 1)).collect();
        self.push(r(3, &ops))
    }
}

// Types and constants of the test module.
const I32: u64 = 0;
const I1: u64 = 1;
const I8: u64 = 2;
const I64: u64 = 3;
const FN_PTR: u64 = 7;
const R_PTR: u64 = 9;
/// Value id of `i32 k` for k in 0..=16.
fn int(k: u64) -> u64 {
    2 + k
}
const I32_64: u64 = 19;
const TRUE: u64 = 20;
const FALSE: u64 = 21;
/// Value id of `i8 k` for k in 0..=9.
fn byte(k: u64) -> u64 {
    22 + k
}
const I64_16: u64 = 32;
const MINUS_ONE: u64 = 33;

/// A module with `@R` (a `%struct.R` resource symbol), `void @main()` and `md` named as
/// `names`.
fn read_with(md: Md, names: &[(&str, &[u64])]) -> Module {
    let mut metadata = md.items;
    for (name, ops) in names {
        metadata.push(rs(4, &[], name));
        metadata.push(r(10, ops));
    }
    let mut consts = vec![r(1, &[I32])];
    consts.extend((0..=16).map(|k| r(4, &[k * 2])));
    consts.push(r(4, &[128]));
    consts.extend([r(1, &[I1]), r(4, &[3]), r(4, &[0]), r(1, &[I8])]);
    consts.extend((0..=9).map(|k| r(4, &[k * 2])));
    consts.extend([r(1, &[I64]), r(4, &[32]), r(1, &[I32]), r(4, &[3])]);
    let bytes = module(vec![
        blk(
            17,
            vec![
                r(1, &[10]),
                r(7, &[32]),
                r(7, &[1]),
                r(7, &[8]),
                r(7, &[64]),
                r(3, &[]),
                r(2, &[]),
                r(21, &[0, 5]),
                r(8, &[6, 0]),
                rs(19, &[], "struct.R"),
                r(20, &[0, 0]),
                r(8, &[8, 0]),
            ],
        ),
        r(7, &[8, 1 | 2, 0, 0, 0, 0]),
        r(8, &[6, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        blk(11, consts),
        blk(15, metadata),
        blk(14, vec![rs(1, &[0], "R"), rs(1, &[1], "main")]),
        blk(12, vec![r(1, &[1]), r(10, &[])]),
    ]);
    Module::read(&bytes).expect("module reads")
}

#[test]
fn amplification_entry_with_signature_and_resources() {
    let mut md = Md::default();
    let sm_name = md.string("as");
    let six = md.value(I32, int(6));
    let five = md.value(I32, int(5));
    let sm = md.node(&[Some(sm_name), Some(six), Some(five)]);
    let one = md.value(I32, int(1));
    let zero = md.value(I32, int(0));
    let version = md.node(&[Some(one), Some(zero)]);
    // Output element: TEXCOORD0/1, f32, linear, 2 rows of 4 at row 0, stream 1.
    let name = md.string("TEXCOORD");
    let f32_ty = md.value(I8, byte(9));
    let arbitrary = md.value(I8, byte(0));
    let indices = md.node(&[Some(zero), Some(one)]);
    let linear = md.value(I8, byte(2));
    let two = md.value(I32, int(2));
    let four = md.value(I8, byte(4));
    let zero8 = md.value(I8, byte(0));
    let three = md.value(I32, int(3));
    let fifteen = md.value(I32, int(15));
    let tags = md.node(&[Some(three), Some(fifteen), Some(zero), Some(one)]);
    let element = md.node(&[
        Some(zero),
        Some(name),
        Some(f32_ty),
        Some(arbitrary),
        Some(indices),
        Some(linear),
        Some(two),
        Some(four),
        Some(zero),
        Some(zero8),
        Some(tags),
    ]);
    let outputs = md.node(&[Some(element)]);
    let sigs = md.node(&[None, Some(outputs), None]);
    // A globally coherent rasterizer-ordered 2D UAV of f32 at u3, and an unbounded
    // comparison sampler range in space 1.
    let symbol = md.value(R_PTR, 0);
    let uav_name = md.string("U");
    let yes = md.value(I1, TRUE);
    let no = md.value(I1, FALSE);
    let nine = md.value(I32, int(9));
    let uav_tags = md.node(&[Some(zero), Some(nine)]);
    let uav = md.node(&[
        Some(zero),
        Some(symbol),
        Some(uav_name),
        Some(zero),
        Some(three),
        Some(one),
        Some(two),
        Some(yes),
        Some(no),
        Some(yes),
        Some(uav_tags),
    ]);
    let sampler_name = md.string("S");
    let unbounded = md.value(I32, MINUS_ONE);
    let sampler = md.node(&[
        Some(zero),
        Some(symbol),
        Some(sampler_name),
        Some(one),
        Some(zero),
        Some(unbounded),
        Some(one),
        None,
    ]);
    let uavs = md.node(&[Some(uav)]);
    let samplers = md.node(&[Some(sampler)]);
    let resources = md.node(&[None, Some(uavs), None, Some(samplers)]);
    // Properties: flags 16, amplification state: 64x1x1 threads, 16-byte payload.
    let flags = md.value(I64, I64_16);
    let ten = md.value(I32, int(10));
    let sixty_four = md.value(I32, I32_64);
    let threads = md.node(&[Some(sixty_four), Some(one), Some(one)]);
    let sixteen = md.value(I32, int(16));
    let state = md.node(&[Some(threads), Some(sixteen)]);
    let props = md.node(&[Some(zero), Some(flags), Some(ten), Some(state)]);
    let main = md.value(FN_PTR, 1);
    let main_name = md.string("main");
    let entry = md.node(&[
        Some(main),
        Some(main_name),
        Some(sigs),
        Some(resources),
        Some(props),
    ]);
    let m = read_with(
        md,
        &[
            ("dx.shaderModel", &[sm]),
            ("dx.version", &[version]),
            ("dx.resources", &[resources]),
            ("dx.entryPoints", &[entry]),
        ],
    );
    let d = DxilMetadata::read(&m).expect("metadata reads");
    assert_eq!(
        d.shader_model,
        Some(ShaderModel {
            kind: ShaderKind::Amplification,
            major: 6,
            minor: 5
        })
    );
    assert_eq!(d.dxil_version, Some((1, 0)));
    assert_eq!(d.validator_version, None);
    let e = &d.entry_points[0];
    assert_eq!(e.name, "main");
    assert_eq!(e.function, Some(crate::module::ValueId(1)));
    assert!(e.signatures.input.is_empty());
    let out = &e.signatures.output[0];
    assert_eq!(out.name, "TEXCOORD");
    assert_eq!(out.component_type, ComponentType::F32);
    assert_eq!(out.semantic_kind, SemanticKind::Arbitrary);
    assert_eq!(out.semantic_indices.as_slice(), &[0, 1]);
    assert_eq!(out.interpolation, InterpolationMode::Linear);
    assert_eq!(
        (out.rows, out.cols, out.start_row, out.start_col),
        (2, 4, 0, 0)
    );
    assert_eq!((out.usage_mask, out.output_stream), (Some(15), 1));
    let uav = &d.resources.uavs[0];
    assert_eq!(uav.class, ResourceClass::Uav);
    assert_eq!((uav.space, uav.lower_bound, uav.range_size), (0, 3, 1));
    assert_eq!(uav.kind, ResourceKind::Texture2D);
    assert!(uav.globally_coherent && !uav.has_counter && uav.rasterizer_ordered);
    assert_eq!(uav.element_type, Some(ComponentType::F32));
    assert_eq!(uav.symbol, Some(crate::module::ValueId(0)));
    let s = &d.resources.samplers[0];
    assert_eq!(
        (s.space, s.range_size, s.sampler_kind),
        (1, u32::MAX, SamplerKind::Comparison)
    );
    assert_eq!(d.resources.get(ResourceClass::Sampler, 0), Some(s));
    assert_eq!(e.resources.as_ref(), Some(&d.resources));
    let p = &e.properties;
    assert_eq!(p.shader_flags, 16);
    assert_eq!(
        p.amplification,
        Some(AmplificationState {
            num_threads: [64, 1, 1],
            payload_size: 16
        })
    );
    assert_eq!(p.thread_group_size(), Some([64, 1, 1]));
    assert_eq!(p.tags.len(), 2);
}

#[test]
fn malformed_dxil_metadata_is_an_error_naming_the_node() {
    // An entry point with four operands.
    let mut md = Md::default();
    let name = md.string("main");
    let entry = md.node(&[None, Some(name), None, None]);
    let m = read_with(md, &[("dx.entryPoints", &[entry])]);
    let e = DxilMetadata::read(&m).expect_err("short entry").to_string();
    assert!(
        e.contains("dx.entryPoints") && e.contains("has 4 operands"),
        "{e}"
    );
    // A shader model that is not a profile.
    let mut md = Md::default();
    let s = md.string("xs");
    let six = md.value(I32, int(6));
    let sm = md.node(&[Some(s), Some(six), Some(six)]);
    let m = read_with(md, &[("dx.shaderModel", &[sm])]);
    let e = DxilMetadata::read(&m).expect_err("bad profile").to_string();
    assert!(e.contains("dx.shaderModel") && e.contains("\"xs\""), "{e}");
    // A resource whose range size is a string.
    let mut md = Md::default();
    let zero = md.value(I32, int(0));
    let n = md.string("T");
    let rec = md.node(&[
        Some(zero),
        None,
        Some(n),
        Some(zero),
        Some(zero),
        Some(n),
        Some(zero),
        Some(zero),
        None,
    ]);
    let srvs = md.node(&[Some(rec)]);
    let res = md.node(&[Some(srvs), None, None, None]);
    let m = read_with(md, &[("dx.resources", &[res])]);
    let e = DxilMetadata::read(&m).expect_err("bad range").to_string();
    assert!(
        e.contains("SRVs record 0 range size") && e.contains("not a value"),
        "{e}"
    );
}

#[test]
fn tuple_operand_view_decodes_nulls_pairs_and_bounds() {
    use crate::module::MetadataId;
    // Stored as id + 1, 0 for null; an odd trailing operand is left out of the pairs.
    let raw = [3u64, 0, 1, 8, 5];
    let ops = Ops { raw: &raw };
    assert_eq!(ops.len(), 5);
    assert_eq!(ops.op(0), Some(MetadataId(2)));
    assert_eq!(ops.get(1), Some(None));
    assert_eq!(ops.get(5), None);
    assert_eq!(
        ops.iter().collect::<Vec<_>>(),
        [
            Some(MetadataId(2)),
            None,
            Some(MetadataId(0)),
            Some(MetadataId(7)),
            Some(MetadataId(4))
        ]
    );
    assert_eq!(
        ops.pairs().collect::<Vec<_>>(),
        [
            (Some(MetadataId(2)), None),
            (Some(MetadataId(0)), Some(MetadataId(7)))
        ]
    );
}
