// Wallets through @txnlab/use-wallet: Pera, Defly and Lute on TestNet and
// MainNet, KMD on LocalNet (its URL, token and wallet set in a form), and a
// mnemonic on LocalNet only (a test account, kept on the device so a reload
// stays connected). A wallet's questions (a password, a mnemonic) are asked
// on the page, never with window.prompt.
import './polyfill'
import { NetworkConfigBuilder, NetworkId, WalletId, WalletManager, WalletProvider, useWallet } from '@txnlab/use-wallet-react'
import type { ReactNode } from 'react'
import { createContext, useContext, useEffect, useMemo, useState } from 'react'
import type algosdk from 'algosdk'
import { algodConfig, type Network } from './chain/network'
import { readItem, writeItem } from './storage'

/** Who signs: the connected wallet's address and signer (null when none is connected). */
export interface Signing {
  address: string | null
  signer: algosdk.TransactionSigner | null
}

/** Where the page's KMD wallet connects on LocalNet (kept on this device; the password never is). */
export interface KmdSettings {
  url: string
  token: string
  wallet: string
}

const KMD_KEY = 'algoku:kmd'

/** LocalNet's KMD: port 4002 on the algod's host, its token and its funded default wallet. */
function defaultKmd(net: Network): KmdSettings {
  const a = algodConfig(net)
  return { url: `${a.server}:4002`, token: 'a'.repeat(64), wallet: 'unencrypted-default-wallet' }
}

function loadKmd(net: Network): KmdSettings {
  try {
    const saved = JSON.parse(readItem(KMD_KEY) ?? 'null') as Partial<KmdSettings> | null
    const d = defaultKmd(net)
    return { url: saved?.url || d.url, token: saved?.token ?? d.token, wallet: saved?.wallet || d.wallet }
  } catch {
    return defaultKmd(net)
  }
}

/** An http(s) URL, or null. */
function kmdUrl(text: string): URL | null {
  try {
    const u = new URL(text)
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : null
  } catch {
    return null
  }
}

/** Answers the wallets' questions on the page (never `window.prompt`): the pending one, if any. */
type Question = { label: string; secret: boolean; answer: (text: string | null) => void }
let ask: ((q: Question) => void) | null = null
function question(label: string, secret: boolean): Promise<string | null> {
  return new Promise((resolve) => (ask ? ask({ label, secret, answer: resolve }) : resolve(null)))
}

export function Wallets({ net, children }: { net: Network; children: ReactNode }) {
  const [kmd, setKmd] = useState(() => loadKmd(net))
  const manager = useMemo(() => {
    const local = net.name === 'localnet'
    const a = algodConfig(net)
    const networks = new NetworkConfigBuilder().localnet({ algod: { baseServer: a.server, port: a.port, token: a.token } }).build()
    const k = kmdUrl(kmd.url) ?? new URL(defaultKmd(net).url)
    return new WalletManager({
      wallets: local
        ? [
            { id: WalletId.KMD, options: { baseServer: `${k.protocol}//${k.hostname}`, port: k.port || (k.protocol === 'https:' ? 443 : 80), token: kmd.token, wallet: kmd.wallet,
              promptForPassword: async () => (await question(`Password of the KMD wallet ${kmd.wallet} (empty for LocalNet's)`, true)) ?? '' } },
            // LocalNet only: a test account's mnemonic, kept on this device so a reload stays connected.
            { id: WalletId.MNEMONIC, options: { persistToStorage: true, promptForMnemonic: () => question('25-word mnemonic of a LocalNet test account', true) } },
          ]
        : [WalletId.PERA, WalletId.DEFLY, { id: WalletId.LUTE, options: { siteName: 'Algoku' } }],
      networks,
      defaultNetwork: local ? NetworkId.LOCALNET : net.name === 'mainnet' ? NetworkId.MAINNET : NetworkId.TESTNET,
    })
  }, [net, kmd])
  const saveKmd = (k: KmdSettings) => {
    writeItem(KMD_KEY, JSON.stringify(k)) // refused: the settings hold for this page only
    setKmd(k)
  }
  return <WalletProvider manager={manager}><KmdContext.Provider value={{ kmd, saveKmd }}>{children}</KmdContext.Provider></WalletProvider>
}

