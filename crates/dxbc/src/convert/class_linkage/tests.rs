//! Class linkage: small programs with interfaces, tables and bodies, converted under different
//! bindings. Each test checks which body each call reaches; the full IR texts were checked by
//! hand against the programs (noted at each).

use super::{InstanceData, InterfaceBinding};
use crate::convert::tests::{container_for, has, temps, Rows, PS};
use crate::convert::{convert_with, ConvertError, ConvertOptions};
use crate::opcode::Opcode as O;
use crate::operand::OperandType as T;
use crate::testutil::*;
use crate::Shader;
use dxspv_ir::{validate, Level};

/// `o0.x`, a float render target.
const TARGET: Rows<'static> = &[("SV_Target", 0, 0, 3, 0, 1, 0)];

fn dcl_body(fb: u32) -> Vec<u32> {
    vec![op_token(O::DclFunctionBody, 2, 0), fb]
}

fn dcl_table(ft: u32, bodies: &[u32]) -> Vec<u32> {
    let mut v = vec![
        op_token(O::DclFunctionTable, 3 + bodies.len(), 0),
        ft,
        bodies.len() as u32,
    ];
    v.extend_from_slice(bodies);
    v
}

fn dcl_interface(fp: u32, dynamic: bool, array: u32, call_sites: u32, tables: &[u32]) -> Vec<u32> {
    let mut v = vec![
        op_token(O::DclInterface, 4 + tables.len(), dynamic as u32),
        fp,
        call_sites,
        tables.len() as u32 | (array << 16),
    ];
    v.extend_from_slice(tables);
    v
}

/// `fcall fp#[index][call_site]`.
fn fcall(fp: u32, index: Idx, call_site: u32) -> Vec<u32> {
    let target = operand(T::Interface, Sel::Zero, &[Idx::Imm(fp), index], None);
    let mut v = vec![op_token(O::InterfaceCall, 2 + target.len(), 0), call_site];
    v.extend(target);
    v
}

fn label_fb(fb: u32) -> Vec<u32> {
    inst(
        O::Label,
        0,
        &[],
        &[operand(T::FunctionBody, Sel::Zero, &[Idx::Imm(fb)], None)],
    )
}

fn ret() -> Vec<u32> {
    inst(O::Ret, 0, &[], &[])
}

fn mov(dst: Vec<u32>, src: Vec<u32>) -> Vec<u32> {
    inst(O::Mov, 0, &[], &[dst, src])
}

/// `r#.c` as a relative index.
fn rel(reg: u32, c: u32) -> Vec<u32> {
    operand(T::Temp, Sel::One1(c), &[Idx::Imm(reg)], None)
}

fn r(reg: u32, mask: u32) -> Vec<u32> {
    dst(T::Temp, reg, mask)
}

fn rx(reg: u32) -> Vec<u32> {
    src(T::Temp, reg, [0; 4])
}

fn dcl_output_x() -> Vec<u32> {
    inst(O::DclOutput, 0, &[], &[dst(T::Output, 0, 1)])
}

fn dcl_cb(slot: u32, vectors: u32) -> Vec<u32> {
    inst(
        O::DclConstantBuffer,
        0,
        &[],
        &[operand(
            T::ConstantBuffer,
            Sel::Swz([0, 1, 2, 3]),
            &[Idx::Imm(slot), Idx::Imm(vectors)],
            None,
        )],
    )
}

fn f(v: f32) -> Vec<u32> {
    imm1(v.to_bits())
}

fn binding(table: Option<u32>, instance: InstanceData) -> InterfaceBinding {
    InterfaceBinding {
        function_table: table,
        instance,
    }
}

fn instance(cb: u32, offset: u32, tex: u32, samp: u32) -> InstanceData {
    InstanceData {
        constant_buffer: cb,
        constant_vector_offset: offset,
        texture_offset: tex,
        sampler_offset: samp,
    }
}

/// Converts a pixel shader writing `o0.x` under `bindings`; the IR text, validated.
fn convert(body: &[Vec<u32>], bindings: &[InterfaceBinding]) -> Result<String, ConvertError> {
    let bytes = container_for(PS, 0, body, &[(b"OSGN", TARGET)]);
    let shader = Shader::parse(&bytes).expect("parses");
    let opts = ConvertOptions {
        class_linkage: bindings,
    };
    let b = convert_with(&shader, &opts)?;
    let text = dxspv_ir::text::print(&b);
    if let Err(errs) = validate(&b, Level::Structural) {
        let list: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        panic!("invalid IR:\n{}\n{text}", list.join("\n"));
    }
    Ok(text)
}

