def safe_div(a: int, b: int) -> int:
    try:
        q = a // b
    except ZeroDivisionError:
        q = 0
    return q
