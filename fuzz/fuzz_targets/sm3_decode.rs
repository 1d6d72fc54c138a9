//! Parses a Direct3D 9 shader and decodes every instruction, reading every field the
//! converter will read.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(shader) = dxspv_sm3::Shader::parse(data) else {
        return;
    };
    let limits = dxspv_sm3::Limits::for_version(shader.version);
    // The iterator ends at the end token or after the first error; bound the walk anyway
    // so a decoder that stops consuming tokens shows up as a panic instead of a hang.
    let limit = shader.tokens.len() + 1;
    let mut n = 0usize;
    let mut inst = dxspv_sm3::Instruction::default();
    let mut it = shader.instructions();
    let mut decoded = 0u32;
    while let Some(r) = it.next_into(&mut inst) {
        n += 1;
        assert!(n <= limit, "more instructions than tokens");
        if r.is_err() {
            return;
        }
        assert!(inst.len >= 1, "an instruction takes at least its token");
        if !inst.is_comment() {
            decoded += 1;
        }
        for s in inst.sources().iter().chain(inst.predicate.iter()) {
            let _ = limits.of(s.register.ty).allows(s.register.index);
            let _ = s.relative.map(|r| r.component());
        }
        if let Some(d) = &inst.dst {
            let _ = limits.of(d.register.ty).allows(d.register.index);
        }
    }
    // A shader that decodes to the end has the count the structure walk found.
    assert_eq!(decoded, shader.instruction_count, "instruction counts disagree");
});
