// Node's globals that browser bundles of wallet and chain libraries expect:
// algokit-utils (and the generated clients) call Buffer at run time, and the
// wallet SDKs (Pera, Defly through WalletConnect) read `global` as they load,
// which browsers do not define. Imported first by the modules that bring them in
// (wallet.tsx, chain/game.ts, chain/curta.ts), so a page with no node never loads it.
import { Buffer } from 'buffer'

const g = globalThis as unknown as { Buffer?: typeof Buffer; global?: typeof globalThis }
g.Buffer ??= Buffer
g.global ??= globalThis
