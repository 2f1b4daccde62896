// The project's engine (rust/wasm) in the browser, two modules: the board's
// (algoku.wasm: the game, the mirror, the solver, the 8×8 game), loaded first
// and answering synchronously, and the rater's (rater.wasm: difficulty and
// hints), loaded on first use in a worker and answering with promises.
import wasmUrl from './algoku.wasm?url'
import { env } from '../env'
import { concat, instantiate, json as answerOf, put as putInto, take as takeFrom, type Buffers } from './boundary'

interface Exports extends Buffers {
  game_shard(app: bigint, len: number): number
  catalogue_shard(n: number, len: number): number
  address_key(len: number): number
  game_puzzle(app: bigint, len: number): number
  game_check(app: bigint, len: number): number
  game_args(app: bigint, len: number): number
  mirror(len: number): number
  solve(len: number): number
  curta_start(len: number): number
  curta_check(len: number): number
}

let x: Exports | undefined

/** Loads the board's module once. */
export async function loadEngine(): Promise<void> {
  x ??= await instantiate<Exports>(wasmUrl)
}

function engine(): Exports {
  if (!x) throw new Error('the engine is not loaded yet')
  return x
}

const put = (bytes: Uint8Array) => putInto(engine(), bytes)
const take = (len: number) => takeFrom(engine(), len)
const json = <T,>(len: number): T => answerOf<T>(engine(), len)

/** 81 cells 0..9 from the text form ('.' or '0' for a blank). */
export function cellsOf(text: string): Uint8Array {
  const out = new Uint8Array(81)
  for (let i = 0; i < 81; i++) {
    const c = text.charCodeAt(i) - 48
    out[i] = c >= 1 && c <= 9 ? c : 0
  }
  return out
}

/** The text form of 81 cells: digits, '.' for a blank. */
export function textOf(cells: ArrayLike<number>): string {
  let s = ''
  for (let i = 0; i < 81; i++) s += cells[i] ? String(cells[i]) : '.'
  return s
}

export interface Derived {
  index: number
  transpose: boolean
  rows: number[]
  columns: number[]
  digits: number[]
  puzzle: string
}

/** The engine's answer, or its `error` thrown. */
function answer<T>(len: number): T {
  const out = json<T & { error?: string }>(len)
  if (out.error) throw new Error(out.error)
  return out
}

// The catalogue's 193 shards of 256 puzzles (rust/game/src/shard.rs), written
// into public/catalogue/ by scripts/build-wasm.sh: a puzzle needs only its own.
const base = env.BASE_URL ?? './'
const shards = new Map<number, Promise<void>>()

/** Fetches catalogue shard `n` once and hands it to the engine (which checks it against the committed root). */
function loadShard(n: number): Promise<void> {
  let p = shards.get(n)
  if (!p) {
    p = (async () => {
      const response = await fetch(`${base}catalogue/${String(n).padStart(3, '0')}.bin`)
      if (!response.ok) throw new Error(`catalogue shard ${n}: HTTP ${response.status}`)
      const bytes = new Uint8Array(await response.arrayBuffer())
      answer(engine().catalogue_shard(n, put(bytes)))
    })()
    p.catch(() => shards.delete(n))
    shards.set(n, p)
  }
  return p
}

/** Fetches the catalogue shard of the address's puzzle on app `app`, once. */
export function puzzleShard(app: bigint, key: Uint8Array): Promise<void> {
  return loadShard(answer<{ shard: number }>(engine().game_shard(app, put(key))).shard)
}

/** An address's puzzle on app `app` (the game's derivation, rust/game) when its shard is here, else null (see puzzleShard). */
export function loadedPuzzle(app: bigint, key: Uint8Array): Derived | null {
  const out = json<Derived & { error?: string }>(engine().game_puzzle(app, put(key)))
  return out.error ? null : out
}

/** Fetches the shard of `address`'s puzzle on `app` ahead of the page's first render; never fails. */
export async function prefetchPuzzle(app: bigint, address: string): Promise<void> {
  const key = addressKey(address)
  if (key) await puzzleShard(app, key).catch(() => undefined)
}

/** The 32-byte public key of a 58-character Algorand address, or null when it is not one (its checksum included). */
export function addressKey(text: string): Uint8Array | null {
  const out = json<{ key?: number[] }>(engine().address_key(put(new TextEncoder().encode(text))))
  return out.key ? Uint8Array.from(out.key) : null
}

export interface Check {
  complete: boolean
  conflicts: number[]
  verdict: boolean | null
  reason: string | null
}

