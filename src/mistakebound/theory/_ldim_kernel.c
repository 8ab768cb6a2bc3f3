/* The Littlestone-dimension search of mistakebound.theory.littlestone, in C.
 *
 * The same exact search as LdimSearch's bitset memo (see littlestone.py and
 * ldim_kernel.py for the argument): version spaces are bitsets over the class's
 * distinct rows, "is Ldim(V) >= k?" is answered by trying the distinct splits of V
 * most balanced first, the smaller side first, cutting a split whose smaller side has
 * s rows as soon as 1 + floor(log2 s) < k, and a node passes its splitting columns
 * down to its children.  The memo keeps, per version space, a proven lower and upper
 * bound; when it is full it is emptied (answers stay exact: the memo only saves time).
 * There is no canonical memo: classes whose sub-classes repeat up to relabelling are
 * left to the Python search, which has one.
 *
 * One function, ldim_bounds(matrix, n, m, max_nodes, time_limit, memo_bytes), returns
 * (lower, upper, status, nodes, distinct_rows, exception); status 0 exact, 1 out of
 * nodes or time, 2 interrupted (a signal handler raised `exception`, e.g. Ctrl-C's
 * KeyboardInterrupt), 3 out of memory.  Bounds are proven whatever the status, except
 * status 3 before the search started (lower > upper then).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "_kernel_compat.h"

typedef uint64_t word;

enum { ST_EXACT = 0, ST_BUDGET = 1, ST_INTERRUPTED = 2, ST_MEMORY = 3 };

typedef struct {
    int W;           /* words per bitset */
    word *cols;      /* the distinct non-constant columns, W words each */
    long long nodes, max_nodes;
    double deadline; /* < 0: none */
    int stopped;     /* 0, or a status */
    /* memo: open addressing on hashes; keys live in an arena */
    size_t cap;      /* slots, a power of two */
    size_t used;
    uint64_t *slot_hash; /* 0: empty */
    size_t *slot_off;    /* offset of the key in the arena (in words) */
    signed char *slot_lo, *slot_hi;
    word *arena;
    size_t arena_len, arena_cap; /* in words */
    size_t max_bytes;    /* what the memo may take; it grows by doubling up to it */
} Ctx;

static int floor_log2(long long x) { /* x >= 1 */
    return 63 - MB_CLZ64(x);
}

static uint64_t mix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static word rotl(word x, int i) {
    i &= 63;
    return i ? (x << i) | (x >> (64 - i)) : x;
}

/* A version space: words [lo, hi) of a W-word bitset (the others are zero). */
static uint64_t hash_range(const word *v, int lo, int hi) {
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)lo;
    for (int i = lo; i < hi; i++) h = mix(h ^ v[i]) + (uint64_t)i;
    return h ? h : 1;
}

/* ---------------------------------------------------------------- the memo */
static void memo_clear(Ctx *c) {
    if (c->slot_hash) memset(c->slot_hash, 0, c->cap * sizeof(uint64_t));
    c->used = 0;
    c->arena_len = 0;
}

static size_t memo_bytes_for(size_t cap, size_t arena_cap) {
    return cap * (sizeof(uint64_t) + sizeof(size_t) + 2) + arena_cap * sizeof(word);
}

/* Doubles the slots (rehashing); 0 when the memo may not grow or malloc fails. */
static int memo_grow_slots(Ctx *c) {
    size_t cap = c->cap ? 2 * c->cap : 256;
    if (memo_bytes_for(cap, c->arena_cap) > c->max_bytes) return 0;
    uint64_t *hs = calloc(cap, sizeof(uint64_t));
    size_t *off = malloc(cap * sizeof(size_t));
    signed char *lo = malloc(cap), *hi = malloc(cap);
    if (!hs || !off || !lo || !hi) {
        free(hs); free(off); free(lo); free(hi);
        return 0;
    }
    for (size_t i = 0; i < c->cap; i++) {
        if (!c->slot_hash[i]) continue;
        size_t j = (size_t)c->slot_hash[i] & (cap - 1);
        while (hs[j]) j = (j + 1) & (cap - 1);
        hs[j] = c->slot_hash[i];
        off[j] = c->slot_off[i];
        lo[j] = c->slot_lo[i];
        hi[j] = c->slot_hi[i];
    }
    free(c->slot_hash); free(c->slot_off); free(c->slot_lo); free(c->slot_hi);
    c->slot_hash = hs; c->slot_off = off; c->slot_lo = lo; c->slot_hi = hi;
    c->cap = cap;
    return 1;
}

