//! Converter tests on DXIL modules written here: a small assembler ([`Asm`]) produces the
//! LLVM 3.7 bitcode and DXIL metadata of one-function shaders, so each test states the
//! instructions it converts. Semantics are checked by running the pass pipeline (with the
//! validator after every pass) on constant inputs and reading the folded constants the
//! shader stores; refusals and malformed modules by their errors.

use crate::convert::{convert, ConvertError};
use crate::testing::{blk, dxil_container, module, r, rs, Item};
use crate::Shader;
use dxspv_ir::passes::options::Options;
use dxspv_ir::passes::pipeline::run_pipeline;
use dxspv_ir::{text, Builder, OpCode};

/// A value of the module being written.
#[derive(Clone, Copy, Debug, PartialEq)]
enum V {
    /// A global variable (by declaration order).
    G(usize),
    /// A module constant (by creation order).
    C(usize),
    /// A function (by declaration order).
    F(usize),
    /// The result of instruction `n` that has one (by order).
    I(usize),
}

/// An instruction of the entry function.
enum Inst {
    Call {
        fnty: u64,
        callee: V,
        args: Vec<V>,
        result: bool,
    },
    Bin {
        op: u64,
        a: V,
        b: V,
        flags: u64,
    },
    Cmp {
        pred: u64,
        a: V,
        b: V,
    },
    Cast {
        v: V,
        ty: u64,
        op: u64,
    },
    Phi {
        ty: u64,
        pairs: Vec<(V, u64)>,
    },
    /// `getelementptr inbounds` of `ty` from `base` by `indices`.
    Gep {
        ty: u64,
        base: V,
        indices: Vec<V>,
    },
    /// `load` of a `ty` through `ptr`.
    Load {
        ty: u64,
        ptr: V,
    },
    /// `store` of `v` through `ptr`.
    Store {
        ptr: V,
        v: V,
    },
    /// `atomicrmw` `op` (LLVM's code) of `v` through `ptr`, sequentially consistent.
    Rmw {
        ptr: V,
        v: V,
        op: u64,
    },
    /// `extractvalue` of aggregate `v` at index `idx`.
    Extract {
        v: V,
        idx: u64,
    },
    Br(u64),
    CondBr {
        t: u64,
        f: u64,
        cond: V,
    },
    Ret,
}

/// A metadata operand.
#[derive(Clone)]
enum Md {
    Str(String),
    Val(u64, V),
    Node(Vec<Option<usize>>),
}

// Types every test module has.
const I32: u64 = 0;
const I1: u64 = 1;
const I8: u64 = 2;
const VOID: u64 = 3;
const F32: u64 = 4;
const HANDLE: u64 = 6;

/// Writes a DXIL module with one entry function `main`.
struct Asm {
    types: Vec<Item>,
    type_keys: Vec<Vec<u64>>,
    funcs: Vec<(String, u64)>,
    /// Global variables: value type and address space.
    globals: Vec<(u64, u64)>,
    consts: Vec<(u64, Item)>,
    insts: Vec<Inst>,
    results: usize,
    blocks: u64,
    md: Vec<Md>,
    named: Vec<(String, Vec<usize>)>,
}

impl Asm {
    fn new() -> Self {
        let mut a = Asm {
            types: Vec::new(),
            type_keys: Vec::new(),
            funcs: Vec::new(),
            globals: Vec::new(),
            consts: Vec::new(),
            insts: Vec::new(),
            results: 0,
            blocks: 1,
            md: Vec::new(),
            named: Vec::new(),
        };
        a.ty(&[7, 32]); // 0 i32
        a.ty(&[7, 1]); // 1 i1
        a.ty(&[7, 8]); // 2 i8
        a.ty(&[2]); // 3 void
        a.ty(&[3]); // 4 float
        a.ty(&[8, 2, 0]); // 5 i8*
        a.types.push(rs(19, &[], "dx.types.Handle"));
        a.ty(&[20, 0, 5]); // 6 %dx.types.Handle
        a
    }

    /// A type record `[code, ops...]`, deduplicated.
    fn ty(&mut self, rec: &[u64]) -> u64 {
        if let Some(i) = self.type_keys.iter().position(|k| k == rec) {
            return i as u64;
        }
        self.type_keys.push(rec.to_vec());
        self.types.push(r(rec[0] as u32, &rec[1..]));
        (self.type_keys.len() - 1) as u64
    }

    /// Declares function `name` of type `ret (params)`: its function type and value.
    fn func(&mut self, name: &str, ret: u64, params: &[u64]) -> (u64, V) {
        let mut rec = vec![21, 0, ret];
        rec.extend_from_slice(params);
        let fnty = self.ty(&rec);
        self.ty(&[8, fnty, 0]);
        if let Some(i) = self.funcs.iter().position(|(n, _)| n == name) {
            return (fnty, V::F(i));
        }
        self.funcs.push((name.to_string(), fnty));
        (fnty, V::F(self.funcs.len() - 1))
    }

    fn konst(&mut self, ty: u64, rec: Item) -> V {
        self.consts.push((ty, rec));
        V::C(self.consts.len() - 1)
    }

    fn int(&mut self, ty: u64, v: i64) -> V {
        let enc = if v >= 0 {
            (v as u64) << 1
        } else {
            ((v.unsigned_abs()) << 1) | 1
        };
        self.konst(ty, r(4, &[enc]))
    }

    fn i32(&mut self, v: i64) -> V {
        self.int(I32, v)
    }

    fn f32(&mut self, v: f32) -> V {
        self.konst(F32, r(6, &[u64::from(v.to_bits())]))
    }

    fn undef(&mut self, ty: u64) -> V {
        self.konst(ty, r(3, &[]))
    }

    fn push(&mut self, i: Inst, result: bool) -> V {
        self.insts.push(i);
        if result {
            self.results += 1;
            V::I(self.results - 1)
        } else {
            V::I(usize::MAX)
        }
    }

    /// A `dx.op` call.
    fn dx_op(&mut self, name: &str, ret: u64, params: &[u64], opcode: i64, args: &[V]) -> V {
        let mut all = vec![I32];
        all.extend_from_slice(params);
        let (fnty, callee) = self.func(name, ret, &all);
        let code = self.i32(opcode);
        let mut a = vec![code];
        a.extend_from_slice(args);
        let result = ret != VOID;
        self.push(
            Inst::Call {
                fnty,
                callee,
                args: a,
                result,
            },
            result,
        )
    }

    fn bin(&mut self, op: u64, a: V, b: V, flags: u64) -> V {
        self.push(Inst::Bin { op, a, b, flags }, true)
    }

    fn cmp(&mut self, pred: u64, a: V, b: V) -> V {
        self.push(Inst::Cmp { pred, a, b }, true)
    }

    fn zext(&mut self, v: V) -> V {
        self.push(Inst::Cast { v, ty: I32, op: 1 }, true)
    }

    /// The named struct type `%dx.types.fouri32` (ballots and matches).
    fn fouri32(&mut self) -> u64 {
        let key = [20, 0, I32, I32, I32, I32];
        if let Some(i) = self.type_keys.iter().position(|k| k == &key) {
            return i as u64;
        }
        self.types.push(rs(19, &[], "dx.types.fouri32"));
        self.ty(&key)
    }

    fn md(&mut self, m: Md) -> usize {
        self.md.push(m);
        self.md.len() - 1
    }

    fn md_i32(&mut self, v: i64) -> usize {
        let c = self.i32(v);
        self.md(Md::Val(I32, c))
    }

    fn md_str(&mut self, s: &str) -> usize {
        self.md(Md::Str(s.into()))
    }

    fn node(&mut self, ops: &[Option<usize>]) -> usize {
        self.md(Md::Node(ops.to_vec()))
    }

