/*
 * compile.c: compile a Direct3D shader to SPIR-V with the dxspv C API, write the module and
 * print its reflection and any warnings.
 *
 *   scripts/install-lib.sh --prefix "$HOME/.local"
 *   export PKG_CONFIG_PATH="$HOME/.local/lib/pkgconfig"
 *   cc -std=c99 -o compile examples/c/compile.c $(pkg-config --cflags --libs dxspv)
 *   LD_LIBRARY_PATH="$HOME/.local/lib" ./compile shader.dxbc shader.spv
 *
 * Usage: compile INPUT OUTPUT.spv [--entry NAME] [--set-offset N] [--no-checksum]
 *                [--target-env NAME] [--d3d9-flat-shading] [--d3d9-float-emulation strict|fast|off]
 *                [--d3d9-sampler-type SAMPLER 2d|cube|volume]
 * Exit status: 0 on success, 1 when dxspv refuses the shader, 2 on usage or I/O errors.
 */
#include <dxspv.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads a whole file into a malloc'ed buffer; NULL on failure (the reason printed). */
static unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return NULL;
    }
    unsigned char *data = NULL;
    size_t used = 0, capacity = 0;
    for (;;) {
        if (used == capacity) {
            capacity = capacity ? capacity * 2 : 65536;
            unsigned char *grown = realloc(data, capacity);
            if (!grown) {
                fprintf(stderr, "%s: out of memory\n", path);
                free(data);
                fclose(f);
                return NULL;
            }
            data = grown;
        }
        size_t n = fread(data + used, 1, capacity - used, f);
        used += n;
        if (n == 0) {
            break;
        }
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        perror(path);
        free(data);
        return NULL;
    }
    *size = used;
    return data;
}

static const char *register_letter(dxspv_register_class c) {
    switch (c) {
    case DXSPV_REGISTER_CLASS_CBV: return "b";
    case DXSPV_REGISTER_CLASS_SRV: return "t";
    case DXSPV_REGISTER_CLASS_UAV: return "u";
    case DXSPV_REGISTER_CLASS_SAMPLER: return "s";
    case DXSPV_REGISTER_CLASS_UAV_COUNTER: return "counter of u";
    default: return "?";
    }
}

static const char *descriptor_type_name(dxspv_descriptor_type t) {
    switch (t) {
    case DXSPV_DESCRIPTOR_TYPE_SAMPLER: return "SAMPLER";
    case DXSPV_DESCRIPTOR_TYPE_SAMPLED_IMAGE: return "SAMPLED_IMAGE";
    case DXSPV_DESCRIPTOR_TYPE_STORAGE_IMAGE: return "STORAGE_IMAGE";
    case DXSPV_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: return "UNIFORM_TEXEL_BUFFER";
    case DXSPV_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: return "STORAGE_TEXEL_BUFFER";
    case DXSPV_DESCRIPTOR_TYPE_UNIFORM_BUFFER: return "UNIFORM_BUFFER";
    case DXSPV_DESCRIPTOR_TYPE_STORAGE_BUFFER: return "STORAGE_BUFFER";
    default: return "?";
    }
}

static const char *scalar_kind_name(dxspv_scalar_kind k) {
    switch (k) {
    case DXSPV_SCALAR_KIND_FLOAT: return "float";
    case DXSPV_SCALAR_KIND_SINT: return "int";
    case DXSPV_SCALAR_KIND_UINT: return "uint";
    case DXSPV_SCALAR_KIND_BOOL: return "bool";
    default: return "?";
    }
}

static const char *image_dim_name(dxspv_image_dim d) {
    switch (d) {
    case DXSPV_IMAGE_DIM_BUFFER: return "Buffer";
    case DXSPV_IMAGE_DIM_1D: return "1D";
    case DXSPV_IMAGE_DIM_2D: return "2D";
    case DXSPV_IMAGE_DIM_3D: return "3D";
    case DXSPV_IMAGE_DIM_CUBE: return "Cube";
    default: return "?";
    }
}

