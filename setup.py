"""The one compiled part: the counting programme's step kernel (``solver/model/_kernel.pyx``).

Optional: without a C compiler the build goes on without it and the counting uses its numpy
code (the same results, slower on big programmes; ``sleuth --version`` says which).
"""
from Cython.Build import cythonize
from setuptools import Extension, setup

setup(ext_modules=cythonize(
    [Extension("solver.model._kernel", ["solver/model/_kernel.pyx"], optional=True,
               extra_compile_args=["-O3"])],
    language_level=3))
