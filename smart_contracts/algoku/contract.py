"""Algoku: verify a 9x9 Sudoku solution on the Algorand Virtual Machine.

The algorithm (the original Algoku's, made total)
-------------------------------------------------
A grid is 81 bytes, row-major, one digit per byte. Every cell belongs to one
row, one column and one 3x3 box, numbered 0..8. Three lookup tables hold, for
cell ``i``, ``0x10 * (unit + 1)``: ``ROW[i]``, ``COLUMN[i]``, ``BOX[i]``.

Each of the three masks (rows, columns, boxes) starts as ``GROUP``:
``01ff`` nine times, i.e. for unit ``g`` the 16 bits ``16g .. 16g+15`` are
``0000000111111111``. Bit numbering is the AVM's: bit 0 is the leftmost bit
of byte 0. The nine set bits of unit ``g`` sit at ``16(g+1) - d`` for the
digits ``d = 1..9``. For every cell, ``setbit(mask, LOOKUP[i] - cell, False)``
clears the bit of that digit in that unit. A grid is a solution exactly when
every bit is cleared in all three masks: ``bitlen(rows | columns | boxes) == 0``.

Why out-of-range bytes cannot fake a solution: a cell of unit ``r`` holding
``c = d + 16k`` clears bit ``16(r - k + 1) - d``, i.e. digit ``d`` of unit
``r - k`` (an "alias"), and ``c`` with ``c % 16`` in ``{0, 10..15}`` clears a
bit that is zero already. All 81 cells must clear 81 distinct bits of each
mask. Unit 8's bits can only be cleared by unit 8's own cells with ``k = 0``,
which uses all nine of them; then unit 7's only by its own cells, and so on
down: a cleared mask forces ``k = 0`` and ``d`` in ``1..9`` for every cell.

The original fails with an AVM error on two kinds of input instead of
answering: a cell larger than its ``LOOKUP`` value ("- would result negative")
and a 0 in unit 9 ("setbit index beyond byteslice", bit 144 of an 18-byte
mask). This contract answers ``false`` for both, at almost no cost:

* one ``b&`` with ``0xf0`` x 81 and one ``bitlen`` reject any byte >= 16 up
  front, so ``LOOKUP[i] - cell`` (LOOKUP >= 16) never goes negative;
* ``GROUP`` carries one extra zero byte, so the 0 of unit 9 clears bit 144,
  which exists and is already zero.

Lanes: `is_valid_solution_lanes`, the same answer in one app call
----------------------------------------------------------------
Cell ``i`` gets a 16-bit *lane*, lane ``i``, in a string of six 32-byte
segments (96 lanes; lanes 81..95 stay zero). ``grid | OFFSETS`` (``OFFSETS[i] =
16 * (i % 16)``) turns byte ``i`` into ``16 * (i % 16) + cell``: the ``setbit``
index of bit ``cell`` of lane ``i % 16`` in segment ``i // 16``. One
``getbyte`` and one ``setbit`` per cell into zeroed segments, then the six
segments concatenated: every lane holds exactly one set bit, at the cell's
value (bit 0 = leftmost), when every byte is below 16.

A *fold* by ``k``, ``x | extract(x, 0, 192 - 2k)``, ORs lane ``p - k`` into
lane ``p`` of the whole string at once (``b|`` zero-extends the shorter operand
on the left; ``b|`` has no 64-byte limit, only byte *math* does). Folds by
1, 1 give ``w3`` (three consecutive cells); ``w3`` folded by 3, 3 holds row
``r``'s OR in lane ``9r + 8``; ``w3`` folded by 9, 9 holds box ``(R, C)``'s OR in
lane ``9(3R + 2) + 3C + 2``; the lanes folded by 9, 9, 27, 27 hold column ``c``'s
OR in lane ``72 + c``. The verdict is one comparison::

    (grid ++ rows ++ columns ++ boxes) & CHECK_MASK == CHECK_EXPECTED

``CHECK_MASK`` keeps the grid's high nibbles (expected 0) and the 27 result
lanes (expected ``0x7fc0``, the bits of 1..9).

Why no invalid 81-byte input returns true:

* a byte >= 16 leaves a set high nibble in the grid part: the comparison
  fails (and its ``setbit`` index is below 256, inside its 32-byte segment:
  no AVM error, so the method answers ``false``);
* with every byte < 16 each lane holds exactly one bit, at the cell's value
  0..15; the result lane of a unit is the OR of its nine lanes. It equals
  ``0x7fc0`` (bits 1..9) only if the nine cells' values are all in 1..9 (a 0
  or 10..15 sets bit 0 or 10..15) and cover nine different bits with nine
  cells, i.e. the unit holds each of 1..9 once;
* all 27 units (rows, columns, boxes) are compared, so the grid is solved.

Conversely a solved grid gives exactly those lanes. There are no branches
after the length check: every 81-byte input costs the same (the worst case).
The 81 cells are unrolled on purpose: a loop's counter and branch per cell would
take the call past one app call's 700 opcodes. scripts/unrolled.py writes their
lines from one rule (the block ``lanes``; ``--check`` in the tests).

Where the opcodes of one call go (578 measured on go-algorand's evaluator,
tests/test_contract_lanes.py; TEAL recount in tests/test_contract_source.py):

=====================================================  =======
ARC-4 routing (selector ``match``)                          10
ABI ``byte[]`` header check and decode                      11
budget check (``global OpcodeBudget``, no opup alone)        4
length assertion                                             5
``grid | OFFSETS``                                           8
81 cells x (``dig, pushint, getbyte, intc 1, setbit``)     405
six zeroed segments and their concatenation                 ~12
ten folds (``dup, extract, b|`` = 8) and stack moves       ~100
concat, ``b&`` with CHECK_MASK, ``==``                      ~13
ABI bool return and ``log``                                 ~10
=====================================================  =======

Puzzle: `is_solution_of`
------------------------
``solution`` goes through the lanes above; the givens are checked with byte
vectors. With every byte below 16, ``x b+ 0x0f..0f`` has bit ``0x10`` of a byte
set iff that byte of ``x`` is non-zero (no carry crosses a byte; ``b+`` takes
at most 64 bytes, so 64 + 17). A given agrees iff ``puzzle ^ solution`` or
``puzzle`` is zero at that cell, so ``nz(puzzle ^ solution) & nz(puzzle) &
0x10..10`` must be zero; ``puzzle``'s high nibbles must be zero too. Both parts
join the lanes' comparison (one ``b&``, one ``==``). A given that equals a
solved grid's cell is 1..9, so puzzle bytes 10..15 (and >= 16) answer false.
If a ``b+`` carries out of a byte (a byte >= 16 somewhere), the compared
string has another length or a set high nibble: false, never an error.
One call: 668 opcodes with routing.

Batch: `are_valid_solutions`, up to 14 grids in one call
-------------------------------------------------------
A grid is 81 bytes, one byte a cell: digit ``d = 1..8`` is the single bit
``0x80 >> (d - 1)`` and digit 9 is ``0x00``. Up to 14 grids are concatenated
(1 134 bytes, inside the 2 048 bytes of arguments) and padded with zero bytes
to 14; bit ``g`` of the uint64 answer is grid ``g``'s verdict. The bitwise ops
(``b|``, ``b&``, ``b~``) cost the same on the whole batch as on one grid; only
``b-`` is limited to 64 bytes, and it is the one per-byte cost.

A grid is solved exactly when (1) every byte has at most one set bit and (2)
every row, column and box XORs to ``0xff``. With (1), each of a unit's nine
bytes is a single bit or zero; (2) needs each of the eight bits an odd number
of times among them, i.e. at least eight bytes, and a bit three times would
need ten: so eight bytes hold the eight bits once each and the ninth is zero,
the unit holds 1..9 once each. (An OR would miss a unit whose 9 is replaced by
a second 8: eight different bits and a duplicate OR to 0xff too; the XOR
clears the duplicate.) A solved grid satisfies both. Why each step is sound:

* At most one bit a byte. ``y = x | 0x80..80`` sets every byte's top bit (the
  guard), so ``d = y - 0x0101..01`` (64-byte ``b-`` chunks, concatenated)
  never borrows out of a byte: each byte is at least 0x80 before and 0x7f
  after, a chunk never goes negative and keeps its length, no borrow crosses
  a byte, a chunk or a grid. Byte by byte, ``d = (x | 0x80) - 1``, and
  ``x & d == 0`` exactly when ``x`` has at most one bit: ``x = 0`` gives 0;
  ``x = 0x80`` gives ``0x80 & 0x7f = 0``; one bit ``b < 0x80`` gives ``b & (0x80
  + b - 1) = 0``; if the low seven bits hold two or more, their highest bit
  survives the subtraction and shows; if they hold one bit and ``x`` also has
  0x80, then ``d >= 0x80`` and ``x & d`` keeps 0x80. So ``e = d & x`` (the
  guard folds away: ``(x | 0x80) & d & (x | 0x7f) = x & d``) is zero on a grid
  iff (1) holds. Zero bytes (digit 9) and the top bit (digit 1) are data, not
  exceptions: both are covered above, and so is every byte value.
* Units. A fold ``w ^ extract(w, 0, len - k) ^ extract(w, 0, len - 2k)`` XORs
  cells ``p - k`` and ``p - 2k`` into cell ``p`` across the whole batch (three
  disjoint cells: nothing is counted twice). Folds by 1 then 3 leave row
  ``r``'s XOR in cell ``9r + 8``; by 1 then 9 box ``(R, C)``'s in cell ``9(3R +
  2) + 3C + 2``; by 9 then 27 column ``c``'s in cell ``72 + c``. Those cells
  only read cells of their own grid (a result cell's window starts at the
  grid's first cell at the earliest); the other cells, whose windows cross into
  the grid before, are never read. ``unit | mask`` (0x00 on the result cells,
  0xff elsewhere) is 0xff everywhere iff every result cell is 0xff.
* Lengths. The masks are built by doubling short seeds, so they are longer
  than the batch (1 152 and 1 296 bytes for 1 134); ``b|``/``b&`` zero-extend
  the shorter operand on the left, i.e. align right ends, and every mask is
  periodic with the right phase at its end, so grid ``g`` sits at the same
  distance from the right end in every operand. ``f = e | ~units`` is zero on
  grid ``g``'s 81 bytes iff the grid is solved; ``bitlen == 0`` reads that.
* Padding. The zero grids that fill the batch up to 14 fail (2) and answer
  0: the answer never has a bit at or above the number of grids sent. A grid's
  verdict reads only its own bytes (no borrow or fold crosses into it from a
  neighbour's result cells), so it does not depend on the other grids.

There are no branches after the length checks: every call costs the same
(691 opcodes with routing, tests/test_contract_batch.py): 1 000 µALGO for up to
14 grids, 71.4 µALGO a grid.
The ``b-`` chunks and the 14 verdicts are unrolled on purpose: the call fills its
700 opcodes, with no room for a loop's counter and branch. scripts/unrolled.py
writes their lines for BATCH_MAX (the blocks ``chunks`` and ``verdicts``).

Budget and composition
----------------------
A group's app calls pool their budget: each brings 700, all available from the
group's start. The rule every method keeps: *a call never consumes the 700 of
the app calls after it in its group, and funds itself first*.

* ``is_valid_solution`` costs more than 700. It counts the app calls after it
  (``gtxns TypeEnum``) and ``ensure_budget`` tops the pool up to what it still
  needs plus 700 per later app call, with inner opup calls paid from the
  group's fee credit (never by the app account). Standalone: fee 3 000, two
  inner opups; or ``[opup(), opup(), is_valid_solution]`` at 1 000 each (each
  ``opup()`` adds 700; when the pool is large enough no inner transaction is
  made).
* ``is_valid_solution_lanes``, ``is_solution_of`` and ``are_valid_solutions`` need less than their own
  700, so in a group of such calls they never touch another call's share. A
  4-opcode check tops the pool up (inner opup, fee credit) only when it is
  short, which happens only after a foreign budget-hungry call; then they also
  leave ``LANES_HANDOVER`` / ``SOLUTION_OF_HANDOVER`` / ``BATCH_HANDOVER`` opcodes
  for the next call.

Measured on the evaluator (tests/test_contract_compose.py): k = 1..16
verifications in one group, of each method and mixed, each paying its
documented fee, all answer; a later app call still finds its 700; after a call
that burns the pool, a verification answers when its fee pays the opups it
needs, and fails with one microalgo less. No ARC-4 method can run code before
its routing: a call that finds fewer opcodes than its routing and argument
decoding need (about 60 to 90, measured there) fails at any fee.
"""

