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
 * Version spaces are indexed by what they hold: a bitset spans only the words between
 * its lowest and highest row, and once a version space is small against that span
 * (MB_COMPACT_RATIO) the search goes on in a compact copy of it, its rows renumbered
 * 0..size-1 and its splitting columns projected onto them, with a memo of its own freed
 * when the copy's search returns.  A node's cost and a memo key's size so follow the
 * version space, not the class, whatever the order of the class's rows and columns.
 *
 * The search runs without the GIL: other Python threads run meanwhile, and several
 * searches run at once on several cores.  It takes the GIL back only to run the signal
 * handlers (every few milliseconds) and to build its result.
 *
 * One function, ldim_bounds(matrix, n, m, max_nodes, time_limit, memo_bytes[, ratio]),
 * returns (lower, upper, status, nodes, distinct_rows, exception, memo_peak_bytes);
 * status 0 exact, 1 out of nodes or time, 2 interrupted (a signal handler raised
 * `exception`, e.g. Ctrl-C's KeyboardInterrupt), 3 out of memory.  Bounds are proven
 * whatever the status, except status 3 before the search started (lower > upper then).
 * `ratio` overrides MB_COMPACT_RATIO (0: no compact copies; negative: a copy wherever a
 * version space is smaller than its context's, which the tests use on small classes).
 * memo_peak_bytes: the most the memos took at once (the benchmarks read it).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "_kernel_compat.h"

typedef uint64_t word;

enum { ST_EXACT = 0, ST_BUDGET = 1, ST_INTERRUPTED = 2, ST_MEMORY = 3 };

/* A version space at most 1/MB_COMPACT_RATIO as wide (in words) as the range its bitset
 * spans goes on in a compact copy (see compact_at_least); 0 turns that off.  Measured in
 * benchmarks/kernel_shapes.py: 2, 4 and 8 were within noise of each other on the cases
 * there, 16 and more let the wide nodes cost again; 4 is the middle. */
#define MB_COMPACT_RATIO 4
/* Signals are checked (with the GIL taken back) at most this often, in seconds. */
#define MB_SIGNAL_PERIOD 0.005

/* What every context of one search shares: the budget, the stop status, the memos' bytes. */
typedef struct {
    long long nodes, max_nodes;
    double deadline;      /* < 0: none */
    double next_signals;  /* mb_now() at which the signals are next checked */
    int stopped;          /* 0, or a status */
    int compact_ratio;    /* 0: never compact */
    size_t mem_used;      /* the bytes of every live memo together */
    size_t mem_max;       /* what they may take together */
    size_t mem_peak;
    PyThreadState *ts;    /* this thread's state while the search runs without the GIL */
} Shared;

/* A search over one numbering of rows: the class's distinct rows, or (compact) the rows
 * of one version space renumbered 0..size-1, with its memo. */
typedef struct {
    Shared *sh;
    int W;           /* words per bitset */
    int rows;        /* rows numbered here */
    word *cols;      /* the columns that may split, W words each */
    /* memo: open addressing on hashes; keys live in an arena */
    size_t cap;      /* slots, a power of two */
    size_t used;
    uint64_t *slot_hash; /* 0: empty */
    size_t *slot_off;    /* offset of the key in the arena (in words) */
    signed char *slot_lo, *slot_hi;
    word *arena;
    size_t arena_len, arena_cap; /* in words */
    size_t bytes;        /* what this memo takes now */
    size_t own_max;      /* what this memo alone may take */
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

static int popcount_range(const word *v, int lo, int hi) {
    int a = 0;
    for (int i = lo; i < hi; i++) a += MB_POPCOUNT64(v[i]);
    return a;
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

/* Whether this memo may grow to `bytes`: within its own limit and, with every other live
 * memo of the search, within the search's. */
static int memo_may_take(const Ctx *c, size_t bytes) {
    const Shared *s = c->sh;
    return bytes <= c->own_max && s->mem_used - c->bytes + bytes <= s->mem_max;
}

static void memo_took(Ctx *c, size_t bytes) {
    Shared *s = c->sh;
    s->mem_used = s->mem_used - c->bytes + bytes;
    c->bytes = bytes;
    if (s->mem_used > s->mem_peak) s->mem_peak = s->mem_used;
}

static void memo_free(Ctx *c) {
    free(c->slot_hash); free(c->slot_off); free(c->slot_lo); free(c->slot_hi);
    free(c->arena);
    c->slot_hash = NULL; c->slot_off = NULL; c->slot_lo = NULL; c->slot_hi = NULL; c->arena = NULL;
    c->cap = c->used = c->arena_len = c->arena_cap = 0;
    memo_took(c, 0);
}

/* Doubles the slots (rehashing); 0 when the memo may not grow or malloc fails. */
static int memo_grow_slots(Ctx *c) {
    size_t cap = c->cap ? 2 * c->cap : 256;
    size_t bytes = memo_bytes_for(cap, c->arena_cap);
    if (!memo_may_take(c, bytes)) return 0;
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
    memo_took(c, bytes);
    return 1;
}

/* Makes room for `len` more words of keys; 0 when the memo may not grow. */
static int memo_grow_arena(Ctx *c, size_t len) {
    size_t want = c->arena_cap ? 2 * c->arena_cap : 512;
    while (want < c->arena_len + len) want *= 2;
    size_t bytes = memo_bytes_for(c->cap, want);
    if (!memo_may_take(c, bytes)) return 0;
    word *a = realloc(c->arena, want * sizeof(word));
    if (!a) return 0;
    c->arena = a;
    c->arena_cap = want;
    memo_took(c, bytes);
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

/* ---------------------------------------------------------------- the budget */
/* The search runs without the GIL (other threads run meanwhile); it takes the GIL back
 * only to run the signal handlers (PyErr_CheckSignals needs it), every MB_SIGNAL_PERIOD
 * seconds at most, and at the end to build its result. */
static int check_signals(Shared *s) {
    PyEval_RestoreThread(s->ts);
    int failed = PyErr_CheckSignals() < 0; /* the handler's exception stays set */
    s->ts = PyEval_SaveThread();
    return failed;
}

static int stop_check(Shared *s) {
    if (s->max_nodes >= 0 && s->nodes >= s->max_nodes) {
        s->stopped = ST_BUDGET;
        return 1;
    }
    s->nodes++;
    if ((s->nodes & 15) == 0) { /* a node costs a microsecond or more: checking is cheap */
        double now = mb_now();
        if (s->deadline >= 0 && now > s->deadline) {
            s->stopped = ST_BUDGET;
            return 1;
        }
        if (now >= s->next_signals) {
            s->next_signals = now + MB_SIGNAL_PERIOD;
            if (check_signals(s)) {
                s->stopped = ST_INTERRUPTED;
                return 1;
            }
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- compact copies */
/* Appends to `out` (zeroed, from bit *at on) the bits of `col` at the rows of V, in order:
 * row number t of V (counting from its lowest) becomes bit t of the compact copy. */
static void project(const word *v, int lo_w, int hi_w, const word *col, word *out) {
    int at = 0;
    for (int i = lo_w; i < hi_w; i++) {
        word rows = v[i], x = col[i] & rows;
        if (rows == ~(word)0) { /* a full word moves as a whole */
            out[at >> 6] |= x << (at & 63);
            if (at & 63) out[(at >> 6) + 1] |= x >> (64 - (at & 63));
            at += 64;
            continue;
        }
        if (!x) {
            at += MB_POPCOUNT64(rows);
            continue;
        }
        for (; rows; rows &= rows - 1, at++)
            if (x & rows & (~rows + 1)) out[at >> 6] |= (word)1 << (at & 63);
    }
}

/* Whether a version space of `size` rows spanning `range` words goes on in a compact copy:
 * when it is at most 1/ratio as wide; with a negative ratio (the tests' setting), whenever
 * it is not the whole space of its context, so that the smallest classes take the path. */
static int should_compact(const Ctx *c, int size, int range) {
    int ratio = c->sh->compact_ratio;
    if (ratio < 0) return size < c->rows;
    return ratio > 0 && range >= 2 && (long long)range >= (long long)ratio * ((size + 63) / 64);
}

static int at_least(Ctx *c, const word *v, int lo_w, int hi_w, int size, const int *cand, int ncand, int k,
                    int *lo_out);

/* Whether Ldim(V) >= k, asked of a compact copy of V: its rows renumbered 0..size-1 and
 * the columns of `cand` that split V projected onto them, with a memo of its own freed on
 * return.  Sound because Ldim(V) depends only on the labels V's rows give: the copy is
 * the same class (a column constant on V splits nothing and is left out; the row order
 * and the numbering change no split).  Its memo only saves time, as every memo here;
 * what it proved about its whole space goes into the caller's memo, keyed by V. */
static int compact_at_least(Ctx *c, const word *v, int lo_w, int hi_w, uint64_t h, int size, const int *cand,
                            int ncand, int k, int *lo_out) {
    Ctx s;
    memset(&s, 0, sizeof s);
    s.sh = c->sh;
    s.W = (size + 63) / 64;
    s.rows = size;
    s.own_max = (size_t)-1;
    s.cols = calloc((size_t)(ncand ? ncand : 1) * (size_t)s.W, sizeof(word));
    int *scand = malloc((size_t)(ncand ? ncand : 1) * sizeof(int));
    word *full = calloc((size_t)s.W, sizeof(word));
    if (!s.cols || !scand || !full) {
        free(s.cols); free(scand); free(full);
        c->sh->stopped = ST_MEMORY;
        return 0;
    }
    int nc = 0;
    for (int t = 0; t < ncand; t++) {
        word *out = s.cols + (size_t)nc * s.W;
        project(v, lo_w, hi_w, c->cols + (size_t)cand[t] * c->W, out);
        int a = popcount_range(out, 0, s.W);
        if (a == 0 || a == size) {
            memset(out, 0, (size_t)s.W * sizeof(word));
            continue;
        }
        scand[nc] = nc;
        nc++;
    }
    for (int i = 0; i < size; i++) full[i >> 6] |= (word)1 << (i & 63);
    int lo = k, result = at_least(&s, full, 0, s.W, size, scand, nc, k, &lo);
    if (!c->sh->stopped) {
        /* proven of the copy, so of V: what the search found, and its memo's entry for the whole */
        int plo = result ? lo : 0, phi = result ? 127 : k - 1;
        size_t slot;
        long long at = s.cap ? memo_find(&s, full, 0, s.W, hash_range(full, 0, s.W), &slot) : -1;
        if (at >= 0) {
            if (s.slot_lo[at] > plo) plo = s.slot_lo[at];
            if (s.slot_hi[at] < phi) phi = s.slot_hi[at];
        }
        memo_put(c, v, lo_w, hi_w, h, plo, phi);
    }
    memo_free(&s);
    free(s.cols);
    free(scand);
    free(full);
    if (result) *lo_out = lo;
    return result;
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
    /* a question of k = 1 is answered by the first split: no copy pays for itself there */
    if (k >= 2 && should_compact(c, size, hi_w - lo_w))
        return compact_at_least(c, v, lo_w, hi_w, h, size, cand, ncand, k, lo_out);
    if (stop_check(c->sh)) return 0;
    const int W = c->W;
    Split *splits = malloc((size_t)(ncand ? ncand : 1) * sizeof(Split));
    int *sub = malloc((size_t)(ncand ? ncand : 1) * sizeof(int));
    size_t tsz = 4;
    while (tsz < 2 * (size_t)ncand) tsz <<= 1;
    int *tab = malloc(tsz * sizeof(int));
    word *side = malloc((size_t)W * 2 * sizeof(word));
    if (!splits || !sub || !side || !tab) {
        free(splits); free(sub); free(side); free(tab);
        c->sh->stopped = ST_MEMORY;
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
            if (c->sh->stopped) goto done;
            continue;
        }
        /* the child's call may have reused nothing of ours but `other` is ours alone */
        if (!at_least(c, other, olo, ohi, size - s, sub, nsplits, need, &l2)) {
            if (c->sh->stopped) goto done;
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
/* The class's distinct rows, in order of first occurrence: their indices in `distinct`;
 * returns how many, or -1 when memory is short. */
static int distinct_rows(const unsigned char *M, Py_ssize_t n, Py_ssize_t m, Py_ssize_t *distinct) {
    size_t tcap = 1;
    while (tcap < 2 * (size_t)n) tcap <<= 1;
    Py_ssize_t *table = malloc(tcap * sizeof(Py_ssize_t));
    if (!table) return -1;
    int nd = 0;
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
    return nd;
}

/* The columns over the distinct rows (64 rows at a time: the matrix is read row by row),
 * into c->cols; then constant ones dropped and one kept per split of the class, moved to
 * the front.  Returns how many were kept, or -1 when memory is short. */
static int split_columns(Ctx *c, const unsigned char *M, Py_ssize_t m, const Py_ssize_t *distinct, int nd,
                         const word *full) {
    word *tmp = calloc((size_t)(m ? m : 1), sizeof(word));
    uint64_t *chash = malloc((size_t)(m ? m : 1) * sizeof(uint64_t));
    size_t ctsz = 4;
    while (ctsz < 2 * (size_t)m) ctsz <<= 1;
    int *ctab = malloc(ctsz * sizeof(int));
    if (!tmp || !chash || !ctab) {
        free(tmp); free(chash); free(ctab);
        return -1;
    }
    for (int b = 0; b < c->W; b++) {
        memset(tmp, 0, (size_t)m * sizeof(word));
        int top = nd - 64 * b < 64 ? nd - 64 * b : 64;
        for (int r = 0; r < top; r++) {
            const unsigned char *row = M + distinct[64 * b + r] * m;
            for (Py_ssize_t j = 0; j < m; j++) tmp[j] |= (word)row[j] << r;
        }
        for (Py_ssize_t j = 0; j < m; j++) c->cols[(size_t)j * c->W + b] = tmp[j];
    }
    memset(ctab, 0xff, ctsz * sizeof(int));
    int nc = 0;
    for (Py_ssize_t j = 0; j < m; j++) {
        word *col = c->cols + (size_t)nc * c->W;
        if (nc != j) memcpy(col, c->cols + (size_t)j * c->W, (size_t)c->W * sizeof(word));
        int ones = popcount_range(col, 0, c->W);
        if (ones == 0 || ones == nd) continue;
        int flip = (col[0] & 1) != 0; /* compare by the side without row 0 */
        uint64_t hh = 7;
        for (int i = 0; i < c->W; i++) hh = mix(hh ^ (flip ? (full[i] & ~col[i]) : col[i])) + (uint64_t)i;
        int dup = 0;
        size_t ti = (size_t)hh & (ctsz - 1);
        for (; ctab[ti] >= 0 && !dup; ti = (ti + 1) & (ctsz - 1)) {
            int u = ctab[ti];
            if (chash[u] != hh) continue;
            const word *o = c->cols + (size_t)u * c->W;
            int oflip = (o[0] & 1) != 0, same = 1;
            for (int i = 0; i < c->W && same; i++)
                same = (flip ? (full[i] & ~col[i]) : col[i]) == (oflip ? (full[i] & ~o[i]) : o[i]);
            dup = same;
        }
        if (dup) continue;
        ctab[ti] = nc;
        chash[nc] = hh;
        nc++;
    }
    free(tmp);
    free(chash);
    free(ctab);
    return nc;
}

/* The bounds proven before any search, from nd distinct rows and nc distinct splits (the
 * columns that are not constant, one per pair of equal or complementary ones):
 *   Ldim <= floor(log2 nd)      (each mistake at least halves the rows: Example 21.2);
 *   Ldim <= 1 + floor(log2 s)   (s: the smaller side of the most balanced split; the root
 *                               of a shattered tree splits H and the side has Ldim <= log2 s);
 *   Ldim <= nc                  (along a root-to-leaf path of a shattered tree no two nodes
 *                               ask instances with the same split of H: below the first, the
 *                               version space gives the second one label, so one of its
 *                               children would have no consistent hypothesis; and no node
 *                               asks a constant column);
 *   Ldim >= 1 when nc > 0, and Ldim >= nc when nd == 2^nc: the rows' labels on one column
 *                               per split tell the distinct rows apart (two rows differ on
 *                               some non-constant column, so on its split's column), so
 *                               nd <= 2^nc, and equality means every labelling of those nc
 *                               columns occurs: asking them in any order shatters a tree of
 *                               depth nc. */
static void bounds_before_search(const Ctx *c, int nd, int nc, int *lower, int *upper) {
    if (nc == 0) {
        *lower = *upper = 0;
        return;
    }
    int best = 0;
    for (int t = 0; t < nc; t++) {
        int a = popcount_range(c->cols + (size_t)t * c->W, 0, c->W);
        int s = 2 * a <= nd ? a : nd - a;
        if (s > best) best = s;
    }
    *lower = 1;
    *upper = floor_log2(nd);
    if (1 + floor_log2(best) < *upper) *upper = 1 + floor_log2(best);
    if (nc < *upper) *upper = nc;
    if (nc < 62 && (long long)nd == (1LL << nc)) *lower = nc;
}

/* The search proper, without the GIL: distinct rows, splits, bounds, then "is Ldim >= u?"
 * for u from the upper bound down.  Returns the status. */
static int search(Shared *sh, const unsigned char *M, Py_ssize_t n, Py_ssize_t m, size_t memo_bytes, int *nd_out,
                  int *lower, int *upper) {
    Ctx c;
    memset(&c, 0, sizeof c);
    c.sh = sh;
    int status = ST_MEMORY;
    int *cand = NULL;
    word *full = NULL;
    Py_ssize_t *distinct = malloc((size_t)n * sizeof(Py_ssize_t));
    int nd = distinct ? distinct_rows(M, n, m, distinct) : -1;
    *lower = 1;
    *upper = 0;
    if (nd < 0) goto finish;
    *nd_out = nd;
    c.rows = nd;
    c.W = (nd + 63) / 64;
    c.cols = calloc((size_t)(m ? m : 1) * c.W, sizeof(word));
    cand = malloc((size_t)(m ? m : 1) * sizeof(int));
    full = calloc((size_t)c.W, sizeof(word));
    if (!c.cols || !cand || !full) goto finish;
    for (int i = 0; i < nd; i++) full[i >> 6] |= (word)1 << (i & 63);
    int nc = split_columns(&c, M, m, distinct, nd, full);
    if (nc < 0) goto finish;
    free(distinct);
    distinct = NULL;
    for (int t = 0; t < nc; t++) cand[t] = t;
    /* the memo grows from nothing; the top one leaves a quarter to the compact copies' */
    sh->mem_max = memo_bytes;
    c.own_max = sh->compact_ratio != 0 ? memo_bytes - memo_bytes / 4 : memo_bytes;
    bounds_before_search(&c, nd, nc, lower, upper);
    while (*upper > *lower) {
        int lo = *upper;
        if (at_least(&c, full, 0, c.W, nd, cand, nc, *upper, &lo)) {
            *lower = *upper;
            break;
        }
        if (sh->stopped) break;
        (*upper)--;
    }
    status = sh->stopped;
finish:
    if (status == ST_MEMORY && !sh->stopped) { *lower = 1; *upper = 0; } /* could not start */
    memo_free(&c);
    free(distinct);
    free(cand);
    free(full);
    free(c.cols);
    return status;
}

/* A signal handler's exception (Ctrl-C), fetched to go back to the caller beside the bounds. */
static PyObject *fetch_exception(void) {
    if (!PyErr_Occurred()) Py_RETURN_NONE;
#if PY_VERSION_HEX >= 0x030C0000
    return PyErr_GetRaisedException();
#else
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    PyErr_NormalizeException(&type, &exc, &tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    if (exc == NULL) Py_RETURN_NONE;
    return exc;
#endif
}

static PyObject *ldim_bounds(PyObject *self, PyObject *args) {
    Py_buffer buf;
    Py_ssize_t n, m;
    long long max_nodes;
    double time_limit;
    Py_ssize_t memo_bytes;
    int compact_ratio = MB_COMPACT_RATIO;
    if (!PyArg_ParseTuple(args, "y*nnLdn|i", &buf, &n, &m, &max_nodes, &time_limit, &memo_bytes, &compact_ratio))
        return NULL;
    if (n < 1 || m < 0 || buf.len != n * m) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "matrix: expected n * m bytes with n >= 1");
        return NULL;
    }
    Shared sh;
    memset(&sh, 0, sizeof sh);
    sh.max_nodes = max_nodes;
    sh.compact_ratio = compact_ratio; /* 0: never compact; negative: whenever a node can */
    int lower, upper, nd = 0;
    /* the buffer stays exported (so alive) while the search reads it without the GIL */
    sh.ts = PyEval_SaveThread();
    double now = mb_now();
    sh.deadline = time_limit >= 0 ? now + time_limit : -1.0;
    sh.next_signals = now + MB_SIGNAL_PERIOD;
    int status = search(&sh, buf.buf, n, m, memo_bytes > 0 ? (size_t)memo_bytes : 0, &nd, &lower, &upper);
    PyEval_RestoreThread(sh.ts);
    PyBuffer_Release(&buf);
    PyObject *exc = fetch_exception();
    return Py_BuildValue("iiiLiNn", lower, upper, status, sh.nodes, nd, exc, (Py_ssize_t)sh.mem_peak);
}

static PyMethodDef methods[] = {
    {"ldim_bounds", ldim_bounds, METH_VARARGS,
     "ldim_bounds(matrix, n, m, max_nodes, time_limit, memo_bytes) -> (lower, upper, status, nodes, distinct)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_ldim_kernel", "The Littlestone search in C.", -1, methods};

PyMODINIT_FUNC PyInit__ldim_kernel(void) { return PyModule_Create(&module); }
