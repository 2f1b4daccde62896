import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { defineConfig, loadEnv, type HtmlTagDescriptor, type Plugin } from 'vite'
import { json, put, type Buffers } from './src/engine/boundary.ts'
import { appOrDefault } from './src/chain/network.ts'
import { PRACTICE } from './src/first.ts'

/**
 * What a first visit needs, asked for by the HTML itself so that it downloads
 * with the page's script: the board's WebAssembly, and the catalogue shard of
 * the practice puzzle on the build's default app (the engine, run here at
 * build time, names it; a visit to another puzzle fetches its own as well).
 */
function preloadFirstView(defaultApp: bigint): Plugin {
  const preload = (href: string, type: string): HtmlTagDescriptor =>
    ({ tag: 'link', attrs: { rel: 'preload', as: 'fetch', type, crossorigin: '', href }, injectTo: 'head' })
  return {
    name: 'algoku-preload-first-view',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const [name, asset] = Object.entries(ctx.bundle ?? {}).find(([f]) => /\/algoku-[^/]*\.wasm$/.test(f)) ?? []
        if (!name || !asset || asset.type !== 'asset') return []
        const x = new WebAssembly.Instance(new WebAssembly.Module(asset.source as Uint8Array), {}).exports as unknown as Buffers & {
          address_key(len: number): number
          game_shard(app: bigint, len: number): number
        }
        const { key } = json<{ key: number[] }>(x, x.address_key(put(x, new TextEncoder().encode(PRACTICE))))
        const { shard } = json<{ shard: number }>(x, x.game_shard(defaultApp, put(x, Uint8Array.from(key))))
        return [preload(`./${name}`, 'application/wasm'), preload(`./catalogue/${String(shard).padStart(3, '0')}.bin`, 'application/octet-stream')]
      },
    },
  }
}

/**
 * The page's icon, written into the HTML as a data URL: a 32×32 PNG
 * (src/favicon.png, drawn from src/favicon.svg by scripts/icon.mjs). A linked
 * icon is fetched and decoded once the page has loaded, while the board is
 * still being drawn; this one costs no request and next to no decoding.
 */
function inlineIcon(): Plugin {
  return {
    name: 'algoku-inline-icon',
    transformIndexHtml() {
      const png = readFileSync(new URL('./src/favicon.png', import.meta.url)).toString('base64')
      return [{ tag: 'link', attrs: { rel: 'icon', type: 'image/png', sizes: '32x32', href: `data:image/png;base64,${png}` }, injectTo: 'head' }]
    },
  }
}

/**
 * The first view's script runs nearly all of its functions before the board
 * takes keys: V8's compile hint (`//# allFunctionsCalledOnLoad`, Chromium 136
 * on) has the whole file compiled as it streams in, off the main thread, rather
 * than each function on the main thread at its first call. Other engines read a
 * comment. Written into the file once it is out, so that the hint is its first
 * line whatever the bundler adds at the top.
 */
function compileEntryEagerly(): Plugin {
  return {
    name: 'algoku-compile-entry-eagerly',
    writeBundle(options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry || !options.dir) continue
        const file = path.join(options.dir, chunk.fileName)
        writeFileSync(file, `//# allFunctionsCalledOnLoad\n${readFileSync(file, 'utf8')}`)
      }
    },
  }
}

// Wallet SDKs that @txnlab/use-wallet imports only when such a wallet is
// configured; the page configures Pera, Defly, Lute, KMD and a mnemonic
// (LocalNet testing): the others stay out of the build.
const unused = [
  '@walletconnect/sign-client',
  '@walletconnect/modal',
  '@agoralabs-sh/avm-web-provider',
  '@magic-ext/algorand',
  'magic-sdk',
  '@web3auth/modal',
  '@web3auth/base',
  '@web3auth/base-provider',
  '@web3auth/single-factor-auth',
]

// React's API served by Preact (preact/compat): the same components and hooks,
// a tenth of the code to fetch and evaluate before the board is drawn.
const preact = {
  react: 'preact/compat',
  'react-dom/test-utils': 'preact/test-utils',
  'react-dom/client': 'preact/compat/client',
  'react-dom': 'preact/compat',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-dev-runtime',
}

export default defineConfig(({ mode }) => ({
  base: './',
  resolve: { alias: preact },
  // The practice puzzle's app: the offline network's default, as the page reads it.
  plugins: [inlineIcon(), compileEntryEagerly(), preloadFirstView(appOrDefault(loadEnv(mode, process.cwd(), 'VITE_').VITE_GAME_APP_OFFLINE))],
  build: {
    target: 'es2022',
    sourcemap: false,
    rollupOptions: { external: unused },
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
}))
