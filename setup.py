"""The compiled helper: everything else about the package is in pyproject.toml.

``vira_desktop.ai._native`` (C) does the hand evaluator's hot loops; it is optional, so an
install without a C compiler still succeeds and the game runs on the pure-Python code,
saying so once (``vira_desktop.ai.native``).

``VIRA_NO_EXTENSION=1`` builds a pure wheel without it: ``scripts/build_windows.sh`` does, on
Linux, and cross-compiles the Windows ``.pyd`` itself.
"""

import os

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class _BuildExt(build_ext):
    """Optimised, and with floating-point contraction off: the C figures must be the same
    doubles as the Python ones (tests/test_native.py)."""

    def build_extensions(self) -> None:
        msvc = self.compiler.compiler_type == "msvc"
        flags = ["/O2", "/fp:precise"] if msvc else ["-O3", "-ffp-contract=off"]
        for ext in self.extensions:
            ext.extra_compile_args = flags
        super().build_extensions()


EXTENSIONS = [
    Extension(
        "vira_desktop.ai._native",
        ["vira_desktop/ai/_native.c", "vira_desktop/ai/_solver.c"],
        optional=True,
    )
]

setup(
    ext_modules=[] if os.environ.get("VIRA_NO_EXTENSION") else EXTENSIONS,
    cmdclass={"build_ext": _BuildExt},
)
