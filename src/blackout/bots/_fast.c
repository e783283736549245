/* The search bots' inner loops in C: the play-out policies, the deal sampler and the
 * basic bot's bid estimate.
 *
 * This is an optional accelerator.  Each function does exactly what its Python twin does
 * (play_out, basic_card, habit_card, play_features' scores and estimate_tricks in
 * playout.py, Sampler.sample in
 * sampling.py, basic.py's bid estimate, the replay of a basic
 * bot's cards in expert.py's _BasicEvidence), card for card; tests/test_bots_fast.py
 * plays both on thousands of deals and compares.  draw() only draws random hands.  The
 * Python modules use it when it was built and fall back to their own code when not.
 *
 * Cards are 0..51, suit = card / 13, rank = card % 13; a hand is a 52-bit mask; trump is
 * a suit number or -1 for no trump.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define NO_TRICK (-99)
#define EVERY_TRICK 99
#define MAX_PLAYERS 8
#define SUIT_BITS 0x1FFFULL
/* How a seat plays in a play-out (playout.POLICY, BASIC, HABIT). */
#define POLICY 0
#define BASIC 1
#define HABIT 2

static uint64_t suit_mask(int suit) { return SUIT_BITS << (13 * suit); }

static int popcount(uint64_t x) { return __builtin_popcountll(x); }

/* The cards of a mask in ascending order; returns how many. */
static int cards_of(uint64_t mask, int *out)
{
    int n = 0;
    while (mask) {
        out[n++] = __builtin_ctzll(mask);
        mask &= mask - 1;
    }
    return n;
}

static int trick_winner_position(const int *trick, int len, int trump)
{
    int best = trick[0], best_pos = 0;
    for (int pos = 1; pos < len; pos++) {
        int card = trick[pos];
        if (card / 13 == best / 13) {
            if (card > best) {
                best = card;
                best_pos = pos;
            }
        } else if (card / 13 == trump) {
            best = card;
            best_pos = pos;
        }
    }
    return best_pos;
}

/* The twins of blackout.core.game's beats and playable (tests/test_bots_fast.py compares). */
static int beats(int card, int best, int trump)
{
    int pair[2] = {best, card};
    return trick_winner_position(pair, 2, trump) == 1;
}

static uint64_t playable(uint64_t hand, const int *trick, int len)
{
    uint64_t follow = len ? hand & suit_mask(trick[0] / 13) : 0;
    return follow ? follow : hand;
}

static int shed_key(int card, int trump) { return card % 13 + (card / 13 == trump ? 13 : 0); }

/* min()/max() by shed_key, keeping the first of equals as Python does. */
static int lowest(const int *cards, int n, int trump)
{
    int best = cards[0];
    for (int i = 1; i < n; i++)
        if (shed_key(cards[i], trump) < shed_key(best, trump))
            best = cards[i];
    return best;
}

static int highest(const int *cards, int n, int trump)
{
    int best = cards[0];
    for (int i = 1; i < n; i++)
        if (shed_key(cards[i], trump) > shed_key(best, trump))
            best = cards[i];
    return best;
}

static uint64_t above(int card) { return suit_mask(card / 13) & ~((2ULL << card) - 1); }

static int lead(uint64_t hand, uint64_t others, int trump, int need)
{
    int cards[13 * 4], n = cards_of(hand, cards);
    if (need <= 0) {
        /* The card the most unseen cards beat, then the higher rank. */
        int best = cards[0], best_count = popcount(above(best) & others);
        for (int i = 1; i < n; i++) {
            int count = popcount(above(cards[i]) & others);
            if (count > best_count || (count == best_count && cards[i] % 13 > best % 13)) {
                best = cards[i];
                best_count = count;
            }
        }
        return best;
    }
    int masters[52], losers[52], n_masters = 0, n_losers = 0;
    for (int i = 0; i < n; i++) {
        if (others & above(cards[i]))
            losers[n_losers++] = cards[i];
        else
            masters[n_masters++] = cards[i];
    }
    if (n_masters >= need && n_masters < n)
        return lowest(losers, n_losers, trump);
    int plain_master = -1;
    for (int i = 0; i < n_masters; i++)
        if (masters[i] / 13 != trump)
            plain_master = masters[i]; /* ascending: the last is the max */
    if (plain_master >= 0)
        return plain_master;
    if (n_masters)
        return masters[n_masters - 1];
    int plain[52], n_plain = 0;
    for (int i = 0; i < n; i++)
        if (cards[i] / 13 != trump)
            plain[n_plain++] = cards[i];
    if (!n_plain) {
        for (int i = 0; i < n; i++)
            plain[i] = cards[i];
        n_plain = n;
    }
    int lengths[4];
    for (int s = 0; s < 4; s++)
        lengths[s] = popcount(hand & suit_mask(s));
    int longest = plain[0];
    for (int i = 1; i < n_plain; i++) {
        int c = plain[i];
        if (lengths[c / 13] > lengths[longest / 13]
            || (lengths[c / 13] == lengths[longest / 13] && -(c % 13) > -(longest % 13)))
            longest = c;
    }
    for (int i = 0; i < n_plain; i++)
        if (plain[i] / 13 == longest / 13)
            return plain[i]; /* ascending: the first is the min */
    return longest;
}

