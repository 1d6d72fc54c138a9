//! The library as a C or C++ program meets it: `scripts/install-lib.sh` builds and installs it
//! into a temporary prefix; `examples/c/compile.c` is built with
//! `cc $(pkg-config --cflags --libs dxspv)` (and once against `libdxspv.a`) and run on corpus
//! shaders, one per stage; its SPIR-V must be the bytes `dxspv::compile` gives, accepted by
//! `spirv-val`, and the reflection it prints must be the Rust library's. The C++ wrapper test
//! (`tests/cpp/wrapper_test.cpp`) is built with `g++` as C++11 and C++17 and run on the same
//! shaders.
//!
//! Needs bash, cc, g++ and pkg-config; says so and returns when one is missing. Without the
//! corpus it runs on a shader built by hand.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv::spirv::{InterfaceVariable, Reflection};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "../src/test_shaders.rs"]
#[allow(dead_code)]
mod test_shaders;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

/// Runs `cmd`, failing the test with its output when it does not succeed.
#[track_caller]
fn run_ok(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A temporary folder, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("dxspv-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// How `compile.c` names a component kind.
fn scalar_name(k: dxspv::spirv::ScalarKind) -> &'static str {
    match k {
        dxspv::spirv::ScalarKind::Float => "float",
        dxspv::spirv::ScalarKind::Sint => "int",
        dxspv::spirv::ScalarKind::Uint => "uint",
        dxspv::spirv::ScalarKind::Bool => "bool",
    }
}

/// The reflection lines `compile.c` prints, made from the Rust library's reflection.
fn expected_reflection(r: &Reflection) -> String {
    use dxspv::spirv::{DescriptorType as D, ImageDim, RegisterClass as C, SpecConstantKind};
    // The DXSPV_SHADER_STAGE_* codes are D3D11_SHADER_VERSION_TYPE's.
    let stage = r.stage.map_or(u64::from(u32::MAX), |s| s.to_literal());
    let vk_stage = match r.execution_model() {
        Some("Vertex") => 0x1,
        Some("TessellationControl") => 0x2,
        Some("TessellationEvaluation") => 0x4,
        Some("Geometry") => 0x8,
        Some("Fragment") => 0x10,
        Some("GLCompute") => 0x20,
        Some("TaskEXT") => 0x40,
        Some("MeshEXT") => 0x80,
        _ => 0,
    };
    let [x, y, z] = r.workgroup_size.unwrap_or([0; 3]);
    let mut s = format!(
        "stage {stage} (Vulkan stage bit {vk_stage:#x}, {}) entry {} target {} workgroup {x} {y} {z}\n",
        r.execution_model().unwrap_or("?"),
        r.entry_point,
        r.target_env.name()
    );
    s.push_str("capabilities:");
    for c in &r.capabilities {
        let _ = write!(s, " {c}");
    }
    s.push_str("\nextensions:");
    for e in &r.extensions {
        let _ = write!(s, " {e}");
    }
    let _ = writeln!(s, "\nresources: {}", r.resources.len());
    for b in &r.resources {
        let letter = match b.class {
            C::Cbv => "b",
            C::Srv => "t",
            C::Uav => "u",
            C::Sampler => "s",
            C::UavCounter => "counter of u",
        };
        let ty = match b.descriptor_type {
            D::Sampler => "SAMPLER",
            D::SampledImage => "SAMPLED_IMAGE",
            D::StorageImage => "STORAGE_IMAGE",
            D::UniformTexelBuffer => "UNIFORM_TEXEL_BUFFER",
            D::StorageTexelBuffer => "STORAGE_TEXEL_BUFFER",
            D::UniformBuffer => "UNIFORM_BUFFER",
            D::StorageBuffer => "STORAGE_BUFFER",
        };
        let _ = write!(
            s,
            "  {letter}{} space {} -> set {} binding {} {ty} count {}",
            b.register, b.space, b.set, b.binding, b.count
        );
        if let Some(name) = &b.name {
            let _ = write!(s, " \"{name}\"");
        }
        if let Some(i) = &b.image {
            let dim = match i.dim {
                ImageDim::Buffer => "Buffer",
                ImageDim::Dim1D => "1D",
                ImageDim::Dim2D => "2D",
                ImageDim::Dim3D => "3D",
                ImageDim::Cube => "Cube",
            };
            // VkFormat values.
            let format = match i.format {
                dxspv::spirv::ImageFormat::Unknown => 0,
                dxspv::spirv::ImageFormat::R32ui => 98,
                dxspv::spirv::ImageFormat::R32i => 99,
                dxspv::spirv::ImageFormat::R32f => 100,
                dxspv::spirv::ImageFormat::R64ui => 110,
                dxspv::spirv::ImageFormat::R64i => 111,
            };
            let _ = write!(
                s,
                " image {dim}{}{} {} format {format}",
                if i.arrayed { " array" } else { "" },
                if i.multisampled { " ms" } else { "" },
                scalar_name(i.sampled_type)
            );
        }
        if let Some(size) = b.size {
            let _ = write!(s, " size {size}");
        }
        if let Some(stride) = b.stride {
            let _ = write!(s, " stride {stride}");
        }
        s.push_str(if b.comparison { " comparison\n" } else { "\n" });
    }
    let _ = writeln!(s, "push data: {}", r.push_data.len());
    for p in &r.push_data {
        let _ = writeln!(s, "  offset {} size {}", p.offset, p.size);
    }
    let _ = writeln!(s, "spec constants: {}", r.spec_constants.len());
    for c in &r.spec_constants {
        let tag = if c.kind == SpecConstantKind::SampleCount {
            " (sample count)"
        } else {
            ""
        };
        let _ = writeln!(s, "  id {} default {}{tag}", c.spec_id, c.default);
    }
    let interface = |s: &mut String, what: &str, vars: &[InterfaceVariable]| {
        let _ = writeln!(s, "{what}: {}", vars.len());
        for v in vars {
            match v.location {
                None => {
                    let _ = write!(s, "  builtin {}", v.builtin.unwrap_or("?"));
                }
                Some(l) => {
                    let _ = write!(s, "  location {l} component {}", v.component);
                }
            }
            if let Some((name, index)) = &v.semantic {
                let _ = write!(s, " semantic {name}{index}");
            }
            let _ = write!(s, " {}{}x{}", scalar_name(v.scalar), v.bits, v.components);
            for n in &v.array {
                let _ = write!(s, "[{n}]");
            }
            s.push_str(if v.patch { " patch\n" } else { "\n" });
        }
    };
    interface(&mut s, "inputs", &r.inputs);
    interface(&mut s, "outputs", &r.outputs);
    s
}

/// Shaders to run: one per stage from the corpus (the first in path order that the Rust
/// library compiles), or the hand-made compute shader without a corpus.
fn shaders(dir: &Path) -> Vec<PathBuf> {
    let Some(corpus) = dxspv_testkit::Corpus::open() else {
        let path = dir.join("tiny_cs.dxbc");
        std::fs::write(&path, test_shaders::tiny_compute_shader()).unwrap();
        return vec![path];
    };
    let entries = corpus.of_format("dxbc");
    let mut picked = Vec::new();
    for stage in ["vs", "ps", "gs", "hs", "ds", "cs"] {
        let entry = entries.iter().find(|e| {
            e.stage == stage
                && e.detail_str("checksum") == Some("valid")
                && dxspv::compile(&corpus.read(e), &dxspv::Options::default()).is_ok_and(|o| {
                    !o.reflection.resources.is_empty() || stage == "hs" || stage == "ds"
                })
        });
        if let Some(e) = entry {
            picked.push(corpus.path(e));
        }
    }
    assert!(
        picked.len() >= 5,
        "the corpus has shaders of every stage: {picked:?}"
    );
    picked
}

/// A `ps_1_x` corpus shader that samples `s0` (whose texture type only the options give), or
/// None without the corpus.
fn d3d9_sampling_shader() -> Option<PathBuf> {
    let Some(corpus) = dxspv_testkit::Corpus::open() else {
        println!("no corpus: the Direct3D 9 options run is skipped");
        return None;
    };
    let entry = corpus.of_format("d3d9").into_iter().find(|e| {
        e.stage == "ps"
            && e.model.starts_with("1_")
            && dxspv::compile(&corpus.read(e), &dxspv::Options::default()).is_ok_and(|o| {
                o.reflection
                    .resources
                    .iter()
                    .any(|r| r.register == 0 && r.image.is_some())
            })
    });
    assert!(
        entry.is_some(),
        "the corpus has a ps_1_x shader sampling s0"
    );
    entry.map(|e| corpus.path(e))
}

/// Checks one run of the example on `shader`: the SPIR-V file, `spirv-val`, the reflection.
fn check_example_output(shader: &Path, spv: &Path, out: &Output, opts: &dxspv::Options) {
    let bytes = std::fs::read(shader).unwrap();
    let expected = dxspv::compile(&bytes, opts).unwrap();
    let words: Vec<u8> = expected
        .spirv
        .iter()
        .flat_map(|w| w.to_ne_bytes())
        .collect();
    let written = std::fs::read(spv).unwrap();
    assert!(
        written == words,
        "{}: the example wrote other SPIR-V than dxspv::compile",
        shader.display()
    );
    let env = opts.spirv.target_env.name();
    match dxspv_testkit::spirv_val_with(&expected.spirv, &["--target-env", env]) {
        None => println!("spirv-val not installed: validation skipped"),
        Some(verdict) => verdict
            .unwrap_or_else(|e| panic!("{}: spirv-val --target-env {env}: {e}", shader.display())),
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let (first, reflection) = stdout.split_once('\n').unwrap();
    let format = dxspv::detect_format(&bytes).to_string();
    assert!(
        first.contains(&format!(
            "{} SPIR-V words from {format}",
            expected.spirv.len()
        )),
        "{first}"
    );
    assert_eq!(
        reflection,
        expected_reflection(&expected.reflection),
        "{}",
        shader.display()
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn installed_library_serves_c_and_cpp_programs() {
    for tool in ["bash", "cc", "g++", "pkg-config"] {
        if !have(tool) {
            println!("{tool} not installed: the install test is skipped");
            return;
        }
    }
    let tmp = TempDir::new("install");
    let prefix = tmp.0.join("prefix");
    let root = repo_root();

    // Install with the script, from the profile this test was built with (so cargo finds
    // everything built already).
    let profile = if cfg!(debug_assertions) {
        "dev"
    } else {
        "release"
    };
    let install = run_ok(
        Command::new("bash")
            .arg(root.join("scripts/install-lib.sh"))
            .arg("--prefix")
            .arg(&prefix)
            .args(["--profile", profile]),
    );
    println!("{}", String::from_utf8_lossy(&install.stdout));
    for file in [
        "lib/libdxspv.so.3",
        "lib/libdxspv.so",
        "lib/libdxspv.a",
        "include/dxspv.h",
        "include/dxspv.hpp",
        "lib/pkgconfig/dxspv.pc",
    ] {
        assert!(prefix.join(file).exists(), "{file} is not installed");
    }
    assert_eq!(
        std::fs::read_link(prefix.join("lib/libdxspv.so")).unwrap(),
        Path::new("libdxspv.so.3")
    );
    if have("readelf") {
        let dynamic = run_ok(
            Command::new("readelf")
                .arg("-d")
                .arg(prefix.join("lib/libdxspv.so.3")),
        );
        assert!(
            String::from_utf8_lossy(&dynamic.stdout).contains("Library soname: [libdxspv.so.3]")
        );
    }
    let pkg_path = prefix.join("lib/pkgconfig");
    let version = run_ok(
        Command::new("pkg-config")
            .args(["--modversion", "dxspv"])
            .env("PKG_CONFIG_PATH", &pkg_path),
    );
    assert_eq!(
        String::from_utf8_lossy(&version.stdout).trim(),
        env!("CARGO_PKG_VERSION")
    );

    // Build the C example and the C++ wrapper test the documented way.
    let build = |name: &str, line: &str| {
        let exe = tmp.0.join(name);
        run_ok(
            Command::new("sh")
                .arg("-c")
                .arg(format!("{line} -o \"$OUT\""))
                .env("PKG_CONFIG_PATH", &pkg_path)
                .env("OUT", &exe)
                .env("ROOT", &root),
        );
        exe
    };
    let strict = "-Wall -Wextra -Wpedantic -Werror";
    let compile = build("compile", &format!("cc -std=c99 {strict} \"$ROOT/examples/c/compile.c\" $(pkg-config --cflags --libs dxspv)"));
    let compile_static = build(
        "compile_static",
        &format!(
            "cc -std=c99 {strict} \"$ROOT/examples/c/compile.c\" $(pkg-config --cflags dxspv) \
             -L\"$(pkg-config --variable=libdir dxspv)\" -Wl,-Bstatic -ldxspv -Wl,-Bdynamic \
             $(pkg-config --libs-only-l --static dxspv | sed 's/-ldxspv//')"
        ),
    );
    let wrapper =
        "\"$ROOT/crates/capi/tests/cpp/wrapper_test.cpp\" $(pkg-config --cflags --libs dxspv)";
    let cpp11 = build("wrapper11", &format!("g++ -std=c++11 {strict} {wrapper}"));
    let cpp17 = build("wrapper17", &format!("g++ -std=c++17 {strict} {wrapper}"));
    if have("readelf") {
        let needed = |exe: &Path| {
            String::from_utf8_lossy(&run_ok(Command::new("readelf").arg("-d").arg(exe)).stdout)
                .contains("libdxspv.so")
        };
        assert!(needed(&compile), "the pkg-config build links libdxspv.so");
        assert!(
            !needed(&compile_static),
            "the static build needs no libdxspv.so"
        );
    }

    let lib_dir = prefix.join("lib");
    let run = |exe: &Path, args: &[&Path]| {
        Command::new(exe)
            .args(args)
            .env("LD_LIBRARY_PATH", &lib_dir)
            .output()
            .unwrap()
    };
    let shaders = shaders(&tmp.0);
    println!("shaders: {shaders:#?}");
    let spv = tmp.0.join("out.spv");
    for shader in &shaders {
        for exe in [&compile, &compile_static] {
            let out = run(exe, &[shader, &spv]);
            assert!(
                out.status.success(),
                "{}: {}",
                shader.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            check_example_output(shader, &spv, &out, &dxspv::Options::default());
            std::fs::remove_file(&spv).unwrap();
        }
    }

    // Options reach the library: a set offset and an entry point name.
    let out = Command::new(&compile)
        .arg(&shaders[0])
        .arg(&spv)
        .args(["--set-offset", "2", "--entry", "vs_entry"])
        .env("LD_LIBRARY_PATH", &lib_dir)
        .output()
        .unwrap();
    let mut opts = dxspv::Options::default();
    opts.spirv.bindings.set_offset = 2;
    opts.spirv.entry_point_name = "vs_entry".into();
    check_example_output(&shaders[0], &spv, &out, &opts);

    // The target environment: SPIR-V 1.3 for Vulkan 1.1, valid for that environment, on every
    // shader the library compiles for it.
    let mut older = 0;
    for shader in &shaders {
        let mut opts = dxspv::Options::default();
        opts.spirv.target_env = dxspv::spirv::TargetEnv::Vulkan1_1;
        if dxspv::compile(&std::fs::read(shader).unwrap(), &opts).is_err() {
            continue;
        }
        let out = Command::new(&compile)
            .arg(shader)
            .arg(&spv)
            .args(["--target-env", "vulkan1.1"])
            .env("LD_LIBRARY_PATH", &lib_dir)
            .output()
            .unwrap();
        check_example_output(shader, &spv, &out, &opts);
        let version = std::fs::read(&spv).unwrap()[4..8].to_vec();
        assert_eq!(u32::from_ne_bytes(version.try_into().unwrap()), 0x0001_0300);
        older += 1;
    }
    assert!(older >= 1, "no shader compiles for vulkan1.1");

    // Direct3D 9 state: a ps_1_x shader's sampler bound to a cube texture, flat shading and
    // the fast float emulation, against the Rust library with the same options.
    let d3d9 = d3d9_sampling_shader();
    if let Some(shader) = &d3d9 {
        let bytes = std::fs::read(shader).unwrap();
        let mut opts = dxspv::Options::default();
        opts.d3d9.sampler_types[0] = dxspv::sm3::TextureType::Cube;
        opts.d3d9.flat_shading = true;
        opts.d3d9.float_emulation = dxspv::sm3::FloatEmulation::Fast;
        let out = Command::new(&compile)
            .arg(shader)
            .arg(&spv)
            .args(["--d3d9-sampler-type", "0", "cube", "--d3d9-flat-shading"])
            .args(["--d3d9-float-emulation", "fast"])
            .env("LD_LIBRARY_PATH", &lib_dir)
            .output()
            .unwrap();
        check_example_output(shader, &spv, &out, &opts);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains(" image Cube "), "{stdout}");
        let default = dxspv::compile(&bytes, &dxspv::Options::default()).unwrap();
        assert!(
            !format!("{:?}", default.reflection.resources).contains("Cube"),
            "{}: the default binds a 2D texture",
            shader.display()
        );
        // An out-of-range sampler is refused by the setter (exit status 2, the status named).
        let out = Command::new(&compile)
            .arg(shader)
            .arg(&spv)
            .args(["--d3d9-sampler-type", "16", "cube"])
            .env("LD_LIBRARY_PATH", &lib_dir)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("DXSPV_ERROR_INVALID_ARGUMENT"));
    }

    // A checksum mismatch is a warning on stderr (and none with --no-checksum).
    let mut damaged = std::fs::read(&shaders[0]).unwrap();
    damaged[4] ^= 0x5a;
    let damaged_path = tmp.0.join("damaged.dxbc");
    std::fs::write(&damaged_path, &damaged).unwrap();
    let out = run(&compile, &[&damaged_path, &spv]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stderr.contains(": warning: ") && stderr.contains("checksum"),
        "{stderr}"
    );
    let quiet = Command::new(&compile)
        .arg(&damaged_path)
        .arg(&spv)
        .arg("--no-checksum")
        .env("LD_LIBRARY_PATH", &lib_dir)
        .output()
        .unwrap();
    assert!(
        quiet.status.success() && quiet.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&quiet.stderr)
    );

    // A refusal is exit status 1 with the status, category and message.
    let garbage = tmp.0.join("garbage.bin");
    std::fs::write(&garbage, b"not a shader at all").unwrap();
    let out = run(&compile, &[&garbage, &spv]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error: DXSPV_ERROR_UNKNOWN_FORMAT (unknown-format): unrecognised input"),
        "{stderr}"
    );

    // The C++ wrapper, as C++11 and C++17.
    for exe in [&cpp11, &cpp17] {
        let out_dir = tmp.0.join("cpp");
        std::fs::create_dir_all(&out_dir).unwrap();
        let mut args: Vec<&Path> = vec![&out_dir];
        args.extend(shaders.iter().map(PathBuf::as_path));
        args.extend(d3d9.iter().map(PathBuf::as_path));
        let out = run(exe, &args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.ends_with("ok\n"),
            "{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for i in 0..shaders.len() + d3d9.iter().count() {
            let bytes = std::fs::read(out_dir.join(format!("{i}.spv"))).unwrap();
            let words: Vec<u32> = bytes
                .chunks_exact(4)
                .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            if let Some(verdict) =
                dxspv_testkit::spirv_val_with(&words, &["--target-env", "vulkan1.2"])
            {
                verdict.unwrap_or_else(|e| panic!("C++ module {i}: spirv-val: {e}"));
            }
        }
        std::fs::remove_dir_all(&out_dir).unwrap();
    }
}
