// The engine's WebAssembly and the first puzzle's catalogue shard are fetched
// while the page's code is evaluated; the page renders once both are in, with
// the board in its first render. The player's theme is applied before it.
import { loadEngine, prefetchPuzzle } from './engine/engine'
import { firstPuzzle } from './first'
import { render } from './Root'
import { applyTheme, chosenTheme } from './theme'
import './styles.css'

const first = firstPuzzle(new URLSearchParams(window.location.search))
const root = document.getElementById('root')!
const loaded = loadEngine().then(() => first && prefetchPuzzle(first.app, first.address))
// While they download: the player's theme (so the page's storage opens now, not in the first render).
applyTheme(chosenTheme())
loaded.then(
  () => render(root),
  (e) => {
    const p = document.createElement('p')
    p.setAttribute('role', 'alert')
    p.textContent = `The engine could not load: ${String(e)}`
    root.replaceChildren(p)
  },
)
