// A page with a node: the wallet provider, mounted once at its top (as in
// AlgoKit's template), then the node check. Loaded on demand, so a page with
// no node never fetches the wallets or the chain libraries.
import type { JSX } from 'react'
import { chain } from './chain/load'
import { OFFLINE, type Network } from './chain/network'
import { useNodeAnswer } from './chain/useNode'
import { WalletBar, Wallets, useWallet, type Signing } from './wallet'

/** The page's body: who signs, the wallet bar, the network shown and the node's genesis id. */
type Body = (s: Signing, bar: ((on: (a: string) => void) => JSX.Element) | undefined, shown: Network, genesis?: string) => JSX.Element

export default function Online({ net, body }: { net: Network; body: Body }) {
  return (
    <Wallets net={net}>
      <Checked net={net} body={body} />
    </Wallets>
  )
}

/** A node is believed only once its genesis id fits the page's network (chain/checks.ts). */
function Checked({ net, body }: { net: Network; body: Body }) {
  const { activeAddress, transactionSigner } = useWallet()
  const node = useNodeAnswer(net, "reading the node's network", async () => { const c = await chain(); return c.checkNode(c.algorandFor(net), net) }, [])
  if (!node) return <p className="note" data-testid="node-check">Checking the node at {net.algod}…</p>
  if (!node.ok) {
    return (
      <>
        <p role="alert" className="bad" data-testid="node-refused">The node is not used: {node.error}. Nothing is read from it or sent to it; the page works offline.</p>
        {body({ address: null, signer: null }, undefined, OFFLINE)}
      </>
    )
  }
  return body({ address: activeAddress, signer: activeAddress ? transactionSigner : null }, (on) => <WalletBar onAddress={on} />, net, node.value)
}
