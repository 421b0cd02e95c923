"""Reading a list file: its players as table rows, one at a time, each with its line number.

Whatever a file holds, the memory it takes stays small: its size once decompressed, the length
of a TXT line and of an XML text or tag are bounded (``Limits``). A TXT list is read as ASCII
until its first line that is not, where its encoding is detected (UTF-8, else
charset-normalizer), or named by the caller. Every refusal is a ``FideListError`` naming the
line, on one line.
"""

from __future__ import annotations

import codecs
import contextlib
import re
import xml.sax
import xml.sax.handler
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO
from xml.sax.expatreader import ExpatLocator

import charset_normalizer
from defusedxml.common import DefusedXmlException
from defusedxml.expatreader import create_parser
from django.conf import settings

from tournaments.models import FidePlayer, RatingType

FIELDS = [f.attname for f in FidePlayer._meta.concrete_fields]
"""Columns of the table, in model order (``fide_id`` first)."""

# Columns of the TXT lists, by the name the header line gives them.
_TXT_COLUMNS = {
    "ID Number": "fide_id", "Name": "name", "Fed": "federation", "Sex": "sex", "Tit": "title",
    "WTit": "w_title", "OTit": "o_title", "FOA": "foa_title",
    "SRtng": "standard_rating", "SGm": "standard_games", "SK": "standard_k",
    "RRtng": "rapid_rating", "RGm": "rapid_games", "Rk": "rapid_k",
    "BRtng": "blitz_rating", "BGm": "blitz_games", "BK": "blitz_k",
    "B-day": "birth_year", "Flag": "flag",
    # Single-kind lists: the rating column is named by the month (OCT26), see _txt_columns.
    "Gms": "{kind}_games", "K": "{kind}_k",
}
_MONTH = re.compile(r"\A[A-Z]{3}[0-9]{2}\Z")

# Elements of the XML lists.
_XML_FIELDS = {
    "fideid": "fide_id", "name": "name", "country": "federation", "sex": "sex",
    "title": "title", "w_title": "w_title", "o_title": "o_title", "foa_title": "foa_title",
    "rating": "{kind}_rating", "games": "{kind}_games", "k": "{kind}_k",
    "rapid_rating": "rapid_rating", "rapid_games": "rapid_games", "rapid_k": "rapid_k",
    "blitz_rating": "blitz_rating", "blitz_games": "blitz_games", "blitz_k": "blitz_k",
    "birthday": "birth_year", "flag": "flag",
}
_XML_DEPTH = 8  # FIDE's lists nest three deep (<playerslist><player><fideid>)

NUMBER_FIELDS = frozenset(
    name for name in FIELDS
    if name.endswith(("_rating", "_games", "_k")) or name in ("birth_year",)
)
_WIDTH = {f.attname: f.max_length for f in FidePlayer._meta.concrete_fields if f.max_length}
_OLD_TITLES = {"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM",
               "wf": "WFM", "wc": "WCM"}
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # C0 controls but the tab, and DEL


class FideListError(ValueError):
    """The file is not one of FIDE's lists, or cannot replace the list loaded; the message says
    where it went wrong (the line) and why, on one line."""


@dataclass(frozen=True)
class Limits:
    """What a list file may hold, whatever it holds: they bound the memory and time a file can
    take. Defaults from the settings ``FIDE_LIST_MAX_BYTES``, ``FIDE_LIST_MAX_LINE``,
    ``FIDE_LIST_ENCODING_SAMPLE``."""

    max_bytes: int
    """Bytes of the list once decompressed."""
    max_line: int
    """Bytes of a TXT line; characters of an XML text, bytes of an XML tag or comment."""
    sample: int
    """Bytes from the first line that is not ASCII on, read to detect the encoding."""

    @classmethod
    def from_settings(cls) -> Limits:
        return cls(
            settings.FIDE_LIST_MAX_BYTES, settings.FIDE_LIST_MAX_LINE,
            settings.FIDE_LIST_ENCODING_SAMPLE,
        )


def _kind_of(name: str) -> str:
    """The kind of rating of a single-kind list, from its file name (standard by default)."""
    lower = name.lower()
    for kind in (RatingType.RAPID, RatingType.BLITZ):
        if kind in lower:
            return kind
    return RatingType.STANDARD


