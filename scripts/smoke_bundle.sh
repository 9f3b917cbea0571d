#!/usr/bin/env bash
# Smoke-test the frozen app headless (SDL dummy video and audio), as a user would get it:
#   scripts/smoke_bundle.sh [BUNDLE]
# BUNDLE: a bundle folder (default dist/vira, on macOS dist/Vira.app) or a release .tar.gz.
# A Windows bundle (with vira-cli.exe, e.g. dist/windows/vira from scripts/build_windows.sh)
# given on Linux runs under Wine: in a Wine prefix made afresh for the test, so the per-user
# folder is that Wine user's own %LOCALAPPDATA%, and the read-only run as `nobody` in a
# second prefix of nobody's own (Wine refuses a prefix its user does not own).
# Checks, each failing with exit 1:
#   1. `vira --version` prints the version written in vira_desktop/__init__.py;
#   2. `vira bidtable --json` has the 40 rows (package data found in the bundle), and says
#      nothing of a missing compiled helper (vira_desktop/ai/_native.c is in the bundle);
#   3. `vira --autoplay 2 --speed instant --autosave` exits 0 and prints one JSON line with
#      deals (= 2), frames, frame_ms_median, frame_ms_p95, frame_ms_max, startup_s, rss_mb;
#   4. the autosave went to the per-user data folder (platformdirs), nothing into the bundle;
#   5. (not on Windows itself) the same autoplay from a read-only copy of the bundle, run by
#      a user who cannot write there (as root: the `nobody` user), also passes;
#   6. network play on loopback: `vira host` from the bundle (one network seat, two host bots
#      thinking in its pool of worker processes, one deal, --once) announces its table by mDNS
#      on 127.0.0.1 (zeroconf), `vira join --list 127.0.0.1` finds it (checked on Linux; elsewhere
#      it must only run), `vira join --bot random` plays the deal against it, both exit 0, and
#      the deal record is written: websockets and zeroconf are in the bundle and work.
# The last line is the stats line with the wall time added, for the release notes.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=$(command -v python3 || command -v python)
WANT_VERSION=$(sed -n 's/^__version__ = "\(.*\)"/\1/p' vira_desktop/__init__.py)

case "$(uname -s)" in
    Linux*) OS=linux ;;
    Darwin*) OS=macos ;;
    MINGW* | MSYS* | CYGWIN*) OS=windows ;;
    *) OS=other ;;
esac

fail() {
    echo "smoke: FAIL: $*" >&2
    exit 1
}

TMP=$(mktemp -d)
RO_RUNNER=() # how the read-only run is started (as nobody when root)
cleanup() {
    # the test's Wine prefixes: their servers and every Windows process in them
    if [ -d "$TMP/wineprefix" ]; then WINEPREFIX="$TMP/wineprefix" wineserver -k > /dev/null 2>&1 || true; fi
    if [ -d "$TMP/ro-prefix" ]; then "${RO_RUNNER[@]}" env WINEPREFIX="$TMP/ro-prefix" wineserver -k > /dev/null 2>&1 || true; fi
    chmod -R u+w "$TMP" 2>/dev/null || true
    rm -rf "$TMP"
}
trap cleanup EXIT

# ---------------------------------------------------------------- find the binary
target=${1:-}
if [ -z "$target" ]; then
    if [ "$OS" = macos ] && [ -d dist/Vira.app ]; then target=dist/Vira.app; else target=dist/vira; fi
fi
if [ -f "$target" ] && [[ "$target" == *.tar.gz ]]; then
    mkdir -p "$TMP/unpacked"
    tar -xzf "$target" -C "$TMP/unpacked"
    target=$(find "$TMP/unpacked" -mindepth 1 -maxdepth 1 -type d | head -1)
fi
[ -d "$target" ] || fail "no bundle at '$target' (run scripts/build_linux.sh first)"
BUNDLE=$(cd "$target" && pwd)

