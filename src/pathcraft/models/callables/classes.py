"""The functions a test passes for a callable parameter, written as plain
Python classes whose instances are called (`__call__`): `pred(item)` (or
`pred(a, b)`) on a parameter typed `Callable[[T], bool]` (`Callable[[T, U], bool]`), or on an unannotated one the body
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
                            "PathcraftNegation", "PathcraftCallable2", "PathcraftPredicate2", "PathcraftSum",
                            "PathcraftSecond", "PathcraftLess", "PathcraftEqual", "PathcraftNewDict",
                            "PathcraftNewList", "PathcraftNewSet"),
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


class PathcraftCallable2:
    """Any function of two arguments."""

    @abstractmethod
    def __call__(self, x, y):
        raise NotImplementedError("the abstract callable parameter of two arguments")


class PathcraftSum(PathcraftCallable2):
    """`lambda x, y: x + y`"""

    def __call__(self, x, y):
        return x + y


class PathcraftSecond(PathcraftCallable2):
    """`lambda x, y: y`"""

    def __call__(self, x, y):
        return y


class PathcraftPredicate2(PathcraftCallable2):
    """A function of two arguments whose result is only tested for truth."""

    @abstractmethod
    def __call__(self, x, y):
        raise NotImplementedError("the abstract predicate parameter of two arguments")


class PathcraftLess(PathcraftPredicate2):
    """`lambda x, y: x < y`"""

    def __call__(self, x, y):
        return x < y


class PathcraftEqual(PathcraftPredicate2):
    """`lambda x, y: x == y`"""

    def __call__(self, x, y):
        return x == y


class PathcraftNewDict:
    """`lambda: {}`"""

    def __call__(self):
        return {}


class PathcraftNewList:
    """`lambda: []`"""

    def __call__(self):
        return []


class PathcraftNewSet:
    """`lambda: set()`"""

    def __call__(self):
        return set()
