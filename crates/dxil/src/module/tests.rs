//! Module reader tests on bitcode written here: the instructions, constants and metadata
//! forms the corpus lacks (switch, vector ops, insertvalue, fneg, fdiv, forward references,
//! atomics, exception handling, …) and malformed modules. Each expected listing is what
//! `llvm-dis-14` prints for the same bitcode (set `DXSPV_DXIL_DUMP` to a folder to get the
//! `.bc` files back).

use crate::disasm::module_to_string;
use crate::error::Error;
use crate::module::*;
use crate::testing::{blk, module, r, rs, Item};

const TYPE: u32 = 17;
const CONSTANTS: u32 = 11;
const FUNCTION: u32 = 12;
const SYMTAB: u32 = 14;
const METADATA: u32 = 15;
const ATTACHMENT: u32 = 16;

/// A `FUNCTION` record for a function of type `ty` (a definition unless `proto`).
fn function(ty: u64, proto: bool) -> Item {
    r(8, &[ty, 0, u64::from(proto), 0, 0, 0, 0, 0, 0, 0])
}

/// Module symbol table naming module values.
fn names(entries: &[(u64, &str)]) -> Item {
    blk(
        SYMTAB,
        entries.iter().map(|&(id, n)| rs(1, &[id], n)).collect(),
    )
}

fn read(name: &str, items: Vec<Item>) -> Result<Module, Error> {
    let bytes = module(items);
    crate::testing::dump(name, &bytes);
    Module::read(&bytes)
}

/// The listing from the first `define` on.
fn listing(m: &Module) -> String {
    let text = module_to_string(m);
    match text.find("define ") {
        Some(i) => text[i..].to_string(),
        None => text,
    }
}

/// Signed VBR encoding of a relative phi operand.
fn signed(v: i64) -> u64 {
    if v >= 0 {
        (v as u64) << 1
    } else {
        ((-v) as u64) << 1 | 1
    }
}

#[test]
fn switch_vector_ops_fdiv_fneg_and_phi() {
    let m = read(
        "switch_vector",
        vec![
            blk(
                TYPE,
                vec![
                    r(1, &[8]),
                    r(7, &[32]),          // 0 i32
                    r(2, &[]),            // 1 void
                    r(3, &[]),            // 2 float
                    r(12, &[4, 2]),       // 3 <4 x float>
                    r(21, &[0, 3, 0, 2]), // 4 <4 x float> (i32, float)
                    r(12, &[4, 0]),       // 5 <4 x i32>
                    r(8, &[4, 0]),        // 6 fn*
                    r(5, &[]),            // 7 label
                ],
            ),
            function(4, false),
            names(&[(0, "f")]),
            blk(
                FUNCTION,
                vec![
                    r(1, &[4]),
                    blk(
                        CONSTANTS,
                        vec![
                            r(1, &[0]),
                            r(4, &[0]), // 3: i32 0
                            r(4, &[2]), // 4: i32 1
                            r(1, &[2]),
                            r(6, &[0x8000_0000]), // 5: float -0.0
                            r(1, &[3]),
                            r(3, &[]), // 6: <4 x float> undef
                            r(1, &[5]),
                            r(7, &[3, 4, 3, 4]), // 7: <4 x i32> <0, 1, 0, 1>
                        ],
                    ),
                    r(7, &[2, 6, 5]), // %8 = insertelement undef, %1, 0
                    r(8, &[1, 3, 2]), // %9 = shufflevector %8, undef, mask
                    r(6, &[1, 6]),    // %10 = extractelement %9, 1
                    r(12, &[0, 10, 3, 3, 1, 4, 2]), // switch %0
                    r(2, &[1, 9, 4, 1]), // %11 = fdiv fast %10, %1
                    r(11, &[3]),
                    r(2, &[7, 2, 1]), // %12 = fsub -0.0, %10
                    r(11, &[3]),
                    r(16, &[2, signed(2), 1, signed(1), 2, signed(3), 0]), // %13 = phi
                    r(7, &[5, 1, 10]), // %14 = insertelement %9, %13, 1
                    r(10, &[1]),
                ],
            ),
        ],
    )
    .expect("reads");
    assert_eq!(listing(&m), SWITCH_VECTOR);
    // The API view of the same body.
    let (f, body) = m.definitions().next().expect("a definition");
    assert_eq!(m.str(f.name), b"f");
    assert_eq!(body.blocks.len(), 4);
    assert_eq!(body.argument_count, 2);
    let Op::Switch {
        value,
        default,
        cases,
    } = body.instructions[3].op
    else {
        panic!("not a switch")
    };
    assert_eq!((value, default), (ValueId(1), BlockId(3)));
    let cases: Vec<_> = body.switch_cases(cases).collect();
    assert_eq!(
        cases,
        vec![(ValueId(3), BlockId(1)), (ValueId(4), BlockId(2))]
    );
    assert_eq!(m.constant_int(Some(body), ValueId(4)), Some(1));
    let Op::Phi { incoming } = body.instructions[8].op else {
        panic!("not a phi")
    };
    let incoming: Vec<_> = body.phi_incoming(incoming).collect();
    assert_eq!(
        incoming,
        vec![
            (ValueId(11), BlockId(1)),
            (ValueId(12), BlockId(2)),
            (ValueId(10), BlockId(0))
        ]
    );
    assert!(matches!(
        body.instructions[4].op,
        Op::Binary {
            op: BinaryOp::FDiv,
            flags: 1,
            ..
        }
    ));
    assert_eq!(
        body.successors(BlockId(0)),
        vec![BlockId(3), BlockId(1), BlockId(2)]
    );
}

