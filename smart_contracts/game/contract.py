"""Algoku, the game: a 9x9 puzzle for every address, solved and recorded on chain.

`rust/game` is the native, bit-for-bit mirror of every step below.

Catalogue and root
------------------
The catalogue is the complete list of the 49 158 Sudoku puzzles with 17 givens
(each has one solution and is minimal), committed in rust/game/data/catalogue.bin.
Puzzle n is a 51-byte *leaf*: its givens in cell order as three 17-byte columns,
``2 * row``, ``2 * column``, ``digit``. ``ROOT_HEX`` is the root of a Merkle tree
of 4 levels with 16 children per node: a node is the first 20 bytes of SHA-256 of
its 16 children concatenated (816 bytes above the leaves, 320 above nodes; missing
children are zeros). The root is a constant of this program: no method can change
it, updates are refused, and the client checks the approval program byte for byte.
`algoku game root` (or `cargo run -p algoku-game --example catalogue`) recomputes it.

Each address's puzzle
---------------------
``h = sha256(itob(app id) || address)``. The index is ``uint64(h[0:8]) % 49 158``.
``h[8] & 1`` transposes; ``h[9] % 6`` and ``h[10] % 6`` pick the band and stack
permutations, ``h[11..14] % 6`` the row permutations of the three bands,
``h[14..17] % 6`` the column permutations of the three stacks, among the 6
permutations of 0..2 (PERM3, lexicographic). Catalogue row ``r = 3i + j`` goes to
``R = 3 * PERM3[band][i] + PERM3[row_i][j]``, column ``k = 3s + t`` to ``C = 3 *
PERM3[stack][s] + PERM3[column_s][t]``; cell (r, k) goes to (R, C), or (C, R) when
transposed. Digits: with ``q = h[17] % 6``, ``p_i = h[18 + i] % 6``, ``k = h[21] %
9``, digit ``d = 3i + j + 1`` becomes ``(3 * PERM3[q][i] + PERM3[p_i][j] + k) % 9 +
1`` (3 888 relabellings; rust/game/src/derive.rs says why not all 9!).

Each step (relabelling, rows within a band, bands, columns within a stack, stacks,
transpose) maps the rows, columns and boxes of a grid onto rows, columns and boxes
and is a bijection on cells and digits: the image of a puzzle with exactly one
solution is a puzzle with exactly one solution (the image of it) and 17 givens.

The player's solution is 81 *lanes* of 16 bits (162 bytes): lane c is
``0x8000 >> d`` for digit d in cell c, i.e. bit ``16c + d`` of the string (AVM bit
numbering, bit 0 leftmost). The isomorphism is applied to the 17 givens only:
``F[r]`` (row tables) and ``G[k]`` (column tables) are 16-bit entries with
``F[r] + G[k] = 16 * cell'`` (16 * 9R and 16 * C, or 16 * R and 16 * 9C when
transposed), so given i checks ``getbit(solution, F[2r] + G[2k] + m[d])``.

Why a true answer means a solved grid agreeing with the player's givens
---------------------------------------------------------------------
1. The leaf is the catalogue's: the proof's four blocks hash, with the running
   node put in at the slot of the sender's index, to ROOT_HEX (second preimages of
   160-bit SHA-256 are out of reach; leaf and node blocks have different lengths).
   The index, hence the slot path, is derived from the sender, not an argument.
2. At most one bit per lane: split into three 54-byte pieces, ``y = piece |
   0x8000..`` makes every lane at least 0x8000, so ``y - 0x0001..`` borrows inside
   each lane only, and ``y & (y - 1)`` keeps a bit of bits 1..15 of a lane exactly
   when that lane has two or more set bits among bits 1..15: they must all be 0.
3. Units: the lanes (plus 15 zero lanes) are OR-folded as in the Algoku contract's
   one-call check, giving each row, column and box's OR of its nine lanes; all 27
   must equal 0x7fc0 (bits 1..9). A lane with bit 0 or bits 10..15 set would show
   in its row's OR. With at most one bit among bits 1..15 per lane (2) and bit 0
   clear, nine lanes whose OR has the nine bits 1..9 hold one digit each, all
   different: every unit holds 1..9 once, the grid is solved.
4. Givens: the 17 ``getbit`` must all be 1: the solution has digit m[d] at the
   image of every catalogue given (r, k, d), i.e. it solves the player's puzzle.
Another address's solution solves another puzzle (another index or isomorphism):
it fails 4 except in the negligible case of two addresses sharing one puzzle.

Payments and records
--------------------
A first correct solve stores box ``sender (32 bytes) -> round || timestamp ||
rank`` (3 x uint64; rank = 1 for the first solver), whose minimum balance
BOX_MBR = 2500 + 400 * (32 + 24) = 24 900 uALGO is paid by a payment to the app
account *immediately before* the solve call. The payment rule is the same in both
games and lives in one place (smart_contracts/common.py, `refuse_stray_payments`); every
method of this app runs it first, on the group the call is in (the top-level group,
or the inner group of an app that calls this one: ``gtxn`` reads that group only):

* a payment to the app account must be immediately followed by a `solve` call of
  this app, whatever method of this app the group calls; no payment may close its
  account to the app. So `opup`, `root`, `puzzle`, `solvers`, `record` and
  `withdraw` never run in a group that pays the app except for a solve's box;
* a solve preceded by such a payment must record a first correct solve: the
  payment must be exactly BOX_MBR with no close_remainder_to (any sender, e.g. a
  sponsor), the solution correct, the sender not yet recorded; anything else
  fails the whole group;
* a solve without that payment answers false for a wrong solution, true with the
  event ``AlreadySolved(round)`` for a recorded sender (nothing changes), and fails
  for a correct first solve (nothing would pay for the box).

So a payment in a group that calls this app is never kept for nothing. A payment to
the app account in a group that does not call the app (or the top-level group around
an app that calls this one from an inner transaction) is a plain transfer: no program
runs for it and no app can refuse it. It is not lost: ``withdraw()`` lets the creator
take back whatever the account holds above its minimum balance (its own 100 000 and
the boxes' BOX_MBR each stay: the records the players paid for are untouched).

Deletion
--------
Updates are refused. Only the creator may delete the app, and only while no solve is
recorded: the games' rule, said once in smart_contracts/common.py (``close_if_no_solves``).

Budget and composition
----------------------
A solve needs about 1 330 opcodes (measured in tests/test_game.py): 5 SHA-256
(derivation and 4 Merkle levels, 175), the isomorphism's tables (~200), the 17
givens (~410), the lanes check (~170), the group scan (~15 per transaction of the
group), the box and the routing: two app calls' budget. It counts the app calls
after it and tops the pool up with ``ensure_budget(SOLVE_BUDGET + 700 * later app
calls, GroupCredit)``: inner opups paid from the group's fee credit, never by the
app account, never eating a later call's 700. ``[opup(), payment, solve]`` at 1 000
uALGO each needs no inner transaction; ``[payment, solve]`` with a solve fee of
2 000 makes one inner opup; in a full group (16 transactions) each solve's scan
costs more and its fee buys what it lacks.
"""

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
    later_app_calls,
    refuse_stray_payments,
    solve_scan,
    unit_ors,
    withdraw_excess,
)

