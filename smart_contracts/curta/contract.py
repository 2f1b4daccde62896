"""Curta "2 x 4 = 8": the 8x8 Sudoku puzzle of the Solidity contract, on the AVM.

Boards are the Solidity `uint256`: 32 bytes, big-endian; square k (0..63, row
k // 8, column k % 8, boxes of 2 rows x 4 columns) is nibble k counted from the
least significant end, i.e. the low (k even) or high (k odd) nibble of byte
31 - k // 2. `rust/curta` is the native, bit-exact mirror of every method.

generate(seed) -- the Solidity loop, exactly
-------------------------------------------
``seed = keccak256(seed_bytes)``; digits i = 1..8 each go to the first square not
yet taken among the 6-bit draws ``seed & 63; seed >>= 6``. Instead of shifting a
uint256, draw t is read in place: with ``pos = 6t``, the 16-bit window
``extract_uint16(0x0000 || hash, 32 - pos // 8)`` shifted right by ``pos % 8``
holds the 6 bits at ``pos``. "seed != 0" after t draws is ``bitlen(hash) > pos``.
The quirks come out the same: the loop stops when the seed runs out between
digits, and when it runs out right after drawing a taken square the digit is
ORed into that square's nibble (1 | 3 = 3; can make 9..15). For keccak seeds these
need ~200 leading zero bits and never happen, but the code keeps them.
The digits are unrolled on purpose (each sets its own nibble bits): a loop over them
pays a counter and a byte read-modify-write per digit, which takes `generate` past
one call's 700 opcodes and an 11-draw `solve` past one inner opup (a higher fee).
scripts/unrolled.py writes their lines from one rule (the block ``digits``).

verify(start, solution) -- the rule, proven equal to the Solidity loop
----------------------------------------------------------------------
`rust/curta/src/verify.rs` proves (and tests on every vector, every single-nibble
change and 10 000+ random cases) that the Solidity `verify` answers true exactly
when every nonzero nibble of `start` equals the solution's nibble there, and every
row, column and 2x4 box of the solution ORs `1 << nibble` to exactly bits 1..8.
Solidity never reverts in `verify` (only shifts, ands and compares), so every
pair of 32-byte values gets an answer here too; only other lengths fail, in the
ARC-4 router: "invalid number of bytes for arc4.static_array<arc4.uint8, 32>".

Lanes: every square k gets a 16-bit lane (lane k at bytes 2k, 2k+1 of 128 bytes);
``setbit(lane k, nibble)`` sets bit `nibble` counted from the lane's left, so a
unit holds 1..8 once each exactly when the OR of its lanes is 0x7f80 (a nibble 0
or 9..15 sets a bit outside it, a repeat leaves one of bits 1..8 clear). The lane
index comes for free: ``(solution & 0x0f..) | OFF_LO`` puts ``16 * (k % 16) +
nibble`` in the byte of each even square, the same on ``solution // 16`` for the
odd ones, so each square costs one `getbyte` and one `setbit` inside its 32-byte
segment (16 lanes). The OR over a unit is a few ``x | extract(x, 0, len - 2n)``
(lane p |= lane p - n): n = 1, 2, 4 gives rows in lane 8r + 7; n = 1, 2 then 8
gives boxes in lane 16R + 8 + 4C + 3; n = 8, 16, 32 gives columns in lane 56 + c.
One `&` and one `==` against constants check all 24 units. The givens: a nibble x
is nonzero exactly when bit 3 of ``((x & 7) + 7) | x`` is set (its low three bits plus
7 carry into bit 3, never out of the nibble), so with ``f(v) = ((v & 0x77..77) +
0x77..77) | v`` the answer needs ``f(start) & f(start ^ solution) & 0x88..88 == 0``: no
nibble that is given in `start` differs in the solution.

The game -- solve(solution)
---------------------------
The player's start is ``generate(sender's 32-byte public key)`` (so
``keccak256(address bytes)``, as the Solidity ``keccak256(abi.encodePacked(address))``
hashes the 20-byte Ethereum address). `solve` returns the verdict. A correct
first solve stores box ``key = address (32 bytes), value = round (uint64) ||
solution (32 bytes)``, whose minimum balance (2500 + 400 * 72 = BOX_MBR uALGO) the
transaction just before the call pays to the app account (checked: payment, to the
app, exactly BOX_MBR). A second correct solve changes nothing and logs the event
``AlreadySolved(uint64 round)``; a wrong solution stores nothing and returns
false. Neither of these needs a payment, and neither may have one.

Curta keeps no payment of a group that calls it for nothing. The payment rule is the
Game's, in one place (smart_contracts/common.py, `refuse_stray_payments`), and every method runs
it first on the group the call is in (the top-level group, or the inner group of an app
that calls Curta: ``gtxn`` reads that group only). The whole group fails when

* a payment to the app account is not immediately followed by a `solve` call of this
  app (a payment before `opup()`, beside `generate`, `verify`, `record`, `solvers` or
  `withdraw`, before another app's call, at the end, ...), or a payment closes its
  account to the app;
* the payment just before a solve is there, but the solve is wrong or a repeat (the
  group fails instead of answering false or AlreadySolved, so the payment never happens);
* the payment just before a solve is not exactly BOX_MBR, or closes its account.

Without a payment a wrong or repeated solve still answers false / AlreadySolved for
free. The payment may come from any sender (a sponsor): the box is the solver's. A
payment to the app account in a group that does not call Curta (or the top-level group
around an app that calls Curta from an inner transaction) is a plain transfer: no
program runs for it and no app can refuse it. It is not lost: ``withdraw()`` lets the
creator take back whatever the account holds above its minimum balance (its own 100 000
and the boxes' BOX_MBR each stay: the records the players paid for are untouched).

Deletion
--------
Updates are refused. Only the creator may delete the app, and only while no solve is
recorded: the games' rule, said once in smart_contracts/common.py (``close_if_no_solves``).

Budget and composition
----------------------
Measured on go-algorand's evaluator (tests/test_curta.py), ABI routing included:
`verify` 579 opcodes at most (every pair of 32-byte values), `generate` 613 at most on
the shared vectors: one app call. `generate`'s loop costs ~18 opcodes per extra draw (a
draw on a taken square); a keccak seed needs about 8.5 draws, but the longest loop a
uint256 allows (42 draws, a crafted seed for `generate_from_seed`; no keccak output is
known to need it) costs 1324: put one `opup()` call before it in the group. `solve` runs both plus the
box: it tops the pool up with
`ensure_budget(SOLVE_BUDGET + 700 * later app calls, GroupCredit)`: one inner opup paid
from the group's fee credit (call fee 2 000), never from the app account, and never
eating the 700 that later app calls of the group bring for themselves. SOLVE_BUDGET
covers solves whose seed needs up to 11 draws (8.5 on average; 12 or more: 1 address in
360, measured on 200 000 random seeds); 13 or more (1 in 2 100) and some of 12 get a
second top-up after `generate`:
one more inner opup, call fee 3 000 (2 000 fails on the fee, never on the budget). A caller may
instead add one outer `opup()` call before `solve`: then no inner transaction is made.
"""

