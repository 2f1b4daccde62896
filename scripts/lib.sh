# Shared helpers for the scripts in this folder. Source it; do not run it.
#   find_python  -> prints a Python >= 3.12 interpreter (PATH, then pyenv) or fails
#   ensure_venv  -> .venv with requirements.txt installed (re-installs when it changes)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${ALGOKU_VENV:-$ROOT/.venv}"

python_ok() {
    "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1
}

find_python() {
    local c
    if [ -n "${ALGOKU_PYTHON:-}" ]; then
        python_ok "$ALGOKU_PYTHON" && { echo "$ALGOKU_PYTHON"; return 0; }
        echo "error: ALGOKU_PYTHON=$ALGOKU_PYTHON is not a Python >= 3.12" >&2
        return 1
    fi
    for c in python3.14 python3.13 python3.12 python3 python; do
        if command -v "$c" >/dev/null 2>&1 && python_ok "$(command -v "$c")"; then
            command -v "$c"; return 0
        fi
    done
    if command -v pyenv >/dev/null 2>&1; then
        local root v
        root="$(pyenv root)"
        for v in $(pyenv versions --bare 2>/dev/null | sort -rV); do
            c="$root/versions/$v/bin/python3"
            if [ -x "$c" ] && python_ok "$c"; then echo "$c"; return 0; fi
        done
    fi
    cat >&2 <<'MSG'
error: puyapy needs Python >= 3.12 and none was found (looked at ALGOKU_PYTHON,
python3.14/3.13/3.12/python3 on PATH, then `pyenv versions`).
Install one, e.g. `pyenv install 3.12` or `apt-get install python3.12 python3.12-venv`,
or point ALGOKU_PYTHON at it.
MSG
    return 1
}

ensure_venv() {
    local stamp="$VENV/.requirements.sha256" want py
    want="$(sha256sum "$ROOT/requirements.txt" | cut -d' ' -f1)"
    if [ -x "$VENV/bin/python" ] && python_ok "$VENV/bin/python" \
        && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
        return 0
    fi
    py="$(find_python)"
    echo "==> setting up $VENV with $("$py" --version) (pinned requirements.txt)" >&2
    "$py" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$ROOT/requirements.txt"
    echo "$want" > "$stamp"
}
