"""The one error start-up reports to the operator."""

from __future__ import annotations


class StartupError(RuntimeError):
    """Start-up cannot go on; the message is one line that says what to fix (`python -m bot` prints it)."""
