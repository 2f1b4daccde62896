// Verifying pasted or uploaded grids: the mirror's answer at once (every
// method, and the reason for a false), and on a node the Algoku contract's own
// verdict by simulation (free): is_solution_of when a puzzle is given, else
// is_valid_solution_lanes, with the opcodes it took.
import { useState } from 'react'
import type { Signing } from './wallet'
import { checkApp } from './chain/checks'
import { ALGOKU_SPEC, algorandFor, errorText, verifyBySimulation, type Verified } from './chain/game'
import { isAppId, WAIT, withTimeout, type Network } from './chain/network'
import { addressKey, mirror, type Mirror } from './engine/engine'

/** Text to bytes: `0x` + hex (any bytes, any length), else digits with '.' or '0' for a blank. */
export function parseGrid(text: string): Uint8Array | string {
  const t = text.trim()
  if (/^0x/i.test(t)) {
    const hex = t.slice(2)
    if (!/^([0-9a-f]{2})*$/i.test(hex)) return 'hex needs an even number of hex digits'
    return Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16))
  }
  const cells = t.replace(/\s/g, '')
  if (!/^[0-9.]*$/.test(cells)) return 'a grid is digits, with 0 or . for a blank (or 0x + hex)'
  return Uint8Array.from([...cells], (c) => (c === '.' ? 0 : Number(c)))
}

interface Row {
  line: number
  text: string
  error?: string
  mirror?: Mirror
  chain?: Verified
}

/** Grids verified per click, and bytes read of an uploaded file: the page stays quick; the CLI has no cap. */
const MAX_GRIDS = 64
const MAX_UPLOAD = 1 << 20

