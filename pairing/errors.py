"""Narrow exception types of the pairing package."""

from __future__ import annotations

from pairing.text import Text, gettext_noop

AT = gettext_noop("line %(line)s, column %(column)s: %(reason)s")
"""Where a TRF file is malformed, and why (the web app says it in the reader's language)."""


class PairingError(Exception):
    """Base class of every error the pairing package raises on purpose."""


class NoValidPairing(PairingError):
    """No round-pairing complies with the absolute criteria (C.04.3 Art. 1.9.3)."""


class EngineFault(PairingError):
    """The engine reached a pairing that its own checker rejects: a bug, never an answer."""


class UnsupportedFeature(PairingError):
    """The input asks for something this engine does not implement (named in the message)."""


class TrfFormatError(PairingError, ValueError):
    """A TRF file is malformed; the message names the line, the column and the reason.

    The message is a ``pairing.text.Text`` (its English is ``str(error)``), and so is the
    reason, so that the web app can say both in the reader's language."""

    def __init__(self, line: int, column: int, reason: str) -> None:
        self.line = line
        self.column = column
        self.reason = reason
        super().__init__(Text(AT, line=line, column=column, reason=reason))


class UndecodableFile(PairingError, ValueError):
    """A file's bytes are not text in the encoding it was read with (``pairing.trf.decode_file``).

    ``line`` is the line that holds the first bad byte and ``byte`` its position in the file
    (both 1-based); ``value`` is that byte."""

    def __init__(self, line: int, byte: int, value: int, encoding: str) -> None:
        self.line = line
        self.byte = byte
        self.value = value
        self.encoding = encoding
        super().__init__(
            f"line {line}, byte {byte}: the file is not valid {encoding} (byte 0x{value:02X})"
        )


class ConfigurationError(PairingError, ValueError):
    """A random tournament generator's configuration file is malformed (``pairing.generator``);
    ``line`` 0 is the file as a whole."""

    def __init__(self, line: int, reason: str) -> None:
        self.line = line
        self.reason = reason
        super().__init__(f"line {line}: {reason}" if line else reason)
