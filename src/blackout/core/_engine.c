/* The compiled rules engine: the state of a game and its hot operations in C.
 *
 * blackout.core.fast.FastGame subclasses the type defined here (Core) and the
 * pure-Python reference Game (blackout.core.game).  This file holds the state and
 * does dealing (the same seeded shuffle as the reference: SHA-512 string seed,
 * Mersenne Twister, sort by 52 random 64-bit keys), legal_actions, apply with its
 * events, trick and hand completion, scoring for every formula, the end of the game
 * and copy.  Everything that is not a hot path stays in Python, in one definition:
 * an illegal move is handed to the reference Game's apply, which raises the very
 * IllegalAction the reference raises; view, record and history are the reference's
 * own methods reading this object's attributes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

/* Action codes. */
#define NONE_BID (-1)
#define NIL_CODE 53
#define BOARD_CODE 54
#define TRUMP_CODE 55 /* 55..58 suits, 59 no trump */
#define PLAY_CODE 64  /* 64 + card */

enum { BID = 0, TRUMP = 1, PLAY = 2, OVER = 3 };
enum { TR_TURN_UP, TR_SPADES, TR_DECLARER, TR_NONE };
enum { SC_TEN_PLUS_BID, SC_FIVE_PLUS_CARDS, SC_NULLO, SC_POTOMAC, SC_TRICKS_PLUS_TEN,
       SC_PARTNERSHIP };
enum { TB_EXACT_COIN, TB_EXTRA_HANDS, TB_SHARED };

/* Python objects shared by every game, filled by setup(). */
static PyObject *CARDS, *PLAYS, *BIDS, *NIL, *BOARD, *TRUMP_CHOICES, *SUITS, *PHASES;
static PyObject *HandResultType, *IllegalAction, *parse_action, *reference_apply;
static PyObject *coin_choice, *sha512;
static PyObject *CardPlayedT, *TrickTakenT, *HandScoredT, *GameOverT, *HandDealtT, *BidMadeT,
    *BidChangedT, *TrumpNamedT;
static PyTypeObject *PlayT, *BidT, *NilT, *BoardT, *ChooseTrumpT;
static Py_ssize_t play_card_off, bid_tricks_off, trump_suit_off;

/* Rules of one game, encoded once per (rules, players) by blackout.core.fast. */
typedef struct {
    PyObject_HEAD
    int n, teams, hook, bid_changes, blind_first, last_no_trump, trump_rule, first_bidder,
        leader_rule, scoring, at_least, cap, target, max_hands, tiebreak, constant, largest,
        nsizes;
    int *sizes;
    PyObject *rules, *card_events; /* card_events[seat][card]: cached 1-event tuples */
    PyObject **bid_events;         /* [seat * 55 + code]: cached (BidMade,) tuples */
} Config;

/* The state a hand's end replaces (scoring, the end of the game, the next deal), kept
 * so that undo() can take back the hand's last card.  Immutable once made and shared by
 * copies: a reference-counted list, newest first. */
#define SNAP_FIELDS(X) X(hand_index) X(cards) X(dealer) X(extra_hands) X(turn_up) X(trump) \
    X(trump_decided) X(blind) X(declarer) X(bid_pos) X(leader) X(phase) X(to_move) \
    X(is_over) X(nplayed) X(ntricks) X(nwinners)
#define SNAP_DECLARE(f) int f;
typedef struct Snap {
    Py_ssize_t refs;
    struct Snap *prev;
    int nmoves, nhands; /* moves made and hands scored when the hand ended */
    SNAP_FIELDS(SNAP_DECLARE)
    uint8_t plays[52], trick_leader[52], trick_winner[52];
    uint64_t seats[]; /* the block of per-seat arrays (seat_bytes) */
} Snap;

typedef struct {
    PyObject_HEAD
    /* fields from here to `end_of_state` are copied bytewise by copy() */
    Config *cfg;
    Snap *snaps;
    int n, hand_index, cards, dealer, extra_hands, turn_up, trump, trump_decided, blind,
        declarer, bid_pos, leader, phase, to_move, is_over, nplayed, ntricks, nwinners,
        ndeals, nmoves, capmoves;
    uint64_t *hands, *dealt;                /* n each */
    int *bids, *bid_time, *tricks_won, *scores, *exact, *order, *winners; /* n each */
    uint8_t plays[52], trick_leader[52], trick_winner[52];
    uint32_t *moves; /* seat << 16 | auto << 15 | action code */
    PyObject *rules, *given_players, *seed, *deals, *players, *first_dealer_draw, *seed_prefix,
        *hands_played, *opening, *deal_info; /* deal_info: ((masks, turn_up, dealer, size), ...) */
    int end_of_state;
} Core;

static PyTypeObject CoreType, ConfigType;

/* The per-seat arrays live in one block: hands and dealt (uint64_t), then seven int
 * arrays (see alloc_seats). */
static inline size_t seat_bytes(int n) { return 2 * n * sizeof(uint64_t) + 7 * n * sizeof(int); }

static void snap_release(Snap *s) {
    while (s && --s->refs == 0) {
        Snap *prev = s->prev;
        PyMem_Free(s);
        s = prev;
    }
}

static int snap_push(Core *g) {
    Snap *s = PyMem_Malloc(sizeof(Snap) + seat_bytes(g->n));
    if (!s) { PyErr_NoMemory(); return -1; }
    s->refs = 1;
    s->prev = g->snaps;
    s->nmoves = g->nmoves;
    s->nhands = (int)PyList_GET_SIZE(g->hands_played);
#define SNAP_SAVE(f) s->f = g->f;
    SNAP_FIELDS(SNAP_SAVE)
    memcpy(s->plays, g->plays, sizeof s->plays);
    memcpy(s->trick_leader, g->trick_leader, sizeof s->trick_leader);
    memcpy(s->trick_winner, g->trick_winner, sizeof s->trick_winner);
    memcpy(s->seats, g->hands, seat_bytes(g->n));
    g->snaps = s;
    return 0;
}

/* Back to the end of the last finished hand, dropping its snapshot. */
static int snap_pop(Core *g) {
    Snap *s = g->snaps;
    if (PyList_SetSlice(g->hands_played, s->nhands, PY_SSIZE_T_MAX, NULL) < 0) return -1;
#define SNAP_LOAD(f) g->f = s->f;
    SNAP_FIELDS(SNAP_LOAD)
    memcpy(g->plays, s->plays, sizeof s->plays);
    memcpy(g->trick_leader, s->trick_leader, sizeof s->trick_leader);
    memcpy(g->trick_winner, s->trick_winner, sizeof s->trick_winner);
    memcpy(g->hands, s->seats, seat_bytes(g->n));
    g->snaps = s->prev;
    if (g->snaps) g->snaps->refs++;
    snap_release(s);
    return 0;
}

/* ---------------------------------------------------------------- helpers -------- */

static inline PyObject *slot(PyObject *o, Py_ssize_t off) { return *(PyObject **)((char *)o + off); }

static Py_ssize_t member_offset(PyObject *type, const char *name) {
    PyObject *d = PyObject_GetAttrString(type, name);
    if (!d) return -1;
    if (Py_TYPE(d) != &PyMemberDescr_Type) {
        Py_DECREF(d);
        PyErr_Format(PyExc_TypeError, "%s is not a slot", name);
        return -1;
    }
    Py_ssize_t off = ((PyMemberDescrObject *)d)->d_member->offset;
    Py_DECREF(d);
    return off;
}

/* A frozen slots dataclass built without running its __init__: the engine makes
 * thousands of events a second and object.__setattr__ per field would dominate.
 * `fields` names the slots in order; the values are stolen references. */
