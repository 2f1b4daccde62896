// Reading from the page's node inside a component: the one place that runs a
// read under the page's timeout, keeps its answer or its error's text, and
// drops an answer that comes back after the component moved on.
import { useEffect, useState, type DependencyList } from 'react'
import { errorText, WAIT, withTimeout, type Network } from './network'

export type Answer<T> = { ok: true; value: T } | { ok: false; error: string }

/**
 * `ask`'s answer from `net`'s node, asked again when `net` or `deps` change;
 * null until it comes (an answer to older `deps` is never shown, so nothing
 * stale flashes), always null without a node or while `enabled` is false.
 * `what` names the read in a timeout's error.
 */
export function useNodeAnswer<T>(net: Network, what: string, ask: () => Promise<T>, deps: DependencyList, enabled = true): Answer<T> | null {
  const [answer, setAnswer] = useState<{ key: string; value: Answer<T> } | null>(null)
  const key = deps.map(String).join('\u0000')
  useEffect(() => {
    if (!net.algod || !enabled) return
    let live = true
    withTimeout(ask(), WAIT.read, what).then(
      (value) => live && setAnswer({ key, value: { ok: true, value } }),
      (e) => live && setAnswer({ key, value: { ok: false, error: errorText(e) } }),
    )
    return () => { live = false }
  }, [net, enabled, key]) // eslint-disable-line react-hooks/exhaustive-deps
  return enabled && answer && answer.key === key ? answer.value : null
}
