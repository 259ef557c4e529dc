"""Two things ``pip install`` does beyond ``pyproject.toml``:

* builds the one compiled part, the counting programme's step kernel
  (``solver/model/_kernel.pyx``).  Optional: without a C compiler the build goes on without
  it and the counting uses its numpy code (the same results, slower on big programmes;
  ``tests/test_kernel.py``);
* compiles the program's modules to bytecode, as pip does for a regular install, also for
  an editable one (``pip install -e .``): a command then starts without compiling them,
  even where ``PYTHONDONTWRITEBYTECODE`` is set (a module edited later is recompiled in
  memory as usual: Python checks each file's time and size).
"""
import compileall
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class BuildExtAndBytecode(build_ext):
    def run(self):
        super().run()
        for package in ("solver", "cli"):
            compileall.compile_dir(str(ROOT / package), quiet=1)


# -ffp-contract=off: no fused multiply-add, so that a draw's target, ``base + u * (last -
# base)``, is rounded as numpy rounds it and the kernel's draws are numpy's
# (tests/test_kernel.py) on every processor
EXTENSIONS = cythonize(
    [Extension("solver.model._kernel", ["solver/model/_kernel.pyx"],
               extra_compile_args=["-O3", "-ffp-contract=off"])],
    language_level=3)
for ext in EXTENSIONS:      # (cythonize does not carry ``optional`` over)
    ext.optional = True

setup(cmdclass={"build_ext": BuildExtAndBytecode}, ext_modules=EXTENSIONS)