/* The cards (ascending) that would take the trick so far, and those that would not. */
static void split_by_trick(const int *cards, int n, const int *trick, int len, int trump,
                           int *winners, int *n_winners, int *losers, int *n_losers)
{
    int best = trick[trick_winner_position(trick, len, trump)];
    *n_winners = *n_losers = 0;
    for (int i = 0; i < n; i++) {
        int c = cards[i];
        if (beats(c, best, trump))
            winners[(*n_winners)++] = c;
        else
            losers[(*n_losers)++] = c;
    }
}

static int choose_card(uint64_t hand, uint64_t others, const int *trick, int len, int trump,
                       int need, int last, int ally_winning)
{
    if (!len)
        return lead(hand, others, trump, need);
    int cards[52], n = cards_of(playable(hand, trick, len), cards);
    int winners[52], losers[52], n_winners, n_losers;
    split_by_trick(cards, n, trick, len, trump, winners, &n_winners, losers, &n_losers);
    if (need > 0) {
        if (ally_winning)
            return lowest(cards, n, trump);
        if (n_winners)
            return last ? winners[0] : winners[n_winners - 1];
        return lowest(cards, n, trump);
    }
    if (n_losers)
        return highest(losers, n_losers, trump);
    return last ? highest(cards, n, trump) : cards[0];
}

/* The basic bot's card (bots/basic.py, individual scoring), from what that seat sees:
 * ``unseen`` is every card not in its hand, not played and not the turned-up card, so
 * unlike the search policy it cannot tell a card left in the deck from one in a hand. */
static int basic_card(uint64_t hand, uint64_t unseen, const int *trick, int len, int trump,
                      int need, int last)
{
    int cards[52], n = cards_of(playable(hand, trick, len), cards);
    if (!len) {
        if (need > 0) {
            /* A boss, plain suits first and then the highest; else the least dangerous. */
            int best = -1, best_key = -1;
            for (int i = 0; i < n; i++) {
                int c = cards[i];
                if (unseen & above(c))
                    continue;
                int key = (c / 13 != trump) * 13 + c % 13;
                if (key > best_key) {
                    best = c;
                    best_key = key;
                }
            }
            return best >= 0 ? best : lowest(cards, n, trump);
        }
        /* Plain suits first, then the most unseen cards above it, then the lowest. */
        int best = cards[0], best_plain = best / 13 != trump,
            best_out = popcount(unseen & above(best));
        for (int i = 1; i < n; i++) {
            int c = cards[i], plain = c / 13 != trump, out = popcount(unseen & above(c));
            if (plain > best_plain || (plain == best_plain && out > best_out)) {
                best = c;
                best_plain = plain;
                best_out = out;
            }
        }
        return best;
    }
    int winners[52], losers[52], n_winners, n_losers;
    split_by_trick(cards, n, trick, len, trump, winners, &n_winners, losers, &n_losers);
    if (need > 0)
        return n_winners ? lowest(winners, n_winners, trump) : lowest(cards, n, trump);
    if (n_losers)
        return highest(losers, n_losers, trump);
    return last ? highest(cards, n, trump) : lowest(cards, n, trump);
}

/* -- exact endgames ------------------------------------------------------------------ */

/* The end of a hand solved exactly, every card seen (the twin of playout.py's
 * solve_endgame): each seat plays the card that leads to the best end for itself
 * (max^n: the hand is not zero-sum, so alpha-beta's cut-offs do not apply), its value
 * being its points less ``rivalry`` times its rivals' average, points[s * stride + t]
 * being seat s's points if it ends with t tricks (individual scoring).  A seat taken for
 * a basic bot (models[s] == 1) plays basic_card instead.  Of cards that nothing still in
 * play separates only the lowest is tried; ties go to the lowest card. */
/* -- habit_card: a learnt play habit's best card ------------------------------------- */

/* The twin of playout.play_features: the features, in PLAY_FEATURES order, of each legal
 * card of ``hand`` (its scores by ``weights`` in ``scores``, the cards in ``cards``,
 * ascending); returns how many.  ``others``: the unplayed cards not in ``hand``.  Each
 * score sums weight times feature over every feature in order, as Python's sum does, so
 * the two give the same floating-point number. */
#define PLAY_FEATURE_COUNT 24

