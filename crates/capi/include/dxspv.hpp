/*
 * dxspv.hpp: a header-only C++ wrapper over the dxspv C API (dxspv.h). C++11 or later.
 *
 * Ownership: dxspv::Options and dxspv::Result own their C object through std::unique_ptr and free
 * it when destroyed; both move, Options also copies (dxspv_options_clone). Views returned by a
 * Result (spirv(), resources(), ...) point into it and live as long as it does.
 *
 * Errors are values, not exceptions: every operation returns a Result, and a shader dxspv refuses
 * is an ordinary outcome a translation layer handles (result.ok(), status(), message(), kind()).
 * Result::check() turns a failure into a dxspv::Error exception for code that prefers them. The
 * wrapper throws nothing else itself except std::bad_alloc when the library cannot create an
 * options object; built without exceptions (-fno-exceptions), those two places call std::abort().
 *
 * Threads: as the C API. An Options object may be shared by operations on many threads once set
 * up; a Result may be read by many threads at once.
 *
 *   dxspv::Options options;
 *   options.binding_shift(dxspv::RegisterClass::Srv, 16).verify_checksum(false);
 *   dxspv::Result r = dxspv::compile(bytes.data(), bytes.size(), options);
 *   if (!r) { log(r.message()); return; }
 *   create_shader_module(r.spirv().data(), r.spirv().size() * 4);
 *   for (const dxspv_resource_binding &b : r.resources()) { ... }
 */
#ifndef DXSPV_HPP
#define DXSPV_HPP

#include "dxspv.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
#define DXSPV_HPP_THROW(e) throw e
#else
#define DXSPV_HPP_THROW(e) std::abort()
#endif

