"""Small integer functions for trying pathcraft, one control-flow feature each.

Try:  pathcraft gen examples/arith.py::classify --verify
"""


class InvalidInput(ValueError):
    """Raised on arguments a function does not accept."""


def classify(a: int, b: int, c: int) -> int:
    """Nested conditions and a chained comparison."""
    if a < b < c:
        return 1
    elif a == b:
        if b == c:
            return 2
        return 3
    else:
        if c > a:
            return 4
    return 0


def digit_sum(n: int, base: int) -> int:
    """A while loop over floor division and modulo; a guard that raises."""
    if base < 2:
        raise InvalidInput("base must be at least 2")
    if n < 0:
        n = -n
    total = 0
    while n > 0:
        total += n % base
        n = n // base
    return total


def first_multiple(start: int, k: int) -> int:
    """`while` with `continue` and `break`."""
    i = start
    found = -1
    while i < start + 3:
        i += 1
        if k != 0 and i % k != 0:
            continue
        found = i
        break
    return found


def power(x: int, n: int) -> int:
    """Recursion with a base case and an exception."""
    if n < 0:
        raise ValueError("negative exponent")
    if n == 0:
        return 1
    return x * power(x, n - 1)


def safe_ratio(a: int, b: int) -> int:
    """try / except / else / finally."""
    result = 0
    try:
        q = a // b
    except ZeroDivisionError:
        result = -1
    else:
        result = q
    finally:
        result += 100
    return result


def clamp(x: int, lo: int, hi: int) -> int:
    """The builtins min and max, and an assertion."""
    assert lo <= hi, "empty range"
    return max(lo, min(x, hi))


def floor_pair(a: int, b: int) -> int:
    """Floor division and modulo where signs differ (Python is not Java here)."""
    q = a // b
    r = a % b
    if r < 0:
        return q - 10
    if q < 0:
        return q + 10
    return q


def gate(p: bool, q: bool, x: int) -> int:
    """Short-circuit `and`/`or`/`not` over bools and ints."""
    if p and not q:
        return 1
    if q or x > 3:
        return 2
    if not p and x:
        return 3
    return 4


def spread(a: int, b: int) -> int:
    """abs of a difference, then a comparison on it."""
    d = abs(a - b)
    if d > 5:
        return d - 5
    return 0


def count_down(n: int, step: int) -> int:
    """A for loop over range with a negative step (and its zero-step error)."""
    total = 0
    for i in range(n, 0, -step):
        total += i
    return total


def checked_mean(a: int, b: int, strict: bool) -> int:
    """A user exception and an early return."""
    if strict and (a < 0 or b < 0):
        raise InvalidInput("negative input in strict mode")
    return (a + b) // 2