const KmdContext = createContext<{ kmd: KmdSettings; saveKmd: (k: KmdSettings) => void } | null>(null)

/** The question a wallet asks, as a form on the page. */
function Ask() {
  const [q, setQ] = useState<Question | null>(null)
  const [text, setText] = useState('')
  useEffect(() => {
    ask = (next) => { setText(''); setQ(next) }
    return () => { ask = null }
  }, [])
  if (!q) return null
  const done = (answer: string | null) => { q.answer(answer); setQ(null) }
  return (
    <form className="ask" data-testid="wallet-ask" onSubmit={(e) => { e.preventDefault(); done(text) }}>
      <label>{q.label} <input type={q.secret ? 'password' : 'text'} value={text} onChange={(e) => setText(e.target.value)} autoComplete="off" autoFocus /></label>
      <button type="submit">OK</button>
      <button type="button" onClick={() => done(null)}>Cancel</button>
    </form>
  )
}

/** LocalNet's KMD: where it is, its token and wallet. */
function KmdForm() {
  const ctx = useContext(KmdContext)
  const [open, setOpen] = useState(false)
  const [bad, setBad] = useState<string | null>(null)
  if (!ctx) return null
  return (
    <details className="kmd" open={open} onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary>KMD settings</summary>
      <form data-testid="kmd-form" onSubmit={(e) => {
        e.preventDefault()
        const f = new FormData(e.currentTarget)
        const url = String(f.get('url')).trim()
        if (!kmdUrl(url)) return setBad(`not an http(s) URL: ${url}`)
        setBad(null)
        ctx.saveKmd({ url, token: String(f.get('token')).trim(), wallet: String(f.get('wallet')).trim() })
        setOpen(false)
      }}>
        <label>KMD URL <input name="url" defaultValue={ctx.kmd.url} spellCheck={false} /></label>
        <label>Token <input name="token" defaultValue={ctx.kmd.token} spellCheck={false} /></label>
        <label>Wallet <input name="wallet" defaultValue={ctx.kmd.wallet} spellCheck={false} /></label>
        <button type="submit">Save</button>
        {bad && <p role="alert" className="bad" data-testid="kmd-error">{bad}</p>}
      </form>
    </details>
  )
}

/** Connect / disconnect buttons; the connected address is what the board plays. */
export function WalletBar({ onAddress }: { onAddress: (a: string) => void }) {
  const { wallets, activeAddress, activeWallet } = useWallet()
  const [failure, setFailure] = useState<string | null>(null)
  // Every wallet failure is a line on the page (a closed dialog, no wallet app, no KMD), never an uncaught error.
  const connect = async (w: (typeof wallets)[number]) => {
    setFailure(null)
    try {
      const accounts = await w.connect()
      if (accounts[0]) onAddress(accounts[0].address)
    } catch (e) {
      setFailure(`${w.metadata.name} did not connect: ${e instanceof Error ? e.message : String(e)}`)
    }
  }
  if (activeAddress && activeWallet) {
    return (
      <div className="wallet">
        <span className="mono" title={activeAddress}>{activeWallet.metadata.name}: {activeAddress.slice(0, 6)}…{activeAddress.slice(-4)}</span>
        <button type="button" onClick={() => onAddress(activeAddress)}>Play this address</button>
        <button type="button" onClick={() => activeWallet.disconnect()}>Disconnect</button>
        <Ask />
      </div>
    )
  }
  return (
    <div className="wallet">
      {wallets.map((w) => (
        <button key={w.id} type="button" onClick={() => void connect(w)}>
          Connect {w.metadata.name}
        </button>
      ))}
      {wallets.some((w) => w.id === WalletId.KMD) && <KmdForm />}
      <Ask />
      {failure && <p role="alert" className="bad" data-testid="wallet-error">{failure}</p>}
    </div>
  )
}

export { useWallet }
