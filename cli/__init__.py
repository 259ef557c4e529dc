"""The ``sleuth`` command-line application (Click).  Formatting only: all logic is in
:mod:`solver`."""