from algopy import (
    ARC4Contract,
    BigUInt,
    Bytes,
    Global,
    OpUpFeeSource,
    Txn,
    UInt64,
    arc4,
    ensure_budget,
    op,
    subroutine,
)

from smart_contracts.common import APP_CALL_SHARE, LANES_LEN, close_to_creator, later_app_calls, top_up, unit_ors

# The original's lookup tables, cell i -> 0x10 * (unit + 1): ROW[i] = 0x10 * (i // 9 + 1),
# COLUMN[i] = 0x10 * (i % 9 + 1), BOX[i] = 0x10 * (3 * (i // 27) + (i % 9) // 3 + 1). The
# unrolled body of `is_valid_solution` spells their bytes out, cell by cell, as constants
# (the block `clear_cells`, written by scripts/unrolled.py from these formulas).
# GROUP = 01ff x 9 and a zero guard byte (bit 144, which a 0 in unit 9 clears).
GROUP_HEX = "01ff01ff01ff01ff01ff01ff01ff01ff01ff00"
# The rows, columns and boxes masks side by side in one byte string: GROUP x 3.
MASKS_HEX = "01ff01ff01ff01ff01ff01ff01ff01ff01ff0001ff01ff01ff01ff01ff01ff01ff01ff01ff0001ff01ff01ff01ff01ff01ff01ff01ff01ff00"
# Bit offsets of the columns and boxes masks inside it (19 bytes = 152 bits each).
COLUMNS_AT = 152
BOXES_AT = 304
# 0xf0 x 81: `grid & HIGH_NIBBLES` has a set bit iff some byte is >= 16.
HIGH_NIBBLES_HEX = "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0"
GRID_SIZE = 81

