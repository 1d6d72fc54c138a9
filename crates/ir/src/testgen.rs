//! Deterministic random programs for tests, fuzzing and benchmarks.
//!
//! [`random_program`] makes programs that exercise every opcode, every literal kind and every
//! type shape with legal operand shapes: references to earlier ops, occasional forward
//! references, null optional references, strings of many lengths, constant data of every
//! scalar type. They are not meant to pass the validator — only to be well-formed for the
//! serializer and the text form. [`large_program`] makes a big straight-line shader-like
//! program for benchmarks. Both depend only on their arguments: the generator is the
//! workspace's test [`Rng`] (splitmix64, from `dxspv-testkit`).

use crate::builder::Builder;
use crate::enums::*;
use crate::op::{push_string, Op, OpFlags, Operand, SsaDef};
use crate::opcode::{LitKind, OpCode, RefKind, ResultRule};
use crate::types::{BasicType, ScalarType, Type, MAX_ARRAY_DIMS, MAX_STRUCT_MEMBERS};

/// The deterministic generator every test of the workspace uses.
pub use dxspv_testkit::Rng;

/// A random scalar or vector type (never void).
pub fn random_basic(rng: &mut Rng) -> BasicType {
    let scalar = rng.pick(&ScalarType::ALL[1..]).unwrap_or(ScalarType::U32);
    let size = if rng.chance(1, 2) {
        1
    } else {
        rng.range(2, 4) as u8
    };
    BasicType::vector(scalar, size)
}

/// A random type: void (if `void_ok`), scalars, vectors, structs and arrays of up to three
/// dimensions, sometimes unbounded.
pub fn random_type(rng: &mut Rng, void_ok: bool) -> Type {
    if void_ok && rng.chance(1, 8) {
        return Type::VOID;
    }
    let mut ty = random_struct_or_basic(rng);
    if rng.chance(1, 3) {
        let ndims = rng.range(1, MAX_ARRAY_DIMS as u64);
        for d in 0..ndims {
            let size = if d + 1 == ndims && rng.chance(1, 3) {
                0
            } else if rng.chance(1, 10) {
                rng.range(1, u32::MAX as u64) as u32
            } else {
                rng.range(1, 64) as u32
            };
            ty = ty.array_of(size).unwrap_or(ty);
        }
    }
    ty
}

fn random_struct_or_basic(rng: &mut Rng) -> Type {
    if rng.chance(1, 4) {
        let n = if rng.chance(1, 8) {
            MAX_STRUCT_MEMBERS
        } else {
            rng.range(2, 4) as usize
        };
        let members: Vec<BasicType> = (0..n).map(|_| random_basic(rng)).collect();
        Type::structure(&members).unwrap_or(Type::VOID)
    } else {
        Type::basic(random_basic(rng))
    }
}

/// A random type with at most 64 flattened scalars, for constants.
fn random_data_type(rng: &mut Rng) -> Type {
    let mut ty = random_struct_or_basic(rng);
    if rng.chance(1, 3) {
        for _ in 0..rng.range(1, 2) {
            ty = ty.array_of(rng.range(1, 3) as u32).unwrap_or(ty);
        }
    }
    if ty.flattened_scalar_count().is_none_or(|n| n > 64) {
        return Type::basic(random_basic(rng));
    }
    ty
}

/// A random data literal for a scalar of type `t`: usually in range, sometimes special (NaN,
/// infinities, signed zero, extremes), sometimes raw 64-bit noise.
fn random_data(rng: &mut Rng, t: Option<ScalarType>) -> u64 {
    use ScalarType as S;
    if rng.chance(1, 16) {
        return rng.next_u64();
    }
    let Some(t) = t else {
        return rng.next_u64();
    };
    match t {
        S::F32 | S::MinF16 | S::MinF10 => {
            let special = [
                0.0f32,
                -0.0,
                1.0,
                0.5,
                -2.0,
                0.1,
                f32::NAN,
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::MAX,
                f32::MIN_POSITIVE,
                f32::from_bits(1),
                1e20,
            ];
            match rng.below(3) {
                0 => rng.pick(&special).unwrap_or(0.0).to_bits() as u64,
                1 => ((rng.below(2001) as f32 - 1000.0) / 8.0).to_bits() as u64,
                _ => rng.below(1 << 32),
            }
        }
        S::F16 => rng.below(1 << 16),
        S::F64 => match rng.below(3) {
            0 => rng
                .pick(&[
                    0.0f64,
                    -0.0,
                    1.0,
                    0.1,
                    f64::NAN,
                    f64::INFINITY,
                    f64::MAX,
                    1e300,
                ])
                .unwrap_or(0.0)
                .to_bits(),
            1 => ((rng.below(2001) as f64 - 1000.0) / 16.0).to_bits(),
            _ => rng.next_u64(),
        },
        S::Bool => rng.below(2),
        t if t.is_int() => {
            let width = match t {
                S::MinI16 | S::MinU16 => 32,
                _ => t.bit_size().unwrap_or(64),
            };
            let mask = if width >= 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            match rng.below(3) {
                0 => rng.below(16),
                1 => mask, // -1 for signed types
                _ => rng.next_u64() & mask,
            }
        }
        _ => rng.below(1 << 20),
    }
}

