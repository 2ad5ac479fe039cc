/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The option table on hostile text: the input is a config file, and again
 * the same bytes split at newlines as a command line, against a table with
 * a row of every type. Whatever it is, parsing answers 0, 1 or an error line.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/options.h"

typedef struct {
    uint64_t port;
    int64_t offset;
    double ratio;
    bool on;
    bool header;
    char name[16];
    const char *path;
    int mode;
    uint64_t cooldown_ns;
} fuzz_config_t;

static const char *const mode_names[] = {"off", "shadow", "enforce", NULL};

#define T fuzz_config_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_U64(T, port, "port", "PORT", "8080", 1, 65535, "port"),
    KVR_OPT_ROW_INT(T, offset, "offset", "N", "0", -10, 10, "offset"),
    KVR_OPT_ROW_DOUBLE(T, ratio, "ratio", "X", "0.5", 0, 1, "ratio"),
    KVR_OPT_ROW_BOOL(T, on, "on", "off", "switch"),
    {.name = "no-header",
     .type = KVR_OPT_BOOL,
     .offset = offsetof(T, header),
     .size = sizeof(bool),
     .def = "off",
     .flags = KVR_OPT_NEGATE,
     .help = "negated switch"},
    KVR_OPT_ROW_STRING(T, name, "name", "S", "x", "name"),
    KVR_OPT_ROW_STRPTR(T, path, "path", "FILE", NULL, "path"),
    KVR_OPT_ROW_ENUM(T, mode, "mode", "MODE", "off", mode_names, "mode"),
    KVR_OPT_ROW_MS(T, cooldown_ns, "cooldown-ms", "250", 0, UINT64_MAX, "duration"),
    {.name = "output",
     .short_name = 'o',
     .type = KVR_OPT_STRING,
     .offset = offsetof(T, path),
     .arg = "FILE",
     .help = "alias"},
    KVR_OPT_ROW_HELP,
};
#undef T

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    fuzz_config_t c = {0};
    kvr_opt_set_t set = {.opts = options, .n_opts = sizeof options / sizeof options[0], .obj = &c};
    char err[512];
    if (kvr_opt_defaults(&set, err, sizeof err) != 0)
        abort();
    if (size > 0) {
        FILE *f = fmemopen((void *)data, size, "r");
        if (f) {
            int rc = kvr_opt_load_stream(&set, 1, f, "fuzz", err, sizeof err);
            fclose(f);
            if (rc < 0 && strncmp(err, "config fuzz:", 12) != 0)
                abort();
        }
    }
    /* The same bytes as argv: one argument per line. */
    char *text = malloc(size + 1);
    char **argv = calloc(size + 2, sizeof *argv);
    if (!text || !argv) {
        free(text);
        free(argv);
        return 0;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    int argc = 0;
    argv[argc++] = "fuzz";
    for (char *p = text, *nl; p && argc < (int)size + 1; p = nl ? nl + 1 : NULL) {
        nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        /* --version prints and exits the process, as a program's flag should: parse up to it. */
        if (strcmp(p, "--version") == 0)
            break;
        argv[argc++] = p;
    }
    char *positional[2];
    kvr_opt_parser_t parser = {
        .sets = &set, .n_sets = 1, .positional = positional, .max_positional = 2};
    int rc = kvr_opt_parse_args(&parser, argc, argv, err, sizeof err);
    if (rc < 0 && strlen(err) == 0)
        abort(); /* every refusal says why */
    if (c.port < 1 || c.port > 65535 || c.offset < -10 || c.offset > 10 ||
        !(c.ratio >= 0 && c.ratio <= 1) || c.mode < 0 || c.mode > 2 ||
        c.name[sizeof c.name - 1] != '\0')
        abort(); /* a value outside its row's range got through */
    FILE *null = fopen("/dev/null", "w");
    if (null) {
        kvr_opt_help(null, &set);
        fclose(null);
    }
    free(argv);
    free(text);
    return 0;
}