static int play_scores(uint64_t hand, uint64_t others, const int *trick, int len, int trump,
                       int need, int last, const double *weights, int *cards, double *scores)
{
    int n = cards_of(playable(hand, trick, len), cards);
    int keys[13 * 4], wins[13 * 4], higher[13 * 4];
    int high = -1, low = 99, leading = len == 0;
    int best = len ? trick[trick_winner_position(trick, len, trump)] : -1;
    for (int i = 0; i < n; i++) {
        keys[i] = shed_key(cards[i], trump);
        if (keys[i] > high)
            high = keys[i];
        if (keys[i] < low)
            low = keys[i];
        wins[i] = len && beats(cards[i], best, trump);
        higher[i] = popcount(others & above(cards[i]));
    }
    /* _tactics: following, the cheapest winner and the dearest loser (by key, then card);
     * leading, the best top card (plain first, then rank, then the lower card) and the
     * card the most unseen cards beat (plain first, then that count, then the lower). */
    int cheapest_win = -1, dearest_loss = -1, best_top = -1, most_out = -1;
    for (int i = 0; i < n; i++) {
        int c = cards[i], plain = c / 13 != trump;
        if (!leading) {
            if (wins[i] && (cheapest_win < 0 || keys[i] < shed_key(cheapest_win, trump)))
                cheapest_win = c;
            if (!wins[i] && (dearest_loss < 0 || keys[i] >= shed_key(dearest_loss, trump)))
                dearest_loss = c;
            continue;
        }
        if (!higher[i]) {
            int top_plain = best_top >= 0 && best_top / 13 != trump;
            if (best_top < 0 || plain > top_plain ||
                (plain == top_plain && c % 13 > best_top % 13))
                best_top = c;
        }
        if (most_out < 0) {
            most_out = c;
        } else {
            int out_plain = most_out / 13 != trump, out_higher = popcount(others & above(most_out));
            if (plain > out_plain || (plain == out_plain && higher[i] > out_higher))
                most_out = c;
        }
    }
    double wants = need > 0 ? 1.0 : 0.0, done = 1.0 - wants;
    for (int i = 0; i < n; i++) {
        int c = cards[i], suit = c / 13;
        double r = (c % 13) / 12.0, is_trump = suit == trump ? 1.0 : 0.0;
        double win = wins[i] ? 1.0 : 0.0, top = higher[i] ? 0.0 : 1.0;
        double is_high = keys[i] == high ? 1.0 : 0.0, is_low = keys[i] == low ? 1.0 : 0.0;
        int following = len && suit == trick[0] / 13;
        double discarding = !leading && !following ? 1.0 : 0.0;
        double row[PLAY_FEATURE_COUNT] = {
            r, is_trump, r * leading, is_trump * leading, win, win * wants,
            win * last * wants, win * last * done, is_high, is_low,
            is_high * wants, is_low * done,
            r * (discarding * (1.0 - is_trump)), is_trump * discarding, r * leading * wants,
            top, top * wants, top * leading,
            (c == cheapest_win) * wants, (c == dearest_loss) * done,
            is_low * wants, is_high * last * done,
            (c == best_top) * wants, (c == most_out) * done,
        };
        double score = 0.0;
        for (int f = 0; f < PLAY_FEATURE_COUNT; f++)
            score += weights[f] * row[f];
        scores[i] = score;
    }
    return n;
}

/* The legal card of the highest score, the lowest of equals (playout.habit_card). */
static int habit_card(uint64_t hand, uint64_t others, const int *trick, int len, int trump,
                      int need, int last, const double *weights)
{
    int cards[13 * 4];
    double scores[13 * 4];
    int n = play_scores(hand, others, trick, len, trump, need, last, weights, cards, scores);
    int best = 0;
    for (int i = 1; i < n; i++)
        if (scores[i] > scores[best])
            best = i;
    return cards[best];
}

typedef struct {
    int n, trump, stride;
    const double *points;
    double rivalry;
    const int *models, *targets;
    uint64_t deck;
    const double *weights; /* PLAY_FEATURE_COUNT a seat, for the HABIT seats */
} Endgame;

static double end_value(const Endgame *e, int seat, const int *won)
{
    double own = e->points[seat * e->stride + won[seat]];
    if (e->rivalry == 0.0)
        return own;
    double others = 0.0;
    for (int s = 0; s < e->n; s++)
        if (s != seat)
            others += e->points[s * e->stride + won[s]];
    return own - e->rivalry * others / (e->n - 1);
}

static void solve(const Endgame *e, uint64_t *hands, int leader, int *trick, int len, int *won,
                  int *result)
{
    int n = e->n;
    uint64_t remaining = 0;
    for (int s = 0; s < n; s++)
        remaining |= hands[s];
    if (!remaining) {
        memcpy(result, won, n * sizeof(int));
        return;
    }
    int seat = (leader + len) % n;
    uint64_t hand = hands[seat], in_play = remaining;
    for (int i = 0; i < len; i++)
        in_play |= 1ULL << trick[i];
    int cards[52], count;
    if (e->models[seat] == BASIC) {
        cards[0] = basic_card(hand, (remaining & ~hand) | e->deck, trick, len, e->trump,
                              e->targets[seat] - won[seat], len == n - 1);
        count = 1;
    } else if (e->models[seat] == HABIT) {
        cards[0] = habit_card(hand, (remaining & ~hand) | e->deck, trick, len, e->trump,
                              e->targets[seat] - won[seat], len == n - 1,
                              e->weights + seat * PLAY_FEATURE_COUNT);
        count = 1;
    } else {
        count = cards_of(playable(hand, trick, len), cards);
    }
    double best = -1e300;
    int child[MAX_PLAYERS], previous = -2;
    for (int i = 0; i < count; i++) {
        int card = cards[i];
        /* Equal to the card tried before it: same suit, nothing in play between them. */
        if (previous >= 0 && previous / 13 == card / 13 &&
            !(in_play & ((1ULL << card) - 1) & ~((2ULL << previous) - 1))) {
            previous = card;
            continue;
        }
        previous = card;
        hands[seat] = hand & ~(1ULL << card);
        trick[len] = card;
        if (len + 1 == n) {
            int winner = (leader + trick_winner_position(trick, n, e->trump)) % n;
            int saved[MAX_PLAYERS];
            memcpy(saved, trick, n * sizeof(int));
            won[winner]++;
            solve(e, hands, winner, trick, 0, won, child);
            won[winner]--;
            memcpy(trick, saved, n * sizeof(int));
        } else {
            solve(e, hands, leader, trick, len + 1, won, child);
        }
        hands[seat] = hand;
        double value = end_value(e, seat, child);
        if (value > best) {
            best = value;
            memcpy(result, child, n * sizeof(int));
        }
    }
}

/* models[seat]: POLICY plays the search policy (choose_card), BASIC the basic bot's rules
 * (basic_card), HABIT its habit's best card (habit_card, by the seat's row of
 * ``weights``); the last two see ``deck``, the cards nobody holds, as possibly held.
 * With an ``endgame`` (not NULL) the last ``end_tricks`` tricks are solved exactly (see
 * solve). */
