/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_OPTIONS_H
#define KVR_COMMON_OPTIONS_H

/*
 * Every program's flags as one table: each row gives a flag's name, type,
 * default, range and help line, so parsing, the config file and --help all
 * read the same row and a default is written once.
 *
 * Command line: --name VALUE or --name=VALUE; a boolean may stand alone
 * (--owner-pressure) or take on/off, true/false, 1/0, yes/no.
 * Config file: one "name value" per line (leading dashes and an '='
 * optional), '#' starts a comment.
 * Every error is one line: "--flag: expected <what>, got '<value>'".
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    KVR_OPT_HEADING = 0, /* not a flag: a section title in --help */
    KVR_OPT_INT,         /* signed integer in [min, max]; field of 4 or 8 bytes */
    KVR_OPT_U64,         /* unsigned integer in [umin, umax], no sign; field of 4 or 8 bytes */
    KVR_OPT_DOUBLE,      /* finite number in [dmin, dmax] */
    KVR_OPT_BOOL,        /* bool field; KVR_OPT_NEGATE stores the opposite */
    KVR_OPT_STRING,      /* char array of size bytes, or const char * when size is 0 */
    KVR_OPT_ENUM,        /* one of names[]; the field is an int holding the index */
    KVR_OPT_MS,          /* whole milliseconds in [umin, umax], stored as uint64_t nanoseconds */
    KVR_OPT_CUSTOM,      /* parse() takes the text */
    KVR_OPT_HELP,        /* --help / -h: kvr_opt_parse_args returns 1 */
} kvr_opt_type_t;

#define KVR_OPT_NEGATE (1u << 0)   /* bool: a true value stores false (--no-engine-header) */
#define KVR_OPT_REPEAT (1u << 1)   /* may be given more than once; each adds (help says so) */
#define KVR_OPT_NO_FILE (1u << 2)  /* refused in a config file (--config itself) */
#define KVR_OPT_NONEMPTY (1u << 3) /* string: the empty value is refused */

typedef struct kvr_opt_s kvr_opt_t;

/** A custom row's parser: 0, or -EINVAL with err set by kvr_opt_error(). */
typedef int (*kvr_opt_parse_cb)(const kvr_opt_t *opt, void *obj, const char *value, char *err,
                                size_t err_len);

struct kvr_opt_s {
    const char *name; /* without dashes */
    char short_name;  /* '-o' alias, 0 for none */
    kvr_opt_type_t type;
    size_t offset;   /* field in the object the table describes */
    size_t size;     /* field size (strings: capacity, 0 for const char *) */
    const char *arg; /* argument name in --help; NULL for bools */
    const char
        *def; /* default as text, applied by kvr_opt_defaults and shown by --help; NULL = none */
    int64_t min, max;         /* KVR_OPT_INT */
    uint64_t umin, umax;      /* KVR_OPT_U64, KVR_OPT_MS */
    double dmin, dmax;        /* KVR_OPT_DOUBLE */
    const char *const *names; /* KVR_OPT_ENUM, NULL-terminated */
    kvr_opt_parse_cb parse;   /* KVR_OPT_CUSTOM */
    const char *expected;     /* KVR_OPT_CUSTOM: what the value must look like, for errors */
    unsigned flags;           /* KVR_OPT_NEGATE, ... */
    const char *help;
};

/* Row builders: KVR_OPT_U64_ROW(struct type, field, "name", "N", "default", min, max, "help"). */
#define KVR_OPT_ROW_INT(T, f, nm, a, d, lo, hi, h)                                                 \
    {                                                                                              \
        .name = nm, .type = KVR_OPT_INT, .offset = offsetof(T, f), .size = sizeof(((T *)0)->f),    \
        .arg = a, .def = d, .min = lo, .max = hi, .help = h                                        \
    }
#define KVR_OPT_ROW_U64(T, f, nm, a, d, lo, hi, h)                                                 \
    {                                                                                              \
        .name = nm, .type = KVR_OPT_U64, .offset = offsetof(T, f), .size = sizeof(((T *)0)->f),    \
        .arg = a, .def = d, .umin = lo, .umax = hi, .help = h                                      \
    }
