"""Something done every few seconds in a thread of its own while a long piece of work runs: a
claim kept alive, a job saying it is alive.

>>> import threading
>>> ticks, twice = [], threading.Event()
>>> def tick():
...     ticks.append(1)
...     if len(ticks) == 2:
...         twice.set()
>>> with every(0.01, tick, name="example"):
...     twice.wait(10)
True
>>> len(ticks) >= 2
True
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def every(seconds: float, action: Callable[[], None], *, name: str,
          finally_: Callable[[], None] | None = None) -> Iterator[None]:
    """Call ``action`` every ``seconds`` from a thread until the block ends (then ``finally_``
    in that thread: a database connection closed, say)."""
    done = threading.Event()

    def run() -> None:
        try:
            while not done.wait(seconds):
                action()
        finally:
            if finally_ is not None:
                finally_()

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