const SWITCH_VECTOR: &str = "define <4 x float> @f(i32 %0, float %1) {
  %3 = insertelement <4 x float> undef, float %1, i32 0
  %4 = shufflevector <4 x float> %3, <4 x float> undef, <4 x i32> <i32 0, i32 1, i32 0, i32 1>
  %5 = extractelement <4 x float> %4, i32 1
  switch i32 %0, label %10 [
    i32 0, label %6
    i32 1, label %8
  ]

6:                                                ; preds = %2
  %7 = fdiv fast float %5, %1
  br label %10

8:                                                ; preds = %2
  %9 = fsub float -0.000000e+00, %5
  br label %10

10:                                               ; preds = %8, %6, %2
  %11 = phi float [ %7, %6 ], [ %9, %8 ], [ %5, %2 ]
  %12 = insertelement <4 x float> %4, float %11, i32 1
  ret <4 x float> %12
}
";

#[test]
fn forward_references_in_phis_and_in_blocks_laid_out_early() {
    let m = read(
        "forward",
        vec![
            blk(
                TYPE,
                vec![
                    r(1, &[4]),
                    r(7, &[32]),       // 0 i32
                    r(7, &[1]),        // 1 i1
                    r(21, &[0, 0, 0]), // 2 i32 (i32)
                    r(8, &[2, 0]),     // 3
                ],
            ),
            function(2, false),
            names(&[(0, "g")]),
            blk(
                FUNCTION,
                vec![
                    r(1, &[4]),
                    blk(CONSTANTS, vec![r(1, &[0]), r(4, &[0]), r(4, &[2])]),
                    r(11, &[1]),
                    // %4 = phi [0, bb0], [%5, bb1]: %5 is defined after the phi.
                    r(16, &[0, signed(2), 0, signed(-1), 1]),
                    r(2, &[1, 2, 0]),   // %5 = add %4, 1
                    r(28, &[1, 5, 36]), // %6 = icmp ult %5, %0
                    r(11, &[1, 3, 1]),  // br %6, bb1, bb3
                    // bb2 uses %8, defined in bb3: the operand wraps and carries its type.
                    r(2, &[0xFFFF_FFFF, 0, 4, 0]), // %7 = add %8, 1
                    r(10, &[1]),
                    r(2, &[3, 3, 2]), // %8 = mul %5, %5
                    r(11, &[2]),
                ],
            ),
        ],
    )
    .expect("reads");
    assert_eq!(listing(&m), FORWARD);
}

const FORWARD: &str = "define i32 @g(i32 %0) {
  br label %2

2:                                                ; preds = %2, %1
  %3 = phi i32 [ 0, %1 ], [ %4, %2 ]
  %4 = add i32 %3, 1
  %5 = icmp ult i32 %4, %0
  br i1 %5, label %2, label %8

6:                                                ; preds = %8
  %7 = add i32 %9, 1
  ret i32 %7

8:                                                ; preds = %2
  %9 = mul i32 %4, %4
  br label %6
}
";

