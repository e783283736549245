"""The pure rules core: cards, rules, the game, scoring, views and records. No I/O."""
