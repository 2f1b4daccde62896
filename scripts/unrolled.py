"""The contracts' unrolled lines, from the rules they follow.

Algoku (smart_contracts/algoku/contract.py) spells three blocks out line by
line, and Curta (smart_contracts/curta/contract.py) its generate's eight
digits, on purpose: a loop's counter and branch would not fit the opcode
budget (see each module docstring). This script is their one source: it prints
each block from its rule, and tests/test_contract_source.py checks that the
contracts hold exactly these lines. To change Algoku's batch size K, print the
blocks for the new K and paste them in place (the masks' lengths in the
contract must cover the new number of 64-byte chunks).

    python scripts/unrolled.py lanes|chunks|verdicts [--grids K]   # Algoku
    python scripts/unrolled.py digits                              # Curta
"""

from __future__ import annotations

import argparse

INDENT = "    "
CELLS = 81
SEGMENT = 16  # cells a zero segment of lanes holds (the lanes' 16-bit slots)
CHUNK = 64  # bytes b- takes at a time (b+ and b- work on at most 64 bytes)
REACH = 255  # the largest offset extract's immediate form takes


def lanes() -> list[str]:
    """_unit_ors: each cell's lane bit set in a zero segment of 16 cells."""
    lines = []
    for cell in range(CELLS):
        s = f"s{cell // SEGMENT}"
        if cell % SEGMENT == 0:
            lines.append(f"{INDENT}{s} = Bytes.from_hex(ZERO_SEGMENT_HEX)")
        lines.append(f"{INDENT}{s} = op.setbit_bytes({s}, op.getbyte(g, {cell}), True)")
    return lines


def chunks(grids: int) -> list[str]:
    """_batch_verdicts, step 1: (y - 0x01..) in 64-byte chunks, the rest cut every
    four chunks so that every offset stays within extract's immediate reach."""
    count = -(-grids * CELLS // CHUNK)
    lines = []
    for c in range(count):
        group, i = divmod(c, 4)
        if c and i == 0:
            lines.append(f"{INDENT}rest = op.extract(rest, {REACH}, 0) + opaque")
        at = CHUNK * c - REACH * group
        op_ = "d =" if c == 0 else "d +="
        lines.append(
            f"{INDENT}{op_} (BigUInt.from_bytes(op.extract(rest, {at}, 64)) - BigUInt.from_bytes(one)).bytes"
        )
    return lines


def verdicts(grids: int) -> list[str]:
    """_batch_verdicts, step 3: grid g's bit set iff its 81 result bytes are zero;
    f's first two grids' worth of bytes are padding, and after the first four
    grids the rest is cut every three, so that offsets stay within reach."""
    lines = [f"{INDENT}rest = op.extract(f, {2 * CELLS}, 0) + opaque"]
    base = 0  # where `rest` starts, counted from grid 0's result bytes
    for g in range(grids):
        if g >= 4 and (g - 1) % 3 == 0:
            lines.append(f"{INDENT}rest = op.extract(rest, {3 * CELLS}, 0) + opaque")
            base += 3 * CELLS
        lines.append(
            f"{INDENT}verdicts = op.setbit_uint64(verdicts, {g}, op.bitlen(op.extract(rest, {CELLS * g - base}, 81)) == 0)"
        )
    return lines


def digits() -> list[str]:
    """Curta's _generate: digit d (1..8) draws a free square and writes d in its
    nibble (bit j of d at `at - j`); the last digit marks no square taken, as no
    draw follows it."""
    lines = []
    for d in range(1, 9):
        lines += [
            f"{INDENT}# digit {d}",
            f"{INDENT}if bits <= pos:",
            f"{INDENT}{INDENT}return puzzle",
            f"{INDENT}index = _draw(padded, pos)",
            f"{INDENT}pos += 6",
            f"{INDENT}while op.getbit(taken, index) == 1 and bits > pos:",
            f"{INDENT}{INDENT}index = _draw(padded, pos)",
            f"{INDENT}{INDENT}pos += 6",
        ]
        if d < 8:
            lines.append(f"{INDENT}taken = op.setbit_uint64(taken, index, True)")
        lines.append(f"{INDENT}at = 255 - (index << 2)")
        for j in range(4):
            if d >> j & 1:
                at = "at" if j == 0 else f"at - {j}"
                lines.append(f"{INDENT}puzzle = op.setbit_bytes(puzzle, {at}, True)")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("block", choices=["lanes", "chunks", "verdicts", "digits"])
    parser.add_argument("--grids", type=int, default=14, help="the batch size K (default 14)")
    args = parser.parse_args()
    block = {"lanes": lanes, "chunks": lambda: chunks(args.grids), "verdicts": lambda: verdicts(args.grids), "digits": digits}
    print("\n".join(block[args.block]()))


if __name__ == "__main__":
    main()