/* Makes room for `len` more words of keys; 0 when the memo may not grow. */
static int memo_grow_arena(Ctx *c, size_t len) {
    size_t want = c->arena_cap ? 2 * c->arena_cap : 4096;
    while (want < c->arena_len + len) want *= 2;
    if (memo_bytes_for(c->cap, want) > c->max_bytes) return 0;
    word *a = realloc(c->arena, want * sizeof(word));
    if (!a) return 0;
    c->arena = a;
    c->arena_cap = want;
    return 1;
}

/* Finds V's slot; returns its index, or -1 (and *free_slot, the slot to insert at). */
static long long memo_find(Ctx *c, const word *v, int lo, int hi, uint64_t h, size_t *free_slot) {
    size_t mask = c->cap - 1, i = (size_t)h & mask;
    int len = hi - lo;
    for (;;) {
        uint64_t sh = c->slot_hash[i];
        if (sh == 0) {
            *free_slot = i;
            return -1;
        }
        if (sh == h) {
            const word *key = c->arena + c->slot_off[i];
            if ((int)key[0] == lo && (int)key[1] == len && memcmp(key + 2, v + lo, (size_t)len * sizeof(word)) == 0)
                return (long long)i;
        }
        i = (i + 1) & mask;
    }
}

/* Records lo <= Ldim(V) <= hi (merged with what is known). */
static void memo_put(Ctx *c, const word *v, int lo_w, int hi_w, uint64_t h, int lo, int hi) {
    if (c->cap == 0 && !memo_grow_slots(c)) return;
    size_t slot;
    long long at = memo_find(c, v, lo_w, hi_w, h, &slot);
    if (at >= 0) {
        if (lo > c->slot_lo[at]) c->slot_lo[at] = (signed char)lo;
        if (hi < c->slot_hi[at]) c->slot_hi[at] = (signed char)hi;
        return;
    }
    size_t len = (size_t)(hi_w - lo_w) + 2;
    /* grow, or when the memo may not grow, empty it (answers stay exact); the slot moves */
    if (2 * (c->used + 1) > c->cap) {
        if (!memo_grow_slots(c)) memo_clear(c);
        memo_find(c, v, lo_w, hi_w, h, &slot);
    }
    if (c->arena_len + len > c->arena_cap && !memo_grow_arena(c, len)) {
        memo_clear(c);
        if (len > c->arena_cap) return;
        memo_find(c, v, lo_w, hi_w, h, &slot);
    }
    word *key = c->arena + c->arena_len;
    key[0] = (word)lo_w;
    key[1] = (word)(hi_w - lo_w);
    memcpy(key + 2, v + lo_w, (size_t)(hi_w - lo_w) * sizeof(word));
    c->slot_hash[slot] = h;
    c->slot_off[slot] = c->arena_len;
    c->slot_lo[slot] = (signed char)lo;
    c->slot_hi[slot] = (signed char)hi;
    c->arena_len += len;
    c->used++;
}

/* ---------------------------------------------------------------- the search */
typedef struct {
    int col;   /* the column */
    int s;     /* rows on the smaller side */
    int flip;  /* 1: the smaller side is V minus the column */
} Split;

static int by_balance(const void *a, const void *b) {
    const Split *x = a, *y = b;
    if (x->s != y->s) return y->s - x->s;
    return x->col - y->col;
}