/** Conflicts as the player types, and the contract's verdict once the grid is full (once its shard is here). */
export function gameCheck(app: bigint, key: Uint8Array, cells: Uint8Array): Check {
  return json(engine().game_check(app, put(concat(key, cells))))
}

/** The game's solve arguments: leaf (51), proof (1 776), lanes (162). */
export function gameArgs(app: bigint, key: Uint8Array, cells: Uint8Array) {
  const b = take(engine().game_args(app, put(concat(key, cells))))
  return { leaf: b.slice(0, 51), proof: b.slice(51, 51 + 1776), lanes: b.slice(51 + 1776) }
}

export interface Mirror {
  is_valid_solution_lanes: string
  is_valid_solution: string
  is_solution_of: string | null
  verdict: boolean | null
  reason: string | null
}

/** The Algoku contract's mirror (rust/avm) on raw bytes, with a puzzle for is_solution_of. */
export function mirror(grid: Uint8Array, puzzle?: Uint8Array): Mirror {
  const head = puzzle ? concat(Uint8Array.of(1), puzzle) : Uint8Array.of(0)
  return json(engine().mirror(put(concat(head, grid))))
}

/** The solver (rust/sudoku): 0, 1 or 2 (more than one) solutions, and the first. */
export function solve(puzzle: Uint8Array): { count: number; solution: string | null } {
  return json(engine().solve(put(puzzle)))
}

export type Hint =
  | { kind: 'step'; technique: string; score: string; cell: number; digit: number; text: string }
  | { kind: 'mistake'; cell: number; text: string }
  | { kind: 'none' | 'unsolvable' }
  | { kind: 'error'; text: string }

let worker: Worker | undefined
let asked = 0
const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()

/** Asks the rater's worker (started on first use); a failed worker fails every question waiting on it. */
function askRater<T>(fn: 'rate' | 'hint', input: Uint8Array): Promise<T> {
  if (!worker) {
    worker = new Worker(new URL('./rater.worker.ts', import.meta.url), { type: 'module' })
    worker.onmessage = (e: MessageEvent<{ id: number; answer?: unknown; error?: string }>) => {
      const w = waiting.get(e.data.id)
      waiting.delete(e.data.id)
      if (e.data.error !== undefined) w?.reject(new Error(e.data.error))
      else w?.resolve(e.data.answer)
    }
    worker.onerror = (e) => {
      for (const w of waiting.values()) w.reject(new Error(`the rater did not load: ${e.message || 'worker error'}`))
      waiting.clear()
      worker = undefined
    }
  }
  const id = ++asked
  return new Promise<T>((resolve, reject) => {
    waiting.set(id, { resolve: resolve as (v: unknown) => void, reject })
    worker!.postMessage({ id, fn, input })
  })
}

/** A wrong digit first, else the rater's next step (rust/rate) with its technique and SE score. */
export function hint(puzzle: Uint8Array, now: Uint8Array): Promise<Hint> {
  return askRater<Hint>('hint', concat(puzzle, now)).catch((e: Error) => ({ kind: 'error' as const, text: e.message }))
}

/** The puzzle's Sudoku Explainer rating and QQWing level. */
export function rate(puzzle: Uint8Array): Promise<{ verdict: string; score: string | null; level: string | null }> {
  return askRater('rate', puzzle)
}

/** An address's 8×8 start and its solution (rust/wasm/src/curta.rs): the contract's hex
 * (square 0 last, as `algoku curta generate` prints it) and row-major text ('.' blank). */
export interface CurtaStart {
  start: string
  cells: string
  solution: string | null
  solution_cells: string | null
}

export function curtaStart(key: Uint8Array): CurtaStart {
  return json<CurtaStart>(engine().curta_start(put(key)))
}

export interface CurtaCheck {
  complete: boolean
  conflicts: number[]
  verdict: boolean | null
  reason: string | null
  /** The board as the contract takes it (64 hex digits), once full. */
  solution: string | null
}

/** 64 squares 0..8 from row-major text ('.' for a blank). */
export function squaresOf(text: string): Uint8Array {
  const out = new Uint8Array(64)
  for (let k = 0; k < 64; k++) out[k] = /^[1-8]$/.test(text[k] ?? '') ? Number(text[k]) : 0
  return out
}

/** The contract's verdict on a board of the start `start` (both row-major text). */
export function curtaCheck(start: string, now: string): CurtaCheck {
  return json<CurtaCheck>(engine().curta_check(put(concat(squaresOf(start), squaresOf(now)))))
}
