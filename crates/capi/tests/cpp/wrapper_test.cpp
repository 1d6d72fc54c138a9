// Exercises include/dxspv.hpp against the installed library (run by tests/install.rs):
//   wrapper_test OUT_DIR SHADER...
// compiles each shader (DXBC or D3D9) with non-default options, Vulkan 1.2 among them, writes
// OUT_DIR/<n>.spv for spirv-val --target-env vulkan1.2, and checks
// the wrapper's ownership, errors and IR binary round trip. Prints one line per shader, then "ok".
#include <dxspv.hpp>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace {

int failures = 0;

void expect(bool condition, const std::string &what) {
    if (!condition) {
        std::fprintf(stderr, "FAILED: %s\n", what.c_str());
        failures++;
    }
}

std::vector<char> read(const char *path) {
    std::ifstream f(path, std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

void errors_are_values_and_check_throws() {
    const char garbage[] = "not a shader";
    dxspv::Result r = dxspv::compile(garbage, sizeof garbage);
    expect(!r && r.status() == dxspv::Status::UnknownFormat, "garbage is UnknownFormat");
    expect(r.kind() == "unknown-format", "kind of garbage: " + r.kind());
    expect(!r.message().empty() && r.spirv().empty() && !r.reflection(), "failure carries a message only");
    bool thrown = false;
    try {
        r.check();
    } catch (const dxspv::Error &e) {
        thrown = e.status() == dxspv::Status::UnknownFormat && e.kind() == "unknown-format" &&
                 std::string(e.what()) == r.message();
    }
    expect(thrown, "check() throws dxspv::Error with status, kind and message");
    dxspv::Result bad_ir = dxspv::compile_ir_text("%1 = NoSuchOp");
    expect(bad_ir.status() == dxspv::Status::InvalidInput && bad_ir.kind() == "ir-text", "bad IR text");
    expect(dxspv::compile(nullptr, 4).status() == dxspv::Status::InvalidArgument, "NULL data with a size");
}

void options_copy_and_move() {
    dxspv::Options a;
    a.descriptor_set_offset(3).entry_point_name("copied");
    dxspv::Options b = a;            // dxspv_options_clone
    b.descriptor_set_offset(5);
    dxspv::Options c = std::move(b); // ownership moves, nothing is freed twice
    expect(c.get() != nullptr && b.get() == nullptr, "moved-from Options is empty");
    dxspv::Options d;
    d = a;
    expect(d.get() != a.get(), "assignment copies");
    bool thrown = false;
    try {
        a.binding_shift(static_cast<dxspv::RegisterClass>(99), 1);
    } catch (const dxspv::Error &e) {
        thrown = e.status() == dxspv::Status::InvalidArgument;
    }
    expect(thrown, "an out-of-range register class throws InvalidArgument");
    thrown = false;
    try {
        dxspv_interface_binding past = {0, 14, 0, 0, 0}; // cb14: Direct3D has 14 slots
        a.class_linkage(std::vector<dxspv_interface_binding>(1, past));
    } catch (const dxspv::Error &e) {
        thrown = e.status() == dxspv::Status::InvalidArgument;
    }
    expect(thrown, "class linkage with a constant buffer past cb13 throws InvalidArgument");
    thrown = false;
    try {
        dxspv_stream_output_entry entry = {4, "TEXCOORD", 0, 0, 4, 0}; // stream 4 of 0-3
        a.stream_output(std::vector<dxspv_stream_output_entry>(1, entry), std::vector<std::uint32_t>(1, 16));
    } catch (const dxspv::Error &e) {
        thrown = e.status() == dxspv::Status::InvalidArgument;
    }
    expect(thrown, "a stream-output entry of stream 4 throws InvalidArgument");
    a.class_linkage(std::vector<dxspv_interface_binding>()).clear_stream_output();
}

bool compile_one(const char *path, const std::string &out_path) {
    std::vector<char> bytes = read(path);
    dxspv::Format format = dxspv::detect_format(bytes.data(), bytes.size());
    dxspv::Options options;
    options.binding_shift(dxspv::RegisterClass::Srv, 16).descriptor_set_offset(1).verify_checksum(true);
    // Vulkan 1.2: SPIR-V 1.5 (tests/install.rs validates the modules for vulkan1.2).
    options.target_env(dxspv::TargetEnv::Vulkan1_2);
    if (format == dxspv::Format::D3d9) {
        options.d3d9_flat_shading(true).d3d9_dynamic_state(DXSPV_D3D9_DYNAMIC_ALL).d3d9_sampler_type(0, dxspv::D3d9TextureType::Volume);
    }
    dxspv::Result r = dxspv::compile(bytes.data(), bytes.size(), options);
    if (!r) {
        std::fprintf(stderr, "%s: %s: %s\n", path, dxspv::status_name(r.status()), r.message().c_str());
        return false;
    }
    for (const dxspv_resource_binding &b : r.resources()) {
        if (b.register_class == DXSPV_REGISTER_CLASS_SRV) {
            expect(b.binding == b.register_index + 16, std::string(path) + ": SRV shift applied");
        }
        expect(b.set == b.space + 1, std::string(path) + ": set offset applied");
    }
    expect(r.reflection()->target_env == DXSPV_TARGET_ENV_VULKAN1_2 && r.spirv()[1] == 0x00010500u,
           std::string(path) + ": SPIR-V 1.5 for vulkan1.2");
    expect(std::string(dxspv::target_env_name(dxspv::TargetEnv::Vulkan1_2)) == "vulkan1.2", "target env name");
    bool shader_capability = false;
    for (const char *c : r.capabilities()) {
        shader_capability = shader_capability || std::string(c) == "Shader";
    }
    expect(shader_capability, std::string(path) + ": the Shader capability is listed");
    if (format == dxspv::Format::D3d9) {
        bool volume = false;
        for (const dxspv_resource_binding &b : r.resources()) {
            volume = volume || b.image.dim == DXSPV_IMAGE_DIM_3D;
        }
        expect(volume, std::string(path) + ": s0 is bound to a volume texture");
    }
    std::ofstream(out_path, std::ios::binary)
        .write(reinterpret_cast<const char *>(r.spirv().data()),
               static_cast<std::streamsize>(r.spirv().size() * sizeof(std::uint32_t)));

    // The shader-cache path: lowered IR as bytes, compiled later, gives a module as long.
    dxspv::Result kept = dxspv::to_ir_binary(bytes.data(), bytes.size(), dxspv::IrStage::Lowered, &options);
    expect(kept.ok() && !kept.binary().empty(), std::string(path) + ": IR binary");
    std::vector<std::uint8_t> cache = kept.binary().to_vector();
    dxspv::Result later = dxspv::compile_ir_binary(cache.data(), cache.size(), dxspv::IrStage::Lowered, &options);
    expect(later.ok() && later.spirv().size() == r.spirv().size(),
           std::string(path) + ": IR binary compiles to a module as long: " + later.message());
    expect(dxspv::ir_binary_to_text(cache.data(), cache.size()).text().find("EntryPoint") != std::string::npos,
           std::string(path) + ": IR binary prints as text");
    expect(r.reflection_json().text().find("\"resources\"") != std::string::npos,
           std::string(path) + ": reflection JSON");
    expect(dxspv::disassemble(bytes.data(), bytes.size()).ok(), std::string(path) + ": disassembles");
    expect(format == dxspv::Format::Dxbc || format == dxspv::Format::D3d9, std::string(path) + ": DXBC or D3D9");

    std::printf("%s: %zu words, %zu resources, %zu inputs, %zu outputs, %zu warnings\n", path,
                r.spirv().size(), r.resources().size(), r.inputs().size(), r.outputs().size(),
                r.warnings().size());
    return true;
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: wrapper_test OUT_DIR SHADER...\n");
        return 2;
    }
    expect(dxspv::abi_matches(), "ABI version");
    errors_are_values_and_check_throws();
    options_copy_and_move();
    for (int i = 2; i < argc; i++) {
        expect(compile_one(argv[i], std::string(argv[1]) + "/" + std::to_string(i - 2) + ".spv"), argv[i]);
    }
    if (failures) {
        std::fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    std::printf("ok\n");
    return 0;
}
