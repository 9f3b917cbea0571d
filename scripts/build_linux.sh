#!/usr/bin/env bash
# Build the Linux release from a clean checkout:
#   dist/vira/                                   the one-folder bundle (pyinstaller.spec)
#   dist/vira-VERSION-linux-ARCH.tar.gz          the bundle + .desktop file + icons + install.sh
#   dist/vira-desktop_VERSION_DEBARCH.deb        when dpkg-deb is available
# It makes its own build venv (build/venv: `pip install . pyinstaller`), never touching .venv.
#   PYTHON=python3.12 scripts/build_linux.sh     choose the interpreter (default python3)
#   NO_DEB=1 scripts/build_linux.sh              skip the .deb
# Then: scripts/smoke_bundle.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PYTHON=${PYTHON:-python3}
VENV=${VENV:-build/venv}
PYINSTALLER_SPEC=${PYINSTALLER_SPEC:-"pyinstaller>=6.10,<7"}

say() { printf '\n== %s\n' "$*"; }

# ---------------------------------------------------------------- build venv
if [ ! -x "$VENV/bin/python" ]; then
    say "creating $VENV with $PYTHON"
    "$PYTHON" -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q --upgrade pip
fi
say "installing the game (as a wheel) and PyInstaller into $VENV"
"$VENV/bin/python" -m pip install -q --upgrade "$PYINSTALLER_SPEC"
# --force-reinstall --no-deps: the working tree's code, even when the version number is unchanged
"$VENV/bin/python" -m pip install -q .
"$VENV/bin/python" -m pip install -q --force-reinstall --no-deps .

# The wheel lists its packages (pyproject.toml); a subpackage missing there would be missing here.
"$VENV/bin/python" - <<'EOF'
import pathlib, sys, tomllib
listed = set(tomllib.loads(pathlib.Path("pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
found = {".".join(p.parent.parts) for p in pathlib.Path("vira_desktop").rglob("__init__.py")}
missing = sorted(found - listed)
if missing:
    sys.exit(f"pyproject.toml [tool.setuptools] packages lacks {', '.join(missing)}")
EOF

VERSION=$(cd /tmp && "$ROOT/$VENV/bin/python" -c "import vira_desktop; print(vira_desktop.__version__)")
ARCH=$(uname -m)
say "Vira $VERSION for linux-$ARCH"

# ---------------------------------------------------------------- the bundle
say "pyinstaller pyinstaller.spec"
rm -rf dist/vira build/pyinstaller
"$VENV/bin/pyinstaller" --noconfirm --clean --log-level WARN \
    --distpath dist --workpath build/pyinstaller pyinstaller.spec

frozen_version=$(dist/vira/vira --version)
if [ "$frozen_version" != "vira $VERSION" ]; then
    echo "the frozen app says '$frozen_version', the package says $VERSION" >&2
    exit 1
fi

# ---------------------------------------------------------------- tar.gz
say "tar.gz"
# Reproducible archives: one timestamp (the last commit's, else now), sorted names, owner 0.
EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
NAME="vira-$VERSION-linux-$ARCH"
STAGE="build/stage/$NAME"
rm -rf build/stage
mkdir -p "$STAGE/icons"
cp -a dist/vira/. "$STAGE/"
cp packaging/linux/vira-desktop.desktop packaging/linux/install.sh packaging/linux/uninstall.sh "$STAGE/"
cp assets/icons/vira-{16,24,32,48,64,128,256,512}.png "$STAGE/icons/"
cat > "$STAGE/README.txt" <<EOF
Vira $VERSION (Linux, $ARCH)

Run it from here:   ./vira
Install it:         ./install.sh            (for you: ~/.local, adds the menu entry)
                    sudo ./install.sh /usr/local   (for everyone)
Uninstall:          ~/.local/lib/vira-desktop/uninstall.sh   (or ./uninstall.sh [PREFIX])

Settings are kept in ~/.config/vira-desktop/, the autosave in ~/.local/share/vira-desktop/;
uninstalling leaves them. Licences: _internal/THIRD_PARTY.md and
_internal/vira_desktop/assets/LICENSES.md.
EOF
TARBALL="dist/$NAME.tar.gz"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$EPOCH" \
    -C build/stage -cf - "$NAME" | gzip -9n > "$TARBALL"

# ---------------------------------------------------------------- .deb
DEB=""
if [ -z "${NO_DEB:-}" ] && command -v dpkg-deb >/dev/null 2>&1; then
    say ".deb"
    DEBARCH=$(dpkg --print-architecture 2>/dev/null || echo amd64)
    ROOTFS=build/deb/root
    rm -rf build/deb
    mkdir -p "$ROOTFS/DEBIAN" "$ROOTFS/opt" "$ROOTFS/usr/bin" "$ROOTFS/usr/share/applications" \
        "$ROOTFS/usr/share/doc/vira-desktop"
    cp -a dist/vira "$ROOTFS/opt/vira-desktop"
    ln -s /opt/vira-desktop/vira "$ROOTFS/usr/bin/vira"
    sed 's|^Exec=vira$|Exec=/usr/bin/vira|' packaging/linux/vira-desktop.desktop \
        > "$ROOTFS/usr/share/applications/vira-desktop.desktop"
    for size in 16 24 32 48 64 128 256 512; do
        mkdir -p "$ROOTFS/usr/share/icons/hicolor/${size}x${size}/apps"
        cp "assets/icons/vira-$size.png" "$ROOTFS/usr/share/icons/hicolor/${size}x${size}/apps/vira-desktop.png"
    done
    cp packaging/linux/copyright "$ROOTFS/usr/share/doc/vira-desktop/copyright"
    # libc: the newest GLIBC symbol version any bundled binary asks for
    glibc=$(find "$ROOTFS/opt" -type f \( -name '*.so*' -o -name vira \) -exec objdump -T {} + 2>/dev/null \
        | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1 || true)
    depends="libc6${glibc:+ (>= $glibc)}"
    size=$(du -sk --exclude=DEBIAN "$ROOTFS" | cut -f1)
    sed -e "s/@VERSION@/$VERSION/" -e "s/@ARCH@/$DEBARCH/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
        packaging/linux/debian-control.in > "$ROOTFS/DEBIAN/control"
    find "$ROOTFS" -exec touch -h -d "@$EPOCH" {} +
    chmod -R u+rwX,go+rX,go-w "$ROOTFS"
    DEB="dist/vira-desktop_${VERSION}_${DEBARCH}.deb"
    SOURCE_DATE_EPOCH=$EPOCH dpkg-deb --root-owner-group -Zxz --build "$ROOTFS" "$DEB" >/dev/null
    dpkg-deb --info "$DEB" | sed -n '/Package:/,/Recommends:/p'
fi

# ---------------------------------------------------------------- report
say "done"
printf 'bundle   %s  %s\n' "$(du -sh dist/vira | cut -f1)" "dist/vira/"
printf 'tar.gz   %s  %s\n' "$(du -h "$TARBALL" | cut -f1)" "$TARBALL"
[ -n "$DEB" ] && printf '.deb     %s  %s\n' "$(du -h "$DEB" | cut -f1)" "$DEB"
echo "next: scripts/smoke_bundle.sh"
