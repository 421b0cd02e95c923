"""An event archive read back (``tournaments.services.archive`` says the format): a new
tournament with new ids, everything else as it was, the importing user its arbiter.

The file is checked whole before anything is kept: a newer format version, a value a field
refuses, a reference to a player the file does not hold, are refused with where they are.
The audit trail keeps its entries as stored; each names its author by user name, the user of
that name on this server (one is made, inactive and unable to log in, when there is none: it
only names the author). One entry more says who imported the file.
"""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext as _

from tournaments.models import AuditEntry, ByeRequest, Game, Player, Round, Tournament
from tournaments.sentences import labelled, quoted
from tournaments.services.archive import FORMAT, RENUMBERED, VERSION, kept_fields
from tournaments.services.errors import ServiceError
from tournaments.services.tiebreak_list import tiebreak_specs
from tournaments.services.write import audit, created


def _refuse(where: str, message: str) -> ServiceError:
    return ServiceError(labelled(f"{_('Event archive')}, {where}", message))


def decoded(raw: bytes) -> str:
    """The archive's text (UTF-8), or refuse naming the line and byte that is not UTF-8."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ServiceError(labelled(
            _("Event archive, line %(line)s, byte %(byte)s")
            % {"line": raw[: error.start].count(b"\n") + 1, "byte": error.start + 1},
            _("not UTF-8, as every event archive is written: is this the file exported?"),
        )) from error


def read_archive(text: str) -> dict:
    """The archive's JSON object, or refuse: not JSON (with its line and column), another
    format, a version newer than this server reads."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ServiceError(labelled(
            _("Event archive, line %(line)s, column %(column)s")
            % {"line": error.lineno, "column": error.colno},
            _("this is not JSON (%(error)s).") % {"error": error.msg},
        )) from error
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ServiceError(labelled(
            _("Event archive"),
            _("this is not an event archive (its “format” is not “%(format)s”).")
            % {"format": FORMAT},
        ))
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ServiceError(labelled(
            _("Event archive"), _("its “version” must be a whole number from 1.")
        ))
    if version > VERSION:
        raise ServiceError(labelled(
            _("Event archive"),
            _(
                "it was written in format version %(version)s, and this server reads versions "
                "up to %(newest)s: update this server, then import it again."
            ) % {"version": version, "newest": VERSION},
        ))
    return data


def import_event(text: str, actor) -> Tournament:
    """Create a tournament from an event archive; ``actor`` is its arbiter."""
    data = read_archive(text)
    with transaction.atomic():
        try:
            t = _import(data, actor)
        except IntegrityError as error:  # two rows where the rules allow one (a TPN, a board)
            raise ServiceError(labelled(
                _("Event archive"),
                _("two rows clash where only one is allowed (%(error)s).")
                % {"error": quoted(str(error).splitlines()[0])},
            )) from error
        audit(t, actor, "import event", after={
            "players": t.players.count(), "rounds": t.round_set.count(),
            "exported_at": data.get("exported_at"),
        })
    return t


def _import(data: dict, actor) -> Tournament:
    t = _row(Tournament, _part(data, "tournament", dict), "tournament")
    try:
        t.full_clean(exclude=["arbiters"])
    except ValidationError as error:
        raise _invalid("tournament", error) from error
    tiebreak_specs(t)
    stamps = _stamps(t)
    t.save()
    Tournament.objects.filter(pk=t.pk).update(**stamps)
    created(t)
    if actor is not None:
        t.arbiters.add(actor)
    players = _players(t, _part(data, "players", list))
    _rounds(t, _part(data, "rounds", list), players)
    requests = [
        _with(ByeRequest, item, f"bye_requests[{n}]",
              player=_required(players, item, "player", f"bye_requests[{n}]"))
        for n, item in enumerate(_part(data, "bye_requests", list))
    ]
    _create(ByeRequest, requests)
    _audit(t, _part(data, "audit", list), players)
    t.refresh_from_db()
    return t


def _part(data: dict, key: str, kind: type):
    value = data.get(key, kind())
    if not isinstance(value, kind):
        raise _refuse(quoted(key), _("not what the format holds there."))
    return value


def _row(model: type[models.Model], item, where: str, **references) -> models.Model:
    """A row of ``model`` from its item in the archive (its kept fields), not yet saved."""
    if not isinstance(item, dict):
        raise _refuse(where, _("not what the format holds there."))
    known = {f.name: f for f in kept_fields(model)}
    fields = {}
    for key, value in item.items():
        if key in references or key == "id" or key == "games":
            continue
        field = known.get(key)
        if field is None:
            raise _refuse(where, _(
                "unknown field “%(field)s” (written by a newer version of the software?)."
            ) % {"field": quoted(key)})
        try:
            fields[field.attname] = field.to_python(value)
        except ValidationError as error:
            raise _invalid(where, ValidationError({key: error.messages})) from error
    return model(**fields, **references)