# Opcode budget the method still needs once `ensure_budget` returns: the
# unrolled checks and the verdict are straight-line code of 1633 opcodes that
# cost 1 each. tests/test_contract_source.py recounts them in the compiled TEAL,
# and tests/test_contract.py shows on go-algorand's evaluator that this asks
# for the fewest inner opups (2) and that one outer padding call fewer fails.
CHECK_BUDGET = 1633
# Opcodes the one-call methods still need after their budget check (their
# straight-line tails, recounted by tests/test_contract_source.py), and what they
# leave in the pool on top. LANES_HANDOVER is enough for a following lanes call to
# reach its own top-up (tests/test_contract_compose.py); SOLUTION_OF_HANDOVER is what
# still fits in is_solution_of's own 700 (after a foreign budget-hungry call, a call
# following it may need an opup() in between).
LANES_TAIL = 551
SOLUTION_OF_TAIL = 630
LANES_HANDOVER = 60
# are_valid_solutions: its straight-line tail and what still fits in its own 700.
BATCH_TAIL = 664
BATCH_HANDOVER = 9
SOLUTION_OF_HANDOVER = 25


@subroutine(inline=True)
def _clear_cell(mask: Bytes, grid: Bytes, i: UInt64, row: UInt64, column: UInt64, box: UInt64) -> Bytes:
    """Clear the bits of cell i's digit in its row, column and box."""
    cell = op.getbyte(grid, i)
    mask = op.setbit_bytes(mask, row - cell, False)
    mask = op.setbit_bytes(mask, COLUMNS_AT + column - cell, False)
    return op.setbit_bytes(mask, BOXES_AT + box - cell, False)


# ---------------------------------------------------------------------------
# The one-call verifier (is_valid_solution_lanes) and puzzle-bound verification
# (is_solution_of). See the module docstring, "Lanes".
# ---------------------------------------------------------------------------
# OFFSETS[i] = 16 * (i % 16): `grid | OFFSETS` turns cell i's byte into the setbit
# index 16 * lane + digit of its lane (i % 16) inside its 32-byte segment (i // 16).
OFFSETS_HEX = "00102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f000"
# One segment: sixteen zeroed 16-bit lanes.
ZERO_SEGMENT_HEX = "0000000000000000000000000000000000000000000000000000000000000000"
# CHECK_MASK / CHECK_EXPECTED cover grid || rows || columns || boxes (81 + 3 * 192
# bytes): 0xf0 on each grid byte (expects 0: every byte < 16), 0xffff on the lane
# holding each unit's OR (expects 0x7fc0: the bits of digits 1..9), 0 elsewhere.
# Row r's OR is in lane 9r + 8, column c's in lane 72 + c, box (R, C)'s in lane
# 9(3R + 2) + 3C + 2. scripts/unrolled.py writes both (the Game's check shares the units' part).
CHECK_MASK_HEX = "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f000000000000000000000000000000000ffff00000000000000000000000000000000ffff00000000000000000000000000000000ffff00000000000000000000000000000000ffff00000000000000000000000000000000ffff00000000000000000000000000000000ffff00000000000000000000000000000000ffff00000000000000000000000000000000ffff00000000000000000000000000000000ffff000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000ffffffffffffffffffffffffffffffffffff00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000ffff00000000ffff00000000ffff00000000000000000000000000000000000000000000000000000000000000000000000000000000ffff00000000ffff00000000ffff00000000000000000000000000000000000000000000000000000000000000000000000000000000ffff00000000ffff00000000ffff000000000000000000000000000000000000000000000000000000000000"
CHECK_EXPECTED_HEX = "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000007fc0000000000000000000000000000000007fc0000000000000000000000000000000007fc0000000000000000000000000000000007fc0000000000000000000000000000000007fc0000000000000000000000000000000007fc0000000000000000000000000000000007fc0000000000000000000000000000000007fc0000000000000000000000000000000007fc00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000007fc07fc07fc07fc07fc07fc07fc07fc07fc0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000007fc0000000007fc0000000007fc0000000000000000000000000000000000000000000000000000000000000000000000000000000007fc0000000007fc0000000007fc0000000000000000000000000000000000000000000000000000000000000000000000000000000007fc0000000007fc0000000007fc0000000000000000000000000000000000000000000000000000000000000"
# Puzzle part: 0x0f per byte (b+ operands are at most 64 bytes: 64 + 17), 0x10 per byte,
# 0xf0 per byte, 81 zero bytes.
LOW_64_HEX = "0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f"
LOW_17_HEX = "0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f"
PUZZLE_MASK_HEX = "101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0"
PUZZLE_EXPECTED_HEX = "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"


