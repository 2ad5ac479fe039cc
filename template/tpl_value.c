/* SPDX-License-Identifier: Apache-2.0 */
/* Values as the reference's runtime sees them: JSON converted like JavaScript's
 * Object.entries (array-index keys first), JavaScript truthiness and number printing, and
 * its toJSON (Python json.dumps separators, raw UTF-8 unless ensure_ascii). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_text.h"
#include "common/xmalloc.h"
#include "tpl_internal.h"

#define TPL_MAX_JSON_DEPTH 128
#define TPL_MAX_OBJECT_MEMBERS 4096

struct tpl_chunk_s {
    tpl_chunk_t *next;
    size_t size, used;
    max_align_t data[];
};

void kvr__tpl_charge_slow(tpl_ctx_t *ctx)
{
    kvr__tpl_fail(ctx, -E2BIG, "template work limit reached");
}

struct kvr_template_scratch_s {
    tpl_chunk_t *free;
    size_t kept_bytes, keep_bytes;
};

kvr_template_scratch_t *kvr_template_scratch_create(size_t keep_bytes)
{
    kvr_template_scratch_t *s = kvr_xcalloc(1, sizeof(*s));
    s->keep_bytes = keep_bytes;
    return s;
}

void kvr_template_scratch_destroy(kvr_template_scratch_t *s)
{
    if (!s)
        return;
    while (s->free) {
        tpl_chunk_t *next = s->free->next;
        free(s->free);
        s->free = next;
    }
    free(s);
}

/* A kept chunk of at least size bytes, or NULL. */
static tpl_chunk_t *scratch_take(kvr_template_scratch_t *s, size_t size)
{
    if (!s)
        return NULL;
    for (tpl_chunk_t **p = &s->free; *p; p = &(*p)->next)
        if ((*p)->size >= size) {
            tpl_chunk_t *c = *p;
            *p = c->next;
            s->kept_bytes -= c->size;
            c->used = 0;
            return c;
        }
    return NULL;
}

void *kvr__tpl_alloc(tpl_ctx_t *ctx, size_t n)
{
    kvr__tpl_charge(ctx, n);
    tpl_arena_t *a = &ctx->arena;
    n = (n + 15) & ~(size_t)15;
    if (n == 0)
        n = 16;
    tpl_chunk_t *c = a->head;
    if (!c || c->size - c->used < n) {
        /* chunks double up to 4 MB: a long render takes few large blocks, not many faults */
        size_t size = c ? c->size * 2 : 64u << 10;
        if (size > (4u << 20))
            size = 4u << 20;
        if (size < n)
            size = n;
        if (a->used_bytes + size > a->max_bytes)
            kvr__tpl_fail(ctx, -E2BIG, "template memory limit reached");
        c = scratch_take(a->scratch, size);
        if (!c) {
            c = kvr_xmalloc(sizeof(*c) + size);
            c->size = size;
        }
        c->used = 0;
        c->next = a->head;
        a->head = c;
        a->used_bytes += c->size;
    }
    void *p = (char *)c->data + c->used;
    c->used += n;
    return p;
}

void kvr__tpl_arena_free(tpl_arena_t *a)
{
    tpl_chunk_t *c = a->head;
    while (c) {
        tpl_chunk_t *next = c->next;
        kvr_template_scratch_t *s = a->scratch;
        if (s && s->kept_bytes + c->size <= s->keep_bytes) {
            c->next = s->free;
            s->free = c;
            s->kept_bytes += c->size;
        } else {
            free(c);
        }
        c = next;
    }
    a->head = NULL;
    a->used_bytes = 0;
}

void kvr__tpl_fail(tpl_ctx_t *ctx, int code, const char *fmt, ...)
{
    if (ctx->err) {
        va_list ap;
        va_start(ap, fmt);
        ctx->err->code = code;
        vsnprintf(ctx->err->message, sizeof(ctx->err->message), fmt, ap);
        va_end(ap);
    }
    longjmp(ctx->jmp, code ? code : -EINVAL);
}

tpl_str_t kvr__tpl_strdup(tpl_ctx_t *ctx, const char *p, size_t n)
{
    char *d = kvr__tpl_alloc(ctx, n + 1);
    if (n)
        memcpy(d, p, n);
    d[n] = '\0';
    return (tpl_str_t){d, n};
}

