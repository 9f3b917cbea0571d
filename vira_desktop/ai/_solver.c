/* The double-dummy solver in C: the search of vira_desktop/ai/solver.py (see its docstring),
 * the same values (tests/test_solver.py compares them), many times faster.
 *
 * A position arrives with the aces already moved below the deuces where they count as
 * ones, so a card's rank is its bit order within its suit. The transposition table is
 * kept between calls and told apart by a generation number: nothing is cleared.
 *
 * Partition search: every search answers too with the cards whose ranks its answer depended
 * on (``rel``). A bound is kept for the position itself (``Entry``, found by its key) and as a
 * ``Pattern`` that holds for any position of the same shape whose cards agree with it from
 * each suit's lowest such card up: a pattern found tells a position nobody searched.
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
    uint64_t k0, k1; /* the key: each suit's live cards by owner (2 bits each), the leader, the tricks left */
    uint32_t gen;
    uint16_t ks; /* 4 bits a suit: how many of its highest live cards the bounds depend on */
    int8_t lower, upper;
    int8_t best; /* the lead that last decided the search here, tried first (-1: none) */
} Entry;

typedef char entry_is_32_bytes[sizeof(Entry) == 32 ? 1 : -1]; /* two to a cache line */

/* A bound on the declarer's tricks to come, for every position of one shape (the suit
 * lengths of each hand, the leader, the tricks left) whose cards agree with it where the
 * search's result depended on their ranks (partition search, as DDS's winning ranks): in
 * each suit the ``ks`` highest live cards (by relative rank), held as in ``suits``; the
 * suit's lower cards may lie anyhow among the hands, their counts being the shape's. */
typedef struct {
    uint64_t shape;    /* 4 bits a hand and suit (12 lengths), the leader, the tricks left */
    uint64_t suits[4]; /* each suit's relative-rank holding (3 x 13 bits), its lower cards masked out */
    uint32_t gen;
    uint16_t ks;
    int8_t lower, upper;
} Pattern;

#define TABLE_BITS 20
#define TABLE_SIZE (1u << TABLE_BITS)
#define PATTERN_BITS 18
#define PATTERN_SIZE (1u << PATTERN_BITS)
#define BUCKET 8 /* the patterns of one shape's bucket (a position may match any of them) */

static Pattern *patterns = NULL;

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
    return bits13[other ? mine >> highest_bit(other) : mine];
}

/* compress7[live][x]: the bits of x inside live (7 bits each), packed from the lowest
 * (x's cards renumbered among the live ones); compress6 the same for the upper 6 ranks. */
static uint8_t compress7[128][128], compress6[64][64];
static uint16_t spread7[128]; /* x's 7 bits at the even bits of 14 */

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
            if (live == 0) {
                unsigned sp = 0;
                for (unsigned r = 0; r < 7; r++) sp |= (x >> r & 1) << (2 * r);
                spread7[x] = (uint16_t)sp;
            }
            if (live < 64 && x < 64) compress6[live][x] = (uint8_t)out;
        }
}

/* The 13 bits of x renumbered among the live ranks (x inside live). */
static uint64_t relative(unsigned live, unsigned x) {
    unsigned lo = live & 0x7F, hi = live >> 7;
    return compress7[lo][x & 0x7F] | (uint64_t)compress6[hi][x >> 7] << bits13[lo];
}

/* The position's relative-rank holdings, a suit at a time (3 x 13 bits: each hand's cards
 * renumbered among the suit's live cards), packed as the table's key (with the leader and
 * the tricks left), and its shape (see Pattern). */
static uint64_t spread13(uint64_t x) { return spread7[x & 0x7F] | (uint64_t)spread7[x >> 7 & 0x3F] << 14; }

