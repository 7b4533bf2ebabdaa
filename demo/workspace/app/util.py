def add_numbers(first: int, second: int) -> int:
    """Adds two integers."""
    return first + second