from typing import Literal

Leaf = arc4.StaticArray[arc4.Byte, Literal[51]]
Proof = arc4.StaticArray[arc4.Byte, Literal[1776]]
Lanes = arc4.StaticArray[arc4.Byte, Literal[162]]
Grid = arc4.StaticArray[arc4.Byte, Literal[81]]
Root = arc4.StaticArray[arc4.Byte, Literal[20]]

ROOT_HEX = "2fb9bd339dcb2f83683080f8034578318b762f03"
COUNT = 49158
LEAF_SIZE = 51
# Proof layout: the 16 leaves under the leaf's parent (816 bytes), then three blocks of
# 16 nodes (20 bytes each: 320 bytes), bottom first.
LEAF_BLOCK = 816
NODE_BLOCK = 320
# 16-bit line tables: entry (p, b) at 18p + 6b holds mult * (3b + PERM3[p][j]), j = 0..2.
LINES_144_HEX = "00000090012001b0024002d0036003f0048000000120009001b002d002400360048003f0009000000120024001b002d003f003600480009001200000024002d001b003f00480036001200000009002d001b002400480036003f001200090000002d0024001b0048003f00360"
LINES_16_HEX = "000000100020003000400050006000700080000000200010003000500040006000800070001000000020004000300050007000600080001000200000004000500030007000800060002000000010005000300040008000600070002000100000005000400030008000700060"
# 6 * PERM3[q][i] at 3q + i: where band (stack) i's entry starts in a line table row.
BAND_OFFSETS_HEX = "00060c000c0606000c060c000c00060c0600"
# Digit table: entry (k, p, b) at 54k + 9p + 3b holds (3b + PERM3[p][j] + k) % 9 + 1, j = 0..2.
DIGITS_HEX = "010203040506070809010302040605070908020103050406080709020301050604080907030102060405090708030201060504090807020304050607080901020403050706080109030204060507090801030402060705090108040203070506010809040302070605010908030405060708090102030504060807090201040305070608010902040503070806010209050304080607020901050403080706020109040506070809010203040605070908010302050406080709020103050604080907020301060405090708030102060504090807030201050607080901020304050706080109020403060507090801030204060705090108030402070506010809040203070605010908040302060708090102030405060807090201030504070608010902040305070806010209040503080607020901050304080706020109050403070809010203040506070908010302040605080709020103050406080907020301050604090708030102060405090807030201060504080901020304050607080109020403050706090801030204060507090108030402060705010809040203070506010908040302070605090102030405060708090201030504060807010902040305070608010209040503070806020901050304080607020109050403080706"
# 3 * PERM3[q][i] at 3q + i: where digit triple i's entry starts in a digit table row.
DIGIT_OFFSETS_HEX = "000306000603030006030600060003060300"
HIGH_54_HEX = "8000" * 27
ONES_54_HEX = "0001" * 27
# 15 zero lanes after the 81 (the folds work on 96 lanes, as in the Algoku contract).
PAD_HEX = "00" * 30
# z (162 bytes: 0x7fff per lane, expects 0) || rows || columns || boxes (192 bytes each:
# 0xffff on the lane holding each unit's OR, expects 0x7fc0), the units' part Algoku's.
# These tables and masks are written by scripts/unrolled.py from their rules.
CHECK_MASK_HEX = "7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff00000000000000000000000000000000ffff00000000000000000000000000000000ffff00000000000000000000000000000000ffff00000000000000000000000000000000ffff00000000000000000000000000000000ffff00000000000000000000000000000000ffff00000000000000000000000000000000ffff00000000000000000000000000000000ffff00000000000000000000000000000000ffff000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000ffffffffffffffffffffffffffffffffffff00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000ffff00000000ffff00000000ffff00000000000000000000000000000000000000000000000000000000000000000000000000000000ffff00000000ffff00000000ffff00000000000000000000000000000000000000000000000000000000000000000000000000000000ffff00000000ffff00000000ffff000000000000000000000000000000000000000000000000000000000000"
CHECK_EXPECTED_HEX = "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000007fc0000000000000000000000000000000007fc0000000000000000000000000000000007fc0000000000000000000000000000000007fc0000000000000000000000000000000007fc0000000000000000000000000000000007fc0000000000000000000000000000000007fc0000000000000000000000000000000007fc0000000000000000000000000000000007fc00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000007fc07fc07fc07fc07fc07fc07fc07fc07fc0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000007fc0000000007fc0000000007fc0000000000000000000000000000000000000000000000000000000000000000000000000000000007fc0000000007fc0000000007fc0000000000000000000000000000000000000000000000000000000000000000000000000000000007fc0000000007fc0000000007fc0000000000000000000000000000000000000000000000000000000000000"
RECORD_SIZE = 24
BOX_MBR = BOX_FLAT + BOX_BYTE * (BOX_KEY_SIZE + RECORD_SIZE)
# Opcodes solve still needs once its ensure_budget returns: the first correct solve's
# tail measures about 1 165; [opup(), payment, solve] at 1 000 each leaves it about
# 1 225 (tests/test_game.py pins both: no inner transaction there, enough everywhere).
SOLVE_BUDGET = 1190
# What the read-only puzzle() needs after its budget check (measured, with margin).
PUZZLE_BUDGET = 1250


