"""RFC 9651 structured-field Dictionaries, parsed exactly (the statement format of A5).

An aipref statement of preference ("train-ai=n, search=y") is an RFC 9651 Dictionary, processed
as bytes and case-sensitive: :func:`parse_dictionary` follows the parsing algorithms of RFC 9651
section 4.2 step by step (4.2.2 Dictionaries, 4.2.1.2 Inner Lists, 4.2.3 Items and their bare
items, 4.2.3.2 Parameters) and raises :class:`FieldError` wherever they say "fail parsing".
Values come back as Python values; a Token is a :class:`Token`, so the token ``n`` and the string
``"n"`` differ, as the vocabulary requires. Standard library only, like the rest of the core.
"""

from __future__ import annotations

import base64
import binascii
from decimal import Decimal
from typing import Union

__all__ = ["Date", "DisplayString", "FieldError", "Member", "Token", "parse_dictionary"]


class FieldError(ValueError):
    """The bytes are not a structured field of the expected type (RFC 9651: "fail parsing")."""


class Token(str):
    """An RFC 9651 Token (section 3.3.4): ``y`` here is not the String ``"y"``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Token({str.__repr__(self)})"


class Date(int):
    """An RFC 9651 Date (section 3.3.7): seconds since 1970-01-01T00:00:00Z (no clock is read)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Date({int(self)})"


class DisplayString(str):
    """An RFC 9651 Display String (section 3.3.8): Unicode text, distinct from a String."""

    __slots__ = ()


BareItem = int | Decimal | str | Token | bytes | bool | Date | DisplayString
Parameters = dict[str, BareItem]
InnerList = tuple[tuple[tuple[BareItem, Parameters], ...], Parameters]
Member = tuple[Union[BareItem, "list[tuple[BareItem, Parameters]]"], Parameters]
"""A Dictionary member: its value (a bare item, or an inner list's items) and its parameters."""

_DIGITS = b"0123456789"
_LCALPHA = b"abcdefghijklmnopqrstuvwxyz"
_ALPHA = _LCALPHA + _LCALPHA.upper()
_KEY_FIRST = frozenset(_LCALPHA + b"*")
_KEY_REST = frozenset(_LCALPHA + _DIGITS + b"_-.*")
_TCHAR = frozenset(_ALPHA + _DIGITS + b"!#$%&'*+-.^_`|~")
_TOKEN_REST = _TCHAR | frozenset(b":/")
_BASE64 = frozenset(_ALPHA + _DIGITS + b"+/=")
_LCHEX = frozenset(b"0123456789abcdef")
_SP, _HTAB = 0x20, 0x09


class _Reader:
    """The input_string of RFC 9651 section 4.2: bytes consumed from the left."""

    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def peek(self) -> int:
        """The next byte, or -1 at the end."""
        return self.data[self.pos] if self.pos < len(self.data) else -1

    def take(self) -> int:
        byte = self.peek()
        self.pos += 1
        return byte

    def empty(self) -> bool:
        return self.pos >= len(self.data)

    def skip_sp(self) -> None:
        while self.peek() == _SP:
            self.pos += 1

    def skip_ows(self) -> None:
        while self.peek() in (_SP, _HTAB):
            self.pos += 1

    def fail(self, why: str) -> FieldError:
        return FieldError(f"{why} at byte {self.pos}")


def parse_dictionary(data: bytes) -> dict[str, Member]:
    """RFC 9651 section 4.2 with field type Dictionary: leading and trailing spaces discarded, a
    repeated key keeps its last value. Raises :class:`FieldError` where the RFC fails parsing."""
    reader = _Reader(data)
    reader.skip_sp()
    found = _dictionary(reader)
    reader.skip_sp()
    if not reader.empty():
        raise reader.fail("unexpected characters after the dictionary")
    return found


def _dictionary(reader: _Reader) -> dict[str, Member]:
    """Section 4.2.2."""
    members: dict[str, Member] = {}
    while not reader.empty():
        key = _key(reader)
        if reader.peek() == ord("="):
            reader.take()
            member: Member = _item_or_inner_list(reader)
        else:
            member = (True, _parameters(reader))
        members[key] = member
        reader.skip_ows()
        if reader.empty():
            return members
        if reader.take() != ord(","):
            raise reader.fail("expected ',' between dictionary members")
        reader.skip_ows()
        if reader.empty():
            raise reader.fail("a trailing ','")
    return members


def _item_or_inner_list(reader: _Reader) -> Member:
    """Section 4.2.1.1."""
    if reader.peek() == ord("("):
        return _inner_list(reader)
    return _bare_item(reader), _parameters(reader)


def _inner_list(reader: _Reader) -> Member:
    """Section 4.2.1.2."""
    reader.take()
    items: list[tuple[BareItem, Parameters]] = []
    while not reader.empty():
        reader.skip_sp()
        if reader.peek() == ord(")"):
            reader.take()
            return items, _parameters(reader)
        items.append((_bare_item(reader), _parameters(reader)))
        if reader.peek() not in (_SP, ord(")")):
            raise reader.fail("expected ' ' or ')' in an inner list")
    raise reader.fail("an inner list without ')'")


def _parameters(reader: _Reader) -> Parameters:
    """Section 4.2.3.2: a repeated parameter keeps its last value."""
    parameters: Parameters = {}
    while reader.peek() == ord(";"):
        reader.take()
        reader.skip_sp()
        key = _key(reader)
        value: BareItem = True
        if reader.peek() == ord("="):
            reader.take()
            value = _bare_item(reader)
        parameters[key] = value
    return parameters