#[track_caller]
fn ok(body: &[Vec<u32>], bindings: &[InterfaceBinding]) -> String {
    match convert(body, bindings) {
        Ok(t) => t,
        Err(e) => panic!("conversion failed: {e}"),
    }
}

#[track_caller]
fn refused(body: &[Vec<u32>], bindings: &[InterfaceBinding]) -> String {
    match convert(body, bindings) {
        Ok(t) => panic!("expected an error, got:\n{t}"),
        Err(e) => e.to_string(),
    }
}

/// The functions called, in order, by name.
fn calls(text: &str) -> Vec<String> {
    let names: Vec<(String, String)> = text
        .lines()
        .filter_map(|l| {
            let (id, name) = l.split_once(" = Function void   ; ")?;
            Some((id.to_string(), name.to_string()))
        })
        .collect();
    text.lines()
        .filter_map(|l| l.split_once("= FunctionCall void ").map(|(_, t)| t.trim()))
        .map(|t| {
            names
                .iter()
                .find(|(id, _)| id == t)
                .map_or_else(|| format!("?{t}"), |(_, n)| n.clone())
        })
        .collect()
}

/// Two classes of one interface, one call site: `fb0` is class A's method (writes 1.0), `fb1`
/// class B's (writes 2.0); `fcall fp0[0][0]` then copies the result to `o0.x`.
fn two_classes() -> Vec<Vec<u32>> {
    vec![
        dcl_body(0),
        dcl_body(1),
        dcl_table(0, &[0]),
        dcl_table(1, &[1]),
        dcl_interface(0, false, 1, 1, &[0, 1]),
        dcl_output_x(),
        temps(1),
        fcall(0, Idx::Imm(0), 0),
        mov(dst(T::Output, 0, 1), rx(0)),
        ret(),
        label_fb(0),
        mov(r(0, 1), f(1.0)),
        ret(),
        label_fb(1),
        mov(r(0, 1), f(2.0)),
        ret(),
    ]
}

#[test]
fn static_call_without_bindings_calls_the_first_table() {
    let t = ok(&two_classes(), &[]);
    // Checked by hand: main calls fb0 (ft0, the first table fp0 lists), then reads r0.x into
    // o0.x; fb0 and fb1 are functions of their own writing 1.0 and 2.0 to r0.x. With
    // subroutines, r0.x is a module-scope scratch variable all functions share.
    let expected = "\
%1 = EntryPoint %3 Pixel   ; main
%2 = DebugName %1 \"main\"
%4 = DebugName %3 \"main\"
%6 = DclOutput f32 %1 0 0 0   ; o0_SV_Target0
%7 = DebugName %6 \"o0_SV_Target0\"
%8 = Semantic %6 0 \"SV_Target\"
%10 = DclScratch unknown[1] %1   ; r0.x
%11 = DebugName %10 \"r0.x\"
%12 = Constant u32 0
%19 = DebugName %18 \"fb0\"
%21 = Constant unknown 1065353216
%26 = DebugName %25 \"fb1\"
%28 = Constant unknown 1073741824
%32 = SetFpMode [precise] f32 %1 NearestEven Flush
%3 = Function void   ; main
%5 = Label None
%9 = FunctionCall void %18
%13 = ScratchLoad unknown %10 %12
%14 = ConsumeAs f32 %13
%15 = OutputStore %6 null %14
%16 = Return void null
%17 = FunctionEnd
%18 = Function void   ; fb0
%20 = Label None
%22 = ScratchStore %10 %12 %21
%23 = Return void null
%24 = FunctionEnd
%25 = Function void   ; fb1
%27 = Label None
%29 = ScratchStore %10 %12 %28
%30 = Return void null
%31 = FunctionEnd
";
    assert_eq!(t, expected);
}

#[test]
fn static_call_follows_the_bound_table() {
    let t = ok(&two_classes(), &[binding(Some(1), InstanceData::default())]);
    assert_eq!(calls(&t), ["fb1"]);
    let t = ok(&two_classes(), &[binding(Some(0), InstanceData::default())]);
    assert_eq!(calls(&t), ["fb0"]);
    let t = ok(&two_classes(), &[binding(None, InstanceData::default())]);
    assert_eq!(calls(&t), ["fb0"]);
}

