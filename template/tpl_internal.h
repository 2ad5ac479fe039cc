/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TPL_INTERNAL_H
#define KVR_TPL_INTERNAL_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "template.h"

/* Everything a compile or a render allocates lives in one arena and goes at once; errors
 * unwind with longjmp to the entry point, which frees the arena, so no path leaks. */
typedef struct tpl_chunk_s tpl_chunk_t;
typedef struct tpl_arena_s {
    tpl_chunk_t *head;
    size_t used_bytes;
    size_t max_bytes;
    kvr_template_scratch_t *scratch; /* where chunks come from and go back to, or NULL */
} tpl_arena_t;

typedef struct tpl_ctx_s {
    tpl_arena_t arena;
    jmp_buf jmp;
    kvr_template_error_t *err;
    unsigned depth;
    unsigned max_depth;
    /* work done, in roughly bytes touched: bounds a render's time as the arena bounds its
     * memory (a loop's body may scan a long string every iteration) */
    uint64_t work;
    uint64_t max_work;
} tpl_ctx_t;

typedef struct tpl_str_s {
    const char *p;
    size_t n;
} tpl_str_t;

void *kvr__tpl_alloc(tpl_ctx_t *ctx, size_t n);
void kvr__tpl_arena_free(tpl_arena_t *a);
__attribute__((noreturn, format(printf, 3, 4))) void kvr__tpl_fail(tpl_ctx_t *ctx, int code,
                                                                   const char *fmt, ...);
tpl_str_t kvr__tpl_strdup(tpl_ctx_t *ctx, const char *p, size_t n);
void kvr__tpl_charge_slow(tpl_ctx_t *ctx);
static inline void kvr__tpl_charge(tpl_ctx_t *ctx, size_t units)
{
    ctx->work += units;
    if (ctx->work > ctx->max_work)
        kvr__tpl_charge_slow(ctx);
}

/* Growable string in the arena. */
typedef struct tpl_sb_s {
    char *p;
    size_t n, cap, max;
} tpl_sb_t;
void kvr__tpl_sb_put(tpl_ctx_t *ctx, tpl_sb_t *sb, const char *p, size_t n);
static inline void kvr__tpl_sb_puts(tpl_ctx_t *ctx, tpl_sb_t *sb, tpl_str_t s)
{
    kvr__tpl_sb_put(ctx, sb, s.p, s.n);
}
tpl_str_t kvr__tpl_sb_str(tpl_sb_t *sb);

/* UTF-8 helpers with JavaScript's view of whitespace (String.prototype.trim, /\s/). */
size_t kvr__tpl_ws_at(const char *p, size_t n);
size_t kvr__tpl_ws_before(const char *p, size_t n);
tpl_str_t kvr__tpl_trim(tpl_str_t s, bool start, bool end);

/* ---- tokens ---- */
typedef enum {
    TK_TEXT,
    TK_NUM,
    TK_STR,
    TK_IDENT,
    TK_EQUALS,
    TK_LPAREN,
    TK_RPAREN,
    TK_OPEN_STMT,
    TK_CLOSE_STMT,
    TK_OPEN_EXPR,
    TK_CLOSE_EXPR,
    TK_LBRACK,
    TK_RBRACK,
    TK_LBRACE,
    TK_RBRACE,
    TK_COMMA,
    TK_DOT,
    TK_COLON,
    TK_PIPE,
    TK_ADD,
    TK_MUL,
    TK_POW,
    TK_CMP,
    TK_UNARY,
    TK_COMMENT,
} tpl_tok_type_t;

typedef struct tpl_tok_s {
    tpl_tok_type_t type;
    tpl_str_t text;
} tpl_tok_t;

/** Preprocesses (HF's trim_blocks/lstrip_blocks) and tokenizes; fails through ctx. */
void kvr__tpl_tokenize(tpl_ctx_t *ctx, const char *src, size_t len, tpl_tok_t **toks,
                       size_t *ntoks);