#[test]
fn memory_atomics_aggregates_and_casts() {
    let m = read(
        "memory",
        vec![
            blk(
                TYPE,
                vec![
                    r(1, &[14]),
                    r(7, &[32]),          // 0 i32
                    r(3, &[]),            // 1 float
                    r(18, &[0, 0, 1]),    // 2 { i32, float }
                    r(8, &[2, 0]),        // 3 { i32, float }*
                    r(7, &[1]),           // 4 i1
                    r(18, &[0, 0, 4]),    // 5 { i32, i1 }
                    r(2, &[]),            // 6 void
                    r(8, &[0, 0]),        // 7 i32*
                    r(8, &[0, 3]),        // 8 i32 addrspace(3)*
                    r(21, &[0, 6, 8, 1]), // 9 void (i32 addrspace(3)*, float)
                    r(11, &[4, 1]),       // 10 [4 x float]
                    r(8, &[10, 0]),       // 11 [4 x float]*
                    r(8, &[1, 0]),        // 12 float*
                    r(8, &[9, 0]),        // 13 function pointer
                ],
            ),
            function(9, false),
            names(&[(0, "m")]),
            blk(
                FUNCTION,
                vec![
                    r(1, &[1]),
                    blk(
                        CONSTANTS,
                        vec![
                            r(1, &[0]),
                            r(4, &[0]), // 3: i32 0
                            r(4, &[2]), // 4: i32 1
                            r(4, &[4]), // 5: i32 2
                            r(1, &[2]),
                            r(3, &[]), // 6: { i32, float } undef
                            r(1, &[4]),
                            r(4, &[3]), // 7: i1 true
                        ],
                    ),
                    r(19, &[10, 0, 4, 3 | 64]), // %8 = alloca [4 x float], align 4
                    r(43, &[1, 10, 1, 6, 4]),   // %9 = gep inbounds %8, 0, 2
                    r(44, &[1, 8, 3, 0]),       // store %1, %9
                    r(20, &[1, 1, 3, 0]),       // %10 = load float, %9
                    r(27, &[5, 7, 0]),          // %11 = insertvalue undef, 1, 0
                    r(27, &[1, 2, 1]),          // %12 = insertvalue %11, %10, 1
                    r(26, &[1, 1]),             // %13 = extractvalue %12, 1
                    r(38, &[13, 10, 1, 0, 6, 1]), // %14 = atomicrmw add %0, 1
                    r(46, &[14, 1, 10, 0, 6, 1, 6, 0]), // %15 = cmpxchg %0, %14, 2
                    r(26, &[1, 0]),             // %16 = extractvalue %15, 0
                    r(36, &[3, 1]),             // fence acquire
                    r(29, &[4, 7, 10]),         // %17 = select true, %13, %10
                    r(28, &[1, 16, 4, 1]),      // %18 = fcmp fast olt %17, %1
                    r(3, &[2, 0, 11]),          // %19 = bitcast %17 to i32
                    r(3, &[2, 0, 1]),           // %20 = zext %18 to i32
                    r(2, &[2, 1, 0, 3]),        // %21 = add nuw nsw %19, %20
                    r(2, &[1, 6, 3, 1]),        // %22 = udiv exact %21, %16
                    r(45, &[22, 1, 3, 0, 4, 1]), // store atomic %22, %0 release
                    r(41, &[22, 3, 0, 3, 0]),   // %23 = load atomic %0 singlethread acquire
                    r(15, &[]),
                ],
            ),
        ],
    )
    .expect("reads");
    assert_eq!(listing(&m), MEMORY);
    let (_, body) = m.definitions().next().expect("a definition");
    let cmpxchg = body.instructions[8];
    assert!(matches!(
        cmpxchg.op,
        Op::CmpXchg {
            success: AtomicOrdering::SequentiallyConsistent,
            weak: false,
            ..
        }
    ));
    assert_eq!(m.types.struct_elements(cmpxchg.ty).map(<[_]>::len), Some(2));
    let Op::Load {
        atomic: Some(a), ..
    } = body.instructions[18].op
    else {
        panic!("not an atomic load")
    };
    assert_eq!(
        (a.ordering, a.scope),
        (AtomicOrdering::Acquire, SyncScope::SingleThread)
    );
}

const MEMORY: &str = "define void @m(i32 addrspace(3)* %0, float %1) {
  %3 = alloca [4 x float], align 4
  %4 = getelementptr inbounds [4 x float], [4 x float]* %3, i32 0, i32 2
  store float %1, float* %4, align 4
  %5 = load float, float* %4, align 4
  %6 = insertvalue { i32, float } undef, i32 1, 0
  %7 = insertvalue { i32, float } %6, float %5, 1
  %8 = extractvalue { i32, float } %7, 1
  %9 = atomicrmw add i32 addrspace(3)* %0, i32 1 seq_cst, align 4
  %10 = cmpxchg i32 addrspace(3)* %0, i32 %9, i32 2 seq_cst seq_cst, align 4
  %11 = extractvalue { i32, i1 } %10, 0
  fence acquire
  %12 = select i1 true, float %8, float %5
  %13 = fcmp fast olt float %12, %1
  %14 = bitcast float %12 to i32
  %15 = zext i1 %13 to i32
  %16 = add nuw nsw i32 %14, %15
  %17 = udiv exact i32 %16, %11
  store atomic i32 %17, i32 addrspace(3)* %0 release, align 4
  %18 = load atomic i32, i32 addrspace(3)* %0 syncscope(\"singlethread\") acquire, align 4
  unreachable
}
";

