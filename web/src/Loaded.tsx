// A part of the page loaded on demand (a chunk: the chain side, the 8×8 game,
// the verifier, a submit panel): a line while it loads, and one in its place if
// the host fails to serve it, never a blank page or an uncaught error.
import { Component, Suspense, type ReactNode } from 'react'

/** A part of the page loaded on demand: `fallback` while it loads, and if it could not be loaded (a chunk the host did not serve) a line in its place, never a blank page. */
export class Loaded extends Component<{ children: ReactNode; fallback: ReactNode }, { failed: string | null }> {
  state = { failed: null as string | null }
  static getDerivedStateFromError(e: unknown) {
    return { failed: e instanceof Error ? e.message : String(e) }
  }
  render() {
    if (this.state.failed) return <p role="alert" className="bad" data-testid="load-error">This part of the page could not be loaded ({this.state.failed.split('\n')[0].slice(0, 200)}). Reload to try again.</p>
    return <Suspense fallback={this.props.fallback}>{this.props.children}</Suspense>
  }
}