def _key(reader: _Reader) -> str:
    """Section 4.2.3.3: lower-case letters, digits and ``_-.*``, starting with a letter or ``*``."""
    start = reader.pos
    if reader.peek() not in _KEY_FIRST:
        raise reader.fail("a key must start with a lower-case letter or '*'")
    while reader.peek() in _KEY_REST:
        reader.pos += 1
    return reader.data[start : reader.pos].decode("ascii")


def _bare_item(reader: _Reader) -> BareItem:
    """Section 4.2.3.1."""
    first = reader.peek()
    if first == ord("-") or first in _DIGITS_SET:
        return _number(reader)
    if first == ord('"'):
        return _string(reader)
    if first == ord("*") or first in _ALPHA_SET:
        return _token(reader)
    if first == ord(":"):
        return _byte_sequence(reader)
    if first == ord("?"):
        return _boolean(reader)
    if first == ord("@"):
        return _date(reader)
    if first == ord("%"):
        return _display_string(reader)
    raise reader.fail("not the start of an item")


_DIGITS_SET = frozenset(_DIGITS)
_ALPHA_SET = frozenset(_ALPHA)


def _number(reader: _Reader) -> int | Decimal:
    """Section 4.2.4: an Integer (at most 15 digits) or a Decimal (at most 12 + 3 digits)."""
    sign = 1
    if reader.peek() == ord("-"):
        reader.take()
        sign = -1
    if reader.peek() not in _DIGITS_SET:
        raise reader.fail("a number must start with a digit")
    start = reader.pos
    decimal = False
    while not reader.empty():
        byte = reader.peek()
        if byte in _DIGITS_SET:
            reader.pos += 1
        elif byte == ord(".") and not decimal:
            if reader.pos - start > 12:
                raise reader.fail("more than 12 digits before a decimal point")
            reader.pos += 1
            decimal = True
        else:
            break
        if not decimal and reader.pos - start > 15:
            raise reader.fail("an integer of more than 15 digits")
        if decimal and reader.pos - start > 16:
            raise reader.fail("a decimal of more than 16 characters")
    text = reader.data[start : reader.pos].decode("ascii")
    if not decimal:
        return sign * int(text)
    if text.endswith("."):
        raise reader.fail("a decimal ending in '.'")
    if len(text) - text.index(".") - 1 > 3:
        raise reader.fail("more than 3 digits after a decimal point")
    return sign * Decimal(text)


def _string(reader: _Reader) -> str:
    """Section 4.2.5: printable ASCII; only ``\\"`` and ``\\\\`` are escapes."""
    reader.take()
    out = bytearray()
    while not reader.empty():
        byte = reader.take()
        if byte == ord("\\"):
            if reader.empty():
                raise reader.fail("a string ending in '\\'")
            escaped = reader.take()
            if escaped not in (ord('"'), ord("\\")):
                raise reader.fail("an escape other than \\\" or \\\\ in a string")
            out.append(escaped)
        elif byte == ord('"'):
            return out.decode("ascii")
        elif byte < 0x20 or byte > 0x7E:
            raise reader.fail("a character outside printable ASCII in a string")
        else:
            out.append(byte)
    raise reader.fail("a string without its closing '\"'")


def _token(reader: _Reader) -> Token:
    """Section 4.2.6."""
    start = reader.pos
    reader.pos += 1
    while reader.peek() in _TOKEN_REST:
        reader.pos += 1
    return Token(reader.data[start : reader.pos].decode("ascii"))


def _byte_sequence(reader: _Reader) -> bytes:
    """Section 4.2.7: base64 between colons."""
    reader.take()
    end = reader.data.find(b":", reader.pos)
    if end < 0:
        raise reader.fail("a byte sequence without its closing ':'")
    content = reader.data[reader.pos : end]
    if any(byte not in _BASE64 for byte in content):
        raise reader.fail("a character outside base64 in a byte sequence")
    reader.pos = end + 1
    try:
        return base64.b64decode(content + b"=" * (-len(content) % 4))
    except binascii.Error as error:
        raise reader.fail(f"a byte sequence that is not base64 ({error})") from None


def _boolean(reader: _Reader) -> bool:
    """Section 4.2.8: ``?1`` or ``?0``."""
    reader.take()
    byte = reader.take()
    if byte == ord("1"):
        return True
    if byte == ord("0"):
        return False
    raise reader.fail("a boolean other than ?0 or ?1")


def _date(reader: _Reader) -> Date:
    """Section 4.2.9: ``@`` and an Integer of seconds since 1970 (UTC)."""
    reader.take()
    seconds = _number(reader)
    if not isinstance(seconds, int):
        raise reader.fail("a date that is not an integer")
    return Date(seconds)


def _display_string(reader: _Reader) -> DisplayString:
    """Section 4.2.10: ``%"..."`` with lower-case ``%xx`` escapes of UTF-8 bytes."""
    reader.take()
    if reader.take() != ord('"'):
        raise reader.fail("a display string must start with '%\"'")
    out = bytearray()
    while not reader.empty():
        byte = reader.take()
        if byte < 0x20 or byte > 0x7E:
            raise reader.fail("a character outside printable ASCII in a display string")
        if byte == ord("%"):
            digits = reader.data[reader.pos : reader.pos + 2]
            if len(digits) < 2 or any(d not in _LCHEX for d in digits):
                raise reader.fail("a '%' not followed by two lower-case hex digits")
            out.append(int(digits, 16))
            reader.pos += 2
        elif byte == ord('"'):
            try:
                return DisplayString(out.decode("utf-8"))
            except UnicodeDecodeError:
                raise reader.fail("a display string that is not UTF-8") from None
        else:
            out.append(byte)
    raise reader.fail("a display string without its closing '\"'")
