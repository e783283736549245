"""The commands' names, usage lines and help, kept free of imports so that registering
them on the command line costs nothing."""

import re

USAGE = {
    "signup": "signup USERID EMAIL PASSWORD",
    "password": "password USERID OLD NEW",
    "address": "address USERID PASSWORD EMAIL",
    "confirm": "confirm USERID [CODE]",
    "challenge": "challenge [-inorder] [-hook|-nohook] [-variant NAME] [-seed=N] "
                 "[-OPTION=VALUE ...] USER ...",
    "move": "move BOARD USERID PASSWORD MOVE[#N]",
    "queue": "queue BOARD USERID PASSWORD MOVE",
    "resign": "resign BOARD USERID PASSWORD",
    "show": "show BOARD",
    "showas": "showas BOARD USERID PASSWORD",
    "history": "history BOARD",
    "replay": "replay BOARD#N",
    "games": "games [USERID]",
    "standings": "standings",
    "ratings": "ratings",
    "help": "help [COMMAND]",
}

HELP = {
    "signup": "Create an account; the password is stored only as an argon2 hash.  A code "
              "is mailed to EMAIL: send it back with confirm to play by mail.",
    "password": "Change your password.",
    "address": "Change the e-mail address your boards are sent to; a code is mailed to "
               "the new address to confirm it.",
    "confirm": "Confirm your e-mail address with the code mailed to it (replying to that "
               "mail does it).  Until then no board is mailed to you and mail commands "
               "that play (challenge, move, queue, resign, showas) are refused.  Without "
               "CODE: mail a new code (at most one every 10 minutes).  An address is "
               "confirmed for one account only.",
    "challenge": "Start a game at once (no password needed).  Seats are shuffled unless "
                 "-inorder.  A player is a userid or a computer player (bot:random, ...).  "
                 "The deal comes from the server's secret randomness; -seed=N only for games "
                 "between computer players (or by the server's operator).  A player named in "
                 "a game they do not want declines it with resign.  "
                 "Rules are pbmserv's unless -variant names a preset; -OPTION=VALUE sets any "
                 "rule option, e.g. -schedule=1,2,3 -hook=false -max_cards=5.",
    "move": "Make a move: a bid (0, 7, nil, board), a card (AD, 10C) or trump (trump H, "
            "trump NT).  MOVE#N is refused unless N is the next move number.  A comment "
            "(mail body, or --comment TEXT) is shown to the other players with the board.",
    "queue": "Play MOVE when your turn comes, if it is still legal then.",
    "resign": "Leave a game (or decline one you were challenged to): a computer player "
              "plays your seat; it counts as a loss.",
    "show": "The board as an outsider sees it: no hidden cards.",
    "showas": "The board as you see it from your seat.",
    "history": "The moves so far; automatic ones are marked.",
    "replay": "The board as an outsider saw it after move N.",
    "games": "All games, or the games of one player.",
    "standings": "Games played and won by each player.",
    "ratings": "Ratings by the Elo system; a game of several players counts as a result "
               "against each other player.",
    "help": "This help, or the help of one command.",
}

BOARD = re.compile(r"\d{1,9}")
BOARD_AT = re.compile(r"(\d{1,9})#(\d{1,9})")

#: The words of a usage line that stand for a password (or a confirmation code).
_SECRETS = frozenset({"PASSWORD", "OLD", "NEW", "CODE"})
HIDDEN = "*****"


def redact(words: list[str]) -> list[str]:
    """The command's words with every password replaced by ``*****`` (the positions are
    the usage line's PASSWORD, OLD and NEW), for replies, stored subjects and logs.

    >>> redact(["password", "eve", "Old-pw", "New-pw"])
    ['password', 'eve', '*****', '*****']
    >>> redact(["MOVE", "101", "ann", "secret", "7"])
    ['MOVE', '101', 'ann', '*****', '7']
    >>> redact(["confirm", "ann", "K7QXM2PA9R"])
    ['confirm', 'ann', '*****']
    """
    usage = [word.strip("[]") for word in
             USAGE.get(words[0].lower(), "").split()[1:]] if words else []
    return [HIDDEN if 0 < i <= len(usage) and usage[i - 1] in _SECRETS else word
            for i, word in enumerate(words)]
