"""A parameter or field annotated `X | None`, X a type the model has no
values of (`Exception`, `datetime`), is tried with None only: the paths
None takes get tests (that replay); a bare `X` is still refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import generated, replay_mismatches

from pathcraft.errors import UnsupportedError
from pathcraft.frontend import translate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "none_only_types.py"


@pytest.mark.parametrize("qualname, value", [("invalid", None), ("Package.uploaded", False)])
def test_none_takes_its_paths(qualname: str, value: object) -> None:
    cases = generated(FIXTURE, qualname)
    assert cases and replay_mismatches(FIXTURE, qualname, cases) == []
    if value is None:
        assert all(dict(c.inputs)["cause"] is None for c in cases)
    else:
        assert [c.value for c in cases] == [value]


def test_a_type_without_none_is_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "bare.py"
    path.write_text("def f(cause: Exception) -> int:\n    return 1\n")
    with pytest.raises(UnsupportedError, match="parameter type 'Exception'"):
        raise translate(str(path), ["f"]).errors["f"]
