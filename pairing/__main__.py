"""``python -m pairing``: the bbpPairings-compatible command line (see pairing.cli)."""

from __future__ import annotations

import sys

from pairing.cli import main

if __name__ == "__main__":
    sys.exit(main())