typedef struct { PyObject *type; Py_ssize_t off[12]; int count; } Maker;
static Maker mk_card_played, mk_hand_scored, mk_game_over, mk_hand_dealt,
    mk_bid_made, mk_bid_changed, mk_trump_named, mk_hand_result;

static int maker_init(Maker *m, PyObject *type, const char *const *names) {
    m->type = type;
    m->count = 0;
    for (; *names; names++) {
        m->off[m->count] = member_offset(type, *names);
        if (m->off[m->count++] < 0) return -1;
    }
    return 0;
}

static PyObject *make(Maker *m, PyObject **values) {
    PyTypeObject *t = (PyTypeObject *)m->type;
    PyObject *o = t->tp_alloc(t, 0);
    for (int i = 0; i < m->count; i++) {
        if (!values[i] || !o) {
            for (int j = i; j < m->count; j++) Py_XDECREF(values[j]);
            Py_XDECREF(o);
            return NULL;
        }
        *(PyObject **)((char *)o + m->off[i]) = values[i];
    }
    return o;
}

static inline PyObject *new_ref(PyObject *o) { Py_INCREF(o); return o; }
static inline PyObject *card_obj(int card) { return new_ref(PyTuple_GET_ITEM(CARDS, card)); }
static inline PyObject *suit_or_none(int suit) {
    return new_ref(suit < 0 ? Py_None : PyTuple_GET_ITEM(SUITS, suit));
}
static inline PyObject *int_or_none(int v) { return v < 0 ? new_ref(Py_None) : PyLong_FromLong(v); }

static PyObject *action_obj(int code) {
    if (code >= PLAY_CODE) return new_ref(PyTuple_GET_ITEM(PLAYS, code - PLAY_CODE));
    if (code >= TRUMP_CODE) return new_ref(PyTuple_GET_ITEM(TRUMP_CHOICES, code - TRUMP_CODE));
    if (code == NIL_CODE) return new_ref(NIL);
    if (code == BOARD_CODE) return new_ref(BOARD);
    if (code < 0) return new_ref(Py_None);
    return new_ref(PyTuple_GET_ITEM(BIDS, code));
}

/* The code of an action object, or -1 when it is not one. */
static int action_code(PyObject *a) {
    PyTypeObject *t = Py_TYPE(a);
    if (t == PlayT) {
        long c = PyLong_AsLong(slot(a, play_card_off));
        return (c >= 0 && c < 52) ? PLAY_CODE + (int)c : -1;
    }
    if (t == BidT) {
        PyObject *v = slot(a, bid_tricks_off);
        if (!PyLong_CheckExact(v)) return -1;
        long b = PyLong_AsLong(v);
        if (b == -1 && PyErr_Occurred()) { PyErr_Clear(); return -1; }
        return (b >= 0 && b <= 52) ? (int)b : -1;
    }
    if (t == NilT) return NIL_CODE;
    if (t == BoardT) return BOARD_CODE;
    if (t == ChooseTrumpT) {
        PyObject *s = slot(a, trump_suit_off);
        if (s == Py_None) return TRUMP_CODE + 4;
        long v = PyLong_AsLong(s);
        return (v >= 0 && v < 4) ? TRUMP_CODE + (int)v : -1;
    }
    return -1;
}

static int push_move(Core *g, int seat, int code, int autoplay) {
    if (g->nmoves == g->capmoves) {
        int cap = g->capmoves ? 2 * g->capmoves : 64;
        uint32_t *m = PyMem_Realloc(g->moves, cap * sizeof(uint32_t));
        if (!m) { PyErr_NoMemory(); return -1; }
        g->moves = m;
        g->capmoves = cap;
    }
    g->moves[g->nmoves++] = (uint32_t)seat << 16 | (uint32_t)autoplay << 15 | (uint32_t)code;
    return 0;
}

/* Concatenate two tuples, stealing both. */
static PyObject *join(PyObject *a, PyObject *b) {
    if (!a || !b) { Py_XDECREF(a); Py_XDECREF(b); return NULL; }
    if (PyTuple_GET_SIZE(b) == 0) { Py_DECREF(b); return a; }
    PyObject *r = PySequence_Concat(a, b);
    Py_DECREF(a);
    Py_DECREF(b);
    return r;
}

static PyObject *one(PyObject *event) {
    if (!event) return NULL;
    PyObject *t = PyTuple_New(1);
    if (!t) { Py_DECREF(event); return NULL; }
    PyTuple_SET_ITEM(t, 0, event);
    return t;
}

/* ------------------------------------------------------- seeded shuffle ------------ */

/* Python's random.Random(text): seed = int.from_bytes(text + sha512(text)), big-endian,
 * then the Mersenne Twister's init_by_array on its 32-bit words, least significant first. */
typedef struct { uint32_t mt[624]; int mti; } MT;

static void mt_init_genrand(MT *m, uint32_t s) {
    m->mt[0] = s;
    for (int i = 1; i < 624; i++)
        m->mt[i] = 1812433253U * (m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) + (uint32_t)i;
    m->mti = 624;
}

/* init_by_array always starts from init_genrand(19650218): computed once. */
static MT mt_start;

static void mt_init_by_array(MT *m, const uint32_t *key, int len) {
    if (!mt_start.mti) mt_init_genrand(&mt_start, 19650218U);
    memcpy(m, &mt_start, sizeof(MT));
    int i = 1, j = 0;
    for (int k = 624 > len ? 624 : len; k; k--) {
        m->mt[i] = (m->mt[i] ^ ((m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) * 1664525U)) + key[j]
                   + (uint32_t)j;
        i++; j++;
        if (i >= 624) { m->mt[0] = m->mt[623]; i = 1; }
        if (j >= len) j = 0;
    }
    for (int k = 623; k; k--) {
        m->mt[i] = (m->mt[i] ^ ((m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) * 1566083941U))
                   - (uint32_t)i;
        i++;
        if (i >= 624) { m->mt[0] = m->mt[623]; i = 1; }
    }
    m->mt[0] = 0x80000000U;
}

/* The deck order of hand `index`: what game._shuffled_deck(_seeded(seed, "hand:i")) gives. */
static int shuffled_deck(Core *g, int index, int deck[52]) {
    PyObject *text = PyBytes_FromFormat("%shand:%d", PyBytes_AS_STRING(g->seed_prefix), index);
    if (!text) return -1;
    PyObject *hasher = PyObject_CallOneArg(sha512, text);
    PyObject *digest = hasher ? PyObject_CallMethod(hasher, "digest", NULL) : NULL;
    Py_XDECREF(hasher);
    if (!digest) { Py_DECREF(text); return -1; }
    Py_ssize_t lt = PyBytes_GET_SIZE(text), len = lt + PyBytes_GET_SIZE(digest);
    unsigned char buf[512];
    if (len > (Py_ssize_t)sizeof(buf)) {
        Py_DECREF(text); Py_DECREF(digest);
        PyErr_SetString(PyExc_ValueError, "seed too long");
        return -1;
    }
    memcpy(buf, PyBytes_AS_STRING(text), lt);
    memcpy(buf + lt, PyBytes_AS_STRING(digest), PyBytes_GET_SIZE(digest));
    Py_DECREF(text);
    Py_DECREF(digest);
    /* Strip leading zero bytes (the integer's value), then words from the low end. */
    Py_ssize_t start = 0;
    while (start < len && buf[start] == 0) start++;
    uint32_t key[130];
    int words = 0;
    for (Py_ssize_t pos = len; pos > start; pos -= 4) {
        uint32_t w = 0;
        for (int b = 0; b < 4 && pos - 1 - b >= start; b++)
            w |= (uint32_t)buf[pos - 1 - b] << (8 * b);
        key[words++] = w;
    }
    if (words == 0) key[words++] = 0;
    MT m;
    mt_init_by_array(&m, key, words);
    /* The first 104 outputs need only the first 104 words of the first twist. */
    uint32_t out[104];
    for (int kk = 0; kk < 104; kk++) {
        uint32_t y = (m.mt[kk] & 0x80000000U) | (m.mt[kk + 1] & 0x7fffffffU);
        y = m.mt[kk + 397] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        y ^= (y >> 11);
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= (y >> 18);
        out[kk] = y;
    }
    uint64_t keys[52];
    for (int c = 0; c < 52; c++) keys[c] = out[2 * c] | (uint64_t)out[2 * c + 1] << 32;
    /* Stable insertion sort of the card numbers by key, as sorted() does. */
    for (int c = 0; c < 52; c++) {
        int j = c;
        while (j > 0 && keys[deck[j - 1]] > keys[c]) { deck[j] = deck[j - 1]; j--; }
        deck[j] = c;
    }
    return 0;
}

