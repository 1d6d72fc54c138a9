//! The DXIL operations (`dx.op.*` calls): their opcode numbers and names, as the DXIL
//! specification's operation table lists them (SM 6.0 to 6.9), and the families the converter
//! refuses by name.

/// The name of every DXIL operation, indexed by opcode (`DxilConstants.h`'s `OpCode`).
pub const NAMES: [&str; 309] = [
    "TempRegLoad",
    "TempRegStore",
    "MinPrecXRegLoad",
    "MinPrecXRegStore",
    "LoadInput",
    "StoreOutput",
    "FAbs",
    "Saturate",
    "IsNaN",
    "IsInf",
    "IsFinite",
    "IsNormal",
    "Cos",
    "Sin",
    "Tan",
    "Acos",
    "Asin",
    "Atan",
    "Hcos",
    "Hsin",
    "Htan",
    "Exp",
    "Frc",
    "Log",
    "Sqrt",
    "Rsqrt",
    "Round_ne",
    "Round_ni",
    "Round_pi",
    "Round_z",
    "Bfrev",
    "Countbits",
    "FirstbitLo",
    "FirstbitHi",
    "FirstbitSHi",
    "FMax",
    "FMin",
    "IMax",
    "IMin",
    "UMax",
    "UMin",
    "IMul",
    "UMul",
    "UDiv",
    "UAddc",
    "USubb",
    "FMad",
    "Fma",
    "IMad",
    "UMad",
    "Msad",
    "Ibfe",
    "Ubfe",
    "Bfi",
    "Dot2",
    "Dot3",
    "Dot4",
    "CreateHandle",
    "CBufferLoad",
    "CBufferLoadLegacy",
    "Sample",
    "SampleBias",
    "SampleLevel",
    "SampleGrad",
    "SampleCmp",
    "SampleCmpLevelZero",
    "TextureLoad",
    "TextureStore",
    "BufferLoad",
    "BufferStore",
    "BufferUpdateCounter",
    "CheckAccessFullyMapped",
    "GetDimensions",
    "TextureGather",
    "TextureGatherCmp",
    "Texture2DMSGetSamplePosition",
    "RenderTargetGetSamplePosition",
    "RenderTargetGetSampleCount",
    "AtomicBinOp",
    "AtomicCompareExchange",
    "Barrier",
    "CalculateLOD",
    "Discard",
    "DerivCoarseX",
    "DerivCoarseY",
    "DerivFineX",
    "DerivFineY",
    "EvalSnapped",
    "EvalSampleIndex",
    "EvalCentroid",
    "SampleIndex",
    "Coverage",
    "InnerCoverage",
    "ThreadId",
    "GroupId",
    "ThreadIdInGroup",
    "FlattenedThreadIdInGroup",
    "EmitStream",
    "CutStream",
    "EmitThenCutStream",
    "GSInstanceID",
    "MakeDouble",
    "SplitDouble",
    "LoadOutputControlPoint",
    "LoadPatchConstant",
    "DomainLocation",
    "StorePatchConstant",
    "OutputControlPointID",
    "PrimitiveID",
    "CycleCounterLegacy",
    "WaveIsFirstLane",
    "WaveGetLaneIndex",
    "WaveGetLaneCount",
    "WaveAnyTrue",
    "WaveAllTrue",
    "WaveActiveAllEqual",
    "WaveActiveBallot",
    "WaveReadLaneAt",
    "WaveReadLaneFirst",
    "WaveActiveOp",
    "WaveActiveBit",
    "WavePrefixOp",
    "QuadReadLaneAt",
    "QuadOp",
    "BitcastI16toF16",
    "BitcastF16toI16",
    "BitcastI32toF32",
    "BitcastF32toI32",
    "BitcastI64toF64",
    "BitcastF64toI64",
    "LegacyF32ToF16",
    "LegacyF16ToF32",
    "LegacyDoubleToFloat",
    "LegacyDoubleToSInt32",
    "LegacyDoubleToUInt32",
    "WaveAllBitCount",
    "WavePrefixBitCount",
    "AttributeAtVertex",
    "ViewID",
    "RawBufferLoad",
    "RawBufferStore",
    "InstanceID",
    "InstanceIndex",
    "HitKind",
    "RayFlags",
    "DispatchRaysIndex",
    "DispatchRaysDimensions",
    "WorldRayOrigin",
    "WorldRayDirection",
    "ObjectRayOrigin",
    "ObjectRayDirection",
    "ObjectToWorld",
    "WorldToObject",
    "RayTMin",
    "RayTCurrent",
    "IgnoreHit",
    "AcceptHitAndEndSearch",
    "TraceRay",
    "ReportHit",
    "CallShader",
    "CreateHandleForLib",
    "PrimitiveIndex",
    "Dot2AddHalf",
    "Dot4AddI8Packed",
    "Dot4AddU8Packed",
    "WaveMatch",
    "WaveMultiPrefixOp",
    "WaveMultiPrefixBitCount",
    "SetMeshOutputCounts",
    "EmitIndices",
    "GetMeshPayload",
    "StoreVertexOutput",
    "StorePrimitiveOutput",
    "DispatchMesh",
    "WriteSamplerFeedback",
    "WriteSamplerFeedbackBias",
    "WriteSamplerFeedbackLevel",
    "WriteSamplerFeedbackGrad",
    "AllocateRayQuery",
    "RayQuery_TraceRayInline",
    "RayQuery_Proceed",
    "RayQuery_Abort",
    "RayQuery_CommitNonOpaqueTriangleHit",
    "RayQuery_CommitProceduralPrimitiveHit",
    "RayQuery_CommittedStatus",
    "RayQuery_CandidateType",
    "RayQuery_CandidateObjectToWorld3x4",
    "RayQuery_CandidateWorldToObject3x4",
    "RayQuery_CommittedObjectToWorld3x4",
    "RayQuery_CommittedWorldToObject3x4",
    "RayQuery_CandidateProceduralPrimitiveNonOpaque",
    "RayQuery_CandidateTriangleFrontFace",
    "RayQuery_CommittedTriangleFrontFace",
    "RayQuery_CandidateTriangleBarycentrics",
    "RayQuery_CommittedTriangleBarycentrics",
    "RayQuery_RayFlags",
    "RayQuery_WorldRayOrigin",
    "RayQuery_WorldRayDirection",
    "RayQuery_RayTMin",
    "RayQuery_CandidateTriangleRayT",
    "RayQuery_CommittedRayT",
    "RayQuery_CandidateInstanceIndex",
    "RayQuery_CandidateInstanceID",
    "RayQuery_CandidateGeometryIndex",
    "RayQuery_CandidatePrimitiveIndex",
    "RayQuery_CandidateObjectRayOrigin",
    "RayQuery_CandidateObjectRayDirection",
    "RayQuery_CommittedInstanceIndex",
    "RayQuery_CommittedInstanceID",
    "RayQuery_CommittedGeometryIndex",
    "RayQuery_CommittedPrimitiveIndex",
    "RayQuery_CommittedObjectRayOrigin",
    "RayQuery_CommittedObjectRayDirection",
    "GeometryIndex",
    "RayQuery_CandidateInstanceContributionToHitGroupIndex",
    "RayQuery_CommittedInstanceContributionToHitGroupIndex",
    "AnnotateHandle",
    "CreateHandleFromBinding",
    "CreateHandleFromHeap",
    "Unpack4x8",
    "Pack4x8",
    "IsHelperLane",
    "QuadVote",
    "TextureGatherRaw",
    "SampleCmpLevel",
    "TextureStoreSample",
    "Reserved0",
    "Reserved1",
    "Reserved2",
    "Reserved3",
    "Reserved4",
    "Reserved5",
    "Reserved6",
    "Reserved7",
    "Reserved8",
    "Reserved9",
    "Reserved10",
    "Reserved11",
    "AllocateNodeOutputRecords",
    "GetNodeRecordPtr",
    "IncrementOutputCount",
    "OutputComplete",
    "GetInputRecordCount",
    "FinishedCrossGroupSharing",
    "BarrierByMemoryType",
    "BarrierByMemoryHandle",
    "BarrierByNodeRecordHandle",
    "CreateNodeOutputHandle",
    "IndexNodeHandle",
    "AnnotateNodeHandle",
    "CreateNodeInputRecordHandle",
    "AnnotateNodeRecordHandle",
    "NodeOutputIsValid",
    "GetRemainingRecursionLevels",
    "SampleCmpGrad",
    "SampleCmpBias",
    "StartVertexLocation",
    "StartInstanceLocation",
    "AllocateRayQuery2",
    "ReservedA0",
    "ReservedA1",
    "ReservedA2",
    "HitObject_TraceRay",
    "HitObject_FromRayQuery",
    "HitObject_FromRayQueryWithAttrs",
    "HitObject_MakeMiss",
    "HitObject_MakeNop",
    "HitObject_Invoke",
    "MaybeReorderThread",
    "HitObject_IsMiss",
    "HitObject_IsHit",
    "HitObject_IsNop",
    "HitObject_RayFlags",
    "HitObject_RayTMin",
    "HitObject_RayTCurrent",
    "HitObject_WorldRayOrigin",
    "HitObject_WorldRayDirection",
    "HitObject_ObjectRayOrigin",
    "HitObject_ObjectRayDirection",
    "HitObject_ObjectToWorld3x4",
    "HitObject_WorldToObject3x4",
    "HitObject_GeometryIndex",
    "HitObject_InstanceIndex",
    "HitObject_InstanceID",
    "HitObject_PrimitiveIndex",
    "HitObject_HitKind",
    "HitObject_ShaderTableIndex",
    "HitObject_SetShaderTableIndex",
    "HitObject_LoadLocalRootTableConstant",
    "HitObject_Attributes",
    "ReservedB28",
    "ReservedB29",
    "ReservedB30",
    "ReservedC0",
    "ReservedC1",
    "ReservedC2",
    "ReservedC3",
    "ReservedC4",
    "ReservedC5",
    "ReservedC6",
    "ReservedC7",
    "ReservedC8",
    "ReservedC9",
    "RawBufferVectorLoad",
    "RawBufferVectorStore",
    "MatVecMul",
    "MatVecMulAdd",
    "OuterProductAccumulate",
    "VectorAccumulate",
];

