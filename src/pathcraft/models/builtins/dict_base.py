"""What `dict` gives a class derived from it (`class OrderedMultiDict(dict)`),
written as plain Python over a hidden dict of the instance's items.

Read as source, never run: `frontend/library_bases.synthesized_class`
takes these methods into the model class standing for `dict`
(`PathcraftDict`, models/builtins/classes.py) in place of the raising ones
it synthesizes from the real class; every other attribute of `dict`
(`__eq__`, `__repr__`, `__or__`, `fromkeys`, ...) still drops the path.

The items live in a plain dict under `ITEMS` (`_pathcraft_items`), made
on first need: `dict.__new__` makes an instance empty of items, and a test
builds its inputs that way (`dict.__new__(C)`, testcase/emit_pytest.py),
so an instance without the attribute has no items, which the engine takes
as certain (heap/base.uncertain_attribute). A test reads the items of an
instance with `dict(dict.items(obj))` where the model has this attribute
(past the class's own `__iter__` and `__getitem__`).

Each method works on the hidden dict directly, as CPython's do on the
table: `update`, `setdefault` and `__init__` never call a subclass's
`__setitem__`, `get` never its `__getitem__` or `__missing__`; only
`__getitem__` calls `__missing__` (a subclass's, or the one here that
raises KeyError). Messages are those of CPython 3.11.
"""


class PathcraftDict:
    def _pathcraft_dict(self):
        if not hasattr(self, "_pathcraft_items"):
            self._pathcraft_items = {}
        return self._pathcraft_items

    def _pathcraft_read(self):
        if hasattr(self, "_pathcraft_items"):
            return self._pathcraft_items
        return {}

    def _pathcraft_update(self, other):
        items = self._pathcraft_dict()
        if hasattr(other, "_pathcraft_items"):  # another instance: CPython reads its table, not its methods
            raise NotImplementedError("dict.update from an instance of a dict subclass")
        if not isinstance(other, dict):
            raise NotImplementedError("dict.update from a value other than a dict")
        for key in other:
            items[key] = other[key]

    def __init__(self, *args, **kwargs):
        if len(args) > 1:
            raise TypeError("dict expected at most 1 argument, got " + str(len(args)))
        self._pathcraft_dict()
        if args:
            self._pathcraft_update(args[0])
        if kwargs:
            self._pathcraft_update(kwargs)

    def update(self, *args, **kwargs):
        if len(args) > 1:
            raise TypeError("update expected at most 1 argument, got " + str(len(args)))
        if args:
            self._pathcraft_update(args[0])
        if kwargs:
            self._pathcraft_update(kwargs)

    def __getitem__(self, key):
        items = self._pathcraft_read()
        if key in items:
            return items[key]
        return self.__missing__(key)

    def __missing__(self, key):
        raise KeyError(key)

    def __setitem__(self, key, value):
        items = self._pathcraft_dict()
        items[key] = value

    def __delitem__(self, key):
        items = self._pathcraft_dict()
        del items[key]

    def __contains__(self, key):
        return key in self._pathcraft_read()

    def __len__(self):
        return len(self._pathcraft_read())

    def __iter__(self):
        # a generator, as the engine walks an object's `__iter__` (its table is taken at the first
        # item, not at `iter()`: a loop takes both at once)
        for key in self._pathcraft_dict():
            yield key

    def get(self, key, default=None):
        return self._pathcraft_read().get(key, default)

    def setdefault(self, key, default=None):
        items = self._pathcraft_dict()
        if key in items:
            return items[key]
        items[key] = default
        return default

    def pop(self, key, *default):
        if len(default) > 1:
            raise TypeError("pop expected at most 2 arguments, got " + str(len(default) + 1))
        items = self._pathcraft_dict()
        if key in items:
            return items.pop(key)
        if default:
            return default[0]
        raise KeyError(key)

    def popitem(self):
        items = self._pathcraft_dict()
        if not items:
            raise KeyError("popitem(): dictionary is empty")
        return items.popitem()

    def clear(self):
        self._pathcraft_dict().clear()

    def copy(self):
        return dict(self._pathcraft_read())

    def keys(self):
        return self._pathcraft_dict().keys()

    def values(self):
        return self._pathcraft_dict().values()

    def items(self):
        return self._pathcraft_dict().items()
