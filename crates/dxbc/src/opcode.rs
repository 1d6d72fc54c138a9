//! SM 4.0–5.1 opcodes (`D3D10_SB_OPCODE_TYPE` and its later extensions).

/// How the disassembler prints immediate operands of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// Untyped data movement: guess per value (float if it looks like one).
    Any,
    /// 32-bit float.
    Float,
    /// Signed integer.
    Int,
    /// Unsigned integer.
    Uint,
    /// Bitwise: unsigned, hexadecimal when large.
    Bits,
    /// 64-bit float.
    Double,
    /// No operands worth typing (control flow, declarations).
    None,
}

macro_rules! opcodes {
    ($($name:ident = $val:literal, $mn:literal, $kind:ident;)*) => {
        /// An SM 4.0–5.1 opcode, named after its `D3D10_SB_OPCODE_*` /
        /// `D3D11_SB_OPCODE_*` / `D3D11_1_SB_OPCODE_*` /
        /// `D3DWDDM1_3_SB_OPCODE_*` constant.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum Opcode {
            $(
                #[doc = concat!("`", $mn, "` (", stringify!($val), ")")]
                $name = $val,
            )*
        }

        impl Opcode {
            /// Every opcode, in numeric order.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$name,)*];

            /// The opcode with number `value`, if it is defined.
            #[inline]
            pub fn from_raw(value: u32) -> Option<Opcode> {
                match value {
                    $($val => Some(Opcode::$name),)*
                    _ => None,
                }
            }

            /// The fxc mnemonic (without modifiers).
            pub fn mnemonic(self) -> &'static str {
                match self {
                    $(Opcode::$name => $mn,)*
                }
            }

            /// How immediates of this instruction are printed.
            pub fn value_kind(self) -> ValueKind {
                match self {
                    $(Opcode::$name => ValueKind::$kind,)*
                }
            }
        }
    };
}