static uint64_t make_key(const Search *s, int leader, int left, uint64_t suits[4], unsigned live[4], uint64_t key[2]) {
    uint64_t shape = 0, owners[4];
    for (int suit = 0; suit < 4; suit++) {
        unsigned a = (unsigned)(s->hands[0] >> (13 * suit) & SUIT13);
        unsigned b = (unsigned)(s->hands[1] >> (13 * suit) & SUIT13);
        unsigned c = (unsigned)(s->hands[2] >> (13 * suit) & SUIT13);
        live[suit] = a | b | c;
        uint64_t ra = relative(live[suit], a), rb = relative(live[suit], b), rc = relative(live[suit], c);
        suits[suit] = ra | rb << 13 | rc << 26;
        owners[suit] = spread13(ra | rc) | spread13(rb | rc) << 1; /* a card's owner 1, 2 or 3 (0: no card) */
        shape |= (uint64_t)(bits13[a] | bits13[b] << 4 | bits13[c] << 8) << (12 * suit);
    }
    key[0] = owners[0] | owners[1] << 26 | owners[2] << 52;                          /* 26 + 26 + 12 */
    key[1] = owners[2] >> 12 | owners[3] << 14 | (uint64_t)leader << 40 | (uint64_t)left << 42; /* 14 + 26 + 6 */
    return shape | (uint64_t)leader << 48 | (uint64_t)left << 50;
}

/* The mask of a suit's ``k`` highest live cards in a relative-rank holding (``n`` live). */
static uint64_t top_mask(int n, int k) {
    uint64_t m = k ? ((1ull << k) - 1) << (n - k) : 0;
    return m | m << 13 | m << 26;
}

/* The absolute cards of each suit's ``ks`` highest live cards: what a bound found in the
 * table depended on. */
static uint64_t top_cards(const unsigned live[4], unsigned ks) {
    uint64_t out = 0;
    for (int suit = 0; suit < 4; suit++) {
        unsigned l = live[suit];
        for (int k = (int)(ks >> (4 * suit) & 15); k > 0; k--) {
            int top = highest_bit(l);
            out |= 1ull << (13 * suit + top);
            l &= ~(1u << top);
        }
    }
    return out;
}

/* The table is in buckets of two entries (32 bytes each: one cache line): a position may be in
 * either. */
static Entry *bucket(const uint64_t key[2]) {
    uint64_t h = (key[0] ^ (key[1] << 23 | key[1] >> 41)) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 32;
    h *= 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    return &table[h & (TABLE_SIZE - 2)];
}

static int holds(const Entry *e, const uint64_t key[2]) {
    return e->gen == generation && e->k0 == key[0] && e->k1 == key[1];
}

/* The entry of a position, or NULL. */
static Entry *exact(const uint64_t key[2]) {
    Entry *b = bucket(key);
    return holds(b, key) ? b : holds(b + 1, key) ? b + 1 : NULL;
}

/* The patterns' bucket of a shape. */
static Pattern *shape_bucket(uint64_t shape) {
    uint64_t h = shape * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    h *= 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 32;
    return &patterns[h & (PATTERN_SIZE - BUCKET)];
}

/* Whether pattern ``e`` holds for the position (its shape ``shape``, holdings ``suits``). */
static int matches(const Pattern *e, uint64_t shape, const uint64_t suits[4]) {
    if (e->gen != generation || e->shape != shape) return 0;
    for (int suit = 0; suit < 4; suit++) {
        int n = (int)(shape >> (12 * suit) & 15) + (int)(shape >> (12 * suit + 4) & 15) + (int)(shape >> (12 * suit + 8) & 15);
        if ((suits[suit] & top_mask(n, (int)(e->ks >> (4 * suit) & 15))) != e->suits[suit]) return 0;
    }
    return 1;
}

/* A bound kept deciding "``need`` more tricks?" here: 1 or 0, ``*rel`` the cards it depended
 * on; -1 when none does (``*best``: the lead that decided this position before, or -1). The
 * position's own entry first, then the patterns it matches. */
