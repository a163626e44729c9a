"""The abstract base classes of `collections.abc`, `typing` and `abc`,
written as plain Python: a library class derived from one (`class
IndexedSet(MutableSet)`, `class Cache(collections.abc.MutableMapping)`,
`class Base(Generic[T])`) is read with these as its bases, merged like a
class imported from another module of the project
(`frontend/modelclasses.py`). The file is read as source, never run.

What each class holds is what CPython's `_collections_abc.py` gives a
subclass: its abstract methods (`@abstractmethod`: a class that leaves one
unimplemented cannot be instantiated, so no test builds one) and its mixin
methods, each doing what CPython's does. CPython's bases form a diamond
(`Collection(Sized, Iterable, Container)`); here each class names its
methods itself on one chain, which finds the same method for every name.

`raise NotImplementedError(why)` is no exception of the analysed code: a
path that reaches it is dropped and `why` named (as in the preludes). That
is how a mixin the engine cannot follow (one that makes a generator or
compares with another set) refuses the paths that use it, not the class;
and how an abstract method's own body, reached by `super()`, is refused.

`STANDS_FOR` says which names of which modules are these classes
(`typing.Sequence` is `collections.abc.Sequence`; `typing.Set` is `set`,
not `Set`, so it is not here). Annotations name no classes of this file:
a parameter typed `Sequence[int]` is still a list (frontend/types.py).
"""

from abc import abstractmethod

_COLLECTIONS = ("Sized", "Container", "Iterable", "Iterator", "Reversible", "Collection", "Sequence",
                "MutableSequence", "Mapping", "MutableMapping", "MutableSet")
STANDS_FOR = {
    "abc": ("ABC",),
    "collections.abc": _COLLECTIONS + ("Set",),
    "typing": _COLLECTIONS + ("Generic",),
}


class ABC:
    """`abc.ABC` (and `metaclass=ABCMeta`): a class below it with an
    abstract method not overridden is abstract."""


class Generic:
    """`typing.Generic`: nothing at run time (`Base[T]` is `Base`)."""


class Sized(ABC):
    @abstractmethod
    def __len__(self):
        raise NotImplementedError("the abstract Sized.__len__")


class Container(ABC):
    @abstractmethod
    def __contains__(self, value):
        raise NotImplementedError("the abstract Container.__contains__")


class Iterable(ABC):
    @abstractmethod
    def __iter__(self):
        raise NotImplementedError("the abstract Iterable.__iter__")


class Iterator(ABC):
    @abstractmethod
    def __next__(self):
        raise NotImplementedError("the abstract Iterator.__next__")

    def __iter__(self):
        return self


class Reversible(ABC):
    @abstractmethod
    def __iter__(self):
        raise NotImplementedError("the abstract Reversible.__iter__")

    @abstractmethod
    def __reversed__(self):
        raise NotImplementedError("the abstract Reversible.__reversed__")


class Collection(ABC):
    @abstractmethod
    def __len__(self):
        raise NotImplementedError("the abstract Collection.__len__")

    @abstractmethod
    def __iter__(self):
        raise NotImplementedError("the abstract Collection.__iter__")

    @abstractmethod
    def __contains__(self, value):
        raise NotImplementedError("the abstract Collection.__contains__")


class Sequence(ABC):
    @abstractmethod
    def __getitem__(self, index):
        raise NotImplementedError("the abstract Sequence.__getitem__")

    @abstractmethod
    def __len__(self):
        raise NotImplementedError("the abstract Sequence.__len__")

    def __iter__(self):
        raise NotImplementedError("Sequence.__iter__ (a generator over self[0], self[1], ...)")

    def __reversed__(self):
        raise NotImplementedError("Sequence.__reversed__ (a generator)")

    def __contains__(self, value):
        for v in self:
            if v is value or v == value:
                return True
        return False

    def index(self, value, start=0, stop=None):
        if start is not None and start < 0:
            start = max(len(self) + start, 0)
        if stop is not None and stop < 0:
            stop += len(self)
        i = start
        while stop is None or i < stop:
            try:
                v = self[i]
            except IndexError:
                break
            if v is value or v == value:
                return i
            i += 1
        raise ValueError

    def count(self, value):
        n = 0
        for v in self:
            if v is value or v == value:
                n += 1
        return n


class MutableSequence(Sequence):
    @abstractmethod
    def __setitem__(self, index, value):
        raise NotImplementedError("the abstract MutableSequence.__setitem__")

    @abstractmethod
    def __delitem__(self, index):
        raise NotImplementedError("the abstract MutableSequence.__delitem__")

    @abstractmethod
    def insert(self, index, value):
        raise NotImplementedError("the abstract MutableSequence.insert")

    def append(self, value):
        self.insert(len(self), value)

    def clear(self):
        raise NotImplementedError("MutableSequence.clear (pops until IndexError)")

    def reverse(self):
        n = len(self)
        i = 0
        while i < n // 2:
            self[i], self[n - i - 1] = self[n - i - 1], self[i]
            i += 1

    def extend(self, values):
        raise NotImplementedError("MutableSequence.extend (iterates any iterable)")

    def pop(self, index=-1):
        v = self[index]
        del self[index]
        return v

    def remove(self, value):
        del self[self.index(value)]

    def __iadd__(self, values):
        raise NotImplementedError("MutableSequence.__iadd__ (iterates any iterable)")