    /// The bitcode: types, functions, constants, metadata, names, the body of `main` (the
    /// last function declared, with `blocks` blocks).
    fn bitcode(mut self, main: usize) -> Vec<u8> {
        let ng = self.globals.len();
        let nf = ng + self.funcs.len();
        let nc = self.consts.len();
        let abs = |v: V| -> u64 {
            match v {
                V::G(i) => i as u64,
                V::F(i) => (ng + i) as u64,
                V::C(i) => (nf + i) as u64,
                V::I(i) => (nf + nc + i) as u64,
            }
        };
        let mut types = vec![r(1, &[self.type_keys.len() as u64])];
        types.append(&mut self.types);
        let mut items = vec![blk(17, types)];
        for &(ty, space) in &self.globals {
            items.push(r(7, &[ty, 2 | (space << 2), 0, 0, 0, 0]));
        }
        for (i, (_, fnty)) in self.funcs.iter().enumerate() {
            let proto = u64::from(i != main);
            items.push(r(8, &[*fnty, 0, proto, 0, 0, 0, 0, 0, 0, 0]));
        }
        let mut consts = Vec::new();
        let mut cur = u64::MAX;
        for (ty, rec) in std::mem::take(&mut self.consts) {
            if ty != cur {
                consts.push(r(1, &[ty]));
                cur = ty;
            }
            consts.push(rec);
        }
        items.push(blk(11, consts));
        let mut md = Vec::new();
        for m in &self.md {
            md.push(match m {
                Md::Str(s) => rs(1, &[], s),
                Md::Val(ty, v) => r(2, &[*ty, abs(*v)]),
                Md::Node(ops) => r(
                    3,
                    &ops.iter()
                        .map(|o| o.map_or(0, |i| i as u64 + 1))
                        .collect::<Vec<_>>(),
                ),
            });
        }
        for (name, ops) in &self.named {
            md.push(rs(4, &[], name));
            md.push(r(10, &ops.iter().map(|&i| i as u64).collect::<Vec<_>>()));
        }
        items.push(blk(15, md));
        items.push(blk(
            14,
            self.funcs
                .iter()
                .enumerate()
                .map(|(i, (n, _))| rs(1, &[(ng + i) as u64], n))
                .collect(),
        ));
        let mut body = vec![r(1, &[self.blocks])];
        let mut next = (nf + nc) as u64;
        for inst in &self.insts {
            // Relative ids wrap (as 32-bit values) for forward references.
            let rel = |v: V| u64::from((next as u32).wrapping_sub(abs(v) as u32));
            let (rec, result) = match inst {
                Inst::Call {
                    fnty,
                    callee,
                    args,
                    result,
                } => {
                    let mut ops = vec![0, 1 << 15, *fnty, rel(*callee)];
                    ops.extend(args.iter().map(|&a| rel(a)));
                    (r(34, &ops), *result)
                }
                Inst::Bin { op, a, b, flags } => {
                    // A forward first operand carries its type (i32 here).
                    let mut ops = vec![rel(*a)];
                    if abs(*a) >= next {
                        ops.push(I32);
                    }
                    ops.extend([rel(*b), *op]);
                    if *flags != 0 {
                        ops.push(*flags);
                    }
                    (r(2, &ops), true)
                }
                Inst::Cmp { pred, a, b } => (r(28, &[rel(*a), rel(*b), *pred]), true),
                Inst::Cast { v, ty, op } => (r(3, &[rel(*v), *ty, *op]), true),
                Inst::Phi { ty, pairs } => {
                    let mut ops = vec![*ty];
                    for &(v, bb) in pairs {
                        let d = next as i64 - abs(v) as i64;
                        let enc = if d >= 0 {
                            (d as u64) << 1
                        } else {
                            (d.unsigned_abs() << 1) | 1
                        };
                        ops.extend([enc, bb]);
                    }
                    (r(16, &ops), true)
                }
                Inst::Extract { v, idx } => (r(26, &[rel(*v), *idx]), true),
                Inst::Gep { ty, base, indices } => {
                    let mut ops = vec![1, *ty, rel(*base)];
                    ops.extend(indices.iter().map(|&i| rel(i)));
                    (r(43, &ops), true)
                }
                Inst::Load { ty, ptr } => (r(20, &[rel(*ptr), *ty, 3, 0]), true),
                Inst::Store { ptr, v } => (r(44, &[rel(*ptr), rel(*v), 3, 0]), false),
                Inst::Rmw { ptr, v, op } => (r(38, &[rel(*ptr), rel(*v), *op, 0, 6, 1]), true),
                Inst::Br(bb) => (r(11, &[*bb]), false),
                Inst::CondBr { t, f, cond } => (r(11, &[*t, *f, rel(*cond)]), false),
                Inst::Ret => (r(10, &[]), false),
            };
            body.push(rec);
            if result {
                next += 1;
            }
        }
        items.push(blk(12, body));
        module(items)
    }
}

/// `dx.shaderModel`, `dx.resources` and a compute entry point `main` of 1x1x1 threads.
fn compute_metadata(a: &mut Asm, model: &str, resources: Option<usize>, main: V) {
    let sm_name = a.md_str(model);
    let six = a.md_i32(6);
    let zero = a.md_i32(0);
    let sm = a.node(&[Some(sm_name), Some(six), Some(zero)]);
    let fty = a.funcs_ptr_ty(main);
    let f = a.md(Md::Val(fty, main));
    let name = a.md_str("main");
    let one = a.md_i32(1);
    let threads = a.node(&[Some(one), Some(one), Some(one)]);
    let four = a.md_i32(4);
    let props = a.node(&[Some(four), Some(threads)]);
    let entry = a.node(&[Some(f), Some(name), None, resources, Some(props)]);
    a.named.push(("dx.shaderModel".into(), vec![sm]));
    if let Some(res) = resources {
        a.named.push(("dx.resources".into(), vec![res]));
    }
    a.named.push(("dx.entryPoints".into(), vec![entry]));
}

impl Asm {
    /// The pointer-to-function type of function value `f`.
    fn funcs_ptr_ty(&mut self, f: V) -> u64 {
        let V::F(i) = f else { return 0 };
        let fnty = self.funcs[i].1;
        self.ty(&[8, fnty, 0])
    }

    /// A raw-buffer UAV at `u0` (range id 0) in the `dx.resources` list: the resources node.
    fn raw_uav(&mut self, space: i64) -> usize {
        self.uav(space, 11, None)
    }

    /// A UAV of DXIL resource kind `kind` at `u0` (range id 0) with the tag list `tags`:
    /// the resources node.
    fn uav(&mut self, space: i64, kind: i64, tags: Option<usize>) -> usize {
        let zero = self.md_i32(0);
        let name = self.md_str("u");
        let space = self.md_i32(space);
        let one = self.md_i32(1);
        let raw = self.md_i32(kind);
        let f = self.int(I1, 0);
        let no = self.md(Md::Val(I1, f));
        let uav = self.node(&[
            Some(zero),
            None,
            Some(name),
            Some(space),
            Some(zero),
            Some(one),
            Some(raw),
            Some(no),
            Some(no),
            Some(no),
            tags,
        ]);
        let uavs = self.node(&[Some(uav)]);
        self.node(&[None, Some(uavs), None, None])
    }

    /// `createHandle` of UAV range 0, index 0.
    fn uav_handle(&mut self) -> V {
        let one = self.int(I8, 1);
        let zero = self.i32(0);
        let no = self.int(I1, 0);
        self.dx_op(
            "dx.op.createHandle",
            HANDLE,
            &[I8, I32, I32, I1],
            57,
            &[one, zero, zero, no],
        )
    }

    /// `bufferStore.i32` of `v` at byte offset `at` of handle `h` (mask x).
    fn store(&mut self, h: V, at: u32, v: V) {
        let off = self.i32(i64::from(at));
        let u = self.undef(I32);
        let mask = self.int(I8, 1);
        self.dx_op(
            "dx.op.bufferStore.i32",
            VOID,
            &[HANDLE, I32, I32, I32, I32, I32, I32, I8],
            69,
            &[h, off, u, v, u, u, u, mask],
        );
    }
}

/// A compute shader storing each of `values(asm)` (i32 values) to `u0` at offsets 0, 4, ….
fn compute_shader(values: impl FnOnce(&mut Asm) -> Vec<V>) -> Vec<u8> {
    let mut a = Asm::new();
    let h = a.uav_handle();
    let vs = values(&mut a);
    for (i, v) in vs.into_iter().enumerate() {
        a.store(h, 4 * i as u32, v);
    }
    a.push(Inst::Ret, false);
    let (_, main) = a.func("main", VOID, &[]);
    let res = a.raw_uav(0);
    compute_metadata(&mut a, "cs", Some(res), main);
    let V::F(m) = main else { unreachable!() };
    let bc = a.bitcode(m);
    dxil_container(&bc, 5, 0)
}

/// Converts a container.
fn convert_bytes(bytes: &[u8]) -> Result<Builder, ConvertError> {
    let shader = Shader::parse(bytes).map_err(ConvertError::Read)?;
    convert(&shader)
}

/// Converts and runs the pass pipeline with validation after every pass.
fn lower(bytes: &[u8]) -> Builder {
    let mut b = convert_bytes(bytes).expect("converts");
    let opts = Options {
        validate_each_pass: true,
        ..Options::default()
    };
    if let Err(e) = run_pipeline(&mut b, &opts) {
        panic!("pipeline: {e}\n{}", text::print(&b));
    }
    b
}

/// The values the lowered program stores to buffers, in program order, each evaluated
/// from the constants it is computed from (see [`eval`]).
fn stored_constants(b: &Builder) -> Vec<u64> {
    b.iter()
        .filter(|(_, op)| op.opcode == OpCode::BufferStore)
        .map(|(_, op)| eval(b, op.arg(2).expect("value")))
        .collect()
}

