// Wallets through @txnlab/use-wallet: Pera, Defly and Lute on TestNet and
// MainNet, KMD on LocalNet, and a mnemonic on LocalNet only (a test account).
import { NetworkConfigBuilder, NetworkId, WalletId, WalletManager, WalletProvider, useWallet } from '@txnlab/use-wallet-react'
import type { ReactNode } from 'react'
import { useMemo, useState } from 'react'
import type algosdk from 'algosdk'
import { algodConfig, type Network } from './chain/network'

/** Who signs: the connected wallet's address and signer (null when none is connected). */
export interface Signing {
  address: string | null
  signer: algosdk.TransactionSigner | null
}

export function Wallets({ net, children }: { net: Network; children: ReactNode }) {
  const manager = useMemo(() => {
    const local = net.name === 'localnet'
    const a = algodConfig(net)
    const networks = new NetworkConfigBuilder().localnet({ algod: { baseServer: a.server, port: a.port, token: a.token } }).build()
    return new WalletManager({
      wallets: local
        ? [WalletId.KMD, WalletId.MNEMONIC]
        : [WalletId.PERA, WalletId.DEFLY, { id: WalletId.LUTE, options: { siteName: 'Algoku' } }],
      networks,
      defaultNetwork: local ? NetworkId.LOCALNET : net.name === 'mainnet' ? NetworkId.MAINNET : NetworkId.TESTNET,
    })
  }, [net])
  return <WalletProvider manager={manager}>{children}</WalletProvider>
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
      {failure && <p role="alert" className="bad" data-testid="wallet-error">{failure}</p>}
    </div>
  )
}

export { useWallet }
