from app.util import add_numbers

total: int = add_numbers(2, 3)
print(total)

# A deliberate type error, so the diagnostics have something to show.
label: str = add_numbers(1, 1)
