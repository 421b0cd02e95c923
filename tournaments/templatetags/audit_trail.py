"""Template filters of the audit trail page: what is stored (in English) shown in the reader's
language (``tournaments.audit``)."""

from django import template

from tournaments import audit

register = template.Library()


@register.filter
def audit_action(action: str) -> str:
    """An entry's action code as the reader's language names it."""
    return audit.action_label(action)


@register.filter
def audit_reason(entry) -> str:
    """An entry's reason: the sentences the services stored said in the reader's language, the
    arbiter's words as written."""
    return audit.reason(entry)


@register.filter
def stored_text(text: str) -> str:
    """Any text the services stored in English (a reason, ``Game.manual``) in the reader's
    language; the arbiter's own words as written."""
    return audit.shown(text)


@register.filter
def audit_changes(changes, action: str):
    """An entry's differences with coded values named (a bye's kind, a colour, a state)."""
    return audit.in_language(changes, action)


@register.filter
def audit_subject(entry) -> str:
    """The board and players of an entry about one game (a correction), or ''."""
    return audit.subject(entry)
