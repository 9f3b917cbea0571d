/* The double-dummy solver in C: the search of vira_desktop/ai/solver.py (see its docstring),
 * the same values (tests/test_solver.py compares them), many times faster.
 *
 * A position arrives with the aces already moved below the deuces where they count as
 * ones, so a card's rank is its bit order within its suit. The transposition table is
 * kept between calls and told apart by a generation number: nothing is cleared.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#ifdef __linux__
#include <stdlib.h>
#include <sys/mman.h>
#endif

#define SUIT13 0x1FFFull

typedef struct {
    uint64_t k0, k1;  /* relative-rank key: 4 suits x 39 bits, the leader and the tricks left */
    uint64_t k2;
    uint32_t gen;
    int8_t lower, upper;
    int8_t best; /* the lead that last decided the search here, tried first (-1: none) */
} Entry;

#define TABLE_BITS 20
#define TABLE_SIZE (1u << TABLE_BITS)

static Entry *table = NULL;
static uint32_t generation = 0;
static uint32_t history[3][52]; /* per seat and card: how much its cut-offs saved in this solve */
static unsigned long long searched = 0; /* the nodes searched by every solve so far */
static long last_kind = -1; /* the trump, declarer and kind of game the table's bounds are for */

typedef struct {
    uint64_t hands[3];
    int trump, declarer, low;
    int seats[3], cards[3], ntrick;
    long nodes, limit; /* limit: the nodes allowed (0: no limit) */
    int aborted;       /* the limit was hit: nothing more is searched or stored */
} Search;

static int value_of(int card, int led, int trump) {
    int suit = card / 13, rank = card % 13;
    return suit == trump ? rank + 100 : suit == led ? rank : -50;
}

static uint8_t bits13[1 << 13]; /* the number of bits of a suit's holding */

/* The number of cards of a mask of cards (52 bits), a suit at a time by table (the compilers'
 * builtin is a slow loop without a popcount instruction, which x86-64 does not promise). */
static int popcount(uint64_t m) {
    return bits13[m & SUIT13] + bits13[m >> 13 & SUIT13] + bits13[m >> 26 & SUIT13] + bits13[m >> 39 & SUIT13];
}

#if defined(__GNUC__) || defined(__clang__)
static int lowest_bit(uint64_t m) { return __builtin_ctzll(m); }
static int highest_bit(uint64_t m) { return 63 - __builtin_clzll(m); }
#define PREFETCH(p) __builtin_prefetch(p)
#else
static int lowest_bit(uint64_t m) {
    int n = 0;
    while (!(m & 1)) { m >>= 1; n++; }
    return n;
}

static int highest_bit(uint64_t m) {
    int n = 63;
    while (!(m >> n & 1)) n--;
    return n;
}

#define PREFETCH(p) ((void)(p))
#endif

/* How many cards of ``mine`` lie above every card of ``other`` (one suit, 13 bits). */
static int masters(unsigned mine, unsigned other) {
    return popcount(other ? mine >> highest_bit(other) : mine);
}

/* compress7[live][x]: the bits of x inside live (7 bits each), packed from the lowest
 * (x's cards renumbered among the live ones); compress6 the same for the upper 6 ranks. */
static uint8_t compress7[128][128], compress6[64][64];

static void init_compress(void) {
    for (unsigned m = 1; m < (1u << 13); m++) bits13[m] = (uint8_t)(bits13[m >> 1] + (m & 1));
    for (unsigned live = 0; live < 128; live++)
        for (unsigned x = 0; x < 128; x++) {
            unsigned out = 0, n = 0;
            for (unsigned r = 0; r < 7; r++) {
                if (!(live >> r & 1)) continue;
                out |= (x >> r & 1) << n;
                n++;
            }
            compress7[live][x] = (uint8_t)out;
            if (live < 64 && x < 64) compress6[live][x] = (uint8_t)out;
        }
}

/* The 13 bits of x renumbered among the live ranks (x inside live). */
static uint64_t relative(unsigned live, unsigned x) {
    unsigned lo = live & 0x7F, hi = live >> 7;
    return compress7[lo][x & 0x7F] | (uint64_t)compress6[hi][x >> 7] << popcount(lo);
}