/* ------------------------------------------------------------ hands --------------- */

static int size_of_hand(Core *g, int index) {
    Config *c = g->cfg;
    if (index < g->ndeals)
        return (int)PyLong_AsLong(PyTuple_GET_ITEM(PyTuple_GET_ITEM(g->deal_info, index), 3));
    if (g->extra_hands) return c->constant ? c->largest : (g->extra_hands - 1) % c->largest + 1;
    if (c->constant) return c->largest;
    return c->sizes[index];
}

/* Deal hand `index`; returns its HandDealt event. */
static PyObject *start_hand(Core *g, int index, int dealer) {
    Config *c = g->cfg;
    int n = g->n;
    g->hand_index = index;
    int size = size_of_hand(g, index);
    g->cards = size;
    int next_card = -1;
    if (index < g->ndeals) {
        PyObject *info = PyTuple_GET_ITEM(g->deal_info, index);
        long d = PyLong_AsLong(PyTuple_GET_ITEM(info, 2));
        if (d >= 0) dealer = (int)d;
        PyObject *masks = PyTuple_GET_ITEM(info, 0);
        for (int s = 0; s < n; s++)
            g->hands[s] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(masks, s));
        next_card = (int)PyLong_AsLong(PyTuple_GET_ITEM(info, 1));
    } else {
        int deck[52];
        if (shuffled_deck(g, index, deck) < 0) return NULL;
        int dealt = size * n;
        for (int k = 0; k < n; k++) {
            uint64_t mask = 0;
            for (int i = k; i < dealt; i += n) mask |= 1ULL << deck[i];
            g->hands[(dealer + 1 + k) % n] = mask;
        }
        next_card = dealt < 52 ? deck[dealt] : -1;
    }
    g->dealer = dealer;
    memcpy(g->dealt, g->hands, n * sizeof(uint64_t));
    g->turn_up = -1;
    g->trump = -1;
    g->trump_decided = 1;
    if (!(c->last_no_trump && size == c->largest)) {
        if (c->trump_rule == TR_TURN_UP) {
            g->turn_up = next_card;
            g->trump = next_card < 0 ? -1 : next_card / 13;
        } else if (c->trump_rule == TR_SPADES) {
            g->trump = 3;
        } else if (c->trump_rule == TR_DECLARER) {
            g->trump_decided = 0;
        }
    }
    g->declarer = -1;
    g->blind = c->blind_first && index == 0 && size == 1;
    int start = c->first_bidder == 0 ? (dealer + 1) % n : dealer;
    for (int i = 0; i < n; i++) {
        g->order[i] = (start + i) % n;
        g->bids[i] = NONE_BID;
        g->bid_time[i] = 0;
        g->tricks_won[i] = 0;
    }
    g->bid_pos = 0;
    g->nplayed = 0;
    g->ntricks = 0;
    g->leader = -1;
    g->phase = BID;
    g->to_move = start;
    PyObject *v[6] = {PyLong_FromLong(index + 1), PyLong_FromLong(size), PyLong_FromLong(dealer),
                      g->turn_up < 0 ? new_ref(Py_None) : card_obj(g->turn_up),
                      suit_or_none(g->trump), PyBool_FromLong(g->trump_decided)};
    return make(&mk_hand_dealt, v);
}

static inline int is_number_bid(int code) { return code >= 0 && code <= 52; }

static int hooked_bid(Core *g) {
    if (!g->cfg->hook || g->bid_pos != g->n - 1) return -1000;
    int total = 0;
    for (int s = 0; s < g->n; s++)
        if (is_number_bid(g->bids[s])) total += g->bids[s];
    return g->cards - total;
}

static int changeable_seat(Core *g) {
    if (!g->cfg->bid_changes || g->phase != BID || g->bid_pos == 0) return -1;
    return g->order[g->bid_pos - 1];
}

/* Whether `code` is in the bid range (the hook aside). */
static int bid_in_range(Core *g, int code) {
    if (g->cfg->teams) {
        int top = g->cfg->cap < g->cards ? g->cfg->cap : g->cards;
        return code == NIL_CODE || code == BOARD_CODE || (code >= 1 && code <= top);
    }
    return code >= 0 && code <= g->cards;
}

static PyObject *bid_range_list(Core *g, int except) {
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    int lo = g->cfg->teams ? 1 : 0;
    int top = g->cfg->teams ? (g->cfg->cap < g->cards ? g->cfg->cap : g->cards) : g->cards;
    for (int b = lo; b <= top; b++)
        if (b != except && PyList_Append(list, PyTuple_GET_ITEM(BIDS, b)) < 0) goto fail;
    if (g->cfg->teams) {
        if (except != NIL_CODE && PyList_Append(list, NIL) < 0) goto fail;
        if (except != BOARD_CODE && PyList_Append(list, BOARD) < 0) goto fail;
    }
    return list;
fail:
    Py_DECREF(list);
    return NULL;
}

static PyObject *plays_of(uint64_t mask) {
    PyObject *list = PyList_New(__builtin_popcountll(mask));
    if (!list) return NULL;
    Py_ssize_t i = 0;
    while (mask) {
        int c = __builtin_ctzll(mask);
        mask &= mask - 1;
        PyList_SET_ITEM(list, i++, new_ref(PyTuple_GET_ITEM(PLAYS, c)));
    }
    return list;
}

static inline uint64_t suit_mask(int suit) { return 0x1FFFULL << (13 * suit); }

static uint64_t playable(Core *g, int seat) {
    uint64_t hand = g->hands[seat];
    int in_trick = g->nplayed - g->ntricks * g->n;
    if (in_trick) {
        uint64_t follow = hand & suit_mask(g->plays[g->ntricks * g->n] / 13);
        if (follow) return follow;
    }
    return hand;
}

/* A Core made by __new__ alone (never started) has no rules to answer from. */
static int unstarted(Core *g) {
    if (g->cfg) return 0;
    PyErr_SetString(PyExc_RuntimeError, "this game was never started: use Game.new");
    return 1;
}

static PyObject *Core_legal_actions(Core *g, PyObject *const *args, Py_ssize_t nargs) {
    if (unstarted(g)) return NULL;
    if (nargs > 1) { PyErr_SetString(PyExc_TypeError, "legal_actions(seat=None)"); return NULL; }
    if (g->to_move < 0) return PyList_New(0);
    int seat = g->to_move;
    if (nargs == 1 && args[0] != Py_None) {
        long s = PyLong_AsLong(args[0]);
        if (s == -1 && PyErr_Occurred()) return NULL;
        if (s != g->to_move) {
            if (s == changeable_seat(g)) return bid_range_list(g, g->bids[s]);
            return PyList_New(0);
        }
    }
    if (g->phase == PLAY) return plays_of(playable(g, seat));
    if (g->phase == BID) return bid_range_list(g, hooked_bid(g));
    return PySequence_List(TRUMP_CHOICES);
}

