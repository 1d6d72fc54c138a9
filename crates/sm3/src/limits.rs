//! Register counts per shader model, as data.
//!
//! The numbers are the register tables of the Direct3D 9 assembly reference (`Registers -
//! vs_1_1` … `ps_3_0`, `ps_1_1__ps_1_2__ps_1_3__ps_1_4 Registers`, `Software Shaders`).
//! Where a count depends on the device's caps (vertex shader float constants are
//! `D3DCAPS9.MaxVertexShaderConst`, at least 96 for `vs_1_1` and 256 from `vs_2_0`; the
//! temporaries of the 2_x profiles are `NumTemps`, 12 to 32; the predicate of 2_x is a cap;
//! pixel shader colour outputs are `NumSimultaneousRTs`, 1 to 4), [`Limit::guaranteed`] is
//! what every device running the model has and [`Limit::max`] what the model allows on
//! any device (8192 float, 2048 integer and 2048 boolean constants in the software
//! profiles). A file the model does not have is `0..0`.
//!
//! The hardware vertex profiles stop at 256 float constants even on a device created for
//! software vertex processing: Direct3D 9 refuses a `vs_1_1` or `vs_3_0` shader that names
//! `c256` on every device (Wine's `test_unsupported_shaders` in `dlls/d3d9/tests/device.c`
//! expects `D3DERR_INVALIDCALL` for both, and `D3D_OK` for `c255`).
//!
//! The reader does not enforce these: a converter checks the registers it meets against
//! [`Limits::of`] and refuses what no device could run.

use crate::register::RegisterType;
use crate::version::{Stage, Version};

/// How many registers of one file a model has (indices `0..max`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Limit {
    /// Registers every device supporting the model provides.
    pub guaranteed: u32,
    /// Registers the model allows on any device.
    pub max: u32,
}

impl Limit {
    const NONE: Limit = Limit::exactly(0);

    /// A count that does not depend on caps.
    pub const fn exactly(n: u32) -> Limit {
        Limit {
            guaranteed: n,
            max: n,
        }
    }

    /// A cap-dependent count.
    pub const fn range(guaranteed: u32, max: u32) -> Limit {
        Limit { guaranteed, max }
    }

    /// Whether register `index` exists on some device.
    pub fn allows(self, index: u32) -> bool {
        index < self.max
    }
}

/// The register counts of one shader model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Limits {
    /// `r#`.
    pub temp: Limit,
    /// `v#`.
    pub input: Limit,
    /// `c#`.
    pub float_const: Limit,
    /// `i#`.
    pub int_const: Limit,
    /// `b#`.
    pub bool_const: Limit,
    /// `a0` (vertex shaders).
    pub address: Limit,
    /// `aL`.
    pub loop_counter: Limit,
    /// `p0`.
    pub predicate: Limit,
    /// `s#`.
    pub sampler: Limit,
    /// `t#` (pixel shaders before 3.0).
    pub texture: Limit,
    /// `oPos`, `oFog`, `oPts` (vertex shaders before 3.0; numbered 0-2).
    pub rast_out: Limit,
    /// `oD#` (vertex shaders before 3.0).
    pub attr_out: Limit,
    /// `oT#` (vertex shaders before 3.0).
    pub texcoord_out: Limit,
    /// `o#` (`vs_3_0`).
    pub output: Limit,
    /// `oC#` (pixel shaders from 2.0; 1.x shaders write `r0`).
    pub color_out: Limit,
    /// `oDepth` (pixel shaders from 2.0).
    pub depth_out: Limit,
    /// `vPos`, `vFace` (`ps_3_0`; numbered 0-1).
    pub misc: Limit,
    /// `l#` labels of `call` / `callnz` / `label`.
    pub label: Limit,
}

impl Limits {
    /// The limits of `version`.
    pub fn for_version(version: Version) -> Limits {
        let sw = version.is_software();
        match version.stage {
            Stage::Vertex => vertex(version.major, version.minor, sw),
            Stage::Pixel => pixel(version.major, version.minor, sw),
        }
    }

    /// The limit for registers of `ty`.
    pub fn of(&self, ty: RegisterType) -> Limit {
        use RegisterType as R;
        match ty {
            R::Temp => self.temp,
            R::Input => self.input,
            R::Const => self.float_const,
            R::Address => self.address,
            R::Texture => self.texture,
            R::RastOut => self.rast_out,
            R::AttrOut => self.attr_out,
            R::TexCrdOut => self.texcoord_out,
            R::Output => self.output,
            R::ConstInt => self.int_const,
            R::ColorOut => self.color_out,
            R::DepthOut => self.depth_out,
            R::Sampler => self.sampler,
            R::ConstBool => self.bool_const,
            R::Loop => self.loop_counter,
            R::MiscType => self.misc,
            R::Label => self.label,
            R::Predicate => self.predicate,
        }
    }
}

