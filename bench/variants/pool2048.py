"""The shipped expert drawing a pool of 2048 deals (instead of 128) when the learnt
models choose them (bench/regret.py, RESULTS.md "Eighteenth session")."""

from pool512 import with_pool

ExpertBot = with_pool(2048)
