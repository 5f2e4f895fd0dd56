"""The statements of zheng2020locally that the book's claims are judged against (see :mod:`ldpcode.claims.statements`)."""

from __future__ import annotations

from . import Statement

STATEMENTS: tuple[Statement, ...] = ()
