#!/bin/sh
# Install Vira from this unpacked folder, for you alone (default) or for everyone:
#   ./install.sh                    -> ~/.local  (no root needed)
#   sudo ./install.sh /usr/local    -> /usr/local
# It copies this folder to PREFIX/lib/vira-desktop, links PREFIX/bin/vira, and adds the
# menu entry and icons. ./uninstall.sh [PREFIX] removes exactly these again; your settings
# and saves (~/.config/vira-desktop, ~/.local/share/vira-desktop) are left alone.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prefix=${1:-${HOME}/.local}
lib="$prefix/lib/vira-desktop"
apps="$prefix/share/applications"
icons="$prefix/share/icons/hicolor"

[ -x "$here/vira" ] || { echo "install.sh: run it from the unpacked vira folder" >&2; exit 1; }
mkdir -p "$prefix/bin" "$apps"
rm -rf "$lib.new"
mkdir -p "$lib.new"
cp -R "$here/vira" "$here/_internal" "$here/uninstall.sh" "$lib.new/"
rm -rf "$lib"
mv "$lib.new" "$lib"
ln -sf "$lib/vira" "$prefix/bin/vira"
for png in "$here"/icons/vira-*.png; do
    size=$(basename "$png" .png | sed 's/^vira-//')
    mkdir -p "$icons/${size}x${size}/apps"
    cp "$png" "$icons/${size}x${size}/apps/vira-desktop.png"
done
# Exec with the full path: PREFIX/bin need not be on the desktop's PATH.
sed "s|^Exec=vira\$|Exec=$lib/vira|" "$here/vira-desktop.desktop" > "$apps/vira-desktop.desktop"
echo "Vira installed in $lib; start it from the menu (Games) or with $prefix/bin/vira"