from typing import Literal

from algopy import (
    Account,
    ARC4Contract,
    BigUInt,
    BoxMap,
    Bytes,
    Global,
    GlobalState,
    OpUpFeeSource,
    TransactionType,
    Txn,
    UInt64,
    arc4,
    ensure_budget,
    gtxn,
    op,
    subroutine,
    urange,
)

from smart_contracts.common import (
    APP_CALL_SHARE,
    BOX_BYTE,
    BOX_FLAT,
    BOX_KEY_SIZE,
    SOLVERS_KEY,
    AlreadySolved,
    close_if_no_solves,
    refuse_stray_payments,
    solve_scan,
    top_up,
    withdraw_excess,
)

Board = arc4.StaticArray[arc4.Byte, Literal[32]]

# The lanes' offsets and the units' mask, written by scripts/unrolled.py from their rules.
OFF_LO_HEX = "e0c0a08060402000e0c0a08060402000e0c0a08060402000e0c0a08060402000"
OFF_HI_HEX = "f0d0b09070503010f0d0b09070503010f0d0b09070503010f0d0b09070503010"
UNITS_MASK_HEX = "0000000000000000000000000000ffff0000000000000000000000000000ffff0000000000000000000000000000ffff0000000000000000000000000000ffff0000000000000000000000000000ffff0000000000000000000000000000ffff0000000000000000000000000000ffff0000000000000000000000000000ffff00000000000000000000000000000000000000000000ffff000000000000ffff00000000000000000000000000000000000000000000ffff000000000000ffff00000000000000000000000000000000000000000000ffff000000000000ffff00000000000000000000000000000000000000000000ffff000000000000ffff00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000ffffffffffffffffffffffffffffffff"
UNITS_EXPECTED_HEX = "00000000000000000000000000007f8000000000000000000000000000007f8000000000000000000000000000007f8000000000000000000000000000007f8000000000000000000000000000007f8000000000000000000000000000007f8000000000000000000000000000007f8000000000000000000000000000007f80000000000000000000000000000000000000000000007f800000000000007f80000000000000000000000000000000000000000000007f800000000000007f80000000000000000000000000000000000000000000007f800000000000007f80000000000000000000000000000000000000000000007f800000000000007f80000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000007f807f807f807f807f807f807f807f80"
LOW_NIBBLES_HEX = "0f" * 32
SEVENS_HEX = "77" * 32
EIGHTS_HEX = "88" * 32
BOARD_SIZE = 32
# Box of a solve: 32-byte key, value round (8) || solution (32).
RECORD_SIZE = 40
BOX_MBR = BOX_FLAT + BOX_BYTE * (BOX_KEY_SIZE + RECORD_SIZE)
# Opcodes solve still needs once its ensure_budget returns (measured worst case with
# margin, see tests/test_curta.py).
SOLVE_BUDGET = 1230
# What solve still needs after generate (verify, box, event), with margin.
VERIFY_TAIL = 615


