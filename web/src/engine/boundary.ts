// The boundary of the engine's modules (rust/wasm/src/lib.rs): no generated
// glue. A request is written into the module's input buffer, an exported
// function runs on it, and the answer (JSON text, or bytes) is read from its
// output buffer. Used by the page (engine.ts) and by the rater's worker.

/** What every module exports besides its functions. */
export interface Buffers {
  memory: WebAssembly.Memory
  input(len: number): number
  output(): number
  output_len(): number
}

/** Fetches and instantiates a module (streaming compile where the server sends application/wasm). */
export async function instantiate<E extends Buffers>(url: string): Promise<E> {
  let instance: WebAssembly.Instance
  try {
    ;({ instance } = await WebAssembly.instantiateStreaming(fetch(url), {}))
  } catch {
    const response = await fetch(url)
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`)
    ;({ instance } = await WebAssembly.instantiate(await response.arrayBuffer(), {}))
  }
  return instance.exports as unknown as E
}

/** Writes `bytes` into `x`'s input buffer; returns their length, the argument the exports take. */
export function put(x: Buffers, bytes: Uint8Array): number {
  const at = x.input(bytes.length)
  new Uint8Array(x.memory.buffer, at, bytes.length).set(bytes)
  return bytes.length
}

/** A copy of the `len` answer bytes in `x`'s output buffer. */
export function take(x: Buffers, len: number): Uint8Array {
  return new Uint8Array(x.memory.buffer, x.output(), len).slice()
}

/** The answer as JSON. */
export function json<T>(x: Buffers, len: number): T {
  return JSON.parse(new TextDecoder().decode(take(x, len))) as T
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}
