"""What the coreference readers share: line ends, and the report of a file's problems.

**Line ends.** The input layer's :func:`~clusteragree.inputs.iter_lines` and
:func:`~clusteragree.inputs.byte_lines` split lines at LF (a CR before it removed). A file whose
lines end with a CR alone would be one long line: a CoNLL file one document without tokens, a
CorefUD file one line that is not a token. The coreference readers therefore read every CR that
is not followed by LF as a line end, as text-mode Python does (universal newlines), before
either of their paths reads the lines. A file whose line ends are all CR, like one whose line
ends are all CRLF, is read without a notice; a file that mixes CR line ends with LF ones may
hold a stray CR that was never meant as a line end, so its readers report the CRs so read
(kind ``converted``, first line and count; ``--strict`` refuses it).

**Problems.** Each reader counts what it repairs, skips or ignores in a file in one
:class:`~clusteragree.errors.Tally` (kind, first line, count), reported once at the end of the
file: as notices, or under strict reading every kind in the ledger and then one refusal. An
error that nothing repairs ends the reading; :func:`refusal` reports what was counted before it.
"""

from __future__ import annotations

import contextlib
import re
from typing import TypeVar, overload

from ..errors import InputError, Tally

__all__ = ["CR_MIXED", "line_ends", "refusal"]

T = TypeVar("T", str, bytes)
#: The notice (kind ``converted``) of a file that mixes CR line ends with LF ones.
CR_MIXED = ("carriage returns (CR) read as line ends in a file whose other lines end in LF "
            "(a stray CR splits its line)")
_BARE = re.compile("\r(?!\n)")
_BARE_BYTES = re.compile(b"\r(?!\n)")


@overload
def line_ends(text: str) -> tuple[str, int | None, int]: ...
@overload
def line_ends(text: bytes) -> tuple[bytes, int | None, int]: ...
def line_ends(text: T) -> tuple[T, int | None, int]:
    """``text`` with every CR that is not followed by LF turned into LF, and where the text
    also has LF line ends, the line of the first such CR and their number.

    Parameters
    ----------
    text : str or bytes
        A whole file, decoded or as UTF-8 bytes (a CR byte is never part of another UTF-8
        character).

    Returns
    -------
    text : str or bytes
        The same type; when it had a CR line end, every line now ends in LF (CRLF too).
    line : int or None
        The line (1-based, CRs counted as line ends) of the first CR turned into LF when the
        file mixes them with LF line ends; None when it does not (no such CR, or every line
        end is a CR).
    count : int
        The number of CRs turned into LF in that mixed case; 0 otherwise.

    References
    ----------
    docs/coref.md, "Input checks and warnings" (line ends).

    Examples
    --------
    An old Mac file: its lines end with CR and are read as lines, with nothing to report:

    >>> line_ends("#begin document d\\rd 0 0 Mary (1)\\r#end document\\r")
    ('#begin document d\\nd 0 0 Mary (1)\\n#end document\\n', None, 0)

    A CR among LF (or CRLF) line ends is read as a line end too, and its line and number are
    given for a notice, here line 2:

    >>> line_ends(b"a\\r\\nb\\rc\\n")
    (b'a\\nb\\nc\\n', 2, 1)
    """
    if isinstance(text, str):
        cr, lf, bare_cr = "\r", "\n", _BARE
    else:
        cr, lf, bare_cr = b"\r", b"\n", _BARE_BYTES
    if cr not in text:
        return text, None, 0
    bare = text.count(cr) - text.count(cr + lf)
    if bare == 0:
        return text, None, 0
    line, count = None, 0
    if lf in text:  # CR line ends among LF ones
        found = bare_cr.search(text)
        assert found is not None
        line, count = text.count(lf, 0, found.start()) + 1, bare
    return text.replace(cr + lf, lf).replace(cr, lf), line, count


def refusal(tally: Tally, err: InputError) -> InputError:
    """``err``, once every problem counted in ``tally`` so far is reported.

    An error that nothing repairs ends the reading of a file; the problems met before it are
    reported first (as notices, or under strict reading put in the ledger: the error is then
    the one refusal of the file).

    Examples
    --------
    >>> from clusteragree.errors import Ledger
    >>> tally = Tally("a.conll")
    >>> tally.add("repaired", "comment lines inside documents skipped", 4)
    >>> with Ledger(strict=True) as ledger:
    ...     err = refusal(tally, InputError("an unreadable chunk", "a.conll", 9))
    >>> str(err)
    'a.conll:9: an unreadable chunk'
    >>> [str(n) for n in ledger.notices]
    ['a.conll:4: repaired: comment lines inside documents skipped']
    """
    with contextlib.suppress(InputError):
        tally.report()
    return err