class Set(ABC):
    @abstractmethod
    def __contains__(self, value):
        raise NotImplementedError("the abstract Set.__contains__")

    @abstractmethod
    def __iter__(self):
        raise NotImplementedError("the abstract Set.__iter__")

    @abstractmethod
    def __len__(self):
        raise NotImplementedError("the abstract Set.__len__")

    def __le__(self, other):
        raise NotImplementedError("Set.__le__ (isinstance(other, Set))")

    def __lt__(self, other):
        raise NotImplementedError("Set.__lt__ (isinstance(other, Set))")

    def __gt__(self, other):
        raise NotImplementedError("Set.__gt__ (isinstance(other, Set))")

    def __ge__(self, other):
        raise NotImplementedError("Set.__ge__ (isinstance(other, Set))")

    def __eq__(self, other):
        raise NotImplementedError("Set.__eq__ (isinstance(other, Set))")

    def __and__(self, other):
        raise NotImplementedError("Set.__and__ (isinstance(other, Iterable))")

    def __rand__(self, other):
        raise NotImplementedError("Set.__rand__ (isinstance(other, Iterable))")

    def __or__(self, other):
        raise NotImplementedError("Set.__or__ (isinstance(other, Iterable))")

    def __ror__(self, other):
        raise NotImplementedError("Set.__ror__ (isinstance(other, Iterable))")

    def __sub__(self, other):
        raise NotImplementedError("Set.__sub__ (isinstance(other, Set))")

    def __rsub__(self, other):
        raise NotImplementedError("Set.__rsub__ (isinstance(other, Set))")

    def __xor__(self, other):
        raise NotImplementedError("Set.__xor__ (isinstance(other, Set))")

    def __rxor__(self, other):
        raise NotImplementedError("Set.__rxor__ (isinstance(other, Set))")

    def isdisjoint(self, other):
        raise NotImplementedError("Set.isdisjoint (iterates any iterable)")


class MutableSet(Set):
    @abstractmethod
    def add(self, value):
        raise NotImplementedError("the abstract MutableSet.add")

    @abstractmethod
    def discard(self, value):
        raise NotImplementedError("the abstract MutableSet.discard")

    def remove(self, value):
        if value not in self:
            raise KeyError(value)
        self.discard(value)

    def pop(self):
        raise NotImplementedError("MutableSet.pop (next(iter(self)))")

    def clear(self):
        raise NotImplementedError("MutableSet.clear (pops until KeyError)")

    def __ior__(self, it):
        raise NotImplementedError("MutableSet.__ior__ (iterates any iterable)")

    def __iand__(self, it):
        raise NotImplementedError("MutableSet.__iand__ (iterates any iterable)")

    def __ixor__(self, it):
        raise NotImplementedError("MutableSet.__ixor__ (iterates any iterable)")

    def __isub__(self, it):
        raise NotImplementedError("MutableSet.__isub__ (iterates any iterable)")


class Mapping(ABC):
    @abstractmethod
    def __getitem__(self, key):
        raise NotImplementedError("the abstract Mapping.__getitem__")

    @abstractmethod
    def __iter__(self):
        raise NotImplementedError("the abstract Mapping.__iter__")

    @abstractmethod
    def __len__(self):
        raise NotImplementedError("the abstract Mapping.__len__")

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key):
        try:
            found = self[key]  # noqa: F841  # read for its KeyError
        except KeyError:
            return False
        return True

    def keys(self):
        raise NotImplementedError("Mapping.keys (a KeysView)")

    def items(self):
        raise NotImplementedError("Mapping.items (an ItemsView)")

    def values(self):
        raise NotImplementedError("Mapping.values (a ValuesView)")

    def __eq__(self, other):
        raise NotImplementedError("Mapping.__eq__ (isinstance(other, Mapping))")

    def __reversed__(self):
        raise NotImplementedError("Mapping.__reversed__ (None: reversed() raises TypeError)")


class MutableMapping(Mapping):
    @abstractmethod
    def __setitem__(self, key, value):
        raise NotImplementedError("the abstract MutableMapping.__setitem__")

    @abstractmethod
    def __delitem__(self, key):
        raise NotImplementedError("the abstract MutableMapping.__delitem__")

    def pop(self, key, default=None):
        raise NotImplementedError("MutableMapping.pop (a default told apart by a private marker)")

    def popitem(self):
        raise NotImplementedError("MutableMapping.popitem (next(iter(self)))")

    def clear(self):
        raise NotImplementedError("MutableMapping.clear (popitem until KeyError)")

    def update(self, other=None):
        raise NotImplementedError("MutableMapping.update (any mapping, iterable or keywords)")

    def setdefault(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            self[key] = default
        return default