static int lookup(const uint64_t key[2], uint64_t shape, const uint64_t suits[4], const unsigned live[4], int need,
                  int *best, uint64_t *rel) {
    Entry *e = exact(key);
    *best = -1;
    if (e) {
        if (e->lower >= need || e->upper < need) {
            *rel = top_cards(live, e->ks);
            return e->lower >= need;
        }
        *best = e->best;
    }
    Pattern *b = shape_bucket(shape);
    for (int i = 0; i < BUCKET; i++) {
        Pattern *x = b + i;
        if ((x->lower >= need || x->upper < need) && matches(x, shape, suits)) {
            *rel = top_cards(live, x->ks);
            return x->lower >= need;
        }
    }
    return -1;
}

static void bound(int8_t *lower, int8_t *upper, int need, int result) {
    if (result) { if (*lower < need) *lower = (int8_t)need; }
    else if (*upper > need - 1) *upper = (int8_t)(need - 1);
}

/* Keeps what a search found: ``need`` more tricks reached (``result``) or not, depending on
 * the ranks of the cards ``rel`` (each suit's live cards from the lowest of them up): in the
 * position's own entry and as a pattern for the like positions. */
static void store(const uint64_t key[2], uint64_t shape, const uint64_t suits[4], const unsigned live[4], uint64_t rel,
                  int need, int result, int best, int left) {
    unsigned ks = 0;
    uint64_t masked[4];
    for (int suit = 0; suit < 4; suit++) {
        unsigned r = (unsigned)(rel >> (13 * suit) & SUIT13);
        int n = bits13[live[suit]], k = r ? bits13[live[suit] & ~((1u << lowest_bit(r)) - 1)] : 0;
        ks |= (unsigned)k << (4 * suit);
        masked[suit] = suits[suit] & top_mask(n, k);
    }
    /* the position's own entry: in its bucket's stale entry, else in place of the one with
     * fewer tricks to go (the cheaper to find again); its ranks counted the more of old and new */
    Entry *b = bucket(key), *e = exact(key);
    if (!e) {
        if (b->gen != generation) e = b;
        else if (b[1].gen != generation) e = b + 1;
        else e = (b->k1 >> 42 & 15) <= (b[1].k1 >> 42 & 15) ? b : b + 1;
        e->gen = generation;
        e->k0 = key[0];
        e->k1 = key[1];
        e->lower = 0;
        e->upper = (int8_t)left;
        e->best = -1;
        e->ks = 0;
    }
    unsigned merged = 0;
    for (int suit = 0; suit < 4; suit++) {
        unsigned a = e->ks >> (4 * suit) & 15, c = ks >> (4 * suit) & 15;
        merged |= (a > c ? a : c) << (4 * suit);
    }
    e->ks = (uint16_t)merged;
    if (best >= 0) e->best = (int8_t)best;
    bound(&e->lower, &e->upper, need, result);
    int general = 0; /* whether the pattern stands for other positions too (some ranks did not count) */
    for (int suit = 0; suit < 4; suit++) general |= (int)(ks >> (4 * suit) & 15) < bits13[live[suit]] - 1;
    if (!general) return;
    /* the pattern: the same one again, else a stale slot, else the one with fewer tricks to go */
    Pattern *pb = shape_bucket(shape), *p = NULL, *victim = NULL;
    for (int i = 0; i < BUCKET && !p; i++) {
        Pattern *x = pb + i;
        if (x->gen == generation && x->shape == shape && x->ks == ks && !memcmp(x->suits, masked, sizeof masked)) p = x;
        else if (x->gen != generation) { if (!victim || victim->gen == generation) victim = x; }
        else if (!victim || (victim->gen == generation && (x->shape >> 50) < (victim->shape >> 50))) victim = x;
    }
    if (!p) {
        p = victim;
        p->gen = generation;
        p->shape = shape;
        memcpy(p->suits, masked, sizeof masked);
        p->ks = (uint16_t)ks;
        p->lower = 0;
        p->upper = (int8_t)left;
    }
    bound(&p->lower, &p->upper, need, result);
}

static int reach(Search *s, int target, int to_act, int left, int won, uint64_t *rel);

