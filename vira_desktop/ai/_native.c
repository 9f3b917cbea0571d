/* The hand evaluator's hot kernels in C (and, in _solver.c, the double-dummy solver): the same figures as the pure-Python code of
 * vira_desktop/ai/evaluate.py and planning.py, bit for bit (tests/test_native.py checks
 * them against it, exhaustively where a table is small and on random hands elsewhere).
 *
 * Hands are 52-bit masks, suit s in bits 13*s .. 13*s+12, the deuce lowest. The float
 * arithmetic follows the Python expressions term by term and in the same order, and the
 * build turns floating-point contraction off, so every result is the same double.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>

#define SUIT 0x1FFF

static double trump_value[1 << 13], side_value[1 << 13];
static unsigned char draws[1 << 13], sure_in[1 << 13];

static int popcount64(uint64_t m) {
    int n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

static int popcount13(unsigned m) { return popcount64(m); }

/* evaluate.suit_tricks of a holding against all the other cards of its suit. */
static double suit_tricks(unsigned m13, int trump) {
    int my[13], opp[13], nmy = 0, nopp = 0, lo = 0, hi, lost = 0, i;
    double tricks = 0.0;
    for (i = 12; i >= 0; i--) {
        if (m13 >> i & 1) my[nmy++] = i;
        else opp[nopp++] = i;
    }
    hi = nopp; /* opp[lo .. hi) highest first */
    int mlo = 0, mhi = nmy;
    while (mlo < mhi) {
        if (lo >= hi) {
            tricks += (double)(mhi - mlo) * (trump ? 1.0 : 0.3);
            break;
        }
        if (my[mlo] > opp[lo]) {
            tricks += lost == 0 ? 1.0 : 0.8;
            mlo++;
            hi = hi - 2 > lo ? hi - 2 : lo; /* opp[: max(0, len - 2)] */
        } else {
            mhi--;
            lost++;
            if (hi - lo > 1) { lo++; hi--; } else hi = lo;
        }
    }
    return tricks;
}

static int run_from_ace(unsigned m13) {
    int run = 0;
    while (run < 13 && (m13 >> (12 - run) & 1)) run++;
    return run;
}

static void fill_tables(void) {
    for (unsigned m = 0; m < (1u << 13); m++) {
        int run = run_from_ace(m), n = popcount13(m);
        trump_value[m] = suit_tricks(m, 1);
        side_value[m] = suit_tricks(m, 0);
        draws[m] = run >= 13 - n;
        sure_in[m] = (unsigned char)(run >= 13 - n ? n : run);
    }
}

/* evaluate._shape_terms: (extra, short) for the four suit lengths and the trump. */
static void shape_terms(const int *lengths, int trump, double *extra_out, double *short_out) {
    int n_trump = lengths[trump], s;
    double extra = 0.0;
    for (s = 0; s < 4; s++)
        if (s != trump && n_trump >= 5 && lengths[s] > 3) extra += 0.5 * (double)(lengths[s] - 3);
    int spare = n_trump - 3 > 0 ? n_trump - 3 : 0;
    for (s = 0; s < 4; s++) {
        if (s != trump && spare) {
            int want = !lengths[s] ? 2 : lengths[s] == 1 ? 1 : 0;
            int ruffs = spare < want ? spare : want;
            extra += 0.7 * (double)ruffs;
            spare -= ruffs;
        }
    }
    *extra_out = 0.15 * extra;
    *short_out = 0.2 * (double)(5 - n_trump > 0 ? 5 - n_trump : 0);
}

static void split(uint64_t mask, unsigned *suits) {
    for (int s = 0; s < 4; s++) suits[s] = (unsigned)(mask >> (13 * s) & SUIT);
}

/* evaluate._holding_tricks: expected tricks of four holdings with trump ``trump``. */
static double holding_tricks(const unsigned *k, int trump) {
    int lengths[4];
    double sides = 0.0, extra, shrt;
    int first = 1;
    for (int s = 0; s < 4; s++) {
        lengths[s] = popcount13(k[s]);
        if (s == trump) continue;
        if (first) { sides = side_value[k[s]]; first = 0; }
        else sides = sides + side_value[k[s]];
    }
    shape_terms(lengths, trump, &extra, &shrt);
    return trump_value[k[trump]] + 0.85 * sides + extra - shrt;
}

static int get_mask(PyObject *obj, uint64_t *out) {
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return 0;
    *out = (uint64_t)v;
    return 1;
}

