"""`dict` and `list` as base classes: a library class derived from one
(`class OrderedMultiDict(dict)`, `class BarrelList(list)`) is read with
`PathcraftDict` or `PathcraftList` as its base, merged like a class
imported from another module (`frontend/modelclasses.py` rewrites the bare
builtin name). This file hosts them, and the standard-library bases no
model stands for, but writes none: each is synthesized when a module
needs it (`frontend/library_bases.py`) from the real class's attributes.

What the builtin gives its subclass (its items, their methods and
protocols) is not modelled: each of its attributes raises
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
