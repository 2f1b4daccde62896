// The page's one door to localStorage (games in progress, their timers, the
// theme, the KMD settings). A browser may refuse it (site data blocked: every
// access throws) or be full (a write throws): the page then plays on, keeps
// nothing, and the games say that progress is not being kept.

/** The text stored under `key`, or null (nothing there, or storage refused). */
export function readItem(key: string): string | null {
  try {
    return localStorage.getItem(key)
  } catch {
    return null
  }
}

/** Stores `value` under `key` (untouched when it is there already, so other tabs hear of changes only); false when the browser refused it. */
export function writeItem(key: string, value: string): boolean {
  try {
    if (localStorage.getItem(key) !== value) localStorage.setItem(key, value)
    return true
  } catch {
    return false
  }
}