static PyObject *py_trump_tricks(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint64_t mask;
    unsigned k[4];
    if (nargs != 2) { PyErr_SetString(PyExc_TypeError, "trump_tricks(mask, trump)"); return NULL; }
    if (!get_mask(args[0], &mask)) return NULL;
    long trump = PyLong_AsLong(args[1]);
    if (trump == -1 && PyErr_Occurred()) return NULL;
    split(mask, k);
    if (trump < 0)
        return PyFloat_FromDouble(side_value[k[0]] + side_value[k[1]] + side_value[k[2]] + side_value[k[3]]);
    if (trump > 3) { PyErr_SetString(PyExc_ValueError, "trump out of range"); return NULL; }
    return PyFloat_FromDouble(holding_tricks(k, (int)trump));
}

/* evaluate.pool_figures: the expected and sure tricks of the 13 cards kept for each trump. */
static PyObject *py_pool_figures(PyObject *self, PyObject *arg) {
    uint64_t pool;
    unsigned p[4], k[4];
    int lengths[4], total = 0;
    if (!get_mask(arg, &pool)) return NULL;
    split(pool, p);
    for (int s = 0; s < 4; s++) { lengths[s] = popcount13(p[s]); total += lengths[s]; }
    PyObject *out = PyList_New(4);
    if (!out) return NULL;
    for (int trump = 0; trump < 4; trump++) {
        int n = 13 - lengths[trump], others = total - lengths[trump];
        if (others <= n) {
            for (int s = 0; s < 4; s++) k[s] = p[s];
        } else if (n <= 0) {
            k[0] = k[1] = k[2] = k[3] = 0;
        } else {
            /* the n highest other cards: by rank, then spades before hearts … */
            unsigned left[4] = {p[0], p[1], p[2], p[3]};
            left[trump] = 0;
            k[0] = k[1] = k[2] = k[3] = 0;
            int take = n;
            for (int r = 12; r >= 0 && take; r--)
                for (int s = 0; s < 4 && take; s++)
                    if (left[s] >> r & 1) { k[s] |= 1u << r; take--; }
        }
        k[trump] = p[trump];
        double tricks = holding_tricks(k, trump);
        long sure = draws[p[trump]] ? sure_in[k[0]] + sure_in[k[1]] + sure_in[k[2]] + sure_in[k[3]] : 0;
        PyObject *pair = Py_BuildValue("(dl)", tricks, sure);
        if (!pair) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, trump, pair);
    }
    return out;
}

/* --- misère dangers (evaluate._suit_dangers, safest_mask, danger_mask) --- */

#define SPLIT_RISK 0.45

typedef struct { double w; int index; } Danger; /* w: minus the weight, as in Python */

static unsigned ace_low(unsigned m13) { return (m13 << 1 & SUIT) | m13 >> 12; }

/* The dangers of suit ``s`` of ``mask`` with ``dead`` cards out of play, appended to ``out``. */
static int suit_dangers(uint64_t mask, uint64_t dead, int s, int aces_low, Danger *out) {
    unsigned m = (unsigned)(mask >> (13 * s) & SUIT);
    unsigned o = (unsigned)(dead >> (13 * s) & SUIT) & ~m;
    if (aces_low) { m = ace_low(m); o = ace_low(o); }
    unsigned others = ~(m | o) & SUIT;
    int missing[13], left = 0, count = 0, n = 0, base = 13 * s;
    for (int i = 0; i < 13; i++) if (others >> i & 1) missing[left++] = i;
    for (int r = 0; r < 13; r++) {
        if (!(m >> r & 1)) continue;
        n++;
        if (left < n) break;
        int index = aces_low ? base + (r ? r - 1 : 12) : base + r;
        if (left >= 2 * n - 1) {
            int led = missing[2 * n - 2];
            int second = left >= 2 * n ? missing[2 * n - 1] : led;
            if (r > second) {
                out[count].w = -(1.0 + (double)(r - second) / 20 + 0.01 * (double)n);
                out[count++].index = index;
                continue;
            }
            if (r > led) {
                out[count].w = -(0.5 + 0.01 * (double)n);
                out[count++].index = index;
                continue;
            }
        }
        if (r > missing[n - 1]) {
            out[count].w = -(SPLIT_RISK + 0.01 * (double)n);
            out[count++].index = index;
        }
    }
    return count;
}