class Solved(arc4.Struct):
    round: arc4.UInt64


@subroutine(inline=True)
def _scan() -> None:
    """The payment rule (smart_contracts/common.py, `refuse_stray_payments`) for this app's
    solve."""
    refuse_stray_payments(arc4.arc4_signature("solve(byte[32])bool"))


@subroutine(inline=True)
def _draw(padded: Bytes, pos: UInt64) -> UInt64:
    """The 6 seed bits at bit `pos` (from the least significant end) of 0x0000 || hash."""
    return (op.extract_uint16(padded, 32 - (pos >> 3)) >> (pos & 7)) & 63


@subroutine
def _generate(hashed: Bytes) -> Bytes:
    """The Solidity generate loop on an already hashed 32-byte seed (module docstring).

    Unrolled over the digits 1..8 (the block ``digits`` of scripts/unrolled.py: each sets its
    own nibble bits)."""
    padded = op.bzero(2) + hashed
    bits = op.bitlen(hashed)
    puzzle = op.bzero(BOARD_SIZE)
    taken = UInt64(0)
    pos = UInt64(0)
    # generated by scripts/unrolled.py: digits
    # digit 1
    if bits <= pos:
        return puzzle
    index = _draw(padded, pos)
    pos += 6
    while op.getbit(taken, index) == 1 and bits > pos:
        index = _draw(padded, pos)
        pos += 6
    taken = op.setbit_uint64(taken, index, True)
    at = 255 - (index << 2)
    puzzle = op.setbit_bytes(puzzle, at, True)
    # digit 2
    if bits <= pos:
        return puzzle
    index = _draw(padded, pos)
    pos += 6
    while op.getbit(taken, index) == 1 and bits > pos:
        index = _draw(padded, pos)
        pos += 6
    taken = op.setbit_uint64(taken, index, True)
    at = 255 - (index << 2)
    puzzle = op.setbit_bytes(puzzle, at - 1, True)
    # digit 3
    if bits <= pos:
        return puzzle
    index = _draw(padded, pos)
    pos += 6
    while op.getbit(taken, index) == 1 and bits > pos:
        index = _draw(padded, pos)
        pos += 6
    taken = op.setbit_uint64(taken, index, True)
    at = 255 - (index << 2)
    puzzle = op.setbit_bytes(puzzle, at, True)
    puzzle = op.setbit_bytes(puzzle, at - 1, True)
    # digit 4
    if bits <= pos:
        return puzzle
    index = _draw(padded, pos)
    pos += 6
    while op.getbit(taken, index) == 1 and bits > pos:
        index = _draw(padded, pos)
        pos += 6
    taken = op.setbit_uint64(taken, index, True)
    at = 255 - (index << 2)
    puzzle = op.setbit_bytes(puzzle, at - 2, True)
    # digit 5
    if bits <= pos:
        return puzzle
    index = _draw(padded, pos)
    pos += 6
    while op.getbit(taken, index) == 1 and bits > pos:
        index = _draw(padded, pos)
        pos += 6
    taken = op.setbit_uint64(taken, index, True)
    at = 255 - (index << 2)
    puzzle = op.setbit_bytes(puzzle, at, True)
    puzzle = op.setbit_bytes(puzzle, at - 2, True)
    # digit 6
    if bits <= pos:
        return puzzle
    index = _draw(padded, pos)
    pos += 6
    while op.getbit(taken, index) == 1 and bits > pos:
        index = _draw(padded, pos)
        pos += 6
    taken = op.setbit_uint64(taken, index, True)
    at = 255 - (index << 2)
    puzzle = op.setbit_bytes(puzzle, at - 1, True)
    puzzle = op.setbit_bytes(puzzle, at - 2, True)
    # digit 7
    if bits <= pos:
        return puzzle
    index = _draw(padded, pos)
    pos += 6
    while op.getbit(taken, index) == 1 and bits > pos:
        index = _draw(padded, pos)
        pos += 6
    taken = op.setbit_uint64(taken, index, True)
    at = 255 - (index << 2)
    puzzle = op.setbit_bytes(puzzle, at, True)
    puzzle = op.setbit_bytes(puzzle, at - 1, True)
    puzzle = op.setbit_bytes(puzzle, at - 2, True)
    # digit 8
    if bits <= pos:
        return puzzle
    index = _draw(padded, pos)
    pos += 6
    while op.getbit(taken, index) == 1 and bits > pos:
        index = _draw(padded, pos)
        pos += 6
    at = 255 - (index << 2)
    puzzle = op.setbit_bytes(puzzle, at - 3, True)
    # end of digits
    return puzzle


