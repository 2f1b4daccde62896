import { defineConfig, type Plugin } from 'vite'

// The board's WebAssembly is asked for by the HTML itself, so its download
// starts with the page's script instead of after it.
function preloadEngine(): Plugin {
  return {
    name: 'algoku-preload-engine',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const wasm = Object.keys(ctx.bundle ?? {}).find((f) => /\/algoku-[^/]*\.wasm$/.test(f))
        return wasm ? [{ tag: 'link', attrs: { rel: 'preload', as: 'fetch', type: 'application/wasm', crossorigin: '', href: `./${wasm}` }, injectTo: 'head' }] : []
      },
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

export default defineConfig({
  base: './',
  resolve: { alias: preact },
  plugins: [preloadEngine()],
  build: {
    target: 'es2022',
    sourcemap: false,
    rollupOptions: { external: unused },
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
})