binary_in() { # the console binary of a bundle folder
    local dir=$1
    for name in Contents/MacOS/vira vira-cli.exe vira; do
        if [ -f "$dir/$name" ]; then
            echo "$dir/$name"
            return
        fi
    done
}
BIN=$(binary_in "$BUNDLE")
[ -n "$BIN" ] || fail "no vira binary in $BUNDLE"
echo "smoke: $BIN"

# A Windows bundle on Linux: under Wine. RUN is the command that starts a binary.
WINE_MODE=""
RUN=()
if [ "$OS" = linux ] && [[ "$BIN" == *.exe ]]; then
    command -v wine > /dev/null || fail "a Windows bundle needs Wine (apt-get install wine wine64)"
    WINE_MODE=1
    OS=wine
    # Python 3.13 under Wine 8 cannot take a regular file as stdout/stderr (init_sys_streams:
    # Invalid handle): the binary's streams go through pipes, whatever the caller redirects to.
    RUN=(bash -c 'set -o pipefail; { wine "$@" < /dev/null 2>&1 1>&3 3>&- | cat >&2 3>&-; } 3>&1 | cat' wine-stdio)
    echo "smoke: under $(wine --version 2> /dev/null)"
fi

# ---------------------------------------------------------------- a clean per-user home
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
unset VIRA_CONFIG_DIR VIRA_DATA_DIR VIRA_ASSETS
HOME_DIR="$TMP/home"
mkdir -p "$HOME_DIR"
user_env=(HOME="$HOME_DIR" XDG_CONFIG_HOME="$HOME_DIR/.config" XDG_DATA_HOME="$HOME_DIR/.local/share")
wine_env() { # PREFIX: the environment of a Wine prefix of the test's own
    echo "WINEPREFIX=$1" WINEARCH=win64 WINEDEBUG=-all "WINEDLLOVERRIDES=mscoree,mshtml=;winemenubuilder.exe=d"
}
new_prefix() { # RUNNER... -- ENV...: makes the prefix, its server kept running; prints %LOCALAPPDATA%
    local runner=()
    while [ "$1" != -- ]; do runner+=("$1"); shift; done
    shift
    # The server first, kept till the end, then wineboot: Wine's own processes (services.exe
    # ...) start with their streams on the log, not on a pipe of the test they would hold open.
    "${runner[@]}" env "$@" wineserver -p > /dev/null 2>&1 < /dev/null || true
    "${runner[@]}" env "$@" wine wineboot --init > "$TMP/wineboot.log" 2>&1 < /dev/null || { cat "$TMP/wineboot.log" >&2; fail "wineboot failed"; }
    "${runner[@]}" env "$@" wine cmd /c 'echo %LOCALAPPDATA%' < /dev/null 2> /dev/null | cat | tr -d '\r'
}
case "$OS" in
    linux) SAVE="$HOME_DIR/.local/share/vira-desktop/autosave.sqlite3" ;;
    macos) SAVE="$HOME_DIR/Library/Application Support/vira-desktop/autosave.sqlite3" ;;
    windows)
        # platformdirs asks Windows for the known folder: the runner's own profile
        local_appdata=$(cygpath -u "${LOCALAPPDATA:?}")
        SAVE="$local_appdata/vira-desktop/vira-desktop/autosave.sqlite3"
        ;;
    wine)
        # a fresh Wine prefix: a new Windows user profile, HOME for Wine's own links
        mapfile -t prefix_env < <(wine_env "$TMP/wineprefix" | tr ' ' '\n')
        user_env+=("${prefix_env[@]}")
        echo "smoke: a fresh Wine prefix ($TMP/wineprefix)"
        mkdir -p "$TMP/wineprefix"
        local_appdata=$(new_prefix -- "${user_env[@]}")
        [ -n "$local_appdata" ] || fail "Wine tells no %LOCALAPPDATA%"
        SAVE_WIN="$local_appdata\vira-desktop\vira-desktop\autosave.sqlite3"
        SAVE="$(env "${user_env[@]}" winepath -u "$local_appdata" 2> /dev/null)/vira-desktop/vira-desktop/autosave.sqlite3"
        ;;
    *) SAVE="" ;;
