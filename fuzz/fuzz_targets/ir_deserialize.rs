//! Deserializer on arbitrary bytes; what deserializes must re-serialize to a stream that
//! deserializes again and serializes to the same bytes.
#![no_main]

use dxspv_ir::serialize::{deserialize, serialize};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(b) = deserialize(data) else {
        return;
    };
    let _ = dxspv_ir::validate(&b, dxspv_ir::Level::Structural);
    let _ = dxspv_ir::text::print(&b);
    let s1 = serialize(&b);
    let b2 = match deserialize(&s1) {
        Ok(b2) => b2,
        Err(e) => panic!("re-serialized stream does not deserialize: {e}"),
    };
    let s2 = serialize(&b2);
    assert_eq!(s1, s2, "serialize(deserialize(serialize(x))) differs");
});
