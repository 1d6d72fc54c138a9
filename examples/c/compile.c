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
        printf("%s\n", v->patch ? " patch" : "");
    }
}

static void print_reflection(const dxspv_reflection *r) {
    printf("resources: %zu\n", r->resource_count);
    for (size_t i = 0; i < r->resource_count; i++) {
        const dxspv_resource_binding *b = &r->resources[i];
        printf("  %s%u space %u -> set %u binding %u %s count %u", register_letter(b->register_class),
               b->register_index, b->space, b->set, b->binding,
               descriptor_type_name(b->descriptor_type), b->count);
        if (b->name) {
            printf(" \"%s\"", b->name);
        }
        printf("\n");
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
    fprintf(stderr, "usage: compile INPUT OUTPUT.spv [--entry NAME] [--set-offset N] [--no-checksum]\n");
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