static int danger_cmp(const void *a, const void *b) {
    const Danger *x = a, *y = b;
    if (x->w < y->w) return -1;
    if (x->w > y->w) return 1;
    return x->index - y->index;
}

/* Every suit's dangers, sorted worst first (evaluate.ranked_dangers). */
static int ranked_dangers(uint64_t mask, uint64_t dead, int aces_low, Danger *out) {
    int count = 0;
    for (int s = 0; s < 4; s++) count += suit_dangers(mask, dead, s, aces_low, out + count);
    qsort(out, (size_t)count, sizeof(Danger), danger_cmp);
    return count;
}

/* evaluate.top_mask(mask, n): the n highest cards, by rank and then suit 0 first. */
static uint64_t top_mask(uint64_t mask, int n) {
    uint64_t out = 0;
    for (int r = 12; r >= 0 && n > 0; r--)
        for (int s = 0; s < 4 && n > 0; s++) {
            uint64_t bit = (uint64_t)1 << (13 * s + r);
            if (mask & bit) { out |= bit; n--; }
        }
    return out;
}

static uint64_t safest(uint64_t mask, int keep, int aces_low, uint64_t dead) {
    int count = popcount64(mask);
    Danger by_suit[4][13], ranked[52];
    int lens[4];
    if (count <= keep) return mask;
    for (int s = 0; s < 4; s++) lens[s] = suit_dangers(mask, dead, s, aces_low, by_suit[s]);
    while (count > keep) {
        int excess = count - keep, total = 0;
        for (int s = 0; s < 4; s++) {
            memcpy(ranked + total, by_suit[s], sizeof(Danger) * (size_t)lens[s]);
            total += lens[s];
        }
        if (!total) return mask & ~top_mask(mask, excess);
        qsort(ranked, (size_t)total, sizeof(Danger), danger_cmp);
        unsigned changed = 0;
        int drop = (excess + 1) / 2;
        for (int j = 0; j < drop && j < total; j++) {
            int i = ranked[j].index;
            mask &= ~((uint64_t)1 << i);
            dead |= (uint64_t)1 << i;
            changed |= 1u << (i / 13);
            count--;
        }
        if (count <= keep) break;
        for (int s = 0; s < 4; s++)
            if (changed >> s & 1) lens[s] = suit_dangers(mask, dead, s, aces_low, by_suit[s]);
    }
    return mask;
}

static double danger(uint64_t mask, int aces_low, uint64_t dead) {
    Danger ranked[52];
    int count = ranked_dangers(mask, dead, aces_low, ranked), voids = 0;
    double total = 0.0;
    for (int j = 0; j < count; j++) total += -ranked[j].w < 1.0 ? -ranked[j].w : 1.0;
    for (int s = 0; s < 4; s++) voids += !(mask >> (13 * s) & SUIT);
    double d = total - 0.3 * (double)voids * (total < 1.0 ? total : 1.0);
    return d > 0.0 ? d : 0.0;
}

static int parse_misere(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t first, uint64_t *mask, int *aces_low,
                        uint64_t *dead) {
    if (!get_mask(args[0], mask)) return 0;
    *aces_low = nargs > first ? PyObject_IsTrue(args[first]) : 0;
    if (*aces_low < 0) return 0;
    *dead = 0;
    if (nargs > first + 1 && !get_mask(args[first + 1], dead)) return 0;
    return 1;
}

static PyObject *py_safest(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint64_t mask, dead;
    int aces_low;
    if (nargs < 2 || nargs > 4) { PyErr_SetString(PyExc_TypeError, "safest(mask, keep, aces_low=False, dead=0)"); return NULL; }
    long keep = PyLong_AsLong(args[1]);
    if (keep == -1 && PyErr_Occurred()) return NULL;
    if (!parse_misere(args, nargs, 2, &mask, &aces_low, &dead)) return NULL;
    return PyLong_FromUnsignedLongLong(safest(mask, (int)keep, aces_low, dead));
}

static PyObject *py_danger(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint64_t mask, dead;
    int aces_low;
    if (nargs < 1 || nargs > 3) { PyErr_SetString(PyExc_TypeError, "danger(mask, aces_low=False, dead=0)"); return NULL; }
    if (!parse_misere(args, nargs, 1, &mask, &aces_low, &dead)) return NULL;
    return PyFloat_FromDouble(danger(mask, aces_low, dead));
}