def _with(model: type[models.Model], item, where: str, **references) -> models.Model:
    """A row of ``model`` from the archive, checked as the model checks it."""
    row = _row(model, item, where, **references)
    try:
        row.full_clean(exclude=list(references), validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        raise _invalid(where, error) from error
    return row


def _invalid(where: str, error: ValidationError) -> ServiceError:
    if not hasattr(error, "error_dict"):
        return _refuse(where, " ".join(error.messages))
    parts = [f"{key}: {' '.join(messages)}" for key, messages in error.message_dict.items()]
    return _refuse(where, "; ".join(parts))


def _stamps(row: models.Model) -> dict:
    """A row's times set by the database when it is written (``auto_now``), as in the file."""
    return {
        f.attname: getattr(row, f.attname)
        for f in kept_fields(type(row))
        if (getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False))
        and getattr(row, f.attname) is not None  # not in the file: the time of the import
    }


def _create(model: type[models.Model], rows: list) -> list:
    """Save the rows, each with its times as in the file (not the time of the import)."""
    stamps = [_stamps(row) for row in rows]
    model.objects.bulk_create(rows, batch_size=500)
    names = {name for stamp in stamps for name in stamp}
    if names:
        for row, stamp in zip(rows, stamps):
            for name, value in stamp.items():
                setattr(row, name, value)
        model.objects.bulk_update(rows, sorted(names), batch_size=500)
    return rows


def _player(players: dict, item, key: str, where: str) -> Player | None:
    """The player an item refers to by ``id`` (None when the item names none)."""
    ref = item.get(key) if isinstance(item, dict) else None
    if ref is None:
        return None
    found = players.get(ref) if isinstance(ref, int) else None
    if found is None:
        raise _refuse(where, _("“%(key)s” names player %(id)s, who is not in the file.")
                      % {"key": key, "id": quoted(str(ref))})
    return found


def _required(players: dict, item, key: str, where: str) -> Player:
    player = _player(players, item, key, where)
    if player is None:
        raise _refuse(where, _("“%(key)s” is missing.") % {"key": key})
    return player


def _players(t: Tournament, items: list) -> dict[int, Player]:
    by_id: dict[int, Player] = {}
    rows = []
    for n, item in enumerate(items):
        where = f"players[{n}]"
        row = _with(Player, item, where, tournament=t)
        ref = item.get("id")
        if not isinstance(ref, int) or ref in by_id:
            raise _refuse(where, _("each player needs an “id” of their own (a whole number)."))
        by_id[ref] = row
        rows.append(row)
    _create(Player, rows)
    return by_id


def _rounds(t: Tournament, items: list, players: dict[int, Player]) -> None:
    rounds, games = [], []
    for n, item in enumerate(items):
        where = f"rounds[{n}]"
        rnd = _with(Round, item, where, tournament=t)
        rounds.append(rnd)
        for m, game in enumerate(_part(item, "games", list)):
            here = f"{where}.games[{m}]"
            white = _required(players, game, "white", here)
            black = _player(players, game, "black", here)
            games.append((rnd, _with(Game, game, here, round=None, white=white, black=black)))
    for rnd in rounds:
        data = rnd.explanation_data
        if isinstance(data, dict) and isinstance(data.get("players"), dict):
            # The explanation names players by TPN, with the id each had: give the new ids.
            data["players"] = {
                tpn: players[ref].pk if ref in players else ref
                for tpn, ref in data["players"].items()
            }
    _create(Round, rounds)
    for rnd, game in games:
        game.round = rnd
    _create(Game, [game for _rnd, game in games])


def _audit(t: Tournament, items: list, players: dict[int, Player]) -> None:
    users: dict[str, object] = {}
    rows = []
    for n, item in enumerate(items):
        where = f"audit[{n}]"
        name = item.get("actor") if isinstance(item, dict) else None
        actor = None
        if name is not None:
            if not isinstance(name, str) or not name:
                raise _refuse(where, _("“actor” must be a user name."))
            actor = users.get(name) or _author(name)
            users[name] = actor
        player = _player(players, item, "player", where)
        entry = _with(AuditEntry, item, where, tournament=t, actor=actor, player=player)
        if entry.action == RENUMBERED:
            entry.before, entry.after = (
                _renumbered(entry.before, players), _renumbered(entry.after, players)
            )
        rows.append(entry)
    _create(AuditEntry, rows)


def _renumbered(tpns, players: dict[int, Player]):
    """TPNs by player id (a renumbering's data) with the players' new ids."""
    if not isinstance(tpns, dict):
        return tpns
    out = {}
    for key, tpn in tpns.items():
        player = players.get(int(key)) if str(key).isdigit() else None
        out[str(player.pk) if player is not None else key] = tpn
    return out


def _author(name: str):
    """The user who made an entry, by name: an inactive user who cannot log in is made when
    this server has none of that name, only to name the author."""
    model = get_user_model()
    user = model.objects.filter(**{model.USERNAME_FIELD: name}).first()
    if user is None:
        user = model(**{model.USERNAME_FIELD: name}, is_active=False)
        user.set_unusable_password()
        user.save()
    return user
