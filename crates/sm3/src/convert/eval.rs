//! A test-only interpreter of lowered IR: runs one invocation of a converted shader on given
//! inputs, constants and state, so tests can check what the translation computes (the
//! arithmetic Direct3D 9 defines, the fixed-function state) on sample values, through the
//! whole pass pipeline.
//!
//! It knows the ops the pipeline leaves in a lowered D3D9 shader: constants, loads of
//! inputs, constant buffers (the state buffer included), push data and spec constants, float, integer and boolean
//! arithmetic, composites, `ConstantLoad`, image samples (answered by a callback), structured
//! control flow with phis, `Demote` and output stores. Arithmetic is done in `f32` as Rust
//! does it (`a * b + c` unfused).

use std::collections::HashMap;

use dxspv_ir::{Builder, BuiltIn, Op, OpCode, RoundMode, ScalarType, SsaDef};

/// A texture sample: sampler register and coordinate to texel.
pub(crate) type Texture = std::rc::Rc<dyn Fn(u32, &[f32]) -> [f32; 4]>;

/// What an invocation reads.
#[derive(Clone)]
pub(crate) struct Env {
    /// Vertex inputs by register, pixel inputs by location.
    pub inputs: HashMap<u32, [f32; 4]>,
    /// `FragCoord`.
    pub frag_coord: [f32; 4],
    /// `FrontFacing`.
    pub front_face: bool,
    /// `c#`.
    pub floats: Vec<[f32; 4]>,
    /// `i#`.
    pub ints: Vec<[i32; 4]>,
    /// `b#`, bit per register.
    pub bools: u32,
    /// The push constant block.
    pub push: [u8; crate::options::push::SIZE as usize],
    /// The state buffer (`b3`), by row.
    pub state: Vec<[f32; 4]>,
    /// Spec constants set by the host (others take their default).
    pub spec: HashMap<u32, u32>,
    /// A texture sample: sampler register and coordinate to texel.
    pub texture: Texture,
}

impl Default for Env {
    fn default() -> Self {
        Env {
            inputs: HashMap::new(),
            frag_coord: [0.5, 0.5, 0.5, 1.0],
            front_face: true,
            floats: Vec::new(),
            ints: Vec::new(),
            bools: 0,
            push: [0; crate::options::push::SIZE as usize],
            state: Vec::new(),
            spec: HashMap::new(),
            texture: std::rc::Rc::new(|_, c| {
                let mut t = [0.0; 4];
                for (o, v) in t.iter_mut().zip(c) {
                    *o = *v;
                }
                t
            }),
        }
    }
}

impl Env {
    /// Writes an `f32` push member.
    pub fn push_f32(&mut self, offset: usize, v: f32) {
        self.push[offset..offset + 4].copy_from_slice(&v.to_le_bytes());
    }
}

/// What an invocation wrote.
#[derive(Clone, Debug, Default)]
pub(crate) struct Outputs {
    /// Varyings and render targets by location.
    pub locations: HashMap<u32, Vec<f32>>,
    /// Built-in outputs.
    pub builtins: HashMap<u32, Vec<f32>>,
    /// Whether the invocation was demoted.
    pub demoted: bool,
}

impl Outputs {
    /// The built-in `b`.
    pub fn builtin(&self, b: BuiltIn) -> &[f32] {
        self.builtins.get(&(b as u32)).map_or(&[], |v| v.as_slice())
    }

    /// Location `l`.
    pub fn at(&self, l: u32) -> &[f32] {
        self.locations.get(&l).map_or(&[], |v| v.as_slice())
    }
}

fn f(v: u32) -> f32 {
    f32::from_bits(v)
}

fn b(v: bool) -> u32 {
    u32::from(v)
}

