"""What more than one contract does the same way: one home for each piece.

* The budget rule of every method that tops up the pool: count the app calls after
  this one (`later_app_calls`: their 700 each is theirs), and top up only when short
  (`top_up`: a 4-opcode check, inner opups paid from the group's fee credit).
* The games' group scan reads "is transaction i a call of this app's method"
  (`is_call_of`), and both games delete the same way (`close_if_no_solves`) and
  answer a repeated solve with the same event (`AlreadySolved`).
* The lanes check of the one-call verifier (Algoku) and the game's solve: 96 lanes of
  16 bits, one per cell of a 9x9 grid (lanes 81..95 zero), OR-folded so that each row,
  column and box's OR of its nine lanes lands in one lane (`unit_ors`; the Algoku
  contract's module docstring, "Lanes", explains the folds).
"""

from algopy import (
    Bytes,
    Global,
    OpUpFeeSource,
    TransactionType,
    Txn,
    UInt64,
    arc4,
    ensure_budget,
    gtxn,
    itxn,
    op,
    subroutine,
    urange,
)

# The games' global counter of recorded solves.
SOLVERS_KEY = b"solvers"
# Bytes of the 96 lanes (six 32-byte segments) that `unit_ors` folds.
LANES_LEN = 192


# The event of a correct solve by an address already recorded (a comment, not a
# docstring: the games' ARC-56 specs describe the event as they always have).
class AlreadySolved(arc4.Struct):
    round: arc4.UInt64


@subroutine(inline=True)
def later_app_calls() -> UInt64:
    """How many app calls follow this transaction in its group: their 700 each is theirs."""
    count = UInt64(0)
    for i in urange(Txn.group_index + 1, Global.group_size):
        if gtxn.Transaction(i).type == TransactionType.ApplicationCall:
            count += 1
    return count


@subroutine(inline=True)
def top_up(need: UInt64) -> None:
    """Make sure `need` opcodes are left: the pool is short only after a budget-hungry
    call, so the common path costs the 4-opcode check alone."""
    if Global.opcode_budget() < need:
        ensure_budget(need, OpUpFeeSource.GroupCredit)


@subroutine(inline=True)
def is_call_of(i: UInt64, selector: Bytes) -> bool:
    """Whether group transaction i is a call of this app's method `selector`."""
    txn = gtxn.Transaction(i)
    if txn.type != TransactionType.ApplicationCall:
        return False
    if txn.app_id != Global.current_application_id or txn.num_app_args == 0:
        return False
    return txn.app_args(0) == selector


@subroutine(inline=True)
def close_if_no_solves() -> None:
    """The games' delete, once the creator is checked: refused once a solve is recorded
    (its box holds the player's payment); before, the app account closes to the creator
    (one inner payment, fee 0: the delete call pays 2 000)."""
    assert op.AppGlobal.get_uint64(SOLVERS_KEY) == 0, "solves are recorded: their boxes hold the players' payments"
    if op.balance(Global.current_application_address):
        itxn.Payment(receiver=Global.creator_address, close_remainder_to=Global.creator_address, fee=0).submit()


@subroutine(inline=True)
def unit_ors(lanes: Bytes) -> tuple[Bytes, Bytes, Bytes]:
    """(rows, columns, boxes) of LANES_LEN bytes of lanes: row r's OR in lane 9r + 8,
    column c's in lane 72 + c, box (R, C)'s in lane 9(3R + 2) + 3C + 2."""
    # lane p |= lane p - k, for k = 1, 1 (three cells of a row), then per unit:
    w3 = lanes | op.extract(lanes, 0, LANES_LEN - 2)
    w3 = w3 | op.extract(w3, 0, LANES_LEN - 2)
    # rows: w3 at strides 3, 3 -> nine cells of a row
    rows = w3 | op.extract(w3, 0, LANES_LEN - 6)
    rows = rows | op.extract(rows, 0, LANES_LEN - 6)
    # boxes: w3 at strides 9, 9 -> three cells of three rows
    boxes = w3 | op.extract(w3, 0, LANES_LEN - 18)
    boxes = boxes | op.extract(boxes, 0, LANES_LEN - 18)
    # columns: strides 9, 9, 27, 27 -> cells c, c + 9, ..., c + 72
    v3 = lanes | op.extract(lanes, 0, LANES_LEN - 18)
    v3 = v3 | op.extract(v3, 0, LANES_LEN - 18)
    columns = v3 | op.extract(v3, 0, LANES_LEN - 54)
    columns = columns | op.extract(columns, 0, LANES_LEN - 54)
    return rows, columns, boxes
