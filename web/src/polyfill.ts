// algokit-utils (and the generated clients) call Node's Buffer at run time;
// the browser has none, so the `buffer` package stands in. Imported first.
import { Buffer } from 'buffer'

const g = globalThis as unknown as { Buffer?: typeof Buffer }
g.Buffer ??= Buffer