export function Verify({ net, app, signing }: { net: Network; app: string; signing: Signing }) {
  const [grids, setGrids] = useState('')
  const [puzzle, setPuzzle] = useState('')
  const [appId, setAppId] = useState(app)
  const [sender, setSender] = useState(signing.address ?? new URLSearchParams(window.location.search).get('address') ?? '')
  const [rows, setRows] = useState<Row[]>([])
  const [busy, setBusy] = useState(false)
  const [refused, setRefused] = useState<string | null>(null)
  const [partial, setPartial] = useState<string | null>(null)
  const [cut, setCut] = useState<string | null>(null)
  const [next, setNext] = useState<number | null>(null)
  /** Verifies the grids from the `from`-th (0-based), MAX_GRIDS at a time; a button goes on. */
  const run = async (from = 0) => {
    setBusy(true)
    const p = puzzle.trim() ? parseGrid(puzzle) : undefined
    const all = grids.split(/\r?\n/).map((l) => l.trim()).filter(Boolean)
    const lines = all.slice(from, from + MAX_GRIDS)
    const more = from + MAX_GRIDS < all.length
    setPartial(all.length > MAX_GRIDS
      ? from === 0
        ? `Verified the first ${MAX_GRIDS} of ${all.length} grids: the page takes ${MAX_GRIDS} at a time (\`algoku verify --file\` takes any number).`
        : `Verified grids ${from + 1}–${from + lines.length} of ${all.length}.`
      : null)
    setNext(more ? from + MAX_GRIDS : null)
    const out: Row[] = lines.map((text, i) => {
      const line = from + i + 1
      const g = parseGrid(text)
      if (typeof g === 'string') return { line, text, error: g }
      if (typeof p === 'string') return { line, text, error: `puzzle: ${p}` }
      return { line, text, mirror: mirror(g, p) }
    })
    setRows([...out])
    setRefused(null)
    const ask = isAppId(appId) && addressKey(sender) !== null
    if (net.algod && !ask) {
      setRefused('the contract was not asked: give the Algoku app id and an address to simulate as')
    }
    if (net.algod && ask) {
      const algorand = algorandFor(net)
      try {
        await withTimeout(checkApp(algorand, BigInt(appId), ALGOKU_SPEC), WAIT.read, `reading app ${appId}`)
      } catch (e) {
        setRefused(errorText(e))
        setBusy(false)
        return
      }
      for (const r of out) {
        if (r.error) continue
        const g = parseGrid(r.text) as Uint8Array
        const method = p ? 'is_solution_of' : 'is_valid_solution_lanes'
        r.chain = await withTimeout(verifyBySimulation(algorand, BigInt(appId), sender, g, p as Uint8Array | undefined), WAIT.simulate, 'simulating')
          .catch((e) => ({ method, verdict: null, opcodes: null, failure: errorText(e) }))
        setRows([...out])
      }
    }
    setBusy(false)
  }
  const upload = async (f: File | undefined) => {
    if (!f) return
    setGrids(await f.slice(0, MAX_UPLOAD).text())
    setCut(f.size > MAX_UPLOAD ? `${f.name} has ${f.size} bytes: the page read its first ${MAX_UPLOAD} (\`algoku verify --file\` reads it all).` : null)
  }
  return (
    <section className="verify" aria-label="Verify grids">
      <p>Paste grids, one a line (81 digits, or 0x and hex bytes), or upload a file. The mirror answers at once; with a node and the Algoku app id the contract answers too, by simulation: nothing is sent, nothing is paid.</p>
      <label>Grids <textarea name="grids" rows={5} value={grids} onChange={(e) => { setGrids(e.target.value); setCut(null) }} spellCheck={false} /></label>
      <label>Upload <input type="file" accept=".txt,text/plain" onChange={(e) => upload(e.target.files?.[0])} /></label>
      <label>Puzzle (optional: then is_solution_of) <input name="puzzle" value={puzzle} onChange={(e) => setPuzzle(e.target.value)} spellCheck={false} /></label>
      {net.algod && (
        <div className="row-fields">
          <label>Algoku app id <input name="algoku" value={appId} onChange={(e) => setAppId(e.target.value)} inputMode="numeric" /></label>
          <label>Simulate as <input name="sender" value={sender} onChange={(e) => setSender(e.target.value)} spellCheck={false} /></label>
        </div>
      )}
      <button type="button" onClick={() => void run(0)} disabled={busy} data-testid="verify-button">Verify</button>
      {cut && <p className="note" data-testid="cut">{cut}</p>}
      {partial && <p className="note" data-testid="partial">{partial}</p>}
      {next !== null && <button type="button" onClick={() => void run(next)} disabled={busy} data-testid="next-grids">Verify the next grids (from {next + 1})</button>}
      {refused && <p role="alert" className="bad" data-testid="app-refused">{refused}; the mirror's verdicts only.</p>}
      {!net.algod && <p className="note">Offline: the mirror's verdicts only (the contract's, bit for bit).</p>}
      <table data-testid="results">
        <thead><tr><th>#</th><th>method</th><th>verdict</th><th>opcodes</th><th>reason</th></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.line} data-testid="result" data-verdict={r.chain ? String(r.chain.verdict) : r.mirror ? String(r.mirror.verdict) : 'error'}
              data-mirror={r.mirror ? (r.mirror.is_solution_of ?? r.mirror.is_valid_solution_lanes) : ''} data-chain={r.chain ? (r.chain.failure ? `failed: ${r.chain.failure}` : String(r.chain.verdict)) : ''}>
              <td>{r.line}</td>
              <td>{r.chain?.method ?? (r.mirror?.is_solution_of ? 'is_solution_of (mirror)' : 'is_valid_solution_lanes (mirror)')}</td>
              <td>{r.error ? 'error' : r.chain ? (r.chain.failure ? 'failed' : String(r.chain.verdict)) : verdictOf(r.mirror)}</td>
              <td>{r.chain?.opcodes ?? '—'}</td>
              <td>{r.error ?? r.chain?.failure ?? reasonOf(r.mirror)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

/** The mirror's answer for the verdict column: true, false, or "rejected" (the contract refuses the input). */
function verdictOf(m: Mirror | undefined): string {
  const answer = m?.is_solution_of ?? m?.is_valid_solution_lanes ?? ''
  return answer === 'true' || answer === 'false' ? answer : 'rejected'
}

/** Why: the mirror's reason for a false, or the contract's refusal (a wrong length, say). */
function reasonOf(m: Mirror | undefined): string {
  const answer = m?.is_solution_of ?? m?.is_valid_solution_lanes ?? ''
  return m?.reason ?? (answer === 'true' || answer === 'false' ? '' : answer)
}