@subroutine
def _verify(start: Bytes, solution: Bytes) -> bool:
    """The Solidity verify, as the equivalent rule (module docstring)."""
    low = Bytes.from_hex(LOW_NIBBLES_HEX)
    lo = (solution & low) | Bytes.from_hex(OFF_LO_HEX)
    hi = ((BigUInt.from_bytes(solution) // 16).bytes & low) | Bytes.from_hex(OFF_HI_HEX)
    # generated by scripts/unrolled.py: squares
    s0 = op.bzero(32)
    s0 = op.setbit_bytes(s0, op.getbyte(lo, 31), True)
    s0 = op.setbit_bytes(s0, op.getbyte(hi, 31), True)
    s0 = op.setbit_bytes(s0, op.getbyte(lo, 30), True)
    s0 = op.setbit_bytes(s0, op.getbyte(hi, 30), True)
    s0 = op.setbit_bytes(s0, op.getbyte(lo, 29), True)
    s0 = op.setbit_bytes(s0, op.getbyte(hi, 29), True)
    s0 = op.setbit_bytes(s0, op.getbyte(lo, 28), True)
    s0 = op.setbit_bytes(s0, op.getbyte(hi, 28), True)
    s0 = op.setbit_bytes(s0, op.getbyte(lo, 27), True)
    s0 = op.setbit_bytes(s0, op.getbyte(hi, 27), True)
    s0 = op.setbit_bytes(s0, op.getbyte(lo, 26), True)
    s0 = op.setbit_bytes(s0, op.getbyte(hi, 26), True)
    s0 = op.setbit_bytes(s0, op.getbyte(lo, 25), True)
    s0 = op.setbit_bytes(s0, op.getbyte(hi, 25), True)
    s0 = op.setbit_bytes(s0, op.getbyte(lo, 24), True)
    s0 = op.setbit_bytes(s0, op.getbyte(hi, 24), True)
    s1 = op.bzero(32)
    s1 = op.setbit_bytes(s1, op.getbyte(lo, 23), True)
    s1 = op.setbit_bytes(s1, op.getbyte(hi, 23), True)
    s1 = op.setbit_bytes(s1, op.getbyte(lo, 22), True)
    s1 = op.setbit_bytes(s1, op.getbyte(hi, 22), True)
    s1 = op.setbit_bytes(s1, op.getbyte(lo, 21), True)
    s1 = op.setbit_bytes(s1, op.getbyte(hi, 21), True)
    s1 = op.setbit_bytes(s1, op.getbyte(lo, 20), True)
    s1 = op.setbit_bytes(s1, op.getbyte(hi, 20), True)
    s1 = op.setbit_bytes(s1, op.getbyte(lo, 19), True)
    s1 = op.setbit_bytes(s1, op.getbyte(hi, 19), True)
    s1 = op.setbit_bytes(s1, op.getbyte(lo, 18), True)
    s1 = op.setbit_bytes(s1, op.getbyte(hi, 18), True)
    s1 = op.setbit_bytes(s1, op.getbyte(lo, 17), True)
    s1 = op.setbit_bytes(s1, op.getbyte(hi, 17), True)
    s1 = op.setbit_bytes(s1, op.getbyte(lo, 16), True)
    s1 = op.setbit_bytes(s1, op.getbyte(hi, 16), True)
    s2 = op.bzero(32)
    s2 = op.setbit_bytes(s2, op.getbyte(lo, 15), True)
    s2 = op.setbit_bytes(s2, op.getbyte(hi, 15), True)
    s2 = op.setbit_bytes(s2, op.getbyte(lo, 14), True)
    s2 = op.setbit_bytes(s2, op.getbyte(hi, 14), True)
    s2 = op.setbit_bytes(s2, op.getbyte(lo, 13), True)
    s2 = op.setbit_bytes(s2, op.getbyte(hi, 13), True)
    s2 = op.setbit_bytes(s2, op.getbyte(lo, 12), True)
    s2 = op.setbit_bytes(s2, op.getbyte(hi, 12), True)
    s2 = op.setbit_bytes(s2, op.getbyte(lo, 11), True)
    s2 = op.setbit_bytes(s2, op.getbyte(hi, 11), True)
    s2 = op.setbit_bytes(s2, op.getbyte(lo, 10), True)
    s2 = op.setbit_bytes(s2, op.getbyte(hi, 10), True)
    s2 = op.setbit_bytes(s2, op.getbyte(lo, 9), True)
    s2 = op.setbit_bytes(s2, op.getbyte(hi, 9), True)
    s2 = op.setbit_bytes(s2, op.getbyte(lo, 8), True)
    s2 = op.setbit_bytes(s2, op.getbyte(hi, 8), True)
    s3 = op.bzero(32)
    s3 = op.setbit_bytes(s3, op.getbyte(lo, 7), True)
    s3 = op.setbit_bytes(s3, op.getbyte(hi, 7), True)
    s3 = op.setbit_bytes(s3, op.getbyte(lo, 6), True)
    s3 = op.setbit_bytes(s3, op.getbyte(hi, 6), True)
    s3 = op.setbit_bytes(s3, op.getbyte(lo, 5), True)
    s3 = op.setbit_bytes(s3, op.getbyte(hi, 5), True)
    s3 = op.setbit_bytes(s3, op.getbyte(lo, 4), True)
    s3 = op.setbit_bytes(s3, op.getbyte(hi, 4), True)
    s3 = op.setbit_bytes(s3, op.getbyte(lo, 3), True)
    s3 = op.setbit_bytes(s3, op.getbyte(hi, 3), True)
    s3 = op.setbit_bytes(s3, op.getbyte(lo, 2), True)
    s3 = op.setbit_bytes(s3, op.getbyte(hi, 2), True)
    s3 = op.setbit_bytes(s3, op.getbyte(lo, 1), True)
    s3 = op.setbit_bytes(s3, op.getbyte(hi, 1), True)
    s3 = op.setbit_bytes(s3, op.getbyte(lo, 0), True)
    s3 = op.setbit_bytes(s3, op.getbyte(hi, 0), True)
    # end of squares
    lanes = s0 + s1 + s2 + s3
    x2 = lanes | op.extract(lanes, 0, 126)
    x4 = x2 | op.extract(x2, 0, 124)
    rows = x4 | op.extract(x4, 0, 120)
    boxes = x4 | op.extract(x4, 0, 112)
    c2 = lanes | op.extract(lanes, 0, 112)
    c4 = c2 | op.extract(c2, 0, 96)
    columns = c4 | op.extract(c4, 0, 64)
    if ((rows + boxes + columns) & Bytes.from_hex(UNITS_MASK_HEX)) != Bytes.from_hex(UNITS_EXPECTED_HEX):
        return False
    sevens = BigUInt.from_bytes(Bytes.from_hex(SEVENS_HEX))
    s = BigUInt.from_bytes(start)
    d = BigUInt.from_bytes(start ^ solution)
    given = ((s & sevens) + sevens) | s  # bit 3 of a nibble: start's nibble is nonzero
    differs = ((d & sevens) + sevens) | d  # bit 3 of a nibble: the solution differs there
    return (given & differs & BigUInt.from_bytes(Bytes.from_hex(EIGHTS_HEX))) == 0


class Curta(ARC4Contract):
    """Curta's 8x8 Sudoku: generate, verify, and the solve game with box records."""

    def __init__(self) -> None:
        # Declared for the ARC-56 schema (1 uint); read and written with app_global_get/put
        # (0 when absent), which need no app reference.
        self.solver_count = GlobalState(UInt64, key="solvers")
        self.records = BoxMap(Account, Bytes, key_prefix=b"")

    @arc4.baremethod(create="require")
    def create(self) -> None:
        """Create the app with a bare call."""

    @arc4.baremethod(allow_actions=["DeleteApplication"])
    def delete(self) -> None:
        """Only the creator may delete the app, and only before the first recorded solve; the
        app account closes to the creator (module docstring, Deletion). Updates are rejected."""
        assert Txn.sender == Global.creator_address, "Only the creator can delete Curta."
        close_if_no_solves()

    @arc4.abimethod
    def opup(self) -> None:
        """Add 700 to its group's pooled opcode budget; takes no payment (the payment rule)."""
        _scan()

    @arc4.abimethod
    def withdraw(self) -> UInt64:
        """The creator takes back what the app account holds above its minimum balance
        (module docstring, Payments); returns the amount. The call pays 2 000."""
        _scan()
        return withdraw_excess()

    @arc4.abimethod(readonly=True)
    def generate(self, seed: Bytes) -> Board:
        """The start position the Solidity generate gives for keccak256(seed); takes no payment."""
        _scan()
        return Board.from_bytes(_generate(op.keccak256(seed)))

    @arc4.abimethod(readonly=True)
    def generate_from_seed(self, seed: Board) -> Board:
        """The loop of generate alone on a given uint256 seed (reaches the small-seed quirks);
        takes no payment."""
        _scan()
        return Board.from_bytes(_generate(seed.bytes))

    @arc4.abimethod(readonly=True)
    def verify(self, start: Board, solution: Board) -> bool:
        """The Solidity verify(start, solution), bit for bit, for any 32-byte values; takes no
        payment."""
        _scan()
        return _verify(start.bytes, solution.bytes)

    @arc4.abimethod
    def solve(self, solution: Board) -> bool:
        """Verify the sender's solution of their start; record a first correct solve, paid
        by the payment just before. With that payment, anything but a first correct solve
        fails the group; without it, a wrong solve answers false and a repeat AlreadySolved."""
        later, paid = solve_scan(arc4.arc4_signature("solve(byte[32])bool"))
        reserved = APP_CALL_SHARE * later
        ensure_budget(SOLVE_BUDGET + reserved, OpUpFeeSource.GroupCredit)
        start = _generate(op.keccak256(Txn.sender.bytes))
        top_up(VERIFY_TAIL + reserved)  # short only after an unusually long draw
        if not _verify(start, solution.bytes):
            assert not paid, "a wrong solution cannot take the box payment"
            return False
        record, exists = self.records.maybe(Txn.sender)
        if exists:
            assert not paid, "already solved: the box payment is not needed"
            arc4.emit(AlreadySolved(arc4.UInt64(op.extract_uint64(record, 0))))
            return True
        assert paid, "solve needs a payment of the box MBR to the app just before it"
        pay = gtxn.PaymentTransaction(Txn.group_index - 1)
        assert pay.amount == BOX_MBR, "the box payment must be exactly the box MBR (31300)"
        assert pay.close_remainder_to == Global.zero_address, "the box payment must not close its account"
        op.Box.put(Txn.sender.bytes, op.itob(Global.round) + solution.bytes)  # a new box: no resize
        op.AppGlobal.put(SOLVERS_KEY, op.AppGlobal.get_uint64(SOLVERS_KEY) + 1)
        arc4.emit(Solved(arc4.UInt64(Global.round)))
        return True

    @arc4.abimethod(readonly=True)
    def solvers(self) -> UInt64:
        """How many addresses have a recorded solve; takes no payment."""
        _scan()
        return op.AppGlobal.get_uint64(SOLVERS_KEY)

    @arc4.abimethod(readonly=True)
    def record(self, player: arc4.Address) -> tuple[UInt64, Board]:
        """(round, solution) of player's recorded solve; (0, 32 zero bytes) if none. Takes no
        payment."""
        _scan()
        record, exists = self.records.maybe(player.native)
        if not exists:
            return UInt64(0), Board.from_bytes(op.bzero(BOARD_SIZE))
        return op.extract_uint64(record, 0), Board.from_bytes(op.extract(record, 8, 32))
