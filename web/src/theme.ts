// Light or dark: the system's preference (CSS) until the player picks one with
// the header's toggle, kept on this device as data-theme on <html>. main.tsx
// applies a kept choice before the first render, so a page never flashes the
// other theme (and the page's storage is opened while the engine downloads,
// not during the first render).

import { readItem, writeItem } from './storage'

const KEY = 'algoku:theme'

/** The theme the player picked on this device, or null (then the system's preference holds). */
export function chosenTheme(): 'light' | 'dark' | null {
  const t = readItem(KEY)
  return t === 'light' || t === 'dark' ? t : null
}

/** The theme shown now: the player's choice, else the system's preference. */
export function shownTheme(): 'light' | 'dark' {
  return chosenTheme() ?? (window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light')
}

/** Shows `theme` and, when `keep`, keeps it as the player's choice. */
export function applyTheme(theme: 'light' | 'dark' | null, keep = false) {
  if (theme) document.documentElement.dataset.theme = theme
  if (keep && theme) writeItem(KEY, theme) // refused: it holds for this page only
}
