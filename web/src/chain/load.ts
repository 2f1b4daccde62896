// The chain side (algosdk, algokit-utils, the typed clients: most of the page's
// JavaScript) is fetched the first time a page with a node asks for it.
export type Chain = typeof import('./index')

export function chain(): Promise<Chain> {
  return import('./index')
}