static void play_out(uint64_t *hands, int n, int trump, int leader, int *trick, int len,
                     int *won, const int *targets, int teams, int greedy, const int *models,
                     uint64_t deck, const double *weights, const Endgame *endgame,
                     int end_tricks)
{
    uint64_t remaining = 0;
    for (int s = 0; s < n; s++)
        remaining |= hands[s];
    int seat = (leader + len) % n;
    while (remaining) {
        if (endgame && popcount(remaining) + len <= end_tricks * n) {
            int result[MAX_PLAYERS];
            solve(endgame, hands, leader, trick, len, won, result);
            memcpy(won, result, n * sizeof(int));
            return;
        }
        uint64_t hand = hands[seat];
        int target = targets[seat], need;
        if (target == NO_TRICK)
            need = -1;
        else if (teams)
            need = target - won[seat] - won[(seat + 2) % 4];
        else
            need = target - won[seat];
        if (need < 0 && greedy)
            need = EVERY_TRICK;
        int ally_winning = 0;
        if (teams && len && targets[(seat + 2) % 4] != NO_TRICK)
            ally_winning = (leader + trick_winner_position(trick, len, trump)) % n == (seat + 2) % 4;
        int card;
        if (models[seat] == BASIC)
            card = basic_card(hand, (remaining & ~hand) | deck, trick, len, trump,
                              target - won[seat], len == n - 1);
        else if (models[seat] == HABIT)
            card = habit_card(hand, (remaining & ~hand) | deck, trick, len, trump,
                              target - won[seat], len == n - 1,
                              weights + seat * PLAY_FEATURE_COUNT);
        else
            card = choose_card(hand, remaining & ~hand, trick, len, trump, need, len == n - 1,
                               ally_winning);
        hands[seat] = hand & ~(1ULL << card);
        remaining &= ~(1ULL << card);
        trick[len++] = card;
        if (len == n) {
            leader = (leader + trick_winner_position(trick, len, trump)) % n;
            won[leader]++;
            len = 0;
            seat = leader;
        } else {
            seat = (seat + 1) % n;
        }
    }
}

/* -- estimate_tricks --------------------------------------------------------------------- */

/* _PLAIN of playout.py: a plain ten, king and ace's worth by the suit's length (1..4+). */
static const double PLAIN[3][4] = {
    {0.05, 0.15, 0.35, 0.3},
    {0.2, 0.55, 0.55, 0.45},
    {0.85, 0.85, 0.8, 0.75},
};
#define HIGH_CARD_SHARE 0.145

static double estimate_tricks(uint64_t hand, int trump, int players)
{
    double total = 0.0;
    for (int suit = 0; suit < 4; suit++) {
        unsigned bits = (unsigned)(hand >> (13 * suit) & SUIT_BITS);
        int length = popcount(bits);
        if (!length)
            continue;
        if (suit == trump) {
            static const double TRUMP[13] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0.45, 0.65, 0.85, 1.0};
            for (int rank = 0; rank < 13; rank++)
                if (bits >> rank & 1)
                    total += TRUMP[rank];
            total += (length > 3 ? length - 3 : 0) * 0.55;
        } else {
            int column = (length < 4 ? length : 4) - 1;
            for (int rank = 12; rank >= 10; rank--)
                if (bits >> rank & 1)
                    total += PLAIN[rank - 10][column];
            if (trump == -1)
                total += (length > 4 ? length - 4 : 0) * 0.4;
        }
    }
    double scale = pow(4.0 / players, 0.5); /* as Python's ** 0.5, to the last bit */
    int cards = popcount(hand);
    double fair = (double)cards / players - HIGH_CARD_SHARE * cards * scale;
    return total * scale + (fair > 0.0 ? fair : 0.0);
}

/* -- basic's bid estimate ------------------------------------------------------------------ */

/* basic.py's trick_chances and tricks_distribution, operation for operation (a test
 * compares the two): the chance each card takes a trick, then the distribution of the
 * number taken.  Its constants: */
#define GUARD_SURVIVAL 0.55
#define LENGTH_DISCOUNT 0.8
#define RUFF_CHANCE 0.55
#define SIDE_FLOOR_SCALE 1.1

typedef struct {
    uint64_t hand, unseen;
    int cards, players, leads_first;
    double in_play, shares[4];
} BidTable;

static double choose(int n, int k) /* Python's comb(); exact for the n (<= 52) met here */
{
    unsigned long long c = 1;
    for (int i = 1; i <= k; i++)
        c = c * (unsigned long long)(n - k + i) / (unsigned long long)i;
    return (double)c;
}

static double binomial_below(int trials, double p, int below)
{
    double total = 0.0;
    int top = below < trials + 1 ? below : trials + 1;
    for (int k = 0; k < top; k++)
        total += choose(trials, k) * pow(p, k) * pow(1 - p, trials - k);
    return total;
}

static double high_chance(int higher, int guards, double in_play)
{
    double total = 0.0;
    int top = higher < guards ? higher : guards;
    for (int m = 0; m <= top; m++)
        total += choose(higher, m) * pow(in_play, m) * pow(1 - in_play, higher - m)
                 * pow(GUARD_SURVIVAL, m);
    return total;
}