/// An array of two interface slots with two call sites; `fp0[1]` is called at both sites.
fn array_program(index: Idx, dynamic: bool) -> Vec<Vec<u32>> {
    vec![
        dcl_body(0),
        dcl_body(1),
        dcl_body(2),
        dcl_body(3),
        // Class A: site 0 → fb0, site 1 → fb1; class B: site 0 → fb2, site 1 → fb3.
        dcl_table(0, &[0, 1]),
        dcl_table(1, &[2, 3]),
        dcl_interface(0, dynamic, 2, 2, &[0, 1]),
        dcl_cb(0, 1),
        dcl_output_x(),
        temps(2),
        // r1.x = cb0[0].x: the array index of the dynamic form.
        mov(
            r(1, 1),
            operand(
                T::ConstantBuffer,
                Sel::Swz([0; 4]),
                &[Idx::Imm(0), Idx::Imm(0)],
                None,
            ),
        ),
        fcall(0, index.clone(), 1),
        fcall(0, index, 0),
        mov(dst(T::Output, 0, 1), rx(0)),
        ret(),
        label_fb(0),
        mov(r(0, 1), f(1.0)),
        ret(),
        label_fb(1),
        mov(r(0, 1), f(2.0)),
        ret(),
        label_fb(2),
        mov(r(0, 1), f(3.0)),
        ret(),
        label_fb(3),
        mov(r(0, 1), f(4.0)),
        ret(),
    ]
}

#[test]
fn array_element_takes_its_own_slots_binding() {
    let prog = array_program(Idx::Imm(1), false);
    // Slot 0 is class B, slot 1 class A: fp0[1] calls class A's bodies, site 1 then site 0.
    let bindings = [
        binding(Some(1), InstanceData::default()),
        binding(Some(0), InstanceData::default()),
    ];
    assert_eq!(calls(&ok(&prog, &bindings)), ["fb1", "fb0"]);
    // Slot 1 past the bindings: its first table (class A) as well.
    assert_eq!(calls(&ok(&prog, &bindings[..1])), ["fb1", "fb0"]);
    // Slot 1 bound to class B.
    let bindings = [
        InterfaceBinding::default(),
        binding(Some(1), InstanceData::default()),
    ];
    assert_eq!(calls(&ok(&prog, &bindings)), ["fb3", "fb2"]);
}