static void print_interface(const char *what, const dxspv_interface_variable *vars, size_t count) {
    printf("%s: %zu\n", what, count);
    for (size_t i = 0; i < count; i++) {
        const dxspv_interface_variable *v = &vars[i];
        if (v->location == DXSPV_NO_LOCATION) {
            printf("  builtin %s", v->builtin ? v->builtin : "?");
        } else {
            printf("  location %u component %u", v->location, v->component);
        }
        if (v->semantic_name) {
            printf(" semantic %s%u", v->semantic_name, v->semantic_index);
        }
        printf(" %s%ux%u", scalar_kind_name(v->scalar_kind), v->bits, v->components);
        for (size_t a = 0; a < v->array_size_count; a++) {
            printf("[%u]", v->array_sizes[a]);
        }
        printf("%s\n", v->patch ? " patch" : "");
    }
}

static void print_reflection(const dxspv_reflection *r) {
    printf("stage %u (Vulkan stage bit 0x%x, %s) entry %s target %s workgroup %u %u %u\n",
           r->stage, r->vk_shader_stage, r->execution_model ? r->execution_model : "?",
           r->entry_point, dxspv_target_env_name(r->target_env), r->workgroup_size[0],
           r->workgroup_size[1], r->workgroup_size[2]);
    printf("capabilities:");
    for (size_t i = 0; i < r->capability_count; i++) {
        printf(" %s", r->capabilities[i]);
    }
    printf("\nextensions:");
    for (size_t i = 0; i < r->extension_count; i++) {
        printf(" %s", r->extensions[i]);
    }
    printf("\nresources: %zu\n", r->resource_count);
    for (size_t i = 0; i < r->resource_count; i++) {
        const dxspv_resource_binding *b = &r->resources[i];
        printf("  %s%u space %u -> set %u binding %u %s count %u", register_letter(b->register_class),
               b->register_index, b->space, b->set, b->binding,
               descriptor_type_name(b->descriptor_type), b->count);
        if (b->name) {
            printf(" \"%s\"", b->name);
        }
        if (b->image.dim != DXSPV_IMAGE_DIM_NONE) {
            /* The format is a VkFormat value (0: VK_FORMAT_UNDEFINED). */
            printf(" image %s%s%s %s format %u", image_dim_name(b->image.dim),
                   b->image.arrayed ? " array" : "", b->image.multisampled ? " ms" : "",
                   scalar_kind_name(b->image.sampled_type), b->image.format);
        }
        if (b->size != DXSPV_NO_SIZE) {
            printf(" size %u", b->size);
        }
        if (b->stride != DXSPV_NO_SIZE) {
            printf(" stride %u", b->stride);
        }
        printf("%s\n", b->comparison ? " comparison" : "");
    }
    printf("push data: %zu\n", r->push_data_count);
    for (size_t i = 0; i < r->push_data_count; i++) {
        printf("  offset %u size %u\n", r->push_data[i].offset, r->push_data[i].size);
    }
    printf("spec constants: %zu\n", r->spec_constant_count);
    for (size_t i = 0; i < r->spec_constant_count; i++) {
        const dxspv_spec_constant *c = &r->spec_constants[i];
        printf("  id %u default %u%s\n", c->spec_id, c->default_value,
               c->kind == DXSPV_SPEC_CONSTANT_KIND_SAMPLE_COUNT ? " (sample count)" : "");
    }
    print_interface("inputs", r->inputs, r->input_count);
    print_interface("outputs", r->outputs, r->output_count);
}

