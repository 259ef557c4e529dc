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
