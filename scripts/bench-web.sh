#!/usr/bin/env bash
# The web page's speed targets on this machine's Chromium: first load of the
# play view at most 450 KB gzipped, time to interactive at most 300 ms (median
# of cold loads) and key to paint at most 16 ms (p95). Builds the engine, the
# typed clients and the production bundle first; LOADS and KEYS set the sample
# sizes; exits 1 when a target is missed. Arguments are peers' builds (an older
# commit's web/dist) measured in the same run, their cold loads alternating
# with this build's. Figures go to docs/benchmarks.md.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
peers=()
for d in "$@"; do
  [ -f "$d/index.html" ] || { echo "bench-web: $d is not a built page (no index.html)" >&2; exit 2; }
  peers+=("$(cd "$d" && pwd)")
done
cd "$ROOT/web"
[ -d node_modules ] || npm ci --no-audit --no-fund
npm run --silent build > /dev/null
node scripts/bench.mjs dist ${peers[@]+"${peers[@]}"}