class Solved(arc4.Struct):
    round: arc4.UInt64
    rank: arc4.UInt64


@subroutine
def _derive(player: Bytes) -> tuple[UInt64, Bytes, Bytes, Bytes]:
    """(index, F, G, digits) of player (module docstring): F and G are 9 16-bit
    entries, F[r] + G[k] = 16 * the player's cell of catalogue cell (r, k)."""
    h = op.sha256(op.itob(Global.current_application_id.id) + player)
    index = op.extract_uint64(h, 0) % COUNT
    offsets = Bytes.from_hex(BAND_OFFSETS_HEX)
    big = Bytes.from_hex(LINES_144_HEX)
    small = Bytes.from_hex(LINES_16_HEX)
    rows = big
    columns = small
    if op.getbyte(h, 8) & 1:
        rows = small
        columns = big
    band = (op.getbyte(h, 9) % 6) * 3
    stack = (op.getbyte(h, 10) % 6) * 3
    f = op.extract(rows, (op.getbyte(h, 11) % 6) * 18 + op.getbyte(offsets, band), 6)
    f += op.extract(rows, (op.getbyte(h, 12) % 6) * 18 + op.getbyte(offsets, band + 1), 6)
    f += op.extract(rows, (op.getbyte(h, 13) % 6) * 18 + op.getbyte(offsets, band + 2), 6)
    g = op.extract(columns, (op.getbyte(h, 14) % 6) * 18 + op.getbyte(offsets, stack), 6)
    g += op.extract(columns, (op.getbyte(h, 15) % 6) * 18 + op.getbyte(offsets, stack + 1), 6)
    g += op.extract(columns, (op.getbyte(h, 16) % 6) * 18 + op.getbyte(offsets, stack + 2), 6)
    q = (op.getbyte(h, 17) % 6) * 3
    k = (op.getbyte(h, 21) % 9) * 54
    digit_offsets = Bytes.from_hex(DIGIT_OFFSETS_HEX)
    digits = Bytes.from_hex(DIGITS_HEX)
    m = op.bzero(1) + op.extract(digits, k + (op.getbyte(h, 18) % 6) * 9 + op.getbyte(digit_offsets, q), 3)
    m += op.extract(digits, k + (op.getbyte(h, 19) % 6) * 9 + op.getbyte(digit_offsets, q + 1), 3)
    m += op.extract(digits, k + (op.getbyte(h, 20) % 6) * 9 + op.getbyte(digit_offsets, q + 2), 3)
    return index, f, g, m