static int usage(void) {
    fprintf(stderr, "usage: compile INPUT OUTPUT.spv [--entry NAME] [--set-offset N] [--no-checksum]\n"
                    "         [--target-env NAME] [--d3d9-flat-shading]\n"
                    "         [--d3d9-float-emulation strict|fast|off] [--d3d9-sampler-type N 2d|cube|volume]\n");
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        return usage();
    }
    const char *input = argv[1], *output = argv[2];

    /* A library built for another ABI would read the structs below wrongly. */
    if (dxspv_abi_version() != DXSPV_ABI_VERSION) {
        fprintf(stderr, "libdxspv has ABI %u, this program was built for %u\n", dxspv_abi_version(),
                (unsigned)DXSPV_ABI_VERSION);
        return 2;
    }

    dxspv_options *options = dxspv_options_create();
    if (!options) {
        fprintf(stderr, "dxspv_options_create failed\n");
        return 2;
    }
    for (int i = 3; i < argc; i++) {
        dxspv_status s = DXSPV_OK;
        if (strcmp(argv[i], "--entry") == 0 && i + 1 < argc) {
            s = dxspv_options_set_entry_point_name(options, argv[++i]);
        } else if (strcmp(argv[i], "--set-offset") == 0 && i + 1 < argc) {
            s = dxspv_options_set_descriptor_set_offset(options, (uint32_t)strtoul(argv[++i], NULL, 10));
        } else if (strcmp(argv[i], "--no-checksum") == 0) {
            s = dxspv_options_set_verify_checksum(options, false);
        } else if (strcmp(argv[i], "--target-env") == 0 && i + 1 < argc) {
            /* The names are dxspv_target_env_name's; a name no value has is refused below. */
            const char *name = argv[++i];
            dxspv_target_env env = 0;
            while (dxspv_target_env_name(env) && strcmp(dxspv_target_env_name(env), name) != 0) {
                env++;
            }
            s = dxspv_options_set_target_env(options, env);
        } else if (strcmp(argv[i], "--d3d9-flat-shading") == 0) {
            s = dxspv_options_set_d3d9_flat_shading(options, true);
        } else if (strcmp(argv[i], "--d3d9-float-emulation") == 0 && i + 1 < argc) {
            const char *mode = argv[++i];
            s = dxspv_options_set_d3d9_float_emulation(
                options, strcmp(mode, "strict") == 0 ? DXSPV_D3D9_FLOAT_EMULATION_STRICT
                         : strcmp(mode, "fast") == 0 ? DXSPV_D3D9_FLOAT_EMULATION_FAST
                         : strcmp(mode, "off") == 0  ? DXSPV_D3D9_FLOAT_EMULATION_OFF
                                                     : UINT32_MAX);
        } else if (strcmp(argv[i], "--d3d9-sampler-type") == 0 && i + 2 < argc) {
            uint32_t sampler = (uint32_t)strtoul(argv[++i], NULL, 10);
            const char *type = argv[++i];
            s = dxspv_options_set_d3d9_sampler_type(
                options, sampler, strcmp(type, "2d") == 0 ? DXSPV_D3D9_TEXTURE_TYPE_2D
                                  : strcmp(type, "cube") == 0 ? DXSPV_D3D9_TEXTURE_TYPE_CUBE
                                  : strcmp(type, "volume") == 0 ? DXSPV_D3D9_TEXTURE_TYPE_VOLUME
                                                                : UINT32_MAX);
        } else {
            dxspv_options_free(options);
            return usage();
        }
        if (s != DXSPV_OK) {
            fprintf(stderr, "%s: %s\n", argv[i], dxspv_status_name(s));
            dxspv_options_free(options);
            return 2;
        }
    }

    size_t size = 0;
    unsigned char *data = read_file(input, &size);
    if (!data) {
        dxspv_options_free(options);
        return 2;
    }

    dxspv_format format = dxspv_detect_format(data, size);
    dxspv_result *result = NULL;
    dxspv_status status = dxspv_compile(options, data, size, &result);
    free(data);
    dxspv_options_free(options); /* the result does not need the options */

    for (size_t i = 0; i < dxspv_result_warning_count(result); i++) {
        fprintf(stderr, "%s: warning: %s\n", input, dxspv_result_warning(result, i));
    }
    if (status != DXSPV_OK) {
        fprintf(stderr, "%s: error: %s (%s): %s\n", input, dxspv_status_name(status),
                dxspv_result_error_kind(result), dxspv_result_error_message(result));
        dxspv_result_free(result);
        return 1;
    }

    size_t word_count = 0;
    const uint32_t *words = dxspv_result_spirv(result, &word_count);
    FILE *out = fopen(output, "wb");
    if (!out || fwrite(words, sizeof(uint32_t), word_count, out) != word_count || fclose(out) != 0) {
        perror(output);
        dxspv_result_free(result);
        return 2;
    }

    const dxspv_stage_times *t = dxspv_result_times(result);
    printf("%s: %zu SPIR-V words from %s in %.3f ms\n", output, word_count,
           dxspv_format_name(format),
           (double)(t->parse_ns + t->convert_ns + t->passes_ns + t->spirv_ns) / 1e6);
    print_reflection(dxspv_result_reflection(result));
    dxspv_result_free(result);
    return 0;
}
