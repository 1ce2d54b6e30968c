"""Children that end with the bot: a `kill -9` of the bot must not leave its helpers running."""

from __future__ import annotations

import ctypes
import os
import signal
import sys

#: Linux's prctl option that signals a process when the thread that started it ends.
_PR_SET_PDEATHSIG = 1


def end_with_parent(parent: int) -> None:
    """In a child process: get SIGTERM when `parent` dies (Linux only; elsewhere nothing happens)."""
    if not sys.platform.startswith("linux"):
        return
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # the parent died before the signal was armed
        os.kill(os.getpid(), signal.SIGTERM)
