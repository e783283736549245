"""Boards, histories and tables as plain text, for the terminal and for mail.

A board is drawn from one seat's view (:meth:`blackout.Game.view`), so it holds only
the cards that seat may see; an outsider's board holds no unplayed card at all.
"""

from __future__ import annotations

import json

from blackout.core.cards import Card, cards_in
from blackout.core.scoresheet import ScoreSheet
from blackout.core.view import View
from blackout.service import Snapshot, Standing


def cards_text(cards: list[Card] | tuple[Card, ...]) -> str:
    return " ".join(str(card) for card in cards) or "-"


def _names(snap: Snapshot) -> list[str]:
    names = []
    for seat in snap.seats:
        if seat.resigned:
            names.append(f"{seat.name} (now {seat.controller})")
        else:
            names.append(seat.name)
    return names


def board_text(snap: Snapshot, seat: int | None = None, title: str = "") -> str:
    """The board as ``seat`` sees it (``None``: an outsider, who sees no hand)."""
    game = snap.game
    names = list(game.players)
    lines = [f"Board {snap.board}: blackout ({game.rules.variant}){title}",
             "Players: " + ", ".join(f"{i + 1}. {n}" for i, n in enumerate(_names(snap)))]
    # A replay of an earlier position (fewer moves than stored) shows that position.
    earlier = len(snap.moves) < snap.row.move_count
    if game.is_over or (snap.row.status != "active" and not earlier):
        lines.append(_result_line(snap))
    else:
        lines += _hand_lines(snap, game.view(seat) if seat is not None else game.public_view(),
                             seat)
    if game.hands_played:
        sheet = ScoreSheet(game.rules, names)
        sheet.rows = list(game.hands_played)
        sheet.totals = list(game.scores)
        lines += ["", "Score sheet:", sheet.render()]
    lines += _comment_lines(snap, seat)
    return "\n".join(lines)


def _result_line(snap: Snapshot) -> str:
    result = json.loads(snap.row.result or "{}")
    names = snap.game.players
    winners = ", ".join(names[s] for s in result.get("winners", [])) or "nobody"
    scores = ", ".join(f"{n} {s}" for n, s in zip(names, snap.game.scores, strict=True))
    ended = "was forfeited" if snap.row.status == "forfeited" else "has ended"
    return f"The game {ended}. Winner: {winners}. Scores: {scores}."


def _hand_lines(snap: Snapshot, view: View, seat: int | None) -> list[str]:
    game = snap.game
    names = game.players
    plural = "s" if view.cards_dealt > 1 else ""
    lines = [f"Hand {view.hand_number}, {view.cards_dealt} card{plural} each, "
             f"dealer {names[view.dealer]}"]
    if not view.trump_decided:
        lines.append("Trump: named by the declarer after the bidding")
    else:
        trump = "no trump" if view.trump is None else view.trump.plural
        turned = f" (turned up {view.turn_up})" if view.turn_up is not None else ""
        declarer = f", named by {names[view.declarer]}" if game.rules.trump == "declarer" and \
            view.declarer is not None else ""
        lines.append(f"Trump: {trump}{turned}{declarer}")
    bids = ", ".join(f"{names[s]} {'-' if view.bids[s] is None else view.bids[s]}"
                     for s in view.bidding_order)
    lines.append(f"Bids: {bids}")
    if view.phase == "play":
        lines.append("Tricks taken: " + ", ".join(
            f"{names[s]} {view.tricks_won[s]}" for s in range(len(names))))
        if view.tricks:
            last = view.tricks[-1]
            played = ", ".join(f"{names[last.seat_of(i, len(names))]} {c}"
                               for i, c in enumerate(last.cards))
            lines.append(f"Last trick: {played}; won by {names[last.winner]}")
        lines.append("Trick in progress: " + (", ".join(
            f"{names[s]} {c}" for s, c in view.trick) or "none yet"))
    if view.to_move is not None:
        doing = {"bid": "to bid", "trump": "to name trump", "play": "to play"}[view.phase]
        lines.append(f"To move: {names[view.to_move]} ({doing}), move #{snap.next_number}")
    if seat is not None:
        lines += _seat_lines(view, names)
    return lines


def _seat_lines(view: View, names: tuple[str, ...]) -> list[str]:
    lines = []
    if view.blind:
        lines.append("Your hand: hidden (the first hand is bid blind)")
        for s, mask in enumerate(view.hands):
            if mask is not None and s != view.seat:
                lines.append(f"{names[s]} holds: {cards_text(list(cards_in(mask)))}")
    else:
        lines.append(f"Your hand ({names[view.seat]}): {cards_text(view.my_cards)}")
    if view.legal_actions:
        lines.append("Your moves: " + ", ".join(str(a) for a in view.legal_actions))
    return lines


def _comment_lines(snap: Snapshot, seat: int | None) -> list[str]:
    """Comments on the moves since ``seat`` last moved (outsiders: the last move)."""
    since = 0
    if seat is not None:
        since = max((m.number for m in snap.moves if m.seat == seat), default=0)
    elif snap.moves:
        since = snap.moves[-1].number - 1
    names = snap.game.players
    said = [f"  {names[m.seat]} (move #{m.number}): {m.comment}"
            for m in snap.moves if m.number > since and m.comment]
    return ["", "Comments:", *said] if said else []


def history_text(snap: Snapshot) -> str:
    """Every move so far, hand by hand; automatic ones (computer players, the blind
    hand) marked."""
    names = snap.game.players
    stored = iter(zip(snap.moves, snap.hand_numbers(), strict=True))
    lines = [f"Board {snap.board}: {len(snap.moves)} moves"]
    hand = 0
    for entry in snap.game.history:
        if entry.auto:  # the rules' own plays follow the move that caused them
            lines.append(f"      {names[entry.seat]} {entry.action} (automatic)")
            continue
        move, move_hand = next(stored)
        if move_hand != hand:
            hand = move_hand
            lines.append(f"Hand {hand}:")
        mark = {"bot": " (computer)", "queued": " (queued)"}.get(move.kind, "")
        note = f"  -- {move.comment}" if move.comment else ""
        lines.append(f"#{move.number:<4} {names[move.seat]} {move.action}{mark}{note}")
    return "\n".join(lines)


def games_text(snaps: list[Snapshot]) -> str:
    if not snaps:
        return "no games"
    lines = []
    for snap in snaps:
        game = snap.game
        if snap.row.status != "active":
            state = snap.row.status
        else:
            mover = "-" if game.to_move is None else snap.controller(game.to_move)
            state = f"hand {game.hand_number}, to move: {mover}"
        lines.append(f"{snap.board:<6} {game.rules.variant:<12} {state:<36} "
                     + ", ".join(_names(snap)))
    return "\n".join(lines)


def standings_text(table: list[Standing]) -> str:
    if not table:
        return "no finished games"
    width = max(len(s.player) for s in table)
    lines = [f"{'player':<{width}}  played  won"]
    lines += [f"{s.player:<{width}}  {s.played:>6}  {s.won:>3}" for s in table]
    return "\n".join(lines)


def ratings_text(ratings: dict[str, float]) -> str:
    if not ratings:
        return "no finished games"
    width = max(len(p) for p in ratings)
    return "\n".join([f"{'player':<{width}}  rating",
                      *(f"{p:<{width}}  {r:6.0f}" for p, r in ratings.items())])