#[test]
fn dynamic_index_switches_over_the_array() {
    let prog = array_program(Idx::Rel(rel(1, 0)), true);
    let bindings = [
        binding(Some(1), InstanceData::default()),
        binding(Some(0), InstanceData::default()),
    ];
    let t = ok(&prog, &bindings);
    // Per call a switch on r1.x: case 0 is slot 0 (class B), case 1 slot 1 (class A).
    assert_eq!(calls(&t), ["fb3", "fb1", "fb2", "fb0"]);
    // Checked by hand: r1.x = cb0[0].x; a switch on it for site 1 (case 0: fb3, case 1: fb1)
    // and one for site 0 (fb2, fb0), each case breaking; then o0.x = r0.x.
    let expected = "\
%1 = EntryPoint %3 Pixel   ; main
%2 = DebugName %1 \"main\"
%4 = DebugName %3 \"main\"
%6 = DclCbv vec4<f32>[1] %1 0 0 1   ; cb0
%7 = DebugName %6 \"cb0\"
%8 = DclOutput f32 %1 0 0 0   ; o0_SV_Target0
%9 = DebugName %8 \"o0_SV_Target0\"
%10 = Semantic %8 0 \"SV_Target\"
%11 = Constant u32 0
%13 = Constant vec2<u32> 0 0
%15 = DclScratch unknown[1] %1   ; r1.x
%16 = DebugName %15 \"r1.x\"
%38 = DclScratch unknown[1] %1   ; r0.x
%39 = DebugName %38 \"r0.x\"
%46 = DebugName %45 \"fb0\"
%48 = Constant unknown 1065353216
%53 = DebugName %52 \"fb1\"
%55 = Constant unknown 1073741824
%60 = DebugName %59 \"fb2\"
%62 = Constant unknown 1077936128
%67 = DebugName %66 \"fb3\"
%69 = Constant unknown 1082130432
%73 = SetFpMode [precise] f32 %1 NearestEven Flush
%3 = Function void   ; main
%5 = Label None
%12 = DescriptorLoad cbv %6 %11
%14 = BufferLoad f32 %12 %13 4
%17 = ScratchStore %15 %11 %14
%18 = ScratchLoad unknown %15 %11
%19 = ConsumeAs u32 %18
%20 = ScopedSwitch %27 %19
%21 = ScopedSwitchCase %20 0
%22 = FunctionCall void %66
%23 = ScopedSwitchBreak %20
%24 = ScopedSwitchCase %20 1
%25 = FunctionCall void %52
%26 = ScopedSwitchBreak %20
%27 = ScopedEndSwitch %20
%28 = ScratchLoad unknown %15 %11
%29 = ConsumeAs u32 %28
%30 = ScopedSwitch %37 %29
%31 = ScopedSwitchCase %30 0
%32 = FunctionCall void %59
%33 = ScopedSwitchBreak %30
%34 = ScopedSwitchCase %30 1
%35 = FunctionCall void %45
%36 = ScopedSwitchBreak %30
%37 = ScopedEndSwitch %30
%40 = ScratchLoad unknown %38 %11
%41 = ConsumeAs f32 %40
%42 = OutputStore %8 null %41
%43 = Return void null
%44 = FunctionEnd
%45 = Function void   ; fb0
%47 = Label None
%49 = ScratchStore %38 %11 %48
%50 = Return void null
%51 = FunctionEnd
%52 = Function void   ; fb1
%54 = Label None
%56 = ScratchStore %38 %11 %55
%57 = Return void null
%58 = FunctionEnd
%59 = Function void   ; fb2
%61 = Label None
%63 = ScratchStore %38 %11 %62
%64 = Return void null
%65 = FunctionEnd
%66 = Function void   ; fb3
%68 = Label None
%70 = ScratchStore %38 %11 %69
%71 = Return void null
%72 = FunctionEnd
";
    assert_eq!(t, expected);
}

/// `mov r0, this[slot]`, `mov o0.x, r0.<c>` in a shader with two interface slots.
fn this_program(slot: Idx, c: u32) -> Vec<Vec<u32>> {
    vec![
        dcl_table(0, &[]),
        dcl_interface(0, true, 2, 0, &[0]),
        dcl_cb(0, 1),
        dcl_output_x(),
        temps(2),
        mov(
            r(1, 1),
            operand(
                T::ConstantBuffer,
                Sel::Swz([0; 4]),
                &[Idx::Imm(0), Idx::Imm(0)],
                None,
            ),
        ),
        mov(
            r(0, 0xf),
            operand(T::ThisPointer, Sel::Swz([0, 1, 2, 3]), &[slot], None),
        ),
        mov(dst(T::Output, 0, 1), src(T::Temp, 0, [c; 4])),
        ret(),
    ]
}

#[test]
fn this_reads_the_bound_instance_data() {
    let bindings = [
        binding(None, instance(1, 2, 3, 4)),
        binding(None, instance(5, 6, 7, 8)),
    ];
    let t = ok(&this_program(Idx::Imm(1), 2), &bindings);
    // this[1] is slot 1's data: the constants 5, 6, 7, 8 stored to r0.x..w.
    has(
        &t,
        &[
            "= Constant unknown 5",
            "= Constant unknown 6",
            "= Constant unknown 7",
            "= Constant unknown 8",
        ],
    );
    assert!(!t.contains("Constant unknown 3\n"), "{t}");
    // Without bindings: zeros.
    let t = ok(&this_program(Idx::Imm(0), 0), &[]);
    has(&t, &["= Constant unknown 0"]);
    assert!(!t.contains("ConstantLoad"), "{t}");
}

#[test]
fn this_with_a_dynamic_slot_reads_a_constant_array() {
    let bindings = [
        binding(None, instance(1, 2, 3, 4)),
        binding(None, instance(5, 6, 7, 8)),
    ];
    let t = ok(&this_program(Idx::Rel(rel(1, 0)), 1), &bindings);
    // Checked by hand: every slot's data in slot order, indexed by (r1.x, component).
    has(
        &t,
        &[
            "= Constant vec4<u32>[2] 1 2 3 4 5 6 7 8   ; this",
            "= ConstantLoad u32 # #",
        ],
    );
}

