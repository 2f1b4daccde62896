// A part of the page loaded on demand (a chunk: the chain side, the 8×8 game,
// the verifier, a submit panel) that the host fails to serve: a line in its
// place, never a blank page or an uncaught error.
import { Component, type ReactNode } from 'react'

/** A part of the page that could not be loaded (a chunk the host did not serve): a line in its place, never a blank page. */
export class Loaded extends Component<{ children: ReactNode }, { failed: string | null }> {
  state = { failed: null as string | null }
  static getDerivedStateFromError(e: unknown) {
    return { failed: e instanceof Error ? e.message : String(e) }
  }
  render() {
    if (this.state.failed) return <p role="alert" className="bad" data-testid="load-error">This part of the page could not be loaded ({this.state.failed.split('\n')[0].slice(0, 200)}). Reload to try again.</p>
    return this.props.children
  }
}