/// A random integer literal: small, 32-bit or full 64-bit.
fn random_int(rng: &mut Rng) -> u64 {
    match rng.below(5) {
        0 | 1 => rng.below(16),
        2 => rng.below(1 << 32),
        3 => u64::MAX - rng.below(4),
        _ => rng.next_u64(),
    }
}

/// A random valid literal of an enum or flag kind (or an integer for the other kinds).
fn random_literal(rng: &mut Rng, kind: LitKind) -> u64 {
    macro_rules! pick_enum {
        ($t:ident) => {
            rng.pick($t::ALL).map_or(0, |v| v.to_literal())
        };
    }
    macro_rules! pick_flags {
        ($t:ident) => {
            rng.next_u64() & $t::ALL_BITS as u64
        };
    }
    match kind {
        LitKind::Int | LitKind::CaseValue | LitKind::Str | LitKind::Data => random_int(rng),
        LitKind::ShaderStage => pick_enum!(ShaderStage),
        LitKind::ShaderStageMask => pick_flags!(ShaderStageMask),
        LitKind::BuiltIn => pick_enum!(BuiltIn),
        LitKind::ResourceKind => pick_enum!(ResourceKind),
        LitKind::PrimitiveType => {
            if rng.chance(1, 3) {
                PrimitiveType::Patch(rng.range(1, 32) as u8).to_literal()
            } else {
                rng.below(6)
            }
        }
        LitKind::InterpolationModes => pick_flags!(InterpolationModes),
        LitKind::AtomicOp => pick_enum!(AtomicOp),
        LitKind::RoundMode => pick_enum!(RoundMode),
        LitKind::DenormMode => pick_enum!(DenormMode),
        LitKind::Scope => pick_enum!(Scope),
        LitKind::MemoryTypeMask => pick_flags!(MemoryTypeMask),
        LitKind::UavFlags => pick_flags!(UavFlags),
        LitKind::Construct => pick_enum!(Construct),
        LitKind::DerivativeMode => pick_enum!(DerivativeMode),
        LitKind::RovScope => pick_enum!(RovScope),
        LitKind::TessWindingOrder => pick_enum!(TessWindingOrder),
        LitKind::TessPartitioning => pick_enum!(TessPartitioning),
        LitKind::WaveOp => pick_enum!(WaveOp),
        LitKind::QuadDirection => pick_enum!(QuadDirection),
    }
}

/// A random string: lengths around multiples of 8, quotes, backslashes, control characters,
/// comment and reference characters and non-ASCII text (never NUL).
pub fn random_string(rng: &mut Rng) -> String {
    const ASCII: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ .";
    const SPECIAL: &[char] = &[
        '"', '\\', ';', '%', '\n', '\t', '\r', '\x01', '\x7f', 'é', '→', '𝄞', '[', ']',
    ];
    let len = match rng.below(4) {
        0 => rng
            .pick(&[0usize, 1, 7, 8, 9, 15, 16, 17, 24, 32])
            .unwrap_or(0),
        _ => rng.below(40) as usize,
    };
    let fancy = rng.chance(1, 3);
    (0..len)
        .map(|_| {
            if fancy && rng.chance(1, 4) {
                rng.pick(SPECIAL).unwrap_or('a')
            } else {
                rng.pick(ASCII).map_or('a', char::from)
            }
        })
        .collect()
}

