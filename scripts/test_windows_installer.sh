#!/usr/bin/env bash
# Test the Windows installer under Wine as a user would meet it, on Linux:
#   scripts/test_windows_installer.sh [SETUP.exe]   (default: dist/vira-VERSION-windows-x64-setup.exe)
# In a Wine prefix made afresh for the test (a new Windows profile; Wine's user has
# administrator rights, as most Windows users do):
#   1. for the current user: `setup.exe /S /DesktopIcon` (silent, the default mode) puts the
#      program in %LOCALAPPDATA%\Programs\Vira, the Start-menu entry in the user's Programs,
#      the desktop icon, and the Apps & features entry under HKCU;
#   2. the installed `vira-cli.exe --version` prints the version, and `--autoplay 1` plays a
#      deal (headless, SDL dummy drivers), its autosave in %LOCALAPPDATA%\vira-desktop\;
#   3. the uninstaller, run as Apps & features runs it (the entry's QuietUninstallString):
#      the program's folder, its shortcuts and the entry are gone; the player's saves stay;
#   4. the same for all users: `setup.exe /S /AllUsers`, C:\Program Files\Vira, the common
#      Start menu, HKLM; and its uninstaller.
# What is on disk and in the registry is printed before and after each step. Exit 1 on the
# first check that fails.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=$(sed -n 's/^__version__ = "\(.*\)"/\1/p' vira_desktop/__init__.py)
SETUP=${1:-dist/vira-$VERSION-windows-x64-setup.exe}

fail() {
    echo "installer test: FAIL: $*" >&2
    exit 1
}
say() { printf '\n== %s\n' "$*"; }
command -v wine > /dev/null || fail "needs Wine (apt-get install wine wine64)"
[ -f "$SETUP" ] || fail "no installer at $SETUP (run scripts/build_windows.sh first)"
SETUP=$(cd "$(dirname "$SETUP")" && pwd)/$(basename "$SETUP")

TMP=$(mktemp -d)
export WINEPREFIX="$TMP/wineprefix" WINEARCH=win64 WINEDEBUG=-all HOME="$TMP/home"
export WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d" # no menu entries on the Linux desktop
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
mkdir -p "$HOME"
cleanup() {
    wineserver -k > /dev/null 2>&1 || true
    rm -rf "$TMP"
}
trap cleanup EXIT

# Windows programs' standard streams on pipes (Python 3.13 under Wine 8 cannot write to a
# regular file as stdout); the exit code is the program's.
win() {
    { wine "$@" < /dev/null 2>&1 1>&3 3>&- | cat >&2 3>&-; } 3>&1 | cat
}
winvar() { win cmd /c "echo %$1%" 2> /dev/null | tr -d '\r'; }
unix() { winepath -u "$1" 2> /dev/null; }

say "a fresh Wine prefix: $WINEPREFIX ($(wine --version 2> /dev/null))"
# The server first, kept till the end, then wineboot: Wine's own processes (services.exe ...)
# start with their streams on the log, not on a pipe of this script they would hold open.
mkdir -p "$WINEPREFIX"
wineserver -p > /dev/null 2>&1 < /dev/null || true
wine wineboot --init > "$TMP/wineboot.log" 2>&1 < /dev/null || { cat "$TMP/wineboot.log" >&2; fail "wineboot failed"; }
LOCALAPPDATA_W=$(winvar LOCALAPPDATA)
APPDATA_W=$(winvar APPDATA)
PROFILE_W=$(winvar USERPROFILE)
PROGRAMFILES_W=$(winvar ProgramW6432)
[ -n "$PROGRAMFILES_W" ] && [ "$PROGRAMFILES_W" != "%ProgramW6432%" ] || PROGRAMFILES_W=$(winvar ProgramFiles)
PROGRAMDATA_W=$(winvar ProgramData)
PUBLIC_W=$(winvar PUBLIC)
echo "user $(winvar USERNAME): %LOCALAPPDATA% = $LOCALAPPDATA_W, %APPDATA% = $APPDATA_W"