static double lead_access(int cards, int players, int leads_first, int rounds)
{
    double my_leads = (double)(cards - 1) / players + (leads_first ? 1.0 : 0.0);
    double other_leads = cards - my_leads;
    double share = 1 - my_leads / rounds;
    double missing = (share > 0.0 ? share : 0.0) * pow(0.75, other_leads / rounds);
    return 1 - (missing < 1.0 ? missing : 1.0);
}

static double card_chance(const BidTable *t, int card, int position, int length, int trump)
{
    int suit = card / 13;
    uint64_t higher = t->unseen & above(card);
    double chance = high_chance(popcount(higher), length - position - 1, t->in_play);
    double share = t->shares[suit];
    if (suit != trump)
        chance *= lead_access(t->cards, t->players, t->leads_first, position + 1);
    if (trump != -1 && suit != trump) {
        double void_chance = binomial_below(t->cards, share, position + 1);
        double holds_trump = 1 - pow(1 - t->shares[trump], t->cards);
        return chance * pow(1 - void_chance * holds_trump, t->players - 1);
    }
    if (position < 2)
        return chance;
    double run_out = pow(binomial_below(t->cards, share, position + 1), t->players - 1);
    double long_card = LENGTH_DISCOUNT * run_out;
    return chance >= long_card ? chance : long_card;
}

static double calibrated(double p, int is_trump, int players)
{
    if (is_trump)
        return 1 - (1 - p) * (1 - (1 + p) / players);
    double floor_chance = SIDE_FLOOR_SCALE / (players * players);
    return floor_chance + (1 - floor_chance) * pow(p, 1.4);
}

/* Python's round() of half the count: halves go to the even neighbour. */
static int round_half_even(int halves)
{
    int whole = halves / 2;
    return halves % 2 && whole % 2 ? whole + 1 : whole;
}

/* Fills dist[0..n] for the n cards of t->hand; returns n. */
static int bid_distribution(const BidTable *t, int trump, double *dist)
{
    double chances[52];
    int n = 0;
    for (int suit = 0; suit < 4; suit++) {
        int mine[13], length = 0;
        for (int card = 13 * suit + 12; card >= 13 * suit; card--)
            if (t->hand >> card & 1)
                mine[length++] = card;
        double suit_chances[13];
        for (int i = 0; i < length; i++)
            suit_chances[i] = card_chance(t, mine[i], i, length, trump);
        if (suit == trump && t->cards >= 3) { /* low trumps ruff short side suits */
            int halves = 0;
            for (int side = 0; side < 4; side++) {
                int count = side == trump ? 2 : popcount(t->hand & suit_mask(side));
                halves += count == 0 ? 2 : count == 1 ? 1 : 0;
            }
            int ruffs = round_half_even(halves);
            for (int i = length - (ruffs < length ? ruffs : length); i < length; i++)
                if (suit_chances[i] < RUFF_CHANCE)
                    suit_chances[i] = RUFF_CHANCE;
        }
        for (int i = 0; i < length; i++)
            chances[n++] = calibrated(suit_chances[i], suit == trump, t->players);
    }
    dist[0] = 1.0;
    for (int i = 0; i < n; i++) {
        double p = chances[i];
        dist[i + 1] = 0.0;
        for (int k = i; k >= 0; k--) {
            dist[k + 1] += dist[k] * p;
            dist[k] = dist[k] * (1 - p);
        }
    }
    return n;
}

/* -- the sampler -------------------------------------------------------------------------- */

/* splitmix64: small, fast and good enough to shuffle cards. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

typedef struct {
    int players, hidden_count, pool_size;
    int hidden[MAX_PLAYERS], counts[MAX_PLAYERS];
    uint64_t known[MAX_PLAYERS], allowed[MAX_PLAYERS];
    int pool[52];
} Sampler;

static int try_deal(const Sampler *sm, uint64_t *state, int respect_voids, uint64_t *hands)
{
    int pool[52];
    for (int i = 0; i < sm->pool_size; i++)
        pool[i] = sm->pool[i];
    for (int i = sm->pool_size - 1; i > 0; i--) {
        int j = (int)(next_random(state) % (uint64_t)(i + 1));
        int t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
    }
    for (int s = 0; s < sm->players; s++)
        hands[s] = sm->known[s];
    uint64_t taken = 0;
    for (int h = 0; h < sm->hidden_count; h++) {
        int seat = sm->hidden[h];
        uint64_t allowed = respect_voids ? sm->allowed[seat] : ~0ULL, hand = 0;
        int want = sm->counts[seat];
        for (int i = 0; i < sm->pool_size && want; i++) {
            uint64_t bit = 1ULL << pool[i];
            if ((allowed & bit) && !(taken & bit)) {
                hand |= bit;
                want--;
            }
        }
        if (want)
            return 0;
        taken |= hand;
        hands[seat] = hand;
    }
    return 1;
}

/* -- Python wrappers ---------------------------------------------------------------------- */

static int read_masks(PyObject *seq, uint64_t *out, int n, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: expected %d items", what, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        out[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}


/* ``seq`` as a fast sequence of at most ``max`` items (their number in ``n``), or NULL
 * with an exception set. */
static PyObject *open_sequence(PyObject *seq, int max, const char *what, int *n)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast)
        return NULL;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    if (size > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: more than %d items", what, max);
        return NULL;
    }
    *n = (int)size;
    return fast;
}