/* The cards still in play that ``seat`` does not hold: the other hands' and the trick's
 * (between two of its cards, one of these keeps them from playing alike). */
static uint64_t in_play_elsewhere(const Search *s, int seat) {
    uint64_t others = 0;
    for (int i = 0; i < 3; i++) if (i != seat) others |= s->hands[i];
    for (int i = 0; i < s->ntrick; i++) others |= 1ull << s->cards[i];
    return others;
}

/* One card of each run of equivalent cards of ``legal``, the likeliest to decide first:
 * ``first`` (the lead that decided this position before), then in a high game for a lead
 * the declarer's trumps and masters and a defender's side suits (those the declarer holds
 * first), the highest cards first;
 * for a follow the cheapest card that takes the trick from the other side, else the lowest
 * cards (a misère's order is below). */
static int ordered(const Search *s, uint64_t legal, int seat, int first, int *out) {
    uint64_t others = in_play_elsewhere(s, seat);
    int n = 0, keys[13];
    int led = s->ntrick ? s->cards[0] / 13 : -1, best = -1000, winner = -1;
    for (int i = 0; i < s->ntrick; i++) {
        int v = value_of(s->cards[i], led, s->trump);
        if (v > best) { best = v; winner = s->seats[i]; }
    }
    int mine = winner >= 0 && (winner == s->declarer) == (seat == s->declarer); /* my side wins it now */
    if (s->ntrick == 1 && seat != s->declarer) {
        /* a defender second: whether the hand last to play can beat the card led; if it is
         * the partner (the declarer led), second hand low first, as if his side won it; if
         * the declarer (the partner led), the cheapest card above it first */
        int last = winner == s->declarer ? 3 - seat - s->declarer : s->declarer;
        unsigned follows = (unsigned)(s->hands[last] >> (13 * led) & SUIT13);
        int ruffs = s->trump >= 0 && led != s->trump && (s->hands[last] >> (13 * s->trump) & SUIT13);
        int beats = follows ? highest_bit(follows) > s->cards[0] % 13 : ruffs;
        mine = winner == s->declarer ? beats : !beats;
    }
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
        } else if (!s->ntrick) {
            /* a lead: the declarer's trumps and masters first; a defender's side suits, the
             * declarer's own first (he must follow, not ruff); each preference as good as
             * four ranks (an order measured on the solver's benchmark: a third fewer nodes);
             * then the highest; then the history */
            int suit = card / 13, side = suit != s->trump, pref;
            if (seat == s->declarer) {
                uint64_t rest = others & (SUIT13 << (13 * suit));
                pref = !side || !rest || card > highest_bit(rest);
            } else pref = side + (side && (s->hands[s->declarer] >> (13 * suit) & SUIT13) != 0);
            key = -pref * 400000 - (card % 13) * 100000 - (int)(history[seat][card] < 99999 ? history[seat][card] : 99999);
        }
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

/* Every card was tried and failed, the cards of a run (no card of another hand between them)
 * standing for the run's highest: the cards of ``legal`` whose ranks must count with ``rel``
 * besides, so that no run reaches from a suit's lower cards (whose ranks did not count) into
 * its higher (whose did): there a lower card would not stand for the higher elsewhere. */
static uint64_t run_cards(const Search *s, uint64_t legal, int seat, uint64_t rel) {
    uint64_t others = in_play_elsewhere(s, seat), out = 0;
    for (int suit = 0; suit < 4; suit++) {
        unsigned r = (unsigned)(rel >> (13 * suit) & SUIT13);
        if (!r) continue;
        unsigned mine = (unsigned)(legal >> (13 * suit) & SUIT13), live = mine | (unsigned)(others >> (13 * suit) & SUIT13);
        int bottom = lowest_bit(r); /* the ranks from here up counted */
        for (int c = bottom - 1; c >= 0; c--) {
            if (!(mine >> c & 1)) continue;
            unsigned above = live & ~((2u << c) - 1);
            if (!above) break;
            int next = lowest_bit(above);
            if (next >= bottom && (mine >> next & 1)) { /* a run into the counted ranks */
                out |= 1ull << (13 * suit + c);
                bottom = c;
            }
        }
    }
    return out;
}

