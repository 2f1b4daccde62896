// The 8×8 game "2 × 4 = 8" (Curta): every address has its own start
// (`algoku curta generate ADDRESS`); fill the board so that each row, column
// and 2×4 box holds 1 to 8 once. The engine (rust/curta, the contract's
// mirror) gives the start, the conflicts and the contract's verdict; on a node
// the solve is simulated, then signed and sent with its box payment (Submit.tsx).
//
// The board's data-puzzle and data-cells are in the contract's order, as the
// CLI prints a board (64 hex digits, square 0 last; '.' for a blank), so a
// tool compares them with `algoku curta generate --json`'s `start` as they
// are; data-cell is the square (row-major, square 0 at the top left).
import { lazy, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { Finish, HISTORY, NotKept, Timer } from './Play'
import { readItem, writeItem } from './storage'
import { PRACTICE } from './first'
import { solvers } from './words'
import { Loaded } from './Loaded'
import type { Signing } from './wallet'
import { chain } from './chain/load'
import { OFFLINE, type Network } from './chain/network'
import { useNodeAnswer } from './chain/useNode'
import { addressKey, curtaCheck, curtaStart } from './engine/engine'

// Sending needs the chain libraries: fetched when a solved board is offered for sending.
const CurtaSubmit = lazy(() => import('./Submit').then((m) => ({ default: m.CurtaSubmit })))

/** Row-major text (square 0 first) in the contract's order (square 0 last), blanks as '.'. */
const contractOrder = (rowMajor: string) => [...rowMajor].reverse().join('')

export function CurtaPlay({ net, address, app, signing }: { net: Network; address: string; app: string; signing: Signing }) {
  if (address !== '' && !addressKey(address)) return <p role="alert" className="bad">Not a valid address.</p>
  const practice = address === ''
  return (
    <>
      {practice && <p className="intro">A practice board to start. Every Algorand address has its own 8×8 start on the Curta app: connect a wallet or give an address to play yours.</p>}
      <CurtaGame key={`${address}:${app}`} net={practice ? OFFLINE : net} address={practice ? PRACTICE : address} app={BigInt(app)} signing={signing} practice={practice} />
    </>
  )
}

function CurtaGame({ net, address, app, signing, practice }: { net: Network; address: string; app: bigint; signing: Signing; practice: boolean }) {
  const start = useMemo(() => curtaStart(addressKey(address)!), [address])
  const store = `algoku:curta:${net.name}:${app}:${address}`
  const [history, setHistory] = useState<{ past: string[]; now: string }>(() => {
    const saved = readItem(store)
    const ok = saved && saved.length === 64 && [...saved].every((c, k) => (start.cells[k] !== '.' ? c === start.cells[k] : /^[1-8.]$/.test(c)))
    return { past: [], now: ok ? saved : start.cells }
  })
  const cells = history.now
  const [kept, setKept] = useState(true)
  const elapsed = useRef(0)
  useEffect(() => setKept(writeItem(store, cells)), [store, cells])
  const [selected, setSelected] = useState(() => start.cells.indexOf('.'))
  const check = useMemo(() => curtaCheck(start.cells, cells), [start.cells, cells])
  const conflicts = useMemo(() => new Set(check.conflicts), [check.conflicts])
  const enter = (k: number, d: number) => {
    if (k < 0 || start.cells[k] !== '.') return
    const now = cells.slice(0, k) + (d ? String(d) : '.') + cells.slice(k + 1)
    if (now !== cells) setHistory((h) => ({ past: [...h.past, h.now].slice(-HISTORY), now }))
  }
  const undo = () => setHistory((h) => (h.past.length ? { past: h.past.slice(0, -1), now: h.past[h.past.length - 1] } : h))
  const left = useMemo(() => [0, 1, 2, 3, 4, 5, 6, 7, 8].map((d) => 8 - [...cells].filter((c) => c === String(d)).length), [cells])

  const checked = useNodeAnswer(net, `reading app ${app}`, async () => { const c = await chain(); return c.checkApp(c.algorandFor(net), app, c.CURTA_SPEC) }, [app])
  const appCheck = !net.algod || checked?.ok ? 'ok' : checked ? checked.error : null
  const [version, setVersion] = useState(0)
  const [sentHere, setSentHere] = useState(false)
  const record = useNodeAnswer(net, 'reading the record', async () => { const c = await chain(); return c.readCurtaRecord(c.algorandFor(net), app, address) }, [app, address, version],
    !practice && appCheck === 'ok')
  const offerSend = !practice && Boolean(net.algod) && appCheck === 'ok' && check.verdict === true && check.solution !== null &&
    (sentHere || (record !== null && !(record.ok && record.value.round)))

  return (
    <section className="game" aria-label="Your 8×8 board">
      <p className="meta"><span>{practice ? 'Practice board' : <>Board of <span className="mono">{address.slice(0, 8)}…{address.slice(-4)}</span></>}: 2 × 4 = 8, digits 1 to 8</span></p>
      <div className="play">
        <Board8 start={start.cells} cells={cells} selected={selected} conflicts={conflicts} onSelect={setSelected} onEnter={enter} onUndo={undo} />
        <div className="side" onMouseDown={(e) => { if ((e.target as HTMLElement).closest('.pad button') && document.activeElement?.closest('[role=grid]')) e.preventDefault() }}>
          <div className="pad pad8" role="group" aria-label="Digits">
            {[1, 2, 3, 4, 5, 6, 7, 8].map((d) => (
              <button key={d} type="button" onClick={() => enter(selected, d)} disabled={left[d] <= 0} data-left={left[d]}>
                {d}<small className="left"><span className="visually-hidden">, </span>{Math.max(0, left[d])}<span className="visually-hidden"> left</span></small>
              </button>
            ))}
            <button type="button" className="erase" onClick={() => enter(selected, 0)}>Erase</button>
          </div>
          <div className="tools">
            <button type="button" onClick={undo} disabled={!history.past.length}>Undo</button>
            <button type="button" onClick={() => setHistory((h) => ({ past: [...h.past, h.now].slice(-HISTORY), now: start.cells }))}>Restart</button>
          </div>
          <div className="status" aria-live="polite">
            <p>{[...cells].filter((c) => c !== '.').length} of 64 squares filled{check.conflicts.length ? `, ${check.conflicts.length} in conflict` : ''}.</p>
            {check.complete && (
              <p data-testid="verdict" className={check.verdict ? 'good' : 'bad'}>
                {check.verdict ? 'Solved: the contract would answer true.' : `The contract would answer false: ${check.reason}`}
              </p>
            )}
          </div>
          <Timer store={store} running={!check.verdict} elapsed={elapsed} />
          {!kept && <NotKept />}
          {appCheck === null && <p className="note" data-testid="app-check">Checking app {String(app)}…</p>}
          {appCheck !== null && appCheck !== 'ok' && <p role="alert" className="bad" data-testid="app-refused">{appCheck}: nothing is read from it or sent to it.</p>}
          {!practice && net.algod && appCheck === 'ok' && record && (
            <p data-testid="record">{!record.ok ? `The app could not be read: ${record.error}` : record.value.round ? `Already solved: round ${record.value.round}; ${solvers(record.value.solvers)}.` : `Not solved yet; ${solvers(record.value.solvers)} so far.`}</p>
          )}
          {offerSend && (
            <Loaded fallback={<p className="note">Loading the chain side…</p>}>
              <CurtaSubmit net={net} app={app} address={address} signing={signing} solution={check.solution!} onRecorded={() => { setSentHere(true); setVersion((v) => v + 1) }} />
            </Loaded>
          )}
          {check.verdict === true && !net.algod && !practice && <p className="submit" data-testid="offline-note">Offline: no node to send to. The verdict above is the contract's own (its native mirror).</p>}
        </div>
      </div>
      {check.verdict === true && <Finish elapsed={elapsed} practice={practice} canSend={offerSend && !(record?.ok && record.value.round)} />}
      <p className="keys">Keys: arrows move, 1–8 enter, Backspace clears, Ctrl+Z undoes.</p>
    </section>
  )
}

/** The 8×8 board: one focusable grid that takes the keyboard; boxes of 2 rows × 4 columns. */
function Board8({ start, cells, selected, conflicts, onSelect, onEnter, onUndo }: {
  start: string
  cells: string
  selected: number
  conflicts: Set<number>
  onSelect: (k: number) => void
  onEnter: (k: number, d: number) => void
  onUndo: () => void
}) {
  const key = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = selected < 0 ? 0 : selected
    const r = Math.floor(at / 8), c = at % 8
    const moves: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }
    if (e.key in moves) onSelect(((r + moves[e.key][0] + 8) % 8) * 8 + ((c + moves[e.key][1] + 8) % 8))
    else if ((e.ctrlKey || e.metaKey) && (e.key === 'z' || e.key === 'Z')) onUndo()
    else if (/^[1-8]$/.test(e.key)) onEnter(at, Number(e.key))
    else if (e.key === 'Backspace' || e.key === 'Delete' || e.key === '0') onEnter(at, 0)
    else return
    e.preventDefault()
  }
  const describe = (k: number) => `r${Math.floor(k / 8) + 1}c${(k % 8) + 1}, ${cells[k] === '.' ? 'empty' : cells[k]}${start[k] !== '.' ? ', given' : ''}${conflicts.has(k) ? ', in conflict' : ''}`
  const rows = []
  for (let r = 0; r < 8; r++) {
    const row = []
    for (let c = 0; c < 8; c++) {
      const k = r * 8 + c
      const same = selected >= 0 && cells[k] !== '.' && k !== selected && cells[k] === cells[selected]
      const cls = ['cell', start[k] !== '.' ? 'given' : 'entry', k === selected ? 'sel' : same ? 'same' : '', conflicts.has(k) ? 'conflict' : '', c === 3 ? 'br' : '', r % 2 === 1 && r < 7 ? 'bb' : ''].filter(Boolean).join(' ')
      row.push(
        <div key={k} id={`square-${k}`} role="gridcell" className={cls} aria-label={describe(k)} aria-selected={k === selected} data-cell={k}
          onMouseDown={(e) => { e.preventDefault(); onSelect(k); (e.currentTarget.closest('[role=grid]') as HTMLElement | null)?.focus() }}>
          {cells[k] !== '.' ? <span className="digit">{cells[k]}</span> : null}
        </div>,
      )
    }
    rows.push(<div key={r} role="row" className="row">{row}</div>)
  }
  return (
    <>
      <div className="board board8" role="grid" aria-label="8×8 board" tabIndex={0} data-testid="board" data-game="curta"
        data-puzzle={contractOrder(start)} data-cells={contractOrder(cells)} onKeyDown={key} aria-activedescendant={selected >= 0 ? `square-${selected}` : undefined}>
        {rows}
      </div>
      <p className="visually-hidden" aria-live="polite" data-testid="cell-announce">{selected >= 0 ? describe(selected) : ''}</p>
    </>
  )
}
