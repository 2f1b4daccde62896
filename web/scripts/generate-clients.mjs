// Generates the Game's, Algoku's and Curta's typed TypeScript clients from the ARC-56
// specs in smart_contracts/artifacts with AlgoKit's generator (algokitgen),
// into src/contracts/. They are a build product, like the engine's wasm: the
// specs are the one source, so the page can never run a stale client.
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const SPECS = path.resolve(WEB, '..', 'smart_contracts', 'artifacts')
const CLIENTS = { GameClient: 'game/Game.arc56.json', AlgokuClient: 'algoku/Algoku.arc56.json', CurtaClient: 'curta/Curta.arc56.json' }
const out = path.join(WEB, 'src', 'contracts')
const bin = path.join(WEB, 'node_modules', '.bin', 'algokitgen')
for (const [name, spec] of Object.entries(CLIENTS)) {
  execFileSync(bin, ['generate', '-a', path.join(SPECS, spec), '-o', path.join(out, `${name}.ts`)], {
    stdio: 'ignore',
  })
}
console.log(`typed clients written to ${out}`)