/* ------------------------------------------------------------ scoring ------------- */

static int player_points(int scoring, int cards, int bid, int took, int is_declarer) {
    int exact = bid == took;
    switch (scoring) {
    case SC_TEN_PLUS_BID: return exact ? 10 + bid : 0;
    case SC_FIVE_PLUS_CARDS: return exact ? 5 + cards : 0;
    case SC_NULLO: return !exact ? 0 : (bid == 0 ? 5 + cards : 10 + took);
    case SC_TRICKS_PLUS_TEN: return took + (exact ? 10 : 0);
    default: /* potomac */
        if (!exact) return -(bid > took ? bid - took : took - bid);
        return 5 + (is_declarer ? 2 * bid : bid);
    }
}

/* A team's contract: kind 0 number, 1 board, 2 nil; *value the tricks or the nil seat. */
static int team_contract(Core *g, int team, int *value) {
    for (int s = team; s < 4; s += 2)
        if (g->bids[s] == BOARD_CODE) { *value = 13; return 1; }
    for (int s = team; s < 4; s += 2)
        if (g->bids[s] == NIL_CODE) { *value = s; return 2; }
    int total = 0;
    for (int s = team; s < 4; s += 2)
        if (is_number_bid(g->bids[s])) total += g->bids[s];
    *value = total < g->cfg->cap ? total : g->cfg->cap;
    return 0;
}

static void score_hand(Core *g, int *points, int *made) {
    int n = g->n;
    if (g->cfg->teams) {
        int all = 0;
        for (int s = 0; s < n; s++) all += g->tricks_won[s];
        for (int team = 0; team < 2; team++) {
            int value, kind = team_contract(g, team, &value);
            int taken = g->tricks_won[team] + g->tricks_won[team + 2];
            int p, m;
            if (kind == 1) { m = taken == all; p = taken == g->cards ? 40 : -10; }
            else if (kind == 2) { m = g->tricks_won[value] == 0; p = m ? 40 : -10; }
            else {
                m = g->cfg->at_least ? taken >= value : taken == value;
                p = m ? 10 + value : 0;
            }
            points[team] = points[team + 2] = p;
            made[team] = made[team + 2] = m;
        }
        return;
    }
    for (int s = 0; s < n; s++) {
        points[s] = player_points(g->cfg->scoring, g->cards, g->bids[s], g->tricks_won[s],
                                  s == g->declarer);
        made[s] = g->bids[s] == g->tricks_won[s];
    }
}

static PyObject *int_tuple(const int *v, int n, int as_bool) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = as_bool ? PyBool_FromLong(v[i]) : PyLong_FromLong(v[i]);
        if (!x) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

static PyObject *int_list(const int *v, int n) {
    PyObject *l = PyList_New(n);
    if (!l) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x) { Py_DECREF(l); return NULL; }
        PyList_SET_ITEM(l, i, x);
    }
    return l;
}

static PyObject *bids_tuple(Core *g) {
    PyObject *t = PyTuple_New(g->n);
    if (!t) return NULL;
    for (int s = 0; s < g->n; s++) PyTuple_SET_ITEM(t, s, action_obj(g->bids[s]));
    return t;
}

static int schedule_done(Core *g, int played) {
    Config *c = g->cfg;
    if (c->max_hands > 0 && played >= c->max_hands) return 1;
    if (c->target > 0) {
        int top = g->scores[0];
        for (int s = 1; s < g->n; s++) if (g->scores[s] > top) top = g->scores[s];
        if (top >= c->target) return 1;
    }
    return !c->constant && played >= c->nsizes;
}

static int top_sides(Core *g) {
    int top = g->scores[0], count = 0, sides = 0;
    for (int s = 1; s < g->n; s++) if (g->scores[s] > top) top = g->scores[s];
    for (int s = 0; s < g->n; s++)
        if (g->scores[s] == top) { count++; sides |= 1 << (s % 2); }
    if (g->cfg->teams) return (sides & 1) + (sides >> 1 & 1);
    return count;
}

static int finish_game(Core *g) {
    g->is_over = 1;
    g->phase = OVER;
    g->to_move = -1;
    int n = g->n, top = g->scores[0];
    for (int s = 1; s < n; s++) if (g->scores[s] > top) top = g->scores[s];
    g->nwinners = 0;
    for (int s = 0; s < n; s++) if (g->scores[s] == top) g->winners[g->nwinners++] = s;
    if (g->cfg->tiebreak == TB_EXACT_COIN && g->nwinners > 1) {
        int most = -1, kept = 0;
        for (int i = 0; i < g->nwinners; i++)
            if (g->exact[g->winners[i]] > most) most = g->exact[g->winners[i]];
        for (int i = 0; i < g->nwinners; i++)
            if (g->exact[g->winners[i]] == most) g->winners[kept++] = g->winners[i];
        g->nwinners = kept;
        if (kept > 1) {
            PyObject *tied = int_list(g->winners, kept);
            PyObject *pick = tied ? PyObject_CallFunctionObjArgs(coin_choice, g->seed, tied, NULL)
                                  : NULL;
            Py_XDECREF(tied);
            if (!pick) return -1;
            g->winners[0] = (int)PyLong_AsLong(pick);
            Py_DECREF(pick);
            g->nwinners = 1;
        }
    }
    return 0;
}

static PyObject *finish_hand(Core *g) {
    int n = g->n;
    if (snap_push(g) < 0) return NULL;
    int points[64], made[64];
    int *pp = n <= 64 ? points : PyMem_Malloc(2 * n * sizeof(int));
    if (!pp) return PyErr_NoMemory();
    int *mm = n <= 64 ? made : pp + n;
    score_hand(g, pp, mm);
    for (int s = 0; s < n; s++) { g->scores[s] += pp[s]; g->exact[s] += mm[s]; }
    PyObject *v[12] = {
        PyLong_FromLong(g->hand_index + 1), PyLong_FromLong(g->cards), PyLong_FromLong(g->dealer),
        int_or_none(g->declarer), suit_or_none(g->trump),
        g->turn_up < 0 ? new_ref(Py_None) : card_obj(g->turn_up), bids_tuple(g),
        int_tuple(g->tricks_won, n, 0), int_tuple(pp, n, 0), int_tuple(g->scores, n, 0),
        int_tuple(mm, n, 1), PyBool_FromLong(g->extra_hands > 0)};
    if (pp != points) PyMem_Free(pp);
    PyObject *result = make(&mk_hand_result, v);
    if (!result || PyList_Append(g->hands_played, result) < 0) { Py_XDECREF(result); return NULL; }
    PyObject *scored[1] = {result}; /* stolen */
    PyObject *scored_event = make(&mk_hand_scored, scored);
    if (!scored_event) return NULL;
    int played = (int)PyList_GET_SIZE(g->hands_played);
    int ends = (g->extra_hands || schedule_done(g, played))
               && (g->cfg->tiebreak != TB_EXTRA_HANDS || top_sides(g) == 1);
    PyObject *next;
    if (ends) {
        g->extra_hands = 0;
        if (finish_game(g) < 0) { Py_DECREF(scored_event); return NULL; }
        PyObject *w[2] = {int_tuple(g->scores, n, 0), int_tuple(g->winners, g->nwinners, 0)};
        next = make(&mk_game_over, w);
    } else {
        if (g->extra_hands || schedule_done(g, played)) g->extra_hands++;
        next = start_hand(g, g->hand_index + 1, (g->dealer + 1) % n);
    }
    if (!next) { Py_DECREF(scored_event); return NULL; }
    PyObject *t = PyTuple_New(2);
    if (!t) { Py_DECREF(scored_event); Py_DECREF(next); return NULL; }
    PyTuple_SET_ITEM(t, 0, scored_event);
    PyTuple_SET_ITEM(t, 1, next);
    return t;
}