static int read_ints(PyObject *seq, int *out, int max, const char *what)
{
    int n;
    PyObject *fast = open_sequence(seq, max, what, &n);
    if (!fast)
        return -1;
    for (int i = 0; i < n && !PyErr_Occurred(); i++)
        out[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
    Py_DECREF(fast);
    return PyErr_Occurred() ? -1 : n;
}

static int read_doubles(PyObject *seq, double *out, int max, const char *what)
{
    int n;
    PyObject *fast = open_sequence(seq, max, what, &n);
    if (!fast)
        return -1;
    for (int i = 0; i < n && !PyErr_Occurred(); i++)
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
    Py_DECREF(fast);
    return PyErr_Occurred() ? -1 : n;
}

static PyObject *masks_to_list(const uint64_t *masks, int n)
{
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *value = PyLong_FromUnsignedLongLong(masks[i]);
        if (!value) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, value);
    }
    return list;
}

PyDoc_STRVAR(play_out_doc,
             "play_out(hands, trump, leader, trick, won, targets, teams, greedy, models, deck"
             "[, points, end_tricks, rivalry, weights]) -> list\n\n"
             "The tricks won at the end of the hand; see blackout.bots.playout.play_out.");

#define MAX_POINTS (MAX_PLAYERS * 14)

static PyObject *py_play_out(PyObject *self, PyObject *args)
{
    PyObject *hands_seq, *trick_seq, *won_seq, *targets_seq, *models_seq, *points_seq = NULL;
    PyObject *weights_seq = NULL;
    int trump, leader, teams, greedy, end_tricks = 0;
    double rivalry = 0.0;
    unsigned long long deck;
    if (!PyArg_ParseTuple(args, "OiiOOOppOK|OidO", &hands_seq, &trump, &leader, &trick_seq,
                          &won_seq, &targets_seq, &teams, &greedy, &models_seq, &deck,
                          &points_seq, &end_tricks, &rivalry, &weights_seq))
        return NULL;
    int won[MAX_PLAYERS], targets[MAX_PLAYERS], trick[MAX_PLAYERS], models[MAX_PLAYERS];
    int n = read_ints(won_seq, won, MAX_PLAYERS, "won");
    if (n < 0)
        return NULL;
    uint64_t hands[MAX_PLAYERS];
    if (read_masks(hands_seq, hands, n, "hands") < 0)
        return NULL;
    int len = read_ints(trick_seq, trick, n - 1, "trick");
    if (len < 0 || read_ints(targets_seq, targets, MAX_PLAYERS, "targets") != n) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "targets: one per player");
        return NULL;
    }
    if (read_ints(models_seq, models, MAX_PLAYERS, "models") != n) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "models: one per player");
        return NULL;
    }
    double weights[MAX_PLAYERS * PLAY_FEATURE_COUNT];
    int habits = 0;
    for (int s = 0; s < n; s++) {
        if (models[s] < POLICY || models[s] > HABIT) {
            PyErr_SetString(PyExc_ValueError, "models: POLICY, BASIC or HABIT");
            return NULL;
        }
        habits |= models[s] == HABIT;
    }
    if (habits) {
        int size = weights_seq && weights_seq != Py_None
                       ? read_doubles(weights_seq, weights, n * PLAY_FEATURE_COUNT, "weights")
                       : 0;
        if (size < 0)
            return NULL;
        if (size != n * PLAY_FEATURE_COUNT) {
            PyErr_SetString(PyExc_ValueError, "weights: one row of play weights per player");
            return NULL;
        }
    }
    double points[MAX_POINTS];
    Endgame endgame = {n, trump, 0, points, rivalry, models, targets, deck, weights};
    if (points_seq && points_seq != Py_None && end_tricks > 0) {
        int size = read_doubles(points_seq, points, MAX_POINTS, "points");
        if (size < 0)
            return NULL;
        if (size % n || size / n < 2) {
            PyErr_SetString(PyExc_ValueError, "points: one row of 2 to 14 values per player");
            return NULL;
        }
        endgame.stride = size / n;
    }
    play_out(hands, n, trump, leader, trick, len, won, targets, teams, greedy, models, deck,
             weights, endgame.stride ? &endgame : NULL, end_tricks);
    PyObject *result = PyList_New(n);
    if (!result)
        return NULL;
    for (int i = 0; i < n; i++)
        PyList_SET_ITEM(result, i, PyLong_FromLong(won[i]));
    return result;
}

PyDoc_STRVAR(winner_doc, "trick_winner_position(cards, trump) -> int");

static PyObject *py_trick_winner_position(PyObject *self, PyObject *args)
{
    PyObject *trick_seq;
    int trump, trick[MAX_PLAYERS];
    if (!PyArg_ParseTuple(args, "Oi", &trick_seq, &trump))
        return NULL;
    int len = read_ints(trick_seq, trick, MAX_PLAYERS, "trick");
    if (len < 0)
        return NULL;
    if (!len) {
        PyErr_SetString(PyExc_ValueError, "trick: no card");
        return NULL;
    }
    return PyLong_FromLong(trick_winner_position(trick, len, trump));
}

PyDoc_STRVAR(basic_card_doc,
             "basic_card(hand, unseen, trick, trump, need, last) -> int\n\n"
             "The basic bot's card; see blackout.bots.playout.basic_card.");

static PyObject *py_basic_card(PyObject *self, PyObject *args)
{
    unsigned long long hand, unseen;
    PyObject *trick_seq;
    int trump, need, last, trick[MAX_PLAYERS];
    if (!PyArg_ParseTuple(args, "KKOiip", &hand, &unseen, &trick_seq, &trump, &need, &last))
        return NULL;
    int len = read_ints(trick_seq, trick, MAX_PLAYERS - 1, "trick");
    if (len < 0)
        return NULL;
    if (!hand) {
        PyErr_SetString(PyExc_ValueError, "hand: no card to play");
        return NULL;
    }
    return PyLong_FromLong(basic_card(hand, unseen, trick, len, trump, need, last));
}

