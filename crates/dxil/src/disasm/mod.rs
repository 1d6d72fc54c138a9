//! LLVM assembly for a DXIL module, laid out as `llvm-dis` lays it out.
//!
//! [`disassemble`] takes a whole container: the parts are listed as comments first, then the
//! module follows as `llvm-dis` (LLVM 14) prints it: target lines, named types, globals,
//! functions (with `; Function Attrs:` comments, numbered locals, labelled blocks and their
//! predecessors), attribute groups, named metadata and the metadata nodes. Local values,
//! blocks, metadata nodes and attribute groups are numbered the way LLVM's slot tracker
//! numbers them, so a listing can be compared line by line with `llvm-dis`'s.

mod container;
mod function;
mod metadata;
mod text;
mod type_order;
mod values;

use std::collections::HashMap;
use std::fmt::Write;

use crate::error::Error;
use crate::module::attributes::{attribute_kind_name, Attribute, FUNCTION_SLOT};
use crate::module::{
    Function, FunctionBody, Linkage, Module, ThreadLocal, Type, TypeId, ValueId, ValueKind,
    Visibility,
};
use text::{escaped, llvm_name};

pub use container::disassemble;

/// Slot numbers of a function's unnamed locals, as LLVM numbers them: arguments, then for
/// each block its label (when unnamed) and its unnamed results.
pub(crate) struct LocalSlots {
    /// By local value index (`u32::MAX` for named values and constants).
    values: Vec<u32>,
    /// By block.
    blocks: Vec<u32>,
}

impl LocalSlots {
    fn new(m: &Module, body: &FunctionBody) -> Self {
        let mut next = 0u32;
        let mut values = vec![u32::MAX; body.values.len()];
        let named = |id: ValueId| body.value_name(id).is_some();
        for a in 0..body.argument_count {
            let id = ValueId(body.first_value + a);
            if !named(id) {
                values[a as usize] = next;
                next += 1;
            }
        }
        let mut blocks = vec![u32::MAX; body.blocks.len()];
        for (b, block) in body.blocks.iter().enumerate() {
            if block.name.is_empty() {
                blocks[b] = next;
                next += 1;
            }
            for inst in body
                .instructions
                .get(block.start as usize..block.end as usize)
                .unwrap_or_default()
            {
                if let Some(id) = inst.result() {
                    if !named(id) {
                        if let Some(slot) = values.get_mut((id.0 - body.first_value) as usize) {
                            *slot = next;
                            next += 1;
                        }
                    }
                }
            }
        }
        let _ = m;
        LocalSlots { values, blocks }
    }

    /// The slot of local value `id`.
    fn value(&self, body: &FunctionBody, id: ValueId) -> u32 {
        id.0.checked_sub(body.first_value)
            .and_then(|i| self.values.get(i as usize))
            .copied()
            .unwrap_or(u32::MAX)
    }
}

/// The printer: the module, the output, and the module-wide numbering.
pub(crate) struct Printer<'m> {
    pub(crate) m: &'m Module,
    pub(crate) out: String,
    /// `@N` numbers of unnamed global values, by value id.
    global_slots: Vec<u32>,
    /// `%N` numbers of unnamed identified structs.
    struct_slots: HashMap<TypeId, u32>,
    /// Metadata node slots by metadata id, and the ids in slot order.
    md_slots: HashMap<u32, u32>,
    md_order: Vec<u32>,
    /// Attribute group texts in numbering order, and their numbers by text.
    attribute_sets: Vec<String>,
    attribute_numbers: HashMap<String, usize>,
    /// Slot tables of functions whose blocks `blockaddress` constants name.
    block_slots: HashMap<u32, LocalSlots>,
    /// The body being printed (for constants of the function).
    current_body: Option<&'m FunctionBody>,
}

/// The module as LLVM assembly (no container comments).
pub fn module_to_string(m: &Module) -> String {
    let mut p = Printer::new(m);
    p.module();
    p.out
}

