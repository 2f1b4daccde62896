#!/usr/bin/env bash
# The game in a browser, for development: installs web/node_modules (npm ci,
# pinned) when needed, builds the engine for WebAssembly and serves web/ with
# Vite (hot reload) on http://127.0.0.1:5173. Arguments go to Vite.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
stamp="web/node_modules/.lock.sha256"
want="$(sha256sum web/package-lock.json | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    npm ci --prefix web --no-audit --no-fund --loglevel=error
    echo "$want" > "$stamp"
fi
npm --prefix web run dev -- "$@"