static int stop_check(Ctx *c) {
    if (c->max_nodes >= 0 && c->nodes >= c->max_nodes) {
        c->stopped = ST_BUDGET;
        return 1;
    }
    c->nodes++;
    if ((c->nodes & 15) == 0) { /* a node costs a microsecond or more: checking is cheap */
        if (c->deadline >= 0 && mb_now() > c->deadline) {
            c->stopped = ST_BUDGET;
            return 1;
        }
        if (PyErr_CheckSignals() < 0) {
            c->stopped = ST_INTERRUPTED; /* the handler's exception stays set */
            return 1;
        }
    }
    return 0;
}

/* The search counts bits in every node: MB_HOT (_kernel_compat.h) compiles a copy of it
 * for processors with the popcnt instruction where the platform can choose at load time. */

/* Whether Ldim(V) >= k; cand: the columns that may split V.  *lo_out gets a proven
 * lower bound on success. */
MB_HOT static int at_least(Ctx *c, const word *v, int lo_w, int hi_w, int size, const int *cand, int ncand, int k,
                    int *lo_out) {
    if (k <= 0) return 1;
    if (size < 2 || k > floor_log2(size)) return 0;
    uint64_t h = hash_range(v, lo_w, hi_w);
    if (c->cap) {
        size_t slot;
        long long at = memo_find(c, v, lo_w, hi_w, h, &slot);
        if (at >= 0) {
            if (k <= c->slot_lo[at]) {
                *lo_out = c->slot_lo[at];
                return 1;
            }
            if (k > c->slot_hi[at]) return 0;
        }
    }
    if (stop_check(c)) return 0;
    const int W = c->W;
    Split *splits = malloc((size_t)(ncand ? ncand : 1) * sizeof(Split));
    int *sub = malloc((size_t)(ncand ? ncand : 1) * sizeof(int));
    size_t tsz = 4;
    while (tsz < 2 * (size_t)ncand) tsz <<= 1;
    int *tab = malloc(tsz * sizeof(int));
    word *side = malloc((size_t)W * 2 * sizeof(word));
    if (!splits || !sub || !side || !tab) {
        free(splits); free(sub); free(side); free(tab);
        c->stopped = ST_MEMORY;
        return 0;
    }
    word *other = side + W;
    memset(tab, 0xff, tsz * sizeof(int)); /* -1: empty */
    /* the lowest row of V fixes which side of a split is "the part": the one without it */
    int first_w = lo_w;
    while (v[first_w] == 0) first_w++;
    word first_bit = v[first_w] & (~v[first_w] + 1);
    word vfold = 0; /* a fingerprint of V, linear in XOR: a part's and its complement's add up to it */
    for (int i = lo_w; i < hi_w; i++) vfold ^= rotl(v[i], i);
    int nsplits = 0;
    for (int t = 0; t < ncand; t++) {
        const word *col = c->cols + (size_t)cand[t] * W;
        int a = 0;
        word pfold = 0;
        for (int i = lo_w; i < hi_w; i++) {
            word p = v[i] & col[i];
            a += MB_POPCOUNT64(p);
            pfold ^= rotl(p, i);
        }
        if (a == 0 || a == size) continue;
        /* columns inducing one split of V are tried once: the part of V without its
           lowest row is compared with those of the splits kept with the same sizes */
        int has_first = (col[first_w] & first_bit) != 0;
        int s_here = 2 * a <= size ? a : size - a;
        int dup = 0;
        size_t ti = (size_t)mix(mix((uint64_t)s_here) ^ (has_first ? vfold ^ pfold : pfold)) & (tsz - 1);
        for (; tab[ti] >= 0; ti = (ti + 1) & (tsz - 1)) {
            int u = tab[ti];
            if (splits[u].s != s_here) continue;
            const word *col2 = c->cols + (size_t)splits[u].col * W;
            int has2 = (col2[first_w] & first_bit) != 0, same = 1;
            for (int i = lo_w; i < hi_w && same; i++) {
                word p1 = has_first ? (v[i] & ~col[i]) : (v[i] & col[i]);
                word p2 = has2 ? (v[i] & ~col2[i]) : (v[i] & col2[i]);
                same = p1 == p2;
            }
            if (same) { dup = 1; break; }
        }
        if (dup) continue;
        tab[ti] = nsplits;
        splits[nsplits].col = cand[t];
        splits[nsplits].s = 2 * a <= size ? a : size - a;
        splits[nsplits].flip = 2 * a > size;
        sub[nsplits] = cand[t];
        nsplits++;
    }
    int result = 0, found_lo = 0;
    if (nsplits == 0) {
        memo_put(c, v, lo_w, hi_w, h, 0, 0);
        goto done;
    }
    if (k == 1) {
        memo_put(c, v, lo_w, hi_w, h, 1, 127);
        result = 1;
        found_lo = 1;
        goto done;
    }
    qsort(splits, (size_t)nsplits, sizeof(Split), by_balance);
    int need = k - 1;
    if (floor_log2(splits[0].s) < need) { /* Ldim(V) <= 1 + floor(log2 s) of the best split < k */
        memo_put(c, v, lo_w, hi_w, h, 0, 1 + floor_log2(splits[0].s));
        goto done;
    }
    for (int t = 0; t < nsplits; t++) {
        int s = splits[t].s;
        if (floor_log2(s) < need) break; /* 1 + floor(log2 s) < k, here and after */
        const word *col = c->cols + (size_t)splits[t].col * W;
        int slo = hi_w, shi = lo_w, olo = hi_w, ohi = lo_w;
        for (int i = lo_w; i < hi_w; i++) {
            word a = splits[t].flip ? (v[i] & ~col[i]) : (v[i] & col[i]);
            side[i] = a;
            other[i] = v[i] ^ a;
            if (a) { if (i < slo) slo = i; shi = i + 1; }
            if (other[i]) { if (i < olo) olo = i; ohi = i + 1; }
        }
        int l1 = need, l2 = need;
        if (!at_least(c, side, slo, shi, s, sub, nsplits, need, &l1)) {
            if (c->stopped) goto done;
            continue;
        }
        /* the child's call may have reused nothing of ours but `other` is ours alone */
        if (!at_least(c, other, olo, ohi, size - s, sub, nsplits, need, &l2)) {
            if (c->stopped) goto done;
            continue;
        }
        found_lo = 1 + (l1 < l2 ? l1 : l2);
        if (found_lo < k) found_lo = k;
        memo_put(c, v, lo_w, hi_w, h, found_lo, 127);
        result = 1;
        goto done;
    }
    memo_put(c, v, lo_w, hi_w, h, 0, need);
done:
    free(splits);
    free(sub);
    free(side);
    free(tab);
    if (result) *lo_out = found_lo;
    return result;
}

