def twice_plus(x: int) -> int:
    x = x + 1
    x = x * 2
    y = x - 3
    return y
