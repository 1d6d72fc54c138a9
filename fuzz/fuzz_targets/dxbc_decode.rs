//! Decodes every instruction of a program. Inputs starting with `DXBC` go through the
//! container; anything else is taken as a bare SHDR/SHEX part body.
#![no_main]

use libfuzzer_sys::fuzz_target;

fn decode_all(p: &dxspv_dxbc::Program<'_>) {
    // The iterator ends after the first error; bound the walk anyway so a decoder that
    // stops consuming tokens shows up as a panic instead of a hang.
    let limit = p.tokens.len() + 1;
    let mut n = 0usize;
    for inst in p.instructions() {
        n += 1;
        assert!(n <= limit, "more instructions than tokens");
        match inst {
            Ok(i) => {
                let _ = i.operands();
                let _ = i.is_declaration();
            }
            Err(_) => break,
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if data.starts_with(b"DXBC") {
        if let Ok(s) = dxspv_dxbc::Shader::parse(data) {
            decode_all(&s.program);
        }
    } else if let Ok(p) = dxspv_dxbc::Program::parse(data) {
        decode_all(&p);
    }
});
