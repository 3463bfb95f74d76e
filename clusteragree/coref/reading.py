"""What the coreference readers share: line ends, and the report of a file's problems.

**Line ends** (:func:`~clusteragree.inputs.line_ends`, shared with the tree readers). The
input layer's :func:`~clusteragree.inputs.iter_lines` and
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

from ..errors import InputError, Tally

__all__ = ["refusal"]

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