static PyObject *py_misere_chance(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint64_t mask, dead;
    int aces_low;
    if (nargs < 2 || nargs > 4) {
        PyErr_SetString(PyExc_TypeError, "misere_chance(mask, open_hand, aces_low=False, dead=0)");
        return NULL;
    }
    int open_hand = PyObject_IsTrue(args[1]);
    if (open_hand < 0) return NULL;
    if (!parse_misere(args, nargs, 2, &mask, &aces_low, &dead)) return NULL;
    double d = danger(mask, aces_low, dead);
    double best = open_hand ? 0.85 : 0.93;
    return PyFloat_FromDouble(best * pow(open_hand ? 0.22 : 0.35, d));
}

/* --- sampling: planning.draw_mask, the draws of random.Random.sample --- */

static int bit_length(unsigned long v) {
    int n = 0;
    while (v) { n++; v >>= 1; }
    return n;
}

static int next_index(PyObject *getrandbits, PyObject *width, long *out) {
    PyObject *j = PyObject_CallOneArg(getrandbits, width);
    if (!j) return 0;
    *out = PyLong_AsLong(j);
    Py_DECREF(j);
    return !(*out == -1 && PyErr_Occurred());
}

static PyObject *py_draw_mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) { PyErr_SetString(PyExc_TypeError, "draw_mask(getrandbits, bits, k)"); return NULL; }
    PyObject *getrandbits = args[0], *seq = PySequence_Fast(args[1], "bits must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    long k = PyLong_AsLong(args[2]);
    uint64_t pool[64], out = 0;
    if ((k == -1 && PyErr_Occurred()) || n > 64) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "at most 64 bits");
        Py_DECREF(seq);
        return NULL;
    }
    if (k < 0 || k > n) {
        PyErr_SetString(PyExc_ValueError, "sample larger than population or is negative");
        Py_DECREF(seq);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (!get_mask(PySequence_Fast_GET_ITEM(seq, i), &pool[i])) { Py_DECREF(seq); return NULL; }
    Py_DECREF(seq);
    /* planning._list_draw: CPython draws from a copied list unless a set is smaller */
    double setsize = 21;
    if (k > 5) setsize += pow(4, ceil(log((double)(k * 3)) / log(4)));
    PyObject *width = NULL;
    long j;
    if ((double)n <= setsize) {
        for (long i = 0; i < k; i++) {
            long left = (long)n - i;
            width = PyLong_FromLong(bit_length((unsigned long)left));
            if (!width) return NULL;
            do {
                if (!next_index(getrandbits, width, &j)) { Py_DECREF(width); return NULL; }
            } while (j >= left);
            Py_DECREF(width);
            out |= pool[j];
            pool[j] = pool[left - 1];
        }
    } else {
        uint64_t selected = 0;
        width = PyLong_FromLong(bit_length((unsigned long)n));
        if (!width) return NULL;
        for (long i = 0; i < k; i++) {
            do {
                if (!next_index(getrandbits, width, &j)) { Py_DECREF(width); return NULL; }
            } while (j >= n || (selected >> j & 1));
            selected |= (uint64_t)1 << j;
            out |= pool[j];
        }
        Py_DECREF(width);
    }
    return PyLong_FromUnsignedLongLong(out);
}

static int count_bits(unsigned long v) {
    int n = 0;
    for (; v; v &= v - 1) n++;
    return n;
}

/* CPython's Random._randbelow_with_getrandbits(n): the same calls of getrandbits. */
static int below(PyObject *getrandbits, long n, long *out) {
    PyObject *width = PyLong_FromLong(bit_length((unsigned long)n));
    if (!width) return 0;
    do {
        if (!next_index(getrandbits, width, out)) { Py_DECREF(width); return 0; }
    } while (*out >= n);
    Py_DECREF(width);
    return 1;
}

/* sampling._deal_once in C, drawing as it does: the pool shuffled as random.shuffle does, put
 * in order of how many seats may take a card (stable, unless ``in_order``), then each card to
 * one of the seats that may take it with room, by randrange over their room. */
