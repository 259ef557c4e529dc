"""Test settings shared by every test module.

Hypothesis runs derandomized by default, so that a CI run is reproducible and its length
predictable; set ``HYPOTHESIS_PROFILE=explore`` to draw fresh random examples (more bug
finding, on demand)."""
from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


import pytest  # noqa: E402


@pytest.fixture
def process_pools(monkeypatch):
    """The ``max_workers`` of every ``ProcessPoolExecutor`` made while the test runs (so a
    test can tell that work was shared among processes)."""
    import concurrent.futures as cf

    made: list = []

    class Pool(cf.ProcessPoolExecutor):
        def __init__(self, *a, **kw):
            made.append(kw.get("max_workers"))
            super().__init__(*a, **kw)

    monkeypatch.setattr(cf, "ProcessPoolExecutor", Pool)
    return made


@pytest.fixture(autouse=True)
def _no_carried_certainties():
    """Each test starts with no certainties kept from another test's records
    (:func:`solver.literature.history.remember`): a test of stage 1 proves them itself."""
    from solver.literature.history import forget

    forget()
    yield
    forget()


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium under Playwright (:func:`tests.serve_harness.chromium`), one for
    each module of browser tests."""
    from tests.serve_harness import chromium

    with chromium() as b:
        yield b