#[test]
fn exception_handling_indirect_branches_varargs() {
    let m = read(
        "eh",
        vec![
            blk(
                TYPE,
                vec![
                    r(1, &[13]),
                    r(2, &[]),         // 0 void
                    r(7, &[32]),       // 1 i32
                    r(7, &[8]),        // 2 i8
                    r(8, &[2, 0]),     // 3 i8*
                    r(18, &[0, 3, 1]), // 4 { i8*, i32 }
                    r(21, &[1, 1]),    // 5 i32 (...)
                    r(21, &[0, 0]),    // 6 void ()
                    r(8, &[5, 0]),     // 7
                    r(8, &[6, 0]),     // 8
                    r(5, &[]),         // 9 label
                    r(8, &[3, 0]),     // 10 i8**
                    r(21, &[0, 0, 3]), // 11 void (i8*)
                    r(8, &[11, 0]),    // 12
                ],
            ),
            function(5, true),
            function(6, true),
            r(8, &[11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]), // @h, personality @personality
            names(&[(0, "personality"), (1, "callee"), (2, "h")]),
            blk(
                FUNCTION,
                vec![
                    r(1, &[5]),
                    blk(
                        CONSTANTS,
                        vec![
                            r(1, &[1]),
                            r(4, &[2]), // 4: i32 1
                            r(1, &[3]),
                            r(2, &[]),          // 5: i8* null
                            r(21, &[12, 2, 3]), // 6: blockaddress(@h, bb3)
                        ],
                    ),
                    r(13, &[0, 1 << 13, 1, 2, 6, 6]), // invoke @callee() to bb1 unwind bb2
                    r(34, &[0, 1 << 15, 5, 7, 3, 2]), // %7 = call i32 (...) @personality(1, null)
                    r(31, &[3, 2, 3, 4]),             // indirectbr blockaddress, [bb3, bb4]
                    r(47, &[4, 1, 1, 0, 3]),          // %8 = landingpad cleanup catch null
                    r(39, &[1]),                      // resume %8
                    r(23, &[3, 6, 1]),                // %9 = va_arg i8* %0, i32
                    r(10, &[]),
                    r(10, &[]),
                ],
            ),
        ],
    )
    .expect("reads");
    assert_eq!(listing(&m), EH);
}

const EH: &str = "define void @h(i8* %0) personality i32 (...)* @personality {
  invoke void @callee()
          to label %2 unwind label %4

2:                                                ; preds = %1
  %3 = call i32 (...) @personality(i32 1, i8* null)
  indirectbr i8* blockaddress(@h, %6), [label %6, label %8]

4:                                                ; preds = %1
  %5 = landingpad { i8*, i32 }
          cleanup
          catch i8* null
  resume { i8*, i32 } %5

6:                                                ; preds = %2
  %7 = va_arg i8* %0, i32
  ret void

8:                                                ; preds = %2
  ret void
}
";