static int trick_winner_position(const uint8_t *cards, int n, int trump) {
    int best = cards[0], pos = 0;
    for (int i = 1; i < n; i++) {
        int card = cards[i];
        if (card / 13 == best / 13) {
            if (card > best) { best = card; pos = i; }
        } else if (card / 13 == trump) {
            best = card; pos = i;
        }
    }
    return pos;
}

static PyObject *trick_cards_tuple(const uint8_t *cards, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, card_obj(cards[i]));
    return t;
}

/* A finished trick: a TrickTaken named tuple (the event and the game's record of it). */
static PyObject *make_trick(int leader, const uint8_t *cards, int n, int winner) {
    PyObject *trick = PyTuple_Type.tp_alloc((PyTypeObject *)TrickTakenT, 3);
    PyObject *played = trick_cards_tuple(cards, n);
    if (!trick || !played) { Py_XDECREF(trick); Py_XDECREF(played); return NULL; }
    PyTuple_SET_ITEM(trick, 0, PyLong_FromLong(leader));
    PyTuple_SET_ITEM(trick, 1, played);
    PyTuple_SET_ITEM(trick, 2, PyLong_FromLong(winner));
    return trick;
}

static PyObject *finish_trick(Core *g) {
    int n = g->n, leader = g->leader;
    const uint8_t *cards = g->plays + g->ntricks * n;
    int winner = (leader + trick_winner_position(cards, n, g->trump)) % n;
    g->trick_leader[g->ntricks] = (uint8_t)leader;
    g->trick_winner[g->ntricks] = (uint8_t)winner;
    g->ntricks++;
    g->tricks_won[winner]++;
    g->leader = g->to_move = winner;
    PyObject *taken = one(make_trick(leader, cards, n, winner));
    if (!taken || g->hands[winner]) return taken;
    return join(taken, finish_hand(g));
}

static PyObject *card_event(Core *g, int seat, int card) {
    return new_ref(PyTuple_GET_ITEM(PyTuple_GET_ITEM(g->cfg->card_events, seat), card));
}

static PyObject *do_play(Core *g, int seat, int card, int autoplay) {
    if (push_move(g, seat, PLAY_CODE + card, autoplay) < 0) return NULL;
    g->hands[seat] ^= 1ULL << card;
    g->plays[g->nplayed++] = (uint8_t)card;
    PyObject *played;
    if (autoplay) {
        PyObject *v[3] = {PyLong_FromLong(seat), card_obj(card), new_ref(Py_True)};
        played = one(make(&mk_card_played, v));
    } else {
        played = card_event(g, seat, card);
    }
    if (g->nplayed - g->ntricks * g->n < g->n) {
        g->to_move = seat + 1 < g->n ? seat + 1 : 0;
        return played;
    }
    return join(played, finish_trick(g));
}

static PyObject *start_play(Core *g) {
    g->phase = PLAY;
    int rule = g->cfg->leader_rule;
    g->leader = rule == 1 ? g->dealer : rule == 2 ? g->order[0] : (g->dealer + 1) % g->n;
    g->to_move = g->leader;
    PyObject *events = PyTuple_New(0);
    if (!g->blind) return events;
    /* pbmserv: "After all bids are placed, the cards will be played automatically." */
    while (events && g->phase == PLAY && g->hand_index == 0) {
        int seat = g->to_move;
        int card = __builtin_ctzll(playable(g, seat));
        events = join(events, do_play(g, seat, card, 1));
    }
    return events;
}

static PyObject *finish_bidding(Core *g) {
    if (g->cfg->trump_rule == TR_DECLARER) {
        /* Highest bid; on a tie, the player who made that bid first (seed 004). */
        int best = 0;
        for (int s = 1; s < g->n; s++) {
            int tb = is_number_bid(g->bids[best]) ? g->bids[best] : -1;
            int ts = is_number_bid(g->bids[s]) ? g->bids[s] : -1;
            if (ts > tb || (ts == tb && g->bid_time[s] < g->bid_time[best])) best = s;
        }
        g->declarer = best;
    }
    if (!g->trump_decided) {
        g->phase = TRUMP;
        g->to_move = g->declarer;
        return PyTuple_New(0);
    }
    return start_play(g);
}

static PyObject *bid_event(Core *g, int seat, int code) {
    PyObject **cache = &g->cfg->bid_events[seat * 55 + code];
    if (!*cache) {
        PyObject *v[2] = {PyLong_FromLong(seat), action_obj(code)};
        *cache = one(make(&mk_bid_made, v));
        if (!*cache) return NULL;
    }
    return new_ref(*cache);
}

static PyObject *do_bid(Core *g, int seat, int code) {
    if (push_move(g, seat, code, 0) < 0) return NULL;
    g->bids[seat] = code;
    g->bid_time[seat] = g->nmoves;
    g->bid_pos++;
    if (g->cfg->teams) {
        /* Seed 000: a player whose partner bid board or nil earlier does not bid. */
        while (g->bid_pos < g->n) {
            int partner = g->bids[(g->order[g->bid_pos] + 2) % 4];
            if (partner != NIL_CODE && partner != BOARD_CODE) break;
            g->bid_pos++;
        }
    }
    PyObject *made = bid_event(g, seat, code);
    if (g->bid_pos < g->n) {
        g->to_move = g->order[g->bid_pos];
        return made;
    }
    return join(made, finish_bidding(g));
}

/* The reference engine's verdict on a move this engine refuses: it raises the
 * reference's IllegalAction (its message, its checks), reading this object. */
static PyObject *refuse(Core *g, PyObject *action, PyObject *seat) {
    PyObject *r = PyObject_CallFunctionObjArgs(reference_apply, (PyObject *)g, action, seat, NULL);
    if (!r) return NULL;
    Py_DECREF(r);
    PyErr_Format(PyExc_RuntimeError, "the compiled and the reference engines disagree on %R",
                 action);
    return NULL;
}