/* Whether the side of ``seat`` gets its way over the cards it may play (``*decided``: the
 * card that did, or -1); ``*rel``: the cards whose ranks the answer depended on (the deciding
 * card's subtree where one decided, else every card's). */
static int children(Search *s, int target, int seat, int left, int won, int first, int *decided, uint64_t *rel) {
    uint64_t hand = s->hands[seat], legal = hand;
    if (s->ntrick) {
        uint64_t follow = hand & (SUIT13 << (13 * (s->cards[0] / 13)));
        if (follow) legal = follow;
    }
    int maxer = (seat == s->declarer) != s->low;
    int cards[13];
    int n = ordered(s, legal, seat, first, cards);
    uint64_t all = 0, same = 0; /* same: cards that fail as a card tried failed */
    for (int i = 0; i < n; i++) {
        int card = cards[i], ok;
        uint64_t below = 0;
        if (same >> card & 1) continue;
        s->hands[seat] = hand & ~(1ull << card);
        s->seats[s->ntrick] = seat;
        s->cards[s->ntrick] = card;
        s->ntrick++;
        if (s->ntrick < 3) {
            ok = reach(s, target, (seat + 1) % 3, left, won, &below);
            s->ntrick--;
        } else {
            int led = s->cards[0] / 13, winner = s->seats[0], best = -1000, top = s->cards[0];
            for (int j = 0; j < 3; j++) {
                int v = value_of(s->cards[j], led, s->trump);
                if (v > best) { best = v; winner = s->seats[j]; top = s->cards[j]; }
            }
            for (int j = 0; j < 3; j++) /* the trick's winner beat a card of its suit: its rank counted */
                if (s->cards[j] != top && s->cards[j] / 13 == top / 13) below |= 1ull << top;
            int saved_seats[3], saved_cards[3];
            memcpy(saved_seats, s->seats, sizeof saved_seats);
            memcpy(saved_cards, s->cards, sizeof saved_cards);
            s->ntrick = 0;
            uint64_t later = 0;
            ok = reach(s, target, winner, left - 1, won + (winner == s->declarer), &later);
            below |= later;
            memcpy(s->seats, saved_seats, sizeof saved_seats);
            memcpy(s->cards, saved_cards, sizeof saved_cards);
            s->ntrick = 2;
        }
        s->hands[seat] = hand;
        if (s->aborted) return 0;
        if (ok == maxer) {
            *decided = card;
            *rel = below;
            history[seat][card] += (uint32_t)(left * left);
            return ok;
        }
        all |= below;
        /* it failed, and its answer did not depend on the rank of any card of its suit below the
         * lowest it counted: so every card of ours of that suit down there fails too (the
         * position after each matches this one's pattern), and none of them is tried */
        int suit = card / 13;
        unsigned r = (unsigned)(below >> (13 * suit) & SUIT13);
        int bottom = r ? lowest_bit(r) : 13;
        if (card % 13 < bottom) same |= legal & (SUIT13 << (13 * suit)) & ((1ull << (13 * suit + bottom)) - 1);
    }
    *decided = -1;
    *rel = all | run_cards(s, legal, seat, all);
    return !maxer;
}

/* The tricks the hand on lead in a high game can cash at once (its quick tricks): in each
 * suit its cards above every other live card (a defender's partner's too, so he keeps the
 * lead), in a side suit only as many as each other hand holding a trump must follow to (an
 * opponent could ruff; a partner may discard instead, but one holding nothing but trumps
 * must ruff and take the lead). ``*rel``: the cards whose ranks the count depends on (a
 * count of masters holds where the highest other card is as high; none counted holds anyhow). */