def _row(values: dict[str, str]) -> tuple | None:
    """Return the table row of one player's fields as text, or None without a FIDE ID."""
    fide_id = values.get("fide_id", "").strip()
    # ASCII digits only: str.isdigit() alone takes '²' and '٣'.
    if not (fide_id.isdigit() and fide_id.isascii() and len(fide_id) <= 10):
        return None
    row = []
    for name in FIELDS:
        text = values.get(name, "").strip()
        if name == "fide_id":
            row.append(int(fide_id))
        elif name in NUMBER_FIELDS:
            number = int(text) if text.isdigit() and text.isascii() else None
            row.append(number if number is not None and number < 32768 else None)
        else:
            if name in ("title", "w_title"):
                text = _OLD_TITLES.get(text.lower(), text.upper())
            elif name == "sex":
                text = text[:1].upper()
            row.append(text[: _WIDTH.get(name, len(text))])
    if row[FIELDS.index("birth_year")] == 0:
        row[FIELDS.index("birth_year")] = None
    return tuple(row)


def _check_text(line: str, number: int) -> None:
    control = _CONTROL.search(line)
    if control:
        raise FideListError(
            f"line {number}, column {control.start() + 1}: control character "
            f"U+{ord(control.group()):04X}: not a FIDE list."
        )


def _txt_columns(header: str, kind: str) -> list[tuple[str, int, int | None]]:
    """Return (field, start, end) of each column, from where the header names it."""
    tokens = [(m.group(), m.start()) for m in re.finditer(r"ID Number|\S+", header)]
    columns = []
    for i, (token, start) in enumerate(tokens):
        end = tokens[i + 1][1] if i + 1 < len(tokens) else None
        field = "{kind}_rating" if _MONTH.match(token) else _TXT_COLUMNS.get(token)
        if field is None:
            continue
        columns.append((field.format(kind=kind), start, end))
    names = {field for field, _, _ in columns}
    if not {"fide_id", "name"} <= names:
        raise FideListError(
            "line 1: not a FIDE rating list (its header names no 'ID Number' and 'Name')."
        )
    return columns


def read_txt(
    lines: Iterable[tuple[int, str]], *, kind: str = RatingType.STANDARD
) -> Iterator[tuple[int, tuple]]:
    """Yield (line number, row) of a TXT list from its numbered lines, one at a time."""
    lines = ((number, line.rstrip("\r\n")) for number, line in lines)
    number, header = next(lines, (1, ""))
    _check_text(header, number)
    columns = _txt_columns(header, kind)
    for number, line in lines:
        if not line.strip():
            continue
        _check_text(line, number)
        row = _row({field: line[start:end] for field, start, end in columns})
        if row is None:
            raise FideListError(f"line {number}: no FIDE ID (1 to 10 digits) in columns 1-15.")
        yield number, row


# ---------------------------------------------------------------------------------------------
# Files: bounded, decoded


class _Input:
    """A binary stream read up to ``limit`` bytes (decompressed), counted."""

    def __init__(self, stream: BinaryIO, limit: int, total: int | None) -> None:
        self._stream, self._limit = stream, limit
        self.total = total
        self.count = 0

    def _counted(self, data: bytes) -> bytes:
        self.count += len(data)
        if self.count > self._limit:
            raise FideListError(f"more than {_size(self._limit)} once decompressed: too big.")
        return data

    def read(self, size: int) -> bytes:
        return self._counted(self._stream.read(size))


def _size(count: int) -> str:
    return f"{count / 2**20:.0f} MiB" if count >= 2**20 else f"{count} bytes"


def _ascii_compatible(encoding: str) -> bool:
    """Whether the encoding writes ASCII as ASCII (UTF-8, Latin-1, Windows-125x...), which the
    lines and columns of a TXT list need (not UTF-16, not EBCDIC)."""
    sample = "ID Number Name\t0123456789\n"
    try:
        return sample.encode(encoding) == sample.encode("ascii")
    except (UnicodeError, LookupError):
        return False


def detect_encoding(sample: bytes, number: int = 1) -> str:
    """The encoding of a text from its lines from ``number`` on (a TXT list from its first line
    not ASCII; an uploaded CSV or TRF file whole): UTF-8 if it decodes so, else charset-normalizer's
    guess, Windows-1252 when tied. Refuse a text in no encoding recognised, or in one that does
    not write ASCII as ASCII."""
    try:
        sample.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        pass
    matches = charset_normalizer.from_bytes(sample)
    best = matches.best()
    if best is None:
        raise FideListError(f"line {number}: the text is in no encoding recognised (not UTF-8).")
    # Names in Latin script make several single-byte encodings equally likely; the commonest,
    # Windows-1252 (Latin-1's superset), is taken when it is one of them.
    score = (best.chaos, best.coherence)
    tied = {name for match in matches if (match.chaos, match.coherence) == score
            for name in match.could_be_from_charset}
    encoding = "cp1252" if "cp1252" in tied else best.encoding
    if not _ascii_compatible(encoding):
        raise FideListError(f"line {number}: the text is in {encoding}; save it as UTF-8.")
    return encoding


