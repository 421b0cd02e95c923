"""Create the demo: an arbiter login and a 40-player tournament with 5 rounds paired by the engine.

Idempotent: a second run finds the tournament and only prints the login again. Results are
simulated with a seeded random generator (Elo expectation, a share of draws), so every run of a
fresh database gives the same tournament.
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tournaments import services
from tournaments.models import ByeRequest, Result, Tournament

DEMO_NAME = "Demo Open 2026"
USERNAME = "arbiter"
DEFAULT_PASSWORD = "swiss-demo-2026"

FAMILY = [
    "Andersen", "Bauer", "Costa", "Dubois", "Eriksson", "Fischer", "Garcia", "Horvath", "Ivanov",
    "Jensen", "Kowalski", "Lindqvist", "Moreau", "Novak", "Olsen", "Petrov", "Quinn", "Rossi",
    "Schmid", "Tanaka", "Urban", "Varga", "Weber", "Xu", "Young", "Zimmermann", "Berger", "Keller",
    "Meier", "Huber", "Brunner", "Frei", "Gerber", "Baumann", "Roth", "Steiner", "Marti", "Graf",
    "Hofer", "Kunz",
]
GIVEN = [
    "Anna", "Ben", "Clara", "David", "Elena", "Felix", "Greta", "Hugo", "Ines", "Jonas", "Katrin",
    "Luca", "Mila", "Noah", "Olga", "Paul", "Rosa", "Simon", "Tina", "Viktor",
]
FEDERATIONS = ["SUI", "GER", "FRA", "ITA", "AUT", "NED", "ESP", "POL", "CZE", "HUN"]


TITLES = ((2450, "GM"), (2380, "IM"), (2280, "FM"))


def _players(rng: random.Random) -> list[dict]:
    names = rng.sample(FAMILY, 40)
    players = []
    for i, family in enumerate(names):
        rating = 2480 - i * 26 + rng.randint(-12, 12)
        title = next((t for floor, t in TITLES if rating >= floor), "")
        players.append(
            {
                "name": f"{family}, {rng.choice(GIVEN)}",
                "rating": rating,
                "title": title,
                "federation": rng.choice(FEDERATIONS),
                "fide_id": str(1_300_000 + rng.randint(0, 699_999)),
                "sex": rng.choice(["m", "m", "w"]),
                "birth_year": rng.randint(1960, 2012),
            }
        )
    return players


def _simulate(game, rng: random.Random) -> str:
    """Draw a result from the Elo expectation of White, with about a third of draws."""
    white, black = game.white.rating or 1500, game.black.rating or 1500
    expected = 1 / (1 + 10 ** ((black - white - 30) / 400))
    draw = 0.34 * (1 - abs(expected - 0.5))
    x = rng.random()
    if x < expected - draw / 2:
        return Result.WHITE_WINS
    if x < expected + draw / 2:
        return Result.DRAW
    return Result.BLACK_WINS


class Command(BaseCommand):
    help = "Create an arbiter login and a demo tournament (40 players, 5 of 7 rounds played)."

    def add_arguments(self, parser):
        parser.add_argument("--password", default=DEFAULT_PASSWORD, help="arbiter password")
        parser.add_argument("--seed", type=int, default=2026, help="seed of the simulation")

    def handle(self, *args, password: str, seed: int, **options):
        user = self._arbiter(password)
        existing = Tournament.objects.filter(name=DEMO_NAME, arbiters=user).first()
        if existing is not None:
            self.stdout.write(f"The demo tournament is already there (id {existing.pk}).")
        else:
            try:
                with transaction.atomic():
                    existing = self._tournament(user, random.Random(seed))
            except services.ServiceError as error:
                raise CommandError(f"The demo could not be built: {error}") from error
            self.stdout.write(f"Created {DEMO_NAME} (id {existing.pk}).")
        self.stdout.write(
            self.style.SUCCESS(
                f"Arbiter login: username {USERNAME!r}, password {password!r} "
                "(log in at /accounts/login/)"
            )
        )

    def _arbiter(self, password: str):
        User = get_user_model()
        user, _ = User.objects.get_or_create(username=USERNAME, defaults={"is_staff": True})
        user.is_staff = True
        user.set_password(password)
        user.save()
        return user

    def _tournament(self, user, rng: random.Random) -> Tournament:
        t = services.create_tournament(
            user, name=DEMO_NAME, place="Bern", rounds=7,
            start_date="2026-11-20", end_date="2026-11-24",
            tiebreaks="BH/C1,BH,DE,WIN,WON,BPG,BWG,PS",
        )
        entries = _players(rng)
        late = entries.pop(17)  # arrives in round 3
        for data in entries:
            services.add_player(t, user, **data)
        services.draw_initial_color(t, user, rng=rng)
        by_name = {p.name: p for p in t.players.all()}
        requester = by_name[entries[5]["name"]]
        leaver = by_name[entries[30]["name"]]
        for number in range(1, 6):
            if number == 2:
                services.request_bye(requester, user, round_number=2, kind=ByeRequest.Kind.HALF)
            if number == 3:
                services.admit_late_entry(t, user, arrival_round=3, **late)
            if number == 4:
                services.withdraw_player(leaver, user, from_round=4)
            rnd = services.pair_next_round(t, user)
            services.publish_round(rnd, user)
            results = {}
            for game in rnd.games.select_related("white", "black"):
                if not game.is_bye:
                    results[game.pk] = _simulate(game, rng)
            if number == 3:  # Black did not come to the last board
                last = max(
                    (g for g in rnd.games.all() if not g.is_bye), key=lambda g: g.board
                )
                results[last.pk] = Result.WHITE_WINS_FORFEIT
            services.set_results(rnd, user, results)
            services.finish_round(rnd, user)
        return t