namespace dxspv {

/** dxspv_status. */
enum class Status : std::uint32_t {
    Ok = DXSPV_OK,
    InvalidArgument = DXSPV_ERROR_INVALID_ARGUMENT,
    InvalidInput = DXSPV_ERROR_INVALID_INPUT,
    UnsupportedFeature = DXSPV_ERROR_UNSUPPORTED_FEATURE,
    UnsupportedFormat = DXSPV_ERROR_UNSUPPORTED_FORMAT,
    UnknownFormat = DXSPV_ERROR_UNKNOWN_FORMAT,
    Internal = DXSPV_ERROR_INTERNAL,
};

/** dxspv_format. */
enum class Format : std::uint32_t {
    Unknown = DXSPV_FORMAT_UNKNOWN,
    Dxbc = DXSPV_FORMAT_DXBC,
    Dxil = DXSPV_FORMAT_DXIL,
    D3d9 = DXSPV_FORMAT_D3D9,
};

/** dxspv_ir_stage. */
enum class IrStage : std::uint32_t {
    Raw = DXSPV_IR_STAGE_RAW,
    Lowered = DXSPV_IR_STAGE_LOWERED,
};

/** dxspv_min_precision. */
enum class MinPrecision : std::uint32_t {
    Promote32 = DXSPV_MIN_PRECISION_PROMOTE32,
    Native16 = DXSPV_MIN_PRECISION_NATIVE16,
};

/** dxspv_register_class. */
enum class RegisterClass : std::uint32_t {
    Cbv = DXSPV_REGISTER_CLASS_CBV,
    Srv = DXSPV_REGISTER_CLASS_SRV,
    Uav = DXSPV_REGISTER_CLASS_UAV,
    Sampler = DXSPV_REGISTER_CLASS_SAMPLER,
    UavCounter = DXSPV_REGISTER_CLASS_UAV_COUNTER,
};

/** dxspv_target_env: the environment a module is written for. */
enum class TargetEnv : std::uint32_t {
    Vulkan1_0 = DXSPV_TARGET_ENV_VULKAN1_0,
    Vulkan1_1 = DXSPV_TARGET_ENV_VULKAN1_1,
    Vulkan1_2 = DXSPV_TARGET_ENV_VULKAN1_2,
    Vulkan1_3 = DXSPV_TARGET_ENV_VULKAN1_3,
    Spirv1_0 = DXSPV_TARGET_ENV_SPIRV1_0,
    Spirv1_1 = DXSPV_TARGET_ENV_SPIRV1_1,
    Spirv1_2 = DXSPV_TARGET_ENV_SPIRV1_2,
    Spirv1_3 = DXSPV_TARGET_ENV_SPIRV1_3,
    Spirv1_4 = DXSPV_TARGET_ENV_SPIRV1_4,
    Spirv1_5 = DXSPV_TARGET_ENV_SPIRV1_5,
    Spirv1_6 = DXSPV_TARGET_ENV_SPIRV1_6,
};

/** dxspv_d3d9_texture_type: the texture a Direct3D 9 sampler is bound to. */
enum class D3d9TextureType : std::uint32_t {
    Unknown = DXSPV_D3D9_TEXTURE_TYPE_UNKNOWN,
    Texture1D = DXSPV_D3D9_TEXTURE_TYPE_1D,
    Texture2D = DXSPV_D3D9_TEXTURE_TYPE_2D,
    Cube = DXSPV_D3D9_TEXTURE_TYPE_CUBE,
    Volume = DXSPV_D3D9_TEXTURE_TYPE_VOLUME,
};

/** dxspv_d3d9_float_emulation: Direct3D 9's 0 * x = 0 rule. */
enum class D3d9FloatEmulation : std::uint32_t {
    Strict = DXSPV_D3D9_FLOAT_EMULATION_STRICT,
    Fast = DXSPV_D3D9_FLOAT_EMULATION_FAST,
    Off = DXSPV_D3D9_FLOAT_EMULATION_OFF,
};

/** The name of a target environment as spirv-val spells it ("vulkan1.2"); "" for none. */
inline const char *target_env_name(TargetEnv e) noexcept {
    const char *n = dxspv_target_env_name(static_cast<dxspv_target_env>(e));
    return n ? n : "";
}

/** The name of a status ("DXSPV_ERROR_INVALID_INPUT"). */
inline const char *status_name(Status s) noexcept {
    return dxspv_status_name(static_cast<dxspv_status>(s));
}

/** True when the loaded library has the ABI this header was written for. */
inline bool abi_matches() noexcept { return dxspv_abi_version() == DXSPV_ABI_VERSION; }

/** A read-only view of an array owned by a Result (C++11 has no std::span). */
template <typename T> class View {
public:
    View() noexcept : data_(nullptr), size_(0) {}
    View(const T *data, std::size_t size) noexcept : data_(size ? data : nullptr), size_(data ? size : 0) {}
    const T *data() const noexcept { return data_; }
    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    const T *begin() const noexcept { return data_; }
    const T *end() const noexcept { return data_ + size_; }
    const T &operator[](std::size_t i) const noexcept { return data_[i]; }
    std::vector<T> to_vector() const { return std::vector<T>(begin(), end()); }

private:
    const T *data_;
    std::size_t size_;
};

/** A failure as an exception (Result::check()). */
class Error : public std::runtime_error {
public:
    Error(Status status, const std::string &kind, const std::string &message)
        : std::runtime_error(message), status_(status), kind_(kind) {}
    Status status() const noexcept { return status_; }
    const std::string &kind() const noexcept { return kind_; }

private:
    Status status_;
    std::string kind_;
};

namespace detail {
struct OptionsDeleter {
    void operator()(dxspv_options *o) const noexcept { dxspv_options_free(o); }
};
struct ResultDeleter {
    void operator()(dxspv_result *r) const noexcept { dxspv_result_free(r); }
};
} // namespace detail

/** Options (dxspv_options): the defaults give correct D3D behaviour; setters chain. */
class Options {
public:
    Options() : handle_(dxspv_options_create()) {
        if (!handle_) {
            DXSPV_HPP_THROW(std::bad_alloc());
        }
    }
    Options(const Options &other) : handle_(dxspv_options_clone(other.get())) {
        if (!handle_) {
            DXSPV_HPP_THROW(std::bad_alloc());
        }
    }
    Options &operator=(const Options &other) {
        if (this != &other) {
            Options copy(other);
            handle_ = std::move(copy.handle_);
        }
        return *this;
    }
    Options(Options &&) noexcept = default;
    Options &operator=(Options &&) noexcept = default;