class ListFile:
    """A list file being read: iterate it for (line number, row) of each player. ``encoding``
    is that of a TXT list's text once known (``ascii`` when all of it is), None for XML;
    ``bytes_read`` and ``bytes_total`` (announced, or None) count it decompressed."""

    def __init__(self, stream: _Input, name: str, xml: bool, encoding: str | None,
                 limits: Limits) -> None:
        self._stream, self._limits = stream, limits
        self.name, self.kind, self.xml = name, _kind_of(name), xml
        self.encoding = encoding
        self._named = encoding is not None

    @property
    def bytes_read(self) -> int:
        return self._stream.count

    @property
    def bytes_total(self) -> int | None:
        return self._stream.total

    def __iter__(self) -> Iterator[tuple[int, tuple]]:
        try:
            if self.xml:
                yield from self._xml_rows()
            else:
                yield from read_txt(self._text_lines(), kind=self.kind)
        except (zipfile.BadZipFile, zlib.error, EOFError) as error:
            raise FideListError(f"{self.name}: the archive is damaged ({error}).") from None

    # TXT

    def _byte_lines(self) -> Iterator[tuple[int, bytes]]:
        """The lines, numbered, without their ends; read in blocks, never more than a block and
        a line's bound at once."""
        limit = self._limits.max_line
        number, rest = 0, b""
        while block := self._stream.read(1 << 16):
            lines = (rest + block).split(b"\n")
            rest = lines.pop()
            for line in lines:
                number += 1
                if len(line) > limit:
                    raise _too_long(number, limit)
                yield number, line.rstrip(b"\r")
            if len(rest) > limit:
                raise _too_long(number + 1, limit)
        if rest:
            yield number + 1, rest.rstrip(b"\r")

    def _text_lines(self) -> Iterator[tuple[int, str]]:
        lines = self._byte_lines()
        for number, line in lines:
            if number == 1 and line.startswith(codecs.BOM_UTF8):
                line = line[len(codecs.BOM_UTF8):]
                self.encoding = self.encoding or "utf-8"
            if self.encoding is None and not line.isascii():
                window = [(number, line), *_first(lines, self._limits.sample)]
                self.encoding = detect_encoding(b"\n".join(text for _, text in window), number)
                for number, line in window:
                    yield number, self._decode(line, number)
                continue
            yield number, self._decode(line, number)
        self.encoding = self.encoding or "ascii"

    def _decode(self, line: bytes, number: int) -> str:
        encoding = self.encoding or "ascii"
        try:
            return line.decode(encoding)
        except UnicodeDecodeError as error:
            column = len(line[: error.start].decode(encoding, "replace")) + 1
            how = "named" if self._named else "found in the lines before"
            raise FideListError(
                f"line {number}, column {column}: byte 0x{line[error.start]:02X} is not "
                f"{encoding} (the encoding {how}); name the file's encoding."
            ) from None

    # XML

    def _xml_rows(self) -> Iterator[tuple[int, tuple]]:
        limit = self._limits.max_line
        players = _Players(self.kind, limit)
        parser = create_parser(forbid_dtd=True)
        parser.setContentHandler(players)
        players.setDocumentLocator(ExpatLocator(parser))  # parse() would, feed() does not
        unread = 0  # bytes fed since the parser last reported anything
        try:
            while chunk := self._stream.read(min(limit, 1 << 16)):
                events = players.events
                parser.feed(chunk)
                unread = unread + len(chunk) if players.events == events else 0
                if unread > limit:
                    raise FideListError(
                        f"line {players.line}: a tag, comment or declaration longer than "
                        f"{limit} bytes: not a FIDE list."
                    )
                rows, players.rows = players.rows, []
                yield from rows
            parser.close()
            yield from players.rows
        except xml.sax.SAXParseException as error:
            raise FideListError(
                f"line {error.getLineNumber()}, column {error.getColumnNumber() + 1}: XML error: "
                f"{error.getMessage()}."
            ) from None
        except DefusedXmlException as error:
            raise FideListError(
                f"line {players.line}: the XML declares a document type or entities "
                f"({type(error).__name__}), which a FIDE list never does."
            ) from None


def _too_long(number: int, limit: int) -> FideListError:
    return FideListError(f"line {number}: longer than {limit} bytes: not a FIDE list.")


def _first(lines: Iterator[tuple[int, bytes]], size: int) -> list[tuple[int, bytes]]:
    """Take lines from ``lines`` until they hold ``size`` bytes (or the lines end)."""
    taken, total = [], 0
    while total < size and (item := next(lines, None)) is not None:
        taken.append(item)
        total += len(item[1]) + 1
    return taken


