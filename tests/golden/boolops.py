def both(p: bool, x: int) -> int:
    if p and 0 < x < 10:
        return 1
    if not p or x == 3:
        return 2
    return 3