/// `mov r0.xy, this[0].xy`, `mov o0.x, cb[r0.x + 0][r0.y + 1].z`: a class instance member.
fn member_program(declared: &[u32]) -> Vec<Vec<u32>> {
    let mut v = vec![dcl_table(0, &[]), dcl_interface(0, false, 1, 0, &[0])];
    v.extend(declared.iter().map(|&s| dcl_cb(s, 2)));
    v.extend([
        dcl_output_x(),
        temps(1),
        mov(
            r(0, 3),
            operand(T::ThisPointer, Sel::Swz([0, 1, 2, 3]), &[Idx::Imm(0)], None),
        ),
        mov(
            dst(T::Output, 0, 1),
            operand(
                T::ConstantBuffer,
                Sel::Swz([2; 4]),
                &[Idx::Rel(rel(0, 0)), Idx::ImmRel(1, rel(0, 1))],
                None,
            ),
        ),
        ret(),
    ]);
    v
}

#[test]
fn member_read_switches_over_the_candidate_buffers() {
    // cb0 and cb2 declared, the instance in cb5 (declared here at 4096 vectors).
    let t = ok(
        &member_program(&[0, 2]),
        &[binding(None, instance(5, 3, 0, 0))],
    );
    // Checked by hand: r0.xy = this[0].xy = (5, 3), read as values in the straight-line code
    // and stored where it ends (at the switch); a zeroed temporary; a switch on r0.x with
    // cases 0, 2 and 5, each loading component z of row r0.y + 1 of its buffer into it; o0.x
    // reads it.
    let expected = "\
%1 = EntryPoint %3 Pixel   ; main
%2 = DebugName %1 \"main\"
%4 = DebugName %3 \"main\"
%6 = DclCbv vec4<f32>[2] %1 0 0 1   ; cb0
%7 = DebugName %6 \"cb0\"
%8 = DclCbv vec4<f32>[2] %1 0 2 1   ; cb2
%9 = DebugName %8 \"cb2\"
%10 = DclOutput f32 %1 0 0 0   ; o0_SV_Target0
%11 = DebugName %10 \"o0_SV_Target0\"
%12 = Semantic %10 0 \"SV_Target\"
%13 = Constant unknown 5
%14 = Constant unknown 3
%17 = Constant u32 1
%19 = Constant unknown 0
%20 = DclTmp unknown %1
%22 = DclTmp unknown %1   ; r0.x
%23 = DebugName %22 \"r0.x\"
%25 = DclTmp unknown %1   ; r0.y
%26 = DebugName %25 \"r0.y\"
%30 = Constant u32 0
%32 = Constant u32 2
%43 = DclCbv vec4<f32>[4096] %1 0 5 1   ; cb5
%44 = DebugName %43 \"cb5\"
%57 = SetFpMode [precise] f32 %1 NearestEven Flush
%3 = Function void   ; main
%5 = Label None
%15 = ConsumeAs u32 %13
%16 = ConsumeAs u32 %14
%18 = IAdd u32 %16 %17
%21 = TmpStore %20 %19
%24 = TmpStore %22 %13
%27 = TmpStore %25 %14
%28 = ScopedSwitch %51 %15
%29 = ScopedSwitchCase %28 0
%31 = DescriptorLoad cbv %6 %30
%33 = CompositeConstruct vec2<u32> %18 %32
%34 = BufferLoad f32 %31 %33 4
%35 = TmpStore %20 %34
%36 = ScopedSwitchBreak %28
%37 = ScopedSwitchCase %28 2
%38 = DescriptorLoad cbv %8 %30
%39 = CompositeConstruct vec2<u32> %18 %32
%40 = BufferLoad f32 %38 %39 4
%41 = TmpStore %20 %40
%42 = ScopedSwitchBreak %28
%45 = ScopedSwitchCase %28 5
%46 = DescriptorLoad cbv %43 %30
%47 = CompositeConstruct vec2<u32> %18 %32
%48 = BufferLoad f32 %46 %47 4
%49 = TmpStore %20 %48
%50 = ScopedSwitchBreak %28
%51 = ScopedEndSwitch %28
%52 = TmpLoad unknown %20
%53 = ConsumeAs f32 %52
%54 = OutputStore %10 null %53
%55 = Return void null
%56 = FunctionEnd
";
    assert_eq!(t, expected);
    // The instance in a declared buffer: no extra declaration.
    let t = ok(
        &member_program(&[0, 2]),
        &[binding(None, instance(2, 0, 0, 0))],
    );
    assert!(!t.contains("[4096]"), "{t}");
    assert_eq!(t.matches("ScopedSwitchCase").count(), 2, "{t}");
}