class _Players(xml.sax.handler.ContentHandler):
    """Collects the fields of each ``<player>`` into ``rows`` (drained by the reader), with
    every text and the depth of elements bounded."""

    def __init__(self, kind: str, limit: int) -> None:
        super().__init__()
        self.kind, self.limit = kind, limit
        self.rows: list[tuple[int, tuple]] = []
        self.events = 0
        self._locator = None
        self._depth = 0
        self._player: dict[str, str] | None = None
        self._player_line = self._player_depth = 0
        self._field: str | None = None
        self._text: list[str] = []
        self._run = 0  # characters of text since the last tag

    def setDocumentLocator(self, locator) -> None:
        self._locator = locator

    @property
    def line(self) -> int:
        return self._locator.getLineNumber() if self._locator else 1

    def startElement(self, name, attrs) -> None:
        self.events += 1
        self._depth += 1
        self._run = 0
        if self._depth > _XML_DEPTH:
            raise FideListError(f"line {self.line}: elements nested too deep: not a FIDE list.")
        if name == "player":
            self._player, self._player_line, self._player_depth = {}, self.line, self._depth
        elif self._player is not None and self._depth == self._player_depth + 1:
            field = _XML_FIELDS.get(name)
            self._field = field.format(kind=self.kind) if field else None
            self._text = []

    def characters(self, content) -> None:
        self.events += 1
        self._run += len(content)
        if self._run > self.limit:
            raise FideListError(
                f"line {self.line}: a text longer than {self.limit} characters: not a FIDE list."
            )
        if self._field is not None:
            self._text.append(content)

    def endElement(self, name) -> None:
        self.events += 1
        self._run = 0
        if self._field is not None and self._depth == self._player_depth + 1:
            self._player[self._field] = "".join(self._text)
            self._field = None
        elif self._player is not None and self._depth == self._player_depth:
            row = _row(self._player)
            if row is None:
                raise FideListError(
                    f"line {self._player_line}: a <player> without a numeric <fideid>."
                )
            self.rows.append((self._player_line, row))
            self._player = None
        self._depth -= 1


@contextlib.contextmanager
def open_list(
    source: str | Path | BinaryIO, *, name: str | None = None, encoding: str | None = None,
    limits: Limits | None = None,
) -> Iterator[ListFile]:
    """Open a list file: a path, or a seekable binary file such as an upload (named by
    ``name``); its ``.txt`` or ``.xml``, or the one inside a ``.zip``. ``encoding`` names that
    of a TXT list, detected when None."""
    limits = limits or Limits.from_settings()
    if encoding is not None:
        try:
            encoding = codecs.lookup(encoding).name
        except LookupError:
            raise FideListError(f"unknown encoding {encoding!r}.") from None
        if not _ascii_compatible(encoding):
            raise FideListError(f"{encoding} does not write a FIDE list's columns as ASCII.")
    with contextlib.ExitStack() as stack:
        if isinstance(source, (str, Path)):
            name = name or Path(source).name
            source = stack.enter_context(open(source, "rb"))
        name = name or Path(getattr(source, "name", None) or "list.txt").name
        total = _stream_size(source)
        if zipfile.is_zipfile(source):
            source.seek(0)
            archive = stack.enter_context(zipfile.ZipFile(source))
            members = [m for m in archive.infolist()
                       if m.filename.lower().endswith((".txt", ".xml"))]
            if len(members) != 1:
                raise FideListError(f"{name}: expected one .txt or .xml file inside.")
            member = members[0]
            if member.file_size > limits.max_bytes:
                raise FideListError(
                    f"{member.filename}: {_size(member.file_size)} once decompressed, more "
                    f"than {_size(limits.max_bytes)}: too big."
                )
            name, total = member.filename, member.file_size
            source = stack.enter_context(archive.open(member))
        else:
            source.seek(0)
        head = source.read(64)
        source.seek(0)
        xml = name.lower().endswith(".xml") or head.lstrip().startswith(b"<")
        yield ListFile(_Input(source, limits.max_bytes, total), name, xml, encoding, limits)


def _stream_size(stream: BinaryIO) -> int | None:
    try:
        size = stream.seek(0, 2)
    except (OSError, ValueError):
        return None
    stream.seek(0)
    return size


def read_file(source: str | Path | BinaryIO, **options) -> Iterator[tuple]:
    """Yield the rows of a list file (``open_list``), without loading them."""
    with open_list(source, **options) as listed:
        for _number, row in listed:
            yield row
