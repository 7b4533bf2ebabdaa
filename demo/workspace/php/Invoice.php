<?php

/** Adds the tax to a net amount, in cents. */
function with_tax(int $net, int $rate): int
{
    return $net + intdiv($net * $rate, 100)
}

$total = with_tax(1000, 23);
echo "Total: $total\n";
