//! Reflection as JSON: what `dxspv compile --reflect out.json` writes, so a program can bind
//! resources without guessing.
//!
//! ```json
//! {"resources": [{"class": "Uav", "space": 0, "register": 1, "count": 1, "set": 0,
//!                 "binding": 2001, "descriptor_type": "StorageBuffer", "name": "buf"}],
//!  "push_data": [{"offset": 0, "size": 16}],
//!  "spec_constants": [{"spec_id": 1073741824, "default": 1, "kind": "SampleCount"}],
//!  "inputs": [{"location": 0, "component": 0, "builtin": null, "semantic": ["TEXCOORD", 0],
//!              "patch": false}],
//!  "outputs": [...]}
//! ```
//! `class` is the D3D register class (`Cbv` b, `Srv` t, `Uav` u, `Sampler` s, `UavCounter` the
//! hidden counter of a `u` register); `descriptor_type` the Vulkan descriptor type
//! (`VK_DESCRIPTOR_TYPE_` + the name in upper snake case).

use crate::spirv::{InterfaceVariable, Reflection};
use std::fmt::Write;

/// Writes `s` as a JSON string literal.
fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn opt_string(out: &mut String, s: Option<&str>) {
    match s {
        Some(s) => string(out, s),
        None => out.push_str("null"),
    }
}

fn interface(out: &mut String, vars: &[InterfaceVariable]) {
    out.push('[');
    for (i, v) in vars.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str("{\"location\": ");
        match v.location {
            Some(l) => {
                let _ = write!(out, "{l}");
            }
            None => out.push_str("null"),
        }
        let _ = write!(out, ", \"component\": {}, \"builtin\": ", v.component);
        opt_string(out, v.builtin);
        out.push_str(", \"semantic\": ");
        match &v.semantic {
            Some((name, index)) => {
                out.push('[');
                string(out, name);
                let _ = write!(out, ", {index}]");
            }
            None => out.push_str("null"),
        }
        let _ = write!(out, ", \"patch\": {}}}", v.patch);
    }
    out.push(']');
}

/// The reflection of a compiled shader as a JSON document (format in the module docs).
pub fn reflection_json(r: &Reflection) -> String {
    let mut out = String::from("{\n  \"resources\": [");
    for (i, res) in r.resources.iter().enumerate() {
        out.push_str(if i > 0 { ",\n    " } else { "\n    " });
        let _ = write!(
            out,
            "{{\"class\": \"{:?}\", \"space\": {}, \"register\": {}, \"count\": {}, \"set\": {}, \"binding\": {}, \"descriptor_type\": \"{:?}\", \"name\": ",
            res.class, res.space, res.register, res.count, res.set, res.binding, res.descriptor_type
        );
        opt_string(&mut out, res.name.as_deref());
        out.push('}');
    }
    out.push_str("\n  ],\n  \"push_data\": [");
    for (i, p) in r.push_data.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{{\"offset\": {}, \"size\": {}}}", p.offset, p.size);
    }
    out.push_str("],\n  \"spec_constants\": [");
    for (i, c) in r.spec_constants.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(
            out,
            "{{\"spec_id\": {}, \"default\": {}, \"kind\": \"{:?}\"}}",
            c.spec_id, c.default, c.kind
        );
    }
    out.push_str("],\n  \"inputs\": ");
    interface(&mut out, &r.inputs);
    out.push_str(",\n  \"outputs\": ");
    interface(&mut out, &r.outputs);
    out.push_str("\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spirv::{
        DescriptorType, PushDataRange, RegisterClass, ResourceBinding, SpecConstantInfo,
        SpecConstantKind,
    };

    #[test]
    fn writes_every_field_and_escapes_strings() {
        let r = Reflection {
            resources: vec![ResourceBinding {
                class: RegisterClass::Uav,
                space: 1,
                register: 2,
                count: 0,
                set: 1,
                binding: 2002,
                descriptor_type: DescriptorType::StorageBuffer,
                name: Some("a\"b".into()),
            }],
            push_data: vec![PushDataRange {
                offset: 0,
                size: 16,
            }],
            spec_constants: vec![SpecConstantInfo {
                spec_id: 7,
                default: 1,
                kind: SpecConstantKind::SampleCount,
            }],
            inputs: vec![InterfaceVariable {
                location: Some(3),
                component: 2,
                builtin: None,
                semantic: Some(("TEXCOORD".into(), 1)),
                patch: false,
            }],
            outputs: vec![InterfaceVariable {
                location: None,
                component: 0,
                builtin: Some("Position"),
                semantic: None,
                patch: true,
            }],
        };
        let j = reflection_json(&r);
        assert!(j.contains("{\"class\": \"Uav\", \"space\": 1, \"register\": 2, \"count\": 0, \"set\": 1, \"binding\": 2002, \"descriptor_type\": \"StorageBuffer\", \"name\": \"a\\\"b\"}"), "{j}");
        assert!(
            j.contains("\"push_data\": [{\"offset\": 0, \"size\": 16}]"),
            "{j}"
        );
        assert!(j.contains("{\"location\": 3, \"component\": 2, \"builtin\": null, \"semantic\": [\"TEXCOORD\", 1], \"patch\": false}"), "{j}");
        assert!(j.contains("{\"location\": null, \"component\": 0, \"builtin\": \"Position\", \"semantic\": null, \"patch\": true}"), "{j}");
    }
}
