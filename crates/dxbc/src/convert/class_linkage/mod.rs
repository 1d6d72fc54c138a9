//! SM 5.0 class linkage (HLSL interfaces and classes), resolved with the application's bindings.
//!
//! A shader that calls methods through HLSL interfaces declares
//!
//! - function bodies `dcl_function_body fb#`, each later defined as `label fb#` … `ret`;
//! - function tables `dcl_function_table ft# = {fb…}`: one body per call site, like a vtable
//!   with one entry per call site rather than per method;
//! - interfaces `dcl_interface[_dynamicindexed] fp#[array][call sites] = {ft…}`: the interface
//!   slots `fp#` to `fp# + array - 1` and the tables a class instance bound to them may have.
//!
//! and calls `fcall fp#[array index][call site]`. Which body runs is only known at draw time:
//! the application passes one class instance per interface slot
//! (`PSSetShader(shader, instances, count)`), which selects the slot's function table (the
//! instance's class) and where the instance's members live. Inside a body the `this[slot]`
//! register tells: `x` the constant buffer slot, `y` the offset in 16-byte vectors, `z` the
//! first texture register and `w` the first sampler register of the instance (the arguments of
//! `ID3D11ClassLinkage::CreateClassInstance`); the body reads its members as
//! `cb[this.x + …][this.y + …]`.
//!
//! Vulkan has no such indirection, so the bindings are compile-time input
//! ([`ConvertOptions::class_linkage`], one [`InterfaceBinding`] per slot; a slot without one
//! gets the first table its declaration lists and zero instance data). The converter then
//!
//! - makes every function body an IR function (`fb#`);
//! - turns `fcall` into a `FunctionCall` of the body the slot's table lists for the call site,
//!   or, for a dynamically indexed interface array, a `ScopedSwitch` on the array index with
//!   one call per array element (an index past the array calls nothing);
//! - reads `this[slot]` as constants (a constant array when the slot index is dynamic);
//! - reads members (`cb[this.x + …][…]`), textures (`t[this.z + …]`) and samplers
//!   (`s[this.w + …]`) through a `ScopedSwitch` over the registers the bindings can make the
//!   index name (see the `instance` module).

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::small_map::SmallMap;
use dxspv_ir::{Op, OpCode, Operand as IrOperand, ScalarType, SsaDef, Type};

use super::registers::{Ix, Lanes};
use super::{lanes, At, Converter, R};
use crate::operand::Operand;
use crate::{Instruction, Payload};

mod instance;
#[cfg(test)]
mod tests;

pub use instance::{SAMPLER_SLOTS, TEXTURE_SLOTS};

/// Most interface slots a shader may declare (`D3D11_SHADER_MAX_INTERFACES`).
pub const MAX_INTERFACE_SLOTS: u32 = 253;

/// Constant buffer slots an application can bind to a stage
/// (`D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT`).
pub const CONSTANT_BUFFER_SLOTS: u32 = 14;

/// Where a class instance's members live: what `this[slot]` holds, in the terms of
/// `ID3D11ClassLinkage::CreateClassInstance`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct InstanceData {
    /// Constant buffer slot (`cb#`, 0 to 13) holding the members (`ConstantBufferOffset`):
    /// `this.x`.
    pub constant_buffer: u32,
    /// Offset of the members in that buffer, in 16-byte vectors (`ConstantVectorOffset`):
    /// `this.y`.
    pub constant_vector_offset: u32,
    /// First texture register (`t#`, 0 to 127) of the instance (`TextureOffset`): `this.z`.
    pub texture_offset: u32,
    /// First sampler register (`s#`, 0 to 15) of the instance (`SamplerOffset`): `this.w`.
    pub sampler_offset: u32,
}

impl InstanceData {
    /// The four components of `this[slot]`.
    pub fn components(&self) -> [u32; 4] {
        [
            self.constant_buffer,
            self.constant_vector_offset,
            self.texture_offset,
            self.sampler_offset,
        ]
    }
}

/// The class instance bound to one interface slot (one entry of `PSSetShader`'s instances).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct InterfaceBinding {
    /// The instance's function table: the `ft#` number of one of the tables the slot's
    /// `dcl_interface` lists (the table the interfaces chunk pairs with the instance's class).
    /// `None`: the first table listed.
    pub function_table: Option<u32>,
    /// Where the instance's members live.
    pub instance: InstanceData,
}

