"""A tournament's tie-break list (C.07 codes such as ``BH/C1``), read once, refused with the
engine's reason when it is wrong."""

from __future__ import annotations

from django.utils.translation import gettext as _

from pairing.tiebreaks import TieBreakSpecError, parse_specs
from tournaments.models import Tournament
from tournaments.sentences import engine_said, labelled
from tournaments.services.errors import ServiceError


def tiebreak_specs(tournament: Tournament) -> tuple:
    """Parse the tournament's tie-break list (codes such as ``BH/C1``, by comma or line)."""
    try:
        return parse_specs(tournament.tiebreaks.replace("\n", ","))
    except TieBreakSpecError as error:
        raise ServiceError(labelled(_("Tie-breaks"), engine_said(error))) from error


def tiebreak_names(tournament: Tournament) -> tuple[str, ...]:
    return tuple(spec.code for spec in tiebreak_specs(tournament))