impl<'m> Printer<'m> {
    fn new(m: &'m Module) -> Self {
        let mut global_slots = vec![0u32; m.values.len()];
        let mut next = 0;
        let globals = m
            .values
            .iter()
            .enumerate()
            .filter(|(_, v)| matches!(v.kind, ValueKind::GlobalVariable(_)))
            .chain(
                m.values
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| matches!(v.kind, ValueKind::Alias(_))),
            )
            .chain(
                m.values
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| matches!(v.kind, ValueKind::Function(_))),
            );
        for (i, _) in globals {
            if m.global_name(ValueId(i as u32)).is_empty() {
                global_slots[i] = next;
                next += 1;
            }
        }
        let mut struct_slots = HashMap::new();
        for (id, t) in m.types.iter() {
            if let Type::Struct {
                identified: true,
                name,
                ..
            } = t
            {
                if name.is_none_or(|n| n.is_empty()) {
                    let n = struct_slots.len() as u32;
                    struct_slots.insert(id, n);
                }
            }
        }
        let mut p = Printer {
            m,
            out: String::new(),
            global_slots,
            struct_slots,
            md_slots: HashMap::new(),
            md_order: Vec::new(),
            attribute_sets: Vec::new(),
            attribute_numbers: HashMap::new(),
            block_slots: HashMap::new(),
            current_body: None,
        };
        p.number_metadata();
        p.number_attribute_sets();
        p
    }

    /// Attribute group numbers: functions' attributes in module order, then call sites'.
    fn number_attribute_sets(&mut self) {
        for f in &self.m.functions {
            self.attribute_set_number(f.attributes);
        }
        for (_, body) in self.m.definitions() {
            for inst in &body.instructions {
                if let crate::module::Op::Call { attributes, .. }
                | crate::module::Op::Invoke { attributes, .. } = inst.op
                {
                    self.attribute_set_number(attributes);
                }
            }
        }
    }

    /// The number of the function attributes of list `list` (`None` when it has none).
    fn attribute_set_number(&mut self, list: u32) -> Option<usize> {
        let text = self.attribute_text(list, FUNCTION_SLOT, true);
        if text.is_empty() {
            return None;
        }
        if let Some(&i) = self.attribute_numbers.get(&text) {
            return Some(i);
        }
        let i = self.attribute_sets.len();
        self.attribute_numbers.insert(text.clone(), i);
        self.attribute_sets.push(text);
        Some(i)
    }

    /// The attributes of one slot of a list, as LLVM 14 prints them: keywords sorted by
    /// name, then integer attributes, then string attributes (`strings` false leaves them
    /// out, as the `; Function Attrs:` comment does).
    fn attribute_text(&self, list: u32, slot: u32, strings: bool) -> String {
        let attrs = &self.m.attributes;
        let mut keywords: Vec<&str> = Vec::new();
        let mut ints: Vec<String> = Vec::new();
        let mut texts: Vec<String> = Vec::new();
        for a in attrs.slot(list, slot) {
            match *a {
                Attribute::Enum(k) => keywords.extend(attribute_kind_name(k)),
                Attribute::Int(k, v) => {
                    let name = attribute_kind_name(k).unwrap_or("?");
                    ints.push(if name == "align" {
                        format!("align {v}")
                    } else {
                        format!("{name}({v})")
                    });
                }
                Attribute::String { key, value } if strings => {
                    let mut s = String::from("\"");
                    escaped(&mut s, self.m.str(key));
                    s.push('"');
                    if let Some(v) = value {
                        s.push_str("=\"");
                        escaped(&mut s, self.m.str(v));
                        s.push('"');
                    }
                    texts.push(s);
                }
                Attribute::String { .. } => {}
            }
        }
        keywords.sort_unstable();
        ints.sort();
        texts.sort();
        let mut out = keywords.join(" ");
        for t in ints.iter().chain(texts.iter()) {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(t);
        }
        out
    }

    fn module(&mut self) {
        let m = self.m;
        if !m.datalayout.is_empty() {
            self.out.push_str("target datalayout = \"");
            escaped(&mut self.out, m.str(m.datalayout));
            self.out.push_str("\"\n");
        }
        if !m.triple.is_empty() {
            self.out.push_str("target triple = \"");
            escaped(&mut self.out, m.str(m.triple));
            self.out.push_str("\"\n");
        }
        if !m.module_asm.is_empty() {
            self.out.push('\n');
            for line in m.str(m.module_asm).split(|&b| b == b'\n') {
                self.out.push_str("module asm \"");
                escaped(&mut self.out, line);
                self.out.push_str("\"\n");
            }
        }
        self.type_definitions();
        if !m.globals.is_empty() {
            self.out.push('\n');
        }
        for g in &m.globals {
            self.global(g);
            self.out.push('\n');
        }
        if !m.aliases.is_empty() {
            self.out.push('\n');
        }
        for a in &m.aliases {
            llvm_name(&mut self.out, '@', m.str(a.name));
            self.out.push_str(" = ");
            self.linkage_prefix(
                a.linkage,
                a.visibility,
                a.dll_storage,
                a.thread_local,
                a.unnamed_addr,
            );
            self.out.push_str("alias ");
            if let Some((pointee, _)) = m.types.pointer(a.ty) {
                self.ty(pointee);
                self.out.push_str(", ");
            }
            self.typed_value(None, a.aliasee);
            self.out.push('\n');
        }
        for f in &m.functions {
            self.out.push('\n');
            self.function(f);
        }
        if !self.attribute_sets.is_empty() {
            self.out.push('\n');
            for (i, text) in self.attribute_sets.iter().enumerate() {
                let _ = writeln!(self.out, "attributes #{i} = {{ {text} }}");
            }
        }
        if !m.named_metadata.is_empty() {
            self.out.push('\n');
        }
        for n in &m.named_metadata {
            text::metadata_name(&mut self.out, m.str(n.name));
            self.out.push_str(" = !{");
            for (i, id) in m.metadata.named_operands(n.operands).enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.metadata_ref(None, Some(id));
            }
            self.out.push_str("}\n");
        }
        if !self.md_order.is_empty() {
            self.out.push('\n');
            self.metadata_nodes();
        }
    }

    fn type_definitions(&mut self) {
        let m = self.m;
        let named = type_order::struct_order(m);
        if named.is_empty() {
            return;
        }
        self.out.push('\n');
        for id in named {
            self.ty(id);
            self.out.push_str(" = type ");
            self.struct_body(id);
            self.out.push('\n');
        }
    }

    fn linkage_prefix(
        &mut self,
        linkage: Linkage,
        visibility: Visibility,
        dll: crate::module::DllStorage,
        tls: ThreadLocal,
        unnamed_addr: bool,
    ) {
        if !linkage.name().is_empty() {
            self.out.push_str(linkage.name());
            self.out.push(' ');
        }
        match visibility {
            Visibility::Default => {}
            Visibility::Hidden => self.out.push_str("hidden "),
            Visibility::Protected => self.out.push_str("protected "),
        }
        match dll {
            crate::module::DllStorage::Default => {}
            crate::module::DllStorage::Import => self.out.push_str("dllimport "),
            crate::module::DllStorage::Export => self.out.push_str("dllexport "),
        }
        match tls {
            ThreadLocal::None => {}
            ThreadLocal::GeneralDynamic => self.out.push_str("thread_local "),
            ThreadLocal::LocalDynamic => self.out.push_str("thread_local(localdynamic) "),
            ThreadLocal::InitialExec => self.out.push_str("thread_local(initialexec) "),
            ThreadLocal::LocalExec => self.out.push_str("thread_local(localexec) "),
        }
        if unnamed_addr {
            self.out.push_str("unnamed_addr ");
        }
    }

    fn global(&mut self, g: &crate::module::GlobalVariable) {
        let m = self.m;
        self.value(None, g.value);
        self.out.push_str(" = ");
        if g.initializer.is_none() && g.linkage == Linkage::External {
            self.out.push_str("external ");
        }
        self.linkage_prefix(
            g.linkage,
            g.visibility,
            g.dll_storage,
            g.thread_local,
            g.unnamed_addr,
        );
        if g.address_space != 0 {
            let _ = write!(self.out, "addrspace({}) ", g.address_space);
        }
        if g.externally_initialized {
            self.out.push_str("externally_initialized ");
        }
        self.out.push_str(if g.is_constant {
            "constant "
        } else {
            "global "
        });
        self.ty(g.value_type);
        if let Some(init) = g.initializer {
            self.out.push(' ');
            self.value(None, init);
        }
        if let Some(s) = g.section.and_then(|s| m.section_names.get(s as usize)) {
            self.out.push_str(", section \"");
            escaped(&mut self.out, m.str(*s));
            self.out.push('"');
        }
        if let Some(c) = g.comdat.and_then(|c| m.comdats.get(c as usize)) {
            self.out.push_str(", comdat(");
            llvm_name(&mut self.out, '$', m.str(c.name));
            self.out.push(')');
        }
        if g.alignment != 0 {
            let _ = write!(self.out, ", align {}", g.alignment);
        }
    }

    fn function(&mut self, f: &'m Function) {
        let m = self.m;
        let comment = self.attribute_text(f.attributes, FUNCTION_SLOT, false);
        if !comment.is_empty() {
            let _ = writeln!(self.out, "; Function Attrs: {comment}");
        }
        let body = f.body.as_ref();
        let slots = body.map(|b| LocalSlots::new(m, b));
        self.out.push_str(if body.is_none() {
            "declare "
        } else {
            "define "
        });
        self.linkage_prefix(
            f.linkage,
            f.visibility,
            f.dll_storage,
            ThreadLocal::None,
            false,
        );
        if f.calling_conv != 0 {
            self.calling_conv(f.calling_conv);
            self.out.push(' ');
        }
        let ret_attrs = self.attribute_text(f.attributes, 0, true);
        if !ret_attrs.is_empty() {
            self.out.push_str(&ret_attrs);
            self.out.push(' ');
        }
        let (ret, params, vararg) = m.types.function(f.ty).unwrap_or((f.ty, &[], false));
        self.ty(ret);
        self.out.push(' ');
        self.value(None, f.value);
        self.out.push('(');
        for (i, &p) in params.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.ty(p);
            let attrs = self.attribute_text(f.attributes, i as u32 + 1, true);
            if !attrs.is_empty() {
                self.out.push(' ');
                self.out.push_str(&attrs);
            }
            if let (Some(b), Some(s)) = (body, slots.as_ref()) {
                self.out.push(' ');
                self.value(Some((b, s)), ValueId(b.first_value + i as u32));
            }
        }
        if vararg {
            if !params.is_empty() {
                self.out.push_str(", ");
            }
            self.out.push_str("...");
        }
        self.out.push(')');
        if f.unnamed_addr {
            self.out.push_str(" unnamed_addr");
        }
        if let Some(n) = self.attribute_set_number(f.attributes) {
            let _ = write!(self.out, " #{n}");
        }
        if let Some(s) = f.section.and_then(|s| m.section_names.get(s as usize)) {
            self.out.push_str(" section \"");
            escaped(&mut self.out, m.str(*s));
            self.out.push('"');
        }
        if f.alignment != 0 {
            let _ = write!(self.out, " align {}", f.alignment);
        }
        if let Some(gc) = f.gc.and_then(|g| m.gc_names.get(g as usize)) {
            self.out.push_str(" gc \"");
            escaped(&mut self.out, m.str(*gc));
            self.out.push('"');
        }
        for (word, v) in [
            ("prefix", f.prefix),
            ("prologue", f.prologue),
            ("personality", f.personality),
        ] {
            if let Some(v) = v {
                let _ = write!(self.out, " {word} ");
                self.typed_value(None, v);
            }
        }
        match (body, slots) {
            (Some(b), Some(s)) => {
                for &(kind, node) in &b.function_attachments {
                    self.out.push(' ');
                    self.attachment(Some(b), kind, node);
                }
                self.out.push_str(" {");
                self.current_body = Some(b);
                self.body(b, &s);
                self.current_body = None;
                self.out.push_str("}\n");
            }
            _ => self.out.push('\n'),
        }
    }

    pub(crate) fn calling_conv(&mut self, cc: u32) {
        match cc {
            8 => self.out.push_str("fastcc"),
            9 => self.out.push_str("coldcc"),
            cc => {
                let _ = write!(self.out, "cc {cc}");
            }
        }
    }
}

/// The `#N` text of a call's function attributes is printed by the function printer.
pub(crate) fn call_attribute_number(p: &mut Printer<'_>, list: u32) -> Option<usize> {
    p.attribute_set_number(list)
}

/// Module text of bitcode (no container).
pub fn disassemble_bitcode(bitcode: &[u8]) -> Result<String, Error> {
    let m = Module::read(bitcode)?;
    Ok(module_to_string(&m))
}