#[test]
fn globals_constant_expressions_metadata_and_attributes() {
    let m = read(
        "globals",
        vec![
            blk(
                10,
                vec![
                    crate::testing::Item::Record(3, {
                        let mut v = vec![1, 0xFFFF_FFFF, 0, 18, 4];
                        v.extend("fp32-denorm-mode".bytes().map(u64::from));
                        v.push(0);
                        v.extend("ftz".bytes().map(u64::from));
                        v.push(0);
                        v
                    }),
                    r(3, &[2, 0xFFFF_FFFF, 0, 20, 0, 18]),
                ],
            ),
            blk(9, vec![r(2, &[1]), r(2, &[2])]),
            blk(
                TYPE,
                vec![
                    r(1, &[21]),
                    r(7, &[32]),         // 0 i32
                    r(3, &[]),           // 1 float
                    r(7, &[8]),          // 2 i8
                    r(11, &[4, 1]),      // 3 [4 x float]
                    r(8, &[3, 3]),       // 4 [4 x float] addrspace(3)*
                    r(8, &[3, 0]),       // 5 [4 x float]*
                    r(11, &[6, 2]),      // 6 [6 x i8]
                    r(8, &[6, 0]),       // 7 [6 x i8]*
                    r(10, &[]),          // 8 half
                    r(4, &[]),           // 9 double
                    r(7, &[128]),        // 10 i128
                    r(2, &[]),           // 11 void
                    r(21, &[0, 11]),     // 12 void ()
                    r(8, &[12, 0]),      // 13 void ()*
                    r(8, &[1, 0]),       // 14 float*
                    r(12, &[2, 8]),      // 15 <2 x half>
                    r(16, &[]),          // 16 metadata
                    r(21, &[0, 11, 16]), // 17 void (metadata)
                    r(8, &[17, 0]),      // 18
                    rs(19, &[], "struct.S"),
                    r(20, &[0, 0, 1]), // 19 %struct.S
                    r(8, &[19, 0]),    // 20 %struct.S*
                ],
            ),
            r(7, &[3, 2 | (3 << 2), 0, 0, 3, 0]),   // @lds
            r(7, &[3, 3, 7, 3, 3, 0]),              // @table
            r(7, &[6, 3, 8, 9, 1, 0, 0, 0, 1]),     // @str
            r(7, &[19, 2, 9, 0, 3, 0]),             // @s
            r(8, &[17, 0, 1, 0, 2, 0, 0, 0, 0, 0]), // @use
            r(8, &[12, 0, 0, 0, 1, 0, 0, 0, 0, 0]), // @main
            blk(
                CONSTANTS,
                vec![
                    r(1, &[3]),
                    r(22, &[0x3F80_0000, 0x4000_0000, 0x3F00_0000, 0x4040_0000]), // 6
                    r(1, &[6]),
                    rs(9, &[], "hello"), // 7
                    r(1, &[19]),
                    r(2, &[]), // 8
                    r(1, &[0]),
                    r(4, &[0]), // 9
                    r(4, &[4]), // 10
                    r(1, &[14]),
                    r(20, &[3, 5, 1, 0, 9, 0, 10]), // 11 gep inbounds @table, 0, 2
                    r(1, &[0]),
                    r(11, &[9, 14, 11]), // 12 ptrtoint
                    r(1, &[8]),
                    r(6, &[0x3C00]), // 13 half 1.0
                    r(1, &[9]),
                    r(6, &[0x3FF8_0000_0000_0000]), // 14 double 1.5
                    r(1, &[10]),
                    r(5, &[10, 2]), // 15 i128 2^64 + 5
                    r(1, &[15]),
                    r(22, &[0x3C00, 0x4000]), // 16 <2 x half>
                    r(1, &[0]),
                    r(10, &[0, 12, 10, 2]), // 17 add nsw
                ],
            ),
            blk(
                METADATA,
                vec![
                    rs(1, &[], "hello md"),             // 0
                    r(2, &[0, 10]),                     // 1 i32 2
                    r(3, &[1, 2, 0]),                   // 2 !{!"hello md", i32 2, null}
                    r(5, &[4]),                         // 3 distinct !{!3}
                    r(2, &[13, 5]),                     // 4 void ()* @main
                    r(3, &[5, 3]),                      // 5 !{void ()* @main, !2}
                    r(2, &[0, 17]),                     // 6 i32 add nsw (...)
                    r(3, &[7, 16]),                     // 7 !{i32 add nsw (...), !15}
                    r(2, &[15, 16]),                    // 8 <2 x half>
                    r(2, &[8, 13]),                     // 9 half
                    r(2, &[9, 14]),                     // 10 double
                    r(2, &[10, 15]),                    // 11 i128
                    r(2, &[20, 3]),                     // 12 %struct.S* @s
                    r(2, &[7, 2]),                      // 13 [6 x i8]* @str
                    r(2, &[4, 0]),                      // 14 @lds
                    r(3, &[9, 10, 11, 12, 13, 14, 15]), // 15
                    rs(4, &[], "dx.entryPoints"),
                    r(10, &[5]),
                    rs(4, &[], "llvm.ident"),
                    r(10, &[2, 15]),
                ],
            ),
            blk(
                METADATA,
                vec![rs(6, &[1], "dx.precise"), rs(6, &[2], "llvm.loop")],
            ),
            names(&[
                (0, "lds"),
                (1, "table"),
                (2, "str"),
                (3, "s"),
                (4, "use"),
                (5, "main"),
            ]),
            blk(
                FUNCTION,
                vec![
                    r(1, &[1]),
                    blk(CONSTANTS, vec![r(1, &[1]), r(6, &[0x3F80_0000])]), // 18: float 1.0
                    blk(METADATA, vec![r(2, &[1, 20])]),                    // !16 = float %20
                    r(20, &[8, 3, 0]),                                      // %19 = load float, gep
                    r(2, &[1, 2, 0, 1]),             // %20 = fadd fast %19, 1.0
                    r(34, &[0, 1 << 15, 17, 17, 5]), // call @use(metadata float %20)
                    r(44, &[10, 1, 3, 0]),           // store %20, gep
                    r(10, &[]),
                    blk(ATTACHMENT, vec![r(11, &[1, 1, 2]), r(11, &[2, 3])]),
                ],
            ),
        ],
    )
    .expect("reads");
    let text = module_to_string(&m);
    let from_types = &text[text.find("%struct.S").expect("type line")..];
    assert_eq!(from_types, GLOBALS);
    // Through the API.
    assert_eq!(m.globals.len(), 4);
    assert_eq!(m.globals[0].address_space, 3);
    assert!(m.globals[1].is_constant && m.globals[1].linkage == Linkage::Internal);
    let init = m.globals[1].initializer.expect("initializer");
    let Some(Constant::Data(words)) = m.constant(None, init) else {
        panic!("not a data constant")
    };
    assert_eq!(
        m.constants.words(*words),
        &[0x3F80_0000, 0x4000_0000, 0x3F00_0000, 0x4040_0000]
    );
    let precise = m.metadata_kind("dx.precise").expect("kind");
    let (_, body) = m.definitions().next().expect("a definition");
    assert_eq!(body.instruction_attachments(1)[0].kind, precise);
    assert_eq!(body.function_attachments.len(), 1);
    let Op::Call { args, .. } = body.instructions[2].op else {
        panic!("not a call")
    };
    let arg = body.operands(args)[0];
    assert_ne!(arg & instructions::METADATA_OPERAND, 0);
    let local = MetadataId(arg & !instructions::METADATA_OPERAND);
    assert_eq!(
        m.metadata_node(Some(body), local),
        Some(&MetadataNode::Value {
            ty: m.types.resolve(1).expect("float"),
            value: ValueId(20)
        })
    );
    let main = m.function_by_name("main").expect("main");
    assert!(m.attributes.has(
        main.attributes,
        attributes::FUNCTION_SLOT,
        attributes::kind::NO_UNWIND
    ));
    let entry = m.named_metadata("dx.entryPoints").expect("named");
    assert_eq!(m.metadata.named_operands(entry.operands).len(), 1);
}