@subroutine(inline=True)
def _unit_ors(grid: Bytes) -> Bytes:
    """grid || rows || columns || boxes: compare `& CHECK_MASK` with CHECK_EXPECTED."""
    g = grid | Bytes.from_hex(OFFSETS_HEX)
    # generated by scripts/unrolled.py: lanes
    s0 = Bytes.from_hex(ZERO_SEGMENT_HEX)
    s0 = op.setbit_bytes(s0, op.getbyte(g, 0), True)
    s0 = op.setbit_bytes(s0, op.getbyte(g, 1), True)
    s0 = op.setbit_bytes(s0, op.getbyte(g, 2), True)
    s0 = op.setbit_bytes(s0, op.getbyte(g, 3), True)
    s0 = op.setbit_bytes(s0, op.getbyte(g, 4), True)
    s0 = op.setbit_bytes(s0, op.getbyte(g, 5), True)
    s0 = op.setbit_bytes(s0, op.getbyte(g, 6), True)
    s0 = op.setbit_bytes(s0, op.getbyte(g, 7), True)
    s0 = op.setbit_bytes(s0, op.getbyte(g, 8), True)
    s0 = op.setbit_bytes(s0, op.getbyte(g, 9), True)
    s0 = op.setbit_bytes(s0, op.getbyte(g, 10), True)
    s0 = op.setbit_bytes(s0, op.getbyte(g, 11), True)
    s0 = op.setbit_bytes(s0, op.getbyte(g, 12), True)
    s0 = op.setbit_bytes(s0, op.getbyte(g, 13), True)
    s0 = op.setbit_bytes(s0, op.getbyte(g, 14), True)
    s0 = op.setbit_bytes(s0, op.getbyte(g, 15), True)
    s1 = Bytes.from_hex(ZERO_SEGMENT_HEX)
    s1 = op.setbit_bytes(s1, op.getbyte(g, 16), True)
    s1 = op.setbit_bytes(s1, op.getbyte(g, 17), True)
    s1 = op.setbit_bytes(s1, op.getbyte(g, 18), True)
    s1 = op.setbit_bytes(s1, op.getbyte(g, 19), True)
    s1 = op.setbit_bytes(s1, op.getbyte(g, 20), True)
    s1 = op.setbit_bytes(s1, op.getbyte(g, 21), True)
    s1 = op.setbit_bytes(s1, op.getbyte(g, 22), True)
    s1 = op.setbit_bytes(s1, op.getbyte(g, 23), True)
    s1 = op.setbit_bytes(s1, op.getbyte(g, 24), True)
    s1 = op.setbit_bytes(s1, op.getbyte(g, 25), True)
    s1 = op.setbit_bytes(s1, op.getbyte(g, 26), True)
    s1 = op.setbit_bytes(s1, op.getbyte(g, 27), True)
    s1 = op.setbit_bytes(s1, op.getbyte(g, 28), True)
    s1 = op.setbit_bytes(s1, op.getbyte(g, 29), True)
    s1 = op.setbit_bytes(s1, op.getbyte(g, 30), True)
    s1 = op.setbit_bytes(s1, op.getbyte(g, 31), True)
    s2 = Bytes.from_hex(ZERO_SEGMENT_HEX)
    s2 = op.setbit_bytes(s2, op.getbyte(g, 32), True)
    s2 = op.setbit_bytes(s2, op.getbyte(g, 33), True)
    s2 = op.setbit_bytes(s2, op.getbyte(g, 34), True)
    s2 = op.setbit_bytes(s2, op.getbyte(g, 35), True)
    s2 = op.setbit_bytes(s2, op.getbyte(g, 36), True)
    s2 = op.setbit_bytes(s2, op.getbyte(g, 37), True)
    s2 = op.setbit_bytes(s2, op.getbyte(g, 38), True)
    s2 = op.setbit_bytes(s2, op.getbyte(g, 39), True)
    s2 = op.setbit_bytes(s2, op.getbyte(g, 40), True)
    s2 = op.setbit_bytes(s2, op.getbyte(g, 41), True)
    s2 = op.setbit_bytes(s2, op.getbyte(g, 42), True)
    s2 = op.setbit_bytes(s2, op.getbyte(g, 43), True)
    s2 = op.setbit_bytes(s2, op.getbyte(g, 44), True)
    s2 = op.setbit_bytes(s2, op.getbyte(g, 45), True)
    s2 = op.setbit_bytes(s2, op.getbyte(g, 46), True)
    s2 = op.setbit_bytes(s2, op.getbyte(g, 47), True)
    s3 = Bytes.from_hex(ZERO_SEGMENT_HEX)
    s3 = op.setbit_bytes(s3, op.getbyte(g, 48), True)
    s3 = op.setbit_bytes(s3, op.getbyte(g, 49), True)
    s3 = op.setbit_bytes(s3, op.getbyte(g, 50), True)
    s3 = op.setbit_bytes(s3, op.getbyte(g, 51), True)
    s3 = op.setbit_bytes(s3, op.getbyte(g, 52), True)
    s3 = op.setbit_bytes(s3, op.getbyte(g, 53), True)
    s3 = op.setbit_bytes(s3, op.getbyte(g, 54), True)
    s3 = op.setbit_bytes(s3, op.getbyte(g, 55), True)
    s3 = op.setbit_bytes(s3, op.getbyte(g, 56), True)
    s3 = op.setbit_bytes(s3, op.getbyte(g, 57), True)
    s3 = op.setbit_bytes(s3, op.getbyte(g, 58), True)
    s3 = op.setbit_bytes(s3, op.getbyte(g, 59), True)
    s3 = op.setbit_bytes(s3, op.getbyte(g, 60), True)
    s3 = op.setbit_bytes(s3, op.getbyte(g, 61), True)
    s3 = op.setbit_bytes(s3, op.getbyte(g, 62), True)
    s3 = op.setbit_bytes(s3, op.getbyte(g, 63), True)
    s4 = Bytes.from_hex(ZERO_SEGMENT_HEX)
    s4 = op.setbit_bytes(s4, op.getbyte(g, 64), True)
    s4 = op.setbit_bytes(s4, op.getbyte(g, 65), True)
    s4 = op.setbit_bytes(s4, op.getbyte(g, 66), True)
    s4 = op.setbit_bytes(s4, op.getbyte(g, 67), True)
    s4 = op.setbit_bytes(s4, op.getbyte(g, 68), True)
    s4 = op.setbit_bytes(s4, op.getbyte(g, 69), True)
    s4 = op.setbit_bytes(s4, op.getbyte(g, 70), True)
    s4 = op.setbit_bytes(s4, op.getbyte(g, 71), True)
    s4 = op.setbit_bytes(s4, op.getbyte(g, 72), True)
    s4 = op.setbit_bytes(s4, op.getbyte(g, 73), True)
    s4 = op.setbit_bytes(s4, op.getbyte(g, 74), True)
    s4 = op.setbit_bytes(s4, op.getbyte(g, 75), True)
    s4 = op.setbit_bytes(s4, op.getbyte(g, 76), True)
    s4 = op.setbit_bytes(s4, op.getbyte(g, 77), True)
    s4 = op.setbit_bytes(s4, op.getbyte(g, 78), True)
    s4 = op.setbit_bytes(s4, op.getbyte(g, 79), True)
    s5 = Bytes.from_hex(ZERO_SEGMENT_HEX)
    s5 = op.setbit_bytes(s5, op.getbyte(g, 80), True)
    # end of lanes
    rows, columns, boxes = unit_ors(s0 + s1 + s2 + s3 + s4 + s5)
    return grid + rows + columns + boxes


