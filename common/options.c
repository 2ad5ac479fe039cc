/* SPDX-License-Identifier: Apache-2.0 */
/* The option table: one parser per type, one error form, --help from the rows. */
#include "common/options.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "kvr_version.h" /* generated from common/version.h.in */

int kvr_opt_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
    /* strtoull alone takes spaces, a sign (wrapping "-1" to 2^64-1) and, with base 0, octal. */
    if (!text || !isdigit((unsigned char)text[0]))
        return -EINVAL;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end != '\0')
        return -EINVAL;
    if (errno == ERANGE || v < min || v > max)
        return -ERANGE;
    *out = (uint64_t)v;
    return 0;
}

int kvr_opt_parse_int(const char *text, int64_t min, int64_t max, int64_t *out)
{
    if (!text)
        return -EINVAL;
    const char *digits = text[0] == '-' ? text + 1 : text;
    if (!isdigit((unsigned char)digits[0]))
        return -EINVAL;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (*end != '\0')
        return -EINVAL;
    if (errno == ERANGE || v < min || v > max)
        return -ERANGE;
    *out = (int64_t)v;
    return 0;
}

int kvr_opt_parse_double(const char *text, double min, double max, double *out)
{
    if (!text)
        return -EINVAL;
    const char *p = text[0] == '-' || text[0] == '+' ? text + 1 : text;
    /* Decimal only: strtod would also read hex, "inf" and "nan". */
    if (!isdigit((unsigned char)p[0]) && !(p[0] == '.' && isdigit((unsigned char)p[1])))
        return -EINVAL;
    if (strpbrk(text, "xX"))
        return -EINVAL;
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (*end != '\0')
        return -EINVAL;
    if (errno == ERANGE || !isfinite(v) || !(v >= min && v <= max))
        return -ERANGE;
    *out = v;
    return 0;
}

int kvr_opt_parse_bool(const char *text, bool *out)
{
    static const char *const yes[] = {"on", "true", "1", "yes"}, *const no[] = {"off", "false", "0",
                                                                                "no"};
    if (!text)
        return -EINVAL;
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        if (strcmp(text, yes[i]) == 0) {
            *out = true;
            return 0;
        }
        if (strcmp(text, no[i]) == 0) {
            *out = false;
            return 0;
        }
    }
    return -EINVAL;
}

int kvr_opt_error(char *err, size_t err_len, const char *name, const char *what, const char *value)
{
    if (value)
        snprintf(err, err_len, "--%s: expected %s, got '%s'", name, what, value);
    else
        snprintf(err, err_len, "--%s: expected %s, got nothing", name, what);
    return -EINVAL;
}

int kvr_opt_parse_log_level(const kvr_opt_t *opt, void *obj, const char *value, char *err,
                            size_t err_len)
{
    kvr_log_level_t level;
    if (opt->size != sizeof level || kvr_log_level_parse(value, &level) < 0)
        return kvr_opt_error(err, err_len, opt->name, opt->expected, value);
    memcpy((char *)obj + opt->offset, &level, sizeof level);
    return 0;
}