/// What the converter needs beyond the shader.
#[derive(Clone, Copy, Debug, Default)]
pub struct ConvertOptions<'a> {
    /// Class instances bound to the interface slots, indexed by slot (`fp#` plus array index;
    /// slots are numbered across all `dcl_interface`s, an array taking one per element). A slot
    /// past the end of the slice gets the first function table its declaration lists and zero
    /// instance data. More entries than the shader has slots is an error (a shader without
    /// interfaces takes none).
    pub class_linkage: &'a [InterfaceBinding],
}

/// A `dcl_interface`.
#[derive(Clone, Debug)]
struct InterfaceDecl {
    /// First slot (`fp#`).
    first: u32,
    /// Array length (slots).
    len: u32,
    /// Call sites: the length of each of its tables.
    call_sites: u32,
    /// Declared `dcl_interface_dynamicindexed`.
    dynamic: bool,
    /// The function tables an instance may have.
    tables: Vec<u32>,
    /// The declaration, for errors about its bindings.
    at: At,
}

/// The class linkage state of one conversion.
#[derive(Default)]
pub(crate) struct State {
    /// `dcl_function_table`: table number and its bodies, one per call site.
    tables: Vec<(u32, Vec<u32>)>,
    /// `dcl_interface`s in declaration order.
    interfaces: Vec<InterfaceDecl>,
    /// Number of interface slots.
    slot_count: u32,
    /// Per slot: the bound function table (`None`: the slot has no table) and instance data.
    slots: Vec<(Option<u32>, InstanceData)>,
    /// `label fb#` → its function.
    bodies: SmallMap<u32, SsaDef, 2>,
    /// Calls emitted before their body's `label fb#`: (call, body).
    pending: Vec<(SsaDef, u32)>,
    /// `this[]` as a constant `vec4<u32>[slots]`, made on the first dynamic `this` index.
    this_array: Option<SsaDef>,
}

impl State {
    /// True if the shader declares interfaces.
    pub(crate) fn any(&self) -> bool {
        !self.interfaces.is_empty()
    }

    /// The interface declaring `slot`.
    fn interface_of(&self, slot: u32) -> Option<&InterfaceDecl> {
        self.interfaces
            .iter()
            .find(|i| slot >= i.first && slot - i.first < i.len)
    }

    /// The bodies of table `ft#`.
    fn table(&self, id: u32) -> Option<&[u32]> {
        self.tables
            .iter()
            .find(|(t, _)| *t == id)
            .map(|(_, b)| b.as_slice())
    }
}

impl Converter<'_, '_> {
    /// Prescan of `dcl_function_table` and `dcl_interface`: their contents are needed before
    /// the first `fcall` and `this` read.
    pub(crate) fn prescan_class_linkage(&mut self, inst: &Instruction<'_>) -> R<()> {
        match inst.payload {
            Payload::FunctionTable { id, bodies } => {
                if self.cl.table(id).is_some() {
                    return Err(self.invalid(format!("ft{id} declared twice")));
                }
                self.cl.tables.push((id, bodies.iter().collect()));
            }
            Payload::Interface {
                id,
                indexed,
                expected_table_length,
                array_length,
                tables,
            } => {
                let end = id
                    .checked_add(array_length)
                    .filter(|&e| e <= MAX_INTERFACE_SLOTS && array_length > 0)
                    .ok_or_else(|| {
                        self.invalid(format!(
                            "fp{id}[{array_length}] is outside Direct3D's \
                             {MAX_INTERFACE_SLOTS} interface slots"
                        ))
                    })?;
                if let Some(other) = self.cl.interfaces.iter().find(|i| {
                    let (a, b) = (i.first, i.first + i.len);
                    id < b && a < end
                }) {
                    return Err(self.invalid(format!(
                        "fp{id}[{array_length}] overlaps fp{}[{}]",
                        other.first, other.len
                    )));
                }
                let tables: Vec<u32> = tables.iter().collect();
                for &t in &tables {
                    let Some(bodies) = self.cl.table(t) else {
                        return Err(self.invalid(format!(
                            "fp{id} lists ft{t}, which is not declared before it"
                        )));
                    };
                    if bodies.len() as u64 != expected_table_length as u64 {
                        return Err(self.invalid(format!(
                            "ft{t} has {} bodies, but fp{id} has {expected_table_length} \
                             call sites",
                            bodies.len()
                        )));
                    }
                }
                self.cl.slot_count = self.cl.slot_count.max(end);
                self.cl.interfaces.push(InterfaceDecl {
                    first: id,
                    len: array_length,
                    call_sites: expected_table_length,
                    dynamic: indexed,
                    tables,
                    at: self.at,
                });
            }
            _ => {}
        }
        Ok(())
    }

