"""Forms typed libraries write their classes and modules in, read as
Python means them: `ClassVar`/`Final` class attributes (no instance
field), type variables and aliases imported from a sibling module, a name
two modules import from the same sibling (one object, merged or not)."""

from __future__ import annotations

from pathlib import Path

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def test_classvar_and_final_are_class_attributes(tmp_path: Path) -> None:
    write(tmp_path, {"spec.py": (
        "import re\nfrom typing import ClassVar, Final\n\n\nclass Spec:\n"
        "    _regex: Final = re.compile(r'[0-9]+')\n    limit: ClassVar[int] = 3\n    name: str\n\n"
        "    def over(self, n: int) -> bool:\n        if n > self.limit:\n            return True\n"
        "        return False\n")})
    result = translate(str(tmp_path / "spec.py"))
    assert not result.errors
    assert dict(result.program.classes["Spec"].fields).keys() == {"name"}  # neither is an instance's field
    cases = generate(result.program, "Spec.over", GenerateOptions()).cases
    assert sorted(case.value for case in cases) == [False, True]
    assert all("limit" not in str(case.heap_in) for case in cases)  # read from the class, as Python does


def test_a_type_variable_of_a_sibling_module_is_its_bound(tmp_path: Path) -> None:
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/_typing.py": "from typing import TypeVar\n\nN = TypeVar('N', bound=int)\n",
        "pkg/ops.py": "from ._typing import N\n\n\ndef twice(x: N) -> int:\n    if x > 2:\n"
                      "        return 2 * x\n    return x\n",
    })
    result = translate(str(tmp_path / "pkg" / "ops.py"))
    assert not result.errors
    assert len(generate(result.program, "twice", GenerateOptions()).cases) == 2


def test_a_name_two_modules_import_from_one_sibling_is_one_object(tmp_path: Path) -> None:
    # `MISSING` cannot be merged (not a literal), yet base.py and its importer mean the same
    # one: the base class is merged (only code that reads MISSING would be refused)
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/_common.py": "class _Missing:\n    pass\n\n\nMISSING = _Missing()\n",
        "pkg/base.py": "from ._common import MISSING\n\n\nclass Base:\n    size: int\n\n"
                       "    def grow(self) -> int:\n        self.size += 1\n        return self.size\n\n"
                       "    def missing(self) -> object:\n        return MISSING\n",
        "pkg/sub.py": "from ._common import MISSING\nfrom .base import Base\n\n\nclass Sub(Base):\n"
                      "    def shrink(self) -> int:\n        self.size -= 1\n        return self.size\n",
    })
    result = translate(str(tmp_path / "pkg" / "sub.py"))
    assert not result.errors and "Sub.shrink" in result.program.functions


def test_a_setter_with_a_decorator_of_its_own_refuses_itself_not_its_class(tmp_path: Path) -> None:
    # packaging's Version: `@_version.setter` over `@_deprecated(...)`
    write(tmp_path, {"version.py": (
        "def _deprecated(message):\n    return lambda fn: fn\n\n\nclass Version:\n    major: int\n\n"
        "    @property\n    def pair(self) -> int:\n        return self.major\n\n"
        "    @pair.setter\n    @_deprecated('private')\n    def pair(self, value: int) -> None:\n"
        "        self.major = value\n\n"
        "    def bump(self) -> int:\n        if self.major > 8:\n            return 0\n"
        "        return self.major + 1\n\n"
        "    def reset(self) -> None:\n        self.pair = 1\n")})
    result = translate(str(tmp_path / "version.py"))
    assert "Version.bump" not in result.errors
    assert len(generate(result.program, "Version.bump", GenerateOptions()).cases) == 2
    reset = generate(result.program, "Version.reset", GenerateOptions())
    assert reset.cases == [] and any("setter" in note for note in reset.notes)  # never an AttributeError claim


def test_a_subscripted_generic_class_and_a_literal_are_their_plain_types(tmp_path: Path) -> None:
    write(tmp_path, {"lit.py": (
        "from typing import Generic, Literal, TypeVar\n\nT = TypeVar('T')\nMode = Literal['r', 'w']\n\n\n"
        "class Box(Generic[T]):\n    size: int\n\n    def grow(self, mode: Mode) -> int:\n"
        "        if mode == 'w':\n            self.size += 1\n        return self.size\n\n\n"
        "class Holder:\n    box: Box[int]\n\n    def total(self, n: Literal[1, 2]) -> int:\n"
        "        return self.box.size + n\n")})
    result = translate(str(tmp_path / "lit.py"))
    assert not result.errors
    assert str(dict(result.program.classes["Holder"].fields)["box"]) == "Box"
    grow = generate(result.program, "Box.grow", GenerateOptions()).cases
    assert {dict(case.inputs)["mode"] == "w" for case in grow} == {True, False}


def test_a_literal_of_mixed_types_is_refused(tmp_path: Path) -> None:
    write(tmp_path, {"mixed.py": "from typing import Literal\n\n\ndef f(x: Literal[1, 'a']) -> int:\n    return 1\n"})
    assert "Literal" in translate(str(tmp_path / "mixed.py")).errors["f"].message


def test_an_abstract_set_parameter_is_a_set(tmp_path: Path) -> None:
    # packaging's `_eval_extra_set(extras: AbstractSet[str], ...)`
    write(tmp_path, {"aset.py": "from typing import AbstractSet\n\n\n"
                                "def has(extras: AbstractSet[str], name: str) -> bool:\n"
                                "    if name in extras:\n        return True\n    return False\n"})
    result = translate(str(tmp_path / "aset.py"))
    assert not result.errors
    cases = generate(result.program, "has", GenerateOptions()).cases
    assert {case.value for case in cases} == {True, False}
    assert all("set" in case.heap_in["extras"] for case in cases)


def test_a_type_variable_both_modules_define_alike_does_not_stop_a_merge(tmp_path: Path) -> None:
    # packaging: `_T = TypeVar("_T")` in _structures.py and in pylock.py, which imports a decorator from it
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/_helpers.py": "from typing import TypeVar\n\n_T = TypeVar('_T')\n\n\n"
                           "def first(items: list[_T]) -> _T:\n    return items[0]\n",
        "pkg/use.py": "from typing import TypeVar\n\nfrom ._helpers import first\n\n_T = TypeVar('_T')\n\n\n"
                      "def head(items: list[int]) -> int:\n    if not items:\n        return -1\n"
                      "    return first(items)\n",
    })
    result = translate(str(tmp_path / "pkg" / "use.py"))
    assert not result.errors
    assert sorted(case.value for case in generate(result.program, "head", GenerateOptions()).cases)[0] == -1


def test_a_new_type_is_its_base_type_and_calling_it_returns_the_argument(tmp_path: Path) -> None:
    # packaging.utils: `NormalizedName = NewType("NormalizedName", str)`, imported by its siblings
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/utils.py": "from typing import NewType\n\nUserId = NewType('UserId', int)\n",
        "pkg/ids.py": "from .utils import UserId\n\n\ndef next_id(current: UserId) -> UserId:\n"
                      "    if current < 0:\n        raise ValueError('negative')\n    return UserId(current + 1)\n",
    })
    result = translate(str(tmp_path / "pkg" / "ids.py"))
    assert not result.errors
    cases = generate(result.program, "next_id", GenerateOptions()).cases
    assert {type(case.value).__name__ for case in cases if case.kind == "return"} == {"int"}
    assert [case.exc_type for case in cases if case.kind == "raise"] == ["ValueError"]