static PyObject *py_deal_once(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) { PyErr_SetString(PyExc_TypeError, "deal_once(getrandbits, pool, room, takers, in_order)"); return NULL; }
    PyObject *getrandbits = args[0];
    PyObject *pool = PySequence_Fast(args[1], "pool must be a sequence");
    if (!pool) return NULL;
    PyObject *rooms = PySequence_Fast(args[2], "room must be a sequence");
    if (!rooms) { Py_DECREF(pool); return NULL; }
    PyObject *takers = PySequence_Fast(args[3], "takers must be a sequence");
    if (!takers) { Py_DECREF(pool); Py_DECREF(rooms); return NULL; }
    int in_order = PyObject_IsTrue(args[4]);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(pool), m = PySequence_Fast_GET_SIZE(rooms);
    long cards[64], allowed[64], room[8];
    int ok = in_order >= 0 && n <= 64 && m <= 8 && PySequence_Fast_GET_SIZE(takers) == n;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        cards[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(pool, i));
        allowed[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(takers, i));
        ok = !PyErr_Occurred() && cards[i] >= 0 && cards[i] < 64;
    }
    for (Py_ssize_t i = 0; ok && i < m; i++) {
        room[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(rooms, i));
        ok = !PyErr_Occurred();
    }
    Py_DECREF(pool);
    Py_DECREF(rooms);
    Py_DECREF(takers);
    if (!ok) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "at most 64 cards and 8 seats");
        return NULL;
    }
    long j;
    for (Py_ssize_t i = n - 1; i > 0; i--) { /* random.shuffle */
        if (!below(getrandbits, (long)i + 1, &j)) return NULL;
        long c = cards[i], a = allowed[i];
        cards[i] = cards[j], allowed[i] = allowed[j];
        cards[j] = c, allowed[j] = a;
    }
    if (!in_order) /* list.sort(key=the number of takers): stable */
        for (Py_ssize_t i = 1; i < n; i++) {
            long c = cards[i], a = allowed[i];
            int key = count_bits((unsigned long)a);
            Py_ssize_t k = i;
            while (k > 0 && count_bits((unsigned long)allowed[k - 1]) > key) {
                cards[k] = cards[k - 1], allowed[k] = allowed[k - 1];
                k--;
            }
            cards[k] = c, allowed[k] = a;
        }
    uint64_t got[8] = {0};
    for (Py_ssize_t i = 0; i < n; i++) {
        long total = 0;
        for (Py_ssize_t s = 0; s < m; s++) if (allowed[i] >> s & 1) total += room[s];
        if (!total) Py_RETURN_NONE;
        if (!below(getrandbits, total, &j)) return NULL;
        for (Py_ssize_t s = 0; s < m; s++) {
            if (!(allowed[i] >> s & 1)) continue;
            j -= room[s];
            if (j < 0) {
                room[s]--;
                got[s] |= 1ull << cards[i];
                break;
            }
        }
    }
    PyObject *out = PyList_New(m);
    if (!out) return NULL;
    for (Py_ssize_t s = 0; s < m; s++) {
        PyObject *mask = PyLong_FromUnsignedLongLong(got[s]);
        if (!mask) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, s, mask);
    }
    return out;
}

PyObject *vira_solve(PyObject *self, PyObject *const *args, Py_ssize_t nargs); /* _solver.c */
PyObject *vira_searched(PyObject *self, PyObject *unused);                      /* _solver.c */

static PyMethodDef methods[] = {
    {"pool_figures", py_pool_figures, METH_O, "evaluate.pool_figures"},
    {"trump_tricks", (PyCFunction)(void (*)(void))py_trump_tricks, METH_FASTCALL, "evaluate.trump_tricks_mask"},
    {"safest", (PyCFunction)(void (*)(void))py_safest, METH_FASTCALL, "evaluate.safest_mask"},
    {"danger", (PyCFunction)(void (*)(void))py_danger, METH_FASTCALL, "evaluate.danger_mask"},
    {"misere_chance", (PyCFunction)(void (*)(void))py_misere_chance, METH_FASTCALL, "evaluate.misere_chance_mask"},
    {"draw_mask", (PyCFunction)(void (*)(void))py_draw_mask, METH_FASTCALL, "planning.draw_mask"},
    {"deal_once", (PyCFunction)(void (*)(void))py_deal_once, METH_FASTCALL, "sampling._deal_once"},
    {"solve", (PyCFunction)(void (*)(void))vira_solve, METH_FASTCALL, "solver.solve: the declarer's tricks"},
    {"searched", vira_searched, METH_NOARGS, "the nodes the solver has searched so far"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "The hand evaluator's hot kernels in C (see evaluate.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__native(void) {
    fill_tables();
    return PyModule_Create(&module);
}