/// A random reference for op `cur` of `total`: mostly recent earlier ops, sometimes any earlier
/// op, sometimes (more often when `forward_bias`) a later op; null when no other op exists.
fn random_ref(rng: &mut Rng, cur: u64, total: u64, forward_bias: bool) -> Operand {
    let forward_den = if forward_bias { 3 } else { 16 };
    let id = if cur < total && (cur == 1 || rng.chance(1, forward_den)) {
        rng.range(cur + 1, total)
    } else if cur > 1 {
        if rng.chance(1, 2) {
            rng.range(cur.saturating_sub(8).max(1), cur - 1)
        } else {
            rng.range(1, cur - 1)
        }
    } else {
        0
    };
    Operand(id)
}

/// One random op of `opcode` with id `cur` in a program of `total` ops.
fn random_op(rng: &mut Rng, opcode: OpCode, cur: u64, total: u64) -> Op {
    let info = opcode.info();
    let ty = match info.result {
        ResultRule::Void => Type::VOID,
        _ if opcode == OpCode::Constant => random_data_type(rng),
        ResultRule::Any | ResultRule::AtomicResult => random_type(rng, true),
        _ => random_type(rng, false),
    };
    let mut op = Op::new(opcode, ty);
    if rng.chance(1, 4) {
        op.flags = OpFlags(rng.next_u64() as u8 & OpFlags::ALL_BITS);
    }
    // Ops with operands that may name later ops name them often.
    let forward_bias = info
        .refs
        .iter()
        .chain(info.ref_tail)
        .any(|r| r.role.may_be_later());
    for r in info.refs {
        let r = if r.kind == RefKind::Optional && rng.chance(1, 3) {
            Operand::NULL
        } else {
            random_ref(rng, cur, total, forward_bias)
        };
        op.operands.push(r);
    }
    if info.var_refs() {
        for _ in 0..rng.below(6) {
            op.operands.push(random_ref(rng, cur, total, forward_bias));
        }
    }
    for kind in info.lits {
        op.operands.push(Operand(random_literal(rng, *kind)));
    }
    match info.var_lits {
        Some(LitKind::Str) => push_string(&mut op.operands, &random_string(rng)),
        Some(LitKind::Data) => {
            let n = op.ty.flattened_scalar_count().unwrap_or(1);
            for i in 0..n {
                let v = random_data(rng, op.ty.flattened_scalar_type(i as usize));
                op.operands.push(Operand(v));
            }
        }
        Some(kind) => {
            for _ in 0..rng.below(4) {
                op.operands.push(Operand(random_literal(rng, kind)));
            }
        }
        None => {}
    }
    op
}

/// A random program of `ops` ops with ids `1..=ops` in program order. The first 195 ops (or
/// all, if fewer) use every opcode once in a seed-dependent order; the rest are random.
/// Operand shapes are always legal for the opcode; semantics are not (the validator will
/// reject most of these programs).
pub fn random_program(seed: u64, ops: usize) -> Builder {
    let mut rng = Rng::new(seed);
    let mut order: Vec<OpCode> = OpCode::ALL.to_vec();
    for i in (1..order.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        order.swap(i, j);
    }
    let total = ops.min(u32::MAX as usize - 1) as u64;
    let mut b = Builder::with_capacity(ops);
    for cur in 1..=total {
        let opcode = order
            .get(cur as usize - 1)
            .copied()
            .or_else(|| rng.pick(OpCode::ALL))
            .unwrap_or(OpCode::Unreachable);
        let op = random_op(&mut rng, opcode, cur, total);
        if let Some(def) = SsaDef::new(cur as u32) {
            // Ids are fresh, so this cannot fail.
            let _ = b.add_with_id(def, op);
        }
    }
    b
}

/// The fewest ops [`large_program`] makes: its declarations, function frame and output stores.
pub const LARGE_PROGRAM_MIN_OPS: usize = 64;

/// Appends ops with consecutive ids.
struct Emitter {
    b: Builder,
    next: u32,
}

impl Emitter {
    fn add(&mut self, op: Op) -> SsaDef {
        let def = SsaDef::new(self.next).unwrap_or_else(|| unreachable!("ids start at 1"));
        self.next += 1;
        let _ = self.b.add_with_id(def, op);
        def
    }

    fn name(&mut self, def: SsaDef, name: &str) {
        self.add(
            Op::new(OpCode::DebugName, Type::VOID)
                .with_ref(def)
                .with_str(name),
        );
    }
}