    /// Pairs every interface slot with its binding (or the default one), checking the
    /// bindings against the declarations.
    pub(crate) fn resolve_class_linkage(&mut self) -> R<()> {
        let given = self.options.class_linkage;
        if given.len() as u64 > self.cl.slot_count as u64 {
            return Err(self.invalid(format!(
                "{} class linkage bindings given, but the shader has {} interface slots",
                given.len(),
                self.cl.slot_count
            )));
        }
        let mut slots = Vec::with_capacity(self.cl.slot_count as usize);
        for slot in 0..self.cl.slot_count {
            let binding = given.get(slot as usize).copied().unwrap_or_default();
            let Some(iface) = self.cl.interface_of(slot) else {
                // A gap between declarations: no fcall or this[] can name it validly.
                slots.push((None, binding.instance));
                continue;
            };
            let at = iface.at;
            let table = match binding.function_table {
                None => iface.tables.first().copied(),
                Some(t) if iface.tables.contains(&t) => Some(t),
                Some(t) => {
                    let listed: Vec<String> =
                        iface.tables.iter().map(|t| format!("ft{t}")).collect();
                    let (first, len) = (iface.first, iface.len);
                    self.at = at;
                    return Err(self.invalid(format!(
                        "interface slot {slot} is bound to ft{t}, but fp{first}[{len}] only \
                         takes {{{}}}",
                        listed.join(", ")
                    )));
                }
            };
            let i = binding.instance;
            for (what, value, limit) in [
                ("constant buffer", i.constant_buffer, CONSTANT_BUFFER_SLOTS),
                ("texture", i.texture_offset, TEXTURE_SLOTS),
                ("sampler", i.sampler_offset, SAMPLER_SLOTS),
            ] {
                if value >= limit {
                    self.at = at;
                    return Err(self.invalid(format!(
                        "interface slot {slot} is bound to {what} {value}, past Direct3D's \
                         {limit} slots"
                    )));
                }
            }
            slots.push((table, binding.instance));
        }
        self.cl.slots = slots;
        Ok(())
    }

    /// `label fb#`: opens the body's function.
    pub(crate) fn begin_function_body(&mut self, op: &Operand) -> R<()> {
        let fb = self.imm_index(op, 0)? as u32;
        if self.cl.bodies.contains_key(&fb) {
            return Err(self.invalid(format!("fb{fb} defined twice")));
        }
        let f = self.begin_function(&[], &format!("fb{fb}"))?;
        self.cl.bodies.insert(fb, f);
        Ok(())
    }

    /// Points the calls emitted before their body was defined at it.
    pub(crate) fn finish_class_linkage(&mut self) -> R<()> {
        for i in 0..self.cl.pending.len() {
            let (call, fb) = self.cl.pending[i];
            let Some(&f) = self.cl.bodies.get(&fb) else {
                return Err(self.invalid(format!("fcall of fb{fb}, which has no label")));
            };
            self.b.set_operand(call, 0, IrOperand::from_def(f));
        }
        Ok(())
    }

    /// Calls the body the table bound to `slot` lists for `call_site`.
    fn call_body(&mut self, slot: u32, call_site: u32) -> R<()> {
        let Some(&(table, _)) = self.cl.slots.get(slot as usize) else {
            return Err(self.invalid(format!("interface slot {slot} is not declared")));
        };
        let Some(table) = table else {
            return Err(self.invalid(format!(
                "interface slot {slot} has no function table to call"
            )));
        };
        let fb = self
            .cl
            .table(table)
            .and_then(|b| b.get(call_site as usize))
            .copied()
            .ok_or_else(|| self.invalid(format!("ft{table} has no call site {call_site}")))?;
        let (target, pending) = match self.cl.bodies.get(&fb) {
            Some(&f) => (f, false),
            // A placeholder (the current function), patched at the end.
            None => match self.func {
                Some(f) => (f, true),
                None => return Err(self.invalid("fcall outside a function")),
            },
        };
        let call = self.code(Op::new(OpCode::FunctionCall, Type::VOID).with_ref(target));
        if pending {
            self.cl.pending.push((call, fb));
        }
        Ok(())
    }