/// The name of DXIL operation `code` (`"unknown"` past the table).
pub fn name(code: u32) -> &'static str {
    NAMES.get(code as usize).copied().unwrap_or("unknown")
}

/// Opcode numbers of the operations the converter handles.
#[allow(missing_docs)]
pub mod code {
    pub const LOAD_INPUT: u32 = 4;
    pub const STORE_OUTPUT: u32 = 5;
    pub const FABS: u32 = 6;
    pub const SATURATE: u32 = 7;
    pub const IS_NAN: u32 = 8;
    pub const IS_INF: u32 = 9;
    pub const IS_FINITE: u32 = 10;
    pub const IS_NORMAL: u32 = 11;
    pub const COS: u32 = 12;
    pub const SIN: u32 = 13;
    pub const TAN: u32 = 14;
    pub const ACOS: u32 = 15;
    pub const ASIN: u32 = 16;
    pub const ATAN: u32 = 17;
    pub const HCOS: u32 = 18;
    pub const HSIN: u32 = 19;
    pub const HTAN: u32 = 20;
    pub const EXP: u32 = 21;
    pub const FRC: u32 = 22;
    pub const LOG: u32 = 23;
    pub const SQRT: u32 = 24;
    pub const RSQRT: u32 = 25;
    pub const ROUND_NE: u32 = 26;
    pub const ROUND_NI: u32 = 27;
    pub const ROUND_PI: u32 = 28;
    pub const ROUND_Z: u32 = 29;
    pub const BFREV: u32 = 30;
    pub const COUNTBITS: u32 = 31;
    pub const FIRSTBIT_LO: u32 = 32;
    pub const FIRSTBIT_HI: u32 = 33;
    pub const FIRSTBIT_SHI: u32 = 34;
    pub const FMAX: u32 = 35;
    pub const FMIN: u32 = 36;
    pub const IMAX: u32 = 37;
    pub const IMIN: u32 = 38;
    pub const UMAX: u32 = 39;
    pub const UMIN: u32 = 40;
    pub const IMUL: u32 = 41;
    pub const UMUL: u32 = 42;
    pub const UDIV: u32 = 43;
    pub const UADDC: u32 = 44;
    pub const USUBB: u32 = 45;
    pub const FMAD: u32 = 46;
    pub const FMA: u32 = 47;
    pub const IMAD: u32 = 48;
    pub const UMAD: u32 = 49;
    pub const MSAD: u32 = 50;
    pub const IBFE: u32 = 51;
    pub const UBFE: u32 = 52;
    pub const BFI: u32 = 53;
    pub const DOT2: u32 = 54;
    pub const DOT3: u32 = 55;
    pub const DOT4: u32 = 56;
    pub const CREATE_HANDLE: u32 = 57;
    pub const CBUFFER_LOAD: u32 = 58;
    pub const CBUFFER_LOAD_LEGACY: u32 = 59;
    pub const SAMPLE: u32 = 60;
    pub const SAMPLE_BIAS: u32 = 61;
    pub const SAMPLE_LEVEL: u32 = 62;
    pub const SAMPLE_GRAD: u32 = 63;
    pub const SAMPLE_CMP: u32 = 64;
    pub const SAMPLE_CMP_LEVEL_ZERO: u32 = 65;
    pub const TEXTURE_LOAD: u32 = 66;
    pub const TEXTURE_STORE: u32 = 67;
    pub const BUFFER_LOAD: u32 = 68;
    pub const BUFFER_STORE: u32 = 69;
    pub const BUFFER_UPDATE_COUNTER: u32 = 70;
    pub const CHECK_ACCESS_FULLY_MAPPED: u32 = 71;
    pub const GET_DIMENSIONS: u32 = 72;
    pub const TEXTURE_GATHER: u32 = 73;
    pub const TEXTURE_GATHER_CMP: u32 = 74;
    pub const TEXTURE_2DMS_GET_SAMPLE_POSITION: u32 = 75;
    pub const RENDER_TARGET_GET_SAMPLE_POSITION: u32 = 76;
    pub const RENDER_TARGET_GET_SAMPLE_COUNT: u32 = 77;
    pub const ATOMIC_BIN_OP: u32 = 78;
    pub const ATOMIC_COMPARE_EXCHANGE: u32 = 79;
    pub const BARRIER: u32 = 80;
    pub const CALCULATE_LOD: u32 = 81;
    pub const DISCARD: u32 = 82;
    pub const DERIV_COARSE_X: u32 = 83;
    pub const DERIV_COARSE_Y: u32 = 84;
    pub const DERIV_FINE_X: u32 = 85;
    pub const DERIV_FINE_Y: u32 = 86;
    pub const EVAL_SNAPPED: u32 = 87;
    pub const EVAL_SAMPLE_INDEX: u32 = 88;
    pub const EVAL_CENTROID: u32 = 89;
    pub const SAMPLE_INDEX: u32 = 90;
    pub const COVERAGE: u32 = 91;
    pub const INNER_COVERAGE: u32 = 92;
    pub const THREAD_ID: u32 = 93;
    pub const GROUP_ID: u32 = 94;
    pub const THREAD_ID_IN_GROUP: u32 = 95;
    pub const FLATTENED_THREAD_ID_IN_GROUP: u32 = 96;
    pub const EMIT_STREAM: u32 = 97;
    pub const CUT_STREAM: u32 = 98;
    pub const EMIT_THEN_CUT_STREAM: u32 = 99;
    pub const GS_INSTANCE_ID: u32 = 100;
    pub const MAKE_DOUBLE: u32 = 101;
    pub const SPLIT_DOUBLE: u32 = 102;
    pub const LOAD_OUTPUT_CONTROL_POINT: u32 = 103;
    pub const LOAD_PATCH_CONSTANT: u32 = 104;
    pub const DOMAIN_LOCATION: u32 = 105;
    pub const STORE_PATCH_CONSTANT: u32 = 106;
    pub const OUTPUT_CONTROL_POINT_ID: u32 = 107;
    pub const PRIMITIVE_ID: u32 = 108;
    pub const CYCLE_COUNTER_LEGACY: u32 = 109;
    pub const WAVE_IS_FIRST_LANE: u32 = 110;
    pub const WAVE_GET_LANE_INDEX: u32 = 111;
    pub const WAVE_GET_LANE_COUNT: u32 = 112;
    pub const WAVE_ANY_TRUE: u32 = 113;
    pub const WAVE_ALL_TRUE: u32 = 114;
    pub const WAVE_ACTIVE_ALL_EQUAL: u32 = 115;
    pub const WAVE_ACTIVE_BALLOT: u32 = 116;
    pub const WAVE_READ_LANE_AT: u32 = 117;
    pub const WAVE_READ_LANE_FIRST: u32 = 118;
    pub const WAVE_ACTIVE_OP: u32 = 119;
    pub const WAVE_ACTIVE_BIT: u32 = 120;
    pub const WAVE_PREFIX_OP: u32 = 121;
    pub const QUAD_READ_LANE_AT: u32 = 122;
    pub const QUAD_OP: u32 = 123;
    pub const BITCAST_I16_TO_F16: u32 = 124;
    pub const BITCAST_F64_TO_I64: u32 = 129;
    pub const LEGACY_F32_TO_F16: u32 = 130;
    pub const LEGACY_F16_TO_F32: u32 = 131;
    pub const LEGACY_DOUBLE_TO_FLOAT: u32 = 132;
    pub const LEGACY_DOUBLE_TO_SINT32: u32 = 133;
    pub const LEGACY_DOUBLE_TO_UINT32: u32 = 134;
    pub const WAVE_ALL_BIT_COUNT: u32 = 135;
    pub const WAVE_PREFIX_BIT_COUNT: u32 = 136;
    pub const ATTRIBUTE_AT_VERTEX: u32 = 137;
    pub const VIEW_ID: u32 = 138;
    pub const RAW_BUFFER_LOAD: u32 = 139;
    pub const RAW_BUFFER_STORE: u32 = 140;
    pub const CREATE_HANDLE_FOR_LIB: u32 = 160;
    pub const DOT2_ADD_HALF: u32 = 162;
    pub const DOT4_ADD_I8_PACKED: u32 = 163;
    pub const DOT4_ADD_U8_PACKED: u32 = 164;
    pub const WAVE_MATCH: u32 = 165;
    pub const WAVE_MULTI_PREFIX_OP: u32 = 166;
    pub const WAVE_MULTI_PREFIX_BIT_COUNT: u32 = 167;
    pub const SET_MESH_OUTPUT_COUNTS: u32 = 168;
    pub const EMIT_INDICES: u32 = 169;
    pub const GET_MESH_PAYLOAD: u32 = 170;
    pub const STORE_VERTEX_OUTPUT: u32 = 171;
    pub const STORE_PRIMITIVE_OUTPUT: u32 = 172;
    pub const DISPATCH_MESH: u32 = 173;
    pub const WRITE_SAMPLER_FEEDBACK: u32 = 174;
    pub const WRITE_SAMPLER_FEEDBACK_BIAS: u32 = 175;
    pub const WRITE_SAMPLER_FEEDBACK_LEVEL: u32 = 176;
    pub const WRITE_SAMPLER_FEEDBACK_GRAD: u32 = 177;
    pub const ANNOTATE_HANDLE: u32 = 216;
    pub const CREATE_HANDLE_FROM_BINDING: u32 = 217;
    pub const CREATE_HANDLE_FROM_HEAP: u32 = 218;
    pub const UNPACK_4X8: u32 = 219;
    pub const PACK_4X8: u32 = 220;
    pub const IS_HELPER_LANE: u32 = 221;
    pub const QUAD_VOTE: u32 = 222;
    pub const TEXTURE_GATHER_RAW: u32 = 223;
    pub const SAMPLE_CMP_LEVEL: u32 = 224;
    pub const TEXTURE_STORE_SAMPLE: u32 = 225;
    pub const BARRIER_BY_MEMORY_TYPE: u32 = 244;
    pub const BARRIER_BY_MEMORY_HANDLE: u32 = 245;
    pub const SAMPLE_CMP_GRAD: u32 = 254;
    pub const SAMPLE_CMP_BIAS: u32 = 255;
    pub const START_VERTEX_LOCATION: u32 = 256;
    pub const START_INSTANCE_LOCATION: u32 = 257;
}

/// Why an operation the converter has no conversion for is refused: the family it belongs
/// to, named so that refusals can be counted (the corpus test does).
pub fn refusal(code: u32) -> &'static str {
    match code {
        0..=3 => "DXBC-conversion helper operations (TempReg/MinPrecXReg)",
        109 => "the cycle counter (CycleCounterLegacy)",
        141..=159 | 161 | 213 | 262..=289 => "ray tracing operations",
        160 => "DXIL library resources (CreateHandleForLib)",
        178..=212 | 214 | 215 | 258 => "inline ray tracing (RayQuery)",
        238..=243 | 246..=253 => "work graph operations",
        303..=308 => "experimental operations (long vectors, cooperative vectors)",
        226..=237 | 259..=261 | 290..=302 => "reserved operations",
        _ => "this DXIL operation",
    }
}
