// The rater (rater.wasm, rust/wasm/src/rater.rs) in a worker: rating a hard
// puzzle may take a while, and the board keeps taking keys meanwhile. A
// message is `{ id, fn: 'rate' | 'hint', input }`; the answer `{ id, answer }`
// (the module's JSON) or `{ id, error }`.
import raterUrl from './rater.wasm?url'
import { instantiate, json, put, type Buffers } from './boundary'

interface Rater extends Buffers {
  rate(len: number): number
  hint(len: number): number
}

const rater = instantiate<Rater>(raterUrl)
// A module that does not load fails each question with its reason (below), never unheard.
rater.catch(() => undefined)

self.onmessage = async (e: MessageEvent<{ id: number; fn: 'rate' | 'hint'; input: Uint8Array }>) => {
  const { id, fn, input } = e.data
  try {
    const x = await rater
    self.postMessage({ id, answer: json(x, x[fn](put(x, input))) })
  } catch (err) {
    self.postMessage({ id, error: err instanceof Error ? err.message : String(err) })
  }
}
