"""Build of ShadowTable: the engines compiled with mypyc when a C compiler works, else pure Python.

Everything else about the package is in pyproject.toml.  The compiled build and the pure build
come from the same source and play identically (scripts/check_builds.py); see
docs/performance.md.

Environment:

- ``SHADOWTABLE_PURE=1``: build the pure-Python package even where the compiled one would build;
- ``SHADOWTABLE_REQUIRE_COMPILED=1``: fail instead of falling back to the pure package;
- ``SHADOWTABLE_OPT_LEVEL`` (default 2): the C compiler's optimisation level for the compiled build.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "src" / "shadowtable"

COMPILED = [
    "core/kernel.py",
    "core/rng.py",
    "games/shadow_planet/actions.py",
    "games/shadow_planet/content.py",
    "games/shadow_planet/state.py",
    "games/shadow_planet/tasks.py",
    "games/shadow_planet/context.py",
    "games/shadow_planet/board.py",
    "games/shadow_planet/observe.py",
    "games/shadow_planet/rules/*.py",
    "games/shadow_planet/heuristic.py",
    "games/shadowlord/actions.py",
    "games/shadowlord/content.py",
    "games/shadowlord/state.py",
    "games/shadowlord/tasks.py",
    "games/shadowlord/context.py",
    "games/shadowlord/board.py",
    "games/shadowlord/observe.py",
    "games/shadowlord/rules/*.py",
    "games/shadowlord/heuristic.py",
    "bots/ismcts.py",
]
"""The modules compiled with mypyc (globs under src/shadowtable): the engines' hot paths.  They
go into one shared library, ``shadowtable_native__mypyc``, one C file per module, and each
keeps a small extension module of its own name."""

COMPILED_WITH_NUMPY = [
    "rl/encoding.py",
    "games/shadow_planet/encoder.py",
    "games/shadowlord/encoder.py",
]
"""The RL encoders, compiled too where the build has NumPy to type-check them against
(``pyproject.toml`` asks for it); without it they stay pure Python."""

NO_BUILD = {"egg_info", "dist_info", "sdist", "check", "clean", "--name", "--version"}
"""setup.py commands that build nothing (pip asks for metadata this way): no C to generate..."""
BUILD = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install", "bdist", "bdist_egg"}
"""... unless one of these commands comes with them."""


def _say(text: str) -> None:
    print(f"shadowtable build: {text}", file=sys.stderr)


def _flag(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")


def _paths() -> list[str]:
    patterns = list(COMPILED)
    if importlib.util.find_spec("numpy") is not None:
        patterns += COMPILED_WITH_NUMPY
    else:
        _say("NumPy is not installed where this builds: the RL encoders stay pure Python")
    paths: list[str] = []
    for pattern in patterns:
        found = sorted(PACKAGE.glob(pattern))
        if not found:
            raise SystemExit(f"setup.py: no module matches {pattern}")
        paths += [p.relative_to(ROOT).as_posix() for p in found]
    return paths


def _compiler_problem() -> str | None:
    """Why no C extension can be built here (no compiler, no Python headers), or ``None``."""
    from setuptools._distutils import ccompiler, sysconfig

    try:
        compiler = ccompiler.new_compiler()
        sysconfig.customize_compiler(compiler)
        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp, "probe.c")
            source.write_text("#include <Python.h>\nint probe(void) { return 0; }\n")
            compiler.compile([str(source)], output_dir=tmp, include_dirs=[sysconfig.get_python_inc()])
    except Exception as exc:  # any failure (missing compiler, headers, ...) means: no compiled build
        return f"{type(exc).__name__}: {exc}".strip()
    return None


def _remove_compiled_in_place() -> None:
    """Remove the extension modules an earlier compiled build left in src/ (editable installs
    build in place): else a pure build would still import them."""
    found = [path for path in (ROOT / "src").rglob("*") if path.suffix in (".so", ".pyd") and path.is_file()]
    for path in found:
        path.unlink()
    if found:
        _say(f"removed {len(found)} extension modules of an earlier compiled build from src/")


def _ext_modules() -> list[object]:
    words = set(sys.argv[1:])
    if words & NO_BUILD and not words & BUILD:
        return []
    required = _flag("SHADOWTABLE_REQUIRE_COMPILED")
    if _flag("SHADOWTABLE_PURE"):
        if required:
            raise SystemExit("shadowtable build: SHADOWTABLE_PURE and SHADOWTABLE_REQUIRE_COMPILED are both set")
        _say("SHADOWTABLE_PURE is set: building the pure-Python package")
        _remove_compiled_in_place()
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        problem: str | None = "mypyc (part of mypy) is not installed"
    else:
        problem = _compiler_problem()
    if problem is not None:
        if required:
            raise SystemExit(f"shadowtable build: the compiled build is required but cannot be built: {problem}")
        _say(f"no compiled build ({problem}): building the pure-Python package")
        _remove_compiled_in_place()
        return []
    paths = _paths()
    start = time.perf_counter()
    modules = mypycify(
        paths,
        opt_level=os.environ.get("SHADOWTABLE_OPT_LEVEL", "2"),
        multi_file=True,  # C files compiled in parallel (BuildExt): half the time on two cores
        group_name="shadowtable_native",
    )
    _say(f"compiling {len(paths)} modules with mypyc (C generated in {time.perf_counter() - start:.1f} s)")
    return list(modules)


class BuildExt(build_ext):
    """``build_ext`` that runs one C compiler per core on an extension's C files (the shared
    library has about fifty) as well as on separate extensions."""

    def initialize_options(self) -> None:
        super().initialize_options()
        self.parallel = os.cpu_count() or 1

    def build_extensions(self) -> None:
        compiler: Any = self.compiler
        if all(hasattr(compiler, name) for name in ("_setup_compile", "_get_cc_args", "_compile")):
            compiler.compile = _parallel_compile(compiler)
        super().build_extensions()


def _parallel_compile(compiler: Any) -> Any:
    """``compiler.compile`` (distutils' CCompiler.compile) with the files compiled in parallel."""

    def compile(
        sources: list[str],
        output_dir: str | None = None,
        macros: Any = None,
        include_dirs: Any = None,
        debug: bool = False,
        extra_preargs: Any = None,
        extra_postargs: Any = None,
        depends: Any = None,
    ) -> list[str]:
        macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs
        )
        cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)

        def one(obj: str) -> None:
            if obj in build:  # else up to date
                source, ext = build[obj]
                compiler._compile(obj, source, ext, cc_args, extra_postargs, pp_opts)

        with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
            list(pool.map(one, objects))
        return list(objects)

    return compile


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": BuildExt})