# ---------------------------------------------------------------------------
# The batch verifier (are_valid_solutions). See "Batch" in the module docstring.
# ---------------------------------------------------------------------------
# Grids a call: as many as fit in 700 opcodes (tests/test_contract_batch.py).
BATCH_MAX = 14
BATCH_LEN = 81 * BATCH_MAX
HIGH_9_HEX = "808080808080808080"
ONE_8_HEX = "0101010101010101"
ONES_9_HEX = "ffffffffffffffffff"
# One row of a unit's mask: 0x00 on the cells holding a unit's XOR, 0xff elsewhere.
# Every row's last cell holds the row's XOR; in rows 2, 5 and 8, cells 2, 5 and 8
# hold the boxes' (the columns' are the whole of row 8).
ROWS_OFF_9_HEX = "ffffffffffffffff00"
BOXES_OFF_9_HEX = "ffff00ffff00ffff00"


@subroutine(inline=True)
def _times8(seed: Bytes) -> Bytes:
    s2 = seed + seed
    s4 = s2 + s2
    return s4 + s4


@subroutine(inline=True)
def _times16(seed: Bytes) -> Bytes:
    return _times8(seed + seed)


@subroutine(inline=True)
def _times128(seed: Bytes) -> Bytes:
    return _times16(_times8(seed))


@subroutine(inline=True)
def _fold3(w: Bytes, k: UInt64) -> Bytes:
    """Cell p ^= cell p - k ^ cell p - 2k over the whole batch (cells before the batch are 0)."""
    return w ^ op.extract(w, 0, BATCH_LEN - k) ^ op.extract(w, 0, BATCH_LEN - k - k)


