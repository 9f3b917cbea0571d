; NSIS 3 script: the Windows installer of Vira Desktop (Modern UI 2, MultiUser).
;
; Built by scripts/build_windows.sh (on Linux, with Debian's makensis; on Windows the same):
;   makensis -INPUTCHARSET UTF8 -DVERSION=0.1.0 -DVERSION_QUAD=0.1.0.0 \
;            -DDIST_DIR=dist/windows/vira -DICON=assets/icons/vira.ico \
;            -DOUT_FILE=dist/vira-0.1.0-windows-x64-setup.exe packaging/windows/vira.nsi
; (absolute paths: makensis runs from this script's folder.) The version comes from
; vira_desktop/__init__.py, as `vira-cli --version` does.
;
; It installs the one-folder bundle (vira.exe, vira-cli.exe, _internal\) either
;   for the current user, no administrator rights: %LOCALAPPDATA%\Programs\Vira, registered
;     under HKCU (the default, also for an administrator), or
;   for all users: C:\Program Files\Vira, registered under HKLM (needs administrator rights),
; with a Start-menu entry, an optional desktop icon, and an uninstaller in Settings → Apps.
; Silent:   setup.exe /S [/CurrentUser | /AllUsers] [/DesktopIcon] [/D=C:\path\Vira]
;           uninstall.exe /S   (Apps & features' QuietUninstallString)
; The game never writes to its install folder: settings, the autosave and history live in
; %LOCALAPPDATA%\vira-desktop\vira-desktop\ and are kept when the program is uninstalled.

Unicode true
; a 64-bit installer: the game is x64 only, and it runs in a 64-bit-only Wine (wine64)
Target amd64-unicode
ManifestDPIAware true
SetCompressor /SOLID lzma
SetCompressorDictSize 32

!ifndef VERSION
  !error "VERSION is not defined (makensis -DVERSION=X.Y.Z ...)"
!endif
!ifndef VERSION_QUAD
  !define VERSION_QUAD "${VERSION}.0"
!endif
!ifndef DIST_DIR
  !define DIST_DIR "..\..\dist\windows\vira"
!endif
!ifndef ICON
  !define ICON "..\..\assets\icons\vira.ico"
!endif
!ifndef OUT_FILE
  !define OUT_FILE "..\..\dist\vira-${VERSION}-windows-x64-setup.exe"
!endif

!define APP_NAME "Vira"
!define APP_EXE "vira.exe"
!define PUBLISHER "Vira Desktop"
; Apps & features entry and the installer's own settings (install folder and mode, for upgrades)
!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\ViraDesktop"
!define SETTINGS_KEY "Software\Vira Desktop"

Name "${APP_NAME}"
Caption "${APP_NAME} ${VERSION} Setup"
OutFile "${OUT_FILE}"
BrandingText "${APP_NAME} ${VERSION}"

VIProductVersion "${VERSION_QUAD}"
VIFileVersion "${VERSION_QUAD}"
VIAddVersionKey /LANG=1033 "ProductName" "Vira Desktop"
VIAddVersionKey /LANG=1033 "ProductVersion" "${VERSION}"
VIAddVersionKey /LANG=1033 "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=1033 "FileDescription" "Vira Desktop installer"
VIAddVersionKey /LANG=1033 "CompanyName" "${PUBLISHER}"
VIAddVersionKey /LANG=1033 "LegalCopyright" "MIT licence; see LICENSES"

; ---------------------------------------------------------------- per-user or all users
!define MULTIUSER_EXECUTIONLEVEL Highest
!define MULTIUSER_MUI
!define MULTIUSER_INSTALLMODE_COMMANDLINE
!define MULTIUSER_INSTALLMODE_DEFAULT_CURRENTUSER
!define MULTIUSER_USE_PROGRAMFILES64
!define MULTIUSER_INSTALLMODE_INSTDIR "${APP_NAME}"
!define MULTIUSER_INSTALLMODE_INSTDIR_REGISTRY_KEY "${SETTINGS_KEY}"
!define MULTIUSER_INSTALLMODE_INSTDIR_REGISTRY_VALUENAME "InstallDir"
!define MULTIUSER_INSTALLMODE_DEFAULT_REGISTRY_KEY "${SETTINGS_KEY}"
!define MULTIUSER_INSTALLMODE_DEFAULT_REGISTRY_VALUENAME "InstallMode"
!include MultiUser.nsh
!include MUI2.nsh
!include LogicLib.nsh
!include FileFunc.nsh
!include Sections.nsh
!include x64.nsh

; ---------------------------------------------------------------- pages
!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_ABORTWARNING
!define MUI_COMPONENTSPAGE_NODESC

!insertmacro MUI_PAGE_WELCOME
!insertmacro MULTIUSER_PAGE_INSTALLMODE
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_COMPONENTS
!insertmacro MUI_PAGE_INSTFILES
!define MUI_FINISHPAGE_RUN "$INSTDIR\${APP_EXE}"
!define MUI_FINISHPAGE_RUN_TEXT "Start Vira"
!insertmacro MUI_PAGE_FINISH

!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES

!insertmacro MUI_LANGUAGE "English"

; ---------------------------------------------------------------- install
Section "Vira (required)" SecMain
  SectionIn RO
  SetOutPath "$INSTDIR"
  ; an earlier version's bundle goes first, so that no file it had and this one lacks lingers
  RMDir /r "$INSTDIR\_internal"
  File "${DIST_DIR}\vira.exe"
  File "${DIST_DIR}\vira-cli.exe"
  File /r "${DIST_DIR}\_internal"
  WriteUninstaller "$INSTDIR\uninstall.exe"

  ; SetShellVarContext (MultiUser) makes $SMPROGRAMS the user's or everyone's Start menu
  CreateShortcut "$SMPROGRAMS\${APP_NAME}.lnk" "$INSTDIR\${APP_EXE}" "" "$INSTDIR\${APP_EXE}" 0 \
    SW_SHOWNORMAL "" "Vira, Sweden's national card game"

  ; SHCTX is HKCU for the current user, HKLM for all users
  WriteRegStr SHCTX "${SETTINGS_KEY}" "InstallDir" "$INSTDIR"
  WriteRegStr SHCTX "${SETTINGS_KEY}" "InstallMode" "$MultiUser.InstallMode"
  WriteRegStr SHCTX "${UNINST_KEY}" "DisplayName" "${APP_NAME}"
  WriteRegStr SHCTX "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr SHCTX "${UNINST_KEY}" "Publisher" "${PUBLISHER}"
  WriteRegStr SHCTX "${UNINST_KEY}" "Comments" "Sweden's national card game at a desktop card table"
  WriteRegStr SHCTX "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\${APP_EXE},0"
  WriteRegStr SHCTX "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr SHCTX "${UNINST_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe" /$MultiUser.InstallMode'
  WriteRegStr SHCTX "${UNINST_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /$MultiUser.InstallMode /S'
  WriteRegDWORD SHCTX "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD SHCTX "${UNINST_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  WriteRegDWORD SHCTX "${UNINST_KEY}" "EstimatedSize" "$0"
SectionEnd

Section /o "Desktop icon" SecDesktop
  CreateShortcut "$DESKTOP\${APP_NAME}.lnk" "$INSTDIR\${APP_EXE}" "" "$INSTDIR\${APP_EXE}" 0 \
    SW_SHOWNORMAL "" "Vira, Sweden's national card game"
SectionEnd

Function .onInit
  ${IfNot} ${RunningX64}
    MessageBox MB_OK|MB_ICONSTOP "Vira needs 64-bit Windows (x64)." /SD IDOK
    Abort
  ${EndIf}
  ; MultiUser sets $INSTDIR from the mode (and an earlier install): a /D=... given wins
  StrCpy $R9 "$INSTDIR"
  !insertmacro MULTIUSER_INIT
  ${If} $R9 != ""
    StrCpy $INSTDIR "$R9"
  ${EndIf}
  ; /DesktopIcon: the optional desktop icon, also in a silent install
  ${GetParameters} $R0
  ClearErrors
  ${GetOptions} $R0 "/DesktopIcon" $R1
  ${IfNot} ${Errors}
    !insertmacro SelectSection ${SecDesktop}
  ${EndIf}
FunctionEnd

; ---------------------------------------------------------------- uninstall
Function un.onInit
  !insertmacro MULTIUSER_UNINIT
FunctionEnd

Section "Uninstall"
  Delete "$SMPROGRAMS\${APP_NAME}.lnk"
  Delete "$DESKTOP\${APP_NAME}.lnk"
  RMDir /r "$INSTDIR\_internal"
  Delete "$INSTDIR\vira.exe"
  Delete "$INSTDIR\vira-cli.exe"
  Delete "$INSTDIR\uninstall.exe"
  ; only if empty now: whatever the user put there stays
  RMDir "$INSTDIR"
  DeleteRegKey SHCTX "${UNINST_KEY}"
  DeleteRegKey SHCTX "${SETTINGS_KEY}"
  ; The player's settings, autosave and history (%LOCALAPPDATA%\vira-desktop\) are kept.
SectionEnd
