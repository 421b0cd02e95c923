"""Read a page's forms the way a browser submits them, for tests that replay stale pages."""

from __future__ import annotations

from html.parser import HTMLParser


class _FormReader(HTMLParser):
    def __init__(self, action: str | None):
        super().__init__(convert_charrefs=True)
        self.action = action
        self.forms: list[tuple[str, dict[str, str]]] = []
        self._form: dict[str, str] | None = None
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._form = {}
            self.forms.append((a.get("action") or "", self._form))
        if self._form is None:
            return
        if tag == "input" and a.get("name") and a.get("type") not in ("submit", "checkbox"):
            self._form[a["name"]] = a.get("value") or ""
        elif tag == "input" and a.get("type") == "checkbox" and "checked" in a:
            self._form[a["name"]] = a.get("value") or "on"
        elif tag == "select":
            self._select = a.get("name")
            self._form.setdefault(self._select, "")
        elif tag == "option" and self._select and "selected" in a:
            self._form[self._select] = a.get("value") or ""
        elif tag == "textarea":
            self._textarea = a.get("name")
            self._form[self._textarea] = ""

    def handle_data(self, data):
        if self._textarea and self._form is not None:
            self._form[self._textarea] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea and self._form is not None:
            # Like a browser, drop the newline that starts a textarea's content.
            value = self._form[self._textarea]
            self._form[self._textarea] = value[1:] if value.startswith("\n") else value
            self._textarea = None


def form_data(html: str, action: str = "", index: int = 0) -> dict[str, str]:
    """Return the fields a browser would send from a form of the page (its ``index``-th one
    posting to ``action``; "" is a form posting to the page itself), as the page was loaded."""
    reader = _FormReader(action)
    reader.feed(html)
    forms = [fields for target, fields in reader.forms if target == action]
    fields = dict(forms[index])
    fields.pop("csrfmiddlewaretoken", None)  # the test client does not check CSRF
    return fields