# what the test looks at, as Windows names it (and where that is on this disk)
USER_DIR_W="$LOCALAPPDATA_W\Programs\Vira"
USER_LNK_W="$APPDATA_W\Microsoft\Windows\Start Menu\Programs\Vira.lnk"
USER_DESKTOP_W="$PROFILE_W\Desktop\Vira.lnk"
ALL_DIR_W="$PROGRAMFILES_W\Vira"
ALL_LNK_W="$PROGRAMDATA_W\Microsoft\Windows\Start Menu\Programs\Vira.lnk"
ALL_DESKTOP_W="$PUBLIC_W\Desktop\Vira.lnk"
DATA_W="$LOCALAPPDATA_W\vira-desktop"
USER_DIR=$(unix "$USER_DIR_W")
USER_LNK=$(unix "$USER_LNK_W")
USER_DESKTOP=$(unix "$USER_DESKTOP_W")
ALL_DIR=$(unix "$ALL_DIR_W")
ALL_LNK=$(unix "$ALL_LNK_W")
ALL_DESKTOP=$(unix "$ALL_DESKTOP_W")
DATA=$(unix "$DATA_W")
echo "C: is $(unix 'C:')"
KEY='Software\Microsoft\Windows\CurrentVersion\Uninstall\ViraDesktop'

regvalue() { # ROOT NAME: a value of the Apps & features entry, or nothing
    { win reg query "$1\\$KEY" /v "$2" 2> /dev/null || true; } | tr -d '\r' | sed -n "s/^ *$2 *REG_[A-Z_]* *//p"
}
show() { # what there is, in the user's view of the disk and the registry
    local label=$1 dir lnk name
    echo "-- $label"
    for dir in "$USER_DIR_W" "$ALL_DIR_W"; do
        if [ -d "$(unix "$dir")" ]; then
            printf '   %s: %s files, %s\n' "$dir" "$(find "$(unix "$dir")" -type f | wc -l)" "$(du -sh "$(unix "$dir")" | cut -f1)"
            find "$(unix "$dir")" -mindepth 1 -maxdepth 1 -printf '      %f\n' | sort
        else
            echo "   $dir: absent"
        fi
    done
    for lnk in "$USER_LNK_W" "$USER_DESKTOP_W" "$ALL_LNK_W" "$ALL_DESKTOP_W"; do
        if [ -e "$(unix "$lnk")" ]; then echo "   $lnk: present"; else echo "   $lnk: absent"; fi
    done
    for root in HKCU HKLM; do
        name=$(regvalue "$root" DisplayName)
        if [ -n "$name" ]; then
            echo "   $root\\$KEY: DisplayName=$name, DisplayVersion=$(regvalue "$root" DisplayVersion)"
            echo "      UninstallString=$(regvalue "$root" UninstallString)"
        else
            echo "   $root\\$KEY: absent"
        fi
    done
    if [ -d "$DATA" ]; then
        echo "   the player's data, $DATA_W:"
        find "$DATA" -type f -printf '      %P (%s bytes)\n' | sort
    else
        echo "   the player's data, $DATA_W: absent"
    fi
}

