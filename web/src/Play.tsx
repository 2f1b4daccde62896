// Playing an address's puzzle: the board (mouse, keyboard, pencil marks,
// undo/redo, conflicts as they happen), a hint from the rater, the mirror's
// verdict the moment the grid is full, and the submit path on a node.
import type { MouseEvent } from 'react'
import { lazy, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { Signing } from './wallet'
import { Board } from './Board'
import { Loaded } from './Loaded'
import { errorText, isAppId, OFFLINE, type Network } from './chain/network'
import { chain } from './chain/load'
import type { SolveRecord } from './chain/game'
import { useNodeAnswer, type Answer } from './chain/useNode'
import { PRACTICE } from './first'
import { readItem, writeItem } from './storage'
import { addressKey, cellsOf, gameCheck, loadedPuzzle, puzzleShard, hint as engineHint, rate, solve, textOf, type Derived, type Hint } from './engine/engine'

// Sending needs the chain libraries: fetched when a solved board is offered for sending.
const Submit = lazy(() => import('./Submit').then((m) => ({ default: m.Submit })))

interface Snapshot {
  cells: string
  marks: number[]
}

interface Game {
  past: Snapshot[]
  now: Snapshot
  future: Snapshot[]
}

function storageKey(net: Network, app: string, address: string) {
  return `algoku:${net.name}:${app}:${address}`
}

/** A stored snapshot, or null when it is not one (givens always win over what was stored). */
function snapshot(saved: unknown, puzzle: string): Snapshot | null {
  const s = saved as Snapshot | null
  if (!s || typeof s.cells !== 'string' || s.cells.length !== 81 || !Array.isArray(s.marks) || s.marks.length !== 81) return null
  const cells = [...s.cells].map((c, i) => (puzzle[i] !== '.' ? puzzle[i] : /^[1-9.]$/.test(c) ? c : '.')).join('')
  return { cells, marks: s.marks.map((m) => (Number.isInteger(m) ? m & 511 : 0)) }
}

/** The game as stored: the grid, and its undo and redo history (kept across reloads and views). */
function load(key: string, puzzle: string): Game {
  const fresh = { cells: puzzle, marks: new Array(81).fill(0) }
  try {
    const saved = JSON.parse(readItem(key) ?? 'null') as (Snapshot & { past?: unknown[]; future?: unknown[] }) | null
    const now = snapshot(saved, puzzle)
    if (now) {
      const list = (xs: unknown) => (Array.isArray(xs) ? xs.map((x) => snapshot(x, puzzle)).filter((x): x is Snapshot => x !== null) : [])
      return { past: list(saved?.past).slice(-HISTORY), now, future: list(saved?.future).slice(0, HISTORY) }
    }
  } catch {
    /* a damaged entry: start afresh */
  }
  return { past: [], now: fresh, future: [] }
}

/** Undo steps kept (and stored) per puzzle. */
export const HISTORY = 200

export function Play({ net, address, app, signing, onChoose }: {
  net: Network
  address: string
  app: string
  signing: Signing
  onChoose: (address: string, app: string) => void
}) {
  const [formAddress, setFormAddress] = useState(address)
  const [formApp, setFormApp] = useState(app)
  useEffect(() => setFormAddress(address), [address])
  const valid = address !== '' && addressKey(address) !== null && isAppId(app)
  // A first visit plays at once: the practice puzzle until an address is chosen or a wallet connects.
  const practice = address === '' && isAppId(app)
  return (
    <>
      <details className="choose-fold" open={!valid && !practice}>
        <summary>{practice ? 'Play your own address’s puzzle' : 'Another address or app'}</summary>
        <form className="choose" onSubmit={(e) => { e.preventDefault(); onChoose(formAddress.trim(), formApp.trim()) }}>
          <label>Address <input name="address" value={formAddress} onChange={(e) => setFormAddress(e.target.value)} placeholder="58-character Algorand address" spellCheck={false} autoComplete="off" /></label>
          <label>Game app id <input name="app" value={formApp} onChange={(e) => setFormApp(e.target.value)} inputMode="numeric" /></label>
          <button type="submit">Show its puzzle</button>
        </form>
      </details>
      {(address !== '' || !isAppId(app)) && !valid && (
        <>
          <p role="alert" className="bad">Not a valid address or app id.</p>
          <p className="intro">Every Algorand address has its own 17-clue Sudoku on the Game app: type an address and the app id to see its puzzle.</p>
        </>
      )}
      {valid && <Game key={`${address}:${app}`} net={net} address={address} app={BigInt(app)} signing={signing} />}
      {practice && (
        <>
          <Intro />
          <Game key={`practice:${app}`} net={OFFLINE} address={PRACTICE} app={BigInt(app)} signing={{ address: null, signer: null }} practice />
        </>
      )}
    </>
  )
}

/** Runs `f` in the first task after the next frame is painted. */
function afterPaint(f: () => void) {
  requestAnimationFrame(() => {
    const channel = new MessageChannel()
    channel.port1.onmessage = f
    channel.port2.postMessage(null)
  })
}

/** Runs f and records how long it took as a performance measure (the browser tests read them). */
function timed<T>(name: string, f: () => T): T {
  const start = performance.now()
  const out = f()
  performance.measure(name, { start, end: performance.now() })
  return out
}


function Intro() {
  return <p className="intro">A practice puzzle to start. Every Algorand address has its own 17-clue Sudoku on the Game app: connect a wallet, or open “Play your own address’s puzzle”, to play yours and record your solve.</p>
}

type GameProps = { net: Network; address: string; app: bigint; signing: Signing; practice?: boolean }

/** The address's puzzle once its catalogue shard is here (the engine fetches it), then the board. */
function Game(props: GameProps) {
  const { address, app } = props
  const key = useMemo(() => addressKey(address)!, [address])
  // The first puzzle's shard is fetched before the page renders (main.tsx): then the board is drawn at once.
  const derive = () => timed('algoku:derive', () => loadedPuzzle(app, key))
  const [derived, setDerived] = useState<Derived | string | null>(derive)
  useEffect(() => {
    if (derived) return
    let live = true
    puzzleShard(app, key).then(
      () => live && setDerived(derive() ?? 'The puzzle could not be loaded: its catalogue shard is missing'),
      (e) => live && setDerived(`The puzzle could not be loaded: ${errorText(e)}`),
    )
    return () => { live = false }
  }, [app, key]) // eslint-disable-line react-hooks/exhaustive-deps
  if (typeof derived === 'string') return <p role="alert" className="bad" data-testid="puzzle-error">{derived}</p>
  if (!derived) return <p className="note" data-testid="puzzle-loading">Loading the puzzle…</p>
  return <GameBoard {...props} keyBytes={key} derived={derived} />
}

function GameBoard({ net, address, app, signing, practice = false, keyBytes: key, derived }: GameProps & { keyBytes: Uint8Array; derived: Derived }) {
  const puzzle = derived.puzzle
  const given = useMemo(() => cellsOf(puzzle), [puzzle])
  const store = storageKey(net, String(app), address)
  const [game, setGame] = useState<Game>(() => load(store, puzzle))
  const [selected, setSelected] = useState(() => given.findIndex((d) => d === 0))
  const [pencil, setPencil] = useState(false)
  const [hint, setHint] = useState<Hint | null>(null)
  const [recordVersion, setRecordVersion] = useState(0)
  const [sentHere, setSentHere] = useState(false)
  const cells = useMemo(() => cellsOf(game.now.cells), [game.now.cells])
  const check = useMemo(() => timed('algoku:check', () => gameCheck(app, key, cells)), [app, key, cells])
  const solver = useMemo(() => solve(given), [given])
  // The puzzle's difficulty (QQWing's level, Sudoku Explainer's score), rated once the board is up:
  // the rater's worker starts in a task of its own, after the board takes keys.
  const [difficulty, setDifficulty] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    const start = setTimeout(() => rate(given).then(
      (r) => live && setDifficulty(r.score ? `${r.level ?? 'unrated'}, SE ${r.score}` : r.verdict),
      (e) => live && setDifficulty(`not rated (${errorText(e)})`),
    ))
    return () => { live = false; clearTimeout(start) }
  }, [given])

  // On a node, the app must be the Game before its records are shown or a solve is sent to it.
  const checked = useNodeAnswer(net, `reading app ${app}`, async () => { const c = await chain(); return c.checkApp(c.algorandFor(net), app, c.GAME_SPEC) }, [app])
  const appCheck = !net.algod || checked?.ok ? 'ok' : checked ? checked.error : null
  // Read only from an app that runs the committed program.
  const record = useNodeAnswer(net, 'reading the record', async () => { const c = await chain(); return c.readRecord(c.algorandFor(net), app, address) }, [app, address, recordVersion],
    !practice && appCheck === 'ok')
  // Sending is offered once the record is read and shows no solve (or after this page's own send).
  // Offline, Submit says there is no node to send to.
  const offerSend = !practice && appCheck === 'ok' && check.verdict === true &&
    (!net.algod || sentHere || (record !== null && !(record.ok && record.value.round)))

  // Stored as it changes; another tab on the same puzzle follows (the `storage` event).
  const [kept, setKept] = useState(true)
  const elapsed = useRef(0)
  useEffect(() => {
    setKept(writeItem(store, JSON.stringify({ ...game.now, past: game.past.slice(-HISTORY), future: game.future.slice(0, HISTORY) })))
  }, [store, game])
  useEffect(() => {
    const follow = (e: StorageEvent) => { if (e.key === store && e.newValue) setGame(load(store, puzzle)) }
    window.addEventListener('storage', follow)
    return () => window.removeEventListener('storage', follow)
  }, [store, puzzle])
  // Interactive once drawn: marked by the first task after the frame that paints the board (its keys work from then).
  useLayoutEffect(() => afterPaint(() => performance.mark('algoku:ready')), [])

  const commit = useCallback((next: Snapshot) => {
    setGame((g) => (g.now.cells === next.cells && g.now.marks.every((m, i) => m === next.marks[i]) ? g : { past: [...g.past, g.now].slice(-HISTORY), now: next, future: [] }))
    setHint(null)
  }, [])

  const enter = useCallback((cell: number, digit: number) => {
    if (cell < 0 || given[cell]) return
    const now = game.now
    if (pencil && digit) {
      const marks = [...now.marks]
      marks[cell] ^= 1 << (digit - 1)
      commit({ cells: now.cells, marks })
      return
    }
    const cs = [...now.cells]
    cs[cell] = digit ? String(digit) : '.'
    const marks = [...now.marks]
    if (digit) {
      marks[cell] = 0
      // The digit is no longer a candidate of the cell's row, column and box: its marks there go.
      for (const peer of peersOf(cell)) marks[peer] &= ~(1 << (digit - 1))
    }
    commit({ cells: cs.join(''), marks })
  }, [game.now, given, pencil, commit])

  const undo = useCallback(() => setGame((g) => (g.past.length ? { past: g.past.slice(0, -1), now: g.past[g.past.length - 1], future: [g.now, ...g.future] } : g)), [])
  const redo = useCallback(() => setGame((g) => (g.future.length ? { past: [...g.past, g.now], now: g.future[0], future: g.future.slice(1) } : g)), [])
  // A hint comes from the rater's worker: shown only if the board is still the one it was asked about.
  const shown = useRef(game.now.cells)
  shown.current = game.now.cells
  const askHint = () => {
    const asked = game.now.cells
    void engineHint(given, cells).then((h) => {
      if (shown.current !== asked) return
      setHint(h)
      if ((h.kind === 'step' && h.cell >= 0) || h.kind === 'mistake') setSelected(h.cell)
    })
  }
  // "Check my entries": each digit typed against the puzzle's unique solution (the engine's solver).
  const [checked_entries, setCheckedEntries] = useState<{ at: string; wrong: Set<number>; text: string } | null>(null)
  const checkEntries = () => {
    const entries = [...game.now.cells].flatMap((c, i) => (c !== '.' && puzzle[i] === '.' ? [i] : []))
    if (solver.count !== 1 || !solver.solution) {
      setCheckedEntries({ at: game.now.cells, wrong: new Set(), text: 'This puzzle has no unique solution to check against.' })
      return
    }
    const wrong = new Set(entries.filter((i) => game.now.cells[i] !== solver.solution![i]))
    const text = !entries.length ? 'No entries to check yet.'
      : wrong.size ? `${wrong.size} of your ${entries.length} entries differ from the solution (marked).`
      : `All ${entries.length} of your entries agree with the solution.`
    setCheckedEntries({ at: game.now.cells, wrong, text })
  }
  const shownWrong = checked_entries && checked_entries.at === game.now.cells ? checked_entries.wrong : null
  const conflicts = useMemo(() => new Set(check.conflicts), [check.conflicts])
  const filled = [...game.now.cells].filter((c) => c !== '.').length
  // How many of each digit are still to place (nine of each in a solved grid).
  const left = useMemo(() => {
    const out = new Array(10).fill(9)
    for (const c of game.now.cells) if (c !== '.') out[Number(c)] -= 1
    return out.map((n) => Math.max(0, n))
  }, [game.now.cells])

  return (
    <section className="game" aria-label="Your puzzle">
      <p className="meta">
        <span>{practice ? 'Practice puzzle' : <>Puzzle of <span className="mono">{address.slice(0, 8)}…{address.slice(-4)}</span></>}</span>
        <span data-testid="difficulty">{difficulty ? `difficulty: ${difficulty}` : 'rating…'}</span>
      </p>
      <details className="details">
        <summary>Details</summary>
        <p className="meta">
          <span>address <span className="mono">{address}</span>, app {String(app)}</span>
          <span data-testid="catalogue">catalogue #{derived.index}{derived.transpose ? ', transposed' : ''}</span>
          <span data-testid="solver">solver: {solver.count === 1 ? 'one solution' : solver.count === 0 ? 'no solution' : 'several solutions'}</span>
        </p>
      </details>
      <div className="play">
        <Board puzzle={puzzle} cells={game.now.cells} marks={game.now.marks} selected={selected} conflicts={conflicts} wrong={shownWrong}
          highlight={hint && (hint.kind === 'step' || hint.kind === 'mistake') ? hint.cell : -1}
          onSelect={setSelected} onEnter={enter} onUndo={undo} onRedo={redo} onPencil={() => setPencil((p) => !p)} />
        {/* A press on the pad or the tools leaves the focus on the board: the keys keep working. */}
        <div className="side" onMouseDown={keepBoardFocus}>
          <div className="pad" role="group" aria-label="Digits">
            {[1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => (
              <button key={d} type="button" onClick={() => enter(selected, d)} disabled={left[d] === 0} data-left={left[d]}>
                {d}<small className="left"><span className="visually-hidden">, </span>{left[d]}<span className="visually-hidden"> left</span></small>
              </button>
            ))}
            <button type="button" className="erase" onClick={() => enter(selected, 0)}>Erase</button>
          </div>
          <div className="tools">
            <button type="button" aria-pressed={pencil} onClick={() => setPencil((p) => !p)}>Pencil {pencil ? 'on' : 'off'}</button>
            <button type="button" onClick={undo} disabled={!game.past.length}>Undo</button>
            <button type="button" onClick={redo} disabled={!game.future.length}>Redo</button>
            <button type="button" onClick={askHint} data-testid="hint-button">Hint</button>
            <button type="button" onClick={checkEntries} data-testid="check-entries">Check my entries</button>
            <button type="button" onClick={() => commit({ cells: puzzle, marks: new Array(81).fill(0) })}>Restart</button>
          </div>
          <Status filled={filled} check={check} hint={hint} />
          <Timer store={store} running={!check.verdict} elapsed={elapsed} />
          {!kept && <NotKept />}
          {checked_entries && <p data-testid="entries" className={checked_entries.wrong.size ? 'bad' : 'good'}>{checked_entries.text}</p>}
          {appCheck === null && <p className="note" data-testid="app-check">Checking app {String(app)}…</p>}
          {appCheck !== null && appCheck !== 'ok' && <p role="alert" className="bad" data-testid="app-refused">{appCheck}: nothing is read from it or sent to it.</p>}
          {!practice && appCheck === 'ok' && <RecordLine record={record} />}
          {offerSend && (
            <Loaded fallback={<p className="note">Loading the chain side…</p>}>
              <Submit net={net} app={app} address={address} signing={signing} cells={cells} onRecorded={() => { setSentHere(true); setRecordVersion((v) => v + 1) }} />
            </Loaded>
          )}
        </div>
      </div>
      {check.verdict === true && <Finish elapsed={elapsed} practice={practice} canSend={offerSend && Boolean(net.algod)} />}
      <p className="keys">Keys: arrows move, 1–9 enter, Backspace clears, P toggles pencil marks, Ctrl+Z / Ctrl+Y undo and redo.</p>
    </section>
  )
}

