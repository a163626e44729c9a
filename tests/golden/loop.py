def count(n: int) -> int:
    i = 0
    while i < n:
        i += 1
    return i