/// Evaluates a 32-bit integer or bool value computed from constants by the integer ops the
/// converter's compositions use, with the semantics `dxspv_ir::opcode` documents for them
/// (an interpreter written from those docs, so a test checks the composition against the
/// IR's contract, not against the converter's own assumptions).
fn eval(b: &Builder, d: dxspv_ir::SsaDef) -> u64 {
    let op = b.op(d);
    let a = |i: usize| eval(b, op.arg(i).expect("operand")) as u32;
    let bit = |v: bool| u64::from(v);
    let u = |v: u32| u64::from(v);
    match op.opcode {
        OpCode::Constant => op.lit(0).expect("literal"),
        OpCode::Cast | OpCode::ConvertItoI => u(a(0)),
        OpCode::IAdd => u(a(0).wrapping_add(a(1))),
        OpCode::ISub => u(a(0).wrapping_sub(a(1))),
        OpCode::IMul => u(a(0).wrapping_mul(a(1))),
        OpCode::IAnd => u(a(0) & a(1)),
        OpCode::IOr => u(a(0) | a(1)),
        OpCode::IXor => u(a(0) ^ a(1)),
        OpCode::INot => u(!a(0)),
        OpCode::IShl => u(a(0) << (a(1) & 31)),
        OpCode::UShr => u(a(0) >> (a(1) & 31)),
        OpCode::SShr => u(((a(0) as i32) >> (a(1) & 31)) as u32),
        OpCode::UMin => u(a(0).min(a(1))),
        OpCode::IEq => bit(a(0) == a(1)),
        OpCode::INe => bit(a(0) != a(1)),
        OpCode::ULt => bit(a(0) < a(1)),
        OpCode::UGe => bit(a(0) >= a(1)),
        OpCode::BOr => bit(a(0) != 0 || a(1) != 0),
        OpCode::BAnd => bit(a(0) != 0 && a(1) != 0),
        OpCode::Select => u(if a(0) != 0 { a(1) } else { a(2) }),
        OpCode::IBitReverse => u(a(0).reverse_bits()),
        OpCode::IBitCount => u(a(0).count_ones()),
        OpCode::IFindLsb => u(if a(0) == 0 {
            u32::MAX
        } else {
            a(0).trailing_zeros()
        }),
        OpCode::UFindMsb => u(if a(0) == 0 {
            u32::MAX
        } else {
            31 - a(0).leading_zeros()
        }),
        OpCode::SFindMsb => {
            let x = a(0) as i32;
            let y = if x < 0 { !x } else { x } as u32;
            u(if y == 0 {
                u32::MAX
            } else {
                31 - y.leading_zeros()
            })
        }
        OpCode::UBitExtract | OpCode::SBitExtract => {
            let (v, off, count) = (a(0), a(1) & 31, a(2) & 31);
            let count = count.min(32 - off);
            if count == 0 {
                return 0;
            }
            let field = (v >> off) & (u32::MAX >> (32 - count));
            if op.opcode == OpCode::SBitExtract && field >> (count - 1) & 1 == 1 {
                u(field | (u32::MAX << count))
            } else {
                u(field)
            }
        }
        other => panic!("no evaluation for {other:?} in {}", text::print(b)),
    }
}

#[test]
fn signed_division_and_remainder_follow_llvm() {
    let bytes = compute_shader(|a| {
        let mut out = Vec::new();
        for (x, y) in [(-7i64, 2i64), (7, -2), (-7, -2), (i64::from(i32::MIN), -1)] {
            let x = a.i32(x);
            let y = a.i32(y);
            out.push(a.bin(4, x, y, 0)); // sdiv
            out.push(a.bin(6, x, y, 0)); // srem
        }
        out
    });
    let b = lower(&bytes);
    let got: Vec<i32> = stored_constants(&b)
        .iter()
        .map(|&v| v as u32 as i32)
        .collect();
    assert_eq!(got, [-3, -1, -3, 1, 3, -1, i32::MIN, 0]);
}

#[test]
fn firstbit_ops_count_from_the_top_as_dxil_does() {
    let bytes = compute_shader(|a| {
        let mut out = Vec::new();
        for (op, x) in [
            (33, 0x0001_0000i64), // FirstbitHi: bit 16 is 15 from the top
            (33, 0),              // no bit: -1
            (34, -2),             // FirstbitSHi of 0xFFFFFFFE: bit 0 differs, 31 from the top
            (34, -1),             // no bit differs from the sign: -1
            (32, 0x0000_0100),    // FirstbitLo: bit 8
            (31, 0x0F0F),         // Countbits: 8
            (30, 1),              // Bfrev: the top bit
        ] {
            let x = a.i32(x);
            let name = if op == 30 {
                "dx.op.unary.i32"
            } else {
                "dx.op.unaryBits.i32"
            };
            out.push(a.dx_op(name, I32, &[I32], op, &[x]));
        }
        out
    });
    let b = lower(&bytes);
    let got: Vec<i32> = stored_constants(&b)
        .iter()
        .map(|&v| v as u32 as i32)
        .collect();
    assert_eq!(got, [15, -1, 31, -1, 8, 8, i32::MIN]);
}

#[test]
fn legacy_f32_to_f16_rounds_toward_zero_and_clamps() {
    let bytes = compute_shader(|a| {
        let mut out = Vec::new();
        for x in [
            1.0f32,
            1024.75,
            -65519.0,
            1.0e6,
            f32::INFINITY,
            1.0e-8,
            6.0e-5,
        ] {
            let x = a.f32(x);
            out.push(a.dx_op("dx.op.legacyF32ToF16", I32, &[F32], 130, &[x]));
        }
        out
    });
    let b = lower(&bytes);
    let got = stored_constants(&b);
    // 1.0; 1024.75 truncated to 1024 (halves are 1 apart there); -65519 to -65504; 1e6 to
    // the largest half;
    // infinity kept; 1e-8 under the smallest subnormal: 0; 6e-5 a subnormal, truncated.
    assert_eq!(got, [0x3c00, 0x6400, 0xfbff, 0x7bff, 0x7c00, 0, 0x03ee]);
}

#[test]
fn a_loop_with_phis_converts_to_valid_structured_ir() {
    // sum = 0; for (i = 0; i != 4; i++) sum += i; store sum.
    let mut a = Asm::new();
    let h = a.uav_handle();
    let zero = a.i32(0);
    let one = a.i32(1);
    let four = a.i32(4);
    a.blocks = 3;
    a.push(Inst::Br(1), false);
    // block 1: the loop.
    let first_phi = a.insts.len();
    let i = a.push(
        Inst::Phi {
            ty: I32,
            pairs: vec![],
        },
        true,
    );
    let sum = a.push(
        Inst::Phi {
            ty: I32,
            pairs: vec![],
        },
        true,
    );
    let next_sum = a.bin(0, sum, i, 0);
    let next_i = a.bin(0, i, one, 0);
    let done = a.cmp(32, next_i, four);
    a.push(
        Inst::CondBr {
            t: 2,
            f: 1,
            cond: done,
        },
        false,
    );
    // The phis name values defined after them (the back edge).
    if let Some(Inst::Phi { pairs, .. }) = a.insts.get_mut(first_phi) {
        *pairs = vec![(zero, 0), (next_i, 1)];
    }
    if let Some(Inst::Phi { pairs, .. }) = a.insts.get_mut(first_phi + 1) {
        *pairs = vec![(zero, 0), (next_sum, 1)];
    }
    // block 2: store and return.
    a.store(h, 0, next_sum);
    a.push(Inst::Ret, false);
    let (_, main) = a.func("main", VOID, &[]);
    let res = a.raw_uav(0);
    compute_metadata(&mut a, "cs", Some(res), main);
    let V::F(m) = main else { unreachable!() };
    let bytes = dxil_container(&a.bitcode(m), 5, 0);
    let raw = convert_bytes(&bytes).expect("converts");
    let printed = text::print(&raw);
    assert_eq!(printed.matches("Phi u32").count(), 2, "{printed}");
    let b = lower(&bytes);
    let printed = text::print(&b);
    assert!(printed.contains("StructuredLoop"), "{printed}");
}

#[test]
fn libraries_and_driver_extensions_are_refused_by_name() {
    let mut a = Asm::new();
    a.push(Inst::Ret, false);
    let (_, main) = a.func("main", VOID, &[]);
    compute_metadata(&mut a, "lib", None, main);
    let V::F(m) = main else { unreachable!() };
    let err = convert_bytes(&dxil_container(&a.bitcode(m), 6, 3)).unwrap_err();
    assert_eq!(
        err.unsupported_feature(),
        Some("DXIL libraries (ray tracing and work graph shaders)")
    );

    // A UAV in AMD's AGS register space.
    let mut a = Asm::new();
    a.push(Inst::Ret, false);
    let (_, main) = a.func("main", VOID, &[]);
    let res = a.raw_uav(0x7fff_0ade);
    compute_metadata(&mut a, "cs", Some(res), main);
    let V::F(m) = main else { unreachable!() };
    let err = convert_bytes(&dxil_container(&a.bitcode(m), 5, 0)).unwrap_err();
    assert_eq!(err.unsupported_feature(), Some("AMD AGS driver intrinsics"));
}

#[test]
fn operation_families_without_ir_support_are_refused_by_name() {
    let bytes = compute_shader(|a| {
        let c = a.int(I8, 0);
        vec![a.dx_op("dx.op.dispatchRaysIndex.i32", I32, &[I8], 145, &[c])]
    });
    let err = convert_bytes(&bytes).unwrap_err();
    assert_eq!(err.unsupported_feature(), Some("ray tracing operations"));
    assert!(err.to_string().contains("DispatchRaysIndex"), "{err}");
}

#[test]
fn malformed_operations_are_errors_naming_the_instruction() {
    // createHandle of a UAV range the module does not declare.
    let mut a = Asm::new();
    let one = a.int(I8, 1);
    let seven = a.i32(7);
    let zero = a.i32(0);
    let no = a.int(I1, 0);
    a.dx_op(
        "dx.op.createHandle",
        HANDLE,
        &[I8, I32, I32, I1],
        57,
        &[one, seven, zero, no],
    );
    a.push(Inst::Ret, false);
    let (_, main) = a.func("main", VOID, &[]);
    let res = a.raw_uav(0);
    compute_metadata(&mut a, "cs", Some(res), main);
    let V::F(m) = main else { unreachable!() };
    let err = convert_bytes(&dxil_container(&a.bitcode(m), 5, 0)).unwrap_err();
    let text = err.to_string();
    assert!(
        matches!(err, ConvertError::Invalid { .. }) && text.contains("range id 7"),
        "{text}"
    );
    assert!(
        text.contains("@main") && text.contains("CreateHandle"),
        "{text}"
    );

    // A thread id component past z.
    let bytes = compute_shader(|a| {
        let c = a.i32(3);
        vec![a.dx_op("dx.op.threadId.i32", I32, &[I32], 93, &[c])]
    });
    let err = convert_bytes(&bytes).unwrap_err();
    assert!(err.to_string().contains("component 3"), "{err}");
}