/* What a row's value must look like, as the error and --help say it. */
static void describe(const kvr_opt_t *o, char *buf, size_t len)
{
    switch (o->type) {
    case KVR_OPT_INT:
        snprintf(buf, len, "an integer in [%" PRId64 ", %" PRId64 "]", o->min, o->max);
        return;
    case KVR_OPT_U64:
    case KVR_OPT_MS:
        snprintf(buf, len, "an integer in [%" PRIu64 ", %" PRIu64 "]", o->umin, o->umax);
        return;
    case KVR_OPT_DOUBLE: snprintf(buf, len, "a number in [%g, %g]", o->dmin, o->dmax); return;
    case KVR_OPT_BOOL: snprintf(buf, len, "on/off, true/false or 1/0"); return;
    case KVR_OPT_ENUM: {
        size_t used = (size_t)snprintf(buf, len, "one of ");
        for (size_t i = 0; o->names[i] && used < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", o->names[i]);
        return;
    }
    case KVR_OPT_STRING:
        if (o->size)
            snprintf(buf, len, "%sat most %zu bytes", o->flags & KVR_OPT_NONEMPTY ? "1 to " : "",
                     o->size - 1);
        else
            snprintf(buf, len, "%s", o->flags & KVR_OPT_NONEMPTY ? "a non-empty value" : "a value");
        return;
    case KVR_OPT_CUSTOM:
        snprintf(buf, len, "%s", o->expected ? o->expected : "a valid value");
        return;
    case KVR_OPT_HEADING:
    case KVR_OPT_HELP: break;
    }
    snprintf(buf, len, "a value");
}

static int refuse(const kvr_opt_t *o, const char *value, char *err, size_t err_len)
{
    char what[256];
    describe(o, what, sizeof what);
    return kvr_opt_error(err, err_len, o->name, what, value);
}

static void store_uint(void *field, size_t size, uint64_t v)
{
    if (size == sizeof(uint32_t)) {
        uint32_t n = (uint32_t)v;
        memcpy(field, &n, sizeof n);
    } else {
        memcpy(field, &v, sizeof v);
    }
}

int kvr_opt_apply(const kvr_opt_set_t *set, const kvr_opt_t *o, const char *value, bool from_file,
                  char *err, size_t err_len)
{
    char *field = (char *)set->obj + o->offset;
    if (from_file && (o->flags & KVR_OPT_NO_FILE)) {
        snprintf(err, err_len, "--%s: not accepted in a config file", o->name);
        return -EINVAL;
    }
    if (o->type == KVR_OPT_HEADING || o->type == KVR_OPT_HELP) {
        snprintf(err, err_len, "--%s: takes no value here", o->name);
        return -EINVAL;
    }
    if (!value && o->type != KVR_OPT_BOOL)
        return refuse(o, NULL, err, err_len);
    switch (o->type) {
    case KVR_OPT_INT: {
        int64_t v;
        if (kvr_opt_parse_int(value, o->min, o->max, &v) < 0)
            return refuse(o, value, err, err_len);
        store_uint(field, o->size, (uint64_t)v);
        return 0;
    }
    case KVR_OPT_U64: {
        uint64_t v;
        if (kvr_opt_parse_u64(value, o->umin, o->umax, &v) < 0)
            return refuse(o, value, err, err_len);
        store_uint(field, o->size, v);
        return 0;
    }
    case KVR_OPT_MS: {
        uint64_t v;
        if (kvr_opt_parse_u64(value, o->umin, o->umax, &v) < 0 || v > UINT64_MAX / 1000000u)
            return refuse(o, value, err, err_len);
        v *= 1000000u;
        memcpy(field, &v, sizeof v);
        return 0;
    }
    case KVR_OPT_DOUBLE: {
        double v;
        if (kvr_opt_parse_double(value, o->dmin, o->dmax, &v) < 0)
            return refuse(o, value, err, err_len);
        memcpy(field, &v, sizeof v);
        return 0;
    }
    case KVR_OPT_BOOL: {
        bool v = true;
        if (value && kvr_opt_parse_bool(value, &v) < 0)
            return refuse(o, value, err, err_len);
        if (o->flags & KVR_OPT_NEGATE)
            v = !v;
        memcpy(field, &v, sizeof v);
        return 0;
    }
    case KVR_OPT_STRING: {
        size_t n = strlen(value);
        if ((o->flags & KVR_OPT_NONEMPTY) && n == 0)
            return refuse(o, value, err, err_len);
        if (o->size == 0) {
            memcpy(field, &value, sizeof value);
            return 0;
        }
        if (n >= o->size)
            return refuse(o, value, err, err_len);
        memcpy(field, value, n + 1);
        return 0;
    }
    case KVR_OPT_ENUM:
        for (int i = 0; o->names[i]; i++) {
            if (strcmp(o->names[i], value) == 0) {
                memcpy(field, &i, sizeof i);
                return 0;
            }
        }
        return refuse(o, value, err, err_len);
    case KVR_OPT_CUSTOM: {
        err[0] = '\0';
        int rc = o->parse(o, set->obj, value, err, err_len);
        if (rc < 0 && err[0] == '\0')
            refuse(o, value, err, err_len);
        return rc < 0 ? rc : 0;
    }
    case KVR_OPT_HEADING:
    case KVR_OPT_HELP: break;
    }
    snprintf(err, err_len, "--%s: not a flag", o->name);
    return -EINVAL;
}

int kvr_opt_defaults(const kvr_opt_set_t *set, char *err, size_t err_len)
{
    for (size_t i = 0; i < set->n_opts; i++) {
        const kvr_opt_t *o = &set->opts[i];
        if (o->type == KVR_OPT_HEADING || o->type == KVR_OPT_HELP || !o->def)
            continue;
        int rc = kvr_opt_apply(set, o, o->def, false, err, err_len);
        if (rc < 0)
            return rc;
    }
    return 0;
}

const kvr_opt_t *kvr_opt_find(const kvr_opt_set_t *sets, size_t n_sets, const char *name,
                              const kvr_opt_set_t **set)
{
    if (!name)
        return NULL;
    while (*name == '-')
        name++;
    for (size_t s = 0; s < n_sets; s++) {
        for (size_t i = 0; i < sets[s].n_opts; i++) {
            const kvr_opt_t *o = &sets[s].opts[i];
            if (o->type != KVR_OPT_HEADING && strcmp(o->name, name) == 0) {
                if (set)
                    *set = &sets[s];
                return o;
            }
        }
    }
    return NULL;
}

static const kvr_opt_t *find_short(const kvr_opt_set_t *sets, size_t n_sets, char c,
                                   const kvr_opt_set_t **set)
{
    for (size_t s = 0; s < n_sets; s++)
        for (size_t i = 0; i < sets[s].n_opts; i++)
            if (sets[s].opts[i].short_name == c && sets[s].opts[i].type != KVR_OPT_HEADING) {
                *set = &sets[s];
                return &sets[s].opts[i];
            }
    return NULL;
}

void kvr_opt_version_exit(const char *argv0)
{
    const char *name = argv0 ? strrchr(argv0, '/') : NULL;
    name = name ? name + 1 : argv0 && argv0[0] ? argv0 : "kvroute";
    printf("%s %s (commit %s)\n", name, KVR_VERSION, KVR_COMMIT);
    exit(fflush(stdout) == 0 ? 0 : 1);
}

int kvr_opt_parse_args(kvr_opt_parser_t *p, int argc, char **argv, char *err, size_t err_len)
{
    p->n_positional = 0;
    bool flags_done = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!flags_done && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0))
            return 1;
        if (!flags_done && strcmp(a, "--version") == 0)
            kvr_opt_version_exit(argv[0]);
        if (!flags_done && strcmp(a, "--") == 0) {
            flags_done = true;
            continue;
        }
        const kvr_opt_t *o = NULL;
        const kvr_opt_set_t *set = NULL;
        const char *value = NULL;
        bool inline_value = false;
        if (!flags_done && a[0] == '-' && a[1] == '-' && a[2] != '\0') {
            char name[128];
            const char *eq = strchr(a + 2, '=');
            size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
            if (n < sizeof name) {
                memcpy(name, a + 2, n);
                name[n] = '\0';
                o = kvr_opt_find(p->sets, p->n_sets, name, &set);
            }
            if (!o) {
                snprintf(err, err_len, "unknown flag --%.*s (see --help)", (int)(n > 100 ? 100 : n),
                         a + 2);
                return -EINVAL;
            }
            if (eq) {
                value = eq + 1;
                inline_value = true;
            }
        } else if (!flags_done && a[0] == '-' && a[1] != '\0' && a[1] != '-' && a[2] == '\0' &&
                   !isdigit((unsigned char)a[1])) {
            o = find_short(p->sets, p->n_sets, a[1], &set);
            if (!o) {
                snprintf(err, err_len, "unknown flag %s (see --help)", a);
                return -EINVAL;
            }
        } else {
            if (!p->positional || p->n_positional == p->max_positional) {
                snprintf(err, err_len, "unexpected argument '%s' (see --help)", a);
                return -EINVAL;
            }
            p->positional[p->n_positional++] = argv[i];
            continue;
        }
        if (!inline_value) {
            bool b;
            if (o->type != KVR_OPT_BOOL)
                value = i + 1 < argc ? argv[++i] : NULL;
            else if (i + 1 < argc && (kvr_opt_parse_bool(argv[i + 1], &b) == 0 ||
                                      (!p->positional && argv[i + 1][0] != '-')))
                value = argv[++i]; /* --owner-pressure on; alone, a bool means on */
        }
        int rc = kvr_opt_apply(set, o, value, false, err, err_len);
        if (rc < 0)
            return rc;
    }
    return 0;
}

