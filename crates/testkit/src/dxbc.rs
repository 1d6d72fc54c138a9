//! Small DXBC containers built by hand, for tests that must not depend on the corpus.

/// An unsigned DXBC container (all-zero checksum) holding `parts` in order, each a four-character
/// code and its bytes.
pub fn container(parts: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
    let header = 32 + 4 * parts.len();
    let mut table = Vec::new();
    let mut body = Vec::new();
    for (fourcc, data) in parts {
        table.extend_from_slice(&((header + body.len()) as u32).to_le_bytes());
        body.extend_from_slice(*fourcc);
        body.extend_from_slice(&(data.len() as u32).to_le_bytes());
        body.extend_from_slice(data);
    }
    let mut bytes = b"DXBC".to_vec();
    bytes.extend_from_slice(&[0; 16]);
    for word in [1, (header + body.len()) as u32, parts.len() as u32] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    bytes.extend_from_slice(&table);
    bytes.extend_from_slice(&body);
    bytes
}

/// An unsigned container with one `SHEX` part holding `program`.
pub fn shex_container(program: &[u32]) -> Vec<u8> {
    let bytes: Vec<u8> = program.iter().flat_map(|w| w.to_le_bytes()).collect();
    container(&[(b"SHEX", &bytes)])
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

/// The compute shader of [`compute_program`] ending in `ret`, unsigned: its raw IR has a
/// temporary for the pass pipeline to lower.
pub fn tiny_compute_shader() -> Vec<u8> {
    shex_container(&compute_program(&[0x0100_003e]))
}

/// The compute shader of [`compute_program`] with `abort` before `ret`: an unsupported feature.
pub fn aborting_compute_shader() -> Vec<u8> {
    shex_container(&compute_program(&[0x0100_00cf, 0x0100_003e]))
}

/// A container whose part table names an empty `DXIL` part: detected as DXIL, refused as
/// malformed by its frontend.
pub fn dxil_container() -> Vec<u8> {
    container(&[(b"DXIL", &[])])
}