void kvr__tpl_sb_put(tpl_ctx_t *ctx, tpl_sb_t *sb, const char *p, size_t n)
{
    if (n == 0)
        return;
    kvr__tpl_charge(ctx, n);
    if (sb->max && sb->n + n > sb->max)
        kvr__tpl_fail(ctx, -E2BIG, "rendered output exceeds %zu bytes", sb->max);
    if (sb->n + n + 1 > sb->cap) {
        size_t cap = sb->cap ? sb->cap : 64;
        while (cap < sb->n + n + 1)
            cap *= 2;
        char *np = kvr__tpl_alloc(ctx, cap);
        if (sb->n)
            memcpy(np, sb->p, sb->n);
        sb->p = np;
        sb->cap = cap;
    }
    memcpy(sb->p + sb->n, p, n);
    sb->n += n;
    sb->p[sb->n] = '\0';
}

tpl_str_t kvr__tpl_sb_str(tpl_sb_t *sb)
{
    return (tpl_str_t){sb->p ? sb->p : "", sb->n};
}

/* ---- UTF-8 and JavaScript whitespace ---- */

static bool js_space_cp(unsigned cp)
{
    return cp == 0x09 || cp == 0x0A || cp == 0x0B || cp == 0x0C || cp == 0x0D || cp == 0x20 ||
           cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
           cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000 || cp == 0xFEFF;
}

