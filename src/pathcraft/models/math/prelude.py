"""`math.factorial(n)` as CPython computes it on ints (a float or anything
else is a TypeError, its message not asserted). Lowered by
`pathcraft.frontend.prelude` (see there for the naming)."""


def fn__factorial(n: int) -> int:
    if not isinstance(n, int):
        raise TypeError
    if n < 0:
        raise ValueError("factorial() not defined for negative values")
    result = 1
    k = 2
    while k <= n:
        result *= k
        k += 1
    return result
