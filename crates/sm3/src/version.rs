//! The version token: shader stage and model.
//!
//! The first token of every Direct3D 9 shader is `0xFFFE_MMmm` for vertex shaders and
//! `0xFFFF_MMmm` for pixel shaders (`MM` major, `mm` minor version). Minor version 1 of model
//! 2 is the token the 2_x profiles share (`vs_2_x`, `ps_2_x`, and the `ps_2_a` / `ps_2_b`
//! compiler targets), and minor version 0xFF marks the software shaders (`vs_2_sw`,
//! `vs_3_sw`, `ps_2_sw`, `ps_3_sw`).

use crate::error::Error;

/// Which pipeline stage a shader runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Vertex shader (version token `0xFFFE....`).
    Vertex,
    /// Pixel shader (version token `0xFFFF....`).
    Pixel,
}

impl Stage {
    /// Two-letter profile prefix (`vs`, `ps`).
    pub fn prefix(self) -> &'static str {
        match self {
            Stage::Vertex => "vs",
            Stage::Pixel => "ps",
        }
    }
}

/// Minor version number of the software shader profiles (`vs_3_sw` is `0xFFFE03FF`).
pub const SOFTWARE_MINOR: u8 = 0xFF;

/// Stage and model of a shader, from its version token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Version {
    /// Stage.
    pub stage: Stage,
    /// Major version (1, 2 or 3).
    pub major: u8,
    /// Minor version (0-4 for model 1, 0 or 1 for model 2, 0 for model 3; 0xFF for the
    /// software profiles).
    pub minor: u8,
}

impl Version {
    /// A vertex shader version.
    pub const fn vs(major: u8, minor: u8) -> Self {
        Version {
            stage: Stage::Vertex,
            major,
            minor,
        }
    }

    /// A pixel shader version.
    pub const fn ps(major: u8, minor: u8) -> Self {
        Version {
            stage: Stage::Pixel,
            major,
            minor,
        }
    }

    /// Decodes a version token; versions Direct3D 9 does not define are an error.
    ///
    /// Accepted: `vs_1_0`, `vs_1_1`, `vs_2_0`, `vs_2_x`, `vs_2_sw`, `vs_3_0`, `vs_3_sw`,
    /// `ps_1_0` to `ps_1_4`, `ps_2_0`, `ps_2_x`, `ps_2_sw`, `ps_3_0`, `ps_3_sw`.
    pub fn from_token(token: u32) -> Result<Self, Error> {
        let stage =
            match token >> 16 {
                0xFFFE => Stage::Vertex,
                0xFFFF => Stage::Pixel,
                _ => return Err(Error::Version {
                    token,
                    what: "not a Direct3D 9 version token (high word is neither 0xFFFE nor 0xFFFF)",
                }),
            };
        let major = ((token >> 8) & 0xFF) as u8;
        let minor = (token & 0xFF) as u8;
        let known = match (stage, major) {
            (Stage::Vertex, 1) => minor <= 1,
            (Stage::Pixel, 1) => minor <= 4,
            (_, 2) => minor <= 1 || minor == SOFTWARE_MINOR,
            (_, 3) => minor == 0 || minor == SOFTWARE_MINOR,
            _ => false,
        };
        if !known {
            return Err(Error::Version {
                token,
                what: "shader model is not one Direct3D 9 defines (1.x, 2.0, 2.x, 3.0, 2_sw, 3_sw)",
            });
        }
        Ok(Version {
            stage,
            major,
            minor,
        })
    }

    /// The version token.
    pub fn token(self) -> u32 {
        let high: u32 = match self.stage {
            Stage::Vertex => 0xFFFE,
            Stage::Pixel => 0xFFFF,
        };
        high << 16 | u32::from(self.major) << 8 | u32::from(self.minor)
    }

    /// Whether this version is at least `major.minor` (software versions order after the
    /// hardware versions of their major number: `vs_2_sw` is at least `vs_2_x`).
    #[inline]
    pub fn at_least(self, major: u8, minor: u8) -> bool {
        (self.major, self.minor) >= (major, minor)
    }

    /// Whether this is a software profile (`*_2_sw`, `*_3_sw`).
    pub fn is_software(self) -> bool {
        self.minor == SOFTWARE_MINOR
    }

    /// Whether this is a vertex shader.
    #[inline]
    pub fn is_vertex(self) -> bool {
        self.stage == Stage::Vertex
    }

    /// Whether this is a pixel shader.
    #[inline]
    pub fn is_pixel(self) -> bool {
        self.stage == Stage::Pixel
    }

    /// Whether instruction tokens carry their length (bits 24-27): models 2 and 3. Model 1
    /// instructions have no length field; their parameter tokens are the following tokens
    /// with bit 31 set.
    #[inline]
    pub fn has_instruction_length(self) -> bool {
        self.major >= 2
    }

    /// Whether a relatively addressed parameter is followed by a relative-address token
    /// (`vs_2_0` and later, `ps_3_0` and later). In `vs_1_x` the address register `a0.x` is
    /// implied and no token follows.
    #[inline]
    pub fn has_relative_address_token(self) -> bool {
        match self.stage {
            Stage::Vertex => self.major >= 2,
            Stage::Pixel => self.major >= 3,
        }
    }

    /// The profile name's model part: `1_1`, `2_0`, `2_x`, `2_sw`, `3_0`, `3_sw`…
    pub fn model_name(self) -> String {
        match (self.major, self.minor) {
            (2, 1) => "2_x".to_string(),
            (m, SOFTWARE_MINOR) => format!("{m}_sw"),
            (m, n) => format!("{m}_{n}"),
        }
    }
}

impl core::fmt::Display for Version {
    /// The profile name fxc prints on the version line: `vs_2_0`, `ps_2_x`, `vs_3_sw`…
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}_{}", self.stage.prefix(), self.model_name())
    }
}
