/* SPDX-License-Identifier: Apache-2.0 */
/* Lexer: the reference's preprocess (one trailing newline dropped, lstrip_blocks and
 * trim_blocks as regular expressions over the whole text) and its tokenizer, byte for byte. */
#include <errno.h>
#include <string.h>

#include "tpl_internal.h"

typedef struct lexer_s {
    tpl_ctx_t *ctx;
    const char *src;
    size_t len, pos;
    tpl_tok_t *toks;
    size_t n, cap;
    int curly_depth;
} lexer_t;

static size_t line_terminator_before(const char *s, size_t i)
{
    /* JavaScript's multiline ^ matches after \n, \r, U+2028 and U+2029. */
    if (i == 0)
        return 1;
    if (s[i - 1] == '\n' || s[i - 1] == '\r')
        return 1;
    if (i >= 3 && (unsigned char)s[i - 3] == 0xE2 && (unsigned char)s[i - 2] == 0x80 &&
        ((unsigned char)s[i - 1] == 0xA8 || (unsigned char)s[i - 1] == 0xA9))
        return 1;
    return 0;
}

static size_t skip_ws(const char *s, size_t n, size_t i)
{
    size_t w;
    while (i < n && (w = kvr__tpl_ws_at(s + i, n - i)))
        i += w;
    return i;
}

static bool lit_at(const char *s, size_t n, size_t i, const char *lit)
{
    size_t l = strlen(lit);
    return i + l <= n && memcmp(s + i, lit, l) == 0;
}

/* Length of a {% generation %} / {% endgeneration %} tag at i (0: none), and its dashes. */
static size_t generation_tag(const char *s, size_t n, size_t i, bool *lstrip, bool *rstrip)
{
    if (!lit_at(s, n, i, "{%"))
        return 0;
    size_t j = i + 2;
    *lstrip = j < n && s[j] == '-';
    j = skip_ws(s, n, j + *lstrip);
    if (lit_at(s, n, j, "end"))
        j += 3;
    if (!lit_at(s, n, j, "generation"))
        return 0;
    j = skip_ws(s, n, j + 10);
    *rstrip = j < n && s[j] == '-';
    j += *rstrip;
    return lit_at(s, n, j, "%}") ? j + 2 - i : 0;
}

/* The transformers-specific generation tag: /(\s*){%(-?)\s*(?:end)?generation\s*(-?)%}(\s*)/gs
 * replaced by the surrounding whitespace that its dashes do not strip. */
static tpl_str_t strip_generation_tags(tpl_ctx_t *ctx, tpl_str_t in)
{
    if (!memmem(in.p, in.n, "generation", 10))
        return in;
    tpl_sb_t sb = {0};
    size_t last = 0, i = 0;
    while (i < in.n) {
        bool ls, rs;
        size_t len = generation_tag(in.p, in.n, i, &ls, &rs);
        if (!len) {
            i++;
            continue;
        }
        size_t before = i;
        size_t w;
        while (before > last && (w = kvr__tpl_ws_before(in.p + last, before - last)))
            before -= w;
        size_t after_end = skip_ws(in.p, in.n, i + len);
        kvr__tpl_sb_put(ctx, &sb, in.p + last, before - last);
        if (!ls)
            kvr__tpl_sb_put(ctx, &sb, in.p + before, i - before);
        if (!rs)
            kvr__tpl_sb_put(ctx, &sb, in.p + i + len, after_end - (i + len));
        last = i = after_end;
    }
    kvr__tpl_sb_put(ctx, &sb, in.p + last, in.n - last);
    kvr__tpl_sb_put(ctx, &sb, "", 0);
    return kvr__tpl_sb_str(&sb);
}

static tpl_str_t preprocess(tpl_ctx_t *ctx, const char *src, size_t len)
{
    if (len > 0 && src[len - 1] == '\n')
        len--;
    /* lstrip_blocks: /^[ \t]*({[#%-])/gm -> "$1" */
    char *a = kvr__tpl_alloc(ctx, len + 1);
    size_t an = 0;
    for (size_t i = 0; i < len;) {
        if (line_terminator_before(src, i)) {
            size_t j = i;
            while (j < len && (src[j] == ' ' || src[j] == '\t'))
                j++;
            if (j > i && j + 1 < len && src[j] == '{' &&
                (src[j + 1] == '#' || src[j + 1] == '%' || src[j + 1] == '-')) {
                a[an++] = src[j];
                a[an++] = src[j + 1];
                i = j + 2;
                continue;
            }
        }
        a[an++] = src[i++];
    }
    /* trim_blocks: /([#%-]})\n/g -> "$1" */
    char *b = kvr__tpl_alloc(ctx, an + 1);
    size_t bn = 0;
    for (size_t i = 0; i < an;) {
        if (i + 2 < an && (a[i] == '#' || a[i] == '%' || a[i] == '-') && a[i + 1] == '}' &&
            a[i + 2] == '\n') {
            b[bn++] = a[i];
            b[bn++] = '}';
            i += 3;
            continue;
        }
        b[bn++] = a[i++];
    }
    b[bn] = '\0';
    return strip_generation_tags(ctx, (tpl_str_t){b, bn});
}

