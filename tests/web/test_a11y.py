"""Accessibility: axe-core finds no violation on any page of an event, in headless Chromium.

Every page is found from the URL map (public pages and the arbiter's dashboard, each read in
English and in French), its arguments filled from an event in progress: finished rounds with a
correction and a manual pairing, a published round with results pending, a draft in a second
event. A page is every GET that answers HTML. axe-core is vendored in tests/web/assets/axe-core
(the app never serves it).
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tournaments import services
from tournaments.models import Result
from tournaments.services import corrections

from .conftest import make_tournament
from .test_e2e_browser import browser  # noqa: F401 (a fixture)

AXE = Path(__file__).parent / "assets" / "axe-core" / "axe.min.js"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def play(t, arbiter, *, finish=True):
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    boards = list(rnd.games.filter(board__isnull=False).order_by("board"))
    results = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS, Result.WHITE_WINS_FORFEIT]
    services.set_results(
        rnd, arbiter, {g.pk: results[i % len(results)] for i, g in enumerate(boards)}
    )
    if finish:
        services.finish_round(rnd, arbiter)
    return rnd


def event(arbiter):
    """An event after two finished rounds (a correction, a withdrawal, a requested bye) with
    round 3 published and results pending; and a second event with a draft round 1."""
    t = make_tournament(arbiter, players=9, rounds=5, place="Basel")
    services.draw_initial_color(t, arbiter, random.Random(3))
    rnd1 = play(t, arbiter)
    corrections.correct_result(
        rnd1.games.get(board=1), arbiter, result=Result.DRAW, reason="scoresheet"
    )
    services.request_bye(t.players.get(tpn=2), arbiter, round_number=3, kind="H")
    services.withdraw_player(t.players.get(tpn=9), arbiter, from_round=3)
    play(t, arbiter)
    rnd3 = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    services.set_results(rnd3, arbiter, {rnd3.games.get(board=1).pk: Result.WHITE_WINS})
    services.request_bye(t.players.get(tpn=3), arbiter, round_number=4, kind="Z")
    draft = make_tournament(arbiter, players=5, rounds=3)
    draft.name = "Draft Cup"
    draft.save()
    services.draw_initial_color(draft, arbiter, random.Random(1))
    services.pair_next_round(draft, arbiter)
    return t, draft


def _patterns(resolver, prefix=""):
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from _patterns(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry


def pages(client: Client, t, draft) -> list[str]:
    """Every GET of the public site and the dashboard that answers HTML, for these events."""
    player = t.players.get(tpn=1)
    game = t.round_set.get(number=1).games.filter(board__isnull=False).first()
    bye = t.players.get(tpn=3).bye_requests.first()
    args = {"pk": t.pk, "number": 1, "player_pk": player.pk, "game_pk": game.pk,
            "bye_pk": bye.pk}
    urls = set()
    for route, entry in _patterns(get_resolver()):
        if route.startswith(("api/", "admin/")) or asyncio.iscoroutinefunction(entry.callback):
            continue  # the API, the admin, the live-update stream: not pages
        path = "/" + route
        for name, value in args.items():
            path = path.replace(f"<int:{name}>", str(value))
        if "<" in path:
            continue
        urls.add(path)
        if "<int:number>" in route:
            urls.update(
                "/" + route.replace("<int:number>", str(n)).replace("<int:pk>", str(t.pk))
                for n in (2, 3)
            )
            urls.add("/" + route.replace("<int:number>", "1").replace("<int:pk>", str(draft.pk)))
    found = []
    for path in sorted(urls):
        if "<" in path:
            continue
        response = client.get(path)
        if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
            found.append(path)
    return found


# What axe-core leaves to review, checked here: ids used twice, aria references to no element,
# form controls whose name is only a number (a result select named "1").
OWN_CHECKS = """() => {
  const problems = [];
  const seen = {};
  for (const el of document.querySelectorAll("[id]")) {
    if (seen[el.id]) problems.push(`duplicate id ${el.id}`);
    seen[el.id] = true;
  }
  for (const attr of ["aria-describedby", "aria-labelledby", "aria-controls"]) {
    for (const el of document.querySelectorAll(`[${attr}]`)) {
      for (const ref of el.getAttribute(attr).split(/\\s+/).filter(Boolean)) {
        if (!document.getElementById(ref)) problems.push(`${attr} to missing id ${ref}`);
      }
    }
  }
  for (const el of document.querySelectorAll("select, input:not([type=hidden]), textarea")) {
    const labels = Array.from(el.labels || []).map((l) => l.textContent.trim()).join(" ");
    const name = (el.getAttribute("aria-label") || labels || "").trim();
    if (/^[0-9]*$/.test(name)) problems.push(`${el.name || el.id}: named only "${name}"`);
  }
  return problems;
}"""


def axe_violations(page, url: str) -> list[str]:
    page.goto(url)
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document)")
    found = [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(str(node["target"]) for node in v["nodes"][:3])
        for v in result["violations"]
    ]
    return found + page.evaluate(OWN_CHECKS)


def test_no_axe_violation_on_any_page(browser, live_server, arbiter):  # noqa: F811
    arbiter.is_staff = True  # the new-tournament page too
    arbiter.save()
    t, draft = event(arbiter)
    t.arbiters.add(arbiter)
    client = Client()
    client.force_login(arbiter)
    urls = pages(client, t, draft)
    assert len(urls) >= 30, urls
    found, checked = {}, 0
    # A visitor in English, the arbiter, a visitor reading in French (the browser's language),
    # and the arbiter reading the dashboard in French.
    dashboard = ("/arbiter/", "/accounts/")
    for who, locale in (("visitor", "en-GB"), ("arbiter", "en-GB"), ("visiteur", "fr-FR"),
                        ("arbitre", "fr-FR")):
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
        # No live-update stream: it would stay open in the server after the test.
        context.route("**/events/**", lambda route: route.abort())
        page = context.new_page()
        page.set_default_timeout(15_000)
        if who in ("arbiter", "arbitre"):
            context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                                  "url": live_server.url}])
        for path in urls:
            if who in ("visitor", "visiteur") and path.startswith(dashboard):
                continue
            if who == "arbitre" and not path.startswith(dashboard):
                continue  # the public pages in French: read by the visiteur
            checked += 1
            violations = axe_violations(page, live_server.url + path)
            assert page.locator("html").get_attribute("lang") == locale[:2], path
            if violations:
                found[f"{who} {path}"] = violations
        context.close()
    if found:
        pytest.fail("\n".join(f"{k}:\n  " + "\n  ".join(v) for k, v in found.items()))
    print(f"axe-core: {checked} page views of {len(urls)} pages, no violation")