@subroutine(inline=True)
def _batch_verdicts(x: Bytes) -> UInt64:
    """Bit g set iff grid g of x (BATCH_LEN bytes) is solved: "Batch" in the module docstring."""
    opaque = op.substring(x, 0, 0)
    # 1. at most one bit a cell: d = (x | 0x80..) - 0x01.. byte by byte, x & d == 0
    y = x | _times128(opaque + Bytes.from_hex(HIGH_9_HEX))
    one = _times8(opaque + Bytes.from_hex(ONE_8_HEX))
    rest = y
    # generated by scripts/unrolled.py: chunks
    d = (BigUInt.from_bytes(op.extract(rest, 0, 64)) - BigUInt.from_bytes(one)).bytes
    d += (BigUInt.from_bytes(op.extract(rest, 64, 64)) - BigUInt.from_bytes(one)).bytes
    d += (BigUInt.from_bytes(op.extract(rest, 128, 64)) - BigUInt.from_bytes(one)).bytes
    d += (BigUInt.from_bytes(op.extract(rest, 192, 64)) - BigUInt.from_bytes(one)).bytes
    rest = op.extract(rest, 255, 0) + opaque
    d += (BigUInt.from_bytes(op.extract(rest, 1, 64)) - BigUInt.from_bytes(one)).bytes
    d += (BigUInt.from_bytes(op.extract(rest, 65, 64)) - BigUInt.from_bytes(one)).bytes
    d += (BigUInt.from_bytes(op.extract(rest, 129, 64)) - BigUInt.from_bytes(one)).bytes
    d += (BigUInt.from_bytes(op.extract(rest, 193, 64)) - BigUInt.from_bytes(one)).bytes
    rest = op.extract(rest, 255, 0) + opaque
    d += (BigUInt.from_bytes(op.extract(rest, 2, 64)) - BigUInt.from_bytes(one)).bytes
    d += (BigUInt.from_bytes(op.extract(rest, 66, 64)) - BigUInt.from_bytes(one)).bytes
    d += (BigUInt.from_bytes(op.extract(rest, 130, 64)) - BigUInt.from_bytes(one)).bytes
    d += (BigUInt.from_bytes(op.extract(rest, 194, 64)) - BigUInt.from_bytes(one)).bytes
    rest = op.extract(rest, 255, 0) + opaque
    d += (BigUInt.from_bytes(op.extract(rest, 3, 64)) - BigUInt.from_bytes(one)).bytes
    d += (BigUInt.from_bytes(op.extract(rest, 67, 64)) - BigUInt.from_bytes(one)).bytes
    d += (BigUInt.from_bytes(op.extract(rest, 131, 64)) - BigUInt.from_bytes(one)).bytes
    d += (BigUInt.from_bytes(op.extract(rest, 195, 64)) - BigUInt.from_bytes(one)).bytes
    rest = op.extract(rest, 255, 0) + opaque
    d += (BigUInt.from_bytes(op.extract(rest, 4, 64)) - BigUInt.from_bytes(one)).bytes
    d += (BigUInt.from_bytes(op.extract(rest, 68, 64)) - BigUInt.from_bytes(one)).bytes
    # end of chunks
    e = d & x
    # 2. every row, column and box XORs to 0xff
    w3 = _fold3(x, UInt64(1))
    rows = _fold3(w3, UInt64(3))
    boxes = _fold3(w3, UInt64(9))
    columns = _fold3(_fold3(x, UInt64(9)), UInt64(27))
    ones = opaque + Bytes.from_hex(ONES_9_HEX)
    units = rows | _times128(opaque + Bytes.from_hex(ROWS_OFF_9_HEX))
    units &= columns | _times16(_times8(ones) + op.bzero(9))
    box_band = ones + ones + Bytes.from_hex(BOXES_OFF_9_HEX)
    units &= boxes | _times16(box_band + box_band + box_band)
    f = e | ~units
    verdicts = UInt64(0)
    # generated by scripts/unrolled.py: verdicts
    rest = op.extract(f, 162, 0) + opaque
    verdicts = op.setbit_uint64(verdicts, 0, op.bitlen(op.extract(rest, 0, 81)) == 0)
    verdicts = op.setbit_uint64(verdicts, 1, op.bitlen(op.extract(rest, 81, 81)) == 0)
    verdicts = op.setbit_uint64(verdicts, 2, op.bitlen(op.extract(rest, 162, 81)) == 0)
    verdicts = op.setbit_uint64(verdicts, 3, op.bitlen(op.extract(rest, 243, 81)) == 0)
    rest = op.extract(rest, 243, 0) + opaque
    verdicts = op.setbit_uint64(verdicts, 4, op.bitlen(op.extract(rest, 81, 81)) == 0)
    verdicts = op.setbit_uint64(verdicts, 5, op.bitlen(op.extract(rest, 162, 81)) == 0)
    verdicts = op.setbit_uint64(verdicts, 6, op.bitlen(op.extract(rest, 243, 81)) == 0)
    rest = op.extract(rest, 243, 0) + opaque
    verdicts = op.setbit_uint64(verdicts, 7, op.bitlen(op.extract(rest, 81, 81)) == 0)
    verdicts = op.setbit_uint64(verdicts, 8, op.bitlen(op.extract(rest, 162, 81)) == 0)
    verdicts = op.setbit_uint64(verdicts, 9, op.bitlen(op.extract(rest, 243, 81)) == 0)
    rest = op.extract(rest, 243, 0) + opaque
    verdicts = op.setbit_uint64(verdicts, 10, op.bitlen(op.extract(rest, 81, 81)) == 0)
    verdicts = op.setbit_uint64(verdicts, 11, op.bitlen(op.extract(rest, 162, 81)) == 0)
    verdicts = op.setbit_uint64(verdicts, 12, op.bitlen(op.extract(rest, 243, 81)) == 0)
    rest = op.extract(rest, 243, 0) + opaque
    verdicts = op.setbit_uint64(verdicts, 13, op.bitlen(op.extract(rest, 81, 81)) == 0)
    # end of verdicts
    return verdicts