int kvr_opt_load_file(const kvr_opt_set_t *sets, size_t n_sets, const char *path, char *err,
                      size_t err_len)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        int rc = -errno;
        snprintf(err, err_len, "config %s: %s", path, strerror(-rc));
        return rc;
    }
    int rc = kvr_opt_load_stream(sets, n_sets, f, path, err, err_len);
    fclose(f);
    return rc;
}

int kvr_opt_load_stream(const kvr_opt_set_t *sets, size_t n_sets, FILE *f, const char *path,
                        char *err, size_t err_len)
{
    char line[4096];
    int lineno = 0, rc = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            /* The rest would be read as a line of its own. */
            snprintf(err, err_len, "config %s:%d: line longer than %zu bytes", path, lineno,
                     sizeof line - 2);
            return -EINVAL;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *name = line + strspn(line, " \t\r\n");
        while (*name == '-')
            name++;
        if (*name == '\0' || strchr("\r\n", *name))
            continue;
        char *sep = name + strcspn(name, " \t=\r\n");
        char *value = sep;
        if (*sep) {
            *sep = '\0';
            value = sep + 1 + strspn(sep + 1, " \t=");
        }
        size_t n = strlen(value);
        while (n > 0 && isspace((unsigned char)value[n - 1]))
            value[--n] = '\0';
        char sub[512];
        const kvr_opt_set_t *set = NULL;
        const kvr_opt_t *o = kvr_opt_find(sets, n_sets, name, &set);
        if (!o) {
            snprintf(sub, sizeof sub, "unknown flag --%.200s (see --help)", name);
            rc = -EINVAL;
        } else {
            rc = kvr_opt_apply(set, o, n ? value : NULL, true, sub, sizeof sub);
        }
        if (rc < 0) {
            snprintf(err, err_len, "config %s:%d: %s", path, lineno, sub);
            break;
        }
    }
    return rc;
}

