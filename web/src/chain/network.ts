// Where the page talks to: no node (offline: the engine answers everything but
// sending), LocalNet (or any algod given as ?algod=URL, e.g. a test's loopback
// adapter), TestNet or MainNet through public algod endpoints.
import { env } from '../env.ts'

export type NetworkName = 'offline' | 'localnet' | 'testnet' | 'mainnet'

export interface Network {
  name: NetworkName
  /** algod base URL, null offline. */
  algod: string | null
  token: string
  /** The Game app's id on this network, when the URL does not give one. */
  defaultApp: bigint
  /** The Curta app's id on this network (`?game=curta`), when the URL does not give one. */
  defaultCurtaApp: bigint
}

const LOCALNET_TOKEN = 'a'.repeat(64)

/**
 * The Game app's id on each network, from the build's configuration (whoever
 * deploys the page sets them: `VITE_GAME_APP_TESTNET=…` and so on at `vite build`;
 * the Curta app's: `VITE_CURTA_APP_TESTNET=…`), else 1000; a URL's `&app=N` wins
 * over both.
 */
function configuredApp(name: NetworkName, game = 'GAME'): bigint {
  return appOrDefault(env[`VITE_${game}_APP_${name.toUpperCase()}`])
}

/** A configured app id, else 1000 (also read by vite.config.ts at build time). */
export function appOrDefault(raw: string | undefined): bigint {
  return raw && isAppId(raw) ? BigInt(raw) : 1000n
}

/** No node: what the page falls back to when it refuses one. */
export const OFFLINE: Network = { name: 'offline', algod: null, token: '', defaultApp: configuredApp('offline'), defaultCurtaApp: configuredApp('offline', 'CURTA') }

export function networkFrom(params: URLSearchParams): Network {
  const raw = params.get('network') ?? 'offline'
  const name: NetworkName = ['offline', 'localnet', 'testnet', 'mainnet'].includes(raw) ? (raw as NetworkName) : 'offline'
  const override = params.get('algod')
  const base: Record<NetworkName, string | null> = {
    offline: null,
    localnet: 'http://localhost:4001',
    testnet: 'https://testnet-api.algonode.cloud',
    mainnet: 'https://mainnet-api.algonode.cloud',
  }
  return {
    name,
    algod: name === 'offline' ? null : (override ?? base[name]),
    token: name === 'localnet' ? (params.get('token') ?? LOCALNET_TOKEN) : '',
    defaultApp: configuredApp(name),
    defaultCurtaApp: configuredApp(name, 'CURTA'),
  }
}

/** Splits an algod URL into what algokit-utils' config takes. */
export function algodConfig(net: Network) {
  const url = new URL(net.algod ?? 'http://localhost')
  return {
    server: `${url.protocol}//${url.hostname}`,
    port: url.port || (url.protocol === 'https:' ? 443 : 80),
    token: net.token,
  }
}

/** An app id: digits that fit a uint64 (a larger number would wrap in the engine to another app's puzzle). */
export function isAppId(text: string): boolean {
  return /^\d{1,20}$/.test(text) && BigInt(text) < 1n << 64n
}

/** How long the page waits for a node: a read, a simulation, a send and its confirmation. */
export const WAIT = { read: 15_000, simulate: 30_000, send: 90_000 }

/** `p`, or an error naming `what` once `ms` pass without an answer: a silent node never hangs the page. */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer from the node within ${ms / 1000} s`)), ms)
  })
  return Promise.race([p, late]).finally(() => clearTimeout(timer))
}

/** An error's first line, at most 400 characters: what the page shows of a node's or a wallet's failure. */
export function errorText(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e)
  return text.split('\n')[0].slice(0, 400)
}