static void make_key(const Search *s, int leader, int left, uint64_t *k0, uint64_t *k1, uint64_t *k2) {
    uint64_t suits[4];
    for (int suit = 0; suit < 4; suit++) {
        unsigned a = (unsigned)(s->hands[0] >> (13 * suit) & SUIT13);
        unsigned b = (unsigned)(s->hands[1] >> (13 * suit) & SUIT13);
        unsigned c = (unsigned)(s->hands[2] >> (13 * suit) & SUIT13);
        unsigned live = a | b | c;
        suits[suit] = relative(live, a) | relative(live, b) << 13 | relative(live, c) << 26;
    }
    *k0 = suits[0] | (suits[1] & 0x1FFFFFFull) << 39;                 /* 39 + 25 bits */
    *k1 = suits[1] >> 25 | suits[2] << 14 | (suits[3] & 0x7FFull) << 53; /* 14 + 39 + 11 */
    *k2 = suits[3] >> 11 | (uint64_t)leader << 28 | (uint64_t)left << 30;
}

/* The table is in buckets of two entries (one cache line): a position may be in either. */
static Entry *bucket(uint64_t k0, uint64_t k1, uint64_t k2) {
    uint64_t h = k0 * 0x9E3779B97F4A7C15ull ^ (k1 + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full ^ k2 * 0x165667B19E3779F9ull;
    h ^= h >> 29;
    return &table[h & (TABLE_SIZE - 2)];
}

static int holds(const Entry *e, uint64_t k0, uint64_t k1, uint64_t k2) {
    return e->gen == generation && e->k0 == k0 && e->k1 == k1 && e->k2 == k2;
}

/* The entry of a position, or NULL. */
static Entry *lookup(uint64_t k0, uint64_t k1, uint64_t k2) {
    Entry *b = bucket(k0, k1, k2);
    return holds(b, k0, k1, k2) ? b : holds(b + 1, k0, k1, k2) ? b + 1 : NULL;
}

/* The entry of a position, made where there is none: in its bucket's stale entry, else in
 * place of the one with fewer tricks to go (the cheaper to find again). */
static Entry *entry_for(uint64_t k0, uint64_t k1, uint64_t k2, int left) {
    Entry *b = bucket(k0, k1, k2), *e = lookup(k0, k1, k2);
    if (e) return e;
    if (b->gen != generation) e = b;
    else if (b[1].gen != generation) e = b + 1;
    else e = (b->k2 >> 30 & 15) <= (b[1].k2 >> 30 & 15) ? b : b + 1;
    e->gen = generation;
    e->k0 = k0;
    e->k1 = k1;
    e->k2 = k2;
    e->lower = 0;
    e->upper = (int8_t)left;
    e->best = -1;
    return e;
}

static int reach(Search *s, int target, int to_act, int left, int won);

/* One card of each run of equivalent cards of ``legal``, the likeliest to decide first:
 * ``first`` (the lead that decided this position before), then in a high game for a lead
 * the highest cards, for a follow the cheapest card that takes the trick from the other
 * side, else the lowest cards (a misère's order is below). */
static int ordered(const Search *s, uint64_t legal, int seat, int first, int *out) {
    uint64_t others = 0;
    for (int i = 0; i < 3; i++) if (i != seat) others |= s->hands[i];
    for (int i = 0; i < s->ntrick; i++) others |= 1ull << s->cards[i];
    int n = 0, keys[13];
    int led = s->ntrick ? s->cards[0] / 13 : -1, best = -1000, winner = -1;
    for (int i = 0; i < s->ntrick; i++) {
        int v = value_of(s->cards[i], led, s->trump);
        if (v > best) { best = v; winner = s->seats[i]; }
    }
    int mine = winner >= 0 && (winner == s->declarer) == (seat == s->declarer); /* my side wins it now */
    uint64_t rest = legal;
    while (rest) {
        int card = lowest_bit(rest);
        rest &= rest - 1;
        uint64_t above = (SUIT13 << (13 * (card / 13))) & ~((2ull << card) - 1);
        uint64_t next = (legal | others) & above;
        if (next && ((next & (~next + 1)) & legal)) continue; /* the card above is mine too */
        int key;
        if (s->low) {
            /* a misère: the declarer ducks with his highest card that loses, else plays his
             * lowest; he and the defenders lead low, and the defenders follow low */
            int v = s->ntrick ? value_of(card, led, s->trump) : card % 13;
            key = seat == s->declarer && s->ntrick && v < best ? -v - 1000 : v;
        } else if (!s->ntrick) key = -(card % 13) * 100000 - (int)(history[seat][card] < 99999 ? history[seat][card] : 99999);
        else {
            int v = value_of(card, led, s->trump);
            key = v > best && !mine ? v - 1000 : v;
        }
        if (card == first) key = -2000000000;
        int j = n++;
        while (j > 0 && keys[j - 1] > key) { keys[j] = keys[j - 1]; out[j] = out[j - 1]; j--; }
        keys[j] = key;
        out[j] = card;
    }
    return n;
}

static int children(Search *s, int target, int seat, int left, int won, int first, int *decided) {
    uint64_t hand = s->hands[seat], legal = hand;
    if (s->ntrick) {
        uint64_t follow = hand & (SUIT13 << (13 * (s->cards[0] / 13)));
        if (follow) legal = follow;
    }
    int maxer = (seat == s->declarer) != s->low;
    int cards[13];
    int n = ordered(s, legal, seat, first, cards);
    for (int i = 0; i < n; i++) {
        int card = cards[i], ok;
        s->hands[seat] = hand & ~(1ull << card);
        s->seats[s->ntrick] = seat;
        s->cards[s->ntrick] = card;
        s->ntrick++;
        if (s->ntrick < 3) {
            ok = reach(s, target, (seat + 1) % 3, left, won);
            s->ntrick--;
        } else {
            int led = s->cards[0] / 13, winner = s->seats[0], best = -1000;
            for (int j = 0; j < 3; j++) {
                int v = value_of(s->cards[j], led, s->trump);
                if (v > best) { best = v; winner = s->seats[j]; }
            }
            int saved_seats[3], saved_cards[3];
            memcpy(saved_seats, s->seats, sizeof saved_seats);
            memcpy(saved_cards, s->cards, sizeof saved_cards);
            s->ntrick = 0;
            ok = reach(s, target, winner, left - 1, won + (winner == s->declarer));
            memcpy(s->seats, saved_seats, sizeof saved_seats);
            memcpy(s->cards, saved_cards, sizeof saved_cards);
            s->ntrick = 2;
        }
        s->hands[seat] = hand;
        if (s->aborted) return 0;
        if (ok == maxer) {
            *decided = card;
            history[seat][card] += (uint32_t)(left * left);
            return ok;
        }
    }
    *decided = -1;
    return !maxer;
}

/* The tricks the hand on lead in a high game can cash at once (its quick tricks): in each
 * suit its cards above every other live card (a defender's partner's too, so he keeps the
 * lead), in a side suit only as many as each other hand holding a trump must follow to (an
 * opponent could ruff; a partner may discard instead, but one holding nothing but trumps
 * must ruff and take the lead). */
static int quick_tricks(const Search *s, int leader, int left) {
    uint64_t others = 0;
    for (int i = 0; i < 3; i++) if (i != leader) others |= s->hands[i];
    int total = 0;
    for (int suit = 0; suit < 4; suit++) {
        unsigned mine = (unsigned)(s->hands[leader] >> (13 * suit) & SUIT13);
        unsigned other = (unsigned)(others >> (13 * suit) & SUIT13);
        int top = masters(mine, other);
        if (top && s->trump >= 0 && suit != s->trump) {
            for (int i = 0; i < 3; i++) {
                if (i == leader || !(s->hands[i] >> (13 * s->trump) & SUIT13)) continue;
                int len = popcount(s->hands[i] >> (13 * suit) & SUIT13);
                if (top > len) top = len; /* the shortest ruffer */
            }
        }
        total += top;
    }
    return total < left ? total : left;
}

/* The tricks each side takes whatever is played, in a high game with trumps where every
 * hand still plays each of its cards (``left`` cards each): a trump above all of the other
 * side's trumps wins the trick it is played to, and a hand plays one card a trick. So the
 * declarer takes at least his trumps above the defenders' (``*declarer_sure``), and the
 * defenders at least the more of either's trumps above the declarer's (``*defenders_sure``). */
static void sure_trump_tricks(const Search *s, int left, int *declarer_sure, int *defenders_sure) {
    *declarer_sure = *defenders_sure = 0;
    for (int i = 0; i < 3; i++) if (popcount(s->hands[i]) != left) return;
    unsigned t[3], defenders = 0;
    for (int i = 0; i < 3; i++) {
        t[i] = (unsigned)(s->hands[i] >> (13 * s->trump) & SUIT13);
        if (i != s->declarer) defenders |= t[i];
    }
    unsigned mine = t[s->declarer];
    *declarer_sure = masters(mine, defenders);
    for (int i = 0; i < 3; i++) {
        if (i == s->declarer) continue;
        int n = masters(t[i], mine);
        if (n > *defenders_sure) *defenders_sure = n;
    }
}

/* A misère without trumps, a defender on lead at a trick boundary: whether the declarer
 * can take no more tricks whatever the defenders do. So when in every suit his i-th lowest
 * card lies below their i-th lowest (of both hands together), for every i up to the shorter
 * holding: the card led is at least their lowest, so he has a card below the trick's best;
 * he plays the highest such card (discards his highest card of any suit when void), and
 * the defenders' cards gone (one or two, each below the trick's best) leave it so. */
static int misere_safe(const Search *s, int leader) {
    if (leader == s->declarer) return 0;
    uint64_t theirs = 0;
    for (int i = 0; i < 3; i++) if (i != s->declarer) theirs |= s->hands[i];
    for (int suit = 0; suit < 4; suit++) {
        unsigned mine = (unsigned)(s->hands[s->declarer] >> (13 * suit) & SUIT13);
        unsigned other = (unsigned)(theirs >> (13 * suit) & SUIT13);
        while (mine && other) {
            unsigned d = mine & (~mine + 1), e = other & (~other + 1); /* the lowest of each */
            if (d > e) return 0;
            mine ^= d;
            other ^= e;
        }
    }
    return 1;
}

static int reach(Search *s, int target, int to_act, int left, int won) {
    if (won >= target) return 1;
    if (won + left < target) return 0;
    if (++s->nodes > s->limit && s->limit) s->aborted = 1;
    if (s->aborted) return 0;
    int need = target - won;
    int decided;
    if (s->ntrick) return children(s, target, to_act, left, won, -1, &decided);
    uint64_t k0, k1, k2;
    make_key(s, to_act, left, &k0, &k1, &k2);
    PREFETCH(bucket(k0, k1, k2));
    if (!s->low) {
        if (to_act == s->declarer) {
            if (won + quick_tricks(s, to_act, left) >= target) return 1;
        } else if (won + left - quick_tricks(s, to_act, left) < target) return 0;
        if (s->trump >= 0) {
            int mine, theirs;
            sure_trump_tricks(s, left, &mine, &theirs);
            if (won + mine >= target) return 1;
            if (won + left - theirs < target) return 0;
        }
    }
    if (s->low && s->trump < 0 && misere_safe(s, to_act)) return 0; /* won < target: no more come */
    Entry *e = lookup(k0, k1, k2);
    if (e) {
        if (e->lower >= need) return 1;
        if (e->upper < need) return 0;
    }
    int result = children(s, target, to_act, left, won, e ? e->best : -1, &decided);
    if (s->aborted) return 0; /* an unfinished search proves nothing */
    e = entry_for(k0, k1, k2, left); /* the search below may have filled or moved it */
    if (decided >= 0) e->best = (int8_t)decided;
    if (result) { if (e->lower < need) e->lower = (int8_t)need; }
    else if (e->upper > need - 1) e->upper = (int8_t)(need - 1);
    return result;
}

/* The table, zeroed; on Linux in huge pages where the system gives them (its 32 MB are
 * read at random: with small pages nearly every look-up missed the TLB too). Never freed. */
static Entry *new_table(void) {
#ifdef __linux__
    void *p = NULL;
    if (posix_memalign(&p, 1u << 21, TABLE_SIZE * sizeof(Entry)) == 0) {
        madvise(p, TABLE_SIZE * sizeof(Entry), MADV_HUGEPAGE);
        memset(p, 0, TABLE_SIZE * sizeof(Entry));
        return p;
    }
#endif
    return PyMem_Calloc(TABLE_SIZE, sizeof(Entry));
}

/* solve(hands, trump, to_act, declarer, low, trick, left, keep=False, guess=-1, floor=0,
 * ceiling=13, nodes=0) -> the declarer's tricks, clamped to [floor, ceiling], or -1 when
 * the search needed more than ``nodes`` nodes (0: no limit; what the table learned before
 * stays true, as an unfinished search stores nothing). A narrow band is
 * cheaper: "home, bet or kodilj?" needs two zero-window searches at most). ``keep``: the
 * table's bounds still hold (the same trump, declarer and kind of game as the solve before,
 * e.g. the positions after each card of one position, or other deals of one game: taken
 * as False where they differ); ``guess``: a value likely near the
 * answer (-1: none), searched from step by step. */
PyObject *vira_solve(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 7 || nargs > 12) {
        PyErr_SetString(PyExc_TypeError, "solve(hands, trump, to_act, declarer, low, trick, left, keep=False, "
                                         "guess=-1, floor=0, ceiling=13, nodes=0)");
        return NULL;
    }
    int keep = nargs >= 8 ? PyObject_IsTrue(args[7]) : 0;
    if (keep < 0) return NULL;
    long guess = nargs >= 9 ? PyLong_AsLong(args[8]) : -1;
    if (guess == -1 && PyErr_Occurred()) return NULL;
    long floor_ = nargs >= 10 ? PyLong_AsLong(args[9]) : 0;
    long ceiling = nargs >= 11 ? PyLong_AsLong(args[10]) : 13;
    long limit = nargs >= 12 ? PyLong_AsLong(args[11]) : 0;
    if (PyErr_Occurred()) return NULL;
    Search s;
    memset(&s, 0, sizeof s);
    PyObject *hands = PySequence_Fast(args[0], "hands must be a sequence");
    if (!hands) return NULL;
    if (PySequence_Fast_GET_SIZE(hands) != 3) {
        Py_DECREF(hands);
        PyErr_SetString(PyExc_ValueError, "three hands");
        return NULL;
    }
    for (int i = 0; i < 3; i++) {
        s.hands[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(hands, i));
        if (PyErr_Occurred()) { Py_DECREF(hands); return NULL; }
    }
    Py_DECREF(hands);
    long trump = PyLong_AsLong(args[1]), to_act = PyLong_AsLong(args[2]), declarer = PyLong_AsLong(args[3]);
    int low = PyObject_IsTrue(args[4]);
    long left = PyLong_AsLong(args[6]);
    if (PyErr_Occurred() || low < 0) return NULL;
    if (to_act < 0 || to_act > 2 || declarer < 0 || declarer > 2 || trump < -1 || trump > 3 || left < 0 || left > 13) {
        PyErr_SetString(PyExc_ValueError, "position out of range");
        return NULL;
    }
    PyObject *trick = PySequence_Fast(args[5], "trick must be a sequence");
    if (!trick) return NULL;
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(trick);
    if (nt > 2) { Py_DECREF(trick); PyErr_SetString(PyExc_ValueError, "at most two cards in the trick"); return NULL; }
    for (Py_ssize_t i = 0; i < nt; i++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(trick, i);
        long seat, card;
        if (!PyArg_ParseTuple(pair, "ll", &seat, &card)) { Py_DECREF(trick); return NULL; }
        s.seats[i] = (int)seat;
        s.cards[i] = (int)card;
    }
    Py_DECREF(trick);
    s.ntrick = (int)nt;
    s.limit = limit > 0 ? limit : 0;
    s.trump = (int)trump;
    s.declarer = (int)declarer;
    s.low = low;
    if (!table) {
        table = new_table();
        if (!table) return PyErr_NoMemory();
        init_compress();
    }
    /* The table's bounds hold for any position of the same trump, declarer and kind of game
     * (its keys are the hands by relative rank): "keep" is refused for any other. */
    long kind = (trump + 1) * 6 + declarer * 2 + low;
    if (!keep || !generation || kind != last_kind) {
        last_kind = kind;
        if (++generation == 0) {
            memset(table, 0, TABLE_SIZE * sizeof(Entry));
            generation = 1;
        }
    }
    memset(history, 0, sizeof history);
    /* From a guess, one zero-window search a step (the value is seldom far from it); else halving. */
    int lo = floor_ > 0 ? (int)floor_ : 0, hi = ceiling < left ? (int)ceiling : (int)left;
    if (lo >= hi) return PyLong_FromLong(lo);
    int t0 = (int)to_act, l0 = (int)left, value;
    if (guess >= 0) {
        int t = guess < hi ? guess : hi;
        if (t <= lo) t = lo + 1;
        if (reach(&s, t, t0, l0, 0)) {
            lo = t;
            while (lo < hi && reach(&s, lo + 1, t0, l0, 0)) lo++;
            value = lo;
        } else {
            hi = t - 1;
            while (hi > lo && !reach(&s, hi, t0, l0, 0) && !s.aborted) hi--;
            value = hi;
        }
    } else {
        while (lo < hi && !s.aborted) {
            int mid = (lo + hi + 1) / 2;
            if (reach(&s, mid, t0, l0, 0)) lo = mid;
            else hi = mid - 1;
        }
        value = lo;
    }
    searched += (unsigned long long)s.nodes;
    return PyLong_FromLong(s.aborted ? -1 : value);
}

/* searched() -> the nodes searched by every solve so far (a figure for benchmarks/solver.py
 * that a busy machine does not change). */
PyObject *vira_searched(PyObject *self, PyObject *unused) {
    return PyLong_FromUnsignedLongLong(searched);
}