    Options &min_precision(MinPrecision m) {
        return check(dxspv_options_set_min_precision(get(), static_cast<dxspv_min_precision>(m)));
    }
    Options &preserve_legacy_mul_zero(bool v) { return check(dxspv_options_set_preserve_legacy_mul_zero(get(), v)); }
    Options &optimisations(bool v) { return check(dxspv_options_set_optimisations(get(), v)); }
    Options &constant_fold(bool v) { return check(dxspv_options_set_constant_fold(get(), v)); }
    Options &simplify_arith(bool v) { return check(dxspv_options_set_simplify_arith(get(), v)); }
    Options &cse(bool v) { return check(dxspv_options_set_cse(get(), v)); }
    Options &dce(bool v) { return check(dxspv_options_set_dce(get(), v)); }
    Options &cfg_cleanup(bool v) { return check(dxspv_options_set_cfg_cleanup(get(), v)); }
    Options &remove_unused_declarations(bool v) {
        return check(dxspv_options_set_remove_unused_declarations(get(), v));
    }
    Options &max_optimisation_rounds(std::uint32_t n) {
        return check(dxspv_options_set_max_optimisation_rounds(get(), n));
    }
    Options &validate_each_pass(bool v) { return check(dxspv_options_set_validate_each_pass(get(), v)); }
    Options &entry_point_name(const std::string &name) {
        return check(dxspv_options_set_entry_point_name(get(), name.c_str()));
    }
    Options &strip_debug_names(bool v) { return check(dxspv_options_set_strip_debug_names(get(), v)); }
    Options &binding_shift(RegisterClass c, std::uint32_t shift) {
        return check(dxspv_options_set_binding_shift(get(), static_cast<dxspv_register_class>(c), shift));
    }
    Options &descriptor_set_offset(std::uint32_t offset) {
        return check(dxspv_options_set_descriptor_set_offset(get(), offset));
    }
    Options &float_controls(bool v) { return check(dxspv_options_set_float_controls(get(), v)); }
    Options &vertex_point_size(bool v) { return check(dxspv_options_set_vertex_point_size(get(), v)); }
    Options &infer_non_uniform(bool v) { return check(dxspv_options_set_infer_non_uniform(get(), v)); }
    Options &verify_checksum(bool v) { return check(dxspv_options_set_verify_checksum(get(), v)); }
    Options &target_env(TargetEnv e) {
        return check(dxspv_options_set_target_env(get(), static_cast<dxspv_target_env>(e)));
    }
    Options &generator(std::uint32_t word) { return check(dxspv_options_set_generator(get(), word)); }
    Options &d3d9_sampler_type(std::uint32_t sampler, D3d9TextureType t) {
        return check(dxspv_options_set_d3d9_sampler_type(get(), sampler, static_cast<dxspv_d3d9_texture_type>(t)));
    }
    Options &d3d9_depth_compare_samplers(std::uint32_t mask) {
        return check(dxspv_options_set_d3d9_depth_compare_samplers(get(), mask));
    }
    Options &d3d9_flat_shading(bool v) { return check(dxspv_options_set_d3d9_flat_shading(get(), v)); }
    Options &d3d9_float_emulation(D3d9FloatEmulation m) {
        return check(dxspv_options_set_d3d9_float_emulation(get(), static_cast<dxspv_d3d9_float_emulation>(m)));
    }
    Options &d3d9_software_vertex_processing(bool v) {
        return check(dxspv_options_set_d3d9_software_vertex_processing(get(), v));
    }
    /** The fixed-function states emulated for the host to change: DXSPV_D3D9_DYNAMIC_*, OR-ed. */
    Options &d3d9_dynamic_state(dxspv_d3d9_dynamic_state states) {
        return check(dxspv_options_set_d3d9_dynamic_state(get(), states));
    }
    /** The class instances of the interface slots, slot by slot (copied; empty: none). */
    Options &class_linkage(const std::vector<dxspv_interface_binding> &bindings) {
        return check(dxspv_options_set_class_linkage(get(), bindings.data(), bindings.size()));
    }
    /** A stream-output declaration (copied, names included); see dxspv_options_set_stream_output. */
    Options &stream_output(const std::vector<dxspv_stream_output_entry> &entries,
                           const std::vector<std::uint32_t> &strides,
                           std::uint32_t rasterized_stream = 0) {
        return check(dxspv_options_set_stream_output(get(), entries.data(), entries.size(), strides.data(),
                                                     strides.size(), rasterized_stream));
    }
    Options &clear_stream_output() { return check(dxspv_options_clear_stream_output(get())); }