opcodes! {
    Add = 0, "add", Float;
    And = 1, "and", Bits;
    Break = 2, "break", None;
    Breakc = 3, "breakc", Uint;
    Call = 4, "call", None;
    Callc = 5, "callc", Uint;
    Case = 6, "case", Int;
    Continue = 7, "continue", None;
    Continuec = 8, "continuec", Uint;
    Cut = 9, "cut", None;
    Default = 10, "default", None;
    DerivRtx = 11, "deriv_rtx", Float;
    DerivRty = 12, "deriv_rty", Float;
    Discard = 13, "discard", Uint;
    Div = 14, "div", Float;
    Dp2 = 15, "dp2", Float;
    Dp3 = 16, "dp3", Float;
    Dp4 = 17, "dp4", Float;
    Else = 18, "else", None;
    Emit = 19, "emit", None;
    EmitThenCut = 20, "emit_then_cut", None;
    EndIf = 21, "endif", None;
    EndLoop = 22, "endloop", None;
    EndSwitch = 23, "endswitch", None;
    Eq = 24, "eq", Float;
    Exp = 25, "exp", Float;
    Frc = 26, "frc", Float;
    Ftoi = 27, "ftoi", Float;
    Ftou = 28, "ftou", Float;
    Ge = 29, "ge", Float;
    Iadd = 30, "iadd", Int;
    If = 31, "if", Uint;
    Ieq = 32, "ieq", Int;
    Ige = 33, "ige", Int;
    Ilt = 34, "ilt", Int;
    Imad = 35, "imad", Int;
    Imax = 36, "imax", Int;
    Imin = 37, "imin", Int;
    Imul = 38, "imul", Int;
    Ine = 39, "ine", Int;
    Ineg = 40, "ineg", Int;
    Ishl = 41, "ishl", Int;
    Ishr = 42, "ishr", Int;
    Itof = 43, "itof", Int;
    Label = 44, "label", None;
    Ld = 45, "ld", Int;
    LdMs = 46, "ldms", Int;
    Log = 47, "log", Float;
    Loop = 48, "loop", None;
    Lt = 49, "lt", Float;
    Mad = 50, "mad", Float;
    Min = 51, "min", Float;
    Max = 52, "max", Float;
    CustomData = 53, "customdata", None;
    Mov = 54, "mov", Any;
    Movc = 55, "movc", Any;
    Mul = 56, "mul", Float;
    Ne = 57, "ne", Float;
    Nop = 58, "nop", None;
    Not = 59, "not", Bits;
    Or = 60, "or", Bits;
    ResInfo = 61, "resinfo", Uint;
    Ret = 62, "ret", None;
    Retc = 63, "retc", Uint;
    RoundNe = 64, "round_ne", Float;
    RoundNi = 65, "round_ni", Float;
    RoundPi = 66, "round_pi", Float;
    RoundZ = 67, "round_z", Float;
    Rsq = 68, "rsq", Float;
    Sample = 69, "sample", Float;
    SampleC = 70, "sample_c", Float;
    SampleCLz = 71, "sample_c_lz", Float;
    SampleL = 72, "sample_l", Float;
    SampleD = 73, "sample_d", Float;
    SampleB = 74, "sample_b", Float;
    Sqrt = 75, "sqrt", Float;
    Switch = 76, "switch", Int;
    Sincos = 77, "sincos", Float;
    Udiv = 78, "udiv", Uint;
    Ult = 79, "ult", Uint;
    Uge = 80, "uge", Uint;
    Umul = 81, "umul", Uint;
    Umad = 82, "umad", Uint;
    Umax = 83, "umax", Uint;
    Umin = 84, "umin", Uint;
    Ushr = 85, "ushr", Uint;
    Utof = 86, "utof", Uint;
    Xor = 87, "xor", Bits;
    DclResource = 88, "dcl_resource", None;
    DclConstantBuffer = 89, "dcl_constantbuffer", None;
    DclSampler = 90, "dcl_sampler", None;
    DclIndexRange = 91, "dcl_indexrange", None;
    DclGsOutputPrimitiveTopology = 92, "dcl_outputtopology", None;
    DclGsInputPrimitive = 93, "dcl_inputprimitive", None;
    DclMaxOutputVertexCount = 94, "dcl_maxout", None;
    DclInput = 95, "dcl_input", None;
    DclInputSgv = 96, "dcl_input_sgv", None;
    DclInputSiv = 97, "dcl_input_siv", None;
    DclInputPs = 98, "dcl_input_ps", None;
    DclInputPsSgv = 99, "dcl_input_ps_sgv", None;
    DclInputPsSiv = 100, "dcl_input_ps_siv", None;
    DclOutput = 101, "dcl_output", None;
    DclOutputSgv = 102, "dcl_output_sgv", None;
    DclOutputSiv = 103, "dcl_output_siv", None;
    DclTemps = 104, "dcl_temps", None;
    DclIndexableTemp = 105, "dcl_indexableTemp", None;
    DclGlobalFlags = 106, "dcl_globalFlags", None;
    Lod = 108, "lod", Float;
    Gather4 = 109, "gather4", Float;
    SamplePos = 110, "samplepos", Int;
    SampleInfo = 111, "sampleinfo", None;
    HsDecls = 113, "hs_decls", None;
    HsControlPointPhase = 114, "hs_control_point_phase", None;
    HsForkPhase = 115, "hs_fork_phase", None;
    HsJoinPhase = 116, "hs_join_phase", None;
    EmitStream = 117, "emit_stream", None;
    CutStream = 118, "cut_stream", None;
    EmitThenCutStream = 119, "emit_then_cut_stream", None;
    InterfaceCall = 120, "fcall", None;
    BufInfo = 121, "bufinfo", None;
    DerivRtxCoarse = 122, "deriv_rtx_coarse", Float;
    DerivRtxFine = 123, "deriv_rtx_fine", Float;
    DerivRtyCoarse = 124, "deriv_rty_coarse", Float;
    DerivRtyFine = 125, "deriv_rty_fine", Float;
    Gather4C = 126, "gather4_c", Float;
    Gather4Po = 127, "gather4_po", Any;
    Gather4PoC = 128, "gather4_po_c", Any;
    Rcp = 129, "rcp", Float;
    F32toF16 = 130, "f32tof16", Float;
    F16toF32 = 131, "f16tof32", Uint;
    Uaddc = 132, "uaddc", Uint;
    Usubb = 133, "usubb", Uint;
    CountBits = 134, "countbits", Uint;
    FirstBitHi = 135, "firstbit_hi", Uint;
    FirstBitLo = 136, "firstbit_lo", Uint;
    FirstBitShi = 137, "firstbit_shi", Int;
    Ubfe = 138, "ubfe", Uint;
    Ibfe = 139, "ibfe", Int;
    Bfi = 140, "bfi", Uint;
    Bfrev = 141, "bfrev", Uint;
    Swapc = 142, "swapc", Any;
    DclStream = 143, "dcl_stream", None;
    DclFunctionBody = 144, "dcl_function_body", None;
    DclFunctionTable = 145, "dcl_function_table", None;
    DclInterface = 146, "dcl_interface", None;
    DclInputControlPointCount = 147, "dcl_input_control_point_count", None;
    DclOutputControlPointCount = 148, "dcl_output_control_point_count", None;
    DclTessDomain = 149, "dcl_tessellator_domain", None;
    DclTessPartitioning = 150, "dcl_tessellator_partitioning", None;
    DclTessOutputPrimitive = 151, "dcl_tessellator_output_primitive", None;
    DclHsMaxTessFactor = 152, "dcl_hs_max_tessfactor", None;
    DclHsForkPhaseInstanceCount = 153, "dcl_hs_fork_phase_instance_count", None;
    DclHsJoinPhaseInstanceCount = 154, "dcl_hs_join_phase_instance_count", None;
    DclThreadGroup = 155, "dcl_thread_group", None;
    DclUnorderedAccessViewTyped = 156, "dcl_uav_typed", None;
    DclUnorderedAccessViewRaw = 157, "dcl_uav_raw", None;
    DclUnorderedAccessViewStructured = 158, "dcl_uav_structured", None;
    DclThreadGroupSharedMemoryRaw = 159, "dcl_tgsm_raw", None;
    DclThreadGroupSharedMemoryStructured = 160, "dcl_tgsm_structured", None;
    DclResourceRaw = 161, "dcl_resource_raw", None;
    DclResourceStructured = 162, "dcl_resource_structured", None;
    LdUavTyped = 163, "ld_uav_typed", Uint;
    StoreUavTyped = 164, "store_uav_typed", Any;
    LdRaw = 165, "ld_raw", Uint;
    StoreRaw = 166, "store_raw", Any;
    LdStructured = 167, "ld_structured", Uint;
    StoreStructured = 168, "store_structured", Any;
    AtomicAnd = 169, "atomic_and", Any;
    AtomicOr = 170, "atomic_or", Any;
    AtomicXor = 171, "atomic_xor", Any;
    AtomicCmpStore = 172, "atomic_cmp_store", Any;
    AtomicIadd = 173, "atomic_iadd", Any;
    AtomicImax = 174, "atomic_imax", Any;
    AtomicImin = 175, "atomic_imin", Any;
    AtomicUmax = 176, "atomic_umax", Any;
    AtomicUmin = 177, "atomic_umin", Any;
    ImmAtomicAlloc = 178, "imm_atomic_alloc", Any;
    ImmAtomicConsume = 179, "imm_atomic_consume", Any;
    ImmAtomicIadd = 180, "imm_atomic_iadd", Any;
    ImmAtomicAnd = 181, "imm_atomic_and", Any;
    ImmAtomicOr = 182, "imm_atomic_or", Any;
    ImmAtomicXor = 183, "imm_atomic_xor", Any;
    ImmAtomicExch = 184, "imm_atomic_exch", Any;
    ImmAtomicCmpExch = 185, "imm_atomic_cmp_exch", Any;
    ImmAtomicImax = 186, "imm_atomic_imax", Any;
    ImmAtomicImin = 187, "imm_atomic_imin", Any;
    ImmAtomicUmax = 188, "imm_atomic_umax", Any;
    ImmAtomicUmin = 189, "imm_atomic_umin", Any;
    Sync = 190, "sync", None;
    Dadd = 191, "dadd", Double;
    Dmax = 192, "dmax", Double;
    Dmin = 193, "dmin", Double;
    Dmul = 194, "dmul", Double;
    Deq = 195, "deq", Double;
    Dge = 196, "dge", Double;
    Dlt = 197, "dlt", Double;
    Dne = 198, "dne", Double;
    Dmov = 199, "dmov", Double;
    Dmovc = 200, "dmovc", Double;
    Dtof = 201, "dtof", Double;
    Ftod = 202, "ftod", Float;
    EvalSnapped = 203, "eval_snapped", Int;
    EvalSampleIndex = 204, "eval_sample_index", Int;
    EvalCentroid = 205, "eval_centroid", None;
    DclGsInstanceCount = 206, "dcl_gsinstances", None;
    Abort = 207, "abort", None;
    DebugBreak = 208, "debug_break", None;
    Ddiv = 210, "ddiv", Double;
    Dfma = 211, "dfma", Double;
    Drcp = 212, "drcp", Double;
    Msad = 213, "msad", Uint;
    Dtoi = 214, "dtoi", Double;
    Dtou = 215, "dtou", Double;
    Itod = 216, "itod", Int;
    Utod = 217, "utod", Uint;
    Gather4Feedback = 219, "gather4_s", Float;
    Gather4CFeedback = 220, "gather4_c_s", Float;
    Gather4PoFeedback = 221, "gather4_po_s", Any;
    Gather4PoCFeedback = 222, "gather4_po_c_s", Any;
    LdFeedback = 223, "ld_s", Int;
    LdMsFeedback = 224, "ldms_s", Int;
    LdUavTypedFeedback = 225, "ld_uav_typed_s", Uint;
    LdRawFeedback = 226, "ld_raw_s", Uint;
    LdStructuredFeedback = 227, "ld_structured_s", Uint;
    SampleLFeedback = 228, "sample_l_s", Float;
    SampleCLzFeedback = 229, "sample_c_lz_s", Float;
    SampleClampFeedback = 230, "sample_cl_s", Float;
    SampleBClampFeedback = 231, "sample_b_cl_s", Float;
    SampleDClampFeedback = 232, "sample_d_cl_s", Float;
    SampleCClampFeedback = 233, "sample_c_cl_s", Float;
    CheckAccessFullyMapped = 234, "check_access_fully_mapped", Uint;
}

impl Opcode {
    /// Whether this is a declaration (`dcl_*`), whose operands and extra
    /// tokens follow per-declaration layouts.
    pub fn is_declaration(self) -> bool {
        let v = self as u16;
        (88..=106).contains(&v) || (143..=162).contains(&v) || v == 206
    }

    /// Whether bit 18 of the opcode token selects `_z` / `_nz`.
    pub fn has_test(self) -> bool {
        matches!(
            self,
            Opcode::If
                | Opcode::Breakc
                | Opcode::Continuec
                | Opcode::Retc
                | Opcode::Callc
                | Opcode::Discard
        )
    }
}
