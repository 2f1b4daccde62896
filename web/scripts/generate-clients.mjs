// Generates the Game's and Algoku's typed TypeScript clients from the
// committed ARC-56 specs with AlgoKit's generator (algokitgen), into
// src/contracts/. With --check, generates into a temporary folder and fails
// (exit 1) when the committed clients differ: they are stale.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const SPECS = path.resolve(WEB, '..', 'smart_contracts', 'artifacts')
const CLIENTS = { GameClient: 'game/Game.arc56.json', AlgokuClient: 'algoku/Algoku.arc56.json' }
const check = process.argv.includes('--check')
const out = check ? fs.mkdtempSync(path.join(os.tmpdir(), 'algoku-clients-')) : path.join(WEB, 'src', 'contracts')
const bin = path.join(WEB, 'node_modules', '.bin', 'algokitgen')
let stale = 0
for (const [name, spec] of Object.entries(CLIENTS)) {
  const target = path.join(out, `${name}.ts`)
  execFileSync(bin, ['generate', '-a', path.join(SPECS, spec), '-o', target], { stdio: 'ignore' })
  if (check) {
    const committed = path.join(WEB, 'src', 'contracts', `${name}.ts`)
    if (!fs.existsSync(committed) || fs.readFileSync(committed, 'utf8') !== fs.readFileSync(target, 'utf8')) {
      console.error(`web/src/contracts/${name}.ts is stale: run \`npm --prefix web run generate\``)
      stale++
    }
  }
}
if (check) fs.rmSync(out, { recursive: true, force: true })
if (!stale) console.log(check ? 'typed clients: up to date' : `typed clients written to ${out}`)
process.exit(stale ? 1 : 0)