static void push(lexer_t *lx, tpl_tok_type_t type, const char *p, size_t n)
{
    if (lx->n == lx->cap) {
        size_t cap = lx->cap ? lx->cap * 2 : 64;
        tpl_tok_t *t = kvr__tpl_alloc(lx->ctx, cap * sizeof(*t));
        if (lx->n)
            memcpy(t, lx->toks, lx->n * sizeof(*t));
        lx->toks = t;
        lx->cap = cap;
    }
    lx->toks[lx->n++] = (tpl_tok_t){type, {p, n}};
}

static tpl_tok_type_t last_type(const lexer_t *lx)
{
    return lx->n ? lx->toks[lx->n - 1].type : (tpl_tok_type_t)-1;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_word(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static void put_utf8(tpl_ctx_t *ctx, tpl_sb_t *sb, unsigned cp)
{
    char b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        b[0] = (char)(0xC0 | (cp >> 6));
        b[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else {
        if (cp >= 0xD800 && cp <= 0xDFFF)
            kvr__tpl_fail(ctx, -EINVAL, "unsupported escape of a lone surrogate");
        b[0] = (char)(0xE0 | (cp >> 12));
        b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    }
    kvr__tpl_sb_put(ctx, sb, b, n);
}

typedef enum { W_SPACE, W_DIGIT, W_WORD, W_QUOTE1, W_QUOTE2 } want_t;

static bool wanted(const lexer_t *lx, want_t w)
{
    if (lx->pos >= lx->len)
        return false;
    char c = lx->src[lx->pos];
    switch (w) {
    case W_SPACE: return kvr__tpl_ws_at(lx->src + lx->pos, lx->len - lx->pos) > 0;
    case W_DIGIT: return is_digit(c);
    case W_WORD: return is_word(c);
    case W_QUOTE1: return c != '\'';
    case W_QUOTE2: return c != '"';
    }
    return false;
}

/* consumeWhile: escapes are decoded in every run (as the reference does), and reaching the
 * end of the source inside a run is a syntax error. */
static tpl_str_t consume_while(lexer_t *lx, want_t w)
{
    tpl_sb_t sb = {0};
    if ((w == W_QUOTE1 || w == W_QUOTE2) && lx->pos >= lx->len)
        kvr__tpl_fail(lx->ctx, -EINVAL, "unexpected end of input");
    while (wanted(lx, w)) {
        const char *s = lx->src;
        if (s[lx->pos] == '\\') {
            if (++lx->pos >= lx->len)
                kvr__tpl_fail(lx->ctx, -EINVAL, "unexpected end of input");
            char e = s[lx->pos++];
            if (e == 'x' || e == 'u') {
                size_t hl = e == 'x' ? 2 : 4;
                unsigned cp = 0;
                if (lx->pos + hl > lx->len)
                    kvr__tpl_fail(lx->ctx, -EINVAL, "invalid hexadecimal escape sequence");
                for (size_t k = 0; k < hl; k++) {
                    char h = s[lx->pos + k];
                    unsigned d = is_digit(h)              ? (unsigned)(h - '0')
                                 : (h >= 'a' && h <= 'f') ? (unsigned)(h - 'a' + 10)
                                 : (h >= 'A' && h <= 'F') ? (unsigned)(h - 'A' + 10)
                                                          : 99;
                    if (d == 99)
                        kvr__tpl_fail(lx->ctx, -EINVAL, "invalid hexadecimal escape sequence");
                    cp = cp * 16 + d;
                }
                put_utf8(lx->ctx, &sb, cp);
                lx->pos += hl;
                continue;
            }
            const char *m = strchr("n\nt\tr\rb\bf\fv\v''\"\"\\\\", e);
            if (e == '\0' || !m || ((m - "n\nt\tr\rb\bf\fv\v''\"\"\\\\") & 1))
                kvr__tpl_fail(lx->ctx, -EINVAL, "unexpected escaped character");
            kvr__tpl_sb_put(lx->ctx, &sb, m + 1, 1);
            continue;
        }
        size_t cl = 1;
        if (w == W_SPACE)
            cl = kvr__tpl_ws_at(s + lx->pos, lx->len - lx->pos);
        kvr__tpl_sb_put(lx->ctx, &sb, s + lx->pos, cl);
        lx->pos += cl;
        if (lx->pos >= lx->len)
            kvr__tpl_fail(lx->ctx, -EINVAL, "unexpected end of input");
    }
    return kvr__tpl_sb_str(&sb);
}

static void strip_trailing_ws(lexer_t *lx)
{
    if (lx->n && lx->toks[lx->n - 1].type == TK_TEXT) {
        tpl_tok_t *t = &lx->toks[lx->n - 1];
        t->text = kvr__tpl_trim(t->text, false, true);
        if (t->text.n == 0)
            lx->n--;
    }
}

static void skip_leading_ws(lexer_t *lx)
{
    size_t w;
    while (lx->pos < lx->len && (w = kvr__tpl_ws_at(lx->src + lx->pos, lx->len - lx->pos)))
        lx->pos += w;
}

static bool at(const lexer_t *lx, const char *s)
{
    size_t n = strlen(s);
    return lx->pos + n <= lx->len && memcmp(lx->src + lx->pos, s, n) == 0;
}

static const struct {
    const char *seq;
    tpl_tok_type_t type;
} table[] = {
    {"{%", TK_OPEN_STMT}, {"%}", TK_CLOSE_STMT}, {"{{", TK_OPEN_EXPR}, {"}}", TK_CLOSE_EXPR},
    {"(", TK_LPAREN},     {")", TK_RPAREN},      {"{", TK_LBRACE},     {"}", TK_RBRACE},
    {"[", TK_LBRACK},     {"]", TK_RBRACK},      {",", TK_COMMA},      {".", TK_DOT},
    {":", TK_COLON},      {"|", TK_PIPE},        {"<=", TK_CMP},       {">=", TK_CMP},
    {"==", TK_CMP},       {"!=", TK_CMP},        {"<", TK_CMP},        {">", TK_CMP},
    {"+", TK_ADD},        {"-", TK_ADD},         {"~", TK_ADD},        {"**", TK_POW},
    {"*", TK_MUL},        {"//", TK_MUL},        {"/", TK_MUL},        {"%", TK_MUL},
    {"=", TK_EQUALS},
};

static bool lex_comment(lexer_t *lx)
{
    lx->pos += 2;
    bool strip_before = lx->pos < lx->len && lx->src[lx->pos] == '-';
    if (strip_before)
        lx->pos++;
    size_t start = lx->pos;
    while (!(lx->pos + 1 < lx->len && lx->src[lx->pos] == '#' && lx->src[lx->pos + 1] == '}')) {
        if (lx->pos + 2 >= lx->len)
            kvr__tpl_fail(lx->ctx, -EINVAL, "missing end of comment tag");
        lx->pos++;
    }
    size_t end = lx->pos;
    bool strip_after = end > start && lx->src[end - 1] == '-';
    if (strip_after)
        end--;
    if (strip_before)
        strip_trailing_ws(lx);
    push(lx, TK_COMMENT, lx->src + start, end - start);
    lx->pos += 2;
    if (strip_after)
        skip_leading_ws(lx);
    return true;
}

static void lex_one(lexer_t *lx)
{
    const char *s = lx->src;
    tpl_tok_type_t lt = last_type(lx);
    if (lx->n == 0 || lt == TK_CLOSE_STMT || lt == TK_CLOSE_EXPR || lt == TK_COMMENT) {
        size_t start = lx->pos;
        while (lx->pos < lx->len &&
               !(s[lx->pos] == '{' && lx->pos + 1 < lx->len &&
                 (s[lx->pos + 1] == '%' || s[lx->pos + 1] == '{' || s[lx->pos + 1] == '#')))
            lx->pos++;
        if (lx->pos > start) {
            push(lx, TK_TEXT, s + start, lx->pos - start);
            return;
        }
    }
    if (at(lx, "{#")) {
        lex_comment(lx);
        return;
    }
    if (at(lx, "{%-")) {
        strip_trailing_ws(lx);
        push(lx, TK_OPEN_STMT, "{%", 2);
        lx->pos += 3;
        return;
    }
    if (at(lx, "{{-")) {
        strip_trailing_ws(lx);
        push(lx, TK_OPEN_EXPR, "{{", 2);
        lx->curly_depth = 0;
        lx->pos += 3;
        return;
    }
    consume_while(lx, W_SPACE);
    if (at(lx, "-%}")) {
        push(lx, TK_CLOSE_STMT, "%}", 2);
        lx->pos += 3;
        skip_leading_ws(lx);
        return;
    }
    if (at(lx, "-}}")) {
        push(lx, TK_CLOSE_EXPR, "}}", 2);
        lx->pos += 3;
        skip_leading_ws(lx);
        return;
    }
    if (lx->pos >= lx->len)
        kvr__tpl_fail(lx->ctx, -EINVAL, "unexpected end of input");
    char c = s[lx->pos];
    if (c == '-' || c == '+') {
        lt = last_type(lx);
        if (lx->n == 0 || lt == TK_TEXT)
            kvr__tpl_fail(lx->ctx, -EINVAL, "unexpected character: %c", c);
        if (lt != TK_IDENT && lt != TK_NUM && lt != TK_STR && lt != TK_RPAREN && lt != TK_RBRACK) {
            lx->pos++;
            tpl_str_t num = consume_while(lx, W_DIGIT);
            tpl_sb_t sb = {0};
            kvr__tpl_sb_put(lx->ctx, &sb, &c, 1);
            kvr__tpl_sb_puts(lx->ctx, &sb, num);
            if (num.n > 0 && lx->pos + 1 < lx->len && s[lx->pos] == '.' &&
                is_digit(s[lx->pos + 1])) {
                lx->pos++;
                tpl_str_t frac = consume_while(lx, W_DIGIT);
                kvr__tpl_sb_put(lx->ctx, &sb, ".", 1);
                kvr__tpl_sb_puts(lx->ctx, &sb, frac);
            }
            tpl_str_t t = kvr__tpl_sb_str(&sb);
            push(lx, num.n ? TK_NUM : TK_UNARY, t.p, t.n);
            return;
        }
    }
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        if (table[i].seq[0] != c || (table[i].type == TK_CLOSE_EXPR && lx->curly_depth > 0))
            continue;
        if (at(lx, table[i].seq)) {
            push(lx, table[i].type, table[i].seq, strlen(table[i].seq));
            if (table[i].type == TK_OPEN_EXPR)
                lx->curly_depth = 0;
            else if (table[i].type == TK_LBRACE)
                lx->curly_depth++;
            else if (table[i].type == TK_RBRACE)
                lx->curly_depth--;
            lx->pos += strlen(table[i].seq);
            return;
        }
    }
    if (c == '\'' || c == '"') {
        lx->pos++;
        tpl_str_t str = consume_while(lx, c == '\'' ? W_QUOTE1 : W_QUOTE2);
        push(lx, TK_STR, str.p, str.n);
        lx->pos++;
        return;
    }
    if (is_digit(c)) {
        tpl_str_t num = consume_while(lx, W_DIGIT);
        if (last_type(lx) != TK_DOT && lx->pos + 1 < lx->len && s[lx->pos] == '.' &&
            is_digit(s[lx->pos + 1])) {
            lx->pos++;
            tpl_str_t frac = consume_while(lx, W_DIGIT);
            tpl_sb_t sb = {0};
            kvr__tpl_sb_puts(lx->ctx, &sb, num);
            kvr__tpl_sb_put(lx->ctx, &sb, ".", 1);
            kvr__tpl_sb_puts(lx->ctx, &sb, frac);
            num = kvr__tpl_sb_str(&sb);
        }
        push(lx, TK_NUM, num.p, num.n);
        return;
    }
    if (is_word(c)) {
        tpl_str_t w = consume_while(lx, W_WORD);
        push(lx, TK_IDENT, w.p, w.n);
        return;
    }
    kvr__tpl_fail(lx->ctx, -EINVAL, "unexpected character at byte %zu", lx->pos);
}

void kvr__tpl_tokenize(tpl_ctx_t *ctx, const char *src, size_t len, tpl_tok_t **toks, size_t *ntoks)
{
    tpl_str_t pre = preprocess(ctx, src, len);
    lexer_t lx = {.ctx = ctx, .src = pre.p, .len = pre.n};
    while (lx.pos < lx.len)
        lex_one(&lx);
    *toks = lx.toks;
    *ntoks = lx.n;
}