const GLOBALS: &str = include_str!("testdata/globals.ll");

#[test]
fn pre_3_7_forms_and_absolute_operands() {
    let bytes = crate::testing::bitcode(&[blk(
        8,
        vec![
            r(1, &[0]), // VERSION 0: absolute operand ids
            blk(
                TYPE,
                vec![
                    r(1, &[14]),
                    r(7, &[32]),          // 0 i32
                    r(7, &[1]),           // 1 i1
                    r(8, &[0, 0]),        // 2 i32*
                    r(18, &[0, 0, 1]),    // 3 { i32, i1 }
                    r(2, &[]),            // 4 void
                    r(21, &[0, 4, 2, 0]), // 5 void (i32*, i32)
                    r(11, &[2, 0]),       // 6 [2 x i32]
                    r(8, &[6, 0]),        // 7
                    r(8, &[5, 0]),        // 8
                    r(7, &[8]),           // 9 i8
                    r(8, &[9, 0]),        // 10 i8*
                    r(18, &[0, 10, 0]),   // 11 { i8*, i32 }
                    r(21, &[1, 0]),       // 12 i32 (...)
                    r(8, &[12, 0]),       // 13
                ],
            ),
            function(5, false),
            function(12, true),
            names(&[(0, "old"), (1, "pers")]),
            blk(
                FUNCTION,
                vec![
                    r(1, &[3]),
                    blk(
                        CONSTANTS,
                        vec![r(1, &[0]), r(4, &[0]), r(4, &[2]), r(1, &[1]), r(4, &[0])],
                    ),
                    r(4, &[2, 3]),                    // %7 = getelementptr %2, %3
                    r(30, &[7, 5]),                   // %8 = getelementptr inbounds %7, 1
                    r(24, &[8, 3, 3, 0]),             // store %3, %8 (pointer-typed form)
                    r(37, &[8, 4, 3, 0, 5, 1, 2, 1]), // %9 = cmpxchg weak (LLVM 3.5 form)
                    r(5, &[3, 4, 6]),                 // %10 = select false, %3, 0 (i1 only)
                    r(9, &[10, 4, 32]),               // %11 = icmp eq %10, 0
                    r(11, &[1, 2, 11]),
                    r(42, &[8, 3, 3, 0, 6, 1]), // store atomic (pointer-typed form)
                    r(10, &[]),
                    r(40, &[11, 1, 1, 0]), // %12 = landingpad personality @pers cleanup
                    r(15, &[]),
                ],
            ),
        ],
    )]);
    crate::testing::dump("old_forms", &bytes);
    let m = Module::read(&bytes).expect("reads");
    assert_eq!(listing(&m), OLD_FORMS);
    assert_eq!(m.functions[0].personality, Some(ValueId(1)));
}

const OLD_FORMS: &str = "define void @old(i32* %0, i32 %1) personality i32 (...)* @pers {
  %3 = getelementptr i32, i32* %0, i32 %1
  %4 = getelementptr inbounds i32, i32* %3, i32 1
  store i32 %1, i32* %4, align 4
  %5 = cmpxchg weak i32* %4, i32 0, i32 %1 acq_rel monotonic, align 4
  %6 = select i1 false, i32 %1, i32 0
  %7 = icmp eq i32 %6, 0
  br i1 %7, label %8, label %9

