"""Blackout as a PettingZoo AEC environment (``pip install 'blackout[pettingzoo]'``).

>>> from blackout.pettingzoo import env
>>> table = env("standard", players=3, schedule=[1, 2])
>>> table.reset(seed=7)
>>> observation, reward, terminated, truncated, info = table.last()
>>> sorted(observation), observation["action_mask"].nonzero()[0].tolist()  # bid 0 or 1
(['action_mask', 'observation'], [52, 53])

``env(variant, players=None, hand_limit=None, render_mode=None, **options)`` plays the
whole game of a preset (any rule option as a keyword, as for :func:`blackout.variant`);
``players`` defaults to 4 (or the preset's nearest count).  Agents are ``player_0`` ..
``player_{n-1}``; the core seats them (shuffled from the seed for pbmserv, else in
order) and deals from the seed given to ``reset(seed=...)``, so a seed replays a game.

* **Actions** are integers, numbered as in :mod:`blackout.encoding`: cards 0..51
  (``suit * 13 + rank``), bids ``52 + k``, then nil, board and the five trump choices.
  An illegal action raises :class:`blackout.IllegalAction` and changes nothing.
  Potomac's out-of-turn bid changes are not offered (see :mod:`blackout.openspiel`).
* **Observations** are ``{"observation": float32 array, "action_mask": int8 array}``:
  the observation layout is :mod:`blackout.encoding`'s (``docs/adapters.md``), the mask
  marks the legal actions of the agent to move (all zeros for the others).
* **Rewards** are the preset's points, paid to every agent when each hand is scored, so
  an agent's rewards add up to its final score (partners share their team's points).
* The game **terminates** when its rules end it; with ``hand_limit=N`` it is
  **truncated** after ``N`` hands (partnership to 200 can take long with weak players).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as missing:
    raise ModuleNotFoundError(f"blackout.pettingzoo needs `pip install 'blackout[pettingzoo]'` "
                              f"(missing: {missing.name})", name=missing.name) from None

from blackout.core.fast import Game
from blackout.core.rules import PRESETS
from blackout.core.rules import variant as preset_rules
from blackout.encoding import Encoding, default_players, position_text

__all__ = ["BlackoutEnv", "env", "raw_env"]


def env(variant: str = "standard", **kwargs: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's classic games are (out-of-bounds actions
    and calls out of order are refused)."""
    wrapped: AECEnv = raw_env(variant, **kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def raw_env(variant: str = "standard", **kwargs: Any) -> BlackoutEnv:
    return BlackoutEnv(variant, **kwargs)


class BlackoutEnv(AECEnv):
    """A Blackout game for agents (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "blackout_v0",
                "is_parallelizable": False}

    def __init__(self, variant: str = "standard", players: int | None = None,
                 hand_limit: int | None = None, render_mode: str | None = None,
                 **options: Any) -> None:
        super().__init__()
        self.rules = preset_rules(variant, **options)
        count = players or default_players(PRESETS[variant])
        self.rules.check_players(count)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.hand_limit = hand_limit
        self.encoding = Encoding(self.rules, count)
        self.possible_agents = [f"player_{i}" for i in range(count)]
        size = self.encoding.num_actions
        self._action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.encoding.observation_size,),
                                      np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        }) for a in self.possible_agents}
        self._seeds = random.Random()
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        self.game = Game.new(self.rules, self.possible_agents, seed=self._seeds.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_move()

    def _seat(self, agent: str) -> int:
        assert self.game is not None
        return self.game.players.index(agent)

    def _agent_to_move(self) -> str:
        assert self.game is not None and self.game.to_move is not None
        return self.game.players[self.game.to_move]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self.game
        assert game is not None
        view = game.view(self._seat(agent))
        mask = np.zeros(self.encoding.num_actions, np.int8)
        if agent == self.agent_selection and game.to_move == view.seat:
            mask[self.encoding.action_ids(game.legal_actions())] = 1
        return {"observation": self.encoding.observation(view), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None and action is not None
        hands = len(game.hands_played)
        game.apply(self.encoding.action(int(action)))  # IllegalAction: nothing changed
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        for result in game.hands_played[hands:]:
            for name in self.agents:
                self.rewards[name] += result.points[self._seat(name)]
        if game.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.hand_limit is not None and len(game.hands_played) >= self.hand_limit:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self._agent_to_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        text = position_text(self.game.view(self._seat(self.agent_selection)))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.game = None