class Algoku(ARC4Contract):
    """A Sudoku verifier: `is_valid_solution(byte[])bool` (3 000 µALGO),
    `is_valid_solution_lanes(byte[])bool` (one call, 1 000 µALGO),
    `is_solution_of(byte[],byte[])bool` (one call, 1 000 µALGO) and
    `are_valid_solutions(byte[])uint64` (up to 14 grids a call, 1 000 µALGO)."""

    @arc4.baremethod(create="require")
    def create(self) -> None:
        """Create the app with a bare call; it holds no state."""

    @arc4.baremethod(allow_actions=["DeleteApplication"])
    def delete(self) -> None:
        """Only the creator may delete the app; its account closes to the creator (one inner
        payment, fee 0: the delete call pays 2 000), so nothing sent to it is left behind.
        Updates are always rejected."""
        assert Txn.sender == Global.creator_address, "Only the creator can delete Algoku."
        close_to_creator()

    @arc4.abimethod
    def opup(self) -> None:
        """Do nothing: each call adds 700 to its group's pooled opcode budget."""

    @arc4.abimethod
    def is_valid_solution(self, grid: Bytes) -> bool:
        """True iff `grid` (81 bytes, row-major, one digit 1..9 per byte) is a
        solved Sudoku. Any other 81-byte input gives false; another length
        fails the call."""
        assert grid.length == GRID_SIZE, "Grid must be 81 bytes long."
        if op.bitlen(grid & Bytes.from_hex(HIGH_NIBBLES_HEX)) != 0:
            return False

        ensure_budget(CHECK_BUDGET + APP_CALL_SHARE * later_app_calls(), OpUpFeeSource.GroupCredit)

        mask = Bytes.from_hex(MASKS_HEX)
        # cell i, then ROW[i], COLUMN[i], BOX[i]
        # generated by scripts/unrolled.py: clear_cells
        mask = _clear_cell(mask, grid, UInt64(0), UInt64(0x10), UInt64(0x10), UInt64(0x10))
        mask = _clear_cell(mask, grid, UInt64(1), UInt64(0x10), UInt64(0x20), UInt64(0x10))
        mask = _clear_cell(mask, grid, UInt64(2), UInt64(0x10), UInt64(0x30), UInt64(0x10))
        mask = _clear_cell(mask, grid, UInt64(3), UInt64(0x10), UInt64(0x40), UInt64(0x20))
        mask = _clear_cell(mask, grid, UInt64(4), UInt64(0x10), UInt64(0x50), UInt64(0x20))
        mask = _clear_cell(mask, grid, UInt64(5), UInt64(0x10), UInt64(0x60), UInt64(0x20))
        mask = _clear_cell(mask, grid, UInt64(6), UInt64(0x10), UInt64(0x70), UInt64(0x30))
        mask = _clear_cell(mask, grid, UInt64(7), UInt64(0x10), UInt64(0x80), UInt64(0x30))
        mask = _clear_cell(mask, grid, UInt64(8), UInt64(0x10), UInt64(0x90), UInt64(0x30))
        mask = _clear_cell(mask, grid, UInt64(9), UInt64(0x20), UInt64(0x10), UInt64(0x10))
        mask = _clear_cell(mask, grid, UInt64(10), UInt64(0x20), UInt64(0x20), UInt64(0x10))
        mask = _clear_cell(mask, grid, UInt64(11), UInt64(0x20), UInt64(0x30), UInt64(0x10))
        mask = _clear_cell(mask, grid, UInt64(12), UInt64(0x20), UInt64(0x40), UInt64(0x20))
        mask = _clear_cell(mask, grid, UInt64(13), UInt64(0x20), UInt64(0x50), UInt64(0x20))
        mask = _clear_cell(mask, grid, UInt64(14), UInt64(0x20), UInt64(0x60), UInt64(0x20))
        mask = _clear_cell(mask, grid, UInt64(15), UInt64(0x20), UInt64(0x70), UInt64(0x30))
        mask = _clear_cell(mask, grid, UInt64(16), UInt64(0x20), UInt64(0x80), UInt64(0x30))
        mask = _clear_cell(mask, grid, UInt64(17), UInt64(0x20), UInt64(0x90), UInt64(0x30))
        mask = _clear_cell(mask, grid, UInt64(18), UInt64(0x30), UInt64(0x10), UInt64(0x10))
        mask = _clear_cell(mask, grid, UInt64(19), UInt64(0x30), UInt64(0x20), UInt64(0x10))
        mask = _clear_cell(mask, grid, UInt64(20), UInt64(0x30), UInt64(0x30), UInt64(0x10))
        mask = _clear_cell(mask, grid, UInt64(21), UInt64(0x30), UInt64(0x40), UInt64(0x20))
        mask = _clear_cell(mask, grid, UInt64(22), UInt64(0x30), UInt64(0x50), UInt64(0x20))
        mask = _clear_cell(mask, grid, UInt64(23), UInt64(0x30), UInt64(0x60), UInt64(0x20))
        mask = _clear_cell(mask, grid, UInt64(24), UInt64(0x30), UInt64(0x70), UInt64(0x30))
        mask = _clear_cell(mask, grid, UInt64(25), UInt64(0x30), UInt64(0x80), UInt64(0x30))
        mask = _clear_cell(mask, grid, UInt64(26), UInt64(0x30), UInt64(0x90), UInt64(0x30))
        mask = _clear_cell(mask, grid, UInt64(27), UInt64(0x40), UInt64(0x10), UInt64(0x40))
        mask = _clear_cell(mask, grid, UInt64(28), UInt64(0x40), UInt64(0x20), UInt64(0x40))
        mask = _clear_cell(mask, grid, UInt64(29), UInt64(0x40), UInt64(0x30), UInt64(0x40))
        mask = _clear_cell(mask, grid, UInt64(30), UInt64(0x40), UInt64(0x40), UInt64(0x50))
        mask = _clear_cell(mask, grid, UInt64(31), UInt64(0x40), UInt64(0x50), UInt64(0x50))
        mask = _clear_cell(mask, grid, UInt64(32), UInt64(0x40), UInt64(0x60), UInt64(0x50))
        mask = _clear_cell(mask, grid, UInt64(33), UInt64(0x40), UInt64(0x70), UInt64(0x60))
        mask = _clear_cell(mask, grid, UInt64(34), UInt64(0x40), UInt64(0x80), UInt64(0x60))
        mask = _clear_cell(mask, grid, UInt64(35), UInt64(0x40), UInt64(0x90), UInt64(0x60))
        mask = _clear_cell(mask, grid, UInt64(36), UInt64(0x50), UInt64(0x10), UInt64(0x40))
        mask = _clear_cell(mask, grid, UInt64(37), UInt64(0x50), UInt64(0x20), UInt64(0x40))
        mask = _clear_cell(mask, grid, UInt64(38), UInt64(0x50), UInt64(0x30), UInt64(0x40))
        mask = _clear_cell(mask, grid, UInt64(39), UInt64(0x50), UInt64(0x40), UInt64(0x50))
        mask = _clear_cell(mask, grid, UInt64(40), UInt64(0x50), UInt64(0x50), UInt64(0x50))
        mask = _clear_cell(mask, grid, UInt64(41), UInt64(0x50), UInt64(0x60), UInt64(0x50))
        mask = _clear_cell(mask, grid, UInt64(42), UInt64(0x50), UInt64(0x70), UInt64(0x60))
        mask = _clear_cell(mask, grid, UInt64(43), UInt64(0x50), UInt64(0x80), UInt64(0x60))
        mask = _clear_cell(mask, grid, UInt64(44), UInt64(0x50), UInt64(0x90), UInt64(0x60))
        mask = _clear_cell(mask, grid, UInt64(45), UInt64(0x60), UInt64(0x10), UInt64(0x40))
        mask = _clear_cell(mask, grid, UInt64(46), UInt64(0x60), UInt64(0x20), UInt64(0x40))
        mask = _clear_cell(mask, grid, UInt64(47), UInt64(0x60), UInt64(0x30), UInt64(0x40))
        mask = _clear_cell(mask, grid, UInt64(48), UInt64(0x60), UInt64(0x40), UInt64(0x50))
        mask = _clear_cell(mask, grid, UInt64(49), UInt64(0x60), UInt64(0x50), UInt64(0x50))
        mask = _clear_cell(mask, grid, UInt64(50), UInt64(0x60), UInt64(0x60), UInt64(0x50))
        mask = _clear_cell(mask, grid, UInt64(51), UInt64(0x60), UInt64(0x70), UInt64(0x60))
        mask = _clear_cell(mask, grid, UInt64(52), UInt64(0x60), UInt64(0x80), UInt64(0x60))
        mask = _clear_cell(mask, grid, UInt64(53), UInt64(0x60), UInt64(0x90), UInt64(0x60))
        mask = _clear_cell(mask, grid, UInt64(54), UInt64(0x70), UInt64(0x10), UInt64(0x70))
        mask = _clear_cell(mask, grid, UInt64(55), UInt64(0x70), UInt64(0x20), UInt64(0x70))
        mask = _clear_cell(mask, grid, UInt64(56), UInt64(0x70), UInt64(0x30), UInt64(0x70))
        mask = _clear_cell(mask, grid, UInt64(57), UInt64(0x70), UInt64(0x40), UInt64(0x80))
        mask = _clear_cell(mask, grid, UInt64(58), UInt64(0x70), UInt64(0x50), UInt64(0x80))
        mask = _clear_cell(mask, grid, UInt64(59), UInt64(0x70), UInt64(0x60), UInt64(0x80))
        mask = _clear_cell(mask, grid, UInt64(60), UInt64(0x70), UInt64(0x70), UInt64(0x90))
        mask = _clear_cell(mask, grid, UInt64(61), UInt64(0x70), UInt64(0x80), UInt64(0x90))
        mask = _clear_cell(mask, grid, UInt64(62), UInt64(0x70), UInt64(0x90), UInt64(0x90))
        mask = _clear_cell(mask, grid, UInt64(63), UInt64(0x80), UInt64(0x10), UInt64(0x70))
        mask = _clear_cell(mask, grid, UInt64(64), UInt64(0x80), UInt64(0x20), UInt64(0x70))
        mask = _clear_cell(mask, grid, UInt64(65), UInt64(0x80), UInt64(0x30), UInt64(0x70))
        mask = _clear_cell(mask, grid, UInt64(66), UInt64(0x80), UInt64(0x40), UInt64(0x80))
        mask = _clear_cell(mask, grid, UInt64(67), UInt64(0x80), UInt64(0x50), UInt64(0x80))
        mask = _clear_cell(mask, grid, UInt64(68), UInt64(0x80), UInt64(0x60), UInt64(0x80))
        mask = _clear_cell(mask, grid, UInt64(69), UInt64(0x80), UInt64(0x70), UInt64(0x90))
        mask = _clear_cell(mask, grid, UInt64(70), UInt64(0x80), UInt64(0x80), UInt64(0x90))
        mask = _clear_cell(mask, grid, UInt64(71), UInt64(0x80), UInt64(0x90), UInt64(0x90))
        mask = _clear_cell(mask, grid, UInt64(72), UInt64(0x90), UInt64(0x10), UInt64(0x70))
        mask = _clear_cell(mask, grid, UInt64(73), UInt64(0x90), UInt64(0x20), UInt64(0x70))
        mask = _clear_cell(mask, grid, UInt64(74), UInt64(0x90), UInt64(0x30), UInt64(0x70))
        mask = _clear_cell(mask, grid, UInt64(75), UInt64(0x90), UInt64(0x40), UInt64(0x80))
        mask = _clear_cell(mask, grid, UInt64(76), UInt64(0x90), UInt64(0x50), UInt64(0x80))
        mask = _clear_cell(mask, grid, UInt64(77), UInt64(0x90), UInt64(0x60), UInt64(0x80))
        mask = _clear_cell(mask, grid, UInt64(78), UInt64(0x90), UInt64(0x70), UInt64(0x90))
        mask = _clear_cell(mask, grid, UInt64(79), UInt64(0x90), UInt64(0x80), UInt64(0x90))
        mask = _clear_cell(mask, grid, UInt64(80), UInt64(0x90), UInt64(0x90), UInt64(0x90))
        # end of clear_cells
        return op.bitlen(mask) == 0

    @arc4.abimethod
    def is_valid_solution_lanes(self, grid: Bytes) -> bool:
        """Same answer as `is_valid_solution`, in one app call (fee 1 000, no inner
        transaction): see "Lanes" in the module docstring."""
        top_up(UInt64(LANES_TAIL + LANES_HANDOVER))  # short only after a budget-hungry call
        assert grid.length == GRID_SIZE, "Grid must be 81 bytes long."
        return (_unit_ors(grid) & Bytes.from_hex(CHECK_MASK_HEX)) == Bytes.from_hex(CHECK_EXPECTED_HEX)

    @arc4.abimethod
    def is_solution_of(self, puzzle: Bytes, solution: Bytes) -> bool:
        """True iff `solution` is a solved Sudoku that agrees with every given of
        `puzzle` (0 = blank, else 1..9). Any other 81-byte pair gives false; another
        length fails the call. One app call: see "Puzzle" in the module docstring."""
        top_up(UInt64(SOLUTION_OF_TAIL + SOLUTION_OF_HANDOVER))  # short only after a budget-hungry call
        assert puzzle.length == GRID_SIZE, "Puzzle must be 81 bytes long."
        assert solution.length == GRID_SIZE, "Solution must be 81 bytes long."
        differ = puzzle ^ solution
        low_64 = BigUInt.from_bytes(Bytes.from_hex(LOW_64_HEX))
        low_17 = BigUInt.from_bytes(Bytes.from_hex(LOW_17_HEX))
        # byte x < 16 -> x + 0x0f, whose bit 0x10 is set iff x != 0 (no carry between bytes)
        differ_nz = (BigUInt.from_bytes(op.extract(differ, 0, 64)) + low_64).bytes + (
            BigUInt.from_bytes(op.extract(differ, 64, 17)) + low_17
        ).bytes
        given_nz = (BigUInt.from_bytes(op.extract(puzzle, 0, 64)) + low_64).bytes + (
            BigUInt.from_bytes(op.extract(puzzle, 64, 17)) + low_17
        ).bytes
        checked = _unit_ors(solution) + (differ_nz & given_nz) + puzzle
        mask = Bytes.from_hex(CHECK_MASK_HEX + PUZZLE_MASK_HEX)
        return (checked & mask) == Bytes.from_hex(CHECK_EXPECTED_HEX + PUZZLE_EXPECTED_HEX)


    @arc4.abimethod
    def are_valid_solutions(self, grids: Bytes) -> UInt64:
        """Up to 14 grids in one call (fee 1 000): bit g of the answer (1 << g) is set
        iff grid g is solved. `grids` is n <= 14 grids of 81 bytes, row-major, one byte
        a cell: 0x80 >> (d - 1) for the digits d = 1..8 and 0x00 for 9. Any other
        byte, or an unsolved grid, gives a clear bit; a length that is not a multiple
        of 81 or above 14 * 81 fails the call. See "Batch" in the module docstring."""
        top_up(UInt64(BATCH_TAIL + BATCH_HANDOVER))  # short only after a budget-hungry call
        assert grids.length % GRID_SIZE == 0, "Grids must be 81 bytes each."
        assert grids.length <= BATCH_LEN, "At most 14 grids a call."
        return _batch_verdicts(grids + op.bzero(BATCH_LEN - grids.length))