@subroutine(inline=True)
def _check_leaf(index: UInt64, leaf: Bytes, proof: Bytes) -> None:
    """Fail unless proof puts leaf at index under ROOT_HEX (module docstring)."""
    node = op.extract(op.sha256(op.replace(op.extract(proof, 0, LEAF_BLOCK), (index & 15) * LEAF_SIZE, leaf)), 0, 20)
    node = op.extract(op.sha256(op.replace(op.extract(proof, 816, NODE_BLOCK), ((index >> 4) & 15) * 20, node)), 0, 20)
    node = op.extract(op.sha256(op.replace(op.extract(proof, 1136, NODE_BLOCK), ((index >> 8) & 15) * 20, node)), 0, 20)
    node = op.extract(op.sha256(op.replace(op.extract(proof, 1456, NODE_BLOCK), ((index >> 12) & 15) * 20, node)), 0, 20)
    assert node == Bytes.from_hex(ROOT_HEX), "the puzzle and proof do not match the catalogue root"


@subroutine(inline=True)
def _given(solution: Bytes, leaf: Bytes, f: Bytes, g: Bytes, m: Bytes, i: UInt64) -> UInt64:
    """1 iff the solution holds given i's digit, relabelled, at its cell's image."""
    at = op.extract_uint16(f, op.getbyte(leaf, i)) + op.extract_uint16(g, op.getbyte(leaf, i + 17))
    return UInt64(op.getbit(solution, at + op.getbyte(m, op.getbyte(leaf, i + 34))))