static int quick_tricks(const Search *s, int leader, int left, uint64_t *rel) {
    uint64_t others = 0;
    for (int i = 0; i < 3; i++) if (i != leader) others |= s->hands[i];
    int total = 0;
    *rel = 0;
    for (int suit = 0; suit < 4; suit++) {
        unsigned mine = (unsigned)(s->hands[leader] >> (13 * suit) & SUIT13);
        unsigned other = (unsigned)(others >> (13 * suit) & SUIT13);
        int top = masters(mine, other);
        if (top && other) *rel |= 1ull << (13 * suit + highest_bit(other)); /* the masters are above it */
        if (top && s->trump >= 0 && suit != s->trump) {
            for (int i = 0; i < 3; i++) {
                if (i == leader || !(s->hands[i] >> (13 * s->trump) & SUIT13)) continue;
                int len = bits13[s->hands[i] >> (13 * suit) & SUIT13];
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
 * defenders at least the more of either's trumps above the declarer's (``*defenders_sure``);
 * each count's cards whose ranks it depends on in ``*mine_rel`` and ``*theirs_rel``. */
static void sure_trump_tricks(const Search *s, int left, int *declarer_sure, int *defenders_sure, uint64_t *mine_rel,
                              uint64_t *theirs_rel) {
    *declarer_sure = *defenders_sure = 0;
    *mine_rel = *theirs_rel = 0;
    for (int i = 0; i < 3; i++) if (popcount(s->hands[i]) != left) return;
    unsigned t[3], defenders = 0;
    for (int i = 0; i < 3; i++) {
        t[i] = (unsigned)(s->hands[i] >> (13 * s->trump) & SUIT13);
        if (i != s->declarer) defenders |= t[i];
    }
    unsigned mine = t[s->declarer];
    *declarer_sure = masters(mine, defenders);
    if (*declarer_sure && defenders) *mine_rel = 1ull << (13 * s->trump + highest_bit(defenders));
    for (int i = 0; i < 3; i++) {
        if (i == s->declarer) continue;
        int n = masters(t[i], mine);
        if (n > *defenders_sure) *defenders_sure = n;
    }
    if (*defenders_sure && mine) *theirs_rel = 1ull << (13 * s->trump + highest_bit(mine));
}

/* A misère without trumps, a defender on lead at a trick boundary: whether the declarer
 * can take no more tricks whatever the defenders do. So when in every suit his i-th lowest
 * card lies below their i-th lowest (of both hands together), for every i up to the shorter
 * holding: the card led is at least their lowest, so he has a card below the trick's best;
 * he plays the highest such card (discards his highest card of any suit when void), and
 * the defenders' cards gone (one or two, each below the trick's best) leave it so. */
static int misere_safe(const Search *s, int leader, uint64_t *rel) {
    if (leader == s->declarer) return 0;
    uint64_t theirs = 0;
    *rel = 0;
    for (int i = 0; i < 3; i++) if (i != s->declarer) theirs |= s->hands[i];
    for (int suit = 0; suit < 4; suit++) {
        unsigned mine = (unsigned)(s->hands[s->declarer] >> (13 * suit) & SUIT13);
        unsigned other = (unsigned)(theirs >> (13 * suit) & SUIT13);
        if (mine && other) *rel |= 1ull << (13 * suit + lowest_bit(mine | other)); /* the whole suit counts */
        while (mine && other) {
            unsigned d = mine & (~mine + 1), e = other & (~other + 1); /* the lowest of each */
            if (d > e) return 0;
            mine ^= d;
            other ^= e;
        }
    }
    return 1;
}

/* Whether the declarer takes ``target`` tricks in all (``won`` so far, ``left`` to come),
 * ``to_act`` to play; ``*rel``: the cards whose ranks the answer depended on. */
static int reach(Search *s, int target, int to_act, int left, int won, uint64_t *rel) {
    *rel = 0;
    if (won >= target) return 1;
    if (won + left < target) return 0;
    if (++s->nodes > s->limit && s->limit) s->aborted = 1;
    if (s->aborted) return 0;
    int need = target - won;
    int decided;
    if (s->ntrick) return children(s, target, to_act, left, won, -1, &decided, rel);
    if (!s->low) {
        if (to_act == s->declarer) {
            if (won + quick_tricks(s, to_act, left, rel) >= target) return 1;
        } else if (won + left - quick_tricks(s, to_act, left, rel) < target) return 0;
        if (s->trump >= 0) {
            int mine, theirs;
            uint64_t mine_rel, theirs_rel;
            sure_trump_tricks(s, left, &mine, &theirs, &mine_rel, &theirs_rel);
            if (won + mine >= target) { *rel = mine_rel; return 1; }
            if (won + left - theirs < target) { *rel = theirs_rel; return 0; }
        }
    }
    if (s->low && s->trump < 0 && misere_safe(s, to_act, rel)) return 0; /* won < target: no more come */
    uint64_t suits[4], key[2];
    unsigned live[4];
    uint64_t shape = make_key(s, to_act, left, suits, live, key);
    PREFETCH(shape_bucket(shape));
    int first;
    int found = lookup(key, shape, suits, live, need, &first, rel);
    if (found >= 0) return found;
    int result = children(s, target, to_act, left, won, first, &decided, rel);
    if (s->aborted) return 0; /* an unfinished search proves nothing */
    store(key, shape, suits, live, *rel, need, result, decided, left);
    return result;
}

/* A table of ``bytes``, zeroed; on Linux in huge pages where the system gives them (the
 * positions' 40 MB and the patterns' 12 MB are read at random: with small pages nearly every
 * look-up missed the TLB too), mapped anonymous: the system hands its pages over zeroed as
 * they are first touched (zeroing them all at once made the first solve of a process 60 to
 * 80 ms slower). Never freed. */
static void *new_table(size_t bytes) {
#ifdef __linux__
    size_t huge = (size_t)1 << 21, span = bytes + huge;
    void *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
        uintptr_t start = ((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1); /* whole huge pages */
        madvise((void *)start, bytes, MADV_HUGEPAGE);
        return (void *)start;
    }
#endif
    return PyMem_Calloc(1, bytes);
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
        table = new_table(TABLE_SIZE * sizeof(Entry));
        patterns = new_table(PATTERN_SIZE * sizeof(Pattern));
        if (!table || !patterns) return PyErr_NoMemory();
        init_compress();
    }
    /* The table's bounds hold for any position of the same trump, declarer and kind of game
     * (its keys are the hands by relative rank): "keep" is refused for any other. */
    long kind = (trump + 1) * 6 + declarer * 2 + low;
    if (!keep || !generation || kind != last_kind) {
        last_kind = kind;
        if (++generation == 0) {
            memset(table, 0, TABLE_SIZE * sizeof(Entry));
            memset(patterns, 0, PATTERN_SIZE * sizeof(Pattern));
            generation = 1;
        }
    }
    memset(history, 0, sizeof history);
    /* From a guess, one zero-window search a step (the value is seldom far from it); else halving. */
    int lo = floor_ > 0 ? (int)floor_ : 0, hi = ceiling < left ? (int)ceiling : (int)left;
    if (lo >= hi) return PyLong_FromLong(lo);
    int t0 = (int)to_act, l0 = (int)left, value;
    uint64_t ignored;
    if (guess >= 0) {
        int t = guess < hi ? guess : hi;
        if (t <= lo) t = lo + 1;
        if (reach(&s, t, t0, l0, 0, &ignored)) {
            lo = t;
            while (lo < hi && reach(&s, lo + 1, t0, l0, 0, &ignored)) lo++;
            value = lo;
        } else {
            hi = t - 1;
            while (hi > lo && !reach(&s, hi, t0, l0, 0, &ignored) && !s.aborted) hi--;
            value = hi;
        }
    } else {
        while (lo < hi && !s.aborted) {
            int mid = (lo + hi + 1) / 2;
            if (reach(&s, mid, t0, l0, 0, &ignored)) lo = mid;
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