function Status({ filled, check, hint }: { filled: number; check: ReturnType<typeof gameCheck>; hint: Hint | null }) {
  return (
    <div className="status" aria-live="polite">
      <p>{filled} of 81 cells filled{check.conflicts.length ? `, ${check.conflicts.length} in conflict` : ''}.</p>
      {check.complete && (
        <p data-testid="verdict" className={check.verdict ? 'good' : 'bad'}>
          {check.verdict ? 'Solved: the contract would answer true.' : `The contract would answer false: ${check.reason}`}
        </p>
      )}
      {hint && (
        <p data-testid="hint">
          {hint.kind === 'step' && <>Next: <strong>{hint.technique}</strong> (SE {hint.score}): {hint.text}</>}
          {hint.kind === 'mistake' && <>Check {hint.text}.</>}
          {hint.kind === 'none' && <>No technique of the rater applies here.</>}
          {hint.kind === 'unsolvable' && <>This puzzle has no solution.</>}
          {hint.kind === 'error' && <>No hint: {hint.text}.</>}
        </p>
      )}
    </div>
  )
}

export { textOf }

/** What the app records of the address (read by simulation, free), as a line. */
function RecordLine({ record }: { record: Answer<SolveRecord> | null }) {
  if (!record) return null
  if (!record.ok) return <p data-testid="record">The app could not be read: {record.error}</p>
  const r = record.value
  return <p data-testid="record">{r.round ? `Already solved: round ${r.round}, rank ${r.rank} of ${r.solvers} solvers.` : `Not solved yet; ${r.solvers} solvers so far.`}</p>
}

