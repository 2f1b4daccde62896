// Submitting a solved board: simulate [payment, solve] (free: the
// opcodes and fees it would take and the contract's answer), then the wallet
// signs and the group is sent; the page shows the recorded round and rank.
import { useState } from 'react'
import type { Signing } from './wallet'
import { algorandFor, BOX_MBR, errorText, priceSolve, sendSolve, type Priced, type Recorded } from './chain/game'
import { WAIT, withTimeout, type Network } from './chain/network'
import { gameArgs } from './engine/engine'
import algosdk from 'algosdk'

/** µALGO as ALGO, six decimals. */
export function algo(micro: bigint) {
  return `${(Number(micro) / 1e6).toFixed(6)} ALGO`
}

export function Submit({ net, app, address, signing, cells, onRecorded }: { net: Network; app: bigint; address: string; signing: Signing; cells: Uint8Array; onRecorded: () => void }) {
  const [priced, setPriced] = useState<Priced | null>(null)
  const [recorded, setRecorded] = useState<Recorded | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  if (!net.algod) {
    return <p className="submit" data-testid="offline-note">Offline: no node to send to. The verdict above is the contract's own (its native mirror); open the page with a network to submit.</p>
  }
  const key = algosdk.decodeAddress(address).publicKey
  const args = () => gameArgs(app, key, cells)
  const algorand = () => algorandFor(net)
  const price = async () => {
    setBusy(true)
    setError(null)
    try {
      setPriced(await withTimeout(priceSolve(algorand(), app, address, args()), WAIT.simulate, 'simulating the solve'))
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  const send = async () => {
    if (!signing.signer) return
    setBusy(true)
    setError(null)
    try {
      setRecorded(await withTimeout(sendSolve(algorand(), app, address, signing.signer, args()), WAIT.send, 'sending the solve (it may still be confirmed: reload to see the record)'))
      onRecorded()
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  const mine = signing.address === address
  return (
    <div className="submit" data-testid="submit">
      <button type="button" onClick={price} disabled={busy}>Simulate the submission</button>
      {priced && (
        <p data-testid="priced">
          {priced.failure ? <span className="bad">[payment, solve]: the node refuses it: {priced.failure}</span>
            : <>[payment, solve]: {priced.opcodes ?? '?'} opcodes, fees {algo(priced.fees)} + box {algo(BOX_MBR)}; the contract answers {String(priced.verdict)}.</>}
        </p>
      )}
      {priced && !priced.failure && (mine ? (
        <button type="button" onClick={send} disabled={busy || !!recorded} data-testid="send">Sign and send</button>
      ) : (
        <p>Connect this address's wallet to sign and send.</p>
      ))}
      {recorded && (
        <p data-testid="recorded" className="good">
          Recorded in round {String(recorded.round)}, rank {String(recorded.rank)} of {String(recorded.solvers)} solvers. Transactions: <span className="mono">{recorded.txIds.map((t) => t.slice(0, 8)).join(', ')}</span>
        </p>
      )}
      {error && <p role="alert" className="bad" data-testid="submit-error">{error}</p>}
    </div>
  )
}