static PyObject *Core_apply(Core *g, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    if (unstarted(g)) return NULL;
    PyObject *action = nargs > 0 ? args[0] : NULL, *seat_obj = nargs > 1 ? args[1] : Py_None;
    if (kwnames) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwnames); i++) {
            const char *k = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, i));
            if (k && strcmp(k, "seat") == 0) seat_obj = args[nargs + i];
            else if (k && strcmp(k, "action") == 0) action = args[nargs + i];
            else { PyErr_SetString(PyExc_TypeError, "apply(action, seat=None)"); return NULL; }
        }
    }
    if (!action || nargs > 2) { PyErr_SetString(PyExc_TypeError, "apply(action, seat=None)"); return NULL; }
    int code = action_code(action);
    PyObject *parsed = NULL;
    if (code < 0 && PyUnicode_Check(action)) {
        /* Parsed as the reference does, with the table's reading of "pass" (seed 004
           refuses it). */
        PyObject *pass_bid = PyObject_GetAttrString(g->rules, "pass_bid");
        if (!pass_bid) return NULL;
        parsed = PyObject_CallFunctionObjArgs(parse_action, action, pass_bid, NULL);
        Py_DECREF(pass_bid);
        if (!parsed) return NULL;
        code = action_code(parsed);
        action = parsed;
    }
    PyObject *result = NULL;
    if (code < 0 || g->to_move < 0) goto refused;
    int seat = g->to_move;
    if (seat_obj != Py_None) {
        long s = PyLong_AsLong(seat_obj);
        if (s == -1 && PyErr_Occurred()) { PyErr_Clear(); goto refused; }
        if (s != g->to_move) {
            /* A change of bid out of turn (seed 004). */
            if (s != changeable_seat(g) || code >= TRUMP_CODE || !bid_in_range(g, code)
                || code == g->bids[s])
                goto refused;
            int previous = g->bids[s];
            if (push_move(g, (int)s, code, 0) < 0) goto done;
            g->bids[s] = code;
            g->bid_time[s] = g->nmoves;
            PyObject *v[3] = {PyLong_FromLong(s), action_obj(code), action_obj(previous)};
            result = one(make(&mk_bid_changed, v));
            goto done;
        }
    }
    if (g->phase == PLAY) {
        if (code < PLAY_CODE) goto refused;
        int card = code - PLAY_CODE;
        if (!(playable(g, seat) >> card & 1)) goto refused;
        result = do_play(g, seat, card, 0);
    } else if (g->phase == BID) {
        if (code >= TRUMP_CODE || !bid_in_range(g, code) || code == hooked_bid(g)) goto refused;
        result = do_bid(g, seat, code);
    } else {
        if (code < TRUMP_CODE || code >= PLAY_CODE) goto refused;
        if (push_move(g, seat, code, 0) < 0) goto done;
        g->trump = code - TRUMP_CODE == 4 ? -1 : code - TRUMP_CODE;
        g->trump_decided = 1;
        PyObject *v[2] = {PyLong_FromLong(seat), suit_or_none(g->trump)};
        result = join(one(make(&mk_trump_named, v)), start_play(g));
    }
    goto done;
refused:
    result = refuse(g, action, seat_obj);
done:
    Py_XDECREF(parsed);
    return result;
}

/* ------------------------------------------------------ life cycle ---------------- */

static int alloc_seats(Core *g, int n) {
    g->hands = PyMem_Malloc(seat_bytes(n));
    if (!g->hands) { PyErr_NoMemory(); return -1; }
    g->dealt = g->hands + n;
    int *ints = (int *)(g->dealt + n);
    int **fields[7] = {&g->bids, &g->bid_time, &g->tricks_won, &g->scores, &g->exact,
                       &g->order, &g->winners};
    for (int i = 0; i < 7; i++) *fields[i] = ints + i * n;
    return 0;
}

#define OBJECT_FIELDS(X) X(rules) X(given_players) X(seed) X(deals) X(players) \
    X(first_dealer_draw) X(seed_prefix) X(hands_played) X(opening) X(deal_info)

/* _start(config, given_players, seed, deals, players, first_dealer_draw, seed_prefix,
 *        deal_info, first_dealer): called once by FastGame.__init__. */