#[test]
fn compute_shaders_need_a_thread_group_size() {
    let mut a = Asm::new();
    a.push(Inst::Ret, false);
    let (_, main) = a.func("main", VOID, &[]);
    let sm_name = a.md_str("cs");
    let six = a.md_i32(6);
    let zero = a.md_i32(0);
    let sm = a.node(&[Some(sm_name), Some(six), Some(zero)]);
    let fty = a.funcs_ptr_ty(main);
    let f = a.md(Md::Val(fty, main));
    let name = a.md_str("main");
    let entry = a.node(&[Some(f), Some(name), None, None, None]);
    a.named.push(("dx.shaderModel".into(), vec![sm]));
    a.named.push(("dx.entryPoints".into(), vec![entry]));
    let V::F(m) = main else { unreachable!() };
    let err = convert_bytes(&dxil_container(&a.bitcode(m), 5, 0)).unwrap_err();
    assert!(err.to_string().contains("thread group size"), "{err}");
}

#[test]
fn fast_math_flags_decide_precise() {
    let bytes = compute_shader(|a| {
        let x = a.f32(1.5);
        let y = a.f32(2.0);
        let fast = a.bin(0, x, y, 1); // fadd fast
        let precise = a.bin(2, x, y, 0); // fmul without flags
        let f = a.bin(0, fast, precise, 1);
        vec![a.push(
            Inst::Cast {
                v: f,
                ty: I32,
                op: 11,
            },
            true,
        )] // bitcast
    });
    let b = convert_bytes(&bytes).expect("converts");
    let printed = text::print(&b);
    assert!(printed.contains("FMul [precise] f32"), "{printed}");
    assert!(
        printed
            .lines()
            .any(|l| l.contains("FAdd") && !l.contains("precise")),
        "{printed}"
    );
}

#[test]
fn discard_splits_the_block_around_a_demote() {
    // if (coverage != 0) discard; in a pixel shader without outputs.
    let mut a = Asm::new();
    let cov = a.dx_op("dx.op.coverage.i32", I32, &[], 91, &[]);
    let zero = a.i32(0);
    let c = a.cmp(33, cov, zero);
    a.dx_op("dx.op.discard", VOID, &[I1], 82, &[c]);
    a.push(Inst::Ret, false);
    let (_, main) = a.func("main", VOID, &[]);
    let sm_name = a.md_str("ps");
    let six = a.md_i32(6);
    let zero_m = a.md_i32(0);
    let sm = a.node(&[Some(sm_name), Some(six), Some(zero_m)]);
    let fty = a.funcs_ptr_ty(main);
    let f = a.md(Md::Val(fty, main));
    let name = a.md_str("main");
    let entry = a.node(&[Some(f), Some(name), None, None, None]);
    a.named.push(("dx.shaderModel".into(), vec![sm]));
    a.named.push(("dx.entryPoints".into(), vec![entry]));
    let V::F(m) = main else { unreachable!() };
    let bytes = dxil_container(&a.bitcode(m), 0, 0);
    let raw = text::print(&convert_bytes(&bytes).expect("converts"));
    assert_eq!(raw.matches("Label").count(), 3, "{raw}");
    assert!(
        raw.contains("BranchConditional") && raw.contains("Demote"),
        "{raw}"
    );
    let lowered = text::print(&lower(&bytes));
    assert!(lowered.contains("StructuredSelection"), "{lowered}");
}

#[test]
fn a_use_before_its_definition_is_an_error() {
    // %r = add %later, 1 where %later is defined after it in the same block.
    let mut a = Asm::new();
    let one = a.i32(1);
    let placeholder = a.i32(0);
    let first = a.insts.len();
    let sum = a.bin(0, placeholder, one, 0);
    let later = a.bin(0, one, one, 0);
    if let Some(Inst::Bin { a: lhs, .. }) = a.insts.get_mut(first) {
        *lhs = later;
    }
    let _ = sum;
    a.push(Inst::Ret, false);
    let (_, main) = a.func("main", VOID, &[]);
    compute_metadata(&mut a, "cs", None, main);
    let V::F(m) = main else { unreachable!() };
    match Shader::parse(&dxil_container(&a.bitcode(m), 5, 0)) {
        // The reader checks forward references' types only; the converter sees the order.
        Ok(shader) => {
            let err = convert(&shader).unwrap_err();
            assert!(err.to_string().contains("before it is defined"), "{err}");
        }
        Err(e) => panic!("reads: {e}"),
    }
}

/// The wave and quad operations a value is computed from, written `Op[literals](operands)`
/// with only wave, quad and helper-lane ops shown (casts and selects are looked through).
fn wave_chain(b: &Builder, d: dxspv_ir::SsaDef) -> String {
    use dxspv_ir::{QuadDirection, WaveOp};
    let op = b.op(d);
    let name = format!("{:?}", op.opcode);
    let shown = name.starts_with("Wave") || name.starts_with("Quad") || name == "IsHelperLane";
    let inner: Vec<String> = op
        .refs()
        .flatten()
        .map(|a| wave_chain(b, a))
        .filter(|s| !s.is_empty())
        .collect();
    if !shown {
        return inner.join(",");
    }
    let lits = match op.opcode {
        OpCode::WaveActiveOp | OpCode::WavePrefixOp | OpCode::WaveMultiPrefixOp => op
            .lit(0)
            .and_then(WaveOp::from_literal)
            .map(|w| format!("[{w}]")),
        OpCode::QuadReadAcross => op
            .lit(0)
            .and_then(QuadDirection::from_literal)
            .map(|q| format!("[{q}]")),
        _ => None,
    }
    .unwrap_or_default();
    if inner.is_empty() {
        format!("{name}{lits}")
    } else {
        format!("{name}{lits}({})", inner.join(","))
    }
}

#[test]
fn wave_and_quad_operations_map_to_the_ir_ops_of_the_same_meaning() {
    let bytes = compute_shader(|a| {
        let x = a.dx_op("dx.op.waveGetLaneIndex", I32, &[], 111, &[]);
        let zero = a.i32(0);
        let c = a.cmp(32, x, zero);
        let mut out = vec![x, a.dx_op("dx.op.waveGetLaneCount", I32, &[], 112, &[])];
        let first = a.dx_op("dx.op.waveIsFirstLane", I1, &[], 110, &[]);
        out.push(a.zext(first));
        for code in [113, 114] {
            let v = a.dx_op("dx.op.waveAnyTrue", I1, &[I1], code, &[c]);
            out.push(a.zext(v));
        }
        let eq = a.dx_op("dx.op.waveActiveAllEqual.i32", I1, &[I32], 115, &[x]);
        out.push(a.zext(eq));
        let lane = a.i32(5);
        out.push(a.dx_op(
            "dx.op.waveReadLaneAt.i32",
            I32,
            &[I32, I32],
            117,
            &[x, lane],
        ));
        out.push(a.dx_op("dx.op.waveReadLaneFirst.i32", I32, &[I32], 118, &[x]));
        for (kind, unsigned) in [(0, 0), (1, 0), (2, 1), (2, 0), (3, 1), (3, 0)] {
            let k = a.int(I8, kind);
            let u = a.int(I8, unsigned);
            out.push(a.dx_op(
                "dx.op.waveActiveOp.i32",
                I32,
                &[I32, I8, I8],
                119,
                &[x, k, u],
            ));
        }
        for kind in 0..3 {
            let k = a.int(I8, kind);
            out.push(a.dx_op("dx.op.waveActiveBit.i32", I32, &[I32, I8], 120, &[x, k]));
        }
        // Float sums and maxima, bit-cast back to stored words.
        let f = a.push(
            Inst::Cast {
                v: x,
                ty: F32,
                op: 11,
            },
            true,
        );
        for (code, kind) in [(119, 0), (121, 3)] {
            let k = a.int(I8, kind);
            let u = a.int(I8, 0);
            let r = a.dx_op("dx.op.waveOp.f32", F32, &[F32, I8, I8], code, &[f, k, u]);
            out.push(a.push(
                Inst::Cast {
                    v: r,
                    ty: I32,
                    op: 11,
                },
                true,
            ));
        }
        let k = a.int(I8, 1);
        let u = a.int(I8, 0);
        out.push(a.dx_op(
            "dx.op.wavePrefixOp.i32",
            I32,
            &[I32, I8, I8],
            121,
            &[x, k, u],
        ));
        let three = a.i32(3);
        out.push(a.dx_op(
            "dx.op.quadReadLaneAt.i32",
            I32,
            &[I32, I32],
            122,
            &[x, three],
        ));
        for dir in 0..3 {
            let d = a.int(I8, dir);
            out.push(a.dx_op("dx.op.quadOp.i32", I32, &[I32, I8], 123, &[x, d]));
        }
        out.push(a.dx_op("dx.op.waveAllOp", I32, &[I1], 135, &[c]));
        out.push(a.dx_op("dx.op.wavePrefixOp", I32, &[I1], 136, &[c]));
        let m = a.i32(0x0f);
        for (kind, unsigned) in [(0, 0), (1, 0), (2, 0), (3, 0), (4, 1)] {
            let k = a.int(I8, kind);
            let u = a.int(I8, unsigned);
            out.push(a.dx_op(
                "dx.op.waveMultiPrefixOp.i32",
                I32,
                &[I32, I32, I32, I32, I32, I8, I8],
                166,
                &[x, m, zero, zero, zero, k, u],
            ));
        }
        out.push(a.dx_op(
            "dx.op.waveMultiPrefixBitCount",
            I32,
            &[I1, I32, I32, I32, I32],
            167,
            &[c, m, zero, zero, zero],
        ));
        for kind in 0..2 {
            let k = a.int(I8, kind);
            let v = a.dx_op("dx.op.quadVote", I1, &[I1, I8], 222, &[c, k]);
            out.push(a.zext(v));
        }
        let helper = a.dx_op("dx.op.isHelperLane.i1", I1, &[], 221, &[]);
        out.push(a.zext(helper));
        let four = a.fouri32();
        let ballot = a.dx_op("dx.op.waveActiveBallot", four, &[I1], 116, &[c]);
        out.push(a.push(Inst::Extract { v: ballot, idx: 2 }, true));
        let matched = a.dx_op("dx.op.waveMatch.i32", four, &[I32], 165, &[x]);
        out.push(a.push(Inst::Extract { v: matched, idx: 0 }, true));
        out
    });
    let b = convert_bytes(&bytes).expect("converts");
    let got: Vec<String> = b
        .iter()
        .filter(|(_, op)| op.opcode == OpCode::BufferStore)
        .map(|(_, op)| wave_chain(&b, op.arg(2).expect("value")))
        .collect();
    let want = [
        "",
        "",
        "WaveIsFirstLane",
        "WaveActiveOp[Or]",
        "WaveActiveOp[And]",
        "WaveAllEqual",
        "WaveReadLaneAt",
        "WaveReadLaneFirst",
        "WaveActiveOp[IAdd]",
        "WaveActiveOp[IMul]",
        "WaveActiveOp[UMin]",
        "WaveActiveOp[SMin]",
        "WaveActiveOp[UMax]",
        "WaveActiveOp[SMax]",
        "WaveActiveOp[And]",
        "WaveActiveOp[Or]",
        "WaveActiveOp[Xor]",
        "WaveActiveOp[FAdd]",
        "WavePrefixOp[FMax]",
        "WavePrefixOp[IMul]",
        "QuadReadLaneAt",
        "QuadReadAcross[X]",
        "QuadReadAcross[Y]",
        "QuadReadAcross[Diagonal]",
        "WaveBallotBitCount(WaveBallot)",
        "WaveBallotPrefixBitCount(WaveBallot)",
        "WaveMultiPrefixOp[IAdd]",
        "WaveMultiPrefixOp[And]",
        "WaveMultiPrefixOp[Or]",
        "WaveMultiPrefixOp[Xor]",
        "WaveMultiPrefixOp[IMul]",
        "WaveBallotPrefixBitCount(WaveBallot)",
        "QuadAny",
        "QuadAll",
        "IsHelperLane",
        "WaveBallot",
        "WaveMatch",
    ];
    assert_eq!(got, want, "{}", text::print(&b));
    // The lane index and count are the built-ins, and the whole program validates through
    // every pass.
    let printed = text::print(&b);
    assert!(
        printed.contains("WaveLaneIndex") && printed.contains("WaveLaneCount"),
        "{printed}"
    );
    lower(&bytes);
}