    /** The C object, for calls the wrapper does not cover. */
    dxspv_options *get() const noexcept { return handle_.get(); }

private:
    /* A setter fails only on an out-of-range value (a cast enum) or a name that is not UTF-8. */
    Options &check(dxspv_status s) {
        if (s != DXSPV_OK) {
            DXSPV_HPP_THROW(Error(static_cast<Status>(s), "invalid-argument",
                                  std::string("dxspv option: ") + dxspv_status_name(s)));
        }
        return *this;
    }
    std::unique_ptr<dxspv_options, detail::OptionsDeleter> handle_;
};

/** What an operation made (dxspv_result), or why it failed. */
class Result {
public:
    /** Takes ownership of a result from the C API. */
    explicit Result(dxspv_result *r) noexcept : handle_(r) {}

    bool ok() const noexcept { return status() == Status::Ok; }
    explicit operator bool() const noexcept { return ok(); }
    Status status() const noexcept { return static_cast<Status>(dxspv_result_status(get())); }
    /** What went wrong and where; "" on success. */
    std::string message() const { return str(dxspv_result_error_message(get())); }
    /** A short, stable category ("dxbc-container", "convert-unsupported", ...); "" on success. */
    std::string kind() const { return str(dxspv_result_error_kind(get())); }
    /** Throws Error when the operation failed; returns the result otherwise. */
    Result &check() & {
        if (!ok()) {
            DXSPV_HPP_THROW(Error(status(), kind(), message()));
        }
        return *this;
    }
    Result &&check() && { return std::move(check()); }

    /** The SPIR-V words (compile operations). */
    View<std::uint32_t> spirv() const noexcept {
        std::size_t n = 0;
        const std::uint32_t *p = dxspv_result_spirv(get(), &n);
        return View<std::uint32_t>(p, n);
    }
    /** The text (disassembly, IR text, reflection JSON), copied. */
    std::string text() const {
        std::size_t n = 0;
        const char *p = dxspv_result_text(get(), &n);
        return p ? std::string(p, n) : std::string();
    }
    /** The bytes (IR binary). */
    View<std::uint8_t> binary() const noexcept {
        std::size_t n = 0;
        const std::uint8_t *p = dxspv_result_binary(get(), &n);
        return View<std::uint8_t>(p, n);
    }
    /** The whole reflection; nullptr when the result has none. */
    const dxspv_reflection *reflection() const noexcept { return dxspv_result_reflection(get()); }
    View<dxspv_resource_binding> resources() const noexcept {
        const dxspv_reflection *r = reflection();
        return r ? View<dxspv_resource_binding>(r->resources, r->resource_count) : View<dxspv_resource_binding>();
    }
    View<dxspv_push_data_range> push_data() const noexcept {
        const dxspv_reflection *r = reflection();
        return r ? View<dxspv_push_data_range>(r->push_data, r->push_data_count) : View<dxspv_push_data_range>();
    }
    View<dxspv_spec_constant> spec_constants() const noexcept {
        const dxspv_reflection *r = reflection();
        return r ? View<dxspv_spec_constant>(r->spec_constants, r->spec_constant_count) : View<dxspv_spec_constant>();
    }
    View<dxspv_interface_variable> inputs() const noexcept {
        const dxspv_reflection *r = reflection();
        return r ? View<dxspv_interface_variable>(r->inputs, r->input_count) : View<dxspv_interface_variable>();
    }
    View<dxspv_interface_variable> outputs() const noexcept {
        const dxspv_reflection *r = reflection();
        return r ? View<dxspv_interface_variable>(r->outputs, r->output_count) : View<dxspv_interface_variable>();
    }
    /** The module's SPIR-V capabilities by name. */
    View<const char *> capabilities() const noexcept {
        const dxspv_reflection *r = reflection();
        return r ? View<const char *>(r->capabilities, r->capability_count) : View<const char *>();
    }
    /** The SPIR-V extensions the module uses. */
    View<const char *> extensions() const noexcept {
        const dxspv_reflection *r = reflection();
        return r ? View<const char *>(r->extensions, r->extension_count) : View<const char *>();
    }
    /** The warnings, one line each. */
    std::vector<std::string> warnings() const {
        std::vector<std::string> out;
        for (std::size_t i = 0, n = dxspv_result_warning_count(get()); i < n; i++) {
            out.push_back(str(dxspv_result_warning(get(), i)));
        }
        return out;
    }
    /** Time per stage (zero when the result is empty). */
    dxspv_stage_times times() const noexcept {
        const dxspv_stage_times *t = dxspv_result_times(get());
        return t ? *t : dxspv_stage_times();
    }
    /** The reflection as JSON, in a new text result. */
    Result reflection_json() const {
        dxspv_result *r = nullptr;
        dxspv_result_reflection_json(get(), &r);
        return Result(r);
    }

