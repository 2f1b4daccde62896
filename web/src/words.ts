// How the page says a count, where both games say it alike.

/** "1 solver", "2 solvers". */
export const solvers = (n: bigint) => `${n} ${n === 1n ? 'solver' : 'solvers'}`
