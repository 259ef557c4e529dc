"""cardsleuth solver: card notation, game records, the card-location model and the games.

No printing and no Click here: everything returns values or raises a
:class:`solver.errors.SleuthError` subclass.
"""
__version__ = "0.1.0"
