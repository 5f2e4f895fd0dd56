"""The statements of ren2020heldp that the book's claims are judged against (see :mod:`ldpcode.claims.statements`)."""

from __future__ import annotations

from . import Statement

STATEMENTS: tuple[Statement, ...] = ()