#define KVR_OPT_ROW_MS(T, f, nm, d, lo, hi, h)                                                     \
    {                                                                                              \
        .name = nm, .type = KVR_OPT_MS, .offset = offsetof(T, f), .size = sizeof(((T *)0)->f),     \
        .arg = "MS", .def = d, .umin = lo, .umax = hi, .help = h                                   \
    }
#define KVR_OPT_ROW_DOUBLE(T, f, nm, a, d, lo, hi, h)                                              \
    {                                                                                              \
        .name = nm, .type = KVR_OPT_DOUBLE, .offset = offsetof(T, f), .size = sizeof(((T *)0)->f), \
        .arg = a, .def = d, .dmin = lo, .dmax = hi, .help = h                                      \
    }
#define KVR_OPT_ROW_BOOL(T, f, nm, d, h)                                                           \
    {                                                                                              \
        .name = nm, .type = KVR_OPT_BOOL, .offset = offsetof(T, f), .size = sizeof(((T *)0)->f),   \
        .def = d, .help = h                                                                        \
    }
#define KVR_OPT_ROW_STRING(T, f, nm, a, d, h)                                                      \
    {                                                                                              \
        .name = nm, .type = KVR_OPT_STRING, .offset = offsetof(T, f), .size = sizeof(((T *)0)->f), \
        .arg = a, .def = d, .help = h                                                              \
    }
/* A const char * field: the value points into argv (or the default literal). */
#define KVR_OPT_ROW_STRPTR(T, f, nm, a, d, h)                                                      \
    {                                                                                              \
        .name = nm, .type = KVR_OPT_STRING, .offset = offsetof(T, f), .size = 0, .arg = a,         \
        .def = d, .help = h                                                                        \
    }
#define KVR_OPT_ROW_ENUM(T, f, nm, a, d, nms, h)                                                   \
    {                                                                                              \
        .name = nm, .type = KVR_OPT_ENUM, .offset = offsetof(T, f), .size = sizeof(((T *)0)->f),   \
        .arg = a, .def = d, .names = nms, .help = h                                                \
    }
#define KVR_OPT_ROW_CUSTOM(nm, a, d, cb, what, fl, h)                                              \
    {                                                                                              \
        .name = nm, .type = KVR_OPT_CUSTOM, .arg = a, .def = d, .parse = cb, .expected = what,     \
        .flags = fl, .help = h                                                                     \
    }
/* --log-level into a kvr_log_level_t field, read by common/log.c's one parser. */
#define KVR_OPT_ROW_LOG_LEVEL(T, f, d, h)                                                          \
    {                                                                                              \
        .name = "log-level", .type = KVR_OPT_CUSTOM, .offset = offsetof(T, f),                     \
        .size = sizeof(((T *)0)->f), .arg = "LEVEL", .def = d, .parse = kvr_opt_parse_log_level,   \
        .expected = "one of debug, info, warn, error", .help = h                                   \
    }
#define KVR_OPT_ROW_HEADING(title)                                                                 \
    {                                                                                              \
        .name = "", .type = KVR_OPT_HEADING, .help = title                                         \
    }
#define KVR_OPT_ROW_HELP                                                                           \
    {                                                                                              \
        .name = "help", .short_name = 'h', .type = KVR_OPT_HELP, .flags = KVR_OPT_NO_FILE,         \
        .help = "print this help and exit"                                                         \
    }

/** One table and the object its offsets point into. */
typedef struct kvr_opt_set_s {
    const kvr_opt_t *opts;
    size_t n_opts;
    void *obj;
    const char *title; /* heading before this set's rows in --help, NULL for none */
} kvr_opt_set_t;

/** What kvr_opt_parse_args needs besides the tables. */
typedef struct kvr_opt_parser_s {
    const kvr_opt_set_t *sets;
    size_t n_sets;
    char **positional; /* non-flag arguments land here; NULL: they are refused */
    size_t max_positional;
    size_t n_positional; /* out */
} kvr_opt_parser_t;