static PyObject *Core_start(Core *g, PyObject *args) {
    PyObject *cfg, *given, *seed, *deals, *players, *draw, *prefix, *info;
    int first_dealer;
    if (!PyArg_ParseTuple(args, "O!OOOOOSO!i", &ConfigType, &cfg, &given, &seed, &deals,
                          &players, &draw, &prefix, &PyTuple_Type, &info, &first_dealer))
        return NULL;
    if (g->cfg) { PyErr_SetString(PyExc_RuntimeError, "game already started"); return NULL; }
    Config *c = (Config *)cfg;
    g->cfg = (Config *)new_ref(cfg);
    g->n = c->n;
    if (alloc_seats(g, g->n) < 0) return NULL;
    memset(g->hands, 0, seat_bytes(g->n));
    g->rules = new_ref(c->rules);
    g->given_players = new_ref(given);
    g->seed = new_ref(seed);
    g->deals = new_ref(deals);
    g->players = new_ref(players);
    g->first_dealer_draw = new_ref(draw);
    g->seed_prefix = new_ref(prefix);
    g->deal_info = new_ref(info);
    g->ndeals = (int)PyTuple_GET_SIZE(info);
    g->hands_played = PyList_New(0);
    if (!g->hands_played) return NULL;
    PyObject *dealt = start_hand(g, 0, first_dealer);
    g->opening = one(dealt);
    if (!g->opening) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Core_copy(Core *g, PyObject *Py_UNUSED(ignored)) {
    if (unstarted(g)) return NULL;
    PyTypeObject *t = Py_TYPE(g);
    Core *twin = (Core *)t->tp_alloc(t, 0);
    if (!twin) return NULL;
    size_t start = offsetof(Core, cfg), end = offsetof(Core, end_of_state);
    memcpy((char *)twin + start, (char *)g + start, end - start);
    twin->hands = NULL;
    twin->moves = NULL;
    twin->hands_played = NULL;
#define INCREF_FIELD(f) Py_XINCREF(twin->f);
    OBJECT_FIELDS(INCREF_FIELD)
    Py_XINCREF(twin->cfg);
    if (twin->snaps) twin->snaps->refs++;
    twin->hands_played = PyList_GetSlice(g->hands_played, 0, PY_SSIZE_T_MAX);
    if (!twin->hands_played || alloc_seats(twin, g->n) < 0) { Py_DECREF(twin); return NULL; }
    memcpy(twin->hands, g->hands, seat_bytes(g->n));
    twin->capmoves = g->nmoves > 16 ? g->nmoves : 16;
    twin->moves = PyMem_Malloc(twin->capmoves * sizeof(uint32_t));
    if (!twin->moves) { Py_DECREF(twin); return PyErr_NoMemory(); }
    memcpy(twin->moves, g->moves, g->nmoves * sizeof(uint32_t));
    return (PyObject *)twin;
}

static int Core_traverse(Core *g, visitproc visit, void *arg) {
#define VISIT_FIELD(f) Py_VISIT(g->f);
    OBJECT_FIELDS(VISIT_FIELD)
    Py_VISIT(g->cfg);
    return 0;
}

static int Core_clear(Core *g) {
#define CLEAR_FIELD(f) Py_CLEAR(g->f);
    OBJECT_FIELDS(CLEAR_FIELD)
    Py_CLEAR(g->cfg);
    return 0;
}

static void Core_dealloc(Core *g) {
    PyTypeObject *t = Py_TYPE(g);
    PyObject_GC_UnTrack(g);
    Core_clear(g);
    PyMem_Free(g->hands);
    PyMem_Free(g->moves);
    snap_release(g->snaps);
    g->snaps = NULL;
    g->hands = NULL;
    g->moves = NULL;
    /* A subclass's type is released by subtype_dealloc, which called us. */
    t->tp_free((PyObject *)g);
}

/* ------------------------------------------------------------ getters ------------- */

#define GET(name) static PyObject *get_##name(Core *g, void *Py_UNUSED(c))
#define OBJ_GETTER(f) GET(f) { return new_ref(g->f ? g->f : Py_None); }
OBJECT_FIELDS(OBJ_GETTER)

GET(n) { return PyLong_FromLong(g->n); }
GET(hand_index) { return PyLong_FromLong(g->hand_index); }
GET(hand_number) { return PyLong_FromLong(g->hand_index + 1); }
GET(cards) { return PyLong_FromLong(g->cards); }
GET(dealer) { return PyLong_FromLong(g->dealer); }
GET(to_move) { return int_or_none(g->to_move); }
GET(leader) { return int_or_none(g->leader); }
GET(declarer) { return int_or_none(g->declarer); }
GET(is_over) { return PyBool_FromLong(g->is_over); }
GET(blind) { return PyBool_FromLong(g->blind); }
GET(trump_decided) { return PyBool_FromLong(g->trump_decided); }
GET(phase) { return new_ref(PyTuple_GET_ITEM(PHASES, g->phase)); }
GET(trump) { return suit_or_none(g->trump); }
GET(turn_up) { return g->turn_up < 0 ? new_ref(Py_None) : card_obj(g->turn_up); }
GET(scores) { return int_list(g->scores, g->n); }
GET(tricks_won) { return int_list(g->tricks_won, g->n); }
GET(winners) { return int_list(g->winners, g->nwinners); }
GET(_exact) { return int_list(g->exact, g->n); }
GET(_bid_time) { return int_list(g->bid_time, g->n); }
GET(_bid_pos) { return PyLong_FromLong(g->bid_pos); }
GET(_extra_hands) { return PyLong_FromLong(g->extra_hands); }
GET(bidding_order) { return int_tuple(g->order, g->n, 0); }

GET(bids) {
    PyObject *l = PyList_New(g->n);
    if (!l) return NULL;
    for (int s = 0; s < g->n; s++) PyList_SET_ITEM(l, s, action_obj(g->bids[s]));
    return l;
}

static PyObject *masks(const uint64_t *m, int n, int as_tuple) {
    PyObject *l = as_tuple ? PyTuple_New(n) : PyList_New(n);
    if (!l) return NULL;
    for (int s = 0; s < n; s++) {
        PyObject *x = PyLong_FromUnsignedLongLong(m[s]);
        if (!x) { Py_DECREF(l); return NULL; }
        if (as_tuple) PyTuple_SET_ITEM(l, s, x); else PyList_SET_ITEM(l, s, x);
    }
    return l;
}
GET(hands) { return masks(g->hands, g->n, 0); }
GET(dealt) { return masks(g->dealt, g->n, 1); }

GET(trick_cards) {
    int start = g->ntricks * g->n, len = g->nplayed - start;
    PyObject *l = PyList_New(len);
    if (!l) return NULL;
    for (int i = 0; i < len; i++) PyList_SET_ITEM(l, i, card_obj(g->plays[start + i]));
    return l;
}

GET(tricks) {
    PyObject *l = PyList_New(g->ntricks);
    if (!l) return NULL;
    for (int t = 0; t < g->ntricks; t++) {
        PyObject *trick = make_trick(g->trick_leader[t], g->plays + t * g->n, g->n,
                                     g->trick_winner[t]);
        if (!trick) { Py_DECREF(l); return NULL; }
        PyList_SET_ITEM(l, t, trick);
    }
    return l;
}

GET(_moves) {
    PyObject *l = PyList_New(g->nmoves);
    if (!l) return NULL;
    for (int i = 0; i < g->nmoves; i++) {
        uint32_t m = g->moves[i];
        PyObject *t = Py_BuildValue("(lNO)", (long)(m >> 16), action_obj(m & 0x7FFF),
                                    (m >> 15 & 1) ? Py_True : Py_False);
        if (!t) { Py_DECREF(l); return NULL; }
        PyList_SET_ITEM(l, i, t);
    }
    return l;
}

/* Take back the last move made by a player, and the moves the rules then made by
 * themselves (pbmserv's blind hand), across tricks, hands and the end of the game: the
 * game is again exactly as it was before that apply.  The same semantics as the
 * reference Game.undo. */
static PyObject *Core_undo(Core *g, PyObject *Py_UNUSED(ignored)) {
    if (unstarted(g)) return NULL;
    if (g->nmoves == 0) {
        PyErr_SetString(PyExc_ValueError, "there is no move to take back");
        return NULL;
    }
    for (;;) {
        uint32_t last = g->moves[--g->nmoves];
        int seat = (int)(last >> 16), code = (int)(last & 0x7FFF);
        if (code >= PLAY_CODE) {
            if (g->snaps && g->snaps->nmoves == g->nmoves + 1 && snap_pop(g) < 0) {
                g->nmoves++;
                return NULL;
            }
            if (g->nplayed == g->ntricks * g->n) { /* this card ended a trick */
                g->ntricks--;
                g->tricks_won[g->trick_winner[g->ntricks]]--;
                g->leader = g->trick_leader[g->ntricks];
            }
            g->hands[seat] |= 1ULL << g->plays[--g->nplayed];
            g->to_move = seat;
        } else if (code >= TRUMP_CODE) {
            g->phase = TRUMP;
            g->trump = -1;
            g->trump_decided = 0;
            g->leader = -1;
            g->to_move = seat;
        } else {
            /* The bids of the hand in progress are the last moves (a finished hand ends
               with cards); an earlier one by the same seat means this move changed it. */
            int earlier = -1;
            for (int i = g->nmoves - 1; i >= 0 && (int)(g->moves[i] & 0x7FFF) < TRUMP_CODE; i--)
                if ((int)(g->moves[i] >> 16) == seat) { earlier = i; break; }
            if (earlier >= 0) {
                g->bids[seat] = (int)(g->moves[earlier] & 0x7FFF);
                g->bid_time[seat] = earlier + 1;
            } else {
                g->bids[seat] = NONE_BID;
                g->bid_time[seat] = 0;
                int pos = 0;
                while (g->order[pos] != seat) pos++;
                g->bid_pos = pos;
                g->phase = BID;
                g->to_move = seat;
                g->leader = -1;
                g->declarer = -1;
            }
        }
        if (!(last >> 15 & 1)) break;
    }
    Py_RETURN_NONE;
}

/* _redeal_from(deals, deal_info): the hand just started dealt again from the last of
 * the prearranged deals given (blackout.core.fast checks that nothing of it was played). */
static PyObject *Core_redeal_from(Core *g, PyObject *args) {
    PyObject *deals, *info;
    if (unstarted(g)) return NULL;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &deals, &PyTuple_Type, &info)) return NULL;
    if (PyTuple_GET_SIZE(info) != g->hand_index + 1) {
        PyErr_SetString(PyExc_ValueError, "the deals must end with the hand in progress");
        return NULL;
    }
    Py_INCREF(deals);
    Py_SETREF(g->deals, deals);
    Py_INCREF(info);
    Py_SETREF(g->deal_info, info);
    g->ndeals = (int)PyTuple_GET_SIZE(info);
    PyObject *dealt = start_hand(g, g->hand_index, g->dealer);
    if (!dealt) return NULL;
    Py_DECREF(dealt);
    Py_RETURN_NONE;
}

static PyObject *Core_opening_events(Core *g, PyObject *Py_UNUSED(ignored)) {
    if (unstarted(g)) return NULL;
    return new_ref(g->opening);
}

#define G(name) {#name, (getter)get_##name, NULL, NULL, NULL},
static PyGetSetDef Core_getset[] = {
    OBJECT_FIELDS(G)
    G(n) G(hand_index) G(hand_number) G(cards) G(dealer) G(to_move) G(leader) G(declarer)
    G(is_over) G(blind) G(trump_decided) G(phase) G(trump) G(turn_up) G(scores) G(tricks_won)
    G(winners) G(_exact) G(_bid_time) G(_bid_pos) G(_extra_hands) G(bidding_order) G(bids)
    G(hands) G(dealt) G(trick_cards) G(tricks) G(_moves)
    {NULL}};