#[test]
fn malformed_wave_operations_are_errors() {
    for (code, kind) in [(119, 4), (120, 3), (123, 3), (222, 2)] {
        let bytes = compute_shader(|a| {
            let x = a.i32(1);
            let k = a.int(I8, kind);
            let u = a.int(I8, 0);
            let args: Vec<V> = if code == 119 {
                vec![x, k, u]
            } else {
                vec![x, k]
            };
            let params: Vec<u64> = if code == 119 {
                vec![I32, I8, I8]
            } else {
                vec![I32, I8]
            };
            vec![a.dx_op("dx.op.wave.i32", I32, &params, code, &args)]
        });
        let err = convert_bytes(&bytes).unwrap_err();
        assert!(
            matches!(err, ConvertError::Invalid { .. })
                && err.to_string().contains(&kind.to_string()),
            "{code}: {err}"
        );
    }
}

/// A compute shader of 1x1x1 threads whose properties add `(tag, values)`.
fn compute_with_property(tag: i64, values: &[i64]) -> Vec<u8> {
    let mut a = Asm::new();
    a.push(Inst::Ret, false);
    let (_, main) = a.func("main", VOID, &[]);
    let sm_name = a.md_str("cs");
    let six = a.md_i32(6);
    let eight = a.md_i32(8);
    let sm = a.node(&[Some(sm_name), Some(six), Some(eight)]);
    let fty = a.funcs_ptr_ty(main);
    let f = a.md(Md::Val(fty, main));
    let name = a.md_str("main");
    let one = a.md_i32(1);
    let threads = a.node(&[Some(one), Some(one), Some(one)]);
    let four = a.md_i32(4);
    let t = a.md_i32(tag);
    let vals: Vec<Option<usize>> = values.iter().map(|&v| Some(a.md_i32(v))).collect();
    let list = a.node(&vals);
    let props = a.node(&[Some(four), Some(threads), Some(t), Some(list)]);
    let entry = a.node(&[Some(f), Some(name), None, None, Some(props)]);
    a.named.push(("dx.shaderModel".into(), vec![sm]));
    a.named.push(("dx.entryPoints".into(), vec![entry]));
    let V::F(m) = main else { unreachable!() };
    dxil_container(&a.bitcode(m), 5, 0)
}

#[test]
fn wave_sizes_become_set_wave_size() {
    for (tag, values, want) in [
        (11, &[32][..], Some([32, 32, 0])),
        (23, &[16, 0, 0][..], Some([16, 16, 0])),
        (23, &[8, 64, 32][..], Some([8, 64, 32])),
        (23, &[8, 64, 128][..], None),
        (23, &[12, 12, 0][..], None),
        (11, &[256][..], None),
    ] {
        let bytes = compute_with_property(tag, values);
        match (convert_bytes(&bytes), want) {
            (Ok(b), Some(want)) => {
                let (_, op) = b
                    .iter()
                    .find(|(_, op)| op.opcode == OpCode::SetWaveSize)
                    .expect("SetWaveSize");
                let got = [0, 1, 2].map(|i| op.lit(i).expect("literal"));
                assert_eq!(got, want);
            }
            (Err(e), None) => assert!(e.to_string().contains("wave size"), "{e}"),
            (r, want) => panic!("{tag} {values:?}: {:?}, want {want:?}", r.map(|_| ())),
        }
    }
}

impl Asm {
    /// A signature element `!{id, name, component type, semantic kind, !{0}, interpolation,
    /// rows, columns, start row, start column, null}`.
    #[allow(clippy::too_many_arguments)]
    fn sig_element(
        &mut self,
        id: i64,
        name: &str,
        component: i64,
        kind: i64,
        interpolation: i64,
        cols: i64,
        row: i64,
    ) -> usize {
        let fields = [id, component, kind, interpolation, 1, cols, row, 0];
        let [id, component, kind, interpolation, rows, cols, row, col] =
            fields.map(|v| Some(self.md_i32(v)));
        let name = self.md_str(name);
        let zero = self.md_i32(0);
        let indices = self.node(&[Some(zero)]);
        self.node(&[
            id,
            Some(name),
            component,
            kind,
            Some(indices),
            interpolation,
            rows,
            cols,
            row,
            col,
            None,
        ])
    }

    /// `dx.shaderModel` and the entry point `main` with signatures and properties.
    fn entry(&mut self, model: &str, main: V, sigs: [Option<usize>; 3], props: &[usize]) {
        let sm_name = self.md_str(model);
        let six = self.md_i32(6);
        let minor = self.md_i32(5);
        let sm = self.node(&[Some(sm_name), Some(six), Some(minor)]);
        let fty = self.funcs_ptr_ty(main);
        let f = self.md(Md::Val(fty, main));
        let name = self.md_str("main");
        let sigs = self.node(&sigs);
        let props: Vec<Option<usize>> = props.iter().map(|&p| Some(p)).collect();
        let props = self.node(&props);
        let entry = self.node(&[Some(f), Some(name), Some(sigs), None, Some(props)]);
        self.named.push(("dx.shaderModel".into(), vec![sm]));
        self.named.push(("dx.entryPoints".into(), vec![entry]));
    }

    /// `!{x, y, z}` of thread counts.
    fn threads(&mut self, x: i64) -> usize {
        let x = self.md_i32(x);
        let one = self.md_i32(1);
        self.node(&[Some(x), Some(one), Some(one)])
    }
}

/// The ops of `b` with opcode `opc`, printed.
fn ops_of(b: &Builder, opc: OpCode) -> Vec<String> {
    let printed = text::print(b);
    let name = format!(" {opc:?} ");
    printed
        .lines()
        .filter(|l| l.contains(&name))
        .map(|l| l.split_once(" = ").map_or(l, |(_, r)| r).to_string())
        .collect()
}

