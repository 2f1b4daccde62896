// The 9×9 grid: one focusable element (role grid) that takes the keyboard,
// cells that take the mouse. data-puzzle carries the puzzle (81 characters,
// '.' for a blank) for tests and tools. Pencil marks are drawn by CSS from
// data-mark, so a cell's text is its digit alone and its label says the marks.
import type { KeyboardEvent } from 'react'

export function Board({ puzzle, cells, marks, selected, conflicts, wrong, highlight, onSelect, onEnter, onUndo, onRedo, onPencil }: {
  puzzle: string
  /** Entries that differ from the solution, once the player asked ("Check my entries"). */
  wrong?: Set<number> | null
  cells: string
  marks: number[]
  selected: number
  conflicts: Set<number>
  highlight: number
  onSelect: (c: number) => void
  onEnter: (c: number, d: number) => void
  onUndo: () => void
  onRedo: () => void
  onPencil: () => void
}) {
  const key = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = selected < 0 ? 0 : selected
    const move: Record<string, number> = { ArrowUp: -9, ArrowDown: 9, ArrowLeft: -1, ArrowRight: 1 }
    if (e.key in move) {
      const r = Math.floor(at / 9), c = at % 9
      const nr = (r + (move[e.key] === 9 ? 1 : move[e.key] === -9 ? -1 : 0) + 9) % 9
      const nc = (c + (move[e.key] === 1 ? 1 : move[e.key] === -1 ? -1 : 0) + 9) % 9
      onSelect(nr * 9 + nc)
    } else if ((e.ctrlKey || e.metaKey) && (e.key === 'z' || e.key === 'Z')) {
      if (e.shiftKey) onRedo()
      else onUndo()
    } else if ((e.ctrlKey || e.metaKey) && (e.key === 'y' || e.key === 'Y')) {
      onRedo()
    } else if (/^[1-9]$/.test(e.key)) {
      onEnter(at, Number(e.key))
    } else if (e.key === 'Backspace' || e.key === 'Delete' || e.key === '0') {
      onEnter(at, 0)
    } else if (e.key === 'p' || e.key === 'P') {
      onPencil()
    } else {
      return
    }
    e.preventDefault()
  }
  const describe = (c: number, pencilled = '') => {
    const d = cells[c]
    return `r${Math.floor(c / 9) + 1}c${(c % 9) + 1}, ${d === '.' ? 'empty' : d}${puzzle[c] !== '.' ? ', given' : ''}${conflicts.has(c) ? ', in conflict' : ''}${wrong?.has(c) ? ', not the solution' : ''}${pencilled}`
  }
  const peers = (c: number) => selected >= 0 && (Math.floor(c / 9) === Math.floor(selected / 9) || c % 9 === selected % 9 ||
    (Math.floor(c / 27) === Math.floor(selected / 27) && Math.floor((c % 9) / 3) === Math.floor((selected % 9) / 3)))
  const rows = []
  for (let r = 0; r < 9; r++) {
    const row = []
    for (let k = 0; k < 9; k++) {
      const c = r * 9 + k
      const d = cells[c]
      const isGiven = puzzle[c] !== '.'
      const same = selected >= 0 && d !== '.' && c !== selected && d === cells[selected]
      const cls = ['cell', isGiven ? 'given' : 'entry', c === selected ? 'sel' : same ? 'same' : peers(c) ? 'peer' : '', conflicts.has(c) ? 'conflict' : '', wrong?.has(c) ? 'wrong' : '', c === highlight ? 'hinted' : '', k % 3 === 2 && k < 8 ? 'br' : '', r % 3 === 2 && r < 8 ? 'bb' : ''].filter(Boolean).join(' ')
      const pencilled = d === '.' && marks[c] ? `, pencil marks ${[1, 2, 3, 4, 5, 6, 7, 8, 9].filter((x) => marks[c] & (1 << (x - 1))).join(' ')}` : ''
      const label = describe(c, pencilled)
      row.push(
        <div key={c} id={`cell-${c}`} role="gridcell" className={cls} aria-label={label} aria-selected={c === selected} data-cell={c} onMouseDown={(e) => { e.preventDefault(); onSelect(c); (e.currentTarget.closest('[role=grid]') as HTMLElement | null)?.focus() }}>
          {d !== '.' ? <span className="digit">{d}</span> : marks[c] ? <Marks mask={marks[c]} /> : null}
        </div>,
      )
    }
    rows.push(<div key={r} role="row" className="row">{row}</div>)
  }
  return (
    <>
      <div className="board" role="grid" aria-label="Sudoku board" tabIndex={0} data-testid="board" data-puzzle={puzzle} data-cells={cells} onKeyDown={key}
        aria-activedescendant={selected >= 0 ? `cell-${selected}` : undefined}>
        {rows}
      </div>
      {/* The selected cell, said once it changes (screen readers follow aria-activedescendant too). */}
      <p className="visually-hidden" aria-live="polite" data-testid="cell-announce">{selected >= 0 ? describe(selected) : ''}</p>
    </>
  )
}

function Marks({ mask }: { mask: number }) {
  return (
    <span className="marks" aria-hidden="true">
      {[1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => <span key={d} data-mark={mask & (1 << (d - 1)) ? d : ''} />)}
    </span>
  )
}
