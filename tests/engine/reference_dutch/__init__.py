"""A literal, brute-force reference of the FIDE Dutch system, used as an oracle in tests.

It follows the text of C.04.3 (2026) article by article, for small tournaments only (speed does
not matter). Every choice the text leaves open is listed in docs/INTERPRETATIONS.md.
"""
