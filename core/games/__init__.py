"""One module per game, each a `core.engine.Game` subclass."""
