// What the page checks on a node before it believes it. A node can claim any
// name: its genesis id must be the network the URL names (TestNet, MainNet),
// and a LocalNet page, which offers a typed-in mnemonic, refuses the public
// networks. An app id can be any program, and any program can answer `true`:
// its approval program must be the committed contract's, byte for byte (the
// ARC-56 spec's byteCode, the artifact the CLI checks too).
import type { AlgorandClient } from '@algorandfoundation/algokit-utils'
import type { Arc56Contract } from '@algorandfoundation/algokit-utils/types/app-arc56'
import type { Network } from './network'

const GENESIS: Record<string, string> = { testnet: 'testnet-v1.0', mainnet: 'mainnet-v1.0' }
const PUBLIC = ['mainnet-v1.0', 'testnet-v1.0', 'betanet-v1.0', 'fnet-v1']

/** The node's genesis id, once it is one the page's network may use; else an error naming both. */
export async function checkNode(algorand: AlgorandClient, net: Network): Promise<string> {
  const genesis = (await algorand.client.algod.getTransactionParams().do()).genesisID ?? ''
  const want = GENESIS[net.name]
  if (want && genesis !== want) throw new Error(`the node at ${net.algod} serves genesis “${genesis}”, not ${net.name} (${want})`)
  if (net.name === 'localnet' && PUBLIC.includes(genesis)) throw new Error(`the node at ${net.algod} serves ${genesis}, a public network, not a LocalNet`)
  return genesis
}

function bytesOf(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}

/** Resolves when app `appId` runs `spec`'s approval program; else an error saying what it is instead. */
export async function checkApp(algorand: AlgorandClient, appId: bigint, spec: Arc56Contract): Promise<void> {
  const want = spec.byteCode?.approval
  if (!want) throw new Error(`the ${spec.name} spec carries no program to compare with`)
  let program: Uint8Array | undefined
  try {
    program = (await algorand.client.algod.getApplicationByID(appId).do()).params?.approvalProgram
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e)
    if (/does not exist|404/.test(text)) throw new Error(`app ${appId} does not exist on this node`)
    throw e
  }
  if (!program || !same(program, bytesOf(want))) {
    throw new Error(`app ${appId} is not ${spec.name}: its approval program differs from the committed ${spec.name}.approval.bin`)
  }
}
