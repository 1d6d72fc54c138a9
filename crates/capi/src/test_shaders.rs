//! Shaders the unit tests build by hand (from the test kit), so they need no corpus.

pub use dxspv_testkit::dxbc::{aborting_compute_shader, dxil_container, tiny_compute_shader};

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