static PyMethodDef Core_methods[] = {
    {"legal_actions", (PyCFunction)(void (*)(void))Core_legal_actions, METH_FASTCALL,
     "What the seat to move (or `seat`) may do now."},
    {"apply", (PyCFunction)(void (*)(void))Core_apply, METH_FASTCALL | METH_KEYWORDS,
     "Make a move; return the events it caused."},
    {"copy", (PyCFunction)Core_copy, METH_NOARGS, "An independent copy (for search)."},
    {"undo", (PyCFunction)Core_undo, METH_NOARGS,
     "Take back the last move a player made, with the moves the rules then made (for "
     "search)."},
    {"opening_events", (PyCFunction)Core_opening_events, METH_NOARGS,
     "The events that started the game: the first hand's deal."},
    {"_start", (PyCFunction)Core_start, METH_VARARGS, NULL},
    {"_redeal_from", (PyCFunction)Core_redeal_from, METH_VARARGS, NULL},
    {NULL}};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "blackout.core._engine.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The state of a game and its hot operations (see blackout.core.fast).",
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_traverse = (traverseproc)Core_traverse,
    .tp_clear = (inquiry)Core_clear,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

/* ------------------------------------------------------------ config -------------- */

static void Config_dealloc(Config *c) {
    Py_XDECREF(c->rules);
    Py_XDECREF(c->card_events);
    if (c->bid_events)
        for (int i = 0; i < c->n * 55; i++) Py_XDECREF(c->bid_events[i]);
    PyMem_Free(c->bid_events);
    PyMem_Free(c->sizes);
    Py_TYPE(c)->tp_free((PyObject *)c);
}

/* Config(rules, card_events, sizes, n, teams, hook, bid_changes, blind_first,
 *        last_no_trump, trump_rule, first_bidder, leader_rule, scoring, at_least, cap,
 *        target, max_hands, tiebreak, constant, largest) */
static PyObject *Config_new(PyTypeObject *t, PyObject *args, PyObject *kw) {
    Config *c = (Config *)t->tp_alloc(t, 0);
    if (!c) return NULL;
    PyObject *sizes;
    if (!PyArg_ParseTuple(args, "OOO!iiiiiiiiiiiiiiiii", &c->rules, &c->card_events,
                          &PyTuple_Type, &sizes, &c->n, &c->teams, &c->hook, &c->bid_changes,
                          &c->blind_first, &c->last_no_trump, &c->trump_rule, &c->first_bidder,
                          &c->leader_rule, &c->scoring, &c->at_least, &c->cap, &c->target,
                          &c->max_hands, &c->tiebreak, &c->constant, &c->largest)) {
        c->rules = c->card_events = NULL;
        Py_DECREF(c);
        return NULL;
    }
    Py_INCREF(c->rules);
    Py_INCREF(c->card_events);
    c->nsizes = (int)PyTuple_GET_SIZE(sizes);
    c->sizes = PyMem_Malloc((c->nsizes + 1) * sizeof(int));
    c->bid_events = PyMem_Calloc(c->n * 55, sizeof(PyObject *));
    if (!c->sizes || !c->bid_events) { Py_DECREF(c); return PyErr_NoMemory(); }
    for (int i = 0; i < c->nsizes; i++) c->sizes[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(sizes, i));
    if (PyErr_Occurred()) { Py_DECREF(c); return NULL; }
    return (PyObject *)c;
}

static PyTypeObject ConfigType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "blackout.core._engine.Config",
    .tp_basicsize = sizeof(Config),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The rules of one game for a number of players, encoded for the engine.",
    .tp_new = Config_new,
    .tp_dealloc = (destructor)Config_dealloc,
};

/* ------------------------------------------------------------ module -------------- */

static int fetch(PyObject *d, const char *name, PyObject **out) {
    *out = PyDict_GetItemString(d, name);
    if (!*out) { PyErr_Format(PyExc_KeyError, "setup needs %s", name); return -1; }
    Py_INCREF(*out);
    return 0;
}

/* setup(names): the Python objects the engine builds its answers from. */
static PyObject *setup(PyObject *m, PyObject *d) {
    if (!PyDict_Check(d)) { PyErr_SetString(PyExc_TypeError, "setup(dict)"); return NULL; }
    PyObject *types[5];
    if (fetch(d, "CARDS", &CARDS) || fetch(d, "PLAYS", &PLAYS) || fetch(d, "BIDS", &BIDS)
        || fetch(d, "NIL", &NIL) || fetch(d, "BOARD", &BOARD)
        || fetch(d, "TRUMP_CHOICES", &TRUMP_CHOICES) || fetch(d, "SUITS", &SUITS)
        || fetch(d, "PHASES", &PHASES)
        || fetch(d, "HandResult", &HandResultType) || fetch(d, "IllegalAction", &IllegalAction)
        || fetch(d, "parse_action", &parse_action) || fetch(d, "reference_apply", &reference_apply)
        || fetch(d, "coin_choice", &coin_choice) || fetch(d, "sha512", &sha512)
        || fetch(d, "CardPlayed", &CardPlayedT) || fetch(d, "TrickTaken", &TrickTakenT)
        || fetch(d, "HandScored", &HandScoredT) || fetch(d, "GameOver", &GameOverT)
        || fetch(d, "HandDealt", &HandDealtT) || fetch(d, "BidMade", &BidMadeT)
        || fetch(d, "BidChanged", &BidChangedT) || fetch(d, "TrumpNamed", &TrumpNamedT)
        || fetch(d, "Play", &types[0]) || fetch(d, "Bid", &types[1]) || fetch(d, "Nil", &types[2])
        || fetch(d, "Board", &types[3]) || fetch(d, "ChooseTrump", &types[4]))
        return NULL;
    PlayT = (PyTypeObject *)types[0];
    BidT = (PyTypeObject *)types[1];
    NilT = (PyTypeObject *)types[2];
    BoardT = (PyTypeObject *)types[3];
    ChooseTrumpT = (PyTypeObject *)types[4];
    if ((play_card_off = member_offset(types[0], "card")) < 0
        || (bid_tricks_off = member_offset(types[1], "tricks")) < 0
        || (trump_suit_off = member_offset(types[4], "suit")) < 0)
        return NULL;
    static const char *const card_played[] = {"seat", "card", "auto", NULL};
    static const char *const hand_scored[] = {"result", NULL};
    static const char *const game_over[] = {"scores", "winners", NULL};
    static const char *const hand_dealt[] = {"hand_number", "cards", "dealer", "turn_up",
                                             "trump", "trump_decided", NULL};
    static const char *const bid_made[] = {"seat", "bid", NULL};
    static const char *const bid_changed[] = {"seat", "bid", "previous", NULL};
    static const char *const trump_named[] = {"seat", "trump", NULL};
    static const char *const hand_result[] = {"number", "cards", "dealer", "declarer", "trump",
                                              "turn_up", "bids", "tricks", "points", "totals",
                                              "made", "extra", NULL};
    if (maker_init(&mk_card_played, CardPlayedT, card_played)
        || maker_init(&mk_hand_scored, HandScoredT, hand_scored)
        || maker_init(&mk_game_over, GameOverT, game_over)
        || maker_init(&mk_hand_dealt, HandDealtT, hand_dealt)
        || maker_init(&mk_bid_made, BidMadeT, bid_made)
        || maker_init(&mk_bid_changed, BidChangedT, bid_changed)
        || maker_init(&mk_trump_named, TrumpNamedT, trump_named)
        || maker_init(&mk_hand_result, HandResultType, hand_result))
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"setup", setup, METH_O, "Give the engine the Python objects it answers with."},
    {NULL}};

static struct PyModuleDef engine_module = {
    PyModuleDef_HEAD_INIT, "_engine", "The compiled rules engine (see blackout.core.fast).", -1,
    module_methods};

PyMODINIT_FUNC PyInit__engine(void) {
    if (PyType_Ready(&CoreType) < 0 || PyType_Ready(&ConfigType) < 0) return NULL;
    PyObject *m = PyModule_Create(&engine_module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    Py_INCREF(&ConfigType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0
        || PyModule_AddObject(m, "Config", (PyObject *)&ConfigType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
