#!/usr/bin/env bash
# The web page's speed targets, enforced: the browser tests of
# scripts/test-web.sh with ALGOKU_WEB_TARGETS=1, so deriving a puzzle (max of
# 20) and checking a grid (p95) must each take under 10 ms and the board must
# be interactive within 2 s of a cold load. The figures are printed from
# web/test-results/metrics.json; docs/benchmarks.md keeps the dated table.
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
ALGOKU_WEB_TARGETS=1 bash "$here/test-web.sh"
cat "$here/../web/test-results/metrics.json"
