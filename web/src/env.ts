// The build's configuration (Vite's import.meta.env), read in this one place.
// Empty where Vite did not build the module: vite.config.ts imports the
// page's modules at build time, outside Vite's transform.
export const env: Record<string, string | undefined> =
  (import.meta as unknown as { env?: Record<string, string | undefined> }).env ?? {}
