// The page's speed on this machine's Chromium, against the production build
// (web/dist) served gzipped from loopback: the first load's bytes, the time to
// interactive (median of cold loads: navigation to the board drawn and taking
// keys) and the time from a key to the next paint (p95 of played keys: the
// page's work, and the latency with the wait for the frame). Prints a table and
// a JSON line; exits 1 when a target is missed. Run by scripts/bench-web.sh.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { ARGS, CHROMIUM, firstLoad, keyToPaint, playKeys, quantile, serve } from '../tests/harness.mjs'

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const LOADS = Number(process.env.LOADS ?? 15)
const KEYS = Number(process.env.KEYS ?? 300)
const TARGET = { bytes: 450_000, interactive: 300, paint: 16 }
const ms = (x) => Math.round(x * 10) / 10

// Another build (a peer in the same run, e.g. an older commit's web/dist) as the first argument.
const dist = path.resolve(process.argv[2] ?? path.join(WEB, 'dist'))
const { url, server } = await serve(dist)
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS })
try {
  const loads = []
  for (let i = 0; i < LOADS; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    loads.push(await firstLoad(context, `${url}/`))
    await context.close()
  }
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  await page.goto(`${url}/`)
  await page.locator('[data-testid=board]').waitFor()
  const paints = await keyToPaint(page, playKeys(KEYS))
  const ready = loads.map((l) => l.ready)
  const out = {
    first_load_gzip_bytes: loads[0].bytes,
    interactive_ms_median: Math.round(quantile(ready, 0.5)),
    interactive_ms_p95: Math.round(quantile(ready, 0.95)),
    key_to_paint_work_ms_median: ms(quantile(paints.map((p) => p.work), 0.5)),
    key_to_paint_work_ms_p95: ms(quantile(paints.map((p) => p.work), 0.95)),
    key_to_paint_latency_ms_median: ms(quantile(paints.map((p) => p.latency), 0.5)),
    key_to_paint_latency_ms_p95: ms(quantile(paints.map((p) => p.latency), 0.95)),
    dist,
    loads: LOADS,
    keys: paints.length,
  }
  console.log('file\tbytes on the wire (gzipped)')
  for (const f of loads[0].files) console.log(`${f.url}\t${f.bytes}`)
  console.log(`first load\t${out.first_load_gzip_bytes} bytes (target ${TARGET.bytes})`)
  console.log(`time to interactive\tmedian ${out.interactive_ms_median} ms, p95 ${out.interactive_ms_p95} ms over ${LOADS} cold loads (target ${TARGET.interactive} ms)`)
  console.log(`key to paint, the page's work\tmedian ${out.key_to_paint_work_ms_median} ms, p95 ${out.key_to_paint_work_ms_p95} ms over ${out.keys} keys (target ${TARGET.paint} ms)`)
  console.log(`key to paint, with the wait for the frame\tmedian ${out.key_to_paint_latency_ms_median} ms, p95 ${out.key_to_paint_latency_ms_p95} ms`)
  console.log(JSON.stringify(out))
  const missed = [
    out.first_load_gzip_bytes > TARGET.bytes && 'first load',
    out.interactive_ms_median > TARGET.interactive && 'time to interactive',
    out.key_to_paint_work_ms_p95 > TARGET.paint && 'key to paint',
  ].filter(Boolean)
  if (missed.length) {
    console.error(`missed: ${missed.join(', ')}`)
    process.exitCode = 1
  }
} finally {
  await browser.close()
  server.close()
}