/* ---------------------------------------------------------------- set-up */
static PyObject *ldim_bounds(PyObject *self, PyObject *args) {
    Py_buffer buf;
    Py_ssize_t n, m;
    long long max_nodes;
    double time_limit;
    Py_ssize_t memo_bytes;
    if (!PyArg_ParseTuple(args, "y*nnLdn", &buf, &n, &m, &max_nodes, &time_limit, &memo_bytes)) return NULL;
    if (n < 1 || m < 0 || buf.len != n * m) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "matrix: expected n * m bytes with n >= 1");
        return NULL;
    }
    const unsigned char *M = buf.buf;
    Ctx c;
    memset(&c, 0, sizeof c);
    int status = ST_EXACT, lower = 0, upper = 0, nd = 0;
    size_t tcap = 1;
    while (tcap < 2 * (size_t)n) tcap <<= 1;
    Py_ssize_t *table = NULL, *distinct = NULL;
    int *cand = NULL;
    word *full = NULL;
    uint64_t *chash = NULL;
    int *ctab = NULL;
    table = malloc(tcap * sizeof(Py_ssize_t));
    distinct = malloc((size_t)n * sizeof(Py_ssize_t));
    if (!table || !distinct) goto nomem;
    /* distinct rows, in order of first occurrence */
    for (size_t i = 0; i < tcap; i++) table[i] = -1;
    for (Py_ssize_t r = 0; r < n; r++) {
        const unsigned char *row = M + r * m;
        uint64_t hh = 1469598103934665603ULL;
        Py_ssize_t j = 0;
        for (; j + 8 <= m; j += 8) {
            uint64_t chunk;
            memcpy(&chunk, row + j, 8);
            hh = mix(hh ^ chunk);
        }
        for (; j < m; j++) hh = (hh ^ row[j]) * 1099511628211ULL;
        size_t i = (size_t)mix(hh) & (tcap - 1);
        for (;;) {
            if (table[i] < 0) {
                table[i] = r;
                distinct[nd++] = r;
                break;
            }
            if (memcmp(M + table[i] * m, row, (size_t)m) == 0) break;
            i = (i + 1) & (tcap - 1);
        }
    }
    free(table);
    table = NULL;
    c.W = (nd + 63) / 64;
    c.cols = calloc((size_t)(m ? m : 1) * c.W, sizeof(word));
    cand = malloc((size_t)(m ? m : 1) * sizeof(int));
    full = calloc((size_t)c.W, sizeof(word));
    chash = malloc((size_t)(m ? m : 1) * sizeof(uint64_t));
    if (!c.cols || !cand || !full || !chash) goto nomem;
    for (int i = 0; i < nd; i++) full[i >> 6] |= (word)1 << (i & 63);
    /* columns over the distinct rows, 64 rows at a time (the matrix is read row by
       row); then constant ones dropped and one kept per split of the class */
    word *tmp = calloc((size_t)(m ? m : 1), sizeof(word));
    if (!tmp) goto nomem;
    for (int b = 0; b < c.W; b++) {
        memset(tmp, 0, (size_t)m * sizeof(word));
        int top = nd - 64 * b < 64 ? nd - 64 * b : 64;
        for (int r = 0; r < top; r++) {
            const unsigned char *row = M + distinct[64 * b + r] * m;
            for (Py_ssize_t j = 0; j < m; j++) tmp[j] |= (word)row[j] << r;
        }
        for (Py_ssize_t j = 0; j < m; j++) c.cols[(size_t)j * c.W + b] = tmp[j];
    }
    free(tmp);
    size_t ctsz = 4;
    while (ctsz < 2 * (size_t)m) ctsz <<= 1;
    ctab = malloc(ctsz * sizeof(int));
    if (!ctab) goto nomem;
    memset(ctab, 0xff, ctsz * sizeof(int));
    int nc = 0;
    for (Py_ssize_t j = 0; j < m; j++) {
        word *col = c.cols + (size_t)nc * c.W;
        if (nc != j) memcpy(col, c.cols + (size_t)j * c.W, (size_t)c.W * sizeof(word));
        int ones = 0;
        for (int i = 0; i < c.W; i++) ones += MB_POPCOUNT64(col[i]);
        if (ones == 0 || ones == nd) continue;
        int flip = (col[0] & 1) != 0; /* compare by the side without row 0 */
        uint64_t hh = 7;
        for (int i = 0; i < c.W; i++) hh = mix(hh ^ (flip ? (full[i] & ~col[i]) : col[i])) + (uint64_t)i;
        int dup = 0;
        size_t ti = (size_t)hh & (ctsz - 1);
        for (; ctab[ti] >= 0 && !dup; ti = (ti + 1) & (ctsz - 1)) {
            int u = ctab[ti];
            if (chash[u] != hh) continue;
            const word *o = c.cols + (size_t)u * c.W;
            int oflip = (o[0] & 1) != 0, same = 1;
            for (int i = 0; i < c.W && same; i++)
                same = (flip ? (full[i] & ~col[i]) : col[i]) == (oflip ? (full[i] & ~o[i]) : o[i]);
            dup = same;
        }
        if (dup) continue;
        ctab[ti] = nc;
        chash[nc] = hh;
        cand[nc] = nc;
        nc++;
    }
    free(distinct);
    distinct = NULL;
    free(chash);
    chash = NULL;
    /* the memo grows from nothing up to memo_bytes */
    c.max_bytes = memo_bytes > 0 ? (size_t)memo_bytes : 0;
    c.max_nodes = max_nodes;
    c.deadline = time_limit >= 0 ? mb_now() + time_limit : -1.0;
    /* the bounds before any search: 0 without a split; else 1 and floor(log2 |V|),
       1 + floor(log2 s) of the most balanced split */
    if (nc == 0) {
        lower = upper = 0;
    } else {
        int best = 0;
        for (int t = 0; t < nc; t++) {
            const word *col = c.cols + (size_t)t * c.W;
            int a = 0;
            for (int i = 0; i < c.W; i++) a += MB_POPCOUNT64(col[i]);
            int s = 2 * a <= nd ? a : nd - a;
            if (s > best) best = s;
        }
        lower = 1;
        upper = floor_log2(nd);
        if (1 + floor_log2(best) < upper) upper = 1 + floor_log2(best);
        while (upper > lower) {
            int lo = upper;
            if (at_least(&c, full, 0, c.W, nd, cand, nc, upper, &lo)) {
                lower = upper;
                break;
            }
            if (c.stopped) break;
            upper--;
        }
        status = c.stopped;
    }
    goto finish;