/// Runs the entry point of lowered IR `ir` on `env`.
pub(crate) fn run(ir: &Builder, env: &Env) -> Outputs {
    let ops: Vec<(SsaDef, Op)> = ir.iter().map(|(d, o)| (d, o.clone())).collect();
    let index: HashMap<SsaDef, usize> = ops.iter().enumerate().map(|(i, (d, _))| (*d, i)).collect();
    let get = |d: SsaDef| -> &Op { &ops[index[&d]].1 };
    let mut vals: HashMap<SsaDef, Vec<u32>> = HashMap::new();
    let mut out = Outputs::default();
    // Declarations and constants.
    for (d, op) in &ops {
        match op.opcode {
            OpCode::Constant => {
                vals.insert(*d, op.operands.iter().map(|o| o.0 as u32).collect());
            }
            OpCode::Undef => {
                let n = op.ty.flattened_scalar_count().unwrap_or(1) as usize;
                vals.insert(*d, vec![0; n]);
            }
            OpCode::DclSpecConstant => {
                let id = op.lit(0).unwrap_or(0) as u32;
                let def = op.lit(1).unwrap_or(0) as u32;
                vals.insert(*d, vec![*env.spec.get(&id).unwrap_or(&def)]);
            }
            _ => {}
        }
    }
    let start = ops
        .iter()
        .position(|(_, o)| o.opcode == OpCode::Function)
        .expect("a function");
    let mut pc = start + 1;
    let mut block: Option<SsaDef> = None;
    let mut steps = 0u32;
    loop {
        steps += 1;
        assert!(steps < 1_000_000, "runaway evaluation");
        let (d, op) = &ops[pc];
        let d = *d;
        let arg = |i: usize| -> &Vec<u32> {
            let a = op
                .arg(i)
                .unwrap_or_else(|| panic!("{op:?} lacks operand {i}"));
            vals.get(&a)
                .unwrap_or_else(|| panic!("{} used before defined", a.id()))
        };
        let a0 = |i: usize| arg(i)[0];
        let st = op.ty.base_type().unwrap_or(ScalarType::Void);
        let result: Option<Vec<u32>> = match op.opcode {
            OpCode::Label => {
                let prev_block = block;
                block = Some(d);
                // Phis right after the label read the values of the block left.
                let mut phis = Vec::new();
                let mut j = pc + 1;
                while let Some((pd, pop)) = ops.get(j) {
                    if pop.opcode != OpCode::Phi {
                        break;
                    }
                    let mut v = None;
                    for pair in pop.operands.chunks(2) {
                        if pair[0].def() == prev_block {
                            v = pair[1].def().and_then(|x| vals.get(&x).cloned());
                        }
                    }
                    phis.push((*pd, v.unwrap_or_else(|| vec![0])));
                    j += 1;
                }
                for (pd, v) in phis {
                    vals.insert(pd, v);
                }
                pc = j;
                continue;
            }
            OpCode::Branch => {
                pc = index[&op.arg(0).expect("target")];
                continue;
            }
            OpCode::BranchConditional => {
                let t = if a0(0) != 0 { op.arg(1) } else { op.arg(2) };
                pc = index[&t.expect("target")];
                continue;
            }
            OpCode::Return | OpCode::FunctionEnd => break,
            OpCode::Unreachable => panic!("reached Unreachable"),
            OpCode::Demote => {
                out.demoted = true;
                None
            }
            OpCode::InputLoad => {
                let dcl = get(op.arg(0).expect("decl"));
                let v: Vec<u32> = match dcl.opcode {
                    OpCode::DclInput => {
                        let loc = dcl.lit(0).unwrap_or(0) as u32;
                        env.inputs
                            .get(&loc)
                            .copied()
                            .unwrap_or([0.0; 4])
                            .iter()
                            .map(|x| x.to_bits())
                            .collect()
                    }
                    _ => {
                        let bi = BuiltIn::from_literal(dcl.lit(0).unwrap_or(0));
                        match bi {
                            Some(BuiltIn::IsFrontFace) => vec![b(env.front_face)],
                            _ => env.frag_coord.iter().map(|x| x.to_bits()).collect(),
                        }
                    }
                };
                Some(match op.arg(1) {
                    Some(a) => vec![v[vals[&a][0] as usize]],
                    None if op.ty.is_scalar() => vec![v[0]],
                    None => v,
                })
            }
            OpCode::OutputStore => {
                let dcl = get(op.arg(0).expect("decl"));
                let value = arg(2).clone();
                let slot = match dcl.opcode {
                    OpCode::DclOutput => out
                        .locations
                        .entry(dcl.lit(0).unwrap_or(0) as u32)
                        .or_default(),
                    _ => out
                        .builtins
                        .entry(dcl.lit(0).unwrap_or(0) as u32)
                        .or_default(),
                };
                let at = op.arg(1).map_or(0, |a| vals[&a][0] as usize);
                if slot.len() < at + value.len() {
                    slot.resize(at + value.len(), 0.0);
                }
                for (k, v) in value.iter().enumerate() {
                    slot[at + k] = f(*v);
                }
                None
            }
            OpCode::DescriptorLoad => Some(vec![op.arg(0).expect("decl").id()]),
            OpCode::BufferLoad => {
                let dcl = get(SsaDef::new(a0(0)).expect("descriptor"));
                let reg = dcl.lit(1).unwrap_or(0);
                let addr = arg(1);
                // A scalar address loads a whole row.
                let (row, first, n) = match addr.as_slice() {
                    [row] => (*row as usize, 0, 4),
                    [row, c, ..] => (*row as usize, *c as usize, 1),
                    [] => (0, 0, 1),
                };
                Some(
                    (first..first + n)
                        .map(|c| match reg {
                            0 => env.floats.get(row).map_or(0.0, |r| r[c]).to_bits(),
                            1 => env.ints.get(row).map_or(0, |r| r[c]) as u32,
                            3 => env.state.get(row).map_or(0.0, |r| r[c]).to_bits(),
                            _ => {
                                if row == 0 && c == 0 {
                                    env.bools
                                } else {
                                    0
                                }
                            }
                        })
                        .collect(),
                )
            }
            OpCode::PushDataLoad => {
                let dcl = get(op.arg(0).expect("decl"));
                let base = dcl.lit(0).unwrap_or(0) as usize;
                let width = dcl
                    .ty
                    .element_type()
                    .as_basic()
                    .map_or(1, |x| x.vec_size() as usize);
                // std430: vec2 elements 8 bytes apart, vec3/vec4 16, scalars 4.
                let stride = match width {
                    1 => 4,
                    2 => 8,
                    _ => 16,
                };
                let n = op.ty.as_basic().map_or(1, |x| x.vec_size() as usize);
                let addr: Vec<usize> = op.arg(1).map_or(Vec::new(), |a| {
                    vals[&a].iter().map(|x| *x as usize).collect()
                });
                let byte = match (dcl.ty.dims().is_empty(), addr.as_slice()) {
                    (true, [c, ..]) => base + c * 4,
                    (true, []) => base,
                    (false, [i]) => base + i * stride,
                    (false, [i, c, ..]) => base + i * stride + c * 4,
                    (false, []) => base,
                };
                Some(
                    (0..n)
                        .map(|k| {
                            let at = byte + k * 4;
                            u32::from_le_bytes(env.push[at..at + 4].try_into().unwrap_or([0; 4]))
                        })
                        .collect(),
                )
            }
            OpCode::ImageSample => {
                let dcl = get(SsaDef::new(a0(0)).expect("descriptor"));
                let reg = dcl.lit(1).unwrap_or(0) as u32;
                let coord: Vec<f32> = arg(3).iter().map(|x| f(*x)).collect();
                let t = (env.texture)(reg, &coord);
                if op.arg(10).is_some() {
                    Some(vec![t[0].to_bits()])
                } else {
                    Some(t.iter().map(|x| x.to_bits()).collect())
                }
            }
            OpCode::ConstantLoad => {
                let arr = get(op.arg(0).expect("constant"));
                let width = arr
                    .ty
                    .element_type()
                    .as_basic()
                    .map_or(1, |x| x.vec_size() as usize);
                let addr = arg(1);
                let at = if addr.len() > 1 {
                    addr[0] as usize * width + addr[1] as usize
                } else {
                    addr[0] as usize * width
                };
                Some(vec![arg(0)[at]])
            }
            OpCode::CompositeConstruct => {
                Some((0..op.ref_count()).flat_map(|i| arg(i).clone()).collect())
            }
            OpCode::CompositeExtract => {
                let i = arg(1)[0] as usize;
                Some(vec![arg(0)[i]])
            }
            OpCode::CompositeInsert => {
                let mut v = arg(0).clone();
                let i = arg(1)[0] as usize;
                v[i] = a0(2);
                Some(v)
            }
            OpCode::Select => Some(if a0(0) != 0 {
                arg(1).clone()
            } else {
                arg(2).clone()
            }),
            OpCode::Cast => Some(arg(0).clone()),
            OpCode::ConvertFtoI => Some(vec![if st.is_signed_int() {
                f(a0(0)) as i32 as u32
            } else {
                f(a0(0)) as u32
            }]),
            OpCode::ConvertItoF => {
                let src = get(op.arg(0).expect("value")).ty.base_type();
                Some(vec![if src.is_some_and(|t| t.is_signed_int()) {
                    (a0(0) as i32 as f32).to_bits()
                } else {
                    (a0(0) as f32).to_bits()
                }])
            }
            OpCode::FRound => {
                let x = f(a0(0));
                let r = match RoundMode::from_literal(op.lit(0).unwrap_or(0)) {
                    Some(RoundMode::NegativeInf) => x.floor(),
                    Some(RoundMode::PositiveInf) => x.ceil(),
                    Some(RoundMode::Zero) => x.trunc(),
                    _ => x.round_ties_even(),
                };
                Some(vec![r.to_bits()])
            }
            // Component-wise (a vector op: each operand's component, or its scalar).
            o => {
                let n = (0..op.ref_count()).map(|i| arg(i).len()).max().unwrap_or(1);
                Some(
                    (0..n.max(1))
                        .map(|c| {
                            scalar(o, st, op, &|i| {
                                let v = arg(i);
                                v.get(c).or(v.first()).copied().unwrap_or(0)
                            })
                        })
                        .collect(),
                )
            }
        };
        if let Some(v) = result {
            vals.insert(d, v);
        }
        pc += 1;
    }
    out
}