/// A realistic big straight-line pixel shader of exactly `ops.max(LARGE_PROGRAM_MIN_OPS)` ops,
/// for benchmarks: entry point, names, inputs, outputs, a constant buffer, a texture and
/// sampler, constants, then one function with long chains of float arithmetic fed by input
/// loads, constant buffer loads and texture samples, ending in output stores.
pub fn large_program(ops: usize) -> Builder {
    use ScalarType as S;
    let ops = ops.max(LARGE_PROGRAM_MIN_OPS);
    let mut e = Emitter {
        b: Builder::with_capacity(ops),
        next: 1,
    };
    let f32t = Type::scalar(S::F32);
    let vec4 = Type::vector(S::F32, 4);
    let u32t = Type::scalar(S::U32);

    let ep = e.add(
        Op::new(OpCode::EntryPoint, Type::VOID)
            .with_opt_ref(None)
            .with_lit(ShaderStage::Pixel.to_literal()),
    );
    e.name(ep, "main");
    e.add(Op::new(OpCode::SetPsEarlyFragmentTest, Type::VOID).with_ref(ep));
    let mut inputs = Vec::new();
    for i in 0..4u64 {
        let d = e.add(
            Op::new(OpCode::DclInput, vec4)
                .with_ref(ep)
                .with_lit(i)
                .with_lit(0)
                .with_lit(InterpolationModes::empty().to_literal()),
        );
        e.add(
            Op::new(OpCode::Semantic, Type::VOID)
                .with_ref(d)
                .with_lit(i)
                .with_str("TEXCOORD"),
        );
        inputs.push(d);
    }
    let mut outputs = Vec::new();
    for i in 0..2u64 {
        let d = e.add(
            Op::new(OpCode::DclOutput, vec4)
                .with_ref(ep)
                .with_lit(i)
                .with_lit(0)
                .with_lit(0),
        );
        e.name(d, &format!("o{i}"));
        outputs.push(d);
    }
    let cbv_ty = vec4.array_of(256).unwrap_or(vec4);
    let cbv = e.add(
        Op::new(OpCode::DclCbv, cbv_ty)
            .with_ref(ep)
            .with_lit(0)
            .with_lit(0)
            .with_lit(1),
    );
    e.name(cbv, "Globals");
    let srv = e.add(
        Op::new(OpCode::DclSrv, f32t)
            .with_ref(ep)
            .with_lit(0)
            .with_lit(0)
            .with_lit(1)
            .with_lit(ResourceKind::Image2D.to_literal()),
    );
    let sampler = e.add(
        Op::new(OpCode::DclSampler, Type::VOID)
            .with_ref(ep)
            .with_lit(0)
            .with_lit(0)
            .with_lit(1),
    );
    let mut fconsts = Vec::new();
    for v in [0.0f32, 1.0, 0.5, 2.0, -1.0, 0.25, 3.0, 10.0] {
        fconsts.push(e.add(Op::new(OpCode::Constant, f32t).with_lit(v.to_bits() as u64)));
    }
    let mut uconsts = Vec::new();
    for v in 0..4u64 {
        uconsts.push(e.add(Op::new(OpCode::Constant, u32t).with_lit(v)));
    }
    let zero_u = uconsts[0];
    let offset = e.add(
        Op::new(OpCode::Constant, Type::vector(S::I32, 2))
            .with_lit(1)
            .with_lit(0xffff_ffff),
    );
    let func = e.add(Op::new(OpCode::Function, Type::VOID));
    e.b.set_operand(ep, 0, Operand::from_def(func));
    e.name(func, "main");
    e.add(Op::new(OpCode::Label, Type::VOID).with_lit(Construct::None.to_literal()));
    let cbv_desc = e.add(
        Op::new(OpCode::DescriptorLoad, Type::scalar(S::Cbv))
            .with_ref(cbv)
            .with_ref(zero_u),
    );
    let srv_desc = e.add(
        Op::new(OpCode::DescriptorLoad, Type::scalar(S::Srv))
            .with_ref(srv)
            .with_ref(zero_u),
    );
    let smp_desc = e.add(
        Op::new(OpCode::DescriptorLoad, Type::scalar(S::Sampler))
            .with_ref(sampler)
            .with_ref(zero_u),
    );

    // Recent scalar values feed the next ops, like a register allocator's live set.
    let mut live: Vec<SsaDef> = Vec::new();
    for (i, &input) in inputs.iter().enumerate() {
        let v = e.add(
            Op::new(OpCode::InputLoad, f32t)
                .with_ref(input)
                .with_ref(uconsts[i % uconsts.len()]),
        );
        live.push(v);
    }
    live.extend_from_slice(&fconsts[..4]);

    // Tail: 8 output stores, Return, FunctionEnd.
    let tail = 10usize;
    let mut rng = Rng::new(0x5eed);
    let arith = [
        OpCode::FAdd,
        OpCode::FMul,
        OpCode::FSub,
        OpCode::FMad,
        OpCode::FMin,
        OpCode::FMax,
        OpCode::FAdd,
        OpCode::FMul,
        OpCode::FRsq,
        OpCode::FNeg,
        OpCode::FAbs,
    ];
    while (e.next as usize - 1) + tail < ops {
        let left = ops - tail - (e.next as usize - 1);
        let pick = |rng: &mut Rng, live: &[SsaDef]| -> SsaDef {
            let n = live.len() as u64;
            live[(n - 1 - rng.below(n.min(12))) as usize]
        };
        let v = match rng.below(40) {
            0 if left >= 2 => {
                let addr = e.add(Op::new(OpCode::Constant, u32t).with_lit(rng.below(256)));
                e.add(
                    Op::new(OpCode::BufferLoad, f32t)
                        .with_ref(cbv_desc)
                        .with_ref(addr)
                        .with_lit(4),
                )
            }
            1 if left >= 2 => {
                let a = pick(&mut rng, &live);
                let c = pick(&mut rng, &live);
                let coord = e.add(
                    Op::new(OpCode::CompositeConstruct, Type::vector(S::F32, 2))
                        .with_ref(a)
                        .with_ref(c),
                );
                let mut op = Op::new(OpCode::ImageSample, f32t)
                    .with_ref(srv_desc)
                    .with_ref(smp_desc)
                    .with_opt_ref(None)
                    .with_ref(coord)
                    .with_opt_ref(if rng.chance(1, 4) { Some(offset) } else { None });
                for _ in 0..6 {
                    op = op.with_opt_ref(None);
                }
                e.add(op)
            }
            2 if left >= 2 => {
                let a = pick(&mut rng, &live);
                let c = pick(&mut rng, &live);
                let cond = e.add(
                    Op::new(OpCode::FLt, Type::scalar(S::Bool))
                        .with_ref(a)
                        .with_ref(c),
                );
                e.add(
                    Op::new(OpCode::Select, f32t)
                        .with_ref(cond)
                        .with_ref(a)
                        .with_ref(c),
                )
            }
            _ => {
                let opcode = rng.pick(&arith).unwrap_or(OpCode::FAdd);
                let mut op = Op::new(opcode, f32t);
                if rng.chance(1, 8) {
                    op.flags = OpFlags::PRECISE;
                }
                for _ in opcode.info().refs {
                    op = op.with_ref(pick(&mut rng, &live));
                }
                e.add(op)
            }
        };
        live.push(v);
        if live.len() > 64 {
            live.drain(..32);
        }
    }
    for (i, &out) in outputs.iter().enumerate() {
        for c in 0..4 {
            let n = live.len();
            let v = live[n - 1 - (i * 4 + c) % n];
            e.add(
                Op::new(OpCode::OutputStore, Type::VOID)
                    .with_ref(out)
                    .with_ref(uconsts[c])
                    .with_ref(v),
            );
        }
    }
    e.add(Op::new(OpCode::Return, Type::VOID).with_opt_ref(None));
    e.add(Op::new(OpCode::FunctionEnd, Type::VOID));
    e.b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_covering() {
        let a = crate::text::print(&random_program(3, 300));
        let b = crate::text::print(&random_program(3, 300));
        assert_eq!(a, b);
        let p = random_program(3, 300);
        assert_eq!(p.len(), 300);
        let mut seen = [false; OpCode::ALL.len()];
        for (_, op) in p.iter() {
            seen[op.opcode.code() as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        for (def, op) in p.iter() {
            let info = op.opcode.info();
            assert!(info.ref_count(op.operands.len()).is_some(), "{def}");
            for r in op.refs().flatten() {
                assert_ne!(r, def, "self reference");
                assert!(p.contains(r));
            }
        }
    }

    #[test]
    fn large_program_has_the_requested_size() {
        for n in [0, 10, 64, 65, 100, 1000, 5000] {
            let p = large_program(n);
            assert_eq!(p.len(), n.max(LARGE_PROGRAM_MIN_OPS), "{n}");
            for (def, op) in p.iter() {
                assert!(op.opcode.info().ref_count(op.operands.len()).is_some());
                for r in op.refs().flatten() {
                    assert!(p.contains(r), "{def} -> {r}");
                }
            }
        }
    }
}
