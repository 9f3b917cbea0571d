#!/usr/bin/env bash
# macOS: the disk image of Vira.app (run on a Mac, after `pyinstaller pyinstaller.spec`).
#   packaging/macos/make_dmg.sh            -> dist/vira-VERSION-macos-ARCH.dmg
# The image holds Vira.app and a link to /Applications: drag one onto the other to install;
# drag Vira.app to the Bin to uninstall. Settings and the autosave stay in
# ~/Library/Application Support/vira-desktop/ (platformdirs).
#
# The app is signed ad hoc by PyInstaller, not with a Developer ID, and not notarised: the
# first start needs right-click → Open (or `xattr -dr com.apple.quarantine /Applications/Vira.app`).
# With a Developer ID, sign before making the image (codesign --deep --options runtime …)
# and notarise the .dmg (xcrun notarytool submit … --wait; xcrun stapler staple …).
set -euo pipefail
cd "$(dirname "$0")/../.."
VERSION=$(sed -n 's/^__version__ = "\(.*\)"/\1/p' vira_desktop/__init__.py)
ARCH=$(uname -m)
APP=dist/Vira.app
[ -d "$APP" ] || { echo "no $APP: run pyinstaller pyinstaller.spec first" >&2; exit 1; }

plist_version=$(/usr/libexec/PlistBuddy -c "Print :CFBundleShortVersionString" "$APP/Contents/Info.plist")
[ "$plist_version" = "$VERSION" ] || { echo "Info.plist says $plist_version, the package $VERSION" >&2; exit 1; }

STAGE=build/dmg
rm -rf "$STAGE"
mkdir -p "$STAGE"
cp -R "$APP" "$STAGE/"
ln -s /Applications "$STAGE/Applications"
DMG="dist/vira-$VERSION-macos-$ARCH.dmg"
rm -f "$DMG"
hdiutil create -volname "Vira $VERSION" -srcfolder "$STAGE" -fs HFS+ -format UDZO -ov "$DMG"
hdiutil verify "$DMG"
echo "$DMG  $(du -h "$DMG" | cut -f1)"