8:                                                ; preds = %2
  store atomic i32 %1, i32* %4 seq_cst, align 4
  ret void

9:                                                ; preds = %2
  %10 = landingpad { i8*, i32 }
          cleanup
  unreachable
}

declare i32 @pers(...)
";

/// A module with one function `void @e(i32)` whose body is `body` (after a constants
/// block defining `i32 0` as value 2).
fn with_body(body: Vec<Item>) -> Result<Module, Error> {
    with_blocks(1, body)
}

/// [`with_body`] with `blocks` blocks declared.
fn with_blocks(blocks: u64, body: Vec<Item>) -> Result<Module, Error> {
    let mut items = vec![
        r(1, &[blocks]),
        blk(CONSTANTS, vec![r(1, &[0]), r(4, &[0])]),
    ];
    items.extend(body);
    read(
        "error",
        vec![
            blk(
                TYPE,
                vec![
                    r(1, &[6]),
                    r(7, &[32]),       // 0 i32
                    r(2, &[]),         // 1 void
                    r(21, &[0, 1, 0]), // 2 void (i32)
                    r(8, &[2, 0]),     // 3
                    r(7, &[1]),        // 4 i1
                    r(3, &[]),         // 5 float
                ],
            ),
            function(2, false),
            blk(FUNCTION, items),
        ],
    )
}

