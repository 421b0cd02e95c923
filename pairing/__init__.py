"""FIDE Swiss pairing engine: Dutch system (2026 and 2017 rules), TRF files, checker, tie-breaks.

Pure Python, standard library only; no Django import. The web application in ``tournaments/`` uses
this package, never the reverse.
"""