/// Float constants a hardware vertex profile can name (`c0`-`c255`).
const HARDWARE_VERTEX_FLOAT_CONSTS: u32 = 256;
/// Float constants of a software profile.
const SOFTWARE_FLOAT_CONSTS: u32 = 8192;
/// Integer and boolean constants of the software profiles.
const SOFTWARE_INT_BOOL_CONSTS: u32 = 2048;
/// Labels of the software profiles and of model 3.
const MANY_LABELS: u32 = 2048;

fn vertex(major: u8, minor: u8, sw: bool) -> Limits {
    let float_const = |guaranteed| {
        if sw {
            Limit::exactly(SOFTWARE_FLOAT_CONSTS)
        } else {
            Limit::range(guaranteed, HARDWARE_VERTEX_FLOAT_CONSTS)
        }
    };
    let int_bool = if sw {
        Limit::exactly(SOFTWARE_INT_BOOL_CONSTS)
    } else {
        Limit::exactly(16)
    };
    let base = Limits {
        input: Limit::exactly(16),
        address: Limit::exactly(1),
        ..Limits::default()
    };
    let pre3 = Limits {
        rast_out: Limit::exactly(3),
        attr_out: Limit::exactly(2),
        texcoord_out: Limit::exactly(8),
        ..base
    };
    match major {
        1 => Limits {
            temp: Limit::exactly(12),
            float_const: float_const(96),
            ..pre3
        },
        2 => Limits {
            temp: match (minor, sw) {
                (_, true) => Limit::exactly(32),
                (0, false) => Limit::exactly(12),
                _ => Limit::range(12, 32),
            },
            float_const: float_const(256),
            int_const: int_bool,
            bool_const: int_bool,
            loop_counter: Limit::exactly(1),
            predicate: match (minor, sw) {
                (_, true) => Limit::exactly(1),
                (0, false) => Limit::NONE,
                _ => Limit::range(0, 1),
            },
            label: if sw {
                Limit::exactly(MANY_LABELS)
            } else {
                Limit::exactly(16)
            },
            ..pre3
        },
        _ => Limits {
            temp: Limit::exactly(32),
            float_const: float_const(256),
            int_const: int_bool,
            bool_const: int_bool,
            loop_counter: Limit::exactly(1),
            predicate: Limit::exactly(1),
            sampler: Limit::exactly(4),
            output: Limit::exactly(if sw { 16 } else { 12 }),
            label: Limit::exactly(MANY_LABELS),
            ..base
        },
    }
}

fn pixel(major: u8, minor: u8, sw: bool) -> Limits {
    let (float_const, int_bool) = if sw {
        (
            Limit::exactly(SOFTWARE_FLOAT_CONSTS),
            Limit::exactly(SOFTWARE_INT_BOOL_CONSTS),
        )
    } else {
        (
            Limit::exactly(if major >= 3 { 224 } else { 32 }),
            Limit::exactly(16),
        )
    };
    match major {
        1 => {
            let ps14 = minor >= 4;
            Limits {
                temp: Limit::exactly(if ps14 { 6 } else { 2 }),
                input: Limit::exactly(2),
                float_const: Limit::exactly(8),
                texture: Limit::exactly(if ps14 { 6 } else { 4 }),
                ..Limits::default()
            }
        }
        2 => {
            let base = Limits {
                input: Limit::exactly(2),
                float_const,
                sampler: Limit::exactly(16),
                texture: Limit::exactly(8),
                color_out: Limit::range(1, 4),
                depth_out: Limit::exactly(1),
                ..Limits::default()
            };
            if minor == 0 {
                Limits {
                    temp: Limit::exactly(12),
                    ..base
                }
            } else {
                Limits {
                    temp: if sw {
                        Limit::exactly(32)
                    } else {
                        Limit::range(12, 32)
                    },
                    int_const: int_bool,
                    bool_const: int_bool,
                    predicate: if sw {
                        Limit::exactly(1)
                    } else {
                        Limit::range(0, 1)
                    },
                    label: Limit::exactly(if sw { MANY_LABELS } else { 16 }),
                    ..base
                }
            }
        }
        _ => Limits {
            temp: Limit::exactly(32),
            input: Limit::exactly(10),
            float_const,
            int_const: int_bool,
            bool_const: int_bool,
            loop_counter: Limit::exactly(1),
            predicate: Limit::exactly(1),
            sampler: Limit::exactly(16),
            color_out: Limit::range(1, 4),
            depth_out: Limit::exactly(1),
            misc: Limit::exactly(2),
            label: Limit::exactly(MANY_LABELS),
            ..Limits::default()
        },
    }
}