#[test]
fn bad_bindings_are_refused() {
    // A table the interface does not list.
    let e = refused(&two_classes(), &[binding(Some(7), InstanceData::default())]);
    assert!(
        e.contains("interface slot 0 is bound to ft7, but fp0[1] only takes {ft0, ft1}"),
        "{e}"
    );
    // More bindings than slots.
    let two = [InterfaceBinding::default(); 2];
    let e = refused(&two_classes(), &two);
    assert!(
        e.contains("2 class linkage bindings given, but the shader has 1 interface slots"),
        "{e}"
    );
    // A constant buffer slot Direct3D does not have.
    let e = refused(&two_classes(), &[binding(None, instance(14, 0, 0, 0))]);
    assert!(
        e.contains("constant buffer 14, past Direct3D's 14 slots"),
        "{e}"
    );
}

#[test]
fn malformed_class_linkage_is_refused() {
    // A dynamic index into an interface not declared dynamically indexed.
    let e = refused(&array_program(Idx::Rel(rel(1, 0)), false), &[]);
    assert!(
        e.contains("not declared dcl_interface_dynamicindexed"),
        "{e}"
    );
    // A static index past the array.
    let e = refused(&array_program(Idx::Imm(2), false), &[]);
    assert!(e.contains("fp0[2] is past the end of fp0[2]"), "{e}");
    // A call to a body that is never defined.
    let mut p = two_classes();
    p.truncate(10);
    let e = refused(&p, &[]);
    assert!(e.contains("fcall of fb0, which has no label"), "{e}");
    // A body defined twice.
    let mut p = two_classes();
    p.extend([label_fb(1), ret()]);
    let e = refused(&p, &[]);
    assert!(e.contains("fb1 defined twice"), "{e}");
    // A table whose length differs from the interface's call sites.
    let mut p = two_classes();
    p[3] = dcl_table(1, &[1, 0]);
    let e = refused(&p, &[]);
    assert!(
        e.contains("ft1 has 2 bodies, but fp0 has 1 call sites"),
        "{e}"
    );
    // An interface listing an undeclared table.
    let mut p = two_classes();
    p[4] = dcl_interface(0, false, 1, 1, &[0, 9]);
    let e = refused(&p, &[]);
    assert!(
        e.contains("fp0 lists ft9, which is not declared before it"),
        "{e}"
    );
    // Overlapping interfaces.
    let mut p = two_classes();
    p.insert(5, dcl_interface(0, false, 1, 1, &[1]));
    let e = refused(&p, &[]);
    assert!(e.contains("fp0[1] overlaps fp0[1]"), "{e}");
    // this[] past the slots.
    let e = refused(&this_program(Idx::Imm(2), 0), &[]);
    assert!(e.contains("this[2] is past the 2 interface slots"), "{e}");
}

/// A body sampling the instance's second texture with its first sampler:
/// `mov r1.xy, this[0].zw`,
/// `sample_indexable(texture2d)(float,float,float,float) r0.x, l(0.5, 0.5, 0, 0),
/// t[r1.x + 1].xyzw, s[r1.y + 0]`; main copies r0.x to o0.x.
fn texture_program(with_tokens: bool) -> Vec<Vec<u32>> {
    // Extended opcode tokens: resource dimension texture2d (3), return type float (5) x4.
    let ext: &[u32] = if with_tokens {
        &[2 | (3 << 6), 3 | (0x5555 << 6)]
    } else {
        &[]
    };
    vec![
        dcl_body(0),
        dcl_table(0, &[0]),
        dcl_interface(0, false, 1, 1, &[0]),
        dcl_output_x(),
        temps(2),
        fcall(0, Idx::Imm(0), 0),
        mov(dst(T::Output, 0, 1), rx(0)),
        ret(),
        label_fb(0),
        mov(
            r(1, 3),
            operand(T::ThisPointer, Sel::Swz([2, 3, 2, 3]), &[Idx::Imm(0)], None),
        ),
        inst(
            O::Sample,
            0,
            ext,
            &[
                r(0, 1),
                imm4([0.5f32.to_bits(), 0.5f32.to_bits(), 0, 0]),
                operand(
                    T::Resource,
                    Sel::Swz([0, 1, 2, 3]),
                    &[Idx::ImmRel(1, rel(1, 0))],
                    None,
                ),
                operand(T::Sampler, Sel::Zero, &[Idx::Rel(rel(1, 1))], None),
            ],
        ),
        ret(),
    ]
}