uninstall() { # ROOT: runs the entry's QuietUninstallString, as Apps & features would
    local quiet exe args
    quiet=$(regvalue "$1" QuietUninstallString)
    [ -n "$quiet" ] || fail "no QuietUninstallString under $1\\$KEY"
    [[ "$quiet" =~ ^\"([^\"]+)\"(.*)$ ]] || fail "QuietUninstallString is '$quiet'"
    exe=${BASH_REMATCH[1]}
    read -r -a args <<< "${BASH_REMATCH[2]}"
    echo "\$ wine \"$exe\" ${args[*]}"
    win "$exe" "${args[@]}" || fail "the uninstaller exited $?"
    # it hands over to a copy of itself in %TEMP% (~nsu.tmp\Un_A.exe), which does the work:
    # wait for that copy to end
    local i
    for ((i = 0; i < 120; i++)); do
        pgrep -f '~nsu[^ ]*\.tmp' > /dev/null || break
        sleep 0.5
    done
    ! pgrep -f '~nsu[^ ]*\.tmp' > /dev/null || fail "the uninstaller is still running after 60 s"
}

# ---------------------------------------------------------------- 1. per-user install
say "1. install for the current user: $(basename "$SETUP") /S /DesktopIcon"
echo "installer: $(du -h "$SETUP" | cut -f1)"
show "before"
t0=$(date +%s)
win "$SETUP" /S /DesktopIcon || fail "setup exited $?"
echo "installed in $(($(date +%s) - t0)) s"
show "after install"
for f in vira.exe vira-cli.exe uninstall.exe _internal/python313.dll; do
    [ -f "$USER_DIR/$f" ] || fail "no $f in $USER_DIR"
done
[ -f "$USER_LNK" ] || fail "no Start-menu entry $USER_LNK"
[ -f "$USER_DESKTOP" ] || fail "no desktop icon $USER_DESKTOP"
[ -n "$(regvalue HKCU DisplayName)" ] || fail "no Apps & features entry under HKCU"
[ -z "$(regvalue HKLM DisplayName)" ] || fail "a per-user install wrote an entry under HKLM"
[ ! -e "$ALL_DIR" ] || fail "a per-user install wrote into $ALL_DIR"
[ "$(regvalue HKCU DisplayVersion)" = "$VERSION" ] || fail "DisplayVersion is not $VERSION"

# ---------------------------------------------------------------- 2. run the installed game
say "2. the installed game"
CLI_W="$LOCALAPPDATA_W\\Programs\\Vira\\vira-cli.exe"
got=$(win "$CLI_W" --version | tr -d '\r')
echo "\$ vira-cli.exe --version: $got"
[ "$got" = "vira $VERSION" ] || fail "--version printed '$got'"
echo "\$ vira-cli.exe --autoplay 1 --speed instant --autosave"
out=$(win "$CLI_W" --autoplay 1 --speed instant --autosave 2> "$TMP/autoplay.err" | tr -d '\r') || { cat "$TMP/autoplay.err" >&2; fail "autoplay failed"; }
stats=$(grep '^{' <<< "$out" | tail -1)
echo "$stats"
[[ "$stats" == *'"deals": 1'* ]] || fail "autoplay printed no stats for 1 deal: $out"
if grep -q "compiled helper" "$TMP/autoplay.err"; then fail "the installed game runs without its compiled helper"; fi
[ -s "$DATA/vira-desktop/autosave.sqlite3" ] || fail "no autosave in $DATA/vira-desktop"
printf 'autosave: %s\\vira-desktop\\vira-desktop\\autosave.sqlite3 (%s bytes)\n' "$LOCALAPPDATA_W" "$(stat -c %s "$DATA/vira-desktop/autosave.sqlite3")"

# ---------------------------------------------------------------- 3. uninstall
say "3. uninstall (Apps & features: the HKCU entry's QuietUninstallString)"
save_before=$(sha256sum "$DATA/vira-desktop/autosave.sqlite3" | cut -d' ' -f1)
uninstall HKCU
show "after uninstall"
[ ! -e "$USER_DIR" ] || fail "the program's folder $USER_DIR is still there: $(find "$USER_DIR" | head -5)"
[ ! -e "$USER_LNK" ] || fail "the Start-menu entry is still there"
[ ! -e "$USER_DESKTOP" ] || fail "the desktop icon is still there"
[ -z "$(regvalue HKCU DisplayName)" ] || fail "the Apps & features entry is still there"
[ -s "$DATA/vira-desktop/autosave.sqlite3" ] || fail "the uninstaller took the player's autosave"
[ "$(sha256sum "$DATA/vira-desktop/autosave.sqlite3" | cut -d' ' -f1)" = "$save_before" ] || fail "the autosave changed"
echo "the player's autosave is kept, unchanged"

# ---------------------------------------------------------------- 4. all users
say "4. install for all users: $(basename "$SETUP") /S /AllUsers"
win "$SETUP" /S /AllUsers || fail "setup /AllUsers exited $?"
show "after install"
[ -f "$ALL_DIR/vira.exe" ] || fail "not installed in $ALL_DIR"
[ -f "$ALL_LNK" ] || fail "no Start-menu entry for all users $ALL_LNK"
[ ! -e "$ALL_DESKTOP" ] || fail "a desktop icon though none was asked for"
[ -n "$(regvalue HKLM DisplayName)" ] || fail "no Apps & features entry under HKLM"
[ -z "$(regvalue HKCU DisplayName)" ] || fail "an all-users install wrote an entry under HKCU"
got=$(win "$PROGRAMFILES_W\\Vira\\vira-cli.exe" --version | tr -d '\r')
printf '$ "%s\\Vira\\vira-cli.exe" --version: %s\n' "$PROGRAMFILES_W" "$got"
[ "$got" = "vira $VERSION" ] || fail "--version printed '$got'"
uninstall HKLM
show "after uninstall"
[ ! -e "$ALL_DIR" ] || fail "$ALL_DIR is still there"
[ ! -e "$ALL_LNK" ] || fail "the all-users Start-menu entry is still there"
[ -z "$(regvalue HKLM DisplayName)" ] || fail "the HKLM entry is still there"
[ -s "$DATA/vira-desktop/autosave.sqlite3" ] || fail "the player's autosave is gone"

say "installer test: ok (per-user and all-users install, run, uninstall; saves kept)"
