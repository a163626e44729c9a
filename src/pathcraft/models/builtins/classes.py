"""`dict` and `list` as base classes, written as plain Python: a library
class derived from one (`class OrderedMultiDict(dict)`, `class
BarrelList(list)`) is read with one of these as its base, merged like a
class imported from another module (`frontend/modelclasses.py` rewrites
the bare builtin name). The file is read as source, never run.

What the builtin gives its subclass (its items, their methods and
protocols) is not modelled: each of its attributes is here, and raises
`NotImplementedError(why)`, which drops the path that reaches it (as in
the preludes). So the subclass's own methods that touch only their own
attributes get tests, and a path through `self[k]`, `len(self)`,
`super().__init__(...)`, `dict.get(self, k)` or any inherited method is
dropped, never guessed; no attribute of the builtin is missing, so no
AttributeError is claimed for one. A test builds an instance with the
builtin's `__new__` (`dict.__new__(C)`: empty of items) and sets its
attributes (ClassInfo.builtin_base).

`STANDS_FOR` names the classes by the names `normalize_bases` rewrites
`dict` and `list` to (a class named `dict` would shadow the builtin in the
module's own code).
"""

STANDS_FOR = {
    "builtins": ("PathcraftDict", "PathcraftList"),
}


class PathcraftDict:
    """`dict` as a base class."""

    @classmethod
    def __class_getitem__(cls, item):
        raise NotImplementedError("dict.__class_getitem__ on a subclass (the builtin base is not modelled)")

    def __contains__(self, other):
        raise NotImplementedError("dict.__contains__ on a subclass (the builtin base is not modelled)")

    def __delitem__(self, other):
        raise NotImplementedError("dict.__delitem__ on a subclass (the builtin base is not modelled)")

    def __eq__(self, other):
        raise NotImplementedError("dict.__eq__ on a subclass (the builtin base is not modelled)")

    def __ge__(self, other):
        raise NotImplementedError("dict.__ge__ on a subclass (the builtin base is not modelled)")

    def __getitem__(self, other):
        raise NotImplementedError("dict.__getitem__ on a subclass (the builtin base is not modelled)")

    def __gt__(self, other):
        raise NotImplementedError("dict.__gt__ on a subclass (the builtin base is not modelled)")

    def __hash__(self):
        raise NotImplementedError("dict.__hash__ on a subclass (the builtin base is not modelled)")

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("dict.__init__ on a subclass (the builtin base is not modelled)")

    def __ior__(self, other):
        raise NotImplementedError("dict.__ior__ on a subclass (the builtin base is not modelled)")

    def __iter__(self):
        raise NotImplementedError("dict.__iter__ on a subclass (the builtin base is not modelled)")

    def __le__(self, other):
        raise NotImplementedError("dict.__le__ on a subclass (the builtin base is not modelled)")

    def __len__(self):
        raise NotImplementedError("dict.__len__ on a subclass (the builtin base is not modelled)")

    def __lt__(self, other):
        raise NotImplementedError("dict.__lt__ on a subclass (the builtin base is not modelled)")

    def __ne__(self, other):
        raise NotImplementedError("dict.__ne__ on a subclass (the builtin base is not modelled)")

    def __or__(self, other):
        raise NotImplementedError("dict.__or__ on a subclass (the builtin base is not modelled)")

    def __repr__(self):
        raise NotImplementedError("dict.__repr__ on a subclass (the builtin base is not modelled)")

    def __reversed__(self):
        raise NotImplementedError("dict.__reversed__ on a subclass (the builtin base is not modelled)")

    def __ror__(self, other):
        raise NotImplementedError("dict.__ror__ on a subclass (the builtin base is not modelled)")

    def __setitem__(self, key, value):
        raise NotImplementedError("dict.__setitem__ on a subclass (the builtin base is not modelled)")

    def __str__(self):
        raise NotImplementedError("dict.__str__ on a subclass (the builtin base is not modelled)")

    def clear(self, *args, **kwargs):
        raise NotImplementedError("dict.clear on a subclass (the builtin base is not modelled)")

    def copy(self, *args, **kwargs):
        raise NotImplementedError("dict.copy on a subclass (the builtin base is not modelled)")

    @classmethod
    def fromkeys(cls, *args, **kwargs):
        raise NotImplementedError("dict.fromkeys on a subclass (the builtin base is not modelled)")

    def get(self, *args, **kwargs):
        raise NotImplementedError("dict.get on a subclass (the builtin base is not modelled)")

    def items(self, *args, **kwargs):
        raise NotImplementedError("dict.items on a subclass (the builtin base is not modelled)")

    def keys(self, *args, **kwargs):
        raise NotImplementedError("dict.keys on a subclass (the builtin base is not modelled)")

    def pop(self, *args, **kwargs):
        raise NotImplementedError("dict.pop on a subclass (the builtin base is not modelled)")

    def popitem(self, *args, **kwargs):
        raise NotImplementedError("dict.popitem on a subclass (the builtin base is not modelled)")

    def setdefault(self, *args, **kwargs):
        raise NotImplementedError("dict.setdefault on a subclass (the builtin base is not modelled)")

    def update(self, *args, **kwargs):
        raise NotImplementedError("dict.update on a subclass (the builtin base is not modelled)")

    def values(self, *args, **kwargs):
        raise NotImplementedError("dict.values on a subclass (the builtin base is not modelled)")