/* The arguments of habit_card and play_scores; 0 with an exception set if wrong. */
static int read_habit_args(PyObject *args, uint64_t *hand, uint64_t *others, int *trick,
                           int *len, int *trump, int *need, int *last, double *weights)
{
    unsigned long long hand_bits, others_bits;
    PyObject *trick_seq, *weights_seq;
    if (!PyArg_ParseTuple(args, "KKOiipO", &hand_bits, &others_bits, &trick_seq, trump, need,
                          last, &weights_seq))
        return 0;
    *hand = hand_bits;
    *others = others_bits;
    *len = read_ints(trick_seq, trick, MAX_PLAYERS - 1, "trick");
    if (*len < 0)
        return 0;
    int size = read_doubles(weights_seq, weights, PLAY_FEATURE_COUNT, "weights");
    if (size < 0)
        return 0;
    if (size != PLAY_FEATURE_COUNT) {
        PyErr_Format(PyExc_ValueError, "weights: expected %d items", PLAY_FEATURE_COUNT);
        return 0;
    }
    if (!*hand) {
        PyErr_SetString(PyExc_ValueError, "hand: no card to play");
        return 0;
    }
    return 1;
}

PyDoc_STRVAR(habit_card_doc,
             "habit_card(hand, others, trick, trump, need, last, weights) -> int");

static PyObject *py_habit_card(PyObject *self, PyObject *args)
{
    uint64_t hand, others;
    int trick[MAX_PLAYERS], len, trump, need, last;
    double weights[PLAY_FEATURE_COUNT];
    if (!read_habit_args(args, &hand, &others, trick, &len, &trump, &need, &last, weights))
        return NULL;
    return PyLong_FromLong(habit_card(hand, others, trick, len, trump, need, last, weights));
}

PyDoc_STRVAR(play_scores_doc,
             "play_scores(hand, others, trick, trump, need, last, weights) -> list");

static PyObject *py_play_scores(PyObject *self, PyObject *args)
{
    uint64_t hand, others;
    int trick[MAX_PLAYERS], len, trump, need, last, cards[13 * 4];
    double weights[PLAY_FEATURE_COUNT], scores[13 * 4];
    if (!read_habit_args(args, &hand, &others, trick, &len, &trump, &need, &last, weights))
        return NULL;
    int n = play_scores(hand, others, trick, len, trump, need, last, weights, cards, scores);
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *score = PyFloat_FromDouble(scores[i]);
        if (!score) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, score);
    }
    return list;
}

PyDoc_STRVAR(estimate_doc, "estimate_tricks(hand, trump, players) -> float");

static PyObject *py_estimate_tricks(PyObject *self, PyObject *args)
{
    unsigned long long hand;
    int trump, players;
    if (!PyArg_ParseTuple(args, "Kii", &hand, &trump, &players))
        return NULL;
    return PyFloat_FromDouble(estimate_tricks(hand, trump, players));
}

/* Fills sm from sample()'s arguments; -1 with a Python error set when they are wrong. */
static int read_sampler(Sampler *sm, PyObject *known_seq, PyObject *hidden_seq,
                        PyObject *counts_seq, PyObject *allowed_seq, uint64_t unseen)
{
    sm->players = read_ints(counts_seq, sm->counts, MAX_PLAYERS, "counts");
    if (sm->players < 0)
        return -1;
    sm->hidden_count = read_ints(hidden_seq, sm->hidden, MAX_PLAYERS, "hidden");
    if (sm->hidden_count < 0 || read_masks(known_seq, sm->known, sm->players, "known") < 0
        || read_masks(allowed_seq, sm->allowed, sm->players, "allowed") < 0)
        return -1;
    for (int h = 0; h < sm->hidden_count; h++)
        if (sm->hidden[h] < 0 || sm->hidden[h] >= sm->players) {
            PyErr_SetString(PyExc_ValueError, "hidden: a seat out of range");
            return -1;
        }
    if (unseen >> 52) {
        PyErr_SetString(PyExc_ValueError, "unseen: cards are 0..51");
        return -1;
    }
    sm->pool_size = cards_of(unseen, sm->pool);
    return 0;
}

/* One deal from a seed that keeps the voids, if one of void_tries shuffles does (else 0:
   sampling.py deals suit by suit). */
static int deal(const Sampler *sm, uint64_t seed, int void_tries, uint64_t *hands)
{
    uint64_t state = seed;
    for (int v = 0; v < void_tries; v++)
        if (try_deal(sm, &state, 1, hands))
            return 1;
    return 0;
}

PyDoc_STRVAR(sample_doc,
             "sample(seed, known, hidden, counts, allowed, unseen, void_tries) -> list | None\n\n"
             "One deal of the hidden cards, or None if no shuffle kept the voids; see\n"
             "blackout.bots.sampling.Sampler.");

static PyObject *py_sample(PyObject *self, PyObject *args)
{
    unsigned long long seed, unseen;
    PyObject *known_seq, *hidden_seq, *counts_seq, *allowed_seq;
    int void_tries;
    if (!PyArg_ParseTuple(args, "KOOOOKi", &seed, &known_seq, &hidden_seq, &counts_seq,
                          &allowed_seq, &unseen, &void_tries))
        return NULL;
    Sampler sm;
    if (read_sampler(&sm, known_seq, hidden_seq, counts_seq, allowed_seq, unseen) < 0)
        return NULL;
    uint64_t hands[MAX_PLAYERS];
    if (!deal(&sm, seed, void_tries, hands))
        Py_RETURN_NONE;
    return masks_to_list(hands, sm.players);
}

