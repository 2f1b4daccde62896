// What the browser tests and the page's benchmark (scripts/bench-web.sh) share:
// the production build served gzipped from loopback as a static host would,
// Debian's Chromium, and the two measures of the page's speed (a cold first
// load, and the time from a key to the next paint).
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import zlib from 'node:zlib'

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium'
export const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync']

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.png': 'image/png', '.svg': 'image/svg+xml' }

/** Serves `dir` on a free loopback port, gzipped when asked; resolves with the base URL and the server. */
export function serve(dir) {
  const cache = new Map()
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x')
    const file = path.join(dir, url.pathname === '/' ? 'index.html' : path.normalize(url.pathname))
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end('not found')
      return
    }
    const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')
    const key = `${file}:${gzip}`
    if (!cache.has(key)) cache.set(key, gzip ? zlib.gzipSync(fs.readFileSync(file), { level: 9 }) : fs.readFileSync(file))
    const body = cache.get(key)
    const headers = { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' }
    if (gzip) headers['Content-Encoding'] = 'gzip'
    res.writeHead(200, { ...headers, 'Content-Length': body.length }).end(body)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, server })))
}

/** In the page: resolves with the `algoku:ready` mark's time once it is made (no polling); fails after 30 s without it. */
function readyMark() {
  return new Promise((resolve, reject) => {
    const mark = () => performance.getEntriesByName('algoku:ready')[0]
    if (mark()) return resolve(mark().startTime)
    const observer = new PerformanceObserver(() => {
      if (!mark()) return
      observer.disconnect()
      clearTimeout(late)
      resolve(mark().startTime)
    })
    const late = setTimeout(() => {
      observer.disconnect()
      reject(new Error('the page made no algoku:ready mark within 30 s'))
    }, 30_000)
    observer.observe({ type: 'mark' })
  })
}

/**
 * A cold load of `url` (cache off) in a new page of `context`: the bytes on
 * the wire (bodies and headers, gzipped) once the network is idle, each
 * response's, and the time from navigation to the page's `algoku:ready` mark
 * (the board drawn and taking keys).
 */
export async function firstLoad(context, url) {
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
  const responses = []
  page.on('response', (r) => responses.push(r))
  await page.goto(url)
  // Nothing of the driver runs in the page until it is ready: a locator or a
  // polled function would inject its script and run every frame while the page
  // starts, which no visitor's browser does.
  const ready = await page.evaluate(readyMark)
  await page.locator('[data-testid=board]').waitFor()
  await page.waitForLoadState('networkidle')
  const files = await Promise.all(responses.map(async (r) => {
    const z = await r.request().sizes().catch(() => ({ responseBodySize: 0, responseHeadersSize: 0 }))
    return { url: new URL(r.url()).pathname, bytes: z.responseBodySize + z.responseHeadersSize }
  }))
  await page.close()
  return { ready, bytes: files.reduce((n, f) => n + f.bytes, 0), files }
}

/**
 * Each key press on `page`'s board, timed to the next paint: `latency` from
 * the key's event time to a task queued after the following animation frame
 * (which runs once that frame is painted), and `work`, the page's own part
 * of it: the key's handling and re-render (up to a listener that runs after
 * the board's, its microtasks done) plus that frame's effects, style, layout
 * and paint. The rest of `latency` is the wait for the frame, at most one
 * frame interval, which no page can shorten. `keys` are pressed one at a time.
 */
export async function keyToPaint(page, keys) {
  await page.evaluate(() => {
    window.__paint = []
    let t0 = 0, handled = 0
    window.addEventListener('keydown', (e) => {
      t0 = e.timeStamp
      requestAnimationFrame(() => {
        const frame = performance.now()
        const ch = new MessageChannel()
        ch.port1.onmessage = () => {
          const painted = performance.now()
          window.__paint.push({ latency: painted - t0, work: handled - t0 + (painted - frame) })
        }
        ch.port2.postMessage(0)
      })
    }, true)
    window.addEventListener('keydown', () => { handled = performance.now() })
  })
  const board = page.locator('[data-testid=board]')
  await board.focus()
  for (const k of keys) {
    await page.keyboard.press(k)
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))))
  }
  return page.evaluate(() => window.__paint)
}

/** The `q`-quantile of `xs` (nearest rank). */
export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]
}

/** Keys a player presses on the 9×9 board: moves, digits, erasures and pencil marks, in a fixed order. */
export function playKeys(n) {
  const keys = []
  const moves = ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp']
  for (let i = 0; i < n; i++) {
    keys.push(i % 3 === 0 ? moves[(i / 3) % 4] : i % 7 === 0 ? 'Backspace' : String(1 + ((i * 5) % 9)))
  }
  return keys
}
