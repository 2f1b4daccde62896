// Submitting a solved board, for both games: simulate [payment, solve] (free:
// the opcodes and fees it would take, the box payment, and the contract's
// answer), then the wallet signs and the group is sent; the page shows the
// recorded round. One panel runs the steps; each game gives its group's price
// and send, and how its payment and record read. Loaded on demand: it brings
// the chain libraries.
import { useState, type ReactNode } from 'react'
import type { Signing } from './wallet'
import { algorandFor, BOX_MBR, errorText, priceSolve, sendSolve, type Priced, type Recorded } from './chain/game'
import { boardBytes, CURTA_BOX_MBR, priceCurtaSolve, sendCurtaSolve } from './chain/curta'
import { WAIT, withTimeout, type Network } from './chain/network'
import { gameArgs } from './engine/engine'
import { solvers } from './words'
import algosdk from 'algosdk'

/** µALGO as ALGO, six decimals. */
export function algo(micro: bigint) {
  return `${(Number(micro) / 1e6).toFixed(6)} ALGO`
}

/** The 9×9 game's submission: its solve arguments (leaf, proof, lanes) from the engine. */
export function Submit({ net, app, address, signing, cells, onRecorded }: { net: Network; app: bigint; address: string; signing: Signing; cells: Uint8Array; onRecorded: () => void }) {
  const args = () => gameArgs(app, algosdk.decodeAddress(address).publicKey, cells)
  return (
    <SubmitPanel net={net} address={address} signing={signing} onRecorded={onRecorded}
      price={() => priceSolve(algorandFor(net), app, address, args())}
      send={(signer) => sendSolve(algorandFor(net), app, address, signer, args())}
      payment={`box ${algo(BOX_MBR)}`}
      recorded={(r) => `Recorded in round ${r.round}, rank ${r.rank} of ${r.solvers} solvers.`} />
  )
}

/** The 8×8 game's submission: the board as the contract takes it (64 hex digits); the solve's fee as simulated. */
export function CurtaSubmit({ net, app, address, signing, solution, onRecorded }: { net: Network; app: bigint; address: string; signing: Signing; solution: string; onRecorded: () => void }) {
  const board = () => boardBytes(solution)
  return (
    <SubmitPanel<Priced & { fee: bigint }> net={net} address={address} signing={signing} onRecorded={onRecorded}
      price={() => priceCurtaSolve(algorandFor(net), app, address, board())}
      send={(signer, priced) => sendCurtaSolve(algorandFor(net), app, address, signer, board(), priced.fee)}
      payment={`box payment ${algo(CURTA_BOX_MBR)} (the app keeps it for your record)`}
      recorded={(r) => `Recorded in round ${r.round}; ${solvers(r.solvers)}.`} />
  )
}

/** Simulate, then sign and send: the payment is shown before anything is signed; only the address's own wallet may sign. */
function SubmitPanel<P extends Priced>({ net, address, signing, price, send, payment, recorded: recordedText, onRecorded }: {
  net: Network
  address: string
  signing: Signing
  price: () => Promise<P>
  send: (signer: algosdk.TransactionSigner, priced: P) => Promise<Recorded>
  payment: string
  recorded: (r: Recorded) => ReactNode
  onRecorded: () => void
}) {
  const [priced, setPriced] = useState<P | null>(null)
  const [recorded, setRecorded] = useState<Recorded | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  if (!net.algod) {
    return <p className="submit" data-testid="offline-note">Offline: no node to send to. The verdict above is the contract's own (its native mirror); open the page with a network to submit.</p>
  }
  const run = async (step: () => Promise<void>) => {
    setBusy(true)
    setError(null)
    try {
      await step()
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  const simulate = () => run(async () => setPriced(await withTimeout(price(), WAIT.simulate, 'simulating the solve')))
  const sign = () => run(async () => {
    if (!signing.signer || !priced) return
    setRecorded(await withTimeout(send(signing.signer, priced), WAIT.send, 'sending the solve (it may still be confirmed: reload to see the record)'))
    onRecorded()
  })
  return (
    <div className="submit" data-testid="submit">
      <button type="button" onClick={simulate} disabled={busy}>Simulate the submission</button>
      {priced && (
        <p data-testid="priced">
          {priced.failure ? <span className="bad">[payment, solve]: the node refuses it: {priced.failure}</span>
            : <>[payment, solve]: {priced.opcodes ?? '?'} opcodes, fees {algo(priced.fees)} + {payment}; the contract answers {String(priced.verdict)}.</>}
        </p>
      )}
      {priced && !priced.failure && (signing.address === address ? (
        <button type="button" onClick={sign} disabled={busy || !!recorded} data-testid="send">Sign and send</button>
      ) : (
        <p>Connect this address's wallet to sign and send.</p>
      ))}
      {recorded && (
        <p data-testid="recorded" className="good">
          {recordedText(recorded)} Transactions: <span className="mono">{recorded.txIds.map((t) => t.slice(0, 8)).join(', ')}</span>
        </p>
      )}
      {error && <p role="alert" className="bad" data-testid="submit-error">{error}</p>}
    </div>
  )
}
