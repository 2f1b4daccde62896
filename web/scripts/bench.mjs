// The page's speed on this machine's Chromium, against production builds
// served gzipped from loopback: the first load's bytes, the time to
// interactive (median of cold loads: navigation to the board drawn and taking
// keys) and the time from a key to the next paint (p95 of played keys: the
// page's work, and the latency with the wait for the frame).
//
// `node scripts/bench.mjs [DIST ...]`: web/dist by default. Given several
// builds (the first is the one judged, the others peers such as an older
// commit's web/dist), their cold loads alternate one by one, so that the
// machine's drift over the run falls on all of them alike. Prints a table and
// a JSON line per build; exits 1 when the first build misses a target. Run by
// scripts/bench-web.sh.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { ARGS, CHROMIUM, firstLoad, keyToPaint, playKeys, quantile, serve } from '../tests/harness.mjs'

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const LOADS = Number(process.env.LOADS ?? 15)
const KEYS = Number(process.env.KEYS ?? 300)
const TARGET = { bytes: 450_000, interactive: 300, paint: 16 }
const ms = (x) => Math.round(x * 10) / 10

const dists = (process.argv.length > 2 ? process.argv.slice(2) : [path.join(WEB, 'dist')]).map((d) => path.resolve(d))
const servers = await Promise.all(dists.map((d) => serve(d)))
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS })

/** A fresh context's cold load of `url`. */
async function coldLoad(url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  try {
    return await firstLoad(context, `${url}/`)
  } finally {
    await context.close()
  }
}

/** `KEYS` played keys on `url`'s board, each timed to the next paint. */
async function paints(url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  try {
    const page = await context.newPage()
    await page.goto(`${url}/`)
    await page.locator('[data-testid=board]').waitFor()
    return await keyToPaint(page, playKeys(KEYS))
  } finally {
    await context.close()
  }
}

try {
  const loads = dists.map(() => [])
  for (let i = 0; i < LOADS; i++) {
    for (const [k, { url }] of servers.entries()) loads[k].push(await coldLoad(url))
  }
  const outs = []
  for (const [k, { url }] of servers.entries()) {
    const p = await paints(url)
    const ready = loads[k].map((l) => l.ready)
    outs.push({
      first_load_gzip_bytes: loads[k][0].bytes,
      interactive_ms_median: Math.round(quantile(ready, 0.5)),
      interactive_ms_p95: Math.round(quantile(ready, 0.95)),
      key_to_paint_work_ms_median: ms(quantile(p.map((x) => x.work), 0.5)),
      key_to_paint_work_ms_p95: ms(quantile(p.map((x) => x.work), 0.95)),
      key_to_paint_latency_ms_median: ms(quantile(p.map((x) => x.latency), 0.5)),
      key_to_paint_latency_ms_p95: ms(quantile(p.map((x) => x.latency), 0.95)),
      dist: dists[k],
      loads: LOADS,
      keys: p.length,
    })
  }
  console.log('file\tbytes on the wire (gzipped)')
  for (const f of loads[0][0].files) console.log(`${f.url}\t${f.bytes}`)
  console.log(`targets: first load ${TARGET.bytes} bytes, interactive ${TARGET.interactive} ms (median of ${LOADS} cold loads), key to paint ${TARGET.paint} ms (the page's work, p95 of ${KEYS} keys)`)
  console.log('build\tfirst load\tinteractive median / p95\tkey to paint, work median / p95\twith the wait for the frame, median / p95')
  for (const o of outs) {
    console.log(`${o.dist}\t${o.first_load_gzip_bytes} bytes\t${o.interactive_ms_median} / ${o.interactive_ms_p95} ms\t` +
      `${o.key_to_paint_work_ms_median} / ${o.key_to_paint_work_ms_p95} ms\t${o.key_to_paint_latency_ms_median} / ${o.key_to_paint_latency_ms_p95} ms`)
  }
  for (const o of outs) console.log(JSON.stringify(o))
  const [judged] = outs
  const missed = [
    judged.first_load_gzip_bytes > TARGET.bytes && 'first load',
    judged.interactive_ms_median > TARGET.interactive && 'time to interactive',
    judged.key_to_paint_work_ms_p95 > TARGET.paint && 'key to paint',
  ].filter(Boolean)
  if (missed.length) {
    console.error(`missed: ${missed.join(', ')}`)
    process.exitCode = 1
  }
} finally {
  await browser.close()
  for (const { server } of servers) server.close()
}