/** Base-10 unsigned integer, digits only (no sign, no spaces, "010" is 10), in [min, max]. 0 or -EINVAL / -ERANGE. */
int kvr_opt_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out);
/** Base-10 signed integer (optional leading '-'), in [min, max]. 0 or -EINVAL / -ERANGE. */
int kvr_opt_parse_int(const char *text, int64_t min, int64_t max, int64_t *out);
/** Finite decimal number in [min, max] (no hex, no inf/nan, no trailing bytes). 0 or -EINVAL / -ERANGE. */
int kvr_opt_parse_double(const char *text, double min, double max, double *out);
/** on/off, true/false, 1/0, yes/no. 0 or -EINVAL. */
int kvr_opt_parse_bool(const char *text, bool *out);

/** The KVR_OPT_ROW_LOG_LEVEL parser: kvr_log_level_parse() into the row's field. */
int kvr_opt_parse_log_level(const kvr_opt_t *opt, void *obj, const char *value, char *err,
                            size_t err_len);
/** Writes the one error form: "--name: expected <what>, got '<value>'". Returns -EINVAL. */
int kvr_opt_error(char *err, size_t err_len, const char *name, const char *what, const char *value);

/** Applies every row's default to the set's object (rows without one are left as they are). 0 or -EINVAL with err. */
int kvr_opt_defaults(const kvr_opt_set_t *set, char *err, size_t err_len);
/** The row named name in the sets (leading dashes ignored) and its set, or NULL. */
const kvr_opt_t *kvr_opt_find(const kvr_opt_set_t *sets, size_t n_sets, const char *name,
                              const kvr_opt_set_t **set);
/**
 * Applies one value to one row (NULL value: a bare bool). from_file refuses
 * KVR_OPT_NO_FILE rows. 0, or -EINVAL with the one-line error in err.
 */
int kvr_opt_apply(const kvr_opt_set_t *set, const kvr_opt_t *opt, const char *value, bool from_file,
                  char *err, size_t err_len);
/** Prints "NAME VERSION (commit HASH)" (NAME: argv0's last component) on stdout and exits 0. */
void kvr_opt_version_exit(const char *argv0);
/**
 * Parses argv[1..argc) against the sets. Returns 0, 1 when --help / -h was
 * given (nothing printed: the caller prints its help), or -EINVAL with a
 * one-line reason in err. --version does not return: kvr_opt_version_exit().
 */
int kvr_opt_parse_args(kvr_opt_parser_t *parser, int argc, char **argv, char *err, size_t err_len);
/**
 * Reads a config file: one "flag value" per line, '#' comments. Returns 0,
 * -errno when it cannot be read, or -EINVAL; err says "PATH:LINE: reason".
 */
int kvr_opt_load_file(const kvr_opt_set_t *sets, size_t n_sets, const char *path, char *err,
                      size_t err_len);
/** kvr_opt_load_file on an open stream; path names it in errors. */
int kvr_opt_load_stream(const kvr_opt_set_t *sets, size_t n_sets, FILE *f, const char *path,
                        char *err, size_t err_len);
/** Writes one set's rows for --help: flag, argument, help text wrapped, and "(default X)". */
void kvr_opt_help(FILE *out, const kvr_opt_set_t *set);

/** What a program's --help prints around its flags, and the name its errors start with. */
typedef struct kvr_opt_program_s {
    const char *name; /* e.g. "kvroute-tracegen" */
    const char *head; /* before the flags: usage and what the program does (NULL: none) */
    const char *tail; /* after them (NULL: none) */
} kvr_opt_program_t;

/**
 * A program's whole flag step: every set's defaults, then argv. Returns 0
 * to go on; 1 after --help, printed on stdout (head, each set's rows,
 * tail), for the program to exit 0; or -EINVAL after the one line
 * "NAME: reason" on stderr, for the program to exit 2.
 */
int kvr_opt_program_parse(const kvr_opt_program_t *prog, kvr_opt_parser_t *parser, int argc,
                          char **argv);

#endif
