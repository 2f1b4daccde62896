// The game on chain through the typed clients generated from the committed
// ARC-56 specs: a solve is the group [payment of the box MBR, solve paying twice
// the min fee (the contract buys one inner opup with it)],
// simulated first (free: opcodes and fees shown), then signed and sent; the
// record (round, rank) and the solver count are read back by simulation.
import '../polyfill'
import { AlgorandClient, microAlgo } from '@algorandfoundation/algokit-utils'
import algosdk from 'algosdk'
import { APP_SPEC as GAME_SPEC, GameClient } from '../contracts/GameClient'
import { APP_SPEC as ALGOKU_SPEC, AlgokuClient } from '../contracts/AlgokuClient'
import type { Arc56Contract } from '@algorandfoundation/algokit-utils/types/app-arc56'
import { algodConfig, errorText, type Network } from './network'

export { errorText }

export { ALGOKU_SPEC, GAME_SPEC }

/** The box minimum balance a first solve pays (2 500 + 400 × (32 + 24)). */
export const BOX_MBR = 24_900n
/** A solve's own fee: twice the min fee, for the one inner opup the contract buys. */
export const SOLVE_FEE = 2_000n

export function algorandFor(net: Network): AlgorandClient {
  return AlgorandClient.fromConfig({ algodConfig: algodConfig(net) })
}

export interface SolveArgs {
  leaf: Uint8Array
  proof: Uint8Array
  lanes: Uint8Array
}

export interface Priced {
  opcodes: number | null
  fees: bigint
  txns: number
  verdict: boolean | null
  failure: string | null
}

/** The group [payment, solve]; a simulation signs with empty signatures. */
async function build(algorand: AlgorandClient, appId: bigint, sender: string, signer: algosdk.TransactionSigner, args: SolveArgs) {
  const client = new GameClient({ appId, algorand, defaultSender: sender, defaultSigner: signer })
  const box = { appId, name: algosdk.decodeAddress(sender).publicKey }
  const payment = await algorand.createTransaction.payment({
    sender,
    receiver: client.appAddress,
    amount: microAlgo(BOX_MBR),
  })
  const group = client
    .newGroup()
    .addTransaction(payment, signer)
    .solve({
      args: { leaf: args.leaf, proof: args.proof, solution: args.lanes },
      boxReferences: [box],
      staticFee: microAlgo(SOLVE_FEE),
    })
  return { client, group }
}

/** Simulates the solve group (no signature needed): opcodes, fees, the verdict or the failure. */
export async function priceSolve(algorand: AlgorandClient, appId: bigint, sender: string, args: SolveArgs): Promise<Priced> {
  const { group } = await build(algorand, appId, sender, algosdk.makeEmptyTransactionSigner(), args)
  try {
    const sim = await group.simulate({ skipSignatures: true, allowUnnamedResources: true })
    const g = sim.simulateResponse.txnGroups[0]
    const fees = sim.transactions.reduce((n, t) => n + t.fee, 0n)
    return {
      opcodes: g.appBudgetConsumed === undefined ? null : Number(g.appBudgetConsumed),
      fees,
      txns: sim.transactions.length,
      verdict: (sim.returns[0] as boolean | undefined) ?? null,
      failure: g.failureMessage ? explain(g.failureMessage, GAME_SPEC) : null,
    }
  } catch (e) {
    return { opcodes: null, fees: 0n, txns: 2, verdict: null, failure: explain(errorText(e), GAME_SPEC) }
  }
}

export interface Recorded {
  txIds: string[]
  verdict: boolean | null
  round: bigint
  rank: bigint
  solvers: bigint
}

/** Signs (through the wallet) and sends the solve group, then reads the record back. */
export async function sendSolve(algorand: AlgorandClient, appId: bigint, sender: string, signer: algosdk.TransactionSigner, args: SolveArgs): Promise<Recorded> {
  const { client, group } = await build(algorand, appId, sender, signer, args)
  const sent = await group.send({ populateAppCallResources: false, maxRoundsToWaitForConfirmation: 10 })
  const record = await readRecord(algorand, appId, sender)
  return { txIds: sent.txIds, verdict: (sent.returns[0] as boolean | undefined) ?? null, ...record, solvers: await solvers(client) }
}

async function solvers(client: GameClient): Promise<bigint> {
  return (await client.solvers({ args: [] })) ?? 0n
}

/** A player's record: the round and rank of the solve (zeros when none), and the solver count. */
export interface SolveRecord {
  round: bigint
  rank: bigint
  solvers: bigint
}

/** The player's record (round, rank; zeros when none) and the solver count, by simulation. */
export async function readRecord(algorand: AlgorandClient, appId: bigint, player: string): Promise<SolveRecord> {
  const client = new GameClient({ appId, algorand, defaultSender: player, defaultSigner: algosdk.makeEmptyTransactionSigner() })
  const r = await client.record({ args: { player }, boxReferences: [{ appId, name: algosdk.decodeAddress(player).publicKey }] })
  const [round, , rank] = r ?? [0n, 0n, 0n]
  return { round, rank, solvers: await solvers(client) }
}

export interface Verified {
  method: string
  verdict: boolean | null
  opcodes: number | null
  failure: string | null
}

/** Verifies a grid on the Algoku app by simulation (free): is_solution_of with a puzzle, else is_valid_solution_lanes. */
export async function verifyBySimulation(algorand: AlgorandClient, appId: bigint, sender: string, grid: Uint8Array, puzzle?: Uint8Array): Promise<Verified> {
  const client = new AlgokuClient({ appId, algorand, defaultSender: sender, defaultSigner: algosdk.makeEmptyTransactionSigner() })
  const method = puzzle ? 'is_solution_of' : 'is_valid_solution_lanes'
  const group = puzzle
    ? client.newGroup().isSolutionOf({ args: { puzzle, solution: grid } })
    : client.newGroup().isValidSolutionLanes({ args: { grid } })
  try {
    const sim = await group.simulate({ skipSignatures: true, allowUnnamedResources: true })
    const g = sim.simulateResponse.txnGroups[0]
    return {
      method,
      verdict: g.failureMessage ? null : ((sim.returns[0] as boolean | undefined) ?? null),
      opcodes: g.appBudgetConsumed === undefined ? null : Number(g.appBudgetConsumed),
      failure: g.failureMessage ? explain(g.failureMessage, ALGOKU_SPEC) : null,
    }
  } catch (e) {
    return { method, verdict: null, opcodes: null, failure: explain(errorText(e), ALGOKU_SPEC) }
  }
}

/** A failure with the contract's own words: the ARC-56 error message of the failing program counter, when it has one. */
export function explain(message: string, spec: Arc56Contract): string {
  const pc = Number(message.match(/pc=(\d+)/)?.[1] ?? NaN)
  const known = spec.sourceInfo?.approval.sourceInfo.find((s) => s.pc?.includes(pc) && s.errorMessage)
  return known ? `${known.errorMessage} (${message})` : message
}
