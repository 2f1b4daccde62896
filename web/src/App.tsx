// The page: a header (views, network, wallet), then the board of the chosen
// address (Play: the 9×9 game, or the 8×8 "2 × 4 = 8" with ?game=curta) or
// the grid verifier (Verify). Everything the page shows is in the URL:
// ?address=A&app=N&network=offline|localnet|testnet|mainnet (&algod=URL for
// another node, &view=verify, &game=curta).
//
// What a first view needs (the page's components, the board, the engine)
// loads first; the chain side (wallets, algosdk, algokit-utils) only on a page
// with a node (Online.tsx), and the 8×8 game and the verifier when they are
// opened. A part that fails to load says so in its place.
import { lazy, useEffect, useMemo, useState, type JSX } from 'react'
import { Loaded } from './Loaded'
import { networkFrom, type Network } from './chain/network'
import { opening } from './first'
import { Play } from './Play'
import { applyTheme, shownTheme } from './theme'
import type { Signing } from './wallet'

const Online = lazy(() => import('./Online'))
const CurtaPlay = lazy(() => import('./Curta').then((m) => ({ default: m.CurtaPlay })))
const Verify = lazy(() => import('./Verify').then((m) => ({ default: m.Verify })))

function params(): URLSearchParams {
  return new URLSearchParams(window.location.search)
}

/** Sets or removes one parameter of the page's URL; the history entry is rewritten only when the URL changes (a bare `?` never). */
function setParam(key: string, value: string | null) {
  const p = params()
  if (value === null || value === '') p.delete(key)
  else p.set(key, value)
  const search = p.toString()
  if (search === window.location.search.replace(/^\?/, '')) return
  window.history.replaceState(null, '', search ? `${window.location.pathname}?${search}` : window.location.pathname)
}

const loading = <p className="note" data-testid="loading">Loading…</p>

export function App() {
  const initial = useMemo(params, [])
  const net: Network = useMemo(() => networkFrom(initial), [initial])
  const [view, setView] = useState(initial.get('view') === 'verify' ? 'verify' : 'play')
  const [game, setGame] = useState(initial.get('game') === 'curta' ? 'curta' : 'sudoku')
  const curtaApp = initial.get('game') === 'curta' && initial.get('app') ? initial.get('app')! : String(net.defaultCurtaApp)
  useEffect(() => setParam('game', game === 'curta' ? 'curta' : null), [game])
  const [address, setAddress] = useState(() => opening(initial).address)
  const [app, setApp] = useState(() => opening(initial).app)
  useEffect(() => setParam('view', view === 'verify' ? 'verify' : null), [view])

  const body = (s: Signing, bar?: (on: (a: string) => void) => JSX.Element, shown: Network = net, genesis?: string) => (
    <>
      <header className="top">
        <h1>Algoku</h1>
        <nav aria-label="Views">
          <button type="button" aria-pressed={view === 'play' && game === 'sudoku'} onClick={() => { setView('play'); setGame('sudoku') }}>Play</button>
          <button type="button" aria-pressed={view === 'play' && game === 'curta'} onClick={() => { setView('play'); setGame('curta') }} data-testid="game-curta">2 × 4 = 8</button>
          <button type="button" aria-pressed={view === 'verify'} onClick={() => setView('verify')}>Verify a grid</button>
        </nav>
        <span className={`net net-${shown.name}`} data-testid="network">
          {shown.algod ? `${shown.name} (${shown.algod}, genesis ${genesis ?? '?'})` : 'offline: no node, nothing is sent'}
        </span>
        <ThemeToggle />
        {bar?.((a) => { setAddress(a); setParam('address', a) })}
      </header>
      <main>
        <Loaded key={`${view}:${game}`} fallback={loading}>
        {view === 'play' && game === 'curta' ? (
          <CurtaPlay net={shown} address={address} app={curtaApp} signing={s} />
        ) : view === 'play' ? (
          <Play net={shown} address={address} app={app} signing={s}
            onChoose={(a, n) => { setAddress(a); setApp(n); setParam('address', a); setParam('app', n) }} />
        ) : (
          <Verify net={shown} app={initial.get('algoku') ?? ''} signing={s} />
        )}
        </Loaded>
      </main>
    </>
  )
  if (!net.algod) return body({ address: null, signer: null })
  return (
    <Loaded fallback={<p className="note" data-testid="node-check">Checking the node at {net.algod}…</p>}>
      <Online net={net} body={body} />
    </Loaded>
  )
}

/** Light or dark (src/theme.ts): the system's preference until the player picks one. */
function ThemeToggle() {
  const [theme, setTheme] = useState(shownTheme)
  const flip = () => {
    const next = theme === 'dark' ? 'light' : 'dark'
    applyTheme(next, true)
    setTheme(next)
  }
  return (
    <button type="button" aria-pressed={theme === 'dark'} onClick={flip} data-testid="theme" title="Dark theme">
      Dark
    </button>
  )
}