@subroutine
def _givens_held(solution: Bytes, leaf: Bytes, f: Bytes, g: Bytes, m: Bytes) -> bool:
    """The solution agrees with all 17 mapped givens."""
    # generated by scripts/unrolled.py: givens
    held = _given(solution, leaf, f, g, m, UInt64(0))
    held += _given(solution, leaf, f, g, m, UInt64(1))
    held += _given(solution, leaf, f, g, m, UInt64(2))
    held += _given(solution, leaf, f, g, m, UInt64(3))
    held += _given(solution, leaf, f, g, m, UInt64(4))
    held += _given(solution, leaf, f, g, m, UInt64(5))
    held += _given(solution, leaf, f, g, m, UInt64(6))
    held += _given(solution, leaf, f, g, m, UInt64(7))
    held += _given(solution, leaf, f, g, m, UInt64(8))
    held += _given(solution, leaf, f, g, m, UInt64(9))
    held += _given(solution, leaf, f, g, m, UInt64(10))
    held += _given(solution, leaf, f, g, m, UInt64(11))
    held += _given(solution, leaf, f, g, m, UInt64(12))
    held += _given(solution, leaf, f, g, m, UInt64(13))
    held += _given(solution, leaf, f, g, m, UInt64(14))
    held += _given(solution, leaf, f, g, m, UInt64(15))
    held += _given(solution, leaf, f, g, m, UInt64(16))
    # end of givens
    return held == 17


@subroutine(inline=True)
def _single(piece: Bytes) -> Bytes:
    """y & (y - 1) lane by lane, y = piece | 0x8000 per lane (no borrow crosses a lane)."""
    y = piece | Bytes.from_hex(HIGH_54_HEX)
    return y & (BigUInt.from_bytes(y) - BigUInt.from_bytes(Bytes.from_hex(ONES_54_HEX))).bytes


@subroutine
def _solved(solution: Bytes) -> bool:
    """The 162 lanes are a solved grid (module docstring, 2 and 3)."""
    z = _single(op.extract(solution, 0, 54)) + _single(op.extract(solution, 54, 54))
    z += _single(op.extract(solution, 108, 54))
    rows, columns, boxes = unit_ors(solution + Bytes.from_hex(PAD_HEX))
    checked = z + rows + columns + boxes
    return (checked & Bytes.from_hex(CHECK_MASK_HEX)) == Bytes.from_hex(CHECK_EXPECTED_HEX)


@subroutine(inline=True)
def _scan() -> None:
    """The payment rule (smart_contracts/common.py, `refuse_stray_payments`) for this app's
    solve."""
    refuse_stray_payments(arc4.arc4_signature("solve(byte[51],byte[1776],byte[162])bool"))


