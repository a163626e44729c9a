"""The functions a test passes for a callable parameter, written as plain
Python classes whose instances are called (`__call__`): `pred(item)` on a
parameter typed `Callable[[T], bool]`, or on an unannotated one the body
only calls, is a method call on an input object of `PathcraftCallable`
(or `PathcraftPredicate`, when every call's result is only tested for
truth), and the input is one object of each concrete subclass below, one
path root each (`heap/lazy.py`). The classes' names are the model's own:
a test never names them, it passes the lambda each stands for
(`pathcraft.ir.callables.SOURCES`).

The file is read as source, never run; it is merged into a module that
has a callable parameter (`frontend/callables.py`), like the classes of
`models/abc/classes.py`, and lowered silently: a lambda of the test file
has no lines in the tested module.
"""

from abc import abstractmethod

STANDS_FOR = {
    "pathcraft.callables": ("PathcraftCallable", "PathcraftPredicate", "PathcraftIdentity", "PathcraftTruth",
                            "PathcraftNegation"),
}


class PathcraftCallable:
    """Any function of one argument."""

    @abstractmethod
    def __call__(self, x):
        raise NotImplementedError("the abstract callable parameter")


class PathcraftIdentity(PathcraftCallable):
    """`lambda x: x`"""

    def __call__(self, x):
        return x


class PathcraftPredicate(PathcraftCallable):
    """A function whose result is only tested for truth."""

    @abstractmethod
    def __call__(self, x):
        raise NotImplementedError("the abstract predicate parameter")


class PathcraftTruth(PathcraftPredicate):
    """`lambda x: bool(x)`"""

    def __call__(self, x):
        if x:
            return True
        return False


class PathcraftNegation(PathcraftPredicate):
    """`lambda x: not x`"""

    def __call__(self, x):
        if x:
            return False
        return True
