//! Shaders the unit tests build by hand, so they need no corpus.

/// A DXBC container with one SHEX part holding `program`, with `checksum` in its header (all
/// zero: unsigned).
pub fn container(program: &[u32], checksum: [u8; 16]) -> Vec<u8> {
    let mut bytes = b"DXBC".to_vec();
    bytes.extend_from_slice(&checksum);
    let total = 32 + 4 + 8 + program.len() * 4;
    let part = u32::from_le_bytes(*b"SHEX");
    for word in [1, total as u32, 1, 36, part, program.len() as u32 * 4] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    bytes.extend(program.iter().flat_map(|w| w.to_le_bytes()));
    bytes
}

/// `cs_5_0`: `dcl_uav_raw u0; dcl_temps 1; dcl_thread_group 1, 1, 1; mov r0.x, l(42);
/// store_raw u0.x, l(0), r0.x;` then `tail`, with the length token set.
pub fn compute_program(tail: &[u32]) -> Vec<u32> {
    let mut p = vec![
        0x0005_0050,
        0, // cs_5_0, length (set below)
        0x0300_009d,
        0x0011_e000,
        0, // dcl_uav_raw u0
        0x0200_0068,
        1, // dcl_temps 1
        0x0400_009b,
        1,
        1,
        1, // dcl_thread_group 1, 1, 1
        0x0500_0036,
        0x0010_0012,
        0,
        0x0000_4001,
        42, // mov r0.x, l(42)
        0x0700_00a6,
        0x0011_e012,
        0,
        0x0000_4001,
        0,
        0x0010_000a,
        0, // store_raw
    ];
    p.extend_from_slice(tail);
    p[1] = p.len() as u32;
    p
}

/// The compute shader of [`compute_program`] ending in `ret`, unsigned.
pub fn tiny_compute_shader() -> Vec<u8> {
    container(&compute_program(&[0x0100_003e]), [0; 16])
}

/// The compute shader with `abort` before `ret`: an unsupported feature.
pub fn aborting_compute_shader() -> Vec<u8> {
    container(&compute_program(&[0x0100_00cf, 0x0100_003e]), [0; 16])
}

/// A container whose part table names a DXIL part (no frontend yet).
pub fn dxil_container() -> Vec<u8> {
    let mut bytes = b"DXBC".to_vec();
    bytes.extend_from_slice(&[0; 16]);
    for word in [1, 44, 1, 36, u32::from_le_bytes(*b"DXIL"), 0] {
        bytes.extend_from_slice(&u32::to_le_bytes(word));
    }
    bytes
}

#[test]
fn the_shaders_are_what_their_docs_say() {
    assert_eq!(
        dxspv::disassemble(&tiny_compute_shader()).unwrap(),
        "//\ncs_5_0\ndcl_uav_raw u0\ndcl_temps 1\ndcl_thread_group 1, 1, 1\n\
         mov r0.x, l(42)\nstore_raw u0.x, l(0), r0.x\nret \n"
    );
    let text = dxspv::disassemble(&aborting_compute_shader()).unwrap();
    assert!(text.ends_with("r0.x\nabort \nret \n"), "{text}");
    assert_eq!(dxspv::detect_format(&dxil_container()), dxspv::Format::Dxil);
}