#[test]
fn mesh_shaders_store_vertex_and_primitive_outputs_and_read_the_payload() {
    let mut a = Asm::new();
    // %struct.Payload = type { i32, [2 x float], i64 }: words 0, then 1 and 2, then 3 and 4.
    let arr = a.ty(&[11, 2, F32]);
    let i64t = a.ty(&[7, 64]);
    a.types.push(rs(19, &[], "struct.Payload"));
    let payload = a.ty(&[20, 0, I32, arr, i64t]);
    let payload_ptr = a.ty(&[8, payload, 0]);
    let float_ptr = a.ty(&[8, F32, 0]);
    let _ = float_ptr;
    let p = a.dx_op(
        "dx.op.getMeshPayload.struct.Payload",
        payload_ptr,
        &[],
        170,
        &[],
    );
    let zero = a.i32(0);
    let one = a.i32(1);
    let two = a.i32(2);
    let three = a.i32(3);
    let field = a.push(
        Inst::Gep {
            ty: payload,
            base: p,
            indices: vec![zero, one, one],
        },
        true,
    );
    let f = a.push(
        Inst::Load {
            ty: F32,
            ptr: field,
        },
        true,
    );
    let wide = a.push(
        Inst::Gep {
            ty: payload,
            base: p,
            indices: vec![zero, two],
        },
        true,
    );
    a.push(
        Inst::Load {
            ty: i64t,
            ptr: wide,
        },
        true,
    );
    a.dx_op(
        "dx.op.setMeshOutputCounts",
        VOID,
        &[I32, I32],
        168,
        &[three, one],
    );
    let tid = a.dx_op("dx.op.flattenedThreadIdInGroup.i32", I32, &[], 96, &[]);
    let c0 = a.int(I8, 0);
    let c1 = a.int(I8, 1);
    let vf = &[I32, I32, I8, F32, I32];
    a.dx_op(
        "dx.op.storeVertexOutput.f32",
        VOID,
        vf,
        171,
        &[zero, zero, c0, f, tid],
    );
    a.dx_op(
        "dx.op.storeVertexOutput.f32",
        VOID,
        vf,
        171,
        &[one, zero, c1, f, tid],
    );
    a.dx_op(
        "dx.op.emitIndices",
        VOID,
        &[I32, I32, I32, I32],
        169,
        &[tid, zero, one, two],
    );
    let vi = &[I32, I32, I8, I32, I32];
    a.dx_op(
        "dx.op.storePrimitiveOutput.i32",
        VOID,
        vi,
        172,
        &[zero, zero, c0, tid, tid],
    );
    a.dx_op(
        "dx.op.storePrimitiveOutput.i32",
        VOID,
        vi,
        172,
        &[one, zero, c0, tid, tid],
    );
    a.push(Inst::Ret, false);
    let (_, main) = a.func("main", VOID, &[]);
    // Vertices: SV_Position (row 0), ARG (float2, row 1). Primitives: SV_PrimitiveID (row
    // 0), ATTR (uint, row 0 of the primitive signature).
    let pos = a.sig_element(0, "SV_Position", 9, 3, 4, 4, 0);
    let arg = a.sig_element(1, "ARG", 9, 0, 2, 2, 1);
    let prim_id = a.sig_element(0, "SV_PrimitiveID", 5, 10, 1, 1, 0);
    let attr = a.sig_element(1, "ATTR", 5, 0, 1, 1, 0);
    let outputs = a.node(&[Some(pos), Some(arg)]);
    let prims = a.node(&[Some(prim_id), Some(attr)]);
    let threads = a.threads(3);
    let state_vals = [3, 1, 2, 12].map(|v| Some(a.md_i32(v)));
    let state = a.node(&[
        Some(threads),
        state_vals[0],
        state_vals[1],
        state_vals[2],
        state_vals[3],
    ]);
    let tag = a.md_i32(9);
    a.entry(
        "ms",
        main,
        [None, Some(outputs), Some(prims)],
        &[tag, state],
    );
    let V::F(m) = main else { unreachable!() };
    let bytes = dxil_container(&a.bitcode(m), 13, 0);
    let b = convert_bytes(&bytes).expect("converts");
    let printed = text::print(&b);
    // The payload: 5 words; the float at word 2, read as a word and bit-cast; the i64 as
    // words 3 and 4.
    assert_eq!(ops_of(&b, OpCode::DclMeshPayload).len(), 1, "{printed}");
    assert!(printed.contains("DclMeshPayload u32[5]"), "{printed}");
    let at: Vec<_> = b
        .iter()
        .filter(|(_, op)| op.opcode == OpCode::LdsLoad)
        .filter_map(|(_, op)| op.arg(1))
        .map(|d| b.op(d).lit(0))
        .collect();
    assert_eq!(at, [Some(2), Some(3), Some(4)], "{printed}");
    assert!(printed.contains("Cast u64"), "{printed}");
    assert!(
        printed.contains("SetMsOutputs %1 3 1 Triangle"),
        "{printed}"
    );
    assert_eq!(
        ops_of(&b, OpCode::MeshSetOutputCounts).len(),
        1,
        "{printed}"
    );
    // Vertex outputs per vertex in stream 0, primitive outputs per primitive in stream 1,
    // the primitive's user attribute after the vertex signature's two rows.
    assert!(
        printed.contains("DclOutputBuiltIn vec4<f32>[3] %1 Position 0"),
        "{printed}"
    );
    assert!(
        printed.contains("DclOutput vec2<f32>[3] %1 1 0 0"),
        "{printed}"
    );
    assert!(
        printed.contains("DclOutputBuiltIn u32[1] %1 PrimitiveId 1"),
        "{printed}"
    );
    assert!(printed.contains("DclOutput u32[1] %1 2 0 1"), "{printed}");
    assert!(
        printed.contains("DclOutputBuiltIn vec3<u32>[1] %1 PrimitiveIndices 1"),
        "{printed}"
    );
    assert_eq!(ops_of(&b, OpCode::OutputStore).len(), 5, "{printed}");
    lower(&bytes);
}

#[test]
fn amplification_shaders_write_the_payload_and_dispatch_mesh() {
    let mut a = Asm::new();
    let arr = a.ty(&[11, 2, I32]);
    a.types.push(rs(19, &[], "struct.Payload"));
    let payload = a.ty(&[20, 0, I32, arr]);
    let shared_ptr = a.ty(&[8, payload, 3]);
    a.globals.push((payload, 3));
    let g = V::G(0);
    let zero = a.i32(0);
    let one = a.i32(1);
    let two = a.i32(2);
    let seven = a.i32(7);
    let tid = a.dx_op("dx.op.flattenedThreadIdInGroup.i32", I32, &[], 96, &[]);
    let field = a.push(
        Inst::Gep {
            ty: payload,
            base: g,
            indices: vec![zero, one, tid],
        },
        true,
    );
    a.push(
        Inst::Store {
            ptr: field,
            v: seven,
        },
        false,
    );
    let first = a.push(
        Inst::Gep {
            ty: payload,
            base: g,
            indices: vec![zero, zero],
        },
        true,
    );
    a.push(Inst::Store { ptr: first, v: tid }, false);
    a.push(
        Inst::Rmw {
            ptr: first,
            v: one,
            op: 1,
        },
        true,
    );
    a.dx_op(
        "dx.op.dispatchMesh.struct.Payload",
        VOID,
        &[I32, I32, I32, shared_ptr],
        173,
        &[two, one, one, g],
    );
    a.push(Inst::Ret, false);
    let (_, main) = a.func("main", VOID, &[]);
    let threads = a.threads(2);
    let size = a.md_i32(12);
    let state = a.node(&[Some(threads), Some(size)]);
    let tag = a.md_i32(10);
    a.entry("as", main, [None, None, None], &[tag, state]);
    let V::F(m) = main else { unreachable!() };
    let bytes = dxil_container(&a.bitcode(m), 14, 0);
    let b = convert_bytes(&bytes).expect("converts");
    let printed = text::print(&b);
    assert!(printed.contains("DclMeshPayload u32[3]"), "{printed}");
    assert!(ops_of(&b, OpCode::DclLds).is_empty(), "{printed}");
    // Word 1 + tid, then word 0.
    let stores: Vec<_> = b
        .iter()
        .filter(|(_, op)| op.opcode == OpCode::LdsStore)
        .map(|(_, op)| {
            let at = b.op(op.arg(1).expect("address"));
            (at.opcode, at.lit(0))
        })
        .collect();
    assert_eq!(stores.len(), 2, "{printed}");
    assert_eq!(stores[0].0, OpCode::IAdd, "{printed}");
    assert_eq!(stores[1], (OpCode::Constant, Some(0)), "{printed}");
    // The atomic add on word 0.
    let atomics: Vec<_> = b
        .iter()
        .filter(|(_, op)| op.opcode == OpCode::LdsAtomic)
        .map(|(_, op)| (op.arg(1).and_then(|d| b.op(d).lit(0)), op.lit(0)))
        .collect();
    assert_eq!(
        atomics,
        [(Some(0), Some(dxspv_ir::AtomicOp::Add.to_literal()))],
        "{printed}"
    );
    assert_eq!(ops_of(&b, OpCode::DispatchMesh).len(), 1, "{printed}");
    lower(&bytes);
}