    dxspv_result *get() const noexcept { return handle_.get(); }
    /** Gives up ownership of the C object (free it with dxspv_result_free). */
    dxspv_result *release() noexcept { return handle_.release(); }

private:
    static std::string str(const char *s) { return s ? std::string(s) : std::string(); }
    std::unique_ptr<dxspv_result, detail::ResultDeleter> handle_;
};

namespace detail {
inline const dxspv_options *opt(const Options *o) noexcept { return o ? o->get() : nullptr; }
inline const std::uint8_t *bytes(const void *p) noexcept { return static_cast<const std::uint8_t *>(p); }
} // namespace detail

/** Compiles shader bytes to SPIR-V (dxspv_compile); default options when none are given. */
inline Result compile(const void *data, std::size_t size, const Options *options = nullptr) {
    dxspv_result *r = nullptr;
    dxspv_compile(detail::opt(options), detail::bytes(data), size, &r);
    return Result(r);
}
inline Result compile(const void *data, std::size_t size, const Options &options) {
    return compile(data, size, &options);
}

/** Compiles dxspv IR text to SPIR-V (dxspv_compile_ir_text). */
inline Result compile_ir_text(const std::string &text, const Options *options = nullptr) {
    dxspv_result *r = nullptr;
    dxspv_compile_ir_text(detail::opt(options), text.data(), text.size(), &r);
    return Result(r);
}

/** Compiles kept IR binary to SPIR-V (dxspv_compile_ir_binary). */
inline Result compile_ir_binary(const void *data, std::size_t size, IrStage stage,
                                const Options *options = nullptr) {
    dxspv_result *r = nullptr;
    dxspv_compile_ir_binary(detail::opt(options), detail::bytes(data), size,
                            static_cast<dxspv_ir_stage>(stage), &r);
    return Result(r);
}

/** The IR of a shader as text (dxspv_to_ir_text). */
inline Result to_ir_text(const void *data, std::size_t size, IrStage stage, const Options *options = nullptr) {
    dxspv_result *r = nullptr;
    dxspv_to_ir_text(detail::opt(options), detail::bytes(data), size, static_cast<dxspv_ir_stage>(stage), &r);
    return Result(r);
}

/** The IR of a shader as IR binary, for a shader cache (dxspv_to_ir_binary). */
inline Result to_ir_binary(const void *data, std::size_t size, IrStage stage, const Options *options = nullptr) {
    dxspv_result *r = nullptr;
    dxspv_to_ir_binary(detail::opt(options), detail::bytes(data), size, static_cast<dxspv_ir_stage>(stage), &r);
    return Result(r);
}

/** IR binary printed as IR text (dxspv_ir_binary_to_text). */
inline Result ir_binary_to_text(const void *data, std::size_t size) {
    dxspv_result *r = nullptr;
    dxspv_ir_binary_to_text(detail::bytes(data), size, &r);
    return Result(r);
}

/** Shader bytes in their own assembly syntax (dxspv_disassemble). */
inline Result disassemble(const void *data, std::size_t size) {
    dxspv_result *r = nullptr;
    dxspv_disassemble(detail::bytes(data), size, &r);
    return Result(r);
}

/** The format of shader bytes (dxspv_detect_format). */
inline Format detect_format(const void *data, std::size_t size) noexcept {
    return static_cast<Format>(dxspv_detect_format(detail::bytes(data), size));
}

} // namespace dxspv

#undef DXSPV_HPP_THROW

#endif /* DXSPV_HPP */
