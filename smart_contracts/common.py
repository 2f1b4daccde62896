"""What more than one contract does the same way: one home for each piece.

* The budget rule of every method that tops up the pool: count the app calls after
  this one (`later_app_calls`: their APP_CALL_SHARE each is theirs), and top up only when short
  (`top_up`: a 4-opcode check, inner opups paid from the group's fee credit).
* The games' payment rule (`refuse_stray_payments`, run first by every method of both games),
  their delete (`close_if_no_solves`), the creator's withdrawal of what the account
  holds above its minimum balance (`withdraw_excess`), the event of a repeated
  solve (`AlreadySolved`), and a record box's minimum balance (BOX_FLAT, BOX_BYTE,
  BOX_KEY_SIZE). Every app's delete closes its account to the creator
  (`close_to_creator`): no Algos are left behind with no program to move them.
* The lanes check of the one-call verifier (Algoku) and the game's solve: 96 lanes of
  16 bits, one per cell of a 9x9 grid (lanes 81..95 zero), OR-folded so that each row,
  column and box's OR of its nine lanes lands in one lane (`unit_ors`; the Algoku
  contract's module docstring, "Lanes", explains the folds).
"""

from algopy import (
    Bytes,
    Global,
    OnCompleteAction,
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
# Opcodes each app call of a group brings to the group's pool: its own, which a method
# that tops up leaves to the app calls after it (`later_app_calls`).
APP_CALL_SHARE = 700
# A box's minimum balance is BOX_FLAT + BOX_BYTE per byte of its key and value (the
# protocol's); the games' records are keyed by the player's 32-byte address.
BOX_FLAT = 2500
BOX_BYTE = 400
BOX_KEY_SIZE = 32


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
def refuse_stray_payments(solve: Bytes) -> None:
    """The games' payment rule, enforced on the whole group by every method (the docs'
    "Payments" section): a payment into the app account is accepted only immediately
    before a call of this app's `solve` (whose own checks decide whether it buys a box),
    and no payment closes its account to the app. So no method but `solve` can keep a
    payment, and `solve` keeps only the box payment of a first correct solve.

    A call alone in its group has nothing to scan, and a call right after a NoOp call of
    this app need not scan again: every method of the app runs this rule first, on the
    same group, so that call has scanned it (or the group fails). A batch of calls thus
    pays for one scan, not one per call."""
    if Global.group_size > 1 and not _after_own_call():
        _scan_payments(solve)


@subroutine(inline=True)
def _after_own_call() -> bool:
    """Whether the transaction just before is a NoOp call of this app (`ApplicationID` reads 0
    on other types; a delete or clear-state call runs no method, so it does not count)."""
    if Txn.group_index == 0:
        return False
    prev = gtxn.Transaction(Txn.group_index - 1)
    return prev.app_id == Global.current_application_id and prev.on_completion == OnCompleteAction.NoOp


@subroutine(inline=False)
def _scan_payments(solve: Bytes) -> None:
    """`refuse_stray_payments`' loop."""
    for i in urange(Global.group_size):
        if _pays_app(i):
            _check_payment(i, solve)


@subroutine(inline=True)
def _pays_app(i: UInt64) -> bool:
    """Whether group transaction i moves Algos into the app account: only a payment has a
    receiver or a close-to address (other types read the zero address there)."""
    me = Global.current_application_address
    return gtxn.Transaction(i).receiver == me or gtxn.Transaction(i).close_remainder_to == me


@subroutine(inline=True)
def _check_payment(i: UInt64, solve: Bytes) -> None:
    """Payment i into the app account: the payment rule (`refuse_stray_payments`)."""
    assert gtxn.Transaction(i).close_remainder_to != Global.current_application_address, (
        "no payment may close its account to the app"
    )
    assert i + 1 < Global.group_size and is_call_of(i + 1, solve), (
        "a payment to the app must come just before its solve call"
    )


@subroutine(inline=True)
def solve_scan(solve: Bytes) -> tuple[UInt64, bool]:
    """A solve's pass over its group: the payment rule (`refuse_stray_payments`, always
    scanned), how many app calls follow this one (their 700 each is theirs), and whether
    the transaction just before this one pays the app (the box payment, whose amount and
    close-to the solve checks)."""
    paid = False
    for i in urange(Txn.group_index):
        if _pays_app(i):
            if i + 1 == Txn.group_index:
                paid = True  # the solve checks its amount and close-to
            else:
                _check_payment(i, solve)
    later = UInt64(0)
    for i in urange(Txn.group_index + 1, Global.group_size):
        if gtxn.Transaction(i).type == TransactionType.ApplicationCall:
            later += 1
        elif _pays_app(i):
            _check_payment(i, solve)
    return later, paid


@subroutine(inline=True)
def close_to_creator() -> None:
    """Close the app account to the creator (one inner payment, fee 0: the delete call pays
    2 000), so a deleted app leaves no Algos behind."""
    if op.balance(Global.current_application_address):
        itxn.Payment(receiver=Global.creator_address, close_remainder_to=Global.creator_address, fee=0).submit()


@subroutine(inline=True)
def close_if_no_solves() -> None:
    """The games' delete, once the creator is checked (updates are refused by both).

    Only while no solve is recorded (``solvers`` is 0; each first solve adds one box and
    one solver, nothing removes either). Each record's box holds its player's BOX_MBR in
    the app account's minimum balance: deleting the app would leave the boxes and that
    balance behind with no program left to free them, and the records out of the app's
    reach. So once a solve is recorded the app lives for good, with the records the
    players paid for (and ``withdraw()`` for anything sent to it beyond them). Before the
    first solve no player's money is in the app: the delete closes the app account to the
    creator (one inner payment, fee 0: the delete call pays 2 000), returning its 100 000
    uALGO and any plain transfer, and deleting frees the app's own minimum balance in the
    creator's account."""
    assert op.AppGlobal.get_uint64(SOLVERS_KEY) == 0, "solves are recorded: their boxes hold the players' payments"
    close_to_creator()


@subroutine(inline=True)
def withdraw_excess() -> UInt64:
    """The creator takes back what the app account holds above its minimum balance (plain
    transfers; never the boxes' minimum balance, which the players paid for): one inner
    payment, fee 0 (the call pays 2 000). Returns the amount, 0 when there is none."""
    assert Txn.sender == Global.creator_address, "only the creator can withdraw"
    me = Global.current_application_address
    excess = op.balance(me) - op.min_balance(me)
    if excess:
        itxn.Payment(receiver=Global.creator_address, amount=excess, fee=0).submit()
    return excess


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