class PathcraftList:
    """`list` as a base class."""

    def __add__(self, other):
        raise NotImplementedError("list.__add__ on a subclass (the builtin base is not modelled)")

    @classmethod
    def __class_getitem__(cls, item):
        raise NotImplementedError("list.__class_getitem__ on a subclass (the builtin base is not modelled)")

    def __contains__(self, other):
        raise NotImplementedError("list.__contains__ on a subclass (the builtin base is not modelled)")

    def __delitem__(self, other):
        raise NotImplementedError("list.__delitem__ on a subclass (the builtin base is not modelled)")

    def __eq__(self, other):
        raise NotImplementedError("list.__eq__ on a subclass (the builtin base is not modelled)")

    def __ge__(self, other):
        raise NotImplementedError("list.__ge__ on a subclass (the builtin base is not modelled)")

    def __getitem__(self, other):
        raise NotImplementedError("list.__getitem__ on a subclass (the builtin base is not modelled)")

    def __gt__(self, other):
        raise NotImplementedError("list.__gt__ on a subclass (the builtin base is not modelled)")

    def __hash__(self):
        raise NotImplementedError("list.__hash__ on a subclass (the builtin base is not modelled)")

    def __iadd__(self, other):
        raise NotImplementedError("list.__iadd__ on a subclass (the builtin base is not modelled)")

    def __imul__(self, other):
        raise NotImplementedError("list.__imul__ on a subclass (the builtin base is not modelled)")

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("list.__init__ on a subclass (the builtin base is not modelled)")

    def __iter__(self):
        raise NotImplementedError("list.__iter__ on a subclass (the builtin base is not modelled)")

    def __le__(self, other):
        raise NotImplementedError("list.__le__ on a subclass (the builtin base is not modelled)")

    def __len__(self):
        raise NotImplementedError("list.__len__ on a subclass (the builtin base is not modelled)")

    def __lt__(self, other):
        raise NotImplementedError("list.__lt__ on a subclass (the builtin base is not modelled)")

    def __mul__(self, other):
        raise NotImplementedError("list.__mul__ on a subclass (the builtin base is not modelled)")

    def __ne__(self, other):
        raise NotImplementedError("list.__ne__ on a subclass (the builtin base is not modelled)")

    def __repr__(self):
        raise NotImplementedError("list.__repr__ on a subclass (the builtin base is not modelled)")

    def __reversed__(self):
        raise NotImplementedError("list.__reversed__ on a subclass (the builtin base is not modelled)")

    def __rmul__(self, other):
        raise NotImplementedError("list.__rmul__ on a subclass (the builtin base is not modelled)")

    def __setitem__(self, key, value):
        raise NotImplementedError("list.__setitem__ on a subclass (the builtin base is not modelled)")

    def __str__(self):
        raise NotImplementedError("list.__str__ on a subclass (the builtin base is not modelled)")

    def append(self, *args, **kwargs):
        raise NotImplementedError("list.append on a subclass (the builtin base is not modelled)")

    def clear(self, *args, **kwargs):
        raise NotImplementedError("list.clear on a subclass (the builtin base is not modelled)")

    def copy(self, *args, **kwargs):
        raise NotImplementedError("list.copy on a subclass (the builtin base is not modelled)")

    def count(self, *args, **kwargs):
        raise NotImplementedError("list.count on a subclass (the builtin base is not modelled)")

    def extend(self, *args, **kwargs):
        raise NotImplementedError("list.extend on a subclass (the builtin base is not modelled)")

    def index(self, *args, **kwargs):
        raise NotImplementedError("list.index on a subclass (the builtin base is not modelled)")

    def insert(self, *args, **kwargs):
        raise NotImplementedError("list.insert on a subclass (the builtin base is not modelled)")

    def pop(self, *args, **kwargs):
        raise NotImplementedError("list.pop on a subclass (the builtin base is not modelled)")

    def remove(self, *args, **kwargs):
        raise NotImplementedError("list.remove on a subclass (the builtin base is not modelled)")

    def reverse(self, *args, **kwargs):
        raise NotImplementedError("list.reverse on a subclass (the builtin base is not modelled)")

    def sort(self, *args, **kwargs):
        raise NotImplementedError("list.sort on a subclass (the builtin base is not modelled)")