#[test]
fn attributes_read_at_a_vertex_are_per_vertex_inputs() {
    let mut a = Asm::new();
    let zero = a.i32(0);
    let c0 = a.int(I8, 0);
    let c2 = a.int(I8, 2);
    let at2 = a.dx_op(
        "dx.op.attributeAtVertex.f32",
        F32,
        &[I32, I32, I8, I8],
        137,
        &[zero, zero, c0, c2],
    );
    let u = a.undef(I32);
    let flat = a.dx_op(
        "dx.op.loadInput.f32",
        F32,
        &[I32, I32, I8, I32],
        4,
        &[zero, zero, c0, u],
    );
    let one = a.i32(1);
    let bary = a.dx_op(
        "dx.op.loadInput.f32",
        F32,
        &[I32, I32, I8, I32],
        4,
        &[one, zero, c0, u],
    );
    let s = a.bin(0, at2, flat, 0);
    let s = a.bin(0, s, bary, 0);
    a.dx_op(
        "dx.op.storeOutput.f32",
        VOID,
        &[I32, I32, I8, F32],
        5,
        &[zero, zero, c0, s],
    );
    a.push(Inst::Ret, false);
    let (_, main) = a.func("main", VOID, &[]);
    // COLOR (nointerpolation float at row 0), SV_Barycentrics (row 1); SV_Target.
    let color = a.sig_element(0, "COLOR", 9, 0, 1, 1, 0);
    let bary_e = a.sig_element(1, "SV_Barycentrics", 9, 28, 4, 3, 1);
    let target = a.sig_element(0, "SV_Target", 9, 16, 0, 1, 0);
    let inputs = a.node(&[Some(color), Some(bary_e)]);
    let outputs = a.node(&[Some(target)]);
    a.entry("ps", main, [Some(inputs), Some(outputs), None], &[]);
    let V::F(m) = main else { unreachable!() };
    let bytes = dxil_container(&a.bitcode(m), 0, 0);
    let b = convert_bytes(&bytes).expect("converts");
    let printed = text::print(&b);
    assert!(
        printed.contains("DclInput f32[3] %1 0 0 Flat|PerVertex"),
        "{printed}"
    );
    assert!(
        printed.contains("DclInputBuiltIn vec3<f32> %1 Barycentrics NoPerspective"),
        "{printed}"
    );
    // Vertex 2, then the flat read at vertex 0.
    let vertices: Vec<_> = b
        .iter()
        .filter(|(_, op)| op.opcode == OpCode::InputLoad)
        .filter_map(|(_, op)| op.arg(1))
        .map(|d| b.op(d).lit(0))
        .collect();
    assert_eq!(vertices[..2], [Some(2), Some(0)], "{printed}");
    lower(&bytes);
}

#[test]
fn mesh_operations_outside_mesh_shaders_are_errors() {
    let bytes = compute_shader(|a| {
        let one = a.i32(1);
        a.dx_op(
            "dx.op.setMeshOutputCounts",
            VOID,
            &[I32, I32],
            168,
            &[one, one],
        );
        vec![]
    });
    let err = convert_bytes(&bytes).unwrap_err();
    assert!(
        matches!(err, ConvertError::Invalid { .. }) && err.to_string().contains("compute"),
        "{err}"
    );
}

#[test]
fn sixty_four_bit_atomics_on_raw_buffers_address_32_bit_words() {
    let bytes = compute_shader(|a| {
        let i64t = a.ty(&[7, 64]);
        let h = a.uav_handle();
        let op = a.i32(6); // UMin
        let at = a.i32(8);
        let u = a.undef(I32);
        let v = a.int(i64t, -5);
        let r = a.dx_op(
            "dx.op.atomicBinOp.i64",
            i64t,
            &[HANDLE, I32, I32, I32, I32, i64t],
            78,
            &[h, op, at, u, u, v],
        );
        let lo = a.push(
            Inst::Cast {
                v: r,
                ty: I32,
                op: 0,
            },
            true,
        ); // trunc
        vec![lo]
    });
    let b = convert_bytes(&bytes).expect("converts");
    let printed = text::print(&b);
    let atomics: Vec<_> = b
        .iter()
        .filter(|(_, op)| op.opcode == OpCode::BufferAtomic)
        .collect();
    assert_eq!(atomics.len(), 1, "{printed}");
    let (_, op) = atomics[0];
    assert_eq!(
        op.ty,
        dxspv_ir::Type::scalar(dxspv_ir::ScalarType::U64),
        "{printed}"
    );
    assert_eq!(
        op.lit(0).and_then(dxspv_ir::AtomicOp::from_literal),
        Some(dxspv_ir::AtomicOp::UMin)
    );
    // Byte 8 is word 2.
    let word = op.arg(1).and_then(|d| b.op(d).lit(0));
    assert_eq!(word, Some(2), "{printed}");
    lower(&bytes);
}

/// A compute shader of `blocks` blocks running `body`.
fn compute_blocks(blocks: u64, body: impl FnOnce(&mut Asm)) -> Vec<u8> {
    let mut a = Asm::new();
    a.blocks = blocks;
    body(&mut a);
    let (_, main) = a.func("main", VOID, &[]);
    compute_metadata(&mut a, "cs", None, main);
    let V::F(m) = main else { unreachable!() };
    dxil_container(&a.bitcode(m), 5, 0)
}

#[test]
fn phis_and_branches_must_follow_the_control_flow_graph() {
    // A phi naming a block that does not branch to it.
    let bytes = compute_blocks(3, |a| {
        let zero = a.i32(0);
        let one = a.i32(1);
        a.push(Inst::Br(1), false);
        a.push(
            Inst::Phi {
                ty: I32,
                pairs: vec![(zero, 0), (one, 2)],
            },
            true,
        );
        a.push(Inst::Br(2), false);
        a.push(Inst::Ret, false);
    });
    let err = convert_bytes(&bytes).unwrap_err();
    assert!(
        err.to_string().contains("does not branch to block 1"),
        "{err}"
    );

    // A phi missing one of its block's predecessors.
    let bytes = compute_blocks(3, |a| {
        let zero = a.i32(0);
        let t = a.int(I1, 1);
        a.push(
            Inst::CondBr {
                t: 1,
                f: 2,
                cond: t,
            },
            false,
        );
        a.push(Inst::Br(2), false);
        a.push(
            Inst::Phi {
                ty: I32,
                pairs: vec![(zero, 1)],
            },
            true,
        );
        a.push(Inst::Ret, false);
    });
    let err = convert_bytes(&bytes).unwrap_err();
    assert!(err.to_string().contains("names 1 of the 2 blocks"), "{err}");

    // A branch back to the entry block.
    let bytes = compute_blocks(2, |a| {
        a.push(Inst::Br(1), false);
        a.push(Inst::Br(0), false);
    });
    let err = convert_bytes(&bytes).unwrap_err();
    assert!(
        err.to_string().contains("entry block is a branch target"),
        "{err}"
    );
}

#[test]
fn constant_offsets_past_a_structure_reach_the_next_ones() {
    // A structured UAV of 4-byte structures; rawBufferStore of one word at structure 1,
    // byte 8: structure 3, word 0.
    let mut a = Asm::new();
    let h = a.uav_handle();
    let one = a.i32(1);
    let eight = a.i32(8);
    let seven = a.i32(7);
    let u = a.undef(I32);
    let mask = a.int(I8, 1);
    let align = a.i32(4);
    a.dx_op(
        "dx.op.rawBufferStore.i32",
        VOID,
        &[HANDLE, I32, I32, I32, I32, I32, I32, I8, I32],
        140,
        &[h, one, eight, seven, seven, u, u, mask, align],
    );
    a.push(Inst::Ret, false);
    let (_, main) = a.func("main", VOID, &[]);
    let res = a.raw_uav(0);
    // Make the UAV structured (kind 12) with a stride of 4 (tag 1).
    let twelve = a.md_i32(12);
    let tag = a.md_i32(1);
    let stride = a.md_i32(4);
    let tags = a.node(&[Some(tag), Some(stride)]);
    let Some(Md::Node(res_ops)) = a.md.get(res).cloned() else {
        unreachable!()
    };
    let uavs = res_ops[1].expect("uav list");
    let Some(Md::Node(list)) = a.md.get(uavs).cloned() else {
        unreachable!()
    };
    let uav = list[0].expect("uav");
    if let Some(Md::Node(ops)) = a.md.get_mut(uav) {
        ops[6] = Some(twelve);
        ops[10] = Some(tags);
    }
    compute_metadata(&mut a, "cs", Some(res), main);
    let V::F(m) = main else { unreachable!() };
    let bytes = dxil_container(&a.bitcode(m), 5, 0);
    let b = convert_bytes(&bytes).expect("converts");
    let printed = text::print(&b);
    let addresses: Vec<Vec<Option<u64>>> = b
        .iter()
        .filter(|(_, op)| op.opcode == OpCode::BufferStore)
        .filter_map(|(_, op)| op.arg(1))
        .map(|d| {
            let op = b.op(d);
            if op.opcode == OpCode::Constant {
                (0..2).map(|i| op.lit(i)).collect()
            } else {
                op.refs().map(|r| r.and_then(|r| b.op(r).lit(0))).collect()
            }
        })
        .collect();
    assert_eq!(addresses, [vec![Some(3), Some(0)]], "{printed}");
    lower(&bytes);
}

#[test]
fn sixty_four_bit_atomics_on_raw_buffers_keep_their_width() {
    // atomicBinOp.i64 (UMax) and atomicCompareExchange.i64 at byte 8 of a raw UAV; the
    // results are truncated to i32 and stored.
    let bytes = compute_shader(|a| {
        let i64t = a.ty(&[7, 64]);
        let h = a.uav_handle();
        let umax = a.i32(7);
        let at = a.i32(8);
        let u = a.undef(I32);
        let v = a.int(i64t, -2);
        let params = [HANDLE, I32, I32, I32, I32, i64t];
        let max = a.dx_op(
            "dx.op.atomicBinOp.i64",
            i64t,
            &params,
            78,
            &[h, umax, at, u, u, v],
        );
        let cmp = a.int(i64t, 5);
        let params = [HANDLE, I32, I32, I32, i64t, i64t];
        let xchg = a.dx_op(
            "dx.op.atomicCompareExchange.i64",
            i64t,
            &params,
            79,
            &[h, at, u, u, cmp, max],
        );
        [max, xchg]
            .into_iter()
            .map(|x| {
                a.push(
                    Inst::Cast {
                        v: x,
                        ty: I32,
                        op: 0,
                    },
                    true,
                )
            }) // trunc
            .collect()
    });
    let b = convert_bytes(&bytes).expect("converts");
    let atomics: Vec<_> = b
        .iter()
        .filter(|(_, op)| op.opcode == OpCode::BufferAtomic)
        .map(|(_, op)| op.clone())
        .collect();
    assert_eq!(atomics.len(), 2, "{}", text::print(&b));
    for op in &atomics {
        assert_eq!(op.ty, dxspv_ir::Type::scalar(dxspv_ir::ScalarType::U64));
    }
    let value = b.op(atomics[0].arg(2).expect("operand"));
    assert_eq!(value.ty, dxspv_ir::Type::scalar(dxspv_ir::ScalarType::U64));
    assert_eq!(value.lit(0), Some(u64::MAX - 1), "{}", text::print(&b));
    let pair = b.op(atomics[1].arg(2).expect("operand"));
    assert_eq!(
        pair.ty,
        dxspv_ir::Type::vector(dxspv_ir::ScalarType::U64, 2)
    );
    let printed = text::print(&lower(&bytes));
    assert_eq!(printed.matches("BufferAtomic u64").count(), 2, "{printed}");
}