nomem:
    status = ST_MEMORY;
    lower = 1;
    upper = 0;
finish:
    free(table);
    free(distinct);
    free(chash);
    free(ctab);
    free(cand);
    free(full);
    free(c.cols);
    free(c.slot_hash);
    free(c.slot_off);
    free(c.slot_lo);
    free(c.slot_hi);
    free(c.arena);
    PyBuffer_Release(&buf);
    /* a signal handler's exception (Ctrl-C) goes back to the caller beside the bounds */
    PyObject *exc = Py_None;
    Py_INCREF(exc);
    if (PyErr_Occurred()) {
        Py_DECREF(exc);
#if (defined(Py_LIMITED_API) ? Py_LIMITED_API : PY_VERSION_HEX) >= 0x030C0000 /* the limited API has it from 3.12 */
        exc = PyErr_GetRaisedException();
#else
        PyObject *type, *tb;
        PyErr_Fetch(&type, &exc, &tb);
        PyErr_NormalizeException(&type, &exc, &tb);
        if (exc == NULL) { exc = Py_None; Py_INCREF(exc); }
        Py_XDECREF(type);
        Py_XDECREF(tb);
#endif
    }
    PyObject *out = Py_BuildValue("iiiLiN", lower, upper, status, c.nodes, nd, exc);
    return out;
}