/* Appends text to out wrapped at 79 columns, continuation lines indented by indent; returns the column. */
static int wrap(FILE *out, const char *text, int column, int indent)
{
    const char *p = text;
    while (*p) {
        size_t word = strcspn(p, " ");
        if (column > indent && column + 1 + (int)word > 79) {
            fprintf(out, "\n%*s", indent, "");
            column = indent;
        } else if (column > indent) {
            fputc(' ', out);
            column++;
        }
        fwrite(p, 1, word, out);
        column += (int)word;
        p += word;
        p += strspn(p, " ");
    }
    return column;
}

void kvr_opt_help(FILE *out, const kvr_opt_set_t *set)
{
    enum { LEFT = 28 };
    if (set->title)
        fprintf(out, "%s\n", set->title);
    for (size_t i = 0; i < set->n_opts; i++) {
        const kvr_opt_t *o = &set->opts[i];
        if (o->type == KVR_OPT_HEADING) {
            fprintf(out, "%s\n", o->help);
            continue;
        }
        char left[96];
        int n;
        if (o->short_name)
            n = snprintf(left, sizeof left, "  -%c, --%s%s%s", o->short_name, o->name,
                         o->arg ? " " : "", o->arg ? o->arg : "");
        else
            n = snprintf(left, sizeof left, "  --%s%s%s", o->name, o->arg ? " " : "",
                         o->arg ? o->arg : "");
        fputs(left, out);
        int column = n;
        if (column + 1 > LEFT + 2)
            fprintf(out, "\n%*s", LEFT + 2, "");
        else
            fprintf(out, "%*s", LEFT + 2 - column, "");
        column = LEFT + 2;
        char help[1024];
        size_t used = (size_t)snprintf(help, sizeof help, "%s", o->help ? o->help : "");
        if (o->flags & KVR_OPT_REPEAT && used > 0 && used < sizeof help)
            snprintf(help + used, sizeof help - used, "%s",
                     help[used - 1] == '.' ? " Repeatable." : "; repeatable");
        column = wrap(out, help, column, LEFT + 2);
        if (o->def) {
            /* "(default X)" stays on one line, so a reader (or grep) finds it whole. */
            const char *def = o->def;
            if (o->type == KVR_OPT_BOOL) {
                bool b = false;
                kvr_opt_parse_bool(def, &b);
                def = b ? "on" : "off";
            }
            char suffix[128];
            int n_suffix = snprintf(suffix, sizeof suffix, "(default %s)", def[0] ? def : "\"\"");
            if (column > LEFT + 2 && column + 1 + n_suffix > 79)
                fprintf(out, "\n%*s", LEFT + 2, "");
            else if (column > LEFT + 2)
                fputc(' ', out);
            fputs(suffix, out);
        }
        fputc('\n', out);
        if (o->type == KVR_OPT_HELP)
            fprintf(out, "%-*s%s\n", LEFT + 2, "  --version", "print the version and exit");
    }
}

int kvr_opt_program_parse(const kvr_opt_program_t *prog, kvr_opt_parser_t *parser, int argc,
                          char **argv)
{
    char err[512];
    int rc = 0;
    for (size_t i = 0; i < parser->n_sets && rc == 0; i++)
        rc = kvr_opt_defaults(&parser->sets[i], err, sizeof err);
    if (rc == 0)
        rc = kvr_opt_parse_args(parser, argc, argv, err, sizeof err);
    if (rc == 1) {
        if (prog->head)
            fputs(prog->head, stdout);
        for (size_t i = 0; i < parser->n_sets; i++) {
            if (i > 0)
                fputc('\n', stdout);
            kvr_opt_help(stdout, &parser->sets[i]);
        }
        if (prog->tail)
            fputs(prog->tail, stdout);
        return 1;
    }
    if (rc < 0) {
        fprintf(stderr, "%s: %s\n", prog->name, err);
        return -EINVAL;
    }
    return 0;
}
