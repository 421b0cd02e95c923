"""A newcomer's layout bugs, measured in a real headless Chromium (issue 27, section 5): the QR
code of the printed pairings keeps its size and its caption breaks between words; the
dashboard's main actions look like buttons.

Skipped without Chromium or Playwright, like the other browser tests (REQUIRE_BROWSER=1 fails).
"""

from __future__ import annotations

import random

import pytest
from django.test import Client

from tournaments import services

from .conftest import make_tournament
from .test_e2e_browser import browser  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def arbiter_page(browser, live_server, arbiter):  # noqa: F811
    """A page of an A4-wide window, logged in as the arbiter (a staff user)."""
    arbiter.is_staff = True
    arbiter.save()
    client = Client()
    client.force_login(arbiter)
    context = browser.new_context(viewport={"width": 800, "height": 1100})
    context.route("**/events/**", lambda route: route.abort())
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def test_the_printed_pairings_qr_code_keeps_its_size(arbiter_page, live_server, arbiter):
    t = make_tournament(arbiter, players=8, rounds=3)
    services.draw_initial_color(t, arbiter, random.Random(1))
    services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    page = arbiter_page
    page.emulate_media(media="print")
    page.goto(f"{live_server.url}/arbiter/t/{t.pk}/print/rounds/1/pairings/")
    svg = page.locator("figure.sheet-qr svg")
    drawn = svg.bounding_box()
    wanted = float(svg.get_attribute("width"))
    # Every module of the code at its full size, or no phone reads it.
    assert drawn["width"] == pytest.approx(wanted, abs=0.5), (drawn, wanted)
    assert drawn["height"] == pytest.approx(wanted, abs=0.5), (drawn, wanted)
    caption = page.locator("figure.sheet-qr figcaption")
    assert caption.evaluate("e => getComputedStyle(e).wordBreak") != "break-all"
    # Lines break between words: each line of the caption ends a word (or the address).
    text = caption.inner_text()
    words = set(text.split())
    lines = caption.evaluate("""e => {
        const range = document.createRange(), lines = new Map();
        const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
        for (let node; (node = walker.nextNode());) {
            for (let i = 0; i < node.length; i++) {
                range.setStart(node, i); range.setEnd(node, i + 1);
                const top = Math.round(range.getBoundingClientRect().top);
                lines.set(top, (lines.get(top) || '') + node.data[i]);
            }
        }
        return [...lines.values()];
    }""")
    assert len(lines) >= 2, lines  # narrow enough to need a break
    for line in lines[:-1]:
        last = line.split()[-1] if line.split() else ""
        url = page.locator("figure.sheet-qr figcaption").inner_text().split()[-1]
        assert last in words or url.startswith(last.strip()) or last.endswith("/"), (line, lines)


def test_the_dashboards_main_actions_look_like_buttons(arbiter_page, live_server, arbiter):
    t = make_tournament(arbiter, players=2, rounds=3)
    page = arbiter_page
    links = []
    page.goto(f"{live_server.url}/arbiter/")
    links.append(page.get_by_role("link", name="New tournament").evaluate(LOOK))
    page.goto(f"{live_server.url}/arbiter/t/{t.pk}/")
    links.append(page.get_by_role("link", name="Add players from the FIDE list").evaluate(LOOK))
    button = page.get_by_role("button", name="Draw by lot").evaluate(LOOK)
    for look in links:
        # Drawn as the page's buttons are: a visible border, the same padding, no underline.
        assert look["border"] >= 1 and look["borderStyle"] != "none", look
        assert look["decoration"] == "none", look
        assert (look["border"], look["padding"]) == (button["border"], button["padding"]), (
            look, button)


LOOK = """e => { const s = getComputedStyle(e);
    return {border: parseFloat(s.borderTopWidth), borderStyle: s.borderTopStyle,
            padding: s.paddingLeft, decoration: s.textDecorationLine}; }"""


def test_the_api_docs_load_nothing_from_another_site(browser, live_server, db):  # noqa: F811
    """ReDoc's sidebar asks for Redocly's logo from their CDN (issue 27, section 6)."""
    context = browser.new_context()
    elsewhere = []

    def route(route):
        if route.request.url.startswith(live_server.url):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/api/redoc/")
    page.get_by_text("API docs by Redocly").wait_for()  # the sidebar's foot, with the logo
    page.wait_for_load_state("networkidle")
    assert "Swiss tournament manager API" in page.locator("body").inner_text()
    page.goto(live_server.url + "/api/docs/")
    page.wait_for_load_state("networkidle")
    context.close()
    assert elsewhere == [], elsewhere