fn error_text(result: Result<Module, Error>) -> String {
    match result {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn malformed_bodies_are_errors_naming_block_record_and_bit() {
    // An operand that wraps to a value never defined (the record carries a type).
    let e = error_text(with_body(vec![r(2, &[0xFFFF_FFFF, 0, 1, 0]), r(10, &[])]));
    assert!(
        e.contains("FUNCTION_BLOCK (12)") && e.contains("never defined") && e.contains("at bit"),
        "{e}"
    );
    // A forward reference whose stated type is not the value's.
    let e = error_text(with_body(vec![
        r(2, &[0xFFFF_FFFF, 5, 2, 0]), // %3 = fadd float %4, ... (%4 is an i32)
        r(2, &[2, 2, 0]),              // %4 = add i32 %2, %2
        r(10, &[]),
    ]));
    assert!(
        e.contains("wrong type") || e.contains("type the instruction needs"),
        "{e}"
    );
    // A block left without a terminator.
    let e = error_text(with_blocks(2, vec![r(10, &[])]));
    assert!(e.contains("2 blocks declared, 1 ended"), "{e}");
    // An instruction after the last block.
    let e = error_text(with_body(vec![r(10, &[]), r(2, &[1, 1, 0])]));
    assert!(e.contains("after the last block"), "{e}");
    // LLVM 8's fneg and LLVM 3.8's operand bundles cannot appear.
    let e = error_text(with_body(vec![r(56, &[1, 0]), r(10, &[])]));
    assert!(e.contains("fneg") && e.contains("INST_UNOP (56)"), "{e}");
    let e = error_text(with_body(vec![r(55, &[0]), r(10, &[])]));
    assert!(e.contains("operand bundle"), "{e}");
    // A switch case that is not a constant of the switched type.
    let e = error_text(with_body(vec![r(12, &[0, 2, 0, 1, 0]), r(10, &[])]));
    assert!(e.contains("switch case value 1"), "{e}");
    // A call of a value that is not a function pointer.
    let e = error_text(with_body(vec![r(34, &[0, 0, 2]), r(10, &[])]));
    assert!(e.contains("INST_CALL") && e.contains("callee"), "{e}");
    // Returning a value from a void function.
    let e = error_text(with_body(vec![r(10, &[1])]));
    assert!(e.contains("return type"), "{e}");
    // A block count no bitcode could hold.
    let e = error_text(with_body(vec![r(1, &[1 << 40])]));
    assert!(e.contains("blocks"), "{e}");
}

#[test]
fn malformed_tables_are_errors() {
    // Only named structs may be used before their definition.
    let e = error_text(read(
        "fwd_type",
        vec![blk(TYPE, vec![r(1, &[2]), r(8, &[1, 0]), r(7, &[32])])],
    ));
    assert!(e.contains("only named structs"), "{e}");
    // A named struct may refer to itself through a pointer (LLVM writes the pointer
    // first, referring forward to the struct).
    let m = read(
        "list",
        vec![blk(
            TYPE,
            vec![
                r(1, &[3]),
                r(8, &[2, 0]),
                r(7, &[32]),
                rs(19, &[], "node"),
                r(20, &[0, 0, 1]),
            ],
        )],
    )
    .expect("a recursive struct reads");
    assert!(module_to_string(&m).contains("%node = type { %node*, i32 }"));
    // Type nesting past the limit.
    let mut types = vec![r(1, &[70]), r(7, &[32])];
    for i in 0..69 {
        types.push(r(8, &[i, 0]));
    }
    assert!(matches!(
        read("deep_type", vec![blk(TYPE, types)]),
        Err(Error::Limit { .. })
    ));
    // Constants that refer to each other.
    let e = error_text(read(
        "cycle",
        vec![
            blk(TYPE, vec![r(1, &[1]), r(7, &[32])]),
            blk(
                CONSTANTS,
                vec![r(1, &[0]), r(11, &[11, 0, 1]), r(11, &[11, 0, 0])],
            ),
        ],
    ));
    assert!(e.contains("cycle") || e.contains("refers to itself"), "{e}");
    // Constant nesting past the limit.
    let mut consts = vec![r(1, &[0]), r(4, &[2])];
    for i in 0..70 {
        consts.push(r(11, &[11, 0, i]));
    }
    let r2 = read(
        "deep_const",
        vec![
            blk(TYPE, vec![r(1, &[1]), r(7, &[32])]),
            blk(CONSTANTS, consts),
        ],
    );
    assert!(matches!(r2, Err(Error::Limit { .. })), "{r2:?}");
    // A global initialized with a constant of another type.
    let e = error_text(read(
        "bad_init",
        vec![
            blk(TYPE, vec![r(1, &[2]), r(7, &[32]), r(3, &[])]),
            r(7, &[0, 2, 2, 0, 0, 0]),
            blk(CONSTANTS, vec![r(1, &[1]), r(6, &[0])]),
        ],
    ));
    assert!(e.contains("initializer"), "{e}");
    // Named metadata must name nodes, not strings.
    let e = error_text(read(
        "named_string",
        vec![blk(
            METADATA,
            vec![rs(1, &[], "s"), rs(4, &[], "n"), r(10, &[0])],
        )],
    ));
    assert!(e.contains("not a metadata node"), "{e}");
    // A definition without a body.
    let e = error_text(read(
        "no_body",
        vec![
            blk(TYPE, vec![r(1, &[2]), r(2, &[]), r(21, &[0, 0])]),
            function(1, false),
        ],
    ));
    assert!(e.contains("has no body"), "{e}");
}

#[test]
fn bulk_metadata_strings_identification_and_wrapper() {
    // METADATA_STRINGS (LLVM 4+ writers): the lengths as VBR6 in a bitstream, then the
    // characters; written with an abbreviation since the record carries a blob.
    use crate::testing::{AbbrevOp as A, BitWriter};
    let mut lengths = BitWriter::new();
    lengths.vbr(2, 6);
    lengths.vbr(5, 6);
    let mut blob = lengths.finish();
    let offset = blob.len() as u64;
    blob.extend_from_slice(b"dxhello");
    let mut w = BitWriter::with_magic();
    w.enter_block(13, 3); // IDENTIFICATION
    w.record(1, &crate::testing::with_chars(&[], "LLVM3.7"));
    w.record(2, &[0]);
    w.end_block();
    w.enter_block(8, 3);
    w.record(1, &[1]);
    w.enter_block(15, 4);
    let a = w.define_abbrev(&[A::Literal(35), A::Vbr(6), A::Vbr(6), A::Blob]);
    w.abbrev_record(a, &[35, 2, offset], &blob);
    w.record(3, &[1, 2]); // !{!"dx", !"hello"}
    w.record(4, &crate::testing::with_chars(&[], "n"));
    w.record(10, &[2]);
    w.end_block();
    w.end_block();
    let bitcode = w.finish();
    crate::testing::dump("bulk_strings", &bitcode);
    let m = Module::read(&bitcode).expect("reads");
    assert_eq!(
        m.producer.map(|p| m.text(p).into_owned()),
        Some("LLVM3.7".into())
    );
    let text = module_to_string(&m);
    assert!(
        text.ends_with("!n = !{!0}\n\n!0 = !{!\"dx\", !\"hello\"}\n"),
        "{text}"
    );
    // The same bitcode behind the bitcode wrapper header.
    let mut wrapped = Vec::new();
    for word in [0x0B17_C0DEu32, 0, 20, bitcode.len() as u32, 0] {
        wrapped.extend_from_slice(&word.to_le_bytes());
    }
    wrapped.extend_from_slice(&bitcode);
    assert_eq!(
        module_to_string(&Module::read(&wrapped).expect("reads")),
        text
    );
    // A wrapper pointing past its data, and a missing magic.
    wrapped[12] = 0xFF;
    assert!(Module::read(&wrapped).is_err());
    let e = Module::read(b"BCxx\0\0\0\0").unwrap_err().to_string();
    assert!(e.contains("magic"), "{e}");
}
