def helper(a: int) -> int:
    return abs(a) + 1


def total(n: int, m: int) -> int:
    s = 0
    for i in range(n):
        s += helper(i)
    return min(s, m)
