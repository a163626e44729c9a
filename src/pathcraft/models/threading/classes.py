"""`threading.Lock()` and `threading.RLock()` as plain Python: what one
thread can see of a lock it makes and holds (a test runs in one thread).

Read as source, never run; merged into a module whose code makes one
(`frontend/locks.py` rewrites the call into one of these classes, like
the callables' model). A test builds such an input as a fresh lock
(`threading.RLock()`, `ir/builtin_names.MADE_BY`), so the state here starts
as a fresh lock's: an attribute named `_pathcraft_*` is the model's own,
never an input's field (unset: the class's value), never asserted.
Acquiring a `Lock` this thread holds would block for ever: the path is
dropped. Messages are CPython's.
"""

STANDS_FOR = {
    "pathcraft.locks": ("PathcraftLock", "PathcraftRLock"),
}


class PathcraftLock:
    """`threading.Lock()`."""

    _pathcraft_held = False

    def acquire(self, blocking=True, timeout=-1):
        if self._pathcraft_held:
            raise NotImplementedError("acquiring a Lock its thread holds (blocks, or waits out a timeout)")
        self._pathcraft_held = True
        return True

    def release(self):
        if not self._pathcraft_held:
            raise RuntimeError("release unlocked lock")
        self._pathcraft_held = False

    def locked(self):
        return self._pathcraft_held

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *args):
        self.release()


class PathcraftRLock:
    """`threading.RLock()`: its own thread may acquire it again."""

    _pathcraft_depth = 0

    def acquire(self, blocking=True, timeout=-1):
        self._pathcraft_depth = self._pathcraft_depth + 1
        return True

    def release(self):
        if self._pathcraft_depth == 0:
            raise RuntimeError("cannot release un-acquired lock")
        self._pathcraft_depth = self._pathcraft_depth - 1

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *args):
        self.release()