    /// `fcall fp#[array index][call site]`.
    pub(crate) fn interface_call(&mut self, inst: &Instruction<'_>) -> R<()> {
        let Payload::InterfaceCall {
            function_index: call_site,
        } = inst.payload
        else {
            return Err(self.invalid("fcall without its call site"));
        };
        let op = *self.operand(inst, 0)?;
        if op.ty != crate::operand::OperandType::Interface {
            return Err(self.invalid("fcall target is not an interface (fp#)"));
        }
        let base = u32::try_from(self.imm_index(&op, 0)?)
            .map_err(|_| self.invalid("interface number out of range"))?;
        let Some(iface) = self.cl.interface_of(base) else {
            return Err(self.invalid(format!("fp{base} is not declared")));
        };
        let (first, len, dynamic, call_sites) =
            (iface.first, iface.len, iface.dynamic, iface.call_sites);
        if call_site >= call_sites {
            return Err(self.invalid(format!(
                "call site {call_site} of fp{first}, which has {call_sites}"
            )));
        }
        // Slots from `base` to the end of the array.
        let left = first + len - base;
        let index = match op.indices().get(1) {
            Some(i) => self.index_value(i)?,
            None => Ix::C(0),
        };
        match index {
            Ix::C(k) => {
                if k >= left {
                    return Err(
                        self.invalid(format!("fp{base}[{k}] is past the end of fp{first}[{len}]"))
                    );
                }
                self.call_body(base + k, call_site)
            }
            Ix::D(k) => {
                if !dynamic {
                    return Err(self.invalid(format!(
                        "fp{first} is indexed dynamically but not declared \
                         dcl_interface_dynamicindexed"
                    )));
                }
                let sw = self.code(
                    Op::new(OpCode::ScopedSwitch, Type::VOID)
                        .with_opt_ref(None)
                        .with_ref(k),
                );
                for i in 0..left {
                    self.code(
                        Op::new(OpCode::ScopedSwitchCase, Type::VOID)
                            .with_ref(sw)
                            .with_lit(i as u64),
                    );
                    self.call_body(base + i, call_site)?;
                    self.code(Op::new(OpCode::ScopedSwitchBreak, Type::VOID).with_ref(sw));
                }
                let end = self.code(Op::new(OpCode::ScopedEndSwitch, Type::VOID).with_ref(sw));
                self.b.set_operand(sw, 0, IrOperand::from_def(end));
                Ok(())
            }
        }
    }

    /// Loads components of `this[slot]`: the bound instance's data as constants.
    pub(crate) fn load_this_comps(&mut self, op: &Operand, ty: ScalarType, comps: u8) -> R<Lanes> {
        let slots = self.cl.slot_count;
        let mut out: Lanes = [None; 4];
        match self.operand_index(op, 0)? {
            Ix::C(slot) => {
                let Some(&(_, data)) = self.cl.slots.get(slot as usize) else {
                    return Err(
                        self.invalid(format!("this[{slot}] is past the {slots} interface slots"))
                    );
                };
                let words = data.components();
                for c in lanes(comps) {
                    out[c] = Some(self.imm_constant(ty, words[c]));
                }
            }
            Ix::D(slot) => {
                let array = self.this_array()?;
                for c in lanes(comps) {
                    let addr = self.address(&[Ix::D(slot), Ix::C(c as u32)]);
                    let v = self.code(
                        Op::new(OpCode::ConstantLoad, ScalarType::U32)
                            .with_ref(array)
                            .with_opt_ref(addr),
                    );
                    out[c] = Some(self.coerce(v, ScalarType::U32, ty));
                }
            }
        }
        Ok(out)
    }

    /// The `vec4<u32>[slots]` constant of every slot's `this` data.
    fn this_array(&mut self) -> R<SsaDef> {
        if let Some(a) = self.cl.this_array {
            return Ok(a);
        }
        if self.cl.slots.is_empty() {
            return Err(self.invalid("this[] is read, but the shader declares no interfaces"));
        }
        let lits: Vec<u64> = self
            .cl
            .slots
            .iter()
            .flat_map(|(_, d)| d.components())
            .map(u64::from)
            .collect();
        let ty = Type::vector(ScalarType::U32, 4)
            .array_of(self.cl.slots.len() as u32)
            .map_err(|e| self.invalid(e.to_string()))?;
        let a = self.b.add_constant(ty, &lits);
        self.name(a, "this");
        self.cl.this_array = Some(a);
        Ok(a)
    }
}
