"""Opening the files a user names: the source to read, the file to write.

A path can name something that is not a plain file, and opening it can
then hang or fail with a message about something else: reading a FIFO
blocks until another process writes to it, writing one blocks until
another reads it, a symbolic link that loops says "too many levels of
symbolic links". So what a path is gets checked first and said in words
(`file: what is wrong`), and a source is opened without blocking and
checked again once open (a path can change between the two).
"""

from __future__ import annotations

import errno
import io
import os
import stat
import tokenize
from pathlib import Path
from typing import TextIO

from pathcraft.errors import TargetError

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # 0 where there is no such flag (and no FIFOs)


def _kind(mode: int) -> str | None:
    """What a file that is not a regular file is, or None for a regular one."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a special file"


def _unreachable(path: Path, exc: OSError) -> str:
    """Why `path` cannot be looked at (`stat` failed with `exc`)."""
    if exc.errno == errno.ELOOP:
        return "is a symbolic link that loops (it leads back to itself)"
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        if path.is_symlink():
            return f"is a broken symbolic link (to '{os.readlink(path)}', which does not exist)"
        return "no such file"
    if exc.errno == errno.EACCES:
        return "cannot be reached: permission denied"
    return f"cannot be read: {exc.strerror or exc}"


def source_problem(path: str | Path) -> str | None:
    """Why `path` cannot be read as a Python source file, or None."""
    file = Path(path)
    try:
        mode = file.stat().st_mode
    except OSError as exc:
        return _unreachable(file, exc)
    kind = _kind(mode)
    if kind is not None:
        return f"is {kind}, not a Python source file"
    if not os.access(file, os.R_OK):
        return "cannot read: permission denied"
    return None


def _where_undecodable(path: str | Path, encoding: str) -> str:
    """Which byte the decoder refused, on which line (the reader decodes in
    chunks, so its own error's offset is within a chunk)."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return ""
    try:
        data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return f" (byte {data[exc.start]:#04x} on line {line})"
    return ""


def read_source(path: str | Path) -> str:
    """The text of a Python source file, decoded as Python decodes it (a
    byte-order mark, a coding cookie). Never blocks on a FIFO: the file is
    opened non-blocking and read only if it is a regular file."""
    problem = source_problem(path)
    if problem is not None:
        raise TargetError(f"{path}: {problem}")
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK)
    except OSError as exc:
        raise TargetError(f"{path}: {_unreachable(Path(path), exc)}") from None
    with open(fd, "rb") as raw:
        kind = _kind(os.fstat(fd).st_mode)
        if kind is not None:  # replaced since it was checked
            raise TargetError(f"{path}: is {kind}, not a Python source file")
        try:
            encoding, _ = tokenize.detect_encoding(raw.readline)
            raw.seek(0)
            return io.TextIOWrapper(raw, encoding).read()
        except SyntaxError:  # its message names the file by descriptor: say it here
            raise TargetError(f"{path}: cannot read: not text in UTF-8 or in the encoding its coding "
                              "declaration names (a binary file?)") from None
        except UnicodeDecodeError as exc:
            raise TargetError(f"{path}: cannot read: not {exc.encoding} text{_where_undecodable(path, encoding)}; "
                              "name its encoding in a coding declaration") from None
        except OSError as exc:
            raise TargetError(f"{path}: cannot read: {exc.strerror or exc}") from None


def output_problem(path: str | Path) -> str | None:
    """Why tests cannot be written to `path`, as far as can be told without
    opening it, or None. A path that does not exist yet is fine here (its
    folder is checked by the caller); a FIFO is checked when opened."""
    file = Path(path)
    try:
        mode = file.stat().st_mode
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return None  # a new file (through a dangling link too, as a shell's `>` does)
        return _unreachable(file, exc)
    if stat.S_ISDIR(mode):
        return "is a directory; give a file name"
    if stat.S_ISSOCK(mode):
        return "is a socket; give a regular file"
    return None


def open_for_writing(path: str | Path) -> TextIO:
    """`path` opened to write text (created or emptied). A FIFO is opened
    only if some process has its other end open for reading (else opening
    it would wait for one forever); writes then block as usual."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NONBLOCK, 0o666)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            try:
                kind = _kind(os.stat(path).st_mode)
            except OSError:
                kind = None
            if kind == "a FIFO (named pipe)":
                raise TargetError(f"{path}: is a FIFO (named pipe) that no process reads; "
                                  "give a regular file") from None
        if exc.errno == errno.ELOOP:
            raise TargetError(f"{path}: {_unreachable(Path(path), exc)}") from None
        raise TargetError(f"{path}: cannot write: {exc.strerror or exc}") from None
    if _NONBLOCK:
        os.set_blocking(fd, True)
    return open(fd, "w", encoding="utf-8")