#[test]
fn instance_textures_and_samplers_switch_over_the_bound_registers() {
    let t = ok(
        &texture_program(true),
        &[binding(None, instance(0, 0, 3, 2))],
    );
    // Checked by hand: t4 (base 3 + 1) declared as a float 2D image and s2 as a sampler; in
    // fb0 a switch on r1.x with case 4 holding a switch on r1.y with case 2 that samples t4
    // with s2 into r0.x; both defaults store zero to r0.x. The texture switch is on
    // r1.x + 1 (this.z + 1), the sampler switch on r1.y (this.w).
    let expected = "\
%1 = EntryPoint %3 Pixel   ; main
%2 = DebugName %1 \"main\"
%4 = DebugName %3 \"main\"
%6 = DclOutput f32 %1 0 0 0   ; o0_SV_Target0
%7 = DebugName %6 \"o0_SV_Target0\"
%8 = Semantic %6 0 \"SV_Target\"
%10 = DclScratch unknown[1] %1   ; r0.x
%11 = DebugName %10 \"r0.x\"
%12 = Constant u32 0
%19 = DebugName %18 \"fb0\"
%21 = Constant unknown 3
%22 = Constant unknown 2
%23 = DclScratch unknown[1] %1   ; r1.x
%24 = DebugName %23 \"r1.x\"
%26 = DclScratch unknown[1] %1   ; r1.y
%27 = DebugName %26 \"r1.y\"
%31 = Constant u32 1
%33 = DclSrv f32 %1 0 4 1 Image2D   ; t4
%34 = DebugName %33 \"t4\"
%37 = DclSampler %1 0 2 1   ; s2
%38 = DebugName %37 \"s2\"
%45 = Constant f32 0.5
%62 = SetFpMode [precise] f32 %1 NearestEven Flush
%3 = Function void   ; main
%5 = Label None
%9 = FunctionCall void %18
%13 = ScratchLoad unknown %10 %12
%14 = ConsumeAs f32 %13
%15 = OutputStore %6 null %14
%16 = Return void null
%17 = FunctionEnd
%18 = Function void   ; fb0
%20 = Label None
%25 = ScratchStore %23 %12 %21
%28 = ScratchStore %26 %12 %22
%29 = ScratchLoad unknown %23 %12
%30 = ConsumeAs u32 %29
%32 = IAdd u32 %30 %31
%35 = ScratchLoad unknown %26 %12
%36 = ConsumeAs u32 %35
%39 = ScopedSwitch %59 %32
%40 = ScopedSwitchCase %39 4
%41 = ScopedSwitch %54 %36
%42 = ScopedSwitchCase %41 2
%43 = DescriptorLoad srv %33 %12
%44 = DescriptorLoad sampler %37 %12
%46 = CompositeConstruct vec2<f32> %45 %45
%47 = ImageSample vec4<f32> %43 %44 null %46 null null null null null null null
%48 = CompositeExtract f32 %47 %12
%49 = ScratchStore %10 %12 %48
%50 = ScopedSwitchBreak %41
%51 = ScopedSwitchDefault %41
%52 = ScratchStore %10 %12 %12
%53 = ScopedSwitchBreak %41
%54 = ScopedEndSwitch %41
%55 = ScopedSwitchBreak %39
%56 = ScopedSwitchDefault %39
%57 = ScratchStore %10 %12 %12
%58 = ScopedSwitchBreak %39
%59 = ScopedEndSwitch %39
%60 = Return void null
%61 = FunctionEnd
";
    assert_eq!(t, expected);
}

#[test]
fn instance_textures_need_their_resource_tokens() {
    let e = refused(&texture_program(false), &[]);
    assert!(
        e.contains("class instance texture without a resource dimension token"),
        "{e}"
    );
    let e = refused(
        &texture_program(true),
        &[binding(None, instance(0, 0, 128, 0))],
    );
    assert!(
        e.contains("bound to texture 128, past Direct3D's 128 slots"),
        "{e}"
    );
}
