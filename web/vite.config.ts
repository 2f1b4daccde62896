import { defineConfig } from 'vite'

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

export default defineConfig({
  base: './',
  build: {
    target: 'es2022',
    sourcemap: false,
    rollupOptions: { external: unused },
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
})