PyDoc_STRVAR(bid_distribution_doc,
             "bid_distribution(hand, unseen, cards, players, leads_first, trump) -> list\n\n"
             "basic.py's tricks_distribution(trick_chances(...)) for one hand.");

static PyObject *py_bid_distribution(PyObject *self, PyObject *args)
{
    BidTable t;
    unsigned long long hand, unseen;
    int trump;
    if (!PyArg_ParseTuple(args, "KKiipi", &hand, &unseen, &t.cards, &t.players,
                          &t.leads_first, &trump))
        return NULL;
    if (t.players < 1 || trump < -1 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "players must be positive and trump -1..3");
        return NULL;
    }
    t.hand = hand;
    t.unseen = unseen;
    int unseen_count = popcount(unseen) > 1 ? popcount(unseen) : 1;
    double in_play = (double)(t.cards * (t.players - 1)) / unseen_count;
    t.in_play = in_play < 1.0 ? in_play : 1.0;
    for (int suit = 0; suit < 4; suit++)
        t.shares[suit] = (double)popcount(unseen & suit_mask(suit)) / unseen_count;
    double dist[53];
    int n = bid_distribution(&t, trump, dist);
    PyObject *list = PyList_New(n + 1);
    if (list == NULL)
        return NULL;
    for (int k = 0; k <= n; k++) {
        PyObject *item = PyFloat_FromDouble(dist[k]);
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, item);
    }
    return list;
}

PyDoc_STRVAR(draw_doc,
             "draw(seed, cards, want, count) -> list\n\n"
             "count hands of want cards each, drawn at random from the mask cards.");

#define MAX_DRAWS 1024

static PyObject *py_draw(PyObject *self, PyObject *args)
{
    unsigned long long seed, cards;
    int want, count;
    if (!PyArg_ParseTuple(args, "KKii", &seed, &cards, &want, &count))
        return NULL;
    int pool[64];
    int n = cards_of(cards, pool);
    if (want < 0 || want > n || count < 0 || count > MAX_DRAWS) {
        PyErr_SetString(PyExc_ValueError, "draw: want must be 0..len(cards), count 0..1024");
        return NULL;
    }
    uint64_t state = seed, hands[MAX_DRAWS];
    for (int i = 0; i < count; i++) {
        hands[i] = 0;
        for (int k = 0; k < want; k++) { /* a partial Fisher-Yates shuffle */
            int j = k + (int)(next_random(&state) % (uint64_t)(n - k));
            int t = pool[k];
            pool[k] = pool[j];
            pool[j] = t;
            hands[i] |= 1ULL << pool[k];
        }
    }
    return masks_to_list(hands, count);
}

PyDoc_STRVAR(replays_doc,
             "replays_basic(hand, plays, trump, last) -> bool\n\n"
             "Whether basic_card, holding hand besides each play's later cards, plays each\n"
             "card of plays: int64 records of (later cards, unseen, need, card, trick\n"
             "length, six trick cards); last is the trick length of a trick's last seat.");

#define REPLAY_FIELDS 11

static PyObject *py_replays_basic(PyObject *self, PyObject *args)
{
    unsigned long long hand;
    Py_buffer plays;
    int trump, last;
    if (!PyArg_ParseTuple(args, "Ky*ii", &hand, &plays, &trump, &last))
        return NULL;
    const int64_t *record = plays.buf;
    Py_ssize_t count = plays.len / (Py_ssize_t)(REPLAY_FIELDS * sizeof(int64_t));
    int fits = plays.len % (Py_ssize_t)(REPLAY_FIELDS * sizeof(int64_t)) == 0;
    for (Py_ssize_t r = 0; fits && r < count; r++, record += REPLAY_FIELDS) {
        uint64_t held = hand | (uint64_t)record[0];
        int len = (int)record[4], trick[MAX_PLAYERS];
        if (len < 0 || len > 6) {
            fits = 0;
            break;
        }
        for (int i = 0; i < len; i++)
            trick[i] = (int)record[5 + i];
        fits = basic_card(held, (uint64_t)record[1] & ~held, trick, len, trump,
                          (int)record[2], len == last) == (int)record[3];
    }
    PyBuffer_Release(&plays);
    return PyBool_FromLong(fits);
}

static PyMethodDef methods[] = {
    {"play_out", py_play_out, METH_VARARGS, play_out_doc},
    {"basic_card", py_basic_card, METH_VARARGS, basic_card_doc},
    {"habit_card", py_habit_card, METH_VARARGS, habit_card_doc},
    {"play_scores", py_play_scores, METH_VARARGS, play_scores_doc},
    {"trick_winner_position", py_trick_winner_position, METH_VARARGS, winner_doc},
    {"estimate_tricks", py_estimate_tricks, METH_VARARGS, estimate_doc},
    {"sample", py_sample, METH_VARARGS, sample_doc},
    {"draw", py_draw, METH_VARARGS, draw_doc},
    {"replays_basic", py_replays_basic, METH_VARARGS, replays_doc},
    {"bid_distribution", py_bid_distribution, METH_VARARGS, bid_distribution_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "blackout.bots._fast",
    "The search bots' inner loops in C (see _fast.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__fast(void) { return PyModule_Create(&module); }
