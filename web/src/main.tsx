// The engine's WebAssembly and the first puzzle's catalogue shard are fetched
// while the page's code is evaluated; the page renders once both are in, with
// the board in its first render.
import { loadEngine, prefetchPuzzle } from './engine/engine'
import { firstPuzzle } from './first'
import { render } from './Root'
import './styles.css'

const first = firstPuzzle(new URLSearchParams(window.location.search))
const root = document.getElementById('root')!
loadEngine()
  .then(() => first && prefetchPuzzle(first.app, first.address))
  .then(
    () => render(root),
    (e) => {
      const p = document.createElement('p')
      p.setAttribute('role', 'alert')
      p.textContent = `The engine could not load: ${String(e)}`
      root.replaceChildren(p)
    },
  )
