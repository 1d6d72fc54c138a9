//! [`FrontendBuilder`]: the small ops every converter writes, on top of a [`Builder`].

use super::ConstantCache;
use crate::op::StringPacker;
use crate::{Builder, Op, OpCode, Operand, ScalarType, SsaDef, Type};

/// What [`FrontendBuilder`]'s provided methods keep between calls.
#[derive(Clone, Debug, Default)]
pub struct FrontendState {
    /// Scalar constants made so far.
    pub constants: ConstantCache,
}

/// A piece of a debug name: text, or a number written in decimal.
#[derive(Clone, Copy, Debug)]
pub enum NamePart<'a> {
    /// Text.
    S(&'a str),
    /// A decimal number.
    N(u64),
}

/// Helpers for writing IR, for any converter that owns a [`Builder`] and a [`FrontendState`].
///
/// Implementors provide [`FrontendBuilder::ir`]; every other method has a default.
pub trait FrontendBuilder {
    /// The builder being written and the helpers' state.
    fn ir(&mut self) -> (&mut Builder, &mut FrontendState);

    /// Appends a code op. Override to track something about every op appended (the
    /// converters of this workspace do: the last op of a function, constant addresses).
    #[inline]
    fn code(&mut self, op: Op) -> SsaDef {
        self.ir().0.add(op)
    }

    /// Appends a declaration.
    #[inline]
    fn decl(&mut self, op: Op) -> SsaDef {
        self.ir().0.add_decl(op)
    }

    /// A scalar constant of type `ty` holding `bits`.
    #[inline]
    fn constant(&mut self, ty: ScalarType, bits: u64) -> SsaDef {
        let (b, state) = self.ir();
        state.constants.get(b, ty, bits)
    }

    /// A `u32` constant.
    #[inline]
    fn c_u32(&mut self, v: u32) -> SsaDef {
        self.constant(ScalarType::U32, v as u64)
    }

    /// An `i32` constant.
    #[inline]
    fn c_i32(&mut self, v: i32) -> SsaDef {
        self.constant(ScalarType::I32, v as u32 as u64)
    }

    /// An `f32` constant.
    #[inline]
    fn c_f32(&mut self, v: f32) -> SsaDef {
        self.constant(ScalarType::F32, v.to_bits() as u64)
    }

    /// A `bool` constant.
    #[inline]
    fn c_bool(&mut self, v: bool) -> SsaDef {
        self.constant(ScalarType::Bool, v as u64)
    }

    /// A one-operand code op.
    #[inline]
    fn op1(&mut self, opc: OpCode, ty: impl Into<Type>, a: SsaDef) -> SsaDef {
        self.code(Op::with_operands(opc, ty, [a].map(Operand::from_def)))
    }

    /// A two-operand code op.
    #[inline]
    fn op2(&mut self, opc: OpCode, ty: impl Into<Type>, a: SsaDef, b: SsaDef) -> SsaDef {
        self.code(Op::with_operands(opc, ty, [a, b].map(Operand::from_def)))
    }

    /// A three-operand code op.
    #[inline]
    fn op3(&mut self, opc: OpCode, ty: impl Into<Type>, a: SsaDef, b: SsaDef, c: SsaDef) -> SsaDef {
        self.code(Op::with_operands(opc, ty, [a, b, c].map(Operand::from_def)))
    }

    /// Extracts member or component `i` of a composite.
    #[inline]
    fn extract(&mut self, ty: impl Into<Type>, v: SsaDef, i: u32) -> SsaDef {
        let idx = self.c_u32(i);
        self.op2(OpCode::CompositeExtract, ty, v, idx)
    }

    /// A vector of `ty` built from scalars; a single scalar is returned as is.
    fn vector(&mut self, ty: ScalarType, parts: &[SsaDef]) -> SsaDef {
        if let [one] = parts {
            return *one;
        }
        let mut op = Op::new(
            OpCode::CompositeConstruct,
            Type::vector(ty, parts.len() as u8),
        );
        op.operands = parts.iter().map(|&p| Operand::from_def(p)).collect();
        self.code(op)
    }

    /// `cond ? ~0 : 0` as `u32`: Direct3D's boolean encoding in registers.
    fn bool_to_mask(&mut self, cond: SsaDef) -> SsaDef {
        let t = self.c_u32(u32::MAX);
        let f = self.c_u32(0);
        self.op3(OpCode::Select, ScalarType::U32, cond, t, f)
    }

    /// Names `def` for debugging.
    fn name(&mut self, def: SsaDef, name: &str) {
        self.decl(
            Op::new(OpCode::DebugName, Type::VOID)
                .with_ref(def)
                .with_str(name),
        );
    }

    /// Names `def` with the concatenation of `parts`, packed straight into the op's literals:
    /// debug names are made for most declarations, and `format!` is slow.
    fn name_parts(&mut self, def: SsaDef, parts: &[NamePart<'_>]) {
        let mut op = Op::new(OpCode::DebugName, Type::VOID).with_ref(def);
        // A short name (all but a few) is gathered in a buffer and packed a word at a time;
        // a longer one byte by byte.
        match gather_name(parts) {
            Some((buf, len)) => {
                let words = len / 8 + 1;
                op.operands.reserve(words);
                for w in buf.chunks_exact(8).take(words) {
                    let mut a = [0u8; 8];
                    a.copy_from_slice(w);
                    op.operands.push(Operand(u64::from_le_bytes(a)));
                }
            }
            None => {
                let mut packer = StringPacker::new(&mut op.operands, 16);
                for p in parts {
                    match *p {
                        NamePart::S(t) => packer.push_bytes(t.as_bytes()),
                        NamePart::N(n) => packer.push_decimal(n),
                    }
                }
                packer.finish();
            }
        }
        self.decl(op);
    }
}

/// Bytes [`gather_name`] gathers a name in: names of up to `NAME_BUFFER - 8` bytes, so that
/// the word holding the terminating zero byte is inside it too.
const NAME_BUFFER: usize = 48;

/// The concatenation of `parts` in a zero-filled buffer, with its length, if it is shorter
/// than `NAME_BUFFER - 8` bytes.
#[inline]
fn gather_name(parts: &[NamePart<'_>]) -> Option<([u8; NAME_BUFFER], usize)> {
    let mut buf = [0u8; NAME_BUFFER];
    let mut len = 0usize;
    for p in parts {
        match *p {
            NamePart::S(t) => {
                let b = t.as_bytes();
                if let [c] = b {
                    // One byte (`o`, `_`): stored, not copied.
                    *buf.get_mut(len)? = *c;
                } else {
                    buf.get_mut(len..len + b.len())?.copy_from_slice(b);
                }
                len += b.len();
            }
            NamePart::N(n) if n < 10 => {
                // One digit (most register numbers and semantic indices): no copy.
                *buf.get_mut(len)? = b'0' + n as u8;
                len += 1;
            }
            NamePart::N(n) => {
                let (digits, start) = crate::op::decimal_digits(n);
                let d = digits.get(start..).unwrap_or_default();
                buf.get_mut(len..len + d.len())?.copy_from_slice(d);
                len += d.len();
            }
        }
    }
    (len < NAME_BUFFER - 8).then_some((buf, len))
}