class Game(ARC4Contract):
    """Algoku, the game: each address's 17-clue puzzle, verified and recorded on chain."""

    def __init__(self) -> None:
        # Declared for the ARC-56 schema (1 uint); read and written with app_global_get/put.
        self.solver_count = GlobalState(UInt64, key="solvers")
        self.records = BoxMap(Account, Bytes, key_prefix=b"")

    @arc4.baremethod(create="require")
    def create(self) -> None:
        """Create the app with a bare call; the catalogue root is part of the program."""

    @arc4.baremethod(allow_actions=["DeleteApplication"])
    def delete(self) -> None:
        """Only the creator may delete the app, and only before the first recorded solve; the
        app account closes to the creator (module docstring, Deletion). Updates are rejected."""
        assert Txn.sender == Global.creator_address, "Only the creator can delete the game."
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
    def root(self) -> Root:
        """The catalogue's Merkle root (a constant of the program); takes no payment."""
        _scan()
        return Root.from_bytes(Bytes.from_hex(ROOT_HEX))

    @arc4.abimethod(readonly=True)
    def puzzle(self, player: arc4.Address, leaf: Leaf, proof: Proof) -> tuple[UInt64, Grid]:
        """(catalogue index, the player's 81-byte puzzle, 0 = blank) for leaf and proof
        of player's index; fails when they do not match the root. Takes no payment."""
        _scan()
        ensure_budget(PUZZLE_BUDGET + APP_CALL_SHARE * later_app_calls(), OpUpFeeSource.GroupCredit)
        index, f, g, m = _derive(player.bytes)
        _check_leaf(index, leaf.bytes, proof.bytes)
        grid = op.bzero(81)
        for i in urange(17):
            at = op.extract_uint16(f, op.getbyte(leaf.bytes, i)) + op.extract_uint16(g, op.getbyte(leaf.bytes, i + 17))
            grid = op.setbyte(grid, at >> 4, op.getbyte(m, op.getbyte(leaf.bytes, i + 34)))
        return index, Grid.from_bytes(grid)

    @arc4.abimethod
    def solve(self, leaf: Leaf, proof: Proof, solution: Lanes) -> bool:
        """Check the sender's solution of their puzzle; record a first correct solve
        (paid by the payment just before this call): module docstring."""
        later, paid = solve_scan(arc4.arc4_signature("solve(byte[51],byte[1776],byte[162])bool"))
        reserved = APP_CALL_SHARE * later
        ensure_budget(SOLVE_BUDGET + reserved, OpUpFeeSource.GroupCredit)
        if paid:
            pay = gtxn.PaymentTransaction(Txn.group_index - 1)
            assert pay.amount == BOX_MBR, "the box payment must be exactly the box MBR (24900)"
            assert pay.close_remainder_to == Global.zero_address, "the box payment must not close its account"
        index, f, g, m = _derive(Txn.sender.bytes)
        _check_leaf(index, leaf.bytes, proof.bytes)
        correct = _givens_held(solution.bytes, leaf.bytes, f, g, m) and _solved(solution.bytes)
        record, exists = self.records.maybe(Txn.sender)
        if paid:
            assert correct, "a paid solve must be correct"
            assert not exists, "already solved: the payment would be kept for nothing"
        if not correct:
            return False
        if exists:
            arc4.emit(AlreadySolved(arc4.UInt64(op.extract_uint64(record, 0))))
            return True
        assert paid, "a first solve needs the box payment (24900) just before it"
        rank = op.AppGlobal.get_uint64(SOLVERS_KEY) + 1
        op.AppGlobal.put(SOLVERS_KEY, rank)
        self.records[Txn.sender] = op.itob(Global.round) + op.itob(Global.latest_timestamp) + op.itob(rank)
        arc4.emit(Solved(arc4.UInt64(Global.round), arc4.UInt64(rank)))
        return True

    @arc4.abimethod(readonly=True)
    def solvers(self) -> UInt64:
        """How many addresses have a recorded solve; takes no payment."""
        _scan()
        return op.AppGlobal.get_uint64(SOLVERS_KEY)

    @arc4.abimethod(readonly=True)
    def record(self, player: arc4.Address) -> tuple[UInt64, UInt64, UInt64]:
        """(round, timestamp, rank) of player's recorded solve; (0, 0, 0) if none. Takes no
        payment."""
        _scan()
        record, exists = self.records.maybe(player.native)
        if not exists:
            return UInt64(0), UInt64(0), UInt64(0)
        return op.extract_uint64(record, 0), op.extract_uint64(record, 8), op.extract_uint64(record, 16)
