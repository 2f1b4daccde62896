// Which 9×9 puzzle a URL opens with: read here by the page (its first state)
// and by main.tsx, which fetches that puzzle's catalogue shard while React
// loads, so the first render already shows the board.
import { isAppId, networkFrom } from './chain/network.ts'

/** The puzzle a first visit plays: the zero address's (it belongs to no one, so no solve is sent for it). */
export const PRACTICE = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ'

/** The address (empty for the practice puzzle) and app id the 9×9 view opens with. */
export function opening(params: URLSearchParams): { address: string; app: string } {
  return { address: params.get('address') ?? '', app: params.get('app') ?? String(networkFrom(params).defaultApp) }
}

/** The puzzle shown first (address and app id), or null when the URL opens another view or names no puzzle. */
export function firstPuzzle(params: URLSearchParams): { address: string; app: bigint } | null {
  if (params.get('view') === 'verify' || params.get('game') === 'curta') return null
  const { address, app } = opening(params)
  return isAppId(app) ? { address: address || PRACTICE, app: BigInt(app) } : null
}