/** A mouse press on a button does not take the focus from the board (the click still happens). */
function keepBoardFocus(e: MouseEvent) {
  if ((e.target as HTMLElement).closest('.pad button, .tools button') && document.activeElement?.closest('[role=grid]')) e.preventDefault()
}

/** The 20 cells that share a row, a column or a box with `cell`. */
function peersOf(cell: number): number[] {
  const r = Math.floor(cell / 9), c = cell % 9, br = r - (r % 3), bc = c - (c % 3)
  const out = new Set<number>()
  for (let k = 0; k < 9; k++) {
    out.add(r * 9 + k)
    out.add(k * 9 + c)
    out.add((br + Math.floor(k / 3)) * 9 + bc + (k % 3))
  }
  out.delete(cell)
  return [...out]
}

/** Said in a game's side panel when the browser refuses to store its progress (src/storage.ts). */
export function NotKept() {
  return <p className="note" role="status" data-testid="not-kept">This browser is not keeping your progress (its storage is blocked or full): it is lost on reload.</p>
}

/** The finish moment: fixed to the bottom of the viewport, so it is in view at every width. */
export function Finish({ elapsed, practice, canSend }: { elapsed: Elapsed; practice: boolean; canSend: boolean }) {
  const [open, setOpen] = useState(true)
  if (!open) return null
  const seconds = elapsed.current
  const time = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
  const toSubmit = () => document.querySelector('[data-testid=submit]')?.scrollIntoView({ block: 'center' })
  return (
    <div className="finish" role="status" data-testid="finish">
      <p><strong>Solved</strong> in {time}.{practice ? ' Enter your address above to play your own puzzle.' : ''}</p>
      {canSend && <button type="button" onClick={toSubmit}>Send to the chain</button>}
      <button type="button" onClick={() => setOpen(false)} aria-label="Close">Close</button>
    </div>
  )
}

/** The seconds a game's Timer has counted, for its Finish: a ref, so the board is not redrawn each second, and the
 * time is right even when the browser keeps nothing (src/storage.ts). */
export type Elapsed = { current: number }

/** Time spent on this puzzle (kept with it), paused while the page is hidden and once it is solved. */
export function Timer({ store, running, elapsed }: { store: string; running: boolean; elapsed: Elapsed }) {
  const key = `${store}:seconds`
  const [seconds, setSeconds] = useState(() => Number(readItem(key)) || 0)
  useEffect(() => {
    if (!running) return
    const tick = setInterval(() => {
      if (document.visibilityState === 'visible') setSeconds((s) => s + 1)
    }, 1000)
    return () => clearInterval(tick)
  }, [running])
  useEffect(() => void writeItem(key, String(seconds)), [key, seconds])
  // Set as it is drawn: both games draw their Timer before their Finish, which reads it.
  elapsed.current = seconds
  const mm = String(Math.floor(seconds / 60)).padStart(2, '0'), ss = String(seconds % 60).padStart(2, '0')
  return <p className="timer" data-testid="timer" aria-label={`time ${mm} minutes ${ss} seconds`}>{mm}:{ss}</p>
}
