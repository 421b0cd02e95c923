"""FIDE tie-breaks (C.07, as amended 1 March 2026) computed from a :class:`pairing.model.Tournament`.

Pure Python, no Django. Values are exact (:class:`fractions.Fraction` or ints).
"""