esac
[ -n "$SAVE" ] && rm -f "$SAVE"

with_timeout() {
    if command -v timeout >/dev/null 2>&1; then
        timeout 600 "$@"
    elif command -v gtimeout >/dev/null 2>&1; then
        gtimeout 600 "$@"
    else
        "$@"
    fi
}

# ---------------------------------------------------------------- 1. version
got=$(env "${user_env[@]}" "${RUN[@]}" "$BIN" --version | tr -d '\r')
[ "$got" = "vira $WANT_VERSION" ] || fail "--version printed '$got', expected 'vira $WANT_VERSION'"
echo "smoke: $got"

# ---------------------------------------------------------------- 2. package data
rows=$(env "${user_env[@]}" "${RUN[@]}" "$BIN" bidtable --json 2> "$TMP/bidtable.err" | "$PY" -c "import json, sys; rows = json.load(sys.stdin); print(len(rows), rows[0]['name'])")
first=${rows#* }
rows=${rows%% *}
[ "$rows" = 40 ] || fail "bidtable --json has $rows rows, expected 40"
# UTF-8 through a pipe on every system (the spec's X utf8 flag): row 1 is "begär"
[ "$first" = "begär" ] || fail "bidtable --json's first row is '$first', expected 'begär' (not UTF-8?)"
echo "smoke: bid table has 40 rows (row 1: $first)"
# The compiled helper travels in the bundle: without it every command says so on stderr.
if grep -q "compiled helper" "$TMP/bidtable.err"; then
    fail "the bundle runs without its compiled helper: $(cat "$TMP/bidtable.err")"
fi
echo "smoke: the compiled helper is in the bundle"

# ---------------------------------------------------------------- 3. autoplay
check_stats() { # FILE: the autoplay's stdout; prints the stats line
    "$PY" - "$1" <<'EOF'
import json, math, sys
lines = [l.strip() for l in open(sys.argv[1], encoding="utf-8", errors="replace") if l.strip().startswith("{")]
if len(lines) != 1:
    sys.exit(f"expected one JSON line, got {len(lines)}")
stats = json.loads(lines[0])
keys = ["deals", "frames", "frame_ms_median", "frame_ms_p95", "frame_ms_max", "startup_s", "rss_mb"]
missing = [k for k in keys if k not in stats]
if missing:
    sys.exit(f"stats lack {missing}: {stats}")
bad = [k for k in keys if not isinstance(stats[k], (int, float)) or not math.isfinite(stats[k]) or stats[k] < 0]
if bad:
    sys.exit(f"stats not numbers >= 0: {bad}: {stats}")
if stats["deals"] != 2:
    sys.exit(f"deals = {stats['deals']}, expected 2")
if stats["frames"] <= 0 or stats["rss_mb"] <= 0 or stats["startup_s"] <= 0:
    sys.exit(f"no frames, memory or start-up time: {stats}")
print(json.dumps(stats))
EOF
}

run_autoplay() { # OUT_FILE COMMAND...: runs it, prints the wall time in seconds
    local out=$1
    shift
    local t0 t1 rc=0
    t0=$("$PY" -c "import time; print(time.time())")
    with_timeout "$@" --autoplay 2 --speed instant --autosave > "$out" 2> "$out.err" || rc=$?
    t1=$("$PY" -c "import time; print(time.time())")
    if [ "$rc" != 0 ]; then
        cat "$out" "$out.err" >&2
        fail "autoplay exited $rc"
    fi
    "$PY" -c "print(round($t1 - $t0, 2))"
}

touch "$TMP/marker" # anything in the bundle newer than this was written by the app
wall=$(run_autoplay "$TMP/out.txt" env "${user_env[@]}" "${RUN[@]}" "$BIN")
stats=$(check_stats "$TMP/out.txt") || { cat "$TMP/out.txt" "$TMP/out.txt.err" >&2; fail "bad stats"; }
echo "smoke: autoplay ok in ${wall}s: $stats"

# At a speed with pauses the bots think in the worker process while the window waits (at
# instant speed the deal can finish through the same worker without waiting on it): under Wine
# its pool's empty wake-up messages once hung the bots for ever (session/worker.py).
if [ -n "$WINE_MODE" ]; then
    t0=$("$PY" -c "import time; print(time.time())")
    env "${user_env[@]}" "${RUN[@]}" "$BIN" --autoplay 1 --speed normal > "$TMP/normal.txt" 2> "$TMP/normal.err" &
    pid=$!
    ( sleep 300 && kill "$pid" 2> /dev/null ) &
    watchdog=$!
    rc=0
    wait "$pid" || rc=$?
    kill "$watchdog" 2> /dev/null || true
    [ "$rc" = 0 ] && grep -q '"deals": 1' "$TMP/normal.txt" \
        || { cat "$TMP/normal.txt" "$TMP/normal.err" >&2; fail "a deal at --speed normal did not finish (rc $rc): the bots stalled"; }
    echo "smoke: a deal at --speed normal, the bots in the worker process: ok in $("$PY" -c "import time; print(round(time.time() - $t0, 1))")s"
fi

# ---------------------------------------------------------------- 4. files in the per-user folders only
if [ -n "$SAVE" ]; then
    [ -s "$SAVE" ] || fail "no autosave at $SAVE"
    echo "smoke: autosave written to the per-user folder: ${SAVE_WIN:+$SAVE_WIN = }$SAVE"
    [ "$OS" = windows ] && rm -f "$SAVE" "$SAVE-wal" "$SAVE-shm"
fi
changed=$(find "$BUNDLE" -newer "$TMP/marker" | head -5)
[ -z "$changed" ] || fail "the app wrote into its own install folder: $changed"

# ---------------------------------------------------------------- 5. a read-only install folder
if [ "$OS" != windows ]; then
    RO="$TMP/readonly"
    mkdir -p "$RO"
    cp -R "$BUNDLE" "$RO/"
    RO_BUNDLE="$RO/$(basename "$BUNDLE")"
    chmod -R a-w "$RO_BUNDLE"
    chmod 755 "$TMP" "$RO"
    RO_HOME="$TMP/ro-home"
    mkdir -p "$RO_HOME"
    ro_env=(HOME="$RO_HOME" XDG_CONFIG_HOME="$RO_HOME/.config" XDG_DATA_HOME="$RO_HOME/.local/share")
    runner=()
    if [ "$(id -u)" = 0 ]; then
        # root may write anywhere: run as `nobody`, who owns only the home folder
        command -v setpriv >/dev/null 2>&1 || fail "setpriv is needed to run the read-only check as root"
        chown -R nobody "$RO_HOME"
        runner=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups --)
    fi
    RO_RUNNER=("${runner[@]}")
    if [ -n "$WINE_MODE" ]; then
        # nobody's own prefix (Wine wants its user to own it): its %LOCALAPPDATA% for the save
        mkdir -p "$TMP/ro-prefix"
        [ ${#runner[@]} -eq 0 ] || chown nobody "$TMP/ro-prefix"
        mapfile -t prefix_env < <(wine_env "$TMP/ro-prefix" | tr ' ' '\n')
        ro_env+=("${prefix_env[@]}")
        ro_appdata=$(new_prefix "${runner[@]}" -- "${ro_env[@]}")
        ro_save="$("${runner[@]}" env "${ro_env[@]}" winepath -u "$ro_appdata" 2> /dev/null)/vira-desktop/vira-desktop/autosave.sqlite3"
    fi
    RO_BIN=$(binary_in "$RO_BUNDLE")
    if "${runner[@]}" touch "$RO_BUNDLE/.probe" 2>/dev/null; then
        fail "could not make $RO_BUNDLE read-only for the test"
    fi
    ro_wall=$(run_autoplay "$TMP/ro.txt" "${runner[@]}" env "${ro_env[@]}" "${RUN[@]}" "$RO_BIN")
    check_stats "$TMP/ro.txt" > /dev/null || fail "bad stats from the read-only bundle"
    if [ -n "$SAVE" ] && [ "$OS" != windows ]; then
        [ -n "$WINE_MODE" ] || ro_save="$RO_HOME${SAVE#"$HOME_DIR"}"
        [ -s "$ro_save" ] || fail "no autosave at $ro_save from the read-only bundle"
    fi
    echo "smoke: read-only install folder ok (${ro_wall}s, run as $(if [ ${#runner[@]} -gt 0 ]; then echo nobody; else id -un; fi))"
fi

# ---------------------------------------------------------------- 6. network play on loopback
PORT=$("$PY" -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
PREFIX="s$("$PY" -c "import secrets; print(secrets.token_hex(3))")" # another host on this loopback is not ours
mkdir -p "$TMP/records"
t0=$("$PY" -c "import time; print(time.time())")
with_timeout env "${user_env[@]}" "${RUN[@]}" "$BIN" host --port "$PORT" --bind 127.0.0.1 --prefix "$PREFIX" \
    --players 3 --humans 1 --deals 1 --once --no-save --records "$TMP/records" --deal-pause 0 --bot-pause 0.05 \
    --bot-processes 1 > "$TMP/host.out" 2> "$TMP/host.err" &
host_pid=$!
"$PY" - "$PORT" "$host_pid" <<'EOF' || { cat "$TMP/host.err" >&2; fail "vira host did not listen on 127.0.0.1:$PORT"; }
import os, socket, sys, time
port, pid = int(sys.argv[1]), int(sys.argv[2])
deadline = time.monotonic() + 120
while time.monotonic() < deadline:
    with socket.socket() as s:
        if s.connect_ex(("127.0.0.1", port)) == 0:
            sys.exit(0)
    try:
        os.kill(pid, 0)
    except OSError:
        sys.exit(1)
    time.sleep(0.2)
sys.exit(1)
EOF
list_rc=0
with_timeout env "${user_env[@]}" "${RUN[@]}" "$BIN" join --list 127.0.0.1 --seconds 3 > "$TMP/list.out" 2> "$TMP/list.err" || list_rc=$?
if [ "$OS" = linux ]; then
    grep -q "^$PREFIX-1 .*ws://127.0.0.1:$PORT/$PREFIX-1 .*1 seat free" "$TMP/list.out" \
        || { cat "$TMP/list.out" "$TMP/list.err" "$TMP/host.err" >&2; fail "vira join --list did not find the host's table (rc $list_rc)"; }
    echo "smoke: vira join --list found $PREFIX-1 (zeroconf, on loopback)"
elif [ "$list_rc" -gt 1 ]; then
    cat "$TMP/list.err" >&2
    fail "vira join --list failed (rc $list_rc)"
fi
join_rc=0
with_timeout env "${user_env[@]}" "${RUN[@]}" "$BIN" join "127.0.0.1:$PORT" --table "$PREFIX-1" --name Smoke \
    --bot random --reconnect 0 > "$TMP/join.out" 2> "$TMP/join.err" || join_rc=$?
host_rc=0
wait "$host_pid" || host_rc=$?
if [ "$join_rc" != 0 ] || [ "$host_rc" != 0 ]; then
    tail -n 20 "$TMP/join.err" "$TMP/host.err" >&2
    fail "network play: vira join exited $join_rc, vira host $host_rc"
fi
[ -n "$(find "$TMP/records" -name "$PREFIX-1-*-deal-001.yaml")" ] || { cat "$TMP/host.err" >&2; fail "vira host wrote no deal record"; }
echo "smoke: vira host and vira join --bot played a deal on loopback in $("$PY" -c "import time; print(round(time.time() - $t0, 1))")s (websockets; the host's bots in its worker pool)"

size_mb=$(du -sk "$BUNDLE" | cut -f1)
"$PY" -c "import json, sys; s = json.loads(sys.argv[1]); s.update(wall_s=$wall, bundle_mb=round($size_mb / 1024, 1), version='$WANT_VERSION'); print('smoke: ok', json.dumps(s))" "$stats"
