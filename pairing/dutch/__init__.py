"""The FIDE Dutch system (C.04.3), 2026 rules by default and the 2017 rules on request."""

from pairing.dutch.engine import explain_round, pair_round

__all__ = ["explain_round", "pair_round"]