/// A scalar op.
fn scalar(o: OpCode, st: ScalarType, op: &Op, a: &dyn Fn(usize) -> u32) -> u32 {
    use OpCode as O;
    let fa = || f(a(0));
    let fb = || f(a(1));
    let signed = st.is_signed_int();
    match o {
        O::FAdd => (fa() + fb()).to_bits(),
        O::FSub => (fa() - fb()).to_bits(),
        O::FMul => (fa() * fb()).to_bits(),
        O::FMad => (fa() * fb() + f(a(2))).to_bits(),
        O::FDiv => (fa() / fb()).to_bits(),
        O::FNeg => (-fa()).to_bits(),
        O::FAbs => fa().abs().to_bits(),
        O::FMin => fa().min(fb()).to_bits(),
        O::FMax => fa().max(fb()).to_bits(),
        O::FClamp => fa().max(fb()).min(f(a(2))).to_bits(),
        O::FRcp => (1.0 / fa()).to_bits(),
        O::FRsq => (1.0 / fa().sqrt()).to_bits(),
        O::FSqrt => fa().sqrt().to_bits(),
        O::FExp2 => fa().exp2().to_bits(),
        O::FLog2 => fa().log2().to_bits(),
        O::FFract => (fa() - fa().floor()).to_bits(),
        O::FSin => fa().sin().to_bits(),
        O::FCos => fa().cos().to_bits(),
        O::FPow => fa().powf(fb()).to_bits(),
        O::FEq => b(fa() == fb()),
        O::FNe => b(fa() != fb()),
        O::FLt => b(fa() < fb()),
        O::FLe => b(fa() <= fb()),
        O::FGt => b(fa() > fb()),
        O::FGe => b(fa() >= fb()),
        O::FIsNan => b(fa().is_nan()),
        O::IEq | O::BEq => b(a(0) == a(1)),
        O::INe | O::BNe => b(a(0) != a(1)),
        O::SLt => b((a(0) as i32) < (a(1) as i32)),
        O::SLe => b((a(0) as i32) <= (a(1) as i32)),
        O::SGt => b((a(0) as i32) > (a(1) as i32)),
        O::SGe => b((a(0) as i32) >= (a(1) as i32)),
        O::ULt => b(a(0) < a(1)),
        O::ULe => b(a(0) <= a(1)),
        O::UGt => b(a(0) > a(1)),
        O::UGe => b(a(0) >= a(1)),
        O::BAnd => b(a(0) != 0 && a(1) != 0),
        O::BOr => b(a(0) != 0 || a(1) != 0),
        O::BNot => b(a(0) == 0),
        O::IAdd => a(0).wrapping_add(a(1)),
        O::ISub => a(0).wrapping_sub(a(1)),
        O::IMul => a(0).wrapping_mul(a(1)),
        O::IAnd => a(0) & a(1),
        O::IOr => a(0) | a(1),
        O::IXor => a(0) ^ a(1),
        O::INot => !a(0),
        O::INeg => (a(0) as i32).wrapping_neg() as u32,
        O::IShl => a(0).wrapping_shl(a(1)),
        O::UShr => a(0).wrapping_shr(a(1)),
        O::SShr => ((a(0) as i32).wrapping_shr(a(1))) as u32,
        O::UBitExtract => {
            let (off, n) = (a(1) & 31, a(2));
            if n == 0 {
                0
            } else {
                (a(0) >> off) & (u32::MAX >> (32 - n.min(32)))
            }
        }
        O::SMin => (a(0) as i32).min(a(1) as i32) as u32,
        O::SMax => (a(0) as i32).max(a(1) as i32) as u32,
        O::UMin => a(0).min(a(1)),
        O::UMax => a(0).max(a(1)),
        O::SClamp => (a(0) as i32).max(a(1) as i32).min(a(2) as i32) as u32,
        O::UClamp => a(0).max(a(1)).min(a(2)),
        O::IAbs => (a(0) as i32).unsigned_abs(),
        O::DerivX | O::DerivY => 0,
        _ => panic!("the evaluator does not know {o:?} ({op:?}, signed {signed})"),
    }
}