static size_t decode(const unsigned char *p, size_t n, unsigned *cp)
{
    if (p[0] < 0x80) {
        *cp = p[0];
        return 1;
    }
    if ((p[0] & 0xE0) == 0xC0 && n >= 2) {
        *cp = ((p[0] & 0x1Fu) << 6) | (p[1] & 0x3Fu);
        return 2;
    }
    if ((p[0] & 0xF0) == 0xE0 && n >= 3) {
        *cp = ((p[0] & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
        return 3;
    }
    if ((p[0] & 0xF8) == 0xF0 && n >= 4) {
        *cp = ((p[0] & 0x07u) << 18) | ((p[1] & 0x3Fu) << 12) | ((p[2] & 0x3Fu) << 6) |
              (p[3] & 0x3Fu);
        return 4;
    }
    *cp = 0xFFFD;
    return 1;
}

size_t kvr__tpl_ws_at(const char *p, size_t n)
{
    if (n == 0)
        return 0;
    unsigned cp;
    size_t l = decode((const unsigned char *)p, n, &cp);
    return js_space_cp(cp) ? l : 0;
}

size_t kvr__tpl_ws_before(const char *p, size_t n)
{
    if (n == 0)
        return 0;
    size_t start = n - 1;
    while (start > 0 && n - start < 4 && ((unsigned char)p[start] & 0xC0) == 0x80)
        start--;
    size_t l = kvr__tpl_ws_at(p + start, n - start);
    return l == n - start ? l : 0;
}

tpl_str_t kvr__tpl_trim(tpl_str_t s, bool start, bool end)
{
    size_t w;
    if (start)
        while (s.n && (w = kvr__tpl_ws_at(s.p, s.n))) {
            s.p += w;
            s.n -= w;
        }
    if (end)
        while (s.n && (w = kvr__tpl_ws_before(s.p, s.n)))
            s.n -= w;
    return s;
}

/* ---- values ---- */

tpl_value_t *kvr__tpl_val(tpl_ctx_t *ctx, tpl_vtype_t type)
{
    tpl_value_t *v = kvr__tpl_alloc(ctx, sizeof(*v));
    memset(v, 0, sizeof(*v));
    v->type = type;
    return v;
}

tpl_value_t *kvr__tpl_str_val(tpl_ctx_t *ctx, tpl_str_t s)
{
    tpl_value_t *v = kvr__tpl_val(ctx, V_STR);
    v->s = s;
    return v;
}

tpl_value_t *kvr__tpl_num_val(tpl_ctx_t *ctx, tpl_vtype_t type, double d)
{
    tpl_value_t *v = kvr__tpl_val(ctx, type);
    v->num = d;
    return v;
}

tpl_value_t *kvr__tpl_bool_val(tpl_ctx_t *ctx, bool b)
{
    tpl_value_t *v = kvr__tpl_val(ctx, V_BOOL);
    v->b = b;
    return v;
}

void kvr__tpl_arr_push(tpl_ctx_t *ctx, tpl_value_t *arr, tpl_value_t *v)
{
    if (arr->n == arr->cap) {
        size_t cap = arr->cap ? arr->cap * 2 : 4;
        tpl_value_t **items = kvr__tpl_alloc(ctx, cap * sizeof(*items));
        if (arr->n)
            memcpy(items, arr->items, arr->n * sizeof(*items));
        arr->items = items;
        arr->cap = cap;
    }
    arr->items[arr->n++] = v;
}

tpl_value_t *kvr__tpl_obj_get(tpl_ctx_t *ctx, const tpl_value_t *obj, const char *key, size_t n)
{
    if (ctx) /* NULL: a keyword-argument list, a handful of entries */
        kvr__tpl_charge(ctx, obj->n + 1);
    for (size_t i = 0; i < obj->n; i++)
        if (obj->kv[i].key.n == n && memcmp(obj->kv[i].key.p, key, n) == 0)
            return obj->kv[i].val;
    return NULL;
}

void kvr__tpl_obj_set(tpl_ctx_t *ctx, tpl_value_t *obj, tpl_str_t key, tpl_value_t *v)
{
    kvr__tpl_charge(ctx, obj->n + 1);
    for (size_t i = 0; i < obj->n; i++)
        if (obj->kv[i].key.n == key.n && memcmp(obj->kv[i].key.p, key.p, key.n) == 0) {
            obj->kv[i].val = v;
            return;
        }
    if (obj->n >= TPL_MAX_OBJECT_MEMBERS)
        kvr__tpl_fail(ctx, -E2BIG, "object has more than %d members", TPL_MAX_OBJECT_MEMBERS);
    if (obj->n == obj->cap) {
        size_t cap = obj->cap ? obj->cap * 2 : 4;
        tpl_kv_t *kv = kvr__tpl_alloc(ctx, cap * sizeof(*kv));
        if (obj->n)
            memcpy(kv, obj->kv, obj->n * sizeof(*kv));
        obj->kv = kv;
        obj->cap = cap;
    }
    obj->kv[obj->n++] = (tpl_kv_t){key, v};
}

/* JavaScript orders an object's array-index keys ("0".."4294967294", canonical) first,
 * ascending, then the other keys in insertion order. */
static bool array_index(const char *k, size_t n, double *idx)
{
    if (n == 0 || n > 10 || (n > 1 && k[0] == '0'))
        return false;
    double v = 0;
    for (size_t i = 0; i < n; i++) {
        if (k[i] < '0' || k[i] > '9')
            return false;
        v = v * 10 + (k[i] - '0');
    }
    if (v > 4294967294.0)
        return false;
    *idx = v;
    return true;
}

static tpl_str_t json_str(tpl_ctx_t *ctx, const char *s)
{
    size_t n = strlen(s);
    if (kvr_json_utf8_valid_prefix(s, n) != n)
        kvr__tpl_fail(ctx, -EILSEQ, "invalid UTF-8 in request JSON");
    return (tpl_str_t){s, n};
}

tpl_value_t *kvr__tpl_from_json(tpl_ctx_t *ctx, const cJSON *j, unsigned depth)
{
    if (depth > TPL_MAX_JSON_DEPTH)
        kvr__tpl_fail(ctx, -ELOOP, "request JSON nested deeper than %d", TPL_MAX_JSON_DEPTH);
    if (!j || cJSON_IsNull(j))
        return kvr__tpl_val(ctx, V_NULL);
    if (cJSON_IsBool(j))
        return kvr__tpl_bool_val(ctx, cJSON_IsTrue(j));
    if (cJSON_IsNumber(j)) {
        double d = j->valuedouble;
        return kvr__tpl_num_val(ctx, isfinite(d) && d == floor(d) ? V_INT : V_FLOAT, d);
    }
    if (cJSON_IsString(j))
        return kvr__tpl_str_val(ctx, json_str(ctx, j->valuestring ? j->valuestring : ""));
    if (cJSON_IsArray(j)) {
        tpl_value_t *arr = kvr__tpl_val(ctx, V_ARR);
        for (const cJSON *c = j->child; c; c = c->next)
            kvr__tpl_arr_push(ctx, arr, kvr__tpl_from_json(ctx, c, depth + 1));
        return arr;
    }
    if (cJSON_IsObject(j)) {
        tpl_value_t *obj = kvr__tpl_val(ctx, V_OBJ);
        for (const cJSON *c = j->child; c; c = c->next)
            kvr__tpl_obj_set(ctx, obj, json_str(ctx, c->string ? c->string : ""),
                             kvr__tpl_from_json(ctx, c, depth + 1));
        /* stable insertion sort of the array-index keys to the front */
        size_t nidx = 0;
        for (size_t i = 0; i < obj->n; i++) {
            double ki;
            if (!array_index(obj->kv[i].key.p, obj->kv[i].key.n, &ki))
                continue;
            tpl_kv_t kv = obj->kv[i];
            size_t at = nidx;
            while (at > 0) {
                double kp;
                array_index(obj->kv[at - 1].key.p, obj->kv[at - 1].key.n, &kp);
                if (kp <= ki)
                    break;
                at--;
            }
            memmove(&obj->kv[at + 1], &obj->kv[at], (i - at) * sizeof(kv));
            obj->kv[at] = kv;
            nidx++;
        }
        return obj;
    }
    kvr__tpl_fail(ctx, -EINVAL, "unsupported JSON value");
}

bool kvr__tpl_truthy(const tpl_value_t *v)
{
    switch (v->type) {
    case V_UNDEF:
    case V_NULL: return false;
    case V_BOOL: return v->b;
    case V_INT:
    case V_FLOAT: return v->num != 0 && !isnan(v->num);
    case V_STR: return v->s.n > 0;
    case V_ARR:
    case V_TUPLE:
    case V_OBJ:
    case V_KWARGS: return v->n > 0;
    case V_NS:
    case V_FUNC: return true;
    }
    return false;
}

const char *kvr__tpl_type_name(const tpl_value_t *v)
{
    static const char *const names[] = {
        "UndefinedValue",        "NullValue",     "BooleanValue", "IntegerValue", "FloatValue",
        "StringValue",           "ArrayValue",    "TupleValue",   "ObjectValue",  "NamespaceValue",
        "KeywordArgumentsValue", "FunctionValue",
    };
    return names[v->type];
}

void kvr__tpl_js_number(tpl_ctx_t *ctx, tpl_sb_t *sb, double v)
{
    char out[64];
    if (isnan(v)) {
        kvr__tpl_sb_put(ctx, sb, "NaN", 3);
        return;
    }
    if (isinf(v)) {
        kvr__tpl_sb_put(ctx, sb, v < 0 ? "-Infinity" : "Infinity", v < 0 ? 9 : 8);
        return;
    }
    if (v == 0) {
        kvr__tpl_sb_put(ctx, sb, "0", 1);
        return;
    }
    char buf[40];
    int prec;
    for (prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof(buf), "%.*e", prec - 1, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    /* buf: [-]d[.ddd]e[+-]xx */
    const char *p = buf;
    size_t o = 0;
    if (*p == '-')
        out[o++] = *p++;
    char digits[20];
    int k = 0;
    while (*p && *p != 'e') {
        if (*p != '.')
            digits[k++] = *p;
        p++;
    }
    while (k > 1 && digits[k - 1] == '0')
        k--;
    int e = atoi(p + 1);
    int n = e + 1;
    if (k <= n && n <= 21) {
        memcpy(out + o, digits, (size_t)k);
        o += (size_t)k;
        for (int i = 0; i < n - k; i++)
            out[o++] = '0';
    } else if (0 < n && n <= 21) {
        memcpy(out + o, digits, (size_t)n);
        o += (size_t)n;
        out[o++] = '.';
        memcpy(out + o, digits + n, (size_t)(k - n));
        o += (size_t)(k - n);
    } else if (-6 < n && n <= 0) {
        out[o++] = '0';
        out[o++] = '.';
        for (int i = 0; i < -n; i++)
            out[o++] = '0';
        memcpy(out + o, digits, (size_t)k);
        o += (size_t)k;
    } else {
        out[o++] = digits[0];
        if (k > 1) {
            out[o++] = '.';
            memcpy(out + o, digits + 1, (size_t)(k - 1));
            o += (size_t)(k - 1);
        }
        o += (size_t)snprintf(out + o, sizeof(out) - o, "e%c%d", n - 1 < 0 ? '-' : '+', abs(n - 1));
    }
    kvr__tpl_sb_put(ctx, sb, out, o);
}

static void print_float(tpl_ctx_t *ctx, tpl_sb_t *sb, double v)
{
    if (v == 0 && signbit(v)) {
        kvr__tpl_sb_put(ctx, sb, "-0.0", 4);
        return;
    }
    kvr__tpl_js_number(ctx, sb, v);
    if (isfinite(v) && v == floor(v) && fabs(v) < 1e21)
        kvr__tpl_sb_put(ctx, sb, ".0", 2);
}

void kvr__tpl_print(tpl_ctx_t *ctx, tpl_sb_t *sb, const tpl_value_t *v)
{
    tpl_json_opts_t o = {0};
    switch (v->type) {
    case V_UNDEF: kvr__tpl_sb_put(ctx, sb, "undefined", 9); return;
    /* the reference builds NullValue without a value, so it prints as undefined too */
    case V_NULL: kvr__tpl_sb_put(ctx, sb, "undefined", 9); return;
    case V_BOOL: kvr__tpl_sb_put(ctx, sb, v->b ? "true" : "false", v->b ? 4 : 5); return;
    case V_INT: kvr__tpl_js_number(ctx, sb, v->num); return;
    case V_FLOAT: print_float(ctx, sb, v->num); return;
    case V_STR: kvr__tpl_sb_puts(ctx, sb, v->s); return;
    case V_ARR:
    case V_TUPLE:
    case V_OBJ:
    case V_NS:
    case V_KWARGS: kvr__tpl_tojson(ctx, sb, v, &o, 0); return;
    case V_FUNC: break;
    }
    kvr__tpl_fail(ctx, -EINVAL, "cannot print a function");
}

void kvr__tpl_print_raw(tpl_ctx_t *ctx, tpl_sb_t *sb, const tpl_value_t *v)
{
    switch (v->type) {
    case V_INT:
    case V_FLOAT: kvr__tpl_js_number(ctx, sb, v->num); return;
    case V_ARR:
    case V_TUPLE:
        if (++ctx->depth > ctx->max_depth)
            kvr__tpl_fail(ctx, -ELOOP, "value nested too deep");
        for (size_t i = 0; i < v->n; i++) {
            if (i)
                kvr__tpl_sb_put(ctx, sb, ",", 1);
            kvr__tpl_print(ctx, sb, v->items[i]);
        }
        ctx->depth--;
        return;
    case V_OBJ:
    case V_NS:
    case V_KWARGS: kvr__tpl_sb_put(ctx, sb, "[object Map]", 12); return;
    default: kvr__tpl_print(ctx, sb, v);
    }
}

static void json_string(tpl_ctx_t *ctx, tpl_sb_t *sb, tpl_str_t s, bool ascii)
{
    kvr__tpl_sb_put(ctx, sb, "\"", 1);
    size_t i = 0;
    while (i < s.n) {
        unsigned char c = (unsigned char)s.p[i];
        char esc[16];
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            kvr__tpl_sb_put(ctx, sb, esc, 2);
            i++;
        } else if (c < 0x20) {
            const char *m = c == '\b'   ? "\\b"
                            : c == '\f' ? "\\f"
                            : c == '\n' ? "\\n"
                            : c == '\r' ? "\\r"
                            : c == '\t' ? "\\t"
                                        : NULL;
            if (m)
                kvr__tpl_sb_put(ctx, sb, m, 2);
            else
                kvr__tpl_sb_put(ctx, sb, esc, (size_t)snprintf(esc, sizeof(esc), "\\u%04x", c));
            i++;
        } else if (ascii && c >= 0x7F) {
            unsigned cp;
            size_t l = decode((const unsigned char *)s.p + i, s.n - i, &cp);
            if (cp >= 0x10000) {
                cp -= 0x10000;
                kvr__tpl_sb_put(ctx, sb, esc,
                                (size_t)snprintf(esc, sizeof(esc), "\\u%04x\\u%04x",
                                                 0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF)));
            } else {
                kvr__tpl_sb_put(ctx, sb, esc, (size_t)snprintf(esc, sizeof(esc), "\\u%04x", cp));
            }
            i += l;
        } else {
            size_t j = i + 1;
            while (j < s.n && (unsigned char)s.p[j] >= 0x20 && s.p[j] != '"' && s.p[j] != '\\' &&
                   !(ascii && (unsigned char)s.p[j] >= 0x7F))
                j++;
            kvr__tpl_sb_put(ctx, sb, s.p + i, j - i);
            i = j;
        }
    }
    kvr__tpl_sb_put(ctx, sb, "\"", 1);
}

static void pad(tpl_ctx_t *ctx, tpl_sb_t *sb, int indent, unsigned depth)
{
    kvr__tpl_sb_put(ctx, sb, "\n", 1);
    for (unsigned i = 0; i < (unsigned)indent * depth; i++)
        kvr__tpl_sb_put(ctx, sb, " ", 1);
}

static int key_cmp(const void *a, const void *b)
{
    const tpl_kv_t *x = *(tpl_kv_t *const *)a, *y = *(tpl_kv_t *const *)b;
    size_t n = x->key.n < y->key.n ? x->key.n : y->key.n;
    int c = memcmp(x->key.p, y->key.p, n);
    return c ? c : (x->key.n > y->key.n) - (x->key.n < y->key.n);
}

void kvr__tpl_tojson(tpl_ctx_t *ctx, tpl_sb_t *sb, const tpl_value_t *v, const tpl_json_opts_t *o,
                     unsigned depth)
{
    if (depth > ctx->max_depth * 2)
        kvr__tpl_fail(ctx, -ELOOP, "value nested too deep for tojson");
    tpl_str_t item_sep = o->item_sep.p   ? o->item_sep
                         : o->indent > 0 ? (tpl_str_t){",", 1}
                                         : (tpl_str_t){", ", 2};
    tpl_str_t key_sep = o->key_sep.p ? o->key_sep : (tpl_str_t){": ", 2};
    switch (v->type) {
    case V_NULL: kvr__tpl_sb_put(ctx, sb, "null", 4); return;
    case V_UNDEF:
        if (o->undefined_as_null)
            kvr__tpl_sb_put(ctx, sb, "null", 4);
        else
            kvr__tpl_sb_put(ctx, sb, "undefined", 9);
        return;
    case V_INT:
    case V_FLOAT:
        if (!isfinite(v->num))
            kvr__tpl_sb_put(ctx, sb, "null", 4);
        else
            kvr__tpl_js_number(ctx, sb, v->num);
        return;
    case V_BOOL: kvr__tpl_sb_put(ctx, sb, v->b ? "true" : "false", v->b ? 4 : 5); return;
    case V_STR: json_string(ctx, sb, v->s, o->ensure_ascii); return;
    case V_TUPLE: break;
    case V_ARR:
        kvr__tpl_sb_put(ctx, sb, "[", 1);
        for (size_t i = 0; i < v->n; i++) {
            if (i)
                kvr__tpl_sb_puts(ctx, sb, item_sep);
            if (o->indent > 0)
                pad(ctx, sb, o->indent, depth + 1);
            kvr__tpl_tojson(ctx, sb, v->items[i], o, depth + 1);
        }
        if (o->indent > 0 && v->n)
            pad(ctx, sb, o->indent, depth);
        kvr__tpl_sb_put(ctx, sb, "]", 1);
        return;
    case V_OBJ:
    case V_NS:
    case V_KWARGS: {
        const tpl_kv_t **order = kvr__tpl_alloc(ctx, (v->n + 1) * sizeof(*order));
        for (size_t i = 0; i < v->n; i++)
            order[i] = &v->kv[i];
        if (o->sort_keys && v->n > 1)
            qsort(order, v->n, sizeof(*order), key_cmp);
        kvr__tpl_sb_put(ctx, sb, "{", 1);
        for (size_t i = 0; i < v->n; i++) {
            if (i)
                kvr__tpl_sb_puts(ctx, sb, item_sep);
            if (o->indent > 0)
                pad(ctx, sb, o->indent, depth + 1);
            json_string(ctx, sb, order[i]->key, o->ensure_ascii);
            kvr__tpl_sb_puts(ctx, sb, key_sep);
            kvr__tpl_tojson(ctx, sb, order[i]->val, o, depth + 1);
        }
        if (o->indent > 0 && v->n)
            pad(ctx, sb, o->indent, depth);
        kvr__tpl_sb_put(ctx, sb, "}", 1);
        return;
    }
    case V_FUNC: break;
    }
    kvr__tpl_fail(ctx, -EINVAL, "cannot convert to JSON: %s", kvr__tpl_type_name(v));
}