/* ---------------------------------------------------------------- the module
 * Multi-phase initialisation (PEP 489): the module has no state of its own (m_size 0, no
 * globals), so each interpreter that imports it gets a fresh module object from the same
 * definition; the exec slot adds the two facts of the build that the tests read.  Built
 * for the limited API (setup.py defines Py_LIMITED_API as 3.11), one abi3 binary serves
 * every CPython from 3.11 on. */
static PyMethodDef methods[] = {
    {"ldim_bounds", ldim_bounds, METH_VARARGS,
     "ldim_bounds(matrix, n, m, max_nodes, time_limit, memo_bytes) -> (lower, upper, status, nodes, distinct)"},
    {NULL, NULL, 0, NULL},
};

static int module_exec(PyObject *mod) {
    /* PORTABLE: 1 when MB_PORTABLE forced the plain C bit counting and clock (_kernel_compat.h) */
#ifdef MB_PORTABLE
    const long portable = 1;
#else
    const long portable = 0;
#endif
    /* LIMITED_API: the Py_LIMITED_API version it was compiled for, 0 for the full API */
#ifdef Py_LIMITED_API
    const long limited = Py_LIMITED_API;
#else
    const long limited = 0;
#endif
    if (PyModule_AddIntConstant(mod, "PORTABLE", portable) < 0) return -1;
    return PyModule_AddIntConstant(mod, "LIMITED_API", limited);
}

static PyModuleDef_Slot slots[] = {
    {Py_mod_exec, (void *)module_exec},
    {0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "_ldim_kernel",                 /* m_name */
    "The Littlestone search in C.", /* m_doc */
    0,                              /* m_size: no module state */
    methods,                        /* m_methods */
    slots,                          /* m_slots */
    NULL, NULL, NULL,               /* m_traverse, m_clear, m_free: nothing to visit or free */
};

PyMODINIT_FUNC PyInit__ldim_kernel(void) { return PyModuleDef_Init(&module); }
