// The 8×8 game on chain (smart_contracts/curta) through the typed client
// generated from its ARC-56 spec: a first solve is the group [payment of the
// box MBR, solve(solution)], simulated first (free: opcodes, fees and the box
// payment shown), then signed and sent; the record (round) and the solver count
// are read back by simulation. The solve pays twice the min fee (one inner
// opup), or three times for a start whose generation drew long.
import '../polyfill'
import { microAlgo, type AlgorandClient } from '@algorandfoundation/algokit-utils'
import algosdk from 'algosdk'
import { APP_SPEC as CURTA_SPEC, CurtaClient } from '../contracts/CurtaClient'
import { errorText, explain, type Priced, type Recorded } from './game'

export { CURTA_SPEC }

/** The box minimum balance a first solve pays (2 500 + 400 × (32 + 40)). */
export const CURTA_BOX_MBR = 31_300n
/** The solve's fees tried in turn: one inner opup, or two for a long draw. */
const SOLVE_FEES = [2_000n, 3_000n]

/** The contract's 32 bytes of a board from its 64 hex digits. */
export function boardBytes(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16))
}

async function build(algorand: AlgorandClient, appId: bigint, sender: string, signer: algosdk.TransactionSigner, solution: Uint8Array, fee: bigint) {
  const client = new CurtaClient({ appId, algorand, defaultSender: sender, defaultSigner: signer })
  const payment = await algorand.createTransaction.payment({ sender, receiver: client.appAddress, amount: microAlgo(CURTA_BOX_MBR) })
  const group = client
    .newGroup()
    .addTransaction(payment, signer)
    .solve({ args: { solution }, boxReferences: [{ appId, name: algosdk.decodeAddress(sender).publicKey }], staticFee: microAlgo(fee) })
  return { client, group }
}

/** Simulates the solve group at the least fee that pays its opups: opcodes, fees, verdict or failure. */
export async function priceCurtaSolve(algorand: AlgorandClient, appId: bigint, sender: string, solution: Uint8Array): Promise<Priced & { fee: bigint }> {
  let last: Priced & { fee: bigint } = { opcodes: null, fees: 0n, txns: 2, verdict: null, failure: 'not simulated', fee: SOLVE_FEES[0] }
  for (const fee of SOLVE_FEES) {
    const { group } = await build(algorand, appId, sender, algosdk.makeEmptyTransactionSigner(), solution, fee)
    try {
      const sim = await group.simulate({ skipSignatures: true, allowUnnamedResources: true })
      const g = sim.simulateResponse.txnGroups[0]
      last = {
        opcodes: g.appBudgetConsumed === undefined ? null : Number(g.appBudgetConsumed),
        fees: sim.transactions.reduce((n, t) => n + t.fee, 0n),
        txns: sim.transactions.length,
        verdict: (sim.returns[0] as boolean | undefined) ?? null,
        failure: g.failureMessage ? explain(g.failureMessage, CURTA_SPEC) : null,
        fee,
      }
    } catch (e) {
      last = { opcodes: null, fees: 0n, txns: 2, verdict: null, failure: explain(errorText(e), CURTA_SPEC), fee }
    }
    if (!last.failure || !/fee too small/.test(last.failure)) return last
  }
  return last
}

/** Signs (through the wallet) and sends the solve group at `fee`, then reads the record back. */
export async function sendCurtaSolve(algorand: AlgorandClient, appId: bigint, sender: string, signer: algosdk.TransactionSigner, solution: Uint8Array, fee: bigint): Promise<Recorded> {
  const { group } = await build(algorand, appId, sender, signer, solution, fee)
  const sent = await group.send({ populateAppCallResources: false, maxRoundsToWaitForConfirmation: 10 })
  const record = await readCurtaRecord(algorand, appId, sender)
  return { txIds: sent.txIds, verdict: (sent.returns[0] as boolean | undefined) ?? null, round: record.round, rank: 0n, solvers: record.solvers }
}

/** The player's solve (its round, 0 when none) and the solver count, by simulation. */
export async function readCurtaRecord(algorand: AlgorandClient, appId: bigint, player: string): Promise<{ round: bigint; solvers: bigint }> {
  const client = new CurtaClient({ appId, algorand, defaultSender: player, defaultSigner: algosdk.makeEmptyTransactionSigner() })
  const r = await client.record({ args: { player }, boxReferences: [{ appId, name: algosdk.decodeAddress(player).publicKey }] })
  return { round: r?.[0] ?? 0n, solvers: (await client.solvers({ args: [] })) ?? 0n }
}