/* ---- syntax tree ---- */
typedef enum {
    N_PROGRAM,
    N_STR,
    N_INT,
    N_FLOAT,
    N_ARRAY,
    N_TUPLE,
    N_OBJECT,
    N_IDENT,
    N_MEMBER,
    N_SLICE,
    N_CALL,
    N_UNARY,
    N_BINARY,
    N_FILTER,
    N_TEST,
    N_SELECT,
    N_TERNARY,
    N_SET,
    N_IF,
    N_FOR,
    N_MACRO,
    N_BREAK,
    N_CONTINUE,
    N_COMMENT,
    N_KWARG,
    N_FILTER_BLOCK,
} tpl_node_type_t;

typedef struct tpl_node_s tpl_node_t;
typedef struct tpl_list_s {
    tpl_node_t **v;
    size_t n, cap;
} tpl_list_t;

struct tpl_node_s {
    tpl_node_type_t type;
    tpl_str_t str; /* literal, identifier, operator, kwarg/filter/test name */
    double num;
    bool flag;             /* member: computed; test: negated */
    tpl_node_t *a, *b, *c; /* operands, by node type (see parser) */
    tpl_list_t list;       /* elements, arguments, body */
    tpl_list_t list2;      /* object values, alternate/else body */
};

/** Parses tokens into a program node; fails through ctx. */
tpl_node_t *kvr__tpl_parse(tpl_ctx_t *ctx, const tpl_tok_t *toks, size_t ntoks);

/* ---- values ---- */
typedef enum {
    V_UNDEF,
    V_NULL,
    V_BOOL,
    V_INT,
    V_FLOAT,
    V_STR,
    V_ARR,
    V_TUPLE,
    V_OBJ,
    V_NS,
    V_KWARGS,
    V_FUNC,
} tpl_vtype_t;

typedef struct tpl_value_s tpl_value_t;
typedef struct tpl_kv_s {
    tpl_str_t key;
    tpl_value_t *val;
} tpl_kv_t;

struct tpl_value_s {
    tpl_vtype_t type;
    bool b;
    double num;
    tpl_str_t s;
    tpl_value_t **items; /* array, tuple */
    tpl_kv_t *kv;        /* object, namespace, kwargs */
    size_t n, cap;
    int fn;                  /* builtin id */
    tpl_value_t *self;       /* bound method receiver */
    const tpl_node_t *macro; /* user macro */
};

tpl_value_t *kvr__tpl_val(tpl_ctx_t *ctx, tpl_vtype_t type);
tpl_value_t *kvr__tpl_str_val(tpl_ctx_t *ctx, tpl_str_t s);
tpl_value_t *kvr__tpl_num_val(tpl_ctx_t *ctx, tpl_vtype_t type, double v);
tpl_value_t *kvr__tpl_bool_val(tpl_ctx_t *ctx, bool b);
void kvr__tpl_arr_push(tpl_ctx_t *ctx, tpl_value_t *arr, tpl_value_t *v);
tpl_value_t *kvr__tpl_obj_get(tpl_ctx_t *ctx, const tpl_value_t *obj, const char *key, size_t n);
void kvr__tpl_obj_set(tpl_ctx_t *ctx, tpl_value_t *obj, tpl_str_t key, tpl_value_t *v);
tpl_value_t *kvr__tpl_from_json(tpl_ctx_t *ctx, const cJSON *j, unsigned depth);
bool kvr__tpl_truthy(const tpl_value_t *v);
/** JavaScript String(number). */
void kvr__tpl_js_number(tpl_ctx_t *ctx, tpl_sb_t *sb, double v);
/** RuntimeValue.toString() as the reference prints {{ value }}. */
void kvr__tpl_print(tpl_ctx_t *ctx, tpl_sb_t *sb, const tpl_value_t *v);
/** The value's raw JavaScript toString() (used by + and ~). */
void kvr__tpl_print_raw(tpl_ctx_t *ctx, tpl_sb_t *sb, const tpl_value_t *v);

typedef struct tpl_json_opts_s {
    int indent; /* <= 0: none */
    bool ensure_ascii;
    bool sort_keys;
    tpl_str_t item_sep, key_sep; /* p == NULL: defaults */
    bool undefined_as_null;
} tpl_json_opts_t;
void kvr__tpl_tojson(tpl_ctx_t *ctx, tpl_sb_t *sb, const tpl_value_t *v, const tpl_json_opts_t *o,
                     unsigned depth);
const char *kvr__tpl_type_name(const tpl_value_t *v);

#endif
