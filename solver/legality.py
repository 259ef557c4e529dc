"""The shared pieces of the engine contract (docs/architecture.md, "The engine contract"):
every game's ``engine.py`` states each rule an action must keep once, in
``verify_<action>(state, ...)`` (raising :class:`RuleError` naming the rule), and derives
``can_<action>`` from it with :func:`can`, so that the two never disagree.

A ``verify_<action>`` error quotes the token at fault (``text``); :func:`at_statement`
turns it into the error of the record's statement, its column on that token.

>>> def verify_even(state, n):
...     if n % 2:
...         raise RuleError(f"{n} is odd", rule="X-1", text=str(n))
>>> can_even = can(verify_even)
>>> can_even(None, 2), can_even(None, 3), can_even.__name__
(True, False, 'can_even')
>>> from solver.records import Statement
>>> st = Statement(4, "play 3", None)
>>> try:
...     verify_even(None, 3)
... except RuleError as e:
...     print(at_statement(e, st))
<record>:4: 3 is odd (X-1): 'play 3'
>>> at_statement(RuleError("odd", rule="X-1", text="3"), st).offset
5
"""
from __future__ import annotations

from typing import Any, Callable

from solver.errors import RuleError


def can(verify: Callable[..., None]) -> Callable[..., bool]:
    """``can_<action>`` of ``verify_<action>``: true exactly when it does not raise
    :class:`RuleError`."""
    def can_(state: Any, *args: Any, **kwargs: Any) -> bool:
        try:
            verify(state, *args, **kwargs)
        except RuleError:
            return False
        return True
    can_.__name__ = can_.__qualname__ = verify.__name__.replace("verify_", "can_", 1)
    can_.__doc__ = f"Whether ``{verify.__name__}`` accepts the action (it does not raise)."
    return can_


def check_before(holder: Any, verify: Callable[..., None], args: tuple, text: str,
                  line: int) -> None:
    """``verify`` on the state before the statement a game's working state (``holder``: a
    ``Play``...) is applying: ``holder.state()``, made once a statement (``holder._before``,
    which its ``apply`` resets to ``None``); its error becomes the statement's."""
    if holder._before is None:
        holder._before = holder.state()
    try:
        verify(holder._before, *args)
    except RuleError as e:
        raise RuleError(e.message, rule=e.rule, text=text, line=line) from None


def statement_error(msg: str, st, rule: str) -> RuleError:
    """The rule error of statement ``st`` as a whole (its text and line, no column)."""
    return at_statement(RuleError(msg, rule=rule), st)


def at_statement(err: RuleError, st, *, first: bool = False) -> RuleError:
    """``err`` (from a ``verify_<action>``) as the error of statement ``st``: its text and
    line, the column on the token ``err`` quoted (its last occurrence: the actor comes first
    and is quoted with ``first``)."""
    from solver.records import find_token

    token = err.text
    i = -1
    if token:       # as typed, in any spelling (9♣ for 9C, ben for Ben)
        i = find_token(st.text, token, last=not first)
    return RuleError(err.message, text=st.text, rule=err.rule, line=st.line,
                     offset=i if i > 0 else None)
