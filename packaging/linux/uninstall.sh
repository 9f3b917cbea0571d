#!/bin/sh
# Remove what install.sh put under PREFIX: by default the prefix this copy was installed
# under (PREFIX/lib/vira-desktop/uninstall.sh), else ~/.local. Settings and saves stay in
# ~/.config/vira-desktop and ~/.local/share/vira-desktop: delete those folders to forget them.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
default="${HOME}/.local"
if [ "$(basename "$here")" = vira-desktop ] && [ "$(basename "$(dirname "$here")")" = lib ]; then
    default=$(dirname "$(dirname "$here")")
fi
prefix=${1:-$default}
lib="$prefix/lib/vira-desktop"
[ -e "$lib/vira" ] || { echo "uninstall.sh: Vira is not installed under $prefix" >&2; exit 1; }
rm -f "$prefix/share/applications/vira-desktop.desktop"
for icon in "$prefix"/share/icons/hicolor/*/apps/vira-desktop.png; do
    if [ -e "$icon" ]; then rm -f "$icon"; fi
done
if [ -L "$prefix/bin/vira" ] && [ "$(readlink "$prefix/bin/vira")" = "$lib/vira" ]; then
    rm -f "$prefix/bin/vira"
fi
rm -rf "$lib"
echo "Vira removed from $prefix"
