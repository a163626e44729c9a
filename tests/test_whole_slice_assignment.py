"""`xs[:] = [a, b]`: the list's items replaced in place (boltons'
`self.root[:] = [self.root, self.root, None]` refused its method)."""

from __future__ import annotations

from pathlib import Path

from oracle import generated, replay_mismatches

SOURCE = '''
class Ring:
    def __init__(self) -> None:
        self.root: list[int] = []

    def reset(self, n: int) -> int:
        self.root[:] = [n, n + 1, 0]
        return len(self.root)


def fill(xs: list[int], a: int) -> list[int]:
    alias = xs
    xs[:] = (a, a)
    return alias


def other(d: dict[int, int]) -> int:
    d[:] = [1]  # type: ignore[index]
    return 0
'''


def test_the_items_are_replaced_in_place(tmp_path: Path) -> None:
    path = tmp_path / "slices.py"
    path.write_text(SOURCE)
    for name in ("Ring.reset", "fill", "other"):
        cases = generated(path, name)
        assert replay_mismatches(path, name, cases) == []
    assert {c.value for c in generated(path, "Ring.reset")} == {3}
    assert generated(path, "other") == []  # a dict's slice assignment is not followed: dropped
