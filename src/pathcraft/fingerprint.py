"""What identifies this pathcraft's own code, for the keys of everything
it keeps across runs (summaries, tests, package manifests).

The version alone is not enough: between releases (and in a checkout) the
engine changes while the version stays, and a kept result of other code
would be read back as if this code had made it. So the key also holds the
hash of pathcraft's own source files, computed once per process, and the
Python version it runs under (the models follow the running Python's
behaviour and messages).
"""

from __future__ import annotations

import hashlib
import sys
from functools import cache
from pathlib import Path

from pathcraft import __version__


@cache
def fingerprint() -> str:
    """`VERSION+HASH+PYTHON`: the hash of pathcraft's source files (the
    prelude included) and the running Python's version."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    python = f"{sys.implementation.name}{sys.version_info[0]}.{sys.version_info[1]}"
    return f"{__version__}+{digest.hexdigest()[:16]}+{python}"