#[test]
fn typed_uavs_flagged_for_64_bit_atomics_have_64_bit_texels() {
    // A typed buffer UAV whose tags say u32 elements (tag 0 = 5) and 64-bit atomics
    // (tag 3 = 1), as dxc declares RWBuffer<uint64_t>, and an atomicBinOp.i64 (Or) on it.
    let mut a = Asm::new();
    let i64t = a.ty(&[7, 64]);
    let h = a.uav_handle();
    let or = a.i32(2);
    let at = a.i32(3);
    let u = a.undef(I32);
    let v = a.int(i64t, 1 << 40);
    let params = [HANDLE, I32, I32, I32, I32, i64t];
    a.dx_op(
        "dx.op.atomicBinOp.i64",
        i64t,
        &params,
        78,
        &[h, or, at, u, u, v],
    );
    a.push(Inst::Ret, false);
    let (_, main) = a.func("main", VOID, &[]);
    let tags = [0, 5, 3, 1].map(|t| Some(a.md_i32(t)));
    let tags = a.node(&tags);
    let res = a.uav(0, 10, Some(tags));
    compute_metadata(&mut a, "cs", Some(res), main);
    let V::F(m) = main else { unreachable!() };
    let bytes = dxil_container(&a.bitcode(m), 6, 6);
    let printed = text::print(&lower(&bytes));
    assert!(
        printed.contains("DclUav u64 ") && printed.contains("BufferTyped FixedFormat"),
        "{printed}"
    );
    assert!(printed.contains("BufferAtomic u64"), "{printed}");
}

#[test]
fn per_primitive_system_values_belong_to_the_primitive_signature() {
    // SV_PrimitiveID among a mesh shader's vertex outputs.
    let mut a = Asm::new();
    let one = a.i32(1);
    a.dx_op(
        "dx.op.setMeshOutputCounts",
        VOID,
        &[I32, I32],
        168,
        &[one, one],
    );
    a.push(Inst::Ret, false);
    let (_, main) = a.func("main", VOID, &[]);
    let prim_id = a.sig_element(0, "SV_PrimitiveID", 5, 10, 1, 1, 0);
    let outputs = a.node(&[Some(prim_id)]);
    let threads = a.threads(1);
    let state_vals = [1, 1, 2, 0].map(|v| Some(a.md_i32(v)));
    let state = a.node(&[
        Some(threads),
        state_vals[0],
        state_vals[1],
        state_vals[2],
        state_vals[3],
    ]);
    let tag = a.md_i32(9);
    a.entry("ms", main, [None, Some(outputs), None], &[tag, state]);
    let V::F(m) = main else { unreachable!() };
    let err = convert_bytes(&dxil_container(&a.bitcode(m), 13, 0)).unwrap_err();
    assert!(
        err.to_string()
            .contains("PrimitiveID in the mesh shader's vertex signature"),
        "{err}"
    );
}

/// A compute shader (SM 6.7) storing a texel with dx.op `opcode` (67 `textureStore`, 225
/// `textureStoreSample` with sample index 2) to a float UAV `u0` of DXIL kind `kind`.
fn texture_store_shader(kind: i64, opcode: i64) -> Vec<u8> {
    let mut a = Asm::new();
    let h = a.uav_handle();
    let (x, y, u) = (a.i32(3), a.i32(4), a.undef(I32));
    let v = a.f32(0.5);
    let mask = a.int(I8, 15);
    let sample = a.i32(2);
    let mut params = vec![HANDLE, I32, I32, I32, F32, F32, F32, F32, I8];
    let mut args = vec![h, x, y, u, v, v, v, v, mask];
    let name = if opcode == 225 {
        params.push(I32);
        args.push(sample);
        "dx.op.textureStoreSample.f32"
    } else {
        "dx.op.textureStore.f32"
    };
    a.dx_op(name, VOID, &params, opcode, &args);
    a.push(Inst::Ret, false);
    let (_, main) = a.func("main", VOID, &[]);
    // Tag 0: the element type, 9 (f32).
    let tags = [0, 9].map(|t| Some(a.md_i32(t)));
    let tags = a.node(&tags);
    let res = a.uav(0, kind, Some(tags));
    compute_metadata(&mut a, "cs", Some(res), main);
    let V::F(m) = main else { unreachable!() };
    dxil_container(&a.bitcode(m), 6, 7)
}

#[test]
fn texture_store_sample_writes_a_sample_of_a_multisampled_uav() {
    // RWTexture2DMS<float4> (kind 3): the store names its sample after the texel.
    let b = lower(&texture_store_shader(3, 225));
    let printed = text::print(&b);
    assert!(printed.contains("Image2DMS"), "{printed}");
    let stores: Vec<_> = b
        .iter()
        .filter(|(_, op)| op.opcode == OpCode::ImageStore)
        .map(|(_, op)| op.clone())
        .collect();
    assert_eq!(stores.len(), 1, "{printed}");
    let sample = stores[0].arg(4).expect("a sample operand");
    assert_eq!(eval(&b, sample), 2, "{printed}");
    // The sample goes with multisampled textures only, and they need it.
    for (kind, opcode, want) in [
        (2, 225, "TextureStoreSample to a single-sampled texture"),
        (3, 67, "TextureStore to a multisampled texture"),
    ] {
        let err = convert_bytes(&texture_store_shader(kind, opcode)).unwrap_err();
        assert!(err.to_string().contains(want), "kind {kind}: {err}");
    }
    // A single-sampled store names none.
    let b = lower(&texture_store_shader(2, 67));
    let store = b
        .iter()
        .find(|(_, op)| op.opcode == OpCode::ImageStore)
        .map(|(_, op)| op.clone())
        .expect("a store");
    assert_eq!(store.arg(4), None);
}

/// A compute shader whose one resource is a UAV of DXIL kind `kind` with the tag list `tags`
/// (none when empty) and, with `write`, a `WriteSamplerFeedbackLevel` that names its handle
/// as feedback map, texture and sampler.
fn feedback_shader(kind: i64, tags: &[i64], write: bool) -> Vec<u8> {
    let mut a = Asm::new();
    if write {
        let h = a.uav_handle();
        let x = a.f32(0.5);
        let u = a.undef(F32);
        a.dx_op(
            "dx.op.writeSamplerFeedbackLevel",
            VOID,
            &[HANDLE, HANDLE, HANDLE, F32, F32, F32, F32, F32],
            176,
            &[h, h, h, x, x, u, u, x],
        );
    }
    a.push(Inst::Ret, false);
    let (_, main) = a.func("main", VOID, &[]);
    let tags = if tags.is_empty() {
        None
    } else {
        let t: Vec<_> = tags.iter().map(|&t| Some(a.md_i32(t))).collect();
        Some(a.node(&t))
    };
    let res = a.uav(0, kind, tags);
    compute_metadata(&mut a, "cs", Some(res), main);
    let V::F(m) = main else { unreachable!() };
    dxil_container(&a.bitcode(m), 6, 5)
}

#[test]
fn feedback_maps_are_fixed_format_u32_uavs_of_their_kind() {
    // FeedbackTexture2D (17) MinMip, FeedbackTexture2DArray (18) MipRegionUsed.
    for (kind, tags, want) in [
        (17, [2, 0], "u32 %1 0 0 1 FeedbackImage2D FixedFormat"),
        (
            18,
            [2, 1],
            "u32 %1 0 0 1 FeedbackImage2DArray FixedFormat|MipRegionUsed",
        ),
    ] {
        let printed = text::print(&lower(&feedback_shader(kind, &tags, false)));
        assert!(printed.contains(&format!("DclUav {want}")), "{printed}");
    }
}

#[test]
fn malformed_sampler_feedback_is_an_error_naming_it() {
    let message = |bytes: Vec<u8>| convert_bytes(&bytes).unwrap_err().to_string();
    let err = message(feedback_shader(17, &[], false));
    assert!(err.contains("has no sampler feedback kind"), "{err}");
    let err = message(feedback_shader(17, &[2, 7], false));
    assert!(err.contains("sampler feedback kind 7"), "{err}");
    // Feedback written to a raw buffer.
    let err = message(feedback_shader(11, &[], true));
    assert!(err.contains("not a feedback texture"), "{err}");
    // A feedback map whose "texture" is the map itself.
    let err = message(feedback_shader(17, &[2, 0], true));
    assert!(
        err.contains("paired resource is not a texture SRV"),
        "{err}"
    );
}
