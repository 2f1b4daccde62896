// Reading from the page's node inside a component: the one place that runs a
// read under the page's timeout, keeps its answer or its error's text, and
// drops an answer that comes back after the component moved on.
import { useEffect, useState, type DependencyList } from 'react'
import { errorText } from './game'
import { WAIT, withTimeout, type Network } from './network'

export type Answer<T> = { ok: true; value: T } | { ok: false; error: string }

/**
 * `ask`'s answer from `net`'s node, asked again when `net` or `deps` change;
 * null until it comes, and always null without a node. `what` names the read
 * in a timeout's error.
 */
export function useNodeAnswer<T>(net: Network, what: string, ask: () => Promise<T>, deps: DependencyList): Answer<T> | null {
  const [answer, setAnswer] = useState<Answer<T> | null>(null)
  useEffect(() => {
    if (!net.algod) return
    let live = true
    withTimeout(ask(), WAIT.read, what).then(
      (value) => live && setAnswer({ ok: true, value }),
      (e) => live && setAnswer({ ok: false, error: errorText(e) }),
    )
    return () => { live = false }
  }, [net, ...deps]) // eslint-disable-line react-hooks/exhaustive-deps
  return answer
}
