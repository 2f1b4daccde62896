// The chain side in one module: the node and app checks, the Game, Algoku and
// Curta apps through their typed clients. Pages load it on demand
// (./load.ts), so a page with no node never downloads algosdk or algokit-utils.
export * from './checks'
export * from './game'
export * from './curta'
