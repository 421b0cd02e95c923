"""A tournament written as a TRF-2026 file: the FIDE rating report, or a file other programs
re-pair (with the ``###`` lines of ``tournaments.services.trf_notes``)."""

from __future__ import annotations

from dataclasses import replace

from tournaments.models import Tournament
from tournaments.report import header_records
from tournaments.services import trf_notes
from tournaments.services.engine_state import build_engine_state


def export_trf(tournament: Tournament) -> str:
    """Return the tournament as TRF-2026 (complete rounds, and requested byes of the next one)."""
    t = tournament
    next_round = t.next_round_number()
    built = build_engine_state(t)
    if built.rounds == next_round - 1 and next_round <= t.rounds:
        built = build_engine_state(t, pairing_round=next_round)
    # The FIDE rating report's records (022-132, 222) come first, before the tie-breaks (202).
    records = (*header_records(t, rounds=built.rounds), *built.tournament.other_records)
    state = replace(built.tournament, other_records=records)
    text = t.system.write(state)
    if t.system.matches:  # a match paired by hand: not yet said in the file
        return text
    return text + "".join(f"{line}\n" for line in trf_notes.notes(t, built.rounds))
