//! Types, constants and value references in LLVM assembly.

use std::fmt::Write;

use crate::disasm::text::{escaped, half, ieee_float, llvm_name, wide_integer};
use crate::disasm::{LocalSlots, Printer};
use crate::module::instructions::flags;
use crate::module::{
    ConstExpr, Constant, Constants, FunctionBody, Type, TypeId, ValueId, ValueKind,
};

impl Printer<'_> {
    /// Writes a type.
    pub(crate) fn ty(&mut self, id: TypeId) {
        let types = &self.m.types;
        match types.ty(id) {
            Type::Void => self.out.push_str("void"),
            Type::Half => self.out.push_str("half"),
            Type::Float => self.out.push_str("float"),
            Type::Double => self.out.push_str("double"),
            Type::X86Fp80 => self.out.push_str("x86_fp80"),
            Type::Fp128 => self.out.push_str("fp128"),
            Type::PpcFp128 => self.out.push_str("ppc_fp128"),
            Type::Label => self.out.push_str("label"),
            Type::Metadata => self.out.push_str("metadata"),
            Type::X86Mmx => self.out.push_str("x86_mmx"),
            Type::Integer { width } => {
                let _ = write!(self.out, "i{width}");
            }
            Type::Pointer {
                pointee,
                address_space,
            } => {
                self.ty(pointee);
                if address_space != 0 {
                    let _ = write!(self.out, " addrspace({address_space})");
                }
                self.out.push('*');
            }
            Type::Array { len, element } => {
                let _ = write!(self.out, "[{len} x ");
                self.ty(element);
                self.out.push(']');
            }
            Type::Vector { len, element } => {
                let _ = write!(self.out, "<{len} x ");
                self.ty(element);
                self.out.push('>');
            }
            Type::Struct {
                identified: true,
                name,
                ..
            } => match name {
                Some(n) if !n.is_empty() => llvm_name(&mut self.out, '%', self.m.str(n)),
                _ => {
                    let slot = self.struct_slots.get(&id).copied().unwrap_or(0);
                    let _ = write!(self.out, "%{slot}");
                }
            },
            Type::Struct { .. } => self.struct_body(id),
            Type::Function {
                vararg,
                ret,
                params,
            } => {
                self.ty(ret);
                self.out.push_str(" (");
                for (i, &p) in self.m.types.list(params).iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.ty(p);
                }
                if vararg {
                    if !params.is_empty() {
                        self.out.push_str(", ");
                    }
                    self.out.push_str("...");
                }
                self.out.push(')');
            }
        }
    }

    /// Writes a struct's body: `{ i32, float }`, `<{ i8 }>`, `{}` or `opaque`.
    pub(crate) fn struct_body(&mut self, id: TypeId) {
        let Type::Struct {
            packed,
            opaque,
            elements,
            ..
        } = self.m.types.ty(id)
        else {
            return;
        };
        if opaque {
            self.out.push_str("opaque");
            return;
        }
        if packed {
            self.out.push('<');
        }
        if elements.is_empty() {
            self.out.push_str("{}");
        } else {
            self.out.push_str("{ ");
            for (i, &e) in self.m.types.list(elements).iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.ty(e);
            }
            self.out.push_str(" }");
        }
        if packed {
            self.out.push('>');
        }
    }

    /// Writes `type value`.
    pub(crate) fn typed_value(&mut self, f: Option<(&FunctionBody, &LocalSlots)>, id: ValueId) {
        match self.m.value_info(f.map(|f| f.0), id) {
            Some(info) => {
                self.ty(info.ty);
                self.out.push(' ');
                self.value(f, id);
            }
            None => {
                let _ = write!(self.out, "<bad value {}>", id.0);
            }
        }
    }

    /// Writes a value reference: `%name`, `%3`, `@g`, or a constant inline.
    pub(crate) fn value(&mut self, f: Option<(&FunctionBody, &LocalSlots)>, id: ValueId) {
        let Some(info) = self.m.value_info(f.map(|f| f.0), id) else {
            let _ = write!(self.out, "<bad value {}>", id.0);
            return;
        };
        let module_level = id.index() < self.m.values.len();
        match info.kind {
            ValueKind::GlobalVariable(_) | ValueKind::Function(_) | ValueKind::Alias(_) => {
                let name = self.m.global_name(id);
                if name.is_empty() {
                    let slot = self.global_slots.get(id.index()).copied().unwrap_or(0);
                    let _ = write!(self.out, "@{slot}");
                } else {
                    llvm_name(&mut self.out, '@', name);
                }
            }
            ValueKind::Constant(i) => {
                let constants = if module_level {
                    Some(&self.m.constants)
                } else {
                    f.map(|f| &f.0.constants)
                };
                match constants.and_then(|c| c.get(i).map(|k| (c, *k))) {
                    Some((c, k)) => self.constant(f, c, info.ty, &k),
                    None => self.out.push_str("<bad constant>"),
                }
            }
            ValueKind::Argument(_) | ValueKind::Instruction(_) => match f {
                Some((body, slots)) => match body.value_name(id) {
                    Some(n) => llvm_name(&mut self.out, '%', self.m.str(n)),
                    None => {
                        let slot = slots.value(body, id);
                        let _ = write!(self.out, "%{slot}");
                    }
                },
                None => {
                    let _ = write!(self.out, "<local {}>", id.0);
                }
            },
        }
    }

    /// Whether constant `c` of type `ty` is the type's zero (printed `zeroinitializer`).
    fn is_zero(&self, constants: &Constants, _ty: TypeId, c: &Constant) -> bool {
        match *c {
            Constant::Null => true,
            Constant::Integer(v) => v == 0,
            Constant::Float(bits) => bits == 0,
            Constant::Data(words) => constants.words(words).iter().all(|&w| w == 0),
            Constant::Aggregate(ops) => constants.operands(ops).iter().all(|&e| {
                matches!(self.element(constants, e), Some((t, k)) if self.is_zero(constants, t, &k))
            }),
            _ => false,
        }
    }

    /// Type and constant of an element of an aggregate (same scope as the aggregate or a
    /// module constant).
    fn element(&self, constants: &Constants, id: ValueId) -> Option<(TypeId, Constant)> {
        let info = self
            .m
            .values
            .get(id.index())
            .copied()
            .or_else(|| self.current_body.and_then(|b| b.value(id).copied()))?;
        let ValueKind::Constant(i) = info.kind else {
            return None;
        };
        let table = if id.index() < self.m.values.len() {
            &self.m.constants
        } else {
            constants
        };
        Some((info.ty, *table.get(i)?))
    }

    /// Writes a constant of type `ty`.
    pub(crate) fn constant(
        &mut self,
        f: Option<(&FunctionBody, &LocalSlots)>,
        constants: &Constants,
        ty: TypeId,
        c: &Constant,
    ) {
        let types = &self.m.types;
        match *c {
            Constant::Undef => self.out.push_str("undef"),
            Constant::Null => match types.ty(ty) {
                Type::Integer { width: 1 } => self.out.push_str("false"),
                Type::Integer { .. } => self.out.push('0'),
                Type::Half => half(&mut self.out, 0),
                Type::Float => ieee_float(&mut self.out, 0, false),
                Type::Double => ieee_float(&mut self.out, 0, true),
                Type::Pointer { .. } => self.out.push_str("null"),
                _ => self.out.push_str("zeroinitializer"),
            },
            Constant::Integer(v) => {
                if types.int_width(ty) == Some(1) {
                    self.out.push_str(if v & 1 != 0 { "true" } else { "false" });
                } else {
                    let _ = write!(self.out, "{v}");
                }
            }
            Constant::WideInteger(words) => {
                let width = types.int_width(ty).unwrap_or(64);
                wide_integer(&mut self.out, constants.words(words), width);
            }
            Constant::Float(bits) => match types.ty(ty) {
                Type::Half => half(&mut self.out, bits),
                Type::Float => ieee_float(&mut self.out, bits, false),
                _ => ieee_float(&mut self.out, bits, true),
            },
            Constant::WideFloat(words) => {
                let w = constants.words(words);
                let (w0, w1) = (
                    w.first().copied().unwrap_or(0),
                    w.get(1).copied().unwrap_or(0),
                );
                match types.ty(ty) {
                    Type::X86Fp80 => {
                        let lo = (w1 & 0xFFFF) | (w0 << 16);
                        let hi = w0 >> 48;
                        let _ = write!(self.out, "0xK{hi:04X}{lo:016X}");
                    }
                    Type::Fp128 => {
                        let _ = write!(self.out, "0xL{w0:016X}{w1:016X}");
                    }
                    _ => {
                        let _ = write!(self.out, "0xM{w0:016X}{w1:016X}");
                    }
                }
            }
            Constant::Aggregate(_) | Constant::Data(_) if self.is_zero(constants, ty, c) => {
                self.out.push_str("zeroinitializer")
            }
            Constant::Data(words) => {
                let element = types.sequential_element(ty).unwrap_or(ty);
                let values = constants.words(words);
                if matches!(types.ty(ty), Type::Array { .. }) && types.int_width(element) == Some(8)
                {
                    self.out.push_str("c\"");
                    let bytes: Vec<u8> = values.iter().map(|&w| w as u8).collect();
                    escaped(&mut self.out, &bytes);
                    self.out.push('"');
                    return;
                }
                let (open, close) = if matches!(types.ty(ty), Type::Vector { .. }) {
                    ('<', '>')
                } else {
                    ('[', ']')
                };
                self.out.push(open);
                for (i, &w) in values.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.ty(element);
                    self.out.push(' ');
                    let width = self.m.types.int_width(element);
                    match (self.m.types.ty(element), width) {
                        (_, Some(width)) => {
                            let v = crate::module::constants::sign_extend(w as i64, width);
                            let _ = write!(self.out, "{v}");
                        }
                        (Type::Half, _) => half(&mut self.out, w),
                        (Type::Float, _) => ieee_float(&mut self.out, w, false),
                        _ => ieee_float(&mut self.out, w, true),
                    }
                }
                self.out.push(close);
            }
            Constant::Aggregate(ops) => {
                let elements = constants.operands(ops);
                let all_undef = !elements.is_empty()
                    && elements
                        .iter()
                        .all(|&e| matches!(self.element(constants, e), Some((_, Constant::Undef))));
                if all_undef {
                    self.out.push_str("undef");
                    return;
                }
                let t = types.ty(ty);
                let element = types.sequential_element(ty);
                if let (Type::Array { .. }, Some(e)) = (t, element) {
                    if types.int_width(e) == Some(8) {
                        let bytes: Option<Vec<u8>> = elements
                            .iter()
                            .map(|&id| match self.element(constants, id) {
                                Some((_, Constant::Integer(v))) => Some(v as u8),
                                Some((_, Constant::Null)) => Some(0),
                                _ => None,
                            })
                            .collect();
                        if let Some(bytes) = bytes {
                            self.out.push_str("c\"");
                            escaped(&mut self.out, &bytes);
                            self.out.push('"');
                            return;
                        }
                    }
                }
                let (open, close, packed) = match t {
                    Type::Struct { packed, .. } => ("{ ", " }", packed),
                    Type::Vector { .. } => ("<", ">", false),
                    _ => ("[", "]", false),
                };
                if packed {
                    self.out.push('<');
                }
                if elements.is_empty() {
                    self.out
                        .push_str(if open == "{ " { "{}" } else { &open[..1] });
                    if open != "{ " {
                        self.out.push_str(&close[close.len() - 1..]);
                    }
                } else {
                    self.out.push_str(open);
                    for (i, &e) in elements.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        self.typed_value(f, e);
                    }
                    self.out.push_str(close);
                }
                if packed {
                    self.out.push('>');
                }
            }
            Constant::Expression(e) => self.expression(f, constants, ty, &e),
            Constant::BlockAddress { function, block } => {
                self.out.push_str("blockaddress(");
                self.value(f, function);
                self.out.push_str(", ");
                let body = self
                    .m
                    .function_of(function)
                    .and_then(|func| func.body.as_ref());
                match body.and_then(|b| b.blocks.get(block.index()).map(|bl| (b, bl))) {
                    Some((_, bl)) if !bl.name.is_empty() => {
                        llvm_name(&mut self.out, '%', self.m.str(bl.name));
                    }
                    Some((b, _)) => {
                        let m = self.m;
                        let slots = self
                            .block_slots
                            .entry(function.0)
                            .or_insert_with(|| LocalSlots::new(m, b));
                        let slot = slots.blocks.get(block.index()).copied().unwrap_or(u32::MAX);
                        let _ = write!(self.out, "%{slot}");
                    }
                    None => {
                        let _ = write!(self.out, "%<bad block {}>", block.0);
                    }
                }
                self.out.push(')');
            }
        }
    }

    fn expression(
        &mut self,
        f: Option<(&FunctionBody, &LocalSlots)>,
        constants: &Constants,
        ty: TypeId,
        e: &ConstExpr,
    ) {
        match *e {
            ConstExpr::Cast { op, value } => {
                let _ = write!(self.out, "{} (", op.name());
                self.typed_value(f, value);
                self.out.push_str(" to ");
                self.ty(ty);
                self.out.push(')');
            }
            ConstExpr::Binary {
                op,
                flags: fl,
                lhs,
                rhs,
            } => {
                self.out.push_str(op.name());
                self.binary_flags(op, fl);
                self.out.push_str(" (");
                self.typed_value(f, lhs);
                self.out.push_str(", ");
                self.typed_value(f, rhs);
                self.out.push(')');
            }
            ConstExpr::GetElementPtr {
                inbounds,
                source_type,
                operands,
            } => {
                self.out.push_str("getelementptr ");
                if inbounds {
                    self.out.push_str("inbounds ");
                }
                self.out.push('(');
                self.ty(source_type);
                for &o in constants.operands(operands) {
                    self.out.push_str(", ");
                    self.typed_value(f, o);
                }
                self.out.push(')');
            }
            ConstExpr::Select {
                condition,
                if_true,
                if_false,
            } => self.call_like(f, "select", &[condition, if_true, if_false]),
            ConstExpr::ExtractElement { vector, index } => {
                self.call_like(f, "extractelement", &[vector, index])
            }
            ConstExpr::InsertElement {
                vector,
                element,
                index,
            } => self.call_like(f, "insertelement", &[vector, element, index]),
            ConstExpr::ShuffleVector {
                first,
                second,
                mask,
            } => self.call_like(f, "shufflevector", &[first, second, mask]),
            ConstExpr::Compare {
                predicate,
                lhs,
                rhs,
            } => {
                let name = if predicate.is_float() { "fcmp" } else { "icmp" };
                let _ = write!(self.out, "{name} {} (", predicate.name());
                self.typed_value(f, lhs);
                self.out.push_str(", ");
                self.typed_value(f, rhs);
                self.out.push(')');
            }
        }
    }

    fn call_like(&mut self, f: Option<(&FunctionBody, &LocalSlots)>, name: &str, ops: &[ValueId]) {
        let _ = write!(self.out, "{name} (");
        for (i, &o) in ops.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.typed_value(f, o);
        }
        self.out.push(')');
    }

    /// Writes `nuw nsw`, `exact` or fast-math flags (each with a leading space).
    pub(crate) fn binary_flags(&mut self, op: crate::module::BinaryOp, fl: u8) {
        if op.is_float() {
            self.fast_math(fl);
        } else if op.has_wrap_flags() {
            if fl & flags::NO_UNSIGNED_WRAP != 0 {
                self.out.push_str(" nuw");
            }
            if fl & flags::NO_SIGNED_WRAP != 0 {
                self.out.push_str(" nsw");
            }
        } else if op.has_exact_flag() && fl & flags::EXACT != 0 {
            self.out.push_str(" exact");
        }
    }

    /// Writes fast-math flags (each with a leading space).
    pub(crate) fn fast_math(&mut self, fl: u8) {
        if fl & flags::FAST != 0 {
            self.out.push_str(" fast");
            return;
        }
        if fl & (1 << 7) != 0 {
            self.out.push_str(" reassoc");
        }
        for (bit, name) in [
            (flags::NO_NANS, " nnan"),
            (flags::NO_INFS, " ninf"),
            (flags::NO_SIGNED_ZEROS, " nsz"),
            (flags::ALLOW_RECIPROCAL, " arcp"),
            (1 << 5, " contract"),
            (1 << 6, " afn"),
        ] {
            if fl & bit != 0 {
                self.out.push_str(name);
            }
        }
    }
}
