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
 * ldim_tree (see "trees and refutations") runs the same search and reads a shattered tree
 * and a refutation off its memo, in the caller's rows and columns.
 *
 * Threads search one class together: each calls ldim_bounds(..., compact_ratio, coop, thread,
 * threads) with one zeroed buffer of coop_bytes(m) bytes, and the caller takes the largest
 * lower bound and the smallest upper bound of the calls (see "threads at the root": they
 * share the root's splits, the proven bounds, one memo and max_nodes); coop_stop(coop)
 * stops them all.  THREADS is 0 where the compiler offers no atomic operations, and
 * COMPACT_RATIO is MB_COMPACT_RATIO (the default of compact_ratio).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "_kernel_compat.h"

typedef uint64_t word;

/* Atomic operations on the cells threads share (see "threads at the root"): GCC's and
 * clang's builtins, MSVC's intrinsics; another compiler gets no threads (THREADS is 0). */
#if defined(__GNUC__) || defined(__clang__)
#define MB_THREADS 1
static long long mb_load(long long *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static int mb_cas(long long *p, long long expected, long long desired) {
    return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}
#elif defined(_MSC_VER)
#define MB_THREADS 1
#include <intrin.h>
static long long mb_load(long long *p) { return _InterlockedCompareExchange64((volatile __int64 *)p, 0, 0); }
static int mb_cas(long long *p, long long expected, long long desired) {
    return _InterlockedCompareExchange64((volatile __int64 *)p, desired, expected) == expected;
}
#else /* no atomics known here: ldim_bounds refuses a buffer (THREADS is 0) */
#define MB_THREADS 0
static long long mb_load(long long *p) { return *p; }
static int mb_cas(long long *p, long long expected, long long desired) {
    if (*p != expected) return 0;
    *p = desired;
    return 1;
}
#endif

/* A spin lock on a cell (the shared memo's): held for a memo look-up or store, a few hundred
 * nanoseconds against a node's microseconds; a waiter yields its core after a while (the
 * holder may have been preempted on a loaded machine). */
#if defined(_WIN32)
#define mb_yield() SwitchToThread()
#elif defined(__unix__) || defined(__APPLE__)
#include <sched.h>
#define mb_yield() sched_yield()
#else
#define mb_yield() ((void)0)
#endif
static void mb_lock(long long *p) {
    for (int spins = 0; !mb_cas(p, 0, 1); spins++)
        if (spins >= 64) mb_yield();
}
static void mb_unlock(long long *p) { (void)mb_cas(p, 1, 0); }

enum { ST_EXACT = 0, ST_BUDGET = 1, ST_INTERRUPTED = 2, ST_MEMORY = 3, ST_SUPERSEDED = 4 /* threads: done */ };

/* A version space at most 1/MB_COMPACT_RATIO as wide (in words) as the range its bitset
 * spans goes on in a compact copy (see compact_at_least); 0 turns that off.  Measured with
 * benchmarks/kernel_shapes.py (MB_COMPACT_RATIO set, medians of 3, load about 4 on 2
 * cores): random:100000,40,0.3,1 took 14.9, 11.0, 7.4, 12.2 and 8.9 s at ratios 0, 2, 4,
 * 8 and 16, and the other cases were within noise of each other (the renumbering of the
 * rows already makes most version spaces runs); 4 it is. */
#define MB_COMPACT_RATIO 4
/* Signals are checked (with the GIL taken back) at most this often, in seconds. */
#define MB_SIGNAL_PERIOD 0.005

/* What every context of one search shares: the budget, the stop status, the memo. */
typedef struct Shared {
    long long nodes, max_nodes;
    double deadline;      /* < 0: none */
    double next_signals;  /* mb_now() at which the signals are next checked */
    int stopped;          /* 0, or a status */
    int compact_ratio;    /* 0: never compact; negative: whenever a node can (the tests') */
    PyThreadState *ts;    /* this thread's state while the search runs without the GIL */
    /* the class row by row: row r's labels on the nc columns, CB words from rowbits + r * CB
       (what a compact copy is cut from, 64 rows at a time) */
    word *rowbits;        /* built at the first compact copy (NULL until then) */
    int nc, CB;
    const void *top;      /* the class's own context (a Ctx), which rowbits is read from */
    int class_W;          /* its words per bitset */
    /* memo: open addressing on hashes; keys (see make_key) live in an arena */
    size_t cap;      /* slots, a power of two */
    size_t used;
    uint64_t *slot_hash; /* 0: empty */
    size_t *slot_off;    /* offset of the key in the arena (in words) */
    signed char *slot_lo, *slot_hi;
    word *arena;
    size_t arena_len, arena_cap; /* in words */
    size_t max_bytes;    /* what the memo may take; it grows by doubling up to it */
    size_t peak_bytes;   /* the most it took */
    /* ldim_tree's (NULL for ldim_bounds): the caller's row of each class row and column of each
       class column, kept through the renumbering; and what runs on the exact search's memo */
    int *row_origin, *col_origin;
    struct TreeJob *job;
    struct Coop *coop;   /* the threads' shared cells (NULL: a search alone; see "threads at the root") */
    struct Shared *memo_of; /* the memo the threads share (its slot_* and arena; NULL: this one's own) */
    long long memo_lock;    /* in that memo's holder: the threads' lock on it */
} Shared;

/* A numbering of rows the search runs on: the class's distinct rows (rowmap NULL), or
 * (a compact copy) the rows of one version space renumbered 0..rows-1, rowmap[j] being
 * the class's number of row j. */
typedef struct {
    Shared *sh;
    int W;              /* words per bitset */
    int rows;           /* rows numbered here */
    word *cols;         /* the class's nc columns over these rows, W words each */
    const int *rowmap;  /* NULL: the class's numbering */
} Ctx;

static int floor_log2(long long x) { /* x >= 1 */
    return 63 - MB_CLZ64(x);
}

static int lowest_bit(word x) { /* x != 0 */
    return 63 - MB_CLZ64(x & (~x + 1));
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

static inline int popcount_range(const word *v, int lo, int hi) {
    int a = 0;
    for (int i = lo; i < hi; i++) a += MB_POPCOUNT64(v[i]);
    return a;
}

/* ---------------------------------------------------------------- the memo */
/* A version space's key: its rows in the class's numbering, one key per set of rows
 * whichever numbering the search met it in (the class's or a compact copy's), so that one
 * memo serves every copy.  Three forms, the shortest taken (which one is a function of the
 * set, so the key stays one per set): the words from its lowest non-empty word to its
 * highest ("dense"), its non-empty words as (index, word) pairs ("pairs"), or its rows'
 * numbers, two 32-bit ones to a word ("rows").  key[0] is the key's length in words, bit 63
 * set for the dense form and bit 62 for the rows; then the lowest word's index and the
 * words, or the pairs, or the number of rows and the rows.  Its length follows the version
 * space, not the class: at most 1 + 2 min(size, words spanned), and 2 + size / 2 rounded
 * up.  `key` and `pairs` hold klen_max words each (a class's rows fit 32 bits: n is an int). */
#define DENSE_KEY ((word)1 << 63)
#define ROWS_KEY ((word)1 << 62)
static inline size_t make_key(const Ctx *c, const word *v, int lo_w, int hi_w, int size, word *key, word *pairs,
                              size_t klen_max) {
    size_t n = 0;
    if (!c->rowmap) {
        for (int i = lo_w; i < hi_w; i++)
            if (v[i]) { pairs[2 * n] = (word)i; pairs[2 * n + 1] = v[i]; n++; }
    } else { /* rowmap is increasing: the class's words come in order */
        long long at = -1;
        word acc = 0, *rows = key + 2;
        /* the rows' numbers go into the rows form on the way, where it fits the key's buffer */
        int keep_rows = 2 + ((size_t)size + 1) / 2 <= klen_max;
        size_t t = 0;
        for (int i = lo_w; i < hi_w; i++)
            for (word b = v[i]; b; b &= b - 1, t++) {
                int g = c->rowmap[64 * i + lowest_bit(b)];
                if (keep_rows) {
                    if (t & 1) rows[t / 2] |= (word)g << 32;
                    else rows[t / 2] = (word)g;
                }
                if ((g >> 6) != at) {
                    if (at >= 0) { pairs[2 * n] = (word)at; pairs[2 * n + 1] = acc; n++; }
                    at = g >> 6;
                    acc = 0;
                }
                acc |= (word)1 << (g & 63);
            }
        if (at >= 0) { pairs[2 * n] = (word)at; pairs[2 * n + 1] = acc; n++; }
    }
    size_t span = n ? (size_t)(pairs[2 * n - 2] - pairs[0] + 1) : 0;
    size_t rows_len = 2 + ((size_t)size + 1) / 2, short_len = 2 + span < 1 + 2 * n ? 2 + span : 1 + 2 * n;
    if (n && rows_len < short_len) { /* rows: their numbers, two to a word */
        key[0] = (word)rows_len | ROWS_KEY;
        key[1] = (word)size;
        if (c->rowmap) return rows_len; /* written on the way (it fits: it is the shortest) */
        memset(key + 2, 0, (rows_len - 2) * sizeof(word));
        size_t t = 0;
        for (size_t i = 0; i < n; i++)
            for (word b = pairs[2 * i + 1]; b; b &= b - 1, t++)
                key[2 + t / 2] |= (word)(64 * pairs[2 * i] + (word)lowest_bit(b)) << (32 * (t & 1));
        return rows_len;
    }
    if (n && 2 + span < 1 + 2 * n) { /* dense */
        key[0] = (word)(2 + span) | DENSE_KEY;
        key[1] = pairs[0];
        memset(key + 2, 0, span * sizeof(word));
        for (size_t i = 0; i < n; i++) key[2 + (pairs[2 * i] - pairs[0])] = pairs[2 * i + 1];
        return 2 + span;
    }
    key[0] = (word)(1 + 2 * n);
    memcpy(key + 1, pairs, 2 * n * sizeof(word));
    return 1 + 2 * n;
}

/* A multiply per word with no chain between words (so it pipelines), mixed once at the end:
 * equal hashes are compared in full, so a collision costs time, never exactness. */
static inline uint64_t hash_key(const word *key, size_t len) {
    uint64_t h = len;
    for (size_t i = 0; i < len; i++) h += (key[i] ^ (0x9e3779b97f4a7c15ULL * (i + 1))) * 0xff51afd7ed558ccdULL;
    h = mix(h);
    return h ? h : 1;
}

static void memo_clear(Shared *c) {
    if (c->slot_hash) memset(c->slot_hash, 0, c->cap * sizeof(uint64_t));
    c->used = 0;
    c->arena_len = 0;
}

static size_t memo_bytes_for(size_t cap, size_t arena_cap) {
    return cap * (sizeof(uint64_t) + sizeof(size_t) + 2) + arena_cap * sizeof(word);
}

static void memo_took(Shared *c) {
    size_t bytes = memo_bytes_for(c->cap, c->arena_cap);
    if (bytes > c->peak_bytes) c->peak_bytes = bytes;
}

/* Doubles the slots (rehashing); 0 when the memo may not grow or malloc fails. */
static int memo_grow_slots(Shared *c) {
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
    memo_took(c);
    return 1;
}

/* Makes room for `len` more words of keys; 0 when the memo may not grow. */
static int memo_grow_arena(Shared *c, size_t len) {
    size_t want = c->arena_cap ? 2 * c->arena_cap : 256;
    while (want < c->arena_len + len) want *= 2;
    if (memo_bytes_for(c->cap, want) > c->max_bytes) return 0;
    word *a = realloc(c->arena, want * sizeof(word));
    if (!a) return 0;
    c->arena = a;
    c->arena_cap = want;
    memo_took(c);
    return 1;
}

/* Finds the key's slot; returns its index, or -1 (and *free_slot, the slot to insert at). */
static long long memo_find(Shared *c, const word *key, size_t len, uint64_t h, size_t *free_slot) {
    size_t mask = c->cap - 1, i = (size_t)h & mask;
    for (;;) {
        uint64_t sh = c->slot_hash[i];
        if (sh == 0) {
            *free_slot = i;
            return -1;
        }
        if (sh == h) {
            const word *k = c->arena + c->slot_off[i];
            /* the first words hold the lengths: equal first words, keys of one length */
            if (k[0] == key[0] && memcmp(k + 1, key + 1, (len - 1) * sizeof(word)) == 0) return (long long)i;
        }
        i = (i + 1) & mask;
    }
}

/* Records lo <= Ldim(V) <= hi (merged with what is known) in c's own memo. */
static void memo_store(Shared *c, const word *key, size_t len, uint64_t h, int lo, int hi) {
    if (c->cap == 0 && !memo_grow_slots(c)) return;
    size_t slot;
    long long at = memo_find(c, key, len, h, &slot);
    if (at >= 0) {
        if (lo > c->slot_lo[at]) c->slot_lo[at] = (signed char)lo;
        if (hi < c->slot_hi[at]) c->slot_hi[at] = (signed char)hi;
        return;
    }
    /* grow, or when the memo may not grow, empty it (answers stay exact); the slot moves */
    if (2 * (c->used + 1) > c->cap) {
        if (!memo_grow_slots(c)) memo_clear(c);
        memo_find(c, key, len, h, &slot);
    }
    if (c->arena_len + len > c->arena_cap && !memo_grow_arena(c, len)) {
        memo_clear(c);
        if (len > c->arena_cap) return;
        memo_find(c, key, len, h, &slot);
    }
    memcpy(c->arena + c->arena_len, key, len * sizeof(word));
    c->slot_hash[slot] = h;
    c->slot_off[slot] = c->arena_len;
    c->slot_lo[slot] = (signed char)lo;
    c->slot_hi[slot] = (signed char)hi;
    c->arena_len += len;
    c->used++;
}

/* Records lo <= Ldim(V) <= hi in the search's memo: its own, or the one its threads share. */
static void memo_put(Shared *c, const word *key, size_t len, uint64_t h, int lo, int hi) {
    Shared *mm = c->memo_of;
    if (!mm) {
        memo_store(c, key, len, h, lo, hi);
        return;
    }
    mb_lock(&mm->memo_lock);
    memo_store(mm, key, len, h, lo, hi);
    mb_unlock(&mm->memo_lock);
}

/* What the search's memo says of V: 1 and *lo <= Ldim(V) <= *hi, or 0 when it has no entry. */
static int memo_get(Shared *c, const word *key, size_t len, uint64_t h, int *lo, int *hi) {
    Shared *mm = c->memo_of ? c->memo_of : c;
    if (c->memo_of) mb_lock(&mm->memo_lock);
    size_t slot;
    long long at = mm->cap ? memo_find(mm, key, len, h, &slot) : -1;
    if (at >= 0) {
        *lo = mm->slot_lo[at];
        *hi = mm->slot_hi[at];
    }
    if (c->memo_of) mb_unlock(&mm->memo_lock);
    return at >= 0;
}

static void memo_free(Shared *c) {
    free(c->slot_hash); free(c->slot_off); free(c->slot_lo); free(c->slot_hi);
    free(c->arena);
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

static int coop_more_nodes(Shared *s);
static int coop_stop(Shared *s);

static int stop_check(Shared *s) {
    if (s->max_nodes >= 0 && s->nodes >= s->max_nodes && !coop_more_nodes(s)) {
        s->stopped = ST_BUDGET;
        return 1;
    }
    s->nodes++;
    if ((s->nodes & 15) == 0) { /* a node costs a microsecond or more: checking is cheap */
        if (s->coop && coop_stop(s)) return 1;
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
/* Transposes a 64 x 64 bit block: bit j of a[i] becomes bit i of a[j]. */
static inline void transpose64(word a[64]) {
    word m = 0x00000000FFFFFFFFULL;
    for (int j = 32; j != 0; j >>= 1, m ^= m << j)
        for (int k = 0; k < 64; k = ((k | j) + 1) & ~j) {
            word t = ((a[k] >> j) ^ a[k | j]) & m;
            a[k | j] ^= t;
            a[k] ^= t << j;
        }
}

/* The class row by row (sh->rowbits), from the columns of its own context; 0 when memory is short. */
static int build_rowbits(Shared *sh, const Ctx *top) {
    sh->rowbits = calloc((size_t)top->rows * (size_t)(sh->CB ? sh->CB : 1), sizeof(word));
    if (!sh->rowbits) return 0;
    for (int t = 0; t < sh->nc; t++)
        for (int i = 0; i < top->W; i++)
            for (word b = top->cols[(size_t)t * top->W + i]; b; b &= b - 1)
                sh->rowbits[(size_t)(64 * i + lowest_bit(b)) * sh->CB + (t >> 6)] |= (word)1 << (t & 63);
    return 1;
}

/* The class's columns over the rows `rowmap` lists (size of them, in order), into cols
 * (nc columns of W words): 64 rows' labels at a time, read row by row and transposed. */
static inline void project(const Shared *sh, const int *rowmap, int size, int W, word *cols) {
    word block[64];
    for (int b = 0; b < W; b++) {
        int top = size - 64 * b < 64 ? size - 64 * b : 64;
        for (int cb = 0; cb < sh->CB; cb++) {
            for (int r = 0; r < 64; r++)
                block[r] = r < top ? sh->rowbits[(size_t)rowmap[64 * b + r] * sh->CB + cb] : 0;
            transpose64(block);
            int ncols = sh->nc - 64 * cb < 64 ? sh->nc - 64 * cb : 64;
            for (int t = 0; t < ncols; t++) cols[(size_t)(64 * cb + t) * W + b] = block[t];
        }
    }
}

/* Whether a version space of `size` rows spanning `range` words goes on in a compact copy:
 * when it is at most 1/ratio as wide; with a negative ratio (the tests' setting), whenever
 * it is not the whole space of its numbering, so that the smallest classes take the path. */
static int should_compact(const Ctx *c, int size, int range) {
    int ratio = c->sh->compact_ratio;
    if (ratio < 0) return size < c->rows;
    return ratio > 0 && range >= 2 && (long long)range >= (long long)ratio * ((size + 63) / 64);
}

static int at_least(Ctx *c, const word *v, int lo_w, int hi_w, int size, const int *cand, int ncand, int k,
                    int *lo_out);

/* Whether Ldim(V) >= k, asked of a compact copy of V: its rows renumbered 0..size-1 and
 * the columns of `cand` that split V projected onto them.  Sound because Ldim(V) depends
 * only on the labels V's rows give: the copy is the same class (a column constant on V
 * splits nothing and is left out; the numbering of the rows changes no split), and the
 * memo keys the copy's version spaces by their rows in the class's numbering (make_key),
 * so what is proven in one numbering is found in any other. */
MB_HOT static int compact_at_least(Ctx *c, const word *v, int lo_w, int hi_w, int size, const int *cand,
                                   int ncand, int k, int *lo_out) {
    Shared *sh = c->sh;
    if (!sh->rowbits && !build_rowbits(sh, sh->top)) {
        sh->stopped = ST_MEMORY;
        return 0;
    }
    Ctx s;
    memset(&s, 0, sizeof s);
    s.sh = sh;
    s.W = (size + 63) / 64;
    s.rows = size;
    s.cols = malloc((size_t)(sh->nc ? sh->nc : 1) * (size_t)s.W * sizeof(word));
    int *scand = malloc((size_t)(ncand ? ncand : 1) * sizeof(int));
    int *rowmap = malloc((size_t)size * sizeof(int));
    word *full = calloc((size_t)s.W, sizeof(word));
    if (!s.cols || !scand || !rowmap || !full) {
        free(s.cols); free(scand); free(rowmap); free(full);
        sh->stopped = ST_MEMORY;
        return 0;
    }
    int t = 0;
    for (int i = lo_w; i < hi_w; i++)
        for (word b = v[i]; b; b &= b - 1) {
            int r = 64 * i + lowest_bit(b);
            rowmap[t++] = c->rowmap ? c->rowmap[r] : r;
        }
    s.rowmap = rowmap;
    project(sh, rowmap, size, s.W, s.cols);
    int nc = 0; /* the candidates that still split V (the others split none of its parts) */
    for (int u = 0; u < ncand; u++) {
        int a = popcount_range(s.cols + (size_t)cand[u] * s.W, 0, s.W);
        if (a != 0 && a != size) scand[nc++] = cand[u];
    }
    for (int i = 0; i < size; i++) full[i >> 6] |= (word)1 << (i & 63);
    int lo = k, result = at_least(&s, full, 0, s.W, size, scand, nc, k, &lo);
    free(s.cols);
    free(scand);
    free(rowmap);
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

/* Most balanced first: by insertion when they are few (most nodes), else by qsort. */
static void sort_splits(Split *splits, int n) {
    if (n > 64) {
        qsort(splits, (size_t)n, sizeof(Split), by_balance);
        return;
    }
    for (int i = 1; i < n; i++) {
        Split x = splits[i];
        int j = i;
        for (; j > 0 && by_balance(&splits[j - 1], &x) > 0; j--) splits[j] = splits[j - 1];
        splits[j] = x;
    }
}

/* The search counts bits in every node: MB_HOT (_kernel_compat.h) compiles a copy of it
 * for processors with the popcnt instruction where the platform can choose at load time. */

/* Whether Ldim(V) >= k; cand: the columns that may split V.  *lo_out gets a proven
 * lower bound on success. */
MB_HOT static int at_least(Ctx *c, const word *v, int lo_w, int hi_w, int size, const int *cand, int ncand, int k,
                    int *lo_out) {
    if (k <= 0) return 1;
    if (size < 2 || k > floor_log2(size)) return 0;
    Shared *sh = c->sh;
    if (k == 1) { /* Ldim(V) >= 1 iff a column splits V: cheaper to see than to look up */
        if (stop_check(sh)) return 0;
        for (int t = 0; t < ncand; t++) {
            const word *col = c->cols + (size_t)cand[t] * c->W;
            int a = 0;
            for (int i = lo_w; i < hi_w; i++) a += MB_POPCOUNT64(v[i] & col[i]);
            if (a != 0 && a != size) {
                *lo_out = 1;
                return 1;
            }
        }
        return 0;
    }
    /* one allocation for the node: its key, the two sides of a split, the splits, the table */
    const int W = c->W;
    /* a key's pairs: at most one per row of V, and one per word it spans in the class's
       numbering (all of the class's words for a compact copy, whose span there is unknown) */
    size_t span = c->rowmap ? (size_t)sh->class_W : (size_t)(hi_w - lo_w);
    size_t klen_max = 1 + 2 * ((size_t)size < span ? (size_t)size : span);
    size_t tsz = 4;
    while (tsz < 2 * (size_t)ncand) tsz <<= 1;
    size_t nwords = 2 * klen_max + 2 * (size_t)W;
    char *scratch = malloc(nwords * sizeof(word) + (size_t)(ncand ? ncand : 1) * (sizeof(Split) + sizeof(int)) +
                           tsz * sizeof(int));
    if (!scratch) {
        sh->stopped = ST_MEMORY;
        return 0;
    }
    word *key = (word *)scratch, *side = key + 2 * klen_max;
    Split *splits = (Split *)(side + 2 * W);
    int *sub = (int *)(splits + (ncand ? ncand : 1)), *tab = sub + (ncand ? ncand : 1);
    size_t klen = make_key(c, v, lo_w, hi_w, size, key, key + klen_max, klen_max);
    uint64_t h = hash_key(key, klen);
    int result = 0, found_lo = 0;
    int mlo, mhi;
    if (memo_get(sh, key, klen, h, &mlo, &mhi)) {
        if (k <= mlo) {
            result = 1;
            found_lo = mlo;
            goto done;
        }
        if (k > mhi) goto done;
    }
    /* a question of k = 1 is answered by the first split: no copy pays for itself there */
    if (k >= 2 && should_compact(c, size, hi_w - lo_w)) {
        result = compact_at_least(c, v, lo_w, hi_w, size, cand, ncand, k, &found_lo);
        goto done;
    }
    if (stop_check(sh)) goto done;
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
    if (nsplits == 0) {
        memo_put(sh, key, klen, h, 0, 0);
        goto done;
    }
    if (k == 1) {
        memo_put(sh, key, klen, h, 1, 127);
        result = 1;
        found_lo = 1;
        goto done;
    }
    sort_splits(splits, nsplits);
    int need = k - 1;
    if (floor_log2(splits[0].s) < need) { /* Ldim(V) <= 1 + floor(log2 s) of the best split < k */
        memo_put(sh, key, klen, h, 0, 1 + floor_log2(splits[0].s));
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
            if (sh->stopped) goto done;
            continue;
        }
        /* the child's call may have reused nothing of ours but `other` is ours alone */
        if (!at_least(c, other, olo, ohi, size - s, sub, nsplits, need, &l2)) {
            if (sh->stopped) goto done;
            continue;
        }
        found_lo = 1 + (l1 < l2 ? l1 : l2);
        if (found_lo < k) found_lo = k;
        memo_put(sh, key, klen, h, found_lo, 127);
        result = 1;
        goto done;
    }
    memo_put(sh, key, klen, h, 0, need);
done:
    free(scratch);
    if (result) *lo_out = found_lo;
    return result;
}

/* ---------------------------------------------------------------- the rows' order */
static word bit_reverse(word x) {
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    x = ((x >> 8) & 0x00FF00FF00FF00FFULL) | ((x & 0x00FF00FF00FF00FFULL) << 8);
    x = ((x >> 16) & 0x0000FFFF0000FFFFULL) | ((x & 0x0000FFFF0000FFFFULL) << 16);
    return (x >> 32) | (x << 32);
}

/* ldim_tree's origins follow the renumbering: origin[t] becomes origin[order[t].col] (the
 * columns) or origin[p[t]] (the rows), through the job's scratch (allocated beforehand). */
static void permute_origin(Shared *sh, int *origin, const Split *order, const int *p, int n);

/* Renumbers the class's rows (and orders its columns) so that the version spaces the search
 * meets first are runs of consecutive rows: the columns most balanced first (the order the
 * search tries them in), then the rows sorted by their labels read in that order, the first
 * column the most significant.  The splits of the first columns then cut runs in halves,
 * whatever order the class came in, and a run spans few words.  Only the numbering
 * changes (the search is exact in any), so it is skipped where it cannot pay: a class of
 * one word, or of more than 64 distinct splits (the rows' labels would not fit one word to
 * sort by).  Returns 0 when memory is short. */
static int renumber_rows(Shared *sh, Ctx *c) {
    int nd = c->rows, nc = sh->nc, W = c->W;
    if (W < 2 || nc > 64 || nc == 0) return 1;
    /* the columns, most balanced first (stable: ties keep their order) */
    Split *order = malloc((size_t)nc * sizeof(Split));
    word *cols = malloc((size_t)nc * (size_t)W * sizeof(word));
    word *keys = malloc((size_t)nd * 2 * sizeof(word));
    int *perm = malloc((size_t)nd * 2 * sizeof(int));
    if (!order || !cols || !keys || !perm) {
        free(order); free(cols); free(keys); free(perm);
        return 0;
    }
    for (int t = 0; t < nc; t++) {
        int a = popcount_range(c->cols + (size_t)t * W, 0, W);
        order[t].col = t;
        order[t].s = 2 * a <= nd ? a : nd - a;
        order[t].flip = 0;
    }
    qsort(order, (size_t)nc, sizeof(Split), by_balance);
    for (int t = 0; t < nc; t++)
        memcpy(cols + (size_t)t * W, c->cols + (size_t)order[t].col * W, (size_t)W * sizeof(word));
    memcpy(c->cols, cols, (size_t)nc * (size_t)W * sizeof(word));
    if (sh->col_origin) permute_origin(sh, sh->col_origin, order, NULL, nc);
    free(order);
    free(sh->rowbits);
    sh->rowbits = NULL;
    if (!build_rowbits(sh, c)) {
        free(cols); free(keys); free(perm);
        return 0;
    }
    /* the rows by their labels, column 0 the most significant bit: a radix sort on the
       bytes that hold columns (least significant first, each pass stable) */
    word *key = keys, *key2 = keys + nd;
    int *p = perm, *p2 = perm + nd;
    for (int r = 0; r < nd; r++) { key[r] = bit_reverse(sh->rowbits[r]); p[r] = r; }
    for (int byte = 8 - (nc + 7) / 8; byte < 8; byte++) {
        int count[257] = {0};
        for (int r = 0; r < nd; r++) count[((key[r] >> (8 * byte)) & 255) + 1]++;
        for (int b = 0; b < 256; b++) count[b + 1] += count[b];
        for (int r = 0; r < nd; r++) {
            int at = count[(key[r] >> (8 * byte)) & 255]++;
            key2[at] = key[r];
            p2[at] = p[r];
        }
        word *tk = key; key = key2; key2 = tk;
        int *tp = p; p = p2; p2 = tp;
    }
    /* the columns over the rows in their new order, and the rows' labels likewise */
    memset(cols, 0, (size_t)nc * (size_t)W * sizeof(word));
    project(sh, p, nd, W, cols);
    memcpy(c->cols, cols, (size_t)nc * (size_t)W * sizeof(word));
    for (int r = 0; r < nd; r++) key2[r] = sh->rowbits[p[r]];
    memcpy(sh->rowbits, key2, (size_t)nd * sizeof(word));
    if (sh->row_origin) permute_origin(sh, sh->row_origin, NULL, p, nd);
    free(cols);
    free(keys);
    free(perm);
    return 1;
}

/* ---------------------------------------------------------------- trees and refutations
 * ldim_tree: once the exact search has proven Ldim(H) = d, a shattered tree of depth d and a
 * refutation of Ldim(H) >= d + 1 are read off its memo (still whole: they run inside
 * search(), before anything is freed), asking at_least again where the memo has no answer
 * (a memo hit, mostly; a search of what the memo lost otherwise, within the same budget).
 * Both speak of the caller's matrix: its columns (col_origin) and rows (row_origin), not the
 * distinct rows, the renumbered ones, or a compact copy's. */
typedef struct TreeJob {
    int want_tree, want_refutation;
    int *scratch;         /* max(n, m) ints, for permute_origin */
    int depth;
    int *inst;            /* node h (1 <= h < 2^depth): the caller's column asked there */
    int *witness;         /* leaf 2^depth + i at i: the caller's row of a hypothesis reaching it */
    int failed;           /* 1: no split realised a proven value (a bug; reported as one) */
    /* the refutation: facts Ldim(V) <= value, children before parents, the root's last; a fact
       is "log2" (start -1) or the entries [start, start + 3 * count) of `entries`: a caller's
       column splitting V (one per split of the class's columns), the label of the side
       answered, and that side's fact */
    int *fvalue, *fstart, *fcount;
    size_t nfacts, fcap;
    int log2fact[64];     /* per value b + 1: the one "log2" fact of value b that every side of
                             fewer than 2^(b+1) rows below the root cites (0: none yet) */
    int *entries;
    size_t nentries, ecap;
    int *colorder;        /* the class's columns by their caller's column: each fact's entries in
                             the caller's order */
    /* facts already written, by their version space (memo keys, make_key) */
    size_t tcap, tused;
    uint64_t *thash;
    size_t *toff;
    int *tfact;
    word *tarena;
    size_t tlen, tarena_cap;
} TreeJob;

static void permute_origin(Shared *sh, int *origin, const Split *order, const int *p, int n) {
    int *tmp = sh->job->scratch;
    for (int t = 0; t < n; t++) tmp[t] = origin[order ? order[t].col : p[t]];
    memcpy(origin, tmp, (size_t)n * sizeof(int));
}

/* The span [*lo, *hi) of v's non-empty words among [from, to) (v non-empty there); the
 * reading's bitsets are read and written only within their parent's span. */
static void word_span(const word *v, int from, int to, int *lo, int *hi) {
    *lo = to;
    *hi = from;
    for (int i = from; i < to; i++)
        if (v[i]) { if (i < *lo) *lo = i; *hi = i + 1; }
}

/* The distinct splits of V (bits [lo_w, hi_w)) among cand, one column per split as at_least
 * keeps them (the first in cand's order), into splits (sorted most balanced first, as at_least
 * tries them) and sub (in cand's order, as at_least passes them down); returns how many.
 * tab: tsz ints.  rep (NULL, or ncand ints): per candidate t, -1 when cand[t] is constant on
 * V, else 2 * (the column kept for its split) + (1 when the two are complementary on V). */
MB_HOT static int node_splits(const Ctx *c, const word *v, int lo_w, int hi_w, int size, const int *cand, int ncand,
                              Split *splits, int *sub, int *tab, size_t tsz, int *rep) {
    const int W = c->W;
    memset(tab, 0xff, tsz * sizeof(int));
    int first_w = lo_w;
    while (v[first_w] == 0) first_w++;
    word first_bit = v[first_w] & (~v[first_w] + 1);
    int n = 0;
    for (int t = 0; t < ncand; t++) {
        const word *col = c->cols + (size_t)cand[t] * W;
        int a = 0;
        word pfold = 0;
        int has_first = (col[first_w] & first_bit) != 0;
        for (int i = lo_w; i < hi_w; i++) {
            word p = has_first ? (v[i] & ~col[i]) : (v[i] & col[i]);
            a += MB_POPCOUNT64(v[i] & col[i]);
            pfold ^= rotl(p, i);
        }
        if (a == 0 || a == size) {
            if (rep) rep[t] = -1;
            continue;
        }
        int s_here = 2 * a <= size ? a : size - a, dup = 0;
        size_t ti = (size_t)mix(mix((uint64_t)s_here) ^ pfold) & (tsz - 1);
        for (; tab[ti] >= 0; ti = (ti + 1) & (tsz - 1)) {
            int u = tab[ti];
            if (splits[u].s != s_here) continue;
            const word *col2 = c->cols + (size_t)splits[u].col * W;
            int has2 = (col2[first_w] & first_bit) != 0, same = 1;
            for (int i = lo_w; i < hi_w && same; i++)
                same = (has_first ? (v[i] & ~col[i]) : (v[i] & col[i])) ==
                       (has2 ? (v[i] & ~col2[i]) : (v[i] & col2[i]));
            if (same) {
                if (rep) rep[t] = 2 * splits[u].col + (has_first != has2);
                dup = 1;
                break;
            }
        }
        if (dup) continue;
        if (rep) rep[t] = 2 * cand[t];
        tab[ti] = n;
        splits[n].col = cand[t];
        splits[n].s = s_here;
        splits[n].flip = 2 * a > size;
        sub[n] = cand[t];
        n++;
    }
    sort_splits(splits, n);
    return n;
}

/* One node's scratch: splits, sub and the table for ncand candidates, and `words` words. */
static char *node_scratch(Shared *sh, int ncand, size_t *tsz, int words, Split **splits, int **sub, int **tab,
                          word **buf) {
    *tsz = 4;
    while (*tsz < 2 * (size_t)ncand) *tsz <<= 1;
    int nc1 = ncand ? ncand : 1;
    char *scratch = malloc((size_t)words * sizeof(word) + (size_t)nc1 * (sizeof(Split) + sizeof(int)) +
                           *tsz * sizeof(int));
    if (!scratch) {
        sh->stopped = ST_MEMORY;
        return NULL;
    }
    *buf = (word *)scratch;
    *splits = (Split *)(*buf + words);
    *sub = (int *)(*splits + nc1);
    *tab = *sub + nc1;
    return scratch;
}

/* The caller's first row among V's rows (those labelled y by col, when col is not NULL). */
static int first_origin(const Shared *sh, const word *v, const word *col, int y, int lo_w, int hi_w) {
    int best = -1;
    for (int i = lo_w; i < hi_w; i++)
        for (word b = col ? v[i] & (y ? col[i] : ~col[i]) : v[i]; b; b &= b - 1) {
            int r = sh->row_origin[64 * i + lowest_bit(b)];
            if (best < 0 || r < best) best = r;
        }
    return best;
}

/* Writes a shattered tree of depth d for V (the class's numbering, `size` rows, words [lo_w,
 * hi_w); Ldim(V) >= d proven) at heap node h: at each node the first split, in at_least's
 * order, whose two sides are proven of Ldim >= d - 1 (memo hits, or further decisions); at
 * depth 1 the first column of cand that splits V.  0 when stopped. */
static int read_tree(Ctx *c, TreeJob *job, const word *v, int lo_w, int hi_w, int size, const int *cand, int ncand,
                     int d, long long h) {
    Shared *sh = c->sh;
    const int W = c->W;
    if (d == 0) { /* a leaf: the caller's first row among V's */
        job->witness[h - (1LL << job->depth)] = first_origin(sh, v, NULL, 0, lo_w, hi_w);
        return 1;
    }
    if (stop_check(sh)) return 0;
    if (d == 1) { /* any split: the first column of cand splitting V, its two sides leaves */
        for (int t = 0; t < ncand; t++) {
            const word *col = c->cols + (size_t)cand[t] * W;
            int a = 0;
            for (int i = lo_w; i < hi_w; i++) a += MB_POPCOUNT64(v[i] & col[i]);
            if (a == 0 || a == size) continue;
            job->inst[h] = sh->col_origin[cand[t]];
            job->witness[2 * h - (1LL << job->depth)] = first_origin(sh, v, col, 0, lo_w, hi_w);
            job->witness[2 * h + 1 - (1LL << job->depth)] = first_origin(sh, v, col, 1, lo_w, hi_w);
            return 1;
        }
        job->failed = 1;
        return 0;
    }
    size_t tsz;
    Split *splits;
    int *sub, *tab;
    word *side;
    char *scratch = node_scratch(sh, ncand, &tsz, 2 * W, &splits, &sub, &tab, &side);
    if (!scratch) return 0;
    word *other = side + W;
    int n = node_splits(c, v, lo_w, hi_w, size, cand, ncand, splits, sub, tab, tsz, NULL), chosen = -1;
    for (int t = 0; t < n && chosen < 0; t++) {
        const word *col = c->cols + (size_t)splits[t].col * W;
        for (int i = lo_w; i < hi_w; i++) {
            side[i] = splits[t].flip ? (v[i] & ~col[i]) : (v[i] & col[i]);
            other[i] = v[i] ^ side[i];
        }
        int slo, shi, olo, ohi, l = 0;
        word_span(side, lo_w, hi_w, &slo, &shi);
        word_span(other, lo_w, hi_w, &olo, &ohi);
        if (at_least(c, side, slo, shi, splits[t].s, sub, n, d - 1, &l) &&
            at_least(c, other, olo, ohi, size - splits[t].s, sub, n, d - 1, &l))
            chosen = t;
        else if (sh->stopped) break;
    }
    int ok = 0;
    if (chosen < 0) {
        if (!sh->stopped) job->failed = 1;
        goto done;
    }
    const word *col = c->cols + (size_t)splits[chosen].col * W;
    job->inst[h] = sh->col_origin[splits[chosen].col];
    int a = 0, slo, shi, olo, ohi;
    for (int i = lo_w; i < hi_w; i++) { /* side: label 0, other: label 1 */
        other[i] = v[i] & col[i];
        side[i] = v[i] ^ other[i];
        a += MB_POPCOUNT64(other[i]);
    }
    word_span(side, lo_w, hi_w, &slo, &shi);
    word_span(other, lo_w, hi_w, &olo, &ohi);
    ok = read_tree(c, job, side, slo, shi, size - a, sub, n, d - 1, 2 * h) &&
         read_tree(c, job, other, olo, ohi, a, sub, n, d - 1, 2 * h + 1);
done:
    free(scratch);
    return ok;
}

/* The fact already written on V (its key) of value <= b, or -1; *slot: where V goes if new. */
static long long facts_find(TreeJob *job, const word *key, size_t len, uint64_t h, int b, size_t *slot) {
    if (!job->tcap) { *slot = 0; return -1; }
    size_t mask = job->tcap - 1, i = (size_t)h & mask;
    for (; job->thash[i]; i = (i + 1) & mask) {
        const word *k = job->tarena + job->toff[i];
        if (job->thash[i] == h && k[0] == key[0] && memcmp(k + 1, key + 1, (len - 1) * sizeof(word)) == 0) {
            *slot = i;
            return job->fvalue[job->tfact[i]] <= b ? job->tfact[i] : -1;
        }
    }
    *slot = i;
    return -1;
}

/* Grows `*a` (of *cap elements of `size` bytes) to hold `want`; 0 when memory is short. */
static int grow(void **a, size_t *cap, size_t want, size_t size) {
    if (want <= *cap) return 1;
    size_t c = *cap ? *cap : 256;
    while (c < want) c *= 2;
    void *p = realloc(*a, c * size);
    if (!p) return 0;
    *a = p;
    *cap = c;
    return 1;
}

/* Remembers that fact `f` holds on V (its key); 0 when memory is short. */
static int facts_put(TreeJob *job, const word *key, size_t len, uint64_t h, int f) {
    size_t slot;
    long long at = facts_find(job, key, len, h, 1 << 30, &slot);
    if (job->tcap && job->thash[slot]) { /* V had a fact: the new one (of a smaller value) replaces it */
        (void)at;
        job->tfact[slot] = f;
        return 1;
    }
    if (2 * (job->tused + 1) > job->tcap) { /* rehash into twice the slots */
        size_t cap = job->tcap ? 2 * job->tcap : 256;
        uint64_t *hs = calloc(cap, sizeof(uint64_t));
        size_t *off = malloc(cap * sizeof(size_t));
        int *fact = malloc(cap * sizeof(int));
        if (!hs || !off || !fact) { free(hs); free(off); free(fact); return 0; }
        for (size_t i = 0; i < job->tcap; i++) {
            if (!job->thash[i]) continue;
            size_t j = (size_t)job->thash[i] & (cap - 1);
            while (hs[j]) j = (j + 1) & (cap - 1);
            hs[j] = job->thash[i]; off[j] = job->toff[i]; fact[j] = job->tfact[i];
        }
        free(job->thash); free(job->toff); free(job->tfact);
        job->thash = hs; job->toff = off; job->tfact = fact; job->tcap = cap;
        facts_find(job, key, len, h, 1 << 30, &slot);
    }
    if (!grow((void **)&job->tarena, &job->tarena_cap, job->tlen + len, sizeof(word))) return 0;
    memcpy(job->tarena + job->tlen, key, len * sizeof(word));
    job->thash[slot] = h;
    job->toff[slot] = job->tlen;
    job->tfact[slot] = f;
    job->tlen += len;
    job->tused++;
    return 1;
}

/* Appends a fact Ldim(V) <= b (start -1: "log2"); its index, or -1 when memory is short. */
static long long add_fact(TreeJob *job, int b, long long start, int count) {
    if (!grow((void **)&job->fvalue, &job->fcap, job->nfacts + 1, sizeof(int))) return -1;
    size_t cap = job->fcap;
    /* fstart and fcount follow fvalue's capacity */
    int *s2 = realloc(job->fstart, cap * sizeof(int)), *c2;
    if (!s2) return -1;
    job->fstart = s2;
    c2 = realloc(job->fcount, cap * sizeof(int));
    if (!c2) return -1;
    job->fcount = c2;
    job->fvalue[job->nfacts] = b;
    job->fstart[job->nfacts] = (int)start;
    job->fcount[job->nfacts] = count;
    return (long long)job->nfacts++;
}

/* A fact Ldim(V) <= b (V in the class's numbering, `size` rows; Ldim(V) <= b proven): one
 * already written on V of a value <= b, else "log2"
 * when V has fewer than 2^(b+1) rows, else every column of the class splitting V answered by
 * the side of Ldim <= b - 1 (the smaller side first, as the search refutes it: a side of
 * fewer than 2^b rows, or one at_least refutes), that side's fact written first.  A side of
 * fewer than 2^b rows (the search's cut, read off the split's size) cites the one "log2"
 * fact of value b - 1 (log2fact), which the certificate checks in place, side by side; any
 * other V is written once (the facts are a DAG).  Its index, or -1 when stopped (or memory
 * is short). */
static long long refute(Ctx *c, TreeJob *job, const word *v, int lo_w, int hi_w, int size, int b) {
    Shared *sh = c->sh;
    const int W = c->W;
    size_t span = (size_t)(hi_w - lo_w), klen_max = 1 + 2 * ((size_t)size < span ? (size_t)size : span);
    int nc = sh->nc;
    size_t tsz;
    Split *splits;
    int *sub, *tab;
    word *key;
    char *scratch = node_scratch(sh, nc, &tsz, (int)(2 * klen_max) + 2 * W, &splits, &sub, &tab, &key);
    if (!scratch) return -1;
    word *side = key + 2 * klen_max, *other = side + W;
    long long result = -1;
    size_t klen = make_key(c, v, lo_w, hi_w, size, key, key + klen_max, klen_max), slot;
    uint64_t h = hash_key(key, klen);
    long long known = facts_find(job, key, klen, h, b, &slot);
    if (known >= 0) { result = known; goto done; }
    if (b < 62 && (long long)size < (1LL << (b + 1))) { /* fewer than 2^(b+1) rows: "log2" */
        result = add_fact(job, b, -1, 0);
        if (result < 0 || !facts_put(job, key, klen, h, (int)result)) { sh->stopped = ST_MEMORY; result = -1; }
        goto done;
    }
    int *all = sub; /* every column of the class (node_splits writes sub[k] after reading all[k..]) */
    for (int t = 0; t < nc; t++) all[t] = t;
    /* per column: its split's kept column and the relation (rep), the kept column's split
       (at), and per split of V: the side answered (its label on the split's column) and its fact */
    int *rep = malloc(4 * (size_t)(nc ? nc : 1) * sizeof(int));
    if (!rep) { sh->stopped = ST_MEMORY; goto done; }
    int *at = rep + nc, *answer = at + nc;
    int n = node_splits(c, v, lo_w, hi_w, size, all, nc, splits, sub, tab, tsz, rep);
    for (int t = 0; t < n; t++) {
        if (b < 63 && (long long)splits[t].s < (1LL << b)) { /* the smaller side: fewer than 2^b rows */
            /* the search's cut (1 + floor(log2 s) < b + 1): the side is "log2" of value b - 1,
               checked in place; one fact stands for all of them, no side built */
            if (!job->log2fact[b]) {
                long long f = add_fact(job, b - 1, -1, 0);
                if (f < 0) { sh->stopped = ST_MEMORY; free(rep); goto done; }
                job->log2fact[b] = (int)f + 1;
            }
            answer[2 * t] = job->log2fact[b] - 1;
            answer[2 * t + 1] = splits[t].flip ^ 1; /* 1: the side where the column is 1 */
            continue;
        }
        const word *col = c->cols + (size_t)splits[t].col * W;
        for (int i = lo_w; i < hi_w; i++) {
            side[i] = splits[t].flip ? (v[i] & ~col[i]) : (v[i] & col[i]);
            other[i] = v[i] ^ side[i];
        }
        answer[2 * t] = -1;
        for (int which = 0; which < 2 && answer[2 * t] < 0; which++) {
            word *w = which ? other : side;
            int wsize = which ? size - splits[t].s : splits[t].s, wlo, whi, l = 0;
            word_span(w, lo_w, hi_w, &wlo, &whi);
            if (!(b < 62 && (long long)wsize < (1LL << b)) && at_least(c, w, wlo, whi, wsize, sub, n, b, &l))
                continue;
            if (sh->stopped) break;
            long long f = refute(c, job, w, wlo, whi, wsize, b - 1);
            if (f < 0) break;
            answer[2 * t] = (int)f;
            answer[2 * t + 1] = splits[t].flip ^ which ^ 1; /* 1: the side where the column is 1 */
        }
        if (answer[2 * t] < 0) {
            if (!sh->stopped) job->failed = 1;
            free(rep);
            goto done;
        }
    }
    /* the entries: every column of the class splitting V (in the caller's order), answered as
       the split it makes (rep, from node_splits) */
    long long start = (long long)job->nentries;
    int count = 0;
    for (int u = 0; u < n; u++) at[splits[u].col] = u;
    if (!grow((void **)&job->entries, &job->ecap, job->nentries + 3 * (size_t)nc, sizeof(int))) {
        sh->stopped = ST_MEMORY; free(rep); goto done;
    }
    for (int q = 0; q < nc; q++) {
        int x = job->colorder[q];
        if (rep[x] < 0) continue; /* constant on V */
        int u = at[rep[x] >> 1];
        job->entries[job->nentries++] = sh->col_origin[x];
        /* x and the kept column agree on V's rows, or are complementary there */
        job->entries[job->nentries++] = answer[2 * u + 1] ^ (rep[x] & 1);
        job->entries[job->nentries++] = answer[2 * u];
        count++;
    }
    free(rep);
    result = add_fact(job, b, start, count);
    if (result < 0 || !facts_put(job, key, klen, h, (int)result)) { sh->stopped = ST_MEMORY; result = -1; }
done:
    free(scratch);
    if (result < 0 && !sh->stopped && !job->failed) sh->stopped = ST_MEMORY;
    return result;
}

/* Runs the job once the search has proven Ldim(H) = d: the tree, then the refutation. */
static void run_job(Shared *sh, Ctx *c, const word *full, const int *cand, int nc, int d) {
    TreeJob *job = sh->job;
    job->depth = d;
    if (job->want_tree) {
        job->inst = calloc((size_t)1 << d, sizeof(int));
        job->witness = calloc((size_t)1 << d, sizeof(int));
        if (!job->inst || !job->witness) { sh->stopped = ST_MEMORY; return; }
        if (!read_tree(c, job, full, 0, c->W, c->rows, cand, nc, d, 1)) return;
    }
    if (job->want_refutation) {
        int top = 0, q = 0; /* the columns' order: by their caller's column (distinct, >= 0) */
        for (int x = 0; x < sh->nc; x++) if (sh->col_origin[x] >= top) top = sh->col_origin[x] + 1;
        int *by_origin = malloc((size_t)(top ? top : 1) * sizeof(int));
        job->colorder = malloc((size_t)(sh->nc ? sh->nc : 1) * sizeof(int));
        if (!by_origin || !job->colorder) { free(by_origin); sh->stopped = ST_MEMORY; return; }
        for (int j = 0; j < top; j++) by_origin[j] = -1;
        for (int x = 0; x < sh->nc; x++) by_origin[sh->col_origin[x]] = x;
        for (int j = 0; j < top; j++) if (by_origin[j] >= 0) job->colorder[q++] = by_origin[j];
        free(by_origin);
        refute(c, job, full, 0, c->W, c->rows, d);
    }
}

static void job_free(TreeJob *job) {
    free(job->scratch); free(job->inst); free(job->witness);
    free(job->fvalue); free(job->fstart); free(job->fcount); free(job->entries); free(job->colorder);
    free(job->thash); free(job->toff); free(job->tfact); free(job->tarena);
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
        if (c->sh->col_origin) c->sh->col_origin[nc] = (int)j;
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

/* ---------------------------------------------------------------- threads at the root
 * Ldim(H) = max over the root's splits x of 1 + min(Ldim(H_x^0), Ldim(H_x^1)), so "is
 * Ldim(H) >= k?" holds iff some split has both sides >= k - 1, and fails iff every split
 * has a side < k - 1.  Several threads, each a call of ldim_bounds given the same class
 * and one buffer (`coop`, zeroed, coop_bytes(m) long), search the root together: at each
 * level k, from the upper bound down, a thread claims root splits one at a time (its own
 * share first, splits thread, thread + threads, ... of the most-balanced-first order, so
 * that its memo meets again the sides it met a level higher; then any split still
 * unclaimed) and answers them in its own memo.  The buffer's cells, read and raised by
 * every thread with atomic operations:
 *   lower    the highest level a thread proved (a split whose two sides hold);
 *   refuted  the lowest level every one of whose eligible splits was refuted (Ldim < it);
 *   stop     a status (interrupted) that stops every thread at its next check;
 *   nodes    the nodes taken from a budget of max_nodes shared by the threads, 64 at a time;
 * then, per level, the count of its refuted splits and a bitmap of its claimed ones.
 * A thread stops as soon as the level it is on is at most `lower` (another proved it:
 * Ldim >= lower >= k), after proving its level, or below the bound before any search.
 * Each call returns the bounds the cells prove when it ends; the caller takes the largest
 * lower and the smallest upper of all its calls, exact when they meet: every level above
 * the value has all its splits claimed and (unless a budget stopped a thread) refuted, and
 * the value's level has its proving split claimed by a thread that proves it or stops
 * because another proved it. */
#define COOP_LOWER 0 /* cells 8 words apart: a write to one leaves the others' cache line */
#define COOP_REFUTED 8
#define COOP_STOP 16
#define COOP_NODES 24
#define COOP_MEMO 28  /* the memo the threads share: its holder's address, */
#define COOP_USERS 29 /* the threads using it, */
#define COOP_GATE 30  /* and a lock on both (the last thread to leave frees the memo) */
#define COOP_HEAD 32
#define COOP_LEVELS 64 /* levels 0..63: Ldim <= floor(log2 n) < 63 */
#define COOP_CHUNK 64  /* nodes a thread takes from the shared budget at a time */


typedef struct Coop {
    long long *cells;
    int words;            /* words of a level's bitmap of claimed splits */
    int thread, threads;  /* this call's share: splits thread, thread + threads, ... first */
    long long max_nodes;  /* the budget the threads share (-1: none) */
    int level;            /* the level this thread is on (0: not at the root yet) */
} Coop;

static size_t coop_cells(Py_ssize_t m) { return COOP_HEAD + (size_t)COOP_LEVELS * (1 + ((size_t)m + 63) / 64); }

static void coop_raise(long long *p, long long v) { /* *p = max(*p, v) */
    for (long long cur = mb_load(p); cur < v && !mb_cas(p, cur, v); cur = mb_load(p)) {}
}

static void coop_refute(long long *p, long long v) { /* *p = min(*p, v), 0 standing for none */
    for (long long cur = mb_load(p); (cur == 0 || v < cur) && !mb_cas(p, cur, v); cur = mb_load(p)) {}
}

static long long coop_add(long long *p, long long d) {
    long long cur = mb_load(p);
    while (!mb_cas(p, cur, cur + d)) cur = mb_load(p);
    return cur + d;
}

/* More nodes for this thread from the shared budget; 0 when it is spent (or there is none). */
static int coop_more_nodes(Shared *s) {
    Coop *co = s->coop;
    if (!co || co->max_nodes < 0) return 0;
    long long *p = co->cells + COOP_NODES;
    for (;;) {
        long long used = mb_load(p), take = co->max_nodes - used < COOP_CHUNK ? co->max_nodes - used : COOP_CHUNK;
        if (take <= 0) return 0;
        if (mb_cas(p, used, used + take)) {
            s->max_nodes += take;
            return 1;
        }
    }
}

/* Whether this thread stops: another thread's signal, or its level proven by another. */
static int coop_stop(Shared *s) {
    Coop *co = s->coop;
    long long stop = mb_load(co->cells + COOP_STOP);
    if (stop) {
        s->stopped = (int)stop;
        return 1;
    }
    if (co->level > 0 && mb_load(co->cells + COOP_LOWER) >= co->level) {
        s->stopped = ST_SUPERSEDED;
        return 1;
    }
    return 0;
}

/* Claims split t of level k for this thread; 0 when another thread has it. */
static int coop_claim(Coop *co, int k, int t) {
    long long *p = co->cells + COOP_HEAD + COOP_LEVELS + (size_t)k * co->words + t / 64, bit = 1LL << (t & 63);
    for (long long cur = mb_load(p); !(cur & bit); cur = mb_load(p))
        if (mb_cas(p, cur, cur | bit)) return 1;
    return 0;
}

/* The root searched by this thread with the others (see above), from level `upper` down
 * to `lower` + 1; the classes's nc splits are its columns (split_columns keeps one per
 * split).  Sets sh->stopped on a budget, a signal or memory, ST_SUPERSEDED when done. */
static void root_search(Ctx *c, const word *full, int nd, const int *cand, int nc, int lower, int upper) {
    Shared *sh = c->sh;
    Coop *co = sh->coop;
    const int W = c->W;
    Split *splits = malloc((size_t)(nc ? nc : 1) * sizeof(Split));
    word *side = malloc(2 * (size_t)W * sizeof(word));
    if (!splits || !side) {
        free(splits); free(side);
        sh->stopped = ST_MEMORY;
        return;
    }
    word *other = side + W;
    for (int t = 0; t < nc; t++) { /* the order at_least tries them in */
        int a = popcount_range(c->cols + (size_t)t * W, 0, W);
        splits[t].col = t;
        splits[t].s = 2 * a <= nd ? a : nd - a;
        splits[t].flip = 2 * a > nd;
    }
    sort_splits(splits, nc);
    for (int k = upper; k > lower && !sh->stopped; k--) {
        if (mb_load(co->cells + COOP_LOWER) >= k) break; /* proven by another thread */
        co->level = k;
        int need = k - 1, eligible = 0;
        while (eligible < nc && floor_log2(splits[eligible].s) >= need) eligible++; /* the others: 1 + log2 s < k */
        if (eligible == 0) coop_refute(co->cells + COOP_REFUTED, k);
        /* its own share first (pass 0), then the others' splits still unclaimed (pass 1) */
        for (int pass = 0; pass < 2; pass++)
            for (int t = 0; t < eligible; t++) {
                if ((t % co->threads == co->thread) != (pass == 0) || !coop_claim(co, k, t)) continue;
                const word *col = c->cols + (size_t)splits[t].col * W;
                int s = splits[t].s, slo = W, shi = 0, olo = W, ohi = 0;
                for (int i = 0; i < W; i++) {
                    word a = splits[t].flip ? (full[i] & ~col[i]) : (full[i] & col[i]);
                    side[i] = a;
                    other[i] = full[i] ^ a;
                    if (a) { if (i < slo) slo = i; shi = i + 1; }
                    if (other[i]) { if (i < olo) olo = i; ohi = i + 1; }
                }
                int l1 = need, l2 = need;
                if (at_least(c, side, slo, shi, s, cand, nc, need, &l1) &&
                    at_least(c, other, olo, ohi, nd - s, cand, nc, need, &l2)) {
                    coop_raise(co->cells + COOP_LOWER, 1 + (l1 < l2 ? l1 : l2)); /* >= k */
                    sh->stopped = ST_SUPERSEDED; /* the levels below hold too */
                    goto done;
                }
                if (sh->stopped) goto done;
                if (coop_add(co->cells + COOP_HEAD + k, 1) == eligible) coop_refute(co->cells + COOP_REFUTED, k);
            }
    }
    sh->stopped = sh->stopped ? sh->stopped : ST_SUPERSEDED;
done:
    co->level = 0;
    if (sh->stopped == ST_INTERRUPTED) mb_cas(co->cells + COOP_STOP, 0, ST_INTERRUPTED); /* the others stop too */
    free(splits);
    free(side);
}

/* The memo the threads share, made by the first to come (0 on no memory); see coop_leave. */
static Shared *coop_join(Coop *co, size_t max_bytes) {
    mb_lock(co->cells + COOP_GATE);
    Shared *holder = (Shared *)(intptr_t)co->cells[COOP_MEMO];
    if (!holder && (holder = calloc(1, sizeof(Shared)))) {
        holder->max_bytes = max_bytes;
        co->cells[COOP_MEMO] = (long long)(intptr_t)holder;
    }
    if (holder) co->cells[COOP_USERS]++;
    mb_unlock(co->cells + COOP_GATE);
    return holder;
}

/* Leaves the shared memo (freed by the last thread); returns the most it took. */
static size_t coop_leave(Coop *co, Shared *holder) {
    mb_lock(co->cells + COOP_GATE);
    size_t peak = holder->peak_bytes;
    if (--co->cells[COOP_USERS] == 0) {
        memo_free(holder);
        free(holder);
        co->cells[COOP_MEMO] = 0;
    }
    mb_unlock(co->cells + COOP_GATE);
    return peak;
}

/* The bounds the cells prove, merged into *lower and *upper (those before any search). */
static void coop_bounds(Coop *co, int *lower, int *upper) {
    long long lo = mb_load(co->cells + COOP_LOWER), refuted = mb_load(co->cells + COOP_REFUTED);
    if (lo > *lower) *lower = (int)lo;
    if (refuted && refuted - 1 < *upper) *upper = (int)(refuted - 1);
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
    if (sh->row_origin) for (int i = 0; i < nd; i++) sh->row_origin[i] = (int)distinct[i];
    free(distinct);
    distinct = NULL;
    for (int t = 0; t < nc; t++) cand[t] = t;
    sh->nc = nc;
    sh->CB = (nc + 63) / 64;
    sh->top = &c;
    sh->class_W = c.W;
    sh->max_bytes = memo_bytes; /* the memo grows from nothing up to it */
    bounds_before_search(&c, nd, nc, lower, upper);
    if (*upper > *lower && !renumber_rows(sh, &c)) sh->stopped = ST_MEMORY; /* the bounds stand */
    if (sh->coop && *upper > *lower && !sh->stopped) {
        root_search(&c, full, nd, cand, nc, *lower, *upper);
        coop_bounds(sh->coop, lower, upper);
    }
    while (!sh->coop && *upper > *lower && !sh->stopped) {
        int lo = *upper;
        if (at_least(&c, full, 0, c.W, nd, cand, nc, *upper, &lo)) {
            *lower = *upper;
            break;
        }
        if (sh->stopped) break;
        (*upper)--;
    }
    if (sh->job && *lower == *upper && !sh->stopped) run_job(sh, &c, full, cand, nc, *lower);
    status = sh->stopped == ST_SUPERSEDED ? ST_EXACT : sh->stopped; /* a thread's part done */
finish:
    if (status == ST_MEMORY && !sh->stopped) { *lower = 1; *upper = 0; } /* could not start */
    free(distinct);
    free(cand);
    free(full);
    free(sh->rowbits);
    free(c.cols);
    return status;
}

/* A signal handler's exception (Ctrl-C), fetched to go back to the caller beside the bounds. */
static PyObject *fetch_exception(void) {
    if (!PyErr_Occurred()) Py_RETURN_NONE;
#if (defined(Py_LIMITED_API) ? Py_LIMITED_API : PY_VERSION_HEX) >= 0x030C0000 /* the limited API has it from 3.12 */
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

/* What is wrong with a matrix of n * m bytes passed as buf (NULL: nothing), for every entry. */
static const char *matrix_shape_error(const Py_buffer *buf, Py_ssize_t n, Py_ssize_t m) {
    return n < 1 || m < 0 || buf->len != n * m ? "matrix: expected n * m bytes with n >= 1" : NULL;
}

static PyObject *ldim_bounds(PyObject *self, PyObject *args) {
    Py_buffer buf;
    Py_ssize_t n, m;
    long long max_nodes;
    double time_limit;
    Py_ssize_t memo_bytes;
    int compact_ratio = MB_COMPACT_RATIO;
    Py_buffer cells = {0};
    Coop co;
    memset(&co, 0, sizeof co);
    co.threads = 1;
    if (!PyArg_ParseTuple(args, "y*nnLdn|iw*ii", &buf, &n, &m, &max_nodes, &time_limit, &memo_bytes, &compact_ratio,
                          &cells, &co.thread, &co.threads))
        return NULL;
    const char *bad = matrix_shape_error(&buf, n, m);
    if (!bad && cells.buf) {
        if (!MB_THREADS) bad = "coop: this build has no atomic operations for threads (THREADS is 0)";
        else if ((size_t)cells.len < coop_cells(m) * sizeof(long long) || ((uintptr_t)cells.buf & 7))
            bad = "coop: expected a zeroed buffer of coop_bytes(m) bytes, aligned to 8";
        else if (co.threads < 1 || co.thread < 0 || co.thread >= co.threads)
            bad = "thread, threads: expected 0 <= thread < threads";
    }
    if (bad) {
        PyBuffer_Release(&buf);
        if (cells.buf) PyBuffer_Release(&cells);
        PyErr_SetString(PyExc_ValueError, bad);
        return NULL;
    }
    Shared sh;
    memset(&sh, 0, sizeof sh);
    sh.max_nodes = max_nodes;
    if (cells.buf) { /* one of several threads: the node budget is the one they share */
        co.cells = cells.buf;
        co.words = (int)(((size_t)m + 63) / 64);
        co.max_nodes = max_nodes;
        sh.max_nodes = max_nodes >= 0 ? 0 : -1;
        sh.coop = &co;
        sh.memo_of = coop_join(&co, memo_bytes > 0 ? (size_t)memo_bytes : 0);
    }
    sh.compact_ratio = compact_ratio; /* 0: never compact; negative: whenever a node can */
    int lower, upper, nd = 0;
    /* the buffer stays exported (so alive) while the search reads it without the GIL */
    sh.ts = PyEval_SaveThread();
    double now = mb_now();
    sh.deadline = time_limit >= 0 ? now + time_limit : -1.0;
    sh.next_signals = now + MB_SIGNAL_PERIOD;
    int status = ST_MEMORY; /* and lower > upper: a thread without the shared memo could not start */
    lower = 1;
    upper = 0;
    if (!sh.coop || sh.memo_of)
        status = search(&sh, buf.buf, n, m, memo_bytes > 0 ? (size_t)memo_bytes : 0, &nd, &lower, &upper);
    memo_free(&sh);
    if (sh.memo_of) sh.peak_bytes = coop_leave(&co, sh.memo_of);
    PyEval_RestoreThread(sh.ts);
    PyBuffer_Release(&buf);
    if (cells.buf) PyBuffer_Release(&cells);
    PyObject *exc = fetch_exception();
    return Py_BuildValue("iiiLiNn", lower, upper, status, sh.nodes, nd, exc, (Py_ssize_t)sh.peak_bytes);
}

/* Python lists of ints from a C array. */
static PyObject *int_list(const int *a, size_t n) {
    PyObject *list = PyList_New((Py_ssize_t)n);
    if (!list) return NULL;
    for (size_t i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(a[i]);
        if (!v) { Py_DECREF(list); return NULL; }
        PyList_SetItem(list, (Py_ssize_t)i, v);
    }
    return list;
}

/* Whether the buffer holds n * m bytes with n >= 1; if not, it is released and ValueError set. */
static int matrix_shape_ok(Py_buffer *buf, Py_ssize_t n, Py_ssize_t m) {
    const char *bad = matrix_shape_error(buf, n, m);
    if (!bad) return 1;
    PyBuffer_Release(buf);
    PyErr_SetString(PyExc_ValueError, bad);
    return 0;
}

/* ldim_tree(matrix, n, m, max_nodes, time_limit, memo_bytes, want_tree, want_refutation[, compact_ratio])
 * -> ldim_bounds's seven values, then the tree and the refutation (each None unless asked
 * for and the search and the reading finished: status 0).  The tree: (instances, witnesses),
 * instances[h] the caller's column at node h (1 <= h < 2^d; [0] is unused), witnesses[i] the
 * caller's row at leaf 2^d + i.  The refutation: (values, starts, counts, entries), fact k
 * Ldim(V_k) <= values[k], "log2" when starts[k] < 0, else entries[starts[k] : starts[k] + 3 *
 * counts[k]] as (column, label, fact) triples, one column per class column splitting V_k (the
 * caller's first of those equal or complementary to it on every row), by caller's column; the
 * last fact is the class's, and V_k is found from it down the (column, label) parts.  A "log2"
 * fact below the root stands for every side citing it (one per value: the side is checked in
 * place, its rows counted), any other for one V_k.  A bug in the reading
 * (a proven value no split realises) raises RuntimeError. */
static PyObject *ldim_tree(PyObject *self, PyObject *args) {
    Py_buffer buf;
    Py_ssize_t n, m;
    long long max_nodes;
    double time_limit;
    Py_ssize_t memo_bytes;
    int want_tree, want_refutation, compact_ratio = MB_COMPACT_RATIO;
    if (!PyArg_ParseTuple(args, "y*nnLdnpp|i", &buf, &n, &m, &max_nodes, &time_limit, &memo_bytes, &want_tree,
                          &want_refutation, &compact_ratio))
        return NULL;
    if (!matrix_shape_ok(&buf, n, m)) return NULL;
    Shared sh;
    TreeJob job;
    memset(&sh, 0, sizeof sh);
    memset(&job, 0, sizeof job);
    sh.max_nodes = max_nodes;
    sh.compact_ratio = compact_ratio;
    job.want_tree = want_tree;
    job.want_refutation = want_refutation;
    size_t most = (size_t)(n > m ? n : m);
    sh.row_origin = malloc((size_t)n * sizeof(int));
    sh.col_origin = malloc((size_t)(m ? m : 1) * sizeof(int));
    job.scratch = malloc(most * sizeof(int));
    sh.job = &job;
    int lower = 1, upper = 0, nd = 0, status = ST_MEMORY;
    sh.ts = PyEval_SaveThread();
    if (sh.row_origin && sh.col_origin && job.scratch) {
        double now = mb_now();
        sh.deadline = time_limit >= 0 ? now + time_limit : -1.0;
        sh.next_signals = now + MB_SIGNAL_PERIOD;
        status = search(&sh, buf.buf, n, m, memo_bytes > 0 ? (size_t)memo_bytes : 0, &nd, &lower, &upper);
    }
    memo_free(&sh);
    PyEval_RestoreThread(sh.ts);
    PyBuffer_Release(&buf);
    PyObject *exc = fetch_exception(), *tree = NULL, *ref = NULL, *result = NULL;
    if (job.failed) {
        Py_DECREF(exc);
        PyErr_SetString(PyExc_RuntimeError, "ldim_tree: no split realises the proven Littlestone dimension");
        goto out;
    }
    int done = status == ST_EXACT && lower == upper;
    if (done && want_tree) {
        size_t leaves = (size_t)1 << job.depth;
        tree = Py_BuildValue("NN", int_list(job.inst, leaves), int_list(job.witness, leaves));
    } else {
        tree = Py_NewRef(Py_None);
    }
    if (done && want_refutation) {
        ref = Py_BuildValue("NNNN", int_list(job.fvalue, job.nfacts), int_list(job.fstart, job.nfacts),
                            int_list(job.fcount, job.nfacts), int_list(job.entries, job.nentries));
    } else {
        ref = Py_NewRef(Py_None);
    }
    if (!tree || !ref) {
        Py_DECREF(exc); Py_XDECREF(tree); Py_XDECREF(ref);
        goto out;
    }
    result = Py_BuildValue("iiiLiNnNN", lower, upper, status, sh.nodes, nd, exc, (Py_ssize_t)sh.peak_bytes, tree, ref);
out:
    job_free(&job);
    free(sh.row_origin);
    free(sh.col_origin);
    return result;
}

static PyObject *coop_bytes(PyObject *self, PyObject *arg) {
    Py_ssize_t m = PyLong_AsSsize_t(arg);
    if (m == -1 && PyErr_Occurred()) return NULL;
    if (m < 0) {
        PyErr_SetString(PyExc_ValueError, "m: expected m >= 0");
        return NULL;
    }
    return PyLong_FromSize_t(coop_cells(m) * sizeof(long long));
}

/* Stops every thread searching with the buffer, as interrupted, at its next check (the
 * caller's Ctrl-C while it waited for them). */
static PyObject *coop_stop_all(PyObject *self, PyObject *arg) {
    Py_buffer cells;
    if (PyObject_GetBuffer(arg, &cells, PyBUF_WRITABLE) < 0) return NULL;
    int ok = (size_t)cells.len >= COOP_HEAD * sizeof(long long) && !((uintptr_t)cells.buf & 7);
    if (ok) mb_cas((long long *)cells.buf + COOP_STOP, 0, ST_INTERRUPTED);
    PyBuffer_Release(&cells);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "coop: expected the buffer the threads share");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- the module
 * Multi-phase initialisation (PEP 489): the module has no state of its own (m_size 0, no
 * globals), so each interpreter that imports it gets a fresh module object from the same
 * definition; the exec slot adds the two facts of the build that the tests read.  Built
 * for the limited API (setup.py defines Py_LIMITED_API as 3.11), one abi3 binary serves
 * every CPython from 3.11 on. */
static PyMethodDef methods[] = {
    {"ldim_bounds", ldim_bounds, METH_VARARGS,
     "ldim_bounds(matrix, n, m, max_nodes, time_limit, memo_bytes[, compact_ratio]) -> (lower, upper, status, "
     "nodes, distinct_rows, exception, memo_peak_bytes); with coop, thread, threads after compact_ratio: one "
     "of threads searching the root together"},
    {"ldim_tree", ldim_tree, METH_VARARGS,
     "ldim_tree(matrix, n, m, max_nodes, time_limit, memo_bytes, want_tree, want_refutation[, compact_ratio]) -> "
     "ldim_bounds's values, then (instances, witnesses) and (values, starts, counts, entries), or None each"},
    {"coop_bytes", coop_bytes, METH_O, "coop_bytes(m) -> the bytes of the buffer ldim_bounds's threads share"},
    {"coop_stop", coop_stop_all, METH_O, "coop_stop(coop) -> None: every thread searching with coop stops"},
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
    /* THREADS: 1 when ldim_bounds takes a buffer shared by threads; COMPACT_RATIO: the default ratio */
    if (PyModule_AddIntConstant(mod, "THREADS", MB_THREADS) < 0) return -1;
    if (PyModule_AddIntConstant(mod, "COMPACT_RATIO", MB_COMPACT_RATIO) < 0) return -1;
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
