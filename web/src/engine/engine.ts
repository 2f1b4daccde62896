// The project's engine (rust/wasm) in the browser. The module has no generated
// glue: a request is written into its input buffer, an exported function runs
// on it, and the answer (JSON text, or bytes) is read from its output buffer
// (see rust/wasm/src/lib.rs). Everything here is synchronous once loaded.
import wasmUrl from './algoku.wasm?url'

interface Exports {
  memory: WebAssembly.Memory
  input(len: number): number
  output(): number
  output_len(): number
  game_puzzle(app: bigint, len: number): number
  game_check(app: bigint, len: number): number
  game_args(app: bigint, len: number): number
  prepare(): void
  mirror(len: number): number
  solve(len: number): number
  hint(len: number): number
  rate(len: number): number
  curta_start(len: number): number
  curta_check(len: number): number
}

let x: Exports | undefined

/** Loads the module once (streaming compile where the server sends application/wasm). */
export async function loadEngine(): Promise<void> {
  if (x) return
  const response = fetch(wasmUrl)
  let instance: WebAssembly.Instance
  try {
    ;({ instance } = await WebAssembly.instantiateStreaming(response, {}))
  } catch {
    const bytes = await (await fetch(wasmUrl)).arrayBuffer()
    ;({ instance } = await WebAssembly.instantiate(bytes, {}))
  }
  x = instance.exports as unknown as Exports
}

function engine(): Exports {
  if (!x) throw new Error('the engine is not loaded yet')
  return x
}

function put(bytes: Uint8Array): number {
  const e = engine()
  const at = e.input(bytes.length)
  new Uint8Array(e.memory.buffer, at, bytes.length).set(bytes)
  return bytes.length
}

function take(len: number): Uint8Array {
  const e = engine()
  return new Uint8Array(e.memory.buffer, e.output(), len).slice()
}

function json<T>(len: number): T {
  return JSON.parse(new TextDecoder().decode(take(len))) as T
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

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

/** An address's puzzle on app `app` (the game's derivation, rust/game). */
export function gamePuzzle(app: bigint, key: Uint8Array): Derived {
  return json(engine().game_puzzle(app, put(key)))
}

export interface Check {
  complete: boolean
  conflicts: number[]
  verdict: boolean | null
  reason: string | null
}

/** Conflicts as the player types, and the contract's verdict once the grid is full. */
export function gameCheck(app: bigint, key: Uint8Array, cells: Uint8Array): Check {
  return json(engine().game_check(app, put(concat(key, cells))))
}

/** The game's solve arguments: leaf (51), proof (1 776), lanes (162). */
export function gameArgs(app: bigint, key: Uint8Array, cells: Uint8Array) {
  const b = take(engine().game_args(app, put(concat(key, cells))))
  return { leaf: b.slice(0, 51), proof: b.slice(51, 51 + 1776), lanes: b.slice(51 + 1776) }
}

/** Builds the catalogue's Merkle tree ahead of the first verdict. */
export function prepare(): void {
  engine().prepare()
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

/** A wrong digit first, else the rater's next step (rust/rate) with its technique and SE score. */
export function hint(puzzle: Uint8Array, now: Uint8Array): Hint {
  return json(engine().hint(put(concat(puzzle, now))))
}

/** The puzzle's Sudoku Explainer rating and QQWing level. */
export function rate(puzzle: Uint8Array): { verdict: string; score: string | null; level: string | null } {
  return json(engine().rate(put(puzzle)))
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
