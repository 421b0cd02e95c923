"""``ServiceError``: a change the rules or the tournament's state do not allow."""

from __future__ import annotations

from django.utils.translation import gettext as _, ngettext

from pairing.text import Text


class ServiceError(Exception):
    """A change that the rules or the tournament's state do not allow; the message says why.

    ``details`` lists every problem found when there are several (the rows of an upload).
    The message is in the language of the request that raised it (``gettext`` at raise time).
    """

    def __init__(
        self, message: str, details: list[str] | tuple[str, ...] = (), *, text: Text | None = None
    ):
        super().__init__(str(message))
        self.details = tuple(str(detail) for detail in details)
        self.text = text
        """The message kept as a sentence of data, where it is said later to someone else (a
        pairing job's page), in their language."""



MAX_LISTED_ERRORS = 50
"""An upload with more errors than this lists the first ones and counts the rest."""


def refuse_rows(what: str, errors: list[str]) -> None:
    if not errors:
        return
    listed = errors[:MAX_LISTED_ERRORS]
    if len(errors) > len(listed):
        listed.append(_("... and %(count)s more.") % {"count": len(errors) - len(listed)})
    raise ServiceError(
        ngettext(
            "%(what)s: %(count)s error(s), nothing was saved. Correct the file and upload it "
            "again.",
            "%(what)s: %(count)s error(s), nothing was saved. Correct the file and upload it "
            "again.",
            len(errors),
        ) % {"what": what, "count": len(errors)},
        listed,
    )
