// Draws the page's icon, src/favicon.svg, as the 32×32 PNG the HTML carries
// inline (src/favicon.png; see inlineIcon in vite.config.ts), with this
// machine's Chromium: `node scripts/icon.mjs` after changing the SVG.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { ARGS, CHROMIUM } from '../tests/harness.mjs'

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src')
const SIZE = 32
const svg = fs.readFileSync(path.join(SRC, 'favicon.svg'), 'utf8').replace('<svg ', `<svg width="${SIZE}" height="${SIZE}" `)
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS })
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE } })
  await page.setContent(`<!doctype html><body style="margin:0">${svg}</body>`)
  await page.screenshot({ path: path.join(SRC, 'favicon.png'), omitBackground: true })
} finally {
  await browser.close()
}
